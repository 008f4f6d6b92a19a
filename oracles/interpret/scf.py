"""``scf`` ops: for, if, while, execute_region. Loop-carried values carry their poison; a bound, step or
condition that is poison is undefined behaviour."""

from __future__ import annotations

import numpy as np
from iree.compiler import ir

from .core import Interpreter, Tracked, defined_indices, handles

# --------------------------------------------------------------------------- scf


@handles("scf.for")
def _scf_for(interp: Interpreter, op: ir.Operation, args: list) -> Tracked:
    lower, upper, step, *carried = args
    bounds, poison = interp.operand_poison(op)[:3], interp.operand_poison(op)[3:]
    defined_indices(interp, op, bounds, " bound")
    block = op.regions[0].blocks[0]
    for i in range(int(lower), int(upper), int(step)):
        carried = interp.run_block(block, [np.int64(i), *carried], poison=[None, *poison])
        poison = interp.yielded
    return Tracked(carried, poison)


@handles("scf.if")
def _scf_if(interp: Interpreter, op: ir.Operation, args: list) -> Tracked:
    defined_indices(interp, op, interp.operand_poison(op), " condition")
    region = op.regions[0] if int(args[0]) else op.regions[1]
    if not region.blocks:
        return Tracked([], [])
    return Tracked(interp.run_block(region.blocks[0], []), interp.yielded)


@handles("scf.while")
def _scf_while(interp: Interpreter, op: ir.Operation, args: list) -> Tracked:
    before, after = op.regions[0].blocks[0], op.regions[1].blocks[0]
    carried, poison = args, interp.operand_poison(op)
    while True:
        condition, *forwarded = interp.run_block(before, carried, poison=poison)
        condition_poison, *poison = interp.yielded
        defined_indices(interp, op, [condition_poison], " condition")
        if not int(condition):
            return Tracked(forwarded, poison)
        carried = interp.run_block(after, forwarded, poison=poison)
        poison = interp.yielded


@handles("scf.execute_region")
def _execute_region(interp: Interpreter, op: ir.Operation, args: list) -> Tracked:
    return Tracked(interp.run_block(op.regions[0].blocks[0], []), interp.yielded)
