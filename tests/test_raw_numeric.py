"""Raw MLIR judged by the float64 interpreter (issue 10): the comparison's error-bound rules, inputs for
every element type and index arguments, ``--inputs``, "not judged", bundles; real IREE where marked."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest
from programs import GATHER, run_check

from ireefuzz.core import frontends
from ireefuzz.core.evaluate import Policy
from ireefuzz.errors import ProgramError
from ireefuzz.oracles import numeric
from ireefuzz.oracles.finding import Finding
from ireefuzz.tools import check

pytest_plugins = ["pytester"]

ROOT = Path(__file__).resolve().parents[1]
FILL_SUM = (ROOT / "corpus/regressions/reduce_sum_of_fill/program.mlir").read_text()
REFUSED = """func.func @main(%x: tensor<4xi32>) -> tensor<4xi32> {
  %e = tensor.empty() : tensor<4xi32>
  %y = linalg.generic {indexing_maps = [affine_map<(i) -> (i)>, affine_map<(i) -> (i)>], iterator_types = ["parallel"]}
      ins(%x : tensor<4xi32>) outs(%e : tensor<4xi32>) {
  ^bb0(%a: i32, %o: i32):
    %n = math.ctlz %a : i32
    linalg.yield %n : i32
  } -> tensor<4xi32>
  return %y : tensor<4xi32>
}
"""  # an op the interpreter refuses (math.ctlz; scan until the interpreter read it), in a program IREE compiles


def column_sum(t: str) -> str:
    """Sum over rows of a + b, in element type ``t``."""
    is_float = t.startswith(("f", "bf"))
    add, zero = ("addf", "0.0") if is_float else ("addi", "0")
    return f"""
