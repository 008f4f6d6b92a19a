"""The one evaluation pipeline: cases -> one program per batch -> compile once -> run every shape
instance -> oracles.

A ``Frontend`` says how cases become a program and how the compiled program is judged: ``LINALG``
(graphs emitted as linalg, here), ``STABLEHLO`` (graphs exported by JAX) and ``MLIR`` (raw programs)
in ``ireefuzz.core.frontends``, which maps each name to its Frontend (``FRONTENDS``). Several cases share
one module (one ``func.func`` each). A batch whose compile fails is split in halves until each
failure is pinned to its own case, so nothing is lost or misattributed.
"""

from __future__ import annotations

import collections
import contextlib
import dataclasses
import functools
import itertools
import re
import time
import zlib
from typing import Any, Callable, Iterator, Mapping, Sequence

import numpy as np

from ireefuzz import sut
from ireefuzz.core import budget
from ireefuzz.core.policy import JAX_MODES, JaxMode, Policy  # noqa: F401  (re-exported: evaluate's callers name them)
from ireefuzz.errors import ExportError, IRParseError
from ireefuzz.generators import frontend_forms
from ireefuzz.generators.case import Case
from ireefuzz.generators.emit import Program, emit_module
from ireefuzz.generators.graph import Graph
from ireefuzz.oracles import crash, immutability, ir, numeric, reference, vocabulary
from ireefuzz.oracles.cause import assign_causes
from ireefuzz.oracles.finding import ORACLE_NAMES, Finding, first_per_signature  # noqa: F401  (ORACLE_NAMES re-exported)
from ireefuzz.oracles.registry import judges_at, spec_of
from ireefuzz.oracles.spec import Evaluation, Verdict
from ireefuzz.sut import (
    config_for,  # beside CompilerConfig, so relations derive configs without evaluate
    config_space,
    isolated,
)


class Clock:
    """Seconds per activity in this process, cumulative; time in a nested activity is not counted in the
    enclosing one. ``evaluate`` gives each CaseResult its share of the batch's seconds (``timings``)."""

    def __init__(self) -> None:
        self.totals: collections.defaultdict[str, float] = collections.defaultdict(float)  # seconds
        self._stack: list[list[float]] = []  # [seconds spent in nested activities] per open activity
        self.on_change: Callable[[], None] | None = None  # told when an activity starts or ends (a worker's heartbeat)

    @contextlib.contextmanager
    def __call__(self, activity: str) -> Iterator[None]:
        started = time.perf_counter()
        self._stack.append([0.0])
        if self.on_change is not None:
            self.on_change()
        try:
            yield
        finally:
            spent = time.perf_counter() - started
            nested = self._stack.pop()[0]
            self.totals[activity] += spent - nested
            if self._stack:
                self._stack[-1][0] += spent
            if self.on_change is not None:
                self.on_change()

    def add(self, activity: str, seconds: float) -> None:
        """``seconds`` measured elsewhere (e.g. iree-compile's wall time), taken from the open activity."""
        self.totals[activity] += seconds
        if self._stack:
            self._stack[-1][0] += seconds

    def since(self, before: Mapping[str, float]) -> dict[str, float]:
        return {k: v - before.get(k, 0.0) for k, v in self.totals.items() if v - before.get(k, 0.0) > 0}


CLOCK = Clock()  # this process' clock (a worker's: each evaluates one batch at a time)


@dataclasses.dataclass(frozen=True)
class CaseResult:
    case: Any  # a Case, or a raw program's ``frontends.ProgramCase``
    findings: tuple[Finding, ...]
    discarded: int = 0  # ill-conditioned disagreements
    pipelines: tuple[str, ...] = ()  # translation_info pipelines of the case's dispatches
    cpu: str = ""  # resolved CPU name
    compiler_version: str = ""
    compile_seconds: float = 0.0
    run_seconds: float = 0.0
    not_judged: tuple[str, ...] = ()  # why the numeric oracle could not judge (``op linalg.softmax``): no finding
    configurations: tuple[str, ...] = ()  # lowering configurations (pipeline + tile sizes) of its dispatches
    timings: Mapping[str, float] = dataclasses.field(
        default_factory=dict
    )  # seconds per activity (``Clock``): this case's share
    compile_timed_out: bool = False  # its own compile (not a batch's) ran past the timeout

    @property
    def signatures(self) -> tuple[str, ...]:
        return tuple(f.signature for f in self.findings)


