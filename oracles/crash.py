"""Crash oracle: a valid program must compile, and its compiled module must run.

Compile errors, compiler crashes, hangs (timeouts), out-of-memory, and runtime faults all become
``crash`` findings. The signature names the op the diagnostic points at (read from the program
text at the reported line) and the gist of the first error message, so one bug deduplicates to one
signature whatever graph it was found in.
"""

from __future__ import annotations

import re

from ireefuzz.generators.graph import Graph, dims_pattern

from .finding import Finding, dispatch_dtype_dims, make_signature

_LOCATION = re.compile(r"^[^\s:]+\.mlir:(\d+):\d+: error: (.*)$", re.M)
_ERROR = re.compile(r"(?:error|LLVM ERROR|Assertion)[:` ]+(.*)", re.I)
_OP_ON_LINE = re.compile(r"^\s*(?:%[\w.#]+(?::\d+)?(?:, *%[\w.#]+)* = )?\"?([a-z_]+\.[a-z_.]+)")
_NODE_ON_LINE = re.compile(r"^\s*%n(\d+)\b")
_FUNC = re.compile(r"func\.func @([\w$.-]+)")
_DISPATCH = re.compile(r"@(\w+?)_dispatch_\d+")
_DISPATCH_NAME = re.compile(r"@(\w+_dispatch_\d+\w*)")


def gist(message: str, words: int = 6) -> str:
    """A diagnostic line as a size- and name-free slug: 'failed-to-legalize-operation'."""
    text = re.sub(r"'[^']*'|\"[^\"]*\"|%[\w#]+|@[\w$.-]+|<[^>]*>|\b\d+\b|0x[0-9a-f]+", " ", message.lower())
    return "-".join(re.findall(r"[a-z]+", text)[:words])


def locate(program_text: str, diagnostic: str) -> tuple[str | None, str | None, int | None, str]:
    """(function, op name, node index, error message) for the first located error in ``diagnostic``.

    The location may point into ``program_text`` (then the node is known by its ``%n<i>`` name) or,
    once codegen has started, into a dumped executable source; then the op is read from the source
    line the diagnostic echoes, and the function from the dispatch name ``<func>_dispatch_<n>_...``.
    """
    m = _LOCATION.search(diagnostic)
    message = m.group(2) if m else next((e.group(1) for e in _ERROR.finditer(diagnostic)), diagnostic.strip()[:200])
    if not m:
        return None, None, None, message
    echoed = diagnostic[m.end() :].lstrip("\n").split("\n", 1)[0]
    dispatch = _DISPATCH.search(diagnostic)
    lines = program_text.splitlines()
    line_no = int(m.group(1))
    in_program = 1 <= line_no <= len(lines) and lines[line_no - 1].strip() == echoed.strip()
    line = lines[line_no - 1] if in_program else echoed
    if in_program:
        func = next((f.group(1) for ln in reversed(lines[:line_no]) if (f := _FUNC.search(ln))), None)
    else:
        func = dispatch.group(1) if dispatch else None
    op = _OP_ON_LINE.match(line)
    node = _NODE_ON_LINE.match(line) if in_program else None
    return func, op.group(1) if op else None, int(node.group(1)) if node else None, message


def check_compile_failure(failure, program_text: str, graphs: dict[str, Graph] | None = None) -> Finding:
    """One finding for a CompileFailure; ``graphs`` maps function names to the graphs they were emitted from."""
    func, op, node, message = locate(program_text, failure.diagnostic)
    graph = (graphs or {}).get(func or "") if graphs else None
    if graph is None and graphs and len(graphs) == 1:
        graph = next(iter(graphs.values()))
    dtype, dims, op_name = "-", "-", op or "-"
    dispatch = _DISPATCH_NAME.search(failure.diagnostic)
    if graph is not None and node is not None and node < len(graph.nodes):
        n = graph.nodes[node]
        op_name, dtype, dims = n.op, n.type.dtype, dims_pattern([n.type.shape])
    elif dispatch is not None:  # failed inside codegen: the dispatch names its own element type and dims
        dtype, dims = dispatch_dtype_dims(dispatch.group(1))
    elif graph is not None:
        dtype, dims = graph.dtype, graph.dims
    kind = "bad-output" if failure.kind == "bad-output" else f"compile-{failure.kind}"  # exit 0, but no module
    detail = f"{op_name}[{gist(message)}]" if failure.kind == "error" else op_name
    return Finding(
        "crash",
        kind,
        make_signature("crash", kind, detail, dtype, dims),
        f"iree-compile {failure.kind} on a valid program: {message[:300]}",
        {
            "diagnostic": failure.diagnostic,
            "command": list(failure.command),
            "returncode": failure.returncode,
            "function": func,
            "node": node,
            "op": op,
            "seconds": round(failure.seconds, 3),
        },
    )


_OUT_OF_ROOM = ("RESOURCE_EXHAUSTED", "allocator failed", "out of memory", "Cannot allocate memory")


def not_a_finding(failure, *, known_to_end: bool) -> str | None:
    """Why a run failure is no IREE finding ("not judged: ..."), or None when it is one. Running out of memory
    on this machine (``RESOURCE_EXHAUSTED``, a failed allocation) is the harness out of room, never IREE's bug;
    a run past its time limit is a finding only for a program known to end (a generated graph has no loops),
    else the program may simply never finish."""
    if failure.kind == "fault" and any(m in failure.message for m in _OUT_OF_ROOM):
        return f"every oracle: the run ran out of memory on this machine ({failure.message[:160]}), not an IREE finding"
    if failure.kind == "timeout" and not known_to_end:
        return f"every oracle: the program {failure.message.split(': ', 1)[-1]} (it may never end)"
    return None


def check_run_failure(failure, graph: Graph | None, function: str, sizes: dict | None = None) -> Finding:
    kind = f"runtime-{failure.kind}"
    ops = graph.op_pattern if graph is not None else function
    dtype, dims = (graph.dtype, graph.dims) if graph is not None else ("-", "-")
    return Finding(
        "crash",
        kind,
        make_signature("crash", kind, f"{ops}[{gist(failure.message)}]", dtype, dims),
        f"running {function} failed ({failure.kind}): {failure.message[:300]}",
        {"function": function, "message": failure.message, "sizes": dict(sizes or {})},
    )
