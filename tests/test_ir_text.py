"""The text reader (oracles.ir_text): the dispatch facts the judges read, from printed MLIR without bindings.

It stands in for the MLIR bindings where a release's own cannot read its IR (the 2023 releases' know no
IREE dialect), so it must read what the bindings read: checked on every recorded dump, and on a real
2023 release, where an injected alloca and an injected extra dispatch are caught and clean cases pass.
"""

from __future__ import annotations

import dataclasses
import json
from pathlib import Path

import pytest

from ireefuzz.oracles import fusion, ir, ir_text, memory
from ireefuzz.sut import DispatchIR

IR = Path(__file__).parent / "data" / "ir"
UNREADABLE = {"unreadable": "Dialect `hal' not found for custom op 'hal.executable'"}  # what 2023's bindings say
ALLOCA = """func.func @main_dispatch_0_generic_8_f32() {
  %c0 = arith.constant 0 : index
  %0 = hal.interface.binding.subspan set(0) binding(0) type(storage_buffer) alignment(64) offset(%c0) : memref<8xf32>
  %1 = memref.alloca() {alignment = 64 : i64} : memref<8xf32>
  memref.copy %0, %1 : memref<8xf32> to memref<8xf32>
  return
}"""


def _without_excerpts(rows):
    return [dict(r, excerpt="") for r in rows]


@pytest.mark.parametrize("path", sorted(p.name for p in IR.glob("*.mlir") if ".program." not in p.name))
def test_the_text_reader_reads_what_the_bindings_read(path):
    text = (IR / path).read_text()
    assert _without_excerpts(ir_text.scan(text)) == _without_excerpts(dataclasses.asdict(m) for m in memory.scan(text))
    if ".source." in path:
        assert ir_text.op_pattern(text) == ir.compute_op_pattern(ir.parse_ir(text))
        assert ir_text.moves_data(text) == memory._source_moves_data(text)
        assert ir_text.materializing(text) == fusion.materializing_op(text)


def test_memory_judges_from_the_text_when_the_bindings_cannot():
    injected = DispatchIR("main_dispatch_0_generic_8_f32", "CPUDefault", ALLOCA, ALLOCA, "", facts=UNREADABLE)
    kinds = {f.kind for f in memory.check_memory([injected])}
    assert kinds == {"alloca", "copy"}
    clean = ALLOCA.replace("  %1 = memref.alloca() {alignment = 64 : i64} : memref<8xf32>\n", "").replace(
        "  memref.copy %0, %1 : memref<8xf32> to memref<8xf32>\n", ""
    )
    assert (
        memory.check_memory(
            [DispatchIR("main_dispatch_0_generic_8_f32", "CPUDefault", clean, clean, "", facts=UNREADABLE)]
        )
        == []
    )


def test_fusion_judges_from_the_text_when_the_bindings_cannot():
    sources = [(IR / f"iota_concat.dispatch_{i}.source.mlir").read_text() for i in range(2)]
    stats = json.loads((IR / "iota_concat.statistics.json").read_text())
    dispatches = [
        DispatchIR(f"iota_concat_dispatch_{i}", "CPUDefault", "", "", s, facts=UNREADABLE)
        for i, s in enumerate(sources)
    ]
    read = {f.kind for f in fusion.check_fusion(dispatches, stats, graph_dispatch_budget=1)}
    assert read == {"materialized-producer", "extra-dispatches"}
    fused = [
        DispatchIR(
            f"iota_two_consumers_dispatch_{i}",
            "CPUDefault",
            "",
            "",
            (IR / f"iota_two_consumers.dispatch_{i}.source.mlir").read_text(),
            facts=UNREADABLE,
        )
        for i in range(2)
    ]
    assert fusion.check_fusion(fused, {}, graph_dispatch_budget=2) == []


@pytest.mark.parametrize(
    "name",
    [
        "scratch_sort_readonly_operand",
        "scratch_topk_values_only",
        "scratch_argmax_value_unused",
        "argsort_dyn.dispatch_1",
    ],
)
def test_the_scratch_an_ops_semantics_needs_is_read_from_the_text_too(name):
    from ireefuzz.oracles import scratch

    source = (IR / f"{name}.source.mlir").read_text()
    by_text = scratch.required_scratch(DispatchIR("d", "CPUDefault", "", "", source, facts=UNREADABLE))
    assert by_text == list(scratch._allowances_of(source))


def test_a_fact_the_text_cannot_read_leaves_the_oracle_unjudged_not_guessing(monkeypatch):
    from ireefuzz.errors import IRParseError

    monkeypatch.setattr(ir, "FACTS", dict(ir.FACTS))  # the fact declared below is not left behind
    dispatch = DispatchIR("d", "CPUDefault", "", "", "", facts=UNREADABLE)
    with pytest.raises(IRParseError, match="no text reader"):
        ir.dispatch_fact("a_fact_nobody_reads_from_text")(lambda d: 1)(dispatch)


# --------------------------------------------------------------------------- on a 2023 release


