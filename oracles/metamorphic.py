"""Metamorphic oracle: observations of variants of one program that must agree, compared in one place.

There is no reference for "how much memory should this take", but there are programs that must
behave alike. ``ireefuzz.core.relations`` builds the variants of one case for each relation
(``RELATIONS``), compiles and runs them, and observes each as an ``Observation`` (outputs per
shape instance + ``memory.profile``); this module judges those observations and reports, as
``metamorphic`` findings:

* ``output-mismatch``: two variants that compute the same function at the same concrete shapes
  disagree beyond ``oracles.numeric.tolerance`` (integers exactly; NaN/Inf parity as the numeric
  oracle has it);
* ``alloca-asymmetry`` / ``alloc-asymmetry`` / ``copy-asymmetry``: a kind of memory op present in
  one variant's profile and absent from the reference's -- the first seed's "vectorized vs not
  vectorized" asymmetry (iree-org/iree#8303: 32x16x48 has no alloca, 33x16x49 has three);
* ``variant-failed``: one variant compiles/runs and another does not.

The relations whose variants lower differently by design (``LOWERING``: another target CPU, vector width or
backend) are IREE against IREE: numbers and failures are compared, memory profiles are not. The ``backend``
relation (``ARBITRATED``) asks another IREE backend (vmvx) for an opinion, and the float64 arbiter
(``numeric.far_from_float64``, the numeric oracle's rule) says who is wrong (``VERDICTS``): the as-given side
alone (``wrong-in-codegen``: llvm-cpu's codegen, after dispatch formation), the other alone
(``wrong-in-other-backend``), both alike (``wrong-before-dispatch-formation``: what the two backends share), or
both differently (``wrong-in-both-backends``). A disagreement the arbiter explains is no finding; so is the
opinion's own failure (it is not the system under test: the relation reports it not judged).

Signatures: ``metamorphic/<kind>/<ops>[<relation>:<variant label>]/<dtype>/<dims>``, where the
label names the variant that deviates from the reference (labels are size-free).
"""

from __future__ import annotations

import dataclasses
import math
import re
from typing import Any, Mapping, Sequence

import numpy as np

from ireefuzz.generators.graph import Graph

from . import numeric
from .diagnostics import _signature_ops, _words, ops_role
from .finding import Cause, Finding, first_per_signature, make_signature
from .finding import make_cause as _cause
from .spec import WRONG_VALUE, OracleSpec, defect_of, register, spec_of_registered

RELATIONS = ("shape", "dps", "config", "vector-width", "backend")  # built and observed by ireefuzz.core.relations
LOWERING = frozenset({"config", "vector-width", "backend"})  # variants lower differently: profiles not compared
ARBITRATED = frozenset({"backend"})  # another backend's opinion, judged against float64


def relations_for(target: str) -> tuple[str, ...]:
    """The relations a re-run must run (on every case) to see ``target``, a metamorphic cause id or signature: the
    one it names (``...[shape:dynamic]``), else all; none for another oracle's. Stop 46: a repro ran none, so a
    relation's finding never reproduced and was listed "not reproduced" (the attention head-dim bug, twice)."""
    if not target.startswith("metamorphic/"):
        return ()
    named = re.findall(r"\[([\w-]+):", target)
    return tuple(r for r in named if r in RELATIONS)[:1] or RELATIONS


# (the as-given side wrong, the other wrong, the two alike when both are) -> kind, and where that puts the bug
VERDICTS = {
    (True, False, False): ("wrong-in-codegen", "{ref} wrong, {other} right: a codegen bug (after dispatch formation)"),
    (False, True, False): ("wrong-in-other-backend", "{other} wrong, {ref} right: a bug of {other}'s codegen"),
    (True, True, True): ("wrong-before-dispatch-formation", "both wrong, alike: before dispatch formation"),
    (True, True, False): ("wrong-in-both-backends", "both wrong, differently: in each backend's codegen"),
}
Float64 = Sequence[tuple[Sequence[np.ndarray], Sequence[np.ndarray]]]  # per shape instance: (outputs, error bounds)
# memory.profile kinds grouped into the families an asymmetry is reported for
FAMILIES = {"alloca": ("alloca", "alloca-dynamic", "alloca-in-loop"), "alloc": ("alloc",), "copy": ("copy",)}
# IREE vs IREE has no float64 arbiter to widen the tolerance where cancellation makes it
# ill-conditioned, so errors are also measured against this fraction of the output's magnitude.
CANCELLATION_FLOOR = 2.0**-6


