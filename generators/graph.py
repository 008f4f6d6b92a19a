"""The graph model: pure data, JSON round-trippable, with a written-down well-formedness check.

A Graph is a list of function arguments and a list of nodes in SSA order. Values are named
``a<i>`` (argument i) and ``n<i>`` (node i). Every dimension is either static (an int) or a
symbol (a str such as ``"M"``), shared wherever the math requires it (a matmul's K).
Sizes for the symbols are chosen per shape instance, not stored in the graph.
The tensor types (``generators.tensor``) sit below the op registry, which sits below the graph:
``Graph.check`` types each node with its op's rule.
"""

from __future__ import annotations

import dataclasses
import json
from typing import Any, Callable, Iterable, Mapping, Sequence

from ireefuzz.errors import GraphError

from .ops import OPS, destinations
from .tensor import DTYPES, FLOAT_DTYPES, INT_DTYPES, Dim, TensorType

__all__ = [
    "Graph",
    "Node",
    "TensorType",
    "Dim",
    "DTYPES",
    "FLOAT_DTYPES",
    "INT_DTYPES",
    "GraphError",
    "dims_pattern",
    "concrete_shapes",
]


def dims_pattern(shapes: Iterable[Iterable[int | None | str]]) -> str:
    """``[(None, 16), (16, None)]`` -> ``?xS,Sx?`` (``None`` or a name = dynamic): the dims part of a signature."""
    parts = []
    for shape in shapes:
        shape = list(shape)
        parts.append("x".join("S" if isinstance(d, int) else "?" for d in shape) or "scalar")
    return ",".join(parts) or "none"


@dataclasses.dataclass(frozen=True)
class Node:
    op: str
    inputs: tuple[str, ...]
    attrs: Mapping[str, Any]
    type: TensorType

    def __post_init__(self) -> None:
        object.__setattr__(self, "inputs", tuple(self.inputs))

    def to_json(self) -> dict[str, Any]:
        return {"op": self.op, "inputs": list(self.inputs), "attrs": _jsonable(self.attrs), "type": self.type.to_json()}

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> "Node":
        return cls(data["op"], tuple(data["inputs"]), dict(data.get("attrs", {})), TensorType.from_json(data["type"]))


@dataclasses.dataclass(frozen=True)
class Graph:
    args: tuple[TensorType, ...]
    nodes: tuple[Node, ...]
    outputs: tuple[str, ...]

    def __post_init__(self) -> None:
        for name in ("args", "nodes", "outputs"):
            object.__setattr__(self, name, tuple(getattr(self, name)))

    def __repr__(self) -> str:
        body = "; ".join(f"n{i}={n.op}({','.join(n.inputs)}{_outs(n)}):{n.type!r}" for i, n in enumerate(self.nodes))
        return f"Graph(args={list(self.args)}; {body}; -> {','.join(self.outputs)})"

    # -- queries ---------------------------------------------------------------------------
    def type_of(self, ref: str) -> TensorType:
        kind, index = ref[0], int(ref[1:])
        return self.args[index] if kind == "a" else self.nodes[index].type

    @property
    def symbols(self) -> tuple[str, ...]:
        seen: dict[str, None] = {}
        for t in self.args:
            for s in t.symbols:
                seen[s] = None
        return tuple(seen)

    @property
    def op_pattern(self) -> str:
        """Ops in SSA order, e.g. ``fill>matmul>exp`` (stable, size-free; used in signatures)."""
        return ">".join(n.op for n in self.nodes)

    @property
    def edges(self) -> tuple[str, ...]:
        """Producer -> consumer op pairs, distinct, in SSA order (``matmul>causal_mask``): one per node value a node
        reads, as an operand or as its destination (``outs=value:n<i>``)."""
        seen: dict[str, None] = {}
        for node in self.nodes:
            outs = tuple(ref for ref, role in destinations(node.op, node.inputs, node.attrs) if role == "outs")
            for ref in node.inputs + outs:
                if ref.startswith("n"):
                    seen[f"{self.nodes[int(ref[1:])].op}>{node.op}"] = None
        return tuple(seen)

    @property
    def dtype(self) -> str:
        return self.type_of(self.outputs[0]).dtype if self.outputs else "-"

    @property
    def dims(self) -> str:
        return dims_pattern(self.type_of(o).shape for o in self.outputs)

    def users(self, ref: str) -> list[int]:
        return [i for i, n in enumerate(self.nodes) if ref in n.inputs]

    # -- transforms ------------------------------------------------------------------------
    def map_dims(self, fn: Callable[[Dim], Dim]) -> "Graph":
        """Every dim (of arguments, node types, index bounds and shape/size attributes) through ``fn``.
        Unchecked: call ``check()`` on the result."""

        def ttype(t: TensorType) -> TensorType:
            bound = t.index_bound
            shape = tuple(fn(d) for d in t.shape)
            return dataclasses.replace(t, shape=shape, index_bound=fn(bound) if bound is not None else None)

        nodes = []
        for n in self.nodes:
            attrs = dict(n.attrs)
            for key in ("shape", "sizes"):
                if key in attrs:
                    attrs[key] = [fn(d) for d in attrs[key]]
            nodes.append(Node(n.op, n.inputs, attrs, ttype(n.type)))
        return Graph(tuple(ttype(t) for t in self.args), tuple(nodes), self.outputs)

    # -- serialization ---------------------------------------------------------------------
    def to_json(self) -> dict[str, Any]:
        return {
            "args": [t.to_json() for t in self.args],
            "nodes": [n.to_json() for n in self.nodes],
            "outputs": list(self.outputs),
        }

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> "Graph":
        try:
            graph = cls(
                tuple(TensorType.from_json(t) for t in data["args"]),
                tuple(Node.from_json(n) for n in data["nodes"]),
                tuple(data["outputs"]),
            )
        except (KeyError, TypeError) as e:
            raise GraphError(
                f"graph JSON is missing or mistypes a field ({e!r}); expected keys args, nodes, outputs"
            ) from e
        graph.check()
        return graph

    def dumps(self) -> str:
        return json.dumps(self.to_json(), sort_keys=True)

    # -- well-formedness -------------------------------------------------------------------
    def check(self) -> "Graph":
        """Raise GraphError unless every reference, type and symbol is consistent."""
        arg_symbols = set(self.symbols)
        for i, t in enumerate(self.args):
            if t.dtype not in DTYPES:
                raise GraphError(f"a{i}: unknown dtype {t.dtype!r}")
            _check_dims(f"a{i}", t.shape)
            if t.index_bound is not None and t.dtype != "i32":
                raise GraphError(f"a{i}: index arguments must be i32")
        for i, node in enumerate(self.nodes):
            where = f"n{i} ({node.op})"
            spec = OPS.get(node.op)
            if spec is None:
                raise GraphError(f"{where}: unknown op; known ops: {', '.join(sorted(OPS))}")
            for ref in node.inputs:
                if not _is_ref(ref) or not _defined_before(ref, i, len(self.args)):
                    raise GraphError(f"{where}: input {ref!r} is not an argument or an earlier node")
            _check_dims(where, node.type.shape)
            missing = set(node.type.symbols) - arg_symbols
            if missing:
                raise GraphError(f"{where}: symbols {sorted(missing)} appear in no argument (their size is unknowable)")
            in_types = [self.type_of(r) for r in node.inputs]
            try:
                expected = spec.infer(in_types, node.attrs)
            except (KeyError, IndexError, TypeError, ValueError) as e:
                raise GraphError(f"{where}: ill-typed: {e}") from e
            if expected != node.type:
                raise GraphError(f"{where}: result type {node.type!r} but the op gives {expected!r}")
            _check_init(self, i, node)
        if not self.outputs:
            raise GraphError("graph has no outputs")
        for ref in self.outputs:
            if not _is_ref(ref) or not _defined_before(ref, len(self.nodes), len(self.args)) or ref[0] != "n":
                raise GraphError(f"output {ref!r} is not a node")
        return self


