"""The system-under-test layer against the real IREE compiler and runtime (and fake compilers)."""

from __future__ import annotations

import os
import stat

import numpy as np
import pytest

from ireefuzz.sut import (
    Artifact,
    CompileFailure,
    CompilerConfig,
    IreeNotFound,
    LoadedModule,
    RunFailure,
    RunResult,
    compile_mlir,
    dispatches_of,
    find_iree_compile,
    load_module,
    probe,
)

FILL_MATMUL_EXP = """
func.func @fme(%a: tensor<?x?xf32>, %b: tensor<?x?xf32>) -> tensor<?x?xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %m = tensor.dim %a, %c0 : tensor<?x?xf32>
  %n = tensor.dim %b, %c1 : tensor<?x?xf32>
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty(%m, %n) : tensor<?x?xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<?x?xf32>) -> tensor<?x?xf32>
  %mm = linalg.matmul ins(%a, %b : tensor<?x?xf32>, tensor<?x?xf32>) outs(%f : tensor<?x?xf32>) -> tensor<?x?xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>],
                       iterator_types = ["parallel", "parallel"]}
      ins(%mm : tensor<?x?xf32>) outs(%e : tensor<?x?xf32>) {
  ^bb0(%x: f32, %o: f32):
    %y = math.exp %x : f32
    linalg.yield %y : f32
  } -> tensor<?x?xf32>
  return %r : tensor<?x?xf32>
}
"""

# A second graph in the same module, with two results and narrow dtypes.
MASKED_SUM = """
func.func @masked(%x: tensor<4x6xi8>, %m: tensor<4x6xi1>) -> (tensor<4xi32>, tensor<4x6xi1>) {
  %z = arith.constant 0 : i32
  %e = tensor.empty() : tensor<4xi32>
  %f = linalg.fill ins(%z : i32) outs(%e : tensor<4xi32>) -> tensor<4xi32>
  %s = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>, \
affine_map<(i, j) -> (i)>],
                       iterator_types = ["parallel", "reduction"]}
      ins(%x, %m : tensor<4x6xi8>, tensor<4x6xi1>) outs(%f : tensor<4xi32>) {
  ^bb0(%a: i8, %keep: i1, %acc: i32):
    %w = arith.extsi %a : i8 to i32
    %v = arith.select %keep, %w, %z : i32
    %r = arith.addi %acc, %v : i32
    linalg.yield %r : i32
  } -> tensor<4xi32>
  %e2 = tensor.empty() : tensor<4x6xi1>
  %n = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>],
                       iterator_types = ["parallel", "parallel"]}
      ins(%m : tensor<4x6xi1>) outs(%e2 : tensor<4x6xi1>) {
  ^bb0(%keep: i1, %o: i1):
    %true = arith.constant true
    %r = arith.xori %keep, %true : i1
    linalg.yield %r : i1
  } -> tensor<4x6xi1>
  return %s, %n : tensor<4xi32>, tensor<4x6xi1>
}
"""


@pytest.fixture(scope="module")
def artifact() -> Artifact:
    result = compile_mlir(FILL_MATMUL_EXP + MASKED_SUM, CompilerConfig(observe=True))
    assert isinstance(result, Artifact), result
    return result


@pytest.fixture(scope="module")
def loaded(artifact: Artifact) -> LoadedModule:
    return LoadedModule(artifact)


def fake_compiler(tmp_path, body: str) -> str:
    path = tmp_path / "iree-compile"
    path.write_text(f"#!/bin/sh\n{body}\n")
    path.chmod(path.stat().st_mode | stat.S_IXUSR)
    return str(path)


@pytest.mark.iree
@pytest.mark.parametrize("m,k,n", [(1, 1, 1), (5, 7, 3), (33, 17, 65)])
def test_fill_matmul_exp_matches_numpy(loaded: LoadedModule, m: int, k: int, n: int) -> None:
    rng = np.random.default_rng(m * k * n)
    a = rng.uniform(-1, 1, (m, k)).astype(np.float32)
    b = rng.uniform(-1, 1, (k, n)).astype(np.float32)
    result = loaded.call("fme", [a, b])
    assert isinstance(result, RunResult), result
    (out,) = result.outputs
    np.testing.assert_allclose(out, np.exp(a @ b), rtol=1e-5, atol=1e-6)
    np.testing.assert_array_equal(result.inputs_after[0], a)
    np.testing.assert_array_equal(result.inputs_after[1], b)
    assert result.seconds < 1.0


@pytest.mark.iree
def test_zero_size_dims(loaded: LoadedModule) -> None:
    result = loaded.call("fme", [np.zeros((0, 4), np.float32), np.zeros((4, 3), np.float32)])
    assert isinstance(result, RunResult), result
    assert result.outputs[0].shape == (0, 3)


