"""Memory oracle: stack allocations, heap allocations and buffer copies in a dispatch's codegen.

IREE's CPU pipeline should turn a fused fill -> matmul -> elementwise dispatch into code that
writes straight into its output binding. When fusion hands bufferization the "wrong"
destination-passing form, the IR grows ``memref.alloca`` scratch tiles and copies between
buffers (iree-org/iree #8303). This module reads the per-dispatch IR captured by
``ireefuzz.sut`` with the MLIR Python bindings shipped in IREE (never regexes) and reports:

* allocas and heap ``memref.alloc`` in the IR right before ``iree-convert-to-llvm``; an alloca counts only if the
  dispatch's optimized LLVM IR still has a stack buffer (``promoted_by_llvm``): one that LLVM promotes to
  registers costs nothing, and neither do the copies into and out of it;
* copies (``memref.copy``, ``linalg.copy``, copy-like ``linalg.generic``) between *distinct*
  buffers in the IR after bufferization and its cleanup, when they are a defect (``is_defect``):
  data staged through a buffer that is not a binding (an alloca or alloc), or moved between
  bindings in a dispatch whose own op does not move data. A gather, slice, pad, concat,
  transpose, broadcast or copy dispatch (``moves_data``; also the ``*_slow_memcpy`` ones with no
  compute op) copies from its input binding into its output binding by definition: that is the
  program's own semantics, and no better code exists for it. Bufferization also emits many copies
  of a buffer onto itself (the same view reached through casts, loop-carried values or an
  identical subview); the following canonicalizations fold those, so they never count.

The definition lives in ``BINDING_OPS`` / ``VIEW_OPS`` / ``DATA_MOVEMENT_OPS``; a bundle's
``run.sh`` (``ireefuzz.tools.filing.bundle``) is generated from the same tables.

Text that does not parse is an ireefuzz/infrastructure problem, not an IREE finding: it raises
``ireefuzz.errors.IRParseError`` (see ``oracles.ir``).
"""

from __future__ import annotations

import dataclasses
import functools
import math
import re
from typing import Any, Hashable, Iterator, Mapping, Sequence

from iree.compiler import ir

from ireefuzz.oracles import ir_text, scratch, vocabulary
from ireefuzz.oracles.diagnostics import MEMORY_FAMILIES, _pipeline, _Program, _signature_ops, dispatch_role
from ireefuzz.oracles.finding import Cause, Finding, dispatch_dtype_dims, make_signature
from ireefuzz.oracles.finding import make_cause as _cause
from ireefuzz.oracles.ir import (
    block_of,
    compute_op_pattern,
    dispatch_fact,
    dispatch_op_pattern,
    first_line,
    parse_ir,
    successors,
    walk,
)
from ireefuzz.oracles.spec import Evaluation, OracleSpec, Verdict, defect_of, never_runs, register

SEEN_AT_FINAL = vocabulary.SEEN_AT["final"]
SEEN_AT_BUFFERIZED = vocabulary.SEEN_AT["bufferized"]

LOOP_OPS = frozenset(vocabulary.LOOP_OPS)
_ALIAS_OPS = frozenset(vocabulary.ALIAS_OPS)

# What makes a copy a defect -- the one definition (``oracles.vocabulary``), read here and written into a
# bundle's run.sh:
BINDING_OPS = frozenset({vocabulary.BINDING_OP})  # a dispatch's input and output buffers
VIEW_OPS = frozenset(vocabulary.VIEW_OPS)
DATA_MOVEMENT_OPS = frozenset(vocabulary.DATA_MOVEMENT_OPS)
MEMORY_KINDS = ("alloca", "alloca-dynamic", "alloca-in-loop", "alloc", "copy")


