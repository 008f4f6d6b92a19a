"""Model patterns from the bug tracker (docs/model-patterns.md), in the forms the frontends hand to IREE.

- ``take``: a 1-D gather, ``out[i] = src[idx[i]]`` (torch ``index_select`` / ``aten.index.Tensor`` on a
  vector: a ``linalg.generic`` whose body reads ``src`` with ``tensor.extract`` at an ``arith.index_cast``
  index). Its source may itself be an index vector (i32, bounded by a table's rows): the result then indexes
  that table (``gather`` takes it), an index read from one tensor used to index another -- the data-dependent
  index chains of embedding lookups, paged KV caches and MoE routing (#23464, #19347, #19410).
- ``take_along``: ``out[i] = src[i, idx[i]]``, a column computed per row (torch.gather, NLLLoss's target pick: #14934),
  with an ignore_index whose rows give 0, read by ``tensor.extract`` at the clamped index as torch-mlir writes it.
- ``causal_mask``: ``where(j <= i + offset, x, fill)`` over the last two dims, the mask computed from the
  positions (``linalg.index``, ``arith.cmpi``, ``arith.select``: torch ``tril`` / an attention mask built
  from iotas).
- ``quantize`` / ``dequantize``: ONNX ``QuantizeLinear`` / ``DequantizeLinear`` as torch-mlir lowers them
  (``divf`` by the scale, ``math.roundeven``, ``addf`` of the zero point, a clamp, ``fptosi`` to i8; and
  ``sitofp``, ``subf`` of the zero point, ``mulf`` by the scale), so a float program goes through i8 (and
  an i8 x i8 -> i32 contraction, drawn from the contraction family) and back: an integer-quantized path end
  to end (#22865, #18199, #18005, #19005). Scales are powers of two, so the float64 arbiter and the program
  round alike.
- ``expert_matmul``: MoE routing, ``out[e, t, o] = acc + sum_k W[ids[e, t], o, k] * x[k, t]``: the expert weights
  gathered by rank-2 ids (``iree_linalg_ext.gather`` from 3.9, else a ``tensor.extract`` generic) into a rank-4
  tensor that feeds a contraction (#23464: the fused gather's tile exceeded the stack limit on znver4; gathered by
  rank-1 ids the same program only allocates).
- ``cond``: ``lax.cond`` with two results, ``(r0, r1) = (x, y) if p else (x + y, x * y)``, read together (``r0 + r1``):
  an ``scf.if`` on a rank-0 i1 argument around the dispatches of one branch. Its results are two tensors of one
  type, which IREE's stream allocation packs into one buffer at offsets the branches compute (stop 46's loops
  spike: the second result's offset folded to 0, dynamic 2-D shapes).
- ``fori_loop``: ``lax.fori_loop`` over a fixed trip count (1-3) as JAX hands it to IREE, an ``scf.while`` on an i32
  counter: one carried tensor ``x <- x * 0.5 + y`` (``y`` read from outside the loop), or two ``(x, y) <- (x * 0.5,
  y + x)``; either way ``x + y`` read after it. The body sizes its tensors as JAX does (dims from outside the loop) or
  as torch-mlir does (``tensor.dim`` of the carried tensor), and adds ``y + x`` in either operand order. Two carried
  dynamic tensors are where stream allocation and conversion fail (stop 46's loops spike; stop 47: the cond's packed
  results with ``y + x``, an ``iree-stream-conversion`` error with ``x + y``).
"""

from __future__ import annotations

from typing import Any, Callable, Mapping, Sequence

from ..tensor import FLOAT_DTYPES, TensorType
from .kit import (
    Body,
    EmitContext,
    OpSpec,
    identity_map,
    is_float,
    matmul_lhs,
    maxmin,
    multiply_accumulate,
    one_operand_generic,
    projected_map,
    register,
    result_name,
    size_bound,
    small_dim,
    tensor_type,
)

MASKED_DTYPES = ("f32", "f16", "bf16", "i32", "i64", "i16")
QUANT_SCALES = (0.25, 0.5, 1.0, 2.0)  # powers of two: x / scale is exact
DEQUANT_SCALES = (2.0**-6, 2.0**-4, 0.125, 0.5, 1.0)
CLAMPS = ((-128, 127), (-8, 7), (-4, 3))  # int8, and int4-like ranges that clamp the drawn values


