"""pow_int: x ** n for an integer exponent computed at run time, as math.fpowi (generators/ops/elementwise.py): its
reference and error rows, its emission, and a real compile where a positive base is clean, an injected fault is
caught, and a negative base shows IREE's own bug (math.fpowi of a run-time exponent expanded as exp(n * log x))."""

from __future__ import annotations

import numpy as np
import pytest

from ireefuzz.generators.builder import GraphBuilder
from ireefuzz.generators.case import Case
from ireefuzz.oracles.numeric import far_from_float64, tolerance
from ireefuzz.oracles.reference import evaluate as reference
from ireefuzz.oracles.reference import evaluate_with_bounds

X = np.array([-2.0, -0.5, -3.0, 2.0, 0.0, 1.5, -1.25, 0.0], np.float32)
N = np.array([3, -3, 2, 7, -1, 0, -2, 0], np.int32)
EXPECTED = [-8.0, 4.0, 9.0, 8.0, np.inf, 1.0, 0.64, 1.0]  # by hand: the exponent clamped to [-2, 3]


def _pow(shape: tuple = (8,), dtype: str = "f32") -> GraphBuilder:
    b = GraphBuilder()
    x = b.arg(shape)
    if dtype != "f32":
        x = b.op("cast", x, to=dtype)
    b.output(b.op("pow_int", x, b.arg(shape, "i32")))
    return b


@pytest.mark.parametrize("backend", ["f64", "jax"])
def test_the_reference_is_x_to_the_clamped_exponent(backend):
    (out,) = reference(_pow().build(), [X, N], {}, backend)
    np.testing.assert_allclose(np.asarray(out, np.float64), EXPECTED, rtol=1e-6)


@pytest.mark.parametrize("dtype", ["f32", "f16", "bf16"])
def test_xla_lands_within_the_bounds_and_a_few_percent_off_does_not(dtype):
    graph = _pow((256,), dtype).build()
    rng = np.random.default_rng(0)
    x = (rng.integers(-16, 17, 256) / 8).astype(np.float32)
    n = rng.integers(-8, 9, 256).astype(np.int32)
    (truth,), (bound,) = evaluate_with_bounds(graph, [x, n], {})
    rtol = tolerance(graph, {})
    (xla,) = reference(graph, [x, n], {}, "jax")
    assert not far_from_float64(np.asarray(xla, np.float64), truth, bound, dtype, rtol).any()
    if dtype == "f32":  # as the math functions' test: f16's tolerance admits a few percent near 1
        finite = np.isfinite(truth) & (truth != 0)
        assert far_from_float64(truth * 1.03 + 0.01, truth, bound, dtype, rtol)[finite].all()


def test_it_is_emitted_as_fpowi_of_the_clamped_exponent_and_parses():
    from ireefuzz.generators.emit import emit
    from ireefuzz.oracles.ir import parse_ir

    text = emit(_pow().build()).text
    parse_ir(text)
    assert "math.fpowi" in text and "arith.maxsi" in text and "arith.minsi" in text


def _case(negative: bool) -> Case:
    """exp(x) ** n: a positive base, never 0; negated, a negative one."""
    b = GraphBuilder()
    base = b.op("exp", b.arg(("M",)))
    if negative:
        base = b.op("negate", base)
    b.output(b.op("pow_int", base, b.arg(("M",), "i32")))
    return Case(b.build(), ({"M": 16},), seed=41)


@pytest.mark.iree
def test_a_positive_base_is_clean_and_an_injected_fault_is_caught(monkeypatch):
    from test_model_ops import bump, run_with

    assert run_with(monkeypatch, _case(negative=False)) == []
    assert run_with(monkeypatch, _case(negative=False), bump) == ["numeric/wrong-value/exp>pow_int/f32/?"]


@pytest.mark.iree
def test_a_negative_base_is_the_real_bug():
    """IREE 3.13 on x86: math.fpowi whose exponent is not a constant is expanded through exp(n * log(x)) in
    iree-codegen-math-transform, so every negative base gives NaN ((-2)^3 = NaN); a constant exponent is expanded
    to multiplications and is right. math.fpowi is the op upstream names for negative bases (iree-org/iree#19996,
    llvm/llvm-project#127256). When IREE fixes it, this assertion fails: update the record."""
    from ireefuzz.core.evaluate import evaluate

    (result,) = evaluate([_case(negative=True)])
    assert [f.signature for f in result.findings if f.oracle == "numeric"] == [
        "numeric/nan-mismatch/exp>negate>pow_int/f32/?"
    ]
