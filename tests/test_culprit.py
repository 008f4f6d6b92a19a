"""Culprit localization (ireefuzz.tools.filing.culprit) on recorded IREE 3.13 logs, and the upstream matcher.

Each recorded log was printed by stock iree-compile (the command is in each test's docstring); the passes
they name were checked by hand: the stack trace of the mmt4d SIGFPE is inside getMmt4dLoweringConfig (called by
the lowering strategy selection); the unpack error is reported by the workgroup distribution verifier; the
argmax alloca is absent from empty-tensor-to-alloc-tensor's output and present in bufferization's; the pooling
generic that reads out of bounds is first printed after fold-unit-extent-dims.

The method tests read ``tests/data/ir/culprit/`` (IREE 3.13 on an AVX2 host; each file's first line is its command):
one test per localization method on recorded IR, where a recorded ``iree-opt`` output stands in for the confirming
run; the ``iree`` tests at the end run each method on the real compiler.
"""

from __future__ import annotations

import dataclasses
import re
from pathlib import Path

import numpy as np
import pytest

from ireefuzz import sut
from ireefuzz.tools.filing import culprit, upstream
from ireefuzz.tools.filing.culprit import compile_errors, confirm, libcall, lineage, record, values
from ireefuzz.tools.filing.culprit.log import is_adaptor

DATA = Path(__file__).parent / "data" / "culprit"
IR = Path(__file__).parent / "data" / "ir" / "culprit"
BUNDLES = Path(__file__).parent / "data" / "bundles"  # the bundles these tests were written on, as recorded


def _ir(name: str) -> str:
    return (IR / name).read_text()


def _program(bundle: str) -> str:
    return next((BUNDLES / bundle).glob("*/program.mlir")).read_text()


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
    assert c.to_json() == {"phase": "flow", "pass": None, "how": "not localized: why", "method": None, "confirm": None}


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


def test_a_checkers_rejected_form_is_read_only_by_a_rule():
    checked = "%alloca = memref.alloca() : memref<4xf32>\n%a2 = memref.alloca(%d) : memref<?x8xi32>\n"
    unbounded = lineage.rejected_form("'memref.alloca' op expected no unbounded stack allocations", checked)
    assert unbounded is not None and unbounded.what == "memref.alloca : memref<?x8xi32>"
    static = checked + "%a3 = memref.alloca() : memref<8x8xf32>\n"
    over = lineage.rejected_form("'func.func' op exceeded stack allocation limit of 32768 bytes", static)
    assert over is not None and over.what == "memref.alloca : memref<?x8xi32>"  # a dynamic one first
    static = static.replace("%a2 = memref.alloca(%d) : memref<?x8xi32>\n", "")
    over = lineage.rejected_form("'func.func' op exceeded stack allocation limit of 32768 bytes", static)
    assert over is not None and over.what == "memref.alloca : memref<8x8xf32>"  # else the largest
    assert lineage.rejected_form("'linalg.generic' op inferred input/output operand #1 has shape", checked) is None
    writes = lineage.rejected_form("'linalg.generic' op write affecting operations on global resources", checked)
    assert writes is not None and writes.what.startswith("linalg.generic writing a binding")


def _outcome(text: str, inputs: list) -> object:
    try:
        return [np.asarray(y).tolist() for y in culprit.interpret(text, "g1", inputs)]
    except Exception as e:  # noqa: BLE001 -- the interpreter's refusal, compared as text
        return re.sub(r"\(%\S+ = ", "(", re.sub(r" at line \d+", "", str(e)))  # the source's name is the dump's


def test_unwrap_follows_dispatch_regions_initializers_and_executables():
    """The reduced two-function iota->argmax module (IREE 3.13, x86-64-v4, -O3) after --compile-to=dispatch-creation
    (flow.dispatch.workgroups in a util.initializer) and =flow (flow.executable + flow.dispatch): both unwrap to plain
    functions the interpreter evaluates as the program (the wrong values arise later)."""
    program = _log("two_functions_reduced.mlir")
    inputs = [np.load(p) for p in sorted((DATA / "two_functions_inputs").glob("a*.npy"))]
    want = _outcome(program, inputs)  # values, or the undefined read the interpreter refuses (the same either way)
    for phase in ("two_functions_dispatch_creation.mlir", "two_functions_flow.mlir"):
        text = culprit.unwrap(_log(phase))
        assert "flow.dispatch" not in text and "util.initializer" not in text and "flow.executable" not in text
        assert _outcome(text, inputs) == want
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


# --------------------------------------------------------------------------- methods, on recorded IR


