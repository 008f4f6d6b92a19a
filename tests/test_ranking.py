"""Ranking the new causes of a run (``campaign.ranking``), and ``--bundles N`` taking the top N of it."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import pytest
from test_campaign_causes import old_run

from ireefuzz.base import durable as _io
from ireefuzz.tools import baseline
from ireefuzz.tools.campaign import bundling, ranking, report, runs

MATMUL = {"dispatch": "g0_dispatch_0_matmul_like_65x65x16_f32", "pipeline": "CPUDoubleTilingExpert"}
CRASH_SIG = "crash/compile-error/sort/f32/?"
CRASH_EVIDENCE = {"stage": "codegen", "error": "memref.alloca op stack allocation size overflows 64 bits"}


def feats(cause: str, *sigs: str, pipeline: str = ""):
    return ranking.features(cause, sigs, pipeline)


def test_features_and_distance():
    a = feats("memory/alloca/contraction@DoubleTilingExpert", "memory/alloca/fill>matmul>generic[exp]/f32/SxS")
    assert a == {
        "oracle": {"memory"},
        "kind": {"alloca"},
        "ops": {"contraction", "fill", "matmul", "generic"},
        "dtype": {"f32"},
        "pipeline": {"DoubleTilingExpert"},
    }
    assert ranking.distance(a, a) == 0.0
    b = feats("crash/compile-error/x@codegen", "crash/compile-error/sort/i32/?")
    assert ranking.distance(a, b) == 1.0
    near = feats("memory/alloca/contraction@DoubleTilingExpert", "memory/alloca/matmul/f16/?x?")
    assert 0 < ranking.distance(a, near) < ranking.distance(a, b)


def candidate(prior: float, features, weight: float = 1.0):
    return (prior, weight, "?", False, (10, 1), features)


def test_a_near_copy_of_a_known_cause_ranks_below_a_distinct_one():
    known = {
        "memory/alloca/contraction@DoubleTilingExpert": feats(
            "memory/alloca/contraction@DoubleTilingExpert", "memory/alloca/fill>matmul/f32/SxS"
        )
    }
    near = feats("memory/alloca/matvec_like@DoubleTilingExpert", "memory/alloca/fill>matmul/f32/Sx?")
    far = feats("memory/alloca/sort@Default", "memory/alloca/sort/i32/?")
    ranked = ranking.furthest_first({"near": candidate(0.6, near), "far": candidate(0.6, far)}, known)
    assert [r.id for r in ranked] == ["far", "near"]
    assert (
        ranked[1].nearest == "memory/alloca/contraction@DoubleTilingExpert" and ranked[1].distance < ranked[0].distance
    )


def test_a_cause_ranked_above_pushes_its_near_copy_down():
    """Furthest point first: two near copies do not take the top two places."""
    sort_a = feats("crash/compile-error/a@codegen", "crash/compile-error/sort/f32/?")
    sort_b = feats("crash/compile-error/b@codegen", "crash/compile-error/sort/f32/?x?")
    conv = feats("memory/alloca/conv@ConvTileAndDecomposeExpert", "memory/alloca/conv_2d_nchw_fchw>add/f32/SxSxSxS")
    ranked = ranking.furthest_first(
        {"a": candidate(1.0, sort_a), "b": candidate(0.99, sort_b), "conv": candidate(0.6, conv)}, {}
    )
    assert [r.id for r in ranked] == ["a", "conv", "b"]


def test_the_prior_weighs_oracle_reproduction_size_and_frontend_form(tmp_path):
    weight = ranking.oracle_weight
    assert weight("crash") > weight("memory") > weight("metamorphic")
    assert weight("numeric") > weight("fusion")
    assert ranking.size_weight((4, 1)) > ranking.size_weight((4000, 6)) > 0
    assert ranking.REPRODUCED["confirmed"] > ranking.REPRODUCED["unknown"] > ranking.REPRODUCED["flaky"]


def run_with(tmp_path: Path, rows, case_sigs) -> Path:
    return old_run(tmp_path / "run", rows, case_sigs)


def test_rank_reads_the_run_bundles_and_beyond_frontends_flags(tmp_path):
    rows = [
        (0, "memory/alloca/matmul>exp/f32/SxS", MATMUL, 10),
        (1, "memory/alloca/matmul>exp/f32/SxS", MATMUL, 10),
        (2, "memory/alloca/matmul>exp/f32/SxS", MATMUL, 10),
        (3, CRASH_SIG, CRASH_EVIDENCE, 10),
        (4, "memory/copy/sort/i32/?", {"dispatch": "g4_dispatch_0_sort_D_i32", "pipeline": "CPUDefault"}, 10),
    ]
    run = run_with(tmp_path, rows, {i: [sig] for i, sig, *_ in rows})
    record = runs.open_run(run, baseline.Baseline())
    ranked = ranking.rank(record)
    by_id = {r.id: r for r in ranked}
    assert len(ranked) == 3 and ranked[0].oracle_weight == 1.0  # the crash first, though the alloca has 3x the cases
    assert all(r.reproduced == "?" and not r.beyond_frontends for r in ranked)
    sort_copy = next(c for c in by_id if c.startswith("memory/copy/"))
    bundle = record.bundle_dir(sort_copy)  # its bundle says it reproduced 3/3
    _io.atomic_write_json(bundle / "finding.json", {"confirm": "3/3", "status": "confirmed"})
    found = _io.read_jsonl(run / "findings.jsonl")
    for row in found:
        if row["signature"] == CRASH_SIG:
            row["case"]["beyond_frontends"] = True  # a form no IREE frontend produces
    _io.atomic_write_text(run / "findings.jsonl", "".join(json.dumps(r) + "\n" for r in found))
    again = {r.id: r for r in ranking.rank(runs.open_run(run, baseline.Baseline()))}
    crash = next(c for c in again if c.startswith("crash/"))
    assert again[sort_copy].reproduced == "3/3" and again[sort_copy].prior > by_id[sort_copy].prior
    assert again[crash].beyond_frontends and again[crash].prior == pytest.approx(by_id[crash].prior / 2)


def test_bundles_n_takes_the_top_n_of_the_ranking_not_the_largest(tmp_path, monkeypatch):
    rows = [(i, "memory/alloca/matmul>exp/f32/SxS", MATMUL, 10) for i in range(3)] + [
        (3, CRASH_SIG, CRASH_EVIDENCE, 10)
    ]
    run = run_with(tmp_path, rows, {i: [sig] for i, sig, *_ in rows})
    record = runs.open_run(run, baseline.Baseline())
    largest = max(record.present_causes(), key=lambda c: c.cases)
    assert largest.id.startswith("memory/")
    commands = []
    monkeypatch.setattr(
        bundling.subprocess,
        "run",
        lambda command, **kw: commands.append(command) or subprocess.CompletedProcess(command, 0, "", ""),
    )
    done = bundling.bundle_new_causes(record, 1, 10.0)
    assert done[0].startswith("crash/") and done[0] == ranking.rank(record)[0].id
    shrunk, *first = commands  # the cause past the slot judged first: as found, confirmed once
    assert "--no-shrink" not in shrunk and [c[c.index("--out") + 1] for c in first] == [
        str(record.first_judgement_dir(done[1]))
    ]
    assert "--no-shrink" in first[0] and first[0][first[0].index("--confirm-runs") + 1] == "1"


def test_a_cause_past_the_slots_its_first_judgement_finds_a_duplicate_is_not_new(tmp_path, monkeypatch):
    """Stop 45's outsiders: 3 of a run's 7 new causes were the fpowi NaN, listed new because no experiment ever ran
    on them. A first judgement (the case as found through the experiments) that lands in a known cause settles it."""
    rows = [(i, "memory/alloca/matmul>exp/f32/SxS", MATMUL, 10) for i in range(3)] + [
        (3, CRASH_SIG, CRASH_EVIDENCE, 10)
    ]
    run = run_with(tmp_path, rows, {i: [sig] for i, sig, *_ in rows})
    record = runs.open_run(run, baseline.Baseline())
    memory = next(c.id for c in record.present_causes() if c.id.startswith("memory/"))
    verdict = {"verdict": "duplicate-of", "target": memory, "of": "memory/alloca/known", "by": "static"}

    def repro(command, **_):
        out = Path(command[command.index("--out") + 1])
        out.mkdir(parents=True, exist_ok=True)
        judged = {"experiments": {"verdict": verdict, "rows": []}} if "--no-shrink" in command else {}
        (out / "finding.json").write_text(json.dumps({"status": "confirmed", "confirm": "3/3", **judged}))
        return subprocess.CompletedProcess(command, 0, "", "")

    monkeypatch.setattr(bundling.subprocess, "run", repro)
    assert memory in runs.open_run(run, baseline.Baseline()).new_causes()
    assert memory in bundling.bundle_new_causes(record, 1, 10.0)
    after = runs.open_run(run, baseline.Baseline())
    assert memory not in after.new_causes() and not (after.bundle_dir(memory) / "finding.json").exists()
    assert bundling.bundle_new_causes(runs.open_run(run, baseline.Baseline()), 0, 10.0) == []  # --bundles 0: none


def test_summary_md_shows_the_ranking(tmp_path):
    rows = [(0, "memory/alloca/matmul>exp/f32/SxS", MATMUL, 10), (1, CRASH_SIG, CRASH_EVIDENCE, 10)]
    run = run_with(tmp_path, rows, {0: [rows[0][1]], 1: [rows[1][1]]})
    summary = runs.write_outputs(run, runs.open_run(run, baseline.Baseline()))
    assert [r["id"] for r in summary["ranking"]] and summary["ranking"][0]["id"].startswith("crash/")
    md = (run / "summary.md").read_text()
    assert "## New causes, most likely a real and distinct bug first" in md
    first = next(line for line in md.splitlines() if line.startswith("| 1 |"))
    assert summary["ranking"][0]["id"] in first
    assert "New causes, most likely" in (run / "report.html").read_text()
    assert report.ranking_lines({"ranking": []}) == []
