"""Recall on the tracker's bugs: does a campaign on the release that shows a known IREE CPU bug find it, and when?

The recall set is ``bench/recall/``: one record per fixed (or still open) llvm-cpu bug of iree-org/iree,
``<issue>.json`` beside its program ``<issue>.mlir``, listed in ``index.json`` (see docs/recall.md). A
record names the oracle that should catch the bug, its mechanism, the generator feature it needs, the
releases checked to show it and ``match``, a regex a finding's cause must match to count as this bug.

Two modes:

- ``campaign`` (default): one ``ireefuzz fuzz --release R --configs --time SECONDS`` per release that the
  chosen bugs need (bugs on one release share its campaign), through ``time_to_cause.run_campaign``; each
  bug is scored on its release's ``progress.jsonl`` (``first_hits``): found when a cause matching ``match`` was
  recorded on a case matching ``match_case`` (its ops, configuration, dtype, dims), at the first such sighting.
  A bare oracle prefix (``^numeric/``) would count any other bug of that oracle as this one.
- ``check``: ``ireefuzz check --release R --json`` of the bug's own program with its flags and inputs (the
  sanity row: does the release show the bug at all); the time is the check's wall time. A raw program has no
  graph, so only ``match`` applies.

Per bug it prints found or not, the time to the first matching finding, the release and the feature the
bug needs; then ``found K/N, median time-to-bug T`` (the median over the found ones) and what a campaign
over the whole set would cost.

    python bench/recall.py --seconds 60 --bugs 8303,16168            # campaigns on the bugs' releases
    python bench/recall.py --mode check --bugs 20163 --release 3.2.0   # one program on one release
    python bench/recall.py --mode check --bugs 21836 --release 3.7.0 --target-cpu host   # on another CPU
    python bench/recall.py --cost                                      # what a full run would take
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import os
import re
import shlex
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any, Sequence

sys.path.insert(0, str(Path(__file__).resolve().parent))
from time_to_cause import run_campaign  # noqa: E402  (a sibling script, not a package)

from ireefuzz.base.durable import read_jsonl  # noqa: E402

RECALL_DIR = Path(__file__).resolve().parent / "recall"
ORACLES = ("numeric", "crash", "memory", "fusion", "immutability", "metamorphic")
KINDS = ("wrong-value", "crash", "stack-allocation", "fusion", "immutability")
STATES = ("closed", "open")
PROGRAM_SOURCES = ("issue", "issue-lowered", "issue-reduced", "issue-completed", "issue-pattern", "corpus")
REQUIRED: tuple[str, ...] = ("issue", "url", "title", "state", "kind", "oracle", "mechanism", "program")
REQUIRED += ("program_source", "check", "fix", "needs", "generator", "match", "releases")
UNCHECKED = "unchecked"
# what ``match_case`` may constrain: fields of a progress.jsonl case (``config``, a list, is read joined by spaces;
# ``unused_args``: the runtimes of 3.2.0 and 3.7.0 die on an argument no op reads, a crash of its own)
CASE_FIELDS = ("ops", "config", "dtype", "dims", "unused_args")
INSTALL_S = 65.0  # a release's first use: pip installs its wheels (docs/releases.md)


@dataclasses.dataclass(frozen=True)
class Record:
    """One bug of the recall set, as its JSON says."""

    issue: str  # "iree-org/iree#20163"
    title: str
    oracle: str
    match: str  # regex on a finding's cause id
    program: Path
    check: dict[str, Any]
    needs: dict[str, str]
    releases: dict[str, Any]
    raw: dict[str, Any]

    @property
    def number(self) -> str:
        return self.issue.rsplit("#", 1)[1]

    @property
    def release(self) -> str:
        """The release a campaign runs on: the newest checked to show the bug, else the record's guess."""
        newest = self.releases.get("newest_showing", UNCHECKED)
        return newest if newest != UNCHECKED else self.releases["campaign"]

    @property
    def showing(self) -> tuple[str, ...]:
        """The releases a check of this bug's own program showed it on, oldest first."""
        shown = {row["release"] for row in self.releases.get("checked", ()) if row.get("shows")}
        return tuple(sorted(shown, key=_release_order))

    @property
    def reproduced(self) -> bool:
        """A published release shows the bug: only then can a campaign on a release find it, and be scored."""
        return bool(self.showing)

    def program_for(self, release: str) -> Path:
        """The program in ``release``'s spelling: ``older_spelling`` before the release its syntax changed in."""
        older = self.raw.get("older_spelling")
        if older and _release_order(release) < _release_order(older["before"]):
            return self.program.parent / older["program"]
        return self.program

    def matches(self, cause: str) -> bool:
        return re.search(self.match, cause) is not None

    def matches_case(self, cause: str, case: dict[str, Any]) -> bool:
        """``cause`` of a campaign's ``case`` (a progress.jsonl entry) is this bug: the cause matches ``match`` and
        the case every ``match_case`` regex (its ops, configuration, dtype, dims: what the mechanism needs)."""
        return self.matches(cause) and all(
            re.search(pattern, _case_text(case, key)) is not None for key, pattern in self.match_case.items()
        )

    @property
    def match_case(self) -> dict[str, str]:
        return dict(self.raw.get("match_case", {}))

    @property
    def match_values(self) -> str | None:
        """A ``VALUE_MATCHERS`` name: a sighting needs a finding whose values are this bug's (its own diagnostic
        values, where the op that produced them is any)."""
        return self.raw.get("match_values")


