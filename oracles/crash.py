"""Crash oracle: a valid program must compile, and its compiled module must run.

Compile errors, compiler crashes, hangs (timeouts), out-of-memory, and runtime faults all become
``crash`` findings. The signature names the op the diagnostic points at (read from the program
text at the reported line) and the gist of the first error message, so one bug deduplicates to one
signature whatever graph it was found in.
"""

from __future__ import annotations

import re

from ireefuzz.generators.graph import Graph, dims_pattern

from .diagnostics import (
    _FAILED_FOR_OP,
    _IN_PLACE_ROLES,
    RUNTIME_REJECTS,
    _own_error_blocks,
    _signature_ops,
    _words,
    compile_error_stage,
    crash_state,
    dispatch_role,
    first_error,
    normalize_diagnostic,
    ops_role,
    pass_family,
    signal_name,
)
from .finding import Cause, Finding, dispatch_dtype_dims, make_signature
from .finding import make_cause as _cause
from .spec import Evaluation, OracleSpec, Verdict, by_kind, reads_run_unless, register

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


# An isolated run's runner that died (``sut.runtime``: "g0: the runtime died of signal 8: ..."): the same cause as a
# campaign worker's death by that signal (its ``detail``, "SIGFPE"). Stop 47: an integer division's SIGFPE was
# crash/runtime-crash/sigfpe in the campaign and g-the-runtime-died-of-signal-no-output when shrunk and
# confirmed (the digits dropped, every signal one cause).
_RUNTIME_DIED = re.compile(r"the runtime died of signal (\d+)")


def _run_failure_gist(message: str) -> str:
    died = _RUNTIME_DIED.search(message)
    return signal_name(int(died.group(1))).lower() if died else gist(message)


def check_run_failure(failure, graph: Graph | None, function: str, sizes: dict | None = None) -> Finding:
    kind = f"runtime-{failure.kind}"
    ops = graph.op_pattern if graph is not None else function
    dtype, dims = (graph.dtype, graph.dims) if graph is not None else ("-", "-")
    return Finding(
        "crash",
        kind,
        make_signature("crash", kind, f"{ops}[{_run_failure_gist(failure.message)}]", dtype, dims),
        f"running {function} failed ({failure.kind}): {failure.message[:300]}",
        {"function": function, "message": failure.message, "sizes": dict(sizes or {})},
    )


# --------------------------------------------------------------------------- its cause and its record


def _crash_cause(finding: Finding) -> Cause:
    ev, kind = finding.evidence, finding.kind
    diagnostic = str(ev.get("diagnostic") or "")
    if kind == "compile-error":
        message = first_error(diagnostic, finding.message.partition(": ")[2] or finding.message)
        gist, stage = normalize_diagnostic(message), pass_family(compile_error_stage(diagnostic))
        if _STACK_LIMIT_ERROR.search(message):  # over the stack limit, by any wording: by what the dispatch computes
            role = _failing_dispatch_role(diagnostic) or ops_role(_signature_ops(finding).partition("[")[0])
            role = "in-place" if role in _IN_PLACE_ROLES else role  # sort / top-k scratch: one mechanism
            if role != "in-place" and _bogus_stack_size(message):  # a bound no shape gives: #24483's mechanism
                role = "index-umax-bound"
            gist, stage = f"stack-allocation-over-limit[{role}]", "codegen"
        elif written := _WRITE_AFFECTING.search(message):  # the op IREE names is whichever writes the tied buffer first
            gist = normalize_diagnostic(written.group(0))
        if (failed_op := _FAILED_FOR_OP.search(diagnostic)) and failed_op.group(1) not in gist:
            gist += f"[{failed_op.group(1)}]"  # LLVM translation names the op it could not translate
        return _cause("crash", [kind, f"{gist}@{stage}"], f"iree-compile error: {_words(gist)} (at {_words(stage)})")
    if kind == "compile-crash":
        crash_type, frames = crash_state(diagnostic, ev.get("returncode"))
        state = ">".join(f.replace("::", ".") for f in frames) or "no-stack"
        shown = " < ".join(frames) if frames else "no stack frames"
        return _cause("crash", [kind, crash_type, state], f"iree-compile crashes ({crash_type}) in {shown}")
    rejected = kind == "bad-output" and diagnostic.startswith(RUNTIME_REJECTS)
    died = _RUNTIME_DIED.search(str(ev.get("message") or "")) if kind.startswith("runtime-") else None
    if "detail" in ev or died:  # a process that died: by kind and signal (SIGSEGV, SIGKILL, exit status)
        detail = normalize_diagnostic(str(ev["detail"]) if died is None else signal_name(int(died.group(1))), 3)
        return _cause("crash", [kind, detail], f"{_words(kind).capitalize()} ({detail}) on a valid program")
    if rejected or (kind.startswith("runtime-") and "message" in ev):  # the runtime's own error
        text = diagnostic[len(RUNTIME_REJECTS) :] if rejected else str(ev["message"])
        kind = "runtime-fault" if rejected else kind  # a check an initializer fails at load is the same check
        gist = normalize_diagnostic(_RUNTIME_CONTEXT.sub("", text), 10)
        return _cause("crash", [kind, gist], f"The compiled module fails at run time ({kind}): {_words(gist)}")
    return _cause("crash", [kind], f"{_words(kind).capitalize()} on a valid program")  # compile timeout, oom


