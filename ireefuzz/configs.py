"""The compiler configuration space a campaign explores: one configuration drawn per block of cases.

A configuration is a target CPU and one value per flag axis (data tiling, ukernels, optimization
level, const-eval, aggressive fusion, vector peeling, distribution). The space is limited to what
the compiler has -- a value whose flag its ``iree-compile --help-list-hidden`` does not list is left
out, so each release gets its own space -- and to target CPUs whose features this machine has
(code for a CPU it lacks would die of SIGILL, which is no compiler bug). The draw is deterministic
in (campaign seed, block); the configuration travels in each case (``Case.target_cpu`` and
``Case.flags``), so every finding records it.
"""
from __future__ import annotations

import dataclasses
import functools
import hashlib
import random
from typing import Any, Mapping

TARGET_CPUS = ("generic", "host", "x86-64-v2", "x86-64-v3", "x86-64-v4", "znver4", "skylake-avx512", "cascadelake",
               "sapphirerapids")


@dataclasses.dataclass(frozen=True)
class Axis:
    name: str
    values: tuple[tuple[str, tuple[str, ...]], ...]  # (label, flags); the first is the compiler's default (no flag)


def _axis(name: str, flag: str, *values: str) -> Axis:
    return Axis(name, (("default", ()),) + tuple((v, (f"{flag}={v}",)) for v in values))


AXES = (
    _axis("data-tiling", "--iree-opt-data-tiling", "true", "false"),
    _axis("ukernels", "--iree-llvmcpu-enable-ukernels", "none", "mmt4d", "all"),
    _axis("opt-level", "--iree-opt-level", "O0", "O1", "O2", "O3"),
    _axis("const-eval", "--iree-opt-const-eval", "false"),
    Axis("aggressive-fusion", (("default", ()), ("on", ("--iree-dispatch-creation-enable-aggressive-fusion=true",)),
                               ("on", ("--iree-flow-enable-aggressive-fusion=true",)))),  # its name before 3.0
    _axis("vector-peeling", "--iree-llvmcpu-disable-vector-peeling", "true"),
    _axis("distribution", "--iree-llvmcpu-disable-distribution", "true"),
)


@dataclasses.dataclass(frozen=True)
class Configuration:
    target_cpu: str
    choices: tuple[tuple[str, str], ...]  # (axis, label) for every axis of the space
    flags: tuple[str, ...]

    def to_json(self) -> dict[str, Any]:
        return {"target_cpu": self.target_cpu, **dict(self.choices)}

    def __repr__(self) -> str:
        chosen = ", ".join(f"{a}={v}" for a, v in self.choices if v != "default")
        return f"Configuration(cpu={self.target_cpu}{', ' + chosen if chosen else ''})"


@dataclasses.dataclass(frozen=True)
class Space:
    target_cpus: tuple[str, ...]
    axes: tuple[Axis, ...]

    def draw(self, seed: int, index: int) -> Configuration:
        """Configuration number ``index`` of the campaign with ``seed``: uniform per axis, deterministic."""
        rng = random.Random(int.from_bytes(hashlib.sha256(f"{seed}/config/{index}".encode()).digest()[:8], "little"))
        cpu = rng.choice(self.target_cpus)
        picked = [(axis.name, rng.choice(axis.values)) for axis in self.axes]
        return Configuration(cpu, tuple((name, label) for name, (label, _) in picked),
                             tuple(f for _, (_, flags) in picked for f in flags))

    def to_json(self) -> dict[str, Any]:
        return {"target_cpus": list(self.target_cpus),
                "axes": {a.name: sorted({label for label, _ in a.values}) for a in self.axes}}


def limited_to(supported_flags: frozenset[str], target_cpus: tuple[str, ...], axes: tuple[Axis, ...] = AXES) -> Space:
    """The space with only the values whose flags the compiler lists; an axis left with its default alone goes."""
    kept = []
    for axis in axes:
        values = tuple(v for v in axis.values if all(f.split("=", 1)[0] in supported_flags for f in v[1]))
        if len(values) > 1:
            kept.append(Axis(axis.name, values))
    return Space(target_cpus, tuple(kept))


IMPLICIT_FEATURES = {"x87"}  # always there on x86-64; older LLVMs leave it out of the host's list


def runnable(features: Mapping[str, str | None], host: str = "host") -> tuple[str, ...]:
    """The CPUs (name -> resolved "+a,-b" features; None if unknown) whose enabled features the host has."""
    enabled = lambda f: {x[1:] for x in f.split(",") if x.startswith("+")} - IMPLICIT_FEATURES
    have = enabled(features[host] or "")
    return tuple(cpu for cpu, f in features.items() if f is not None and enabled(f) <= have)


@functools.lru_cache(maxsize=None)
def space_for(config: Any) -> Space:
    """The space for ``config``'s compiler (a ``sut.CompilerConfig``) on this machine (probe compiles,
    once per process)."""
    from ireefuzz import sut

    resolved = {cpu: sut.resolve_platform(dataclasses.replace(config, target_cpu=cpu, flags=()))[0]
                for cpu in TARGET_CPUS}
    features = {cpu: info.features if info.name else None for cpu, info in resolved.items()}
    return limited_to(sut.compiler_flags(sut.find_iree_compile(config)), runnable(features))