def _outs(node: Node) -> str:
    init = node.attrs.get("init", "empty")
    return "" if init == "empty" else f" outs={init}"


def _check_init(graph: Graph, index: int, node: Node) -> None:
    """The destination-passing-style form: where this node's ``outs`` comes from."""
    init = node.attrs.get("init", "empty")
    where = f"n{index} ({node.op})"
    if init == "empty":
        return
    kind, _, ref = init.partition(":")
    if kind not in ("value", "init-of") or not _is_ref(ref) or not _defined_before(ref, index, len(graph.args)):
        raise GraphError(f"{where}: bad init {init!r}; expected 'empty', 'value:<ref>' or 'init-of:n<i>'")
    if kind == "value" and graph.type_of(ref) != dataclasses.replace(
        node.type, index_bound=graph.type_of(ref).index_bound, divisor=graph.type_of(ref).divisor
    ):
        raise GraphError(f"{where}: init {ref} has type {graph.type_of(ref)!r}, not {node.type!r}")
    if kind == "init-of":
        other = graph.nodes[int(ref[1:])] if ref[0] == "n" else None
        if (
            other is None
            or not OPS[other.op].has_init
            or other.attrs.get("init", "empty") != "empty"
            or other.type != node.type
        ):
            raise GraphError(
                f"{where}: init-of {ref} needs an earlier node of type {node.type!r} with a fresh tensor.empty"
            )


def _check_dims(where: str, shape: Sequence[Dim]) -> None:
    for d in shape:
        if isinstance(d, bool) or not (isinstance(d, str) and d.isidentifier() or isinstance(d, int) and d >= 0):
            raise GraphError(f"{where}: bad dim {d!r}; a dim is a non-negative int or a symbol name")


def _is_ref(ref: Any) -> bool:
    return isinstance(ref, str) and len(ref) > 1 and ref[0] in "an" and ref[1:].isdigit()


def _defined_before(ref: str, node_index: int, n_args: int) -> bool:
    index = int(ref[1:])
    return index < n_args if ref[0] == "a" else index < node_index


def _jsonable(attrs: Mapping[str, Any]) -> dict[str, Any]:
    return {k: list(v) if isinstance(v, tuple) else v for k, v in attrs.items()}


def concrete_shapes(types: Iterable[TensorType], sizes: Mapping[str, int]) -> list[tuple[int, ...]]:
    return [t.concrete(sizes) for t in types]
