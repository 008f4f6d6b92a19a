"""Reference semantics: every op of ``ireefuzz.generators.ops`` as one row, run two ways.

``evaluate(graph, inputs, sizes, "jax")`` runs the graph eagerly in JAX on the CPU at the
program's own dtypes (highest matmul precision) -- the reference IREE is compared with.
``evaluate(..., "f64")`` runs the same rows with NumPy in float64 (casts to f16 still round
through f16) -- the arbiter that decides who is wrong when the two disagree.
Each row is written once against an array namespace, so the two cannot drift apart.
"""

from __future__ import annotations

import functools
import os
from typing import Any, Callable, Mapping, Sequence

import ml_dtypes
import numpy as np

from ireefuzz.generators.graph import FLOAT_DTYPES, INT_DTYPES, Graph, Node
from ireefuzz.generators.ops import (
    CONV_LAYOUTS,
    POOL_LAYOUTS,
    POOLINGS,
    POW_EXPONENTS,
    SPATIAL,
    pack_array,
    shift_array,
    unpack_array,
    unpack_int4,
    window_out,
)
from ireefuzz.generators.tensor import NARROW_FLOATS

NUMPY_DTYPES = {
    "f32": np.float32,
    "f16": np.float16,
    "bf16": ml_dtypes.bfloat16,
    "i32": np.int32,
    "i8": np.int8,
    "i64": np.int64,
    "i16": np.int16,
    "i1": np.bool_,
}
BACKENDS = ("jax", "f64")


class Evaluator:
    """What a row needs besides its operands: the array namespace and dtype policy of one backend."""

    def __init__(self, backend: str) -> None:
        if backend not in BACKENDS:
            raise ValueError(f"unknown reference backend {backend!r}; expected one of {BACKENDS}")
        self.backend = backend
        self.xp: Any = jax_numpy() if backend == "jax" else np  # numpy or jax.numpy: one namespace

    def dtype(self, dtype: str) -> Any:
        if self.backend == "f64":
            return np.float64 if dtype in FLOAT_DTYPES else np.int64 if dtype in INT_DTYPES else np.bool_
        return NUMPY_DTYPES[dtype]

    def cast(self, x: Any, dtype: str) -> Any:
        """Convert with the rounding the program's dtype implies (float->int truncates toward zero)."""
        xp = self.xp
        if dtype in INT_DTYPES and xp.issubdtype(x.dtype, xp.floating):
            x = xp.trunc(x)
        if self.backend == "f64" and dtype in NARROW_FLOATS:
            return x.astype(NUMPY_DTYPES[dtype]).astype(np.float64)
        return x.astype(self.dtype(dtype))

    def erf(self, x: Any) -> Any:
        if self.backend == "f64":
            import scipy.special

            return scipy.special.erf(x)
        import jax.scipy.special

        return jax.scipy.special.erf(x)

    def matmul(self, a: Any, b: Any, acc: Any, out_dtype: str) -> Any:
        if self.backend == "f64":
            return acc + np.matmul(a, b)
        import jax

        prod = self.xp.matmul(a, b, precision=jax.lax.Precision.HIGHEST, preferred_element_type=self.dtype(out_dtype))
        return (acc + prod).astype(self.dtype(out_dtype))

    def einsum(self, spec: str, a: Any, b: Any, out_dtype: str) -> Any:
        if self.backend == "f64":
            return np.einsum(spec, a, b)
        import jax

        return self.xp.einsum(
            spec, a, b, precision=jax.lax.Precision.HIGHEST, preferred_element_type=self.dtype(out_dtype)
        )

    def apply(self, node: Node, operands: Sequence[Any], shape: tuple[Any, ...]) -> Any:
        """``node``'s reference row on ``operands`` at ``shape``, stored as this backend stores the
        node's dtype (JAX: the program's dtype; float64: an f16 value still rounds through f16)."""
        out = self.xp.asarray(REFERENCE[node.op](self, operands, node.attrs, shape, node.type.dtype))
        if self.backend == "jax":
            return out.astype(self.dtype(node.type.dtype))
        if node.type.dtype in NARROW_FLOATS:  # f16 / bf16 storage rounds every intermediate
            return out.astype(NUMPY_DTYPES[node.type.dtype]).astype(np.float64)
        return out


@functools.lru_cache(maxsize=1)
def jax_numpy() -> Any:
    """``jax.numpy``, with the reference's JAX configuration: the CPU, highest matmul precision."""
    os.environ.setdefault("JAX_PLATFORMS", "cpu")
    import jax

    jax.config.update("jax_default_matmul_precision", "highest")
    import jax.numpy as jnp

    return jnp


Row = Callable[[Evaluator, Sequence[Any], Mapping[str, Any], tuple[int, ...], str], Any]


def _iota(E: Evaluator, xs: Sequence[Any], a: Mapping[str, Any], shape: tuple[int, ...], dtype: str) -> Any:
    dim = a["dim"]
    ramp = E.xp.arange(shape[dim]).reshape([-1 if i == dim else 1 for i in range(len(shape))])
    return E.cast(E.xp.broadcast_to(ramp, shape), dtype)


def _reduce_max(E: Evaluator, xs: Sequence[Any], a: Mapping[str, Any], shape: tuple[int, ...], dtype: str) -> Any:
    lowest = -np.inf if dtype in FLOAT_DTYPES else np.iinfo(np.int32).min
    return E.xp.max(xs[0], axis=a["dim"], initial=lowest)


def _slice(E: Evaluator, xs: Sequence[Any], a: Mapping[str, Any], shape: tuple[int, ...], dtype: str) -> Any:
    drop, kept = a.get("drop", []), iter(shape)
    sizes = [1 if i in drop else next(kept) for i in range(len(a["offsets"]))]  # a rank-reducing slice's drops
    spans = zip(a["offsets"], sizes, a["strides"])
    window = tuple(slice(o, o + (s - 1) * st + 1 if s else o, st) for o, s, st in spans)
    return E.xp.reshape(xs[0][window], shape)


def _broadcast(E: Evaluator, xs: Sequence[Any], a: Mapping[str, Any], shape: tuple[int, ...], dtype: str) -> Any:
    return E.xp.broadcast_to(E.xp.expand_dims(xs[0], tuple(a["dimensions"])), shape)


