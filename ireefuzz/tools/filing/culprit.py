"""Which IREE pass a finding comes from, measured, never guessed.

``Culprit`` is what ``finding.json`` carries as ``culprit``: ``{"phase", "pass", "how"}``. ``pass`` is the
pass's registered name (its command-line argument, e.g. ``iree-llvmcpu-select-lowering-strategy``) or
None when it could not be localized; ``how`` says how it was measured, or why it was not. The IR the
pass received and produced go into the bundle (``culprit_before.mlir`` / ``culprit_after.mlir``).

- compile errors: ``--mlir-print-ir-after-failure``: the first pass that reports failure (pipeline
  adaptors skipped); its dump is the IR the failed pass leaves, the dump before it what it received.
- compile crashes: ``--mlir-print-ir-before-all --mlir-disable-threading``: the last pass whose input was
  printed before the process died is the pass that was running (one thread: nothing else ran).
- memory: ``--mlir-print-ir-after-change``: the first pass whose output holds the oracle's memory op
  (``oracles.memory.scan``, so a copy-shaped ``linalg.generic`` counts as the oracle counts it); the IR
  before is the previous dump of the same function.
- wrong values: the float64 reference interpreter runs on the IR after each ``--compile-to`` phase
  (input .. flow), unwrapped to plain functions (``util.func`` -> ``func.func``, ``hal.tensor.import`` /
  ``export`` -> the tensor, ``flow.dispatch.region`` bodies inlined); the first phase whose result differs
  from the program's names the phase, and the per-pass dumps of that phase name the pass. Where the
  interpreter cannot follow (it refuses an op, or every phase it can read agrees), "not localized".

The phase of a compile failure is the first ``--compile-to`` phase whose compile fails.
"""

from __future__ import annotations

import dataclasses
import re
from pathlib import Path
from typing import Any, Callable, Iterator, Sequence

import numpy as np

from ireefuzz import sut

PHASES = (
    "input",
    "abi",
    "preprocessing",
    "global-optimization",
    "dispatch-creation",
    "flow",
    "stream",
    "executable-sources",
    "executable-targets",
    "hal",
    "vm",
    "end",
)
INTERPRETED_PHASES = PHASES[:6]
_ADAPTORS = ("iree-op-pipeline-adaptor", "builtin.module(", "func.func(", "util.func(")


@dataclasses.dataclass(frozen=True)
class Culprit:
    phase: str | None
    pass_: str | None  # the registered name, or None: not localized
    how: str
    ir_before: str = ""
    ir_after: str = ""

    def to_json(self) -> dict[str, Any]:
        return {"phase": self.phase, "pass": self.pass_, "how": self.how}

    @property
    def localized(self) -> bool:
        return self.pass_ is not None


def not_localized(why: str, phase: str | None = None) -> Culprit:
    return Culprit(phase, None, f"not localized: {why}")


# --------------------------------------------------------------------------- dumps

# "// -----// IR Dump After Name Failed: arg{opts} //----- //" (3.x),
# "... After Name (arg) ('op' operation: @f) //----- //"
_HEADER = re.compile(
    r"^// -----// IR Dump (Before|After) (\S+?)(?: Failed)?:? (?:\()?([\w.-]+)?[^\n]*?//----- //$", re.M
)


@dataclasses.dataclass(frozen=True)
class Dump:
    when: str  # Before | After
    pass_class: str
    name: str  # the registered name ('' if the header gives none)
    failed: bool
    function: str  # '@f' of "('func.func' operation: @f)", '' when not printed
    body: str


def dumps(log: str) -> list[Dump]:
    """The IR dumps of an ``--mlir-print-ir-*`` log, in order."""
    headers = list(_HEADER.finditer(log))
    out = []
    for h, nxt in zip(headers, headers[1:] + [None]):
        body = log[h.end() : nxt.start() if nxt else len(log)]
        # stop the body where the compiler's own diagnostics begin
        body = re.split(
            r"^(?:\S+:\d+:\d+: (?:error|warning|note)|Please report issues|Stack dump:)", body, maxsplit=1, flags=re.M
        )[0]
        fn = re.search(r"operation: (@[\w$.-]+)", h.group(0)) or re.search(r"\bfunc\.func (?:\w+ )?(@[\w$.-]+)", body)
        out.append(
            Dump(
                h.group(1),
                h.group(2),
                h.group(3) or "",
                " Failed" in h.group(0),
                fn.group(1) if fn else "",
                body.strip("\n"),
            )
        )
    return out


