"""After the campaign: a new cause's compile timeouts confirmed as hangs (``confirm_hangs``), then one repro bundle
per new cause, from its smallest recorded member, in ``out/bundles``."""

from __future__ import annotations

import dataclasses
import json
import subprocess
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal, Mapping, Sequence

from ireefuzz.base import durable as _io
from ireefuzz.oracles.finding import Finding, Signature
from ireefuzz.tools.filing import experiments as experimenting

from .ranking import rank
from .record import Record

if TYPE_CHECKING:
    from ireefuzz.sut import CompilerConfig


def compiler_arguments(options: Any) -> list[str]:
    """The campaign's compiler options as ``ireefuzz repro`` takes them."""
    given = (
        ("--iree-compile", options.iree_compile),
        ("--release", options.release),
        ("--iree-runtime", options.iree_runtime),
    )
    return [part for flag, value in given if value for part in (flag, value)]


def bundle_new_causes(record: Record, limit: int | None, timeout: float) -> list[str]:
    """Shrink the smallest member of each new cause (the top ``limit`` of ``ranking.rank``; None = all) and write
    its bundle to ``out/bundles/<cause>`` (a collision-free name from the cause id); the causes re-judged or bundled.

    Each runs as its own ``ireefuzz repro`` process (a finding may crash whoever runs it); a bundle
    already written (``finding.json`` present) is kept, so ``--resume`` and ``triage`` do not redo it. First the
    compile timeouts of the new causes are confirmed (``confirm_hangs``); the causes it re-judged come first in
    the list returned (the record changed: its outputs are to be written again, also when nothing is bundled).
    """
    rejudged = confirm_hangs(record)
    if rejudged:
        record = Record(record.out, record.options, record.baseline, record.previous)
    rows = _io.read_jsonl(record.out / "findings.jsonl")
    todo = [record.causes[r.id] for r in rank(record)]  # most likely a real, distinct bug first (``ranking``)
    todo = [c for c in todo if c.smallest_row is not None and rows[c.smallest_row].get("case")]
    done: list[str] = []
    tried: list[str] = []
    bundled: dict[str, Path] = {}  # what ``limit`` counts: the bundled causes still new (``surviving``)
    attempts = None if limit is None else BUNDLE_ATTEMPTS_PER_SLOT * limit
    for cause in todo[:attempts]:
        if limit is not None and len(surviving(bundled)) >= limit:
            break
        tried.append(cause.id)
        bundle = record.bundle_dir(cause.id)
        if not (bundle / "finding.json").exists():
            print(f"ireefuzz: shrinking {cause.id} (case {cause.smallest_case})", file=sys.stderr)
            if not _repro(record, cause, rows, bundle, [], timeout):
                continue
            done.append(cause.id)
        bundled[cause.id] = bundle
    judged = judge_first(record, [c.id for c in todo if c.id not in tried], rows, timeout) if limit else []
    write_index(record, tried)
    return list(dict.fromkeys(rejudged + done + judged))


# The new causes past the bundle slots judged first, in rank order: their cases as found run through the
# experiments (10-20 s each), so a known cause's duplicate is not listed as new. Stop 45: 3 of a run's 7 new causes
# were the fpowi NaN and 1 the strided pooling, none tried (outsiders, two runs); re-triaged with 6 first judgements
# (--bundles 1), every one judged was a duplicate and 5 new causes were left, 3 of them past the 6.
FIRST_JUDGEMENTS = 10


def judge_first(record: Record, causes: list[str], rows: Sequence[Mapping[str, Any]], timeout: float) -> list[str]:
    """The first ``FIRST_JUDGEMENTS`` of ``causes`` (new, past the slots, in rank order) judged by experiment, not
    shrunk (``repro --no-shrink --confirm-runs 1`` into ``Record.first_judgement_dir``); the causes judged. What
    stays new is listed as new, with no bundle until a slot is given to it. ``rows``: the run's findings."""
    judged: list[str] = []
    for cause in causes[:FIRST_JUDGEMENTS]:
        stats, folder = record.causes[cause], record.first_judgement_dir(cause)
        if stats.smallest_row is None or (record.judged_dir(cause) / "finding.json").exists():  # bundled or judged
            continue
        print(f"ireefuzz: judging {cause} first (case {stats.smallest_case}, as found)", file=sys.stderr)
        if _repro(record, stats, rows, folder, ["--no-shrink", "--confirm-runs", "1"], timeout):
            judged.append(cause)
    return judged


