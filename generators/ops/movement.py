"""Data movement: broadcast, transpose, gather, extract_slice, pad, reshapes, concat, reverse, shift, scatter,
pack / unpack."""

from __future__ import annotations

import math
from typing import Any, Callable, Mapping, Sequence

from ..tensor import INT_DTYPES, Dim, TensorType
from .kit import (
    MAX_SYMBOL_SIZE,
    Body,
    EmitContext,
    OpSpec,
    float_literal,
    identity_map,
    is_float,
    projected_map,
    region,
    register,
    result_name,
    small_dim,
    tensor_type,
)

# ---------------------------------------------------------------------------------------------
# broadcast / transpose


def _broadcast_infer(types: Sequence[TensorType], attrs: Mapping[str, Any]) -> TensorType:
    (t,) = types
    shape, added = tuple(attrs["shape"]), list(attrs["dimensions"])
    kept = [shape[i] for i in range(len(shape)) if i not in added]
    if sorted(set(added)) != added or any(not 0 <= d < len(shape) for d in added) or tuple(kept) != t.shape:
        raise ValueError(f"broadcast of {t!r} to {shape} adding dims {added} does not fit")
    return TensorType(shape, t.dtype)


def _broadcast_emit(ctx: EmitContext, node: Any, operands: Sequence[str]) -> str:
    src = ctx.graph.type_of(node.inputs[0])
    init = ctx.init_for(node.index, node, operands)
    t, added, rank = node.type, list(node.attrs["dimensions"]), len(node.type.shape)
    name = result_name(ctx, node)
    if node.attrs.get("generic"):
        kept = [i for i in range(rank) if i not in added]
        return ctx.generic(
            name,
            [(operands[0], src)],
            (init, t),
            [projected_map(rank, kept), identity_map(rank)],
            ["parallel"] * rank,
            lambda b, a: a[0],
        )
    ctx.line(
        f"{name} = linalg.broadcast ins({operands[0]} : {tensor_type(src)}) outs({init} : {tensor_type(t)}) "
        f"dimensions = [{', '.join(map(str, added))}]"
    )
    return name


def _broadcast_propose(draw: Callable, pool: Any) -> tuple[tuple[str, ...], dict] | None:
    src = pool.pick(draw, lambda t, bound: len(t.shape) <= 2)
    if src is None:
        return None
    shape = list(pool.type(src).shape)
    pos = draw(pool.st.integers(0, len(shape)))
    shape.insert(pos, pool.draw_dim(draw))
    return (src,), {"shape": shape, "dimensions": [pos], "generic": draw(pool.st.booleans())}


def _transpose_infer(types: Sequence[TensorType], attrs: Mapping[str, Any]) -> TensorType:
    (t,) = types
    perm = list(attrs["permutation"])
    if sorted(perm) != list(range(len(t.shape))):
        raise ValueError(f"permutation {perm} of rank {len(t.shape)}")
    return TensorType(tuple(t.shape[p] for p in perm), t.dtype)


def _transpose_emit(ctx: EmitContext, node: Any, operands: Sequence[str]) -> str:
    src = ctx.graph.type_of(node.inputs[0])
    init = ctx.init_for(node.index, node, operands)
    perm, t, name = list(node.attrs["permutation"]), node.type, result_name(ctx, node)
    if node.attrs.get("generic"):
        inverse = [perm.index(j) for j in range(len(perm))]
        return ctx.generic(
            name,
            [(operands[0], src)],
            (init, t),
            [projected_map(len(perm), inverse), identity_map(len(perm))],
            ["parallel"] * len(perm),
            lambda b, a: a[0],
        )
    ctx.line(
        f"{name} = linalg.transpose ins({operands[0]} : {tensor_type(src)}) outs({init} : {tensor_type(t)}) "
        f"permutation = [{', '.join(map(str, perm))}]"
    )
    return name


def _transpose_propose(draw: Callable, pool: Any) -> tuple[tuple[str, ...], dict] | None:
    src = pool.pick(draw, lambda t, bound: len(t.shape) >= 2)
    if src is None:
        return None
    rank = len(pool.type(src).shape)
    perm = draw(pool.st.permutations(list(range(rank))).filter(lambda p: list(p) != list(range(rank))))
    return (src,), {"permutation": list(perm), "generic": draw(pool.st.booleans())}


register(
    OpSpec(
        "broadcast",
        _broadcast_infer,
        _broadcast_emit,
        lambda bs, a, ts: bs[0],
        _broadcast_propose,
        has_generic_form=True,
        family="data-movement",
    )
)
register(
    OpSpec(
        "transpose",
        _transpose_infer,
        _transpose_emit,
        lambda bs, a, ts: bs[0],
        _transpose_propose,
        has_generic_form=True,
        family="data-movement",
    )
)


# ---------------------------------------------------------------------------------------------
# gather: rows of a table (T x D, or T x D x E: an expert's weights, MoE routing as in #23464) picked by an i32
# index vector (N) whose values are in [0, T); the index vector may itself be computed (``models.take``)


def _gather_infer(types: Sequence[TensorType], attrs: Mapping[str, Any]) -> TensorType:
    table, idx = types
    if len(table.shape) not in (2, 3) or len(idx.shape) != 1 or idx.dtype != "i32":
        raise ValueError("gather takes a rank-2 or rank-3 table and a rank-1 i32 index vector")
    if idx.index_bound != table.shape[0]:
        raise ValueError(f"index values must be bounded by the table's rows ({table.shape[0]}), not {idx.index_bound}")
    return TensorType((idx.shape[0], *table.shape[1:]), table.dtype)