func.func @main(%a: tensor<8x5x{t}>, %b: tensor<8x5x{t}>) -> tensor<5x{t}> {{
  %zero = arith.constant {zero} : {t}
  %e = tensor.empty() : tensor<5x{t}>
  %init = linalg.fill ins(%zero : {t}) outs(%e : tensor<5x{t}>) -> tensor<5x{t}>
  %r = linalg.generic {{indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>,
                                         affine_map<(i, j) -> (j)>], iterator_types = ["reduction", "parallel"]}}
      ins(%a, %b : tensor<8x5x{t}>, tensor<8x5x{t}>) outs(%init : tensor<5x{t}>) {{
  ^bb0(%x: {t}, %y: {t}, %o: {t}):
    %s = arith.{add} %x, %y : {t}
    %acc = arith.{add} %o, %s : {t}
    linalg.yield %acc : {t}
  }} -> tensor<5x{t}>
  return %r : tensor<5x{t}>
}}
"""


def identity(t: str) -> str:
    return (
        f"func.func @main(%a: tensor<8x5x{t}>, %b: tensor<8x5x{t}>) -> tensor<8x5x{t}> "
        f"{{ return %a : tensor<8x5x{t}> }}"
    )


# --------------------------------------------------------------------------- the comparison (no IREE)


def judge(actual, truth, dtype, perturbed=()):
    return numeric.check_program_outputs(
        "main", "ops", [np.asarray(actual)], [np.asarray(truth)], [dtype], 1e-6, lambda: list(perturbed)
    )


def test_agreement_within_the_tolerance_is_clean():
    assert judge(np.float32([1.0, 2.0]), [1.0 + 1e-7, 2.0], "f32").findings == ()
    assert judge(np.int32([4, -3]), [4, -3], "i32").findings == ()


def test_a_wrong_value_is_reported_and_integers_are_exact():
    (f,) = judge(np.int32([2]), [4], "i32").findings
    assert f.signature == "numeric/wrong-value/ops/i32/S" and f.evidence["iree"] == 2 and f.evidence["reference"] == 4
    (f,) = judge(np.float32([1.0, 2.5]), [1.0, 2.0], "f32", [[np.float64([1.0, 2.0])]]).findings
    assert f.evidence["index"] == [1] and f.kind == "wrong-value"
    (f,) = judge(np.float32([np.nan]), [1.0], "f32", [[np.float64([1.0])]]).findings
    assert f.kind == "nan-mismatch"


def test_the_reference_is_rounded_to_the_output_dtype_first():
    assert judge(np.float16([np.inf]), [70000.0], "f16").findings == ()  # f16 overflow: inf on both sides
    assert judge(np.float16([0.1]), [0.1], "f16").findings == ()  # 0.1 is not an f16; its rounding is


def test_an_ill_conditioned_disagreement_is_discarded_and_counted():
    # a sum that cancels to 0: IREE's 3e-7 is within what perturbing the inputs by rtol moves it
    result = judge(np.float32([3e-7]), [0.0], "f32", [[np.float64([2e-7])], [np.float64([-4e-7])]])
    assert result.findings == () and result.discarded == 1
    # a perturbation that changes NaN/Inf parity leaves the element unjudgeable
    result = judge(np.float32([np.inf]), [3.0e38], "f32", [[np.float64([np.inf])]])
    assert result.findings == () and result.discarded == 1
    # a run the interpreter could not judge (None) leaves every element unjudgeable
    result = judge(np.float32([5.0]), [1.0], "f32", [None])
    assert result.findings == () and result.discarded == 1


def test_the_tolerance_scales_with_depth_and_accumulation():
    base = numeric.relative_tolerance(["f32"], 1, 1)
    assert numeric.relative_tolerance(["f32"], 1, 10_000) > 50 * base
    assert numeric.relative_tolerance(["f16", "f32"], 1, 1) > 1000 * base  # the least precise type rules
    assert numeric.relative_tolerance(["bf16"], 1, 1) > numeric.relative_tolerance(["f16"], 1, 1)


# --------------------------------------------------------------------------- the oracle on a program (no IREE)


def program_numbers(text: str, outputs, inputs=()):
    (case,) = frontends.program_cases(text)
    return frontends._program_numbers(
        case, {}, list(inputs) or case.inputs(), outputs, config=None, policy=Policy(), dispatches=[]
    )


def test_the_oracle_catches_a_wrong_interpreter_and_passes_a_right_one(monkeypatch):
    """Fault injection: IREE's (here: NumPy's) right answer against a wrong interpreter is reported."""
    text = column_sum("f32")
    (case,) = frontends.program_cases(text)
    a, b = case.inputs()
    right = [(a + b).sum(axis=0, dtype=np.float32)]
    assert program_numbers(text, right, [a, b]).findings == ()
    real = frontends.reference_outputs

    def wrong(*args):
        got = real(*args)
        return type(got)([y + 0.5 for y in got.outputs], got.longest_reduction, got.depth)

    monkeypatch.setattr(frontends, "reference_outputs", wrong)
    (f,) = program_numbers(text, right, [a, b]).findings
    assert f.signature.startswith("numeric/wrong-value/") and f.evidence["function"] == "main"


def test_an_op_the_interpreter_refuses_is_not_judged_by_name():
    reference = frontends.reference_outputs(REFUSED, "main", [np.ones(4, np.int32)])
    assert reference == frontends.NotJudged("op math.ctlz") and not reference.undefined
    oob = frontends.reference_outputs(GATHER, "main", [np.zeros((3, 2), np.float32), np.int32([0, 5])])
    assert isinstance(oob, frontends.NotJudged) and oob.undefined and "out of bounds" in oob.reason


def test_outputs_that_read_tensor_empty_are_not_judged():
    """A reduction into an uninitialized tensor.empty: its result is undefined, not IREE's bug."""
    text = column_sum("f32").replace("outs(%init :", "outs(%e :")
    (case,) = frontends.program_cases(text)
    reference = frontends.reference_outputs(text, "main", case.inputs())
    assert isinstance(reference, frontends.NotJudged) and reference.undefined and "tensor.empty" in reference.reason
    ints = column_sum("i32").replace("outs(%init :", "outs(%e :")
    assert isinstance(frontends.reference_outputs(ints, "main", case.inputs()), frontends.NotJudged)
    assert not isinstance(frontends.reference_outputs(column_sum("f32"), "main", case.inputs()), frontends.NotJudged)


# --------------------------------------------------------------------------- inputs (no IREE)


@pytest.mark.parametrize(
    "t,kind",
    [
        ("i1", "b"),
        ("i8", "i"),
        ("i16", "i"),
        ("i32", "i"),
        ("i64", "i"),
        ("ui8", "u"),
        ("ui32", "u"),
        ("f16", "f"),
        ("bf16", "V"),
        ("f32", "f"),
        ("f64", "f"),
    ],
)
def test_inputs_for_every_integer_width_and_float_type(t, kind):
    (case,) = frontends.program_cases(identity(t))
    a, b = case.inputs()
    assert a.dtype == frontends.numpy_dtype(t) and a.shape == (8, 5) and (a.dtype.kind == kind or t == "bf16")
    values = a.astype(np.float64)
    assert values.min() >= (0 if kind in "bu" else -8) and values.max() <= 8
    assert (values * 8 == np.round(values * 8)).all()


