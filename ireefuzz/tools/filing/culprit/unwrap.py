"""IR after a ``--compile-to`` phase (input .. flow) as plain functions of tensors, for the float64 interpreter:
``util.func`` -> ``func.func``, the ABI's ``hal.tensor.import`` / ``export`` -> the tensor, hoisted constants and
initializers -> constants and calls, ``flow.dispatch.region`` / ``workgroups`` / ``flow.dispatch`` bodies inlined.
"""

from __future__ import annotations

import re
from typing import Any, Iterator

import numpy as np

from ireefuzz.oracles import vocabulary


def unwrap(text: str) -> str:
    """IR after a ``--compile-to`` phase as plain functions the interpreter reads: ``util.func`` -> ``func.func``,
    ``util.return`` -> ``return``, ``!hal.buffer_view`` arguments and results -> the tensors the function's
    ``iree.abi.declaration`` names, ``hal.tensor.import`` / ``export`` -> the value itself, ``hal.buffer_view.dim`` ->
    ``tensor.dim``, a hoisted constant global's load -> the constant; ``flow.dispatch.region`` bodies inlined and
    barriers dropped. Raises ValueError on what it cannot rewrite (``flow.dispatch.workgroups``, streams, mutable
    globals)."""
    if re.search(r"(?:=|^)\s*stream\.\w|^\s*hal\.executable\b", text, re.M):
        raise ValueError("streams / hal executables")
    text = _initializers_as_functions(text)
    # constants hoisted into globals (global optimization): the load becomes the constant
    inits = {
        m.group(1): m.group(2)
        for m in re.finditer(
            r"^\s*util\.global private @([\w$.-]+)(?: \{[^\n]*?\})? = (dense<[^\n]*>) : tensor<[^>]*>\s*$", text, re.M
        )
    }
    text = re.sub(
        r"^(\s*%[\w.]+) = util\.global\.load (?:immutable )?@([\w$.-]+) : (tensor<[^>]*>)\s*$",
        lambda m: (
            f"{m.group(1)} = arith.constant {inits[m.group(2)]} : {m.group(3)}" if m.group(2) in inits else m.group(0)
        ),
        text,
        flags=re.M,
    )
    if re.search(r"\butil\.global\.(load|store)\b", text):
        raise ValueError("mutable globals")
    text = re.sub(r"^\s*util\.global\b[^\n]*\n", "", text, flags=re.M)
    text = re.sub(r"^module attributes \{[^\n]*\} \{", "module {", text, flags=re.M)
    chunks = re.split(r"(?m)^(?=\s*(?:util\.func|func\.func|util\.global|util\.initializer)\b)", text)
    text = "".join(_unwrap_function(c) if re.match(r"\s*util\.func\b", c) else c for c in chunks)
    if "hal.buffer_view" in text or "hal.tensor" in text:
        raise ValueError("hal values left")
    from iree.compiler import ir

    with ir.Context() as ctx:
        ctx.allow_unregistered_dialects = True
        module = ir.Module.parse(text)
        _inline_regions(module)
        return str(module)


