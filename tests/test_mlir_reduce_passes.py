"""The reducer's passes that drop a cast, a dtype or an operand nothing reads (ireefuzz.tools.shrink.mlir), and the
``size_key`` order that lets the loop take them.

Each pass is looked up by its name in ``PASSES`` (unregistered, its tests fail), shown on a small program to propose
the expected candidate (and none where it must not), then taken by ``reduce_mlir`` under a fake test. The last test
reduces the pooling reproducer with the real compiler.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from ireefuzz.oracles.finding import Finding
from ireefuzz.tools.shrink import mlir as M

REPROS = Path(__file__).parents[1] / "docs" / "repros"

POOL = """func.func @main(%arg0: tensor<?x3x3x3xf16>, %arg1: tensor<2x2xf16>) -> tensor<?x1x1x3xf16> {
  %c0 = arith.constant 0 : index
  %d = tensor.dim %arg0, %c0 : tensor<?x3x3x3xf16>
  %e = tensor.empty(%d) : tensor<?x1x1x3xf16>
  %ninf = arith.constant 0xFC00 : f16
  %f = linalg.fill ins(%ninf : f16) outs(%e : tensor<?x1x1x3xf16>) -> tensor<?x1x1x3xf16>
  %p = linalg.pooling_nhwc_max ins(%arg0, %arg1 : tensor<?x3x3x3xf16>, tensor<2x2xf16>) \
outs(%f : tensor<?x1x1x3xf16>) -> tensor<?x1x1x3xf16>
  return %p : tensor<?x1x1x3xf16>
}"""

CAST = """func.func @inner(%a: tensor<2x1xi32>) -> tensor<2x?xi32> {
  %s = arith.addi %a, %a : tensor<2x1xi32>
  %c = tensor.cast %s : tensor<2x1xi32> to tensor<2x?xi32>
  return %c : tensor<2x?xi32>
}
func.func @main(%a: tensor<2x1xi32>) -> tensor<2x?xi32> {
  %r = call @inner(%a) : (tensor<2x1xi32>) -> tensor<2x?xi32>
  return %r : tensor<2x?xi32>
}"""

HALF = """func.func @main(%a: tensor<4xf16>) -> (tensor<4xf32>, tensor<2xf16>) {
  %w = arith.extf %a : tensor<4xf16> to tensor<4xf32>
  %c = arith.constant dense<[1.5, 0xFC00]> : tensor<2xf16>
  return %w, %c : tensor<4xf32>, tensor<2xf16>
}"""


def proposed(name: str, text: str) -> list[str]:
    """The candidates pass ``name`` of ``PASSES`` proposes for ``text``."""
    return list(dict(M.PASSES)[name](text))


def _finding() -> Finding:
    return Finding(
        oracle="crash", kind="compile-error", signature="crash/compile-error/x/-/-", message="m", evidence={}
    )


def reduced(text: str, holds, names: tuple[str, ...] = ()) -> str:
    """``text`` reduced while ``holds(program)``, by the passes ``names`` (all of ``PASSES`` if none)."""
    passes = [p for p in M.PASSES if p[0] in names] if names else M.PASSES
    assert len(passes) == (len(names) or len(M.PASSES)), "a pass named here is not registered"
    fake = lambda t: (_finding(),) if holds(t) else ()
    return M.reduce_mlir(text, interesting=fake, passes=passes, max_candidates=400).text


# --------------------------------------------------------------------------- widen-float-types, narrow-integer-types


def test_widen_float_types_proposes_the_program_in_f32_with_the_same_constants():
    (candidate,) = proposed("widen-float-types", POOL)
    assert "f16" not in candidate and "tensor<2x2xf32>" in candidate
    assert "arith.constant 0xFF800000 : f32" in candidate  # f16 -inf is f32 -inf, not the f32 whose bits are 0xFC00
    (out,) = proposed("widen-float-types", HALF)
    assert "arith.extf" not in out  # an f32 -> f32 extf does not verify: it goes
    assert "dense<[1.500000e+00, 0xFF800000]> : tensor<2xf32>" in out
    assert proposed("widen-float-types", out) == []  # nothing left to widen


def test_widen_float_types_proposes_nothing_whose_values_it_cannot_keep():
    """NumPy reads no bf16 array: a non-splat bf16 constant cannot be converted, so no candidate (a splat can)."""
    bf16 = HALF.replace("f16", "bf16").replace("0xFC00", "2.0")
    assert proposed("widen-float-types", bf16) == []
    (out,) = proposed("widen-float-types", bf16.replace("[1.5, 2.0]", "2.0"))
    assert "bf16" not in out and "dense<2.000000e+00> : tensor<2xf32>" in out


def test_narrow_integer_types_keeps_i64_attributes_and_values_that_do_not_fit():
    i64 = """func.func @main(%a: tensor<1x4x1x1xi64>, %w: tensor<3x1x1xi64>) -> tensor<1x1x1x1xi64> {
  %c = arith.constant dense<7> : tensor<1x1x1x1xi64>
  %r = linalg.depthwise_conv_2d_nhwc_hwc {strides = dense<2> : tensor<2xi64>} ins(%a, %w : tensor<1x4x1x1xi64>, \
tensor<3x1x1xi64>) outs(%c : tensor<1x1x1x1xi64>) -> tensor<1x1x1x1xi64>
  return %r : tensor<1x1x1x1xi64>
}"""
    (out,) = proposed("narrow-integer-types", i64)
    assert "strides = dense<2> : tensor<2xi64>" in out and "dense<7> : tensor<1x1x1x1xi32>" in out
    assert "tensor<1x4x1x1xi32>" in out and M.size_key(out) < M.size_key(i64)
    assert proposed("narrow-integer-types", i64.replace("dense<7>", "dense<4294967296>")) == []


def test_a_dtype_change_is_smaller_and_the_loop_takes_it_where_the_bug_stays():
    assert M.size_key(proposed("widen-float-types", POOL)[0]) < M.size_key(POOL)
    out = reduced(POOL, lambda t: "linalg.pooling_nhwc_max" in t, ("widen-float-types",))
    assert "f16" not in out
    kept = reduced(POOL, lambda t: "linalg.pooling_nhwc_max" in t and "f16" in t, ("widen-float-types",))
    assert "xf16>" in kept  # a bug that needs half precision keeps it


# --------------------------------------------------------------------------- empty-shape-operands


def test_empty_shape_operands_makes_a_pooling_window_a_tensor_empty():
    (candidate,) = proposed("empty-shape-operands", POOL)
    assert "%arg1" not in candidate and "func.func @main(%arg0: tensor<?x3x3x3xf16>)" in candidate
    assert "tensor.empty() : tensor<2x2xf16>" in candidate
    assert M.undefined_values(candidate) is None  # the window's values are never read
    assert M.size_key(candidate) < M.size_key(POOL)


def test_empty_shape_operands_takes_an_overwritten_destination_and_leaves_a_read_operand():
    fill = """func.func @main(%a: tensor<4xf32>, %b: tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>) {
  %z = arith.constant 0.0 : f32
  %f = linalg.fill ins(%z : f32) outs(%b : tensor<4xf32>) -> tensor<4xf32>
  %e = tensor.empty() : tensor<4xf32>
  %c = linalg.copy ins(%a : tensor<4xf32>) outs(%e : tensor<4xf32>) -> tensor<4xf32>
  return %f, %c : tensor<4xf32>, tensor<4xf32>
}"""
    (candidate,) = proposed("empty-shape-operands", fill)  # %b: the fill writes it whole; %a: the copy reads it
    assert "func.func @main(%arg0: tensor<4xf32>)" in candidate and "outs(%arg0" not in candidate
    read_too = fill.replace("ins(%a : tensor<4xf32>)", "ins(%b : tensor<4xf32>)")  # %b read too, %a unused
    assert proposed("empty-shape-operands", read_too) == []
    assert proposed("empty-shape-operands", POOL.replace("tensor<2x2xf16>", "tensor<?x2xf16>")) == []  # no static type


def test_empty_shape_operands_leaves_a_called_function_alone():
    called = POOL + "\nfunc.func @g(%x: tensor<1x3x3x3xf16>, %w: tensor<2x2xf16>) -> tensor<?x1x1x3xf16> {\n"
    called += "  %c = tensor.cast %x : tensor<1x3x3x3xf16> to tensor<?x3x3x3xf16>\n"
    called += "  %r = call @main(%c, %w) : (tensor<?x3x3x3xf16>, tensor<2x2xf16>) -> tensor<?x1x1x3xf16>\n"
    called += "  return %r : tensor<?x1x1x3xf16>\n}"
    assert M.parse(called) is not None and proposed("empty-shape-operands", called) == []


def test_the_loop_takes_empty_shape_operands():
    out = reduced(POOL, lambda t: "linalg.pooling_nhwc_max" in t, ("empty-shape-operands",))
    assert "%arg1" not in out and "tensor.empty() : tensor<2x2xf16>" in out


# --------------------------------------------------------------------------- drop-casts


def test_drop_casts_returns_the_operand_and_retypes_the_function_and_its_callers():
    (candidate,) = proposed("drop-casts", CAST)
    assert "tensor.cast" not in candidate and "?" not in candidate
    assert "call @inner(%arg0) : (tensor<2x1xi32>) -> tensor<2x1xi32>" in candidate
    assert candidate.count("-> tensor<2x1xi32> {") == 2  # @inner and @main, which returns the call's result
    out = reduced(CAST, lambda t: "arith.addi" in t, ("drop-casts",))
    assert "tensor.cast" not in out


def test_drop_casts_proposes_nothing_a_use_cannot_take():
    used = """func.func @main(%a: tensor<4xf32>, %b: tensor<?xf32>) -> tensor<?xf32> {
  %c = tensor.cast %a : tensor<4xf32> to tensor<?xf32>
  %s = arith.addf %c, %b : tensor<?xf32>
  return %s : tensor<?xf32>
}"""
    assert proposed("drop-casts", used) == []  # an addf of a 4xf32 and a ?xf32 does not verify


# --------------------------------------------------------------------------- size_key


def test_size_key_ranks_static_below_dynamic_an_empty_below_an_argument_and_a_constant_as_a_leaf():
    dynamic = "func.func @main(%a: tensor<?x?xi32>) -> tensor<?x?xi32> {\n  return %a : tensor<?x?xi32>\n}"
    assert M.size_key(dynamic.replace("?x?", "8x8")) < M.size_key(dynamic)  # make-dims-static is a step down
    constant = """func.func @main() -> tensor<2xi32> {
  %c = arith.constant dense<1> : tensor<2xi32>
  %s = arith.addi %c, %c : tensor<2xi32>
  return %s : tensor<2xi32>
}"""
    as_argument = [c for c in M.drop_ops(constant) if "arith.addi" in c]
    assert as_argument and not M.size_key(as_argument[0]) < M.size_key(constant)  # a constant is no bigger


def test_the_full_pipeline_reduces_the_pooling_program_to_f32_with_an_empty_window():
    """The maintainer's review: f16 where f32 fails the same way, and a window operand whose values are never read."""
    needs = ("linalg.pooling_nhwc_max", "tensor<?x3x3x3x", "<2x2x", "0x")  # as the bug: a dynamic batch, -inf init
    out = reduced(POOL, lambda t: all(n in t for n in needs))
    assert "f16" not in out and "tensor.empty() : tensor<2x2xf32>" in out, out
    assert "0xFF800000 : f32" in out and M.undefined_values(out) is None