# What the runtime says around its own error: the function it ran, or loading the module (an initializer runs then:
# x86-64-v3 58867's overlapping copy, const-evaluated into one, failed at load as the same check fails in a call).
_RUNTIME_CONTEXT = re.compile(
    r"^(?:[\w$.-]+: )?(?:Error invoking function|Error creating vm context with modules): ", re.I
)


# ``'func.func' op exceeded stack allocation limit of N bytes``, ``'memref.alloca' op stack allocation size
# overflows 64 bits`` and ``expected no unbounded stack allocations``: one check (the dispatch's stack buffers must
# fit max_stack_allocation_size), three wordings of a buffer sized by a dynamic dim.
_STACK_LIMIT_ERROR = re.compile(
    r"exceeded stack allocation limit|stack allocation size overflows|"
    r"expected no unbounded stack allocations"
)

_STACK_BYTES = re.compile(r"\bGot (\d+) bytes")
BOGUS_STACK_BYTES = 2**40  # no shape a program runs at gives this; a dynamic dim's index umax bound (2^53 - 1) does


def _bogus_stack_size(message: str) -> bool:
    """Whether the stack check reports a size only a dynamic dim's trivial upper bound gives (hoisting bounds the
    buffer by the index type's maximum: iree-org/iree#24483's 2^52-element allocas)."""
    got = _STACK_BYTES.search(message)
    return got is not None and int(got.group(1)) >= BOGUS_STACK_BYTES


# A dispatch that writes a global (argument-tied) buffer outside workgroup distribution, whichever op does it.
_WRITE_AFFECTING = re.compile(
    r"write affecting operations on global resources are restricted to workgroup "
    r"distributed contexts"
)

_DISPATCH_FUNC = re.compile(r"func\.func @([\w$.-]*_dispatch_\d+_[\w$.-]+)")

_QUOTED_OP = re.compile(r"^\s*(?:%[\w#:]+(?:, %[\w#:]+)* = )?([a-z_]+\.[a-z_]+)", re.M)


def _failing_dispatch_role(diagnostic: str) -> str:
    """The role of the failing dispatch: from the function its own diagnostics quote (IREE's name for it), else
    from the op quoted under its first error; "" if neither is quoted."""
    blocks = _own_error_blocks(diagnostic)
    quoted = "\n".join(text for text, _ in blocks)
    if m := _DISPATCH_FUNC.search(quoted):
        return dispatch_role(m.group(1))
    if blocks and (op := _QUOTED_OP.search(blocks[0][0])):
        short = op.group(1).partition(".")[2]
        return ops_role(short) if short in ("generic", "matmul", "batch_matmul", "fill") else short
    return ""


def _judge_run_failure(e: Evaluation) -> Verdict:
    return Verdict((check_run_failure(e.run_failure, e.graph, e.function, dict(e.sizes)),))


register(
    OracleSpec(
        name="crash",
        cause=_crash_cause,
        reproduce=by_kind({"compile-": "compile-error"}, "run-fault"),
        reads_run=reads_run_unless("compile-", "bad-output"),
        defect=lambda kind: "runtime" if kind.startswith("runtime-") else kind,  # a compile error, a crash, a fault
        absent=lambda kind: "it compiles and runs" if kind.startswith("compile") else "it runs",
        culprit=lambda kind: "compile-error" if kind.startswith("compile") else "none",
        weight=1.0,
        happened="iree-compile / the runtime fails on a valid program.",
        expected="The program compiles and runs.",
        title="[CPU] {kind} on valid `{ops}` ({type})",
        judges={"compile-failed": lambda e: Verdict((e.compile_failure(),)), "run-failed": _judge_run_failure},
    )
)
