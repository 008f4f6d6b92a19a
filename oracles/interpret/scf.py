"""``scf`` ops: for, if, while, execute_region."""

from __future__ import annotations

import numpy as np
from iree.compiler import ir

from .core import Interpreter, handles

# --------------------------------------------------------------------------- scf


@handles("scf.for")
def _scf_for(interp: Interpreter, op: ir.Operation, args: list) -> list:
    lower, upper, step, *carried = args
    block = op.regions[0].blocks[0]
    for i in range(int(lower), int(upper), int(step)):
        carried = interp.run_block(block, [np.int64(i), *carried])
    return carried


@handles("scf.if")
def _scf_if(interp: Interpreter, op: ir.Operation, args: list) -> list:
    region = op.regions[0] if int(args[0]) else op.regions[1]
    return interp.run_block(region.blocks[0], []) if region.blocks else []


@handles("scf.while")
def _scf_while(interp: Interpreter, op: ir.Operation, args: list) -> list:
    before, after = op.regions[0].blocks[0], op.regions[1].blocks[0]
    carried = args
    while True:
        condition, *forwarded = interp.run_block(before, carried)
        if not int(condition):
            return forwarded
        carried = interp.run_block(after, forwarded)


@handles("scf.execute_region")
def _execute_region(interp: Interpreter, op: ir.Operation, args: list) -> list:
    return interp.run_block(op.regions[0].blocks[0], [])
