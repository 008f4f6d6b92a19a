"""The corpus: cases as data, each one a pytest test. This docstring is THE description of the layout.

Layout
------
One directory per case, anywhere under a corpus root (``corpus/seeds/<name>/``,
``corpus/regressions/<name>/``)::

    <name>/
      case.json      the case (below); the file pytest collects
      program.mlir   the MLIR program. For a raw-MLIR case it IS the case; for a graph case it is
                     emitted from the graph (function ``@main``) so a human can run iree-compile on it

``case.json`` is one JSON object, written atomically (temp file + fsync + rename), in one of two
forms that share the trailing keys:

* graph case: the keys of ``Case.to_json()`` -- ``graph``, ``instances`` (one ``{symbol: size}``
  per shape instance), ``seed``, ``target_cpu``, ``flags``. A repro bundle's ``case.json`` is
  therefore already a corpus case. Checked through ``ireefuzz.core.evaluate`` (numeric, immutability,
  crash, memory, fusion), plus the metamorphic relations listed in ``relations``.
* raw-MLIR case: ``"mlir": "program.mlir"`` (the program file, relative to the directory),
  ``"functions": [...]`` (public functions to check; empty = all), ``"shapes": {"fn": [[33, 16],
  [16, 49]]}`` (one concrete shape per argument for dynamic dims; default 33 each), ``seed``,
  ``target_cpu``, ``flags``. Checked through ``ireefuzz.tools.check.check_program`` (crash, memory,
  fusion, immutability, numeric via the host-vs-generic CPU relation).

Shared keys:

* ``expected``: per-oracle verdict, the finding signatures that oracle is expected to report,
  e.g. ``{"memory": ["memory/alloca/fill>matmul>generic[exp]/f32/?x?"], "numeric": []}``. An oracle
  not listed is expected to report nothing.
* ``compile_only`` (bool): compile and read the IR (memory, fusion, crash) but never run, for
  cases whose inputs would be too large (a graph case is then checked as raw MLIR).
* ``relations``: metamorphic relations to run on a graph case (``shape``, ``dps``, ``config``).
* ``ireefuzz_version``, ``iree_version``, ``cpu``: what the expectations were recorded with (``cpu``
  is what ``target_cpu`` resolved to, e.g. ``host`` -> ``znver5``). Codegen depends on the CPU: on a
  machine where it resolves differently, a verdict that does not hold is *skipped* with the reason
  (re-record there), never reported as an IREE change.
* ``note``: free text (where the case comes from, what it shows).

Under pytest every expected signature is its own item, a *strict xfail* keyed by the signature:
while IREE still shows the finding the item xfails; when IREE is fixed it XPASSes, which strict
mode turns into a failure, telling you to update the expectation. Another item per case fails on
any *unexpected* finding, with a repro (the program path and the exact iree-compile command).

The known-findings baseline (``corpus/known_findings.json``: a verdict per cause) is read and written
by ``ireefuzz.tools.baseline`` alone, for the campaign, the corpus and the plugin.

The project's own corpus ships in the wheel as package data (``ireefuzz._corpus``):
``default_root()`` and ``default_baseline()`` find it without a checkout. ``promote`` takes repro
bundles (``ireefuzz.tools.filing.bundle``) and refuses case names that are not one path component.
"""
from __future__ import annotations

import argparse
import dataclasses
import json
import re
import shlex
import shutil
from pathlib import Path
from typing import TYPE_CHECKING, Any, Iterator, Mapping, Sequence

from ireefuzz.errors import CorpusError, CorpusFailure, UsageError
from ireefuzz.base.durable import atomic_write_json, atomic_write_text, make_dir
from ireefuzz.tools.baseline import shipped
from ireefuzz.generators.graph import GraphError
from ireefuzz.oracles.finding import ORACLE_NAMES, Signature  # ORACLE_NAMES: chosen by Policy.oracles

