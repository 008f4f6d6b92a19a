"""The lit tests a bundle ships, checked like code: each fails with the bug present, for the bug's reason.

Two tests, in the forms IREE's own test directories use:

- ``pass_test.mlir``: the culprit pass alone (``iree-opt --pass-pipeline=... %s | FileCheck %s``) on the IR it
  received, cut to what ``iree-opt`` parses alone with its target intact. Its checks state the correct behaviour,
  by how the culprit was found (``Culprit.method``): the output holds no defect (``CHECK-NOT`` on the lines the
  culprit's confirmation shows: the ``memref.alloca`` a pass made, the ``arith.maxnumf`` on f16 it left for a libcall),
  the pass succeeds and its output verifies (``CHECK-NOT: error:``), the pass does not crash. A wrong value is no
  FileCheck pattern: that bug's test is the next one.
- ``run_module_test.mlir``: ``iree-compile`` then ``iree-run-module --expected_output`` with the float64
  reference's values (at run.sh's tolerance): the values a correct compiler computes.

``run`` runs a test lit style with the stock tools: ``%s`` / ``%S`` / ``%t`` substituted, each RUN line's pipeline
stage by stage (lit's pipefail: a line fails when any stage does), FileCheck being LLVM's when on PATH, else the
``filecheck`` package (a Python clone). ``judge`` applies the shipping rules, in order:

1. the test states a behaviour: a FileCheck that checks only labels states none (``checks-only-a-label``);
2. it is well-formed: ``iree-opt`` parses it alone (``unparseable``), and a dispatch's IR carries its executable
   target (``no-target``);
3. it fails with the bug present (else ``passes-with-the-bug``);
4. for the bug's reason (else ``fails-for-another-reason``): the first stage that fails is FileCheck on one of the
   test's own checks (not a label, not an empty input), or a tool showing this bug's ``Symptom``: its diagnostic
   (the same error, names and numbers aside, as the cause's ``gist``), its crash signal, or a mismatch against the
   expected values.

Only a ``shipped`` test is written into the bundle; every verdict goes into ``finding.json`` (``lit_tests``) and
ISSUE.md says why a test is missing.
"""

from __future__ import annotations

import dataclasses
import re
import shlex
import shutil
import sys
import tempfile
from pathlib import Path
from typing import Any, Callable, Literal, Mapping, Sequence

import numpy as np

from ireefuzz import sut
from ireefuzz.base.durable import atomic_write_text
from ireefuzz.oracles import numeric, vocabulary
from ireefuzz.oracles.crash import gist
from ireefuzz.oracles.diagnostics import signal_name
from ireefuzz.oracles.registry import spec_of
from ireefuzz.oracles.vocabulary import ALLOC_OPS, BINDING_OP
from ireefuzz.tools.filing import upstream_mlir
from ireefuzz.tools.filing.bundle import UPSTREAM_TEST
from ireefuzz.tools.filing.culprit import Culprit
from ireefuzz.tools.filing.culprit.compile_errors import VERIFIER_FAILS, errors

PASS_TEST, RUN_TEST = "pass_test.mlir", "run_module_test.mlir"
# mlir-opt: an upstream test's tool (llvm-project's reader has it); run here as iree-opt, which registers the same
# upstream passes and transform ops at IREE's LLVM
TOOLS = ("iree-opt", "iree-compile", "iree-run-module", "mlir-opt")
KINDS = {PASS_TEST: "pass test", RUN_TEST: "run-module test", UPSTREAM_TEST: "upstream MLIR test"}
FILECHECK = ("FileCheck", "filecheck")
TARGET_ATTRIBUTE = vocabulary.EXECUTABLE_TARGET
_EXECUTABLE_NESTING = "builtin.module(hal.executable("  # a pipeline that reaches the dispatch through its executable

Outcome = Literal[
    "shipped",
    "not-made",  # no test of this kind for this bug (why says why)
    "malformed",
    "checks-only-a-label",
    "unparseable",
    "no-target",
    "passes-with-the-bug",
    "fails-for-another-reason",
]
Tool = Callable[[Sequence[str]], "tuple[int | None, str, str]"]  # argv (a tool's name first) -> (status, out, err)

