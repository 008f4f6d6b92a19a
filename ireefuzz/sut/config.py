"""What to compile with: ``CompilerConfig`` (unresolved inputs: a compiler path, a release, a runtime Python,
each maybe None) and ``config_for``, the one case -> config merge.
"""

from __future__ import annotations

import dataclasses
import functools
import os
from typing import Any, Protocol, Sequence

from ireefuzz.errors import UsageError

X86_64_LEVELS = ("x86-64", "x86-64-v2", "x86-64-v3", "x86-64-v4")  # psABI levels: each has the features before it
HOST_CPU_ENV = "IREEFUZZ_HOST_CPU"  # e.g. x86-64-v3: this machine taken as that level (host_cpu)


@functools.lru_cache(maxsize=None)
def host_cpu() -> str:
    """The CPU the target ``host`` compiles for: ``host`` (this machine's own), or the x86-64 level that env
    ``IREEFUZZ_HOST_CPU`` takes this machine as. It covers what may run too: ``sut.config_space.cannot_run`` judges
    against that level's features (an AVX-512 machine taken as ``x86-64-v3`` compiles and runs as an AVX2 one,
    and compiles ``x86-64-v4`` code without running it). Read once per process; ``commands.target_flags`` spells it."""
    value = os.environ.get(HOST_CPU_ENV, "").strip() or "host"
    if value not in ("host", *X86_64_LEVELS):
        choices = ", ".join(X86_64_LEVELS)
        raise UsageError(f"{HOST_CPU_ENV}={value!r}: take this machine as one of {choices}, or leave it unset")
    missing = sorted(LEVEL_FLAGS.get(value, set()) - cpu_flags()) if cpu_flags() else []
    if missing:  # code for that level would run here and die of SIGILL: a crash that is no finding
        raise UsageError(
            f"{HOST_CPU_ENV}={value}: this machine lacks {', '.join(missing)}, so it cannot be taken as {value}; "
            "take it as a lower level"
        )
    return value


# The /proc/cpuinfo flags each x86-64 psABI level needs beyond the one before it (cumulative below).
_NEW_FLAGS = {
    "x86-64": set(),
    "x86-64-v2": {"cx16", "lahf_lm", "popcnt", "sse4_1", "sse4_2", "ssse3"},
    "x86-64-v3": {"avx", "avx2", "bmi1", "bmi2", "f16c", "fma", "abm", "movbe", "xsave"},
    "x86-64-v4": {"avx512f", "avx512bw", "avx512cd", "avx512dq", "avx512vl"},
}
LEVEL_FLAGS = {
    level: set().union(*(_NEW_FLAGS[lower] for lower in X86_64_LEVELS[: i + 1]))
    for i, level in enumerate(X86_64_LEVELS)
}


@functools.lru_cache(maxsize=1)
def cpu_flags(cpuinfo: str = "/proc/cpuinfo") -> frozenset[str]:
    """This machine's CPU flags as Linux lists them (empty where there is no /proc/cpuinfo: nothing is refused)."""
    try:
        with open(cpuinfo) as f:
            line = next((ln for ln in f if ln.startswith("flags")), "")
    except OSError:
        return frozenset()
    return frozenset(line.partition(":")[2].split())


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

    @classmethod
    def from_options(cls, options: Any, *, prefix: str = "", **fields: Any) -> "CompilerConfig":
        """The config the shared compiler options (``ireefuzz.base.compiler_options``) give on ``options`` (an argparse
        namespace, or pytest's ``config.option`` with ``prefix="ireefuzz_"``); an option a face does not declare
        keeps its default. ``fields`` sets the rest (``timeout_s``, ``observe``...)."""

        def given(name: str) -> Any:
            return getattr(options, prefix + name, None)

        return cls(
            iree_compile=given("iree_compile"),
            release=given("release"),
            runtime_python=given("iree_runtime"),
            target_cpu=given("target_cpu") or "host",
            flags=tuple(given("flags") or ()),
            **fields,
        )


class CaseLike(Protocol):
    """What ``config_for`` reads of a case: a graph ``Case``, a ``ProgramCase``, a ``CorpusCase``."""

    @property
    def target_cpu(self) -> str: ...

    @property
    def flags(self) -> Sequence[str]: ...


def config_for(case: CaseLike, base: CompilerConfig) -> CompilerConfig:
    """``base`` as ``case`` asks for it: the case's target CPU, its flags after ``base``'s (a flag both give is passed
    once). The one case -> config merge: the pipeline, the relations, repro, bundles and the corpus use it."""
    return dataclasses.replace(base, target_cpu=case.target_cpu, flags=tuple(dict.fromkeys((*base.flags, *case.flags))))
