"""The interpreter's core: element types and values, parsing, the ``Interpreter`` (a function walker that
dispatches on the op name through ``HANDLERS``; ``handles`` registers a handler) and the entry points
``interpret`` / ``interpret_traced``.
"""

from __future__ import annotations

import dataclasses
import functools
import itertools
import re
import time
from typing import Any, Callable, Iterable, Sequence

import numpy as np
from iree.compiler import ir, passmanager

from ireefuzz.errors import NotInterpretable, ProgramError

Array = np.ndarray
Handler = Callable[["Interpreter", ir.Operation, list], list]


# --------------------------------------------------------------------------- element types


@dataclasses.dataclass(frozen=True)
class Elem:
    """An MLIR element type as the interpreter sees it: float of ``bits`` or integer of ``width``."""

    name: str
    is_float: bool
    width: int  # integers and index: bits; floats: storage bits

    @property
    def mask(self) -> int:
        return (1 << self.width) - 1


@functools.lru_cache(maxsize=None)
def _elem(type_text: str) -> Elem:
    if type_text.startswith(("tensor<", "vector<")):
        inner = type_text[7:-1]
        type_text = "index" if inner.endswith("index") else inner.split("x")[-1]
    if type_text in ("f16", "bf16", "f32", "f64"):
        return Elem(type_text, True, int(type_text[-2:]))
    if type_text == "index":
        return Elem("index", False, 64)
    if type_text[:1] in "iu" and type_text.lstrip("ui").isdigit() or type_text[:2] == "si" and type_text[2:].isdigit():
        return Elem(type_text, False, int(type_text.lstrip("uis")))
    raise NotInterpretable(f"op with element type {type_text}")


def elem_of(value: ir.Value | ir.Type) -> Elem:
    t = value.type if isinstance(value, ir.Value) else value
    if isinstance(t, ir.ShapedType):
        t = ir.ShapedType(t).element_type
    return _elem(str(t))


def wrap(x: Any, e: Elem) -> Array:
    """The canonical form of an integer of type ``e``: signed, wrapped at its width (i1: 0 or 1)."""
    x = np.asarray(x)
    if x.dtype == np.uint64:
        x = x.astype(np.int64)
    x = x.astype(np.int64, copy=False)
    if e.width >= 64:
        return x
    if e.width == 1:
        return x & 1
    half = 1 << (e.width - 1)
    return ((x + half) & e.mask) - half


def unsigned(x: Array, e: Elem) -> Array:
    """The unsigned reading of a canonical integer (uint64 for 64-bit types)."""
    return np.asarray(x).astype(np.uint64) if e.width >= 64 else np.asarray(x) & e.mask


def signed(x: Array, e: Elem) -> Array:
    return -np.asarray(x) if e.width == 1 else np.asarray(x)  # i1 true is -1 when read as signed


def round_to(x: Array, e: Elem) -> Array:
    """Round a float64 value to what type ``e`` can hold (still held in float64; overflow gives inf)."""
    with np.errstate(over="ignore"):
        return _round_to(x, e)


def _round_to(x: Array, e: Elem) -> Array:
    if e.name == "f32":
        return np.asarray(x, np.float64).astype(np.float32).astype(np.float64)
    if e.name == "f16":
        return np.asarray(x, np.float64).astype(np.float16).astype(np.float64)
    if e.name == "bf16":
        import ml_dtypes

        return np.asarray(x, np.float64).astype(np.float32).astype(ml_dtypes.bfloat16).astype(np.float64)
    return np.asarray(x, np.float64)


def to_elem(x: Array, e: Elem) -> Array:
    return np.asarray(x, np.float64) if e.is_float else wrap(x, e)


# --------------------------------------------------------------------------- parsing


_CONTEXT_REUSE = 256  # parses per Context (creating one costs ~0.1 s; a fresh one now and then bounds its tables)
_state: dict[str, Any] = {"context": None, "generalize": None, "uses": 0}


def parse(module_text: str) -> ir.Module:
    """Parse and generalize: every named linalg op becomes its ``linalg.generic``."""
    if _state["context"] is None or _state["uses"] >= _CONTEXT_REUSE:
        context = ir.Context()
        _state.update(
            context=context,
            uses=0,
            generalize=passmanager.PassManager.parse("builtin.module(linalg-generalize-named-ops)", context),
        )
    _state["uses"] += 1
    try:
        module = ir.Module.parse(module_text, _state["context"])
        _state["generalize"].run(module.operation)
    except ir.MLIRError as error:
        raise ProgramError(f"cannot parse the program: {error}") from None
    return module


