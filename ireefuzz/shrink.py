"""Shrinking a case under ONE signature: the shrunk case must still show exactly that bug.

Two shrinkers, both checking the signature at every step:

* ``shrink(case, signature, check)`` -- a greedy shrinker of our own over the Graph data: small
  named passes (``PASSES``, order as data) propose smaller candidates; each round the candidates of
  one pass are checked in batches (one module compile for several candidates), the first that keeps
  the signature and is smaller under ``size_key`` is taken, and the rounds repeat until no pass
  makes progress. Works for any Case, including ones that did not come from the strategy.
* ``hunt(strategy, check, known=...)`` -- Hypothesis search + shrinking. Hypothesis tells failures
  apart only by exception type and raise site, so every signature gets its own exception class
  (``signature_exception``) raised from its own site; signatures already recorded make the
  property *return*, so a campaign keeps going with fresh seeds instead of re-finding them.

``check`` is an interestingness function: a batch of cases -> the set of signatures of each.
``EvaluateCheck`` wires it to ``ireefuzz.evaluate`` (the real compiler); tests inject fakes.
``confirm`` re-runs a minimized case several times; a flaky one is not filed.
"""
from __future__ import annotations

import dataclasses
import time
from typing import Any, Callable, Iterable, Iterator, Mapping, Sequence

from ireefuzz.errors import NotInteresting
from ireefuzz.generators.case import Case
from ireefuzz.generators.graph import Graph, GraphError, Node, TensorType
from ireefuzz.oracles.finding import signature_class

Check = Callable[[Sequence[Case]], list[frozenset[str]]]  # cases -> signatures of each
Pass = Callable[[Case], Iterator[Case]]  # proposes candidates, most aggressive first

BATCH = 6  # candidates compiled together in one module


# --------------------------------------------------------------------------- interestingness


def oracle_of(signature: str) -> str:
    return signature.split("/", 1)[0]


class EvaluateCheck:
    """The real interestingness test: compile + run with ``ireefuzz.evaluate``, running only the
    oracle that produced the signature (plus ``crash``, so a crashing candidate is recognised)."""

    def __init__(self, signature: str | None = None, config: Any = None, policy: Any = None) -> None:
        from ireefuzz import evaluate as ev, sut

        self._evaluate = ev.evaluate
        self.config = config if config is not None else sut.CompilerConfig()
        if policy is None:
            oracles = {oracle_of(signature), "crash"} & set(ev.ORACLE_NAMES) if signature else set(ev.ORACLE_NAMES)
            policy = ev.Policy(oracles=frozenset(oracles or ev.ORACLE_NAMES))
        self.policy = policy
        self.compiles = 0
        # IREE deduplicates identical executables across the functions of one module and lists a
        # shared dispatch under the first function only, which hides per-dispatch (memory, fusion)
        # findings of later candidates: check those one per module.
        self.batchable = not signature or oracle_of(signature) not in ("memory", "fusion")

    def __call__(self, cases: Sequence[Case]) -> list[frozenset[str]]:
        self.compiles += 1
        return [frozenset(r.signatures) for r in self._evaluate(list(cases), self.config, self.policy)]


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
    """Smaller is simpler: fewer nodes, arguments, elements, instances, non-default forms, seed."""
    g = case.graph
    forms = sum(n.attrs.get("init", "empty") != "empty" for n in g.nodes) + sum(bool(n.attrs.get("generic")) for n in g.nodes)
    forms += sum(n.attrs.get("form") == "linalg_ext" for n in g.nodes)
    dims = sum(d if isinstance(d, int) else 0 for t in g.args for d in t.shape) + sum(
        d if isinstance(d, int) else 0 for n in g.nodes for d in n.type.shape)
    return (len(g.nodes), len(g.outputs), len(g.args), case.elements, len(case.instances), dims, forms,
            sum(len(t.shape) for t in g.args), case.seed)


# --------------------------------------------------------------------------- graph surgery