def _is_adaptor(d: Dump) -> bool:
    return (
        not d.name or d.name.startswith(_ADAPTORS) or "PipelineAdaptor" in d.pass_class or "OpToOpPass" in d.pass_class
    )


def failing_pass(log: str) -> Dump | None:
    """The first non-adaptor dump marked ``Failed`` (``--mlir-print-ir-after-failure``)."""
    return next((d for d in dumps(log) if d.failed and not _is_adaptor(d)), None)


def last_started(log: str) -> Dump | None:
    """The last non-adaptor ``Before`` dump (``--mlir-print-ir-before-all``, one thread): the pass that was running."""
    return next((d for d in reversed(dumps(log)) if d.when == "Before" and not _is_adaptor(d)), None)


def first_after(log: str, holds: Callable[[str], bool]) -> tuple[Dump | None, Dump | None]:
    """(the dump before, the first ``After`` dump whose body ``holds``): the previous dump of the same function."""
    seen: dict[str, Dump] = {}
    for d in dumps(log):
        if d.when == "After" and holds(d.body):
            return seen.get(d.function), d
        seen[d.function] = d
    return None, None


# --------------------------------------------------------------------------- running the compiler


def _compile(
    text: str, config: Any, extra: Sequence[str], *, flags: Sequence[str] | None = None
) -> tuple[int | None, str, str]:
    """(exit status, stdout, stderr) of iree-compile on ``text`` with the config's target and flags plus ``extra``."""
    import tempfile

    from ireefuzz.sut import launch

    with tempfile.TemporaryDirectory(prefix="ireefuzz-culprit-") as tmp:
        source = Path(tmp) / "program.mlir"
        source.write_text(text)
        output = Path(tmp) / "out"
        command = sut.compile_command(config, source, output, extra, binary=sut.find_iree_compile(config), flags=flags)
        code, out, err = launch.run(
            command, timeout=config.timeout_s, memory_limit_mb=config.memory_limit_mb, scratch=tmp
        )
        if code == 0 and output.exists() and "--compile-to" in " ".join(extra):
            out = output.read_text(errors="replace")
    return code, out, err


def failing_phase(text: str, config: Any) -> str | None:
    """The first ``--compile-to`` phase whose compile fails (None: every phase compiles)."""
    for phase in PHASES[:-1]:
        code, _, _ = _compile(text, config, [f"--compile-to={phase}"])
        if code != 0:
            return phase
    code, _, _ = _compile(text, config, [])
    return "end" if code != 0 else None


_CRASHED = ("Stack dump:", "PLEASE submit a bug report", "Please report issues to")


def compile_failure(text: str, config: Any, *, crashed: bool | None = None) -> Culprit:
    """The culprit of a compile error (the first failed pass) or crash (the pass that was running)."""
    code, _, err = _compile(
        text,
        config,
        ["--mlir-print-ir-after-failure", "--mlir-disable-threading", "--mlir-elide-elementsattrs-if-larger=8"],
    )
    if code == 0:
        return not_localized("the program compiles")
    signalled = code is not None and code < 0  # None: it timed out
    crashed = crashed if crashed is not None else (signalled or any(m in err for m in _CRASHED))
    phase = failing_phase(text, config)
    if not crashed:
        d = failing_pass(err)
        if d is None:
            return not_localized("no pass reported failure under --mlir-print-ir-after-failure", phase)
        before = ""
        _, _, err2 = _compile(
            text,
            config,
            [f"--mlir-print-ir-before={d.name}", "--mlir-disable-threading", "--mlir-elide-elementsattrs-if-larger=8"],
        )
        received = [
            x
            for x in dumps(err2)
            if x.when == "Before" and x.name == d.name and (not d.function or x.function == d.function)
        ]
        before = received[-1].body if received else ""
        how = "--mlir-print-ir-after-failure: the first pass that failed"
        if re.search(r"verif|check", d.name):  # a checker reports what an earlier pass made: say which, if measured
            maker = introduced_by(text, config, err)
            if maker:
                how += f" (a checker; the op it rejects first appears in the output of {maker})"
        return Culprit(phase, d.name, how, before, d.body)
    code, _, err = _compile(
        text,
        config,
        ["--mlir-print-ir-before-all", "--mlir-disable-threading", "--mlir-elide-elementsattrs-if-larger=8"],
    )
    d = last_started(err)
    if code == 0 or d is None:
        return not_localized("the crash did not recur under --mlir-print-ir-before-all", phase)
    return Culprit(
        phase,
        d.name,
        "--mlir-print-ir-before-all --mlir-disable-threading: the pass running when iree-compile died",
        d.body,
        "",
    )


