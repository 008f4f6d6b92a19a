"""The known-findings baseline (``ireefuzz.tools.baseline``): its two formats, verdicts, ``triage --mark``,
and matching by cause in the campaign and in the pytest plugin alike.

Every verdict path that can fail has a test: a judged cause does not turn a run red, an unjudged one does;
a bad ``--mark`` is one line and exit 2, and leaves the baseline as it was; a new dims variant of a known
cause is known to the plugin and to the campaign.
"""

from __future__ import annotations

import contextlib
import io
import json
import textwrap
import warnings
from pathlib import Path

import pytest
from test_campaign_causes import (  # the small recorded run
    ALLOCA,
    MUTATED,
    ROWS,
    old_run,
)

from ireefuzz.errors import CorpusError, UsageError
from ireefuzz.oracles.finding import Finding, Signature
from ireefuzz.tools import baseline
from ireefuzz.tools.campaign import runs

SHIPPED = Path(__file__).parents[1] / "corpus" / "known_findings.json"
pytest_plugins = ["pytester"]


def write(path: Path, data) -> Path:
    path.write_text(json.dumps(data))
    return path


def triage(*args: str) -> tuple[int, str, str]:
    """``ireefuzz triage ... --bundles 0`` as the command line runs it (in this process: no bundle;
    a compile only to confirm a new cause's timeout)."""
    from ireefuzz import cli

    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        rc = cli.main(["triage", *args, "--bundles", "0"])
    return rc, out.getvalue(), err.getvalue()


# --------------------------------------------------------------------------- Signature


def test_signature_parses_its_five_parts_and_rejects_other_text():
    sig = Signature.parse("memory/alloca/fill>generic[exp]/f32/SxS,SxS")
    assert (sig.oracle, sig.kind, sig.ops, sig.dtype, sig.dims) == (
        "memory",
        "alloca",
        "fill>generic[exp]",
        "f32",
        "SxS,SxS",
    )
    assert sig.op_names == ("fill", "generic") and str(sig) == "memory/alloca/fill>generic[exp]/f32/SxS,SxS"
    for bad in ("memory/alloca/x/f32", "a/b/c/d/e/f", "memory//x/f32/S", "", None):
        with pytest.raises(ValueError, match="oracle/kind/ops/dtype/dims"):
            Signature.parse(bad)


# --------------------------------------------------------------------------- formats


def test_a_format_1_file_is_read_with_the_verdicts_it_already_says(tmp_path):
    file = write(
        tmp_path / "old.json",
        [
            {
                "signature": "memory/alloca/x/f32/S",
                "cause": ALLOCA,
                "upstream": "https://github.com/iree-org/iree/issues/8303",
            },
            {"signature": "memory/alloca/x/f16/?", "cause": ALLOCA, "upstream": ""},
            {
                "cause": "memory/copy/sort@Default",
                "status": "intended",
                "note": "sort works in place on a read-only operand",
            },
            {"signature": "crash/compile-error/y/f16/?", "note": None},
        ],
    )
    base = baseline.load(file)
    alloca = base.causes[ALLOCA]
    assert (alloca.verdict, alloca.link, alloca.signatures) == (
        "upstream",
        "https://github.com/iree-org/iree/issues/8303",
        ("memory/alloca/x/f16/?", "memory/alloca/x/f32/S"),
    )
    assert base.causes["memory/copy/sort@Default"].verdict == "by-design"
    assert "read-only operand" in base.causes["memory/copy/sort@Default"].why
    assert base.signatures["crash/compile-error/y/f16/?"].verdict == ""  # listed, no verdict: still known
    again = tmp_path / "new.json"
    baseline.write(again, baseline.read(file))  # format 2 round trip
    assert json.loads(again.read_text())["format"] == 2 and set(baseline.read(again)) == set(baseline.read(file))


def test_the_shipped_baseline_reads_and_gives_a_verdict_to_every_linked_cause():
    entries = baseline.read(SHIPPED)
    assert MUTATED in {k.cause for k in entries}
    assert all(k.verdict for k in entries if k.link), [k.cause for k in entries if k.link and not k.verdict]
    assert all(k.link.startswith(("https://", "corpus/", "docs/")) for k in entries if k.verdict == "upstream")


