"""IREE against the interpreter on drawn graphs' emitted MLIR, through the raw-MLIR frontend (``ireefuzz check``'s
path), beside the graph path (JAX + float64 arbiter) on the same cases: how many numeric findings each reports,
how many the raw path discards as ill-conditioned, and which raw findings the graph path does not confirm
(candidate false positives).

Run: PYTHONPATH=. JAX_PLATFORMS=cpu python bench/raw_numeric_sweep.py [N] [BATCH]   (~N/10 compiles per path)
"""

import collections
import sys
import time

from hypothesis import HealthCheck, given, seed, settings

from ireefuzz.core.evaluate import Policy, evaluate
from ireefuzz.generators.emit import emit_module
from ireefuzz.generators.strategies import cases
from ireefuzz.tools import check

N, BATCH = (int(a) for a in (sys.argv[1:] + ["60", "10"])[:2]) if len(sys.argv) > 1 else (60, 10)
POLICY = Policy(oracles=frozenset({"numeric", "crash"}))
drawn = []


@seed(11)
@settings(max_examples=N, deadline=None, suppress_health_check=list(HealthCheck), database=None)
@given(cases(dtypes=("f32", "f16", "i32", "i8")))
def draw(case):
    drawn.append(case)


draw()
stats = collections.Counter()
unconfirmed = []
started = time.time()
for b in range(0, len(drawn), BATCH):
    batch = {f"g{i}": c for i, c in enumerate(drawn[b : b + BATCH])}
    text = emit_module({name: c.graph for name, c in batch.items()}).text
    shapes = {name: [t.concrete(c.instances[0]) for t in c.graph.args] for name, c in batch.items()}
    raw = {r.case.function: r for r in check.check_results(text, policy=POLICY, shapes=shapes)}
    graph_side = dict(zip(batch, evaluate(list(batch.values()), policy=POLICY)))
    for name in batch:
        r, g = raw[name], graph_side[name]
        raw_numeric = [f for f in r.findings if f.oracle == "numeric"]
        graph_numeric = [f for f in g.findings if f.oracle == "numeric"]
        stats["functions"] += 1
        stats["raw numeric findings"] += bool(raw_numeric)
        stats["graph numeric findings"] += bool(graph_numeric)
        stats["raw discarded"] += r.discarded
        stats["raw not judged"] += bool(r.not_judged)
        stats["raw crash"] += any(f.oracle == "crash" for f in r.findings)
        if raw_numeric and not graph_numeric:
            unconfirmed.append((batch[name], raw_numeric[0]))
print(f"{time.time() - started:.0f} s", dict(stats), "unconfirmed raw numeric findings:", len(unconfirmed))
for case, f in unconfirmed[:5]:
    print(case.graph.op_pattern, case.instances, f.signature, f.message)
