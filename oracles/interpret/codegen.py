"""The ops IREE's codegen produces while the dispatch is still on tensors: ``vector`` (transfers on tensors,
broadcast, shape_cast, transpose, extract / insert, strided slices, contract, reductions, fma, masks, step),
``iree_vector_ext.transfer_gather``, ``affine`` (apply, min, max, delinearize / linearize_index), ``scf.forall``
with its ``tensor.parallel_insert_slice``s, and ``ub.poison``.

Vectors are NumPy arrays like tensors. A transfer outside its source, or inside it where ``in_bounds`` claims it is
and it is not, reads the padding, resp. poison. ``ub.poison`` reads as ``POISON.fill`` (None: NaN for floats, 0 for
integers): running a function under two fills (``poisoned``) shows whether an output depends on a poison value.

Used by translation validation of codegen passes (``ireefuzz.tools.filing.culprit``), which imports this module to
register its handlers.
"""

from __future__ import annotations

import contextlib
import dataclasses
import itertools
import weakref
from typing import Any, Iterator, Sequence

import numpy as np
from iree.compiler import ir

from ireefuzz.errors import NotInterpretable

from .core import DYNAMIC, HANDLERS, Elem, Interpreter, elem_of, handles, unsigned, wrap


@dataclasses.dataclass
class _Poison:
    fill: float | None = None


POISON = _Poison()


@contextlib.contextmanager
def poisoned(fill: float | None) -> Iterator[None]:
    """Poison (``ub.poison``, a transfer's undefined elements) reads as ``fill`` inside the block."""
    old, POISON.fill = POISON.fill, fill
    try:
        yield
    finally:
        POISON.fill = old


def poison(shape: Sequence[int], e: Elem) -> np.ndarray:
    """Undefined values of ``shape``: ``POISON.fill``, or NaN / 0."""
    if POISON.fill is None:
        return np.full(shape, np.nan) if e.is_float else np.zeros(shape, np.int64)
    return np.full(shape, float(POISON.fill)) if e.is_float else wrap(np.full(shape, int(POISON.fill)), e)


def _shape(t: ir.Type) -> list[int]:
    return list(ir.ShapedType(t).shape) if isinstance(t, ir.ShapedType) else []


def _i64s(op: ir.Operation, name: str) -> list[int]:
    attr = op.attributes[name]
    try:
        return list(ir.DenseI64ArrayAttr(attr))
    except (ValueError, TypeError):
        return [ir.IntegerAttr(a).value for a in ir.ArrayAttr(attr)]


def _segments(op: ir.Operation, args: list) -> list[list]:
    sizes = list(ir.DenseI32ArrayAttr(op.attributes["operandSegmentSizes"]))
    out, start = [], 0
    for n in sizes:
        out.append(args[start : start + n])
        start += n
    return out


def _mixed(static: Sequence[int], dynamic: Sequence[Any]) -> list[int]:
    values = iter(dynamic)
    return [int(next(values)) if v == DYNAMIC else int(v) for v in static]


# --------------------------------------------------------------------------- ub


@handles("ub.poison")
def _ub_poison(interp: Interpreter, op: ir.Operation, args: list) -> list:
    t = op.results[0].type
    value = poison(_shape(t), elem_of(op.results[0]))
    return [value if _shape(t) else value.reshape(())[()]]


# --------------------------------------------------------------------------- transfers


def _map(op: ir.Operation, name: str = "permutation_map") -> ir.AffineMap:
    return ir.AffineMapAttr(op.attributes[name]).value


def _coordinates(
    amap: ir.AffineMap, indices: Sequence[int], source_shape: Sequence[int], vshape: Sequence[int]
) -> tuple[list[np.ndarray], np.ndarray]:
    """(the source coordinates of each vector element, whether each lies inside the source) for a transfer whose
    permutation map sends source dims to vector dims (a constant 0 result: a broadcast dim)."""
    grids = np.indices(vshape) if vshape else np.zeros((0,), np.int64)
    coords = [np.full(vshape, int(i), np.int64) for i in indices]
    for j, expr in enumerate(amap.results):
        if isinstance(expr, ir.AffineDimExpr):
            k = ir.AffineDimExpr(expr).position
            coords[k] = coords[k] + grids[j]
        elif not (isinstance(expr, ir.AffineConstantExpr) and ir.AffineConstantExpr(expr).value == 0):
            raise NotInterpretable(f"op vector transfer with map {amap}")
    inside = np.ones(vshape, bool)
    for c, n in zip(coords, source_shape):
        inside &= (c >= 0) & (c < n)
    return coords, inside