def test_invalid_ir_is_the_failed_pass_whose_output_the_verifier_rejects():
    """fold-unit-extent-dims on the depthwise conv with a unit output: its after-failure dump, re-verified by iree-opt,
    reports the compile's own message, so its output is invalid IR; a failed pass whose output verifies is not
    named for invalid IR, and one whose output is its input is a checker."""
    log = _ir("fold_unit_dims.before_and_after_failure.log")
    logged = culprit.dumps(log)
    failed = next(d for d in logged if d.failed and not is_adaptor(d))
    received = next(d for d in logged if d.when == "Before" and d.name == failed.name).body
    messages = compile_errors.errors(log)
    reverified = _ir("fold_unit_dims.reverify.txt")
    message = "'linalg.generic' op inferred input/output operand #1 has shape's dimension #0 to be 3, but found 2"
    assert failed.name == "iree-dispatch-creation-fold-unit-extent-dims" and messages[0] == message
    assert compile_errors.failure_kind(received, failed.body, messages, lambda: reverified) == ("invalid-ir", message)
    assert compile_errors.failure_kind(received, failed.body, messages, lambda: "")[0] == "own-error"
    assert compile_errors.failure_kind(received, received, messages, lambda: reverified) == ("checker", "")


def test_first_invalid_output_is_found_by_bisection():
    """Each pass's output re-verified (here: the recorded fold-unit-extent-dims dumps, the invalid one printed in
    generic form); the first that does not verify is found when the last does not."""
    logged = culprit.dumps(_ir("fold_unit_dims.before_and_after_failure.log"))
    valid, invalid = logged[0].body, logged[-1].body
    verifies = lambda ir: '"builtin.module"()' not in ir  # noqa: E731
    assert [verifies(valid), verifies(invalid)] == [True, False]
    outputs = [valid, valid, valid, invalid, invalid]
    assert compile_errors.first_invalid_index(outputs, verifies) == 3
    assert compile_errors.first_invalid_index(outputs[:3], verifies) is None  # the last verifies: nothing to name
    assert compile_errors.first_invalid_index([invalid], verifies) == 0


def test_checker_error_is_followed_to_the_pass_that_made_the_buffer():
    """The dynamic sort's stack check: the checker only reports the over-limit alloca; the pass whose output first
    holds it is bufferization, whose input held a ``bufferization.alloc_tensor`` (no buffer: a tensor nothing
    defines), so bufferization made it. (It used to go past bufferization to the program's own ``tensor.empty``:
    not localized.)"""
    log = _ir("dynamic_sort.after_change.log")
    logged = culprit.dumps(log)
    failed = next(d for d in logged if d.failed)
    assert failed.name == "iree-llvmcpu-check-ir-before-llvm-conversion"
    message = "'func.func' op exceeded stack allocation limit of 32768 bytes for function. Got 36028797018963968 bytes"
    form = lineage.rejected_form(message, failed.body)
    assert form is not None and form.what == "memref.alloca : memref<9007199254740991xi32>"
    found = lineage.trace(logged, _program("dynamic_sort_stack"), failed.function, form)
    assert found.dump is not None and found.dump.name == "iree-codegen-iree-comprehensive-bufferize", found.why
    assert "bufferization.alloc_tensor" in found.before and not form.holds(found.before) and found.steps == ()


def test_memory_buffer_is_made_by_bufferization_not_by_the_passes_that_make_its_tensor():
    """The NCHW conv's alloca (the maintainer's review): bufferization makes it. Its input held an ``alloc_tensor``
    that ``empty-tensor-to-alloc-tensor`` made of a ``tensor.empty`` tile, itself a tile of the ``tensor.empty`` that
    detach-elementwise-from-named-ops makes: passes that only do their job (no buffer is a tensor). The old
    precursor rule followed the tensors back to detach-elementwise."""
    log = _ir("nchw_conv_alloca.after_change.log")
    before, after = culprit.first_after(log, culprit.memory_holds("alloca"))
    assert after is not None and after.name == "iree-codegen-iree-comprehensive-bufferize"
    new = [b for b in lineage.buffer_lines(after.body) if b not in lineage.buffer_lines(before.body if before else "")]
    assert new == [("memref.alloca", "memref<1x2x1x4xf32>")]
    form = lineage.buffers(*new[0])
    program = _program("nchw_conv_alloca")
    found = lineage.trace(culprit.dumps(log), program, after.function, form)
    assert found.dump is not None and found.dump.name == "iree-codegen-iree-comprehensive-bufferize"
    assert "bufferization.alloc_tensor() : tensor<1x2x1x4xf32>" in found.before and found.steps == ()
    assert found.form is form and form.holds(found.dump.body) and not form.holds(found.before)


