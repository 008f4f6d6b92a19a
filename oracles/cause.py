"""The cause of a finding: what one upstream issue would cover, beside its fine-grained signature.

A signature names a symptom (``oracle/kind/ops/dtype/dims``); one compiler bug shows up under many
of them (every dtype, dims pattern and neighbouring op). A ``Cause`` is derived per oracle from what
identifies the defect and nothing else, the way ClusterFuzz buckets crashes by their crash state:

* immutability: what IREE did to the overwritten argument. A dispatch whose result is tied to the argument's
  imported buffer with no clone (``tied_to``, read from the program compiled to flow) is one cause,
  iree-org/iree#16168, whatever op writes and whatever the program's syntax; when every tied dispatch is an
  op that updates its outs in place (sort, top-k, scan), the in-place op's own bufferization, iree-org/iree#24665
  (a sort of an argument's copy, once IREE folds the copy, sorts the argument). An argument overwritten with no
  such tie is another. A record without ``tied_to`` (older runs) falls back to the syntax.
* crash: a compile error by its normalized first diagnostic plus the pass that failed, as its family where
  several passes run one transformation (``pass_family``: the tiling passes are ``tiling``); a
  compiler crash by its crash state (crash type + top 3 frames, addresses and arguments stripped);
  timeouts, OOMs and dead workers by kind; runtime faults by their normalized message.
* memory: alloca or copy, what the dispatch computes (IREE's own name for its root op: a contraction,
  a reduction, a gather ...), and its pipeline -- never the ops around it, the dtype or the sizes. A copy is
  keyed by what it moves (the ends the memory oracle recorded): one of an input binding into the output is
  the outs-is-an-argument form (#8303), whatever the syntax; copies into and out of a buffer that the same
  dispatch's allocation finding reports are that allocation's consequence (``assign_causes``).
* fusion: the kind of producer materialized, and the pipeline.
* numeric / reference: a wrong value whose output reads an argument written in place is a consequence
  of that mutation (its cause is the mutation's); otherwise the op pattern of the output's cone
  (``cone_pattern``, one function for a campaign graph and a raw program's cone read from its IR,
  ``oracles.op_cone``) with dtype and dims dropped (``numeric/wrong-value/fill>reduce_sum``); never a function's
  name.
* metamorphic: an asymmetry takes the cause of a memory finding of its family in the same case, a
  failed variant the cause of its compile error; otherwise a relation-level cause.

Pure: reads only the finding's own JSON (message, evidence, case), so older runs can be re-bucketed.
"""

from __future__ import annotations

import collections
import dataclasses
import functools
import re
from typing import Any, Mapping, Sequence

from ireefuzz.generators.ops import NORMS, OPS, destinations

from . import vocabulary
from .finding import Finding


@dataclasses.dataclass(frozen=True)
class Cause:
    id: str  # stable, path-safe, readable, e.g. "immutability/dps-init-written-in-place"
    title: str  # one readable line, what one upstream issue would be titled
    oracle: str


_UNSAFE = re.compile(r"[^A-Za-z0-9_.+>=,:@\-\[\]/]")


def _cause(oracle: str, parts: Sequence[str], title: str) -> Cause:
    """A cause whose id is ``oracle/part/...``, each part path-safe (no '/' inside a part)."""
    clean = [_UNSAFE.sub("_", str(p).replace("/", "_")) or "-" for p in parts]
    return Cause("/".join([oracle, *clean]), title, oracle)


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


def _immutability_cause(finding: Finding) -> Cause:
    tied = finding.evidence.get("tied_to")
    if isinstance(tied, list):  # what IREE did, read from the program compiled to flow: it decides
        if tied and all(dispatch_role(str(name)) in _IN_PLACE_ROLES for name in tied):
            return IN_PLACE_OP_MUTATION  # the in-place op's own bufferization, whatever the program wrote
        return ARGUMENT_MUTATION if tied else READ_ONLY_MUTATION
    ops = finding.evidence.get("ops")
    if isinstance(ops, list) and any(str(op).endswith(("[outs]", "[acc]")) for op in ops):
        return ARGUMENT_MUTATION
    written = _written_arguments(finding)
    if written is not None and "argument" in finding.evidence and f"a{finding.evidence['argument']}" not in written:
        return READ_ONLY_MUTATION
    return ARGUMENT_MUTATION  # no graph (a raw MLIR program): the one known mechanism


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
# Context errors that say where, not what: skipped when naming the stage.
_GENERIC_STAGES = (
    "failed to run translation of source executable",
    "failed to serialize executable",
    "failed to translate executables",
    "failed to legalize operation",
)
_TYPE = re.compile(
    r"\b(?:tensor|memref|vector|complex|!?[\w.]+)<[^<>]*(?:<[^<>]*>[^<>]*)*>|\b[iuf]\d+\b|\bindex\b|\bbf16\b"
)
_OP_NAME = re.compile(r"'([a-z_]+\.[a-z_.0-9]+)'")


