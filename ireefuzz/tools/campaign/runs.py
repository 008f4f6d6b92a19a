"""A campaign's directory as the tools after it see it: open its record, compare with it, write its outputs."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from ireefuzz.base import durable as _io
from ireefuzz.errors import UsageError
from ireefuzz.tools.baseline import Baseline

from .causes import Previous
from .options import Options
from .record import Record


def read_options(run: Path) -> Options:
    """The options recorded in ``run/campaign.json``; a missing or damaged file is one line (UsageError)."""
    file = run / "campaign.json"
    if not file.exists():
        raise UsageError(f"{run}: not a campaign directory (no campaign.json)")
    try:
        return Options.from_json(json.loads(file.read_text(encoding="utf-8")))
    except (OSError, UnicodeDecodeError, ValueError, TypeError, AttributeError) as e:
        raise UsageError(
            f"{file} is damaged ({str(e).splitlines()[0][:200]}); restore it, or start a new campaign "
            "with another --out"
        ) from None


def open_run(run: Path, baseline: Baseline, previous: Previous | None = None, *, rederive: bool = False) -> Record:
    """The run's record, judged by ``baseline`` as of the ireefuzz that made the run (``run_version``)."""
    return Record(run, read_options(run), baseline.judging(run_version(run)), previous, rederive=rederive)


def run_version(run: Path) -> str:
    """The ireefuzz version that made ``run`` (its summary.json's ``ireefuzz_version``; "" for an older run)."""
    return str(read_summary(run).get("ireefuzz_version") or "")


def previous_run(run: Path, baseline: Baseline) -> Previous:
    """What a later run is compared with: the causes ``run`` found, and its history (from its summary.json)."""
    causes = open_run(run, baseline).present_causes()
    present = frozenset(c.id for c in causes)
    history = present | frozenset(read_summary(run).get("history", ()))
    return Previous(str(run), present, history, {c.id: c.title for c in causes})


KEPT_KEYS = ("coordinator_rss_mb", "bundling_seconds")  # what the record does not compute


def write_outputs(out: Path, record: Record, **extra: Any) -> dict[str, Any]:
    """summary.json and the reports, from the record; keys of an earlier summary.json that the record does
    not compute (``KEPT_KEYS``: the coordinator's memory samples, the seconds spent bundling) are kept."""
    from ireefuzz import __version__

    from .ranking import rank

    before = read_summary(out)
    summary = {k: v for k, v in before.items() if k in KEPT_KEYS} | record.summary() | extra
    # the ireefuzz that made the run: stamped by its first summary (a run that has one without it is older)
    summary["ireefuzz_version"] = before.get("ireefuzz_version", "") if before else __version__
    summary["ranking"] = [r.to_json() for r in rank(record)]  # the new causes, most likely real and distinct first
    summary["judged_causes"] = {
        c["id"]: {"verdict": c["verdict"], "detail": c["verdict_detail"]}  # known, not failures
        for c in summary["causes"]
        if c.get("verdict") and c["status"] == "known"
    }
    summary["time_accounting"] = with_bundling(summary["time_accounting"], summary.get("bundling_seconds", 0.0))
    _io.atomic_write_json(out / "summary.json", summary)
    from ireefuzz.tools.campaign import report

    report.write_reports(out, summary, _io.read_jsonl(out / "findings.jsonl"))
    return summary


def with_bundling(accounting: dict[str, Any], seconds: float) -> dict[str, Any]:
    """``Record.time_accounting`` with the seconds spent shrinking and bundling after the campaign."""
    if not seconds:
        return accounting
    spent = accounting["seconds"] | {"bundling": round(seconds, 2)}
    total = sum(spent.values()) or 1e-9
    return accounting | {
        "seconds": spent,
        "shares": {a: round(v / total, 4) for a, v in spent.items()},
        "total_seconds": round(total, 2),
    }


def rewrite_causes(record: Record) -> None:
    """Write the record's causes back into findings.jsonl and progress.jsonl (``ireefuzz triage``): each
    rewritten atomically, so a reader sees the old file or the new one."""
    out = record.out
    rows = _io.read_jsonl(out / "findings.jsonl")
    for row in rows:
        cause = record.row_cause[row["signature"], row["case_index"]]
        row.update(
            cause=cause,
            cause_title=record.causes[cause].title,
            status="known" if record.baseline.finding_known(row["signature"], cause) else "new",
        )
    progress = _io.read_jsonl(out / "progress.jsonl")
    for line in progress:
        for e in line["cases"]:
            e["causes"] = record.causes_of(e["i"], e["sigs"])
    for name, lines in (("findings.jsonl", rows), ("progress.jsonl", progress)):
        text = "".join(json.dumps(r, sort_keys=True, default=_io.json_default) + "\n" for r in lines)
        _io.atomic_write_text(out / name, text)


def read_summary(run: Path) -> dict[str, Any]:
    try:
        return json.loads((run / "summary.json").read_text())
    except (OSError, json.JSONDecodeError):
        return {}
