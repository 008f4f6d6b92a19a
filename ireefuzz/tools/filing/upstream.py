"""Known upstream issues: which IREE / LLVM issue a finding is likely a duplicate of.

The table is ``corpus/upstream_issues.json`` (next to the known-findings baseline): one entry per
upstream issue with ``issue`` (``iree-org/iree#N``), ``url``, ``title``, ``state`` (open / closed),
``fixed_in`` (a release or null), ``regression`` and ``match``: ``causes`` (cause ids), ``program``
and ``diagnostic`` (regexes). A finding matches an entry when its cause id is listed, or when one
``diagnostic`` regex finds the finding's diagnostic (message + evidence) AND, if the entry lists
program regexes, one of them finds the program text. A program regex alone never matches: a program
shape without the symptom is not the bug.

A match to a closed issue is called out as a possible regression (the issue says it is fixed, yet the
finding shows it on this compiler); ``ireefuzz bisect`` then says which releases show it.
"""

from __future__ import annotations

import dataclasses
import functools
import json
import re
from pathlib import Path
from typing import Any, Mapping, Sequence

TABLE = "upstream_issues.json"


@dataclasses.dataclass(frozen=True)
class Match:
    issue: str  # iree-org/iree#N
    url: str
    title: str
    state: str  # open | closed
    fixed_in: str | None
    how: str  # "cause" | "diagnostic+program" | "diagnostic"

    @property
    def possible_regression(self) -> bool:
        return self.state == "closed"

    def line(self) -> str:
        """``likely duplicate of iree-org/iree#N (open)`` / ``(closed as fixed in V): possible regression``."""
        if self.state == "closed":
            fixed = f"closed as fixed in {self.fixed_in}" if self.fixed_in else "closed as fixed"
            return f"likely duplicate of {self.issue} ({fixed}): possible regression"
        return f"likely duplicate of {self.issue} ({self.state})"


def default_table() -> Path:
    """``corpus/upstream_issues.json`` of a checkout (here), else the one next to the shipped baseline."""
    here = Path("corpus") / TABLE
    if here.is_file():
        return here
    try:
        from ireefuzz.tools.baseline import shipped

        return shipped().parent / TABLE
    except Exception:  # noqa: BLE001 -- no shipped corpus: no table
        return here


@functools.lru_cache(maxsize=8)
def _load(path: str) -> tuple[Mapping[str, Any], ...]:
    try:
        rows = json.loads(Path(path).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return ()
    return tuple(r for r in rows if isinstance(r, dict) and isinstance(r.get("issue"), str))


def load(path: str | Path | None = None) -> tuple[Mapping[str, Any], ...]:
    return _load(str(path or default_table()))


def _any(patterns: Sequence[str], text: str) -> bool:
    for p in patterns:
        try:
            if re.search(p, text):
                return True
        except re.error:
            continue
    return False


def match(
    cause: str = "", program: str = "", diagnostic: str = "", *, table: Sequence[Mapping[str, Any]] | None = None
) -> list[Match]:
    """The upstream issues a finding (its cause id, program text, diagnostic text) is likely a duplicate of:
    matches by cause or by diagnostic+program first (open issues before closed ones), then by a diagnostic alone."""
    rows = load() if table is None else table
    found: list[Match] = []
    for row in rows:
        rule = row.get("match") or {}
        how = ""
        if cause and cause in (rule.get("causes") or ()):
            how = "cause"
        elif diagnostic and _any(rule.get("diagnostic") or (), diagnostic):
            programs = rule.get("program") or ()
            if not programs:
                how = "diagnostic"
            elif program and _any(programs, program):
                how = "diagnostic+program"
        if how:
            found.append(
                Match(
                    row["issue"],
                    str(row.get("url", "")),
                    str(row.get("title", "")),
                    str(row.get("state", "open")),
                    row.get("fixed_in"),
                    how,
                )
            )
    # a match on the program's own op or on the cause before a diagnostic alone; among those, open issues first (a
    # specific open issue, e.g. the sort case of a general mechanism closed long ago, is the one to comment on)
    return sorted(found, key=lambda m: (m.how == "diagnostic", m.state == "closed"))


def diagnostic_of(finding: Any) -> str:
    """The text a finding's diagnostic regexes are matched against: message, evidence diagnostic / message, and
    the whole evidence as JSON (an immutability finding says 'was modified by the call' in its message)."""
    get = (
        (lambda k, d=None: finding.get(k, d))
        if isinstance(finding, Mapping)
        else (lambda k, d=None: getattr(finding, k, d))
    )
    evidence = get("evidence") or {}
    parts = [str(get("message") or ""), str(evidence.get("diagnostic") or ""), str(evidence.get("message") or "")]
    parts.append(json.dumps(evidence, sort_keys=True, default=str))
    return "\n".join(parts)


def for_finding(finding: Any, program: str = "", cause: str = "") -> list[Match]:
    """``match`` for a Finding (or its JSON row) on ``program``."""
    get = (lambda k: finding.get(k)) if isinstance(finding, Mapping) else (lambda k: getattr(finding, k, None))
    cause = cause or str(get("cause") or "")
    return match(cause, program, diagnostic_of(finding))


def issue_section(matches: Sequence[Match]) -> list[str]:
    """ISSUE.md lines: every likely duplicate (a closed one called out as a possible regression), or that none
    matched the table."""
    lines = ["## Known upstream issues", ""]
    if not matches:
        return lines + [f"No entry of ireefuzz's table of upstream issues (`corpus/{TABLE}`) matches this finding.", ""]
    for m in matches:
        lines.append(f"- **{m.line()}**: [{m.title}]({m.url}) (matched by {m.how})")
        if m.possible_regression:
            lines.append(
                f"  - {m.issue} is closed, yet this compiler still shows it: file as a regression, with the "
                "release bisection below, rather than as a new bug."
            )
    return lines + [""]


def program_of(row: Mapping[str, Any] | None) -> str:
    """The program text of a recorded finding: its raw program, else its generated case emitted (empty if neither)."""
    if not row:
        return ""
    case = row.get("case")
    if isinstance(case, Mapping) and isinstance(case.get("program"), str):
        return case["program"]
    try:
        from ireefuzz.generators.case import Case
        from ireefuzz.generators.emit import emit

        return emit(Case.from_json(dict(case)).graph, "main").text if isinstance(case, Mapping) else ""
    except Exception:  # noqa: BLE001 -- an old or foreign case: match on the diagnostic alone
        return ""