def test_a_crash_is_confirmed_only_by_the_same_crash():
    """The mmt4d SIGFPE in the lowering strategy's limitVectorTileSizes; the same pass run by iree-opt on the
    function alone dies elsewhere (no executable target around it): another crash, which confirms nothing."""
    compiled = compile_errors.crash_state(-8, _ir("mmt4d.compile_crash.txt"))
    alone = compile_errors.crash_state(-11, _ir("mmt4d.opt_function_scope_crash.txt"))
    assert compiled[0] == -8 and "limitVectorTileSizes" in compiled[1]
    assert alone[0] == -11 and "ExecutableTargetAttr::getConfiguration" in alone[1]
    assert compiled != alone and compiled == compile_errors.crash_state(-8, _ir("mmt4d.compile_crash.txt"))


def _replayed_expand(monkeypatch: pytest.MonkeyPatch, expands_both: bool = False) -> None:
    """iree-opt replayed from recorded runs: expand-f16-op-to-f32 as recorded (on its input, and on it with
    arith.maximumf for arith.maxnumf); every other pass leaves the IR as it is."""
    expanded, left = (_ir(f).split("\n", 1)[1] for f in ("f16_maxnumf.renamed_expand.mlir", "f16_maxnumf.expand.mlir"))

    def iree_opt(ir: str, pipeline: str, config: object, extra: object = ()) -> tuple[int, str, str]:
        if "iree-llvmcpu-expand-f16-op-to-f32" in pipeline:
            return 0, (expanded if "arith.maximumf" in ir or expands_both else left), ""
        return 0, f"module {{\n{ir}\n}}", ""

    monkeypatch.setattr(confirm, "iree_opt", iree_opt)
    monkeypatch.setattr(libcall, "iree_opt", iree_opt)
    monkeypatch.setattr(confirm, "compile_", lambda *a, **k: (1, "", ""))  # no module-scope fallback here


def test_unresolved_libcall_is_the_pass_that_expands_the_sibling_but_not_the_op(monkeypatch):
    """f16 fmaxf: of the passes whose input holds the f16 arith.maxnumf, expand-f16-op-to-f32 expands arith.maximumf
    (its sibling) on f16 and leaves arith.maxnumf: the pass that should have expanded it."""
    _replayed_expand(monkeypatch)
    logged = culprit.dumps(_ir("f16_maxnumf.after_all.log"))
    function = "@main_dispatch_0_softmax_2xf16_dispatch_tensor_store"
    found = libcall._in_function("", sut.CompilerConfig(), logged, function, libcall.LIBCALLS["fmaxf"], "f16", "w")
    assert found is not None and found.pass_ == "iree-llvmcpu-expand-f16-op-to-f32", found.how
    assert found.confirm is not None and found.confirm.pipeline == (
        "builtin.module(func.func(iree-llvmcpu-expand-f16-op-to-f32))"
    )
    # the review: the pass is a no-op on culprit_before.mlir; the evidence shows what it does to the sibling there
    shows = found.confirm.shows + found.confirm.context  # the sibling's run is context, never a checked defect
    assert shows[1] == "%11 = arith.maxnumf %in, %out : f16" and shows[0].startswith("// on culprit_before.mlir")
    assert not any("arith.extf" in line for line in found.confirm.shows)
    sed = next(line for line in shows if line.startswith("// sed "))
    assert "s/arith.maxnumf/arith.maximumf/g" in sed and "culprit_before.mlir | iree-opt" in sed, sed
    gained = shows[shows.index(sed) + 1 :]
    assert any("arith.extf" in line for line in gained) and any("arith.maximumf" in line for line in gained), gained
    # a pass that expands the op too is not the one that misses it; nothing else is confirmed: not localized
    _replayed_expand(monkeypatch, expands_both=True)
    again = libcall._in_function("", sut.CompilerConfig(), logged, function, libcall.LIBCALLS["fmaxf"], "f16", "w")
    assert again is not None and again.pass_ is None and again.how.startswith("not localized")


def test_codegen_translation_validation_names_the_pass_that_changes_the_value():
    """The fill-sum's dispatch (const-eval off): before generic-vectorization the interpreter computes 4 (a sum of
    two 2s), after it 2."""
    logged = culprit.dumps(_ir("fill_sum.codegen.after_change.log"))
    step, why = values._first_step_differing(logged, "@_initializer_0_dispatch_0_reduction_2_i32", [], [])
    assert step is not None, why
    assert step.dump.name == "iree-codegen-generic-vectorization"
    assert step.was.outputs is not None and step.now.outputs is not None
    assert step.was.outputs[0].tolist() == 4 and step.now.outputs[0].tolist() == 2


