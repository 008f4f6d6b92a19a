"""Contractions: matmul / batch_matmul, contractions by einsum spec, dequantizing matmuls, attention."""

from __future__ import annotations

import math
from typing import Any, Callable, Mapping, Sequence

from ..tensor import Dim, TensorType
from .kit import (
    MATMUL_TYPES,
    MAX_SYMBOL_SIZE,
    Body,
    EmitContext,
    OpSpec,
    float_literal,
    identity_map,
    is_float,
    matmul_lhs,
    multiply_accumulate,
    projected_map,
    register,
    result_name,
    size_bound,
    small_dim,
    tensor_type,
)

# ---------------------------------------------------------------------------------------------
# matmul / batch_matmul: inputs (lhs, rhs, acc); the acc is the destination (a fill, an argument...)


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
            ctx.line(
                f"{name} = {op} ins({operands[0]}, {operands[1]} : {tensor_type(lhs)}, {tensor_type(rhs)}) "
                f"outs({operands[2]} : {tensor_type(acc)}) -> {tensor_type(acc)}"
            )
            return name
        b0 = [0] if batch else []
        o = len(b0)
        maps = [
            projected_map(3 + o, b0 + [o, o + 2]),
            projected_map(3 + o, b0 + [o + 2, o + 1]),
            projected_map(3 + o, b0 + [o, o + 1]),
        ]

        def body(b: Body, a: list[str]) -> str:
            return multiply_accumulate(b, a[0], a[1], a[2], lhs.dtype, acc.dtype)

        return ctx.generic(
            name,
            [(operands[0], lhs), (operands[1], rhs)],
            (operands[2], acc),
            maps,
            ["parallel"] * (2 + o) + ["reduction"],
            body,
        )

    return emit


def _matmul_bound(bs: Sequence[float], attrs: Mapping[str, Any], types: Sequence[TensorType]) -> float:
    k = types[0].shape[-1]
    return bs[0] * bs[1] * (k if isinstance(k, int) else MAX_SYMBOL_SIZE) + bs[2]


def _matmul_propose(batch: bool) -> Callable:
    def propose(draw: Callable, pool: Any) -> tuple[tuple[str, ...], dict] | None:
        r = 3 if batch else 2
        lhs = pool.pick(draw, matmul_lhs(r))
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


register(
    OpSpec(
        "matmul",
        _matmul_infer(False),
        _matmul_emit(False),
        _matmul_bound,
        _matmul_propose(False),
        has_init=False,
        has_generic_form=True,
        acc_input=2,
        family="contraction",
    )
)
register(
    OpSpec(
        "batch_matmul",
        _matmul_infer(True),
        _matmul_emit(True),
        _matmul_bound,
        _matmul_propose(True),
        has_init=False,
        has_generic_form=True,
        acc_input=2,
        family="contraction",
    )
)


# ---------------------------------------------------------------------------------------------
# contractions by einsum spec (several reduction dims, transposed and broadcast operands, matvec /
# vecmat) and dequantizing matmuls. i8 operands accumulate into i32 through arith.extsi; an i8
# operand is drawn whenever i32 is (the quantized form of an i32 program).

CONTRACTIONS = {
    "mk,k->m": "linalg.matvec",
    "k,kn->n": "linalg.vecmat",
    "mab,abn->mn": None,
    "mk,nk->mn": None,
    "km,kn->mn": None,
    "bmk,kn->bmn": None,
    "bmk,bnk->bmn": None,
    "abk,kc->abc": None,
    # a reduced dim only one operand indexes (jnp.sum(a * b) of a broadcast b): the contracts' spike found 3.13's
    # vectorizer folds the broadcast into an invalid vector.contract
    "jk,k->": None,
    "mjk,k->m": None,
    "ijk,jk->k": None,
    "MKmk,NKnk->MNmn": "linalg.mmt4d",
    "bMKmk,bNKnk->bMNmn": "linalg.batch_mmt4d",
}  # spec -> its named op


