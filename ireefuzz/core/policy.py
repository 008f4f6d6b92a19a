"""Which oracles judge and what they tolerate: ``Policy``, and its options declared once for every face.

``POLICY_OPTIONS`` is the one table of them: each names the ``Policy`` field it sets, its one spelling
(``--oracles`` on the command line; ``--ireefuzz-oracles`` in the pytest plugin, which prefixes every option),
its parser and its help. ``add_policy_options`` declares the ones a face takes (``check``: oracles, the alloca
limit, the run timeout and the memory budget; ``fuzz``: oracles, JAX and the relations; the plugin); a value the
parser refuses is one line (exit 2 on the command line, a ``pytest.UsageError`` in the plugin).
``Policy.from_options`` reads them back; a field no face gave keeps ``Policy``'s default.

Stdlib only, with the light ``oracles.finding``: the pytest plugin declares these options at load.
"""

from __future__ import annotations

import argparse
import dataclasses
from typing import Any, Callable, Literal, Mapping, get_args

from ireefuzz.base.argtypes import memory_size, non_negative_int, positive_int, positive_seconds
from ireefuzz.oracles.finding import ORACLE_NAMES

JaxMode = Literal["always", "on-disagreement"]
JAX_MODES: tuple[JaxMode, ...] = get_args(JaxMode)


@dataclasses.dataclass(frozen=True)
class Policy:
    """Which oracles run and what the memory oracle tolerates."""

    oracles: frozenset[str] = frozenset(ORACLE_NAMES)
    max_static_alloca_bytes: int = 0
    jax: JaxMode = "always"  # or "on-disagreement": run JAX only when IREE and float64 disagree (campaign speed)
    relations: tuple[str, ...] = ()  # metamorphic relations (shape, dps, config) run on a sample of the cases
    relations_every: int = 64  # ... on one case in this many (each relation compiles its variants separately)
    run_timeout_s: float | None = None  # each call of a module in a child process, bounded (None: in this process)
    max_memory: int = 0  # bytes a case's run may take (``core.budget``); 0: the default budget

    def __post_init__(self) -> None:
        object.__setattr__(self, "oracles", frozenset(self.oracles))  # any iterable of names, e.g. --oracles' tuple
        if set(self.relations) - set(_relations()) or self.relations_every < 1:
            raise ValueError(
                f"relations {self.relations} every {self.relations_every}: choose from {', '.join(_relations())}"
                " and a positive sampling period"
            )
        if self.jax not in JAX_MODES:
            raise ValueError(f"unknown JAX mode {self.jax!r}; choose from {', '.join(JAX_MODES)}")
        unknown = set(self.oracles) - set(ORACLE_NAMES)
        if unknown:
            raise ValueError(f"unknown oracles {sorted(unknown)}; choose from {', '.join(ORACLE_NAMES)}")

    @classmethod
    def from_options(cls, options: Any, *, prefix: str = "", **fields: Any) -> Policy:
        """The Policy the options of ``POLICY_OPTIONS`` give on ``options`` (an argparse namespace, or pytest's
        ``config.option`` with ``prefix="ireefuzz_"``); an option not given (None, or not declared by that face)
        keeps its default. ``fields`` set the rest, and win over the options."""
        given = {o.field: getattr(options, prefix + o.field, None) for o in POLICY_OPTIONS}
        return cls(**{k: v for k, v in given.items() if v is not None} | fields)


def _relations() -> tuple[str, ...]:
    from ireefuzz.oracles.metamorphic import RELATIONS  # imported on first use: the plugin loads this module

    return RELATIONS


def _names(text: str) -> tuple[str, ...]:
    return tuple(dict.fromkeys(n.strip() for n in text.split(",") if n.strip()))


def oracle_names(text: str) -> tuple[str, ...]:
    """``--oracles``: a comma-separated, non-empty subset of ``ORACLE_NAMES``, in the order given."""
    names = _names(text)
    unknown = [n for n in names if n not in ORACLE_NAMES]
    if unknown or not names:
        raise argparse.ArgumentTypeError(
            f"unknown oracle(s) {', '.join(unknown) or '(none given)'}; choose a comma-separated subset of "
            f"{','.join(ORACLE_NAMES)}"
        )
    return names


def relation_names(text: str) -> tuple[str, ...]:
    """``--relations``: a comma-separated subset of the metamorphic relations ('' = none)."""
    names = _names(text)
    unknown = [n for n in names if n not in _relations()]
    if unknown:
        raise argparse.ArgumentTypeError(
            f"unknown relation(s) {', '.join(unknown)}; choose a comma-separated subset of {','.join(_relations())}"
            " ('' for none)"
        )
    return names