def test_codegen_translation_validation_sees_a_read_of_poison():
    """The gather of a gather: generic-vectorization reads the index tile along the wrong dimension (out of bounds:
    poison indices), so its output depends on a poison value; before it the interpreter computes [10, 10, 10]."""
    logged = culprit.dumps(_ir("gather_of_gather.codegen.after_change.log"))
    given = [np.array([[7], [5]], np.int32), np.array([0, 0, 1], np.int32), np.array([2, 2, 2], np.int32)]
    step, why = values._first_step_differing(logged, "@main_dispatch_0_gather_DxDxi32_gather", [2, 1], given)
    assert step is not None, why
    assert step.dump.name == "iree-codegen-generic-vectorization"
    assert step.was.outputs is not None and step.was.outputs[3].reshape(-1).tolist() == [10, 10, 10]
    assert not step.was.undefined and step.now.undefined


def test_codegen_translation_validation_never_blames_a_pass_whose_input_was_not_read():
    """A dump the interpreter cannot read is not blamed, nor is the pass after it: with the dump before
    vectorization made unreadable, the fill-sum's change is localized to no pass."""
    log = _ir("fill_sum.codegen.after_change.log")
    cut = log.index("IR Dump After LLVMCPUTileToVectorSizePass")
    unread = log[:cut] + log[cut:].replace("linalg.fill", "linalg.unknown_fill", 2)
    step, why = values._first_step_differing(
        culprit.dumps(unread), "@_initializer_0_dispatch_0_reduction_2_i32", [], []
    )
    assert step is None and "keeps its values" in why


def test_a_pass_is_named_only_with_its_confirmation(monkeypatch):
    """The first nesting whose one-pass run shows the defect confirms it; without one, not localized."""
    seen: list[str] = []

    def iree_opt(ir: str, pipeline: str, config: object, extra: object = ()) -> tuple[int, str, str]:
        seen.append(pipeline)
        return 0, "module {}", ""

    monkeypatch.setattr(confirm, "iree_opt", iree_opt)
    shows = lambda code, out, err: ["the defect"] if len(seen) == 2 else []  # noqa: E731
    found, _ = confirm.confirm("p{a=1}", "module {}", sut.CompilerConfig(), shows)
    assert found is not None and found.pipeline == "builtin.module(util.func(p{a=1}))" == seen[-1]
    assert found.command == "iree-opt '--pass-pipeline=builtin.module(util.func(p{a=1}))' culprit_before.mlir"
    assert dataclasses.replace(found, reparse=True).command.endswith("culprit_before.mlir | iree-opt")
    c = record.confirmed("flow", "p", "how", "a", "b", "crash", None, "it does not crash alone")
    assert c.pass_ is None and c.how == "not localized: how, but it does not crash alone"
    c = record.confirmed("flow", "p", "how", "a", "b", "crash", found, "")
    assert c.pass_ == "p" and c.to_json()["confirm"]["command"] == found.command


# --------------------------------------------------------------------------- methods, on the real compiler


def _config() -> sut.CompilerConfig:
    return sut.CompilerConfig(target_cpu="host")


@pytest.mark.iree
def test_real_invalid_ir_is_fold_unit_extent_dims():
    found = culprit.compile_failure(_program("fold_unit_dims_invalid_ir"), _config())
    assert found.pass_ == "iree-dispatch-creation-fold-unit-extent-dims" and found.method == "invalid-ir", found.how
    assert found.confirm is not None and "inferred input/output operand #1" in found.confirm.shows[0]


@pytest.mark.iree
def test_real_memory_alloca_is_bufferization():
    """One-pass ``iree-opt`` with bufferization alone on the IR it received prints the buffer (with its default
    allocation function a `memref.alloc`; iree-compile's CPU pipeline makes it an alloca)."""
    found = culprit.memory(_program("nchw_conv_alloca"), "alloca", _config())
    assert found.pass_ == "iree-codegen-iree-comprehensive-bufferize", found.how
    assert found.confirm is not None and "memref<1x2x1x4xf32>" in found.confirm.shows[0], found.confirm.shows


@pytest.mark.iree
def test_real_wrong_value_in_codegen_is_generic_vectorization():
    program = (Path(__file__).parents[1] / "corpus/regressions/gather_of_gather_fused_source/program.mlir").read_text()
    inputs = [np.array([[7], [5]], np.int32), np.array([0, 0, 1], np.int32), np.array([2, 2, 2], np.int32)]
    found = culprit.wrong_values(program, "main", inputs, _config())
    assert found.pass_ == "iree-codegen-generic-vectorization", found.how
    assert found.confirm is not None and any("[[10], [10], [10]]" in line for line in found.confirm.shows)


