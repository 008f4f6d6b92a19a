"""How one batch of cases is checked: emit -> compile once -> run every shape instance -> oracles.

Several graphs share one module (one ``func.func`` each). A batch whose compile fails is split in
halves until each failure is pinned to its own graph, so nothing is lost or misattributed.
"""
from __future__ import annotations

import dataclasses
import itertools
import time
import zlib
from typing import Any, Callable, Iterable, Sequence

import numpy as np

from ireefuzz.generators.case import Case
from ireefuzz.generators.emit import Program, emit_module
from ireefuzz.generators.graph import Graph
from ireefuzz.oracles import crash, fusion, immutability, memory, numeric, reference
from ireefuzz.oracles.finding import Finding

from . import sut
from .releases import syntax_of

ORACLE_NAMES = ("numeric", "immutability", "crash", "memory", "fusion")
JAX_MODES = ("always", "on-disagreement")
PRODUCER_OPS = {"fill", "iota"}  # ops that make data from nothing but indices and constants


@dataclasses.dataclass(frozen=True)
class Policy:
    """Which oracles run and what the memory oracle tolerates."""

    oracles: frozenset[str] = frozenset(ORACLE_NAMES)
    max_static_alloca_bytes: int = 0
    jax: str = "always"  # or "on-disagreement": run JAX only when IREE and float64 disagree (campaign speed)
    relations: tuple[str, ...] = ()  # metamorphic relations (shape, dps, config) run on a sample of the cases
    relations_every: int = 64  # ... on one case in this many (each relation compiles its variants separately)

    def __post_init__(self) -> None:
        from ireefuzz.oracles.metamorphic import RELATIONS

        if set(self.relations) - set(RELATIONS) or self.relations_every < 1:
            raise ValueError(f"relations {self.relations} every {self.relations_every}: choose from {', '.join(RELATIONS)}"
                             " and a positive sampling period")
        if self.jax not in JAX_MODES:
            raise ValueError(f"unknown JAX mode {self.jax!r}; choose from {', '.join(JAX_MODES)}")
        unknown = set(self.oracles) - set(ORACLE_NAMES)
        if unknown:
            raise ValueError(f"unknown oracles {sorted(unknown)}; choose from {', '.join(ORACLE_NAMES)}")


@dataclasses.dataclass(frozen=True)
class CaseResult:
    case: Case
    findings: tuple[Finding, ...]
    discarded: int = 0  # ill-conditioned disagreements
    pipelines: tuple[str, ...] = ()  # translation_info pipelines of the case's dispatches
    cpu: str = ""  # resolved CPU name
    compiler_version: str = ""
    compile_seconds: float = 0.0
    run_seconds: float = 0.0

    @property
    def signatures(self) -> tuple[str, ...]:
        return tuple(f.signature for f in self.findings)


def config_for(case: Case, base: sut.CompilerConfig) -> sut.CompilerConfig:
    return dataclasses.replace(base, target_cpu=case.target_cpu, flags=tuple(base.flags) + tuple(case.flags))


@dataclasses.dataclass(frozen=True)
class Frontend:
    """How a batch becomes one program, and how its compile failure is signed."""

    name: str
    program: Callable[[dict[str, Any]], Program]  # {function name: payload} -> one module
    payload: Callable[[Case, str], Any]  # what ``program`` takes for one case (e.g. its graph)
    compile_failure: Callable[[sut.CompileFailure, str, dict[str, Graph]], Finding]


LINALG = Frontend("linalg", emit_module, lambda case, name: case.graph, crash.check_compile_failure)


def evaluate(cases: Sequence[Case], base: sut.CompilerConfig = sut.CompilerConfig(), policy: Policy = Policy(),
             frontend: Frontend = LINALG) -> list[CaseResult]:
    """Check ``cases``, compiling each group of cases with the same configuration as one module."""
    results: dict[int, CaseResult] = {}
    key = lambda i: (cases[i].target_cpu, cases[i].flags)
    for _, group in itertools.groupby(sorted(range(len(cases)), key=key), key=key):
        indices = list(group)
        named = [(f"g{i}", cases[i]) for i in indices]  # names survive batch splitting
        for i, r in zip(indices, evaluate_batch(named, config_for(cases[indices[0]], base), policy, frontend)):
            results[i] = r
    return [results[i] for i in range(len(cases))]


