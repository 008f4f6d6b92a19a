"""Filed-ready bundles for a user's own program (``ireefuzz check PROGRAM.mlir --bundle DIR``).

For each cause the check finds (one folder each, ``DIR/<cause>``, and ``DIR/index.md`` listing them):
the program reduced at IR level under the cause (``ireefuzz.tools.shrink.mlir``), printed readably;
its inputs and reference outputs as ``.npy``; ``run.sh``; the culprit pass (``culprit``) with the IR it
received and produced; the likely upstream duplicates (``upstream``); an ``iree-run-module
--expected_output`` lit test and a pass-level ``iree-opt | FileCheck`` test in the forms IREE's test
directories use, each shipped only if it fails with the bug present for the bug's reason (``lit_tests``);
and ``ISSUE.md``, which states only what was measured. ``run.sh`` is run ``CONFIRM_RUNS`` times in a clean
environment: a bundle whose ``run.sh`` does not exit 1 every time gets no ``ISSUE.md``.
"""

from __future__ import annotations

import dataclasses
import json
import re
from pathlib import Path
from typing import Any, Callable, Mapping, Sequence

import numpy as np

from ireefuzz import sut
from ireefuzz.base.durable import atomic_write_text, slug
from ireefuzz.oracles.finding import Finding
from ireefuzz.tools.filing import culprit as culprits
from ireefuzz.tools.filing import experiments as experimenting
from ireefuzz.tools.filing import lit_tests, upstream
from ireefuzz.tools.filing.bundle import Bundle, run_bundle
from ireefuzz.tools.shrink import mlir as reducing
from ireefuzz.tools.shrink.target import Target, cause_id

CONFIRM_RUNS = 3
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

    def line(self) -> str:
        where = self.culprit.pass_ or "not localized"
        dup = self.upstream[0].line() if self.upstream else "no upstream match"
        return (
            f"`{self.cause}`: {len(self.ops)} op(s) ({', '.join(self.ops) or '-'}); run.sh {self.run_exits}; "
            f"culprit {self.culprit.phase or '-'} / {where}; {dup}"
        )


def write_cause(
    finding: Finding,
    program: str,
    case: Any,
    config: Any,
    out: Path,
    *,
    reduction: Any = None,
    log: Callable[[str], None] = lambda m: None,
    experiments: int = experimenting.MAX_EXPERIMENTS,
) -> Written:
    """The bundle of ``finding`` on the (reduced) ``program``'s function ``case``, in ``out``; a confirmed one with
    up to ``experiments`` IR-level variants run (``filing.experiments``: finding.json and ISSUE.md)."""
    from ireefuzz.tools.filing.repro import make_program_bundle

    made: Bundle = make_program_bundle(finding, case, config)
    cfg = sut.config_for(case, config)
    log(f"localizing {finding.signature}")
    found = culprits.of_finding(finding, program, case, cfg)
    matches = upstream.for_finding(finding, program, cause_id(finding))
    ops = ops_in(program)
    made.finding |= {
        "culprit": found.to_json(),
        "upstream": [dataclasses.asdict(m) for m in matches],
        "ops": ops,
        "cause": cause_id(finding),
        "reduction": (
            {"steps": list(reduction.steps), "before": list(reduction.before), "after": list(reduction.after)}
            if reduction is not None
            else None
        ),
    }
    path = made.dump(out)
    if found.ir_before:
        atomic_write_text(path / "culprit_before.mlir", found.ir_before + "\n")
    if found.ir_after:
        atomic_write_text(path / "culprit_after.mlir", found.ir_after + "\n")
    flags = list(made.finding.get("flags") or ())
    run_test = lit_tests.run_module_test(program, case.function, flags, made.expected, len(made.inputs), made.finding)
    log("running the lit tests")
    tests = lit_tests.write(
        path,
        {lit_tests.PASS_TEST: lit_tests.pass_tests(found, made.finding), lit_tests.RUN_TEST: run_test},
        lit_tests.Symptom.of_finding(made.finding),
        lit_tests.stock_tools(cfg),
    )
    made.finding["lit_tests"] = [t.to_json() for t in tests]
    exits = []
    for _ in range(CONFIRM_RUNS):
        code, output = run_bundle(path, config)
        exits.append(code)
    nan_inputs = [i for i, x in enumerate(made.inputs) if np.asarray(x).dtype.kind == "f" and np.isnan(x).any()]
    made.finding["inputs_check"] = {
        "nan_inputs": nan_inputs,
        "reference_ran": any(k.startswith("ref_") for k in made.expected),
    }
    made.finding["run_sh"] = {"exits": exits, "output": output[-600:]}
    made.finding["confirm"] = f"{exits.count(1)}/{CONFIRM_RUNS}"
    if exits.count(1) == CONFIRM_RUNS and made.issue is not None:
        made.issue = _issue(
            made.issue,
            finding,
            found,
            matches,
            program,
            ops,
            tests,
            exits,
            made.finding["inputs_check"],
        )
    else:
        log(f"run.sh exits {exits}, not 1 every time: no ISSUE.md")
        made.issue = None
    if experiments and exits.count(1) == CONFIRM_RUNS:
        goal = Target.by_cause(cause_id(finding), finding.oracle)
        tried = experimenting.record(experimenting.run_experiments(case, goal, config, limit=experiments, log=log))
        made.finding["experiments"] = tried
        made.issue = experimenting.with_section(made.issue, tried) if made.issue is not None else None
    made.dump(out)
    return Written(path, cause_id(finding), finding.signature, ops, exits, found, matches, reduction is not None)


