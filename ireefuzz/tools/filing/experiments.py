"""Experiments before a verdict: the variants an IREE engineer runs on a shrunk program, and what they say.

A new cause is a claim: "this is a bug of its own". An engineer tests it by changing one thing at a time and
compiling again: dims static at the instance sizes and static dims dynamic, an argument used as a destination
replaced by ``tensor.empty`` (filled where the op reads it), a splat ``linalg.generic`` as ``linalg.fill`` and
back, each consumer removed, f16 / bf16 as f32, a rank more or less (where the ops allow it), another CPU
(``generic``, ``x86-64-v3``, ``host``) and data tiling on / off. ``graph_experiments`` builds these from the
metamorphic relations' own transforms (``core.relations``: ``to_static``, ``to_dynamic``, ``dps_variants``,
``config_variants``); ``program_experiments`` builds the ones that work on a raw program's text (the CPUs, f32,
``tensor.empty`` for an argument init, a static slice or a splat input (``linalg.fill``, splat constant / generic)
read from a new argument, the splat also read in its consumer's body over that argument); ``policy_experiments`` the
compiler policies of the target's oracle (``OracleSpec.policies``: fusion's aggressive fusion, one compile).
``run_experiments`` compiles and runs each through the one pipeline (``core.evaluate``, whose findings carry their
causes, ``oracles.cause.assign_causes``) and records an ``Outcome`` per variant: the same cause, a known cause,
another cause, clean, or not judged (and why). A CPU whose code this machine cannot run is compiled only: its
run-time verdicts are not judged.

``judge`` reads the table and nothing else:

- **duplicate-of K** when a variant lands in the known cause K of the same oracle family while the target goes
  away (the same mechanism under another surface), or when K shows beside the target in the same dispatch and
  comes and goes with it in every variant (one defect reported twice, e.g. the copies of a known stack buffer);
- the **trigger**: the variants that make the failure go away, as sentences ("With `tensor.empty` instead of
  `%arg1` as the outs of n0 (reduce_sum), it compiles.");
- the **nearest known cause**, and why this cause is not it.

``record`` is what a bundle's ``finding.json`` keeps (``experiments``); ``section_lines`` writes it for ISSUE.md
and the campaign's summary.md; ``duplicates`` reads bundles back, so the campaign counts a cause judged duplicate
as known: a nightly is red only for a cause that survived its experiments.
"""

from __future__ import annotations

import collections
import dataclasses
import json
import re
import time
from pathlib import Path
from typing import TYPE_CHECKING, Any, Callable, Iterable, Iterator, Literal, Mapping, Sequence

from ireefuzz.base.mlir_text import split_top_level
from ireefuzz.oracles.finding import Signature
from ireefuzz.oracles.registry import SPECS, spec_of
from ireefuzz.tools import check
from ireefuzz.tools.baseline import Baseline, Known

if TYPE_CHECKING:
    from ireefuzz.core.frontends import ProgramCase
    from ireefuzz.core.policy import Policy
    from ireefuzz.generators.case import Case
    from ireefuzz.sut import CompilerConfig

OutcomeKind = Literal["same", "known", "other", "clean", "not-judged"]
OUTCOME_KINDS: tuple[OutcomeKind, ...] = ("same", "known", "other", "clean", "not-judged")
VerdictKind = Literal["new", "duplicate-of", "known"]  # known: the baseline judges the target itself
VERDICT_KINDS: tuple[VerdictKind, ...] = ("new", "duplicate-of", "known")
MAX_EXPERIMENTS = 12  # variants per candidate (each one iree-compile, ~1-3 s), beside the as-given one
CPUS = ("generic", "x86-64-v3", "host")
AS_GIVEN = "as-given"
CannotRun = Callable[[str], "str | None"]  # a CPU -> why this machine cannot run code for it, or None
CannotFlag = Callable[[tuple[str, ...]], "str | None"]  # the case's flags -> why this machine cannot run it, or None


def family(cause: str) -> str:
    """The oracle family of a cause id (``numeric/...`` and ``reference/...`` are one: a wrong value; the oracle's
    ``OracleSpec.switch``)."""
    oracle = cause.split("/", 1)[0]
    spec = SPECS.get(oracle)
    return spec.switched_by if spec is not None else oracle


def mechanism(cause: str) -> tuple[str, str]:
    """What a variant's cause must share with the target to be the same mechanism by experiment: the oracle family
    and the kind of defect (memory: a stack buffer, a heap buffer or a copy; crash: a compile error, a compiler
    crash or a run-time failure; a wrong value of any kind; an input written, however)."""
    oracle, kind = (cause.split("/") + [""])[:2]
    spec = SPECS.get(oracle)
    return family(cause), spec.defect(kind) if spec is not None else kind


def failure_stage(cause: str) -> int:
    """How late in the compile a cause's failure shows, from the pass or stage its id names after ``@``: 3 at LLVM
    translation / linking, 2 at the final codegen checks, 1 at any earlier pass, 0 for a cause that names no pass
    (a wrong value, a memory or fusion finding)."""
    from ireefuzz.oracles import vocabulary

    at = _named_at(cause)
    if not at or family(cause) != "crash":
        return 0
    if at in vocabulary.LINK_PASSES:
        return 3
    return 2 if at in (vocabulary.FINAL_CHECK_PASS, vocabulary.LATE_CHECK_STAGE) else 1


def culprit_family(cause: str) -> str:
    """The family of the culprit pass a cause id names after ``@`` (``...@iree-llvmcpu-tile`` -> ``tiling``), or ""
    when it names a pipeline or nothing (memory and fusion causes name a pipeline: a CamelCase word, no pass)."""
    return pass_culprit_family(_named_at(cause))


def pass_culprit_family(name: str) -> str:
    """The family of pass ``name`` (``pass_family``), or "" when it is no pass (a CamelCase pipeline, nothing)."""
    from ireefuzz.oracles.cause import pass_family

    return pass_family(name) if "-" in name else ""


def _named_at(cause: str) -> str:
    """What a cause id names after its ``@`` (a pass, a stage or a pipeline), or "" without one."""
    return cause.rpartition("@")[2] if "@" in cause else ""


def needs_run(cause: str) -> bool:
    """Whether the cause is seen only by running the program (a wrong value, a mutation, a run-time crash)."""
    oracle, kind = (cause.split("/") + [""])[:2]
    spec = SPECS.get(oracle)
    return spec is not None and spec.reads_run(kind)


# --------------------------------------------------------------------------- values


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


# --------------------------------------------------------------------------- the verdict (pure)


def judge(table: ExperimentTable) -> Verdict:
    """The verdict the table supports (see the module doc)."""
    mech = mechanism(table.target)
    rows = list(table.rows)
    variants = [r for r in rows if r.label != AS_GIVEN]
    degenerate = degenerate_cures(rows)
    trigger = tuple(
        _degenerate_sentence(r, variants, table.target) if r.label in degenerate else sentence(r, table.target)
        for r in variants
        if r.outcome.kind == "clean"
    )
    own = table.known.get(table.target)
    if own == table.target:  # not a candidate: the baseline judges it already, by its own id (no variant relabels it)
        return Verdict("known", table.target, own, trigger=trigger, nearest=own)
    landed = [  # of the target's mechanism, and failing no later than it (a later failure got past the target's)
        r
        for r in variants
        if r.outcome.kind == "known"
        and mechanism(r.outcome.cause) == mech
        and failure_stage(r.outcome.cause) <= failure_stage(table.target)
    ]
    culprit = culprit_family(table.target) or pass_culprit_family(table.culprit)
    by_pass = [  # another oracle's known bug from the same pass: one edit turns this failure into that one
        r for r in variants if r.outcome.kind == "known" and culprit and table.culprits.get(r.outcome.cause) == culprit
    ]
    for r in variants:  # the same CPU with one feature added is right: the known cause that shows only without it
        feature = r.label.removeprefix(FEATURE_LABEL)
        of = table.features.get(feature, "") if r.label.startswith(FEATURE_LABEL) and r.outcome.kind == "clean" else ""
        if of and family(of) == family(table.target):
            how = f"{r.label} (the same CPU with {feature}) is right, and `{of}` shows only without {feature}"
            return Verdict("duplicate-of", table.target, of, how, trigger, of)
    # the experiment that removes a known cause (a variant that lands in a known cause of its mechanism says more)
    same_pass = lambda k: bool(culprit) and table.families.get(k) == culprit  # another oracle's bug of this pass
    for r in (r for r in variants if r.outcome.kind == "clean" and r.label not in degenerate and not landed):
        cured = [
            k
            for end, ks in table.cures.items()
            if r.label.endswith(end)
            for k in ks
            if mechanism(k) == mech or same_pass(k)
        ]
        if cured:
            how = f"{r.label} removes it, as it removes `{cured[0]}` (that cause's recorded cure)"
            return Verdict("duplicate-of", table.target, cured[0], how, trigger, cured[0])
    if hits := landed or by_pass:
        counts = collections.Counter(r.outcome.cause for r in hits)
        of = max(counts, key=lambda k: (counts[k], -[r.outcome.cause for r in hits].index(k)))
        by = next(r for r in hits if r.outcome.cause == of)
        how = by.label if landed else f"{by.label}, which lands in it, and the same culprit pass ({culprit})"
        return Verdict("duplicate-of", table.target, of, how, trigger, of)
    judged = [r for r in rows if r.outcome.kind != "not-judged"]
    for k in table.beside:
        shows = lambda r: k in {table.known.get(c, "") for c in r.causes}
        present = lambda r: _shows_target(table, r, k)
        together = all(present(r) == shows(r) for r in judged)
        removed = [r for r in judged if r.label != AS_GIVEN and not present(r) and not shows(r)]
        if together and removed:
            how = f"{removed[0].label} removes both; they come and go together in all {len(judged)} programs"
            return Verdict("duplicate-of", table.target, k, how, trigger, k)
    if own:  # the one known cause whose recorded mechanism it has (``known_cause``)
        return Verdict("duplicate-of", table.target, own, "its mechanism (oracle, culprit pass)", trigger, own)
    if of := localized_known(table):  # once localized, the one known cause of its oracle from the same pass
        how = f"its mechanism: the {table.target.split('/')[0]} oracle and the culprit pass {table.culprit}"
        return Verdict("duplicate-of", table.target, of, how, trigger, of)
    nearest, why = _nearest(table, judged)
    return Verdict("new", table.target, trigger=trigger, nearest=nearest, why_not_nearest=why)


def mechanism_key(oracle: str, culprit: str) -> str:
    """``oracle@family`` of a culprit pass (``pass_culprit_family``), or "" for none or a pass that only reports
    what earlier passes made (``vocabulary.REPORTING_PASSES``: no evidence of a mechanism by itself)."""
    from ireefuzz.oracles import vocabulary

    family = pass_culprit_family(culprit) if culprit not in vocabulary.REPORTING_PASSES else ""
    return f"{oracle}@{family}" if family else ""


def localized_mechanisms(baseline: Baseline) -> dict[str, str]:
    """Each known cause whose recorded mechanism names a culprit pass -> its ``mechanism_key`` (not one known by
    its cure: the cure names it better)."""
    return {
        k.cause: key
        for k in baseline.entries
        if k.cause and k.mechanism and k.mechanism.culprit and not k.mechanism.cured_by
        if (key := mechanism_key(k.mechanism.oracle, k.mechanism.culprit))
    }


