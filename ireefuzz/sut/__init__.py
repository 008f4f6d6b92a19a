"""The system under test: IREE's compiler and runtime behind plain Python values.

This is the only package that knows IREE flags, binaries and versions.
Failures of IREE come back as values (CompileFailure, RunFailure), never as exceptions;
exceptions raised from here are ireefuzz's own bugs or a broken installation (IreeNotFound).

A facade over its modules, from the bottom up: ``config`` (what to compile with), ``results`` (the values
at the boundary), ``binaries`` (locating iree-compile, iree-run-module and the runtime Python),
``toolchain`` (a config's compiler and runtime, resolved once: ``Toolchain``), ``commands`` (command lines
and flags), ``scratch`` (temporary folders), ``dumps`` (reading what a compile dumped), ``compile``, ``runtime``
(loading and calling modules) and ``probe`` (checking a configuration up front). ``releases``, ``remote``, ``runner``,
``launch``, ``ir_reader`` and ``config_space`` sit beside them.
"""

from __future__ import annotations

from ireefuzz.errors import IreeNotFound
from ireefuzz.sut import launch, releases, remote
from ireefuzz.sut.binaries import (
    RUNNER_UNFEEDABLE_DTYPES,
    compiler_flags,
    compiler_version,
    find_iree_compile,
    find_iree_run_module,
    unfeedable_dtypes,
    uses_installed_wheels,
)
from ireefuzz.sut.commands import (
    compile_command,
    compile_only,
    expected_output_flags,
    run_module_command,
    target_flags,
    unsafe_flags,
    value_literal,
)
from ireefuzz.sut.compile import (
    CRASH_MARKERS,
    OOM_MARKERS,
    compile_mlir,
    compile_to,
    ir_after_each_change,
    resolve_platform,
)
from ireefuzz.sut.config import CompilerConfig, config_for
from ireefuzz.sut.dumps import NO_PIPELINE, OBSERVATION_PASSES, dispatches_of
from ireefuzz.sut.probe import IR_ORACLES, check_runtime, oracles_not_judged, prepare, prepared, probe, require_usable
from ireefuzz.sut.results import Artifact, CompileFailure, CpuInfo, DispatchIR, RunFailure, RunResult
from ireefuzz.sut.runtime import LoadedModule, RemoteModule, load_module
from ireefuzz.sut.scratch import remove_own_temp_dirs_for_good, remove_temp_dirs, temp_dir
from ireefuzz.sut.toolchain import Setup, Toolchain, runtime_python_for, toolchain_of

__all__ = [
    "CRASH_MARKERS",
    "IR_ORACLES",
    "NO_PIPELINE",
    "OBSERVATION_PASSES",
    "OOM_MARKERS",
    "RUNNER_UNFEEDABLE_DTYPES",
    "Setup",
    "Toolchain",
    "toolchain_of",
    "Artifact",
    "CompileFailure",
    "CompilerConfig",
    "CpuInfo",
    "DispatchIR",
    "IreeNotFound",
    "LoadedModule",
    "RemoteModule",
    "RunFailure",
    "RunResult",
    "check_runtime",
    "compile_command",
    "compile_mlir",
    "compile_to",
    "compile_only",
    "compiler_flags",
    "compiler_version",
    "config_for",
    "dispatches_of",
    "expected_output_flags",
    "find_iree_compile",
    "find_iree_run_module",
    "ir_after_each_change",
    "launch",
    "load_module",
    "oracles_not_judged",
    "prepare",
    "prepared",
    "probe",
    "releases",
    "remote",
    "remove_own_temp_dirs_for_good",
    "remove_temp_dirs",
    "require_usable",
    "resolve_platform",
    "run_module_command",
    "runtime_python_for",
    "target_flags",
    "temp_dir",
    "unfeedable_dtypes",
    "unsafe_flags",
    "uses_installed_wheels",
    "value_literal",
]
