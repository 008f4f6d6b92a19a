"""What to compile with: ``CompilerConfig`` (unresolved inputs: a compiler path, a release, a runtime Python,
each maybe None) and ``config_for``, the one case -> config merge.
"""
from __future__ import annotations

import dataclasses
from typing import TYPE_CHECKING

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