def _in_bounds(op: ir.Operation, rank: int) -> list[bool]:
    if "in_bounds" not in op.attributes:
        return [False] * rank
    return [ir.BoolAttr(a).value for a in ir.ArrayAttr(op.attributes["in_bounds"])]


def _claimed(op: ir.Operation, amap: ir.AffineMap, coords: list[np.ndarray], shape: Sequence[int]) -> np.ndarray:
    """Where an ``in_bounds`` claim is false (undefined: poison)."""
    wrong = np.zeros(coords[0].shape if coords else (), bool)
    for j, claim in enumerate(_in_bounds(op, len(amap.results))):
        expr = amap.results[j]
        if claim and isinstance(expr, ir.AffineDimExpr):
            k = ir.AffineDimExpr(expr).position
            wrong |= (coords[k] < 0) | (coords[k] >= shape[k])
    return wrong


@handles("vector.transfer_read")
def _transfer_read(interp: Interpreter, op: ir.Operation, args: list) -> list:
    (source,), indices, (padding,), mask = _segments(op, args)
    if isinstance(op.operands[0].type, ir.MemRefType):
        raise NotInterpretable("op vector.transfer_read of a memref")
    source = np.asarray(source)
    vshape = _shape(op.results[0].type)
    amap = _map(op)
    coords, inside = _coordinates(amap, indices, source.shape, vshape)
    clipped = tuple(np.clip(c, 0, max(n - 1, 0)) for c, n in zip(coords, source.shape))
    read = source[clipped] if source.size else np.zeros(vshape)
    out = np.where(inside, read, padding)
    if mask:
        out = np.where(np.broadcast_to(np.asarray(mask[0], bool), vshape), out, padding)
    wrong = _claimed(op, amap, coords, source.shape)
    if wrong.any():
        out = np.where(wrong, poison(vshape, elem_of(op.results[0])), out)
    return [out]


@handles("vector.transfer_write")
def _transfer_write(interp: Interpreter, op: ir.Operation, args: list) -> list:
    (vector,), (dest,), indices, mask = _segments(op, args)
    if not op.results:
        raise NotInterpretable("op vector.transfer_write on a memref")
    out = np.array(dest, copy=True)
    vector = np.asarray(vector)
    coords, inside = _coordinates(_map(op), indices, out.shape, vector.shape)
    if mask:
        inside = inside & np.broadcast_to(np.asarray(mask[0], bool), vector.shape)
    if out.ndim == 0:
        return [np.array(vector if inside else out)]
    out[tuple(c[inside] for c in coords)] = vector[inside]
    return [out]


@handles("iree_vector_ext.transfer_gather")
def _transfer_gather(interp: Interpreter, op: ir.Operation, args: list) -> list:
    """``base[offsets + map0(d)[s]]`` with each symbol ``s_k = index_vec_k[map_{k+1}(d)]``, padding outside."""
    segments = _segments(op, args)
    (base,), offsets, index_vecs, (padding,) = segments[:4]
    mask = segments[4] if len(segments) > 4 else []
    base = np.asarray(base)
    vshape = _shape(op.results[0].type)
    maps = [ir.AffineMapAttr(m).value for m in ir.ArrayAttr(op.attributes["indexing_maps"])]
    grids = list(np.indices(vshape)) if vshape else []
    symbols = [np.asarray(v)[tuple(_affine(e, grids, []) for e in m.results)] for v, m in zip(index_vecs, maps[1:])]
    coords = [
        np.broadcast_to(int(o) + np.asarray(_affine(e, grids, symbols)), vshape)
        for o, e in zip(offsets, maps[0].results)
    ]
    inside = np.ones(vshape, bool)
    for c, n in zip(coords, base.shape):
        inside &= (c >= 0) & (c < n)
    clipped = tuple(np.clip(c, 0, max(n - 1, 0)) for c, n in zip(coords, base.shape))
    out = np.where(inside, base[clipped], padding)
    return [np.where(np.broadcast_to(np.asarray(mask[0], bool), vshape), out, padding) if mask else out]


# --------------------------------------------------------------------------- vector values


