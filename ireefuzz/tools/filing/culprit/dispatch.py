"""A dispatch function as the float64 interpreter runs it: its bindings and push constants are its inputs, the
contents of its writable bindings after the call its outputs.

The interface ops read and write the bindings (``hal.interface.binding.subspan``, ``dispatch.tensor.load`` /
``store``, ``iree_codegen.load_from_buffer`` / ``store_to_buffer``, ``hal.interface.constant.load``); the rest of a
dispatch on tensors is the interpreter's (``oracles.interpret`` with its ``codegen`` ops). A bufferized dispatch
(memref ops) is not read.

``Inputs`` fixes everything a run reads: the push constants, and the seed from which each binding's contents are
drawn by its index and shape (so the IR before and after a pass reads the same values). ``draws`` proposes inputs
for a dispatch source; ``evaluate`` runs one text under two poison fills, so an output that depends on an undefined
value shows as ``undefined``.
"""

from __future__ import annotations

import dataclasses
import re
import weakref
from typing import Any, Sequence

import numpy as np
from iree.compiler import ir

from ireefuzz.errors import NotInterpretable, ProgramError
from ireefuzz.oracles import vocabulary
from ireefuzz.oracles.interpret import codegen, core
from ireefuzz.oracles.interpret.core import DYNAMIC, Interpreter, handles

_SECOND_FILL = 77.0  # poison read as this instead of NaN / 0: an output that changes depends on it


@dataclasses.dataclass(frozen=True)
class Inputs:
    constants: tuple[int, ...]  # the push constants, by ordinal
    seed: int
    small: bool = False  # integer bindings drawn in [0, 1] (indices that stay in bounds) instead of [-8, 8]
    given: tuple[np.ndarray, ...] = ()  # binding k holds given[k] when its shape and type fit (the program's inputs)

    def describe(self) -> str:
        kind = "[0, 1]" if self.small else "[-8, 8]"
        drawn = f"bindings drawn with seed {self.seed} (integers in {kind})"
        return f"push constants {list(self.constants)}, " + (
            f"the program's inputs as bindings 0..{len(self.given) - 1} (others {drawn})" if self.given else drawn
        )


@dataclasses.dataclass
class _Binding:
    index: int


@dataclasses.dataclass
class _State:
    inputs: Inputs
    buffers: dict[int, np.ndarray] = dataclasses.field(default_factory=dict)
    types: dict[int, str] = dataclasses.field(default_factory=dict)
    writable: set[int] = dataclasses.field(default_factory=set)


_STATES: "weakref.WeakKeyDictionary[Interpreter, _State]" = weakref.WeakKeyDictionary()
_SHAPED = re.compile(r"(?<![.\w])(?:memref|tensor)<((?:[\d?]+x)*)([a-z]\w*)")  # not dispatch.tensor<readonly:


def _state(interp: Interpreter) -> _State:
    if interp not in _STATES:
        raise NotInterpretable("op hal.interface.* outside a dispatch run")
    return _STATES[interp]


def _draw(inputs: Inputs, index: int, shape: Sequence[int], e: core.Elem) -> np.ndarray:
    if index < len(inputs.given) and np.size(inputs.given[index]) == int(np.prod(shape)):
        given = np.asarray(inputs.given[index]).reshape(shape)  # a reshape of an input may be folded into its binding
        if (given.dtype.kind == "f") == e.is_float:
            return np.asarray(given, np.float64) if e.is_float else core.wrap(given.astype(np.int64), e)
    rng = np.random.default_rng([inputs.seed, index, *shape])
    if e.is_float:
        return rng.integers(-16, 17, size=shape).astype(np.float64) / 8
    if e.width == 1:
        return rng.integers(0, 2, size=shape).astype(np.int64)
    low, high = (0, 1) if inputs.small else (-8, 8)
    return core.wrap(rng.integers(low, high + 1, size=shape), e)


