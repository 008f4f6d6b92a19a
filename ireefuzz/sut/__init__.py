"""The system under test: IREE's compiler (a subprocess) and runtime (in process).

This is the only module that knows IREE flags, binaries and versions.
Failures of IREE come back as values (CompileFailure, RunFailure), never as exceptions;
exceptions raised from here are ireefuzz's own bugs or a broken installation (IreeNotFound).
"""
from __future__ import annotations

import dataclasses
import functools
import importlib.util
import json
import os
import platform
import re
import shlex
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time
import weakref
from pathlib import Path
from typing import TYPE_CHECKING, Any, Callable, Iterable, Mapping, Sequence

import numpy as np

from ireefuzz.sut import launch
from ireefuzz.sut import releases
from ireefuzz.sut import remote
from ireefuzz.errors import IreeNotFound, UsageError
from ireefuzz.base.durable import atomic_write_text

if TYPE_CHECKING:
    from ireefuzz.generators.case import Case

TARGET_CPUS = ("host", "generic", "x86-64-v3", "x86-64-v4")



@dataclasses.dataclass(frozen=True)
class CompilerConfig:
    iree_compile: str | None = None  # path to an external iree-compile; None = the installed wheel's
    target_cpu: str = "host"
    flags: tuple[str, ...] = ()  # extra flags, appended last
    timeout_s: float = 120.0
    memory_limit_mb: int = 6144
    observe: bool = True  # capture per-dispatch IR and scheduling statistics
    release: str | None = None  # a published IREE release (ireefuzz.sut.releases): its iree-compile, syntax and runtime
    runtime_python: str | None = None  # a Python whose iree.runtime runs the modules; None = this process's


def config_for(case: Case, base: CompilerConfig) -> CompilerConfig:
    """``base`` as ``case`` asks for it: the case's target CPU, its flags after ``base``'s."""
    return dataclasses.replace(base, target_cpu=case.target_cpu, flags=tuple(base.flags) + tuple(case.flags))


@dataclasses.dataclass(frozen=True)
class CpuInfo:
    requested: str  # what the user asked for, e.g. "host"
    name: str  # what LLVM resolved it to, e.g. "skylake-avx512"
    features: str  # the resolved "+avx512f,..." string


@dataclasses.dataclass(frozen=True)
class DispatchIR:
    """One dispatch's codegen, observed at the points the memory / fusion oracles read."""

    name: str  # the dispatch entry point, e.g. "main_dispatch_0_matmul_DxDxD_f32"
    pipeline: str  # translation_info pipeline, e.g. "CPUDoubleTilingExpert"
    final_ir: str  # the function before iree-convert-to-llvm (allocas are read here)
    bufferized_ir: str  # after bufferization and its cleanup, before vector lowering (copies are read here)
    source: str  # the executable source as dumped by --iree-hal-dump-executable-sources-to
    configured: str = ""  # the executable after strategy selection (translation_info, lowering_config on its ops)
    facts: Mapping[str, Any] | None = None  # what the oracles read of it, when read by another compiler's bindings


@dataclasses.dataclass(frozen=True)
class Artifact:
    vmfb: bytes
    dispatches: tuple[DispatchIR, ...]
    statistics: Mapping[str, Any]  # scheduling statistics JSON (dispatch-count, transient-memory-size, ...)
    cpu: CpuInfo
    compiler_version: str
    command: tuple[str, ...]
    seconds: float


@dataclasses.dataclass(frozen=True)
class CompileFailure:
    kind: str  # "error" | "crash" | "timeout" | "oom" | "bad-output" (exit 0, but no module or not one)
    diagnostic: str  # the compiler's stderr, trimmed to the useful part
    command: tuple[str, ...]
    returncode: int | None
    seconds: float


@dataclasses.dataclass(frozen=True)
class RunResult:
    outputs: tuple[np.ndarray, ...]
    inputs_after: tuple[np.ndarray, ...]  # every input buffer read back after the call
    seconds: float


@dataclasses.dataclass(frozen=True)
class RunFailure:
    kind: str  # "fault" (the runtime reported an error) | "crash" (the process died; set by the runner)
    message: str


# --------------------------------------------------------------------------- compiler

_WHEEL_COMPILE = ("_mlir_libs", "iree-compile")  # the native binary inside iree/compiler/
_INSTALL_HINT = "pip install iree-base-compiler (or pass CompilerConfig(iree_compile=/path/to/iree-compile))"

# Observation points, printed per dispatch into --mlir-print-ir-tree-dir (one file per dump, so
# multithreaded compilation cannot interleave them and no --mlir-disable-threading is needed):
#  * final IR: before iree-convert-to-llvm (allocas, vector code, still MLIR).
#  * bufferized IR: before the first iree-codegen-cleanup-buffer-alloc-view (CleanupBufferAllocViewPass).
#    On 3.13 the CPU pipelines run IREEComprehensiveBufferizePass -> inject-assume-alignment ->
#    resolve-shaped-type-result-dims -> iree-codegen-canonicalize -> cse -> iree-codegen-canonicalize
#    -> CleanupBufferAllocViewPass -> ... -> LLVMCPUVirtualVectorLoweringPass. The self-copy
#    linalg.generics bufferization leaves behind are folded by the second canonicalize, so the IR
#    entering CleanupBufferAllocViewPass is the first point after those folds; vector.contract etc.
#    are still unlowered there. The pass runs again late in the pipeline; the first dump is the one.
_FINAL_PASS = "iree-convert-to-llvm"
_BUFFERIZED_PASS = "iree-codegen-cleanup-buffer-alloc-view"
OBSERVATION_PASSES = {"final": _FINAL_PASS, "bufferized": _BUFFERIZED_PASS}  # the IR is read *before* these

