"""Causes by mechanism, not by wording: each rule merges what one upstream issue covers and keeps apart what
it does not. The diagnostics are IREE 3.13's own (trimmed from a 992-case quick-start run)."""

from __future__ import annotations

import dataclasses
import json
from pathlib import Path

import pytest

from ireefuzz.oracles import vocabulary
from ireefuzz.oracles.cause import assign_causes, cause_of, compile_error_stage, dispatch_role
from ireefuzz.oracles.finding import Finding
from ireefuzz.tools import baseline

ROOT = Path(__file__).parents[1]
SHIPPED = baseline.load(ROOT / "corpus" / "known_findings.json")
MUTATED, IN_PLACE = "immutability/dps-init-written-in-place", "immutability/in-place-op-tied-to-argument"


def recorded_case(case_index: int) -> list[Finding]:
    """The findings of one case of tests/data/findings/issue30-3.13.jsonl: real IREE 3.13 findings (znver3) of issue
    30's forms, each row's ``note`` says which; recorded by ireefuzz with platform evidence dropped, no cause."""
    rows = [json.loads(line) for line in (ROOT / "tests/data/findings/issue30-3.13.jsonl").read_text().splitlines()]
    return [Finding.from_json(r) for r in rows if r["case_index"] == case_index]


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
    sized = matmul.replace("Got 1152921504606846848 bytes", "Got 65536 bytes")  # a size a shape gives
    assert cause_of(compile_error(sized)).id == "crash/compile-error/stack-allocation-over-limit[contraction]@codegen"
    # 2^60 bytes: only a dynamic dim's index umax bound gives that (#24483), whatever the op
    assert cause_of(compile_error(matmul)).id == (
        "crash/compile-error/stack-allocation-over-limit[index-umax-bound]@codegen"
    )


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


def test_a_sort_of_an_arguments_copy_tied_by_iree_is_the_in_place_ops_cause_not_the_general_ties():
    """#24665 (open), not #16168 (closed): every dispatch IREE tied to the argument is an op that updates its outs in
    place. The recorded sort of a copy (docs/repros/sort_of_a_copy_...) is it, and the shipped baseline says so."""
    assert cause_of(mutation(["sort"], ["g0_dispatch_0_sort_8xf32"])).id == IN_PLACE
    assert cause_of(mutation(["topk"], ["g0_dispatch_0_topk_8xf32"])).id == IN_PLACE
    assert cause_of(mutation(["matmul[acc]"], ["g0_dispatch_0_matmul_like_4x4x4_f32"])).id == MUTATED
    assert cause_of(mutation([], ["g0_dispatch_0_sort_8xf32", "g0_dispatch_1_matmul_like_4x4x4_f32"])).id == MUTATED
    (recorded,) = recorded_case(11)
    assert recorded.evidence["tied_to"] == ["main_dispatch_0_sort_8xf32_dispatch_tensor_store"]
    assert cause_of(recorded).id == IN_PLACE
    assert SHIPPED.causes[IN_PLACE].link == "https://github.com/iree-org/iree/issues/24665"


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


def test_a_dispatchs_failing_pass_is_the_stage_not_the_module_pass_that_ran_its_pipeline():
    # const-eval's JIT compiled an initializer's dispatch: the error is located in the program, and the module pass
    # (iree-consteval-jit-globals) failed only because the dispatch's vectorization did (seed 61837, case 526)
    const_eval = (
        "/tmp/x/input.mlir:40:12: error: 'vector.contract' op expected at least one contracting dimension pair\n"
        "/tmp/x/input.mlir:37:10: error: failed to run translation of source executable to target executable\n"
        "failing pass: iree-consteval-jit-globals (module)\n"
        "failing pass: iree-codegen-generic-vectorization (jit_eval_0_dispatch_0_reduction_221x17_f32)\n"
    )
    assert compile_error_stage(const_eval) == "iree-codegen-generic-vectorization"


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


# --------------------------------------------------------------------------- copies: what they move decides

CONV_ALLOCA = "memory/alloca/contraction@ConvTileAndDecomposeExpert"


