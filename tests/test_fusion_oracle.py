"""The fusion oracle on executable sources and statistics recorded from iree-compile 3.13."""

from __future__ import annotations

import dataclasses
import json
from pathlib import Path

import pytest

from ireefuzz.errors import IRParseError
from ireefuzz.oracles.fusion import check_fusion, materializing_op, statistic
from ireefuzz.sut import DispatchIR

IR = Path(__file__).parent / "data" / "ir"


def read(name: str) -> str:
    return (IR / name).read_text()


def recorded(program: str, count: int) -> tuple[list[DispatchIR], dict]:
    dispatches = [
        DispatchIR(
            name=f"{program}_dispatch_{i}",
            pipeline="CPUDefault",
            final_ir="",
            bufferized_ir="",
            source=read(f"{program}.dispatch_{i}.source.mlir"),
        )
        for i in range(count)
    ]
    return dispatches, json.loads(read(f"{program}.statistics.json"))


def test_materialized_iota_is_found_and_a_fused_iota_is_not():
    assert materializing_op(read("iota_concat.dispatch_0.source.mlir")).startswith("%2 = linalg.generic")
    assert materializing_op(read("argsort_dyn.dispatch_0.source.mlir")) is not None
    for fused in (
        "iota_two_consumers.dispatch_0",
        "iota_two_consumers.dispatch_1",
        "iota_concat.dispatch_1",
        "argsort_dyn.dispatch_1",
        "fill_matmul_exp_dyn",
    ):
        assert materializing_op(read(f"{fused}.source.mlir")) is None, fused


def test_check_fusion_on_the_iota_concat_program():
    dispatches, stats = recorded("iota_concat", 2)
    assert statistic(stats, "dispatch-count") == 3 and statistic(stats, "transient-memory-size") == 160
    findings = check_fusion(
        dispatches, stats, graph_dispatch_budget=1, transient_budget_bytes=0, dtype="i32", dims="SxSxS"
    )
    by_kind = {f.kind: f for f in findings}
    assert set(by_kind) == {"materialized-producer", "extra-dispatches", "transient-memory"}
    producer = by_kind["materialized-producer"]
    assert producer.signature == "fusion/materialized-producer/generic[index]/i32/SxSxS"
    assert producer.evidence["dispatch"] == "iota_concat_dispatch_0"
    assert producer.evidence["excerpt"].startswith("%2 = linalg.generic")
    assert by_kind["extra-dispatches"].evidence["dispatch_count"] == 3
    assert by_kind["transient-memory"].evidence["transient_memory_size"] == 160


def test_fused_iota_program_is_clean_within_budget():
    dispatches, stats = recorded("iota_two_consumers", 2)
    assert check_fusion(dispatches, stats, graph_dispatch_budget=2, transient_budget_bytes=0) == []


def test_no_budget_no_budget_findings_and_a_lone_producer_is_not_judged():
    dispatches, stats = recorded("argsort_dyn", 2)
    assert [f.kind for f in check_fusion(dispatches, stats)] == ["materialized-producer"]
    assert check_fusion(dispatches[:1], {}) == []  # nothing else could consume it


def test_dispatch_count_falls_back_to_the_dispatches():
    dispatches, _ = recorded("iota_two_consumers", 2)
    (finding,) = check_fusion(dispatches, {}, graph_dispatch_budget=1, graph_ops="iota>add", dtype="i32", dims="?xS")
    assert finding.signature == "fusion/extra-dispatches/iota>add/i32/?xS"
    assert finding.evidence["dispatch_count"] == 2


def test_unparsable_source_raises():
    broken = DispatchIR(name="d", pipeline="", final_ir="", bufferized_ir="", source="hal.executable @x {")
    with pytest.raises(IRParseError):
        check_fusion([broken, broken], {})


@pytest.mark.iree
def test_real_argsort_materializes_its_iota():
    from ireefuzz import sut

    artifact = sut.compile_mlir(read("inputs/argsort_dyn.mlir"), sut.CompilerConfig())
    assert isinstance(artifact, sut.Artifact), artifact
    kinds = [f.kind for f in check_fusion(artifact.dispatches, artifact.statistics)]
    assert kinds == ["materialized-producer"]