_RUN = re.compile(r"^\s*//\s*RUN:\s?(.*)$", re.M)
_DIRECTIVE = re.compile(r"^\s*//\s*([A-Z][A-Z0-9_]*?)(-NOT|-NEXT|-SAME|-DAG|-LABEL|-EMPTY|-COUNT-\d+)?:\s?(.*)$")
_FILECHECK_ERROR = re.compile(r"^(?P<file>[^\n]*?):(?P<line>\d+)(?::\d+)?: error: (?P<directive>[A-Z][\w-]*): ", re.M)
_IR_LINE = re.compile(r"^\s*(?:%[\w.#:, %]+ = )?\"?([a-z_]\w*\.[\w.]+)\b")
_MISMATCH = re.compile(r"^\[FAILED\] .*$", re.M)


# --------------------------------------------------------------------------- the values


@dataclasses.dataclass(frozen=True)
class LitTest:
    name: str  # the file name in the bundle
    text: str
    purpose: str = ""  # what it checks, in words (ISSUE.md)

    @property
    def run_lines(self) -> list[str]:
        """The RUN lines, continuations (a trailing ``\\``) joined."""
        joined, lines = "", []
        for m in _RUN.finditer(self.text):
            part = m.group(1).rstrip()
            if part.endswith("\\"):
                joined += part[:-1] + " "
                continue
            lines.append((joined + part).strip())
            joined = ""
        return lines

    def directives(self, prefixes: Sequence[str] = ("CHECK",)) -> list[tuple[int, str, str]]:
        """(line number, directive, pattern) of each FileCheck directive of ``prefixes``."""
        found = []
        for n, line in enumerate(self.text.splitlines(), 1):
            m = _DIRECTIVE.match(line)
            if m and m.group(1) in prefixes:
                found.append((n, m.group(1) + (m.group(2) or ""), m.group(3).strip()))
        return found


@dataclasses.dataclass(frozen=True)
class Symptom:
    """What the bug shows a test run: a compile error (its gist), a crash (its signal), wrong values; a bug that
    shows in the IR only (a memory op) shows through the test's FileCheck checks alone."""

    diagnostic: str = ""  # gist of the compile error's message
    signal: int | None = None
    values: bool = False
    bug: str = ""  # the finding's oracle / kind, to name it

    @classmethod
    def of_finding(cls, finding: Mapping[str, Any]) -> "Symptom":
        """From a finding (``Finding.to_json()`` or a bundle's ``finding.json``)."""
        oracle, kind = str(finding.get("oracle")), str(finding.get("kind") or "")
        evidence, bug = finding.get("evidence") or {}, f"{oracle}/{kind}"
        reproduce = spec_of(oracle).reproduce(kind)
        if reproduce == "compile-error" and kind == "compile-crash":
            code = re.fullmatch(r"-(\d+)", str(evidence.get("returncode", "")).strip())
            # the culprit alone may not crash but leave the invalid IR the compile dies on: that error is the bug's too
            shows = ((finding.get("culprit") or {}).get("confirm") or {}).get("shows") or ()
            invalid = next((str(x).split(VERIFIER_FAILS, 1)[1] for x in shows if VERIFIER_FAILS in str(x)), "")
            return cls(
                diagnostic=gist(invalid, words=12) if invalid else "",
                signal=int(code.group(1)) if code else None,
                bug=bug,
            )
        if reproduce == "compile-error" and kind == "compile-error":
            messages = errors(str(evidence.get("diagnostic") or ""))
            message = messages[0] if messages else str(finding.get("message") or "").split(": ", 1)[-1]
            return cls(diagnostic=gist(message, words=12), bug=bug)
        return cls(values=reproduce == "outputs", bug=bug)

    def shown_by(self, stage: "StageRun") -> str | None:
        """The line of a failed tool stage that shows this bug, or None."""
        if self.signal is not None and stage.code == -self.signal:
            return f"{stage.tool} killed by {signal_name(self.signal)}"
        if self.diagnostic:
            for message in errors(stage.err):
                if gist(message, words=12) == self.diagnostic:
                    return f"{stage.tool}: error: {message[:200]}"
        if self.values and stage.tool == "iree-run-module":
            m = _MISMATCH.search(stage.out + "\n" + stage.err)
            if m:
                return f"iree-run-module: {m.group(0)[:240]}"
        return None

    def describe(self) -> str:
        if self.signal is not None:
            return f"a crash ({signal_name(self.signal)})"
        if self.diagnostic:
            return f"the error '{self.diagnostic}'"
        return "wrong values" if self.values else f"{self.bug or 'the bug'}, seen only through the test's own checks"


