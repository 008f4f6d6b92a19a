"""The wrong op alone: a wrong value's last op, its operands made arguments that hold the values they have in the
program (float64, rounded to their dtype), and nothing else.

An engineer's first question about a wrong value: is the op that produced it wrong on the values it was given, or
were those values wrong already? The variant answers it. Where the op alone is still wrong (label ``<op>.alone``,
dropping ops of the cone: the same failure), the defect is that op's own on those values, whatever computed them.
Round 41 found ``asinh`` wrong after a causal mask's fill and after a dequantized matmul: two causes by their cones,
one mechanism, and each fails as ``asinh`` alone. ``records.duplicates`` makes the later of two such causes of one
run a duplicate of the first. A graph case's operands' values come from the graph's float64 reference (integer
ones too: stop 42's quick start called `negate>pow_int` new, its i32 exponent kept pow_int from going alone); a raw
program's from the interpreter. An op whose destination is another node's value goes alone only where it does not
read it (an elementwise op: its body ignores its outs), onto a fresh destination: round 41's `causal_mask>atan>asinh`
wrote its asinh into a dead atan's tensor, and was kept from the experiment.
"""

from __future__ import annotations

import dataclasses
import functools
from typing import Any, Callable, Iterable, Iterator, Sequence

import numpy as np

from .table import ALONE, Experiment
from .twins import emitted_program

MAX_ALONE = 3  # ops tried alone per target: its last op, then the ops that feed it


def cut_experiments(case: Any, target: Any) -> Iterator[Experiment]:
    """For a graph ``Case`` whose ``target`` is a numeric wrong value: the output whose op ends the target's cone, then
    the ops feeding it (latest first, up to ``MAX_ALONE``), each alone at its operands' values (``alone``). Where the
    last op alone is right on right values, an earlier one may be the op that went wrong (round 41: `abs` of a wrong
    `asinh`). A raw program (``ireefuzz check``, the pytest plugin) gets the same from its IR (``program_alone``)."""
    from ireefuzz.generators.case import Case

    cause = str(getattr(target, "value", target))
    if not cause.startswith("numeric/wrong-value/") or not case.instances:
        return
    if not isinstance(case, Case):
        yield from _program_cut_experiments(case)
        return
    last = cause.rsplit("/", 1)[-1].split(">")[-1]
    graph = case.graph
    root = next((r for r in graph.outputs if r.startswith("n") and graph.nodes[int(r[1:])].op == last), None)
    if root is None:
        return
    cone, stack = set(), [root]
    while stack:
        ref = stack.pop()
        if ref.startswith("n") and ref not in cone:
            cone.add(ref)
            stack.extend(graph.nodes[int(ref[1:])].inputs)
    fed = [i for i in sorted((int(r[1:]) for r in cone), reverse=True) if _reads_a_node(graph.nodes[i])]
    yield from _alone_experiments(
        (f"{graph.nodes[i].op}#n{i}", f"`{graph.nodes[i].op}` (n{i})", functools.partial(alone, case, i)) for i in fed
    )


def _reads_a_node(node: Any) -> bool:
    """Whether ``node`` reads another node: as an operand, or as its destination (``init`` ``value:n<i>``), which puts
    that node in the cause's ops (stop 48's quick start: a pow_int of arguments into an exp2's tensor was
    `exp2>pow_int`, never tried alone, and the known fpowi bug listed new)."""
    init = str(node.attrs.get("init", ""))
    return any(r.startswith("n") for r in node.inputs) or init.rpartition(":")[2].startswith("n")


def alone(case: Any, index: int) -> Any:
    """Node ``index`` of ``case``'s graph as the one op of a raw program at its first shape instance, over arguments
    holding its operands' float64 values rounded to their dtype (a ``ProgramCase``), or None where it cannot be."""
    from ireefuzz.generators.graph import Graph, Node
    from ireefuzz.generators.ops import OPS
    from ireefuzz.generators.tensor import TensorType
    from ireefuzz.oracles.reference import NUMPY_DTYPES, evaluate

    graph, sizes = case.graph, case.instances[0]
    node = graph.nodes[index]
    types = [graph.type_of(r) for r in node.inputs]
    reads_its_destination = ":" in str(node.attrs.get("init", "")) and OPS[node.op].family != "elementwise"
    if any(t.dtype not in NUMPY_DTYPES for t in types) or reads_its_destination:
        return None
    attrs = {k: v for k, v in node.attrs.items() if k != "init"}  # alone, it writes a fresh tensor
    produced, inputs = tuple(r for r in node.inputs if r.startswith("n")), case.inputs(0)
    values = dict(zip(produced, evaluate(dataclasses.replace(graph, outputs=produced), inputs, sizes, "f64")))
    given = [inputs[int(r[1:])] if r.startswith("a") else values[r] for r in node.inputs]
    given = [np.asarray(v).astype(NUMPY_DTYPES[t.dtype]) for v, t in zip(given, types)]
    cut = Graph(
        tuple(TensorType(t.concrete(sizes), t.dtype, divisor=t.divisor) for t in types),  # a divisor stays one
        (
            Node(
                node.op,
                tuple(f"a{i}" for i in range(len(types))),
                attrs,
                TensorType(node.type.concrete(sizes), node.type.dtype),
            ),
        ),
        ("n0",),
    )
    program = emitted_program(dataclasses.replace(case, graph=cut, instances=({},)))
    return dataclasses.replace(program, given=tuple(given)) if program is not None else None