@pytest.mark.iree
def test_real_unresolved_libcall_is_expand_f16_op_to_f32():
    # x86-64-v3: no AVX-512 FP16, whose f16 max needs no libcall (a Sapphire Rapids host compiles it)
    found = culprit.compile_failure(_program("f16_fmaxf_link"), sut.CompilerConfig(target_cpu="x86-64-v3"))
    assert found.pass_ == "iree-llvmcpu-expand-f16-op-to-f32" and found.method == "libcall", found.how


def test_a_dump_printed_in_generic_form_names_its_function():
    """A pass whose output fails the verifier is printed in generic form (``"func.func"() <{... sym_name = ...}>``):
    its dump still names the function, so its input is fetched for that function, not the first dispatch's."""
    header = "// -----// IR Dump After DropVectorUnitDimsPass Failed: iree-codegen-drop-vector-unit-dims //----- //"
    body = '"func.func"() <{function_type = () -> (), sym_name = "main_dispatch_1_attention"}> ({\n}) : () -> ()'
    (d,) = culprit.dumps(f"{header}\n{body}\n")
    assert d.failed and d.function == "@main_dispatch_1_attention"


@pytest.mark.iree
def test_real_invalid_mask_is_drop_vector_unit_dims_confirmed_on_the_failing_dispatch():
    """The masked contraction's invalid mask: the first pass whose output fails the verifier, confirmed by that pass
    alone on the dispatch it failed on (the program's second dispatch)."""
    repros = Path(__file__).parents[1] / "docs" / "repros"
    program = (repros / "attention_masked_contract_drop_unit_dims_error.mlir").read_text()
    found = culprit.compile_failure(program, sut.CompilerConfig(target_cpu="generic"))
    assert found.pass_ == "iree-codegen-drop-vector-unit-dims" and found.method == "invalid-ir", found.how
    assert found.confirm is not None and "vector.mask" in found.confirm.shows[0]
    assert "#hal.executable.target<" in found.ir_before  # a pass test of it parses as IREE compiles it


def test_a_binding_that_depends_on_poison_is_the_wrong_one_shown():
    """The gather-of-gather's confirmation quoted only `return`: its pass's output writes the same values as its input
    unless poison is read otherwise, so no binding "differed" and no write was traced. A binding whose values change
    with the poison fill is wrong too, and its write is what the confirmation quotes."""
    from ireefuzz.tools.filing.culprit import dispatch

    was = dispatch.Evaluation({1: np.array([[8], [8]])})
    now = dispatch.Evaluation({1: np.array([[8], [8]])}, undefined=True, otherwise={1: np.array([[154], [154]])})
    assert values.wrong_bindings(was, now, 0.0) == [1]
    assert values.wrong_bindings(was, dispatch.Evaluation({1: np.array([[8], [8]])}), 0.0) == []
    after = "%0 = hal.interface.binding.subspan binding(1) : memref<2x1xi32>\n%1 = ub.poison : i32\n"
    after += "%2 = vector.transfer_read %x[%c0], %1 : tensor<2x1xi32>, vector<2x1xi32>\n"
    after += "iree_codegen.store_to_buffer %2, %0 : tensor<2x1xi32> into memref<2x1xi32>\nreturn"
    shown = values.shown_lines(after, 1, "before", "after")
    assert "ub.poison" in "\n".join(shown) and "return" not in shown, shown


def test_a_form_the_program_holds_is_called_valid_there_not_a_defect_of_the_program():
    """The unpack into an argument: the review read "the program itself holds an op updating a read-only input in
    place" as calling a valid program invalid. An op whose destination is an argument is valid tensor IR; the culprit
    is not localized, and the reason says so."""
    program = "func.func @main(%a: tensor<8x2xf32>, %b: tensor<15xf32>) -> tensor<15xf32> {\n"
    program += (
        "  %u = linalg.unpack %a inner_dims_pos = [0] inner_tiles = [2] into %b : tensor<8x2xf32> -> tensor<15xf32>"
    )
    header = "// -----// IR Dump After SomePass: some-pass //----- //"
    source = "func.func @main_dispatch_0() {\n  %u = linalg.unpack %x into %b\n  return\n}"
    form = lineage.Form(
        "an op whose destination is a read-only input", lambda t: [x for x in t.splitlines() if "into %b" in x]
    )
    traced = lineage.trace(culprit.dumps(f"{header}\n{source}\n"), program, "@main_dispatch_0", form)
    assert traced.dump is None and "valid IR there" in traced.why and "linalg.unpack" in traced.why, traced.why
    # the review: the reason should say what is wrong downstream: the unpack never reads the argument it overwrites
    assert "never reads it, so a fresh buffer would do" in traced.why, traced.why
    sorted_in_place = program.replace("linalg.unpack", "iree_linalg_ext.sort")
    again = lineage.trace(culprit.dumps(f"{header}\n{source}\n"), sorted_in_place, "@main_dispatch_0", form)
    assert "valid IR there" in again.why and "fresh buffer" not in again.why, again.why  # a sort reads its outs


