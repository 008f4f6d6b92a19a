"""The memory oracle on IR recorded from iree-compile 3.13 (tests/data/ir) and handwritten IR."""

from __future__ import annotations

from pathlib import Path

import pytest

from ireefuzz.errors import IRParseError
from ireefuzz.oracles.memory import check_memory, moves_data, profile, promoted_by_llvm, scan
from ireefuzz.sut import DispatchIR

IR = Path(__file__).parent / "data" / "ir"


def read(name: str) -> str:
    return (IR / name).read_text()


def dispatch(final_ir: str = "", bufferized_ir: str = "", source: str = "", name: str = "d0") -> DispatchIR:
    return DispatchIR(
        name=name, pipeline="DoubleTilingExpert", final_ir=final_ir, bufferized_ir=bufferized_ir, source=source
    )


def kinds(ir_text: str) -> list[str]:
    return [m.kind for m in scan(ir_text)]


# --------------------------------------------------------------------------- scan, recorded IR


def test_unaligned_static_has_three_3x7_allocas_before_llvm():
    ops = scan(read("fill_matmul_exp_33x16x49.final.mlir"))
    assert [(m.kind, m.type, m.bytes, m.dynamic, m.in_loop) for m in ops] == [
        ("alloca", "memref<3x7xf32>", 84, False, False)
    ] * 3


def test_unaligned_static_has_three_copies_between_allocas_after_bufferization():
    copies = [m for m in scan(read("fill_matmul_exp_33x16x49.bufferized.mlir")) if m.kind == "copy"]
    assert len(copies) == 3
    assert all(m.op == "linalg.generic" and m.in_loop and m.dynamic for m in copies)


def test_aligned_and_add_are_clean():
    assert kinds(read("fill_matmul_exp_32x16x48.bufferized.mlir")) == []
    assert kinds(read("add_32x48.final.mlir")) == []


def test_dynamic_fill_matmul_exp_keeps_one_8x16_alloca_and_no_copy():
    assert [(m.kind, m.type, m.bytes) for m in scan(read("fill_matmul_exp_dyn.bufferized.mlir"))] == [
        ("alloca", "memref<8x16xf32>", 512)
    ]


def test_self_copies_right_after_bufferization_do_not_count():
    # Five copy-like generics, every one a buffer onto itself (through loop-carried values,
    # casts and identical subviews); the add has one full-view subview self-copy.
    assert kinds(read("fill_matmul_exp_dyn.after_bufferize.mlir")) == ["alloca"]
    assert kinds(read("add_32x48.after_bufferize.mlir")) == []


# --------------------------------------------------------------------------- scan, handwritten IR


def test_dynamic_alloca():
    (op,) = scan(read("hand.alloca_dynamic.mlir"))
    assert (op.kind, op.dynamic, op.bytes) == ("alloca", True, None)


@pytest.mark.parametrize("name", ["hand.alloca_in_loop.mlir", "hand.alloca_in_cfg_loop.mlir"])
def test_alloca_in_loop(name):
    (op,) = scan(read(name))
    assert op.in_loop and not op.dynamic


def test_copies_between_distinct_buffers_count_and_self_copies_do_not():
    ops = scan(read("hand.copies.mlir"))
    assert [(m.kind, m.op) for m in ops] == [
        ("alloc", "memref.alloc"),
        ("copy", "memref.copy"),
        ("copy", "linalg.copy"),
        ("copy", "linalg.generic"),
        ("copy", "memref.copy"),  # subviews at different offsets
    ]
    assert all("\n" not in m.excerpt for m in ops)


def test_unparsable_text_raises_ir_parse_error():
    with pytest.raises(IRParseError, match="first 8 lines"):
        scan("func.func @broken( {\n  %0 = memref.alloca() :\n")


# --------------------------------------------------------------------------- check_memory