def check_numbers(
    graph: Graph, sizes: dict, inputs: Sequence[np.ndarray], actual: Sequence[np.ndarray], *, jax: str = "always"
) -> numeric.NumericResult:
    """The numeric oracle wired to the references: JAX to compare with, float64 (with error bounds) to arbitrate."""

    def run_jax() -> Any:
        with CLOCK("jax"):
            return reference.evaluate(graph, inputs, sizes, "jax")

    def run_float64(xs: Sequence[np.ndarray]) -> Any:
        with CLOCK("float64"):
            return reference.evaluate_with_bounds(graph, xs, sizes)

    expected = run_jax() if jax == "always" else run_jax
    return numeric.check_numeric(graph, sizes, inputs, actual, expected, run_float64)


def _graph_numbers(
    case: Case,
    sizes: Mapping[str, int],
    inputs: Sequence[np.ndarray],
    outputs: Sequence[np.ndarray],
    *,
    policy: Policy,
    **_: Any,
) -> numeric.NumericResult:
    return check_numbers(case.graph, dict(sizes), inputs, outputs, jax=policy.jax)


def _graph_mutated_inputs(
    case: Case, before: Sequence[np.ndarray], after: Sequence[np.ndarray], dispatches: Sequence[sut.DispatchIR]
) -> list[Finding]:
    return immutability.check_inputs_unchanged(case.graph, before, after)


def _graph_compile_failure(failure: sut.CompileFailure, text: str, cases: Mapping[str, Case]) -> Finding:
    return crash.check_compile_failure(failure, text, {name: case.graph for name, case in cases.items()})


def _graph_of(case: Case, name: str) -> Graph:
    return case.graph


def _unchanged(value: Any) -> Any:
    return value


def _always_ends(case: Any, inputs: Sequence[np.ndarray], seconds: float) -> bool:
    return True  # a generated graph has no loops


def _numbered(case: Any, index: int) -> str:
    return f"g{index}"


def _by_configuration(case: Any) -> tuple[str, tuple[str, ...]]:
    return case.target_cpu, case.flags


@dataclasses.dataclass(frozen=True)
class Frontend:
    """How cases become one program and how the compiled program is judged.

    A case is anything with ``target_cpu``, ``flags``, ``instances``, ``inputs(k)`` and ``graph``
    (None for a raw program): a ``Case``, or an ``ireefuzz.core.frontends.ProgramCase``. Every field is a
    module-level function, so a Frontend pickles (to Dask workers) by reference.
    """

    name: str
    program: Callable[[dict[str, Any]], Program]  # {function name: payload} -> one module
    payload: Callable[[Any, str], Any]  # what ``program`` takes for one case; ExportError: outside this path
    compile_failure: Callable[[sut.CompileFailure, str, dict[str, Any]], Finding]  # (failure, text, {function: case})
    configure: Callable[[sut.CompilerConfig], sut.CompilerConfig] = _unchanged  # flags the input needs
    admit: Callable[[Any], Any] = _unchanged  # the case as this path runs it; None: outside it (discarded)
    function: Callable[[Any, int], str] = _numbered  # its function's name (survives batch splitting)
    batch_key: Callable[[Any], tuple] = _by_configuration  # cases with equal keys compile together (sorted: a tuple)
    splits: bool = True  # a failing batch is halved (False: the batch is one given program)
    mutated_inputs: Callable[..., list[Finding]] = _graph_mutated_inputs  # the immutability oracle
    numbers: Callable[..., numeric.NumericResult] = _graph_numbers  # the numeric oracle
    ends: Callable[[Any, Sequence[np.ndarray], float], bool] = _always_ends  # known to end on these inputs (in s)

    def __repr__(self) -> str:
        return f"Frontend({self.name})"


LINALG = Frontend("linalg", emit_module, _graph_of, _graph_compile_failure)


def evaluate(
    cases: Sequence[Any],
    base: sut.CompilerConfig | sut.Setup = sut.CompilerConfig(),
    policy: Policy = Policy(),
    frontend: Frontend = LINALG,
) -> list[CaseResult]:
    """Check ``cases`` through ``frontend``, each group of cases with the same configuration as one module.
    ``base`` is a face's ``sut.Setup`` (resolved once, prepared), or a config resolved here.
    A case outside the frontend (``admit`` or ``payload`` refuses it) has no findings and ``discarded=1``.
    Each result's ``timings`` is an equal share of the seconds ``CLOCK`` counted during the call."""
    before = dict(CLOCK.totals)
    with CLOCK("other"):
        results = _evaluate(cases, sut.Setup.of(base), policy, frontend)
    return with_timings(results, before)