def _repro(
    record: Record, cause: Any, rows: Sequence[Mapping[str, Any]], out: Path, options: list[str], timeout: float
) -> bool:
    """Run ``ireefuzz repro`` (its own process: a finding may crash whoever runs it) on ``cause``'s smallest member
    into ``out`` with ``options``; whether it ended within ``timeout``."""
    finding = Finding.from_json(rows[cause.smallest_row])
    staged = out.parent / f".{out.name}.finding.json"
    out.parent.mkdir(parents=True, exist_ok=True)
    _io.atomic_write_text(staged, finding.with_cause(cause).dumps())
    command = [sys.executable, "-m", "ireefuzz.cli", "repro", str(staged), "--out", str(out), *options]
    command += compiler_arguments(record.options)
    try:
        ran = subprocess.run(command, capture_output=True, text=True, timeout=timeout)
        tail = (ran.stdout + ran.stderr).strip().splitlines()[-3:]
        print("  " + "\n  ".join(tail), file=sys.stderr)
        return True
    except subprocess.TimeoutExpired:
        print(
            f"  gave up after {timeout:.0f} s (--bundle-timeout); the finding stays in findings.jsonl", file=sys.stderr
        )
        return False
    finally:
        staged.unlink(missing_ok=True)  # the staged input of repro; the bundle has its own finding.json


# ``--bundles N`` counts the bundles whose cause stays new: one its experiments make a known cause's duplicate, or
# its bundle loses alone, frees its slot for the next cause (round K: six bundles spent on duplicates left three
# new causes unbundled, so the nightly was red for them), up to this many attempts a slot.
BUNDLE_ATTEMPTS_PER_SLOT = 3


def surviving(bundles: Mapping[str, Path]) -> list[str]:
    """The causes of ``bundles`` (cause -> folder) still new: neither a known cause's duplicate by their experiments
    nor another bundled cause's by the run's own rules (``experiments.duplicates``: stop 45 counted a bundle the
    cross-bundle rule made a duplicate as a slot filled), and each reproduced alone (``experiments.lost_alone``)."""
    duplicate = experimenting.duplicates(bundles)
    return [c for c, folder in bundles.items() if c not in duplicate and not experimenting.lost_alone(folder)]


# --------------------------------------------------------------------------- a compile timeout: a hang if confirmed

HANG_CONFIRM_FACTOR = 4  # a timed-out compile is a hang only if it does not end alone in this many times its limit
HangVerdict = Literal["hang", "slow", "failed"]


@dataclasses.dataclass(frozen=True)
class HangCheck:
    """What a timed-out compile did once more, alone, with ``HANG_CONFIRM_FACTOR`` times the campaign's limit:
    ``hang`` (it timed out again), ``slow`` (it made a module) or ``failed`` (``failure``: its own finding)."""

    verdict: HangVerdict
    limit_s: float  # the campaign's compile limit
    seconds: float  # the confirming compile's wall time
    failure: Finding | None = None

    @property
    def alone_s(self) -> float:
        return self.limit_s * HANG_CONFIRM_FACTOR

    def note(self) -> str:
        """The sentence the record keeps: the hang's, the slow compile's not-judged reason, the failure's origin."""
        over = f"over the {self.limit_s:g} s limit in the campaign"
        if self.verdict == "hang":
            return f"did not end in {self.alone_s:g} s ({HANG_CONFIRM_FACTOR}x the limit) alone"
        if self.verdict == "slow":  # one reason per campaign limit, so the not-judged tally counts them together
            return f"every oracle: a slow compile, not a hang: {over}, it compiled alone within {self.alone_s:g} s"
        assert self.failure is not None
        return f"not a hang: {over}, it ended alone in {self.seconds:.1f} s with {self.failure.kind}"

    def to_json(self) -> dict[str, Any]:
        return {"verdict": self.verdict, "limit_s": self.limit_s, "alone_s": self.alone_s, "seconds": self.seconds}


