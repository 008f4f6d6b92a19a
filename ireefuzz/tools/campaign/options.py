"""The campaign's options: the ``fuzz`` command line, the recorded ``Options`` (campaign.json), and their checks.

The policy options (``--oracles``, ``--jax``, ``--relations``, ``--relations-every``) are declared once, in
``core.policy``'s table, and checked by their option types; ``Options.policy`` is ``Policy.from_options``.
"""

from __future__ import annotations

import argparse
import dataclasses
import math
import os
import urllib.parse
from pathlib import Path
from typing import TYPE_CHECKING, Any, Mapping

from ireefuzz.base import durable as _io
from ireefuzz.base.argtypes import positive_seconds, shell_words
from ireefuzz.base.compiler_options import add_compiler_options
from ireefuzz.core.policy import JaxMode, Policy, add_policy_options
from ireefuzz.errors import UsageError
from ireefuzz.oracles.finding import ORACLE_NAMES
from ireefuzz.tools.baseline import DEFAULT_BASELINE

from .pool import TIME_GRACE_MAX_S, EvalSpec

if TYPE_CHECKING:
    from ireefuzz.sut import CompilerConfig, Setup

BLOCK = 64  # cases per Hypothesis run; part of the campaign's identity (recorded)
FRONTENDS = ("linalg", "stablehlo")  # how a batch's program reaches iree-compile
FRONTEND_CHOICES = FRONTENDS + ("mixed",)  # mixed: local block k goes through FRONTENDS[k % 2]
FUZZ_POLICY_OPTIONS = ("oracles", "jax", "relations", "relations_every")  # core.policy's table; recorded in Options


def configure(parser: argparse.ArgumentParser) -> None:
    g = parser.add_argument_group("campaign")
    stop = g.add_mutually_exclusive_group()
    stop.add_argument(
        "--time",
        type=float,
        metavar="SECONDS",
        help="wall-clock bound (summed over resumes): no batch "
        f"starts after it; batches still running get a grace of min(--case-timeout, {TIME_GRACE_MAX_S:.0f}) s, "
        "then stop (their cases run with --resume); bundling comes after",
    )
    stop.add_argument("--cases", type=int, metavar="N", help="run the first N cases of this shard's stream")
    g.add_argument("--workers", default="auto", metavar="N|auto", help="worker processes (auto = CPU count)")
    g.add_argument("--seed", type=int, metavar="S", help="campaign seed (default 0)")
    g.add_argument("--shard", metavar="i/n", help="run shard i of n (0-based; default 0/1); shards are disjoint")
    g.add_argument("--out", metavar="DIR", help="output directory (default runs/<timestamp>)")
    g.add_argument("--resume", action="store_true", help="continue the campaign recorded in --out DIR")
    g.add_argument("--baseline", metavar="FILE", help=f"known findings JSON (default {DEFAULT_BASELINE} if it exists)")
    add_compiler_options(g.add_argument, target_default=None)  # None: a --resume tells a given --target-cpu apart
    defaults = {field: getattr(Options, field) for field in FUZZ_POLICY_OPTIONS}
    add_policy_options(g.add_argument, FUZZ_POLICY_OPTIONS, defaults=defaults, absent_is_none=True)  # as --resume
    g.add_argument(
        "--configs",
        action="store_true",
        default=None,
        help="draw a compiler configuration per block of cases (target CPU, data tiling, ukernels, opt "
        "level, const-eval, aggressive fusion, ...; the flags this iree-compile has, the CPUs this "
        "machine runs); each case records its configuration",
    )
    g.add_argument("--flags", metavar='"..."', type=shell_words, help="extra iree-compile flags (shell-quoted string)")
    g.add_argument(
        "--ops",
        metavar="a,b",
        help="draw only these ops or op families (e.g. sort,topk or sorting,"
        "data-movement; default all; families: elementwise, producer, contraction, reduction, data-movement, "
        "convolution, normalization, sorting)",
    )
    g.add_argument("--batch", type=int, metavar="N", help="graphs per compiled module (default 16)")
    g.add_argument(
        "--case-timeout",
        type=float,
        metavar="SECONDS",
        help="per-case time budget of a worker, and each iree-compile's "
        "timeout (a hang is crash/compile-timeout; default 60)",
    )
    g.add_argument(
        "--compare",
        metavar="PREV_RUN_DIR",
        help="compare with an earlier run (e.g. last night's): causes "
        "are new, still present, gone or back again, and only a new cause makes the exit status 1",
    )
    add_bundle_options(g)
    g.add_argument(
        "--frontend",
        choices=FRONTEND_CHOICES,
        help="how programs reach iree-compile: linalg (emitted "
        "linalg MLIR), stablehlo (jax.export, the path JAX models take; ops it exports only), or mixed "
        "(blocks alternate between the two); default linalg",
    )
    g.add_argument(
        "--model",
        metavar="MODULE:FUNCTION",
        help="fuzz variants of your JAX model instead of generated "
        "graphs: dtypes f32/f16/bf16, dynamic or static dims, compiler configurations (--cases = variants; "
        "the module defines example_args() and may define DYNAMIC; see docs/jax-models.md)",
    )
    g.add_argument(
        "--scheduler", metavar="tcp://HOST:PORT", help="run batches on this Dask cluster instead of local workers"
    )


