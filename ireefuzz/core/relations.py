"""Metamorphic relations, built and observed: variants of one case compiled (and run) on IREE.

Each relation of ``oracles.metamorphic.RELATIONS`` turns a case into ``Variant``s that must
behave alike; every variant is compiled as its own module (and, unless compile-only, run on the
same inputs) and observed as an ``oracles.metamorphic.Observation``: outputs per shape instance
and ``memory.profile`` of its dispatches. The judging is the oracle's
(``metamorphic.compare_observations``); this module only produces what it judges.

* ``shape``: the graph at static *aligned* sizes (profile only), at static sizes and with its
  dims dynamic (``to_static`` / ``to_dynamic``); static and dynamic must agree in numbers.
* ``dps``: the destination-passing-style forms of the graph (``dps_variants``: each node's
  ``init`` rewritten, named ops toggled to ``linalg.generic``); same numbers, profiles compared.
* ``config``: compiler configuration variants (target CPU ``host`` vs ``generic``,
  ``--iree-opt-data-tiling`` on vs off); IREE against IREE with the numeric tolerance.
* ``vector-width``: the target's native vector size changed (``VECTOR_WIDTHS``, where the compiler takes
  ``VECTOR_WIDTH_FLAG``) and its features with it (``VECTOR_CPUS``: SSE4.2, AVX2, AVX-512; iree-org/iree#23952);
  same numbers with the numeric tolerance. A variant this host cannot execute (``sut.config_space.runnable``) is
  compiled only: its compile is judged, its numbers are not, and the verdict says why.
* ``backend``: the case on vmvx beside llvm-cpu (iree-org/iree#24927): one opinion each, the float64 arbiter
  says which is wrong (``metamorphic.VERDICTS``: llvm-cpu's codegen, vmvx's, or before dispatch formation).
"""

from __future__ import annotations

import concurrent.futures
import dataclasses
import platform
import re
from typing import Mapping, Sequence

import numpy as np

from ireefuzz import sut
from ireefuzz.errors import GraphError, IRParseError
from ireefuzz.generators import frontend_forms
from ireefuzz.generators.case import Case
from ireefuzz.generators.emit import emit
from ireefuzz.generators.graph import Graph, Node
from ireefuzz.generators.ops import OPS
from ireefuzz.oracles import crash, memory, numeric, reference
from ireefuzz.oracles.finding import Finding
from ireefuzz.oracles.metamorphic import ARBITRATED, RELATIONS, Float64, Observation, compare_observations
from ireefuzz.sut.commands import VECTOR_WIDTH_FLAG, VMVX_FLAGS
from ireefuzz.sut.config_space import runnable

ALIGNMENT = 16
DATA_TILING_FLAG = "--iree-opt-data-tiling"
_STATIC_ONLY_OPS = frozenset({"extract_slice", "pad"})  # their static offsets/padding pin the dims they touch
VECTOR_WIDTHS = (8, 16, 64)  # bytes: below, at and above a 16/32-byte register (#23952 compared 8 with 16)
VECTOR_CPUS = ("x86-64-v2", "x86-64-v3", "x86-64-v4")  # SSE4.2 (16-byte vectors), AVX2 (32), AVX-512 (64)
_X86_64 = ("x86_64", "amd64")  # platform.machine() spellings
VMVX_LACKS = frozenset({"f16", "bf16"})  # the VM has no 16-bit floats: vmvx fails to compile them (IREE 3.13)


@dataclasses.dataclass(frozen=True)
class Variant:
    label: str  # size-free, e.g. "static-aligned", "dynamic", "n2.outs=value:n1", "cpu=generic"
    case: Case
    numbers: bool = True  # its outputs are comparable with the reference's (same concrete inputs)
    not_run: str = ""  # why it is compiled only (code this host cannot execute); its numbers are not judged


@dataclasses.dataclass(frozen=True)
class Verdict:
    """A relation's findings, and what it could not judge (a variant compiled only, an opinion not formed)."""

    findings: tuple[Finding, ...]
    not_judged: tuple[str, ...] = ()


