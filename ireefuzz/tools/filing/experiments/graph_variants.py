"""Variants of a graph ``Case``, from the metamorphic relations' transforms and the shrinker's graph edits: dims
static or dynamic, an argument init replaced, an argument updated in place read through a computed value, fill vs
splat generic, a fill read from an argument, a padded pack packing whole tiles, a shift the other way or apart, a
consumer removed, f32 for f16 / bf16, a rank more or less, data tiling on / off (``graph_experiments``, with the
CPUs)."""

from __future__ import annotations

import dataclasses
from typing import TYPE_CHECKING, Any, Callable, Iterator, Mapping

from .compiler_variants import CannotRun, cpu_experiments
from .table import APART, COMPUTED_OPERAND, EDGE_UP, EXTRA_DIM, ONE_RESULT, PRODUCER_CUT, Experiment

if TYPE_CHECKING:
    from ireefuzz.generators.case import Case


def _attempt(build: Callable[[], Any]) -> Any:
    from ireefuzz.errors import GraphError

    try:
        return build()
    except (GraphError, ValueError, KeyError, IndexError, TypeError):
        return None


def _with_node(case: Case, index: int, node: Any) -> Any:
    """``case`` with node ``index`` replaced by ``node``, checked; None where the graph no longer types (a consumer
    of the old node's type)."""
    g = case.graph
    graph = type(g)(g.args, g.nodes[:index] + (node,) + g.nodes[index + 1 :], g.outputs)
    return _attempt(lambda: _with(case, graph.check()))


def _with(case: Case, graph: Any, instances: Any = None) -> Any:
    """``case`` with ``graph`` (and ``instances``; default: the case's, kept to the graph's symbols), checked."""
    from ireefuzz.tools.shrink.graph import with_graph

    if instances is None:
        return with_graph(case, graph)
    return dataclasses.replace(case, graph=graph, instances=instances).check()


def shape_experiments(case: Case) -> Iterator[Experiment]:
    """Dynamic dims static at the first instance's sizes (all, then each alone; with an empty or unit size, also
    at that size one up, so a degenerate size is not taken for the static dims' cure), a dim at an edge size one
    size up, or static dims dynamic."""
    from ireefuzz.core.relations import to_dynamic, to_static

    g, sizes = case.graph, dict(case.instances[0])
    if g.symbols:
        shown = ", ".join(f"{s}={n}" for s, n in sizes.items())
        static = _attempt(lambda: _with(case, to_static(g, sizes), ({},)))
        if static is not None:
            yield Experiment("static", f"every dim static at the instance's sizes ({shown})", static)
        up = {s: n + 1 if n in (0, 1) else n for s, n in sizes.items()}
        edge_static = _attempt(lambda: _with(case, to_static(g, up), ({},))) if up != sizes else None
        if static is not None and edge_static is not None:
            bumped = ", ".join(f"{s}={n}" for s, n in up.items() if n != sizes[s])
            yield Experiment(f"static{EDGE_UP}", f"every dim static, with {bumped} (one size up)", edge_static)
        for sym, n in sizes.items():  # an empty or unit dim is an edge: the same program one size up
            if n in (0, 1):
                edge = _attempt(lambda: _with(case, g, ({**sizes, sym: n + 1},)))
                if edge is not None:
                    yield Experiment(f"size:{sym}={n + 1}", f"`{sym}` = {n + 1} instead of {n}", edge)
        for sym in g.symbols if len(g.symbols) > 1 else ():
            rest = ({s: n for s, n in sizes.items() if s != sym},)
            one = _attempt(lambda: _with(case, g.map_dims(lambda d: sizes[sym] if d == sym else d).check(), rest))
            if one is not None:
                yield Experiment(f"static:{sym}", f"`{sym}` static ({sizes[sym]}), the other dims dynamic", one)
        return
    dynamic, new = to_dynamic(g)
    variant = _attempt(lambda: _with(case, dynamic, (new,))) if new else None
    if variant is not None:
        yield Experiment("dynamic", f"the static sizes {', '.join(map(str, new.values()))} as dynamic dims", variant)


