"""Elementwise ops (one table row each), scale (a multiply by a model's constant), cast and the shifts by a
constant."""

from __future__ import annotations

import dataclasses
import math
from typing import Any, Callable, Mapping, Sequence

from ..tensor import FLOAT_DTYPES, NARROW_FLOATS, TensorType
from .kit import (
    MODULAR_RANGE,
    Body,
    EmitContext,
    OpSpec,
    identity_map,
    is_float,
    maxmin,
    one_operand_generic,
    register,
    result_name,
    same_type,
)

# ---------------------------------------------------------------------------------------------
# Elementwise ops: one table row each. ``float_body`` / ``int_body`` map (Body, operands, dtype) to
# the yielded value; ``None`` means the op is not defined for that dtype class.


@dataclasses.dataclass(frozen=True)
class Elementwise:
    name: str
    arity: int
    float_body: Callable[[Body, list[str], str], str] | None
    int_body: Callable[[Body, list[str], str], str] | None
    bound: Callable[[Sequence[float]], float]
    domain: float = float("inf")  # proposed only on values bounded by this (keeps exp finite)
    modular: bool = False  # an integer result modulo 2^bits: its operands and result may set every bit


def _log_guarded(b: Body, xs: list[str], t: str) -> str:  # log(|x| + 1): defined everywhere
    magnitude = b.op(f"math.absf {xs[0]} : {t}")
    return b.op(f"math.log {b.op(f'arith.addf {magnitude}, {b.const(1.0, t)} : {t}')} : {t}")


def _div_guarded(b: Body, xs: list[str], t: str) -> str:  # x / (|y| + 1): divisor kept away from zero
    magnitude = b.op(f"math.absf {xs[1]} : {t}")
    divisor = b.op(f"arith.addf {magnitude}, {b.const(1.0, t)} : {t}")
    return b.op(f"arith.divf {xs[0]}, {divisor} : {t}")


def _where_gt(b: Body, xs: list[str], t: str) -> str:  # where(x0 > x1, x2, x3)
    cmp = "arith.cmpf ogt" if t in FLOAT_DTYPES else "arith.cmpi sgt"
    return b.op(f"arith.select {b.op(f'{cmp}, {xs[0]}, {xs[1]} : {t}')}, {xs[2]}, {xs[3]} : {t}")


def _bitwise(op: str) -> Callable[[Body, list[str], str], str]:
    return lambda b, xs, t: b.op(f"{op} {xs[0]}, {xs[1]} : {t}")


FULL_RANGE = MODULAR_RANGE["i32"]  # no modular i32 value is larger


ELEMENTWISE_DTYPES = ("f32", "f16", "bf16", "i32", "i64", "i16")  # bf16 / i64 / i16 values come from casts


def _math(op: str) -> Callable[[Body, list[str], str], str]:
    return lambda b, xs, t: b.op(f"{op} {xs[0]} : {t}")


def _of_magnitude_plus_one(op: str) -> Callable[[Body, list[str], str], str]:  # op(|x| + 1): defined everywhere
    def body(b: Body, xs: list[str], t: str) -> str:
        magnitude = b.op(f"math.absf {xs[0]} : {t}")
        return b.op(f"{op} {b.op(f'arith.addf {magnitude}, {b.const(1.0, t)} : {t}')} : {t}")

    return body


def _log1p_of_magnitude(b: Body, xs: list[str], t: str) -> str:  # log1p(|x|): defined everywhere
    return b.op(f"math.log1p {b.op(f'math.absf {xs[0]} : {t}')} : {t}")


def _sigmoid(b: Body, xs: list[str], t: str) -> str:  # 1 / (1 + exp(-x)), as torch-mlir lowers aten.sigmoid
    one = b.const(1.0, t)
    e = b.op(f"math.exp {b.op(f'arith.negf {xs[0]} : {t}')} : {t}")
    return b.op(f"arith.divf {one}, {b.op(f'arith.addf {one}, {e} : {t}')} : {t}")


def _gelu(b: Body, xs: list[str], t: str) -> str:  # x/2 (1 + erf(x / sqrt 2)): BERT's exact GELU, as torch lowers it
    scaled = b.op(f"arith.mulf {xs[0]}, {b.const(0.70710678, t)} : {t}")
    one_plus = b.op(f"arith.addf {b.const(1.0, t)}, {b.op(f'math.erf {scaled} : {t}')} : {t}")
    half = b.op(f"arith.mulf {xs[0]}, {b.const(0.5, t)} : {t}")
    return b.op(f"arith.mulf {half}, {one_plus} : {t}")


