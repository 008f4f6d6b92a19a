"""The op registry and the shared emission kit: OpSpec, register, the MLIR text helpers (types, maps,
literals, Body, EmitContext) and the pieces several op families share.

Each OpSpec carries the op's typing rule (``infer``), its linalg emission (``emit``), a bound on
the magnitude of its result (``bound``, so generated programs stay finite and well-conditioned)
and how the generator proposes it (``propose``). The reference semantics of every op live in
``ireefuzz.oracles.reference`` under the same name (a test keeps the two tables in step).
Adding an op = one ``register(OpSpec(...))`` in its family's module plus its reference row.
"""

from __future__ import annotations

import dataclasses
from typing import Any, Callable, Mapping, Sequence

from ..tensor import FLOAT_DTYPES, Dim, TensorType

MAX_SYMBOL_SIZE = 130  # symbolic dims are instantiated at most this large (bounds rely on it)
MODULAR_RANGE = {"i32": 2.0**31}  # the magnitude bound of a value whose bits may all be set (modular ops)


def size_bound(d: Dim) -> int:
    """The largest size ``d`` takes: its value, or MAX_SYMBOL_SIZE for a symbolic dim."""
    return d if isinstance(d, int) else MAX_SYMBOL_SIZE


@dataclasses.dataclass(frozen=True)
class OpSpec:
    name: str
    infer: Callable[[Sequence[TensorType], Mapping[str, Any]], TensorType]
    emit: Callable[["EmitContext", "Any", Sequence[str]], str]  # returns the result SSA name
    bound: Callable[[Sequence[float], Mapping[str, Any], Sequence[TensorType]], float]
    propose: Callable[[Callable, "Any"], tuple[tuple[str, ...], dict] | None]
    has_init: bool = True  # takes a destination (outs) chosen by the DPS form
    has_generic_form: bool = False  # a named op that may be emitted as its linalg.generic
    acc_input: int | None = None  # the operand that is its accumulator (a destination it writes into)
    view: bool = False  # its result aliases its first operand (a slice or reshape): writing one writes the other
    family: str = "elementwise"  # the generator draws a family first, then an op of it (see FAMILIES)
    modular: bool = False  # an integer result taken modulo 2^bits (bit ops, shifts, wrapping adds): it may span
    # its dtype's whole range (``MODULAR_RANGE``), which the magnitude limits for arithmetic would refuse
    region: bool = False  # an scf region op (a branch, a loop) whose region yields ``attrs["yields"]`` tensors (1 or 2)


def destinations(op: str, inputs: Sequence[str], attrs: Mapping[str, Any]) -> list[tuple[str, str]]:
    """What a node writes into, with the role: ``(ref, "outs")`` for its DPS init, ``(ref, "acc")`` for
    its accumulator operand. Unknown ops (an old record) are judged by name, as matmuls were."""
    init = str(attrs.get("init", "empty"))
    found = [(init.partition(":")[2], "outs")] if init.startswith("value:") else []
    spec = OPS.get(op)
    acc = spec.acc_input if spec is not None else (2 if op.endswith("matmul") else None)
    if acc is not None and acc < len(inputs):
        found.append((inputs[acc], "acc"))
    return found


OPS: dict[str, OpSpec] = {}


def register(spec: OpSpec) -> OpSpec:
    """Add ``spec`` to the registry. A value an op computes is never a divisor (``TensorType.divisor``: only an
    argument is drawn nonzero), whatever type its rule passes through: a cumsum of a divisor may hold 0."""
    if spec.name in OPS:
        raise ValueError(f"op {spec.name!r} registered twice")
    infer = spec.infer

    def computed(types: Sequence[TensorType], attrs: Mapping[str, Any]) -> TensorType:
        t = infer(types, attrs)
        return dataclasses.replace(t, divisor=False) if t.divisor else t

    OPS[spec.name] = registered = dataclasses.replace(spec, infer=computed)
    return registered


# ---------------------------------------------------------------------------------------------
# MLIR text helpers (shared by every op)


def tensor_type(t: TensorType) -> str:
    dims = "".join(f"{d if isinstance(d, int) else '?'}x" for d in t.shape)
    return f"tensor<{dims}{t.dtype}>"


