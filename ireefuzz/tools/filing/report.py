"""The one bundle maker and the one ``ISSUE.md`` writer, for campaign findings (``repro``), ``check --bundle``
(``program``) and JAX models (``tools.jax_model``).

A front-end says what it bundles as a ``Subject``: the program, the function and its types at the bundled instance,
its inputs, the reference's outputs and who computed them, the compile flags and the platform. ``make_bundle`` turns
a finding and its subject into a ``Bundle`` (``run.sh``, ``finding.json``, inputs, expected values, the
immutability wrapper); ``issue_text`` writes its ``ISSUE.md`` as IREE's bug template asks, from the subject and
what filing ``Measured`` (the culprit, the upstream search, the lit tests, run.sh's exit statuses, the CPUs it
reproduces on, the experiments): the title from the reduced program, what happened and what was expected in words and
values, the trigger, the command line, the culprit with the lines of its output that are wrong, the upstream search.
A section is written only from a measurement: no "not run yet".
"""

from __future__ import annotations

import collections
import dataclasses
import json
import re
import shlex
import textwrap
from types import SimpleNamespace
from typing import TYPE_CHECKING, Any, Mapping, Sequence

import numpy as np

from ireefuzz import sut
from ireefuzz.base.durable import json_default
from ireefuzz.errors import UsageError
from ireefuzz.generators.ops import tensor_type
from ireefuzz.generators.tensor import TensorType
from ireefuzz.oracles import diagnostics
from ireefuzz.oracles.finding import Finding
from ireefuzz.oracles.registry import spec_of
from ireefuzz.tools.filing import culprit as culprits
from ireefuzz.tools.filing import experiments as experimenting
from ireefuzz.tools.filing import lit_tests, upstream
from ireefuzz.tools.filing.bundle import (
    COMPILE_ONLY_BODIES,
    INPUTS_AFTER,
    INPUTS_AFTER_FUNCTION,
    UPSTREAM_TEST,
    Bundle,
    own_diagnostic,
    run_script,
    wrapper_module,
)
from ireefuzz.tools.filing.culprit import libcall

if TYPE_CHECKING:
    from ireefuzz.core.frontends import ProgramCase

UPSTREAM_RESEARCH = "docs/upstream-research.md"  # ireefuzz's record of the upstream searches behind the table
PORTABLE_CPUS = experimenting.CPUS  # least specific first: a bundle is made for the first that reproduces
# Ops that name nothing in a title: a program's plumbing, not what it computes.
_PLUMBING = frozenset({"arith.constant", "tensor.empty", "tensor.dim", "tensor.cast", "func.return", "util.return"})
_VM_MODULE = re.compile(r"^\s*(?:builtin\.)?module\s+@([\w$.-]+)", re.M)
_OP_NAME = re.compile(r"^\s*(?:%[\w.:#, %]+ = )?\"?([a-z_][\w]*\.[\w.]+)\b", re.M)


# --------------------------------------------------------------------------- what is bundled


@dataclasses.dataclass(frozen=True)
class Platform:
    """The compiler and CPU a bundle is made for."""

    version: str
    cpu: str  # the CPU run.sh compiles for
    asked: str = ""  # the CPU the case asked for, when it was resolved to ``cpu`` (``host``)
    features: str = ""


@dataclasses.dataclass(frozen=True)
class Subject:
    """What a front-end bundles: a program's function at one instance, its inputs and its reference values."""

    program: str
    function: str
    args: tuple[TensorType, ...]
    outputs: tuple[TensorType, ...]
    inputs: Sequence[np.ndarray]
    expected: Mapping[str, np.ndarray]  # f64_<k>, and jax_<k> or ref_<k> (the values run.sh compares)
    reference: str  # who computed the expected values, in words
    flags: tuple[str, ...]  # every compile flag, the target's included
    platform: Platform
    compared: str = "ref"  # the prefix of ``expected`` run.sh compares with (jax / ref)
    rtol: float = 0.0
    atol: Mapping[str, float] = dataclasses.field(default_factory=dict)
    error_message: str = ""  # a compile error's own message (run.sh looks for it)
    data_movement: tuple[str, ...] = ()  # the dispatches whose own op moves data (memory.moves_data)
    case: Mapping[str, Any] | None = None  # case.json
    record: Mapping[str, Any] = dataclasses.field(default_factory=dict)  # front-end fields of finding.json
    sizes: Mapping[str, int] = dataclasses.field(default_factory=dict)
    artifact: Any = None  # the compile the evidence reads dispatches from (None: the finding's evidence alone)
    sections: tuple[str, ...] = ()  # ISSUE.md lines only this front-end has (JAX: the IR after input conversion)

    def outputs_compared(self) -> list[np.ndarray]:
        return [
            self.expected[f"{self.compared}_{k}"]
            for k in range(len(self.outputs))
            if f"{self.compared}_{k}" in self.expected
        ]


@dataclasses.dataclass(frozen=True)
class Measured:
    """What filing measured on a bundle, each stated in ISSUE.md only when measured."""

    culprit: culprits.Culprit | None = None
    upstream: Sequence[upstream.Match] = ()
    searched: bool = False  # the upstream table was consulted (the search line)
    tests: Sequence[lit_tests.Verdict] = ()
    exits: Sequence[int | None] = ()  # run.sh's exit statuses in a clean environment
    cpus: Sequence[str] = ()  # the CPUs of PORTABLE_CPUS it reproduces on
    inputs_check: Mapping[str, Any] | None = None
    ops: Sequence[str] = ()  # the reduced program's ops
    experiments: Mapping[str, Any] | None = None  # experiments.record


def inputs_after_for(program: str, function: str, args: Sequence[TensorType], outs: Sequence[TensorType]) -> str:
    """``inputs_after.mlir`` for ``function`` of ``program``: the wrapper calls it in the program's VM module (named
    by a top-level ``module @name``, else ``module``) at its own argument types."""
    named = _VM_MODULE.search(program)
    return wrapper_module(
        f"{named.group(1) if named else 'module'}.{function}",
        [tensor_type(t) for t in args],
        [tensor_type(t) for t in outs],
    )


def crash_pass(found: culprits.Culprit | None) -> str:
    """The pass a crash's run.sh checks it died in: a crash culprit's (the pass running when it died), else ""."""
    return found.pass_ or "" if found is not None and found.method == "crash" else ""


