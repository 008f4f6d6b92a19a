"""Filed-ready bundles for a user's own program (``ireefuzz check PROGRAM.mlir --bundle DIR``).

For each cause the check finds (one folder each, ``DIR/<cause>``, and ``DIR/index.md`` listing them):
the program reduced at IR level under the cause (``ireefuzz.tools.shrink.mlir``), with each argument init the
experiments' ``tensor.empty`` variant fails the same way without replaced and the arguments, results and functions
that frees dropped, printed readably;
its inputs and reference outputs as ``.npy``; ``run.sh``; the culprit pass (``culprit``) with the IR it
received and produced; the likely upstream duplicates (``upstream``); an ``iree-run-module
--expected_output`` lit test and a pass-level ``iree-opt | FileCheck`` test in the forms IREE's test
directories use, each shipped only if it fails with the bug present for the bug's reason (``lit_tests``);
and ``ISSUE.md`` (``report``: the one bundle maker and ISSUE.md writer), which states only what was
measured. ``run.sh`` is run ``CONFIRM_RUNS`` times in a clean
environment: a bundle whose ``run.sh`` does not exit 1 every time gets no ``ISSUE.md``.
"""

from __future__ import annotations

import dataclasses
import json
import os
import re
import sys
import tempfile
from pathlib import Path
from typing import TYPE_CHECKING, Any, Callable, Sequence

import numpy as np

from ireefuzz import sut
from ireefuzz.base.durable import atomic_write_text, slug
from ireefuzz.errors import IRParseError, ProgramError, UsageError
from ireefuzz.oracles.finding import Finding
from ireefuzz.oracles.registry import spec_of
from ireefuzz.tools.filing import culprit as culprits
from ireefuzz.tools.filing import experiments as experimenting
from ireefuzz.tools.filing import lit_tests, report, upstream
from ireefuzz.tools.filing.bundle import CULPRIT_AFTER, CULPRIT_BEFORE, Bundle, run_bundle
from ireefuzz.tools.shrink import mlir as reducing
from ireefuzz.tools.shrink.target import Target, cause_id

if TYPE_CHECKING:
    from ireefuzz.core.frontends import ProgramCase
    from ireefuzz.core.policy import Policy

CONFIRM_RUNS = 3
PORTABLE_CPUS = report.PORTABLE_CPUS
# The reducer's passes that remove what an adopted ``tensor.empty`` init frees: arguments, results, functions.
FREED = tuple(
    p for p in reducing.PASSES if p[0] in ("drop-unused-arguments", "drop-function-results", "split-functions")
)
OP_LINE = re.compile(r"^\s*(?:%[\w.:#, %]+ = )?([a-z_]+\.[\w.]+)\b", re.M)


def ops_in(text: str) -> list[str]:
    """The non-trivial ops of a program's function bodies (no constants, empties, dims, returns, region bodies)."""
    module = reducing.parse(text)
    if module is None:
        return []
    trivial = {"arith.constant", "tensor.empty", "tensor.dim", "func.return", "util.return"}
    return [op.name for op in reducing._body_ops(module) if op.name not in trivial]


@dataclasses.dataclass(frozen=True)
class Written:
    path: Path
    cause: str
    signature: str
    ops: list[str]
    run_exits: list[int | None]
    culprit: culprits.Culprit
    upstream: list[upstream.Match]
    reduced: bool
    cpus: tuple[str, ...] = ()  # the CPUs of ``PORTABLE_CPUS`` it reproduces on, least specific first

    def line(self) -> str:
        where = self.culprit.pass_ or "not localized"
        dup = self.upstream[0].line() if self.upstream else "no upstream match"
        return (
            f"`{self.cause}`: {len(self.ops)} op(s) ({', '.join(self.ops) or '-'}); run.sh {self.run_exits}; "
            f"culprit {self.culprit.phase or '-'} / {where}; CPUs {', '.join(self.cpus) or '-'}; {dup}"
        )


