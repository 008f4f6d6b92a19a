"""Hypothesis strategies: ``graphs(...)`` and ``cases(...)``.

Sizes stress tiling (1, small primes, powers of two +-1, multiples of 8/16/32/64, 0 where legal);
inputs are small exact values so results stay finite and well-conditioned; the
destination-passing-style form (fresh tensor.empty, an init shared with a fill, ``outs`` = the
producer's result or a function argument, named op vs linalg.generic) is drawn with the graph.
Everything is built from Hypothesis primitives, so shrinking works on graph size, shapes, forms,
dtypes and the input seed.
"""

from __future__ import annotations

import dataclasses
import random
from typing import Any, Callable, Iterable, Sequence

from hypothesis import strategies as st

from .case import MAX_MAGNITUDE, Case, index_bounds
from .emit import MODERN, Syntax
from .frontend_forms import breaks_a_rule
from .graph import INT_DTYPES, Graph, Node, TensorType
from .ops import FAMILIES, MAX_SYMBOL_SIZE, MODULAR_RANGE, OP_NAMES, OPS

AWKWARD_SIZES = (1, 2, 3, 5, 7, 8, 13, 15, 16, 17, 31, 32, 33, 48, 63, 64, 65)  # shrinks towards 1
SYMBOLS = ("M", "N", "K", "P", "Q", "R")
TARGET_CPUS_DRAWN = ("host",)
DEFAULT_DTYPES = ("f32", "f16", "i32", "bf16", "i64", "i16")  # bf16 / i64 / i16 values come from casts only
FAMILY_WEIGHTS = {"producer": 1, "elementwise": 4}  # else 2: fills are drawn as destinations besides; elementwise holds
# 35 ops, the math frontends emit (bench/op_mix.py)
# i64 stays within the i32 range: JAX (no x64) computes the i64 reference in int32; float64 arbitrates anyway
BOUND_LIMIT = {
    "f32": 1e4,
    "f16": 2e2,
    "bf16": 2e2,
    "i32": 1e5,
    "i64": 1e6,
    "i16": 1e4,
    "i8": 8,
    "i1": 1,
}  # keep results finite and exact enough