def add_bundle_options(group: Any) -> None:
    group.add_argument(
        "--bundles",
        type=int,
        metavar="N",
        help="after the campaign, shrink the smallest member of each "
        "new cause and bundle it into DIR/bundles (default: every new cause; N = until N bundled causes stay new, "
        "a bundle whose experiments make its cause a known one's duplicate, or that does not reproduce alone, "
        "freeing its slot, at most 3N tried; 0 = none; a new cause's compile timeouts are confirmed as hangs "
        "either way)",
    )
    group.add_argument(
        "--bundle-timeout",
        type=positive_seconds,
        default=300.0,
        metavar="SECONDS",
        help="time allowed to shrink and bundle one cause (default 300)",
    )


@dataclasses.dataclass(frozen=True)
class Options:
    """What defines a campaign (recorded in campaign.json). Stop conditions may be changed on resume."""

    seed: int = 0
    shard: tuple[int, int] = (0, 1)
    batch: int = 16  # graphs per module; a sweep of 8/16/32/64 (256 cases, 2 workers) gave 0.74/0.76/0.71/0.64 graphs/s
    oracles: tuple[str, ...] = ORACLE_NAMES
    oracles_not_judged: tuple[str, ...] = ()  # "oracle: why" for each left out because it cannot judge the compiler
    iree_compile: str | None = None
    release: str | None = None  # a published IREE release: its compiler, syntax, ops and runtime
    iree_runtime: str | None = None  # a Python whose iree.runtime runs the modules
    configs: bool = False  # a configuration from ireefuzz.sut.config_space per block (target CPU and flags)
    target_cpu: str = "host"
    flags: tuple[str, ...] = ()
    case_timeout: float = 60.0
    jax: JaxMode = "on-disagreement"  # JAX runs only when IREE and float64 disagree (eager JAX recompiles per shape)
    relations: tuple[str, ...] = ("shape",)  # metamorphic relations, on one case in relations_every
    relations_every: int = 64
    ops: tuple[str, ...] = ()  # the ops drawn (empty = every op the release can express)
    frontend: str = "linalg"  # one of FRONTEND_CHOICES
    lag: int = 2  # a block is drawn from the coverage of blocks up to k - lag
    block: int = BLOCK
    cases: int | None = None
    time: float | None = None

    def to_json(self) -> dict[str, Any]:
        return dataclasses.asdict(self)

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> "Options":
        defaults = {f.name: f.default for f in dataclasses.fields(cls)}
        data = {k: tuple(v) if isinstance(v, list) else v for k, v in data.items() if k in defaults}
        wrong = [k for k, v in data.items() if not _same_kind(v, defaults[k])]
        if wrong:
            raise TypeError(f"{', '.join(wrong)}: not the recorded kind of value")
        return cls(**data)

    def frontend_of(self, k: int) -> str:
        """The front-end of local block ``k`` (``mixed`` alternates, so a block's front-end is fixed by its index)."""
        return FRONTENDS[k % 2] if self.frontend == "mixed" else self.frontend

    def policy(self) -> Policy:
        return Policy.from_options(self)

    def compiler_config(self) -> CompilerConfig:
        """The campaign's compiler configuration: the one place it is derived from the options."""
        from ireefuzz.sut import CompilerConfig

        return CompilerConfig.from_options(self, timeout_s=self.case_timeout)  # the shared compiler options' names

    def task_spec(self, setup: Setup | None = None) -> EvalSpec:
        """How every batch is evaluated: ``setup`` (the campaign's, prepared once), else this config resolved."""
        from ireefuzz.sut import Setup

        return EvalSpec(setup or Setup.of(self.compiler_config()), self.policy(), self.case_timeout)


def _same_kind(value: Any, default: Any) -> bool:
    """``value`` read from campaign.json is of the kind the field's default is (any, when that is None)."""
    if default is None or isinstance(default, str | tuple):
        return default is None or isinstance(value, type(default))
    if isinstance(default, bool):
        return isinstance(value, bool)
    kinds = (int, float) if isinstance(default, float) else (int,)
    return isinstance(value, kinds) and not isinstance(value, bool)