_DIAGNOSTIC_LIMIT = 8192
_STACK_LINES = 24
_OOM_MARKERS = (  # under RLIMIT_AS: failed allocations, thread stacks, or even loading the compiler's .so
    "std::bad_alloc", "LLVM ERROR: out of memory", "Allocation failed", "Cannot allocate memory",
    "failed to map segment from shared object", "pthread_create failed",
    "MemoryError", "out of memory",  # a Python (wrapper) compiler; any allocator that says so
)
_CRASH_MARKERS = ("PLEASE submit a bug report", "Stack dump:", "LLVM ERROR:", "Assertion `")
OOM_MARKERS, CRASH_MARKERS = _OOM_MARKERS, _CRASH_MARKERS  # what a repro's run.sh looks for, too
_KEY_LINE = re.compile(r"error:|LLVM ERROR|Assertion `|terminate called|what\(\):|PLEASE submit")


def find_iree_compile(config: CompilerConfig) -> str:
    """The iree-compile executable: ``config.iree_compile`` if given, else ``config.release``'s (installed
    beforehand with ``releases.release``), else the installed wheel's."""
    if config.iree_compile is None and config.release is not None:
        return releases.release(config.release, install=False).iree_compile
    if config.iree_compile is not None:
        path = shutil.which(config.iree_compile) or config.iree_compile
        if not (os.path.isfile(path) and os.access(path, os.X_OK)):
            raise IreeNotFound(
                f"the iree-compile given ({config.iree_compile!r}, from --iree-compile or CompilerConfig.iree_compile) "
                "is not an executable file: give the path of an iree-compile binary, or leave it out to use the "
                "installed iree-base-compiler wheel's"
            )
        return os.path.abspath(path)
    try:
        spec = importlib.util.find_spec("iree.compiler")
    except ModuleNotFoundError:
        spec = None
    if spec is None or not spec.submodule_search_locations:
        raise IreeNotFound(f"the IREE compiler is not installed: {_INSTALL_HINT}")
    path = os.path.join(list(spec.submodule_search_locations)[0], *_WHEEL_COMPILE)
    if not os.access(path, os.X_OK):
        raise IreeNotFound(f"iree-base-compiler is installed but {path} is missing; reinstall: {_INSTALL_HINT}")
    return path


def find_iree_run_module(config: CompilerConfig | None = None) -> str:
    """The iree-run-module executable of ``config``'s release (if it compiles with one and ships the tool),
    else of the installed iree-base-runtime wheel (else ``iree-run-module`` on PATH)."""
    version = releases.release_of(config) if config is not None else None
    if version is not None:
        path = releases.release(version, install=False).iree_run_module
        if not os.access(path, os.X_OK):  # the 2023-04/05 runtime wheels ship none
            raise IreeNotFound(f"IREE {version}'s runtime wheel has no iree-run-module, so a bundle's run.sh "
                               "cannot run with it")
        return path
    try:
        spec = importlib.util.find_spec("iree._runtime_libs")
    except ModuleNotFoundError:
        spec = None
    if spec is not None and spec.submodule_search_locations:
        path = os.path.join(list(spec.submodule_search_locations)[0], "iree-run-module")
        if os.access(path, os.X_OK):
            return path
    found = shutil.which("iree-run-module")
    if found is None:
        raise IreeNotFound("iree-run-module is not installed: pip install iree-base-runtime")
    return found


@functools.lru_cache(maxsize=None)
def compiler_version(iree_compile: str) -> str:
    """``iree-compile --version``, e.g. "3.13.0rc20261016 @ 89ece87b...", cached per binary."""
    command = [iree_compile, "--version"]
    proc = subprocess.run(command, capture_output=True, text=True, timeout=60)
    if proc.returncode != 0:
        raise IreeNotFound(f"`{shlex.join(command)}` failed ({proc.returncode}): {proc.stderr.strip()[:500] or 'no output'}")
    match = re.search(r"IREE compiler version (.+)", proc.stdout)
    return match.group(1).strip() if match else (proc.stdout.strip().splitlines() or [""])[0]


_MACHINES = {"arm64": "aarch64", "amd64": "x86_64"}  # platform.machine() spellings -> LLVM triple arch
_CROSS_FLAGS = ("--iree-llvmcpu-target-triple=", "--iree-llvmcpu-target-cpu-features=")  # another target's


def compile_only(config: CompilerConfig) -> str | None:
    """The target triple of ``config`` when its code cannot run on this machine (another architecture: a
    cross-compile configuration, ``configs.CROSS_TARGETS``), else None."""
    prefix = _CROSS_FLAGS[0]
    triple = next((f[len(prefix):] for f in reversed(config.flags) if f.startswith(prefix)), None)
    here = platform.machine().lower()
    return None if triple is None or triple.split("-")[0] == _MACHINES.get(here, here) else triple


def target_flags(target_cpu: str, flags: Sequence[str] = ()) -> list[str]:
    """The flags that select the llvm-cpu target ``target_cpu``, then ``flags`` (the one spelling of them)."""
    return ["--iree-hal-target-backends=llvm-cpu", f"--iree-llvmcpu-target-cpu={target_cpu}", *flags]


def compile_command(config: CompilerConfig, source: str | Path, output: str | Path, extra: Sequence[str] = (),
                    *, binary: str | None = None, flags: Sequence[str] | None = None) -> list[str]:
    """``iree-compile SOURCE -o OUTPUT <target flags> <config.flags> <extra>``.

    ``binary`` defaults to ``find_iree_compile(config)``, or the name ``iree-compile`` when it is
    missing (a command shown to a user need not be runnable here). ``flags`` replaces the target
    flags and ``config.flags`` (a run.sh passes its own, ``"$@"``)."""
    if binary is None:
        try:
            binary = find_iree_compile(config)
        except IreeNotFound:
            binary = config.iree_compile or "iree-compile"
    chosen = target_flags(config.target_cpu, config.flags) if flags is None else flags
    return [binary, str(source), "-o", str(output), *chosen, *extra]


