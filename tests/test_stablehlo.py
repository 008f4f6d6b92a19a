"""The StableHLO front-end (jax.export -> iree-compile --iree-input-type=stablehlo) and the
cross-front-end relation, against real JAX and (``iree``-marked) the real IREE compiler and runtime."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import numpy as np
import pytest
from hypothesis import HealthCheck, Phase, given, seed, settings

from ireefuzz.core.evaluate import evaluate
from ireefuzz.core.frontends import STABLEHLO
from ireefuzz.generators.case import Case
from ireefuzz.generators.graph import Graph, Node, TensorType
from ireefuzz.generators.stablehlo import INPUT_FLAGS, export_graph, export_module, jax_function, nonzero_instances
from ireefuzz.generators.strategies import cases
from ireefuzz.oracles import reference

ROOT = Path(__file__).resolve().parent.parent
# Ops whose shape-polymorphic export IREE 3.13 legalizes (gather and a broadcast of a dynamic
# operand do not: see the crash tests below).
CLEAN_OPS = ["add", "exp", "mul", "sub", "tanh", "matmul", "reduce_sum", "reduce_max", "transpose", "cast"]


def T(shape, dtype="f32", bound=None) -> TensorType:
    return TensorType(tuple(shape), dtype, bound)


def exp_add() -> Graph:
    return Graph(
        (T(("M", "N")), T(("M", "N"))),
        (Node("exp", ("a0",), {}, T(("M", "N"))), Node("add", ("n0", "a1"), {}, T(("M", "N")))),
        ("n1",),
    ).check()


def dynamic_gather(dtype: str = "f32", cols: int = 4) -> Graph:
    return Graph(
        (T(("M", cols), dtype), T(("N",), "i32", "M")),
        (Node("gather", ("a0", "a1"), {}, T(("N", cols), dtype)),),
        ("n0",),
    ).check()


def dynamic_broadcast() -> Graph:
    return Graph(
        (T(("M",), "f16"),),
        (Node("broadcast", ("a0",), {"shape": ["M", 65], "dimensions": [1]}, T(("M", 65), "f16")),),
        ("n0",),
    ).check()


def draw(strategy, n: int, at: int) -> list:
    out = []

    @seed(at)
    @settings(
        max_examples=n, deadline=None, database=None, phases=[Phase.generate], suppress_health_check=list(HealthCheck)
    )
    @given(strategy)
    def collect(x):
        out.append(x)

    collect()
    return out[:n]


# --------------------------------------------------------------------------- export (JAX only)


def test_export_is_location_free_and_renamed():
    text = export_graph(exp_add(), "fme").text
    assert "func.func public @fme(" in text and "loc(" not in text
    assert "@main" not in text and "@fme__wrapped_jax_export_main" in text  # helpers are prefixed
    assert "stablehlo.exponential" in text and "tensor<?x?xf32>" in text


def test_graphs_share_one_module_without_symbol_clashes():
    program = export_module({"g0": exp_add(), "g1": dynamic_gather(), "g2": exp_add()})
    assert program.functions == ("g0", "g1", "g2")
    for name in program.functions:
        assert f"func.func public @{name}(" in program.text
    assert "@g1__take" in program.text  # jnp.take's private helper, renamed with its graph


def test_exported_function_is_the_reference():
    graph = exp_add()
    case = Case(graph, ({"M": 3, "N": 5},), seed=4)
    fn, specs = jax_function(graph)
    assert [str(s.shape) for s in specs] == ["(M, N)", "(M, N)"]
    ours = fn(*case.inputs(0))
    theirs = reference.evaluate(graph, case.inputs(0), case.instances[0], "jax")
    np.testing.assert_array_equal(np.asarray(ours[0]), theirs[0])


def test_zero_sized_symbols_are_outside_the_export_contract():
    assert nonzero_instances([{"M": 0, "N": 3}, {"M": 2, "N": 3}, {}]) == [{"M": 2, "N": 3}, {}]


# --------------------------------------------------------------------------- the StableHLO path (IREE)


@pytest.mark.iree
def test_generated_graphs_agree_on_both_paths():
    """Graphs a frontend can emit: a form beyond them (an argument as a reduction's destination) reaches a known
    linalg-only compile error that StableHLO cannot express, whichever draw the generator's weights make."""
    from ireefuzz.generators.frontend_forms import beyond_frontends

    candidates = draw(cases(ops=CLEAN_OPS, dynamic=True, max_nodes=4, dtypes=("f32", "i32")), 24, at=8)
    drawn = [c for c in candidates if not beyond_frontends(c.graph)][:6]
    assert len(drawn) == 6
    for path, results in (("stablehlo", evaluate(drawn, frontend=STABLEHLO)), ("linalg", evaluate(drawn))):
        wrong = [
            (f.signature, r.case)
            for r in results
            for f in r.findings
            if f.oracle in ("numeric", "crash", "immutability")
        ]
        assert not wrong, f"{path} path: {wrong}"


@pytest.mark.iree
def test_legalization_failures_are_crash_findings_deduplicated_by_the_failing_op():
    gathers = [Case(dynamic_gather("f32", 4), ({"M": 7, "N": 3},)), Case(dynamic_gather("f16", 9), ({"M": 2, "N": 5},))]
    results = evaluate(gathers + [Case(dynamic_broadcast(), ({"M": 7},))], frontend=STABLEHLO)
    signatures = [r.signatures for r in results]
    gather_sig = "crash/compile-error/stablehlo.reshape[op-result-must-be-statically-shaped]/-/-"
    assert signatures[:2] == [(gather_sig,), (gather_sig,)]  # two graphs, one bug
    assert results[0].findings[0].evidence["source_op"] == "stablehlo.gather"
    assert signatures[2] == (
        "crash/compile-error/stablehlo.dynamic_broadcast_in_dim[failed-to-legalize-operation-that-was]/-/-",
    )
    static = Case(
        dataclasses.replace(
            dynamic_gather(), args=(T((7, 4)), T((3,), "i32", 7)), nodes=(Node("gather", ("a0", "a1"), {}, T((3, 4))),)
        ).check(),
        ({},),
    )
    assert evaluate([static], frontend=STABLEHLO)[0].findings == ()  # the static gather legalizes and computes right


@pytest.mark.iree
def test_iota_seed_recorded_verdict():
    from ireefuzz.tools.corpus import check_case, load_case

    case = load_case(ROOT / "corpus" / "stablehlo" / "iota_multi_consumer")
    assert case.flags == INPUT_FLAGS
    assert (
        "fusion/materialized-producer/generic[index]/i32/?" in case.expected["fusion"]
    )  # the iota dispatch, dynamic B·51
    assert sorted(f.signature for f in check_case(case)) == sorted(case.expected_signatures)


@pytest.fixture(scope="module")
def exp_add_runs():
    from ireefuzz.core.cross_frontend import run_frontends

    case = Case(exp_add(), ({"M": 33, "N": 17}, {"M": 1, "N": 64}, {"M": 0, "N": 5}), seed=3)
    return case, run_frontends(case)


@pytest.mark.iree
def test_cross_frontend_clean_case_has_no_findings(exp_add_runs):
    from ireefuzz.core.cross_frontend import relate_frontends

    case, runs = exp_add_runs
    assert all(run.compiled for run in runs.values())
    assert len(runs["stablehlo"].outputs) == 2  # the M=0 instance is not run on either path
    assert relate_frontends(case, runs) == []


@pytest.mark.iree
@pytest.mark.parametrize("side", ["stablehlo", "linalg"])
def test_cross_frontend_catches_a_perturbed_path(exp_add_runs, side):
    from ireefuzz.core.cross_frontend import relate_frontends

    case, runs = exp_add_runs
    bad = [tuple(o.copy() for o in outs) for outs in runs[side].outputs]
    bad[0][0][5, 3] += 0.5
    faulty = dict(runs) | {side: dataclasses.replace(runs[side], outputs=tuple(bad))}
    findings = relate_frontends(case, faulty)
    assert [f.signature for f in findings] == [f"metamorphic/frontend-mismatch/exp>add[frontend:{side}]/f32/?x?"]
    assert findings[0].evidence["index"] == [5, 3] and findings[0].evidence["wrong"] == side


@pytest.mark.iree
def test_a_stable_argsort_exports_and_its_ties_are_judged_on_the_stablehlo_path():
    """jnp.argsort exports a stablehlo.sort with is_stable = true; IREE 3.13 drops stability and returns equal keys
    out of order (docs/repros/stablehlo_stable_sort_reorders_equal_keys.mlir, stop 47's JAX spike), which the linalg
    sort (ties broken by position in its comparator) does not: the numeric oracle sees it only on this path."""
    graph = Graph(
        (T((20, 3)),), (Node("sort", ("a0",), {"dim": 0, "result": "indices"}, T((20, 3), "i32")),), ("n0",)
    ).check()
    assert "is_stable = true" in export_graph(graph, "f").text
    case = Case(graph, ({},), seed=3)  # 20 keys of 33 values per column: ties
    (stablehlo,) = evaluate([case], frontend=STABLEHLO)
    assert [f.cause for f in stablehlo.findings if f.oracle == "numeric"] == ["numeric/wrong-value/sort"]
    (linalg,) = evaluate([case])
    assert not [f for f in linalg.findings if f.oracle == "numeric"]
