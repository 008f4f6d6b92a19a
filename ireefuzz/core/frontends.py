"""The frontends of ``ireefuzz.core.evaluate``, by name: ``FRONTENDS["linalg" | "stablehlo" | "mlir"]``.

``evaluate.evaluate(cases, base, policy, FRONTENDS[name])`` checks cases through one of them; every
oracle runs in the same pipeline (``evaluate.check_compiled_case``) whatever the frontend.

* ``linalg`` (``evaluate.LINALG``): graphs emitted as linalg on tensors.
* ``stablehlo``: the same graph cases through ``jax.export`` -> ``iree-compile
  --iree-input-type=stablehlo``. A shape instance with a 0-sized symbol is skipped (JAX symbolic dims
  are >= 1: such an instance violates the exported program's contract, not IREE's); a case left with
  none, or a graph JAX cannot export, is outside the path (no findings, ``discarded=1``). A compile
  failure is signed by the failing op the diagnostic names and the gist of its message, with no
  dtype or dims (``crash/compile-error/stablehlo.dynamic_reshape[failed-to-legalize-operation-that-was]/-/-``):
  one legalization bug of shape-polymorphic export is one signature, whatever graph reached it.
* ``mlir``: raw programs (``ireefuzz check``, the plugin's ``.mlir`` items, raw corpus cases). A case is
  one public function at concrete argument shapes (``ProgramCase``; ``program_cases`` makes them);
  all functions of a program compile as that one program. Immutability findings are signed by the
  dispatches' ops. Inputs are drawn per argument element type (every float and integer width), index
  arguments in bounds (``interpret.infer_input_domains``), or given (``ProgramCase.given``). Numeric:
  outputs given by the user (``Expected``) are compared; the reference is the float64 interpreter
  (``reference_outputs``), compared under ``numeric.check_program_outputs``' error-bound rules. An op it
  cannot interpret leaves the numbers "not judged: op X" (``CaseResult.not_judged``) and the
  host-vs-generic CPU relation (``cpu_agreement``) stands in -- except where the inputs hit undefined
  behaviour (an out-of-bounds index), on which two targets may rightly differ. ``cpu_agreement`` also
  runs when the policy lists the ``config`` relation.
"""

from __future__ import annotations

import dataclasses
import re
from typing import Any, Callable, Mapping, Sequence

import numpy as np

from ireefuzz import sut
from ireefuzz.base.mlir_text import too_deep
from ireefuzz.core import relations
from ireefuzz.errors import IRParseError, NotInterpretable, ProgramError
from ireefuzz.generators.case import FLOAT_STEP, MAX_MAGNITUDE
from ireefuzz.generators.emit import Program
from ireefuzz.generators.graph import Graph, TensorType, dims_pattern
from ireefuzz.generators.stablehlo import INPUT_FLAGS, export_functions, module_of, nonzero_instances
from ireefuzz.oracles import crash, immutability, memory, metamorphic, numeric, op_cone
from ireefuzz.oracles.finding import Finding, make_signature
from ireefuzz.oracles.ir import walk
from ireefuzz.oracles.registry import spec_of

from .evaluate import LINALG, Frontend, Policy

DEFAULT_DYNAMIC_SIZE = 33


# --------------------------------------------------------------------------- StableHLO


def stablehlo_config(base: sut.CompilerConfig) -> sut.CompilerConfig:
    flags = tuple(base.flags)
    return dataclasses.replace(base, flags=flags + tuple(f for f in INPUT_FLAGS if f not in flags))


