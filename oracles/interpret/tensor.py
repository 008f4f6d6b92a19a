"""``tensor`` ops (and ``bufferization.alloc_tensor``): empty, dim, extract / insert, slices, pad, generate,
reshapes, cast, concat, splat, from_elements, bitcast.
"""

from __future__ import annotations

import math
from typing import Any, Iterable, Sequence

import numpy as np
from iree.compiler import ir

from ireefuzz.errors import NotInterpretable

from .arith import _bitcast
from .core import (
    DYNAMIC,
    Array,
    Elem,
    Interpreter,
    Tracked,
    _check_in_bounds,
    _indices_in_bounds,
    _ints,
    _result_elem,
    _shape,
    defined_indices,
    elem_of,
    handles,
    merged,
    moves_data,
    no_poison,
    poison_rule,
    spread_elementwise,
    unsigned,
    wrap,
)

# --------------------------------------------------------------------------- tensor


def _mixed(op: ir.Operation, static_name: str, dynamic: Iterable[Any]) -> list[int]:
    """Static sizes / offsets / strides with the dynamic ones filled from operands, in order."""
    dynamic = iter(dynamic)
    return [int(next(dynamic)) if v == DYNAMIC else v for v in _ints(op.attributes[static_name])]


def _segments(op: ir.Operation, args: list) -> list[list]:
    sizes = list(ir.DenseI32ArrayAttr(op.attributes["operandSegmentSizes"]))
    out, start = [], 0
    for n in sizes:
        out.append(args[start : start + n])
        start += n
    return out


def _result_shape(op: ir.Operation, dynamic: Iterable[Any], i: int = 0) -> list[int]:
    dynamic = iter(dynamic)
    return [int(next(dynamic)) if d == DYNAMIC else d for d in _shape(op.results[i])]


def _undefined(shape: Sequence[int], e: Elem) -> Array:
    """tensor.empty's contents: poison (see ``core``); the values under it, NaN for floats and 0 for integers,
    are never read."""
    return np.full(shape, np.nan) if e.is_float else np.zeros(shape, np.int64)


@handles("tensor.empty")
def _empty(interp: Interpreter, op: ir.Operation, args: list) -> list:
    return [_undefined(_result_shape(op, args), _result_elem(op))]


@handles("bufferization.alloc_tensor")
def _alloc_tensor(interp: Interpreter, op: ir.Operation, args: list) -> list:
    return _empty(interp, op, args)


@poison_rule("tensor.empty", "bufferization.alloc_tensor", source=True)
def _never_written(interp: Interpreter, op: ir.Operation, args: list, masks: list, outs: list) -> list:
    defined_indices(interp, op, masks, " size")
    return [np.full(np.shape(outs[0]), interp.source(op, "never written"), np.uint8)]


@handles("tensor.dim")
def _dim(interp: Interpreter, op: ir.Operation, args: list) -> list:
    return [np.int64(np.shape(args[0])[int(args[1])])]


poison_rule("tensor.dim")(no_poison)
poison_rule("tensor.extract", "tensor.extract_slice", "tensor.expand_shape", "tensor.reshape", "tensor.splat")(
    moves_data(0)
)
poison_rule("tensor.collapse_shape", "tensor.cast")(moves_data(0))
poison_rule("tensor.insert", "tensor.insert_slice")(moves_data(0, 1))
poison_rule("tensor.bitcast")(spread_elementwise)


@poison_rule("tensor.concat", "tensor.from_elements")
def _all_data(interp: Interpreter, op: ir.Operation, args: list, masks: list, outs: list) -> list:
    return moves_data(*range(len(args)))(interp, op, args, masks, outs)


@handles("tensor.extract")
def _extract(interp: Interpreter, op: ir.Operation, args: list) -> list:
    source, index = np.asarray(args[0]), args[1:]
    if all(np.ndim(i) == 0 for i in index):
        return [source[_indices_in_bounds(op, index, source.shape)]]
    vectors = tuple(np.asarray(i).astype(np.int64) for i in index)  # vectorized: one index array per dim
    _check_in_bounds(vectors, source.shape, op.name)
    return [source[vectors]]


