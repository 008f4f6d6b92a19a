"""Dispatch facts read from printed MLIR text, for IR that no MLIR bindings at hand can parse.

The judges read IR with the MLIR bindings of the compiler that printed it (``oracles.ir``). The
bindings of the 2023 releases cannot read their own dispatch IR (their Python ``ir.Context`` knows
no IREE dialect: "Dialect `hal' not found"), which left memory and fusion unjudged on every release
before 2024. This module computes the same facts from the text alone (stdlib only: it also runs in
a release's Python, ``ireefuzz/sut/ir_reader.py``), for what the printed form makes plain:

- ``op_pattern``: linalg / linalg_ext ops in order, a generic with the math ops and
  ``linalg.index`` of its body (as ``ir.compute_op_pattern``);
- ``materializing``: a dispatch function that loads no tensor and stores a value an index /
  constant producer computed (as ``fusion.materializing_op``);
- ``gathered_loads``: the types of the tensors a dispatch reads only as a gather's source;
- ``moves_data``: the dispatch's own op moves data (as ``memory.moves_data``);
- ``final_ops`` / ``bufferized_ops``: ``memref.alloca`` / ``memref.alloc`` with their type, static
  size, dynamic-ness and whether they sit in a loop (a loop op's region, or a block on a CFG cycle),
  and copies (``memref.copy``, ``linalg.copy``, copy-like ``linalg.generic``) between distinct
  buffers, staged when an end is not a binding (as ``memory.scan``);
- ``configuration``: "" (a coverage label only);
- ``required_scratch``: none when the source has no in-place or reduction op to need any; otherwise
  not read (the memory oracle then does not judge that dispatch rather than guess an allowance).

Each reader answers the fact's JSON value (``READERS``); ``facts_of`` answers them all, a fact it
cannot read as ``{UNREADABLE: why}`` (``oracles.ir.dispatch_fact`` raises ``IRParseError`` for it).
"""

from __future__ import annotations

import math
import re
from typing import Any, Callable, Iterator, Sequence

from . import vocabulary

UNREADABLE = "__unreadable__"  # a fact value: the text reader cannot answer it (see the module doc)

_OP_NAME = re.compile(r"(?<![#!\w.])\"?((?:linalg|iree_linalg_ext)\.([a-z_0-9]+))\b")
_MATH = re.compile(r"(?<![#!\w.])math\.(\w+)")
_FUNC = re.compile(r"^[ \t]*func\.func (?:public |private )?@([\w$.-]+)\(", re.M)
_DEF = re.compile(r"^\s*(%[\w$.-]+)(?::\d+)?(?:\s*,\s*%[\w$.-]+)*\s*=\s*\"?([a-z_][\w]*\.[\w.]+)\"?(.*)$")
_TENSOR_STORE = re.compile("(?:" + "|".join(re.escape(s) for s in vocabulary.TENSOR_STORES) + r") (%[\w$.-]+)")
_ALLOC = re.compile(r"^\s*(%[\w$.-]+) = memref\.(alloca|alloc)\(.*:\s*(memref<.*>)\s*$")
_BRANCH = re.compile(r"\^([\w$.-]+)")
_LABEL = re.compile(r"^\s*\^([\w$.-]+)\b.*:")


# --------------------------------------------------------------------------- structure


def functions(text: str) -> dict[str, str]:
    """Function name -> its text (``func.func`` line to its closing brace)."""
    found = {}
    for match in _FUNC.finditer(text):
        region = re.compile(r"\{[ \t]*\n").search(text, match.end())  # not an ``attributes {...}`` dict
        end = _region_end(text, region.start() if region else -1)
        found[match.group(1)] = text[match.start() : end]
    return found


def _region_end(text: str, start: int) -> int:
    """The index after the brace that closes the one at ``start`` (strings skipped)."""
    if start < 0:
        return len(text)
    depth, in_string = 0, False
    for k in range(start, len(text)):
        ch = text[k]
        if ch == '"' and text[k - 1] != "\\":
            in_string = not in_string
        elif in_string:
            continue
        elif ch == "{":
            depth += 1
        elif ch == "}":
            depth -= 1
            if depth == 0:
                return k + 1
    return len(text)