def stablehlo_compile_failure(failure: sut.CompileFailure, program_text: str, cases: Any = None) -> Finding:
    """The crash oracle's finding for a StableHLO program, signed by the failing op: the op the diagnostic
    names (``failed to legalize operation 'stablehlo.dynamic_reshape'``, ``'stablehlo.constant' op result
    must be statically shaped``), else the op at the located line; no graph dtype or dims."""
    finding = crash.check_compile_failure(failure, program_text, None)  # no graphs: dtype and dims "-"
    _, source_op, _, message = crash.locate(program_text, failure.diagnostic)
    named = _QUOTED_OP.search(message)
    failing_op = named.group(1) if named else source_op or "-"
    signature = finding.signature
    if failure.kind == "error":
        signature = make_signature("crash", finding.kind, f"{failing_op}[{crash.gist(message)}]", "-", "-")
    return dataclasses.replace(
        finding,
        signature=signature,
        evidence=dict(finding.evidence) | {"frontend": "stablehlo", "failing_op": failing_op, "source_op": source_op},
    )


_QUOTED_OP = re.compile(r"'([a-z_]+\.[a-z_.]+)'")


def exportable_instances(case: Any) -> Any:
    """The case with the shape instances an exported program accepts, or None if it accepts none."""
    instances = nonzero_instances(case.instances)
    return dataclasses.replace(case, instances=tuple(instances)) if instances else None


def _exported(case: Any, name: str) -> tuple[str, ...]:
    return export_functions(case.graph, name)


STABLEHLO = Frontend(
    "stablehlo", module_of, _exported, stablehlo_compile_failure, configure=stablehlo_config, admit=exportable_instances
)


# --------------------------------------------------------------------------- raw MLIR: the case


@dataclasses.dataclass(frozen=True)
class FunctionSignature:
    name: str
    args: tuple[tuple[tuple[int | None, ...], str], ...]  # (shape with None for a dynamic dim, element type)
    results: tuple[tuple[tuple[int | None, ...], str], ...]

    @property
    def dtype(self) -> str:
        return self.results[0][1] if self.results else "-"

    @property
    def dims(self) -> str:
        return dims_pattern(shape for shape, _ in self.results)


@dataclasses.dataclass(frozen=True, eq=False)
class Expected:
    """Outputs a user expects from one function (the plugin's ``expected`` .npz), with tolerances for floats."""

    outputs: tuple[np.ndarray, ...]
    rtol: float = 1e-5
    atol: float = 1e-6


@dataclasses.dataclass(frozen=True, eq=False)
class ProgramCase:
    """One public function of a raw MLIR program, at concrete argument types (``args``; None: compile
    only, never run). Inputs are ``given`` or drawn from ``seed`` (``draw_inputs``; index arguments
    within ``domains``)."""

    program: str
    signature: FunctionSignature
    args: tuple[TensorType, ...] | None
    seed: int = 0
    target_cpu: str = "host"
    flags: tuple[str, ...] = ()
    expected: Expected | None = None
    domains: tuple[Any, ...] = ()  # interpret.Domain per argument (empty: none known)
    given: tuple[np.ndarray, ...] | None = None  # the user's own inputs (``--inputs``)

    graph = None  # a raw program has no graph: its findings are signed by its function and dispatches

    @property
    def function(self) -> str:
        return self.signature.name

    @property
    def instances(self) -> tuple[dict[str, int], ...]:
        return ({},) if self.args is not None else ()

    def inputs(self, instance: int = 0) -> list[np.ndarray]:
        """The given inputs (copies), else deterministic ones (``draw_inputs``)."""
        if self.given is not None:
            return [np.array(x, copy=True) for x in self.given]
        return draw_inputs(self.args or (), self.domains, self.seed)

    def __repr__(self) -> str:
        shapes = ",".join("x".join(map(str, t.shape)) for t in self.args) if self.args is not None else "compile-only"
        return f"ProgramCase(@{self.function} {shapes}, seed={self.seed}, cpu={self.target_cpu})"


