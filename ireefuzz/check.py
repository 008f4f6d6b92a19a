"""``ireefuzz check PROGRAM.mlir``: every applicable oracle on a user's own MLIR program.

Every public function of the program is checked. Function signatures are read with the MLIR
Python bindings shipped in IREE; inputs are generated from them (floats are small multiples of
1/8, ints small). A dynamic dim gets ``--shapes`` (one concrete shape per argument, e.g.
``33x16,16x49``) or, by default, the same awkward size (33) everywhere, so dims the program
requires to be equal stay equal.

Oracles: crash (compile and run), memory, fusion, immutability (the caller's buffers are
unchanged after the call) and numeric -- which for raw MLIR, with no reference to compare with,
is the configuration-variant metamorphic relation: the program compiled for the other target CPU
(``host`` vs ``generic``) must compute the same numbers.

``check_program`` is the one implementation of raw-MLIR checking; ``ireefuzz.corpus`` uses it
for raw-MLIR corpus cases and compile-only cases.

Exit status: 0 no finding, 1 findings, 2 usage or infrastructure error.
"""
from __future__ import annotations

import argparse
import dataclasses
import json
import sys
from pathlib import Path
from typing import Any, Mapping, Sequence

import numpy as np
from ireefuzz import releases
from ireefuzz.errors import ProgramError

DEFAULT_DYNAMIC_SIZE = 33
ORACLE_CHOICES = ("crash", "memory", "fusion", "immutability", "numeric")


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
        from ireefuzz.oracles.finding import dims_pattern

        return dims_pattern(shape for shape, _ in self.results)



def signatures(text: str) -> list[FunctionSignature]:
    """The public functions of ``text`` with their tensor argument and result types."""
    from iree.compiler import ir

    context = ir.Context()
    try:
        module = ir.Module.parse(text, context)
    except ir.MLIRError as e:
        first = next((line.strip() for line in str(e).splitlines() if "error" in line.lower()), str(e).splitlines()[0])
        raise ProgramError(f"not a valid MLIR program: {first}") from None
    found = []
    for op in _walk(module.operation):
        if op.name not in ("func.func", "util.func"):
            continue
        attrs = op.attributes
        if "sym_visibility" in attrs and ir.StringAttr(attrs["sym_visibility"]).value == "private":
            continue
        if not op.regions[0].blocks:  # a declaration
            continue
        name = ir.StringAttr(attrs["sym_name"]).value
        ftype = ir.TypeAttr(attrs["function_type"]).value
        found.append(FunctionSignature(name, tuple(_tensor(name, t, "argument") for t in ftype.inputs),
                                       tuple(_tensor(name, t, "result") for t in ftype.results)))
    if not found:
        raise ProgramError("the program has no public function to call")
    return found


def _walk(op: Any):
    for region in op.regions:
        for block in region.blocks:
            for child in block.operations:
                yield child.operation
                yield from _walk(child.operation)


def _tensor(function: str, t: Any, what: str) -> tuple[tuple[int | None, ...], str]:
    from iree.compiler import ir

    if not isinstance(t, ir.RankedTensorType):
        raise ProgramError(f"@{function}: {what} of type {t} is not a ranked tensor; ireefuzz check feeds ranked tensors only")
    rt = t
    shape = tuple(None if rt.is_dynamic_dim(i) else rt.get_dim_size(i) for i in range(rt.rank))
    return shape, str(rt.element_type)


def parse_shapes(text: str | None) -> list[tuple[int, ...]] | None:
    """``"33x16,16x49"`` -> ``[(33, 16), (16, 49)]``; a rank-0 argument is written as an empty item."""
    if text is None:
        return None
    shapes = []
    for item in text.split(","):
        item = item.strip()
        try:
            shapes.append(tuple(int(d) for d in item.split("x")) if item else ())
        except ValueError:
            raise ProgramError(f"--shapes: {item!r} is not a shape like 33x16") from None
    return shapes


def concrete_shapes(sig: FunctionSignature, shapes: Sequence[Sequence[int]] | None,
                    default: int = DEFAULT_DYNAMIC_SIZE) -> list[tuple[int, ...]]:
    """One concrete shape per argument: ``shapes`` if given (checked against the static dims), else
    every dynamic dim = ``default``."""
    if shapes is None:
        return [tuple(default if d is None else d for d in shape) for shape, _ in sig.args]
    if len(shapes) != len(sig.args):
        raise ProgramError(f"@{sig.name} takes {len(sig.args)} arguments but --shapes gives {len(shapes)}")
    out = []
    for i, ((shape, _), given) in enumerate(zip(sig.args, shapes)):
        given = tuple(given)
        if len(given) != len(shape) or any(d is not None and d != g for d, g in zip(shape, given)):
            shown = "x".join("?" if d is None else str(d) for d in shape)
            raise ProgramError(f"@{sig.name} argument {i} is tensor<{shown}> but --shapes gives {'x'.join(map(str, given))}")
        out.append(given)
    return out


