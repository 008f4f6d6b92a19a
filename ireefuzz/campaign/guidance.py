"""The case stream and its guidance: which cases block k holds, drawn toward what the campaign reached least.

A block is drawn by one Hypothesis run (``@given(cases())`` with ``@seed(f(seed, b))``, no database)
whose only other input is the ``Coverage`` of the shard's blocks up to ``k - lag``. Every drawn case
gets ``target(rarity)``: the sum of 1/sqrt(1+count) over its features (ops, adjacent op pairs, dtype,
static/dynamic), over the rarest lowering pipeline each of its ops has reached so far, and over the rarest
lowering configuration (pipeline + tile sizes) each of its ops has reached: a graph whose ops have only
reached common configurations scores low, one whose op once reached a rare one high.
"""
from __future__ import annotations

import collections
import hashlib
import math
from typing import Any, Mapping

from ireefuzz.generators.case import Case
from ireefuzz.generators.graph import Graph

from .options import Options

WARMUP_CALLS = 10  # Hypothesis opens every run with its simplest examples: they would repeat in every block


def draw_features(ops: str, dtype: str, dims: str) -> list[str]:
    names = ops.split(">") if ops else []
    return ([f"op:{o}" for o in dict.fromkeys(names)] + [f"pair:{a}>{b}" for a, b in dict.fromkeys(zip(names, names[1:]))]
            + [f"dtype:{dtype}", "dims:" + ("dynamic" if "?" in dims else "static")])


class Coverage:
    """Counts of what the finished cases reached: draw features, pipelines and lowering configurations, and
    the pipelines and configurations each op reached."""

    def __init__(self) -> None:
        self.features: collections.Counter[str] = collections.Counter()
        self.pipelines: collections.Counter[str] = collections.Counter()
        self.configurations: collections.Counter[str] = collections.Counter()
        self.op_pipelines: dict[str, set[str]] = collections.defaultdict(set)
        self.op_configurations: dict[str, set[str]] = collections.defaultdict(set)

    def add(self, entry: Mapping[str, Any]) -> None:
        self.features.update(draw_features(entry["ops"], entry["dtype"], entry["dims"]))
        self.pipelines.update(entry["pipelines"])
        configurations = entry.get("configurations", ())  # absent from runs recorded before they were
        self.configurations.update(configurations)
        for op in entry["ops"].split(">"):
            self.op_pipelines[op].update(entry["pipelines"])
            self.op_configurations[op].update(configurations)

    def merge(self, other: "Coverage") -> None:
        self.features.update(other.features)
        self.pipelines.update(other.pipelines)
        self.configurations.update(other.configurations)
        for op, ps in other.op_pipelines.items():
            self.op_pipelines[op] |= ps
        for op, cs in other.op_configurations.items():
            self.op_configurations[op] |= cs

    def rarity(self, graph: Graph) -> tuple[float, str]:
        """(score, rarest feature) of a drawn graph: higher = less reached so far."""
        scores = {f: 1 / math.sqrt(1 + self.features[f]) for f in draw_features(graph.op_pattern, graph.dtype, graph.dims)}
        for n in graph.nodes:
            for p in self.op_pipelines.get(n.op, ()):
                scores[f"pipeline:{p}"] = 1 / math.sqrt(1 + self.pipelines[p])
            reached = self.op_configurations.get(n.op)
            if reached:
                rarest = min(reached, key=lambda c: (self.configurations[c], c))
                scores[f"configuration:{rarest}"] = 1 / math.sqrt(1 + self.configurations[rarest])
        rarest = max(scores, key=scores.get) if scores else "-"
        return sum(scores.values()), rarest


def draw_block(options: Options, block: int, coverage: Coverage, frontend: str = "linalg") -> list[Case]:
    """The ``options.block`` cases of global block ``block``: deterministic in (options, block, coverage, frontend).
    A StableHLO block draws only the ops that ``jax.export`` can express."""
    from hypothesis import HealthCheck, Phase, event, given, seed, settings, target
    from ireefuzz.generators.strategies import DEFAULT_DTYPES, cases

    from ireefuzz import releases, sut

    restrict: dict[str, Any] = {}
    version = releases.release_of(options.task_spec().config)  # a release is never given an op it cannot express
    if version is not None:
        restrict = {"ops": releases.ops_for(version), "syntax": releases.syntax_for(version)}
    unfeedable = sut.unfeedable_dtypes(options.task_spec().config)
    if unfeedable:
        restrict["dtypes"] = tuple(d for d in DEFAULT_DTYPES if d not in unfeedable)
    if options.ops:
        restrict["ops"] = sorted(set(options.ops) & set(restrict.get("ops", options.ops))) or list(options.ops)
    if frontend == "stablehlo":
        from ireefuzz.generators.stablehlo import EXPORTABLE_OPS

        restrict["ops"] = sorted(set(EXPORTABLE_OPS) & set(restrict.get("ops", EXPORTABLE_OPS)))
    cpu, flags = options.target_cpu, options.flags
    if options.configs:  # this block's configuration, deterministic in (seed, block)
        from ireefuzz.configs import space_for

        drawn_config = space_for(options.task_spec().config).draw(options.seed, block)
        cpu, flags = drawn_config.target_cpu, options.flags + drawn_config.flags
    strategy = cases(target_cpus=(cpu,), flags=(flags,), **restrict)
    drawn: dict[str, Case] = {}
    for attempt in range(100):
        calls = []

        @seed(int.from_bytes(hashlib.sha256(f"{options.seed}/{block}/{attempt}".encode()).digest()[:8], "little"))
        @settings(max_examples=2 * options.block + WARMUP_CALLS, database=None, deadline=None, derandomize=False,
                  suppress_health_check=list(HealthCheck), phases=(Phase.generate, Phase.target))
        @given(strategy)
        def run(case: Case) -> None:
            score, rarest = coverage.rarity(case.graph)
            target(score, label="rarity")
            event("rarest", rarest)
            calls.append(case)

        run()
        for case in calls[WARMUP_CALLS:]:
            drawn.setdefault(case.dumps(), case)
        if len(drawn) >= options.block:
            return list(drawn.values())[: options.block]
    raise RuntimeError(f"could not draw {options.block} distinct cases for block {block}")


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