# ---------------------------------------------------------------------------------------------
# take: out[i] = src[idx[i]]


def _take_infer(types: Sequence[TensorType], attrs: Mapping[str, Any]) -> TensorType:
    src, idx = types
    if len(src.shape) != 1 or len(idx.shape) != 1 or idx.dtype != "i32":
        raise ValueError("take takes a rank-1 source and a rank-1 i32 index vector")
    if idx.index_bound != src.shape[0]:
        raise ValueError(f"index values must be bounded by the source's length ({src.shape[0]}), not {idx.index_bound}")
    return TensorType((idx.shape[0],), src.dtype, index_bound=src.index_bound)


def _take_emit(ctx: EmitContext, node: Any, operands: Sequence[str]) -> str:
    src, idx = (ctx.graph.type_of(r) for r in node.inputs)

    def body(b: Body, a: list[str]) -> str:
        at = b.op(f"arith.index_cast {a[0]} : i32 to index")
        return b.op(f"tensor.extract {operands[0]}[{at}] : {tensor_type(src)}")

    return ctx.generic(
        result_name(ctx, node),
        [(operands[1], idx)],
        (ctx.init_for(node.index, node, operands), node.type),
        [identity_map(1), identity_map(1)],
        ["parallel"],
        body,
    )


def _take_propose(draw: Callable, pool: Any) -> tuple[tuple[str, ...], dict] | None:
    if draw(pool.st.booleans()):  # a chain: the source is an index vector into a table already drawn (or to be)
        table = pool.pick(draw, lambda t, bound: len(t.shape) in (2, 3) and pool.nonzero(t.shape[0]))
        rows = pool.type(table).shape[0] if table is not None else pool.draw_dim(draw)
        length = pool.draw_dim(draw)
        if not (pool.nonzero(rows) and pool.nonzero(length)):
            return None
        src = pool.new_arg(TensorType((length,), "i32", index_bound=rows))
    else:  # a lookup of values
        src = pool.pick(draw, lambda t, bound: len(t.shape) == 1 and pool.nonzero(t.shape[0]))
        if src is None:
            return None
        length = pool.type(src).shape[0]
    idx = pool.pick(draw, lambda t, bound: len(t.shape) == 1 and t.dtype == "i32" and t.index_bound == length)
    if idx is None or draw(pool.st.booleans()):
        idx = pool.new_arg(TensorType((pool.draw_dim(draw),), "i32", index_bound=length))
    return (src, idx), {}


register(OpSpec("take", _take_infer, _take_emit, lambda bs, a, ts: bs[0], _take_propose, family="model"))


# ---------------------------------------------------------------------------------------------
# take_along: out[i..] = src[i.., idx[i..]], the column a tensor computes for each row (torch.gather along the last
# dim, NLLLoss / cross-entropy picking each row's target: #14934), optionally with an ignore_index whose rows give 0.
# As torch-mlir lowers it: a generic over the indices reading src with tensor.extract at (its own position, the
# index clamped into range), and a select of 0 where the index is the ignored class (compared and clamped in i32).

GATHERED_ALONG_DTYPES = (*FLOAT_DTYPES, "i32")
IGNORE_INDICES = (None, -100, 0)  # none; torch's default; a class the drawn indices do hold


def _take_along_infer(types: Sequence[TensorType], attrs: Mapping[str, Any]) -> TensorType:
    src, idx = types
    if len(src.shape) not in (2, 3) or src.dtype not in GATHERED_ALONG_DTYPES or idx.dtype != "i32":
        raise ValueError(f"take_along takes a rank-2 or -3 source of {GATHERED_ALONG_DTYPES} and i32 indices")
    if idx.shape != src.shape[:-1] or idx.index_bound != src.shape[-1]:
        raise ValueError(f"take_along's indices must be {src.shape[:-1]} bounded by {src.shape[-1]}, not {idx!r}")
    return TensorType(idx.shape, src.dtype)