def signatures(text: str) -> list[FunctionSignature]:
    """The public functions of ``text`` with their tensor argument and result types."""
    from iree.compiler import ir

    deep = too_deep(text)
    if deep:  # MLIR's parser would overflow its stack in our process (SIGSEGV, no message)
        raise ProgramError(f"not a program ireefuzz will parse: {deep}")
    context = ir.Context()
    try:
        module = ir.Module.parse(text, context)
    except ir.MLIRError as e:
        first = next((line.strip() for line in str(e).splitlines() if "error" in line.lower()), str(e).splitlines()[0])
        raise ProgramError(f"not a valid MLIR program: {first}") from None
    found = []
    for op in walk(module.operation):
        if op.name not in ("func.func", "util.func"):
            continue
        attrs = op.attributes
        if "sym_visibility" in attrs and ir.StringAttr(attrs["sym_visibility"]).value == "private":
            continue
        if not op.regions[0].blocks:  # a declaration
            continue
        name = ir.StringAttr(attrs["sym_name"]).value
        ftype = ir.TypeAttr(attrs["function_type"]).value
        found.append(
            FunctionSignature(
                name,
                tuple(_tensor(name, t, "argument") for t in ftype.inputs),
                tuple(_tensor(name, t, "result") for t in ftype.results),
            )
        )
    if not found:
        raise ProgramError("the program has no public function to call")
    return found


def _tensor(function: str, t: Any, what: str) -> tuple[tuple[int | None, ...], str]:
    from iree.compiler import ir

    if not isinstance(t, ir.RankedTensorType):
        raise ProgramError(
            f"@{function}: {what} of type {t} is not a ranked tensor; ireefuzz check feeds ranked tensors only"
        )
    shape = tuple(None if t.is_dynamic_dim(i) else t.get_dim_size(i) for i in range(t.rank))
    return shape, str(t.element_type)


def concrete_shapes(
    sig: FunctionSignature, shapes: Sequence[Sequence[int]] | None, default: int = DEFAULT_DYNAMIC_SIZE
) -> list[tuple[int, ...]]:
    """One concrete shape per argument: ``shapes`` if given (checked against the static dims), else
    every dynamic dim = ``default``."""
    if shapes is None:
        return [tuple(default if d is None else d for d in shape) for shape, _ in sig.args]
    if len(shapes) != len(sig.args):
        raise ProgramError(f"@{sig.name} takes {len(sig.args)} arguments but {len(shapes)} shape(s) are given")
    out = []
    for i, ((shape, _), given) in enumerate(zip(sig.args, shapes)):
        given = tuple(given)
        if len(given) != len(shape) or any(d is not None and d != g for d, g in zip(shape, given)):
            shown = "x".join("?" if d is None else str(d) for d in shape)
            raise ProgramError(
                f"@{sig.name} argument {i} is tensor<{shown}> but its given shape is {'x'.join(map(str, given))}"
            )
        out.append(given)
    return out


def numpy_dtype(element_type: str) -> np.dtype | None:
    """The NumPy dtype IREE's runtime takes for an MLIR element type (None: not one ireefuzz can feed)."""
    if element_type == "bf16":
        import ml_dtypes

        return np.dtype(ml_dtypes.bfloat16)
    if element_type in ("f16", "f32", "f64"):
        return np.dtype(f"float{element_type[1:]}")
    if element_type in ("i1", "si1", "ui1"):
        return np.dtype(np.bool_)
    if element_type == "index":
        return np.dtype(np.int64)
    width = element_type.lstrip("uis")
    if element_type[:1] in "ius" and width in ("8", "16", "32", "64"):
        return np.dtype(f"{'u' if element_type.startswith('ui') else ''}int{width}")
    return None


FEEDABLE = "f16, bf16, f32, f64, i1, i8, i16, i32, i64 (signless, si, ui) and index"


def argument_types(sig: FunctionSignature, shapes: Sequence[tuple[int, ...]]) -> tuple[TensorType, ...]:
    """The concrete argument types inputs are drawn for (an element type with no NumPy dtype is refused)."""
    for _, dtype in sig.args:
        if numpy_dtype(dtype) is None:
            raise ProgramError(f"@{sig.name}: cannot generate inputs of element type {dtype}; supported: {FEEDABLE}")
    return tuple(TensorType(tuple(shape), dtype) for (_, dtype), shape in zip(sig.args, shapes))


