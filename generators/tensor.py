"""Tensor types: the dtypes and the ``TensorType`` of an argument or a node's result.

The bottom of the model: the op registry (``ops``) types its results with it, and the graph
(``graph``) checks itself with the registry. Dims are ints (static) or symbol names (dynamic).
"""

from __future__ import annotations

import dataclasses
from typing import Any, Mapping

Dim = int | str
DTYPES = ("f32", "f16", "i32", "i8", "i1", "bf16", "i64", "i16")
FLOAT_DTYPES = ("f32", "f16", "bf16")
INT_DTYPES = ("i32", "i8", "i64", "i16")
NARROW_FLOATS = ("f16", "bf16")  # stored values round through their format (the float64 arbiter rounds them too)
# f64 is left out: IREE demotes f64 to f32 by default (--iree-input-demote-f64-to-f32), a documented choice.


@dataclasses.dataclass(frozen=True)
class TensorType:
    shape: tuple[Dim, ...]
    dtype: str
    index_bound: Dim | None = None  # for index arguments: values drawn in [0, index_bound)
    divisor: bool = False  # for divisor arguments: small nonzero integers (an integer division reads it as it is)

    def __post_init__(self) -> None:
        object.__setattr__(self, "shape", tuple(self.shape))

    def __repr__(self) -> str:
        return f"{'x'.join(map(str, self.shape))}x{self.dtype}" if self.shape else self.dtype

    @property
    def symbols(self) -> tuple[str, ...]:
        return tuple(d for d in self.shape if isinstance(d, str))

    def concrete(self, sizes: Mapping[str, int]) -> tuple[int, ...]:
        return tuple(d if isinstance(d, int) else sizes[d] for d in self.shape)

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"shape": list(self.shape), "dtype": self.dtype}
        if self.index_bound is not None:
            out["index_bound"] = self.index_bound
        if self.divisor:
            out["divisor"] = True
        return out

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> "TensorType":
        return cls(tuple(data["shape"]), data["dtype"], data.get("index_bound"), bool(data.get("divisor", False)))