@dataclasses.dataclass(frozen=True)
class MemoryOp:
    kind: str  # "alloca" | "alloc" | "copy"
    op: str  # e.g. "memref.alloca", "linalg.copy", "memref.copy", "linalg.generic"
    type: str  # the allocated memref type; for copies the target's type
    bytes: int | None  # static size in bytes, None if dynamic
    dynamic: bool
    in_loop: bool  # nested in a loop op, or in a block on a CFG cycle (after scf -> cf lowering)
    excerpt: str  # the op's first printed line, trimmed
    staged: bool = False  # a copy with an end that is not a binding (an alloca, an alloc, ...)
    aligned: bool = False  # a copy between the same positions of two bindings of one shape (see ``is_defect``)
    source: str = ""  # a copy's ends, each one of ``COPY_ENDS`` ("" for an allocation, or a record without them)
    target: str = ""
    one_vector: bool = False  # a stack buffer of one vector, stored whole once and only read after (``_one_vector``)


# What a copy moves data from or to: a binding the dispatch only reads (an input, ``ReadOnly``), another binding,
# a buffer the dispatch allocated on the stack or the heap, or anything else (a block argument, a global).
COPY_ENDS = ("read-only-binding", "binding", "alloca", "alloc", "other")
_READ_ONLY = 1  # the ReadOnly bit of a binding's ``descriptor_flags`` (IREE's HAL DescriptorFlags)


# --------------------------------------------------------------------------- location


def _in_loop(op: ir.Operation) -> bool:
    parent = op.parent
    while parent is not None and parent.name != "func.func":
        if parent.name in LOOP_OPS:
            return True
        parent = parent.parent
    return _on_cfg_cycle(block_of(op))


def _on_cfg_cycle(block: ir.Block) -> bool:
    """True when ``block`` can reach itself through branch successors (an unstructured loop)."""
    seen: set[ir.Block] = set()
    frontier = successors(block)
    while frontier:
        current = frontier.pop()
        if current == block:
            return True
        if current not in seen:
            seen.add(current)
            frontier.extend(successors(current))
    return False


def _static_bytes(memref_type: ir.MemRefType) -> int | None:
    if not memref_type.has_static_shape:
        return None
    element_bits = _element_bits(memref_type.element_type)
    if element_bits is None:
        return None
    return math.prod(memref_type.shape) * math.ceil(element_bits / 8)


def _element_bits(element: ir.Type) -> int | None:
    if isinstance(element, ir.IndexType):
        return 64  # the llvm-cpu targets ireefuzz drives are 64-bit
    if isinstance(element, ir.VectorType):
        inner = _element_bits(element.element_type)
        return None if inner is None or not element.has_static_shape else inner * math.prod(element.shape)
    if isinstance(element, ir.ComplexType):
        inner = _element_bits(element.element_type)
        return None if inner is None else 2 * inner
    return getattr(element, "width", None)


# --------------------------------------------------------------------------- buffer identity


def _view_key(value: ir.Value, depth: int = 0) -> Hashable:
    """A key equal for two values that denote the same memory view.

    Sees through casts / assume_alignment, loop-carried memrefs (an ``scf.for`` iter_arg or
    result is the same buffer as its init) and structurally identical ``memref.subview``s.
    """
    if depth > 64:
        return ("value", value)
    carried = _carried(value)
    if carried is not None:
        return _view_key(carried, depth + 1)
    if isinstance(value, ir.BlockArgument):
        return ("value", value)
    op = value.owner
    if op.name in _ALIAS_OPS:
        return _view_key(op.operands[0], depth + 1)
    if op.name == "memref.subview":
        if _is_full_view(op):
            return _view_key(op.operands[0], depth + 1)
        attrs = op.attributes
        return (
            "subview",
            _view_key(op.operands[0], depth + 1),
            str(attrs["static_offsets"]),
            str(attrs["static_sizes"]),
            str(attrs["static_strides"]),
            tuple(op.operands)[1:],  # dynamic offsets/sizes/strides: the same SSA values
        )
    return ("value", value)


