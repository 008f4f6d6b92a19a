"""The wrong op alone: a wrong value's last op, its operands made arguments that hold the values they have in the
program (float64, rounded to their dtype), and nothing else.

An engineer's first question about a wrong value: is the op that produced it wrong on the values it was given, or
were those values wrong already? The variant answers it. Where the op alone is still wrong (label ``<op>.alone``,
dropping ops of the cone: the same failure), the defect is that op's own on those values, whatever computed them.
Round 41 found ``asinh`` wrong after a causal mask's fill and after a dequantized matmul: two causes by their cones,
one mechanism, and each fails as ``asinh`` alone. ``records.duplicates`` makes the later of two such causes of one
run a duplicate of the first. Graph cases only (their operands' values come from the graph's float64 reference);
float operands only. An op whose destination is another node's value goes alone only where it does not read it (an
elementwise op: its body ignores its outs), onto a fresh destination: round 41's `causal_mask>atan>asinh` wrote its
asinh into a dead atan's tensor, and was kept from the experiment.
"""

from __future__ import annotations

import dataclasses
from typing import Any, Iterator

import numpy as np

from .table import ALONE, Experiment
from .twins import emitted_program

MAX_ALONE = 3  # ops tried alone per target: its last op, then the ops that feed it


def cut_experiments(case: Any, target: Any) -> Iterator[Experiment]:
    """For a graph ``Case`` whose ``target`` is a numeric wrong value: the output whose op ends the target's cone, then
    the ops feeding it (latest first, up to ``MAX_ALONE``), each alone at its operands' values (``alone``). Where the
    last op alone is right on right values, an earlier one may be the op that went wrong (round 41: `abs` of a wrong
    `asinh`)."""
    from ireefuzz.generators.case import Case

    cause = str(getattr(target, "value", target))
    if not isinstance(case, Case) or not cause.startswith("numeric/wrong-value/") or not case.instances:
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
    tried = 0
    for index in sorted((int(r[1:]) for r in cone), reverse=True):
        node = graph.nodes[index]
        if tried == MAX_ALONE or not any(r.startswith("n") for r in node.inputs):
            continue
        variant = alone(case, index)
        if variant is not None:
            tried += 1
            yield Experiment(
                f"{node.op}#n{index}{ALONE}",
                f"`{node.op}` (n{index}) alone, its operands arguments holding the values they have in the program "
                "(float64, rounded to their dtype)",
                variant,
                drops_op=True,
            )


def alone(case: Any, index: int) -> Any:
    """Node ``index`` of ``case``'s graph as the one op of a raw program at its first shape instance, over arguments
    holding its operands' float64 values rounded to their dtype (a ``ProgramCase``), or None where it cannot be."""
    from ireefuzz.generators.graph import Graph, Node
    from ireefuzz.generators.ops import OPS
    from ireefuzz.generators.tensor import FLOAT_DTYPES, TensorType
    from ireefuzz.oracles.reference import NUMPY_DTYPES, evaluate

    graph, sizes = case.graph, case.instances[0]
    node = graph.nodes[index]
    types = [graph.type_of(r) for r in node.inputs]
    reads_its_destination = ":" in str(node.attrs.get("init", "")) and OPS[node.op].family != "elementwise"
    if any(t.dtype not in FLOAT_DTYPES for t in types) or reads_its_destination:
        return None
    attrs = {k: v for k, v in node.attrs.items() if k != "init"}  # alone, it writes a fresh tensor
    produced, inputs = tuple(r for r in node.inputs if r.startswith("n")), case.inputs(0)
    values = dict(zip(produced, evaluate(dataclasses.replace(graph, outputs=produced), inputs, sizes, "f64")))
    given = [inputs[int(r[1:])] if r.startswith("a") else values[r] for r in node.inputs]
    given = [np.asarray(v).astype(NUMPY_DTYPES[t.dtype]) for v, t in zip(given, types)]
    cut = Graph(
        tuple(TensorType(t.concrete(sizes), t.dtype) for t in types),
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
