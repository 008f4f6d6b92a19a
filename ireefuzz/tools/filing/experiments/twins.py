"""Twins: two ops of one function that compute the same value from the same operands, which CSE merges into one.

IREE's CSE merges identical dispatches whose results are fresh buffers (``stream.async.dispatch`` is pure), so two
consumers that each write their own copy in place (two sorts of two identical iotas, two scatters into two zero
fills) then write one buffer (iree-org/iree#23665). The engineer's experiment: every later op of a group of twins
told apart from the first, and from each other, by a discardable attribute of its own value and nothing else, so
values and the program's meaning stay as they were while CSE no longer sees twins. Where that variant is right, the
failure needs the merge (label ending ``twin=distinct``, the cure the baseline records for that mechanism). Telling
one twin apart at a time is not the experiment: of three sorts of three identical iotas, the two left merged still
share a buffer (stop 41's host campaign, seed 27391, called that case new). Graph cases get it on their emitted
program, at the same inputs.
"""

from __future__ import annotations

import dataclasses
import re
from typing import Any, Iterator, Sequence

from .table import Experiment

TWIN_ATTRIBUTE = "ireefuzz.twin"  # discardable: no pass reads it; CSE compares it, so the twins differ
_TRIVIAL = frozenset({"tensor.empty", "arith.constant", "tensor.dim"})  # merged by design, no buffer of their own
_SSA_NAME = re.compile(r"%[\w.$-]+(?:#\d+)?")
MAX_TWINS = 2  # experiments per case: the first groups of twins in program order


def twin_groups(text: str, function: str) -> list[tuple[str, list[int]]]:
    """(op name, the op indices that repeat it) for each top-level op of ``function`` in ``text`` that later ops
    repeat: the same op, attributes and regions (printed in its own scope), over the same operands or operands that
    are twins themselves (two ``tensor.empty`` of one type). Empty where ``text`` does not parse."""
    from ireefuzz.tools.shrink.canonical import parse

    module = parse(text)
    if module is None:
        return []
    ops = _body(module, function)
    keys: dict[Any, tuple] = {}  # an op's result value -> its key
    groups: dict[tuple, tuple[str, list[int]]] = {}  # a key -> (op name, the indices of its later repeats)
    for index, op in enumerate(ops):
        operands = tuple(_operand_key(v, keys) for v in op.operands)
        key = (op.name, _own_text(op), operands)
        for n, result in enumerate(op.results):
            keys[result] = (key, n)  # values hash by what they are in the bindings
        if key in groups:
            groups[key][1].append(index)
        elif op.name not in _TRIVIAL and op.results:
            groups[key] = (op.name, [])
    return [group for group in groups.values() if group[1]]


def twin_sites(text: str, function: str) -> list[tuple[int, str]]:
    """(op index, op name) of every op that repeats an earlier one (``twin_groups``), in program order."""
    return sorted((index, name) for name, later in twin_groups(text, function) for index in later)


def told_apart(text: str, function: str, indices: Sequence[int]) -> str | None:
    """``text`` with each op ``indices[k]`` of ``function`` given ``TWIN_ATTRIBUTE = k + 1`` (nothing else
    changed): distinct from the first twin, which has none, and from each other. None where an index is out of
    range or the result does not parse."""
    from iree.compiler import ir

    from ireefuzz.tools.shrink.canonical import parse

    module = parse(text)
    if module is None:
        return None
    ops = _body(module, function)
    if not indices or max(indices) >= len(ops):
        return None
    with module.context:
        i64 = ir.IntegerType.get_signless(64)
        for k, index in enumerate(indices):
            ops[index].attributes[TWIN_ATTRIBUTE] = ir.IntegerAttr.get(i64, k + 1)
    printed = str(module)
    return printed if parse(printed) is not None else None


def twin_experiments(case: Any) -> Iterator[Experiment]:
    """For the first ``MAX_TWINS`` groups of twins of ``case``'s function (a raw ``ProgramCase``, or a graph ``Case``
    through its emitted program at the same inputs): every later twin of the group told apart (``told_apart``)."""
    program = case if hasattr(case, "program") else emitted_program(case)
    if program is None or program.args is None:
        return
    for name, later in twin_groups(program.program, program.function)[:MAX_TWINS]:
        text = told_apart(program.program, program.function, later)
        if text is None:
            continue
        variant = dataclasses.replace(program, program=text, given=tuple(program.inputs()))
        which = (
            f"the `{name}` #{later[0]}"
            if len(later) == 1
            else f"the {len(later)} `{name}` #{', #'.join(map(str, later))}"
        )
        yield Experiment(
            f"{name.split('.')[-1]}#{later[0]}.twin=distinct",
            f"{which}, which repeat{'s' if len(later) == 1 else ''} an earlier op (CSE merges them), told apart from "
            f"it{'' if len(later) == 1 else ' and from each other'} by a discardable attribute (`{TWIN_ATTRIBUTE}`) "
            "and nothing else",
            variant,
        )


def emitted_program(case: Any) -> Any:
    """A graph ``Case``'s first shape instance as a raw ``ProgramCase`` of its emitted program, at its inputs."""
    from ireefuzz.core.frontends import program_cases
    from ireefuzz.errors import ProgramError
    from ireefuzz.generators.emit import emit
    from ireefuzz.generators.graph import concrete_shapes

    if not case.instances:
        return None
    text = emit(case.graph, "main").text
    shapes = concrete_shapes(case.graph.args, case.instances[0])
    try:
        (program,) = program_cases(
            text, functions=["main"], shapes=shapes, seed=case.seed, target_cpu=case.target_cpu, flags=case.flags
        )
    except (ProgramError, ValueError):
        return None
    return dataclasses.replace(program, given=tuple(case.inputs(0)))


def _body(module: Any, function: str) -> list[Any]:
    """The top-level ops of ``function`` in ``module`` (its terminator left out)."""
    from ireefuzz.tools.shrink.mlir import function_ops

    return function_ops(module, function)[:-1]


def _own_text(op: Any) -> str:
    """``op`` in generic form with every SSA name renamed by first appearance (its results, operands and the
    values of its regions): its attributes and regions, up to names."""
    text = op.get_asm(print_generic_op_form=True)
    names: dict[str, str] = {}
    return _SSA_NAME.sub(lambda m: names.setdefault(m.group(0), f"%v{len(names)}"), text)


def _operand_key(value: Any, keys: dict[Any, tuple]) -> tuple:
    """A block argument by its number; an op's result by that op's key (twins' results are one operand)."""
    found = keys.get(value)
    if found is not None:
        return ("result", found)
    return ("argument", getattr(value, "arg_number", repr(value)))
