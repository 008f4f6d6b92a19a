"""Numeric oracle: IREE vs JAX, with the float64 NumPy evaluation deciding who is wrong.

A disagreement beyond the tolerance is only reported when the float64 arbiter backs it up:
  - IREE far from float64 while JAX is close  -> ``numeric`` finding (IREE is wrong);
  - JAX far from float64 while IREE is close  -> ``reference`` finding (JAX is wrong);
  - a disagreement the arbiter's error bound explains (cancellation, a near-tie of a comparison, a
    cast at an integer boundary), or both sides far -> ill-conditioned: discarded and counted.
Per element the tolerance is ``rtol * |JAX|`` -- rtol follows the least precise float dtype in the
graph, its depth and its longest accumulation at this shape instance -- plus ``BOUND_MARGIN`` times
the running error bound of the float64 evaluation (``reference.evaluate_with_bounds``): how far a
correct implementation computing in the program's dtypes may land. Integers are exact unless a
cast made them ambiguous.
"""

from __future__ import annotations

import dataclasses
from typing import Any, Callable, Mapping, Sequence

import numpy as np

from ireefuzz.generators.graph import FLOAT_DTYPES, Graph, dims_pattern

from . import vocabulary
from .diagnostics import (
    ARGUMENT_MUTATION,
    _Program,
    _signature_ops,
    _words,
    clobbered_arguments,
    cone_pattern,
    reads_argument,
)
from .finding import Cause, Finding, make_signature
from .finding import make_cause as _cause
from .spec import WRITTEN_ARGUMENT, Blames, Evaluation, OracleSpec, Verdict, defect_of, register, spec_of_registered

EPS = {
    "f32": float(np.finfo(np.float32).eps),
    "f16": float(np.finfo(np.float16).eps),
    "bf16": 2.0**-7,
    "f64": float(np.finfo(np.float64).eps),
}
ULPS_PER_OP = 4.0  # transcendental ops are accurate to a few ulps in both IREE and XLA
BOUND_MARGIN = 2.0


# The numeric oracle's verdict: its findings, the disagreements the arbiter found ill-conditioned, and why no
# reference judged these numbers ("op linalg.softmax"; never a finding).
NumericResult = Verdict


Arbiter = Callable[[Sequence[np.ndarray]], tuple[list[np.ndarray], list[np.ndarray]]]  # -> (float64 outputs, bounds)


def tolerance(graph: Graph, sizes: Mapping[str, int]) -> float:
    """Relative tolerance for this graph at this shape instance."""
    floats = [n.type.dtype for n in graph.nodes if n.type.dtype in FLOAT_DTYPES]
    floats += [t.dtype for t in graph.args if t.dtype in FLOAT_DTYPES]
    accumulation = 1
    for node in graph.nodes:
        if node.op in ("matmul", "batch_matmul"):
            accumulation = max(accumulation, graph.type_of(node.inputs[0]).concrete(sizes)[-1])
        elif node.op == "reduce_sum":
            accumulation = max(accumulation, graph.type_of(node.inputs[0]).concrete(sizes)[node.attrs["dim"]])
    return relative_tolerance(floats, len(graph.nodes), accumulation)


def relative_tolerance(float_dtypes: Sequence[str], depth: int, accumulation: int) -> float:
    """A few ulps of the least precise float dtype per op on a path, and per sqrt of the longest accumulation."""
    eps = max((EPS[d] for d in float_dtypes if d in EPS), default=EPS["f32"])
    return ULPS_PER_OP * eps * (depth + np.sqrt(accumulation) * 2)


def cone_ops(graph: Graph, output: str) -> str:
    """Ops feeding ``output`` in SSA order, each once: the signature's op pattern."""
    needed, stack = set(), [output]
    while stack:
        ref = stack.pop()
        if ref[0] == "n" and ref not in needed:
            needed.add(ref)
            node = graph.nodes[int(ref[1:])]
            stack.extend(node.inputs)
            init = node.attrs.get("init", "empty")
            if ":" in init:
                stack.append(init.partition(":")[2])
    ops: dict[str, None] = {}
    for i, node in enumerate(graph.nodes):
        if f"n{i}" in needed:
            ops[node.op] = None
    return ">".join(ops)


