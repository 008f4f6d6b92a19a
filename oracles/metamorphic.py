"""Metamorphic relations: variants of one program that must agree, compared in one place.

There is no reference for "how much memory should this take", but there are programs that must
behave alike. Each relation builds variants of one case; every variant is compiled (and, unless
compile-only, run on the same inputs) and observed as an ``Observation`` (outputs per shape
instance + ``memory.profile``); ``compare`` then reports, as ``metamorphic`` findings:

* ``output-mismatch``: two variants that compute the same function at the same concrete shapes
  disagree beyond ``oracles.numeric.tolerance`` (integers exactly; NaN/Inf parity as the numeric
  oracle has it);
* ``alloca-asymmetry`` / ``alloc-asymmetry`` / ``copy-asymmetry``: a kind of memory op present in
  one variant's profile and absent from the reference's -- the first seed's "vectorized vs not
  vectorized" asymmetry (iree-org/iree#8303: 32x16x48 has no alloca, 33x16x49 has three);
* ``variant-failed``: one variant compiles/runs and another does not.

Relations (``RELATIONS``):

* ``shape``: the graph at static *aligned* sizes (profile only), at static sizes and with its
  dims dynamic (``to_static`` / ``to_dynamic``); static and dynamic must agree in numbers.
* ``dps``: the destination-passing-style forms of the graph (``dps_variants``: each node's
  ``init`` rewritten, named ops toggled to ``linalg.generic``); same numbers, profiles compared.
* ``config``: compiler configuration variants (target CPU ``host`` vs ``generic``,
  ``--iree-opt-data-tiling`` on vs off); IREE against IREE with the numeric tolerance.

Signatures: ``metamorphic/<kind>/<ops>[<relation>:<variant label>]/<dtype>/<dims>``, where the
label names the variant that deviates from the reference (labels are size-free).
"""
from __future__ import annotations

import concurrent.futures
import dataclasses
import math
from typing import Any, Iterable, Mapping, Sequence

import numpy as np

from ireefuzz.generators.case import Case
from ireefuzz.generators.graph import Graph, GraphError, Node, TensorType
from ireefuzz.generators.ops import OPS

from . import memory, numeric
from .finding import Finding, make_signature

RELATIONS = ("shape", "dps", "config")
# memory.profile kinds grouped into the families an asymmetry is reported for
FAMILIES = {"alloca": ("alloca", "alloca-dynamic", "alloca-in-loop"), "alloc": ("alloc",), "copy": ("copy",)}
ALIGNMENT = 16
DATA_TILING_FLAG = "--iree-opt-data-tiling"
# IREE vs IREE has no float64 arbiter to widen the tolerance where cancellation makes it
# ill-conditioned, so errors are also measured against this fraction of the output's magnitude.
CANCELLATION_FLOOR = 2.0 ** -6
_STATIC_ONLY_OPS = frozenset({"extract_slice", "pad"})  # their static offsets/padding pin the dims they touch


@dataclasses.dataclass(frozen=True)
class Variant:
    label: str  # size-free, e.g. "static-aligned", "dynamic", "n2.outs=value:n1", "cpu=generic"
    case: Case
    numbers: bool = True  # its outputs are comparable with the reference's (same concrete inputs)


@dataclasses.dataclass(frozen=True)
class Observation:
    """What one variant did. ``outputs`` is per shape instance (None = not run); ``profile`` is
    ``memory.profile`` of its dispatches (None = not compiled); ``failure`` says why not."""

    label: str
    outputs: tuple[tuple[np.ndarray, ...], ...] | None = None
    profile: Mapping[str, int] | None = None
    failure: str = ""

    def __repr__(self) -> str:
        return f"Observation({self.label}: profile={dict(self.profile or {})}, failure={self.failure[:60]!r})"


# --------------------------------------------------------------------------- comparison (the one place)