@pytest.mark.parametrize("case_index", [0, 1])  # a splat generic into tensor.empty; the same into an argument
def test_a_copy_into_and_out_of_a_reported_stack_buffer_is_that_allocas_cause(case_index):
    """Issue 30's first two "new" causes: the conv's 3 copies move a tile into and out of the 3 stack buffers the
    same case reports; they are the known alloca, not a cause of their own (nor "outs-is-argument")."""
    alloca, copy = recorded_case(case_index)
    assert (alloca.kind, copy.kind) == ("alloca", "copy") and alloca.evidence["dispatch"] == copy.evidence["dispatch"]
    assert {(m["source"], m["target"]) for m in copy.evidence["memory_ops"]} == {("alloca", "alloca")}
    linked = assign_causes([alloca, copy])
    assert [f.cause for f in linked] == [CONV_ALLOCA, CONV_ALLOCA] and CONV_ALLOCA in SHIPPED.causes
    assert linked[1].evidence["consequence_of"] == alloca.signature


def test_a_stack_to_stack_copy_is_never_outs_is_argument_whatever_the_program_writes():
    """The argument-init case's copies alone (no alloca reported): keyed by what they move, not by the graph's
    syntax (the splat is written into a function argument), so the same cause as the tensor.empty form's."""
    (_, into_argument), (_, into_empty) = recorded_case(1), recorded_case(0)
    assert any(str(n["attrs"].get("init", "")).startswith("value:a") for n in into_argument.case["graph"]["nodes"])
    assert cause_of(into_argument).id == cause_of(into_empty).id == "memory/copy/contraction@ConvTileAndDecomposeExpert"


def memory_ops(*ends: tuple[str, str]) -> list[dict]:
    return [{"op": "linalg.generic", "type": "memref<4xi32>", "source": s, "target": t} for s, t in ends]


def test_outs_is_argument_is_a_copy_of_an_input_binding_into_the_output_whatever_the_syntax():
    fresh = dict(
        FILL_INTO_ARGUMENT,
        nodes=[dict(FILL_INTO_ARGUMENT["nodes"][0], attrs={"init": "empty"}), FILL_INTO_ARGUMENT["nodes"][1]],
    )
    copies = lambda graph, *ends: dataclasses.replace(
        memory_copy("g3_dispatch_0_reduction_DxD_i32", graph),
        evidence={"dispatch": "g3_dispatch_0_reduction_DxD_i32", "pipeline": "DoubleTilingExpert"}
        | {"memory_ops": memory_ops(*ends)},
    )
    outs = "memory/copy/outs-is-argument@DoubleTilingExpert"
    assert cause_of(copies(fresh, ("read-only-binding", "binding"))).id == outs  # IREE's evidence, no syntax
    assert cause_of(copies(None, ("read-only-binding", "binding"), ("alloca", "binding"))).id == outs  # a raw program
    assert cause_of(copies(FILL_INTO_ARGUMENT, ("alloca", "alloca"))).id == "memory/copy/reduction@DoubleTilingExpert"
    assert cause_of(copies(FILL_INTO_ARGUMENT, ("binding", "binding"))).id == "memory/copy/reduction@DoubleTilingExpert"


def test_only_copies_that_all_touch_the_reported_buffer_follow_it():
    alloca, copy = recorded_case(0)
    between_bindings = dataclasses.replace(
        copy,
        evidence=dict(copy.evidence, memory_ops=memory_ops(("alloca", "alloca"), ("read-only-binding", "binding"))),
    )
    other_dispatch = dataclasses.replace(copy, evidence=dict(copy.evidence, dispatch="g0_dispatch_1_conv_3x16_f32"))
    for unlinked in (between_bindings, other_dispatch):
        (_, linked) = assign_causes([alloca, unlinked])
        assert linked.cause == cause_of(unlinked).id != CONV_ALLOCA and "consequence_of" not in linked.evidence
    old = dataclasses.replace(copy, evidence=dict(copy.evidence, memory_ops=[{"op": "linalg.generic", "type": "x"}]))
    assert assign_causes([alloca, old])[1].cause == cause_of(old).id  # a record that does not say what it moves


def test_a_static_softmax_copies_its_read_only_argument_through_the_stack_buffer_it_reports():
    """Issue 30's softmax whose outs is an argument, static: bufferization copies the read-only argument into a stack
    buffer and out again; both copies are that alloca's. (Its 1-D dynamic form fails on that buffer's unbounded size
    and its 2-D form with the write-affecting error: their diagnostics do not name the copy, see test below.)"""
    alloca, copy = recorded_case(4)
    assert [(m["source"], m["target"]) for m in copy.evidence["memory_ops"]] == [
        ("read-only-binding", "alloca"),
        ("alloca", "binding"),
    ]
    assert [f.cause for f in assign_causes([alloca, copy])] == ["memory/alloca/reduction@DoubleTilingExpert"] * 2


