"""``ireefuzz triage RUN_DIR``: re-bucket an existing run by cause (older runs too), write what is missing,
and keep the team's verdicts.

Derives every recorded finding's cause afresh (``oracles.cause``), writes the causes back into
findings.jsonl and progress.jsonl, confirms the new causes' compile timeouts as hangs (``bundling.confirm_hangs``:
each compiled once more alone at 4x the limit; a slow compile is not judged, another failure is that failure),
bundles the best-ranked new causes that have no bundle yet (``ranking``), and rewrites summary.json, summary.md,
junit.xml and report.html. Prints the cause table. ``--bundles 0`` makes no bundle; the confirmation still runs.

``--mark CAUSE --as VERDICT`` first writes a verdict for one of the run's causes into the baseline
(``--baseline FILE``, default ./corpus/known_findings.json; made from the baseline shipped with ireefuzz
when missing, so the project's verdicts are kept): ``--as upstream --link URL``, ``--as by-design --why
TEXT``, ``--as harness --fixed-in VERSION`` or ``--as duplicate-of --of CAUSE``. The file is rewritten
atomically; bad input is one line and exit 2, and nothing is written.

Exit status as ``fuzz``: 1 if a cause is new (nobody has judged it), else 0.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from ireefuzz.errors import UsageError
from ireefuzz.tools import baseline as _baseline
from ireefuzz.tools.baseline import VERDICTS, baseline_path
from ireefuzz.tools.baseline import load as load_baseline

from .bundling import bundle_new_causes
from .options import DEFAULT_BASELINE, add_bundle_options, bundle_limit
from .runs import open_run, previous_run, read_summary, rewrite_causes, write_outputs

DETAIL_OPTIONS = {"link": "--link", "why": "--why", "fixed_in": "--fixed-in", "of": "--of"}  # VERDICTS' fields


def configure(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("run", metavar="RUN_DIR", help="the --out directory of a fuzz campaign")
    parser.add_argument(
        "--baseline",
        metavar="FILE",
        help=f"known findings JSON (default {DEFAULT_BASELINE} if it "
        "exists, else the one shipped with ireefuzz; --mark writes into it)",
    )
    parser.add_argument(
        "--compare",
        metavar="PREV_RUN_DIR",
        help="the run to compare with (default: the one the run was compared with, if any)",
    )
    add_bundle_options(parser)
    g = parser.add_argument_group("verdicts (written into --baseline, then the run is triaged with them)")
    g.add_argument("--mark", metavar="CAUSE", help="one of the run's cause ids to give a verdict")
    g.add_argument(
        "--as",
        dest="verdict",
        choices=tuple(VERDICTS),
        help="the verdict: upstream (a real IREE bug; "
        "--link), by-design (--why), harness (an ireefuzz error; --fixed-in), duplicate-of (--of)",
    )
    g.add_argument("--link", metavar="URL", help="upstream: the issue (or the repro awaiting filing)")
    g.add_argument("--why", metavar="TEXT", help="by-design: what the op's semantics require")
    g.add_argument("--fixed-in", metavar="VERSION", help="harness: the ireefuzz version that fixed it")
    g.add_argument("--of", metavar="CAUSE", help="duplicate-of: the cause it duplicates")
    g.add_argument("--note", metavar="TEXT", help="free text kept with the verdict")


def main(args: argparse.Namespace) -> int:
    run, bundles = Path(args.run), bundle_limit(args.bundles)
    mark = _mark_request(args)
    if mark:
        _mark(run, args, *mark)
    baseline = load_baseline(baseline_path(args.baseline))
    compare = args.compare or read_summary(run).get("diff", {}).get("compared_with")
    previous = previous_run(Path(compare), baseline) if compare else None
    rewrite_causes(open_run(run, baseline, previous, rederive=True))
    record = open_run(run, baseline, previous)
    bundle_new_causes(record, bundles, args.bundle_timeout)  # with 0, only the new causes' hangs confirmed
    summary = write_outputs(run, open_run(run, baseline, previous))
    print_causes(summary)
    return 1 if summary["new_causes"] else 0


def _mark_request(args: argparse.Namespace) -> tuple[str, str, str] | None:
    """(cause, verdict, detail) of ``--mark``, checked before anything is read or written; None without it."""
    given = {field: getattr(args, field) for field in DETAIL_OPTIONS if getattr(args, field) is not None}
    if args.mark is None:
        if args.verdict or given or args.note:
            raise UsageError("--as/--link/--why/--fixed-in/--of/--note go with --mark CAUSE")
        return None
    if not args.verdict:
        raise UsageError(f"--mark {args.mark}: say which verdict with --as ({'|'.join(VERDICTS)})")
    field = VERDICTS[args.verdict]
    stray = [DETAIL_OPTIONS[f] for f in given if f != field]
    if stray:
        raise UsageError(f"--as {args.verdict} takes {DETAIL_OPTIONS[field]}, not {', '.join(stray)}")
    problem = _baseline.check_entry(args.mark, args.verdict, {field: given.get(field, "")})
    if problem:
        hint = f" (give {DETAIL_OPTIONS[field]})" if field not in given else ""
        raise UsageError(f"--mark {args.mark}: {problem}{hint}")
    return args.mark, args.verdict, given[field]


def _mark(run: Path, args: argparse.Namespace, cause: str, verdict: str, detail: str) -> None:
    """Write the verdict into the baseline: the cause must be one of the run's (its signatures are kept with it)."""
    target = Path(args.baseline) if args.baseline else DEFAULT_BASELINE
    source = baseline_path(args.baseline)
    current = load_baseline(source if source is not None and source.exists() else None)
    record = open_run(run, current, rederive=True)
    present = {c.id: c for c in record.present_causes()}
    if cause not in present:
        new = record.new_causes()
        raise UsageError(
            f"--mark {cause}: {run} has no such cause; its {'new ' if new else ''}causes: "
            f"{', '.join(new or sorted(present)) or 'none'} (ireefuzz triage {run} lists them)"
        )
    if verdict == "duplicate-of" and detail not in present and detail not in current.causes:
        raise UsageError(f"--of {detail}: neither a cause of {run} nor one in the baseline; give one of those ids")
    if not target.exists():
        shipped = _baseline.shipped()
        entries = _baseline.read(shipped) if not args.baseline and shipped.is_file() else []
        target.parent.mkdir(parents=True, exist_ok=True)
        _baseline.write(target, entries)  # the project's verdicts first, then the team's own
        if entries:
            print(
                f"ireefuzz triage: started {target} from the baseline shipped with ireefuzz ({len(entries)} entries)",
                file=sys.stderr,
            )
    entry = _baseline.mark(target, cause, verdict, detail, signatures=present[cause].signatures, note=args.note or "")
    print(f"ireefuzz triage: {target}: {cause} is {verdict}: {entry.detail}", file=sys.stderr)


def print_causes(summary: dict) -> None:
    for c in summary["causes"]:
        judged = f"  [{c['verdict']}: {c['verdict_detail']}]" if c.get("verdict") else ""
        print(
            f"{c['status']:5}  {c['cases']:5} cases  {len(c['signatures']):3} sigs  "
            f"{c['id']}  {c['bundle'] or '-'}{judged}"
        )
        print(f"       {c['title']}")
    print(
        f"{len(summary['causes'])} causes ({len(summary['new_causes'])} new) "
        f"from {len(summary['signatures'])} signatures",
        file=sys.stderr,
    )