def _what(finding: Finding) -> str:
    """One line saying what happened: a crash's signal and first frames (from its cause), else the message's head."""
    cause = cause_id(finding)
    signal = re.match(r"crash/compile-crash/(SIG\w+)/(.*)", cause)
    if signal:
        frames = [
            f.rsplit(".", 2)[-2] + "::" + f.rsplit(".", 1)[-1] if f.count(".") > 1 else f
            for f in signal.group(2).split(">")[:2]
        ]
        return f"{signal.group(1)} in {' < '.join(frames)}"
    return finding.message.splitlines()[0][:100] if finding.message.strip() else cause


def _excerpt(text: str, limit: int = 60, width: int = 240) -> list[str]:
    """The first ``limit`` lines of ``text``, each cut at ``width`` characters (target attributes run to kilobytes)."""
    lines = [line if len(line) <= width else line[:width] + " ...(cut)" for line in text.strip().splitlines()]
    return lines[:limit] + (
        [f"// ... ({len(lines) - limit} more lines in the bundle's file)"] if len(lines) > limit else []
    )


def _issue(
    base: str,
    finding: Finding,
    found: culprits.Culprit,
    matches: Sequence[upstream.Match],
    program: str,
    ops: Sequence[str],
    tests: Sequence[lit_tests.Verdict],
    exits: Sequence[int | None],
    inputs_check: Mapping[str, Any] | None = None,
) -> str:
    """``base`` (what happens, expected, environment, reproduce, program, evidence) plus what was measured:
    the culprit with the IR before / after, the upstream matches, the tests, the confirmation."""
    title = (
        f"# [llvm-cpu] {finding.oracle} {finding.kind} on `{' + '.join(o.split('.')[-1] for o in ops) or 'program'}`"
        + (f" in `{found.pass_}`" if found.pass_ else "")
        + f": {_what(finding)}"
    )
    base = title + base[base.index("\n") :] if base.startswith("# ") else base
    tail_at = base.rfind("\n---\n")
    head, tail = (base[:tail_at], base[tail_at:]) if tail_at >= 0 else (base, "")
    lines = ["", "## Culprit", ""]
    if found.pass_:
        lines += [f"Phase `{found.phase or '?'}`, pass **`{found.pass_}`**: {found.how}.", ""]
        if found.ir_before:
            lines += [
                "IR the pass received (`culprit_before.mlir`):",
                "",
                "```mlir",
                *_excerpt(found.ir_before),
                "```",
                "",
            ]
        if found.ir_after:
            lines += ["IR after it (`culprit_after.mlir`):", "", "```mlir", *_excerpt(found.ir_after), "```", ""]
    else:
        lines += [
            f"Not localized to a pass: {found.how.removeprefix('not localized: ')}."
            + (f" Phase: `{found.phase}`." if found.phase else ""),
            "",
        ]
    lines += upstream.issue_section(matches)
    lines += lit_tests.issue_lines(tests)
    lines += [
        "## Confirmation",
        "",
        f"`run.sh` in a clean environment: exit statuses {list(exits)} "
        f"({list(exits).count(1)}/{len(exits)} show the bug). The program has {len(ops)} op(s): "
        f"{', '.join(f'`{o}`' for o in ops) or 'none'}."
        + (
            " The inputs hold no NaN"
            + (
                " and the float64 reference interpreter, which stops at undefined "
                "behaviour such as an out-of-bounds index, ran on them."
                if inputs_check.get("reference_ran")
                else "."
            )
            if inputs_check and not inputs_check.get("nan_inputs")
            else f" Inputs {inputs_check.get('nan_inputs')} hold NaN."
            if inputs_check
            else ""
        ),
        "",
        "## Bisection",
        "",
        "Not run yet (`ireefuzz bisect <this directory>`).",
        "",
    ]
    return head.rstrip() + "\n" + "\n".join(lines) + tail