def test_the_dynamic_softmax_forms_diagnostics_do_not_name_the_copy_they_fail_on():
    """What the rank variant of the experiments engine must settle: the 1-D form's error quotes the softmax's last
    generic and an unbounded alloca, the 2-D form's the write-affecting check; neither names a binding or a copy."""
    (one_d,), (two_d,) = recorded_case(2), recorded_case(3)
    assert cause_of(one_d).id == "crash/compile-error/stack-allocation-over-limit[elementwise]@codegen"
    assert cause_of(two_d).id == (
        "crash/compile-error/write-affecting-operations-on-global-resources-are-restricted-to-workgroup-distributed-"
        "contexts@iree-codegen-verify-workgroup-distribution"
    )
    for f in (one_d, two_d):
        assert "binding" not in f.evidence["diagnostic"] and "copy" not in f.evidence["diagnostic"]


# --------------------------------------------------------------------------- a numeric cause is the op cone


FILL_SUM, POOLING = "numeric/wrong-value/fill>reduce_sum", "numeric/wrong-value/pooling_nhwc_max"


def test_a_raw_programs_wrong_value_is_keyed_by_its_op_cone_as_a_campaign_graphs():
    """The fill-sum as a row sum over a linalg.fill splat with no arguments (hoisted: no dispatch at all; signed
    ``main``), the filed 1-D bundle, and the campaign's regression graph: one cause. The pooling unit-output
    miscompile, raw or a graph, is another (the known one)."""
    (row_sum,), (bundle,), (graph,) = recorded_case(7), recorded_case(8), recorded_case(5)
    (raw_pooling,), (graph_pooling,) = recorded_case(9), recorded_case(6)
    assert row_sum.signature.split("/")[2] == bundle.signature.split("/")[2] == "main"  # the surface names a function
    assert cause_of(row_sum).id == cause_of(bundle).id == cause_of(graph).id == FILL_SUM
    assert cause_of(raw_pooling).id == cause_of(graph_pooling).id == POOLING != FILL_SUM
    assert {FILL_SUM, POOLING} <= set(SHIPPED.causes)


def test_a_numeric_cause_is_never_a_functions_name():
    (row_sum,) = recorded_case(7)
    old = dataclasses.replace(row_sum, evidence={k: v for k, v in row_sum.evidence.items() if k != "cone"})
    assert cause_of(old).id == "numeric/wrong-value/-"  # a record without its cone: its ops are not known


ROW_SUM_OF_A_SPLAT = """func.func @main() -> tensor<3xi32> {
  %e = tensor.empty() : tensor<3x4xi32>
  %c2 = arith.constant 2 : i32
  %fill = linalg.fill ins(%c2 : i32) outs(%e : tensor<3x4xi32>) -> tensor<3x4xi32>
  %init = arith.constant dense<0> : tensor<3xi32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>],
       iterator_types = ["parallel", "reduction"]} ins(%fill : tensor<3x4xi32>) outs(%init : tensor<3xi32>) {
  ^bb0(%in: i32, %out: i32):
    %s = arith.addi %out, %in : i32
    linalg.yield %s : i32
  } -> tensor<3xi32>
  return %r : tensor<3xi32>
}"""


@pytest.mark.parametrize(
    "program, key",
    [
        (ROW_SUM_OF_A_SPLAT, "fill>reduce_sum"),
        (
            ROW_SUM_OF_A_SPLAT.replace("ins(%fill", "ins(%arg").replace("@main()", "@main(%arg: tensor<3x4xi32>)"),
            "reduce_sum",
        ),
        ((ROOT / "tests/data/bundles/pooling_unit_output").glob("*/program.mlir"), "pooling_nhwc_max"),
        ((ROOT / "tests/data/bundles/gather_of_gather").glob("*/program.mlir"), "fill>gather>add"),
        ((ROOT / "docs/repros/sort_of_a_copy_sorts_the_argument_in_place.mlir"), "sort"),
    ],
)
def test_the_cone_read_from_a_programs_ir_names_the_ops_as_the_graph_does(program, key):
    """``op_cone`` reads the IR (splat constants and fills are fills, a generic by what its body yields, a copy and
    a tensor.cast are no ops) and ``cone_pattern`` keys it as it keys a graph (the splat init left out)."""
    from ireefuzz.oracles.op_cone import output_cone

    text = (
        program if isinstance(program, str) else (program if isinstance(program, Path) else next(program)).read_text()
    )
    cone = output_cone(text, "main", 0)
    finding = Finding("numeric", "wrong-value", "numeric/wrong-value/main/i32/S", "m", {"cone": cone, "output": 0})
    assert cause_of(finding).id == f"numeric/wrong-value/{key}"