def test_program_op_pattern_joins_the_dispatches_in_order_each_op_once():

    from ireefuzz.oracles.ir import program_op_pattern

    argsort, _ = recorded("argsort_dyn", 2)
    assert program_op_pattern(argsort) == "generic[index]>sort"
    assert program_op_pattern(argsort[::-1]) == "sort>generic[index]"
    twice, _ = recorded("iota_two_consumers", 2)
    assert program_op_pattern(twice) == "generic[index]"  # deduplicated
    sourceless = [dataclasses.replace(d, source="") for d in argsort]
    assert program_op_pattern(sourceless) == "-" and program_op_pattern(sourceless, "main") == "main"


def test_a_constant_stored_into_a_window_of_a_larger_result_is_that_result_not_a_materialized_producer():
    """A concat of (arg, fill, arg): IREE writes each operand into its window of the result; the fill's dispatch
    stores its constant straight into the program's output (IREE 3.13 source, tests/data/ir)."""
    from pathlib import Path

    from ireefuzz.oracles import ir_text
    from ireefuzz.oracles.fusion import materializing_op

    source = (Path(__file__).parent / "data" / "ir" / "concat_fill_window.source.mlir").read_text()
    assert materializing_op(source) is None and ir_text.materializing(source) is None
    whole = source.replace("offsets = [0, 3], sizes = [13, 63]", "offsets = [0, 0], sizes = [13, 63]").replace(
        "tensor<readwrite:tensor<13x82xf32>>", "tensor<readwrite:tensor<13x63xf32>>"
    )
    assert whole != source
    assert materializing_op(whole) is not None and ir_text.materializing(whole) is not None  # the whole buffer: flagged


def test_the_host_program_says_which_dispatch_results_another_dispatch_reads():
    from ireefuzz.sut.dumps import dispatch_consumers

    # argsort: the iota's dispatch result reaches the sort's dispatch through a flow.tensor.reshape
    iota, sort = "argsort_dispatch_0_elementwise_broadcast_D_i32", "argsort_dispatch_1_sort_Dx6xf32"
    assert dispatch_consumers(read("argsort_dyn.host.mlir")) == {iota: (sort,), sort: ()}
    # an argmax over a unit dim folds to a fill of 0 that is the program's result: nothing reads it
    readers = dispatch_consumers(read("argmax_over_unit_dim_returned.host.mlir"))
    assert len(readers) == 2 and set(readers.values()) == {()}


def test_a_producer_whose_data_only_goes_back_to_the_caller_is_not_materialized_for_a_consumer():

    dispatches, stats = recorded("argsort_dyn", 2)
    returned = [dataclasses.replace(d, read_by=()) for d in dispatches]
    assert check_fusion(returned, stats) == []
    sort = "argsort_dispatch_1_sort_Dx6xf32"
    read_by_a_dispatch = [dataclasses.replace(d, read_by=(sort,)) for d in dispatches]
    (finding,) = check_fusion(read_by_a_dispatch, stats)
    assert finding.kind == "materialized-producer" and finding.evidence["read_by"] == [sort]


def test_a_materialized_producers_cause_names_what_reads_it():
    from ireefuzz.oracles.cause import assign_causes

    dispatches, stats = recorded("argsort_dyn", 2)
    sort, reduction = "argsort_dispatch_1_sort_Dx6xf32", "main_dispatch_1_reduction_8192x51200_i32"
    causes = []
    for readers in ((sort,), (reduction, reduction), None):
        (finding,) = check_fusion([dataclasses.replace(d, read_by=readers) for d in dispatches], stats)
        causes.append(assign_causes([finding])[0].cause)
    assert causes == [
        "fusion/materialized-producer/iota>sort@Default",
        "fusion/materialized-producer/iota>reduction@Default",
        "fusion/materialized-producer/iota@Default",  # the host program not read (an older release's dump)
    ]


@pytest.mark.iree
def test_real_folded_result_written_by_its_own_dispatch_is_no_fusion_finding():
    from ireefuzz import sut

    config = sut.CompilerConfig(target_cpu="generic")
    artifact = sut.compile_mlir(read("inputs/argmax_over_unit_dim_returned.mlir"), config)
    assert isinstance(artifact, sut.Artifact), artifact
    fill = [d for d in artifact.dispatches if materializing_op(d.source)]
    assert len(fill) == 1 and fill[0].read_by == ()  # the folded argmax: a fill of 0 returned
    assert check_fusion(artifact.dispatches, artifact.statistics) == []
    iota = sut.compile_mlir(read("inputs/argsort_dyn.mlir"), config)
    assert isinstance(iota, sut.Artifact), iota
    assert [d.read_by for d in iota.dispatches] == [("argsort_dispatch_1_sort_Dx6xf32",), ()]


