"""A compile timeout is a hang only if confirmed (``campaign.bundling.confirm_hangs``): after the campaign, before a
new cause is listed, each recorded timeout is compiled once more alone with HANG_CONFIRM_FACTOR times the limit.
One that times out again is the hang; one that compiles is a slow compile (not judged); one that fails otherwise is
that failure's finding (seed 29411's f16 chain: over 60 s on a loaded 2-core machine, seconds alone, then the known
fmaxf error).

The campaign's compile is the real pipeline (``core.evaluate``) and its record the real ``Record.record``; the
compiler is a fake script that sleeps past the campaign's limit, then hangs, writes a module or fails, as its mode
file says (the probe compile and ``--version`` answer at once). The ``iree`` test makes a real compile run past a
limit of half its own time.
"""

from __future__ import annotations

import dataclasses
import functools
import json
import sys
import time
from pathlib import Path

import pytest

from ireefuzz import cli, sut
from ireefuzz.base import durable as _io
from ireefuzz.core.evaluate import Policy, evaluate
from ireefuzz.generators.case import Case
from ireefuzz.generators.graph import Graph, Node
from ireefuzz.generators.graph import TensorType as T
from ireefuzz.tools.baseline import Baseline, Known
from ireefuzz.tools.campaign import bundling, options, record
from ireefuzz.tools.campaign.pool import Task

LIMIT_S = 0.4  # the campaign's compile limit
SLOW_S = 0.8  # the fake's compile: past the limit, well within HANG_CONFIRM_FACTOR times it
FMAXF_CAUSE = "crash/compile-error/undefined-symbol-fmaxf@iree-hal-serialize-target-executables"

FAKE = """#!{python} -IS
import os, sys, time
args = sys.argv[1:]
if "--version" in args:
    print("IREE (fake) compiler version 0.0")
    sys.exit(0)
text = open(args[0]).read() if args and os.path.isfile(args[0]) else ""
if "@probe(" in text:
    sys.exit(1)
with open({count!r}, "a") as f:
    f.write("x")
mode = open({mode!r}).read().strip()
time.sleep(3600 if mode == "hang" else {slow})
if mode == "module":
    open(args[args.index("-o") + 1], "wb").write(b"\\0\\0\\0\\0IREE fake module")
    sys.exit(0)
sys.stderr.write("iree-lld: error: undefined symbol: fmaxf\\n")
sys.stderr.write("failing pass: iree-hal-serialize-target-executables (module)\\n")
sys.exit(1)
"""


class Fake:
    """An iree-compile that sleeps ``SLOW_S`` and then does what its mode file says (``hang``: sleeps on)."""

    def __init__(self, root: Path, mode: str) -> None:
        self.path, self.mode, self.count = root / "iree-compile", root / "mode", root / "count"
        self.path.write_text(
            FAKE.format(python=sys.executable, count=str(self.count), mode=str(self.mode), slow=SLOW_S)
        )
        self.path.chmod(0o755)
        self.mode.write_text(mode)

    def compiles(self) -> int:
        return len(self.count.read_text()) if self.count.exists() else 0


def softmax_case() -> Case:
    """seed 29411's kind of case (a 1-D f16 softmax: the known fmaxf link error on this IREE)."""
    t = T((7,), "f16")
    return Case(Graph((t,), (Node("softmax", ("a0",), {"dim": 0}, t),), ("n0",)).check(), ({},))


def exp_case() -> Case:
    t = T((4,), "f32")
    return Case(Graph((t,), (Node("exp", ("a0",), {}, t),), ("n0",)).check(), ({},))


def campaign_with_a_timeout(
    out: Path, compiler: str, limit_s: float, baseline: Baseline, case: Case | None = None, target_cpu: str = "host"
) -> record.Record:
    """A run whose one case's compile timed out under ``limit_s``: evaluated and recorded as a campaign does."""
    opts = options.Options(cases=1, iree_compile=compiler, case_timeout=limit_s, target_cpu=target_cpu)
    out.mkdir(parents=True, exist_ok=True)
    _io.atomic_write_json(out / "campaign.json", opts.to_json())
    case = case or softmax_case()
    (result,) = evaluate([case], opts.compiler_config(), Policy(frozenset({"crash"})))
    assert [f.kind for f in result.findings] == ["compile-timeout"], result
    rec = record.Record(out, opts, baseline)
    rec.record(Task((0,), (case,)), [result], 1.0)
    return record.Record(out, opts, baseline)


def reopened(rec: record.Record) -> record.Record:
    return record.Record(rec.out, rec.options, rec.baseline)