def _functions(module: ir.Module) -> dict[str, ir.Operation]:
    found = {}
    for op in _walk(module.operation):
        if op.name in ("func.func", "util.func") and op.regions[0].blocks:
            found[ir.StringAttr(op.attributes["sym_name"]).value] = op
    return found


def _walk(op: ir.Operation) -> Iterable[ir.Operation]:
    for region in op.regions:
        for block in region.blocks:
            for child in block.operations:
                yield child.operation
                yield from _walk(child.operation)


# --------------------------------------------------------------------------- the interpreter


class Interpreter:
    def __init__(self, module: ir.Module, time_limit_s: float | None = None, text: str = "") -> None:
        self.module = module
        self.lines = text.splitlines()  # the program's text, to name the sources of undefined values
        self.time_limit_s = time_limit_s
        self.deadline = time.monotonic() + time_limit_s if time_limit_s is not None else None
        self.functions = _functions(module)
        self.env: dict[ir.Value, Any] = {}
        self.poison: dict[ir.Value, Mask] = {}  # the values with undefined elements (see "poison" below)
        self.sources: list[tuple[str, int, str]] = []  # what made poison k + 1, its line and why it is undefined
        self.yielded: list[Mask | None] = []  # the poison of what the last block run yielded
        self.indices: list = []  # linalg._Space: linalg.index values of the generics being run (they nest)
        self.longest_reduction = 1  # the most reduction steps one generic took (error bounds scale with it)

    def call(self, name: str, args: Sequence[Array], poison: Sequence[Mask | None] = ()) -> Tracked:
        if name not in self.functions:
            raise NotInterpretable(f"op call to @{name} (no body)")
        outer = self.env, self.poison  # one flat environment per call: SSA values are unique, regions see outer ones
        self.env, self.poison = {}, {}
        try:
            values = self.run_block(self.functions[name].regions[0].blocks[0], args, poison=poison)
            return Tracked(values, self.yielded)
        finally:
            self.env, self.poison = outer

    def run_block(
        self, block: ir.Block, args: Sequence[Any], steps: list | None = None, poison: Sequence[Mask | None] = ()
    ) -> list[Array]:
        """Run ``block`` with its arguments bound to ``args`` (undefined where ``poison`` says); return what its
        terminator yields (its poison in ``self.yielded``)."""
        if self.deadline is not None and time.monotonic() > self.deadline:  # every loop iteration runs a block
            raise NotInterpretable(f"the reference did not finish in {self.time_limit_s:g} s")
        for arg, value, mask in itertools.zip_longest(block.arguments, args, poison[: len(args)]):
            self.env[arg] = value
            self.set_poison(arg, mask)
        return self.run_ops(compile_block(block) if steps is None else steps)

    def run_ops(self, steps: Sequence[tuple]) -> list[Array]:
        env, poison = self.env, self.poison
        for handler, op, operands, results, store, dead in steps:
            args = [env[v] for v in operands]
            if handler is None:  # the terminator: everything the block defined is done with
                self.yielded = [poison.get(v) for v in operands]
                for value in dead:
                    env.pop(value, None)
                    poison.pop(value, None)
                return args
            outs = handler(self, op, args)
            # an op with regions tracks its own poison
            masks = outs.poison if isinstance(outs, Tracked) else self.poison_of(op, operands, args, outs)
            for value, out, e, mask in itertools.zip_longest(results, outs, store, masks[: len(results)]):
                env[value] = round_to(out, e) if e is not None else out
                self.set_poison(value, mask)
            for value in dead:  # no later op of the block (nor any op nested in one) reads it: free it now
                env.pop(value, None)
                poison.pop(value, None)
        return []

    # ----------------------------------------------------------------------- poison

    def set_poison(self, value: ir.Value, mask: Mask | None) -> None:
        if mask is not None and mask.any():
            self.poison[value] = mask
        else:
            self.poison.pop(value, None)

    def operand_poison(self, op: ir.Operation) -> list[Mask | None]:
        """The poison of ``op``'s operands (for a handler that tracks its own)."""
        return [self.poison.get(v) for v in op.operands]

    def poison_of(self, op: ir.Operation, operands: Sequence[ir.Value], args: list, outs: list) -> list[Mask | None]:
        masks = [self.poison.get(v) for v in operands]
        rule = POISON_RULES.get(op.name, spread_everywhere)
        if rule not in POISON_SOURCES and all(m is None for m in masks):
            return []
        return rule(self, op, args, masks, outs)

    def source(self, op: ir.Operation, why: str) -> int:
        """The poison number of ``op`` as a source of undefined values (``why`` they are)."""
        key = (op.name, _line(op), why)
        if key not in self.sources:
            self.sources.append(key)
        return min(self.sources.index(key) + 1, MAX_SOURCE)

    def undefined(self, mask: Mask, what: str) -> NotInterpretable:
        """``what`` reads undefined values: the error to raise, naming the source of one of them."""
        k = int(mask.max())
        if k >= MAX_SOURCE:
            return NotInterpretable(f"{what} reads undefined values (from one of many sources; {UNDEFINED_BEHAVIOUR})")
        name, line, why = self.sources[k - 1]
        text = self.lines[line - 1] if 0 < line <= len(self.lines) else ""
        defined = re.match(r"\s*(%[\w.$-]+)(?::\d+)?\s*=", text)
        source = f"{defined.group(1) + ' = ' if defined else ''}{name}{f' at line {line}' if line else ''}"
        return NotInterpretable(f"{what} reads undefined values ({source}: {why}; {UNDEFINED_BEHAVIOUR})")