class _Pool:
    """The graph under construction, as the ops' ``propose`` hooks see it."""

    st = st

    def __init__(
        self,
        dtypes: Sequence[str],
        dynamic: bool,
        syntax: Syntax,
        ops: Sequence[str] = OP_NAMES,
        frontend_forms_only: bool = False,
    ) -> None:
        self.ops = frozenset(ops)  # what may be drawn, a proposal's derived nodes (``derive``) included
        self.frontend_forms_only = frontend_forms_only  # never an argument as a destination (``frontend_forms``)
        self.args: list[TensorType] = []
        self.nodes: list[Node] = []
        self.bounds: dict[str, float] = {}
        self.dtypes = tuple(dtypes)
        self.dynamic = dynamic
        self.syntax = syntax
        self.symbols: list[str] = []
        self.fresh_inits: dict[str, TensorType] = {}  # node refs whose destination is a fresh tensor.empty

    # -- values ----------------------------------------------------------------------------
    def refs(self) -> list[str]:
        return [f"a{i}" for i in range(len(self.args))] + [f"n{i}" for i in range(len(self.nodes))]

    def type(self, ref: str) -> TensorType:
        return self.args[int(ref[1:])] if ref[0] == "a" else self.nodes[int(ref[1:])].type

    def pick(self, draw: Callable, ok: Callable[[TensorType, float], bool]) -> str | None:
        candidates = [r for r in self.refs() if ok(self.type(r), self.bounds[r])]
        return draw(st.sampled_from(candidates[::-1])) if candidates else None  # newest first: shrinks to chains

    def new_arg(self, t: TensorType) -> str:
        self.args.append(t)
        ref = f"a{len(self.args) - 1}"
        self.bounds[ref] = _input_bound(t)
        return ref

    def pick_or_arg(self, draw: Callable, t: TensorType, max_bound: float = float("inf")) -> str:
        same = self.pick(draw, lambda u, b: (u.shape, u.dtype) == (t.shape, t.dtype) and b <= max_bound)
        if same is not None and draw(st.booleans()):
            return same
        return self.new_arg(t)

    def destination(self, draw: Callable, t: TensorType) -> str:
        """An accumulator / destination of type ``t``: mostly a fill, sometimes a value or an argument (a value
        that is not an argument, or a fill, for forms a frontend emits only)."""
        only_frontend_forms = ("fill", "fill", "value")
        choice = draw(
            st.sampled_from(
                only_frontend_forms if self.frontend_forms_only else ("fill", "fill", "fill-into-arg", "value", "arg")
            )
        )
        if choice == "value":
            found = self.pick(draw, lambda u, b: (u.shape, u.dtype) == (t.shape, t.dtype) and b <= 10)
            if found is not None and not (self.frontend_forms_only and found.startswith("a")):
                return found
            choice = "fill" if self.frontend_forms_only else "arg"
        if choice in ("fill", "fill-into-arg"):
            init = "empty" if choice == "fill" else f"value:{self.new_arg(t)}"
            return self.add(
                Node(
                    "fill",
                    (),
                    {
                        "shape": list(t.shape),
                        "dtype": t.dtype,
                        "value": 0 if t.dtype == "i32" else 0.0,
                        "init": init,
                        "generic": draw(st.booleans()),
                    },
                    t,
                )
            )
        return self.new_arg(t)

    def add(self, node: Node) -> str:
        self.nodes.append(node)
        ref = f"n{len(self.nodes) - 1}"
        types = [self.type(r) for r in node.inputs]
        self.bounds[ref] = OPS[node.op].bound([self.bounds[r] for r in node.inputs], node.attrs, types)
        if OPS[node.op].has_init and node.attrs.get("init", "empty") == "empty":
            self.fresh_inits[ref] = node.type
        return ref

    def derive(self, op: str, inputs: Sequence[str], attrs: dict) -> str:
        """Add a node that a proposal needs before its own (a pad before a convolution), typed by its op."""
        return self.add(Node(op, tuple(inputs), attrs, OPS[op].infer([self.type(r) for r in inputs], attrs)))

    def over_limit(self, node: Node) -> bool:
        """``node``'s values may leave what its dtype holds exactly (``BOUND_LIMIT``; a modular op's range; an i32
        result of other dtypes' values past 1e6): it is not added."""
        bound = OPS[node.op].bound(
            [self.bounds[r] for r in node.inputs], node.attrs, [self.type(r) for r in node.inputs]
        )
        t = node.type
        limit = MODULAR_RANGE.get(t.dtype) if OPS[node.op].modular else None
        return bound > (limit or BOUND_LIMIT.get(t.dtype, 1e4)) or (
            t.dtype == "i32" and any(self.type(r).dtype != "i32" for r in node.inputs) and bound > 1e6
        )

    def propose_derived(self, draw: Callable, op: str) -> str | None:
        """A node of ``op`` as its own proposal draws it, added before the node being proposed (a contraction whose
        result a causal mask reads); None where it proposes nothing or its values would leave their dtype."""
        proposal = OPS[op].propose(draw, self) if op in self.ops else None
        if proposal is None:
            return None
        inputs, attrs = proposal
        node = Node(op, tuple(inputs), attrs, OPS[op].infer([self.type(r) for r in inputs], attrs))
        return None if self.over_limit(node) else self.add(node)

    # -- shapes ----------------------------------------------------------------------------
    def draw_dim(self, draw: Callable) -> int | str:
        return self.draw_symbol(draw) if self.dynamic and draw(st.booleans()) else draw(st.sampled_from(AWKWARD_SIZES))

    def draw_symbol(self, draw: Callable) -> str:
        """A symbolic dim: one of the graph's, or a new one while any is left."""
        options = self.symbols + [SYMBOLS[len(self.symbols)]] if len(self.symbols) < len(SYMBOLS) else self.symbols
        sym = draw(st.sampled_from(options))
        if sym not in self.symbols:
            self.symbols.append(sym)
        return sym

    def draw_shape(self, draw: Callable, min_rank: int = 1, max_rank: int = 3) -> tuple[int | str, ...]:
        rank = draw(st.integers(min_rank, max_rank))
        shape = [self.draw_dim(draw) for _ in range(rank)]
        if rank == 3:  # keep rank-3 tensors small: a batch of tiles, not a cube of 65s
            shape = [d if isinstance(d, str) or d <= 17 else 17 for d in shape]
        return tuple(shape)

    def dtypes_among(self, allowed: Iterable[str]) -> list[str]:
        return [d for d in self.dtypes if d in allowed] or ["f32"]

    @staticmethod
    def nonzero(dim: int | str) -> bool:
        return isinstance(dim, str) or dim > 0


