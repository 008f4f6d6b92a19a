"""The op registry: everything about one op in one place.

Each OpSpec carries the op's typing rule (``infer``), its linalg emission (``emit``), a bound on
the magnitude of its result (``bound``, so generated programs stay finite and well-conditioned)
and how the generator proposes it (``propose``). The reference semantics of every op live in
``ireefuzz.oracles.reference`` under the same name (a test keeps the two tables in step).

``kit`` holds the registry and the shared emission kit; each op family has its module and registers
its ops on import. Adding an op = one ``register(OpSpec(...))`` in its family's module plus its
reference row.
"""

from __future__ import annotations

from .contractions import CONTRACTIONS, unpack_int4
from .elementwise import CASTS, ELEMENTWISE, ELEMENTWISE_DTYPES, POW_EXPONENTS, TRANSCENDENTAL_OPS, Elementwise
from .kit import (
    MATMUL_TYPES,
    MAX_SYMBOL_SIZE,
    MODULAR_RANGE,
    OPS,
    Body,
    EmitContext,
    OpSpec,
    destinations,
    float_literal,
    identity_map,
    is_float,
    one_operand_generic,
    projected_map,
    register,
    result_name,
    same_type,
    tensor_type,
)
from .models import CLAMPS, DEQUANT_SCALES, QUANT_SCALES
from .movement import pack_array, shift_array, unpack_array
from .normalization import NORMS
from .producers import PRODUCER_OPS
from .reductions import REDUCTIONS
from .sorting import SELECTION_EMITTERS, SORTED_DTYPES
from .windows import CONV_LAYOUTS, POOL_IDENTITY, POOL_LAYOUTS, POOLINGS, SPATIAL, window_out

__all__ = [
    "CASTS",
    "CLAMPS",
    "CONTRACTIONS",
    "CONV_LAYOUTS",
    "DEQUANT_SCALES",
    "ELEMENTWISE",
    "ELEMENTWISE_DTYPES",
    "FAMILIES",
    "MATMUL_TYPES",
    "MAX_SYMBOL_SIZE",
    "MODULAR_RANGE",
    "NORMS",
    "OPS",
    "OP_NAMES",
    "POOLINGS",
    "POOL_IDENTITY",
    "POOL_LAYOUTS",
    "PRODUCER_OPS",
    "QUANT_SCALES",
    "REDUCTIONS",
    "SELECTION_EMITTERS",
    "SORTED_DTYPES",
    "SPATIAL",
    "POW_EXPONENTS",
    "TRANSCENDENTAL_OPS",
    "Body",
    "EmitContext",
    "Elementwise",
    "OpSpec",
    "destinations",
    "float_literal",
    "identity_map",
    "is_float",
    "one_operand_generic",
    "ops_of",
    "pack_array",
    "shift_array",
    "projected_map",
    "register",
    "result_name",
    "same_type",
    "tensor_type",
    "unpack_array",
    "unpack_int4",
    "window_out",
]

for _name in sorted(OPS):  # the registry in name order, whichever order the family modules registered in
    OPS[_name] = OPS.pop(_name)

OP_NAMES = tuple(sorted(OPS))
FAMILIES = (
    "elementwise",
    "producer",
    "contraction",
    "reduction",
    "data-movement",
    "convolution",
    "normalization",
    "sorting",
    "model",
)  # "model": the patterns real models hit (models.py, docs/model-patterns.md)


def ops_of(family: str) -> tuple[str, ...]:
    return tuple(name for name in OP_NAMES if OPS[name].family == family)


if set(FAMILIES) != {spec.family for spec in OPS.values()}:
    raise ImportError(f"op families {sorted({s.family for s in OPS.values()})} must be exactly FAMILIES {FAMILIES}")
