"""The durable record of a campaign: progress.jsonl + findings.jsonl, and every count recomputed from them.

- ``progress.jsonl`` one line per completed batch (and its front-end): the case indices with their
  signatures, their causes (in the same order), pipelines and ops; a batch is counted once however
  often it ran;
- ``findings.jsonl`` one Finding per line, with its ``cause`` and ``cause_title`` (plus ``case_index``,
  ``status`` new|known, ``example`` first|smaller): the first example of each signature and every
  later one that is smaller (``Case.elements``, then nodes).

- ``harness_errors.jsonl`` one line per case that made a worker raise (ireefuzz's own bug, never a
  finding): ``t``, ``case_index``, ``case_hash``, ``release``, ``compiler``, ``configuration``
  (``config_space.labels``), ``frontend``, ``ops``, the ``traceback`` and the ``case`` (its JSON: a repro); its
  progress entry has ``harness_error: 1`` and ``not_judged: ["harness error"]`` (counted, not judged).

Findings are written before the progress line: a kill in between redoes the batch, and the
(signature, index) check keeps its findings from being written twice.

Older runs have no causes recorded: a findings row without ``cause`` gets one from
``oracles.cause`` (per case, from the rows recorded for it), and a progress entry without
``causes`` takes, for each signature, the cause of its row for that case if one was recorded, else
that of the signature's first recorded row.
``rederive=True`` (``ireefuzz triage``) derives every row's cause afresh that way.
"""

from __future__ import annotations

import collections
import dataclasses
import json
import re
from pathlib import Path
from typing import TYPE_CHECKING, Any, Mapping, Sequence

from ireefuzz.base import durable as _io
from ireefuzz.errors import UsageError
from ireefuzz.oracles.cause import assign_causes, cause_of
from ireefuzz.oracles.finding import ORACLE_NAMES, Finding, Signature
from ireefuzz.sut.config_space import ConfigurationCoverage, labels
from ireefuzz.tools.baseline import Baseline
from ireefuzz.tools.filing import experiments as experimenting

from .causes import CauseStats, Previous, companions, diff_causes
from .guidance import Coverage, Stream, case_hash, unused_arguments
from .options import Options
from .pool import DEATH_KINDS, Task

if TYPE_CHECKING:
    from ireefuzz.core.evaluate import CaseResult
    from ireefuzz.sut import CompilerConfig, Setup


@dataclasses.dataclass
class SignatureStats:
    count: int = 0
    first_case_index: int | None = None
    smallest_case_index: int | None = None
    smallest: tuple[int, int] | None = None  # size of the smallest recorded example


def row_causes(rows: Sequence[Mapping[str, Any]], rederive: bool = False) -> list[tuple[str, str]]:
    """(cause id, title) of each findings.jsonl row: as recorded, else (or with ``rederive`` always)
    assigned by ``oracles.cause`` over the rows of the same case; a row recorded as the consequence of
    another signature (``evidence.consequence_of``) keeps that signature's cause."""
    out = [(row.get("cause") or "", row.get("cause_title") or "") for row in rows]
    by_case: dict[int, list[int]] = collections.defaultdict(list)
    for n, row in enumerate(rows):
        if rederive or not out[n][0]:
            by_case[row["case_index"]].append(n)
    for lines in by_case.values():
        for n, f in zip(lines, assign_causes([Finding.from_json(rows[n]) for n in lines])):
            out[n] = (f.cause, f.cause_title)
    first_row: dict[str, int] = {}
    for n, row in enumerate(rows):
        first_row.setdefault(row["signature"], n)
    for lines in by_case.values():  # a consequence whose source's row was not recorded in its case keeps its link
        for n in lines:
            source = (rows[n].get("evidence") or {}).get("consequence_of")
            if source in first_row and source != rows[n]["signature"]:
                out[n] = out[first_row[source]]
    return out