def make_inputs(sig: FunctionSignature, shapes: Sequence[tuple[int, ...]], seed: int) -> list[np.ndarray]:
    """Deterministic inputs: the graph generator's rule (floats k/8 in [-2, 2], small ints)."""
    from ireefuzz.generators.case import make_inputs as graph_inputs
    from ireefuzz.generators.graph import DTYPES, Graph, TensorType

    types = []
    for (_, dtype), shape in zip(sig.args, shapes):
        if dtype not in DTYPES:
            raise ProgramError(f"@{sig.name}: cannot generate inputs of element type {dtype}; supported: {', '.join(DTYPES)}")
        types.append(TensorType(tuple(shape), dtype))
    return graph_inputs(Graph(tuple(types), (), ()), {}, seed)


def _stub_graph(sig: FunctionSignature):
    from ireefuzz.generators.graph import Graph, TensorType

    return Graph(tuple(TensorType(tuple(f"d{i}" if d is None else d for i, d in enumerate(shape)), dtype)
                       for shape, dtype in sig.args), (), ())


def _program_ops(dispatches: Sequence[Any], fallback: str) -> str:
    from ireefuzz.errors import IRParseError
    from ireefuzz.oracles.memory import compute_op_pattern, parse_ir

    ops: dict[str, None] = {}
    try:
        for d in dispatches:
            if d.source:
                for op in compute_op_pattern(parse_ir(d.source)).split(">"):
                    if op != "-":
                        ops[op] = None
    except IRParseError:  # another release's IR syntax: name the function instead
        return fallback
    return ">".join(ops) or fallback


def _profile(dispatches: Sequence[Any]) -> Any:
    """The memory profile, None where the IR does not parse (another release's syntax)."""
    from ireefuzz.errors import IRParseError
    from ireefuzz.oracles.memory import profile

    try:
        return profile(dispatches)
    except IRParseError:
        return None


def check_program(text: str, config: Any = None, policy: Any = None, *, functions: Sequence[str] | None = None,
                  shapes: Mapping[str, Sequence[Sequence[int]]] | Sequence[Sequence[int]] | None = None,
                  seed: int = 0, compile_only: bool = False) -> list:
    """Run the applicable oracles on raw MLIR ``text``; returns Findings.

    ``shapes`` is either one list of argument shapes (for every function with that many
    arguments) or a mapping function -> argument shapes. ``config`` is a ``sut.CompilerConfig``,
    ``policy`` an ``evaluate.Policy``; ``numeric`` in the policy runs the CPU-variant relation.
    """
    from ireefuzz import sut
    from ireefuzz.evaluate import Policy
    from ireefuzz.oracles import crash, fusion, immutability, memory, metamorphic
    from ireefuzz.oracles.finding import Finding, make_signature

    config = config or sut.CompilerConfig()
    policy = policy or Policy()
    sigs = signatures(text)
    if functions:
        known = {s.name for s in sigs}
        unknown = [f for f in functions if f not in known]
        if unknown:
            raise ProgramError(f"no public function {', '.join(unknown)}; the program has {', '.join(sorted(known))}")
        sigs = [s for s in sigs if s.name in functions]
    inputs: dict[str, list[np.ndarray]] = {}
    if not compile_only:
        for sig in sigs:
            given = shapes.get(sig.name) if isinstance(shapes, Mapping) else shapes
            if given is not None and not isinstance(shapes, Mapping) and len(given) != len(sig.args):
                given = None  # a positional --shapes applies to the functions it fits
            inputs[sig.name] = make_inputs(sig, concrete_shapes(sig, given), seed)
    oracles = policy.oracles
    artifact = sut.compile_mlir(text, config)
    if isinstance(artifact, sut.CompileFailure):
        return [crash.check_compile_failure(artifact, text)] if "crash" in oracles else []
    findings: list[Finding] = []
    module = None if compile_only else sut.load_module(artifact, config)
    base_obs: dict[str, metamorphic.Observation] = {}
    for sig in sigs:
        dispatches = sut.dispatches_of(artifact, sig.name)
        if "memory" in oracles:
            findings += memory.check_memory(dispatches, max_static_alloca_bytes=policy.max_static_alloca_bytes)
        if "fusion" in oracles:
            findings += fusion.check_fusion(dispatches, artifact.statistics if len(sigs) == 1 else None)
        if module is None:
            continue
        outcome = module.call(sig.name, inputs[sig.name])
        if isinstance(outcome, sut.RunFailure):
            if "crash" in oracles:
                findings.append(crash.check_run_failure(outcome, None, sig.name))
            continue
        if "immutability" in oracles:
            ops = _program_ops(dispatches, sig.name)
            for f in immutability.check_inputs_unchanged(_stub_graph(sig), inputs[sig.name], outcome.inputs_after):
                findings.append(dataclasses.replace(f, signature=make_signature(
                    "immutability", f.kind, ops, *f.signature.rsplit("/", 2)[1:])))
        base_obs[sig.name] = metamorphic.Observation(f"cpu={config.target_cpu}", (outcome.outputs,),
                                                     _profile(dispatches))
    if "numeric" in oracles and base_obs:
        other_cpu = "generic" if config.target_cpu != "generic" else "host"
        other = dataclasses.replace(config, target_cpu=other_cpu, observe=False)
        observed = metamorphic.observe_program(f"cpu={other_cpu}", text, {fn: [inputs[fn]] for fn in base_obs}, other)
        for sig in sigs:
            if sig.name not in base_obs:
                continue
            accumulation = max((d for shape in (x.shape for x in inputs[sig.name]) for d in shape), default=1)
            rtol = metamorphic.default_tolerance(sig.dtype, accumulation)
            dispatches = sut.dispatches_of(artifact, sig.name)
            findings += metamorphic.compare("config", base_obs[sig.name], observed[sig.name],
                                            ops=_program_ops(dispatches, sig.name), dtype=sig.dtype, dims=sig.dims,
                                            rtols=[rtol], profiles=False)
    return _first_per_signature(findings)


