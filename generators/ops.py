"""The op registry: everything about one op in one place.

Each OpSpec carries the op's typing rule (``infer``), its linalg emission (``emit``), a bound on
the magnitude of its result (``bound``, so generated programs stay finite and well-conditioned)
and how the generator proposes it (``propose``). The reference semantics of every op live in
``ireefuzz.oracles.reference`` under the same name (a test keeps the two tables in step).
Adding an op = one ``register(OpSpec(...))`` here plus its reference row.
"""
from __future__ import annotations

import dataclasses
import math
from typing import Any, Callable, Mapping, Sequence

from .tensor import FLOAT_DTYPES, INT_DTYPES, Dim, TensorType

MAX_SYMBOL_SIZE = 130  # symbolic dims are instantiated at most this large (bounds rely on it)


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
    if spec.name in OPS:
        raise ValueError(f"op {spec.name!r} registered twice")
    OPS[spec.name] = spec
    return spec


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

    def generic(self, result: str, ins: Sequence[tuple[str, TensorType]], out: tuple[str, TensorType],
                maps: Sequence[str], iterators: Sequence[str], body: Callable[[Body, list[str]], str]) -> str:
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


# ---------------------------------------------------------------------------------------------
# Elementwise ops: one table row each. ``float_body`` / ``int_body`` map (Body, operands, dtype) to
# the yielded value; ``None`` means the op is not defined for that dtype class.


@dataclasses.dataclass(frozen=True)
class Elementwise:
    name: str
    arity: int
    float_body: Callable[[Body, list[str], str], str] | None
    int_body: Callable[[Body, list[str], str], str] | None
    bound: Callable[[Sequence[float]], float]
    domain: float = float("inf")  # proposed only on values bounded by this (keeps exp finite)


def _maxmin(which: str) -> Callable[[Body, list[str], str], str]:
    def body(b: Body, xs: list[str], t: str) -> str:
        name = f"{which}imumf" if b.ctx.syntax.maximumf else f"{which}f"
        return b.op(f"arith.{name} {xs[0]}, {xs[1]} : {t}")

    return body


def _log_guarded(b: Body, xs: list[str], t: str) -> str:  # log(|x| + 1): defined everywhere
    magnitude = b.op(f"math.absf {xs[0]} : {t}")
    return b.op(f"math.log {b.op(f'arith.addf {magnitude}, {b.const(1.0, t)} : {t}')} : {t}")


def _div_guarded(b: Body, xs: list[str], t: str) -> str:  # x / (|y| + 1): divisor kept away from zero
    magnitude = b.op(f"math.absf {xs[1]} : {t}")
    divisor = b.op(f"arith.addf {magnitude}, {b.const(1.0, t)} : {t}")
    return b.op(f"arith.divf {xs[0]}, {divisor} : {t}")


def _where_gt(b: Body, xs: list[str], t: str) -> str:  # where(x0 > x1, x2, x3)
    cmp = "arith.cmpf ogt" if t in FLOAT_DTYPES else "arith.cmpi sgt"
    return b.op(f"arith.select {b.op(f'{cmp}, {xs[0]}, {xs[1]} : {t}')}, {xs[2]}, {xs[3]} : {t}")


ELEMENTWISE_DTYPES = ("f32", "f16", "bf16", "i32", "i64", "i16")  # bf16 / i64 / i16 values come from casts

ELEMENTWISE = (
    Elementwise("exp", 1, lambda b, x, t: b.op(f"math.exp {x[0]} : {t}"), None, lambda bs: 2.72 ** bs[0], domain=6.0),
    Elementwise("tanh", 1, lambda b, x, t: b.op(f"math.tanh {x[0]} : {t}"), None, lambda bs: min(bs[0], 1.0)),
    Elementwise("negate", 1, lambda b, x, t: b.op(f"arith.negf {x[0]} : {t}"),
                lambda b, x, t: b.op(f"arith.subi {b.const(0, t)}, {x[0]} : {t}"), lambda bs: bs[0]),
    Elementwise("abs", 1, lambda b, x, t: b.op(f"math.absf {x[0]} : {t}"),
                lambda b, x, t: b.op(f"math.absi {x[0]} : {t}"), lambda bs: bs[0]),
    Elementwise("sqrt", 1, lambda b, x, t: b.op(f"math.sqrt {b.op('math.absf ' + x[0] + ' : ' + t)} : {t}"), None,
                lambda bs: bs[0] ** 0.5 + 1),
    Elementwise("log", 1, _log_guarded, None, lambda bs: bs[0]),
    Elementwise("add", 2, lambda b, x, t: b.op(f"arith.addf {x[0]}, {x[1]} : {t}"),
                lambda b, x, t: b.op(f"arith.addi {x[0]}, {x[1]} : {t}"), lambda bs: bs[0] + bs[1]),
    Elementwise("sub", 2, lambda b, x, t: b.op(f"arith.subf {x[0]}, {x[1]} : {t}"),
                lambda b, x, t: b.op(f"arith.subi {x[0]}, {x[1]} : {t}"), lambda bs: bs[0] + bs[1]),
    Elementwise("mul", 2, lambda b, x, t: b.op(f"arith.mulf {x[0]}, {x[1]} : {t}"),
                lambda b, x, t: b.op(f"arith.muli {x[0]}, {x[1]} : {t}"), lambda bs: bs[0] * bs[1]),
    Elementwise("max", 2, _maxmin("max"), lambda b, x, t: b.op(f"arith.maxsi {x[0]}, {x[1]} : {t}"), max),
    Elementwise("min", 2, _maxmin("min"), lambda b, x, t: b.op(f"arith.minsi {x[0]}, {x[1]} : {t}"), max),
    Elementwise("div", 2, _div_guarded, None, lambda bs: bs[0]),
    Elementwise("where_gt", 4, _where_gt, _where_gt, lambda bs: max(bs[2], bs[3])),
)


def _register_elementwise(ew: Elementwise) -> None:
    def infer(types: Sequence[TensorType], attrs: Mapping[str, Any]) -> TensorType:
        if len(types) != ew.arity:
            raise ValueError(f"{ew.name} takes {ew.arity} operands, got {len(types)}")
        t = same_type(types)
        if (ew.float_body if is_float(t) else ew.int_body) is None or t.dtype not in ELEMENTWISE_DTYPES:
            raise ValueError(f"{ew.name} is not defined on {t.dtype}")
        return t

    def emit(ctx: EmitContext, node: Any, operands: Sequence[str]) -> str:
        t = node.type
        body_fn = ew.float_body if is_float(t) else ew.int_body
        ins = [(v, ctx.graph.type_of(r)) for v, r in zip(operands, node.inputs)]
        out = (ctx.init_for(node.index, node, operands), t)
        rank = len(t.shape)
        return ctx.generic(result_name(ctx, node), ins, out, [identity_map(rank)] * (len(ins) + 1),
                           ["parallel"] * rank, lambda b, args: body_fn(b, args[: ew.arity], t.dtype))

    def propose(draw: Callable, pool: Any) -> tuple[tuple[str, ...], dict] | None:
        first = pool.pick(draw, lambda t, bound: t.dtype in ELEMENTWISE_DTYPES and bound <= ew.domain
                          and (ew.float_body if is_float(t) else ew.int_body) is not None)
        if first is None:
            return None
        t = pool.type(first)
        rest = [pool.pick(draw, lambda u, _b: (u.shape, u.dtype) == (t.shape, t.dtype)) for _ in range(ew.arity - 1)]
        return (first, *rest), {}

    register(OpSpec(ew.name, infer, emit, lambda bs, attrs, types: ew.bound(bs), propose))


for _ew in ELEMENTWISE:
    _register_elementwise(_ew)


# ---------------------------------------------------------------------------------------------
# cast


def _cast_infer(types: Sequence[TensorType], attrs: Mapping[str, Any]) -> TensorType:
    (t,) = types
    if (t.dtype, attrs["to"]) not in CASTS:
        raise ValueError(f"no cast {t.dtype} -> {attrs['to']}")
    return TensorType(t.shape, attrs["to"])


CASTS = {("f32", "f16"): "arith.truncf", ("f16", "f32"): "arith.extf", ("f32", "i32"): "arith.fptosi",
         ("i32", "f32"): "arith.sitofp", ("f16", "i32"): "arith.fptosi", ("i32", "f16"): "arith.sitofp",
         ("f32", "bf16"): "arith.truncf", ("bf16", "f32"): "arith.extf", ("bf16", "i32"): "arith.fptosi",
         ("i32", "i64"): "arith.extsi", ("i64", "i32"): "arith.trunci", ("f32", "i64"): "arith.fptosi",
         ("i64", "f32"): "arith.sitofp", ("i32", "i16"): "arith.trunci", ("i16", "i32"): "arith.extsi",
         ("i16", "f16"): "arith.sitofp", ("i8", "i32"): "arith.extsi", ("i8", "i16"): "arith.extsi"}


def _cast_emit(ctx: EmitContext, node: Any, operands: Sequence[str]) -> str:
    src = ctx.graph.type_of(node.inputs[0])
    op = CASTS[(src.dtype, node.type.dtype)]
    rank = len(node.type.shape)
    return ctx.generic(result_name(ctx, node), [(operands[0], src)], (ctx.init_for(node.index, node, operands), node.type),
                       [identity_map(rank)] * 2, ["parallel"] * rank,
                       lambda b, a: b.op(f"{op} {a[0]} : {src.dtype} to {node.type.dtype}"))


def _cast_propose(draw: Callable, pool: Any) -> tuple[tuple[str, ...], dict] | None:
    src = pool.pick(draw, lambda t, bound: any(frm == t.dtype for frm, _ in CASTS) and bound <= 1000)
    if src is None:
        return None
    targets = sorted(to for (frm, to) in CASTS if frm == pool.type(src).dtype and to in pool.dtypes)
    return ((src,), {"to": draw(pool.st.sampled_from(targets))}) if targets else None


register(OpSpec("cast", _cast_infer, _cast_emit, lambda bs, a, ts: bs[0] + 1, _cast_propose))


# ---------------------------------------------------------------------------------------------
# fill and iota: producers with no tensor inputs


def _fill_emit(ctx: EmitContext, node: Any, operands: Sequence[str]) -> str:
    t = node.type
    init = ctx.init_for(node.index, node, operands)
    cst = ctx.fresh("c")
    ctx.line(f"{cst} = arith.constant {float_literal(node.attrs['value'], t.dtype)} : {t.dtype}")
    if node.attrs.get("generic"):
        rank = len(t.shape)
        return ctx.generic(result_name(ctx, node), [], (init, t), [identity_map(rank)], ["parallel"] * rank,
                           lambda b, a: cst)
    name = result_name(ctx, node)
    ctx.line(f"{name} = linalg.fill ins({cst} : {t.dtype}) outs({init} : {tensor_type(t)}) -> {tensor_type(t)}")
    return name


def _producer_propose(kind: str) -> Callable:
    def propose(draw: Callable, pool: Any) -> tuple[tuple[str, ...], dict] | None:
        shape = pool.draw_shape(draw)
        st = pool.st
        dtype = draw(st.sampled_from(pool.dtypes_among(("f32", "f16", "i32"))))
        if kind == "fill":
            value = draw(st.sampled_from([0.0, 1.0, -1.0, 0.5, 2.0]))
            return (), {"shape": list(shape), "dtype": dtype, "value": value if dtype != "i32" else int(value)}
        if not shape:
            return None
        return (), {"shape": list(shape), "dtype": dtype, "dim": draw(st.integers(0, len(shape) - 1))}

    return propose


def _producer_infer(types: Sequence[TensorType], attrs: Mapping[str, Any]) -> TensorType:
    if types:
        raise ValueError("takes no tensor operands")
    return TensorType(tuple(attrs["shape"]), attrs["dtype"])


def _iota_infer(types: Sequence[TensorType], attrs: Mapping[str, Any]) -> TensorType:
    t = _producer_infer(types, attrs)
    if not 0 <= attrs["dim"] < len(t.shape) or t.dtype not in ("i32", "f32", "f16"):
        raise ValueError(f"iota dim {attrs['dim']} out of range or dtype {t.dtype}")
    return t


def _iota_emit(ctx: EmitContext, node: Any, operands: Sequence[str]) -> str:
    t = node.type
    rank = len(t.shape)

    def body(b: Body, args: list[str]) -> str:
        index = b.op(f"linalg.index {node.attrs['dim']} : index")
        i32 = b.op(f"arith.index_cast {index} : index to i32")
        return i32 if t.dtype == "i32" else b.op(f"arith.sitofp {i32} : i32 to {t.dtype}")

    return ctx.generic(result_name(ctx, node), [], (ctx.init_for(node.index, node, operands), t),
                       [identity_map(rank)], ["parallel"] * rank, body)