# Where a campaign's seconds go (``Record.time_accounting``), in the order reports show them. Workers:
# what ``evaluate.CLOCK`` counts; the coordinator: drawing, its own work (recording, reports) and waiting
# for a batch to end; ``idle``: worker seconds on no batch; shrinking and bundling after the campaign.
ACTIVITIES = {
    "compile": "compiling (iree-compile)",
    "compile_io": "compile set-up, dump reading and module loading",
    "emit": "emitting",
    "ir": "reading the IR (memory and fusion oracles)",
    "run": "running the modules",
    "float64": "float64 reference",
    "jax": "JAX",
    "relations": "metamorphic relations",
    "other": "other worker work (inputs, oracle bookkeeping, transfer)",
    "draw": "drawing (Hypothesis)",
    "coordinator": "coordinator (recording, reports)",
    "waiting": "coordinator waiting",
    "bundling": "shrinking and bundling",
    "stuck": "stuck or timed-out workers (killed, their batch retried)",
    "idle": "idle workers",
}
COORDINATOR_ACTIVITIES = ("draw", "coordinator", "waiting", "bundling")


def batch_timings(results: Sequence["CaseResult"], coordinator: Mapping[str, float]) -> dict[str, float]:
    """The progress line's ``timings``: the results' seconds per activity, summed, plus ``coordinator``'s."""
    total: collections.Counter[str] = collections.Counter(coordinator)
    for r in results:
        total.update(r.timings)
    return {a: round(v, 4) for a, v in sorted(total.items()) if v > 0}


def with_causes(findings: Sequence[Finding]) -> Sequence[Finding]:
    """``findings`` of one case, each with its cause (the coordinator's own crash findings have none yet)."""
    return findings if all(f.cause for f in findings) else assign_causes(findings)


HARNESS_ERROR = "harness error"  # the not-judged reason of a case whose evaluation raised (ireefuzz's bug)


def oracles_not_judged(reasons: Sequence[str]) -> set[str]:
    """The oracles that did not judge a case, from its not-judged reasons: every oracle for a harness error or a
    case not compiled (``every oracle: ...``); the one a reason names (``memory: ...``, ``fusion: ...``);
    numbers and immutability on a compile-only target (nothing runs); else the numbers (an op the reference
    cannot interpret)."""
    out: set[str] = set()
    for reason in reasons:
        head = reason.split(":", 1)[0]
        if reason == HARNESS_ERROR or head == "every oracle":
            out.update(ORACLE_NAMES)
        elif head in ORACLE_NAMES:
            out.add(head)
        elif reason.startswith("compile-only target"):
            out.update(("numeric", "immutability"))
        else:
            out.add("numeric")
    return out


# What every recorded row has (a row without them is a damaged record, not a crash of the tools reading it).
FINDING_KEYS = {"signature": str, "case_index": int, "size": list}
PROGRESS_KEYS = {"t": (int, float), "cases": list}
ENTRY_KEYS = {
    "i": int,
    "sigs": list,
    "pipelines": list,
    "ops": str,
    "dtype": str,
    "dims": str,
    "instances": int,
    "discarded": int,
}


def read_record(file: Path, keys: Mapping[str, Any], entry_keys: Mapping[str, Any] | None = None) -> list[dict]:
    """The rows of a record file (a torn last line is skipped: a kill mid-write); a corrupt line before it, or a
    row without the ``keys`` (its ``cases`` without the ``entry_keys``), is a UsageError naming the file."""
    try:
        rows = _io.read_jsonl(file)
    except (OSError, ValueError) as e:  # (read_jsonl's own ValueError names the file and the line)
        where = "" if str(file) in str(e) else f"{file}: "
        raise UsageError(f"{where}{e}; restore it, or start a new campaign with another --out") from None
    for n, row in enumerate(rows, 1):
        entries = row.get("cases") if entry_keys and isinstance(row, dict) else []
        missing = _missing(row, keys) or next((m for e in entries or () if (m := _missing(e, entry_keys or {}))), "")
        if missing:
            raise UsageError(f"{file} row {n}: {missing}; restore the file, or start a new campaign with another --out")
    return rows


def _missing(row: Any, keys: Mapping[str, Any]) -> str:
    """What ``row`` lacks of ``keys`` (name -> type), or ''."""
    if not isinstance(row, dict):
        return "not a JSON object"
    wrong = [k for k, kind in keys.items() if not isinstance(row.get(k), kind) or isinstance(row.get(k), bool)]
    return f"no valid {', '.join(wrong)}" if wrong else ""