def with_timings(results: Sequence[CaseResult], before: Mapping[str, float]) -> list[CaseResult]:
    """``results``, each with an equal share of the seconds ``CLOCK`` counted since ``before`` (its totals then)."""
    share = {k: v / max(len(results), 1) for k, v in CLOCK.since(before).items()}
    return [dataclasses.replace(r, timings=share) for r in results]


def _evaluate(cases: Sequence[Any], base: sut.Setup, policy: Policy, frontend: Frontend) -> list[CaseResult]:
    results: dict[int, CaseResult] = {}
    admitted: dict[int, tuple[str, Any, Any]] = {}
    for i, case in enumerate(cases):
        with CLOCK("emit"):
            entry = _admit(frontend, case, i)
        if entry is None:
            results[i] = CaseResult(case, (), discarded=1)
        else:
            admitted[i] = entry
    key = lambda i: frontend.batch_key(admitted[i][1])
    for _, group in itertools.groupby(sorted(admitted, key=key), key=key):
        indices = list(group)
        setup = base.with_config(frontend.configure(config_for(admitted[indices[0]][1], base.config)))
        for i, r in zip(indices, evaluate_batch([admitted[i] for i in indices], setup, policy, frontend)):
            results[i] = dataclasses.replace(r, case=cases[i])
    return [results[i] for i in range(len(cases))]


def _admit(frontend: Frontend, case: Any, index: int) -> tuple[str, Any, Any] | None:
    """(function name, the case as ``frontend`` runs it, its payload), or None for a case outside the frontend."""
    ran = frontend.admit(case)
    if ran is None:
        return None
    name = frontend.function(ran, index)
    try:
        return name, ran, frontend.payload(ran, name)
    except ExportError:
        return None