def _take_along_emit(ctx: EmitContext, node: Any, operands: Sequence[str]) -> str:
    src, idx = (ctx.graph.type_of(r) for r in node.inputs)
    rank, ignore, last = len(idx.shape), node.attrs["ignore_index"], src.shape[-1]

    def body(b: Body, a: list[str]) -> str:
        at = [b.op(f"linalg.index {d} : index") for d in range(rank)]
        if ignore is None:
            col = b.op(f"arith.index_cast {a[0]} : i32 to index")
            return b.op(f"tensor.extract {operands[0]}[{', '.join([*at, col])}] : {tensor_type(src)}")
        # compared and clamped as i32, then cast: the cast feeds only the extract (and the sentinel never reaches it)
        ignored = b.op(f"arith.cmpi eq, {a[0]}, {b.const(ignore, 'i32')} : i32")
        if isinstance(last, str):
            size = b.op(f"arith.index_cast {ctx.dim_values[last]} : index to i32")
        else:
            size = b.const(last, "i32")
        top = b.op(f"arith.subi {size}, {b.const(1, 'i32')} : i32")
        low = b.op(f"arith.maxsi {a[0]}, {b.const(0, 'i32')} : i32")
        clamped = b.op(f"arith.minsi {low}, {top} : i32")
        col = b.op(f"arith.index_cast {clamped} : i32 to index")
        picked = b.op(f"tensor.extract {operands[0]}[{', '.join([*at, col])}] : {tensor_type(src)}")
        return b.op(f"arith.select {ignored}, {b.const(0, src.dtype)}, {picked} : {src.dtype}")

    return ctx.generic(
        result_name(ctx, node),
        [(operands[1], idx)],
        (ctx.init_for(node.index, node, operands), node.type),
        [identity_map(rank), identity_map(rank)],
        ["parallel"] * rank,
        body,
    )


def _take_along_propose(draw: Callable, pool: Any) -> tuple[tuple[str, ...], dict] | None:
    src = pool.pick(
        draw, lambda t, b: len(t.shape) in (2, 3) and t.dtype in GATHERED_ALONG_DTYPES and pool.nonzero(t.shape[-1])
    )
    if src is None:
        return None
    t = pool.type(src)
    fits = lambda u, b: u.dtype == "i32" and u.shape == t.shape[:-1] and u.index_bound == t.shape[-1]
    idx = pool.pick(draw, fits)
    if idx is None or draw(pool.st.booleans()):
        idx = pool.new_arg(TensorType(t.shape[:-1], "i32", index_bound=t.shape[-1]))
    return (src, idx), {"ignore_index": draw(pool.st.sampled_from(IGNORE_INDICES))}


register(
    OpSpec(
        "take_along", _take_along_infer, _take_along_emit, lambda bs, a, ts: bs[0], _take_along_propose, family="model"
    )
)


# ---------------------------------------------------------------------------------------------
# causal_mask: where(j <= i + offset, x, fill) over the last two dims


def _mask_infer(types: Sequence[TensorType], attrs: Mapping[str, Any]) -> TensorType:
    (x,) = types
    if len(x.shape) < 2 or x.dtype not in MASKED_DTYPES:
        raise ValueError(f"causal_mask takes a tensor of rank >= 2 of {MASKED_DTYPES}, not {x!r}")
    return TensorType(x.shape, x.dtype)


def _mask_emit(ctx: EmitContext, node: Any, operands: Sequence[str]) -> str:
    x, t = ctx.graph.type_of(node.inputs[0]), node.type
    rank = len(t.shape)

    def body(b: Body, a: list[str]) -> str:
        i, j = b.op(f"linalg.index {rank - 2} : index"), b.op(f"linalg.index {rank - 1} : index")
        offset = b.op(f"arith.constant {int(node.attrs['offset'])} : index")
        limit = b.op(f"arith.addi {i}, {offset} : index")
        keep = b.op(f"arith.cmpi sle, {j}, {limit} : index")
        return b.op(f"arith.select {keep}, {a[0]}, {b.const(node.attrs['fill'], t.dtype)} : {t.dtype}")

    return ctx.generic(
        result_name(ctx, node),
        [(operands[0], x)],
        (ctx.init_for(node.index, node, operands), t),
        [identity_map(rank)] * 2,
        ["parallel"] * rank,
        body,
    )


