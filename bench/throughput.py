"""Throughput of the campaign vs a naive loop, in one run (prints numbers; asserts nothing).

- campaign: ``ireefuzz fuzz`` machinery (worker pool, several graphs per module, every shape
  instance of a module, all oracles) on ``--cases`` cases;
- naive: the first ``--naive`` of the same cases, one at a time in this process: one iree-compile
  process per case, one run (the first shape instance), one JAX call (all oracles as well).

compile_share = seconds inside iree-compile (summed over workers, the compiles of batches split after
a failure included) / worker seconds (wall seconds x workers), from the time accounting: how close the
campaign is to the physical limit of compiling on every core all the time.

    python bench/throughput.py [--cases 256] [--naive 12] [--workers auto] [--batch 16]

Last line: ``speedup_vs_naive=X.XX compile_share=Y.YY graphs_per_s=Z.ZZ``.
"""

from __future__ import annotations

import argparse
import dataclasses
import tempfile
import time
from pathlib import Path


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cases", type=int, default=256)
    parser.add_argument("--naive", type=int, default=12)
    parser.add_argument("--workers", default="auto")
    parser.add_argument("--batch", type=int, default=16)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()

    from ireefuzz.core.evaluate import evaluate
    from ireefuzz.tools.baseline import Baseline
    from ireefuzz.tools.campaign.display import Display
    from ireefuzz.tools.campaign.guidance import Coverage, draw_block
    from ireefuzz.tools.campaign.local_pool import LocalPool
    from ireefuzz.tools.campaign.loop import run
    from ireefuzz.tools.campaign.options import Options, parse_workers

    workers = parse_workers(args.workers)
    options = Options(seed=args.seed, batch=args.batch, cases=args.cases)
    with tempfile.TemporaryDirectory(prefix="ireefuzz-bench-") as tmp:
        out = Path(tmp)
        pool = LocalPool(workers, options.task_spec())
        started = time.perf_counter()
        run(options, out, pool, Baseline(), Display(every_s=1e9))
        wall = time.perf_counter() - started
        summary = (out / "summary.json").read_text()
    import json

    s = json.loads(summary)
    graphs_per_s = s["cases"] / wall
    shape_runs_per_s = s["shape_runs"] / wall
    compile_share = s["time_accounting"]["compile_share"]
    rss = [mb for _, mb in s["coordinator_rss_mb"]]
    print(
        f"campaign: {s['cases']} graphs, {s['shape_runs']} shape runs in {wall:.1f} s wall on {workers} workers "
        f"(batch {args.batch}): {graphs_per_s:.2f} graphs/s, {shape_runs_per_s:.2f} shape-runs/s; "
        f"iree-compile {s['compile_seconds']:.1f} s on the cases' final modules "
        f"({s['compile_seconds'] / (wall * workers):.2f} of "
        f"wall x workers); {len(s['signatures'])} signatures; coordinator RSS {min(rss):.0f}-{max(rss):.0f} MB"
    )
    print_accounting(s["time_accounting"])

    cases = draw_block(options, 0, Coverage())[: args.naive + 1]
    single = [dataclasses.replace(c, instances=c.instances[:1]) for c in cases]
    evaluate(single[:1])  # warm-up: imports JAX and the runtime, as a long naive loop would amortize
    started = time.perf_counter()
    compile_s = 0.0
    for case in single[1:]:
        compile_s += evaluate([case])[0].compile_seconds
    naive_wall = time.perf_counter() - started
    naive_graphs_per_s = args.naive / naive_wall
    print(
        f"naive: {args.naive} graphs (1 compile, 1 run, 1 JAX call each) in {naive_wall:.1f} s: "
        f"{naive_graphs_per_s:.2f} graphs/s = shape-runs/s; iree-compile share {compile_s / naive_wall:.2f}"
    )
    print(
        f"speedup_vs_naive={graphs_per_s / naive_graphs_per_s:.2f} compile_share={compile_share:.2f} "
        f"graphs_per_s={graphs_per_s:.2f}"
    )


def print_accounting(accounting: dict) -> None:
    from ireefuzz.tools.campaign.record import ACTIVITIES

    print(
        f"time accounting ({accounting['total_seconds']:.1f} s over all processes, "
        f"{accounting['worker_seconds']:.1f} worker seconds):"
    )
    for activity, seconds in sorted(accounting["seconds"].items(), key=lambda kv: -kv[1]):
        print(f"  {ACTIVITIES.get(activity, activity):<55} {seconds:8.1f} s  {accounting['shares'][activity]:6.1%}")


if __name__ == "__main__":
    main()