def make_bundle(
    finding: Finding,
    subject: Subject,
    *,
    extra: Mapping[str, Any] | None = None,
    measured: Measured = Measured(),
    issue: bool = True,
) -> Bundle:
    """The Bundle of ``finding`` on ``subject``: run.sh (``bundle.run_script``), finding.json, inputs, expected
    values, the immutability wrapper and, with ``issue``, ISSUE.md (``issue_text``)."""
    bad = sut.unsafe_flags(subject.flags)
    if bad:
        raise UsageError(f"{finding.signature}: refusing flags that write files or are malformed: {bad}")
    reproduce = spec_of(finding.oracle).reproduce(finding.kind)
    script = run_script(
        finding,
        SimpleNamespace(args=subject.args, outputs=subject.outputs),
        subject.flags,
        rtol=subject.rtol,
        atol=subject.atol,
        error_message=subject.error_message,
        data_movement=subject.data_movement,
        function=subject.function,
        outputs=subject.outputs_compared(),
        crash_pass=crash_pass(measured.culprit),
    )
    record = (
        finding.to_json()
        | dict(extra or {})
        | {
            "compiler_version": subject.platform.version,
            "cpu": subject.platform.cpu,
            "flags": list(subject.flags),
            "function": subject.function,
        }
        | dict(subject.record)
    )
    if measured.culprit is not None:
        record["culprit"] = measured.culprit.to_json()
    return Bundle(
        program=subject.program,
        finding=record,
        case=dict(subject.case) if subject.case is not None else None,
        inputs=list(subject.inputs),
        expected=dict(subject.expected),
        run_sh=script,
        inputs_after=(
            inputs_after_for(subject.program, subject.function, subject.args, subject.outputs)
            if reproduce == "inputs-after"
            else None
        ),
        issue=issue_text(finding, subject, measured) if issue else None,
        culprit_before=(measured.culprit.ir_before or None) if measured.culprit is not None else None,
        culprit_after=(measured.culprit.ir_after or None) if measured.culprit is not None else None,
    )


# --------------------------------------------------------------------------- ISSUE.md


def issue_text(finding: Finding, subject: Subject, measured: Measured = Measured()) -> str:
    """ISSUE.md, as IREE's bug template asks (what happened, what was expected in words and values, the trigger,
    the command line, the culprit with its IR, the upstream search), stating only what was measured."""
    ev = dict(finding.evidence)
    judged = spec_of(finding.oracle)
    reproduce = judged.reproduce(finding.kind)
    renamed = ""
    if "dispatch" in ev:  # found in a batch module (functions g<i>): the bundle's function is this program's
        original = str(ev["dispatch"])
        ev["dispatch"] = re.sub(r"^\w+?_dispatch_", f"{subject.function}_dispatch_", original)
        if original != ev["dispatch"]:
            renamed = (
                f"(The finding names it `{original}`: the function it was found in is this program's "
                f"`@{subject.function}`.)"
            )
    what = judged.happened.format(
        kind=finding.kind,
        dispatch=ev.get("dispatch", "?"),
        pipeline=ev.get("pipeline", "?"),
        argument=ev.get("argument", "?"),
        message=finding.message,
        reference=subject.reference,
    )
    ops = list(measured.ops) or ops_of(subject.program)
    heading = title(
        finding,
        ops,
        measured.culprit,
        program=subject.program,
        function=subject.function,
        experiments=measured.experiments,
    )
    lines = [
        f"# {heading}",
        "",
        "## What happens",
        "",
        what,
        *([renamed] if renamed else []),
        "",
        f"ireefuzz: `{finding.message}`",
        "",
        *upstream_placement(measured.tests),
        "## What was expected",
        "",
        *expected_lines(finding, subject),
        "",
    ]
    lines += trigger_lines(measured.experiments)
    p = subject.platform
    lines += [
        "## Environment",
        "",
        f"- IREE compiler: `{p.version or '?'}`",
        f"- Target: llvm-cpu, CPU `{p.cpu or 'host'}`"
        + (f" (resolved from `{p.asked}`)" if p.asked and p.asked != p.cpu else ""),
        *([f"- CPU features: `{p.features}`"] if p.features else []),
        f"- Flags: `{' '.join(subject.flags)}`",
        "",
    ]
    if measured.cpus:
        lines += [
            f"Reproduces with `--iree-llvmcpu-target-cpu=` {', '.join(f'`{c}`' for c in measured.cpus)} (tried: "
            f"{', '.join(f'`{c}`' for c in PORTABLE_CPUS)}; `run.sh` uses the least specific, `{measured.cpus[0]}`)."
            + host_said(measured.cpus),
            "",
        ]
    compile_line = shlex.join(
        sut.compile_command(
            sut.CompilerConfig(), "program.mlir", "module.vmfb", binary="iree-compile", flags=subject.flags
        )
    )
    lines += [
        "## Reproduce",
        "",
        "```sh",
        compile_line,
        "./run.sh   # exit status 1 = reproduces, 0 = does not, 2 = could not tell; needs only "
        "iree-compile / iree-run-module",
        "```",
        "",
    ]
    dies_in = crash_pass(measured.culprit) if finding.kind == "compile-crash" else ""
    if dies_in:
        lines += [
            f"`run.sh` adds `--mlir-print-ir-before={dies_in} --mlir-disable-threading` to that command: the last "
            f"IR it prints before the crash shows that the compiler died in `{dies_in}`.",
            "",
        ]
    if reproduce == "inputs-after":
        lines += [
            "`iree-run-module` copies `--input` files into fresh buffers and never shows them again, so "
            f"`run.sh` also compiles `{INPUTS_AFTER}`: a second module whose `@{INPUTS_AFTER_FUNCTION}` calls "
            f"`@{subject.function}` across the module boundary (so the arguments are the caller's buffers) and returns "
            "the arguments after the call; `iree-run-module --expected_output=@inputs/a<i>.npy "
            "--equality_mode=exact` then shows the overwritten one.",
            "",
        ]
    shapes = ", ".join(f"a{i}: {x.dtype}{list(x.shape)}" for i, x in enumerate(subject.inputs))
    lines += [
        "## Minimal program",
        "",
        f"Function `@{subject.function}`; inputs (`inputs.npz`, one `.npy` each under `inputs/`): {shapes or 'none'}"
        + (f"; dynamic sizes {dict(subject.sizes)}" if subject.sizes else ""),
        "",
        "```mlir",
        subject.program.rstrip(),
        "```",
        "",
    ]
    lines += evidence_lines(finding, ev, subject.artifact)
    if measured.culprit is not None:
        lines += culprit_lines(measured.culprit)
    if measured.searched or measured.upstream:
        lines += upstream.issue_section(measured.upstream)
        lines += [
            "Upstream search: the table was refreshed by searching iree-org/iree and llvm/llvm-project issues and "
            f"pull requests; the searches and their findings are in ireefuzz's `{UPSTREAM_RESEARCH}`.",
            "",
        ]
    lines += lit_tests.issue_lines(measured.tests) if measured.tests else []
    if measured.exits:
        lines += confirmation_lines(measured)
    if measured.experiments is not None:
        lines += experimenting.section_lines(measured.experiments)
    lines += list(subject.sections)
    lines += ["", "---", f"Found by ireefuzz; signature `{finding.signature}`.", ""]
    return "\n".join(lines)


def upstream_placement(tests: Sequence[lit_tests.Verdict]) -> list[str]:
    """Where the bug is filed, said up front when its shipped upstream test shows the defect with upstream MLIR
    alone (the review: fill-sum, fold-unit-dims and the masked contract filed against IREE's wrapper pass)."""
    if not any(t.shipped and t.test == UPSTREAM_TEST for t in tests):
        return []
    return [
        "## Where it belongs",
        "",
        f"Upstream MLIR: `{UPSTREAM_TEST}` shows the same defect with upstream passes or transform ops "
        "alone, on this IR cut to upstream dialects (see Tests). File it at llvm/llvm-project with that test, and "
        "this report at IREE linking it.",
        "",
    ]


