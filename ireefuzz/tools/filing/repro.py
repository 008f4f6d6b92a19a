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
import re
import shlex
import tempfile
from pathlib import Path
from types import SimpleNamespace
from typing import Any, Literal, Mapping, Sequence

import numpy as np

from ireefuzz import sut
from ireefuzz.base.argtypes import non_negative_int, positive_int
from ireefuzz.base.compiler_options import add_compiler_options
from ireefuzz.base.durable import json_default, make_dir
from ireefuzz.core.evaluate import Policy, evaluate
from ireefuzz.errors import NotInteresting, UsageError
from ireefuzz.generators.case import Case
from ireefuzz.generators.emit import emit
from ireefuzz.generators.ops import tensor_type
from ireefuzz.generators.tensor import TensorType
from ireefuzz.oracles.finding import Finding
from ireefuzz.oracles.registry import spec_of
from ireefuzz.sut import isolated
from ireefuzz.tools.filing import culprit as culprits
from ireefuzz.tools.filing import experiments as experimenting
from ireefuzz.tools.filing.bundle import (
    COMPILE_ONLY_BODIES,
    INPUTS_AFTER,
    INPUTS_AFTER_FUNCTION,
    Bundle,
    inputs_after_module,
    run_bundle,
    run_script,
    wrapper_module,
)
from ireefuzz.tools.shrink import graph as shrinking

CONFIRM_RUNS = 3
UNDER = ("cause", "signature")
# Ops whose appearance in the IR marks each memory finding kind (for run.sh and the first-pass search).
MEMORY_MARKERS = {
    "alloca": "memref.alloca",
    "alloca-dynamic": "memref.alloca(%",
    "alloca-in-loop": "memref.alloca",
    "alloc": "memref.alloc(",
    "copy": "memref.copy",
}


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
    config: Any = None,
    *,
    shrink: bool = True,
    confirm_runs: int = CONFIRM_RUNS,
    policy: Any = None,
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
    made = make_bundle(minimal, case, config, extra=extra, issue=confirmation.fileable)
    if made.issue is not None and tried is not None:
        made.issue = experimenting.with_section(made.issue, tried)
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


def _finding_for(case: Case, signature: str, config: Any, target: Any = None) -> Finding | None:
    """The minimal case's own finding: the one with ``signature``, else the one ``target`` (its cause) matches,
    so the bundle's signature is the one its program shows (never the original case's)."""
    findings = evaluate([case], config, Policy(run_timeout_s=isolated.DEFAULT_RUN_TIMEOUT_S))[0].findings
    same = next((f for f in findings if f.signature == signature), None)
    return same or (target.hit(findings) if target is not None else None)


def write_bundle(
    finding: Finding,
    case: Case,
    out_dir: str | Path,
    config: Any = None,
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
    config: Any = None,
    *,
    extra: Mapping[str, Any] | None = None,
    issue: bool = True,
    instance: int = 0,
) -> Bundle:
    """The Bundle for ``finding`` on ``case``, compiled with the finding's own target CPU and flags."""
    from ireefuzz.oracles import reference

    config = config if config is not None else sut.CompilerConfig()
    config = sut.config_for(case, config)
    bad = sut.unsafe_flags(config.flags)
    if bad:
        raise UsageError(f"{finding.signature}: refusing flags that write files or are malformed: {bad}")
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
    flags = sut.target_flags(_bundle_cpu(finding, case, facts), config.flags)
    from ireefuzz.tools.filing import upstream

    shape = SimpleNamespace(function="main", args=tuple(graph.args), inputs=lambda _=0: inputs)
    found = culprits.of_finding(finding, program.text, shape, config)
    matches = upstream.for_finding(finding, program.text)
    judged = spec_of(finding.oracle)
    compares_outputs = judged.reproduce(finding.kind) == "outputs"
    rtol, atol = _numeric_tolerance(graph, inputs, sizes) if compares_outputs else (0.0, {})
    script = run_script(
        finding,
        graph,
        flags,
        rtol=rtol,
        atol=atol,
        error_message=_crash_message(finding, program.text),
        data_movement=_data_movement(artifact),
        outputs=[expected[f"jax_{k}"] for k in range(len(graph.outputs))],
    )
    record = (
        finding.to_json()
        | dict(extra or {})
        | {
            "compiler_version": facts["version"],
            "cpu": facts["cpu"],
            "cpu_features": facts["features"],
            "flags": flags,
            "instance": dict(sizes),
            "culprit": found.to_json(),
            "upstream": [dataclasses.asdict(m) for m in matches],
            "signature_of_program": finding.signature,
        }
    )
    text = issue_text(finding, case, program.text, artifact, facts, flags, inputs, expected, sizes) if issue else None
    if text is not None:
        text = _with_measured(text, found, matches, finding)
    return Bundle(
        program=program.text,
        finding=record,
        case=case.to_json(),
        inputs=inputs,
        expected=expected,
        run_sh=script,
        inputs_after=inputs_after_module(graph) if judged.reproduce(finding.kind) == "inputs-after" else None,
        issue=text,
    )