def test_element_types_with_no_numpy_dtype_are_refused_in_one_line():
    with pytest.raises(ProgramError, match="cannot generate inputs of element type i4"):
        frontends.program_cases(identity("i4"))


def test_index_arguments_are_drawn_in_bounds_of_a_dynamic_dim():
    (case,) = frontends.program_cases(GATHER, shapes=[(7, 5), (40,)])
    table, idx = case.inputs()
    assert idx.dtype == np.int32 and idx.min() >= 0 and idx.max() < 7 and len(set(idx.tolist())) > 3
    assert frontends.reference_outputs(GATHER, "main", [table, idx]).outputs[0].shape == (40, 5)


def test_given_inputs_fix_shapes_and_are_checked():
    table, idx = np.ones((7, 5), np.float32), np.int32([1, 2])
    (case,) = frontends.program_cases(GATHER, inputs={"arg0": table, "arg1": idx})
    assert [x.shape for x in case.inputs()] == [(7, 5), (2,)] and case.args[1].shape == (2,)
    (case,) = frontends.program_cases(GATHER, inputs={"main.arg0": table, "main.arg1": idx})
    assert case.given is not None
    (case,) = frontends.program_cases(GATHER, inputs={"a0": table, "a1": idx})  # a repro bundle's inputs.npz
    assert [x.shape for x in case.inputs()] == [(7, 5), (2,)]
    for arrays, message in [
        ({"arg0": table.astype(np.float64), "arg1": idx}, "arg0 has dtype float64"),
        ({"arg0": table}, "lacks arg1"),
        ({"arg0": table[0], "arg1": idx}, "arg0 has shape 5"),
        ({"arg0": table, "arg1": idx, "other.arg0": idx}, "other.arg0 names no argument"),
    ]:
        with pytest.raises(ProgramError, match=message):
            frontends.program_cases(GATHER, inputs=arrays)


def test_bad_inputs_files_exit_2_in_one_line(tmp_path, capsys):
    program = tmp_path / "gather.mlir"
    program.write_text(GATHER)
    np.savez(tmp_path / "wrong.npz", arg0=np.ones((7, 5)), arg1=np.int32([1]))
    (tmp_path / "text.npz").write_text("not a zip")
    for argv in (
        ["--inputs", str(tmp_path / "wrong.npz")],
        ["--inputs", str(tmp_path / "text.npz")],
        ["--inputs", str(tmp_path / "missing.npz")],
        ["--inputs", str(tmp_path / "wrong.npz"), "--shapes", "7x5,1"],
    ):
        assert run_check([str(program), *argv]) == 2
        (line,) = capsys.readouterr().out.strip().splitlines()
        assert line.startswith("ireefuzz check: error: ")


def test_a_program_bundle_carries_inputs_the_interpreters_outputs_run_sh_and_issue(tmp_path):
    from ireefuzz.tools.filing.bundle import Bundle
    from ireefuzz.tools.filing.repro import make_program_bundle

    (case,) = frontends.program_cases(GATHER, shapes=[(7, 5), (4,)])
    finding = Finding(
        "numeric",
        "wrong-value",
        "numeric/wrong-value/gather/f32/?x?",
        "main output 0 is wrong",
        {
            "function": "main",
            "rtol": 1e-6,
            "tolerance": 1e-6,
            "platform": {"cpu": "znver4", "compiler_version": "3.13"},
        },
    )
    make_program_bundle(finding, case).dump(tmp_path)
    names = {p.name for p in tmp_path.iterdir()}
    assert {"program.mlir", "inputs.npz", "expected.npz", "run.sh", "ISSUE.md", "finding.json"} <= names
    loaded = Bundle.load(tmp_path)
    table, idx = case.inputs()
    np.testing.assert_array_equal(loaded.expected["ref_0"], table[idx])
    assert loaded.expected["ref_0"].dtype == np.float32 and (tmp_path / "expected" / "out0.npy").exists()
    assert "--function=main" in loaded.run_sh and "float64 reference interpreter" in loaded.issue


# --------------------------------------------------------------------------- real IREE


@pytest.mark.iree
def test_check_reports_the_fill_sum_miscompile(tmp_path, capsys):
    path = tmp_path / "fill_sum.mlir"
    path.write_text(FILL_SUM)
    assert run_check([str(path), "--json"]) == 1
    report = json.loads(capsys.readouterr().out)
    assert [f["signature"] for f in report["findings"]] == ["numeric/wrong-value/main/i32/scalar"]
    assert report["functions"] == [{"function": "main", "not_judged": [], "discarded": 0}]