def _attention_mask_static() -> list[DispatchIR]:
    """A static causal mask (an index-only linalg.generic) read by iree_linalg_ext.attention, from IREE 3.13
    (``inputs/attention_mask_static.mlir``, cpu generic): const-expr hoisting moved the mask into
    ``@__hoisted_tensor_128xf32``, computed by a ``util.initializer``'s dispatch and loaded by the attention's."""
    from ireefuzz.sut.dumps import host_flow

    flow = host_flow(read("attention_mask_static.host.mlir"))
    names = ("_initializer_0_dispatch_0_elementwise_broadcast_128_f32", "main_dispatch_0_attention_2x8x4x4x8")
    return [
        DispatchIR(
            name=name,
            pipeline="CPUDoubleTilingExpert",
            final_ir="",
            bufferized_ir="",
            source=read(f"attention_mask_static.dispatch_{i}.source.mlir"),
            read_by=flow.read_by[name],
            reads_hoisted=flow.reads_hoisted[name],
            hoists=flow.hoists[name],
        )
        for i, name in enumerate(names)
    ]


def test_the_host_program_says_which_dispatch_computes_a_hoisted_global_and_which_reads_it():
    from ireefuzz.sut.dumps import host_flow

    mask, attention = _attention_mask_static()
    assert (mask.hoists, mask.reads_hoisted, mask.read_by) == (("__hoisted_tensor_128xf32",), (), (attention.name,))
    assert (attention.hoists, attention.reads_hoisted) == ((), ("__hoisted_tensor_128xf32",))
    plain = host_flow(read("argsort_dyn.host.mlir"))  # nothing hoisted: as dispatch_consumers says
    assert set(plain.reads_hoisted.values()) == set(plain.hoists.values()) == {()}


def test_a_producer_hoisted_into_a_global_is_not_judged_never_clean():
    """The outsider's triage: the static variant of iota>attention was "clean" because the mask was hoisted, not
    fused. Hoisted, the fusion oracle says it did not judge; with no hoisted global read, it judges (clean)."""
    from ireefuzz.oracles import fusion

    dispatches = _attention_mask_static()
    assert check_fusion(dispatches, {}) == []  # the initializer's dispatch is hoisting's, not a kept producer
    assert fusion.not_judged(dispatches, []) == fusion.HOISTED and fusion.HOISTED.startswith("fusion:")
    unhoisted = [dataclasses.replace(d, reads_hoisted=(), hoists=()) for d in dispatches]
    assert fusion.not_judged(unhoisted, check_fusion(unhoisted[1:], {})) is None
    argsort, stats = recorded("argsort_dyn", 2)
    found = check_fusion(argsort, stats)
    assert fusion.not_judged([*argsort, dispatches[1]], found) is None  # a materialized producer: judged


@pytest.mark.iree
def test_real_attention_mask_materialized_by_default_fused_with_aggressive_fusion_and_hoisted_when_static():
    """IREE 3.13's default fusion policy fuses no producer into iree_linalg_ext.attention: the dynamic mask gets
    its own dispatch; --iree-dispatch-creation-enable-aggressive-fusion fuses it. Static, the mask is hoisted."""
    from ireefuzz import sut
    from ireefuzz.oracles import fusion, vocabulary
    from ireefuzz.oracles.cause import assign_causes

    config = sut.CompilerConfig(target_cpu="generic")
    program = read("inputs/attention_mask_dyn.mlir")
    default = sut.compile_mlir(program, config)
    aggressive = sut.compile_mlir(program, dataclasses.replace(config, flags=(vocabulary.AGGRESSIVE_FUSION_FLAG,)))
    assert isinstance(default, sut.Artifact) and isinstance(aggressive, sut.Artifact), (default, aggressive)
    (finding,) = assign_causes(check_fusion(default.dispatches, default.statistics))
    assert finding.cause == "fusion/materialized-producer/iota>attention@DoubleTilingExpert"
    assert len(aggressive.dispatches) == 1 and check_fusion(aggressive.dispatches, aggressive.statistics) == []
    static = sut.compile_mlir(read("inputs/attention_mask_static.mlir"), config)
    assert isinstance(static, sut.Artifact), static
    main = sut.dispatches_of(static, "main")
    assert check_fusion(main, static.statistics) == [] and fusion.not_judged(main, []) == fusion.HOISTED


