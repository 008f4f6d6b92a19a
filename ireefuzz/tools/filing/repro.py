"""``ireefuzz repro FINDING --out DIR``: shrink a finding, confirm it, write a self-contained bundle.

The bundle's format (files, ``run.sh`` exit statuses) is ``ireefuzz.tools.filing.bundle``'s; this module decides
what goes in it: the minimal case, the finding's own CPU and flags, the first pass that introduces
a memory op, and the upstream report (``ISSUE.md``). A case that reproduces only some of the time
is marked flaky: its bundle gets no ISSUE.md.
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import tempfile
from pathlib import Path
from types import SimpleNamespace
from typing import TYPE_CHECKING, Any, Literal, Mapping, Sequence

import numpy as np

from ireefuzz import sut
from ireefuzz.base.argtypes import non_negative_int, positive_int
from ireefuzz.base.compiler_options import add_compiler_options
from ireefuzz.base.durable import make_dir
from ireefuzz.core.evaluate import Policy, evaluate
from ireefuzz.errors import NotInteresting, UsageError
from ireefuzz.generators.case import Case
from ireefuzz.generators.emit import emit
from ireefuzz.oracles import memory
from ireefuzz.oracles.finding import Finding
from ireefuzz.oracles.registry import spec_of
from ireefuzz.sut import isolated
from ireefuzz.tools.filing import culprit as culprits
from ireefuzz.tools.filing import experiments as experimenting
from ireefuzz.tools.filing import report
from ireefuzz.tools.filing.bundle import COMPILE_ONLY_BODIES, Bundle, run_bundle
from ireefuzz.tools.shrink import graph as shrinking

if TYPE_CHECKING:
    from ireefuzz.core.frontends import ProgramCase

CONFIRM_RUNS = 3
UNDER = ("cause", "signature")


# --------------------------------------------------------------------------- CLI


def configure(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "finding",
        metavar="FINDING",
        nargs="?",
        help="a JSON file with one finding (Finding.dumps()), or a findings.jsonl together with --line",
    )
    parser.add_argument(
        "--all",
        dest="all_of",
        metavar="RUN",
        default=None,
        help="bundle every new cause of the campaign run RUN (ranked) into RUN/bundles, with "
        "RUN/bundles/index.md; FINDING and --out are not given then",
    )
    parser.add_argument(
        "--line",
        dest="line",
        metavar="N",
        type=positive_int("line number"),
        default=None,
        help="take line N (1-based) of a findings.jsonl",
    )
    parser.add_argument("--out", dest="out", metavar="DIR", default=None, help="bundle directory (created)")
    parser.add_argument("--no-shrink", dest="shrink", action="store_false", help="bundle the case as found")
    parser.add_argument(
        "--under",
        dest="under",
        choices=UNDER,
        default="cause",
        help="what the shrunk case must keep: its root cause (ops, dtypes and dims around the "
        "defect may change) or its whole signature (default: cause; "
        "a finding from an older run gets its cause derived)",
    )
    parser.add_argument(
        "--confirm-runs",
        dest="confirm_runs",
        metavar="N",
        type=positive_int("number of runs"),
        default=CONFIRM_RUNS,
        help=f"re-runs of the minimal case; flaky ones are not filed (default {CONFIRM_RUNS})",
    )
    parser.add_argument(
        "--experiments",
        dest="experiments",
        metavar="N",
        type=non_negative_int("number of variants"),
        default=experimenting.MAX_EXPERIMENTS,
        help="variants of the minimal case run before the verdict (dims, destinations, forms, consumers, dtypes, "
        f"ranks, CPUs; each one compile); 0: none (default {experimenting.MAX_EXPERIMENTS})",
    )
    add_compiler_options(parser.add_argument, target=False)  # the target CPU and flags are the finding's


def main(args: argparse.Namespace) -> int:
    if args.all_of is not None:
        return _all(args)
    if args.finding is None or args.out is None:
        raise UsageError("give FINDING and --out DIR (or --all RUN for every new cause of a campaign)")
    if Path(args.out).exists() and not Path(args.out).is_dir():
        raise UsageError(f"--out {args.out}: not a directory")
    finding = load_finding(args.finding, args.line)
    problem = make_dir(args.out, keep=False)
    if problem:
        raise UsageError(f"--out {args.out} {problem}")

    config = sut.CompilerConfig.from_options(args)
    sut.prepare(config, log=lambda m: print(f"  {m}"))
    sut.require_usable(config)
    result = shrink_and_bundle(
        finding,
        Path(args.out),
        config,
        shrink=args.shrink,
        confirm_runs=args.confirm_runs,
        experiments=args.experiments,
        under=args.under,
        log=lambda m: print(f"  {m}"),
    )
    print(f"{result.status}: {finding.signature}\n  {result.before} -> {result.after}\n  bundle: {result.path}")
    if result.shrunk is not None:
        shrunk = result.shrunk
        split = " (splits out: the minimized program lands in another cause)" if shrunk.split_out else ""
        print(f"  shrunk under {shrunk.target}\n  ends as cause {shrunk.cause}{split}\n  signature {shrunk.signature}")
    tried = experimenting.read(result.path)
    if tried is not None:
        print(f"  experiments: {tried['verdict']['line']} ({len(tried['rows']) - 1} variants, {tried['seconds']} s)")
    return 1 if result.status == "confirmed" else 0


def _all(args: argparse.Namespace) -> int:
    """``repro --all RUN``: ``ireefuzz triage RUN`` (it bundles every new cause, ranked, and writes the index) in a
    process of its own, as the campaign runs repro: the campaign's package lies above this one."""
    import subprocess
    import sys

    run = Path(args.all_of)
    if not (run / "findings.jsonl").is_file():
        raise UsageError(
            f"--all {run}: not a campaign run (no findings.jsonl); give the --out directory of ireefuzz fuzz"
        )
    if args.finding is not None or args.out is not None:
        raise UsageError("--all RUN writes into RUN/bundles; give no FINDING nor --out with it")
    command = [sys.executable, "-m", "ireefuzz.cli", "triage", str(run)]  # the run's own compiler options
    code = subprocess.run(command).returncode
    index = run / "bundles" / "index.md"
    if index.exists():
        print(index.read_text())
    return code


