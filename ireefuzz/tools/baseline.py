"""The known-findings baseline: the one reader and writer of ``known_findings.json``, for the campaign
(``fuzz``, ``triage``, ``diff``), the corpus and the pytest plugin, all of which match findings by cause.

A baseline holds the causes a team has judged, each with a **verdict**:

- ``upstream``      a real IREE bug, tracked at ``link`` (an issue URL, or the repro awaiting filing);
- ``by-design``     not a bug: ``why`` says what the semantics require;
- ``harness``       an error of ireefuzz itself, ``fixed_in`` its version that no longer makes it;
- ``duplicate-of``  the same mechanism as the cause ``of``.

The file (format 2)::

    {"format": 2, "causes": [
      {"cause": "memory/alloca/contraction@DoubleTilingExpert", "verdict": "upstream",
       "link": "https://github.com/iree-org/iree/issues/8303", "signatures": ["memory/alloca/fill>matmul/f32/SxS"],
       "note": "free text"}, ...]}

``signatures`` lists the signatures seen of the cause when it was judged (what was looked at). An
entry may name signatures only (no ``cause``: an old baseline's rows). An entry without a verdict is
*listed* (what format 1 could say): known, shown in the report as having no verdict.

``mechanism`` (optional) says what IREE did, so that a variant of a known bug matches it whatever its surface
(another op, dtype, pass that met it first, or wording)::

    "mechanism": {"oracle": "crash", "culprit": "tiling",
                  "trigger": "Without the negative coefficient in the map (the dim read forward) it compiles."}

- ``oracle``   the oracle that sees it (one of ``oracles.finding.ORACLES``);
- ``culprit``  the pass it comes from, or its family where several passes run one transformation
  (``oracles.cause.pass_family``: ``iree-llvmcpu-tile`` is ``tiling``); null when not localized;
- ``trigger``  one sentence: the change to the program that makes it go away.

``known_mechanism(cause)`` gives a cause's record (a ``duplicate-of`` entry's is its cause's), and
``matches(oracle, culprit)`` the judged causes whose mechanism has that oracle and culprit family: what the
experiments engine asks of a candidate new cause. A file without mechanisms (older) reads as before.

Format 1 (a JSON list of ``{"signature", "cause", "status", "upstream", "note"}`` rows, one per
signature) is still read: rows are grouped by cause; a row with an ``upstream`` link becomes
``upstream``, one with ``status`` ``intended``/``wontfix`` ``by-design`` (its note is the why).
``mark`` writes format 2.

Matching is by cause: a finding (a cause) is known if its cause is listed, so a new dims or dtype
variant of a known cause is known everywhere. Only an entry without a cause matches by signature (a
finding with that signature; a cause one of whose signatures it is). A signature listed under a cause
never makes *another* cause known: when a newer ireefuzz splits or renames a cause, the new cause is
reported as not judged (its nearest judged cause is shown in the ranking), never silently inherited.

A ``harness`` verdict holds for runs of an ireefuzz older than its ``fixed_in``: in a run of that version
or later (``Baseline.judging(version)``; a run's version is in its summary.json) the error came back, and
the cause is not judged again until someone looks (``regressed`` says which entry it was).
"""

from __future__ import annotations

import dataclasses
import json
import re
from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path
from typing import Any, Iterator

from ireefuzz.base.durable import atomic_write_text
from ireefuzz.errors import CorpusError, UsageError
from ireefuzz.oracles import vocabulary
from ireefuzz.oracles.cause import pass_family
from ireefuzz.oracles.finding import ORACLES, Signature

FORMAT = 2
COMPILE_CRASH = "crash/compile-crash/"  # a compiler crash's cause id: then the signal and the frames, innermost first
UNKNOWN_CRASH = COMPILE_CRASH + "crash/"  # a crash whose type neither an assertion nor the exit status said
# verdict -> the field that must say more about it
VERDICTS = {"upstream": "link", "by-design": "why", "harness": "fixed_in", "duplicate-of": "of"}
LEGACY_STATUSES = ("open", "fixed", "wontfix", "intended")  # format 1's "status"
DEFAULT_BASELINE = Path("corpus/known_findings.json")


