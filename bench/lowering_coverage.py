"""Guidance's own benchmark: distinct lowering configurations reached in the same wall time, guided or not.

Runs two campaigns at once, side by side on this machine (same seed, same ``--time``, 1 worker each):
``guided`` as shipped, and ``unguided``, which keeps every case it draws (``guidance.CANDIDATES = 1``:
the draw order decides). From each run's ``progress.jsonl`` it counts, as a function of time, the distinct
lowering configurations (pipeline + tile sizes, ``summary.json`` ``lowerings``) its cases reached, and
prints them side by side with their ratio, then one line:

    guided_configurations=N unguided_configurations=M ratio=R guided_cases=A unguided_cases=B

Nothing is asserted: this measures.

    python bench/lowering_coverage.py [--seconds 600] [--seed 31] [--out runs/lowering-coverage]
"""

from __future__ import annotations

import argparse
import subprocess
import sys
from pathlib import Path

from ireefuzz.base.durable import read_jsonl

ARMS = {"guided": "", "unguided": "import ireefuzz.tools.campaign.guidance as g; g.CANDIDATES = 1; "}


def start(arm: str, seconds: float, seed: int, out: Path) -> subprocess.Popen:
    run = out / arm
    code = ARMS[arm] + "import sys; from ireefuzz.cli import main; sys.exit(main(sys.argv[1:]))"
    return subprocess.Popen(
        [
            sys.executable,
            "-c",
            code,
            "fuzz",
            "--time",
            str(seconds),
            "--seed",
            str(seed),
            "--workers",
            "1",
            "--bundles",
            "0",
            "--out",
            str(run),
        ],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
    )


def curve(run: Path) -> list[tuple[float, int, int]]:
    """(seconds, cases, distinct configurations) after each recorded batch."""
    seen: set[str] = set()
    cases, points = 0, []
    for row in read_jsonl(run / "progress.jsonl"):
        for case in row["cases"]:
            seen.update(case.get("configurations", ()))
            cases += 1
        points.append((row["t"], cases, len(seen)))
    return points


def at(points: list[tuple[float, int, int]], t: float) -> tuple[int, int]:
    before = [p for p in points if p[0] <= t]
    return before[-1][1:] if before else (0, 0)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=600.0)
    parser.add_argument("--seed", type=int, default=31)
    parser.add_argument("--out", type=Path, default=Path("runs/lowering-coverage"))
    args = parser.parse_args()
    procs = {arm: start(arm, args.seconds, args.seed, args.out) for arm in ARMS}
    for arm, proc in procs.items():
        _, err = proc.communicate()
        if proc.returncode not in (0, 1):
            sys.exit(f"{arm} campaign failed (exit {proc.returncode}): {err.strip()[-500:]}")
    curves = {arm: curve(args.out / arm) for arm in ARMS}
    print(f"{'seconds':>8} {'guided cases':>13} {'configs':>8} {'unguided cases':>15} {'configs':>8} {'ratio':>6}")
    for t in [args.seconds * k / 6 for k in range(1, 7)]:
        (gc, gn), (uc, un) = at(curves["guided"], t), at(curves["unguided"], t)
        print(f"{t:8.0f} {gc:13d} {gn:8d} {uc:15d} {un:8d} {gn / max(un, 1):6.2f}")
    (gc, gn), (uc, un) = curves["guided"][-1][1:], curves["unguided"][-1][1:]
    print(
        f"guided_configurations={gn} unguided_configurations={un} ratio={gn / max(un, 1):.2f} "
        f"guided_cases={gc} unguided_cases={uc}"
    )


if __name__ == "__main__":
    main()
