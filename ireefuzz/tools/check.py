"""``ireefuzz check PROGRAM.mlir``: every applicable oracle on a user's own MLIR program.

Every public function of the program is checked. Function signatures are read with the MLIR
Python bindings shipped in IREE; inputs are generated from them (floats are small multiples of
1/8 in every float type, ints small in every width, index arguments -- gather / scatter indices,
values reaching ``tensor.extract`` -- in bounds). A dynamic dim gets ``--shapes`` (one concrete
shape per argument, e.g. ``33x16,16x49``) or, by default, the same awkward size (33) everywhere,
so dims the program requires to be equal stay equal. ``--inputs FILE.npz`` supplies one's own
inputs instead: arrays ``arg0, arg1, ...`` (for every function with that many arguments) or
``<function>.arg0, ...`` (for one function), each with the argument's dtype (``bf16`` as
``ml_dtypes.bfloat16``, ``index`` as int64); their shapes fix the dynamic dims.

Oracles: crash (compile and run), memory, fusion, immutability (the caller's buffers are
unchanged after the call) and numeric: IREE against the float64 reference interpreter
(``ireefuzz.oracles.interpret``), within an error bound (a disagreement the bound cannot settle is
ill-conditioned: discarded and counted, never reported). An op the interpreter refuses leaves the
numbers "not judged: op X" (printed, and in ``--json``); host-vs-generic CPU agreement then stands in,
unless the inputs hit undefined behaviour.

``check_program`` checks a raw program through ``ireefuzz.core.evaluate`` with the MLIR frontend
(``ireefuzz.core.frontends``: the case type, input drawing and the raw-program judges live there);
``ireefuzz.tools.corpus`` uses it for raw-MLIR corpus cases and compile-only cases, the pytest plugin for
``.mlir`` files.

Bounded: each run of a compiled function is in a child process (``ireefuzz.sut.isolated``) with a wall-clock
limit (``--run-timeout``, default 60 s; past it the function is "not judged: did not finish", or a
``crash/runtime-timeout`` when the reference interpreter finishes it), and a function whose run would need more
memory than ``--max-memory`` (estimated from its types and shapes, ``ireefuzz.core.budget``) is refused before
anything runs. Text nested deeper than MLIR's parser survives is refused before it is parsed.

Each cause found is triaged (``triage``) by the ``Experimenter`` ``main`` is given
(``filing.experiments.for_check``, which sits above this module: ``check_command`` passes it). A cause the
known-findings baseline holds is known; any other is a candidate, and the experiments an engineer runs (dims static
or dynamic, ``tensor.empty`` for an argument init, a rank more or less, f32, other CPUs, at IR level) decide it: a
candidate that lands in a known cause by the same mechanism is reported as that cause (duplicate-of). The report
shows each candidate's experiments table, trigger and nearest known cause. Without an experimenter every cause
counts as new.

Exit status (``EXIT_STATUS``, also in ``--help``): 1 a finding (new or known: the report says which cause each is); 0 no
finding, and something was judged; 2 nothing was judged
(``unjudged``: every function's run gave no verdict, e.g. it did not finish, or its values are undefined: the reasons
are printed), or a usage or infrastructure error (and ireefuzz's own errors). A CI reads 0 as clean.
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import math
import sys
from pathlib import Path
from typing import Any, Callable, Literal, Mapping, Sequence

from ireefuzz import sut
from ireefuzz.base.argtypes import non_negative_int, shell_words
from ireefuzz.base.compiler_options import add_compiler_options
from ireefuzz.core import budget
from ireefuzz.core.evaluate import Policy, evaluate
from ireefuzz.core.frontends import DEFAULT_DYNAMIC_SIZE, MLIR, program_cases, signatures
from ireefuzz.core.policy import add_policy_options
from ireefuzz.errors import ProgramError, UsageError
from ireefuzz.oracles.cause import cause_of
from ireefuzz.oracles.finding import Finding, first_per_signature
from ireefuzz.oracles.registry import not_judged_subject
from ireefuzz.sut import isolated

CHECK_POLICY_OPTIONS = ("oracles", "max_static_alloca_bytes", "run_timeout_s", "max_memory")  # core.policy's table
MAX_ELEMENTS = 1 << 24  # per argument (64 MiB of f32): inputs, outputs and the references are all this large


def parse_shapes(text: str | None) -> list[tuple[int, ...]] | None:
    """``"33x16,16x49"`` -> ``[(33, 16), (16, 49)]``; a rank-0 argument is written as an empty item.
    Dims are non-negative and an argument has at most ``MAX_ELEMENTS`` elements."""
    if text is None:
        return None
    shapes = []
    for item in text.split(","):
        item = item.strip()
        try:
            shape = tuple(int(d) for d in item.split("x")) if item else ()
        except ValueError:
            raise ProgramError(f"--shapes: {item!r} is not a shape like 33x16") from None
        if any(d < 0 for d in shape):
            raise ProgramError(f"--shapes: {item!r} has a negative dim")
        if math.prod(shape) > MAX_ELEMENTS:
            raise ProgramError(
                f"--shapes: {item!r} has {math.prod(shape)} elements, more than ireefuzz check feeds "
                f"({MAX_ELEMENTS} per argument); give smaller shapes"
            )
        shapes.append(shape)
    return shapes


def _fitting_shapes(text: str, shapes: Sequence[Sequence[int]] | None) -> None:
    """The program parses, and a positional ``--shapes`` fits some public function's argument count (else it
    would be ignored)."""
    counts = {sig.name: len(sig.args) for sig in signatures(text)}
    if shapes is None:
        return
    if len(shapes) not in counts.values():
        takes = ", ".join(f"@{name} takes {n}" for name, n in counts.items())
        raise ProgramError(
            f"--shapes gives {len(shapes)} shape(s) but no public function takes that many arguments ({takes})"
        )


def check_program(
    text: str, config: sut.CompilerConfig | None = None, policy: Policy | None = None, **options: Any
) -> list:
    """Run the applicable oracles on raw MLIR ``text``; returns Findings, one per signature
    (``check_results`` takes the same options and also says what was not judged)."""
    return first_per_signature(f for r in check_results(text, config, policy, **options) for f in r.findings)


def check_results(
    text: str,
    config: sut.CompilerConfig | None = None,
    policy: Policy | None = None,
    *,
    functions: Sequence[str] | None = None,
    shapes: Mapping[str, Sequence[Sequence[int]]] | Sequence[Sequence[int]] | None = None,
    seed: int = 0,
    compile_only: bool = False,
    expected: Mapping[str, Any] | None = None,
    inputs: Mapping[str, Any] | None = None,
    refuse_over_budget: bool = False,
) -> list:
    """Run the applicable oracles on raw MLIR ``text`` through ``evaluate`` (the MLIR frontend): one
    ``CaseResult`` per function (its findings, ``not_judged`` and ``discarded``).

    ``shapes`` is either one list of argument shapes (for every function with that many
    arguments) or a mapping function -> argument shapes. ``config`` is a ``sut.CompilerConfig``,
    ``policy`` an ``evaluate.Policy``; ``expected`` maps a function to its ``frontends.Expected`` outputs;
    ``inputs`` are an ``--inputs`` file's arrays (``frontends.given_inputs``).

    Every run is bounded: in a child process with ``policy.run_timeout_s`` (default
    ``isolated.DEFAULT_RUN_TIMEOUT_S``), and within ``policy.max_memory`` (``core.budget``): a function whose
    run would not fit is not judged, or with ``refuse_over_budget`` an ``OverBudget`` error before any compile.
    """
    config = config or sut.CompilerConfig()
    policy = policy or Policy()
    if policy.run_timeout_s is None:  # a raw program may never end: never run one in this process
        policy = dataclasses.replace(policy, run_timeout_s=isolated.DEFAULT_RUN_TIMEOUT_S)
    cases = program_cases(
        text,
        functions=functions,
        shapes=shapes,
        seed=seed,
        run=not compile_only,
        expected=expected,
        target_cpu=config.target_cpu,
        inputs=inputs,
        flags=program_flags(text, config.flags),
    )
    if refuse_over_budget:
        for case in cases:
            if case.args is not None:
                budget.check(budget.estimate_case(case, 0), policy.max_memory, f"@{case.function}")
    return evaluate(cases, config, policy, MLIR)


KEEP_F64 = "--iree-input-demote-f64-to-f32=false"


def program_flags(text: str, flags: Sequence[str]) -> tuple[str, ...]:
    """Flags a program needs to run as written: f64 stays f64 (iree-compile demotes it to f32 by default,
    arguments too, so f64 inputs would not fit), unless the user's flags say otherwise."""
    from ireefuzz.core.frontends import float_types

    wants_f64 = "f64" in float_types(text) and not any("demote-f64" in f for f in flags)
    return (KEEP_F64,) if wants_f64 else ()


