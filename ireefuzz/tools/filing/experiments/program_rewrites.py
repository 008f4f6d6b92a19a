"""Rewrites of a raw program's text (as MLIR prints it), each giving a program that verifies or None: f32 for
f16 / bf16, ``tensor.empty`` for an argument init, argument types static or dynamic behind a ``tensor.cast``, a
leading dim more or less, a static slice or a splat producer read from a new argument."""

from __future__ import annotations

import dataclasses
import re
from typing import Any, Mapping, Sequence

from ireefuzz.base.mlir_text import split_top_level

_NARROW_TYPE = re.compile(r"(?<![a-wyzA-Z0-9_])b?f16(?!\w)")  # 4xf16 and bf16, not bf16's f16
_HEX16 = re.compile(r"\b0x([0-9A-Fa-f]{4})\b")
_IDENTITY_CAST = re.compile(r"^(\s*)(%[\w.$-]+) = arith\.(?:extf|truncf) (%[\w.$-]+)(?: [^:]*)? : f32 to f32\s*$")


def widened_text(text: str) -> str | None:
    """``text`` (printed by MLIR) with f16 / bf16 as f32: types, 16-bit hex float literals, and the
    ``arith.extf`` / ``arith.truncf`` that become f32 -> f32 dropped (their uses renamed within their block).
    None when nothing is narrow or the result does not verify."""
    from ireefuzz.tools.shrink.canonical import parse

    module = parse(text)
    if module is None or not _NARROW_TYPE.search(text):
        return None
    lines = []
    for line in str(module).splitlines():
        bf16 = "bf16" in line
        line = _HEX16.sub(lambda m: _hex32(m.group(1), bf16), line)
        lines.append(_NARROW_TYPE.sub("f32", line))
    k = 0
    while k < len(lines):
        m = _IDENTITY_CAST.match(lines[k])
        if not m:
            k += 1
            continue
        indent, result, operand = m.groups()
        del lines[k]
        use = re.compile(re.escape(result) + r"(?![\w.$-])")
        j = k
        while j < len(lines) and (not lines[j].strip() or len(lines[j]) - len(lines[j].lstrip()) >= len(indent)):
            lines[j] = use.sub(operand, lines[j])
            j += 1
    candidate = "\n".join(lines) + "\n"
    return candidate if parse(candidate) is not None else None


def _hex32(bits: str, bf16: bool) -> str:
    """A 16-bit float's hex literal as the f32 literal of the same value."""
    import numpy as np

    raw = int(bits, 16)
    value = (
        np.array([raw << 16], dtype=np.uint32).view(np.float32)[0]
        if bf16
        else np.array([raw], dtype=np.uint16).view(np.float16)[0].astype(np.float32)
    )
    return "0x%08X" % int(np.array([value], dtype=np.float32).view(np.uint32)[0])


_IN_PLACE_OPS = frozenset({"iree_linalg_ext.sort", "iree_linalg_ext.scatter", "iree_linalg_ext.scan"})


@dataclasses.dataclass(frozen=True)
class ArgumentInit:
    """A function argument used as an op's destination (``outs``) at the top level of a function."""

    function: str
    op_index: int  # among the function's top-level ops
    op: str
    argument: int
    type: str
    element: str
    dynamic: tuple[int, ...]  # its dynamic dims
    reads: bool  # the op reads its destination (a reduction, a contraction, a generic using ``%out``)


# A destination: ``outs(...)``, or a pack / unpack's ``into`` (not an insert's, whose other elements it keeps).
_OUTS = re.compile(r"(?:\bouts\(|\blinalg\.(?:un)?pack\b.*?\binto\s+)([^:]*):")
_FUNCTION_ARG = r"%arg{}(?![\w.$-])"


def _op_lines(lines: Sequence[str], function: str) -> list[int]:
    """The lines (of a program printed by MLIR) where each top-level op of ``function`` starts, terminator included."""
    head = next(
        (i for i, ln in enumerate(lines) if re.match(rf"\s*func\.func (?:\w+ )?@{re.escape(function)}\(", ln)), None
    )
    if head is None:
        return []
    indent = len(lines[head]) - len(lines[head].lstrip()) + 2
    starts = []
    for i in range(head + 1, len(lines)):
        depth = len(lines[i]) - len(lines[i].lstrip())
        if lines[i].strip() and depth < indent:
            break
        if depth == indent and not lines[i].lstrip().startswith(("}", "^")):
            starts.append(i)
    return starts