_REJECTED = re.compile(r"error: '([\w.]+)' op ([^\n]*)")


def rejected_op(diagnostic: str) -> tuple[str, Callable[[str], bool]] | None:
    """(op name, a test of an IR dump for it) of the first ``'op' op message`` error, for stack / heap allocations
    only (a dynamic ``memref.alloca`` when the message is about unbounded stack allocations); None otherwise."""
    m = _REJECTED.search(diagnostic)
    if m is None:
        return None
    name = m.group(1)
    if "stack allocation" in m.group(2) and name != "memref.alloca":  # the function's frame: its stack allocations
        return "memref.alloca", lambda body: "memref.alloca(" in body
    if name == "memref.alloca" and "unbounded" in m.group(2):
        return name, lambda body: "memref.alloca(%" in body
    if name in ("memref.alloca", "memref.alloc"):  # the first of these ops is the rejected one's kind
        return name, lambda body: f"{name}(" in body
    return None  # an op as common as linalg.generic: its first appearance would be a guess, not a measurement


def introduced_by(text: str, config: Any, diagnostic: str) -> str | None:
    """The first pass whose output holds the op a checker pass rejected (``--mlir-print-ir-after-change``, read even
    though the compile fails), or None if the op was there from the start or never printed."""
    found = rejected_op(diagnostic)
    if found is None:
        return None
    _, holds = found
    if holds(text):
        return None  # the program itself has it: no pass introduced it
    _, _, err = _compile(
        text,
        config,
        [
            "--mlir-print-ir-after-all",
            "--mlir-print-ir-after-change",
            "--mlir-disable-threading",
            "--mlir-elide-elementsattrs-if-larger=8",
        ],
    )
    _, after = first_after(err, holds)
    return after.name if after is not None and after.name and not _is_adaptor(after) else None


# --------------------------------------------------------------------------- memory


def memory_holds(kind: str) -> Callable[[str], bool]:
    """Whether an IR dump holds a memory op of finding kind ``kind`` as the memory oracle counts it
    (``oracles.memory.scan`` + ``finding_kind``; a dump it cannot parse: by the op's name)."""
    from ireefuzz.oracles import memory

    names = {"copy": ("memref.copy", "linalg.copy", "linalg.generic"), "alloc": ("memref.alloc(",)}.get(
        kind, ("memref.alloca",)
    )

    def holds(body: str) -> bool:
        if not any(n in body for n in names):
            return False
        try:
            found = memory.scan(body)
        except Exception:  # noqa: BLE001 -- a dump the bindings cannot parse alone
            return kind != "copy" and any(n in body for n in names)
        return any(memory.finding_kind(m) == kind or (kind.startswith("alloca") and m.kind == "alloca") for m in found)

    return holds


def memory(text: str, kind: str, config: Any) -> Culprit:
    """The first pass after which the oracle's ``kind`` memory op exists (``sut.ir_after_each_change``)."""
    log = sut.ir_after_each_change(text, config)
    if not isinstance(log, str):
        return not_localized(f"the program does not compile with --mlir-print-ir-after-change ({log.kind})")
    before, after = first_after(log, memory_holds(kind))
    if after is None:
        return not_localized(f"no pass's output holds a {kind} as the memory oracle counts it")
    if not after.name:
        return not_localized(
            f"the dump that first holds the {kind} names no pass ({after.pass_class})", "executable-targets"
        )
    return Culprit(
        "executable-targets" if "_dispatch_" in after.function else None,
        after.name,
        f"--mlir-print-ir-after-change: the first pass whose output holds the {kind} (memory.scan)",
        before.body if before else "",
        after.body,
    )