def load_finding(path: str, line: int | None = None) -> Finding:
    p = Path(path)
    if not p.is_file():
        raise UsageError(f"{path}: no such file; pass a finding JSON file or a findings.jsonl with --line N")
    try:
        text = p.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as e:
        raise UsageError(f"{path}: not a readable text file ({e})") from None
    where = path
    if line is not None:
        lines = text.splitlines()
        if not 1 <= line <= len(lines):
            raise UsageError(f"{path} has {len(lines)} lines; --line must be in 1..{len(lines)}")
        text, where = lines[line - 1], f"{path} line {line}"
    try:
        data = json.loads(text)
    except json.JSONDecodeError as e:
        hint = "" if line is not None else "; for a findings.jsonl pass --line N"
        raise UsageError(f"{where} is not JSON ({e}){hint}") from None
    if isinstance(data, dict) and "finding" in data and "signature" not in data:
        data = data["finding"]  # a campaign record wrapping the finding
    if not isinstance(data, dict) or not isinstance(data.get("signature"), str):
        raise UsageError(f"{where}: not a finding (a JSON object with a 'signature')")
    try:
        finding = Finding.from_json(data)
    except (TypeError, ValueError) as e:
        raise UsageError(f"{where}: not a finding ({e})") from None
    if not isinstance(finding.case, dict) or not finding.case:
        raise UsageError(
            f"{finding.signature}: the finding carries no generated case; for your own .mlir use "
            "ireefuzz.tools.shrink.mlir.reduce_mlir"
        )
    flags = finding.case.get("flags", []) if isinstance(finding.case, dict) else []
    bad = sut.unsafe_flags(flags if isinstance(flags, list) else [str(flags)])
    if bad:
        raise UsageError(f"{path}: refusing case flags that write files or are malformed: {bad}")
    _within_budget(finding, where)
    return finding


def _within_budget(finding: Finding, where: str) -> None:
    """The finding's case fits the memory budget at each shape instance (``core.budget``), else OverBudget."""
    from ireefuzz.core import budget

    if finding.case is None:
        return
    try:
        case = Case.from_json(finding.case)
    except Exception:  # noqa: BLE001  (a malformed case is reported where it is read, as before)
        return
    needed = max((budget.estimate_graph(case.graph, sizes) for sizes in case.instances), default=0)
    budget.check(needed, None, f"{where}: its case")


# --------------------------------------------------------------------------- shrink + bundle


@dataclasses.dataclass(frozen=True)
class BundleResult:
    path: Path
    status: Literal["confirmed", "flaky", "lost"]
    case: Case
    before: Any
    after: Any
    shrunk: Any = None  # the ireefuzz.tools.shrink.graph.ShrinkResult (None with shrink=False)