@pytest.mark.parametrize(
    "entry, match",
    [
        ({"cause": ALLOCA, "verdict": "wontfix"}, "choose one of upstream, by-design, harness, duplicate-of"),
        ({"cause": ALLOCA, "verdict": "by-design"}, "needs 'why'"),
        ({"cause": ALLOCA, "verdict": "upstream", "link": " "}, "needs 'link'"),
        ({"cause": ALLOCA, "verdict": "harness"}, "needs 'fixed_in'"),
        ({"cause": ALLOCA, "verdict": "duplicate-of", "of": ALLOCA}, "duplicate of itself"),
        ({"cause": ALLOCA, "verdict": "duplicate-of", "of": "nothing"}, "like oracle/what"),
        ({"cause": "nothing", "verdict": "by-design", "why": "x"}, "oracle/what"),
        ({"cause": ALLOCA, "signatures": ["memory/alloca"]}, "oracle/kind/ops/dtype/dims"),
        ({"cause": ALLOCA, "why": 3}, "must be a string"),
        ({"note": "x"}, '"cause"'),
        ({"cause": ALLOCA, "mechanism": "memory"}, "mechanism must be"),
        ({"cause": ALLOCA, "mechanism": {"oracle": "memory", "culprit": None}}, "trigger must say"),
        ({"cause": ALLOCA, "mechanism": {"oracle": "gpu", "culprit": None, "trigger": "t"}}, "mechanism oracle"),
        ({"cause": ALLOCA, "mechanism": {"oracle": "memory", "culprit": 3, "trigger": "t"}}, "culprit must be"),
        ({"cause": ALLOCA, "mechanism": {"oracle": "memory", "culprit": None, "trigger": "t", "x": 1}}, "must be"),
    ],
)
def test_a_bad_format_2_entry_is_one_line_naming_it(tmp_path, entry, match):
    file = write(tmp_path / "bad.json", {"format": 2, "causes": [entry]})
    with pytest.raises(UsageError, match=match) as e:
        baseline.load(file)
    assert "\n" not in str(e.value) and "entry 0" in str(e.value)


def test_a_cause_listed_twice_or_an_unknown_format_is_refused(tmp_path):
    twice = {"format": 2, "causes": [{"cause": ALLOCA}, {"cause": ALLOCA, "verdict": "by-design", "why": "x"}]}
    with pytest.raises(UsageError, match="listed twice"):
        baseline.load(write(tmp_path / "a.json", twice))
    with pytest.raises(UsageError, match='"format": 2'):
        baseline.load(write(tmp_path / "b.json", {"format": 3, "causes": []}))


# --------------------------------------------------------------------------- matching by cause


def test_a_new_dims_variant_of_a_known_cause_is_known_to_the_campaign(tmp_path):
    """ROWS hold immutability/input-mutated/... signatures of the MUTATED cause; the baseline lists the cause
    with a signature none of them has."""
    base = baseline.Baseline.of(
        [
            baseline.Known(
                MUTATED,
                "upstream",
                link="https://x/16168",
                signatures=("immutability/input-mutated/matmul[acc]/f32/?x?",),
            )
        ]
    )
    record = runs.open_run(old_run(tmp_path / "run"), base)
    assert record.new_causes() == [ALLOCA]
    assert all(record.status(sig) == "known" for _, sig, *_ in ROWS[:3])


def test_a_new_dims_variant_of_a_known_cause_is_known_to_the_plugin(tmp_path):
    from ireefuzz import sut, testing

    base = baseline.Baseline.of(
        [
            baseline.Known(
                MUTATED,
                "by-design",
                why="the test says so",
                signatures=("immutability/input-mutated/matmul[acc]/f32/?x?",),
            )
        ]
    )
    variant = Finding(
        "immutability",
        "input-mutated",
        "immutability/input-mutated/matmul[acc]/f32/SxS",
        "argument 2 changed",
        cause=MUTATED,
    )
    judge = lambda findings: testing._judge(
        findings,
        testing.IreeSut(known=base, bundle_dir=tmp_path),
        "t",
        program="",
        case_json={},
        what="case",
        config=sut.CompilerConfig(),
        target_cpu="host",
    )
    with warnings.catch_warnings(record=True) as seen:
        warnings.simplefilter("always")
        judge([variant])  # known by its cause: no failure
    assert [type(w.message) for w in seen] == [testing.KnownFinding]
    assert "by-design: the test says so" in str(seen[0].message)
    other = Finding("memory", "alloca", "memory/alloca/matmul/f32/SxS", "alloca", cause=ALLOCA)
    with pytest.raises(testing.IreefuzzFailure, match="1 new finding"), pytest.warns(testing.KnownFinding):
        judge([variant, other])  # an unjudged cause still fails; the known one beside it is only a warning


# --------------------------------------------------------------------------- triage --mark