def test_check_memory_signature_and_evidence():
    findings = check_memory(
        [
            dispatch(
                final_ir=read("fill_matmul_exp_33x16x49.final.mlir"),
                bufferized_ir=read("fill_matmul_exp_33x16x49.bufferized.mlir"),
                name="fill_matmul_exp_dispatch_0_matmul_33x49x16_f32",
            )
        ],
        dtype="f32",
        dims="SxS,SxS",
    )
    by_kind = {f.kind: f for f in findings}
    assert set(by_kind) == {"alloca", "copy"}
    alloca = by_kind["alloca"]
    assert alloca.signature == "memory/alloca/generic/f32/SxS,SxS"  # no source: ops from the bufferized IR
    assert alloca.evidence["seen_at"] == "before iree-convert-to-llvm"
    assert alloca.evidence["pipeline"] == "DoubleTilingExpert"
    assert len(alloca.evidence["memory_ops"]) == 3
    assert by_kind["copy"].evidence["seen_at"] == "after bufferization cleanup"


def test_ops_pattern_comes_from_the_source_or_graph_ops():
    d = dispatch(final_ir=read("hand.alloca_dynamic.mlir"), source=read("fill_matmul_exp_dyn.source.mlir"))
    (finding,) = check_memory([d], dtype="f32", dims="?x?")
    assert finding.signature == "memory/alloca-dynamic/fill>matmul>generic[exp]/f32/?x?"
    (finding,) = check_memory([d], graph_ops="fill>matmul>exp", dtype="f32", dims="?x?")
    assert finding.signature == "memory/alloca-dynamic/fill>matmul>exp/f32/?x?"


def test_static_allocas_within_the_allowance_pass_but_loops_never_do():
    final = read("fill_matmul_exp_33x16x49.final.mlir")
    assert check_memory([dispatch(final_ir=final)], max_static_alloca_bytes=84) == []
    assert len(check_memory([dispatch(final_ir=final)], max_static_alloca_bytes=83)) == 1
    in_loop = check_memory([dispatch(final_ir=read("hand.alloca_in_loop.mlir"))], max_static_alloca_bytes=1 << 20)
    assert [f.kind for f in in_loop] == ["alloca-in-loop"]


def test_copies_are_read_from_bufferized_ir_only():
    copies_as_final = check_memory([dispatch(final_ir=read("hand.copies.mlir"))])
    assert [f.kind for f in copies_as_final] == ["alloc"]
    copies_as_bufferized = check_memory([dispatch(bufferized_ir=read("hand.copies.mlir"))])
    assert [f.kind for f in copies_as_bufferized] == ["copy"]


def test_fault_injection_alloca_and_copy_on_clean_ir():
    clean_final, clean_buffers = read("add_32x48.final.mlir"), read("add_32x48.after_bufferize.mlir")
    assert check_memory([dispatch(final_ir=clean_final, bufferized_ir=clean_buffers)]) == []

    header = "func.func @add_dispatch_0_elementwise_1536_f32() {\n"
    assert header in clean_final
    with_alloca = clean_final.replace(header, header + "    %injected = memref.alloca() : memref<16xf32>\n", 1)
    (finding,) = check_memory([dispatch(final_ir=with_alloca)])
    assert finding.kind == "alloca" and finding.evidence["memory_ops"][0]["bytes"] == 64

    tail = "  return\n}"
    assert clean_buffers.count(tail) == 1
    injected_copy = (
        "  %injected = memref.alloca() : memref<1536xf32>\n"
        "  memref.copy %3, %injected : memref<1536xf32, #hal.descriptor_type<storage_buffer>> to memref<1536xf32>\n"
    )
    (finding,) = check_memory([dispatch(bufferized_ir=clean_buffers.replace(tail, injected_copy + tail))])
    assert finding.kind == "copy"


def test_profile_counts_every_kind():
    counts = profile(
        [
            dispatch(
                final_ir=read("fill_matmul_exp_33x16x49.final.mlir"),
                bufferized_ir=read("fill_matmul_exp_33x16x49.bufferized.mlir"),
            ),
            dispatch(final_ir=read("hand.alloca_dynamic.mlir")),
        ]
    )
    assert counts == {"alloca": 3, "alloca-dynamic": 1, "alloca-in-loop": 0, "alloc": 0, "copy": 3, "alloca_bytes": 252}


# --------------------------------------------------------------------------- what makes a copy a defect

GATHER = "gather_dispatch_0_gather_31x35xi32_dispatch_tensor_store"
GATHER_ROW_COPY = (
    "    linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>]"
)


def _gather(bufferized_ir: str | None = None, source: str | None = None) -> DispatchIR:
    return DispatchIR(
        GATHER,
        "LinalgExtTileAndVectorize",
        "",
        bufferized_ir or read("gather_31x35.bufferized.mlir"),
        read("gather_31x35.source.mlir") if source is None else source,
    )