def _first_per_signature(findings: Sequence[Any]) -> list:
    seen: dict[str, Any] = {}
    for f in findings:
        seen.setdefault(f.signature, f)
    return list(seen.values())


# --------------------------------------------------------------------------- CLI


def configure(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("program", metavar="PROGRAM.mlir", help="an MLIR program (linalg / StableHLO / ...) to check")
    parser.add_argument("--shapes", metavar="SHAPES", default=None,
                        help="one concrete shape per argument for dynamic dims, e.g. 33x16,16x49 "
                             f"(default: every dynamic dim = {DEFAULT_DYNAMIC_SIZE})")
    parser.add_argument("--flags", metavar="FLAGS", default="",
                        help="extra iree-compile flags, space-separated and quoted, e.g. '--iree-opt-data-tiling=false'")
    parser.add_argument("--target-cpu", metavar="CPU", default="host", help="--iree-llvmcpu-target-cpu (default: host)")
    parser.add_argument("--iree-compile", metavar="PATH", default=None,
                        help="an external iree-compile binary (default: the installed iree-base-compiler's)")
    releases.add_arguments(parser)
    parser.add_argument("--oracles", metavar="LIST", default=",".join(ORACLE_CHOICES),
                        help=f"comma-separated oracles to run, from {', '.join(ORACLE_CHOICES)} (default: all)")
    parser.add_argument("--max-static-alloca-bytes", metavar="N", type=int, default=0,
                        help="tolerate static allocas outside loops up to N bytes (default: 0, report every alloca)")
    parser.add_argument("--seed", metavar="N", type=int, default=0, help="input seed (default: 0)")
    parser.add_argument("--json", action="store_true", help="print the findings as a JSON list")


def main(args: argparse.Namespace) -> int:
    import shlex

    from ireefuzz import sut
    from ireefuzz.errors import UsageError
    from ireefuzz.evaluate import Policy

    path = Path(args.program)
    try:
        text = path.read_text()
    except OSError as e:
        raise UsageError(f"cannot read {path}: {e.strerror}") from None
    oracles = frozenset(o.strip() for o in args.oracles.split(",") if o.strip())
    unknown = oracles - set(ORACLE_CHOICES)
    if unknown:
        raise UsageError(f"--oracles: unknown {', '.join(sorted(unknown))}; choose from {', '.join(ORACLE_CHOICES)}")
    config = sut.CompilerConfig(iree_compile=args.iree_compile, target_cpu=args.target_cpu,
                                flags=tuple(shlex.split(args.flags)), release=args.release,
                                runtime_python=args.iree_runtime)
    unable = releases.prepare(config, log=lambda m: print(f"ireefuzz check: {m}", file=sys.stderr))
    policy = Policy(oracles=oracles - unable, max_static_alloca_bytes=args.max_static_alloca_bytes)
    try:
        findings = check_program(text, config, policy, shapes=parse_shapes(args.shapes), seed=args.seed)
    except ProgramError as e:
        raise UsageError(f"{path}: {e}") from None
    if args.json:
        print(json.dumps([json.loads(f.dumps()) for f in findings], indent=2))
    else:
        for f in findings:
            print(f"{f.signature}\n    {f.message}")
        print(f"{len(findings)} finding(s) in {path}", file=sys.stderr)
    return 1 if findings else 0