def write_cause(
    finding: Finding,
    program: str,
    case: ProgramCase,
    config: sut.CompilerConfig,
    out: Path,
    *,
    reduction: Any = None,
    log: Callable[[str], None] = lambda m: None,
    experiments: int = experimenting.MAX_EXPERIMENTS,
    cpus: Sequence[str] = (),
    adopted: Sequence[str] = (),
) -> Written:
    """The bundle of ``finding`` on the (reduced) ``program``'s function ``case``, in ``out`` (``report.make_bundle``):
    the culprit, the upstream matches, the lit tests, run.sh ``CONFIRM_RUNS`` times and, for a confirmed one, up to
    ``experiments`` IR-level variants (``filing.experiments``), all stated in ISSUE.md by ``report.issue_text``."""
    subject = report.program_subject(finding, case, config)
    cfg = sut.config_for(case, config)
    log(f"localizing {finding.signature}")
    found = culprits.of_finding(finding, program, case, cfg)
    matches = upstream.for_finding(finding, program, cause_id(finding), culprit=found)
    ops = ops_in(program)
    extra = {
        "upstream": [dataclasses.asdict(m) for m in matches],
        "ops": ops,
        "cause": cause_id(finding),
        "reproduces_on": list(cpus),
        "reduction": (
            {
                "steps": list(reduction.steps),
                "before": list(reduction.before),
                "after": list(reduction.after),
                "tensor_empty_inits": list(adopted),
            }
            if reduction is not None
            else None
        ),
    }
    made: Bundle = report.make_bundle(
        finding, subject, extra=extra, measured=report.Measured(culprit=found), issue=False
    )
    path = made.dump(out)
    flags = list(made.finding.get("flags") or ())
    run_test = lit_tests.run_module_test(program, case.function, flags, made.expected, len(made.inputs), made.finding)
    log("running the lit tests")
    tests = lit_tests.write(
        path,
        {
            lit_tests.PASS_TEST: lit_tests.pass_tests(found, made.finding),
            lit_tests.RUN_TEST: run_test,
            lit_tests.UPSTREAM_TEST: lit_tests.upstream_test(found),
        },
        lit_tests.Symptom.of_finding(made.finding),
        lit_tests.stock_tools(cfg),
    )
    made.finding["lit_tests"] = [t.to_json() for t in tests]
    exits = []
    for _ in range(CONFIRM_RUNS):
        code, output = run_bundle(path, config)
        exits.append(code)
    nan_inputs = [i for i, x in enumerate(made.inputs) if np.asarray(x).dtype.kind == "f" and np.isnan(x).any()]
    inputs_check = {"nan_inputs": nan_inputs, "reference_ran": any(k.startswith("ref_") for k in made.expected)}
    made.finding["inputs_check"] = inputs_check
    made.finding["run_sh"] = {"exits": exits, "output": portable(output)[-600:]}  # a cut path is no path
    made.finding["confirm"] = f"{exits.count(1)}/{CONFIRM_RUNS}"
    confirmed = exits.count(1) == CONFIRM_RUNS
    tried = None
    if experiments and confirmed:
        goal = Target.by_cause(cause_id(finding), finding.oracle)
        table = experimenting.run_experiments(case, goal, config, limit=experiments, log=log)
        tried = experimenting.with_culprit(experimenting.record(table), found.pass_)
        made.finding["experiments"] = tried
    if confirmed:
        measured = report.Measured(found, matches, True, tests, exits, cpus, inputs_check, ops, tried)
        made.issue = report.issue_text(finding, subject, measured)
    else:
        log(f"run.sh exits {exits}, not 1 every time: no ISSUE.md")
    made.finding = portable(made.finding)
    made.issue = portable(made.issue) if made.issue is not None else None
    made.dump(out)
    for name in (CULPRIT_BEFORE, CULPRIT_AFTER, *lit_tests.KINDS):
        if (path / name).exists():
            atomic_write_text(path / name, portable((path / name).read_text()))
    return Written(
        path, cause_id(finding), finding.signature, ops, exits, found, matches, reduction is not None, tuple(cpus)
    )


_WORK_DIR = re.compile(re.escape(tempfile.gettempdir().rstrip("/")) + r"/ireefuzz-[\w.-]+/")
_MACHINE_ROOTS = tuple(
    sorted(
        {os.path.realpath(sys.prefix), sys.prefix, os.path.expanduser("~"), os.getcwd(), tempfile.gettempdir()},
        key=len,
        reverse=True,
    )
)


