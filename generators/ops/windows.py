"""Convolution and pooling: ops over a sliding window."""

from __future__ import annotations

import math
from typing import Any, Callable, Mapping, Sequence

from ..tensor import Dim, TensorType
from .kit import (
    MATMUL_TYPES,
    Body,
    EmitContext,
    OpSpec,
    float_literal,
    maxmin,
    multiply_accumulate,
    register,
    result_name,
    size_bound,
    small_dim,
    tensor_type,
)

# ---------------------------------------------------------------------------------------------
# convolution and pooling. A layout names each operand's dims by letter: n batch, c channel,
# f filter (output channel), x / y spatial (in the image and the result), X / Y the kernel window.
# Spatial and window dims are static (a result's spatial size is an expression of the input's);
# batch and channels may be symbolic. Padding comes from a pad node the proposal puts before the op.

CONV_LAYOUTS = {
    "conv_1d_nwc_wcf": ("nxc", "Xcf", "nxf"),
    "conv_2d_nhwc_hwcf": ("nxyc", "XYcf", "nxyf"),
    "conv_2d_nchw_fchw": ("ncxy", "fcXY", "nfxy"),
    "depthwise_conv_2d_nhwc_hwc": ("nxyc", "XYc", "nxyc"),
}
POOL_LAYOUTS = {"nhwc": ("nxyc", "XY", "nxyc"), "nchw": ("ncxy", "XY", "ncxy")}
POOLINGS = {
    "pooling_nhwc_sum": ("nhwc", "sum"),
    "pooling_nhwc_max": ("nhwc", "max"),
    "pooling_nhwc_min": ("nhwc", "min"),
    "pooling_nchw_sum": ("nchw", "sum"),
    "pooling_nchw_max": ("nchw", "max"),
}  # linalg has no pooling_nchw_min
POOL_IDENTITY = {"sum": 0.0, "max": float("-inf"), "min": float("inf")}
SPATIAL = "xy"