def test_a_timeout_that_times_out_again_alone_is_the_confirmed_hang(tmp_path):
    fake = Fake(tmp_path, "hang")
    rec = campaign_with_a_timeout(tmp_path / "run", str(fake.path), LIMIT_S, Baseline.of([]))
    started = time.perf_counter()
    assert bundling.confirm_hangs(rec, log=lambda m: None) == ["crash/compile-timeout"]
    assert time.perf_counter() - started >= LIMIT_S * bundling.HANG_CONFIRM_FACTOR and fake.compiles() == 2
    after = reopened(rec)
    assert after.new_causes() == ["crash/compile-timeout"]  # red: the hang is confirmed
    (row,) = _io.read_jsonl(rec.out / "findings.jsonl")
    assert row["message"].endswith(f"; did not end in {LIMIT_S * 4:g} s (4x the limit) alone"), row["message"]
    assert row["evidence"]["hang"]["verdict"] == "hang"
    assert bundling.confirm_hangs(after, log=lambda m: None) == [] and fake.compiles() == 2  # not confirmed twice


def test_a_timeout_that_compiles_alone_is_a_slow_compile_not_judged(tmp_path):
    fake = Fake(tmp_path, "module")
    rec = campaign_with_a_timeout(tmp_path / "run", str(fake.path), LIMIT_S, Baseline.of([]))
    assert rec.new_causes() == ["crash/compile-timeout"]
    assert bundling.confirm_hangs(rec, log=lambda m: None) == ["crash/compile-timeout"]
    after = reopened(rec)
    assert after.new_causes() == [] and not after.present_causes()  # never red
    assert _io.read_jsonl(rec.out / "findings.jsonl") == []
    (reason,) = after.not_judged
    assert reason.startswith(f"every oracle: a slow compile, not a hang: over the {LIMIT_S:g} s limit in the campaign")


def test_a_timeout_that_fails_otherwise_alone_is_that_failure_known_or_new(tmp_path):
    known = Baseline.of([Known(FMAXF_CAUSE, "upstream", link="iree-org/iree#14187")])
    fake = Fake(tmp_path, "fmaxf")
    rec = campaign_with_a_timeout(tmp_path / "run", str(fake.path), LIMIT_S, known)
    assert rec.new_causes() == ["crash/compile-timeout"]
    assert bundling.confirm_hangs(rec, log=lambda m: None) == ["crash/compile-timeout"]
    after = reopened(rec)
    assert [c.id for c in after.present_causes()] == [FMAXF_CAUSE] and after.new_causes() == []
    (row,) = _io.read_jsonl(rec.out / "findings.jsonl")
    assert row["kind"] == "compile-error" and row["status"] == "known" and row["case_index"] == 0
    assert row["evidence"]["after_timeout"].startswith(f"not a hang: over the {LIMIT_S:g} s limit in the campaign")
    unknown = reopened(rec)  # the same failure with a baseline that does not hold it: a new cause of its own
    unknown.baseline = Baseline.of([])
    assert unknown.new_causes() == [FMAXF_CAUSE]


def test_a_refuted_causes_timeouts_without_a_recorded_program_are_not_judged(tmp_path):
    """Two cases time out with one signature: the larger has no findings row (no program to compile again). The
    smaller compiles alone, so the cause is no hang, and the larger is not judged either (never red unconfirmed)."""
    fake = Fake(tmp_path, "module")
    opts = options.Options(cases=2, iree_compile=str(fake.path), case_timeout=LIMIT_S)
    out = tmp_path / "run"
    out.mkdir()
    _io.atomic_write_json(out / "campaign.json", opts.to_json())
    cases = (exp_case(), Case(Graph((T((8,), "f32"),), (Node("exp", ("a0",), {}, T((8,), "f32")),), ("n0",)), ({},)))
    results = [evaluate([c], opts.compiler_config(), Policy(frozenset({"crash"})))[0] for c in cases]
    assert len({r.findings[0].signature for r in results}) == 1
    record.Record(out, opts, Baseline.of([])).record(Task((0, 1), cases), results, 1.0)
    rec = record.Record(out, opts, Baseline.of([]))
    assert len(_io.read_jsonl(out / "findings.jsonl")) == 1 and rec.causes["crash/compile-timeout"].cases == 2
    assert bundling.confirm_hangs(rec, log=lambda m: None) == ["crash/compile-timeout"] and fake.compiles() == 3
    after = reopened(rec)
    assert after.new_causes() == [] and not after.present_causes()
    unconfirmed = bundling.UNCONFIRMED.format(s=LIMIT_S * bundling.HANG_CONFIRM_FACTOR)
    slow = [r for r in after.not_judged if r.startswith("every oracle: a slow compile, not a hang")]
    assert after.not_judged[unconfirmed] == 1 and len(slow) == 1 and len(after.not_judged) == 2


