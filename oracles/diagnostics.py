"""What a finding records, parsed into the parts a cause is made of (ClusterFuzz's stack parsing, apart from its
bucketing): normalized diagnostics, crash states (type + top frames), the pass that failed and its family, the
role a dispatch plays from IREE's name for it, and the recorded program's nodes, cones and written arguments.

The judges' cause rules (each in its judge module, registered in its ``OracleSpec``) are built of these, and
``oracles.cause`` assigns causes with them. Pure: reads only a finding's own JSON.
"""

from __future__ import annotations

import collections
import dataclasses
import functools
import re
import signal
from typing import Any, Mapping, Sequence

from ireefuzz.generators.ops import NORMS, OPS, TRANSCENDENTAL_OPS, destinations

from . import vocabulary
from .finding import Cause, Finding, make_cause

_cause = make_cause


# --------------------------------------------------------------------------- immutability

ARGUMENT_MUTATION = Cause(
    "immutability/dps-init-written-in-place",
    "A dispatch tied to an imported argument buffer (no clone) writes the caller's buffer in place "
    "(iree-org/iree#16168)",
    "immutability",
)
IN_PLACE_OP_MUTATION = Cause(
    "immutability/in-place-op-tied-to-argument",
    "An op that updates its outs in place (sort, top-k, scan) is bufferized into the caller's argument buffer: "
    "a sort of an argument (or of its copy) sorts the argument (iree-org/iree#24665)",
    "immutability",
)
READ_ONLY_MUTATION = Cause(
    "immutability/read-only-argument-written",
    "A function argument the program only reads is overwritten by the call",
    "immutability",
)


# --------------------------------------------------------------------------- crash

_ERROR_LINE = re.compile(r"error: (.*)$", re.M)
_LOCATED = re.compile(r"^(\S+?\.mlir):\d+:\d+: error: ", re.M)
_FRAME = re.compile(r"^\s*#\d+\s+0x[0-9a-fA-F]+\s+(.*)$", re.M)
_ASSERTION = re.compile(r"Assertion `(.*?)' failed")
_LLVM_ERROR = re.compile(r"LLVM ERROR: (.*)")
_RUNNING_PASS = re.compile(r"^\d+\.\s+Running pass '([^']+)'", re.M)
_FAILED_FOR_OP = re.compile(r"failed for operation: ([a-z_]+\.[a-z_.]+)")
_SIGNALS = {
    -4: "SIGILL",
    -6: "SIGABRT",
    -7: "SIGBUS",
    -8: "SIGFPE",
    -11: "SIGSEGV",
    132: "SIGILL",
    134: "SIGABRT",
    136: "SIGFPE",
    139: "SIGSEGV",
}
# Frames of the crash machinery itself, never the defect (ClusterFuzz's ignore list, for LLVM).
_NOISE_FRAMES = re.compile(
    r"PrintStackTrace|RunSignalHandlers|SignalHandler|CrashRecoveryContext|HandleCrash|CleanupOnSignal|"
    r"report_fatal_error|llvm_unreachable_internal|__assert_fail|__assert_fail_base|\babort\b|\braise\b|"
    r"pthread_kill|gsignal|__restore_rt|^\(?/lib|libc\.so|^\?\?|^0x"
)
# How a module the runtime will not load is reported (``sut``'s bad-output failure), before the runtime's own error.
RUNTIME_REJECTS = "the runtime rejects the module iree-compile wrote: "
# Context errors that say where, not what: skipped when naming the stage; a bug's reproduction needs more than them.
GENERIC_STAGES = (
    "failed to run translation of source executable",
    "failed to serialize executable",
    "failed to translate executables",
    "failed to legalize operation",
)
_TYPE = re.compile(
    r"\b(?:tensor|memref|vector|complex|!?[\w.]+)<[^<>]*(?:<[^<>]*>[^<>]*)*>|\b[iuf]\d+\b|\bindex\b|\bbf16\b"
)
_OP_NAME = re.compile(r"'([a-z_]+\.[a-z_.0-9]+)'")


