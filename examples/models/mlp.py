"""An MLP block with layer norm: LN -> Linear -> GELU -> Linear, residual."""

import jax
import jax.numpy as jnp
import numpy as np

DYNAMIC = {"x": {0: "batch"}}


def layer_norm(x, scale, bias, eps=1e-5):
    mean = jnp.mean(x, axis=-1, keepdims=True)
    var = jnp.mean(jnp.square(x - mean), axis=-1, keepdims=True)
    return (x - mean) * jax.lax.rsqrt(var + eps) * scale + bias


def forward(params, x):
    h = layer_norm(x, params["ln_scale"], params["ln_bias"])
    h = jax.nn.gelu(h @ params["w1"] + params["b1"])
    return x + h @ params["w2"] + params["b2"]


def example_args(seed=0, batch=8, d=32, hidden=64):
    rng = np.random.default_rng(seed)
    f = lambda *s, scale=1.0: (rng.standard_normal(s) * scale).astype(np.float32)
    params = {
        "ln_scale": 1 + f(d, scale=0.1),
        "ln_bias": f(d, scale=0.1),
        "w1": f(d, hidden, scale=d**-0.5),
        "b1": f(hidden, scale=0.1),
        "w2": f(hidden, d, scale=hidden**-0.5),
        "b2": f(d, scale=0.1),
    }
    return params, f(batch, d)