def host_said(cpus: Sequence[str]) -> str:
    """What `host` was where the bundle was made, when the CPUs it reproduces on name it: a claim about `host` holds
    only for a machine like that one (the review: #13577's fmaxf link error is gone on a host with AVX-512 FP16)."""
    if "host" not in cpus:
        return ""
    return f" Here `host` was {experimenting.host_description()}; another machine's `host` may differ."


def ops_of(text: str) -> list[str]:
    """The ops of a program's function bodies, in order, as printed (a program no parser reads: by its lines)."""
    return [
        m.group(1)
        for m in _OP_NAME.finditer(text)
        if not m.group(1).startswith(("func.", "builtin.", "util.func"))
        and m.group(1) not in ("linalg.yield", "module")
    ]


def words(text: str, width: int) -> str:
    """``text`` on one line, at most ``width`` characters, cut between words (never inside one, nor at a hyphen)."""
    flat = " ".join(text.split())
    return (
        textwrap.shorten(flat, width, placeholder=" ...", break_on_hyphens=False, break_long_words=False)
        or flat.split(" ")[0]
    )


def title(
    finding: Finding,
    ops: Sequence[str],
    found: culprits.Culprit | None = None,
    *,
    program: str = "",
    function: str = "",
    experiments: Mapping[str, Any] | None = None,
) -> str:
    """The heading: what IREE did wrong, to what and under which condition, in words. The subject is the op that
    computes the output at fault in the reduced ``program`` with what it reads (``subject_phrase``), the condition what
    the experiments show it needs (``conditions``); without a program, the reduced program's kinds of op."""
    output = int((finding.evidence or {}).get("output") or 0)
    unneeded = [k for k, said in producer_verdicts(experiments).items() if said != "needed"]
    # the op alone at its operands' values fails the same way (experiments.cut): what fed it is no part of the bug
    rows = [experimenting.Row.from_json(r) for r in (experiments or {}).get("rows") or ()]
    depth = 1 if experimenting.alone_cause(rows) else 3
    subject = ""
    for text in dict.fromkeys((without_unneeded_consumer(program, finding, experiments), program) if program else ()):
        subject = subject or subject_phrase(text, function, output, depth, unneeded=unneeded)
    if not subject:
        kinds = list(dict.fromkeys(o for o in ops if o not in _PLUMBING))
        if not kinds:
            subject = "a program"
        elif len(kinds) <= 2:
            subject = " and ".join(f"`{k}`" for k in kinds)
        else:
            subject = f"`{kinds[-1]}` and {len(kinds) - 1} other kinds of op"
    call = libcall.unresolved(own_diagnostic(finding) or finding.message)
    family = libcall.LIBCALLS[call] if call else None
    if family is not None and family.op in program:  # the op LLVM turned into the call, not the op holding it
        subject = f"`{family.op}` in {subject}"
    named = found.pass_ if found is not None and found.pass_ else ""
    root = re.search(r"`([\w.]+)`", subject)
    needs = (
        conditions(program, experiments, named, function=function, subject=root.group(1) if root else "")
        if program
        else []
    )
    where = f" in `{named}`" if named else ""
    said = ", ".join(needs[:-1]) + (" and " if len(needs) > 1 else "") + needs[-1] if needs else ""
    return f"[{component(found, rows)}] {subject}{' with ' + said if said else ''}: {happened(finding)}{where}"


_DROPPED = re.compile(r"^drop:(n\d+)$")


def without_unneeded_consumer(program: str, finding: Finding, experiments: Mapping[str, Any] | None) -> str:
    """``program`` returning what feeds its last op instead, when the experiments removed that op (``drop:nK``) and
    the same wrong value stayed (the same cause, or its oracle and kind on the ops left): the op is no part of the
    bug, and a title naming it blames it (stop 48's i4 matmul was titled by the log1p after it). The program as
    given when no such row; where what feeds the op is of another type the rewrite does not verify, and ``title``
    phrases the program as given."""
    rows = [experimenting.Row.from_json(r) for r in (experiments or {}).get("rows") or ()]
    kind = f"{finding.oracle}/{finding.kind}/"
    dropped = [
        m.group(1)
        for r in rows
        if (m := _DROPPED.match(r.label))
        and (r.outcome.kind == "same" or (r.outcome.kind == "other" and r.outcome.cause.startswith(kind)))
    ]
    for node in dropped:
        returned = re.search(rf"^(\s*return\b[^\n]*?)%{node}\b([^\n]*)$", program, re.M)
        made = re.search(rf"^\s*%{node} = [^\n]*?\bins\((%[\w.]+)", program, re.M)
        if returned and made:
            return (
                program[: returned.start()]
                + returned.group(1)
                + made.group(1)
                + returned.group(2)
                + program[returned.end() :]
            )
    return program


def component(found: culprits.Culprit | None, rows: Sequence[experimenting.Row] = ()) -> str:
    """The title's tag: the phase of a localized culprit that runs before dispatches are code-generated (the bug
    does not depend on the backend: round H's transpose-propagation error fails with vmvx too); else both backends
    where the experiments found it wrong on vmvx too (``BACKEND_VMVX``: stop 46's cond, a host-side offset, had been
    tagged llvm-cpu), else the backend."""
    early = culprits.PHASES[: culprits.PHASES.index("executable-sources")]
    phase = found.phase if found is not None and found.pass_ else None
    if phase in early:
        return str(phase)
    both = any(r.label == experimenting.BACKEND_VMVX and r.outcome.kind == "same" for r in rows)
    return "llvm-cpu and vmvx" if both else "llvm-cpu"


# ops a value passes through unchanged in kind (its subject is what it reads)
_PASS_THROUGH = frozenset({"tensor.cast", "tensor.expand_shape", "tensor.collapse_shape", "tensor.reshape"})
_NOT_A_SUBJECT = frozenset({"arith.constant", "tensor.empty"})
_COMBINER = {
    **dict.fromkeys(("arith.addf", "arith.addi"), "sum"),
    **dict.fromkeys(("arith.mulf", "arith.muli"), "product"),
    **dict.fromkeys(("arith.maxnumf", "arith.maximumf", "arith.maxsi", "arith.maxui"), "max"),
    **dict.fromkeys(("arith.minnumf", "arith.minimumf", "arith.minsi", "arith.minui"), "min"),
    "arith.select": "arg-reduction",
}