def compare(relation: str, reference: Observation, other: Observation, *, ops: str, dtype: str, dims: str,
            rtols: Sequence[float] = (), numbers: bool = True, profiles: bool = True) -> list[Finding]:
    """Findings for ``other`` deviating from ``reference``. ``rtols`` is the relative tolerance per
    shape instance (missing entries use the last one, or the f32 default)."""

    def finding(kind: str, message: str, **evidence: Any) -> Finding:
        label = other.label if kind != "variant-failed" or other.failure else reference.label
        return Finding("metamorphic", kind, make_signature("metamorphic", kind, f"{ops}[{relation}:{label}]", dtype, dims),
                       message, {"relation": relation, "reference": reference.label, "variant": other.label} | evidence)

    if reference.failure or other.failure:
        if bool(reference.failure) != bool(other.failure):
            failed = other if other.failure else reference
            ok = reference if other.failure else other
            return [finding("variant-failed", f"variant {failed.label} failed where {ok.label} did not: {failed.failure[:300]}",
                            failure=failed.failure)]
        return []
    findings: list[Finding] = []
    if profiles and reference.profile is not None and other.profile is not None:
        for family, kinds in FAMILIES.items():
            ref_n = sum(reference.profile.get(k, 0) for k in kinds)
            oth_n = sum(other.profile.get(k, 0) for k in kinds)
            if (ref_n == 0) != (oth_n == 0):
                where = other.label if oth_n else reference.label
                findings.append(finding(
                    f"{family}-asymmetry",
                    f"{family} present only in {where}: {reference.label} has {ref_n}, {other.label} has {oth_n}",
                    profile_reference=dict(reference.profile), profile_variant=dict(other.profile)))
    if numbers and reference.outputs is not None and other.outputs is not None:
        for k, (ref_outs, oth_outs) in enumerate(zip(reference.outputs, other.outputs)):
            rtol = rtols[min(k, len(rtols) - 1)] if rtols else default_tolerance(dtype)
            mismatch = first_mismatch(ref_outs, oth_outs, rtol)
            if mismatch is not None:
                findings.append(finding(
                    "output-mismatch",
                    f"{other.label} disagrees with {reference.label} at instance {k}, output {mismatch['output']}: "
                    f"{mismatch.get('variant')} vs {mismatch.get('reference')} at {mismatch.get('index')}",
                    instance=k, rtol=rtol, **mismatch))
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
            return {"output": j, "index": list(index), "reference": numeric.plain_value(a[index]),
                    "variant": numeric.plain_value(b[index]), "mismatches": int(np.count_nonzero(bad)), "elements": int(bad.size)}
    return None


def default_tolerance(dtype: str, accumulation: int = 1, depth: int = 8) -> float:
    """The numeric oracle's tolerance rule for a program without a graph (raw MLIR)."""
    eps = numeric.EPS.get(dtype, numeric.EPS["f32"])
    return numeric.ULPS_PER_OP * eps * (depth + math.sqrt(max(accumulation, 1)) * 2)


# --------------------------------------------------------------------------- graph transforms


def _map_dims(graph: Graph, fn) -> Graph:
    def ttype(t: TensorType) -> TensorType:
        bound = t.index_bound
        return TensorType(tuple(fn(d) for d in t.shape), t.dtype, fn(bound) if bound is not None else None)

    nodes = []
    for n in graph.nodes:
        attrs = dict(n.attrs)
        for key in ("shape", "sizes"):
            if key in attrs:
                attrs[key] = [fn(d) for d in attrs[key]]
        nodes.append(Node(n.op, n.inputs, attrs, ttype(n.type)))
    return Graph(tuple(ttype(t) for t in graph.args), tuple(nodes), graph.outputs)


def to_static(graph: Graph, sizes: Mapping[str, int]) -> Graph:
    """Every symbol replaced by its size in ``sizes``."""
    missing = set(graph.symbols) - set(sizes)
    if missing:
        raise GraphError(f"to_static: no size for symbols {sorted(missing)}")
    return _map_dims(graph, lambda d: sizes[d] if isinstance(d, str) else d).check()


def to_dynamic(graph: Graph) -> tuple[Graph, dict[str, int]]:
    """Static dims turned into symbols where legal; returns the graph and the sizes of the new symbols.

    All static dims of one size share one symbol (``D<size>``), so every equality the ops require
    (a matmul's K, elementwise operands) still holds. Sizes touched by ``extract_slice`` / ``pad``,
    or that appear in no argument, stay static; a size whose conversion the graph checker rejects
    is kept static too.
    """
    pinned: set[int] = set()
    for n in graph.nodes:
        if n.op in _STATIC_ONLY_OPS:
            for t in [graph.type_of(r) for r in n.inputs] + [n.type]:
                pinned.update(d for d in t.shape if isinstance(d, int))
    taken = set(graph.symbols)
    candidates = sorted({d for t in graph.args for d in t.shape if isinstance(d, int) and d >= 1} - pinned)
    current, sizes = graph, {}
    for size in candidates:
        name = f"D{size}"
        while name in taken:
            name += "_"
        trial = _map_dims(current, lambda d, s=size, n=name: n if d == s else d)
        try:
            trial.check()
        except GraphError:
            continue
        current, sizes[name] = trial, size
        taken.add(name)
    return current, sizes