def draw_inputs(args: Sequence[TensorType], domains: Sequence[Any], seed: int) -> list[np.ndarray]:
    """Deterministic inputs: floats k/8 in [-2, 2] (exact in every float type), integers in [-8, 8] ([0, 8]
    unsigned, i1 0 / 1), and index arguments (``domains``) in bounds: [0, upper), or [0, 2) when the
    bound is unknown."""
    rng = np.random.default_rng(seed)
    shapes = [t.concrete({}) for t in args]  # concrete types (argument_types)
    out = []
    for i, t in enumerate(args):
        dtype, shape = numpy_dtype(t.dtype), shapes[i]
        if dtype is None:
            raise ProgramError(f"cannot generate inputs of element type {t.dtype}; supported: {FEEDABLE}")
        domain = domains[i] if i < len(domains) else None
        if domain is not None and domain.index:
            upper = domain.upper(shapes)
            out.append(rng.integers(0, max(upper if upper is not None else 2, 1), shape).astype(dtype))
        elif dtype.kind == "b":
            out.append(rng.integers(0, 2, shape).astype(dtype))
        elif dtype.kind in "iu":
            out.append(rng.integers(0 if dtype.kind == "u" else -8, 9, shape).astype(dtype))
        else:
            out.append((rng.integers(-MAX_MAGNITUDE, MAX_MAGNITUDE + 1, shape) / FLOAT_STEP).astype(dtype))
    return [np.asarray(x) for x in out]


def input_domains(text: str, function: str) -> tuple[Any, ...]:
    """Which arguments are indices and their bounds (``interpret.infer_input_domains``); none if it cannot tell."""
    from ireefuzz.oracles.interpret import infer_input_domains

    try:
        return tuple(infer_input_domains(text, function))
    except (NotInterpretable, ProgramError):
        return ()


# How an ``--inputs`` file names a function's arguments, most specific first; ``a<i>`` is a repro bundle's
# ``inputs.npz``, so a bundle's inputs feed ``check`` as they are.
INPUT_NAMINGS = ("{function}.arg{i}", "arg{i}", "a{i}")


def given_inputs(sig: FunctionSignature, arrays: Mapping[str, np.ndarray]) -> tuple[np.ndarray, ...] | None:
    """``sig``'s inputs from an ``--inputs`` file, named as in ``INPUT_NAMINGS`` (None: the file has none
    for it, or has more positional arrays than it takes). Checked against the signature: count, rank,
    static dims, dtype."""
    for naming in INPUT_NAMINGS:
        keys = [naming.format(function=sig.name, i=i) for i in range(len(sig.args))]
        if any(k in arrays for k in keys):
            break
    else:
        return None
    if naming.format(function=sig.name, i=len(sig.args)) in arrays and "{function}" not in naming:
        return None
    missing = [k for k in keys if k not in arrays]
    if missing:
        raise ProgramError(
            f"--inputs: @{sig.name} takes {len(sig.args)} arguments; the file lacks {', '.join(missing)}"
        )
    given = []
    for key, (shape, dtype) in zip(keys, sig.args):
        x = np.asarray(arrays[key])
        want = numpy_dtype(dtype)
        shown = "x".join("?" if d is None else str(d) for d in shape)
        if x.ndim != len(shape) or any(d is not None and d != n for d, n in zip(shape, x.shape)):
            raise ProgramError(
                f"--inputs: {key} has shape {'x'.join(map(str, x.shape)) or 'scalar'}, "
                f"@{sig.name} takes tensor<{shown}x{dtype}>"
            )
        if want is None or x.dtype != want:
            raise ProgramError(
                f"--inputs: {key} has dtype {x.dtype}, @{sig.name} takes {dtype} "
                f"({want if want is not None else 'not feedable'})"
            )
        given.append(x)
    return tuple(given)