_NO_OP_OF_ITS_OWN = frozenset({"tensor.empty", "arith.constant", "tensor.dim", "linalg.fill"})  # nothing to cut


def _program_cut_experiments(program: Any) -> Iterator[Experiment]:
    """A raw program of one result: the ops of its cone that read another op's result, latest first (up to
    ``MAX_ALONE``), each alone at its operands' values (``program_alone``). A program of several results is left
    out: the cause does not say which result is wrong, and another result's op alone could land in another bug."""
    from ireefuzz.tools.shrink.canonical import parse
    from ireefuzz.tools.shrink.mlir import function_ops

    module = parse(program.program)  # kept alive: its ops are invalid once it is freed
    ops = function_ops(module, program.function)
    if not ops or len(ops[-1].operands) != 1:
        return
    producer = {value: index for index, op in enumerate(ops) for value in op.results}
    cone, stack = set(), [ops[-1].operands[0]]
    while stack:
        index = producer.get(stack.pop())
        if index is not None and index not in cone:
            cone.add(index)
            stack.extend(ops[index].operands)
    computed = lambda v: producer.get(v) is not None and ops[producer[v]].name not in _NO_OP_OF_ITS_OWN
    fed = [
        i
        for i in sorted(cone, reverse=True)
        if ops[i].name not in _NO_OP_OF_ITS_OWN and any(map(computed, ops[i].operands))
    ]
    yield from _alone_experiments(
        (f"{ops[i].name.split('.')[-1]}#{i}", f"`{ops[i].name}` #{i}", functools.partial(program_alone, program, i))
        for i in fed
    )


def _alone_experiments(candidates: Iterable[tuple[str, str, Callable[[], Any]]]) -> Iterator[Experiment]:
    """The first ``MAX_ALONE`` of ``candidates`` (label stem, the op in words, the maker of its program alone, latest
    op first) whose program could be made, each an experiment."""
    tried = 0
    for stem, named, make in candidates:
        if tried == MAX_ALONE:
            return
        variant = make()
        if variant is not None:
            tried += 1
            yield Experiment(
                f"{stem}{ALONE}",
                f"{named} alone, its operands arguments holding the values they have in the program (float64, "
                "rounded to their dtype)",
                variant,
                drops_op=True,
            )


def program_alone(program: Any, index: int) -> Any:
    """Top-level op ``index`` of a raw program's function as the one op of a program, over arguments holding its
    operands' values in the program (the float64 interpreter's, rounded to their dtype), at the same CPU and flags
    (a ``ProgramCase``); None where its operands are not tensors, its regions read a value defined outside them that
    is no constant, or the interpreter cannot follow the program."""
    from iree.compiler import ir
    from iree.compiler.dialects import func

    from ireefuzz.core.frontends import program_cases
    from ireefuzz.errors import NotInterpretable, ProgramError
    from ireefuzz.oracles.interpret import interpret
    from ireefuzz.oracles.reference import NUMPY_DTYPES
    from ireefuzz.tools.shrink.canonical import parse
    from ireefuzz.tools.shrink.mlir import function_ops

    module = parse(program.program)
    ops = function_ops(module, program.function)
    if module is None or index >= len(ops) - 1:
        return None
    target = ops[index]
    operands, results = list(target.operands), list(target.results)
    if not operands or not all(isinstance(v.type, ir.RankedTensorType) for v in operands):
        return None
    # a destination nothing wrote (a tensor.empty) holds no values to give: zeros of its result's shape (the op does
    # not read it, or the program would read undefined values); a DPS op's outs are its last operands
    empty = [i for i, v in enumerate(operands) if getattr(v.owner, "name", "") == "tensor.empty"]
    first_out = len(operands) - len(results)
    if any(i < first_out for i in empty):
        return None
    read = [i for i in range(len(operands)) if i not in empty]
    try:
        got = interpret(
            _returning(program.program, program.function, index, read),
            program.function,
            program.inputs(),
        )
    except (NotInterpretable, ProgramError):
        return None
    known = dict(zip(read, got))
    produced = got[len(read) :]
    values = [known[i] if i in known else np.zeros(np.shape(produced[i - first_out])) for i in range(len(operands))]
    with module.context, ir.Location.unknown():
        alone_module = ir.Module.create()
        with ir.InsertionPoint(alone_module.body):
            types = [v.type for v in target.operands]
            fn = func.FuncOp("main", ir.FunctionType.get(types, [r.type for r in target.results]))
            block = fn.add_entry_block()
            with ir.InsertionPoint(block):
                constants = _free_constants(target)
                if constants is None:
                    return None
                remap = {old: op.clone().results[0] for old, op in constants.items()}
                cloned = target.clone()
                for i, argument in enumerate(block.arguments):
                    cloned.operands[i] = argument
                _rewire(cloned, remap)
                func.ReturnOp(list(cloned.results))
        text = str(alone_module)
    if parse(text) is None:
        return None
    try:
        (cut,) = program_cases(
            text,
            functions=["main"],
            shapes=[list(np.shape(v)) for v in values],
            seed=program.seed,
            target_cpu=program.target_cpu,
            flags=program.flags,
        )
    except (ProgramError, ValueError):
        return None
    given = tuple(np.asarray(v).astype(NUMPY_DTYPES[t.dtype]) for v, t in zip(values, cut.args or ()))
    return dataclasses.replace(cut, given=given)