def evaluate_batch(
    named: Sequence[tuple[str, Any, Any]],
    setup: sut.Setup | sut.CompilerConfig,
    policy: Policy,
    frontend: Frontend = LINALG,
) -> list[CaseResult]:
    """One module for all of ``named`` (function name, case, payload), compiled by ``setup`` (its toolchain, for
    its config's target); a failing compile is split in halves until each failure is pinned to its own case -- a
    timed-out one case by case (``_after_a_timeout``)."""
    if not named:
        return []
    setup = sut.Setup.of(setup)
    config, toolchain = setup.config, setup.toolchain
    payloads = {name: payload for name, _, payload in named}
    with CLOCK("emit"):  # linalg in the syntax of the release compiling it (arith.maxf before 2024-02, ...)
        program = emit_module(payloads, toolchain.syntax) if frontend == LINALG else frontend.program(payloads)
    with CLOCK("compile_io"):
        artifact = sut.compile_mlir(program.text, config, toolchain=toolchain)
        CLOCK.add("compile", artifact.seconds)
        module = None  # none where its code cannot run (another architecture, features this host lacks)
        if (
            isinstance(artifact, sut.Artifact)
            and any(case.instances for _, case, _ in named)
            and not config_space.cannot_run(config)
        ):
            module = isolated.load(artifact, config, policy.run_timeout_s)
            artifact = module if isinstance(module, sut.CompileFailure) else artifact
    if isinstance(artifact, sut.CompileFailure):
        if len(named) > 1 and frontend.splits:
            if artifact.kind == "timeout":
                return _after_a_timeout(named, setup, policy, frontend)
            blamed = blamed_functions(artifact.diagnostic, program.text, [name for name, _, _ in named])
            parts = (
                [[item] for item in named if item[0] in blamed] + [[item for item in named if item[0] not in blamed]]
                if blamed
                else [named[: len(named) // 2], named[len(named) // 2 :]]
            )
            parts = [part for part in parts if part]
            by_name = {
                item[0]: r for part in parts for item, r in zip(part, evaluate_batch(part, setup, policy, frontend))
            }
            return [by_name[name] for name, _, _ in named]
        return _compile_failed(named, artifact, program.text, config, policy, frontend)
    share = artifact.seconds / len(named)
    undefined = reads_uninitialized(artifact.warnings, program.text, [name for name, _, _ in named])
    single = len(named) == 1
    results = [
        check_compiled_case(
            case, name, module, artifact, config, policy, frontend, share, single=single, undefined=undefined.get(name)
        )
        for name, case, _ in named
    ]
    results = _attribute_mutations(results, [name for name, _, _ in named], program.text, config)
    if policy.relations and frontend == LINALG and not config_space.cannot_run(config):
        with CLOCK("relations"):
            results = [with_relations(r, config, policy) for r in results]
    return results


def _reads_flow_ties(finding: Finding) -> bool:
    return spec_of(finding.oracle).reads_flow_ties


def _attribute_mutations(
    results: list[CaseResult], names: Sequence[str], text: str, config: sut.CompilerConfig
) -> list[CaseResult]:
    """Each input mutation attributed by what IREE did, not by the program's syntax: the dispatches tied to that
    argument's imported buffer in the program compiled to flow (``tied_to``; one more compile, only for a batch
    that has a mutation). Its cause is re-derived from that evidence."""
    if not any(_reads_flow_ties(f) for r in results for f in r.findings):
        return results
    with CLOCK("compile_io"):
        flow = sut.compile_to(text, config, "flow")
    if isinstance(flow, sut.CompileFailure):
        return results
    attributed = []
    for name, result in zip(names, results):
        ties = immutability.tied_arguments(flow, name) if any(_reads_flow_ties(f) for f in result.findings) else None
        if ties is None:
            attributed.append(result)
            continue
        findings = [
            f.with_evidence(tied_to=ties.get(f.evidence.get("argument", -1), [])) if _reads_flow_ties(f) else f
            for f in result.findings
        ]
        attributed.append(dataclasses.replace(result, findings=tuple(assign_causes(findings))))
    return attributed


_INPUT_LINE = re.compile(r"\binput\.mlir:(\d+):\d+: error")
_WARNING_LINE = re.compile(r"\binput\.mlir:(\d+):\d+: (?:warning|note)")
_FUNCTION_LINE = re.compile(r"^\s*func\.func\s+(?:\w+\s+)?@([\w$.-]+)\s*\(", re.M)


def reads_uninitialized(warnings: Sequence[str], program: str, names: Sequence[str]) -> dict[str, str]:
    """The functions of ``names`` IREE warns read uninitialized values (a linalg op reading a ``tensor.empty``:
    ``vocabulary.READS_UNINITIALIZED``), at a line inside them or a call site ``called from`` there, each with
    the reason its numbers are not judged: the program is undefined there, whatever IREE computes."""
    found: dict[str, str] = {}
    for warning in warnings:
        if vocabulary.READS_UNINITIALIZED not in warning:
            continue
        head = warning.splitlines()[0]
        line = _WARNING_LINE.search(head)
        what = head.split(" warning: ", 1)[-1].split(". To disable", 1)[0]
        reason = f"reads undefined values (iree-compile warns{f' at line {line.group(1)}' if line else ''}: {what}"
        for name in blamed_functions(warning, program, names, _WARNING_LINE):
            found.setdefault(name, f"{reason}; undefined behaviour)")
    return found


def blamed_functions(
    diagnostic: str, program: str, names: Sequence[str], located: re.Pattern[str] = _INPUT_LINE
) -> list[str]:
    """The functions of ``names`` a failed compile's errors point at (in ``names`` order; none: the batch is
    halved): a dispatch named after one (``g7_dispatch_1``), or an error at a line of ``program`` inside one.
    Each is then compiled alone and the rest together (k + 1 compiles for k of them), not halved down to them
    (about 2 k log2 n)."""
    blamed = {
        n
        for n in names  # as IREE names executables: g7_dispatch_1..., module_g7_dispatch_1 (their files)
        if re.search(rf"(?:(?<![\w$.-])|(?<=module_)){re.escape(n)}_dispatch_\d", diagnostic)
    }
    lines = sorted({int(m) for m in located.findall(diagnostic)})
    if lines:
        starts = [(program.count("\n", 0, m.start()) + 1, m.group(1)) for m in _FUNCTION_LINE.finditer(program)]
        for line in lines:
            owner = [name for start, name in starts if start <= line][-1:]
            blamed.update(n for n in owner if n in names)
    return [n for n in names if n in blamed]


TIMEOUTS_PER_BATCH = 2  # cases of a timed-out batch that may time out alone before the rest are left uncompiled
NOT_COMPILED = "every oracle: not compiled ({n} cases of its batch timed out alone under this configuration)"


def _after_a_timeout(
    named: Sequence[tuple[str, Any, Any]], setup: sut.Setup, policy: Policy, frontend: Frontend
) -> list[CaseResult]:
    """A batch whose compile timed out, case by case (a hang costs a whole timeout: not log2(n) halvings). Once
    TIMEOUTS_PER_BATCH of its cases have timed out alone, the configuration is the likely cause, not a case: the
    rest are not compiled, and are counted as not judged. A batch of n costs at most min(n, 2) + 1 timeouts,
    where n + 1 let one slow configuration take a worker for n + 1 minutes."""
    results: list[CaseResult] = []
    timeouts = 0
    for k, item in enumerate(named):
        if timeouts >= TIMEOUTS_PER_BATCH:
            reason = NOT_COMPILED.format(n=timeouts)
            return results + [CaseResult(case, (), not_judged=(reason,)) for _, case, _ in named[k:]]
        [result] = evaluate_batch([item], setup, policy, frontend)
        timeouts += result.compile_timed_out
        results.append(result)
    return results


def _compile_failed(
    named: Sequence[tuple[str, Any, Any]],
    failure: sut.CompileFailure,
    text: str,
    config: sut.CompilerConfig,
    policy: Policy,
    frontend: Frontend,
) -> list[CaseResult]:
    """The findings of the judges of a failed compile (the crash oracle's: the frontend's finding for it), for every
    case of a batch that cannot be split further."""
    share, timed_out = failure.seconds / len(named), failure.kind == "timeout"
    located = functools.partial(frontend.compile_failure, failure, text, {name: case for name, case, _ in named})
    verdict = judged(Evaluation("compile-failed", compile_failure=located), policy)
    platform = platform_of(config=config) if verdict.findings else {}  # a probe compile: only for a finding
    findings = [f.with_evidence(platform=platform) for f in verdict.findings]
    return [
        CaseResult(
            case,
            tuple(assign_causes([f.with_case(case_json(case)) for f in findings])),
            verdict.discarded,
            compile_seconds=share,
            not_judged=verdict.not_judged,
            compile_timed_out=timed_out,
        )
        for _, case, _ in named
    ]


def judged(evaluation: Evaluation, policy: Policy) -> Verdict:
    """The verdicts of every judge ``policy`` selects at ``evaluation``'s stage (``OracleSpec.judges``), in one.
    IR no reader can read is our gap, not IREE's: the oracle whose judge raised IRParseError does not judge."""
    findings: list[Finding] = []
    discarded = 0
    not_judged: dict[str, None] = {}
    for spec, judge in judges_at(evaluation.stage, policy.oracles):
        try:
            verdict = judge(evaluation)
        except IRParseError as e:
            not_judged[f"{spec.name}: its IR cannot be read ({_unread(e)})"] = None
            continue
        findings += verdict.findings
        discarded += verdict.discarded
        not_judged.update(dict.fromkeys(verdict.not_judged))
    return Verdict(tuple(findings), discarded, tuple(not_judged))


def case_json(case: Any) -> dict[str, Any] | None:
    """What a finding records as its case: a graph case's JSON, with ``beyond_frontends`` when its graph has a form
    no IREE frontend produces (ranked after the rest); None for a raw program (``repro`` takes graph cases)."""
    return frontend_forms.labelled(case.to_json(), case.graph) if isinstance(case, Case) else None


def platform_of(artifact: sut.Artifact | None = None, config: sut.CompilerConfig | None = None) -> dict[str, str]:
    """What every finding records about where it was seen: the CPU as resolved (``host`` differs by
    machine) with its features, and the compiler version -- from the artifact, or for a failed
    compile from a probe compile with the same configuration (empty if even that fails)."""
    if artifact is not None:
        cpu, version = artifact.cpu, artifact.compiler_version
    else:  # no configuration given: the default one's
        cpu, version = sut.resolve_platform(config if config is not None else sut.CompilerConfig())
    return {"target_cpu": cpu.requested, "cpu": cpu.name, "cpu_features": cpu.features, "compiler_version": version}


def with_relations(result: CaseResult, config: sut.CompilerConfig, policy: Policy) -> CaseResult:
    """Add the metamorphic relations' findings for a deterministic sample of the cases (by case hash)."""
    if zlib.crc32(result.case.dumps().encode()) % policy.relations_every:
        return result
    from ireefuzz.core import relations

    platform = platform_of(config=config)
    found = [  # a variant's own crash keeps its variant's case (``relations.variant_crash``)
        f.with_case(f.case or result.case.to_json()).with_evidence(platform=platform)
        for rel in policy.relations
        for f in relations.check_relation(rel, result.case, config)
    ]
    return dataclasses.replace(result, findings=tuple(assign_causes(first_per_signature([*result.findings, *found]))))


def check_compiled_case(
    case: Any,
    function: str,
    module: sut.LoadedModule | None,
    artifact: sut.Artifact,
    config: sut.CompilerConfig,
    policy: Policy,
    frontend: Frontend,
    compile_seconds: float,
    *,
    single: bool,
    undefined: str | None = None,
) -> CaseResult:
    """Every judge ``policy`` selects on one compiled case (``judged``): at "compiled" on its dispatches (memory,
    fusion), then per shape instance at "run-failed" (crash) or "ran" (immutability and numeric, as ``frontend``
    judges them). ``undefined``: why the program's values are undefined (``reads_uninitialized``); its numbers are
    then not judged."""
    graph = case.graph
    findings: list[Finding] = []
    discarded = 0
    not_judged: dict[str, None] = {}

    def take(verdict: Verdict) -> None:
        nonlocal discarded
        findings.extend(verdict.findings)
        discarded += verdict.discarded
        not_judged.update(dict.fromkeys(verdict.not_judged))

    dispatches = sut.dispatches_of(artifact, function)
    started = time.perf_counter()
    limit = policy.max_static_alloca_bytes
    with CLOCK("ir"):
        statistics = artifact.statistics if single else None
        take(
            judged(
                Evaluation("compiled", function, graph, dispatches, statistics, max_static_alloca_bytes=limit), policy
            )
        )
    if module is None and case.instances:  # code that cannot run here: run, immutability and numbers not judged
        not_judged[f"compile-only target {config_space.cannot_run(config)}"] = None
    for k, sizes in enumerate(case.instances if module is not None else ()):
        too_big = budget.over(case, k, policy.max_memory)
        if too_big:  # estimated before it is spent: not run, not judged (the user's own program is refused earlier)
            not_judged[f"every oracle at {dict(sizes) or 'its shapes'}: {too_big}"] = None
            continue
        inputs = case.inputs(k)
        assert module is not None  # instances are run only with a module
        with CLOCK("run"):
            outcome = module.call(function, inputs)
        if isinstance(outcome, sut.RunFailure):
            ends = (
                outcome.kind != "timeout"  # a timeout: does the reference end in as long as IREE had?
                or frontend.ends(case, inputs, policy.run_timeout_s or isolated.DEFAULT_RUN_TIMEOUT_S)
            )
            why = crash.not_a_finding(outcome, known_to_end=ends)
            if why:
                not_judged[why] = None
            else:
                take(judged(Evaluation("run-failed", function, graph, sizes=sizes, run_failure=outcome), policy))
            continue
        ran = Evaluation(
            "ran",
            function,
            graph,
            dispatches,
            sizes=sizes,
            max_static_alloca_bytes=limit,
            undefined=undefined,
            mutated_inputs=functools.partial(frontend.mutated_inputs, case, inputs, outcome.inputs_after, dispatches),
            numbers=functools.partial(
                frontend.numbers,
                case,
                sizes,
                inputs,
                outcome.outputs,
                config=config,
                policy=policy,
                dispatches=dispatches,
            ),
        )
        take(judged(ran, policy))
    platform = platform_of(artifact)
    findings = [f.with_case(case_json(case)).with_evidence(platform=platform) for f in findings]
    return CaseResult(
        case,
        tuple(assign_causes(first_per_signature(findings))),
        discarded,
        tuple(d.pipeline for d in dispatches),
        artifact.cpu.name,
        artifact.compiler_version,
        compile_seconds,
        time.perf_counter() - started,
        tuple(not_judged),
        ir.lowering_configurations(dispatches),
    )


def _unread(error: IRParseError) -> str:
    """Why IR could not be read, without the dispatch's name (one not-judged reason for every case it hits)."""
    return str(error).splitlines()[0].split(": ", 1)[-1][:160]
