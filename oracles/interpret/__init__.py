"""A float64 reference interpreter for linalg / tensor / arith / math / scf MLIR.

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
  undefined behaviour (division by zero, out-of-range indices, poison shifts and casts), and an output that
  depends on undefined values: poison, carried per element from a ``tensor.empty`` nothing wrote or a comparison
  on NaN whose order decides the result (``core``'s poison rules; ``is_undefined`` tells such a reason).

Layer L1: imports only NumPy, the MLIR bindings, ``ireefuzz.errors`` and the data-tiling layouts of
``ireefuzz.generators.ops`` (``pack_array`` / ``unpack_array``: one definition of linalg.pack for both
float64 references).

The package: ``core`` (values, parsing, the function walker dispatching on the op name, the entry points),
one module of handlers per dialect (``arith``, ``math``, ``linalg`` with ``iree_linalg_ext``, ``tensor``,
``scf``), each registering its handlers on import, and ``domains`` (the input domains).
"""

from __future__ import annotations

from . import arith, linalg, math, scf, tensor  # noqa: F401  (importing them registers their handlers)
from .arith import CASTS, CMPF, CMPI
from .core import (
    DYNAMIC,
    HANDLERS,
    POISON_RULES,
    TERMINATORS,
    Array,
    Elem,
    Handler,
    Interpretation,
    Interpreter,
    compile_block,
    elem_of,
    handles,
    interpret,
    interpret_traced,
    is_undefined,
    parse,
    poison_rule,
    round_to,
    signed,
    to_elem,
    unsigned,
    wrap,
)
from .domains import TRANSPARENT, Domain, infer_input_domains
from .linalg import ASSOCIATIVE, FUSED_STEPS

FLOAT_OPS = {**arith.FLOAT_OPS, **math.FLOAT_OPS}  # the float elementwise ops, by name, as NumPy functions

__all__ = [
    "ASSOCIATIVE",
    "CASTS",
    "CMPF",
    "CMPI",
    "DYNAMIC",
    "FLOAT_OPS",
    "FUSED_STEPS",
    "HANDLERS",
    "POISON_RULES",
    "TERMINATORS",
    "TRANSPARENT",
    "Array",
    "Domain",
    "Elem",
    "Handler",
    "Interpretation",
    "Interpreter",
    "compile_block",
    "elem_of",
    "handles",
    "infer_input_domains",
    "interpret",
    "interpret_traced",
    "is_undefined",
    "parse",
    "poison_rule",
    "round_to",
    "signed",
    "to_elem",
    "unsigned",
    "wrap",
]