def test_a_wrong_value_carried_by_const_eval_is_told_from_its_culprit_pass(monkeypatch):
    """The fill-sum was framed around iree-consteval-jit-globals though its culprit is generic-vectorization: the
    report now leads with the pass found (const-eval off) and says const-eval only carries its value in."""
    jit = record.Culprit("global-optimization", values.JIT_PASS, "the first pass whose values differ")
    vectorization = record.Culprit("executable-targets", "iree-codegen-generic-vectorization", "translation validation")
    searched = iter([jit, vectorization])
    monkeypatch.setattr(values, "_search", lambda *a: next(searched))
    found = values.wrong_values("", "main", [], sut.CompilerConfig())
    assert found.pass_ == "iree-codegen-generic-vectorization" and found.how.startswith("translation validation")
    assert values.JIT_PASS in found.how and values.CONST_EVAL_OFF in found.how, found.how


_MERGED = """  util.initializer {
    %c0 = arith.constant 0 : index
    %c4 = arith.constant 4 : index
    %0 = stream.async.dispatch @ex0::@iota_argmax() : () -> !stream.resource<constant>{%c4}
    %1 = stream.async.dispatch @ex1::@sort(%0[%c0 to %c4 for %c4]) : (!stream.resource<constant>{%c4}) -> %0{%c4}
    %2 = stream.async.dispatch @ex0::@iota_argmax() : () -> !stream.resource<constant>{%c4}
    util.global.store %2, @first : !stream.resource<constant>
    util.global.store %1, @second : !stream.resource<constant>
    util.return
  }
"""


def test_a_buffer_written_in_place_that_a_later_op_reads_is_shared():
    """The two-functions argmax (iree-org/iree#23665's mechanism), as recorded from IREE 3.13's stream IR: before CSE
    each hoisted global has its own dispatch; CSE merges the two identical ones, and the sort then writes in place the
    buffer the first global still stores. A read before the in-place write is no sharing."""
    from ireefuzz.tools.filing.culprit import aliasing

    assert aliasing.shared_in_place(_MERGED) == []
    merged = _MERGED.replace(
        "%2 = stream.async.dispatch @ex0::@iota_argmax() : () -> !stream.resource<constant>{%c4}\n", ""
    )
    merged = merged.replace("store %2,", "store %0,")
    shared = aliasing.shared_in_place(merged)
    assert shared[0].startswith("%1 = stream.async.dispatch @ex1::@sort") and shared[1].startswith(
        "util.global.store %0"
    )
    read_first = merged.replace("    util.global.store %0, @first : !stream.resource<constant>\n", "")
    read_first = read_first.replace(
        "    %1 = stream", "    util.global.store %0, @first : !stream.resource<constant>\n    %1 = stream"
    )
    assert aliasing.shared_in_place(read_first) == []


@pytest.mark.iree
def test_real_two_functions_argmax_is_cse_sharing_a_buffer_written_in_place():
    from ireefuzz.tools.filing.culprit import aliasing

    program = _ir("two_functions_argmax.mlir")
    found = aliasing.in_stream(program, sut.CompilerConfig(target_cpu="generic"), "the interpreter agrees")
    assert found.pass_ == "cse" and found.method == "aliasing" and found.phase == "stream", found.how
    assert found.confirm is not None and "-> %" in found.confirm.shows[1], found.confirm.shows


def test_a_wrong_value_no_interpreted_pass_explains_is_searched_in_stream(monkeypatch):
    from ireefuzz.tools.filing.culprit import aliasing

    monkeypatch.setattr(values, "_search", lambda *a: record.not_localized("every dump agrees"))
    cse = record.Culprit("stream", "cse", "shared", method="aliasing")
    monkeypatch.setattr(
        aliasing, "in_stream", lambda text, config, so_far: cse if so_far == "every dump agrees" else None
    )
    assert values.wrong_values("", "main", [], sut.CompilerConfig()) is cse
    # the codegen search's per-dispatch reasons are summed up, not listed, in the stream culprit's how
    said = []
    noisy = "flow agrees; in codegen: no dump prints @a on its bindings; no dump prints @b on its bindings"
    monkeypatch.setattr(values, "_search", lambda *a: record.not_localized(noisy))
    monkeypatch.setattr(aliasing, "in_stream", lambda text, config, so_far: said.append(so_far) or cse)
    values.wrong_values("", "main", [], sut.CompilerConfig())
    assert said == ["flow agrees; no codegen pass the interpreter reads changes a dispatch's values"]