FIRST_JUDGEMENTS_FOLDER = "first-judgements"  # under bundles/: the new causes past the slots, judged unshrunk


class Record:
    """progress.jsonl + findings.jsonl, and the counts recomputed from them (the coordinator's only state)."""

    TIMELINE_POINTS = 400

    def __init__(
        self,
        out: Path,
        options: Options,
        baseline: Baseline,
        previous: Previous | None = None,
        *,
        rederive: bool = False,
    ) -> None:
        self.out, self.options, self.baseline, self.previous = out, options, baseline, previous
        self.stream = Stream(options)
        self.sigs: dict[str, SignatureStats] = {}
        self.causes: dict[str, CauseStats] = {}
        self.sig_cause: dict[str, str] = {}  # the cause of each signature's first recorded row
        self.row_cause: dict[tuple[str, int], str] = {}  # (signature, case index) of a recorded row -> its cause
        self.rows = 0  # lines in findings.jsonl
        self.recorded: set[tuple[str, int]] = set()
        self.done: dict[int, set[int]] = collections.defaultdict(set)  # local block -> done indices (incomplete blocks)
        self.complete: set[int] = set()
        self.block_coverage: dict[int, Coverage] = collections.defaultdict(Coverage)  # complete, not yet folded
        self.totals: collections.Counter[str] = collections.Counter()
        self.pipelines: collections.Counter[str] = collections.Counter()
        self.lowerings: collections.Counter[str] = collections.Counter()  # pipeline + tile sizes, per dispatch
        self.ops: collections.Counter[str] = collections.Counter()
        self.pairs: collections.Counter[str] = collections.Counter()
        self.frontends: collections.Counter[str] = collections.Counter()  # cases per front-end
        self.configurations = ConfigurationCoverage()  # cases and causes per flag value (``config_space.labels``)
        self.not_judged: collections.Counter[str] = collections.Counter()  # cases per reason numbers were not judged
        self.not_judged_oracles: collections.Counter[str] = collections.Counter()  # cases per oracle not judging them
        self.timeline: list[tuple[float, int]] = []
        self.timings: collections.Counter[str] = collections.Counter()  # seconds per activity, summed over processes
        self.worker_seconds = 0.0  # workers x wall seconds, summed over the recorded stretches
        self.cpu = self.compiler_version = ""
        self.seconds = 0.0
        rows = read_record(out / "findings.jsonl", FINDING_KEYS)
        for row, (cause, title) in zip(rows, row_causes(rows, rederive)):
            self._note_finding(row["signature"], cause, title, row["case_index"], tuple(row["size"]))
        for row in read_record(out / "progress.jsonl", PROGRESS_KEYS, ENTRY_KEYS):
            self._apply(row, rederive)
        # a cause whose bundle's experiments found it a known cause's duplicate is known (``filing.experiments``)
        found = experimenting.duplicates({c: self.judged_dir(c) for c in self.causes if c not in baseline.causes})
        self.by_experiment = set(found)
        # a cause whose bundle lost it (its smallest case compiled alone shows it 0 times in N) is not confirmed:
        # listed, never red (a batched module's artefact or a flaky one, nothing an engineer can file as is); so is one
        # whose first judgement, its case as found, did not show it (stop 46: a metamorphic mismatch listed new)
        self.unreproduced = sorted(
            c for c in self.causes if c not in baseline.causes and experimenting.lost_alone(self.judged_dir(c))
        )
        self.baseline = dataclasses.replace(baseline, causes={**baseline.causes, **found}) if found else baseline

    # -- state ---------------------------------------------------------------------------
    def is_done(self, index: int) -> bool:
        k = self.stream.local_block(index)
        return k in self.complete or index in self.done.get(k, ())

    def _note_finding(self, sig: str, cause: str, title: str, index: int, size: tuple[int, int]) -> None:
        s = self.sigs.setdefault(sig, SignatureStats())
        self.recorded.add((sig, index))
        if s.smallest is None or size < s.smallest:
            s.smallest, s.smallest_case_index = size, index
        self.sig_cause.setdefault(sig, cause)
        self.row_cause[sig, index] = cause
        c = self.causes.setdefault(cause, CauseStats(cause, title))
        c.signatures.add(sig)
        if c.smallest is None or size < c.smallest:
            c.smallest, c.smallest_case, c.smallest_row = size, index, self.rows
        self.rows += 1

    def _apply(self, row: Mapping[str, Any], rederive: bool = False) -> None:
        self.worker_seconds += max(0.0, row["t"] - self.seconds) * row.get("workers", 0)
        self.timings.update(row.get("timings", {}))
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
            self.totals["worker_deaths"] += (
                e["died"]
                if "died" in e
                else any(  # (older runs: by signature)
                    s.startswith("crash/") and Signature.parse(s).kind in DEATH_KINDS for s in e["sigs"]
                )
            )
            self.totals["harness_errors"] += e.get("harness_error", 0)
            self.pipelines.update(e["pipelines"])
            self.lowerings.update(e.get("configurations", ()))
            names = e["ops"].split(">")
            self.ops.update(names)
            self.pairs.update(f"{a}>{b}" for a, b in zip(names, names[1:]))
            known = [bool(self.baseline.finding_known(s, c)) for s, c in zip(e["sigs"], e.get("causes") or ())]
            self.block_coverage[k].add(e, reached_known=any(known))
            # the batch's compile seconds, shared evenly by its cases: the part spent on cases that found only
            # causes the baseline judges
            self.totals["known_compile_s"] += (
                row.get("compile_s", 0.0) / len(row["cases"]) * (bool(known) and all(known))
            )
            for sig in e["sigs"]:
                s = self.sigs.setdefault(sig, SignatureStats())
                s.count += 1
                s.first_case_index = i if s.first_case_index is None else min(s.first_case_index, i)
            causes = self._count_causes(i, e, rederive)
            self.configurations.add(e.get("config", ()), causes)
            self.not_judged.update(e.get("not_judged", ()))
            self.not_judged_oracles.update(oracles_not_judged(e.get("not_judged", ())))
            self.done[k].add(i)
            if len(self.done[k]) == len(self.stream.indices(k)):
                self.complete.add(k)
                del self.done[k]
        self.timeline.append((row["t"], self.totals["cases"]))
        if len(self.timeline) > self.TIMELINE_POINTS:
            self.timeline = self.timeline[::2]

    def _count_causes(self, index: int, entry: Mapping[str, Any], rederive: bool) -> list[str]:
        causes = (None if rederive else entry.get("causes")) or self.causes_of(index, entry["sigs"])
        for sig, cause in zip(entry["sigs"], causes):
            self.causes.setdefault(cause, CauseStats(cause)).signatures.add(sig)
        for cause in set(causes):
            c = self.causes[cause]
            c.cases += 1
            c.case_indices.add(index)
            c.first_case = index if c.first_case is None else min(c.first_case, index)
        return causes

    def causes_of(self, index: int, sigs: Sequence[str]) -> list[str]:
        """The causes of case ``index``'s signatures, from the recorded rows (see the module doc)."""
        return [self.row_cause.get((s, index)) or self.sig_cause.get(s) or self._cause_of_signature(s) for s in sigs]

    def _cause_of_signature(self, sig: str) -> str:
        """A signature with no recorded row (findings.jsonl cut short by hand): its cause from the signature alone."""
        parts = Signature.parse(sig)
        cause = cause_of(Finding(parts.oracle, parts.kind, sig, ""))
        self.sig_cause[sig] = cause.id
        self.causes.setdefault(cause.id, CauseStats(cause.id, cause.title))
        return cause.id

    # -- recording ------------------------------------------------------------------------
    def record(
        self,
        task: Task,
        results: Sequence["CaseResult"],
        seconds: float,
        *,
        coordinator: Mapping[str, float] | None = None,
        workers: int = 0,
        harness_error: bool = False,
    ) -> None:
        """Findings first, then the progress line (see the module doc). The line's ``timings``: the workers'
        seconds on the batch per activity, plus ``coordinator``'s (its seconds since the line before);
        ``workers``: how many the pool runs at once (for idle time)."""
        entries = []
        for index, r in zip(task.indices, results):
            size = (r.case.elements, len(r.case.graph.nodes))
            findings = with_causes(r.findings)
            for f in findings:
                s = self.sigs.get(f.signature)
                if (f.signature, index) in self.recorded or (
                    s is not None and s.smallest is not None and size >= s.smallest
                ):
                    continue
                example = "first" if s is None or s.smallest is None else "smaller"
                status = "known" if self.baseline.finding_known(f.signature, f.cause) else "new"
                row = f.to_json() | {"case_index": index, "status": status, "example": example, "size": list(size)}
                _io.append_line(self.out / "findings.jsonl", json.dumps(row, sort_keys=True, default=_io.json_default))
                self._note_finding(f.signature, f.cause, f.cause_title, index, size)
            g = r.case.graph
            entries.append(
                {
                    "i": index,
                    "h": case_hash(r.case),
                    "sigs": [f.signature for f in findings],
                    "causes": [f.cause for f in findings],
                    "pipelines": list(r.pipelines),
                    "configurations": list(r.configurations),
                    "ops": g.op_pattern,
                    "edges": list(g.edges),
                    "dtype": g.dtype,
                    "dims": g.dims,
                    "instances": len(r.case.instances),
                    "discarded": r.discarded,
                    "config": labels(r.case.target_cpu, r.case.flags),
                    "not_judged": list(r.not_judged),
                    "died": int(any(f.evidence.get("worker_death") for f in findings)),
                    "unused_args": unused_arguments(g),
                }
                | ({"harness_error": 1} if harness_error else {})
            )
        cpu = next((r.cpu for r in results if r.cpu), "")
        version = next((r.compiler_version for r in results if r.compiler_version), "")
        row = {
            "t": round(seconds, 3),
            "cases": entries,
            "cpu": cpu,
            "version": version,
            "frontend": task.frontend,
            "compile_s": round(sum(r.compile_seconds for r in results), 4),
            "run_s": round(sum(r.run_seconds for r in results), 4),
            "timings": batch_timings(results, coordinator or {}),
            "workers": workers,
        }
        _io.append_line(self.out / "progress.jsonl", json.dumps(row, sort_keys=True))
        self._apply(row)

    def record_harness_error(
        self,
        task: Task,
        traceback: str,
        seconds: float,
        *,
        coordinator: Mapping[str, float] | None = None,
        workers: int = 0,
        setup: Setup | CompilerConfig | None = None,
    ) -> None:
        """A batch (one case, once split) whose evaluation raised: a ``harness_errors.jsonl`` line per case,
        then its progress line (the cases counted, not judged; see the module doc). ``setup``: the campaign's
        (its toolchain names the release), else the options' configuration resolved."""
        from ireefuzz import sut
        from ireefuzz.core.evaluate import CaseResult

        resolved = sut.Setup.of(setup or self.options.compiler_config())
        release = resolved.toolchain.release or resolved.config.iree_compile or "installed"
        for index, case in zip(task.indices, task.cases):
            row = {
                "t": round(seconds, 3),
                "case_index": index,
                "case_hash": case_hash(case),
                "release": release,
                "configuration": labels(case.target_cpu, case.flags),
                "frontend": task.frontend,
                "ops": case.graph.op_pattern,
                "traceback": traceback[-6000:],
                "case": case.to_json(),  # the repro: `ireefuzz check` takes it back (stop 47 had only its hash)
            }
            _io.append_line(self.out / "harness_errors.jsonl", json.dumps(row, sort_keys=True, default=str))
        results = [CaseResult(case, (), not_judged=(HARNESS_ERROR,)) for case in task.cases]
        self.record(task, results, seconds, coordinator=coordinator, workers=workers, harness_error=True)

    def not_judged_share(self) -> dict[str, float]:
        """Per oracle the campaign runs, the share of its cases that oracle did not judge: all of them for one left
        out because it cannot judge this compiler (``options.oracles_not_judged``), else the cases whose
        not-judged reasons name it (``oracles_not_judged``)."""
        cases = max(self.totals["cases"], 1)
        left_out = {why.split(":", 1)[0] for why in self.options.oracles_not_judged}
        return {
            o: 1.0 if o in left_out else round(self.not_judged_oracles[o] / cases, 4)
            for o in ORACLE_NAMES
            if o in self.options.oracles or o in left_out
        }

    def harness_errors(self, limit: int = 20) -> list[dict[str, Any]]:
        """The recorded harness errors (the first ``limit``), each with its exception's last line."""
        file = self.out / "harness_errors.jsonl"
        rows = _io.read_jsonl(file)[:limit] if file.exists() else []
        return [
            {k: v for k, v in r.items() if k != "traceback"} | {"error": _last_line(r.get("traceback", ""))}
            for r in rows
        ]

    # -- verdicts -------------------------------------------------------------------------
    def status(self, sig: str) -> str:
        return "known" if self.baseline.finding_known(sig, self.sig_cause.get(sig, "")) else "new"

    def new_signatures(self) -> list[str]:
        return sorted(s for s, st in self.sigs.items() if st.count and self.status(s) == "new")

    def known_signatures(self) -> list[str]:
        return sorted(s for s, st in self.sigs.items() if st.count and self.status(s) == "known")

    def present_causes(self) -> list[CauseStats]:
        return [c for _, c in sorted(self.causes.items()) if c.cases]

    def cause_status(self, cause: CauseStats) -> str:
        return "known" if self.baseline.cause_known(cause.id, cause.signatures) else "new"

    def diff(self) -> dict[str, list[str]]:
        present, companion = self.present_causes(), self.companions()
        settled = {
            c.id for c in present if self.cause_status(c) == "known" or c.id in self.unreproduced or c.id in companion
        }
        return diff_causes([c.id for c in present], settled, self.previous)

    def companions(self) -> dict[str, str]:
        """A wrong value seen only in another's cases, its cone holding that one's ops -> that one: its
        consequence, listed with it, never red, not bundled on its own (``causes.companions``)."""
        present = [c for c in self.present_causes() if c.id not in self.baseline.causes]
        return companions(present)

    def new_causes(self) -> list[str]:
        """The causes that make the campaign exit 1: not in the baseline, nor in the run compared with."""
        return self.diff()["new"]

    def history(self) -> list[str]:
        return sorted({c.id for c in self.present_causes()} | (self.previous.history if self.previous else set()))

    def bundle_dir(self, cause: str) -> Path:
        return self.out / "bundles" / _io.slug(cause)

    def first_judgement_dir(self, cause: str) -> Path:
        """Where a new cause past the bundle slots is judged first (``bundling.judge_first``): its case as found,
        confirmed once and run through the experiments, not shrunk: no bundle to file."""
        return self.out / "bundles" / FIRST_JUDGEMENTS_FOLDER / _io.slug(cause)

    def judged_dir(self, cause: str) -> Path:
        """The folder whose experiments judge ``cause``: its bundle, else its first judgement."""
        bundle = self.bundle_dir(cause)
        return bundle if (bundle / "finding.json").exists() else self.first_judgement_dir(cause)

    # -- summary --------------------------------------------------------------------------
    def summary(self) -> dict[str, Any]:
        t = self.totals
        seconds = max(self.seconds, 1e-9)
        signatures = {}
        for sig, s in sorted(self.sigs.items()):
            if not s.count:
                continue
            known = self.baseline.finding_known(sig, self.sig_cause.get(sig, ""))
            signatures[sig] = {
                "count": s.count,
                "status": self.status(sig),
                "first_case_index": s.first_case_index,
                "smallest_case_index": s.smallest_case_index,
            } | (
                {"upstream": known.upstream, "note": known.note, "verdict": known.verdict or "listed"} if known else {}
            )
        summary = {
            "cases": t["cases"],
            "graphs": t["cases"],
            "shape_runs": t["shape_runs"],
            "seconds": round(self.seconds, 2),
            "graphs_per_s": round(t["cases"] / seconds, 3),
            "shape_runs_per_s": round(t["shape_runs"] / seconds, 3),
            "compile_seconds": round(t["compile_s"], 2),
            "run_seconds": round(t["run_s"], 2),
            "discarded": t["discarded"],
            "worker_deaths": t["worker_deaths"],
            "harness_errors": t["harness_errors"],
            "harness_error_list": self.harness_errors(),
            "not_judged_share": self.not_judged_share(),
            "signatures": signatures,
            "new": self.new_signatures(),
            "known": self.known_signatures(),
            "causes": self.cause_table(),
            "new_causes": self.new_causes(),
            "unreproduced": sorted(set(self.unreproduced) & {c.id for c in self.present_causes()}),
            "companions": self.companions(),
            "history": self.history(),
            "pipelines": dict(self.pipelines.most_common()),
            "ops": dict(self.ops.most_common()),
            "lowerings": self.lowering_table(),
            "op_pairs": dict(self.pairs.most_common(40)),
            "frontends": dict(self.frontends),
            "timeline": [list(p) for p in self.timeline],
            "time_accounting": self.time_accounting(),
            "cpu": self.cpu,
            "compiler_version": self.compiler_version,
            "options": self.options.to_json(),
            "configurations": self.configurations.to_json(),
            "not_judged": dict(self.not_judged.most_common()),
        }
        if self.previous is not None:
            summary["diff"] = {"compared_with": self.previous.run} | self.diff()
        return summary

    def lowering_table(self) -> dict[str, Any]:
        """``summary.json``'s ``lowerings``: how many distinct lowering configurations (pipeline + tile
        sizes) the dispatches reached, in all and per pipeline, and the dispatches of each."""
        per_pipeline = collections.Counter(_pipeline_name(c.partition("[")[0]) for c in self.lowerings)
        return {
            "distinct": len(self.lowerings),
            "per_pipeline": dict(per_pipeline.most_common()),
            "dispatches": dict(self.lowerings.most_common()),
        }

    def time_accounting(self) -> dict[str, Any]:
        """``summary.json``'s ``time_accounting``: seconds per activity summed over processes (``ACTIVITIES``),
        idle worker seconds (workers x wall not spent on a batch), shares of the total, and the compile share
        (seconds in iree-compile / worker seconds)."""
        seconds: dict[str, float] = {a: self.timings[a] for a in ACTIVITIES if self.timings[a] > 0}
        busy = sum(v for a, v in self.timings.items() if a not in COORDINATOR_ACTIVITIES)
        seconds["idle"] = max(0.0, self.worker_seconds - busy)
        total = sum(seconds.values()) or 1e-9
        return {
            "seconds": {a: round(v, 2) for a, v in seconds.items()},
            "shares": {a: round(v / total, 4) for a, v in seconds.items()},
            "total_seconds": round(total, 2),
            "worker_seconds": round(self.worker_seconds, 2),
            "compile_share": round(self.timings["compile"] / max(self.worker_seconds, 1e-9), 4),
            "known_cause_compile_share": round(self.totals["known_compile_s"] / max(self.totals["compile_s"], 1e-9), 4),
        }

    def cause_table(self) -> list[dict[str, Any]]:
        """``summary.json``'s ``causes``: new ones first, then by how many cases show them."""
        rows = []
        for c in self.present_causes():
            known = self.baseline.cause_known(c.id, c.signatures)
            bundle = self.bundle_dir(c.id)
            tried = experimenting.read(self.judged_dir(c.id))  # its experiments' table and verdict, if it has them
            rows.append(
                {
                    "id": c.id,
                    "title": c.title,
                    "oracle": c.oracle,
                    "signatures": sorted(c.signatures),
                    "cases": c.cases,
                    "first_case": c.first_case,
                    "smallest_case": c.smallest_case,
                    "bundle": str(bundle.relative_to(self.out)) if (bundle / "finding.json").exists() else "",
                    "status": self.cause_status(c),
                    "verdict": (known.verdict or "listed") if known else "",
                    "verdict_detail": (f"{known.detail} ({known.note})" if c.id in self.by_experiment else known.detail)
                    if known
                    else "",
                    "upstream": (known.upstream or self.baseline.upstream_of(c.id)) if known else "",
                }
                | ({"experiments": tried} if tried else {})
            )
        return sorted(rows, key=lambda r: (r["status"] != "new", -r["cases"], r["id"]))


def _last_line(text: str) -> str:
    lines = [line for line in text.strip().splitlines() if line.strip()]
    return lines[-1].strip() if lines else ""


def _pipeline_name(head: str) -> str:
    """``DoubleTilingExpert`` of a configuration's head, also when it carries options
    (``#iree_cpu.pipeline<DoubleTilingExpert>, {enable_loop_peeling}``)."""
    found = re.search(r"pipeline<(\w+)>", head)
    return found.group(1) if found else head