@dataclasses.dataclass(frozen=True)
class StageRun:
    """One command of a RUN line's pipeline, as run."""

    tool: str
    argv: tuple[str, ...]
    code: int | None  # None: timed out
    out: str
    err: str
    negated: bool = False  # lit's ``not``

    @property
    def failed(self) -> bool:
        return (self.code == 0) == self.negated or self.code is None

    def to_json(self) -> dict[str, Any]:
        return {"tool": self.tool, "exit": self.code}


@dataclasses.dataclass(frozen=True)
class LitRun:
    lines: tuple[tuple[StageRun, ...], ...]  # the RUN lines run, up to the first that failed
    error: str = ""  # why it could not run (malformed RUN line)

    @property
    def passed(self) -> bool:
        return not self.error and not any(s.failed for line in self.lines for s in line)

    @property
    def first_failure(self) -> StageRun | None:
        return next((s for line in self.lines for s in line if s.failed), None)


@dataclasses.dataclass(frozen=True)
class Verdict:
    test: str
    outcome: Outcome
    why: str
    commands: tuple[str, ...] = ()
    stages: tuple[tuple[StageRun, ...], ...] = ()
    purpose: str = ""

    @property
    def shipped(self) -> bool:
        return self.outcome == "shipped"

    def to_json(self) -> dict[str, Any]:
        return {
            "test": self.test,
            "outcome": self.outcome,
            "shipped": self.shipped,
            "why": self.why,
            "commands": list(self.commands),
            "stages": [[s.to_json() for s in line] for line in self.stages],
        }

    def line(self) -> str:
        if self.shipped:
            return f"`{self.test}`: {self.purpose} With the bug present it fails: {self.why}."
        kind = KINDS.get(self.test, self.test)
        if self.outcome == "not-made" or not self.purpose:
            return f"No {kind}: {self.why}."
        return f"No {kind}: the one written ({self.purpose.rstrip('.')}) is not shipped, {self.outcome}: {self.why}."


# --------------------------------------------------------------------------- writing the tests


def pass_tests(culprit: Culprit, finding: Mapping[str, Any] | None = None) -> list[LitTest] | str:
    """The culprit pass alone on the IR it received, checking the correct behaviour (the IR cut to its executables
    first, then as received); or why there is none. A memory finding's check is its own op (``memory_ops``: the
    ``memref.alloca`` the oracle counts), whatever precursor the confirmation shows."""
    if not culprit.localized or culprit.confirm is None:
        return "the culprit is not localized, so no pass is named to test"
    if not culprit.ir_before.strip():
        return f"no IR that {culprit.pass_} received was recorded"
    redirect, checks, purpose = "", [], ""
    if culprit.method == "wrong-value":
        patterns = wrong_value_patterns(culprit.confirm.shows, culprit.ir_before)
        if not patterns:
            return (
                f"{culprit.pass_}'s defect shows as a value (the float64 interpreter on its output); ireefuzz writes "
                "a pass test only from lines it can state the defect by (a constant its input does not hold), and "
                f"found none here, though an engineer may (see culprit_after.mlir); {RUN_TEST} checks the values"
            )
        checks = [f"CHECK-NOT: {p}" for p in patterns]
        purpose = (
            f"`{culprit.pass_}` alone on the IR it received should compute the values its input does, not from "
            f"{' / '.join(p.replace('{{.*}}', '...') for p in patterns)} (which its input does not hold: a folded "
            "constant, or a read past a dim's end that gives poison)."
        )
    elif culprit.method == "crash" and any(VERIFIER_FAILS in x for x in culprit.confirm.shows):
        redirect, checks = " 2>&1", ["CHECK-NOT: Stack dump:", "CHECK-NOT: error:"]
        purpose = (
            f"`{culprit.pass_}` alone on the IR it received should not crash and its output should verify (alone it "
            "does not crash: its output fails the verifier, the invalid IR the full compile dies on)."
        )
    elif culprit.method == "crash":
        redirect, checks = " 2>&1", ["CHECK-NOT: Stack dump:"]
        purpose = f"`{culprit.pass_}` alone on the IR it received should not crash."
    elif culprit.method == "aliasing":  # after an op writes an operand in place, nothing in its scope reads it
        checks = [
            "CHECK: = stream.async.{{.*}} -> [[WRITTEN:%[^{]+]]{",
            "CHECK-NOT: [[WRITTEN]]{{[ ,)]}}",
            "CHECK: util.return",
        ]
        purpose = (
            f"`{culprit.pass_}` alone on the IR it received should leave no later use of an operand written in place "
            "(a result tied to it, `-> %x`)."
        )
    elif culprit.method in ("invalid-ir", ""):
        redirect, checks = " 2>&1", ["CHECK-NOT: error:"]
        purpose = f"`{culprit.pass_}` alone on the IR it received should succeed, and its output verify."
    else:  # memory, checker, libcall: the defect is lines of the pass's output
        patterns = defect_patterns(_defect_lines(culprit, finding or {}), culprit.ir_before)
        checks = [f"CHECK-NOT: {p}" for p in patterns]
        if not checks:
            return f"the confirmation of {culprit.pass_} shows no IR line to check"
        said = " / ".join(p.replace("{{.*}}", " ... ") for p in patterns)
        purpose = f"`{culprit.pass_}` alone on the IR it received should not produce {said}."
    extra = "".join(f" {shlex.quote(e)}" for e in culprit.confirm.extra)
    head = [
        f"// RUN: iree-opt --pass-pipeline='{culprit.confirm.pipeline}'{extra} %s{redirect} | FileCheck %s",
        f"// {purpose.replace('`', '')}",
        *(f"// {c}" for c in checks),
    ]
    bodies = dict.fromkeys([self_contained(culprit.ir_before, culprit.confirm.pipeline), culprit.ir_before])
    return [LitTest(PASS_TEST, "\n".join(head) + "\n\n" + body.rstrip() + "\n", purpose) for body in bodies]


