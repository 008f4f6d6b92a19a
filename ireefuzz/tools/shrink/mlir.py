"""MLIR reduction for programs that did not come from the generator (a user's own ``.mlir``).

Passes of our own over the parsed IR (``iree.compiler.ir``), each a small named callable that
proposes smaller programs; pass order is data (``PASSES``). They run in the greedy loop shared with
the graph shrinker (``ireefuzz.tools.shrink.loop``). A candidate is kept when it still parses, verifies and
hits the target (a signature or a cause, ``ireefuzz.tools.shrink.graph.Target``). Interestingness runs the
oracles that need only the compiled program (crash, memory, fusion) or, for a numeric or
immutability target, every oracle through the raw-MLIR frontend (``ireefuzz.tools.check.check_program``:
drawn inputs, numbers judged by the float64 interpreter). The starting program is checked first
(``NotInteresting`` otherwise). Signatures here use ``-`` for dtype and dims (no graph is known).

Simpler is smaller by ``size_key`` (``Size``): fewer ops that compute, then fewer arguments, dynamic dims, static
sizes, f16 / bf16 / i64 types, characters. So a static type is a step down from a dynamic one of any size, a
``tensor.empty`` from an argument nothing reads, f32 from f16 (as a reviewer reads the repro: no dtype, dynamic dim
or input it does not need).

A step never makes a defined program undefined (as C-Reduce rejects one that adds undefined behaviour): a
candidate whose values the interpreter finds undefined on its drawn inputs (``undefined_values``: a read of a
``tensor.empty`` nothing wrote, an out-of-bounds index, a comparison on NaN whose order decides a result) is not
interesting, whatever it shows, unless the starting program was undefined too.
"""

from __future__ import annotations

import dataclasses
import re
from typing import TYPE_CHECKING, Any, Callable, Iterator, NamedTuple, Sequence

from iree.compiler import ir

from ireefuzz.base.mlir_text import split_top_level
from ireefuzz.errors import NotInteresting
from ireefuzz.oracles.finding import Finding
from ireefuzz.oracles.ir import walk
from ireefuzz.oracles.registry import SPECS
from ireefuzz.tools.shrink.canonical import parse
from ireefuzz.tools.shrink.loop import shrink_greedily
from ireefuzz.tools.shrink.target import Target, as_target

if TYPE_CHECKING:
    from ireefuzz.sut import CompilerConfig

Candidate = Callable[[str], Iterator[str]]
Findings = Callable[[str], Sequence[Finding]]  # a program -> its findings


def needs_run(target: Target) -> bool:
    """Whether the target is seen only by running the program (its oracle's ``OracleSpec.reads_run``)."""
    oracle, kind = (target.value.split("/") + [""])[:2]
    spec = SPECS.get(target.oracle or oracle)
    return spec is not None and spec.reads_run(kind)


def program_findings(text: str, config: CompilerConfig | None = None, *, run: bool = False) -> tuple[Finding, ...]:
    """Findings of the compile-only oracles (crash, memory, fusion) on ``text``; with ``run``, of every
    oracle as ``ireefuzz check`` runs them (a candidate it cannot feed has none)."""
    from ireefuzz import sut
    from ireefuzz.oracles import crash, fusion, memory

    config = config if config is not None else sut.CompilerConfig()
    if run:
        from ireefuzz.errors import ProgramError
        from ireefuzz.tools.check import check_program

        try:
            return tuple(check_program(text, config))
        except ProgramError:
            return ()
    artifact = sut.compile_mlir(text, config)
    if isinstance(artifact, sut.CompileFailure):
        return (crash.check_compile_failure(artifact, text),)
    return tuple(
        memory.check_memory(artifact.dispatches) + fusion.check_fusion(artifact.dispatches, artifact.statistics)
    )


def undefined_values(text: str, shapes: Any = None, seed: int = 0) -> str | None:
    """Why the program's values are undefined on the inputs ``check`` draws for it at ``shapes`` from ``seed``
    (``@f: reads undefined values (...)``, an out-of-bounds index, ...), or None: defined, or the interpreter cannot
    tell (an op it lacks, shapes its ops cannot take)."""
    from ireefuzz.core.frontends import NotJudged, program_cases, reference_outputs
    from ireefuzz.errors import ProgramError

    try:
        cases = program_cases(text, shapes=shapes, seed=seed)
    except (ProgramError, ValueError):
        return None
    for case in cases:
        if case.args is None:
            continue
        try:
            reference = reference_outputs(text, case.function, case.inputs())
        except (ProgramError, ValueError, TypeError):  # not judged here: neither defined nor undefined
            continue
        if isinstance(reference, NotJudged) and reference.undefined:
            return f"@{case.function}: {reference.reason}"
    return None


def _funcs(module: ir.Module) -> list[Any]:
    return [op.operation for op in module.body.operations if op.operation.name == "func.func"]