@handles(vocabulary.BINDING_OP)
def _subspan(interp: Interpreter, op: ir.Operation, args: list) -> list:
    state = _state(interp)
    index = ir.IntegerAttr(op.attributes["binding"]).value
    type_text = str(op.results[0].type)
    offset, dims = args[:1], args[1:]
    if offset and int(offset[0]) != 0:
        raise NotInterpretable(f"op {vocabulary.BINDING_OP} at an offset")
    shaped = _SHAPED.search(type_text)
    if shaped is None:
        raise NotInterpretable(f"op {vocabulary.BINDING_OP} of type {type_text}")
    sizes = iter(dims)
    shape = [int(next(sizes)) if d == "?" else int(d) for d in shaped.group(1).split("x")[:-1]]
    element = shaped.group(2)
    read_only = _read_only(op) or "readonly:" in type_text
    key = f"{shape}x{element}"
    if index in state.types and state.types[index] != key:
        raise NotInterpretable(f"op {vocabulary.BINDING_OP}: one binding seen as two types")
    if index not in state.buffers:
        state.types[index] = key
        e = core.elem_of(ir.Type.parse(element, op.context))
        undefined = "writeonly:" in type_text  # nothing the dispatch reads
        state.buffers[index] = np.array(codegen.poison(shape, e) if undefined else _draw(state.inputs, index, shape, e))
    if not read_only:
        state.writable.add(index)
    return [_Binding(index)]


_READ_ONLY_FLAG = 1  # IREE::HAL::DescriptorFlags::ReadOnly


def _read_only(op: ir.Operation) -> bool:
    if "descriptor_flags" not in op.attributes:
        return False
    flags = op.attributes["descriptor_flags"]
    try:
        return bool(ir.IntegerAttr(flags).value & _READ_ONLY_FLAG)
    except (ValueError, TypeError):
        return "ReadOnly" in str(flags)


def _mixed(op: ir.Operation, name: str, dynamic: Sequence[Any]) -> list[int]:
    values = iter(dynamic)
    return [int(next(values)) if v == DYNAMIC else int(v) for v in ir.DenseI64ArrayAttr(op.attributes[name])]


def _window(op: ir.Operation, offsets: Sequence[Any], sizes: Sequence[Any], strides: Sequence[Any]) -> tuple:
    o = _mixed(op, "static_offsets", offsets)
    s = _mixed(op, "static_sizes", sizes)
    st = _mixed(op, "static_strides", strides)
    return tuple(slice(a, a + (n - 1) * k + 1, k) if n else slice(a, a) for a, n, k in zip(o, s, st))


def _segments(op: ir.Operation, args: list) -> list[list]:
    sizes = list(ir.DenseI32ArrayAttr(op.attributes["operandSegmentSizes"]))
    out, start = [], 0
    for n in sizes:
        out.append(args[start : start + n])
        start += n
    return out


@handles(*vocabulary.TENSOR_LOADS)
def _tensor_load(interp: Interpreter, op: ir.Operation, args: list) -> list:
    (binding,), _dims, offsets, sizes, strides = _segments(op, args)
    buffer = _state(interp).buffers[binding.index]
    region = np.array(buffer[_window(op, offsets, sizes, strides)])
    rank = ir.ShapedType(op.results[0].type).rank
    surplus = region.ndim - rank  # a rank-reducing load drops unit dims
    kept = [n for n in region.shape if not (n == 1 and surplus > 0 and (surplus := surplus - 1) >= 0)]
    return [region.reshape(kept)]


@handles(*vocabulary.TENSOR_STORES)
def _tensor_store(interp: Interpreter, op: ir.Operation, args: list) -> list:
    (value,), (binding,), _dims, offsets, sizes, strides = _segments(op, args)
    buffer = _state(interp).buffers[binding.index]
    window = _window(op, offsets, sizes, strides)
    buffer[window] = np.asarray(value).reshape(buffer[window].shape)
    return []


@handles("iree_codegen.load_from_buffer")
def _load_from_buffer(interp: Interpreter, op: ir.Operation, args: list) -> list:
    return [np.array(_state(interp).buffers[args[0].index], copy=True)]


@handles("iree_codegen.store_to_buffer")
def _store_to_buffer(interp: Interpreter, op: ir.Operation, args: list) -> list:
    buffer = _state(interp).buffers[args[1].index]
    buffer[...] = np.asarray(args[0]).reshape(buffer.shape)
    return []


@handles("hal.interface.constant.load")
def _constant_load(interp: Interpreter, op: ir.Operation, args: list) -> list:
    ordinal = ir.IntegerAttr(op.attributes["ordinal"]).value
    constants = _state(interp).inputs.constants
    if ordinal >= len(constants):
        raise NotInterpretable(f"op hal.interface.constant.load of ordinal {ordinal}: no such push constant")
    return [core.wrap(np.int64(constants[ordinal]), core.elem_of(op.results[0]))]


@handles("util.assume.int", "iree_tensor_ext.dispatch.workload.ordinal", "util.optimization_barrier")
def _identity(interp: Interpreter, op: ir.Operation, args: list) -> list:
    return list(args[: len(op.results)])


# --------------------------------------------------------------------------- running