def argument_inits(text: str) -> list[ArgumentInit]:
    """Every function argument some top-level op of ``text`` takes as a destination (in its ``outs(...)``), read with
    MLIR's bindings (types, which operand, whether the op's region reads it) on the program as MLIR prints it."""
    from iree.compiler import ir

    from ireefuzz.tools.shrink.canonical import parse

    module = parse(text)
    if module is None:
        return []
    lines = str(module).splitlines()
    found = []
    for f in (op.operation for op in module.body.operations if op.operation.name == "func.func"):
        if not f.regions[0].blocks:
            continue
        name = ir.StringAttr(f.attributes["sym_name"]).value
        entry = f.regions[0].blocks[0]
        ops, starts = [o.operation for o in entry.operations], _op_lines(lines, name)
        if len(ops) != len(starts):  # not printed as expected: no site rather than a wrong one
            continue
        for k, (op, at) in enumerate(zip(ops, starts)):
            outs = _OUTS.search(lines[at])
            for n in dict.fromkeys(int(m) for m in re.findall(r"%arg(\d+)(?![\w.$-])", outs.group(1) if outs else "")):
                value = entry.arguments[n] if n < len(entry.arguments) else None
                t = value.type if value is not None else None
                if not isinstance(t, ir.RankedTensorType):
                    continue
                operand = max((i for i, v in enumerate(op.operands) if v == value), default=-1)
                found.append(
                    ArgumentInit(
                        name,
                        k,
                        op.name,
                        n,
                        str(t),
                        str(t.element_type),
                        tuple(i for i in range(t.rank) if t.is_dynamic_dim(i)),
                        _reads_destination(op, operand),
                    )
                )
    return found


def _reads_destination(op: Any, operand: int) -> bool:
    """Whether ``op`` reads its operand ``operand`` as a destination: an in-place op always; a structured op when
    the block argument of its payload region for that operand has uses (a reduction, a generic reading ``%out``)."""
    if op.name in _IN_PLACE_OPS:
        return True
    if not op.regions or not op.regions[0].blocks:
        return False
    args = list(op.regions[0].blocks[0].arguments)
    return 0 <= operand < len(args) and len(args) == len(op.operands) and bool(list(args[operand].uses))


def _zero(element: str) -> str | None:
    if element in ("f16", "bf16", "f32", "f64"):
        return "0.000000e+00"
    if element == "i1":
        return "false"
    if re.fullmatch(r"[su]?i\d+|index", element):
        return "0"
    return None


def with_empty_init(text: str, site: ArgumentInit) -> str | None:
    """``text`` (printed by MLIR) with ``site``'s destination a fresh ``tensor.empty`` of its type (sized by the
    argument's dynamic dims), filled with zero first when the op reads it; None if the result does not verify."""
    from ireefuzz.tools.shrink.canonical import parse

    module = parse(text)
    zero = _zero(site.element)
    if module is None or (site.reads and zero is None):
        return None
    lines = str(module).splitlines()
    starts = _op_lines(lines, site.function)
    if site.op_index >= len(starts) or site.op not in lines[starts[site.op_index]]:
        return None
    indent = len(lines[starts[0]]) - len(lines[starts[0]].lstrip())
    at, arg, pad = starts[site.op_index], f"%arg{site.argument}", " " * indent
    fresh = f"%xf_init{site.op_index}_{site.argument}"
    new = []
    dims = []
    for d in site.dynamic:
        new += [
            f"{pad}{fresh}_c{d} = arith.constant {d} : index",
            f"{pad}{fresh}_d{d} = tensor.dim {arg}, {fresh}_c{d} : {site.type}",
        ]
        dims.append(f"{fresh}_d{d}")
    empty = f"{fresh}_empty" if site.reads else fresh
    new.append(f"{pad}{empty} = tensor.empty({', '.join(dims)}) : {site.type}")
    if site.reads:
        new += [
            f"{pad}{fresh}_zero = arith.constant {zero} : {site.element}",
            f"{pad}{fresh} = linalg.fill ins({fresh}_zero : {site.element}) outs({empty} : {site.type}) -> {site.type}",
        ]
    outs = _OUTS.search(lines[at])
    if outs is None or not re.search(_FUNCTION_ARG.format(site.argument), outs.group(1)):
        return None
    renamed = re.sub(_FUNCTION_ARG.format(site.argument), fresh, outs.group(1), count=1)
    lines[at] = lines[at][: outs.start(1)] + renamed + lines[at][outs.end(1) :]
    candidate = "\n".join(lines[:at] + new + lines[at:]) + "\n"
    return candidate if parse(candidate) is not None else None


