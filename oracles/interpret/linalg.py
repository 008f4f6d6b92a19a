"""``linalg`` ops: ``linalg.generic`` (vectorized over its parallel space, reductions in iteration order
or in one NumPy reduction when associative), affine maps, softmax, and the ``iree_linalg_ext`` ops
(attention, gather, scatter, scan, sort, topk) and ``linalg.pack`` / ``unpack``.
"""

from __future__ import annotations

import itertools
import math
from typing import Any, Iterable, Sequence

import numpy as np
from iree.compiler import ir

from ireefuzz.errors import NotInterpretable
from ireefuzz.generators.ops import pack_array, unpack_array

from .core import (
    Array,
    Interpreter,
    Mask,
    Tracked,
    _check_in_bounds,
    _indices_in_bounds,
    _ints,
    _reads,
    compile_block,
    defined_indices,
    elem_of,
    handles,
    merged,
    moves_data,
    poison_rule,
    spread_everywhere,
    to_elem,
)

FUSED_STEPS = 1 << 21  # an associative reduction is vectorized over chunks of its space this large


# --------------------------------------------------------------------------- affine maps


def _affine(expr: ir.AffineExpr, dims: Sequence[Any]) -> Any:
    if isinstance(expr, ir.AffineDimExpr):
        return dims[ir.AffineDimExpr(expr).position]
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
            e = kind(expr)
            return fn(_affine(e.lhs, dims), _affine(e.rhs, dims))
    raise NotInterpretable(f"op linalg.generic with affine expression {expr}")


def _maps(op: ir.Operation) -> list[ir.AffineMap]:
    return [ir.AffineMapAttr(m).value for m in ir.ArrayAttr(op.attributes["indexing_maps"])]


def _iterators(op: ir.Operation) -> list[str]:
    return [str(a).split("<")[-1].rstrip(">").strip('"') for a in ir.ArrayAttr(op.attributes["iterator_types"])]


def _loop_sizes(maps: Sequence[ir.AffineMap], operands: Sequence[Array], n_loops: int) -> list[int]:
    sizes: list[int | None] = [None] * n_loops
    for k, (amap, value) in enumerate(zip(maps, operands)):
        for axis, expr in enumerate(amap.results):
            if not isinstance(expr, ir.AffineDimExpr):
                continue
            loop, size = ir.AffineDimExpr(expr).position, np.shape(value)[axis]
            if sizes[loop] is None:
                sizes[loop] = size
            elif sizes[loop] != size:  # e.g. a matmul of 3x4 and 7x5: IREE reads out of bounds, nothing to judge
                raise NotInterpretable(
                    f"op linalg.generic: operand shapes disagree (loop d{loop} is {sizes[loop]} by "
                    f"an earlier operand, {size} by operand {k}; undefined behaviour)"
                )
    known = [s for s in sizes if s is not None]
    if len(known) < n_loops:
        raise NotInterpretable("op linalg.generic with a loop bound no operand gives")
    return known


def _element_index(amap: ir.AffineMap, dims: Sequence[Any]) -> tuple:
    return tuple(_affine(expr, dims) for expr in amap.results)


# --------------------------------------------------------------------------- linalg.generic


@handles("linalg.index")
def _linalg_index(interp: Interpreter, op: ir.Operation, args: list) -> list:
    return [np.asarray(interp.indices[-1].dim(ir.IntegerAttr(op.attributes["dim"]).value))]


ASSOCIATIVE = {
    "arith.addf": np.add,
    "arith.addi": np.add,
    "arith.muli": np.multiply,
    "arith.mulf": np.multiply,
    "arith.maxsi": np.maximum,
    "arith.minsi": np.minimum,
    "arith.maximumf": np.maximum,
    "arith.minimumf": np.minimum,
    "arith.maxf": np.maximum,
    "arith.minf": np.minimum,
    "arith.maxnumf": np.fmax,
    "arith.minnumf": np.fmin,
    "arith.andi": np.bitwise_and,
    "arith.ori": np.bitwise_or,
    "arith.xori": np.bitwise_xor,
}


