"""Input-immutability oracle: after the call, every caller buffer still holds what was passed in."""

from __future__ import annotations

import re
from typing import Sequence

import numpy as np

from ireefuzz.generators.graph import Graph, dims_pattern
from ireefuzz.generators.ops import OPS, destinations

from .diagnostics import (
    _IN_PLACE_ROLES,
    ARGUMENT_MUTATION,
    IN_PLACE_OP_MUTATION,
    READ_ONLY_MUTATION,
    _written_arguments,
    dispatch_role,
)
from .finding import Cause, Finding, make_signature
from .spec import WRITTEN_ARGUMENT, OracleSpec, Verdict, register


def check_inputs_unchanged(graph: Graph, before: Sequence[np.ndarray], after: Sequence[np.ndarray]) -> list[Finding]:
    findings = []
    for i, (b, a) in enumerate(zip(before, after)):
        b, a = np.asarray(b), np.asarray(a)
        if b.shape == a.shape and b.dtype == a.dtype and b.tobytes() == a.tobytes():
            continue
        # The signature names the ops that write into the argument (it is their destination) if any,
        # else the ops reading it: that is where the bug is, whatever else the graph does.
        writers = writers_of(graph, f"a{i}")
        users = writers or [graph.nodes[j].op for j in graph.users(f"a{i}")]
        t = graph.args[i]
        evidence: dict = {"argument": i, "ops": users}
        if b.shape == a.shape and b.dtype == a.dtype:
            idx = np.argwhere(_bitwise_differs(b, a))
            first = [int(v) for v in idx[0]] if len(idx) else []
            evidence |= {
                "changed_elements": int(len(idx)),
                "first_index": first,
                "before": b[tuple(first)].item(),
                "after": a[tuple(first)].item(),
            }
        else:
            evidence |= {"before_shape": list(b.shape), "after_shape": list(a.shape)}
        findings.append(
            Finding(
                "immutability",
                "input-mutated",
                make_signature(
                    "immutability",
                    "input-mutated",
                    ">".join(dict.fromkeys(users)) or "-",
                    t.dtype,
                    dims_pattern([t.shape]),
                ),
                f"argument {i} ({t!r}) was modified by the call "
                f"({evidence.get('changed_elements', 'shape')} elements changed)",
                evidence,
            )
        )
    return findings


def writers_of(graph: Graph, arg: str) -> list[str]:
    """``op[role]`` of every node writing into argument ``arg`` (as its DPS init ``outs`` or its accumulator
    ``acc``), directly or through a view of it (a slice or reshape): the role names the one known defect."""
    aliases = {arg}
    for i, n in enumerate(graph.nodes):
        if OPS[n.op].view and n.inputs and n.inputs[0] in aliases:
            aliases.add(f"n{i}")
    return [
        f"{n.op}[{role}]" for n in graph.nodes for ref, role in destinations(n.op, n.inputs, n.attrs) if ref in aliases
    ]


def _bitwise_differs(b: np.ndarray, a: np.ndarray) -> np.ndarray:
    """Per-element bitwise inequality (so NaN payloads and -0.0 count, and NaN == NaN)."""
    width = b.dtype.itemsize
    rows = lambda x: np.ascontiguousarray(x).reshape(-1).view(np.uint8).reshape(-1, width)
    return (rows(b) != rows(a)).any(axis=1).reshape(b.shape)


# --------------------------------------------------------------------------- what IREE did: flow-level ties

_IMPORT = re.compile(r"%([\w#:]+) = hal\.tensor\.import (?:on\([^)]*\) )?(?:wait\(%[\w#]+\) => )?%arg(\d+)\b")
_VIEW = re.compile(r"%([\w#:]+) = flow\.tensor\.(?:reshape|bitcast) %([\w#]+)")
_DISPATCH = re.compile(r"%([\w]+)(?::\d+)? = flow\.dispatch @[\w$.-]+::@([\w$.-]+)\b.*?->(.*)$")
# an update of a slice into a tensor, tied to its target: into an imported argument, the caller's buffer
_UPDATE = re.compile(r"%([\w]+) = flow\.tensor\.update %[\w#]+, %([\w#]+)\[")
UPDATE_TIE = "flow.tensor.update"  # how a tied update is named among the dispatches tied to an argument
_FUNC = re.compile(r"^\s*util\.func (?:public |private )?@([\w$.-]+)\(", re.M)