def _mask_propose(draw: Callable, pool: Any) -> tuple[tuple[str, ...], dict] | None:
    x = None
    if draw(pool.st.integers(0, 3)) == 0:  # a model's attention scores: the mask over a contraction's result
        op, rank = draw(pool.st.sampled_from((("matmul", 2), ("batch_matmul", 3))))
        if pool.pick(draw, matmul_lhs(rank)) is None:  # the queries, where no value can be them
            pool.new_arg(TensorType(pool.draw_shape(draw, rank, rank), "f32"))
        x = pool.propose_derived(draw, op)
        x = x if x is not None and pool.type(x).dtype in MASKED_DTYPES else None
    x = x or pool.pick(draw, lambda t, bound: len(t.shape) >= 2 and t.dtype in MASKED_DTYPES)
    if x is None:
        return None
    fill = draw(pool.st.sampled_from((0, -64)))  # a large negative stands for -inf before a softmax
    return (x,), {
        "offset": draw(pool.st.sampled_from((-1, 0, 1))),
        "fill": float(fill) if pool.type(x).dtype in FLOAT_DTYPES else fill,
    }


register(
    OpSpec(
        "causal_mask",
        _mask_infer,
        _mask_emit,
        lambda bs, a, ts: max(bs[0], abs(a["fill"])),
        _mask_propose,
        family="model",
    )
)


# ---------------------------------------------------------------------------------------------
# quantize (float -> i8) and dequantize (i8 / i32 -> float)


def _quantize_infer(types: Sequence[TensorType], attrs: Mapping[str, Any]) -> TensorType:
    (x,) = types
    if not is_float(x) or not -128 <= attrs["qmin"] < attrs["qmax"] <= 127:
        raise ValueError(f"quantize takes a float tensor into an i8 range, not {x!r} {attrs}")
    return TensorType(x.shape, "i8")


def _quantize_emit(ctx: EmitContext, node: Any, operands: Sequence[str]) -> str:
    x, t, a = ctx.graph.type_of(node.inputs[0]), node.type, node.attrs
    rank, dt = len(t.shape), x.dtype

    def body(b: Body, args: list[str]) -> str:
        scaled = b.op(f"arith.divf {args[0]}, {b.const(a['scale'], dt)} : {dt}")
        rounded = b.op(f"math.roundeven {scaled} : {dt}")
        shifted = b.op(f"arith.addf {rounded}, {b.const(float(a['zero_point']), dt)} : {dt}")
        low = maxmin("max")(b, [shifted, b.const(float(a["qmin"]), dt)], dt)
        clamped = maxmin("min")(b, [low, b.const(float(a["qmax"]), dt)], dt)
        return b.op(f"arith.fptosi {clamped} : {dt} to i8")

    return ctx.generic(
        result_name(ctx, node),
        [(operands[0], x)],
        (ctx.init_for(node.index, node, operands), t),
        [identity_map(rank)] * 2,
        ["parallel"] * rank,
        body,
    )


def _quantize_bound(bs: Sequence[float], a: Mapping[str, Any], ts: Sequence[TensorType]) -> float:
    return min(max(-a["qmin"], a["qmax"]), bs[0] / a["scale"] + abs(a["zero_point"]) + 1)


def _quantize_propose(draw: Callable, pool: Any) -> tuple[tuple[str, ...], dict] | None:
    x = pool.pick(draw, lambda t, bound: t.dtype in ("f32", "f16") and bound <= 16)
    if x is None:
        return None
    qmin, qmax = draw(pool.st.sampled_from(CLAMPS))
    return (x,), {
        "scale": draw(pool.st.sampled_from(QUANT_SCALES)),
        "zero_point": draw(pool.st.integers(-2, 2)),
        "qmin": qmin,
        "qmax": qmax,
    }


def _dequantize_infer(types: Sequence[TensorType], attrs: Mapping[str, Any]) -> TensorType:
    (q,) = types
    if q.dtype not in ("i8", "i32") or attrs["to"] not in ("f32", "f16"):
        raise ValueError(f"dequantize takes i8 or i32 into f32 or f16, not {q!r} -> {attrs['to']}")
    return TensorType(q.shape, attrs["to"])