def init_experiments(case: Case) -> Iterator[Experiment]:
    """Each argument used as a destination replaced: a DPS ``outs`` by a fresh ``tensor.empty``
    (``dps_variants``' ``outs=empty``), an accumulator the op reads by a ``linalg.fill`` of one. So is another op's
    value as the outs of an elementwise op, which never reads it (stop 44: the fpowi NaN with a cosine as its outs
    was "a defect of its own": the cosine, read by nothing, was the only change between it and the known bug)."""
    from ireefuzz.core.relations import dps_variants
    from ireefuzz.generators.ops import OPS

    g = case.graph
    forms = dict(dps_variants(g, limit=1 << 16))
    for i, node in enumerate(g.nodes):
        init = str(node.attrs.get("init", "empty"))
        unread = init.startswith("value:n") and OPS[node.op].family == "elementwise"
        if (init.startswith("value:a") or unread) and f"n{i}.outs=empty" in forms:
            variant = _attempt(lambda: _with(case, forms[f"n{i}.outs=empty"]))
            if variant is not None:
                was = f"`%arg{init[7:]}`" if init.startswith("value:a") else f"{init[6:]}'s value"
                yield Experiment(
                    f"n{i}.outs=empty", f"`tensor.empty` instead of {was} as the outs of n{i} ({node.op})", variant
                )
        acc = OPS[node.op].acc_input
        if acc is not None and acc < len(node.inputs) and node.inputs[acc].startswith("a"):
            variant = _attempt(lambda: _with(case, accumulator_filled(g, i)))
            if variant is not None:
                yield Experiment(
                    f"n{i}.acc=fill",
                    f"a `linalg.fill` of a `tensor.empty` instead of `%arg{node.inputs[acc][1:]}` as the "
                    f"accumulator of n{i} ({node.op})",
                    variant,
                )


def accumulator_filled(graph: Any, index: int) -> Any:
    """``graph`` with node ``index``'s accumulator argument replaced by a new zero ``fill`` of its type (placed
    first); an argument nothing else reads goes."""
    from ireefuzz.generators.graph import Node
    from ireefuzz.generators.ops import OPS
    from ireefuzz.tools.shrink.graph import rebuild

    node, acc = graph.nodes[index], OPS[graph.nodes[index].op].acc_input
    t = graph.type_of(node.inputs[acc])
    zero = 0 if t.dtype.startswith("i") else 0.0
    fill = Node("fill", (), {"shape": list(t.shape), "dtype": t.dtype, "value": zero}, type(t)(t.shape, t.dtype))
    shifted = _prepend(graph, fill)
    target = shifted.nodes[index + 1]
    inputs = tuple("n0" if k == acc else r for k, r in enumerate(target.inputs))
    nodes = list(shifted.nodes)
    nodes[index + 1] = dataclasses.replace(target, inputs=inputs)
    whole = type(graph)(graph.args, tuple(nodes), shifted.outputs)
    return rebuild(whole, range(len(nodes)), whole.outputs)


def _prepend(graph: Any, node: Any) -> Any:
    """``graph`` with ``node`` as its new first node (every node reference shifted by one); unchecked."""

    def shift(ref: str) -> str:
        return f"n{int(ref[1:]) + 1}" if ref.startswith("n") else ref

    def attrs(a: Mapping[str, Any]) -> dict[str, Any]:
        init = str(a.get("init", "empty"))
        kind, _, ref = init.partition(":")
        return dict(a) | ({"init": f"{kind}:{shift(ref)}"} if ref else {})

    moved = [dataclasses.replace(n, inputs=tuple(map(shift, n.inputs)), attrs=attrs(n.attrs)) for n in graph.nodes]
    return type(graph)(graph.args, (node, *moved), tuple(map(shift, graph.outputs)))


def splat_experiments(case: Case) -> Iterator[Experiment]:
    """Each ``fill`` toggled between ``linalg.fill`` and its splat ``linalg.generic`` (``dps_variants``' form)."""
    from ireefuzz.core.relations import dps_variants

    g = case.graph
    forms = dict(dps_variants(g, limit=1 << 16))
    for i, node in enumerate(g.nodes):
        if node.op != "fill":
            continue
        generic = bool(node.attrs.get("generic"))
        variant = forms.get(f"n{i}.generic={str(not generic).lower()}")
        variant = _attempt(lambda: _with(case, variant)) if variant is not None else None
        if variant is not None:
            change = "`linalg.fill` instead of the splat `linalg.generic`" if generic else "a splat `linalg.generic`"
            yield Experiment(
                f"n{i}.{'fill' if generic else 'generic'}",
                f"{change} for n{i}" + ("" if generic else " instead of `linalg.fill`"),
                variant,
            )