@pytest.mark.iree
def test_narrow_dtypes_and_several_results(loaded: LoadedModule) -> None:
    rng = np.random.default_rng(0)
    x = rng.integers(-128, 128, (4, 6), dtype=np.int8)
    keep = rng.integers(0, 2, (4, 6)).astype(bool)
    result = loaded.call("masked", [x, keep])
    assert isinstance(result, RunResult), result
    sums, flipped = result.outputs
    np.testing.assert_array_equal(sums, np.where(keep, x.astype(np.int32), 0).sum(axis=1))
    assert flipped.dtype == np.bool_
    np.testing.assert_array_equal(flipped, ~keep)
    np.testing.assert_array_equal(result.inputs_after[1], keep)


@pytest.mark.iree
def test_runtime_error_is_a_fault(loaded: LoadedModule) -> None:
    result = loaded.call("masked", [np.zeros((4, 5), np.int8), np.zeros((4, 5), bool)])
    assert isinstance(result, RunFailure) and result.kind == "fault"
    assert "mismatch" in result.message


@pytest.mark.iree
def test_observation(artifact: Artifact) -> None:
    (fme,) = dispatches_of(artifact, "fme")
    assert fme.name.startswith("fme_dispatch_0_matmul")
    # Seen on 3.13 (znver5 host): DoubleTilingExpert with one memref.alloca() : memref<8x16xf32>
    # holding the matmul tile between the contraction and the fused exp.
    assert fme.pipeline
    assert "memref.alloca" in fme.final_ir
    assert fme.final_ir.startswith(f"func.func @{fme.name}(")
    # Bufferized and cleaned up: no tensors left, bufferization's self-copies folded, vectors unlowered.
    assert "tensor<" not in fme.bufferized_ir
    assert "linalg.generic" not in fme.bufferized_ir
    assert "vector.contract" in fme.bufferized_ir
    assert f"@{fme.name}" in fme.source and "hal.executable" in fme.source
    masked = dispatches_of(artifact, "masked")
    assert masked and all(d.name.startswith("masked_dispatch_") for d in masked)
    assert not dispatches_of(artifact, "fm")
    execution = artifact.statistics["stream-aggregate"]["execution"]
    assert execution["dispatch-count"] == len(artifact.dispatches)
    assert artifact.compiler_version[0].isdigit()


@pytest.mark.iree
def test_host_cpu_is_resolved(artifact: Artifact) -> None:
    assert artifact.cpu.requested == "host"
    assert artifact.cpu.name and artifact.cpu.name != "host"
    assert artifact.cpu.features.startswith("+")


@pytest.mark.iree
def test_observe_off_still_lists_dispatches() -> None:
    result = compile_mlir(FILL_MATMUL_EXP, CompilerConfig(observe=False, target_cpu="x86-64-v3"))
    assert isinstance(result, Artifact), result
    (fme,) = result.dispatches
    assert fme.source and not fme.final_ir and not fme.bufferized_ir
    assert result.cpu.name == "x86-64-v3"


@pytest.mark.iree
def test_invalid_ir_is_an_error(tmp_path) -> None:
    result = compile_mlir(
        "func.func @f(%a: tensor<4xf32>) -> tensor<4xf32> {\n  return %b : tensor<4xf32>\n}\n",
        CompilerConfig(),
        workdir=str(tmp_path),
    )
    assert isinstance(result, CompileFailure), result
    assert result.kind == "error" and result.returncode == 1
    assert "error:" in result.diagnostic and "%b" in result.diagnostic
    assert str(tmp_path / "input.mlir") in result.command


@pytest.mark.iree
def test_killed_by_signal_is_a_crash(tmp_path) -> None:
    config = CompilerConfig(iree_compile=fake_compiler(tmp_path, "echo 'Stack dump:' >&2\nkill -SEGV $$"))
    result = compile_mlir("", config)
    assert isinstance(result, CompileFailure) and result.kind == "crash", result
    assert result.returncode == -11
    assert "Stack dump:" in result.diagnostic


@pytest.mark.iree
def test_slow_compiler_times_out(tmp_path) -> None:
    config = CompilerConfig(iree_compile=fake_compiler(tmp_path, "sleep 30"), timeout_s=0.5)
    result = compile_mlir("", config)
    assert isinstance(result, CompileFailure) and result.kind == "timeout", result
    assert result.returncode is None and result.seconds < 5


@pytest.mark.iree
def test_missing_compiler(tmp_path) -> None:
    with pytest.raises(IreeNotFound, match="iree-compile"):
        find_iree_compile(CompilerConfig(iree_compile=str(tmp_path / "nope")))
    default = find_iree_compile(CompilerConfig())
    assert os.path.basename(default) == "iree-compile" and "_mlir_libs" in default


# --------------------------------------------------------------------------- a broken compiler


_VERSION = "[ \"$1\" = --version ] && { echo 'IREE compiler version 0-fake'; exit 0; }\n"
_WRITE = 'while [ $# -gt 0 ]; do [ "$1" = -o ] && printf \'%s\' {data} > "$2"; shift; done\n'