def normalize_diagnostic(message: str, words: int = 12) -> str:
    """A diagnostic line without SSA names, symbols, numbers, types, shapes or quoted values:
    ``linalg.generic-op-write-affecting-operations-on-global-resources-...``. Quoted op names stay."""
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


def failing_pass(diagnostic: str) -> str | None:
    """The pass that failed for the failing dispatch (``sut`` appends ``failing pass: <pass-arg> (<where>)`` lines
    read from ``--mlir-print-ir-after-failure`` dumps): the one where the first error is located, else the first."""
    passes = _FAILING_PASS.findall(diagnostic)
    if not passes:
        return None
    located = _LOCATED_ERROR.search(diagnostic)
    dispatch = _DISPATCH_FILE.search(located.group(1)) if located else None
    where = dispatch.group(1) if dispatch else "module"
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
        if gist.startswith("failed") and not gist.startswith(_GENERIC_STAGES):
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
    names = [_frame_name(f) for f in _FRAME.findall(diagnostic)]
    names = [n for n in names if n and not _NOISE_FRAMES.search(n)][:frames]
    if not names:  # an unsymbolized build: the pass LLVM's pretty stack trace says was running, if any
        names = [f"pass:{normalize_diagnostic(p, 8)}" for p in _RUNNING_PASS.findall(diagnostic)[-1:]]
    return kind, names


def _frame_name(frame: str) -> str:
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


def _crash_cause(finding: Finding) -> Cause:
    ev, kind = finding.evidence, finding.kind
    diagnostic = str(ev.get("diagnostic") or "")
    if kind == "compile-error":
        message = first_error(diagnostic, finding.message.partition(": ")[2] or finding.message)
        gist, stage = normalize_diagnostic(message), pass_family(compile_error_stage(diagnostic))
        if _STACK_LIMIT_ERROR.search(message):  # over the stack limit, by any wording: by what the dispatch computes
            role = _failing_dispatch_role(diagnostic) or ops_role(_signature_ops(finding).partition("[")[0])
            role = "in-place" if role in _IN_PLACE_ROLES else role  # sort / top-k scratch: one mechanism
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
    if kind.startswith("runtime-") and "message" in ev:  # the runtime's own error, without the function name
        gist = normalize_diagnostic(re.sub(r"^[\w$.-]+: ", "", str(ev["message"])), 10)
        return _cause("crash", [kind, gist], f"The compiled module fails at run time ({kind}): {_words(gist)}")
    if "detail" in ev:  # a campaign worker that died: by kind and signal (SIGSEGV, SIGKILL, exit status)
        detail = normalize_diagnostic(str(ev["detail"]), 3)
        return _cause("crash", [kind, detail], f"{_words(kind).capitalize()} ({detail}) on a valid program")
    return _cause("crash", [kind], f"{_words(kind).capitalize()} on a valid program")  # compile timeout, oom


# ``'func.func' op exceeded stack allocation limit of N bytes``, ``'memref.alloca' op stack allocation size
# overflows 64 bits`` and ``expected no unbounded stack allocations``: one check (the dispatch's stack buffers must
# fit max_stack_allocation_size), three wordings of a buffer sized by a dynamic dim.
_STACK_LIMIT_ERROR = re.compile(
    r"exceeded stack allocation limit|stack allocation size overflows|"
    r"expected no unbounded stack allocations"
)
_IN_PLACE_ROLES = frozenset({"sort", "topk", "scan", "scatter"})  # linalg_ext ops that update their outs in place
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
_SERVES = {"contraction": "the vector tile of a contraction", "reduction": "the accumulator of a reduction"}


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


def _memory_cause(finding: Finding) -> Cause:
    ev = finding.evidence
    family = MEMORY_FAMILIES.get(finding.kind, finding.kind)
    role = str(ev.get("role") or "") or dispatch_role(str(ev.get("dispatch") or ""), _signature_ops(finding))
    pipeline = _pipeline(ev.get("pipeline"))
    if family == "copy" and _copies_an_input_into_the_output(finding):  # #8303's form, whatever op
        return _cause(
            "memory",
            [family, f"outs-is-argument@{pipeline}"],
            f"A buffer copy in {pipeline} codegen of an input binding into the output: an op's destination (outs) "
            "comes from outside the dispatch (a function argument)",
        )
    if family == "copy":
        title = f"A buffer copy in the {pipeline} codegen of a {role} dispatch"
    else:
        what = "A stack alloca" if family == "alloca" else f"A heap {family}"
        title = f"{what} for {_SERVES.get(role, f'a {role} dispatch')} in {pipeline} codegen"
    return _cause("memory", [family, f"{role}@{pipeline}"], title)


