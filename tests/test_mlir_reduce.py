"""IR-level reduction passes (ireefuzz.tools.shrink.mlir): each, alone, under a fake interestingness test.

No IREE compile: a program is "interesting" when a text predicate holds, so each test shows what one pass
removes and that it keeps what the bug needs.
"""

from __future__ import annotations

import dataclasses
import re

import pytest

from ireefuzz.oracles.finding import Finding
from ireefuzz.tools.shrink import mlir as M


def _finding() -> Finding:
    return Finding(
        oracle="crash", kind="compile-error", signature="crash/compile-error/x/-/-", message="m", evidence={}
    )


def reduce_with(text: str, name: str, holds) -> str:
    """Reduce ``text`` with the single pass ``name`` while ``holds(program)``."""
    (pass_,) = [p for p in M.PASSES if p[0] == name]
    result = M.reduce_mlir(
        text, interesting=lambda t: (_finding(),) if holds(t) else (), passes=[pass_], max_candidates=400
    )
    assert M.parse(result.text) is not None
    return result.text


CHAIN = """func.func @main(%a: tensor<8x4xf32>) -> tensor<8x4xf32> {
  %e = tensor.empty() : tensor<8x4xf32>
  %t = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, \
affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%a : tensor<8x4xf32>) \
outs(%e : tensor<8x4xf32>) {
  ^bb0(%x: f32, %o: f32):
    %y = math.tanh %x : f32
    linalg.yield %y : f32
  } -> tensor<8x4xf32>
  %s = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, \
affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%t : tensor<8x4xf32>) \
outs(%e : tensor<8x4xf32>) {
  ^bb0(%x: f32, %o: f32):
    %y = math.sqrt %x : f32
    linalg.yield %y : f32
  } -> tensor<8x4xf32>
  return %s : tensor<8x4xf32>
}"""


def test_bypass_ops_deletes_an_op_and_forwards_its_operand():
    out = reduce_with(CHAIN, "bypass-ops", lambda t: "math.sqrt" in t)
    assert "math.sqrt" in out and "math.tanh" not in out


def test_drop_ops_replaces_a_value_with_a_new_function_argument():
    out = reduce_with(CHAIN, "drop-ops", lambda t: "math.sqrt" in t)
    assert "math.tanh" not in out and "%arg1: tensor<8x4xf32>" in out  # the tanh's value is an argument now
    assert "tensor.empty" in out  # a destination never becomes an argument (``argument_destinations``)
    assert "%arg0" in out  # unused: the next pass drops it
    out = reduce_with(out, "drop-unused-arguments", lambda t: "math.sqrt" in t)
    assert re.search(r"func\.func @main\(%arg0: tensor<8x4xf32>\)", out)


def test_splat_constants_replace_a_value_with_a_constant():
    out = reduce_with(CHAIN, "splat-constants", lambda t: "math.sqrt" in t)
    assert "math.tanh" not in out and "dense<0.000000e+00> : tensor<8x4xf32>" in out


def test_make_dims_static_and_shrink_static_dims_toward_1_and_2():
    dynamic = CHAIN.replace("tensor<8x4xf32>", "tensor<?x4xf32>").replace(
        "%e = tensor.empty() : tensor<?x4xf32>",
        "%c0 = arith.constant 0 : index\n"
        "  %d = tensor.dim %a, %c0 : tensor<?x4xf32>\n"
        "  %e = tensor.empty(%d) : tensor<?x4xf32>",
    )
    assert M.parse(dynamic) is not None
    out = reduce_with(dynamic, "make-dims-static", lambda t: "math.sqrt" in t)
    assert "?" not in out and "tensor<1x4xf32>" in out and "tensor.dim" not in out  # the dim op is dead: dropped
    # shrinking keeps a size the bug needs (here: dim 0 must stay >= 2)
    out = reduce_with(CHAIN, "shrink-static-dims", lambda t: "math.sqrt" in t and not re.search(r"tensor<1x", t))
    assert "tensor<2x1xf32>" in out


def test_drop_function_results_and_attributes():
    two = CHAIN.replace("-> tensor<8x4xf32> {\n  %e", "-> (tensor<8x4xf32>, tensor<8x4xf32>) {\n  %e", 1).replace(
        "return %s : tensor<8x4xf32>", "return %t, %s : tensor<8x4xf32>, tensor<8x4xf32>"
    )
    out = reduce_with(two, "drop-function-results", lambda t: "math.sqrt" in t)
    assert "-> tensor<8x4xf32>" in out and re.search(r"return %\w+ : tensor<8x4xf32>", out)
    conv = """func.func @main(%p: tensor<1x4x1x1xf32>, %w: tensor<3x1x1xf32>, %f: tensor<1x1x1x1xf32>) -> \
tensor<1x1x1x1xf32> {
  %r = linalg.depthwise_conv_2d_nhwc_hwc {dilations = dense<1> : tensor<2xi64>, strides = dense<2> : \
tensor<2xi64>} ins(%p, %w : tensor<1x4x1x1xf32>, tensor<3x1x1xf32>) outs(%f : tensor<1x1x1x1xf32>) -> \
tensor<1x1x1x1xf32>
  return %r : tensor<1x1x1x1xf32>
}"""
    out = reduce_with(conv, "drop-attributes", lambda t: "strides" in t)
    assert "dilations" not in out and "strides" in out


