"""The experiments in a bundle: ``record`` (``finding.json``'s ``experiments``: the table and its verdict), read back
(``read``, ``duplicates``, ``lost_alone``) and written for ISSUE.md and summary.md (``section_lines``)."""

from __future__ import annotations

import dataclasses
import json
from pathlib import Path
from typing import Any, Mapping

from ireefuzz.tools.baseline import Known

from .table import ExperimentTable, Verdict, alone_cause, without_consumer
from .verdict import judge


def record(table: ExperimentTable) -> dict[str, Any]:
    """What a bundle's ``finding.json`` keeps under ``experiments``: the table and its verdict."""
    return table.to_json() | {"verdict": judge(table).to_json()}


def with_culprit(tried: Mapping[str, Any] | None, culprit: str | None) -> Mapping[str, Any] | None:
    """The experiments' record judged again once the target's culprit pass is localized: a wrong value's id names
    no pass, so only then can a variant in another oracle's known bug of the same pass make it that bug's duplicate
    (the unit-dim folding's pooling, whose static form is the known verifier error)."""
    if not tried or not culprit:
        return tried
    return record(dataclasses.replace(ExperimentTable.from_json(tried), culprit=culprit))


def _bundle_record(folder: str | Path) -> dict[str, Any]:
    """The bundle's ``finding.json`` in ``folder`` ({} without a readable one)."""
    try:
        found = json.loads((Path(folder) / "finding.json").read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    return found if isinstance(found, dict) else {}


def read(folder: str | Path) -> dict[str, Any] | None:
    """The ``experiments`` record of the bundle in ``folder`` (None without one)."""
    value = _bundle_record(folder).get("experiments")
    return value if isinstance(value, dict) and isinstance(value.get("verdict"), dict) else None


def lost_alone(folder: str | Path) -> bool:
    """The bundle in ``folder`` says its cause did not reproduce alone (``status`` lost: 0 of its confirming runs):
    not confirmed, listed and never red (a batched module's artefact or a flaky one, nothing to file as is)."""
    return _bundle_record(folder).get("status") == "lost"


def duplicates(bundles: Mapping[str, Path]) -> dict[str, Known]:
    """A ``duplicate-of`` baseline entry (note ``by experiment: ...``) for each cause whose bundle (``bundles``: cause
    -> folder) the experiments judged a known cause's duplicate; the campaign counts those causes as known. Of this
    run's new causes, one whose smaller program fails as another does is that one's duplicate: its op alone fails as
    an earlier cause's op alone, or as a cause of this run (`pow_int>max` fails as `pow_int` with the `max` removed,
    stop 42's host campaign, and `pow_int` is one of its causes)."""
    found = {}
    first_alone: dict[str, str] = {}  # what an op alone showed -> the first cause that failed so
    for cause, folder in bundles.items():
        tried = read(folder)
        verdict = Verdict.from_json(tried["verdict"]) if tried else None
        if verdict is not None and verdict.verdict == "duplicate-of" and verdict.target == cause and verdict.of:
            found[cause] = Known(cause, "duplicate-of", of=verdict.of, note=f"by experiment: {verdict.by}")
            continue
        if verdict is not None and verdict.verdict == "known" and verdict.target != cause and verdict.of:
            # the bundle's own cause rules made its finding a known cause's consequence (a wrong value that reads an
            # argument the call wrote), and its experiments ran on that cause: stop 47's x86-64-v3 shift>cumsum>topk
            # bundle said #16168, and the campaign still listed the wrong value new
            note = f"its bundle's finding is a consequence of {verdict.of}, a known cause"
            found[cause] = Known(cause, "duplicate-of", of=verdict.of, note=note)
            continue
        rows = ExperimentTable.from_json(tried).rows if tried else ()
        others = [c for c in bundles if c != cause and c not in found]
        if (through := without_consumer(rows, others)) and through != cause:
            note = f"by experiment: with a consumer removed it fails as {through}, a cause of this run"
            found[cause] = Known(cause, "duplicate-of", of=through, note=note)
            continue
        shown = alone_cause(rows)
        if shown in others:  # the op alone fails as another cause of this run: that one is its defect
            lead = shown
        else:
            lead = first_alone.setdefault(shown, cause) if shown else cause
        if lead != cause:  # one op wrong on its operands' values, whatever computed them: the earlier cause's defect
            op = shown.rsplit("/", 1)[-1]
            note = f"by experiment: it fails as `{op}` alone at its operands' values, as {lead} does"
            found[cause] = Known(cause, "duplicate-of", of=lead, note=note)
    return found


def section_lines(found: Mapping[str, Any], heading: str = "##") -> list[str]:
    """Markdown: the experiments table, the trigger, the nearest known cause and the verdict (ISSUE.md, the
    campaign's summary.md), from a ``record``."""
    table = ExperimentTable.from_json(found)
    verdict = Verdict.from_json(found.get("verdict") or {})
    cell = lambda text: str(text).replace("|", "\\|").replace("\n", " ")
    lines = [
        f"{heading} Experiments",
        "",
        f"Each variant changes one thing of the program and is compiled (and run) again ({len(table.rows) - 1} "
        f"variants, {table.seconds:.0f} s); the outcome is the cause it shows: `same` (this one), `known:` / "
        "`other:` another, `clean`, or `not-judged:` why.",
        "",
        "| variant | what changed | outcome |",
        "|---|---|---|",
    ]
    lines += [f"| `{r.label}` | {cell(r.change)} | `{cell(r.outcome)}` |" for r in table.rows]
    if table.skipped:
        lines += ["", f"Not run: {'; '.join(table.skipped)}."]
    if table.alone:
        lines += [
            "",
            "**The op alone** fails the same way: its operands made arguments that hold the values they have in the "
            "program, nothing else (saved as `alone.mlir`, the commands below run it):",
            "",
            "```mlir",
            table.alone.get("program", ""),
            "```",
            "",
            "```sh",
            table.alone.get("command", ""),
            "```",
        ]
    lines += ["", "**Trigger**:" if verdict.trigger else "**Trigger**: no variant makes the failure go away."]
    lines += [f"- {t}" for t in verdict.trigger]
    if verdict.verdict != "new":
        lines += ["", f"**Verdict**: {verdict.line()}."]
    else:
        near = f"`{verdict.nearest}`: {verdict.why_not_nearest}" if verdict.nearest else verdict.why_not_nearest
        lines += ["", f"**Nearest known cause**: {near}.", "", f"**Verdict**: {verdict.line()}."]
    return lines + [""]


def with_section(issue: str, found: Mapping[str, Any]) -> str:
    """``issue`` (an ISSUE.md) with the experiments section before its ``## Bisection`` (else at its end)."""
    section = "\n".join(section_lines(found)) + "\n"
    at = issue.find("## Bisection")
    return issue[:at] + section + issue[at:] if at >= 0 else issue.rstrip("\n") + "\n\n" + section
