"""What the pytest plugin's fixtures and collectors run: checking a case, a graph or a ``.mlir`` file.

``check(case_or_graph)`` runs every configured oracle through ``ireefuzz.core.evaluate`` and, on a
finding whose cause is not in the baseline (``ireefuzz.tools.baseline``: by cause, as the campaign), fails the
test with a message that is a repro:
the findings with their signatures, the case, the exact ``iree-compile`` command, the program,
and the directory of the repro bundle written for it (``program.mlir``, ``case.json``,
``findings.json``, ``command.txt``, written atomically). Findings whose cause (or signature) the
baseline knows are reported as ``KnownFinding`` warnings instead, with the baseline's verdict.

Inside a Hypothesis test each signature fails with its own exception class, so shrinking keeps
the signature it started from instead of slipping to another bug; the bundle of a signature is
rewritten by every failing example, so after shrinking it holds the minimal one.

``.mlir`` files (``--ireefuzz-mlir``) are checked by ``ireefuzz.tools.check.check_program``, through
``ireefuzz.core.evaluate`` with the MLIR frontend as ``ireefuzz check`` and the corpus are: every public
function is compiled and checked by the crash, memory and fusion oracles. When
``<stem>.inputs.json`` sits next to the file, the functions it lists are also run on generated
inputs (crash at run time, immutability of the caller's buffers, numeric) and, where expected
outputs are given, compared with them (numeric, in the same compile); with or without them the
float64 reference interpreter judges the numbers (an op it cannot interpret gives a
``NotJudgedWarning``: "numbers not judged: op X", and host-vs-generic agreement stands in). A failing ``.mlir`` check
writes a full bundle (``inputs.npz``, the interpreter's ``expected.npz``, ``run.sh``, ``ISSUE.md``).
The spec format::

    {
      "seed": 0,                             # inputs: small exact values drawn from this seed
      "functions": {
        "main": {
          "shapes": [[33, 16], [16, 49]],    # one concrete shape per argument (dynamic dims); optional
          "expected": "main.expected.npz",   # optional: expected outputs, arrays out0, out1, ...
          "rtol": 1e-5, "atol": 1e-6         # optional tolerances for float outputs
        }
      }
    }

Paths are relative to the spec file; ``.npz`` files are loaded without pickle. Without
``"functions"``, the keys of one function spec apply to the file's only public function, so
``{}`` just opts a single-function file into running.
"""

from __future__ import annotations

import dataclasses
import json
import os
import shlex
import tempfile
import warnings
from pathlib import Path
from typing import Any, Iterable, Mapping, Sequence

import numpy as np
import pytest

from ireefuzz import sut as _sut
from ireefuzz.base.durable import slug
from ireefuzz.core.evaluate import ORACLE_NAMES, CaseResult, Policy, evaluate
from ireefuzz.errors import IreefuzzError
from ireefuzz.generators.case import Case
from ireefuzz.generators.emit import emit
from ireefuzz.generators.graph import Graph, GraphError
from ireefuzz.oracles.finding import Finding, first_per_signature, signature_class
from ireefuzz.oracles.registry import not_judged_subject, spec_of
from ireefuzz.tools import baseline as _baseline
from ireefuzz.tools.baseline import Baseline

__all__ = [
    "IreeSut",
    "Checker",
    "KnownFinding",
    "NotJudgedWarning",
    "IreefuzzFailure",
    "check",
    "check_mlir_file",
    "load_baseline",
    "sut_from_config",
    "load_inputs_spec",
    "current_test_id",
    "DEFAULT_SYMBOL_SIZE",
    "check_jax",
    "JaxChecker",
    "UsageFailure",
]

DEFAULT_SYMBOL_SIZE = 33  # a graph checked without instances runs every symbol at this (unaligned) size
PROGRAM_LINES_SHOWN = 200


class KnownFinding(UserWarning):
    """A finding whose cause (or signature) is in the known-findings baseline (not a test failure)."""


class NotJudgedWarning(UserWarning):
    """A ``.mlir`` function's numbers the reference interpreter could not judge ("op linalg.softmax"):
    shown in the test's output, never a failure and never a silent pass."""


