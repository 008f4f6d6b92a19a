"""``math`` ops: the float functions (in float64) and the integer ones."""

from __future__ import annotations

import math
from typing import Any, Callable

import numpy as np
from iree.compiler import ir

from .arith import _elementwise, _int_op
from .core import HANDLERS, POISON_RULES, Array, Interpreter, handles, signed, spread_elementwise, unsigned


def _round_half_away(x: Array) -> Array:
    return np.sign(x) * np.floor(np.abs(x) + 0.5)


_erf = np.vectorize(math.erf, otypes=[np.float64])  # rare enough for a per-element loop; no SciPy needed


FLOAT_OPS: dict[str, Callable[..., Any]] = {
    "math.absf": np.abs,
    "math.exp": np.exp,
    "math.exp2": np.exp2,
    "math.expm1": np.expm1,
    "math.log": np.log,
    "math.log2": np.log2,
    "math.log10": np.log10,
    "math.log1p": np.log1p,
    "math.sqrt": np.sqrt,
    "math.rsqrt": lambda x: 1.0 / np.sqrt(x),
    "math.cbrt": np.cbrt,
    "math.tanh": np.tanh,
    "math.sinh": np.sinh,
    "math.cosh": np.cosh,
    "math.sin": np.sin,
    "math.cos": np.cos,
    "math.tan": np.tan,
    "math.asin": np.arcsin,
    "math.acos": np.arccos,
    "math.atan": np.arctan,
    "math.atan2": np.arctan2,
    "math.asinh": np.arcsinh,
    "math.acosh": np.arccosh,
    "math.atanh": np.arctanh,
    "math.erf": _erf,
    "math.powf": np.power,
    "math.floor": np.floor,
    "math.ceil": np.ceil,
    "math.round": _round_half_away,
    "math.roundeven": np.rint,
    "math.trunc": np.trunc,
    "math.copysign": np.copysign,
    "math.fma": lambda a, b, c: a * b + c,
}
for _name, _fn in FLOAT_OPS.items():
    HANDLERS[_name] = _elementwise(_fn, ints=False)
for _name, _fn in {
    "math.absi": lambda e, x: np.abs(signed(x[0], e)),
    "math.ctpop": lambda e, x: np.vectorize(lambda v: bin(int(v)).count("1"), otypes=[np.int64])(unsigned(x[0], e)),
}.items():
    HANDLERS[_name] = _int_op(_fn)


@handles("math.fpowi")
def _fpowi(interp: Interpreter, op: ir.Operation, args: list) -> list:
    with np.errstate(all="ignore"):
        return [np.power(np.asarray(args[0], np.float64), np.asarray(args[1], np.float64))]


@handles("math.isnan", "math.isinf", "math.isfinite")
def _float_class(interp: Interpreter, op: ir.Operation, args: list) -> list:
    test = {"math.isnan": np.isnan, "math.isinf": np.isinf, "math.isfinite": np.isfinite}[op.name]
    return [test(args[0]).astype(np.int64)]


for _name in [name for name in HANDLERS if name.startswith("math.")]:
    POISON_RULES[_name] = spread_elementwise