def _body_of(text: str, at: int) -> str:
    """The region of the op printed at ``at``: from the first ``{`` that ends a line to its closing brace."""
    found = re.compile(r"\{[ \t]*\n").search(text, at)
    return text[found.start() : _region_end(text, found.start())] if found else ""


def _uncommented(text: str) -> str:
    """``text`` without its whole-line ``//`` comments (a recorded dump's header names ops too)."""
    return "\n".join(line for line in text.splitlines() if not line.lstrip().startswith("//"))


def _op_lines(text: str) -> Iterator[str]:
    for line in text.splitlines():
        line = line.strip()
        if line and not line.startswith("//"):
            yield line


def _excerpt(line: str, limit: int = 240) -> str:
    line = line.strip()
    return line if len(line) <= limit else line[: limit - 3] + "..."


# --------------------------------------------------------------------------- facts


def op_pattern(text: str) -> str:
    """``fill>matmul>generic[exp]`` of the text (``ir.compute_op_pattern``), "-" if it has no compute op."""
    names: list[str] = []
    text = _uncommented(text)
    for match in _OP_NAME.finditer(text):
        short = match.group(2)
        if short in ("yield", "index"):
            continue
        if short == "generic":
            body = _body_of(text, match.end())
            ops = sorted(set(_MATH.findall(body)) | ({"index"} if "linalg.index" in body else set()))
            short = f"generic[{','.join(ops)}]" if ops else "generic"
        if short not in names:
            names.append(short)
    return ">".join(names) or "-"


def materializing(source: str) -> str | None:
    """The excerpt of the op a load-free, storing dispatch function materializes, else None (``fusion``)."""
    for body in functions(_uncommented(source)).values():
        if any(load in body for load in vocabulary.TENSOR_LOADS):
            continue
        stored = _TENSOR_STORE.findall(body)
        if not stored:
            continue
        definitions = _definitions(body)
        for value in _whole_stores(body, stored):
            op, line = definitions.get(value.split("#")[0], ("", ""))
            if op.startswith(vocabulary.PRODUCER_ROOTS) and not reduces(line):
                return _excerpt(line)
    return None


def reduces(line: str) -> bool:
    """The op printed on ``line`` (its first line) iterates a reduction dim: a compute root, which dispatch creation
    never fuses into another root's dispatch, so a reduction over a fill is no producer left unfused (``fusion``;
    round I: a max over a fill read by an argmax's dispatch, unchanged by aggressive fusion)."""
    return '"reduction"' in line or "iterator_type<reduction>" in line


def fuses_reduction(source: str) -> bool:
    """A dispatch's source holds an op that iterates a reduction dim (``reduces``), whatever its root: IREE names a
    dispatch by its root, and a reduction fused before an elementwise root (a broadcast of a row max) is there too."""
    return any(reduces(line) for line in source.splitlines())


_TENSOR_LOAD = re.compile(
    r"^\s*(%[\w$.-]+) = (?:"
    + "|".join(re.escape(s) for s in vocabulary.TENSOR_LOADS)
    + r")\b.*->\s*(tensor<[^>]*>)\s*$"
)


def gathered_loads(source: str) -> list[str]:
    """The types of the tensors a dispatch loads and reads only as a gather's source: through ``tensor.extract`` (by
    index in a body) or as the source of ``iree_linalg_ext.gather``, sorted (``fusion``: dispatch creation fuses a
    producer into a gather only when it is a bit-extend or a transpose; round J: an index generic folded to a splat
    read by an ``iree_linalg_ext.gather``)."""
    found: set[str] = set()
    for body in functions(_uncommented(source)).values():
        lines = body.splitlines()
        for line in lines:
            load = _TENSOR_LOAD.match(line)
            if load is None:
                continue
            value = re.escape(load.group(1))
            uses = [u for u in lines if re.search(rf"{value}(?![\w$.-])", u)][1:]
            if uses and all(re.search(rf"\btensor\.extract {value}\[|{_GATHER_SOURCE}{value}\b", u) for u in uses):
                found.add(load.group(2))
    return sorted(found)


_GATHER_SOURCE = r"\biree_linalg_ext\.gather\b.*\bins\("  # the op's first input is its source


