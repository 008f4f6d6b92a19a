"""Fusion oracle: producers materialized into memory instead of being fused, and their cost.

An iota (a ``linalg.generic`` of ``linalg.index`` with no inputs), its broadcast, a fill or a
constant can always be recomputed inside its consumers. When IREE gives such a producer its
own dispatch, the data is written to memory and read back (the "HLO iota should fuse" issue).
This oracle reads each dispatch's executable source with the MLIR bindings, and the scheduling
statistics of the whole program:

* ``materialized-producer``: a dispatch that reads no tensor data (no
  ``iree_tensor_ext``/``flow.dispatch.tensor.load``) and stores results computed only from
  indices, constants and push constants, **and another dispatch reads it** (``DispatchIR.read_by``, from
  the host program's ``flow.dispatch`` ops). One whose data only goes back to the caller is the program's own
  output (a folded result of dynamic shape must be written by some dispatch): no finding. Where the host
  program was not read (an older release's dump), a program with another dispatch is judged as before. A
  producer const-expr hoisting moved into a global (``DispatchIR.hoists``, ``reads_hoisted``) is not judged
  (``not_judged``): it is still in memory, but whether IREE fuses it was not seen.
* ``extra-dispatches``: more dispatches than the graph's budget.
* ``transient-memory``: transient memory above the graph's budget. The statistic is the static
  transient size; with dynamic shapes it reads 0 (sizes are computed at run time), so this kind
  is blind for dynamic graphs, and callers should give a budget only for static ones.
"""

from __future__ import annotations

import functools
import math
import re
from typing import Any, Mapping, Sequence

from ireefuzz.generators.graph import Graph
from ireefuzz.generators.ops import PRODUCER_OPS
from ireefuzz.oracles import ir_text, vocabulary
from ireefuzz.oracles.diagnostics import _pipeline, _signature_ops, _words, dispatch_role, ops_role
from ireefuzz.oracles.finding import Cause, Finding, dispatch_dtype_dims, make_signature
from ireefuzz.oracles.finding import make_cause as _cause
from ireefuzz.oracles.ir import (
    dispatch_fact,
    dispatch_op_pattern,
    first_line,
    functions,
    parse_ir,
    program_op_pattern,
    walk,
)
from ireefuzz.oracles.spec import Evaluation, OracleSpec, Verdict, never_runs, register

_TENSOR_LOADS = frozenset(vocabulary.TENSOR_LOADS)
_TENSOR_STORES = frozenset(vocabulary.TENSOR_STORES)
_PRODUCER_ROOTS = vocabulary.PRODUCER_ROOTS


@functools.lru_cache(maxsize=512)
def materializing_op(source: str) -> str | None:
    """The excerpt of the op that a load-free, storing dispatch materializes, else None."""
    module = parse_ir(source)  # keep the module alive: its ops are invalid once it is freed
    for function in functions(module):
        ops = list(walk(function))
        names = {op.name for op in ops}
        if names & _TENSOR_LOADS or not names & _TENSOR_STORES:
            continue
        # a store into a window of a larger (readwrite) result assembles that result in place (a concat's operand,
        # an insert_slice): the constant is the program's own output there, not a producer kept for a consumer
        stored = [
            op.operands[0].owner
            for op in ops
            if op.name in _TENSOR_STORES and f":{op.operands[0].type}>" in str(op.operands[1].type)
        ]
        producers = [
            op
            for op in stored
            if hasattr(op, "name") and op.name.startswith(_PRODUCER_ROOTS) and not ir_text.reduces(first_line(op))
        ]
        if producers:
            return first_line(producers[0])
    return None


@dispatch_fact("materializing")
def materializing(dispatch: Any) -> str | None:
    """``materializing_op`` of the dispatch's executable source (None without one)."""
    return materializing_op(dispatch.source) if dispatch.source else None