def make_program_bundle(finding: Finding, case: Any, config: Any = None) -> Bundle:
    """The Bundle for ``finding`` on a raw program's function (``frontends.ProgramCase``): its inputs, the
    float64 interpreter's outputs as the reference (``f64_<k>``; ``ref_<k>`` at the output dtypes, which
    ``run.sh`` compares with), ``run.sh`` and ``ISSUE.md`` (a compile-only case: no inputs nor reference).
    No recompile: the platform is the finding's."""
    from ireefuzz import sut
    from ireefuzz.core import frontends

    config = config if config is not None else sut.CompilerConfig()
    flags = sut.config_for(case, config).flags
    bad = sut.unsafe_flags(flags)
    if bad:
        raise UsageError(f"{finding.signature}: refusing flags that write files or are malformed: {bad}")
    ran = case.args is not None  # else compile only: no inputs, no reference
    inputs = case.inputs(0) if ran else []
    results = case.signature.results
    reference = frontends.reference_outputs(case.program, case.function, inputs) if ran else None
    expected: dict[str, np.ndarray] = {}
    if reference is not None and not isinstance(reference, frontends.NotJudged):  # None: not run
        for k, (y, (_, dtype)) in enumerate(zip(reference.outputs, results)):
            expected[f"f64_{k}"] = np.asarray(y)
            expected[f"ref_{k}"] = np.asarray(y).astype(frontends.numpy_dtype(dtype) or np.float64)
    platform = dict(finding.evidence.get("platform") or {})
    judged = spec_of(finding.oracle)
    reproduce = judged.reproduce(finding.kind)
    cpu = platform.get("cpu") if reproduce in COMPILE_ONLY_BODIES else case.target_cpu
    all_flags = sut.target_flags(cpu or case.target_cpu, flags)
    shape = dataclasses.make_dataclass("Shape", ["args", "outputs"])(case.args or (), results)
    ev = finding.evidence
    dtypes = {dtype for _, dtype in results if dtype in ("f16", "bf16", "f32", "f64")}
    atol = {d: float(ev.get("tolerance") or 0.0) for d in dtypes} if judged.blames == "iree" else {}
    script = run_script(
        finding,
        shape,
        all_flags,
        rtol=float(ev.get("rtol") or 0.0),
        atol=atol,
        error_message=_crash_message(finding, case.program) or str(ev.get("message") or finding.message),
        function=case.function,
        outputs=[expected[f"ref_{k}"] for k in range(len(results)) if f"ref_{k}" in expected],
    )
    record = finding.to_json() | {
        "compiler_version": platform.get("compiler_version", ""),
        "cpu": cpu,
        "flags": all_flags,
        "function": case.function,
    }
    return Bundle(
        program=case.program,
        finding=record,
        case=None,
        inputs=inputs,
        expected=expected,
        run_sh=script,
        inputs_after=program_inputs_after(case) if reproduce == "inputs-after" else None,
        issue=program_issue_text(finding, case, platform, all_flags, inputs, expected),
    )


_VM_MODULE = re.compile(r"^\s*(?:builtin\.)?module\s+@([\w$.-]+)", re.M)