def consumer_experiments(case: Case) -> Iterator[Experiment]:
    """Each consumer removed (with what only it feeds): its producers are returned instead."""
    from ireefuzz.tools.shrink.graph import cone, rebuild

    g = case.graph
    for c, node in enumerate(g.nodes):
        producers = [r for r in dict.fromkeys(node.inputs) if r.startswith("n")]
        if not producers:
            continue
        outputs = list(dict.fromkeys([o for o in g.outputs if c not in cone(g, [o])] + producers))
        kept = sorted(cone(g, outputs))  # every argument kept: its inputs stay the program's (stop 44: an unused one
        # dropped shifted the others' values, and a NaN's negative base was gone: "removing the cos cures it")
        variant = _attempt(lambda: _with(case, rebuild(g, kept, outputs, keep_arguments=True)))
        if variant is not None:
            shown = ", ".join(producers)
            yield Experiment(f"drop:n{c}", f"n{c} ({node.op}) removed ({shown} returned instead)", variant)


NARROW_FLOATS = ("f16", "bf16")


def dtype_experiments(case: Case) -> Iterator[Experiment]:
    """f16 / bf16 as f32 everywhere (a cast that becomes f32 to f32 goes)."""
    g = case.graph
    narrow = sorted({t.dtype for t in g.args} | {n.type.dtype for n in g.nodes} & set(NARROW_FLOATS))
    narrow = [d for d in narrow if d in NARROW_FLOATS]
    variant = _attempt(lambda: _with(case, widened(g))) if narrow else None
    if variant is not None:
        yield Experiment("f32", f"f32 instead of {' / '.join(narrow)}", variant)


def widened(graph: Any) -> Any:
    """``graph`` with every f16 / bf16 type (and ``dtype`` / ``to`` attribute) as f32; casts that become
    f32 -> f32 bypassed."""
    from ireefuzz.tools.shrink.graph import rebuild

    wide = lambda d: "f32" if d in NARROW_FLOATS else d
    retype = lambda t: dataclasses.replace(t, dtype=wide(t.dtype))
    nodes = []
    for n in graph.nodes:
        attrs = {k: wide(v) if k in ("dtype", "to") and isinstance(v, str) else v for k, v in n.attrs.items()}
        nodes.append(dataclasses.replace(n, attrs=attrs, type=retype(n.type)))
    g = type(graph)(tuple(retype(t) for t in graph.args), tuple(nodes), graph.outputs)
    same = {
        f"n{i}": n.inputs[0]
        for i, n in enumerate(g.nodes)
        if n.op == "cast" and g.type_of(n.inputs[0]).dtype == n.type.dtype
    }
    keep = [i for i in range(len(g.nodes)) if f"n{i}" not in same]
    return rebuild(g, keep, g.outputs, replace=same) if same else g.check()


RANKED_FAMILIES = frozenset({"elementwise", "producer", "reduction", "normalization"})  # ops with "dim"/"shape" attrs


def rank_experiments(case: Case) -> Iterator[Experiment]:
    """One leading dim more, and one less, where every op allows it (elementwise, producers, reductions,
    softmax and the norms: their ``dim`` and ``shape`` attributes move with it)."""
    from ireefuzz.generators.ops import OPS

    g = case.graph
    if not all(OPS[n.op].family in RANKED_FAMILIES for n in g.nodes):
        return
    rank = max((len(g.type_of(o).shape) for o in g.outputs), default=0)
    # the inputs of another shape are drawn anew: a wrong value of some inputs (a negative base, stop 42's pow_int)
    # coming out right there says nothing of it (``other_values``)
    up = _attempt(lambda: _with(case, with_leading_dim(g, EXTRA_DIM)))
    if up is not None:
        change = f"a leading dim of size {EXTRA_DIM} more (rank {rank} -> {rank + 1})"
        yield Experiment("rank+1", change, up, other_values=True)
    down = _attempt(lambda: _with(case, without_leading_dim(g)))
    if down is not None:
        change = f"the leading dim dropped (rank {rank} -> {rank - 1})"
        yield Experiment("rank-1", change, down, other_values=True)


def with_leading_dim(graph: Any, size: Any) -> Any:
    def shape(t: Any) -> Any:
        return dataclasses.replace(t, shape=(size, *t.shape))

    return _reranked(graph, shape, lambda d: d + 1, lambda s: [size, *s])


def without_leading_dim(graph: Any) -> Any:
    def shape(t: Any) -> Any:
        if not t.shape:
            raise ValueError(f"{t!r} has no dim to drop")
        return dataclasses.replace(t, shape=tuple(t.shape[1:]))

    def dim(d: int) -> int:
        if d < 1:
            raise ValueError("an op works along the dim to drop")
        return d - 1

    return _reranked(graph, shape, dim, lambda s: list(s[1:]))