def _function_span(lines: Sequence[str], function: str) -> tuple[int, int] | None:
    """(the header line, the closing-brace line) of ``function`` in a program printed by MLIR."""
    head = next(
        (i for i, ln in enumerate(lines) if re.match(rf"\s*func\.func (?:\w+ )?@{re.escape(function)}\(", ln)), None
    )
    if head is None or not lines[head].rstrip().endswith("{"):
        return None
    indent = len(lines[head]) - len(lines[head].lstrip())
    closing = " " * indent + "}"
    end = next((i for i in range(head + 1, len(lines)) if lines[i].rstrip() == closing), None)
    return (head, end) if end is not None else None


def _entry_arguments(module: Any, function: str) -> list[Any] | None:
    """The entry block arguments of ``function`` in a parsed ``module`` (None: no such function with a body)."""
    from iree.compiler import ir

    for op in module.body.operations:
        f = op.operation
        if f.name == "func.func" and ir.StringAttr(f.attributes["sym_name"]).value == function and f.regions[0].blocks:
            return list(f.regions[0].blocks[0].arguments)
    return None


def with_argument_types(text: str, function: str, shapes: Mapping[int, Sequence[int | None]]) -> str | None:
    """``text`` (printed by MLIR) with argument ``n`` of ``function`` of the shape ``shapes[n]`` (None: a dynamic
    dim) and a ``tensor.cast`` back to its own type at entry, so the body is unchanged (IREE's canonicalization
    folds the cast into its users: static sizes propagate, dynamic ones stay opaque). None if nothing changes or the
    result does not verify."""
    from iree.compiler import ir

    from ireefuzz.tools.shrink.canonical import parse

    module = parse(text)
    arguments = _entry_arguments(module, function) if module is not None else None
    if module is None or arguments is None:
        return None
    lines = str(module).splitlines()
    span = _function_span(lines, function)
    if span is None:
        return None
    head, end = span
    pad = " " * (len(lines[head]) - len(lines[head].lstrip()) + 2)
    casts = []
    with module.context, ir.Location.unknown():
        for n, shape in sorted(shapes.items()):
            t = arguments[n].type if n < len(arguments) else None
            if not isinstance(t, ir.RankedTensorType) or len(shape) != t.rank:
                return None
            dims = [ir.ShapedType.get_dynamic_size() if d is None else int(d) for d in shape]
            new = ir.RankedTensorType.get(dims, t.element_type, t.encoding)
            if str(new) == str(t):
                continue
            declared = re.compile(rf"(%arg{n}: ){re.escape(str(t))}")
            if not declared.search(lines[head]):
                return None
            lines[head] = declared.sub(lambda m: m.group(1) + str(new), lines[head], count=1)
            fresh, use = f"%xf_arg{n}", re.compile(_FUNCTION_ARG.format(n))
            for i in range(head + 1, end):
                lines[i] = use.sub(fresh, lines[i])
            casts.append(f"{pad}{fresh} = tensor.cast %arg{n} : {new} to {t}")
    if not casts:
        return None
    candidate = "\n".join(lines[: head + 1] + casts + lines[head + 1 :]) + "\n"
    return candidate if parse(candidate) is not None else None