@handles("tensor.insert")
def _insert(interp: Interpreter, op: ir.Operation, args: list) -> list:
    dest = np.array(args[1], copy=True)
    dest[_indices_in_bounds(op, args[2:], dest.shape)] = args[0]
    return [dest]


def _slice_of(op: ir.Operation, source_shape: Sequence[int], offsets: list, sizes: list, strides: list) -> tuple:
    rank = len(source_shape)
    index = tuple(slice(o, o + (s - 1) * st + 1, st) if s else slice(o, o) for o, s, st in zip(offsets, sizes, strides))
    for o, s, st, n in zip(offsets, sizes, strides, source_shape):
        if s and (o < 0 or st < 1 or o + (s - 1) * st >= n):
            raise NotInterpretable(f"op {op.name} out of bounds or with stride {st} (undefined behaviour)")
    return index[:rank]


@handles("tensor.extract_slice")
def _extract_slice(interp: Interpreter, op: ir.Operation, args: list) -> list:
    source, offs, sizes, strides = _segments(op, args)
    offsets, sizes, strides = (
        _mixed(op, n, v) for n, v in (("static_offsets", offs), ("static_sizes", sizes), ("static_strides", strides))
    )
    region = np.asarray(source[0])[_slice_of(op, np.shape(source[0]), offsets, sizes, strides)]
    return [_drop_unit_dims(region, _ints(op.attributes["static_sizes"]), _shape(op.results[0]))]


def _drop_unit_dims(region: Array, static_sizes: list[int], want: list[int]) -> Array:
    """extract_slice may drop unit dims (rank-reducing). Which ones, as MLIR decides (``computeRankReductionMask``,
    on the static sizes and the result type): a dim is kept while its size equals the next result dim (two dynamic
    sizes are equal), left to right, else dropped (a static 1). Dropping the first unit dims instead read
    `[1, 2, 1] -> 1x2` as `2x1`: the dim dropped there is the last."""
    if len(want) == region.ndim:
        return region
    kept: list[int] = []
    for n, size in zip(region.shape, static_sizes):
        if len(kept) < len(want) and size == want[len(kept)]:
            kept.append(n)
        elif size != 1:
            raise NotInterpretable(f"extract_slice of sizes {static_sizes} does not reduce to {want}")
    return region.reshape(kept)


@handles("tensor.insert_slice")
def _insert_slice(interp: Interpreter, op: ir.Operation, args: list) -> list:
    source, dest, offs, sizes, strides = _segments(op, args)
    offsets, sizes, strides = (
        _mixed(op, n, v) for n, v in (("static_offsets", offs), ("static_sizes", sizes), ("static_strides", strides))
    )
    out = np.array(dest[0], copy=True)
    index = _slice_of(op, out.shape, offsets, sizes, strides)
    out[index] = np.asarray(source[0]).reshape(out[index].shape)
    return [out]


def _region_on_indices(interp: Interpreter, op: ir.Operation, shape: Sequence[int]) -> tuple[Array, Array | None]:
    """Evaluate a region whose block arguments are the result's indices, vectorized over ``shape``; with its
    poison (None: defined)."""
    block = op.regions[0].blocks[0]
    n = len(shape)
    dims = [np.arange(s).reshape([-1 if k == d else 1 for k in range(n)]) for d, s in enumerate(shape)]
    (value,) = interp.run_block(block, dims)
    return np.broadcast_to(value, shape), merged(interp.yielded, shape)


@handles("tensor.pad")
def _pad(interp: Interpreter, op: ir.Operation, args: list) -> Tracked:
    source, low, high = _segments(op, args)
    source_mask, *sizes = interp.operand_poison(op)
    defined_indices(interp, op, sizes, " padding")
    low, high = _mixed(op, "static_low", low), _mixed(op, "static_high", high)
    src = np.asarray(source[0])
    if min(low + high, default=0) < 0:
        raise NotInterpretable("op tensor.pad with negative padding")
    shape = [n + lo + hi for n, lo, hi in zip(src.shape, low, high)]
    padding, padding_mask = _region_on_indices(interp, op, shape)
    out = np.array(padding, copy=True)
    interior = tuple(slice(lo, lo + n) for lo, n in zip(low, src.shape))
    out[interior] = src
    mask = None
    if source_mask is not None or padding_mask is not None:
        mask = np.array(padding_mask if padding_mask is not None else np.zeros(shape, np.uint8), copy=True)
        mask[interior] = source_mask if source_mask is not None else 0
    return Tracked([out], [mask])