def aligned(sizes: Mapping[str, int], to: int = ALIGNMENT) -> dict[str, int]:
    """Sizes rounded down to a multiple of ``to`` (sizes below ``to`` are kept)."""
    return {k: v - v % to if v >= to else v for k, v in sizes.items()}


def dps_variants(graph: Graph, *, limit: int = 8) -> list[tuple[str, Graph]]:
    """The destination-passing-style forms of ``graph``, one change at a time: each node's ``init``
    set to a fresh ``tensor.empty``, another node's empty (``init-of``), an earlier value of the
    same type (``value:``: a producer result or a function argument), and named ops toggled to
    their ``linalg.generic`` form. Only well-formed variants; at most ``limit``."""
    out: list[tuple[str, Graph]] = []
    seen = {graph.dumps()}

    def add(label: str, nodes: list[Node]) -> None:
        candidate = Graph(graph.args, tuple(nodes), graph.outputs)
        try:
            candidate.check()
        except GraphError:
            return
        if candidate.dumps() not in seen:
            seen.add(candidate.dumps())
            out.append((label, candidate))

    for i, node in enumerate(graph.nodes):
        spec = OPS[node.op]
        if spec.has_init:
            alternatives = ["empty"]
            for j, other in enumerate(graph.nodes[:i]):
                if other.type == node.type and OPS[other.op].has_init and other.attrs.get("init", "empty") == "empty":
                    alternatives.append(f"init-of:n{j}")
                if (other.type.shape, other.type.dtype) == (node.type.shape, node.type.dtype):
                    alternatives.append(f"value:n{j}")
            alternatives += [f"value:a{k}" for k, t in enumerate(graph.args)
                             if (t.shape, t.dtype) == (node.type.shape, node.type.dtype)]
            for alt in alternatives:
                if alt != node.attrs.get("init", "empty"):
                    nodes = list(graph.nodes)
                    nodes[i] = Node(node.op, node.inputs, dict(node.attrs) | {"init": alt}, node.type)
                    add(f"n{i}.outs={alt}", nodes)
        if spec.has_generic_form:
            flag = not node.attrs.get("generic", False)
            nodes = list(graph.nodes)
            nodes[i] = Node(node.op, node.inputs, dict(node.attrs) | {"generic": flag}, node.type)
            add(f"n{i}.generic={str(flag).lower()}", nodes)
    return out[:limit]


# --------------------------------------------------------------------------- relations as variants


def shape_variants(case: Case) -> list[Variant]:
    """static-aligned (profile only), static and dynamic at the case's first shape instance."""
    graph, sizes = case.graph, dict(case.instances[0])
    static = to_static(graph, sizes)
    if graph.symbols:
        dynamic, dyn_sizes = graph, sizes
    else:
        dynamic, dyn_sizes = to_dynamic(graph)
    base = dataclasses.replace(case, instances=({},))
    variants = []
    align = aligned(dyn_sizes)
    if align != dyn_sizes and dynamic.symbols:
        try:
            variants.append(Variant("static-aligned", dataclasses.replace(base, graph=to_static(dynamic, align)), numbers=False))
        except GraphError:
            pass
    variants.append(Variant("static", dataclasses.replace(base, graph=static)))
    if dynamic.symbols:
        variants.append(Variant("dynamic", dataclasses.replace(case, graph=dynamic, instances=(dyn_sizes,))))
    return variants


def dps_case_variants(case: Case, *, limit: int = 8) -> list[Variant]:
    return [Variant("as-given", case)] + [Variant(label, dataclasses.replace(case, graph=g))
                                          for label, g in dps_variants(case.graph, limit=limit)]


def config_variants(case: Case) -> list[Variant]:
    """The case as given, the other target CPU, and data tiling forced on and off."""
    other_cpu = "generic" if case.target_cpu != "generic" else "host"
    flags = tuple(f for f in case.flags if not f.startswith(DATA_TILING_FLAG))
    return [
        Variant(f"cpu={case.target_cpu}", case),
        Variant(f"cpu={other_cpu}", dataclasses.replace(case, target_cpu=other_cpu)),
        Variant("data-tiling=true", dataclasses.replace(case, flags=flags + (f"{DATA_TILING_FLAG}=true",))),
        Variant("data-tiling=false", dataclasses.replace(case, flags=flags + (f"{DATA_TILING_FLAG}=false",))),
    ]


def variants_for(relation: str, case: Case) -> list[Variant]:
    if relation == "shape":
        return shape_variants(case)
    if relation == "dps":
        return dps_case_variants(case)
    if relation == "config":
        return config_variants(case)
    raise ValueError(f"unknown relation {relation!r}; choose from {', '.join(RELATIONS)}")


