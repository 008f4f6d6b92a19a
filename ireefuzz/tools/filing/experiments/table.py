"""What the experiments are made of: an ``Experiment`` (one variant to run), its ``Outcome`` and ``Row``, the
``ExperimentTable`` that ``judge`` reads, the ``Verdict``; and the label parts the variants write and the verdict
reads."""

from __future__ import annotations

import dataclasses
from typing import Any, Collection, Literal, Mapping, Sequence

OutcomeKind = Literal["same", "known", "other", "clean", "not-judged"]
OUTCOME_KINDS: tuple[OutcomeKind, ...] = ("same", "known", "other", "clean", "not-judged")
VerdictKind = Literal["new", "duplicate-of", "known"]  # known: the baseline judges the target itself
VERDICT_KINDS: tuple[VerdictKind, ...] = ("new", "duplicate-of", "known")
AS_GIVEN = "as-given"


@dataclasses.dataclass(frozen=True)
class Outcome:
    """What one variant showed: ``same`` (the target), ``known:<cause>``, ``other:<cause>``, ``clean``, or
    ``not-judged:<reason>``."""

    kind: OutcomeKind
    detail: str = ""  # the cause (known, other) or the reason (not-judged)

    def __str__(self) -> str:
        return f"{self.kind}:{self.detail}" if self.detail else self.kind

    @classmethod
    def parse(cls, text: str) -> "Outcome":
        name, _, detail = str(text).partition(":")
        kind = next((k for k in OUTCOME_KINDS if k == name), None)
        if kind is None:
            raise ValueError(f"{text!r} is not an outcome ({', '.join(OUTCOME_KINDS)})")
        return cls(kind, detail)

    @property
    def cause(self) -> str:
        return self.detail if self.kind in ("known", "other") else ""


@dataclasses.dataclass(frozen=True)
class Experiment:
    """One variant to run: a label, what it changes (a phrase after "with"), the case (a ``Case`` or a raw
    program's ``ProgramCase``)."""

    label: str
    change: str
    case: Any
    not_run: str = ""  # why this machine cannot run its code (then compiled only: run-time verdicts not judged)
    drops_op: bool = False  # an op made an argument: the target's cause without ops of its cone is the same failure
    other_values: bool = False  # computes on a part of the program's values: right there says nothing of a wrong value


@dataclasses.dataclass(frozen=True)
class Row:
    label: str
    change: str
    outcome: Outcome
    causes: tuple[str, ...] = ()  # every cause the variant showed
    seconds: float = 0.0

    def to_json(self) -> dict[str, Any]:
        return {
            "label": self.label,
            "change": self.change,
            "outcome": str(self.outcome),
            "causes": list(self.causes),
            "seconds": round(self.seconds, 2),
        }

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> "Row":
        return cls(
            str(data["label"]),
            str(data.get("change", "")),
            Outcome.parse(data["outcome"]),
            tuple(str(c) for c in data.get("causes") or ()),
            float(data.get("seconds") or 0.0),
        )


@dataclasses.dataclass(frozen=True)
class ExperimentTable:
    """The experiments of one candidate: its rows (the as-given program first) and what ``judge`` needs of the
    baseline, so the verdict is a pure function of the table."""

    target: str  # the cause (or signature) kept
    rows: tuple[Row, ...]
    known: Mapping[str, str] = dataclasses.field(default_factory=dict)  # a cause seen -> the known cause it is
    beside: tuple[str, ...] = ()  # known causes in the target's own dispatch in the as-given program
    nearest: tuple[str, float] | None = None  # the known cause nearest by features (``features``), its distance
    skipped: tuple[str, ...] = ()  # variants not run (over the cap, or not applicable), with why
    seconds: float = 0.0
    culprits: Mapping[str, str] = dataclasses.field(default_factory=dict)  # a known cause -> its culprit's family
    features: Mapping[str, str] = dataclasses.field(default_factory=dict)  # a feature tried -> the known cause
    # that shows only without it (``Mechanism.missing_feature``)
    culprit: str = ""  # the target's own culprit pass, once localized (``with_culprit``); "" before or not found
    cures: Mapping[str, tuple[str, ...]] = dataclasses.field(default_factory=dict)  # a label's ending -> the known
    # causes that experiment removes (``Mechanism.cured_by``)
    localized: Mapping[str, str] = dataclasses.field(default_factory=dict)  # a known cause whose mechanism names a
    # culprit pass -> ``oracle@family`` (``mechanism_key``): what a localized target is matched on
    families: Mapping[str, str] = dataclasses.field(default_factory=dict)  # a known cause -> its culprit's family
    # (every one that records a culprit): a cure shared across oracles counts only from the same pass
    alone: Mapping[str, str] = dataclasses.field(default_factory=dict)  # the op alone, where it failed the same way
    # (``cut``): its one-op ``program`` and the ``command`` that runs it at its operands' values

    def to_json(self) -> dict[str, Any]:
        return {
            "target": self.target,
            "rows": [r.to_json() for r in self.rows],
            "known": dict(self.known),
            "beside": list(self.beside),
            "nearest": list(self.nearest) if self.nearest else None,
            "skipped": list(self.skipped),
            "seconds": round(self.seconds, 2),
            "culprits": dict(self.culprits),
            "features": dict(self.features),
            "culprit": self.culprit,
            "cures": {k: list(v) for k, v in self.cures.items()},
            "localized": dict(self.localized),
            "families": dict(self.families),
            "alone": dict(self.alone),
        }

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> "ExperimentTable":
        nearest = data.get("nearest")
        return cls(
            str(data["target"]),
            tuple(Row.from_json(r) for r in data.get("rows") or ()),
            {str(k): str(v) for k, v in (data.get("known") or {}).items()},
            tuple(str(c) for c in data.get("beside") or ()),
            (str(nearest[0]), float(nearest[1])) if nearest else None,
            tuple(str(s) for s in data.get("skipped") or ()),
            float(data.get("seconds") or 0.0),
            {str(k): str(v) for k, v in (data.get("culprits") or {}).items()},
            {str(k): str(v) for k, v in (data.get("features") or {}).items()},
            str(data.get("culprit") or ""),
            {str(k): tuple(str(c) for c in v) for k, v in (data.get("cures") or {}).items()},
            {str(k): str(v) for k, v in (data.get("localized") or {}).items()},
            {str(k): str(v) for k, v in (data.get("families") or {}).items()},
            {str(k): str(v) for k, v in (data.get("alone") or {}).items()},
        )


