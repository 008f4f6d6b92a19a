"""Causes by mechanism, not by wording: each rule merges what one upstream issue covers and keeps apart what
it does not. The diagnostics are IREE 3.13's own (trimmed from a 992-case quick-start run)."""

from __future__ import annotations

import pytest

from ireefuzz.oracles.cause import cause_of, compile_error_stage, dispatch_role
from ireefuzz.oracles.finding import Finding

CONFIGURED = "/tmp/x/configurations/configured_module_g6_dispatch_{}.mlir"
TRANSLATION = ":2:2: error: failed to run translation of source executable to target executable for backend\n"

# dispatch 1 (a sort) fails on its stack limit; dispatch 5 (a softmax) fails on workgroup distribution
TWO_DISPATCHES = (
    CONFIGURED.format(1) + ":8:6: error: 'func.func' op exceeded stack allocation limit of 32768 bytes for function. "
    "Got 1152921504606846848 bytes\n"
    "      func.func @g6_dispatch_1_sort_DxDxf16_dispatch_tensor_store() attributes {translation_info = x} {\n"
    + CONFIGURED.format(1)
    + TRANSLATION
    + CONFIGURED.format(5)
    + ":71:8: error: 'linalg.generic' op write affecting operations on global resources are "
    "restricted to workgroup distributed contexts.\n"
    + CONFIGURED.format(5)
    + ":8:6: error: 'func.func' op failed on workgroup distribution verification\n"
    "      func.func @g6_dispatch_5_softmax_DxDxf16_dispatch_tensor_store() {\n" + CONFIGURED.format(5) + TRANSLATION
)
OVERFLOW = (
    CONFIGURED.format(1) + ":35:8: error: 'memref.alloca' op stack allocation size overflows 64 bits\n"
    "        %21:2 = iree_linalg_ext.sort {lowering_config = #iree_cpu.lowering_config<x>} "
    "dimension(1) outs(%19, %20)\n" + CONFIGURED.format(1) + TRANSLATION
)
WRITE_AFFECTING = (
    CONFIGURED.format(0) + ":38:8: error: 'linalg.generic' op write affecting operations on global resources are "
    "restricted to workgroup distributed contexts.\n"
    "        %23 = linalg.generic {indexing_maps = []} ins(%20, %21) outs(%22)\n"
    + CONFIGURED.format(0)
    + ":8:6: error: 'func.func' op failed on workgroup distribution verification\n"
    + CONFIGURED.format(0)
    + TRANSLATION
)
LINK = (
    "iree-lld: error: undefined symbol: fmaxf\n>>> referenced by configured_module_g13_dispatch_0.mlir:20\n"
    "/tmp/x/input.mlir:1:1: error: failed to link executable and generate target dylib (check above)\n"
    "/tmp/x/input.mlir:1:1: error: failed to serialize executable for target backend llvm-cpu\n"
)


def compile_error(diagnostic: str, ops: str = "-") -> Finding:
    return Finding(
        "crash", "compile-error", f"crash/compile-error/{ops}/f32/?", "compile error", {"diagnostic": diagnostic}
    )


def test_the_stage_comes_from_the_failing_dispatchs_own_diagnostics_not_another_dispatchs():
    assert compile_error_stage(TWO_DISPATCHES) == "codegen"  # was: workgroup-distribution-verification (dispatch 5's)
    assert compile_error_stage(WRITE_AFFECTING) == "workgroup-distribution-verification"  # its own context line


def test_an_unlocated_first_error_keeps_the_context_that_follows_it():
    assert compile_error_stage(LINK) == "link-executable-and-generate-target-dylib"


def test_both_wordings_of_a_sorts_stack_limit_are_one_cause_named_by_the_dispatch():
    exceeded, overflow = cause_of(compile_error(TWO_DISPATCHES)), cause_of(compile_error(OVERFLOW))
    assert exceeded.id == overflow.id == "crash/compile-error/stack-allocation-over-limit[in-place]@codegen"
    assert cause_of(compile_error(WRITE_AFFECTING)).id != exceeded.id