def _iota_bound(bs: Sequence[float], attrs: Mapping[str, Any], types: Sequence[TensorType]) -> float:
    d = attrs["shape"][attrs["dim"]]
    return float(d if isinstance(d, int) else MAX_SYMBOL_SIZE)


register(OpSpec("fill", _producer_infer, _fill_emit, lambda bs, a, ts: abs(a["value"]), _producer_propose("fill"),
                has_generic_form=True, family="producer"))
register(OpSpec("iota", _iota_infer, _iota_emit, _iota_bound, _producer_propose("iota"), family="producer"))
PRODUCER_OPS = ("fill", "iota")  # no tensor operands: data from indices and constants, what fusion should recompute


# ---------------------------------------------------------------------------------------------
# matmul / batch_matmul: inputs (lhs, rhs, acc); the acc is the destination (a fill, an argument...)

MATMUL_TYPES = {("f32", "f32"): "f32", ("f16", "f16"): "f16", ("f16", "f32"): "f32", ("i32", "i32"): "i32",
                ("i8", "i32"): "i32"}  # (operand dtype, acc dtype)


def _matmul_infer(batch: bool) -> Callable:
    def infer(types: Sequence[TensorType], attrs: Mapping[str, Any]) -> TensorType:
        lhs, rhs, acc = types
        r = 3 if batch else 2
        if not (len(lhs.shape) == len(rhs.shape) == len(acc.shape) == r):
            raise ValueError(f"matmul operands must have rank {r}")
        if lhs.dtype != rhs.dtype or (lhs.dtype, acc.dtype) not in MATMUL_TYPES:
            raise ValueError(f"no matmul {lhs.dtype} x {rhs.dtype} -> {acc.dtype}")
        *b, m, k = lhs.shape
        *b2, k2, n = rhs.shape
        if k != k2 or b != b2 or tuple(acc.shape) != (*b, m, n):
            raise ValueError(f"shapes {lhs!r} x {rhs!r} -> {acc!r} do not agree")
        return TensorType(acc.shape, acc.dtype)

    return infer


def _matmul_emit(batch: bool) -> Callable:
    def emit(ctx: EmitContext, node: Any, operands: Sequence[str]) -> str:
        lhs, rhs, acc = (ctx.graph.type_of(r) for r in node.inputs)
        name = result_name(ctx, node)
        if not node.attrs.get("generic"):
            op = "linalg.batch_matmul" if batch else "linalg.matmul"
            ctx.line(f"{name} = {op} ins({operands[0]}, {operands[1]} : {tensor_type(lhs)}, {tensor_type(rhs)}) "
                     f"outs({operands[2]} : {tensor_type(acc)}) -> {tensor_type(acc)}")
            return name
        b0 = [0] if batch else []
        o = len(b0)
        maps = [projected_map(3 + o, b0 + [o, o + 2]), projected_map(3 + o, b0 + [o + 2, o + 1]),
                projected_map(3 + o, b0 + [o, o + 1])]

        def body(b: Body, a: list[str]) -> str:
            return _multiply_accumulate(b, a[0], a[1], a[2], lhs.dtype, acc.dtype)

        return ctx.generic(name, [(operands[0], lhs), (operands[1], rhs)], (operands[2], acc), maps,
                           ["parallel"] * (2 + o) + ["reduction"], body)

    return emit


def _matmul_bound(bs: Sequence[float], attrs: Mapping[str, Any], types: Sequence[TensorType]) -> float:
    k = types[0].shape[-1]
    return bs[0] * bs[1] * (k if isinstance(k, int) else MAX_SYMBOL_SIZE) + bs[2]


def _matmul_propose(batch: bool) -> Callable:
    def propose(draw: Callable, pool: Any) -> tuple[tuple[str, ...], dict] | None:
        r = 3 if batch else 2
        lhs = pool.pick(draw, lambda t, bound: len(t.shape) == r and bound <= 4 and any(
            frm == t.dtype for frm, _ in MATMUL_TYPES))
        if lhs is None:
            return None
        lt = pool.type(lhs)
        *b, m, k = lt.shape
        n = pool.draw_dim(draw)
        rhs = pool.pick_or_arg(draw, TensorType((*b, k, n), lt.dtype), max_bound=4)
        acc_dtype = draw(pool.st.sampled_from(sorted({to for frm, to in MATMUL_TYPES if frm == lt.dtype})))
        acc = pool.destination(draw, TensorType((*b, m, n), acc_dtype))
        return (lhs, rhs, acc), {"generic": draw(pool.st.booleans())}

    return propose


register(OpSpec("matmul", _matmul_infer(False), _matmul_emit(False), _matmul_bound, _matmul_propose(False),
                has_init=False, has_generic_form=True, acc_input=2, family="contraction"))
register(OpSpec("batch_matmul", _matmul_infer(True), _matmul_emit(True), _matmul_bound, _matmul_propose(True),
                has_init=False, has_generic_form=True, acc_input=2, family="contraction"))


# ---------------------------------------------------------------------------------------------
# broadcast / transpose


def _broadcast_infer(types: Sequence[TensorType], attrs: Mapping[str, Any]) -> TensorType:
    (t,) = types
    shape, added = tuple(attrs["shape"]), list(attrs["dimensions"])
    kept = [shape[i] for i in range(len(shape)) if i not in added]
    if sorted(set(added)) != added or any(not 0 <= d < len(shape) for d in added) or tuple(kept) != t.shape:
        raise ValueError(f"broadcast of {t!r} to {shape} adding dims {added} does not fit")
    return TensorType(shape, t.dtype)


def _broadcast_emit(ctx: EmitContext, node: Any, operands: Sequence[str]) -> str:
    src = ctx.graph.type_of(node.inputs[0])
    init = ctx.init_for(node.index, node, operands)
    t, added, rank = node.type, list(node.attrs["dimensions"]), len(node.type.shape)
    name = result_name(ctx, node)
    if node.attrs.get("generic"):
        kept = [i for i in range(rank) if i not in added]
        return ctx.generic(name, [(operands[0], src)], (init, t), [projected_map(rank, kept), identity_map(rank)],
                           ["parallel"] * rank, lambda b, a: a[0])
    ctx.line(f"{name} = linalg.broadcast ins({operands[0]} : {tensor_type(src)}) outs({init} : {tensor_type(t)}) "
             f"dimensions = [{', '.join(map(str, added))}]")
    return name


def _broadcast_propose(draw: Callable, pool: Any) -> tuple[tuple[str, ...], dict] | None:
    src = pool.pick(draw, lambda t, bound: len(t.shape) <= 2)
    if src is None:
        return None
    shape = list(pool.type(src).shape)
    pos = draw(pool.st.integers(0, len(shape)))
    shape.insert(pos, pool.draw_dim(draw))
    return (src,), {"shape": shape, "dimensions": [pos], "generic": draw(pool.st.booleans())}


def _transpose_infer(types: Sequence[TensorType], attrs: Mapping[str, Any]) -> TensorType:
    (t,) = types
    perm = list(attrs["permutation"])
    if sorted(perm) != list(range(len(t.shape))):
        raise ValueError(f"permutation {perm} of rank {len(t.shape)}")
    return TensorType(tuple(t.shape[p] for p in perm), t.dtype)


def _transpose_emit(ctx: EmitContext, node: Any, operands: Sequence[str]) -> str:
    src = ctx.graph.type_of(node.inputs[0])
    init = ctx.init_for(node.index, node, operands)
    perm, t, name = list(node.attrs["permutation"]), node.type, result_name(ctx, node)
    if node.attrs.get("generic"):
        inverse = [perm.index(j) for j in range(len(perm))]
        return ctx.generic(name, [(operands[0], src)], (init, t), [projected_map(len(perm), inverse),
                           identity_map(len(perm))], ["parallel"] * len(perm), lambda b, a: a[0])
    ctx.line(f"{name} = linalg.transpose ins({operands[0]} : {tensor_type(src)}) outs({init} : {tensor_type(t)}) "
             f"permutation = [{', '.join(map(str, perm))}]")
    return name


def _transpose_propose(draw: Callable, pool: Any) -> tuple[tuple[str, ...], dict] | None:
    src = pool.pick(draw, lambda t, bound: len(t.shape) >= 2)
    if src is None:
        return None
    rank = len(pool.type(src).shape)
    perm = draw(pool.st.permutations(list(range(rank))).filter(lambda p: list(p) != list(range(rank))))
    return (src,), {"permutation": list(perm), "generic": draw(pool.st.booleans())}


register(OpSpec("broadcast", _broadcast_infer, _broadcast_emit, lambda bs, a, ts: bs[0], _broadcast_propose,
                has_generic_form=True, family="data-movement"))
register(OpSpec("transpose", _transpose_infer, _transpose_emit, lambda bs, a, ts: bs[0], _transpose_propose,
                has_generic_form=True, family="data-movement"))


# ---------------------------------------------------------------------------------------------
# reductions over one dim: the destination is a fresh init filled with the identity

REDUCTIONS = {"reduce_sum": 0.0, "reduce_max": float("-inf")}


def _reduce_infer(types: Sequence[TensorType], attrs: Mapping[str, Any]) -> TensorType:
    (t,) = types
    dim = attrs["dim"]
    if not 0 <= dim < len(t.shape) or t.dtype not in ("f32", "f16", "i32"):
        raise ValueError(f"cannot reduce {t!r} over dim {dim}")
    return TensorType(tuple(d for i, d in enumerate(t.shape) if i != dim), t.dtype)


def _reduce_emit(kind: str) -> Callable:
    def emit(ctx: EmitContext, node: Any, operands: Sequence[str]) -> str:
        src, t, dim = ctx.graph.type_of(node.inputs[0]), node.type, node.attrs["dim"]
        identity = REDUCTIONS[kind]
        if t.dtype == "i32" and identity == float("-inf"):
            identity = -(2 ** 31)
        init = ctx.init_for(node.index, node, operands)
        cst, filled = ctx.fresh("c"), ctx.fresh("f")
        ctx.line(f"{cst} = arith.constant {float_literal(identity, t.dtype)} : {t.dtype}")
        ctx.line(f"{filled} = linalg.fill ins({cst} : {t.dtype}) outs({init} : {tensor_type(t)}) -> {tensor_type(t)}")
        rank = len(src.shape)
        kept = [i for i in range(rank) if i != dim]

        def body(b: Body, a: list[str]) -> str:
            if kind == "reduce_sum":
                return b.op(f"arith.add{'i' if t.dtype == 'i32' else 'f'} {a[1]}, {a[0]} : {t.dtype}")
            if t.dtype == "i32":
                return b.op(f"arith.maxsi {a[1]}, {a[0]} : {t.dtype}")
            return _maxmin("max")(b, [a[1], a[0]], t.dtype)

        return ctx.generic(result_name(ctx, node), [(operands[0], src)], (filled, t),
                           [identity_map(rank), projected_map(rank, kept)],
                           ["reduction" if i == dim else "parallel" for i in range(rank)], body)

    return emit


def _reduce_bound(kind: str) -> Callable:
    def bound(bs: Sequence[float], attrs: Mapping[str, Any], types: Sequence[TensorType]) -> float:
        d = types[0].shape[attrs["dim"]]
        return bs[0] * (d if isinstance(d, int) else MAX_SYMBOL_SIZE) if kind == "reduce_sum" else bs[0]

    return bound


def _reduce_propose(draw: Callable, pool: Any) -> tuple[tuple[str, ...], dict] | None:
    src = pool.pick(draw, lambda t, bound: len(t.shape) >= 1 and t.dtype in ("f32", "f16", "i32") and bound <= 50)
    if src is None:
        return None
    return (src,), {"dim": draw(pool.st.integers(0, len(pool.type(src).shape) - 1))}


for _kind in REDUCTIONS:
    register(OpSpec(_kind, _reduce_infer, _reduce_emit(_kind), _reduce_bound(_kind), _reduce_propose,
                    family="reduction"))


# ---------------------------------------------------------------------------------------------
# gather: rows of a table (T x D) picked by an i32 index vector (N) whose values are in [0, T)


def _gather_infer(types: Sequence[TensorType], attrs: Mapping[str, Any]) -> TensorType:
    table, idx = types
    if len(table.shape) != 2 or len(idx.shape) != 1 or idx.dtype != "i32":
        raise ValueError("gather takes a rank-2 table and a rank-1 i32 index vector")
    if idx.index_bound != table.shape[0]:
        raise ValueError(f"index values must be bounded by the table's rows ({table.shape[0]}), not {idx.index_bound}")
    return TensorType((idx.shape[0], table.shape[1]), table.dtype)