def upstream_test(culprit: Culprit) -> LitTest | str:
    """The culprit's defect with upstream MLIR alone: the IR it received cut to upstream dialects
    (``upstream_mlir.twin``) under the upstream pass or transform ops that stand in for it, checking the correct
    behaviour as ``pass_tests`` does (the output verifies; it computes no constant its input lacks); or why none."""
    if not culprit.localized or culprit.confirm is None or not culprit.ir_before.strip():
        return "the culprit is not localized and confirmed, so no pass has an upstream stand-in to test"
    made = upstream_mlir.twin(culprit.ir_before, culprit.ir_after, culprit.pass_ or "")
    if isinstance(made, str):
        return made
    redirect = ""
    if culprit.method == "wrong-value":
        patterns = wrong_value_patterns(culprit.confirm.shows, culprit.ir_before)
        if not patterns:
            return "its defect shows as a value, with no line the upstream output could be checked for"
        checks = [f"CHECK-NOT: {p}" for p in patterns]
        should = f"compute the values its input does, not from {' / '.join(patterns)}"
    elif culprit.method in ("invalid-ir", "", "crash"):
        redirect, checks, should = " 2>&1", ["CHECK-NOT: error:", "CHECK-NOT: Stack dump:"], "succeed and verify"
    else:
        return f"a {culprit.method} defect has no upstream check"
    purpose = (
        f"Upstream MLIR alone: the IR `{culprit.pass_}` received, cut to upstream dialects, under "
        f"{made.stand_in.what} should {should}. The defect is upstream's: file it at llvm/llvm-project "
        f"(`{made.stand_in.label}`) and link it from IREE's issue (checked with IREE's iree-opt, at IREE's LLVM; a "
        "released mlir-opt may predate the defect)."
    )
    head = [
        f"// RUN: mlir-opt {upstream_mlir.command_line(made.args)} %s{redirect} | FileCheck %s",
        f"// {purpose.replace('`', '')}",
        *(f"// {c}" for c in checks),
    ]
    return LitTest(UPSTREAM_TEST, "\n".join(head) + "\n\n" + made.text.rstrip() + "\n", purpose)


def _defect_lines(culprit: Culprit, finding: Mapping[str, Any]) -> Sequence[str]:
    """The IR lines that are the defect: a memory finding's ops as the oracle saw them, else what the culprit's
    confirmation shows in the pass's output."""
    ops = (finding.get("evidence") or {}).get("memory_ops") if culprit.method == "memory" else None
    excerpts = [str(m.get("excerpt", "")) for m in ops if isinstance(m, Mapping)] if isinstance(ops, list) else []
    return [e for e in excerpts if e] or (culprit.confirm.shows if culprit.confirm else ())


_VALUE_LINE = re.compile(r"^\s*%[\w.#:]+ = arith\.constant\s+(.*)$")