def culprit_families(baseline: Baseline) -> dict[str, str]:
    """Each known cause whose recorded mechanism names a culprit pass -> that pass's family (cures shared across
    oracles count only from the same pass: ``ExperimentTable.families``)."""
    return {k.cause: k.mechanism.family for k in baseline.entries if k.cause and k.mechanism and k.mechanism.family}


def localized_known(table: ExperimentTable) -> str:
    """The one known cause whose recorded mechanism has the target's oracle and its localized culprit's pass family
    (``with_culprit``), else "": a memory, fusion or numeric id names no pass, so only the localization says that a
    stack buffer made by the transfer split is that known class whatever op and pipeline showed it."""
    mine = mechanism_key(table.target.split("/")[0], table.culprit) if table.culprit else ""
    same = sorted(k for k, key in table.localized.items() if mine and key == mine)
    return same[0] if len(same) == 1 else ""


def _shows_target(table: ExperimentTable, row: Row, other: str = "") -> bool:
    """The row shows the target, or a cause of its mechanism that is not the known cause ``other`` (the same
    defect under another name: a copy keyed by its program's syntax)."""
    mech = mechanism(table.target)
    return row.outcome.kind == "same" or any(
        mechanism(c) == mech and table.known.get(c, "") != other for c in row.causes
    )


def _nearest(table: ExperimentTable, judged: Sequence[Row]) -> tuple[str, str]:
    """The known cause of the target's family the experiments met most often, and why this cause is not it; else
    the nearest by features (``table.nearest``)."""
    fam, own = family(table.target), {table.target, table.known.get(table.target, table.target)}
    seen = collections.Counter(
        table.known[c] for r in judged for c in set(r.causes) if c in table.known and family(c) == fam
    )
    for k in own:
        seen.pop(k, None)
    if seen:
        k = max(seen, key=lambda c: (seen[c], c))
        shows = lambda r: k in {table.known.get(c, "") for c in r.causes}
        alone = next((r for r in judged if _shows_target(table, r, k) and not shows(r)), None)
        if alone is not None:
            where = "as given" if alone.label == AS_GIVEN else f"with {alone.change}"
            return k, f"{where}, this cause shows without `{k}`: another defect"
        if k not in table.beside:
            return k, f"`{k}` shows beside it, but not in its dispatch"
        return k, f"`{k}` shows beside it, and no variant removes both: not shown to be one mechanism"
    if table.nearest:
        k, d = table.nearest
        return k, f"no variant lands in `{k}` (nearest by oracle, kind, ops, dtype and pipeline; distance {d:.2f})"
    return "", "the baseline has no cause of this oracle family"


def sentence(row: Row, target: str) -> str:
    """A clean variant as a bug report says it: "With `tensor.empty` instead of `%arg1` ..., it compiles."."""
    return f"With {row.change}, {_effect(target)}."


def _degenerate_sentence(row: Row, rows: Sequence[Row], target: str) -> str:
    """A clean static variant whose twin one size up fails, said as what it shows: the size, not the static dims."""
    twin = next(r for r in rows if r.label == row.label + EDGE_UP)
    return (
        f"With {row.change}, {_effect(target)}; but with {twin.change} it fails the same way: the empty or unit "
        "size avoids it, not the static dims."
    )


def _effect(target: str) -> str:
    """What "clean" means for the target's oracle, in words (its ``OracleSpec.absent``)."""
    oracle, kind = (target.split("/") + ["", ""])[:2]
    spec = SPECS.get(oracle)
    return spec.absent(kind) if spec is not None else "the failure goes away"


# --------------------------------------------------------------------------- nearness of causes


FEATURES = ("oracle", "kind", "ops", "dtype", "pipeline")


def features(cause: str, signatures: Iterable[str], pipeline: str = "") -> dict[str, frozenset[str]]:
    """The feature vector of a cause: its id (``oracle/kind/what@pipeline``) and its signatures' ops and dtypes
    (the campaign's ranking and ``nearest_known`` measure distance over it)."""
    oracle, _, rest = cause.partition("/")
    kind, _, what = rest.partition("/")
    what, _, at = what.partition("@")
    ops = {op.split("[", 1)[0] for op in what.split(">") if op} if ">" in what or what.isidentifier() else set()
    dtypes: set[str] = set()
    for text in signatures:
        try:
            sig = Signature.parse(text)
        except ValueError:
            continue
        ops.update(sig.op_names)
        dtypes.update(d for d in sig.dtype.split(",") if d != "-")
    return {
        "oracle": frozenset({oracle}),
        "kind": frozenset({kind}),
        "ops": frozenset(ops),
        "dtype": frozenset(dtypes),
        "pipeline": frozenset({p for p in (at or pipeline,) if p}),
    }


def distance(a: Mapping[str, frozenset[str]], b: Mapping[str, frozenset[str]]) -> float:
    """Mean over the features of 1 - Jaccard (two empty sets agree)."""
    total = 0.0
    for f in FEATURES:
        union = a[f] | b[f]
        total += (1.0 - len(a[f] & b[f]) / len(union)) if union else 0.0
    return total / len(FEATURES)


def nearest_known(cause: str, signatures: Iterable[str], baseline: Baseline) -> tuple[str, float] | None:
    """The baseline's cause of the same oracle family nearest to ``cause`` by features (a duplicate entry stands
    for the cause it duplicates), or None."""
    mine = features(cause, signatures)
    best: tuple[float, str] | None = None
    for k in baseline.causes.values():
        if not k.cause or k.cause == cause or family(k.cause) != family(cause):
            continue
        name = k.of if k.verdict == "duplicate-of" and k.of else k.cause
        d = distance(mine, features(k.cause, k.signatures))
        if best is None or (d, name) < best:
            best = (d, name)
    return (best[1], round(best[0], 3)) if best else None


def known_cause(baseline: Baseline, finding: Any, cause: str) -> str:
    """The known cause a variant's finding is, or "": the baseline's entry of its cause (a ``duplicate-of`` entry
    gives the cause it duplicates), else the one known cause whose recorded mechanism has its oracle and culprit
    pass family (``Baseline.matches``: a known bug met under another name; the culprit of a compile error is the
    pass that failed)."""
    k = baseline.finding_known(finding.signature, cause)
    if k is not None:
        return k.of if k.verdict == "duplicate-of" and k.of else k.cause or cause
    culprit = _failing_pass(finding)
    found = {m.cause for m in baseline.matches(finding.oracle, culprit, cause)} if culprit else set()
    return found.pop() if len(found) == 1 else ""


def _failing_pass(finding: Any) -> str | None:
    from ireefuzz.oracles.cause import failing_pass

    diagnostic = finding.evidence.get("diagnostic") if isinstance(finding.evidence, Mapping) else None
    compile_error = spec_of(finding.oracle).reproduce(finding.kind) == "compile-error"
    return failing_pass(str(diagnostic)) if compile_error and diagnostic else None


# --------------------------------------------------------------------------- graph variants


def _attempt(build: Callable[[], Any]) -> Any:
    from ireefuzz.errors import GraphError

    try:
        return build()
    except (GraphError, ValueError, KeyError, IndexError, TypeError):
        return None


def _with(case: Case, graph: Any, instances: Any = None) -> Any:
    """``case`` with ``graph`` (and ``instances``; default: the case's, kept to the graph's symbols), checked."""
    from ireefuzz.tools.shrink.graph import with_graph

    if instances is None:
        return with_graph(case, graph)
    return dataclasses.replace(case, graph=graph, instances=instances).check()


EDGE_UP = "@edge+1"  # a static variant's twin with each empty or unit size one up (``degenerate_cures``)


def degenerate_cures(rows: Sequence[Row]) -> set[str]:
    """The clean static variants whose twin one size up at their empty or unit dims (``<label>@edge+1``) still
    fails: what removed the failure there is the degenerate size (a one-element source), not the static dims."""
    clean = {r.label for r in rows if r.outcome.kind == "clean"}
    return {
        r.label.removesuffix(EDGE_UP)
        for r in rows
        if r.label.endswith(EDGE_UP) and r.label.removesuffix(EDGE_UP) in clean and r.outcome.kind in ("same", "known")
    }


def shape_experiments(case: Case) -> Iterator[Experiment]:
    """Dynamic dims static at the first instance's sizes (all, then each alone; with an empty or unit size, also
    at that size one up, so a degenerate size is not taken for the static dims' cure), a dim at an edge size one
    size up, or static dims dynamic."""
    from ireefuzz.core.relations import to_dynamic, to_static

    g, sizes = case.graph, dict(case.instances[0])
    if g.symbols:
        shown = ", ".join(f"{s}={n}" for s, n in sizes.items())
        static = _attempt(lambda: _with(case, to_static(g, sizes), ({},)))
        if static is not None:
            yield Experiment("static", f"every dim static at the instance's sizes ({shown})", static)
        up = {s: n + 1 if n in (0, 1) else n for s, n in sizes.items()}
        edge_static = _attempt(lambda: _with(case, to_static(g, up), ({},))) if up != sizes else None
        if static is not None and edge_static is not None:
            bumped = ", ".join(f"{s}={n}" for s, n in up.items() if n != sizes[s])
            yield Experiment(f"static{EDGE_UP}", f"every dim static, with {bumped} (one size up)", edge_static)
        for sym, n in sizes.items():  # an empty or unit dim is an edge: the same program one size up
            if n in (0, 1):
                edge = _attempt(lambda: _with(case, g, ({**sizes, sym: n + 1},)))
                if edge is not None:
                    yield Experiment(f"size:{sym}={n + 1}", f"`{sym}` = {n + 1} instead of {n}", edge)
        for sym in g.symbols if len(g.symbols) > 1 else ():
            rest = ({s: n for s, n in sizes.items() if s != sym},)
            one = _attempt(lambda: _with(case, g.map_dims(lambda d: sizes[sym] if d == sym else d).check(), rest))
            if one is not None:
                yield Experiment(f"static:{sym}", f"`{sym}` static ({sizes[sym]}), the other dims dynamic", one)
        return
    dynamic, new = to_dynamic(g)
    variant = _attempt(lambda: _with(case, dynamic, (new,))) if new else None
    if variant is not None:
        yield Experiment("dynamic", f"the static sizes {', '.join(map(str, new.values()))} as dynamic dims", variant)


def init_experiments(case: Case) -> Iterator[Experiment]:
    """Each argument used as a destination replaced: a DPS ``outs`` by a fresh ``tensor.empty``
    (``dps_variants``' ``outs=empty``), an accumulator the op reads by a ``linalg.fill`` of one."""
    from ireefuzz.core.relations import dps_variants
    from ireefuzz.generators.ops import OPS

    g = case.graph
    forms = dict(dps_variants(g, limit=1 << 16))
    for i, node in enumerate(g.nodes):
        init = str(node.attrs.get("init", "empty"))
        if init.startswith("value:a") and f"n{i}.outs=empty" in forms:
            variant = _attempt(lambda: _with(case, forms[f"n{i}.outs=empty"]))
            if variant is not None:
                yield Experiment(
                    f"n{i}.outs=empty",
                    f"`tensor.empty` instead of `%arg{init[7:]}` as the outs of n{i} ({node.op})",
                    variant,
                )
        acc = OPS[node.op].acc_input
        if acc is not None and acc < len(node.inputs) and node.inputs[acc].startswith("a"):
            variant = _attempt(lambda: _with(case, accumulator_filled(g, i)))
            if variant is not None:
                yield Experiment(
                    f"n{i}.acc=fill",
                    f"a `linalg.fill` of a `tensor.empty` instead of `%arg{node.inputs[acc][1:]}` as the "
                    f"accumulator of n{i} ({node.op})",
                    variant,
                )


