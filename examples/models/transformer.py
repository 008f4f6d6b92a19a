"""A decoder block: RMS norm, attention with a causal mask and rotary embeddings, SwiGLU feed-forward."""

import jax
import jax.numpy as jnp
import numpy as np

DYNAMIC = {"x": {0: "seq"}}
HEADS = 4


def rms_norm(x, scale, eps=1e-6):
    return x * jax.lax.rsqrt(jnp.mean(x * x, axis=-1, keepdims=True) + eps) * scale


def rotary(x, base=10000.0):
    seq, _, head_dim = x.shape
    half = head_dim // 2
    freqs = base ** (-jnp.arange(half, dtype=jnp.float32) / half)
    angles = jnp.arange(seq, dtype=jnp.float32)[:, None] * freqs[None, :]
    cos, sin = jnp.cos(angles)[:, None, :], jnp.sin(angles)[:, None, :]
    x1, x2 = x[..., :half], x[..., half:]
    return jnp.concatenate([x1 * cos - x2 * sin, x1 * sin + x2 * cos], axis=-1)


def attention(x, wq, wk, wv, wo):
    seq, d = x.shape
    head_dim = d // HEADS
    q = rotary((x @ wq).reshape(seq, HEADS, head_dim))
    k = rotary((x @ wk).reshape(seq, HEADS, head_dim))
    v = (x @ wv).reshape(seq, HEADS, head_dim)
    scores = jnp.einsum("qhd,khd->hqk", q, k) / jnp.sqrt(jnp.float32(head_dim))
    causal = jnp.tril(jnp.ones((seq, seq), dtype=bool))
    scores = jnp.where(causal[None], scores, jnp.finfo(jnp.float32).min)
    probs = jax.nn.softmax(scores, axis=-1)
    out = jnp.einsum("hqk,khd->qhd", probs, v).reshape(seq, d)
    return out @ wo


def swiglu(x, w_gate, w_up, w_down):
    return (jax.nn.silu(x @ w_gate) * (x @ w_up)) @ w_down


def forward(params, x):
    h = x + attention(rms_norm(x, params["attn_norm"]), params["wq"], params["wk"], params["wv"], params["wo"])
    return h + swiglu(rms_norm(h, params["mlp_norm"]), params["w_gate"], params["w_up"], params["w_down"])


def example_args(seed=0, seq=16, d=32, hidden=64):
    rng = np.random.default_rng(seed)
    f = lambda *s, scale=1.0: (rng.standard_normal(s) * scale).astype(np.float32)
    params = {
        "attn_norm": 1 + f(d, scale=0.1),
        "mlp_norm": 1 + f(d, scale=0.1),
        "wq": f(d, d, scale=d**-0.5),
        "wk": f(d, d, scale=d**-0.5),
        "wv": f(d, d, scale=d**-0.5),
        "wo": f(d, d, scale=d**-0.5),
        "w_gate": f(d, hidden, scale=d**-0.5),
        "w_up": f(d, hidden, scale=d**-0.5),
        "w_down": f(hidden, d, scale=hidden**-0.5),
    }
    return params, f(seq, d)