def bundle_program(
    text: str,
    config: Any,
    out: str | Path,
    *,
    shapes: Any = None,
    seed: int = 0,
    reduce: bool = True,
    max_candidates: int = 80,
    policy: Any = None,
    log: Callable[[str], None] = lambda m: None,
) -> list[Written]:
    """One bundle per cause ``ireefuzz check`` finds in ``text``, under ``out`` (``out/<cause>``), and
    ``out/index.md``."""
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
            target = Target.by_cause(cause, finding.oracle)
            log(f"reducing under {target}")
            try:
                run = finding.oracle in ("numeric", "immutability", "reference")
                reduction = reducing.reduce_mlir(
                    text,
                    target,
                    config=config,
                    max_candidates=max_candidates,
                    run=run,
                    interesting=_findings_as_checked(config, policy, seed, shapes, run),
                )
                program = reducing.readable(reduction.text)
            except Exception as e:  # noqa: BLE001 -- not reproduced under reduction: bundle the program as given
                log(f"not reduced ({e}); bundled as given")
        if program != text:
            again = []
            for given in (shapes, None) if shapes is not None else (None,):  # as the reduction judged it
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
        written.append(write_cause(finding, program, case, config, out / slug(cause), reduction=reduction, log=log))
    write_index(out, written)
    return written


def _findings_as_checked(
    config: Any, policy: Any, seed: int, shapes: Any, run: bool
) -> Callable[[str], Sequence[Finding]]:
    """A candidate's findings as ``check`` found the program's: the same oracles, input seed and (while the
    argument count fits) shapes; compile-only oracles without running when the cause needs no run."""
    from ireefuzz.errors import ProgramError
    from ireefuzz.tools.check import check_program

    def findings(text: str) -> Sequence[Finding]:
        if not run:
            return reducing.program_findings(text, config)
        for given in (shapes, None) if shapes is not None else (None,):
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


def main(args: Any, text: str, config: Any, policy: Any, shapes: Any) -> int:
    """``ireefuzz check PROGRAM.mlir --bundle DIR``: exit 1 when a bundle was written (findings), else 0."""
    written = bundle_program(
        text,
        config,
        args.bundle,
        shapes=shapes,
        seed=args.seed,
        policy=policy,
        log=lambda m: print(f"ireefuzz check: {m}", flush=True),
    )
    for w in written:
        print(f"{w.path}: {w.line()}")
    print(f"{len(written)} bundle(s); index: {Path(args.bundle) / 'index.md'}")
    return 1 if written else 0
