"""The corpus format: ``CorpusCase``, reading and writing ``case.json`` / ``program.mlir`` (the layout and every
key are described in ``ireefuzz.tools.corpus``), and where the project's own corpus is.

A case's verdict has a part for every target and a part per x86-64 level (``expected``, ``expected_by_level``):
``expected_at(level)`` is what a target at that level must show, ``levels`` the ones recorded. Which level a
target is at is decided by its features (``ireefuzz.tools.corpus.check.target_of``), never by its name."""

from __future__ import annotations

import dataclasses
from pathlib import Path
from typing import TYPE_CHECKING, Any, Iterator, Mapping, Sequence

from ireefuzz.base.durable import atomic_write_json, atomic_write_text
from ireefuzz.errors import CorpusError
from ireefuzz.generators.graph import GraphError
from ireefuzz.oracles.finding import Signature
from ireefuzz.tools.baseline import read_json, shipped

if TYPE_CHECKING:
    from ireefuzz.generators.case import Case


Verdict = Mapping[str, tuple[str, ...]]  # oracle -> the signatures it is expected to report

CASE_FILE = "case.json"
PROGRAM_FILE = "program.mlir"
_CASE_KEYS = ("graph", "instances", "seed", "target_cpu", "flags")


@dataclasses.dataclass(frozen=True)
class CorpusCase:
    """One corpus case. Exactly one of ``case`` (a graph ``Case``) and ``mlir`` (program text) is the case."""

    name: str
    case: Case | None = None
    mlir: str | None = None
    functions: tuple[str, ...] = ()
    shapes: Mapping[str, Sequence[Sequence[int]]] = dataclasses.field(default_factory=dict)
    seed: int = 0
    target_cpu: str = "host"
    flags: tuple[str, ...] = ()
    expected: Verdict = dataclasses.field(default_factory=dict)  # on every target (of a level recorded)
    expected_by_level: Mapping[str, Verdict] = dataclasses.field(default_factory=dict)  # level -> beyond ``expected``
    compile_only: bool = False
    relations: tuple[str, ...] = ()
    note: str = ""
    ireefuzz_version: str = ""
    iree_version: str = ""
    cpu: str = ""  # the CPU whose features ``expected`` needs (the least level recorded); "" = any target
    path: Path | None = None  # the case directory, when loaded from disk

    def __repr__(self) -> str:
        kind = "graph" if self.case is not None else "mlir"
        return f"CorpusCase({self.name}: {kind}, expected={sorted(self.expected_signatures)})"

    @property
    def is_graph(self) -> bool:
        return self.case is not None

    @property
    def expected_signatures(self) -> frozenset[str]:
        """Every signature the case is expected to show on some target."""
        parts = (self.expected, *self.expected_by_level.values())
        return frozenset(s for part in parts for sigs in part.values() for s in sigs)

    @property
    def levels(self) -> tuple[str, ...]:
        """The CPUs (x86-64 levels) a verdict was recorded for; a file of one CPU (``cpu``) is its only level."""
        return tuple(self.expected_by_level) or ((self.cpu,) if self.cpu else ())

    def expected_at(self, level: str | None) -> frozenset[str]:
        """What a target at ``level`` (one of ``levels``; None: below them all) is expected to show."""
        parts = (self.expected, self.expected_by_level.get(level or "", {}))
        return frozenset(s for part in parts for sigs in part.values() for s in sigs)

    def levels_of(self, signature: str) -> tuple[str, ...]:
        """The levels whose part holds ``signature`` beyond ``expected`` (empty: it is expected everywhere)."""
        holds = lambda verdict: any(signature in sigs for sigs in verdict.values())
        return () if holds(self.expected) else tuple(k for k, v in self.expected_by_level.items() if holds(v))

    def program_text(self) -> str:
        """The MLIR program: the raw text, or the graph emitted as ``@main``."""
        if self.mlir is not None:
            return self.mlir
        from ireefuzz.generators.emit import emit

        assert self.case is not None  # a corpus case is a graph case or a raw-MLIR one (load_case)
        return emit(self.case.graph).text

    def to_json(self) -> dict[str, Any]:
        if self.case is not None:
            head: dict[str, Any] = self.case.to_json()
        else:
            head = {
                "mlir": PROGRAM_FILE,
                "functions": list(self.functions),
                "shapes": {k: [list(s) for s in v] for k, v in self.shapes.items()},
                "seed": self.seed,
                "target_cpu": self.target_cpu,
                "flags": list(self.flags),
            }
        by_level = {"expected_by_level": {k: _sorted(v) for k, v in self.expected_by_level.items()}}
        return head | {
            "expected": _sorted(self.expected),
            **(by_level if self.expected_by_level else {}),
            "compile_only": self.compile_only,
            "relations": list(self.relations),
            "ireefuzz_version": self.ireefuzz_version,
            "iree_version": self.iree_version,
            "cpu": self.cpu,
            "note": self.note,
        }


def _sorted(verdict: Verdict) -> dict[str, list[str]]:
    return {k: sorted(v) for k, v in sorted(verdict.items())}


def default_root() -> Path:
    """The project's own corpus (``seeds/``, ``regressions/``, ``known_findings.json``): the copy shipped
    in the wheel (package data ``ireefuzz._corpus``), else the checkout's ``corpus/``."""
    return shipped().parent  # (the corpus is where its baseline is)


def default_baseline() -> Path:
    """The project's known-findings baseline (``known_findings.json`` of ``default_root()``)."""
    return shipped()