# The math functions frontends emit as math-dialect ops (torch-mlir's aten.asinh / erf / sin ..., StableHLO's
# sine / atan / expm1 / log_plus_one / rsqrt / logistic), which the CPU backend expands or approximates by
# polynomials (MathTransformPass): their range reductions and expansions are codegen. Operands that would leave a
# function's domain are mapped into it as log and div do (|x| + 1), so every drawn value is defined.
TRANSCENDENTAL = (
    Elementwise("asinh", 1, _math("math.asinh"), None, lambda bs: math.asinh(bs[0]) + 1),
    Elementwise("erf", 1, _math("math.erf"), None, lambda bs: 1.0),
    Elementwise("sin", 1, _math("math.sin"), None, lambda bs: 1.0, domain=100.0),
    Elementwise("cos", 1, _math("math.cos"), None, lambda bs: 1.0, domain=100.0),
    Elementwise("atan", 1, _math("math.atan"), None, lambda bs: 1.6),
    Elementwise("expm1", 1, _math("math.expm1"), None, lambda bs: 2.72 ** bs[0], domain=6.0),
    Elementwise("log1p", 1, _log1p_of_magnitude, None, lambda bs: math.log1p(bs[0])),
    Elementwise("rsqrt", 1, _of_magnitude_plus_one("math.rsqrt"), None, lambda bs: 1.0),
    Elementwise("sigmoid", 1, _sigmoid, None, lambda bs: 1.0),
    Elementwise("gelu", 1, _gelu, None, lambda bs: bs[0]),
    Elementwise("exp2", 1, _math("math.exp2"), None, lambda bs: 2.0 ** bs[0], domain=8.0),
    # torch.round and StableHLO's round_nearest_even: ties (drawn values are multiples of 1/8) go to the even
    Elementwise("round_even", 1, _math("math.roundeven"), None, lambda bs: bs[0] + 1),
)
TRANSCENDENTAL_OPS = tuple(ew.name for ew in TRANSCENDENTAL)

ELEMENTWISE = (
    Elementwise("exp", 1, lambda b, x, t: b.op(f"math.exp {x[0]} : {t}"), None, lambda bs: 2.72 ** bs[0], domain=6.0),
    Elementwise("tanh", 1, lambda b, x, t: b.op(f"math.tanh {x[0]} : {t}"), None, lambda bs: min(bs[0], 1.0)),
    Elementwise(
        "negate",
        1,
        lambda b, x, t: b.op(f"arith.negf {x[0]} : {t}"),
        lambda b, x, t: b.op(f"arith.subi {b.const(0, t)}, {x[0]} : {t}"),
        lambda bs: bs[0],
    ),
    Elementwise(
        "abs",
        1,
        lambda b, x, t: b.op(f"math.absf {x[0]} : {t}"),
        lambda b, x, t: b.op(f"math.absi {x[0]} : {t}"),
        lambda bs: bs[0],
    ),
    Elementwise(
        "sqrt",
        1,
        lambda b, x, t: b.op(f"math.sqrt {b.op('math.absf ' + x[0] + ' : ' + t)} : {t}"),
        None,
        lambda bs: bs[0] ** 0.5 + 1,
    ),
    Elementwise("log", 1, _log_guarded, None, lambda bs: bs[0]),
    Elementwise(
        "add",
        2,
        lambda b, x, t: b.op(f"arith.addf {x[0]}, {x[1]} : {t}"),
        lambda b, x, t: b.op(f"arith.addi {x[0]}, {x[1]} : {t}"),
        lambda bs: bs[0] + bs[1],
    ),
    Elementwise(
        "sub",
        2,
        lambda b, x, t: b.op(f"arith.subf {x[0]}, {x[1]} : {t}"),
        lambda b, x, t: b.op(f"arith.subi {x[0]}, {x[1]} : {t}"),
        lambda bs: bs[0] + bs[1],
    ),
    Elementwise(
        "mul",
        2,
        lambda b, x, t: b.op(f"arith.mulf {x[0]}, {x[1]} : {t}"),
        lambda b, x, t: b.op(f"arith.muli {x[0]}, {x[1]} : {t}"),
        lambda bs: bs[0] * bs[1],
    ),
    Elementwise("max", 2, maxmin("max"), lambda b, x, t: b.op(f"arith.maxsi {x[0]}, {x[1]} : {t}"), max),
    Elementwise("min", 2, maxmin("min"), lambda b, x, t: b.op(f"arith.minsi {x[0]}, {x[1]} : {t}"), max),
    Elementwise("div", 2, _div_guarded, None, lambda bs: bs[0]),
    Elementwise("where_gt", 4, _where_gt, _where_gt, lambda bs: max(bs[2], bs[3])),
    # the bit ops of hashing and PRNG code (jax.random's threefry: #24927); |a op b| < 2 max(|a|, |b|) + 1, and
    # within the dtype whatever the operands
    *(
        Elementwise(
            f"bitwise_{name}",
            2,
            None,
            _bitwise(f"arith.{name}i"),
            lambda bs: min(2 * max(bs) + 1, FULL_RANGE),
            modular=True,
        )
        for name in ("xor", "or", "and")
    ),
    # threefry's x0 + x1 on uint32: addi wraps modulo 2^32 (add's operands stay small; these may be any bits)
    Elementwise("wrapping_add", 2, None, _bitwise("arith.addi"), lambda bs: min(sum(bs), FULL_RANGE), modular=True),
    *TRANSCENDENTAL,
)


