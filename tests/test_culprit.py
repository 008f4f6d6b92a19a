"""Culprit localization (ireefuzz.tools.filing.culprit) on recorded IREE 3.13 logs, and the upstream matcher.

Each recorded log was printed by stock iree-compile (the command is in each test's docstring); the passes
they name were checked by hand: the stack trace of the mmt4d SIGFPE is inside getMmt4dLoweringConfig (called by
the lowering strategy selection); the unpack error is reported by the workgroup distribution verifier; the
argmax alloca is absent from empty-tensor-to-alloc-tensor's output and present in bufferization's; the pooling
generic that reads out of bounds is first printed after fold-unit-extent-dims.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from ireefuzz.tools.filing import culprit, upstream

DATA = Path(__file__).parent / "data" / "culprit"


def _log(name: str) -> str:
    return (DATA / name).read_text()


def test_compile_crash_names_the_pass_that_was_running():
    """iree-compile mmt4d_dynamic_inner_tiles_sigfpe.mlir --mlir-print-ir-before-all --mlir-disable-threading"""
    d = culprit.last_started(_log("mmt4d_sigfpe_before_all.log"))
    assert d is not None and d.name == "iree-llvmcpu-select-lowering-strategy"
    assert "linalg.mmt4d" in d.body  # the IR the pass received


def test_compile_crash_without_dumps_is_not_localized():
    assert culprit.last_started("Stack dump:\n0. Program arguments: iree-compile x.mlir\n") is None


def test_compile_error_names_the_first_failed_pass_not_the_adaptor():
    """iree-compile unpack_into_argument_compile_error.mlir --mlir-print-ir-after-failure --mlir-disable-threading"""
    log = _log("unpack_after_failure.log")
    d = culprit.failing_pass(log)
    assert d is not None and d.name == "iree-codegen-verify-workgroup-distribution"
    assert "iree-op-pipeline-adaptor" in log  # the adaptor also 'failed'; it is skipped
    assert culprit.failing_pass(log.replace(" Failed", "")) is None  # no failure marked: nothing is blamed


def test_memory_first_pass_is_the_one_whose_output_first_holds_the_alloca():
    """iree-compile argmax.mlir --mlir-print-ir-after-all --mlir-print-ir-after-change --mlir-disable-threading"""
    before, after = culprit.first_after(_log("argmax_after_change.log"), culprit.memory_holds("alloca"))
    assert after is not None and after.name == "iree-codegen-iree-comprehensive-bufferize"
    assert "memref.alloca" in after.body and before is not None and "memref.alloca" not in before.body
    assert after.function == "@main_dispatch_0_reduction_4x37_f32xf32xi32"


def test_memory_copy_is_counted_as_the_oracle_counts_it():
    """A copy-shaped linalg.generic between distinct buffers is a copy (the bundle used to look for memref.copy
    only)."""
    body = """func.func @d(%a: memref<4xf32>, %b: memref<4xf32>) {
  linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], \
