"""Per-op sweep for the report: 25 drawn graphs per op (plus 150 over all ops), interpreter vs the f64
graph reference (within bounds) and vs JAX (within the same bounds).

Run: PYTHONPATH=. JAX_PLATFORMS=cpu python bench/interpret_sweep.py   (~7 min on a loaded 2-core machine)
"""

import collections
import time

import numpy as np
from hypothesis import HealthCheck, given, seed, settings

from ireefuzz.generators.emit import emit
from ireefuzz.generators.ops import OP_NAMES
from ireefuzz.generators.strategies import cases
from ireefuzz.oracles.interpret import interpret
from ireefuzz.oracles.reference import evaluate
from tests.test_interpret import DTYPES, disagreements, index_domains_agree

stats = collections.Counter()
dtypes = collections.Counter()
fails = []
jaxoff = []


def one(case):
    d = disagreements(case)
    ok = index_domains_agree(case)
    if d or not ok:
        fails.append((case, d, ok))
        return
    text = emit(case.graph).text
    from ireefuzz.oracles.reference import evaluate_with_bounds

    for k, sizes in enumerate(case.instances):
        inputs = case.inputs(k)
        _, bounds = evaluate_with_bounds(case.graph, inputs, sizes)
        jx = evaluate(case.graph, inputs, sizes, "jax")
        got = interpret(text, "main", inputs)
        for j, b, g in zip(jx, bounds, got):
            j = np.asarray(j, np.float64)
            if not np.all((np.abs(j - g) <= b) | (j == g) | (np.isnan(j) & np.isnan(g))):
                jaxoff.append((case, float(np.nanmax(np.abs(j - g)))))
    for n in case.graph.nodes:
        stats[n.op] += 1
        dtypes[n.type.dtype] += 1
        stats["form:" + n.attrs.get("init", "empty").split(":")[0]] += 1
        if n.attrs.get("generic"):
            stats["form:generic"] += 1
        if "form" in n.attrs:
            stats["gather:" + n.attrs["form"]] += 1
    stats["_graphs"] += 1
    stats["_dynamic"] += bool(case.graph.symbols)
    stats["_instances"] += len(case.instances)


def sweep(ops, n):
    @seed(7)
    @settings(max_examples=n, deadline=None, suppress_health_check=list(HealthCheck), database=None)
    @given(cases(dtypes=DTYPES, ops=ops))
    def run(case):
        one(case)

    run()


t = time.time()
for op in OP_NAMES:
    sweep((op,), 25)
sweep(None, 150)
print("time", round(time.time() - t))
print(dict(sorted(stats.items())))
print(dict(dtypes))
print("fails", len(fails), "jax-disagreements", len(jaxoff))
for c, d, ok in fails[:3]:
    print(c, d, ok)
for c, m in jaxoff[:3]:
    print(c, m)