def _register_elementwise(ew: Elementwise) -> None:
    def infer(types: Sequence[TensorType], attrs: Mapping[str, Any]) -> TensorType:
        if len(types) != ew.arity:
            raise ValueError(f"{ew.name} takes {ew.arity} operands, got {len(types)}")
        t = same_type(types)
        if (ew.float_body if is_float(t) else ew.int_body) is None or t.dtype not in ELEMENTWISE_DTYPES:
            raise ValueError(f"{ew.name} is not defined on {t.dtype}")
        return t

    def emit(ctx: EmitContext, node: Any, operands: Sequence[str]) -> str:
        t = node.type
        body_fn = ew.float_body if is_float(t) else ew.int_body
        assert body_fn is not None  # infer refuses a dtype the row has no body for
        ins = [(v, ctx.graph.type_of(r)) for v, r in zip(operands, node.inputs)]
        out = (ctx.init_for(node.index, node, operands), t)
        rank = len(t.shape)
        return ctx.generic(
            result_name(ctx, node),
            ins,
            out,
            [identity_map(rank)] * (len(ins) + 1),
            ["parallel"] * rank,
            lambda b, args: body_fn(b, args[: ew.arity], t.dtype),
        )

    def propose(draw: Callable, pool: Any) -> tuple[tuple[str, ...], dict] | None:
        first = pool.pick(
            draw,
            lambda t, bound: (
                t.dtype in ELEMENTWISE_DTYPES
                and bound <= ew.domain
                and (ew.float_body if is_float(t) else ew.int_body) is not None
            ),
        )
        if first is None:
            return None
        t = pool.type(first)
        rest = [pool.pick(draw, lambda u, _b: (u.shape, u.dtype) == (t.shape, t.dtype)) for _ in range(ew.arity - 1)]
        return (first, *rest), {}

    register(OpSpec(ew.name, infer, emit, lambda bs, attrs, types: ew.bound(bs), propose, modular=ew.modular))


for _ew in ELEMENTWISE:
    _register_elementwise(_ew)


# ---------------------------------------------------------------------------------------------
# int_div / int_rem: arith.divsi / arith.remsi of an integer tensor by a divisor argument (small nonzero integers,
# ``TensorType.divisor``), read as it is: torch's ``a // b`` in index math, JAX's lax.div / lax.rem on integers. The
# float ``div`` guards its divisor inside the body (x / (|y| + 1)), which hides what a masked vector's padding does to
# a division (stop 47's dtype spike: an i64 division sharing its dispatch with a narrower type SIGFPEs on lanes
# padded with 0).

INT_DIVISION_DTYPES = ("i32", "i64", "i16")


