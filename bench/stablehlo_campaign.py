"""A timed campaign on the StableHLO path: generated cases -> jax.export -> iree-compile -> every oracle.

    python bench/stablehlo_campaign.py --seconds 600 [--batch 8] [--seed 0] [--cross-every 4] [--out run.json]

Cases come from ``ireefuzz.generators.strategies.cases`` over the ops the export supports (dynamic
dims drawn half the time), in batches compiled as one module. Every ``--cross-every``-th batch, its
first case also runs the cross-front-end relation (linalg vs StableHLO). Prints the distinct
signatures (count, first example) and timings; ``--out`` writes them as JSON.
"""
from __future__ import annotations

import argparse
import collections
import json
import sys
import time
from typing import Any


def draw_cases(n: int, seed: int, ops: list[str]) -> list[Any]:
    from hypothesis import HealthCheck, Phase, given, settings
    from hypothesis import seed as hseed

    from ireefuzz.generators.strategies import cases

    out: list[Any] = []

    @hseed(seed)
    @settings(max_examples=n, deadline=None, database=None, phases=[Phase.generate],
              suppress_health_check=list(HealthCheck))
    @given(cases(ops=ops))
    def collect(case: Any) -> None:
        out.append(case)

    collect()
    return out[:n]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=60.0, metavar="S", help="stop starting batches after S seconds")
    parser.add_argument("--batch", type=int, default=8, metavar="N", help="cases per compiled module (default 8)")
    parser.add_argument("--seed", type=int, default=0, metavar="SEED", help="first Hypothesis seed (one per batch)")
    parser.add_argument("--cross-every", type=int, default=4, metavar="K",
                        help="run the cross-front-end relation on one case of every K-th batch (0 = never)")
    parser.add_argument("--out", metavar="PATH", help="write signatures and timings as JSON")
    args = parser.parse_args(argv)

    from ireefuzz.generators.stablehlo import EXPORTABLE_OPS, export_functions
    from ireefuzz.cross_frontend import cross_frontend
    from ireefuzz.evaluate import evaluate
    from ireefuzz.frontends import STABLEHLO

    ops = sorted(EXPORTABLE_OPS)
    started = time.perf_counter()
    seen: dict[str, dict[str, Any]] = {}
    counts: collections.Counter[str] = collections.Counter()
    totals = collections.Counter()
    batch_index = 0
    while time.perf_counter() - started < args.seconds:
        cases = draw_cases(args.batch, args.seed + batch_index, ops)
        t0 = time.perf_counter()
        for case in cases:
            try:
                export_functions(case.graph, "probe")
            except Exception:
                pass
        totals["export_s"] += time.perf_counter() - t0
        t0 = time.perf_counter()
        results = evaluate(cases, frontend=STABLEHLO)
        totals["evaluate_s"] += time.perf_counter() - t0
        totals["cases"] += len(cases)
        totals["discarded"] += sum(r.discarded for r in results)
        totals["compile_s"] += sum(r.compile_seconds for r in results)
        findings = [f for r in results for f in r.findings]
        if args.cross_every and batch_index % args.cross_every == 0 and cases:
            t0 = time.perf_counter()
            findings += cross_frontend(cases[0])
            totals["cross_s"] += time.perf_counter() - t0
            totals["cross_cases"] += 1
        for f in findings:
            counts[f.signature] += 1
            if f.signature not in seen:
                seen[f.signature] = {"message": f.message[:300], "case": f.case, "first_batch": batch_index,
                                     "at_s": round(time.perf_counter() - started, 1)}
                print(f"[{time.perf_counter() - started:6.0f}s] NEW {f.signature}", flush=True)
        batch_index += 1
    elapsed = time.perf_counter() - started
    print(f"\n{totals['cases']} cases in {batch_index} batches, {elapsed:.0f} s "
          f"({totals['cases'] / elapsed:.2f} cases/s); export {totals['export_s'] / max(totals['cases'], 1) * 1000:.0f} ms/graph, "
          f"compile {totals['compile_s'] / max(totals['cases'], 1):.2f} s/case; discarded {totals['discarded']}; "
          f"cross-front-end on {totals['cross_cases']} cases ({totals['cross_s']:.0f} s)")
    print(f"{len(counts)} distinct signatures:")
    for sig, n in counts.most_common():
        print(f"  {n:4d}  {sig}")
    if args.out:
        with open(args.out, "w") as fh:
            json.dump({"seconds": elapsed, "totals": dict(totals), "counts": dict(counts), "first": seen}, fh, indent=1,
                      default=str)
    return 0


if __name__ == "__main__":
    sys.exit(main())