def run_module_command(module: str | Sequence[str], function: str, inputs: Sequence[str] = (),
                       extra: Sequence[str] = (), *, binary: str = "iree-run-module") -> list[str]:
    """``iree-run-module --module=M... --device=local-sync --function=F --input=I... <extra>``.

    ``module`` may be several (later ones may import functions of earlier ones)."""
    modules = [module] if isinstance(module, (str, Path)) else list(module)
    return [binary, *(f"--module={m}" for m in modules), f"--device={_DRIVER}", f"--function={function}",
            *(f"--input={i}" for i in inputs), *extra]


def value_literal(array: np.ndarray) -> str:
    """``array`` written as iree-run-module's value syntax (``2x3xi32=1 2 3 4 5 6``, ``i32=4``,
    ``2xi1=01 00``). Integer results must be compared this way: an ``.npy`` reads as ``si32``, which never
    matches a signless ``i32`` result, so every comparison would fail whatever the values."""
    array = np.asarray(array)
    if array.dtype == np.bool_:
        kind, values = "i1", [f"{int(v):02x}" for v in array.reshape(-1)]
    else:
        kind = f"i{array.dtype.itemsize * 8}"
        values = [str(int(v)) for v in array.astype(f"i{array.dtype.itemsize}").reshape(-1)]
    shape = "x".join(map(str, array.shape))
    return f"{shape + 'x' if shape else ''}{kind}={' '.join(values)}"


def expected_output_flags(expected: Sequence[str], *, exact: bool, rtol: float = 0.0,
                          atol: Mapping[str, float] | None = None) -> list[str]:
    """iree-run-module flags that compare the results with ``expected`` (files as ``@path.npy``):
    bitwise when ``exact``, else ``|actual - expected| <= atol + rtol * |expected|`` per element."""
    flags = [f"--expected_output={e}" for e in expected]
    if exact:
        return flags + ["--equality_mode=exact"]
    flags += ["--equality_mode=approximate", f"--expected_rtol={float(rtol)!r}"]  # float(): never numpy's repr
    return flags + [f"--expected_{dtype}_threshold={float(value)!r}" for dtype, value in sorted((atol or {}).items())]


# Flags a case or finding file may not carry: they make iree-compile write files where the file says.
_OUTPUT_FLAGS = ("-o", "--o", "--output", "--iree-hal-dump-", "--mlir-print-ir-tree-dir", "--dump-", "--iree-dump-",
                 "--iree-scheduling-dump-", "--mlir-pass-statistics-", "--iree-hal-executable-object-search-path",
                 "--iree-llvmcpu-embedded-linker-path", "--iree-llvmcpu-system-linker-path", "--iree-hal-list-",
                 "--mlir-reproducer", "--mlir-pass-pipeline-crash-reproducer", "--iree-hal-preprocess-executables-with")


def unsafe_flags(flags: Sequence[str]) -> list[str]:
    """The flags in ``flags`` that name an output, dump or tool path (``*-to=``, ``*-file=``, ``*-dir=``,
    ``-o``, ...) or are not ``--name[=value]`` at all: a case read from a file must not carry them."""
    bad = []
    for flag in flags:
        name = str(flag).split("=", 1)[0]
        if (not isinstance(flag, str) or not re.fullmatch(r"--[A-Za-z0-9][\w.-]*(=[^\s]*)?", flag)
                or name.startswith(_OUTPUT_FLAGS) or name in ("-o", "--o")
                or re.search(r"-(to|file|dir|path|directory|output|filename)$", name)):
            bad.append(str(flag))
    return bad


@functools.lru_cache(maxsize=None)
def compiler_flags(iree_compile: str) -> frozenset[str]:
    """Every flag ``iree-compile --help-list-hidden`` lists (e.g. "--iree-opt-data-tiling"), cached per binary."""
    proc = subprocess.run([iree_compile, "--help-list-hidden"], capture_output=True, text=True, timeout=60)
    return frozenset(re.findall(r"^\s+(--[\w.-]+)", proc.stdout, re.M))


def compile_mlir(
    mlir_text: str, config: CompilerConfig, *, workdir: str | None = None, resolve_cpu: bool = True
) -> Artifact | CompileFailure:
    """Compile ``mlir_text`` for llvm-cpu; IREE's failures come back as a CompileFailure.

    ``workdir`` keeps the input, vmfb and dumps there (subdirectories are replaced); by default a
    temporary directory is used and removed. Executable sources and scheduling statistics are
    always dumped (they are free and give CpuInfo and ``statistics``); ``config.observe`` adds the
    per-dispatch IR dumps (``pipeline``, ``final_ir``, ``bufferized_ir``).
    """
    binary = find_iree_compile(config)
    if workdir is None:
        with _temp_dir() as tmp:
            return _compile_in(binary, mlir_text, config, Path(tmp), resolve_cpu, scratch=True)
    return _compile_in(binary, mlir_text, config, Path(workdir), resolve_cpu)


