"""Required scratch: the memory an op's own semantics needs, which the memory oracle must not flag.

Some ops cannot be computed without a buffer of their own, whatever the compiler does:

* an **in-place op** (``iree_linalg_ext.sort`` / ``topk`` / ``scan`` / ``scatter``) updates every one of
  its ``outs`` operands in place. When an operand arrives through a read-only binding (the caller's
  input), or when its result is never stored (the program returns only the other one), the op still
  needs somewhere to write that operand: one buffer the size of that operand's tile, and one copy
  into it;
* an in-place op whose ``outs`` are **one value twice** (CSE merged two identical operands: an argsort of an iota
  by an iota) writes each in place: each needs a buffer of its own (stop 48's host sort, by an outsider);
* a **reduction with an unused companion result** (an argmax whose value result is dropped) still
  carries the running value from step to step: one buffer for that accumulator.

``REQUIRED_SCRATCH`` is the rule table (op -> why it needs scratch); ``required_scratch`` reads a
dispatch's executable source (tensor level, before codegen) and returns an ``Allowance`` per operand
that needs one. The memory oracle then counts only what exceeds the allowances: a static buffer of
the allowed element type and at most the operand's size (the stack limit when the operand is
dynamic), plus one copy into it. A dynamically sized or unbounded buffer on the stack is never
allowed: a tile is static, so a dynamic alloca is the defect itself (a dynamic sort's scratch).
"""

from __future__ import annotations

import dataclasses
import functools
import math
import re
from typing import Any, Iterable

from iree.compiler import ir

from ireefuzz.oracles import vocabulary
from ireefuzz.oracles.ir import dispatch_fact, parse_ir, walk

# Ops that update all of their ``outs`` operands in place (their results are those operands).
IN_PLACE_OPS = frozenset(vocabulary.IN_PLACE_OPS)
REQUIRED_SCRATCH = {
    **{
        op: "updates its outs in place: an operand read through a read-only binding, or whose result is "
        "unused, needs one buffer of that operand's tile and one copy into it; an input computed in the dispatch "
        "(a fill), one buffer of its tile"
        for op in sorted(IN_PLACE_OPS)
    },
    "linalg.generic[reduction]": "a reduction whose companion result is unused still carries its accumulator "
    "between steps: one buffer for it",
}
DEFAULT_STACK_LIMIT = vocabulary.DEFAULT_STACK_LIMIT
_STACK_LIMIT = re.compile(vocabulary.STACK_LIMIT_ATTRIBUTE + r"\s*=\s*(\d+)")
_ELEMENT = re.compile(r"x?([a-z]+\d+)>?$")


@dataclasses.dataclass(frozen=True)
class Allowance:
    """One scratch buffer (and one copy into it) that an op's semantics require."""

    op: str  # the op that needs it, e.g. "iree_linalg_ext.topk"
    operand: int  # which of its outs operands
    element_type: str  # e.g. "i32"
    max_bytes: int  # a buffer: the operand's whole size if static, else the dispatch's stack limit
    why: str  # "result unused" | "read-only binding" | "outs shared with another" | "companion result
    # unused" | "input computed in the dispatch"
    operand_bytes: int | None = None  # the operand's size (None: dynamic), the most one copy of it moves

    def admits(self, element_type: str, size_bytes: int | None) -> bool:
        """A buffer: static, of the operand's element type, within ``max_bytes`` (never a dynamic one)."""
        return element_type == self.element_type and size_bytes is not None and size_bytes <= self.max_bytes

    def admits_copy(self, element_type: str, size_bytes: int | None) -> bool:
        """One copy of the operand (or of a tile of it): its element type, at most the operand's size."""
        return element_type == self.element_type and (
            self.operand_bytes is None or (size_bytes is not None and size_bytes <= self.operand_bytes)
        )


def element_type_of(memref_type: str) -> str:
    """``memref<1x17x7xi32, #hal...>`` -> ``i32``; ``memref<f32>`` -> ``f32``."""
    shape = memref_type.partition("<")[2].split(",")[0].strip()
    match = _ELEMENT.search(shape)
    return match.group(1) if match else shape


@dispatch_fact(
    "required_scratch",
    lambda rows: [dataclasses.asdict(a) for a in rows],
    lambda rows: [Allowance(**row) for row in rows],
)
def required_scratch(dispatch: Any) -> list[Allowance]:
    """The allowances of ``dispatch``, read from its executable source (none without one)."""
    source = getattr(dispatch, "source", "")
    return list(_allowances_of(source)) if source and _mentions_candidate(source) else []


def _mentions_candidate(source: str) -> bool:
    return any(op in source for op in IN_PLACE_OPS) or ("linalg.generic" in source and "reduction" in source)


@functools.lru_cache(maxsize=512)
def _allowances_of(source: str) -> tuple[Allowance, ...]:
    module = parse_ir(source)
    limit = _stack_limit(source)
    found: list[Allowance] = []
    for op in walk(module.operation):
        if op.name in IN_PLACE_OPS:
            found.extend(_in_place(op, limit))
        elif op.name == "linalg.generic" and "reduction" in str(op.attributes["iterator_types"]):
            found.extend(_reduction(op, limit))
    return tuple(found)