_INSTALLED = re.compile(r"[^\s'\"]*site-packages/(?:[^\s'\"]*/)?([^\s'\"/]+)")


def portable(value: Any) -> Any:
    """``value`` (text, or JSON made of text) naming no path of this machine: a work directory's files by their
    own name, a file under this Python, the home or the working directory by its base name (``iree-compile``)."""
    if isinstance(value, str):
        value = _WORK_DIR.sub("", value)
        value = _INSTALLED.sub(r"\1", value)  # a file of an installed package (also a cut path's tail)
        for root in _MACHINE_ROOTS:
            if root not in ("", "/"):
                value = re.sub(re.escape(root) + r"/(?:[^\s'\"]*/)?([^\s'\"/]+)", r"\1", value)
        return value
    if isinstance(value, list):
        return [portable(v) for v in value]
    if isinstance(value, dict):
        return {k: portable(v) for k, v in value.items()}
    return value


def bundle_program(
    text: str,
    config: sut.CompilerConfig,
    out: str | Path,
    *,
    shapes: Any = None,
    seed: int = 0,
    reduce: bool = True,
    max_candidates: int = 80,
    policy: Policy | None = None,
    log: Callable[[str], None] = lambda m: None,
    cpus: Sequence[str] = (),
) -> list[Written]:
    """One bundle per cause ``ireefuzz check`` finds in ``text``, under ``out`` (``out/<cause>``), and
    ``out/index.md``. With ``cpus`` (least specific first), the reduced program is checked on each and
    bundled for the first that reproduces its cause (a bundle that runs on most machines)."""
    from ireefuzz.tools.check import check_results

    out = Path(out)
    results = check_results(text, config, policy, shapes=shapes, seed=seed)
    by_cause: dict[str, tuple[Finding, Any]] = {}
    for r in results:
        for f in r.findings:
            by_cause.setdefault(cause_id(f), (f, r.case))
    written = []
    for cause, (finding, case) in by_cause.items():
        program, reduction = text, None
        if reduce:
            log(f"reducing under {Target.by_cause(cause, finding.oracle)}")
            try:
                reduction = _reduced(text, finding, config, policy, seed, shapes, max_candidates)
                program = reducing.readable(reduction.text)
            except Exception as e:  # noqa: BLE001 -- not reproduced under reduction: bundle the program as given
                log(f"not reduced ({e}); bundled as given")
        if program != text:
            again = []
            for given in shape_tries(program, shapes):  # as the reduction judged it
                try:
                    again = [
                        (f, r.case)
                        for r in check_results(program, config, policy, seed=seed, shapes=given)
                        for f in r.findings
                        if cause_id(f) == cause
                    ]
                except Exception:  # noqa: BLE001 -- the shapes no longer fit the reduced program
                    again = []
                if again:
                    break
            if again:
                finding, case = again[0]
            else:
                program, reduction = text, None
        adopted: list[str] = []
        if reduce:
            program, adopted = empty_inits(
                program, lambda t: bool(_findings_of(t, cause, config, policy, seed, shapes))
            )
        if adopted:  # the arguments they freed go, and with them results and functions nothing needs
            log(f"the experiments' tensor.empty variants fail the same way: {', '.join(adopted)}")
            try:  # only removals: drop-ops would turn the tensor.empty back into an argument
                again_reduced = _reduced(program, finding, config, policy, seed, shapes, max_candidates, FREED)
                program = reducing.readable(again_reduced.text)
            except Exception as e:  # noqa: BLE001 -- kept as adopted
                log(f"not reduced further ({e})")
            found_again = _findings_of(program, cause, config, policy, seed, shapes)
            if found_again:
                finding, case = found_again[0]
        config_for_program = needed_flags(program, cause, config, policy, seed, shapes)
        if config_for_program.flags != config.flags:
            dropped = [f for f in config.flags if f not in config_for_program.flags]
            log(f"the reduced program fails the same way without {' '.join(dropped)}: bundled without them")
            found_plain = _findings_of(program, cause, config_for_program, policy, seed, shapes)
            finding, case = found_plain[0] if found_plain else (finding, case)
        chosen, on = (
            config_for_program,
            reproducing_cpus(program, cause, config_for_program, policy, seed, shapes, cpus),
        )
        if on:
            chosen = dataclasses.replace(config_for_program, target_cpu=on[0])
            found_there = _findings_of(program, cause, chosen, policy, seed, shapes)
            if found_there:
                finding, case = found_there[0]
            else:
                chosen = config_for_program
        log(f"reproduces on {on or '-'} of {list(cpus)}; bundled for {chosen.target_cpu}")
        written.append(
            write_cause(
                finding,
                program,
                case,
                chosen,
                out / slug(cause),
                reduction=reduction,
                log=log,
                cpus=on,
                adopted=adopted,
            )
        )
    write_index(out, written)
    return written