@dataclasses.dataclass(frozen=True)
class Mechanism:
    """What IREE did, for a known cause: the oracle that sees it, the culprit pass (family), and its trigger."""

    oracle: str
    culprit: str | None  # a pass, or its family (``pass_family``); None: not localized
    trigger: str  # one sentence: what makes it go away
    missing_feature: str = ""  # a CPU feature (LLVM's name, e.g. f16c): it shows only without it, gone with it
    cured_by: str = ""  # the experiment that removes it, as its label ends (".fill": the splat generic as a fill)

    @property
    def family(self) -> str | None:
        return None if self.culprit is None else pass_family(self.culprit)

    def to_json(self) -> dict[str, Any]:
        feature = {"missing_feature": self.missing_feature} if self.missing_feature else {}
        cure = {"cured_by": self.cured_by} if self.cured_by else {}
        return {"oracle": self.oracle, "culprit": self.culprit, "trigger": self.trigger} | feature | cure


@dataclasses.dataclass(frozen=True)
class Known:
    """One judged cause (or, from an old baseline, a signature without a cause)."""

    cause: str = ""
    verdict: str = ""  # one of VERDICTS; "" = listed without a verdict
    link: str = ""
    why: str = ""
    fixed_in: str = ""
    of: str = ""
    note: str = ""
    signatures: tuple[str, ...] = ()
    mechanism: Mechanism | None = None

    @property
    def upstream(self) -> str:
        return self.link

    @property
    def detail(self) -> str:
        """What backs the verdict, in one line (the report's words)."""
        if self.verdict == "upstream":
            filed = "://" in self.link or re.fullmatch(r"[\w.-]+/[\w.-]+#\d+", self.link)  # a URL or owner/repo#N
            return self.link if filed else f"{self.link} (not filed upstream yet)"
        if self.verdict == "by-design":
            return self.why
        if self.verdict == "harness":
            return f"an ireefuzz error, fixed in ireefuzz {self.fixed_in}"
        if self.verdict == "duplicate-of":
            return f"same mechanism as {self.of}"
        return self.note or "listed without a verdict"

    def to_json(self) -> dict[str, Any]:
        row: dict[str, Any] = {"cause": self.cause} if self.cause else {}
        if self.verdict:
            row |= {"verdict": self.verdict, VERDICTS[self.verdict]: getattr(self, VERDICTS[self.verdict])}
        if self.signatures:
            row["signatures"] = sorted(self.signatures)
        if self.note:
            row["note"] = self.note
        if self.mechanism is not None:
            row["mechanism"] = self.mechanism.to_json()
        return row