def _carried(value: ir.Value) -> ir.Value | None:
    """The memref a loop-carried value is: an ``scf.for`` iter_arg is its init, a result what the body yields."""
    if isinstance(value, ir.BlockArgument):
        loop = value.owner.owner
        if loop is not None and loop.operation.name == "scf.for" and value.arg_number >= 1:
            return loop.operands[2 + value.arg_number]  # operands: lb, ub, step, inits...; args: iv, iter_args...
        return None
    if value.owner.name == "scf.for":
        return list(value.owner.regions[0].blocks[0].operations)[-1].operands[value.result_number]
    return None


def copy_end(value: ir.Value) -> str:
    """What ``value`` views (one of ``COPY_ENDS``), seen through views and loop-carried values: a binding
    (``BINDING_OPS``, read-only or not), an alloca / alloc the dispatch made, or something else."""
    for _ in range(64):
        carried = _carried(value)
        if carried is not None:
            value = carried
        elif isinstance(value, ir.BlockArgument):
            return "other"
        elif value.owner.name in VIEW_OPS:
            value = value.owner.operands[0]
        elif value.owner.name in BINDING_OPS:
            flags = value.owner.attributes["descriptor_flags"] if "descriptor_flags" in value.owner.attributes else None
            read_only = flags is not None and ir.IntegerAttr(flags).value & _READ_ONLY
            return "read-only-binding" if read_only else "binding"
        else:
            return {"memref.alloca": "alloca", "memref.alloc": "alloc"}.get(value.owner.name, "other")
    return "other"


def _is_binding(end: str) -> bool:
    return end in ("read-only-binding", "binding")


def _is_full_view(subview: ir.Operation) -> bool:
    """``memref.subview %m[0, ..][<shape of %m>][1, ..]``: the whole source, a no-op view."""
    attrs = subview.attributes
    source_type = subview.operands[0].type
    return (
        len(subview.operands) == 1
        and source_type.has_static_shape
        and all(v == 0 for v in ir.DenseI64ArrayAttr(attrs["static_offsets"]))
        and all(v == 1 for v in ir.DenseI64ArrayAttr(attrs["static_strides"]))
        and list(ir.DenseI64ArrayAttr(attrs["static_sizes"])) == list(source_type.shape)
    )


def _copy_operands(op: ir.Operation) -> tuple[ir.Value, ir.Value] | None:
    """(source, target) when ``op`` copies one memref into another, else None."""
    if op.name == "memref.copy":
        return op.operands[0], op.operands[1]
    if op.name not in ("linalg.copy", "linalg.generic"):
        return None
    n_inputs, n_outputs = list(op.attributes["operandSegmentSizes"])
    if (n_inputs, n_outputs) != (1, 1):
        return None
    source, target = op.operands[0], op.operands[1]
    if not (isinstance(source.type, ir.MemRefType) and isinstance(target.type, ir.MemRefType)):
        return None
    if op.name == "linalg.generic" and not _is_copy_like_generic(op):
        return None
    return source, target


def _is_copy_like_generic(op: ir.Operation) -> bool:
    """Body is only ``linalg.yield %in``; the input map is a projected permutation, the output's a permutation."""
    body = op.regions[0].blocks[0]
    body_ops = list(body.operations)
    if len(body_ops) != 1 or body_ops[0].name != "linalg.yield":
        return False
    yielded = body_ops[0].operands[0]
    if not (isinstance(yielded, ir.BlockArgument) and yielded.owner == body and yielded.arg_number == 0):
        return False
    input_map, output_map = (ir.AffineMapAttr(attr).value for attr in op.attributes["indexing_maps"])
    return input_map.is_projected_permutation and output_map.is_permutation


# --------------------------------------------------------------------------- scan