def test_a_judged_cause_does_not_turn_the_run_red_an_unjudged_one_does(tmp_path):
    run, file = old_run(tmp_path / "run"), write(tmp_path / "known.json", {"format": 2, "causes": []})
    rc, _, err = triage(str(run), "--baseline", str(file))
    assert rc == 1, err  # both causes new: red
    rc, _, err = triage(
        str(run),
        "--baseline",
        str(file),
        "--mark",
        MUTATED,
        "--as",
        "upstream",
        "--link",
        "https://github.com/iree-org/iree/issues/16168",
    )
    assert rc == 1, err  # ALLOCA is still unjudged: still red
    rc, _, err = triage(
        str(run),
        "--baseline",
        str(file),
        "--mark",
        ALLOCA,
        "--as",
        "by-design",
        "--why",
        "the semantics need this scratch",
        "--note",
        "checked by hand",
    )
    assert rc == 0, err  # every cause judged: green
    written = {k.cause: k for k in baseline.read(file)}
    assert written[ALLOCA].why == "the semantics need this scratch" and written[ALLOCA].note == "checked by hand"
    assert set(written[ALLOCA].signatures) == {ROWS[3][1], ROWS[4][1]}  # its signatures kept with it
    assert written[MUTATED].verdict == "upstream"
    summary = json.loads((run / "summary.json").read_text())
    assert summary["new_causes"] == [] and {c["id"]: c["verdict"] for c in summary["causes"]} == {
        MUTATED: "upstream",
        ALLOCA: "by-design",
    }
    assert summary["judged_causes"][ALLOCA] == {"verdict": "by-design", "detail": "the semantics need this scratch"}
    md = (run / "summary.md").read_text()  # judged causes shown apart, with their verdict: nothing hidden
    assert "## Judged causes (2: 1 by-design, 1 upstream; not failures)" in md
    assert f"| `{ALLOCA}` | by-design | the semantics need this scratch |" in md
    assert "by-design: the semantics need this scratch" in (run / "junit.xml").read_text()
    assert "Judged causes" in (run / "report.html").read_text()
    rc, _, err = triage(str(run), "--baseline", str(file), "--mark", ALLOCA, "--as", "duplicate-of", "--of", MUTATED)
    assert rc == 0 and baseline.load(file).causes[ALLOCA].of == MUTATED  # a verdict can be changed


@pytest.mark.parametrize(
    "args, match",
    [
        (["--mark", "no-such-cause", "--as", "by-design", "--why", "x"], "does not look like oracle/what"),
        (["--mark", "memory/alloca/none@X", "--as", "by-design", "--why", "x"], "has no such cause"),
        (["--mark", ALLOCA, "--as", "upstream"], "needs 'link'.*give --link"),
        (["--mark", ALLOCA, "--as", "upstream", "--why", "x"], "--as upstream takes --link, not --why"),
        (["--mark", ALLOCA], "say which verdict with --as"),
        (["--as", "by-design", "--why", "x"], "go with --mark CAUSE"),
        (["--mark", ALLOCA, "--as", "duplicate-of", "--of", "memory/copy/none"], "neither a cause of"),
        (["--mark", ALLOCA, "--as", "duplicate-of", "--of", ALLOCA], "duplicate of itself"),
    ],
)
def test_a_bad_mark_is_one_line_exit_2_and_writes_nothing(tmp_path, args, match):
    import re

    run, file = old_run(tmp_path / "run"), write(tmp_path / "known.json", [{"cause": MUTATED, "upstream": "https://x"}])
    before = file.read_text()
    rc, _, err = triage(str(run), "--baseline", str(file), *args)
    assert rc == 2 and len(err.strip().splitlines()) == 1 and re.search(match, err), err
    assert file.read_text() == before


def test_mark_without_a_baseline_starts_from_the_shipped_one(tmp_path, monkeypatch):
    run = old_run(tmp_path / "run")
    monkeypatch.chdir(tmp_path)
    rc, _, err = triage(str(run), "--mark", ALLOCA, "--as", "harness", "--fixed-in", "0.2.0")
    assert "started corpus/known_findings.json from the baseline shipped" in err
    mine = baseline.read(tmp_path / "corpus" / "known_findings.json")
    assert {k.cause for k in mine} >= {k.cause for k in baseline.read(SHIPPED) if k.cause} | {ALLOCA}
    assert rc == 0, err  # MUTATED is the shipped baseline's, ALLOCA now the team's own