def tied_arguments(flow_ir: str, function: str) -> dict[int, list[str]] | None:
    """Per argument of ``function``: the dispatches (IREE's names) whose results are tied to its imported buffer,
    directly or through a reshape of it or a result already tied to it -- a dispatch that writes the caller's
    buffer in place, with no ``flow.tensor.clone`` between (iree-org/iree#16168's mechanism); so is a
    ``flow.tensor.update`` into it (``UPDATE_TIE``: an insert_slice into an argument, stop 45's outsiders). Read
    from the program compiled ``--compile-to=flow``; an argument no dispatch is tied to is absent. None when the
    IR has no such function."""
    body = _function_body(flow_ir, function)
    if not body:
        return None
    owner: dict[str, int] = {}  # SSA value -> the argument whose buffer it is
    tied: dict[int, list[str]] = {}

    def tie(result: str, target: str, name: str) -> None:  # ``result`` is ``target``'s buffer, written by ``name``
        if target in owner:
            tied.setdefault(owner[target], []).append(name)
            owner[result] = owner[target]

    for line in body.splitlines():
        if m := _IMPORT.search(line):
            owner[m.group(1).split(":")[0]] = int(m.group(2))
        elif (m := _VIEW.search(line)) and m.group(2).split("#")[0] in owner:
            owner[m.group(1).split(":")[0]] = owner[m.group(2).split("#")[0]]
        elif m := _UPDATE.search(line):
            tie(m.group(1), m.group(2).split("#")[0], UPDATE_TIE)
        elif m := _DISPATCH.search(line):
            for operand in re.findall(r"%([\w]+)", re.sub(r"\{[^}]*\}", "", m.group(3))):
                tie(m.group(1), operand, m.group(2))
    return tied


def _function_body(flow_ir: str, function: str) -> str:
    starts = [(m.start(), m.group(1)) for m in _FUNC.finditer(flow_ir)]
    for k, (start, name) in enumerate(starts):
        if name == function:
            return flow_ir[start : starts[k + 1][0] if k + 1 < len(starts) else len(flow_ir)]
    return ""


# --------------------------------------------------------------------------- its cause and its record


def _immutability_cause(finding: Finding) -> Cause:
    tied = finding.evidence.get("tied_to")
    if isinstance(tied, list):  # what IREE did, read from the program compiled to flow: it decides
        if tied and all(dispatch_role(str(name)) in _IN_PLACE_ROLES for name in tied):
            return IN_PLACE_OP_MUTATION  # the in-place op's own bufferization, whatever the program wrote
        return ARGUMENT_MUTATION if tied else READ_ONLY_MUTATION
    ops = finding.evidence.get("ops")
    if isinstance(ops, list) and any(str(op).endswith(("[outs]", "[acc]")) for op in ops):
        return ARGUMENT_MUTATION
    written = _written_arguments(finding)
    if written is not None and "argument" in finding.evidence and f"a{finding.evidence['argument']}" not in written:
        return READ_ONLY_MUTATION
    return ARGUMENT_MUTATION  # no graph (a raw MLIR program): the one known mechanism


register(
    OracleSpec(
        name="immutability",
        cause=_immutability_cause,
        reproduce=lambda kind: "inputs-after",
        weight=0.9,
        happened="Calling the compiled function modifies one of its *input* buffers: after the call, argument "
        "{argument} holds other values than were passed in (evidence below).",
        expected="Input buffers are read-only from the caller's point of view: after the call every argument holds "
        "exactly what was passed in (results go into buffers IREE allocates).",
        title="[CPU] `{ops}` with a function argument as `outs` overwrites the caller's input buffer ({type})",
        reads_flow_ties=True,
        absent=lambda kind: "its inputs stay unchanged",
        defect=lambda kind: WRITTEN_ARGUMENT,  # any input written
        judges={"ran": lambda e: Verdict(tuple(e.mutated_inputs()))},  # as the case's frontend signs them
    )
)