def test_inline_producers_fuses_a_single_use_producer():
    out = reduce_with(CHAIN, "inline-producers", lambda t: "math.sqrt" in t and "math.tanh" in t)
    assert out.count("linalg.generic") == 1 and "math.tanh" in out and "math.sqrt" in out


TWO = """module {
func.func @f(%a: tensor<4xf32>) -> tensor<4xf32> {
  %y = math.tanh %a : tensor<4xf32>
  return %y : tensor<4xf32>
}
func.func @g(%a: tensor<4xf32>) -> tensor<4xf32> {
  %y = math.sqrt %a : tensor<4xf32>
  return %y : tensor<4xf32>
}
}"""


def test_split_functions_keeps_one_unless_the_bug_needs_both():
    out = reduce_with(TWO, "split-functions", lambda t: "math.sqrt" in t)
    assert "@g" in out and "@f" not in out
    out = reduce_with(TWO, "split-functions", lambda t: "math.sqrt" in t and "math.tanh" in t)
    assert "@g" in out and "@f" in out


def test_readable_names_say_what_each_value_is_and_keep_the_program():
    fill_sum = """func.func @main() -> tensor<i32> {
  %0 = tensor.empty() : tensor<2xi32>
  %c2 = arith.constant 2 : i32
  %1 = linalg.fill ins(%c2 : i32) outs(%0 : tensor<2xi32>) -> tensor<2xi32>
  %2 = tensor.empty() : tensor<i32>
  %c0 = arith.constant 0 : i32
  %3 = linalg.fill ins(%c0 : i32) outs(%2 : tensor<i32>) -> tensor<i32>
  %4 = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> ()>], \
iterator_types = ["reduction"]} ins(%1 : tensor<2xi32>) outs(%3 : tensor<i32>) {
  ^bb0(%in: i32, %out: i32):
    %5 = arith.addi %out, %in : i32
    linalg.yield %5 : i32
  } -> tensor<i32>
  return %4 : tensor<i32>
}"""
    out = M.readable(fill_sum)
    assert "%fill = linalg.fill" in out and "%reduced = linalg.generic" in out and "return %reduced" in out
    assert str(M.parse(out)) == str(M.parse(fill_sum))


def test_the_full_pipeline_reaches_a_small_program():
    out = M.reduce_mlir(
        TWO.replace("math.tanh %a", "math.tanh %a"), interesting=lambda t: (_finding(),) if "math.sqrt" in t else ()
    ).text
    assert "@f" not in out and "tensor<1xf32>" in out


@pytest.mark.parametrize("name", [n for n, _ in M.PASSES])
def test_every_pass_yields_only_programs_that_verify(name):
    fn = dict(M.PASSES)[name]
    for candidate in fn(CHAIN):
        assert M.parse(candidate) is not None


def test_readable_names_are_given_per_function():
    out = M.readable(
        TWO.replace(
            "%y = math.sqrt %a : tensor<4xf32>",
            "%e = tensor.empty() : tensor<4xf32>\n  %y = math.sqrt %a : tensor<4xf32>",
        )
    )
    g = out[out.index("@g(") :]
    assert "%empty = tensor.empty()" in g and "%sqrt = math.sqrt" in g  # not the names @f's values took
    assert "%tanh = math.tanh" in out[: out.index("@g(")]


# --------------------------------------------------------------------------- no step makes the program undefined

ACCUMULATE = """func.func @main(%a: tensor<8x4xf32>, %b: tensor<4x6xf32>) -> tensor<8x6xf32> {
  %z = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<8x6xf32>
  %f = linalg.fill ins(%z : f32) outs(%e : tensor<8x6xf32>) -> tensor<8x6xf32>
  %m = linalg.matmul ins(%a, %b : tensor<8x4xf32>, tensor<4x6xf32>) outs(%f : tensor<8x6xf32>) -> tensor<8x6xf32>
  %q = math.tanh %m : tensor<8x6xf32>
  return %q : tensor<8x6xf32>
}"""

EXTRACT = """func.func @main(%a: tensor<8xf32>) -> tensor<f32> {
  %c5 = arith.constant 5 : index
  %v = tensor.extract %a[%c5] : tensor<8xf32>
  %t = tensor.from_elements %v : tensor<f32>
  return %t : tensor<f32>
}"""