def _whole_stores(body: str, stored: list[str]) -> list[str]:
    """The stored values that fill their whole destination (``fusion``: a store into a window of a larger readwrite
    result assembles that result in place)."""
    whole = []
    for value in stored:
        line = next(
            (ln for ln in body.splitlines() if re.search(rf"dispatch\.tensor\.store {re.escape(value)}\b", ln)), ""
        )
        types = re.search(r":\s*(tensor<[^>]*>)\s*->\s*!\S*?dispatch\.tensor<\w+:(tensor<[^>]*>)>", line)
        if types is None or types.group(1) == types.group(2):
            whole.append(value)
    return whole


def moves_data(source: str) -> bool:
    """The dispatch's own op moves data (``memory.moves_data``): no compute op, a data-movement op, a generic that
    gathers (``tensor.extract`` in its body) or only yields its input."""
    if not source:
        return False
    source = _uncommented(source)
    if op_pattern(source) == "-":
        return True
    if any(re.search(rf"(?<![#!\w.]){re.escape(op)}\b", source) for op in vocabulary.DATA_MOVEMENT_OPS):
        return True
    for match in re.finditer(r"(?<![#!\w.])linalg\.generic\b", source):
        body = _body_of(source, match.end())
        if "tensor.extract " in body or "tensor.extract\t" in body:
            return True
        header = source[match.end() : source.find("\n", match.end())]
        if len(_operands(header, "ins")) == 1 and len(_operands(header, "outs")) == 1 and _only_yields_first_arg(body):
            return True
    return False


def _operands(header: str, keyword: str) -> list[str]:
    found = re.search(rf"\b{keyword}\(([^:)]*)", header)
    return [v.strip() for v in found.group(1).split(",") if v.strip()] if found else []


def _only_yields_first_arg(body: str) -> bool:
    lines = list(_op_lines(body.strip()[1:-1]))
    block = next((line for line in lines if line.startswith("^bb")), "")
    first = re.search(r"\((%[\w$.-]+)", block)
    ops = [line for line in lines if not line.startswith("^bb")]
    return (
        first is not None
        and len(ops) == 1
        and re.match(rf"linalg\.yield {re.escape(first.group(1))}\s*:", ops[0]) is not None
    )


def _definitions(text: str) -> dict[str, tuple[str, str]]:
    """SSA value -> (defining op name, its line)."""
    found = {}
    for line in _op_lines(text):
        match = _DEF.match(line)
        if match:
            for name in re.findall(r"%[\w$.-]+", line.split("=", 1)[0]):
                found[name] = (match.group(2), line)
    return found


# --------------------------------------------------------------------------- memory ops


_ALLOC_MENTION = re.compile(r"\bmemref\.alloca?\b")


def scan(text: str) -> list[dict[str, Any]]:
    """``memory.scan`` of the text, as the ``final_ops`` / ``bufferized_ops`` fact rows (``MemoryOp`` fields).
    Text that names an alloc op this reader cannot read as one raises: never a silent pass."""
    text = _uncommented(text)
    found = _scan(text)
    mentioned = len(_ALLOC_MENTION.findall(text))
    if mentioned > sum(1 for row in found if row["kind"] in ("alloca", "alloc")):
        raise ValueError(f"{mentioned} memref.alloc(a) in the text, not all of them readable as ops")
    return found


def _scan(text: str) -> list[dict[str, Any]]:
    found: list[dict[str, Any]] = []
    for body in functions(text).values() or [text]:
        definitions = _definitions(body)
        carried = _carried_values(body)
        cyclic = _blocks_on_cycles(body)
        stack: list[bool] = []  # per open region: is it a loop's?
        block = ""
        lines: list[tuple[str, bool]] = []
        allocas: list[tuple[dict[str, Any], str, str]] = []
        for line in _op_lines(body):
            label = _LABEL.match(line)
            if label:
                block = label.group(1)
            in_loop = any(stack) or block in cyclic
            lines.append((line, in_loop))
            alloc = _ALLOC.match(line)
            if alloc:
                kind, memref = alloc.group(2), alloc.group(3)
                found.append(_row(kind, f"memref.{kind}", memref, in_loop, line))
                if kind == "alloca":
                    allocas.append((found[-1], alloc.group(1), memref))
            else:
                copy = _copy_operands(line, body)
                if copy is not None:
                    source, target, target_type = copy
                    if _view_key(source, definitions, carried) != _view_key(target, definitions, carried):
                        ends = _end(source, definitions, carried), _end(target, definitions, carried)
                        staged = not all(end.endswith("binding") for end in ends)
                        match = re.search(r"(memref\.copy|linalg\.copy|linalg\.generic)", line)
                        assert match is not None  # _copy_operands read one of these
                        op = match.group(1)
                        row = _row("copy", op, target_type, in_loop, line, staged)
                        aligned = _aligned(source, target, definitions)
                        found.append(row | {"aligned": aligned, "source": ends[0], "target": ends[1]})
            opened = line.count("{") - line.count("}")
            if opened > 0:
                is_loop = any(re.search(rf"(?<![\w.]){re.escape(op)}\b", line) for op in vocabulary.LOOP_OPS)
                stack.extend([is_loop] * opened)
            elif opened < 0:
                del stack[len(stack) + opened :]
        for row, name, memref in allocas:
            row["one_vector"] = _one_vector(name, memref, lines)
    return found