# Ops whose meaning does not change with a leading parallel dim on every tensor (their indexing is identity or
# spelled by the attributes ``reranked_text`` moves): a rank more or less is then a mechanical rewrite.
_RANK_FREE_OPS = frozenset(
    {"func.return", "tensor.empty", "tensor.dim", "linalg.yield", "linalg.index", "linalg.fill", "linalg.map"}
    | {"linalg.generic", "linalg.softmax", "linalg.reduce", "linalg.copy", "linalg.elementwise"}
    | {f"linalg.{n}" for n in ("add", "sub", "mul", "div", "div_unsigned", "max", "min", "powf", "select")}
    | {f"linalg.{n}" for n in ("exp", "log", "abs", "ceil", "floor", "negf", "reciprocal", "round", "sqrt", "rsqrt")}
    | {f"linalg.{n}" for n in ("square", "tanh", "erf")}
)
_MAP = re.compile(r"affine_map<\(([^)]*)\)((?:\[[^\]]*\])?) -> \((.*?)\)>")
_DIM = re.compile(r"\bd(\d+)\b")
_TENSOR_DIM = re.compile(r"(tensor\.dim %[\w.$-]+, )(%[\w.$-]+)( :)")
_INDEX_CONSTANT = r"^\s*{} = arith\.constant (\d+) : index\s*$"


def _rank_free(op: Any) -> str:
    """Why a leading dim cannot be added to or dropped from ``op`` mechanically ("" when it can)."""
    from iree.compiler import ir

    name = op.name
    if name.startswith(("arith.", "math.")):
        if name == "arith.constant" and isinstance(op.results[0].type, ir.RankedTensorType):
            value = op.attributes["value"]
            if not (isinstance(value, ir.DenseElementsAttr) and value.is_splat):
                return "a tensor constant that is not a splat"
        return ""
    if name not in _RANK_FREE_OPS:
        return f"`{name}` fixes its operands' ranks"
    if name.startswith("linalg.") and any(not isinstance(v.type, ir.RankedTensorType) for v in op.operands):
        if name != "linalg.fill" and name not in ("linalg.yield", "linalg.index"):
            return f"`{name}` takes a scalar operand"
    for region in op.regions:
        for block in region.blocks:
            for inner in block.operations:
                why = _rank_free(inner.operation)
                if why:
                    return why
    return ""


def _shift_map(match: re.Match[str], step: int) -> str:
    dims, symbols, results = match.groups()
    n = len([d for d in dims.split(",") if d.strip()])
    shifted = _DIM.sub(lambda m: f"d{int(m.group(1)) + step}", results)
    if step > 0:
        body = ", ".join(["d0"] + ([shifted] if shifted.strip() else []))
        return f"affine_map<({', '.join(f'd{i}' for i in range(n + 1))}){symbols} -> ({body})>"
    parts = split_top_level(results)
    if not parts or parts[0] != "d0" or any(_DIM.search(p) and "d0" in _DIM.findall(p) for p in parts[1:]):
        raise ValueError("the leading dim is not a plain leading result of every map")
    rest = ", ".join(_DIM.sub(lambda m: f"d{int(m.group(1)) - 1}", p) for p in parts[1:])
    return f"affine_map<({', '.join(f'd{i}' for i in range(n - 1))}){symbols} -> ({rest})>"


