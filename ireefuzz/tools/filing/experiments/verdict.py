"""The verdict, a pure function of an ``ExperimentTable`` (``judge``: duplicate-of, the trigger, the nearest known
cause), what it reads of a cause id (oracle family, mechanism, failure stage, culprit pass family), and the nearness
of causes by features (``nearest_known``; the campaign's ranking measures with it too)."""

from __future__ import annotations

import collections
from typing import Any, Iterable, Mapping, Sequence

from ireefuzz.oracles.finding import Signature
from ireefuzz.oracles.registry import SPECS, spec_of
from ireefuzz.oracles.spec import WRONG_VALUE
from ireefuzz.tools.baseline import Baseline, another_check

from .table import AS_GIVEN, COMPUTED_OPERAND, EDGE_UP, FEATURE_LABEL, ExperimentTable, Row, Verdict, degenerate_cures


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
    defect = spec.defect(kind) if spec is not None else kind
    if defect == WRONG_VALUE:  # a relation's outputs disagreeing: one side's wrong value, numeric's mechanism
        return family("numeric"), ""
    return family(cause), defect


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


def gone(row: Row, target: str) -> bool:
    """Whether variant ``row`` is free of the target's defect: it is clean, or the target is read from the compiled
    program (a fusion or memory defect) and all it shows are known failures seen by running it. Stop 47: aggressive
    fusion fused an iota into an attention (fusion's by-design cure) whose dynamic head dim then gave the known
    wrong value, and the iota's unfused dispatch was called a defect of its own."""
    if row.outcome.kind == "clean":
        return True
    return (
        row.outcome.kind == "known"
        and target not in row.causes
        and not needs_run(target)
        and bool(row.causes)
        and all(needs_run(c) for c in row.causes)
    )


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
    for r in (r for r in variants if gone(r, table.target) and r.label not in degenerate and not landed):
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
    moved = [  # an argument written where an update of the argument fails: the failure moves with the operand
        r
        for r in variants
        if family(table.target) == "immutability" and r.label.endswith(COMPUTED_OPERAND) and r.outcome.kind == "known"
    ]
    if moved and not landed:
        of, label = moved[0].outcome.cause, moved[0].label
        how = f"{label}: with the operand computed, not the argument, it fails as that cause (where it wrote)"
        return Verdict("duplicate-of", table.target, of, how, trigger, of)
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
    what earlier passes made (``vocabulary.reports_only``: no evidence of a mechanism by itself)."""
    from ireefuzz.oracles import vocabulary

    family = pass_culprit_family(culprit) if not vocabulary.reports_only(oracle, culprit) else ""
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
    same = sorted(
        k for k, key in table.localized.items() if mine and key == mine and not another_check(table.target, k)
    )
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
