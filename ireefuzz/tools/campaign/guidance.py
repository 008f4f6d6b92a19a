"""The case stream and its guidance: which cases block k holds, drawn toward what the campaign reached least.

A block is drawn by one Hypothesis run (``@given(cases())`` with ``@seed(f(seed, b))``, no database,
generation only) whose only other input is the ``Coverage`` of the shard's blocks up to ``k - lag``. The run
draws ``CANDIDATES`` cases per case kept and keeps the ``block`` of highest ``Coverage.value``: the new
lowering configurations (pipeline + tile sizes) a case is expected to reach per compile second. That is
learned per op (and per static/dynamic) from the finished cases: how many distinct configurations the cases
with that op reached per executable they compiled (an op whose cases keep reaching the same configurations
saturates), and how often they failed to compile, or crashed the runtime, with a cause already seen (a
repeated failure costs its batch a recompile or a runtime restart and finds nothing new).

Compile time goes where nothing is known: a case that reached a cause the baseline already judges found
nothing new, so the ops (on static or dynamic dims, or on one element type) whose cases keep reaching judged
causes are drawn less (``KNOWN_EXPONENT``), never zero (a known bug's fix must still show as "gone" in
``--compare``). Forms no frontend emits (``generators.frontend_forms``: an argument as a destination) get a fixed
share of a block (``BEYOND_FRONTEND_SHARE``), at least one case; they are half of what the generators draw, so a
block is drawn until ``CANDIDATES`` per case kept are forms a frontend emits, which ``Coverage.value`` then
chooses among.

Hypothesis's own targeting (``target()`` and its hill climbing) is not used: it mutates the best case of the
run into near copies (265 distinct graphs in 576 draws, against 457 with generation alone), which reach the
configurations of that one case again.
"""

from __future__ import annotations

import collections
import hashlib
from typing import TYPE_CHECKING, Any, Mapping

from ireefuzz.generators.case import Case
from ireefuzz.generators.graph import Graph

from .options import Options

if TYPE_CHECKING:
    from ireefuzz.sut import Toolchain

WARMUP_CALLS = 10  # Hypothesis opens every run with its simplest examples: they would repeat in every block
CANDIDATES = 3  # cases of forms a frontend emits drawn per case kept (``Coverage.value`` picks which)
# A case that fails to compile costs its batch a failed compile and a recompile: 1.8 s of compile per failing
# case against 0.25 s per case that compiles (a 10-minute 3.13 campaign: 222 s wasted over 126 failures).
FAILURE_COST = 7.0
# A case that reaches a judged cause costs its compile and finds nothing: a case is worth (1 - p) ** KNOWN_EXPONENT
# of a fresh one, p the highest rate at which the cases of one of its ops (on its dims or its element type) did.
# The exponent is what makes known-ness outweigh an unseen op pair (up to 1 + EDGE_WEIGHT): a sort whose cases reach
# #13745 half the time stays a sort that does in any new pair. Replayed on a 3.13 campaign's own draws (predicted
# by a model fitted to two campaigns' cases), 1 / (1 + 3 p) kept the known-only share at 13.7 %; this, with the
# element types and the fuller draw, at 7.5 %.
KNOWN_EXPONENT = 3
# A producer -> consumer op pair the campaign has not compiled yet (``Graph.edges``) is worth up to
# 1 + EDGE_WEIGHT times a case without one: bugs live in pairs (a gather of a strided slice, a contraction feeding
# a linalg.index consumer), and the draw alone repeats the likely pairs and reaches the rare ones late.
EDGE_WEIGHT = 2.0
# Of a block's cases, for forms no frontend emits (at least one). At 1 / 16, #16168 alone took 2.2 % of a 3.13
# campaign's cases (46 of 2,080), the forms' other known cause 1.3 %.
BEYOND_FRONTEND_SHARE = 1 / 32


def op_names(ops: str) -> list[str]:
    """What configurations are learned per: a case's ops."""
    return list(dict.fromkeys(ops.split(">") if ops else [])) or ["-"]


def shaped_ops(ops: str, dims: str, unused_args: int = 0) -> list[str]:
    """What failures are learned per: each op on static or on dynamic dims (``sort@dynamic``), and a graph with an
    argument no op reads (``UNUSED_ARGUMENT``: 20240621.931's runtime dies on those, whatever the ops)."""
    suffix = "@dynamic" if "?" in dims else "@static"
    return [op + suffix for op in op_names(ops)] + ([UNUSED_ARGUMENT] if unused_args else [])