def reranked_text(text: str, function: str, *, up: bool, size: int = 0) -> tuple[str | None, str]:
    """``text`` (printed by MLIR) with every tensor of ``function`` one leading dim more (of ``size``; up) or less
    (a static leading dim, read by no op as anything but a parallel dim), and the attributes that name dims moved:
    indexing maps and iterators, ``dimension`` / ``dimensions``, ``linalg.index`` and ``tensor.dim`` indices.
    (the program, "") or (None, why it is not mechanical)."""
    from ireefuzz.tools.shrink.canonical import parse
    from ireefuzz.tools.shrink.mlir import func_named

    module = parse(text)
    if module is None or _entry_arguments(module, function) is None:
        return None, "the function does not parse"
    f = func_named(module, function)
    for op in f.regions[0].blocks[0].operations:
        why = _rank_free(op.operation)
        if why:
            return None, why
    lines = str(module).splitlines()
    span = _function_span(lines, function)
    if span is None:
        return None, "the function is not printed as expected"
    head, end = span
    aliases = dict(re.findall(r"^(#[\w.$-]+) = (affine_map<.*>)$", "\n".join(lines[:head]), re.M))
    step = 1 if up else -1
    body = lines[head : end + 1]
    try:
        for k, line in enumerate(body):
            for name, value in aliases.items():
                line = re.sub(re.escape(name) + r"(?![\w.$-])", value, line)
            if "tensor<*" in line:
                raise ValueError("an unranked tensor")
            if up:
                line = line.replace("tensor<", f"tensor<{size}x")
            else:
                if re.search(r"tensor<(?!\d+x)", line):
                    raise ValueError("a tensor without a static leading dim")
                line = re.sub(r"tensor<\d+x", "tensor<", line)
            line = _MAP.sub(lambda m: _shift_map(m, step), line)
            if up:
                line = line.replace('iterator_types = ["', 'iterator_types = ["parallel", "')
            elif "iterator_types = [" in line:
                if 'iterator_types = ["parallel"' not in line:
                    raise ValueError("the leading dim is not parallel")
                line = re.sub(r'iterator_types = \["parallel",? ?', "iterator_types = [", line)
            line = re.sub(r"\bdimension\((\d+)\)", lambda m: f"dimension({_moved(int(m.group(1)), step)})", line)
            line = re.sub(
                r"\bdimensions = \[([\d, ]*)\]",
                lambda m: "dimensions = [" + ", ".join(str(_moved(int(d), step)) for d in _ints(m.group(1))) + "]",
                line,
            )
            line = re.sub(r"\blinalg\.index (\d+)", lambda m: f"linalg.index {_moved(int(m.group(1)), step)}", line)
            body[k] = line
        body, constants = _moved_tensor_dims(body, step)
    except ValueError as e:
        return None, str(e)
    pad = " " * (len(lines[head]) - len(lines[head].lstrip()) + 2)
    entry = [f"{pad}{name} = arith.constant {value} : index" for name, value in constants]
    candidate = "\n".join(lines[:head] + body[:1] + entry + body[1:] + lines[end + 1 :]) + "\n"
    return (candidate, "") if parse(candidate) is not None else (None, "the rewritten program does not verify")


def _ints(text: str) -> list[int]:
    return [int(d) for d in text.replace(" ", "").split(",") if d]


def _moved(dim: int, step: int) -> int:
    if dim + step < 0:
        raise ValueError("an op works along the leading dim")
    return dim + step


def _moved_tensor_dims(body: list[str], step: int) -> tuple[list[str], list[tuple[str, int]]]:
    """``body`` with each ``tensor.dim``'s constant index moved by ``step`` (new constants, declared at entry)."""
    constants: dict[str, int] = {}
    out = []
    for line in body:
        m = _TENSOR_DIM.search(line)
        if m:
            value = next(
                (int(c.group(1)) for ln in body if (c := re.match(_INDEX_CONSTANT.format(re.escape(m.group(2))), ln))),
                None,
            )
            if value is None:
                raise ValueError("a `tensor.dim` whose index is not a constant")
            moved = _moved(value, step)
            name = f"%xf_rank_c{moved}"
            constants[name] = moved
            line = line[: m.start(2)] + name + line[m.end(2) :]
        out.append(line)
    return out, list(constants.items())


_SLICE = re.compile(r"^\s*(%[\w.$-]+) = tensor\.extract_slice .* to (tensor<((?:\d+x)+)[a-z]\w*>)\s*$")


def _as_argument(
    lines: list[str], span: tuple[int, int], first: int, last: int, argument: str, result: str
) -> list[str]:
    """``lines`` (a function's program, ``span`` its header and closing lines) with the op on lines ``first`` to
    ``last`` removed and a new last argument ``argument`` of type ``result`` (its uses already renamed to it,
    ``_renamed``)."""
    header = lines[span[0]]
    function = re.search(r"@([\w$.-]+)\(", header).group(1)  # type: ignore[union-attr]
    opened = header.index(f"@{function}(") + len(function) + 2
    depth, close = 1, opened
    while depth and close < len(header):
        depth += {"(": 1, ")": -1}.get(header[close], 0)
        close += 1
    comma = ", " if header[opened : close - 1].strip() else ""
    lines[span[0]] = f"{header[: close - 1]}{comma}{argument}: {result}{header[close - 1 :]}"
    body = lines[span[0] + 1 : span[1]]
    del body[first - span[0] - 1 : last - span[0]]
    lines[span[0] + 1 : span[1]] = body
    return lines