@dataclasses.dataclass(frozen=True)
class Baseline:
    signatures: Mapping[str, Known] = dataclasses.field(default_factory=dict)
    causes: Mapping[str, Known] = dataclasses.field(default_factory=dict)
    run_version: str = ""  # the ireefuzz that made the run judged ("": not known, harness verdicts hold)

    def judging(self, version: str) -> Baseline:
        """This baseline, judging a run made by ireefuzz ``version``."""
        return dataclasses.replace(self, run_version=version)

    def regressed(self, cause: str) -> Known | None:
        """The ``harness`` entry of ``cause`` if the run's ireefuzz is at or past the version that fixed it."""
        k = self.causes.get(cause)
        return k if k is not None and k.verdict == "harness" and _at_least(self.run_version, k.fixed_in) else None

    def _holds(self, k: Known | None) -> Known | None:
        return None if k is not None and k.cause and self.regressed(k.cause) else k

    @classmethod
    def of(cls, entries: Iterable[Known]) -> Baseline:
        entries = list(entries)
        return cls(
            {s: k for k in entries if not k.cause for s in k.signatures}, {k.cause: k for k in entries if k.cause}
        )

    @property
    def entries(self) -> list[Known]:
        return sorted(
            {id(k): k for k in [*self.causes.values(), *self.signatures.values()]}.values(),
            key=lambda k: (k.cause, k.signatures),
        )

    def finding_known(self, signature: str, cause: str) -> Known | None:
        """The entry that makes a finding known: its cause's, else a cause-less entry of its signature."""
        return self._holds(self._entry_of(cause)) or self.signatures.get(signature)

    def _entry_of(self, cause: str) -> Known | None:
        """``cause``'s entry; for a compile crash whose signal is unknown (``crash``: iree-compile was killed at the
        time limit while its crash handler printed the stack), the one entry of a crash in the same frames."""
        if (found := self.causes.get(cause)) is not None or not cause.startswith(UNKNOWN_CRASH):
            return found
        frames = cause.removeprefix(UNKNOWN_CRASH)
        twins = [k for c, k in self.causes.items() if c.startswith(COMPILE_CRASH) and c.split("/", 3)[3:] == [frames]]
        return twins[0] if len(twins) == 1 else None

    def _chain(self, cause: str) -> Iterator[Known]:
        """``cause``'s entry, then the entry of the cause each ``duplicate-of`` names, in turn (a loop ends it)."""
        seen: set[str] = set()
        while (k := self.causes.get(cause)) is not None and cause not in seen:
            yield k
            seen.add(cause)
            if k.verdict != "duplicate-of":
                return
            cause = k.of

    def upstream_of(self, cause: str) -> str:
        """Where ``cause`` is reported: its entry's link, else (a ``duplicate-of``) that of the cause it duplicates,
        in turn ("": none on the chain)."""
        return next((k.link for k in self._chain(cause) if k.verdict == "upstream" and k.link), "")

    def known_mechanism(self, cause: str) -> Mechanism | None:
        """The mechanism of known cause ``cause`` (a ``duplicate-of`` entry's is the cause it duplicates'), if
        recorded."""
        return next((k.mechanism for k in self._chain(cause) if k.mechanism is not None), None)

    def by_design(self, cause: str) -> str:
        """Why the baseline judges ``cause`` no bug (a ``by-design`` entry, its own or the one its duplicate-of
        entries lead to), else ""."""
        last = None
        for last in self._chain(cause):
            pass
        return (last.why or "by design") if last is not None and last.verdict == "by-design" else ""

    def cures(self) -> dict[str, tuple[str, ...]]:
        """An experiment label's ending -> the known causes that experiment removes (``Mechanism.cured_by``)."""
        found: dict[str, tuple[str, ...]] = {}
        for k in self.entries:
            if k.cause and k.mechanism and k.mechanism.cured_by:
                found[k.mechanism.cured_by] = (*found.get(k.mechanism.cured_by, ()), k.cause)
        return found

    def missing_features(self) -> dict[str, str]:
        """A CPU feature -> the known cause that shows only without it (``Mechanism.missing_feature``)."""
        return {
            k.mechanism.missing_feature: k.cause for k in self.entries if k.mechanism and k.mechanism.missing_feature
        }

    def matches(self, oracle: str, culprit: str | None, cause: str = "") -> list[Known]:
        """The judged causes with the same mechanism as a candidate seen by ``oracle`` and coming from pass
        ``culprit`` (compared by pass family): what a variant of a known bug shares with it whatever its surface.
        A null culprit (not localized) is no evidence of a mechanism: it matches nothing. A pass that only reports
        what earlier passes made (``vocabulary.reports_only``: an undefined symbol and a failed LLVM translation
        both show at serialization; a stack buffer at bufferization) is not either: there the candidate's ``cause``
        must also say what the known one says (``same_diagnostic``: the write-affecting error under another op's
        name). So must a compile error met where a known compile error fails: two checks of one pass failing are two
        bugs until an experiment lands one in the other (stop 45: an invalid vector.contract with no mask was called
        the known masked contract's error of drop-vector-unit-dims)."""
        if culprit is None:
            return []
        family, reported = pass_family(culprit), vocabulary.reports_only(oracle, culprit)
        return [
            k
            for k in self.entries
            if k.cause
            and k.mechanism is not None
            and k.mechanism.oracle == oracle
            and k.mechanism.family == family
            and (not reported or same_diagnostic(cause, k.cause))
            and not another_check(cause, k.cause)
        ]

    def cause_known(self, cause: str, signatures: Iterable[str]) -> Known | None:
        """The entry that makes ``cause`` known: its own, else a cause-less entry of one of its signatures."""
        return self._holds(self._entry_of(cause)) or next(
            (self.signatures[s] for s in sorted(signatures) if s in self.signatures), None
        )