# --------------------------------------------------------------------------- poison

# Undefined values are poison, as in LLVM: a tensor.empty's elements until something writes them, and the result
# of a comparison on NaN whose order decides a result (a reduction comparing its accumulator, a sort). A value's
# poison is a uint8 mask of its shape, 0 where defined, else the number of its source (``Interpreter.sources``,
# the last shared by any further); a value with none is absent from ``Interpreter.poison``. It spreads through
# every elementwise op (select: its condition and the chosen arm), and with the data through slices, inserts,
# reshapes, linalg.generic bodies and reductions, loops and calls. A branch, bound or index on poison is undefined
# behaviour at once; an output holding poison is refused ("reads undefined values"), never a value to compare.

Mask = np.ndarray
MAX_SOURCE = 255
UNDEFINED_BEHAVIOUR = "undefined behaviour"
PoisonRule = Callable[["Interpreter", ir.Operation, list, list, list], list]
POISON_RULES: dict[str, PoisonRule] = {}  # op name -> how poison spreads through it (default: spread_everywhere)
POISON_SOURCES: set[PoisonRule] = set()  # rules that run even when no operand is poison (they make some)


def is_undefined(reason: str) -> bool:
    """A reason not to judge that says the program (on these inputs) has undefined behaviour."""
    return UNDEFINED_BEHAVIOUR in reason or "(poison)" in reason


class Tracked(list):
    """What a handler that tracks its own poison returns: its results, with their poison (None: defined)."""

    def __init__(self, values: Iterable[Any], poison: Iterable[Mask | None]) -> None:
        super().__init__(values)
        self.poison = list(poison)


def poison_rule(*names: str, source: bool = False) -> Callable[[PoisonRule], PoisonRule]:
    def register(rule: PoisonRule) -> PoisonRule:
        for name in names:
            POISON_RULES[name] = rule
        if source:
            POISON_SOURCES.add(rule)
        return rule

    return register


def merged(masks: Iterable[Mask | None], shape: Sequence[int] = ()) -> Mask | None:
    """The poison of a value computed elementwise from values with ``masks`` (broadcast to ``shape``)."""
    present = [np.asarray(m) for m in masks if m is not None]
    if not present:
        return None
    shape = np.broadcast_shapes(tuple(shape), *[m.shape for m in present])
    return functools.reduce(np.maximum, [np.broadcast_to(m, shape) for m in present]).astype(np.uint8)


def spread_elementwise(interp: Interpreter, op: ir.Operation, args: list, masks: list, outs: list) -> list:
    return [merged(masks, np.shape(out)) for out in outs]


def spread_everywhere(interp: Interpreter, op: ir.Operation, args: list, masks: list, outs: list) -> list:
    """The default for an op without a rule of its own: any poison in, every result element poison."""
    worst = max(int(m.max()) for m in masks if m is not None)
    return [np.full(np.shape(out), worst, np.uint8) for out in outs]


def no_poison(interp: Interpreter, op: ir.Operation, args: list, masks: list, outs: list) -> list:
    """Results that never depend on element values (a dim, a shape)."""
    return [None for _ in outs]