def _to_layout(xp: Any, x: Any, src: str, dst: str) -> Any:
    """Transpose ``x`` from dim letters ``src`` to ``dst`` (same letters, another order)."""
    return xp.transpose(x, tuple(src.index(ch) for ch in dst))


def _windows(xp: Any, image: Any, image_l: str, window: Sequence[int], a: Mapping[str, Any]):
    """For each window position: the image (channels last, ``n<spatial>c``) at that offset of every result element."""
    canonical = "n" + "".join(ch for ch in image_l if ch in SPATIAL) + "c"
    x = _to_layout(xp, image, image_l, canonical)
    outs = [
        window_out(x.shape[1 + i], k, s, d) for i, (k, s, d) in enumerate(zip(window, a["strides"], a["dilations"]))
    ]
    for offset in np.ndindex(*window):
        index = tuple(
            slice(o * d, o * d + (n - 1) * s + 1, s) for o, n, s, d in zip(offset, outs, a["strides"], a["dilations"])
        )
        yield offset, x[(slice(None),) + index]


def conv_core(E: Evaluator, image: Any, filt: Any, kind: str, a: Mapping[str, Any], out_dtype: str) -> Any:
    """A convolution without its accumulator: a sum over window positions of channel contractions."""
    image_l, filter_l, out_l = CONV_LAYOUTS[kind]
    spatial = "".join(ch for ch in image_l if ch in SPATIAL)
    window_l = spatial.upper()
    depthwise = "f" not in filter_l
    w = _to_layout(E.xp, filt, filter_l, window_l + ("c" if depthwise else "cf"))
    total = None
    for offset, x in _windows(E.xp, image, image_l, [w.shape[i] for i in range(len(window_l))], a):
        term = E.einsum("...c,c->...c" if depthwise else "...c,cf->...f", x, w[offset], out_dtype)
        total = term if total is None else total + term
    return _to_layout(E.xp, total, "n" + spatial + ("c" if depthwise else "f"), out_l)


def _conv(kind: str) -> Row:
    return lambda E, xs, a, s, t: xs[2] + conv_core(E, E.cast(xs[0], t), E.cast(xs[1], t), kind, a, t)


def _pool(name: str) -> Row:
    layout, kind = POOLINGS[name]
    image_l, _, out_l = POOL_LAYOUTS[layout]

    def row(E: Evaluator, xs: Sequence[Any], a: Mapping[str, Any], s: tuple[int, ...], t: str) -> Any:
        combine = {"sum": lambda u, v: u + v, "max": E.xp.maximum, "min": E.xp.minimum}[kind]
        total = None
        for _, x in _windows(E.xp, xs[0], image_l, a["window"], a):
            total = x if total is None else combine(total, x)
        canonical = "n" + "".join(ch for ch in image_l if ch in SPATIAL) + "c"
        return _to_layout(E.xp, total, canonical, out_l)

    return row


def _softmax(E: Evaluator, xs: Sequence[Any], a: Mapping[str, Any], s: tuple[int, ...], t: str) -> Any:
    e = E.xp.exp(xs[0] - E.xp.max(xs[0], axis=a["dim"], keepdims=True, initial=-np.inf))
    return e / E.xp.sum(e, axis=a["dim"], keepdims=True)


def _log_softmax(E: Evaluator, xs: Sequence[Any], a: Mapping[str, Any], s: tuple[int, ...], t: str) -> Any:
    shifted = xs[0] - E.xp.max(xs[0], axis=a["dim"], keepdims=True, initial=-np.inf)
    with np.errstate(divide="ignore"):  # log(0) of an empty dim's sum: -inf where no output element reads it
        return shifted - E.xp.log(E.xp.sum(E.xp.exp(shifted), axis=a["dim"], keepdims=True))


def _norm(centered: bool) -> Row:
    def row(E: Evaluator, xs: Sequence[Any], a: Mapping[str, Any], s: tuple[int, ...], t: str) -> Any:
        x, dim = xs[0], a["dim"]
        mean = lambda v: E.xp.sum(v, axis=dim, keepdims=True) / v.shape[dim]  # as emitted: 0 / 0 over an empty dim
        with np.errstate(
            invalid="ignore", divide="ignore"
        ):  # that NaN is the answer, not a warning on the run's stderr
            if centered:
                x = x - mean(x)
            return x / E.xp.sqrt(mean(x * x) + a["eps"])

    return row


def _dequantized(E: Evaluator, w: Any, scales: Any, a: Mapping[str, Any], t: str) -> Any:
    """i8 (or int4, two a byte) weights times their per-channel (or per-group of rows) scales, in the activations'
    dtype."""
    w = _weights(E.xp, w, a)
    if a["group"]:
        scales = E.xp.repeat(scales, a["group"], axis=0)
    return E.cast(w, t) * scales


def _scores(E: Evaluator, q: Any, k: Any, a: Mapping[str, Any], t: str) -> Any:
    """scale * q k^T, -inf where the causal mask hides a key."""
    scores = E.einsum("bsd,btd->bst", q, k, t) * a["scale"]
    if not a["causal"]:
        return scores
    s, n = np.shape(q)[1], np.shape(k)[1]
    return E.xp.where(np.arange(n)[None, None, :] <= np.arange(s)[None, :, None], scores, -np.inf)


def _attention(E: Evaluator, xs: Sequence[Any], a: Mapping[str, Any], s: tuple[int, ...], t: str) -> Any:
    probs = _softmax(E, [_scores(E, xs[0], xs[1], a, t)], {"dim": 2}, s, t)
    return E.einsum("bst,bte->bse", probs, xs[2], t)


def _scatter(E: Evaluator, xs: Sequence[Any], a: Mapping[str, Any], s: tuple[int, ...], t: str) -> Any:
    updates, idx, original = xs
    if E.backend == "jax":
        return original.at[idx].add(updates.astype(original.dtype))
    out = np.array(original, copy=True)
    np.add.at(out, np.asarray(idx, np.int64), updates)
    return out


def _sort(E: Evaluator, xs: Sequence[Any], a: Mapping[str, Any], s: tuple[int, ...], t: str) -> Any:
    """Ascending, ties in position order (the emitted comparator breaks them by position)."""
    if a["result"] == "values":
        return E.xp.sort(xs[0], axis=a["dim"])
    return (
        E.xp.argsort(xs[0], axis=a["dim"], stable=True)
        if E.backend == "jax"
        else np.argsort(xs[0], axis=a["dim"], kind="stable")
    )


