"""The recall set (bench/recall/): every record complete, every program parsed by the installed iree-opt.

The records are data (docs/recall.md); ``bench/recall.py`` owns their format (``problems`` / ``load``), so
the guard here is the same check the runner makes before it runs anything, shown failing on broken records.
"""

from __future__ import annotations

import copy
import importlib.util
import json
import subprocess
import sys
from pathlib import Path

import pytest

BENCH = Path(__file__).resolve().parent.parent / "bench"
RECALL = BENCH / "recall"


def _recall_module():
    spec = importlib.util.spec_from_file_location("bench_recall", BENCH / "recall.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # its dataclasses look their module up there
    spec.loader.exec_module(module)
    return module


recall = _recall_module()
INDEX = json.loads((RECALL / "index.json").read_text())["records"]


def _raw(name: str) -> dict:
    return json.loads((RECALL / name).read_text())


@pytest.mark.parametrize("name", INDEX)
def test_record_is_complete(name):
    assert recall.problems(_raw(name)) == []


def test_index_lists_every_record_once_and_the_set_is_big_enough():
    on_disk = sorted(p.name for p in RECALL.glob("*.json") if p.name != "index.json")
    assert sorted(INDEX) == on_disk and len(set(INDEX)) == len(INDEX)
    records = recall.load()
    assert sum(r.raw["state"] == "closed" for r in records) >= 15
    assert {r.oracle for r in records} >= {"numeric", "crash", "memory", "fusion", "immutability"}
    assert len({r.program for r in records}) == len(records)


def test_a_checked_release_is_one_the_runner_knows():
    from ireefuzz.sut.releases import RELEASES

    for record in recall.load():
        ends = [record.releases[k] for k in ("oldest_showing", "newest_showing", "campaign")]
        ends += [row["release"] for row in record.releases["checked"]]
        assert all(v == recall.UNCHECKED or v in RELEASES for v in ends), record.issue


BROKEN = [
    (lambda r: r.pop("mechanism"), "missing mechanism"),
    (lambda r: r.update(oracle="vibes"), "oracle 'vibes'"),
    (lambda r: r.update(program="no-such.mlir"), "program no-such.mlir"),
    (lambda r: r.update(match="(unclosed"), "is not a regex"),
    (lambda r: r.update(fix={"pr": None, "note": "see thread"}), "a closed bug without a fix PR"),
    (lambda r: r.update(fix={"pr": 1}), "fix.pr without evidence"),
    (lambda r: r["releases"].pop("newest_showing"), "releases.newest_showing missing"),
    (lambda r: r["releases"]["checked"].append({"release": "3.13.0"}), "lacks release/shows/command"),
    (lambda r: r.update(issue="#20163"), "is not owner/repo#N"),
]


@pytest.mark.parametrize("breakage,message", BROKEN, ids=[m for _, m in BROKEN])
def test_problems_names_what_a_broken_record_lacks(breakage, message):
    raw = copy.deepcopy(_raw("20163.json"))
    breakage(raw)
    assert any(message in p for p in recall.problems(raw)), recall.problems(raw)


def test_load_refuses_a_broken_record(tmp_path):
    raw = _raw("20163.json")
    raw.pop("needs")
    (tmp_path / "20163.json").write_text(json.dumps(raw))
    (tmp_path / "20163.mlir").write_text((RECALL / "20163.mlir").read_text())
    (tmp_path / "index.json").write_text(json.dumps({"format": 1, "records": ["20163.json"]}))
    with pytest.raises(ValueError, match="20163.json: missing needs"):
        recall.load(tmp_path)


def test_check_command_carries_the_records_flags_inputs_and_release(tmp_path):
    record = next(r for r in recall.load() if r.number == "20163")
    command = recall.check_command(record, "3.2.0", recall.write_inputs(record, tmp_path / "in.npz"))
    assert command[command.index("--release") + 1] == "3.2.0"
    assert command[command.index("--target-cpu") + 1] == "generic"
    import numpy as np

    assert np.load(command[command.index("--inputs") + 1])["arg0"].tolist() == pytest.approx([0.4999])


def test_report_counts_found_and_takes_the_median_of_the_found():
    record = recall.load()[0]
    rows = [
        recall.Row(record, "3.13.0", True, 10.0, ("memory/alloca/contraction@x",)),
        recall.Row(record, "3.13.0", True, 30.0, ("memory/alloca/contraction@x",)),
        recall.Row(record, "3.13.0", False, None, ()),
    ]
    unscored = recall.Row(record, "-", False, None, (), recall.NOT_SCORED)
    assert recall.report(rows)[-1].startswith("found 2/3 of the bugs a release shows, median time-to-bug 20.0 s")
    assert "the whole set: 2/4 (1 not scored" in recall.report([*rows, unscored])[-1]


def test_the_campaign_plan_scores_each_reproduced_bug_once_on_a_release_that_shows_it():
    """The fewest releases cover the set (#12974 and #12836 share 20230404.479, which shows both); a bug that no
    checked release shows is in no campaign, where it could only be missed or matched by another bug."""
    records = recall.load()
    plan = recall.campaign_plan(records)
    planned = [r for chosen in plan.values() for r in chosen]
    assert sorted(r.number for r in planned) == sorted(r.number for r in records if r.reproduced)
    assert all(release in r.showing for release, chosen in plan.items() for r in chosen)
    by_bug = {r.number: release for release, chosen in plan.items() for r in chosen}
    assert by_bug["12974"] == by_bug["12836"] == "20230404.479"
    assert len(plan) < len({r.release for r in planned})
    assert not {"23952", "24927", "13745"} & set(by_bug)


def test_a_bug_is_scored_on_every_planned_campaign_whose_release_shows_it(tmp_path, monkeypatch):
    """#19749 shows on 3.2.0 and 3.10.0 and is planned on 3.10.0: a sighting in the plan's 3.2.0 campaign finds it (a
    nightly over the plan would), one in a campaign of a release that does not show it does not."""
    (record,) = [r for r in recall.load() if r.number == "19749"]
    assert {"3.2.0", "3.10.0"} <= set(record.showing) and "3.13.0" not in record.showing
    case = {"ops": "extract_slice>gather", "config": ["cpu=generic"], "dtype": "f16", "dims": "Sx?", "unused_args": 0}
    sighting = lambda t: recall.Campaign(
        [{"t": t, "cases": [case | {"causes": ["numeric/wrong-value/extract_slice>gather"]}]}]
    )
    nothing = recall.Campaign([{"t": 5.0, "cases": [case | {"causes": []}]}])
    row = recall.scored(record, {"3.10.0": nothing, "3.2.0": sighting(80.0)})
    assert (row.found, row.release, row.seconds) == (True, "3.2.0", 80.0)
    assert recall.scored(record, {"3.10.0": sighting(90.0), "3.2.0": sighting(80.0)}).release == "3.2.0"  # earliest
    runs = {v: c.progress for v, c in {"3.10.0": nothing, "3.13.0": sighting(1.0), "3.2.0": sighting(80.0)}.items()}

    def run_campaign(seed, seconds, workers, out, extra):  # the recorded campaigns, one per release
        (out / "seed0").mkdir(parents=True)
        (out / "seed0" / "progress.jsonl").write_text("".join(json.dumps(r) + "\n" for r in runs[out.name]))
        return out / "seed0"

    monkeypatch.setattr(recall, "run_campaign", run_campaign)
    (row,) = recall.campaign_rows({"3.10.0": [record], "3.13.0": []}, 600, 0, "1", tmp_path / "a")
    assert not row.found and row.release == "3.10.0"  # 3.13.0 does not show #19749: its sighting is another bug
    (row,) = recall.campaign_rows({"3.2.0": [], "3.10.0": [record]}, 600, 0, "1", tmp_path / "b")
    assert row.found and row.release == "3.2.0"


def test_an_expert_matmul_over_the_stack_limit_is_23464():
    """#23464's form is expert_matmul (gathered expert weights feeding a contraction): its case over the limit counts,
    though no op is spelled 'gather'; another op's stack allocation over the limit does not."""
    (record,) = [r for r in recall.load() if r.number == "23464"]
    cause = "crash/compile-error/stack-allocation-over-limit[gather]@codegen"
    expert = {"i": 810, "ops": "take_along>fill>expert_matmul", "config": ["cpu=host"], "causes": [cause]}
    other = {
        **expert,
        "ops": "fill>matmul",
        "causes": ["crash/compile-error/stack-allocation-over-limit[empty]@codegen"],
    }
    assert recall.first_hits(record, recall.Campaign([{"t": 289.9, "cases": [expert]}])) == [(289.9, cause)]
    assert recall.first_hits(record, recall.Campaign([{"t": 1.0, "cases": [other]}])) == []


def _parses(path: Path) -> subprocess.CompletedProcess:
    from iree.compiler.tools.binaries import find_tool

    return subprocess.run([find_tool("iree-opt"), str(path), "-o", "/dev/null"], capture_output=True, text=True)


@pytest.mark.iree
@pytest.mark.parametrize("name", INDEX)
def test_program_parses_with_the_installed_iree_opt(name):
    proc = _parses(RECALL / _raw(name)["program"])
    assert proc.returncode == 0, proc.stderr[-2000:]


@pytest.mark.iree
def test_parse_check_fails_on_a_broken_program(tmp_path):
    broken = tmp_path / "broken.mlir"
    broken.write_text((RECALL / "20163.mlir").read_text().replace("arith.truncf", "arith.truncf_nonexistent"))
    assert _parses(broken).returncode != 0


def test_a_bug_is_scored_on_its_mechanism_not_on_any_finding_of_its_oracle():
    """A campaign's other numeric bug is not #20163: its case must be an f16 result on the generic CPU
    (``match_case``) and the finding's values the lost carry (``match_values``: 0.5 given as 0.25); a bad
    ``match_case`` key or regex, or an unknown ``match_values``, is a problem of the record."""
    (record,) = [r for r in recall.load() if r.number == "20163"]
    f16 = {
        "causes": ["numeric/wrong-value/exp2"],
        "config": ["cpu=generic", "opt-level=O2"],
        "ops": "exp2",
        "dtype": "f16",
    }
    cases = [
        {**f16, "i": 0, "causes": ["numeric/wrong-value/softmax"], "ops": "softmax"},  # another bug's values
        {**f16, "i": 1, "config": ["cpu=host"]},  # not the generic CPU
        {**f16, "i": 2, "dtype": "f32"},  # not an f16 result
        {**f16, "i": 3},
        {**f16, "i": 4},
    ]
    carry = {"float64": 0.49999, "iree": 0.25}  # rounds to 0.5 in f16; given half of it
    findings = [
        {"case_index": 0, "cause": "numeric/wrong-value/softmax", "evidence": {"float64": -3.97, "iree": -3.29}},
        {"case_index": 1, "cause": "numeric/wrong-value/exp2", "evidence": carry},
        {"case_index": 2, "cause": "numeric/wrong-value/exp2", "evidence": carry},
        {"case_index": 3, "cause": "numeric/wrong-value/exp2", "evidence": {"float64": 0.5, "iree": 0.5625}},
        {"case_index": 4, "cause": "numeric/wrong-value/exp2", "evidence": carry},
    ]
    progress = [{"t": float(5 + i), "cases": [c]} for i, c in enumerate(cases)]
    assert recall.first_hits(record, recall.Campaign(progress, findings)) == [(9.0, "numeric/wrong-value/exp2")]
    assert recall.first_hits(record, recall.Campaign(progress[:4], findings)) == []
    assert recall.first_hits(record, recall.Campaign(progress, [])) == []  # values unseen: not this bug
    assert recall.problems({**_raw("20163.json"), "match_values": "half"}) != []
    raw = _raw("20163.json")
    assert recall.problems({**raw, "match_case": {"pipeline": "x"}}) != []
    assert recall.problems({**raw, "match_case": {"ops": "("}}) != []


@pytest.mark.parametrize("seconds", ["-1", "0", "soon"])
def test_a_campaign_length_that_is_no_positive_number_is_one_usage_line(seconds, capsys):
    """bench/recall.py --seconds -1 used to run six campaigns that each refused it and print 'found 0/18'."""
    with pytest.raises(SystemExit) as stopped:
        recall.main(["--seconds", seconds])
    assert stopped.value.code == 2
    (line,) = capsys.readouterr().err.strip().splitlines()[-1:]
    assert "error: argument --seconds" in line