def test_a_hoisted_producer_unjudges_the_fusion_oracle_only():
    """``check`` still judged the numbers, the run and the inputs of such a program (exit 0, not 2), and the
    campaign counts the reason against fusion alone."""
    from ireefuzz.core.evaluate import CaseResult
    from ireefuzz.oracles.fusion import HOISTED
    from ireefuzz.tools.campaign.record import oracles_not_judged
    from ireefuzz.tools.check import unjudged

    assert unjudged(CaseResult(None, (), not_judged=(HOISTED,))) is None
    assert oracles_not_judged([HOISTED]) == {"fusion"}


def _gathered(read_by_extract: bool) -> list[DispatchIR]:
    """Round H's host candidate (3.13): an f16 iota (dispatch 0) that dispatch 1 reads only through ``tensor.extract``
    in a generic's body; with ``read_by_extract`` off, dispatch 1 is the argsort's, which reads its iota as an
    operand."""
    producer = DispatchIR(
        "main_dispatch_0", "CPUDoubleTilingExpert", "", "", read("iota_gathered.dispatch_0.source.mlir")
    )
    reader_source = read(
        "iota_gathered.dispatch_1.source.mlir" if read_by_extract else "argsort_dyn.dispatch_1.source.mlir"
    )
    reader = DispatchIR("main_dispatch_1", "CPUDoubleTilingExpert", "", "", reader_source)
    return [dataclasses.replace(producer, read_by=("main_dispatch_1",)), reader]


def test_a_producer_read_only_through_tensor_extract_is_the_gather_source_cause_whatever_it_is():
    """Dispatch creation fuses a producer into an extract site only for a bit-extend or a transpose (open PR
    iree-org/iree#24310): one mechanism, keyed without the producer's kind, its consumer's role or its pipeline."""
    from ireefuzz.oracles import ir_text
    from ireefuzz.oracles.cause import cause_of

    assert ir_text.gathered_loads(read("iota_gathered.dispatch_1.source.mlir")) == ["tensor<?xf16>"]
    assert ir_text.gathered_loads(read("argsort_dyn.dispatch_1.source.mlir")) == []
    (found,) = check_fusion(_gathered(True), None)
    assert found.evidence["read_through"] == "tensor.extract"
    assert cause_of(found).id == "fusion/materialized-producer/gather-source"
    (operand,) = check_fusion(_gathered(False), None)
    assert "read_through" not in operand.evidence
    assert cause_of(operand).id.startswith("fusion/materialized-producer/iota>")


def test_a_producer_read_only_by_copies_is_the_copy_source_cause():
    """Round I (host, seed 91377; 3.13): an f32 iota read only by the copy dispatches of a strided slice and a concat
    (no linalg op to fuse it into, aggressive fusion or not): #13745's remaining part, one cause whatever reads."""
    from ireefuzz.oracles.cause import cause_of

    names = [f"main_dispatch_{i}" for i in range(3)]
    dispatches = [
        DispatchIR(name, "CPUDoubleTilingExpert", "", "", read(f"iota_copied.dispatch_{i}.source.mlir"))
        for i, name in enumerate(names)
    ]
    dispatches[0] = dataclasses.replace(dispatches[0], read_by=tuple(names[1:]))
    (found,) = check_fusion(dispatches, None)
    assert found.evidence["read_through"] == "a copy"
    assert cause_of(found).id == "fusion/materialized-producer/copy-source"