@handles("vector.broadcast", "vector.splat")
def _broadcast(interp: Interpreter, op: ir.Operation, args: list) -> list:
    return [np.array(np.broadcast_to(np.asarray(args[0]), _shape(op.results[0].type)))]


@handles("vector.shape_cast")
def _shape_cast(interp: Interpreter, op: ir.Operation, args: list) -> list:
    return [np.asarray(args[0]).reshape(_shape(op.results[0].type))]


@handles("vector.transpose")
def _transpose(interp: Interpreter, op: ir.Operation, args: list) -> list:
    return [np.transpose(np.asarray(args[0]), _i64s(op, "permutation"))]


def _position(op: ir.Operation, dynamic: Sequence[Any]) -> tuple[int, ...]:
    return tuple(_mixed(_i64s(op, "static_position"), dynamic))


@handles("vector.extract")
def _extract(interp: Interpreter, op: ir.Operation, args: list) -> list:
    source = np.asarray(args[0])
    index = _position(op, args[1:])
    if any(not 0 <= i < n for i, n in zip(index, source.shape)):
        return [poison(_shape(op.results[0].type), elem_of(op.results[0]))]
    value = source[index]
    return [np.array(value) if np.ndim(value) else value]


@handles("vector.insert")
def _insert(interp: Interpreter, op: ir.Operation, args: list) -> list:
    dest = np.array(args[1], copy=True)
    index = _position(op, args[2:])
    if all(0 <= i < n for i, n in zip(index, dest.shape)):
        dest[index] = args[0]
    return [dest]


@handles("vector.extractelement", "vector.insertelement")
def _element(interp: Interpreter, op: ir.Operation, args: list) -> list:
    if op.name == "vector.extractelement":
        source = np.asarray(args[0])
        return [source[int(args[1])] if len(args) > 1 else source[()]]
    dest = np.array(args[1], copy=True)
    dest[int(args[2]) if len(args) > 2 else ()] = args[0]
    return [dest]


def _strided(op: ir.Operation, shape: Sequence[int], sizes: Sequence[int]) -> tuple:
    offsets, strides = _i64s(op, "offsets"), _i64s(op, "strides")
    index = tuple(slice(o, o + (s - 1) * st + 1, st) for o, s, st in zip(offsets, sizes, strides))
    return index + (slice(None),) * (len(shape) - len(index))


@handles("vector.extract_strided_slice")
def _extract_strided(interp: Interpreter, op: ir.Operation, args: list) -> list:
    source = np.asarray(args[0])
    return [source[_strided(op, source.shape, _i64s(op, "sizes"))]]


@handles("vector.insert_strided_slice")
def _insert_strided(interp: Interpreter, op: ir.Operation, args: list) -> list:
    source, dest = np.asarray(args[0]), np.array(args[1], copy=True)
    lead = dest.ndim - source.ndim  # the offsets of the leading dims beyond the source's rank pick one position
    offsets, strides = _i64s(op, "offsets"), _i64s(op, "strides")
    index = tuple(offsets[:lead]) + tuple(
        slice(o, o + (n - 1) * st + 1, st) for o, n, st in zip(offsets[lead:], source.shape, strides)
    )
    dest[index] = source
    return [dest]


@handles("vector.fma")
def _fma(interp: Interpreter, op: ir.Operation, args: list) -> list:
    a, b, c = (np.asarray(x, np.float64) for x in args)
    return [a * b + c]


@handles("vector.step")
def _step(interp: Interpreter, op: ir.Operation, args: list) -> list:
    return [np.arange(_shape(op.results[0].type)[0], dtype=np.int64)]


@handles("vector.from_elements")
def _from_elements(interp: Interpreter, op: ir.Operation, args: list) -> list:
    return [np.asarray(args).reshape(_shape(op.results[0].type))]


def _mask(shape: Sequence[int], bounds: Sequence[int]) -> np.ndarray:
    grids: Sequence[np.ndarray] = list(np.indices(shape)) if shape else []
    mask = np.ones(shape, bool)
    for g, n in zip(grids, bounds):
        mask &= g < n
    return mask


@handles("vector.create_mask")
def _create_mask(interp: Interpreter, op: ir.Operation, args: list) -> list:
    return [_mask(_shape(op.results[0].type), [int(a) for a in args])]


@handles("vector.constant_mask")
def _constant_mask(interp: Interpreter, op: ir.Operation, args: list) -> list:
    return [_mask(_shape(op.results[0].type), _i64s(op, "mask_dim_sizes"))]