def signal_name(number: int) -> str:
    """``SIGFPE`` for 8; ``signal 99`` for a number no signal has."""
    try:
        return signal.Signals(number).name
    except ValueError:
        return f"signal {number}"


_ECHOED_OP = re.compile(r"\s%[\w#.]+(?::\d+)?(?:,\s*%[\w#.]+(?::\d+)?)*\s*=\s.*$", re.S)


def own_words(message: str) -> str:
    """A diagnostic line without the op it prints after its own words ("... uses partition output %12 =
    \"stream.async.dispatch\"(...) <{affinity = ...}>"): the op's attributes are no part of what went wrong, and vary
    with the program (stop 48's stream-partitioning error had two causes by the attributes it echoed)."""
    return _ECHOED_OP.sub("", message)


def normalize_diagnostic(message: str, words: int = 12) -> str:
    """A diagnostic line without SSA names, symbols, numbers, types, shapes, quoted values or an op it echoes
    (``own_words``): ``linalg.generic-op-write-affecting-operations-on-global-resources-...``. Quoted op names stay."""
    message = own_words(message)
    ops = _OP_NAME.findall(message)
    text = _OP_NAME.sub(" OPNAME ", message)
    text = _TYPE.sub(" ", text)
    text = re.sub(r"'[^']*'|\"[^\"]*\"|%[\w#.:]+|@[\w$.-]+|#[\w.]+|\S*/\S*|0x[0-9a-fA-F]+|\b\d+\b", " ", text)
    tokens = re.findall(r"[A-Za-z_]+", text)
    out, names = [], iter(ops)
    for token in tokens:
        out.append(next(names, "op") if token == "OPNAME" else token.lower())
    return "-".join(out[:words]) or "-"


_FAILING_PASS = re.compile(r"^failing pass: (\S+) \(([^)]*)\)$", re.M)
_DISPATCH_FILE = re.compile(r"_(\w+?_dispatch_\d+)\.mlir$")


def is_generic(message: str) -> bool:
    """``message`` only says where a compile failed (``GENERIC_STAGES``): a pass that failed without a diagnostic of
    its own leaves only such lines."""
    return message.strip().startswith(GENERIC_STAGES)


def failing_pass(diagnostic: str) -> str | None:
    """The pass that failed for the failing dispatch (``sut`` appends ``failing pass: <pass-arg> (<where>)`` lines
    read from ``--mlir-print-ir-after-failure`` dumps): the one where the first error is located, else the first.

    A module pass that failed beside a dispatch's pass only ran the pipeline the dispatch failed in (const-eval's
    JIT compiles its initializers' dispatches; a compile stops at its first failure): the dispatch's pass is the
    culprit, wherever the error is located (``input.mlir`` for the initializers const-eval hoisted)."""
    passes = _FAILING_PASS.findall(diagnostic)
    if not passes:
        return None
    located = _LOCATED_ERROR.search(diagnostic)
    dispatch = _DISPATCH_FILE.search(located.group(1)) if located else None
    if dispatch is None:
        inner = [name for name, at in passes if at != "module"]
        return inner[0] if inner else passes[0][0]
    where = dispatch.group(1)
    return next((name for name, at in passes if at == where or at.startswith(where + "_")), passes[0][0])


_FAMILY_OF = {name: family for family, names in vocabulary.PASS_FAMILIES.items() for name in names}


def pass_family(name: str) -> str:
    """The family of passes that run the transformation pass ``name`` runs (``vocabulary.PASS_FAMILIES``:
    ``iree-llvmcpu-tile`` -> ``tiling``), else ``name`` itself: a cause names the transformation, never which of
    its passes happened to meet the bug first."""
    return _FAMILY_OF.get(name, name)