def _row(kind: str, op: str, memref: str, in_loop: bool, line: str, staged: bool = False) -> dict[str, Any]:
    memref = _memref_type(memref)
    bytes_ = static_bytes(memref)
    return {
        "kind": kind,
        "op": op,
        "type": memref,
        "bytes": bytes_,
        "dynamic": "?" in _shape_of(memref),
        "in_loop": in_loop,
        "excerpt": _excerpt(line),
        "staged": staged,
        "aligned": False,
        "source": "",
        "target": "",
        "one_vector": False,
    }


_WHOLE_WRITE = re.compile(r"^\s*vector\.(?:store|transfer_write) %[\w$.-]+, (%[\w$.-]+)\[.*\bvector<([^>]*)>")
_WHOLE_READ = re.compile(r"^\s*%[\w$.-]+ = vector\.(?:load|transfer_read) (%[\w$.-]+)\[.*\bvector<([^>]*)>")
_ELEMENT_ACCESS = re.compile(r"^\s*(?:%[\w$.-]+ = )?memref\.(?:load|store|copy) ")


def _one_vector(name: str, memref: str, lines: Sequence[tuple[str, bool]]) -> bool:
    """``memory._one_vector`` on text: the buffer ``name`` is accessed whole once (a vector of its own shape,
    outside loops) and otherwise only by element loads and stores or copies."""
    shape = _shape_of(_memref_type(memref))[:-1]
    whole = 0
    for line, in_loop in lines:
        if not re.search(rf"{re.escape(name)}(?![\w$.-])", line) or _ALLOC.match(line):
            continue
        access = _WHOLE_WRITE.match(line) or _WHOLE_READ.match(line)
        if access and access.group(1) == name:
            if access.group(2).split("x")[:-1] != shape or in_loop:
                return False
            whole += 1
        elif not _ELEMENT_ACCESS.match(line):
            return False
    return whole == 1


def _memref_type(text: str) -> str:
    """The first ``memref<...>`` in ``text`` (angle brackets matched)."""
    start = text.find("memref<")
    if start < 0:
        return text.strip()
    depth = 0
    for k in range(start + len("memref"), len(text)):
        if text[k] == "<":
            depth += 1
        elif text[k] == ">" and text[k - 1] != "-":
            depth -= 1
            if depth == 0:
                return text[start : k + 1]
    return text[start:].strip()


def _shape_of(memref: str) -> list[str]:
    """``memref<13x?x48xf16, #layout>`` -> ["13", "?", "48", "f16"] (dims, then the element type)."""
    inner = memref[len("memref<") : -1] if memref.startswith("memref<") else memref
    depth, head = 0, ""
    for ch in inner:  # the element type may be a vector<...> or complex<...>: cut at the first top-level comma
        depth += ch == "<"
        depth -= ch == ">"
        if ch == "," and depth == 0:
            break
        head += ch
    parts: list[str] = []
    element = head.strip()
    while True:
        match = re.match(r"(\?|\d+)x(.*)", element)
        if not match:
            return parts + [element]
        parts.append(match.group(1))
        element = match.group(2)


