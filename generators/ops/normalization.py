"""softmax, log-softmax and the normalizations over one dim."""

from __future__ import annotations

import math
from typing import Any, Callable, Mapping, Sequence

from ..tensor import TensorType
from .kit import (
    MAX_SYMBOL_SIZE,
    Body,
    EmitContext,
    OpSpec,
    float_literal,
    identity_map,
    is_float,
    maxmin,
    projected_map,
    register,
    result_name,
    tensor_type,
)

# ---------------------------------------------------------------------------------------------
# softmax and normalizations over one dim. softmax is linalg.softmax or its decomposition (max, sub,
# exp, sum, div); layer_norm / rms_norm are the reductions with broadcasts back that model importers
# emit: reduce into a fresh tensor, then an elementwise generic reading the reduction broadcast back.

NORMS = ("softmax", "log_softmax", "layer_norm", "rms_norm")


def _norm_infer(name: str) -> Callable:
    def infer(types: Sequence[TensorType], attrs: Mapping[str, Any]) -> TensorType:
        (t,) = types
        if not is_float(t) or not 0 <= attrs["dim"] < len(t.shape):
            raise ValueError(f"{name} over dim {attrs['dim']} of {t!r}")
        return t

    return infer


def _reduce_into(
    ctx: EmitContext, x: str, t: TensorType, dim: int, identity: float, combine: Callable[[Body, str, str], str]
) -> str:
    """Reduce ``x`` over ``dim`` into a fresh tensor filled with ``identity``; ``combine(b, acc, element)``."""
    rank = len(t.shape)
    kept = [i for i in range(rank) if i != dim]
    rt = TensorType(tuple(t.shape[i] for i in kept), t.dtype)
    cst, filled = ctx.fresh("c"), ctx.fresh("f")
    ctx.line(f"{cst} = arith.constant {float_literal(identity, t.dtype)} : {t.dtype}")
    ctx.line(
        f"{filled} = linalg.fill ins({cst} : {t.dtype}) outs({ctx.empty(rt)} : {tensor_type(rt)}) -> {tensor_type(rt)}"
    )
    return ctx.generic(
        ctx.fresh("r"),
        [(x, t)],
        (filled, rt),
        [identity_map(rank), projected_map(rank, kept)],
        ["reduction" if i == dim else "parallel" for i in range(rank)],
        lambda b, a: combine(b, a[1], a[0]),
    )


def _with_reduced(
    ctx: EmitContext,
    x: str,
    t: TensorType,
    reduced: str,
    dim: int,
    out: str,
    result: str,
    fn: Callable[[Body, str, str], str],
) -> str:
    """An elementwise generic over ``x`` reading ``reduced`` broadcast back along ``dim``: ``fn(b, x, r)``."""
    rank = len(t.shape)
    rt = TensorType(tuple(d for i, d in enumerate(t.shape) if i != dim), t.dtype)
    return ctx.generic(
        result,
        [(x, t), (reduced, rt)],
        (out, t),
        [identity_map(rank), projected_map(rank, [i for i in range(rank) if i != dim]), identity_map(rank)],
        ["parallel"] * rank,
        lambda b, a: fn(b, a[0], a[1]),
    )


def _dim_as_float(ctx: EmitContext, t: TensorType, dim: int) -> str:
    """The size of ``dim`` as a float of ``t``'s dtype (read at run time when the dim is symbolic)."""
    d, name = t.shape[dim], ctx.fresh("size")
    if isinstance(d, int):
        ctx.line(f"{name} = arith.constant {float_literal(d, t.dtype)} : {t.dtype}")
        return name
    wide = ctx.fresh("size")
    ctx.line(f"{wide} = arith.index_cast {ctx.dim_values[d]} : index to i64")
    ctx.line(f"{name} = arith.sitofp {wide} : i64 to {t.dtype}")
    return name


def _log_softmax(ctx: EmitContext, x: str, t: TensorType, dim: int, out: str, result: str) -> str:
    """As torch-mlir lowers LogSoftmax: the max, a sum of exp(x - max) reading x and the max, then one generic
    writing x - max - log(sum) from all three (#21836's dispatch: two consumers of the max, one a reduction)."""
    dt, rank = t.dtype, len(t.shape)
    kept = [i for i in range(rank) if i != dim]
    rt = TensorType(tuple(t.shape[i] for i in kept), dt)
    m = _reduce_into(ctx, x, t, dim, float("-inf"), lambda b, u, v: maxmin("max")(b, [u, v], dt))
    cst, zeros = ctx.fresh("c"), ctx.fresh("f")
    ctx.line(f"{cst} = arith.constant {float_literal(0.0, dt)} : {dt}")
    ctx.line(f"{zeros} = linalg.fill ins({cst} : {dt}) outs({ctx.empty(rt)} : {tensor_type(rt)}) -> {tensor_type(rt)}")

    def shifted(b: Body, u: str, v: str) -> str:
        return b.op(f"arith.subf {u}, {v} : {dt}")

    total = ctx.generic(
        ctx.fresh("r"),
        [(x, t), (m, rt)],
        (zeros, rt),
        [identity_map(rank), projected_map(rank, kept), projected_map(rank, kept)],
        ["reduction" if i == dim else "parallel" for i in range(rank)],
        lambda b, a: b.op(f"arith.addf {b.op(f'math.exp {shifted(b, a[0], a[1])} : {dt}')}, {a[2]} : {dt}"),
    )
    return ctx.generic(
        result,
        [(x, t), (m, rt), (total, rt)],
        (out, t),
        [identity_map(rank), projected_map(rank, kept), projected_map(rank, kept), identity_map(rank)],
        ["parallel"] * rank,
        lambda b, a: b.op(f"arith.subf {shifted(b, a[0], a[1])}, {b.op(f'math.log {a[2]} : {dt}')} : {dt}"),
    )