def compile_error_stage(diagnostic: str) -> str:
    """Where a compile error was reported: the pass that failed when the compile named it (``failing_pass``),
    else the specific context error after the first one, from the same
    file as the first (one dispatch's own diagnostics: another dispatch failing in the same compile never
    relabels it) (``failed on workgroup distribution verification`` -> ``workgroup-distribution-verification``),
    else ``codegen`` for a location in a dumped executable, ``input`` for one in the program."""
    if (culprit := failing_pass(diagnostic)) is not None:
        return culprit
    errors = _own_errors(diagnostic)
    for context in errors[1:]:
        gist = re.sub(r"^'[^']*' op ", "", context.strip())
        if gist.startswith("failed") and not gist.startswith(GENERIC_STAGES):
            return normalize_diagnostic(re.sub(r"^failed (?:on|to|in|during|while)? ?", "", gist), 6)
    located = _LOCATED.search(diagnostic)
    if located is None:
        return "-"
    return (
        "codegen"
        if "/sources/" in located.group(1) or "/configurations/" in located.group(1) or "_dispatch_" in located.group(1)
        else "input"
    )


_LOCATED_ERROR = re.compile(r"^(\S+?):\d+:\d+: error: (.*)$", re.M)


def _own_errors(diagnostic: str) -> list[str]:
    """The error messages of the failing dispatch: when the first error is located in a file (a dispatch's
    configured or source executable, or the program), the errors located in that same file; otherwise (an
    unlocated first error, e.g. the linker's) every error line."""
    return [message for _, message in _own_error_blocks(diagnostic)]


def _own_error_blocks(diagnostic: str) -> list[tuple[str, str]]:
    """(text that follows the error line up to the next error, message) of each error of the failing dispatch."""
    lines = diagnostic.splitlines()
    errors = [(k, _LOCATED_ERROR.match(line)) for k, line in enumerate(lines) if "error: " in line]
    if not errors:
        return []
    first = errors[0][1]
    own = [(k, m) for k, m in errors if first is None or (m is not None and m.group(1) == first.group(1))]
    ends = {k: next((j for j, _ in errors if j > k), len(lines)) for k, _ in own}
    return [("\n".join(lines[k + 1 : ends[k]]), m.group(2) if m else lines[k].partition("error: ")[2]) for k, m in own]


def first_error(diagnostic: str, fallback: str = "") -> str:
    m = _ERROR_LINE.search(diagnostic)
    return m.group(1) if m else fallback


def crash_state(diagnostic: str, returncode: Any = None, frames: int = 3) -> tuple[str, list[str]]:
    """(crash type, top frames) of a crash, each normalized: no addresses, offsets, paths or arguments."""
    if m := _ASSERTION.search(diagnostic):
        kind = f"assertion:{normalize_diagnostic(m.group(1), 8)}"
    elif m := _LLVM_ERROR.search(diagnostic):
        kind = f"llvm-error:{normalize_diagnostic(m.group(1), 8)}"
    elif isinstance(returncode, int) and returncode in _SIGNALS:
        kind = _SIGNALS[returncode]
    elif isinstance(returncode, int) and returncode < 0:
        kind = f"signal{-returncode}"
    else:
        kind = "crash"
    names = [frame_name(f) for f in _FRAME.findall(diagnostic)]
    names = [n for n in names if n and not _NOISE_FRAMES.search(n)][:frames]
    if not names:  # an unsymbolized build: the pass LLVM's pretty stack trace says was running, if any
        names = [f"pass:{normalize_diagnostic(p, 8)}" for p in _RUNNING_PASS.findall(diagnostic)[-1:]]
    return kind, names


def frame_name(frame: str) -> str:
    """``mlir::Foo::bar(mlir::Operation*) const (/x/libIREECompiler.so+0x1b2)`` -> ``mlir::Foo::bar``."""
    frame = re.sub(r"\s*\([^()]*\+0x[0-9a-fA-F]+\)\s*$", "", frame.strip())  # (module+offset)
    frame = re.sub(r"\s+(?:\+\s*\d+|\S+:\d+(?::\d+)?)$", "", frame)  # + offset, file:line:col
    frame = frame.replace("(anonymous namespace)", "anon")
    depth, name = 0, []
    for ch in frame:  # drop template and parameter lists
        if ch in "<(":
            depth += 1
        elif ch in ">)":
            depth = max(0, depth - 1)
        elif depth == 0:
            name.append(ch)
    text = "".join(name).replace(" const", "").strip()
    return text.split(" ")[-1] if text else ""


