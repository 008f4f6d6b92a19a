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

Signatures: ``metamorphic/<kind>/<ops>[<relation>:<variant label>]/<dtype>/<dims>``, where the
label names the variant that deviates from the reference (labels are size-free).
"""

from __future__ import annotations

import dataclasses
import math
from typing import Any, Mapping, Sequence

import numpy as np

from ireefuzz.generators.graph import Graph

from . import numeric
from .finding import Finding, first_per_signature, make_signature

RELATIONS = ("shape", "dps", "config")  # built and observed by ireefuzz.core.relations
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
        return Finding(
            "metamorphic",
            kind,
            make_signature("metamorphic", kind, f"{ops}[{relation}:{label}]", dtype, dims),
            message,
            {"relation": relation, "reference": reference.label, "variant": other.label} | evidence,
        )

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
                findings.append(
                    finding(
                        "output-mismatch",
                        f"{other.label} disagrees with {reference.label} at instance {k}, output {mismatch['output']}: "
                        f"{mismatch.get('variant')} vs {mismatch.get('reference')} at {mismatch.get('index')}",
                        instance=k,
                        rtol=rtol,
                        **mismatch,
                    )
                )
                break  # one per pair: the first instance that disagrees
    return findings


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
) -> list[Finding]:
    """Every variant's observation against the reference (the first): memory profiles (unless
    ``config``: configurations legitimately lower differently) and failures; and outputs against the
    first observation whose ``numbers`` flag is set, with ``rtols`` per shape instance."""
    ops, dtype, dims = graph.op_pattern, graph.dtype, graph.dims
    reference = observations[0]
    number_ref = next((i for i, counts in enumerate(numbers) if counts), None)
    findings: list[Finding] = []
    for i in range(1, len(observations)):
        if relation != "config":
            findings += compare(relation, reference, observations[i], ops=ops, dtype=dtype, dims=dims, numbers=False)
        elif observations[i].failure or reference.failure:
            findings += compare(
                relation, reference, observations[i], ops=ops, dtype=dtype, dims=dims, numbers=False, profiles=False
            )
        if numbers[i] and number_ref is not None and number_ref != i:
            findings += [
                f
                for f in compare(
                    relation,
                    observations[number_ref],
                    observations[i],
                    ops=ops,
                    dtype=dtype,
                    dims=dims,
                    rtols=rtols,
                    profiles=False,
                )
                if f.kind == "output-mismatch"
            ]
    return first_per_signature(findings)


__all__ = [
    "RELATIONS",
    "FAMILIES",
    "Observation",
    "compare",
    "first_mismatch",
    "default_tolerance",
    "compare_observations",
]