def _at_least(version: str, fixed_in: str) -> bool:
    """``version`` >= ``fixed_in`` (PEP 440); False when either is missing or unreadable (the verdict holds)."""
    from packaging.version import InvalidVersion, Version

    try:
        return bool(version and fixed_in) and Version(version) >= Version(fixed_in)
    except InvalidVersion:
        return False


# --------------------------------------------------------------------------- where the baseline is


def shipped() -> Path:
    """The project's own baseline: the copy shipped in the wheel (package data ``ireefuzz._corpus``), else
    the checkout's ``corpus/known_findings.json``."""
    from importlib import resources

    try:
        known = resources.files("ireefuzz._corpus").joinpath("known_findings.json")
        if known.is_file():  # (a namespace package's files() is a MultiplexedPath, whose str() is no path)
            return Path(str(known))
    except (ModuleNotFoundError, TypeError):  # TypeError: a namespace package older importlib cannot read
        pass
    return Path(__file__).resolve().parents[2] / "corpus" / "known_findings.json"


def baseline_path(given: str | None) -> Path | None:
    """``--baseline FILE``; else corpus/known_findings.json if it exists here (a checkout), else the one shipped
    with ireefuzz (an installed wheel run from another folder still knows the known IREE bugs), else none."""
    if given:
        return Path(given)
    if DEFAULT_BASELINE.exists():
        return DEFAULT_BASELINE
    found = shipped()
    return found if found.is_file() else None


# --------------------------------------------------------------------------- reading


def load(path: str | Path | None, option: str = "--baseline") -> Baseline:
    """The baseline in ``path`` (none: empty); a malformed file is one line naming ``option`` (UsageError)."""
    if path is None:
        return Baseline()
    try:
        return Baseline.of(read(path))
    except CorpusError as e:
        raise UsageError(f"{option} {e}") from None


def read(path: str | Path) -> list[Known]:
    """Every entry of a baseline file (format 2, or format 1 grouped by cause), checked; CorpusError if malformed."""
    path = Path(path)
    data = read_json(path)
    if isinstance(data, list):
        return _from_rows(path, data)
    if not isinstance(data, dict) or data.get("format") != FORMAT or not isinstance(data.get("causes"), list):
        raise CorpusError(
            f'{path}: expected {{"format": 2, "causes": [...]}} (or a format 1 list of '
            '{"signature"|"cause", ...} rows)'
        )
    entries = [_entry(path, i, row) for i, row in enumerate(data["causes"])]
    _no_repeats(path, entries)
    return entries


def _entry(path: Path, i: int, row: Any) -> Known:
    where = f"{path}: entry {i}"
    if not isinstance(row, dict):
        raise CorpusError(f"{where}: not a JSON object")
    strings = {k: row.get(k) or "" for k in ("cause", "verdict", "note", *VERDICTS.values())}
    bad = [k for k, v in strings.items() if not isinstance(v, str)]
    sigs = row.get("signatures") or []
    if bad or not isinstance(sigs, list) or not all(isinstance(s, str) for s in sigs):
        raise CorpusError(
            f"{where}: {', '.join(bad) or 'signatures'} must be {'a string' if bad else 'a list of strings'}"
        )
    problem = check_entry(strings["cause"], strings["verdict"], {k: strings[k] for k in VERDICTS.values()}, sigs)
    mechanism = _mechanism(row.get("mechanism"))
    if problem or isinstance(mechanism, str):
        raise CorpusError(f"{where} ({strings['cause'] or (sigs[0] if sigs else '?')}): {problem or mechanism}")
    detail = VERDICTS.get(strings["verdict"])
    return Known(
        strings["cause"],
        strings["verdict"],
        note=strings["note"],
        signatures=tuple(sigs),
        mechanism=mechanism,
        **({detail: strings[detail]} if detail else {}),
    )