def _with_measured(text: str, found: Any, matches: Sequence[Any], finding: Finding) -> str:
    """ISSUE.md with the measured culprit (phase, pass, how; IR before / after) and the upstream matches."""
    from ireefuzz.tools.filing import upstream

    lines = ["## Culprit", ""]
    if found.pass_:
        lines += [f"Phase `{found.phase or '?'}`, pass **`{found.pass_}`**: {found.how}.", ""]
        for title, ir_text in (("IR the pass received", found.ir_before), ("IR after it", found.ir_after)):
            if ir_text:
                body = [x if len(x) <= 240 else x[:240] + " ...(cut)" for x in ir_text.strip().splitlines()]
                lines += [f"{title}:", "", "```mlir", *body[:60], *(["// ..."] if len(body) > 60 else []), "```", ""]
    else:
        lines += [f"Not localized to a pass: {found.how.removeprefix('not localized: ')}.", ""]
    lines += upstream.issue_section(matches)
    at = text.find("## Bisection")
    return text[:at] + "\n".join(lines) + text[at:] if at >= 0 else text + "\n".join(lines)


def program_inputs_after(case: Any) -> str:
    """``inputs_after.mlir`` for a raw program's function: the wrapper calls it in the program's VM module
    (named by a top-level ``module @name``, else ``module``) at the function's own argument types."""
    named = _VM_MODULE.search(case.program)
    types = lambda values: [tensor_type(TensorType(tuple(shape), dtype)) for shape, dtype in values]
    return wrapper_module(
        f"{named.group(1) if named else 'module'}.{case.signature.name}",
        types(case.signature.args),
        types(case.signature.results),
    )


def program_issue_text(
    finding: Finding,
    case: Any,
    platform: Mapping[str, str],
    flags: Sequence[str],
    inputs: Sequence[np.ndarray],
    expected: Mapping[str, np.ndarray],
) -> str:
    """ISSUE.md for a raw program's finding: what happened, against what reference, how to reproduce."""
    shapes = ", ".join(f"a{i}: {x.dtype}{list(x.shape)}" for i, x in enumerate(inputs))
    reference = (
        (
            "The float64 reference interpreter (`ireefuzz.oracles.interpret`) gives `expected.npz` (`f64_<k>`; "
            "`ref_<k>` at the output dtypes); IREE's outputs must match it within the error bound "
            "(integers exactly)."
        )
        if spec_of(finding.oracle).blames == "iree" and spec_of(finding.oracle).reproduce(finding.kind) == "outputs"
        else spec_of(finding.oracle).expected
    )
    lines = [
        f"# [CPU] @{case.function}: {finding.kind} ({finding.signature.split('/')[2]})",
        "",
        "## What happens",
        "",
        f"ireefuzz: `{finding.message}`",
        "",
        "## What was expected",
        "",
        reference,
        "",
        "## Environment",
        "",
        f"- IREE compiler: `{platform.get('compiler_version', '?')}`",
        f"- Target: llvm-cpu, CPU `{platform.get('cpu') or case.target_cpu}`",
        f"- Flags: `{' '.join(flags)}`",
        "",
        "## Reproduce",
        "",
        "```sh",
        shlex.join(
            sut.compile_command(sut.CompilerConfig(), "program.mlir", "module.vmfb", binary="iree-compile", flags=flags)
        ),
        "./run.sh   # exit status 1 = reproduces, 0 = does not, 2 = could not tell",
        "```",
        "",
        "## Program",
        "",
        f"Function `@{case.function}`; inputs (`inputs.npz`, one `.npy` each under `inputs/`): {shapes or 'none'}",
        "",
        "```mlir",
        case.program.rstrip(),
        "```",
        "",
    ]
    lines += _evidence_section(finding, finding.evidence, None, inputs, expected)
    lines += ["---", f"Found by ireefuzz; signature `{finding.signature}`.", ""]
    return "\n".join(lines)


def _bundle_cpu(finding: Finding, case: Case, facts: Mapping[str, str]) -> str:
    """The CPU run.sh compiles for: what ``host`` resolved to where the finding was made when only the IR
    matters (memory, fusion, compile crashes), else the CPU the case asked for (the code must run here)."""
    compile_only = spec_of(finding.oracle).reproduce(finding.kind) in COMPILE_ONLY_BODIES
    return facts["cpu"] if compile_only and facts["cpu"] else case.target_cpu


