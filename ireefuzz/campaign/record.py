"""The durable record of a campaign: progress.jsonl + findings.jsonl, and every count recomputed from them.

- ``progress.jsonl`` one line per completed batch (and its front-end): the case indices with their signatures,
  pipelines and ops;
  a batch is counted once however often it ran;
- ``findings.jsonl`` one Finding per line (plus ``case_index``, ``status`` new|known, ``example`` first|smaller):
  the first example of each signature and every later one that is smaller (``Case.elements``, then nodes).

Findings are written before the progress line: a kill in between redoes the batch, and the
(signature, index) check keeps its findings from being written twice.
"""
from __future__ import annotations

import collections
import dataclasses
import json
from pathlib import Path
from typing import TYPE_CHECKING, Any, Mapping, Sequence

from ireefuzz import _io
from ireefuzz.generators.case import Case

from .baseline import Known
from .guidance import Coverage, Stream, case_hash
from .options import Options
from .pool import DEATH_KINDS, Task

if TYPE_CHECKING:
    from ireefuzz.evaluate import CaseResult


def size_of(case: Mapping[str, Any] | None) -> tuple[int, int]:
    if not case:
        return (2 ** 62, 2 ** 62)
    c = Case.from_json(case)
    return c.elements, len(c.graph.nodes)


@dataclasses.dataclass
class SignatureStats:
    count: int = 0
    first_case_index: int | None = None
    smallest_case_index: int | None = None
    smallest: tuple[int, int] | None = None  # size of the smallest recorded example