def _dequantize_body(b: Body, node: Any, x: str, source: str) -> str:
    dt, a = node.type.dtype, node.attrs
    value = b.op(f"arith.sitofp {x} : {source} to {dt}")
    shifted = b.op(f"arith.subf {value}, {b.const(float(a['zero_point']), dt)} : {dt}")
    return b.op(f"arith.mulf {shifted}, {b.const(a['scale'], dt)} : {dt}")


def _dequantize_propose(draw: Callable, pool: Any) -> tuple[tuple[str, ...], dict] | None:
    q = pool.pick(draw, lambda t, bound: t.dtype in ("i8", "i32") and bound <= 2048)  # f16 holds these exactly
    if q is None:
        return None
    return (q,), {
        "scale": draw(pool.st.sampled_from(DEQUANT_SCALES)),
        "zero_point": draw(pool.st.integers(-2, 2)),
        "to": draw(pool.st.sampled_from(pool.dtypes_among(("f32", "f16")))),
    }


register(OpSpec("quantize", _quantize_infer, _quantize_emit, _quantize_bound, _quantize_propose, family="model"))
register(
    OpSpec(
        "dequantize",
        _dequantize_infer,
        one_operand_generic(_dequantize_body),
        lambda bs, a, ts: (bs[0] + abs(a["zero_point"])) * a["scale"],
        _dequantize_propose,
        family="model",
    )
)


# ---------------------------------------------------------------------------------------------
# expert_matmul: W (R x O x K) gathered by ids (E x T, in [0, R)) into E x T x O x K, contracted with x (K x T)

EXPERT_DTYPE = "f32"


def _expert_infer(types: Sequence[TensorType], attrs: Mapping[str, Any]) -> TensorType:
    w, ids, x, acc = types
    if (len(w.shape), len(ids.shape), len(x.shape), len(acc.shape)) != (3, 2, 2, 3):
        raise ValueError("expert_matmul takes W (R x O x K), ids (E x T), x (K x T) and acc (E x T x O)")
    (rows, o, k), (e, t) = w.shape, ids.shape
    if ids.dtype != "i32" or ids.index_bound != rows:
        raise ValueError(f"ids must be i32 indices bounded by W's rows ({rows}), not {ids!r}")
    if {w.dtype, x.dtype, acc.dtype} != {EXPERT_DTYPE} or x.shape != (k, t) or acc.shape != (e, t, o):
        raise ValueError(f"expert_matmul operands do not fit: {w!r} {ids!r} {x!r} {acc!r}")
    return TensorType(acc.shape, acc.dtype)


def _expert_emit(ctx: EmitContext, node: Any, operands: Sequence[str]) -> str:
    w, ids, x, acc = (ctx.graph.type_of(r) for r in node.inputs)
    (_, o, k), (e, t) = w.shape, ids.shape
    gathered_t = TensorType((e, t, o, k), w.dtype)
    gathered, init = ctx.fresh("g"), ctx.empty(gathered_t)
    if node.attrs["form"] == "linalg_ext":
        ctx.line(
            f"{gathered} = iree_linalg_ext.gather dimension_map = [0] ins({operands[0]}, {operands[1]} : "
            f"{tensor_type(w)}, {tensor_type(ids)}) outs({init} : {tensor_type(gathered_t)}) "
            f"-> {tensor_type(gathered_t)}"
        )
    else:

        def row(b: Body, a: list[str]) -> str:
            at = b.op(f"arith.index_cast {a[0]} : i32 to index")
            o_k = [b.op(f"linalg.index {d} : index") for d in (2, 3)]
            return b.op(f"tensor.extract {operands[0]}[{', '.join([at, *o_k])}] : {tensor_type(w)}")

        ctx.generic(
            gathered, [(operands[1], ids)], (init, gathered_t), [projected_map(4, [0, 1]), identity_map(4)],
            ["parallel"] * 4, row,
        )  # fmt: skip
    return ctx.generic(
        result_name(ctx, node),
        [(gathered, gathered_t), (operands[2], x)],
        (operands[3], acc),
        [identity_map(4), projected_map(4, [3, 1]), projected_map(4, [0, 1, 2])],
        ["parallel", "parallel", "parallel", "reduction"],
        lambda b, a: multiply_accumulate(b, a[0], a[1], a[2], w.dtype, acc.dtype),
    )


