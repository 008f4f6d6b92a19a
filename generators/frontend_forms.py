"""Forms IREE's frontends never produce: what a generated graph does beyond Torch, StableHLO and TOSA lowering.

IREE's input conversions (torch-mlir -> linalg / linalg_ext, StableHLO -> linalg, TOSA -> linalg) are
value-semantic: every destination-passing op gets a fresh ``tensor.empty`` (or a ``linalg.fill`` of one)
as its init, never a function argument. ireefuzz draws such forms on purpose (they are valid IREE input,
and iree-org/iree#8303 / #16168 were found with them), but a finding that only they reach is less likely
to matter to users: it is labelled with the reasons below and ranked after the rest.

Each rule is one entry of ``RULES`` (a name and a test on a node); ``beyond_frontends(graph)`` lists the
names of those a graph breaks, ``breaks_a_rule(node)`` says whether a node does (the generators' own test, when
asked for forms a frontend emits only). The attention score region, which frontends type f32 for every input
type, is emitted so (``ops.contractions``), so it needs no rule.
"""

from __future__ import annotations

import re
from typing import Any, Callable, Mapping

from .graph import Graph, Node
from .ops import destinations

_ARGUMENT = re.compile(r"a\d+")


def _argument_destination(node: Node) -> bool:
    return any(_ARGUMENT.fullmatch(ref) for ref, _ in destinations(node.op, node.inputs, node.attrs))


RULES: Mapping[str, Callable[[Node], bool]] = {
    "a function argument as a DPS destination (outs / acc)": _argument_destination,
}


def beyond_frontends(graph: Graph) -> tuple[str, ...]:
    """The ``RULES`` ``graph`` breaks, in table order (empty: every form is one a frontend produces)."""
    return tuple(name for name, breaks in RULES.items() if any(breaks(node) for node in graph.nodes))


def breaks_a_rule(node: Node) -> bool:
    return any(breaks(node) for breaks in RULES.values())


def labelled(case_json: dict[str, Any] | None, graph: Graph) -> dict[str, Any] | None:
    """A finding's case record with ``beyond_frontends`` (the reasons) when its graph breaks a rule."""
    reasons = beyond_frontends(graph)
    return case_json if case_json is None or not reasons else {**case_json, "beyond_frontends": list(reasons)}