def _initializers_as_functions(text: str) -> str:
    """Each ``util.initializer`` that stores globals becomes one private function per stored global, returning the
    stored value, and each load of such a global a call of its function (the initializers are pure computations)."""
    out, made = text, {}
    for m in re.finditer(r"(?m)^(\s*)util\.initializer\b[^\n]*\{\n", text):
        indent, start = m.group(1), m.end()
        close = re.compile(rf"(?m)^{re.escape(indent)}\}}\s*$").search(text, start)
        if close is None:
            raise ValueError("an initializer without its end")
        body = text[start : close.start()]
        stores = re.findall(r"^\s*util\.global\.store (%[\w.#]+), @([\w$.-]+) : ([^\n]+)$", body, re.M)
        if not stores or re.search(r"\bscf\.|\bcf\.|util\.global\.load", body):
            raise ValueError("an initializer with control flow or loads")
        plain = re.sub(r"^\s*util\.global\.store [^\n]*\n", "", body, flags=re.M)
        functions = []
        for value, name, ttype in stores:
            ret = re.sub(r"(?m)^(\s*)util\.return\s*$", rf"\1return {value} : {ttype.strip()}", plain)
            functions.append(f"{indent}func.func private @__init_{name}() -> {ttype.strip()} {{\n{ret}{indent}}}\n")
            made[name] = ttype.strip()
        out = (
            out.replace(text[m.start() : close.end()] + "\n", "".join(functions), 1)
            if (text[m.start() : close.end()] + "\n") in out
            else out.replace(text[m.start() : close.end()], "".join(functions), 1)
        )
    for name, ttype in made.items():
        out = re.sub(
            rf"(?m)^(\s*%[\w.]+) = util\.global\.load (?:immutable )?@{re.escape(name)} : [^\n]+$",
            rf"\1 = func.call @__init_{name}() : () -> {ttype}",
            out,
        )
    return out


_TYPE = r"tensor<[^>]*>|[a-z]\w*"


def _unwrap_function(chunk: str) -> str:
    """One ``util.func`` (up to the next one) with its ABI wrapping removed (see ``unwrap``)."""
    header, _, body = chunk.partition("\n")
    declared = re.search(r'iree\.abi\.declaration = "[^"(]*\(([^)]*)\)(?: -> \(([^)]*)\))?"', header)
    if declared is None:
        if "hal.buffer_view" in chunk:
            raise ValueError("no iree.abi.declaration")
        chunk = re.sub(r"\butil\.func\s+(?:public\s+|private\s+)?", "func.func ", chunk, count=1)
        return re.sub(r"\butil\.return\b", "return", chunk)
    inputs = re.findall(rf"%\w+: ({_TYPE})", declared.group(1))
    outputs = re.findall(rf"%\w+: ({_TYPE})", declared.group(2) or "")
    header = re.sub(r"\s*attributes \{.*\}\s*\{\s*$", " {", header)
    head, arrow, tail = header.partition(") ->")
    given = iter(inputs)
    head = re.sub(r"!hal\.buffer_view", lambda m: next(given, m.group(0)), head)
    results = iter(outputs)
    tail = re.sub(r"!hal\.buffer_view", lambda m: next(results, m.group(0)), tail)
    header = re.sub(r"\butil\.func\s+(?:public\s+|private\s+)?", "func.func ", head + arrow + tail)
    args = dict(re.findall(rf"(%\w+): ({_TYPE})", head))
    for m in list(
        re.finditer(
            r"^\s*(%[\w.]+) = hal\.tensor\.import(?:\s+on\([^)]*\))?(?:\s+wait\([^)]*\)\s*=>)?\s+"
            r"(%[\w.]+)\b[^\n]*$",
            body,
            re.M,
        )
    ):
        body = body.replace(m.group(0) + "\n", "")
        body = re.sub(rf"{re.escape(m.group(1))}(?![\w.])", m.group(2), body)
    body = re.sub(
        r"^(\s*)(%[\w.]+) = hal\.buffer_view\.dim<(%[\w.]+) : !hal\.buffer_view>\[(\d+)\] : index\s*$",
        lambda m: (
            f"{m.group(1)}%dimk_{m.group(2)[1:]} = arith.constant {m.group(4)} : index\n"
            f"{m.group(1)}{m.group(2)} = tensor.dim {m.group(3)}, %dimk_{m.group(2)[1:]} : "
            f"{args.get(m.group(3), '?')}"
        ),
        body,
        flags=re.M,
    )
    for m in list(
        re.finditer(r"^\s*(%[\w.]+) = hal\.tensor\.export(?:\s+on\([^)]*\))?\s+(%[\w.]+(?:#\d+)?)[^\n]*$", body, re.M)
    ):
        body = body.replace(m.group(0) + "\n", "")
        body = re.sub(rf"{re.escape(m.group(1))}(?![\w.#])", m.group(2), body)
    body = re.sub(
        r"^(\s*)util\.return\b([^:\n]*)(?::[^\n]*)?$",
        lambda m: f"{m.group(1)}return{m.group(2)}" + (f" : {', '.join(outputs)}" if outputs else ""),
        body,
        count=1,
        flags=re.M,
    )
    return header + "\n" + body