class _Space:
    """The loop dims of one evaluation of a generic body: some are axes of the arrays the body runs on
    (a range ``[low, high)`` of the dim), the others fixed at one index."""

    def __init__(
        self, ranges: dict[int, tuple[int, int]], fixed: dict[int, int], accumulators: frozenset = frozenset()
    ) -> None:
        self.axes = {d: axis for axis, d in enumerate(sorted(ranges))}
        self.ranges, self.fixed = ranges, fixed
        self.accumulators = accumulators  # the body's values that depend on an accumulator (a reduction's outs)
        self.shape = tuple(high - low for low, high in (ranges[d] for d in sorted(ranges)))

    def dim(self, d: int) -> Any:
        """The value(s) of loop dim ``d``: an int, or an arange along its axis."""
        if d in self.fixed:
            return self.fixed[d]
        low, high = self.ranges[d]
        return np.arange(low, high).reshape([-1 if a == self.axes[d] else 1 for a in range(len(self.shape))])

    def _view_index(self, amap: ir.AffineMap) -> tuple[tuple, list[int]] | None:
        """For a projected permutation: the basic index into the operand and the axis each kept dim lands on."""
        index: list[int | slice] = []
        landing: list[int] = []
        for expr in amap.results:
            if not isinstance(expr, ir.AffineDimExpr):
                return None
            d = expr.position
            if d in self.fixed:
                index.append(self.fixed[d])
            else:
                index.append(slice(*self.ranges[d]))
                landing.append(self.axes[d])
        return (tuple(index), landing) if len(set(landing)) == len(landing) else None

    def read(self, value: Any, amap: ir.AffineMap) -> Array:
        """The operand's elements at every point of the space (a view when the map allows)."""
        if not np.ndim(value):
            return np.asarray(value)
        found = self._view_index(amap)
        if found is None:
            return np.asarray(value)[_element_index(amap, [self.dim(d) for d in range(amap.n_dims)])]
        index, landing = found
        view = np.asarray(value)[index].transpose(np.argsort(landing))
        return np.expand_dims(view, tuple(a for a in range(len(self.shape)) if a not in landing))

    def write(self, out: Array, amap: ir.AffineMap, value: Any) -> None:
        found = self._view_index(amap)
        if found is not None and len(found[1]) == len(self.shape):
            index, landing = found
            out[index] = np.broadcast_to(value, self.shape).transpose(landing)
            return
        index = _element_index(amap, [self.dim(d) for d in range(amap.n_dims)])
        target = np.broadcast_shapes(*[np.shape(i) for i in index]) if index else ()
        out[index] = np.broadcast_to(value, np.broadcast_shapes(np.shape(value), target))


@handles("linalg.generic")
def _generic(interp: Interpreter, op: ir.Operation, args: list) -> Tracked:
    n_outs = len(op.results)
    n_ins = len(args) - n_outs
    maps, iterators = _maps(op), _iterators(op)
    sizes = _loop_sizes(maps, args, len(iterators))
    for amap, value in zip(maps, args):
        if np.ndim(value):
            _check_in_bounds(_element_index(amap, _bounds_probe(sizes)), np.shape(value), "linalg.generic")
    outs = [np.array(a, copy=True) for a in args[n_ins:]]
    poison = interp.operand_poison(op)
    masks: list[Mask | None] = [None if m is None else np.array(m, copy=True) for m in poison[n_ins:]]
    if 0 in sizes:
        return Tracked(outs, masks)
    block = op.regions[0].blocks[0]
    steps = compile_block(block)
    parallel = {d: (0, n) for d, (n, kind) in enumerate(zip(sizes, iterators)) if kind == "parallel"}
    reduction = [d for d, kind in enumerate(iterators) if kind != "parallel"]
    interp.longest_reduction = max(interp.longest_reduction, math.prod(sizes[d] for d in reduction))
    combiners = _associative_combiners(block, steps, n_ins)
    if reduction and combiners is not None and not any(_reads_dims(m, reduction) for m in maps[n_ins:]):
        whole = _Space({**parallel, **{d: (0, sizes[d]) for d in reduction}}, {})
        contraction = _contraction(block, combiners, n_ins, maps, whole) is not None  # no big temporaries
        for space in [whole] if contraction else _chunks(sizes, parallel, reduction):
            _fused_step(interp, block, steps, args, maps, space, reduction, combiners, outs, masks, n_ins)
        return Tracked(outs, masks)
    accumulators = _depending_on(block, list(block.arguments)[n_ins:]) if reduction else frozenset()
    for point in _reduction_points([sizes[d] for d in reduction]):
        space = _Space(parallel, dict(zip(reduction, point)), accumulators)
        _step(interp, block, steps, args, poison[:n_ins], maps, space, outs, masks, n_ins)
    return Tracked(outs, masks)


