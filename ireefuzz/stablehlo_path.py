"""The StableHLO front-end: the same cases checked through ``jax.export`` -> ``iree-compile
--iree-input-type=stablehlo``, and the cross-front-end relation between the two paths.

``evaluate_stablehlo(cases, config, policy)`` is ``evaluate.evaluate`` with the program exported
instead of emitted: every oracle runs (numeric, immutability, crash, memory, fusion), through the
same ``evaluate.check_compiled_case``. Differences from the linalg path:

* a shape instance with a 0-sized symbol is skipped (JAX symbolic dims are >= 1; such an instance
  violates the exported program's contract, not IREE's);
* a compile failure is signed by the failing op the diagnostic names and the gist of its message,
  with no graph dtype or dims
  (``crash/compile-error/stablehlo.dynamic_reshape[failed-to-legalize-operation-that-was]/-/-``):
  one legalization bug of shape-polymorphic export is one signature, whatever graph reached it;
* a graph JAX cannot export (``ExportError``) is a limit of this path: its result has no findings
  and ``discarded=1``.

``cross_frontend(case, config)`` compiles the linalg and the StableHLO program of one graph and
relates them (oracle ``metamorphic``): their outputs agree within ``numeric.tolerance`` with the
float64 arbiter deciding which side is wrong (``frontend-mismatch``), their dispatch counts match
(``frontend-dispatch-count``) and their allocation profiles have the same memory-op families
(``frontend-alloca-asymmetry``, ``-alloc-``, ``-copy-``). Signatures follow the metamorphic
oracle's convention, the label naming the deviating path:
``metamorphic/frontend-mismatch/exp>add[frontend:stablehlo]/f32/?x?``.
"""
from __future__ import annotations

import dataclasses
import itertools
import re
from typing import Any, Mapping, Sequence

import numpy as np

from ireefuzz.generators.case import Case
from ireefuzz.generators.emit import emit
from ireefuzz.generators.graph import Graph
from ireefuzz.generators.stablehlo import INPUT_FLAGS, ExportError, export_functions, export_graph, module_of, nonzero_instances
from ireefuzz.oracles import crash, fusion, memory, numeric
from ireefuzz.oracles.finding import Finding, dims_pattern, make_signature
from ireefuzz.oracles.metamorphic import FAMILIES

from . import sut
from .evaluate import CaseResult, Frontend, Policy, config_for, evaluate_batch

FRONTENDS = ("linalg", "stablehlo")


def stablehlo_config(base: sut.CompilerConfig) -> sut.CompilerConfig:
    flags = tuple(base.flags)
    return dataclasses.replace(base, flags=flags + tuple(f for f in INPUT_FLAGS if f not in flags))


def compile_failure_finding(failure: sut.CompileFailure, program_text: str) -> Finding:
    """The crash oracle's finding for a StableHLO program, signed by the failing op: the op the diagnostic
    names (``failed to legalize operation 'stablehlo.dynamic_reshape'``, ``'stablehlo.constant' op result
    must be statically shaped``), else the op at the located line; no graph dtype or dims, so one
    legalization bug is one signature whatever graph reached it."""
    finding = crash.check_compile_failure(failure, program_text, None)  # no graphs: dtype and dims "-"
    _, source_op, _, message = crash.locate(program_text, failure.diagnostic)
    named = _QUOTED_OP.search(message)
    failing_op = named.group(1) if named else source_op or "-"
    signature = finding.signature
    if failure.kind == "error":
        signature = make_signature("crash", finding.kind, f"{failing_op}[{crash.gist(message)}]", "-", "-")
    return dataclasses.replace(finding, signature=signature, evidence=dict(finding.evidence) | {
        "frontend": "stablehlo", "failing_op": failing_op, "source_op": source_op})


_QUOTED_OP = re.compile(r"'([a-z_]+\.[a-z_.]+)'")


# --------------------------------------------------------------------------- every oracle on this path