def accumulator_filled(graph: Any, index: int) -> Any:
    """``graph`` with node ``index``'s accumulator argument replaced by a new zero ``fill`` of its type (placed
    first); an argument nothing else reads goes."""
    from ireefuzz.generators.graph import Node
    from ireefuzz.generators.ops import OPS
    from ireefuzz.tools.shrink.graph import rebuild

    node, acc = graph.nodes[index], OPS[graph.nodes[index].op].acc_input
    t = graph.type_of(node.inputs[acc])
    zero = 0 if t.dtype.startswith("i") else 0.0
    fill = Node("fill", (), {"shape": list(t.shape), "dtype": t.dtype, "value": zero}, type(t)(t.shape, t.dtype))
    shifted = _prepend(graph, fill)
    target = shifted.nodes[index + 1]
    inputs = tuple("n0" if k == acc else r for k, r in enumerate(target.inputs))
    nodes = list(shifted.nodes)
    nodes[index + 1] = dataclasses.replace(target, inputs=inputs)
    whole = type(graph)(graph.args, tuple(nodes), shifted.outputs)
    return rebuild(whole, range(len(nodes)), whole.outputs)


def _prepend(graph: Any, node: Any) -> Any:
    """``graph`` with ``node`` as its new first node (every node reference shifted by one); unchecked."""

    def shift(ref: str) -> str:
        return f"n{int(ref[1:]) + 1}" if ref.startswith("n") else ref

    def attrs(a: Mapping[str, Any]) -> dict[str, Any]:
        init = str(a.get("init", "empty"))
        kind, _, ref = init.partition(":")
        return dict(a) | ({"init": f"{kind}:{shift(ref)}"} if ref else {})

    moved = [dataclasses.replace(n, inputs=tuple(map(shift, n.inputs)), attrs=attrs(n.attrs)) for n in graph.nodes]
    return type(graph)(graph.args, (node, *moved), tuple(map(shift, graph.outputs)))


def splat_experiments(case: Case) -> Iterator[Experiment]:
    """Each ``fill`` toggled between ``linalg.fill`` and its splat ``linalg.generic`` (``dps_variants``' form)."""
    from ireefuzz.core.relations import dps_variants

    g = case.graph
    forms = dict(dps_variants(g, limit=1 << 16))
    for i, node in enumerate(g.nodes):
        if node.op != "fill":
            continue
        generic = bool(node.attrs.get("generic"))
        variant = forms.get(f"n{i}.generic={str(not generic).lower()}")
        variant = _attempt(lambda: _with(case, variant)) if variant is not None else None
        if variant is not None:
            change = "`linalg.fill` instead of the splat `linalg.generic`" if generic else "a splat `linalg.generic`"
            yield Experiment(
                f"n{i}.{'fill' if generic else 'generic'}",
                f"{change} for n{i}" + ("" if generic else " instead of `linalg.fill`"),
                variant,
            )


def consumer_experiments(case: Case) -> Iterator[Experiment]:
    """Each consumer removed (with what only it feeds): its producers are returned instead."""
    from ireefuzz.tools.shrink.graph import cone, rebuild

    g = case.graph
    for c, node in enumerate(g.nodes):
        producers = [r for r in dict.fromkeys(node.inputs) if r.startswith("n")]
        if not producers:
            continue
        outputs = list(dict.fromkeys([o for o in g.outputs if c not in cone(g, [o])] + producers))
        variant = _attempt(lambda: _with(case, rebuild(g, sorted(cone(g, outputs)), outputs)))
        if variant is not None:
            shown = ", ".join(producers)
            yield Experiment(f"drop:n{c}", f"n{c} ({node.op}) removed ({shown} returned instead)", variant)


NARROW_FLOATS = ("f16", "bf16")


def dtype_experiments(case: Case) -> Iterator[Experiment]:
    """f16 / bf16 as f32 everywhere (a cast that becomes f32 to f32 goes)."""
    g = case.graph
    narrow = sorted({t.dtype for t in g.args} | {n.type.dtype for n in g.nodes} & set(NARROW_FLOATS))
    narrow = [d for d in narrow if d in NARROW_FLOATS]
    variant = _attempt(lambda: _with(case, widened(g))) if narrow else None
    if variant is not None:
        yield Experiment("f32", f"f32 instead of {' / '.join(narrow)}", variant)


def widened(graph: Any) -> Any:
    """``graph`` with every f16 / bf16 type (and ``dtype`` / ``to`` attribute) as f32; casts that become
    f32 -> f32 bypassed."""
    from ireefuzz.tools.shrink.graph import rebuild

    wide = lambda d: "f32" if d in NARROW_FLOATS else d
    retype = lambda t: dataclasses.replace(t, dtype=wide(t.dtype))
    nodes = []
    for n in graph.nodes:
        attrs = {k: wide(v) if k in ("dtype", "to") and isinstance(v, str) else v for k, v in n.attrs.items()}
        nodes.append(dataclasses.replace(n, attrs=attrs, type=retype(n.type)))
    g = type(graph)(tuple(retype(t) for t in graph.args), tuple(nodes), graph.outputs)
    same = {
        f"n{i}": n.inputs[0]
        for i, n in enumerate(g.nodes)
        if n.op == "cast" and g.type_of(n.inputs[0]).dtype == n.type.dtype
    }
    keep = [i for i in range(len(g.nodes)) if f"n{i}" not in same]
    return rebuild(g, keep, g.outputs, replace=same) if same else g.check()


RANKED_FAMILIES = frozenset({"elementwise", "producer", "reduction", "normalization"})  # ops with "dim"/"shape" attrs
EXTRA_DIM = 3  # the size of the leading dim a rank+1 variant adds (not 1: IREE folds unit dims away)


def rank_experiments(case: Case) -> Iterator[Experiment]:
    """One leading dim more, and one less, where every op allows it (elementwise, producers, reductions,
    softmax and the norms: their ``dim`` and ``shape`` attributes move with it)."""
    from ireefuzz.generators.ops import OPS

    g = case.graph
    if not all(OPS[n.op].family in RANKED_FAMILIES for n in g.nodes):
        return
    rank = max((len(g.type_of(o).shape) for o in g.outputs), default=0)
    up = _attempt(lambda: _with(case, with_leading_dim(g, EXTRA_DIM)))
    if up is not None:
        yield Experiment("rank+1", f"a leading dim of size {EXTRA_DIM} more (rank {rank} -> {rank + 1})", up)
    down = _attempt(lambda: _with(case, without_leading_dim(g)))
    if down is not None:
        yield Experiment("rank-1", f"the leading dim dropped (rank {rank} -> {rank - 1})", down)


def with_leading_dim(graph: Any, size: Any) -> Any:
    def shape(t: Any) -> Any:
        return dataclasses.replace(t, shape=(size, *t.shape))

    return _reranked(graph, shape, lambda d: d + 1, lambda s: [size, *s])


def without_leading_dim(graph: Any) -> Any:
    def shape(t: Any) -> Any:
        if not t.shape:
            raise ValueError(f"{t!r} has no dim to drop")
        return dataclasses.replace(t, shape=tuple(t.shape[1:]))

    def dim(d: int) -> int:
        if d < 1:
            raise ValueError("an op works along the dim to drop")
        return d - 1

    return _reranked(graph, shape, dim, lambda s: list(s[1:]))


def _reranked(graph: Any, shape: Callable, dim: Callable[[int], int], attr_shape: Callable) -> Any:
    nodes = []
    for n in graph.nodes:
        attrs = dict(n.attrs)
        if "dim" in attrs:
            attrs["dim"] = dim(int(attrs["dim"]))
        if "shape" in attrs:
            attrs["shape"] = attr_shape(attrs["shape"])
        nodes.append(dataclasses.replace(n, attrs=attrs, type=shape(n.type)))
    return type(graph)(tuple(shape(t) for t in graph.args), tuple(nodes), graph.outputs).check()


def cpu_experiments(case: Any, cannot_run: CannotRun) -> Iterator[Experiment]:
    """The case for each of ``CPUS`` it does not already target; a CPU whose code this machine cannot run
    (``cannot_run`` says why) is compiled only."""
    for cpu in CPUS:
        if cpu != case.target_cpu:
            yield Experiment(
                f"cpu={cpu}",
                f"`--iree-llvmcpu-target-cpu={cpu}`{host_named(cpu)} instead of `{case.target_cpu}`",
                dataclasses.replace(case, target_cpu=cpu),
                cannot_run(cpu) or "",
            )


def host_named(cpu: str) -> str:
    """What ``host`` resolves to on this machine (`` (here `rocketlake` with +avx512fp16 ...)``), for a claim about
    it that a reader's machine may not share (the review: #13577's link error is gone on a host with AVX-512 FP16);
    "" for any other."""
    if cpu != "host":
        return ""
    return f" (here {host_description()})"


def host_description() -> str:
    """``host`` on this machine in words a reader can act on: the CPU LLVM names it after and the features this
    machine adds to that CPU (the review: `rocketlake` here has +avx512fp16, which `-cpu=rocketlake` lacks, so "host
    compiles it" misled)."""
    from ireefuzz import sut

    host = sut.resolve_platform(sut.CompilerConfig(target_cpu="host"))[0]
    if not host.name:
        return "`host`"
    named = sut.resolve_platform(sut.CompilerConfig(target_cpu=host.name))[0]
    extra = sorted(_enabled(host.features) - _enabled(named.features))
    shown = ", ".join(f"`{f}`" for f in extra[:8]) + (", ..." if len(extra) > 8 else "")
    return f"`{host.name}`" + (f" with {shown} beyond `-cpu={host.name}`" if extra else "")


def _enabled(features: str) -> set[str]:
    return {f for f in features.split(",") if f.startswith("+") and f != "+64bit"}


FEATURE_LABEL = "cpu+"


def feature_experiments(
    case: Any, have: str | None, features: Iterable[str], cannot_run: CannotFlag
) -> Iterator[Experiment]:
    """The case on its own CPU with one feature added (``+f16c``), for each of ``features`` (those a known cause
    shows only without) that ``have`` (the CPU's resolved "+a,-b" features; None: unknown, no variant) lacks.
    ``cannot_run`` says why this machine cannot run code with those flags, or None."""
    from ireefuzz.sut.config_space import FEATURES_FLAG, enabled

    if have is None or any(f.startswith(FEATURES_FLAG + "=") for f in case.flags):
        return
    for feature in sorted(set(features) - enabled(have)):
        flags = (*case.flags, f"{FEATURES_FLAG}=+{feature}")
        yield Experiment(
            f"{FEATURE_LABEL}{feature}",
            f"`{FEATURES_FLAG}=+{feature}` on `{case.target_cpu}`",
            dataclasses.replace(case, flags=flags),
            cannot_run(flags) or "",
        )