def _depending_on(block: ir.Block, values: Sequence[ir.Value]) -> frozenset:
    """The values of ``block`` that depend on any of ``values`` (themselves included)."""
    found = set(values)
    for op in block.operations:
        if any(v in found for v in _reads(op.operation)):
            found.update(op.operation.results)
    return frozenset(found)


def _write_poison(masks: list[Mask | None], k: int, out: Array, space: _Space, amap: ir.AffineMap, mask: Any) -> None:
    """Out ``k``'s elements at ``space`` now hold a value whose poison is ``mask`` (None: defined)."""
    target = masks[k]
    if target is None:
        if mask is None:
            return
        target = masks[k] = np.zeros(np.shape(out), np.uint8)
    space.write(target, amap, 0 if mask is None else mask)


def _reads_dims(amap: ir.AffineMap, dims: Sequence[int]) -> bool:
    """Whether ``amap`` may depend on any of ``dims`` (conservatively True for compound expressions)."""
    return any(
        not isinstance(e, ir.AffineDimExpr)
        and not isinstance(e, ir.AffineConstantExpr)
        or isinstance(e, ir.AffineDimExpr)
        and e.position in dims
        for e in amap.results
    )


def _reduction_points(sizes: Sequence[int]) -> Iterable[tuple[int, ...]]:
    """The reduction loop indices in iteration order (the innermost dim fastest)."""
    return itertools.product(*(range(s) for s in sizes))


