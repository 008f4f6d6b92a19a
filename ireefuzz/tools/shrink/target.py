"""What a shrunk candidate must still show: a finding with this signature, or with this root cause."""

from __future__ import annotations

import dataclasses
from typing import Callable, Iterable, Literal

from ireefuzz.oracles.cause import cause_of
from ireefuzz.oracles.finding import Finding


def oracle_of(signature: str) -> str:
    return signature.split("/", 1)[0]


def cause_id(finding: Finding) -> str:
    """The finding's root-cause id: as ``evaluate`` assigned it (a consequence takes the cause of what
    it follows from), else derived from the finding alone (``ireefuzz.oracles.cause``)."""
    return finding.cause or cause_of(finding).id


@dataclasses.dataclass(frozen=True)
class Target:
    """What a candidate must still show: a finding with this signature, or with this cause."""

    kind: Literal["signature", "cause"]
    value: str
    oracle: str | None = None  # the oracle that must run to see it (None: all)
    cause_of: Callable[[Finding], str] = dataclasses.field(default=cause_id, compare=False, repr=False)

    @classmethod
    def by_signature(cls, signature: str) -> "Target":
        return cls("signature", signature, oracle_of(signature))

    @classmethod
    def by_cause(cls, cause: str, oracle: str | None = None, cause_of: Callable[[Finding], str] = cause_id) -> "Target":
        """``oracle`` defaults to the cause's own (its id's first part): a wrong value that follows from
        an argument mutation has the mutation's cause, seen by the immutability oracle."""
        return cls("cause", cause, oracle or oracle_of(cause), cause_of)

    def matches(self, finding: Finding) -> bool:
        return (finding.signature if self.kind == "signature" else self.cause_of(finding)) == self.value

    def hit(self, findings: Iterable[Finding]) -> Finding | None:
        """The first of ``findings`` this target matches."""
        return next((f for f in findings if self.matches(f)), None)

    def __call__(self, findings: Iterable[Finding]) -> bool:
        return self.hit(findings) is not None

    def __str__(self) -> str:
        return f"{self.kind} {self.value}"


def as_target(target: Target | str) -> Target:
    return target if isinstance(target, Target) else Target.by_signature(target)