def _copy_ends(finding: Finding) -> list[tuple[str, str]] | None:
    """(source, target) of each copy of a memory finding, as the memory oracle recorded what it moves
    (``memory.COPY_ENDS``); None for a record without them (older runs)."""
    ops = finding.evidence.get("memory_ops")
    rows = [m for m in ops if isinstance(m, Mapping)] if isinstance(ops, list) else []
    if not rows or not all(m.get("source") and m.get("target") for m in rows):
        return None
    return [(str(m["source"]), str(m["target"])) for m in rows]


def _copies_an_input_into_the_output(finding: Finding) -> bool:
    """A copy moves a binding the dispatch only reads into one it writes: the dispatch starts its result from an
    input, the destination-passing form of iree-org/iree#8303 (an op's outs is a function argument, whatever op
    it is). What IREE did decides: a copy between stack buffers is never it, whatever the program's syntax. A
    record without copy ends (older runs) falls back to the syntax: some op's DPS init is an argument."""
    ends = _copy_ends(finding)
    if ends is not None:
        return ("read-only-binding", "binding") in ends
    program = _Program.of(finding)
    return program is not None and any(re.fullmatch(r"a\d+", node.init) for node in program.nodes)


def _pipeline(value: Any) -> str:
    return re.sub(r"^(?:CPU|LLVMCPU)", "", str(value or "-")) or "-"


def producer_kind(excerpt: str, ops: str = "") -> str:
    """What a materialized producer is, from its op (the excerpt is its first line) and the dispatch's op
    pattern (``generic[index]``: a generic reading ``linalg.index``): an iota, a fill (a splat, named or a
    generic of no input and no index), a constant."""
    if "linalg.fill" in excerpt or "tensor.splat" in excerpt:
        return "fill"
    if "arith.constant" in excerpt or "tensor.generate" in excerpt:
        return "constant"
    if "linalg.generic" in excerpt or not excerpt:
        return "iota" if "generic[index" in ops or "iota" in ops else "fill" if excerpt or "fill" in ops else "producer"
    return "producer"


def _fusion_cause(finding: Finding) -> Cause:
    ev = finding.evidence
    if finding.kind != "materialized-producer":  # over a budget: by what the program's dispatches compute
        names = ev.get("dispatches")
        names = names if isinstance(names, list) else []
        roles = sorted({dispatch_role(str(d)) for d in names} - {"-"}) or [ops_role(_signature_ops(finding))]
        return _cause(
            "fusion",
            [finding.kind, "+".join(roles)],
            f"{_words(finding.kind).capitalize()} over the graph's budget in a {'+'.join(roles)} program",
        )
    producer = producer_kind(str(ev.get("excerpt") or ""), _signature_ops(finding))
    pipeline = _pipeline(ev.get("pipeline"))
    return _cause(
        "fusion",
        [finding.kind, f"{producer}@{pipeline}"],
        f"A {producer} producer gets its own dispatch ({pipeline}) instead of fusing into its consumers",
    )


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
    """Whether the finding's output reads argument ``argument`` (True when neither a graph nor a cone is known)."""
    program = _Program.of(finding)
    if program is None:
        return True
    return f"a{argument}" in program.argument_uses(program.cone(program.wrong_output(finding)))


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


def _numeric_cause(finding: Finding) -> Cause:
    if clobbered_arguments(finding):
        return ARGUMENT_MUTATION
    program = _Program.of(finding)
    ops = cone_pattern(program, program.wrong_output(finding)) if program is not None else _surface_ops(finding)
    who = "IREE" if finding.oracle == "numeric" else "JAX (the reference)"
    return _cause(finding.oracle, [finding.kind, ops], f"{who} computes a {_words(finding.kind)} for {ops}")


def _surface_ops(finding: Finding) -> str:
    """The signature's ops of a record with neither a graph nor a cone (older runs), but never a function's name
    (a raw program with no dispatch was signed by its function): then nothing is known of its ops."""
    ops = _signature_ops(finding) or "-"
    return "-" if ops == finding.evidence.get("function") else ops


# --------------------------------------------------------------------------- metamorphic

_INDEX = re.compile(r"\b([an])\d+\b")
_ASYMMETRIES = ("alloca-asymmetry", "alloc-asymmetry", "copy-asymmetry")
_VARIANT_FAILURE = re.compile(r"(compile|run) (\w+): (.*)", re.S)