@dataclasses.dataclass(frozen=True)
class Observation:
    """What one variant did. ``outputs`` is per shape instance (None = not run); ``profile`` is
    ``memory.profile`` of its dispatches (None = not compiled); ``failure`` says why not."""

    label: str
    outputs: tuple[tuple[np.ndarray, ...], ...] | None = None
    profile: Mapping[str, int] | None = None
    failure: str = ""
    sites: Mapping[str, Sequence[Mapping[str, str]]] | None = None  # memory.sites: which dispatches carry each family
    compile_failure: Any = None  # the ``sut.CompileFailure`` behind a failure to compile (its crash finding's source)

    def __repr__(self) -> str:
        return f"Observation({self.label}: profile={dict(self.profile or {})}, failure={self.failure[:60]!r})"


# --------------------------------------------------------------------------- comparison (the one place)


def compare(
    relation: str,
    reference: Observation,
    other: Observation,
    *,
    ops: str,
    dtype: str,
    dims: str,
    rtols: Sequence[float] = (),
    numbers: bool = True,
    profiles: bool = True,
) -> list[Finding]:
    """Findings for ``other`` deviating from ``reference``. ``rtols`` is the relative tolerance per
    shape instance (missing entries use the last one, or the f32 default)."""

    def finding(kind: str, message: str, **evidence: Any) -> Finding:
        label = other.label if kind != "variant-failed" or other.failure else reference.label
        return _finding(relation, kind, label, reference, other, (ops, dtype, dims), message, evidence)

    if reference.failure or other.failure:
        if bool(reference.failure) != bool(other.failure):
            failed = other if other.failure else reference
            ok = reference if other.failure else other
            return [
                finding(
                    "variant-failed",
                    f"variant {failed.label} failed where {ok.label} did not: {failed.failure[:300]}",
                    failure=failed.failure,
                )
            ]
        return []
    findings: list[Finding] = []
    if profiles and reference.profile is not None and other.profile is not None:
        for family, kinds in FAMILIES.items():
            ref_n = sum(reference.profile.get(k, 0) for k in kinds)
            oth_n = sum(other.profile.get(k, 0) for k in kinds)
            if (ref_n == 0) != (oth_n == 0):
                where = other.label if oth_n else reference.label
                carrier = other if oth_n else reference
                findings.append(
                    finding(
                        f"{family}-asymmetry",
                        f"{family} present only in {where}: {reference.label} has {ref_n}, {other.label} has {oth_n}",
                        profile_reference=dict(reference.profile),
                        profile_variant=dict(other.profile),
                        sites=list((carrier.sites or {}).get(family, [])),
                    )
                )
    if numbers and reference.outputs is not None and other.outputs is not None:
        for k, (ref_outs, oth_outs) in enumerate(zip(reference.outputs, other.outputs)):
            rtol = rtols[min(k, len(rtols) - 1)] if rtols else default_tolerance(dtype)
            mismatch = first_mismatch(ref_outs, oth_outs, rtol)
            if mismatch is not None:
                # the values under the variants' labels: "reference" / "variant" name the labels (the cause reads them)
                values = {reference.label: mismatch.pop("reference"), other.label: mismatch.pop("variant")}
                findings.append(
                    finding(
                        "output-mismatch",
                        f"{other.label} disagrees with {reference.label} at instance {k}, output {mismatch['output']}: "
                        f"{values[other.label]} vs {values[reference.label]} at {mismatch.get('index')}",
                        instance=k,
                        rtol=rtol,
                        values=values,
                        **mismatch,
                    )
                )
                break  # one per pair: the first instance that disagrees
    return findings


def _finding(
    relation: str,
    kind: str,
    label: str,
    reference: Observation,
    other: Observation,
    pattern: tuple[str, str, str],
    message: str,
    evidence: Mapping[str, Any],
) -> Finding:
    """A metamorphic finding on the pair (``label`` names the deviating variant; ``pattern`` is ops, dtype, dims)."""
    ops, dtype, dims = pattern
    return Finding(
        "metamorphic",
        kind,
        make_signature("metamorphic", kind, f"{ops}[{relation}:{label}]", dtype, dims),
        message,
        {"relation": relation, "reference": reference.label, "variant": other.label} | dict(evidence),
    )


