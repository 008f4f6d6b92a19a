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
    case_indices: set[int] = dataclasses.field(default_factory=set)  # which cases
    first_case: int | None = None
    smallest_case: int | None = None
    smallest: tuple[int, int] | None = None  # size of the smallest recorded example
    smallest_row: int | None = None  # its line in findings.jsonl (0-based)

    @property
    def oracle(self) -> str:
        return self.id.split("/", 1)[0]


def ops_chain(cause: str) -> tuple[str, ...]:
    """The ops a numeric cause names, in cone order (``numeric/wrong-value/sort>concat`` -> (sort, concat))."""
    return tuple(cause.rsplit("/", 1)[-1].split(">"))


def companions(causes: Iterable[CauseStats]) -> dict[str, str]:
    """Each wrong value seen only in the cases of another wrong value whose ops its cone holds -> that cause: one
    wrong op read by two outputs gives two causes (``sort`` and ``sort>concat``), one bug (round 40, seed 44719).
    So is one seen in exactly the cases of another whose cone starts with the same op: two outputs of one graph
    that fail together and share their producers (stop 44, host, seed 24817: ``layer_norm>cos>min>reduce_sum`` and
    ``layer_norm>cos>min>transpose>where_gt``, one consumer fusion that writes a diagonal tile only, filed twice).
    The one with fewer ops leads (ties: by id); a lead is never itself a companion."""
    wrong = sorted(
        (c for c in causes if c.id.startswith("numeric/wrong-value/") and c.case_indices),
        key=lambda c: (len(ops_chain(c.id)), c.id),
    )
    found: dict[str, str] = {}
    for lead in wrong:
        if lead.id in found:
            continue
        chain = ops_chain(lead.id)
        for other in wrong:
            ops = ops_chain(other.id)
            if other.id == lead.id or other.id in found or len(ops) <= len(chain):
                continue
            holds = any(ops[i : i + len(chain)] == chain for i in range(len(ops) - len(chain) + 1))
            if holds and other.case_indices <= lead.case_indices:
                found[other.id] = lead.id
    for k, lead in enumerate(wrong):  # outputs of one graph failing together, over the producers they share
        if lead.id in found:
            continue
        for other in wrong[k + 1 :]:  # ``wrong`` is in lead order: fewer ops, then by id
            shared = ops_chain(other.id)[0] == ops_chain(lead.id)[0]
            if other.id not in found and shared and other.case_indices == lead.case_indices:
                found[other.id] = lead.id
    return found


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