def _compile_in(binary: str, mlir_text: str, config: CompilerConfig, work: Path,
                resolve_cpu: bool = True, *, scratch: bool = False) -> Artifact | CompileFailure:
    source, vmfb = work / "input.mlir", work / "module.vmfb"
    sources_dir, tree_dir, stats_file = work / "sources", work / "ir", work / "statistics.json"
    configs_dir = work / "configurations"
    for stale in (sources_dir, tree_dir, configs_dir):
        shutil.rmtree(stale, ignore_errors=True)
    for stale in (vmfb, stats_file):
        stale.unlink(missing_ok=True)
    atomic_write_text(source, mlir_text)
    command = [
        binary, str(source), "-o", str(vmfb), *target_flags(config.target_cpu),
        f"--iree-hal-dump-executable-sources-to={sources_dir}",
        "--iree-scheduling-dump-statistics-format=json",
        f"--iree-scheduling-dump-statistics-file={stats_file}",
    ]
    if config.observe:
        command += [f"--mlir-print-ir-tree-dir={tree_dir}", f"--mlir-print-ir-before={_FINAL_PASS},{_BUFFERIZED_PASS}",
                    f"--iree-hal-dump-executable-configurations-to={configs_dir}"]
    command += config.flags
    version = releases.release_of(config)
    if version is not None:  # a published release: its spelling, and only the observation flags it has
        command = releases.adapt_command(version, command, compiler_flags(binary))
    returncode, stderr, seconds = _run_limited(command, config, scratch=work if scratch else None)
    kind = _failure_kind(returncode, stderr)
    if kind is not None:
        return CompileFailure(kind, _trim_diagnostic(stderr), tuple(command), returncode, seconds)
    problem = _output_problem(vmfb)
    if problem is not None:
        return CompileFailure("bad-output", f"{problem}\n{_trim_diagnostic(stderr)}".strip(), tuple(command), returncode,
                              seconds)
    sources = _read_sources(sources_dir)
    cpu = _cpu_info(config.target_cpu, sources.values())
    if not cpu.name and resolve_cpu:  # no dispatch (everything folded): ask a probe module instead
        cpu = resolve_platform(config)[0]
    dispatches = _read_dispatches(sources, tree_dir if config.observe else None, _read_sources(configs_dir))
    return Artifact(
        vmfb=vmfb.read_bytes(),
        dispatches=_read_elsewhere(dispatches, config) if config.observe else dispatches,
        statistics=json.loads(stats_file.read_text()) if stats_file.exists() else {},
        cpu=cpu,
        compiler_version=compiler_version(binary),
        command=tuple(command),
        seconds=seconds,
    )


_PRINT_CHANGES = ("--mlir-print-ir-after-all", "--mlir-print-ir-after-change", "--mlir-disable-threading",
                  "--mlir-elide-elementsattrs-if-larger=8")


def ir_after_each_change(mlir_text: str, config: CompilerConfig) -> str | CompileFailure:
    """The IR printed after every pass that changed it (the compiler's stderr), compiled under the
    same limits as ``compile_mlir``; a failed compile comes back as a CompileFailure."""
    binary = find_iree_compile(config)
    with _temp_dir("passes-") as tmp:
        source = Path(tmp) / "program.mlir"
        atomic_write_text(source, mlir_text)
        command = compile_command(config, source, Path(tmp) / "module.vmfb", _PRINT_CHANGES, binary=binary)
        returncode, stderr, seconds = _run_limited(command, config, scratch=Path(tmp))
    kind = _failure_kind(returncode, stderr)
    if kind is not None:
        return CompileFailure(kind, _trim_diagnostic(stderr), tuple(command), returncode, seconds)
    return stderr


def _run_limited(command: list[str], config: CompilerConfig,
                 scratch: Path | None = None) -> tuple[int | None, str, float]:
    """Run under ``launch`` (memory cap, no core dumps, its process group dies with this process, which
    removes ``scratch`` then); returncode None means it timed out (its group was killed)."""
    start = time.perf_counter()
    returncode, _, stderr = launch.run(command, timeout=config.timeout_s, memory_limit_mb=config.memory_limit_mb,
                                       scratch=scratch, stdout=False)
    return returncode, stderr, time.perf_counter() - start


# Temporary folders carry the pid of the process that made them, so a folder whose process was killed
# (a worker past its deadline, a campaign killed with -9) is recognised and removed later.
_TEMP_PREFIX = "ireefuzz-"
_TEMP_OWNER = re.compile(r"^ireefuzz-(?:passes-)?pid(\d+)-")


_TEMP_LOCK = threading.Lock()  # held while a folder is made; held for good once this process is ending


def _temp_dir(kind: str = "") -> tempfile.TemporaryDirectory:
    with _TEMP_LOCK:
        return tempfile.TemporaryDirectory(prefix=f"{_TEMP_PREFIX}{kind}pid{os.getpid()}-")


def remove_own_temp_dirs_for_good() -> None:
    """For a process about to be killed (a worker whose coordinator is gone): remove its compile folders and
    make no more. A compile's launcher removes its folder when we die, but not the folder of a compile
    being prepared or read back, which would outlive us until the next campaign's sweep."""
    _TEMP_LOCK.acquire()
    for path in Path(tempfile.gettempdir()).glob(f"{_TEMP_PREFIX}*pid{os.getpid()}-*"):
        owner = _TEMP_OWNER.match(path.name)
        if owner is not None and int(owner.group(1)) == os.getpid():
            shutil.rmtree(path, ignore_errors=True)


def remove_temp_dirs(pids: Iterable[int] | None = None) -> int:
    """Remove the compile folders (in the temporary directory) of ``pids``, or, by default, of every process
    that is gone; the number removed. Only this user's folders, never a live process'."""
    wanted = None if pids is None else set(pids)
    removed = 0
    for path in Path(tempfile.gettempdir()).glob(f"{_TEMP_PREFIX}*pid*-*"):
        owner = _TEMP_OWNER.match(path.name)
        if owner is None or (wanted is not None and int(owner.group(1)) not in wanted):
            continue
        try:
            if path.lstat().st_uid != os.getuid() or launch.alive(int(owner.group(1))):
                continue
        except OSError:
            continue
        shutil.rmtree(path, ignore_errors=True)
        removed += 1
    return removed