@dispatch_fact("gathered_loads")
def gathered_loads(dispatch: Any) -> list[str]:
    """``ir_text.gathered_loads`` of the dispatch's executable source: the types it reads only as a gather's source
    (the printed form makes every use plain, so the text is read with any bindings)."""
    return ir_text.gathered_loads(dispatch.source) if dispatch.source else []


# How every reader of a materialized producer reads it, when no linalg op of theirs takes it as an operand -> the
# cause it is, whatever the producer, its consumers' roles or its pipeline: dispatch creation has nothing to fuse
# it into. As a gather's source (``tensor.extract``, ``iree_linalg_ext.gather``): ``GatherFusionPattern`` fuses
# only a bit-extend or a transpose producer (open PR iree-org/iree#24310 admits elementwise ones). By a dispatch
# with no compute op (a slice's or a concat's copy): there is no linalg op to take it (what #13745's fix, PR #14070,
# left). As an operand of a contraction (a matmul, a batch matmul, a contract): dispatch creation fuses no producer
# into a contraction's operands, by design (only a dequantization-like one is cloned in: PR #15662; the review of
# PR #16502: "this is going to fuse all leading elementwise operations into GEMMs and convolutions ... we dont want
# to do that always"), with the aggressive policy too.
# As a top-k's input: dispatch creation fuses no producer into iree_linalg_ext.topk (an exp of an argument stays its
# own dispatch too, with the aggressive policy: stop 47's host outsider), so which producer it is says nothing.
READ_THROUGH = {
    "tensor.extract": "gather-source",
    "a copy": "copy-source",
    "a contraction": "contraction-operand",
    "a top-k": "topk-operand",
}


def read_through(excerpt: str, readers: Sequence[Any]) -> str:
    """How every reader of the producer whose first line is ``excerpt`` reads a tensor of its type: "tensor.extract"
    (``gathered_loads``), "a copy" (a dispatch with no compute op), else "" (a linalg op takes it, or they differ)."""
    types = re.findall(r"tensor<[^>]*>", excerpt)
    ways = {_read_by(reader, types[-1]) for reader in readers} if types else set()
    return ways.pop() if len(ways) == 1 else ""


def _read_by(reader: Any, tensor_type: str) -> str:
    if any(same_data(tensor_type, loaded) for loaded in gathered_loads(reader)):
        return "tensor.extract"
    if dispatch_op_pattern(reader) == "-":
        return "a copy"
    role = dispatch_role(str(getattr(reader, "name", "")))
    return {"contraction": "a contraction", "topk": "a top-k"}.get(role, "")


def same_data(a: str, b: str) -> bool:
    """Two tensor types hold the same data as far as the host program's reshapes and broadcasts go (one element
    type, the same static element count, the same dynamic type, or ``b`` is ``a`` under leading dims): a producer
    stored as ``tensor<81xi32>`` is loaded as ``tensor<9x9xi32>``; an iota stored as ``tensor<?xf32>`` is loaded
    broadcast as ``tensor<2x?xf32>`` (stop 42's x86-64-v3 campaign called that iota>elementwise, a new cause)."""
    if a == b:
        return True
    shape_a, shape_b = (re.fullmatch(r"tensor<((?:(?:\d+|\?)x)*)(\w+)>", t) for t in (a, b))
    if shape_a is None or shape_b is None or shape_a.group(2) != shape_b.group(2):
        return False
    dims_a, dims_b = (m.group(1).split("x")[:-1] for m in (shape_a, shape_b))
    if "?" in dims_a or "?" in dims_b:  # a broadcast on the host adds leading dims to what was stored
        return len(dims_b) > len(dims_a) and dims_b[len(dims_b) - len(dims_a) :] == dims_a
    count = lambda dims: math.prod(int(d) for d in dims)
    return count(dims_a) == count(dims_b)


def statistic(statistics: Mapping[str, Any] | None, key: str) -> int | None:
    """``key`` (e.g. ``dispatch-count``) anywhere in the nested scheduling statistics JSON."""
    if not isinstance(statistics, Mapping):
        return None
    if key in statistics:
        return int(statistics[key])
    for value in statistics.values():
        found = statistic(value, key)
        if found is not None:
            return found
    return None


