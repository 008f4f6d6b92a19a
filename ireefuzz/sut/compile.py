"""Compiling: ``compile_mlir`` (a module with its dispatch IR, or a ``CompileFailure``), failure
classification and diagnostics, the IR after each pass, and the platform a target CPU resolves to.
"""

from __future__ import annotations

import functools
import json
import re
import shutil
import signal
import time
from pathlib import Path

from ireefuzz.base.durable import atomic_write_text
from ireefuzz.oracles import vocabulary
from ireefuzz.sut import launch, releases
from ireefuzz.sut.commands import backend_flags, compile_command
from ireefuzz.sut.config import CompilerConfig
from ireefuzz.sut.dumps import (
    BUFFERIZED_PASS,
    FINAL_PASS,
    HOST_PASS,
    cpu_info,
    failing_passes,
    printed_ir,
    read_dispatches,
    read_elsewhere,
    read_llvm_functions,
    read_sources,
)
from ireefuzz.sut.results import Artifact, CompileFailure, CompileFailureKind, CpuInfo
from ireefuzz.sut.scratch import temp_dir
from ireefuzz.sut.toolchain import Toolchain, identity, toolchain_of

_DIAGNOSTIC_LIMIT = 8192
_STACK_LINES = 24
_OOM_MARKERS = (  # under RLIMIT_AS: failed allocations, thread stacks, or even loading the compiler's .so
    "std::bad_alloc",
    "LLVM ERROR: out of memory",
    "Allocation failed",
    "Cannot allocate memory",
    "failed to map segment from shared object",
    "pthread_create failed",
    "MemoryError",
    "out of memory",  # a Python (wrapper) compiler; any allocator that says so
)
_CRASH_MARKERS = ("PLEASE submit a bug report", "Stack dump:", "LLVM ERROR:", "Assertion `")
OOM_MARKERS, CRASH_MARKERS = _OOM_MARKERS, _CRASH_MARKERS  # what a repro's run.sh looks for, too
_KEY_LINE = re.compile(r"error:|LLVM ERROR|Assertion `|terminate called|what\(\):|PLEASE submit")


def compile_mlir(
    mlir_text: str,
    config: CompilerConfig,
    *,
    workdir: str | None = None,
    resolve_cpu: bool = True,
    toolchain: Toolchain | None = None,
) -> Artifact | CompileFailure:
    """Compile ``mlir_text`` for llvm-cpu; IREE's failures come back as a CompileFailure.

    ``workdir`` keeps the input, vmfb and dumps there (subdirectories are replaced); by default a
    temporary directory is used and removed. Executable sources and scheduling statistics are
    always dumped (they are free and give CpuInfo and ``statistics``); ``config.observe`` adds the
    per-dispatch IR dumps (``pipeline``, ``final_ir``, ``bufferized_ir``). ``toolchain`` is ``config``'s, resolved
    (``toolchain_of(config)`` when not given).
    """
    toolchain = toolchain or toolchain_of(config)
    if workdir is None:
        with temp_dir() as tmp:
            return _compile_in(toolchain, mlir_text, config, Path(tmp), resolve_cpu, scratch=True)
    return _compile_in(toolchain, mlir_text, config, Path(workdir), resolve_cpu)


