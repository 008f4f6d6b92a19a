"""Producers with no tensor inputs: fill and iota."""

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
    register,
    result_name,
    tensor_type,
)

# ---------------------------------------------------------------------------------------------
# fill and iota: producers with no tensor inputs


def _fill_emit(ctx: EmitContext, node: Any, operands: Sequence[str]) -> str:
    t = node.type
    init = ctx.init_for(node.index, node, operands)
    cst = ctx.fresh("c")
    ctx.line(f"{cst} = arith.constant {float_literal(node.attrs['value'], t.dtype)} : {t.dtype}")
    if node.attrs.get("generic"):
        rank = len(t.shape)
        return ctx.generic(
            result_name(ctx, node), [], (init, t), [identity_map(rank)], ["parallel"] * rank, lambda b, a: cst
        )
    name = result_name(ctx, node)
    ctx.line(f"{name} = linalg.fill ins({cst} : {t.dtype}) outs({init} : {tensor_type(t)}) -> {tensor_type(t)}")
    return name


def _producer_propose(kind: str) -> Callable:
    def propose(draw: Callable, pool: Any) -> tuple[tuple[str, ...], dict] | None:
        shape = pool.draw_shape(draw)
        st = pool.st
        dtype = draw(st.sampled_from(pool.dtypes_among(("f32", "f16", "i32"))))
        if kind == "fill":
            value = draw(st.sampled_from([0.0, 1.0, -1.0, 0.5, 2.0]))
            return (), {"shape": list(shape), "dtype": dtype, "value": value if dtype != "i32" else int(value)}
        if not shape:
            return None
        return (), {"shape": list(shape), "dtype": dtype, "dim": draw(st.integers(0, len(shape) - 1))}

    return propose


def _producer_infer(types: Sequence[TensorType], attrs: Mapping[str, Any]) -> TensorType:
    if types:
        raise ValueError("takes no tensor operands")
    return TensorType(tuple(attrs["shape"]), attrs["dtype"])


def _iota_infer(types: Sequence[TensorType], attrs: Mapping[str, Any]) -> TensorType:
    t = _producer_infer(types, attrs)
    if not 0 <= attrs["dim"] < len(t.shape) or t.dtype not in ("i32", "f32", "f16"):
        raise ValueError(f"iota dim {attrs['dim']} out of range or dtype {t.dtype}")
    return t


def _iota_emit(ctx: EmitContext, node: Any, operands: Sequence[str]) -> str:
    t = node.type
    rank = len(t.shape)

    def body(b: Body, args: list[str]) -> str:
        index = b.op(f"linalg.index {node.attrs['dim']} : index")
        i32 = b.op(f"arith.index_cast {index} : index to i32")
        return i32 if t.dtype == "i32" else b.op(f"arith.sitofp {i32} : i32 to {t.dtype}")

    return ctx.generic(
        result_name(ctx, node),
        [],
        (ctx.init_for(node.index, node, operands), t),
        [identity_map(rank)],
        ["parallel"] * rank,
        body,
    )


def _iota_bound(bs: Sequence[float], attrs: Mapping[str, Any], types: Sequence[TensorType]) -> float:
    d = attrs["shape"][attrs["dim"]]
    return float(d if isinstance(d, int) else MAX_SYMBOL_SIZE)


register(
    OpSpec(
        "fill",
        _producer_infer,
        _fill_emit,
        lambda bs, a, ts: abs(a["value"]),
        _producer_propose("fill"),
        has_generic_form=True,
        family="producer",
    )
)
register(OpSpec("iota", _iota_infer, _iota_emit, _iota_bound, _producer_propose("iota"), family="producer"))
PRODUCER_OPS = ("fill", "iota")  # no tensor operands: data from indices and constants, what fusion should recompute