def subject_phrase(
    program: str, function: str, output: int = 0, depth: int = 3, *, unneeded: Sequence[tuple[int, str]] = ()
) -> str:
    """What computes output ``output`` of ``@function`` in ``program``, in words, with what it reads (``of`` its
    first input's producer, up to ``depth`` ops): "a `linalg.generic` sum of a `linalg.fill`". Copies, casts and
    reshapes are looked through; a producer the experiments showed unneeded (``unneeded``: top-level op indices
    with the op's kind, ``producer_verdicts``) is not named. "" when the program does not parse or the output is an
    argument."""
    from iree.compiler import ir

    from ireefuzz.tools.shrink.canonical import parse

    module = parse(program)
    if module is None:
        return ""
    funcs = [op for op in module.body.operations if op.operation.name in ("func.func", "util.func")]
    named = [f for f in funcs if ir.StringAttr(f.attributes["sym_name"]).value == function] or funcs[-1:]
    if not named:
        return ""
    ret = list(named[0].regions[0].blocks[0].operations)[-1]
    if not len(ret.operands):
        return ""
    ops = list(named[0].regions[0].blocks[0].operations)
    skip = [ops[k].operation for k, kind in unneeded if k < len(ops) and ops[k].operation.name.endswith(f".{kind}")]
    return _phrase(ret.operands[min(output, len(ret.operands) - 1)], depth, skip)


def _producer(value: Any) -> Any:
    """The op that makes ``value``, through copies, casts and reshapes; None for a block argument."""
    from iree.compiler import ir

    while not isinstance(value, ir.BlockArgument):
        op = value.owner
        if op.name in _PASS_THROUGH or _is_copy(op):
            value = op.operands[0]
            continue
        return op
    return None


def _ins(op: Any) -> list[Any]:
    """A destination-style op's inputs (``operandSegmentSizes``' first group), else all its operands."""
    from iree.compiler import ir

    segments = op.attributes["operandSegmentSizes"] if "operandSegmentSizes" in op.attributes else None
    if segments is None:
        return list(op.operands)
    return list(op.operands)[: ir.DenseI32ArrayAttr(segments)[0]]


def _body_ops(op: Any) -> list[Any]:
    return [o for r in op.regions for b in r.blocks for o in b.operations]


def _is_copy(op: Any) -> bool:
    """A ``linalg.generic`` of one input that yields it unchanged through plain dims (a copy, a transpose, a
    broadcast; not a reversal or a shift, whose maps compute an index)."""
    if op.name != "linalg.generic" or len(_ins(op)) != 1 or _computed_map(op):
        return False
    body = _body_ops(op)
    return len(body) == 1 and len(body[0].operands) == 1 and body[0].operands[0] == op.regions[0].blocks[0].arguments[0]


def _computed_map(op: Any) -> str:
    """The first indexing map of ``op`` whose results compute an index (``(-d0 + 63, d1)``), else ""."""
    for m in re.findall(r"affine_map<\([^)]*\) -> (\([^>]*\))>", str(op.attributes["indexing_maps"])):
        if re.search(r"[-+*]|mod|floordiv|ceildiv", m):
            return str(m)
    return ""


_COUNTED = {2: "a two", 3: "a three", 4: "a four"}


def _result_index(value: Any, op: Any) -> int:
    """Which result of ``op`` ``value`` is, through copies, casts and reshapes (0 when it cannot tell)."""
    from iree.compiler import ir

    while not isinstance(value, ir.BlockArgument) and value.owner != op:
        value = value.owner.operands[0]
    return next((k for k, r in enumerate(op.results) if r == value), 0)


def _phrase(value: Any, depth: int, skip: Sequence[Any] = ()) -> str:
    from iree.compiler import ir

    op = _producer(value)
    if op is None or op.name in _NOT_A_SUBJECT or any(op == s for s in skip):
        return ""
    if op.name == "linalg.generic":
        body = _body_ops(op)
        reduces = "reduction" in str(op.attributes["iterator_types"])
        yielded = body[-1].operands[0] if body and len(body[-1].operands) else None
        combiner = "" if yielded is None or isinstance(yielded, ir.BlockArgument) else yielded.owner.name
        said = (
            f"a `linalg.generic` {_COMBINER.get(combiner, 'reduction')}"
            if reduces
            else "an elementwise `linalg.generic`"
        )
        functions = list(dict.fromkeys(o.name for o in body if o.name.startswith("math.") and o.name != "math.absf"))
        if functions and not reduces:  # the math functions it computes (round 41: asinh's expansion was the bug)
            said += " computing " + " and ".join(f"`{f}`" for f in functions[:2])
        if len(op.results) > 1:  # which of its results: round H's transpose bug needs a two-result generic
            counted = _COUNTED.get(len(op.results), "a multi")
            said = f"result {_result_index(value, op)} of {counted}-result " + said.removeprefix(
                "an elementwise "
            ).removeprefix("a ")
        if computed := _computed_map(op):
            said += f" indexed by `{computed}`"
        gathered = next((o.operands[0] for o in body if o.name == "tensor.extract"), None)
        if gathered is not None and not reduces:  # it reads a tensor it does not iterate: a gather from it
            source = _phrase(gathered, depth - 1, skip) if depth > 1 else ""
            source = source or ("an argument" if isinstance(gathered, ir.BlockArgument) else "")
            said = "a gather (`tensor.extract` in a `linalg.generic`)" + (f" from {source}" if source else "")
            return said
    elif op.name == "linalg.fill":
        said = "a `linalg.fill`"
    else:
        said = f"`{op.name}`"
    first = next((v for v in _ins(op) if _producer(v) is not None), None)
    read = _phrase(first, depth - 1, skip) if first is not None and depth > 1 else ""
    return f"{said} of {read}" if read else said


def conditions(
    program: str,
    experiments: Mapping[str, Any] | None,
    culprit_pass: str = "",
    *,
    function: str = "",
    subject: str = "",
) -> list[str]:
    """What the failure needs, as the experiments showed it (each variant that makes it go away, said the other way
    round: "dynamic dims", "`linalg.fill` writing into a function argument", "f16 elements"; ``subject``: the op the
    title is about), and what the reduced program keeps that no variant tried: dynamic dims (the reducer makes dims
    static where it still fails), the other functions of the module (it keeps only those the failure needs), a unit
    dim in the output where the culprit is a unit-dim pass."""
    rows = [experimenting.Row.from_json(r) for r in (experiments or {}).get("rows") or ()]
    degenerate = experimenting.degenerate_cures(rows)  # a static cure by a unit size is no dynamic dims' cure
    clean = [r.label for r in rows if r.outcome.kind == "clean" and r.label not in degenerate]
    same = {r.label for r in rows if r.outcome.kind == "same"} | degenerate  # its twin one size up fails the same
    needs: list[str] = []
    signature = _SIGNATURE.search(program)
    header = signature.group(0) if signature else ""
    if any(label.startswith("static") for label in clean) or ("?" in header and "static" not in same):
        needs.append("dynamic dims")
    for row in rows:
        if row.outcome.kind == "clean" and row.label.endswith(".outs=empty"):
            op = _OUTS_OF.search(row.change)
            named = op.group(1) if op else subject
            said = (
                "its input as its destination too"
                if named in _reads_its_destination(program)
                else "a function argument as its destination"
            )
            needs.append(f"`{named}` writing into a function argument" if op and named != subject else said)
    others = [f"`@{f}`" for f in _PUBLIC_FUNCTION.findall(program) if function and f != function]
    if others:  # the reducer keeps a function only where the failure needs it (split-functions)
        needs.append(f"{' and '.join(others)} in the same module")
    verdicts = producer_verdicts(experiments)
    if "body" in verdicts.values() or _reduction_ignoring_input(program):
        needs.append("a body that does not read its input")
    for (index, kind), verdict in sorted(verdicts.items()):
        reader = _constant_reader(program, rows, index) if verdict == "needed" and kind == "constant" else ""
        if reader:  # read from an argument holding the same values it is right: the constant is the trigger
            needs.append(f"a constant input to `{reader}`")
    if "f32" in clean:
        needs += [f"{t} elements" for t in ("f16", "bf16") if re.search(rf"x{t}>", program)][:1]
    if "dynamic" in clean:
        needs.append("static dims")
    if "unit" in culprit_pass and re.search(r"->\s*tensor<(?:[^>]*x)?1x", header):
        needs.append("a unit dim in its result")
    return needs