iterator_types = ["parallel"]} ins(%a : memref<4xf32>) outs(%b : memref<4xf32>) {
  ^bb0(%x: f32, %y: f32):
    linalg.yield %x : f32
  }
  return
}"""
    assert culprit.memory_holds("copy")(body)
    assert not culprit.memory_holds("copy")(body.replace("linalg.yield %x", "linalg.yield %y"))
    assert not culprit.memory_holds("alloca")(body)


def test_wrong_values_localized_on_recorded_module_scope_dumps():
    """The pooling with a unit output (corpus/regressions/pooling_unit_output_unread_rows), the global-optimization
    phase printed per pass at module scope: the interpreter agrees with the program before
    fold-unit-extent-dims and finds an out-of-bounds read after it."""
    program = (
        Path(__file__).parents[1] / "corpus/regressions/pooling_unit_output_unread_rows/program.mlir"
    ).read_text()
    x = (np.arange(2 * 27).reshape(2, 3, 3, 3) % 7).astype(np.float16)
    reference = culprit.interpret(program, "main", [x])
    found = culprit.first_pass_differing(_log("pooling_global_opt_module_scope.log"), "main", [x], reference)
    assert found is not None and found[1].name == "iree-dispatch-creation-fold-unit-extent-dims"
    previous = [
        d for d in culprit.dumps(_log("pooling_global_opt_module_scope.log")) if d.name.startswith("iree-dispatch")
    ]
    assert found[0] == previous[0].body  # the IR before: the dump the interpreter still agreed with


def test_wrong_values_not_blamed_when_every_dump_agrees():
    program = (
        Path(__file__).parents[1] / "corpus/regressions/pooling_unit_output_unread_rows/program.mlir"
    ).read_text()
    x = (np.arange(2 * 27).reshape(2, 3, 3, 3) % 7).astype(np.float16)
    reference = culprit.interpret(program, "main", [x])
    log = _log("pooling_global_opt_module_scope.log")
    cut = log.rfind("// -----// IR Dump After FoldUnitExtentDimsPass")
    assert cut > 0
    assert culprit.first_pass_differing(log[:cut], "main", [x], reference) is None
    # and a different reference makes the first readable dump the culprit: the comparison is what decides
    wrong = [np.asarray(r) + 1 for r in reference]
    assert (
        culprit.first_pass_differing(log[:cut], "main", [x], wrong)[1].name
        == "iree-dispatch-creation-insert-tensor-barriers"
    )


def test_unwrap_makes_abi_ir_interpretable():
    abi = """module {
  util.func public @main(%arg0: !hal.buffer_view) -> !hal.buffer_view \
attributes {iree.abi.stub, iree.reflection = {iree.abi.declaration = "sync func @main(%input0: \
tensor<?xf32>) -> (%output0: tensor<?xf32>)"}} {
    %0 = hal.buffer_view.dim<%arg0 : !hal.buffer_view>[0] : index
    %1 = hal.tensor.import %arg0 "input0" : !hal.buffer_view -> tensor<?xf32>{%0}
    %2 = arith.addf %c, %c : f32
    %3 = hal.tensor.export %1 "output0" : tensor<?xf32>{%0} -> !hal.buffer_view
    util.return %3 : !hal.buffer_view
  }
}""".replace("    %2 = arith.addf %c, %c : f32\n", "")
    text = culprit.unwrap(abi)
    assert "hal." not in text and "func.func @main(%arg0: tensor<?xf32>) -> tensor<?xf32>" in text
    x = np.arange(3, dtype=np.float32)
    assert np.array_equal(culprit.interpret(text, "main", [x])[0], x)
    with pytest.raises(ValueError):
        culprit.unwrap(abi.replace("util.return", "%9 = stream.async.transfer %3\n    util.return"))


def test_culprit_json_is_phase_pass_how_and_pass_is_null_when_not_localized():
    c = culprit.not_localized("why", "flow")
    assert c.to_json() == {"phase": "flow", "pass": None, "how": "not localized: why"}


# --------------------------------------------------------------------------- upstream


BUILD = "3.13.0rc20261016 @ 89ece87b"
TABLE = [
    {
        "issue": "iree-org/iree#1",
        "url": "u1",
        "title": "open one",
        "state": "open",
        "fixed_in": None,
        "match": {"causes": ["memory/alloca/x"], "program": [r"\bsort\b"], "diagnostic": [r"stack allocations"]},
    },
    {
        "issue": "iree-org/iree#2",
        "url": "u2",
        "title": "closed one",
        "state": "closed",
        "fixed": {"pr": "iree-org/iree#3", "date": "2025-06-01", "first_release": "3.5.0"},
        "match": {"causes": [], "program": [], "diagnostic": [r"getResultAccess"]},
    },
]


def test_upstream_match_by_cause_or_diagnostic_with_program():
    assert [m.issue for m in upstream.match("memory/alloca/x", table=TABLE)] == ["iree-org/iree#1"]
    assert [
        m.how for m in upstream.match("", "iree_linalg_ext.sort", "no unbounded stack allocations", table=TABLE)
    ] == ["diagnostic+program"]
    assert upstream.match("", "linalg.matmul", "no unbounded stack allocations", table=TABLE) == []  # wrong program
    assert upstream.match("", "iree_linalg_ext.sort", "", table=TABLE) == []  # a program shape alone is not the bug


def test_upstream_closed_match_is_a_possible_regression():
    (m,) = upstream.match("", "", "crash in DispatchWorkgroupsOp::getResultAccess", table=TABLE, build=BUILD)
    assert m.line() == (
        "likely duplicate of iree-org/iree#2 (closed 2025-06-01 by PR #3, fixed before this build (2026-10-16): "
        "possible regression, unconfirmed until bisect)"
    )
    assert "regression" in "\n".join(upstream.issue_section([m]))
    assert upstream.match("memory/alloca/x", table=TABLE)[0].line() == "likely duplicate of iree-org/iree#1 (open)"


def test_shipped_table_knows_the_dynamic_sort_stack_and_the_conv_pad_crash():
    sort = (Path(__file__).parents[1] / "docs/repros/sort_1d_dynamic_unbounded_stack.mlir").read_text()
    found = upstream.match("", sort, "error: 'memref.alloca' op expected no unbounded stack allocations")
    assert "iree-org/iree#24735" in [m.issue for m in found]
    pad = (Path(__file__).parents[1] / "docs/repros/conv_pad_as_input_and_outs_crash.mlir").read_text()
    found = upstream.match("", pad, "#3 mlir::iree_compiler::IREE::Flow::DispatchWorkgroupsOp::getResultAccess")
    assert [m.issue for m in found] == ["iree-org/iree#24385"] and found[0].possible_regression


def test_program_bundles_index_lists_each_cause_with_its_measurements(tmp_path):
    from ireefuzz.tools.filing import program

    w = program.Written(
        tmp_path / "a",
        "crash/compile-error/x@codegen",
        "crash/compile-error/x/f32/S",
        ["linalg.mmt4d"],
        [1, 1, 1],
        culprit.Culprit("executable-targets", "iree-llvmcpu-select-lowering-strategy", "how"),
        upstream.match("", "", "DispatchWorkgroupsOp::getResultAccess", table=TABLE, build=BUILD),
        True,
    )
    n = program.write_index(
        tmp_path,
        [
            w,
            program.Written(
                tmp_path / "b", "numeric/x", "numeric/x/-", [], [2, 2, 2], culprit.not_localized("why"), [], False
            ),
        ],
    )
    text = n.read_text()
    assert "iree-llvmcpu-select-lowering-strategy" in text
    assert "iree-org/iree#2 (closed 2025-06-01 by PR #3, fixed before this build" in text
    assert "not localized" in text and "[2, 2, 2]" in text


def test_upstream_open_specific_issue_ranks_before_a_closed_general_one():
    sort = (Path(__file__).parents[1] / "docs/repros/sort_of_a_copy_sorts_the_argument_in_place.mlir").read_text()
    found = upstream.match(
        "immutability/dps-init-written-in-place",
        sort,
        "argument 0 (8xf32) was modified by the call (8 elements changed)",
    )
    assert [m.issue for m in found][:2] == ["iree-org/iree#24665", "iree-org/iree#16168"]


def test_a_checkers_rejected_op_is_followed_only_when_specific():
    name, holds = culprit.rejected_op("x.mlir:3:5: error: 'memref.alloca' op expected no unbounded stack allocations")
    assert (
        name == "memref.alloca"
        and holds("%a = memref.alloca(%d) : memref<?xf32>")
        and not holds("%a = memref.alloca() : memref<4xf32>")
    )
    assert culprit.rejected_op("error: 'linalg.generic' op write affecting operations on global resources") is None
    assert (
        culprit.rejected_op("error: 'func.func' op exceeded stack allocation limit of 32768 bytes")[0]
        == "memref.alloca"
    )
    # on the recorded argmax log, the first pass whose output holds a (static) alloca is bufferization
    name, holds = culprit.rejected_op("error: 'memref.alloca' op exceeded stack allocation limit")
    assert (
        culprit.first_after(_log("argmax_after_change.log"), holds)[1].name
        == "iree-codegen-iree-comprehensive-bufferize"
    )


def test_unwrap_follows_dispatch_regions_initializers_and_executables():
    """The reduced two-function iota->argmax module (IREE 3.13, x86-64-v4, -O3) after --compile-to=dispatch-creation
    (flow.dispatch.workgroups in a util.initializer) and =flow (flow.executable + flow.dispatch): both unwrap to plain
    functions the interpreter evaluates as the program (the wrong values arise later)."""
    program = _log("two_functions_reduced.mlir")
    inputs = [np.load(p) for p in sorted((DATA / "two_functions_inputs").glob("a*.npy"))]
    want = culprit.interpret(program, "g1", inputs)
    for phase in ("two_functions_dispatch_creation.mlir", "two_functions_flow.mlir"):
        text = culprit.unwrap(_log(phase))
        assert "flow.dispatch" not in text and "util.initializer" not in text and "flow.executable" not in text
        assert np.array_equal(culprit.interpret(text, "g1", inputs)[0], want[0])
    # a tile-sized load is not a whole tensor: not followed, never guessed
    tiled = _log("two_functions_flow.mlir").replace(
        "offsets = [0], sizes = [2], strides = [1] : !iree_tensor_ext.dispatch.tensor<readonly",
        "offsets = [1], sizes = [1], strides = [1] : !iree_tensor_ext.dispatch.tensor<readonly",
        1,
    )
    with pytest.raises(Exception):
        culprit.unwrap(tiled)


def test_shipped_table_knows_the_sort_scratch_over_the_stack_limit():
    sort = (Path(__file__).parents[1] / "docs/repros/sort_1d_dynamic_unbounded_stack.mlir").read_text()
    huge = (
        "error: 'func.func' op exceeded stack allocation limit of 32768 bytes for function. Got 36028797018963968 bytes"
    )
    assert "iree-org/iree#24735" in [m.issue for m in upstream.match("", sort, huge)]
    small = huge.replace("36028797018963968", "40960")  # a static tile over the limit is not the unbounded sort scratch
    assert "iree-org/iree#24735" not in [m.issue for m in upstream.match("", sort, small)]