def test_the_gathers_own_row_copy_between_bindings_is_not_a_finding():
    (copy,) = scan(read("gather_31x35.bufferized.mlir"))  # one row per index, %src row -> %out row
    assert copy.kind == "copy" and copy.in_loop and not copy.staged
    assert moves_data(_gather())
    assert check_memory([_gather()]) == [] and profile([_gather()])["copy"] == 0


def test_the_same_copy_is_a_finding_where_the_dispatchs_op_does_not_move_data():
    matmul_source = read("fill_matmul_exp_dyn.source.mlir")
    (finding,) = check_memory([_gather(source=matmul_source)])
    assert finding.kind == "copy"
    assert [f.kind for f in check_memory([_gather(source="")])] == ["copy"]  # no source: every copy is judged


def test_fault_injection_a_staging_copy_inside_the_gather_dispatch_is_caught():
    buffers = read("gather_31x35.bufferized.mlir")
    assert buffers.count(GATHER_ROW_COPY) == 1 and buffers.count("ins(%subview_2 ") == 1
    staged = buffers.replace(
        GATHER_ROW_COPY,
        (
            "    %stage = memref.alloca() : memref<1x35xi32>\n"
            "    memref.copy %subview_2, %stage : memref<1x35xi32, strided<[35, 1], offset: ?>, "
            "#hal.descriptor_type<storage_buffer>> to memref<1x35xi32>\n" + GATHER_ROW_COPY
        ),
    ).replace(
        "ins(%subview_2 : memref<1x35xi32, strided<[35, 1], offset: ?>, #hal.descriptor_type<storage_buffer>>)",
        "ins(%stage : memref<1x35xi32>)",
    )
    (finding,) = check_memory([_gather(staged)])
    assert finding.kind == "copy" and len(finding.evidence["memory_ops"]) == 2  # into the stage and out of it


def test_staging_through_an_alloca_or_alloc_is_seen_through_views_and_bindings_through_casts():
    ops = [(m.op, m.staged) for m in scan(read("hand.staging_copies.mlir")) if m.kind == "copy"]
    assert ops == [("linalg.generic", False), ("memref.copy", True), ("linalg.copy", True), ("memref.copy", True)]
    gather_like = dispatch(bufferized_ir=read("hand.staging_copies.mlir"), source=read("gather_31x35.source.mlir"))
    (finding,) = check_memory([gather_like])
    assert len(finding.evidence["memory_ops"]) == 3  # the binding-to-binding row copy is the gather's own


HAND_SOURCES = {  # executable sources written by hand: does the dispatch's own op move data?
    "transpose": (
        "linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d1, d0)>], "
        'iterator_types = ["parallel", "parallel"]} ins(%a : tensor<4x8xf32>) outs(%e : tensor<8x4xf32>) {\n'
        "^bb0(%x: f32, %y: f32):\n  linalg.yield %x : f32\n} -> tensor<8x4xf32>",
        True,
    ),
    "pad": (
        "tensor.pad %a low[0, 0] high[1, 0] {\n^bb0(%i: index, %j: index):\n  tensor.yield %c : f32\n}"
        " : tensor<4x8xf32> to tensor<5x8xf32>",
        True,
    ),
    "exp": (
        "linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d1, d0)>], "
        'iterator_types = ["parallel", "parallel"]} ins(%a : tensor<4x8xf32>) outs(%e : tensor<8x4xf32>) {\n'
        "^bb0(%x: f32, %y: f32):\n  %z = math.exp %x : f32\n  linalg.yield %z : f32\n} -> tensor<8x4xf32>",
        False,
    ),
}


@pytest.mark.parametrize("name", sorted(HAND_SOURCES))
def test_moves_data_reads_the_dispatchs_own_op(name):
    body, expected = HAND_SOURCES[name]
    source = (
        f"func.func @d(%a: tensor<4x8xf32>, %e: tensor<8x4xf32>, %c: f32) -> tensor<?x?xf32> {{\n"
        f"  %r = {body}\n  %d = tensor.cast %r : {body.rsplit(' ', 1)[1]} to tensor<?x?xf32>\n"
        f"  return %d : tensor<?x?xf32>\n}}\n"
    )
    assert moves_data(dispatch(source=source)) is expected


