"""Shrinking a case under a target: the shrunk case must still show the same bug.

``shrink(case, target, check)`` drives the shared greedy loop (``ireefuzz.tools.shrink.loop``) over the
Graph data and the case's configuration (``drop-flags``: the flags the cause does not need go): small
named passes (``PASSES``, order as data) propose smaller candidates, checked in
batches (one module compile for several candidates); the first that still hits the target and is
smaller under ``size_key`` is taken. Works for any Case, including ones not drawn by the strategy.

The target is a predicate over a candidate's findings:

* ``Target.by_signature(sig)`` keeps the whole symptom (``oracle/kind/ops/dtype/dims``): the op
  pattern, dtype and the dims of every output must stay;
* ``Target.by_cause(cause_id)`` keeps only the root cause (``ireefuzz.oracles.cause``), so ops,
  dtypes and dims around the defect may change. The result reports the cause and signature it ends
  with; a start whose minimized case lands in another cause *splits out* (``ShrinkResult.split_out``).

``check`` is an interestingness function: a batch of cases -> the findings of each.
``EvaluateCheck`` wires it to ``ireefuzz.core.evaluate`` (the real compiler); tests inject fakes.
A step never makes a defined case undefined (``undefined_case``: the interpreter on its emitted program and
inputs finds poison in an output -- a ``tensor.empty`` nothing wrote, a comparison on NaN that orders a reduction or
a sort -- or an out-of-bounds index): such a candidate is not interesting, whatever it shows, unless the starting
case was undefined too. ``confirm`` re-runs a minimized case several times; a flaky one is not filed. ``canonical_key``
names a program up to function names and SSA numbering, so two causes whose minimized programs
are the same can be merged.
"""

from __future__ import annotations

import dataclasses
from typing import TYPE_CHECKING, Any, Callable, Iterable, Iterator, Literal, Mapping, Sequence

from ireefuzz.errors import NotInteresting
from ireefuzz.generators.case import Case
from ireefuzz.generators.graph import Graph, GraphError, Node, TensorType
from ireefuzz.oracles.finding import Finding
from ireefuzz.oracles.registry import SPECS
from ireefuzz.tools.shrink.canonical import canonical_key
from ireefuzz.tools.shrink.loop import shrink_greedily
from ireefuzz.tools.shrink.target import Target, as_target, cause_id  # noqa: F401  (re-exported)

if TYPE_CHECKING:
    from ireefuzz.core.policy import Policy
    from ireefuzz.sut import CompilerConfig

Check = Callable[[Sequence[Case]], Sequence[Sequence[Finding]]]  # cases -> findings of each
Pass = Callable[[Case], Iterator[Case]]  # proposes candidates, most aggressive first

BATCH = 6  # candidates compiled together in one module

__all__ = [
    "BATCH",
    "PASSES",
    "Check",
    "Confirmation",
    "EvaluateCheck",
    "NotInteresting",
    "ShrinkResult",
    "Size",
    "Target",
    "canonical_key",
    "confirm",
    "shrink",
    "size_key",
    "size_of",
]


# --------------------------------------------------------------------------- targets


class EvaluateCheck:
    """The real interestingness test: compile + run with ``ireefuzz.core.evaluate``, running only the
    oracle that produced the target (plus ``crash``, so a crashing candidate is recognised)."""

    def __init__(
        self, target: Target | str | None = None, config: CompilerConfig | None = None, policy: Policy | None = None
    ) -> None:
        from ireefuzz import sut
        from ireefuzz.core import evaluate as ev
        from ireefuzz.sut import isolated

        oracle = as_target(target).oracle if target is not None else None
        self._evaluate = ev.evaluate
        self.config = config if config is not None else sut.CompilerConfig()
        if policy is None:
            oracles = {oracle, "crash"} & set(ev.ORACLE_NAMES) if oracle else set(ev.ORACLE_NAMES)
            policy = ev.Policy(
                oracles=frozenset(oracles or ev.ORACLE_NAMES),  # each candidate's runs bounded
                run_timeout_s=isolated.DEFAULT_RUN_TIMEOUT_S,
                **relations_of(as_target(target).value if target is not None else ""),
            )
        self.policy = policy
        self.compiles = 0
        # IREE deduplicates identical executables across the functions of one module and lists a
        # shared dispatch under the first function only, which hides per-dispatch (memory, fusion)
        # findings of later candidates: check those one per module.
        spec = SPECS.get(oracle or "")
        self.batchable = spec is None or not spec.reads_dispatches

    def __call__(self, cases: Sequence[Case]) -> list[tuple[Finding, ...]]:
        self.compiles += 1
        return [r.findings for r in self._evaluate(list(cases), self.config, self.policy)]