def scan(ir_text: str) -> list[MemoryOp]:
    """Allocas, heap allocs and copies between distinct buffers in ``ir_text``, in program order."""
    module = parse_ir(ir_text)  # keep the module alive while its ops are in use
    found: list[MemoryOp] = []
    for op in walk(module.operation):
        if op.name in ("memref.alloca", "memref.alloc"):
            memref_type = op.results[0].type
            static = _static_bytes(memref_type)
            found.append(
                MemoryOp(
                    kind=op.name.partition(".")[2],
                    op=op.name,
                    type=str(memref_type),
                    bytes=static,
                    dynamic=not memref_type.has_static_shape,
                    in_loop=_in_loop(op),
                    excerpt=first_line(op),
                    one_vector=op.name == "memref.alloca" and _one_vector(op),
                )
            )
            continue
        operands = _copy_operands(op)
        if operands is None or _view_key(operands[0]) == _view_key(operands[1]):
            continue
        target_type = operands[1].type
        source, target = copy_end(operands[0]), copy_end(operands[1])
        found.append(
            MemoryOp(
                kind="copy",
                op=op.name,
                type=str(target_type),
                bytes=_static_bytes(target_type),
                dynamic=not target_type.has_static_shape,
                in_loop=_in_loop(op),
                excerpt=first_line(op),
                staged=not (_is_binding(source) and _is_binding(target)),
                aligned=_aligned(operands[0], operands[1]),
                source=source,
                target=target,
            )
        )
    return found


_WHOLE_VECTOR_OPS = {"vector.store": 1, "vector.transfer_write": 1, "vector.load": 0, "vector.transfer_read": 0}
_ELEMENT_OPS = frozenset({"memref.load", "memref.store", "memref.copy"})


def _one_vector(alloca: ir.Operation) -> bool:
    """The buffer stages one vector: one access of it whole, as a vector of its own shape, outside loops, and
    otherwise only element loads and stores or copies. That is the full/partial split of a vector transfer that
    runs out of its memref's bounds (``split-transfers=linalg-copy`` in IREE's CPU vector lowering, PR #11178): a
    write spills the vector whole and copies out the elements inside the destination; a read fills the buffer with
    the padding and the elements inside the source, then loads it whole. IREE's design, not a defect."""
    whole = 0
    shape = [str(d) for d in ir.MemRefType(alloca.results[0].type).shape]
    for use in alloca.results[0].uses:
        user = getattr(use.owner, "operation", use.owner)
        if _WHOLE_VECTOR_OPS.get(user.name, -1) >= 0:
            vector = user.operands[0] if _WHOLE_VECTOR_OPS[user.name] else user.results[0]
            if use.operand_number != _WHOLE_VECTOR_OPS[user.name] or _in_loop(user):
                return False
            if str(vector.type).removeprefix("vector<").split("x")[:-1] != shape:
                return False
            whole += 1
        elif user.name not in _ELEMENT_OPS:
            return False
    return whole == 1


def _aligned(source: ir.Value, target: ir.Value) -> bool:
    """Both ends are the same window (offsets, sizes, strides) of two buffers of one type."""
    a, b = (v.owner if not isinstance(v, ir.BlockArgument) else None for v in (source, target))
    if a is None or b is None or a.name != "memref.subview" or b.name != "memref.subview":
        return False
    same_window = all(
        str(a.attributes[k]) == str(b.attributes[k]) for k in ("static_offsets", "static_sizes", "static_strides")
    )
    return same_window and tuple(a.operands)[1:] == tuple(b.operands)[1:] and a.operands[0].type == b.operands[0].type


def finding_kind(memory_op: MemoryOp) -> str:
    """The finding kind an op falls under, ignoring any allowance."""
    if memory_op.kind == "alloca":
        if memory_op.dynamic:
            return "alloca-dynamic"
        if memory_op.in_loop:
            return "alloca-in-loop"
    return memory_op.kind


def _is_allowed(memory_op: MemoryOp, max_static_alloca_bytes: int) -> bool:
    # Only a static alloca outside loops may be tolerated; one in a loop grows the stack per iteration.
    return (
        finding_kind(memory_op) == "alloca"
        and memory_op.bytes is not None
        and memory_op.bytes <= max_static_alloca_bytes
    )


# --------------------------------------------------------------------------- oracle


@dispatch_fact("fuses_reduction")
def fuses_reduction(dispatch: Any) -> bool:
    """The dispatch computes a reduction, root or fused before its root (``ir_text.fuses_reduction``)."""
    return ir_text.fuses_reduction(dispatch.source or "")