def test_a_reduction_over_a_fill_is_a_root_not_a_producer_left_unfused():
    """Round I (x86-64-v3, seed 26053; 3.13): a max over a fill, read by an argmax's dispatch, gets its own dispatch
    by design (a reduction is a root; aggressive fusion changes nothing): no materialized producer, in the bindings'
    reading and in the text's."""
    from ireefuzz.oracles import ir_text

    source = read("max_of_fill_into_argmax.dispatch_0.source.mlir")
    assert materializing_op(source) is None and ir_text.materializing(source) is None
    assert ir_text.reduces('%3 = linalg.generic {iterator_types = ["parallel", "reduction"]} ins(%2 : tensor<?x2xi32>)')
    iota = read("iota_copied.dispatch_0.source.mlir")  # a parallel producer still is one
    assert materializing_op(iota) is not None and ir_text.materializing(iota) is not None


def test_a_producer_read_as_the_source_of_a_gather_op_is_the_gather_source_cause_across_a_host_reshape():
    """Round J (x86-64-v3, seed 77239; 3.13): an index generic folded to a splat, stored as tensor<81xi32>, is read
    as tensor<9x9xi32> by an iree_linalg_ext.gather as its source: the gather-source cause (was fill>gather)."""
    from ireefuzz.oracles.cause import cause_of
    from ireefuzz.oracles.fusion import same_data

    names = ["main_dispatch_0", "main_dispatch_1"]
    dispatches = [
        DispatchIR(name, "CPUDoubleTilingExpert", "", "", read(f"splat_into_gather_op.dispatch_{i}.source.mlir"))
        for i, name in enumerate(names)
    ]
    dispatches[0] = dataclasses.replace(dispatches[0], read_by=(names[1],))
    (found,) = check_fusion(dispatches, None)
    assert cause_of(found).id == "fusion/materialized-producer/gather-source"
    assert same_data("tensor<81xi32>", "tensor<9x9xi32>") and not same_data("tensor<81xi32>", "tensor<9x9xf32>")
    assert not same_data("tensor<?xf16>", "tensor<3xf16>")


def test_an_iota_read_broadcast_through_tensor_extract_is_the_gather_source_cause():
    """Stop 42 (x86-64-v3, seed 28463; 3.13): an iota stored as tensor<?xf32> is read by the next dispatch, after a
    broadcast on the host, as tensor<2x?xf32> through tensor.extract; the outsider: GatherFusionPattern's policy
    (PR #24310), the known gather-source cause. The types did not match (dynamic ones only when equal), so it was
    called new (iota>elementwise)."""
    from ireefuzz.oracles.cause import cause_of
    from ireefuzz.oracles.fusion import same_data

    names = ["main_dispatch_1", "main_dispatch_2"]
    dispatches = [
        DispatchIR(
            name, "CPUDoubleTilingExpert", "", "", read(f"iota_broadcast_into_extract.dispatch_{i + 1}.source.mlir")
        )
        for i, name in enumerate(names)
    ]
    dispatches[0] = dataclasses.replace(dispatches[0], read_by=(names[1],))
    (found,) = check_fusion(dispatches, None)
    assert cause_of(found).id == "fusion/materialized-producer/gather-source"
    assert same_data("tensor<?xf32>", "tensor<2x?xf32>") and not same_data("tensor<?xf32>", "tensor<?x2xf32>")
    assert not same_data("tensor<?xf32>", "tensor<2x?xf16>") and not same_data("tensor<2x?xf32>", "tensor<?xf32>")


def test_a_producer_read_only_as_a_contractions_operand_is_one_cause_whatever_it_is():
    """Round 40 (x86-64-v3, seed 60493): an iota read as a batch_matmul's operand was called new (iota>contraction);
    dispatch creation fuses no producer into a contraction's operands, by design: one mechanism, keyed without the
    producer's kind (shown failing with the contraction way left out of READ_THROUGH)."""
    from ireefuzz.oracles import fusion

    compute = read("argsort_dyn.dispatch_1.source.mlir")  # any dispatch with a compute op
    matmul = DispatchIR("main_dispatch_1_batch_matmul_2xDx1x1_f16", "CPUDoubleTilingExpert", "", "", compute)
    sort = DispatchIR("main_dispatch_1_sort_D_i32", "CPUDoubleTilingExpert", "", "", compute)
    excerpt = "%3 = linalg.generic ... -> tensor<2x?x1xf16>"
    assert fusion.read_through(excerpt, [matmul]) == "a contraction"
    assert fusion.READ_THROUGH["a contraction"] == "contraction-operand"
    assert fusion.read_through(excerpt, [sort]) == ""
    assert fusion.read_through(excerpt, [matmul, sort]) == ""  # every reader must read it so


