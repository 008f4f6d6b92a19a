"""Time accounting (issue 12): where a campaign's seconds went, from the progress.jsonl rows, in summary.json,
summary.md and report.html; recomputed on resume like every count."""

from __future__ import annotations

import dataclasses
import json
import time
from pathlib import Path

from ireefuzz.base import durable as _io
from ireefuzz.core.evaluate import CaseResult, Clock
from ireefuzz.tools import baseline
from ireefuzz.tools.campaign import options, pool, record, report, runs


def entry(i: int) -> dict:
    return {
        "i": i,
        "h": f"h{i}",
        "sigs": [],
        "pipelines": ["Default"],
        "ops": "exp",
        "dtype": "f32",
        "dims": "S",
        "instances": 1,
        "discarded": 0,
    }


def run_dir(out: Path) -> Path:
    """Two batches on 2 workers over 10 s: 12 s compiling, 2 s running, 1 s drawing, 3 s waiting, 0.5 s recording."""
    out.mkdir(parents=True, exist_ok=True)
    _io.atomic_write_json(out / "campaign.json", options.Options(cases=64).to_json())
    rows = [
        (4.0, [0, 1], {"compile": 5.0, "run": 1.0, "draw": 1.0, "waiting": 2.0}),
        (10.0, [2, 3], {"compile": 7.0, "run": 1.0, "waiting": 1.0, "coordinator": 0.5}),
    ]
    for t, indices, timings in rows:
        _io.append_line(
            out / "progress.jsonl",
            json.dumps(
                {
                    "t": t,
                    "cases": [entry(i) for i in indices],
                    "cpu": "c",
                    "version": "v",
                    "timings": timings,
                    "workers": 2,
                }
            ),
        )
    return out


def test_the_summary_accounts_for_every_worker_second(tmp_path):
    accounting = runs.open_run(run_dir(tmp_path), baseline.Baseline()).summary()["time_accounting"]
    assert accounting["worker_seconds"] == 20.0  # 2 workers x 10 s
    assert accounting["seconds"] == {
        "compile": 12.0,
        "run": 2.0,
        "draw": 1.0,
        "coordinator": 0.5,
        "waiting": 3.0,
        "idle": 6.0,
    }  # idle: 20 worker seconds - 14 on batches
    assert accounting["compile_share"] == 0.6 and accounting["total_seconds"] == 24.5
    assert abs(sum(accounting["shares"].values()) - 1) < 1e-3


def test_an_old_run_without_timings_has_an_empty_accounting(tmp_path):
    run = run_dir(tmp_path)
    rows = _io.read_jsonl(run / "progress.jsonl")
    _io.atomic_write_text(
        run / "progress.jsonl",
        "".join(json.dumps({k: v for k, v in r.items() if k not in ("timings", "workers")}) + "\n" for r in rows),
    )
    accounting = runs.open_run(run, baseline.Baseline()).summary()["time_accounting"]
    assert accounting["seconds"] == {"idle": 0.0} and accounting["compile_share"] == 0.0


def test_recorded_timings_survive_resume(tmp_path):
    from ireefuzz.generators.case import Case
    from ireefuzz.generators.graph import Graph, Node, TensorType

    run = run_dir(tmp_path)
    t = TensorType((4,), "f32")
    case = Case(Graph((t,), (Node("exp", ("a0",), {}, t),), ("n0",)), ({},))
    resumed = runs.open_run(run, baseline.Baseline())  # as --resume opens it
    result = CaseResult(case, (), timings={"compile": 1.5, "ir": 0.25})
    resumed.record(pool.Task((4, 5), (case, case)), [result, result], 12.0, coordinator={"waiting": 2.0}, workers=2)
    accounting = runs.open_run(run, baseline.Baseline()).summary()["time_accounting"]
    assert accounting["seconds"]["compile"] == 15.0 and accounting["seconds"]["ir"] == 0.5
    assert accounting["seconds"]["waiting"] == 5.0 and accounting["worker_seconds"] == 24.0
    assert accounting == resumed.summary()["time_accounting"]  # the same counts live and read back


def test_the_reports_show_where_the_time_went(tmp_path):
    run = run_dir(tmp_path)
    summary = runs.write_outputs(run, runs.open_run(run, baseline.Baseline()), bundling_seconds=4.0)
    assert summary["time_accounting"]["seconds"]["bundling"] == 4.0
    md = (run / "summary.md").read_text()
    assert "## Where the time went (28.5 s over all processes; compile share 0.60" in md
    assert f"| {record.ACTIVITIES['compile']} | 12.0 | 42.1% |" in md
    page = (run / "report.html").read_text()
    assert "Where the time went" in page and "compiling (iree-compile): 42.1%" in page
    again = runs.write_outputs(
        run, runs.open_run(run, baseline.Baseline())
    )  # a later rewrite keeps the bundling seconds
    assert again["time_accounting"]["seconds"]["bundling"] == 4.0
    assert report.time_table(None) == [] and report.time_html(None) == ""