_FILLER = frozenset(  # words that say nothing of the defect: grammar, and the op / dialect names a message starts with
    "op the to of for in a an is are be on and failed error operation builtin linalg generic tensor memref vector "
    "func hal executable variant".split()
)
_ROLE = re.compile(r"\[([^\]]*)\]")  # the role a cause id names in brackets: stack-allocation-over-limit[in-place]


# an undefined symbol's name in a cause id (the link error of a libcall no pass expanded). Stop 47: an integer's
# sitofp to bf16 (__truncsfbf2) had been called the f16 max's fmaxf (#14187): two of three words in common.
_UNDEFINED_SYMBOL = re.compile(r"undefined-symbol-([\w.]+)")


def _diagnostic_words(cause: str) -> frozenset[str]:
    """The words of what a compile error's cause id says (between its kind and ``@``), less filler."""
    what = cause.split("/", 2)[2] if cause.count("/") >= 2 else ""
    return frozenset(re.split(r"[^a-z0-9]+", what.partition("@")[0].lower())) - _FILLER - {""}


COMPILE_ERROR = "/compile-error/"  # in a cause id: the compiler's diagnostic is what it names


def another_check(cause: str, known: str) -> bool:
    """Two compile errors that say different things (``same_diagnostic``), or two compiler crashes by another signal
    or in no common frame (``same_crash``): two checks failing, which one pass failing both does not make one bug
    until an experiment lands one in the other (stop 45: an invalid vector.contract with no mask is not the masked
    contract's error of drop-vector-unit-dims; stop 46: a SIGFPE in summarizeDispatchRegion on a zero-size loop is
    not the SIGSEGV in inferConvolutionDims on an offset map, though annotate-dispatches runs both)."""
    if COMPILE_ERROR in cause and COMPILE_ERROR in known:
        return not same_diagnostic(cause, known)
    return cause.startswith(COMPILE_CRASH) and known.startswith(COMPILE_CRASH) and not same_crash(cause, known)


def same_crash(cause: str, known: str) -> bool:
    """Whether two compiler crashes' cause ids name the same crash: the same signal (or one not known: ``crash``, a
    compiler killed while it printed its stack) and a frame in common."""
    (mine, my_frames), (theirs, their_frames) = (_crash_site(c) for c in (cause, known))
    signals = mine == theirs or "crash" in (mine, theirs)
    return signals and (not my_frames or not their_frames or bool(my_frames & their_frames))


def _crash_site(cause: str) -> tuple[str, frozenset[str]]:
    """(signal, frames) of a compiler crash's cause id ``crash/compile-crash/SIGNAL/frame>frame...``."""
    parts = cause.split("/", 3)
    frames = parts[3].partition("@")[0].split(">") if len(parts) > 3 else []
    return (parts[2] if len(parts) > 2 else ""), frozenset(f for f in frames if f and f != "-")


def same_diagnostic(cause: str, known: str) -> bool:
    """Whether two compile errors' cause ids say the same thing: most words of the shorter are in the longer
    (``linalg.generic-op-write-affecting`` and ``write-affecting-operations-on-global-resources...``; not
    ``undefined-symbol-fmaxf`` and ``llvm-translation-failed-for-operation-builtin-unrealized_conversion_cast``, nor
    ``undefined-symbol-fmaxf`` and ``undefined-symbol-__truncsfbf``: two missing libcalls are two lowerings)."""
    roles = [set(_ROLE.findall(c.partition("@")[0])) for c in (cause, known)]
    if all(roles) and roles[0] != roles[1]:  # a stack limit in a reduction is not the in-place op's
        return False
    symbols = [_UNDEFINED_SYMBOL.search(c.partition("@")[0]) for c in (cause, known)]
    if symbols[0] and symbols[1]:  # a missing libcall names the lowering that left it: fmaxf and fminf are one
        return len({m.group(1).replace("min", "max") for m in symbols if m}) == 1
    mine, theirs = (_diagnostic_words(_ROLE.sub("", c)) for c in (cause, known))
    return bool(mine and theirs) and len(mine & theirs) * 2 >= min(len(mine), len(theirs)) + 1


