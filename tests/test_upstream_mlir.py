"""The upstream MLIR test (``upstream_mlir.twin``, ``lit_tests.upstream_test``): the culprit's IR cut to upstream
dialects under the upstream stand-in of IREE's pass. The review: fill-sum, fold-unit-dims, the masked contract and the
reversed-map tiling were filed against IREE's wrapper passes with no upstream reproducer, though each reproduces
with upstream passes alone. Recorded IR: the shipped test bundles' culprit dumps (IREE 3.13)."""

import json
import re
from pathlib import Path

import pytest

from ireefuzz.tools.filing import lit_tests as lt
from ireefuzz.tools.filing import upstream_mlir
from ireefuzz.tools.filing.culprit import Confirmation, Culprit

BUNDLES = Path(__file__).parent / "data" / "bundles"
FOLD = "iree-dispatch-creation-fold-unit-extent-dims"


def _dumps(name: str) -> tuple[str, str]:
    (folder,) = [p.parent for p in (BUNDLES / name).glob("*/culprit_before.mlir")]
    return (folder / "culprit_before.mlir").read_text(), (folder / "culprit_after.mlir").read_text()


def _invalid_ir(before: str, after: str) -> Culprit:
    confirm = Confirmation(f"builtin.module({FOLD})", ("error: 'linalg.generic' op inferred input/output ...",))
    return Culprit("dispatch-creation", FOLD, "verify after every pass", before, after, "invalid-ir", confirm)


def test_the_twin_holds_no_iree_dialect_and_runs_the_stand_in():
    made = upstream_mlir.twin(*_dumps("fold_unit_dims_invalid_ir"), FOLD)
    assert isinstance(made, upstream_mlir.Twin), made
    assert not re.search(r"\b(?:hal|flow|util|stream|iree_\w+)\.", made.text), made.text
    assert "linalg.generic" in made.text and "func.func @" in made.text, made.text
    assert made.args == ("--pass-pipeline=builtin.module(func.func(linalg-fold-unit-extent-dims))",)
    assert upstream_mlir.command_line(made.args).endswith("='builtin.module(func.func(linalg-fold-unit-extent-dims))'")


def test_a_pass_with_no_stand_in_or_an_iree_payload_has_no_twin():
    before, after = _dumps("fold_unit_dims_invalid_ir")
    assert "no upstream stand-in" in str(upstream_mlir.twin(before, after, "iree-codegen-some-pass"))
    sort = before.replace("linalg.generic", "iree_linalg_ext.sort", 1)
    assert isinstance(upstream_mlir.twin(sort, after, FOLD), str)
    missing = lt.upstream_test(Culprit(None, None, "not localized"))
    assert isinstance(missing, str) and "not localized" in missing


def test_the_upstream_test_checks_the_correct_behaviour_and_says_where_to_file():
    made = lt.upstream_test(_invalid_ir(*_dumps("fold_unit_dims_invalid_ir")))
    assert isinstance(made, lt.LitTest), made
    assert made.run_lines == [
        "mlir-opt --pass-pipeline='builtin.module(func.func(linalg-fold-unit-extent-dims))' %s 2>&1 | FileCheck %s"
    ]
    assert [d[2] for d in made.directives()] == ["error:", "Stack dump:"]
    assert "llvm/llvm-project (`mlir:linalg`)" in made.purpose


# --------------------------------------------------------------------------- with the real tools


@pytest.fixture(scope="module")
def stock():
    from ireefuzz import sut

    return lt.stock_tools(sut.CompilerConfig())


@pytest.mark.iree
def test_real_fold_unit_dims_upstream_test_fails_with_the_verifier_error_and_a_fitting_conv_passes(tmp_path, stock):
    """The depthwise conv with a unit output, its input taller than one window: upstream linalg-fold-unit-extent-dims
    alone makes the invalid generic. The same conv with an input of exactly one window is folded validly: the
    test passes there, so it is not shipped for it."""
    before, after = _dumps("fold_unit_dims_invalid_ir")
    culprit = _invalid_ir(before, after)
    test = lt.upstream_test(culprit)
    assert isinstance(test, lt.LitTest), test
    (finding,) = (BUNDLES / "fold_unit_dims_invalid_ir").glob("*/finding.json")
    symptom = lt.Symptom.of_finding(json.loads(finding.read_text()))
    (verdict,) = lt.write(tmp_path, {lt.UPSTREAM_TEST: test}, symptom, stock)
    assert verdict.shipped and "mlir-opt: error: 'linalg.generic' op inferred" in verdict.why, verdict
    assert (tmp_path / lt.UPSTREAM_TEST).read_text() == test.text
    heights = re.findall(r"tensor<1x(\d+)x1x1xf32>", before)
    assert heights and heights[0] != "2", heights
    fitting = before.replace(f"tensor<1x{heights[0]}x1x1xf32>", "tensor<1x2x1x1xf32>")
    fitting = fitting.replace(f"1x{heights[0]}x1x1xf32>", "1x2x1x1xf32>")
    again = lt.upstream_test(_invalid_ir(fitting, after.replace(f"1x{heights[0]}x1x1xf32", "1x2x1x1xf32")))
    assert isinstance(again, lt.LitTest), again
    (clean,) = lt.write(tmp_path / "clean", {lt.UPSTREAM_TEST: again}, symptom, stock)
    assert clean.outcome == "passes-with-the-bug", clean


@pytest.mark.iree
def test_real_fill_sum_upstream_test_fails_on_the_folded_constant(tmp_path, stock):
    from ireefuzz import sut
    from ireefuzz.tools.filing import culprit

    program = (Path(__file__).parents[1] / "docs" / "repros" / "fill_then_sum_wrong_value.mlir").read_text()
    found = culprit.wrong_values(program, "main", [], sut.CompilerConfig(target_cpu="generic"))
    test = lt.upstream_test(found)
    assert isinstance(test, lt.LitTest), test
    assert "transform.structured.vectorize_children_and_apply_patterns" in test.text
    (verdict,) = lt.write(tmp_path, {lt.UPSTREAM_TEST: test}, lt.Symptom(values=True), stock)
    assert verdict.shipped and "dense<2>" in verdict.why, verdict