def _numeric_tolerance(
    graph: Any, inputs: Sequence[np.ndarray], sizes: Mapping[str, int]
) -> tuple[float, dict[str, float]]:
    """(rtol, atol per float dtype) for run.sh: the numeric oracle's rtol, and its error-bound term at the
    widest element (iree-run-module takes one absolute tolerance per dtype)."""
    from ireefuzz.oracles import numeric, reference

    _, bounds = reference.evaluate_with_bounds(graph, inputs, sizes)
    atol: dict[str, float] = {}
    for ref, bound in zip(graph.outputs, bounds):
        dtype = graph.type_of(ref).dtype
        if dtype in ("f32", "f16", "f64", "bf16"):
            widest = float(np.max(np.nan_to_num(np.asarray(bound, dtype=np.float64)), initial=0.0))
            atol[dtype] = max(atol.get(dtype, 0.0), numeric.BOUND_MARGIN * widest + 1e-30)
    return numeric.tolerance(graph, sizes), atol


def _data_movement(artifact: Any) -> list[str]:
    """The dispatches whose own op moves data (``memory.moves_data``): their copies between bindings are not
    findings."""
    from ireefuzz.oracles.memory import moves_data

    return [d.name for d in getattr(artifact, "dispatches", ()) if moves_data(d)]


def _crash_message(finding: Finding, program_text: str) -> str:
    if spec_of(finding.oracle).reproduce(finding.kind) != "compile-error":
        return ""
    from ireefuzz.oracles.crash import locate

    return locate(program_text, str(finding.evidence.get("diagnostic", "")))[3]


def _facts(artifact: Any, config: Any) -> dict[str, str]:

    version = getattr(artifact, "compiler_version", "") or sut.compiler_version(sut.find_iree_compile(config))
    cpu = getattr(artifact, "cpu", None)
    if cpu is None or not cpu.name:  # a failed compile names no CPU: the probe module does
        cpu = sut.resolve_platform(config)[0]
    features = ",".join(dict.fromkeys(f for f in (cpu.features or "").split(",") if f.startswith("+")))
    return {"version": version, "cpu": cpu.name, "features": features}


# --------------------------------------------------------------------------- first pass


# "// -----// IR Dump After Name: arg{options} //----- //" (3.x) or "... After Name (arg) ('op' operation) ..." (older)
_DUMP_HEADER = re.compile(r"^// -----// IR Dump After (\w+):? ?\(?([\w.-]*).*//----- //$", re.M)


def first_pass_with(program_text: str, marker: str, config: Any) -> str | None:
    """The first pass whose output contains ``marker`` (e.g. ``memref.alloca``), via --mlir-print-ir-after-change."""
    text = sut.ir_after_each_change(program_text, config)
    if not isinstance(text, str):
        return None
    headers = list(_DUMP_HEADER.finditer(text))
    for h, nxt in zip(headers, headers[1:] + [None]):
        body = text[h.end() : nxt.start() if nxt else len(text)]
        if marker in body:
            name, arg = h.group(1), h.group(2)
            return f"{name} ({arg})" if arg else name
    return None


# --------------------------------------------------------------------------- ISSUE.md


