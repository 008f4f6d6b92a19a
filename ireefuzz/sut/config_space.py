"""The compiler configuration space a campaign explores: one configuration drawn per block of cases.

A configuration is a target CPU and one value per flag axis (data tiling, ukernels, optimization
level, const-eval, aggressive fusion, vector peeling, distribution, distribution tile size). The space is limited
to what the compiler has -- a value whose flag its ``iree-compile --help-list-hidden`` does not list is left
out, so each release gets its own space -- and to target CPUs whose features this machine has
(code for a CPU it lacks would die of SIGILL, which is no compiler bug). Cross-compile targets
(``CROSS_TARGETS``: aarch64 +neon / +sve, riscv64 +v) are compile-only configurations: the crash,
memory and fusion oracles judge them, nothing runs (``sut.compile_only``), so numbers are not judged.
The space is balanced by what it judges: cross targets are a fixed share of the draws (``CROSS_SHARE``, a
fifth, however many CPUs there are), and the CPUs a release cannot target (an older LLVM's) are left out, so
their share goes to the ones it has (``generic`` always among them). A release whose LLVM does not name the
host's features (the 2023 ones) is given this machine's, as the installed compiler resolves them.
The draw is deterministic in (campaign seed, block); the configuration travels in each case
(``Case.target_cpu`` and ``Case.flags``), so every finding records it, and ``labels`` names it per
flag value for the coverage tables.
"""

from __future__ import annotations

import dataclasses
import functools
import hashlib
import random
from typing import Any, Mapping

from ireefuzz.errors import UsageError
from ireefuzz.sut.config import CompilerConfig

TARGET_CPUS = (
    "generic",
    "host",
    "x86-64-v2",
    "x86-64-v3",
    "x86-64-v4",
    "znver4",
    "skylake-avx512",
    "cascadelake",
    "sapphirerapids",
)
CROSS_SHARE = 0.2  # of the configurations drawn, the compile-only cross targets' share (when the compiler has any)
TRIPLE_FLAG, FEATURES_FLAG = "--iree-llvmcpu-target-triple", "--iree-llvmcpu-target-cpu-features"
# Compile-only targets: name -> (triple, CPU features), compiled for the generic CPU of that triple.
CROSS_TARGETS = {
    "aarch64+neon": ("aarch64-unknown-linux-gnu", "+neon"),
    "aarch64+sve": ("aarch64-unknown-linux-gnu", "+neon,+sve"),
    "riscv64+v": ("riscv64-unknown-linux-gnu", "+m,+a,+f,+d,+v"),
}


def cross_flags(target: str) -> tuple[str, ...]:
    triple, features = CROSS_TARGETS[target]
    return f"{TRIPLE_FLAG}={triple}", f"{FEATURES_FLAG}={features}"


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
    Axis(
        "aggressive-fusion",
        (
            ("default", ()),
            ("on", ("--iree-dispatch-creation-enable-aggressive-fusion=true",)),
            ("on", ("--iree-flow-enable-aggressive-fusion=true",)),
        ),
    ),  # its name before 3.0
    _axis("vector-peeling", "--iree-llvmcpu-disable-vector-peeling", "true"),
    _axis("distribution", "--iree-llvmcpu-disable-distribution", "true"),
    # the distribution (workgroup) tile size every heuristic starts from (64 by default): each value gives most
    # dispatches another lowering configuration, with other remainders and peeled loops
    _axis("distribution-size", "--iree-llvmcpu-distribution-size", "8", "16", "32", "128"),
)


@dataclasses.dataclass(frozen=True)
class Configuration:
    target_cpu: str
    choices: tuple[tuple[str, str], ...]  # (axis, label) for every axis of the space
    flags: tuple[str, ...]
    target: str = "host"  # a CROSS_TARGETS name for a compile-only configuration (then ``flags`` start with its own)

    def to_json(self) -> dict[str, Any]:
        return {"target": self.target, "target_cpu": self.target_cpu, **dict(self.choices)}

    def __repr__(self) -> str:
        chosen = ", ".join(f"{a}={v}" for a, v in self.choices if v != "default")
        where = f"target={self.target}" if self.target in CROSS_TARGETS else f"cpu={self.target_cpu}"
        return f"Configuration({where}{', ' + chosen if chosen else ''})"