class Record:
    """progress.jsonl + findings.jsonl, and the counts recomputed from them (the coordinator's only state)."""

    TIMELINE_POINTS = 400

    def __init__(self, out: Path, options: Options, baseline: Mapping[str, Known]) -> None:
        self.out, self.options, self.baseline = out, options, baseline
        self.stream = Stream(options)
        self.sigs: dict[str, SignatureStats] = {}
        self.recorded: set[tuple[str, int]] = set()
        self.done: dict[int, set[int]] = collections.defaultdict(set)  # local block -> done indices (incomplete blocks)
        self.complete: set[int] = set()
        self.block_coverage: dict[int, Coverage] = collections.defaultdict(Coverage)  # complete, not yet folded
        self.totals: collections.Counter[str] = collections.Counter()
        self.pipelines: collections.Counter[str] = collections.Counter()
        self.ops: collections.Counter[str] = collections.Counter()
        self.pairs: collections.Counter[str] = collections.Counter()
        self.frontends: collections.Counter[str] = collections.Counter()  # cases per front-end
        self.timeline: list[tuple[float, int]] = []
        self.cpu = self.compiler_version = ""
        self.seconds = 0.0
        for row in _io.read_jsonl(out / "findings.jsonl"):
            self._note_finding(row["signature"], row["case_index"], tuple(row["size"]))
        for row in _io.read_jsonl(out / "progress.jsonl"):
            self._apply(row)

    # -- state ---------------------------------------------------------------------------
    def is_done(self, index: int) -> bool:
        k = self.stream.local_block(index)
        return k in self.complete or index in self.done.get(k, ())

    def _note_finding(self, sig: str, index: int, size: tuple[int, int]) -> None:
        s = self.sigs.setdefault(sig, SignatureStats())
        self.recorded.add((sig, index))
        if s.smallest is None or size < s.smallest:
            s.smallest, s.smallest_case_index = size, index

    def _apply(self, row: Mapping[str, Any]) -> None:
        self.seconds = max(self.seconds, row["t"])
        for key in ("compile_s", "run_s"):
            self.totals[key] += row.get(key, 0.0)
        self.cpu = row.get("cpu") or self.cpu
        self.compiler_version = row.get("version") or self.compiler_version
        self.frontends[row.get("frontend", "linalg")] += len(row["cases"])
        for e in row["cases"]:
            i = e["i"]
            k = self.stream.local_block(i)
            self.totals["cases"] += 1
            self.totals["shape_runs"] += e["instances"]
            self.totals["discarded"] += e["discarded"]
            self.totals["worker_deaths"] += any(s.startswith("crash/") and s.split("/")[1] in DEATH_KINDS for s in e["sigs"])
            self.pipelines.update(e["pipelines"])
            names = e["ops"].split(">")
            self.ops.update(names)
            self.pairs.update(f"{a}>{b}" for a, b in zip(names, names[1:]))
            self.block_coverage[k].add(e)
            for sig in e["sigs"]:
                s = self.sigs.setdefault(sig, SignatureStats())
                s.count += 1
                s.first_case_index = i if s.first_case_index is None else min(s.first_case_index, i)
            self.done[k].add(i)
            if len(self.done[k]) == len(self.stream.indices(k)):
                self.complete.add(k)
                del self.done[k]
        self.timeline.append((row["t"], self.totals["cases"]))
        if len(self.timeline) > self.TIMELINE_POINTS:
            self.timeline = self.timeline[::2]

    # -- recording ------------------------------------------------------------------------
    def record(self, task: Task, results: Sequence["CaseResult"], seconds: float) -> None:
        """Findings first, then the progress line (see the module doc)."""
        entries = []
        for index, r in zip(task.indices, results):
            size = (r.case.elements, len(r.case.graph.nodes))
            for f in r.findings:
                s = self.sigs.get(f.signature)
                if (f.signature, index) in self.recorded or (s is not None and s.smallest is not None and size >= s.smallest):
                    continue
                example = "first" if s is None or s.smallest is None else "smaller"
                row = f.to_json() | {"case_index": index, "status": self.status(f.signature), "example": example, "size": list(size)}
                _io.append_line(self.out / "findings.jsonl", json.dumps(row, sort_keys=True, default=_io.json_default))
                self._note_finding(f.signature, index, size)
            g = r.case.graph
            entries.append({"i": index, "h": case_hash(r.case), "sigs": list(r.signatures), "pipelines": list(r.pipelines),
                            "ops": g.op_pattern, "dtype": g.dtype, "dims": g.dims, "instances": len(r.case.instances),
                            "discarded": r.discarded})
        cpu = next((r.cpu for r in results if r.cpu), "")
        version = next((r.compiler_version for r in results if r.compiler_version), "")
        row = {"t": round(seconds, 3), "cases": entries, "cpu": cpu, "version": version, "frontend": task.frontend,
               "compile_s": round(sum(r.compile_seconds for r in results), 4), "run_s": round(sum(r.run_seconds for r in results), 4)}
        _io.append_line(self.out / "progress.jsonl", json.dumps(row, sort_keys=True))
        self._apply(row)

    def status(self, sig: str) -> str:
        return "known" if sig in self.baseline else "new"

    def new_signatures(self) -> list[str]:
        return sorted(s for s, st in self.sigs.items() if st.count and self.status(s) == "new")

    def known_signatures(self) -> list[str]:
        return sorted(s for s, st in self.sigs.items() if st.count and self.status(s) == "known")

    def summary(self) -> dict[str, Any]:
        t = self.totals
        seconds = max(self.seconds, 1e-9)
        signatures = {}
        for sig, s in sorted(self.sigs.items()):
            if not s.count:
                continue
            known = self.baseline.get(sig)
            signatures[sig] = {"count": s.count, "status": self.status(sig), "first_case_index": s.first_case_index,
                               "smallest_case_index": s.smallest_case_index} | (
                {"upstream": known.upstream, "note": known.note, "triage": known.status} if known else {})
        return {
            "cases": t["cases"], "graphs": t["cases"], "shape_runs": t["shape_runs"], "seconds": round(self.seconds, 2),
            "graphs_per_s": round(t["cases"] / seconds, 3), "shape_runs_per_s": round(t["shape_runs"] / seconds, 3),
            "compile_seconds": round(t["compile_s"], 2), "run_seconds": round(t["run_s"], 2),
            "discarded": t["discarded"], "worker_deaths": t["worker_deaths"], "signatures": signatures,
            "new": self.new_signatures(), "known": self.known_signatures(),
            "pipelines": dict(self.pipelines.most_common()), "ops": dict(self.ops.most_common()),
            "op_pairs": dict(self.pairs.most_common(40)), "frontends": dict(self.frontends), "timeline": [list(p) for p in self.timeline],
            "cpu": self.cpu, "compiler_version": self.compiler_version, "options": self.options.to_json(),
        }