def _spec(spec: str) -> tuple[str, str, str, str]:
    """``"mk,kn->mn"`` -> (lhs, rhs, out, loop letters: the result's then the reduced ones)."""
    ins, out = spec.split("->")
    lhs, rhs = ins.split(",")
    reduced = "".join(dict.fromkeys(ch for ch in lhs + rhs if ch not in out))
    return lhs, rhs, out, out + reduced


def contracting(spec: str) -> bool:
    """Every reduced dim of ``spec`` is indexed by both operands (what linalg.contract's verifier asks)."""
    lhs_l, rhs_l, out_l, loops = _spec(spec)
    return all(ch in lhs_l and ch in rhs_l for ch in loops[len(out_l) :])


def _contract_infer(types: Sequence[TensorType], attrs: Mapping[str, Any]) -> TensorType:
    lhs, rhs, acc = types
    lhs_l, rhs_l, out_l, _ = _spec(attrs["spec"])
    if attrs.get("form") == "contract" and not contracting(attrs["spec"]):
        raise ValueError(f"linalg.contract reduces only dims both operands index, not {attrs['spec']}'s")
    if lhs.dtype != rhs.dtype or (lhs.dtype, acc.dtype) not in MATMUL_TYPES:
        raise ValueError(f"no contraction {lhs.dtype} x {rhs.dtype} -> {acc.dtype}")
    if (len(lhs.shape), len(rhs.shape), len(acc.shape)) != (len(lhs_l), len(rhs_l), len(out_l)):
        raise ValueError(f"ranks of {lhs!r}, {rhs!r}, {acc!r} do not fit {attrs['spec']}")
    dims: dict[str, Dim] = {}
    for letters, t in ((lhs_l, lhs), (rhs_l, rhs), (out_l, acc)):
        for ch, d in zip(letters, t.shape):
            if dims.setdefault(ch, d) != d:
                raise ValueError(f"dim {ch} of {attrs['spec']} is both {dims[ch]} and {d}")
    return TensorType(acc.shape, acc.dtype)


def _letters_map(loops: str, letters: str) -> str:
    return projected_map(len(loops), [loops.index(ch) for ch in letters])


def _contract_emit(ctx: EmitContext, node: Any, operands: Sequence[str]) -> str:
    lhs, rhs, acc = (ctx.graph.type_of(r) for r in node.inputs)
    lhs_l, rhs_l, out_l, loops = _spec(node.attrs["spec"])
    name, maps = result_name(ctx, node), [_letters_map(loops, ch) for ch in (lhs_l, rhs_l, out_l)]
    form = node.attrs.get("form", "generic")
    if form != "generic":
        op = CONTRACTIONS[node.attrs["spec"]] if form == "named" else None
        head = op or f"linalg.contract indexing_maps = [{', '.join(maps)}]"
        ctx.line(
            f"{name} = {head} ins({operands[0]}, {operands[1]} : {tensor_type(lhs)}, {tensor_type(rhs)}) "
            f"outs({operands[2]} : {tensor_type(acc)}) -> {tensor_type(acc)}"
        )
        return name
    return ctx.generic(
        name,
        [(operands[0], lhs), (operands[1], rhs)],
        (operands[2], acc),
        maps,
        ["parallel"] * len(out_l) + ["reduction"] * (len(loops) - len(out_l)),
        lambda b, a: multiply_accumulate(b, a[0], a[1], a[2], lhs.dtype, acc.dtype),
    )