def _returning(text: str, function: str, index: int, read: Sequence[int]) -> str:
    """``text`` with ``function`` returning, instead of its results, the operands ``read`` of its top-level op
    ``index``, then that op's results."""
    from iree.compiler import ir
    from iree.compiler.dialects import func

    from ireefuzz.tools.shrink.canonical import parse
    from ireefuzz.tools.shrink.mlir import function_ops, retype_results

    module = parse(text)
    assert module is not None  # the caller parsed the same text
    ops = function_ops(module, function)
    end, f = ops[-1], ops[-1].parent
    values = [ops[index].operands[i] for i in read] + list(ops[index].results)
    with module.context, ir.Location.unknown():
        with ir.InsertionPoint(end):
            func.ReturnOp(values)
        end.erase()
        retype_results(module, f)
    return str(module)


def _free_constants(op: Any) -> dict[Any, Any] | None:
    """The values ``op``'s regions read from outside ``op``, each with the ``arith.constant`` defining it; None
    where one is not a constant's."""
    from ireefuzz.oracles.ir import walk

    nested = list(walk(op))
    inside = {r for o in nested for r in o.results} | {
        a for o in [op, *nested] for region in o.regions for block in region.blocks for a in block.arguments
    }
    free = {v: v.owner for o in nested for v in o.operands if v not in inside}
    if any(getattr(owner, "name", "") != "arith.constant" for owner in free.values()):
        return None
    return free


def _rewire(op: Any, remap: dict[Any, Any]) -> None:
    """Every use inside ``op``'s regions of a key of ``remap`` made a use of its value."""
    from ireefuzz.oracles.ir import walk

    for nested in walk(op):
        for i, value in enumerate(nested.operands):
            if value in remap:
                nested.operands[i] = remap[value]


MAX_LITERAL_ELEMENTS = 64  # inputs printed in the command up to this many elements in all


def repro_of(program: Any, target_cpu: str, flags: Any = ()) -> dict[str, str]:
    """The op alone as a maintainer runs it: its ``program`` and the ``command`` that compiles it and runs it at the
    operands' values, each input a literal (``--input=6xf32=-5.5 2 ...``); {} where the inputs are too large."""
    given = [np.asarray(x) for x in program.given or ()]
    if not given or sum(x.size for x in given) > MAX_LITERAL_ELEMENTS:
        return {}
    dtype = {"float32": "f32", "float16": "f16", "bfloat16": "bf16"}
    literal = lambda x: (
        f"{'x'.join(map(str, x.shape)) or ''}{'x' if x.shape else ''}{dtype.get(x.dtype.name, x.dtype.name)}"
    )
    inputs = " ".join(f"--input='{literal(x)}={' '.join(repr(float(v)) for v in x.reshape(-1))}'" for x in given)
    compile_flags = " ".join(["--iree-hal-target-backends=llvm-cpu", f"--iree-llvmcpu-target-cpu={target_cpu}", *flags])
    command = (
        f"iree-compile alone.mlir {compile_flags} -o alone.vmfb\n"
        f"iree-run-module --module=alone.vmfb --function={program.function} {inputs}"
    )
    return {"program": program.program.strip(), "command": command}