@pytest.mark.iree
def test_a_gather_with_dynamic_dims_gives_no_numeric_finding_in_or_out_of_bounds(tmp_path, capsys):
    path = tmp_path / "gather.mlir"
    path.write_text(GATHER)
    assert run_check([str(path), "--oracles", "numeric,crash"]) == 0
    assert "not judged" not in capsys.readouterr().out
    np.savez(tmp_path / "oob.npz", arg0=np.arange(35, dtype=np.float32).reshape(7, 5), arg1=np.int32([0, 3, 9, -2, 6]))
    oob = [str(path), "--oracles", "numeric,crash", "--inputs", str(tmp_path / "oob.npz")]
    assert run_check(oob) == 2  # out-of-bounds indices are undefined: nothing judged, not clean
    out, err = capsys.readouterr()
    assert "numbers not judged: op iree_linalg_ext.gather reads out of bounds" in out and "nothing judged in" in err


@pytest.mark.iree
def test_an_op_the_interpreter_refuses_shows_not_judged_and_no_finding(tmp_path, capsys):
    path = tmp_path / "ctlz.mlir"
    path.write_text(REFUSED)
    assert run_check([str(path), "--oracles", "numeric,crash"]) == 0
    assert "@main: numbers not judged: op math.ctlz" in capsys.readouterr().out
    assert run_check([str(path), "--oracles", "numeric,crash", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["functions"][0]["not_judged"] == ["op math.ctlz"]


@pytest.mark.iree
def test_i64_bf16_f64_i16_argument_programs_run_and_agree(tmp_path):
    text = "\n".join(column_sum(t).replace("@main", f"@sum_{t}") for t in ("i64", "bf16", "f64", "i16"))
    results = check.check_results(text, policy=Policy(oracles=frozenset({"numeric", "crash"})))
    assert [r.case.function for r in results] == ["sum_i64", "sum_bf16", "sum_f64", "sum_i16"]
    assert all(r.findings == () and r.not_judged == () for r in results), [r.findings for r in results]


@pytest.mark.iree
def test_a_wrong_interpreter_is_caught_end_to_end(monkeypatch):
    real = frontends.reference_outputs

    def wrong(*args):
        got = real(*args)
        return type(got)([y * 2 for y in got.outputs], got.longest_reduction, got.depth)

    policy = Policy(oracles=frozenset({"numeric"}))
    assert check.check_program(column_sum("f32"), policy=policy) == []
    monkeypatch.setattr(frontends, "reference_outputs", wrong)
    (f,) = check.check_program(column_sum("f32"), policy=policy)
    assert f.signature.startswith("numeric/wrong-value/")


@pytest.mark.iree
def test_the_reducer_keeps_a_numeric_finding():
    from ireefuzz.tools.shrink.mlir import reduce_mlir

    result = reduce_mlir(FILL_SUM, "numeric/wrong-value/main/i32/scalar", max_candidates=20)
    assert result.signature == "numeric/wrong-value/main/i32/scalar" and result.after <= result.before


@pytest.mark.iree
def test_plugin_mlir_items_judge_numbers_with_the_interpreter(pytester: pytest.Pytester):
    """No expected outputs: the fill-sum miscompile fails with a full bundle, a clean program passes, and an
    op the interpreter refuses passes with "not judged" in the output."""
    kernels = pytester.mkdir("kernels")
    for name, text in (("fill_sum", FILL_SUM), ("column_sum", column_sum("f32")), ("ctlz", REFUSED)):
        (kernels / f"{name}.mlir").write_text(text)
        (kernels / f"{name}.inputs.json").write_text("{}")  # run it; no expected outputs
    result = pytester.runpytest_subprocess(
        "--ireefuzz-mlir",
        f"--ireefuzz-bundles={pytester.path / 'b'}",
        "-v",
        "--ireefuzz-oracles=numeric,crash",
        timeout=600,
    )
    result.assert_outcomes(passed=2, failed=1, warnings=1)
    out = result.stdout.str()
    assert "kernels/column_sum.mlir::column_sum.mlir PASSED" in out
    assert "numeric/wrong-value/main/i32/scalar" in out and "IREE 2, interpreter 4" in out
    assert "NotJudgedWarning" in out and "@main: numbers not judged: op math.ctlz" in out
    (bundle,) = {p.parent for p in (pytester.path / "b").rglob("finding.json")}
    assert {"expected.npz", "run.sh", "ISSUE.md", "program.mlir", "case.json"} <= {p.name for p in bundle.iterdir()}
    with np.load(bundle / "expected.npz") as npz:
        assert npz["ref_0"] == 4