def _input_bound(t: TensorType) -> float:
    if t.index_bound is not None:
        return float(t.index_bound if isinstance(t.index_bound, int) else MAX_SYMBOL_SIZE)
    return 8.0 if t.dtype in INT_DTYPES else 2.0


def _draw_init(draw: Callable, pool: _Pool, node: Node) -> Node:
    """Choose the destination-passing-style form of ``node``'s ``outs`` (never an argument where the pool draws
    forms a frontend emits only)."""
    spec = OPS[node.op]
    attrs = dict(node.attrs)
    if spec.has_generic_form and "generic" not in attrs:
        attrs["generic"] = draw(st.booleans())
    if spec.has_init:
        same = [
            r for r in pool.refs() if pool.type(r) == node.type and not (pool.frontend_forms_only and r.startswith("a"))
        ]
        shared = [r for r, t in pool.fresh_inits.items() if t == node.type]
        forms = ["empty", "empty"] + (["value"] if same else []) + (["init-of"] if shared else [])
        forms += [] if pool.frontend_forms_only else ["arg"]
        form = draw(st.sampled_from(forms))
        if form == "value":
            attrs["init"] = f"value:{draw(st.sampled_from(same[::-1]))}"
        elif form == "init-of":
            attrs["init"] = f"init-of:{draw(st.sampled_from(shared[::-1]))}"
        elif form == "arg":
            attrs["init"] = f"value:{pool.new_arg(node.type)}"
    return dataclasses.replace(node, attrs=attrs)


@st.composite
def graphs(
    draw: Callable,
    *,
    ops: Sequence[str] | None = None,
    min_nodes: int = 1,
    max_nodes: int = 6,
    dtypes: Sequence[str] = DEFAULT_DTYPES,
    dynamic: bool | None = None,
    syntax: Syntax = MODERN,
    op_salt: str | None = None,
    frontend_forms_only: bool = False,
) -> Graph:
    """Well-formed graphs of ``min_nodes``..``max_nodes`` nodes drawn from ``ops`` (default: all).

    ``dynamic``: True = symbolic dims are drawn, False = all static, None = either.
    ``op_salt``: where given (a campaign's block), each node's op comes from a ``random.Random`` seeded by the salt
    and keys Hypothesis draws (the graph's and the node's), not from an index it draws. Hypothesis's generate phase
    draws the first entries of a list far more often than the last (index 0 in 30 % of draws of one of 35): so, 512
    campaign cases of seed 1 drew `abs` in 111 and `mul`, `sub`, `max`, `min`, `sqrt`, `round_even` and three more
    ops in none. The keys it favours (0 in 11 % of draws) repeat, and the salt and the node's key make them other
    ops. Tests that shrink keep Hypothesis's choice.
    ``frontend_forms_only``: no node breaks a rule of ``frontend_forms`` (no argument as a destination).
    """
    ops = tuple(ops or OP_NAMES)
    unknown = set(ops) - set(OPS)
    if unknown:
        raise ValueError(f"unknown ops {sorted(unknown)}; known: {', '.join(OP_NAMES)}")
    if dynamic is None:
        dynamic = draw(st.booleans())
    pool = _Pool(dtypes, dynamic, syntax, ops, frontend_forms_only)
    for _ in range(draw(st.integers(1, 2))):
        dtype = draw(st.sampled_from(pool.dtypes_among(("f32", "f16", "i32", "i8"))))
        pool.new_arg(TensorType(pool.draw_shape(draw, 1, 3), dtype))
    target = draw(st.integers(min_nodes, max_nodes))
    families = _families(ops)
    graph_key = draw(st.integers(0, 2**64 - 1)) if op_salt is not None else 0
    attempts = 0
    while len(pool.nodes) < target and attempts < 8 * target:
        attempts += 1
        if op_salt is not None:  # this node's own generator: a key drawn for it, the graph's, the salt
            op_choices = random.Random(f"{op_salt}/{graph_key}/{draw(st.integers(0, 2**64 - 1))}/{attempts}")
            name = op_choices.choice(op_choices.choice(families))
        else:
            name = draw(st.sampled_from(families).flatmap(st.sampled_from))
        proposal = OPS[name].propose(draw, pool)
        if proposal is None:
            continue
        inputs, attrs = proposal
        try:
            t = OPS[name].infer([pool.type(r) for r in inputs], attrs)
        except (ValueError, KeyError) as e:
            raise AssertionError(f"op {name!r} proposed an ill-typed node {inputs} {attrs}: {e}") from e
        node = _draw_init(draw, pool, Node(name, inputs, attrs, t))
        if pool.over_limit(node) or (frontend_forms_only and breaks_a_rule(node)):
            continue
        pool.add(node)
    if len(pool.nodes) < min_nodes:
        pool.add(Node("fill", (), {"shape": [1], "dtype": "f32", "value": 1.0}, TensorType((1,), "f32")))
    _carry_symbols(pool)
    last = f"n{len(pool.nodes) - 1}"
    unused = [f"n{i}" for i in range(len(pool.nodes) - 1) if not _used(pool, f"n{i}")]
    extra = draw(st.lists(st.sampled_from(unused), max_size=2, unique=True)) if unused else []
    return Graph(tuple(pool.args), tuple(pool.nodes), tuple(sorted(extra, key=lambda r: int(r[1:])) + [last])).check()