def _f16_rounding_carry_lost(evidence: dict[str, Any]) -> bool:
    """#20163's values: the right value rounds in f16 to a power of two, and IREE gave half of it (0.4999 -> 0.25:
    the software f32 -> f16 truncation loses the carry into the next exponent)."""
    import numpy as np

    right, got = evidence.get("float64"), evidence.get("iree")
    if not isinstance(right, (int, float)) or not isinstance(got, (int, float)) or right == 0:
        return False
    rounded = float(np.float16(right))
    return rounded != 0 and np.log2(abs(rounded)).is_integer() and got == rounded / 2


VALUE_MATCHERS = {"f16-rounding-carry-lost": _f16_rounding_carry_lost}


def _case_text(case: dict[str, Any], key: str) -> str:
    value = case.get(key, 0 if key == "unused_args" else "")
    return " ".join(value) if isinstance(value, list) else str(value)


def problems(raw: dict[str, Any], root: Path = RECALL_DIR) -> list[str]:
    """What a record lacks or gets wrong (empty when it is complete): the recall set's well-formedness."""
    found = [f"missing {key}" for key in REQUIRED if raw.get(key) in (None, "", {}, [])]
    if found:
        return found
    checks = [
        (re.fullmatch(r"iree-org/iree#\d+", raw["issue"]) is not None, f"issue {raw['issue']!r} is not owner/repo#N"),
        (raw["url"].endswith("/" + raw["issue"].rsplit("#", 1)[1]), "url does not end with the issue number"),
        (raw["state"] in STATES, f"state {raw['state']!r} not in {STATES}"),
        (raw["kind"] in KINDS, f"kind {raw['kind']!r} not in {KINDS}"),
        (raw["oracle"] in ORACLES, f"oracle {raw['oracle']!r} not in {ORACLES}"),
        (raw["program_source"] in PROGRAM_SOURCES, f"program_source {raw['program_source']!r}"),
        ((root / raw["program"]).is_file(), f"program {raw['program']} is not in {root}"),
        (bool(raw["needs"].get("op_form")), "needs.op_form is empty"),
        (_compiles(raw["match"]), f"match {raw['match']!r} is not a regex"),
        (raw["fix"].get("pr") is not None or bool(raw["fix"].get("note")), "fix has neither a pr nor a note"),
        (
            raw["state"] != "closed" or raw["fix"].get("pr") is not None or "closed" in raw["fix"].get("note", ""),
            "a closed bug without a fix PR must say so in fix.note",
        ),
    ]
    if raw["fix"].get("pr") is not None:
        checks.append((bool(raw["fix"].get("evidence")), "fix.pr without evidence"))
    releases = raw["releases"]
    for end in ("oldest_showing", "newest_showing", "campaign"):
        checks.append((end in releases, f"releases.{end} missing ('{UNCHECKED}' where not checked)"))
    for key, pattern in raw.get("match_case", {}).items():
        checks.append((key in CASE_FIELDS, f"match_case.{key} is not one of {CASE_FIELDS}"))
        checks.append((_compiles(pattern), f"match_case.{key} {pattern!r} is not a regex"))
    if "match_values" in raw:
        checks.append((raw["match_values"] in VALUE_MATCHERS, f"match_values not one of {sorted(VALUE_MATCHERS)}"))
    older = raw.get("older_spelling")
    if older is not None:
        checks.append(({"before", "program", "why"} <= older.keys(), "older_spelling needs before, program, why"))
        checks.append(((root / older.get("program", "")).is_file(), f"older_spelling program missing: {older}"))
    for row in releases.get("checked", []):
        checks.append(
            ({"release", "shows", "command"} <= row.keys(), f"a checked row lacks release/shows/command: {row}")
        )
    return [message for ok, message in checks if not ok]


