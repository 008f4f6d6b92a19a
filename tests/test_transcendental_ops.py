"""The math functions frontends emit as math-dialect ops (``generators/ops/elementwise.py`` TRANSCENDENTAL, and a
rotary embedding's ``inv_freq``, a powf of a constant base): their reference rows, their error bounds, their
emission, and a real compile that is clean, catches an injected fault, and finds the real IREE bug of one of them
(asinh's expansion, stop 41)."""

from __future__ import annotations

import math

import numpy as np
import pytest

from ireefuzz.generators.builder import GraphBuilder
from ireefuzz.generators.case import Case
from ireefuzz.generators.ops import TRANSCENDENTAL_OPS
from ireefuzz.oracles.numeric import far_from_float64, tolerance
from ireefuzz.oracles.reference import evaluate as reference
from ireefuzz.oracles.reference import evaluate_with_bounds

X = np.array([-2.0, -1.25, -0.5, 0.0, 0.375, 1.0, 2.5], np.float32)
ATTRS = {"inv_freq": {"base": 10000.0, "dim": 64}}
OPS = (*TRANSCENDENTAL_OPS, "inv_freq")
EXPECTED = {  # by hand (math module, float64)
    "asinh": [math.asinh(v) for v in X],
    "erf": [math.erf(v) for v in X],
    "sin": [math.sin(v) for v in X],
    "cos": [math.cos(v) for v in X],
    "atan": [math.atan(v) for v in X],
    "expm1": [math.expm1(v) for v in X],
    "log1p": [math.log1p(abs(v)) for v in X],
    "rsqrt": [1 / math.sqrt(abs(v) + 1) for v in X],
    "sigmoid": [1 / (1 + math.exp(-v)) for v in X],
    "gelu": [v / 2 * (1 + math.erf(v / math.sqrt(2))) for v in X],
    "exp2": [2.0**v for v in X],
    "round_even": [-2.0, -1.0, -0.0, 0.0, 0.0, 1.0, 2.0],  # ties to the even neighbour: -0.5 -> -0, 2.5 -> 2
    "inv_freq": [10000.0 ** (-v / 64) for v in X],
}


def _each_op(dtype: str = "f32", shape: tuple = (7,)) -> GraphBuilder:
    b = GraphBuilder()
    x = b.arg(shape)
    if dtype != "f32":
        x = b.op("cast", x, to=dtype)
    for op in OPS:
        b.output(b.op(op, x, **ATTRS.get(op, {})))
    return b


def test_every_added_function_has_a_hand_computed_value():
    assert set(EXPECTED) == set(OPS)


@pytest.mark.parametrize("backend", ["f64", "jax"])
def test_reference_rows_give_the_functions_values(backend):
    graph = _each_op().build()
    outs = reference(graph, [X], {}, backend)
    for op, out in zip(OPS, outs):
        np.testing.assert_allclose(np.asarray(out, np.float64), EXPECTED[op], rtol=2e-6, atol=1e-7, err_msg=op)


@pytest.mark.parametrize("dtype", ["f32", "f16", "bf16"])
def test_xla_lands_within_the_error_bounds(dtype):
    """The bounds admit a correct implementation computing in the program's dtype: JAX's (XLA's) results on the
    drawn input range lie within them (a bound too tight would make every correct compiler a finding)."""
    graph = _each_op(dtype, (129,)).build()
    x = np.linspace(-2.0, 2.0, 129).astype(np.float32)
    truths, bounds = evaluate_with_bounds(graph, [x], {})
    rtol = tolerance(graph, {})
    for op, got, truth, bound in zip(OPS, reference(graph, [x], {}, "jax"), truths, bounds):
        assert not far_from_float64(np.asarray(got, np.float64), truth, bound, dtype, rtol).any(), op


def test_a_result_off_by_a_few_percent_is_outside_the_bounds():
    graph = _each_op(shape=(129,)).build()
    x = np.linspace(-2.0, 2.0, 129).astype(np.float32)
    truths, bounds = evaluate_with_bounds(graph, [x], {})
    rtol = tolerance(graph, {})
    for op, truth, bound in zip(OPS, truths, bounds):
        assert far_from_float64(truth * 1.03 + 0.01, truth, bound, "f32", rtol).all(), op


def test_each_function_is_emitted_as_its_math_op_and_parses():
    from ireefuzz.generators.emit import emit
    from ireefuzz.oracles.ir import parse_ir

    text = emit(_each_op().build()).text
    parse_ir(text)
    for op in ("asinh", "erf", "sin", "cos", "atan", "expm1", "log1p", "rsqrt", "exp", "exp2", "roundeven", "powf"):
        assert f"math.{op} " in text, op


def _clean_case(dtype: str) -> Case:
    b = GraphBuilder()
    x = b.arg(("M", 9))
    if dtype != "f32":
        x = b.op("cast", x, to=dtype)
    for op in OPS:
        b.output(b.op(op, x, **ATTRS.get(op, {})))
    return Case(b.build(), ({"M": 7}, {"M": 1}), seed=31)


def asinh_of_large_negative_values() -> Case:
    """The drawn inputs (in [-2, 2]) times CLIP's logit scale 100 reach -200, where asinh's expansion
    log(x + sqrt(x^2 + 1)) cancels: off by 5e-3 in f32 (a thousand times the tolerance)."""
    b = GraphBuilder()
    b.output(b.op("asinh", b.op("scale", b.arg(("M",)), by=100.0)))
    return Case(b.build(), ({"M": 64},), seed=32)


def asinh_of_exported_large_negative_values() -> Case:
    """The same values in ops JAX exports (scale has no StableHLO export): -exp(exp(x)) reaches -1618 at x = 2."""
    b = GraphBuilder()
    b.output(b.op("asinh", b.op("negate", b.op("exp", b.op("exp", b.arg(("M",)))))))
    return Case(b.build(), ({"M": 64},), seed=32)


@pytest.mark.iree
@pytest.mark.parametrize("dtype", ["f32", "f16"])
def test_the_functions_compile_clean_and_an_injected_fault_is_caught(monkeypatch, dtype):
    from test_model_ops import bump, run_with

    prefix = "" if dtype == "f32" else "cast>"
    assert run_with(monkeypatch, _clean_case(dtype)) == []
    caught = run_with(monkeypatch, _clean_case(dtype), bump)
    assert caught == sorted(f"numeric/wrong-value/{prefix}{op}/{dtype}/?xS" for op in OPS)


@pytest.mark.iree
def test_asinh_of_a_large_negative_value_is_the_real_bug_and_the_stablehlo_path_is_clean():
    """IREE 3.7-3.13 on every x86 CPU: math.asinh expands to log(x + sqrt(x^2 + 1)) (MLIR's ExpandPatterns, no
    |x|), which cancels for x << 0 (asinh(-1e4) = -inf in f32). JAX's export of the same graph is chlo.asinh,
    decomposed on |x|: clean. When IREE fixes the expansion, the first assertion fails: update the record."""
    from ireefuzz.core.evaluate import evaluate
    from ireefuzz.core.frontends import STABLEHLO

    (drawn, linalg) = evaluate([asinh_of_large_negative_values(), asinh_of_exported_large_negative_values()])
    assert [f.signature for f in drawn.findings] == ["numeric/wrong-value/scale>asinh/f32/?"]
    assert [f.signature for f in linalg.findings] == ["numeric/wrong-value/exp>negate>asinh/f32/?"]
    (stablehlo,) = evaluate([asinh_of_exported_large_negative_values()], frontend=STABLEHLO)
    assert stablehlo.findings == () or list(stablehlo.findings) == []
    assert stablehlo.discarded == 0
