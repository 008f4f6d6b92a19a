"""A float64 reference interpreter for linalg / tensor / arith / math / scf MLIR (issue 10).

``interpret(text, "main", inputs)`` parses the program with IREE's MLIR Python bindings, turns every
named linalg op into its ``linalg.generic`` (MLIR's own ``linalg-generalize-named-ops``: one
semantics for matmul, conv, pooling, fill, transpose, reduce, map...) and evaluates it with NumPy:

- floats in float64; a value is rounded to its declared type only where the program says so
  (``truncf``, int->float casts) and where it is stored in an f16 / bf16 tensor (as the graph
  reference does);
- integers exact, kept as int64 in their signed form and wrapped at their declared width (i1 as 0/1);
- ``linalg.generic`` vectorized: its body runs once on arrays spanning the whole parallel iteration
  space; reduction steps run in iteration order, or in one NumPy reduction when the body is
  ``acc = combine(acc, f(ins))`` with an associative ``combine`` (integer sums are exact either way);
- anything it does not know raises ``NotInterpretable("op NAME")``: never a silent pass. So does
  undefined behaviour (division by zero, out-of-range indices, poison shifts and casts).

Layer L1: imports only NumPy, the MLIR bindings, ``ireefuzz.errors`` and the data-tiling layouts of
``ireefuzz.generators.ops`` (``pack_array`` / ``unpack_array``: one definition of linalg.pack for both
float64 references).
"""
from __future__ import annotations

import dataclasses
import functools
import itertools
import math
from typing import Any, Callable, Iterable, Sequence

import numpy as np
from iree.compiler import ir, passmanager

from ireefuzz.errors import NotInterpretable, ProgramError
from ireefuzz.generators.ops import pack_array, unpack_array

Array = np.ndarray
Handler = Callable[["Interpreter", ir.Operation, list], list]
FUSED_STEPS = 1 << 21  # an associative reduction is vectorized over chunks of its space this large


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
        _state.update(context=context, uses=0, generalize=passmanager.PassManager.parse(
            "builtin.module(linalg-generalize-named-ops)", context))
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
    def __init__(self, module: ir.Module, undefined: float | None = None) -> None:
        self.module = module
        self.undefined = undefined  # what tensor.empty holds (None: NaN for floats, 0 for integers)
        self.functions = _functions(module)
        self.env: dict[ir.Value, Any] = {}
        self.indices: list[_Space] = []  # linalg.index values of the generics being run (they nest)
        self.longest_reduction = 1  # the most reduction steps one generic took (error bounds scale with it)

    def call(self, name: str, args: Sequence[Array]) -> list[Array]:
        if name not in self.functions:
            raise NotInterpretable(f"op call to @{name} (no body)")
        outer, self.env = self.env, {}  # one flat environment per call: SSA values are unique, regions see outer ones
        try:
            return self.run_block(self.functions[name].regions[0].blocks[0], args)
        finally:
            self.env = outer

    def run_block(self, block: ir.Block, args: Sequence[Any], steps: list | None = None) -> list[Array]:
        """Run ``block`` with its arguments bound to ``args``; return what its terminator yields."""
        for arg, value in zip(block.arguments, args):
            self.env[arg] = value
        return self.run_ops(compile_block(block) if steps is None else steps)

    def run_ops(self, steps: Sequence[tuple]) -> list[Array]:
        env = self.env
        for handler, op, operands, results, store in steps:
            args = [env[v] for v in operands]
            if handler is None:  # the terminator
                return args
            outs = handler(self, op, args)
            for value, out, e in zip(results, outs, store):
                env[value] = round_to(out, e) if e is not None else out
        return []


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
    steps = []
    for op in block.operations:
        op = op.operation
        name = op.name
        if name in TERMINATORS:
            steps.append((None, op, list(op.operands), [], []))
            break
        handler = HANDLERS.get(name)
        if handler is None:
            raise NotInterpretable(f"op {name}")
        results = list(op.results)
        steps.append((handler, op, list(op.operands), results, [_store_rounding(str(r.type)) for r in results]))
    return steps


TERMINATORS = {"func.return", "util.return", "linalg.yield", "scf.yield", "tensor.yield", "scf.condition",
               "iree_linalg_ext.yield"}
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


# --------------------------------------------------------------------------- func, call


@handles("func.call", "util.call")
def _call(interp: Interpreter, op: ir.Operation, args: list) -> list:
    return interp.call(ir.FlatSymbolRefAttr(op.attributes["callee"]).value, args)


# --------------------------------------------------------------------------- arith


@handles("arith.constant")
def _constant(interp: Interpreter, op: ir.Operation, args: list) -> list:
    attr = op.attributes["value"]
    e = _result_elem(op)
    if isinstance(attr, ir.DenseElementsAttr):
        dense = ir.DenseElementsAttr(attr)
        shape = _shape(op.results[0])
        if dense.is_splat:
            return [np.full(shape, _scalar_constant(dense.get_splat_value(), e))]
        return [to_elem(_dense_values(dense, e).reshape(shape), e)]
    return [_scalar_constant(attr, e)]