def defined_indices(interp: Interpreter, op: ir.Operation, masks: Sequence[Mask | None], what: str = "") -> None:
    """Indices, bounds and conditions must be defined: using poison as one is undefined behaviour at once."""
    for mask in masks:
        if mask is not None:
            raise interp.undefined(mask, f"op {op.name}{what}")


def moves_data(*data: int, unread: Sequence[int] = ()) -> PoisonRule:
    """An op that only moves the elements of its operands ``data`` (the others are indices or sizes, but those
    ``unread``: a destination it overwrites): its poison is the same op run on their masks."""

    def rule(interp: Interpreter, op: ir.Operation, args: list, masks: list, outs: list) -> list:
        defined_indices(interp, op, [m for k, m in enumerate(masks) if k not in data and k not in unread])
        moved = [
            (masks[k] if masks[k] is not None else np.zeros(np.shape(a), np.uint8)) if k in data else a
            for k, a in enumerate(args)
        ]
        return [np.asarray(m).astype(np.uint8) for m in HANDLERS[op.name](interp, op, moved)]

    return rule


def _line(op: ir.Operation) -> int:
    found = re.search(r":(\d+):\d+", str(op.location))
    return int(found.group(1)) if found else 0


@functools.lru_cache(maxsize=4096)
def _store_rounding(type_text: str) -> Elem | None:
    """Tensors of f16 / bf16 round what is stored in them."""
    if not type_text.startswith("tensor<"):
        return None
    try:
        e = _elem(type_text)
    except NotInterpretable:
        return None
    return e if e.name in ("f16", "bf16") else None


def compile_block(block: ir.Block) -> list[tuple]:
    """(handler, op, operands, results, rounding per result, values dead after it) per op of ``block``. A value
    the block defines (an argument, a result) is dead after the last op that reads it, itself or in a region it
    holds: the run frees it there, so a chain of big tensors holds two at a time, not all of them."""
    steps = []
    for op in block.operations:
        op = op.operation
        name = op.name
        if name in TERMINATORS:
            steps.append([None, op, list(op.operands), [], []])
            break
        handler = HANDLERS.get(name)
        if handler is None:
            raise NotInterpretable(f"op {name}")
        results = list(op.results)
        steps.append([handler, op, list(op.operands), results, [_store_rounding(str(r.type)) for r in results]])
    defined = set(block.arguments) | {r for step in steps for r in step[3]}
    last: dict[Any, int] = {}
    for i, step in enumerate(steps):
        for value in _reads(step[1]):
            if value in defined:
                last[value] = i
    dead: list[list] = [[] for _ in steps]
    for value, i in last.items():
        dead[i].append(value)
    if steps and steps[-1][0] is None:  # yielded or never read (an unused block argument): freed on leaving
        dead[-1] = list(defined)
    return [(*step, tuple(dead[i])) for i, step in enumerate(steps)]


def _reads(op: ir.Operation) -> list:
    """The values ``op`` reads: its operands and those of every op nested in its regions."""
    found = list(op.operands)
    for region in op.regions:
        for block in region.blocks:
            for inner in block.operations:
                found += _reads(inner.operation)
    return found


TERMINATORS = {
    "func.return",
    "util.return",
    "linalg.yield",
    "scf.yield",
    "tensor.yield",
    "scf.condition",
    "iree_linalg_ext.yield",
}
HANDLERS: dict[str, Handler] = {}


def handles(*names: str) -> Callable[[Handler], Handler]:
    def register(fn: Handler) -> Handler:
        for name in names:
            HANDLERS[name] = fn
        return fn

    return register


def _attr(op: ir.Operation, name: str) -> Any:
    return op.attributes[name] if name in op.attributes else None


def _ints(attr: Any) -> list[int]:
    """A DenseI64ArrayAttr / ArrayAttr of IntegerAttr as Python ints."""
    if attr is None:
        return []
    try:
        return list(ir.DenseI64ArrayAttr(attr))
    except (ValueError, TypeError):
        return [ir.IntegerAttr(a).value for a in ir.ArrayAttr(attr)]


def _result_elem(op: ir.Operation, i: int = 0) -> Elem:
    return elem_of(op.results[i])


def _shape(value: ir.Value) -> list[int]:
    return list(ir.ShapedType(value.type).shape)


DYNAMIC = ir.ShapedType.get_dynamic_size()


def _check_in_bounds(index: tuple, shape: Sequence[int], what: str) -> None:
    for i, n in zip(index, shape):
        i = np.asarray(i)
        if i.size and (i.min() < 0 or i.max() >= n):
            raise NotInterpretable(f"op {what} reads out of bounds (undefined behaviour)")