_IDENTITY_OPS = frozenset(
    {
        "iree_tensor_ext.compute_barrier.start",
        "iree_tensor_ext.compute_barrier.end",
        "flow.tensor.tie_shape",
        "util.optimization_barrier",
        "iree_tensor_ext.dispatch.workload.ordinal",
    }
)  # value in = value out
_TIE_SHAPE = vocabulary.TIE_SHAPES  # a dispatch tensor with its dims


def _inline_regions(module: Any) -> None:
    """Move each ``flow.dispatch.region``'s body before it and use its ``flow.return`` operands for its results."""
    for op in [o for o in _walk(module.operation) if o.name == "flow.tensor.reshape"]:
        _reshape_as_tensor_reshape(op)
    for op in [o for o in _walk(module.operation) if o.name == "flow.dispatch.workgroups"]:
        _inline_workgroups(op)
    from iree.compiler import ir

    executables = {
        ir.StringAttr(o.attributes["sym_name"]).value: o for o in _walk(module.operation) if o.name == "flow.executable"
    }
    for op in [o for o in _walk(module.operation) if o.name == "flow.dispatch"]:
        _inline_dispatch(op, executables)
    for o in executables.values():
        o.erase()
    _drop_identities(module)
    while True:
        region_op = next((op for op in _walk(module.operation) if op.name == "flow.dispatch.region"), None)
        if region_op is None:
            return
        block = region_op.regions[0].blocks[0]
        ops = list(block.operations)
        terminator = ops[-1]
        for o in ops[:-1]:
            o.operation.move_before(region_op)
        for r, v in zip(region_op.results, terminator.operands):
            r.replace_all_uses_with(v)
        region_op.erase()


def _drop_identities(module: Any) -> None:
    for op in [o for o in _walk(module.operation) if o.name in _IDENTITY_OPS]:
        for r, v in zip(op.results, op.operands):
            r.replace_all_uses_with(v)
        op.erase()


def _reshape_as_tensor_reshape(op: Any) -> None:
    """``flow.tensor.reshape`` of static shapes -> ``tensor.reshape`` with a constant shape."""
    from iree.compiler import ir

    source, result = op.operands[0], op.results[0]
    if not (source.type.has_static_shape and result.type.has_static_shape):
        raise ValueError("a dynamic flow.tensor.reshape")
    with ir.InsertionPoint(op), op.location:
        index = ir.IndexType.get()
        shape_type = ir.RankedTensorType.get([result.type.rank], index)
        shape = ir.Operation.create(
            "arith.constant",
            results=[shape_type],
            attributes={
                "value": ir.DenseElementsAttr.get(np.asarray(result.type.shape, dtype=np.int64), type=shape_type)
            },
        )
        new = ir.Operation.create("tensor.reshape", results=[result.type], operands=[source, shape.results[0]])
    result.replace_all_uses_with(new.results[0])
    op.erase()


def _inline_dispatch(op: Any, executables: dict) -> None:
    """A ``flow.dispatch @executable::@function(...)``: a clone of the executable's function body inlined as for
    ``flow.dispatch.workgroups`` (the dispatch's tensor-level executable source, run where it is called)."""
    from iree.compiler import ir

    ref = str(op.attributes["entry_points"])
    m = re.search(r"@([\w$.-]+)::@([\w$.-]+)", ref)
    if m is None or m.group(1) not in executables:
        raise ValueError(f"a dispatch of an unknown executable ({ref})")
    func = next(
        (
            o
            for o in _walk(executables[m.group(1)])
            if o.name == "func.func" and ir.StringAttr(o.attributes["sym_name"]).value == m.group(2)
        ),
        None,
    )
    if func is None:
        raise ValueError(f"no function {m.group(2)} in {m.group(1)}")
    clone = func.clone(ir.InsertionPoint(op))
    try:
        _inline_body(op, clone.regions[0].blocks[0])
    finally:
        clone.erase()


