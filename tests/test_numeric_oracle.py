"""Numeric oracle: fault injection on real reference outputs (no compiler needed).

Each fault must be caught with the right signature; a correct output must pass; a disagreement
the float64 arbiter does not back up must be discarded or blamed on JAX, never on IREE.
"""

import numpy as np
import pytest

from ireefuzz.core.evaluate import check_numbers
from ireefuzz.generators.case import Case
from ireefuzz.generators.graph import Graph, Node, TensorType
from ireefuzz.oracles.reference import evaluate, evaluate_with_bounds
from tests.test_graph import fme_graph

SIZES = {"M": 33, "N": 49}


def fme_case():
    case = Case(fme_graph(), (SIZES,), seed=3)
    inputs = case.inputs(0)
    return case.graph, inputs, evaluate(case.graph, inputs, SIZES, "jax")


def signatures(result):
    return [f.signature for f in result.findings]


def test_correct_output_has_no_finding():
    graph, inputs, good = fme_case()
    result = check_numbers(graph, SIZES, inputs, good)
    assert result.findings == () and result.discarded == 0


def test_float64_result_rounded_to_f32_passes():
    graph, inputs, _ = fme_case()
    truth = evaluate(graph, inputs, SIZES, "f64")
    assert check_numbers(graph, SIZES, inputs, [t.astype(np.float32) for t in truth]).findings == ()


@pytest.mark.parametrize("fault", ["wrong-element", "transposed", "wrong-size-values", "spurious-nan", "zeroed-tail"])
def test_injected_faults_are_caught_with_the_numeric_signature(fault):
    graph, inputs, good = fme_case()
    bad = good[0].copy()
    if fault == "wrong-element":
        bad[5, 7] *= 1.01
    elif fault == "transposed":
        square = {"M": 16, "N": 16}
        case = Case(fme_graph(), (square,), seed=3)
        inputs = case.inputs(0)
        bad = evaluate(graph, inputs, square, "jax")[0].T.copy()
        result = check_numbers(graph, square, inputs, [bad])
        assert signatures(result) == ["numeric/wrong-value/fill>matmul>exp/f32/?x?"]
        return
    elif fault == "wrong-size-values":  # computed as if N were 48: the last column is garbage
        bad[:, -1] = 0.0
    elif fault == "spurious-nan":
        bad[0, 0] = np.nan
    elif fault == "zeroed-tail":
        bad[32:, :] = 0.0
    result = check_numbers(graph, SIZES, inputs, [bad])
    kind = "nan-mismatch" if fault == "spurious-nan" else "wrong-value"
    assert signatures(result) == [f"numeric/{kind}/fill>matmul>exp/f32/?x?"]
    evidence = result.findings[0].evidence
    assert {"index", "iree", "jax", "float64", "max_abs_err", "max_rel_err"} <= set(evidence)


def test_wrong_shape_is_its_own_kind():
    graph, inputs, good = fme_case()
    result = check_numbers(graph, SIZES, inputs, [good[0][:, :48]])
    assert signatures(result) == ["numeric/wrong-shape/fill>matmul>exp/f32/?x?"]


def test_wrong_jax_is_a_reference_finding_not_an_iree_one():
    graph, inputs, good = fme_case()
    truth = evaluate(graph, inputs, SIZES, "f64")[0].astype(np.float32)
    wrong_jax = good[0].copy()
    wrong_jax[1, 1] += 1.0
    from ireefuzz.oracles import numeric

    result = numeric.check_numeric(
        graph, SIZES, inputs, [truth], [wrong_jax], lambda xs: evaluate_with_bounds(graph, xs, SIZES)
    )
    assert signatures(result) == ["reference/jax-wrong-value/fill>matmul>exp/f32/?x?"]


def test_integers_are_exact():
    g = Graph(
        (TensorType((8,), "i32"), TensorType((8,), "i32")),
        (Node("add", ("a0", "a1"), {}, TensorType((8,), "i32")),),
        ("n0",),
    ).check()
    inputs = Case(g, ({},)).inputs()
    good = evaluate(g, inputs, {}, "jax")
    assert check_numbers(g, {}, inputs, good).findings == ()
    off_by_one = good[0] + np.array([0, 0, 0, 1, 0, 0, 0, 0], np.int32)
    assert signatures(check_numbers(g, {}, inputs, [off_by_one])) == ["numeric/wrong-value/add/i32/S"]


def test_ill_conditioned_disagreement_is_discarded_not_reported():
    """where(exp(x) > y, 1, -1) with y = exp(x) rounded to f32: which branch a correct f32 implementation
    takes hinges on the last ulp of exp -- either answer is defensible, so neither is reported."""
    t = TensorType((4,), "f32")
    g = Graph(
        (t, t, t, t), (Node("exp", ("a0",), {}, t), Node("where_gt", ("n0", "a1", "a2", "a3"), {}, t)), ("n1",)
    ).check()
    x = np.array([0.5, 1.0, 1.5, 2.0], np.float32)
    y = np.exp(x.astype(np.float64)).astype(np.float32)  # a hair from exp(x): a near-tie
    ones, minus = np.ones(4, np.float32), -np.ones(4, np.float32)
    inputs = [x, y, ones, minus]
    jax_says = evaluate(g, inputs, {}, "jax")[0]
    flipped = [-jax_says]
    result = check_numbers(g, {}, inputs, flipped)
    assert result.findings == () and result.discarded == 1
    exact = Graph((t, t, t, t), (Node("where_gt", ("a0", "a1", "a2", "a3"), {}, t),), ("n0",)).check()
    exact_inputs = [x, np.nextafter(x, np.float32(0)), ones, minus]  # exact values: no excuse for a flip
    assert check_numbers(exact, {}, exact_inputs, [-evaluate(exact, exact_inputs, {}, "jax")[0]]).findings