@pytest.mark.parametrize(
    "body, says",
    [
        ("exit 0", "wrote no module.vmfb"),
        (_WRITE.format(data="garbage"), "is not an IREE module"),
        (_WRITE.format(data="''"), "(0 bytes) is not an IREE module"),
    ],
)
def test_exit_0_without_a_module_is_bad_output(tmp_path, body, says) -> None:
    result = compile_mlir("", CompilerConfig(iree_compile=fake_compiler(tmp_path, _VERSION + body), observe=False))
    assert isinstance(result, CompileFailure) and result.kind == "bad-output" and says in result.diagnostic, result


def test_a_module_the_runtime_rejects_is_bad_output(tmp_path) -> None:
    fake = fake_compiler(tmp_path, _VERSION + _WRITE.format(data="PK....IREE-but-not-a-flatbuffer"))
    artifact = compile_mlir("", CompilerConfig(iree_compile=fake, observe=False))
    assert isinstance(artifact, Artifact)
    loaded = load_module(artifact)
    assert isinstance(loaded, CompileFailure) and loaded.kind == "bad-output"
    assert "runtime rejects" in loaded.diagnostic


@pytest.mark.parametrize("data", ["garbage", "PK....IREE-but-not-a-flatbuffer"])
def test_bad_output_is_a_crash_finding_not_an_aborted_run(tmp_path, data) -> None:
    from ireefuzz.core.evaluate import evaluate
    from ireefuzz.generators.case import Case
    from ireefuzz.generators.graph import Graph, Node, TensorType

    t = TensorType((4,), "f32")
    case = Case(Graph((t,), (Node("exp", ("a0",), {}, t),), ("n0",)).check(), ({},))
    fake = fake_compiler(tmp_path, _VERSION + _WRITE.format(data=data))
    (result,) = evaluate([case], CompilerConfig(iree_compile=fake))
    assert [f.signature.split("/")[:2] for f in result.findings] == [["crash", "bad-output"]], result.findings


@pytest.mark.parametrize(
    "body, says",
    [
        ("exit 1", "--version` failed (1): no output"),
        ("exit 0", "prints no IREE compiler version"),
        (_VERSION + "exit 0", "wrote no module.vmfb"),
        (_VERSION + "echo 'error: no' >&2; exit 1", "(error): error: no"),
    ],
)
def test_probe_names_what_is_wrong_with_a_fake_compiler(tmp_path, body, says) -> None:
    problem = probe(CompilerConfig(iree_compile=fake_compiler(tmp_path, body)))
    assert problem is not None and says in problem, problem


@pytest.mark.iree
def test_probe_of_the_real_compiler() -> None:
    assert probe(CompilerConfig()) is None
    assert "--iree-llvmcpu-target-cpu=bogus" in probe(CompilerConfig(target_cpu="bogus"))
    assert "Unknown command line argument" in probe(CompilerConfig(flags=("--no-such-flag",)))


@pytest.mark.iree
def test_data_movement_dispatches_get_their_pipeline_name() -> None:
    """``*_slow_memcpy`` dispatches are never bufferized, so no IR dump names their pipeline; the
    executable dumped after strategy selection does (BufferOpsTileAndVectorize on 3.13)."""
    from pathlib import Path

    from ireefuzz.sut import NO_PIPELINE

    text = (Path(__file__).parent / "data" / "ir" / "inputs" / "iota_concat.mlir").read_text()
    artifact = compile_mlir(text, CompilerConfig())
    copies = [d for d in artifact.dispatches if d.name.endswith("_slow_memcpy")]
    assert copies and all(d.pipeline not in ("", NO_PIPELINE) for d in copies)
    assert all(d.pipeline for d in artifact.dispatches)


def test_expected_output_flags_print_plain_numbers_for_numpy_tolerances():
    # np.float64's repr is "np.float64(1e-06)", which iree-run-module cannot read as a tolerance.
    from ireefuzz import sut

    flags = sut.expected_output_flags(["@e.npy"], exact=False, rtol=np.float64(1e-6), atol={"f32": np.float32(0.5)})
    assert "--expected_rtol=1e-06" in flags and "--expected_f32_threshold=0.5" in flags


def test_an_observed_pass_that_fails_is_the_failing_pass(tmp_path):
    """Stop 47: ``iree-stream-conversion`` is printed before it runs (the host program the fusion oracle reads), so its
    after-failure dump has the same name; it was taken for that observation and the loop's failure placed at the
    input. A dump is a failure by its header, whatever pass it names."""
    from ireefuzz.sut.dumps import failing_passes

    module = tmp_path / "builtin_module_no-symbol-name"
    module.mkdir()
    (module / "0_iree-stream-conversion.mlir").write_text(
        "// -----// IR Dump Before ConvertToStreamPass: iree-stream-conversion //----- //\nmodule {}\n"
    )
    assert failing_passes(tmp_path) == []
    (module / "1_iree-stream-conversion.mlir").write_text(
        "// -----// IR Dump After ConvertToStreamPass Failed: iree-stream-conversion //----- //\nmodule {}\n"
    )
    assert failing_passes(tmp_path) == ["failing pass: iree-stream-conversion (module)"]