def _mechanism(value: Any) -> Mechanism | None | str:
    """An entry's ``mechanism`` record (None if absent), or what is wrong with it."""
    if value is None:
        return None
    if not isinstance(value, dict) or set(value) - {"oracle", "culprit", "trigger", "missing_feature", "cured_by"}:
        return (
            'mechanism must be {"oracle": ..., "culprit": ... or null, "trigger": ..., '
            '["missing_feature": ...], ["cured_by": ...]}'
        )
    oracle, culprit, trigger = value.get("oracle"), value.get("culprit"), value.get("trigger")
    if oracle not in ORACLES:
        return f"mechanism oracle {oracle!r}: choose one of {', '.join(ORACLES)}"
    if not (culprit is None or (isinstance(culprit, str) and culprit.strip())):
        return "mechanism culprit must be a pass (or pass family) name, or null"
    if not isinstance(trigger, str) or not trigger.strip():
        return "mechanism trigger must say in one sentence what makes it go away"
    feature = value.get("missing_feature", "")
    if not isinstance(feature, str) or not re.fullmatch(r"[a-z0-9_.-]*", feature):
        return "mechanism missing_feature must be one CPU feature as LLVM names it (e.g. f16c)"
    cure = value.get("cured_by", "")
    if not isinstance(cure, str) or not re.fullmatch(r"[\w.=+-]*", cure):
        return "mechanism cured_by must be how the label of the experiment that removes it ends (e.g. .fill)"
    return Mechanism(oracle, culprit, trigger.strip(), feature, cure)


def check_entry(cause: str, verdict: str, details: Mapping[str, str], signatures: Sequence[str] = ()) -> str:
    """What is wrong with an entry, or '' (the one set of rules for the file and for ``triage --mark``)."""
    if not cause and not signatures:
        return 'needs a "cause" like oracle/what (or "signatures" like oracle/kind/ops/dtype/dims)'
    if cause and ("/" not in cause or any(c.isspace() for c in cause)):
        return f"cause {cause!r} does not look like oracle/what"
    for s in signatures:
        try:
            Signature.parse(s)
        except ValueError as e:
            return str(e)
    if verdict and verdict not in VERDICTS:
        return f"verdict {verdict!r}: choose one of {', '.join(VERDICTS)}"
    if verdict:
        field = VERDICTS[verdict]
        if not details.get(field, "").strip():
            return f"verdict {verdict} needs {field!r} ({_WHAT[verdict]})"
        if verdict == "duplicate-of":
            of = details[field]
            if "/" not in of or any(c.isspace() for c in of):
                return f"duplicate-of {of!r}: give a cause id like oracle/what"
            if of == cause:
                return "a cause cannot be a duplicate of itself"
    return ""


_WHAT = {
    "upstream": "the issue URL, or the repro to file",
    "by-design": "what the semantics require",
    "harness": "the ireefuzz version that fixed it",
    "duplicate-of": "the cause id it duplicates",
}


def _no_repeats(path: Path, entries: Sequence[Known]) -> None:
    seen: set[tuple[str, str]] = set()
    for k in entries:
        for key in [("cause", k.cause)] if k.cause else [("signature", s) for s in k.signatures]:
            if key in seen:
                raise CorpusError(f"{path}: {key[0]} {key[1]} listed twice")
            seen.add(key)


def _from_rows(path: Path, rows: list) -> list[Known]:
    """Format 1: one row per signature (or per cause), grouped by cause; verdicts from ``upstream`` and ``status``."""
    grouped: dict[str, list[dict]] = {}
    seen: set[tuple[str, str]] = set()
    for i, row in enumerate(rows):
        row = _legacy_row(path, i, row)
        key = ("signature", row["signature"]) if row["signature"] else ("cause", row["cause"])
        if key in seen:  # a cause may stand beside each of its signatures, but alone only once
            raise CorpusError(f"{path}: {key[0]} {key[1]} listed twice")
        seen.add(key)
        grouped.setdefault(row["cause"] or f"\0{row['signature']}", []).append(row)
    entries = []
    for group in grouped.values():
        linked = min(group, key=lambda r: not r["upstream"])  # a cause's row with a link first
        cause, sigs = linked["cause"], tuple(sorted(r["signature"] for r in group if r["signature"]))
        note = " | ".join(dict.fromkeys(r["note"] for r in [linked, *group] if r["note"]))  # every row's note, once
        if any(r["status"] in ("intended", "wontfix") for r in group):
            entries.append(Known(cause, "by-design", why=note or "marked intended", signatures=sigs))
        elif linked["upstream"]:
            entries.append(Known(cause, "upstream", link=linked["upstream"], note=note, signatures=sigs))
        else:
            entries.append(Known(cause, note=note, signatures=sigs))
    return entries