def _reduced_size(spec: str, types: Sequence[TensorType]) -> int:
    lhs_l, rhs_l, out_l, loops = _spec(spec)
    dims = dict(zip(lhs_l, types[0].shape)) | dict(zip(rhs_l, types[1].shape))
    return math.prod(size_bound(dims[ch]) for ch in loops[len(out_l) :])


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
    dims = {ch: small_dim(draw, pool, cap) for ch in loops}
    dtype = draw(pool.st.sampled_from(_operand_dtypes(pool)))
    lhs = pool.pick_or_arg(draw, TensorType(tuple(dims[ch] for ch in lhs_l), dtype), max_bound=4)
    rhs = pool.pick_or_arg(draw, TensorType(tuple(dims[ch] for ch in rhs_l), dtype), max_bound=4)
    acc_dtype = draw(pool.st.sampled_from(sorted({to for frm, to in MATMUL_TYPES if frm == dtype})))
    acc = pool.destination(draw, TensorType(tuple(dims[ch] for ch in out_l), acc_dtype))
    forms = ["generic"] + (["contract"] if contracting(spec) else []) + (["named"] if CONTRACTIONS[spec] else [])
    return (lhs, rhs, acc), {"spec": spec, "form": draw(pool.st.sampled_from(forms))}


register(
    OpSpec(
        "contract",
        _contract_infer,
        _contract_emit,
        _contract_bound,
        _contract_propose,
        has_init=False,
        acc_input=2,
        family="contraction",
    )
)


def _dequant_infer(types: Sequence[TensorType], attrs: Mapping[str, Any]) -> TensorType:
    """x (M x K, float) times i8 weights (K x N) scaled per output channel (scales N) or per group of
    ``group`` rows (scales K/group x N), accumulated into acc (M x N). With ``bits`` 4 the weights are int4, two to
    a byte (K x N/2 i8, the low nibble first, N static), bitcast as LLM weight-only quantization passes them."""
    x, w, scales, acc = types
    m, k = x.shape
    k2, n = w.shape
    if attrs.get("bits", 8) == 4:
        if not isinstance(n, int) or not isinstance(acc.shape[1], int) or acc.shape[1] != 2 * n:
            raise ValueError(f"int4 weights {w!r} hold two static columns a byte, not {acc.shape[1]}")
        n = acc.shape[1]
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
    bits = node.attrs.get("bits", 8)
    operands = list(operands)
    if bits == 4:  # the bytes as int4, two a byte
        packed, w4, k = operands[1], TensorType((w.shape[0], acc.shape[1]), "i4"), w.shape[0]
        dims = f"{{{ctx.dim_values[k]}}}" if isinstance(k, str) else ""
        operands[1] = ctx.fresh("w4_")
        ctx.line(f"{operands[1]} = flow.tensor.bitcast {packed} : {tensor_type(w)}{dims} -> {tensor_type(w4)}{dims}")
        w = w4

    def dequantize(b: Body, weight: str, scale: str) -> str:
        return b.op(f"arith.mulf {b.op(f'arith.sitofp {weight} : i{bits} to {dt}')}, {scale} : {dt}")

    if node.attrs.get("fused"):
        maps = [
            projected_map(3, [0, 2]),
            projected_map(3, [2, 1]),
            f"affine_map<(d0, d1, d2) -> {scale_map(2)}>",
            projected_map(3, [0, 1]),
        ]
        return ctx.generic(
            name,
            [(operands[0], x), (operands[1], w), (operands[2], scales)],
            (operands[3], acc),
            maps,
            ["parallel", "parallel", "reduction"],
            lambda b, a: multiply_accumulate(b, a[0], dequantize(b, a[1], a[2]), a[3], dt, dt),
        )
    wf = TensorType(w.shape, dt)
    dq = ctx.generic(
        ctx.fresh("r"),
        [(operands[1], w), (operands[2], scales)],
        (ctx.empty(wf), wf),
        [identity_map(2), f"affine_map<(d0, d1) -> {scale_map(0)}>", identity_map(2)],
        ["parallel"] * 2,
        lambda b, a: dequantize(b, a[0], a[1]),
    )
    ctx.line(
        f"{name} = linalg.matmul ins({operands[0]}, {dq} : {tensor_type(x)}, {tensor_type(wf)}) "
        f"outs({operands[3]} : {tensor_type(acc)}) -> {tensor_type(acc)}"
    )
    return name


