"""Required scratch (oracles.scratch): the memory oracle flags only what exceeds the scratch an op's own
semantics need. Recorded IR from iree-compile 3.13 (tests/data/ir/scratch_*) and the real compiler.

Each rule is shown on both sides: the required buffer is admitted (these cases were findings before the
rule), and the excess is still caught when a fault is injected into the same IR (a second buffer, a
dynamic one, one of another element type, one inside a loop)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from ireefuzz.oracles.memory import check_memory, profile
from ireefuzz.oracles.scratch import Allowance, element_type_of, required_scratch
from ireefuzz.sut import DispatchIR

IR = Path(__file__).parent / "data" / "ir"


def recorded(stem: str, *, final: str | None = None, bufferized: str | None = None) -> DispatchIR:
    read = lambda kind: (IR / f"{stem}.{kind}.mlir").read_text() if (IR / f"{stem}.{kind}.mlir").exists() else ""
    return DispatchIR(
        name=f"{stem}_dispatch",
        pipeline="Default",
        final_ir=read("final") if final is None else final,
        bufferized_ir=read("bufferized") if bufferized is None else bufferized,
        source=read("source"),
    )


def inject_after_first_alloca(text: str, line: str) -> str:
    """``text`` with ``line`` added right after its first ``memref.alloca`` (same block, same indentation)."""
    match = re.search(r"^( *)(%\S+ = memref\.alloca\(.*)$", text, re.M)
    assert match, "the recorded IR has an alloca"
    return text[: match.end()] + f"\n{match.group(1)}{line}" + text[match.end() :]


# --------------------------------------------------------------------------- the rules, read from the source


def test_topk_with_unused_indices_requires_one_index_buffer():
    (allowance,) = required_scratch(recorded("scratch_topk_values_only"))
    assert (allowance.op, allowance.operand, allowance.element_type, allowance.why) == (
        "iree_linalg_ext.topk",
        1,
        "i32",
        "result unused",
    )
    assert allowance.max_bytes == 15 * 17 * 7 * 4


def test_sort_with_an_unused_read_only_operand_requires_its_buffer():
    (allowance,) = required_scratch(recorded("scratch_sort_readonly_operand"))
    assert (allowance.op, allowance.operand, allowance.element_type) == ("iree_linalg_ext.sort", 1, "i32")


def test_argmax_with_unused_value_requires_its_accumulator_bounded_by_the_stack_limit():
    (allowance,) = required_scratch(recorded("scratch_argmax_value_unused"))
    assert (allowance.op, allowance.operand, allowance.element_type, allowance.why) == (
        "linalg.generic[reduction]",
        0,
        "f32",
        "companion result unused",
    )
    assert allowance.max_bytes == 32768  # the operand is dynamic: the dispatch's max_stack_allocation_size


def test_no_requirement_without_an_in_place_op_or_a_dropped_companion():
    assert required_scratch(DispatchIR("d", "x", "", "", (IR / "fill_matmul_exp_dyn.source.mlir").read_text())) == []


def test_element_type_of_memref_types():
    assert element_type_of("memref<1x17x7xi32>") == "i32"
    assert element_type_of("memref<31x1xi32, #hal.descriptor_type<storage_buffer>>") == "i32"
    assert element_type_of("memref<f16>") == "f16"


def test_an_allowance_admits_its_element_type_up_to_its_size_only():
    allowance = Allowance("iree_linalg_ext.topk", 1, "i32", 476, "result unused")
    assert allowance.admits("i32", 476) and not allowance.admits("i32", 480)
    assert not allowance.admits("f32", 4) and not allowance.admits("i32", None)  # dynamic: never


# --------------------------------------------------------------------------- the oracle: admitted vs excess


@pytest.mark.parametrize(
    "stem", ["scratch_topk_values_only", "scratch_sort_readonly_operand", "scratch_argmax_value_unused"]
)
def test_required_scratch_is_no_finding(stem):
    dispatch = recorded(stem)
    assert check_memory([dispatch]) == []
    assert profile([dispatch])["alloca"] == 0 and profile([dispatch])["copy"] == 0


def test_a_second_buffer_beyond_the_requirement_is_a_finding_that_says_what_was_allowed():
    dispatch = recorded("scratch_topk_values_only")
    final = inject_after_first_alloca(dispatch.final_ir, "%extra = memref.alloca() : memref<1x17x7xi32>")
    (finding,) = check_memory([recorded("scratch_topk_values_only", final=final)])
    assert finding.kind == "alloca" and len(finding.evidence["memory_ops"]) == 1
    (admitted,) = finding.evidence["required_scratch"]
    assert admitted["for"] == "iree_linalg_ext.topk" and admitted["why"] == "result unused"
    assert "allowed" in finding.message


@pytest.mark.parametrize(
    "line",
    [
        "%extra = memref.alloca() : memref<16xf64>",  # another element type than the accumulator's
        "%extra = memref.alloca() : memref<64x1024xf32>",  # the accumulator's type, beyond the stack limit
    ],
)
def test_buffers_the_rule_does_not_cover_are_still_findings(line):
    dispatch = recorded("scratch_argmax_value_unused")
    final = inject_after_first_alloca(dispatch.final_ir, line)
    (finding,) = check_memory([recorded("scratch_argmax_value_unused", final=final)])
    assert finding.kind == "alloca"
    assert [m["type"] for m in finding.evidence["memory_ops"]] == [
        line.rpartition(": ")[2]
    ]  # the accumulator is admitted
    assert [a["type"] for a in finding.evidence["required_scratch"]] == ["memref<16xf32>"]


def test_a_dynamic_scratch_on_the_stack_stays_a_finding():
    dispatch = recorded("scratch_argmax_value_unused")
    final = inject_after_first_alloca(dispatch.final_ir, "%extra = memref.alloca(%n) : memref<?xf32>")
    final = inject_after_first_alloca(final, "%n = arith.constant 16 : index")  # lands before the dynamic alloca
    findings = check_memory([recorded("scratch_argmax_value_unused", final=final)])
    assert [f.kind for f in findings] == ["alloca-dynamic"]


# --------------------------------------------------------------------------- the real compiler


def _memory_findings(program: str):
    from ireefuzz import sut

    artifact = sut.compile_mlir((IR / program).read_text(), sut.CompilerConfig())
    assert not isinstance(artifact, sut.CompileFailure), artifact
    return artifact, check_memory(artifact.dispatches)


@pytest.mark.iree
@pytest.mark.parametrize(
    "program",
    [
        "scratch_topk_values_only.program.mlir",
        "scratch_argmax_value_unused.program.mlir",
        "scratch_sort_readonly_operand.program.mlir",
        # stop 48 (host, seed 93811): an argsort of an iota by an iota, CSE'd into one value as both outs: each
        # needs a buffer of its own (the outsider: not a bug; it had been listed new as memory/alloca/sort@Default)
        "scratch_sort_outs_one_value.program.mlir",
    ],
)
def test_real_compiles_that_need_scratch_give_no_finding_and_record_what_they_needed(program):
    artifact, findings = _memory_findings(program)
    assert findings == []
    assert any(required_scratch(d) for d in artifact.dispatches)


@pytest.mark.iree
def test_real_topk_returning_both_results_needs_and_has_no_scratch():
    artifact, findings = _memory_findings("scratch_topk_both.program.mlir")
    assert findings == [] and not any(required_scratch(d) for d in artifact.dispatches)


def test_one_copy_of_the_operand_is_admitted_whatever_its_extent_when_the_operand_is_dynamic():
    dynamic = Allowance("iree_linalg_ext.sort", 0, "f32", 32768, "result unused", operand_bytes=None)
    static = Allowance("iree_linalg_ext.sort", 0, "f32", 476, "result unused", operand_bytes=476)
    assert dynamic.admits_copy("f32", None) and not dynamic.admits("f32", None)  # a copy yes, a dynamic buffer never
    assert static.admits_copy("f32", 476) and not static.admits_copy("f32", 480) and not static.admits_copy("i32", 4)


@pytest.mark.iree
def test_a_dynamic_argsort_keeping_only_its_keys_needs_a_copy_and_a_buffer_and_nothing_more():
    from ireefuzz import sut

    program = (IR.parents[1].parent / "corpus" / "stablehlo" / "iota_multi_consumer" / "program.mlir").read_text()
    artifact = sut.compile_mlir(program, sut.CompilerConfig())
    assert [f.signature for f in check_memory(artifact.dispatches)] == []


def test_a_top_k_whose_input_is_computed_in_its_dispatch_may_buffer_that_input():
    # Seed 15923 (x86-64-v2): the top-k's input is a fill fused into its dispatch (no binding behind it), and its
    # indices are unused; both buffers are what top-k needs (the outsider's stock-tool variants: each alloca goes
    # with one of the two).
    name = "main_dispatch_0_topk_6xDx6xf16_dispatch_tensor_store"
    ir = {k: (IR / f"topk_of_a_fill.{k}.mlir").read_text() for k in ("source", "final", "bufferized")}
    topk = DispatchIR(name, "Default", ir["final"], ir["bufferized"], ir["source"])
    assert sorted(a.why for a in required_scratch(topk)) == ["input computed in the dispatch", "result unused"]
    assert check_memory([topk]) == []
    assert check_memory([DispatchIR(name, "Default", ir["final"], ir["bufferized"], "")])  # unexplained: findings