# --------------------------------------------------------------------------- wrong values


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
_TIE_SHAPE = ("iree_tensor_ext.dispatch.tie_shape", "flow.dispatch.tie_shape")  # a dispatch tensor with its dims


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
        if o.name in ("iree_tensor_ext.dispatch.tensor.load", "flow.dispatch.tensor.load"):
            src = arg_of.get(o.operands[0])
            if src is None or not _whole(o, src.type, o.results[0].type):
                raise ValueError("a partial dispatch tensor load")
            o.results[0].replace_all_uses_with(src)
            o.erase()
            continue
        if o.name in ("iree_tensor_ext.dispatch.tensor.store", "flow.dispatch.tensor.store"):
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


def interpret(text: str, function: str, inputs: Sequence[np.ndarray]) -> list[np.ndarray]:
    from ireefuzz.oracles.interpret import interpret as run

    return [np.asarray(y) for y in run(text, function, list(inputs))]


def _undefined(e: BaseException) -> bool:
    """The interpreter stopped at undefined behaviour (an out-of-bounds read, ...), not at an op it lacks."""
    return "undefined behaviour" in str(e) or "undefined behavior" in str(e)


def _differs(a: Sequence[np.ndarray], b: Sequence[np.ndarray], rtol: float) -> bool:
    if len(a) != len(b):
        return True
    for x, y in zip(a, b):
        x, y = np.asarray(x, dtype=np.float64), np.asarray(y, dtype=np.float64)
        if x.shape != y.shape:
            return True
        if not np.allclose(x, y, rtol=rtol, atol=rtol, equal_nan=True):
            return True
    return False


def phase_ir(text: str, config: Any, phase: str) -> str | None:
    code, out, _ = _compile(text, config, [f"--compile-to={phase}"])
    return out if code == 0 else None


CONST_EVAL_OFF = "--iree-opt-const-eval=false"


def wrong_values(
    text: str,
    function: str,
    inputs: Sequence[np.ndarray],
    config: Any,
    *,
    rtol: float = 1e-6,
    phases: Sequence[str] = INTERPRETED_PHASES,
) -> Culprit:
    """The first phase (and pass) whose IR the interpreter evaluates to other values than the program. When that
    is the constant-evaluation JIT (which compiles hoisted expressions with the same pipeline), the search runs
    again without it, and ``how`` says what that showed."""
    found = _wrong_values(text, function, inputs, config, rtol, phases)
    if found.pass_ != "iree-consteval-jit-globals" or CONST_EVAL_OFF in config.flags:
        return found
    import dataclasses as _dc

    again = _wrong_values(
        text, function, inputs, _dc.replace(config, flags=(*config.flags, CONST_EVAL_OFF)), rtol, phases
    )
    return _dc.replace(
        found,
        how=found.how + f"; with {CONST_EVAL_OFF}: " + (f"{again.pass_} ({again.phase})" if again.pass_ else again.how),
    )


def _wrong_values(
    text: str, function: str, inputs: Sequence[np.ndarray], config: Any, rtol: float, phases: Sequence[str]
) -> Culprit:
    try:
        reference = interpret(text, function, inputs)
    except Exception as e:  # noqa: BLE001 -- the interpreter refuses the program itself
        return not_localized(f"the interpreter cannot evaluate the program ({str(e).splitlines()[0][:120]})")
    previous, followed = text, list[str]()
    for phase in phases:
        out = phase_ir(text, config, phase)
        if out is None:
            return not_localized(f"--compile-to={phase} fails", phase)
        try:
            values = interpret(unwrap(out), function, inputs)
        except Exception as e:  # noqa: BLE001 -- NotInterpretable, a parse error, an unwrap it cannot do
            if _undefined(e):  # the program is UB-free (its reference ran): the compiler's IR is not
                return _pass_in_phase(text, previous, phase, function, inputs, reference, config, rtol)
            why = str(e).splitlines()[0][:120] if str(e) else type(e).__name__
            return not_localized(
                f"the IR agrees with the program through {followed[-1] if followed else 'none'}; "
                f"the interpreter cannot follow {phase} ({why})",
                None,
            )
        if _differs(values, reference, rtol):
            return _pass_in_phase(text, previous, phase, function, inputs, reference, config, rtol)
        previous, followed = out, followed + [phase]
    return not_localized(
        f"the IR after every phase it can read ({', '.join(followed)}) gives the program's values: "
        "the difference arises after flow (streams, buffer allocation, codegen or the runtime), where the "
        "interpreter does not follow"
    )