def _renamed(lines: Sequence[str], span: tuple[int, int], value: str, argument: str) -> list[str]:
    """``lines`` with every use of ``value`` inside ``span`` (a function's body) spelled ``argument``."""
    use = re.compile(rf"{re.escape(value)}(?![\w.$-])")
    return [use.sub(argument, ln) if span[0] < i < span[1] else ln for i, ln in enumerate(lines)]


def with_view_as_argument(text: str, function: str, line: int) -> tuple[str, tuple[int, ...]] | None:
    """``text`` with the ``tensor.extract_slice`` on ``line`` of ``function`` replaced by a new last argument of its
    result type (a static one), every use of its result reading the argument; (the program, the argument's shape),
    or None when the line is no such slice."""
    lines = text.split("\n")
    span, found = _function_span(lines, function), _SLICE.match(lines[line])
    if span is None or found is None or not span[0] < line < span[1]:
        return None
    value, result, dims = found.groups()
    argument = f"%view_of_{value.lstrip('%').replace('.', '_')}"
    program = _as_argument(_renamed(lines, span, value, argument), span, line, line, argument, result)
    return "\n".join(program), tuple(int(d) for d in dims.rstrip("x").split("x"))


@dataclasses.dataclass(frozen=True)
class ProducerSite:
    """A top-level value of a function that is a splat (a ``linalg.fill``, a splat ``arith.constant``, a
    ``linalg.generic`` of no input yielding a value from above) and that some op reads as an input (not a
    destination)."""

    function: str
    op_index: int  # among the function's top-level ops
    op: str
    value: str  # its result, as MLIR prints it
    type: str
    shape: tuple[int, ...]
    element: str
    scalar: str  # the splat: an SSA value from above, or a literal (``2 : i32``)
    splat: float | int | bool | None  # its number where it is a literal somewhere, for inputs of that value
    consumers: tuple[tuple[int, int], ...]  # (top-level op, operand) of each read of it as an input


def _literal(attr: Any) -> tuple[str, float | int | bool | None] | None:
    """An ``arith.constant`` scalar attribute as (its literal with type, its number), or None."""
    from iree.compiler import ir

    if isinstance(attr, ir.IntegerAttr):
        return str(attr), bool(attr.value) if str(attr.type) == "i1" else int(attr.value)
    if isinstance(attr, ir.FloatAttr):
        return str(attr), float(attr.value)
    return None


def producer_sites(text: str, function: str) -> list[ProducerSite]:
    """The splat values of ``function`` in ``text`` (as MLIR prints it) that an op reads as an input."""
    from iree.compiler import ir

    from ireefuzz.tools.shrink.canonical import parse
    from ireefuzz.tools.shrink.mlir import func_named

    module = parse(text)
    if module is None or _entry_arguments(module, function) is None:
        return []
    ops = [o.operation for o in func_named(module, function).regions[0].blocks[0].operations]
    found = []
    for k, op in enumerate(ops):
        if len(op.results) != 1 or not isinstance(op.results[0].type, ir.RankedTensorType):
            continue
        t = op.results[0].type
        if not t.has_static_shape:
            continue
        scalar, splat = "", None
        if op.name == "linalg.fill":
            source = op.operands[0]
            scalar = source.get_name()
            if not isinstance(source, ir.BlockArgument) and source.owner.name == "arith.constant":
                literal = _literal(source.owner.attributes["value"])
                splat = literal[1] if literal else None
        elif op.name == "arith.constant" and isinstance(op.attributes["value"], ir.DenseElementsAttr):
            dense = op.attributes["value"]
            literal = _literal(dense.get_splat_value()) if dense.is_splat else None
            if literal is None:
                continue
            scalar, splat = literal
        elif op.name == "linalg.generic" and not _ins_of(op):
            body = [o.operation for o in op.regions[0].blocks[0].operations]
            yielded = body[-1].operands[0] if len(body) == 1 and len(body[0].operands) == 1 else None
            if yielded is None or (isinstance(yielded, ir.BlockArgument) and yielded.owner == op.regions[0].blocks[0]):
                continue
            scalar = yielded.get_name()
            if not isinstance(yielded, ir.BlockArgument) and yielded.owner.name == "arith.constant":
                literal = _literal(yielded.owner.attributes["value"])
                splat = literal[1] if literal else None
        else:
            continue
        readers = tuple(
            (j, n) for j, o in enumerate(ops) for n, v in enumerate(_ins_of(o)) if j != k and v == op.results[0]
        )
        if readers:
            element = str(t.element_type)
            found.append(
                ProducerSite(
                    function,
                    k,
                    op.name,
                    op.results[0].get_name(),
                    str(t),
                    tuple(t.shape),
                    element,
                    scalar,
                    splat,
                    readers,
                )
            )
    return found