def check_numeric(
    graph: Graph,
    sizes: Mapping[str, int],
    inputs: Sequence[np.ndarray],
    actual: Sequence[np.ndarray],
    expected: Sequence[np.ndarray] | Callable[[], Sequence[np.ndarray]],
    arbiter: Arbiter,
) -> NumericResult:
    """Compare IREE's ``actual`` outputs with JAX's ``expected``; ``arbiter`` gives the float64 outputs and
    their error bounds.

    ``expected`` may be a thunk: JAX then runs only if IREE disagrees with float64 (a campaign's
    fast path -- eager JAX compiles every op anew for each new shape). That mode cannot report a
    ``reference`` finding when IREE is right, by construction.
    """
    findings: list[Finding] = []
    discarded = 0
    rtol = tolerance(graph, sizes)
    truths, bounds = arbiter(inputs)
    truths = [np.asarray(t, dtype=np.float64) for t in truths]
    if callable(expected):
        if _agrees_with_float64(graph, sizes, actual, truths, bounds, rtol):
            return NumericResult((), 0)
        expected = expected()
    for k, ref in enumerate(graph.outputs):
        t = graph.type_of(ref)
        want_shape = t.concrete(sizes)
        sig = lambda kind, oracle="numeric": make_signature(
            oracle, kind, cone_ops(graph, ref), t.dtype, dims_pattern([t.shape])
        )
        base: dict[str, Any] = {"output": k, "sizes": dict(sizes)}
        got = np.asarray(actual[k])
        if tuple(got.shape) != want_shape:
            findings.append(
                Finding(
                    "numeric",
                    "wrong-shape",
                    sig("wrong-shape"),
                    f"output {k} has shape {got.shape}, expected {want_shape}",
                    base | {"actual_shape": list(got.shape), "expected_shape": list(want_shape)},
                )
            )
            continue
        want = np.asarray(expected[k])
        truth = _representable(truths[k], t.dtype)
        g64, w64 = got.astype(np.float64), want.astype(np.float64)
        plain, tol = _tolerance(w64, bounds[k], t.dtype, rtol)
        bad = ~agree(g64, w64, tol)
        raw_bad = ~agree(g64, w64, plain)
        iree_err, jax_err = _distance(g64, truth), _distance(w64, truth)
        iree_only = bad & (iree_err > tol) & ~(jax_err > tol)
        jax_only = bad & (jax_err > tol) & ~(iree_err > tol)
        discarded += int(bool((raw_bad & ~iree_only & ~jax_only).any()))
        for mask, err, oracle, who, prefix in (
            (iree_only, iree_err, "numeric", "IREE", ""),
            (jax_only, jax_err, "reference", "JAX", "jax-"),
        ):
            if not mask.any():
                continue
            worst = np.unravel_index(int(np.argmax(np.where(mask, np.nan_to_num(err, posinf=1e300), -1))), mask.shape)
            nan_case = bool(
                np.isnan(got[worst]) != np.isnan(truth[worst]) or np.isnan(want[worst]) != np.isnan(truth[worst])
            )
            kind = prefix + ("nan-mismatch" if nan_case else "wrong-value")
            abs_err = float(err[worst])
            evidence = base | {
                "index": [int(i) for i in worst],
                "iree": plain_value(got[worst]),
                "jax": plain_value(want[worst]),
                "float64": plain_value(truths[k][worst]),
                "max_abs_err": abs_err if np.isfinite(abs_err) else repr(abs_err),
                "max_rel_err": abs_err / abs(float(truth[worst]))
                if np.isfinite(truth[worst]) and truth[worst] != 0
                else None,
                "tolerance": float(tol[worst]),
                "mismatches": int(np.count_nonzero(mask)),
                "elements": int(mask.size),
            }
            findings.append(
                Finding(
                    oracle,
                    kind,
                    sig(kind, oracle),
                    f"{who} output {k} is wrong at {list(evidence['index'])}: IREE {evidence['iree']}, "
                    f"JAX {evidence['jax']}, float64 {evidence['float64']} "
                    f"({evidence['mismatches']} of {evidence['elements']} elements)",
                    evidence,
                )
            )
    return NumericResult(tuple(findings), discarded)