def _legacy_row(path: Path, i: int, row: Any) -> dict:
    if not isinstance(row, dict) or not (row.get("signature") or row.get("cause")):
        raise CorpusError(
            f'{path}: entry {i} needs a "signature" like oracle/kind/ops/dtype/dims or a "cause" like oracle/what'
        )
    row = {k: ("" if v is None else v) for k, v in row.items()}
    for key in ("signature", "cause", "upstream", "note"):
        if not isinstance(row.setdefault(key, ""), str):
            raise CorpusError(f"{path}: entry {i}: {key!r} must be a string")
    name = row["signature"] or row["cause"]
    problem = check_entry(row["cause"], "", {}, [row["signature"]] if row["signature"] else [])
    if problem:
        raise CorpusError(f"{path}: entry {i} ({name}): {problem}")
    if row.setdefault("status", "open") not in LEGACY_STATUSES:
        raise CorpusError(f"{path}: entry {i} ({name}): status must be one of {LEGACY_STATUSES}")
    return row


def read_json(file: Path) -> Any:
    """A JSON file's value; CorpusError (one line saying what is wrong) for a file that cannot be read as JSON."""
    try:
        return json.loads(file.read_text(encoding="utf-8"))
    except OSError as e:
        raise CorpusError(f"{file}: cannot read it ({e.strerror})") from None
    except json.JSONDecodeError as e:
        raise CorpusError(f"{file}: not valid JSON (line {e.lineno}: {e.msg})") from None
    except UnicodeDecodeError:
        raise CorpusError(f"{file}: not a text file (not UTF-8); give a JSON file") from None


# --------------------------------------------------------------------------- writing


def dumps(entries: Iterable[Known]) -> str:
    rows = sorted((k.to_json() for k in entries), key=lambda r: (r.get("cause", ""), r.get("signatures", [])))
    return json.dumps({"format": FORMAT, "causes": rows}, indent=2, ensure_ascii=False) + "\n"


def write(path: str | Path, entries: Iterable[Known]) -> None:
    """``entries`` as a format 2 file, atomically (a reader sees the old file or the new one)."""
    atomic_write_text(Path(path), dumps(entries))


def mark(
    path: str | Path, cause: str, verdict: str, detail: str, *, signatures: Iterable[str] = (), note: str = ""
) -> Known:
    """Give ``cause`` the ``verdict`` (``detail``: its link, why, version or cause id) in the baseline at
    ``path`` (made if missing; a format 1 file is rewritten as format 2), keeping the cause's listed
    signatures and note; the entry written. UsageError (one line) for a bad verdict or detail."""
    path = Path(path)
    field = VERDICTS.get(verdict, "")
    problem = check_entry(cause, verdict, {field: detail}) if cause else "give a cause id"
    if problem or not field:
        raise UsageError(f"--mark {cause}: {problem or 'choose a verdict of ' + ', '.join(VERDICTS)}")
    try:
        entries = read(path) if path.exists() else []
    except CorpusError as e:
        raise UsageError(f"--baseline {e}") from None
    old = next((k for k in entries if k.cause == cause), Known(cause))
    # a signature-only entry of one of the cause's signatures is folded into the cause's own entry
    sigs = set(old.signatures) | set(signatures)
    folded = [k for k in entries if not k.cause and set(k.signatures) <= sigs]
    entry = dataclasses.replace(
        Known(cause, verdict, signatures=tuple(sorted(sigs)), note=note or old.note, mechanism=old.mechanism),
        **dict[str, Any]({field: detail.strip()}),
    )
    write(path, [k for k in entries if k is not old and k not in folded] + [entry])
    return entry