def load_case(path: str | Path) -> CorpusCase:
    """Load a case from its directory or its ``case.json``; raises CorpusError (a GraphError) if malformed."""
    path = Path(path)
    directory = path.parent if path.name == CASE_FILE else path
    file = directory / CASE_FILE
    data = read_json(file)
    try:
        return _from_json(data, directory)
    except CorpusError:
        raise
    except GraphError as e:
        raise CorpusError(f"{file}: {e}") from None


def _from_json(data: Any, directory: Path) -> CorpusCase:
    from ireefuzz.generators.case import Case

    file = directory / CASE_FILE
    if not isinstance(data, dict):
        raise CorpusError(f"{file}: expected a JSON object, got {type(data).__name__}")
    expected = _verdict(data.get("expected", {}), file, "expected")
    by_level = data.get("expected_by_level", {})
    if not isinstance(by_level, dict):
        raise CorpusError(f"{file}: 'expected_by_level' must map an x86-64 level to a verdict like 'expected'")
    levels = {str(k): _verdict(v, file, f"expected_by_level[{k!r}]") for k, v in by_level.items()}
    relations = data.get("relations", [])
    from ireefuzz.oracles.metamorphic import RELATIONS

    if not isinstance(relations, list) or set(relations) - set(RELATIONS):
        raise CorpusError(f"{file}: 'relations' must be a list drawn from {list(RELATIONS)}")
    common: dict[str, Any] = dict(
        name=directory.name,
        expected=expected,
        expected_by_level=levels,
        compile_only=bool(data.get("compile_only", False)),
        relations=tuple(relations),
        note=str(data.get("note", "")),
        ireefuzz_version=str(data.get("ireefuzz_version", "")),
        iree_version=str(data.get("iree_version", "")),
        cpu=str(data.get("cpu", "")),
        path=directory,
    )
    _check_flags(data.get("flags", ()), file)
    if "graph" in data:
        case = Case.from_json(data)  # raises GraphError with the reason
        return CorpusCase(case=case, seed=case.seed, target_cpu=case.target_cpu, flags=case.flags, **common)
    if "mlir" not in data:
        raise CorpusError(f"{file}: neither a graph case (key 'graph') nor a raw-MLIR case (key 'mlir')")
    program = directory / str(data["mlir"])
    if directory.resolve() not in program.resolve().parents:  # "/etc/passwd", "../x", a link out: never read
        raise CorpusError(f"{file}: its program {data['mlir']!r} is outside the case's directory; name a file in it")
    try:
        text = program.read_text(encoding="utf-8")
    except OSError as e:
        raise CorpusError(f"{file}: its program {program} cannot be read ({e.strerror})") from None
    except UnicodeDecodeError:
        raise CorpusError(f"{file}: its program {program} is not a text file") from None
    shapes = data.get("shapes", {})
    if not isinstance(shapes, dict) or not all(
        isinstance(v, list) and all(isinstance(s, list) for s in v) for v in shapes.values()
    ):
        raise CorpusError(f"{file}: 'shapes' must map a function name to one shape (a list of ints) per argument")
    try:
        return CorpusCase(
            mlir=text,
            functions=tuple(data.get("functions", ())),
            shapes={k: [tuple(int(d) for d in s) for s in v] for k, v in shapes.items()},
            seed=int(data.get("seed", 0)),
            target_cpu=str(data.get("target_cpu", "host")),
            flags=tuple(data.get("flags", ())),
            **common,
        )
    except (TypeError, ValueError) as e:
        raise CorpusError(f"{file}: malformed field ({e})") from None


def _verdict(value: Any, file: Path, key: str) -> dict[str, tuple[str, ...]]:
    """``value`` as a verdict (oracle -> signatures of that oracle), or CorpusError saying what is wrong at ``key``."""
    if not isinstance(value, dict) or not all(
        isinstance(k, str) and isinstance(v, list) and all(isinstance(s, str) for s in v) for k, v in value.items()
    ):
        raise CorpusError(
            f'{file}: {key!r} must map an oracle name to a list of signatures, e.g. {{"memory": ["memory/alloca/..."]}}'
        )
    for oracle, sigs in value.items():
        try:
            parsed = [Signature.parse(s) for s in sigs]
        except ValueError as e:
            raise CorpusError(f"{file}: {key}[{oracle!r}]: {e}") from None
        from ireefuzz.oracles.registry import switch_of

        wrong = [str(s) for s in parsed if switch_of(s.oracle) != oracle]
        if wrong:
            raise CorpusError(f"{file}: {key}[{oracle!r}] lists signatures of another oracle: {wrong}")
    return {k: tuple(v) for k, v in value.items()}


def _check_flags(flags: Any, file: Path) -> None:
    """A case file's flags go to iree-compile: none may write files (``sut.unsafe_flags``)."""
    from ireefuzz import sut

    if not isinstance(flags, (list, tuple)) or not all(isinstance(f, str) for f in flags):
        raise CorpusError(f"{file}: 'flags' must be a list of strings")
    bad = sut.unsafe_flags(flags)
    if bad:
        raise CorpusError(f"{file}: refusing flags that write files or are malformed: {bad}")


def write_case(directory: str | Path, corpus_case: CorpusCase) -> Path:
    """Write ``program.mlir`` then ``case.json`` (each atomically; case.json last, so a directory
    with a case.json always has its program). Returns the directory."""
    directory = Path(directory)
    directory.mkdir(parents=True, exist_ok=True)
    atomic_write_text(directory / PROGRAM_FILE, corpus_case.program_text())
    atomic_write_json(directory / CASE_FILE, corpus_case.to_json())
    return directory


def iter_cases(root: str | Path) -> Iterator[CorpusCase]:
    """Every case under ``root`` (any depth), in path order."""
    for file in sorted(Path(root).rglob(CASE_FILE)):
        yield load_case(file.parent)