def test_the_shipped_table_matches_a_culprit_only_the_culprit_search_sees():
    """iree-org/iree#23665 (CSE aliasing dispatch-allocated buffers) shows in no program or diagnostic; the measured
    culprit (cse sharing a buffer written in place) matches it, and the table stays well formed."""
    cse = record.Culprit("stream", "cse", "shared", method="aliasing")
    found = upstream.for_finding({"message": "g1 output 0 is wrong", "evidence": {}}, "", "numeric/x", culprit=cse)
    assert [(m.issue, m.how, m.relation) for m in found] == [("iree-org/iree#23665", "culprit", "proposed-fix")]
    assert upstream.culprit_key(record.not_localized("x")) == ""
    assert upstream.problems(upstream.load()) == []


def test_a_wrong_value_read_from_poison_shows_where_the_poison_is_read():
    """The gather-of-gather's vectorized output writes its binding from an scf.forall; the wrong value comes from a
    `transfer_gather` padded with poison inside it. The confirmation shows that read."""
    after = (
        "%0 = ub.poison : i32\n%1 = hal.interface.binding.subspan binding(1) : memref<3x1xi32>\n"
        "%2 = iree_vector_ext.transfer_gather %20[%c0, %c0] [%23 : vector<3xindex>], %0 : tensor<?x?xi32>\n"
        "iree_codegen.store_to_buffer %2, %1 : tensor<3x1xi32> into memref<3x1xi32>"
    )
    shown = values.shown_lines(after, 1, "before", "after", poisoned=True)
    at = shown.index("// and reads poison (its values change with what poison reads as) at:")
    assert shown[at + 1] == "%0 = ub.poison : i32" and "transfer_gather" in shown[at + 2], shown
    assert "reads poison" not in "\n".join(values.shown_lines(after, 1, "before", "after"))


@pytest.mark.iree
def test_real_pooling_unit_output_confirmation_says_where_the_pass_output_is_undefined():
    """The pooling with a unit output: fold-unit-extent-dims' output is undefined, and the confirmation says where
    the interpreter stops (a generic whose operand shapes disagree), not only "undefined behaviour"."""
    program = (Path(__file__).parents[1] / "docs" / "repros" / "pooling_max_unit_output_wrong_values.mlir").read_text()
    from ireefuzz.tools.check import check_results

    (result,) = check_results(program, sut.CompilerConfig(target_cpu="generic"))
    found = culprit.wrong_values(
        program, result.case.function, result.case.inputs(0), sut.CompilerConfig(target_cpu="generic")
    )
    assert found.pass_ == "iree-dispatch-creation-fold-unit-extent-dims", found.how
    assert found.confirm is not None and "it stops at: op linalg.generic" in found.confirm.shows[-1], found.confirm


def test_a_dump_ends_where_the_linker_speaks():
    """The f16 fmaxf's module-scope dump was followed by the linker's `iree-lld: error: undefined symbol: fmaxf`, which
    became part of culprit_before.mlir (unparseable, so no confirmation on the module and no pass test)."""
    header = "// -----// IR Dump Before ExpandF16OpToF32Pass: iree-llvmcpu-expand-f16-op-to-f32 //----- //"
    (d,) = culprit.dumps(f"{header}\nmodule {{\n}}\n\niree-lld: error: undefined symbol: fmaxf\n>>> referenced by x\n")
    assert d.body == "module {\n}"


def test_a_memory_finding_follows_its_own_dispatch_and_buffer_not_the_first_one_made():
    import importlib

    memory_culprit = importlib.import_module(
        "ireefuzz.tools.filing.culprit.memory"
    )  # the package re-exports a function of that name

    header = "// -----// IR Dump After {} ('func.func' operation: @main_dispatch_{}) //----- //\n"
    body = "func.func @main_dispatch_{}() {{\n  {}\n  return\n}}\n"
    alloca = "%alloca = memref.alloca() : memref<{}>"
    log = "".join(
        [
            header.format("BufferizePass: bufferize", "0_reduce_f16")
            + body.format("0_reduce_f16", alloca.format("1x1xf16")),
            header.format("Cleanup: cleanup", "1_gather_3x3xf16")
            + body.format("1_gather_3x3xf16", "%x = arith.constant 0 : index"),
            header.format("BufferizePass: bufferize", "1_gather_3x3xf16")
            + body.format("1_gather_3x3xf16", alloca.format("3x1xf16")),
        ]
    )
    counted = memory_culprit._counted_shapes({"memory_ops": [{"type": "memref<3x1xf16>"}]})
    before, after = memory_culprit._first_in_dispatch(
        log, culprit.memory_holds("alloca"), "g0_dispatch_1_gather_3x3xf16", counted
    )
    assert after is not None and after.function == "@main_dispatch_1_gather_3x3xf16" and "3x1xf16" in after.body
    assert before is not None and "alloca" not in before.body
    any_dispatch = culprit.first_after(log, culprit.memory_holds("alloca"))[1]
    assert any_dispatch is not None and "1x1xf16" in any_dispatch.body  # what was followed before


