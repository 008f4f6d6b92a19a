"""The cross-front-end relation: one graph through the linalg and the StableHLO frontend must agree.

``cross_frontend(case, config)`` builds, compiles and runs the program of each frontend (the
Frontend values of ``ireefuzz.core.frontends``: their program, flags and admitted shape instances) and
relates them (oracle ``metamorphic``): their outputs agree within ``numeric.tolerance`` with the
float64 arbiter deciding which side is wrong (``frontend-mismatch``), their dispatch counts match
(``frontend-dispatch-count``) and their allocation profiles have the same memory-op families
(``frontend-alloca-asymmetry``, ``-alloc-``, ``-copy-``). Signatures follow the metamorphic
oracle's convention, the label naming the deviating path:
``metamorphic/frontend-mismatch/exp>add[frontend:stablehlo]/f32/?x?``.

A relation, kept here until the relations module (variants built and observed) takes it in.
"""

from __future__ import annotations

import dataclasses
from typing import Any, Mapping, Sequence

import numpy as np

from ireefuzz import sut
from ireefuzz.generators.case import Case
from ireefuzz.generators.graph import Graph, dims_pattern
from ireefuzz.oracles import fusion, memory, numeric
from ireefuzz.oracles.finding import Finding, first_per_signature, make_signature
from ireefuzz.oracles.metamorphic import FAMILIES
from ireefuzz.oracles.registry import spec_of

from .evaluate import LINALG, config_for
from .frontends import FRONTENDS, STABLEHLO, exportable_instances

SIDES = ("linalg", "stablehlo")


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
    """Compile ``case.graph`` through both frontends (one module each) and run the instances both accept."""
    config = dataclasses.replace(config_for(case, config), observe=True)
    runs = {}
    for frontend in (LINALG, STABLEHLO):
        text = frontend.program({"main": frontend.payload(case, "main")}).text
        compiled_with = frontend.configure(config)
        artifact = sut.compile_mlir(text, compiled_with)
        outputs: list[Any] = []
        if isinstance(artifact, sut.Artifact):
            module = sut.load_module(artifact, compiled_with)
            if isinstance(module, sut.CompileFailure):
                artifact = module  # a module the runtime rejects
            else:
                for k, _ in shared_instances(case):
                    outcome = module.call("main", case.inputs(k))
                    outputs.append(outcome if isinstance(outcome, sut.RunFailure) else outcome.outputs)
        runs[frontend.name] = FrontendRun(frontend.name, text, artifact, tuple(outputs))
    return runs


def shared_instances(case: Case) -> list[tuple[int, Mapping[str, int]]]:
    """(index, sizes) of the shape instances both frontends accept (the exported program's contract)."""
    admitted = exportable_instances(case)
    kept = admitted.instances if admitted is not None else ()
    return [(k, sizes) for k, sizes in enumerate(case.instances) if sizes in kept]


def cross_frontend(case: Case, config: sut.CompilerConfig = sut.CompilerConfig()) -> list[Finding]:
    """Findings of the linalg-vs-StableHLO relation for one case (compile failures are the crash oracle's)."""
    return relate_frontends(case, run_frontends(case, config))


def relate_frontends(case: Case, runs: Mapping[str, FrontendRun]) -> list[Finding]:
    """The relation on two recorded runs (tests inject faults by editing a run's outputs)."""
    linalg, shlo = runs["linalg"], runs["stablehlo"]
    findings = [
        FRONTENDS[side].compile_failure(run.artifact, run.program_text, {"main": case})
        for side, run in runs.items()
        if isinstance(run.artifact, sut.CompileFailure)
    ]
    if findings:
        return [f.with_case(case.to_json()) for f in findings]
    assert isinstance(linalg.artifact, sut.Artifact) and isinstance(shlo.artifact, sut.Artifact)  # none failed
    graph = case.graph
    for (k, sizes), ours, theirs in zip(shared_instances(case), linalg.outputs, shlo.outputs):
        if isinstance(ours, sut.RunFailure) or isinstance(theirs, sut.RunFailure):
            continue  # the crash oracle of each path reports it
        findings += compare_outputs(graph, sizes, case.inputs(k), ours, theirs, seed=case.seed + k)
    findings += compare_profiles(graph, linalg.artifact, shlo.artifact)
    return [f.with_case(case.to_json()) for f in first_per_signature(findings)]