def relations_of(target: str) -> dict[str, Any]:
    """The policy fields that run the metamorphic relation ``target`` names on every case (``relations_for``), or
    none: a relation sampled one case in 64 would not see it again."""
    from ireefuzz.oracles.metamorphic import relations_for

    relations = relations_for(target)
    return {"relations": relations, "relations_every": 1} if relations else {}


# --------------------------------------------------------------------------- defined values

UNDEFINED_CHECK_BYTES = 1 << 28  # a case whose float64 run would take more is not interpreted (cannot tell)


def undefined_case(case: Case) -> str | None:
    """Why ``case``'s emitted program has undefined values on its inputs (the float64 interpreter's poison and
    undefined behaviour, ``core.frontends.reference_outputs``), or None: defined, or it cannot tell (too big, an
    op the interpreter lacks). The graph types keep indices in bounds; this sees what they cannot (a NaN an op
    makes and a reduction then orders, an emitted destination read before it is written)."""
    from ireefuzz.core import budget
    from ireefuzz.core.frontends import NotJudged, reference_outputs
    from ireefuzz.generators.emit import emit

    if any(budget.estimate_case(case, k) > UNDEFINED_CHECK_BYTES for k in range(len(case.instances))):
        return None
    text = emit(case.graph).text
    for k in range(len(case.instances)):
        reference = reference_outputs(text, "main", case.inputs(k))
        if isinstance(reference, NotJudged) and reference.undefined:
            return reference.reason
    return None


# --------------------------------------------------------------------------- size


@dataclasses.dataclass(frozen=True)
class Size:
    ops: int
    elements: int

    def __str__(self) -> str:
        return f"{self.ops} ops, {self.elements} elements"


def size_of(case: Case) -> Size:
    return Size(len(case.graph.nodes), case.elements)


def size_key(case: Case) -> tuple:
    """Smaller is simpler: fewer nodes, arguments, elements, instances, non-default forms, seed, flags."""
    g = case.graph
    forms = sum(n.attrs.get("init", "empty") != "empty" for n in g.nodes) + sum(
        bool(n.attrs.get("generic")) for n in g.nodes
    )
    forms += sum(n.attrs.get("form") == "linalg_ext" for n in g.nodes)
    dims = sum(d if isinstance(d, int) else 0 for t in g.args for d in t.shape) + sum(
        d if isinstance(d, int) else 0 for n in g.nodes for d in n.type.shape
    )
    return (
        len(g.nodes),
        len(g.outputs),
        len(g.args),
        case.elements,
        len(case.instances),
        dims,
        forms,
        sum(len(t.shape) for t in g.args),
        case.seed,
        len(case.flags),
    )


# --------------------------------------------------------------------------- graph surgery


def rebuild(
    graph: Graph,
    keep: Sequence[int],
    outputs: Sequence[str],
    *,
    replace: Mapping[str, str] | None = None,
    new_args: Sequence[TensorType] = (),
    keep_arguments: bool = False,
) -> Graph:
    """The graph with only nodes ``keep`` (old indices, in order), references in ``replace``
    redirected (old ref -> old ref or ``"x<i>"`` for ``new_args[i]``), unused arguments dropped
    (``keep_arguments``: kept, so each argument keeps its input values: an experiment's variant must not draw
    other inputs), and everything renumbered. Raises GraphError if the result is not well-formed."""
    replace = dict(replace or {})
    all_args = list(graph.args) + list(new_args)

    def resolve(ref: str) -> str:
        seen = set()
        while ref in replace and ref not in seen:
            seen.add(ref)
            ref = replace[ref]
        return ref

    keep = sorted(keep)
    kept = set(keep)
    nodes_old: list[tuple[int, Node]] = []
    for i in keep:
        node = graph.nodes[i]
        inputs = tuple(resolve(r) for r in node.inputs)
        attrs = dict(node.attrs)
        init = attrs.get("init", "empty")
        if init != "empty":
            kind, _, ref = init.partition(":")
            ref = resolve(ref)
            if kind == "init-of" and (ref[0] != "n" or int(ref[1:]) not in kept):
                attrs["init"] = "empty"
            else:
                attrs["init"] = f"{kind}:{ref}"
        nodes_old.append((i, dataclasses.replace(node, inputs=inputs, attrs=attrs)))
    outs = [resolve(o) for o in outputs]
    for ref in [r for _, n in nodes_old for r in n.inputs] + outs:
        if ref[0] == "n" and int(ref[1:]) not in kept:
            raise GraphError(f"{ref} is dropped but still used")
    # arguments still used, in their old order (x<i> = new args after the old ones)
    used = []
    for _, n in nodes_old:
        used += [r for r in n.inputs if r[0] in "ax"]
        init = n.attrs.get("init", "empty")
        if init.startswith("value:") and init[6] in "ax":
            used.append(init[6:])
    order = lambda r: int(r[1:]) + (len(graph.args) if r[0] == "x" else 0)
    kept_args = [f"a{k}" for k in range(len(graph.args))] if keep_arguments else []
    arg_refs = sorted(set(used) | set(kept_args), key=order)
    arg_map = {r: f"a{k}" for k, r in enumerate(arg_refs)}
    node_map = {f"n{old}": f"n{k}" for k, (old, _) in enumerate(nodes_old)}
    rename = lambda r: arg_map.get(r) or node_map.get(r) or r

    new_nodes = []
    for _, n in nodes_old:
        attrs = dict(n.attrs)
        init = attrs.get("init", "empty")
        if init != "empty":
            kind, _, ref = init.partition(":")
            attrs["init"] = f"{kind}:{rename(ref)}"
        new_nodes.append(dataclasses.replace(n, inputs=tuple(rename(r) for r in n.inputs), attrs=attrs))
    args = [all_args[order(r)] for r in arg_refs]
    if not any(o[0] == "n" for o in outs):
        raise GraphError("no node outputs left")
    return Graph(tuple(args), tuple(new_nodes), tuple(rename(o) for o in outs)).check()