def _reranked(graph: Any, shape: Callable, dim: Callable[[int], int], attr_shape: Callable) -> Any:
    nodes = []
    for n in graph.nodes:
        attrs = dict(n.attrs)
        if "dim" in attrs:
            attrs["dim"] = dim(int(attrs["dim"]))
        if "shape" in attrs:
            attrs["shape"] = attr_shape(attrs["shape"])
        nodes.append(dataclasses.replace(n, attrs=attrs, type=shape(n.type)))
    return type(graph)(tuple(shape(t) for t in graph.args), tuple(nodes), graph.outputs).check()


def config_experiments(case: Case) -> Iterator[Experiment]:
    """Data tiling forced on and off (``config_variants``; its CPU variant is ``cpu_experiments``')."""
    from ireefuzz.core.relations import DATA_TILING_FLAG, config_variants

    for v in config_variants(case):
        if v.label.startswith("data-tiling") and tuple(v.case.flags) != tuple(case.flags):
            flag = next(f for f in v.case.flags if f.startswith(DATA_TILING_FLAG))
            yield Experiment(v.label, f"`{flag}`", v.case)


def pack_experiments(case: Case) -> Iterator[Experiment]:
    """Each padded ``linalg.pack`` of a value an op computes, packing whole tiles instead: each inner tile that does
    not divide its static dim becomes the dim (one tile, no padding). The variant every outsider's check of a padded
    pack's stack buffer turned to (stop 44: the producer's tile read back past its end). A pack of an argument has
    none: its padded read keeps the transfer split's buffer, by design (#8076)."""
    from ireefuzz.generators.ops import OPS

    g = case.graph
    for i, node in enumerate(g.nodes):
        if node.op != "pack" or node.attrs.get("padding") is None or not node.inputs[0].startswith("n"):
            continue
        src = g.type_of(node.inputs[0])
        tiles = [
            d if isinstance(d := src.shape[p], int) and d > 0 and d % t else t
            for p, t in zip(node.attrs["inner_dims_pos"], node.attrs["inner_tiles"])
        ]
        if tiles == list(node.attrs["inner_tiles"]):  # ragged only on dynamic dims: no static whole tile
            continue
        attrs = {**node.attrs, "inner_tiles": tiles, "padding": None}
        whole = dataclasses.replace(node, attrs=attrs, type=OPS["pack"].infer([src], attrs))
        variant = _with_node(case, i, whole)  # a consumer of the old tiling: no variant
        if variant is not None:
            yield Experiment(
                f"n{i}.whole-tiles",
                f"n{i} (a padded `linalg.pack`) packing whole tiles: inner tiles {tiles} for "
                f"{list(node.attrs['inner_tiles'])}, no padding",
                variant,
            )