def config_experiments(case: Case) -> Iterator[Experiment]:
    """Data tiling forced on and off (``config_variants``; its CPU variant is ``cpu_experiments``')."""
    from ireefuzz.core.relations import DATA_TILING_FLAG, config_variants

    for v in config_variants(case):
        if v.label.startswith("data-tiling") and tuple(v.case.flags) != tuple(case.flags):
            flag = next(f for f in v.case.flags if f.startswith(DATA_TILING_FLAG))
            yield Experiment(v.label, f"`{flag}`", v.case)


def policy_experiments(case: Any, oracle: str) -> Iterator[Experiment]:
    """The case compiled with each compiler policy flag of the target's oracle (``OracleSpec.policies``: fusion's
    aggressive fusion) it does not pass already; a graph case and a raw program alike."""
    spec = SPECS.get(oracle)
    for label, flag in spec.policies if spec is not None else ():
        if flag not in case.flags:
            yield Experiment(label, f"`{flag}`", dataclasses.replace(case, flags=(*case.flags, flag)))


GraphBuilder = Callable[[Any], Iterator[Experiment]]


def producer_experiments(case: Case) -> Iterator[Experiment]:
    """Each ``fill`` read from a new argument of its type instead (random values): whether the failure needs the
    splat at all (the raw programs' ``with_producer_as_argument``, same label ending ``producer=argument``; round J's
    vectorization crash over a filled, masked sum is right with its input an argument, as the fill-sum is)."""
    from ireefuzz.tools.shrink.graph import rebuild

    g = case.graph
    for i, node in enumerate(g.nodes):
        if node.op != "fill":
            continue
        keep = [k for k in range(len(g.nodes)) if k != i]
        variant = _attempt(
            lambda: _with(case, rebuild(g, keep, g.outputs, replace={f"n{i}": "x0"}, new_args=[node.type]))
        )
        if variant is not None:
            yield Experiment(f"n{i}.producer=argument", f"n{i} (a `linalg.fill`) read from a new argument", variant)


GRAPH_EXPERIMENTS: tuple[tuple[str, GraphBuilder], ...] = (
    ("shape", shape_experiments),
    ("init", init_experiments),
    ("splat", splat_experiments),
    ("producer", producer_experiments),
    ("consumer", consumer_experiments),
    ("dtype", dtype_experiments),
    ("rank", rank_experiments),
    ("config", config_experiments),
)


def graph_experiments(case: Case, cannot_run: CannotRun = lambda cpu: None) -> list[list[Experiment]]:
    """Every applicable graph experiment of ``case``, one list per kind (``GRAPH_EXPERIMENTS``, then the CPUs)."""
    kinds = [list(build(case)) for _, build in GRAPH_EXPERIMENTS]
    return kinds + [list(cpu_experiments(case, cannot_run))]


# --------------------------------------------------------------------------- raw-program variants (IR level)


_NARROW_TYPE = re.compile(r"(?<![a-wyzA-Z0-9_])b?f16(?!\w)")  # 4xf16 and bf16, not bf16's f16
_HEX16 = re.compile(r"\b0x([0-9A-Fa-f]{4})\b")
_IDENTITY_CAST = re.compile(r"^(\s*)(%[\w.$-]+) = arith\.(?:extf|truncf) (%[\w.$-]+)(?: [^:]*)? : f32 to f32\s*$")


def widened_text(text: str) -> str | None:
    """``text`` (printed by MLIR) with f16 / bf16 as f32: types, 16-bit hex float literals, and the
    ``arith.extf`` / ``arith.truncf`` that become f32 -> f32 dropped (their uses renamed within their block).
    None when nothing is narrow or the result does not verify."""
    from ireefuzz.tools.shrink.canonical import parse

    module = parse(text)
    if module is None or not _NARROW_TYPE.search(text):
        return None
    lines = []
    for line in str(module).splitlines():
        bf16 = "bf16" in line
        line = _HEX16.sub(lambda m: _hex32(m.group(1), bf16), line)
        lines.append(_NARROW_TYPE.sub("f32", line))
    k = 0
    while k < len(lines):
        m = _IDENTITY_CAST.match(lines[k])
        if not m:
            k += 1
            continue
        indent, result, operand = m.groups()
        del lines[k]
        use = re.compile(re.escape(result) + r"(?![\w.$-])")
        j = k
        while j < len(lines) and (not lines[j].strip() or len(lines[j]) - len(lines[j].lstrip()) >= len(indent)):
            lines[j] = use.sub(operand, lines[j])
            j += 1
    candidate = "\n".join(lines) + "\n"
    return candidate if parse(candidate) is not None else None


def _hex32(bits: str, bf16: bool) -> str:
    """A 16-bit float's hex literal as the f32 literal of the same value."""
    import numpy as np

    raw = int(bits, 16)
    value = (
        np.array([raw << 16], dtype=np.uint32).view(np.float32)[0]
        if bf16
        else np.array([raw], dtype=np.uint16).view(np.float16)[0].astype(np.float32)
    )
    return "0x%08X" % int(np.array([value], dtype=np.float32).view(np.uint32)[0])


_IN_PLACE_OPS = frozenset({"iree_linalg_ext.sort", "iree_linalg_ext.scatter", "iree_linalg_ext.scan"})


@dataclasses.dataclass(frozen=True)
class ArgumentInit:
    """A function argument used as an op's destination (``outs``) at the top level of a function."""

    function: str
    op_index: int  # among the function's top-level ops
    op: str
    argument: int
    type: str
    element: str
    dynamic: tuple[int, ...]  # its dynamic dims
    reads: bool  # the op reads its destination (a reduction, a contraction, a generic using ``%out``)


# A destination: ``outs(...)``, or a pack / unpack's ``into`` (not an insert's, whose other elements it keeps).
_OUTS = re.compile(r"(?:\bouts\(|\blinalg\.(?:un)?pack\b.*?\binto\s+)([^:]*):")
_FUNCTION_ARG = r"%arg{}(?![\w.$-])"


def _op_lines(lines: Sequence[str], function: str) -> list[int]:
    """The lines (of a program printed by MLIR) where each top-level op of ``function`` starts, terminator included."""
    head = next(
        (i for i, ln in enumerate(lines) if re.match(rf"\s*func\.func (?:\w+ )?@{re.escape(function)}\(", ln)), None
    )
    if head is None:
        return []
    indent = len(lines[head]) - len(lines[head].lstrip()) + 2
    starts = []
    for i in range(head + 1, len(lines)):
        depth = len(lines[i]) - len(lines[i].lstrip())
        if lines[i].strip() and depth < indent:
            break
        if depth == indent and not lines[i].lstrip().startswith(("}", "^")):
            starts.append(i)
    return starts


def argument_inits(text: str) -> list[ArgumentInit]:
    """Every function argument some top-level op of ``text`` takes as a destination (in its ``outs(...)``), read with
    MLIR's bindings (types, which operand, whether the op's region reads it) on the program as MLIR prints it."""
    from iree.compiler import ir

    from ireefuzz.tools.shrink.canonical import parse

    module = parse(text)
    if module is None:
        return []
    lines = str(module).splitlines()
    found = []
    for f in (op.operation for op in module.body.operations if op.operation.name == "func.func"):
        if not f.regions[0].blocks:
            continue
        name = ir.StringAttr(f.attributes["sym_name"]).value
        entry = f.regions[0].blocks[0]
        ops, starts = [o.operation for o in entry.operations], _op_lines(lines, name)
        if len(ops) != len(starts):  # not printed as expected: no site rather than a wrong one
            continue
        for k, (op, at) in enumerate(zip(ops, starts)):
            outs = _OUTS.search(lines[at])
            for n in dict.fromkeys(int(m) for m in re.findall(r"%arg(\d+)(?![\w.$-])", outs.group(1) if outs else "")):
                value = entry.arguments[n] if n < len(entry.arguments) else None
                t = value.type if value is not None else None
                if not isinstance(t, ir.RankedTensorType):
                    continue
                operand = max((i for i, v in enumerate(op.operands) if v == value), default=-1)
                found.append(
                    ArgumentInit(
                        name,
                        k,
                        op.name,
                        n,
                        str(t),
                        str(t.element_type),
                        tuple(i for i in range(t.rank) if t.is_dynamic_dim(i)),
                        _reads_destination(op, operand),
                    )
                )
    return found


def _reads_destination(op: Any, operand: int) -> bool:
    """Whether ``op`` reads its operand ``operand`` as a destination: an in-place op always; a structured op when
    the block argument of its payload region for that operand has uses (a reduction, a generic reading ``%out``)."""
    if op.name in _IN_PLACE_OPS:
        return True
    if not op.regions or not op.regions[0].blocks:
        return False
    args = list(op.regions[0].blocks[0].arguments)
    return 0 <= operand < len(args) and len(args) == len(op.operands) and bool(list(args[operand].uses))


def _zero(element: str) -> str | None:
    if element in ("f16", "bf16", "f32", "f64"):
        return "0.000000e+00"
    if element == "i1":
        return "false"
    if re.fullmatch(r"[su]?i\d+|index", element):
        return "0"
    return None


def with_empty_init(text: str, site: ArgumentInit) -> str | None:
    """``text`` (printed by MLIR) with ``site``'s destination a fresh ``tensor.empty`` of its type (sized by the
    argument's dynamic dims), filled with zero first when the op reads it; None if the result does not verify."""
    from ireefuzz.tools.shrink.canonical import parse

    module = parse(text)
    zero = _zero(site.element)
    if module is None or (site.reads and zero is None):
        return None
    lines = str(module).splitlines()
    starts = _op_lines(lines, site.function)
    if site.op_index >= len(starts) or site.op not in lines[starts[site.op_index]]:
        return None
    indent = len(lines[starts[0]]) - len(lines[starts[0]].lstrip())
    at, arg, pad = starts[site.op_index], f"%arg{site.argument}", " " * indent
    fresh = f"%xf_init{site.op_index}_{site.argument}"
    new = []
    dims = []
    for d in site.dynamic:
        new += [
            f"{pad}{fresh}_c{d} = arith.constant {d} : index",
            f"{pad}{fresh}_d{d} = tensor.dim {arg}, {fresh}_c{d} : {site.type}",
        ]
        dims.append(f"{fresh}_d{d}")
    empty = f"{fresh}_empty" if site.reads else fresh
    new.append(f"{pad}{empty} = tensor.empty({', '.join(dims)}) : {site.type}")
    if site.reads:
        new += [
            f"{pad}{fresh}_zero = arith.constant {zero} : {site.element}",
            f"{pad}{fresh} = linalg.fill ins({fresh}_zero : {site.element}) outs({empty} : {site.type}) -> {site.type}",
        ]
    outs = _OUTS.search(lines[at])
    if outs is None or not re.search(_FUNCTION_ARG.format(site.argument), outs.group(1)):
        return None
    renamed = re.sub(_FUNCTION_ARG.format(site.argument), fresh, outs.group(1), count=1)
    lines[at] = lines[at][: outs.start(1)] + renamed + lines[at][outs.end(1) :]
    candidate = "\n".join(lines[:at] + new + lines[at:]) + "\n"
    return candidate if parse(candidate) is not None else None