@dataclasses.dataclass(frozen=True)
class Space:
    target_cpus: tuple[str, ...]
    axes: tuple[Axis, ...]
    cross_targets: tuple[str, ...] = ()  # compile-only (CROSS_TARGETS): CROSS_SHARE of the draws between them

    def draw(self, seed: int, index: int) -> Configuration:
        """Configuration number ``index`` of the campaign with ``seed``: a cross target with probability
        ``CROSS_SHARE`` (if any), else a CPU, uniform among them; uniform per axis; deterministic."""
        rng = random.Random(int.from_bytes(hashlib.sha256(f"{seed}/config/{index}".encode()).digest()[:8], "little"))
        cross = bool(self.cross_targets) and (not self.target_cpus or rng.random() < CROSS_SHARE)
        where = rng.choice(self.cross_targets if cross else self.target_cpus)
        picked = [(axis.name, rng.choice(axis.values)) for axis in self.axes]
        choices = tuple((name, label) for name, (label, _) in picked)
        flags = tuple(f for _, (_, flags) in picked for f in flags)
        if where in CROSS_TARGETS:
            return Configuration("generic", choices, cross_flags(where) + flags, where)
        return Configuration(where, choices, flags)

    def to_json(self) -> dict[str, Any]:
        return {
            "target_cpus": list(self.target_cpus),
            "cross_targets": list(self.cross_targets),
            "axes": {a.name: sorted({label for label, _ in a.values}) for a in self.axes},
        }


def limited_to(
    supported_flags: frozenset[str],
    target_cpus: tuple[str, ...],
    axes: tuple[Axis, ...] = AXES,
    cross_targets: tuple[str, ...] = (),
) -> Space:
    """The space with only the values whose flags the compiler lists; an axis left with its default alone goes."""
    kept = []
    for axis in axes:
        values = tuple(v for v in axis.values if all(f.split("=", 1)[0] in supported_flags for f in v[1]))
        if len(values) > 1:
            kept.append(Axis(axis.name, values))
    cross = cross_targets if {TRIPLE_FLAG, FEATURES_FLAG} <= supported_flags else ()
    return Space(target_cpus, tuple(kept), cross)


_AXIS_OF_FLAG = {flag.split("=", 1)[0]: axis.name for axis in AXES for _, flags in axis.values for flag in flags}


def labels(target_cpu: str, flags: tuple[str, ...] | list[str]) -> list[str]:
    """A case's configuration as flag values, for coverage: ``target=aarch64+sve`` (a cross target) or
    ``cpu=x86-64-v3``, then ``axis=value`` per flag of an axis (``data-tiling=false``) and any other flag as
    given. An axis a case has no flag for is at its default, not named."""
    flags = list(flags)
    triple = next((f.split("=", 1)[1] for f in flags if f.startswith(TRIPLE_FLAG + "=")), None)
    features = next((f.split("=", 1)[1] for f in flags if f.startswith(FEATURES_FLAG + "=")), "")
    cross = next((name for name, spec in CROSS_TARGETS.items() if spec == (triple, features)), None)
    out = [f"target={cross}" if cross else f"target={triple}" if triple else f"cpu={target_cpu}"]
    for flag in flags:
        name, _, value = flag.partition("=")
        if name in (TRIPLE_FLAG, FEATURES_FLAG) and (cross or name == TRIPLE_FLAG):
            continue
        axis = _AXIS_OF_FLAG.get(name)
        out.append(f"{axis}={'on' if axis == 'aggressive-fusion' else value}" if axis else flag)
    return out


IMPLICIT_FEATURES = {"x87"}  # always there on x86-64; older LLVMs leave it out of the host's list
MACHINE_FLAG = "--iree-llvmcpu-target-cpu=host"  # after the target flags (the last one wins): this machine's own CPU


def enabled(features: str) -> frozenset[str]:
    """The features a resolved ``"+a,-b"`` string enables (``IMPLICIT_FEATURES`` left out)."""
    return frozenset(x[1:] for x in features.split(",") if x.startswith("+")) - IMPLICIT_FEATURES


def lacking(have: str, need: str) -> tuple[str, ...]:
    """The features ``need`` enables that ``have`` does not, sorted: empty when code for ``need`` runs on ``have``."""
    return tuple(sorted(enabled(need) - enabled(have)))


def runnable(features: Mapping[str, str | None], host: str = "host") -> tuple[str, ...]:
    """The CPUs (name -> resolved "+a,-b" features; None if unknown) whose enabled features the host has."""
    have = features[host] or ""
    return tuple(cpu for cpu, f in features.items() if f is not None and not lacking(have, f))


def highest(features: str, levels: Mapping[str, str]) -> str | None:
    """Of ``levels`` (name -> features), the one with the most features among those ``features`` has; None if none."""
    reached = [(len(enabled(f)), name) for name, f in levels.items() if not lacking(features, f)]
    return max(reached)[1] if reached else None


