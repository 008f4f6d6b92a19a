"""``ireefuzz promote BUNDLE``: a repro bundle added to the corpus as a regression case."""

from __future__ import annotations

import argparse
import dataclasses
import re
import shutil
from pathlib import Path

from ireefuzz.base.durable import atomic_write_text, make_dir
from ireefuzz.errors import CorpusError, UsageError
from ireefuzz.oracles.finding import Signature
from ireefuzz.tools.corpus.format import CASE_FILE, PROGRAM_FILE, _from_json, write_case


def configure(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "bundle", metavar="BUNDLE", help="a repro bundle directory (case.json, program.mlir, finding.json)"
    )
    parser.add_argument("--corpus", metavar="DIR", default="corpus", help="corpus root (default: ./corpus)")
    parser.add_argument("--name", metavar="NAME", default=None, help="case name (default: the bundle's directory name)")
    parser.add_argument("--note", metavar="TEXT", default="", help="a note recorded in case.json")
    parser.add_argument("--force", action="store_true", help="replace an existing case of that name")


def promote(
    bundle: str | Path,
    corpus_root: str | Path = "corpus",
    *,
    name: str | None = None,
    note: str = "",
    force: bool = False,
) -> Path:
    """Copy a repro bundle into ``<corpus_root>/regressions/<name>/`` with its finding as the expected verdict."""
    from ireefuzz import __version__
    from ireefuzz.tools.filing.bundle import Bundle

    bundle = Path(bundle)
    given, name = name, name or bundle.resolve().name
    if not re.fullmatch(r"[A-Za-z0-9][\w.+-]*", name) or ".." in name:
        rule = "a case name is one path component of letters, digits, '_', '-', '.', '+'"
        if given is None:  # the name came from the folder: say so, and how to give one
            raise UsageError(f"{bundle}: the bundle folder's name {name!r} is no case name ({rule}); pass --name NAME")
        raise UsageError(f"--name {name!r}: {rule}")
    if Path(corpus_root).exists() and not Path(corpus_root).is_dir():
        raise UsageError(f"--corpus {corpus_root}: not a directory")
    loaded = Bundle.load(bundle)
    problem = make_dir(Path(corpus_root) / "regressions", keep=False)
    if problem:
        raise UsageError(f"--corpus {corpus_root}: its regressions/ {problem}")
    if loaded.case is None:
        raise CorpusError(f"{bundle} is not a repro bundle: {CASE_FILE} is missing")
    finding, case_data = loaded.finding, dict(loaded.case)
    program = _bundle_program(bundle, case_data, loaded.program)  # read from inside the bundle only, and MLIR
    signature = finding["signature"]
    try:
        oracle = Signature.parse(signature).oracle
    except ValueError as e:
        raise CorpusError(f"{bundle}: its finding's {e}") from None
    from ireefuzz.oracles.registry import switch_of

    oracle = switch_of(oracle)
    target = Path(corpus_root) / "regressions" / name
    if target.exists() and not force:
        raise CorpusError(f"{target} exists; pass --force to replace it or --name to choose another")
    staged = target.with_name(f".{target.name}.staging")
    shutil.rmtree(staged, ignore_errors=True)
    staged.mkdir(parents=True)
    if "graph" not in case_data:
        atomic_write_text(staged / PROGRAM_FILE, program)
        case_data["mlir"] = PROGRAM_FILE  # the program just copied, never a path the bundle names
    base = _from_json(case_data, staged)
    promoted = dataclasses.replace(
        base,
        name=target.name,
        path=None,
        expected={oracle: (signature,)},
        ireefuzz_version=__version__,
        iree_version=str(finding.get("compiler_version", "") or base.iree_version),
        cpu=str((finding.get("evidence") or {}).get("platform", {}).get("cpu", "") or base.cpu),
        note=note or f"promoted from {bundle.name}: {str(finding.get('message', ''))[:200]}",
    )
    write_case(staged, promoted)
    if program and promoted.is_graph:
        atomic_write_text(staged / "bundle_program.mlir", program)  # the bundle's own (shrunk) program
    if target.exists():
        shutil.rmtree(target)
    staged.rename(target)  # the case appears whole or not at all
    return target


def _bundle_program(bundle: Path, case_data: dict, text: str) -> str:
    """The bundle's own ``program.mlir`` (empty for a graph bundle without one), checked: a regular file inside
    the bundle (no symlink out of it), MLIR that parses. A raw case's ``mlir`` key may name only that file: a
    bundle one received must not copy ``/etc/passwd`` (or any file outside it) into a corpus that gets committed."""
    root = bundle.resolve()
    named = case_data.get("mlir")
    if named is not None and "graph" not in case_data:
        target = (bundle / str(named)).resolve()
        if target != (root / PROGRAM_FILE) or not isinstance(named, str):
            raise CorpusError(
                f"{bundle / CASE_FILE}: 'mlir' names {named!r}; a bundle's program is its own "
                f"{PROGRAM_FILE} (nothing outside the bundle is read)"
            )
    path = bundle / PROGRAM_FILE
    if not path.exists():
        if "graph" not in case_data:
            raise CorpusError(f"{bundle} has no {PROGRAM_FILE}: a raw-MLIR bundle's case is its program")
        return ""
    if path.is_symlink() or not path.is_file() or path.resolve().parent != root:
        raise CorpusError(f"{path}: not a regular file inside the bundle (a link out of it is not followed)")
    _check_mlir(text, path, is_the_case="graph" not in case_data)
    return text


def _check_mlir(text: str, where: Path, *, is_the_case: bool) -> None:
    """``text`` parses as MLIR (with a public function to check when it is the case itself), else CorpusError."""
    from ireefuzz.base.mlir_text import too_deep
    from ireefuzz.core.frontends import signatures
    from ireefuzz.errors import ProgramError

    try:
        if is_the_case:
            signatures(text)
        else:  # a graph case's copy of its bundle's program: any MLIR module
            from iree.compiler import ir

            deep = too_deep(text)
            if deep:
                raise ProgramError(deep)
            try:
                ir.Module.parse(text, ir.Context())
            except ir.MLIRError as e:
                raise ProgramError(str(e)) from None
    except ProgramError as e:
        raise CorpusError(
            f"{where}: not an MLIR program ireefuzz can promote ({str(e).splitlines()[0][:200]})"
        ) from None


def main(args: argparse.Namespace) -> int:
    target = promote(args.bundle, args.corpus, name=args.name, note=args.note, force=args.force)
    print(f"promoted {args.bundle} -> {target}")
    return 0