def introduced_values(shows: Sequence[str], before: str) -> list[str]:
    """FileCheck patterns for the constants a wrong value's confirmation shows the pass's output computing from
    whose literal its input holds nowhere (``arith.constant dense<2> : vector<i32>``: a value folded wrong). A
    ``ub.poison`` is not one: vectorization pads in-bounds reads with it by design, so its absence states nothing."""
    patterns: list[str] = []
    for line in shows:
        m = _VALUE_LINE.match(line)
        if m is None or m.group(1) in before:
            continue
        pattern = f"arith.constant {m.group(1)}"
        if "{{" not in pattern and "[[" not in pattern and pattern not in patterns:
            patterns.append(pattern)
    return patterns


def wrong_value_patterns(shows: Sequence[str], before: str) -> list[str]:
    """The lines a wrong value's confirmation states its defect by, as FileCheck patterns: a constant the pass's input
    does not hold, else a read past a static dim (the pass test and the upstream test check the same)."""
    return introduced_values(shows, before) or out_of_bounds_reads(shows)


_TRANSFER_READ = re.compile(
    r"vector\.transfer_read\b(?P<attrs>[^:]*): (?P<source>tensor<(?P<shape>[\dx]+)x\w+>), "
    r"(?P<vector>vector<(?P<lanes>[\dx]+)x\w+>)$"
)


def out_of_bounds_reads(shows: Sequence[str]) -> list[str]:
    """FileCheck patterns for the reads a wrong value's confirmation shows the pass's output reading poison with that
    read past a static dim: a ``vector.transfer_read`` by the minor identity (no permutation map, not declared in
    bounds) whose vector is longer along a dim than the source (the gather of a gather: a ``vector<2xi32>`` read of
    a ``tensor<2x1xi32>`` along its unit dim)."""
    patterns: list[str] = []
    for line in shows:
        m = _TRANSFER_READ.search(line.strip())
        if m is None or "permutation_map" in m.group("attrs") or "in_bounds" in m.group("attrs"):
            continue
        source = [int(d) for d in m.group("shape").split("x")]
        vector = [int(d) for d in m.group("lanes").split("x")]
        if any(v > d for v, d in zip(reversed(vector), reversed(source))):
            # no attribute dictionary between the padding and the types: a fix that reads by a permutation map, or
            # declares the read in bounds, is not matched (the review: the first pattern rejected a correct fix)
            pattern = f"vector.transfer_read %{{{{[^{{]*}}}} : {m.group('source')}, {m.group('vector')}"
            if pattern not in patterns:
                patterns.append(pattern)
    return patterns


def defect_patterns(shows: Sequence[str], before: str) -> list[str]:
    """FileCheck patterns for the IR lines a confirmation shows: the op's name, with the line's type when the pass's
    input holds that op too (the pattern must not match what the pass was given)."""
    patterns: list[str] = []
    for line in shows:
        m = _IR_LINE.match(line)
        if m is None:
            continue  # a confirmation's prose, not IR
        op = m.group(1)
        pattern = op
        if any(other.startswith(op) and other != op for other in ALLOC_OPS) and line[m.end() :].startswith("("):
            pattern = op + "("  # memref.alloc, not memref.alloca
        if re.search(rf"{re.escape(op)}\b", before) and " : " in line:
            pattern = f"{op}{{{{.*}}}}{line.rsplit(' : ', 1)[1].strip()}"
        if pattern not in patterns:
            patterns.append(pattern)
    return patterns


def self_contained(ir: str, pipeline: str) -> str:
    """``ir`` cut to its aliases and ``hal.executable`` ops when the pipeline reaches the pass through them (a
    module-scope dump holds the whole program); else as given."""
    if not pipeline.startswith(_EXECUTABLE_NESTING):
        return ir
    lines = ir.splitlines()
    aliases = [line for line in lines if line.startswith("#")]
    kept: list[str] = []
    inside = False
    for line in lines:
        if re.match(r"  hal\.executable\b", line):
            inside = True
        if inside:
            kept.append(line)
            if line == "  }":
                inside = False
    return "\n".join([*aliases, "module {", *kept, "}"]) if kept else ir