def shrink_and_bundle(
    finding: Finding,
    out_dir: Path,
    config: sut.CompilerConfig | None = None,
    *,
    shrink: bool = True,
    confirm_runs: int = CONFIRM_RUNS,
    policy: Policy | None = None,
    under: str = "cause",
    log: Any = None,
    experiments: int = experimenting.MAX_EXPERIMENTS,
) -> BundleResult:
    """Shrink ``finding``'s case under its cause or signature (``under``, default cause), confirm it, run up to
    ``experiments`` variants of a confirmed one (``filing.experiments``: its table and verdict go into finding.json
    and ISSUE.md), and write the bundle (the campaign calls this)."""

    config = config if config is not None else sut.CompilerConfig()
    if finding.case is None:  # the command line refuses such a finding before (load_finding)
        raise ValueError(f"{finding.signature}: the finding carries no generated case to shrink")
    case = Case.from_json(finding.case)
    target = (
        shrinking.Target.by_cause(shrinking.cause_id(finding))
        if under == "cause"
        else shrinking.Target.by_signature(finding.signature)
    )
    check = shrinking.EvaluateCheck(target, config, policy)
    before = shrinking.size_of(case)
    info: dict[str, Any] = {}
    result, signature = None, finding.signature
    if shrink:
        try:
            result = shrinking.shrink(case, target, check, log=log)
        except NotInteresting:  # not shown now (a flaky finding): the confirmation below says how often
            if log:
                log(f"the recorded case does not show {target} now; bundled as recorded")
    if result is not None:
        case, signature = result.case, result.signature
        info = {
            "under": str(target),
            "cause": result.cause,
            "signature": signature,
            "split_out": result.split_out,
            "steps": list(result.steps),
            "evaluations": result.evaluations,
            "seconds": round(result.seconds, 2),
        }
    confirmation = shrinking.confirm(case, target, check, confirm_runs)
    minimal = _finding_for(case, signature, config, target)
    if minimal is None:  # not shown on re-evaluation (flaky): keep the finding, say its signature is not measured
        minimal = finding.with_case(case.to_json())
        info["signature_not_shown_by_program"] = True
    extra = {
        "status": confirmation.status,
        "confirm": f"{confirmation.hits}/{confirmation.runs}",
        "original": {"case": finding.case, "size": str(before)},
        "shrink": info,
    }
    tried = None  # the experiments' record: finding.json's "experiments", a section of ISSUE.md
    if experiments and confirmation.fileable:
        goal = shrinking.Target.by_cause(shrinking.cause_id(minimal))
        tried = experimenting.record(experimenting.run_experiments(case, goal, config, limit=experiments, log=log))
        extra["experiments"] = tried
    made = make_bundle(minimal, case, config, extra=extra, issue=confirmation.fileable, experiments=tried)
    path = made.dump(out_dir)
    if confirmation.fileable:  # the bundle's own check, with the compiler that confirmed the finding
        code, output = run_bundle(path, config)
        made.finding["run_sh"] = {"exit": code, "output": output[-600:]}
        if code != 1:  # run.sh cannot show it: not a report anyone can check
            made.issue = None
            if log:
                log(f"run.sh exits {code}, not 1, on the compiler that confirmed the finding; no ISSUE.md")
        made.dump(out_dir)
    return BundleResult(path, confirmation.status, case, before, shrinking.size_of(case), result)


def _finding_for(case: Case, signature: str, config: sut.CompilerConfig, target: Any = None) -> Finding | None:
    """The minimal case's own finding: the one with ``signature``, else the one ``target`` (its cause) matches,
    so the bundle's signature is the one its program shows (never the original case's)."""
    findings = evaluate([case], config, Policy(run_timeout_s=isolated.DEFAULT_RUN_TIMEOUT_S))[0].findings
    same = next((f for f in findings if f.signature == signature), None)
    return same or (target.hit(findings) if target is not None else None)


def write_bundle(
    finding: Finding,
    case: Case,
    out_dir: str | Path,
    config: sut.CompilerConfig | None = None,
    *,
    extra: Mapping[str, Any] | None = None,
    issue: bool = True,
    instance: int = 0,
) -> Path:
    """Write the repro bundle (``ireefuzz.tools.filing.bundle``) for ``finding`` on ``case`` (shape instance
    ``instance``)."""
    return make_bundle(finding, case, config, extra=extra, issue=issue, instance=instance).dump(out_dir)


def make_bundle(
    finding: Finding,
    case: Case,
    config: sut.CompilerConfig | None = None,
    *,
    extra: Mapping[str, Any] | None = None,
    issue: bool = True,
    instance: int = 0,
    experiments: Mapping[str, Any] | None = None,
) -> Bundle:
    """The Bundle of ``finding`` on a generated ``case`` (``report.make_bundle``), compiled with the finding's own
    target CPU and flags, with its culprit and upstream matches measured."""
    from ireefuzz.tools.filing import upstream

    config = sut.config_for(case, config if config is not None else sut.CompilerConfig())
    bad = sut.unsafe_flags(config.flags)
    if bad:
        raise UsageError(f"{finding.signature}: refusing flags that write files or are malformed: {bad}")
    subject = case_subject(finding, case, config, instance)
    shape = SimpleNamespace(function="main", args=tuple(case.graph.args), inputs=lambda _=0: list(subject.inputs))
    found = culprits.of_finding(finding, subject.program, shape, config)
    experiments = experimenting.with_culprit(experiments, found.pass_)
    matches = upstream.for_finding(finding, subject.program)
    measured = report.Measured(culprit=found, upstream=matches, searched=True, experiments=experiments)
    record = (
        dict(extra or {})
        | {
            "upstream": [dataclasses.asdict(m) for m in matches],
            "signature_of_program": finding.signature,
        }
        | ({"experiments": experiments} if experiments else {})
    )
    return report.make_bundle(finding, subject, extra=record, measured=measured, issue=issue)