def _pass_in_phase(
    text: str,
    before_phase: str,
    phase: str,
    function: str,
    inputs: Sequence[np.ndarray],
    reference: Sequence[np.ndarray],
    config: Any,
    rtol: float,
) -> Culprit:
    """Within ``phase``: the first pass whose module-scope dump the interpreter evaluates to other values."""
    start = PHASES[PHASES.index(phase) - 1] if PHASES.index(phase) else None
    extra = [
        f"--compile-to={phase}",
        "--mlir-print-ir-after-all",
        "--mlir-print-ir-after-change",
        "--mlir-print-ir-module-scope",
        "--mlir-disable-threading",
        "--mlir-elide-elementsattrs-if-larger=64",
    ]
    source = before_phase
    if start is not None and before_phase is not text:
        extra = [f"--compile-from={start}", *extra]
    else:
        source = text
    code, _, err = _compile(source, config, extra)
    how = (
        f"the interpreter on the IR after --compile-to={phase} gives other values than on the program (or hits "
        "undefined behaviour the program does not have); on the IR before it agrees"
    )
    if code != 0:
        return Culprit(phase, None, how + "; not localized to a pass (the per-pass dump failed)")
    found = first_pass_differing(err, function, inputs, reference, rtol)
    if found is None:
        return Culprit(phase, None, how + "; not localized to a pass (no per-pass dump the interpreter reads differs)")
    last, d = found
    note = (
        (
            " (the JIT evaluates hoisted constants by compiling them with the same codegen: the wrong value "
            "it folds in may come from codegen)"
        )
        if d.name == "iree-consteval-jit-globals"
        else ""
    )
    return Culprit(
        phase,
        d.name,
        how + f"; the first pass whose output differs: {d.name} (--mlir-print-ir-after-change, module scope){note}",
        last or source,
        d.body,
    )


def first_pass_differing(
    log: str, function: str, inputs: Sequence[np.ndarray], reference: Sequence[np.ndarray], rtol: float = 1e-6
) -> tuple[str, Dump] | None:
    """(the IR before, the first module-scope ``After`` dump of ``log`` the interpreter evaluates to other values than
    ``reference``, or finds undefined behaviour in); dumps it cannot read are skipped, never blamed."""
    last = ""
    for d in dumps(log):
        if d.when != "After" or _is_adaptor(d):
            continue
        try:
            values = interpret(unwrap(d.body), function, inputs)
        except Exception as e:  # noqa: BLE001 -- a dump it cannot read: keep looking, but it cannot be blamed
            if not _undefined(e):
                continue
            values = None  # undefined behaviour the program does not have
        if values is None or _differs(values, reference, rtol):
            return last, d
        last = d.body
    return None


def of_finding(finding: Any, program: str, case: Any, config: Any) -> Culprit:
    """The measured culprit for ``finding`` on ``program`` (``culprit``'s method for its oracle)."""
    if finding.oracle == "crash" and finding.kind.startswith("compile"):
        if finding.kind == "compile-timeout":
            return not_localized("a compile timeout names no failing pass")
        return compile_failure(program, config, crashed=finding.kind == "compile-crash")
    if finding.oracle == "memory":
        return memory(program, finding.kind, config)
    if finding.oracle in ("numeric", "reference") and case is not None and case.args is not None:
        return wrong_values(program, case.function, case.inputs(0), config)
    return not_localized(
        f"{finding.oracle}/{finding.kind} findings are not localized: no pass's IR "
        "output is compared for them (a fusion or an immutability finding)"
    )