def _failure_kind(returncode: int | None, stderr: str) -> str | None:
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
        head = vmfb.open("rb").read(4096)
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
        return stderr if len(stderr) <= limit else f"{stderr[: limit // 2]}\n...\n{stderr[-limit // 2:]}"
    text = "\n".join(lines[i][:500] for i in keep)
    return text[:limit]


def _read_sources(sources_dir: Path) -> dict[str, str]:
    """Executable name -> its dumped source (files are named <module>_<executable>.mlir)."""
    sources = {}
    for path in sorted(sources_dir.glob("*.mlir")):
        text = path.read_text()
        match = re.search(r"hal\.executable (?:public |private )?@([\w$.-]+)", text)
        if match:
            sources[match.group(1)] = text
    return sources


# A dispatch without a translation_info gets no codegen pipeline: the pure data-movement ``*_slow_memcpy``
# ones (a strided slice, a concat's parts) are lowered directly. Named after IREE's pipeline enum ``None``.
NO_PIPELINE = "None"
_EXPORT = re.compile(r"hal\.executable\.export (?:public )?@([\w$.-]+)")
_FUNC = re.compile(r"^([ \t]*)func\.func (?:public |private )?@([\w$.-]+)\(", re.M)
_PIPELINE = re.compile(  # ``<pipeline = #iree_cpu.pipeline<X>`` (3.13), ``<pipeline = X`` (3.x), ``<X`` (2024)
    r"translation_info\s*=\s*#iree_codegen\.translation_info<\s*(?:pipeline\s*=\s*)?(?:#[\w.]+<)?(\w+)")
_TREE_FILE = re.compile(r"^((?:\d+_)+)(.+)\.mlir$")


def _read_dispatches(sources: Mapping[str, str], tree_dir: Path | None,
                     configured: Mapping[str, str] | None = None) -> tuple[DispatchIR, ...]:
    final_ir: dict[str, str] = {}
    bufferized_ir: dict[str, str] = {}
    if tree_dir is not None:
        for path in sorted(tree_dir.rglob("*.mlir"), key=_tree_order):
            dump = _TREE_FILE.match(path.name)
            target = {_FINAL_PASS: final_ir, _BUFFERIZED_PASS: bufferized_ir}.get(dump.group(2) if dump else "")
            if target is None:
                continue
            for name, text in _functions(path.read_text()).items():
                target.setdefault(name, text)  # the first dump of a pass that runs twice
    dispatches = []
    for executable, source in sources.items():
        for name in _EXPORT.findall(source):
            bufferized = bufferized_ir.get(name, "")
            configured_ir = (configured or {}).get(executable, "")
            pipeline = (_PIPELINE.search(bufferized) or _PIPELINE.search(final_ir.get(name, ""))
                        or _PIPELINE.search(configured_ir))  # a buffer-ops dispatch (a copy) is never bufferized
            dispatches.append(DispatchIR(
                name=name,
                pipeline=pipeline.group(1) if pipeline else NO_PIPELINE,
                final_ir=final_ir.get(name, ""),
                bufferized_ir=bufferized,
                source=source,
                configured=configured_ir,
            ))
    return tuple(sorted(dispatches, key=lambda d: _natural_key(d.name)))


def _read_elsewhere(dispatches: tuple[DispatchIR, ...], config: CompilerConfig) -> tuple[DispatchIR, ...]:
    """``dispatches`` with their ``facts`` read by the MLIR bindings of the install ``config``'s compiler
    comes from (``remote.read_ir`` in its Python), unless that is this one: IR is read by the bindings of
    the compiler that printed it (an older release's does not parse with the installed bindings)."""
    python = runtime_python_for(config)
    if python is None or not dispatches:
        return dispatches
    fields = ("name", "final_ir", "bufferized_ir", "source", "configured")
    facts = remote.read_ir(python, [{f: getattr(d, f) for f in fields} for d in dispatches])
    return tuple(dataclasses.replace(d, facts=f) for d, f in zip(dispatches, facts))


def _tree_order(path: Path) -> tuple:
    """Dump files in pass order: directories, then the numeric prefix (0_0_0_1_...) of the name."""
    prefix = _TREE_FILE.match(path.name)
    numbers = tuple(int(n) for n in prefix.group(1).rstrip("_").split("_")) if prefix else ()
    return (path.parent.parts, numbers)


def _natural_key(name: str) -> tuple:
    return tuple(int(part) if part.isdigit() else part for part in re.split(r"(\d+)", name))


def _functions(text: str) -> dict[str, str]:
    """``func.func`` blocks of printed IR by name (a function ends at the ``}`` at its own indent)."""
    lines = text.splitlines()
    functions = {}
    for match in _FUNC.finditer(text):
        indent, name = match.group(1), match.group(2)
        first = text.count("\n", 0, match.start(2))
        end = next((i for i in range(first + 1, len(lines)) if lines[i] == indent + "}"), len(lines) - 1)
        functions[name] = "\n".join(line[len(indent):] for line in lines[first:end + 1]) + "\n"
    return functions


def _cpu_info(requested: str, sources: Iterable[str]) -> CpuInfo:
    for source in sources:
        cpu = re.search(r'\bcpu = "([^"]*)"', source)
        if cpu:
            features = re.search(r'\bcpu_features = "([^"]*)"', source)
            return CpuInfo(requested, cpu.group(1), features.group(1) if features else "")
    return CpuInfo(requested, "", "")  # a module without dispatches never names its target