def test_mark_rewrites_a_format_1_file_as_format_2_atomically(tmp_path):
    file = write(tmp_path / "known.json", [{"signature": ROWS[3][1]}, {"cause": MUTATED, "upstream": "https://x"}])
    entry = baseline.mark(file, ALLOCA, "duplicate-of", MUTATED, signatures=[ROWS[3][1], ROWS[4][1]])
    assert entry.of == MUTATED
    data = json.loads(file.read_text())
    assert data["format"] == 2 and [e["cause"] for e in data["causes"]] == [
        MUTATED,
        ALLOCA,
    ]  # the signature row folded in
    assert not list(tmp_path.glob("*.tmp*")) and sorted(p.name for p in tmp_path.iterdir()) == ["known.json"]
    with pytest.raises(UsageError, match="needs 'why'"):
        baseline.mark(file, ALLOCA, "by-design", "")
    with pytest.raises(CorpusError):
        baseline.read(write(tmp_path / "x.json", {"format": 2}))


@pytest.mark.iree
def test_the_plugin_passes_a_dims_variant_of_a_known_cause_for_real(pytester: pytest.Pytester):
    """IREE 3.13 writes a reduction's partial sums into the caller's ``outs`` argument (iree-org/iree#16168). The
    baseline lists that cause with another shape's signature only; the test passes with a KnownFinding."""
    (pytester.path / "baseline.json").write_text(
        json.dumps(
            {
                "format": 2,
                "causes": [
                    {
                        "cause": MUTATED,
                        "verdict": "upstream",
                        "link": "https://github.com/iree-org/iree/issues/16168",
                        "signatures": ["immutability/input-mutated/reduce_sum[outs]/i32/?"],
                    }
                ],
            }
        )
    )
    pytester.makepyfile(
        textwrap.dedent("""
        import ireefuzz

        def test_variant(ireefuzz_check):
            b = ireefuzz.GraphBuilder()
            x = b.arg((64, 64), "i32")
            acc = b.arg((64,), "i32")
            b.output(b.reduce_sum(x, dim=1, init=acc))
            result = ireefuzz_check(b.build(), oracles=["immutability"])
            assert result.signatures == ("immutability/input-mutated/reduce_sum[outs]/i32/S",)
    """)
    )
    result = pytester.runpytest_subprocess("--ireefuzz-baseline=baseline.json", timeout=600)
    result.assert_outcomes(passed=1)
    result.stdout.fnmatch_lines([f"*KnownFinding: known finding * of cause {MUTATED} (upstream: *16168)*"])


def test_a_signature_listed_under_one_cause_never_makes_another_cause_known(tmp_path):
    """A newer ireefuzz that splits a cause reports the split-off part as not judged, never with the old verdict."""
    sig = ROWS[3][1]  # recorded under ALLOCA
    judged = baseline.Baseline.of([baseline.Known("memory/alloca/renamed@X", "by-design", why="w", signatures=(sig,))])
    assert judged.finding_known(sig, ALLOCA) is None and judged.cause_known(ALLOCA, [sig]) is None
    assert runs.open_run(old_run(tmp_path / "run"), judged).new_causes() == [MUTATED, ALLOCA]
    listed = baseline.Baseline.of([baseline.Known(signatures=(sig,))])  # an old baseline's cause-less row
    assert listed.finding_known(sig, ALLOCA) and listed.cause_known(ALLOCA, [sig])


def test_a_harness_verdict_holds_for_older_runs_and_a_return_after_its_fix_is_red(tmp_path):
    run = old_run(tmp_path / "run")
    file = write(
        tmp_path / "known.json",
        {
            "format": 2,
            "causes": [
                {"cause": MUTATED, "verdict": "upstream", "link": "https://x/16168"},
                {"cause": ALLOCA, "verdict": "harness", "fixed_in": "0.2.0"},
            ],
        },
    )
    rc, _, err = triage(str(run), "--baseline", str(file))
    assert rc == 0, err  # a run whose ireefuzz is not known (an older run): the verdict holds
    for version, red in (("0.1.0", False), ("0.2.0", True), ("0.10.1", True)):
        summary = json.loads((run / "summary.json").read_text())
        (run / "summary.json").write_text(json.dumps(summary | {"ireefuzz_version": version}))
        rc, _, err = triage(str(run), "--baseline", str(file))
        assert rc == int(red), (version, err)
        summary = json.loads((run / "summary.json").read_text())
        assert summary["ireefuzz_version"] == version  # the run's own version is kept by triage
        ranked = {r["id"]: r for r in summary["ranking"]}
        assert (ALLOCA in ranked) == red and (
            not red or "fixed in ireefuzz 0.2.0, seen again" in ranked[ALLOCA]["regressed"]
        )
    assert "seen again in 0.10.1" in (run / "summary.md").read_text()