def load_inputs(path: str | Path) -> dict[str, Any]:
    """The arrays of an ``--inputs`` ``.npz`` file (no pickle); a file that is not one is a UsageError."""
    import numpy as np

    try:
        with np.load(path, allow_pickle=False) as npz:
            return {key: npz[key] for key in npz.files}
    except OSError as e:
        raise UsageError(f"--inputs {path}: cannot read it ({e.strerror or e})") from None
    except ValueError:
        raise UsageError(f"--inputs {path}: not an .npz file of plain arrays (np.savez)") from None


# --------------------------------------------------------------------------- triage: known, duplicate or new


TriageVerdict = Literal["new", "known", "duplicate-of"]


@dataclasses.dataclass(frozen=True)
class Triaged:
    """What ``check`` says of one cause it found: the cause id it reports (the known cause's own when the finding is
    known or a duplicate of one), the verdict and why, and a candidate's experiments (markdown lines, the record)."""

    cause: str  # the finding's own cause id
    reported: str
    verdict: TriageVerdict
    why: str = ""
    section: tuple[str, ...] = ()
    record: Mapping[str, Any] | None = None
    by_design: str = ""  # the baseline judges the cause it reports no bug: what the semantics require

    @property
    def new(self) -> bool:
        return self.verdict == "new"

    def line(self) -> str:
        if self.verdict == "duplicate-of":
            return f"cause: {self.reported} ({self.why}; named {self.cause} before its experiments)"
        return f"cause: {self.reported} ({self.verdict}{': ' + self.why if self.why else ''})"

    def to_json(self) -> dict[str, Any]:
        return dataclasses.asdict(self) | {"section": list(self.section), "record": dict(self.record or {})}