def empty_inits(program: str, shows_cause: Callable[[str], bool]) -> tuple[str, list[str]]:
    """``program`` with, one at a time, each function argument that an op takes as its destination replaced by the
    experiments' ``tensor.empty`` variant (``experiments.with_empty_init``) wherever that variant still shows the cause
    (``shows_cause``): the argument is then unused, for the reducer to drop (a dynamic one, whose sizes the variant
    still reads, stays). Returns it and the variants taken."""
    taken: list[str] = []
    tried: set[str] = set()
    while True:
        for site in experimenting.argument_inits(program):
            if site.dynamic:  # its variant still reads the argument's sizes: no argument would go
                continue
            label = f"@{site.function}:{site.op.split('.')[-1]}#{site.op_index}.outs=empty"
            text = experimenting.with_empty_init(program, site) if label not in tried else None
            tried.add(label)
            if text is not None and shows_cause(text):
                program = reducing.readable(text)
                taken.append(label)
                break
        else:
            return program, taken


def fitted_shapes(text: str, shapes: Any) -> Any:
    """``shapes`` (a positional ``--shapes`` given for the program as checked) for the arguments a reduced ``text``'s
    public function kept: each argument takes the next given shape whose rank and static dims fit it (an argument the
    reducer dropped leaves its shape unused); as given when the count already fits or they are per function; None when
    no function's arguments fit them."""
    from ireefuzz.core.frontends import signatures

    if shapes is None or not isinstance(shapes, (list, tuple)):
        return shapes
    try:
        sigs = signatures(text)
    except (ProgramError, IRParseError, ValueError):
        return None
    if any(len(sig.args) == len(shapes) for sig in sigs):
        return shapes
    fits = lambda arg, given: len(arg) == len(given) and all(d is None or d == g for d, g in zip(arg, given))
    for sig in sigs:
        left, kept = iter(shapes), []
        for arg, _ in sig.args:
            given = next((g for g in left if fits(arg, tuple(g))), None)
            if given is None:
                break
            kept.append(given)
        else:
            return kept
    return None


def shape_tries(text: str, shapes: Any) -> tuple[Any, ...]:
    """The shapes to check ``text`` with, in turn: the given ones fitted to its arguments (``fitted_shapes``), then
    none (every dynamic dim at the default size)."""
    fitted = fitted_shapes(text, shapes)
    return (fitted, None) if fitted is not None else (None,)


def _findings_of(
    program: str, cause: str, config: sut.CompilerConfig, policy: Policy | None, seed: int, shapes: Any
) -> list[tuple[Finding, Any]]:
    """``check``'s findings of ``cause`` on ``program`` under ``config`` (with the given shapes while they fit)."""
    from ireefuzz.tools.check import check_results

    for given in shape_tries(program, shapes):
        try:
            found = [
                (f, r.case)
                for r in check_results(program, config, policy, seed=seed, shapes=given)
                for f in r.findings
                if cause_id(f) == cause
            ]
        except (UsageError, ProgramError, IRParseError):  # the shapes no longer fit, or this CPU cannot build it
            found = []
        if found:
            return found
    return []


def needed_flags(
    program: str, cause: str, config: sut.CompilerConfig, policy: Policy | None, seed: int, shapes: Any
) -> sut.CompilerConfig:
    """``config`` without each of its extra flags (``--iree-opt-level=O3``, ...) that the reduced ``program`` does not
    need to show ``cause``, one at a time: the bundle's command line holds only what matters."""
    for flag in config.flags:
        fewer = dataclasses.replace(config, flags=tuple(f for f in config.flags if f != flag))
        if _findings_of(program, cause, fewer, policy, seed, shapes):
            config = fewer
    return config