_PROBE = """func.func @probe(%a: tensor<4xf32>) -> tensor<4xf32> {
  %e = tensor.empty() : tensor<4xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]}
      ins(%a : tensor<4xf32>) outs(%e : tensor<4xf32>) {
  ^bb0(%x: f32, %y: f32):
    %s = arith.addf %x, %x : f32
    linalg.yield %s : f32
  } -> tensor<4xf32>
  return %r : tensor<4xf32>
}
"""


@functools.lru_cache(maxsize=None)
def _probe(binary: str, target_cpu: str, flags: tuple[str, ...], timeout_s: float) -> tuple[CpuInfo, str]:
    config = CompilerConfig(iree_compile=binary, target_cpu=target_cpu, flags=flags, observe=False, timeout_s=timeout_s)
    artifact = compile_mlir(_PROBE, config, resolve_cpu=False)
    if isinstance(artifact, Artifact):
        return artifact.cpu, artifact.compiler_version
    return CpuInfo(target_cpu, "", ""), ""


def probe(config: CompilerConfig) -> str | None:
    """Why ``config``'s compiler cannot be used, or None: checked once at start with ``--version`` and a tiny
    compile for its target CPU with its flags. A compiler that fails here (not an iree-compile, a bogus CPU,
    an unknown flag) would turn every case into a false finding."""
    try:
        binary = find_iree_compile(config)
        version = compiler_version(binary)
    except IreeNotFound as e:
        return str(e)
    except (OSError, subprocess.SubprocessError) as e:
        return f"cannot run `{config.iree_compile or 'iree-compile'} --version`: {e}"
    if not version:
        return f"`{binary} --version` prints no IREE compiler version: is it an iree-compile?"
    result = compile_mlir(_PROBE, dataclasses.replace(config, observe=False, timeout_s=min(config.timeout_s, 120.0)),
                          resolve_cpu=False)
    if isinstance(result, CompileFailure):
        lines = [line.strip() for line in result.diagnostic.splitlines() if line.strip()]
        why = next((line for line in lines if "error" in line.lower()), lines[0] if lines else result.kind)
        return (f"iree-compile fails on a tiny probe program with --iree-llvmcpu-target-cpu={config.target_cpu} and "
                f"flags {shlex.join(config.flags) or '(none)'} ({result.kind}): {why[:300]}")
    return None


def require_usable(config: CompilerConfig) -> None:
    """``probe`` for the faces: a UsageError (one line, saying what to change) if ``config``'s compiler fails it."""
    problem = probe(config)
    if problem is not None:
        raise UsageError(f"{problem} -- give a working --iree-compile (or --release), --target-cpu and --flags")


def resolve_platform(config: CompilerConfig) -> tuple[CpuInfo, str]:
    """(the CPU ``config.target_cpu`` resolves to, e.g. host -> znver5 with its features; the compiler
    version), once per process from a tiny probe compile -- so findings of failed compiles record them
    too. Unknown (empty) if even the probe fails to compile."""
    return _probe(find_iree_compile(config), config.target_cpu, tuple(config.flags), min(config.timeout_s, 60.0))


def dispatches_of(artifact: Artifact, function_name: str) -> tuple[DispatchIR, ...]:
    """The dispatches outlined from ``function_name`` (IREE names them ``<function>_dispatch_<N>_...``).

    IREE deduplicates identical executables across functions, so a dispatch that is identical to one
    of an earlier function is listed under that earlier function only.
    """
    prefix = f"{function_name}_dispatch_"
    return tuple(d for d in artifact.dispatches if d.name.startswith(prefix) and d.name[len(prefix):][:1].isdigit())


# --------------------------------------------------------------------------- runtime

_DRIVER = "local-sync"  # single-threaded, deterministic; one device per process


@functools.lru_cache(maxsize=None)
def _runtime() -> tuple[Any, Any, Any]:
    """(iree.runtime, VmInstance, HalDevice), created once per process."""
    try:
        import iree.runtime as rt
    except ImportError as e:
        raise IreeNotFound(f"the IREE runtime is not installed: pip install iree-base-runtime ({e})") from e
    return rt, rt.VmInstance(), rt.get_device(_DRIVER)


class LoadedModule:
    """A compiled module loaded into the process-wide IREE runtime, ready to call."""

    def __init__(self, artifact: Artifact | bytes):
        rt, instance, device = _runtime()
        vmfb = artifact.vmfb if isinstance(artifact, Artifact) else artifact
        self._module = rt.VmModule.copy_buffer(instance, vmfb)
        self._context = rt.VmContext(instance, modules=[rt.create_hal_module(instance, device), self._module])
        self._invokers: dict[str, Any] = {}

    @property
    def function_names(self) -> tuple[str, ...]:
        return tuple(n for n in self._module.function_names if not n.startswith("__"))

    def call(self, function: str, inputs: Sequence[np.ndarray]) -> RunResult | RunFailure:
        """Call ``function``; every input is passed as a device buffer and read back after the call."""
        rt, _, device = _runtime()
        invoker = self._invoker(function)
        # np.asarray, not np.ascontiguousarray: the latter turns 0-d arrays into 1-d ones.
        buffers = [rt.asdevicearray(device, np.asarray(x, order="C")) for x in inputs]
        start = time.perf_counter()
        try:
            results = invoker(*buffers)
        except (RuntimeError, ValueError) as e:  # the runtime reports any failed invocation this way
            return RunFailure("fault", f"{function}: {e}")
        seconds = time.perf_counter() - start
        if results is None:
            results = ()
        elif not isinstance(results, (tuple, list)):
            results = (results,)
        return RunResult(
            outputs=tuple(_to_numpy(r) for r in results),
            inputs_after=tuple(_to_numpy(b) for b in buffers),
            seconds=seconds,
        )

    def _invoker(self, function: str) -> Any:
        if function not in self._invokers:
            rt, _, device = _runtime()
            vm_function = self._module.lookup_function(function)
            if vm_function is None:
                raise KeyError(f"no function {function!r} in the module; it has {self.function_names}")
            self._invokers[function] = rt.FunctionInvoker(self._context, device, vm_function)
        return self._invokers[function]