# --------------------------------------------------------------------------- graph transforms


def to_static(graph: Graph, sizes: Mapping[str, int]) -> Graph:
    """Every symbol replaced by its size in ``sizes``."""
    missing = set(graph.symbols) - set(sizes)
    if missing:
        raise GraphError(f"to_static: no size for symbols {sorted(missing)}")
    return graph.map_dims(lambda d: sizes[d] if isinstance(d, str) else d).check()


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
        trial = current.map_dims(lambda d: name if d == size else d)  # applied at once, to this size
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
            alternatives += [
                f"value:a{k}"
                for k, t in enumerate(graph.args)
                if (t.shape, t.dtype) == (node.type.shape, node.type.dtype)
            ]
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
            variants.append(
                Variant("static-aligned", dataclasses.replace(base, graph=to_static(dynamic, align)), numbers=False)
            )
        except GraphError:
            pass
    variants.append(Variant("static", dataclasses.replace(base, graph=static)))
    if dynamic.symbols:
        variants.append(Variant("dynamic", dataclasses.replace(case, graph=dynamic, instances=(dyn_sizes,))))
    return variants


def dps_case_variants(case: Case, *, limit: int = 8) -> list[Variant]:
    return [Variant("as-given", case)] + [
        Variant(label, dataclasses.replace(case, graph=g)) for label, g in dps_variants(case.graph, limit=limit)
    ]


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


def vector_width_variants(case: Case, config: sut.CompilerConfig) -> list[Variant]:
    """The case as given, at each of ``VECTOR_WIDTHS`` (its CPU's features kept, where the compiler has
    ``VECTOR_WIDTH_FLAG``) and, on an x86-64 host, for each of ``VECTOR_CPUS`` (features and width changed);
    compiled only where this host cannot run the code (``runnable_here``)."""
    flags = tuple(f for f in case.flags if not f.startswith(VECTOR_WIDTH_FLAG))
    variants = [Variant(f"cpu={case.target_cpu}", case)]
    if VECTOR_WIDTH_FLAG in sut.toolchain_of(config).known_flags:
        variants += [
            Variant(f"width={w}", dataclasses.replace(case, flags=flags + (f"{VECTOR_WIDTH_FLAG}={w}",)))
            for w in VECTOR_WIDTHS
        ]
    if platform.machine().lower() in _X86_64:
        variants += [
            Variant(f"cpu={cpu}", dataclasses.replace(case, target_cpu=cpu, flags=flags))
            for cpu in VECTOR_CPUS
            if cpu != case.target_cpu
        ]
    return runnable_here(variants, config)


def runnable_here(variants: Sequence[Variant], config: sut.CompilerConfig) -> list[Variant]:
    """``variants`` with those whose target CPU needs features this host lacks (``sut.config_space.runnable``, on the
    features each CPU resolves to) marked compiled only: running them would die of SIGILL, no compiler bug."""

    def resolved(cpu: str) -> sut.CpuInfo:
        return sut.resolve_platform(dataclasses.replace(config, target_cpu=cpu, flags=()))[0]

    cpus = {"host", *(v.case.target_cpu for v in variants)}
    features = {cpu: info.features if info.name else None for cpu, info in ((c, resolved(c)) for c in sorted(cpus))}
    can_run, host = set(runnable(features)), resolved("host").name or "this host"
    return [
        v
        if v.case.target_cpu in can_run
        else dataclasses.replace(v, numbers=False, not_run=f"{v.case.target_cpu} needs CPU features {host} lacks")
        for v in variants
    ]


def backend_variants(case: Case) -> list[Variant]:
    """The case as given (llvm-cpu) and on vmvx, IREE's reference CPU backend: the same dispatches, its own
    codegen and runtime loader (``VMVX_FLAGS``). Not for a graph with a dtype vmvx lacks (``VMVX_LACKS``)."""
    as_given = Variant("llvm-cpu", case)
    if ({t.dtype for t in case.graph.args} | {n.type.dtype for n in case.graph.nodes}) & VMVX_LACKS:
        return [as_given]
    return [as_given, Variant("vmvx", dataclasses.replace(case, flags=case.flags + VMVX_FLAGS))]