def _compiles(pattern: str) -> bool:
    try:
        re.compile(pattern)
    except re.error:
        return False
    return True


def load(root: Path = RECALL_DIR) -> list[Record]:
    """Every record of ``root/index.json``, in its order; a malformed one is a ValueError naming it."""
    index = json.loads((root / "index.json").read_text())
    records = []
    for name in index["records"]:
        raw = json.loads((root / name).read_text())
        wrong = problems(raw, root)
        if wrong:
            raise ValueError(f"{root / name}: {'; '.join(wrong)}")
        records.append(
            Record(
                raw["issue"],
                raw["title"],
                raw["oracle"],
                raw["match"],
                root / raw["program"],
                raw["check"],
                raw["needs"],
                raw["releases"],
                raw,
            )
        )
    return records


# --------------------------------------------------------------------------- check: the bug's own program


def check_command(record: Record, release: str, inputs: Path | None) -> list[str]:
    """The ``ireefuzz check`` command line that runs ``record``'s program on ``release`` with its flags."""
    spec = record.check
    program = str(record.program_for(release))
    command = [sys.executable, "-m", "ireefuzz.cli", "check", program, "--json", "--release", release]
    if spec.get("target_cpu"):
        command += ["--target-cpu", spec["target_cpu"]]
    if spec.get("flags"):
        command += ["--flags", " ".join(spec["flags"])]
    if spec.get("shapes"):
        command += ["--shapes", spec["shapes"]]
    if inputs is not None:
        command += ["--inputs", str(inputs)]
    return command


def write_inputs(record: Record, path: Path) -> Path | None:
    """The record's own inputs as an npz, or None. ``check.inputs`` maps each argument to its dtype and either
    ``values`` (the bug's trigger) or a ``shape`` (deterministic normal values: ``check --inputs`` needs all)."""
    given = record.check.get("inputs")
    if not given:
        return None
    import numpy as np

    rng = np.random.default_rng(0)
    arrays: dict[str, Any] = {}
    for name, spec in given.items():
        values = spec["values"] if "values" in spec else rng.standard_normal(spec["shape"])
        arrays[name] = np.asarray(values, dtype=spec["dtype"])
    np.savez(path, **arrays)
    return path


@dataclasses.dataclass(frozen=True)
class Row:
    record: Record
    release: str
    found: bool
    seconds: float | None  # to the first matching finding (campaign) or of the whole check
    causes: tuple[str, ...]  # the matching causes, else every cause seen
    note: str = ""


def run_check(record: Record, release: str) -> Row:
    with tempfile.TemporaryDirectory(prefix="ireefuzz-recall-") as tmp:
        command = check_command(record, release, write_inputs(record, Path(tmp) / "inputs.npz"))
        started = time.monotonic()
        proc = subprocess.run(command, capture_output=True, text=True, env={**os.environ, "JAX_PLATFORMS": "cpu"})
        wall = time.monotonic() - started
    try:
        findings = json.loads(proc.stdout)["findings"]
    except (ValueError, KeyError):
        tail = (proc.stderr.strip().splitlines() or ["no output"])[-1]
        return Row(record, release, False, wall, (), f"check failed (exit {proc.returncode}): {tail[:160]}")
    causes = tuple(sorted({f["cause"] for f in findings}))
    matching = tuple(c for c in causes if record.matches(c))
    return Row(record, release, bool(matching), wall, matching or causes, shlex.join(command[2:]))


# --------------------------------------------------------------------------- campaign: the generators


NOT_SCORED = "not scored: no release checked shows its own program's bug"


