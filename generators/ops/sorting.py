"""Sorting and selection, each with an index output: sort, topk, argmax."""

from __future__ import annotations

from typing import Any, Callable, Mapping, Sequence

from ..tensor import FLOAT_DTYPES, Dim, TensorType
from .kit import (
    MAX_SYMBOL_SIZE,
    Body,
    EmitContext,
    OpSpec,
    float_literal,
    identity_map,
    projected_map,
    region,
    register,
    result_name,
    tensor_type,
)

# ---------------------------------------------------------------------------------------------
# sorting and selection, each with an index output: sort (iree_linalg_ext.sort of values and their
# positions, ties broken by position, so both results are well defined), topk (iree_linalg_ext.topk
# along the last dim, k static) and argmax (a generic reduction with two results: the first position
# of the maximum). A node is one of the two results (``result``: "values" or "indices", i32).

SORTED_DTYPES = ("f32", "f16", "i32")


def _selected_shape(t: TensorType, attrs: Mapping[str, Any], op: str) -> tuple[Dim, ...]:
    dim = attrs["dim"]
    if not 0 <= dim < len(t.shape) or t.dtype not in SORTED_DTYPES or attrs["result"] not in ("values", "indices"):
        raise ValueError(f"{op} of {t!r} along dim {dim} ({attrs['result']})")
    if op == "argmax":
        return t.shape[:dim] + t.shape[dim + 1 :]
    if op == "topk":
        if dim != len(t.shape) - 1 or not isinstance(t.shape[dim], int) or not 1 <= attrs["k"] <= t.shape[dim]:
            raise ValueError(f"topk takes k in [1, {t.shape[dim]}] along the static last dim")
        return t.shape[:dim] + (attrs["k"],)
    return t.shape


def _selection_infer(op: str) -> Callable:
    def infer(types: Sequence[TensorType], attrs: Mapping[str, Any]) -> TensorType:
        (t,) = types
        return TensorType(_selected_shape(t, attrs, op), t.dtype if attrs["result"] == "values" else "i32")

    return infer


def _pair_names(ctx: EmitContext, node: Any) -> str:
    """``%values, %indices`` of a two-result op: the node's own name on the result it stands for."""
    other = ctx.fresh("other")
    return f"%n{node.index}, {other}" if node.attrs["result"] == "values" else f"{other}, %n{node.index}"


def _filled(ctx: EmitContext, t: TensorType, value: float) -> str:
    cst, name = ctx.fresh("c"), ctx.fresh("f")
    ctx.line(f"{cst} = arith.constant {float_literal(value, t.dtype)} : {t.dtype}")
    ctx.line(f"{name} = linalg.fill ins({cst} : {t.dtype}) outs({ctx.empty(t)} : {tensor_type(t)}) -> {tensor_type(t)}")
    return name


def _lowest(dtype: str) -> float:
    return -(2**31) if dtype == "i32" else float("-inf")


def _compare(b: Body, pred: str, x: str, y: str, dtype: str) -> str:
    """``x pred y`` for pred lt / gt / eq, ordered (floats) or signed (integers)."""
    if dtype in FLOAT_DTYPES:
        return b.op(f"arith.cmpf o{pred}, {x}, {y} : {dtype}")
    return b.op(f"arith.cmpi {'eq' if pred == 'eq' else 's' + pred}, {x}, {y} : {dtype}")


def _first_of(b: Body, x: str, y: str, i: str, j: str, dtype: str, pred: str) -> str:
    """x before y: ``x pred y``, or equal and an earlier position."""
    tie = b.op(f"arith.andi {_compare(b, 'eq', x, y, dtype)}, {b.op(f'arith.cmpi slt, {i}, {j} : i32')} : i1")
    return b.op(f"arith.ori {_compare(b, pred, x, y, dtype)}, {tie} : i1")


def _positions(ctx: EmitContext, t: TensorType, dim: int) -> str:
    shape = TensorType(t.shape, "i32")
    return ctx.generic(
        ctx.fresh("r"),
        [],
        (ctx.empty(shape), shape),
        [identity_map(len(t.shape))],
        ["parallel"] * len(t.shape),
        lambda b, a: b.op(f"arith.index_cast {b.op(f'linalg.index {dim} : index')} : index to i32"),
    )


def _sort_emit(
    ctx: EmitContext, node: Any, operands: Sequence[str], src: TensorType, vt: TensorType, it: TensorType
) -> None:
    """The values (a copy: sort works in place on its outs) sorted with their positions, ties by position."""
    dim, dt, rank = node.attrs["dim"], src.dtype, len(src.shape)
    copy = ctx.generic(
        ctx.fresh("r"),
        [(operands[0], src)],
        (ctx.empty(vt), vt),
        [identity_map(rank)] * 2,
        ["parallel"] * rank,
        lambda b, x: x[0],
    )
    x, y, i, j = (ctx.fresh(p) for p in "xyij")
    region(
        ctx,
        f"{_pair_names(ctx, node)} = iree_linalg_ext.sort dimension({dim}) outs({copy}, "
        f"{_positions(ctx, src, dim)} : {tensor_type(vt)}, {tensor_type(it)})",
        [(x, dt), (y, dt), (i, "i32"), (j, "i32")],
        lambda b: f"{_first_of(b, x, y, i, j, dt, 'lt')} : i1",
        f"-> {tensor_type(vt)}, {tensor_type(it)}",
    )