def compare_outputs(
    graph: Graph,
    sizes: Mapping[str, int],
    inputs: Sequence[np.ndarray],
    linalg_outputs: Sequence[np.ndarray],
    stablehlo_outputs: Sequence[np.ndarray],
    *,
    seed: int = 0,
) -> list[Finding]:
    """IREE vs IREE: the numeric oracle with the linalg path's outputs in the reference's seat and the
    float64 arbiter deciding which path is wrong; ill-conditioned disagreements are discarded as there."""
    from ireefuzz.oracles import reference

    arbiter = lambda xs: reference.evaluate_with_bounds(graph, xs, sizes)
    result = numeric.check_numeric(graph, sizes, inputs, stablehlo_outputs, linalg_outputs, arbiter)
    out = []
    for f in result.findings:
        # the numeric oracle blames the IREE seat (stablehlo); the reference's blames the expected seat (linalg)
        wrong = "stablehlo" if spec_of(f.oracle).blames == "iree" else "linalg"
        ref = graph.outputs[f.evidence.get("output", 0)]
        t = graph.type_of(ref)
        evidence = dict(f.evidence)
        evidence["linalg"], evidence["stablehlo"] = evidence.pop("jax", None), evidence.pop("iree", None)
        out.append(
            _finding(
                "frontend-mismatch",
                numeric.cone_ops(graph, ref),
                wrong,
                t.dtype,
                dims_pattern([t.shape]),
                f"the {wrong} path is wrong where the front-ends disagree (float64 decides): {f.message}",
                evidence | {"wrong": wrong, "detail": f.kind},
            )
        )
    return out


def compare_profiles(graph: Graph, linalg: sut.Artifact, stablehlo: sut.Artifact) -> list[Finding]:
    """Dispatch counts and the memory-op families (``metamorphic.FAMILIES``) of the two compiled programs."""
    artifacts = {"linalg": linalg, "stablehlo": stablehlo}
    ops, dtype, dims = graph.op_pattern, graph.dtype, graph.dims
    findings = []
    counts = {name: _dispatch_count(a) for name, a in artifacts.items()}
    if counts["linalg"] != counts["stablehlo"]:
        more = max(counts, key=lambda name: counts[name])
        findings.append(
            _finding(
                "frontend-dispatch-count",
                ops,
                more,
                dtype,
                dims,
                f"{counts['linalg']} dispatches from linalg, {counts['stablehlo']} from StableHLO",
                {
                    "dispatch_count": counts,
                    "dispatches": {n: [d.name for d in a.dispatches] for n, a in artifacts.items()},
                },
            )
        )
    profiles = {name: memory.profile(a.dispatches) for name, a in artifacts.items()}
    for family, kinds in FAMILIES.items():
        totals = {name: sum(p.get(k, 0) for k in kinds) for name, p in profiles.items()}
        present = [name for name in SIDES if totals[name]]
        if len(present) == 1:
            findings.append(
                _finding(
                    f"frontend-{family}-asymmetry",
                    ops,
                    present[0],
                    dtype,
                    dims,
                    f"{family} present only in the {present[0]} path's codegen ({totals[present[0]]} vs 0)",
                    {"profiles": profiles, "family": family},
                )
            )
    return findings


def _finding(
    kind: str, ops: str, side: str, dtype: str, dims: str, message: str, evidence: Mapping[str, Any]
) -> Finding:
    """``metamorphic/<kind>/<ops>[frontend:<side>]/<dtype>/<dims>`` (the metamorphic oracle's label convention)."""
    return Finding(
        "metamorphic",
        kind,
        make_signature("metamorphic", kind, f"{ops}[frontend:{side}]", dtype, dims),
        message,
        dict(evidence) | {"relation": "frontend", "variant": side},
    )


def _dispatch_count(artifact: sut.Artifact) -> int:
    count = fusion.statistic(artifact.statistics, "dispatch-count")
    return len(artifact.dispatches) if count is None else count