def campaign_plan(records: Sequence[Record]) -> dict[str, list[Record]]:
    """Release -> the records its campaign scores: the fewest releases that cover every reproduced record (greedy:
    the release showing the most records not yet covered, the newer on a tie), each record on one release that
    shows it. A record of no showing release is in none (``NOT_SCORED``); one given a single release
    (``--release``) runs there."""
    plan: dict[str, list[Record]] = {}
    left = [r for r in records if r.reproduced]
    while left:
        candidates = {release for r in left for release in r.showing}
        best = max(candidates, key=lambda v: (sum(v in r.showing for r in left), _release_order(v)))
        plan[best] = [r for r in left if best in r.showing]
        left = [r for r in left if best not in r.showing]
    return dict(sorted(plan.items(), key=lambda item: _release_order(item[0])))


@dataclasses.dataclass(frozen=True)
class Campaign:
    """A finished campaign as the scorer reads it: its progress rows and its recorded findings (with their values)."""

    progress: list[dict[str, Any]]
    findings: list[dict[str, Any]] = dataclasses.field(default_factory=list)

    @classmethod
    def read(cls, run: Path) -> "Campaign":
        read = lambda name: list(read_jsonl(run / name)) if (run / name).exists() else []
        return cls(read("progress.jsonl"), read("findings.jsonl"))


def campaign_rows(plan: dict[str, list[Record]], seconds: float, seed: int, workers: str, out: Path) -> list[Row]:
    """One campaign per release of ``plan``; each of the plan's records scored on every one of those campaigns whose
    release shows it (a nightly over the plan finds a bug on any release that has it), at its earliest sighting."""
    campaigns = {
        release: Campaign.read(
            run_campaign(seed, seconds, workers, out / release, extra=("--release", release, "--configs"))
        )
        for release in plan
    }
    rows = []
    for release, records in plan.items():
        for record in records:
            rows.append(scored(record, {v: c for v, c in campaigns.items() if v == release or v in record.showing}))
    return rows


def scored(record: Record, campaigns: dict[str, Campaign]) -> Row:
    """``record`` on ``campaigns`` (release -> campaign): found at the earliest first sighting among them (ties: the
    older release), else not found on the first."""
    sightings = sorted(
        (hits[0][0], _release_order(v), v, hits) for v, c in campaigns.items() if (hits := first_hits(record, c))
    )
    if sightings:
        seconds, _, release, hits = sightings[0]
        return Row(record, release, True, seconds, tuple(c for _, c in hits))
    release = next(iter(campaigns))
    return Row(record, release, False, None, (), "" if campaigns[release].progress else f"no progress on {release}")


def first_hits(record: Record, campaign: Campaign) -> list[tuple[float, str]]:
    """(seconds into the campaign, cause) of the first sighting of each cause that is ``record``'s bug, earliest
    first: a cause counts on a case that matches the record's ``match_case`` too, and, for a record with
    ``match_values``, only on a case one of whose recorded findings of that cause holds the bug's values."""
    valued = None
    if record.match_values:
        holds = VALUE_MATCHERS[record.match_values]
        valued = {
            (int(f["case_index"]), f["cause"])
            for f in campaign.findings
            if "case_index" in f and isinstance(f.get("evidence"), dict) and holds(f["evidence"])
        }
    first: dict[str, float] = {}
    for row in campaign.progress:
        for case in row["cases"]:
            for cause in case.get("causes", ()):
                if record.matches_case(cause, case) and (valued is None or (case.get("i"), cause) in valued):
                    first[cause] = min(first.get(cause, row["t"]), row["t"])
    return sorted((t, cause) for cause, t in first.items())


def _release_order(version: str) -> tuple:
    from ireefuzz.sut.releases import order_key

    return order_key(version)


# --------------------------------------------------------------------------- report


def cost(records: Sequence[Record], seconds: float) -> str:
    """What a campaign over every record takes: one campaign per distinct release, plus first installs."""
    from ireefuzz.sut.releases import installed_versions

    releases = list(campaign_plan(records))
    missing = [v for v in releases if v not in installed_versions()]
    total = len(releases) * seconds + len(missing) * INSTALL_S
    scored = sum(r.reproduced for r in records)
    return (
        f"a full run: {scored} of the {len(records)} bugs on {len(releases)} releases ({', '.join(releases)}): "
        f"{len(releases)} campaigns x {seconds:.0f} s + {len(missing)} installs x ~{INSTALL_S:.0f} s "
        f"(~480 MB each) = ~{total / 60:.0f} min wall"
    )