def _families(ops: Sequence[str]) -> list[tuple[str, ...]]:
    """``ops`` by family (``ops.FAMILIES``), each family listed by its weight: drawing a family first, then one of
    its ops, draws every family as often, however many variants it registers (nine convolutions and poolings would
    otherwise outdraw three normalizations)."""
    by_family = {f: tuple(o for o in ops if OPS[o].family == f) for f in FAMILIES}
    return [v for f, v in by_family.items() if v for _ in range(FAMILY_WEIGHTS.get(f, 2))]


def _used(pool: _Pool, ref: str) -> bool:
    return any(ref in n.inputs or n.attrs.get("init", "").endswith(f":{ref}") for n in pool.nodes)


def _carry_symbols(pool: _Pool) -> None:
    """A symbol introduced by a node (a fill's shape, a matmul's N) needs an argument whose shape carries
    it: a shape-only operand, exactly as in the first seed issue."""
    carried = {s for t in pool.args for s in t.symbols}
    for sym in pool.symbols:
        if sym not in carried:
            pool.new_arg(TensorType((sym,), "f32"))
            carried.add(sym)


def instances(graph: Graph, *, allow_zero: bool = True) -> st.SearchStrategy[dict[str, int]]:
    """Sizes for every symbol of ``graph`` (0 only where legal)."""
    nonzero = {b for b in index_bounds(graph) if isinstance(b, str)}
    sizes = {
        s: st.sampled_from(AWKWARD_SIZES if s in nonzero or not allow_zero else AWKWARD_SIZES + (0,))
        for s in graph.symbols
    }
    return st.fixed_dictionaries(sizes)


@st.composite
def cases(
    draw: Callable,
    *,
    graphs_strategy: st.SearchStrategy[Graph] | None = None,
    max_instances: int = 3,
    target_cpus: Sequence[str] = TARGET_CPUS_DRAWN,
    flags: Sequence[Sequence[str]] = ((),),
    **graph_kwargs: Any,
) -> Case:
    """A graph, 1..max_instances shape instances, an input seed and a compiler configuration."""
    graph = draw(graphs_strategy if graphs_strategy is not None else graphs(**graph_kwargs))
    n = draw(st.integers(1, max_instances)) if graph.symbols else 1
    insts = draw(st.lists(instances(graph), min_size=n, max_size=n))
    return Case(
        graph,
        tuple(insts),
        draw(st.integers(0, 2**16)),
        draw(st.sampled_from(tuple(target_cpus))),
        tuple(draw(st.sampled_from([tuple(f) for f in flags]))),
        # input range: Hypothesis shrinks this towards the default (full) range, keeping the case
        # comparable; ireefuzz.tools.shrink.graph lowers it explicitly when smaller values keep the bug.
        MAX_MAGNITUDE - draw(st.integers(0, MAX_MAGNITUDE)),
    ).check()