def test_bundling_confirms_first_and_compiles_nothing_for_a_known_timeout(tmp_path):
    """``bundle_new_causes`` confirms before it ranks (the re-judged cause returned: the outputs are written again);
    a timeout whose cause is not new (the baseline judges it) starts no compile."""
    fake = Fake(tmp_path, "module")
    rec = campaign_with_a_timeout(tmp_path / "run", str(fake.path), LIMIT_S, Baseline.of([]))
    assert bundling.bundle_new_causes(rec, 0, 10.0) == ["crash/compile-timeout"] and fake.compiles() == 2
    assert bundling.bundle_new_causes(reopened(rec), 0, 10.0) == [] and fake.compiles() == 2
    judged = Baseline.of([Known("crash/compile-timeout", "by-design", why="this configuration is slow")])
    rec = campaign_with_a_timeout(tmp_path / "known", str(fake.path), LIMIT_S, judged)
    assert bundling.confirm_hangs(rec) == [] and fake.compiles() == 3  # the campaign's own compile only


def test_triage_is_red_for_a_confirmed_hang_only(tmp_path):
    """``ireefuzz triage RUN`` as a nightly reads it (also with ``--bundles 0``): a slow compile's run exits 0 and
    its summary lists no new cause but the reason it did not judge the case; a hang's run exits 1 and junit.xml
    says it did not end alone."""
    empty = tmp_path / "empty.json"
    empty.write_text("[]")
    for mode, status, bundles in (("module", 0, ()), ("hang", 1, ()), ("module", 0, ("--bundles", "0"))):
        where = tmp_path / f"{mode}{len(bundles)}"
        where.mkdir()
        fake = Fake(where, mode)
        run = campaign_with_a_timeout(where / "run", str(fake.path), LIMIT_S, Baseline.of([])).out
        argv = ["triage", str(run), "--baseline", str(empty), "--bundle-timeout", "1", *bundles]
        assert cli.main(argv) == status, (mode, bundles)  # --bundles 0 bundles nothing, but confirms the hang
        summary = json.loads((run / "summary.json").read_text())
        assert summary["new_causes"] == ([] if status == 0 else ["crash/compile-timeout"])
        if status == 0:
            assert any(r.startswith("every oracle: a slow compile, not a hang") for r in summary["not_judged"])
        else:
            assert f"did not end in {LIMIT_S * 4:g} s (4x the limit) alone" in (run / "junit.xml").read_text()


@pytest.mark.iree
@pytest.mark.parametrize("made, outcome", [(exp_case, "slow"), (softmax_case, "fmaxf")])
def test_a_real_compile_past_its_limit_is_what_it_does_alone(tmp_path, monkeypatch, made, outcome):
    """The real compiler under a limit no compile meets (50 ms: iree-compile's start alone takes longer): a timeout
    in the campaign; alone, with the confirmation's factor set to give it four times the case's own compile time,
    a module (a slow compile, not judged) or, for the 1-D f16 softmax, the known fmaxf link error of the shipped
    baseline (seed 29411's 'hang'). (Half the case's measured time as the limit was flaky: on the loaded CI machine
    the second compile ran in less than half the first one's time, CI at 6869c87.)"""
    from ireefuzz.tools.baseline import baseline_path, load

    cpu = "x86-64-v3"  # AVX2 without AVX-512 FP16: the f16 maxnumf needs fmaxf whatever the host (a Sapphire Rapids
    # host has avx512fp16 and compiles it)
    config = options.Options(cases=1, target_cpu=cpu).compiler_config()
    made = functools.partial(lambda make: dataclasses.replace(make(), target_cpu=cpu), made)
    (measured,) = evaluate([made()], config, Policy(frozenset({"crash"})))
    limit = 0.05
    monkeypatch.setattr(bundling, "HANG_CONFIRM_FACTOR", max(4.0, 4 * measured.compile_seconds / limit))
    shipped = load(baseline_path(None))
    rec = campaign_with_a_timeout(tmp_path / "run", sut.find_iree_compile(config), limit, shipped, made(), cpu)
    assert bundling.confirm_hangs(rec, log=lambda m: None) == ["crash/compile-timeout"]
    after = reopened(rec)
    assert after.new_causes() == []
    if outcome == "slow":
        assert not after.present_causes() and "a slow compile, not a hang" in next(iter(after.not_judged))
    else:
        assert [c.id for c in after.present_causes()] == [FMAXF_CAUSE] and after.cause_status(
            after.causes[FMAXF_CAUSE]
        ) == "known"