# --------------------------------------------------------------------------- running


def observe_program(label: str, text: str, inputs: Mapping[str, Sequence[Sequence[np.ndarray]]], config: Any,
                    *, run: bool = True) -> dict[str, Observation]:
    """Compile ``text`` with ``config`` (a ``sut.CompilerConfig``) and observe each function in
    ``inputs`` (function -> inputs per shape instance): its memory profile and, if ``run``, outputs."""
    from ireefuzz import sut

    artifact = sut.compile_mlir(text, config)
    if isinstance(artifact, sut.CompileFailure):
        return {fn: Observation(label, failure=f"compile {artifact.kind}: {artifact.diagnostic[:500]}") for fn in inputs}
    module = sut.load_module(artifact, config) if run else None
    observed = {}
    for fn, per_instance in inputs.items():
        try:
            prof = memory.profile(sut.dispatches_of(artifact, fn))
        except memory.IRParseError:  # e.g. final IR calling a ukernel declared outside the function
            prof = None
        if module is None:
            observed[fn] = Observation(label, None, prof)
            continue
        outputs, failure = [], ""
        for xs in per_instance:
            result = module.call(fn, xs)
            if isinstance(result, sut.RunFailure):
                failure = f"run {result.kind}: {result.message[:500]}"
                break
            outputs.append(result.outputs)
        observed[fn] = Observation(label, None if failure else tuple(outputs), prof, failure)
    return observed


def observe(variant: Variant, config: Any, *, run: bool = True) -> Observation:
    """Compile (one module per variant: IREE deduplicates identical dispatches across functions,
    which would hide one variant's profile behind another's) and run one variant."""
    from ireefuzz.evaluate import config_for
    from ireefuzz.generators.emit import emit
    from ireefuzz.releases import syntax_of

    case = variant.case
    inputs = [case.inputs(k) for k in range(len(case.instances))] if run else []
    return observe_program(variant.label, emit(case.graph, "main", syntax_of(config)).text, {"main": inputs},
                           config_for(case, config), run=run)["main"]


def check_relation(relation: str, case: Case, config: Any = None, *, run: bool = True, jobs: int = 2,
                   variants: Sequence[Variant] | None = None) -> list[Finding]:
    """Build the relation's variants of ``case``, observe them, and compare each with the reference
    (the first variant; numbers against the first variant with ``numbers``)."""
    from ireefuzz import sut

    config = config or sut.CompilerConfig()
    variants = list(variants) if variants is not None else variants_for(relation, case)
    if len(variants) < 2:
        return []
    with concurrent.futures.ThreadPoolExecutor(max(1, jobs)) as pool:
        observations = list(pool.map(lambda v: observe(v, config, run=run), variants))
    return compare_variants(relation, variants, observations, case.graph)


def compare_variants(relation: str, variants: Sequence[Variant], observations: Sequence[Observation],
                     graph: Graph) -> list[Finding]:
    ops, dtype, dims = graph.op_pattern, graph.dtype, graph.dims
    reference = observations[0]
    number_ref = next((i for i, v in enumerate(variants) if v.numbers), None)
    findings: list[Finding] = []
    for i in range(1, len(variants)):
        v = variants[i]
        # configurations legitimately lower differently (another CPU, data tiling): only numbers must agree
        if relation != "config":
            findings += compare(relation, reference, observations[i], ops=ops, dtype=dtype, dims=dims, numbers=False)
        elif observations[i].failure or reference.failure:
            findings += compare(relation, reference, observations[i], ops=ops, dtype=dtype, dims=dims,
                                numbers=False, profiles=False)
        if v.numbers and number_ref is not None and number_ref != i:
            ref_case = variants[number_ref].case
            rtols = [numeric.tolerance(ref_case.graph, s) for s in ref_case.instances]
            findings += [f for f in compare(relation, observations[number_ref], observations[i], ops=ops, dtype=dtype,
                                            dims=dims, rtols=rtols, profiles=False)
                         if f.kind == "output-mismatch"]
    return _dedup(findings)


def _dedup(findings: Iterable[Finding]) -> list[Finding]:
    seen: dict[str, Finding] = {}
    for f in findings:
        seen.setdefault(f.signature, f)
    return list(seen.values())


__all__ = ["RELATIONS", "Variant", "Observation", "compare", "first_mismatch", "default_tolerance", "to_static",
           "to_dynamic", "aligned", "dps_variants", "shape_variants", "dps_case_variants", "config_variants",
           "variants_for", "observe_program", "observe", "check_relation", "compare_variants"]