def run_module_test(
    program: str,
    function: str,
    flags: Sequence[str],
    expected: Mapping[str, np.ndarray],
    n_inputs: int,
    finding: Mapping[str, Any],
) -> LitTest | str:
    """Compile, run on the bundle's inputs, compare with the float64 reference's values at run.sh's tolerance; for a
    compile failure without reference values, compile alone (the test states that the program compiles)."""
    outs = [np.asarray(v) for k, v in sorted(expected.items(), key=lambda kv: kv[0]) if k.startswith("ref_")]
    kind = str(finding.get("kind") or "")
    compile_failure = spec_of(str(finding.get("oracle"))).reproduce(kind) == "compile-error"
    if not outs and n_inputs and not compile_failure:
        return "the float64 reference did not run on this program, so no expected values are known"
    evidence = finding.get("evidence") or {}
    floats = sorted({_dtype_name(o) for o in outs if o.dtype.kind == "f" or o.dtype.name == "bfloat16"})
    default = numeric.relative_tolerance(floats, 4, 1) if floats else 0.0
    rtol = float(evidence.get("rtol") or default)
    atol = float(evidence.get("tolerance") or (default if finding.get("oracle") != "numeric" else 0.0))
    values = [sut.value_literal(o) if o.dtype.kind in "biu" else f"@%S/expected/out{k}.npy" for k, o in enumerate(outs)]
    compare = sut.expected_output_flags(values, exact=False, rtol=rtol, atol={d: atol for d in floats}) if outs else []
    compile_line = shlex.join(["iree-compile", *flags, "%s", "-o", "%t.vmfb"])
    run = ["iree-run-module", "--module=%t.vmfb", "--device=local-sync", f"--function={function}"]
    run += [f"--input=@%S/inputs/a{i}.npy" for i in range(n_inputs)] + compare
    lines = [f"// RUN: {compile_line}"]
    if outs:
        lines += [f"// RUN: {shlex.join(run)} | FileCheck %s", "// CHECK: [SUCCESS]"]
    purpose = (
        f"`@{function}` should compile and return the float64 reference's values "
        f"({', '.join(_shown(o) for o in outs)})."
        if outs
        else "the program should compile with the bundle's flags (no reference values are known)."
    )
    return LitTest(RUN_TEST, "\n".join(lines) + "\n" + program.rstrip() + "\n", purpose)


def _dtype_name(array: np.ndarray) -> str:
    return {"float16": "f16", "bfloat16": "bf16", "float32": "f32", "float64": "f64"}.get(array.dtype.name, "f32")


def _shown(array: np.ndarray, limit: int = 8) -> str:
    flat = array.reshape(-1).tolist()
    head = " ".join(str(v) for v in flat[:limit]) + (" ..." if len(flat) > limit else "")
    return f"{'x'.join(map(str, array.shape)) or 'scalar'}: {head}"


# --------------------------------------------------------------------------- running them


def stock_tools(config: sut.CompilerConfig) -> Tool:
    """The config's ``iree-opt`` / ``iree-compile`` / ``iree-run-module`` and a FileCheck, run under the launcher."""
    from ireefuzz.sut import opt

    binaries = {
        "iree-opt": lambda: opt.find_iree_opt(config),
        "mlir-opt": lambda: opt.find_iree_opt(config),
        "iree-compile": lambda: sut.find_iree_compile(config),
        "iree-run-module": lambda: sut.find_iree_run_module(config),
    }

    def run(argv: Sequence[str]) -> tuple[int | None, str, str]:
        if argv[0] in FILECHECK:
            return filecheck(argv[1:], timeout=config.timeout_s)
        return _launched([binaries[argv[0]](), *argv[1:]], config.timeout_s, config.memory_limit_mb)

    return run


def filecheck(args: Sequence[str], *, timeout: float = 60.0) -> tuple[int | None, str, str]:
    """FileCheck ``args``: LLVM's when on PATH, else the ``filecheck`` package's."""
    llvm = shutil.which("FileCheck")
    return _launched([*([llvm] if llvm else [sys.executable, "-m", "filecheck"]), *args], timeout, 0)


def _launched(argv: Sequence[str], timeout: float, memory_limit_mb: int) -> tuple[int | None, str, str]:
    from ireefuzz.sut import launch

    with tempfile.TemporaryDirectory(prefix="ireefuzz-lit-") as tmp:
        return launch.run(argv, timeout=timeout, memory_limit_mb=memory_limit_mb, scratch=tmp)