def _expert_propose(draw: Callable, pool: Any) -> tuple[tuple[str, ...], dict] | None:
    if pool.dynamic and draw(pool.st.booleans()):  # a model's MoE layer: every dim dynamic (#23464's form)
        rows, o, k, e, t = (pool.draw_symbol(draw) for _ in range(5))
    else:
        rows, o, k, e, t = (small_dim(draw, pool, 17) for _ in range(5))
    if not pool.nonzero(rows):
        return None
    w = pool.pick_or_arg(draw, TensorType((rows, o, k), EXPERT_DTYPE), max_bound=4)
    ids = pool.pick(draw, lambda u, b: len(u.shape) == 2 and u.dtype == "i32" and u.index_bound == rows)
    ids = ids if ids is not None else pool.new_arg(TensorType((e, t), "i32", index_bound=rows))
    e, t = pool.type(ids).shape
    x = pool.pick_or_arg(draw, TensorType((k, t), EXPERT_DTYPE), max_bound=4)
    acc = pool.destination(draw, TensorType((e, t, o), EXPERT_DTYPE))
    forms = ["extract", "linalg_ext"] if pool.syntax.linalg_ext_gather else ["extract"]
    return (w, ids, x, acc), {"form": draw(pool.st.sampled_from(forms))}


register(
    OpSpec(
        "expert_matmul",
        _expert_infer,
        _expert_emit,
        lambda bs, a, ts: bs[0] * bs[2] * size_bound(ts[0].shape[2]) + bs[3],
        _expert_propose,
        has_init=False,
        acc_input=3,
        family="model",
    )
)


__all__ = ["CLAMPS", "DEQUANT_SCALES", "MASKED_DTYPES", "QUANT_SCALES"]


# ---------------------------------------------------------------------------------------------
# cond: (r0, r1) = (x, y) if p else (x + y, x * y); r0 + r1 (a two-result lax.cond, both results read after it)

COND_DTYPES = ("f32", "f16", "bf16", "i32", "i64", "i16")


# How many tensors a region op's region yields (``OpSpec.region``): two, read together after it, is the form the
# frontends emit for a two-result cond or a loop carrying two tensors; one is the same values computed inside.
REGION_YIELDS = (2, 2, 1)


def _cond_infer(types: Sequence[TensorType], attrs: Mapping[str, Any]) -> TensorType:
    p, x, y = types
    if p.shape != () or p.dtype != "i1" or (x.shape, x.dtype) != (y.shape, y.dtype) or x.dtype not in COND_DTYPES:
        raise ValueError(f"cond takes a rank-0 i1 and two tensors of one type of {COND_DTYPES}, not {types!r}")
    return TensorType(x.shape, x.dtype)


def _cond_emit(ctx: EmitContext, node: Any, operands: Sequence[str]) -> str:
    t = node.type
    ty, rank, kind = tensor_type(t), len(t.shape), "f" if is_float(t) else "i"
    maps, parallel = [identity_map(rank)] * 3, ["parallel"] * rank
    x, y = operands[1], operands[2]

    def combined(name: str, a: str, b: str, op: str) -> str:
        return ctx.generic(
            name,
            [(a, t), (b, t)],
            (ctx.empty(t), t),
            maps,
            parallel,
            lambda bd, v: bd.op(f"arith.{op}{kind} {v[0]}, {v[1]} : {t.dtype}"),
        )

    predicate, pair = ctx.fresh("p"), ctx.fresh("branch")
    ctx.line(f"{predicate} = tensor.extract {operands[0]}[] : tensor<i1>")
    if node.attrs.get("yields", 2) == 1:  # each branch adds its pair itself: the scf.if yields the sum
        outside, ctx.lines = ctx.lines, []
        both = combined(ctx.fresh("sum"), x, y, "add")
        then, ctx.lines = ctx.lines, []
        total, product = combined(ctx.fresh("sum"), x, y, "add"), combined(ctx.fresh("product"), x, y, "mul")
        other = combined(ctx.fresh("sum"), total, product, "add")
        branch, ctx.lines = ctx.lines, outside
        ctx.line(f"{result_name(ctx, node)} = scf.if {predicate} -> ({ty}) {{")
        ctx.lines.extend(f"  {line}" for line in then)
        ctx.line(f"  scf.yield {both} : {ty}")
        ctx.line("} else {")
        ctx.lines.extend(f"  {line}" for line in branch)
        ctx.line(f"  scf.yield {other} : {ty}")
        ctx.line("}")
        return result_name(ctx, node)
    outside, ctx.lines = ctx.lines, []
    total, product = combined(ctx.fresh("sum"), x, y, "add"), combined(ctx.fresh("product"), x, y, "mul")
    branch, ctx.lines = ctx.lines, outside
    ctx.line(f"{pair}:2 = scf.if {predicate} -> ({ty}, {ty}) {{")
    ctx.line(f"  scf.yield {x}, {y} : {ty}, {ty}")
    ctx.line("} else {")
    ctx.lines.extend(f"  {line}" for line in branch)
    ctx.line(f"  scf.yield {total}, {product} : {ty}, {ty}")
    ctx.line("}")
    return combined(result_name(ctx, node), f"{pair}#0", f"{pair}#1", "add")