def program_cases(
    text: str,
    *,
    functions: Sequence[str] | None = None,
    shapes: Mapping[str, Sequence[Sequence[int]]] | Sequence[Sequence[int]] | None = None,
    seed: int = 0,
    run: bool = True,
    expected: Mapping[str, Expected] | None = None,
    target_cpu: str = "host",
    flags: tuple[str, ...] = (),
    inputs: Mapping[str, np.ndarray] | None = None,
) -> list[ProgramCase]:
    """One case per public function of ``text`` (or of ``functions``). ``shapes`` is one list of argument
    shapes (for every function with that many arguments) or a mapping function -> argument shapes.
    ``inputs`` (an ``--inputs`` file's arrays, ``given_inputs``) fixes a function's inputs and shapes."""
    sigs = signatures(text)
    if functions:
        known = {s.name for s in sigs}
        unknown = [f for f in functions if f not in known]
        if unknown:
            raise ProgramError(f"no public function {', '.join(unknown)}; the program has {', '.join(sorted(known))}")
        sigs = [s for s in sigs if s.name in functions]
    cases = []
    for sig in sigs:
        args, domains, own = None, (), None
        if run:
            own = given_inputs(sig, inputs) if inputs else None
            given = shapes.get(sig.name) if isinstance(shapes, Mapping) else shapes
            if given is not None and not isinstance(shapes, Mapping) and len(given) != len(sig.args):
                given = None  # a positional --shapes applies to the functions it fits
            if own is not None:
                given = [x.shape for x in own]
            args = argument_types(sig, concrete_shapes(sig, given))
            domains = input_domains(text, sig.name) if own is None else ()
        cases.append(
            ProgramCase(text, sig, args, seed, target_cpu, flags, (expected or {}).get(sig.name), domains, own)
        )
    _all_inputs_used(inputs or {}, sigs)
    return cases


def _all_inputs_used(arrays: Mapping[str, np.ndarray], sigs: Sequence[FunctionSignature]) -> None:
    """An ``--inputs`` array that names no argument of a checked function is a mistake, not something to ignore."""
    known = {naming.format(function=s.name, i=i) for s in sigs for naming in INPUT_NAMINGS for i in range(len(s.args))}
    stray = sorted(set(arrays) - known)
    if stray:
        raise ProgramError(f"--inputs: {', '.join(stray)} names no argument of {', '.join('@' + s.name for s in sigs)}")


# --------------------------------------------------------------------------- raw MLIR: the judges


@dataclasses.dataclass(frozen=True)
class NotJudged:
    """No reference for a program's numbers, and why (e.g. ``op iree_linalg_ext.topk``)."""

    reason: str

    @property
    def undefined(self) -> bool:
        """The inputs hit undefined behaviour (two correct compilations may then differ)."""
        from ireefuzz.oracles.interpret import is_undefined

        return is_undefined(self.reason)


def reference_outputs(program: str, function: str, inputs: Sequence[np.ndarray], time_limit_s: float = 0.0) -> Any:
    """The float64 interpreter's run of ``function`` on ``inputs`` (``interpret.Interpretation``: outputs,
    accumulation length, depth), or ``NotJudged("op X")`` where it cannot judge. (The numeric oracle also
    takes plain outputs from a substitute: then depth 1 and the longest input dim as the accumulation.)"""
    from ireefuzz.oracles import interpret

    try:
        limit = time_limit_s or REFERENCE_TIME_LIMIT_S
        return interpret.interpret_traced(program, function, inputs, time_limit_s=limit)  # poison: NotInterpretable
    except NotInterpretable as e:
        return NotJudged(str(e))
    except ProgramError as e:  # e.g. a dialect the interpreter's parse does not register
        return NotJudged(f"the interpreter cannot run the program: {str(e).splitlines()[0][:200]}")


REFERENCE_TIME_LIMIT_S = 120.0  # per interpreter run: a program that never ends is not judged, never a hang


PERTURBED_RUNS = 3


