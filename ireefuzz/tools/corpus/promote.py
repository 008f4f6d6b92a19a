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