def report(rows: Sequence[Row]) -> list[str]:
    lines = [f"{'bug':<8} {'release':<9} {'found':<5} {'t s':>7}  {'oracle':<12} needs / cause"]
    for row in rows:
        seconds = f"{row.seconds:7.1f}" if row.found and row.seconds is not None else f"{'-':>7}"
        what = ", ".join(row.causes[:2]) if row.causes else row.note or "nothing matching"
        need = "; ".join(f"{k}: {v}" for k, v in row.record.needs.items())
        lines.append(
            f"#{row.record.number:<7} {row.release:<9} {'yes' if row.found else 'no':<5} {seconds}  "
            f"{row.record.oracle:<12} {need}"
        )
        lines.append(f"{'':<44} -> {what}")
    found = [r.seconds for r in rows if r.found and r.seconds is not None]
    median = f"{statistics.median(found):.1f} s" if found else "n/a"
    scored = [r for r in rows if r.note != NOT_SCORED]
    lines.append(
        f"found {len(found)}/{len(scored)} of the bugs a release shows, median time-to-bug {median}; "
        f"the whole set: {len(found)}/{len(rows)} ({len(rows) - len(scored)} not scored: {NOT_SCORED[12:]})"
    )
    return lines


def table(records: Sequence[Record]) -> list[str]:
    """The recall set as the markdown table of docs/recall.md (``--table``)."""
    lines = [
        "| bug | title (as found) | kind | oracle | fix (PR, date, first release) | shows: oldest .. newest | needs |",
        "|---|---|---|---|---|---|---|",
    ]
    for r in records:
        fix = r.raw["fix"]
        fixed = (
            f"#{fix['pr']}, {fix.get('date') or '?'}, {fix.get('first_release') or '?'}"
            if fix.get("pr") is not None
            else ("open" if r.raw["state"] == "open" else "closed, PR not identified")
        )
        shows = f"{r.releases['oldest_showing']} .. {r.releases['newest_showing']}"
        title = r.title.replace("|", "\\|")
        lines.append(
            f"| [#{r.number}]({r.raw['url']}) | {title} | {r.raw['kind']} | {r.oracle} | {fixed} | {shows} | "
            f"{r.needs['op_form']} |"
        )
    return lines


def _positive(text: str) -> float:
    """A campaign length: a positive number of seconds (else argparse's one-line usage error, exit 2)."""
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a number of seconds") from None
    if not value > 0:
        raise argparse.ArgumentTypeError(f"{text}: give a positive number of seconds")
    return value


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--mode", choices=("campaign", "check"), default="campaign")
    parser.add_argument("--seconds", type=_positive, default=600.0, help="campaign length per release (default 600)")
    parser.add_argument("--bugs", default="", help="issue numbers, comma-separated (default: the whole set)")
    parser.add_argument("--release", help="run every chosen bug on this release instead of its own")
    parser.add_argument(
        "--target-cpu", help="check mode: compile every chosen bug's program for this CPU instead of its own"
    )
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--workers", default="auto")
    parser.add_argument("--out", type=Path, default=Path("runs/recall"), help="campaign directories (reused)")
    parser.add_argument("--cost", action="store_true", help="only print what a full campaign run would cost")
    parser.add_argument("--table", action="store_true", help="only print the set as docs/recall.md's table")
    args = parser.parse_args(argv)
    records = load()
    if args.bugs:
        wanted = {b.strip().lstrip("#") for b in args.bugs.split(",")}
        unknown = wanted - {r.number for r in records}
        if unknown:
            parser.error(f"not in the recall set: {', '.join(sorted(unknown))}")
        records = [r for r in records if r.number in wanted]
    if args.release:
        records = [dataclasses.replace(r, releases={**r.releases, "newest_showing": args.release}) for r in records]
    if args.target_cpu:
        records = [dataclasses.replace(r, check={**r.check, "target_cpu": args.target_cpu}) for r in records]
    if args.cost or args.table:
        print("\n".join(table(records)) if args.table else cost(load(), args.seconds))
        return 0
    if args.mode == "check":
        rows = [run_check(r, r.release) for r in records]
    else:
        plan = {args.release: [r for r in records if r.reproduced]} if args.release else campaign_plan(records)
        rows = campaign_rows(plan, args.seconds, args.seed, args.workers, args.out)
        rows += [Row(r, "-", False, None, (), NOT_SCORED) for r in records if not r.reproduced]
    print("\n".join(report(rows)))
    print(cost(load(), args.seconds))
    return 0


if __name__ == "__main__":
    sys.exit(main())