@pytest.mark.parametrize(
    "name,expected",
    [
        ("fill_matmul_exp_dyn.source.mlir", False),
        ("argsort_dyn.dispatch_0.source.mlir", False),
        ("iota_concat.dispatch_1.source.mlir", True),  # no compute op
        ("gather_31x35.source.mlir", True),
    ],
)
def test_moves_data_on_recorded_sources(name, expected):
    assert moves_data(dispatch(source=read(name))) is expected


# --------------------------------------------------------------------------- the real compiler


def _compile(name: str):
    from ireefuzz import sut

    artifact = sut.compile_mlir(read(f"inputs/{name}"), sut.CompilerConfig())
    assert isinstance(artifact, sut.Artifact), artifact
    return artifact


@pytest.mark.iree
def test_real_dynamic_fill_matmul_exp_has_an_alloca_and_static_add_has_none():
    dynamic = _compile("fill_matmul_exp_dyn.mlir")
    findings = check_memory(dynamic.dispatches, dtype="f32", dims="?x?,?x?")
    assert "memory/alloca/fill>matmul>generic[exp]/f32/?x?,?x?" in {f.signature for f in findings}
    add = _compile("add_32x48.mlir")
    assert add.dispatches and all(d.final_ir and d.bufferized_ir for d in add.dispatches)
    assert check_memory(add.dispatches) == []


@pytest.mark.iree
def test_real_gather_has_its_row_copy_and_no_finding():
    gather = _compile("gather_31x35.mlir")
    (d,) = gather.dispatches
    assert [m.kind for m in scan(d.bufferized_ir)] == ["copy"] and moves_data(d)
    assert check_memory(gather.dispatches) == []


# --------------------------------------------------------------------------- a remainder computed as a copy


def remainder(name: str = "main_dispatch_0_elementwise_833_f32", bufferized: str | None = None) -> DispatchIR:
    """A causal-mask select over 7x17x7 (IREE 3.13): the peeled last element keeps its input, and IREE writes it
    as a copy-shaped generic from the input binding's window to the same window of the output."""
    text = read("elementwise_select_remainder.bufferized.mlir") if bufferized is None else bufferized
    return DispatchIR(
        name=name,
        pipeline="DoubleTilingExpert",
        final_ir="",
        bufferized_ir=text,
        source=read("elementwise_select_remainder.source.mlir"),
    )


def test_a_copy_between_the_same_window_of_two_bindings_in_an_elementwise_dispatch_is_the_op_itself():
    (copy,) = [m for m in scan(remainder().bufferized_ir) if m.kind == "copy"]
    assert copy.aligned and not copy.staged
    assert check_memory([remainder()]) == []


def test_the_same_copy_is_a_finding_outside_an_elementwise_dispatch_or_between_other_windows():
    assert [f.kind for f in check_memory([remainder(name="main_dispatch_0_reduction_833_f32")])] == ["copy"]
    lines = read("elementwise_select_remainder.bufferized.mlir").splitlines()
    source = next(k for k, line in enumerate(lines) if line.strip().startswith("%subview = memref.subview"))
    lines[source] = lines[source].replace("[832]", "[831]").replace("offset: 832", "offset: 831")  # another window
    copy = next(k for k, line in enumerate(lines) if "ins(%subview :" in line)
    lines[copy] = lines[copy].replace("offset: 832", "offset: 831", 1)
    shifted = "\n".join(lines) + "\n"
    assert [f.kind for f in check_memory([remainder(bufferized=shifted)])] == ["copy"]


# --------------------------------------------------------------------------- what survives LLVM


def _with_llvm(final_ir: str, llvm_ir: str, name: str) -> DispatchIR:
    return DispatchIR(name=name, pipeline="DataTiling", final_ir=final_ir, bufferized_ir="", source="", llvm_ir=llvm_ir)


def test_an_alloca_llvm_promotes_to_registers_is_no_finding():
    # The three 3x7 allocas of the unaligned matmul, with an optimized LLVM IR that holds no alloca (the recorded
    # unpack's, where SROA made its buffer a load and a store): promoted, no finding; unknown LLVM IR: judged.
    final = read("fill_matmul_exp_33x16x49.final.mlir")
    assert check_memory([_with_llvm(final, "", "d0")]), "unknown LLVM IR: still judged"
    assert check_memory([_with_llvm(final, read("unpack_partial_tile.optimized.ll"), "d0")]) == []