class IreefuzzFailure(pytest.fail.Exception):  # type: ignore[name-defined]  # pytest's Failed, not exported by name
    """A check found something new. Each signature gets its own subclass (see the module doc)."""


@dataclasses.dataclass(frozen=True)
class IreeSut:
    """The configured system under test: how to compile, which oracles judge, what is already known."""

    config: _sut.CompilerConfig = _sut.CompilerConfig()
    policy: Policy = Policy()
    known: Baseline = Baseline()
    bundle_dir: Path | None = None  # None: a fresh temporary directory per failing check

    def __repr__(self) -> str:
        return (
            f"IreeSut(iree_compile={self.config.iree_compile or 'wheel'}, cpu={self.config.target_cpu}, "
            f"oracles={','.join(sorted(self.policy.oracles))}, known={len(self.known.entries)})"
        )


def _without(policy: Policy, unable: frozenset[str]) -> Policy:
    return dataclasses.replace(policy, oracles=policy.oracles - unable)


def sut_from_config(config: pytest.Config) -> IreeSut:
    """The IreeSut the command-line options describe (built once per pytest session)."""
    cached = getattr(config, "_ireefuzz_sut", None)
    if cached is not None:
        return cached
    baseline = config.getoption("ireefuzz_baseline")
    bundles = config.getoption("ireefuzz_bundles")
    if bundles is None:
        factory = getattr(config, "_tmp_path_factory", None)
        bundles = factory.getbasetemp() / "ireefuzz-bundles" if factory is not None else None
    compiler = _sut.CompilerConfig.from_options(config.option, prefix="ireefuzz_")  # the shared compiler options
    try:  # the release installed and its runtime checked, once per session
        unable = _sut.prepare(compiler, log=lambda m: warnings.warn(f"ireefuzz: {m}", stacklevel=2)).unable
    except IreefuzzError as e:
        raise pytest.UsageError(f"ireefuzz: {e}") from None
    made = IreeSut(
        config=compiler,
        policy=_without(Policy.from_options(config.option, prefix="ireefuzz_"), unable),  # the plugin's options
        known=load_baseline(baseline) if baseline is not None else Baseline(),
        bundle_dir=Path(bundles) if bundles is not None else None,
    )
    config._ireefuzz_sut = made  # type: ignore[attr-defined]
    return made


def load_baseline(path: str | Path) -> Baseline:
    """A known-findings baseline (format, checks and matching by cause: ``ireefuzz.tools.baseline``)."""
    return Baseline.of(_baseline.read(path))


# --------------------------------------------------------------------------- cases and graphs


class Checker:
    """The ``ireefuzz_check`` fixture: ``check(case_or_graph, *, instances=None, oracles=None)``.

    Session-scoped (so Hypothesis's ``@given`` tests may use it); the test it reports for and names
    its bundles after is the one running when it is called.
    """

    def __init__(self, sut: IreeSut) -> None:
        self.sut = sut

    def __repr__(self) -> str:
        return f"Checker({self.sut!r})"

    def __call__(
        self,
        case_or_graph: Case | Graph,
        *,
        instances: Sequence[Mapping[str, int]] | None = None,
        oracles: Iterable[str] | None = None,
        seed: int | None = None,
    ) -> CaseResult:
        return check(
            case_or_graph, instances=instances, oracles=oracles, seed=seed, sut=self.sut, test_id=current_test_id()
        )


def current_test_id() -> str:
    """The node id of the running pytest test ("" outside pytest)."""
    return os.environ.get("PYTEST_CURRENT_TEST", "").rsplit(" (", 1)[0]