def _agrees_with_float64(
    graph: Graph,
    sizes: Mapping[str, int],
    actual: Sequence[np.ndarray],
    truths: Sequence[np.ndarray],
    bounds: Sequence[np.ndarray],
    rtol: float,
) -> bool:
    """IREE within tolerance of the float64 result on every output (the tolerance taken relative to it)."""
    for k, ref in enumerate(graph.outputs):
        t = graph.type_of(ref)
        got = np.asarray(actual[k])
        if tuple(got.shape) != t.concrete(sizes):
            return False
        if far_from_float64(got, truths[k], bounds[k], t.dtype, rtol).any():
            return False
    return True


def far_from_float64(actual: np.ndarray, truth: np.ndarray, bound: np.ndarray, dtype: str, rtol: float) -> np.ndarray:
    """Per element, whether ``actual`` lies where no correct implementation may land: beyond ``rtol`` of the
    float64 ``truth`` (as ``dtype`` holds it) plus ``BOUND_MARGIN`` times its error ``bound`` -- the arbiter's rule."""
    want = _representable(np.asarray(truth, dtype=np.float64), dtype)
    _, tol = _tolerance(want, bound, dtype, rtol)
    return ~agree(np.asarray(actual).astype(np.float64), want, tol)


def _tolerance(scale: np.ndarray, bound: np.ndarray, dtype: str, rtol: float) -> tuple[np.ndarray, np.ndarray]:
    """(plain, full) per-element tolerance: ``rtol`` relative to ``scale``; full adds the error bound."""
    plain = (
        rtol * np.abs(np.nan_to_num(scale, posinf=0, neginf=0)) + 1e-30
        if dtype in FLOAT_DTYPES
        else np.zeros(np.shape(scale))
    )
    with np.errstate(over="ignore"):  # a bound past float64 is an unbounded tolerance: that element is not judged
        return plain, plain + BOUND_MARGIN * np.asarray(bound, dtype=np.float64)


def _representable(x: np.ndarray, dtype: str) -> np.ndarray:
    """The float64 truth as the output dtype can hold it (overflow -> inf), back in float64."""
    if dtype in ("f16", "f32"):
        with np.errstate(over="ignore", invalid="ignore"):
            return x.astype(np.float16 if dtype == "f16" else np.float32).astype(np.float64)
    if dtype == "bf16":
        import ml_dtypes

        with np.errstate(over="ignore", invalid="ignore"):
            return x.astype(np.float32).astype(ml_dtypes.bfloat16).astype(np.float64)
    return x


# --------------------------------------------------------------------------- a program against its interpreter