def _int_division_infer(types: Sequence[TensorType], attrs: Mapping[str, Any]) -> TensorType:
    x, y = types
    if x.dtype not in INT_DIVISION_DTYPES or (x.shape, x.dtype) != (y.shape, y.dtype) or not y.divisor:
        raise ValueError(f"an integer division takes a tensor of {INT_DIVISION_DTYPES} and a divisor of its type")
    return TensorType(x.shape, x.dtype)


def _int_division_propose(draw: Callable, pool: Any) -> tuple[tuple[str, ...], dict] | None:
    x = pool.pick(draw, lambda t, bound: t.dtype in INT_DIVISION_DTYPES and bool(t.shape))
    if x is None:
        return None
    t = pool.type(x)
    divisor = TensorType(t.shape, t.dtype, divisor=True)
    y = pool.pick(draw, lambda u, _b: u == divisor) if draw(pool.st.booleans()) else None
    return (x, y if y is not None else pool.new_arg(divisor)), {}


def _int_division_emit(op: str) -> Callable[[EmitContext, Any, Sequence[str]], str]:
    def emit(ctx: EmitContext, node: Any, operands: Sequence[str]) -> str:
        rank = len(node.type.shape)
        return ctx.generic(
            result_name(ctx, node),
            [(v, ctx.graph.type_of(r)) for v, r in zip(operands, node.inputs)],
            (ctx.init_for(node.index, node, operands), node.type),
            [identity_map(rank)] * 3,
            ["parallel"] * rank,
            lambda b, v: b.op(f"{op} {v[0]}, {v[1]} : {node.type.dtype}"),
        )

    return emit


register(
    OpSpec(
        "int_div",
        _int_division_infer,
        _int_division_emit("arith.divsi"),
        lambda bs, a, ts: bs[0],
        _int_division_propose,
    )
)
register(
    OpSpec(
        "int_rem",
        _int_division_infer,
        _int_division_emit("arith.remsi"),
        lambda bs, a, ts: min(bs[0], bs[1]),
        _int_division_propose,
    )
)


# ---------------------------------------------------------------------------------------------
# cast


def _cast_infer(types: Sequence[TensorType], attrs: Mapping[str, Any]) -> TensorType:
    (t,) = types
    if (t.dtype, attrs["to"]) not in CASTS:
        raise ValueError(f"no cast {t.dtype} -> {attrs['to']}")
    return TensorType(t.shape, attrs["to"])


CASTS = {
    ("f32", "f16"): "arith.truncf",
    ("f16", "f32"): "arith.extf",
    ("f32", "i32"): "arith.fptosi",
    ("i32", "f32"): "arith.sitofp",
    ("f16", "i32"): "arith.fptosi",
    ("i32", "f16"): "arith.sitofp",
    ("f32", "bf16"): "arith.truncf",
    ("bf16", "f32"): "arith.extf",
    ("bf16", "i32"): "arith.fptosi",
    ("i32", "i64"): "arith.extsi",
    ("i64", "i32"): "arith.trunci",
    ("f32", "i64"): "arith.fptosi",
    ("i64", "f32"): "arith.sitofp",
    ("i32", "i16"): "arith.trunci",
    ("i16", "i32"): "arith.extsi",
    ("i32", "bf16"): "arith.sitofp",  # JAX's x.astype(bfloat16) of an integer (stop 47's dtype spike)
    ("i16", "bf16"): "arith.sitofp",
    ("i64", "bf16"): "arith.sitofp",
    ("i16", "f16"): "arith.sitofp",
    ("i8", "i32"): "arith.extsi",
    ("i8", "i16"): "arith.extsi",
}


def _cast_body(b: Body, node: Any, x: str, source: str) -> str:
    return b.op(f"{CASTS[(source, node.type.dtype)]} {x} : {source} to {node.type.dtype}")


def _cast_propose(draw: Callable, pool: Any) -> tuple[tuple[str, ...], dict] | None:
    src = pool.pick(draw, lambda t, bound: any(frm == t.dtype for frm, _ in CASTS) and bound <= 1000)
    if src is None:
        return None
    targets = sorted(to for (frm, to) in CASTS if frm == pool.type(src).dtype and to in pool.dtypes)
    if not targets:
        return None
    to = draw(pool.st.sampled_from(targets))
    if to in NARROW_FLOATS and pool.type(src).dtype == "f32" and "scale" in pool.ops and draw(pool.st.booleans()):
        src = pool.derive("scale", [src], {"by": draw(pool.st.sampled_from(SCALES))})  # a value that rounds
    return (src,), {"to": to}