def _dense_values(dense: ir.DenseElementsAttr, e: Elem) -> Array:
    try:
        values = np.array(dense)  # the buffer protocol: every width but bf16
        if values.dtype != object:
            return values
    except (TypeError, ValueError, RuntimeError):
        pass
    body = str(dense)[len("dense<"):str(dense).rindex(">")].split(">")[0]
    if e.name == "bf16" and body.startswith('"0x'):
        import ml_dtypes

        raw = bytes.fromhex(body.strip('"')[2:])
        return np.frombuffer(raw, np.uint16).view(ml_dtypes.bfloat16).astype(np.float64)
    if e.name == "bf16":
        return np.array([float(v) for v in body.replace("[", " ").replace("]", " ").replace(",", " ").split()])
    raise NotInterpretable(f"op arith.constant of {dense.type}")


def _scalar_constant(attr: ir.Attribute, e: Elem) -> Array:
    if isinstance(attr, ir.FloatAttr):
        return np.float64(ir.FloatAttr(attr).value)
    if isinstance(attr, ir.BoolAttr):
        return wrap(int(ir.BoolAttr(attr).value), e)
    if isinstance(attr, ir.IntegerAttr):
        return wrap(ir.IntegerAttr(attr).value, e)
    raise NotInterpretable(f"op arith.constant with attribute {str(attr)[:60]}")


def _elementwise(fn: Callable[..., Any], *, ints: bool) -> Handler:
    """An op whose result is fn(operands), wrapped (integers) at the result's width."""
    def handler(interp: Interpreter, op: ir.Operation, args: list) -> list:
        with np.errstate(all="ignore"):
            out = fn(*args)
        return [wrap(out, _result_elem(op)) if ints else np.asarray(out, np.float64)]

    return handler


def _int_op(fn: Callable[[Elem, list], Any]) -> Handler:
    """An integer op that needs the operands' type (for unsigned readings and poison checks)."""
    def handler(interp: Interpreter, op: ir.Operation, args: list) -> list:
        e = elem_of(op.operands[0])
        with np.errstate(all="ignore"):
            return [wrap(fn(e, [np.asarray(a) for a in args]), _result_elem(op))]

    return handler


def _nonzero(op: str, divisor: Array) -> None:
    if np.any(divisor == 0):
        raise NotInterpretable(f"op {op} by zero (undefined behaviour)")


def _trunc_div(a: Array, b: Array) -> Array:
    q = a // np.where(b == 0, 1, b)
    return q + ((a % np.where(b == 0, 1, b) != 0) & ((a < 0) != (b < 0)))


def _divsi(e: Elem, x: list) -> Array:
    a, b = signed(x[0], e), signed(x[1], e)
    _nonzero("arith.divsi", b)
    if e.width > 1 and np.any((a == -(1 << (e.width - 1))) & (b == -1)):
        raise NotInterpretable("op arith.divsi overflow (undefined behaviour)")
    return _trunc_div(a, b)


def _remsi(e: Elem, x: list) -> Array:
    a, b = signed(x[0], e), signed(x[1], e)
    _nonzero("arith.remsi", b)
    return a - _trunc_div(a, b) * b


def _unsigned_binary(name: str, fn: Callable[[Array, Array], Array], check_zero: bool = False) -> Handler:
    def compute(e: Elem, x: list) -> Array:
        a, b = unsigned(x[0], e), unsigned(x[1], e)
        if check_zero:
            _nonzero(name, b)
        return fn(a, np.where(b == 0, 1, b) if check_zero else b)

    return _int_op(compute)


def _shift(name: str) -> Handler:
    def compute(e: Elem, x: list) -> Array:
        amount = unsigned(x[1], e)
        if np.any(amount >= e.width):
            raise NotInterpretable(f"op {name} by at least the bit width (poison)")
        amount = amount.astype(np.int64)
        if name == "arith.shli":
            return unsigned(x[0], e).astype(np.uint64) << amount.astype(np.uint64)
        if name == "arith.shrui":
            return unsigned(x[0], e).astype(np.uint64) >> amount.astype(np.uint64)
        return signed(x[0], e) >> amount

    return _int_op(compute)


def _floordivsi(e: Elem, x: list) -> Array:
    a, b = signed(x[0], e), signed(x[1], e)
    _nonzero("arith.floordivsi", b)
    return a // b