def cone(graph: Graph, outputs: Iterable[str]) -> set[int]:
    """Indices of the nodes the ``outputs`` depend on (inputs and destinations)."""
    todo = [o for o in outputs if o[0] == "n"]
    seen: set[int] = set()
    while todo:
        i = int(todo.pop()[1:])
        if i in seen:
            continue
        seen.add(i)
        node = graph.nodes[i]
        refs = list(node.inputs)
        init = node.attrs.get("init", "empty")
        if init != "empty":
            refs.append(init.partition(":")[2])
        todo += [r for r in refs if r[0] == "n"]
    return seen


def with_graph(case: Case, graph: Graph) -> Case:
    """``case`` with ``graph``; instances keep only (and must give) the graph's symbols."""
    symbols = set(graph.symbols)
    instances = tuple({s: v for s, v in inst.items() if s in symbols} for inst in case.instances)
    instances = tuple(dict(t) for t in dict.fromkeys(tuple(sorted(i.items())) for i in instances))
    return dataclasses.replace(case, graph=graph, instances=instances).check()


def _attempt(build: Callable[[], Case]) -> Case | None:
    try:
        return build()
    except (GraphError, ValueError, KeyError, IndexError, TypeError):
        return None


# --------------------------------------------------------------------------- passes


def single_output(case: Case) -> Iterator[Case]:
    """Make one node the only output and keep just its cone (smallest cones first)."""
    g = case.graph
    cones = sorted(((cone(g, [f"n{i}"]), f"n{i}") for i in range(len(g.nodes))), key=lambda c: len(c[0]))
    for nodes, out in cones:
        if (out,) == tuple(g.outputs) and len(nodes) == len(g.nodes):
            continue
        c = _attempt(lambda: with_graph(case, rebuild(g, sorted(nodes), [out])))
        if c is not None:
            yield c
    # signatures that name every output's dims: keep the number of outputs, repeat a smaller one
    for j, out in enumerate(g.outputs):
        for other in dict.fromkeys(g.outputs):
            if other != out and g.type_of(other) == g.type_of(out):
                outs = list(g.outputs)
                outs[j] = other
                c = _attempt(lambda: with_graph(case, rebuild(g, sorted(cone(g, outs)), outs)))
                if c is not None:
                    yield c


def dead_nodes(case: Case) -> Iterator[Case]:
    """Drop nodes outside the outputs' cone and the arguments no kept node reads (a drawn graph may carry an
    argument nothing reads; a bundle keeps one only when the failure needs it)."""
    g = case.graph
    live = cone(g, g.outputs)
    c = _attempt(lambda: with_graph(case, rebuild(g, sorted(live), g.outputs)))
    if c is not None and (len(c.graph.nodes), len(c.graph.args)) < (len(g.nodes), len(g.args)):
        yield c


