"""``arith`` ops: constants, integer arithmetic wrapped at its width, float arithmetic in float64,
comparisons, select and casts.
"""

from __future__ import annotations

from typing import Any, Callable

import numpy as np
from iree.compiler import ir

from ireefuzz.errors import NotInterpretable

from .core import (
    HANDLERS,
    POISON_RULES,
    Array,
    Elem,
    Handler,
    Interpreter,
    _result_elem,
    _shape,
    elem_of,
    handles,
    merged,
    poison_rule,
    round_to,
    signed,
    spread_elementwise,
    to_elem,
    unsigned,
    wrap,
)

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
    body = str(dense)[len("dense<") : str(dense).rindex(">")].split(">")[0]
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


for _name, _int_fn in {
    "arith.addi": lambda e, x: x[0] + x[1],
    "arith.subi": lambda e, x: x[0] - x[1],
    "arith.muli": lambda e, x: x[0] * x[1],
    "arith.andi": lambda e, x: x[0] & x[1],
    "arith.ori": lambda e, x: x[0] | x[1],
    "arith.xori": lambda e, x: x[0] ^ x[1],
    "arith.divsi": _divsi,
    "arith.remsi": _remsi,
    "arith.floordivsi": _floordivsi,
    "arith.ceildivsi": _ceildivsi,
    "arith.maxsi": lambda e, x: np.maximum(signed(x[0], e), signed(x[1], e)),
    "arith.minsi": lambda e, x: np.minimum(signed(x[0], e), signed(x[1], e)),
}.items():
    HANDLERS[_name] = _int_op(_int_fn)
HANDLERS["arith.divui"] = _unsigned_binary("arith.divui", lambda a, b: a // b, check_zero=True)
HANDLERS["arith.remui"] = _unsigned_binary("arith.remui", lambda a, b: a % b, check_zero=True)
HANDLERS["arith.ceildivui"] = _unsigned_binary("arith.ceildivui", lambda a, b: (a + b - 1) // b, check_zero=True)
HANDLERS["arith.maxui"] = _unsigned_binary("arith.maxui", np.maximum)
HANDLERS["arith.minui"] = _unsigned_binary("arith.minui", np.minimum)
for _name in ("arith.shli", "arith.shrsi", "arith.shrui"):
    HANDLERS[_name] = _shift(_name)


FLOAT_OPS: dict[str, Callable[..., Any]] = {
    "arith.addf": np.add,
    "arith.subf": np.subtract,
    "arith.mulf": np.multiply,
    "arith.divf": np.divide,
    "arith.remf": np.fmod,
    "arith.negf": np.negative,
    "arith.maximumf": np.maximum,
    "arith.minimumf": np.minimum,
    "arith.maxf": np.maximum,
    "arith.minf": np.minimum,
    "arith.maxnumf": np.fmax,
    "arith.minnumf": np.fmin,
}
for _name, _float_fn in FLOAT_OPS.items():
    HANDLERS[_name] = _elementwise(_float_fn, ints=False)


CMPI: dict[int, Callable[[Any, Any], Array]] = {
    0: lambda a, b: a == b,
    1: lambda a, b: a != b,
    2: np.less,
    3: np.less_equal,
    4: np.greater,
    5: np.greater_equal,
}
CMPF = {
    1: "oeq",
    2: "ogt",
    3: "oge",
    4: "olt",
    5: "ole",
    6: "one",
    8: "ueq",
    9: "ugt",
    10: "uge",
    11: "ult",
    12: "ule",
    13: "une",
}
_COMPARE = {
    "eq": np.equal,
    "gt": np.greater,
    "ge": np.greater_equal,
    "lt": np.less,
    "le": np.less_equal,
    "ne": np.not_equal,
}


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


ORDERLESS_PREDICATES = (0, 7, 14, 15)  # false, ord, uno, true: the same answer for NaN in any order


@poison_rule("arith.cmpf", source=True)
def _cmpf_poison(interp: Interpreter, op: ir.Operation, args: list, masks: list, outs: list) -> list:
    """A comparison on NaN that involves a reduction's accumulator is poison: its result then depends on the
    order the reduction runs in (argmax, a max by compare and select), which a compiler is free to choose."""
    shape = np.shape(outs[0])
    poison = merged(masks, shape)
    accumulators = getattr(interp.indices[-1], "accumulators", ()) if interp.indices else ()
    if ir.IntegerAttr(op.attributes["predicate"]).value in ORDERLESS_PREDICATES or not any(
        v in accumulators for v in op.operands
    ):
        return [poison]
    nan = np.isnan(np.asarray(args[0], np.float64)) | np.isnan(np.asarray(args[1], np.float64))
    nan = nan if poison is None else nan & (poison == 0)  # a NaN under poison is only its placeholder
    if not nan.any():
        return [poison]
    why = "compares a NaN with a reduction's accumulator (the result depends on the reduction order)"
    return [merged([poison, np.where(nan, interp.source(op, why), 0).astype(np.uint8)], shape)]


@poison_rule("arith.select")
def _select_poison(interp: Interpreter, op: ir.Operation, args: list, masks: list, outs: list) -> list:
    """Poison where the condition is, else where the chosen operand is (the other one is not read)."""
    condition, if_true, if_false = masks
    chosen = None
    if if_true is not None or if_false is not None:
        none = np.uint8(0)
        when_true = if_true if if_true is not None else none
        chosen = np.where(np.asarray(args[0]) != 0, when_true, if_false if if_false is not None else none)
    return [merged([condition, chosen], np.shape(outs[0]))]


def _cast(fn: Callable[[Array, Elem, Elem], Array]) -> Handler:
    def handler(interp: Interpreter, op: ir.Operation, args: list) -> list:
        with np.errstate(all="ignore"):
            return [fn(np.asarray(args[0]), elem_of(op.operands[0]), _result_elem(op))]

    return handler


def _float_to_int(name: str, is_signed: bool) -> Callable[[Array, Elem, Elem], Array]:
    def convert(x: Array, src: Elem, dst: Elem) -> Array:
        t = np.trunc(x)
        low, high = (
            (-(1 << (dst.width - 1)), (1 << (dst.width - 1)) - 1) if is_signed and dst.width > 1 else (0, dst.mask)
        )
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
for _name, _cast_fn in CASTS.items():
    HANDLERS[_name] = _cast(_cast_fn)

_BITS = {"f16": (np.float16, np.int16), "f32": (np.float32, np.int32), "f64": (np.float64, np.int64)}


def _bitcast(x: Array, src: Elem, dst: Elem) -> Array:
    if src.is_float == dst.is_float:
        return x
    if src.is_float and src.name in _BITS:
        return wrap(x.astype(_BITS[src.name][0]).view(_BITS[src.name][1]), dst)
    if dst.name in _BITS:
        return x.astype(_BITS[dst.name][1]).view(_BITS[dst.name][0]).astype(np.float64)
    raise NotInterpretable(f"op arith.bitcast {src.name} to {dst.name}")


for _name in [name for name in HANDLERS if name.startswith("arith.")]:  # the rest are elementwise
    POISON_RULES.setdefault(_name, spread_elementwise)