def _compile_in(
    toolchain: Toolchain,
    mlir_text: str,
    config: CompilerConfig,
    work: Path,
    resolve_cpu: bool = True,
    *,
    scratch: bool = False,
) -> Artifact | CompileFailure:
    source, vmfb = work / "input.mlir", work / "module.vmfb"
    sources_dir, tree_dir, stats_file = work / "sources", work / "ir", work / "statistics.json"
    configs_dir, llvm_dir = work / "configurations", work / "intermediates"
    for stale in (sources_dir, tree_dir, configs_dir, llvm_dir):
        shutil.rmtree(stale, ignore_errors=True)
    for stale in (vmfb, stats_file):
        stale.unlink(missing_ok=True)
    atomic_write_text(source, mlir_text)
    command = [
        toolchain.iree_compile,
        str(source),
        "-o",
        str(vmfb),
        *backend_flags(config.target_cpu, config.flags),
        f"--iree-hal-dump-executable-sources-to={sources_dir}",
        "--iree-scheduling-dump-statistics-format=json",
        f"--iree-scheduling-dump-statistics-file={stats_file}",
    ]
    if config.observe:
        command += [
            f"--mlir-print-ir-tree-dir={tree_dir}",
            f"--mlir-print-ir-before={FINAL_PASS},{BUFFERIZED_PASS},{HOST_PASS}",
            f"--iree-hal-dump-executable-configurations-to={configs_dir}",
            f"{vocabulary.LLVM_INTERMEDIATES_FLAG}={llvm_dir}",
            "--mlir-print-ir-after-failure",
        ]
    command += config.flags
    if toolchain.release is not None:  # a published release: its spelling, and only the observation flags it has
        command = releases.adapt_command(toolchain.release, command, toolchain.known_flags)
    returncode, stderr, seconds = _run_limited(command, config, scratch=work if scratch else None)
    stderr, printed = printed_ir(stderr)  # IR a release without a tree dump printed to stderr (dumps.printed_ir)
    kind = _failure_kind(returncode, stderr)
    warnings = warnings_of(stderr)
    if kind is not None:  # the passes that failed name the culprit (read from their after-failure dumps)
        failed = "\n".join(failing_passes(tree_dir)) if config.observe else ""
        return CompileFailure(
            kind, f"{_trim_diagnostic(stderr)}\n{failed}".strip(), tuple(command), returncode, seconds, warnings
        )
    problem = _output_problem(vmfb)
    if problem is not None:
        return CompileFailure(
            "bad-output", f"{problem}\n{_trim_diagnostic(stderr)}".strip(), tuple(command), returncode, seconds
        )
    sources = read_sources(sources_dir)
    cpu = cpu_info(config.target_cpu, sources.values())
    if not cpu.name and resolve_cpu:  # no dispatch (everything folded): ask a probe module instead
        cpu = resolve_platform(config)[0]
    dispatches = read_dispatches(
        sources, tree_dir if config.observe else None, read_sources(configs_dir), printed, read_llvm_functions(llvm_dir)
    )
    return Artifact(
        vmfb=vmfb.read_bytes(),
        dispatches=read_elsewhere(dispatches, toolchain.runtime_python) if config.observe else dispatches,
        statistics=json.loads(stats_file.read_text()) if stats_file.exists() else {},
        cpu=cpu,
        compiler_version=toolchain.version,
        command=tuple(command),
        seconds=seconds,
        warnings=warnings,
    )


_DIAGNOSTIC_LINE = re.compile(r"^\S.*:\d+:\d+: (warning|note|error|remark): ")


def warnings_of(stderr: str) -> tuple[str, ...]:
    """Each warning of the compiler's stderr with the notes that follow it (``called from``), location lines
    only: ``input.mlir:34:18: warning: reads uninitialized values ...`` (no source snippets, no IR dumps)."""
    found: list[list[str]] = []
    current: list[str] | None = None  # the warning whose notes follow
    for line in stderr.splitlines():
        kind = _DIAGNOSTIC_LINE.match(line)
        if kind is None:
            continue
        if kind.group(1) == "warning":
            current = [line[:500]]
            found.append(current)
        elif kind.group(1) == "note" and current is not None:
            current.append(line[:500])
        else:  # an error or a remark: its notes are not the warning's
            current = None
    return tuple("\n".join(block) for block in found)


_PRINT_CHANGES = (
    "--mlir-print-ir-after-all",
    "--mlir-print-ir-after-change",
    "--mlir-disable-threading",
    "--mlir-elide-elementsattrs-if-larger=8",
)


def ir_after_each_change(mlir_text: str, config: CompilerConfig) -> str | CompileFailure:
    """The IR printed after every pass that changed it (the compiler's stderr), compiled under the
    same limits as ``compile_mlir``; a failed compile comes back as a CompileFailure."""
    binary = toolchain_of(config).iree_compile
    with temp_dir("passes-") as tmp:
        source = Path(tmp) / "program.mlir"
        atomic_write_text(source, mlir_text)
        command = compile_command(config, source, Path(tmp) / "module.vmfb", _PRINT_CHANGES, binary=binary)
        returncode, stderr, seconds = _run_limited(command, config, scratch=Path(tmp))
    kind = _failure_kind(returncode, stderr)
    if kind is not None:
        return CompileFailure(kind, _trim_diagnostic(stderr), tuple(command), returncode, seconds)
    return stderr


def compile_to(mlir_text: str, config: CompilerConfig, phase: str) -> str | CompileFailure:
    """The program's IR after ``--compile-to=phase`` (``input``, ``abi``, ..., ``flow``, ``stream``), compiled under
    the same limits as ``compile_mlir``; a failed compile comes back as a CompileFailure."""
    binary = toolchain_of(config).iree_compile
    with temp_dir("phase-") as tmp:
        source, output = Path(tmp) / "program.mlir", Path(tmp) / f"{phase}.mlir"
        atomic_write_text(source, mlir_text)
        command = compile_command(config, source, output, (f"--compile-to={phase}",), binary=binary)
        returncode, stderr, seconds = _run_limited(command, config, scratch=Path(tmp))
        kind = _failure_kind(returncode, stderr) or (None if output.exists() else "bad-output")
        if kind is not None:
            return CompileFailure(kind, _trim_diagnostic(stderr), tuple(command), returncode, seconds)
        return output.read_text()


