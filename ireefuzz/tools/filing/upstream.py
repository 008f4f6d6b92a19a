"""Known upstream issues: which IREE / LLVM issue a finding is likely a duplicate of, and where it stands against
the IREE build that showed the finding.

The table is ``corpus/upstream_issues.json`` (next to the known-findings baseline), one entry per upstream issue or
pull request, every fact read from the issue thread or the repository (``sources`` says where):

- ``issue`` (``iree-org/iree#N``), ``kind`` (``issue`` | ``pull``), ``url``, ``title``, ``state`` (``open`` |
  ``closed``; as of the stored copy the research read), ``opened`` (ISO date, or ``"unverified"``);
- ``fixed`` (an issue) / ``merged`` (a pull request): null while open; else ``{"pr", "date", "first_nightly",
  "first_release"}`` (the merging PR, its merge date on main, the first nightly tag and the oldest release of
  ``sut.releases.RELEASES`` that contain it, each possibly ``"unverified"``; ``also``: further PRs), or
  ``"unverified"`` when it is closed but no fixing change was found. Never a guessed date;
- ``fixed_in``: the ``first_release`` above, kept for older readers;
- ``relation``: what a finding matching this entry is to it (``RELATIONS``): ``duplicate`` (the bug it reports),
  ``incomplete-fix`` (its fix changed the same code and left this path), ``introduced-by`` (a merged change that
  likely caused it), ``proposed-fix`` (a pull request that would fix it), ``similar`` (same symptom and component,
  mechanism not shown to be the same);
- ``mechanism`` (one line), ``sources`` (where each fact was read), ``summary`` (optional, older prose);
- ``match``: ``causes`` (cause ids), ``culprits`` (a measured culprit, ``<method>:<pass>``: a mechanism only the
  culprit search sees, as a stream pass sharing a buffer written in place), ``program`` and ``diagnostic`` (regexes);
  ``unmatched``: why an entry has no
  rule (its mechanism is not visible in a finding).

A finding matches an entry when its cause id or its culprit is listed, or when one ``diagnostic`` regex finds the
finding's diagnostic (message + evidence) AND, if the entry lists program regexes, one of them finds the program text. A
program regex alone never matches: a program shape without the symptom is not the bug.

A match's ``timing`` compares the entry's fix (or merge) date with the date of the IREE build that showed the
finding (``build_date``: ``3.13.0rc20261016`` is 2026-10-16): ``before-build`` only when the fix landed on an
earlier day, so a closed duplicate is a *possible* regression, and says so only until ``ireefuzz bisect`` (the
bug absent from ``first_release``, back in a later one) confirms it. A fix on or after the build's day, a closed
issue without a fix date, and a build without a date are each said as such, never called a regression.
"""

from __future__ import annotations

import dataclasses
import datetime
import enum
import functools
import json
import re
from pathlib import Path
from typing import Any, Literal, Mapping, Sequence, get_args

TABLE = "upstream_issues.json"
UNVERIFIED = "unverified"

Relation = Literal["duplicate", "incomplete-fix", "introduced-by", "proposed-fix", "similar"]
RELATIONS: tuple[str, ...] = get_args(Relation)
How = Literal["cause", "culprit", "diagnostic+program", "diagnostic"]


class Timing(str, enum.Enum):
    """Where an entry's change stands against a build (a ``str``, so a Match dumps to plain JSON)."""

    OPEN = "open"  # nothing landed: an open issue, an unmerged pull request
    BEFORE_BUILD = "before-build"  # landed on a day before the build's date: the build has it
    AFTER_BUILD = "after-build"  # landed on or after the build's date: the build may lack it
    UNDATED = "undated"  # closed, but no landing date on record
    BUILD_UNDATED = "build-undated"  # landed on a recorded date, but the build has none


@dataclasses.dataclass(frozen=True)
class Landing:
    """The change that closed an issue (or a pull request's own merge)."""

    pr: str
    date: str  # ISO date of the merge on main
    first_nightly: str = UNVERIFIED
    first_release: str = UNVERIFIED  # oldest of sut.releases.RELEASES holding it

    @classmethod
    def of(cls, row: Mapping[str, Any]) -> Landing | None:
        """The entry's ``fixed`` / ``merged`` record; None while open or when ``"unverified"``."""
        value = row.get("merged" if row.get("kind") == "pull" else "fixed")
        if not isinstance(value, Mapping) or not _iso(value.get("date")):
            return None
        return cls(
            str(value.get("pr", "")),
            str(value["date"]),
            str(value.get("first_nightly") or UNVERIFIED),
            str(value.get("first_release") or UNVERIFIED),
        )


