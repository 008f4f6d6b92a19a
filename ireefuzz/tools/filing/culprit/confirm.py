"""Confirming a culprit: the pass alone, run by ``iree-opt`` on the IR it received, shows the defect.

``received`` fetches that IR (the function the pass ran on, or the whole module when the function alone cannot
run); ``confirm`` runs the pass on it under each pipeline nesting that can reach it and keeps the first run whose
output ``shows`` the defect. The pass's options are the ones the compiler's dump header printed, so the run is the
pass as the pipeline ran it.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Callable, Sequence

from ireefuzz.oracles.vocabulary import BINDING_OP, EXECUTABLE_TARGET

from .log import Dump, dumps
from .record import BEFORE_FILE, Confirmation
from .run import ELIDE, ONE_THREAD, compile_, iree_opt

if TYPE_CHECKING:
    from ireefuzz.sut import CompilerConfig

Shows = Callable[[int | None, str, str], Sequence[str]]  # (exit status, stdout, stderr) -> the defect's lines
_FUNCTION_SCOPE = ("func.func", "util.func", "llvm.func")
_TEMP_INPUT = re.compile(r"\S*ireefuzz-opt-[^/\s]*/input\.mlir")  # what iree-opt read: the bundle's file
_IN_EXECUTABLE = "builtin.module(hal.executable(hal.executable.variant({})))"


def pipelines(spec: str, ir: str) -> list[str]:
    """The ``--pass-pipeline`` strings that can run ``spec`` on ``ir``, the most specific first."""
    head = ir.lstrip()
    for op in _FUNCTION_SCOPE:
        if head.startswith(op):
            return [f"builtin.module({op}({spec}))", f"builtin.module({spec})"]
    if head.startswith("hal.executable"):
        return []  # a variant or executable alone does not verify: its module is needed
    return [
        f"builtin.module({spec})",
        f"builtin.module(util.func({spec}))",
        f"builtin.module(func.func({spec}))",
        _IN_EXECUTABLE.format(spec),
        _IN_EXECUTABLE.format(f"builtin.module({spec})"),
        _IN_EXECUTABLE.format(f"builtin.module(func.func({spec}))"),
    ]


def confirm(spec: str, ir: str, config: CompilerConfig, shows: Shows) -> tuple[Confirmation | None, str]:
    """(the confirmation, the pass's output IR) of the first nesting whose ``iree-opt`` run ``shows`` the defect."""
    for pipeline in pipelines(spec, ir):
        code, out, err = iree_opt(ir, pipeline, config)
        lines = [_TEMP_INPUT.sub(BEFORE_FILE, line) for line in shows(code, out, err) if line.strip()]
        if lines:
            return Confirmation(pipeline, tuple(lines)), out
    return None, ""


def _function_scoped(d: Dump) -> bool:
    """The pass ran on one function: its dump prints a function (in custom or generic form) or its header says so."""
    head = d.body.lstrip().removeprefix('"')
    return head.startswith(_FUNCTION_SCOPE) or d.anchor in _FUNCTION_SCOPE


def _key(d: Dump) -> tuple[str, ...]:
    """What identifies a pass's runs: its name, and the function it ran on when it ran on one."""
    return (d.name, d.function) if _function_scoped(d) else (d.name,)


def occurrence(logged: Sequence[Dump], i: int) -> int:
    """How many runs of the pass of ``logged[i]`` (on its function) come before it."""
    return sum(1 for x in logged[:i] if x.when == logged[i].when and _key(x) == _key(logged[i]))


def received(text: str, config: CompilerConfig, d: Dump, k: int, *, module_scope: bool) -> str | None:
    """The IR the ``k``-th run of ``d``'s pass received (function scope, or the whole module), printed by
    ``--mlir-print-ir-before``; None if that run is not printed."""
    flags = [f"--mlir-print-ir-before={d.name}", ONE_THREAD, ELIDE]
    _, _, err = compile_(text, config, flags + (["--mlir-print-ir-module-scope"] if module_scope else []))
    runs = [x for x in dumps(err) if x.when == "Before" and x.name == d.name]
    if d.function and _function_scoped(d):
        runs = [x for x in runs if x.function == d.function]
    return runs[k].body if k < len(runs) else None


def confirm_received(
    text: str, config: CompilerConfig, d: Dump, k: int, before: str, shows: Shows
) -> tuple[Confirmation | None, str, str]:
    """``confirm`` on ``before`` (the function the pass received), then on the whole module it received: (the
    confirmation, the IR it ran on, the pass's output). A dispatch function without its executable target (which a
    test of it needs to parse as IREE compiles it) is tried after the module."""
    module: str | None = None
    if before and BINDING_OP in before and EXECUTABLE_TARGET not in before:
        module = received(text, config, d, k, module_scope=True)
        found, out = confirm(d.spec or d.name, module, config, shows) if module else (None, "")
        if found is not None and module is not None:
            return found, module, out
    found, out = confirm(d.spec or d.name, before, config, shows) if before else (None, "")
    if found is not None:
        return found, before, out
    module = module if module is not None else received(text, config, d, k, module_scope=True)
    if module is None:
        return None, before, ""
    found, out = confirm(d.spec or d.name, module, config, shows)
    return found, (module if found else before), out