def _run_limited(
    command: list[str], config: CompilerConfig, scratch: Path | None = None
) -> tuple[int | None, str, float]:
    """Run under ``launch`` (memory cap, no core dumps, its process group dies with this process, which
    removes ``scratch`` then); returncode None means it timed out (its group was killed)."""
    start = time.perf_counter()
    returncode, _, stderr = launch.run(
        command, timeout=config.timeout_s, memory_limit_mb=config.memory_limit_mb, scratch=scratch, stdout=False
    )
    return returncode, stderr, time.perf_counter() - start


def _failure_kind(returncode: int | None, stderr: str) -> CompileFailureKind | None:
    if returncode is None:
        return "timeout"
    if returncode == 0:
        return None
    if returncode == -signal.SIGKILL or any(m in stderr for m in _OOM_MARKERS):
        return "oom"
    if returncode < 0 or any(m in stderr for m in _CRASH_MARKERS):
        return "crash"
    return "error"


_MODULE_IDENTIFIER = b"IREE"  # the bytecode module's FlatBuffer file identifier (bare, or in the .vmfb's zip header)


def _output_problem(vmfb: Path) -> str | None:
    """Why what iree-compile wrote (having exited 0) is not a module, or None."""
    try:
        with vmfb.open("rb") as f:
            head = f.read(4096)
    except OSError:
        return f"iree-compile exited 0 but wrote no {vmfb.name}"
    if _MODULE_IDENTIFIER not in head:
        return f"iree-compile exited 0 but its {vmfb.name} ({vmfb.stat().st_size} bytes) is not an IREE module"
    return None


def _trim_diagnostic(stderr: str, limit: int = _DIAGNOSTIC_LIMIT) -> str:
    """The error lines (with MLIR's two source-snippet lines) and the head of any stack dump."""
    lines = stderr.splitlines()
    keep: dict[int, None] = {}
    for i, line in enumerate(lines):
        if _KEY_LINE.search(line):
            keep.update(dict.fromkeys(range(i, min(i + 3, len(lines)))))
        elif line.startswith("Stack dump:"):
            keep.update(dict.fromkeys(range(i, min(i + 1 + _STACK_LINES, len(lines)))))
    if not keep:  # unrecognised output: its beginning and its end
        return stderr if len(stderr) <= limit else f"{stderr[: limit // 2]}\n...\n{stderr[-limit // 2 :]}"
    text = "\n".join(lines[i][:500] for i in keep)
    return text[:limit]


PROBE_PROGRAM = """func.func @probe(%a: tensor<4xf32>) -> tensor<4xf32> {
  %e = tensor.empty() : tensor<4xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], \
iterator_types = ["parallel"]}
      ins(%a : tensor<4xf32>) outs(%e : tensor<4xf32>) {
  ^bb0(%x: f32, %y: f32):
    %s = arith.addf %x, %x : f32
    linalg.yield %s : f32
  } -> tensor<4xf32>
  return %r : tensor<4xf32>
}
"""


@functools.lru_cache(maxsize=None)
def _probe(
    toolchain: tuple[str | None, str | None, str | None], target_cpu: str, flags: tuple[str, ...], timeout_s: float
) -> tuple[CpuInfo, str]:
    iree_compile, release, runtime_python = toolchain  # the identity: the same Toolchain as the config's
    config = CompilerConfig(
        iree_compile=iree_compile,
        release=release,
        runtime_python=runtime_python,
        target_cpu=target_cpu,
        flags=flags,
        observe=False,
        timeout_s=timeout_s,
    )
    artifact = compile_mlir(PROBE_PROGRAM, config, resolve_cpu=False)
    if isinstance(artifact, Artifact):
        return artifact.cpu, artifact.compiler_version
    return CpuInfo(target_cpu, "", ""), ""


def resolve_platform(config: CompilerConfig) -> tuple[CpuInfo, str]:
    """(the CPU ``config.target_cpu`` resolves to, e.g. host -> znver5 with its features; the compiler
    version), once per process from a tiny probe compile -- so findings of failed compiles record them
    too. Unknown (empty) if even the probe fails to compile."""
    return _probe(identity(config), config.target_cpu, tuple(config.flags), min(config.timeout_s, 60.0))