def options_from_args(args: argparse.Namespace, recorded: Options | None) -> Options:
    """Validated Options; with ``recorded`` (a resume) the defining options must agree with it."""
    given = _given(args)
    stop = {"cases": args.cases, "time": args.time} if args.cases is not None or args.time is not None else None
    if recorded is None:
        if stop is None:
            raise UsageError("give --time SECONDS or --cases N")
        return Options(**given, **stop)
    differ = [k for k, v in given.items() if getattr(recorded, k) != v]
    if differ:
        raise UsageError(
            f"--resume: {', '.join('--' + k.replace('_', '-') for k in differ)} differ from the recorded "
            "campaign; drop them, or start a new campaign with another --out"
        )
    return dataclasses.replace(recorded, **stop) if stop else recorded


def _given(args: argparse.Namespace) -> dict[str, Any]:
    """The defining options given on the command line (parsed; numbers checked for sign)."""
    given: dict[str, Any] = {}
    for name in ("seed", "iree_compile", "release", "iree_runtime", "configs", "target_cpu", "frontend"):
        if getattr(args, name) is not None:
            given[name] = getattr(args, name)
    for name in FUZZ_POLICY_OPTIONS:  # parsed and checked by their option types (core.policy)
        if getattr(args, name) is not None:
            given[name] = getattr(args, name)
    if args.shard is not None:
        given["shard"] = parse_shard(args.shard)
    if args.flags is not None:
        given["flags"] = tuple(args.flags)
    if args.ops is not None:
        given["ops"] = parse_ops(args.ops)
    for name, value in (("batch", args.batch), ("case_timeout", args.case_timeout)):
        if value is not None:
            given[name] = _positive(name, value)
    for name, value in (("cases", args.cases), ("time", args.time)):
        if value is not None:
            _positive(name, value)
    return given


def parse_ops(text: str) -> tuple[str, ...]:
    """``--ops``: op names and family names, as the sorted op names they stand for."""
    from ireefuzz.generators.ops import FAMILIES, OP_NAMES, ops_of

    names = _names(text)
    unknown = [n for n in names if n not in OP_NAMES and n not in FAMILIES]
    if unknown or not names:
        raise UsageError(
            f"--ops {text!r}: unknown {', '.join(unknown) or 'empty list'}; choose ops from "
            f"{','.join(OP_NAMES)} or families from {','.join(FAMILIES)}"
        )
    return tuple(sorted({op for n in names for op in (ops_of(n) if n in FAMILIES else (n,))}))


def _names(text: str) -> tuple[str, ...]:
    return tuple(n.strip() for n in text.split(",") if n.strip())


def _positive(name: str, value: float) -> float:
    if not (math.isfinite(value) and value > 0):
        raise UsageError(f"--{name.replace('_', '-')} {value}: give a positive number")
    return value


def parse_shard(text: str) -> tuple[int, int]:
    try:
        i, n = (int(x) for x in text.split("/"))
    except ValueError:
        raise UsageError(f"--shard {text!r}: write it as i/n, e.g. 0/4") from None
    if not (n >= 1 and 0 <= i < n):
        raise UsageError(f"--shard {text}: need 0 <= i < n")
    return i, n


def parse_scheduler(text: str) -> str:
    """``--scheduler``: a Dask address ``tcp://HOST:PORT`` (or ``tls://``)."""
    parsed = urllib.parse.urlsplit(text)
    try:
        port = parsed.port
    except ValueError:
        port = None
    if parsed.scheme not in ("tcp", "tls") or not parsed.hostname or port is None or parsed.path not in ("", "/"):
        raise UsageError(f"--scheduler {text!r}: give a Dask scheduler address like tcp://HOST:PORT")
    return text


def writable_dir(out: Path) -> Path:
    """``--out``: a directory, made if missing (else one line: a file, or a place where none can be made)."""
    problem = _io.make_dir(out)
    if problem:
        raise UsageError(f"--out {out} {problem}")
    return out


def bundle_limit(value: int | None) -> int | None:
    """``--bundles``: None = every new cause, 0 = none, N = at most N."""
    if value is not None and value < 0:
        raise UsageError(f"--bundles {value}: give 0 (no bundles) or a positive number")
    return value


def parse_workers(text: str) -> int:
    if text == "auto":
        return os.cpu_count() or 1
    if not text.isdigit() or int(text) < 1:
        raise UsageError(f"--workers {text!r}: give a positive number or 'auto'")
    return int(text)