@pytest.mark.iree
def test_an_iota_into_a_batch_matmul_is_the_by_design_contraction_operand_cause_on_the_real_compiler(tmp_path):
    """The round-40 bundle's program, compiled: the iota gets its own dispatch, read by the batch_matmul's one;
    the cause is contraction-operand, which the shipped baseline knows (by-design)."""
    import subprocess
    import sys

    program = Path(__file__).parent / "data" / "ir" / "inputs" / "iota_into_batch_matmul.mlir"
    argv = ["check", str(program), "--shapes", "2x1x1,2x3x1", "--oracles", "fusion", "--target-cpu", "x86-64-v3"]
    done = subprocess.run([sys.executable, "-m", "ireefuzz.cli", *argv], capture_output=True, text=True, cwd=tmp_path)
    assert "fusion/materialized-producer/contraction-operand (known: the baseline: by-design)" in done.stdout
    assert "0 new cause(s)" in done.stderr, done.stdout + done.stderr


def test_a_producer_read_only_as_a_top_ks_input_is_one_by_design_cause_whatever_it_is():
    """Stop 47 (host, seed 83117): an iota read by a top-k was called new (iota>topk); dispatch creation fuses no
    producer into iree_linalg_ext.topk (an exp of an argument stays apart too, with aggressive fusion: the outsider)."""
    from ireefuzz.oracles import fusion

    compute = read("argsort_dyn.dispatch_1.source.mlir")
    topk = DispatchIR("main_dispatch_1_topk_Dx2x1xf32", "CPUDoubleTilingExpert", "", "", compute)
    sort = DispatchIR("main_dispatch_1_sort_D_i32", "CPUDoubleTilingExpert", "", "", compute)
    excerpt = "%3 = linalg.generic ... -> tensor<?x2x1xf32>"
    assert fusion.read_through(excerpt, [topk]) == "a top-k" and fusion.READ_THROUGH["a top-k"] == "topk-operand"
    assert fusion.read_through(excerpt, [sort]) == ""  # an argsort's iota stays #13745's iota>sort


@pytest.mark.iree
def test_an_iota_into_a_top_k_is_the_by_design_topk_operand_cause_on_the_real_compiler(tmp_path):
    import subprocess
    import sys

    program = Path(__file__).parent / "data" / "ir" / "inputs" / "iota_into_topk.mlir"
    argv = ["check", str(program), "--shapes", "3x2x1", "--oracles", "fusion"]
    done = subprocess.run([sys.executable, "-m", "ireefuzz.cli", *argv], capture_output=True, text=True, cwd=tmp_path)
    assert "fusion/materialized-producer/topk-operand (known: the baseline: by-design)" in done.stdout
    assert "0 new cause(s)" in done.stderr, done.stdout + done.stderr


def test_a_producer_a_loop_carries_is_read_by_no_dispatch():
    """Stop 48 (host, seed 93811): an iota that is the init of an scf.while-carried tensor was taken for the input
    of the dispatch after the loop (iota>elementwise, "a regression of #13745"); no dispatch region crosses a loop,
    so the loop's result is not the producer's data as a dispatch's direct input (the outsider: by design)."""
    from ireefuzz.sut.dumps import host_flow

    flow = host_flow(read("iota_loop_init.host.mlir"))  # iota -> scf.while (body: add) -> mul, IREE 3.13, generic
    assert flow.read_by["main_dispatch_0_elementwise_broadcast_3_f32"] == ()
    assert set(flow.read_by) == {f"main_dispatch_{i}_elementwise_{s}_f32" for i, s in enumerate(("broadcast_3", 3, 3))}


@pytest.mark.iree
def test_an_iota_a_loop_carries_is_no_fusion_finding_on_the_real_compiler(tmp_path):
    import subprocess
    import sys

    program = Path(__file__).parent / "data" / "ir" / "inputs" / "iota_loop_init.mlir"
    argv = ["check", str(program), "--oracles", "fusion"]
    done = subprocess.run([sys.executable, "-m", "ireefuzz.cli", *argv], capture_output=True, text=True, cwd=tmp_path)
    assert "0 finding(s), 0 new cause(s)" in done.stderr + done.stdout, done.stdout + done.stderr