def _norm_emit(name: str) -> Callable:
    def emit(ctx: EmitContext, node: Any, operands: Sequence[str]) -> str:
        x, t, dim, dt = operands[0], node.type, node.attrs["dim"], node.type.dtype
        out, result = ctx.init_for(node.index, node, operands), result_name(ctx, node)
        add = lambda b, u, v: b.op(f"arith.addf {u}, {v} : {dt}")
        if name == "softmax" and not node.attrs.get("decomposed"):
            ctx.line(
                f"{result} = linalg.softmax dimension({dim}) ins({x} : {tensor_type(t)}) outs({out} : "
                f"{tensor_type(t)}) -> {tensor_type(t)}"
            )
            return result
        if name == "log_softmax":
            return _log_softmax(ctx, x, t, dim, out, result)
        if name == "softmax":
            m = _reduce_into(ctx, x, t, dim, float("-inf"), lambda b, u, v: maxmin("max")(b, [u, v], dt))
            e = _with_reduced(
                ctx,
                x,
                t,
                m,
                dim,
                ctx.empty(t),
                ctx.fresh("r"),
                lambda b, u, v: b.op(f"math.exp {b.op(f'arith.subf {u}, {v} : {dt}')} : {dt}"),
            )
            total = _reduce_into(ctx, e, t, dim, 0.0, add)
            return _with_reduced(
                ctx, e, t, total, dim, out, result, lambda b, u, v: b.op(f"arith.divf {u}, {v} : {dt}")
            )
        n, eps = _dim_as_float(ctx, t, dim), node.attrs["eps"]
        if name == "layer_norm":
            total = _reduce_into(ctx, x, t, dim, 0.0, add)
            x = _with_reduced(
                ctx,
                x,
                t,
                total,
                dim,
                ctx.empty(t),
                ctx.fresh("r"),
                lambda b, u, v: b.op(f"arith.subf {u}, {b.op(f'arith.divf {v}, {n} : {dt}')} : {dt}"),
            )
        squares = _reduce_into(
            ctx,
            x,
            t,
            dim,
            0.0,
            lambda b, acc, u: b.op(f"arith.addf {acc}, {b.op(f'arith.mulf {u}, {u} : {dt}')} : {dt}"),
        )

        def scale(b: Body, u: str, v: str) -> str:
            mean = b.op(f"arith.divf {v}, {n} : {dt}")
            shifted = b.op(f"arith.addf {mean}, {b.const(eps, dt)} : {dt}")
            return b.op(f"arith.mulf {u}, {b.op(f'math.rsqrt {shifted} : {dt}')} : {dt}")

        return _with_reduced(ctx, x, t, squares, dim, out, result, scale)

    return emit


def _norm_bound(name: str) -> Callable:
    def bound(bs: Sequence[float], attrs: Mapping[str, Any], types: Sequence[TensorType]) -> float:
        d = types[0].shape[attrs["dim"]]
        n = d if isinstance(d, int) else MAX_SYMBOL_SIZE
        if name == "log_softmax":  # |x - max| <= 2 |x|, log(sum) <= log(n)
            return 2 * bs[0] + math.log(max(n, 1)) + 1
        return 1.0 if name == "softmax" else math.sqrt(n)

    return bound


def _norm_propose(name: str) -> Callable:
    def propose(draw: Callable, pool: Any) -> tuple[tuple[str, ...], dict] | None:
        src = pool.pick(
            draw,
            lambda t, bound: is_float(t) and len(t.shape) >= 1 and bound <= (50 if "softmax" in name else 8),
        )
        if src is None:
            return None
        attrs: dict[str, Any] = {"dim": draw(pool.st.integers(0, len(pool.type(src).shape) - 1))}
        if name == "softmax":
            attrs["decomposed"] = draw(pool.st.booleans())
        elif name != "log_softmax":
            attrs["eps"] = draw(pool.st.sampled_from((1e-5, 1e-2)))
        return (src,), attrs

    return propose


for _name in NORMS:
    register(
        OpSpec(
            _name,
            _norm_infer(_name),
            _norm_emit(_name),
            _norm_bound(_name),
            _norm_propose(_name),
            family="normalization",
        )
    )