def _gather_emit(ctx: EmitContext, node: Any, operands: Sequence[str]) -> str:
    table, idx = (ctx.graph.type_of(r) for r in node.inputs)
    init, t, name = ctx.init_for(node.index, node, operands), node.type, result_name(ctx, node)
    if node.attrs.get("form") == "linalg_ext":
        idx2 = TensorType((idx.shape[0], 1), "i32")
        expanded = ctx.fresh("x")
        ctx.line(f"{expanded} = tensor.expand_shape {operands[1]} [[0, 1]] output_shape "
                 f"[{ctx.dim_values[idx.shape[0]] if isinstance(idx.shape[0], str) else idx.shape[0]}, 1] "
                 f": {tensor_type(idx)} into {tensor_type(idx2)}")
        ctx.line(f"{name} = iree_linalg_ext.gather dimension_map = [0] ins({operands[0]}, {expanded} : "
                 f"{tensor_type(table)}, {tensor_type(idx2)}) outs({init} : {tensor_type(t)}) -> {tensor_type(t)}")
        return name

    def body(b: Body, a: list[str]) -> str:
        row = b.op(f"arith.index_cast {a[0]} : i32 to index")
        col = b.op("linalg.index 1 : index")
        return b.op(f"tensor.extract {operands[0]}[{row}, {col}] : {tensor_type(table)}")

    return ctx.generic(name, [(operands[1], idx)], (init, t), [projected_map(2, [0]), identity_map(2)],
                       ["parallel", "parallel"], body)


def _gather_propose(draw: Callable, pool: Any) -> tuple[tuple[str, ...], dict] | None:
    table = pool.pick(draw, lambda t, bound: len(t.shape) == 2 and t.shape[0] != 0)
    if table is None or not pool.nonzero(pool.type(table).shape[0]):
        return None
    rows = pool.type(table).shape[0]
    idx = pool.new_arg(TensorType((pool.draw_dim(draw),), "i32", index_bound=rows))
    forms = ["extract", "linalg_ext"] if pool.syntax.linalg_ext_gather else ["extract"]
    return (table, idx), {"form": draw(pool.st.sampled_from(forms))}


register(OpSpec("gather", _gather_infer, _gather_emit, lambda bs, a, ts: bs[0], _gather_propose, family="data-movement"))


# ---------------------------------------------------------------------------------------------
# extract_slice / pad: static offsets, sizes, strides and padding on static dims; symbolic dims kept whole


def _slice_infer(types: Sequence[TensorType], attrs: Mapping[str, Any]) -> TensorType:
    (t,) = types
    offs, sizes, strides = attrs["offsets"], attrs["sizes"], attrs["strides"]
    if not len(offs) == len(sizes) == len(strides) == len(t.shape):
        raise ValueError("offsets / sizes / strides must match the rank")
    for d, o, s, st in zip(t.shape, offs, sizes, strides):
        if isinstance(d, str):
            if (o, s, st) != (0, d, 1):
                raise ValueError(f"a symbolic dim {d} is kept whole (offset 0, size {d}, stride 1)")
        elif st < 1 or o < 0 or s < 0 or (s > 0 and o + (s - 1) * st >= d):
            raise ValueError(f"slice offset {o} size {s} stride {st} exceeds dim {d}")
    return TensorType(tuple(sizes), t.dtype)


def _slice_emit(ctx: EmitContext, node: Any, operands: Sequence[str]) -> str:
    src, a = ctx.graph.type_of(node.inputs[0]), node.attrs
    sizes = ", ".join(ctx.dim_values[s] if isinstance(s, str) else str(s) for s in a["sizes"])
    name = result_name(ctx, node)
    ctx.line(f"{name} = tensor.extract_slice {operands[0]}[{', '.join(map(str, a['offsets']))}] [{sizes}] "
             f"[{', '.join(map(str, a['strides']))}] : {tensor_type(src)} to {tensor_type(node.type)}")
    return name