_IN_PLACE_ROLES = frozenset({"sort", "topk", "scan", "scatter"})  # linalg_ext ops that update their outs in place


def _words(slug: str) -> str:
    """A title's words from an id part (titles are derived from ids, so one id has one title)."""
    return slug.replace("-", " ")


# --------------------------------------------------------------------------- memory and fusion

_DISPATCH_ROOT = re.compile(r"_dispatch_\d+_(?P<root>[a-z]+(?:_[a-z]+)*?)(?:_(?:\d|D[x_]|D$|[a-z]+\d)|$)")
# IREE names a dispatch by its root op's category; the role it plays, coarsened.
_ROLES = (
    ("contraction", ("matmul", "mmt4d", "contract", "conv")),
    ("reduction", ("reduction", "argmax", "softmax")),
    ("gather", ("gather", "scatter")),
    ("transpose", ("transpose",)),
    ("data-movement", ("slow_memcpy", "pack", "unpack")),
    ("fill", ("fill",)),
    ("elementwise", ("elementwise", "broadcast", "generic")),
)
_CONTRACTION_LIKE = frozenset(
    {"matmul", "batch_matmul", "matvec", "vecmat", "batch_matvec", "batch_vecmat", "contract"}
)
_GRAPH_ROLES = (
    ("attention", ("attention",)),  # its own role: not an elementwise graph (stop 46's shape mismatch was named so)
    ("contraction", ("matmul",)),
    ("reduction", ("reduce_", "argmax")),
    ("gather", ("gather",)),
    ("transpose", ("transpose",)),
    ("fill", ("fill", "iota")),
)
MEMORY_FAMILIES = {
    "alloca": "alloca",
    "alloca-dynamic": "alloca",
    "alloca-in-loop": "alloca",
    "alloc": "alloc",
    "copy": "copy",
}


def dispatch_role(dispatch_name: str, fallback_ops: str = "") -> str:
    """What a dispatch computes, from IREE's name for it (``g8_dispatch_0_matmul_like_65x65x16_f32`` ->
    ``contraction``); else from an op pattern (``fill>matmul>generic`` -> ``contraction``)."""
    m = _DISPATCH_ROOT.search(dispatch_name or "")
    if m:
        root = m.group("root")
        if root.endswith(
            "_like"
        ):  # IREE's name for a generic with a named op's structure: matmul_like, matvec_like ...
            return "contraction" if root.removesuffix("_like") in _CONTRACTION_LIKE else root.removesuffix("_like")
        for role, keys in _ROLES:
            if any(k in root for k in keys):
                return role
        return root
    return ops_role(fallback_ops)


def ops_role(ops: str) -> str:
    names = [o.partition("[")[0] for o in (ops or "").split(">")]
    for role, keys in _GRAPH_ROLES:
        if any(n.startswith(keys) for n in names):
            return role
    return "elementwise" if any(n and n != "-" for n in names) else "-"


def _signature_ops(finding: Finding) -> str:
    return finding.signature.split("/")[2] if finding.signature.count("/") >= 4 else ""


def _pipeline(value: Any) -> str:
    return re.sub(r"^(?:CPU|LLVMCPU)", "", str(value or "-")) or "-"


# --------------------------------------------------------------------------- numeric


@dataclasses.dataclass(frozen=True)
class _Node:
    op: str
    inputs: tuple[str, ...]
    init: str  # the ref of its destination when the program passes one (``init = value:<ref>``), else ""

    @property
    def destinations(self) -> tuple[str, ...]:
        """What the node writes into: its ``init`` value, or its accumulator operand
        (a matmul's, a convolution's ...)."""
        return tuple(
            ref for ref, _ in destinations(self.op, self.inputs, {"init": f"value:{self.init}"} if self.init else {})
        )

    @property
    def is_view(self) -> bool:
        return self.op in OPS and OPS[self.op].view

    @property
    def reads(self) -> tuple[str, ...]:
        return self.inputs + ((self.init,) if self.init else ())