def _topk(E: Evaluator, xs: Sequence[Any], a: Mapping[str, Any], s: tuple[int, ...], t: str) -> Any:
    """The k largest along the last dim, largest first (ties in position order: where the emitted
    comparator cannot break them, the error bound leaves the indices free)."""
    order = _sort(E, [-xs[0]], {"dim": a["dim"], "result": "indices"}, s, t)[..., : a["k"]]
    return E.xp.take_along_axis(xs[0], order, axis=-1) if a["result"] == "values" else order


def _argmax(E: Evaluator, xs: Sequence[Any], a: Mapping[str, Any], s: tuple[int, ...], t: str) -> Any:
    """The maximum and its first position along ``dim``; over an empty dim the fills (lowest, 0)."""
    if a["result"] == "values":
        return _reduce_max(E, xs, a, s, t)
    if np.shape(xs[0])[a["dim"]] == 0:
        return E.xp.zeros(s, dtype=E.dtype("i32"))
    return E.xp.argmax(xs[0], axis=a["dim"])


def _causal(E: Evaluator, shape: tuple[int, ...], offset: int) -> Any:
    """The positions ``causal_mask`` keeps: j <= i + offset over the last two dims."""
    i = E.xp.arange(shape[-2]).reshape(-1, 1)
    j = E.xp.arange(shape[-1]).reshape(1, -1)
    return j <= i + offset


def _quantize(E: Evaluator, xs: Sequence[Any], a: Mapping[str, Any], s: tuple[int, ...], t: str) -> Any:
    """ONNX QuantizeLinear: round half to even of x / scale, plus the zero point, clamped (the scale is a power
    of two: the division is exact at every precision)."""
    q = E.xp.clip(E.xp.round(xs[0] / a["scale"]) + a["zero_point"], a["qmin"], a["qmax"])
    return E.cast(q, t)


def _experts(E: Evaluator, xs: Sequence[Any]) -> Any:
    """expert_matmul's gathered weights: W[ids] (E x T x O x K)."""
    return E.xp.take(xs[0], _take_index(E, xs[1]), axis=0)


def _bitwise(op: str) -> Row:
    return lambda E, xs, a, s, t: getattr(E.xp, f"bitwise_{op}")(xs[0], xs[1])


INT_BITS = {"i32": 32, "i16": 16, "i8": 8}  # float64's integers are int64: these wrap as the program's do


def _wrapped(E: Evaluator, v: Any, t: str) -> Any:
    """``v`` modulo 2^bits of ``t``, as a two's complement value (JAX computes in ``t`` and wraps already)."""
    if E.backend == "jax" or t not in INT_BITS:
        return v
    half = 1 << (INT_BITS[t] - 1)
    return (v + half) % (2 * half) - half


def _shift(direction: str) -> Row:
    """By a constant; right: logical (zeros in from the top of ``t``'s bits, the operand read unsigned)."""

    def row(E: Evaluator, xs: Sequence[Any], a: Mapping[str, Any], s: tuple[int, ...], t: str) -> Any:
        x, by = xs[0], a["by"]
        if direction == "left":
            return _wrapped(E, E.xp.left_shift(x, by), t)
        if E.backend == "jax":
            import jax

            return jax.lax.shift_right_logical(x, E.xp.full_like(x, by))
        return _wrapped(E, np.right_shift(np.bitwise_and(x, (1 << INT_BITS[t]) - 1), by), t)

    return row


def _cumsum(E: Evaluator, xs: Sequence[Any], a: Mapping[str, Any], s: tuple[int, ...], t: str) -> Any:
    """The running sum along ``dim`` (from the end when reversed). JAX's is lax.cumsum, a reduce_window padded on
    the leading (reversed: trailing) side; on a symbolic length it exports as a dynamic_reduce_window, which IREE
    3.13 does not legalize: kept, as gather's, it is what the crash oracle finds."""
    x, dim = xs[0], a["dim"]
    if E.backend == "jax":
        import jax

        return jax.lax.cumsum(x, axis=dim, reverse=a["reverse"])
    flip = (lambda v: np.flip(v, dim)) if a["reverse"] else (lambda v: v)
    return flip(np.cumsum(flip(x), axis=dim))


def _take_along(E: Evaluator, xs: Sequence[Any], a: Mapping[str, Any], s: tuple[int, ...], t: str) -> Any:
    """src[i.., idx[i..]] (the index clamped into range, as emitted), 0 where idx is the ignored class."""
    src, idx = xs[0], _take_index(E, xs[1])
    picked = E.xp.take_along_axis(src, E.xp.clip(idx, 0, np.shape(src)[-1] - 1)[..., None], axis=-1)[..., 0]
    if a["ignore_index"] is None:
        return picked
    return E.xp.where(idx == a["ignore_index"], E.xp.zeros((), picked.dtype), picked)


def _take_index(E: Evaluator, idx: Any) -> Any:
    return idx.astype(np.int64) if E.backend == "f64" else idx