def shift_experiments(case: Case) -> Iterator[Experiment]:
    """Each shift (a tensor updated with a slice of itself) moved by at least half of each moved dim at the case's
    largest size, so its source and destination do not overlap (``APART``), then the other way round. Stop 45: a
    shift toward higher indices gave wrong values and the same shift the other way was right (the in-place copy
    reads what it already wrote); no overlap at all is the cure of that known cause."""
    g = case.graph
    for i, node in enumerate(g.nodes):
        if node.op != "shift":
            continue
        backward, by = bool(node.attrs["backward"]), list(node.attrs["by"])
        largest = [
            d if isinstance(d, int) else max(int(sizes.get(d, 0)) for sizes in case.instances) for d in node.type.shape
        ]
        apart = [max(k, (n + 1) // 2) if k else 0 for k, n in zip(by, largest)]  # by half a dim: no overlap
        way = f"moving toward {'lower' if backward else 'higher'} indices instead"
        tried: list[tuple[str, dict[str, Any], str]] = [
            (f"n{i}.{'forward' if backward else 'backward'}", {"backward": not backward}, way)
        ]
        if apart != by:  # not apart already
            said = f"moved by {apart} instead of {by}: its source and destination apart"
            tried.insert(0, (f"n{i}{APART}", {"by": apart}, said))
        for label, change, said in tried:
            variant = _with_node(case, i, dataclasses.replace(node, attrs={**node.attrs, **change}))
            if variant is not None:
                yield Experiment(label, f"n{i} (shift) {said}", variant)


def region_experiments(case: Case) -> Iterator[Experiment]:
    """Each region op (a branch, a loop: ``OpSpec.region``) whose region yields two tensors, yielding one instead
    (``ONE_RESULT``): the pair combined inside the branches, or a loop carrying one tensor. Stop 46: IREE packs an
    scf.if's or scf.while's two dynamic results into one buffer and reads the second at the first's offset; with
    one result there is nothing to pack, and the values are right."""
    from ireefuzz.generators.ops import OPS

    for i, node in enumerate(case.graph.nodes):
        if OPS[node.op].region and node.attrs.get("yields", 2) == 2:
            variant = _with_node(case, i, dataclasses.replace(node, attrs={**node.attrs, "yields": 1}))
            if variant is not None:
                yield Experiment(f"n{i}{ONE_RESULT}", f"n{i} ({node.op}) with its region yielding one tensor", variant)


GraphBuilder = Callable[[Any], Iterator[Experiment]]


# Ops whose result IREE may compute in their operand's buffer: a shift (the operand is the insert's destination), a
# sort or top-k (in place on a copy of their operand).
UPDATED_IN_PLACE = frozenset({"shift", "sort", "topk"})


def argument_experiments(case: Case) -> Iterator[Experiment]:
    """Each argument an op may update in place (``UPDATED_IN_PLACE``) read through a value the program computes
    (``a + a``) instead: whether the failure needs the caller's buffer at all. Stop 45: a shift of an argument wrote
    the caller's buffer, and the same shift of a computed tensor failed at run time (an overlapping copy): the
    argument was only where that copy landed."""
    from ireefuzz.generators.graph import Node
    from ireefuzz.tools.shrink.graph import rebuild

    g = case.graph
    for k, t in enumerate(g.args):
        ref = f"a{k}"
        updated = [i for i, n in enumerate(g.nodes) if n.op in UPDATED_IN_PLACE and n.inputs[:1] == (ref,)]
        if not updated:
            continue
        shifted = _prepend(g, Node("add", (ref, ref), {}, type(t)(t.shape, t.dtype)))
        nodes = [
            dataclasses.replace(n, inputs=("n0", *n.inputs[1:])) if i - 1 in updated else n
            for i, n in enumerate(shifted.nodes)
        ]
        whole = type(g)(g.args, tuple(nodes), shifted.outputs)
        variant = _attempt(lambda: _with(case, rebuild(whole, range(len(nodes)), whole.outputs)))
        if variant is not None:
            yield Experiment(
                f"a{k}{COMPUTED_OPERAND}",
                f"`%arg{k} + %arg{k}` instead of `%arg{k}` as the operand it updates",
                variant,
            )


def producer_experiments(case: Case) -> Iterator[Experiment]:
    """Each ``fill`` read from a new argument of its type instead (random values): whether the failure needs the
    splat at all (the raw programs' ``with_producer_as_argument``, same label ending ``producer=argument``; round J's
    vectorization crash over a filled, masked sum is right with its input an argument, as the fill-sum is). Then each
    other op whose result another op reads, read from a new argument of its type (``PRODUCER_CUT``, its dims kept
    dynamic, where the shrinker's cut would change the cause id and is refused): whether the failure is the reading
    op's own (stop 46: a collapse_shape>cond was cond's wrong values, known, and a bundle of its own)."""
    from ireefuzz.tools.shrink.graph import rebuild

    g = case.graph
    read = {r for n in g.nodes for r in n.inputs}
    for i, node in enumerate(g.nodes):
        if node.op != "fill" and f"n{i}" not in read:
            continue
        keep = [k for k in range(len(g.nodes)) if k != i]
        variant = _attempt(
            lambda: _with(case, rebuild(g, keep, g.outputs, replace={f"n{i}": "x0"}, new_args=[node.type]))
        )
        if variant is None:
            continue
        if node.op == "fill":
            yield Experiment(f"n{i}.producer=argument", f"n{i} (a `linalg.fill`) read from a new argument", variant)
        else:
            yield Experiment(f"n{i}{PRODUCER_CUT}", f"n{i} ({node.op}) read from a new argument", variant)


GRAPH_EXPERIMENTS: tuple[tuple[str, GraphBuilder], ...] = (
    ("shape", shape_experiments),
    ("init", init_experiments),
    ("argument", argument_experiments),
    ("splat", splat_experiments),
    ("producer", producer_experiments),
    ("pack", pack_experiments),
    ("shift", shift_experiments),
    ("region", region_experiments),
    ("consumer", consumer_experiments),
    ("dtype", dtype_experiments),
    ("rank", rank_experiments),
    ("config", config_experiments),
)


def graph_experiments(case: Case, cannot_run: CannotRun = lambda cpu: None) -> list[list[Experiment]]:
    """Every applicable graph experiment of ``case``, one list per kind (``GRAPH_EXPERIMENTS``, then the CPUs)."""
    kinds = [list(build(case)) for _, build in GRAPH_EXPERIMENTS]
    return kinds + [list(cpu_experiments(case, cannot_run))]
