"""Small, self-contained JAX models written the way real code writes them (plain ``jax.numpy``, no downloads).

Each module has ``forward(params, x)``, ``example_args(seed=0) -> (params, x)`` and ``DYNAMIC`` (the
``dynamic=`` its shape sweep uses). ``ireefuzz.check_jax(m.forward, *m.example_args(), dynamic=m.DYNAMIC)``
checks one; ``tests/test_check_jax.py`` checks them all.
"""

MODELS = ("mlp", "transformer", "convnet", "moe", "int8_matmul")