def reproducing_cpus(
    program: str,
    cause: str,
    config: sut.CompilerConfig,
    policy: Policy | None,
    seed: int,
    shapes: Any,
    cpus: Sequence[str],
) -> tuple[str, ...]:
    """The CPUs of ``cpus`` on which ``check`` finds ``cause`` in ``program``, in their order."""
    return tuple(
        cpu
        for cpu in cpus
        if _findings_of(program, cause, dataclasses.replace(config, target_cpu=cpu), policy, seed, shapes)
    )


def _reduced(
    program: str,
    finding: Finding,
    config: sut.CompilerConfig,
    policy: Policy | None,
    seed: int,
    shapes: Any,
    max_candidates: int,
    passes: Sequence[Any] = reducing.PASSES,
) -> Any:
    """``program`` reduced under ``finding``'s cause, judged as ``check`` judges it, by ``passes``."""
    run = spec_of(finding.oracle).reads_run(finding.kind)
    return reducing.reduce_mlir(
        program,
        Target.by_cause(cause_id(finding), finding.oracle),
        config=config,
        max_candidates=max_candidates,
        run=run,
        interesting=_findings_as_checked(config, policy, seed, shapes, run),
        passes=passes,
        undefined=lambda text: reducing.undefined_values(text, fitted_shapes(text, shapes), seed),
    )


def _findings_as_checked(
    config: sut.CompilerConfig, policy: Policy | None, seed: int, shapes: Any, run: bool
) -> Callable[[str], Sequence[Finding]]:
    """A candidate's findings as ``check`` found the program's: the same oracles, input seed and (while the
    argument count fits) shapes; compile-only oracles without running when the cause needs no run."""
    from ireefuzz.tools.check import check_program

    def findings(text: str) -> Sequence[Finding]:
        if not run:
            return reducing.program_findings(text, config)
        for given in shape_tries(text, shapes):
            try:
                return check_program(text, config, policy, seed=seed, shapes=given)
            except ProgramError:
                continue
            except (ValueError, TypeError):  # shapes that fit no longer (a reshaped candidate): not this one
                continue
        return ()

    return findings


def write_index(out: Path, written: Sequence[Written]) -> Path:
    lines = [
        "# ireefuzz bundles",
        "",
        f"{len(written)} cause(s), one folder each; every line: ops, run.sh exit "
        "statuses (1 = the bug is seen), culprit phase / pass, upstream match.",
        "",
    ]
    lines += [f"- [{w.path.name}]({w.path.name}/ISSUE.md) {w.line()}" for w in written]
    out.mkdir(parents=True, exist_ok=True)
    atomic_write_text(out / "index.md", "\n".join(lines) + "\n")
    atomic_write_text(
        out / "index.json",
        json.dumps(
            [
                {
                    "cause": w.cause,
                    "signature": w.signature,
                    "folder": w.path.name,
                    "ops": w.ops,
                    "run_sh": w.run_exits,
                    "culprit": w.culprit.to_json(),
                    "upstream": [m.line() for m in w.upstream],
                }
                for w in written
            ],
            indent=1,
        )
        + "\n",
    )
    return out / "index.md"


def main(args: Any, text: str, config: sut.CompilerConfig, policy: Policy, shapes: Any) -> int:
    """``ireefuzz check PROGRAM.mlir --bundle DIR``: exit 1 when a bundle was written (findings), else 0."""
    written = bundle_program(
        text,
        config,
        args.bundle,
        shapes=shapes,
        seed=args.seed,
        policy=policy,
        log=lambda m: print(f"ireefuzz check: {m}", flush=True),
        cpus=PORTABLE_CPUS,  # the least specific that reproduces the reduced program; else the CPU asked for
    )
    for w in written:
        print(f"{w.path}: {w.line()}")
    print(f"{len(written)} bundle(s); index: {Path(args.bundle) / 'index.md'}")
    return 1 if written else 0