def _undefined(text: str) -> str | None:
    """What the interpreter says of ``text``'s values on check's inputs: why they are undefined, or None."""
    from ireefuzz.core.frontends import NotJudged, program_cases, reference_outputs

    for case in program_cases(text):
        reference = reference_outputs(text, case.function, case.inputs())
        if isinstance(reference, NotJudged) and reference.undefined:
            return reference.reason
    return None


def test_no_step_makes_a_defined_program_read_a_tensor_empty_nothing_wrote():
    """The fill is what the matmul accumulates into: bypassing it (the matmul then reads the bare tensor.empty)
    shows the same fake finding, but reads undefined values, so it is never taken."""
    assert _undefined(ACCUMULATE) is None
    out = reduce_with(ACCUMULATE, "bypass-ops", lambda t: "linalg.matmul" in t)
    assert "linalg.matmul" in out and "math.tanh" not in out and _undefined(out) is None
    bypassed = ACCUMULATE.replace(
        "outs(%f : tensor<8x6xf32>) -> tensor<8x6xf32>\n  %q", "outs(%e : tensor<8x6xf32>) -> tensor<8x6xf32>\n  %q"
    )
    assert "reads undefined values (%e = tensor.empty at line 3: never written" in (M.undefined_values(bypassed) or "")


def test_no_step_moves_an_index_out_of_bounds():
    out = reduce_with(EXTRACT, "shrink-static-dims", lambda t: "tensor.extract" in t)
    assert _undefined(out) is None and "tensor<6xf32>" in out  # 8 -> 6 at most: index 5 stays in bounds
    assert "out of bounds" in (M.undefined_values(EXTRACT.replace("8xf32", "4xf32")) or "")


def test_an_undefined_starting_program_is_still_reduced():
    undefined = ACCUMULATE.replace(
        "outs(%f : tensor<8x6xf32>) -> tensor<8x6xf32>\n  %q", "outs(%e : tensor<8x6xf32>) -> tensor<8x6xf32>\n  %q"
    )
    out = M.reduce_mlir(undefined, interesting=lambda t: (_finding(),) if "linalg.matmul" in t else ()).text
    assert "math.tanh" not in out and "linalg.matmul" in out


def test_undefinedness_is_judged_at_the_given_shapes_and_shapes_an_op_cannot_take_tell_nothing():
    """The gather-of-gather was bundled unreduced: at the default size of its dynamic dims (33) the interpreter's
    gather raised a ValueError (a 3x33 value into 3x1) that ended the reduction. Shapes the ops cannot take tell
    nothing (None, no exception); at the given shapes the program is judged, and defined."""
    from pathlib import Path

    gather = (Path(__file__).parents[1] / "docs" / "repros" / "gather_of_gather_wrong_values.mlir").read_text()
    assert M.undefined_values(gather) is None
    assert M.undefined_values(gather, [(2, 1), (3,), (3,)], seed=4) is None


def test_no_step_mixes_another_bug_into_the_repro():
    """The maintainer review: the argsort repro of #24735's stack error was reduced to sorting its argument in place
    (#24665 beside it): the copy's bypass kept the target and added a cause. A step that shows a cause the starting
    program did not is never taken."""
    other = Finding(
        oracle="immutability",
        kind="in-place-op-tied-to-argument",
        signature="immutability/in-place-op-tied-to-argument/sort/-/-",
        message="m",
        evidence={},
        cause="immutability/in-place-op-tied-to-argument",
    )

    def findings(t: str) -> tuple[Finding, ...]:
        target = (dataclasses.replace(_finding(), cause="crash/compile-error/x"),) if "math.sqrt" in t else ()
        return target + ((other,) if "math.tanh" not in t else ())  # dropping the tanh "writes an argument"

    reduced = M.reduce_mlir(TWO, interesting=findings).text
    assert "math.sqrt" in reduced and "math.tanh" in reduced
    assert "math.tanh" not in M.reduce_mlir(TWO, interesting=lambda t: findings(t)[:1]).text  # alone, it goes


def test_no_step_makes_a_function_argument_a_destination():
    """What a compile-only target never runs to see: the copy of the argument bypassed makes the sort write the
    caller's buffer in place. A candidate with one more argument as a destination is never taken."""
    copied = """func.func @main(%a: tensor<4xf32>) -> tensor<4xf32> {
  %e = tensor.empty() : tensor<4xf32>
  %c = linalg.copy ins(%a : tensor<4xf32>) outs(%e : tensor<4xf32>) -> tensor<4xf32>
  %y = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]}
      outs(%c : tensor<4xf32>) {
  ^bb0(%o: f32):
    %s = math.sqrt %o : f32
    linalg.yield %s : f32
  } -> tensor<4xf32>
  return %y : tensor<4xf32>
}"""
    assert (
        M.argument_destinations(copied) == 0 and M.argument_destinations(copied.replace("outs(%c", "outs(%arg0")) == 1
    )
    reduced = M.reduce_mlir(copied, interesting=lambda t: (_finding(),) if "math.sqrt" in t else ()).text
    assert M.argument_destinations(reduced) == 0, reduced