def test_the_one_vector_buffer_of_a_split_partial_write_is_no_finding_and_a_second_store_makes_it_one():
    # x86-64-v2, an unpack of one partial static tile (1x4 -> 1): the vector is stored whole into a memref<4xf32>
    # and one element is loaded back out (the full/partial split, IREE's design), whether or not LLVM removes it.
    final = read("unpack_partial_tile.final.mlir")
    (buffer,) = scan(final)
    assert buffer.one_vector and check_memory([_with_llvm(final, "", "main_dispatch_0_unpack_f32")]) == []
    twice = final.replace(
        "  vector.store %2, %alloca[%c0] : memref<4xf32>, vector<4xf32>\n",
        "  vector.store %2, %alloca[%c0] : memref<4xf32>, vector<4xf32>\n" * 2,
    )
    assert twice != final and not scan(twice)[0].one_vector
    assert [f.kind for f in check_memory([_with_llvm(twice, "", "main_dispatch_0_unpack_f32")])] == ["alloca"]


def test_the_one_vector_buffer_of_a_split_partial_read_is_no_finding_and_a_second_whole_load_makes_it_one():
    # A padded pack 1 -> 1x3 (seed 84407): the buffer is filled with the padding and the one element inside the
    # source, element by element, then loaded whole once as vector<3xf16>.
    final = read("pack_padded_partial_tile.final.mlir")
    (buffer,) = scan(final)
    assert buffer.one_vector and check_memory([_with_llvm(final, "", "d0")]) == []
    load = next(line for line in final.splitlines() if "= vector.load %alloca" in line)
    twice = final.replace(load, load + "\n" + load.replace("%", "%again_", 1))
    assert twice != final and not scan(twice)[0].one_vector
    assert [f.kind for f in check_memory([_with_llvm(twice, "", "d0")])] == ["alloca"]


def test_an_alloca_that_survives_llvm_stays_a_finding():
    # An excerpt of the dynamic fill -> matmul -> exp's optimized LLVM IR: two [56 x float] allocas remain.
    llvm_ir = read("fill_matmul_exp_dyn.optimized.ll")
    kept = _with_llvm(read("fill_matmul_exp_33x16x49.final.mlir"), llvm_ir, "d0")
    assert [f.kind for f in check_memory([kept])] == ["alloca"]


def test_a_copy_into_a_promoted_alloca_goes_with_it_and_one_between_bindings_stays():
    ir = read("hand.staging_copies.mlir")
    staged = [m for m in scan(ir) if m.kind == "copy"]
    assert any("alloca" in (m.source, m.target) for m in staged)
    promoted = DispatchIR("d0", "X", ir, ir, "", llvm_ir="define internal i32 @d0() {\n  ret i32 0\n}\n")
    left = [m for f in check_memory([promoted]) for m in f.evidence["memory_ops"]]
    assert all("alloca" not in (m.get("source"), m.get("target"), m["op"]) for m in left)


def test_read_llvm_functions_takes_each_function_to_its_closing_brace(tmp_path):
    from ireefuzz.sut.dumps import read_llvm_functions

    body = read("unpack_partial_tile.optimized.ll")
    (tmp_path / "module_main_dispatch_0_embedded_elf_x86_64.optimized.ll").write_text(
        "; header\n" + body + "\ndefine internal float @helper(float %0) {\n  %2 = alloca i16\n  ret float %0\n}\n"
    )
    functions = read_llvm_functions(tmp_path)
    assert functions["main_dispatch_0_unpack_f32"].strip() == body.strip()
    assert "alloca" in functions["helper"] and read_llvm_functions(tmp_path / "absent") == {}


