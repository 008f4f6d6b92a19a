"""``ireefuzz check``: signature parsing, shapes, exit statuses and --json (real IREE where marked)."""

from __future__ import annotations

import json

import pytest
from programs import run_check as run

from ireefuzz.core import frontends
from ireefuzz.tools import check

ADD = """func.func @add(%a: tensor<32x48xf32>, %b: tensor<32x48xf32>) -> tensor<32x48xf32> {
  %e = tensor.empty() : tensor<32x48xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>, \
affine_map<(i, j) -> (i, j)>],
                       iterator_types = ["parallel", "parallel"]}
      ins(%a, %b : tensor<32x48xf32>, tensor<32x48xf32>) outs(%e : tensor<32x48xf32>) {
  ^bb0(%x: f32, %y: f32, %o: f32):
    %s = arith.addf %x, %y : f32
    linalg.yield %s : f32
  } -> tensor<32x48xf32>
  return %r : tensor<32x48xf32>
}
"""
MATMUL_ACC_ARG = """func.func @mm(%a: tensor<?x?xf32>, %b: tensor<?x?xf32>, %c: tensor<?x?xf32>) -> tensor<?x?xf32> {
  %r = linalg.matmul ins(%a, %b : tensor<?x?xf32>, tensor<?x?xf32>) outs(%c : tensor<?x?xf32>) -> tensor<?x?xf32>
  return %r : tensor<?x?xf32>
}
func.func private @helper(%a: tensor<4xf32>) -> tensor<4xf32> {
  return %a : tensor<4xf32>
}
"""


def test_signatures_list_public_functions_with_dynamic_dims():
    (sig,) = frontends.signatures(MATMUL_ACC_ARG)
    assert sig.name == "mm" and sig.args == (((None, None), "f32"),) * 3 and sig.dims == "?x?"
    assert frontends.concrete_shapes(sig, None) == [(33, 33)] * 3
    assert frontends.concrete_shapes(sig, check.parse_shapes("5x7,7x3,5x3")) == [(5, 7), (7, 3), (5, 3)]


def test_bad_shapes_are_usage_errors():
    (sig,) = frontends.signatures(ADD)
    with pytest.raises(check.ProgramError, match="argument 0 is tensor<32x48>"):
        frontends.concrete_shapes(sig, [(33, 48), (32, 48)])
    with pytest.raises(check.ProgramError, match="takes 2 arguments"):
        frontends.concrete_shapes(sig, [(32, 48)])
    with pytest.raises(check.ProgramError, match="not a shape"):
        check.parse_shapes("3xq")


def test_unparsable_file_exits_2_with_one_clear_message(tmp_path, capsys):
    bad = tmp_path / "bad.mlir"
    bad.write_text("func.func @f( {\n")
    assert run([str(bad)]) == 2
    out = capsys.readouterr().out.strip().splitlines()
    assert len(out) == 1 and "bad.mlir: not a valid MLIR program" in out[0]
    assert run([str(tmp_path / "missing.mlir")]) == 2
    assert run([str(bad), "--oracles", "vibes"]) == 2


def test_inputs_follow_the_generator_rule():
    (case,) = frontends.program_cases(ADD, seed=0)
    xs = case.inputs()
    assert [x.shape for x in xs] == [(32, 48)] * 2
    assert all(((x * 8) == (x * 8).round()).all() and abs(x).max() <= 2 for x in xs)


@pytest.mark.iree
def test_clean_program_exits_0(tmp_path, capsys):
    path = tmp_path / "add.mlir"
    path.write_text(ADD)
    assert run([str(path)]) == 0


@pytest.mark.iree
def test_findings_exit_1_and_json_lists_them(tmp_path, capsys):
    path = tmp_path / "mm.mlir"
    path.write_text(MATMUL_ACC_ARG)
    assert run([str(path), "--json", "--shapes", "33x16,16x49,33x49"]) == 1
    findings = json.loads(capsys.readouterr().out)["findings"]
    sigs = {f["signature"] for f in findings}
    assert "immutability/input-mutated/matmul/f32/?x?" in sigs
    assert all(f["oracle"] in ("immutability", "memory", "fusion", "crash", "metamorphic") for f in findings)


# --------------------------------------------------------------------------- exit statuses a CI can read

UNFINISHED = "every oracle: the program did not finish in 3 s (it may never end)"
UNDEFINED = "@main's output 0 reads undefined values (%e = tensor.empty at line 2: never written; undefined behaviour)"