def check_fusion(
    dispatches: Sequence[Any],
    statistics: Mapping[str, Any] | None,
    *,
    graph_dispatch_budget: int | None = None,
    transient_budget_bytes: int | None = None,
    graph_ops: str | None = None,
    dtype: str | None = None,
    dims: str | None = None,
) -> list[Finding]:
    """Findings for materialized producers, dispatches over budget and transient memory over budget.

    ``dispatches`` are ``sut.DispatchIR``; ``statistics`` is ``Artifact.statistics``.
    ``transient_budget_bytes=0`` says the graph needs no transient memory (static graphs only).
    """
    dispatch_count = statistic(statistics, "dispatch-count")
    if dispatch_count is None:
        dispatch_count = len(dispatches)
    transient = statistic(statistics, "transient-memory-size")
    common = {"dispatch_count": dispatch_count, "transient_memory_size": transient}

    def finding(kind: str, ops: str, message: str, dispatch_name: str = "", **evidence: Any) -> Finding:
        own = dispatch_dtype_dims(dispatch_name)  # a per-dispatch finding is signed by its dispatch
        return Finding(
            oracle="fusion",
            kind=kind,
            signature=make_signature("fusion", kind, ops, dtype or own[0], dims or own[1]),
            message=message,
            evidence=common | evidence,
        )

    findings: list[Finding] = []
    by_name = {d.name: d for d in dispatches}
    if len(dispatches) > 1:
        for dispatch in dispatches:
            excerpt = materializing(dispatch)
            read_by = getattr(dispatch, "read_by", None)
            if excerpt is None or read_by == () or getattr(dispatch, "hoists", ()):  # hoisted: ``not_judged``
                continue
            ops = graph_ops or dispatch_op_pattern(dispatch)
            readers = [by_name[name] for name in read_by or () if name in by_name]
            way = read_through(excerpt, readers)
            through = {"read_through": way} if way else {}
            findings.append(
                finding(
                    "materialized-producer",
                    ops,
                    f"{dispatch.name} only materializes index/constant data into memory: {excerpt}",
                    dispatch_name=dispatch.name,
                    dispatch=dispatch.name,
                    pipeline=dispatch.pipeline,
                    excerpt=excerpt,
                    **({"read_by": list(read_by)} if read_by is not None else {}),
                    **through,
                )
            )
    graph_pattern = lambda: graph_ops or program_op_pattern(dispatches)
    if graph_dispatch_budget is not None and dispatch_count > graph_dispatch_budget:
        findings.append(
            finding(
                "extra-dispatches",
                graph_pattern(),
                f"{dispatch_count} dispatches where the graph needs at most {graph_dispatch_budget}",
                dispatches=[d.name for d in dispatches],
                budget=graph_dispatch_budget,
            )
        )
    if transient_budget_bytes is not None and transient is not None and transient > transient_budget_bytes:
        findings.append(
            finding(
                "transient-memory",
                graph_pattern(),
                f"{transient} bytes of transient memory where the graph needs at most {transient_budget_bytes}",
                dispatches=[d.name for d in dispatches],
                budget=transient_budget_bytes,
            )
        )
    return findings


HOISTED = (
    "fusion: a producer hoisted into a global (const-expr hoisting) is read by a dispatch: whether it fuses is not "
    "judged"
)


def not_judged(dispatches: Sequence[Any], findings: Sequence[Finding]) -> str | None:
    """Why the fusion oracle did not judge a program it found no materialized producer in, or None: a dispatch
    reads a hoisted constant global (``DispatchIR.reads_hoisted``). Hoisting took the producer out of the program
    (into a ``util.initializer``'s dispatch, which ``check_fusion`` skips, or folded by the consteval JIT): the data
    is still in memory, and whether IREE would fuse the producer was not seen."""
    if any(f.kind == "materialized-producer" for f in findings):
        return None
    return HOISTED if any(getattr(d, "reads_hoisted", ()) for d in dispatches) else None