def test_the_full_pipeline_drops_the_gathers_cast_and_dynamic_dims():
    gather = (REPROS / "gather_of_gather_wrong_values.mlir").read_text()
    out = reduced(gather, lambda t: t.count("iree_linalg_ext.gather") == 2)
    assert "tensor.cast" not in out and "?" not in out, out


# --------------------------------------------------------------------------- the real compiler


@pytest.mark.iree
def test_the_pooling_reproducer_reduces_to_f32_with_an_empty_window_under_the_real_compiler():
    """``ireefuzz check``'s numeric finding on the f16 pooling reproducer (fold-unit-extent-dims) shows in f32 and
    with the window a ``tensor.empty``: both steps are taken, judged by compiling and running each candidate."""
    from ireefuzz.tools.shrink.target import Target

    text = (REPROS / "pooling_max_unit_output_wrong_values.mlir").read_text()
    target = Target.by_cause("numeric/wrong-value/pooling_nhwc_max", "numeric")
    passes = [p for p in M.PASSES if p[0] in ("empty-shape-operands", "widen-float-types")]
    result = M.reduce_mlir(text, target, passes=passes, run=True, max_candidates=10)
    assert result.steps == ("empty-shape-operands", "widen-float-types"), result.steps
    assert "f16" not in result.text and "tensor.empty() : tensor<2x2xf32>" in result.text
    assert "func.func @main(%arg0: tensor<?x3x3x3xf32>)" in result.text
    assert "arith.constant 0xFF800000 : f32" in result.text  # the init is still -inf


