"""A program's canonical form: the same minimized program, whatever its function names and SSA numbering."""

from __future__ import annotations

import hashlib
import re

from iree.compiler import ir

from ireefuzz.generators.case import Case
from ireefuzz.generators.emit import emit


def parse(text: str) -> ir.Module | None:
    """``text`` parsed and verified, or None."""
    ctx = ir.Context()
    try:
        module = ir.Module.parse(text, ctx)
        return module if module.operation.verify() else None
    except (ir.MLIRError, ValueError):
        return None


_FUNC = re.compile(r"func\.func\s+(?:(?:private|public|nested)\s+)?@([\w$.]+)")


def canonical_key(program: Case | str) -> str:
    """A hash of the program up to function names and SSA numbering (and with the case's target CPU
    and flags when not the defaults): two minimized programs with the same key are the same program."""
    text, context = program if isinstance(program, str) else emit(program.graph, "main").text, ""
    if isinstance(program, Case) and (program.flags or program.target_cpu != "host"):
        context = f"\n// cpu={program.target_cpu} flags={list(program.flags)}"
    text = _printed(text)
    names = {name: f"@f{k}" for k, name in enumerate(dict.fromkeys(_FUNC.findall(text)))}
    text = re.sub(r"@([\w$.]+)", lambda m: names.get(m.group(1), m.group(0)), text)
    return hashlib.sha256((text + context).encode()).hexdigest()[:16]


def _printed(text: str) -> str:
    """``text`` as the MLIR printer writes it (SSA values renumbered), or stripped if it does not parse."""
    module = parse(text)
    return str(module) if module is not None else "\n".join(line.strip() for line in text.strip().splitlines())