def _constant_reader(program: str, rows: Sequence[experimenting.Row], index: int) -> str:
    """The op that reads the ``arith.constant`` a producer experiment of top-level op ``index`` replaced (named in
    the experiment's change), or ""."""
    change = next((r.change for r in rows if r.label.startswith(f"constant#{index}.producer=")), "")
    name = re.search(r"`arith\.constant` (%[\w.]+)", change)
    if name is None:
        return ""
    use = re.search(rf"= ([\w.]+)\b[^\n]*\bins\([^:\n]*{re.escape(name.group(1))}\b", program)
    return use.group(1) if use else ""


_DPS_OP = re.compile(r"= ([\w.]+) ins\(([^:]*):[^\n]*?outs\(([^:]*):")


def _reads_its_destination(program: str) -> set[str]:
    """The ops of ``program`` that take a value as an input and as their destination both (the conv whose input is its
    outs: the review found 'a function argument as its destination' the wrong trigger, as another argument compiles)."""
    found = set()
    for m in _DPS_OP.finditer(program):
        ins = {v.strip() for v in m.group(2).split(",")}
        if ins & {v.strip() for v in m.group(3).split(",")}:
            found.add(m.group(1))
    return found


_REDUCTION_BODY = re.compile(
    r'linalg\.generic \{[^\n]*"reduction"[^\n]*ins\([^\n]*\{\n\s*\^bb0\((%\w+):[^\n]*\n(.*?)\n\s*linalg\.yield([^\n]*)',
    re.S,
)


def _reduction_ignoring_input(program: str) -> bool:
    """A reduction ``linalg.generic`` whose body never reads its (first) input: what the fill-sum reduces to, and what
    its title must say (the combiner folds to a constant per iteration)."""
    for m in _REDUCTION_BODY.finditer(program):
        if not re.search(rf"{re.escape(m.group(1))}\b", m.group(2) + m.group(3)):
            return True
    return False


_PRODUCER_ROW = re.compile(r"^([\w.]+)#(\d+)\.producer=(splat-argument|argument|body)$")
_PRODUCER_OP = re.compile(r"in place of the (`[^`]+` %[\w.$-]+)")


def producer_verdicts(experiments: Mapping[str, Any] | None) -> dict[tuple[int, str], str]:
    """What the producer experiments (``experiments.program_producer_experiments``) showed of each splat producer
    they tried, by its top-level op index and kind (``(2, "fill")``): "unneeded" (read from an argument it fails
    the same way), "body" (from an argument it is right, but with its value in the consumer's body over that
    argument it fails the same way: the failure needs a body that ignores its input, not the producer), "needed"
    (no variant of it failed)."""
    tried: dict[tuple[int, str], dict[str, str]] = collections.defaultdict(dict)
    for r in (experiments or {}).get("rows") or ():
        m = _PRODUCER_ROW.match(str(r.get("label", "")))
        if m:
            tried[int(m.group(2)), m.group(1)][m.group(3)] = experimenting.Outcome.parse(str(r.get("outcome", ""))).kind
    said = {}
    for k, kinds in tried.items():
        arguments = [kinds[v] for v in ("splat-argument", "argument") if v in kinds]
        if "same" in arguments:
            said[k] = "unneeded"
        elif kinds.get("body") == "same" and "clean" in arguments:
            said[k] = "body"
        elif arguments or "body" in kinds:
            said[k] = "needed"
    return said


def _producer_lines(found: Mapping[str, Any]) -> list[str]:
    """What the producer experiments say the trigger does not need, in sentences (none where the producer is
    needed: the clean variants say so already)."""
    names = {
        (int(m.group(2)), m.group(1)): op.group(1)
        for r in found.get("rows") or ()
        if (m := _PRODUCER_ROW.match(str(r.get("label", "")))) and (op := _PRODUCER_OP.search(str(r.get("change"))))
    }
    lines = []
    for k, said in sorted(producer_verdicts(found).items()):
        name = names.get(k, f"`{k[1]}` (op #{k[0]})")
        if said == "unneeded":
            lines.append(f"The {name} is not needed: with a function argument in its place it fails the same way.")
        elif said == "body":
            lines.append(
                f"The {name} is not needed as such: with its value read in its consumer's body in place of that "
                "input's element, the input a function argument, it fails the same way. What the failure needs is a "
                "consumer whose body does not read its input (a splat folded into the body gives that form)."
            )
    return lines


_OUTS_OF = re.compile(r"as the outs of `([^`]+)`")
_PUBLIC_FUNCTION = re.compile(r"^\s*func\.func\s+(?:public\s+)?@([\w$.]+)", re.M)
_SIGNATURE = re.compile(r"func\.func\s+(?:public\s+|private\s+)?@[\w$.]+\([^)]*\)(?:\s*->\s*[^{]*)?")


_SIGNAL = re.compile(r"crash/compile-crash/(SIG\w+)/([^/]*)")
# the IR's own accessors and LLVM's support code: where a bad value is read, not where it was made (round 41: a
# SIGSEGV "in `getKind`" of an AffineExpr that inferConvolutionDims's helper had left null)
_CORE_FRAME = re.compile(
    r"^(?:mlir\.(?:AffineExpr|AffineMap|Type|Value|Attribute|Operation|OpOperand|Block|Region|detail)\.|llvm\.)"
)
_DISPATCH = re.compile(r"\b\w+_dispatch_\d+\w*")
_LOCATION = re.compile(r"^[^\s:]+:\d+:\d+: (?:error: )?")