def _metamorphic_cause(finding: Finding) -> Cause:
    ev = finding.evidence
    failure = str(ev.get("failure") or "")
    failed = _VARIANT_FAILURE.match(failure) if finding.kind == "variant-failed" else None
    if failed:  # the variant's own crash: "compile error: <diagnostic>", "run fault: <message>"
        kind = f"{'compile' if failed.group(1) == 'compile' else 'runtime'}-{failed.group(2)}"
        text = failed.group(3)
        return _crash_cause(Finding("crash", kind, f"crash/{kind}/-/-/-", text, {"diagnostic": text, "message": text}))
    carrier = ev.get("sites")
    if finding.kind in _ASYMMETRIES and isinstance(carrier, list) and carrier and isinstance(carrier[0], Mapping):
        family = finding.kind.removesuffix("-asymmetry")  # the variant's own memory op: its memory cause
        return _memory_cause(Finding("memory", family, f"memory/{family}/-/-/-", "", dict(carrier[0])))
    relation = str(ev.get("relation") or "-")
    label = _INDEX.sub(r"\1", str(ev.get("variant") or "-"))
    role = ops_role(_signature_ops(finding).partition("[")[0])
    return _cause(
        "metamorphic",
        [finding.kind, f"{role}[{relation}:{label}]"],
        f"{_words(finding.kind).capitalize()} of a {role} graph under the {relation} relation ({label})",
    )


# --------------------------------------------------------------------------- entry points

_BY_ORACLE = {
    "immutability": _immutability_cause,
    "crash": _crash_cause,
    "memory": _memory_cause,
    "fusion": _fusion_cause,
    "numeric": _numeric_cause,
    "reference": _numeric_cause,
    "metamorphic": _metamorphic_cause,
}


def cause_of(finding: Finding) -> Cause:
    """The cause of one finding, from its own JSON (signature, message, evidence, case) only."""
    if not isinstance(finding.evidence, Mapping):  # a record without evidence still has a cause
        finding = dataclasses.replace(finding, evidence={})
    return _BY_ORACLE[finding.oracle](finding)


def assign_causes(findings: Sequence[Finding]) -> list[Finding]:
    """One case's findings with ``cause`` / ``cause_title`` set. A finding that follows from another in the
    same case records ``consequence_of`` (that finding's signature) in its evidence and shares its cause
    (followed to the finding that follows from none): a wrong value read from a mutated argument; a copy into or
    out of a buffer the same dispatch allocated, when that allocation is itself a finding; an asymmetry of a
    memory finding's family (its own cause when its evidence names the dispatch that carries it, else the memory
    finding's)."""
    findings = [f if isinstance(f.evidence, Mapping) else dataclasses.replace(f, evidence={}) for f in findings]
    own = [cause_of(f) for f in findings]
    sources = [_consequence_source(i, findings, own) for i in range(len(findings))]
    out = []
    for i, finding in enumerate(findings):
        root, seen = i, {i}
        while (up := sources[root]) is not None and up not in seen:  # a copy's alloca, an asymmetry's copy ...
            root = up
            seen.add(root)
        if (source := sources[i]) is not None:
            finding = finding.with_evidence(consequence_of=findings[source].signature)
        out.append(finding.with_cause(own[root]))
    return out


def _consequence_source(index: int, findings: Sequence[Finding], causes: Sequence[Cause]) -> int | None:
    """The index of the finding in the same case that ``findings[index]`` follows from, if any."""
    finding = findings[index]
    if finding.oracle in ("numeric", "reference"):
        return next(
            (
                i
                for i, other in enumerate(findings)
                if other.oracle == "immutability" and reads_argument(finding, other.evidence.get("argument"))
            ),
            None,
        )
    if finding.oracle == "memory" and MEMORY_FAMILIES.get(finding.kind) == "copy":
        return _allocation_copied(finding, findings)
    if finding.oracle == "metamorphic" and finding.kind in _ASYMMETRIES:
        family = finding.kind.removesuffix("-asymmetry")
        located = bool(finding.evidence.get("sites"))
        return next(
            (
                i
                for i, other in enumerate(findings)
                if other.oracle == "memory"
                and MEMORY_FAMILIES.get(other.kind) == family
                and (not located or causes[i] == causes[index])
            ),
            None,
        )
    return None


def _allocation_copied(copy: Finding, findings: Sequence[Finding]) -> int | None:
    """The allocation finding (alloca or alloc) of the copy's own dispatch when every copy moves data into or out
    of a buffer of that kind (what the memory oracle recorded each copy moves): the tile written into a stack
    buffer and read back is that buffer's defect, not one of its own. None when a copy moves only bindings, or
    the record does not say what its copies move."""
    ends, dispatch = _copy_ends(copy), copy.evidence.get("dispatch")
    if ends is None or not dispatch:
        return None
    return next(
        (
            i
            for i, other in enumerate(findings)
            if other.oracle == "memory"
            and (family := MEMORY_FAMILIES.get(other.kind)) in ("alloca", "alloc")
            and other.evidence.get("dispatch") == dispatch
            and all(family in pair for pair in ends)
        ),
        None,
    )