@dataclasses.dataclass(frozen=True)
class NumericReference:
    """What a raw program's numbers are judged against: the float64 interpreter (``INTERPRETER``), or a stand-in
    such as JAX in float64 (``tools.jax_model``). One numeric oracle (``_program_numbers``) serves both."""

    name: str  # as a finding's message names it
    # (case, inputs) -> the reference's run (``outputs``, ``depth``, ``longest_reduction``), or ``NotJudged``
    evaluate: Callable[[Any, Sequence[np.ndarray]], Any]
    float_types: Callable[[Any, Any], Sequence[str]]  # (case, its run) -> the float dtypes the tolerance follows
    agreement: bool = True  # host-vs-generic agreement where it cannot judge, and for the ``config`` relation
    cones: bool = True  # key a wrong output by the op cone the program's IR gives it (``with_cones``)
    evidence: Callable[[Any, Mapping[str, int]], Mapping[str, Any]] = lambda run, sizes: {}  # added to findings


INTERPRETER = NumericReference(
    "interpreter",
    lambda case, inputs: reference_outputs(case.program, case.function, inputs),
    lambda case, run: float_types(case.program),
)


def perturbed_outputs(
    reference: NumericReference, case: Any, inputs: Sequence[np.ndarray], rtol: float
) -> list[list[np.ndarray] | None]:
    """The reference's outputs on ``inputs`` whose floats are moved by up to ``rtol`` relatively (random signs,
    seeded by the case; integers and indices unchanged), ``PERTURBED_RUNS`` times; None for a run it could not
    judge."""
    rng = np.random.default_rng(case.seed)
    runs: list[list[np.ndarray] | None] = []
    for _ in range(PERTURBED_RUNS):
        moved = [
            x.astype(np.float64) * (1 + rtol * rng.choice((-1.0, 1.0), np.shape(x)))
            if x.dtype.kind == "f" or x.dtype.name == "bfloat16"
            else x
            for x in inputs
        ]
        run = reference.evaluate(case, moved)
        runs.append(None if isinstance(run, NotJudged) else list(getattr(run, "outputs", run)))
    return runs


def dispatch_ops(dispatches: Sequence[sut.DispatchIR], fallback: str) -> str:
    """The compute ops of all of a function's dispatches, in order, deduplicated (``fallback`` if none, or
    if the IR does not parse: another release's syntax)."""
    try:
        ops = [op for d in dispatches if d.source for op in memory.dispatch_op_pattern(d).split(">")]
    except IRParseError:
        return fallback
    return ">".join(dict.fromkeys(op for op in ops if op != "-")) or fallback


def _stub_graph(sig: FunctionSignature) -> Graph:
    return Graph(
        tuple(
            TensorType(tuple(f"d{i}" if d is None else d for i, d in enumerate(shape)), dtype)
            for shape, dtype in sig.args
        ),
        (),
        (),
    )


def _program_mutated_inputs(
    case: ProgramCase, before: Sequence[np.ndarray], after: Sequence[np.ndarray], dispatches: Sequence[sut.DispatchIR]
) -> list[Finding]:
    """The immutability oracle, signed by the dispatches' ops (a raw program has no graph nodes to name)."""
    found = immutability.check_inputs_unchanged(_stub_graph(case.signature), before, after)
    ops = dispatch_ops(dispatches, case.function) if found else ""
    return [
        dataclasses.replace(f, signature=make_signature("immutability", f.kind, ops, *f.signature.rsplit("/", 2)[1:]))
        for f in found
    ]