@dataclasses.dataclass(frozen=True)
class _Program:
    """The recorded case graph (JSON) as far as causes need it; tolerant of old or partial records."""

    nodes: tuple[_Node, ...]
    outputs: tuple[str, ...]

    raw: bool = False  # the recorded op cone of a raw program's output (``oracles.op_cone``), not a whole graph

    @classmethod
    def of(cls, finding: Finding) -> "_Program | None":
        """The cone of its wrong output a raw program's finding recorded from the IR (``cone``), else the case's
        graph."""
        if isinstance(finding.evidence.get("cone"), Mapping):
            program = cls.read(finding.evidence["cone"])
            return None if program is None else dataclasses.replace(program, raw=True)
        return cls.read((finding.case or {}).get("graph") if isinstance(finding.case, Mapping) else None)

    @classmethod
    def read(cls, graph: Any) -> "_Program | None":
        if not isinstance(graph, Mapping) or not isinstance(graph.get("nodes"), list):
            return None
        nodes = []
        for n in graph["nodes"]:
            n = n if isinstance(n, Mapping) else {}
            attrs = n.get("attrs")
            init = str((attrs if isinstance(attrs, Mapping) else {}).get("init", "empty"))
            nodes.append(
                _Node(
                    str(n.get("op", "-")),
                    tuple(str(r) for r in n.get("inputs") or ()),
                    init.partition(":")[2] if init.startswith("value:") else "",
                )
            )
        return cls(tuple(nodes), tuple(str(r) for r in graph.get("outputs") or ()))

    def node(self, ref: str) -> _Node | None:
        return self.nodes[int(ref[1:])] if re.fullmatch(r"n\d+", ref) and int(ref[1:]) < len(self.nodes) else None

    def output(self, index: Any) -> str | None:
        return self.outputs[index] if isinstance(index, int) and 0 <= index < len(self.outputs) else None

    def wrong_output(self, finding: Finding) -> str | None:
        """The output a numeric finding is about (a raw program's cone has only that one)."""
        return self.output(0 if self.raw else finding.evidence.get("output"))

    def cone(self, ref: str | None, past: frozenset[str] = frozenset()) -> list[int]:
        """Indices of the nodes ``ref`` depends on (inputs and destinations, but no destination in ``past``), in
        program order; all if ``ref`` is None."""
        if ref is None:
            return list(range(len(self.nodes)))
        needed, stack = set(), [ref]
        while stack:
            ref = stack.pop()
            node = self.node(ref)
            if node is not None and int(ref[1:]) not in needed:
                needed.add(int(ref[1:]))
                stack += [r for r in node.reads if r not in past or r not in node.destinations]
        return sorted(needed)

    @functools.cached_property
    def splats(self) -> frozenset[str]:
        """The nodes whose value is a splat: a fill, and the ops of ``_SPLAT_PRESERVING`` over splats only."""
        found: set[str] = set()
        for i, node in enumerate(self.nodes):
            if node.op == "fill" or (node.op in _SPLAT_PRESERVING and node.inputs and set(node.inputs) <= found):
                found.add(f"n{i}")
        return frozenset(found)

    def argument_uses(self, nodes: Sequence[int]) -> collections.Counter:
        return collections.Counter(r for i in nodes for r in self.nodes[i].reads if r.startswith("a"))

    @property
    def written_arguments(self) -> set[str]:
        """Arguments some node writes into, directly or through a view of them (a slice, a reshape)."""
        return {v for n in self.nodes for r in n.destinations if (v := self.viewed(r)) is not None}

    def viewed(self, ref: str) -> str | None:
        """The argument ``ref`` is, or is a view of (None when it is a computed value)."""
        while (node := self.node(ref)) is not None and node.is_view and node.inputs:
            ref = node.inputs[0]
        return ref if ref.startswith("a") else None