def _slice_propose(draw: Callable, pool: Any) -> tuple[tuple[str, ...], dict] | None:
    src = pool.pick(draw, lambda t, bound: any(isinstance(d, int) and d >= 2 for d in t.shape))
    if src is None:
        return None
    offs, sizes, strides = [], [], []
    for d in pool.type(src).shape:
        if isinstance(d, str) or d < 2:
            offs.append(0), sizes.append(d), strides.append(1)
            continue
        st = draw(pool.st.integers(1, 3))
        o = draw(pool.st.integers(0, d - 1))
        s = draw(pool.st.integers(1, (d - 1 - o) // st + 1))
        offs.append(o), sizes.append(s), strides.append(st)
    return (src,), {"offsets": offs, "sizes": sizes, "strides": strides}


def _pad_infer(types: Sequence[TensorType], attrs: Mapping[str, Any]) -> TensorType:
    (t,) = types
    low, high = attrs["low"], attrs["high"]
    if not len(low) == len(high) == len(t.shape) or min(low + high, default=0) < 0:
        raise ValueError("low / high padding must match the rank and be non-negative")
    if any(isinstance(d, str) and (lo or hi) for d, lo, hi in zip(t.shape, low, high)):
        raise ValueError("symbolic dims are not padded")
    return TensorType(tuple(d if isinstance(d, str) else d + lo + hi for d, lo, hi in zip(t.shape, low, high)), t.dtype)


def _pad_emit(ctx: EmitContext, node: Any, operands: Sequence[str]) -> str:
    src, t, a, name = ctx.graph.type_of(node.inputs[0]), node.type, node.attrs, result_name(ctx, node)
    cst = ctx.fresh("c")
    ctx.line(f"{cst} = arith.constant {float_literal(a['value'], t.dtype)} : {t.dtype}")
    idx = ", ".join(f"{ctx.fresh('i')}: index" for _ in t.shape)
    ctx.line(f"{name} = tensor.pad {operands[0]} low[{', '.join(map(str, a['low']))}] "
             f"high[{', '.join(map(str, a['high']))}] {{")
    ctx.line(f"^bb0({idx}):")
    ctx.line(f"  tensor.yield {cst} : {t.dtype}")
    ctx.line(f"}} : {tensor_type(src)} to {tensor_type(t)}")
    return name


def _has_static_dim(t: TensorType, bound: Any) -> bool:
    """A ``pool.pick`` filter: a value with a static dim to pad or concatenate along (not i1)."""
    return any(isinstance(d, int) for d in t.shape) and t.dtype != "i1"


def _pad_propose(draw: Callable, pool: Any) -> tuple[tuple[str, ...], dict] | None:
    src = pool.pick(draw, _has_static_dim)
    if src is None:
        return None
    t = pool.type(src)
    low = [0 if isinstance(d, str) else draw(pool.st.integers(0, 3)) for d in t.shape]
    high = [0 if isinstance(d, str) else draw(pool.st.integers(0, 3)) for d in t.shape]
    value = draw(pool.st.sampled_from([0.0, 1.0, -0.5]))
    return (src,), {"low": low, "high": high, "value": int(value) if t.dtype in INT_DTYPES else value}


register(OpSpec("extract_slice", _slice_infer, _slice_emit, lambda bs, a, ts: bs[0], _slice_propose, has_init=False,
                view=True, family="data-movement"))
register(OpSpec("pad", _pad_infer, _pad_emit, lambda bs, a, ts: max(bs[0], abs(a["value"])), _pad_propose,
                has_init=False, family="data-movement"))

# ---------------------------------------------------------------------------------------------
# convolution and pooling. A layout names each operand's dims by letter: n batch, c channel,
# f filter (output channel), x / y spatial (in the image and the result), X / Y the kernel window.
# Spatial and window dims are static (a result's spatial size is an expression of the input's);
# batch and channels may be symbolic. Padding comes from a pad node the proposal puts before the op.

CONV_LAYOUTS = {"conv_1d_nwc_wcf": ("nxc", "Xcf", "nxf"), "conv_2d_nhwc_hwcf": ("nxyc", "XYcf", "nxyf"),
                "conv_2d_nchw_fchw": ("ncxy", "fcXY", "nfxy"), "depthwise_conv_2d_nhwc_hwc": ("nxyc", "XYc", "nxyc")}
POOL_LAYOUTS = {"nhwc": ("nxyc", "XY", "nxyc"), "nchw": ("ncxy", "XY", "ncxy")}
POOLINGS = {"pooling_nhwc_sum": ("nhwc", "sum"), "pooling_nhwc_max": ("nhwc", "max"), "pooling_nhwc_min": ("nhwc", "min"),
            "pooling_nchw_sum": ("nchw", "sum"), "pooling_nchw_max": ("nchw", "max")}  # linalg has no pooling_nchw_min
POOL_IDENTITY = {"sum": 0.0, "max": float("-inf"), "min": float("inf")}
SPATIAL = "xy"


def window_out(size: int, window: int, stride: int, dilation: int) -> int:
    """Result size of one spatial dim (0 when the dilated window does not fit)."""
    return max(0, (size - (window - 1) * dilation - 1) // stride + 1)


def _window_dims(layout: tuple[str, str, str], types: Sequence[TensorType], attrs: Mapping[str, Any],
                 window_shape: Sequence[int] | None = None) -> dict[str, Dim]:
    """Letter -> dim of the result, checking every operand's dims agree."""
    image_l, window_l, out_l = layout
    image, rest = types[0], types[1:]
    if len(image.shape) != len(image_l):
        raise ValueError(f"image {image!r} must have rank {len(image_l)}")
    dims: dict[str, Dim] = dict(zip(image_l, image.shape))
    named = list(zip(window_l, window_shape)) if window_shape is not None else list(zip(window_l, rest[0].shape))
    if window_shape is None and len(rest[0].shape) != len(window_l):
        raise ValueError(f"filter {rest[0]!r} must have rank {len(window_l)}")
    for letter, d in named:
        if dims.setdefault(letter, d) != d:
            raise ValueError(f"dim {letter} is {dims[letter]} and {d}")
    strides, dilations = list(attrs["strides"]), list(attrs["dilations"])
    n_spatial = sum(l in SPATIAL for l in image_l)
    if not len(strides) == len(dilations) == n_spatial or min(strides + dilations) < 1:
        raise ValueError(f"strides {strides} / dilations {dilations} must be {n_spatial} positive ints")
    for i, x in enumerate(l for l in image_l if l in SPATIAL):
        size, window = dims[x], dims[x.upper()]
        if not (isinstance(size, int) and isinstance(window, int)) or window < 1:
            raise ValueError("spatial and window dims must be static")
        dims[x] = window_out(size, window, strides[i], dilations[i])
        if dims[x] < 1:
            raise ValueError(f"window {window} (dilation {dilations[i]}) does not fit spatial size {size}")
    return dims


def _conv_infer(kind: str) -> Callable:
    def infer(types: Sequence[TensorType], attrs: Mapping[str, Any]) -> TensorType:
        image, filt, acc = types
        if image.dtype != filt.dtype or (image.dtype, acc.dtype) not in MATMUL_TYPES:
            raise ValueError(f"no {kind} {image.dtype} x {filt.dtype} -> {acc.dtype}")
        dims = _window_dims(CONV_LAYOUTS[kind], types[:2], attrs)
        want = tuple(dims[l] for l in CONV_LAYOUTS[kind][2])
        if tuple(acc.shape) != want:
            raise ValueError(f"{kind} of {image!r} by {filt!r} gives {want}, not the accumulator's {acc!r}")
        return TensorType(acc.shape, acc.dtype)

    return infer


def _window_attr(values: Sequence[int]) -> str:
    return f"dense<[{', '.join(map(str, values))}]> : tensor<{len(values)}xi64>"


def _window_maps(layout: tuple[str, str, str], attrs: Mapping[str, Any]) -> tuple[list[str], list[str], list[str]]:
    """The linalg.generic form of a convolution / pooling: (loop letters, iterator types, [image, window, out] maps)."""
    image_l, window_l, out_l = layout
    loops = list(out_l) + [l for l in window_l if l not in out_l]
    d = {l: f"d{i}" for i, l in enumerate(loops)}
    spatial = [l for l in image_l if l in SPATIAL]
    image_exprs = []
    for l in image_l:
        if l in SPATIAL:
            i = spatial.index(l)
            image_exprs.append(f"{d[l]} * {attrs['strides'][i]} + {d[l.upper()]} * {attrs['dilations'][i]}")
        else:
            image_exprs.append(d[l])
    head = f"({', '.join(d.values())})"
    maps = [f"affine_map<{head} -> ({', '.join(image_exprs)})>",
            f"affine_map<{head} -> ({', '.join(d[l] for l in window_l)})>",
            f"affine_map<{head} -> ({', '.join(d[l] for l in out_l)})>"]
    return loops, ["parallel" if l in out_l else "reduction" for l in loops], maps


def _named_window_op(ctx: EmitContext, result: str, op: str, attrs: Mapping[str, Any], image: tuple[str, Any],
                     window: tuple[str, Any], out: tuple[str, Any]) -> str:
    """``result = linalg.<op>`` of a convolution or pooling (value, type pairs), with its dilations and strides."""
    ctx.line(f"{result} = linalg.{op} {{dilations = {_window_attr(attrs['dilations'])}, strides = "
             f"{_window_attr(attrs['strides'])}}} ins({image[0]}, {window[0]} : {tensor_type(image[1])}, "
             f"{tensor_type(window[1])}) outs({out[0]} : {tensor_type(out[1])}) -> {tensor_type(out[1])}")
    return result


def _conv_emit(kind: str) -> Callable:
    def emit(ctx: EmitContext, node: Any, operands: Sequence[str]) -> str:
        image, filt, acc = (ctx.graph.type_of(r) for r in node.inputs)
        name, a = result_name(ctx, node), node.attrs
        if not a.get("generic"):
            return _named_window_op(ctx, name, kind, a, (operands[0], image), (operands[1], filt), (operands[2], acc))
        _, iterators, maps = _window_maps(CONV_LAYOUTS[kind], a)

        def body(b: Body, x: list[str]) -> str:
            return _multiply_accumulate(b, x[0], x[1], x[2], image.dtype, acc.dtype)

        return ctx.generic(name, [(operands[0], image), (operands[1], filt)], (operands[2], acc), maps, iterators, body)

    return emit


def _window_volume(types: Sequence[TensorType], letters: str, image_l: str) -> int:
    """Products summed per result element: the window, times the channels when they are reduced."""
    dims = dict(zip(image_l, types[0].shape)) | dict(zip(letters, types[1].shape))
    return math.prod(MAX_SYMBOL_SIZE if isinstance(dims[l], str) else dims[l] for l in letters if l in "XYc")


def _conv_bound(kind: str) -> Callable:
    def bound(bs: Sequence[float], attrs: Mapping[str, Any], types: Sequence[TensorType]) -> float:
        image_l, filter_l, out_l = CONV_LAYOUTS[kind]
        reduced = "".join(l for l in filter_l if l not in out_l)
        return bs[0] * bs[1] * _window_volume(types, reduced, image_l) + bs[2]

    return bound


def _draw_window(draw: Callable, pool: Any, n_spatial: int) -> tuple[list[int], list[int], list[int], list[int]]:
    """(window, strides, dilations, result sizes) per spatial dim."""
    ints = pool.st.integers
    window = [draw(ints(1, 3)) for _ in range(n_spatial)]
    strides = [draw(ints(1, 3)) for _ in range(n_spatial)]
    dilations = [draw(ints(1, 2)) for _ in range(n_spatial)]
    outs = [draw(pool.st.sampled_from((1, 2, 3, 4, 5, 7, 8))) for _ in range(n_spatial)]
    return window, strides, dilations, outs


def _small_dim(draw: Callable, pool: Any, cap: int) -> Dim:
    d = pool.draw_dim(draw)
    return d if isinstance(d, str) else min(d, cap)


def _padded_image(draw: Callable, pool: Any, letters: str, dims: Mapping[str, Dim], dtype: str, max_bound: float) -> str:
    """An image of the given dims: an argument or earlier value, sometimes through a pad node (zero padding)."""
    pads = {l: (draw(pool.st.integers(0, 2)), draw(pool.st.integers(0, 2))) if l in SPATIAL and draw(pool.st.booleans())
            else (0, 0) for l in letters}
    pads = {l: p if isinstance(dims[l], int) and dims[l] - sum(p) >= 1 else (0, 0) for l, p in pads.items()}
    shape = tuple(d if isinstance(d, str) else d - sum(pads[l]) for l, d in zip(letters, (dims[l] for l in letters)))
    src = pool.pick_or_arg(draw, TensorType(shape, dtype), max_bound=max_bound)
    if not any(sum(p) for p in pads.values()):
        return src
    attrs = {"low": [pads[l][0] for l in letters], "high": [pads[l][1] for l in letters], "value": 0 if dtype == "i32" else 0.0}
    return pool.derive("pad", (src,), attrs)


def _conv_propose(kind: str) -> Callable:
    def propose(draw: Callable, pool: Any) -> tuple[tuple[str, ...], dict] | None:
        image_l, filter_l, out_l = CONV_LAYOUTS[kind]
        spatial = [l for l in image_l if l in SPATIAL]
        window, strides, dilations, outs = _draw_window(draw, pool, len(spatial))
        dtype = draw(pool.st.sampled_from(sorted({frm for frm, _ in MATMUL_TYPES if frm in pool.dtypes} or {"f32"})))
        dims: dict[str, Dim] = {"n": _small_dim(draw, pool, 3), "c": _small_dim(draw, pool, 16), "f": _small_dim(draw, pool, 16)}
        for i, x in enumerate(spatial):
            dims[x.upper()] = window[i]
            dims[x] = (outs[i] - 1) * strides[i] + (window[i] - 1) * dilations[i] + 1 + draw(pool.st.integers(0, strides[i] - 1))
        image = _padded_image(draw, pool, image_l, dims, dtype, max_bound=4)
        filt = pool.pick_or_arg(draw, TensorType(tuple(dims[l] for l in filter_l), dtype), max_bound=4)
        acc_dtype = draw(pool.st.sampled_from(sorted({to for frm, to in MATMUL_TYPES if frm == dtype})))
        out = {**dims, **dict(zip(spatial, outs))}
        acc = pool.destination(draw, TensorType(tuple(out[l] for l in out_l), acc_dtype))
        return (image, filt, acc), {"strides": strides, "dilations": dilations, "generic": draw(pool.st.booleans())}

    return propose


for _kind in CONV_LAYOUTS:
    register(OpSpec(_kind, _conv_infer(_kind), _conv_emit(_kind), _conv_bound(_kind), _conv_propose(_kind),
                    has_init=False, has_generic_form=True, acc_input=2, family="convolution"))


def _pool_infer(name: str) -> Callable:
    def infer(types: Sequence[TensorType], attrs: Mapping[str, Any]) -> TensorType:
        (image,) = types
        if image.dtype not in ("f32", "f16", "i32"):
            raise ValueError(f"{name} is not defined on {image.dtype}")
        layout = POOL_LAYOUTS[POOLINGS[name][0]]
        dims = _window_dims(layout, types, attrs, attrs["window"])
        return TensorType(tuple(dims[l] for l in layout[2]), image.dtype)

    return infer


def _pool_emit(name: str) -> Callable:
    layout, kind = POOLINGS[name]

    def emit(ctx: EmitContext, node: Any, operands: Sequence[str]) -> str:
        image, t, a = ctx.graph.type_of(node.inputs[0]), node.type, node.attrs
        identity = POOL_IDENTITY[kind]
        if t.dtype == "i32" and kind != "sum":
            identity = -(2 ** 31) if kind == "max" else 2 ** 31 - 1
        init = ctx.init_for(node.index, node, operands)
        cst, filled, window = ctx.fresh("c"), ctx.fresh("f"), ctx.fresh("w")
        ctx.line(f"{cst} = arith.constant {float_literal(identity, t.dtype)} : {t.dtype}")
        ctx.line(f"{filled} = linalg.fill ins({cst} : {t.dtype}) outs({init} : {tensor_type(t)}) -> {tensor_type(t)}")
        window_t = TensorType(tuple(a["window"]), t.dtype)
        ctx.line(f"{window} = tensor.empty() : {tensor_type(window_t)}")
        name_ = result_name(ctx, node)
        if not a.get("generic"):
            return _named_window_op(ctx, name_, name, a, (operands[0], image), (window, window_t), (filled, t))
        _, iterators, maps = _window_maps(POOL_LAYOUTS[layout], a)

        def body(b: Body, x: list[str]) -> str:
            if kind == "sum":
                return b.op(f"arith.add{'i' if t.dtype == 'i32' else 'f'} {x[2]}, {x[0]} : {t.dtype}")
            if t.dtype == "i32":
                return b.op(f"arith.{kind}si {x[2]}, {x[0]} : {t.dtype}")
            return _maxmin(kind)(b, [x[2], x[0]], t.dtype)

        return ctx.generic(name_, [(operands[0], image), (window, window_t)], (filled, t), maps, iterators, body)

    return emit


def _pool_bound(name: str) -> Callable:
    def bound(bs: Sequence[float], attrs: Mapping[str, Any], types: Sequence[TensorType]) -> float:
        return bs[0] * math.prod(attrs["window"]) if POOLINGS[name][1] == "sum" else bs[0]

    return bound


def _pool_propose(name: str) -> Callable:
    image_l = POOL_LAYOUTS[POOLINGS[name][0]][0]

    def propose(draw: Callable, pool: Any) -> tuple[tuple[str, ...], dict] | None:
        spatial = [l for l in image_l if l in SPATIAL]
        window, strides, dilations, outs = _draw_window(draw, pool, len(spatial))
        dtype = draw(pool.st.sampled_from(pool.dtypes_among(("f32", "f16", "i32"))))
        dims: dict[str, Dim] = {"n": _small_dim(draw, pool, 3), "c": _small_dim(draw, pool, 16)}
        for i, x in enumerate(spatial):
            dims[x] = (outs[i] - 1) * strides[i] + (window[i] - 1) * dilations[i] + 1 + draw(pool.st.integers(0, strides[i] - 1))
        image = _padded_image(draw, pool, image_l, dims, dtype, max_bound=50)
        return (image,), {"window": window, "strides": strides, "dilations": dilations, "generic": draw(pool.st.booleans())}

    return propose


for _name in POOLINGS:
    register(OpSpec(_name, _pool_infer(_name), _pool_emit(_name), _pool_bound(_name), _pool_propose(_name),
                    has_generic_form=True, family="convolution"))


# ---------------------------------------------------------------------------------------------
# softmax and normalizations over one dim. softmax is linalg.softmax or its decomposition (max, sub,
# exp, sum, div); layer_norm / rms_norm are the reductions with broadcasts back that model importers
# emit: reduce into a fresh tensor, then an elementwise generic reading the reduction broadcast back.

NORMS = ("softmax", "layer_norm", "rms_norm")


def _norm_infer(name: str) -> Callable:
    def infer(types: Sequence[TensorType], attrs: Mapping[str, Any]) -> TensorType:
        (t,) = types
        if not is_float(t) or not 0 <= attrs["dim"] < len(t.shape):
            raise ValueError(f"{name} over dim {attrs['dim']} of {t!r}")
        return t

    return infer


def _reduce_into(ctx: EmitContext, x: str, t: TensorType, dim: int, identity: float,
                 combine: Callable[[Body, str, str], str]) -> str:
    """Reduce ``x`` over ``dim`` into a fresh tensor filled with ``identity``; ``combine(b, acc, element)``."""
    rank = len(t.shape)
    kept = [i for i in range(rank) if i != dim]
    rt = TensorType(tuple(t.shape[i] for i in kept), t.dtype)
    cst, filled = ctx.fresh("c"), ctx.fresh("f")
    ctx.line(f"{cst} = arith.constant {float_literal(identity, t.dtype)} : {t.dtype}")
    ctx.line(f"{filled} = linalg.fill ins({cst} : {t.dtype}) outs({ctx.empty(rt)} : {tensor_type(rt)}) -> {tensor_type(rt)}")
    return ctx.generic(ctx.fresh("r"), [(x, t)], (filled, rt), [identity_map(rank), projected_map(rank, kept)],
                       ["reduction" if i == dim else "parallel" for i in range(rank)], lambda b, a: combine(b, a[1], a[0]))


def _with_reduced(ctx: EmitContext, x: str, t: TensorType, reduced: str, dim: int, out: str, result: str,
                  fn: Callable[[Body, str, str], str]) -> str:
    """An elementwise generic over ``x`` reading ``reduced`` broadcast back along ``dim``: ``fn(b, x, r)``."""
    rank = len(t.shape)
    rt = TensorType(tuple(d for i, d in enumerate(t.shape) if i != dim), t.dtype)
    return ctx.generic(result, [(x, t), (reduced, rt)], (out, t),
                       [identity_map(rank), projected_map(rank, [i for i in range(rank) if i != dim]), identity_map(rank)],
                       ["parallel"] * rank, lambda b, a: fn(b, a[0], a[1]))


def _dim_as_float(ctx: EmitContext, t: TensorType, dim: int) -> str:
    """The size of ``dim`` as a float of ``t``'s dtype (read at run time when the dim is symbolic)."""
    d, name = t.shape[dim], ctx.fresh("size")
    if isinstance(d, int):
        ctx.line(f"{name} = arith.constant {float_literal(d, t.dtype)} : {t.dtype}")
        return name
    wide = ctx.fresh("size")
    ctx.line(f"{wide} = arith.index_cast {ctx.dim_values[d]} : index to i64")
    ctx.line(f"{name} = arith.sitofp {wide} : i64 to {t.dtype}")
    return name


def _norm_emit(name: str) -> Callable:
    def emit(ctx: EmitContext, node: Any, operands: Sequence[str]) -> str:
        x, t, dim, dt = operands[0], node.type, node.attrs["dim"], node.type.dtype
        out, result = ctx.init_for(node.index, node, operands), result_name(ctx, node)
        add = lambda b, u, v: b.op(f"arith.addf {u}, {v} : {dt}")
        if name == "softmax" and not node.attrs.get("decomposed"):
            ctx.line(f"{result} = linalg.softmax dimension({dim}) ins({x} : {tensor_type(t)}) outs({out} : "
                     f"{tensor_type(t)}) -> {tensor_type(t)}")
            return result
        if name == "softmax":
            m = _reduce_into(ctx, x, t, dim, float("-inf"), lambda b, u, v: _maxmin("max")(b, [u, v], dt))
            e = _with_reduced(ctx, x, t, m, dim, ctx.empty(t), ctx.fresh("r"),
                              lambda b, u, v: b.op(f"math.exp {b.op(f'arith.subf {u}, {v} : {dt}')} : {dt}"))
            total = _reduce_into(ctx, e, t, dim, 0.0, add)
            return _with_reduced(ctx, e, t, total, dim, out, result, lambda b, u, v: b.op(f"arith.divf {u}, {v} : {dt}"))
        n, eps = _dim_as_float(ctx, t, dim), node.attrs["eps"]
        if name == "layer_norm":
            total = _reduce_into(ctx, x, t, dim, 0.0, add)
            x = _with_reduced(ctx, x, t, total, dim, ctx.empty(t), ctx.fresh("r"),
                              lambda b, u, v: b.op(f"arith.subf {u}, {b.op(f'arith.divf {v}, {n} : {dt}')} : {dt}"))
        squares = _reduce_into(ctx, x, t, dim, 0.0,
                               lambda b, acc, u: b.op(f"arith.addf {acc}, {b.op(f'arith.mulf {u}, {u} : {dt}')} : {dt}"))

        def scale(b: Body, u: str, v: str) -> str:
            mean = b.op(f"arith.divf {v}, {n} : {dt}")
            shifted = b.op(f"arith.addf {mean}, {b.const(eps, dt)} : {dt}")
            return b.op(f"arith.mulf {u}, {b.op(f'math.rsqrt {shifted} : {dt}')} : {dt}")

        return _with_reduced(ctx, x, t, squares, dim, out, result, scale)

    return emit


def _norm_bound(name: str) -> Callable:
    def bound(bs: Sequence[float], attrs: Mapping[str, Any], types: Sequence[TensorType]) -> float:
        d = types[0].shape[attrs["dim"]]
        return 1.0 if name == "softmax" else math.sqrt(d if isinstance(d, int) else MAX_SYMBOL_SIZE)

    return bound


def _norm_propose(name: str) -> Callable:
    def propose(draw: Callable, pool: Any) -> tuple[tuple[str, ...], dict] | None:
        src = pool.pick(draw, lambda t, bound: is_float(t) and len(t.shape) >= 1 and bound <= (50 if name == "softmax" else 8))
        if src is None:
            return None
        attrs: dict[str, Any] = {"dim": draw(pool.st.integers(0, len(pool.type(src).shape) - 1))}
        if name == "softmax":
            attrs["decomposed"] = draw(pool.st.booleans())
        else:
            attrs["eps"] = draw(pool.st.sampled_from((1e-5, 1e-2)))
        return (src,), attrs

    return propose


for _name in NORMS:
    register(OpSpec(_name, _norm_infer(_name), _norm_emit(_name), _norm_bound(_name), _norm_propose(_name),
                    family="normalization"))


# ---------------------------------------------------------------------------------------------
# contractions by einsum spec (several reduction dims, transposed and broadcast operands, matvec /
# vecmat) and dequantizing matmuls. i8 operands accumulate into i32 through arith.extsi; an i8
# operand is drawn whenever i32 is (the quantized form of an i32 program).

CONTRACTIONS = {"mk,k->m": "linalg.matvec", "k,kn->n": "linalg.vecmat", "mab,abn->mn": None, "mk,nk->mn": None,
                "km,kn->mn": None, "bmk,kn->bmn": None, "bmk,bnk->bmn": None, "abk,kc->abc": None,
                "MKmk,NKnk->MNmn": "linalg.mmt4d", "bMKmk,bNKnk->bMNmn": "linalg.batch_mmt4d"}  # spec -> its named op


def _spec(spec: str) -> tuple[str, str, str, str]:
    """``"mk,kn->mn"`` -> (lhs, rhs, out, loop letters: the result's then the reduced ones)."""
    ins, out = spec.split("->")
    lhs, rhs = ins.split(",")
    reduced = "".join(dict.fromkeys(l for l in lhs + rhs if l not in out))
    return lhs, rhs, out, out + reduced


def _contract_infer(types: Sequence[TensorType], attrs: Mapping[str, Any]) -> TensorType:
    lhs, rhs, acc = types
    lhs_l, rhs_l, out_l, _ = _spec(attrs["spec"])
    if lhs.dtype != rhs.dtype or (lhs.dtype, acc.dtype) not in MATMUL_TYPES:
        raise ValueError(f"no contraction {lhs.dtype} x {rhs.dtype} -> {acc.dtype}")
    if (len(lhs.shape), len(rhs.shape), len(acc.shape)) != (len(lhs_l), len(rhs_l), len(out_l)):
        raise ValueError(f"ranks of {lhs!r}, {rhs!r}, {acc!r} do not fit {attrs['spec']}")
    dims: dict[str, Dim] = {}
    for letters, t in ((lhs_l, lhs), (rhs_l, rhs), (out_l, acc)):
        for l, d in zip(letters, t.shape):
            if dims.setdefault(l, d) != d:
                raise ValueError(f"dim {l} of {attrs['spec']} is both {dims[l]} and {d}")
    return TensorType(acc.shape, acc.dtype)


def _multiply_accumulate(b: Body, x: str, y: str, acc: str, src: str, dst: str) -> str:
    """acc + x * y in the accumulator's dtype (operands extended first: extsi for ints, extf for floats)."""
    if src != dst:
        ext = "arith.extsi" if dst == "i32" else "arith.extf"
        x, y = (b.op(f"{ext} {v} : {src} to {dst}") for v in (x, y))
    mul, add = ("arith.muli", "arith.addi") if dst == "i32" else ("arith.mulf", "arith.addf")
    return b.op(f"{add} {acc}, {b.op(f'{mul} {x}, {y} : {dst}')} : {dst}")


def _letters_map(loops: str, letters: str) -> str:
    return projected_map(len(loops), [loops.index(l) for l in letters])


def _contract_emit(ctx: EmitContext, node: Any, operands: Sequence[str]) -> str:
    lhs, rhs, acc = (ctx.graph.type_of(r) for r in node.inputs)
    lhs_l, rhs_l, out_l, loops = _spec(node.attrs["spec"])
    name, maps = result_name(ctx, node), [_letters_map(loops, l) for l in (lhs_l, rhs_l, out_l)]
    form = node.attrs.get("form", "generic")
    if form != "generic":
        op = CONTRACTIONS[node.attrs["spec"]] if form == "named" else None
        head = op or f"linalg.contract indexing_maps = [{', '.join(maps)}]"
        ctx.line(f"{name} = {head} ins({operands[0]}, {operands[1]} : {tensor_type(lhs)}, {tensor_type(rhs)}) "
                 f"outs({operands[2]} : {tensor_type(acc)}) -> {tensor_type(acc)}")
        return name
    return ctx.generic(name, [(operands[0], lhs), (operands[1], rhs)], (operands[2], acc), maps,
                       ["parallel"] * len(out_l) + ["reduction"] * (len(loops) - len(out_l)),
                       lambda b, a: _multiply_accumulate(b, a[0], a[1], a[2], lhs.dtype, acc.dtype))


def _reduced_size(spec: str, types: Sequence[TensorType]) -> int:
    lhs_l, rhs_l, out_l, loops = _spec(spec)
    dims = dict(zip(lhs_l, types[0].shape)) | dict(zip(rhs_l, types[1].shape))
    return math.prod(MAX_SYMBOL_SIZE if isinstance(dims[l], str) else dims[l] for l in loops[len(out_l):])


def _contract_bound(bs: Sequence[float], attrs: Mapping[str, Any], types: Sequence[TensorType]) -> float:
    return bs[0] * bs[1] * _reduced_size(attrs["spec"], types) + bs[2]


def _operand_dtypes(pool: Any) -> list[str]:
    """Contraction operand dtypes: those drawn, plus i8 (quantized) when i32 is."""
    drawn = {frm for frm, _ in MATMUL_TYPES if frm in pool.dtypes}
    return sorted(drawn | ({"i8"} if "i32" in pool.dtypes else set())) or ["f32"]


def _contract_propose(draw: Callable, pool: Any) -> tuple[tuple[str, ...], dict] | None:
    spec = draw(pool.st.sampled_from(sorted(CONTRACTIONS)))
    lhs_l, rhs_l, out_l, loops = _spec(spec)
    cap = {1: 65, 2: 65, 3: 17}.get(max(len(lhs_l), len(rhs_l), len(out_l)), 8)  # data-tiled (mmt4d) operands: 8
    dims = {l: _small_dim(draw, pool, cap) for l in loops}
    dtype = draw(pool.st.sampled_from(_operand_dtypes(pool)))
    lhs = pool.pick_or_arg(draw, TensorType(tuple(dims[l] for l in lhs_l), dtype), max_bound=4)
    rhs = pool.pick_or_arg(draw, TensorType(tuple(dims[l] for l in rhs_l), dtype), max_bound=4)
    acc_dtype = draw(pool.st.sampled_from(sorted({to for frm, to in MATMUL_TYPES if frm == dtype})))
    acc = pool.destination(draw, TensorType(tuple(dims[l] for l in out_l), acc_dtype))
    forms = ["generic", "contract"] + (["named"] if CONTRACTIONS[spec] else [])
    return (lhs, rhs, acc), {"spec": spec, "form": draw(pool.st.sampled_from(forms))}


register(OpSpec("contract", _contract_infer, _contract_emit, _contract_bound, _contract_propose, has_init=False,
                acc_input=2, family="contraction"))


def _dequant_infer(types: Sequence[TensorType], attrs: Mapping[str, Any]) -> TensorType:
    """x (M x K, float) times i8 weights (K x N) scaled per output channel (scales N) or per group of
    ``group`` rows (scales K/group x N), accumulated into acc (M x N)."""
    x, w, scales, acc = types
    m, k = x.shape
    k2, n = w.shape
    group = attrs["group"]
    want_scales = (n,) if not group else (k // group if isinstance(k, int) else -1, n)
    if w.dtype != "i8" or not is_float(x) or scales.dtype != x.dtype or acc.dtype != x.dtype:
        raise ValueError(f"dequant_matmul takes float x, scales and acc and i8 weights, not {[t.dtype for t in types]}")
    if k != k2 or acc.shape != (m, n) or scales.shape != want_scales or group and (not isinstance(k, int) or k % group):
        raise ValueError(f"shapes {list(types)} do not fit a dequantizing matmul (group {group})")
    return TensorType(acc.shape, acc.dtype)


def _dequant_emit(ctx: EmitContext, node: Any, operands: Sequence[str]) -> str:
    x, w, scales, acc = (ctx.graph.type_of(r) for r in node.inputs)
    dt, group, name = x.dtype, node.attrs["group"], result_name(ctx, node)
    scale_map = lambda k_dim: f"(d{k_dim} floordiv {group}, d1)" if group else "(d1)"

    def dequantize(b: Body, weight: str, scale: str) -> str:
        return b.op(f"arith.mulf {b.op(f'arith.sitofp {weight} : i8 to {dt}')}, {scale} : {dt}")

    if node.attrs.get("fused"):
        maps = [projected_map(3, [0, 2]), projected_map(3, [2, 1]), f"affine_map<(d0, d1, d2) -> {scale_map(2)}>",
                projected_map(3, [0, 1])]
        return ctx.generic(name, [(operands[0], x), (operands[1], w), (operands[2], scales)], (operands[3], acc), maps,
                           ["parallel", "parallel", "reduction"],
                           lambda b, a: _multiply_accumulate(b, a[0], dequantize(b, a[1], a[2]), a[3], dt, dt))
    wf = TensorType(w.shape, dt)
    dq = ctx.generic(ctx.fresh("r"), [(operands[1], w), (operands[2], scales)], (ctx.empty(wf), wf),
                     [identity_map(2), f"affine_map<(d0, d1) -> {scale_map(0)}>", identity_map(2)], ["parallel"] * 2,
                     lambda b, a: dequantize(b, a[0], a[1]))
    ctx.line(f"{name} = linalg.matmul ins({operands[0]}, {dq} : {tensor_type(x)}, {tensor_type(wf)}) "
             f"outs({operands[3]} : {tensor_type(acc)}) -> {tensor_type(acc)}")
    return name


def _dequant_bound(bs: Sequence[float], attrs: Mapping[str, Any], types: Sequence[TensorType]) -> float:
    k = types[0].shape[1]
    return bs[0] * bs[1] * bs[2] * (k if isinstance(k, int) else MAX_SYMBOL_SIZE) + bs[3]


def _dequant_propose(draw: Callable, pool: Any) -> tuple[tuple[str, ...], dict] | None:
    x = pool.pick(draw, lambda t, bound: len(t.shape) == 2 and is_float(t) and bound <= 4)
    if x is None:
        return None
    xt = pool.type(x)
    k, n = xt.shape[1], pool.draw_dim(draw)
    groups = [0] + ([g for g in (2, 4, 8) if k % g == 0] if isinstance(k, int) and k else [])
    group = draw(pool.st.sampled_from(groups))
    w = pool.new_arg(TensorType((k, n), "i8"))
    scales = pool.new_arg(TensorType((k // group, n) if group else (n,), xt.dtype))
    acc = pool.destination(draw, TensorType((xt.shape[0], n), xt.dtype))
    return (x, w, scales, acc), {"group": group, "fused": draw(pool.st.booleans())}


register(OpSpec("dequant_matmul", _dequant_infer, _dequant_emit, _dequant_bound, _dequant_propose, has_init=False,
                acc_input=3, family="contraction"))


# ---------------------------------------------------------------------------------------------
# attention: q (B x S x D), k (B x T x D), v (B x T x E) -> softmax(scale * q k^T, masked) v.
# Either the chain a model importer emits (matmul generic -> scale and a causal mask from
# linalg.index in a generic -> linalg.softmax -> matmul generic) or iree_linalg_ext.attention with
# the mask as an additive (0 / -inf) operand built by a generic. The causal mask keeps key t <= query s.


def _attention_infer(types: Sequence[TensorType], attrs: Mapping[str, Any]) -> TensorType:
    q, k, v = types
    if not (is_float(q) and q.dtype == k.dtype == v.dtype) or not len(q.shape) == len(k.shape) == len(v.shape) == 3:
        raise ValueError(f"attention takes three rank-3 float tensors of one dtype, not {list(types)}")
    (b, s, d), (b2, t, d2), (b3, t2, e) = q.shape, k.shape, v.shape
    if not b == b2 == b3 or d != d2 or t != t2:
        raise ValueError(f"attention shapes {list(types)} do not agree")
    return TensorType((b, s, e), q.dtype)


def _causal_mask(b: Body, masked: str, value: str, dt: str) -> str:
    """``value`` where key index (dim 2) <= query index (dim 1), else ``masked``."""
    query, key = b.op("linalg.index 1 : index"), b.op("linalg.index 2 : index")
    return b.op(f"arith.select {b.op(f'arith.cmpi ule, {key}, {query} : index')}, {value}, {masked} : {dt}")


def _attention_emit(ctx: EmitContext, node: Any, operands: Sequence[str]) -> str:
    q, k, v = (ctx.graph.type_of(r) for r in node.inputs)
    dt, a, t = q.dtype, node.attrs, node.type
    (bs, s, _), tt = q.shape, k.shape[1]
    scores_t = TensorType((bs, s, tt), dt)
    zero, neg_inf = ctx.fresh("c"), ctx.fresh("c")
    ctx.line(f"{zero} = arith.constant {float_literal(0.0, dt)} : {dt}")
    ctx.line(f"{neg_inf} = arith.constant {float_literal(float('-inf'), dt)} : {dt}")
    out, result = ctx.init_for(node.index, node, operands), result_name(ctx, node)
    if a["form"] == "linalg_ext":
        mask = ctx.generic(ctx.fresh("r"), [], (ctx.empty(scores_t), scores_t), [identity_map(3)], ["parallel"] * 3,
                           lambda b, x: _causal_mask(b, neg_inf, zero, dt) if a["causal"] else zero)
        scale = ctx.fresh("c")
        ctx.line(f"{scale} = arith.constant {float_literal(a['scale'], dt)} : {dt}")
        maps = [projected_map(5, m) for m in ([0, 1, 3], [0, 4, 3], [0, 4, 2])] + ["affine_map<(d0, d1, d2, d3, d4) -> ()>"] + \
            [projected_map(5, m) for m in ([0, 1, 4], [0, 1, 2])]
        ctx.line(f"{result} = iree_linalg_ext.attention <{{indexing_maps = [{', '.join(maps)}]}}> ins({operands[0]}, "
                 f"{operands[1]}, {operands[2]}, {scale}, {mask} : {tensor_type(q)}, {tensor_type(k)}, {tensor_type(v)}, "
                 f"{dt}, {tensor_type(scores_t)}) outs({out} : {tensor_type(t)}) {{")
        ctx.line(f"^bb0(%score{node.index}: {dt}):")
        ctx.line(f"  iree_linalg_ext.yield %score{node.index} : {dt}")
        ctx.line(f"}} -> {tensor_type(t)}")
        return result
    filled = ctx.fresh("f")
    ctx.line(f"{filled} = linalg.fill ins({zero} : {dt}) outs({ctx.empty(scores_t)} : {tensor_type(scores_t)}) -> "
             f"{tensor_type(scores_t)}")
    mac = lambda b, x: _multiply_accumulate(b, x[0], x[1], x[2], dt, dt)
    scores = ctx.generic(ctx.fresh("r"), [(operands[0], q), (operands[1], k)], (filled, scores_t),
                         [projected_map(4, m) for m in ([0, 1, 3], [0, 2, 3], [0, 1, 2])],
                         ["parallel"] * 3 + ["reduction"], mac)

    def scale_and_mask(b: Body, x: list[str]) -> str:
        scaled = b.op(f"arith.mulf {x[0]}, {b.const(a['scale'], dt)} : {dt}")
        return _causal_mask(b, neg_inf, scaled, dt) if a["causal"] else scaled

    masked = ctx.generic(ctx.fresh("r"), [(scores, scores_t)], (ctx.empty(scores_t), scores_t), [identity_map(3)] * 2,
                         ["parallel"] * 3, scale_and_mask)
    probs = ctx.fresh("r")
    ctx.line(f"{probs} = linalg.softmax dimension(2) ins({masked} : {tensor_type(scores_t)}) outs({ctx.empty(scores_t)} : "
             f"{tensor_type(scores_t)}) -> {tensor_type(scores_t)}")
    acc = ctx.fresh("f")
    ctx.line(f"{acc} = linalg.fill ins({zero} : {dt}) outs({out} : {tensor_type(t)}) -> {tensor_type(t)}")
    return ctx.generic(result, [(probs, scores_t), (operands[2], v)], (acc, t),
                       [projected_map(4, m) for m in ([0, 1, 3], [0, 3, 2], [0, 1, 2])], ["parallel"] * 3 + ["reduction"], mac)


def _attention_propose(draw: Callable, pool: Any) -> tuple[tuple[str, ...], dict] | None:
    dtype = draw(pool.st.sampled_from(pool.dtypes_among(("f32", "f16"))))
    b, d, e = _small_dim(draw, pool, 3), _small_dim(draw, pool, 17), _small_dim(draw, pool, 17)
    s = _small_dim(draw, pool, 33)
    t = s if draw(pool.st.booleans()) else _small_dim(draw, pool, 33)  # self-attention: one sequence length
    q = pool.pick_or_arg(draw, TensorType((b, s, d), dtype), max_bound=2)
    k = pool.pick_or_arg(draw, TensorType((b, t, d), dtype), max_bound=2)
    v = pool.pick_or_arg(draw, TensorType((b, t, e), dtype), max_bound=4)
    forms = ["chain", "linalg_ext"] if pool.syntax.linalg_ext_gather else ["chain"]
    return (q, k, v), {"scale": draw(pool.st.sampled_from((0.125, 0.25, 1.0))), "causal": draw(pool.st.booleans()),
                       "form": draw(pool.st.sampled_from(forms))}


register(OpSpec("attention", _attention_infer, _attention_emit, lambda bs, a, ts: bs[2], _attention_propose,
                family="contraction"))


# ---------------------------------------------------------------------------------------------
# data movement: reshapes (tensor.expand_shape / collapse_shape, views of their operand), concat,
# reverse and scatter-add. A reshape group holding a symbolic dim is that dim and 1s (its size stays
# a symbol); a concatenated dim is static in every operand.


def _dim_text(ctx: EmitContext, d: Dim) -> str:
    return ctx.dim_values[d] if isinstance(d, str) else str(d)


def _group_size(dims: Sequence[Dim]) -> Dim:
    """The one dim a reshape group stands for: a symbol with 1s, or the product of static dims."""
    symbols = [d for d in dims if isinstance(d, str)]
    if not symbols:
        return math.prod(dims)
    if len(symbols) > 1 or any(d != 1 for d in dims if isinstance(d, int)):
        raise ValueError(f"reshape group {list(dims)}: a symbolic dim is grouped with 1s only")
    return symbols[0]


def _check_groups(groups: Sequence[Sequence[int]], rank: int) -> None:
    if [i for g in groups for i in g] != list(range(rank)) or any(not g for g in groups):
        raise ValueError(f"reassociation {groups} must split 0..{rank - 1} into contiguous non-empty groups")


def _expand_infer(types: Sequence[TensorType], attrs: Mapping[str, Any]) -> TensorType:
    (t,) = types
    shape, groups = tuple(attrs["shape"]), attrs["groups"]
    _check_groups(groups, len(shape))
    if len(groups) != len(t.shape) or any(_group_size([shape[i] for i in g]) != d for g, d in zip(groups, t.shape)):
        raise ValueError(f"{t!r} does not expand to {shape} by {groups}")
    return TensorType(shape, t.dtype)


def _collapse_infer(types: Sequence[TensorType], attrs: Mapping[str, Any]) -> TensorType:
    (t,) = types
    groups = attrs["groups"]
    _check_groups(groups, len(t.shape))
    return TensorType(tuple(_group_size([t.shape[i] for i in g]) for g in groups), t.dtype)


def _reshape_emit(kind: str) -> Callable:
    def emit(ctx: EmitContext, node: Any, operands: Sequence[str]) -> str:
        src, t, name = ctx.graph.type_of(node.inputs[0]), node.type, result_name(ctx, node)
        groups = ", ".join(f"[{', '.join(map(str, g))}]" for g in node.attrs["groups"])
        shape = f" output_shape [{', '.join(_dim_text(ctx, d) for d in t.shape)}]" if kind == "expand_shape" else ""
        ctx.line(f"{name} = tensor.{kind} {operands[0]} [{groups}]{shape} : {tensor_type(src)} into {tensor_type(t)}")
        return name

    return emit


def _factor_pairs(d: Dim) -> list[tuple[Dim, ...]]:
    if isinstance(d, str):
        return [(d, 1), (1, d)]
    return [(a, d // a) for a in range(1, d + 1) if d % a == 0]


def _expand_propose(draw: Callable, pool: Any) -> tuple[tuple[str, ...], dict] | None:
    src = pool.pick(draw, lambda t, bound: 1 <= len(t.shape) <= 2 and all(pool.nonzero(d) for d in t.shape))
    if src is None:
        return None
    shape, groups = [], []
    for i, d in enumerate(pool.type(src).shape):
        parts = draw(pool.st.sampled_from(_factor_pairs(d))) if draw(pool.st.booleans()) or i == 0 else (d,)
        groups.append(list(range(len(shape), len(shape) + len(parts))))
        shape.extend(parts)
    return (src,), {"shape": shape, "groups": groups}


def _collapse_propose(draw: Callable, pool: Any) -> tuple[tuple[str, ...], dict] | None:
    def collapsible(t: TensorType) -> list[int]:  # i: dims i and i+1 may merge
        return [i for i in range(len(t.shape) - 1) if all(isinstance(d, int) for d in t.shape[i:i + 2])
                or 1 in t.shape[i:i + 2] and not all(isinstance(d, str) for d in t.shape[i:i + 2])]

    src = pool.pick(draw, lambda t, bound: bool(collapsible(t)))
    if src is None:
        return None
    t = pool.type(src)
    i = draw(pool.st.sampled_from(collapsible(t)))
    groups = [[j] for j in range(i)] + [[i, i + 1]] + [[j] for j in range(i + 2, len(t.shape))]
    return (src,), {"groups": groups}


register(OpSpec("expand_shape", _expand_infer, _reshape_emit("expand_shape"), lambda bs, a, ts: bs[0], _expand_propose,
                has_init=False, view=True, family="data-movement"))
register(OpSpec("collapse_shape", _collapse_infer, _reshape_emit("collapse_shape"), lambda bs, a, ts: bs[0],
                _collapse_propose, has_init=False, view=True, family="data-movement"))


def _concat_infer(types: Sequence[TensorType], attrs: Mapping[str, Any]) -> TensorType:
    dim, first = attrs["dim"], types[0]
    if len(types) < 2 or not 0 <= dim < len(first.shape):
        raise ValueError(f"concat of {len(types)} operands along dim {dim} of {first!r}")
    for t in types:
        rest = lambda u: (u.shape[:dim] + u.shape[dim + 1:], u.dtype, len(u.shape))
        if rest(t) != rest(first) or not isinstance(t.shape[dim], int):
            raise ValueError(f"concat operands {list(types)} differ off dim {dim} or are symbolic along it")
    shape = list(first.shape)
    shape[dim] = sum(t.shape[dim] for t in types)
    return TensorType(tuple(shape), first.dtype)


def _concat_emit(ctx: EmitContext, node: Any, operands: Sequence[str]) -> str:
    types = [ctx.graph.type_of(r) for r in node.inputs]
    name = result_name(ctx, node)
    ctx.line(f"{name} = tensor.concat dim({node.attrs['dim']}) {', '.join(operands)} : "
             f"({', '.join(tensor_type(t) for t in types)}) -> {tensor_type(node.type)}")
    return name


def _concat_propose(draw: Callable, pool: Any) -> tuple[tuple[str, ...], dict] | None:
    first = pool.pick(draw, _has_static_dim)
    if first is None:
        return None
    t = pool.type(first)
    dim = draw(pool.st.sampled_from([i for i, d in enumerate(t.shape) if isinstance(d, int)]))
    operands = [first]
    for _ in range(draw(pool.st.integers(1, 2))):
        shape = list(t.shape)
        shape[dim] = draw(pool.st.sampled_from((1, 2, 3, 5, 8, 16)))
        operands.append(pool.pick_or_arg(draw, TensorType(tuple(shape), t.dtype)))
    return tuple(draw(pool.st.permutations(operands))), {"dim": dim}


register(OpSpec("concat", _concat_infer, _concat_emit, lambda bs, a, ts: max(bs), _concat_propose, has_init=False,
                family="data-movement"))


def _reverse_infer(types: Sequence[TensorType], attrs: Mapping[str, Any]) -> TensorType:
    (t,) = types
    dims = list(attrs["dims"])
    if not dims or sorted(set(dims)) != dims or not all(0 <= d < len(t.shape) for d in dims):
        raise ValueError(f"reverse dims {dims} of {t!r}")
    if attrs.get("form") == "map" and any(isinstance(t.shape[d], str) for d in dims):
        raise ValueError("the indexing-map form reverses static dims only (d -> size - 1 - d)")
    return TensorType(t.shape, t.dtype)


def _reverse_emit(ctx: EmitContext, node: Any, operands: Sequence[str]) -> str:
    """A generic reading the operand at ``size - 1 - i`` along the reversed dims: by its indexing map
    (static sizes) or by tensor.extract at indices computed from linalg.index and the size."""
    src, t, dims, rank = ctx.graph.type_of(node.inputs[0]), node.type, node.attrs["dims"], len(node.type.shape)
    out, name = ctx.init_for(node.index, node, operands), result_name(ctx, node)
    if node.attrs.get("form") == "map":
        exprs = [f"{t.shape[i] - 1} - d{i}" if i in dims else f"d{i}" for i in range(rank)]
        head = ", ".join(f"d{i}" for i in range(rank))
        return ctx.generic(name, [(operands[0], src)], (out, t), [f"affine_map<({head}) -> ({', '.join(exprs)})>",
                           identity_map(rank)], ["parallel"] * rank, lambda b, a: a[0])

    def body(b: Body, a: list[str]) -> str:
        index = [b.op(f"linalg.index {i} : index") for i in range(rank)]
        for i in dims:
            d = t.shape[i]
            size = ctx.dim_values[d] if isinstance(d, str) else b.op(f"arith.constant {d} : index")
            last = b.op(f"arith.subi {size}, {b.op('arith.constant 1 : index')} : index")
            index[i] = b.op(f"arith.subi {last}, {index[i]} : index")
        return b.op(f"tensor.extract {operands[0]}[{', '.join(index)}] : {tensor_type(src)}")

    return ctx.generic(name, [], (out, t), [identity_map(rank)], ["parallel"] * rank, body)


def _reverse_propose(draw: Callable, pool: Any) -> tuple[tuple[str, ...], dict] | None:
    src = pool.pick(draw, lambda t, bound: len(t.shape) >= 1)
    if src is None:
        return None
    t = pool.type(src)
    dims = sorted(draw(pool.st.sets(pool.st.integers(0, len(t.shape) - 1), min_size=1)))
    static = all(isinstance(t.shape[d], int) for d in dims)
    return (src,), {"dims": dims, "form": draw(pool.st.sampled_from(("map", "extract") if static else ("extract",)))}


register(OpSpec("reverse", _reverse_infer, _reverse_emit, lambda bs, a, ts: bs[0], _reverse_propose,
                family="data-movement"))


def _scatter_infer(types: Sequence[TensorType], attrs: Mapping[str, Any]) -> TensorType:
    """updates (U x D...) added into rows of original (R x D...) picked by i32 indices (U) in [0, R)."""
    updates, idx, original = types
    if len(idx.shape) != 1 or idx.dtype != "i32" or idx.index_bound != original.shape[0]:
        raise ValueError(f"scatter indices {idx!r} must be i32 bounded by the original's rows ({original.shape[0]})")
    if updates.shape[0] != idx.shape[0] or updates.shape[1:] != original.shape[1:] or updates.dtype != original.dtype:
        raise ValueError(f"scatter shapes {list(types)} do not agree")
    if original.dtype not in ("f32", "f16", "i32"):
        raise ValueError(f"scatter-add is not drawn on {original.dtype}")
    return TensorType(original.shape, original.dtype)


def _scatter_emit(ctx: EmitContext, node: Any, operands: Sequence[str]) -> str:
    updates, idx, original = (ctx.graph.type_of(r) for r in node.inputs)
    idx2, expanded, name, dt = TensorType((idx.shape[0], 1), "i32"), ctx.fresh("x"), result_name(ctx, node), node.type.dtype
    ctx.line(f"{expanded} = tensor.expand_shape {operands[1]} [[0, 1]] output_shape [{_dim_text(ctx, idx.shape[0])}, 1] "
             f": {tensor_type(idx)} into {tensor_type(idx2)}")
    update, old, add = ctx.fresh("u"), ctx.fresh("o"), "arith.addf" if is_float(node.type) else "arith.addi"
    _region(ctx, f"{name} = iree_linalg_ext.scatter dimension_map = [0] unique_indices(false) ins({operands[0]}, "
                 f"{expanded} : {tensor_type(updates)}, {tensor_type(idx2)}) outs({operands[2]} : {tensor_type(original)})",
            [(update, dt), (old, dt)], lambda b: f"{b.op(f'{add} {old}, {update} : {dt}')} : {dt}",
            f"-> {tensor_type(original)}")
    return name


def _scatter_bound(bs: Sequence[float], attrs: Mapping[str, Any], types: Sequence[TensorType]) -> float:
    u = types[0].shape[0]
    return bs[2] + bs[0] * (u if isinstance(u, int) else MAX_SYMBOL_SIZE)


def _scatter_propose(draw: Callable, pool: Any) -> tuple[tuple[str, ...], dict] | None:
    if not pool.syntax.linalg_ext_gather:  # iree_linalg_ext as IREE >= 3.9 spells it
        return None
    dtype = draw(pool.st.sampled_from(pool.dtypes_among(("f32", "f16", "i32"))))
    rows, rest = _small_dim(draw, pool, 17), [_small_dim(draw, pool, 17) for _ in range(draw(pool.st.integers(0, 2)))]
    if not pool.nonzero(rows):
        return None
    n = _small_dim(draw, pool, 33)
    updates = pool.pick_or_arg(draw, TensorType((n, *rest), dtype), max_bound=8)
    idx = pool.new_arg(TensorType((n,), "i32", index_bound=rows))
    return (updates, idx, pool.destination(draw, TensorType((rows, *rest), dtype))), {}


register(OpSpec("scatter", _scatter_infer, _scatter_emit, _scatter_bound, _scatter_propose, has_init=False, acc_input=2,
                family="data-movement"))


# ---------------------------------------------------------------------------------------------
# data tiling: linalg.pack tiles some static dims (inner_dims_pos / inner_tiles, padded with a value when
# a tile does not divide its dim), linalg.unpack undoes it (and drops the padding). Their own lowering
# pipeline on CPU (DataTiling), as linalg.mmt4d (a contraction spec) has its own (Mmt4dTilingExpert).


def _packed_shape(shape: Sequence[Dim], positions: Sequence[int], tiles: Sequence[int]) -> tuple[Dim, ...]:
    if len(positions) != len(tiles) or len(set(positions)) != len(positions) or not positions:
        raise ValueError(f"inner_dims_pos {list(positions)} and inner_tiles {list(tiles)} must pair up, once per dim")
    outer = list(shape)
    for pos, tile in zip(positions, tiles):
        if not 0 <= pos < len(shape) or not isinstance(shape[pos], int) or shape[pos] < 1 or tile < 1:
            raise ValueError(f"dim {pos} of {list(shape)} is not a static dim a tile of {tile} can tile")
        outer[pos] = -(-shape[pos] // tile)
    return tuple(outer) + tuple(tiles)


def pack_array(xp: Any, x: Any, positions: Sequence[int], tiles: Sequence[int], padding: float | None) -> Any:
    """linalg.pack: each tiled dim padded up to a multiple of its tile, split into (outer, tile), the tiles last."""
    widths = [(0, 0)] * x.ndim
    for p, tile in zip(positions, tiles):
        widths[p] = (0, -x.shape[p] % tile)
    x = xp.pad(x, widths, constant_values=padding or 0)
    split, tile_axes = [], {}
    for i, d in enumerate(x.shape):
        if i in positions:
            tile = tiles[list(positions).index(i)]
            split += [d // tile, tile]
            tile_axes[i] = len(split) - 1
        else:
            split.append(d)
    outer = [a for a in range(len(split)) if a not in tile_axes.values()]
    return xp.transpose(xp.reshape(x, split), outer + [tile_axes[p] for p in positions])


def unpack_array(xp: Any, x: Any, positions: Sequence[int], tiles: Sequence[int], shape: Sequence[int]) -> Any:
    """linalg.unpack: each tile moved back behind its outer dim, merged, the padding sliced off."""
    rank = len(shape)
    order = []
    for i in range(rank):
        order.append(i)
        if i in positions:
            order.append(rank + list(positions).index(i))
    merged = xp.reshape(xp.transpose(x, order), [x.shape[i] * (tiles[list(positions).index(i)] if i in positions else 1)
                                                 for i in range(rank)])
    return merged[tuple(slice(0, d) for d in shape)]


def _pack_infer(types: Sequence[TensorType], attrs: Mapping[str, Any]) -> TensorType:
    (t,) = types
    positions, tiles = attrs["inner_dims_pos"], attrs["inner_tiles"]
    ragged = any(t.shape[p] % tile for p, tile in zip(positions, tiles) if isinstance(t.shape[p], int))
    if ragged and attrs.get("padding") is None:
        raise ValueError("a tile that does not divide its dim needs a padding value")
    return TensorType(_packed_shape(t.shape, positions, tiles), t.dtype)


def _unpack_infer(types: Sequence[TensorType], attrs: Mapping[str, Any]) -> TensorType:
    (t,) = types
    shape = tuple(attrs["shape"])
    if _packed_shape(shape, attrs["inner_dims_pos"], attrs["inner_tiles"]) != t.shape:
        raise ValueError(f"{t!r} is not {shape} packed by {attrs['inner_dims_pos']} / {attrs['inner_tiles']}")
    return TensorType(shape, t.dtype)


def _tiling_text(attrs: Mapping[str, Any]) -> str:
    return (f"inner_dims_pos = [{', '.join(map(str, attrs['inner_dims_pos']))}] "
            f"inner_tiles = [{', '.join(map(str, attrs['inner_tiles']))}]")


def _pack_emit(kind: str) -> Callable:
    def emit(ctx: EmitContext, node: Any, operands: Sequence[str]) -> str:
        src, t, name = ctx.graph.type_of(node.inputs[0]), node.type, result_name(ctx, node)
        dest, padding = ctx.init_for(node.index, node, operands), ""
        if kind == "pack" and node.attrs.get("padding") is not None:
            cst = ctx.fresh("c")
            ctx.line(f"{cst} = arith.constant {float_literal(node.attrs['padding'], t.dtype)} : {t.dtype}")
            padding = f" padding_value({cst} : {t.dtype})"
        ctx.line(f"{name} = linalg.{kind} {operands[0]}{padding} {_tiling_text(node.attrs)} into {dest} : "
                 f"{tensor_type(src)} -> {tensor_type(t)}")
        return name

    return emit


def _draw_tiling(draw: Callable, pool: Any, shape: Sequence[Dim]) -> tuple[list[int], list[int]] | None:
    static = [i for i, d in enumerate(shape) if isinstance(d, int) and d >= 1]
    if not static:
        return None
    positions = draw(pool.st.permutations(static))[: draw(pool.st.integers(1, len(static)))]
    return list(positions), [draw(pool.st.sampled_from((1, 2, 3, 4, 8, 16))) for _ in positions]


def _pack_propose(draw: Callable, pool: Any) -> tuple[tuple[str, ...], dict] | None:
    src = pool.pick(draw, lambda t, bound: 1 <= len(t.shape) <= 3 and t.dtype in ("f32", "f16", "i32", "i8"))
    tiling = src and _draw_tiling(draw, pool, pool.type(src).shape)
    if not tiling:
        return None
    t = pool.type(src)
    ragged = any(t.shape[p] % tile for p, tile in zip(*tiling))
    padding = draw(pool.st.sampled_from((0, 1) if t.dtype in INT_DTYPES else (0.0, -1.5))) if ragged else None
    return (src,), {"inner_dims_pos": tiling[0], "inner_tiles": tiling[1], "padding": padding}


def _unpack_propose(draw: Callable, pool: Any) -> tuple[tuple[str, ...], dict] | None:
    shape = pool.draw_shape(draw, 1, 2)
    tiling = _draw_tiling(draw, pool, shape)
    if not tiling:
        return None
    dtype = draw(pool.st.sampled_from(pool.dtypes_among(("f32", "f16", "i32"))))
    packed = pool.pick_or_arg(draw, TensorType(_packed_shape(shape, *tiling), dtype))
    return (packed,), {"inner_dims_pos": tiling[0], "inner_tiles": tiling[1], "shape": list(shape)}


register(OpSpec("pack", _pack_infer, _pack_emit("pack"), lambda bs, a, ts: max(bs[0], abs(a.get("padding") or 0)),
                _pack_propose, family="data-movement"))
register(OpSpec("unpack", _unpack_infer, _pack_emit("unpack"), lambda bs, a, ts: bs[0], _unpack_propose,
                family="data-movement"))


# ---------------------------------------------------------------------------------------------
# sorting and selection, each with an index output: sort (iree_linalg_ext.sort of values and their
# positions, ties broken by position, so both results are well defined), topk (iree_linalg_ext.topk
# along the last dim, k static) and argmax (a generic reduction with two results: the first position
# of the maximum). A node is one of the two results (``result``: "values" or "indices", i32).

SORTED_DTYPES = ("f32", "f16", "i32")


def _selected_shape(t: TensorType, attrs: Mapping[str, Any], op: str) -> tuple[Dim, ...]:
    dim = attrs["dim"]
    if not 0 <= dim < len(t.shape) or t.dtype not in SORTED_DTYPES or attrs["result"] not in ("values", "indices"):
        raise ValueError(f"{op} of {t!r} along dim {dim} ({attrs['result']})")
    if op == "argmax":
        return t.shape[:dim] + t.shape[dim + 1:]
    if op == "topk":
        if dim != len(t.shape) - 1 or not isinstance(t.shape[dim], int) or not 1 <= attrs["k"] <= t.shape[dim]:
            raise ValueError(f"topk takes k in [1, {t.shape[dim]}] along the static last dim")
        return t.shape[:dim] + (attrs["k"],)
    return t.shape


def _selection_infer(op: str) -> Callable:
    def infer(types: Sequence[TensorType], attrs: Mapping[str, Any]) -> TensorType:
        (t,) = types
        return TensorType(_selected_shape(t, attrs, op), t.dtype if attrs["result"] == "values" else "i32")

    return infer


def _pair_names(ctx: EmitContext, node: Any) -> str:
    """``%values, %indices`` of a two-result op: the node's own name on the result it stands for."""
    other = ctx.fresh("other")
    return f"%n{node.index}, {other}" if node.attrs["result"] == "values" else f"{other}, %n{node.index}"


def _filled(ctx: EmitContext, t: TensorType, value: float) -> str:
    cst, name = ctx.fresh("c"), ctx.fresh("f")
    ctx.line(f"{cst} = arith.constant {float_literal(value, t.dtype)} : {t.dtype}")
    ctx.line(f"{name} = linalg.fill ins({cst} : {t.dtype}) outs({ctx.empty(t)} : {tensor_type(t)}) -> {tensor_type(t)}")
    return name


def _lowest(dtype: str) -> float:
    return -(2 ** 31) if dtype == "i32" else float("-inf")


def _compare(b: Body, pred: str, x: str, y: str, dtype: str) -> str:
    """``x pred y`` for pred lt / gt / eq, ordered (floats) or signed (integers)."""
    if dtype in FLOAT_DTYPES:
        return b.op(f"arith.cmpf o{pred}, {x}, {y} : {dtype}")
    return b.op(f"arith.cmpi {'eq' if pred == 'eq' else 's' + pred}, {x}, {y} : {dtype}")


def _first_of(b: Body, x: str, y: str, i: str, j: str, dtype: str, pred: str) -> str:
    """x before y: ``x pred y``, or equal and an earlier position."""
    tie = b.op(f"arith.andi {_compare(b, 'eq', x, y, dtype)}, {b.op(f'arith.cmpi slt, {i}, {j} : i32')} : i1")
    return b.op(f"arith.ori {_compare(b, pred, x, y, dtype)}, {tie} : i1")


def _positions(ctx: EmitContext, t: TensorType, dim: int) -> str:
    shape = TensorType(t.shape, "i32")
    return ctx.generic(ctx.fresh("r"), [], (ctx.empty(shape), shape), [identity_map(len(t.shape))],
                       ["parallel"] * len(t.shape),
                       lambda b, a: b.op(f"arith.index_cast {b.op(f'linalg.index {dim} : index')} : index to i32"))


def _region(ctx: EmitContext, head: str, args: Sequence[tuple[str, str]], body: Callable[[Body], str], tail: str,
            terminator: str = "iree_linalg_ext.yield") -> None:
    """``head {`` then a block with ``args`` (name, type) whose ``body`` returns what it yields, then ``} tail``."""
    b = Body(ctx)
    yielded = body(b)
    ctx.line(f"{head} {{")
    ctx.line(f"^bb0({', '.join(f'{a}: {t}' for a, t in args)}):")
    ctx.lines.extend(f"  {line}" for line in b.lines)
    ctx.line(f"  {terminator} {yielded}")
    ctx.line(f"}} {tail}")


def _sort_emit(ctx: EmitContext, node: Any, operands: Sequence[str], src: TensorType, vt: TensorType, it: TensorType) -> None:
    """The values (a copy: sort works in place on its outs) sorted with their positions, ties by position."""
    dim, dt, rank = node.attrs["dim"], src.dtype, len(src.shape)
    copy = ctx.generic(ctx.fresh("r"), [(operands[0], src)], (ctx.empty(vt), vt), [identity_map(rank)] * 2,
                       ["parallel"] * rank, lambda b, x: x[0])
    x, y, i, j = (ctx.fresh(p) for p in "xyij")
    _region(ctx, f"{_pair_names(ctx, node)} = iree_linalg_ext.sort dimension({dim}) outs({copy}, "
                 f"{_positions(ctx, src, dim)} : {tensor_type(vt)}, {tensor_type(it)})",
            [(x, dt), (y, dt), (i, "i32"), (j, "i32")], lambda b: f"{_first_of(b, x, y, i, j, dt, 'lt')} : i1",
            f"-> {tensor_type(vt)}, {tensor_type(it)}")


def _topk_emit(ctx: EmitContext, node: Any, operands: Sequence[str], src: TensorType, vt: TensorType, it: TensorType) -> None:
    dt, x, y = src.dtype, ctx.fresh("x"), ctx.fresh("y")
    outs = f"{_filled(ctx, vt, _lowest(dt))}, {_filled(ctx, it, 0)} : {tensor_type(vt)}, {tensor_type(it)}"
    _region(ctx, f"{_pair_names(ctx, node)} = iree_linalg_ext.topk dimension({node.attrs['dim']}) "
                 f"ins({operands[0]} : {tensor_type(src)}) outs({outs})",
            [(x, dt), (y, dt)], lambda b: f"{_compare(b, 'gt', x, y, dt)} : i1", f"-> {tensor_type(vt)}, {tensor_type(it)}")


def _argmax_emit(ctx: EmitContext, node: Any, operands: Sequence[str], src: TensorType, vt: TensorType, it: TensorType) -> None:
    """A generic reduction with two results: the maximum and its first position."""
    dim, dt, rank = node.attrs["dim"], src.dtype, len(src.shape)
    kept = projected_map(rank, [i for i in range(rank) if i != dim])
    iterators = ", ".join('"reduction"' if d == dim else '"parallel"' for d in range(rank))
    outs = f"{_filled(ctx, vt, _lowest(dt))}, {_filled(ctx, it, 0)} : {tensor_type(vt)}, {tensor_type(it)}"
    x, v, i = ctx.fresh("b"), ctx.fresh("b"), ctx.fresh("b")

    def body(b: Body) -> str:
        at = b.op(f"arith.index_cast {b.op(f'linalg.index {dim} : index')} : index to i32")
        take = _first_of(b, x, v, at, i, dt, "gt")
        return f"{b.op(f'arith.select {take}, {x}, {v} : {dt}')}, {b.op(f'arith.select {take}, {at}, {i} : i32')} : {dt}, i32"

    _region(ctx, f"{_pair_names(ctx, node)} = linalg.generic {{indexing_maps = [{identity_map(rank)}, {kept}, {kept}], "
                 f"iterator_types = [{iterators}]}} ins({operands[0]} : {tensor_type(src)}) outs({outs})",
            [(x, dt), (v, dt), (i, "i32")], body, f"-> ({tensor_type(vt)}, {tensor_type(it)})", terminator="linalg.yield")


SELECTION_EMITTERS = {"sort": _sort_emit, "topk": _topk_emit, "argmax": _argmax_emit}


def _selection_emit(op: str) -> Callable:
    def emit(ctx: EmitContext, node: Any, operands: Sequence[str]) -> str:
        src = ctx.graph.type_of(node.inputs[0])
        shape = _selected_shape(src, node.attrs, op)
        SELECTION_EMITTERS[op](ctx, node, operands, src, TensorType(shape, src.dtype), TensorType(shape, "i32"))
        return result_name(ctx, node)

    return emit


def _selection_bound(op: str) -> Callable:
    def bound(bs: Sequence[float], attrs: Mapping[str, Any], types: Sequence[TensorType]) -> float:
        if attrs["result"] == "values":
            return bs[0]
        d = types[0].shape[attrs["dim"]]
        return float(d if isinstance(d, int) else MAX_SYMBOL_SIZE)

    return bound


def _selection_propose(op: str) -> Callable:
    def propose(draw: Callable, pool: Any) -> tuple[tuple[str, ...], dict] | None:
        if op != "argmax" and not pool.syntax.linalg_ext_gather:  # iree_linalg_ext as IREE >= 3.9 spells it
            return None
        last_static = lambda t: isinstance(t.shape[-1], int) and t.shape[-1] >= 1
        src = pool.pick(draw, lambda t, bound: len(t.shape) >= 1 and t.dtype in SORTED_DTYPES
                        and (op != "topk" or last_static(t)))
        if src is None:
            return None
        t = pool.type(src)
        dim = len(t.shape) - 1 if op == "topk" else draw(pool.st.integers(0, len(t.shape) - 1))
        attrs: dict[str, Any] = {"dim": dim, "result": draw(pool.st.sampled_from(("values", "indices")))}
        if op == "topk":
            attrs["k"] = draw(pool.st.integers(1, min(t.shape[-1], 8)))
        return (src,), attrs

    return propose


for _op in ("sort", "topk", "argmax"):
    register(OpSpec(_op, _selection_infer(_op), _selection_emit(_op), _selection_bound(_op), _selection_propose(_op),
                    has_init=False, family="sorting"))


OP_NAMES = tuple(sorted(OPS))
FAMILIES = ("elementwise", "producer", "contraction", "reduction", "data-movement", "convolution", "normalization",
            "sorting")


def ops_of(family: str) -> tuple[str, ...]:
    return tuple(name for name in OP_NAMES if OPS[name].family == family)


if set(FAMILIES) != {spec.family for spec in OPS.values()}:
    raise ImportError(f"op families {sorted({s.family for s in OPS.values()})} must be exactly FAMILIES {FAMILIES}")