# --------------------------------------------------------------------------- its cause and its record


def producer_kind(excerpt: str, ops: str = "") -> str:
    """What a materialized producer is, from its op (the excerpt is its first line) and the dispatch's op
    pattern (``generic[index]``: a generic reading ``linalg.index``): an iota, a fill (a splat, named or a
    generic of no input and no index), a constant."""
    if "linalg.fill" in excerpt or "tensor.splat" in excerpt:
        return "fill"
    if "arith.constant" in excerpt or "tensor.generate" in excerpt:
        return "constant"
    if "linalg.generic" in excerpt or not excerpt:
        return "iota" if "generic[index" in ops or "iota" in ops else "fill" if excerpt or "fill" in ops else "producer"
    return "producer"


def _fusion_cause(finding: Finding) -> Cause:
    ev = finding.evidence
    if finding.kind != "materialized-producer":  # over a budget: by what the program's dispatches compute
        names = ev.get("dispatches")
        names = names if isinstance(names, list) else []
        roles = sorted({dispatch_role(str(d)) for d in names} - {"-"}) or [ops_role(_signature_ops(finding))]
        return _cause(
            "fusion",
            [finding.kind, "+".join(roles)],
            f"{_words(finding.kind).capitalize()} over the graph's budget in a {'+'.join(roles)} program",
        )
    if (way := str(ev.get("read_through") or "")) in READ_THROUGH:  # one mechanism whatever the producer
        return _cause(
            "fusion",
            [finding.kind, READ_THROUGH[way]],
            f"A producer every consumer reads through {way} gets its own dispatch",
        )
    producer = producer_kind(str(ev.get("excerpt") or ""), _signature_ops(finding))
    pipeline = _pipeline(ev.get("pipeline"))
    readers = ev.get("read_by")  # what reads it decides whether IREE fuses it: a sort's in-place operand, reductions
    read = "+".join(sorted({dispatch_role(str(d)) for d in readers})) if isinstance(readers, list) else ""
    into = f" {read}" if read else ""
    return _cause(
        "fusion",
        [finding.kind, f"{producer}{'>' + read if read else ''}@{pipeline}"],
        f"A {producer} producer gets its own dispatch ({pipeline}) instead of fusing into its{into} consumers",
    )


def returns_constant_data(graph: Graph) -> bool:
    """True if some output is computed from index/constant producers alone (so a dispatch that
    materializes it is required, not a fusion failure)."""
    constant: set[str] = set()
    for i, node in enumerate(graph.nodes):
        if all(r in constant for r in node.inputs) and (node.inputs or node.op in PRODUCER_OPS):
            constant.add(f"n{i}")
    return any(o in constant for o in graph.outputs)


def _judge_fusion(e: Evaluation) -> Verdict:
    """No finding where the graph returns constant data (its dispatch must materialize it); a producer hoisted
    into a global not judged (``not_judged``)."""
    if e.graph is not None and returns_constant_data(e.graph):
        return Verdict()
    found = check_fusion(e.dispatches, e.statistics)
    hoisted = not_judged(e.dispatches, found)
    return Verdict(tuple(found), not_judged=(hoisted,) if hoisted else ())


register(
    OracleSpec(
        name="fusion",
        cause=_fusion_cause,
        reproduce=lambda kind: "dispatches",
        reads_run=never_runs,
        reads_dispatches=True,
        policies=(("aggressive-fusion", vocabulary.AGGRESSIVE_FUSION_FLAG),),
        absent=lambda kind: "the producer fuses into its consumer",
        weight=0.6,
        happened="A producer that only computes index/constant data is materialized into memory by its own "
        "dispatch instead of being fused into its consumer.",
        expected="The producer is recomputed inside the consumer's dispatch.",
        judges={"compiled": _judge_fusion},
    )
)