def _to_numpy(value: Any) -> np.ndarray:
    host = value.to_host() if hasattr(value, "to_host") else value
    return np.array(host, copy=True)  # never a view of a device buffer the runtime may reuse


class RemoteModule:
    """A compiled module loaded into ``python``'s runner; same interface as ``sut.LoadedModule``."""

    def __init__(self, vmfb: bytes, python: str) -> None:
        self._vmfb = vmfb
        self._runner = remote.runner_for(python)
        self._id, self._generation = 0, -1
        self._functions: tuple[str, ...] = ()
        self._died_loading = ""  # the runtime was killed by a signal loading this module: every call says so
        self._load()

    @property
    def function_names(self) -> tuple[str, ...]:
        return self._functions

    def call(self, function: str, inputs: Sequence[np.ndarray]) -> RunResult | RunFailure:
        """Call ``function`` in the runner; inputs are read back after the call (``inputs_after``). A runner that
        dies costs this call (a ``crash``), never its caller: the next request starts another, into which the
        module is loaded again when its generation is gone (also when another thread's call killed it)."""
        request = {"op": "call", "function": function, "n": len(inputs)}
        request.update({f"in{k}": np.asarray(x, order="C") for k, x in enumerate(inputs)})
        for _ in range(3):
            if not self._died_loading and self._generation != self._runner.start():  # a new runner since loading
                self._load()
            if self._died_loading:
                return RunFailure("crash", f"{function}: {self._died_loading}")
            try:
                reply = self._runner.request(dict(request, id=self._id), generation=self._generation)
                break
            except remote.RunnerRestarted:  # another thread's request restarted the runner: load again, retry
                continue
            except remote.RunnerDied as e:
                how = f"of signal {e.signal}" if e.signal is not None else "(its process exited)"
                return RunFailure("crash", f"{function}: the runtime died {how}: {remote.last_line(e.stderr)}")
        else:
            raise RuntimeError(f"{function}: the runner kept restarting under this module")
        status = str(reply["status"])
        if status == "fault":
            return RunFailure("fault", str(reply["message"]))
        if status != "ok":
            raise KeyError(f"{reply['message']}; the module has {self._functions}")
        outputs = tuple(reply[f"out{k}"] for k in range(sum(1 for n in reply if n.startswith("out"))))
        after = tuple(reply[f"after{k}"] for k in range(len(inputs)))
        return RunResult(outputs=outputs, inputs_after=after, seconds=float(reply["seconds"]))

    def _load(self) -> None:
        """Load the module; RuntimeError (as in-process loading) if this runtime rejects it. Killed by a
        signal while loading, the module is a runtime crash for every call (``_died_loading``)."""
        try:
            reply = self._runner.request({"op": "load", "module": np.frombuffer(self._vmfb, np.uint8)})
        except remote.RunnerDied as e:
            if e.signal is None:
                raise RuntimeError(f"the runtime died loading the module: {remote.last_line(e.stderr)}") from None
            self._died_loading = f"the runtime died of signal {e.signal} loading the module: {remote.last_line(e.stderr)}"
            return
        if str(reply["status"]) != "ok":
            raise RuntimeError(str(reply["message"]))
        self._id, self._generation = int(reply["id"]), int(reply["generation"])
        self._functions = tuple(str(f) for f in reply["functions"])
        weakref.finalize(self, self._runner.free_later, self._generation, self._id)


# --------------------------------------------------------------------------- which runtime runs a module


def runtime_python_for(config: CompilerConfig) -> str | None:
    """The Python whose ``iree.runtime`` runs ``config``'s modules (in a ``runner.py`` process): the one
    given, the release's, or the one installed with an external iree-compile; None = this process's."""
    if config.runtime_python is not None:
        python = shutil.which(config.runtime_python) or config.runtime_python
        if not (os.path.isfile(python) and os.access(python, os.X_OK)):
            raise IreeNotFound(f"the runtime Python given ({config.runtime_python!r}, from --iree-runtime) is not an "
                               "executable file: give a Python that can import the matching iree.runtime")
    elif config.release is not None and config.iree_compile is None:
        python = releases.release(config.release, install=False).python
    elif config.iree_compile is not None:
        python = releases.runtime_python_beside(find_iree_compile(config))
    else:
        return None
    return None if python is None or _is_this_python(python) else os.path.abspath(python)


# A runner takes arrays as npz (``runner.py``), and a release's own numpy has no bfloat16 (ml_dtypes).
RUNNER_UNFEEDABLE_DTYPES = frozenset({"bf16"})


def unfeedable_dtypes(config: CompilerConfig) -> frozenset[str]:
    """Element types no argument may have on ``config``'s runtime (the drawing leaves them out): any
    compiler but the installed wheel's may run through a runner (known without installing a release)."""
    return frozenset() if uses_installed_wheels(config) else RUNNER_UNFEEDABLE_DTYPES


def uses_installed_wheels(config: CompilerConfig) -> bool:
    """``config`` names no release, compiler or runtime: the installed wheels, whose compiler, runtime and MLIR
    bindings match by construction."""
    return config.release is None and config.iree_compile is None and config.runtime_python is None


