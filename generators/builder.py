"""GraphBuilder: write one specific graph by hand, with every result type inferred by the op registry.

    b = GraphBuilder()
    x = b.arg(("M", 16), "f32")
    w = b.arg((16, "N"), "f32")
    acc = b.fill(("M", "N"), 0.0)
    y = b.matmul(x, w, acc)
    b.output(b.exp(y))
    graph = b.build()

Every op of ``ireefuzz.generators.ops.OPS`` is a method: ``b.<op>(*operands, **attrs)``, with the
op's attributes as keywords (``b.transpose(x, permutation=[1, 0])``, ``b.reduce_sum(x, dim=1)``,
``b.cast(x, to="f16")``). The destination-passing-style form of ``outs`` is a keyword too:
``init=v`` (write into value ``v``, e.g. a function argument), ``init_of=n`` (share the fresh
``tensor.empty`` of an earlier node ``n``); the default is a fresh ``tensor.empty``. ``generic=True``
emits a named op as its ``linalg.generic``. An ill-typed call raises ``GraphError`` at once, naming
the op and the operand types.
"""

from __future__ import annotations

import dataclasses
from typing import Any, Sequence

from .graph import Dim, Graph, GraphError, Node, TensorType
from .ops import OPS

__all__ = ["GraphBuilder", "Value"]


@dataclasses.dataclass(frozen=True)
class Value:
    """A value of the graph under construction: an argument (``a<i>``) or a node result (``n<i>``)."""

    ref: str
    type: TensorType
    builder_id: int = dataclasses.field(repr=False, compare=False, default=0)

    def __repr__(self) -> str:
        return f"{self.ref}:{self.type!r}"


class GraphBuilder:
    """Builds a well-formed :class:`Graph` one argument / op at a time (see the module docstring)."""

    def __init__(self) -> None:
        self._args: list[TensorType] = []
        self._nodes: list[Node] = []
        self._outputs: list[str] = []

    def __repr__(self) -> str:
        return f"GraphBuilder({len(self._args)} args, {len(self._nodes)} nodes)"

    # -- arguments -------------------------------------------------------------------------
    def arg(
        self, shape: Sequence[Dim], dtype: str = "f32", *, index_bound: Dim | None = None, divisor: bool = False
    ) -> Value:
        """A function argument; a str dim is a symbol (dynamic, ``?`` in MLIR). ``index_bound``
        makes an i32 index argument whose values are drawn in ``[0, index_bound)`` (for gather); ``divisor`` an
        integer argument of small nonzero values (for ``int_div`` / ``int_rem``)."""
        t = TensorType(tuple(shape), dtype, index_bound, divisor)
        self._args.append(t)
        return Value(f"a{len(self._args) - 1}", t, id(self))

    # -- producers -------------------------------------------------------------------------
    def fill(self, shape: Sequence[Dim], value: float, dtype: str = "f32", **kw: Any) -> Value:
        """A tensor of ``shape`` filled with ``value`` (``linalg.fill``)."""
        return self.op(
            "fill", shape=list(shape), dtype=dtype, value=int(value) if dtype in ("i32", "i8") else value, **kw
        )

    def iota(self, shape: Sequence[Dim], dim: int, dtype: str = "i32", **kw: Any) -> Value:
        """``linalg.index dim`` at every element of ``shape``, converted to ``dtype``."""
        return self.op("iota", shape=list(shape), dim=dim, dtype=dtype, **kw)

    # -- any op ----------------------------------------------------------------------------
    def op(
        self, name: str, *operands: Value, init: Value | str | None = None, init_of: Value | None = None, **attrs: Any
    ) -> Value:
        """Add node ``name`` on ``operands``; its type comes from ``OPS[name].infer``."""
        spec = OPS.get(name)
        if spec is None:
            raise GraphError(f"unknown op {name!r}; known ops: {', '.join(sorted(OPS))}")
        for v in operands:
            self._own(v, name)
        if init is not None and init_of is not None:
            raise GraphError(f"{name}: give init= or init_of=, not both")
        if init is not None:
            attrs["init"] = init if isinstance(init, str) else f"value:{self._own(init, name).ref}"
        elif init_of is not None:
            attrs["init"] = f"init-of:{self._own(init_of, name).ref}"
        if "init" in attrs and not spec.has_init:
            raise GraphError(f"{name} has no destination of its own (for matmul the accumulator operand is it)")
        types = [v.type for v in operands]
        try:
            t = spec.infer(types, attrs)
        except (KeyError, IndexError, TypeError, ValueError) as e:
            raise GraphError(f"{name}({', '.join(map(repr, types))}, {attrs}) is ill-typed: {e}") from e
        self._nodes.append(Node(name, tuple(v.ref for v in operands), dict(attrs), t))
        return Value(f"n{len(self._nodes) - 1}", t, id(self))

    def __getattr__(self, name: str) -> Any:
        if name in OPS:
            return lambda *operands, **attrs: self.op(name, *operands, **attrs)
        raise AttributeError(f"GraphBuilder has no method {name!r}; ops are: {', '.join(sorted(OPS))}")

    def __dir__(self) -> list[str]:
        return sorted(set(super().__dir__()) | set(OPS))

    # -- finishing -------------------------------------------------------------------------
    def output(self, *values: Value) -> None:
        """Return ``values`` from the function (in this order, after any earlier outputs)."""
        for v in values:
            self._outputs.append(self._own(v, "output").ref)

    def build(self) -> Graph:
        """The graph, checked for well-formedness; without ``output`` calls the last node is returned."""
        if not self._nodes:
            raise GraphError("the graph has no ops; add at least one before build()")
        outputs = tuple(self._outputs) or (f"n{len(self._nodes) - 1}",)
        return Graph(tuple(self._args), tuple(self._nodes), outputs).check()

    def _own(self, v: Any, where: str) -> Value:
        if not isinstance(v, Value) or v.builder_id != id(self):
            raise GraphError(f"{where}: {v!r} is not a value of this GraphBuilder")
        return v