def confirm_timeout(finding: Finding, config: CompilerConfig, frontend: str = "linalg") -> HangCheck:
    """``finding``'s case (a compile timeout under ``config``) compiled once more, alone, through ``frontend``
    with ``HANG_CONFIRM_FACTOR`` times ``config``'s limit. Under load a compile runs past its limit and ends soon
    after (seed 29411's f16 chain: over 60 s on 2 loaded cores, a few seconds alone, then the known fmaxf error).
    In the coordinator, after the campaign: inside a worker the longer compile would outlive the pool's stall
    watchdog (one limit plus the grace) and a case's deadline."""
    from ireefuzz import sut
    from ireefuzz.core import evaluate as ev
    from ireefuzz.core.frontends import FRONTENDS
    from ireefuzz.generators.case import Case
    from ireefuzz.generators.emit import emit_module
    from ireefuzz.oracles.cause import assign_causes

    path = FRONTENDS[frontend]
    recorded = Case.from_json(finding.case or {})
    case = path.admit(recorded) or recorded  # (the campaign compiled it, so the frontend admits it)
    name = path.function(case, 0)
    longer = dataclasses.replace(config, timeout_s=config.timeout_s * HANG_CONFIRM_FACTOR)
    setup = sut.Setup.of(longer)
    setup = setup.with_config(path.configure(sut.config_for(case, setup.config)))
    payloads = {name: path.payload(case, name)}
    program = emit_module(payloads, setup.toolchain.syntax) if path is ev.LINALG else path.program(payloads)
    outcome = sut.compile_mlir(program.text, setup.config, toolchain=setup.toolchain)
    if isinstance(outcome, sut.Artifact):
        return HangCheck("slow", config.timeout_s, outcome.seconds)
    if outcome.kind == "timeout":
        return HangCheck("hang", config.timeout_s, outcome.seconds)
    failure = path.compile_failure(outcome, program.text, {name: case})
    failure = failure.with_case(finding.case).with_evidence(platform=ev.platform_of(config=setup.config))
    return HangCheck("failed", config.timeout_s, outcome.seconds, assign_causes([failure])[0])


def _timeout_unconfirmed(row: Mapping[str, Any]) -> bool:
    """A recorded compile timeout with its case, not yet confirmed (a confirmed hang carries ``hang``)."""
    evidence = row.get("evidence") or {}
    return (
        row.get("kind") == "compile-timeout"  # (the crash oracle's kind: a compile that did not end)
        and bool(row.get("case"))
        and ("hang" not in evidence)
    )


def confirm_hangs(record: Record, log: Any = None) -> list[str]:
    """Before a compile timeout's cause is listed as new: each recorded timeout of a new cause, smallest first,
    compiled once more alone (``confirm_timeout``), and the record rewritten with what it did. One that times out
    again is the confirmed hang: its row kept, its message saying so, and the rest of its cause kept with it. One
    that compiles is a slow compile: its case not judged (never red). One that fails otherwise is that failure
    (its finding and cause, known or new). A cause none of whose recorded timeouts hangs is no hang: its cases
    whose program was not recorded (a signature's later, larger members) are not judged either. The causes so
    re-judged; none, and nothing compiled, when the new causes hold no compile timeout."""
    log = log or (lambda message: print(message, file=sys.stderr))
    rows = _io.read_jsonl(record.out / "findings.jsonl")
    new = set(record.new_causes())
    cause_of = lambda row: record.row_cause.get((row["signature"], row["case_index"]), "")
    todo = sorted(
        (n for n, row in enumerate(rows) if _timeout_unconfirmed(row) and cause_of(row) in new),
        key=lambda n: rows[n]["size"],
    )
    if not todo:
        return []
    progress = _io.read_jsonl(record.out / "progress.jsonl")
    frontends = {e["i"]: line.get("frontend", "linalg") for line in progress for e in line["cases"]}
    config = record.options.compiler_config()
    checks: dict[int, HangCheck] = {}
    hung: set[str] = set()
    for n in todo:
        row = rows[n]
        if cause_of(row) in hung:
            continue  # one confirmed hang keeps its cause; the others would cost HANG_CONFIRM_FACTOR limits each
        log(
            f"ireefuzz: confirming the compile timeout of case {row['case_index']} ({cause_of(row)}): compiling it "
            f"alone with {config.timeout_s * HANG_CONFIRM_FACTOR:g} s"
        )
        check = confirm_timeout(Finding.from_json(row), config, frontends.get(row["case_index"], "linalg"))
        log(f"  {check.note()} ({check.failure.cause if check.failure else f'{check.seconds:.1f} s'})")
        checks[n] = check
        if check.verdict == "hang":
            hung.add(cause_of(row))
    refuted = {cause_of(rows[n]) for n in checks} - hung
    _rewrite(record, rows, progress, checks, refuted)
    return sorted({cause_of(rows[n]) for n in checks})


UNCONFIRMED = (
    "every oracle: a compile timeout not confirmed as a hang (its program is not recorded; none of its cause's "
    "recorded timeouts hung alone in {s:g} s)"
)