register(OpSpec("cast", _cast_infer, one_operand_generic(_cast_body), lambda bs, a, ts: bs[0] + 1, _cast_propose))


# ---------------------------------------------------------------------------------------------
# scale: x * c for a constant c that models multiply by. The drawn inputs are multiples of 1/8, so without it
# every float value a graph computes by +, -, *, max is exact and no cast to f16 ever rounds; these constants
# give the mantissas real programs have. 0.9999 (an EMA decay) times a power of two lies just below the next
# one, so its f16 rounding carries into the next binade: the values of iree-org/iree#20163 (0.4999 -> 0.25 on
# the generic CPU), which no drawn input holds.

# an EMA decay, GELU's sqrt(2/pi) and cubic term, quick GELU, 0.1, 1/3: seven digits, so the f32 literal the
# emitter prints (float_literal) is the constant the reference multiplies by. And CLIP's logit scale, 100: the
# drawn inputs lie in [-2, 2], so without it no value reaches the magnitudes where a function's expansion or
# range reduction can lose it (asinh(x) = log(x + sqrt(x^2 + 1)) cancels from x < -10 in f32, -5 in f16)
SCALES = (0.9999, 0.7978846, 0.044715, 1.702, 0.1, 0.3333333, 100.0)
SCALED_DTYPES = FLOAT_DTYPES


def _scale_infer(types: Sequence[TensorType], attrs: Mapping[str, Any]) -> TensorType:
    (t,) = types
    if t.dtype not in SCALED_DTYPES:
        raise ValueError(f"scale is defined on {SCALED_DTYPES}, not {t.dtype}")
    return t


def _by_constant(op: str) -> Callable:
    """The emitter of an elementwise ``op`` of each element and the constant ``attrs["by"]`` (scale, the shifts)."""
    return one_operand_generic(
        lambda b, node, x, _: b.op(f"{op} {x}, {b.const(node.attrs['by'], node.type.dtype)} : {node.type.dtype}")
    )


_scale_emit = _by_constant("arith.mulf")


def _scale_propose(draw: Callable, pool: Any) -> tuple[tuple[str, ...], dict] | None:
    src = pool.pick(draw, lambda t, bound: t.dtype in SCALED_DTYPES)
    return None if src is None else ((src,), {"by": draw(pool.st.sampled_from(SCALES))})


register(OpSpec("scale", _scale_infer, _scale_emit, lambda bs, a, ts: bs[0] * abs(a["by"]), _scale_propose))


# ---------------------------------------------------------------------------------------------
# inv_freq: a rotary embedding's inverse frequencies 1 / base^(x / dim) (base 10000, dim a head's width), the
# math.powf of a constant base that f16 models compute (iree-org/iree#15661: NaN and INF from its f16 approximation)

INV_FREQ_BASES = (10000.0, 1000.0)
INV_FREQ_DIMS = (64, 128)  # 1 / dim is exact in every float dtype


def _inv_freq_infer(types: Sequence[TensorType], attrs: Mapping[str, Any]) -> TensorType:
    (t,) = types
    if t.dtype not in FLOAT_DTYPES or attrs["base"] not in INV_FREQ_BASES or attrs["dim"] not in INV_FREQ_DIMS:
        raise ValueError(f"no inv_freq of {t!r} with {dict(attrs)}")
    return t


def _inv_freq_body(b: Body, node: Any, x: str, _: str) -> str:
    t = node.type.dtype
    exponent = b.op(f"arith.mulf {x}, {b.const(1.0 / node.attrs['dim'], t)} : {t}")
    power = b.op(f"math.powf {b.const(node.attrs['base'], t)}, {exponent} : {t}")
    return b.op(f"arith.divf {b.const(1.0, t)}, {power} : {t}")


def _inv_freq_propose(draw: Callable, pool: Any) -> tuple[tuple[str, ...], dict] | None:
    src = pool.pick(draw, lambda t, bound: t.dtype in FLOAT_DTYPES and bound <= 64)
    if src is None:
        return None
    return (src,), {
        "base": draw(pool.st.sampled_from(INV_FREQ_BASES)),
        "dim": draw(pool.st.sampled_from(INV_FREQ_DIMS)),
    }