@pytest.mark.iree
def test_real_unpack_partial_tile_alloca_is_promoted_and_dynamic_matmul_alloca_is_not():
    from ireefuzz import sut

    artifact = sut.compile_mlir(read("unpack_partial_tile.program.mlir"), sut.CompilerConfig(target_cpu="x86-64-v2"))
    assert isinstance(artifact, sut.Artifact), artifact
    (unpack,) = artifact.dispatches
    assert scan(unpack.final_ir) and unpack.llvm_ir  # an alloca before LLVM, and the LLVM IR was read
    assert promoted_by_llvm(unpack) and check_memory(artifact.dispatches) == []
    # Seed 84407 (host): a padded pack 1 -> 1x3 reads through a one-vector buffer (the read side of the split).
    padded = sut.compile_mlir(read("pack_padded_partial_tile.program.mlir"), sut.CompilerConfig())
    assert isinstance(padded, sut.Artifact), padded
    assert scan(padded.dispatches[0].final_ir) and check_memory(padded.dispatches) == []
    # Seed 29411: 1x16 -> 3 keeps its one-vector buffer in LLVM; the split's design, still no finding.
    kept = sut.compile_mlir(read("unpack_partial_tile_i32.program.mlir"), sut.CompilerConfig(target_cpu="x86-64-v2"))
    assert isinstance(kept, sut.Artifact), kept
    assert not promoted_by_llvm(kept.dispatches[0]) and check_memory(kept.dispatches) == []
    dynamic = _compile("fill_matmul_exp_dyn.mlir")
    assert "alloca" in {f.kind for f in check_memory(dynamic.dispatches)}


def test_copies_in_and_out_of_the_scratch_a_sort_requires_are_part_of_it():
    # Seed 61837 (host): a sort of a slice of a read-only argument, its indices unused. Bufferization stages the
    # slice on the stack (3xf16), sorts it there with the index scratch (3xi32), and copies it out: three copies,
    # two allowed by the scratch rule, the third (out of the admitted buffer) was a false memory/copy/sort cause.
    name = "main_dispatch_1_sort_3xf16_dispatch_tensor_store"
    final, bufferized = read("sort_slice_readonly.final.mlir"), read("sort_slice_readonly.bufferized.mlir")
    sort = DispatchIR(name, "Default", final, bufferized, read("sort_slice_readonly.source.mlir"))
    assert [(m.source, m.target) for m in scan(bufferized) if m.kind == "copy"][-1] == ("alloca", "binding")
    assert check_memory([sort]) == []
    # Without the sort's requirement (no source to read it from) the buffers are findings, and each copy is theirs.
    unexplained = check_memory([DispatchIR(name, "Default", final, bufferized, "")])
    assert {f.kind for f in unexplained} == {"alloca", "copy"}


# --------------------------------------------------------------------------- the role a stack buffer serves


def test_a_reduction_fused_before_an_elementwise_root_names_the_stack_buffer_a_reductions():
    """Stop 46 (x86-64-v3 seed 71147): a row max broadcast into a matrix, one dispatch IREE names by its broadcast
    root, keeps the max's tile (``memref<8xi32>``) on the stack for the broadcast: #8303's mechanism on a reduction,
    which an outsider graded known, but the cause named an elementwise dispatch and was listed new. The same
    dispatch without the reduction in its source keeps the name's role."""
    from ireefuzz.oracles.cause import cause_of

    name = "main_dispatch_0_elementwise_broadcast_DxD_i32"
    source = read("row_max_broadcast_dyn.x86-64-v3.source.mlir")
    final = read("row_max_broadcast_dyn.x86-64-v3.final.mlir")
    (found,) = check_memory([dispatch(final_ir=final, source=source, name=name)])
    assert found.evidence["role"] == "reduction"
    assert cause_of(found).id == "memory/alloca/reduction@DoubleTilingExpert"
    parallel = source.replace('iterator_types = ["parallel", "reduction"]', 'iterator_types = ["parallel", "parallel"]')
    (named,) = check_memory([dispatch(final_ir=final, source=parallel, name=name)])
    assert "role" not in named.evidence and cause_of(named).id == "memory/alloca/elementwise@DoubleTilingExpert"


@pytest.mark.iree
def test_real_row_max_broadcast_keeps_the_reductions_tile_on_the_stack_on_x86_64_v3():
    from ireefuzz import sut
    from ireefuzz.oracles.cause import cause_of

    config = sut.CompilerConfig(target_cpu="x86-64-v3")
    artifact = sut.compile_mlir(read("inputs/row_max_broadcast_dyn.mlir"), config)
    assert isinstance(artifact, sut.Artifact), artifact
    causes = {cause_of(f).id for f in check_memory(artifact.dispatches)}
    assert causes == {"memory/alloca/reduction@DoubleTilingExpert"}, causes