def test_inf_parity():
    t = TensorType((3,), "f32")
    g = Graph((t,), (Node("exp", ("a0",), {}, t),), ("n0",)).check()
    inputs = [np.array([100.0, 0.0, 1.0], np.float32)]  # exp(100) overflows f32 in every implementation
    good = evaluate(g, inputs, {}, "jax")
    assert np.isinf(good[0][0]) and check_numbers(g, {}, inputs, good).findings == ()
    finite = good[0].copy()
    finite[0] = np.finfo(np.float32).max
    assert check_numbers(g, {}, inputs, [finite]).findings[0].oracle == "numeric"


def test_lazy_jax_runs_only_on_disagreement_and_finds_the_same_bug(monkeypatch):
    from ireefuzz.oracles import reference

    graph, inputs, good = fme_case()
    calls = []
    real = reference.evaluate
    monkeypatch.setattr(reference, "evaluate", lambda g, xs, s, b: calls.append(b) or real(g, xs, s, b))
    assert check_numbers(graph, SIZES, inputs, good, jax="on-disagreement").findings == ()
    assert "jax" not in calls
    bad = good[0].copy()
    bad[2, 3] += 1.0
    result = check_numbers(graph, SIZES, inputs, [bad], jax="on-disagreement")
    assert signatures(result) == ["numeric/wrong-value/fill>matmul>exp/f32/?x?"] and "jax" in calls


def test_recomputed_value_cancellation_is_not_a_finding():
    """x + |x| with x = a matmul: 0 in float64 for x < 0, but an implementation that computes x twice
    (fused, differently vectorized) may round the two copies apart. Seen in a real campaign on 3.13:
    IREE -1.2e-6 where float64 says 0; the per-use jitter of the arbiter must explain it."""
    t = TensorType((4, 4), "f32")
    g = Graph(
        (t, t),
        (
            Node("fill", (), {"shape": [4, 4], "dtype": "f32", "value": 0.0}, t),
            Node("matmul", ("a0", "a1", "n0"), {}, t),
            Node("abs", ("n1",), {}, t),
            Node("add", ("n1", "n2"), {}, t),
        ),
        ("n3",),
    ).check()
    inputs = Case(g, ({},), seed=2).inputs()
    good = evaluate(g, inputs, {}, "jax")[0]
    negative = evaluate(g, inputs, {}, "f64")[0] == 0
    assert negative.any()
    rounded_apart = good.copy()
    rounded_apart[negative] = -1.2e-6
    assert check_numbers(g, {}, inputs, [rounded_apart]).findings == ()
    really_wrong = good.copy()
    really_wrong[negative] = -0.5  # far beyond any rounding of |x| ~ 1
    assert signatures(check_numbers(g, {}, inputs, [really_wrong])) == [
        "numeric/wrong-value/fill>matmul>abs>add/f32/SxS"
    ]


def test_attention_over_no_keys_is_undefined_so_any_answer_is_not_a_finding():
    """Issue 30, measured: attention with N = 0 keys normalizes an empty sum (0 / 0). IREE returns NaN, float64 and
    JAX an empty sum's 0: neither is right, so the disagreement is discarded, never a nan-mismatch."""
    from ireefuzz.generators.builder import GraphBuilder
    from ireefuzz.oracles import numeric, reference

    b = GraphBuilder()
    q, k, v = b.arg((1, "M", 1)), b.arg((1, "N", 1)), b.arg((1, "N", 1))
    b.output(b.op("attention", q, k, v, scale=1.0, causal=False, form="chain"))
    graph, sizes = b.build(), {"M": 1, "N": 0}
    inputs = [np.ones((1, 1, 1), np.float32), np.ones((1, 0, 1), np.float32), np.ones((1, 0, 1), np.float32)]
    arbiter = lambda xs: reference.evaluate_with_bounds(graph, xs, sizes)
    truth, bounds = arbiter(inputs)
    assert (bounds[0] > 1e300).all()  # unbounded: any value is as good as any other
    result = numeric.check_numeric(graph, sizes, inputs, [np.full((1, 1, 1), np.nan, np.float32)], truth, arbiter)
    assert result.findings == () and result.discarded == 1
    keyed = {"M": 1, "N": 1}  # one key: defined, and a NaN is a finding
    one = [np.ones((1, 1, 1), np.float32)] * 3
    arbiter = lambda xs: reference.evaluate_with_bounds(graph, xs, keyed)
    truth, _ = arbiter(one)
    found = numeric.check_numeric(graph, keyed, one, [np.full((1, 1, 1), np.nan, np.float32)], truth, arbiter)
    assert [f.kind for f in found.findings] == ["nan-mismatch"]