def _ceildivsi(e: Elem, x: list) -> Array:
    a, b = signed(x[0], e), signed(x[1], e)
    _nonzero("arith.ceildivsi", b)
    return -((-a) // b)


for _name, _fn in {
    "arith.addi": lambda e, x: x[0] + x[1], "arith.subi": lambda e, x: x[0] - x[1],
    "arith.muli": lambda e, x: x[0] * x[1], "arith.andi": lambda e, x: x[0] & x[1],
    "arith.ori": lambda e, x: x[0] | x[1], "arith.xori": lambda e, x: x[0] ^ x[1],
    "arith.divsi": _divsi, "arith.remsi": _remsi, "arith.floordivsi": _floordivsi, "arith.ceildivsi": _ceildivsi,
    "arith.maxsi": lambda e, x: np.maximum(signed(x[0], e), signed(x[1], e)),
    "arith.minsi": lambda e, x: np.minimum(signed(x[0], e), signed(x[1], e)),
    "math.absi": lambda e, x: np.abs(signed(x[0], e)),
    "math.ctpop": lambda e, x: np.vectorize(lambda v: bin(int(v)).count("1"), otypes=[np.int64])(unsigned(x[0], e)),
}.items():
    HANDLERS[_name] = _int_op(_fn)
HANDLERS["arith.divui"] = _unsigned_binary("arith.divui", lambda a, b: a // b, check_zero=True)
HANDLERS["arith.remui"] = _unsigned_binary("arith.remui", lambda a, b: a % b, check_zero=True)
HANDLERS["arith.ceildivui"] = _unsigned_binary("arith.ceildivui", lambda a, b: (a + b - 1) // b, check_zero=True)
HANDLERS["arith.maxui"] = _unsigned_binary("arith.maxui", np.maximum)
HANDLERS["arith.minui"] = _unsigned_binary("arith.minui", np.minimum)
for _name in ("arith.shli", "arith.shrsi", "arith.shrui"):
    HANDLERS[_name] = _shift(_name)


def _round_half_away(x: Array) -> Array:
    return np.sign(x) * np.floor(np.abs(x) + 0.5)


_erf = np.vectorize(math.erf, otypes=[np.float64])  # rare enough for a per-element loop; no SciPy needed


FLOAT_OPS: dict[str, Callable[..., Any]] = {
    "arith.addf": np.add, "arith.subf": np.subtract, "arith.mulf": np.multiply, "arith.divf": np.divide,
    "arith.remf": np.fmod, "arith.negf": np.negative,
    "arith.maximumf": np.maximum, "arith.minimumf": np.minimum, "arith.maxf": np.maximum, "arith.minf": np.minimum,
    "arith.maxnumf": np.fmax, "arith.minnumf": np.fmin,
    "math.absf": np.abs, "math.exp": np.exp, "math.exp2": np.exp2, "math.expm1": np.expm1, "math.log": np.log,
    "math.log2": np.log2, "math.log10": np.log10, "math.log1p": np.log1p, "math.sqrt": np.sqrt,
    "math.rsqrt": lambda x: 1.0 / np.sqrt(x), "math.cbrt": np.cbrt, "math.tanh": np.tanh, "math.sinh": np.sinh,
    "math.cosh": np.cosh, "math.sin": np.sin, "math.cos": np.cos, "math.tan": np.tan, "math.asin": np.arcsin,
    "math.acos": np.arccos, "math.atan": np.arctan, "math.atan2": np.arctan2, "math.asinh": np.arcsinh,
    "math.acosh": np.arccosh, "math.atanh": np.arctanh, "math.erf": _erf,
    "math.powf": np.power, "math.floor": np.floor, "math.ceil": np.ceil, "math.round": _round_half_away,
    "math.roundeven": np.rint, "math.trunc": np.trunc, "math.copysign": np.copysign,
    "math.fma": lambda a, b, c: a * b + c,
}
for _name, _fn in FLOAT_OPS.items():
    HANDLERS[_name] = _elementwise(_fn, ints=False)


@handles("math.fpowi")
def _fpowi(interp: Interpreter, op: ir.Operation, args: list) -> list:
    with np.errstate(all="ignore"):
        return [np.power(np.asarray(args[0], np.float64), np.asarray(args[1], np.float64))]


@handles("math.isnan", "math.isinf", "math.isfinite")
def _float_class(interp: Interpreter, op: ir.Operation, args: list) -> list:
    test = {"math.isnan": np.isnan, "math.isinf": np.isinf, "math.isfinite": np.isfinite}[op.name]
    return [test(args[0]).astype(np.int64)]


CMPI = {0: lambda a, b: a == b, 1: lambda a, b: a != b, 2: np.less, 3: np.less_equal, 4: np.greater,
        5: np.greater_equal}
CMPF = {1: "oeq", 2: "ogt", 3: "oge", 4: "olt", 5: "ole", 6: "one", 8: "ueq", 9: "ugt", 10: "uge", 11: "ult",
        12: "ule", 13: "une"}
_COMPARE = {"eq": np.equal, "gt": np.greater, "ge": np.greater_equal, "lt": np.less, "le": np.less_equal,
            "ne": np.not_equal}


@handles("arith.cmpi")
def _cmpi(interp: Interpreter, op: ir.Operation, args: list) -> list:
    predicate = ir.IntegerAttr(op.attributes["predicate"]).value
    e = elem_of(op.operands[0])
    if predicate in CMPI:
        a, b = signed(args[0], e), signed(args[1], e)
        return [CMPI[predicate](a, b).astype(np.int64)]
    a, b = unsigned(args[0], e), unsigned(args[1], e)
    return [CMPI[predicate - 4](a, b).astype(np.int64)]


@handles("arith.cmpf")
def _cmpf(interp: Interpreter, op: ir.Operation, args: list) -> list:
    predicate = ir.IntegerAttr(op.attributes["predicate"]).value
    a, b = np.asarray(args[0], np.float64), np.asarray(args[1], np.float64)
    unordered = np.isnan(a) | np.isnan(b)
    if predicate in (0, 15):
        return [np.full(np.broadcast(a, b).shape, predicate == 15, np.int64)]
    if predicate in (7, 14):  # ord, uno
        return [(~unordered if predicate == 7 else unordered).astype(np.int64)]
    name = CMPF[predicate]
    holds = _COMPARE[name[1:]](a, b)
    return [((holds & ~unordered) if name[0] == "o" else (holds | unordered)).astype(np.int64)]


@handles("arith.select")
def _select(interp: Interpreter, op: ir.Operation, args: list) -> list:
    return [np.where(np.asarray(args[0]) != 0, args[1], args[2])]


def _cast(fn: Callable[[Array, Elem, Elem], Array]) -> Handler:
    def handler(interp: Interpreter, op: ir.Operation, args: list) -> list:
        with np.errstate(all="ignore"):
            return [fn(np.asarray(args[0]), elem_of(op.operands[0]), _result_elem(op))]

    return handler


def _float_to_int(name: str, is_signed: bool) -> Callable[[Array, Elem, Elem], Array]:
    def convert(x: Array, src: Elem, dst: Elem) -> Array:
        t = np.trunc(x)
        low, high = (-(1 << (dst.width - 1)), (1 << (dst.width - 1)) - 1) if is_signed and dst.width > 1 else (0, dst.mask)
        if dst.width == 1 and is_signed:
            low, high = -1, 0
        if not np.all((t >= low) & (t <= high)):
            raise NotInterpretable(f"op {name} of a value out of range (poison)")
        return wrap(t.astype(np.int64) if dst.width < 64 or is_signed else t.astype(np.uint64), dst)

    return convert


CASTS: dict[str, Callable[[Array, Elem, Elem], Array]] = {
    "arith.extsi": lambda x, s, d: wrap(signed(x, s), d),
    "arith.extui": lambda x, s, d: wrap(unsigned(x, s), d),
    "arith.trunci": lambda x, s, d: wrap(x, d),
    "arith.index_cast": lambda x, s, d: wrap(signed(x, s), d),
    "arith.index_castui": lambda x, s, d: wrap(unsigned(x, s), d),
    "arith.sitofp": lambda x, s, d: round_to(signed(x, s).astype(np.float64), d),
    "arith.uitofp": lambda x, s, d: round_to(unsigned(x, s).astype(np.float64), d),
    "arith.fptosi": _float_to_int("arith.fptosi", True),
    "arith.fptoui": _float_to_int("arith.fptoui", False),
    "arith.extf": lambda x, s, d: np.asarray(x, np.float64),
    "arith.truncf": lambda x, s, d: round_to(x, d),
    "arith.bitcast": lambda x, s, d: _bitcast(x, s, d),
}
for _name, _fn in CASTS.items():
    HANDLERS[_name] = _cast(_fn)

_BITS = {"f16": (np.float16, np.int16), "f32": (np.float32, np.int32), "f64": (np.float64, np.int64)}


def _bitcast(x: Array, src: Elem, dst: Elem) -> Array:
    if src.is_float == dst.is_float:
        return x
    if src.is_float and src.name in _BITS:
        return wrap(x.astype(_BITS[src.name][0]).view(_BITS[src.name][1]), dst)
    if dst.name in _BITS:
        return x.astype(_BITS[dst.name][1]).view(_BITS[dst.name][0]).astype(np.float64)
    raise NotInterpretable(f"op arith.bitcast {src.name} to {dst.name}")


# --------------------------------------------------------------------------- affine maps


def _affine(expr: ir.AffineExpr, dims: Sequence[Any]) -> Any:
    if isinstance(expr, ir.AffineDimExpr):
        return dims[ir.AffineDimExpr(expr).position]
    if isinstance(expr, ir.AffineConstantExpr):
        return ir.AffineConstantExpr(expr).value
    for kind, fn in ((ir.AffineAddExpr, np.add), (ir.AffineMulExpr, np.multiply), (ir.AffineModExpr, np.mod),
                     (ir.AffineFloorDivExpr, np.floor_divide),
                     (ir.AffineCeilDivExpr, lambda a, b: -np.floor_divide(-a, b))):
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
    for amap, value in zip(maps, operands):
        for axis, expr in enumerate(amap.results):
            if isinstance(expr, ir.AffineDimExpr) and sizes[ir.AffineDimExpr(expr).position] is None:
                sizes[ir.AffineDimExpr(expr).position] = np.shape(value)[axis]
    if any(s is None for s in sizes):
        raise NotInterpretable("op linalg.generic with a loop bound no operand gives")
    return sizes  # type: ignore[return-value]


def _element_index(amap: ir.AffineMap, dims: Sequence[Any]) -> tuple:
    return tuple(_affine(expr, dims) for expr in amap.results)


def _check_in_bounds(index: tuple, shape: Sequence[int], what: str) -> None:
    for i, n in zip(index, shape):
        i = np.asarray(i)
        if i.size and (i.min() < 0 or i.max() >= n):
            raise NotInterpretable(f"op {what} reads out of bounds (undefined behaviour)")


# --------------------------------------------------------------------------- linalg.generic


@handles("linalg.index")
def _linalg_index(interp: Interpreter, op: ir.Operation, args: list) -> list:
    return [np.asarray(interp.indices[-1].dim(ir.IntegerAttr(op.attributes["dim"]).value))]


ASSOCIATIVE = {"arith.addf": np.add, "arith.addi": np.add, "arith.muli": np.multiply, "arith.mulf": np.multiply,
               "arith.maxsi": np.maximum, "arith.minsi": np.minimum, "arith.maximumf": np.maximum,
               "arith.minimumf": np.minimum, "arith.maxf": np.maximum, "arith.minf": np.minimum,
               "arith.maxnumf": np.fmax, "arith.minnumf": np.fmin, "arith.andi": np.bitwise_and,
               "arith.ori": np.bitwise_or, "arith.xori": np.bitwise_xor}


class _Space:
    """The loop dims of one evaluation of a generic body: some are axes of the arrays the body runs on
    (a range ``[low, high)`` of the dim), the others fixed at one index."""

    def __init__(self, ranges: dict[int, tuple[int, int]], fixed: dict[int, int]) -> None:
        self.axes = {d: axis for axis, d in enumerate(sorted(ranges))}
        self.ranges, self.fixed = ranges, fixed
        self.shape = tuple(high - low for low, high in (ranges[d] for d in sorted(ranges)))

    def dim(self, d: int) -> Any:
        """The value(s) of loop dim ``d``: an int, or an arange along its axis."""
        if d in self.fixed:
            return self.fixed[d]
        low, high = self.ranges[d]
        return np.arange(low, high).reshape([-1 if a == self.axes[d] else 1 for a in range(len(self.shape))])

    def _view_index(self, amap: ir.AffineMap) -> tuple[tuple, list[int]] | None:
        """For a projected permutation: the basic index into the operand and the axis each kept dim lands on."""
        index, landing = [], []
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
def _generic(interp: Interpreter, op: ir.Operation, args: list) -> list:
    n_outs = len(op.results)
    n_ins = len(args) - n_outs
    maps, iterators = _maps(op), _iterators(op)
    sizes = _loop_sizes(maps, args, len(iterators))
    for amap, value in zip(maps, args):
        if np.ndim(value):
            _check_in_bounds(_element_index(amap, _bounds_probe(sizes)), np.shape(value), "linalg.generic")
    outs = [np.array(a, copy=True) for a in args[n_ins:]]
    if 0 in sizes:
        return outs
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
            _fused_step(interp, block, steps, args, maps, space, reduction, combiners, outs, n_ins)
        return outs
    for point in _reduction_points([sizes[d] for d in reduction]):
        _step(interp, block, steps, args, maps, _Space(parallel, dict(zip(reduction, point))), outs, n_ins)
    return outs


def _reads_dims(amap: ir.AffineMap, dims: Sequence[int]) -> bool:
    """Whether ``amap`` may depend on any of ``dims`` (conservatively True for compound expressions)."""
    return any(not isinstance(e, ir.AffineDimExpr) and not isinstance(e, ir.AffineConstantExpr)
               or isinstance(e, ir.AffineDimExpr) and e.position in dims for e in amap.results)


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
    return [np.array([0, max(s - 1, 0)]).reshape([-1 if k == d else 1 for k in range(len(sizes))]) if s else
            np.zeros([0] * len(sizes), np.int64) for d, s in enumerate(sizes)]


def _step(interp: Interpreter, block: ir.Block, steps: list, args: list, maps: list, space: _Space,
          outs: list[Array], n_ins: int) -> None:
    """One evaluation of the body over ``space`` (all parallel points at one reduction index)."""
    block_args = [space.read(a, m) for a, m in zip(args[:n_ins], maps)]
    block_args += [space.read(out, m) for out, m in zip(outs, maps[n_ins:])]
    interp.indices.append(space)
    try:
        yielded = interp.run_block(block, block_args, steps)
    finally:
        interp.indices.pop()
    for out, y, m in zip(outs, yielded, maps[n_ins:]):
        space.write(out, m, y)


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
    for handler, op, operands, _, _ in steps:  # the out args may feed only their combine
        if any(v in out_args for v in operands) and op not in combine_ops:
            return None
    return found


def _fused_step(interp: Interpreter, block: ir.Block, steps: list, args: list, maps: list, space: _Space,
                reduction: list[int], combiners: list, outs: list[Array], n_ins: int) -> None:
    """f(ins) over a whole chunk of the space at once, folded over its reduction axes by the combine ufunc."""
    folded_space = _Space({d: r for d, r in space.ranges.items() if d not in reduction}, {d: 0 for d in reduction})
    product = _contraction(block, combiners, n_ins, maps, space)
    if product is not None:  # acc + x * y: one einsum (BLAS for floats)
        (a, la), (b, lb) = ((np.asarray(args[i])[index], labels) for i, index, labels in product)
        with np.errstate(all="ignore"):
            folded_values = [np.einsum(a, la, b, lb, sorted(folded_space.ranges), optimize=True)]
    else:
        folded_values = _fold(interp, block, steps, args, maps, space, reduction, combiners, n_ins)
    for out, m, (producer, ufunc, value), folded in zip(outs, maps[n_ins:], combiners, folded_values):
        with np.errstate(all="ignore"):
            combined = ufunc(folded_space.read(out, m), folded)
        folded_space.write(out, m, to_elem(combined, elem_of(producer.results[0])))


def _fold(interp: Interpreter, block: ir.Block, steps: list, args: list, maps: list, space: _Space,
          reduction: list[int], combiners: list, n_ins: int) -> list[Array]:
    env = interp.env
    env.update(zip(block.arguments, [space.read(a, m) for a, m in zip(args[:n_ins], maps)]))
    combine_ops = {c[0] for c in combiners}
    interp.indices.append(space)
    try:
        interp.run_ops([s for s in steps[:-1] if s[1] not in combine_ops])
    finally:
        interp.indices.pop()
    axes = tuple(space.axes[d] for d in reduction)
    with np.errstate(all="ignore"):
        return [ufunc.reduce(np.broadcast_to(env[value], space.shape), axis=axes) for _, ufunc, value in combiners]


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


# --------------------------------------------------------------------------- tensor


def _mixed(op: ir.Operation, static_name: str, dynamic: Iterable[Any]) -> list[int]:
    """Static sizes / offsets / strides with the dynamic ones filled from operands, in order."""
    dynamic = iter(dynamic)
    return [int(next(dynamic)) if v == DYNAMIC else v for v in _ints(op.attributes[static_name])]


def _segments(op: ir.Operation, args: list) -> list[list]:
    sizes = list(ir.DenseI32ArrayAttr(op.attributes["operandSegmentSizes"]))
    out, start = [], 0
    for n in sizes:
        out.append(args[start:start + n])
        start += n
    return out


def _result_shape(op: ir.Operation, dynamic: Iterable[Any], i: int = 0) -> list[int]:
    dynamic = iter(dynamic)
    return [int(next(dynamic)) if d == DYNAMIC else d for d in _shape(op.results[i])]


def _undefined(shape: Sequence[int], e: Elem, value: float | None = None) -> Array:
    """tensor.empty's contents are undefined: NaN for floats, so a read of them shows (or ``value``)."""
    if value is not None:
        return np.full(shape, value, np.float64) if e.is_float else wrap(np.full(shape, int(value)), e)
    return np.full(shape, np.nan) if e.is_float else np.zeros(shape, np.int64)


@handles("tensor.empty")
def _empty(interp: Interpreter, op: ir.Operation, args: list) -> list:
    return [_undefined(_result_shape(op, args), _result_elem(op), interp.undefined)]


@handles("bufferization.alloc_tensor")
def _alloc_tensor(interp: Interpreter, op: ir.Operation, args: list) -> list:
    return _empty(interp, op, args)


@handles("tensor.dim")
def _dim(interp: Interpreter, op: ir.Operation, args: list) -> list:
    return [np.int64(np.shape(args[0])[int(args[1])])]


def _indices_in_bounds(op: ir.Operation, index: Sequence[Any], shape: Sequence[int]) -> tuple:
    index = tuple(int(i) for i in index)
    if any(not 0 <= i < n for i, n in zip(index, shape)):
        raise NotInterpretable(f"op {op.name} out of bounds (undefined behaviour)")
    return index


@handles("tensor.extract")
def _extract(interp: Interpreter, op: ir.Operation, args: list) -> list:
    source, index = np.asarray(args[0]), args[1:]
    if all(np.ndim(i) == 0 for i in index):
        return [source[_indices_in_bounds(op, index, source.shape)]]
    index = tuple(np.asarray(i).astype(np.int64) for i in index)  # vectorized: one index array per dim
    _check_in_bounds(index, source.shape, op.name)
    return [source[index]]


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
    offsets, sizes, strides = (_mixed(op, n, v) for n, v in
                               (("static_offsets", offs), ("static_sizes", sizes), ("static_strides", strides)))
    region = np.asarray(source[0])[_slice_of(op, np.shape(source[0]), offsets, sizes, strides)]
    return [_drop_unit_dims(region, _shape(op.results[0]))]


def _drop_unit_dims(region: Array, want: list[int]) -> Array:
    """extract_slice may drop unit dims (rank-reducing): keep the dims that match the result type, in order."""
    if len(want) == region.ndim:
        return region
    kept, surplus = [], region.ndim - len(want)
    for n in region.shape:
        if n == 1 and surplus:
            surplus -= 1
        else:
            kept.append(n)
    return region.reshape(kept)


@handles("tensor.insert_slice")
def _insert_slice(interp: Interpreter, op: ir.Operation, args: list) -> list:
    source, dest, offs, sizes, strides = _segments(op, args)
    offsets, sizes, strides = (_mixed(op, n, v) for n, v in
                               (("static_offsets", offs), ("static_sizes", sizes), ("static_strides", strides)))
    out = np.array(dest[0], copy=True)
    index = _slice_of(op, out.shape, offsets, sizes, strides)
    out[index] = np.asarray(source[0]).reshape(out[index].shape)
    return [out]


def _region_on_indices(interp: Interpreter, op: ir.Operation, shape: Sequence[int]) -> Array:
    """Evaluate a region whose block arguments are the result's indices, vectorized over ``shape``."""
    block = op.regions[0].blocks[0]
    n = len(shape)
    dims = [np.arange(s).reshape([-1 if k == d else 1 for k in range(n)]) for d, s in enumerate(shape)]
    (value,) = interp.run_block(block, dims)
    return np.broadcast_to(value, shape)


@handles("tensor.pad")
def _pad(interp: Interpreter, op: ir.Operation, args: list) -> list:
    source, low, high = _segments(op, args)
    low, high = _mixed(op, "static_low", low), _mixed(op, "static_high", high)
    src = np.asarray(source[0])
    if min(low + high, default=0) < 0:
        raise NotInterpretable("op tensor.pad with negative padding")
    shape = [n + lo + hi for n, lo, hi in zip(src.shape, low, high)]
    out = np.array(_region_on_indices(interp, op, shape), copy=True)
    out[tuple(slice(lo, lo + n) for lo, n in zip(low, src.shape))] = src
    return [out]


@handles("tensor.generate")
def _generate(interp: Interpreter, op: ir.Operation, args: list) -> list:
    return [np.array(_region_on_indices(interp, op, _result_shape(op, args)), copy=True)]


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


@handles("linalg.softmax")
def _softmax(interp: Interpreter, op: ir.Operation, args: list) -> list:
    x, dim = np.asarray(args[0], np.float64), ir.IntegerAttr(op.attributes["dimension"]).value
    e = np.exp(x - np.max(x, axis=dim, keepdims=True, initial=-np.inf))
    return [e / np.sum(e, axis=dim, keepdims=True)]


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
    q, k, v, scale, *mask = (np.asarray(a, np.float64) for a in args[:len(letters) - 1])
    lq, lk, lv, _, *lm, lo = letters
    head = set(lq) & set(lk) - set(lo)
    ls = "".join(l for l in lq if l not in head) + "".join(l for l in lk if l not in lq)  # the scores' dims
    scores = np.einsum(f"{lq},{lk}->{ls}", q, k) * scale
    if mask:
        scores = scores + np.einsum(f"{lm[0]}->{ls}", mask[0])
    axis = [ls.index(l) for l in ls if l in lk and l in lv and l not in lo][0]
    e = np.exp(scores - np.max(scores, axis=axis, keepdims=True, initial=-np.inf))
    return [np.einsum(f"{ls},{lv}->{lo}", e / np.sum(e, axis=axis, keepdims=True), v)]


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


# --------------------------------------------------------------------------- scf


@handles("scf.for")
def _scf_for(interp: Interpreter, op: ir.Operation, args: list) -> list:
    lower, upper, step, *carried = args
    block = op.regions[0].blocks[0]
    for i in range(int(lower), int(upper), int(step)):
        carried = interp.run_block(block, [np.int64(i), *carried])
    return carried


@handles("scf.if")
def _scf_if(interp: Interpreter, op: ir.Operation, args: list) -> list:
    region = op.regions[0] if int(args[0]) else op.regions[1]
    return interp.run_block(region.blocks[0], []) if region.blocks else []


@handles("scf.while")
def _scf_while(interp: Interpreter, op: ir.Operation, args: list) -> list:
    before, after = op.regions[0].blocks[0], op.regions[1].blocks[0]
    carried = args
    while True:
        condition, *forwarded = interp.run_block(before, carried)
        if not int(condition):
            return forwarded
        carried = interp.run_block(after, forwarded)


@handles("scf.execute_region")
def _execute_region(interp: Interpreter, op: ir.Operation, args: list) -> list:
    return interp.run_block(op.regions[0].blocks[0], [])


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


@handles("iree_linalg_ext.scatter")
def _scatter(interp: Interpreter, op: ir.Operation, args: list) -> list:
    updates, indices, original = (np.asarray(a) for a in args)
    dim_map = _ints(op.attributes["dimension_map"])
    batch_rank = indices.ndim - 1
    out = np.array(original, copy=True)
    block = op.regions[0].blocks[0]
    moved = np.moveaxis(out, dim_map, list(range(len(dim_map))))  # a view: writes land in ``out``
    slice_shape = moved.shape[len(dim_map):]
    count = int(np.prod(updates.shape[:batch_rank]))  # not -1: ambiguous when a slice is empty
    flat_updates = updates.reshape(count, *updates.shape[batch_rank:])
    flat_indices = indices.reshape(count, indices.shape[-1]).astype(np.int64)
    for update, coord in zip(flat_updates, flat_indices):  # in order: duplicate indices combine in sequence
        where = tuple(int(c) for c in coord)
        _indices_in_bounds(op, where, moved.shape[:len(dim_map)])
        target = moved[where]
        window = tuple(slice(0, n) for n in np.shape(update)[-len(slice_shape):]) if slice_shape else ()
        current = target[window] if slice_shape else target
        (combined,) = interp.run_block(block, [update.reshape(np.shape(current)), current])
        if slice_shape:
            target[window] = combined
        else:
            moved[where] = combined
    return [out]


def _comparator_order(interp: Interpreter, op: ir.Operation, keys: Sequence[Array]) -> Array:
    """Per row (the last axis), the positions in the order ``op``'s comparator region puts them: the region
    runs once on every pair (lhs j, rhs i) of each key; pairs it leaves unordered keep their position
    order (a stable sort, what a comparator that is a strict weak order allows)."""
    n = np.shape(keys[0])[-1]
    pairs = [v for k in keys for v in (np.asarray(k)[..., :, None], np.asarray(k)[..., None, :])]
    (before,) = interp.run_block(op.regions[0].blocks[0], pairs)
    before = np.broadcast_to(np.asarray(before, bool), np.shape(keys[0]) + (n,))  # [..., j, i]: j goes before i
    unordered = ~before & ~np.swapaxes(before, -1, -2)
    placed_before = before | unordered & (np.arange(n)[:, None] < np.arange(n)[None, :])
    return np.argsort(np.sum(placed_before, axis=-2), axis=-1, kind="stable")


@handles("iree_linalg_ext.sort")
def _sort(interp: Interpreter, op: ir.Operation, args: list) -> list:
    dim = ir.IntegerAttr(op.attributes["dimension"]).value
    keys = [np.moveaxis(np.asarray(a), dim, -1) for a in args]
    order = _comparator_order(interp, op, keys)
    return [np.moveaxis(np.take_along_axis(k, order, axis=-1), -1, dim) for k in keys]


@handles("iree_linalg_ext.topk")
def _topk(interp: Interpreter, op: ir.Operation, args: list) -> list:
    """The outs (initial values and indices) merged with the input, the first k by the comparator; an input
    the comparator does not put before an equal entry already in the outs does not displace it."""
    dim = ir.IntegerAttr(op.attributes["dimension"]).value
    values, *given, out_values, out_indices = (np.moveaxis(np.asarray(a), dim, -1) for a in args)
    positions = given[0] if given else np.broadcast_to(np.arange(values.shape[-1]), values.shape)
    keys = np.concatenate([out_values, values], axis=-1)
    order = _comparator_order(interp, op, [keys])[..., : out_values.shape[-1]]
    indices = np.concatenate([out_indices, positions], axis=-1)
    return [np.moveaxis(np.take_along_axis(k, order, axis=-1), -1, dim) for k in (keys, indices)]


@handles("linalg.pack")
def _pack(interp: Interpreter, op: ir.Operation, args: list) -> list:
    """Operands: source, dest, then the padding value if any (static tiles only)."""
    padding = float(np.asarray(args[2])) if len(args) > 2 else None
    return [pack_array(np, np.asarray(args[0]), _ints(op.attributes["inner_dims_pos"]), _static_tiles(op), padding)]


@handles("linalg.unpack")
def _unpack(interp: Interpreter, op: ir.Operation, args: list) -> list:
    return [unpack_array(np, np.asarray(args[0]), _ints(op.attributes["inner_dims_pos"]), _static_tiles(op),
                         np.shape(args[1]))]


def _static_tiles(op: ir.Operation) -> list[int]:
    """The inner tiles, refusing what ``pack_array`` does not model (dynamic tiles, permuted outer dims)."""
    perm = _ints(op.attributes["outer_dims_perm"]) if "outer_dims_perm" in op.attributes else []
    if perm != sorted(perm):
        raise NotInterpretable(f"op {op.name} with outer_dims_perm")
    tiles = _ints(op.attributes["static_inner_tiles"])
    if any(t < 0 for t in tiles):
        raise NotInterpretable(f"op {op.name} with dynamic inner tiles")
    return tiles


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


def interpret_traced(module_text: str, function: str, inputs: Sequence[np.ndarray],
                     undefined: float | None = None) -> Interpretation:
    """``interpret``, with the accumulation length and depth the numeric oracle's tolerance needs;
    ``undefined`` fills ``tensor.empty`` instead of NaN / 0 (to see whether its contents reach an output)."""
    interp = Interpreter(parse(module_text), undefined)
    if function not in interp.functions:
        raise ProgramError(f"no function @{function}; the module has {', '.join(sorted(interp.functions)) or 'none'}")
    func = interp.functions[function]
    params = list(func.regions[0].blocks[0].arguments)
    if len(params) != len(inputs):
        raise ProgramError(f"@{function} takes {len(params)} arguments, got {len(inputs)} inputs")
    args = [_argument(p, x, i) for i, (p, x) in enumerate(zip(params, inputs))]
    results = interp.call(function, args)
    result_types = [elem_of(t) for t in _result_types(func)]
    depth = sum(1 for f in interp.functions.values() for op in _walk(f)
                if op.name.split(".")[0] in ("arith", "math") and op.name != "arith.constant")
    return Interpretation([_output(r, e) for r, e in zip(results, result_types)], interp.longest_reduction,
                          max(depth, 1))


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
    return unsigned(value, e).astype(np.uint64 if e.width >= 64 else np.int64) if e.name.startswith("ui") \
        else value.astype(np.int64)


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


TRANSPARENT = {"arith.index_cast", "arith.index_castui", "arith.extsi", "arith.extui", "arith.trunci",
               "tensor.expand_shape", "tensor.collapse_shape", "tensor.extract_slice", "tensor.cast",
               "tensor.extract", "tensor.reshape", "linalg.copy"}


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
    if tensor is None:
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
    if producer.name == "tensor.empty":  # its dynamic sizes, in order
        dynamic_axes = [k for k, d in enumerate(_shape(tensor)) if d == DYNAMIC]
        size = producer.operands[dynamic_axes.index(axis)]
        if isinstance(size, ir.OpResult) and size.owner.name == "tensor.dim":
            source, index = size.owner.operands
            if isinstance(index, ir.OpResult) and index.owner.name == "arith.constant":
                return _dim_source(source, ir.IntegerAttr(index.owner.attributes["value"]).value, params, depth + 1)
        return None
    if producer.name in ("linalg.generic", "iree_linalg_ext.gather", "iree_linalg_ext.scatter"):  # DPS: the outs operand
        outs = list(producer.operands)[len(producer.operands) - len(producer.results):]
        return _dim_source(outs[tensor.result_number], axis, params, depth + 1)
    return None


def _tighter(old: Domain | None, new: Domain) -> Domain:
    """Two uses bound the same argument: keep a static bound (the smaller), else a dynamic one."""
    if old is None:
        return new
    if old.bound is not None and new.bound is not None:
        return old if old.bound <= new.bound else new
    return old if old.bound is not None or (old.bound_of is not None and new.bound is None) else new