def _gather_emit(ctx: EmitContext, node: Any, operands: Sequence[str]) -> str:
    table, idx = (ctx.graph.type_of(r) for r in node.inputs)
    init, t, name = ctx.init_for(node.index, node, operands), node.type, result_name(ctx, node)
    if node.attrs.get("form") == "linalg_ext":
        idx2 = TensorType((idx.shape[0], 1), "i32")
        expanded = ctx.fresh("x")
        ctx.line(
            f"{expanded} = tensor.expand_shape {operands[1]} [[0, 1]] output_shape "
            f"[{ctx.dim_values[idx.shape[0]] if isinstance(idx.shape[0], str) else idx.shape[0]}, 1] "
            f": {tensor_type(idx)} into {tensor_type(idx2)}"
        )
        ctx.line(
            f"{name} = iree_linalg_ext.gather dimension_map = [0] ins({operands[0]}, {expanded} : "
            f"{tensor_type(table)}, {tensor_type(idx2)}) outs({init} : {tensor_type(t)}) -> {tensor_type(t)}"
        )
        return name

    rank = len(t.shape)

    def body(b: Body, a: list[str]) -> str:
        row = b.op(f"arith.index_cast {a[0]} : i32 to index")
        rest = [b.op(f"linalg.index {d} : index") for d in range(1, rank)]
        return b.op(f"tensor.extract {operands[0]}[{', '.join([row, *rest])}] : {tensor_type(table)}")

    return ctx.generic(
        name, [(operands[1], idx)], (init, t), [projected_map(rank, [0]), identity_map(rank)], ["parallel"] * rank, body
    )


def _gather_propose(draw: Callable, pool: Any) -> tuple[tuple[str, ...], dict] | None:
    table = pool.pick(draw, lambda t, bound: len(t.shape) in (2, 3) and t.shape[0] != 0)
    if "extract_slice" in pool.ops and draw(pool.st.booleans()):  # rows of x[:, i, :] (select + index_select: #19749)
        table = select_view(draw, pool, _wide_source(draw, pool)) or table
    if table is None or not pool.nonzero(pool.type(table).shape[0]):
        return None
    rows = pool.type(table).shape[0]
    idx = pool.pick(draw, lambda t, bound: len(t.shape) == 1 and t.dtype == "i32" and t.index_bound == rows)
    if idx is None or draw(pool.st.booleans()):  # else indices computed in the graph (``models.take``): a chain
        idx = pool.new_arg(TensorType((pool.draw_dim(draw),), "i32", index_bound=rows))
    forms = ["extract", "linalg_ext"] if pool.syntax.linalg_ext_gather else ["extract"]
    return (table, idx), {"form": draw(pool.st.sampled_from(forms))}


register(
    OpSpec("gather", _gather_infer, _gather_emit, lambda bs, a, ts: bs[0], _gather_propose, family="data-movement")
)


# ---------------------------------------------------------------------------------------------
# extract_slice / pad: static offsets, sizes, strides and padding on static dims; symbolic dims kept whole


def _slice_infer(types: Sequence[TensorType], attrs: Mapping[str, Any]) -> TensorType:
    (t,) = types
    offs, sizes, strides, drop = attrs["offsets"], attrs["sizes"], attrs["strides"], attrs.get("drop", [])
    if not len(offs) == len(sizes) == len(strides) == len(t.shape):
        raise ValueError("offsets / sizes / strides must match the rank")
    for d, o, s, st in zip(t.shape, offs, sizes, strides):
        if isinstance(d, str):
            if (o, s, st) != (0, d, 1):
                raise ValueError(f"a symbolic dim {d} is kept whole (offset 0, size {d}, stride 1)")
        elif st < 1 or o < 0 or s < 0 or (s > 0 and o + (s - 1) * st >= d):
            raise ValueError(f"slice offset {o} size {s} stride {st} exceeds dim {d}")
    if any(not 0 <= i < len(sizes) or sizes[i] != 1 for i in drop) or len(set(drop)) >= len(sizes):
        raise ValueError(f"a rank-reducing slice drops distinct dims of size 1 and keeps one: drop {drop} of {sizes}")
    return TensorType(tuple(s for i, s in enumerate(sizes) if i not in drop), t.dtype)


def _slice_emit(ctx: EmitContext, node: Any, operands: Sequence[str]) -> str:
    src, a = ctx.graph.type_of(node.inputs[0]), node.attrs
    sizes = ", ".join(ctx.dim_values[s] if isinstance(s, str) else str(s) for s in a["sizes"])
    name = result_name(ctx, node)
    ctx.line(
        f"{name} = tensor.extract_slice {operands[0]}[{', '.join(map(str, a['offsets']))}] [{sizes}] "
        f"[{', '.join(map(str, a['strides']))}] : {tensor_type(src)} to {tensor_type(node.type)}"
    )
    return name


