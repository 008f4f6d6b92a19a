"""Causes across a campaign: what the record keeps per cause, and the nightly diff of two runs' causes.

The diff of run B against the run before it, A (``fuzz --compare A``, ``ireefuzz diff A B``), puts
every cause of either run in one category:

- ``new``            present in B, absent from A, never seen before, not in the baseline (exit status 1);
- ``still_present``  present in A and in B;
- ``gone``           present in A, absent from B: possibly fixed;
- ``back_again``     present in B, absent from A, but seen before: in an earlier run of the chain
  (A's ``history``) or listed in the baseline (as fixed, open or otherwise).

Each run's ``summary.json`` records ``history``: the causes it found plus the history of the run it
was compared with, so a chain of nightlies remembers every cause it ever saw. Without a previous run,
the new causes are those not in the baseline.
"""

from __future__ import annotations

import dataclasses
from typing import Collection, Iterable, Mapping

DIFF_CATEGORIES = {
    "new": "new",
    "still_present": "still present",
    "gone": "gone (possibly fixed)",
    "back_again": "back again",
}  # key in summary.json -> title in the reports


@dataclasses.dataclass
class CauseStats:
    id: str
    title: str = ""
    signatures: set[str] = dataclasses.field(default_factory=set)
    cases: int = 0  # cases showing the cause (counted from progress.jsonl)
    first_case: int | None = None
    smallest_case: int | None = None
    smallest: tuple[int, int] | None = None  # size of the smallest recorded example
    smallest_row: int | None = None  # its line in findings.jsonl (0-based)

    @property
    def oracle(self) -> str:
        return self.id.split("/", 1)[0]


@dataclasses.dataclass(frozen=True)
class Previous:
    """What a later run needs of the run it is compared with."""

    run: str  # its directory
    present: frozenset[str]  # the causes it found
    history: frozenset[str]  # ... and every cause the runs before it found
    titles: Mapping[str, str] = dataclasses.field(default_factory=dict)  # of the causes it found


def diff_causes(present: Iterable[str], known: Collection[str], previous: Previous | None) -> dict[str, list[str]]:
    """The categories above for the causes ``present`` now; ``known``: the causes the baseline lists."""
    before = previous.present if previous else frozenset()
    seen = previous.history if previous else frozenset()
    present = set(present)
    out: dict[str, list[str]] = {k: [] for k in DIFF_CATEGORIES}
    for cause in sorted(present):
        category = "still_present" if cause in before else "back_again" if cause in seen or cause in known else "new"
        out[category].append(cause)
    out["gone"] = sorted(before - present)
    return out