def _cond_propose(draw: Callable, pool: Any) -> tuple[tuple[str, ...], dict] | None:
    x = pool.pick(draw, lambda t, bound: len(t.shape) >= 1 and t.dtype in COND_DTYPES and bound <= 16)
    if x is None:
        return None
    y = pool.pick_or_arg(draw, pool.type(x), max_bound=16)
    p = pool.pick(draw, lambda t, bound: t.shape == () and t.dtype == "i1") or pool.new_arg(TensorType((), "i1"))
    return (p, x, y), {"yields": draw(pool.st.sampled_from(REGION_YIELDS))}


register(
    OpSpec(
        "cond",
        _cond_infer,
        _cond_emit,
        lambda bs, a, ts: bs[1] + bs[2] + bs[1] * bs[2],
        _cond_propose,
        has_init=False,
        family="model",
        region=True,
    )
)


# ---------------------------------------------------------------------------------------------
# fori_loop: lax.fori_loop(0, trips, body, init) as an scf.while on an i32 counter; one carried tensor
# (x <- x * 0.5 + y) or two ((x, y) <- (x * 0.5, y + x), then x + y). Halving is exact, so the float64 arbiter
# and the program round alike but for the additions.

LOOP_DTYPES = FLOAT_DTYPES
LOOP_TRIPS = (1, 2, 3)
LOOP_DIMS_FROM = ("outside", "carried")  # where the body's tensor.empty takes its dynamic sizes: JAX's, or torch-mlir's


def _loop_infer(types: Sequence[TensorType], attrs: Mapping[str, Any]) -> TensorType:
    x, y = types
    if (x.shape, x.dtype) != (y.shape, y.dtype) or x.dtype not in LOOP_DTYPES or not x.shape:
        raise ValueError(f"fori_loop takes two tensors of one ranked type of {LOOP_DTYPES}, not {types!r}")
    if (
        attrs.get("trips") not in LOOP_TRIPS
        or attrs.get("yields") not in REGION_YIELDS
        or attrs.get("dims_from", "outside") not in LOOP_DIMS_FROM
    ):
        raise ValueError(
            f"fori_loop needs trips in {LOOP_TRIPS}, yields in {set(REGION_YIELDS)} and dims_from in {LOOP_DIMS_FROM}, "
            f"not {dict(attrs)!r}"
        )
    return TensorType(x.shape, x.dtype)