# (a finding, its function's case, the compiler configuration, at most this many variants (None: the default))
Experimenter = Callable[[Finding, Any, Any, "int | None"], Triaged]


def triage(
    results: Sequence[Any],
    config: sut.CompilerConfig,
    limit: int | None = None,
    experimenter: Experimenter | None = None,
) -> dict[str, Triaged]:
    """Cause id -> its ``Triaged``, one per cause of the results' findings (asked of its first finding). Without an
    experimenter every cause is new: nothing was tried that could make it known."""
    out: dict[str, Triaged] = {}
    for result in results:
        for f in result.findings:
            cause = f.cause or cause_of(f).id
            if cause not in out:
                out[cause] = (
                    experimenter(f, result.case, config, limit)
                    if experimenter is not None
                    else Triaged(cause, cause, "new", "not triaged: no experimenter")
                )
    return out


# --------------------------------------------------------------------------- CLI


EXIT_STATUS = (
    "exit status: 1 a finding (this IREE gets the program wrong; the report says whether each cause is new, one that "
    "survived its experiments, or known, and which); 0 no finding but ones the baseline judges by design (not bugs: "
    "the why is printed), and something was judged; 2 nothing was judged "
    "(every function's run did not finish, or its values are undefined, ...: the reasons are printed), or a usage or "
    "infrastructure error"
)