register(
    OpSpec(
        "inv_freq",
        _inv_freq_infer,
        one_operand_generic(_inv_freq_body),
        lambda bs, a, ts: a["base"] ** (bs[0] / a["dim"]),
        _inv_freq_propose,
    )
)


# ---------------------------------------------------------------------------------------------
# shifts by a constant amount (threefry's rotations: x << r | x >> (32 - r), #24927), on i32 as uint32 code
# holds it: shift_left wraps modulo 2^32, shift_right_logical fills with zeros (arith.shrui: the bits unsigned).
# A constant amount in 1..31: arith's shift by the bit width or more is poison.

SHIFTS = {"shift_left": "arith.shli", "shift_right_logical": "arith.shrui"}
SHIFTED_DTYPES = ("i32",)


def _shift_infer(types: Sequence[TensorType], attrs: Mapping[str, Any]) -> TensorType:
    (t,) = types
    if t.dtype not in SHIFTED_DTYPES or not 0 < attrs["by"] < 32:
        raise ValueError(f"no shift of {t!r} by {attrs['by']}")
    return t


def _shift_bound(name: str) -> Callable:
    if name == "shift_left":
        return lambda bs, a, ts: min(bs[0] * 2.0 ** a["by"], FULL_RANGE)
    return lambda bs, a, ts: min(FULL_RANGE, 2.0 ** (32 - a["by"]))  # a negative operand's bits shift in from the top


def _shift_propose(draw: Callable, pool: Any) -> tuple[tuple[str, ...], dict] | None:
    src = pool.pick(draw, lambda t, bound: t.dtype in SHIFTED_DTYPES)
    return None if src is None else ((src,), {"by": draw(pool.st.integers(1, 31))})


for _name, _op in SHIFTS.items():
    register(OpSpec(_name, _shift_infer, _by_constant(_op), _shift_bound(_name), _shift_propose, modular=True))


# ---------------------------------------------------------------------------------------------
# pow_int: x ** n for an integer exponent computed at run time, as math.fpowi (torch's pow of a float tensor by an
# int, torch-mlir's lowering since iree-org/iree#19996: math.powf of a negative base is undefined, math.fpowi is
# the op for it). The exponent is clamped to POW_EXPONENTS so the result's magnitude stays bounded.

POW_EXPONENTS = (-2, 3)  # the clamp's bounds: x^-2 .. x^3


def _pow_int_infer(types: Sequence[TensorType], attrs: Mapping[str, Any]) -> TensorType:
    base, exponent = types
    if base.dtype not in FLOAT_DTYPES or exponent.dtype != "i32" or base.shape != exponent.shape:
        raise ValueError(f"pow_int takes a float tensor and an i32 one of its shape, not {base!r}, {exponent!r}")
    return base


def _pow_int_emit(ctx: EmitContext, node: Any, operands: Sequence[str]) -> str:
    base, exponent = (ctx.graph.type_of(r) for r in node.inputs)
    rank, lo, hi = len(base.shape), *POW_EXPONENTS

    def body(b: Body, args: list[str]) -> str:
        at_least = b.op(f"arith.maxsi {args[1]}, {b.const(lo, 'i32')} : i32")
        clamped = b.op(f"arith.minsi {at_least}, {b.const(hi, 'i32')} : i32")
        return b.op(f"math.fpowi {args[0]}, {clamped} : {base.dtype}, i32")

    return ctx.generic(
        result_name(ctx, node),
        [(operands[0], base), (operands[1], exponent)],
        (ctx.init_for(node.index, node, operands), node.type),
        [identity_map(rank)] * 3,
        ["parallel"] * rank,
        body,
    )


def _pow_int_propose(draw: Callable, pool: Any) -> tuple[tuple[str, ...], dict] | None:
    base = pool.pick(draw, lambda t, bound: t.dtype in FLOAT_DTYPES and bound <= 8)
    if base is None:
        return None
    shape = pool.type(base).shape
    exponent = pool.pick_or_arg(draw, TensorType(shape, "i32"), max_bound=8)
    return (base, exponent), {}


register(
    OpSpec(
        "pow_int",
        _pow_int_infer,
        _pow_int_emit,
        lambda bs, a, ts: max(bs[0], 1.0) ** POW_EXPONENTS[1] + 64.0,  # x^-2 of a drawn |x| >= 1/8 is at most 64
        _pow_int_propose,
    )
)