def happened(finding: Finding) -> str:
    """What IREE did, in a few words: a crash's signal and the function it died in, an error's gist, the memory op,
    the wrong value (dispatch names, locations and paths left out)."""
    reproduce = spec_of(finding.oracle).reproduce(finding.kind)
    ev = finding.evidence or {}
    crash = _SIGNAL.match(str(finding.cause or ""))
    if crash:
        frames = [f for f in crash.group(2).split(">") if f and f != "-"]
        own = next((i for i, f in enumerate(frames) if not _CORE_FRAME.match(f)), 0)
        named = [f.rsplit(".", 1)[-1] for f in frames[own : own + 2]]
        where = f" in `{named[0]}`" + (f" (from `{named[1]}`)" if own and len(named) > 1 else "") if named else ""
        return f"iree-compile dies of {crash.group(1)}{where}"
    if reproduce == "compile-error":
        error = diagnostics.own_words(next(iter((own_diagnostic(finding) or finding.message).splitlines()), ""))
        return words(_LOCATION.sub("", _DISPATCH.sub("its dispatch", error)), 90)
    if reproduce == "memory-ops":
        counted = [m for m in ev.get("memory_ops") or () if isinstance(m, Mapping)]
        first = counted[0] if counted else {}
        op = str(first.get("op") or finding.kind)
        of = f" `{first.get('type')}`" if first.get("type") else ""
        more = f" (and {len(counted) - 1} more)" if len(counted) > 1 else ""
        return f"`{op}`{of}{more} left in its dispatch"
    if reproduce == "outputs" and "iree" in ev:
        want = ev.get("reference", ev.get("expected"))
        return (
            words(f"returns {ev['iree']} where {want} is expected", 90) if want is not None else "returns wrong values"
        )
    if reproduce == "inputs-after":
        return f"writes its input argument {ev.get('argument', '?')}"
    return words(
        _DISPATCH.sub("its dispatch", finding.message.splitlines()[0] if finding.message else finding.kind), 90
    )


def _values(expected: Mapping[str, np.ndarray], prefix: str, limit: int = 12) -> list[str]:
    """The reference outputs (``<prefix>_<k>``) with their shape, dtype and first values."""
    out = []
    for key in sorted(k for k in expected if k.startswith(prefix + "_")):
        x = np.asarray(expected[key])
        flat = x.reshape(-1)
        shown = " ".join(str(v) for v in flat[:limit]) + (" ..." if flat.size > limit else "")
        out.append(
            f"- output {key.removeprefix(prefix + '_')}: `{'x'.join(map(str, x.shape)) or 'scalar'} {x.dtype}` "
            f"= [{shown}]"
        )
    return out


def expected_lines(finding: Finding, subject: Subject) -> list[str]:
    """What was expected, in words (the correct behaviour, and at the wrong spot its value) and values."""
    ev = finding.evidence or {}
    reproduce = spec_of(finding.oracle).reproduce(finding.kind)
    f = f"`@{subject.function}`"
    if reproduce == "outputs":
        where = f" at index {ev.get('index')}" if "index" in ev else ""
        want = ev.get("reference", ev.get("expected"))
        said = (
            f"{f} returns, for output {ev.get('output', 0)}{where}, {want} ({subject.reference}); IREE returns "
            f"{ev.get('iree')}."
            if want is not None and "iree" in ev
            else f"{f} returns the reference's values ({subject.reference})."
        )
        lines = [said + " Every output must equal the reference within the dtype's tolerance (integers exactly)."]
    elif reproduce == "compile-error" and finding.kind == "compile-crash":
        lines = [
            "`iree-compile` compiles the program (exit status 0) where it "
            f"{happened(finding).removeprefix('iree-compile ')}; then {f} returns the values below."
        ]
    elif reproduce == "compile-error":
        error = words(own_diagnostic(finding) or finding.message, 160)
        lines = [
            f"`iree-compile` compiles the program (exit status 0), without `{error}`; then {f} returns the values "
            "below."
        ]
    elif reproduce == "memory-ops":
        lines = [
            f"The dispatch holds no `{finding.kind}` beyond the scratch its ops' semantics require: its buffers are "
            "the "
            f"dispatch's bindings. {f} returns the values below."
        ]
    elif reproduce == "inputs-after":
        i = ev.get("argument", "?")
        lines = [
            f"After the call, argument {i} holds the values it held before (first changed at index "
            f"{ev.get('first_index')}: `{ev.get('before')}` before, `{ev.get('after')}` after): inputs are read-only."
        ]
    elif reproduce == "run-fault":
        lines = [f"`iree-run-module` runs {f} (exit status 0) and returns the values below."]
    else:
        lines = [spec_of(finding.oracle).expected]
    values = _values(subject.expected, subject.compared)
    if values:
        lines += ["", f"The reference values ({subject.reference}; `expected/`):", "", *values]
    return lines


def trigger_lines(found: Mapping[str, Any] | None) -> list[str]:
    """The trigger as the experiments measured it: the changes that make the failure go away, in sentences; the
    changes that still fail the same way (when all do, the reduced program as a whole is the trigger); the ones that
    fail another way."""
    if found is None:
        return []
    verdict = experimenting.Verdict.from_json(found.get("verdict") or {})
    rows = [experimenting.Row.from_json(r) for r in found.get("rows") or () if r.get("label") != experimenting.AS_GIVEN]
    still = [r.change for r in rows if r.outcome.kind == "same"]
    lines = ["## Trigger", "", *verdict.trigger]
    if producers := _producer_lines(found):
        lines += ["", *producers] if verdict.trigger else [*producers, ""]
    if still and verdict.trigger:
        lines += ["", "It still fails the same way:", "", *(f"- with {c}" for c in still)]
    elif still:
        lines += [
            f"Each of the {len(still)} variants tried still fails the same way, so the trigger is the reduced program "
            "above as a whole (no smaller change was found that removes it):",
            "",
            *(f"- with {c}" for c in still),
        ]
    elif not verdict.trigger:
        lines += ["No variant could be judged (see Experiments): the trigger is the reduced program as a whole."]
    lines += [f"With {r.change}, it fails another way (`{r.outcome.cause}`)." for r in rows if r.outcome.cause]
    return lines + [""]


def culprit_lines(found: culprits.Culprit) -> list[str]:
    """The culprit pass, how it was found, the one-pass run that confirms it and what that run shows (the lines of
    its output that are wrong), the IR before and after it; or why it is not localized."""
    lines = ["## Culprit", ""]
    if not found.pass_:
        return lines + [
            f"Not localized to a pass: {found.how.removeprefix('not localized: ')}."
            + (f" Phase: `{found.phase}`." if found.phase else ""),
            "",
        ]
    lines += [f"Phase `{found.phase or '?'}`, pass **`{found.pass_}`**: {found.how}.", ""]
    if found.confirm is not None:
        lines += [
            "Confirmed by running the pass alone on the IR it received:",
            "",
            "```sh",
            found.confirm.command,
            "```",
            "",
            "which shows:",
            "",
            "```",
            *excerpt("\n".join((*found.confirm.shows, *found.confirm.context)), limit=16),
            "```",
            "",
        ]
    if found.ir_before:
        lines += ["IR the pass received (`culprit_before.mlir`):", "", "```mlir", *excerpt(found.ir_before), "```", ""]
    if found.ir_after:
        lines += ["IR after it (`culprit_after.mlir`):", "", "```mlir", *excerpt(found.ir_after), "```", ""]
    return lines