def _function_span(lines: Sequence[str], function: str) -> tuple[int, int] | None:
    """(the header line, the closing-brace line) of ``function`` in a program printed by MLIR."""
    head = next(
        (i for i, ln in enumerate(lines) if re.match(rf"\s*func\.func (?:\w+ )?@{re.escape(function)}\(", ln)), None
    )
    if head is None or not lines[head].rstrip().endswith("{"):
        return None
    indent = len(lines[head]) - len(lines[head].lstrip())
    closing = " " * indent + "}"
    end = next((i for i in range(head + 1, len(lines)) if lines[i].rstrip() == closing), None)
    return (head, end) if end is not None else None


def _entry_arguments(module: Any, function: str) -> list[Any] | None:
    """The entry block arguments of ``function`` in a parsed ``module`` (None: no such function with a body)."""
    from iree.compiler import ir

    for op in module.body.operations:
        f = op.operation
        if f.name == "func.func" and ir.StringAttr(f.attributes["sym_name"]).value == function and f.regions[0].blocks:
            return list(f.regions[0].blocks[0].arguments)
    return None


def with_argument_types(text: str, function: str, shapes: Mapping[int, Sequence[int | None]]) -> str | None:
    """``text`` (printed by MLIR) with argument ``n`` of ``function`` of the shape ``shapes[n]`` (None: a dynamic
    dim) and a ``tensor.cast`` back to its own type at entry, so the body is unchanged (IREE's canonicalization
    folds the cast into its users: static sizes propagate, dynamic ones stay opaque). None if nothing changes or the
    result does not verify."""
    from iree.compiler import ir

    from ireefuzz.tools.shrink.canonical import parse

    module = parse(text)
    arguments = _entry_arguments(module, function) if module is not None else None
    if module is None or arguments is None:
        return None
    lines = str(module).splitlines()
    span = _function_span(lines, function)
    if span is None:
        return None
    head, end = span
    pad = " " * (len(lines[head]) - len(lines[head].lstrip()) + 2)
    casts = []
    with module.context, ir.Location.unknown():
        for n, shape in sorted(shapes.items()):
            t = arguments[n].type if n < len(arguments) else None
            if not isinstance(t, ir.RankedTensorType) or len(shape) != t.rank:
                return None
            dims = [ir.ShapedType.get_dynamic_size() if d is None else int(d) for d in shape]
            new = ir.RankedTensorType.get(dims, t.element_type, t.encoding)
            if str(new) == str(t):
                continue
            declared = re.compile(rf"(%arg{n}: ){re.escape(str(t))}")
            if not declared.search(lines[head]):
                return None
            lines[head] = declared.sub(lambda m: m.group(1) + str(new), lines[head], count=1)
            fresh, use = f"%xf_arg{n}", re.compile(_FUNCTION_ARG.format(n))
            for i in range(head + 1, end):
                lines[i] = use.sub(fresh, lines[i])
            casts.append(f"{pad}{fresh} = tensor.cast %arg{n} : {new} to {t}")
    if not casts:
        return None
    candidate = "\n".join(lines[: head + 1] + casts + lines[head + 1 :]) + "\n"
    return candidate if parse(candidate) is not None else None


# Ops whose meaning does not change with a leading parallel dim on every tensor (their indexing is identity or
# spelled by the attributes ``reranked_text`` moves): a rank more or less is then a mechanical rewrite.
_RANK_FREE_OPS = frozenset(
    {"func.return", "tensor.empty", "tensor.dim", "linalg.yield", "linalg.index", "linalg.fill", "linalg.map"}
    | {"linalg.generic", "linalg.softmax", "linalg.reduce", "linalg.copy", "linalg.elementwise"}
    | {f"linalg.{n}" for n in ("add", "sub", "mul", "div", "div_unsigned", "max", "min", "powf", "select")}
    | {f"linalg.{n}" for n in ("exp", "log", "abs", "ceil", "floor", "negf", "reciprocal", "round", "sqrt", "rsqrt")}
    | {f"linalg.{n}" for n in ("square", "tanh", "erf")}
)
_MAP = re.compile(r"affine_map<\(([^)]*)\)((?:\[[^\]]*\])?) -> \((.*?)\)>")
_DIM = re.compile(r"\bd(\d+)\b")
_TENSOR_DIM = re.compile(r"(tensor\.dim %[\w.$-]+, )(%[\w.$-]+)( :)")
_INDEX_CONSTANT = r"^\s*{} = arith\.constant (\d+) : index\s*$"


def _rank_free(op: Any) -> str:
    """Why a leading dim cannot be added to or dropped from ``op`` mechanically ("" when it can)."""
    from iree.compiler import ir

    name = op.name
    if name.startswith(("arith.", "math.")):
        if name == "arith.constant" and isinstance(op.results[0].type, ir.RankedTensorType):
            value = op.attributes["value"]
            if not (isinstance(value, ir.DenseElementsAttr) and value.is_splat):
                return "a tensor constant that is not a splat"
        return ""
    if name not in _RANK_FREE_OPS:
        return f"`{name}` fixes its operands' ranks"
    if name.startswith("linalg.") and any(not isinstance(v.type, ir.RankedTensorType) for v in op.operands):
        if name != "linalg.fill" and name not in ("linalg.yield", "linalg.index"):
            return f"`{name}` takes a scalar operand"
    for region in op.regions:
        for block in region.blocks:
            for inner in block.operations:
                why = _rank_free(inner.operation)
                if why:
                    return why
    return ""


def _shift_map(match: re.Match[str], step: int) -> str:
    dims, symbols, results = match.groups()
    n = len([d for d in dims.split(",") if d.strip()])
    shifted = _DIM.sub(lambda m: f"d{int(m.group(1)) + step}", results)
    if step > 0:
        body = ", ".join(["d0"] + ([shifted] if shifted.strip() else []))
        return f"affine_map<({', '.join(f'd{i}' for i in range(n + 1))}){symbols} -> ({body})>"
    parts = split_top_level(results)
    if not parts or parts[0] != "d0" or any(_DIM.search(p) and "d0" in _DIM.findall(p) for p in parts[1:]):
        raise ValueError("the leading dim is not a plain leading result of every map")
    rest = ", ".join(_DIM.sub(lambda m: f"d{int(m.group(1)) - 1}", p) for p in parts[1:])
    return f"affine_map<({', '.join(f'd{i}' for i in range(n - 1))}){symbols} -> ({rest})>"


def reranked_text(text: str, function: str, *, up: bool, size: int = 0) -> tuple[str | None, str]:
    """``text`` (printed by MLIR) with every tensor of ``function`` one leading dim more (of ``size``; up) or less
    (a static leading dim, read by no op as anything but a parallel dim), and the attributes that name dims moved:
    indexing maps and iterators, ``dimension`` / ``dimensions``, ``linalg.index`` and ``tensor.dim`` indices.
    (the program, "") or (None, why it is not mechanical)."""
    from ireefuzz.tools.shrink.canonical import parse

    module = parse(text)
    if module is None or _entry_arguments(module, function) is None:
        return None, "the function does not parse"
    f = next(
        o.operation
        for o in module.body.operations
        if o.operation.name == "func.func" and o.operation.attributes["sym_name"].value == function
    )
    for op in f.regions[0].blocks[0].operations:
        why = _rank_free(op.operation)
        if why:
            return None, why
    lines = str(module).splitlines()
    span = _function_span(lines, function)
    if span is None:
        return None, "the function is not printed as expected"
    head, end = span
    aliases = dict(re.findall(r"^(#[\w.$-]+) = (affine_map<.*>)$", "\n".join(lines[:head]), re.M))
    step = 1 if up else -1
    body = lines[head : end + 1]
    try:
        for k, line in enumerate(body):
            for name, value in aliases.items():
                line = re.sub(re.escape(name) + r"(?![\w.$-])", value, line)
            if "tensor<*" in line:
                raise ValueError("an unranked tensor")
            if up:
                line = line.replace("tensor<", f"tensor<{size}x")
            else:
                if re.search(r"tensor<(?!\d+x)", line):
                    raise ValueError("a tensor without a static leading dim")
                line = re.sub(r"tensor<\d+x", "tensor<", line)
            line = _MAP.sub(lambda m: _shift_map(m, step), line)
            if up:
                line = line.replace('iterator_types = ["', 'iterator_types = ["parallel", "')
            elif "iterator_types = [" in line:
                if 'iterator_types = ["parallel"' not in line:
                    raise ValueError("the leading dim is not parallel")
                line = re.sub(r'iterator_types = \["parallel",? ?', "iterator_types = [", line)
            line = re.sub(r"\bdimension\((\d+)\)", lambda m: f"dimension({_moved(int(m.group(1)), step)})", line)
            line = re.sub(
                r"\bdimensions = \[([\d, ]*)\]",
                lambda m: "dimensions = [" + ", ".join(str(_moved(int(d), step)) for d in _ints(m.group(1))) + "]",
                line,
            )
            line = re.sub(r"\blinalg\.index (\d+)", lambda m: f"linalg.index {_moved(int(m.group(1)), step)}", line)
            body[k] = line
        body, constants = _moved_tensor_dims(body, step)
    except ValueError as e:
        return None, str(e)
    pad = " " * (len(lines[head]) - len(lines[head].lstrip()) + 2)
    entry = [f"{pad}{name} = arith.constant {value} : index" for name, value in constants]
    candidate = "\n".join(lines[:head] + body[:1] + entry + body[1:] + lines[end + 1 :]) + "\n"
    return (candidate, "") if parse(candidate) is not None else (None, "the rewritten program does not verify")


def _ints(text: str) -> list[int]:
    return [int(d) for d in text.replace(" ", "").split(",") if d]


def _moved(dim: int, step: int) -> int:
    if dim + step < 0:
        raise ValueError("an op works along the leading dim")
    return dim + step


def _moved_tensor_dims(body: list[str], step: int) -> tuple[list[str], list[tuple[str, int]]]:
    """``body`` with each ``tensor.dim``'s constant index moved by ``step`` (new constants, declared at entry)."""
    constants: dict[str, int] = {}
    out = []
    for line in body:
        m = _TENSOR_DIM.search(line)
        if m:
            value = next(
                (int(c.group(1)) for ln in body if (c := re.match(_INDEX_CONSTANT.format(re.escape(m.group(2))), ln))),
                None,
            )
            if value is None:
                raise ValueError("a `tensor.dim` whose index is not a constant")
            moved = _moved(value, step)
            name = f"%xf_rank_c{moved}"
            constants[name] = moved
            line = line[: m.start(2)] + name + line[m.end(2) :]
        out.append(line)
    return out, list(constants.items())


