"""Input domains: which arguments are indices (into a tensor dim, a gather table...) and their bounds, so
the drawn inputs are defined.
"""

from __future__ import annotations

import dataclasses
from typing import Iterable, Sequence

from iree.compiler import ir

from ireefuzz.errors import ProgramError

from .core import DYNAMIC, _functions, _ints, _shape, _walk, elem_of, parse

# --------------------------------------------------------------------------- input domains


@dataclasses.dataclass(frozen=True)
class Domain:
    """How one argument's values may be drawn: anything (``index`` False), or indices in [0, upper).

    The exclusive upper bound is ``bound`` (static) or the size of argument ``bound_of[0]`` along
    axis ``bound_of[1]`` (dynamic); neither means an index whose bound is unknown (draw small, >= 0).
    """

    argument: int
    index: bool = False
    bound: int | None = None
    bound_of: tuple[int, int] | None = None

    def upper(self, shapes: Sequence[Sequence[int]]) -> int | None:
        if self.bound is not None:
            return self.bound
        return shapes[self.bound_of[0]][self.bound_of[1]] if self.bound_of is not None else None


def infer_input_domains(module_text: str, function: str) -> list[Domain]:
    """Which arguments of ``function`` hold indices (gather / scatter indices, values reaching
    ``tensor.extract`` / ``tensor.insert`` indices or ``arith.index_cast``, ``index``-typed arguments)
    and their in-bounds range."""
    module = parse(module_text)
    funcs = _functions(module)
    if function not in funcs:
        raise ProgramError(f"no function @{function}; the module has {', '.join(sorted(funcs)) or 'none'}")
    func = funcs[function]
    params = list(func.regions[0].blocks[0].arguments)
    found: dict[int, Domain] = {}
    for index_value, tensor, axis in _index_sinks(func):
        for arg in _argument_sources(index_value, params):
            found[arg] = _tighter(found.get(arg), _domain(arg, tensor, axis, params))
    return [found.get(i, Domain(i, index=elem_of(p).name == "index")) for i, p in enumerate(params)]


def _index_sinks(func: ir.Operation) -> Iterable[tuple[ir.Value, ir.Value | None, int | None]]:
    """(index value, the tensor it indexes or None, the axis it indexes)."""
    for op in _walk(func):
        if op.name in ("iree_linalg_ext.gather", "iree_linalg_ext.scatter"):
            indexed = op.operands[0] if op.name.endswith("gather") else op.operands[2]
            yield op.operands[1], indexed, _ints(op.attributes["dimension_map"])[0]
        elif op.name == "tensor.extract":
            for axis, value in enumerate(list(op.operands)[1:]):
                yield value, op.operands[0], axis
        elif op.name == "tensor.insert":
            for axis, value in enumerate(list(op.operands)[2:]):
                yield value, op.operands[1], axis
        elif op.name in ("arith.index_cast", "arith.index_castui") and not _only_feeds_indices(op):
            yield op.operands[0], None, None


def _only_feeds_indices(op: ir.Operation) -> bool:
    """An index_cast whose result is used only as an extract / insert index: that sink gives its bound."""
    uses = list(op.results[0].uses)
    return bool(uses) and all(u.owner.name in ("tensor.extract", "tensor.insert") for u in uses)


TRANSPARENT = {
    "arith.index_cast",
    "arith.index_castui",
    "arith.extsi",
    "arith.extui",
    "arith.trunci",
    "tensor.expand_shape",
    "tensor.collapse_shape",
    "tensor.extract_slice",
    "tensor.cast",
    "tensor.extract",
    "tensor.reshape",
    "linalg.copy",
}


def _argument_sources(value: ir.Value, params: list[ir.Value], depth: int = 0) -> set[int]:
    """The function arguments whose values flow (unchanged but for casts and reshapes) into ``value``."""
    if depth > 32:
        return set()
    if isinstance(value, ir.BlockArgument):
        if value in params:
            return {params.index(value)}
        owner = value.owner.owner
        if owner.name == "linalg.generic" and value.arg_number < len(owner.operands):
            return _argument_sources(owner.operands[value.arg_number], params, depth + 1)
        return set()
    producer = value.owner
    if producer.name in TRANSPARENT:
        return _argument_sources(producer.operands[0], params, depth + 1)
    if producer.name == "linalg.generic":  # a copy-like generic: trace what its body yields
        block = producer.regions[0].blocks[0]
        yielded = list(block.operations)[-1].operands[value.result_number]
        return _argument_sources(yielded, params, depth + 1)
    return set()


def _domain(arg: int, tensor: ir.Value | None, axis: int | None, params: list[ir.Value]) -> Domain:
    if tensor is None or axis is None:  # a sink indexing no tensor's axis: an index, unbounded
        return Domain(arg, index=True)
    size = _shape(tensor)[axis]
    if size != DYNAMIC:
        return Domain(arg, index=True, bound=size)
    return Domain(arg, index=True, bound_of=_dim_source(tensor, axis, params))


def _dim_source(tensor: ir.Value, axis: int, params: list[ir.Value], depth: int = 0) -> tuple[int, int] | None:
    """The (argument, axis) whose size a dynamic dim of ``tensor`` is, if the IR says so plainly."""
    if tensor in params:
        return params.index(tensor), axis
    if depth > 32 or not isinstance(tensor, ir.OpResult):
        return None
    producer = tensor.owner
    if producer.name == "tensor.cast":
        return _dim_source(producer.operands[0], axis, params, depth + 1)
    if producer.name in ("tensor.empty", "tensor.extract_slice"):  # its dynamic sizes, in order
        sizes = list(producer.operands)
        if producer.name == "tensor.extract_slice":  # source, offsets, sizes, strides
            segments = list(ir.DenseI32ArrayAttr(producer.attributes["operandSegmentSizes"]))
            sizes = sizes[1 + segments[1] : 1 + segments[1] + segments[2]]
        dynamic_axes = [k for k, d in enumerate(_shape(tensor)) if d == DYNAMIC]
        size = sizes[dynamic_axes.index(axis)]
        if isinstance(size, ir.OpResult) and size.owner.name == "tensor.dim":
            source, index = size.owner.operands
            if isinstance(index, ir.OpResult) and index.owner.name == "arith.constant":
                return _dim_source(source, ir.IntegerAttr(index.owner.attributes["value"]).value, params, depth + 1)
        return None
    if producer.name in (
        "linalg.generic",
        "iree_linalg_ext.gather",
        "iree_linalg_ext.scatter",
    ):  # DPS: the outs operand
        outs = list(producer.operands)[len(producer.operands) - len(producer.results) :]
        return _dim_source(outs[tensor.result_number], axis, params, depth + 1)
    return None


def _tighter(old: Domain | None, new: Domain) -> Domain:
    """Two uses bound the same argument: keep a static bound (the smaller), else a dynamic one."""
    if old is None:
        return new
    if old.bound is not None and new.bound is not None:
        return old if old.bound <= new.bound else new
    return old if old.bound is not None or (old.bound_of is not None and new.bound is None) else new