def _body_ops(module: ir.Module) -> list[Any]:
    """Every op of every function body but the terminators, in order (the reducer's op numbering)."""
    return [o.operation for f in _funcs(module) for o in list(f.regions[0].blocks[0].operations)[:-1]]


def _reparse(text: str) -> ir.Module:
    """A fresh parse of ``text``, which parsed before: each candidate edits its own copy."""
    module = parse(text)
    assert module is not None, "a program that parsed once parses again"
    return module


def _each_op(text: str) -> Iterator[tuple[ir.Module, Any]]:
    """(a fresh parse of ``text``, its k-th body op) for k from the last op to the first."""
    module = parse(text)
    if module is None:
        return
    for k in reversed(range(len(_body_ops(module)))):
        m = _reparse(text)
        yield m, _body_ops(m)[k]


def _emit(m: ir.Module) -> Iterator[str]:
    try:
        if not m.operation.verify():
            return
    except ir.MLIRError:
        return
    candidate = str(m)
    if parse(candidate) is not None:
        yield candidate


def drop_ops(text: str) -> Iterator[str]:
    """Replace one op's results by new function arguments (last op first), then drop dead ops."""
    for m, op in _each_op(text):
        if not op.results or any(
            not isinstance(r.type, ir.RankedTensorType) or not r.type.has_static_shape for r in op.results
        ):
            continue
        f = op.parent
        block = f.regions[0].blocks[0]
        with m.context, ir.Location.unknown():
            for r in op.results:
                r.replace_all_uses_with(block.add_argument(r.type, ir.Location.unknown()))
            op.erase()
            _erase_dead(block)
            ftype = ir.FunctionType(ir.TypeAttr(f.attributes["function_type"]).value)
            f.attributes["function_type"] = ir.TypeAttr.get(
                ir.FunctionType.get([a.type for a in block.arguments], list(ftype.results))
            )
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
    values = sorted(
        {int(d) for m in _TENSOR.finditer(text) for d in m.group(1).split("x") if d.isdigit() and int(d) > 1},
        reverse=True,
    )
    for d in values:
        for smaller in dict.fromkeys((1, 2, d // 2, d - 1)):
            if 0 < smaller < d:
                swap = lambda m: (
                    "tensor<" + "x".join(str(smaller) if p == str(d) else p for p in m.group(1).split("x")) + "x"
                )
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


def drop_casts(text: str) -> Iterator[str]:
    """A ``tensor.cast`` replaced by its operand, last first; a function that returned it returns the operand (its
    result type, and its callers' calls, changed); a use that does not take the operand's type does not verify."""
    for m, op in _each_op(text):
        if op.name != "tensor.cast":
            continue
        f, returned = op.parent, any(u.owner.name == "func.return" for u in op.results[0].uses)
        with m.context, ir.Location.unknown():
            op.results[0].replace_all_uses_with(op.operands[0])
            op.erase()
            if returned:
                retype_results(m, f)
        yield from _emit(m)


def return_operands(text: str) -> Iterator[str]:
    """A returned op's consumer dropped: the function returns one of the op's tensor operands instead (its result
    types, and its callers', changed), and what only the op fed goes (the review: the reversed-map tiling bug kept a
    reduction that lived in another dispatch and was not needed)."""
    module = parse(text)
    if module is None:
        return
    for fi, f in enumerate(_funcs(module)):
        ret = list(f.regions[0].blocks[0].operations)[-1].operation
        for k, value in enumerate(ret.operands):
            if isinstance(value.owner, ir.Block):  # an argument
                continue
            owner = value.owner.operation
            for j, operand in enumerate(owner.operands):
                if not isinstance(operand.type, ir.RankedTensorType) or operand.type == value.type:
                    continue  # same type: bypass-ops proposes it
                m = _reparse(text)
                g = _funcs(m)[fi]
                block = g.regions[0].blocks[0]
                end = list(block.operations)[-1].operation
                with m.context, ir.Location.unknown():
                    end.operands[k] = end.operands[k].owner.operation.operands[j]
                    _erase_dead(block)
                    retype_results(m, g)
                yield from _emit(m)


def retype_results(m: ir.Module, f: Any) -> None:
    """Function ``f``'s result types made those its return passes, and so on up its callers: each call of a
    retyped function takes its new types, and a caller that returns what the call gives is retyped in turn."""
    todo = [f]
    while todo:
        g = todo.pop()
        ret = list(g.regions[0].blocks[0].operations)[-1].operation
        results = [v.type for v in ret.operands]
        ftype = ir.FunctionType(ir.TypeAttr(g.attributes["function_type"]).value)
        if list(ftype.results) == results:
            continue
        g.attributes["function_type"] = ir.TypeAttr.get(ir.FunctionType.get(list(ftype.inputs), results))
        for op in walk(m.operation):
            if op.name == "func.call" and ir.FlatSymbolRefAttr(op.attributes["callee"]).value == _name(g):
                for r, t in zip(op.results, results):
                    r.set_type(t)
                todo += [caller for caller in [_function_of(op)] if caller is not None]


def _function_of(op: Any) -> Any:
    """The ``func.func`` ``op`` is in, or None."""
    while op is not None and op.name != "func.func":
        op = op.parent
    return op


class Size(NamedTuple):
    """A program's size (``size_key``), compared field by field: smaller is simpler."""

    ops: int  # body ops but leaves (``is_leaf``), terminators included
    arguments: int  # function arguments: the inputs a reproducer feeds (a tensor.empty in place of one is simpler)
    dynamic_dims: int  # ``?`` dims: one counts more than any static size (``make_dims_static`` is a step down)
    static_dims: int  # the sum of static tensor dims
    dtypes: int  # element types where a plainer one may do (``UNUSUAL_DTYPES``: f16 where f32 may do)
    chars: int


# what widen_float_types / narrow_integer_types change: a scalar type, or a tensor's element type (``2x2xf16``)
UNUSUAL_DTYPES = re.compile(r"(?:(?<!\w)|(?<=[\d?]x))(?:b?f16|i64)\b")


def is_leaf(op: Any) -> bool:
    """Whether ``op`` computes nothing: a ``tensor.empty``, a scalar or splat constant. As simple as an argument and
    needing no input: ``drop_ops`` turning one into an argument is no step down, a ``tensor.empty`` in place of an
    argument nothing reads is one."""
    if op.name != "arith.constant":
        return op.name == "tensor.empty"
    value = op.attributes["value"]
    return isinstance(value, (ir.FloatAttr, ir.IntegerAttr)) or (
        isinstance(value, ir.DenseElementsAttr) and value.is_splat
    )


def size_key(text: str) -> Size:
    """``text``'s ``Size``: a candidate is tried only when strictly smaller than the current program."""
    module = parse(text)
    funcs = _funcs(module) if module is not None else []
    ops = sum(not is_leaf(o.operation) for f in funcs for o in f.regions[0].blocks[0].operations)
    dims = [d for m in _TENSOR.finditer(text) for d in m.group(1).split("x")]
    return Size(
        ops if module is not None else 10**9,
        sum(len(f.regions[0].blocks[0].arguments) for f in funcs),
        dims.count("?"),
        sum(int(d) for d in dims if d.isdigit()),
        len(UNUSUAL_DTYPES.findall(text)),
        len(text),
    )


def split_functions(text: str) -> Iterator[str]:
    """One public function alone (with the private functions it calls), for each function of a module with
    several: a bug that needs its neighbour (two functions sharing a global) keeps both, as no single one hits."""
    module = parse(text)
    if module is None or len(_funcs(module)) < 2:
        return
    for k in range(len(_funcs(module))):
        m = _reparse(text)
        funcs = _funcs(m)
        keep = funcs[k]
        called = set(re.findall(r"\bcall @([\w$.]+)", str(keep)))
        for f in funcs:
            name = _name(f)
            if f is not keep and name not in called:
                f.erase()
        yield from _emit(m)


def drop_function_results(text: str) -> Iterator[str]:
    """A function with several results loses one (its return operand and result type), then dead ops go."""
    module = parse(text)
    if module is None:
        return
    for f in _funcs(module):
        for k in reversed(range(_results(f))):
            candidate = without_result(text, _name(f), k)
            if candidate is not None:
                yield candidate


def _results(f: Any) -> int:
    return len(ir.FunctionType(ir.TypeAttr(f.attributes["function_type"]).value).results)


def func_named(module: ir.Module | None, function: str) -> Any:
    """The ``func.func`` named ``function`` in ``module`` (an operation), or None."""
    funcs = _funcs(module) if module is not None else []
    return next((f for f in funcs if _name(f) == function), None)


def function_ops(module: ir.Module | None, function: str) -> list[Any]:
    """The top-level ops of function ``function`` in ``module``, its terminator last (empty without it)."""
    f = func_named(module, function)
    return [o.operation for o in f.regions[0].blocks[0].operations] if f is not None else []


def result_count(text: str, function: str) -> int:
    """How many results function ``function`` of ``text`` returns (0 if the text does not parse or lacks it)."""
    f = func_named(parse(text), function)
    return _results(f) if f is not None else 0


def without_result(text: str, function: str, k: int) -> str | None:
    """``text`` with function ``function`` returning all but its ``k``-th result (its return operand and result
    type), then its dead ops gone; None unless that verifies. The shrinker's step and the experiments' "each
    consumer removed" for a raw program (a result no longer returned takes what only it feeds with it)."""
    m = parse(text)
    f = func_named(m, function)
    if m is None or f is None or _results(f) < 2:
        return None
    block = f.regions[0].blocks[0]
    ret = list(block.operations)[-1].operation
    with m.context, ir.Location.unknown():
        operands = [v for i, v in enumerate(ret.operands) if i != k]
        with ir.InsertionPoint(ret):
            ir.Operation.create(ret.name, operands=operands)
        ret.erase()
        _erase_dead(block)
        ftype = ir.FunctionType(ir.TypeAttr(f.attributes["function_type"]).value)
        f.attributes["function_type"] = ir.TypeAttr.get(
            ir.FunctionType.get(list(ftype.inputs), [t for i, t in enumerate(ftype.results) if i != k])
        )
    return next(_emit(m), None)


# an attention whose ``ins`` end with its optional mask
_ATTENTION = re.compile(
    r"(?P<op>iree_linalg_ext\.attention) <indexing_maps = \[(?P<maps>[^\]]*)\]>(?P<mid>[^\n]*?) "
    r"ins\((?P<values>[^:]*) : (?P<types>[^)]*)\)"
)


def drop_optional_inputs(text: str) -> Iterator[str]:
    """An attention's optional mask (its fifth input) dropped with its indexing map, and what only it fed (the
    review: the masked contraction kept a causal-mask generic its failure does not need)."""
    for m in _ATTENTION.finditer(text):
        maps = split_top_level(m.group("maps"))
        values = split_top_level(m.group("values"))
        types = split_top_level(m.group("types"))
        if len(values) != 5 or len(types) != 5 or len(maps) != 6:  # q, k, v, scale, mask; their maps and the out's
            continue
        kept = (
            f"{m.group('op')} <indexing_maps = [{', '.join(maps[:4] + maps[5:])}]>{m.group('mid')} "
            f"ins({', '.join(values[:4])} : {', '.join(types[:4])})"
        )
        module = parse(text[: m.start()] + kept + text[m.end() :])
        if module is None:
            continue
        for f in _funcs(module):
            _erase_dead(f.regions[0].blocks[0])
        yield from _emit(module)


def drop_unused_results(text: str) -> Iterator[str]:
    """A ``linalg.generic`` result nothing uses dropped with its ``outs``, its map and its yielded value; the body's
    reads of that result's block argument read a zero instead (the judge decides whether the bug survives: the
    review's 23665 repro kept an argmax's unused index result)."""
    module = parse(text)
    if module is None:
        return
    sites = [k for k, op in enumerate(_body_ops(module)) if _unused_result(op) is not None]
    # every such op at once first: twin functions must stay twins (23665's CSE merges identical dispatches only)
    for chosen in ([sites] if len(sites) > 1 else []) + [[k] for k in reversed(sites)]:
        m = _reparse(text)
        ops = _body_ops(m)
        with m.context, ir.Location.unknown():
            for k in chosen:
                outer = ops[k].parent.regions[0].blocks[0]
                _erase_dead(_without_result(ops[k], _unused_result(ops[k]) or 0))
                _erase_dead(outer)
        yield from _emit(m)


def _unused_result(op: Any) -> int | None:
    """The first result of a multi-result ``linalg.generic`` that nothing uses, or None."""
    if op.name != "linalg.generic" or len(op.results) < 2:
        return None
    return next((k for k, r in enumerate(op.results) if not list(r.uses)), None)


def _integral(t: Any) -> bool:
    return isinstance(t, (ir.IntegerType, ir.IndexType))


def _without_result(op: Any, k: int) -> Any:
    """``op`` (a ``linalg.generic``) rebuilt without its ``k``-th result (see ``drop_unused_results``); its body."""
    n_ins, n_outs = ir.DenseI32ArrayAttr(op.attributes["operandSegmentSizes"])
    block = op.regions[0].blocks[0]
    argument = block.arguments[n_ins + k]
    if list(argument.uses):
        with ir.InsertionPoint.at_block_begin(block):
            zero = ir.Operation.create(
                "arith.constant",
                results=[argument.type],
                attributes={"value": ir.Attribute.parse(f"{0 if _integral(argument.type) else 0.0} : {argument.type}")},
            )
        argument.replace_all_uses_with(zero.results[0])
    block.erase_argument(n_ins + k)
    end = list(block.operations)[-1].operation
    kept = [v for j, v in enumerate(end.operands) if j != k]
    with ir.InsertionPoint(end):
        ir.Operation.create(end.name, operands=kept)
    end.erase()
    maps = ir.ArrayAttr(op.attributes["indexing_maps"])
    operands = [v for j, v in enumerate(op.operands) if j != n_ins + k]
    with ir.InsertionPoint(op):
        rebuilt = ir.Operation.create(
            "linalg.generic",
            results=[r.type for j, r in enumerate(op.results) if j != k],
            operands=operands,
            attributes={
                "indexing_maps": ir.ArrayAttr.get([maps[j] for j in range(len(maps)) if j != n_ins + k]),
                "iterator_types": op.attributes["iterator_types"],
                "operandSegmentSizes": ir.DenseI32ArrayAttr.get([n_ins, n_outs - 1]),
            },
            regions=1,
        )
    block.append_to(rebuilt.regions[0])
    for old, new in zip([r for j, r in enumerate(op.results) if j != k], rebuilt.results):
        old.replace_all_uses_with(new)
    op.erase()
    return rebuilt.regions[0].blocks[0]


def drop_unused_arguments(text: str) -> Iterator[str]:
    """Every function argument nothing uses goes (a function another one calls is left alone)."""
    module = parse(text)
    if module is None:
        return
    m = _reparse(text)
    changed = False
    for f in _funcs(m):
        if _called(text, f):
            continue
        block = f.regions[0].blocks[0]
        dead = [a.arg_number for a in block.arguments if not list(a.uses)]
        if dead:
            with m.context, ir.Location.unknown():
                _erase_arguments(f, dead)
            changed = True
    if changed:
        yield from _emit(m)


def _called(text: str, f: Any) -> bool:
    """Whether some ``call`` in ``text`` calls function ``f`` (whose signature is then not ours to change)."""
    return re.search(rf"\bcall @{re.escape(_name(f))}\b", text) is not None


def _name(f: Any) -> str:
    return ir.StringAttr(f.attributes["sym_name"]).value


def _erase_arguments(f: Any, numbers: Sequence[int]) -> None:
    """Function ``f`` without its arguments ``numbers`` (unused by now): its block, type and argument attributes."""
    block = f.regions[0].blocks[0]
    ftype = ir.FunctionType(ir.TypeAttr(f.attributes["function_type"]).value)
    for k in sorted(numbers, reverse=True):
        block.erase_argument(k)
    f.attributes["function_type"] = ir.TypeAttr.get(
        ir.FunctionType.get([a.type for a in block.arguments], list(ftype.results))
    )
    if "arg_attrs" in f.attributes:
        kept = [a for k, a in enumerate(ir.ArrayAttr(f.attributes["arg_attrs"])) if k not in numbers]
        f.attributes["arg_attrs"] = ir.ArrayAttr.get(kept)


def empty_shape_operands(text: str) -> Iterator[str]:
    """A function argument of static type whose values nothing reads (``shape_only``: a pooling window) ->
    ``tensor.empty`` of its type, and the argument goes; one argument at a time."""
    module = parse(text)
    if module is None:
        return
    sites = [
        (i, a.arg_number)
        for i, f in enumerate(_funcs(module))
        if not _called(text, f)
        for a in f.regions[0].blocks[0].arguments
        if shape_only(a)
    ]
    for i, k in sites:
        m = _reparse(text)
        f = _funcs(m)[i]
        block = f.regions[0].blocks[0]
        argument = block.arguments[k]
        with m.context, ir.Location.unknown():
            with ir.InsertionPoint.at_block_begin(block):
                empty = ir.Operation.create("tensor.empty", results=[argument.type])
            argument.replace_all_uses_with(empty.results[0])
            _erase_arguments(f, [k])
        yield from _emit(m)


def shape_only(value: Any) -> bool:
    """Whether ``value`` is a static tensor that is used, and only as operands a linalg structured op never reads:
    the op's block argument for that operand is unused (a named pooling op's window, a destination a fill or a
    generic overwrites)."""
    uses = list(value.uses)
    return (
        isinstance(value.type, ir.RankedTensorType)
        and value.type.has_static_shape
        and bool(uses)
        and all(_unread_operand(u.owner, u.operand_number) for u in uses)
    )


def _unread_operand(op: Any, k: int) -> bool:
    """Whether operand ``k`` of ``op``, a linalg structured op (a block argument per operand), is never read."""
    op = op.operation
    if not op.name.startswith("linalg.") or "operandSegmentSizes" not in op.attributes or len(op.regions) != 1:
        return False
    blocks = list(op.regions[0].blocks)
    if not blocks or len(blocks[0].arguments) != len(op.operands):
        return False
    return not list(blocks[0].arguments[k].uses)


def splat_constants(text: str) -> Iterator[str]:
    """Replace one op's statically shaped tensor result (a non-splat constant's too) by a splat constant (0, then 1),
    last op first."""
    for value in ("0", "1"):
        for m, op in _each_op(text):
            if len(op.results) != 1 or is_leaf(op):
                continue
            t = op.results[0].type
            if not isinstance(t, ir.RankedTensorType) or not t.has_static_shape:
                continue
            with m.context, ir.Location.unknown():
                e = t.element_type
                if isinstance(e, ir.IntegerType):
                    scalar = ir.IntegerAttr.get(e, int(value))
                elif isinstance(e, (ir.F16Type, ir.F32Type, ir.F64Type, ir.BF16Type)):
                    scalar = ir.FloatAttr.get(e, float(value))
                else:
                    continue
                with ir.InsertionPoint(op):
                    const = ir.Operation.create(
                        "arith.constant", results=[t], attributes={"value": ir.DenseElementsAttr.get_splat(t, scalar)}
                    )
                op.results[0].replace_all_uses_with(const.results[0])
                op.erase()
                _erase_dead(_block_of(const))
            yield from _emit(m)


def _block_of(op: Any) -> Any:
    return op.parent.regions[0].blocks[0]


_DYNAMIC = re.compile(r"tensor<((?:[0-9?]+x)+)")


def make_dims_static(text: str) -> Iterator[str]:
    """Every dynamic dim of every tensor type at once -> 1, 2, 4, 8 (``tensor.empty`` loses its size operands);
    a candidate whose sizes no longer agree does not verify and is dropped."""
    if "?x" not in text:
        return
    for size in ("1", "2", "4", "8"):
        candidate = _DYNAMIC.sub(lambda m: "tensor<" + m.group(1).replace("?", size), text)
        candidate = re.sub(r"tensor\.empty\([^)]*\)", "tensor.empty()", candidate)
        candidate = re.sub(
            r"output_shape \[([^\]]*)\]",
            lambda m: "output_shape [" + re.sub(r"%[\w.]+", size, m.group(1)) + "]",
            candidate,
        )
        m = parse(candidate)
        if m is not None:
            for f in _funcs(m):
                _erase_dead(f.regions[0].blocks[0])
            yield from _emit(m)


def widen_float_types(text: str) -> Iterator[str]:
    """Every f16 and bf16 of the program -> f32 at once (types, constants; an ``extf`` / ``truncf`` that then casts
    f32 to f32 goes): a bug that f32 shows too is not about half precision."""
    yield from _retyped(text, lambda t: ir.F32Type.get() if isinstance(t, (ir.F16Type, ir.BF16Type)) else None)


def narrow_integer_types(text: str) -> Iterator[str]:
    """Every i64 value of the program -> i32 at once (types, constants that fit; attributes such as ``strides``
    stay i64)."""
    wide = lambda t: isinstance(t, ir.IntegerType) and t.width == 64 and t.is_signless
    yield from _retyped(text, lambda t: ir.IntegerType.get_signless(32) if wide(t) else None)


Retype = Callable[[ir.Type], ir.Type | None]  # an element type -> its replacement, or None: kept

_SAME_TYPE_CASTS = frozenset({"arith.extf", "arith.truncf", "arith.extsi", "arith.extui", "arith.trunci"})


def _retyped(text: str, retype: Retype) -> Iterator[str]:
    """``text`` with every value, function type and constant of an element type ``retype`` replaces retyped (a
    constant's value kept: ``0xFC00 : f16`` becomes ``0xFF800000 : f32``); nothing if nothing changes or a constant
    cannot be converted."""
    m = parse(text)
    if m is None:
        return
    with m.context, ir.Location.unknown():
        ops = list(walk(m.operation))
        values = [v for op in ops for v in op.results] + [
            a for op in ops for region in op.regions for block in region.blocks for a in block.arguments
        ]
        changed = False
        for v in values:
            new = _mapped_type(v.type, retype)
            if new != v.type:
                v.set_type(new)
                changed = True
        for op in ops:
            for name in [op.attributes[i].name for i in range(len(op.attributes))]:
                if not (isinstance(op.attributes[name], ir.TypeAttr) or (op.name, name) == ("arith.constant", "value")):
                    continue
                attr = _mapped_attribute(op.attributes[name], retype)
                if attr is None:
                    return
                op.attributes[name] = attr
        for op in ops:
            if op.name in _SAME_TYPE_CASTS and op.operands[0].type == op.results[0].type:
                op.results[0].replace_all_uses_with(op.operands[0])
                op.erase()
    if changed:
        yield from _emit(m)


def _mapped_type(t: ir.Type, retype: Retype) -> ir.Type:
    """``t`` with its element types retyped (a tensor's, a function's inputs and results, a scalar)."""
    if isinstance(t, ir.RankedTensorType):
        return ir.RankedTensorType.get(t.shape, _mapped_type(t.element_type, retype), t.encoding)
    if isinstance(t, ir.FunctionType):
        return ir.FunctionType.get(
            [_mapped_type(i, retype) for i in t.inputs], [_mapped_type(r, retype) for r in t.results]
        )
    return retype(t) or t


def _mapped_attribute(attr: ir.Attribute, retype: Retype) -> ir.Attribute | None:
    """``attr`` (a type, or a constant's value) retyped, its values kept; None if they cannot be. Another kind of
    attribute is kept as it is (if its op needed it retyped, the op does not verify)."""
    if isinstance(attr, ir.TypeAttr):
        return ir.TypeAttr.get(_mapped_type(attr.value, retype))
    if not isinstance(attr, (ir.FloatAttr, ir.IntegerAttr, ir.DenseElementsAttr)):
        return attr
    t = _mapped_type(attr.type, retype)
    if t == attr.type:
        return attr
    if not isinstance(attr, ir.DenseElementsAttr):
        return _mapped_scalar(attr, t)
    if attr.is_splat:
        splat = _mapped_scalar(attr.get_splat_value(), ir.RankedTensorType(t).element_type)
        return None if splat is None else ir.DenseElementsAttr.get_splat(t, splat)
    return _mapped_dense(attr, t)


def _mapped_scalar(attr: ir.Attribute, t: ir.Type) -> ir.Attribute | None:
    if isinstance(attr, ir.FloatAttr):
        return ir.FloatAttr.get(t, attr.value)
    if isinstance(attr, ir.IntegerAttr) and isinstance(t, ir.IntegerType):
        bound = 1 << (t.width - 1)
        return ir.IntegerAttr.get(t, attr.value) if -bound <= attr.value < bound else None
    return None


def _mapped_dense(attr: ir.DenseElementsAttr, t: ir.Type) -> ir.Attribute | None:
    """A non-splat dense constant as type ``t``: f16 -> f32 and i64 -> i32 values that fit (NumPy reads no bf16)."""
    import numpy as np

    try:
        values = np.array(attr)
    except (TypeError, ValueError, RuntimeError):
        return None
    narrow = {np.dtype("float16"): np.float32, np.dtype("int64"): np.int32}.get(values.dtype)
    if narrow is None or not np.array_equal(values.astype(narrow), values, equal_nan=values.dtype.kind == "f"):
        return None
    return ir.DenseElementsAttr.get(values.astype(narrow), type=t)


OPTIONAL_ATTRIBUTES = frozenset({"dilations", "strides"})  # inherent, with defaults (conv, pooling)


def drop_attributes(text: str) -> Iterator[str]:
    """Remove one attribute of one op (a discardable one, or an optional one such as ``strides``); the
    verifier rejects removing a required one."""
    module = parse(text)
    if module is None:
        return
    for k, op0 in reversed(list(enumerate(_body_ops(module)))):
        for name in [op0.attributes[i].name for i in range(len(op0.attributes))]:
            if name not in OPTIONAL_ATTRIBUTES and "." not in name and not name.startswith("_"):
                continue  # an inherent attribute the op may need (removing one can crash the printer)
            m = _reparse(text)
            op = _body_ops(m)[k]
            with m.context:
                del op.attributes[name]
            yield from _emit(m)


_PIPELINE = "builtin.module(func.func(linalg-fuse-elementwise-ops,canonicalize,cse))"


def inline_producers(text: str) -> Iterator[str]:
    """Fuse each single-use elementwise producer into its consumer (MLIR's ``linalg-fuse-elementwise-ops``:
    a fill or a map read by one generic becomes part of its body), then canonicalize and drop dead code."""
    from iree.compiler import passmanager

    m = parse(text)
    if m is None:
        return
    try:
        with m.context:
            passmanager.PassManager.parse(_PIPELINE).run(m.operation)
    except (ir.MLIRError, ValueError, RuntimeError):
        return
    candidate = str(m)
    if candidate != str(parse(text)):
        yield from _emit(parse(candidate) or m)


# --------------------------------------------------------------------------- printing


_NAMES = {
    "linalg.fill": "fill",
    "tensor.empty": "empty",
    "arith.constant": "cst",
    "tensor.dim": "dim",
    "linalg.generic": "gen",
    "iree_linalg_ext.sort": "sorted",
    "iree_linalg_ext.gather": "gathered",
    "iree_linalg_ext.scatter": "scattered",
    "tensor.pad": "padded",
    "tensor.expand_shape": "expanded",
    "tensor.collapse_shape": "collapsed",
    "linalg.matmul": "matmul",
    "linalg.unpack": "unpacked",
    "linalg.pack": "packed",
    "linalg.mmt4d": "mmt4d",
    "linalg.transpose": "transposed",
}


def _value_name(op_name: str, line: str) -> str:
    if "conv" in op_name:
        return "conv"
    if "pooling" in op_name:
        return "pooled"
    if op_name in _NAMES and op_name != "linalg.generic":
        return _NAMES[op_name]
    if op_name == "linalg.generic":
        kinds = re.findall(r'"(parallel|reduction)"', line)
        return "reduced" if "reduction" in kinds else "mapped"
    tail = op_name.rpartition(".")[2]
    return re.sub(r"\W", "_", tail) or "v"


def readable(text: str) -> str:
    """``text`` with each op result named after what it is (``%fill``, ``%reduced``, ``%sorted``, ``%empty``...),
    names given per function (each function's values are its own); the same program (it parses to the same IR
    as ``text``), else ``text`` as printed."""
    module = parse(text)
    if module is None:
        return text
    printed = str(module)
    chunks = re.split(r"(?m)^(?=\s*(?:func\.func|util\.func)\b)", printed)
    out = []
    for chunk in chunks:
        used: dict[str, int] = {}
        mapping: dict[str, str] = {}  # the printed name -> its new name, for the definition in scope
        lines = []
        for line in chunk.splitlines(keepends=True):
            rename = lambda m: mapping.get(m.group(0), m.group(0))
            found = re.match(r"\s*(%[\w.]+)(?::(\d+))?(?:, (%[\w.]+))* = ([\w.]+)", line)
            if not found:
                lines.append(re.sub(r"%[\w.]+", rename, line))
                continue
            # the printer numbers sibling regions, and the ops after a region, from the same ids: a name defined
            # again is a new value from here on (round 38's review: `%sitofp = arith.cmpf`)
            left, _, right = line.partition(" = ")
            right = re.sub(r"%[\w.]+", rename, right)
            base = _value_name(found.group(4), line)
            for n in re.findall(r"(%[\w.]+)", left):
                k = used.get(base, 0)
                used[base] = k + 1
                mapping[n] = f"%{base}" if k == 0 else f"%{base}{k}"
            lines.append(re.sub(r"%[\w.]+", rename, left) + " = " + right)
        out.append("".join(lines))
    renamed = "".join(out)
    again = parse(renamed)
    return renamed if again is not None and str(again) == printed else printed


PASSES: tuple[tuple[str, Candidate], ...] = (
    ("split-functions", split_functions),
    ("drop-function-results", drop_function_results),
    ("bypass-ops", bypass_ops),
    ("drop-casts", drop_casts),
    ("return-operands", return_operands),
    ("drop-optional-inputs", drop_optional_inputs),
    ("drop-unused-results", drop_unused_results),
    ("drop-ops", drop_ops),
    ("drop-unused-arguments", drop_unused_arguments),
    ("empty-shape-operands", empty_shape_operands),
    ("inline-producers", inline_producers),
    ("splat-constants", splat_constants),
    ("widen-float-types", widen_float_types),
    ("narrow-integer-types", narrow_integer_types),
    ("make-dims-static", make_dims_static),
    ("shrink-static-dims", shrink_static_dims),
    ("drop-attributes", drop_attributes),
)


@dataclasses.dataclass(frozen=True)
class ReduceResult:
    text: str
    target: Target
    finding: Finding  # the finding the target matched on the reduced program
    steps: tuple[str, ...]
    before_chars: int
    after_chars: int
    before: Size = Size(0, 0, 0, 0, 0, 0)  # size_key
    after: Size = Size(0, 0, 0, 0, 0, 0)

    @property
    def signature(self) -> str:
        return self.finding.signature


_DESTINATIONS = re.compile(r"\bouts\(([^:)]*)")


def argument_destinations(text: str) -> int:
    """How many destinations (``outs(...)`` operands) are function arguments (``%argN``, as the printer names them)."""
    return sum(len(re.findall(r"%arg\d+\b", m.group(1))) for m in _DESTINATIONS.finditer(text))


def reduce_mlir(
    text: str,
    target: Target | str | None = None,
    *,
    config: CompilerConfig | None = None,
    interesting: Findings | None = None,
    passes: Sequence[tuple[str, Candidate]] = PASSES,
    max_candidates: int = 200,
    run: bool | None = None,
    undefined: Callable[[str], str | None] = undefined_values,
) -> ReduceResult:
    """Shrink ``text`` while it hits ``target`` (default: the starting program's first signature).
    ``interesting`` gives a program's findings (default: ``program_findings``, which runs the program
    when ``run`` -- by default, when the target's oracle is numeric or immutability). ``undefined`` says why a
    program's values are undefined (None: defined): a candidate it says so of is never taken, unless the
    starting program is undefined too; nor one that shows a cause the starting program does not (``adds_a_bug``)."""
    if run is None:
        run = target is not None and needs_run(as_target(target))
    findings_of = interesting or (lambda t: program_findings(t, config, run=run))
    observed = {text: tuple(findings_of(text))}
    may_be_undefined = undefined(text) is not None  # the user's own program: reduced as it is
    if target is None:
        if not observed[text]:
            raise NotInteresting("the starting program shows no crash / memory / fusion finding; nothing to reduce")
        target = Target.by_signature(min(f.signature for f in observed[text]))
    goal = as_target(target)

    printed = parse(text)  # candidates are printed: their arguments are %argN
    start, written = {f.cause for f in observed[text]}, argument_destinations(str(printed) if printed else text)

    def adds_a_bug(t: str) -> bool:
        """A candidate that shows a cause the starting program did not (other than the target's), or writes one more
        function argument in place (a destination the caller's buffer: #16168 / #24665's class, which a compile-only
        target never runs to see), mixes another bug into the repro (the argsort reduced to sorting its argument in
        place beside #24735's stack)."""
        new_cause = any(f.cause not in start and goal.hit((f,)) is None for f in observed[t])
        return new_cause or argument_destinations(t) > written

    def judge(texts: Sequence[str]) -> list[bool]:
        for t in texts:
            if t not in observed:
                observed[t] = tuple(findings_of(t))
        return [
            goal(observed[t]) and not adds_a_bug(t) and (may_be_undefined or t == text or undefined(t) is None)
            for t in texts
        ]

    shown = sorted(f.signature for f in observed[text]) or "nothing"
    outcome = shrink_greedily(
        text,
        judge,
        passes,
        size_key,
        max_evaluations=max_candidates,
        not_interesting=f"the starting program does not show {goal} (it shows {shown})",
    )
    finding = goal.hit(observed[outcome.value])
    assert finding is not None  # shrink_greedily returns a program the judge found interesting
    return ReduceResult(
        outcome.value,
        goal,
        finding,
        outcome.steps,
        len(text),
        len(outcome.value),
        size_key(text),
        size_key(outcome.value),
    )