def program_experiments(case: ProgramCase, cannot_run: CannotRun = lambda cpu: None) -> list[list[Experiment]]:
    """The IR-level experiments of a raw program's function (``frontends.ProgramCase``), one list per kind: its
    arguments' dims static at the instance's sizes or dynamic (``with_argument_types``), ``tensor.empty`` for each
    argument init of that function, each result dropped (``program_result_experiments``), a leading dim more or
    less (``reranked_text``), f32 for f16 / bf16, the CPUs.
    A variant that cannot be built mechanically is an ``Experiment`` without a case, saying why."""
    inits = []
    for site in argument_inits(case.program):
        if site.function != case.function:
            continue
        text = with_empty_init(case.program, site)
        variant = _program_variant(case, text) if text else None
        if variant is not None:
            fill = " (filled with zero: the op reads it)" if site.reads else ""
            inits.append(
                Experiment(
                    f"{site.op.split('.')[-1]}#{site.op_index}.outs=empty",
                    f"`tensor.empty` instead of `%arg{site.argument}` as the outs of `{site.op}`{fill}",
                    variant,
                )
            )
    wide = widened_text(case.program)
    variant = _program_variant(case, wide, widen=True) if wide else None
    dtypes = [Experiment("f32", "f32 instead of f16 / bf16", variant)] if variant is not None else []
    shapes, ranks = list(program_shape_experiments(case)), list(program_rank_experiments(case))
    views, producers = list(program_view_experiments(case)), list(program_producer_experiments(case))
    results = list(program_result_experiments(case))
    cpus = list(cpu_experiments(case, cannot_run))
    return [shapes, inits, results, views, producers, ranks, dtypes, cpus]


def program_result_experiments(case: ProgramCase) -> Iterator[Experiment]:
    """Each result of a raw program's function no longer returned, with what only it feeds (``without_result``):
    the IR level's "each consumer removed" (round H's transpose of a two-result generic compiles without the
    transpose, and without the generic's other result)."""
    from ireefuzz.tools.shrink.mlir import result_count, without_result

    for k in range(result_count(case.program, case.function)):
        text = without_result(case.program, case.function, k)
        variant = _program_variant(case, text) if text else None
        if variant is not None:
            yield Experiment(f"drop:output{k}", f"output {k} not returned (with what only it feeds)", variant)


def _shown(shape: Sequence[int | None]) -> str:
    return "x".join("?" if d is None else str(d) for d in shape) or "scalar"


def _edge_up(declared: Sequence[int | None], size: Sequence[int]) -> tuple[int, ...]:
    """``size`` with each dynamic dim of size 0 or 1 one size up."""
    return tuple(n + 1 if d is None and n in (0, 1) else n for d, n in zip(declared, size))


def program_shape_experiments(case: Any) -> Iterator[Experiment]:
    """The arguments' dynamic dims static at the instance's sizes (all, then each argument alone when several are
    dynamic), and the static arguments dynamic; each through a ``tensor.cast`` at entry, the body unchanged."""
    if case.args is None:
        return
    declared = [shape for shape, _ in case.signature.args]
    sizes = [tuple(t.shape) for t in case.args]
    dynamic = [n for n, shape in enumerate(declared) if None in shape]
    singles = [[n] for n in dynamic] if len(dynamic) > 1 else []
    for group in [dynamic] * bool(dynamic) + singles:
        text = with_argument_types(case.program, case.function, {n: sizes[n] for n in group})
        variant = _program_variant(case, text) if text else None
        if variant is None:
            continue
        shown = ", ".join(f"`%arg{n}` {_shown(declared[n])} as {_shown(sizes[n])}" for n in group)
        label = "static" if group is dynamic else f"static:%arg{group[0]}"
        alone = "" if group is dynamic else ", the other arguments dynamic"
        yield Experiment(label, f"static argument types at the instance's sizes ({shown}){alone}", variant)
        up = {n: _edge_up(declared[n], sizes[n]) for n in group}
        if any(up[n] != sizes[n] for n in group):  # the same at an empty or unit size one up (``degenerate_cures``)
            text = with_argument_types(case.program, case.function, up)
            shapes = [up.get(n, shape) for n, shape in enumerate(sizes)]
            edge = _program_variant(case, text, shapes=shapes) if text else None
            if edge is not None:
                shown = ", ".join(f"`%arg{n}` as {_shown(up[n])}" for n in group if up[n] != sizes[n])
                yield Experiment(f"{label}{EDGE_UP}", f"static argument types one size up ({shown}){alone}", edge)
    static = [n for n, shape in enumerate(declared) if shape and None not in shape]
    text = with_argument_types(case.program, case.function, {n: [None] * len(declared[n]) for n in static})
    variant = _program_variant(case, text) if text else None
    if variant is not None:
        shown = ", ".join(f"`%arg{n}` {_shown(declared[n])}" for n in static)
        yield Experiment("dynamic", f"dynamic argument types ({shown} as dynamic dims, cast back at entry)", variant)


_SLICE = re.compile(r"^\s*(%[\w.$-]+) = tensor\.extract_slice .* to (tensor<((?:\d+x)+)[a-z]\w*>)\s*$")


def _as_argument(
    lines: list[str], span: tuple[int, int], first: int, last: int, argument: str, result: str
) -> list[str]:
    """``lines`` (a function's program, ``span`` its header and closing lines) with the op on lines ``first`` to
    ``last`` removed and a new last argument ``argument`` of type ``result`` (its uses already renamed to it,
    ``_renamed``)."""
    header = lines[span[0]]
    function = re.search(r"@([\w$.-]+)\(", header).group(1)  # type: ignore[union-attr]
    opened = header.index(f"@{function}(") + len(function) + 2
    depth, close = 1, opened
    while depth and close < len(header):
        depth += {"(": 1, ")": -1}.get(header[close], 0)
        close += 1
    comma = ", " if header[opened : close - 1].strip() else ""
    lines[span[0]] = f"{header[: close - 1]}{comma}{argument}: {result}{header[close - 1 :]}"
    body = lines[span[0] + 1 : span[1]]
    del body[first - span[0] - 1 : last - span[0]]
    lines[span[0] + 1 : span[1]] = body
    return lines


def _renamed(lines: Sequence[str], span: tuple[int, int], value: str, argument: str) -> list[str]:
    """``lines`` with every use of ``value`` inside ``span`` (a function's body) spelled ``argument``."""
    use = re.compile(rf"{re.escape(value)}(?![\w.$-])")
    return [use.sub(argument, ln) if span[0] < i < span[1] else ln for i, ln in enumerate(lines)]


def with_view_as_argument(text: str, function: str, line: int) -> tuple[str, tuple[int, ...]] | None:
    """``text`` with the ``tensor.extract_slice`` on ``line`` of ``function`` replaced by a new last argument of its
    result type (a static one), every use of its result reading the argument; (the program, the argument's shape),
    or None when the line is no such slice."""
    lines = text.split("\n")
    span, found = _function_span(lines, function), _SLICE.match(lines[line])
    if span is None or found is None or not span[0] < line < span[1]:
        return None
    value, result, dims = found.groups()
    argument = f"%view_of_{value.lstrip('%').replace('.', '_')}"
    program = _as_argument(_renamed(lines, span, value, argument), span, line, line, argument, result)
    return "\n".join(program), tuple(int(d) for d in dims.rstrip("x").split("x"))


def program_view_experiments(case: Any) -> Iterator[Experiment]:
    """Each statically shaped ``tensor.extract_slice`` of the function read from a new argument of its type instead
    (the view removed, its data the same kind): an engineer's "does the slice matter?" (a gather from a strided
    view fails where one from a plain buffer compiles)."""
    if case.args is None:
        return
    lines = case.program.split("\n")
    for line in range(len(lines)):
        made = with_view_as_argument(case.program, case.function, line) if _SLICE.match(lines[line]) else None
        if made is None:
            continue
        text, shape = made
        variant = _program_variant(case, text, shapes=[*(t.shape for t in case.args), shape])
        if variant is not None:
            value = _SLICE.match(lines[line]).group(1)  # type: ignore[union-attr]
            yield Experiment(
                f"{value.lstrip('%')}.view=argument",
                f"a function argument of its type in place of the `tensor.extract_slice` {value}",
                variant,
            )


@dataclasses.dataclass(frozen=True)
class ProducerSite:
    """A top-level value of a function that is a splat (a ``linalg.fill``, a splat ``arith.constant``, a
    ``linalg.generic`` of no input yielding a value from above) and that some op reads as an input (not a
    destination)."""

    function: str
    op_index: int  # among the function's top-level ops
    op: str
    value: str  # its result, as MLIR prints it
    type: str
    shape: tuple[int, ...]
    element: str
    scalar: str  # the splat: an SSA value from above, or a literal (``2 : i32``)
    splat: float | int | bool | None  # its number where it is a literal somewhere, for inputs of that value
    consumers: tuple[tuple[int, int], ...]  # (top-level op, operand) of each read of it as an input


def _literal(attr: Any) -> tuple[str, float | int | bool | None] | None:
    """An ``arith.constant`` scalar attribute as (its literal with type, its number), or None."""
    from iree.compiler import ir

    if isinstance(attr, ir.IntegerAttr):
        return str(attr), bool(attr.value) if str(attr.type) == "i1" else int(attr.value)
    if isinstance(attr, ir.FloatAttr):
        return str(attr), float(attr.value)
    return None


def producer_sites(text: str, function: str) -> list[ProducerSite]:
    """The splat values of ``function`` in ``text`` (as MLIR prints it) that an op reads as an input."""
    from iree.compiler import ir

    from ireefuzz.tools.shrink.canonical import parse

    module = parse(text)
    if module is None or _entry_arguments(module, function) is None:
        return []
    f = next(
        o.operation
        for o in module.body.operations
        if o.operation.name == "func.func" and ir.StringAttr(o.operation.attributes["sym_name"]).value == function
    )
    ops = [o.operation for o in f.regions[0].blocks[0].operations]
    found = []
    for k, op in enumerate(ops):
        if len(op.results) != 1 or not isinstance(op.results[0].type, ir.RankedTensorType):
            continue
        t = op.results[0].type
        if not t.has_static_shape:
            continue
        scalar, splat = "", None
        if op.name == "linalg.fill":
            source = op.operands[0]
            scalar = source.get_name()
            if not isinstance(source, ir.BlockArgument) and source.owner.name == "arith.constant":
                literal = _literal(source.owner.attributes["value"])
                splat = literal[1] if literal else None
        elif op.name == "arith.constant" and isinstance(op.attributes["value"], ir.DenseElementsAttr):
            dense = op.attributes["value"]
            literal = _literal(dense.get_splat_value()) if dense.is_splat else None
            if literal is None:
                continue
            scalar, splat = literal
        elif op.name == "linalg.generic" and not _ins_of(op):
            body = [o.operation for o in op.regions[0].blocks[0].operations]
            yielded = body[-1].operands[0] if len(body) == 1 and len(body[0].operands) == 1 else None
            if yielded is None or (isinstance(yielded, ir.BlockArgument) and yielded.owner == op.regions[0].blocks[0]):
                continue
            scalar = yielded.get_name()
            if not isinstance(yielded, ir.BlockArgument) and yielded.owner.name == "arith.constant":
                literal = _literal(yielded.owner.attributes["value"])
                splat = literal[1] if literal else None
        else:
            continue
        readers = tuple(
            (j, n) for j, o in enumerate(ops) for n, v in enumerate(_ins_of(o)) if j != k and v == op.results[0]
        )
        if readers:
            element = str(t.element_type)
            found.append(
                ProducerSite(
                    function,
                    k,
                    op.name,
                    op.results[0].get_name(),
                    str(t),
                    tuple(t.shape),
                    element,
                    scalar,
                    splat,
                    readers,
                )
            )
    return found


def _ins_of(op: Any) -> list[Any]:
    """A destination-style op's inputs (``operandSegmentSizes``' first group), else all its operands."""
    from iree.compiler import ir

    if "operandSegmentSizes" not in op.attributes:
        return list(op.operands)
    return list(op.operands)[: ir.DenseI32ArrayAttr(op.attributes["operandSegmentSizes"])[0]]