def element_bits(element: str) -> int | None:
    element = element.strip()
    if element == "index":
        return 64
    scalar = re.fullmatch(r"(?:[fi]|si|ui|bf)(\d+)|f8E\w+", element)
    if scalar:
        return int(scalar.group(1)) if scalar.group(1) else 8
    vector = re.fullmatch(r"vector<((?:\d+x)+)(.+)>", element)
    if vector:
        inner = element_bits(vector.group(2))
        return None if inner is None else inner * math.prod(int(d) for d in vector.group(1).rstrip("x").split("x"))
    complex_ = re.fullmatch(r"complex<(.+)>", element)
    if complex_:
        inner = element_bits(complex_.group(1))
        return None if inner is None else 2 * inner
    return None


def static_bytes(memref: str) -> int | None:
    """Bytes of a static ``memref<...>`` type (``memory._static_bytes``), None if dynamic or of unknown element."""
    *dims, element = _shape_of(memref)
    bits = element_bits(element)
    if bits is None or "?" in dims:
        return None
    return math.prod(int(d) for d in dims) * math.ceil(bits / 8)


_SUBVIEW = re.compile(r"memref\.subview (%[\w$.#-]+)(\[.*?\] \[.*?\] \[.*?\]) : (memref<.*?>) to ")


def _aligned(source: str, target: str, definitions: dict[str, tuple[str, str]]) -> bool:
    """``memory._aligned`` read from the text: both ends the same subview window of two buffers of one type."""
    windows = [_SUBVIEW.search(definitions.get(v, ("", ""))[1]) for v in (source, target)]
    if not all(windows):
        return False
    a, b = windows
    return a.group(2) == b.group(2) and _memref_type(a.group(3)) == _memref_type(b.group(3))  # type: ignore[union-attr]


def _copy_operands(line: str, body: str) -> tuple[str, str, str] | None:
    """(source, target, target type) when the op on ``line`` copies one memref into another."""
    copy = re.match(r"memref\.copy (%[\w$.#-]+), (%[\w$.#-]+) : .* to (memref<.*)$", line)
    if copy:
        return copy.group(1), copy.group(2), _memref_type(copy.group(3))
    head = re.match(r"(?:%[\w$.-]+ = )?(linalg\.copy|linalg\.generic)\b", line)
    if not head:
        return None
    ins, outs = re.search(r"\bins\(([^)]*)\)", line), re.search(r"\bouts\(([^)]*)\)", line)
    if not ins or not outs:
        return None
    sources, targets = ins.group(1).partition(":")[::2], outs.group(1).partition(":")[::2]
    if not sources[1] or not targets[1] or "," in sources[0] or "," in targets[0]:
        return None
    if "memref<" not in sources[1] or "memref<" not in targets[1]:
        return None
    if head.group(1) == "linalg.generic":
        at = body.find(line)
        if at < 0 or not _only_yields_first_arg(_body_of(body, at + len("linalg.generic"))):
            return None
    return sources[0].strip(), targets[0].strip(), _memref_type(targets[1])


def _carried_values(body: str) -> dict[str, str]:
    """An ``scf.for`` iter_arg -> its init value (the same buffer)."""
    carried = {}
    for line in _op_lines(body):
        match = re.search(r"iter_args\(([^)]*)\)", line)
        if not match:
            continue
        inits = []
        for pair in match.group(1).split(","):
            if "=" in pair:
                arg, init = (p.strip() for p in pair.split("=", 1))
                carried[arg] = init
                inits.append(init)
        result = re.match(r"(%[\w$.-]+)(?::\d+)? = scf\.for\b", line)  # a result is the buffer its init is
        if result and inits:
            carried[result.group(1)] = inits[0]
            carried.update({f"{result.group(1)}#{k}": init for k, init in enumerate(inits)})
    return carried


def _root(value: str, definitions: dict, carried: dict) -> tuple[str, str, str]:
    """(value, its defining op, its line) past aliases, views and loop-carried values."""
    for _ in range(64):
        value = carried.get(value, value)
        op, line = definitions.get(value.split("#")[0], ("", ""))
        source = re.search(rf"{re.escape(op)}\s+(%[\w$.#-]+)", line) if op in vocabulary.VIEW_OPS else None
        if source is None:
            return value, op, line
        value = source.group(1)
    return value, "", ""