def run(test: LitTest, directory: Path, tool: Tool) -> LitRun:
    """``test`` run lit style as a file of ``directory`` (``%S``; ``%s`` is a copy of it, ``%t`` a scratch path)."""
    with tempfile.TemporaryDirectory(prefix="ireefuzz-lit-") as tmp:
        source = Path(tmp) / test.name
        source.write_text(test.text)
        subs = {"%s": str(source), "%S": str(directory), "%t": str(Path(tmp) / "t")}
        done: list[tuple[StageRun, ...]] = []
        for line in test.run_lines:
            try:
                stages = _pipeline(line, subs)
            except ValueError as e:
                return LitRun(tuple(done), f"{line}: {e}")
            ran: list[StageRun] = []
            previous = ""
            for k, (argv, merge, negated) in enumerate(stages):
                if argv[0] in FILECHECK:
                    feed = Path(tmp) / f"stage{len(done)}.{k}.in"
                    feed.write_text(previous)
                    argv = [*argv, "--input-file", str(feed)]
                code, out, err = tool(argv)
                out, err = _relative(out, subs, test.name), _relative(err, subs, test.name)
                ran.append(StageRun(argv[0], tuple(argv), code, out, err, negated))
                previous = err + out if merge else out
            done.append(tuple(ran))
            if any(s.failed for s in ran):
                break
        return LitRun(tuple(done))


def _pipeline(line: str, subs: Mapping[str, str]) -> list[tuple[list[str], bool, bool]]:
    """(argv, stderr merged into stdout, negated) of each stage of a RUN line, ``%`` substitutions made."""
    words = shlex.split(line)
    stages: list[tuple[list[str], bool, bool]] = []
    argv: list[str] = []
    for word in [*words, "|"]:
        if word != "|":
            argv.append(word)
            continue
        merge = "2>&1" in argv
        argv = [w for w in argv if w != "2>&1"]
        negated = bool(argv) and argv[0] == "not"
        argv = argv[1:] if negated else argv
        if not argv:
            raise ValueError("an empty command")
        if argv[0] not in TOOLS + FILECHECK:
            raise ValueError(f"{argv[0]} is not one of the stock tools ({', '.join(TOOLS)}, FileCheck)")
        if any(re.fullmatch(r"\d?[<>].*|&&|;|\|\|", w) for w in argv):
            raise ValueError("shell syntax beyond a pipeline and 2>&1")
        stages.append(([_substitute(w, subs) for w in argv], merge, negated))
        argv = []
    return stages


def _substitute(word: str, subs: Mapping[str, str]) -> str:
    return re.sub(r"%[sSt]", lambda m: subs[m.group(0)], word)


def _relative(text: str, subs: Mapping[str, str], name: str) -> str:
    """Output with the scratch paths named as a reader of the bundle knows them."""
    return text.replace(subs["%s"], name).replace(subs["%t"], "%t").replace(subs["%S"] + "/", "")


# --------------------------------------------------------------------------- judging them


def judge(test: LitTest, symptom: Symptom, directory: Path, tool: Tool) -> Verdict:
    """The shipping rules (module docstring) on ``test``, running what each needs."""
    commands = tuple(test.run_lines)
    verdict = lambda outcome, why, lines=(): Verdict(test.name, outcome, why, commands, lines, test.purpose)
    if not commands:
        return verdict("malformed", "it has no RUN line")
    prefixes = _prefixes(commands)
    checks = test.directives(prefixes)
    if prefixes and not checks:
        return verdict("malformed", f"it pipes into FileCheck but has no {'/'.join(prefixes)} line")
    if checks and all(d.endswith("-LABEL") for _, d, _ in checks) and "--expected_output" not in " ".join(commands):
        return verdict("checks-only-a-label", f"it checks only {'; '.join(f'{d}: {p}' for _, d, p in checks)[:200]}")
    code, err = _parses(test, tool)
    if code != 0:
        first = next(iter(errors(err)), err.strip().splitlines()[0] if err.strip() else f"exit {code}")
        return verdict("unparseable", f"iree-opt does not parse it alone: {first[:200]}")
    if BINDING_OP in test.text and TARGET_ATTRIBUTE not in test.text:
        return verdict("no-target", "it holds a dispatch's IR without its executable target")
    ran = run(test, directory, tool)
    if ran.error:
        return verdict("malformed", ran.error, ran.lines)
    failed = ran.first_failure
    if failed is None:
        return verdict(
            "passes-with-the-bug",
            f"every RUN line passes with the bug present (the bug shows as {symptom.describe()})",
            ran.lines,
        )
    reason = _bugs_reason(failed, symptom, test)
    if reason is None:
        return verdict("fails-for-another-reason", _failure_line(failed), ran.lines)
    return verdict("shipped", reason, ran.lines)