def test_a_graphs_splat_destination_is_no_data_of_its_result():
    """A sum of an argument into a filled init is a sum, not the fill-sum miscompile (the fill is where the
    accumulator starts, as the zero init a reduction always has); a sum over the fill is the miscompile."""
    into_fill = {
        "args": [{"dtype": "f32", "shape": [4, 3]}],
        "nodes": [
            {"op": "fill", "inputs": [], "attrs": {"init": "empty"}},
            {"op": "reduce_sum", "inputs": ["a0"], "attrs": {"dim": 1, "init": "value:n0"}},
        ],
        "outputs": ["n1"],
    }
    over_fill = dict(into_fill, nodes=[into_fill["nodes"][0], {"op": "reduce_sum", "inputs": ["n0"], "attrs": {}}])
    wrong = lambda graph: Finding(
        "numeric", "wrong-value", "numeric/wrong-value/x/f32/S", "m", {"output": 0}, {"graph": graph}
    )
    assert cause_of(wrong(into_fill)).id == "numeric/wrong-value/reduce_sum"
    assert cause_of(wrong(over_fill)).id == FILL_SUM


@pytest.mark.iree
def test_check_gives_the_row_sum_of_a_splat_the_campaigns_fill_sum_cause():
    """The acceptance of issue 30 with the real compiler: ``check`` of the reduced raw program (no arguments) and the
    campaign graph of corpus/regressions/reduce_sum_of_fill land in one cause."""
    from ireefuzz.core.evaluate import evaluate
    from ireefuzz.generators.case import Case
    from ireefuzz.tools.check import check_program

    (raw,) = [f for f in check_program(ROW_SUM_OF_A_SPLAT) if f.oracle == "numeric"]
    case = json.loads((ROOT / "corpus/regressions/reduce_sum_of_fill/case.json").read_text())
    graph = Case.from_json({k: case[k] for k in ("graph", "instances", "seed", "target_cpu", "flags") if k in case})
    (campaign,) = [f for f in evaluate([graph])[0].findings if f.oracle == "numeric"]
    assert raw.cause == campaign.cause == FILL_SUM


# --------------------------------------------------------------------------- a pass is a key part by its family

REVERSE_MAP = "crash/compile-error/linalg.generic-op-inferred-operand-has-shape-s-dimension-to-be-greater-than@tiling"


@pytest.mark.parametrize(
    "culprit",
    [
        "iree-codegen-tile-and-distribute-to-workgroups-using-forall-op",  # as recorded
        "iree-llvmcpu-tile",
        "iree-llvmcpu-tile-and-fuse-producer-consumer",
        "iree-llvmcpu-tile-to-vector-size",
    ],
)
def test_the_reverse_map_tiling_bug_is_one_cause_whichever_tiling_pass_fails_first(culprit):
    """llvm/llvm-project#113021 on a real diagnostic (a reverse map into a reduction), as each tiling pass would
    name it: one cause, the shipped baseline's; a pass of another transformation is another cause."""
    (recorded,) = recorded_case(10)
    as_failed = lambda p: dataclasses.replace(
        recorded,
        evidence=dict(
            recorded.evidence,
            diagnostic=recorded.evidence["diagnostic"].replace(
                "failing pass: iree-codegen-tile-and-distribute-to-workgroups-using-forall-op", f"failing pass: {p}"
            ),
        ),
    )
    assert cause_of(as_failed(culprit)).id == REVERSE_MAP and REVERSE_MAP in SHIPPED.causes
    assert cause_of(as_failed("iree-codegen-verify-workgroup-distribution")).id != REVERSE_MAP