def _slice_propose(draw: Callable, pool: Any) -> tuple[tuple[str, ...], dict] | None:
    if {"transpose", "expand_shape"} <= pool.ops and draw(pool.st.integers(0, 3)) == 0:
        squeezed = _permuted_unsqueeze_squeeze(draw, pool)
        if squeezed is not None:
            return squeezed
    src = pool.pick(draw, lambda t, bound: any(isinstance(d, int) and d >= 2 for d in t.shape))
    if src is None:
        return None
    offs: list[int] = []
    sizes: list[Dim] = []
    strides: list[int] = []
    for d in pool.type(src).shape:
        if isinstance(d, str) or d < 2:
            o, s, st = 0, d, 1
        else:
            st = draw(pool.st.integers(1, 3))
            o = draw(pool.st.integers(0, d - 1))
            s = draw(pool.st.integers(1, (d - 1 - o) // st + 1))
        offs.append(o)
        sizes.append(s)
        strides.append(st)
    units = [i for i, s in enumerate(sizes) if s == 1][: len(sizes) - 1]
    drop = draw(pool.st.lists(pool.st.sampled_from(units), unique=True)) if units else []
    return (src,), {"offsets": offs, "sizes": sizes, "strides": strides, "drop": sorted(drop)}


def _permuted_unsqueeze_squeeze(draw: Callable, pool: Any) -> tuple[tuple[str, ...], dict] | None:
    """A rank-3 value permuted, given a unit dim (``unsqueeze``) and sliced dropping it again (``squeeze``), a
    static dim cut short where there is one: a model's head reshape as torch-mlir lowers it (linalg.transpose,
    tensor.expand_shape, a rank-reducing tensor.extract_slice). #22687: SinkTransposeThroughExtractSlice built an
    ill-typed slice from this chain (3.7.0); drawn one op at a time, the chain was in no case of a 600 s campaign."""
    src = pool.pick(draw, lambda t, bound: len(t.shape) == 3 and all(pool.nonzero(d) for d in t.shape))
    if src is None:
        dtype = draw(pool.st.sampled_from(pool.dtypes_among(("f32", "f16", "i32"))))
        src = pool.new_arg(TensorType(pool.draw_shape(draw, 3, 3), dtype))
    perm = draw(pool.st.permutations([0, 1, 2]).filter(lambda p: list(p) != [0, 1, 2]))
    permuted = pool.derive("transpose", (src,), {"permutation": list(perm), "generic": draw(pool.st.booleans())})
    shape = list(pool.type(permuted).shape)
    at = draw(pool.st.integers(0, 2))  # the dim the unit joins, before or after it
    before = draw(pool.st.booleans())
    unit = at if before else at + 1
    groups = [[i] for i in range(at)] + [[at, at + 1]] + [[i + 1] for i in range(at + 1, 3)]
    expanded_shape = shape[:at] + ([1, shape[at]] if before else [shape[at], 1]) + shape[at + 1 :]
    expanded = pool.derive("expand_shape", (permuted,), {"shape": expanded_shape, "groups": groups})
    sizes: list[Dim] = list(expanded_shape)
    offsets = [0] * 4
    cuttable = {i: d for i, d in enumerate(expanded_shape) if isinstance(d, int) and d >= 2}
    if cuttable and draw(pool.st.booleans()):
        i = draw(pool.st.sampled_from(sorted(cuttable)))
        offsets[i] = draw(pool.st.integers(0, cuttable[i] - 1))
        sizes[i] = draw(pool.st.integers(1, cuttable[i] - offsets[i]))
    return (expanded,), {"offsets": offsets, "sizes": sizes, "strides": [1] * 4, "drop": [unit]}


def _wide_source(draw: Callable, pool: Any) -> str:
    """A rank-3 value with a static middle dim to select from: one drawn already, else a new argument."""
    fits = pool.pick(draw, lambda t, bound: len(t.shape) == 3 and pool.nonzero(t.shape[0]) and _selectable(t))
    if fits is not None:
        return fits
    dtype = draw(pool.st.sampled_from(pool.dtypes_among(("f32", "f16", "i32"))))
    rows, last = (d for d in (pool.draw_dim(draw), pool.draw_dim(draw)))
    rows = rows if pool.nonzero(rows) else 1
    return pool.new_arg(TensorType((rows, draw(pool.st.integers(2, 4)), last), dtype))


def _selectable(t: TensorType) -> bool:
    return any(i > 0 and isinstance(d, int) and d >= 2 for i, d in enumerate(t.shape))


def select_view(draw: Callable, pool: Any, src: str) -> str | None:
    """``src[:, i, :]``: one index of a static dim (not the first) taken and dropped, a strided view of one rank
    less (torch's ``select``, lowered to a rank-reducing ``tensor.extract_slice``); None if no dim fits."""
    t = pool.type(src)
    dims = [i for i, d in enumerate(t.shape) if i > 0 and isinstance(d, int) and d >= 2]
    if len(t.shape) < 2 or not dims:
        return None
    dim = draw(pool.st.sampled_from(dims))
    at = draw(pool.st.integers(0, t.shape[dim] - 1))
    return pool.derive(
        "extract_slice",
        [src],
        {
            "offsets": [at if i == dim else 0 for i in range(len(t.shape))],
            "sizes": [1 if i == dim else d for i, d in enumerate(t.shape)],
            "strides": [1] * len(t.shape),
            "drop": [dim],
        },
    )


def _pad_infer(types: Sequence[TensorType], attrs: Mapping[str, Any]) -> TensorType:
    (t,) = types
    low, high = attrs["low"], attrs["high"]
    if not len(low) == len(high) == len(t.shape) or min(low + high, default=0) < 0:
        raise ValueError("low / high padding must match the rank and be non-negative")
    if any(isinstance(d, str) and (lo or hi) for d, lo, hi in zip(t.shape, low, high)):
        raise ValueError("symbolic dims are not padded")
    return TensorType(tuple(d if isinstance(d, str) else d + lo + hi for d, lo, hi in zip(t.shape, low, high)), t.dtype)


def _pad_emit(ctx: EmitContext, node: Any, operands: Sequence[str]) -> str:
    src, t, a, name = ctx.graph.type_of(node.inputs[0]), node.type, node.attrs, result_name(ctx, node)
    cst = ctx.fresh("c")
    ctx.line(f"{cst} = arith.constant {float_literal(a['value'], t.dtype)} : {t.dtype}")
    idx = ", ".join(f"{ctx.fresh('i')}: index" for _ in t.shape)
    ctx.line(
        f"{name} = tensor.pad {operands[0]} low[{', '.join(map(str, a['low']))}] "
        f"high[{', '.join(map(str, a['high']))}] {{"
    )
    ctx.line(f"^bb0({idx}):")
    ctx.line(f"  tensor.yield {cst} : {t.dtype}")
    ctx.line(f"}} : {tensor_type(src)} to {tensor_type(t)}")
    return name


def _has_static_dim(t: TensorType, bound: Any) -> bool:
    """A ``pool.pick`` filter: a value with a static dim to pad or concatenate along (not i1)."""
    return any(isinstance(d, int) for d in t.shape) and t.dtype != "i1"


def _pad_propose(draw: Callable, pool: Any) -> tuple[tuple[str, ...], dict] | None:
    src = pool.pick(draw, _has_static_dim)
    if src is None:
        return None
    t = pool.type(src)
    low = [0 if isinstance(d, str) else draw(pool.st.integers(0, 3)) for d in t.shape]
    high = [0 if isinstance(d, str) else draw(pool.st.integers(0, 3)) for d in t.shape]
    value = draw(pool.st.sampled_from([0.0, 1.0, -0.5]))
    return (src,), {"low": low, "high": high, "value": int(value) if t.dtype in INT_DTYPES else value}


register(
    OpSpec(
        "extract_slice",
        _slice_infer,
        _slice_emit,
        lambda bs, a, ts: bs[0],
        _slice_propose,
        has_init=False,
        view=True,
        family="data-movement",
    )
)
register(
    OpSpec(
        "pad",
        _pad_infer,
        _pad_emit,
        lambda bs, a, ts: max(bs[0], abs(a["value"])),
        _pad_propose,
        has_init=False,
        family="data-movement",
    )
)


# ---------------------------------------------------------------------------------------------
# data movement: reshapes (tensor.expand_shape / collapse_shape, views of their operand), concat,
# reverse and scatter-add. A reshape group holding a symbolic dim is that dim and 1s (its size stays
# a symbol); a concatenated dim is static in every operand.


def _dim_text(ctx: EmitContext, d: Dim) -> str:
    return ctx.dim_values[d] if isinstance(d, str) else str(d)


def _group_size(dims: Sequence[Dim]) -> Dim:
    """The one dim a reshape group stands for: a symbol with 1s, or the product of static dims."""
    symbols = [d for d in dims if isinstance(d, str)]
    if not symbols:
        return math.prod(dims)
    if len(symbols) > 1 or any(d != 1 for d in dims if isinstance(d, int)):
        raise ValueError(f"reshape group {list(dims)}: a symbolic dim is grouped with 1s only")
    return symbols[0]


def _check_groups(groups: Sequence[Sequence[int]], rank: int) -> None:
    if [i for g in groups for i in g] != list(range(rank)) or any(not g for g in groups):
        raise ValueError(f"reassociation {groups} must split 0..{rank - 1} into contiguous non-empty groups")


def _expand_infer(types: Sequence[TensorType], attrs: Mapping[str, Any]) -> TensorType:
    (t,) = types
    shape, groups = tuple(attrs["shape"]), attrs["groups"]
    _check_groups(groups, len(shape))
    if len(groups) != len(t.shape) or any(_group_size([shape[i] for i in g]) != d for g, d in zip(groups, t.shape)):
        raise ValueError(f"{t!r} does not expand to {shape} by {groups}")
    return TensorType(shape, t.dtype)


def _collapse_infer(types: Sequence[TensorType], attrs: Mapping[str, Any]) -> TensorType:
    (t,) = types
    groups = attrs["groups"]
    _check_groups(groups, len(t.shape))
    return TensorType(tuple(_group_size([t.shape[i] for i in g]) for g in groups), t.dtype)


def _reshape_emit(kind: str) -> Callable:
    def emit(ctx: EmitContext, node: Any, operands: Sequence[str]) -> str:
        src, t, name = ctx.graph.type_of(node.inputs[0]), node.type, result_name(ctx, node)
        groups = ", ".join(f"[{', '.join(map(str, g))}]" for g in node.attrs["groups"])
        shape = f" output_shape [{', '.join(_dim_text(ctx, d) for d in t.shape)}]" if kind == "expand_shape" else ""
        ctx.line(f"{name} = tensor.{kind} {operands[0]} [{groups}]{shape} : {tensor_type(src)} into {tensor_type(t)}")
        return name

    return emit


def _factor_pairs(d: Dim) -> list[tuple[Dim, ...]]:
    if isinstance(d, str):
        return [(d, 1), (1, d)]
    return [(a, d // a) for a in range(1, d + 1) if d % a == 0]


def _expand_propose(draw: Callable, pool: Any) -> tuple[tuple[str, ...], dict] | None:
    # rank-3 sources too: the recall set's #22687 (a rank-3 transpose expanded to rank 5 with unit dims, then a
    # rank-reducing slice) needs one; a rank-2 source showed nothing on 3.7.0
    src = pool.pick(draw, lambda t, bound: 1 <= len(t.shape) <= 3 and all(pool.nonzero(d) for d in t.shape))
    if src is None:
        return None
    shape: list[Dim] = []
    groups: list[list[int]] = []
    for i, d in enumerate(pool.type(src).shape):
        parts = draw(pool.st.sampled_from(_factor_pairs(d))) if draw(pool.st.booleans()) or i == 0 else (d,)
        groups.append(list(range(len(shape), len(shape) + len(parts))))
        shape.extend(parts)
    return (src,), {"shape": shape, "groups": groups}


def _collapse_propose(draw: Callable, pool: Any) -> tuple[tuple[str, ...], dict] | None:
    def collapsible(t: TensorType) -> list[int]:  # i: dims i and i+1 may merge
        return [
            i
            for i in range(len(t.shape) - 1)
            if all(isinstance(d, int) for d in t.shape[i : i + 2])
            or 1 in t.shape[i : i + 2]
            and not all(isinstance(d, str) for d in t.shape[i : i + 2])
        ]

    src = pool.pick(draw, lambda t, bound: bool(collapsible(t)))
    if src is None:
        return None
    t = pool.type(src)
    i = draw(pool.st.sampled_from(collapsible(t)))
    groups = [[j] for j in range(i)] + [[i, i + 1]] + [[j] for j in range(i + 2, len(t.shape))]
    return (src,), {"groups": groups}


register(
    OpSpec(
        "expand_shape",
        _expand_infer,
        _reshape_emit("expand_shape"),
        lambda bs, a, ts: bs[0],
        _expand_propose,
        has_init=False,
        view=True,
        family="data-movement",
    )
)
register(
    OpSpec(
        "collapse_shape",
        _collapse_infer,
        _reshape_emit("collapse_shape"),
        lambda bs, a, ts: bs[0],
        _collapse_propose,
        has_init=False,
        view=True,
        family="data-movement",
    )
)


def _concat_infer(types: Sequence[TensorType], attrs: Mapping[str, Any]) -> TensorType:
    dim, first = attrs["dim"], types[0]
    if len(types) < 2 or not 0 <= dim < len(first.shape):
        raise ValueError(f"concat of {len(types)} operands along dim {dim} of {first!r}")
    for t in types:
        rest = lambda u: (u.shape[:dim] + u.shape[dim + 1 :], u.dtype, len(u.shape))
        if rest(t) != rest(first) or not isinstance(t.shape[dim], int):
            raise ValueError(f"concat operands {list(types)} differ off dim {dim} or are symbolic along it")
    shape = list(first.shape)
    shape[dim] = sum(t.shape[dim] for t in types)
    return TensorType(tuple(shape), first.dtype)


def _concat_emit(ctx: EmitContext, node: Any, operands: Sequence[str]) -> str:
    types = [ctx.graph.type_of(r) for r in node.inputs]
    name = result_name(ctx, node)
    ctx.line(
        f"{name} = tensor.concat dim({node.attrs['dim']}) {', '.join(operands)} : "
        f"({', '.join(tensor_type(t) for t in types)}) -> {tensor_type(node.type)}"
    )
    return name


def _concat_propose(draw: Callable, pool: Any) -> tuple[tuple[str, ...], dict] | None:
    first = pool.pick(draw, _has_static_dim)
    if first is None:
        return None
    t = pool.type(first)
    dim = draw(pool.st.sampled_from([i for i, d in enumerate(t.shape) if isinstance(d, int)]))
    operands = [first]
    for _ in range(draw(pool.st.integers(1, 2))):
        shape = list(t.shape)
        shape[dim] = draw(pool.st.sampled_from((1, 2, 3, 5, 8, 16)))
        operands.append(pool.pick_or_arg(draw, TensorType(tuple(shape), t.dtype)))
    return tuple(draw(pool.st.permutations(operands))), {"dim": dim}


register(
    OpSpec(
        "concat",
        _concat_infer,
        _concat_emit,
        lambda bs, a, ts: max(bs),
        _concat_propose,
        has_init=False,
        family="data-movement",
    )
)


def _reverse_infer(types: Sequence[TensorType], attrs: Mapping[str, Any]) -> TensorType:
    (t,) = types
    dims = list(attrs["dims"])
    if not dims or sorted(set(dims)) != dims or not all(0 <= d < len(t.shape) for d in dims):
        raise ValueError(f"reverse dims {dims} of {t!r}")
    if attrs.get("form") == "map" and any(isinstance(t.shape[d], str) for d in dims):
        raise ValueError("the indexing-map form reverses static dims only (d -> size - 1 - d)")
    return TensorType(t.shape, t.dtype)


def _reverse_emit(ctx: EmitContext, node: Any, operands: Sequence[str]) -> str:
    """A generic reading the operand at ``size - 1 - i`` along the reversed dims: by its indexing map
    (static sizes) or by tensor.extract at indices computed from linalg.index and the size."""
    src, t, dims, rank = ctx.graph.type_of(node.inputs[0]), node.type, node.attrs["dims"], len(node.type.shape)
    out, name = ctx.init_for(node.index, node, operands), result_name(ctx, node)
    if node.attrs.get("form") == "map":
        exprs = [f"{t.shape[i] - 1} - d{i}" if i in dims else f"d{i}" for i in range(rank)]
        head = ", ".join(f"d{i}" for i in range(rank))
        return ctx.generic(
            name,
            [(operands[0], src)],
            (out, t),
            [f"affine_map<({head}) -> ({', '.join(exprs)})>", identity_map(rank)],
            ["parallel"] * rank,
            lambda b, a: a[0],
        )

    def body(b: Body, a: list[str]) -> str:
        index = [b.op(f"linalg.index {i} : index") for i in range(rank)]
        for i in dims:
            d = t.shape[i]
            size = ctx.dim_values[d] if isinstance(d, str) else b.op(f"arith.constant {d} : index")
            last = b.op(f"arith.subi {size}, {b.op('arith.constant 1 : index')} : index")
            index[i] = b.op(f"arith.subi {last}, {index[i]} : index")
        return b.op(f"tensor.extract {operands[0]}[{', '.join(index)}] : {tensor_type(src)}")

    return ctx.generic(name, [], (out, t), [identity_map(rank)], ["parallel"] * rank, body)


def _reverse_propose(draw: Callable, pool: Any) -> tuple[tuple[str, ...], dict] | None:
    src = pool.pick(draw, lambda t, bound: len(t.shape) >= 1)
    if src is None:
        return None
    t = pool.type(src)
    dims = sorted(draw(pool.st.sets(pool.st.integers(0, len(t.shape) - 1), min_size=1)))
    static = all(isinstance(t.shape[d], int) for d in dims)
    return (src,), {"dims": dims, "form": draw(pool.st.sampled_from(("map", "extract") if static else ("extract",)))}


register(
    OpSpec("reverse", _reverse_infer, _reverse_emit, lambda bs, a, ts: bs[0], _reverse_propose, family="data-movement")
)


# ---------------------------------------------------------------------------------------------
# shift: a tensor updated with a slice of itself, moved by ``by[i]`` along each dim (a sliding-window cache:
# ``cache.at[1:].set(cache[:-1])``; ``backward`` moves toward higher indices, the source before the destination).
# One SSA value is both the extract_slice's source and the insert_slice's destination, so the two ranges overlap
# in one buffer unless IREE copies. A shift past a symbolic dim's size moves nothing (``min(by, size)``).


def _shift_infer(types: Sequence[TensorType], attrs: Mapping[str, Any]) -> TensorType:
    (t,) = types
    by = list(attrs["by"])
    if len(by) != len(t.shape) or not any(by) or any(k < 0 for k in by):
        raise ValueError(f"shift by {by} of {t!r}: one non-negative amount per dim, one of them positive")
    if any(isinstance(d, int) and k > d for d, k in zip(t.shape, by)):
        raise ValueError(f"shift by {by} exceeds a static dim of {t!r}")
    return TensorType(t.shape, t.dtype)


def _shift_emit(ctx: EmitContext, node: Any, operands: Sequence[str]) -> str:
    t, a = node.type, node.attrs
    source, destination, sizes, slice_shape = [], [], [], []
    for d, k in zip(t.shape, a["by"]):
        if k == 0:
            moved: Any = 0
            size: Any = d if isinstance(d, int) else ctx.dim_values[d]
        elif isinstance(d, int):
            moved, size = k, d - k
        else:  # min(by, size): the slice never starts past the end
            given, moved, size = ctx.fresh("c"), ctx.fresh("k"), ctx.fresh("len")
            ctx.line(f"{given} = arith.constant {k} : index")
            ctx.line(f"{moved} = arith.minui {given}, {ctx.dim_values[d]} : index")
            ctx.line(f"{size} = arith.subi {ctx.dim_values[d]}, {moved} : index")
        here, there = (0, moved) if a["backward"] else (moved, 0)
        source.append(str(here))
        destination.append(str(there))
        sizes.append(str(size))
        slice_shape.append(d if k == 0 or isinstance(d, str) else d - k)
    piece = tensor_type(TensorType(tuple(d if isinstance(d, int) else "?" for d in slice_shape), t.dtype))
    ones = ", ".join("1" for _ in t.shape)
    moved_name, name = ctx.fresh("moved"), result_name(ctx, node)
    ctx.line(
        f"{moved_name} = tensor.extract_slice {operands[0]}[{', '.join(source)}] [{', '.join(sizes)}] [{ones}] : "
        f"{tensor_type(t)} to {piece}"
    )
    ctx.line(
        f"{name} = tensor.insert_slice {moved_name} into {operands[0]}[{', '.join(destination)}] "
        f"[{', '.join(sizes)}] [{ones}] : {piece} into {tensor_type(t)}"
    )
    return name


def shift_array(x: Any, by: Sequence[int], backward: bool) -> Any:
    """The shift's semantics on a numpy or JAX array: ``x`` with ``x[src]`` written at ``dst``."""
    src, dst = [], []
    for n, k in zip(x.shape, by):
        k = min(k, n)
        here, there = (0, k) if backward else (k, 0)
        src.append(slice(here, here + n - k))
        dst.append(slice(there, there + n - k))
    if hasattr(x, "at"):  # a JAX array
        return x.at[tuple(dst)].set(x[tuple(src)])
    out = x.copy()
    out[tuple(dst)] = x[tuple(src)]
    return out


def _shift_propose(draw: Callable, pool: Any) -> tuple[tuple[str, ...], dict] | None:
    src = pool.pick(draw, lambda t, bound: any(isinstance(d, str) or d >= 2 for d in t.shape))
    if src is None:
        return None
    shape = pool.type(src).shape
    by = [draw(pool.st.sampled_from((0, 1, 1, 2, 3))) for _ in shape]
    by = [k if isinstance(d, str) else min(k, max(d - 1, 0)) for d, k in zip(shape, by)]
    if not any(by):
        movable = [i for i, d in enumerate(shape) if isinstance(d, str) or d >= 2]
        by[draw(pool.st.sampled_from(movable))] = 1
    return (src,), {"by": by, "backward": draw(pool.st.booleans())}


register(
    OpSpec(
        "shift",
        _shift_infer,
        _shift_emit,
        lambda bs, a, ts: bs[0],
        _shift_propose,
        has_init=False,
        family="data-movement",
    )
)


def _scatter_infer(types: Sequence[TensorType], attrs: Mapping[str, Any]) -> TensorType:
    """updates (U x D...) added into rows of original (R x D...) picked by i32 indices (U) in [0, R)."""
    updates, idx, original = types
    if len(idx.shape) != 1 or idx.dtype != "i32" or idx.index_bound != original.shape[0]:
        raise ValueError(f"scatter indices {idx!r} must be i32 bounded by the original's rows ({original.shape[0]})")
    if updates.shape[0] != idx.shape[0] or updates.shape[1:] != original.shape[1:] or updates.dtype != original.dtype:
        raise ValueError(f"scatter shapes {list(types)} do not agree")
    if original.dtype not in ("f32", "f16", "i32"):
        raise ValueError(f"scatter-add is not drawn on {original.dtype}")
    return TensorType(original.shape, original.dtype)


def _scatter_emit(ctx: EmitContext, node: Any, operands: Sequence[str]) -> str:
    updates, idx, original = (ctx.graph.type_of(r) for r in node.inputs)
    idx2, expanded, name, dt = (
        TensorType((idx.shape[0], 1), "i32"),
        ctx.fresh("x"),
        result_name(ctx, node),
        node.type.dtype,
    )
    ctx.line(
        f"{expanded} = tensor.expand_shape {operands[1]} [[0, 1]] output_shape [{_dim_text(ctx, idx.shape[0])}, 1] "
        f": {tensor_type(idx)} into {tensor_type(idx2)}"
    )
    update, old, add = ctx.fresh("u"), ctx.fresh("o"), "arith.addf" if is_float(node.type) else "arith.addi"
    region(
        ctx,
        f"{name} = iree_linalg_ext.scatter dimension_map = [0] unique_indices(false) ins({operands[0]}, "
        f"{expanded} : {tensor_type(updates)}, {tensor_type(idx2)}) outs({operands[2]} : {tensor_type(original)})",
        [(update, dt), (old, dt)],
        lambda b: f"{b.op(f'{add} {old}, {update} : {dt}')} : {dt}",
        f"-> {tensor_type(original)}",
    )
    return name


def _scatter_bound(bs: Sequence[float], attrs: Mapping[str, Any], types: Sequence[TensorType]) -> float:
    u = types[0].shape[0]
    return bs[2] + bs[0] * (u if isinstance(u, int) else MAX_SYMBOL_SIZE)


def _scatter_propose(draw: Callable, pool: Any) -> tuple[tuple[str, ...], dict] | None:
    if not pool.syntax.linalg_ext_gather:  # iree_linalg_ext as IREE >= 3.9 spells it
        return None
    dtype = draw(pool.st.sampled_from(pool.dtypes_among(("f32", "f16", "i32"))))
    rows, rest = small_dim(draw, pool, 17), [small_dim(draw, pool, 17) for _ in range(draw(pool.st.integers(0, 2)))]
    if not pool.nonzero(rows):
        return None
    n = small_dim(draw, pool, 33)
    updates = pool.pick_or_arg(draw, TensorType((n, *rest), dtype), max_bound=8)
    idx = pool.new_arg(TensorType((n,), "i32", index_bound=rows))
    return (updates, idx, pool.destination(draw, TensorType((rows, *rest), dtype))), {}


register(
    OpSpec(
        "scatter",
        _scatter_infer,
        _scatter_emit,
        _scatter_bound,
        _scatter_propose,
        has_init=False,
        acc_input=2,
        family="data-movement",
    )
)


# ---------------------------------------------------------------------------------------------
# data tiling: linalg.pack tiles some static dims (inner_dims_pos / inner_tiles, padded with a value when
# a tile does not divide its dim), linalg.unpack undoes it (and drops the padding). Their own lowering
# pipeline on CPU (DataTiling), as linalg.mmt4d (a contraction spec) has its own (Mmt4dTilingExpert).


def _packed_shape(shape: Sequence[Dim], positions: Sequence[int], tiles: Sequence[int]) -> tuple[Dim, ...]:
    if len(positions) != len(tiles) or len(set(positions)) != len(positions) or not positions:
        raise ValueError(f"inner_dims_pos {list(positions)} and inner_tiles {list(tiles)} must pair up, once per dim")
    outer = list(shape)
    for pos, tile in zip(positions, tiles):
        dim = shape[pos] if 0 <= pos < len(shape) else None
        if not isinstance(dim, int) or dim < 1 or tile < 1:
            raise ValueError(f"dim {pos} of {list(shape)} is not a static dim a tile of {tile} can tile")
        outer[pos] = -(-dim // tile)
    return tuple(outer) + tuple(tiles)


def pack_array(xp: Any, x: Any, positions: Sequence[int], tiles: Sequence[int], padding: float | None) -> Any:
    """linalg.pack: each tiled dim padded up to a multiple of its tile, split into (outer, tile), the tiles last."""
    widths = [(0, 0)] * x.ndim
    for p, tile in zip(positions, tiles):
        widths[p] = (0, -x.shape[p] % tile)
    x = xp.pad(x, widths, constant_values=padding or 0)
    split, tile_axes = [], {}
    for i, d in enumerate(x.shape):
        if i in positions:
            tile = tiles[list(positions).index(i)]
            split += [d // tile, tile]
            tile_axes[i] = len(split) - 1
        else:
            split.append(d)
    outer = [a for a in range(len(split)) if a not in tile_axes.values()]
    return xp.transpose(xp.reshape(x, split), outer + [tile_axes[p] for p in positions])


def unpack_array(xp: Any, x: Any, positions: Sequence[int], tiles: Sequence[int], shape: Sequence[int]) -> Any:
    """linalg.unpack: each tile moved back behind its outer dim, merged, the padding sliced off."""
    rank = len(shape)
    order = []
    for i in range(rank):
        order.append(i)
        if i in positions:
            order.append(rank + list(positions).index(i))
    merged = xp.reshape(
        xp.transpose(x, order),
        [x.shape[i] * (tiles[list(positions).index(i)] if i in positions else 1) for i in range(rank)],
    )
    return merged[tuple(slice(0, d) for d in shape)]


def _pack_infer(types: Sequence[TensorType], attrs: Mapping[str, Any]) -> TensorType:
    (t,) = types
    positions, tiles = attrs["inner_dims_pos"], attrs["inner_tiles"]
    ragged = any(t.shape[p] % tile for p, tile in zip(positions, tiles) if isinstance(t.shape[p], int))
    if ragged and attrs.get("padding") is None:
        raise ValueError("a tile that does not divide its dim needs a padding value")
    return TensorType(_packed_shape(t.shape, positions, tiles), t.dtype)


def _unpack_infer(types: Sequence[TensorType], attrs: Mapping[str, Any]) -> TensorType:
    (t,) = types
    shape = tuple(attrs["shape"])
    if _packed_shape(shape, attrs["inner_dims_pos"], attrs["inner_tiles"]) != t.shape:
        raise ValueError(f"{t!r} is not {shape} packed by {attrs['inner_dims_pos']} / {attrs['inner_tiles']}")
    return TensorType(shape, t.dtype)


def _tiling_text(attrs: Mapping[str, Any]) -> str:
    return (
        f"inner_dims_pos = [{', '.join(map(str, attrs['inner_dims_pos']))}] "
        f"inner_tiles = [{', '.join(map(str, attrs['inner_tiles']))}]"
    )


def _pack_emit(kind: str) -> Callable:
    def emit(ctx: EmitContext, node: Any, operands: Sequence[str]) -> str:
        src, t, name = ctx.graph.type_of(node.inputs[0]), node.type, result_name(ctx, node)
        dest, padding = ctx.init_for(node.index, node, operands), ""
        if kind == "pack" and node.attrs.get("padding") is not None:
            cst = ctx.fresh("c")
            ctx.line(f"{cst} = arith.constant {float_literal(node.attrs['padding'], t.dtype)} : {t.dtype}")
            padding = f" padding_value({cst} : {t.dtype})"
        ctx.line(
            f"{name} = linalg.{kind} {operands[0]}{padding} {_tiling_text(node.attrs)} into {dest} : "
            f"{tensor_type(src)} -> {tensor_type(t)}"
        )
        return name

    return emit


def _draw_tiling(draw: Callable, pool: Any, shape: Sequence[Dim]) -> tuple[list[int], list[int]] | None:
    static = [i for i, d in enumerate(shape) if isinstance(d, int) and d >= 1]
    if not static:
        return None
    positions = draw(pool.st.permutations(static))[: draw(pool.st.integers(1, len(static)))]
    return list(positions), [draw(pool.st.sampled_from((1, 2, 3, 4, 8, 16))) for _ in positions]


def _pack_propose(draw: Callable, pool: Any) -> tuple[tuple[str, ...], dict] | None:
    src = pool.pick(draw, lambda t, bound: 1 <= len(t.shape) <= 3 and t.dtype in ("f32", "f16", "i32", "i8"))
    tiling = src and _draw_tiling(draw, pool, pool.type(src).shape)
    if not tiling:
        return None
    t = pool.type(src)
    ragged = any(t.shape[p] % tile for p, tile in zip(*tiling))
    padding = draw(pool.st.sampled_from((0, 1) if t.dtype in INT_DTYPES else (0.0, -1.5))) if ragged else None
    return (src,), {"inner_dims_pos": tiling[0], "inner_tiles": tiling[1], "padding": padding}


def _unpack_propose(draw: Callable, pool: Any) -> tuple[tuple[str, ...], dict] | None:
    shape = pool.draw_shape(draw, 1, 2)
    tiling = _draw_tiling(draw, pool, shape)
    if not tiling:
        return None
    dtype = draw(pool.st.sampled_from(pool.dtypes_among(("f32", "f16", "i32"))))
    packed = pool.pick_or_arg(draw, TensorType(_packed_shape(shape, *tiling), dtype))
    return (packed,), {"inner_dims_pos": tiling[0], "inner_tiles": tiling[1], "shape": list(shape)}


register(
    OpSpec(
        "pack",
        _pack_infer,
        _pack_emit("pack"),
        lambda bs, a, ts: max(bs[0], abs(a.get("padding") or 0)),
        _pack_propose,
        family="data-movement",
    )
)
register(
    OpSpec(
        "unpack", _unpack_infer, _pack_emit("unpack"), lambda bs, a, ts: bs[0], _unpack_propose, family="data-movement"
    )
)
