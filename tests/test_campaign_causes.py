"""Causes in the campaign's outputs (issue 16): the record, summary, reports, baseline, nightly diff,
triage and bundles, over small recorded findings.jsonl / progress.jsonl fixtures.

The fixture is an "old" run (no cause recorded anywhere): five signatures of two causes --
arguments written in place (three ops and dtypes) and a contraction's stack alloca (two).
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from ireefuzz import cli
from ireefuzz.base import durable as _io
from ireefuzz.errors import UsageError
from ireefuzz.tools import baseline
from ireefuzz.tools.campaign import bundling, causes, options, pool, record, runs

MUTATED = "immutability/dps-init-written-in-place"
ALLOCA = "memory/alloca/contraction@DoubleTilingExpert"
MATMUL_DISPATCH = {"dispatch": "g0_dispatch_0_matmul_like_65x65x16_f32", "pipeline": "CPUDoubleTilingExpert"}
ROWS = [  # (case index, signature, evidence, size)
    (0, "immutability/input-mutated/matmul[acc]/f32/SxS", {"argument": 2, "ops": ["matmul[acc]"]}, 100),
    (1, "immutability/input-mutated/fill[outs]/f16/?", {"argument": 0, "ops": ["fill[outs]"]}, 50),
    (2, "immutability/input-mutated/reduce_sum[outs]/i32/S", {"argument": 1, "ops": ["reduce_sum[outs]"]}, 10),
    (2, "memory/alloca/matmul>exp/f32/SxS", MATMUL_DISPATCH, 10),
    (3, "memory/alloca/matmul/f16/?x?", MATMUL_DISPATCH | {"dispatch": "g3_dispatch_0_matmul_DxDx16_f16"}, 5),
]
CASE_SIGS = {0: [ROWS[0][1]], 1: [ROWS[1][1]], 2: [ROWS[2][1], ROWS[3][1]], 3: [ROWS[4][1]], 4: [ROWS[0][1]]}


def old_run(out: Path, rows=ROWS, case_sigs=CASE_SIGS) -> Path:
    """A run directory as an ireefuzz without causes wrote it."""
    out.mkdir(parents=True, exist_ok=True)
    _io.atomic_write_json(out / "campaign.json", options.Options(cases=64).to_json())
    for i, sig, evidence, size in rows:
        oracle, kind = sig.split("/")[:2]
        _io.append_line(
            out / "findings.jsonl",
            json.dumps(
                {
                    "oracle": oracle,
                    "kind": kind,
                    "signature": sig,
                    "message": f"{kind} in case {i}",
                    "evidence": evidence,
                    "case": {"graph": {"nodes": []}, "index": i},
                    "case_index": i,
                    "status": "new",
                    "example": "first",
                    "size": [size, 1],
                }
            ),
        )
    entries = [
        {
            "i": i,
            "h": f"h{i}",
            "sigs": sigs,
            "pipelines": ["DoubleTilingExpert"],
            "ops": "matmul",
            "dtype": "f32",
            "dims": "SxS",
            "instances": 1,
            "discarded": 0,
        }
        for i, sigs in case_sigs.items()
    ]
    _io.append_line(out / "progress.jsonl", json.dumps({"t": 1.0, "cases": entries, "cpu": "c", "version": "v"}))
    return out


def known(**entries: list[str]) -> baseline.Baseline:
    return baseline.Baseline.of(
        [baseline.Known(signatures=(s,)) for s in entries.get("signatures", [])]
        + [baseline.Known(c, "upstream", link="https://x/1") for c in entries.get("causes", [])]
    )


def open_old(tmp_path: Path, base: baseline.Baseline = baseline.Baseline(), previous=None) -> record.Record:
    return runs.open_run(old_run(tmp_path / "run"), base, previous)


def by_id(summary: dict) -> dict[str, dict]:
    return {c["id"]: c for c in summary["causes"]}


# --------------------------------------------------------------------------- record and summary


def test_an_old_run_is_counted_by_cause(tmp_path):
    summary = open_old(tmp_path).summary()
    causes = by_id(summary)
    assert sorted(causes) == [MUTATED, ALLOCA]  # five signatures, two causes
    assert causes[MUTATED] | {"title": ""} == {
        "id": MUTATED,
        "title": "",
        "oracle": "immutability",
        "signatures": sorted(r[1] for r in ROWS[:3]),
        "cases": 4,
        "first_case": 0,
        "smallest_case": 2,
        "bundle": "",
        "status": "new",
        "verdict": "",
        "verdict_detail": "",
        "upstream": "",
    }
    assert "16168" in causes[MUTATED]["title"]
    assert (causes[ALLOCA]["cases"], causes[ALLOCA]["first_case"], causes[ALLOCA]["smallest_case"]) == (2, 2, 3)
    assert summary["new_causes"] == [MUTATED, ALLOCA] and summary["history"] == [MUTATED, ALLOCA]
    assert [c["id"] for c in summary["causes"]] == [MUTATED, ALLOCA]  # new first, then by cases


def test_new_findings_and_progress_carry_their_causes(tmp_path):
    from ireefuzz.core.evaluate import CaseResult
    from ireefuzz.generators.case import Case
    from ireefuzz.generators.graph import Graph, Node, TensorType
    from ireefuzz.oracles.finding import Finding

    t = TensorType((4,), "f32")
    case = Case(Graph((t,), (Node("exp", ("a0",), {}, t),), ("n0",)), ({},))
    rec = record.Record(tmp_path, options.Options(cases=64), baseline.Baseline())
    finding = Finding("crash", "runtime-crash", "crash/runtime-crash/exp/f32/S", "worker died", {"detail": "SIGSEGV"})
    rec.record(pool.Task((0,), (case,)), [CaseResult(case, (finding,))], 1.0)  # a coordinator finding: no cause yet
    (row,) = _io.read_jsonl(tmp_path / "findings.jsonl")
    (entry,) = _io.read_jsonl(tmp_path / "progress.jsonl")[0]["cases"]
    assert row["cause"] and row["cause_title"] and entry["causes"] == [row["cause"]]
    assert record.Record(tmp_path, options.Options(cases=64), baseline.Baseline()).new_causes() == [row["cause"]]
    rec = record.Record(tmp_path / "known", options.Options(cases=64), known(causes=[row["cause"]]))
    rec.record(pool.Task((0,), (case,)), [CaseResult(case, (finding,))], 1.0)
    assert _io.read_jsonl(tmp_path / "known" / "findings.jsonl")[0]["status"] == "known"  # known by its cause


# --------------------------------------------------------------------------- baseline


def test_a_finding_is_known_by_its_cause_or_its_signature(tmp_path):
    assert open_old(tmp_path / "a", known(causes=[MUTATED])).new_causes() == [ALLOCA]
    # an old signature baseline covers the cause's other dims and dtypes
    assert open_old(tmp_path / "b", known(signatures=["memory/alloca/matmul/f16/?x?"])).new_causes() == [MUTATED]
    summary = open_old(tmp_path / "c", known(causes=[MUTATED, ALLOCA])).summary()
    assert summary["new_causes"] == [] and by_id(summary)[MUTATED]["upstream"] == "https://x/1"
    assert summary["new"] == []  # every signature is known through its cause
    assert open_old(tmp_path / "d").summary()["new"] == sorted(r[1] for r in ROWS)


def test_the_baseline_file_takes_causes(tmp_path):
    file = tmp_path / "known.json"
    file.write_text(
        json.dumps(
            [
                {"cause": MUTATED, "upstream": "https://github.com/iree-org/iree/issues/16168"},
                {"signature": "memory/alloca/x/f32/S", "cause": ALLOCA},
            ]
        )
    )
    base = baseline.load(file)
    assert set(base.causes) == {MUTATED, ALLOCA} and base.causes[ALLOCA].signatures == ("memory/alloca/x/f32/S",)
    assert not base.signatures  # a signature with a cause matches by its cause
    assert base.cause_known(MUTATED, []).upstream.endswith("16168")
    for bad, match in (
        ([{"cause": "nothing"}], "oracle/what"),
        ([{"cause": MUTATED}] * 2, "twice"),
        ([{"note": "x"}], '"cause"'),
    ):
        file.write_text(json.dumps(bad))
        with pytest.raises(UsageError, match=match):
            baseline.load(file)
    shipped = baseline.load(Path(__file__).parents[1] / "corpus" / "known_findings.json")
    assert MUTATED in shipped.causes


# --------------------------------------------------------------------------- nightly diff


def test_diff_categories():
    previous = causes.Previous("A", frozenset({"a", "b"}), frozenset({"a", "b", "c"}))
    assert causes.diff_causes({"b", "c", "d", "e"}, {"e"}, previous) == {
        "new": ["d"],
        "still_present": ["b"],
        "gone": ["a"],
        "back_again": ["c", "e"],
    }
    assert causes.diff_causes({"d", "e"}, {"e"}, None)["new"] == ["d"]  # no previous run: new = not in the baseline


def test_compare_with_the_previous_night(tmp_path):
    a = old_run(tmp_path / "a", ROWS[:3], {0: [ROWS[0][1]]})  # last night: only the mutation
    previous = runs.previous_run(a, baseline.Baseline())
    assert previous.present == {MUTATED}
    summary = open_old(tmp_path, previous=previous).summary()
    assert summary["diff"] == {
        "compared_with": str(a),
        "new": [ALLOCA],
        "still_present": [MUTATED],
        "gone": [],
        "back_again": [],
    }
    assert summary["new_causes"] == [ALLOCA]
    assert open_old(tmp_path / "b", known(causes=[ALLOCA]), previous).summary()["diff"]["back_again"] == [ALLOCA]


def test_diff_command(tmp_path, capsys):
    a, b = old_run(tmp_path / "a", ROWS[3:], {3: [ROWS[4][1]]}), old_run(tmp_path / "b")
    assert cli.main(["diff", str(a), str(b), "--baseline", str(empty_baseline(tmp_path))]) == 1
    out = capsys.readouterr().out
    assert f"new (1):\n  {MUTATED}" in out and f"still present (1):\n  {ALLOCA}" in out
    assert cli.main(["diff", str(b), str(a), "--baseline", str(empty_baseline(tmp_path)), "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["gone"] == [MUTATED]


def empty_baseline(tmp_path: Path) -> Path:
    (tmp_path / "empty.json").write_text("[]")
    return tmp_path / "empty.json"


# --------------------------------------------------------------------------- reports


def test_reports_are_organised_by_cause(tmp_path):
    rec = open_old(tmp_path, known(causes=[ALLOCA]))
    summary = runs.write_outputs(rec.out, rec)
    junit = (rec.out / "junit.xml").read_text()
    assert junit.count("<testcase") == 2 and junit.count("<failure") == 1 and junit.count("<skipped") == 1
    assert f'name="{MUTATED}"' in junit and "https://x/1" in junit
    md = (rec.out / "summary.md").read_text()
    section = md[md.index(f"### `{MUTATED}`") :]
    assert "<details>" in section and all(f"`{r[1]}`" in section for r in ROWS[:3])
    page = (rec.out / "report.html").read_text()
    assert page.count("<details>") == 2 and MUTATED in page
    assert json.loads((rec.out / "summary.json").read_text())["causes"] == summary["causes"]


# --------------------------------------------------------------------------- triage and bundles


def test_triage_rebuckets_an_old_run(tmp_path, capsys):
    run = old_run(tmp_path / "run")
    assert cli.main(["triage", str(run), "--bundles", "0", "--baseline", str(empty_baseline(tmp_path))]) == 1
    rows = _io.read_jsonl(run / "findings.jsonl")
    assert [r["cause"] for r in rows] == [MUTATED] * 3 + [ALLOCA] * 2
    entries = _io.read_jsonl(run / "progress.jsonl")[0]["cases"]
    assert [e["causes"] for e in entries] == [[MUTATED], [MUTATED], [MUTATED, ALLOCA], [ALLOCA], [MUTATED]]
    assert sorted(by_id(json.loads((run / "summary.json").read_text()))) == [MUTATED, ALLOCA]
    assert MUTATED in capsys.readouterr().out
    (tmp_path / "causes.json").write_text(json.dumps([{"cause": MUTATED}, {"cause": ALLOCA}]))
    assert cli.main(["triage", str(run), "--bundles", "0", "--baseline", str(tmp_path / "causes.json")]) == 0


def test_triage_keeps_a_consequence_linked_to_its_cause(tmp_path):
    wrong = ("numeric/wrong-value/matmul>exp/f32/SxS", {"output": 0, "consequence_of": ROWS[0][1]})
    rows = ROWS + [(4, *wrong, 7)]  # case 4's mutation row is not recorded (its signature was seen in case 0)
    run = old_run(tmp_path / "run", rows, CASE_SIGS | {4: [ROWS[0][1], wrong[0]]})
    assert cli.main(["triage", str(run), "--bundles", "0", "--baseline", str(empty_baseline(tmp_path))]) == 1
    assert _io.read_jsonl(run / "findings.jsonl")[-1]["cause"] == MUTATED
    assert sorted(by_id(json.loads((run / "summary.json").read_text()))) == [MUTATED, ALLOCA]


def test_one_bundle_per_new_cause_from_its_smallest_member(tmp_path, monkeypatch):
    ran = []

    def fake_repro(command, **kwargs):
        finding = json.loads(Path(command[4]).read_text())
        ran.append((finding["cause"], finding["signature"], finding["message"]))
        _io.atomic_write_text(Path(command[6]) / "finding.json", "{}")
        return subprocess.CompletedProcess(command, 0, "bundle written", "")

    monkeypatch.setattr(bundling.subprocess, "run", fake_repro)
    rec = open_old(tmp_path, known(signatures=["memory/alloca/matmul/f16/?x?"]))  # the alloca cause is known
    assert bundling.bundle_new_causes(rec, None, 10) == [MUTATED]
    assert ran == [(MUTATED, ROWS[2][1], "input-mutated in case 2")]  # the smallest member, not the first
    assert by_id(runs.open_run(rec.out, rec.baseline).summary())[MUTATED]["bundle"] == f"bundles/{_io.slug(MUTATED)}"
    assert bundling.bundle_new_causes(rec, None, 10) == [] and len(ran) == 1  # kept, not redone


def test_bundle_names_never_collide():
    names = ["memory/alloca/x", "memory_alloca/x", "memory_alloca_x", "a" * 100, "a" * 99 + "b"]
    assert len({_io.slug(n) for n in names}) == len(names)
    assert _io.slug("memory_alloca_x") == "memory_alloca_x"  # a safe name stays as it is


# --------------------------------------------------------------------------- real campaigns

DRIVER = "import sys; from ireefuzz import cli; sys.exit(cli.main(sys.argv[1:]))"


def ireefuzz(*argv: str, fault: str = "", timeout: float = 300) -> tuple[int, str]:
    from ireefuzz.tools.campaign.pool import FAULT_ENV

    done = subprocess.run(
        [sys.executable, "-c", DRIVER, *argv],
        env=dict(os.environ, **{FAULT_ENV: fault}),
        capture_output=True,
        text=True,
        timeout=timeout,
    )
    return done.returncode, done.stderr


@pytest.mark.iree
def test_a_second_night_with_the_first_nights_causes_as_baseline_exits_0(tmp_path):
    args = (
        "--cases",
        "16",
        "--batch",
        "8",
        "--oracles",
        "crash,immutability,memory",
        "--workers",
        "2",
        "--bundles",
        "0",
        "--ops",
        "elementwise,producer,reduction",
    )  # the families whose stream this test was written against
    rc, err = ireefuzz(
        "fuzz", "--out", str(tmp_path / "a"), "--baseline", str(empty_baseline(tmp_path)), *args, fault="3:segv"
    )
    assert rc == 1, err
    first = json.loads((tmp_path / "a" / "summary.json").read_text())
    assert first["new_causes"] and len(first["causes"]) <= len(first["signatures"])
    assert all(r["cause"] for r in _io.read_jsonl(tmp_path / "a" / "findings.jsonl"))
    (tmp_path / "causes.json").write_text(json.dumps([{"cause": c["id"]} for c in first["causes"]]))
    rc, err = ireefuzz(
        "fuzz", "--out", str(tmp_path / "b"), "--baseline", str(tmp_path / "causes.json"), *args, fault="3:segv"
    )
    assert rc == 0, err
    assert json.loads((tmp_path / "b" / "summary.json").read_text())["new_causes"] == []
    rc, err = ireefuzz("diff", str(tmp_path / "a"), str(tmp_path / "b"), "--baseline", str(empty_baseline(tmp_path)))
    assert rc == 0, err  # the same causes both nights: still present, none new


def test_the_default_baseline_is_the_checkouts_else_the_one_shipped(tmp_path, monkeypatch):
    """Run from another folder (an installed wheel), a campaign still knows the known IREE bugs."""
    from ireefuzz.tools.corpus import default_baseline

    assert baseline.baseline_path("mine.json") == Path("mine.json")
    monkeypatch.chdir(tmp_path)
    assert baseline.baseline_path(None) == default_baseline() and default_baseline().is_file()
    (tmp_path / "corpus").mkdir()
    (tmp_path / "corpus" / "known_findings.json").write_text("[]")
    assert baseline.baseline_path(None) == Path("corpus/known_findings.json")


def test_a_run_is_rebucketed_by_what_iree_did(tmp_path):
    """Issue 30's rules on a run recorded without causes (real IREE 3.13 rows, tests/data/findings/issue30-3.13.jsonl):
    the copies of a case whose alloca is reported are the alloca's cause; the same copies in a case without it keep
    their own (stack to stack: never outs-is-argument); a raw program's wrong value is its op cone's cause."""
    recorded = [json.loads(line) for line in (Path(__file__).parent / "data/findings/issue30-3.13.jsonl").open()]
    pick = lambda i, kind: next(r for r in recorded if r["case_index"] == i and r["kind"] == kind)
    alloca, copy, raw = pick(1, "alloca"), pick(1, "copy"), pick(7, "wrong-value")
    rows = [
        (0, alloca["signature"], alloca["evidence"], 10),
        (0, copy["signature"], copy["evidence"], 10),
        (1, copy["signature"] + "x", copy["evidence"], 9),  # the copies alone (a signature of their own)
        (2, raw["signature"], raw["evidence"], 5),
    ]
    run = old_run(tmp_path / "run", rows, {0: [rows[0][1], rows[1][1]], 1: [rows[2][1]], 2: [rows[3][1]]})
    record = runs.open_run(run, baseline.load(Path(__file__).parents[1] / "corpus" / "known_findings.json"))
    conv_alloca, conv_copy = "memory/alloca/contraction@ConvTileAndDecomposeExpert", "memory/copy/contraction@"
    assert set(by_id(record.summary())) == {conv_alloca, conv_copy + "ConvTileAndDecomposeExpert", FILL_SUM}
    assert by_id(record.summary())[conv_alloca]["signatures"] == sorted([rows[0][1], rows[1][1]])
    assert record.new_causes() == [conv_copy + "ConvTileAndDecomposeExpert"]  # the alloca and the fill-sum are known


FILL_SUM = "numeric/wrong-value/fill>reduce_sum"


def _stats(cause: str, cases: set[int]):
    from ireefuzz.tools.campaign.causes import CauseStats

    return CauseStats(cause, cases=len(cases), case_indices=set(cases))


def test_a_wrong_value_seen_only_in_the_cases_of_one_its_cone_holds_is_that_ones_companion():
    """Round 40 (host, seed 44719): one wrong sort read by two outputs was two new causes, sort and sort>concat."""
    from ireefuzz.tools.campaign.causes import companions

    sort, concat = _stats("numeric/wrong-value/sort", {780, 901}), _stats("numeric/wrong-value/sort>concat", {780})
    assert companions([concat, sort]) == {"numeric/wrong-value/sort>concat": "numeric/wrong-value/sort"}
    seen_apart = _stats("numeric/wrong-value/sort>concat", {780, 1200})  # a case without the sort's failure
    assert companions([sort, seen_apart]) == {}
    other_ops = _stats("numeric/wrong-value/gather>concat", {780})  # its cone does not hold the sort
    assert companions([sort, other_ops]) == {}
    crash = _stats("crash/compile-error/sort", {780, 901})  # only wrong values propagate down a cone
    assert companions([crash, _stats("crash/compile-error/sort>concat", {780})]) == {}


def test_two_outputs_failing_in_the_same_cases_over_shared_producers_are_one_cause():
    """Stop 44 (host, seed 24817): one consumer fusion writing a diagonal tile only, read by two outputs, was two
    new causes with two bundles."""
    from ireefuzz.tools.campaign.causes import companions

    a = _stats("numeric/wrong-value/layer_norm>cos>min>reduce_sum", {1915, 1916})
    b = _stats("numeric/wrong-value/layer_norm>cos>min>transpose>where_gt", {1915, 1916})
    assert companions([b, a]) == {b.id: a.id}
    assert companions([a, _stats(b.id, {1915, 1916, 2000})]) == {}  # one fails alone in a case: two bugs, maybe
    assert companions([a, _stats("numeric/wrong-value/gather>transpose>where_gt", {1915, 1916})]) == {}  # no shared op


def test_a_companion_is_listed_not_red_and_its_lead_stays_new(tmp_path):
    """On a recorded run: the sort and the sort>concat of one case, the sort alone in another. The sort stays new;
    the sort>concat is settled as its companion, listed in the summary (shown failing with companions ignored)."""
    from ireefuzz.tools.campaign import report

    sort, concat = "numeric/wrong-value/sort/i32/S", "numeric/wrong-value/sort>concat/i32/S"
    rows = [(0, sort, {}, 10), (0, concat, {}, 10), (1, sort, {}, 8)]
    run = old_run(tmp_path / "run", rows=rows, case_sigs={0: [sort, concat], 1: [sort]})
    found = [json.loads(line) | {"case": None} for line in (run / "findings.jsonl").read_text().splitlines()]
    (run / "findings.jsonl").write_text("".join(json.dumps(row) + "\n" for row in found))  # causes by signature
    rec = record.Record(run, options.Options(cases=64), baseline.Baseline())
    assert rec.new_causes() == ["numeric/wrong-value/sort"]
    summary = rec.summary()
    assert summary["companions"] == {"numeric/wrong-value/sort>concat": "numeric/wrong-value/sort"}
    assert "`numeric/wrong-value/sort>concat` with `numeric/wrong-value/sort`" in report.markdown(summary)