@dataclasses.dataclass(frozen=True)
class Match:
    issue: str  # iree-org/iree#N
    url: str
    title: str
    state: str  # open | closed
    fixed_in: str | None  # the first release with the fix (landed.first_release), or None
    how: How
    kind: str = "issue"  # issue | pull
    relation: Relation = "duplicate"
    mechanism: str = ""
    landed: Landing | None = None
    timing: Timing = Timing.OPEN
    build: str = ""  # the IREE build compared with ("3.13.0rc20261016 @ 89ece87b...")
    build_date: str | None = None

    @property
    def possible_regression(self) -> bool:
        """A duplicate (or the bug a merged fix addressed) whose fix landed before this build."""
        return self.relation in ("duplicate", "proposed-fix") and self.timing is Timing.BEFORE_BUILD

    def line(self) -> str:
        """One line: what this finding is to the entry, and the entry's fix against this build."""
        return f"{_LEAD[self.relation]} {self.issue} ({self._standing()})"

    def _standing(self) -> str:
        verb = "merged" if self.kind == "pull" else "closed"
        if self.timing is Timing.OPEN:
            return "open"
        if self.timing is Timing.UNDATED:
            return f"{verb}, no fix date on record: a regression cannot be told from a missing fix; bisect"
        assert self.landed is not None
        by = f" by {_short(self.landed.pr)}" if self.kind == "issue" and self.landed.pr else ""
        when = f"{verb} {self.landed.date}{by}"
        if self.timing is Timing.BUILD_UNDATED:
            return f"{when}; this build's date is unknown ({self.build or 'no version'}): bisect"
        build = f"this build ({self.build_date})"
        return f"{when}, " + _AGAINST_BUILD[self.relation][self.timing is Timing.BEFORE_BUILD].format(build=build)


_LEAD: dict[str, str] = {
    "duplicate": "likely duplicate of",
    "incomplete-fix": "incomplete fix of",
    "introduced-by": "likely introduced by",
    "proposed-fix": "the fix proposed in",
    "similar": "similar to",
}
# (after the build, before it) per relation
_AGAINST_BUILD: dict[str, tuple[str, str]] = {
    "duplicate": (
        "fixed on or after the date of {build}: this build may predate the fix",
        "fixed before {build}: possible regression, unconfirmed until bisect",
    ),
    "incomplete-fix": (
        "fixed on or after the date of {build}: retest with a build that has the fix",
        "fixed before {build}, which still fails: a path the fix left",
    ),
    "introduced-by": (
        "on or after the date of {build}: not in it, so not the cause",
        "before {build}: the likely cause, unconfirmed until bisect",
    ),
    "proposed-fix": (
        "on or after the date of {build}: this build may predate the fix",
        "before {build}: possible regression, unconfirmed until bisect",
    ),
    "similar": ("fixed on or after the date of {build}", "fixed before {build}"),
}


def _short(pr: str) -> str:
    """``iree-org/iree#23281`` -> ``PR #23281``."""
    return f"PR #{pr.rsplit('#', 1)[1]}" if "#" in pr else pr


def _iso(text: object) -> datetime.date | None:
    try:
        return datetime.date.fromisoformat(text) if isinstance(text, str) else None
    except ValueError:
        return None


_BUILD_DATE = (re.compile(r"rc(\d{8})\b"), re.compile(r"^(\d{8})\.\d+\b"))  # 3.13.0rc20261016; 20230209.425


def build_date(version: str) -> datetime.date | None:
    """The date an IREE build was cut, from its version (``iree-compile --version`` / ``Toolchain.version``):
    ``3.13.0rc20261016 @ 89ece87b`` -> 2026-10-16, ``20230209.425`` -> 2023-02-09; None for a version without one
    (a stable ``3.13.0`` string, a local build)."""
    text = version.strip()
    for pattern in _BUILD_DATE:
        found = pattern.search(text)
        if found:
            try:
                return datetime.datetime.strptime(found.group(1), "%Y%m%d").date()
            except ValueError:
                return None
    return None


def timing_of(row: Mapping[str, Any], build: str) -> Timing:
    """Where ``row``'s fix (or merge) stands against the build whose version is ``build``."""
    landed = Landing.of(row)
    if landed is None:
        return Timing.UNDATED if row.get("state") == "closed" else Timing.OPEN
    built = build_date(build)
    if built is None:
        return Timing.BUILD_UNDATED
    return Timing.BEFORE_BUILD if datetime.date.fromisoformat(landed.date) < built else Timing.AFTER_BUILD


@functools.lru_cache(maxsize=1)
def installed_build() -> str:
    """The installed IREE compiler's version ("" if there is none)."""
    from ireefuzz import sut

    try:
        return sut.toolchain_of(sut.CompilerConfig()).version
    except (sut.IreeNotFound, OSError):
        return ""


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