def _results(*rows: tuple[str, tuple[str, ...], int]):
    """CaseResults of functions ``name`` with not-judged ``reasons`` and ``findings`` findings, as evaluate makes."""
    from ireefuzz.core.evaluate import CaseResult
    from ireefuzz.oracles.finding import Finding

    made = []
    for name, reasons, findings in rows:
        (case,) = frontends.program_cases(ADD.replace("@add", f"@{name}"))
        found = tuple(Finding("crash", "x", f"crash/x/{name}/-/-", "m", {}) for _ in range(findings))
        made.append(CaseResult(case, found, not_judged=reasons))
    return made


@pytest.mark.parametrize(
    "rows,status",
    [
        ([("f", (UNFINISHED,), 0)], 2),  # a program that never ends: nothing judged
        ([("f", (UNDEFINED,), 0), ("g", (UNFINISHED,), 0)], 2),
        ([("f", (UNDEFINED,), 0), ("g", (), 0)], 0),  # @g was judged, and is clean
        ([("f", ("op iree_linalg_ext.scan",), 0)], 0),  # another CPU stood in for the interpreter
        ([("f", (UNFINISHED,), 1)], 1),
        ([], 2),  # no public function
    ],
)
def test_check_exits_2_when_it_judged_nothing_never_0(monkeypatch, tmp_path, capsys, rows, status):
    path = tmp_path / "p.mlir"
    path.write_text(ADD)
    prepared = check.Prepared(path, ADD, None, None, None, None, None)
    monkeypatch.setattr(check, "prepare", lambda args: prepared)
    monkeypatch.setattr(check, "check_results", lambda *a, **k: _results(*rows))
    assert run([str(path)]) == status
    err = capsys.readouterr().err
    assert ("nothing judged in" in err) == (status == 2)
    if status == 2 and rows:
        assert UNFINISHED in err


def test_check_help_states_the_exit_statuses(capsys):
    from ireefuzz import cli

    with pytest.raises(SystemExit):
        cli.main(["check", "--help"])
    out = " ".join(capsys.readouterr().out.split())
    assert "2 nothing was judged" in out and "0 no finding but ones the baseline judges by design" in out
    assert "1 a finding (this IREE gets the program wrong" in out and "or known, and which" in out


@pytest.mark.iree
def test_a_program_that_never_ends_exits_2_with_the_reason(tmp_path, capsys):
    from test_hostile import NEVER_ENDS

    path = tmp_path / "never.mlir"
    path.write_text(NEVER_ENDS)
    assert run([str(path), "--run-timeout", "2", "--oracles", "crash,numeric"]) == 2
    err = capsys.readouterr().err
    assert "nothing judged in" in err and "did not finish in 2 s" in err


# --------------------------------------------------------------------------- triage: known, duplicate or new

CANDIDATE, KNOWN = "crash/x/f", "crash/compile-error/known@fold-unit-extent-dims"


def triaging(verdict: str):
    """An experimenter whose verdict on every cause is ``verdict`` (a duplicate lands in ``KNOWN`` by ``static``)."""
    calls: list[str] = []

    def experimenter(finding, case, config, limit):
        calls.append(finding.cause)
        if verdict == "new":
            return check.Triaged(finding.cause, finding.cause, "new", "it survived its experiments", ("| t |",))
        why = "duplicate-of, by experiment: static" if verdict == "duplicate-of" else "the baseline: upstream"
        return check.Triaged(
            finding.cause, KNOWN, verdict, why, ("| `static` | s | `known:x` |",) * (verdict != "known")
        )

    return experimenter, calls


@pytest.mark.parametrize("verdict", ["new", "duplicate-of", "known", None])
def test_check_exits_1_for_a_finding_of_any_cause_and_reports_a_duplicate_as_its_known_cause(
    monkeypatch, tmp_path, capsys, verdict
):
    status = 1  # the program is wrong on this IREE whichever bug it is: the cause line says which
    import argparse
    import types

    from ireefuzz.core.evaluate import CaseResult
    from ireefuzz.oracles.finding import Finding

    path = tmp_path / "p.mlir"
    path.write_text(ADD)
    (case,) = frontends.program_cases(ADD)
    found = tuple(Finding("crash", "x", f"crash/x/add/-/{k}", "m", {}, cause=CANDIDATE) for k in "ab")
    toolchain = types.SimpleNamespace(not_judged={})
    monkeypatch.setattr(check, "prepare", lambda args: check.Prepared(path, ADD, None, toolchain, None, None, None))
    monkeypatch.setattr(check, "check_results", lambda *a, **k: [CaseResult(case, found)])
    experimenter, calls = triaging(verdict) if verdict else (None, [])
    parser = argparse.ArgumentParser()
    check.configure(parser)
    assert check.main(parser.parse_args([str(path)]), experimenter) == status
    assert calls == ([CANDIDATE] if verdict else [])  # once per cause, not per finding
    out = capsys.readouterr().out
    if verdict == "duplicate-of":
        line = f"cause: {KNOWN} (duplicate-of, by experiment: static; named {CANDIDATE} before its experiments)"
        assert out.count(line) == 2 and f"## {CANDIDATE}" in out and "| `static` | s | `known:x` |" in out
    elif verdict is None:
        assert f"cause: {CANDIDATE} (new: not triaged: no experimenter)" in out
    assert check.main(parser.parse_args([str(path), "--json"]), experimenter) == status
    (cause,) = json.loads(capsys.readouterr().out)["causes"]
    assert (cause["cause"], cause["reported"]) == (CANDIDATE, CANDIDATE if verdict in ("new", None) else KNOWN)