def issue_text(
    finding: Finding,
    case: Case,
    program_text: str,
    artifact: Any,
    facts: Mapping[str, str],
    flags: Sequence[str],
    inputs: Sequence[np.ndarray],
    expected: Mapping[str, np.ndarray],
    sizes: Mapping[str, int],
) -> str:
    ev = dict(finding.evidence)
    graph = case.graph
    renamed = ""
    if "dispatch" in ev:  # the finding came from a batch module (functions g<i>); the bundle's function is @main
        original, ev["dispatch"] = ev["dispatch"], re.sub(r"^\w+?_dispatch_", "main_dispatch_", str(ev["dispatch"]))
        if original != ev["dispatch"]:
            renamed = f"(The finding names it `{original}`: the function it was found in is this program's `@main`.)"
    title = _title(finding, graph)
    judged = spec_of(finding.oracle)
    what = judged.happened.format(
        kind=finding.kind,
        dispatch=ev.get("dispatch", "?"),
        pipeline=ev.get("pipeline", "?"),
        argument=ev.get("argument", "?"),
        message=finding.message,
        reference=_reference_agreement(expected),
    )
    lines = [
        f"# {title}",
        "",
        "## What happens",
        "",
        what,
        *([renamed] if renamed else []),
        "",
        f"ireefuzz: `{finding.message}`",
        "",
        "## What was expected",
        "",
        judged.expected,
        "",
        "## Environment",
        "",
        f"- IREE compiler: `{facts['version']}`",
        f"- Target: llvm-cpu, CPU `{facts['cpu'] or 'host'}` (resolved from `{case.target_cpu}`)",
        f"- CPU features: `{facts['features'] or '-'}`",
        f"- Flags: `{' '.join(flags)}`",
        "",
        "## Reproduce",
        "",
        "```sh",
        shlex.join(
            sut.compile_command(sut.CompilerConfig(), "program.mlir", "module.vmfb", binary="iree-compile", flags=flags)
        ),
        "./run.sh   # exit status 1 = reproduces, 0 = does not, 2 = could not tell; needs only "
        "iree-compile / iree-run-module",
        "```",
        "",
    ]
    if judged.reproduce(finding.kind) == "inputs-after":
        lines += [
            "`iree-run-module` copies `--input` files into fresh buffers and never shows them again, so "
            f"`run.sh` also compiles `{INPUTS_AFTER}`: a second module whose `@{INPUTS_AFTER_FUNCTION}` calls "
            "`@main` across the module boundary (so the arguments are the caller's buffers) and returns the "
            "arguments after the call; `iree-run-module --expected_output=@inputs/a<i>.npy "
            "--equality_mode=exact` then shows the overwritten one.",
            "",
        ]
    shapes = ", ".join(f"a{i}: {x.dtype}{list(x.shape)}" for i, x in enumerate(inputs))
    lines += [
        "## Minimal program",
        "",
        f"Inputs (`inputs.npz`, one `.npy` each under `inputs/`): {shapes}"
        + (f"; dynamic sizes {dict(sizes)}" if sizes else ""),
        "",
        "```mlir",
        program_text.rstrip(),
        "```",
        "",
    ]
    lines += _evidence_section(finding, ev, artifact, inputs, expected)
    lines += [
        "## Bisection",
        "",
        "Not run yet (`ireefuzz bisect <this directory>`).",
        "",
        "---",
        f"Found and minimized by ireefuzz; signature `{finding.signature}`.",
        "",
    ]
    return "\n".join(lines)


def _reference_agreement(expected: Mapping[str, np.ndarray]) -> str:
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


def _title(finding: Finding, graph: Any) -> str:
    return spec_of(finding.oracle).title.format(
        oracle=finding.oracle, kind=finding.kind, ops=graph.op_pattern, type=repr(graph.type_of(graph.outputs[0]))
    )


def _evidence_section(
    finding: Finding,
    ev: Mapping[str, Any],
    artifact: Any,
    inputs: Sequence[np.ndarray],
    expected: Mapping[str, np.ndarray],
) -> list[str]:
    out = ["## Evidence", ""]
    reproduce = spec_of(finding.oracle).reproduce(finding.kind)
    if reproduce == "memory-ops":
        marker = MEMORY_MARKERS.get(finding.kind, "memref.alloca")
        ir_of = lambda d: d.final_ir if finding.kind != "copy" else d.bufferized_ir
        suffix = str(ev.get("dispatch", "")).partition("_dispatch_")[2]  # the finding may name another function
        from ireefuzz.tools.filing.culprit import memory_holds

        holds = memory_holds(finding.kind)  # as the oracle counts it: a copy-shaped linalg.generic is a copy too
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
        excerpt = next((_excerpt(text, k) for k in markers if k and k in text), None) if text else None
        out += [
            "",
            "```mlir",
            *(
                excerpt or _excerpt(text, marker)
                if text
                else [json.dumps(dict(ev), indent=1, sort_keys=True, default=json_default)[:3000]]
            ),
            "```",
            "",
        ]
    elif reproduce == "inputs-after":
        i = ev.get("argument")
        out += [
            f"Argument {i}: {ev.get('changed_elements')} elements changed; first at index {ev.get('first_index')}: "
            f"`{ev.get('before')}` before the call, `{ev.get('after')}` after.",
            "",
        ]
    elif reproduce in ("compile-error", "run-fault"):
        out += ["```", str(ev.get("diagnostic") or ev.get("message") or finding.message)[:3000], "```", ""]
    else:
        out += ["```json", json.dumps(dict(ev), indent=1, sort_keys=True, default=json_default)[:3000], "```", ""]
        if expected:
            ref = {k: np.asarray(v).ravel()[:8].tolist() for k, v in expected.items()}
            out += [f"Reference outputs (first elements): `{ref}`", ""]
    return out


def _excerpt(text: str, marker: str, limit: int = 40) -> list[str]:
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