def problems(rows: Sequence[Mapping[str, Any]]) -> list[str]:
    """The table's well-formedness, one line per fault (empty: well formed): a known kind, state and relation; an
    ``opened`` date or "unverified"; an open entry with no fix, a closed one with a dated fix record or
    "unverified"; a match rule, or ``unmatched`` saying why there is none; regexes that compile; sources."""
    found: list[str] = []
    for row in rows:
        name = str(row.get("issue", "?"))
        say = found.append
        kind, state = row.get("kind"), row.get("state")
        if kind not in ("issue", "pull"):
            say(f"{name}: kind {kind!r} is not issue or pull")
        if state not in ("open", "closed"):
            say(f"{name}: state {state!r} is not open or closed")
        if row.get("relation") not in RELATIONS:
            say(f"{name}: relation {row.get('relation')!r} is not one of {', '.join(RELATIONS)}")
        if row.get("opened") != UNVERIFIED and _iso(row.get("opened")) is None:
            say(f"{name}: opened {row.get('opened')!r} is neither an ISO date nor {UNVERIFIED!r}")
        key = "merged" if kind == "pull" else "fixed"
        landed = row.get(key)
        if state == "open" and landed is not None:
            say(f"{name}: open, yet {key} is {landed!r}")
        if state == "closed" and landed != UNVERIFIED:
            if not isinstance(landed, Mapping) or _iso(landed.get("date")) is None or not landed.get("pr"):
                say(f"{name}: closed, so {key} needs {{pr, date}} or {UNVERIFIED!r}, not {landed!r}")
        rule = row.get("match") or {}
        patterns = [*(rule.get("program") or ()), *(rule.get("diagnostic") or ())]
        if not (rule.get("causes") or rule.get("culprits") or rule.get("diagnostic")) and not row.get("unmatched"):
            say(f"{name}: no cause, culprit or diagnostic regex, and no 'unmatched' saying why")
        for pattern in patterns:
            try:
                re.compile(pattern)
            except re.error as e:
                say(f"{name}: regex {pattern!r} does not compile ({e})")
        if not row.get("sources"):
            say(f"{name}: no sources")
    return found


def _any(patterns: Sequence[str], text: str) -> bool:
    for p in patterns:
        try:
            if re.search(p, text):
                return True
        except re.error:
            continue
    return False


def _how(rule: Mapping[str, Any], cause: str, program: str, diagnostic: str, culprit: str = "") -> How | None:
    if cause and cause in (rule.get("causes") or ()):
        return "cause"
    if culprit and culprit in (rule.get("culprits") or ()):
        return "culprit"
    if diagnostic and _any(rule.get("diagnostic") or (), diagnostic):
        programs = rule.get("program") or ()
        if not programs:
            return "diagnostic"
        if program and _any(programs, program):
            return "diagnostic+program"
    return None


def match(
    cause: str = "",
    program: str = "",
    diagnostic: str = "",
    *,
    table: Sequence[Mapping[str, Any]] | None = None,
    build: str | None = None,
    culprit: str = "",
) -> list[Match]:
    """The upstream entries a finding (its cause id, program text, diagnostic text) matches, each timed against
    ``build`` (an IREE version; None: the installed IREE's, "": unknown): matches by cause or by
    diagnostic+program first (open entries before closed ones), then by a diagnostic alone."""
    rows = load() if table is None else table
    version = installed_build() if build is None else build
    built = build_date(version)
    found: list[Match] = []
    for row in rows:
        how = _how(row.get("match") or {}, cause, program, diagnostic, culprit)
        if how is None:
            continue
        landed = Landing.of(row)
        relation = row.get("relation")
        found.append(
            Match(
                issue=row["issue"],
                url=str(row.get("url", "")),
                title=str(row.get("title", "")),
                state=str(row.get("state", "open")),
                fixed_in=landed.first_release if landed and landed.first_release != UNVERIFIED else None,
                how=how,
                kind=str(row.get("kind", "issue")),
                relation=relation if relation in RELATIONS else "duplicate",
                mechanism=str(row.get("mechanism", "")),
                landed=landed,
                timing=timing_of(row, version),
                build=version,
                build_date=built.isoformat() if built else None,
            )
        )
    # a match on the program's own op or on the cause before a diagnostic alone; among those, open entries first (a
    # specific open issue, e.g. the sort case of a general mechanism closed long ago, is the one to comment on)
    return sorted(found, key=lambda m: (m.how == "diagnostic", m.state == "closed"))


def diagnostic_of(finding: Any) -> str:
    """The text a finding's diagnostic regexes are matched against: message, evidence diagnostic / message, and
    the whole evidence as JSON (an immutability finding says 'was modified by the call' in its message)."""
    get = _getter(finding)
    evidence = get("evidence") or {}
    parts = [str(get("message") or ""), str(evidence.get("diagnostic") or ""), str(evidence.get("message") or "")]
    parts.append(json.dumps(evidence, sort_keys=True, default=str))
    return "\n".join(parts)