def _program_numbers(
    case: ProgramCase,
    sizes: Mapping[str, int],
    inputs: Sequence[np.ndarray],
    outputs: Sequence[np.ndarray],
    *,
    config: sut.CompilerConfig,
    policy: Policy,
    dispatches: Sequence[sut.DispatchIR],
    reference: NumericReference = INTERPRETER,
) -> numeric.NumericResult:
    """The numeric oracle for a raw program: the user's expected outputs, the ``reference`` (the interpreter by
    default) under error-bound rules and, where it cannot judge an op or the ``config`` relation is asked for,
    host-vs-generic agreement (never on undefined behaviour; only for a reference that asks for it)."""
    ops = dispatch_ops(dispatches, case.function)
    findings: list[Finding] = []
    if case.expected is not None:
        findings += compare_with_expected(case.function, ops, outputs, case.expected)
    run = reference.evaluate(case, inputs)
    keyed = (lambda fs: with_cones(case, fs)) if reference.cones else tuple
    if isinstance(run, NotJudged):
        if reference.agreement and not run.undefined:
            findings += cpu_agreement(case, inputs, outputs, config, ops)
        return numeric.NumericResult(keyed(findings), 0, (run.reason,))
    truths = getattr(run, "outputs", run)  # a run, or plain outputs (a stand-in reference)
    accumulation = getattr(run, "longest_reduction", max((d for x in inputs for d in np.shape(x)), default=1))
    rtol = numeric.relative_tolerance(reference.float_types(case, run), getattr(run, "depth", 1), accumulation)
    judged = numeric.check_program_outputs(
        case.function,
        ops,
        outputs,
        truths,
        [dtype for _, dtype in case.signature.results],
        rtol,
        lambda: perturbed_outputs(reference, case, inputs, rtol),
    )
    extra = dict(reference.evidence(run, sizes))
    findings += [
        f
        if reference is INTERPRETER
        else dataclasses.replace(
            f, message=f.message.replace("interpreter", reference.name), evidence=dict(f.evidence) | extra
        )
        for f in judged.findings
    ]
    if reference.agreement and "config" in policy.relations:
        findings += cpu_agreement(case, inputs, outputs, config, ops)
    return numeric.NumericResult(keyed(findings), judged.discarded)


def with_cones(case: ProgramCase, findings: Sequence[Finding]) -> tuple[Finding, ...]:
    """Each numeric finding with the op cone of its wrong output, read from the program (``oracles.op_cone``): a
    raw program's wrong value is keyed by its ops as a graph's is (``cause.cone_pattern``), never by its function
    or by dispatches that hoisting may have left none of."""
    out = []
    for f in findings:
        k = f.evidence.get("output")
        wrong_output = spec_of(f.oracle).reproduce(f.kind) == "outputs"
        cone = op_cone.output_cone(case.program, case.function, k) if wrong_output and isinstance(k, int) else None
        out.append(f if cone is None else f.with_evidence(cone=cone))
    return tuple(out)


def float_types(program: str) -> list[str]:
    """The float element types a program mentions (its tolerance follows the least precise)."""
    return sorted(set(_FLOAT_TYPE.findall(program)))


_FLOAT_TYPE = re.compile(r"(?<![a-wyzA-Z0-9_])(bf16|f16|f32|f64)(?!\w)")  # 4xf16, not bf16's f16


def _tolerance(case: ProgramCase, inputs: Sequence[np.ndarray]) -> float:
    accumulation = max((d for x in inputs for d in x.shape), default=1)
    return metamorphic.default_tolerance(case.signature.dtype, accumulation)


def cpu_agreement(
    case: ProgramCase, inputs: Sequence[np.ndarray], outputs: Sequence[np.ndarray], config: sut.CompilerConfig, ops: str
) -> list[Finding]:
    """The configuration relation on a raw program: compiled for the other target CPU (``host`` vs
    ``generic``), it must compute the same numbers (``metamorphic/output-mismatch``, ``variant-failed``)."""
    other_cpu = "generic" if config.target_cpu != "generic" else "host"
    other = dataclasses.replace(config, target_cpu=other_cpu, observe=False)
    theirs = relations.observe_program(f"cpu={other_cpu}", case.program, {case.function: [inputs]}, other)
    ours = metamorphic.Observation(f"cpu={config.target_cpu}", (tuple(outputs),))
    return metamorphic.compare(
        "config",
        ours,
        theirs[case.function],
        ops=ops,
        dtype=case.signature.dtype,
        dims=case.signature.dims,
        rtols=[_tolerance(case, inputs)],
        profiles=False,
    )