def check(
    case_or_graph: Case | Graph,
    *,
    instances: Sequence[Mapping[str, int]] | None = None,
    oracles: Iterable[str] | None = None,
    seed: int | None = None,
    sut: IreeSut | None = None,
    test_id: str = "",
) -> CaseResult:
    """Run every oracle on a Case or a Graph; fail the current test with a repro on a new finding.

    ``instances``: shape instances (``{symbol: size}``) to run a graph or to replace a case's;
    a graph with symbols and no instances runs them all at ``DEFAULT_SYMBOL_SIZE``.
    ``oracles``: a subset of the configured oracles for this check. Returns the CaseResult
    (known findings included) when nothing new was found.
    """
    sut = sut or IreeSut()
    case = _as_case(case_or_graph, instances, seed, sut.config.target_cpu)
    policy = sut.policy
    if oracles is not None:
        chosen = frozenset(oracles)
        unknown = chosen - set(ORACLE_NAMES)
        if unknown:
            raise ValueError(f"unknown oracles {sorted(unknown)}; choose from {', '.join(ORACLE_NAMES)}")
        policy = dataclasses.replace(policy, oracles=chosen & policy.oracles)
    (result,) = evaluate([case], sut.config, policy)
    program = emit(case.graph, "main").text  # what evaluate compiled, with the function named @main
    _judge(
        list(result.findings),
        sut,
        test_id,
        program=program,
        case_json=case.to_json(),
        what=repr(case),
        config=sut.config if not case.flags else dataclasses.replace(sut.config, flags=sut.config.flags + case.flags),
        target_cpu=case.target_cpu,
        case=case,
    )
    return result


def _as_case(
    case_or_graph: Case | Graph, instances: Sequence[Mapping[str, int]] | None, seed: int | None, target_cpu: str
) -> Case:
    if isinstance(case_or_graph, Graph):
        graph = case_or_graph.check()
        if instances is None:
            instances = ({s: DEFAULT_SYMBOL_SIZE for s in graph.symbols},)
        return Case(graph, tuple(instances), seed or 0, target_cpu).check()
    if isinstance(case_or_graph, Case):
        case = case_or_graph
        changes: dict[str, Any] = {}
        if instances is not None:
            changes["instances"] = tuple(instances)
        if seed is not None:
            changes["seed"] = seed
        if case.target_cpu == "host" and target_cpu != "host":  # generated cases say "host": the option wins
            changes["target_cpu"] = target_cpu
        return dataclasses.replace(case, **changes).check() if changes else case.check()
    raise TypeError(f"check() takes an ireefuzz Case or Graph, not {type(case_or_graph).__name__}")


# --------------------------------------------------------------------------- judging and reporting


def _judge(
    findings: list[Finding],
    sut: IreeSut,
    test_id: str,
    *,
    program: str,
    case_json: Mapping[str, Any],
    what: str,
    config: _sut.CompilerConfig,
    target_cpu: str,
    case: Case | None = None,
    program_cases: Mapping[str, Any] | None = None,
    bundle_maker: Any = None,
) -> None:
    judged = {id(f): sut.known.finding_known(f.signature, f.cause) for f in findings}  # by cause, as the campaign
    new = [f for f in findings if not judged[id(f)]]
    for f in findings:
        if (row := judged[id(f)]) is not None:
            note = f"{row.verdict or 'listed'}: {row.detail}"
            cause = f" of cause {f.cause}" if f.cause else ""
            warnings.warn(KnownFinding(f"known finding {f.signature}{cause} ({note}): {f.message}"), stacklevel=3)
    if not new:
        return
    bundle = _bundle_dir(sut, test_id, new[0].signature)
    command = _compile_command(config, target_cpu, bundle / "program.mlir", bundle / "module.vmfb")
    written, program = _write_bundle(
        bundle, new, program, case_json, command, config, case, program_cases, bundle_maker
    )
    lines = [f"ireefuzz: {len(new)} new finding(s){f' in {test_id}' if test_id else ''}"]
    for f in new:
        lines.append(f"  {f.signature}")
        lines.append(f"      {f.message}")
    known = [f.signature for f in findings if judged[id(f)]]
    if known:
        lines.append(f"  (and {len(known)} known: {', '.join(known)})")
    lines += [f"case: {what}", "reproduce:", f"  {command}", f"bundle: {bundle} ({', '.join(written)})"]
    program_lines = program.splitlines()
    lines.append(f"--- program.mlir ({len(program_lines)} lines) ---")
    lines += program_lines[:PROGRAM_LINES_SHOWN]
    if len(program_lines) > PROGRAM_LINES_SHOWN:
        lines.append(f"... ({len(program_lines) - PROGRAM_LINES_SHOWN} more lines in {bundle / 'program.mlir'})")
    raise signature_class(IreefuzzFailure, new[0].signature)("\n".join(lines), pytrace=False)