def _inline_workgroups(op: Any) -> None:
    """A ``flow.dispatch.workgroups`` whose body loads and stores whole tensors: its body before it, each full load
    its argument, each result the value stored to it. A partial load or store (a tile) raises ValueError."""
    _inline_body(op, op.regions[0].blocks[0])


def _inline_body(op: Any, block: Any) -> None:
    """``block`` (a dispatch body: arguments, then one per result not tied to an argument) inlined before ``op``."""
    from iree.compiler import ir

    sizes = list(ir.DenseI32ArrayAttr(op.attributes["operandSegmentSizes"]))
    n_workload, n_args = sizes[0], sizes[1]
    arguments = list(op.operands)[n_workload : n_workload + n_args]
    tied = (
        [int(ir.IntegerAttr(x).value) for x in ir.ArrayAttr(op.attributes["tied_operands"])]
        if "tied_operands" in op.attributes
        else [-1] * len(op.results)
    )
    bargs = list(block.arguments)
    untied = [j for j, t in enumerate(tied) if t < 0]
    arg_of = {bargs[i]: arguments[i] for i in range(n_args)}
    result_of: dict[Any, int] = {bargs[n_args + k]: j for k, j in enumerate(untied)}
    for j, t in enumerate(tied):
        if t >= 0:
            result_of[bargs[t]] = j
    stored: dict[int, Any] = {}
    for inner in list(block.operations):
        o = inner.operation
        if o.name in ("flow.return", "func.return"):
            o.erase()
            continue
        if o.name in _TIE_SHAPE:  # the same dispatch tensor, with its dynamic dims
            if o.operands[0] in arg_of:
                arg_of[o.results[0]] = arg_of[o.operands[0]]
            if o.operands[0] in result_of:
                result_of[o.results[0]] = result_of[o.operands[0]]
            continue
        if o.name in vocabulary.TENSOR_LOADS:
            src = arg_of.get(o.operands[0])
            if src is None or not _whole(o, src.type, o.results[0].type):
                raise ValueError("a partial dispatch tensor load")
            o.results[0].replace_all_uses_with(src)
            o.erase()
            continue
        if o.name in vocabulary.TENSOR_STORES:
            index = result_of.get(o.operands[1])
            if index is None or not _whole(o, op.results[index].type, o.operands[0].type):
                raise ValueError("a partial dispatch tensor store")
            stored[index] = o.operands[0]
            o.erase()
            continue
        o.move_before(op)
    for barg, value in arg_of.items():  # index arguments (dims) used directly in the body
        if list(barg.uses):
            barg.replace_all_uses_with(value)
    for j, r in enumerate(op.results):
        if j not in stored:
            raise ValueError("a dispatch result never stored")
        r.replace_all_uses_with(stored[j])
    op.erase()


def _whole(op: Any, full: Any, part: Any) -> bool:
    """A dispatch tensor load / store of the whole tensor: zero static offsets, unit strides, the same type."""
    from iree.compiler import ir

    offsets = list(ir.DenseI64ArrayAttr(op.attributes["static_offsets"])) if "static_offsets" in op.attributes else []
    strides = list(ir.DenseI64ArrayAttr(op.attributes["static_strides"])) if "static_strides" in op.attributes else []
    return all(x == 0 for x in offsets) and all(x == 1 for x in strides) and str(full) == str(part)


def _walk(op: Any) -> Iterator[Any]:
    for region in op.regions:
        for block in region.blocks:
            for inner in block.operations:
                yield inner.operation
                yield from _walk(inner.operation)