def variants_for(relation: str, case: Case, config: sut.CompilerConfig | None = None) -> list[Variant]:
    if relation == "shape":
        return shape_variants(case)
    if relation == "dps":
        return dps_case_variants(case)
    if relation == "config":
        return config_variants(case)
    if relation == "vector-width":
        return vector_width_variants(case, config or sut.CompilerConfig())
    if relation == "backend":
        return backend_variants(case)
    raise ValueError(f"unknown relation {relation!r}; choose from {', '.join(RELATIONS)}")


# --------------------------------------------------------------------------- observing


def observe_program(
    label: str,
    text: str,
    inputs: Mapping[str, Sequence[Sequence[np.ndarray]]],
    config: sut.CompilerConfig,
    *,
    run: bool = True,
) -> dict[str, Observation]:
    """Compile ``text`` with ``config`` and observe each function in ``inputs`` (function -> inputs
    per shape instance): its memory profile and, if ``run``, its outputs."""

    def failed(failure: sut.CompileFailure) -> dict[str, Observation]:
        # the whole diagnostic: its cause reads the context lines after the first error
        failed_as = f"compile {failure.kind}: {failure.diagnostic}"
        return {fn: Observation(label, failure=failed_as, compile_failure=failure) for fn in inputs}

    artifact = sut.compile_mlir(text, config)
    if isinstance(artifact, sut.CompileFailure):
        return failed(artifact)
    module = sut.load_module(artifact, config) if run else None
    if isinstance(module, sut.CompileFailure):
        return failed(module)
    observed = {}
    for fn, per_instance in inputs.items():
        try:
            dispatches = sut.dispatches_of(artifact, fn)
            prof, where = memory.profile(dispatches), memory.sites(dispatches)
        except IRParseError:  # e.g. final IR calling a ukernel declared outside the function
            prof, where = None, None
        if module is None:
            observed[fn] = Observation(label, None, prof, sites=where)
            continue
        outputs, failure = [], ""
        for xs in per_instance:
            result = module.call(fn, xs)
            if isinstance(result, sut.RunFailure):
                failure = f"run {result.kind}: {result.message[:500]}"
                break
            outputs.append(result.outputs)
        observed[fn] = Observation(label, None if failure else tuple(outputs), prof, failure, where)
    return observed


def observe(variant: Variant, config: sut.CompilerConfig, *, run: bool = True) -> Observation:
    """Compile (one module per variant: IREE deduplicates identical dispatches across functions,
    which would hide one variant's profile behind another's) and run one variant."""
    case = variant.case
    inputs = [case.inputs(k) for k in range(len(case.instances))] if run else []
    return observe_program(
        variant.label,
        emit(case.graph, "main", sut.toolchain_of(config).syntax).text,
        {"main": inputs},
        sut.config_for(case, config),
        run=run,
    )["main"]


def check_relation(
    relation: str,
    case: Case,
    config: sut.CompilerConfig | None = None,
    *,
    run: bool = True,
    jobs: int = 2,
    variants: Sequence[Variant] | None = None,
) -> list[Finding]:
    """The findings of ``judge_relation``."""
    return list(judge_relation(relation, case, config, run=run, jobs=jobs, variants=variants).findings)