def test_an_unbounded_stack_allocation_of_a_sort_is_the_same_cause():
    unbounded = (
        CONFIGURED.format(1) + ":20:10: error: 'memref.alloca' op expected no unbounded stack allocations\n"
        "      func.func @main_dispatch_1_sort_Dxf32_dispatch_tensor_store() {\n"
    )
    assert cause_of(compile_error(unbounded)).id == cause_of(compile_error(OVERFLOW)).id


def test_a_topks_stack_limit_is_the_sorts_cause_in_place_scratch():
    topk = TWO_DISPATCHES.replace("g6_dispatch_1_sort_DxDxf16_dispatch_tensor_store", "g6_dispatch_1_topk_DxDxf16")
    assert cause_of(compile_error(topk)).id == cause_of(compile_error(TWO_DISPATCHES)).id


def test_the_write_affecting_error_is_one_cause_whichever_op_iree_names():
    vector_store = WRITE_AFFECTING.replace("'linalg.generic' op write", "'vector.store' op write")
    assert cause_of(compile_error(vector_store)).id == cause_of(compile_error(WRITE_AFFECTING)).id


def test_elementwise_ops_after_a_sum_over_a_splat_share_the_fill_sum_cause():
    graph = {
        "args": [{"dtype": "f16", "shape": [4]}],
        "nodes": [
            {"op": "fill", "inputs": [], "attrs": {}},
            {"op": "layer_norm", "inputs": ["n0"], "attrs": {}},
            {"op": "add", "inputs": ["n1", "a0"], "attrs": {}},
        ],
        "outputs": ["n2"],
    }
    wrong = Finding(
        "numeric",
        "wrong-value",
        "numeric/wrong-value/fill>layer_norm>add/f16/?",
        "wrong",
        {"output": 0},
        case={"graph": graph},
    )
    assert cause_of(wrong).id == "numeric/wrong-value/fill>reduce_sum"


def test_a_contractions_stack_limit_is_another_cause_than_a_sorts():
    matmul = TWO_DISPATCHES.replace(
        "g6_dispatch_1_sort_DxDxf16_dispatch_tensor_store", "g6_dispatch_1_matmul_like_DxDxD_f32"
    )
    assert cause_of(compile_error(matmul)).id == "crash/compile-error/stack-allocation-over-limit[contraction]@codegen"


def test_a_metamorphic_variant_that_fails_to_compile_takes_the_crash_cause_of_its_whole_diagnostic():
    variant = Finding(
        "metamorphic",
        "variant-failed",
        "metamorphic/variant-failed/conv[shape:dynamic]/f32/S",
        "m",
        {"relation": "shape", "variant": "dynamic", "failure": "compile error: " + WRITE_AFFECTING},
    )
    assert cause_of(variant).id == cause_of(compile_error(WRITE_AFFECTING)).id
    truncated = dict(variant.evidence, failure="compile error: " + WRITE_AFFECTING[:300])  # what was kept before
    assert (
        cause_of(Finding("metamorphic", "variant-failed", variant.signature, "m", truncated)).id != cause_of(variant).id
    )


def test_dispatch_roles_follow_iree_naming_including_the_like_forms():
    assert {
        dispatch_role(n)
        for n in (
            "g8_dispatch_0_matmul_like_65x65x16_f32",
            "main_dispatch_0_matvec_like_Dx16_f32",
            "main_dispatch_0_vecmat_like_16xD_f32",
            "d_dispatch_3_batch_matmul_like_2x3x4x5_f32",
            "main_dispatch_1_contract_4x5_f32",
        )
    } == {"contraction"}
    assert dispatch_role("main_dispatch_0_reduction_DxD_i32") == "reduction"


def memory_copy(dispatch: str, graph: dict | None) -> Finding:
    return Finding(
        "memory",
        "copy",
        "memory/copy/x/i32/?",
        "1 copy",
        {"dispatch": dispatch, "pipeline": "DoubleTilingExpert"},
        case={"graph": graph} if graph else None,
    )


