"""A mixture-of-experts layer: a softmax router picks the top-k experts per token, their weights are
gathered, each token runs through its experts (a grouped matmul), the results are mixed by the router."""

import jax
import jax.numpy as jnp
import numpy as np

DYNAMIC = {"x": {0: "tokens"}}
TOP_K = 2


def forward(params, x):
    logits = x @ params["router"]  # [tokens, experts]
    weights, experts = jax.lax.top_k(jax.nn.softmax(logits, axis=-1), TOP_K)  # [tokens, k]
    weights = weights / jnp.sum(weights, axis=-1, keepdims=True)
    w_in = jnp.take(params["w_in"], experts, axis=0)  # gather: [tokens, k, d, hidden]
    w_out = jnp.take(params["w_out"], experts, axis=0)  # [tokens, k, hidden, d]
    h = jax.nn.relu(jnp.einsum("td,tkdh->tkh", x, w_in))  # grouped matmul, one group per (token, expert)
    y = jnp.einsum("tkh,tkhd->tkd", h, w_out)
    return jnp.einsum("tk,tkd->td", weights, y)


def example_args(seed=0, tokens=8, d=16, hidden=32, experts=4):
    rng = np.random.default_rng(seed)
    f = lambda *s, scale=1.0: (rng.standard_normal(s) * scale).astype(np.float32)
    params = {
        "router": f(d, experts, scale=d**-0.5),
        "w_in": f(experts, d, hidden, scale=d**-0.5),
        "w_out": f(experts, hidden, d, scale=hidden**-0.5),
    }
    return params, f(tokens, d)