def _indices_in_bounds(op: ir.Operation, index: Sequence[Any], shape: Sequence[int]) -> tuple:
    index = tuple(int(i) for i in index)
    if any(not 0 <= i < n for i, n in zip(index, shape)):
        raise NotInterpretable(f"op {op.name} out of bounds (undefined behaviour)")
    return index


# --------------------------------------------------------------------------- func, call


@handles("func.call", "util.call")
def _call(interp: Interpreter, op: ir.Operation, args: list) -> Tracked:
    return interp.call(ir.FlatSymbolRefAttr(op.attributes["callee"]).value, args, interp.operand_poison(op))


# --------------------------------------------------------------------------- entry points


def interpret(module_text: str, function: str, inputs: Sequence[np.ndarray]) -> list[np.ndarray]:
    """Run ``function`` of ``module_text`` on ``inputs``; results in float64 (floats) or int64 / bool (integers).

    Raises NotInterpretable("op X") for any op (or undefined behaviour) it cannot judge, and
    ProgramError when the text does not parse or the inputs do not fit the signature.
    """
    return interpret_traced(module_text, function, inputs).outputs


@dataclasses.dataclass(frozen=True)
class Interpretation:
    """What one run computed, and what an error bound on it scales with."""

    outputs: list[np.ndarray]
    longest_reduction: int  # the most reduction steps of one linalg.generic (accumulation length)
    depth: int  # arith / math / linalg ops in the function and what it calls (rounding steps on a path)


def interpret_traced(
    module_text: str,
    function: str,
    inputs: Sequence[np.ndarray],
    time_limit_s: float | None = None,
) -> Interpretation:
    """``interpret``, with the accumulation length and depth the numeric oracle's tolerance needs. An output that
    holds undefined values (poison: a ``tensor.empty`` nothing wrote, a comparison on NaN whose order decides it)
    raises NotInterpretable("... reads undefined values (...; undefined behaviour)").
    Past ``time_limit_s`` seconds (checked at every block, so every loop iteration) it raises NotInterpretable:
    a program that never ends is not judged, never a hang."""
    interp = Interpreter(parse(module_text), time_limit_s, module_text)
    if function not in interp.functions:
        raise ProgramError(f"no function @{function}; the module has {', '.join(sorted(interp.functions)) or 'none'}")
    func = interp.functions[function]
    params = list(func.regions[0].blocks[0].arguments)
    if len(params) != len(inputs):
        raise ProgramError(f"@{function} takes {len(params)} arguments, got {len(inputs)} inputs")
    args = [_argument(p, x, i) for i, (p, x) in enumerate(zip(params, inputs))]
    called = interp.call(function, args)
    for k, mask in enumerate(called.poison):
        if mask is not None:
            raise interp.undefined(mask, f"@{function}'s output {k}")
    result_types = [elem_of(t) for t in _result_types(func)]
    depth = sum(
        1
        for f in interp.functions.values()
        for op in _walk(f)
        if op.name.split(".")[0] in ("arith", "math") and op.name != "arith.constant"
    )
    return Interpretation(
        [_output(r, e) for r, e in zip(called, result_types)], interp.longest_reduction, max(depth, 1)
    )


def _result_types(func: ir.Operation) -> list[ir.Type]:
    return list(ir.FunctionType(ir.TypeAttr(func.attributes["function_type"]).value).results)


def _argument(param: ir.Value, x: np.ndarray, i: int) -> Array:
    x = np.asarray(x)
    if isinstance(param.type, ir.ShapedType):
        want = _shape(param)
        if len(want) != x.ndim or any(d != DYNAMIC and d != n for d, n in zip(want, x.shape)):
            raise ProgramError(f"input {i} has shape {x.shape}, the argument is {param.type}")
    e = elem_of(param)
    return np.asarray(x, np.float64) if e.is_float else wrap(x.astype(np.int64) if x.dtype != np.uint64 else x, e)


def _output(value: Array, e: Elem) -> np.ndarray:
    value = np.array(value, copy=True)
    if e.is_float:
        return value.astype(np.float64)
    if e.width == 1:
        return value.astype(np.bool_)
    return (
        unsigned(value, e).astype(np.uint64 if e.width >= 64 else np.int64)
        if e.name.startswith("ui")
        else value.astype(np.int64)
    )