def test_every_member_of_a_pass_family_is_that_family_and_other_passes_are_themselves():
    from ireefuzz.oracles.cause import pass_family

    assert all(pass_family(p) == family for family, ps in vocabulary.PASS_FAMILIES.items() for p in ps)
    assert pass_family("iree-codegen-verify-workgroup-distribution") == "iree-codegen-verify-workgroup-distribution"
    assert (
        compile_error_stage("x.mlir:1:1: error: e\nfailing pass: iree-llvmcpu-tile (module)\n") == "iree-llvmcpu-tile"
    )  # the stage still names the pass that failed; the cause names its family


@pytest.mark.iree
def test_a_real_convs_copies_land_in_its_known_alloca_cause():
    """Issue 30's conv with the real compiler: a splat linalg.generic written into an argument as the NCHW conv's
    init; its copies move tiles between the stack buffers the same case reports."""
    from ireefuzz.core.evaluate import evaluate
    from ireefuzz.generators.builder import GraphBuilder
    from ireefuzz.generators.case import Case

    b = GraphBuilder()
    x, w, out = b.arg((3, 8, 6, 6), "f32"), b.arg((16, 8, 2, 3), "f32"), (3, 16, 5, 4)
    acc = b.fill(out, 0.0, "f32", generic=True, init=b.arg(out, "f32"))
    b.output(b.cast(b.op("conv_2d_nchw_fchw", x, w, acc, strides=[1, 1], dilations=[1, 1], generic=False), to="f16"))
    memory = [f for f in evaluate([Case(b.build(), ({},))])[0].findings if f.oracle == "memory"]
    assert sorted(f.kind for f in memory) == ["alloca", "copy"]
    assert {f.cause for f in memory} == {CONV_ALLOCA}


@pytest.mark.parametrize(
    "dump, ends",
    [
        ("fill_matmul_exp_33x16x49.bufferized.mlir", [("alloca", "alloca")] * 3),  # #8303's tiles, stack to stack
        ("gather_31x35.bufferized.mlir", [("read-only-binding", "binding")]),
        ("scratch_sort_readonly_operand.bufferized.mlir", [("read-only-binding", "alloca")]),
        (
            "hand.staging_copies.mlir",
            [("binding", "binding"), ("binding", "alloca"), ("alloca", "binding"), ("alloc", "binding")],
        ),
    ],
)
def test_the_memory_oracle_records_what_each_copy_moves_with_either_reader(dump, ends):
    """The evidence the copy rules read: each copy's source and target (a read-only binding, a binding, an alloca,
    an alloc), by the bindings and by the text reader alike, and in a finding's ``memory_ops``."""
    from ireefuzz.oracles import ir_text, memory
    from ireefuzz.sut import DispatchIR

    text = (ROOT / "tests/data/ir" / dump).read_text()
    copies = [m for m in memory.scan(text) if m.kind == "copy"]
    assert [(m.source, m.target) for m in copies] == ends
    assert [(r["source"], r["target"]) for r in ir_text.scan(text) if r["kind"] == "copy"] == ends
    dispatch = DispatchIR(
        "main_dispatch_0_matmul_like_33x49x16_f32", "CPUDoubleTilingExpert", "", bufferized_ir=text, source=""
    )
    found = [f for f in memory.check_memory([dispatch]) if f.kind == "copy"]
    recorded = [(m["source"], m["target"]) for f in found for m in f.evidence["memory_ops"]]
    assert set(recorded) <= set(ends) and recorded


def test_nan_where_a_number_is_right_is_its_ops_wrong_value_cause_and_known():
    """Round H (host, seed 58211): the dynamic-head-dim attention returned NaN at a zero head dim and was called a
    new cause (numeric/nan-mismatch/attention) beside the known numeric/wrong-value/attention: how wrong numbers
    look is no mechanism. The recorded finding (real IREE 3.13) gets the known cause."""
    import json
    from pathlib import Path

    from ireefuzz.oracles.cause import cause_of
    from ireefuzz.oracles.finding import Finding
    from ireefuzz.tools import baseline

    rows = (Path(__file__).parent / "data" / "findings" / "roundH-3.13.jsonl").read_text().splitlines()
    (nan,) = [Finding.from_json(json.loads(r)) for r in rows if json.loads(r)["oracle"] == "numeric"]
    assert nan.kind == "nan-mismatch" and nan.signature == "numeric/nan-mismatch/attention/f32/?xSx?"
    assert cause_of(nan).id == "numeric/wrong-value/attention"
    known = baseline.load(Path(__file__).parents[1] / "corpus" / "known_findings.json")
    assert known.cause_known(cause_of(nan).id, [nan.signature]) is not None