def evaluate_stablehlo(cases: Sequence[Case], base: sut.CompilerConfig = sut.CompilerConfig(),
                       policy: Policy = Policy()) -> list[CaseResult]:
    """Check ``cases`` through the StableHLO path, one module per group of cases with the same configuration."""
    results: dict[int, CaseResult] = {}
    runnable: list[int] = []
    for i, case in enumerate(cases):
        instances = nonzero_instances(case.instances)
        if not instances:
            results[i] = CaseResult(case, (), discarded=1)
        else:
            runnable.append(i)
    key = lambda i: (cases[i].target_cpu, cases[i].flags)
    for _, group in itertools.groupby(sorted(runnable, key=key), key=key):
        indices = list(group)
        config = stablehlo_config(config_for(cases[indices[0]], base))
        trimmed = [dataclasses.replace(cases[i], instances=tuple(nonzero_instances(cases[i].instances))) for i in indices]
        exported: dict[str, tuple[str, ...]] = {}  # function name -> its func texts
        named: list[tuple[int, Case, str]] = []
        for i, case in zip(indices, trimmed):
            try:  # each graph is exported once (tens of ms); its functions keep their name when a batch splits
                exported[f"g{i}"] = export_functions(case.graph, f"g{i}")
                named.append((i, case, f"g{i}"))
            except ExportError:
                results[i] = CaseResult(cases[i], (), discarded=1)
        frontend = Frontend("stablehlo", module_of, lambda case, name: exported[name],
                            lambda failure, text, graphs: compile_failure_finding(failure, text))
        batch = evaluate_batch([(name, c) for _, c, name in named], config, policy, frontend)
        for (i, *_), r in zip(named, batch):
            results[i] = dataclasses.replace(r, case=cases[i])
    return [results[i] for i in range(len(cases))]


# --------------------------------------------------------------------------- cross-front-end relation


@dataclasses.dataclass(frozen=True)
class FrontendRun:
    """One graph through one front-end: its compile outcome and its outputs per shape instance."""

    frontend: str
    program_text: str
    artifact: sut.Artifact | sut.CompileFailure
    outputs: tuple[tuple[np.ndarray, ...] | sut.RunFailure, ...] = ()  # one entry per shape instance

    @property
    def compiled(self) -> bool:
        return isinstance(self.artifact, sut.Artifact)


def run_frontends(case: Case, config: sut.CompilerConfig = sut.CompilerConfig()) -> dict[str, FrontendRun]:
    """Compile ``case.graph`` through both front-ends (one module each) and run the instances both accept."""
    config = dataclasses.replace(config_for(case, config), observe=True)
    programs = {"linalg": (emit(case.graph, "main").text, config),
                "stablehlo": (export_graph(case.graph, "main").text, stablehlo_config(config))}
    instances = nonzero_instances(case.instances)
    runs = {}
    for frontend, (text, cfg) in programs.items():
        artifact = sut.compile_mlir(text, cfg)
        outputs: list[Any] = []
        if isinstance(artifact, sut.Artifact):
            module = sut.load_module(artifact, cfg)
            for k, sizes in enumerate(case.instances):
                if sizes not in instances:
                    continue
                outcome = module.call("main", case.inputs(k))
                outputs.append(outcome if isinstance(outcome, sut.RunFailure) else outcome.outputs)
        runs[frontend] = FrontendRun(frontend, text, artifact, tuple(outputs))
    return runs


def cross_frontend(case: Case, config: sut.CompilerConfig = sut.CompilerConfig()) -> list[Finding]:
    """Findings of the linalg-vs-StableHLO relation for one case (compile failures are the crash oracle's)."""
    return relate_frontends(case, run_frontends(case, config))


def relate_frontends(case: Case, runs: Mapping[str, FrontendRun]) -> list[Finding]:
    """The relation on two recorded runs (tests inject faults by editing a run's outputs)."""
    linalg, shlo = runs["linalg"], runs["stablehlo"]
    findings: list[Finding] = []
    if not linalg.compiled:
        findings.append(crash.check_compile_failure(linalg.artifact, linalg.program_text, {"main": case.graph}))
    if not shlo.compiled:
        findings.append(compile_failure_finding(shlo.artifact, shlo.program_text))
    if findings:
        return [f.with_case(case.to_json()) for f in findings]
    graph = case.graph
    k_instances = [(k, s) for k, s in enumerate(case.instances) if s in nonzero_instances(case.instances)]
    for (k, sizes), ours, theirs in zip(k_instances, linalg.outputs, shlo.outputs):
        if isinstance(ours, sut.RunFailure) or isinstance(theirs, sut.RunFailure):
            continue  # the crash oracle of each path reports it
        findings += compare_outputs(graph, sizes, case.inputs(k), ours, theirs, seed=case.seed + k)
    findings += compare_profiles(graph, linalg.artifact, shlo.artifact)
    seen: dict[str, Finding] = {}
    for f in findings:
        seen.setdefault(f.signature, f.with_case(case.to_json()))
    return list(seen.values())