def rebuild(graph: Graph, keep: Sequence[int], outputs: Sequence[str], *,
            replace: Mapping[str, str] | None = None, new_args: Sequence[TensorType] = ()) -> Graph:
    """The graph with only nodes ``keep`` (old indices, in order), references in ``replace``
    redirected (old ref -> old ref or ``"x<i>"`` for ``new_args[i]``), unused arguments dropped,
    and everything renumbered. Raises GraphError if the result is not well-formed."""
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
    arg_refs = sorted(set(used), key=order)
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
    """Drop nodes outside the outputs' cone."""
    g = case.graph
    live = cone(g, g.outputs)
    if len(live) < len(g.nodes):
        c = _attempt(lambda: with_graph(case, rebuild(g, sorted(live), g.outputs)))
        if c is not None:
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
                c = _attempt(lambda: with_graph(case, rebuild(Graph(g.args, tuple(nodes), g.outputs), range(len(nodes)), g.outputs)))
                if c is not None:
                    yield c


def shrink_static_sizes(case: Case) -> Iterator[Case]:
    """Every occurrence of one static size d at once (keeps matmul K etc. consistent) -> 1, d/2, d-1."""
    g = case.graph
    values = sorted({d for t in list(g.args) + [n.type for n in g.nodes] for d in t.shape if isinstance(d, int) and d > 1},
                    reverse=True)
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
            nodes[i] = dataclasses.replace(node, attrs=dict(node.attrs) | {"value": 0 if node.type.dtype == "i32" else 0.0})
            c = _attempt(lambda: with_graph(case, Graph(g.args, tuple(nodes), g.outputs).check()))
            if c is not None:
                yield c
    if case.seed != 0:
        yield dataclasses.replace(case, seed=0)


PASSES: tuple[tuple[str, Pass], ...] = (
    ("single-output", single_output),
    ("dead-nodes", dead_nodes),
    ("cut-to-argument", cut_to_argument),
    ("bypass-node", bypass_node),
    ("shrink-instances", shrink_instances),
    ("shrink-static-sizes", shrink_static_sizes),
    ("simplify-forms", simplify_forms),
    ("simplify-values", simplify_values),
)


# --------------------------------------------------------------------------- greedy driver



@dataclasses.dataclass(frozen=True)
class ShrinkResult:
    case: Case
    signature: str
    before: Size
    after: Size
    steps: tuple[str, ...]  # names of the passes that made progress, in order
    evaluations: int  # candidate cases checked
    seconds: float

    def __repr__(self) -> str:
        return f"ShrinkResult({self.signature}: {self.before} -> {self.after} in {len(self.steps)} steps)"


def shrink(case: Case, signature: str, check: Check, *, passes: Sequence[tuple[str, Pass]] = PASSES,
           batch: int = BATCH, max_evaluations: int = 400, verify_alone: bool = True,
           log: Callable[[str], None] | None = None) -> ShrinkResult:
    """Greedily shrink ``case`` while ``signature`` stays among its signatures (see module doc)."""
    started = time.perf_counter()
    if not getattr(check, "batchable", True):
        batch = 1
    if signature not in check([case])[0]:
        raise NotInteresting(f"the starting case does not show {signature}: {case!r}")
    current, steps, evaluations = case, [], 1
    seen = {case.dumps()}
    progress = True
    while progress and evaluations < max_evaluations:
        progress = False
        for name, propose in passes:
            while evaluations < max_evaluations:
                found, used = _first_interesting(current, propose, signature, check, seen, batch, verify_alone)
                evaluations += used
                if found is None:
                    break
                current = found
                steps.append(name)
                progress = True
                if log:
                    log(f"{name}: {size_of(current)} {current.graph!r}")
            else:
                break
    return ShrinkResult(current, signature, size_of(case), size_of(current), tuple(steps), evaluations,
                        time.perf_counter() - started)