def test_a_buffer_bufferization_made_names_where_its_tensor_was_left():
    import importlib

    memory_culprit = importlib.import_module("ireefuzz.tools.filing.culprit.memory")
    header = "// -----// IR Dump After {} ('func.func' operation: @main_dispatch_0_x) //----- //\n"
    body = "func.func @main_dispatch_0_x() {{\n  {}\n  return\n}}\n"
    steps = [
        ("TileAndDistribute: tile-and-distribute", "%0 = tensor.empty() : tensor<8x16xf16>"),
        ("TileAndFuse: tile-and-fuse", "%1 = tensor.empty() : tensor<3x1xf16>"),
        ("GenericVectorization: generic-vectorization", "%1 = tensor.empty() : tensor<3x1xf16>\n  %2 = vector.x"),
        ("Bufferize: iree-codegen-iree-comprehensive-bufferize", "%alloca = memref.alloca() : memref<3x1xf16>"),
    ]
    log = "".join(header.format(name) + body.format(ir) for name, ir in steps)
    materialized = culprit.dumps(log)[-1]
    said = memory_culprit.temporary_origin(log, materialized, "memref<3x1xf16>")
    assert "`tensor<3x1xf16>`" in said and said.endswith("first shows in the dispatch after `tile-and-fuse`")
    assert "not traced" in memory_culprit.temporary_origin(log, materialized, "i32")
    assert "no tensor.empty of exactly" in memory_culprit.temporary_origin(log, materialized, "memref<2x2xf16>")


@pytest.mark.iree
def test_real_pass_own_error_is_that_pass_not_an_invalid_input():
    """A pass that fails while changing the IR leaves an invalid dump under --mlir-print-ir-after-all; that dump is
    no pass's output, so the pass is named and confirmed alone (stop 47's bundle said "not localized: the IR it
    received is invalid ... the first invalid one is iree-stream-conversion's output")."""
    repro = Path(__file__).parents[1] / "docs/repros/fori_loop_two_carried_tensors_stream_materialization_error.mlir"
    found = culprit.compile_failure(repro.read_text(), sut.CompilerConfig(target_cpu="generic"))
    assert found.pass_ == "iree-stream-conversion" and found.method == "", found.how
    assert found.confirm is not None and "unresolved source materialization" in found.confirm.shows[0]


@pytest.mark.iree
def test_real_integer_to_bf16_libcall_is_the_lowering_that_makes_the_call():
    """An i32 -> bf16 sitofp links an undefined __truncsfbf2 on x86-64-v3: no pass expands it, and
    iree-convert-to-llvm lowers it to the llvm.sitofp LLVM calls it for (a pipeline adaptor's dump, printed after its
    nested passes, had been taken for that pass's input, and `cse` named and not confirmed)."""
    repro = Path(__file__).parents[1] / "docs/repros/integer_to_bf16_undefined_truncsfbf2_without_avx512bf16.mlir"
    found = culprit.compile_failure(repro.read_text(), sut.CompilerConfig(target_cpu="x86-64-v3"))
    assert found.pass_ == "iree-convert-to-llvm" and found.method == "libcall", found.how
    assert found.confirm is not None and "llvm.sitofp" in found.confirm.shows[0] and "bf16" in found.confirm.shows[0]


@pytest.mark.iree
def test_real_transformation_that_fails_before_changing_the_ir_is_that_pass_not_a_checker():
    """Stop 48 (x86-64-v3, seed 17389; the outsider's minimal program): a tied in-place update feeding a reduction's
    init and a loop; iree-stream-schedule-execution's partitioning finds a cycle and fails before changing the IR.
    It was left "a checker: its output is its input ... not localized"; it is the partitioner, confirmed alone."""
    program = (Path(__file__).parent / "data/ir/inputs/stream_partition_cycle_tied_update_loop.mlir").read_text()
    found = culprit.compile_failure(program, sut.CompilerConfig(target_cpu="generic"))
    assert found.pass_ == "iree-stream-schedule-execution", found.how
    assert found.confirm is not None and "circular dependency" in found.confirm.shows[0]
    assert "%11 =" not in found.how and "checks nothing by its role" in found.how
