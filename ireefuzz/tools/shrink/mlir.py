"""MLIR reduction for programs that did not come from the generator (a user's own ``.mlir``).

Passes of our own over the parsed IR (``iree.compiler.ir``), each a small named callable that
proposes smaller programs; pass order is data (``PASSES``). They run in the greedy loop shared with
the graph shrinker (``ireefuzz.tools.shrink.loop``). A candidate is kept when it still parses, verifies and
hits the target (a signature or a cause, ``ireefuzz.tools.shrink.graph.Target``). Interestingness runs the
oracles that need only the compiled program (crash, memory, fusion) or, for a numeric or
immutability target, every oracle through the raw-MLIR frontend (``ireefuzz.tools.check.check_program``:
drawn inputs, numbers judged by the float64 interpreter). The starting program is checked first
(``NotInteresting`` otherwise). Signatures here use ``-`` for dtype and dims (no graph is known).
"""
from __future__ import annotations

import dataclasses
import re
from typing import Any, Callable, Iterator, Sequence

from iree.compiler import ir

from ireefuzz.errors import NotInteresting
from ireefuzz.oracles.finding import Finding
from ireefuzz.tools.shrink.canonical import parse
from ireefuzz.tools.shrink.loop import shrink_greedily
from ireefuzz.tools.shrink.target import Target, as_target

Candidate = Callable[[str], Iterator[str]]
Findings = Callable[[str], Sequence[Finding]]  # a program -> its findings


RUN_ORACLES = ("numeric", "immutability")  # seen only by running the program


def program_findings(text: str, config: Any = None, *, run: bool = False) -> tuple[Finding, ...]:
    """Findings of the compile-only oracles (crash, memory, fusion) on ``text``; with ``run``, of every
    oracle as ``ireefuzz check`` runs them (a candidate it cannot feed has none)."""
    from ireefuzz import sut
    from ireefuzz.oracles import crash, fusion, memory

    config = config if config is not None else sut.CompilerConfig()
    if run:
        from ireefuzz.tools.check import check_program
        from ireefuzz.errors import ProgramError

        try:
            return tuple(check_program(text, config))
        except ProgramError:
            return ()
    artifact = sut.compile_mlir(text, config)
    if isinstance(artifact, sut.CompileFailure):
        return (crash.check_compile_failure(artifact, text),)
    return tuple(memory.check_memory(artifact.dispatches) + fusion.check_fusion(artifact.dispatches, artifact.statistics))


def _funcs(module: ir.Module) -> list[Any]:
    return [op.operation for op in module.body.operations if op.operation.name == "func.func"]


def _body_ops(module: ir.Module) -> list[Any]:
    """Every op of every function body but the terminators, in order (the reducer's op numbering)."""
    return [o.operation for f in _funcs(module) for o in list(f.regions[0].blocks[0].operations)[:-1]]


def _each_op(text: str) -> Iterator[tuple[ir.Module, Any]]:
    """(a fresh parse of ``text``, its k-th body op) for k from the last op to the first."""
    module = parse(text)
    if module is None:
        return
    for k in reversed(range(len(_body_ops(module)))):
        m = parse(text)
        yield m, _body_ops(m)[k]


def _emit(m: ir.Module) -> Iterator[str]:
    candidate = str(m)
    if parse(candidate) is not None:
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
                if parse(candidate) is not None:
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
    module = parse(text)
    ops = sum(len(list(f.regions[0].blocks[0].operations)) for f in _funcs(module)) if module is not None else 10 ** 9
    dims = sum(int(d) for m in _TENSOR.finditer(text) for d in m.group(1).split("x") if d.isdigit())
    return ops, dims, len(text)


PASSES: tuple[tuple[str, Candidate], ...] = (("bypass-ops", bypass_ops), ("drop-ops", drop_ops),
                                             ("shrink-static-dims", shrink_static_dims))


@dataclasses.dataclass(frozen=True)
class ReduceResult:
    text: str
    target: Target
    finding: Finding  # the finding the target matched on the reduced program
    steps: tuple[str, ...]
    before_chars: int
    after_chars: int
    before: tuple[int, int, int] = (0, 0, 0)  # size_key
    after: tuple[int, int, int] = (0, 0, 0)

    @property
    def signature(self) -> str:
        return self.finding.signature


def reduce_mlir(text: str, target: Target | str | None = None, *, config: Any = None,
                interesting: Findings | None = None, passes: Sequence[tuple[str, Candidate]] = PASSES,
                max_candidates: int = 200, run: bool | None = None) -> ReduceResult:
    """Shrink ``text`` while it hits ``target`` (default: the starting program's first signature).
    ``interesting`` gives a program's findings (default: ``program_findings``, which runs the program
    when ``run`` -- by default, when the target's oracle is numeric or immutability)."""
    if run is None:
        run = target is not None and as_target(target).oracle in RUN_ORACLES
    findings_of = interesting or (lambda t: program_findings(t, config, run=run))
    observed = {text: tuple(findings_of(text))}

    def judge(texts: Sequence[str]) -> list[bool]:
        for t in texts:
            if t not in observed:
                observed[t] = tuple(findings_of(t))
        return [target(observed[t]) for t in texts]

    if target is None:
        if not observed[text]:
            raise NotInteresting("the starting program shows no crash / memory / fusion finding; nothing to reduce")
        target = Target.by_signature(min(f.signature for f in observed[text]))
    target = as_target(target)
    shown = sorted(f.signature for f in observed[text]) or "nothing"
    outcome = shrink_greedily(text, judge, passes, size_key, max_evaluations=max_candidates,
                              not_interesting=f"the starting program does not show {target} (it shows {shown})")
    return ReduceResult(outcome.value, target, target.hit(observed[outcome.value]), outcome.steps, len(text),
                        len(outcome.value), size_key(text), size_key(outcome.value))
