"""IREE command lines: the target flags, ``iree-compile`` and ``iree-run-module`` commands, value literals and
expected-output flags, and which flags a case read from a file may not carry.
"""

from __future__ import annotations

import platform
import re
from pathlib import Path
from typing import Mapping, Sequence

import numpy as np

from ireefuzz.errors import IreeNotFound
from ireefuzz.sut.binaries import find_iree_compile
from ireefuzz.sut.config import CompilerConfig, host_cpu

_MACHINES = {"arm64": "aarch64", "amd64": "x86_64"}  # platform.machine() spellings -> LLVM triple arch
CROSS_FLAGS = ("--iree-llvmcpu-target-triple=", "--iree-llvmcpu-target-cpu-features=")  # another target's


def compile_only(config: CompilerConfig) -> str | None:
    """The target triple of ``config`` when its code cannot run on this machine (another architecture: a
    cross-compile configuration, ``config_space.CROSS_TARGETS``), else None."""
    prefix = CROSS_FLAGS[0]
    triple = next((f[len(prefix) :] for f in reversed(config.flags) if f.startswith(prefix)), None)
    here = platform.machine().lower()
    return None if triple is None or triple.split("-")[0] == _MACHINES.get(here, here) else triple


BACKEND_FLAG = "--iree-hal-target-backends"  # a list option: a second one adds a backend, it never replaces the first
VMVX_FLAGS = (f"{BACKEND_FLAG}=vmvx",)  # IREE's reference CPU backend (bytecode), as every release spells it
VECTOR_WIDTH_FLAG = "--iree-llvmcpu-target-vector-width-in-bytes"  # the target's native vector size, overridden


def backend_flags(target_cpu: str, flags: Sequence[str] = ()) -> list[str]:
    """The flags that select the llvm-cpu target ``target_cpu`` (``host`` as ``host_cpu`` takes it); when ``flags``
    select a backend themselves (``VMVX_FLAGS``), theirs alone: llvm-cpu's would be compiled beside it, and its
    variant run first."""
    own_backend = any(f.startswith(BACKEND_FLAG + "=") for f in flags)
    cpu = host_cpu() if target_cpu == "host" else target_cpu
    return [*([] if own_backend else [f"{BACKEND_FLAG}=llvm-cpu"]), f"--iree-llvmcpu-target-cpu={cpu}"]


def target_flags(target_cpu: str, flags: Sequence[str] = ()) -> list[str]:
    """The flags that select the target (``backend_flags``), then ``flags`` (the one spelling of them)."""
    return [*backend_flags(target_cpu, flags), *flags]


def compile_command(
    config: CompilerConfig,
    source: str | Path,
    output: str | Path,
    extra: Sequence[str] = (),
    *,
    binary: str | None = None,
    flags: Sequence[str] | None = None,
) -> list[str]:
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


def run_module_command(
    module: str | Sequence[str],
    function: str,
    inputs: Sequence[str] = (),
    extra: Sequence[str] = (),
    *,
    binary: str = "iree-run-module",
) -> list[str]:
    """``iree-run-module --module=M... --device=local-sync --function=F --input=I... <extra>``.

    ``module`` may be several (later ones may import functions of earlier ones)."""
    modules = [module] if isinstance(module, (str, Path)) else list(module)
    return [
        binary,
        *(f"--module={m}" for m in modules),
        f"--device={DRIVER}",
        f"--function={function}",
        *(f"--input={i}" for i in inputs),
        *extra,
    ]


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


def expected_output_flags(
    expected: Sequence[str], *, exact: bool, rtol: float = 0.0, atol: Mapping[str, float] | None = None
) -> list[str]:
    """iree-run-module flags that compare the results with ``expected`` (files as ``@path.npy``):
    bitwise when ``exact``, else ``|actual - expected| <= atol + rtol * |expected|`` per element."""
    flags = [f"--expected_output={e}" for e in expected]
    if exact:
        return flags + ["--equality_mode=exact"]
    flags += ["--equality_mode=approximate", f"--expected_rtol={float(rtol)!r}"]  # float(): never numpy's repr
    return flags + [f"--expected_{dtype}_threshold={float(value)!r}" for dtype, value in sorted((atol or {}).items())]


# Flags a case or finding file may not carry: they make iree-compile write files where the file says.
_OUTPUT_FLAGS = (
    "-o",
    "--o",
    "--output",
    "--iree-hal-dump-",
    "--mlir-print-ir-tree-dir",
    "--dump-",
    "--iree-dump-",
    "--iree-scheduling-dump-",
    "--mlir-pass-statistics-",
    "--iree-hal-executable-object-search-path",
    "--iree-llvmcpu-embedded-linker-path",
    "--iree-llvmcpu-system-linker-path",
    "--iree-hal-list-",
    "--mlir-reproducer",
    "--mlir-pass-pipeline-crash-reproducer",
    "--iree-hal-preprocess-executables-with",
)


def unsafe_flags(flags: Sequence[str]) -> list[str]:
    """The flags in ``flags`` that name an output, dump or tool path (``*-to=``, ``*-file=``, ``*-dir=``,
    ``-o``, ...) or are not ``--name[=value]`` at all: a case read from a file must not carry them."""
    bad = []
    for flag in flags:
        name = str(flag).split("=", 1)[0]
        if (
            not isinstance(flag, str)
            or not re.fullmatch(r"--[A-Za-z0-9][\w.-]*(=[^\s]*)?", flag)
            or name.startswith(_OUTPUT_FLAGS)
            or name in ("-o", "--o")
            or re.search(r"-(to|file|dir|path|directory|output|filename)$", name)
        ):
            bad.append(str(flag))
    return bad


DRIVER = "local-sync"  # single-threaded, deterministic; one device per process