def _dequant_bound(bs: Sequence[float], attrs: Mapping[str, Any], types: Sequence[TensorType]) -> float:
    k, weight = types[0].shape[1], 8 if attrs.get("bits", 8) == 4 else bs[1]  # an int4 nibble: [-8, 8)
    return bs[0] * weight * bs[2] * (k if isinstance(k, int) else MAX_SYMBOL_SIZE) + bs[3]


def _dequant_propose(draw: Callable, pool: Any) -> tuple[tuple[str, ...], dict] | None:
    x = pool.pick(draw, lambda t, bound: len(t.shape) == 2 and is_float(t) and bound <= 4)
    if x is None:
        return None
    xt = pool.type(x)
    k, n = xt.shape[1], pool.draw_dim(draw)
    groups = [0] + ([g for g in (2, 4, 8) if k % g == 0] if isinstance(k, int) and k else [])
    group = draw(pool.st.sampled_from(groups))
    bits = 4 if pool.syntax.int4_bitcast and draw(pool.st.booleans()) else 8
    if bits == 4:  # static, even: IREE's vectors of 8 or 16 int4 leave remainders at 2, 6, 18, 34, 66, 130
        n = draw(pool.st.sampled_from(INT4_COLUMNS))
    w = pool.new_arg(TensorType((k, n // 2 if bits == 4 else n), "i8"))
    scales = pool.new_arg(TensorType((k // group, n) if group else (n,), xt.dtype))
    acc = pool.destination(draw, TensorType((xt.shape[0], n), xt.dtype))
    return (x, w, scales, acc), {"group": group, "fused": draw(pool.st.booleans())} | ({"bits": 4} if bits == 4 else {})


INT4_COLUMNS = (2, 6, 16, 18, 32, 34, 66, 130)


def unpack_int4(xp: Any, packed: Any) -> Any:
    """int4 weights two a byte (the low nibble first) as integers in [-8, 8): K x N/2 bytes -> K x N."""
    b = packed.astype(xp.int32) & 0xFF
    low, high = ((b & 0xF) ^ 8) - 8, (((b >> 4) & 0xF) ^ 8) - 8
    return xp.stack([low, high], axis=-1).reshape(packed.shape[0], 2 * packed.shape[1])


register(
    OpSpec(
        "dequant_matmul",
        _dequant_infer,
        _dequant_emit,
        _dequant_bound,
        _dequant_propose,
        has_init=False,
        acc_input=3,
        family="contraction",
    )
)


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
        mask = ctx.generic(
            ctx.fresh("r"),
            [],
            (ctx.empty(scores_t), scores_t),
            [identity_map(3)],
            ["parallel"] * 3,
            lambda b, x: _causal_mask(b, neg_inf, zero, dt) if a["causal"] else zero,
        )
        scale = ctx.fresh("c")
        ctx.line(f"{scale} = arith.constant {float_literal(a['scale'], dt)} : {dt}")
        maps = (
            [projected_map(5, m) for m in ([0, 1, 3], [0, 4, 3], [0, 4, 2])]
            + ["affine_map<(d0, d1, d2, d3, d4) -> ()>"]
            + [projected_map(5, m) for m in ([0, 1, 4], [0, 1, 2])]
        )
        spelled = f"{{indexing_maps = [{', '.join(maps)}]}}"  # a property from 3.13, an attribute dict before
        spelled = f"<{spelled}>" if ctx.syntax.attention_maps_property else spelled
        ctx.line(
            f"{result} = iree_linalg_ext.attention {spelled} ins({operands[0]}, "
            f"{operands[1]}, {operands[2]}, {scale}, {mask} : {tensor_type(q)}, {tensor_type(k)}, {tensor_type(v)}, "
            f"{dt}, {tensor_type(scores_t)}) outs({out} : {tensor_type(t)}) {{"
        )
        # IREE's frontends (Torch, StableHLO) and its own tests type the score region f32 for every input type
        ctx.line(f"^bb0(%score{node.index}: f32):")
        ctx.line(f"  iree_linalg_ext.yield %score{node.index} : f32")
        ctx.line(f"}} -> {tensor_type(t)}")
        return result
    filled = ctx.fresh("f")
    ctx.line(
        f"{filled} = linalg.fill ins({zero} : {dt}) outs({ctx.empty(scores_t)} : {tensor_type(scores_t)}) -> "
        f"{tensor_type(scores_t)}"
    )
    mac = lambda b, x: multiply_accumulate(b, x[0], x[1], x[2], dt, dt)
    scores = ctx.generic(
        ctx.fresh("r"),
        [(operands[0], q), (operands[1], k)],
        (filled, scores_t),
        [projected_map(4, m) for m in ([0, 1, 3], [0, 2, 3], [0, 1, 2])],
        ["parallel"] * 3 + ["reduction"],
        mac,
    )

    def scale_and_mask(b: Body, x: list[str]) -> str:
        scaled = b.op(f"arith.mulf {x[0]}, {b.const(a['scale'], dt)} : {dt}")
        return _causal_mask(b, neg_inf, scaled, dt) if a["causal"] else scaled

    masked = ctx.generic(
        ctx.fresh("r"),
        [(scores, scores_t)],
        (ctx.empty(scores_t), scores_t),
        [identity_map(3)] * 2,
        ["parallel"] * 3,
        scale_and_mask,
    )
    probs = ctx.fresh("r")
    ctx.line(
        f"{probs} = linalg.softmax dimension(2) ins({masked} : {tensor_type(scores_t)}) outs({ctx.empty(scores_t)} : "
        f"{tensor_type(scores_t)}) -> {tensor_type(scores_t)}"
    )
    acc = ctx.fresh("f")
    ctx.line(f"{acc} = linalg.fill ins({zero} : {dt}) outs({out} : {tensor_type(t)}) -> {tensor_type(t)}")
    return ctx.generic(
        result,
        [(probs, scores_t), (operands[2], v)],
        (acc, t),
        [projected_map(4, m) for m in ([0, 1, 3], [0, 3, 2], [0, 1, 2])],
        ["parallel"] * 3 + ["reduction"],
        mac,
    )


def _attention_propose(draw: Callable, pool: Any) -> tuple[tuple[str, ...], dict] | None:
    dtype = draw(pool.st.sampled_from(pool.dtypes_among(("f32", "f16"))))
    if pool.dynamic and draw(pool.st.integers(0, 3)) == 0:  # a model's attention with every dim dynamic (#23277)
        b, d, e, s, t = (pool.draw_symbol(draw) for _ in range(5))
    else:
        b, d, e = small_dim(draw, pool, 3), small_dim(draw, pool, 17), small_dim(draw, pool, 17)
        s = small_dim(draw, pool, 33)
        t = s if draw(pool.st.booleans()) else small_dim(draw, pool, 33)  # self-attention: one sequence length
    q = pool.pick_or_arg(draw, TensorType((b, s, d), dtype), max_bound=2)
    k = pool.pick_or_arg(draw, TensorType((b, t, d), dtype), max_bound=2)
    v = pool.pick_or_arg(draw, TensorType((b, t, e), dtype), max_bound=4)
    forms = ["chain", "linalg_ext"] if pool.syntax.linalg_ext_gather else ["chain"]
    return (q, k, v), {
        "scale": draw(pool.st.sampled_from((0.125, 0.25, 1.0))),
        "causal": draw(pool.st.booleans()),
        "form": draw(pool.st.sampled_from(forms)),
    }


register(
    OpSpec(
        "attention",
        _attention_infer,
        _attention_emit,
        lambda bs, a, ts: bs[2],
        _attention_propose,
        family="contraction",
    )
)