REVERSED_THEN_SUM = """#rev = affine_map<(d0, d1) -> (-d0 + 63, d1)>
#id = affine_map<(d0, d1) -> (d0, d1)>
#row = affine_map<(d0, d1) -> (d1)>
func.func @main(%a: tensor<64x1xf32>, %acc: tensor<1xf32>, %o: tensor<64x1xf32>) -> tensor<1xf32> {
  %r = linalg.generic {indexing_maps = [#rev, #id], iterator_types = ["parallel", "parallel"]}
      ins(%a : tensor<64x1xf32>) outs(%o : tensor<64x1xf32>) {
  ^bb0(%in: f32, %out: f32):
    linalg.yield %in : f32
  } -> tensor<64x1xf32>
  %s = linalg.generic {indexing_maps = [#id, #row], iterator_types = ["reduction", "parallel"]}
      ins(%r : tensor<64x1xf32>) outs(%acc : tensor<1xf32>) {
  ^bb0(%in: f32, %out: f32):
    %x = arith.addf %out, %in : f32
    linalg.yield %x : f32
  } -> tensor<1xf32>
  return %s : tensor<1xf32>
}
"""


def test_return_operands_drops_the_consumer_of_a_returned_value():
    """The review of the reversed-map tiling bundle: its reduction lived in another dispatch and was not needed; the
    reducer had no step that returns what the consumer reads."""
    (candidate,) = list(M.return_operands(REVERSED_THEN_SUM))
    assert "reduction" not in candidate and "-> tensor<64x1xf32>" in candidate, candidate
    assert "return %0 : tensor<64x1xf32>" in candidate, candidate
    assert ("return-operands", M.return_operands) in M.PASSES