def evaluate_batch(named: Sequence[tuple[str, Case]], config: sut.CompilerConfig, policy: Policy,
                   frontend: Frontend = LINALG) -> list[CaseResult]:
    """One module for all of ``named`` (function name, case); a failing compile is split in halves until
    each failure is pinned to its own case."""
    if not named:
        return []
    payloads = {name: frontend.payload(case, name) for name, case in named}
    # linalg is emitted in the syntax of the release compiling it (arith.maxf before 2024-02, ...)
    program = emit_module(payloads, syntax_of(config)) if frontend is LINALG else frontend.program(payloads)
    artifact = sut.compile_mlir(program.text, config)
    if isinstance(artifact, sut.CompileFailure):
        if len(named) > 1:
            half = len(named) // 2
            return (evaluate_batch(named[:half], config, policy, frontend)
                    + evaluate_batch(named[half:], config, policy, frontend))
        name, case = named[0]
        finding = frontend.compile_failure(artifact, program.text, {name: case.graph})
        findings = (finding.with_case(case.to_json()).with_evidence(platform=platform_of(config=config)),
                    ) if "crash" in policy.oracles else ()
        return [CaseResult(case, findings, compile_seconds=artifact.seconds)]
    module = sut.load_module(artifact, config)
    share = artifact.seconds / len(named)
    results = [check_compiled_case(case, name, module, artifact, policy, share, single=len(named) == 1)
               for name, case in named]
    if policy.relations and frontend is LINALG:
        results = [with_relations(r, config, policy) for r in results]
    return results


def platform_of(artifact: sut.Artifact | None = None, config: sut.CompilerConfig | None = None) -> dict[str, str]:
    """What every finding records about where it was seen: the CPU as resolved (``host`` differs by
    machine) with its features, and the compiler version -- from the artifact, or for a failed
    compile from a probe compile with the same configuration (empty if even that fails)."""
    cpu, version = (artifact.cpu, artifact.compiler_version) if artifact is not None else sut.resolve_platform(config)
    return {"target_cpu": cpu.requested, "cpu": cpu.name, "cpu_features": cpu.features, "compiler_version": version}


def with_relations(result: CaseResult, config: sut.CompilerConfig, policy: Policy) -> CaseResult:
    """Add the metamorphic relations' findings for a deterministic sample of the cases (by case hash)."""
    if zlib.crc32(result.case.dumps().encode()) % policy.relations_every:
        return result
    from ireefuzz.oracles import metamorphic

    platform = platform_of(config=config)
    found = [f.with_case(result.case.to_json()).with_evidence(platform=platform) for rel in policy.relations
             for f in metamorphic.check_relation(rel, result.case, config)]
    return dataclasses.replace(result, findings=tuple(_first_per_signature([*result.findings, *found])))


def check_compiled_case(case: Case, function: str, module: sut.LoadedModule, artifact: sut.Artifact, policy: Policy,
                compile_seconds: float, *, single: bool) -> CaseResult:
    graph = case.graph
    findings: list[Finding] = []
    discarded = 0
    dispatches = sut.dispatches_of(artifact, function)
    started = time.perf_counter()
    if "memory" in policy.oracles:
        findings += memory.check_memory(dispatches, max_static_alloca_bytes=policy.max_static_alloca_bytes)
    if "fusion" in policy.oracles and not returns_constant_data(graph):
        findings += fusion.check_fusion(dispatches, artifact.statistics if single else None)
    for k, sizes in enumerate(case.instances):
        inputs = case.inputs(k)
        outcome = module.call(function, inputs)
        if isinstance(outcome, sut.RunFailure):
            if "crash" in policy.oracles:
                findings.append(crash.check_run_failure(outcome, graph, function, sizes))
            continue
        if "immutability" in policy.oracles:
            findings += immutability.check_inputs_unchanged(graph, inputs, outcome.inputs_after)
        if "numeric" in policy.oracles:
            result = check_numbers(graph, sizes, inputs, outcome.outputs, jax=policy.jax)
            findings += result.findings
            discarded += result.discarded
    platform = platform_of(artifact)
    findings = [f.with_case(case.to_json()).with_evidence(platform=platform) for f in findings]
    return CaseResult(case, tuple(_first_per_signature(findings)), discarded,
                      tuple(d.pipeline for d in dispatches), artifact.cpu.name, artifact.compiler_version,
                      compile_seconds, time.perf_counter() - started)


def check_numbers(graph: Graph, sizes: dict, inputs: Sequence[np.ndarray], actual: Sequence[np.ndarray],
                  *, jax: str = "always") -> numeric.NumericResult:
    """The numeric oracle wired to the references: JAX to compare with, float64 (with error bounds) to arbitrate."""
    run_jax = lambda: reference.evaluate(graph, inputs, sizes, "jax")
    expected = run_jax() if jax == "always" else run_jax
    return numeric.check_numeric(graph, sizes, inputs, actual, expected,
                                 lambda xs: reference.evaluate_with_bounds(graph, xs, sizes))


def returns_constant_data(graph: Graph) -> bool:
    """True if some output is computed from index/constant producers alone (so a dispatch that
    materializes it is required, not a fusion failure)."""
    constant: set[str] = set()
    for i, node in enumerate(graph.nodes):
        if all(r in constant for r in node.inputs) and (node.inputs or node.op in PRODUCER_OPS):
            constant.add(f"n{i}")
    return any(o in constant for o in graph.outputs)


def _first_per_signature(findings: Iterable[Finding]) -> list[Finding]:
    seen: dict[str, Finding] = {}
    for f in findings:
        seen.setdefault(f.signature, f)
    return list(seen.values())
