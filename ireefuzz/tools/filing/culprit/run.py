"""Running IREE for the culprit search, through ``sut`` only: ``iree-compile`` with dump flags, ``iree-opt`` with one
pass; the ``--compile-to`` phases.
"""

from __future__ import annotations

import tempfile
from pathlib import Path
from typing import Sequence

from ireefuzz import sut
from ireefuzz.sut import launch, opt

PHASES = (
    "input",
    "abi",
    "preprocessing",
    "global-optimization",
    "dispatch-creation",
    "flow",
    "stream",
    "executable-sources",
    "executable-targets",
    "hal",
    "vm",
    "end",
)
INTERPRETED_PHASES = PHASES[:6]  # the phases whose IR unwraps to plain functions of tensors (``unwrap``)
ONE_THREAD = "--mlir-disable-threading"  # dumps in the order the passes ran
# Big constants elided (their dumps would not parse for values, and a pass test on them could not run); a reduced
# program has none this large.
ELIDE = "--mlir-elide-elementsattrs-if-larger=65536"
AFTER_EACH_CHANGE = ("--mlir-print-ir-after-all", "--mlir-print-ir-after-change", ONE_THREAD, ELIDE)
AFTER_EACH = ("--mlir-print-ir-after-all", ONE_THREAD, ELIDE)  # every pass, those that changed nothing too
CRASH_MARKERS = ("Stack dump:", "PLEASE submit a bug report", "Please report issues to")


def compile_(text: str, config: sut.CompilerConfig, extra: Sequence[str]) -> tuple[int | None, str, str]:
    """(exit status, stdout, stderr) of iree-compile on ``text`` with the config's target and flags plus ``extra``;
    under ``--compile-to`` stdout is the IR it wrote."""
    with tempfile.TemporaryDirectory(prefix="ireefuzz-culprit-") as tmp:
        source = Path(tmp) / "program.mlir"
        source.write_text(text)
        output = Path(tmp) / "out"
        command = sut.compile_command(config, source, output, extra, binary=sut.find_iree_compile(config))
        code, out, err = launch.run(
            command, timeout=config.timeout_s, memory_limit_mb=config.memory_limit_mb, scratch=tmp
        )
        if code == 0 and output.exists() and any(e.startswith("--compile-to") for e in extra):
            out = output.read_text(errors="replace")
    return code, out, err


def iree_opt(
    text: str, pipeline: str, config: sut.CompilerConfig, extra: Sequence[str] = ()
) -> tuple[int | None, str, str]:
    return opt.run_pipeline(text, pipeline, config, extra)


def crashed(code: int | None, err: str) -> bool:
    """Killed by a signal, or the compiler's own crash report (a timeout is not a crash: code None)."""
    return (code is not None and code < 0) or any(m in err for m in CRASH_MARKERS)


def failing_phase(text: str, config: sut.CompilerConfig) -> str | None:
    """The first ``--compile-to`` phase whose compile fails (None: every phase compiles)."""
    for phase in PHASES[:-1]:
        code, _, _ = compile_(text, config, [f"--compile-to={phase}"])
        if code != 0:
            return phase
    code, _, _ = compile_(text, config, [])
    return "end" if code != 0 else None


def phase_ir(text: str, config: sut.CompilerConfig, phase: str) -> str | None:
    code, out, _ = compile_(text, config, [f"--compile-to={phase}"])
    return out if code == 0 else None


def phase_of(function: str) -> str | None:
    """The phase a function's pass runs in, as far as its name tells: a dispatch's is codegen."""
    return "executable-targets" if "_dispatch_" in function else None


def phase_of_pass(text: str, config: sut.CompilerConfig, name: str) -> str | None:
    """The first ``--compile-to`` phase (input .. flow) whose run of ``text`` runs the pass ``name``."""
    for phase in INTERPRETED_PHASES:
        _, _, err = compile_(text, config, [f"--compile-to={phase}", f"--mlir-print-ir-after={name}", ONE_THREAD])
        if f": {name}" in err and "IR Dump After" in err:
            return phase
    return None