def _rewrite(
    record: Record,
    rows: list[dict[str, Any]],
    progress: list[dict[str, Any]],
    checks: Mapping[int, HangCheck],
    refuted: set[str],
) -> None:
    """findings.jsonl and progress.jsonl with the ``checks`` of their timeout rows (row number -> check), and the
    unrecorded timeouts of the ``refuted`` causes not judged; each file rewritten atomically."""
    # (signature, case index) -> what stands in its place: (signature, cause) or None, and a not-judged reason
    instead: dict[tuple[str, int], tuple[tuple[str, str] | None, str]] = {}
    kept: list[dict[str, Any]] = []
    for n, row in enumerate(rows):
        check = checks.get(n)
        if check is None:
            kept.append(row)
        elif check.verdict == "hang":
            evidence = dict(row.get("evidence") or {}) | {"hang": check.to_json()}
            kept.append(row | {"message": f"{row['message']}; {check.note()}", "evidence": evidence})
        elif check.failure is not None:
            f = check.failure.with_evidence(after_timeout=check.note())
            status = "known" if record.baseline.finding_known(f.signature, f.cause) else "new"
            kept.append(row | f.to_json() | {"status": status})
            instead[row["signature"], row["case_index"]] = ((f.signature, f.cause), "")
        else:
            instead[row["signature"], row["case_index"]] = (None, check.note())
    unconfirmed = UNCONFIRMED.format(s=record.options.case_timeout * HANG_CONFIRM_FACTOR)
    for line in progress:
        for e in line["cases"]:
            pairs: dict[str, str] = {}  # signature -> cause, in order
            reasons = list(e.get("not_judged", ()))
            for sig, cause in zip(e["sigs"], e.get("causes") or record.causes_of(e["i"], e["sigs"])):
                pair, reason = instead.get((sig, e["i"]), ((sig, cause), ""))
                if (sig, e["i"]) not in instead and cause in refuted and Signature.parse(sig).kind == "compile-timeout":
                    pair, reason = None, unconfirmed
                if pair is not None:
                    pairs.setdefault(*pair)
                if reason and reason not in reasons:
                    reasons.append(reason)
            e.update(sigs=list(pairs), causes=list(pairs.values()), not_judged=reasons)
    for name, lines in (("findings.jsonl", kept), ("progress.jsonl", progress)):
        text = "".join(json.dumps(r, sort_keys=True, default=_io.json_default) + "\n" for r in lines)
        _io.atomic_write_text(record.out / name, text)


def write_index(record: Record, causes: list[str]) -> Path:
    """``out/bundles/index.md``: one line per bundled cause, in the order bundled (ranked): its folder, signature,
    whether ``run.sh`` showed it, the culprit pass (or "not localized"), the likely upstream duplicate and the
    experiments' verdict (``filing.experiments``: a duplicate of a known cause is not new)."""
    lines = [
        "# Bundles",
        "",
        "One folder per new cause, in the order they were bundled. Each line: run.sh's exit "
        "status on the confirming compiler (1 = the bug is seen), the culprit phase / pass, the upstream match, "
        "the verdict of its experiments.",
        "",
    ]
    for cause in causes:
        folder = record.bundle_dir(cause)
        try:
            f = json.loads((folder / "finding.json").read_text())
        except (OSError, ValueError):
            lines.append(f"- `{cause}`: no bundle (shrinking gave up or failed)")
            continue
        c = f.get("culprit") or {}
        dup = next(iter(f.get("upstream") or ()), None)
        dup_text = (
            f"likely duplicate of {dup['issue']} ({dup['state']})" if isinstance(dup, dict) else "no upstream match"
        )
        issue = "ISSUE.md" if (folder / "ISSUE.md").exists() else "no ISSUE.md"
        tried = f.get("experiments") or {}
        verdict = (tried.get("verdict") or {}).get("line") or "no experiments"
        lines.append(
            f"- [{folder.name}]({folder.name}/) `{f.get('signature')}`: run.sh {(f.get('run_sh') or {}).get('exit')}, "
            f"{f.get('confirm', '?')}; culprit {c.get('phase') or '-'} / {c.get('pass') or 'not localized'}; "
            f"{dup_text}; {issue}; experiments: {verdict}"
        )
    index = record.out / "bundles" / "index.md"
    index.parent.mkdir(parents=True, exist_ok=True)
    _io.atomic_write_text(index, "\n".join(lines) + "\n")
    return index