def arbitrate(
    relation: str,
    reference: Observation,
    other: Observation,
    float64: Float64,
    *,
    output_dtypes: Sequence[str],
    pattern: tuple[str, str, str],
    rtols: Sequence[float] = (),
) -> list[Finding]:
    """Two backends' outputs, each against the float64 arbiter (``float64``: per shape instance, the outputs
    and their error bounds); the first instance and output where either side is wrong gives one finding, whose
    kind (``VERDICTS``) says which side, and so where the bug is. Sides both right are no finding, however far
    apart (the arbiter's bound explains it)."""
    if reference.outputs is None or other.outputs is None:
        return []
    for k, (ref_outs, oth_outs, (truths, bounds)) in enumerate(zip(reference.outputs, other.outputs, float64)):
        rtol = rtols[min(k, len(rtols) - 1)] if rtols else default_tolerance(pattern[1])
        for j, (dtype, truth, bound) in enumerate(zip(output_dtypes, truths, bounds)):
            if j >= min(len(ref_outs), len(oth_outs)):
                break  # a wrong count or shape is the numeric oracle's (wrong-shape)
            sides = (np.asarray(ref_outs[j]), np.asarray(oth_outs[j]))
            if any(x.shape != np.shape(truth) for x in sides):
                continue
            ref_far, oth_far = (numeric.far_from_float64(x, truth, bound, dtype, rtol) for x in sides)
            if not (ref_far.any() or oth_far.any()):
                continue
            alike = bool(ref_far.any() and oth_far.any()) and first_mismatch(sides[:1], sides[1:], rtol) is None
            kind, where = VERDICTS[(bool(ref_far.any()), bool(oth_far.any()), alike)]
            where = where.format(ref=reference.label, other=other.label)
            index = tuple(int(i) for i in np.argwhere(ref_far | oth_far)[0])
            values = {
                reference.label: numeric.plain_value(sides[0][index]),
                other.label: numeric.plain_value(sides[1][index]),
                "float64": numeric.plain_value(np.asarray(truth, dtype=np.float64)[index]),
            }
            shown = ", ".join(f"{name} {value}" for name, value in values.items())
            wrong = [label for label, far in ((reference.label, ref_far), (other.label, oth_far)) if far.any()]
            return [
                _finding(
                    relation,
                    kind,
                    other.label,
                    reference,
                    other,
                    pattern,
                    f"{where}; instance {k}, output {j} at {list(index)}: {shown}",
                    {
                        "instance": k,
                        "output": j,
                        "index": list(index),
                        "values": values,
                        "wrong": wrong,
                        "verdict": where,
                        "mismatches": {reference.label: int(ref_far.sum()), other.label: int(oth_far.sum())},
                        "elements": int(ref_far.size),
                        "rtol": rtol,
                    },
                )
            ]
    return []


def first_mismatch(reference: Sequence[np.ndarray], other: Sequence[np.ndarray], rtol: float) -> dict | None:
    """The first output where ``other`` is not within ``rtol`` of ``reference`` (None if all agree)."""
    if len(reference) != len(other):
        return {"output": -1, "reference": len(reference), "variant": len(other), "index": "output count"}
    for j, (a, b) in enumerate(zip(reference, other)):
        a, b = np.asarray(a), np.asarray(b)
        if a.shape != b.shape:
            return {"output": j, "reference": list(a.shape), "variant": list(b.shape), "index": "shape"}
        if a.dtype.kind == "f" or b.dtype.kind == "f":
            a64, b64 = a.astype(np.float64), b.astype(np.float64)
            finite = np.where(np.isfinite(a64), a64, 0)
            scale = float(np.max(np.abs(finite), initial=0.0))
            tol = rtol * (np.abs(finite) + CANCELLATION_FLOOR * scale) + 1e-30
            bad = ~numeric.agree(b64, a64, tol)
        else:
            bad = a.astype(np.int64) != b.astype(np.int64)
        if bad.any():
            index = tuple(int(i) for i in np.argwhere(bad)[0])
            return {
                "output": j,
                "index": list(index),
                "reference": numeric.plain_value(a[index]),
                "variant": numeric.plain_value(b[index]),
                "mismatches": int(np.count_nonzero(bad)),
                "elements": int(bad.size),
            }
    return None


def default_tolerance(dtype: str, accumulation: int = 1, depth: int = 8) -> float:
    """The numeric oracle's tolerance rule for a program without a graph (raw MLIR)."""
    eps = numeric.EPS.get(dtype, numeric.EPS["f32"])
    return numeric.ULPS_PER_OP * eps * (depth + math.sqrt(max(accumulation, 1)) * 2)


def compare_observations(
    relation: str,
    observations: Sequence[Observation],
    graph: Graph,
    *,
    numbers: Sequence[bool],
    rtols: Sequence[float] = (),
    float64: Float64 | None = None,
) -> list[Finding]:
    """Every variant's observation against the reference (the first): memory profiles (unless the relation
    is ``LOWERING``: its variants legitimately lower differently) and failures (not an ``ARBITRATED``
    opinion's own); and outputs against the first observation whose ``numbers`` flag is set, with ``rtols``
    per shape instance -- for an ``ARBITRATED`` relation given ``float64``, each side against the arbiter."""
    ops, dtype, dims = graph.op_pattern, graph.dtype, graph.dims
    reference = observations[0]
    number_ref = next((i for i, counts in enumerate(numbers) if counts), None)
    arbiter = float64 if relation in ARBITRATED else None
    output_dtypes = [graph.type_of(r).dtype for r in graph.outputs]
    findings: list[Finding] = []
    for i in range(1, len(observations)):
        other = observations[i]
        if not (relation in ARBITRATED and other.failure):
            findings += compare(
                relation,
                reference,
                other,
                ops=ops,
                dtype=dtype,
                dims=dims,
                numbers=False,
                profiles=relation not in LOWERING,
            )
        if not numbers[i] or number_ref is None or number_ref == i:
            continue
        if arbiter is not None:
            findings += arbitrate(
                relation,
                observations[number_ref],
                other,
                arbiter,
                output_dtypes=output_dtypes,
                pattern=(ops, dtype, dims),
                rtols=rtols,
            )
            continue
        findings += [
            f
            for f in compare(
                relation, observations[number_ref], other, ops=ops, dtype=dtype, dims=dims, rtols=rtols, profiles=False
            )
            if f.kind == "output-mismatch"
        ]
    return first_per_signature(findings)