@handles("tensor.generate")
def _generate(interp: Interpreter, op: ir.Operation, args: list) -> Tracked:
    defined_indices(interp, op, interp.operand_poison(op), " size")
    value, mask = _region_on_indices(interp, op, _result_shape(op, args))
    return Tracked([np.array(value, copy=True)], [None if mask is None else np.array(mask, copy=True)])


@handles("tensor.expand_shape")
def _expand_shape(interp: Interpreter, op: ir.Operation, args: list) -> list:
    shape = _mixed(op, "static_output_shape", args[1:])
    return [np.asarray(args[0]).reshape(shape)]


@handles("tensor.collapse_shape")
def _collapse_shape(interp: Interpreter, op: ir.Operation, args: list) -> list:
    src = np.asarray(args[0])
    groups = [_ints(g) for g in ir.ArrayAttr(op.attributes["reassociation"])]
    return [src.reshape([math.prod(src.shape[i] for i in g) for g in groups])]


@handles("tensor.reshape")
def _reshape(interp: Interpreter, op: ir.Operation, args: list) -> list:
    return [np.asarray(args[0]).reshape([int(v) for v in np.asarray(args[1]).ravel()])]


@handles("tensor.cast")
def _tensor_cast(interp: Interpreter, op: ir.Operation, args: list) -> list:
    static = _shape(op.results[0])
    if any(d != DYNAMIC and d != n for d, n in zip(static, np.shape(args[0]))):
        raise NotInterpretable("op tensor.cast to a shape the value does not have (undefined behaviour)")
    return [args[0]]


@handles("tensor.concat")
def _concat(interp: Interpreter, op: ir.Operation, args: list) -> list:
    return [np.concatenate([np.asarray(a) for a in args], axis=ir.IntegerAttr(op.attributes["dim"]).value)]


@handles("tensor.splat")
def _splat(interp: Interpreter, op: ir.Operation, args: list) -> list:
    return [np.full(_result_shape(op, args[1:]), args[0])]


@handles("tensor.from_elements")
def _from_elements(interp: Interpreter, op: ir.Operation, args: list) -> list:
    return [np.array([np.asarray(a)[()] for a in args]).reshape(_shape(op.results[0]))]


@handles("tensor.bitcast")
def _tensor_bitcast(interp: Interpreter, op: ir.Operation, args: list) -> list:
    return [_bitcast(np.asarray(args[0]), elem_of(op.operands[0]), _result_elem(op))]


@handles("flow.tensor.bitcast")
def _flow_bitcast(interp: Interpreter, op: ir.Operation, args: list) -> list:
    """Integers split into narrower ones along the last dim, the low bits first (bytes to int4 weights)."""
    src, dst = elem_of(op.operands[0]), _result_elem(op)
    if src.is_float or dst.is_float or src.width % dst.width:
        raise NotInterpretable(f"op flow.tensor.bitcast {src.name} to {dst.name}")
    x, parts = unsigned(np.asarray(args[0]), src), src.width // dst.width
    split = np.stack([(x >> (dst.width * p)) & dst.mask for p in range(parts)], axis=-1)
    return [wrap(split.reshape(*np.shape(x)[:-1], np.shape(x)[-1] * parts), dst)]


@poison_rule("flow.tensor.bitcast")
def _split_poison(interp: Interpreter, op: ir.Operation, args: list, masks: list, outs: list) -> list:
    """Each part of a poisoned integer is poison."""
    defined_indices(interp, op, masks[1:], " size")
    parts = elem_of(op.operands[0]).width // _result_elem(op).width
    return [None if masks[0] is None else np.repeat(np.asarray(masks[0]), parts, axis=-1)]