def jax_mode(text: str) -> str:
    if text not in JAX_MODES:
        raise argparse.ArgumentTypeError(f"{text!r} is not a JAX mode; choose {' or '.join(JAX_MODES)}")
    return text


@dataclasses.dataclass(frozen=True)
class PolicyOption:
    """One option of a ``Policy`` field: ``--NAME`` (``--ireefuzz-NAME`` in the plugin), its parser and help."""

    field: str  # the Policy field it sets, and its dest (with the face's prefix)
    name: str  # its one spelling, without "--" and the plugin's "ireefuzz-"
    metavar: str
    parse: Callable[[str], Any]
    help: str
    old_names: tuple[str, ...] = ()  # earlier spellings, still accepted


POLICY_OPTIONS: tuple[PolicyOption, ...] = (
    PolicyOption(
        "oracles",
        "oracles",
        "a,b",
        oracle_names,
        f"comma-separated oracles to run, from {','.join(ORACLE_NAMES)} (default: all)",
    ),
    PolicyOption(
        "max_static_alloca_bytes",
        "max-static-alloca-bytes",
        "BYTES",
        non_negative_int("number of bytes"),
        "static allocas outside loops up to BYTES are not memory findings (default: 0, every alloca is one)",
        old_names=("max-alloca",),
    ),
    PolicyOption(
        "run_timeout_s",
        "run-timeout",
        "SECONDS",
        positive_seconds,
        "wall-clock limit of each run of a compiled function, in a child process; a program past it is not judged, "
        "a generated graph past it is a crash/runtime-timeout (default 60)",
    ),
    PolicyOption(
        "max_memory",
        "max-memory",
        "BYTES",
        memory_size,
        "memory a run may take, estimated from its types and shapes before it runs, e.g. 8G; one that needs more "
        "is not judged, and ireefuzz check refuses a program that does (default: half of this machine's memory)",
    ),
    PolicyOption(
        "jax",
        "jax",
        "|".join(JAX_MODES),
        jax_mode,
        "when the JAX reference runs: always, or on-disagreement (only when IREE and the float64 arbiter "
        "disagree; much faster, but no reference findings)",
    ),
    PolicyOption(
        "relations",
        "relations",
        "a,b",
        relation_names,
        "metamorphic relations to run on a sample of the cases: shape (static vs dynamic/unaligned), dps "
        "(destination forms), config (host vs generic CPU, data tiling on/off), vector-width (native vector size "
        "8/16/64 bytes, x86-64-v2/v3/v4; what this host cannot run is compiled only), backend (vmvx beside "
        "llvm-cpu, float64 says which is wrong); '' = none",
    ),
    PolicyOption(
        "relations_every", "relations-every", "N", positive_int("number"), "run the relations on one case in N"
    ),
)
OPTION_OF = {o.field: o for o in POLICY_OPTIONS}


def add_policy_options(
    add: Callable[..., Any],
    fields: tuple[str, ...],
    *,
    plugin: bool = False,
    defaults: Mapping[str, Any] | None = None,
    absent_is_none: bool = False,
) -> None:
    """Declare the options of ``fields`` (``Policy`` field names) through ``add`` (an argparse parser's or group's
    ``add_argument``, or a pytest group's ``addoption``): ``--NAME``, or with ``plugin`` ``--ireefuzz-NAME`` and
    dest ``ireefuzz_FIELD``. An option not given takes its value in ``defaults`` (said in its help), else None
    (``Policy.from_options`` keeps the field's default); with ``absent_is_none`` it is None whatever ``defaults``
    says (``fuzz --resume`` tells a given option apart), and ``defaults`` is only said."""
    prefix, dest_prefix = ("ireefuzz-", "ireefuzz_") if plugin else ("", "")
    for field in fields:
        option = OPTION_OF[field]
        default = (defaults or {}).get(field)
        shown = ",".join(default) if isinstance(default, tuple | frozenset) else default
        said = f" (default {shown or 'none'})" if default is not None and "(default" not in option.help else ""
        add(
            *(f"--{prefix}{name}" for name in (option.name, *option.old_names)),
            dest=dest_prefix + field,
            metavar=option.metavar,
            type=option.parse,
            default=None if absent_is_none else default,
            help=option.help + said,
        )