def cut_to_argument(case: Case) -> Iterator[Case]:
    """Replace a node by a fresh function argument of its type (earliest nodes first: cuts the most)."""
    g = case.graph
    for i, node in enumerate(g.nodes):
        ref = f"n{i}"
        if ref in g.outputs or node.type.dtype == "i1":
            continue
        t = TensorType(node.type.shape, node.type.dtype)
        if not set(t.symbols) <= set(g.symbols):
            continue
        keep = [j for j in range(len(g.nodes)) if j != i]

        def build(keep=keep, ref=ref, t=t) -> Case:
            graph = rebuild(g, keep, g.outputs, replace={ref: "x0"}, new_args=[t])
            return with_graph(case, rebuild(graph, sorted(cone(graph, graph.outputs)), graph.outputs))

        c = _attempt(build)
        if c is not None:
            yield c


def bypass_node(case: Case) -> Iterator[Case]:
    """Replace a node by one of its inputs of the same type (``exp(x)`` -> ``x``)."""
    g = case.graph
    for i, node in reversed(list(enumerate(g.nodes))):
        ref = f"n{i}"
        for r in dict.fromkeys(node.inputs):
            if (g.type_of(r).shape, g.type_of(r).dtype) != (node.type.shape, node.type.dtype):
                continue
            if ref in g.outputs and r[0] == "a":
                continue
            keep = [j for j in range(len(g.nodes)) if j != i]

            def build(keep=keep, ref=ref, r=r) -> Case:
                graph = rebuild(g, keep, g.outputs, replace={ref: r})
                return with_graph(case, rebuild(graph, sorted(cone(graph, graph.outputs)), graph.outputs))

            c = _attempt(build)
            if c is not None:
                yield c


def simplify_forms(case: Case) -> Iterator[Case]:
    """One node at a time: destination -> fresh ``tensor.empty``, generic -> named op, gather -> extract."""
    g = case.graph
    for i, node in enumerate(g.nodes):
        for key, plain in (("init", "empty"), ("generic", False), ("form", "extract")):
            if key in node.attrs and node.attrs[key] != plain:
                attrs = dict(node.attrs) | {key: plain}
                nodes = list(g.nodes)
                nodes[i] = dataclasses.replace(node, attrs=attrs)
                c = _attempt(
                    lambda: with_graph(
                        case, rebuild(Graph(g.args, tuple(nodes), g.outputs), range(len(nodes)), g.outputs)
                    )
                )
                if c is not None:
                    yield c