def _written_arguments(finding: Finding) -> set[str] | None:
    program = _Program.of(finding)
    return None if program is None or program.raw else program.written_arguments


def clobbered_arguments(finding: Finding) -> set[str]:
    """Arguments a numeric finding's output reads that the program also writes in place and uses again
    (a second destination or a reader): an in-place write there changes what the output reads. Known of a
    graph only (a raw program records the cone of its wrong output, not every use of an argument)."""
    program = _Program.of(finding)
    if program is None or program.raw:
        return set()
    everywhere = program.argument_uses(program.cone(None))
    read = program.argument_uses(program.cone(program.wrong_output(finding)))
    return {a for a in read if a in program.written_arguments and everywhere[a] > 1}


def reads_argument(finding: Finding, argument: Any) -> bool:
    """Whether the finding's output reads argument ``argument`` other than as the destination of the one op that
    updates it in place: an accumulator read and written element by element (a matmul's, a reduction's init) reads
    each element before its own write, so that write cannot be what made the output wrong (stop 45: the AVX2 mmt4d
    ukernel's wrong values were called its argument accumulator's in-place write). True when neither a graph nor a
    cone is known."""
    program = _Program.of(finding)
    if program is None:
        return True
    ref = f"a{argument}"
    cone = program.cone(program.wrong_output(finding))
    roles = [r in program.nodes[i].destinations for i in cone for r in program.nodes[i].reads if r == ref]
    return bool(roles) and roles != [True]


# Ops whose result is a splat when every input is one: the compiler folds them into the fill.
_SPLAT_PRESERVING = frozenset(
    {
        "abs",
        "add",
        "broadcast",
        "cast",
        "div",
        "exp",
        "extract_slice",
        "log",
        "max",
        "min",
        "mul",
        "negate",
        "sqrt",
        "sub",
        "tanh",
        "transpose",
        "where_gt",
        *TRANSCENDENTAL_OPS,
        "inv_freq",
        "pow_int",
    }
)
_DATA_MOVEMENT = frozenset({"broadcast", "transpose", "extract_slice"})
# Ops that sum over their input along a dim (a mean, a softmax's denominator): over a splat, that sum is the
# reduction over a fill, so their findings share its cause (fill>rms_norm -> fill>reduce_sum).
_SUMS_OVER_INPUT = frozenset(NORMS)


def cone_pattern(program: _Program, ref: str | None) -> str:
    """The numeric key of value ``ref``: the ops it depends on, in program order, the one function for a campaign
    graph and a raw program's recorded cone alike. Every splat (a fill, a splat constant, and the elementwise ops
    and broadcasts of splats, which the compiler folds into one) is shown as ``fill``; a splat destination (the
    value an accumulator starts from, as a reduction's or a convolution's init) is no data of the result and is
    left out; the data movement that only carries a wrong value out is dropped: ``fill>cast>reduce_sum>broadcast``
    -> ``fill>reduce_sum``; a norm or softmax of a splat is its sum over the splat (``fill>rms_norm`` ->
    ``fill>reduce_sum``); elementwise ops after a sum over a splat only carry its value on."""
    while (
        ref is not None
        and (node := program.node(ref)) is not None
        and node.op in _DATA_MOVEMENT
        and node.inputs
        and program.node(node.inputs[0]) is not None
    ):
        ref = node.inputs[0]
    splat = program.splats
    ops: dict[str, None] = {}
    for i in program.cone(ref, past=splat):
        node = program.nodes[i]
        over_splats = bool(node.inputs) and all(r in splat for r in node.inputs)
        if f"n{i}" in splat:
            ops["fill"] = None
        elif node.op in _SUMS_OVER_INPUT and over_splats:
            ops["reduce_sum"] = None
        else:
            ops[node.op] = None
    names = list(ops)
    if names[:2] == ["fill", "reduce_sum"] and all(OPS[n].family == "elementwise" for n in names[2:] if n in OPS):
        names = names[:2]
    return ">".join(names) or "-"


# --------------------------------------------------------------------------- metamorphic


# --------------------------------------------------------------------------- entry points