def judge_relation(
    relation: str,
    case: Case,
    config: sut.CompilerConfig | None = None,
    *,
    run: bool = True,
    jobs: int = 2,
    variants: Sequence[Variant] | None = None,
) -> Verdict:
    """Build the relation's variants of ``case``, observe them (a ``not_run`` variant compiled only), and let
    the oracle compare each with the reference (the first variant; numbers against the first variant with
    ``numbers``; for an arbitrated relation, each side against ``case``'s float64 outputs)."""
    config = config or sut.CompilerConfig()
    variants = list(variants) if variants is not None else variants_for(relation, case, config)
    if len(variants) < 2:
        return Verdict(())
    with concurrent.futures.ThreadPoolExecutor(max(1, jobs)) as pool:
        observations = list(pool.map(lambda v: observe(v, config, run=run and not v.not_run), variants))
    arbiter = float64_outputs(case) if relation in ARBITRATED and run else None
    not_judged = [
        f"{relation} {v.label}: compiled only, numbers not judged ({v.not_run})" for v in variants if v.not_run
    ]
    if relation in ARBITRATED:  # an opinion that failed is no finding (metamorphic.compare_observations)
        not_judged += [f"{relation} {o.label}: no opinion ({_gist(o.failure)})" for o in observations[1:] if o.failure]
    findings = compare_variants(relation, variants, observations, case.graph, float64=arbiter)
    if relation not in ARBITRATED:  # an opinion's own failure is no finding
        findings = [variant_crash(f, variants, observations, config) or f for f in findings]
    return Verdict(tuple(findings), tuple(not_judged))


def variant_crash(
    finding: Finding, variants: Sequence[Variant], observations: Sequence[Observation], config: sut.CompilerConfig
) -> Finding | None:
    """A variant that failed to compile where another compiled is a program the compiler fails on: the crash oracle's
    finding on that variant's own case (ranked, bundled and triaged as any crash: host 61837's AnnotateDispatchesPass
    crash of a static-aligned variant ranked 14th of 15 as a mere asymmetry), with the variant that compiled as
    evidence (what makes the failure go away). None for any other finding."""
    if finding.kind != "variant-failed":
        return None
    failed = next((k for k, o in enumerate(observations) if o.compile_failure is not None), None)
    if failed is None:
        return None
    variant, compiled = variants[failed], next((o.label for o in observations if not o.failure), "")
    text = emit(variant.case.graph, "main", sut.toolchain_of(config).syntax).text
    crashed = crash.check_compile_failure(observations[failed].compile_failure, text, {"main": variant.case.graph})
    return crashed.with_case(frontend_forms.labelled(variant.case.to_json(), variant.case.graph)).with_evidence(
        relation=finding.evidence.get("relation"), variant=variant.label, compiled_as=compiled
    )


def float64_outputs(case: Case) -> Float64:
    """The float64 reference's outputs and error bounds, per shape instance of ``case`` (on its inputs)."""
    return [reference.evaluate_with_bounds(case.graph, case.inputs(k), sizes) for k, sizes in enumerate(case.instances)]


_IR_TEXT = re.compile(r"[%\"]")  # where a diagnostic starts quoting IR (SSA names, op names in quotes)


def _gist(failure: str) -> str:
    """A failure's first error, without its file, position or IR (a not-judged reason is counted by its text)."""
    kind, _, rest = failure.partition(": ")  # "compile error: <diagnostic>", "run fault: <message>"
    line = next((line for line in rest.splitlines() if "error:" in line), rest.partition("\n")[0])
    message = _IR_TEXT.split(line.rpartition("error: ")[2])[0].rstrip(": ")
    return f"{kind}: {message}"[:160]


def compare_variants(
    relation: str,
    variants: Sequence[Variant],
    observations: Sequence[Observation],
    graph: Graph,
    *,
    float64: Float64 | None = None,
) -> list[Finding]:
    """The oracle's verdict on ``observations`` of ``variants``, with the numeric tolerance of the
    first variant whose numbers count (and ``float64``, an arbitrated relation's reference)."""
    number_ref = next((v.case for v in variants if v.numbers), None)
    rtols = [numeric.tolerance(number_ref.graph, s) for s in number_ref.instances] if number_ref else []
    return compare_observations(
        relation, observations, graph, numbers=[v.numbers for v in variants], rtols=rtols, float64=float64
    )


__all__ = [
    "Variant",
    "to_static",
    "to_dynamic",
    "aligned",
    "dps_variants",
    "shape_variants",
    "dps_case_variants",
    "config_variants",
    "vector_width_variants",
    "runnable_here",
    "backend_variants",
    "variants_for",
    "observe_program",
    "observe",
    "check_relation",
    "judge_relation",
    "Verdict",
    "float64_outputs",
    "compare_variants",
]
