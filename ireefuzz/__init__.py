"""ireefuzz: differential fuzzing of IREE's CPU code generation, as a library and a pytest plugin.

The public API is the names in ``__all__`` (documented in ``ireefuzz.api``). They are loaded on
first use, so ``import ireefuzz`` (and the pytest plugin) imports neither IREE nor JAX.
"""

from __future__ import annotations

from typing import Any

__version__ = "0.2.0"

__all__ = [
    # generating
    "graphs",
    "cases",
    "OP_NAMES",
    "ELEMENTWISE_OPS",
    "PRODUCER_OPS",
    "CONTRACTION_OPS",
    "REDUCTION_OPS",
    "DATA_MOVEMENT_OPS",
    "CONVOLUTION_OPS",
    "NORMALIZATION_OPS",
    "SORTING_OPS",
    "MODEL_OPS",
    "GraphBuilder",
    "Graph",
    "TensorType",
    "Case",
    "GraphError",
    "emit",
    # checking
    "check_case",
    "check_jax",
    "awkward_sizes",
    "evaluate_cases",
    "CompilerConfig",
    "Policy",
    "ORACLE_NAMES",
    "CaseResult",
    "IreeSut",
    "KnownFinding",
    "Finding",
    "IreeNotFound",
    # oracles
    "check_numeric",
    "check_inputs_unchanged",
    "check_compile_failure",
    "check_run_failure",
    "check_memory",
    "check_fusion",
]


def __getattr__(name: str) -> Any:
    if name in __all__:
        from ireefuzz import api  # checks that its __all__ matches this one

        value = getattr(api, name)
        globals()[name] = value
        return value
    raise AttributeError(f"module 'ireefuzz' has no attribute {name!r}")  # lets submodule imports proceed


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(__all__))