def identity_map(rank: int) -> str:
    ds = ", ".join(f"d{i}" for i in range(rank))
    return f"affine_map<({ds}) -> ({ds})>"


def projected_map(rank: int, dims: Sequence[int]) -> str:
    ds = ", ".join(f"d{i}" for i in range(rank))
    return f"affine_map<({ds}) -> ({', '.join(f'd{i}' for i in dims)})>"


def float_literal(value: float, dtype: str) -> str:
    if dtype in FLOAT_DTYPES:
        if value in (float("-inf"), float("inf")):
            bits = {"f16": ("0xFC00", "0x7C00"), "bf16": ("0xFF80", "0x7F80")}.get(dtype, ("0xFF800000", "0x7F800000"))
            return bits[value > 0]
        return f"{float(value):.6e}"
    if dtype == "i1":
        return "true" if value else "false"
    return str(int(value))


class Body:
    """Builds a linalg.generic region body; names are local and never leak into signatures."""

    def __init__(self, ctx: "EmitContext") -> None:
        self.ctx = ctx
        self.lines: list[str] = []

    def op(self, text: str) -> str:
        name = self.ctx.fresh("v")
        self.lines.append(f"{name} = {text}")
        return name

    def const(self, value: float, dtype: str) -> str:
        return self.op(f"arith.constant {float_literal(value, dtype)} : {dtype}")


class EmitContext:
    """Per-function emission state: fresh names, symbol dims, inits; filled in by emit.py."""

    def __init__(self, graph: Any, syntax: Any) -> None:
        self.graph = graph
        self.syntax = syntax
        self.lines: list[str] = []
        self._counter = 0
        self.dim_values: dict[str, str] = {}
        self.inits: dict[int, str] = {}  # node index -> its fresh tensor.empty

    def fresh(self, prefix: str) -> str:
        self._counter += 1
        return f"%{prefix}{self._counter}"

    def line(self, text: str) -> None:
        self.lines.append(text)

    def empty(self, t: TensorType) -> str:
        name = self.fresh("e")
        dyn = ", ".join(self.dim_values[d] for d in t.shape if isinstance(d, str))
        self.line(f"{name} = tensor.empty({dyn}) : {tensor_type(t)}")
        return name

    def init_for(self, index: int, node: Any, operands: Sequence[str]) -> str:
        """The destination of node ``index`` according to its DPS form."""
        init = node.attrs.get("init", "empty")
        if init == "empty":
            self.inits[index] = self.empty(node.type)
            return self.inits[index]
        kind, _, ref = init.partition(":")
        if kind == "value":
            return self.value(ref)
        return self.inits[int(ref[1:])]  # init-of: the same tensor.empty as an earlier node

    def value(self, ref: str) -> str:
        return f"%arg{ref[1:]}" if ref[0] == "a" else f"%n{ref[1:]}"

    def generic(
        self,
        result: str,
        ins: Sequence[tuple[str, TensorType]],
        out: tuple[str, TensorType],
        maps: Sequence[str],
        iterators: Sequence[str],
        body: Callable[[Body, list[str]], str],
    ) -> str:
        """Emit a linalg.generic; ``body`` gets the block args (ins then out) and returns the yielded value."""
        b = Body(self)
        block_args = [self.fresh("b") for _ in range(len(ins) + 1)]
        yielded = body(b, block_args)
        elem_types = [t.dtype for _, t in ins] + [out[1].dtype]
        ins_text = f"ins({', '.join(v for v, _ in ins)} : {', '.join(tensor_type(t) for _, t in ins)}) " if ins else ""
        its = ", ".join(f'"{i}"' for i in iterators)
        self.line(
            f"{result} = linalg.generic {{indexing_maps = [{', '.join(maps)}], iterator_types = [{its}]}} "
            f"{ins_text}outs({out[0]} : {tensor_type(out[1])}) {{"
        )
        self.line(f"^bb0({', '.join(f'{a}: {t}' for a, t in zip(block_args, elem_types))}):")
        self.lines.extend(f"  {line}" for line in b.lines)
        self.line(f"  linalg.yield {yielded} : {out[1].dtype}")
        self.line(f"}} -> {tensor_type(out[1])}")
        return result