def _chunks(sizes: list[int], parallel: dict, reduction: list[int]) -> Iterable[_Space]:
    """The whole space in pieces of at most FUSED_STEPS points, split along the outermost reduction dim
    (other reduction dims whole), in iteration order."""
    first, rest = reduction[0], reduction[1:]
    per_index = math.prod(sizes[d] for d in range(len(sizes)) if d != first)
    step = max(1, FUSED_STEPS // max(per_index, 1))
    for low in range(0, sizes[first], step):
        yield _Space({**parallel, first: (low, min(low + step, sizes[first])), **{d: (0, sizes[d]) for d in rest}}, {})


def _bounds_probe(sizes: Sequence[int]) -> list[Array]:
    """Loop indices at their extremes: enough to check an affine (monotone per dim) access stays in bounds."""
    return [
        np.array([0, max(s - 1, 0)]).reshape([-1 if k == d else 1 for k in range(len(sizes))])
        if s
        else np.zeros([0] * len(sizes), np.int64)
        for d, s in enumerate(sizes)
    ]


def _step(
    interp: Interpreter,
    block: ir.Block,
    steps: list,
    args: list,
    in_poison: list[Mask | None],
    maps: list,
    space: _Space,
    outs: list[Array],
    masks: list[Mask | None],
    n_ins: int,
) -> None:
    """One evaluation of the body over ``space`` (all parallel points at one reduction index)."""
    block_args = [space.read(a, m) for a, m in zip(args[:n_ins], maps)]
    block_args += [space.read(out, m) for out, m in zip(outs, maps[n_ins:])]
    poison = [None if p is None else space.read(p, m) for p, m in zip([*in_poison, *masks], maps)]
    interp.indices.append(space)
    try:
        yielded = interp.run_block(block, block_args, steps, poison)
    finally:
        interp.indices.pop()
    for k, (out, y, m, mask) in enumerate(zip(outs, yielded, maps[n_ins:], interp.yielded)):
        space.write(out, m, y)
        _write_poison(masks, k, out, space, m, mask)


def _associative_combiners(block: ir.Block, steps: list, n_ins: int) -> list | None:
    """For a body ``out_k = combine_k(out_k, f_k(ins))``: the combine ops, their ufuncs and the values f_k."""
    out_args = list(block.arguments)[n_ins:]
    yielded = steps[-1][2]
    found = []
    for out_arg, value in zip(out_args, yielded):
        producer = value.owner if isinstance(value, ir.OpResult) else None
        if producer is None or producer.name not in ASSOCIATIVE or len(producer.operands) != 2:
            return None
        a, b = producer.operands
        other = b if a == out_arg else a if b == out_arg else None
        if other is None:
            return None
        found.append((producer, ASSOCIATIVE[producer.name], other))
    combine_ops = {f[0] for f in found}
    for handler, op, operands, *_ in steps:  # the out args may feed only their combine
        if any(v in out_args for v in operands) and op not in combine_ops:
            return None
    return found


def _fused_step(
    interp: Interpreter,
    block: ir.Block,
    steps: list,
    args: list,
    maps: list,
    space: _Space,
    reduction: list[int],
    combiners: list,
    outs: list[Array],
    masks: list[Mask | None],
    n_ins: int,
) -> None:
    """f(ins) over a whole chunk of the space at once, folded over its reduction axes by the combine ufunc (and
    its poison by max: one undefined step makes the result undefined)."""
    folded_space = _Space({d: r for d, r in space.ranges.items() if d not in reduction}, {d: 0 for d in reduction})
    product = _contraction(block, combiners, n_ins, maps, space)
    if product is not None and not any(interp.poison.get(v) is not None for v in _operands(block, product)):
        (a, la), (b, lb) = ((np.asarray(args[i])[index], labels) for i, index, labels in product)
        with np.errstate(all="ignore"):
            folded_values = [np.einsum(a, la, b, lb, sorted(folded_space.ranges), optimize=True)]
        folded_poison: list[Mask | None] = [None]
    else:
        folded_values, folded_poison = _fold(interp, block, steps, args, maps, space, reduction, combiners, n_ins)
    for k, (out, m, (producer, ufunc, value), folded) in enumerate(zip(outs, maps[n_ins:], combiners, folded_values)):
        with np.errstate(all="ignore"):
            combined = ufunc(folded_space.read(out, m), folded)
        folded_space.write(out, m, to_elem(combined, elem_of(producer.results[0])))
        before = None if masks[k] is None else folded_space.read(masks[k], m)
        _write_poison(masks, k, out, folded_space, m, merged([before, folded_poison[k]]))


def _operands(block: ir.Block, product: list) -> list[ir.Value]:
    """The generic's operands a contraction reads (by their block arguments' positions)."""
    owner = block.owner
    return [owner.operands[i] for i, _, _ in product]


def _fold(
    interp: Interpreter,
    block: ir.Block,
    steps: list,
    args: list,
    maps: list,
    space: _Space,
    reduction: list[int],
    combiners: list,
    n_ins: int,
) -> tuple[list[Array], list[Mask | None]]:
    env = interp.env
    env.update(zip(block.arguments, [space.read(a, m) for a, m in zip(args[:n_ins], maps)]))
    for arg, operand, m in zip(block.arguments, block.owner.operands, maps[:n_ins]):
        mask = interp.poison.get(operand)
        interp.set_poison(arg, None if mask is None else space.read(mask, m))
    combine_ops = {c[0] for c in combiners}
    interp.indices.append(space)
    try:
        interp.run_ops([s for s in steps[:-1] if s[1] not in combine_ops])
    finally:
        interp.indices.pop()
    axes = tuple(space.axes[d] for d in reduction)
    with np.errstate(all="ignore"):
        values = [ufunc.reduce(np.broadcast_to(env[value], space.shape), axis=axes) for _, ufunc, value in combiners]
    poison = [interp.poison.get(value) for _, _, value in combiners]
    return values, [None if p is None else np.broadcast_to(p, space.shape).max(axis=axes) for p in poison]


def _contraction(block: ir.Block, combiners: list, n_ins: int, maps: list, space: _Space) -> list | None:
    """A body ``yield acc + x * y`` (x, y inputs read through projected permutations): for each of x and y,
    its input number, basic index and einsum labels; else None."""
    if len(combiners) != 1 or combiners[0][0].name not in ("arith.addf", "arith.addi"):
        return None
    value = combiners[0][2]
    if not isinstance(value, ir.OpResult) or value.owner.name not in ("arith.mulf", "arith.muli"):
        return None
    found = []
    for operand in value.owner.operands:
        if not isinstance(operand, ir.BlockArgument) or operand.owner != block or operand.arg_number >= n_ins:
            return None
        amap = maps[operand.arg_number]
        view = space._view_index(amap)
        if view is None:
            return None
        found.append((operand.arg_number, view[0], [e.position for e in amap.results]))
    return found


@handles("linalg.softmax")
def _softmax(interp: Interpreter, op: ir.Operation, args: list) -> list:
    x, dim = np.asarray(args[0], np.float64), ir.IntegerAttr(op.attributes["dimension"]).value
    e = np.exp(x - np.max(x, axis=dim, keepdims=True, initial=-np.inf))
    return [e / np.sum(e, axis=dim, keepdims=True)]


@poison_rule("linalg.softmax")
def _softmax_poison(interp: Interpreter, op: ir.Operation, args: list, masks: list, outs: list) -> list:
    """One undefined element of a row makes the whole row undefined (its max and sum read them all)."""
    if masks[0] is None:
        return [None]
    dim = ir.IntegerAttr(op.attributes["dimension"]).value
    return [np.broadcast_to(masks[0].max(axis=dim, keepdims=True), np.shape(outs[0])).copy()]


@poison_rule("iree_linalg_ext.attention")
def _attention_poison(interp: Interpreter, op: ir.Operation, args: list, masks: list, outs: list) -> list:
    """Any undefined input makes every output undefined; the destination is overwritten, not read."""
    read = [m for m in masks[:-1] if m is not None]
    return [None] if not read else spread_everywhere(interp, op, args[:-1], read, outs)


@handles("iree_linalg_ext.attention")
def _attention(interp: Interpreter, op: ir.Operation, args: list) -> list:
    """softmax(scale * q.k + mask) . v over the maps' dims (projected-permutation maps, a yield-only body)."""
    if len(list(op.regions[0].blocks[0].operations)) != 1:
        raise NotInterpretable("op iree_linalg_ext.attention with a score modification")
    letters = []
    for amap in _maps(op):
        if not all(isinstance(e, ir.AffineDimExpr) for e in amap.results):
            raise NotInterpretable("op iree_linalg_ext.attention with non-projected maps")
        letters.append("".join(chr(97 + ir.AffineDimExpr(e).position) for e in amap.results))
    q, k, v, scale, *mask = (np.asarray(a, np.float64) for a in args[: len(letters) - 1])
    lq, lk, lv, _, *lm, lo = letters
    head = set(lq) & set(lk) - set(lo)
    ls = "".join(ch for ch in lq if ch not in head) + "".join(ch for ch in lk if ch not in lq)  # the scores' dims
    scores = np.einsum(f"{lq},{lk}->{ls}", q, k) * scale
    if mask:
        scores = scores + np.einsum(f"{lm[0]}->{ls}", mask[0])
    axis = [ls.index(ch) for ch in ls if ch in lk and ch in lv and ch not in lo][0]
    e = np.exp(scores - np.max(scores, axis=axis, keepdims=True, initial=-np.inf))
    return [np.einsum(f"{ls},{lv}->{lo}", e / np.sum(e, axis=axis, keepdims=True), v)]


# --------------------------------------------------------------------------- iree_linalg_ext


@handles("iree_linalg_ext.gather")
def _gather(interp: Interpreter, op: ir.Operation, args: list) -> list:
    """out[batch..., slice...] = source[indices[batch..., :] at dimension_map, slice...]."""
    source, indices, out = (np.asarray(a) for a in args)
    dim_map = _ints(op.attributes["dimension_map"])
    batch_rank = out.ndim - (source.ndim - len(dim_map))
    if indices.ndim == batch_rank:  # the index depth dim may be left out when it is 1
        indices = indices[..., None]
    coords = tuple(indices[..., k].astype(np.int64) for k in range(len(dim_map)))
    _check_in_bounds(coords, [source.shape[d] for d in dim_map], op.name)
    moved = np.moveaxis(source, dim_map, list(range(len(dim_map))))  # indexed dims first, slice dims after
    return [moved[coords].reshape(out.shape)]


@poison_rule("iree_linalg_ext.gather")
def _gather_poison(interp: Interpreter, op: ir.Operation, args: list, masks: list, outs: list) -> list:
    """The source's poison gathered (the destination is overwritten); an undefined index is undefined behaviour."""
    source_mask, index_mask, _ = masks
    defined_indices(interp, op, [index_mask], " index")
    if source_mask is None:
        return [None]
    (mask,) = _gather(interp, op, [source_mask, args[1], args[2]])
    return [np.asarray(mask).astype(np.uint8)]


@handles("iree_linalg_ext.scatter")
def _scatter(interp: Interpreter, op: ir.Operation, args: list) -> Tracked:
    updates, indices, original = (np.asarray(a) for a in args)
    update_poison, index_poison, original_poison = interp.operand_poison(op)
    defined_indices(interp, op, [index_poison], " index")
    dim_map = _ints(op.attributes["dimension_map"])
    batch_rank = indices.ndim - 1
    out = np.array(original, copy=True)
    poison = np.zeros(out.shape, np.uint8) if original_poison is None else np.array(original_poison, copy=True)
    block = op.regions[0].blocks[0]
    moved = np.moveaxis(out, dim_map, list(range(len(dim_map))))  # a view: writes land in ``out``
    moved_poison = np.moveaxis(poison, dim_map, list(range(len(dim_map))))
    slice_shape = moved.shape[len(dim_map) :]
    count = int(np.prod(updates.shape[:batch_rank]))  # not -1: ambiguous when a slice is empty
    flat_updates = updates.reshape(count, *updates.shape[batch_rank:])
    flat_update_poison = (
        np.zeros(flat_updates.shape, np.uint8) if update_poison is None else update_poison.reshape(flat_updates.shape)
    )
    flat_indices = indices.reshape(count, indices.shape[-1]).astype(np.int64)
    for update, update_mask, coord in zip(flat_updates, flat_update_poison, flat_indices):  # duplicates in order
        where = tuple(int(c) for c in coord)
        _indices_in_bounds(op, where, moved.shape[: len(dim_map)])
        target, target_poison = moved[where], moved_poison[where]
        window = tuple(slice(0, n) for n in np.shape(update)[-len(slice_shape) :]) if slice_shape else ()
        current = target[window] if slice_shape else target
        current_poison = target_poison[window] if slice_shape else target_poison
        update, update_mask = update.reshape(np.shape(current)), update_mask.reshape(np.shape(current))
        (combined,) = interp.run_block(block, [update, current], poison=[update_mask, current_poison])
        combined_poison = merged(interp.yielded, np.shape(current))
        if slice_shape:
            target[window] = combined
            target_poison[window] = 0 if combined_poison is None else combined_poison
        else:
            moved[where] = combined
            moved_poison[where] = 0 if combined_poison is None else combined_poison
    return Tracked([out], [poison])


def _comparator_order(
    interp: Interpreter, op: ir.Operation, keys: Sequence[Array], poison: Sequence[Mask | None]
) -> tuple[Array, Mask | None]:
    """Per row (the last axis), the positions in the order ``op``'s comparator region puts them: the region
    runs once on every pair (lhs j, rhs i) of each key; pairs it leaves unordered keep their position
    order (a stable sort, what a comparator that is a strict weak order allows). With the rows whose order is
    undefined (poison of one element per row): where the comparator's answer is, or where it compares a NaN (no
    strict weak order holds then: where the NaN lands depends on the sorting algorithm)."""
    n = np.shape(keys[0])[-1]
    block = op.regions[0].blocks[0]
    pairs = [v for k in keys for v in (np.asarray(k)[..., :, None], np.asarray(k)[..., None, :])]
    pair_poison = [p for m in poison for p in ((None, None) if m is None else (m[..., :, None], m[..., None, :]))]
    (before,) = interp.run_block(block, pairs, poison=pair_poison)
    shape = np.shape(keys[0]) + (n,)
    answer_poison = merged(interp.yielded, shape)
    before = np.broadcast_to(np.asarray(before, bool), shape)  # [..., j, i]: j goes before i
    unordered = ~before & ~np.swapaxes(before, -1, -2)
    placed_before = before | unordered & (np.arange(n)[:, None] < np.arange(n)[None, :])
    order = np.argsort(np.sum(placed_before, axis=-2), axis=-1, kind="stable")
    arguments = list(block.arguments)
    compared = [
        k
        for i, k in enumerate(keys)
        if elem_of(arguments[2 * i]).is_float and (list(arguments[2 * i].uses) or list(arguments[2 * i + 1].uses))
    ]
    nan = np.zeros(np.shape(keys[0])[:-1] + (1,), bool)
    for k in compared:
        nan |= np.isnan(np.asarray(k, np.float64)).any(axis=-1, keepdims=True)
    row = [None if answer_poison is None else answer_poison.max(axis=(-2, -1))[..., None]]
    if nan.any():
        row.append(np.where(nan, interp.source(op, _NAN_ORDER), 0).astype(np.uint8))
    return order, merged(row)


_NAN_ORDER = "its comparator orders a NaN, which no strict weak order places"


def _key_poison(interp: Interpreter, op: ir.Operation, n: int) -> list[Mask | None]:
    """The poison of a sort's (or topk's) keys, moved like the keys (the sorted dim last)."""
    dim = ir.IntegerAttr(op.attributes["dimension"]).value
    return [None if m is None else np.moveaxis(m, dim, -1) for m in interp.operand_poison(op)[-n:]]


def _sorted_poison(
    masks: Sequence[Mask | None], order: Array, row: Mask | None, dim: int, shape: Sequence[int]
) -> list[Mask | None]:
    """Each output's poison: its key's poison moved with it, and the whole row where the order is undefined."""
    found = []
    for mask in masks:
        moved = None if mask is None else np.take_along_axis(mask, order, axis=-1)
        both = merged([moved, row], np.shape(order))
        found.append(None if both is None else np.moveaxis(both, -1, dim).reshape(shape))
    return found


@handles("iree_linalg_ext.sort")
def _sort(interp: Interpreter, op: ir.Operation, args: list) -> Tracked:
    dim = ir.IntegerAttr(op.attributes["dimension"]).value
    keys = [np.moveaxis(np.asarray(a), dim, -1) for a in args]
    poison = _key_poison(interp, op, len(keys))
    order, row = _comparator_order(interp, op, keys, poison)
    values = [np.moveaxis(np.take_along_axis(k, order, axis=-1), -1, dim) for k in keys]
    return Tracked(values, _sorted_poison(poison, order, row, dim, np.shape(values[0])))


@handles("iree_linalg_ext.topk")
def _topk(interp: Interpreter, op: ir.Operation, args: list) -> Tracked:
    """The outs (initial values and indices) merged with the input, the first k by the comparator; an input
    the comparator does not put before an equal entry already in the outs does not displace it."""
    dim = ir.IntegerAttr(op.attributes["dimension"]).value
    values, *given, out_values, out_indices = (np.moveaxis(np.asarray(a), dim, -1) for a in args)
    value_poison, *given_poison, out_value_poison, out_index_poison = _key_poison(interp, op, len(args))
    positions = given[0] if given else np.broadcast_to(np.arange(values.shape[-1]), values.shape)
    keys = np.concatenate([out_values, values], axis=-1)
    key_poison = _joined([out_value_poison, value_poison], [out_values, values])
    order, row = _comparator_order(interp, op, [keys], [key_poison])
    order = order[..., : out_values.shape[-1]]
    indices = np.concatenate([out_indices, positions], axis=-1)
    index_poison = _joined([out_index_poison, given_poison[0] if given_poison else None], [out_indices, positions])
    results = [np.moveaxis(np.take_along_axis(k, order, axis=-1), -1, dim) for k in (keys, indices)]
    return Tracked(results, _sorted_poison([key_poison, index_poison], order, row, dim, np.shape(results[0])))


def _joined(masks: Sequence[Mask | None], values: Sequence[Array]) -> Mask | None:
    if all(m is None for m in masks):
        return None
    return np.concatenate([np.zeros(np.shape(v), np.uint8) if m is None else m for m, v in zip(masks, values)], -1)


@handles("iree_linalg_ext.scan")
def _scan(interp: Interpreter, op: ir.Operation, args: list) -> Tracked:
    """A scan along ``dimension``: inclusive, output 0 is element 0 and output i the region's combination of output
    i-1 with element i; exclusive, output 0 is the accumulator and output i combines output i-1 with element i-1.
    The accumulator result is the last output. The region runs once per position over every other dim; an
    undefined element makes every later position undefined."""
    dim = ir.IntegerAttr(op.attributes["dimension"]).value
    inclusive = ir.BoolAttr(op.attributes["inclusive"]).value
    source, accumulator = np.moveaxis(np.asarray(args[0]), dim, -1), np.asarray(args[2])
    block, n = op.regions[0].blocks[0], source.shape[-1]
    combine = lambda a, b: np.asarray(interp.run_block(block, [np.asarray(a), np.asarray(b)])[0], source.dtype)
    steps = [source[..., 0] if inclusive else np.broadcast_to(accumulator, source.shape[:-1])] if n else []
    for i in range(1, n):
        steps.append(combine(steps[-1], source[..., i if inclusive else i - 1]))
    last = steps[-1] if n else accumulator  # IREE 3.13 keeps the last output, exclusive too
    out = np.moveaxis(np.stack(steps, axis=-1), -1, dim) if n else np.moveaxis(source, -1, dim)
    last = np.asarray(last, accumulator.dtype).reshape(accumulator.shape)
    poison = interp.operand_poison(op)[0]
    if poison is None or not n:
        return Tracked([out, last], [None, None])
    running = np.maximum.accumulate(np.moveaxis(poison, dim, -1), axis=-1)
    return Tracked([out, last], [np.moveaxis(running, -1, dim), running[..., -1].reshape(last.shape)])


@handles("linalg.pack")
def _pack(interp: Interpreter, op: ir.Operation, args: list) -> list:
    """Operands: source, dest, then the padding value if any (static tiles only)."""
    padding = float(np.asarray(args[2])) if len(args) > 2 else None
    return [pack_array(np, np.asarray(args[0]), _ints(op.attributes["inner_dims_pos"]), _static_tiles(op), padding)]


@handles("linalg.unpack")
def _unpack(interp: Interpreter, op: ir.Operation, args: list) -> list:
    return [
        unpack_array(
            np, np.asarray(args[0]), _ints(op.attributes["inner_dims_pos"]), _static_tiles(op), np.shape(args[1])
        )
    ]


poison_rule("linalg.pack")(moves_data(0, 2, unread=(1,)))
poison_rule("linalg.unpack")(moves_data(0, unread=(1,)))


def _static_tiles(op: ir.Operation) -> list[int]:
    """The inner tiles, refusing what ``pack_array`` does not model (dynamic tiles, permuted outer dims)."""
    perm = _ints(op.attributes["outer_dims_perm"]) if "outer_dims_perm" in op.attributes else []
    if perm != sorted(perm):
        raise NotInterpretable(f"op {op.name} with outer_dims_perm")
    tiles = _ints(op.attributes["static_inner_tiles"])
    if any(t < 0 for t in tiles):
        raise NotInterpretable(f"op {op.name} with dynamic inner tiles")
    return tiles