# One row per op, named exactly as in ireefuzz.generators.ops.OPS.
REFERENCE: dict[str, Row] = {
    "abs": lambda E, xs, a, s, t: E.xp.abs(xs[0]),
    "add": lambda E, xs, a, s, t: xs[0] + xs[1],
    "batch_matmul": lambda E, xs, a, s, t: E.matmul(E.cast(xs[0], t), E.cast(xs[1], t), xs[2], t),
    "broadcast": _broadcast,
    **{f"bitwise_{op}": _bitwise(op) for op in ("xor", "or", "and")},
    "wrapping_add": lambda E, xs, a, s, t: _wrapped(E, xs[0] + xs[1], t),
    "shift_left": _shift("left"),
    "shift_right_logical": _shift("right"),
    "cast": lambda E, xs, a, s, t: E.cast(xs[0], t),
    "div": lambda E, xs, a, s, t: xs[0] / (E.xp.abs(xs[1]) + 1),
    # toward zero, as arith.divsi / arith.remsi (the remainder takes the dividend's sign); divisors are nonzero
    "int_div": lambda E, xs, a, s, t: E.xp.sign(xs[0]) * E.xp.sign(xs[1]) * (E.xp.abs(xs[0]) // E.xp.abs(xs[1])),
    "int_rem": lambda E, xs, a, s, t: E.xp.sign(xs[0]) * (E.xp.abs(xs[0]) % E.xp.abs(xs[1])),
    "exp": lambda E, xs, a, s, t: E.xp.exp(xs[0]),
    "extract_slice": _slice,
    "fill": lambda E, xs, a, s, t: E.xp.full(s, a["value"], dtype=E.dtype(t)),
    "gather": lambda E, xs, a, s, t: E.xp.take(xs[0], xs[1].astype(np.int64) if E.backend == "f64" else xs[1], axis=0),
    "iota": _iota,
    "log": lambda E, xs, a, s, t: E.xp.log(E.xp.abs(xs[0]) + 1),
    "matmul": lambda E, xs, a, s, t: E.matmul(E.cast(xs[0], t), E.cast(xs[1], t), xs[2], t),
    "max": lambda E, xs, a, s, t: E.xp.maximum(xs[0], xs[1]),
    "min": lambda E, xs, a, s, t: E.xp.minimum(xs[0], xs[1]),
    "mul": lambda E, xs, a, s, t: xs[0] * xs[1],
    "negate": lambda E, xs, a, s, t: -xs[0],
    "pad": lambda E, xs, a, s, t: E.xp.pad(xs[0], list(zip(a["low"], a["high"])), constant_values=a["value"]),
    "reduce_max": _reduce_max,
    "reduce_sum": lambda E, xs, a, s, t: E.xp.sum(xs[0], axis=a["dim"], dtype=E.dtype(t)),
    "cumsum": _cumsum,
    "scale": lambda E, xs, a, s, t: xs[0] * float(np.asarray(a["by"], NUMPY_DTYPES[t])),  # c as its dtype holds it
    "sqrt": lambda E, xs, a, s, t: E.xp.sqrt(E.xp.abs(xs[0])),
    "sub": lambda E, xs, a, s, t: xs[0] - xs[1],
    "tanh": lambda E, xs, a, s, t: E.xp.tanh(xs[0]),
    "asinh": lambda E, xs, a, s, t: E.xp.arcsinh(xs[0]),
    "erf": lambda E, xs, a, s, t: E.erf(xs[0]),
    "sin": lambda E, xs, a, s, t: E.xp.sin(xs[0]),
    "cos": lambda E, xs, a, s, t: E.xp.cos(xs[0]),
    "atan": lambda E, xs, a, s, t: E.xp.arctan(xs[0]),
    "expm1": lambda E, xs, a, s, t: E.xp.expm1(xs[0]),
    "log1p": lambda E, xs, a, s, t: E.xp.log1p(E.xp.abs(xs[0])),
    "rsqrt": lambda E, xs, a, s, t: 1 / E.xp.sqrt(E.xp.abs(xs[0]) + 1),
    "sigmoid": lambda E, xs, a, s, t: 1 / (1 + E.xp.exp(-xs[0])),
    "gelu": lambda E, xs, a, s, t: xs[0] * 0.5 * (1 + E.erf(xs[0] * 0.70710678)),
    "exp2": lambda E, xs, a, s, t: E.xp.exp2(xs[0]),
    "round_even": lambda E, xs, a, s, t: E.xp.round(xs[0]),  # numpy and JAX round half to even
    "inv_freq": lambda E, xs, a, s, t: 1 / a["base"] ** (xs[0] * (1.0 / a["dim"])),
    "pow_int": lambda E, xs, a, s, t: _pow_int(E, xs[0], xs[1]),
    "transpose": lambda E, xs, a, s, t: E.xp.transpose(xs[0], tuple(a["permutation"])),
    "where_gt": lambda E, xs, a, s, t: E.xp.where(xs[0] > xs[1], xs[2], xs[3]),
    "cond": lambda E, xs, a, s, t: E.xp.where(xs[0], xs[1] + xs[2], (xs[1] + xs[2]) + xs[1] * xs[2]),
    "fori_loop": lambda E, xs, a, s, t: _fori_loop(xs[0], xs[1], a),
    **{kind: _conv(kind) for kind in CONV_LAYOUTS},
    **{name: _pool(name) for name in POOLINGS},
    "softmax": _softmax,
    "log_softmax": _log_softmax,
    "attention": _attention,
    "contract": lambda E, xs, a, s, t: xs[2] + E.einsum(a["spec"], E.cast(xs[0], t), E.cast(xs[1], t), t),
    "dequant_matmul": lambda E, xs, a, s, t: E.matmul(xs[0], _dequantized(E, xs[1], xs[2], a, t), xs[3], t),
    "layer_norm": _norm(centered=True),
    "rms_norm": _norm(centered=False),
    "take": lambda E, xs, a, s, t: E.xp.take(xs[0], _take_index(E, xs[1]), axis=0),
    "take_along": _take_along,
    "causal_mask": lambda E, xs, a, s, t: E.xp.where(
        _causal(E, s, a["offset"]), xs[0], E.xp.asarray(a["fill"], dtype=E.dtype(t))
    ),
    "quantize": _quantize,
    "expert_matmul": lambda E, xs, a, s, t: xs[3] + E.einsum("etok,kt->eto", _experts(E, xs), xs[2], t),
    "dequantize": lambda E, xs, a, s, t: (E.cast(xs[0], t) - a["zero_point"]) * a["scale"],
    "expand_shape": lambda E, xs, a, s, t: E.xp.reshape(xs[0], s),
    "collapse_shape": lambda E, xs, a, s, t: E.xp.reshape(xs[0], s),
    "concat": lambda E, xs, a, s, t: E.xp.concatenate(xs, axis=a["dim"]),
    "reverse": lambda E, xs, a, s, t: E.xp.flip(xs[0], axis=tuple(a["dims"])),
    "shift": lambda E, xs, a, s, t: shift_array(xs[0], a["by"], a["backward"]),
    "scatter": _scatter,
    "sort": _sort,
    "topk": _topk,
    "argmax": _argmax,
    "pack": lambda E, xs, a, s, t: pack_array(E.xp, xs[0], a["inner_dims_pos"], a["inner_tiles"], a.get("padding")),
    "unpack": lambda E, xs, a, s, t: unpack_array(E.xp, xs[0], a["inner_dims_pos"], a["inner_tiles"], s),
}


# ---------------------------------------------------------------------------------------------
# Error bounds: how far an implementation computing in the program's dtypes may legitimately land
# from the float64 result. A first-order running error bound, one row per op (same names again):
# from the operands' float64 values ``xs``, their bounds ``es`` and the result ``out``, with ``u`` the
# result dtype's rounding unit (ROUNDING_ULPS ulps; 0 for integers). Error terms add in absolute
# value, never cancel: ``x + |x|`` is 0 in float64 but not when an implementation computes x twice
# with different roundings (fused into two consumers), and the bound says by how much.

ROUNDING_ULPS = 4.0
ErrorRow = Callable[[Evaluator, Sequence[Any], Sequence[Any], Any, Mapping[str, Any], tuple[int, ...], str, float], Any]


def _where_gt_error(E, xs, es, out, a, s, t, u):
    slack = es[0] + es[1]
    ambiguous = (np.abs(xs[0] - xs[1]) <= slack) & (slack > 0)  # either branch is a legitimate answer
    chosen = np.where(xs[0] > xs[1], es[2], es[3])
    return np.where(ambiguous, np.abs(xs[2] - xs[3]) + np.maximum(es[2], es[3]), chosen)


def _cond_error(E, xs, es, out, a, s, t, u):
    """Either branch's roundings (an x + y, and in the else branch an x * y and their sum); a predicate that may be
    off leaves both branches possible."""
    x, y, total = np.abs(xs[1]), np.abs(xs[2]), es[1] + es[2]
    then = total + u * np.abs(out)
    other = total + y * es[1] + x * es[2] + u * (np.abs(xs[1] + xs[2]) + x * y + np.abs(out))
    return np.where(es[0] > 0, np.maximum(then, other) + np.abs(x * y), np.where(xs[0], then, other))


def _fori_loop(x, y, a):
    """``trips`` times ``x <- x * 0.5 + y`` (one carried tensor) or ``(x, y) <- (x * 0.5, y + x)`` (two); then x + y."""
    for _ in range(a["trips"]):
        x, y = (x * 0.5 + y, y) if a["yields"] == 1 else (x * 0.5, y + x)
    return x + y


def _fori_loop_error(E, xs, es, out, a, s, t, u):
    """Each trip's additions round (halving is exact); an input's error halves with x and is added with y."""
    x, y, ex, ey = xs[0], xs[1], es[0], es[1]
    for _ in range(a["trips"]):
        if a["yields"] == 1:
            x = x * 0.5 + y
            ex = 0.5 * ex + ey + u * np.abs(x)
        else:
            x, y = x * 0.5, y + x
            ex, ey = 0.5 * ex, ey + ex + u * np.abs(y)
    return ex + ey + u * np.abs(out)


def _cast_error(E, xs, es, out, a, s, t, u):
    if t in FLOAT_DTYPES:
        return es[0] + u * np.abs(out)
    if not np.issubdtype(np.asarray(xs[0]).dtype, np.floating):
        return es[0]
    to_boundary = np.abs(xs[0] - np.round(xs[0]))  # truncation jumps at integers
    return np.where((to_boundary <= es[0]) & (es[0] > 0), 1.0 + es[0], 0.0)


def _quantize_error(E, xs, es, out, a, s, t, u):
    """Exact unless x / scale may lie on the other side of a rounding boundary (x.5): then one step either way."""
    v, slack = np.asarray(xs[0], np.float64) / a["scale"], np.asarray(es[0], np.float64) / a["scale"]
    near = np.abs(np.abs(v - np.floor(v)) - 0.5) <= slack
    return np.where(near & (slack > 0), 1.0 + np.ceil(slack), 0.0)


def _matmul_error(E, xs, es, out, a, s, t, u):
    a_, b_ = np.abs(xs[0]), np.abs(xs[1])
    k = np.shape(xs[0])[-1]
    return a_ @ es[1] + es[0] @ b_ + es[2] + u * np.sqrt(max(k, 1)) * (a_ @ b_) + u * np.abs(out)


def _reduce_sum_error(E, xs, es, out, a, s, t, u):
    n = np.shape(xs[0])[a["dim"]]
    return np.sum(es[0], axis=a["dim"]) + u * np.sqrt(max(n, 1)) * np.sum(np.abs(xs[0]), axis=a["dim"])


def _cumsum_error(E, xs, es, out, a, s, t, u):
    """As a sum's, at each prefix: the prefix's errors plus sqrt(n) roundings of its sum of magnitudes."""
    n = np.shape(xs[0])[a["dim"]]
    prefix = lambda v: _cumsum(E, [v], a, s, t)
    return prefix(es[0]) + u * np.sqrt(max(n, 1)) * prefix(np.abs(xs[0]))


def _conv_error(kind: str) -> ErrorRow:
    """As a matmul's: each product's operand errors, plus sqrt(K) roundings of the sum of |products|."""
    image_l, filter_l, out_l = CONV_LAYOUTS[kind]

    def row(E, xs, es, out, a, s, t, u):
        conv = lambda x, w: conv_core(E, x, w, kind, a, "f32")
        x, w = np.abs(np.asarray(xs[0], np.float64)), np.abs(np.asarray(xs[1], np.float64))
        dims = dict(zip(filter_l, np.shape(xs[1])))
        k = int(np.prod([dims[ch] for ch in filter_l if ch not in out_l]))
        return conv(x, es[1]) + conv(es[0], w) + es[2] + u * np.sqrt(max(k, 1)) * conv(x, w) + u * np.abs(out)

    return row


def _pool_error(name: str) -> ErrorRow:
    layout, kind = POOLINGS[name]

    def row(E, xs, es, out, a, s, t, u):
        if kind != "sum":
            return REFERENCE[f"pooling_{layout}_max"](E, [es[0]], a, s, t)
        n = int(np.prod(a["window"]))
        return REFERENCE[name](E, [es[0]], a, s, t) + u * np.sqrt(n) * REFERENCE[name](E, [np.abs(xs[0])], a, s, t)

    return row


def _contract_error(E, xs, es, out, a, s, t, u):
    spec = a["spec"]
    x, y = np.abs(np.asarray(xs[0], np.float64)), np.abs(np.asarray(xs[1], np.float64))
    lhs_l, rhs_l, out_l = spec.replace("->", ",").split(",")
    dims = dict(zip(lhs_l, np.shape(x))) | dict(zip(rhs_l, np.shape(y)))
    k = int(np.prod([dims[ch] for ch in dims if ch not in out_l]))
    return (
        np.einsum(spec, x, es[1])
        + np.einsum(spec, es[0], y)
        + es[2]
        + u * np.sqrt(max(k, 1)) * np.einsum(spec, x, y)
        + u * np.abs(out)
    )


def _expert_error(E, xs, es, out, a, s, t, u):
    """expert_matmul's bound: the contraction's, on the gathered weights and their bounds."""
    rows = xs[1].astype(np.int64)
    gathered = [np.take(xs[0], rows, axis=0), xs[2], xs[3]]
    bounds = [np.take(es[0], rows, axis=0), es[2], es[3]]
    return _contract_error(E, gathered, bounds, out, {"spec": "etok,kt->eto"}, s, t, u)


def _weights(xp: Any, w: Any, a: Mapping[str, Any]) -> Any:
    """A dequantizing matmul's integer weights: int4 ones unpacked (``unpack_int4``), i8 ones as they are."""
    return unpack_int4(xp, w) if a.get("bits", 8) == 4 else w


def _dequant_error(E, xs, es, out, a, s, t, u):
    w = _dequantized(E, xs[1], xs[2], a, t)
    w_err = _dequantized(E, np.abs(_weights(np, xs[1], a)), es[2], {**a, "bits": 8}, t) + u * np.abs(w)
    return _matmul_error(E, [xs[0], w, None], [es[0], w_err, es[3]], out, a, s, t, u)


def _attention_error(E, xs, es, out, a, s, t, u):
    q, k, v = (np.abs(np.asarray(x, np.float64)) for x in xs)
    d, n = np.shape(q)[2], np.shape(k)[1]
    if n == 0:  # no keys: the softmax normalizes an empty sum (0 / 0), so every output is undefined
        return np.full(np.shape(out), np.inf)
    spec = "bsd,btd->bst"
    scores = _scores(E, xs[0], xs[1], a, t)
    e_scores = a["scale"] * (
        np.einsum(spec, q, es[1]) + np.einsum(spec, es[0], k) + u * np.sqrt(max(d, 1)) * np.einsum(spec, q, k)
    ) + u * np.abs(np.nan_to_num(scores, neginf=0))
    e_scores = np.where(np.isfinite(scores), e_scores, 0.0)
    probs = _softmax(E, [scores], {"dim": 2}, s, t)
    e_probs = _softmax_error(E, [scores], [e_scores], probs, {"dim": 2}, s, t, u)
    return (
        np.einsum("bst,bte->bse", e_probs, v)
        + np.einsum("bst,bte->bse", probs, es[2])
        + u * np.sqrt(max(n, 1)) * np.einsum("bst,bte->bse", probs, v)
        + u * np.abs(out)
    )


def _softmax_error(E, xs, es, out, a, s, t, u):
    """exp(x_i - m) / sum: each input error moves the result by a factor in exp(+-(e_i + max e))."""
    n = np.shape(xs[0])[a["dim"]]
    worst = np.max(es[0], axis=a["dim"], keepdims=True, initial=0.0)
    return out * np.expm1(es[0] + worst) + u * (4 + np.sqrt(max(n, 1))) * out


def _log_softmax_error(E, xs, es, out, a, s, t, u):
    """x_i - m - log(sum): an input error moves it by e_i plus at most the row's worst (log-sum-exp is 1-Lipschitz);
    roundings of x - m, of the sum (sqrt(n)), of its log and of the result."""
    dim, x = a["dim"], np.asarray(xs[0], np.float64)
    n = np.shape(x)[dim]
    worst = np.max(es[0], axis=dim, keepdims=True, initial=0.0)
    shifted = x - np.max(x, axis=dim, keepdims=True, initial=-np.inf)
    log_sum = np.abs(out - shifted)
    return es[0] + worst + u * (np.abs(shifted) + log_sum + np.abs(out) + 1 + np.sqrt(max(n, 1)))


def _norm_error(centered: bool) -> ErrorRow:
    """Through each step (mean, centre, mean of squares, rsqrt, scale), first order plus the square of
    an error (cancellation), and the rsqrt over the whole interval its argument may lie in."""

    def row(E, xs, es, out, a, s, t, u):
        dim, x, e = a["dim"], np.asarray(xs[0], np.float64), es[0]
        n = max(np.shape(x)[dim], 1)
        mean = lambda v: np.sum(v, axis=dim, keepdims=True) / n
        if centered:
            mu = mean(x)
            e = e + mean(e) + u * np.sqrt(n) * mean(np.abs(x)) + u * np.abs(mu)
            x = x - mu
            e = e + u * np.abs(x)
        ms = mean(x * x)
        e_ms = mean(2 * np.abs(x) * e + e * e) + u * np.sqrt(n) * ms + u * ms
        r = 1 / np.sqrt(ms + a["eps"])
        e_r = np.abs(1 / np.sqrt(np.maximum(ms + a["eps"] - e_ms, 1e-300)) - r) + 2 * u * r
        return np.abs(x) * e_r + r * e + u * np.abs(out)

    return row


FREE = 1e300  # an error bound that admits any value (finite: the oracle scales bounds)


def _row_worst(es: Any, dim: int) -> Any:
    return np.max(es, axis=dim, keepdims=True, initial=0.0)


def _ambiguous_rows(x: Any, es: Any, dim: int, top: int | None = None, exact_ties: bool = False) -> Any:
    """Per row along ``dim`` (kept as size 1): whether two of its values (of the ``top`` largest, when given)
    are so close that their order may legitimately swap: within twice the row's worst error, or exactly
    tied when the op has no tie-break (``exact_ties``); a non-finite value makes the whole row ambiguous."""
    x = np.asarray(x, np.float64)
    ordered = -np.sort(-x, axis=dim)
    if top is not None:
        ordered = np.take(ordered, range(min(top + 1, np.shape(x)[dim])), axis=dim)
    worst = _row_worst(es, dim)
    with np.errstate(invalid="ignore"):
        gaps = -np.diff(ordered, axis=dim)
        close = (gaps <= 2 * worst) & ((worst > 0) | exact_ties)
    return np.any(close | ~np.isfinite(gaps), axis=dim, keepdims=True) | ~np.all(
        np.isfinite(x), axis=dim, keepdims=True
    )


def _selection_error(op: str) -> ErrorRow:
    """Values: a sorted / selected value moves at most by the row's worst input error. Indices: exact,
    except on rows whose order is ambiguous (``_ambiguous_rows``): there any index is right."""

    def row(E, xs, es, out, a, s, t, u):
        dim = a["dim"]
        worst = _row_worst(es[0], dim)
        if a["result"] == "values":
            return worst if op != "argmax" else np.squeeze(worst, axis=dim)
        ambiguous = _ambiguous_rows(xs[0], es[0], dim, top=1 if op == "argmax" else a.get("k"), exact_ties=op == "topk")
        bound = np.where(ambiguous, FREE, 0.0)
        return np.squeeze(bound, axis=dim) if op == "argmax" else bound

    return row


def _scatter_error(E, xs, es, out, a, s, t, u):
    """The original's error, the updates' errors added in, and a rounding per addition into each row."""
    idx = np.asarray(xs[1], np.int64)
    added, magnitude, count = np.array(es[2], np.float64), np.abs(np.asarray(xs[2], np.float64)), np.ones(s)
    np.add.at(added, idx, es[0])
    np.add.at(magnitude, idx, np.abs(np.asarray(xs[0], np.float64)))
    np.add.at(count, idx, 1.0)
    return added + u * count * magnitude


def _rounded(rule: Callable[..., Any]) -> ErrorRow:
    """An elementwise rule plus the rounding of its own result."""
    return lambda E, xs, es, out, a, s, t, u: rule(xs, es, out) + u * np.abs(out)


def _pow_int(E: Any, x: Any, n: Any) -> Any:
    """x ** n, n clamped as the op clamps it; 0 ** -n is inf, not a warning."""
    with np.errstate(divide="ignore"):
        return E.xp.power(x, E.xp.clip(n, *POW_EXPONENTS).astype(x.dtype))


def _pow_int_error(E: Any, xs: Any, es: Any, out: Any, a: Any, s: Any, t: Any, u: float) -> Any:
    """x^n by |n| multiplications (and a division for n < 0): |n| times x's relative error, |n| + 2 roundings; an
    exponent that may be off frees the result, as does a base that may be off where it is 0."""
    n = np.abs(np.clip(xs[1], *POW_EXPONENTS))
    x, magnitude = np.abs(xs[0]), np.abs(out)
    relative = np.divide(es[0], x, out=np.where(es[0] > 0, np.inf, 0.0), where=x > 0)
    return np.where(es[1] > 0, np.inf, magnitude * (n * relative + (n + 2) * u))


ERROR_BOUND: dict[str, ErrorRow] = {
    "abs": lambda E, xs, es, out, a, s, t, u: es[0],
    "add": _rounded(lambda xs, es, out: es[0] + es[1]),
    "batch_matmul": _matmul_error,
    "broadcast": lambda E, xs, es, out, a, s, t, u: REFERENCE["broadcast"](E, es, a, s, t),
    # an operand that may be off by any amount leaves every bit of the result free
    **{
        op: lambda E, xs, es, out, a, s, t, u: np.where(es[0] + es[1] > 0, np.inf, 0.0)
        for op in ("bitwise_xor", "bitwise_or", "bitwise_and", "wrapping_add")
    },
    **{
        op: lambda E, xs, es, out, a, s, t, u: np.where(es[0] > 0, np.inf, 0.0)
        for op in ("shift_left", "shift_right_logical")
    },
    "cast": _cast_error,
    "int_div": lambda E, xs, es, out, a, s, t, u: np.zeros(np.shape(out)),  # integers: exact
    "int_rem": lambda E, xs, es, out, a, s, t, u: np.zeros(np.shape(out)),
    "div": _rounded(lambda xs, es, out: es[0] / (np.abs(xs[1]) + 1) + np.abs(xs[0]) * es[1] / (np.abs(xs[1]) + 1) ** 2),
    "exp": _rounded(lambda xs, es, out: np.abs(out) * es[0]),
    "extract_slice": lambda E, xs, es, out, a, s, t, u: REFERENCE["extract_slice"](E, es, a, s, t),
    "fill": lambda E, xs, es, out, a, s, t, u: np.zeros(s),
    "gather": lambda E, xs, es, out, a, s, t, u: np.take(es[0], xs[1].astype(np.int64), axis=0),
    "iota": lambda E, xs, es, out, a, s, t, u: u * np.abs(out),
    "log": _rounded(lambda xs, es, out: es[0] / (np.abs(xs[0]) + 1)),
    "matmul": _matmul_error,
    "max": lambda E, xs, es, out, a, s, t, u: np.maximum(es[0], es[1]),
    "min": lambda E, xs, es, out, a, s, t, u: np.maximum(es[0], es[1]),
    "mul": _rounded(lambda xs, es, out: np.abs(xs[1]) * es[0] + np.abs(xs[0]) * es[1]),
    "negate": lambda E, xs, es, out, a, s, t, u: es[0],
    "pad": lambda E, xs, es, out, a, s, t, u: REFERENCE["pad"](E, es, {**a, "value": 0.0}, s, t),
    "reduce_max": lambda E, xs, es, out, a, s, t, u: np.max(es[0], axis=a["dim"], initial=0.0),
    "reduce_sum": _reduce_sum_error,
    "cumsum": _cumsum_error,
    "scale": lambda E, xs, es, out, a, s, t, u: abs(a["by"]) * es[0] + u * np.abs(out),
    "sqrt": _rounded(lambda xs, es, out: np.minimum(es[0] / (2 * np.maximum(out, 1e-300)), np.sqrt(es[0]))),
    "sub": _rounded(lambda xs, es, out: es[0] + es[1]),
    "tanh": _rounded(lambda xs, es, out: (1 - out**2) * es[0]),
    # the derivative times the operand's error; sin and cos are approximated to a few ulps of their range (1),
    # not of a result near a zero; the sigmoid and GELU bodies round three and four times, GELU's 1 + erf
    # cancelling where x < 0
    "asinh": _rounded(lambda xs, es, out: es[0] / np.sqrt(xs[0] ** 2 + 1)),
    "erf": _rounded(lambda xs, es, out: 1.1284 * np.exp(-(xs[0] ** 2)) * es[0]),
    **dict.fromkeys(("sin", "cos"), lambda E, xs, es, out, a, s, t, u: es[0] + u * (np.abs(out) + 1)),
    "atan": _rounded(lambda xs, es, out: es[0] / (1 + xs[0] ** 2)),
    "expm1": _rounded(lambda xs, es, out: (np.abs(out) + 1) * es[0]),
    "log1p": _rounded(lambda xs, es, out: es[0] / (np.abs(xs[0]) + 1)),
    "rsqrt": _rounded(lambda xs, es, out: 0.5 * np.abs(out) ** 3 * es[0]),
    "sigmoid": lambda E, xs, es, out, a, s, t, u: out * (1 - out) * es[0] + 3 * u * np.abs(out),
    "gelu": lambda E, xs, es, out, a, s, t, u: 1.13 * es[0] + u * (np.abs(out) + 2 * np.abs(xs[0])),
    "exp2": _rounded(lambda xs, es, out: 0.6932 * np.abs(out) * es[0]),
    "round_even": lambda E, xs, es, out, a, s, t, u: _quantize_error(E, xs, es, out, {"scale": 1.0}, s, t, u),
    "inv_freq": lambda E, xs, es, out, a, s, t, u: np.abs(out) * (np.log(a["base"]) / a["dim"] * es[0] + 3 * u),
    "pow_int": _pow_int_error,
    "transpose": lambda E, xs, es, out, a, s, t, u: REFERENCE["transpose"](E, es, a, s, t),
    "where_gt": _where_gt_error,
    "cond": _cond_error,
    "fori_loop": _fori_loop_error,
    **{kind: _conv_error(kind) for kind in CONV_LAYOUTS},
    **{name: _pool_error(name) for name in POOLINGS},
    "softmax": _softmax_error,
    "log_softmax": _log_softmax_error,
    "attention": _attention_error,
    "contract": _contract_error,
    "dequant_matmul": _dequant_error,
    "layer_norm": _norm_error(centered=True),
    "rms_norm": _norm_error(centered=False),
    "take": lambda E, xs, es, out, a, s, t, u: np.take(es[0], xs[1].astype(np.int64), axis=0),
    "take_along": lambda E, xs, es, out, a, s, t, u: _take_along(E, [es[0], xs[1]], a, s, t),
    "causal_mask": lambda E, xs, es, out, a, s, t, u: np.where(_causal(E, s, a["offset"]), es[0], 0.0),
    "quantize": _quantize_error,
    "expert_matmul": _expert_error,
    "dequantize": lambda E, xs, es, out, a, s, t, u: es[0] * a["scale"] + u * np.abs(out),
    "expand_shape": lambda E, xs, es, out, a, s, t, u: np.reshape(es[0], s),
    "collapse_shape": lambda E, xs, es, out, a, s, t, u: np.reshape(es[0], s),
    "concat": lambda E, xs, es, out, a, s, t, u: np.concatenate(es, axis=a["dim"]),
    "reverse": lambda E, xs, es, out, a, s, t, u: np.flip(es[0], axis=tuple(a["dims"])),
    "shift": lambda E, xs, es, out, a, s, t, u: shift_array(np.asarray(es[0]), a["by"], a["backward"]),
    "scatter": _scatter_error,
    **{op: _selection_error(op) for op in ("sort", "topk", "argmax")},
    "pack": lambda E, xs, es, out, a, s, t, u: pack_array(np, es[0], a["inner_dims_pos"], a["inner_tiles"], 0.0),
    "unpack": lambda E, xs, es, out, a, s, t, u: unpack_array(np, es[0], a["inner_dims_pos"], a["inner_tiles"], s),
}


def evaluate(graph: Graph, inputs: Sequence[np.ndarray], sizes: Mapping[str, int], backend: str) -> list[np.ndarray]:
    """Run ``graph`` on ``inputs`` (one concrete shape instance) and return its outputs as NumPy arrays."""
    return _run(graph, inputs, sizes, backend, bounds=False)[0]


def evaluate_with_bounds(
    graph: Graph, inputs: Sequence[np.ndarray], sizes: Mapping[str, int]
) -> tuple[list[np.ndarray], list[np.ndarray]]:
    """The float64 outputs and, per element, how far a correct implementation may land from them."""
    return _run(graph, inputs, sizes, "f64", bounds=True)


def _run(
    graph: Graph, inputs: Sequence[np.ndarray], sizes: Mapping[str, int], backend: str, *, bounds: bool
) -> tuple[list[np.ndarray], list[np.ndarray]]:
    E = Evaluator(backend)
    values: dict[str, Any] = {}
    errors: dict[str, Any] = {}
    for i, x in enumerate(inputs):
        values[f"a{i}"] = E.xp.asarray(x.astype(E.dtype(graph.args[i].dtype)) if backend == "f64" else x)
        errors[f"a{i}"] = np.zeros(np.shape(x))  # inputs are exact in their dtype
    for i, node in enumerate(graph.nodes):
        shape = node.type.concrete(sizes)
        operands = [values[r] for r in node.inputs]
        out = E.apply(node, operands, shape)
        if tuple(out.shape) != shape:
            raise AssertionError(
                f"reference row {node.op!r} gave shape {tuple(out.shape)}, expected {shape}: ireefuzz bug"
            )
        values[f"n{i}"] = out
        if bounds:
            info = ml_dtypes.finfo(NUMPY_DTYPES[node.type.dtype]) if node.type.dtype in FLOAT_DTYPES else None
            u = ROUNDING_ULPS * float(info.eps) if info is not None else 0.0
            with np.errstate(all="ignore"):
                e = ERROR_BOUND[node.op](
                    E, operands, [errors[r] for r in node.inputs], out, node.attrs, shape, node.type.dtype, u
                )
                # a rounding into the subnormal range is off by up to half its spacing, however small the value
                e = e + u * float(info.smallest_normal) if info is not None else e
            errors[f"n{i}"] = np.nan_to_num(np.broadcast_to(np.asarray(e, dtype=np.float64), shape), nan=np.inf)
    return [np.asarray(values[o]) for o in graph.outputs], [errors[o] for o in graph.outputs if bounds]