def confirmation_lines(measured: Measured) -> list[str]:
    exits, check = list(measured.exits), measured.inputs_check
    inputs = ""
    if check:
        if check.get("nan_inputs"):
            inputs = f" Inputs {check.get('nan_inputs')} hold NaN."
        else:
            inputs = " The inputs hold no NaN" + (
                " and the float64 reference interpreter, which stops at undefined behaviour such as an out-of-bounds "
                "index, ran on them."
                if check.get("reference_ran")
                else "."
            )
    ops = (
        f" The program has {len(measured.ops)} op(s): {', '.join(f'`{o}`' for o in measured.ops) or 'none'}."
        if measured.ops
        else ""
    )
    return [
        "## Confirmation",
        "",
        f"`run.sh` in a clean environment: exit statuses {exits} ({exits.count(1)}/{len(exits)} show the bug)."
        + ops
        + inputs,
        "",
    ]


def excerpt(text: str, limit: int = 60, width: int = 240) -> list[str]:
    """The first ``limit`` lines of ``text``, each cut at ``width`` characters (target attributes run to kilobytes)."""
    lines = [line if len(line) <= width else line[:width] + " ...(cut)" for line in text.strip().splitlines()]
    return lines[:limit] + (
        [f"// ... ({len(lines) - limit} more lines in the bundle's file)"] if len(lines) > limit else []
    )


def reference_agreement(expected: Mapping[str, np.ndarray]) -> str:
    """What the reference is, as measured: JAX on CPU, and whether the float64 evaluation agrees with it."""
    keys = sorted(k[4:] for k in expected if k.startswith("jax_"))
    if not keys:
        return "the float64 reference interpreter"
    agree = all(
        f"f64_{k}" in expected
        and np.allclose(
            np.asarray(expected[f"jax_{k}"], dtype=np.float64),
            np.asarray(expected[f"f64_{k}"], dtype=np.float64),
            rtol=1e-2,
            atol=1e-2,
            equal_nan=True,
        )
        for k in keys
    )
    return (
        "JAX on CPU; a float64 NumPy evaluation agrees with it to 1e-2"
        if agree
        else "JAX on CPU; the float64 NumPy evaluation differs from JAX too, see expected.npz"
    )


# --------------------------------------------------------------------------- evidence

# Ops whose appearance in the IR marks each memory finding kind (the evidence's excerpt).
MEMORY_MARKERS = {
    "alloca": "memref.alloca",
    "alloca-dynamic": "memref.alloca(%",
    "alloca-in-loop": "memref.alloca",
    "alloc": "memref.alloc(",
    "copy": "memref.copy",
}


def evidence_lines(finding: Finding, ev: Mapping[str, Any], artifact: Any) -> list[str]:
    """ISSUE.md's evidence: the memory ops the oracle counted (with the dispatch's IR when compiled here), the
    changed argument, the diagnostic, the wrong element, or the finding's evidence as JSON."""
    out = ["## Evidence", ""]
    reproduce = spec_of(finding.oracle).reproduce(finding.kind)
    if reproduce == "memory-ops":
        marker = MEMORY_MARKERS.get(finding.kind, "memref.alloca")
        ir_of = lambda d: d.final_ir if finding.kind != "copy" else d.bufferized_ir
        suffix = str(ev.get("dispatch", "")).partition("_dispatch_")[2]  # the finding may name another function
        holds = culprits.memory_holds(finding.kind)  # as the oracle counts it: a copy-shaped generic is a copy too
        candidates = [d for d in getattr(artifact, "dispatches", ()) if marker in ir_of(d) or holds(ir_of(d))]
        dispatch = next((d for d in candidates if d.name.endswith(suffix)), candidates[0] if candidates else None)
        text = ir_of(dispatch) if dispatch else ""
        name = dispatch.name if dispatch else ev.get("dispatch")
        counted = [m for m in ev.get("memory_ops") or () if isinstance(m, Mapping)]
        markers = [str(m.get("excerpt") or "").strip()[:60] for m in counted if m.get("excerpt")] or [marker]
        out += [
            f"Dispatch `{name}`, pipeline `{ev.get('pipeline')}`, IR {ev.get('seen_at', '')}; the memory oracle "
            f"counted {len(counted) or '?'} op(s):",
            "",
        ]
        out += [
            f"- `{m.get('op')}` `{m.get('type')}`{' in a loop' if m.get('in_loop') else ''}: `{m.get('excerpt')}`"
            for m in counted
        ]
        if ev.get("required_scratch"):
            out += [
                "",
                "Scratch the ops' semantics require, admitted by the oracle and not counted: "
                + "; ".join(
                    f"`{a.get('type')}` for {a.get('for')}" for a in ev["required_scratch"] if isinstance(a, Mapping)
                ),
            ]
        excerpt = next((_ir_excerpt(text, k) for k in markers if k and k in text), None) if text else None
        shown = (excerpt or _ir_excerpt(text, marker)) if text else [_as_json(ev)]
        out += ["", "```mlir", *shown, "```", ""]
    elif reproduce == "inputs-after":
        out += [
            f"Argument {ev.get('argument')}: {ev.get('changed_elements')} elements changed; first at index "
            f"{ev.get('first_index')}: `{ev.get('before')}` before the call, `{ev.get('after')}` after.",
            "",
        ]
    elif reproduce in ("compile-error", "run-fault"):
        diagnostic = str(ev.get("diagnostic") or ev.get("message") or finding.message)
        out += ["```", diagnostic[:3000], "```", ""]
        if site := crash_site(diagnostic):
            out += [site, ""]
    elif {"iree", "reference", "index"} <= ev.keys():
        out += [*wrong_element_lines(ev), ""]
    else:
        out += ["```json", _as_json(ev), "```", ""]
    return out


def wrong_element_lines(ev: Mapping[str, Any]) -> list[str]:
    """A wrong value's evidence as a maintainer reads it: the element, both values, what the comparison allows, how
    many elements differ; the rest (the cone, the platform) is in ``finding.json``, not pasted here as JSON."""
    where = f"`@{ev.get('function', 'main')}` output {ev.get('output', 0)} at {list(ev['index'])}"
    exact = ev.get("float64")
    reference = f"`{ev['reference']}`" + (
        f" (float64 `{exact}`, rounded to the output's dtype)" if exact not in (None, ev["reference"]) else ""
    )
    allowed = (
        f"|IREE - reference| <= `{ev['tolerance']:.3g}` (rtol `{ev.get('rtol', 0):.3g}`)"
        if isinstance(ev.get("tolerance"), (int, float))
        else "equality"
    )
    return [
        f"- {where}: IREE `{ev['iree']}`, reference {reference}.",
        f"- The comparison allows {allowed} there; {ev.get('mismatches', '?')} of {ev.get('elements', '?')} "
        "elements are outside it.",
        "- The whole finding (the op cone, the platform) is in `finding.json`.",
    ]


_STACK_FRAME = re.compile(
    r"^\s*#\d+\s+0x[0-9a-fA-F]+\s+(.*?)(?:\s+([\w.+-]+\.(?:cpp|cc|h|inc)):\d+(?::\d+)?)?\s*$", re.M
)