def check_program_outputs(
    function: str,
    ops: str,
    actual: Sequence[np.ndarray],
    truths: Sequence[np.ndarray],
    dtypes: Sequence[str],
    rtol: float,
    perturbed: Callable[[], Sequence[Sequence[np.ndarray] | None]],
) -> NumericResult:
    """IREE's outputs of a raw program's ``function`` against the float64 interpreter's ``truths``.

    Each truth is first rounded to its output dtype (``dtypes``: f16 overflow is inf on both sides);
    floats agree within ``rtol`` of it, integers exactly. Where they do not, ``perturbed()`` gives the
    interpreter's outputs on inputs perturbed by ``rtol`` (None: a run it could not judge): how far they
    move bounds how far a correct implementation may land (cancellation, a cast or comparison near a
    boundary). A disagreement within ``BOUND_MARGIN`` times that bound is ill-conditioned: discarded and
    counted, never reported; so is one where a perturbation changed NaN / Inf parity.
    """
    findings: list[Finding] = []
    discarded = 0
    spreads: list[np.ndarray] | None = None
    for k, (got, truth, dtype) in enumerate(zip(actual, truths, dtypes)):
        got, truth = np.asarray(got), np.asarray(truth)
        sig = lambda kind: make_signature("numeric", kind, ops, dtype, dims_pattern([truth.shape]))
        base = {"function": function, "output": k}
        if got.shape != truth.shape:
            findings.append(
                Finding(
                    "numeric",
                    "wrong-shape",
                    sig("wrong-shape"),
                    f"{function} output {k} has shape {got.shape}, expected {truth.shape}",
                    base | {"actual_shape": list(got.shape), "expected_shape": list(truth.shape)},
                )
            )
            continue
        is_float = dtype in EPS
        want = _representable(truth.astype(np.float64), dtype)
        g64 = got.astype(np.float64)
        plain = rtol * np.abs(np.nan_to_num(want, posinf=0, neginf=0)) + 1e-30 if is_float else np.zeros(want.shape)
        if agree(g64, want, plain).all():
            continue
        if spreads is None:
            spreads = _spreads(perturbed(), truths, dtypes)
        spread = spreads[k] if k < len(spreads) else np.full(want.shape, np.inf)
        bad = ~agree(g64, want, plain + BOUND_MARGIN * spread) & np.isfinite(spread)
        discarded += int(bool((~agree(g64, want, plain) & ~bad).any()))
        if not bad.any():
            continue
        err = _distance(g64, want)
        worst = np.unravel_index(int(np.argmax(np.where(bad, np.nan_to_num(err, posinf=1e300), -1))), bad.shape)
        kind = "nan-mismatch" if bool(np.isnan(g64[worst]) != np.isnan(want[worst])) else "wrong-value"
        evidence = base | {
            "index": [int(i) for i in worst],
            "iree": plain_value(got[worst]),
            "reference": plain_value((want if is_float else truth)[worst]),
            "float64": plain_value(truth[worst]),
            "tolerance": float(plain[worst] + BOUND_MARGIN * spread[worst]),
            "rtol": rtol,
            "mismatches": int(np.count_nonzero(bad)),
            "elements": int(bad.size),
        }
        findings.append(
            Finding(
                "numeric",
                kind,
                sig(kind),
                f"{function} output {k} is wrong at {evidence['index']}: IREE {evidence['iree']}, "
                f"interpreter {evidence['reference']} ({evidence['mismatches']} of "
                f"{evidence['elements']} elements)",
                evidence,
            )
        )
    return NumericResult(tuple(findings), discarded)


def _spreads(
    runs: Sequence[Sequence[np.ndarray] | None], truths: Sequence[np.ndarray], dtypes: Sequence[str]
) -> list[np.ndarray]:
    """Per output, the largest move of any perturbed run from the truth (inf where parity broke, or a
    run could not be judged)."""
    out = []
    for k, (truth, dtype) in enumerate(zip(truths, dtypes)):
        want = _representable(np.asarray(truth, np.float64), dtype)
        spread = np.zeros(want.shape)
        for run in runs:
            if run is None or k >= len(run) or np.shape(run[k]) != want.shape:
                return [np.full(np.shape(t), np.inf) for t in truths]
            moved = _representable(np.asarray(run[k], np.float64), dtype)
            spread = np.maximum(spread, _distance(moved, want))
        out.append(spread)
    return out


def agree(a: np.ndarray, b: np.ndarray, tol: np.ndarray) -> np.ndarray:
    """Elementwise agreement with NaN/Inf parity: NaN matches NaN, an infinity only the same infinity."""
    both_nan = np.isnan(a) & np.isnan(b)
    same_inf = np.isinf(a) & np.isinf(b) & (np.sign(a) == np.sign(b))
    with np.errstate(invalid="ignore"):
        finite_close = np.isfinite(a) & np.isfinite(b) & (np.abs(a - b) <= tol)
    return both_nan | same_inf | finite_close