if TYPE_CHECKING:
    from ireefuzz.generators.case import Case

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
    expected: Mapping[str, tuple[str, ...]] = dataclasses.field(default_factory=dict)
    compile_only: bool = False
    relations: tuple[str, ...] = ()
    note: str = ""
    ireefuzz_version: str = ""
    iree_version: str = ""
    cpu: str = ""  # what target_cpu resolved to when the expectations were recorded
    path: Path | None = None  # the case directory, when loaded from disk

    def __repr__(self) -> str:
        kind = "graph" if self.case is not None else "mlir"
        return f"CorpusCase({self.name}: {kind}, expected={sorted(self.expected_signatures)})"

    @property
    def is_graph(self) -> bool:
        return self.case is not None

    @property
    def expected_signatures(self) -> frozenset[str]:
        return frozenset(s for sigs in self.expected.values() for s in sigs)

    def program_text(self) -> str:
        """The MLIR program: the raw text, or the graph emitted as ``@main``."""
        if self.mlir is not None:
            return self.mlir
        from ireefuzz.generators.emit import emit

        return emit(self.case.graph).text

    def to_json(self) -> dict[str, Any]:
        if self.case is not None:
            head: dict[str, Any] = self.case.to_json()
        else:
            head = {"mlir": PROGRAM_FILE, "functions": list(self.functions),
                    "shapes": {k: [list(s) for s in v] for k, v in self.shapes.items()},
                    "seed": self.seed, "target_cpu": self.target_cpu, "flags": list(self.flags)}
        return head | {
            "expected": {k: sorted(v) for k, v in sorted(self.expected.items())},
            "compile_only": self.compile_only,
            "relations": list(self.relations),
            "ireefuzz_version": self.ireefuzz_version,
            "iree_version": self.iree_version,
            "cpu": self.cpu,
            "note": self.note,
        }


def default_root() -> Path:
    """The project's own corpus (``seeds/``, ``regressions/``, ``known_findings.json``): the copy shipped
    in the wheel (package data ``ireefuzz._corpus``), else the checkout's ``corpus/``."""
    return shipped().parent  # (the corpus is where its baseline is)


def default_baseline() -> Path:
    """The project's known-findings baseline (``known_findings.json`` of ``default_root()``)."""
    return shipped()


# --------------------------------------------------------------------------- reading and writing


