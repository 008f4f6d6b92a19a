"""The op cone of a raw program's output, read from its IR in the graph's op vocabulary.

A campaign graph names its ops (``fill``, ``reduce_sum``, ``matmul`` ...) and ``oracles.cause`` keys a numeric
cause by the cone of the wrong output (``cause.cone_pattern``). A raw program has no graph: its dispatches may
be none at all (a program without arguments is hoisted into initializers and evaluated at compile time), so
its ops are read here from the program's own IR, as nodes of the graph's JSON form (``{"op", "inputs",
"attrs": {"init": "value:<ref>"}}``, arguments ``a<i>``, nodes ``n<i>``), and ``cause.cone_pattern`` keys both
alike: a fill-sum reduced to a row sum over ``arith.constant dense<2>`` is ``fill>reduce_sum`` as in a campaign.

What an op is, is read from what it computes, never from SSA names: a ``linalg.generic`` by its iterators and
the op that yields its value (a reduction yielding an ``arith.addf`` is ``reduce_sum``; an all-parallel one
yielding ``math.exp`` is ``exp``; one yielding a value from outside its body is a fill; one yielding its input
moves data), a named op by its name, a splat constant as a ``fill``. Casts of a tensor's type, empty tensors
and non-splat constants are no ops (a constant is data, like an argument). The tables below are the vocabulary.
"""

from __future__ import annotations

from typing import Any

from iree.compiler import ir

from ireefuzz.oracles.ir import parse_ir

# The graph's name of the op that computes a body's (or a named elementwise op's) value, by MLIR op name.
ELEMENTWISE = {
    **dict.fromkeys(("arith.addf", "arith.addi"), "add"),
    **dict.fromkeys(("arith.subf", "arith.subi"), "sub"),
    **dict.fromkeys(("arith.mulf", "arith.muli"), "mul"),
    **dict.fromkeys(("arith.divf", "arith.divsi", "arith.divui", "arith.floordivsi", "arith.ceildivsi"), "div"),
    **dict.fromkeys(("arith.maximumf", "arith.maxnumf", "arith.maxsi", "arith.maxui"), "max"),
    **dict.fromkeys(("arith.minimumf", "arith.minnumf", "arith.minsi", "arith.minui"), "min"),
    **dict.fromkeys(("arith.negf", "linalg.negf"), "negate"),
    **dict.fromkeys(("math.absf", "math.absi"), "abs"),
    "math.exp": "exp",
    "math.log": "log",
    "math.sqrt": "sqrt",
    "math.tanh": "tanh",
    "math.asinh": "asinh",
    "math.erf": "erf",
    "math.sin": "sin",
    "math.cos": "cos",
    "math.atan": "atan",
    "math.expm1": "expm1",
    "math.log1p": "log1p",
    "math.rsqrt": "rsqrt",
    "math.exp2": "exp2",
    "math.roundeven": "round_even",
    "math.fpowi": "pow_int",
    "arith.select": "where_gt",
    **dict.fromkeys(
        (
            "arith.extf",
            "arith.truncf",
            "arith.sitofp",
            "arith.uitofp",
            "arith.fptosi",
            "arith.fptoui",
            "arith.extsi",
            "arith.extui",
            "arith.trunci",
            "arith.bitcast",
            "arith.index_cast",
        ),
        "cast",
    ),
}
# A reduction's name by the op that combines its accumulator (a product with a sum is a contraction).
REDUCTIONS = {
    **dict.fromkeys(("arith.addf", "arith.addi"), "reduce_sum"),
    **dict.fromkeys(("arith.maximumf", "arith.maxnumf", "arith.maxsi", "arith.maxui"), "reduce_max"),
    **dict.fromkeys(("arith.minimumf", "arith.minnumf", "arith.minsi", "arith.minui"), "reduce_min"),
    **dict.fromkeys(("arith.mulf", "arith.muli"), "reduce_prod"),
}
# Ops whose result is their first operand's data under another type: no op of the cone.
SAME_DATA = frozenset({"tensor.cast", "linalg.copy"})
EMPTY = frozenset({"tensor.empty"})
SPLATS = frozenset({"linalg.fill", "tensor.splat"})


def output_cone(text: str, function: str, output: int) -> dict[str, Any] | None:
    """The ops result ``output`` of ``function`` depends on, as graph JSON (``{"nodes": [...], "outputs":
    [ref]}``, nodes in program order, refs renumbered); None when the function or the result is not there."""
    module = parse_ir(text)
    func = next(
        (
            op
            for op in module.body.operations
            if op.operation.name == "func.func" and ir.StringAttr(op.attributes["sym_name"]).value == function
        ),
        None,
    )
    if func is None or not func.regions[0].blocks:
        return None
    return _Reader(func.regions[0].blocks[0]).cone(output)


