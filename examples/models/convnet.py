"""A conv block: 3x3 convolution with batch norm folded into its weights, ReLU, 2x2 max pooling (NHWC)."""

import jax
import jax.numpy as jnp
import numpy as np

DYNAMIC = {"x": {0: "batch"}}


def fold_batch_norm(w, b, gamma, beta, mean, var, eps=1e-5):
    """Inference-time batch norm folded into the conv's weights and bias, as deployment code does."""
    scale = gamma / jnp.sqrt(var + eps)
    return w * scale, (b - mean) * scale + beta


def forward(params, x):
    w, b = fold_batch_norm(params["w"], params["b"], params["gamma"], params["beta"], params["mean"], params["var"])
    y = (
        jax.lax.conv_general_dilated(
            x, w, window_strides=(1, 1), padding="SAME", dimension_numbers=("NHWC", "HWIO", "NHWC")
        )
        + b
    )
    y = jax.nn.relu(y)
    return jax.lax.reduce_window(y, -jnp.inf, jax.lax.max, (1, 2, 2, 1), (1, 2, 2, 1), "VALID")


def example_args(seed=0, batch=2, hw=16, cin=8, cout=16):
    rng = np.random.default_rng(seed)
    f = lambda *s, scale=1.0: (rng.standard_normal(s) * scale).astype(np.float32)
    params = {
        "w": f(3, 3, cin, cout, scale=(9 * cin) ** -0.5),
        "b": f(cout, scale=0.1),
        "gamma": 1 + f(cout, scale=0.1),
        "beta": f(cout, scale=0.1),
        "mean": f(cout, scale=0.1),
        "var": (1 + np.abs(f(cout, scale=0.2))).astype(np.float32),
    }
    return params, f(batch, hw, hw, cin)
