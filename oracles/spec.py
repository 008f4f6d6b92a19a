"""An oracle is a registered record: ``OracleSpec``, registered by its judge module the way ``generators.ops``
registers ops.

Everything the rest of ireefuzz needs to know about an oracle is a field here, so nothing outside the registry
branches on an oracle's name: the pipeline asks ``reads_run`` (does it need the module run?), the causes call
``cause`` and ``consequence``, the campaign's ranking reads ``weight``, the corpus and the plugin ``switch`` (the
``--oracles`` choice that runs it), and filing reads ``reproduce`` (how ``run.sh`` and the generated tests show
the bug), ``culprit`` (how the pass at fault is localized) and the ``ISSUE.md`` prose.

A judge module registers its specs on import (``register``); ``oracles.registry`` imports every judge module, so
``registry.SPECS`` holds them all (``tests/test_registry.py`` fails for an oracle without a cause rule or a
reproduce body). L1: stdlib and ``finding`` only.
"""

from __future__ import annotations

import dataclasses
from typing import TYPE_CHECKING, Any, Callable, Literal, Mapping, Sequence, get_args

from .finding import Cause, Finding, OracleName

if TYPE_CHECKING:
    from ireefuzz.generators.graph import Graph

# How a bundle shows the bug: the body of its run.sh and the kind of its generated tests.
Reproduce = Literal[
    "compile-error",  # iree-compile fails with the bug's own diagnostic
    "memory-ops",  # the dispatch's IR (printed before the observation pass) holds the memory op
    "dispatches",  # the program's dispatches show the producer materialized
    "run-fault",  # iree-run-module fails
    "inputs-after",  # an argument holds other values after the call
    "outputs",  # an output differs from the reference beyond the tolerance
]
# How the pass at fault is localized (``tools.filing.culprit``).
CulpritMethod = Literal["compile-error", "memory-op", "wrong-value", "none"]
# Who a finding says is wrong: IREE, or the reference it was compared with (JAX).
Blames = Literal["iree", "reference"]
# ``consequence(index, findings, causes)``: the index of the finding in the same case that ``findings[index]``
# follows from (a wrong value read from a mutated argument, a copy of an alloca that is itself a finding), or None.
Consequence = Callable[[int, Sequence[Finding], Sequence[Cause]], "int | None"]


# When the pipeline calls a judge (``OracleSpec.judges``): the case's batch failed to compile and cannot be split;
# it compiled (its dispatches' IR is read); one shape instance's run failed; one ran (its outputs, its inputs after).
Stage = Literal["compile-failed", "compiled", "run-failed", "ran"]
STAGES: tuple[Stage, ...] = get_args(Stage)
# The defect (``OracleSpec.defect``) of an argument the call wrote in place: what a wrong value read from it follows
# from. The memory oracle's are its families (``diagnostics.MEMORY_FAMILIES``): "alloca", "alloc", "copy".
WRITTEN_ARGUMENT = "written-argument"
# A defect that is a wrong value whichever oracle saw it (a relation's variants disagreeing: one side is wrong), so a
# variant's known wrong value is the same mechanism (the experiments' ``verdict.mechanism``).
WRONG_VALUE = "wrong-value"


@dataclasses.dataclass(frozen=True)
class Verdict:
    """What a judge found in one ``Evaluation``: its findings, the disagreements it discarded (ill-conditioned) and
    why it did not judge (never a finding)."""

    findings: tuple[Finding, ...] = ()
    discarded: int = 0
    not_judged: tuple[str, ...] = ()


def _no_finding() -> Finding:
    raise ValueError("this stage has no failed compile")


def _no_findings() -> Sequence[Finding]:
    return ()


def _no_verdict() -> Verdict:
    return Verdict()


@dataclasses.dataclass(frozen=True)
class Evaluation:
    """What a judge reads of one case at one ``Stage``, as plain values (the pipeline, L4, fills in what the stage
    has; the rest keep their defaults). What the case's frontend judges its own way (a failed compile located in its
    program, a raw program's inputs and numbers) comes as a thunk."""

    stage: Stage
    function: str = ""
    graph: Graph | None = None  # None for a raw program
    dispatches: Sequence[Any] = ()  # its function's ``sut.DispatchIR`` (compiled)
    statistics: Mapping[str, Any] | None = None  # the compile's, when the module holds this case alone (compiled)
    sizes: Mapping[str, int] = dataclasses.field(default_factory=dict)  # this shape instance's (run-failed, ran)
    run_failure: Any = None  # the ``sut.RunFailure`` (run-failed)
    max_static_alloca_bytes: int = 0  # the policy's
    undefined: str | None = None  # why its values are undefined (iree-compile warns it reads uninitialized values)
    compile_failure: Callable[[], Finding] = _no_finding  # the frontend's finding for the failed compile
    mutated_inputs: Callable[[], Sequence[Finding]] = _no_findings  # the frontend's immutability judgement (ran)
    numbers: Callable[[], Verdict] = _no_verdict  # the frontend's numeric judgement (ran)