def compare_outputs(graph: Graph, sizes: Mapping[str, int], inputs: Sequence[np.ndarray],
                    linalg_outputs: Sequence[np.ndarray], stablehlo_outputs: Sequence[np.ndarray],
                    *, seed: int = 0) -> list[Finding]:
    """IREE vs IREE: the numeric oracle with the linalg path's outputs in the reference's seat and the
    float64 arbiter deciding which path is wrong; ill-conditioned disagreements are discarded as there."""
    from ireefuzz.oracles import reference

    arbiter = lambda xs: reference.evaluate_with_bounds(graph, xs, sizes)
    result = numeric.check_numeric(graph, sizes, inputs, stablehlo_outputs, linalg_outputs, arbiter)
    out = []
    for f in result.findings:
        wrong = "stablehlo" if f.oracle == "numeric" else "linalg"  # "reference": the expected seat (linalg) is wrong
        ref = graph.outputs[f.evidence.get("output", 0)]
        t = graph.type_of(ref)
        evidence = dict(f.evidence)
        evidence["linalg"], evidence["stablehlo"] = evidence.pop("jax", None), evidence.pop("iree", None)
        out.append(_finding("frontend-mismatch", numeric.cone_ops(graph, ref), wrong, t.dtype, dims_pattern([t.shape]),
                            f"the {wrong} path is wrong where the front-ends disagree (float64 decides): {f.message}",
                            evidence | {"wrong": wrong, "detail": f.kind}))
    return out


def compare_profiles(graph: Graph, linalg: sut.Artifact, stablehlo: sut.Artifact) -> list[Finding]:
    """Dispatch counts and the memory-op families (``metamorphic.FAMILIES``) of the two compiled programs."""
    artifacts = {"linalg": linalg, "stablehlo": stablehlo}
    ops, dtype, dims = graph.op_pattern, graph.dtype, graph.dims
    findings = []
    counts = {name: _dispatch_count(a) for name, a in artifacts.items()}
    if counts["linalg"] != counts["stablehlo"]:
        more = max(counts, key=counts.get)
        findings.append(_finding(
            "frontend-dispatch-count", ops, more, dtype, dims,
            f"{counts['linalg']} dispatches from linalg, {counts['stablehlo']} from StableHLO",
            {"dispatch_count": counts, "dispatches": {n: [d.name for d in a.dispatches] for n, a in artifacts.items()}}))
    profiles = {name: memory.profile(a.dispatches) for name, a in artifacts.items()}
    for family, kinds in FAMILIES.items():
        totals = {name: sum(p.get(k, 0) for k in kinds) for name, p in profiles.items()}
        present = [name for name in FRONTENDS if totals[name]]
        if len(present) == 1:
            findings.append(_finding(
                f"frontend-{family}-asymmetry", ops, present[0], dtype, dims,
                f"{family} present only in the {present[0]} path's codegen ({totals[present[0]]} vs 0)",
                {"profiles": profiles, "family": family}))
    return findings


def _finding(kind: str, ops: str, side: str, dtype: str, dims: str, message: str, evidence: Mapping[str, Any]) -> Finding:
    """``metamorphic/<kind>/<ops>[frontend:<side>]/<dtype>/<dims>`` (the metamorphic oracle's label convention)."""
    return Finding("metamorphic", kind, make_signature("metamorphic", kind, f"{ops}[frontend:{side}]", dtype, dims),
                   message, dict(evidence) | {"relation": "frontend", "variant": side})


def _dispatch_count(artifact: sut.Artifact) -> int:
    count = fusion.statistic(artifact.statistics, "dispatch-count")
    return len(artifact.dispatches) if count is None else count