def _bundle_dir(sut: IreeSut, test_id: str, signature: str) -> Path:
    root = sut.bundle_dir if sut.bundle_dir is not None else Path(tempfile.mkdtemp(prefix="ireefuzz-bundle-"))
    return Path(root) / slug(test_id or "check") / slug(signature)


def _compile_command(config: _sut.CompilerConfig, target_cpu: str, source: Path, output: Path) -> str:
    return shlex.join(_sut.compile_command(dataclasses.replace(config, target_cpu=target_cpu), source, output))


def _write_bundle(
    bundle: Path,
    findings: Sequence[Finding],
    program: str,
    case_json: Mapping[str, Any],
    command: str,
    config: _sut.CompilerConfig,
    case: Case | None,
    program_cases: Mapping[str, Any] | None = None,
    bundle_maker: Any = None,
) -> tuple[list[str], str]:
    """Write the bundle (``ireefuzz.tools.filing.bundle``); returns (its file names, its program text).

    Always: ``program.mlir``, ``case.json``, ``finding.json`` (the first new finding, the input of
    ``ireefuzz repro``), ``findings.json`` (all new ones), ``command.txt``. For a generated case
    outside a Hypothesis run, ``ireefuzz.tools.filing.repro.make_bundle`` makes the full bundle (inputs, expected
    outputs, ``run.sh``, ``ISSUE.md``); inside one it is skipped, since every failing example of the
    shrink would pay for it. For a ``.mlir`` function that ran (``program_cases``: function -> its
    ``ProgramCase``), ``ireefuzz.tools.filing.repro.make_program_bundle`` does the same with the interpreter's outputs.
    ``bundle_maker(finding) -> Bundle`` makes the full bundle instead (``check_jax``: JAX's float64 outputs).
    """
    from ireefuzz.tools.filing.bundle import Bundle

    made = None
    program_case = _program_case_of(findings[0], program_cases or {})
    if (case is not None or program_case is not None or bundle_maker is not None) and not _in_hypothesis():
        from ireefuzz.tools.filing import repro

        try:
            made = (
                bundle_maker(findings[0])
                if bundle_maker is not None
                else repro.make_bundle(findings[0], case, config)
                if case is not None
                else repro.make_program_bundle(findings[0], program_case, config)
            )
        except Exception as e:  # noqa: BLE001 - the minimal bundle below still gets written
            warnings.warn(
                f"ireefuzz.tools.filing.repro bundle failed ({e!r}); wrote the minimal bundle only", stacklevel=4
            )
    if made is None:
        made = Bundle(program=program, finding=findings[0].to_json(), case=dict(case_json))
    else:
        made.case = made.case or dict(case_json)
    made.findings = [f.to_json() for f in findings]
    made.command = command
    made.dump(bundle)
    return sorted(p.name for p in bundle.iterdir() if not p.name.startswith(".")), made.program


def _program_case_of(finding: Finding, cases: Mapping[str, Any]) -> Any:
    """The ``ProgramCase`` a raw program's finding was made on (its ``function``, else the only one checked;
    a compile-only one too: its bundle's run.sh compiles only)."""
    name = finding.evidence.get("function")
    if isinstance(name, str) and name in cases:
        return cases[name]
    return next(iter(cases.values())) if len(cases) == 1 else None


def _in_hypothesis() -> bool:
    import sys

    hypothesis = sys.modules.get("hypothesis")
    return bool(hypothesis and hypothesis.currently_in_test_context())


# --------------------------------------------------------------------------- .mlir files