def unjudged(result: Any) -> str | None:
    """Why ``check`` judged nothing of one function (a ``CaseResult``), or None when something judged it: a reason
    that covers every oracle (``every oracle: the program did not finish ...``, not compiled, out of memory), or
    values that are undefined (``reads undefined values``: no reference and no other CPU may judge them)."""
    from ireefuzz.oracles.interpret import is_undefined

    if result.findings:
        return None
    return next((r for r in result.not_judged if r.startswith("every oracle") or is_undefined(r)), None)


def configure(parser: argparse.ArgumentParser) -> None:
    parser.epilog = EXIT_STATUS
    parser.add_argument("program", metavar="PROGRAM.mlir", help="an MLIR program (linalg / StableHLO / ...) to check")
    parser.add_argument(
        "--shapes",
        metavar="SHAPES",
        default=None,
        help="one concrete shape per argument for dynamic dims, e.g. 33x16,16x49 "
        f"(default: every dynamic dim = {DEFAULT_DYNAMIC_SIZE})",
    )
    parser.add_argument(
        "--flags",
        metavar="FLAGS",
        type=shell_words,
        default="",
        help="extra iree-compile flags, space-separated and quoted, e.g. '--iree-opt-data-tiling=false'",
    )
    add_compiler_options(parser.add_argument)
    add_policy_options(
        parser.add_argument, CHECK_POLICY_OPTIONS, defaults={"run_timeout_s": isolated.DEFAULT_RUN_TIMEOUT_S}
    )
    parser.add_argument(
        "--seed",
        metavar="N",
        type=non_negative_int("integer"),
        default=0,
        help="input seed, a non-negative integer (default: 0)",
    )
    parser.add_argument(
        "--inputs",
        metavar="FILE.npz",
        default=None,
        help="one's own inputs: arrays arg0, arg1, ... (every function with that many arguments) or "
        "FUNCTION.arg0, ... with the arguments' dtypes; their shapes fix dynamic dims",
    )
    parser.add_argument(
        "--experiments",
        metavar="N",
        type=non_negative_int("number of variants"),
        default=None,
        help="variants run per candidate new cause (a cause the known-findings baseline does not hold) before it is "
        "called new; 0 runs none, and every such cause is new (default: the experiments' own cap)",
    )
    parser.add_argument(
        "--json",
        action="store_true",
        help='print {"findings": [...], "causes": [{"cause", "reported", "verdict", ...}], '
        '"functions": [{"function", "not_judged", "discarded"}]}',
    )
    parser.add_argument(
        "--bundle",
        metavar="DIR",
        default=None,
        help="write a filed-ready bundle per cause found into DIR/<cause> (the program reduced at IR "
        "level, inputs, run.sh, the culprit pass, ISSUE.md) and DIR/index.md",
    )


@dataclasses.dataclass(frozen=True)
class Prepared:
    """A ``check`` command line, validated: the program, its configuration, policy, shapes and inputs."""

    path: Path
    text: str
    config: sut.CompilerConfig
    toolchain: Any
    policy: Policy
    shapes: Any
    inputs: Any


def prepare(args: argparse.Namespace) -> Prepared:
    """Every option of ``check`` validated (one line and exit 2 on bad input) and the compiler probed."""
    path = Path(args.program)
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as e:
        raise UsageError(f"cannot read {path}: {e.strerror}") from None
    except UnicodeDecodeError:
        raise UsageError(f"{path} is not a text file; give an MLIR program") from None
    config = sut.CompilerConfig.from_options(args)
    toolchain = sut.prepare(config, log=lambda m: print(f"ireefuzz check: {m}", file=sys.stderr))
    unable = toolchain.unable
    asked = Policy.from_options(args)
    policy = dataclasses.replace(asked, oracles=asked.oracles - unable)
    try:
        shapes = parse_shapes(args.shapes)
        _fitting_shapes(text, shapes)
    except ProgramError as e:
        raise UsageError(f"{path}: {e}") from None
    inputs = load_inputs(args.inputs) if args.inputs else None
    if inputs is not None and args.shapes:
        raise UsageError("--inputs fixes the shapes; give --shapes or --inputs, not both")
    sut.require_usable(config)
    return Prepared(path, text, config, toolchain, policy, shapes, inputs)


