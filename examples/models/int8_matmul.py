"""Int8 weight-only quantization: int8 weights with per-output-channel scales, dequantized in the matmul."""

import jax.numpy as jnp
import numpy as np

DYNAMIC = {"x": {0: "batch"}}


def quantize(w):
    scale = np.abs(w).max(axis=0) / 127.0
    return np.clip(np.round(w / scale), -127, 127).astype(np.int8), scale.astype(np.float32)


def forward(params, x):
    w = params["w_int8"].astype(jnp.float32) * params["scale"]
    return x @ w + params["bias"]


def example_args(seed=0, batch=8, d_in=64, d_out=32):
    rng = np.random.default_rng(seed)
    w_int8, scale = quantize(rng.standard_normal((d_in, d_out)).astype(np.float32))
    params = {"w_int8": w_int8, "scale": scale, "bias": (rng.standard_normal(d_out) * 0.1).astype(np.float32)}
    return params, rng.standard_normal((batch, d_in)).astype(np.float32)