def check_mlir_file(path: str | Path, *, sut: IreeSut | None = None, test_id: str = "") -> list[Finding]:
    """Check a ``.mlir`` file (see the module docstring); fail the test with a repro on a new finding."""
    from ireefuzz.core.frontends import signatures
    from ireefuzz.tools import check as raw  # raw programs go through ``evaluate`` with the MLIR frontend

    sut = sut or IreeSut()
    path = Path(path)
    text = path.read_text()
    spec_path = path.with_name(f"{path.stem}.inputs.json")
    spec = load_inputs_spec(spec_path, [s.name for s in signatures(text)]) if spec_path.exists() else None
    if spec is None:
        results = raw.check_results(text, sut.config, sut.policy, compile_only=True)
    else:
        functions = spec["functions"]
        shapes = {name: f["shapes"] for name, f in functions.items() if f.get("shapes") is not None}
        compared = any(spec_of(o).reads_expected for o in sut.policy.oracles)
        expected = _expected_outputs(functions, spec_path.parent) if compared else None
        results = raw.check_results(
            text, sut.config, sut.policy, functions=list(functions), shapes=shapes, seed=spec["seed"], expected=expected
        )
    for r in results:
        for reason in r.not_judged:
            said = "{} not judged: {}".format(*not_judged_subject(reason))
            warnings.warn(NotJudgedWarning(f"{path}: @{r.case.function}: {said}"), stacklevel=2)
    findings = first_per_signature(f for r in results for f in r.findings)
    case_json = {
        "kind": "mlir",
        "source": str(path),
        "target_cpu": sut.config.target_cpu,
        "flags": list(sut.config.flags),
        "inputs_spec": spec,
    }
    _judge(
        findings,
        sut,
        test_id,
        program=text,
        case_json=case_json,
        what=str(path),
        config=sut.config,
        target_cpu=sut.config.target_cpu,
        program_cases={r.case.function: r.case for r in results},
    )
    return findings


def load_inputs_spec(path: str | Path, public_functions: Sequence[str]) -> dict[str, Any]:
    """Read and normalize ``<stem>.inputs.json`` to ``{"seed": int, "functions": {name: {...}}}``."""
    path = Path(path)
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (json.JSONDecodeError, UnicodeDecodeError) as e:
        raise GraphError(f"{path}: not valid JSON ({e})") from None
    if not isinstance(data, dict):
        raise GraphError(f"{path}: expected a JSON object (see ireefuzz.testing for the format)")
    seed = data.get("seed", 0)
    if "functions" in data:
        functions = data["functions"]
    else:  # shorthand: the keys of one function spec apply to the only public function
        if len(public_functions) != 1:
            raise GraphError(
                f"{path}: without 'functions' the file must have exactly one public function; it has "
                f"{list(public_functions)}"
            )
        functions = {public_functions[0]: {k: v for k, v in data.items() if k != "seed"}}
    if not isinstance(functions, dict) or not isinstance(seed, int):
        raise GraphError(f"{path}: expected {{'seed': int, 'functions': {{name: {{'shapes': [[...], ...]}}}}}}")
    for name, fspec in functions.items():
        if name not in public_functions:
            raise GraphError(
                f"{path}: {name!r} is not a public function of the program (it has {', '.join(public_functions)})"
            )
        unknown = set(fspec) - {"shapes", "expected", "rtol", "atol"}
        shapes = fspec.get("shapes")
        if (
            unknown
            or shapes is not None
            and not (
                isinstance(shapes, list)
                and all(isinstance(s, list) and all(isinstance(d, int) and d >= 0 for d in s) for s in shapes)
            )
        ):
            raise GraphError(
                f"{path}: function {name!r}: expected keys shapes (a list of int lists), expected, "
                f"rtol, atol; got {fspec}"
            )
    return {"seed": seed, "functions": functions}