MASKED_ATTENTION = """#q = affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d3)>
#k = affine_map<(d0, d1, d2, d3, d4) -> (d0, d4, d3)>
#v = affine_map<(d0, d1, d2, d3, d4) -> (d0, d4, d2)>
#s = affine_map<(d0, d1, d2, d3, d4) -> ()>
#m = affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d4)>
#o = affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2)>
func.func @main(%q: tensor<2x4x8xf32>, %k: tensor<2x4x8xf32>, %v: tensor<2x4x1xf32>) -> tensor<2x4x1xf32> {
  %e = tensor.empty() : tensor<2x4x4xf32>
  %z = arith.constant 0.0 : f32
  %mask = linalg.fill ins(%z : f32) outs(%e : tensor<2x4x4xf32>) -> tensor<2x4x4xf32>
  %scale = arith.constant 0.125 : f32
  %o = tensor.empty() : tensor<2x4x1xf32>
  %a = iree_linalg_ext.attention <indexing_maps = [#q, #k, #v, #s, #m, #o]>
      ins(%q, %k, %v, %scale, %mask : tensor<2x4x8xf32>, tensor<2x4x8xf32>, tensor<2x4x1xf32>, f32, tensor<2x4x4xf32>)
      outs(%o : tensor<2x4x1xf32>) {
  ^bb0(%x: f32):
    iree_linalg_ext.yield %x : f32
  } -> tensor<2x4x1xf32>
  return %a : tensor<2x4x1xf32>
}
"""


