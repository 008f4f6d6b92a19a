"""MLIR reduction for programs that did not come from the generator (a user's own ``.mlir``).

Passes of our own over the parsed IR (``iree.compiler.ir``), each a small named callable that
proposes smaller programs; pass order is data (``PASSES``). A candidate is kept when it still
parses, verifies and shows the same signature. Interestingness runs the oracles that need only the
compiled program (crash, memory, fusion); the starting program is checked first
(``NotInteresting`` otherwise). Signatures here use ``-`` for dtype and dims (no graph is known).
"""
from __future__ import annotations

import dataclasses
import re
from typing import Any, Callable, Iterator, Sequence

from iree.compiler import ir

from ireefuzz.shrink import NotInteresting

Candidate = Callable[[str], Iterator[str]]


def program_signatures(text: str, config: Any = None) -> frozenset[str]:
    """Signatures of the compile-only oracles (crash, memory, fusion) on ``text``."""
    from ireefuzz import sut
    from ireefuzz.oracles import crash, fusion, memory

    config = config if config is not None else sut.CompilerConfig()
    artifact = sut.compile_mlir(text, config)
    if isinstance(artifact, sut.CompileFailure):
        return frozenset({crash.check_compile_failure(artifact, text).signature})
    findings = memory.check_memory(artifact.dispatches) + fusion.check_fusion(artifact.dispatches, artifact.statistics)
    return frozenset(f.signature for f in findings)


def _parse(text: str) -> ir.Module | None:
    ctx = ir.Context()
    try:
        module = ir.Module.parse(text, ctx)
        return module if module.operation.verify() else None
    except (ir.MLIRError, ValueError):
        return None


def _funcs(module: ir.Module) -> list[Any]:
    return [op.operation for op in module.body.operations if op.operation.name == "func.func"]


def _body_ops(module: ir.Module) -> list[Any]:
    """Every op of every function body but the terminators, in order (the reducer's op numbering)."""
    return [o.operation for f in _funcs(module) for o in list(f.regions[0].blocks[0].operations)[:-1]]


def _each_op(text: str) -> Iterator[tuple[ir.Module, Any]]:
    """(a fresh parse of ``text``, its k-th body op) for k from the last op to the first."""
    module = _parse(text)
    if module is None:
        return
    for k in reversed(range(len(_body_ops(module)))):
        m = _parse(text)
        yield m, _body_ops(m)[k]


def _emit(m: ir.Module) -> Iterator[str]:
    candidate = str(m)
    if _parse(candidate) is not None:
        yield candidate


def drop_ops(text: str) -> Iterator[str]:
    """Replace one op's results by new function arguments (last op first), then drop dead ops."""
    for m, op in _each_op(text):
        if not op.results or any(not isinstance(r.type, ir.RankedTensorType) or not r.type.has_static_shape
                                 for r in op.results):
            continue
        f = op.parent
        block = f.regions[0].blocks[0]
        with m.context, ir.Location.unknown():
            for r in op.results:
                r.replace_all_uses_with(block.add_argument(r.type, ir.Location.unknown()))
            op.erase()
            _erase_dead(block)
            ftype = ir.FunctionType(ir.TypeAttr(f.attributes["function_type"]).value)
            f.attributes["function_type"] = ir.TypeAttr.get(ir.FunctionType.get(
                [a.type for a in block.arguments], list(ftype.results)))
        yield from _emit(m)


def _erase_dead(block: Any) -> None:
    changed = True
    while changed:
        changed = False
        for op in reversed([o.operation for o in block.operations][:-1]):
            if op.results and all(not list(r.uses) for r in op.results):
                op.erase()
                changed = True


_TENSOR = re.compile(r"tensor<([0-9x?]+)x")


def shrink_static_dims(text: str) -> Iterator[str]:
    """Every ``tensor<...>`` occurrence of one static size d at once -> 1, d/2, d-1."""
    values = sorted({int(d) for m in _TENSOR.finditer(text) for d in m.group(1).split("x") if d.isdigit() and int(d) > 1},
                    reverse=True)
    for d in values:
        for smaller in dict.fromkeys((1, d // 2, d - 1)):
            if 0 < smaller < d:
                swap = lambda m: "tensor<" + "x".join(str(smaller) if p == str(d) else p for p in m.group(1).split("x")) + "x"
                candidate = _TENSOR.sub(swap, text)
                if _parse(candidate) is not None:
                    yield candidate


def bypass_ops(text: str) -> Iterator[str]:
    """Replace a one-result op by one of its operands of the same type (``tanh(x)`` -> ``x``)."""
    for m, op in _each_op(text):
        if len(op.results) != 1:
            continue
        block = op.parent.regions[0].blocks[0]
        operand = next((v for v in op.operands if v.type == op.results[0].type), None)
        if operand is not None:
            op.results[0].replace_all_uses_with(operand)
            op.erase()
            _erase_dead(block)
            yield from _emit(m)


def size_key(text: str) -> tuple[int, int, int]:
    """(ops, sum of static tensor dims, characters): smaller is simpler."""
    module = _parse(text)
    ops = sum(len(list(f.regions[0].blocks[0].operations)) for f in _funcs(module)) if module is not None else 10 ** 9
    dims = sum(int(d) for m in _TENSOR.finditer(text) for d in m.group(1).split("x") if d.isdigit())
    return ops, dims, len(text)


PASSES: tuple[tuple[str, Candidate], ...] = (("bypass-ops", bypass_ops), ("drop-ops", drop_ops),
                                             ("shrink-static-dims", shrink_static_dims))


@dataclasses.dataclass(frozen=True)
class ReduceResult:
    text: str
    signature: str
    steps: tuple[str, ...]
    before_chars: int
    after_chars: int
    before: tuple[int, int, int] = (0, 0, 0)  # size_key
    after: tuple[int, int, int] = (0, 0, 0)


def reduce_mlir(text: str, signature: str | None = None, *, config: Any = None,
                interesting: Callable[[str], frozenset[str]] | None = None,
                passes: Sequence[tuple[str, Candidate]] = PASSES, max_candidates: int = 200) -> ReduceResult:
    """Shrink ``text`` while it keeps ``signature`` (default: the starting program's only / first one)."""
    signatures_of = interesting or (lambda t: program_signatures(t, config))
    start = signatures_of(text)
    if signature is None:
        if not start:
            raise NotInteresting("the starting program shows no crash / memory / fusion finding; nothing to reduce")
        signature = sorted(start)[0]
    elif signature not in start:
        raise NotInteresting(f"the starting program does not show {signature} (it shows {sorted(start) or 'nothing'})")
    current, steps, tried = text, [], 0
    progress = True
    while progress and tried < max_candidates:
        progress = False
        for name, propose in passes:
            for candidate in propose(current):
                tried += 1
                if size_key(candidate) < size_key(current) and signature in signatures_of(candidate):
                    current, progress = candidate, True
                    steps.append(name)
                    break
                if tried >= max_candidates:
                    break
    return ReduceResult(current, signature, tuple(steps), len(text), len(current), size_key(text), size_key(current))