def window_out(size: int, window: int, stride: int, dilation: int) -> int:
    """Result size of one spatial dim (0 when the dilated window does not fit)."""
    return max(0, (size - (window - 1) * dilation - 1) // stride + 1)


def _window_dims(
    layout: tuple[str, str, str],
    types: Sequence[TensorType],
    attrs: Mapping[str, Any],
    window_shape: Sequence[int] | None = None,
) -> dict[str, Dim]:
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
    n_spatial = sum(ch in SPATIAL for ch in image_l)
    if not len(strides) == len(dilations) == n_spatial or min(strides + dilations) < 1:
        raise ValueError(f"strides {strides} / dilations {dilations} must be {n_spatial} positive ints")
    for i, x in enumerate(ch for ch in image_l if ch in SPATIAL):
        size, window = dims[x], dims[x.upper()]
        if not (isinstance(size, int) and isinstance(window, int)) or window < 1:
            raise ValueError("spatial and window dims must be static")
        dims[x] = out = window_out(size, window, strides[i], dilations[i])
        if out < 1:
            raise ValueError(f"window {window} (dilation {dilations[i]}) does not fit spatial size {size}")
    return dims


def _conv_infer(kind: str) -> Callable:
    def infer(types: Sequence[TensorType], attrs: Mapping[str, Any]) -> TensorType:
        image, filt, acc = types
        if image.dtype != filt.dtype or (image.dtype, acc.dtype) not in MATMUL_TYPES:
            raise ValueError(f"no {kind} {image.dtype} x {filt.dtype} -> {acc.dtype}")
        dims = _window_dims(CONV_LAYOUTS[kind], types[:2], attrs)
        want = tuple(dims[ch] for ch in CONV_LAYOUTS[kind][2])
        if tuple(acc.shape) != want:
            raise ValueError(f"{kind} of {image!r} by {filt!r} gives {want}, not the accumulator's {acc!r}")
        return TensorType(acc.shape, acc.dtype)

    return infer


def _window_attr(values: Sequence[int]) -> str:
    return f"dense<[{', '.join(map(str, values))}]> : tensor<{len(values)}xi64>"


def _window_maps(layout: tuple[str, str, str], attrs: Mapping[str, Any]) -> tuple[list[str], list[str], list[str]]:
    """The linalg.generic form of a convolution / pooling: (loop letters, iterator types, [image, window, out] maps)."""
    image_l, window_l, out_l = layout
    loops = list(out_l) + [ch for ch in window_l if ch not in out_l]
    d = {ch: f"d{i}" for i, ch in enumerate(loops)}
    spatial = [ch for ch in image_l if ch in SPATIAL]
    image_exprs = []
    for ch in image_l:
        if ch in SPATIAL:
            i = spatial.index(ch)
            image_exprs.append(f"{d[ch]} * {attrs['strides'][i]} + {d[ch.upper()]} * {attrs['dilations'][i]}")
        else:
            image_exprs.append(d[ch])
    head = f"({', '.join(d.values())})"
    maps = [
        f"affine_map<{head} -> ({', '.join(image_exprs)})>",
        f"affine_map<{head} -> ({', '.join(d[ch] for ch in window_l)})>",
        f"affine_map<{head} -> ({', '.join(d[ch] for ch in out_l)})>",
    ]
    return loops, ["parallel" if ch in out_l else "reduction" for ch in loops], maps


def _named_window_op(
    ctx: EmitContext,
    result: str,
    op: str,
    attrs: Mapping[str, Any],
    image: tuple[str, Any],
    window: tuple[str, Any],
    out: tuple[str, Any],
) -> str:
    """``result = linalg.<op>`` of a convolution or pooling (value, type pairs), with its dilations and strides."""
    ctx.line(
        f"{result} = linalg.{op} {{dilations = {_window_attr(attrs['dilations'])}, strides = "
        f"{_window_attr(attrs['strides'])}}} ins({image[0]}, {window[0]} : {tensor_type(image[1])}, "
        f"{tensor_type(window[1])}) outs({out[0]} : {tensor_type(out[1])}) -> {tensor_type(out[1])}"
    )
    return result


def _conv_emit(kind: str) -> Callable:
    def emit(ctx: EmitContext, node: Any, operands: Sequence[str]) -> str:
        image, filt, acc = (ctx.graph.type_of(r) for r in node.inputs)
        name, a = result_name(ctx, node), node.attrs
        if not a.get("generic"):
            return _named_window_op(ctx, name, kind, a, (operands[0], image), (operands[1], filt), (operands[2], acc))
        _, iterators, maps = _window_maps(CONV_LAYOUTS[kind], a)

        def body(b: Body, x: list[str]) -> str:
            return multiply_accumulate(b, x[0], x[1], x[2], image.dtype, acc.dtype)

        return ctx.generic(name, [(operands[0], image), (operands[1], filt)], (operands[2], acc), maps, iterators, body)

    return emit


def _window_volume(types: Sequence[TensorType], letters: str, image_l: str) -> int:
    """Products summed per result element: the window, times the channels when they are reduced."""
    dims = dict(zip(image_l, types[0].shape)) | dict(zip(letters, types[1].shape))
    return math.prod(size_bound(dims[ch]) for ch in letters if ch in "XYc")


def _conv_bound(kind: str) -> Callable:
    def bound(bs: Sequence[float], attrs: Mapping[str, Any], types: Sequence[TensorType]) -> float:
        image_l, filter_l, out_l = CONV_LAYOUTS[kind]
        reduced = "".join(ch for ch in filter_l if ch not in out_l)
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


def _padded_image(
    draw: Callable, pool: Any, letters: str, dims: Mapping[str, Dim], dtype: str, max_bound: float
) -> str:
    """An image of the given dims: an argument or earlier value, sometimes through a pad node (zero padding)."""
    pads = {
        ch: (draw(pool.st.integers(0, 2)), draw(pool.st.integers(0, 2)))
        if ch in SPATIAL and draw(pool.st.booleans())
        else (0, 0)
        for ch in letters
    }
    pads = {ch: p if isinstance(size := dims[ch], int) and size - sum(p) >= 1 else (0, 0) for ch, p in pads.items()}
    shape = tuple(
        d if isinstance(d, str) else d - sum(pads[ch]) for ch, d in zip(letters, (dims[ch] for ch in letters))
    )
    src = pool.pick_or_arg(draw, TensorType(shape, dtype), max_bound=max_bound)
    if not any(sum(p) for p in pads.values()):
        return src
    attrs = {
        "low": [pads[ch][0] for ch in letters],
        "high": [pads[ch][1] for ch in letters],
        "value": 0 if dtype == "i32" else 0.0,
    }
    return pool.derive("pad", (src,), attrs)


def _conv_propose(kind: str) -> Callable:
    def propose(draw: Callable, pool: Any) -> tuple[tuple[str, ...], dict] | None:
        image_l, filter_l, out_l = CONV_LAYOUTS[kind]
        spatial = [ch for ch in image_l if ch in SPATIAL]
        window, strides, dilations, outs = _draw_window(draw, pool, len(spatial))
        dtype = draw(pool.st.sampled_from(sorted({frm for frm, _ in MATMUL_TYPES if frm in pool.dtypes} or {"f32"})))
        dims: dict[str, Dim] = {
            "n": small_dim(draw, pool, 3),
            "c": small_dim(draw, pool, 16),
            "f": small_dim(draw, pool, 16),
        }
        for i, x in enumerate(spatial):
            dims[x.upper()] = window[i]
            dims[x] = (
                (outs[i] - 1) * strides[i]
                + (window[i] - 1) * dilations[i]
                + 1
                + draw(pool.st.integers(0, strides[i] - 1))
            )
        image = _padded_image(draw, pool, image_l, dims, dtype, max_bound=4)
        filt = pool.pick_or_arg(draw, TensorType(tuple(dims[ch] for ch in filter_l), dtype), max_bound=4)
        acc_dtype = draw(pool.st.sampled_from(sorted({to for frm, to in MATMUL_TYPES if frm == dtype})))
        out = {**dims, **dict(zip(spatial, outs))}
        acc = pool.destination(draw, TensorType(tuple(out[ch] for ch in out_l), acc_dtype))
        return (image, filt, acc), {"strides": strides, "dilations": dilations, "generic": draw(pool.st.booleans())}

    return propose


for _kind in CONV_LAYOUTS:
    register(
        OpSpec(
            _kind,
            _conv_infer(_kind),
            _conv_emit(_kind),
            _conv_bound(_kind),
            _conv_propose(_kind),
            has_init=False,
            has_generic_form=True,
            acc_input=2,
            family="convolution",
        )
    )


def _pool_infer(name: str) -> Callable:
    def infer(types: Sequence[TensorType], attrs: Mapping[str, Any]) -> TensorType:
        (image,) = types
        if image.dtype not in ("f32", "f16", "i32"):
            raise ValueError(f"{name} is not defined on {image.dtype}")
        layout = POOL_LAYOUTS[POOLINGS[name][0]]
        dims = _window_dims(layout, types, attrs, attrs["window"])
        return TensorType(tuple(dims[ch] for ch in layout[2]), image.dtype)

    return infer


def _pool_emit(name: str) -> Callable:
    layout, kind = POOLINGS[name]

    def emit(ctx: EmitContext, node: Any, operands: Sequence[str]) -> str:
        image, t, a = ctx.graph.type_of(node.inputs[0]), node.type, node.attrs
        identity = POOL_IDENTITY[kind]
        if t.dtype == "i32" and kind != "sum":
            identity = -(2**31) if kind == "max" else 2**31 - 1
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
            return maxmin(kind)(b, [x[2], x[0]], t.dtype)

        return ctx.generic(name_, [(operands[0], image), (window, window_t)], (filled, t), maps, iterators, body)

    return emit


def _pool_bound(name: str) -> Callable:
    def bound(bs: Sequence[float], attrs: Mapping[str, Any], types: Sequence[TensorType]) -> float:
        return bs[0] * math.prod(attrs["window"]) if POOLINGS[name][1] == "sum" else bs[0]

    return bound


def _pool_propose(name: str) -> Callable:
    image_l = POOL_LAYOUTS[POOLINGS[name][0]][0]

    def propose(draw: Callable, pool: Any) -> tuple[tuple[str, ...], dict] | None:
        spatial = [ch for ch in image_l if ch in SPATIAL]
        window, strides, dilations, outs = _draw_window(draw, pool, len(spatial))
        dtype = draw(pool.st.sampled_from(pool.dtypes_among(("f32", "f16", "i32"))))
        dims: dict[str, Dim] = {"n": small_dim(draw, pool, 3), "c": small_dim(draw, pool, 16)}
        for i, x in enumerate(spatial):
            dims[x] = (
                (outs[i] - 1) * strides[i]
                + (window[i] - 1) * dilations[i]
                + 1
                + draw(pool.st.integers(0, strides[i] - 1))
            )
        image = _padded_image(draw, pool, image_l, dims, dtype, max_bound=50)
        return (image,), {
            "window": window,
            "strides": strides,
            "dilations": dilations,
            "generic": draw(pool.st.booleans()),
        }

    return propose


for _name in POOLINGS:
    register(
        OpSpec(
            _name,
            _pool_infer(_name),
            _pool_emit(_name),
            _pool_bound(_name),
            _pool_propose(_name),
            has_generic_form=True,
            family="convolution",
        )
    )