def stack_role(dispatch: Any) -> dict[str, str]:
    """The role a stack buffer serves when IREE's name for the dispatch hides it: an elementwise root (a broadcast)
    with a reduction fused before it keeps the reduction's tile on the stack for its consumer, #8303's mechanism on a
    reduction (stop 46, x86-64-v3 seed 71147: a row max broadcast into a matrix, a ``memref<8xi32>`` round trip;
    an outsider: known, as the reduction-rooted form). Else nothing: the dispatch's name says the role."""
    named = dispatch_role(dispatch.name)
    return {"role": "reduction"} if named == "elementwise" and fuses_reduction(dispatch) else {}


@dispatch_fact("moves_data")
def moves_data(dispatch: Any) -> bool:
    """The dispatch's own op moves data (a gather, slice, pad, concat, transpose, broadcast or copy; or
    no compute op at all, IREE's ``*_slow_memcpy``), read from its executable source: its copies
    between bindings are the program's semantics. False without a source (every copy is judged)."""
    return bool(dispatch.source) and _source_moves_data(dispatch.source)


@functools.lru_cache(maxsize=512)
def _source_moves_data(source: str) -> bool:
    module = parse_ir(source)
    if compute_op_pattern(module) == "-":
        return True
    for op in walk(module.operation):
        if op.name in DATA_MOVEMENT_OPS:
            return True
        if op.name == "linalg.generic" and (
            any(inner.name == "tensor.extract" for inner in walk(op))  # a gather written as a generic
            or (list(op.attributes["operandSegmentSizes"]) == [1, 1] and _is_copy_like_generic(op))
        ):
            return True
    return False


_ELEMENTWISE = (
    "_elementwise_"  # IREE's name for a dispatch of all-parallel generics (``*_dispatch_0_elementwise_833_f32``)
)


def is_defect(copy: MemoryOp, dispatch: Any) -> bool:
    """A copy between distinct buffers is a defect when it stages data through a buffer that is not a
    binding, or when the dispatch's own op does not already move data. In an elementwise dispatch, a copy of one
    window of an input binding to the same window of the output (``aligned``) is the op's own result there: a
    peeled remainder where the computation folded to its input (a select that keeps it), not a defect."""
    return copy.staged or not (moves_data(dispatch) or (copy.aligned and _ELEMENTWISE in dispatch.name))


# The op names ``scan`` reports, as printed (custom or generic form): IR without them is not parsed.
ALLOC_NAMES = vocabulary.ALLOC_OPS
COPY_NAMES = vocabulary.COPY_OPS


def _mentions(text: str, names: Sequence[str]) -> bool:
    return any(name in text for name in names)


_ENCODE = lambda ops: [dataclasses.asdict(m) for m in ops]
_DECODE = lambda rows: [MemoryOp(**row) for row in rows]


@dispatch_fact("final_ops", _ENCODE, _DECODE)
def _final_ops(dispatch: Any) -> list[MemoryOp]:
    """``scan`` of the final IR; none when it is missing or names none of ``ALLOC_NAMES`` (nothing to find)."""
    return scan(dispatch.final_ir) if dispatch.final_ir and _mentions(dispatch.final_ir, ALLOC_NAMES) else []


@dispatch_fact("bufferized_ops", _ENCODE, _DECODE)
def _bufferized_ops(dispatch: Any) -> list[MemoryOp]:
    """``scan`` of the bufferized IR; none when it is missing or names none of ``COPY_NAMES``."""
    text = dispatch.bufferized_ir
    return scan(text) if text and _mentions(text, COPY_NAMES) else []


def _observations(dispatch: Any) -> Iterator[tuple[str, MemoryOp]]:
    """(seen_at, op) for allocas/allocs in final_ir and defect copies in bufferized_ir. Missing IR is skipped,
    and so is IR whose text names none of the ops looked for (parsing it could find nothing)."""
    for memory_op in _final_ops(dispatch):
        if memory_op.kind != "copy":
            yield SEEN_AT_FINAL, memory_op
    for memory_op in _bufferized_ops(dispatch):
        if memory_op.kind == "copy" and is_defect(memory_op, dispatch):
            yield SEEN_AT_BUFFERIZED, memory_op


