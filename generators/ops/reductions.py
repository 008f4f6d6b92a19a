"""Reductions over one dim."""

from __future__ import annotations

from typing import Any, Callable, Mapping, Sequence

from ..tensor import TensorType
from .kit import (
    MAX_SYMBOL_SIZE,
    Body,
    EmitContext,
    OpSpec,
    float_literal,
    identity_map,
    maxmin,
    projected_map,
    register,
    result_name,
    tensor_type,
)

# ---------------------------------------------------------------------------------------------
# reductions over one dim: the destination is a fresh init filled with the identity

REDUCTIONS = {"reduce_sum": 0.0, "reduce_max": float("-inf")}


def _reduce_infer(types: Sequence[TensorType], attrs: Mapping[str, Any]) -> TensorType:
    (t,) = types
    dim = attrs["dim"]
    if not 0 <= dim < len(t.shape) or t.dtype not in ("f32", "f16", "i32"):
        raise ValueError(f"cannot reduce {t!r} over dim {dim}")
    return TensorType(tuple(d for i, d in enumerate(t.shape) if i != dim), t.dtype)


def _reduce_emit(kind: str) -> Callable:
    def emit(ctx: EmitContext, node: Any, operands: Sequence[str]) -> str:
        src, t, dim = ctx.graph.type_of(node.inputs[0]), node.type, node.attrs["dim"]
        identity = REDUCTIONS[kind]
        if t.dtype == "i32" and identity == float("-inf"):
            identity = -(2**31)
        init = ctx.init_for(node.index, node, operands)
        cst, filled = ctx.fresh("c"), ctx.fresh("f")
        ctx.line(f"{cst} = arith.constant {float_literal(identity, t.dtype)} : {t.dtype}")
        ctx.line(f"{filled} = linalg.fill ins({cst} : {t.dtype}) outs({init} : {tensor_type(t)}) -> {tensor_type(t)}")
        rank = len(src.shape)
        kept = [i for i in range(rank) if i != dim]

        def body(b: Body, a: list[str]) -> str:
            if kind == "reduce_sum":
                return b.op(f"arith.add{'i' if t.dtype == 'i32' else 'f'} {a[1]}, {a[0]} : {t.dtype}")
            if t.dtype == "i32":
                return b.op(f"arith.maxsi {a[1]}, {a[0]} : {t.dtype}")
            return maxmin("max")(b, [a[1], a[0]], t.dtype)

        return ctx.generic(
            result_name(ctx, node),
            [(operands[0], src)],
            (filled, t),
            [identity_map(rank), projected_map(rank, kept)],
            ["reduction" if i == dim else "parallel" for i in range(rank)],
            body,
        )

    return emit


def _reduce_bound(kind: str) -> Callable:
    def bound(bs: Sequence[float], attrs: Mapping[str, Any], types: Sequence[TensorType]) -> float:
        d = types[0].shape[attrs["dim"]]
        return bs[0] * (d if isinstance(d, int) else MAX_SYMBOL_SIZE) if kind == "reduce_sum" else bs[0]

    return bound


def _reduce_propose(draw: Callable, pool: Any) -> tuple[tuple[str, ...], dict] | None:
    src = pool.pick(draw, lambda t, bound: len(t.shape) >= 1 and t.dtype in ("f32", "f16", "i32") and bound <= 50)
    if src is None:
        return None
    return (src,), {"dim": draw(pool.st.integers(0, len(pool.type(src).shape) - 1))}


for _kind in REDUCTIONS:
    register(
        OpSpec(_kind, _reduce_infer, _reduce_emit(_kind), _reduce_bound(_kind), _reduce_propose, family="reduction")
    )