def test_drop_optional_inputs_drops_an_attentions_mask_and_what_fed_it():
    """The review: the masked contraction kept a causal-mask generic that its failure does not need."""
    printed = str(M.parse(MASKED_ATTENTION))
    (candidate,) = list(M.drop_optional_inputs(printed))
    assert "linalg.fill" not in candidate and "tensor<2x4x4xf32>" not in candidate, candidate
    assert "ins(%arg0, %arg1, %arg2, %cst" in candidate, candidate
    assert ("drop-optional-inputs", M.drop_optional_inputs) in M.PASSES


ARGMAX_VALUE_ONLY = """#id = affine_map<(d0, d1) -> (d0, d1)>
#row = affine_map<(d0, d1) -> (d0)>
func.func @main(%x: tensor<2x4xf32>, %m: tensor<2xf32>, %i: tensor<2xi32>) -> tensor<2xf32> {
  %r:2 = linalg.generic {indexing_maps = [#id, #row, #row], iterator_types = ["parallel", "reduction"]}
      ins(%x : tensor<2x4xf32>) outs(%m, %i : tensor<2xf32>, tensor<2xi32>) {
  ^bb0(%in: f32, %out: f32, %idx: i32):
    %j = linalg.index 1 : index
    %jj = arith.index_cast %j : index to i32
    %gt = arith.cmpf ogt, %in, %out : f32
    %tie = arith.cmpi slt, %jj, %idx : i32
    %take = arith.ori %gt, %tie : i1
    %v = arith.select %take, %in, %out : f32
    %w = arith.select %take, %jj, %idx : i32
    linalg.yield %v, %w : f32, i32
  } -> (tensor<2xf32>, tensor<2xi32>)
  return %r#0 : tensor<2xf32>
}
"""


def test_drop_unused_results_drops_an_argmaxs_unused_index():
    """The review of the 23665 bundle: its argmax kept an index result nothing used."""
    (candidate,) = list(M.drop_unused_results(ARGMAX_VALUE_ONLY))
    assert "tensor<2xi32>" not in candidate.split("func.func @main")[1].split("{", 1)[1], candidate
    assert "linalg.yield %" in candidate and ": f32\n" in candidate and M.parse(candidate) is not None, candidate
    both = ARGMAX_VALUE_ONLY.replace("-> tensor<2xf32> {", "-> (tensor<2xf32>, tensor<2xi32>) {").replace(
        "return %r#0 : tensor<2xf32>", "return %r#0, %r#1 : tensor<2xf32>, tensor<2xi32>"
    )
    assert list(M.drop_unused_results(both)) == []
    function = ARGMAX_VALUE_ONLY[ARGMAX_VALUE_ONLY.index("func.func") :]
    twins = ARGMAX_VALUE_ONLY + function.replace("@main", "@twin")
    first, *singles = list(M.drop_unused_results(twins))
    assert first.count("-> (tensor<2xf32>, tensor<2xi32>)") == 0 and len(singles) == 2, first  # both at once first
    assert ("drop-unused-results", M.drop_unused_results) in M.PASSES