def promoted_by_llvm(dispatch: Any) -> bool:
    """The dispatch's optimized LLVM IR is known and holds no ``alloca``: LLVM promoted every stack buffer of its
    MLIR to registers (SROA), so none is left in the code, nor a copy into or out of one. Unknown IR: False."""
    llvm_ir = getattr(dispatch, "llvm_ir", "")
    return bool(llvm_ir) and not vocabulary.LLVM_ALLOCA.search(llvm_ir)


def _judged(dispatch: Any) -> tuple[list[tuple[str, MemoryOp]], list[dict[str, Any]]]:
    """(the observations beyond the scratch the dispatch's ops require, what the requirement admitted).

    A static buffer outside loops (or a copy) of an allowed element type and size is admitted once per
    allowance (``oracles.scratch``); a dynamic or in-loop alloca never is. Where every buffer is such scratch, the
    copies into and out of them are part of it (the sort's operand staged on the stack, sorted, stored)."""
    observations = list(_observations(dispatch))
    allowances = scratch.required_scratch(dispatch) if observations else []
    used: dict[tuple[int, str], int] = {}
    excess: list[tuple[str, MemoryOp]] = []
    admitted: list[dict[str, Any]] = []

    def admit(m: MemoryOp, what: str, why: str, operand: int | str = "") -> None:
        admitted.append({"op": m.op, "type": m.type, "bytes": m.bytes, "for": what, "operand": operand, "why": why})

    promoted = promoted_by_llvm(dispatch)
    scratch_buffers = excess_buffers = 0  # buffers admitted as required scratch, and buffers beyond it
    for seen_at, memory_op in observations:
        kind = finding_kind(memory_op)
        role = "copy" if kind == "copy" else "buffer" if kind in ("alloca", "alloc") else None
        ends = {memory_op.source, memory_op.target}
        if promoted and (memory_op.kind == "alloca" or "alloca" in ends):
            admit(memory_op, "LLVM", "promoted to registers: the dispatch's optimized LLVM IR has no alloca")
        elif memory_op.one_vector and kind == "alloca":
            admit(memory_op, "vector transfer", "the split of a vector transfer past its memref's bounds: one vector")
            scratch_buffers += 1
        elif allowance := role and scratch.within(
            allowances, scratch.element_type_of(memory_op.type), memory_op.bytes, role, used
        ):
            admit(memory_op, allowance.op, allowance.why, allowance.operand)
            scratch_buffers += role == "buffer"
        elif role == "copy" and scratch_buffers and not excess_buffers and {"alloca", "alloc"} & ends:
            # in or out of the scratch the ops require (the only buffers here): part of that scratch, as a copy
            # into or out of a buffer that is a finding is part of that finding
            admit(memory_op, "scratch", "a copy into or out of the scratch buffer its ops require")
        else:
            excess.append((seen_at, memory_op))
            excess_buffers += role == "buffer"
    return excess, admitted