OLD = "20230404.479"
TWO_DISPATCHES = """func.func @main(%a: tensor<16x8xf32>, %b: tensor<8x16xf32>) -> (tensor<16x16xf32>, tensor<16xf32>) {
  %z = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<16x16xf32>
  %f = linalg.fill ins(%z : f32) outs(%e : tensor<16x16xf32>) -> tensor<16x16xf32>
  %m = linalg.matmul ins(%a, %b : tensor<16x8xf32>, tensor<8x16xf32>) outs(%f : tensor<16x16xf32>) -> tensor<16x16xf32>
  %e1 = tensor.empty() : tensor<16xf32>
  %f1 = linalg.fill ins(%z : f32) outs(%e1 : tensor<16xf32>) -> tensor<16xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d1, d0)>, affine_map<(d0, d1) -> (d0)>],
                       iterator_types = ["parallel", "reduction"]} ins(%m : tensor<16x16xf32>) outs(%f1 : \
tensor<16xf32>) {
  ^bb0(%x: f32, %acc: f32):
    %s = arith.addf %x, %acc : f32
    linalg.yield %s : f32
  } -> tensor<16xf32>
  return %m, %r : tensor<16x16xf32>, tensor<16xf32>
}"""


def _old_release():
    from ireefuzz.sut import releases

    if OLD not in releases.installed_versions():
        pytest.skip(f"IREE {OLD} is not installed (ireefuzz check --release {OLD})")
    from ireefuzz import sut

    return sut, sut.CompilerConfig(release=OLD, target_cpu="generic", observe=True)


@pytest.mark.iree
@pytest.mark.slow
def test_fusion_judges_on_a_2023_release_and_catches_an_extra_dispatch():
    sut, config = _old_release()
    assert "fusion" not in sut.oracles_not_judged(config)
    artifact = sut.compile_mlir(TWO_DISPATCHES, config)
    assert isinstance(artifact, sut.Artifact), artifact
    assert all(d.facts is not None and "unreadable" not in d.facts for d in artifact.dispatches)
    count = fusion.statistic(artifact.statistics, "dispatch-count")
    assert count >= 2
    extra = fusion.check_fusion(artifact.dispatches, artifact.statistics, graph_dispatch_budget=count - 1)
    assert [f.kind for f in extra] == ["extra-dispatches"]  # a dispatch past the budget: caught
    assert fusion.check_fusion(artifact.dispatches, artifact.statistics, graph_dispatch_budget=count) == []


@pytest.mark.iree
@pytest.mark.slow
def test_memory_judges_on_a_2023_release_and_catches_an_injected_alloca():
    """2023's iree-compile has no tree dump: the IR before iree-convert-to-llvm comes from stderr
    (``sut.dumps.printed_ir``), and its Python's bindings cannot read it: the text reader does."""
    import dataclasses

    from ireefuzz.sut.dumps import read_elsewhere

    sut, config = _old_release()
    assert sut.oracles_not_judged(config) == {}
    artifact = sut.compile_mlir(TWO_DISPATCHES, config)
    assert isinstance(artifact, sut.Artifact), artifact
    assert all(d.final_ir and d.bufferized_ir for d in artifact.dispatches)
    assert memory.check_memory(artifact.dispatches) == []  # clean
    first = artifact.dispatches[0]
    head, _, rest = first.final_ir.partition("\n")
    injected = dataclasses.replace(
        first, final_ir=f"{head}\n  %injected = memref.alloca() : memref<64xf32>\n{rest}", facts=None
    )
    import inspect

    reader = config if "config" in inspect.signature(read_elsewhere).parameters else sut.runtime_python_for(config)
    [read] = read_elsewhere((injected,), reader)  # by 2023's Python (ir_reader), as a campaign reads it
    findings = memory.check_memory([read])
    assert [f.kind for f in findings] == ["alloca"] and "memref<64xf32>" in findings[0].message


def test_ir_printed_to_stderr_is_read_back_and_kept_out_of_the_diagnostic():
    from ireefuzz.sut.dumps import printed_ir

    stderr = (
        "warning: before\n"
        "// -----// IR Dump Before CleanupBufferAllocView (iree-codegen-cleanup-buffer-alloc-view) //----- //\n"
        "func.func @d_dispatch_0() {\n  scf.for %i = %a to %b step %c {\n  }\n  return\n}\n\n"
        "// -----// IR Dump Before ConvertToLLVM (iree-convert-to-llvm) //----- //\n"
        "module {\n  func.func @d_dispatch_0() {\n    return\n  }\n}\n"
        "iree-lld: error: undefined symbol: roundevenf\n"
        '"builtin.module"() ({\n}) {sym_name = "d_dispatch_0"} : () -> ()\n'
    )
    rest, printed = printed_ir(stderr)
    assert set(printed) == {"iree-codegen-cleanup-buffer-alloc-view", "iree-convert-to-llvm"}
    assert "scf.for" in printed["iree-codegen-cleanup-buffer-alloc-view"]["d_dispatch_0"]
    assert "return" in printed["iree-convert-to-llvm"]["d_dispatch_0"]
    assert rest.startswith("warning: before\n") and "undefined symbol: roundevenf" in rest and "sym_name" in rest
    assert "IR Dump" not in rest and "scf.for" not in rest