def test_the_shipped_baseline_makes_a_cause_known_by_the_cause_it_names_and_zero_experiments_leave_it_new():
    from ireefuzz.oracles.finding import Finding
    from ireefuzz.tools.filing import experiments

    (case,) = frontends.program_cases(ADD)
    fold = "crash/compile-error/linalg.generic-op-inferred-operand-has-shape-s-dimension-to-be-but-found@"
    met = Finding("crash", "compile-error", "crash/compile-error/x/-/-", "m", {}, cause=f"{fold}input")
    known = experiments.for_check(met, case, None, 0)  # a duplicate-of entry: reported as the cause it names
    assert (known.verdict, known.reported) == ("known", f"{fold}fold-unit-extent-dims") and not known.new
    untried = experiments.for_check(Finding("crash", "x", "crash/x/-/-/-", "m", {}, cause="crash/x/y"), case, None, 0)
    assert (untried.verdict, untried.reported, untried.why) == (
        "new",
        "crash/x/y",
        "no experiments run (--experiments 0)",
    )


TRUNC_TO_F16 = """func.func @main(%a: tensor<4xf32>) -> tensor<4xf16> {
  %e = tensor.empty() : tensor<4xf16>
  %x = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], \
iterator_types = ["parallel"]} ins(%a : tensor<4xf32>) outs(%e : tensor<4xf16>) {
  ^bb0(%in: f32, %out: f16):
    %y = arith.truncf %in : f32 to f16
    linalg.yield %y : f16
  } -> tensor<4xf16>
  return %x : tensor<4xf16>
}
"""


def test_a_cause_the_baseline_judges_by_design_is_no_bug():
    from ireefuzz.oracles.finding import Finding
    from ireefuzz.tools.filing import experiments

    (case,) = frontends.program_cases(ADD)
    flushed = "numeric/wrong-value/f16-subnormal-flushed-without-f16c"
    signature = "numeric/wrong-value/generic/f16/S"
    found = experiments.for_check(Finding("numeric", "wrong-value", signature, "m", {}, cause=flushed), case, None, 0)
    assert found.verdict == "known" and "F16C" in found.by_design and found.why == "the baseline: by-design"
    other = experiments.for_check(Finding("crash", "x", "crash/x/-/-/-", "m", {}, cause="crash/x/y"), case, None, 0)
    assert other.by_design == ""


@pytest.mark.iree
def test_check_exits_0_when_its_only_findings_are_by_design(tmp_path, capsys):
    """Against the real compiler: f16 subnormals flushed by the generic CPU's software truncation (no F16C), which
    the shipped baseline judges by design, is found, reported with its why, and is no bug (check said 1: a false
    verdict for a user whose program is right). A finding of any other cause still exits 1 (the tests above)."""
    import numpy as np

    path, inputs = tmp_path / "trunc.mlir", tmp_path / "in.npz"
    path.write_text(TRUNC_TO_F16)
    np.savez(inputs, a0=np.array([3e-6, -2e-5, 1.0, 4e-7], np.float32))
    import argparse

    from ireefuzz.tools.filing import experiments

    parser = argparse.ArgumentParser()
    check.configure(parser)
    args = parser.parse_args([str(path), "--target-cpu", "generic", "--inputs", str(inputs)])
    assert check.main(args, experiments.for_check) == 0  # as `ireefuzz check` runs it, with its experiments
    captured = capsys.readouterr()
    assert "f16-subnormal-flushed-without-f16c" in captured.out and "by design, no bug" in captured.err
    assert "not a bug: Without F16C" in captured.out