def check_memory(
    dispatches: Sequence[Any],
    *,
    max_static_alloca_bytes: int = 0,
    graph_ops: str | None = None,
    dtype: str | None = None,
    dims: str | None = None,
) -> list[Finding]:
    """One Finding per (dispatch, kind) for allocas / allocs / copies the policy does not allow.

    Policy: every alloca, heap alloc and distinct-buffer copy is a finding, except the scratch the
    dispatch's own ops require (``oracles.scratch``) and static allocas outside loops of at most
    ``max_static_alloca_bytes``. ``dispatches`` are ``sut.DispatchIR``.
    """
    findings: list[Finding] = []
    for dispatch in dispatches:
        grouped: dict[str, tuple[str, list[MemoryOp]]] = {}
        excess, admitted = _judged(dispatch)
        for seen_at, memory_op in excess:
            if not _is_allowed(memory_op, max_static_alloca_bytes):
                grouped.setdefault(finding_kind(memory_op), (seen_at, []))[1].append(memory_op)
        if not grouped:
            continue
        ops = graph_ops or dispatch_op_pattern(dispatch)
        for kind, (seen_at, memory_ops) in grouped.items():
            types = ", ".join(sorted({m.type for m in memory_ops}))
            findings.append(
                Finding(
                    oracle="memory",
                    kind=kind,
                    signature=make_signature("memory", kind, ops, *_dtype_dims(dispatch, dtype, dims)),
                    message=f"{len(memory_ops)} {kind} in {dispatch.name} ({dispatch.pipeline}) {seen_at}: {types}"
                    + (
                        f"; beyond the {len(admitted)} its ops require and allowed "
                        f"({', '.join(sorted({a['type'] + ' for ' + a['for'] for a in admitted}))})"
                        if admitted
                        else ""
                    ),
                    evidence={
                        "dispatch": dispatch.name,
                        **(stack_role(dispatch) if MEMORY_FAMILIES.get(kind) == "alloca" else {}),
                        "pipeline": dispatch.pipeline,
                        "seen_at": seen_at,
                        "max_static_alloca_bytes": max_static_alloca_bytes,
                        "memory_ops": [
                            {"op": m.op, "type": m.type, "bytes": m.bytes, "in_loop": m.in_loop, "excerpt": m.excerpt}
                            | ({"source": m.source, "target": m.target} if m.source else {})  # what a copy moves
                            for m in memory_ops
                        ],
                        # what the ops' semantics require (oracles.scratch), so the excess above is all that is flagged
                        "required_scratch": admitted,
                    },
                )
            )
    return findings


def _dtype_dims(dispatch: Any, dtype: str | None, dims: str | None) -> tuple[str, str]:
    """The given dtype / dims, else the dispatch's own (its element type and iteration space from its name):
    a finding is about one dispatch, so the rest of the graph must not split its signature."""
    own = dispatch_dtype_dims(dispatch.name)
    return dtype or own[0], dims or own[1]


def sites(dispatches: Sequence[Any]) -> dict[str, list[dict[str, str]]]:
    """Per family (``alloca`` / ``alloc`` / ``copy``, no allowance): the dispatches that have one, as
    ``{"dispatch", "pipeline"}``, so a finding that only compares ``profile`` counts (a metamorphic
    asymmetry) can name what carries it."""
    found: dict[str, list[dict[str, str]]] = {}
    for dispatch in dispatches:
        for family in dict.fromkeys(memory_op.kind for _, memory_op in _judged(dispatch)[0]):
            found.setdefault(family, []).append({"dispatch": dispatch.name, "pipeline": dispatch.pipeline})
    return found


def profile(dispatches: Sequence[Any]) -> dict[str, int]:
    """Counts per finding kind over all dispatches (no allowance), plus total static alloca bytes.

    Used by metamorphic relations: the static and the dynamic variant of one graph should have
    the same profile; a kind present in only one of them is a finding of its own.
    """
    counts = dict.fromkeys(MEMORY_KINDS, 0) | {"alloca_bytes": 0}
    for dispatch in dispatches:
        for _, memory_op in _judged(dispatch)[0]:
            counts[finding_kind(memory_op)] += 1
            if memory_op.kind == "alloca" and memory_op.bytes:
                counts["alloca_bytes"] += memory_op.bytes
    return counts


# --------------------------------------------------------------------------- its cause and its record


def _memory_cause(finding: Finding) -> Cause:
    ev = finding.evidence
    family = MEMORY_FAMILIES.get(finding.kind, finding.kind)
    role = str(ev.get("role") or "") or dispatch_role(str(ev.get("dispatch") or ""), _signature_ops(finding))
    pipeline = _pipeline(ev.get("pipeline"))
    if family == "copy" and _copies_an_input_into_the_output(finding):  # #8303's form, whatever op
        return _cause(
            "memory",
            [family, f"outs-is-argument@{pipeline}"],
            f"A buffer copy in {pipeline} codegen of an input binding into the output: an op's destination (outs) "
            "comes from outside the dispatch (a function argument)",
        )
    if family == "copy":
        title = f"A buffer copy in the {pipeline} codegen of a {role} dispatch"
    else:
        what = "A stack alloca" if family == "alloca" else f"A heap {family}"
        title = f"{what} for {_SERVES.get(role, f'a {role} dispatch')} in {pipeline} codegen"
    return _cause("memory", [family, f"{role}@{pipeline}"], title)


