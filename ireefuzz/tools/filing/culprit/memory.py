"""A memory finding (a stack or heap buffer, a copy the oracle counts as a defect): the pass that made it.

The first pass whose output holds the oracle's op (``oracles.memory.scan``, so a copy-shaped ``linalg.generic``
counts as the oracle counts it) is where it appears; ``lineage`` follows a buffer back past the passes that only
materialize it. A copy into or out of a buffer that appears with it is that buffer's: followed the same way.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Callable

from . import lineage
from .log import first_after
from .record import Culprit, not_localized
from .run import AFTER_EACH_CHANGE, compile_

if TYPE_CHECKING:
    from ireefuzz.sut import CompilerConfig


def memory_holds(kind: str) -> Callable[[str], bool]:
    """Whether an IR dump holds a memory op of finding kind ``kind`` as the memory oracle counts it
    (``oracles.memory.scan`` + ``finding_kind``; a dump it cannot parse: by the op's name)."""
    from ireefuzz.oracles import memory as oracle

    names = {"copy": ("memref.copy", "linalg.copy", "linalg.generic"), "alloc": ("memref.alloc(",)}.get(
        kind, ("memref.alloca",)
    )

    def holds(body: str) -> bool:
        if not any(n in body for n in names):
            return False
        try:
            found = oracle.scan(body)
        except Exception:  # noqa: BLE001 -- a dump the bindings cannot parse alone
            return kind != "copy" and any(n in body for n in names)
        return any(oracle.finding_kind(m) == kind or (kind.startswith("alloca") and m.kind == "alloca") for m in found)

    return holds


def memory(text: str, kind: str, config: CompilerConfig) -> Culprit:
    """The confirmed pass that made the oracle's ``kind`` memory op, or not localized."""
    code, _, log = compile_(text, config, list(AFTER_EACH_CHANGE))
    if code != 0 and "IR Dump" not in log:
        return not_localized("the program does not compile with --mlir-print-ir-after-change", method="memory")
    before, after = first_after(log, memory_holds(kind))
    if after is None:
        return not_localized(f"no pass's output holds a {kind} as the memory oracle counts it", method="memory")
    what = f"the first pass whose output holds the {kind} (memory.scan) is {after.name}"
    new = [
        line
        for line in lineage.buffer_lines(after.body)
        if line not in lineage.buffer_lines(before.body if before else "")
    ]
    if not new:
        return not_localized(f"{what}; no buffer appears with it to follow", "executable-targets", "memory")
    form = lineage.buffers(*new[0])
    return lineage.localize(text, config, after.function, form, what, "memory", log)