def typed_ops(ops: str, dtype: str) -> list[str]:
    """What judged causes are learned per, besides ``shaped_ops``: each op on the graph's element type
    (``reduce_max@f16``: #14187 is f16's)."""
    return [f"{op}@{dtype}" for op in op_names(ops)]


UNUSED_ARGUMENT = "unused-argument"


def unused_arguments(graph: Graph) -> int:
    """The graph's arguments no output depends on (read by no node, or only by nodes whose results are dropped:
    the compiler erases those, so the argument is unused in the program it compiles)."""
    live, todo = set(), list(graph.outputs)
    while todo:
        ref = todo.pop()
        if ref in live:
            continue
        live.add(ref)
        if ref.startswith("n"):
            node = graph.nodes[int(ref[1:])]
            todo.extend(node.inputs)
            init = str(node.attrs.get("init", "")).partition(":")[2]
            todo.extend([init] if init else [])
    return sum(f"a{i}" not in live for i in range(len(graph.args)))


# Failures that cost a case more than it finds once their cause is known: a compile failure (its batch is
# compiled again without it) and a run that kills the runtime or the worker (a runner restart and the batch's
# modules loaded again; a worker death, its batch bisected). A release whose runtime dies on a pattern
# (20240621.931: unused arguments, 1,201 deaths in 232 s) stops spending the night on it.
COSTLY_FAILURES = (
    "crash/compile-",
    "crash/bad-output",
    "crash/runtime-crash",
    "crash/worker-killed",
    "crash/worker-timeout",
)


def compile_failure_causes(entry: Mapping[str, Any]) -> list[str]:
    """The causes of a recorded case's costly failures (``COSTLY_FAILURES``: compile failures and runs that
    crashed; none if it compiled and ran)."""
    return [c for s, c in zip(entry.get("sigs", ()), entry.get("causes", ())) if s.startswith(COSTLY_FAILURES)]