def build_of(finding: Any) -> str | None:
    """The IREE version a finding (or its JSON row / a bundle's finding.json) was made with, if it says: its own
    ``compiler_version``, else its evidence's, else its platform evidence's (what the pipeline records)."""
    get = _getter(finding)
    evidence = get("evidence") or {}
    evidence = evidence if isinstance(evidence, Mapping) else {}
    platform = evidence.get("platform")
    platform = platform if isinstance(platform, Mapping) else {}
    version = get("compiler_version") or evidence.get("compiler_version") or platform.get("compiler_version")
    return str(version) if version else None


def for_finding(
    finding: Any, program: str = "", cause: str = "", *, build: str | None = None, culprit: Any = None
) -> list[Match]:
    """``match`` for a Finding (or its JSON row) on ``program`` and its measured ``culprit`` (a ``Culprit``), timed
    against ``build``, else the finding's own compiler version, else the installed IREE's."""
    cause = cause or str(_getter(finding)("cause") or "")
    return match(
        cause,
        program,
        diagnostic_of(finding),
        build=build if build is not None else build_of(finding),
        culprit=culprit_key(culprit),
    )


def culprit_key(culprit: Any) -> str:
    """What a ``culprits`` rule names of a measured culprit: ``<method>:<pass>`` ("" when not localized)."""
    name = getattr(culprit, "pass_", None)
    return f"{getattr(culprit, 'method', '') or ''}:{name}" if name else ""


def _getter(finding: Any) -> Any:
    if isinstance(finding, Mapping):
        return lambda k, d=None: finding.get(k, d)
    return lambda k, d=None: getattr(finding, k, d)


# what a filer does about a match, per (relation, timing); timing None: any timing; absent: the line says it all
_ADVICE: dict[tuple[str, Timing | None], str] = {
    ("duplicate", Timing.OPEN): "Comment on {issue} with this reproducer and what it adds, rather than filing anew.",
    ("duplicate", Timing.BEFORE_BUILD): (
        "{issue}'s fix ({pr}, {date}; first release with it: {release}) predates this build, which still shows the "
        "bug. Bisect the releases: absent from {release} and back in a later one is a regression (comment on "
        "{issue}); present in every release with the fix means the fix does not cover this program (a new issue "
        "that links {issue}). The Bisection section below says which."
    ),
    ("duplicate", Timing.AFTER_BUILD): (
        "{issue} was fixed ({pr}, {date}) on or after this build's date: retest on a build with the fix (first "
        "release: {release}) before filing anything."
    ),
    ("duplicate", Timing.UNDATED): (
        "{issue} is closed with no fix on record: bisect the releases to tell a regression from a missing fix."
    ),
    ("incomplete-fix", Timing.BEFORE_BUILD): (
        "{issue}'s fix ({pr}, {date}) is in this build and this variant still fails: file it as a new issue that "
        "links {issue} and names the path its fix left."
    ),
    ("introduced-by", Timing.BEFORE_BUILD): (
        "{issue} ({date}; first release: {release}) likely introduced this: bisect (the release before {release} "
        "should not show it) and link {issue} in the report."
    ),
    ("proposed-fix", Timing.OPEN): "{issue} proposes the fix: comment there with this reproducer.",
    ("similar", None): "Link {issue} in the report: same symptom, mechanism not shown to be the same.",
}


def advice(m: Match) -> str:
    """What a filer does about ``m`` (empty when the line says it all)."""
    text = _ADVICE.get((m.relation, m.timing)) or _ADVICE.get((m.relation, None), "")
    landed = m.landed
    return text.format(
        issue=m.issue,
        pr=_short(landed.pr) if landed else "?",
        date=landed.date if landed else "?",
        release=_release(landed),
    )


def _release(landed: Landing | None) -> str:
    """The first release with the change, or where it is unverified, how to find it."""
    if landed is None:
        return "the first release with the fix"
    if landed.first_release != UNVERIFIED:
        return landed.first_release
    return f"the first release after {landed.date}"


def issue_section(matches: Sequence[Match]) -> list[str]:
    """ISSUE.md lines: every matching entry with where its fix stands against this build and what to do, or that
    none matched the table."""
    lines = ["## Known upstream issues", ""]
    if not matches:
        return lines + [f"No entry of ireefuzz's table of upstream issues (`corpus/{TABLE}`) matches this finding.", ""]
    for m in matches:
        lines.append(f"- **{m.line()}**: [{m.title}]({m.url}) (matched by {m.how})")
        if m.mechanism:
            lines.append(f"  - its mechanism, as the issue describes it: {m.mechanism}")
        if advice(m):
            lines.append(f"  - {advice(m)}")
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