def test_a_new_run_is_stamped_with_the_ireefuzz_that_made_it(tmp_path):
    import ireefuzz

    run = old_run(tmp_path / "run")
    assert runs.write_outputs(run, runs.open_run(run, baseline.Baseline()))["ireefuzz_version"] == ireefuzz.__version__
    assert runs.run_version(run) == ireefuzz.__version__


# --------------------------------------------------------------------------- mechanisms

TILING = "crash/compile-error/linalg.generic-op-inferred-operand-has-shape-s-dimension-to-be-greater-than@tiling"
REVERSE_MAP_FIRST_ID = TILING.replace("@tiling", "@iree-codegen-tile-and-distribute-to-workgroups-using-forall-op")


def test_every_judged_cause_of_the_shipped_baseline_carries_its_mechanism():
    """A variant of a known bug matches it whatever its surface only if the known cause says what IREE did: every
    cause judged a real IREE bug or by design (not a duplicate, not ireefuzz's own error) has a mechanism, whose
    oracle is the cause's own."""
    entries = baseline.read(SHIPPED)
    judged = [k for k in entries if k.verdict in ("upstream", "by-design")]
    assert judged and all(k.mechanism is not None for k in judged), [k.cause for k in judged if k.mechanism is None]
    assert all(k.mechanism.oracle == k.cause.split("/")[0] for k in judged if k.mechanism)
    assert all(k.mechanism.trigger.endswith(".") and "\n" not in k.mechanism.trigger for k in judged if k.mechanism)


def test_a_known_mechanism_matches_by_oracle_and_pass_family_and_a_duplicate_gives_its_causes():
    known = baseline.load(SHIPPED)
    assert [k.cause for k in known.matches("crash", "iree-llvmcpu-tile")] == [TILING]  # another tiling pass
    assert [k.cause for k in known.matches("crash", "tiling")] == [TILING]
    assert known.matches("numeric", "iree-llvmcpu-tile") == [] and known.matches("crash", None) == []
    assert {k.cause for k in known.matches("numeric", "iree-dispatch-creation-fold-unit-extent-dims")} >= {
        "numeric/wrong-value/pooling_nhwc_max"
    }
    mechanism = known.known_mechanism(REVERSE_MAP_FIRST_ID)  # the id before pass families: a duplicate of TILING
    assert mechanism == known.known_mechanism(TILING) and mechanism is not None and mechanism.family == "tiling"
    assert known.known_mechanism("memory/alloca/nothing@x") is None


def test_a_mechanism_survives_a_round_trip_and_a_mark_and_an_old_file_without_one_still_loads(tmp_path):
    record = {"oracle": "memory", "culprit": "iree-codegen-iree-comprehensive-bufferize", "trigger": "With x, none."}
    file = write(tmp_path / "b.json", {"format": 2, "causes": [{"cause": ALLOCA, "mechanism": record}]})
    (entry,) = baseline.read(file)
    assert entry.mechanism == baseline.Mechanism(**record) and entry.mechanism.family == "bufferization"
    baseline.write(file, [entry])
    assert json.loads(file.read_text())["causes"][0]["mechanism"] == record
    marked = baseline.mark(file, ALLOCA, "upstream", "https://github.com/iree-org/iree/issues/1")
    assert marked.mechanism == entry.mechanism and baseline.read(file)[0].mechanism == entry.mechanism
    old = write(tmp_path / "old.json", {"format": 2, "causes": [{"cause": ALLOCA, "verdict": "by-design", "why": "x"}]})
    assert baseline.read(old)[0].mechanism is None and baseline.load(old).matches("memory", "bufferization") == []


def test_a_compile_crash_of_unknown_signal_is_the_known_crash_in_the_same_frames():
    """Round K (host, seed 35117): iree-compile killed at the time limit while its crash handler printed the mmt4d
    SIGFPE's stack has no exit status, so its crash type is `crash`; the frames say which known crash it is. A
    crash in other frames, or with a known signal of its own, is not matched that way."""
    frames = "mlir.iree_compiler.limitVectorTileSizes>mlir.iree_compiler.limitVectorTileSizes>mlir.iree_compiler.x"
    known = baseline.Baseline.of([baseline.Known(f"crash/compile-crash/SIGFPE/{frames}", "upstream", link="x")])
    assert known.cause_known(f"crash/compile-crash/crash/{frames}", []) is not None
    assert known.finding_known("s", f"crash/compile-crash/crash/{frames}") is not None
    assert known.cause_known(f"crash/compile-crash/crash/{frames}.y", []) is None
    assert known.cause_known(f"crash/compile-crash/SIGSEGV/{frames}", []) is None