def _first_interesting(current: Case, propose: Pass, signature: str, check: Check, seen: set[str], batch: int,
                       verify_alone: bool) -> tuple[Case | None, int]:
    key = size_key(current)
    fresh = []
    for c in propose(current):
        text = c.dumps()
        if text not in seen and size_key(c) < key:
            seen.add(text)
            fresh.append(c)
    used = 0
    for start in range(0, len(fresh), batch):
        chunk = fresh[start:start + batch]
        used += len(chunk)
        for c, sigs in zip(chunk, check(chunk)):
            if signature in sigs:
                if len(chunk) > 1 and verify_alone and signature not in check([c])[0]:
                    continue  # only interesting next to its batch-mates (shared module): not taken
                return c, used
    return None, used


# --------------------------------------------------------------------------- confirmation


@dataclasses.dataclass(frozen=True)
class Confirmation:
    runs: int
    hits: int

    @property
    def status(self) -> str:
        return "confirmed" if self.hits == self.runs else "flaky" if self.hits else "lost"

    @property
    def fileable(self) -> bool:
        return self.status == "confirmed"


def confirm(case: Case, signature: str, check: Check, runs: int = 3) -> Confirmation:
    """Re-run ``case`` ``runs`` times (each its own compile); flaky if it shows ``signature`` only sometimes."""
    hits = sum(signature in check([case])[0] for _ in range(runs))
    return Confirmation(runs, hits)


# --------------------------------------------------------------------------- Hypothesis


class SignatureFailure(Exception):
    """Base of the per-signature exception classes raised from a property."""

    signature: str = ""


def signature_exception(signature: str) -> type[SignatureFailure]:
    """A distinct exception class per signature, so Hypothesis keeps failures apart while shrinking."""
    return signature_class(SignatureFailure, signature)


def raise_for(signature: str, case: Case) -> None:
    # Each signature gets its own site too: a tiny function compiled per signature.
    cls = signature_exception(signature)
    site = _SITES.get(signature)
    if site is None:
        namespace: dict[str, Any] = {}
        exec(compile("def _raise(cls, case):\n    raise cls(case.dumps())\n", f"<signature {signature}>", "exec"), namespace)
        site = _SITES[signature] = namespace["_raise"]
    site(cls, case)


_SITES: dict[str, Callable] = {}


@dataclasses.dataclass(frozen=True)
class Hunted:
    signature: str
    case: Case  # Hypothesis's minimal example for it


def hunt(strategy: Any, check: Check, *, known: Iterable[str] = (), target: str | None = None, rounds: int = 3,
         max_examples: int = 50, seed: int = 0, settings_kwargs: Mapping[str, Any] | None = None) -> list[Hunted]:
    """Search ``strategy`` for new signatures and let Hypothesis shrink each under its own exception class.

    Signatures in ``known`` (and those found in earlier rounds) make the property return; with
    ``target`` only that signature raises. Each round uses a fresh seed.
    """
    from hypothesis import HealthCheck, Phase, given, settings
    from hypothesis import seed as hseed

    recorded = set(known)
    found: list[Hunted] = []
    for round_ in range(rounds):
        def prop(case: Case) -> None:
            for sig in sorted(check([case])[0]):
                if sig in recorded or (target is not None and sig != target):
                    continue
                raise_for(sig, case)

        options = dict(max_examples=max_examples, database=None, deadline=None, report_multiple_bugs=True,
                       phases=(Phase.generate, Phase.shrink), suppress_health_check=list(HealthCheck))
        options.update(settings_kwargs or {})
        test = hseed(seed + round_)(settings(**options)(given(strategy)(prop)))
        errors: list[BaseException] = []
        try:
            test()
        except SignatureFailure as e:
            errors = [e]
        except BaseExceptionGroup as group:  # several distinct signatures in one run
            errors = list(group.exceptions)
        new = [e for e in errors if isinstance(e, SignatureFailure)]
        others = [e for e in errors if not isinstance(e, SignatureFailure)]
        if others:
            raise others[0]
        for e in new:
            found.append(Hunted(e.signature, Case.from_json(__import__("json").loads(e.args[0]))))
            recorded.add(e.signature)
        if target is not None and any(h.signature == target for h in found):
            break
    return found