def compare_with_expected(function: str, ops: str, actual: Sequence[np.ndarray], expected: Expected) -> list[Finding]:
    """``numeric`` findings where ``actual`` differs from the expected outputs (floats within the tolerances,
    anything else exactly); one per output, at its first wrong element."""
    findings = []
    for k, (got, want) in enumerate(zip(actual, expected.outputs)):
        got, want = np.asarray(got), np.asarray(want)
        dtype = {
            np.dtype(np.float32): "f32",
            np.dtype(np.float16): "f16",
            np.dtype(np.int32): "i32",
            np.dtype(np.int8): "i8",
            np.dtype(np.bool_): "i1",
        }.get(want.dtype, str(want.dtype))
        sig = lambda kind: make_signature("numeric", kind, ops, dtype, dims_pattern([want.shape]))
        if got.shape != want.shape:
            findings.append(
                Finding(
                    "numeric",
                    "wrong-shape",
                    sig("wrong-shape"),
                    f"{function} output {k} has shape {got.shape}, expected {want.shape}",
                    {
                        "function": function,
                        "output": k,
                        "actual_shape": list(got.shape),
                        "expected_shape": list(want.shape),
                    },
                )
            )
            continue
        if want.dtype.kind == "f":
            bad = ~np.isclose(
                got.astype(np.float64), want.astype(np.float64), rtol=expected.rtol, atol=expected.atol, equal_nan=True
            )
        else:
            bad = got != want
        if not bad.any():
            continue
        worst = tuple(int(i) for i in np.argwhere(bad)[0])
        nan = want.dtype.kind == "f" and bool(np.isnan(got[worst]) != np.isnan(want[worst]))
        kind = "nan-mismatch" if nan else "wrong-value"
        findings.append(
            Finding(
                "numeric",
                kind,
                sig(kind),
                f"{function} output {k} is wrong at {list(worst)}: IREE {got[worst].item()}, expected "
                f"{want[worst].item()} ({int(bad.sum())} of {bad.size} elements)",
                {
                    "function": function,
                    "output": k,
                    "index": list(worst),
                    "iree": got[worst].item(),
                    "expected": want[worst].item(),
                    "mismatches": int(bad.sum()),
                    "rtol": expected.rtol,
                    "atol": expected.atol,
                },
            )
        )
    return findings


def _given_program(texts: Mapping[str, str]) -> Program:
    """All functions of a batch are one program (``batch_key`` groups by program text)."""
    return Program(next(iter(texts.values())), tuple(texts))


def _program_text(case: ProgramCase, name: str) -> str:
    return case.program


def _program_compile_failure(failure: sut.CompileFailure, text: str, cases: Any) -> Finding:
    return crash.check_compile_failure(failure, text)


def _function_of(case: ProgramCase, index: int) -> str:
    return case.function


def _by_program(case: ProgramCase) -> tuple[str, tuple[str, ...], str]:
    return case.target_cpu, case.flags, case.program


def _program_ends(case: ProgramCase, inputs: Sequence[np.ndarray], seconds: float) -> bool:
    """A raw program is known to end on ``inputs`` when the reference interpreter finishes it within ``seconds``
    (the run's own limit: a program IREE could not finish in it is given no longer here)."""
    return not isinstance(reference_outputs(case.program, case.function, inputs, seconds), NotJudged)


MLIR = Frontend(
    "mlir",
    _given_program,
    _program_text,
    _program_compile_failure,
    function=_function_of,
    batch_key=_by_program,
    splits=False,
    mutated_inputs=_program_mutated_inputs,
    numbers=_program_numbers,
    ends=_program_ends,
)

FRONTENDS: Mapping[str, Frontend] = {"linalg": LINALG, "stablehlo": STABLEHLO, "mlir": MLIR}
