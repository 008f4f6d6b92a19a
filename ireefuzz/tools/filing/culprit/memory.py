"""A memory finding (a stack or heap buffer, a copy the oracle counts as a defect): the pass that made it.

The first pass whose output holds the oracle's op (``oracles.memory.scan``, so a copy-shaped ``linalg.generic``
counts as the oracle counts it) is where it appears; ``lineage`` follows a buffer back past the passes that only
materialize it. A copy into or out of a buffer that appears with it is that buffer's: followed the same way.
Where the finding says which dispatch and which buffers it counted (its evidence), those are followed: another
dispatch's buffer, made earlier by another pass, is another finding (a gather dispatch's buffer once took the
culprit of an f16 max reduction's in the dispatch before it). A buffer bufferization made is the memory it gives a
tensor earlier passes left live: ``temporary_origin`` says where that tensor first shows (a fact for the maintainer,
not a culprit: two outsiders' reviews read bufferization as only materializing it).
"""

from __future__ import annotations

import dataclasses
from typing import TYPE_CHECKING, Any, Callable, Mapping

from ireefuzz.oracles import vocabulary

from . import lineage
from .log import Dump, dumps, first_after
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


def memory(text: str, kind: str, config: CompilerConfig, evidence: Mapping[str, Any] | None = None) -> Culprit:
    """The confirmed pass that made the oracle's ``kind`` memory op, or not localized; ``evidence``: the finding's
    (its ``dispatch`` and the ``memory_ops`` it counted), whose buffers are the ones followed."""
    code, _, log = compile_(text, config, list(AFTER_EACH_CHANGE))
    if code != 0 and "IR Dump" not in log:
        return not_localized("the program does not compile with --mlir-print-ir-after-change", method="memory")
    counted = _counted_shapes(evidence or {})
    before, after = _first_in_dispatch(log, memory_holds(kind), str((evidence or {}).get("dispatch", "")), counted)
    if after is None:
        before, after = first_after(log, memory_holds(kind))
    if after is None:
        return not_localized(f"no pass's output holds a {kind} as the memory oracle counts it", method="memory")
    what = f"the first pass whose output holds the {kind} (memory.scan) is {after.name}"
    new = [
        line
        for line in lineage.buffer_lines(after.body)
        if line not in lineage.buffer_lines(before.body if before else "")
    ]
    new = [line for line in new if lineage.shape_of(line[1]) in counted] or new
    if not new:
        return not_localized(f"{what}; no buffer appears with it to follow", "executable-targets", "memory")
    form = lineage.buffers(*new[0])
    found = lineage.localize(text, config, after.function, form, what, "memory", log)
    if found.pass_ in vocabulary.MATERIALIZING_PASSES["memory"]:
        return dataclasses.replace(found, how=f"{found.how}; {temporary_origin(log, after, new[0][1])}")
    return found


def temporary_origin(log: str, materialized: Dump, buffer_type: str) -> str:
    """Where the tensor a materializing pass (bufferization) gave a buffer to was made, as the dumps show it: the
    first pass whose output holds, in the dispatch's function, a ``tensor.empty`` / ``alloc_tensor`` of exactly
    the buffer's type that its input did not. A fact for the maintainer, not a culprit: that pass may do its job."""
    shape = lineage.shape_of(buffer_type)
    if shape is None:
        return "the tensor it gives memory to is not traced"
    dims, element = shape
    exact = lambda body: [
        line
        for line in lineage.tensor_allocations(dims, element).holds(body)
        if lineage.shape_of(line.rpartition(":")[2]) == shape
    ]
    mine = [d for d in dumps(log) if d.function == materialized.function]
    tensor = f"`tensor<{'x'.join(dims)}x{element}>`"
    for previous, d in zip([None, *mine], mine):
        if d == materialized or d.when != "After":
            break
        if exact(d.body) and not (previous is not None and exact(previous.body)):
            if previous is None:
                return f"bufferization gives memory to a {tensor} the dispatch holds from its first dump on"
            return (
                f"bufferization gives memory to a {tensor} that earlier passes left live: a tensor.empty of that "
                f"type first shows in the dispatch after `{d.name}`"
            )
    return f"no tensor.empty of exactly {tensor} precedes it in the dispatch (a larger one, tiled, may)"


def _counted_shapes(evidence: Mapping[str, Any]) -> set[tuple[tuple[str, ...], str]]:
    """(dims, element type) of each buffer the finding's oracle counted."""
    types = [m.get("type", "") for m in evidence.get("memory_ops") or () if isinstance(m, Mapping)]
    return {shape for t in types if (shape := lineage.shape_of(str(t))) is not None}


def _first_in_dispatch(
    log: str, holds: Callable[[str], bool], dispatch: str, counted: set[tuple[tuple[str, ...], str]]
) -> tuple[Dump | None, Dump | None]:
    """``first_after`` within the finding's dispatch (its function named as the finding names it, but for the
    module's prefix: ``g0_dispatch_1_...`` is this program's ``main_dispatch_1_...``), holding a counted buffer;
    (None, None) if no dump does (then any dispatch's first is taken)."""
    suffix = dispatch.partition("_dispatch_")[2]
    if not suffix:
        return None, None
    has_counted = lambda body: not counted or any(lineage.shape_of(t) in counted for _, t in lineage.buffer_lines(body))
    return first_after(
        log, lambda body: holds(body) and has_counted(body), lambda name: name.endswith(f"_dispatch_{suffix}")
    )
