"""A Case: one graph, the shape instances to run it at, the input seed, the compiler configuration."""

from __future__ import annotations

import dataclasses
import json
from typing import Any, Mapping

import numpy as np

from .graph import FLOAT_DTYPES, Graph, GraphError

FLOAT_STEP = 8  # float inputs are multiples of 1/8: exact in f16 and f32, so results round little
MAX_MAGNITUDE = 16  # float inputs lie in [-16/8, 16/8] = [-2, 2]; ints in [-8, 8]


@dataclasses.dataclass(frozen=True)
class Case:
    graph: Graph
    instances: tuple[Mapping[str, int], ...]  # one {symbol: size} per shape instance ({} when all static)
    seed: int = 0
    target_cpu: str = "host"
    flags: tuple[str, ...] = ()
    magnitude: int = MAX_MAGNITUDE  # inputs lie in [-magnitude/8, magnitude/8]; shrinks towards all-zero inputs

    def __post_init__(self) -> None:
        object.__setattr__(self, "instances", tuple(dict(i) for i in self.instances) or ({},))
        object.__setattr__(self, "flags", tuple(self.flags))

    def __repr__(self) -> str:
        return (
            f"Case({self.graph!r} at {list(self.instances)}, seed={self.seed}, "
            f"cpu={self.target_cpu}, flags={list(self.flags)})"
        )

    def check(self) -> "Case":
        self.graph.check()
        needed = set(self.graph.symbols)
        for sizes in self.instances:
            if set(sizes) != needed:
                raise GraphError(f"shape instance {dict(sizes)} must give exactly the symbols {sorted(needed)}")
            for bound in index_bounds(self.graph):
                if isinstance(bound, str) and sizes[bound] < 1:
                    raise GraphError(f"symbol {bound} bounds gather indices and must be >= 1")
        return self

    def inputs(self, instance: int = 0) -> list[np.ndarray]:
        return make_inputs(self.graph, self.instances[instance], self.seed + instance, self.magnitude)

    @property
    def elements(self) -> int:
        """Total elements over all arguments and shape instances (a size measure for shrinking)."""
        return sum(int(np.prod(t.concrete(s), dtype=np.int64)) for s in self.instances for t in self.graph.args)

    def to_json(self) -> dict[str, Any]:
        return {
            "graph": self.graph.to_json(),
            "instances": [dict(i) for i in self.instances],
            "seed": self.seed,
            "target_cpu": self.target_cpu,
            "flags": list(self.flags),
            "magnitude": self.magnitude,
        }

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> "Case":
        try:
            case = cls(
                Graph.from_json(data["graph"]),
                tuple(data["instances"]),
                int(data.get("seed", 0)),
                data.get("target_cpu", "host"),
                tuple(data.get("flags", ())),
                int(data.get("magnitude", MAX_MAGNITUDE)),
            )
        except (KeyError, TypeError, ValueError) as e:
            if isinstance(e, GraphError):
                raise
            raise GraphError(f"case JSON is malformed ({e!r}); expected keys graph, instances, seed") from e
        return case.check()

    def dumps(self) -> str:
        return json.dumps(self.to_json(), sort_keys=True)


def index_bounds(graph: Graph) -> list[Any]:
    return [t.index_bound for t in graph.args if t.index_bound is not None]


def make_inputs(graph: Graph, sizes: Mapping[str, int], seed: int, magnitude: int = MAX_MAGNITUDE) -> list[np.ndarray]:
    """Deterministic inputs for one shape instance: small exact floats, small ints (nonzero for a divisor), in-bounds
    indices. A rank-0 i1 is a branch's predicate (``cond``): the parity of ``seed``, drawn from no stream, so
    consecutive instances take both branches and a shrink that drops other arguments keeps each instance's branch
    (stop 46: a cond bundle could not drop its unrelated ops, every smaller program flipping the predicate to the
    branch that is right)."""
    rng = np.random.default_rng(seed)
    magnitude = max(0, min(magnitude, MAX_MAGNITUDE))
    int_bound = min(8, magnitude)
    out = []
    for t in graph.args:
        shape = t.concrete(sizes)
        if t.index_bound is not None:
            bound = t.index_bound if isinstance(t.index_bound, int) else sizes[t.index_bound]
            out.append(rng.integers(0, max(bound, 1), shape).astype(np.int32))
        elif t.dtype in FLOAT_DTYPES:
            out.append((rng.integers(-magnitude, magnitude + 1, shape) / FLOAT_STEP).astype(_numpy_float(t.dtype)))
        elif t.dtype == "i1" and not shape:
            out.append(np.asarray(bool(seed % 2)))
        elif t.dtype == "i1":
            out.append(rng.integers(0, 2, shape).astype(np.bool_))
        elif t.divisor:  # nonzero, either sign
            magnitudes = rng.integers(1, max(int_bound, 1) + 1, shape)
            out.append((magnitudes * rng.choice(np.array([-1, 1]), shape)).astype(f"int{t.dtype[1:]}"))
        else:
            out.append(rng.integers(-int_bound, int_bound + 1, shape).astype(f"int{t.dtype[1:]}"))
    return [np.asarray(x) for x in out]


def _numpy_float(dtype: str) -> Any:  # a NumPy dtype, or ml_dtypes' bfloat16 type
    if dtype == "bf16":
        import ml_dtypes

        return ml_dtypes.bfloat16
    return np.dtype(dtype.replace("f", "float"))