def load_case(path: str | Path) -> CorpusCase:
    """Load a case from its directory or its ``case.json``; raises CorpusError (a GraphError) if malformed."""
    path = Path(path)
    directory = path.parent if path.name == CASE_FILE else path
    file = directory / CASE_FILE
    data = _read_json(file)
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
    expected = data.get("expected", {})
    if not isinstance(expected, dict) or not all(
            isinstance(k, str) and isinstance(v, list) and all(isinstance(s, str) for s in v) for k, v in expected.items()):
        raise CorpusError(f"{file}: 'expected' must map an oracle name to a list of signatures, "
                          f'e.g. {{"memory": ["memory/alloca/..."]}}')
    for oracle, sigs in expected.items():
        try:
            parsed = [Signature.parse(s) for s in sigs]
        except ValueError as e:
            raise CorpusError(f"{file}: expected[{oracle!r}]: {e}") from None
        wrong = [str(s) for s in parsed if s.oracle != oracle and not (oracle == "numeric" and s.oracle == "reference")]
        if wrong:
            raise CorpusError(f"{file}: expected[{oracle!r}] lists signatures of another oracle: {wrong}")
    relations = data.get("relations", [])
    from ireefuzz.oracles.metamorphic import RELATIONS

    if not isinstance(relations, list) or set(relations) - set(RELATIONS):
        raise CorpusError(f"{file}: 'relations' must be a list drawn from {list(RELATIONS)}")
    common = dict(
        name=directory.name,
        expected={k: tuple(v) for k, v in expected.items()},
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
    try:
        text = program.read_text(encoding="utf-8")
    except OSError as e:
        raise CorpusError(f"{file}: its program {program} cannot be read ({e.strerror})") from None
    except UnicodeDecodeError:
        raise CorpusError(f"{file}: its program {program} is not a text file") from None
    shapes = data.get("shapes", {})
    if not isinstance(shapes, dict) or not all(isinstance(v, list) and all(isinstance(s, list) for s in v)
                                               for v in shapes.values()):
        raise CorpusError(f"{file}: 'shapes' must map a function name to one shape (a list of ints) per argument")
    try:
        return CorpusCase(mlir=text, functions=tuple(data.get("functions", ())),
                          shapes={k: [tuple(int(d) for d in s) for s in v] for k, v in shapes.items()},
                          seed=int(data.get("seed", 0)), target_cpu=str(data.get("target_cpu", "host")),
                          flags=tuple(data.get("flags", ())), **common)
    except (TypeError, ValueError) as e:
        raise CorpusError(f"{file}: malformed field ({e})") from None


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


def _read_json(file: Path) -> Any:
    try:
        return json.loads(file.read_text(encoding="utf-8"))
    except OSError as e:
        raise CorpusError(f"{file}: cannot read it ({e.strerror})") from None
    except json.JSONDecodeError as e:
        raise CorpusError(f"{file}: not valid JSON (line {e.lineno}: {e.msg})") from None
    except UnicodeDecodeError:
        raise CorpusError(f"{file}: not a text file (not UTF-8); give a JSON file") from None


# --------------------------------------------------------------------------- checking


def check_case(corpus_case: CorpusCase, config: Any = None, policy: Any = None) -> list:
    """Run the oracles on one corpus case; returns Findings (one per signature)."""
    from ireefuzz import sut
    from ireefuzz.tools import check
    from ireefuzz.core.evaluate import Policy, config_for, evaluate
    from ireefuzz.oracles.finding import first_per_signature

    config = config or sut.CompilerConfig()
    policy = policy or Policy()
    if corpus_case.case is None or corpus_case.compile_only:
        if corpus_case.case is not None:
            run_config = config_for(corpus_case.case, config)
        else:
            run_config = dataclasses.replace(config, target_cpu=corpus_case.target_cpu,
                                             flags=tuple(config.flags) + corpus_case.flags)
        findings = check.check_program(corpus_case.program_text(), run_config, policy,
                                       functions=corpus_case.functions or None, shapes=dict(corpus_case.shapes),
                                       seed=corpus_case.seed, compile_only=corpus_case.compile_only)
    else:
        (result,) = evaluate([corpus_case.case], config, policy)
        findings = list(result.findings)
    if corpus_case.case is not None and not corpus_case.compile_only:
        from ireefuzz.core.relations import check_relation

        for relation in corpus_case.relations:
            findings += check_relation(relation, corpus_case.case, config)
    return first_per_signature(findings)


def verdicts(findings: Sequence[Any]) -> dict[str, list[str]]:
    """Findings -> the ``expected`` mapping (oracle -> sorted signatures)."""
    out: dict[str, list[str]] = {}
    for f in findings:
        oracle = "numeric" if f.oracle == "reference" else f.oracle
        out.setdefault(oracle, []).append(f.signature)
    return {k: sorted(set(v)) for k, v in sorted(out.items())}


def compile_command(corpus_case: CorpusCase, config: Any = None) -> str:
    """The iree-compile command line that compiles the case's program (for repro messages)."""
    from ireefuzz import sut

    config = config or sut.CompilerConfig()
    program = (corpus_case.path / PROGRAM_FILE) if corpus_case.path else Path(PROGRAM_FILE)
    cpu = corpus_case.case.target_cpu if corpus_case.case is not None else corpus_case.target_cpu
    flags = corpus_case.case.flags if corpus_case.case is not None else corpus_case.flags
    case_config = dataclasses.replace(config, target_cpu=cpu, flags=(*config.flags, *flags))
    return shlex.join(sut.compile_command(case_config, program, "/tmp/out.vmfb"))


def repro_message(corpus_case: CorpusCase, unexpected: Sequence[Any], config: Any = None) -> str:
    lines = [f"corpus case {corpus_case.name}: {len(unexpected)} unexpected finding(s)"]
    for f in unexpected:
        lines.append(f"  {f.signature}\n      {f.message}")
    program = (corpus_case.path / PROGRAM_FILE) if corpus_case.path else PROGRAM_FILE
    lines += [f"program: {program}", f"repro:   {compile_command(corpus_case, config)}",
              "(if the finding is real and triaged, add its signature to 'expected' in case.json, "
              "or re-record with corpus/make_seeds.py --record)"]
    return "\n".join(lines)


# --------------------------------------------------------------------------- pytest collection (pytest imported lazily)

_RESULTS: dict[tuple, Any] = {}
_ITEM_CLASSES: dict[str, type] = {}


def _result(corpus_case: CorpusCase, config: Any, policy: Any) -> list:
    """check_case once per (case, config, policy) per process; an exception is re-raised to every item."""
    key = (str(corpus_case.path), config, policy)
    if key not in _RESULTS:
        try:
            _RESULTS[key] = check_case(corpus_case, config, policy)
        except Exception as e:  # noqa: BLE001 - re-raised by each item of the case
            _RESULTS[key] = e
    outcome = _RESULTS[key]
    if isinstance(outcome, Exception):
        raise outcome
    return outcome


def _classes() -> dict[str, type]:
    if _ITEM_CLASSES:
        return _ITEM_CLASSES
    import pytest

    class CorpusItem(pytest.Item):
        """One check of a corpus case: ``signature=None`` -> no unexpected finding; else the expected
        ``signature`` must be absent (marked strict xfail, so it xfails while IREE shows it)."""

        def __init__(self, *, corpus_case: CorpusCase, signature: str | None, ireefuzz_config: Any, ireefuzz_policy: Any,
                     **kw: Any):
            super().__init__(**kw)
            self.corpus_case, self.signature, self.ireefuzz_config, self.ireefuzz_policy = (
                corpus_case, signature, ireefuzz_config, ireefuzz_policy)
            self.add_marker("iree")
            if signature is not None:
                self.add_marker(pytest.mark.xfail(strict=True, reason=f"known finding {signature}"))

        def runtest(self) -> None:
            findings = _result(self.corpus_case, self.ireefuzz_config, self.ireefuzz_policy)
            found = {f.signature: f for f in findings}
            holds = (self.signature in found) if self.signature is not None else not (set(found) - self.corpus_case.expected_signatures)
            if not holds:
                _skip_if_other_cpu(self.corpus_case, self.ireefuzz_config)
            if self.signature is not None:
                oracle = Signature.parse(self.signature).oracle
                oracle = "numeric" if oracle == "reference" else oracle
                if oracle in ORACLE_NAMES and oracle not in self.ireefuzz_policy.oracles:
                    pytest.skip(f"oracle {oracle} is not selected")
                if self.signature in found:
                    raise CorpusFailure(f"{self.signature} still observed: {found[self.signature].message}")
                return  # fixed in IREE: passes, and strict xfail reports XPASS(strict) as a failure
            unexpected = [f for s, f in found.items() if s not in self.corpus_case.expected_signatures]
            if unexpected:
                raise CorpusFailure(repro_message(self.corpus_case, unexpected, self.ireefuzz_config))

        def repr_failure(self, excinfo: Any, style: Any = None) -> str:
            if isinstance(excinfo.value, CorpusFailure):
                return str(excinfo.value)
            return super().repr_failure(excinfo, style)

        def reportinfo(self) -> tuple:
            return self.path, None, f"corpus {self.corpus_case.name}" + (f" [{self.signature}]" if self.signature else "")

    class CorpusFile(pytest.File):
        def collect(self) -> list:
            return collect(self, self.path)

    _ITEM_CLASSES.update(CorpusItem=CorpusItem, CorpusFile=CorpusFile)
    return _ITEM_CLASSES


def _skip_if_other_cpu(corpus_case: CorpusCase, config: Any) -> None:
    """Verdicts were recorded on another CPU: a mismatch here says nothing about IREE. Skip, saying so."""
    import pytest

    from ireefuzz import sut

    config = dataclasses.replace(config, target_cpu=corpus_case.target_cpu)
    here = sut.resolve_platform(config)[0].name
    if corpus_case.cpu and here and here != corpus_case.cpu:
        pytest.skip(f"verdicts of {corpus_case.name} were recorded where {corpus_case.target_cpu!r} is "
                    f"{corpus_case.cpu}; here it is {here}: re-record them on this machine "
                    "(python corpus/make_seeds.py --record)")



def collect(parent: Any, path: str | Path, *, config: Any = None, policy: Any = None) -> list:
    """pytest items for the case whose ``case.json`` is ``path``: one that fails on unexpected
    findings, plus one strict xfail per expected signature. ``parent`` is a pytest Collector."""
    from ireefuzz import sut
    from ireefuzz.core.evaluate import Policy

    item_cls = _classes()["CorpusItem"]
    corpus_case = load_case(Path(path).parent)
    options = parent.config.getoption
    config = config or sut.CompilerConfig(iree_compile=options("ireefuzz_iree_compile", default=None))
    if policy is None:
        chosen = options("ireefuzz_oracles", default=None) or ORACLE_NAMES
        policy = Policy(oracles=frozenset(o for o in chosen if o in ORACLE_NAMES),
                        max_static_alloca_bytes=options("ireefuzz_max_alloca", default=0) or 0)
    items = [item_cls.from_parent(parent, name=corpus_case.name, corpus_case=corpus_case, signature=None,
                                  ireefuzz_config=config, ireefuzz_policy=policy)]
    for sig in sorted(corpus_case.expected_signatures):
        items.append(item_cls.from_parent(parent, name=f"{corpus_case.name}[{sig}]", corpus_case=corpus_case,
                                          signature=sig, ireefuzz_config=config, ireefuzz_policy=policy))
    return items


def corpus_file(parent: Any, path: str | Path) -> Any:
    """A pytest File collector for one ``case.json`` (for ``pytest_collect_file`` hooks)."""
    return _classes()["CorpusFile"].from_parent(parent, path=Path(path))


# --------------------------------------------------------------------------- ireefuzz promote BUNDLE


def configure(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("bundle", metavar="BUNDLE", help="a repro bundle directory (case.json, program.mlir, finding.json)")
    parser.add_argument("--corpus", metavar="DIR", default="corpus", help="corpus root (default: ./corpus)")
    parser.add_argument("--name", metavar="NAME", default=None, help="case name (default: the bundle's directory name)")
    parser.add_argument("--note", metavar="TEXT", default="", help="a note recorded in case.json")
    parser.add_argument("--force", action="store_true", help="replace an existing case of that name")


def promote(bundle: str | Path, corpus_root: str | Path = "corpus", *, name: str | None = None, note: str = "",
            force: bool = False) -> Path:
    """Copy a repro bundle into ``<corpus_root>/regressions/<name>/`` with its finding as the expected verdict."""
    from ireefuzz import __version__
    from ireefuzz.tools.filing.bundle import Bundle

    bundle = Path(bundle)
    name = name or bundle.resolve().name
    if not re.fullmatch(r"[A-Za-z0-9][\w.+-]*", name) or ".." in name:
        raise UsageError(f"--name {name!r}: a case name is one path component of letters, digits, '_', '-', '.', '+'")
    if Path(corpus_root).exists() and not Path(corpus_root).is_dir():
        raise UsageError(f"--corpus {corpus_root}: not a directory")
    loaded = Bundle.load(bundle)
    problem = make_dir(Path(corpus_root) / "regressions", keep=False)
    if problem:
        raise UsageError(f"--corpus {corpus_root}: its regressions/ {problem}")
    if loaded.case is None:
        raise CorpusError(f"{bundle} is not a repro bundle: {CASE_FILE} is missing")
    finding, case_data = loaded.finding, dict(loaded.case)
    signature = finding["signature"]
    try:
        oracle = Signature.parse(signature).oracle
    except ValueError as e:
        raise CorpusError(f"{bundle}: its finding's {e}") from None
    oracle = "numeric" if oracle == "reference" else oracle
    target = Path(corpus_root) / "regressions" / name
    if target.exists() and not force:
        raise CorpusError(f"{target} exists; pass --force to replace it or --name to choose another")
    staged = target.with_name(f".{target.name}.staging")
    shutil.rmtree(staged, ignore_errors=True)
    staged.mkdir(parents=True)
    if "graph" not in case_data and loaded.program:
        atomic_write_text(staged / PROGRAM_FILE, loaded.program)
        case_data.setdefault("mlir", PROGRAM_FILE)
    base = _from_json(case_data, staged)
    promoted = dataclasses.replace(
        base, name=target.name, path=None, expected={oracle: (signature,)},
        ireefuzz_version=__version__, iree_version=str(finding.get("compiler_version", "") or base.iree_version),
        cpu=str((finding.get("evidence") or {}).get("platform", {}).get("cpu", "") or base.cpu),
        note=note or f"promoted from {bundle.name}: {str(finding.get('message', ''))[:200]}")
    write_case(staged, promoted)
    if loaded.program and promoted.is_graph:
        atomic_write_text(staged / "bundle_program.mlir", loaded.program)  # the bundle's own (shrunk) program
    if target.exists():
        shutil.rmtree(target)
    staged.rename(target)  # the case appears whole or not at all
    return target


def main(args: argparse.Namespace) -> int:
    target = promote(args.bundle, args.corpus, name=args.name, note=args.note, force=args.force)
    print(f"promoted {args.bundle} -> {target}")
    return 0
