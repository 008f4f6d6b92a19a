"""``ireefuzz diff A B``: the causes of run B against the run before it, A (categories: ``causes``)."""

from __future__ import annotations

import argparse
import json
from pathlib import Path

from ireefuzz.tools.baseline import baseline_path
from ireefuzz.tools.baseline import load as load_baseline

from .causes import DIFF_CATEGORIES
from .options import DEFAULT_BASELINE
from .runs import open_run, previous_run


def configure(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("before", metavar="A", help="the earlier run's directory (e.g. last night's --out)")
    parser.add_argument("after", metavar="B", help="the later run's directory")
    parser.add_argument(
        "--baseline", metavar="FILE", help=f"known findings JSON (default {DEFAULT_BASELINE} if it exists)"
    )
    parser.add_argument("--json", action="store_true", help="print the categories as JSON")


def main(args: argparse.Namespace) -> int:
    baseline = load_baseline(baseline_path(args.baseline))
    previous = previous_run(Path(args.before), baseline)
    record = open_run(Path(args.after), baseline, previous)
    diff = record.diff()
    if args.json:
        print(json.dumps({"compared_with": previous.run} | diff, indent=2))
    else:
        titles = dict(previous.titles) | {c.id: c.title for c in record.present_causes()}
        for key, title in DIFF_CATEGORIES.items():
            print(f"{title} ({len(diff[key])}):")
            print("".join(f"  {c}  {titles.get(c, '')}\n" for c in diff[key]), end="")
    return 1 if diff["new"] else 0