def _distance(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """|a - b| with NaN/Inf parity: 0 where both are the same non-finite value, inf where parity breaks."""
    with np.errstate(invalid="ignore", over="ignore"):
        d = np.abs(a - b)
    same = (np.isnan(a) & np.isnan(b)) | (np.isinf(a) & np.isinf(b) & (np.sign(a) == np.sign(b)))
    return np.where(same, 0.0, np.where(np.isfinite(d), d, np.inf))


def plain_value(x: np.generic) -> float | int | str:
    v = x.item()
    if isinstance(v, float) and not np.isfinite(v):
        return repr(v)
    return v


# --------------------------------------------------------------------------- its causes and its records


def _numeric_cause(finding: Finding) -> Cause:
    if clobbered_arguments(finding):
        return ARGUMENT_MUTATION
    program = _Program.of(finding)
    ops = cone_pattern(program, program.wrong_output(finding)) if program is not None else _surface_ops(finding)
    who = _BLAMED[spec_of_registered(finding.oracle).blames]
    kind = wrong_numbers(finding.kind)
    return _cause(finding.oracle, [kind, ops], f"{who} computes a {_words(kind)} for {ops}")


def wrong_numbers(kind: str) -> str:
    """A numeric finding's kind as its cause reads it: whether the wrong numbers are NaN where a number is right or
    another number is their surface, not a mechanism (round H: the dynamic-head-dim attention gives NaN at a zero
    head dim and other wrong numbers above one vector), so ``nan-mismatch`` is ``wrong-value`` there."""
    return kind.replace("nan-mismatch", "wrong-value")


_BLAMED: dict[Blames, str] = {"iree": "IREE", "reference": "JAX (the reference)"}  # who computes it wrong


def _surface_ops(finding: Finding) -> str:
    """The signature's ops of a record with neither a graph nor a cone (older runs), but never a function's name
    (a raw program with no dispatch was signed by its function): then nothing is known of its ops."""
    ops = _signature_ops(finding) or "-"
    return "-" if ops == finding.evidence.get("function") else ops


def _reads_a_mutated_argument(index: int, findings: Sequence[Finding], causes: Sequence[Cause]) -> int | None:
    """A wrong value read from an argument the call wrote in place follows from that mutation."""
    finding = findings[index]
    return next(
        (
            i
            for i, other in enumerate(findings)
            if defect_of(other) == WRITTEN_ARGUMENT and reads_argument(finding, other.evidence.get("argument"))
        ),
        None,
    )


def _judge_numbers(e: Evaluation) -> Verdict:
    """The case's frontend's numeric judgement, except where its program is undefined (never judged)."""
    return Verdict(not_judged=(e.undefined,)) if e.undefined else e.numbers()


NUMERIC = register(
    OracleSpec(
        name="numeric",
        cause=_numeric_cause,
        consequence=_reads_a_mutated_argument,
        reproduce=lambda kind: "outputs",
        culprit=lambda kind: "wrong-value",
        absent=lambda kind: "its values are right",
        defect=lambda kind: "",  # any wrong value
        weight=1.0,
        happened="The compiled program returns other values than the reference ({reference}).",
        expected="Outputs equal the reference within the dtype's tolerance (integers exactly).",
        title="[CPU] wrong results for `{ops}` ({type})",
        judges={"ran": _judge_numbers},  # the reference's findings too
        reads_expected=True,
        policies=(("ukernels=none", vocabulary.UKERNELS_OFF_FLAG),),
    )
)
register(  # the same judgement with the seats swapped: JAX is the one float64 says is wrong
    dataclasses.replace(
        NUMERIC,
        name="reference",
        switch="numeric",
        blames="reference",
        judges={},  # numeric's judge makes its findings
        weight=0.9,
        happened="JAX (the reference) differs from the float64 evaluation, where IREE agrees with it: {message}",
        expected="The reference's outputs equal the float64 evaluation within the tolerance of their dtype.",
        title="[CPU] the reference computes wrong results for `{ops}` ({type})",
    )
)