def _ins_of(op: Any) -> list[Any]:
    """A destination-style op's inputs (``operandSegmentSizes``' first group), else all its operands."""
    from iree.compiler import ir

    if "operandSegmentSizes" not in op.attributes:
        return list(op.operands)
    return list(op.operands)[: ir.DenseI32ArrayAttr(op.attributes["operandSegmentSizes"])[0]]


_BLOCK_HEAD = re.compile(r"^\s*\^bb0\((.*)\):\s*$")


def with_producer_as_argument(text: str, site: ProducerSite, *, into_body: bool = False) -> str | None:
    """``text`` (as MLIR prints it) with ``site``'s value read from a new last argument of its type (the producer
    removed); with ``into_body``, also each consumer's body reading the splat in place of that input's element (the
    consumer still reads the argument, its body ignores it: the form a splat folded into a body has). None when
    the result does not verify (or, for ``into_body``, a consumer is no ``linalg.generic``)."""
    from ireefuzz.tools.shrink.canonical import parse

    module = parse(text)
    if module is None:
        return None
    lines = str(module).splitlines()
    span, starts = _function_span(lines, site.function), _op_lines(lines, site.function)
    if span is None or site.op_index + 1 >= len(starts):
        return None
    if not lines[starts[site.op_index]].lstrip().startswith(f"{site.value} = {site.op}"):
        return None
    scalar = site.scalar if site.scalar.startswith("%") else f"%xf_splat{site.op_index}"
    for consumer, operand in site.consumers if into_body else ():
        first, last = starts[consumer], starts[consumer + 1]
        head = next((i for i in range(first, last) if _BLOCK_HEAD.match(lines[i])), None)
        if "= linalg.generic " not in lines[first] or head is None:
            return None
        names = [a.split(":")[0].strip() for a in _BLOCK_HEAD.match(lines[head]).group(1).split(", ")]  # type: ignore
        if operand >= len(names):
            return None
        lines[head + 1 : last] = _renamed(lines[head + 1 : last], (-1, last - head), names[operand], scalar)
    argument = f"%producer_of_{site.value.lstrip('%').replace('.', '_')}"
    first, last = starts[site.op_index], starts[site.op_index + 1] - 1
    lines = _as_argument(_renamed(lines, span, site.value, argument), span, first, last, argument, site.type)
    if into_body and scalar != site.scalar:  # a literal: a scalar constant at the top of the function
        pad = " " * (len(lines[span[0]]) - len(lines[span[0]].lstrip()) + 2)
        lines.insert(span[0] + 1, f"{pad}{scalar} = arith.constant {site.scalar}")
    candidate = "\n".join(lines) + "\n"
    return candidate if parse(candidate) is not None else None


def _given_name(text: str, site: ProducerSite) -> str:
    """``site``'s value as ``text`` spells it (``%fill``) where its top-level ops line up with the printed ones,
    else as MLIR prints it (``%1``)."""
    lines = text.split("\n")
    starts = _op_lines(lines, site.function)
    at = lines[starts[site.op_index]] if site.op_index < len(starts) else ""
    named = re.match(rf"\s*(%[\w.$-]+) = {re.escape(site.op)}\b", at)
    return named.group(1) if named else site.value
