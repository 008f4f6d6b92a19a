"""Reductions over one dim, and the running sum along one (cumsum)."""

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
    region,
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


# ---------------------------------------------------------------------------------------------
# cumsum: the running sum along one dim, forward or reversed (jnp.cumsum and its gradient; torch.cumsum).
# Two forms: "window", a generic over (the result's dims, the source position j) summing x[j] where j <= i
# (j >= i reversed), which is how a reduce_window with a full-length window reads in linalg; "linalg_ext",
# iree_linalg_ext.scan (what torch-mlir's tm_tensor.scan becomes), forward only. The StableHLO frontend
# exports the reference row, jax.lax.cumsum: a reduce_window padded on the leading (reversed: trailing) side,
# the form of iree-org/iree#23381.

CUMSUM_DTYPES = ("f32", "f16", "i32")
CUMSUM_FORMS = ("window", "linalg_ext")


def _cumsum_infer(types: Sequence[TensorType], attrs: Mapping[str, Any]) -> TensorType:
    (t,) = types
    if not 0 <= attrs["dim"] < len(t.shape) or t.dtype not in CUMSUM_DTYPES:
        raise ValueError(f"cannot cumsum {t!r} over dim {attrs['dim']}")
    if attrs["form"] not in CUMSUM_FORMS or (attrs["form"] == "linalg_ext" and attrs["reverse"]):
        raise ValueError(f"cumsum form {attrs['form']!r} (reverse={attrs['reverse']}) is not one of {CUMSUM_FORMS}")
    return t


def _add(dtype: str) -> str:
    return "arith.addi" if dtype == "i32" else "arith.addf"


def _cumsum_emit(ctx: EmitContext, node: Any, operands: Sequence[str]) -> str:
    t, dim, dt = node.type, node.attrs["dim"], node.type.dtype
    rank, result = len(t.shape), result_name(ctx, node)
    init = ctx.init_for(node.index, node, operands)
    if node.attrs["form"] == "linalg_ext":
        reduced = TensorType(tuple(d for i, d in enumerate(t.shape) if i != dim), dt)
        acc = _zeros(ctx, reduced, ctx.empty(reduced))
        x, y = ctx.fresh("x"), ctx.fresh("y")
        region(
            ctx,
            f"{result}, {ctx.fresh('other')} = iree_linalg_ext.scan dimension({dim}) inclusive(true) "
            f"ins({operands[0]} : {tensor_type(t)}) outs({init}, {acc} : {tensor_type(t)}, {tensor_type(reduced)})",
            [(x, dt), (y, dt)],
            lambda b: f"{b.op(f'{_add(dt)} {x}, {y} : {dt}')} : {dt}",
            f"-> {tensor_type(t)}, {tensor_type(reduced)}",
        )
        return result
    source = [f"d{rank}" if i == dim else f"d{i}" for i in range(rank)]  # d<rank>: the source position j
    loops = ", ".join(f"d{i}" for i in range(rank + 1))
    before = "uge" if node.attrs["reverse"] else "ule"

    def body(b: Body, a: list[str]) -> str:
        at, j = b.op(f"linalg.index {dim} : index"), b.op(f"linalg.index {rank} : index")
        taken = b.op(f"arith.select {b.op(f'arith.cmpi {before}, {j}, {at} : index')}, {a[0]}, {b.const(0, dt)} : {dt}")
        return b.op(f"{_add(dt)} {a[1]}, {taken} : {dt}")

    return ctx.generic(
        result,
        [(operands[0], t)],
        (_zeros(ctx, t, init), t),
        [f"affine_map<({loops}) -> ({', '.join(source)})>", projected_map(rank + 1, range(rank))],
        ["parallel"] * rank + ["reduction"],
        body,
    )


def _zeros(ctx: EmitContext, t: TensorType, init: str) -> str:
    cst, filled = ctx.fresh("c"), ctx.fresh("f")
    ctx.line(f"{cst} = arith.constant {float_literal(0, t.dtype)} : {t.dtype}")
    ctx.line(f"{filled} = linalg.fill ins({cst} : {t.dtype}) outs({init} : {tensor_type(t)}) -> {tensor_type(t)}")
    return filled


def _cumsum_propose(draw: Callable, pool: Any) -> tuple[tuple[str, ...], dict] | None:
    src = pool.pick(draw, lambda t, bound: len(t.shape) >= 1 and t.dtype in CUMSUM_DTYPES and bound <= 50)
    if src is None:
        return None
    forms = CUMSUM_FORMS if pool.syntax.linalg_ext_gather else CUMSUM_FORMS[:1]  # iree_linalg_ext as >= 3.9 spells it
    form = draw(pool.st.sampled_from(forms))
    reverse = form == "window" and draw(pool.st.booleans())
    return (src,), {"dim": draw(pool.st.integers(0, len(pool.type(src).shape) - 1)), "reverse": reverse, "form": form}


register(
    OpSpec("cumsum", _cumsum_infer, _cumsum_emit, _reduce_bound("reduce_sum"), _cumsum_propose, family="reduction")
)