class _Reader:
    """The top-level ops of one function body as graph nodes (ops nested in regions are their op's own)."""

    def __init__(self, body: ir.Block) -> None:
        self.refs: dict[ir.Value, str] = {arg: f"a{i}" for i, arg in enumerate(body.arguments)}
        self.nodes: list[dict[str, Any]] = []
        self.returned: list[str | None] = []
        for op in body.operations:
            self._read(op.operation)

    def cone(self, output: int) -> dict[str, Any] | None:
        if not 0 <= output < len(self.returned):
            return None
        needed, todo = set(), [self.returned[output]]
        while todo:
            ref = todo.pop()
            if ref and ref.startswith("n") and int(ref[1:]) not in needed:
                needed.add(int(ref[1:]))
                node = self.nodes[int(ref[1:])]
                todo += node["inputs"] + [v.removeprefix("value:") for v in node["attrs"].values()]
        renumber = {f"n{old}": f"n{new}" for new, old in enumerate(sorted(needed))}
        rename = lambda ref: renumber.get(ref, ref)
        nodes = [
            {
                "op": self.nodes[i]["op"],
                "inputs": [rename(r) for r in self.nodes[i]["inputs"]],
                "attrs": {k: f"value:{rename(v.removeprefix('value:'))}" for k, v in self.nodes[i]["attrs"].items()},
            }
            for i in sorted(needed)
        ]
        returned = self.returned[output]
        return {"nodes": nodes, "outputs": [rename(returned) if returned else "-"]}

    def _read(self, op: ir.Operation) -> None:
        name = op.name
        if name == "func.return":
            self.returned = [self.refs.get(v) for v in op.operands]
            return
        tensors = [r for r in op.results if _is_tensor(r.type)]
        if not tensors or name in EMPTY:
            return
        if name in SAME_DATA:
            source = self.refs.get(op.operands[0]) if len(op.operands) else None
            self.refs.update({r: source for r in tensors if source})
            return
        if name.endswith(".constant"):
            if _is_splat(op):
                self._node(tensors, "fill", [], None)
            return  # a constant of many values is data, like an argument
        ins, outs = _ins_outs(op)
        what = "fill" if name in SPLATS else _name(op)
        if what == "copy":  # a generic that only copies its input
            source = self.refs.get(ins[0]) if ins else None
            self.refs.update({r: source for r in tensors if source})
            return
        inputs = [ref for v in ins if (ref := self.refs.get(v))] if what != "fill" else []
        init = next((ref for v in outs if (ref := self.refs.get(v))), None)
        self._node(tensors, what, inputs, init)

    def _node(self, results: list[ir.Value], op: str, inputs: list[str], init: str | None) -> None:
        ref = f"n{len(self.nodes)}"
        self.nodes.append({"op": op, "inputs": inputs, "attrs": {"init": f"value:{init}"} if init else {}})
        self.refs.update({r: ref for r in results})


def _is_tensor(t: ir.Type) -> bool:
    return str(t).startswith("tensor<")


def _is_splat(op: ir.Operation) -> bool:
    """A constant whose elements are all one value (``dense<2>``)."""
    if "value" not in op.attributes:
        return False
    try:
        return bool(ir.DenseElementsAttr(op.attributes["value"]).is_splat)
    except ValueError:  # not dense elements (a resource, a scalar)
        return False


def _ins_outs(op: ir.Operation) -> tuple[list[ir.Value], list[ir.Value]]:
    """A destination-passing op's inputs and destinations (by its operand segments); else every tensor operand is
    an input."""
    operands = [v for v in op.operands]
    if "operandSegmentSizes" in op.attributes and op.name.startswith(("linalg.", "iree_linalg_ext.")):
        sizes = list(ir.DenseI32ArrayAttr(op.attributes["operandSegmentSizes"]))
        if len(sizes) >= 2:
            return operands[: sizes[0]], operands[sizes[0] : sizes[0] + sizes[1]]
    return [v for v in operands if _is_tensor(v.type)], []


def _name(op: ir.Operation) -> str:
    """The graph's name for what ``op`` computes."""
    dialect, _, short = op.name.partition(".")
    if op.name in ("linalg.generic", "linalg.map", "linalg.reduce"):
        return _body_name(op)
    if op.name in ELEMENTWISE:  # an arith / math op on tensors
        return ELEMENTWISE[op.name]
    if dialect == "linalg" and f"arith.{short}" in ELEMENTWISE:  # linalg.add, linalg.max ...
        return ELEMENTWISE[f"arith.{short}"]
    if dialect == "linalg" and f"math.{short}" in ELEMENTWISE:  # linalg.exp, linalg.abs ...
        return ELEMENTWISE[f"math.{short}"]
    return short  # matmul, pooling_nhwc_max, softmax, sort, gather, pad, collapse_shape, ... as the graph names them


def _body_name(op: ir.Operation) -> str:
    """A generic / map / reduce by what its body yields: a value from outside the body is a splat (``fill``), its
    input is data movement, else the op that computes the value (``REDUCTIONS`` when it reduces)."""
    body = op.regions[0].blocks[0]
    ops = [o.operation for o in body.operations]
    inputs = len(_ins_outs(op)[0])
    if any(o.name == "linalg.index" for o in ops):
        return "generic" if inputs else "iota"
    yielded = ops[-1].operands[0] if ops and len(ops[-1].operands) else None
    if yielded is None:
        return "generic"
    if isinstance(yielded, ir.BlockArgument):
        if yielded.owner != body:
            return "fill"
        return _movement(op) if yielded.arg_number < inputs else "generic"
    producer = yielded.owner.operation
    if producer not in ops or producer.name == "arith.constant":
        return "fill"  # every element is one value, whatever the inputs
    reduces = op.name == "linalg.reduce" or (
        "iterator_types" in op.attributes and "reduction" in str(op.attributes["iterator_types"])
    )
    if not reduces:
        return ELEMENTWISE.get(producer.name, "generic")
    products = producer.name in ("arith.addf", "arith.addi") and any(
        o.name in ("arith.mulf", "arith.muli") for o in ops
    )
    return "contract" if products and inputs >= 2 else REDUCTIONS.get(producer.name, "generic")


def _movement(op: ir.Operation) -> str:
    """A generic that yields its input: a copy, a transpose, a broadcast or another movement, by its maps."""
    if op.name != "linalg.generic":
        return "copy"
    maps = [ir.AffineMapAttr(m).value for m in op.attributes["indexing_maps"]]
    source, target = maps[0], maps[-1]
    if source == target:
        return "copy"
    if source.is_permutation:
        return "transpose"
    if source.is_projected_permutation:
        return "broadcast"
    return "generic"