# --------------------------------------------------------------------------- reductions and contractions


def _kind(op: ir.Operation) -> str:
    text = str(op.attributes["kind"])  # #vector.kind<add>
    return text[text.index("<") + 1 : text.rindex(">")]


def _combine(kind: str, e: Elem) -> Any:
    """The binary function of a combining kind."""
    if kind == "add":
        return np.add
    if kind == "mul":
        return np.multiply
    floats = {"minnumf": np.fmin, "maxnumf": np.fmax, "minimumf": np.minimum, "maximumf": np.maximum}
    if kind in floats:
        return floats[kind]
    if kind in ("minsi", "maxsi"):
        return np.minimum if kind == "minsi" else np.maximum
    if kind in ("minui", "maxui"):
        pick = np.less if kind == "minui" else np.greater
        return lambda a, b: np.where(pick(unsigned(a, e), unsigned(b, e)), a, b)
    if kind in ("and", "or", "xor"):
        return {"and": np.bitwise_and, "or": np.bitwise_or, "xor": np.bitwise_xor}[kind]
    raise NotInterpretable(f"op vector combining kind {kind}")


def _reduce(values: np.ndarray, axes: Sequence[int], kind: str, e: Elem) -> np.ndarray:
    fn = _combine(kind, e)
    out = np.asarray(values)
    for axis in sorted(axes, reverse=True):
        out = fn.reduce(out, axis=axis) if isinstance(fn, np.ufunc) else _fold(out, axis, fn)
    return out


def _fold(values: np.ndarray, axis: int, fn: Any) -> np.ndarray:
    parts = np.moveaxis(values, axis, 0)
    out = parts[0]
    for p in parts[1:]:
        out = fn(out, p)
    return out


def _typed(x: Any, e: Elem) -> Any:
    return np.asarray(x, np.float64) if e.is_float else wrap(np.asarray(x), e)


@handles("vector.multi_reduction")
def _multi_reduction(interp: Interpreter, op: ir.Operation, args: list) -> list:
    source, acc = np.asarray(args[0]), args[1]
    e = elem_of(op.results[0])
    reduced = _reduce(source, _i64s(op, "reduction_dims"), _kind(op), e)
    return [_typed(_combine(_kind(op), e)(reduced, acc), e)]


@handles("vector.reduction")
def _reduction(interp: Interpreter, op: ir.Operation, args: list) -> list:
    e = elem_of(op.results[0])
    out = _reduce(np.asarray(args[0]), range(np.ndim(args[0])), _kind(op), e)
    if len(args) > 1:
        out = _combine(_kind(op), e)(out, args[1])
    return [_typed(out, e)[()]]


@handles("vector.contract")
def _contract(interp: Interpreter, op: ir.Operation, args: list) -> list:
    lhs, rhs, acc = (np.asarray(a) for a in args[:3])
    if len(args) > 3:
        raise NotInterpretable("op vector.contract with masks")
    if _kind(op) != "add":
        raise NotInterpretable(f"op vector.contract of kind {_kind(op)}")
    maps = [ir.AffineMapAttr(m).value for m in ir.ArrayAttr(op.attributes["indexing_maps"])]
    letters = []
    for amap in maps:
        if not all(isinstance(r, ir.AffineDimExpr) for r in amap.results):
            raise NotInterpretable("op vector.contract with a non-permutation map")
        letters.append("".join(chr(97 + ir.AffineDimExpr(r).position) for r in amap.results))
    e = elem_of(op.results[0])
    kind = np.float64 if e.is_float else np.int64
    product = np.einsum(f"{letters[0]},{letters[1]}->{letters[2]}", lhs.astype(kind), rhs.astype(kind))
    return [_typed(acc + product, e)]


# --------------------------------------------------------------------------- affine


def _affine(expr: ir.AffineExpr, dims: Sequence[Any], symbols: Sequence[Any]) -> Any:
    if isinstance(expr, ir.AffineDimExpr):
        return dims[ir.AffineDimExpr(expr).position]
    if isinstance(expr, ir.AffineSymbolExpr):
        return symbols[ir.AffineSymbolExpr(expr).position]
    if isinstance(expr, ir.AffineConstantExpr):
        return ir.AffineConstantExpr(expr).value
    for kind, fn in (
        (ir.AffineAddExpr, np.add),
        (ir.AffineMulExpr, np.multiply),
        (ir.AffineModExpr, np.mod),
        (ir.AffineFloorDivExpr, np.floor_divide),
        (ir.AffineCeilDivExpr, lambda a, b: -np.floor_divide(-a, b)),
    ):
        if isinstance(expr, kind):
            binary = kind(expr)
            return fn(_affine(binary.lhs, dims, symbols), _affine(binary.rhs, dims, symbols))
    raise NotInterpretable(f"affine expression {expr}")