@dataclasses.dataclass(frozen=True)
class Evaluation:
    outputs: dict[int, np.ndarray] | None  # writable binding -> contents (None: not read)
    undefined: bool = False  # some output depends on a poison value
    error: str = ""
    otherwise: dict[int, np.ndarray] | None = None  # the outputs with poison read as _SECOND_FILL, when they differ

    def line(self) -> str:
        if self.outputs is None:
            return f"not read ({self.error})"
        if not self.undefined or self.otherwise is None:
            return _bindings(self.outputs)
        return f"{_bindings(self.outputs)}, or {_bindings(self.otherwise)} with poison read as {_SECOND_FILL:g}"


def _bindings(outputs: dict[int, np.ndarray]) -> str:
    return "; ".join(f"binding {k} = {np.asarray(v).tolist()}" for k, v in sorted(outputs.items()))


def _run(text: str, function: str, inputs: Inputs, fill: float | None) -> dict[int, np.ndarray]:
    interp = Interpreter(core.parse(text))
    state = _State(inputs)
    _STATES[interp] = state
    name = function.lstrip("@")
    if name not in interp.functions:
        raise ProgramError(f"no function @{name}")
    with codegen.poisoned(fill):
        interp.call(name, [])
    return {k: np.array(state.buffers[k], copy=True) for k in sorted(state.writable)}


def evaluate(text: str, function: str, inputs: Inputs) -> Evaluation:
    """The dispatch ``function`` of ``text`` on ``inputs``, run under two poison fills."""
    try:
        first = _run(text, function, inputs, None)
        second = _run(text, function, inputs, _SECOND_FILL)
    except (NotInterpretable, ProgramError) as e:
        return Evaluation(None, error=str(e).splitlines()[0][:160] if str(e) else type(e).__name__)
    except (KeyError, ValueError, IndexError, TypeError) as e:  # IR the readers do not know (an op's form)
        return Evaluation(None, error=f"{type(e).__name__}: {str(e)[:120]}")
    undefined = first.keys() != second.keys() or any(not same(first[k], second[k], 0.0) for k in first)
    return Evaluation(first, undefined, otherwise=second if undefined else None)


def same(a: np.ndarray, b: np.ndarray, rtol: float) -> bool:
    a, b = np.asarray(a, np.float64), np.asarray(b, np.float64)
    return a.shape == b.shape and bool(np.allclose(a, b, rtol=rtol, atol=rtol, equal_nan=True))


def differs(before: Evaluation, after: Evaluation, rtol: float) -> bool:
    """``after`` computes other values than ``before`` (which is defined), or depends on poison."""
    if before.outputs is None or after.outputs is None or before.undefined:
        return False
    if after.undefined or before.outputs.keys() != after.outputs.keys():
        return True
    return any(not same(before.outputs[k], after.outputs[k], rtol) for k in before.outputs)


# --------------------------------------------------------------------------- inputs

_CONSTANT = re.compile(r"^\s*(%[\w.#]+) = hal\.interface\.constant\.load\b[^\n]*ordinal\((\d+)\)", re.M)


def _high_halves(text: str) -> set[int]:
    """The ordinals of push constants that are the upper 32 bits of an index (extui, then shli by 32)."""
    high = set()
    for m in _CONSTANT.finditer(text):
        ext = re.search(rf"^\s*(%[\w.#]+) = arith\.extui {re.escape(m.group(1))} ", text, re.M)
        if ext and re.search(rf"arith\.shli {re.escape(ext.group(1))}, %c32", text):
            high.add(int(m.group(2)))
    return high


def draws(source: str, dims: Sequence[int] = (), given: Sequence[np.ndarray] = ()) -> list[Inputs]:
    """Inputs for the dispatch ``source``: push constants that are the lower halves of an index take the program's
    dynamic dims in order (``dims``; 2 when none), the upper halves 0; the bindings first the program's inputs in
    order (``given``, where they fit), then drawn with two seeds, and with small integers (indices in bounds)."""
    ordinals = sorted({int(m.group(2)) for m in _CONSTANT.finditer(source)})
    high = _high_halves(source)
    values = list(dims) or [2]
    low = iter(values * (len(ordinals) + 1))
    constants = tuple(0 if k in high else next(low) for k in range(max(ordinals) + 1 if ordinals else 0))
    drawn = [Inputs(constants, 0), Inputs(constants, 0, small=True), Inputs(constants, 1)]
    return ([Inputs(constants, 0, given=tuple(np.asarray(g) for g in given))] if given else []) + drawn
