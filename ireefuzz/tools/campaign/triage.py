"""``ireefuzz triage RUN_DIR``: re-bucket an existing run by cause (older runs too) and write what is missing.

Derives every recorded finding's cause afresh (``oracles.cause``), writes the causes back into
findings.jsonl and progress.jsonl, bundles the smallest member of each new cause that has no bundle
yet, and rewrites summary.json, summary.md, junit.xml and report.html. Prints the cause table.
Exit status as ``fuzz``: 1 if a cause is new, else 0.
"""
from __future__ import annotations

import argparse
import sys
from pathlib import Path

from ireefuzz.tools.baseline import baseline_path, load as load_baseline

from .bundling import bundle_new_causes
from .options import DEFAULT_BASELINE, add_bundle_options, bundle_limit
from .runs import open_run, previous_run, read_summary, rewrite_causes, write_outputs


def configure(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("run", metavar="RUN_DIR", help="the --out directory of a fuzz campaign")
    parser.add_argument("--baseline", metavar="FILE", help=f"known findings JSON (default {DEFAULT_BASELINE} if it exists)")
    parser.add_argument("--compare", metavar="PREV_RUN_DIR",
                        help="the run to compare with (default: the one the run was compared with, if any)")
    add_bundle_options(parser)


def main(args: argparse.Namespace) -> int:
    run, bundles = Path(args.run), bundle_limit(args.bundles)
    baseline = load_baseline(baseline_path(args.baseline))
    compare = args.compare or read_summary(run).get("diff", {}).get("compared_with")
    previous = previous_run(Path(compare), baseline) if compare else None
    rewrite_causes(open_run(run, baseline, previous, rederive=True))
    record = open_run(run, baseline, previous)
    if bundles != 0:
        bundle_new_causes(record, bundles, args.bundle_timeout)
    summary = write_outputs(run, open_run(run, baseline, previous))
    print_causes(summary)
    return 1 if summary["new_causes"] else 0


def print_causes(summary: dict) -> None:
    for c in summary["causes"]:
        print(f"{c['status']:5}  {c['cases']:5} cases  {len(c['signatures']):3} sigs  {c['id']}  {c['bundle'] or '-'}")
        print(f"       {c['title']}")
    print(f"{len(summary['causes'])} causes ({len(summary['new_causes'])} new) from {len(summary['signatures'])} signatures",
          file=sys.stderr)