def features_of(config: CompilerConfig) -> str | None:
    """The features code compiled for ``config`` (a ``sut.CompilerConfig``) may use: its target CPU as its compiler
    resolves it (``host`` as ``sut.host_cpu`` takes it), with a features flag it gives; None if it cannot say."""
    from ireefuzz import sut

    kept = tuple(f for f in config.flags if f.startswith((TRIPLE_FLAG + "=", FEATURES_FLAG + "=")))
    info = sut.resolve_platform(dataclasses.replace(config, flags=kept))[0]
    return info.features if info.name else None


@functools.lru_cache(maxsize=None)
def host_features(config: CompilerConfig) -> str:
    """This machine's features as the suite takes it (``host``, through ``sut.host_cpu``), for ``config``'s compiler,
    or the installed one's when that names none (the 2023 releases). A level beyond this machine is refused."""
    from ireefuzz.sut.config import HOST_CPU_ENV, host_cpu

    installed = dataclasses.replace(config, release=None, iree_compile=None, runtime_python=None, flags=())
    here = features_of(dataclasses.replace(config, target_cpu="host", flags=()))
    here = here or features_of(dataclasses.replace(installed, target_cpu="host")) or ""
    if host_cpu() != "host":
        from ireefuzz import sut

        machine = sut.resolve_platform(dataclasses.replace(installed, target_cpu="host", flags=(MACHINE_FLAG,)))[0]
        missing = lacking(machine.features, here) if machine.name else ()
        if missing:
            raise UsageError(
                f"{HOST_CPU_ENV}={host_cpu()}: this machine ({machine.name}) lacks {_listed(missing)}; "
                "take it as a level it has"
            )
    return here


def cannot_run(config: CompilerConfig) -> str | None:
    """Why code compiled for ``config`` cannot run on this machine, else None: another architecture (its triple,
    ``sut.compile_only``), or a target CPU whose features the host (as ``sut.host_cpu`` takes it) lacks, e.g.
    ``x86-64-v4 (needs avx512bw, avx512cd, avx512dq, avx512f, avx512vl, which host lacks)``. Decided by the features,
    not by CPU names; a target whose features its compiler cannot say (a failed probe) is not stopped here."""
    from ireefuzz import sut

    triple = sut.compile_only(config)
    if triple:
        return triple
    feature_flags = any(f.startswith(FEATURES_FLAG + "=") for f in config.flags)
    if config.target_cpu in ("host", "generic") and not feature_flags:  # runs wherever this process runs
        return None
    need = features_of(config)
    missing = lacking(host_features(config), need) if need is not None else ()
    if not missing:
        return None
    host = sut.resolve_platform(dataclasses.replace(config, target_cpu="host", flags=()))[0].name or "host"
    return f"{config.target_cpu} (needs {_listed(missing)}, which {host} lacks)"


def _listed(features: tuple[str, ...], most: int = 6) -> str:
    more = f" and {len(features) - most} more" if len(features) > most else ""
    return ", ".join(features[:most]) + more


@functools.lru_cache(maxsize=None)
def space_for(config: CompilerConfig) -> Space:
    """The space for ``config``'s compiler (a ``sut.CompilerConfig``) on this machine (probe compiles,
    once per process)."""
    from ireefuzz import sut

    resolved = {
        cpu: sut.resolve_platform(dataclasses.replace(config, target_cpu=cpu, flags=()))[0] for cpu in TARGET_CPUS
    }
    features = {cpu: info.features if info.name else None for cpu, info in resolved.items()}
    features["host"] = host_features(config)
    features["generic"] = features.get("generic") or ""  # every release can target the generic CPU
    cross = tuple(
        t
        for t in CROSS_TARGETS  # those this compiler can target (its LLVM has the backend)
        if sut.resolve_platform(dataclasses.replace(config, target_cpu="generic", flags=cross_flags(t)))[0].name
    )
    return limited_to(sut.toolchain_of(config).known_flags, runnable(features), cross_targets=cross)


class ConfigurationCoverage:
    """Cases and causes per flag value (``labels``) over a campaign: ``summary.json``'s ``configurations``."""

    def __init__(self) -> None:
        self.cases: dict[str, int] = {}
        self.causes: dict[str, dict[str, int]] = {}

    def add(self, case_labels: Any, causes: Any) -> None:
        for label in case_labels:
            self.cases[label] = self.cases.get(label, 0) + 1
            per = self.causes.setdefault(label, {})
            for cause in set(causes):
                per[cause] = per.get(cause, 0) + 1

    def to_json(self) -> dict[str, Any]:
        """{label: {"cases": n, "causes": {cause: cases}}}, by label."""
        return {
            label: {"cases": n, "causes": dict(sorted(self.causes[label].items(), key=lambda kv: (-kv[1], kv[0])))}
            for label, n in sorted(self.cases.items())
        }