def _view_key(value: str, definitions: dict, carried: dict, depth: int = 0) -> Any:
    """Equal for two values that denote the same view (``memory._view_key``): through aliases and loop-carried
    values, and structurally identical subviews (their text past the result name)."""
    value = carried.get(value, value)
    op, line = definitions.get(value.split("#")[0], ("", ""))
    if depth > 64 or op not in vocabulary.VIEW_OPS:
        return ("value", value)
    source = re.search(rf"{re.escape(op)}\s+(%[\w$.#-]+)", line)
    if source is None:
        return ("value", value)
    inner = _view_key(source.group(1), definitions, carried, depth + 1)
    if op in vocabulary.ALIAS_OPS or (op == "memref.subview" and _is_full_view(line)):
        return inner
    return (op, inner, line.split("=", 1)[1].replace(source.group(1), "", 1).strip())


def _is_full_view(line: str) -> bool:
    """``memref.subview %m[0, ..] [<shape of %m>] [1, ..] : memref<shape...>``: the whole source, a no-op view."""
    found = re.search(
        r"memref\.subview %[\w$.#-]+\[([^\]]*)\]\s*\[([^\]]*)\]\s*\[([^\]]*)\]\s*:\s*(memref<.*?>) to", line
    )
    if not found:
        return False
    split = lambda group: [v.strip() for v in group.split(",")]
    offsets, sizes, strides, source = (
        split(found.group(1)),
        split(found.group(2)),
        split(found.group(3)),
        found.group(4),
    )
    shape = _shape_of(_memref_type(source))[:-1]
    return all(v == "0" for v in offsets) and all(v == "1" for v in strides) and sizes == shape and "?" not in shape


_OWN_FLAGS = re.compile(r"(?<![\w.])flags\(\"?([\w|]*)\"?\)")  # the subspan's own flags, not its layout's


def _end(value: str, definitions: dict, carried: dict) -> str:
    """``memory.copy_end`` read from the text: what a copy's end views (one of ``memory.COPY_ENDS``)."""
    _, op, line = _root(value, definitions, carried)
    if op == vocabulary.BINDING_OP:
        flags = _OWN_FLAGS.search(line)
        return "read-only-binding" if flags and "ReadOnly" in flags.group(1).split("|") else "binding"
    return {vocabulary.ALLOCA: "alloca", vocabulary.ALLOC: "alloc"}.get(op, "other")


def _blocks_on_cycles(body: str) -> set[str]:
    """The blocks (``bbN``) of a function on a CFG cycle (after scf -> cf lowering a loop is a cycle)."""
    edges: dict[str, set[str]] = {}
    block = "entry"
    for line in _op_lines(body):
        label = _LABEL.match(line)
        if label:
            block = label.group(1)
            edges.setdefault(block, set())
            continue
        if line.startswith(("cf.br", "cf.cond_br", "cf.switch")):
            edges.setdefault(block, set()).update(_BRANCH.findall(line))
    on_cycle = set()
    for start in edges:
        seen, todo = set(), list(edges.get(start, ()))
        while todo:
            b = todo.pop()
            if b == start:
                on_cycle.add(start)
                break
            if b not in seen:
                seen.add(b)
                todo.extend(edges.get(b, ()))
    return on_cycle


# --------------------------------------------------------------------------- the facts


_STACK_LIMIT = re.compile(vocabulary.STACK_LIMIT_ATTRIBUTE + r"\s*=\s*(\d+)")
_VIEWS_OF_LOADS = ("tensor.cast", "tensor.extract_slice", "tensor.expand_shape", "tensor.collapse_shape")


def required_scratch(source: str) -> list[dict[str, Any]]:
    """``scratch.required_scratch`` of an executable source, as the fact's rows (``Allowance`` fields): per
    in-place op (sort, topk, scan, scatter) each outs operand read through a read-only binding or whose result
    is unused, and per reduction generic with two results or more each outs whose result is unused."""
    limit = int(m.group(1)) if (m := _STACK_LIMIT.search(source)) else vocabulary.DEFAULT_STACK_LIMIT
    found: list[dict[str, Any]] = []
    for body in functions(_uncommented(source)).values():
        definitions = _definitions(body)
        for line in _op_lines(body):
            head = re.match(r"(%[\w$.-]+)(?::(\d+))? = \"?((?:iree_linalg_ext|linalg)\.\w+)\"?", line)
            if not head:
                continue
            op, count = head.group(3), int(head.group(2) or 1)
            in_place = op in vocabulary.IN_PLACE_OPS
            if not in_place and not (op == "linalg.generic" and count >= 2 and "reduction" in line):
                continue
            outs = _outs_of(line)
            names = [f"{head.group(1)}#{k}" for k in range(count)] if count > 1 else [head.group(1)]
            rest = body.replace(line, "", 1)
            for index, (value, kind) in enumerate(outs):
                unused = index < len(names) and re.search(rf"{re.escape(names[index])}(?![\w$.#-])", rest) is None
                if in_place and (unused or _from_read_only_load(value, definitions)):
                    why = "result unused" if unused else "read-only binding"
                    found.append(_allowance(op, index, kind, limit, why))
                elif not in_place and unused:
                    found.append(_allowance("linalg.generic[reduction]", index, kind, limit, "companion result unused"))
    return found


