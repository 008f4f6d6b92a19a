"""ireefuzz's public API: everything another repository needs, and nothing else.

``import ireefuzz`` gives the same names lazily (``ireefuzz.graphs`` imports only what it needs);
this module imports them all eagerly, for readers, IDEs and type checkers. Everything else in the
package is internal and may change.

Generating programs
    graphs(*, ops, min_nodes, max_nodes, dtypes, dynamic)   Hypothesis strategy of well-formed graphs
    cases(*, max_instances, target_cpus, flags, **graph_kwargs)   graphs + shape instances + input seed
    OP_NAMES, ELEMENTWISE_OPS, PRODUCER_OPS, CONTRACTION_OPS, REDUCTION_OPS, DATA_MOVEMENT_OPS
    GraphBuilder, Graph, TensorType, Case, GraphError, emit

Checking them
    check_case(case_or_graph, *, instances, oracles, sut)   every oracle; fails the test with a repro
        (the ``ireefuzz_check`` fixture is this, bound to the command line's configuration)
    check_jax(fn, *example_args, dynamic, instances, oracles, sut)   a JAX function through jax.export and
        IREE, every oracle at every shape instance, JAX in float64 as the reference (the ``check_jax`` fixture)
    awkward_sizes(*symbols)   Hypothesis strategy of {symbol: size} over awkward sizes, for check_jax sweeps
    evaluate_cases(cases, config, policy) -> [CaseResult];  CompilerConfig, Policy, ORACLE_NAMES
    IreeSut, KnownFinding, Finding, IreeNotFound

``ireefuzz.tools.check`` and ``ireefuzz.core.evaluate`` are modules (the ``ireefuzz check`` command, the
evaluation pipeline); a public function of the same name would be replaced by the module as soon
as anything imports it, hence ``check_case`` / ``evaluate_cases``.

Each oracle on its own
    check_numeric, check_inputs_unchanged, check_compile_failure, check_run_failure,
    check_memory, check_fusion
"""

from __future__ import annotations

from ireefuzz import __all__ as _PUBLIC
from ireefuzz.core.evaluate import ORACLE_NAMES, CaseResult, Policy
from ireefuzz.core.evaluate import evaluate as evaluate_cases
from ireefuzz.generators.builder import GraphBuilder
from ireefuzz.generators.case import Case
from ireefuzz.generators.emit import emit
from ireefuzz.generators.graph import Graph, GraphError, TensorType
from ireefuzz.generators.ops import OP_NAMES, PRODUCER_OPS, ops_of
from ireefuzz.generators.strategies import cases, graphs
from ireefuzz.oracles.crash import check_compile_failure, check_run_failure
from ireefuzz.oracles.finding import Finding
from ireefuzz.oracles.fusion import check_fusion
from ireefuzz.oracles.immutability import check_inputs_unchanged
from ireefuzz.oracles.memory import check_memory
from ireefuzz.oracles.numeric import check_numeric
from ireefuzz.sut import CompilerConfig, IreeNotFound
from ireefuzz.testing import IreeSut, KnownFinding, check_jax
from ireefuzz.testing import check as check_case
from ireefuzz.tools.jax_model import awkward_sizes

# Op subsets, for ``graphs(ops=...)`` / ``cases(ops=...)``; together they cover OP_NAMES (tests/test_public_api.py).
# Each is an op family of the registry (``OpSpec.family``), the unit the generator balances its draws by.
ELEMENTWISE_OPS: tuple[str, ...] = ops_of("elementwise")
CONTRACTION_OPS: tuple[str, ...] = ops_of("contraction")
REDUCTION_OPS: tuple[str, ...] = ops_of("reduction")
DATA_MOVEMENT_OPS: tuple[str, ...] = ops_of("data-movement")
CONVOLUTION_OPS: tuple[str, ...] = ops_of("convolution")
NORMALIZATION_OPS: tuple[str, ...] = ops_of("normalization")
SORTING_OPS: tuple[str, ...] = ops_of("sorting")
MODEL_OPS: tuple[str, ...] = ops_of("model")  # patterns from model bug reports: index chains, masks, quantization

# The public names are listed once, in ireefuzz/__init__.py, which loads them from here on first use.
__all__ = list(_PUBLIC)