def _stack_limit(source: str) -> int:
    match = _STACK_LIMIT.search(source)
    return int(match.group(1)) if match else DEFAULT_STACK_LIMIT


def _outs(op: ir.Operation) -> list[ir.Value]:
    """The DPS inits of ``op`` (its ``outs``), read from ``operandSegmentSizes``."""
    operands = list(op.operands)
    if "operandSegmentSizes" not in op.attributes:
        return operands[-len(op.results) :] if op.results else []
    n_ins, n_outs = list(ir.DenseI32ArrayAttr(op.attributes["operandSegmentSizes"]))[:2]
    return operands[n_ins : n_ins + n_outs]


def _in_place(op: ir.Operation, limit: int) -> Iterable[Allowance]:
    results = list(op.results)
    outs = _outs(op)
    written = [b for b in map(_binding_of, outs) if b is not None]
    for operand in list(op.operands)[: len(list(op.operands)) - len(outs)]:  # its ins (a top-k's input)
        if not isinstance(operand.type, ir.RankedTensorType):
            continue
        if _computed_here(operand):
            yield _allowance(op.name, -1, operand, limit, "input computed in the dispatch")
        elif (binding := _binding_of(operand)) is not None and any(binding == w for w in written):
            # a scan of a buffer into itself: its input must be kept while its outs overwrite it
            yield _allowance(op.name, -1, operand, limit, "input read from the binding its outs write")
    for index, operand in enumerate(outs):
        unused = index < len(results) and _unused(results[index])
        read_only = _from_read_only_binding(operand)
        shared = any(operand == other for k, other in enumerate(outs) if k != index)
        if unused or read_only or shared:
            why = "result unused" if unused else "read-only binding" if read_only else "outs shared with another"
            yield _allowance(op.name, index, operand, limit, why)


def _reduction(op: ir.Operation, limit: int) -> Iterable[Allowance]:
    results = list(op.results)
    if len(results) < 2:
        return
    for index, operand in enumerate(_outs(op)):
        if index < len(results) and _unused(results[index]):
            yield _allowance("linalg.generic[reduction]", index, operand, limit, "companion result unused")


def _allowance(op: str, index: int, operand: ir.Value, limit: int, why: str) -> Allowance:
    tensor = operand.type
    element = str(tensor.element_type)
    size = None
    if isinstance(tensor, ir.ShapedType) and tensor.has_static_shape:
        width = getattr(tensor.element_type, "width", 64)
        size = math.prod(tensor.shape) * math.ceil(width / 8)
    return Allowance(op, index, element, min(size, limit) if size is not None else limit, why, size)


def _unused(value: ir.Value) -> bool:
    return not any(True for _ in value.uses)


_VIEWS = ("tensor.cast", "tensor.extract_slice", "tensor.expand_shape", "tensor.collapse_shape")


def _origin(value: ir.Value) -> ir.Operation | None:
    """The op ``value`` comes from, looked through casts / slices / reshapes: a dispatch tensor load, or the op of
    the dispatch that computes it; None for a block argument (or a chain too long to follow)."""
    for _ in range(16):
        if isinstance(value, ir.BlockArgument):
            return None
        owner = value.owner
        if owner.name not in _VIEWS:
            return owner
        value = owner.operands[0]
    return None


def _computed_here(value: ir.Value) -> bool:
    """``value`` is computed by an op of the dispatch (a fill, a generic), not loaded from a binding: an op that
    reads it over and over (a top-k's input) needs it in a buffer of its tile."""
    origin = _origin(value)
    return origin is not None and not origin.name.endswith("dispatch.tensor.load")


def _binding_of(value: ir.Value) -> ir.Value | None:
    """The dispatch tensor ``value`` is loaded from (through casts / slices), or None when it is not loaded."""
    origin = _origin(value)
    return origin.operands[0] if origin is not None and origin.name.endswith("dispatch.tensor.load") else None


def _from_read_only_binding(value: ir.Value) -> bool:
    """``value`` is loaded (maybe through casts / slices) from a ``readonly`` dispatch tensor."""
    binding = _binding_of(value)
    return binding is not None and "readonly:" in str(binding.type)


def within(
    allowances: list[Allowance], element_type: str, size_bytes: int | None, kind: str, used: dict[tuple[int, str], int]
) -> Allowance | None:
    """The first allowance that still admits one more ``kind`` ("buffer" or "copy") of this element type and
    size; ``used`` counts what each allowance has already admitted (one of each kind)."""
    for number, allowance in enumerate(allowances):
        fits = allowance.admits_copy if kind == "copy" else allowance.admits
        if used.get((number, kind), 0) == 0 and fits(element_type, size_bytes):
            used[(number, kind)] = 1
            return allowance
    return None
