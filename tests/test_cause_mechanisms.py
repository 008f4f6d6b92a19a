"""Causes by mechanism, not by wording: each rule merges what one upstream issue covers and keeps apart what
it does not. The diagnostics are IREE 3.13's own (trimmed from a 992-case quick-start run)."""
from __future__ import annotations

from ireefuzz.oracles.cause import cause_of, compile_error_stage, dispatch_role
from ireefuzz.oracles.finding import Finding

CONFIGURED = "/tmp/x/configurations/configured_module_g6_dispatch_{}.mlir"
TRANSLATION = ":2:2: error: failed to run translation of source executable to target executable for backend\n"

# dispatch 1 (a sort) fails on its stack limit; dispatch 5 (a softmax) fails on workgroup distribution
TWO_DISPATCHES = (
    CONFIGURED.format(1) + ":8:6: error: 'func.func' op exceeded stack allocation limit of 32768 bytes for function. "
    "Got 1152921504606846848 bytes\n"
    "      func.func @g6_dispatch_1_sort_DxDxf16_dispatch_tensor_store() attributes {translation_info = x} {\n"
    + CONFIGURED.format(1) + TRANSLATION
    + CONFIGURED.format(5) + ":71:8: error: 'linalg.generic' op write affecting operations on global resources are "
    "restricted to workgroup distributed contexts.\n"
    + CONFIGURED.format(5) + ":8:6: error: 'func.func' op failed on workgroup distribution verification\n"
    "      func.func @g6_dispatch_5_softmax_DxDxf16_dispatch_tensor_store() {\n"
    + CONFIGURED.format(5) + TRANSLATION)
OVERFLOW = (
    CONFIGURED.format(1) + ":35:8: error: 'memref.alloca' op stack allocation size overflows 64 bits\n"
    "        %21:2 = iree_linalg_ext.sort {lowering_config = #iree_cpu.lowering_config<x>} dimension(1) outs(%19, %20)\n"
    + CONFIGURED.format(1) + TRANSLATION)
WRITE_AFFECTING = (
    CONFIGURED.format(0) + ":38:8: error: 'linalg.generic' op write affecting operations on global resources are "
    "restricted to workgroup distributed contexts.\n"
    "        %23 = linalg.generic {indexing_maps = []} ins(%20, %21) outs(%22)\n"
    + CONFIGURED.format(0) + ":8:6: error: 'func.func' op failed on workgroup distribution verification\n"
    + CONFIGURED.format(0) + TRANSLATION)
LINK = ("iree-lld: error: undefined symbol: fmaxf\n>>> referenced by configured_module_g13_dispatch_0.mlir:20\n"
        "/tmp/x/input.mlir:1:1: error: failed to link executable and generate target dylib (check above)\n"
        "/tmp/x/input.mlir:1:1: error: failed to serialize executable for target backend llvm-cpu\n")


def compile_error(diagnostic: str, ops: str = "-") -> Finding:
    return Finding("crash", "compile-error", f"crash/compile-error/{ops}/f32/?", "compile error", {"diagnostic": diagnostic})


def test_the_stage_comes_from_the_failing_dispatchs_own_diagnostics_not_another_dispatchs():
    assert compile_error_stage(TWO_DISPATCHES) == "codegen"  # was: workgroup-distribution-verification (dispatch 5's)
    assert compile_error_stage(WRITE_AFFECTING) == "workgroup-distribution-verification"  # its own context line


def test_an_unlocated_first_error_keeps_the_context_that_follows_it():
    assert compile_error_stage(LINK) == "link-executable-and-generate-target-dylib"


def test_both_wordings_of_a_sorts_stack_limit_are_one_cause_named_by_the_dispatch():
    exceeded, overflow = cause_of(compile_error(TWO_DISPATCHES)), cause_of(compile_error(OVERFLOW))
    assert exceeded.id == overflow.id == "crash/compile-error/stack-allocation-over-limit[sort]@codegen"
    assert cause_of(compile_error(WRITE_AFFECTING)).id != exceeded.id


def test_a_contractions_stack_limit_is_another_cause_than_a_sorts():
    matmul = TWO_DISPATCHES.replace("g6_dispatch_1_sort_DxDxf16_dispatch_tensor_store", "g6_dispatch_1_matmul_like_DxDxD_f32")
    assert cause_of(compile_error(matmul)).id == "crash/compile-error/stack-allocation-over-limit[contraction]@codegen"


def test_a_metamorphic_variant_that_fails_to_compile_takes_the_crash_cause_of_its_whole_diagnostic():
    variant = Finding("metamorphic", "variant-failed", "metamorphic/variant-failed/conv[shape:dynamic]/f32/S", "m",
                      {"relation": "shape", "variant": "dynamic", "failure": "compile error: " + WRITE_AFFECTING})
    assert cause_of(variant).id == cause_of(compile_error(WRITE_AFFECTING)).id
    truncated = dict(variant.evidence, failure="compile error: " + WRITE_AFFECTING[:300])  # what was kept before
    assert cause_of(Finding("metamorphic", "variant-failed", variant.signature, "m", truncated)).id != cause_of(variant).id


def test_dispatch_roles_follow_iree_naming_including_the_like_forms():
    assert {dispatch_role(n) for n in ("g8_dispatch_0_matmul_like_65x65x16_f32", "main_dispatch_0_matvec_like_Dx16_f32",
                                       "main_dispatch_0_vecmat_like_16xD_f32", "d_dispatch_3_batch_matmul_like_2x3x4x5_f32",
                                       "main_dispatch_1_contract_4x5_f32")} == {"contraction"}
    assert dispatch_role("main_dispatch_0_reduction_DxD_i32") == "reduction"


def memory_copy(dispatch: str, graph: dict | None) -> Finding:
    return Finding("memory", "copy", "memory/copy/x/i32/?", "1 copy", {"dispatch": dispatch, "pipeline": "DoubleTilingExpert"},
                   case={"graph": graph} if graph else None)


FILL_INTO_ARGUMENT = {"args": [{"dtype": "i32", "shape": [4, 4]}, {"dtype": "i32", "shape": [4]}],
                      "nodes": [{"op": "fill", "inputs": [], "attrs": {"init": "value:a1"}},
                                {"op": "reduce_max", "inputs": ["a0"], "attrs": {"dim": 1, "init": "value:n0"}}],
                      "outputs": ["n1"]}


def test_a_copy_when_a_fill_writes_an_argument_is_one_cause_whatever_op_consumes_it():
    reduction = cause_of(memory_copy("g3_dispatch_0_reduction_DxD_i32", FILL_INTO_ARGUMENT))
    contraction = cause_of(memory_copy("g3_dispatch_0_matmul_like_DxD_f32", FILL_INTO_ARGUMENT))
    assert reduction.id == contraction.id == "memory/copy/fill-into-argument@DoubleTilingExpert"


def test_a_copy_without_a_fill_into_an_argument_keeps_its_dispatch_role():
    fresh = dict(FILL_INTO_ARGUMENT, nodes=[dict(FILL_INTO_ARGUMENT["nodes"][0], attrs={"init": "empty"}),
                                            FILL_INTO_ARGUMENT["nodes"][1]])
    assert cause_of(memory_copy("g3_dispatch_0_reduction_DxD_i32", fresh)).id == "memory/copy/reduction@DoubleTilingExpert"
