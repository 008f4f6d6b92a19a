"""The new causes of a run, most likely a real and distinct IREE bug first (``--bundles N`` takes the top N).

Each new cause gets a **prior**, the product of:

- its oracle: a crash or a wrong value (numeric, reference, an input mutated) is a bug by itself; an alloca,
  a copy or a materialized producer may be what the semantics need; a metamorphic asymmetry only says two
  forms differ (``OracleSpec.weight``; a cause's best member oracle counts);
- its reproduction, where its bundle says it (``confirm`` of ``bundles/<cause>/finding.json``): 3/3 counts
  in full, not yet known a little less, flaky or lost much less (``REPRODUCED``);
- its smallest member's size: fewer ops and elements are more often a bug one can read (``size_weight``);
- whether every recorded member is a program form beyond what IREE's frontends produce (the case's
  ``beyond_frontends`` flag): then it is halved.

Then **furthest point first** ("Taming compiler fuzzers", PLDI 2013): causes are taken one by one, each time
the one whose prior times its distance to the nearest cause already known or already taken is largest, so a
near copy of a known cause (or of one ranked above it) sinks. The distance is over a small feature vector:
oracle, kind, ops, dtypes, pipeline (1 - Jaccard of each, averaged; ``features``, shared with the experiments'
nearest known cause, ``filing.experiments``). Known: the baseline's causes (with those a bundle's experiments
judged a duplicate), and the run's causes that are not new.
"""

from __future__ import annotations

import dataclasses
import json
import math
from collections.abc import Mapping, Sequence
from typing import Any

from ireefuzz.base import durable as _io
from ireefuzz.oracles.finding import Signature
from ireefuzz.oracles.registry import SPECS
from ireefuzz.tools.filing.experiments import FEATURES, distance, features  # noqa: F401  (FEATURES re-exported)

from .causes import CauseStats
from .record import Record


def oracle_weight(oracle: str) -> float:
    """How likely a finding of ``oracle`` is a real bug by itself (its ``OracleSpec.weight``; 0.5 for a record of
    an oracle no judge registers any more)."""
    spec = SPECS.get(oracle)
    return spec.weight if spec is not None else 0.5


REPRODUCED = {"confirmed": 1.0, "unknown": 0.8, "flaky": 0.5, "lost": 0.2}
BEYOND_FRONTENDS = 0.5
FLOOR = 0.25  # the share of the prior a cause keeps at distance 0 (it is still listed, last)


@dataclasses.dataclass(frozen=True)
class Ranked:
    id: str
    score: float
    prior: float
    oracle_weight: float
    reproduced: str  # "3/3", or "?" when not yet known
    smallest: tuple[int, int] | None  # (elements, ops) of the smallest member
    beyond_frontends: bool
    nearest: str  # the nearest known (or higher-ranked) cause, "" if none
    distance: float
    regressed: str = ""  # judged a harness error fixed in an ireefuzz at or before this run's: what it was

    def to_json(self) -> dict[str, Any]:
        return dataclasses.asdict(self) | {"smallest": list(self.smallest) if self.smallest else None}


def size_weight(smallest: tuple[int, int] | None) -> float:
    """1 for a one-op program of a few elements, less for larger ones (a gentle slope: size is a weak signal)."""
    if smallest is None:
        return 1.0
    elements, nodes = smallest
    return 1.0 / (1.0 + 0.1 * max(0, nodes - 1) + 0.02 * math.log2(1 + max(0, elements)))