FILL_INTO_ARGUMENT = {
    "args": [{"dtype": "i32", "shape": [4, 4]}, {"dtype": "i32", "shape": [4]}],
    "nodes": [
        {"op": "fill", "inputs": [], "attrs": {"init": "value:a1"}},
        {"op": "reduce_max", "inputs": ["a0"], "attrs": {"dim": 1, "init": "value:n0"}},
    ],
    "outputs": ["n1"],
}
REDUCTION_INTO_ARGUMENT = {
    "args": FILL_INTO_ARGUMENT["args"],  # the reduction fills its argument init itself
    "nodes": [{"op": "reduce_max", "inputs": ["a0"], "attrs": {"dim": 1, "init": "value:a1"}}],
    "outputs": ["n0"],
}


def test_a_copy_when_an_outs_is_an_argument_is_one_cause_whatever_op_writes_it():
    reduction = cause_of(memory_copy("g3_dispatch_0_reduction_DxD_i32", FILL_INTO_ARGUMENT))
    contraction = cause_of(memory_copy("g3_dispatch_0_matmul_like_DxD_f32", FILL_INTO_ARGUMENT))
    own_fill = cause_of(memory_copy("g3_dispatch_0_reduction_DxD_i32", REDUCTION_INTO_ARGUMENT))
    assert reduction.id == contraction.id == own_fill.id == "memory/copy/outs-is-argument@DoubleTilingExpert"


def test_a_copy_without_an_argument_outs_keeps_its_dispatch_role():
    fresh = dict(
        FILL_INTO_ARGUMENT,
        nodes=[dict(FILL_INTO_ARGUMENT["nodes"][0], attrs={"init": "empty"}), FILL_INTO_ARGUMENT["nodes"][1]],
    )
    assert (
        cause_of(memory_copy("g3_dispatch_0_reduction_DxD_i32", fresh)).id == "memory/copy/reduction@DoubleTilingExpert"
    )


# --------------------------------------------------------------------------- immutability: what IREE did

FLOW = """
  util.func public @g0(%arg0: !hal.buffer_view) -> !hal.buffer_view {
    %0 = hal.tensor.import %arg0 "input0" : !hal.buffer_view -> tensor<8xf32>
    %1 = flow.dispatch @g0_dispatch_0::@g0_dispatch_0_sort_8xf32_dispatch_tensor_store(%0) : (tensor<8xf32>) -> %0
    %2 = hal.tensor.export %1 "output0" : tensor<8xf32> -> !hal.buffer_view
    util.return %2 : !hal.buffer_view
  }
  util.func public @g1(%arg0: !hal.buffer_view, %arg1: !hal.buffer_view) -> !hal.buffer_view {
    %0 = hal.tensor.import %arg0 "input0" : !hal.buffer_view -> tensor<4x4xf32>
    %1 = hal.tensor.import %arg1 "input1" : !hal.buffer_view -> tensor<16xf32>
    %2 = flow.tensor.reshape %1 : tensor<16xf32> -> tensor<4x4xf32>
    %3 = flow.dispatch @g1_dispatch_0::@g1_dispatch_0_matmul_like_4x4x4_f32(%0, %2) : (tensor<4x4xf32>, \
tensor<4x4xf32>) -> %2
    %4 = flow.dispatch @g1_dispatch_1::@g1_dispatch_1_elementwise_4x4_f32(%3) : (tensor<4x4xf32>) -> tensor<4x4xf32>
    %5 = hal.tensor.export %4 "output0" : tensor<4x4xf32> -> !hal.buffer_view
    util.return %5 : !hal.buffer_view
  }
"""


def test_tied_arguments_read_the_flow_ties_through_reshapes_per_function():
    from ireefuzz.oracles.immutability import tied_arguments

    assert tied_arguments(FLOW, "g0") == {0: ["g0_dispatch_0_sort_8xf32_dispatch_tensor_store"]}
    assert tied_arguments(FLOW, "g1") == {1: ["g1_dispatch_0_matmul_like_4x4x4_f32"]}
    assert tied_arguments(FLOW, "g2") is None


