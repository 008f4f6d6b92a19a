"""The resolved compiler and runtime of a ``CompilerConfig``: a ``Toolchain``, and the ``Setup`` that travels.

A ``CompilerConfig`` carries what the user said (a compiler path, a release, a runtime Python, each maybe
None). ``toolchain_of(config)`` resolves it: the iree-compile path, the release it belongs to, the
Python whose iree.runtime runs its modules, the emitter syntax and ops that release accepts, and the dtypes
its runtime cannot be fed; its version and flag list are read on first use. ``probe.prepare`` returns it with
which oracles cannot judge it. Resolution is memoized per identity and never rewritten.

A face resolves once and hands a ``Setup`` down: the ``Toolchain`` and the config whose target it compiles
for (the target CPU, flags and limits, which change per case: ``Setup.for_case``). The pipeline, the relations
and the campaign read the toolchain's fields from it instead of re-deriving them from the config.

The identity of a toolchain is (compiler, release, runtime Python): the target CPU, flags and limits of a
config are per compile and do not change what the toolchain is.
"""

from __future__ import annotations

import dataclasses
import functools
import threading
from typing import TYPE_CHECKING, Mapping

from ireefuzz.sut import releases
from ireefuzz.sut.binaries import (
    RUNNER_UNFEEDABLE_DTYPES,
    compiler_flags,
    compiler_version,
    find_iree_compile,
    resolve_runtime_python,
    uses_installed_wheels,
)
from ireefuzz.sut.config import CaseLike, CompilerConfig, config_for

if TYPE_CHECKING:
    from ireefuzz.generators.emit import Syntax


@dataclasses.dataclass(frozen=True, eq=False)  # one per identity and process: compared and hashed by identity
class Toolchain:
    """What a ``CompilerConfig`` compiles and runs with, resolved (see the module docstring)."""

    iree_compile: str  # the iree-compile executable
    release: str | None  # the published release it belongs to (None: a user's build or the installed wheel)
    runtime_python: str | None  # the Python whose iree.runtime runs its modules (None: this process's)
    syntax: Syntax  # the emitter's spelling for this compiler
    ops: tuple[str, ...]  # the graph ops this compiler can express
    unfeedable_dtypes: frozenset[str]  # element types no argument may have on its runtime
    installed_wheels: bool  # the wheels installed with ireefuzz: compiler, runtime and bindings match by construction
    not_judged: Mapping[str, str] | None = None  # oracles that cannot judge it, with why; None until prepare() probes

    def __repr__(self) -> str:
        what = (
            f"release {self.release}"
            if self.release
            else ("installed wheels" if self.installed_wheels else self.iree_compile)
        )
        runtime = f", runtime {self.runtime_python}" if self.runtime_python else ""
        return f"Toolchain({what}{runtime})"

    @functools.cached_property
    def version(self) -> str:
        """``iree-compile --version`` (read on first use)."""
        return compiler_version(self.iree_compile)

    @functools.cached_property
    def known_flags(self) -> frozenset[str]:
        """Every flag ``iree-compile --help-list-hidden`` lists (read on first use)."""
        return compiler_flags(self.iree_compile)

    @property
    def unable(self) -> frozenset[str]:
        """The oracles that cannot judge this toolchain (empty until prepared)."""
        return frozenset(self.not_judged or ())


def identity(config: CompilerConfig) -> tuple[str | None, str | None, str | None]:
    return config.iree_compile, config.release, config.runtime_python


_RESOLVED: dict[tuple[str | None, str | None, str | None], Toolchain] = {}
_LOCK = threading.Lock()


def toolchain_of(config: CompilerConfig) -> Toolchain:
    """``config``'s toolchain, resolved on the first call for its identity and kept for the process (unprepared:
    ``not_judged`` is None; the prepared one is what ``probe.prepare`` returns, and travels in a ``Setup``).
    IreeNotFound (one line) if its compiler or runtime Python cannot be found."""
    key = identity(config)
    found = _RESOLVED.get(key)
    if found is not None:
        return found
    resolved = _resolve(config)
    with _LOCK:
        return _RESOLVED.setdefault(key, resolved)


def _resolve(config: CompilerConfig) -> Toolchain:
    from ireefuzz.generators.emit import MODERN
    from ireefuzz.generators.ops import OP_NAMES

    version = releases.release_of(config)
    installed = uses_installed_wheels(config)
    return Toolchain(
        iree_compile=find_iree_compile(config),
        release=version,
        runtime_python=resolve_runtime_python(config),
        syntax=MODERN if version is None else releases.syntax_for(version),
        ops=OP_NAMES if version is None else releases.ops_for(version),
        unfeedable_dtypes=frozenset() if installed else RUNNER_UNFEEDABLE_DTYPES,
        installed_wheels=installed,
    )


def runtime_python_for(config: CompilerConfig) -> str | None:
    """The Python whose ``iree.runtime`` runs ``config``'s modules; None = this process's (resolved once)."""
    return toolchain_of(config).runtime_python


@dataclasses.dataclass(frozen=True)
class Setup:
    """A configuration resolved once: the ``toolchain`` that compiles and runs, and the ``config`` whose target
    (CPU, flags, timeout, memory limit, observation) each compile takes. Its config's identity is the toolchain's."""

    toolchain: Toolchain
    config: CompilerConfig

    @classmethod
    def of(cls, config: CompilerConfig | Setup, toolchain: Toolchain | None = None) -> Setup:
        """``config`` with its toolchain (``toolchain`` as prepared, else ``toolchain_of(config)``); a Setup as is."""
        if isinstance(config, Setup):
            return config
        return cls(toolchain if toolchain is not None else toolchain_of(config), config)

    def with_config(self, config: CompilerConfig) -> Setup:
        """The same toolchain for another target of the same compiler (a case's CPU and flags, a front-end's flags)."""
        if identity(config) != identity(self.config):
            raise ValueError(f"{config} is not compiled by {self.toolchain}")
        return Setup(self.toolchain, config)

    def for_case(self, case: CaseLike) -> Setup:
        """The target ``case`` asks for (``config_for``), compiled by the same toolchain."""
        return self.with_config(config_for(case, self.config))