def crash_site(diagnostic: str) -> str:
    """Whose code a crash died in, in a sentence: the first frame of the stack outside the IR's own accessors and
    LLVM's support code, upstream MLIR's or IREE's by the first namespaced frame from there, and the IREE frame that
    called it (round 41: the SIGSEGV was MLIR's ``linalg::inferConvolutionDims``, reached from IREE's dispatch
    naming; the fix belongs upstream). "" without a symbolized stack."""
    from ireefuzz.oracles.diagnostics import frame_name

    frames = []
    for m in _STACK_FRAME.finditer(diagnostic):
        name = re.sub(r"\[abi:\w+\]", "", frame_name(m.group(1)))
        if name and not name.startswith(("llvm::sys::", "SignalHandler")) and "(" not in name:
            frames.append((name, m.group(2) or ""))
    own = next((i for i, (n, _) in enumerate(frames) if not _CORE_FRAME.match(n.replace("::", "."))), None)
    if own is None:
        return ""
    spelled = lambda i: f"`{frames[i][0]}`" + (f" (`{frames[i][1]}`)" if frames[i][1] else "")
    owner = next((n for n, _ in frames[own:] if "::" in n), "")
    if owner.startswith("mlir::iree_compiler::"):
        return f"The crash is in IREE's code: {spelled(own)}."
    if not owner.startswith(("mlir::", "llvm::")):
        return ""
    caller = next((i for i in range(own, len(frames)) if frames[i][0].startswith("mlir::iree_compiler::")), None)
    named = " < ".join(spelled(i) for i in range(own, min(own + 2, caller if caller is not None else own + 2)))
    called = f", called from IREE's {spelled(caller)}" if caller is not None else ""
    project = "MLIR" if owner.startswith("mlir::") else "LLVM"
    return f"The crash is in upstream {project} code: {named}{called}; its fix may belong in llvm/llvm-project."


def _as_json(ev: Mapping[str, Any]) -> str:
    return json.dumps(dict(ev), indent=1, sort_keys=True, default=json_default)[:3000]


def _ir_excerpt(text: str, marker: str, limit: int = 40) -> list[str]:
    lines = text.splitlines()
    hits = [i for i, ln in enumerate(lines) if marker in ln]
    names = {m.group(1) for i in hits if (m := re.match(r"\s*(%[\w.]+) = ", lines[i]))}
    uses = [
        i for i, ln in enumerate(lines) if i not in hits and any(re.search(re.escape(n) + r"\b", ln) for n in names)
    ]
    hits = hits[:3] + uses[:4]
    if not hits:
        return lines[:limit]
    keep: dict[int, None] = {}
    head = next((i for i, ln in enumerate(lines) if "func.func" in ln), 0)
    keep[head] = None
    for i in hits:
        keep.update(dict.fromkeys(range(max(0, i - 1), min(len(lines), i + 2))))
    out, last = [], None
    for i in sorted(keep):
        if last is not None and i != last + 1:
            out.append("  ...")
        out.append(lines[i][:200])
        last = i
    return out[:limit]


# --------------------------------------------------------------------------- a raw program's subject


def program_subject(finding: Finding, case: ProgramCase, config: sut.CompilerConfig | None = None) -> Subject:
    """The subject of ``finding`` on a raw program's function (``frontends.ProgramCase``): its inputs and the float64
    interpreter's outputs as the reference; a compile-only case has neither. No recompile: the platform is the
    finding's."""
    from ireefuzz.core import frontends

    ran = case.args is not None  # else compile only: no inputs, no reference
    inputs = case.inputs(0) if ran else []
    reference = frontends.reference_outputs(case.program, case.function, inputs) if ran else None
    outputs = None if isinstance(reference, frontends.NotJudged) else getattr(reference, "outputs", None)
    words = "the float64 reference interpreter (`ireefuzz.oracles.interpret`)"
    return raw_subject(finding, case, config, inputs, outputs, words)


def raw_subject(
    finding: Finding,
    case: Any,
    config: sut.CompilerConfig | None,
    inputs: Sequence[np.ndarray],
    outputs: Sequence[np.ndarray] | None,
    reference: str,
    *,
    record: Mapping[str, Any] | None = None,
    case_json: Mapping[str, Any] | None = None,
    sizes: Mapping[str, int] | None = None,
    sections: Sequence[str] = (),
    flags: Sequence[str] = (),
) -> Subject:
    """The subject of a program handed over as text (a raw program, a JAX export; anything with ``program``,
    ``function``, ``signature`` and ``target_cpu``): ``outputs`` are the reference's (float64), kept as ``f64_<k>``
    and at the output dtypes as ``ref_<k>``, which run.sh compares with. A compile-only finding is bundled for the
    CPU the finding's platform resolved, a run for the CPU the case asked for (its code must run here)."""
    from ireefuzz.core import frontends

    config = config if config is not None else sut.CompilerConfig()
    base_flags = tuple(dict.fromkeys((*sut.config_for(case, config).flags, *flags)))
    results = case.signature.results
    expected: dict[str, np.ndarray] = {}
    for k, (y, (_, dtype)) in enumerate(zip(outputs or (), results)):
        expected[f"f64_{k}"] = np.asarray(y)
        expected[f"ref_{k}"] = np.asarray(y).astype(frontends.numpy_dtype(dtype) or np.float64)
    platform = dict(finding.evidence.get("platform") or {})
    judged = spec_of(finding.oracle)
    compile_only = judged.reproduce(finding.kind) in COMPILE_ONLY_BODIES
    cpu = (platform.get("cpu") if compile_only else case.target_cpu) or case.target_cpu
    ev = finding.evidence
    dtypes = {dtype for _, dtype in results if dtype in ("f16", "bf16", "f32", "f64")}
    declared = lambda values: tuple(TensorType(tuple(shape), dtype) for shape, dtype in values)
    return Subject(
        program=case.program,
        function=case.function,
        args=declared(case.signature.args),
        outputs=declared(results),
        inputs=list(inputs),
        expected=expected,
        reference=reference,
        flags=tuple(sut.target_flags(cpu, base_flags)),
        platform=Platform(str(platform.get("compiler_version", "")), cpu, case.target_cpu),
        rtol=float(ev.get("rtol") or 0.0),
        atol={d: float(ev.get("tolerance") or 0.0) for d in dtypes} if judged.blames == "iree" else {},
        error_message=compile_error(finding, case.program) or str(ev.get("message") or finding.message),
        case=case_json,
        record=dict(record or {}),
        sizes=dict(sizes or {}),
        sections=tuple(sections),
    )


def compile_error(finding: Finding, program: str) -> str:
    """A compile error's own message, located in the program (what run.sh looks for in iree-compile's output)."""
    if spec_of(finding.oracle).reproduce(finding.kind) != "compile-error":
        return ""
    from ireefuzz.oracles.crash import locate

    return str(locate(program, str(finding.evidence.get("diagnostic", "")))[3])


__all__ = [
    "MEMORY_MARKERS",
    "Measured",
    "Platform",
    "Subject",
    "evidence_lines",
    "expected_lines",
    "happened",
    "inputs_after_for",
    "issue_text",
    "make_bundle",
    "program_subject",
    "raw_subject",
    "reference_agreement",
    "title",
    "trigger_lines",
    "compile_error",
]
