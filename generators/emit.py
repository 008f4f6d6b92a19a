"""Graph -> linalg-on-tensors MLIR text: one ``func.func`` per graph, several graphs per module.

Only syntax that IREE releases from 2023 on accept (tensor.empty, ``linalg.fill ins() outs()``,
named matmul / transpose / broadcast, linalg.generic with linalg.index / tensor.extract).
``Syntax`` switches what changed between releases.
"""

from __future__ import annotations

import dataclasses
import types
from typing import Mapping

from .graph import Graph
from .ops import OPS, EmitContext, tensor_type


@dataclasses.dataclass(frozen=True)
class Syntax:
    maximumf: bool = True  # arith.maximumf/minimumf (IREE >= 2024-02); else arith.maxf/minf
    linalg_ext_gather: bool = True  # iree_linalg_ext.gather exists (IREE >= 3.9)
    attention_maps_property: bool = True  # attention's indexing_maps a property, <{...}> (IREE >= 3.13); else {...}
    int4_bitcast: bool = True  # flow.tensor.bitcast of bytes to int4 weights (IREE >= 2023-11)


MODERN = Syntax()


@dataclasses.dataclass(frozen=True)
class Program:
    """MLIR text plus what a runner needs to call it."""

    text: str
    functions: tuple[str, ...]

    def __repr__(self) -> str:
        return f"Program({', '.join(self.functions)}; {len(self.text)} chars)"


def emit_function(graph: Graph, name: str = "main", syntax: Syntax = MODERN) -> str:
    ctx = EmitContext(graph, syntax)
    for sym in graph.symbols:  # each symbolic size, read once from the first argument carrying it
        arg, axis = next((i, t.shape.index(sym)) for i, t in enumerate(graph.args) if sym in t.shape)
        c, d = ctx.fresh("c"), f"%dim_{sym}"
        ctx.line(f"{c} = arith.constant {axis} : index")
        ctx.line(f"{d} = tensor.dim %arg{arg}, {c} : {tensor_type(graph.args[arg])}")
        ctx.dim_values[sym] = d
    for index, node in enumerate(graph.nodes):
        indexed = types.SimpleNamespace(op=node.op, inputs=node.inputs, attrs=node.attrs, type=node.type, index=index)
        OPS[node.op].emit(ctx, indexed, [ctx.value(r) for r in node.inputs])
    outs = [ctx.value(o) for o in graph.outputs]
    out_types = [tensor_type(graph.type_of(o)) for o in graph.outputs]
    ctx.line(f"return {', '.join(outs)} : {', '.join(out_types)}")
    params = ", ".join(f"%arg{i}: {tensor_type(t)}" for i, t in enumerate(graph.args))
    results = out_types[0] if len(out_types) == 1 else f"({', '.join(out_types)})"
    body = "\n".join(f"  {line}" for line in ctx.lines)
    return f"func.func @{name}({params}) -> {results} {{\n{body}\n}}"


def emit_module(graphs: Mapping[str, Graph], syntax: Syntax = MODERN) -> Program:
    funcs = [emit_function(g, name, syntax) for name, g in graphs.items()]
    return Program("module {\n" + "\n".join(funcs) + "\n}\n", tuple(graphs))


def emit(graph: Graph, name: str = "main", syntax: Syntax = MODERN) -> Program:
    return emit_module({name: graph}, syntax)
