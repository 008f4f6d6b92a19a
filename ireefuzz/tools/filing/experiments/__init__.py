"""Experiments before a verdict: the variants an IREE engineer runs on a shrunk program, and what they say.

A new cause is a claim: "this is a bug of its own". An engineer tests it by changing one thing at a time and
compiling again: dims static at the instance sizes and static dims dynamic, an argument used as a destination
replaced by ``tensor.empty`` (filled where the op reads it), a splat ``linalg.generic`` as ``linalg.fill`` and
back, each consumer removed, f16 / bf16 as f32, a rank more or less (where the ops allow it), another CPU
(``generic``, ``x86-64-v3``, ``host``) and data tiling on / off. ``graph_experiments`` builds these from the
metamorphic relations' own transforms (``core.relations``: ``to_static``, ``to_dynamic``, ``dps_variants``,
``config_variants``); ``program_experiments`` builds the ones that work on a raw program's text (the CPUs, f32,
``tensor.empty`` for an argument init, a static slice or a splat input (``linalg.fill``, splat constant / generic)
read from a new argument, the splat also read in its consumer's body over that argument); ``policy_experiments`` the
compiler policies of the target's oracle (``OracleSpec.policies``: fusion's aggressive fusion, one compile).
``run_experiments`` compiles and runs each through the one pipeline (``core.evaluate``, whose findings carry their
causes, ``oracles.cause.assign_causes``) and records an ``Outcome`` per variant: the same cause, a known cause,
another cause, clean, or not judged (and why). A CPU whose code this machine cannot run is compiled only: its
run-time verdicts are not judged.

``judge`` reads the table and nothing else:

- **duplicate-of K** when a variant lands in the known cause K of the same oracle family while the target goes
  away (the same mechanism under another surface), or when K shows beside the target in the same dispatch and
  comes and goes with it in every variant (one defect reported twice, e.g. the copies of a known stack buffer);
- the **trigger**: the variants that make the failure go away, as sentences ("With `tensor.empty` instead of
  `%arg1` as the outs of n0 (reduce_sum), it compiles.");
- the **nearest known cause**, and why this cause is not it.

``record`` is what a bundle's ``finding.json`` keeps (``experiments``); ``section_lines`` writes it for ISSUE.md
and the campaign's summary.md; ``duplicates`` reads bundles back, so the campaign counts a cause judged duplicate
as known: a nightly is red only for a cause that survived its experiments.

The modules: ``table`` (the values), ``verdict`` (``judge``, and the nearness of causes), ``compiler_variants``,
``graph_variants``, ``program_variants`` (on ``program_rewrites``, the raw program's text rewrites), ``cut`` (the
wrong op alone at its operands' values), ``twins``, ``running``
(``run_experiments``, ``for_check``) and ``records``. Here: the names their importers use.
"""

from __future__ import annotations

from .compiler_variants import (
    BACKEND_VMVX,
    CPUS,
    backend_experiments,
    feature_experiments,
    host_description,
    host_named,
    policy_experiments,
)
from .graph_variants import graph_experiments
from .program_rewrites import (
    argument_inits,
    producer_sites,
    reranked_text,
    widened_text,
    with_argument_types,
    with_empty_init,
    with_producer_as_argument,
    with_view_as_argument,
)
from .program_variants import (
    program_experiments,
    program_producer_experiments,
    program_result_experiments,
    program_shape_experiments,
)
from .records import duplicates, lost_alone, read, record, section_lines, with_culprit, with_section
from .running import MAX_EXPERIMENTS, chosen, for_check, run_experiments
from .table import (
    ALONE,
    AS_GIVEN,
    EDGE_UP,
    EXTRA_DIM,
    Experiment,
    ExperimentTable,
    Outcome,
    Row,
    Verdict,
    alone_cause,
    degenerate_cures,
)
from .verdict import (
    FEATURES,
    culprit_family,
    distance,
    failure_stage,
    features,
    judge,
    localized_mechanisms,
    mechanism_key,
)

__all__ = [
    "ALONE",
    "alone_cause",
    "AS_GIVEN",
    "BACKEND_VMVX",
    "CPUS",
    "EDGE_UP",
    "EXTRA_DIM",
    "FEATURES",
    "MAX_EXPERIMENTS",
    "Experiment",
    "ExperimentTable",
    "Outcome",
    "Row",
    "Verdict",
    "argument_inits",
    "backend_experiments",
    "chosen",
    "culprit_family",
    "degenerate_cures",
    "distance",
    "duplicates",
    "failure_stage",
    "feature_experiments",
    "features",
    "for_check",
    "graph_experiments",
    "host_description",
    "host_named",
    "judge",
    "localized_mechanisms",
    "lost_alone",
    "mechanism_key",
    "policy_experiments",
    "producer_sites",
    "program_experiments",
    "program_producer_experiments",
    "program_result_experiments",
    "program_shape_experiments",
    "read",
    "record",
    "reranked_text",
    "run_experiments",
    "section_lines",
    "widened_text",
    "with_argument_types",
    "with_culprit",
    "with_empty_init",
    "with_producer_as_argument",
    "with_section",
    "with_view_as_argument",
]