__all__ = [
    "RELATIONS",
    "LOWERING",
    "ARBITRATED",
    "VERDICTS",
    "FAMILIES",
    "Observation",
    "compare",
    "arbitrate",
    "first_mismatch",
    "default_tolerance",
    "compare_observations",
]


# --------------------------------------------------------------------------- its cause and its record

_INDEX = re.compile(r"\b([an])\d+\b")

_ASYMMETRIES = ("alloca-asymmetry", "alloc-asymmetry", "copy-asymmetry")

_VARIANT_FAILURE = re.compile(r"(compile|run) (\w+): (.*)", re.S)


def _metamorphic_cause(finding: Finding) -> Cause:
    ev = finding.evidence
    failure = str(ev.get("failure") or "")
    failed = _VARIANT_FAILURE.match(failure) if finding.kind == "variant-failed" else None
    if failed:  # the variant's own crash: "compile error: <diagnostic>", "run fault: <message>"
        kind = f"{'compile' if failed.group(1) == 'compile' else 'runtime'}-{failed.group(2)}"
        text = failed.group(3)
        return spec_of_registered("crash").cause(
            Finding("crash", kind, f"crash/{kind}/-/-/-", text, {"diagnostic": text, "message": text})
        )
    carrier = ev.get("sites")
    if finding.kind in _ASYMMETRIES and isinstance(carrier, list) and carrier and isinstance(carrier[0], Mapping):
        family = finding.kind.removesuffix("-asymmetry")  # the variant's own memory op: its memory cause
        return spec_of_registered("memory").cause(
            Finding("memory", family, f"memory/{family}/-/-/-", "", dict(carrier[0]))
        )
    relation = str(ev.get("relation") or "-")
    label = _INDEX.sub(r"\1", str(ev.get("variant") or "-"))
    role = ops_role(_signature_ops(finding).partition("[")[0])
    return _cause(
        "metamorphic",
        [finding.kind, f"{role}[{relation}:{label}]"],
        f"{_words(finding.kind).capitalize()} of a {role} graph under the {relation} relation ({label})",
    )


def _follows_from(index: int, findings: Sequence[Finding], causes: Sequence[Cause]) -> int | None:
    """An output mismatch in a case whose own numbers IREE got wrong against the reference follows from that wrong
    value (round K: a dynamic-head-dim attention's static and dynamic forms disagree because the dynamic one is the
    known attention miscompile); an asymmetry of a memory finding's family follows from that finding (from the one
    of its own cause when its evidence names the dispatch that carries it)."""
    finding = findings[index]
    if finding.kind == "output-mismatch":
        return next((i for i, other in enumerate(findings) if _wrong_numbers_of_iree(other)), None)
    if finding.kind not in _ASYMMETRIES:
        return None
    family = finding.kind.removesuffix("-asymmetry")
    located = bool(finding.evidence.get("sites"))
    return next(
        (
            i
            for i, other in enumerate(findings)
            if defect_of(other) == family and (not located or causes[i] == causes[index])
        ),
        None,
    )


def _wrong_numbers_of_iree(finding: Finding) -> bool:
    """A finding of an oracle that compares IREE's outputs with the reference and blames IREE (its record says)."""
    spec = spec_of_registered(finding.oracle)
    return spec is not None and spec.reads_expected and spec.blames == "iree"


register(
    OracleSpec(
        name="metamorphic",
        cause=_metamorphic_cause,
        consequence=_follows_from,
        reads_run=lambda kind: not kind.endswith("-asymmetry"),  # an asymmetry compares memory profiles
        defect=lambda kind: kind if kind.endswith("-asymmetry") else WRONG_VALUE,  # outputs disagree: one is wrong
        reproduce=lambda kind: "outputs",
        weight=0.35,
        happened="Two variants of one program that must agree do not: {message}",
        expected="Every variant (static or dynamic shapes, another destination form, another CPU or backend) gives "
        "the same outputs and no more memory ops.",
    )
)