_BLOCK_HEAD = re.compile(r"^\s*\^bb0\((.*)\):\s*$")


def with_producer_as_argument(text: str, site: ProducerSite, *, into_body: bool = False) -> str | None:
    """``text`` (as MLIR prints it) with ``site``'s value read from a new last argument of its type (the producer
    removed); with ``into_body``, also each consumer's body reading the splat in place of that input's element (the
    consumer still reads the argument, its body ignores it: the form a splat folded into a body has). None when
    the result does not verify (or, for ``into_body``, a consumer is no ``linalg.generic``)."""
    from ireefuzz.tools.shrink.canonical import parse

    module = parse(text)
    if module is None:
        return None
    lines = str(module).splitlines()
    span, starts = _function_span(lines, site.function), _op_lines(lines, site.function)
    if span is None or site.op_index + 1 >= len(starts):
        return None
    if not lines[starts[site.op_index]].lstrip().startswith(f"{site.value} = {site.op}"):
        return None
    scalar = site.scalar if site.scalar.startswith("%") else f"%xf_splat{site.op_index}"
    for consumer, operand in site.consumers if into_body else ():
        first, last = starts[consumer], starts[consumer + 1]
        head = next((i for i in range(first, last) if _BLOCK_HEAD.match(lines[i])), None)
        if "= linalg.generic " not in lines[first] or head is None:
            return None
        names = [a.split(":")[0].strip() for a in _BLOCK_HEAD.match(lines[head]).group(1).split(", ")]  # type: ignore
        if operand >= len(names):
            return None
        lines[head + 1 : last] = _renamed(lines[head + 1 : last], (-1, last - head), names[operand], scalar)
    argument = f"%producer_of_{site.value.lstrip('%').replace('.', '_')}"
    first, last = starts[site.op_index], starts[site.op_index + 1] - 1
    lines = _as_argument(_renamed(lines, span, site.value, argument), span, first, last, argument, site.type)
    if into_body and scalar != site.scalar:  # a literal: a scalar constant at the top of the function
        pad = " " * (len(lines[span[0]]) - len(lines[span[0]].lstrip()) + 2)
        lines.insert(span[0] + 1, f"{pad}{scalar} = arith.constant {site.scalar}")
    candidate = "\n".join(lines) + "\n"
    return candidate if parse(candidate) is not None else None


def _given_name(text: str, site: ProducerSite) -> str:
    """``site``'s value as ``text`` spells it (``%fill``) where its top-level ops line up with the printed ones,
    else as MLIR prints it (``%1``)."""
    lines = text.split("\n")
    starts = _op_lines(lines, site.function)
    at = lines[starts[site.op_index]] if site.op_index < len(starts) else ""
    named = re.match(rf"\s*(%[\w.$-]+) = {re.escape(site.op)}\b", at)
    return named.group(1) if named else site.value


def program_producer_experiments(case: Any) -> Iterator[Experiment]:
    """Each splat value of the function that an op reads as an input (``producer_sites``) read from a new argument
    of its type instead: its input the splat's value (the program's meaning kept), then a random one; and the
    splat read in its consumers' bodies in place of that input's element, over the argument. An engineer's "does the
    fill matter?": where the argument fails the same way it does not; where only the body form does, what the
    failure needs is a body that ignores its input (a splat folded into the body gives that form)."""
    import numpy as np

    if case.args is None:
        return
    for site in producer_sites(case.program, case.function):
        if site.function != case.function:
            continue
        op = f"`{site.op}` {_given_name(case.program, site)}"
        label = f"{site.op.split('.')[-1]}#{site.op_index}.producer="
        shapes = [*(t.shape for t in case.args), site.shape]
        text = with_producer_as_argument(case.program, site)
        variant = _program_variant(case, text, shapes=shapes) if text else None
        if variant is not None and site.splat is not None:
            drawn = variant.inputs()
            splat = np.full(site.shape, site.splat, dtype=drawn[-1].dtype)
            yield Experiment(
                f"{label}splat-argument",
                f"a function argument of its type in place of the {op} (its input the same splat, {site.splat})",
                dataclasses.replace(variant, given=(*(case.inputs()), splat)),
                drops_op=True,
            )
        if variant is not None:
            yield Experiment(
                f"{label}argument",
                f"a function argument of its type in place of the {op} (its input drawn at random)",
                variant,
                drops_op=True,
            )
        text = with_producer_as_argument(case.program, site, into_body=True)
        variant = _program_variant(case, text, shapes=shapes) if text else None
        if variant is not None:
            yield Experiment(
                f"{label}body",
                f"the {op}'s value read in its consumers' bodies in place of their input's element, that input a "
                "function argument of its type (drawn at random)",
                variant,
                drops_op=True,
            )


def program_rank_experiments(case: Any) -> Iterator[Experiment]:
    """Every tensor of the function one leading dim more (of ``EXTRA_DIM``: IREE folds a unit dim away) and one
    less, where that is mechanical (``reranked_text``); else an experiment without a case, saying why not."""
    if case.args is None:
        return
    rank = max((len(shape) for shape, _ in case.signature.results), default=0)
    for up, label in ((True, "rank+1"), (False, "rank-1")):
        text, why = reranked_text(case.program, case.function, up=up, size=EXTRA_DIM)
        shapes = [(EXTRA_DIM, *t.shape) if up else tuple(t.shape[1:]) for t in case.args]
        variant = _program_variant(case, text, shapes=shapes) if text else None
        change = (
            f"a leading dim of size {EXTRA_DIM} on every tensor (rank {rank} -> {rank + 1})"
            if up
            else f"every tensor's leading dim dropped (rank {rank} -> {rank - 1})"
        )
        if variant is not None:
            yield Experiment(label, change, variant)
        else:
            yield Experiment(label, change, None, not_run=why or "the variant's signature cannot be fed")


def _program_variant(
    case: Any, text: str, *, widen: bool = False, shapes: Sequence[Sequence[int]] | None = None
) -> Any:
    """``case``'s function in the program ``text``, at the same argument shapes (or ``shapes``; element types from
    ``text``)."""
    from ireefuzz.core.frontends import program_cases
    from ireefuzz.errors import ProgramError

    if shapes is None:
        shapes = [t.shape for t in case.args] if case.args is not None else None
    try:
        (variant,) = program_cases(
            text,
            functions=[case.function],
            shapes=shapes,
            seed=case.seed,
            run=case.args is not None,
            target_cpu=case.target_cpu,
            flags=case.flags,
        )
    except (ProgramError, ValueError):
        return None
    return variant


# --------------------------------------------------------------------------- running them


def chosen(kinds: Sequence[Sequence[Experiment]], limit: int, identity: Callable[[Any], str]) -> tuple[list, list]:
    """Up to ``limit`` experiments, one of each kind in turn (every kind gets its first before any its second);
    repeats of a program already chosen dropped. (chosen, the labels left over)."""
    picked: list[Experiment] = []
    seen: set[str] = set()
    left: list[str] = []
    queues = [collections.deque(k) for k in kinds]
    while any(queues):
        for q in queues:
            if not q:
                continue
            e = q.popleft()
            if e.case is None:  # not applicable: why
                left.append(f"{e.label}: not built ({e.not_run})")
                continue
            key = identity(e.case)
            if key in seen:
                continue
            if len(picked) < limit:
                seen.add(key)
                picked.append(e)
            else:
                left.append(f"{e.label}: over the cap of {limit}")
    return picked, left


def _identity(case: Any) -> str:
    dumps = getattr(case, "dumps", None)
    if callable(dumps):
        return str(dumps())
    given = "|".join(x.tobytes().hex() for x in getattr(case, "given", None) or ())  # a variant's own inputs
    return f"{case.program}|{case.function}|{case.target_cpu}|{case.flags}|{case.args is not None}|{given}"


Evaluate = Callable[[Sequence[Any], Any, Any, Any], Sequence[Any]]  # (cases, config, policy, frontend) -> results


def run_experiments(
    subject: Any,
    target: Any,
    config: CompilerConfig | None = None,
    *,
    baseline: Baseline | None = None,
    limit: int = MAX_EXPERIMENTS,
    policy: Policy | None = None,
    evaluate: Evaluate | None = None,
    cannot_run: Callable[[str], str | None] | None = None,
    log: Callable[[str], None] | None = None,
) -> ExperimentTable:
    """Run the experiments of ``subject`` (a graph ``Case`` or a raw program's ``ProgramCase``) about ``target``
    (a ``shrink.target.Target`` or a cause id): at most ``limit`` variants beside the as-given program, batched in
    one module per configuration where the oracle allows it (memory and fusion are judged one module each: IREE
    shares identical dispatches across functions). ``evaluate`` defaults to ``core.evaluate.evaluate``;
    ``cannot_run`` (a CPU -> why this machine cannot run its code, or None) to ``sut.config_space.cannot_run``. A
    variant whose code cannot run here is compiled only (``evaluate`` decides it the same way); for a target seen
    only by running, it is not compiled at all."""
    from ireefuzz import sut
    from ireefuzz.core import evaluate as ev
    from ireefuzz.core.frontends import MLIR
    from ireefuzz.generators.case import Case
    from ireefuzz.sut import config_space, isolated
    from ireefuzz.tools.shrink.target import Target

    started = time.perf_counter()
    config = config if config is not None else sut.CompilerConfig()
    goal: Target = target if isinstance(target, Target) else Target.by_cause(str(target))
    baseline = baseline if baseline is not None else _shipped_baseline()
    evaluate = evaluate or ev.evaluate
    mine = sut.config_for(subject, config)
    cannot_run = cannot_run or (lambda cpu: config_space.cannot_run(dataclasses.replace(mine, target_cpu=cpu)))
    if policy is None:  # the target's oracle and every oracle that runs the program: a variant is "clean" only
        # when its numbers, its inputs and its run are right too (the drop of a compile error's consumer may compile
        # into a known miscompile); memory and fusion only for their own targets (read one module each)
        run_oracles = {name for name in ev.ORACLE_NAMES if not spec_of(name).reads_dispatches}
        oracles = ({goal.oracle or "", *run_oracles} & set(ev.ORACLE_NAMES)) or set(ev.ORACLE_NAMES)
        policy = ev.Policy(
            oracles=frozenset(oracles), jax="on-disagreement", run_timeout_s=isolated.DEFAULT_RUN_TIMEOUT_S
        )
    graph = isinstance(subject, Case)
    kinds = graph_experiments(subject, cannot_run) if graph else program_experiments(subject, cannot_run)
    kinds.append(list(policy_experiments(subject, goal.oracle or "")))
    limits = baseline.missing_features()
    with_flags = lambda flags: config_space.cannot_run(dataclasses.replace(mine, flags=flags))
    have = config_space.features_of(mine) if limits else None
    kinds.append(list(feature_experiments(subject, have, limits, with_flags)))
    picked, left = chosen(kinds, limit, _identity)
    experiments = [Experiment(AS_GIVEN, "the program as given (shrunk, where it was)", subject), *picked]
    cause = goal.value if goal.kind == "cause" else ""
    frontend = ev.LINALG if graph else MLIR
    results: dict[int, Any] = {}
    groups: dict[int | None, list[int]] = collections.defaultdict(list)
    for i, e in enumerate(experiments):
        if e.not_run and needs_run(cause or goal.value):
            results[i] = f"{e.not_run}: compiled only"
        else:  # memory and fusion: one module each (IREE shares identical dispatches across a module's functions)
            groups[i if goal.oracle is not None and spec_of(goal.oracle).reads_dispatches else None].append(i)
    for indices in groups.values():
        if log:
            log(f"experiments: {', '.join(experiments[i].label for i in indices)}")
        evaluated = evaluate([experiments[i].case for i in indices], config, policy, frontend)
        results.update(zip(indices, evaluated))
    known: dict[str, str] = {}
    rows = [_row(e, results[i], goal, baseline, known) for i, e in enumerate(experiments)]
    given = results[0]
    beside = _beside(given, goal, known) if not isinstance(given, str) else ()
    hit = goal.hit(given.findings) if not isinstance(given, str) else None
    nearest = nearest_known(cause, [hit.signature] if hit else [], baseline) if cause else None
    mechanisms = {k: baseline.known_mechanism(k) for k in set(known.values())}
    culprits = {k: m.family for k, m in mechanisms.items() if m is not None and m.family}
    tried = {e.label.removeprefix(FEATURE_LABEL) for e in picked if e.label.startswith(FEATURE_LABEL)}
    features = {f: k for f, k in limits.items() if f in tried}
    seconds = time.perf_counter() - started
    target_id = cause or goal.value
    return ExperimentTable(
        target_id,
        tuple(rows),
        known,
        beside,
        nearest,
        tuple(left),
        seconds,
        culprits,
        features,
        cures=baseline.cures(),
        localized=localized_mechanisms(baseline),
        families=culprit_families(baseline),
    )