def _expected_outputs(functions: Mapping[str, Mapping[str, Any]], base: Path) -> dict[str, Any]:
    """Function -> its ``frontends.Expected`` outputs, for the functions whose spec names an ``.npz``."""
    from ireefuzz.core.frontends import Expected

    expected = {}
    for name, fspec in functions.items():
        if fspec.get("expected"):
            file = base / str(fspec["expected"])
            try:
                with np.load(file, allow_pickle=False) as npz:
                    outputs = tuple(np.asarray(npz[f"out{k}"]) for k in range(len(npz.files)))
            except (OSError, ValueError, KeyError) as e:
                why = e.strerror if isinstance(e, OSError) and e.strerror else "not an .npz of arrays out0, out1, ..."
                raise GraphError(f"@{name}'s expected outputs {file}: {why}") from None
            expected[name] = Expected(outputs, float(fspec.get("rtol", 1e-5)), float(fspec.get("atol", 1e-6)))
    return expected


# --------------------------------------------------------------------------- JAX functions


class UsageFailure(pytest.fail.Exception):  # type: ignore[name-defined]  # pytest's Failed, not exported by name
    """Bad input to ``check_jax`` (a function JAX cannot export, a non-array argument, a rejected dynamic dim):
    the test fails with one line saying what to do, no traceback."""


class JaxChecker:
    """The ``check_jax`` fixture: ``check_jax(fn, *example_args, dynamic=None, instances=None, oracles=None)``.
    Session-scoped, so Hypothesis ``@given`` tests may use it."""

    def __init__(self, sut: IreeSut) -> None:
        self.sut = sut

    def __repr__(self) -> str:
        return f"JaxChecker({self.sut!r})"

    def __call__(
        self,
        fn: Any,
        *example_args: Any,
        dynamic: Mapping[Any, Mapping[int, str]] | None = None,
        instances: Any = None,
        oracles: Iterable[str] | None = None,
        seed: int = 0,
    ) -> CaseResult:
        return check_jax(
            fn,
            *example_args,
            dynamic=dynamic,
            instances=instances,
            oracles=oracles,
            seed=seed,
            sut=self.sut,
            test_id=current_test_id(),
        )


def check_jax(
    fn: Any,
    *example_args: Any,
    dynamic: Mapping[Any, Mapping[int, str]] | None = None,
    instances: Any = None,
    oracles: Iterable[str] | None = None,
    seed: int = 0,
    sut: IreeSut | None = None,
    test_id: str = "",
) -> CaseResult:
    """Check a JAX function through IREE with every oracle at every shape instance; fail the current test
    with a repro on a new finding (``ireefuzz.tools.jax_model`` says how).

    ``dynamic`` maps an argument (position or name) to ``{axis: symbol}``, e.g. ``{0: {0: "batch"}}``;
    ``instances`` is how many shape instances to draw over awkward sizes (default 3, after the example's
    own shapes) or a list of ``{symbol: size}``. Returns the CaseResult when nothing new was found.
    """
    from ireefuzz.errors import UsageError
    from ireefuzz.tools import jax_model

    sut = sut or IreeSut()
    policy = sut.policy
    if oracles is not None:
        chosen = frozenset([oracles] if isinstance(oracles, str) else oracles)
        unknown = chosen - set(ORACLE_NAMES)
        if unknown:
            raise UsageFailure(
                f"usage error: check_jax: unknown oracles {sorted(unknown)}; choose from {', '.join(ORACLE_NAMES)}",
                pytrace=False,
            )
        policy = dataclasses.replace(policy, oracles=chosen & policy.oracles)
    try:
        case, result = jax_model.check_results(
            fn, *example_args, dynamic=dynamic, instances=instances, config=sut.config, policy=policy, seed=seed
        )
    except UsageError as e:
        raise UsageFailure(f"usage error: {str(e).splitlines()[0]}", pytrace=False) from None
    for reason in result.not_judged:
        said = "{} not judged: {}".format(*not_judged_subject(reason))
        warnings.warn(NotJudgedWarning(f"check_jax({case.function}): {said}"), stacklevel=2)
    config = jax_model.JAX.configure(sut.config)
    _judge(
        list(result.findings),
        sut,
        test_id,
        program=case.program,
        case_json={"kind": "jax", "function": case.function, "instances": list(case.instances)},
        what=repr(case),
        config=config,
        target_cpu=case.target_cpu,
        bundle_maker=lambda finding: jax_model.make_bundle(finding, case, sut.config),
    )
    return result