def case_subject(finding: Finding, case: Case, config: sut.CompilerConfig, instance: int = 0) -> report.Subject:
    """A generated case as a bundle's subject: its graph emitted as ``@main``, JAX's and NumPy float64's outputs as
    the reference, compiled once here for the platform (the CPU ``host`` resolves to, its features) and the
    dispatches the evidence shows."""
    from ireefuzz.oracles import reference

    graph, sizes = case.graph, case.instances[instance]
    program = emit(graph, "main")
    inputs = case.inputs(instance)
    expected = {
        f"{backend}_{k}": np.asarray(y)
        for backend in ("jax", "f64")
        for k, y in enumerate(reference.evaluate(graph, inputs, sizes, backend))
    }
    with tempfile.TemporaryDirectory(prefix="ireefuzz-repro-") as tmp:
        artifact = sut.compile_mlir(program.text, config, workdir=tmp)
    facts = _facts(artifact, config)
    reproduce = spec_of(finding.oracle).reproduce(finding.kind)
    # Only the IR matters (memory, fusion, compile crashes): the CPU ``host`` resolved to; else the case's (it runs).
    cpu = facts["cpu"] if reproduce in COMPILE_ONLY_BODIES and facts["cpu"] else case.target_cpu
    rtol, atol = _tolerance(case, inputs, sizes) if reproduce == "outputs" else (0.0, {})
    return report.Subject(
        program=program.text,
        function="main",
        args=tuple(graph.args),
        outputs=tuple(graph.type_of(o) for o in graph.outputs),
        inputs=inputs,
        expected=expected,
        reference=report.reference_agreement(expected),
        flags=tuple(sut.target_flags(cpu, config.flags)),
        platform=report.Platform(facts["version"], facts["cpu"], case.target_cpu, facts["features"]),
        compared="jax",
        rtol=rtol,
        atol=atol,
        error_message=report.compile_error(finding, program.text),
        data_movement=tuple(d.name for d in getattr(artifact, "dispatches", ()) if memory.moves_data(d)),
        case=case.to_json(),
        record={"cpu": facts["cpu"], "cpu_features": facts["features"], "instance": dict(sizes)},
        sizes=dict(sizes),
        artifact=artifact,
    )


def make_program_bundle(finding: Finding, case: ProgramCase, config: sut.CompilerConfig | None = None) -> Bundle:
    """The Bundle of ``finding`` on a raw program's function (``frontends.ProgramCase``), nothing measured yet
    (``program.write_cause`` measures): ``report.make_bundle`` on ``report.program_subject``."""
    return report.make_bundle(finding, report.program_subject(finding, case, config))


def _tolerance(case: Case, inputs: Sequence[np.ndarray], sizes: Mapping[str, int]) -> tuple[float, dict[str, float]]:
    """(rtol, atol per float dtype) for run.sh: the numeric oracle's rtol, and its error-bound term at the
    widest element (iree-run-module takes one absolute tolerance per dtype)."""
    from ireefuzz.oracles import numeric, reference

    graph = case.graph
    _, bounds = reference.evaluate_with_bounds(graph, inputs, sizes)
    atol: dict[str, float] = {}
    for ref, bound in zip(graph.outputs, bounds):
        dtype = graph.type_of(ref).dtype
        if dtype in ("f32", "f16", "f64", "bf16"):
            widest = float(np.max(np.nan_to_num(np.asarray(bound, dtype=np.float64)), initial=0.0))
            atol[dtype] = max(atol.get(dtype, 0.0), numeric.BOUND_MARGIN * widest + 1e-30)
    return numeric.tolerance(graph, sizes), atol


def _facts(artifact: Any, config: sut.CompilerConfig) -> dict[str, str]:
    version = getattr(artifact, "compiler_version", "") or sut.compiler_version(sut.find_iree_compile(config))
    cpu = getattr(artifact, "cpu", None)
    if cpu is None or not cpu.name:  # a failed compile names no CPU: the probe module does
        cpu = sut.resolve_platform(config)[0]
    features = ",".join(dict.fromkeys(f for f in (cpu.features or "").split(",") if f.startswith("+")))
    return {"version": version, "cpu": cpu.name, "features": features}
