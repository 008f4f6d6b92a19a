"""The cause of a finding: what one upstream issue would cover, beside its fine-grained signature (ClusterFuzz's
bucketing; the parsing it reads is ``oracles.diagnostics``).

A signature names a symptom (``oracle/kind/ops/dtype/dims``); one compiler bug shows up under many
of them (every dtype, dims pattern and neighbouring op). A ``Cause`` is derived per oracle from what
identifies the defect and nothing else, by the cause rule its judge registers (``OracleSpec.cause``):

* immutability: what IREE did to the overwritten argument. A dispatch whose result is tied to the argument's
  imported buffer with no clone (``tied_to``, read from the program compiled to flow) is one cause,
  iree-org/iree#16168, whatever op writes and whatever the program's syntax; when every tied dispatch is an
  op that updates its outs in place (sort, top-k, scan), the in-place op's own bufferization, iree-org/iree#24665
  (a sort of an argument's copy, once IREE folds the copy, sorts the argument). An argument overwritten with no
  such tie is another. A record without ``tied_to`` (older runs) falls back to the syntax.
* crash: a compile error by its normalized first diagnostic plus the pass that failed, as its family where
  several passes run one transformation (``pass_family``: the tiling passes are ``tiling``); a
  compiler crash by its crash state (crash type + top 3 frames, addresses and arguments stripped);
  timeouts, OOMs and dead workers by kind; runtime faults by their normalized message.
* memory: alloca or copy, what the dispatch computes (IREE's own name for its root op: a contraction,
  a reduction, a gather ...), and its pipeline -- never the ops around it, the dtype or the sizes. A copy is
  keyed by what it moves (the ends the memory oracle recorded): one of an input binding into the output is
  the outs-is-an-argument form (#8303), whatever the syntax; copies into and out of a buffer that the same
  dispatch's allocation finding reports are that allocation's consequence (``assign_causes``).
* fusion: the kind of producer materialized, and the pipeline.
* numeric / reference: a wrong value whose output reads an argument written in place is a consequence
  of that mutation (its cause is the mutation's); otherwise the op pattern of the output's cone
  (``cone_pattern``, one function for a campaign graph and a raw program's cone read from its IR,
  ``oracles.op_cone``) with dtype and dims dropped (``numeric/wrong-value/fill>reduce_sum``); never a function's
  name.
* metamorphic: an asymmetry takes the cause of a memory finding of its family in the same case, a
  failed variant the cause of its compile error; otherwise a relation-level cause.

A finding that follows from another in the same case (``OracleSpec.consequence``) shares that one's cause.
Pure: reads only the finding's own JSON (message, evidence, case), so older runs can be re-bucketed.
"""

from __future__ import annotations

import dataclasses
from typing import Mapping, Sequence

from .diagnostics import (  # noqa: F401  (the parsing, re-exported for the callers that bucket)
    ARGUMENT_MUTATION,
    IN_PLACE_OP_MUTATION,
    MEMORY_FAMILIES,
    READ_ONLY_MUTATION,
    clobbered_arguments,
    compile_error_stage,
    cone_pattern,
    crash_state,
    dispatch_role,
    failing_pass,
    first_error,
    normalize_diagnostic,
    ops_role,
    pass_family,
    reads_argument,
)
from .finding import Cause, Finding
from .fusion import producer_kind  # noqa: F401
from .registry import spec_of


def cause_of(finding: Finding) -> Cause:
    """The cause of one finding, from its own JSON (signature, message, evidence, case) only."""
    if not isinstance(finding.evidence, Mapping):  # a record without evidence still has a cause
        finding = dataclasses.replace(finding, evidence={})
    return spec_of(finding.oracle).cause(finding)


def assign_causes(findings: Sequence[Finding]) -> list[Finding]:
    """One case's findings with ``cause`` / ``cause_title`` set. A finding that follows from another in the
    same case (its oracle's ``consequence`` rule) records ``consequence_of`` (that finding's signature) in its
    evidence and shares its cause, followed to the finding that follows from none: a wrong value read from a
    mutated argument; a copy into or out of a buffer the same dispatch allocated, when that allocation is itself a
    finding; an asymmetry of a memory finding's family."""
    findings = [f if isinstance(f.evidence, Mapping) else dataclasses.replace(f, evidence={}) for f in findings]
    own = [cause_of(f) for f in findings]
    sources = [_consequence_source(i, findings, own) for i in range(len(findings))]
    out = []
    for i, finding in enumerate(findings):
        root, seen = i, {i}
        while (up := sources[root]) is not None and up not in seen:  # a copy's alloca, an asymmetry's copy ...
            root = up
            seen.add(root)
        if (source := sources[i]) is not None:
            finding = finding.with_evidence(consequence_of=findings[source].signature)
        out.append(finding.with_cause(own[root]))
    return out


def _consequence_source(index: int, findings: Sequence[Finding], causes: Sequence[Cause]) -> int | None:
    """The index of the finding in the same case that ``findings[index]`` follows from, if any."""
    rule = spec_of(findings[index].oracle).consequence
    return None if rule is None else rule(index, findings, causes)