def _row(e: Experiment, result: Any, target: Any, baseline: Baseline, known: dict[str, str]) -> Row:
    """The outcome of one variant (``known`` gathers the known cause of every cause seen)."""
    if isinstance(result, str):
        return Row(e.label, e.change, Outcome("not-judged", result))
    findings = list(result.findings)
    causes = tuple(dict.fromkeys(target.cause_of(f) for f in findings))
    for f in findings:
        k = known_cause(baseline, f, target.cause_of(f))
        if k:
            known[target.cause_of(f)] = k
    seconds = float(getattr(result, "compile_seconds", 0.0) or 0.0) + float(getattr(result, "run_seconds", 0.0) or 0.0)
    row = lambda outcome: Row(e.label, e.change, outcome, causes, seconds)
    aim = target.value if target.kind == "cause" else target.oracle or ""
    if target(findings) or (e.drops_op and any(_fewer_ops(c, aim) for c in causes)):
        return row(Outcome("same"))
    ours = [c for c in causes if family(c) == family(aim)] or list(causes)
    if ours:  # the target's own mechanism first, a known cause before another
        c = min(ours, key=lambda c: (mechanism(c) != mechanism(aim), c not in known, ours.index(c)))
        return row(Outcome("known", known[c]) if c in known else Outcome("other", c))
    # discarded: outside the frontend (never compiled), or ill-conditioned numbers, which a target judged on the
    # compile alone (fusion, memory) does not read
    compiled = bool(getattr(result, "compiler_version", ""))
    if getattr(result, "discarded", 0) and (needs_run(aim) or not compiled):
        return row(Outcome("not-judged", "outside the frontend (the variant was discarded)"))
    gap = _judging_gap(target, tuple(getattr(result, "not_judged", ())))
    return row(Outcome("not-judged", gap) if gap else Outcome("clean"))


def _fewer_ops(cause: str, target: str) -> bool:
    """``cause`` is ``target`` (an oracle/kind/ops id) with some ops of its cone left out, none added: the same
    failure of a program with one op read from an argument instead (``drops_op``)."""
    (mine, _, ops), (theirs, _, full) = cause.rpartition("/"), target.rpartition("/")
    if mine != theirs or not mine:
        return False
    rest = iter(full.split(">"))
    return 0 < len(ops.split(">")) < len(full.split(">")) and all(op in rest for op in ops.split(">"))


def _judging_gap(target: Any, reasons: Sequence[str]) -> str:
    """The reason the target's oracle did not judge a variant, or "" (another oracle's reasons do not count; for
    a target seen only by running, every reason that is no other oracle's does)."""
    from ireefuzz.oracles.finding import ORACLES

    oracle = target.oracle or ""
    runtime = needs_run(target.value if target.kind == "cause" else oracle)
    for reason in reasons:
        named = reason.split(":", 1)[0].strip()
        if named in ORACLES:
            if named == oracle:
                return reason
            continue
        if reason.startswith("every oracle") or runtime:
            return reason
    return ""


def _beside(result: Any, target: Any, known: Mapping[str, str]) -> tuple[str, ...]:
    """The known causes of the target's mechanism family the as-given program shows in the target's own
    dispatch (or where either names none)."""
    findings = list(result.findings)
    hit = target.hit(findings)
    if hit is None:
        return ()
    own = target.cause_of(hit)
    where = hit.evidence.get("dispatch")
    out: dict[str, None] = {}
    for f in findings:
        cause = target.cause_of(f)
        if cause == own or cause not in known or family(cause) != family(own):
            continue
        if where is None or f.evidence.get("dispatch") in (None, where):
            out[known[cause]] = None
    return tuple(out)


def _shipped_baseline() -> Baseline:
    from ireefuzz.tools.baseline import baseline_path, load

    return load(baseline_path(None))


# --------------------------------------------------------------------------- records: finding.json, ISSUE.md


def record(table: ExperimentTable) -> dict[str, Any]:
    """What a bundle's ``finding.json`` keeps under ``experiments``: the table and its verdict."""
    return table.to_json() | {"verdict": judge(table).to_json()}


def with_culprit(tried: Mapping[str, Any] | None, culprit: str | None) -> Mapping[str, Any] | None:
    """The experiments' record judged again once the target's culprit pass is localized: a wrong value's id names
    no pass, so only then can a variant in another oracle's known bug of the same pass make it that bug's duplicate
    (the unit-dim folding's pooling, whose static form is the known verifier error)."""
    if not tried or not culprit:
        return tried
    return record(dataclasses.replace(ExperimentTable.from_json(tried), culprit=culprit))


def _bundle_record(folder: str | Path) -> dict[str, Any]:
    """The bundle's ``finding.json`` in ``folder`` ({} without a readable one)."""
    try:
        found = json.loads((Path(folder) / "finding.json").read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    return found if isinstance(found, dict) else {}


def read(folder: str | Path) -> dict[str, Any] | None:
    """The ``experiments`` record of the bundle in ``folder`` (None without one)."""
    value = _bundle_record(folder).get("experiments")
    return value if isinstance(value, dict) and isinstance(value.get("verdict"), dict) else None


def lost_alone(folder: str | Path) -> bool:
    """The bundle in ``folder`` says its cause did not reproduce alone (``status`` lost: 0 of its confirming runs):
    not confirmed, listed and never red (a batched module's artefact or a flaky one, nothing to file as is)."""
    return _bundle_record(folder).get("status") == "lost"


def duplicates(bundles: Mapping[str, Path]) -> dict[str, Known]:
    """A ``duplicate-of`` baseline entry (note ``by experiment: ...``) for each cause whose bundle (``bundles``: cause
    -> folder) the experiments judged a known cause's duplicate; the campaign counts those causes as known."""
    found = {}
    for cause, folder in bundles.items():
        tried = read(folder)
        verdict = Verdict.from_json(tried["verdict"]) if tried else None
        if verdict is not None and verdict.verdict == "duplicate-of" and verdict.target == cause and verdict.of:
            found[cause] = Known(cause, "duplicate-of", of=verdict.of, note=f"by experiment: {verdict.by}")
    return found


def section_lines(found: Mapping[str, Any], heading: str = "##") -> list[str]:
    """Markdown: the experiments table, the trigger, the nearest known cause and the verdict (ISSUE.md, the
    campaign's summary.md), from a ``record``."""
    table = ExperimentTable.from_json(found)
    verdict = Verdict.from_json(found.get("verdict") or {})
    cell = lambda text: str(text).replace("|", "\\|").replace("\n", " ")
    lines = [
        f"{heading} Experiments",
        "",
        f"Each variant changes one thing of the program and is compiled (and run) again ({len(table.rows) - 1} "
        f"variants, {table.seconds:.0f} s); the outcome is the cause it shows: `same` (this one), `known:` / "
        "`other:` another, `clean`, or `not-judged:` why.",
        "",
        "| variant | what changed | outcome |",
        "|---|---|---|",
    ]
    lines += [f"| `{r.label}` | {cell(r.change)} | `{cell(r.outcome)}` |" for r in table.rows]
    if table.skipped:
        lines += ["", f"Not run: {'; '.join(table.skipped)}."]
    lines += ["", "**Trigger**:" if verdict.trigger else "**Trigger**: no variant makes the failure go away."]
    lines += [f"- {t}" for t in verdict.trigger]
    if verdict.verdict != "new":
        lines += ["", f"**Verdict**: {verdict.line()}."]
    else:
        near = f"`{verdict.nearest}`: {verdict.why_not_nearest}" if verdict.nearest else verdict.why_not_nearest
        lines += ["", f"**Nearest known cause**: {near}.", "", f"**Verdict**: {verdict.line()}."]
    return lines + [""]


def with_section(issue: str, found: Mapping[str, Any]) -> str:
    """``issue`` (an ISSUE.md) with the experiments section before its ``## Bisection`` (else at its end)."""
    section = "\n".join(section_lines(found)) + "\n"
    at = issue.find("## Bisection")
    return issue[:at] + section + issue[at:] if at >= 0 else issue.rstrip("\n") + "\n\n" + section


# --------------------------------------------------------------------------- ``ireefuzz check``'s triage


def for_check(
    finding: Any, case: ProgramCase, config: CompilerConfig | None, limit: int | None = None
) -> check.Triaged:
    """``check``'s verdict on the cause of ``finding`` (of the raw program's function ``case``): known when the
    shipped baseline holds it (reported by the cause it names: a ``duplicate-of`` entry's original), else judged by
    up to ``limit`` IR-level experiments on the program as checked (``judge``): a duplicate is reported as the known
    cause it lands in. ``limit`` 0 runs none: the cause is new, untried."""
    from ireefuzz.tools.shrink.target import Target, cause_id

    baseline = _shipped_baseline()
    cause = cause_id(finding)
    entry = baseline.finding_known(finding.signature, cause)
    if entry is not None:
        name = entry.of if entry.verdict == "duplicate-of" and entry.of else entry.cause or cause
        return check.Triaged(cause, name, "known", f"the baseline: {entry.verdict}")
    if limit == 0:
        return check.Triaged(cause, cause, "new", "no experiments run (--experiments 0)")
    goal = Target.by_cause(cause, finding.oracle)
    table = run_experiments(case, goal, config, baseline=baseline, limit=MAX_EXPERIMENTS if limit is None else limit)
    found, verdict = record(table), judge(table)
    kind: check.TriageVerdict = "new" if verdict.verdict == "new" else "duplicate-of"
    why = "it survived its experiments" if kind == "new" else f"duplicate-of, by experiment: {verdict.by}"
    return check.Triaged(cause, verdict.of or cause, kind, why, tuple(section_lines(found, "###")), found)
