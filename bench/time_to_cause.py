"""A fuzzer's own benchmark: time to cause (the FuzzBench / Magma way of measuring fuzzers).

Runs ``ireefuzz fuzz --time BUDGET`` once per seed (or reads campaign directories already run), and
from each run's durable ``progress.jsonl`` (every batch with its wall time and the causes of its
cases) reads when each cause was first seen. Prints per cause how many seeds found it and the median
time to first sight, then one line:

    causes_found=N median_time_to_cause_s=X signatures_per_cause=Y

``causes_found`` counts distinct causes over all seeds; the median is over every (seed, cause) first
sighting (a run recorded before causes existed needs ``ireefuzz triage RUN`` first); ``signatures_per_cause``
is signatures / causes over all seeds (how much triage the causes save). Nothing is asserted: this measures.

    python bench/time_to_cause.py [--seeds 0,1,2] [--budget 120] [--workers auto] [--out runs/ttc]
    python bench/time_to_cause.py --runs runs/a runs/b        # measure campaigns already run
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
from pathlib import Path
from typing import Sequence

from ireefuzz.base.durable import read_jsonl


def first_sightings(run: Path) -> tuple[dict[str, float], set[str]]:
    """cause -> seconds into the run when it was first recorded; and every signature seen."""
    first: dict[str, float] = {}
    signatures: set[str] = set()
    for row in read_jsonl(run / "progress.jsonl"):
        for case in row["cases"]:
            signatures.update(case.get("sigs", ()))
            for cause in case.get("causes", ()):
                first[cause] = min(first.get(cause, row["t"]), row["t"])
    return first, signatures


def run_campaign(seed: int, budget: float, workers: str, out: Path, extra: Sequence[str] = ()) -> Path:
    """``ireefuzz fuzz`` into ``out/seed<seed>`` (kept if already run); ``extra``: more fuzz options."""
    run = out / f"seed{seed}"
    if not (run / "campaign.json").exists():
        subprocess.run(
            [
                sys.executable,
                "-m",
                "ireefuzz.cli",
                "fuzz",
                "--time",
                str(budget),
                "--seed",
                str(seed),
                "--workers",
                workers,
                "--bundles",
                "0",
                "--out",
                str(run),
                *extra,
            ],
            check=False,
        )
    return run


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seeds", default="0,1,2")
    parser.add_argument("--budget", type=float, default=120.0, help="seconds per campaign")
    parser.add_argument("--workers", default="auto")
    parser.add_argument("--out", type=Path, default=Path("runs/time-to-cause"))
    parser.add_argument("--runs", type=Path, nargs="*", help="measure these campaign directories instead")
    args = parser.parse_args()
    runs = args.runs or [run_campaign(int(s), args.budget, args.workers, args.out) for s in args.seeds.split(",")]
    per_cause: dict[str, list[float]] = {}
    signatures: set[str] = set()
    for run in runs:
        first, sigs = first_sightings(run)
        signatures |= sigs
        for cause, t in first.items():
            per_cause.setdefault(cause, []).append(t)
    print(f"{'seeds':>5}  {'median s':>9}  cause")
    for cause, times in sorted(per_cause.items(), key=lambda kv: statistics.median(kv[1])):
        print(f"{len(times):>5}  {statistics.median(times):>9.1f}  {cause}")
    every = [t for times in per_cause.values() for t in times]
    median = statistics.median(every) if every else float("nan")
    ratio = len(signatures) / len(per_cause) if per_cause else float("nan")
    print(f"causes_found={len(per_cause)} median_time_to_cause_s={median:.1f} signatures_per_cause={ratio:.2f}")


if __name__ == "__main__":
    main()