_SERVES = {"contraction": "the vector tile of a contraction", "reduction": "the accumulator of a reduction"}


def _copy_ends(finding: Finding) -> list[tuple[str, str]] | None:
    """(source, target) of each copy of a memory finding, as the memory oracle recorded what it moves
    (``memory.COPY_ENDS``); None for a record without them (older runs)."""
    ops = finding.evidence.get("memory_ops")
    rows = [m for m in ops if isinstance(m, Mapping)] if isinstance(ops, list) else []
    if not rows or not all(m.get("source") and m.get("target") for m in rows):
        return None
    return [(str(m["source"]), str(m["target"])) for m in rows]


def _copies_an_input_into_the_output(finding: Finding) -> bool:
    """A copy moves a binding the dispatch only reads into one it writes: the dispatch starts its result from an
    input, the destination-passing form of iree-org/iree#8303 (an op's outs is a function argument, whatever op
    it is). What IREE did decides: a copy between stack buffers is never it, whatever the program's syntax. A
    record without copy ends (older runs) falls back to the syntax: some op's DPS init is an argument."""
    ends = _copy_ends(finding)
    if ends is not None:
        return ("read-only-binding", "binding") in ends
    program = _Program.of(finding)
    return program is not None and any(re.fullmatch(r"a\d+", node.init) for node in program.nodes)


def _allocation_copied(index: int, findings: Sequence[Finding], causes: Sequence[Cause]) -> int | None:
    """The allocation finding (alloca or alloc) of the copy's own dispatch when every copy moves data into or out
    of a buffer of that kind (what the memory oracle recorded each copy moves): the tile written into a stack
    buffer and read back is that buffer's defect, not one of its own. None when a copy moves only bindings, or
    the record does not say what its copies move."""
    copy = findings[index]
    if MEMORY_FAMILIES.get(copy.kind) != "copy":
        return None
    ends, dispatch = _copy_ends(copy), copy.evidence.get("dispatch")
    if ends is None or not dispatch:
        return None
    return next(
        (
            i
            for i, other in enumerate(findings)
            if (family := defect_of(other)) in ("alloca", "alloc")
            and other.evidence.get("dispatch") == dispatch
            and all(family in pair for pair in ends)
        ),
        None,
    )


def _judge_memory(e: Evaluation) -> Verdict:
    return Verdict(tuple(check_memory(e.dispatches, max_static_alloca_bytes=e.max_static_alloca_bytes)))


register(
    OracleSpec(
        name="memory",
        cause=_memory_cause,
        consequence=_allocation_copied,
        reproduce=lambda kind: "memory-ops",
        reads_run=never_runs,
        reads_dispatches=True,
        absent=lambda kind: {"copy": "it has no buffer copy", "alloc": "it has no heap allocation"}.get(
            kind, "it has no stack buffer"
        ),
        culprit=lambda kind: "memory-op",
        defect=lambda kind: MEMORY_FAMILIES.get(kind, kind),  # a stack buffer, a heap buffer or a copy
        weight=0.6,
        happened="IREE's llvm-cpu codegen leaves a `{kind}` in the dispatch `{dispatch}` ({pipeline}), beyond the "
        "scratch the memory oracle admits for the ops' own semantics (the evidence lists both).",
        expected="No `memref.alloca` / `memref.alloc` / copy between distinct buffers in the dispatch beyond the "
        "scratch the ops' semantics require.",
        title="[CPU] `{kind}` left in dispatch of `{ops}` ({type})",
        judges={"compiled": _judge_memory},
    )
)