def _prefixes(commands: Sequence[str]) -> tuple[str, ...]:
    """The FileCheck prefixes the RUN lines use (none when no line pipes into FileCheck)."""
    found: list[str] = []
    for line in commands:
        if not re.search(r"\bFileCheck\b|\bfilecheck\b", line):
            continue
        given = re.findall(r"--?check-prefix(?:es)?[= ](\S+)", line)
        found += [p for g in given for p in g.split(",")] or ["CHECK"]
    return tuple(dict.fromkeys(found))


def _parses(test: LitTest, tool: Tool) -> tuple[int | None, str]:
    """(exit status, stderr) of ``iree-opt`` parsing and verifying ``test`` alone, no pass run."""
    with tempfile.TemporaryDirectory(prefix="ireefuzz-lit-") as tmp:
        source = Path(tmp) / test.name
        source.write_text(test.text)
        code, _, err = tool(["iree-opt", str(source)])
    return code, err.replace(str(source), test.name)


def _bugs_reason(stage: StageRun, symptom: Symptom, test: LitTest) -> str | None:
    """Why the first failing stage is the bug's (the line that shows it), or None."""
    if stage.tool in FILECHECK:
        m = _FILECHECK_ERROR.search(stage.err)
        if m is None or m.group("directive").endswith("-LABEL"):
            return None  # an empty input, a label not found: not what the test states
        number = int(m.group("line"))
        stated = next(((d, p) for n, d, p in test.directives(_prefixes(test.run_lines)) if n == number), None)
        if stated is None:
            return None
        shown = _matched_line(stage.err[m.end() :].splitlines()[1:], stated[0])
        return f"FileCheck, {stated[0]}: {stated[1]}" + (f" (found: {shown[:160]})" if shown else "")
    return symptom.shown_by(stage)


def _matched_line(report: Sequence[str], directive: str) -> str:
    """The input line a FileCheck failure report quotes (LLVM's and the Python clone's layouts), or ""."""
    for line in report:
        text = line.strip()
        if not text or set(text) <= {"^", "~"} or f"{directive}:" in text or text.startswith("Matching at:"):
            continue
        if re.match(r"\S+:\d+:\d+: note:", text) or re.match(r"\S+:\d+(?::\d+)?: error:", text):
            continue
        return text
    return ""


def _failure_line(stage: StageRun) -> str:
    if stage.code is None:
        return f"{stage.tool} timed out"
    if stage.code < 0:
        return f"{stage.tool} killed by {signal_name(-stage.code)}, not this bug's failure"
    message = next(iter(errors(stage.err)), "") or next(
        (x for x in (stage.err + stage.out).splitlines() if x.strip()), ""
    )
    return f"{stage.tool} exits {stage.code}: {message.strip()[:200]}"


# --------------------------------------------------------------------------- a bundle's tests


def write(
    directory: Path, candidates: Mapping[str, LitTest | str | Sequence[LitTest]], symptom: Symptom, tool: Tool
) -> list[Verdict]:
    """Judge each candidate (by file name: a test, alternatives tried in order, or why none was made), write the
    shipped one of each into ``directory`` and remove a stale one; the verdicts in order."""
    verdicts = []
    for name, made in candidates.items():
        tried = [] if isinstance(made, str) else [made] if isinstance(made, LitTest) else list(made)
        verdict, shipped = Verdict(name, "not-made", made if isinstance(made, str) else "no test was written"), None
        for test in tried:
            verdict = judge(test, symptom, directory, tool)
            if verdict.shipped:
                shipped = test
                break
        if shipped is not None:
            atomic_write_text(directory / name, shipped.text)
        else:
            (directory / name).unlink(missing_ok=True)
        verdicts.append(verdict)
    return verdicts


def check_bundle(directory: Path, tool: Tool) -> list[Verdict]:
    """The rules on the tests a bundle already holds (its ``finding.json`` gives the bug), shipped or not: how a
    maintainer re-checks a bundle on another machine, and how the bundles of an older ireefuzz are measured."""
    import json

    finding = json.loads((directory / "finding.json").read_text())
    symptom = Symptom.of_finding(finding)
    return [
        judge(LitTest(name, (directory / name).read_text()), symptom, directory, tool)
        if (directory / name).exists()
        else Verdict(name, "not-made", "the bundle holds none")
        for name in KINDS
    ]


def issue_lines(verdicts: Sequence[Verdict]) -> list[str]:
    """ISSUE.md's Tests section: each shipped test, what it checks and how it fails with the bug; why one is not."""
    return ["## Tests", "", *(f"- {v.line()}" for v in verdicts), ""]
