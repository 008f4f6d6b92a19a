"""The values at the IREE boundary: ``Artifact`` / ``CompileFailure`` out of a compile, ``RunResult`` /
``RunFailure`` out of a call, with ``DispatchIR`` and ``CpuInfo``. Failures of IREE are values, never exceptions.
"""

from __future__ import annotations

import dataclasses
from typing import Any, Literal, Mapping

import numpy as np


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
    llvm_ir: str = ""  # its function in the optimized LLVM IR ("" when not dumped): what of the stack survives LLVM
    read_by: tuple[str, ...] | None = None  # the dispatches that read its result (None: the host program unread)
    reads_hoisted: tuple[str, ...] = ()  # the hoisted constant globals (``@__hoisted_*``) whose data it reads
    hoists: tuple[str, ...] = ()  # the hoisted globals its result initializes (a ``util.initializer``'s dispatch)
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
    warnings: tuple[str, ...] = ()  # the compiler's warnings, each its location lines (``compile.warnings_of``)


CompileFailureKind = Literal["error", "crash", "timeout", "oom", "bad-output"]
RunFailureKind = Literal["fault", "crash", "timeout"]


@dataclasses.dataclass(frozen=True)
class CompileFailure:
    kind: CompileFailureKind  # "bad-output": exit 0, but no module or not one
    diagnostic: str  # the compiler's stderr, trimmed to the useful part
    command: tuple[str, ...]
    returncode: int | None
    seconds: float
    warnings: tuple[str, ...] = ()  # the compiler's warnings before it failed (``compile.warnings_of``)


@dataclasses.dataclass(frozen=True)
class RunResult:
    outputs: tuple[np.ndarray, ...]
    inputs_after: tuple[np.ndarray, ...]  # every input buffer read back after the call
    seconds: float


@dataclasses.dataclass(frozen=True)
class RunFailure:
    kind: RunFailureKind  # "fault": the runtime reported an error; "crash": the process died (set by the runner);
    # "timeout": past the run's wall-clock limit (an isolated run)
    message: str