def shrink_static_sizes(case: Case) -> Iterator[Case]:
    """Every occurrence of one static size d at once (keeps matmul K etc. consistent) -> 1, d/2, d-1."""
    g = case.graph
    values = sorted(
        {d for t in list(g.args) + [n.type for n in g.nodes] for d in t.shape if isinstance(d, int) and d > 1},
        reverse=True,
    )
    for d in values:
        for smaller in dict.fromkeys((1, d // 2, d - 1)):
            if 0 < smaller < d:
                c = _attempt(lambda: with_graph(case, g.map_dims(lambda x: smaller if x == d else x).check()))
                if c is not None:
                    yield c


def shrink_instances(case: Case) -> Iterator[Case]:
    """Keep one shape instance; then each symbol's size -> 1, s/2, s-1."""
    if len(case.instances) > 1:
        for inst in case.instances:
            yield dataclasses.replace(case, instances=(inst,))
    for k, inst in enumerate(case.instances):
        for sym, size in inst.items():
            for smaller in dict.fromkeys((1, size // 2, size - 1)):
                if 0 < smaller < size:
                    insts = list(case.instances)
                    insts[k] = dict(inst) | {sym: smaller}
                    c = _attempt(lambda: dataclasses.replace(case, instances=tuple(insts)).check())
                    if c is not None:
                        yield c


def simplify_values(case: Case) -> Iterator[Case]:
    """Fill values and the input seed towards 0."""
    g = case.graph
    for i, node in enumerate(g.nodes):
        if node.op == "fill" and node.attrs.get("value") not in (0, 0.0):
            nodes = list(g.nodes)
            nodes[i] = dataclasses.replace(
                node, attrs=dict(node.attrs) | {"value": 0 if node.type.dtype == "i32" else 0.0}
            )
            c = _attempt(lambda: with_graph(case, Graph(g.args, tuple(nodes), g.outputs).check()))
            if c is not None:
                yield c
    if case.seed != 0:
        yield dataclasses.replace(case, seed=0)


def drop_flags(case: Case) -> Iterator[Case]:
    """The configuration minimized: every flag dropped at once, then each flag the cause may not need (a
    cross target's triple and CPU features go together), so a repro keeps exactly the flags that trigger it."""
    if not case.flags:
        return
    yield dataclasses.replace(case, flags=())
    for unit in _flag_units(case.flags):
        yield dataclasses.replace(case, flags=tuple(f for f in case.flags if f not in unit))


def _flag_units(flags: Sequence[str]) -> list[tuple[str, ...]]:
    from ireefuzz.sut.config_space import FEATURES_FLAG, TRIPLE_FLAG

    target = tuple(f for f in flags if f.split("=", 1)[0] in (TRIPLE_FLAG, FEATURES_FLAG))
    return ([target] if target else []) + [(f,) for f in flags if f not in target]


PASSES: tuple[tuple[str, Pass], ...] = (
    ("single-output", single_output),
    ("dead-nodes", dead_nodes),
    ("cut-to-argument", cut_to_argument),
    ("bypass-node", bypass_node),
    ("shrink-instances", shrink_instances),
    ("shrink-static-sizes", shrink_static_sizes),
    ("simplify-forms", simplify_forms),
    ("simplify-values", simplify_values),
    ("drop-flags", drop_flags),
)


# --------------------------------------------------------------------------- driver


@dataclasses.dataclass(frozen=True)
class ShrinkResult:
    case: Case
    target: Target
    start: Finding  # the finding the target matched on the starting case
    finding: Finding  # ... and on the shrunk case
    before: Size
    after: Size
    steps: tuple[str, ...]  # names of the passes that made progress, in order
    evaluations: int  # candidate cases checked
    seconds: float

    @property
    def signature(self) -> str:
        """The signature the shrunk case ends with (under a cause it may differ from the start's)."""
        return self.finding.signature

    @property
    def cause(self) -> str:
        """The cause the shrunk case ends with."""
        return self.target.cause_of(self.finding)

    @property
    def split_out(self) -> bool:
        """The minimized program lands in another cause than the start: a separate bug."""
        return self.cause != self.target.cause_of(self.start)

    def __repr__(self) -> str:
        return f"ShrinkResult({self.target}: {self.before} -> {self.after} in {len(self.steps)} steps)"


def shrink(
    case: Case,
    target: Target | str,
    check: Check,
    *,
    passes: Sequence[tuple[str, Pass]] = PASSES,
    batch: int = BATCH,
    max_evaluations: int = 400,
    verify_alone: bool = True,
    log: Callable[[str], None] | None = None,
    undefined: Callable[[Case], str | None] = undefined_case,
) -> ShrinkResult:
    """Greedily shrink ``case`` while it shows ``target`` (a signature string means ``Target.by_signature``).
    ``undefined`` says why a case's values are undefined (None: defined): a candidate it says so of is never
    taken, unless the starting case is undefined too."""
    target = as_target(target)
    observed: dict[str, Sequence[Finding]] = {}
    may_be_undefined = undefined(case) is not None

    def interesting(cases: Sequence[Case]) -> list[bool]:
        results = check(cases)
        observed.update(zip((c.dumps() for c in cases), results))
        return [
            target(findings) and (may_be_undefined or c is case or undefined(c) is None)
            for c, findings in zip(cases, results)
        ]

    outcome = shrink_greedily(
        case,
        interesting,
        passes,
        size_key,
        identity=Case.dumps,
        batch=batch if getattr(check, "batchable", True) else 1,
        verify_alone=verify_alone,
        max_evaluations=max_evaluations,
        not_interesting=f"the starting case does not show {target}: {case!r}",
        log=log and (lambda name, c: log(f"{name}: {size_of(c)} {c.graph!r}")),
    )
    start, end = target.hit(observed[case.dumps()]), target.hit(observed[outcome.value.dumps()])
    assert start is not None and end is not None  # shrink_greedily starts from and returns interesting cases
    return ShrinkResult(
        outcome.value,
        target,
        start,
        end,
        size_of(case),
        size_of(outcome.value),
        outcome.steps,
        outcome.evaluations,
        outcome.seconds,
    )


# --------------------------------------------------------------------------- confirmation


@dataclasses.dataclass(frozen=True)
class Confirmation:
    runs: int
    hits: int

    @property
    def status(self) -> Literal["confirmed", "flaky", "lost"]:
        return "confirmed" if self.hits == self.runs else "flaky" if self.hits else "lost"

    @property
    def fileable(self) -> bool:
        return self.status == "confirmed"


def confirm(case: Case, target: Target | str, check: Check, runs: int = 3) -> Confirmation:
    """Re-run ``case`` ``runs`` times (each its own compile); flaky if it shows ``target`` only sometimes."""
    target = as_target(target)
    hits = sum(target(check([case])[0]) for _ in range(runs))
    return Confirmation(runs, hits)