def _apply(op: ir.Operation, args: list) -> list[int]:
    amap = _map(op, "map")
    dims, symbols = args[: amap.n_dims], args[amap.n_dims :]
    return [int(_affine(r, [int(d) for d in dims], [int(s) for s in symbols])) for r in amap.results]


@handles("affine.apply")
def _affine_apply(interp: Interpreter, op: ir.Operation, args: list) -> list:
    return [np.int64(_apply(op, args)[0])]


@handles("affine.min", "affine.max")
def _affine_min_max(interp: Interpreter, op: ir.Operation, args: list) -> list:
    values = _apply(op, args)
    return [np.int64(min(values) if op.name == "affine.min" else max(values))]


def _basis(op: ir.Operation, args: Sequence[Any]) -> list[int]:
    return _mixed(_i64s(op, "static_basis"), args)


@handles("affine.delinearize_index")
def _delinearize(interp: Interpreter, op: ir.Operation, args: list) -> list:
    index, basis = int(args[0]), _basis(op, args[1:])
    inner = basis[1:] if len(op.results) == len(basis) else basis  # with an outer bound, it is not used
    out = []
    for n in reversed(inner):
        out.append(index % n)
        index //= n
    return [np.int64(i) for i in [index, *reversed(out)]]


@handles("affine.linearize_index")
def _linearize(interp: Interpreter, op: ir.Operation, args: list) -> list:
    n = len(args) - sum(1 for v in _i64s(op, "static_basis") if v == DYNAMIC)
    indices, basis = [int(a) for a in args[:n]], _basis(op, args[n:])
    basis = basis[1:] if len(basis) == len(indices) else basis
    total = indices[0]
    for i, b in zip(indices[1:], basis):
        total = total * b + i
    return [np.int64(total)]


# --------------------------------------------------------------------------- scf.forall

_SHARED: "weakref.WeakKeyDictionary[Interpreter, list[list[Any]]]" = weakref.WeakKeyDictionary()


@handles("scf.forall")
def _forall(interp: Interpreter, op: ir.Operation, args: list) -> list:
    """Every iteration sees the shared outputs as they were on entry (tensors are values: a parallel insert of
    another iteration is not visible); each one's ``parallel_insert_slice``s go into the results."""
    lower, upper, step, outs = _segments(op, args)
    lbs = _mixed(_i64s(op, "staticLowerBound"), lower)
    ubs = _mixed(_i64s(op, "staticUpperBound"), upper)
    steps = _mixed(_i64s(op, "staticStep"), step)
    block = op.regions[0].blocks[0]
    stack = _SHARED.setdefault(interp, [])
    stack.append([np.array(o, copy=True) for o in outs])
    try:
        for point in itertools.product(*(range(lb, ub, st) for lb, ub, st in zip(lbs, ubs, steps))):
            interp.run_block(block, [*(np.int64(i) for i in point), *outs])
        return stack[-1]
    finally:
        stack.pop()


@handles("scf.forall.in_parallel")
def _in_parallel(interp: Interpreter, op: ir.Operation, args: list) -> list:
    """Each ``tensor.parallel_insert_slice`` into the enclosing forall's shared outputs."""
    block = op.parent.operation.regions[0].blocks[0]
    outs = list(block.arguments)[len(block.arguments) - len(_SHARED[interp][-1]) :]
    insert = HANDLERS["tensor.insert_slice"]
    for inner in op.regions[0].blocks[0].operations:
        inner = inner.operation
        if inner.name != "tensor.parallel_insert_slice":
            raise NotInterpretable(f"op {inner.name} in scf.forall.in_parallel")
        k = next(i for i, a in enumerate(outs) if a == inner.operands[1])
        values = [interp.env[v] if v != inner.operands[1] else _SHARED[interp][-1][k] for v in inner.operands]
        (_SHARED[interp][-1][k],) = insert(interp, inner, values)
    return []