@dataclasses.dataclass(frozen=True)
class Verdict:
    verdict: VerdictKind
    target: str
    of: str = ""  # duplicate-of: the known cause
    by: str = ""  # duplicate-of: the experiment that shows it (a variant's label, and how)
    trigger: tuple[str, ...] = ()  # the variants that make the failure go away, as sentences
    nearest: str = ""  # the nearest known cause
    why_not_nearest: str = ""  # why this cause is not that one ("" for a duplicate: it is)

    def line(self) -> str:
        """The verdict for the reader of a report: the same defect as another, or one of its own. Whether ireefuzz
        already tracks it is the campaign's business (``verdict``), not the report reader's: the maintainer review
        read "a defect of its own; ireefuzz already tracks this one" as a contradiction."""
        if self.verdict == "duplicate-of":
            return f"duplicate-of {self.of} (by experiment: {self.by})"
        return "a defect of its own: no variant turns it into another defect ireefuzz knows"

    def to_json(self) -> dict[str, Any]:
        return dataclasses.asdict(self) | {"trigger": list(self.trigger), "line": self.line()}

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> "Verdict":
        verdict: VerdictKind = next((v for v in VERDICT_KINDS if v == data.get("verdict")), "new")
        return cls(
            verdict,
            str(data.get("target", "")),
            str(data.get("of", "")),
            str(data.get("by", "")),
            tuple(str(t) for t in data.get("trigger") or ()),
            str(data.get("nearest", "")),
            str(data.get("why_not_nearest", "")),
        )


# Label parts the variants write and the verdict reads (a twin one size up, a CPU feature added), and the size of
# the dim a rank+1 variant adds (a graph and a raw program alike).
EDGE_UP = "@edge+1"  # a static variant's twin with each empty or unit size one up (``degenerate_cures``)
FEATURE_LABEL = "cpu+"
EXTRA_DIM = 3  # the size of the leading dim a rank+1 variant adds (not 1: IREE folds unit dims away)


def degenerate_cures(rows: Sequence[Row]) -> set[str]:
    """The clean static variants whose twin one size up at their empty or unit dims (``<label>@edge+1``) still
    fails: what removed the failure there is the degenerate size (a one-element source), not the static dims."""
    clean = {r.label for r in rows if r.outcome.kind == "clean"}
    return {
        r.label.removesuffix(EDGE_UP)
        for r in rows
        if r.label.endswith(EDGE_UP) and r.label.removesuffix(EDGE_UP) in clean and r.outcome.kind in ("same", "known")
    }


ALONE = ".alone"  # a label's end (``cut``): the wrong op alone at its operands' values
APART = ".apart"  # a label's end (``graph_variants``): a shift moved far enough that its ranges do not overlap
ONE_RESULT = ".one-result"  # a label's end (``graph_variants``): a region op's region yields its one result, not two
COMPUTED_OPERAND = ".computed"  # a label's end (``graph_variants``): an argument an op updates read through a value
CONSUMER_DROPPED = "drop:n"  # a label's start (``graph_variants``): a node removed, its producers returned instead
PRODUCER_CUT = ".argument"  # a label's end (``graph_variants``): a producer read from a new argument instead


def failed_alone(rows: Sequence[Row]) -> Row | None:
    """The first ``alone`` variant (``cut``) that failed as the target does, or in a known cause, else None."""
    return next((r for r in rows if r.label.endswith(ALONE) and r.outcome.kind in ("same", "known") and r.causes), None)


def alone_cause(rows: Sequence[Row]) -> str:
    """The cause the op alone showed, where a table's ``alone`` variant failed (``failed_alone``), else ""."""
    row = failed_alone(rows)
    return str(row.causes[0]) if row is not None else ""


def without_consumer(rows: Sequence[Row], causes: Collection[str]) -> str:
    """The first of ``causes`` a variant with an op removed showed instead of the target, else "": a consumer
    dropped (``CONSUMER_DROPPED``: the target's failure is that cause's, read through the op removed) or a producer
    read from an argument (``PRODUCER_CUT``: that cause's failure, fed by the op removed; stop 46's
    collapse_shape>cond was cond's bug)."""
    return next(
        (
            r.outcome.detail
            for r in rows
            if (r.label.startswith(CONSUMER_DROPPED) or r.label.endswith(PRODUCER_CUT))
            and r.outcome.kind == "other"
            and r.outcome.detail in causes
        ),
        "",
    )