def _is_this_python(python: str) -> bool:
    """True if ``python`` is this interpreter in this environment (its iree.runtime is ours)."""
    venv = Path(os.path.abspath(python)).parent.parent
    home = venv if (venv / "pyvenv.cfg").exists() else Path(os.path.realpath(python)).parent.parent
    return home.resolve() == Path(sys.prefix).resolve()


def load_module(artifact: Artifact, config: CompilerConfig | None = None) -> "LoadedModule | RemoteModule | CompileFailure":
    """``artifact`` loaded into the runtime that matches ``config``'s compiler (see ``runtime_python_for``).
    A module that runtime rejects is the compiler's bad output (a ``bad-output`` failure value); a runtime
    that cannot load this compiler's modules at all is caught once, up front, by ``check_runtime``."""
    python = runtime_python_for(config or CompilerConfig())
    try:
        return LoadedModule(artifact) if python is None else RemoteModule(artifact.vmfb, python)
    except (RuntimeError, ValueError) as e:  # e.g. "bytecode version mismatch; runtime supports 17.0, module has 15.0"
        return CompileFailure("bad-output", f"the runtime rejects the module iree-compile wrote: {e}",
                              artifact.command, 0, artifact.seconds)


def _mismatch(artifact: Artifact, config: CompilerConfig, python: str | None, reason: str) -> str:
    runtime = f"the IREE runtime of {python}" if python else "the IREE runtime installed with ireefuzz"
    reason = re.sub(r"\S+\.c:\d+: ", "", " ".join(reason.split()))[:300]  # without the runtime's source location
    return (f"iree-compile {artifact.compiler_version} ({find_iree_compile(config)}) writes modules that {runtime} "
            f"cannot load ({reason}); give --iree-runtime PYTHON (a Python whose iree.runtime comes from the same "
            "build) or --release VERSION")


@functools.lru_cache(maxsize=None)
def _probe_artifact(config: CompilerConfig) -> Artifact | CompileFailure:
    """The probe module compiled (with the IR dumps) by ``config``'s compiler, once per configuration."""
    return compile_mlir(_PROBE, dataclasses.replace(config, observe=True, timeout_s=min(config.timeout_s, 60.0)),
                        resolve_cpu=False)


def check_runtime(config: CompilerConfig) -> None:
    """Up front: a tiny module compiled by ``config``'s iree-compile loads and runs in the runtime
    ``load_module`` would use; IreeNotFound (one line) if not. A compiler that cannot compile even
    the probe is left for the real compiles to report. A compile-only configuration is checked for this
    machine (its runtime still runs the campaign's other configurations)."""
    if compile_only(config):
        config = dataclasses.replace(config, target_cpu="generic",
                                     flags=tuple(f for f in config.flags if not f.startswith(_CROSS_FLAGS)))
    artifact = _probe_artifact(config)
    if isinstance(artifact, CompileFailure):
        return
    module = load_module(artifact, config)
    if isinstance(module, CompileFailure):
        raise IreeNotFound(_mismatch(artifact, config, runtime_python_for(config), module.diagnostic))
    outcome = module.call("probe", [np.arange(4, dtype=np.float32)])
    if isinstance(outcome, RunFailure) or not np.array_equal(outcome.outputs[0], 2 * np.arange(4, dtype=np.float32)):
        raise IreeNotFound(_mismatch(artifact, config, runtime_python_for(config), f"the probe module ran wrong: {outcome}"))


@functools.lru_cache(maxsize=None)
def oracles_not_judged(config: CompilerConfig) -> Mapping[str, str]:
    """The IR oracles that cannot judge ``config``'s compiler, with why, from the probe module: memory without
    the per-pass IR dumps (no ``--mlir-print-ir-tree-dir`` before 2024-06), memory and fusion when the
    dispatch IR cannot be read even by the bindings of the compiler's own install. Empty if the probe fails."""
    from ireefuzz.oracles import fusion, ir, memory  # noqa: F401  (importing them declares their facts)

    artifact = _probe_artifact(config)
    if isinstance(artifact, CompileFailure):
        return {}
    for dispatch in artifact.dispatches:
        facts = dispatch.facts if dispatch.facts is not None else ir.facts_of(dispatch)
        if "unreadable" in facts:
            return dict.fromkeys(sorted(IR_ORACLES), f"its dispatch IR cannot be read ({facts['unreadable'][:200]})")
    if not all(d.final_ir and d.bufferized_ir for d in artifact.dispatches):
        return {"memory": "it cannot dump the IR before a pass per dispatch (no --mlir-print-ir-tree-dir)"}
    return {}


IR_ORACLES = frozenset({"memory", "fusion"})  # they read dispatch IR


def prepare(config: CompilerConfig, *, log: Callable[[str], None] = lambda m: None) -> frozenset[str]:
    """Ready ``config`` before any work, or say in one line what is missing: its release
    installed (downloaded on first use) and its runtime shown to load its compiler's modules.

    Returns the oracles that cannot judge this compiler (``oracles_not_judged``), said in ``log``."""
    if uses_installed_wheels(config):
        return frozenset()
    if config.release is not None:
        if config.iree_compile is not None:
            raise UsageError("give --release or --iree-compile, not both")
        releases.release(releases.known(config.release), log=log)
    python = runtime_python_for(config)
    check_runtime(config)
    if python is not None:
        log(f"running modules with iree.runtime {remote.runtime_version(python)} of {python}")
    unable = oracles_not_judged(config)
    for oracle, why in unable.items():
        log(f"the {oracle} oracle cannot judge this compiler: {why}")
    return frozenset(unable)