def _outs_of(line: str) -> list[tuple[str, str]]:
    """(value, type) of each ``outs(...)`` operand on an op's line."""
    found = re.search(r"\bouts\(([^:]*):\s*", line)
    if not found:
        return []
    values = [v.strip() for v in found.group(1).split(",") if v.strip()]
    types, depth, current = [], 0, ""
    for ch in line[found.end() :]:
        if ch == ")" and depth == 0:
            break
        depth += ch == "<"
        depth -= ch == ">"
        if ch == "," and depth == 0:
            types.append(current.strip())
            current = ""
        else:
            current += ch
    types.append(current.strip())
    return list(zip(values, types))


def _from_read_only_load(value: str, definitions: dict) -> bool:
    for _ in range(16):
        op, line = definitions.get(value.split("#")[0], ("", ""))
        if op.endswith("dispatch.tensor.load"):
            return "readonly:" in line
        source = re.search(rf"{re.escape(op)}\s+(%[\w$.#-]+)", line) if op in _VIEWS_OF_LOADS else None
        if source is None:
            return False
        value = source.group(1)
    return False


def _allowance(op: str, index: int, tensor: str, limit: int, why: str) -> dict[str, Any]:
    *dims, element = _shape_of(tensor[len("tensor<") : -1] if tensor.startswith("tensor<") else tensor)
    bits = element_bits(element)
    size = None if "?" in dims or bits is None else math.prod(int(d) for d in dims) * math.ceil(bits / 8)
    return {
        "op": op,
        "operand": index,
        "element_type": element,
        "max_bytes": min(size, limit) if size is not None else limit,
        "why": why,
        "operand_bytes": size,
    }


def _required_scratch(dispatch: Any) -> Any:
    source = getattr(dispatch, "source", "") or ""
    return required_scratch(source) if source else []


READERS: dict[str, Callable[[Any], Any]] = {
    "op_pattern": lambda d: op_pattern(d.source or d.bufferized_ir) if (d.source or d.bufferized_ir) else "-",
    "configuration": lambda d: "",
    "materializing": lambda d: materializing(d.source) if d.source else None,
    "gathered_loads": lambda d: gathered_loads(d.source) if d.source else [],
    "moves_data": lambda d: moves_data(d.source),
    "final_ops": lambda d: scan(d.final_ir) if d.final_ir and ("memref.alloc" in d.final_ir) else [],
    "bufferized_ops": lambda d: (
        scan(d.bufferized_ir)
        if d.bufferized_ir and any(n in d.bufferized_ir for n in ("memref.copy", "linalg.copy", "linalg.generic"))
        else []
    ),
    "required_scratch": _required_scratch,
    "fuses_reduction": lambda d: fuses_reduction(d.source or ""),
}


def read(name: str, dispatch: Any) -> Any:
    """The JSON value of fact ``name`` read from ``dispatch``'s text, or ``{UNREADABLE: why}``."""
    reader = READERS.get(name)
    if reader is None:
        return {UNREADABLE: f"no text reader for the fact {name!r}"}
    try:
        return reader(dispatch)
    except Exception as e:  # noqa: BLE001  (text it cannot follow is an unread fact, never a crash)
        return {UNREADABLE: f"the text reader failed on {name!r} ({type(e).__name__}: {e})"}


def facts_of(dispatch: Any, names: Any = READERS) -> dict[str, Any]:
    """Every fact in ``names`` read from the text (``read``)."""
    return {name: read(name, dispatch) for name in names}
