"""The one value every oracle returns: a Finding, with a stable signature.

A signature names a bug class, not an instance: ``oracle/kind/op-pattern/dtype/dims``
where ``dims`` marks which dimensions are dynamic (``?``) or static (``S``), e.g.
``memory/alloca/fill>matmul>exp/f32/?x?``. It never contains SSA names or sizes,
so the same bug found at 33x49 and at 7x5 deduplicates to one line.
"""

from __future__ import annotations

import dataclasses
import functools
import hashlib
import json
import re
from typing import Any, Iterable, Literal, Mapping, Sequence, get_args

from ireefuzz.base.durable import json_default

# Every oracle a Finding may come from (each one an ``oracles.spec.OracleSpec``, registered by its judge).
OracleName = Literal["numeric", "reference", "immutability", "crash", "memory", "fusion", "metamorphic"]
ORACLES: tuple[OracleName, ...] = get_args(OracleName)
# The oracles a Policy switches on and off (--oracles); the others run by request (relations, StableHLO) or with
# another (``OracleSpec.switch``: the reference's findings come with numeric's).
ORACLE_NAMES: tuple[OracleName, ...] = ("numeric", "immutability", "crash", "memory", "fusion")

_SAFE = re.compile(r"[^A-Za-z0-9_.+>?:,=\-\[\]x]")


_DISPATCH_NAME = re.compile(
    r"_dispatch_\d+_(?P<op>.+?)(?:_(?P<dims>(?:\d+|D)(?:x(?:\d+|D))*))?_(?P<types>[a-z]+\d+(?:x[a-z]+\d+)*)$"
)


def dispatch_dtype_dims(dispatch_name: str) -> tuple[str, str]:
    """(dtype, dims) of a dispatch from IREE's name for it, e.g. ``g0_dispatch_0_matmul_DxDx16_f32`` ->
    ``("f32", "?x?xS")`` (its iteration space: D is dynamic). ``("-", "-")`` when the name carries none."""
    m = _DISPATCH_NAME.search(dispatch_name)
    if not m:
        return "-", "-"
    dims = m.group("dims")
    dims = "x".join("?" if d == "D" else "S" for d in dims.split("x")) if dims else "scalar"
    return m.group("types").split("x")[-1], dims


def make_signature(oracle: str, kind: str, ops: Iterable[str] | str, dtype: str, dims: str) -> str:
    """Build ``oracle/kind/ops/dtype/dims``; every part is sanitized so it is path- and grep-safe."""
    if oracle not in ORACLES:
        raise ValueError(f"unknown oracle {oracle!r}; expected one of {ORACLES}")
    op_part = ops if isinstance(ops, str) else ">".join(ops)
    parts = [oracle, kind, op_part or "-", dtype or "-", dims or "-"]
    return "/".join(_SAFE.sub("_", p) for p in parts)


@dataclasses.dataclass(frozen=True)
class Signature:
    """A signature's five parts: ``Signature.parse("memory/alloca/fill>matmul/f32/?x?").ops == "fill>matmul"``."""

    oracle: str
    kind: str
    ops: str
    dtype: str
    dims: str

    @classmethod
    def parse(cls, text: str) -> "Signature":
        """The parts of ``oracle/kind/ops/dtype/dims`` (no part holds a ``/``: ``make_signature`` sanitizes them);
        ValueError for any other text."""
        parts = text.split("/") if isinstance(text, str) else []
        if len(parts) != 5 or not all(parts):
            raise ValueError(f"{text!r} is not a signature like oracle/kind/ops/dtype/dims")
        return cls(*parts)

    def __str__(self) -> str:
        return "/".join((self.oracle, self.kind, self.ops, self.dtype, self.dims))

    @property
    def op_names(self) -> tuple[str, ...]:
        """The ops of the pattern without their bracketed roles: ``fill>generic[exp]`` -> ``("fill", "generic")``."""
        return tuple(op.split("[", 1)[0] for op in self.ops.split(">") if op and op != "-")


@dataclasses.dataclass(frozen=True)
class Cause:
    """What one upstream issue would cover (``oracles.registry.cause_of``)."""

    id: str  # stable, path-safe, readable, e.g. "immutability/dps-init-written-in-place"
    title: str  # one readable line, what one upstream issue would be titled
    oracle: str


_UNSAFE_CAUSE = re.compile(r"[^A-Za-z0-9_.+>=,:@\-\[\]/]")


def make_cause(oracle: str, parts: Sequence[str], title: str) -> Cause:
    """A cause whose id is ``oracle/part/...``, each part path-safe (no '/' inside a part)."""
    clean = [_UNSAFE_CAUSE.sub("_", str(p).replace("/", "_")) or "-" for p in parts]
    return Cause("/".join([oracle, *clean]), title, oracle)


@dataclasses.dataclass(frozen=True)
class Finding:
    """One observed deviation. ``evidence`` is JSON-able; ``case`` is the case JSON (or None)."""

    oracle: str
    kind: str
    signature: str
    message: str
    evidence: Mapping[str, Any] = dataclasses.field(default_factory=dict)
    case: Mapping[str, Any] | None = None
    cause: str = ""  # what one upstream issue would cover (``oracles.cause``); "" until assigned
    cause_title: str = ""

    def __post_init__(self) -> None:
        if self.oracle not in ORACLES:
            raise ValueError(f"unknown oracle {self.oracle!r}; expected one of {ORACLES}")
        if not self.signature.startswith(f"{self.oracle}/{self.kind}/"):
            raise ValueError(f"signature {self.signature!r} does not start with {self.oracle}/{self.kind}/")

    def __repr__(self) -> str:
        return f"Finding({self.signature}: {self.message[:80]})"

    def to_json(self) -> dict[str, Any]:
        return dataclasses.asdict(self) | {"evidence": dict(self.evidence), "case": self.case and dict(self.case)}

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> "Finding":
        fields: dict[str, Any] = {f.name: data[f.name] for f in dataclasses.fields(cls) if f.name in data}
        return cls(**fields)

    def dumps(self) -> str:
        return json.dumps(self.to_json(), sort_keys=True, default=json_default)

    def with_case(self, case: Mapping[str, Any] | None) -> "Finding":
        return dataclasses.replace(self, case=case)

    def with_evidence(self, **extra: Any) -> "Finding":
        return dataclasses.replace(self, evidence={**self.evidence, **extra})

    def with_cause(self, cause: Any) -> "Finding":
        """This finding with ``cause`` (an ``oracles.cause.Cause``: its ``id`` and ``title``) assigned."""
        return dataclasses.replace(self, cause=cause.id, cause_title=cause.title)


def first_per_signature(findings: Iterable[Finding]) -> list[Finding]:
    """The first finding of each signature, in order (a signature is one bug class)."""
    seen: dict[str, Finding] = {}
    for f in findings:
        seen.setdefault(f.signature, f)
    return list(seen.values())


@functools.lru_cache(maxsize=None)
def signature_class(base: type, signature: str) -> type:
    """A subclass of ``base`` of its own per signature, the same one each time: Hypothesis and pytest
    tell failures apart by exception type, so two bugs are never merged into one."""
    tag = hashlib.sha1(signature.encode()).hexdigest()[:10]
    return type(f"{base.__name__}_{tag}", (base,), {"signature": signature, "__module__": base.__module__})
