"""Running the experiments: ``run_experiments`` picks the variants (``chosen``, at most ``MAX_EXPERIMENTS``),
compiles and runs them through ``core.evaluate`` and records an ``Outcome`` per variant in an ``ExperimentTable``;
``for_check`` is ``ireefuzz check``'s triage on it."""

from __future__ import annotations

import collections
import dataclasses
import time
from typing import TYPE_CHECKING, Any, Callable, Mapping, Sequence

from ireefuzz.oracles.registry import spec_of
from ireefuzz.tools import check
from ireefuzz.tools.baseline import Baseline

from .compiler_variants import backend_experiments, feature_experiments, policy_experiments
from .cut import cut_experiments, repro_of
from .graph_variants import graph_experiments
from .program_variants import program_experiments
from .records import record, section_lines
from .table import ALONE, AS_GIVEN, FEATURE_LABEL, Experiment, ExperimentTable, Outcome, Row, failed_alone
from .twins import twin_experiments
from .verdict import (
    culprit_families,
    family,
    judge,
    known_cause,
    localized_mechanisms,
    mechanism,
    nearest_known,
    needs_run,
)

if TYPE_CHECKING:
    from ireefuzz.core.frontends import ProgramCase
    from ireefuzz.core.policy import Policy
    from ireefuzz.sut import CompilerConfig

MAX_EXPERIMENTS = 14  # variants per candidate (each one iree-compile, ~1-3 s), beside the as-given one (stop 46: 12
# left the second CPU out once a producer read from an argument, the shift and the ukernels policy came in)


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
    from ireefuzz.tools.shrink.graph import relations_of
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
            oracles=frozenset(oracles),
            jax="on-disagreement",
            run_timeout_s=isolated.DEFAULT_RUN_TIMEOUT_S,
            **relations_of(goal.value),
        )
    graph = isinstance(subject, Case)
    kinds = graph_experiments(subject, cannot_run) if graph else program_experiments(subject, cannot_run)
    # a raw program too: each op alone at its operands' values, a kind each (each gets a first-round slot)
    kinds.extend([e] for e in cut_experiments(subject, goal))
    kinds.append(list(twin_experiments(subject)))  # a raw program even for a graph case: run with MLIR below
    kinds.append(list(policy_experiments(subject, goal.oracle or "", sut.toolchain_of(mine).known_flags)))
    kinds.append(list(backend_experiments(subject, goal.oracle or "")))
    limits = baseline.missing_features()
    with_flags = lambda flags: config_space.cannot_run(dataclasses.replace(mine, flags=flags))
    have = config_space.features_of(mine) if limits else None
    kinds.append(list(feature_experiments(subject, have, limits, with_flags)))
    picked, left = chosen(kinds, limit, _identity)
    experiments = [Experiment(AS_GIVEN, "the program as given (shrunk, where it was)", subject), *picked]
    cause = goal.value if goal.kind == "cause" else ""
    frontend_of = lambda case: ev.LINALG if isinstance(case, Case) else MLIR
    results: dict[int, Any] = {}
    groups: dict[tuple[Any, int | None], list[int]] = collections.defaultdict(list)
    # memory and fusion: one module each (IREE shares identical dispatches across a module's functions)
    alone = goal.oracle is not None and spec_of(goal.oracle).reads_dispatches
    for i, e in enumerate(experiments):
        if e.not_run and needs_run(cause or goal.value):
            results[i] = f"{e.not_run}: compiled only"
        else:
            groups[frontend_of(e.case), i if alone else None].append(i)
    for (frontend, _), indices in groups.items():
        if log:
            log(f"experiments: {', '.join(experiments[i].label for i in indices)}")
        evaluated = evaluate([experiments[i].case for i in indices], config, policy, frontend)
        results.update(zip(indices, evaluated))
    known: dict[str, str] = {}
    rows = [_row(e, results[i], goal, baseline, known) for i, e in enumerate(experiments)]
    failed = failed_alone(rows)
    failed_case = next((e.case for e in experiments if failed is not None and e.label == failed.label), None)
    op_alone = repro_of(failed_case, mine.target_cpu, mine.flags) if failed_case is not None else {}
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
        alone=op_alone,
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
    fewer = [c for c in causes if e.drops_op and _fewer_ops(c, aim)]
    if e.label.endswith(ALONE) and any(c in known for c in fewer):  # the op alone is a known bug: this one is it
        return row(Outcome("known", known[next(c for c in fewer if c in known)]))
    if target(findings) or fewer:
        return row(Outcome("same"))
    # the target's own mechanism; else a failure that kept its oracle from judging (a compile error, a crash): another
    # oracle's finding beside a judged variant is no outcome for the target (stop 48: a shift's known cure showed
    # the #16168 argument write of a matmul beside right values, and was taken for a variant landing in #16168)
    ours = [c for c in causes if family(c) == family(aim)] or [c for c in causes if _precludes(c, aim)]
    if ours:  # the target's own mechanism first, a known cause before another
        c = min(ours, key=lambda c: (mechanism(c) != mechanism(aim), c not in known, ours.index(c)))
        return row(Outcome("known", known[c]) if c in known else Outcome("other", c))
    # discarded: outside the frontend (never compiled), or ill-conditioned numbers, which a target judged on the
    # compile alone (fusion, memory) does not read
    compiled = bool(getattr(result, "compiler_version", ""))
    if getattr(result, "discarded", 0) and (needs_run(aim) or not compiled):
        return row(Outcome("not-judged", "outside the frontend (the variant was discarded)"))
    gap = _judging_gap(target, tuple(getattr(result, "not_judged", ())))
    if not gap and e.other_values and aim.startswith("numeric/"):  # round 41's asinh: rank 0 kept a positive input
        gap = "it computes on a part of the program's values, and a wrong value depends on which"
    return row(Outcome("not-judged", gap) if gap else Outcome("clean"))


def _precludes(cause: str, target: str) -> bool:
    """Whether a variant failing as ``cause`` leaves the oracle of ``target`` nothing to judge: a crash (no module, or
    no run) for a target of another oracle."""
    return cause.startswith("crash/") and not target.startswith("crash/")


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
        by_design = baseline.by_design(name)
        return check.Triaged(cause, name, "known", f"the baseline: {entry.verdict}", by_design=by_design)
    if limit == 0:
        return check.Triaged(cause, cause, "new", "no experiments run (--experiments 0)")
    goal = Target.by_cause(cause, finding.oracle)
    table = run_experiments(case, goal, config, baseline=baseline, limit=MAX_EXPERIMENTS if limit is None else limit)
    found, verdict = record(table), judge(table)
    kind: check.TriageVerdict = "new" if verdict.verdict == "new" else "duplicate-of"
    why = "it survived its experiments" if kind == "new" else f"duplicate-of, by experiment: {verdict.by}"
    by_design = baseline.by_design(verdict.of) if kind != "new" else ""
    return check.Triaged(
        cause, verdict.of or cause, kind, why, tuple(section_lines(found, "###")), found, by_design=by_design
    )