Judge = Callable[[Evaluation], Verdict]


def _everything(kind: str) -> bool:
    return True


def _nothing(kind: str) -> bool:
    return False


@dataclasses.dataclass(frozen=True)
class OracleSpec:
    name: OracleName
    cause: Callable[[Finding], Cause]  # its cause rule: what one upstream issue would cover
    reproduce: Callable[[str], Reproduce]  # by the finding's kind
    weight: float  # ranking prior: 1.0 a bug by itself (a crash, a wrong value) ... 0.35 a symptom of one
    # ISSUE.md's "what happened" and "what was expected", in words; ``title`` its heading. Filled in: ``{kind}``,
    # ``{message}``, ``{dispatch}``, ``{pipeline}``, ``{argument}``, ``{reference}`` (who gave the expected values),
    # and in the title ``{ops}`` and ``{type}``.
    happened: str
    expected: str
    title: str = "[CPU] {oracle} {kind}: `{ops}` ({type})"
    switch: OracleName | None = None  # the --oracles choice that runs it (None: its own name)
    reads_run: Callable[[str], bool] = _everything  # by kind: judged on the module's run (else on the compile)
    culprit: Callable[[str], CulpritMethod] = lambda kind: "none"
    consequence: Consequence | None = None
    absent: Callable[[str], str] = lambda kind: "the failure goes away"  # the bug gone, in words (a trigger's end)
    # The kind of defect a kind is, for "the same mechanism" between a finding and a variant's (an alloca and an
    # alloca-in-loop are both a stack buffer; every wrong value is one): "" = any kind of this oracle.
    defect: Callable[[str], str] = lambda kind: kind
    blames: Blames = "iree"
    # Judges each dispatch's IR: IREE shares identical dispatches across a module's functions and lists them under
    # the first, so the candidates of a shrink or an experiment need a module each.
    reads_dispatches: bool = False
    reads_flow_ties: bool = False  # the pipeline reads which dispatches IREE tied to an argument (``tied_to``)
    # (label, flag): a compiler policy an engineer flips on this oracle's target, one compile each (the experiments'
    # ``policy_experiments``): a target the flag removes is that policy's default choice (a baseline ``cured_by``)
    policies: tuple[tuple[str, str], ...] = ()
    # What it judges at each stage of a case (none: the pipeline never calls it, e.g. the reference's findings come
    # from numeric's judge). Run when ``switched_by`` is among the policy's oracles; an IRParseError it raises makes
    # it not judge the case.
    judges: Mapping[Stage, Judge] = dataclasses.field(default_factory=dict)
    reads_expected: bool = False  # compares the outputs with the expected outputs a raw program's user gives

    @property
    def switched_by(self) -> OracleName:
        return self.switch or self.name

    def compile_only(self, kind: str) -> bool:
        """A finding of this kind reproduces from the compile alone (its bundle need not run the module)."""
        return not self.reads_run(kind)


SPECS: dict[str, OracleSpec] = {}
ORACLE_NAMES_ALL: tuple[OracleName, ...] = get_args(OracleName)


def register(spec: OracleSpec) -> OracleSpec:
    if spec.name in SPECS:
        raise ValueError(f"oracle {spec.name!r} registered twice")
    SPECS[spec.name] = spec
    return spec


def defect_of(finding: Finding) -> str:
    """The defect ``finding`` is, by its oracle's record (``OracleSpec.defect``): what another oracle's consequence
    rule reads (a stack buffer, a written argument), never the oracle's name; "" for an oracle none registered."""
    spec = SPECS.get(finding.oracle)
    return spec.defect(finding.kind) if spec is not None else ""


def spec_of_registered(name: str) -> OracleSpec:
    """The spec registered under ``name`` (KeyError if none is): for a judge whose rule defers to another's."""
    return SPECS[name]


def unregister(name: str) -> None:
    """Remove a registered spec (tests that register an oracle of their own)."""
    SPECS.pop(name, None)


def by_kind(table: Mapping[str, Reproduce], default: Reproduce) -> Callable[[str], Reproduce]:
    """A ``reproduce`` rule from kind prefixes (``{"compile-": "compile-error"}``), else ``default``."""
    return lambda kind: next((v for prefix, v in table.items() if kind.startswith(prefix)), default)


def reads_run_unless(*prefixes: str) -> Callable[[str], bool]:
    """A ``reads_run`` rule: every kind but those starting with one of ``prefixes``."""
    return lambda kind: not kind.startswith(prefixes)


never_runs = _nothing
