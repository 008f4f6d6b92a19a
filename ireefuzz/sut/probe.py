"""Up-front checks of a configuration with a tiny probe module: the compiler works (``probe``,
``require_usable``), the runtime loads its modules (``check_runtime``), which IR oracles can judge it
(``oracles_not_judged``), and ``prepare``, which does all of these once before any work.
"""

from __future__ import annotations

import dataclasses
import functools
import re
import shlex
import subprocess
from typing import Callable, Mapping

import numpy as np

from ireefuzz.errors import IreeNotFound, UsageError
from ireefuzz.sut import releases, remote
from ireefuzz.sut.binaries import compiler_version, find_iree_compile, uses_installed_wheels
from ireefuzz.sut.commands import CROSS_FLAGS, compile_only
from ireefuzz.sut.compile import PROBE_PROGRAM, compile_mlir
from ireefuzz.sut.config import CompilerConfig
from ireefuzz.sut.results import Artifact, CompileFailure, RunFailure
from ireefuzz.sut.runtime import load_module
from ireefuzz.sut.toolchain import Setup, Toolchain, toolchain_of


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
    result = compile_mlir(
        PROBE_PROGRAM,
        dataclasses.replace(config, observe=False, timeout_s=min(config.timeout_s, 120.0)),
        resolve_cpu=False,
    )
    if isinstance(result, CompileFailure):
        lines = [line.strip() for line in result.diagnostic.splitlines() if line.strip()]
        why = next((line for line in lines if "error" in line.lower()), lines[0] if lines else result.kind)
        return (
            f"iree-compile fails on a tiny probe program with --iree-llvmcpu-target-cpu={config.target_cpu} and "
            f"flags {shlex.join(config.flags) or '(none)'} ({result.kind}): {why[:300]}"
        )
    return None


def require_usable(config: CompilerConfig) -> None:
    """``probe`` for the faces: a UsageError (one line, saying what to change) if ``config``'s compiler fails it."""
    problem = probe(config)
    if problem is not None:
        raise UsageError(f"{problem} -- give a working --iree-compile (or --release), --target-cpu and --flags")


def _mismatch(artifact: Artifact, config: CompilerConfig, python: str | None, reason: str) -> str:
    runtime = f"the IREE runtime of {python}" if python else "the IREE runtime installed with ireefuzz"
    reason = re.sub(r"\S+\.c:\d+: ", "", " ".join(reason.split()))[:300]  # without the runtime's source location
    return (
        f"iree-compile {artifact.compiler_version} ({toolchain_of(config).iree_compile}) writes modules that {runtime} "
        f"cannot load ({reason}); give --iree-runtime PYTHON (a Python whose iree.runtime comes from the same "
        "build) or --release VERSION"
    )


@functools.lru_cache(maxsize=None)
def _probe_artifact(config: CompilerConfig) -> Artifact | CompileFailure:
    """The probe module compiled (with the IR dumps) by ``config``'s compiler, once per configuration."""
    return compile_mlir(
        PROBE_PROGRAM,
        dataclasses.replace(config, observe=True, timeout_s=min(config.timeout_s, 60.0)),
        resolve_cpu=False,
    )


def check_runtime(config: CompilerConfig) -> None:
    """Up front: a tiny module compiled by ``config``'s iree-compile loads and runs in the runtime
    ``load_module`` would use; IreeNotFound (one line) if not. A compiler that cannot compile even
    the probe is left for the real compiles to report. A compile-only configuration is checked for this
    machine (its runtime still runs the campaign's other configurations)."""
    if compile_only(config):
        config = dataclasses.replace(
            config, target_cpu="generic", flags=tuple(f for f in config.flags if not f.startswith(CROSS_FLAGS))
        )
    artifact = _probe_artifact(config)
    if isinstance(artifact, CompileFailure):
        return
    module = load_module(artifact, config)
    if isinstance(module, CompileFailure):
        raise IreeNotFound(_mismatch(artifact, config, toolchain_of(config).runtime_python, module.diagnostic))
    outcome = module.call("probe", [np.arange(4, dtype=np.float32)])
    if isinstance(outcome, RunFailure) or not np.array_equal(outcome.outputs[0], 2 * np.arange(4, dtype=np.float32)):
        raise IreeNotFound(
            _mismatch(artifact, config, toolchain_of(config).runtime_python, f"the probe module ran wrong: {outcome}")
        )


def oracles_not_judged(config: CompilerConfig) -> Mapping[str, str]:
    """The IR oracles that cannot judge ``config``'s compiler, with why, from the probe module: memory without
    the per-pass IR dumps (no ``--mlir-print-ir-tree-dir`` before 2024-06), memory and fusion when the
    dispatch IR cannot be read even by the bindings of the compiler's own install. Empty if the probe fails."""
    import ireefuzz.oracles.fusion  # noqa: F401  (importing them declares their facts)
    import ireefuzz.oracles.memory  # noqa: F401
    from ireefuzz.oracles.ir import facts_of

    artifact = _probe_artifact(config)
    if isinstance(artifact, CompileFailure):
        return {}
    for dispatch in artifact.dispatches:
        facts = dispatch.facts if dispatch.facts is not None else facts_of(dispatch)
        if "unreadable" in facts:
            return dict.fromkeys(sorted(IR_ORACLES), f"its dispatch IR cannot be read ({facts['unreadable'][:200]})")
    if not all(d.final_ir and d.bufferized_ir for d in artifact.dispatches):
        return {"memory": "it cannot dump the IR before a pass per dispatch (no --mlir-print-ir-tree-dir)"}
    return {}


IR_ORACLES = frozenset({"memory", "fusion"})  # they read dispatch IR


def prepare(config: CompilerConfig, *, log: Callable[[str], None] = lambda m: None) -> Toolchain:
    """Ready ``config`` before any work, or say in one line what is missing: its release
    installed (downloaded on first use) and its runtime shown to load its compiler's modules.

    Returns its ``Toolchain`` with ``not_judged``: the oracles that cannot judge this compiler
    (``oracles_not_judged``), said in ``log``. It is the caller's to pass on (``prepared`` wraps it in a
    ``Setup``): nothing process-wide is rewritten."""
    if uses_installed_wheels(config):
        return dataclasses.replace(toolchain_of(config), not_judged={})
    if config.release is not None:
        if config.iree_compile is not None:
            raise UsageError("give --release or --iree-compile, not both")
        releases.release(releases.known(config.release), log=log)
    toolchain = toolchain_of(config)
    check_runtime(config)
    if toolchain.runtime_python is not None:
        log(
            f"running modules with iree.runtime {remote.runtime_version(toolchain.runtime_python)} of "
            f"{toolchain.runtime_python}"
        )
    unable = oracles_not_judged(config)
    for oracle, why in unable.items():
        log(f"the {oracle} oracle cannot judge this compiler: {why}")
    return dataclasses.replace(toolchain, not_judged=dict(unable))


def prepared(config: CompilerConfig, *, log: Callable[[str], None] = lambda m: None) -> Setup:
    """``prepare``, as the ``Setup`` a face hands down to the work (the config resolved once)."""
    return Setup(prepare(config, log=log), config)