def rank(record: Record) -> list[Ranked]:
    """The run's new causes, best first (see the module doc)."""
    rows = _io.read_jsonl(record.out / "findings.jsonl") if (record.out / "findings.jsonl").exists() else []
    members: dict[str, list[Mapping[str, Any]]] = {}
    for row in rows:
        members.setdefault(
            record.row_cause.get((row["signature"], row["case_index"]), row.get("cause", "")), []
        ).append(row)
    new = record.new_causes()
    known = {k.cause: features(k.cause, k.signatures) for k in record.baseline.causes.values()}
    for sig, k in record.baseline.signatures.items():  # an old baseline's signature without a cause
        if not k.cause and sig.count("/") == 4:
            known[sig] = features("/".join(sig.split("/")[:2]) + "/", [sig])
    for c in record.present_causes():
        if c.id not in new:
            known[c.id] = _features_of(c, members.get(c.id, ()))
    candidates = {}
    for cid in new:
        c = record.causes[cid]
        rows_of = members.get(cid, ())
        weight = max((oracle_weight(_oracle(s)) for s in c.signatures), default=oracle_weight(c.oracle))
        confirm, status = _reproduction(record, cid)
        beyond = bool(rows_of) and all(_beyond_frontends(r) for r in rows_of)
        prior = weight * REPRODUCED[status] * size_weight(c.smallest) * (BEYOND_FRONTENDS if beyond else 1.0)
        candidates[cid] = (prior, weight, confirm, beyond, c.smallest, _features_of(c, rows_of))
    ranked = furthest_first(candidates, known)
    return [
        dataclasses.replace(
            r, regressed=f"harness error fixed in ireefuzz {fix.fixed_in}, seen again in {record.baseline.run_version}"
        )
        if (fix := record.baseline.regressed(r.id))
        else r
        for r in ranked
    ]


def furthest_first(candidates: Mapping[str, tuple], known: Mapping[str, Mapping[str, frozenset[str]]]) -> list[Ranked]:
    """Take, each time, the candidate with the largest prior x (FLOOR + (1 - FLOOR) x distance to the nearest
    point taken or known); ties by id. ``candidates``: id -> (prior, oracle weight, confirm, beyond, smallest,
    features)."""
    points = dict(known)
    left, out = dict(candidates), []
    while left:
        best = None
        for cid in sorted(left):
            prior, *_, feats = left[cid]
            near, d = min(
                ((p, distance(feats, f)) for p, f in points.items()), key=lambda x: (x[1], x[0]), default=("", 1.0)
            )
            score = prior * (FLOOR + (1 - FLOOR) * d)
            if best is None or score > best[0] + 1e-12:
                best = (score, cid, near, d)
        assert best is not None  # (left is not empty)
        score, cid, near, d = best
        prior, weight, confirm, beyond, smallest, feats = left.pop(cid)
        out.append(Ranked(cid, round(score, 4), round(prior, 4), weight, confirm, smallest, beyond, near, round(d, 3)))
        points[cid] = feats
    return out


def _features_of(c: CauseStats, rows: Sequence[Mapping[str, Any]]) -> dict[str, frozenset[str]]:
    pipeline = next(
        (
            str((r.get("evidence") or {}).get("pipeline") or "")
            for r in rows
            if (r.get("evidence") or {}).get("pipeline")
        ),
        "",
    )
    return features(c.id, c.signatures, pipeline.removeprefix("CPU"))


def _oracle(signature: str) -> str:
    try:
        return Signature.parse(signature).oracle
    except ValueError:
        return signature.split("/", 1)[0]


def _reproduction(record: Record, cause: str) -> tuple[str, str]:
    """(``confirm`` as the bundle says it, e.g. "3/3", and its class in REPRODUCED); ("?", "unknown") without one."""
    try:
        found = json.loads((record.bundle_dir(cause) / "finding.json").read_text())
    except (OSError, ValueError):
        return "?", "unknown"
    confirm = str(found.get("confirm") or "?")
    hits, _, runs = confirm.partition("/")
    if not (hits.isdigit() and runs.isdigit() and int(runs) > 0):
        return "?", "unknown"
    return confirm, "confirmed" if hits == runs else "lost" if hits == "0" else "flaky"


def _beyond_frontends(row: Mapping[str, Any]) -> bool:
    """The member's program form is one no IREE frontend produces (flagged by the generators; read defensively)."""
    case: Mapping[str, Any] = row["case"] if isinstance(row.get("case"), Mapping) else {}
    evidence: Mapping[str, Any] = row["evidence"] if isinstance(row.get("evidence"), Mapping) else {}
    return bool(row.get("beyond_frontends") or case.get("beyond_frontends") or evidence.get("beyond_frontends"))