class Coverage:
    """What the finished cases reached: per op, the distinct lowering configurations and the executables
    compiled; per op on static or dynamic dims (``shaped_ops``), the cases and their compile failures and causes;
    per op on those dims or on an element type (``typed_ops``), the cases that reached a judged cause."""

    def __init__(self) -> None:
        self.op_configurations: dict[str, set[str]] = collections.defaultdict(set)
        self.op_cases: collections.Counter[str] = collections.Counter()
        self.op_executables: collections.Counter[str] = collections.Counter()  # one per configuration reached
        self.op_failures: collections.Counter[str] = collections.Counter()  # cases that did not compile
        self.op_failure_causes: dict[str, set[str]] = collections.defaultdict(set)
        self.op_known: collections.Counter[str] = collections.Counter()  # cases that reached a judged cause
        self.edge_cases: collections.Counter[str] = collections.Counter()  # cases per op pair (``Graph.edges``)

    def add(self, entry: Mapping[str, Any], reached_known: bool = False) -> None:
        """Learn from one recorded case (a progress.jsonl entry); ``reached_known``: one of its causes is judged
        in the baseline."""
        configurations = entry.get("configurations", ())  # absent from runs recorded before they were
        failed = compile_failure_causes(entry)
        for op in op_names(entry["ops"]):
            self.op_configurations[op].update(configurations)
            self.op_executables[op] += len(configurations)
        for op in shaped_ops(entry["ops"], entry["dims"], entry.get("unused_args", 0)):
            self.op_cases[op] += 1
            self.op_failures[op] += bool(failed)
            self.op_failure_causes[op].update(failed)
            self.op_known[op] += reached_known
        for op in typed_ops(entry["ops"], entry["dtype"]):
            self.op_cases[op] += 1
            self.op_known[op] += reached_known
        self.edge_cases.update(entry.get("edges", ()))  # absent from runs recorded before they were

    def merge(self, other: "Coverage") -> None:
        for mine, theirs in (
            (self.op_cases, other.op_cases),
            (self.op_executables, other.op_executables),
            (self.op_failures, other.op_failures),
            (self.op_known, other.op_known),
            (self.edge_cases, other.edge_cases),
        ):
            mine.update(theirs)
        for mine_sets, theirs_sets in (
            (self.op_configurations, other.op_configurations),
            (self.op_failure_causes, other.op_failure_causes),
        ):
            for op, values in theirs_sets.items():
                mine_sets[op] |= values

    def value(self, graph: Graph) -> float:
        """The new lowering configurations ``graph`` is expected to reach per compile second, up to a factor:
        the mean over its ops of (distinct configurations + 1) / (executables + 1) reached by cases with that op
        (1 for an op never compiled), divided by 1 + FAILURE_COST x the highest rate at which the cases of one
        of its ops failed to compile with a cause already seen, on dims like ``graph``'s (static or dynamic).
        Dynamic cases fail 5 times as often (22% against 4% on 3.13): learned per op on any dims, or for all
        dynamic cases at once, the penalty cut their share from 31% to 7%, where the campaign is meant to test
        them; per op and dims, only the ops that fail on dynamic dims are drawn less there. Then times
        (1 - the highest rate at which the cases of one of its ops reached a judged cause) ** KNOWN_EXPONENT.
        Then times 1 + EDGE_WEIGHT / (1 + the cases that held its rarest op pair)."""
        ops = op_names(graph.op_pattern)
        novelty = sum(
            (len(self.op_configurations.get(op, ())) + 1) / (self.op_executables[op] + 1) for op in ops
        ) / len(ops)
        risks = shaped_ops(graph.op_pattern, graph.dims, unused_arguments(graph))
        repeated = max(
            (self.op_failures[op] - len(self.op_failure_causes.get(op, ()))) / (self.op_cases[op] + 1) for op in risks
        )
        known = max(
            self.op_known[op] / (self.op_cases[op] + 1) for op in risks + typed_ops(graph.op_pattern, graph.dtype)
        )
        rarest_pair = max((1 / (1 + self.edge_cases[e]) for e in graph.edges), default=0.0)
        return (
            novelty
            / (1 + FAILURE_COST * max(repeated, 0))
            * (1 - known) ** KNOWN_EXPONENT
            * (1 + EDGE_WEIGHT * rarest_pair)
        )

    def failure_rate(self, graph: Graph) -> float:
        """The highest rate at which the cases of one of ``graph``'s ops, on dims like its own, failed to compile
        (0 for ops never seen)."""
        return max(
            self.op_failures[op] / (self.op_cases[op] + 1)
            for op in shaped_ops(graph.op_pattern, graph.dims, unused_arguments(graph))
        )