def _loop_emit(ctx: EmitContext, node: Any, operands: Sequence[str]) -> str:
    t = node.type
    ty, rank, carried = tensor_type(t), len(t.shape), node.attrs["yields"]
    maps, parallel = [identity_map(rank)] * 3, ["parallel"] * rank

    def generic(name: str, ins: Sequence[str], body: Callable[[Body, list[str]], str]) -> str:
        return ctx.generic(name, [(v, t) for v in ins], (ctx.empty(t), t), maps[: len(ins) + 1], parallel, body)

    def halved(bd: Body, v: list[str]) -> str:
        return bd.op(f"arith.mulf {v[0]}, {bd.const(0.5, t.dtype)} : {t.dtype}")

    def halved_plus(bd: Body, v: list[str]) -> str:
        return plus(bd, [halved(bd, v), v[1]])

    def plus(bd: Body, v: list[str]) -> str:
        return bd.op(f"arith.addf {v[0]}, {v[1]} : {t.dtype}")

    x, y = operands
    loop, count, limit = ctx.fresh("loop"), ctx.fresh("i"), ctx.fresh("trips")
    xs, ys, zero = ctx.fresh("x"), ctx.fresh("y"), ctx.fresh("zero")
    ctx.line(f"{zero} = arith.constant 0 : i32")
    ctx.line(f"{limit} = arith.constant {node.attrs['trips']} : i32")
    inits = [(xs, x)] + ([(ys, y)] if carried == 2 else [])
    types = [ty] * carried + ["i32"]
    sizes, dynamic = dict(ctx.dim_values), [(axis, d) for axis, d in enumerate(t.shape) if isinstance(d, str)]
    axes = {axis: ctx.fresh("c") for axis, _ in dynamic} if node.attrs.get("dims_from") == "carried" else {}
    for axis, at in axes.items():  # the axes' constants before the loop, as the frontends' canonical form has them
        ctx.line(f"{at} = arith.constant {axis} : index")
    outside, ctx.lines = ctx.lines, []
    for axis, d in dynamic if axes else ():  # the body's sizes read from the carried tensor (torch-mlir's form)
        ctx.dim_values[d] = ctx.fresh("dim")
        ctx.line(f"{ctx.dim_values[d]} = tensor.dim {xs}, {axes[axis]} : {ty}")
    if carried == 1:
        results = [generic(ctx.fresh("next"), [xs, y], halved_plus)]
    else:
        results = [
            generic(ctx.fresh("next"), [xs], halved),
            generic(ctx.fresh("next"), [xs, ys] if node.attrs.get("x_first") else [ys, xs], plus),
        ]
    ctx.dim_values = sizes
    step, one = ctx.fresh("step"), ctx.fresh("one")
    ctx.line(f"{one} = arith.constant 1 : i32")
    ctx.line(f"{step} = arith.addi {count}, {one} : i32")
    body, ctx.lines = ctx.lines, outside
    carried_args = ", ".join(f"{a} = {v}" for a, v in inits)
    names = [a for a, _ in inits] + [count]
    signature = ", ".join(types)
    ctx.line(f"{loop}:{carried + 1} = scf.while ({carried_args}, {count} = {zero}) : ({signature}) -> ({signature}) {{")
    going = ctx.fresh("going")
    ctx.line(f"  {going} = arith.cmpi slt, {count}, {limit} : i32")
    ctx.line(f"  scf.condition({going}) {', '.join(names)} : {signature}")
    ctx.line("} do {")
    ctx.line(f"^bb0({', '.join(f'{n}: {ty_}' for n, ty_ in zip(names, types))}):")
    ctx.lines.extend(f"  {line}" for line in body)
    ctx.line(f"  scf.yield {', '.join([*results, step])} : {signature}")
    ctx.line("}")
    return generic(result_name(ctx, node), [f"{loop}#0", f"{loop}#1" if carried == 2 else y], plus)


def _loop_propose(draw: Callable, pool: Any) -> tuple[tuple[str, ...], dict] | None:
    x = pool.pick(draw, lambda t, bound: len(t.shape) >= 1 and t.dtype in LOOP_DTYPES and bound <= 16)
    if x is None:
        return None
    y = pool.pick_or_arg(draw, pool.type(x), max_bound=16)
    trips, yields = draw(pool.st.sampled_from(LOOP_TRIPS)), draw(pool.st.sampled_from(REGION_YIELDS))
    dims_from, x_first = draw(pool.st.sampled_from(LOOP_DIMS_FROM)), draw(pool.st.booleans())
    return (x, y), {"trips": trips, "yields": yields, "dims_from": dims_from, "x_first": x_first}


register(
    OpSpec(
        "fori_loop",
        _loop_infer,
        _loop_emit,
        lambda bs, a, ts: 3 * bs[0] + 3 * bs[1],  # |x| halves each trip, y is added at most twice over
        _loop_propose,
        has_init=False,
        family="model",
        region=True,
    )
)