def main(args: argparse.Namespace, experimenter: Experimenter | None = None) -> int:
    prepared = prepare(args)
    path, text, config, toolchain, policy, shapes, inputs = (
        prepared.path,
        prepared.text,
        prepared.config,
        prepared.toolchain,
        prepared.policy,
        prepared.shapes,
        prepared.inputs,
    )
    try:
        results = check_results(
            text, config, policy, shapes=shapes, seed=args.seed, inputs=inputs, refuse_over_budget=True
        )
    except ProgramError as e:
        raise UsageError(f"{path}: {e}") from None
    disagree = [f"@{r.case.function}: {why}" for r in results for why in r.not_judged if "shapes disagree" in why]
    if inputs is not None and disagree:  # the user's own inputs break the program's contract: say so, judge nothing
        raise UsageError(
            f"--inputs {args.inputs}: the arrays' shapes do not fit together ({disagree[0]}); give "
            "arrays whose dims agree where the program uses them together"
        )
    findings = first_per_signature(f for r in results for f in r.findings)
    triaged = triage(results, config, getattr(args, "experiments", None), experimenter)
    functions = [
        {"function": r.case.function, "not_judged": list(r.not_judged), "discarded": r.discarded} for r in results
    ]
    if args.json:
        not_judged = dict(toolchain.not_judged or {})  # oracles that cannot judge this compiler
        oracles = Policy.from_options(args).oracles  # the ones asked for
        print(
            json.dumps(
                {
                    "findings": [json.loads(f.dumps()) for f in findings],
                    "causes": [t.to_json() for t in triaged.values()],
                    "functions": functions,
                    "oracles_not_judged": {o: why for o, why in not_judged.items() if o in oracles},
                },
                indent=2,
            )
        )
    else:
        for f in findings:
            t = triaged[f.cause or cause_of(f).id]
            print(
                f"{f.signature}\n    {f.message}\n    {t.line()}"
                + (f"\n    not a bug: {t.by_design}" if t.by_design else "")
            )
        for t in triaged.values():
            if t.section:
                print(f"\n## {t.cause}\n")
                print("\n".join(t.section))
        for row in functions:
            for reason in row["not_judged"]:
                print("@{}: {} not judged: {}".format(row["function"], *not_judged_subject(reason)))
        discarded = sum(row["discarded"] for row in functions)
        tail = f" ({discarded} ill-conditioned disagreement(s) discarded)" if discarded else ""
        new = sum(t.new for t in triaged.values())
        print(f"{len(findings)} finding(s), {new} new cause(s), in {path}{tail}", file=sys.stderr)
    bugs = [f for f in findings if not triaged[f.cause or cause_of(f).id].by_design]
    if bugs:  # known or new, the program is wrong on this IREE: the causes say which bug, not whether
        return 1
    if findings:  # every one is by design (the baseline's why is printed with it): judged, and no bug
        print(f"ireefuzz check: {len(findings)} finding(s) by design, no bug, in {path}", file=sys.stderr)
        return 0
    reasons = [f"@{r.case.function}: {why}" for r in results if (why := unjudged(r)) is not None]
    if len(reasons) == len(results):  # nothing judged: not clean
        why = "; ".join(reasons) or "no public function"
        print(f"ireefuzz check: nothing judged in {path}: {why}", file=sys.stderr)
        return 2
    return 0