def mutation(ops: list[str], tied_to: list[str] | None) -> Finding:
    evidence = {"argument": 0, "ops": ops} | ({"tied_to": tied_to} if tied_to is not None else {})
    return Finding(
        "immutability", "input-mutated", "immutability/input-mutated/sort/f32/S", "argument 0 was modified", evidence
    )


def test_a_sort_of_an_arguments_copy_tied_by_iree_is_the_known_in_place_mechanism_whatever_the_syntax():
    assert cause_of(mutation(["sort"], ["g0_dispatch_0_sort_8xf32"])).id == "immutability/dps-init-written-in-place"


def test_a_mutation_with_no_tie_is_another_cause_even_when_the_syntax_names_a_destination():
    assert cause_of(mutation(["reduce_sum[outs]"], [])).id == "immutability/read-only-argument-written"


@pytest.mark.iree
def test_a_real_accumulator_argument_is_attributed_to_the_dispatch_iree_tied_to_it():
    from ireefuzz.core.evaluate import evaluate
    from ireefuzz.generators.builder import GraphBuilder
    from ireefuzz.generators.case import Case

    b = GraphBuilder()
    x, w, acc = b.arg(("M", 16), "f32"), b.arg((16, "N"), "f32"), b.arg(("M", "N"), "f32")
    b.output(b.matmul(x, w, acc))
    (finding,) = [f for f in evaluate([Case(b.build(), ({"M": 5, "N": 7},))])[0].findings if f.oracle == "immutability"]
    assert [name.split("_dispatch_")[1].split("_")[1] for name in finding.evidence["tied_to"]] == ["matmul"]
    assert finding.cause == "immutability/dps-init-written-in-place"


# --------------------------------------------------------------------------- the failing pass names the stage


def test_the_failing_pass_of_the_failing_dispatch_is_the_stage():
    with_passes = (
        TWO_DISPATCHES + "failing pass: iree-llvmcpu-check-ir-before-llvm-conversion (g6_dispatch_1_sort_DxDxf16"
        "_dispatch_tensor_store)\nfailing pass: iree-codegen-verify-workgroup-distribution "
        "(g6_dispatch_5_softmax_DxDxf16_dispatch_tensor_store)\n"
    )
    assert compile_error_stage(with_passes) == "iree-llvmcpu-check-ir-before-llvm-conversion"
    assert (
        compile_error_stage(
            WRITE_AFFECTING + "failing pass: iree-codegen-verify-workgroup-distribution "
            "(g6_dispatch_0_conv_3x7x5xDx2x2_f32)\n"
        )
        == "iree-codegen-verify-workgroup-distribution"
    )
    module_level = (
        "/tmp/x/input.mlir:5:8: error: 'linalg.generic' op inferred input/output operand #1 has shape's "
        "dimension #0 to be 4, but found 3\nfailing pass: iree-dispatch-creation-fold-unit-extent-dims (module)\n"
    )
    assert compile_error_stage(module_level) == "iree-dispatch-creation-fold-unit-extent-dims"


def test_without_a_failing_pass_line_the_stage_is_the_context_error_as_before():
    assert compile_error_stage(WRITE_AFFECTING) == "workgroup-distribution-verification"


@pytest.mark.iree
@pytest.mark.parametrize(
    "program, culprit",
    [
        ("corpus/seeds/reduce_sum_outs_is_argument/program.mlir", "iree-codegen-verify-workgroup-distribution"),
        (
            "docs/repros/conv_unit_output_stride_compile_error.mlir",
            "iree-dispatch-creation-fold-unit-extent-dims",
        ),
        ("docs/repros/sort_1d_dynamic_unbounded_stack.mlir", "iree-llvmcpu-check-ir-before-llvm-conversion"),
    ],
)
def test_real_compile_errors_name_the_pass_that_failed(program, culprit):
    from pathlib import Path

    from ireefuzz import sut

    failure = sut.compile_mlir((Path(__file__).parents[1] / program).read_text(), sut.CompilerConfig())
    assert isinstance(failure, sut.CompileFailure)
    assert compile_error_stage(failure.diagnostic) == culprit