# ---------------------------------------------------------------------------------------------
# Typing helpers


def same_type(types: Sequence[TensorType]) -> TensorType:
    first = types[0]
    for t in types[1:]:
        if (t.shape, t.dtype) != (first.shape, first.dtype):
            raise ValueError(f"operands differ: {first!r} vs {t!r}")
    return TensorType(first.shape, first.dtype)


def is_float(t: TensorType) -> bool:
    return t.dtype in FLOAT_DTYPES


def result_name(ctx: EmitContext, node: Any) -> str:
    return ctx.value(f"n{node.index}")


def one_operand_generic(
    body: Callable[[Body, Any, str, str], str],
) -> Callable[[EmitContext, Any, Sequence[str]], str]:
    """The emitter of an elementwise op of one operand: a ``linalg.generic`` whose value ``body(b, node, x, dtype)``
    computes from the operand's element ``x`` of ``dtype`` (a cast or dequantize reads another than it yields)."""

    def emit(ctx: EmitContext, node: Any, operands: Sequence[str]) -> str:
        rank, source = len(node.type.shape), ctx.graph.type_of(node.inputs[0])
        return ctx.generic(
            result_name(ctx, node),
            [(operands[0], source)],
            (ctx.init_for(node.index, node, operands), node.type),
            [identity_map(rank)] * 2,
            ["parallel"] * rank,
            lambda b, args: body(b, node, args[0], source.dtype),
        )

    return emit


# ---------------------------------------------------------------------------------------------
# Shared by several op families


def maxmin(which: str) -> Callable[[Body, list[str], str], str]:
    def body(b: Body, xs: list[str], t: str) -> str:
        name = f"{which}imumf" if b.ctx.syntax.maximumf else f"{which}f"
        return b.op(f"arith.{name} {xs[0]}, {xs[1]} : {t}")

    return body


MATMUL_TYPES = {
    ("f32", "f32"): "f32",
    ("f16", "f16"): "f16",
    ("f16", "f32"): "f32",
    ("i32", "i32"): "i32",
    ("i8", "i32"): "i32",
}  # (operand dtype, acc dtype)


def multiply_accumulate(b: Body, x: str, y: str, acc: str, src: str, dst: str) -> str:
    """acc + x * y in the accumulator's dtype (operands extended first: extsi for ints, extf for floats)."""
    if src != dst:
        ext = "arith.extsi" if dst == "i32" else "arith.extf"
        x, y = (b.op(f"{ext} {v} : {src} to {dst}") for v in (x, y))
    mul, add = ("arith.muli", "arith.addi") if dst == "i32" else ("arith.mulf", "arith.addf")
    return b.op(f"{add} {acc}, {b.op(f'{mul} {x}, {y} : {dst}')} : {dst}")


def small_dim(draw: Callable, pool: Any, cap: int) -> Dim:
    d = pool.draw_dim(draw)
    return d if isinstance(d, str) else min(d, cap)


def region(
    ctx: EmitContext,
    head: str,
    args: Sequence[tuple[str, str]],
    body: Callable[[Body], str],
    tail: str,
    terminator: str = "iree_linalg_ext.yield",
) -> None:
    """``head {`` then a block with ``args`` (name, type) whose ``body`` returns what it yields, then ``} tail``."""
    b = Body(ctx)
    yielded = body(b)
    ctx.line(f"{head} {{")
    ctx.line(f"^bb0({', '.join(f'{a}: {t}' for a, t in args)}):")
    ctx.lines.extend(f"  {line}" for line in b.lines)
    ctx.line(f"  {terminator} {yielded}")
    ctx.line(f"}} {tail}")


def matmul_lhs(rank: int) -> Callable[[TensorType, float], bool]:
    """What a matmul (rank 2) or batch_matmul (rank 3) takes as its left operand."""
    return lambda t, bound: len(t.shape) == rank and bound <= 4 and any(frm == t.dtype for frm, _ in MATMUL_TYPES)