def _topk_emit(
    ctx: EmitContext, node: Any, operands: Sequence[str], src: TensorType, vt: TensorType, it: TensorType
) -> None:
    dt, x, y = src.dtype, ctx.fresh("x"), ctx.fresh("y")
    outs = f"{_filled(ctx, vt, _lowest(dt))}, {_filled(ctx, it, 0)} : {tensor_type(vt)}, {tensor_type(it)}"
    region(
        ctx,
        f"{_pair_names(ctx, node)} = iree_linalg_ext.topk dimension({node.attrs['dim']}) "
        f"ins({operands[0]} : {tensor_type(src)}) outs({outs})",
        [(x, dt), (y, dt)],
        lambda b: f"{_compare(b, 'gt', x, y, dt)} : i1",
        f"-> {tensor_type(vt)}, {tensor_type(it)}",
    )


def _argmax_emit(
    ctx: EmitContext, node: Any, operands: Sequence[str], src: TensorType, vt: TensorType, it: TensorType
) -> None:
    """A generic reduction with two results: the maximum and its first position."""
    dim, dt, rank = node.attrs["dim"], src.dtype, len(src.shape)
    kept = projected_map(rank, [i for i in range(rank) if i != dim])
    iterators = ", ".join('"reduction"' if d == dim else '"parallel"' for d in range(rank))
    outs = f"{_filled(ctx, vt, _lowest(dt))}, {_filled(ctx, it, 0)} : {tensor_type(vt)}, {tensor_type(it)}"
    x, v, i = ctx.fresh("b"), ctx.fresh("b"), ctx.fresh("b")

    def body(b: Body) -> str:
        at = b.op(f"arith.index_cast {b.op(f'linalg.index {dim} : index')} : index to i32")
        take = _first_of(b, x, v, at, i, dt, "gt")
        return (
            f"{b.op(f'arith.select {take}, {x}, {v} : {dt}')}, "
            f"{b.op(f'arith.select {take}, {at}, {i} : i32')} : {dt}, i32"
        )

    region(
        ctx,
        f"{_pair_names(ctx, node)} = linalg.generic {{indexing_maps = [{identity_map(rank)}, {kept}, {kept}], "
        f"iterator_types = [{iterators}]}} ins({operands[0]} : {tensor_type(src)}) outs({outs})",
        [(x, dt), (v, dt), (i, "i32")],
        body,
        f"-> ({tensor_type(vt)}, {tensor_type(it)})",
        terminator="linalg.yield",
    )


SELECTION_EMITTERS = {"sort": _sort_emit, "topk": _topk_emit, "argmax": _argmax_emit}


def _selection_emit(op: str) -> Callable:
    def emit(ctx: EmitContext, node: Any, operands: Sequence[str]) -> str:
        src = ctx.graph.type_of(node.inputs[0])
        shape = _selected_shape(src, node.attrs, op)
        SELECTION_EMITTERS[op](ctx, node, operands, src, TensorType(shape, src.dtype), TensorType(shape, "i32"))
        return result_name(ctx, node)

    return emit


def _selection_bound(op: str) -> Callable:
    def bound(bs: Sequence[float], attrs: Mapping[str, Any], types: Sequence[TensorType]) -> float:
        if attrs["result"] == "values":
            return bs[0]
        d = types[0].shape[attrs["dim"]]
        return float(d if isinstance(d, int) else MAX_SYMBOL_SIZE)

    return bound


def _selection_propose(op: str) -> Callable:
    def propose(draw: Callable, pool: Any) -> tuple[tuple[str, ...], dict] | None:
        if op != "argmax" and not pool.syntax.linalg_ext_gather:  # iree_linalg_ext as IREE >= 3.9 spells it
            return None
        last_static = lambda t: isinstance(t.shape[-1], int) and t.shape[-1] >= 1
        src = pool.pick(
            draw, lambda t, bound: len(t.shape) >= 1 and t.dtype in SORTED_DTYPES and (op != "topk" or last_static(t))
        )
        if src is None:
            return None
        t = pool.type(src)
        dim = len(t.shape) - 1 if op == "topk" else draw(pool.st.integers(0, len(t.shape) - 1))
        attrs: dict[str, Any] = {"dim": dim, "result": draw(pool.st.sampled_from(("values", "indices")))}
        if op == "topk":
            attrs["k"] = draw(pool.st.integers(1, min(t.shape[-1], 8)))
        return (src,), attrs

    return propose


for _op in ("sort", "topk", "argmax"):
    register(
        OpSpec(
            _op,
            _selection_infer(_op),
            _selection_emit(_op),
            _selection_bound(_op),
            _selection_propose(_op),
            has_init=False,
            family="sorting",
        )
    )