def test_the_clock_counts_a_nested_activity_once():
    clock = Clock()
    started = time.perf_counter()
    with clock("outer"):
        time.sleep(0.05)
        with clock("inner"):
            time.sleep(0.03)
        clock.add("measured", 0.02)  # e.g. iree-compile's wall time within the outer activity
    wall = time.perf_counter() - started
    assert clock.totals["inner"] >= 0.03 and clock.totals["measured"] == 0.02 and clock.totals["outer"] >= 0.03
    assert abs(sum(clock.totals.values()) - wall) < 0.01  # every second counted once
    before = dict(clock.totals)
    with clock("inner"):
        pass
    assert set(clock.since(before)) <= {"inner"}


def test_the_planner_draws_in_the_background_the_same_cases(tmp_path):
    """A block drawn on the planner's thread (the loop never waits for it) is the block drawn in line."""
    from ireefuzz.generators.case import Case
    from ireefuzz.tools.campaign.loop import Planner

    opts = dataclasses.replace(options.Options(cases=16, batch=4), block=8)
    inline = Planner(record.Record(tmp_path / "a", opts, baseline.Baseline()))
    background = Planner(record.Record(tmp_path / "b", opts, baseline.Baseline()))
    assert background.next_task(True, wait=False) is None and background.drawing is not None  # drawing: not waited for
    tasks = []
    deadline = time.monotonic() + 120
    while len(tasks) < 2 and time.monotonic() < deadline:
        task = background.next_task(True, wait=False)
        tasks += [task] if task else []
        time.sleep(0.01)
    assert [t.indices for t in tasks] == [(0, 1, 2, 3), (4, 5, 6, 7)]
    assert [Case.dumps(c) for t in tasks for c in t.cases] == [
        Case.dumps(c) for _ in range(2) for c in inline.next_task(True).cases
    ]
    background.close()


def test_the_memory_oracle_parses_only_ir_that_names_what_it_looks_for(monkeypatch):
    """The text pre-scan skips IR that cannot hold an alloc or a copy, and finds the same as a full scan on every
    recorded dispatch (fixtures in tests/data/ir)."""
    from ireefuzz.oracles import memory
    from ireefuzz.sut import DispatchIR

    data = Path(__file__).parent / "data" / "ir"
    texts = [p.read_text() for p in sorted(data.glob("*.mlir")) if "source" not in p.name]
    dispatch = lambda text: DispatchIR("g0_dispatch_0_x", "P", final_ir=text, bufferized_ir=text, source="")
    skipped = [memory.check_memory([dispatch(t)]) for t in texts]
    monkeypatch.setattr(memory, "_mentions", lambda text, names: True)  # fault: parse everything
    assert skipped == [memory.check_memory([dispatch(t)]) for t in texts]
    assert any(skipped)  # the fixtures do hold findings
    monkeypatch.undo()
    assert memory.check_memory([dispatch("not MLIR: parsing it would raise")]) == []  # never parsed


def test_the_summary_shows_the_share_of_compile_time_spent_on_known_causes(tmp_path):
    """Issue 33: a case that found only causes the baseline judges spent its compile on nothing new."""
    out = tmp_path / "run"
    out.mkdir()
    _io.atomic_write_json(out / "campaign.json", options.Options(cases=64).to_json())
    known, fresh = {"sigs": ["crash/compile-error/sort/f32/?"], "causes": ["crash/compile-error/known"]}, {}
    row = {"t": 4.0, "cpu": "c", "version": "v", "timings": {"compile": 8.0}, "workers": 1, "compile_s": 8.0}
    cases = [entry(0) | known, entry(1) | known, entry(2) | fresh, entry(3) | fresh]
    _io.append_line(out / "progress.jsonl", json.dumps(row | {"cases": cases}))
    judged = baseline.Baseline.of([baseline.Known(cause="crash/compile-error/known", verdict="by-design", why="x")])
    assert runs.open_run(out, judged).summary()["time_accounting"]["known_cause_compile_share"] == 0.5
    assert runs.open_run(out, baseline.Baseline()).summary()["time_accounting"]["known_cause_compile_share"] == 0.0
    assert "Compile time on cases that found only known causes: 50.0%" in "\n".join(
        report.time_table(runs.open_run(out, judged).summary()["time_accounting"])
    )