def draw_block(
    options: Options, block: int, coverage: Coverage, frontend: str = "linalg", *, toolchain: Toolchain | None = None
) -> list[Case]:
    """The ``options.block`` cases of global block ``block``: deterministic in (options, block, coverage, frontend).
    A StableHLO block draws only the ops that ``jax.export`` can express. ``toolchain``: the campaign's, resolved
    once (else the options' configuration resolved here); a release is never given an op it cannot express."""
    from hypothesis import HealthCheck, Phase, given, seed, settings

    from ireefuzz import sut
    from ireefuzz.generators.strategies import DEFAULT_DTYPES, cases

    config = options.compiler_config()
    restrict: dict[str, Any] = {}
    if toolchain is not None:
        release, unfeedable = toolchain.release, toolchain.unfeedable_dtypes
        if release is not None:
            restrict = {"ops": toolchain.ops, "syntax": toolchain.syntax}
    else:  # not resolved (a bench, a test): what the toolchain would say, read without locating its binaries
        release, unfeedable = sut.releases.release_of(config), sut.unfeedable_dtypes(config)
        if release is not None:
            restrict = {"ops": sut.releases.ops_for(release), "syntax": sut.releases.syntax_for(release)}
    if unfeedable:
        restrict["dtypes"] = tuple(d for d in DEFAULT_DTYPES if d not in unfeedable)
    if options.ops:
        restrict["ops"] = sorted(set(options.ops) & set(restrict.get("ops", options.ops))) or list(options.ops)
    if frontend == "stablehlo":
        from ireefuzz.generators.stablehlo import EXPORTABLE_OPS

        restrict["ops"] = sorted(set(EXPORTABLE_OPS) & set(restrict.get("ops", EXPORTABLE_OPS)))
    cpu, flags = options.target_cpu, options.flags
    if options.configs:  # this block's configuration, deterministic in (seed, block)
        from ireefuzz.sut.config_space import space_for

        drawn_config = space_for(config).draw(options.seed, block)
        cpu, flags = drawn_config.target_cpu, options.flags + drawn_config.flags
    from ireefuzz.generators.frontend_forms import beyond_frontends

    def distinct(part: str, wanted: int, enough: int, frontend_forms_only: bool) -> list[Case]:
        """At least ``wanted`` distinct graphs if a few Hypothesis runs find them (else ``enough``), one case each:
        a repeat compiles the same program. Forms a frontend emits only, or forms that break a rule only."""
        drawn: dict[str, Case] = {}
        for attempt in range(100):
            calls: list[Case] = []
            salt = f"{options.seed}/{block}{part}/{attempt}"  # ops by ``graphs``' own choices: Hypothesis's are skewed
            strategy = cases(
                target_cpus=(cpu,), flags=(flags,), op_salt=salt, frontend_forms_only=frontend_forms_only, **restrict
            )

            @seed(int.from_bytes(hashlib.sha256(salt.encode()).digest()[:8], "little"))
            @settings(
                max_examples=(wanted - len(drawn)) * 3 // 2 + WARMUP_CALLS,  # about a third repeat
                database=None,
                deadline=None,
                derandomize=False,
                suppress_health_check=list(HealthCheck),
                phases=(Phase.generate,),
            )
            @given(strategy)
            def run(case: Case) -> None:
                calls.append(case)

            run()
            for case in calls[WARMUP_CALLS:]:
                if frontend_forms_only or beyond_frontends(case.graph):
                    drawn.setdefault(repr(case.graph), case)
            if len(drawn) >= wanted or (len(drawn) >= enough and attempt >= 2):
                return list(drawn.values())
        raise RuntimeError(f"could not draw {enough} distinct cases for block {block}")

    # forms no frontend emits, drawn apart (half of an unrestricted draw is such forms, and a block keeps few)
    emitted = distinct("", CANDIDATES * options.block, options.block, frontend_forms_only=True)
    beyond = distinct("/beyond", CANDIDATES * beyond_share(options.block), 0, frontend_forms_only=False)
    if len(emitted) + len(beyond) < options.block:
        raise RuntimeError(f"could not draw {options.block} distinct cases for block {block}")
    return best(emitted + beyond, options.block, coverage)


def beyond_share(n: int) -> int:
    """How many of a block of ``n`` cases are forms no frontend emits, if drawn."""
    return max(1, round(BEYOND_FRONTEND_SHARE * n))


def best(candidates: list[Case], n: int, coverage: Coverage) -> list[Case]:
    """The ``n`` candidates of highest ``coverage.value`` (ties: the first drawn), in draw order but the likeliest
    to fail to compile last: a block's batches are its consecutive slices, so those share one batch, and fewer
    batches need a recompile after a failure. Forms no frontend emits fill at most ``BEYOND_FRONTEND_SHARE`` of
    the ``n`` (at least one), unless too few others were drawn."""
    from ireefuzz.generators.frontend_forms import beyond_frontends

    ranked = sorted(range(len(candidates)), key=lambda i: (-coverage.value(candidates[i].graph), i))
    beyond = [i for i in ranked if beyond_frontends(candidates[i].graph)]
    others = [i for i in ranked if i not in beyond]
    take = min(len(beyond), max(beyond_share(n), n - len(others)))
    kept = others[: n - take] + beyond[:take]
    return [candidates[i] for i in sorted(kept, key=lambda i: (coverage.failure_rate(candidates[i].graph), i))]


def case_hash(case: Case) -> str:
    return hashlib.sha256(case.dumps().encode()).hexdigest()[:12]


class Stream:
    """This shard's case stream: local block k is global block k*n+i; positions count cases in the shard."""

    def __init__(self, options: Options) -> None:
        self.options = options

    def global_block(self, k: int) -> int:
        i, n = self.options.shard
        return k * n + i

    def local_block(self, index: int) -> int:
        return index // self.options.block // self.options.shard[1]

    def indices(self, k: int) -> range:
        b = self.global_block(k) * self.options.block
        limit = self.options.cases
        size = self.options.block if limit is None else max(0, min(self.options.block, limit - k * self.options.block))
        return range(b, b + size)
