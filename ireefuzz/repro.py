"""``ireefuzz repro FINDING --out DIR``: shrink a finding, confirm it, write a self-contained bundle.

Bundle layout (every file written atomically):

  program.mlir      the minimal program (one ``func.func @main``)
  inputs.npz        its inputs ``a0, a1, ...`` (plain arrays: ``np.load(..., allow_pickle=False)``)
  inputs/a<i>.npy   the same, one file each, for ``iree-run-module --input=@inputs/a0.npy``
  expected.npz      reference outputs: ``jax_<k>`` (JAX at the program's dtypes), ``f64_<k>`` (NumPy float64)
  run.sh            reproduces the bug with stock ``iree-compile`` / ``iree-run-module`` only;
                    exit 1 = reproduces, 0 = does not, 2 = could not run. Honours IREE_COMPILE,
                    IREE_RUN_MODULE, PYTHON and IREE_COMPILE_FLAGS (``ireefuzz bisect`` uses them).
  check_inputs.py   (immutability findings) the input-mutation check with ``iree.runtime`` + numpy only
  case.json         the minimal Case (``Case.from_json``)
  finding.json      the finding on the minimal case, plus ``status`` / ``original`` / ``shrink``
  ISSUE.md          the upstream bug report (``ireefuzz bisect`` appends its answer)

A case that reproduces only some of the time is marked flaky: its bundle gets no ISSUE.md.
"""
from __future__ import annotations

import argparse
import dataclasses
import json
import re
import subprocess
import tempfile
from pathlib import Path
from typing import Any, Mapping, Sequence

import numpy as np

from ireefuzz._io import atomic_write_bytes, atomic_write_json, atomic_write_text, read_jsonl
from ireefuzz.errors import UsageError
from ireefuzz.generators.case import Case
from ireefuzz.generators.emit import emit
from ireefuzz.oracles.finding import Finding

CONFIRM_RUNS = 3
# Ops whose appearance in the IR marks each memory finding kind (for run.sh and the first-pass search).
MEMORY_MARKERS = {"alloca": "memref.alloca", "alloca-dynamic": "memref.alloca(%", "alloca-in-loop": "memref.alloca",
                  "alloc": "memref.alloc(", "copy": "memref.copy"}
MEMORY_DUMP_BEFORE = {"copy": "iree-codegen-cleanup-buffer-alloc-view"}  # default: iree-convert-to-llvm
TOLERANCE = {"f32": (1e-5, 1e-5), "f16": (1e-2, 1e-2)}  # (rtol, atol) for run.sh's comparison; ints exact


def _mod(name: str) -> Any:
    """``ireefuzz.<name>`` the module (the package re-exports functions under some of these names)."""
    import importlib

    return importlib.import_module(f"ireefuzz.{name}")


# --------------------------------------------------------------------------- CLI


def configure(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("finding", metavar="FINDING", help="a JSON file with one finding (Finding.dumps()), "
                        "or a findings.jsonl together with --line")
    parser.add_argument("--line", dest="line", metavar="N", type=int, default=None,
                        help="take line N (1-based) of a findings.jsonl")
    parser.add_argument("--out", dest="out", metavar="DIR", required=True, help="bundle directory (created)")
    parser.add_argument("--no-shrink", dest="shrink", action="store_false", help="bundle the case as found")
    parser.add_argument("--confirm-runs", dest="confirm_runs", metavar="N", type=int, default=CONFIRM_RUNS,
                        help=f"re-runs of the minimal case; flaky ones are not filed (default {CONFIRM_RUNS})")
    parser.add_argument("--iree-compile", dest="iree_compile", metavar="PATH", default=None,
                        help="an external iree-compile (default: the installed wheel's)")
    _mod("releases").add_arguments(parser)


def main(args: argparse.Namespace) -> int:
    finding = load_finding(args.finding, args.line)
    sut = _mod("sut")

    config = sut.CompilerConfig(iree_compile=args.iree_compile, release=args.release, runtime_python=args.iree_runtime)
    _mod("releases").prepare(config, log=lambda m: print(f"  {m}"))
    result = shrink_and_bundle(finding, Path(args.out), config, shrink=args.shrink, confirm_runs=args.confirm_runs,
                               log=lambda m: print(f"  {m}"))
    print(f"{result.status}: {finding.signature}\n  {result.before} -> {result.after}\n  bundle: {result.path}")
    return 1 if result.status == "confirmed" else 0


def load_finding(path: str, line: int | None = None) -> Finding:
    p = Path(path)
    if not p.is_file():
        raise UsageError(f"{path}: no such file; pass a finding JSON file or a findings.jsonl with --line N")
    try:
        if line is not None:
            rows = read_jsonl(p)
            if not 1 <= line <= len(rows):
                raise UsageError(f"{path} has {len(rows)} findings; --line must be in 1..{len(rows)}")
            data = rows[line - 1]
        else:
            data = json.loads(p.read_text())
    except json.JSONDecodeError as e:
        raise UsageError(f"{path} is not JSON ({e}); for a findings.jsonl pass --line N") from e
    if isinstance(data, dict) and "finding" in data and "signature" not in data:
        data = data["finding"]  # a campaign record wrapping the finding
    try:
        finding = Finding.from_json(data)
    except (TypeError, ValueError) as e:
        raise UsageError(f"{path}: not a finding ({e})") from e
    if not finding.case:
        raise UsageError(f"{finding.signature}: the finding carries no generated case; for your own .mlir use "
                         "ireefuzz.reduce.reduce_mlir")
    return finding


# --------------------------------------------------------------------------- shrink + bundle


@dataclasses.dataclass(frozen=True)
class BundleResult:
    path: Path
    status: str  # "confirmed" | "flaky" | "lost"
    case: Case
    before: Any
    after: Any


def shrink_and_bundle(finding: Finding, out_dir: Path, config: Any = None, *, shrink: bool = True,
                      confirm_runs: int = CONFIRM_RUNS, policy: Any = None, log: Any = None) -> BundleResult:
    """Shrink ``finding``'s case under its signature, confirm it, and write the bundle (the campaign calls this)."""
    shrinking, sut = _mod("shrink"), _mod("sut")

    config = config if config is not None else sut.CompilerConfig()
    case = Case.from_json(finding.case)
    check = shrinking.EvaluateCheck(finding.signature, config, policy)
    before = shrinking.size_of(case)
    info: dict[str, Any] = {}
    if shrink:
        result = shrinking.shrink(case, finding.signature, check, log=log)
        case = result.case
        info = {"steps": list(result.steps), "evaluations": result.evaluations, "seconds": round(result.seconds, 2)}
    confirmation = shrinking.confirm(case, finding.signature, check, confirm_runs)
    minimal = _finding_for(case, finding.signature, config) or finding.with_case(case.to_json())
    extra = {"status": confirmation.status, "confirm": f"{confirmation.hits}/{confirmation.runs}",
             "original": {"case": finding.case, "size": str(before)}, "shrink": info}
    path = write_bundle(minimal, case, out_dir, config, extra=extra, issue=confirmation.fileable)
    return BundleResult(path, confirmation.status, case, before, shrinking.size_of(case))


def _finding_for(case: Case, signature: str, config: Any) -> Finding | None:
    evaluate = _mod("evaluate").evaluate

    for f in evaluate([case], config)[0].findings:
        if f.signature == signature:
            return f
    return None


def write_bundle(finding: Finding, case: Case, out_dir: str | Path, config: Any = None, *,
                 extra: Mapping[str, Any] | None = None, issue: bool = True, instance: int = 0) -> Path:
    """Write the repro bundle for ``finding`` on ``case`` (shape instance ``instance``) into ``out_dir``."""
    sut = _mod("sut")
    from ireefuzz.oracles import reference

    config = config if config is not None else sut.CompilerConfig()
    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    graph, sizes = case.graph, case.instances[instance]
    program = emit(graph, "main")
    inputs = case.inputs(instance)
    atomic_write_text(out / "program.mlir", program.text)
    atomic_write_bytes(out / "inputs.npz", _npz({f"a{i}": x for i, x in enumerate(inputs)}))
    for i, x in enumerate(inputs):
        atomic_write_bytes(out / "inputs" / f"a{i}.npy", _npy(x))
    expected = {}
    for backend in ("jax", "f64"):
        for k, y in enumerate(reference.evaluate(graph, inputs, sizes, backend)):
            expected[f"{backend}_{k}"] = np.asarray(y)
    atomic_write_bytes(out / "expected.npz", _npz(expected))
    atomic_write_json(out / "case.json", case.to_json())

    with tempfile.TemporaryDirectory(prefix="ireefuzz-repro-") as tmp:
        artifact = sut.compile_mlir(program.text, config, workdir=tmp)
    facts = _facts(artifact, config)
    cpu_flag = facts["cpu"] if finding.oracle in ("memory", "fusion", "crash") and facts["cpu"] else "host"
    flags = ["--iree-hal-target-backends=llvm-cpu", f"--iree-llvmcpu-target-cpu={cpu_flag}", *case.flags]
    atomic_write_text(out / "run.sh", run_script(finding, graph, flags))
    (out / "run.sh").chmod(0o755)
    if finding.oracle == "immutability":
        atomic_write_text(out / "check_inputs.py", CHECK_INPUTS)
    first_pass = None
    if finding.oracle == "memory":
        marker = MEMORY_MARKERS.get(finding.kind, "memref.alloca")
        first_pass = first_pass_with(program.text, marker, flags, config)
    record = finding.to_json() | dict(extra or {}) | {"compiler_version": facts["version"], "cpu": facts["cpu"],
                                                      "cpu_features": facts["features"], "flags": flags,
                                                      "first_pass": first_pass, "instance": dict(sizes)}
    atomic_write_text(out / "finding.json", json.dumps(record, indent=2, sort_keys=True, default=_jsonable) + "\n")
    if issue:
        atomic_write_text(out / "ISSUE.md", issue_text(finding, case, program.text, artifact, facts, flags, first_pass,
                                                       inputs, expected, sizes))
    elif (out / "ISSUE.md").exists():
        (out / "ISSUE.md").unlink()
    return out


def _npz(arrays: Mapping[str, np.ndarray]) -> bytes:
    import io

    buf = io.BytesIO()
    np.savez(buf, **{k: np.asarray(v, order="C") for k, v in arrays.items()})  # keeps 0-d arrays 0-d
    return buf.getvalue()


def _npy(x: np.ndarray) -> bytes:
    import io

    buf = io.BytesIO()
    np.save(buf, np.asarray(x, order="C"), allow_pickle=False)
    return buf.getvalue()


def _jsonable(obj: Any) -> Any:
    return obj.tolist() if hasattr(obj, "tolist") else str(obj)


def _facts(artifact: Any, config: Any) -> dict[str, str]:
    sut = _mod("sut")

    version = getattr(artifact, "compiler_version", "") or sut.compiler_version(sut.find_iree_compile(config))
    cpu = getattr(artifact, "cpu", None)
    features = ",".join(dict.fromkeys(f for f in (cpu.features if cpu else "").split(",") if f.startswith("+")))
    return {"version": version, "cpu": cpu.name if cpu else "", "features": features}


# --------------------------------------------------------------------------- first pass


# "// -----// IR Dump After Name: arg{options} //----- //" (3.x) or "... After Name (arg) ('op' operation) ..." (older)
_DUMP_HEADER = re.compile(r"^// -----// IR Dump After (\w+):? ?\(?([\w.-]*).*//----- //$", re.M)


def first_pass_with(program_text: str, marker: str, flags: Sequence[str], config: Any) -> str | None:
    """The first pass whose output contains ``marker`` (e.g. ``memref.alloca``), via --mlir-print-ir-after-change."""
    sut = _mod("sut")

    binary = sut.find_iree_compile(config)
    with tempfile.TemporaryDirectory(prefix="ireefuzz-passes-") as tmp:
        src = Path(tmp) / "program.mlir"
        src.write_text(program_text)
        command = [binary, str(src), *flags, "-o", str(Path(tmp) / "m.vmfb"), "--mlir-print-ir-after-all",
                   "--mlir-print-ir-after-change", "--mlir-disable-threading", "--mlir-elide-elementsattrs-if-larger=8"]
        try:
            proc = subprocess.run(command, capture_output=True, text=True, timeout=config.timeout_s)
        except subprocess.TimeoutExpired:
            return None
    text = proc.stderr
    headers = list(_DUMP_HEADER.finditer(text))
    for h, nxt in zip(headers, headers[1:] + [None]):
        body = text[h.end(): nxt.start() if nxt else len(text)]
        if marker in body:
            name, arg = h.group(1), h.group(2)
            return f"{name} ({arg})" if arg else name
    return None


# --------------------------------------------------------------------------- run.sh


_HEAD = """#!/bin/sh
# Reproduces: {signature}
# {message}
# Needs only stock IREE tools: iree-compile and iree-run-module on PATH (or set IREE_COMPILE / IREE_RUN_MODULE).
# Exit status: 1 = the bug reproduces, 0 = it does not, 2 = could not run.
set -u
cd "$(dirname "$0")"
IREE_COMPILE="${{IREE_COMPILE:-iree-compile}}"
IREE_RUN_MODULE="${{IREE_RUN_MODULE:-iree-run-module}}"
PYTHON="${{PYTHON:-python3}}"
FLAGS="${{IREE_COMPILE_FLAGS:-{flags}}}"
OUT="$(mktemp -d "${{TMPDIR:-/tmp}}/repro.XXXXXX")"
trap 'rm -rf "$OUT"' EXIT
"""

_COMPILE = """echo "+ $IREE_COMPILE program.mlir $FLAGS {extra}-o $OUT/module.vmfb"
if ! "$IREE_COMPILE" program.mlir $FLAGS {extra}-o "$OUT/module.vmfb" 2> "$OUT/compile.log"; then
  {on_fail}
fi
"""

_RUN = """echo "+ $IREE_RUN_MODULE --module=$OUT/module.vmfb --device=local-sync --function=main {inputs} {outputs}"
"$IREE_RUN_MODULE" --module="$OUT/module.vmfb" --device=local-sync --function=main {inputs} {outputs_q} > "$OUT/run.log" 2>&1
status=$?
"""


def run_script(finding: Finding, graph: Any, flags: Sequence[str]) -> str:
    head = _HEAD.format(signature=finding.signature, message=finding.message.splitlines()[0][:200],
                        flags=" ".join(flags))
    compile_fail = 'echo "iree-compile failed:"; tail -n 20 "$OUT/compile.log"; exit 2'
    inputs = " ".join(f"--input=@inputs/a{i}.npy" for i in range(len(graph.args)))
    outputs = " ".join(f"--output=@$OUT/out{k}.npy" for k in range(len(graph.outputs)))
    outputs_q = " ".join(f'--output=@"$OUT/out{k}.npy"' for k in range(len(graph.outputs)))
    run = _RUN.format(inputs=inputs, outputs=outputs, outputs_q=outputs_q)
    if finding.oracle == "memory":
        marker = MEMORY_MARKERS.get(finding.kind, "memref.alloca")
        before = MEMORY_DUMP_BEFORE.get(finding.kind, "iree-convert-to-llvm")
        body = _COMPILE.format(extra=f"--mlir-print-ir-before={before} ", on_fail=compile_fail)
        body += f"""count=$(grep -cF '{marker}' "$OUT/compile.log")
if [ "$count" -gt 0 ]; then
  echo "BUG REPRODUCED: $count line(s) with '{marker}' in the IR before {before}:"
  grep -F '{marker}' "$OUT/compile.log" | head -n 5
  exit 1
fi
echo "not reproduced: no '{marker}' before {before}"
exit 0
"""
    elif finding.oracle == "crash" and finding.kind.startswith("compile"):
        body = _COMPILE.format(extra="", on_fail='echo "BUG REPRODUCED: iree-compile failed on a valid program:"; '
                                                 'tail -n 30 "$OUT/compile.log"; exit 1')
        body += 'echo "not reproduced: iree-compile succeeded"\nexit 0\n'
    elif finding.oracle == "crash":
        body = _COMPILE.format(extra="", on_fail=compile_fail) + run + """if [ $status -ne 0 ]; then
  echo "BUG REPRODUCED: iree-run-module failed ($status):"; tail -n 20 "$OUT/run.log"; exit 1
fi
echo "not reproduced: the module ran"
exit 0
"""
    elif finding.oracle == "immutability":
        body = _COMPILE.format(extra="", on_fail=compile_fail) + run + """if [ $status -ne 0 ]; then
  echo "iree-run-module failed ($status):"; tail -n 20 "$OUT/run.log"; exit 2
fi
# iree-run-module copies --input files into fresh buffers and never shows them again, so it cannot
# see a mutated argument; check_inputs.py calls the module through iree.runtime and reads them back.
"$PYTHON" check_inputs.py "$OUT/module.vmfb"
exit $?
"""
    elif finding.oracle in ("numeric", "reference", "metamorphic"):
        dtypes = [graph.type_of(o).dtype for o in graph.outputs]
        tols = [TOLERANCE.get(d, (0.0, 0.0)) for d in dtypes]
        body = _COMPILE.format(extra="", on_fail=compile_fail) + run + f"""if [ $status -ne 0 ]; then
  echo "iree-run-module failed ($status):"; tail -n 20 "$OUT/run.log"; exit 2
fi
"$PYTHON" - "$OUT" <<'EOF'
import sys
import numpy as np
out, expected, bad = sys.argv[1], np.load("expected.npz", allow_pickle=False), 0
for k, (rtol, atol) in enumerate({tols!r}):
    got, want = np.load(f"{{out}}/out{{k}}.npy", allow_pickle=False), expected[f"jax_{{k}}"]
    ok = np.isclose(got.astype(np.float64), want.astype(np.float64), rtol=rtol, atol=atol, equal_nan=True)
    if not ok.all():
        i = tuple(int(v) for v in np.argwhere(~ok)[0])
        print(f"BUG REPRODUCED: output {{k}}: {{int((~ok).sum())}} of {{ok.size}} elements differ; at {{i}}: "
              f"IREE {{got[i]!r}}, expected {{want[i]!r}} (float64 reference {{expected[f'f64_{{k}}'][i]!r}})")
        bad = 1
sys.exit(bad)
EOF
status=$?
[ $status -eq 0 ] && echo "not reproduced: outputs match the reference"
exit $status
"""
    else:
        body = _COMPILE.format(extra="--iree-hal-dump-executable-sources-to=\"$OUT/sources\" ", on_fail=compile_fail)
        body += """n=$(ls "$OUT/sources" | wc -l)
for f in "$OUT"/sources/*.mlir; do
  if ! grep -q 'dispatch.tensor.load' "$f" && [ "$n" -gt 1 ]; then
    echo "BUG REPRODUCED: $(basename "$f") reads no tensor and only materializes index/constant data:"
    grep -E 'linalg\\.|arith.constant' "$f" | head -n 5; exit 1
  fi
done
echo "not reproduced: every dispatch reads its inputs"
exit 0
"""
    return head + body


CHECK_INPUTS = '''"""Input-immutability check with iree.runtime + numpy only: call @main and read the argument buffers back.

usage: python3 check_inputs.py module.vmfb     (exit 1 = an input was modified by the call)
"""
import sys

import numpy as np

try:
    import iree.runtime as rt
except ImportError:
    print("needs the IREE runtime: pip install iree-base-runtime")
    sys.exit(2)

data = open(sys.argv[1], "rb").read()
config = rt.Config("local-sync")
load = getattr(rt.VmModule, "copy_buffer", None) or rt.VmModule.from_flatbuffer
context = rt.SystemContext(config=config)
context.add_vm_module(load(config.vm_instance, data))
npz = np.load("inputs.npz", allow_pickle=False)
inputs = [npz[f"a{i}"] for i in range(len(npz.files))]
buffers = [rt.asdevicearray(config.device, np.asarray(x, order="C")) for x in inputs]
context.modules.module["main"](*buffers)
bad = 0
for i, (x, b) in enumerate(zip(inputs, buffers)):
    after = np.array(b.to_host(), copy=True)
    if after.tobytes() != x.tobytes():
        changed = np.argwhere(after != x)
        first = tuple(int(v) for v in changed[0]) if len(changed) else ()
        print(f"BUG REPRODUCED: argument {i} ({x.dtype}{list(x.shape)}) was modified by the call: "
              f"{len(changed)} elements changed, e.g. at {first}: {x[first]!r} -> {after[first]!r}")
        bad = 1
if not bad:
    print("not reproduced: every input buffer is unchanged")
sys.exit(bad)
'''


# --------------------------------------------------------------------------- ISSUE.md


_WHAT = {
    "memory": "IREE's llvm-cpu codegen leaves a `{kind}` in the dispatch `{dispatch}` ({pipeline}) where the program "
              "needs no scratch memory: the fused dispatch should write straight into its output binding.",
    "immutability": "Calling the compiled function modifies one of its *input* buffers: argument {argument} is used as "
                    "the `outs` (destination) of a `linalg` op, and IREE writes the result into the caller's buffer "
                    "instead of a fresh result buffer.",
    "numeric": "The compiled program returns wrong values (compared with JAX on CPU; a float64 NumPy evaluation "
               "agrees with JAX).",
    "crash": "iree-compile / the runtime fails on a valid program.",
    "fusion": "A producer that only computes index/constant data is materialized into memory by its own dispatch "
              "instead of being fused into its consumer.",
}
_EXPECTED = {
    "memory": "No `memref.alloca` / `memref.alloc` / copy between distinct buffers in the dispatch.",
    "immutability": "Input buffers are read-only from the caller's point of view: after the call every argument "
                    "holds exactly what was passed in (results go into buffers IREE allocates).",
    "numeric": "Outputs equal the reference within the dtype's tolerance (integers exactly).",
    "crash": "The program compiles and runs.",
    "fusion": "The producer is recomputed inside the consumer's dispatch.",
}


def issue_text(finding: Finding, case: Case, program_text: str, artifact: Any, facts: Mapping[str, str],
               flags: Sequence[str], first_pass: str | None, inputs: Sequence[np.ndarray],
               expected: Mapping[str, np.ndarray], sizes: Mapping[str, int]) -> str:
    ev = dict(finding.evidence)
    graph = case.graph
    if "dispatch" in ev:  # the finding came from a batch module (functions g<i>); the bundle's function is @main
        ev["dispatch"] = re.sub(r"^\w+?_dispatch_", "main_dispatch_", str(ev["dispatch"]))
    title = _title(finding, graph)
    what = _WHAT.get(finding.oracle, "{message}").format(kind=finding.kind, dispatch=ev.get("dispatch", "?"),
                                                         pipeline=ev.get("pipeline", "?"),
                                                         argument=ev.get("argument", "?"), message=finding.message)
    lines = [f"# {title}", "", "## What happens", "", what, "", f"ireefuzz: `{finding.message}`", "",
             "## What was expected", "", _EXPECTED.get(finding.oracle, "The program compiles and runs correctly."), "",
             "## Environment", "",
             f"- IREE compiler: `{facts['version']}`",
             f"- Target: llvm-cpu, CPU `{facts['cpu'] or 'host'}` (resolved from `{case.target_cpu}`)",
             f"- CPU features: `{facts['features'] or '-'}`",
             f"- Flags: `{' '.join(flags)}`", "",
             "## Reproduce", "",
             "```sh",
             f"iree-compile program.mlir {' '.join(flags)} -o module.vmfb",
             "./run.sh   # exit status 1 = reproduces; needs only iree-compile / iree-run-module",
             "```", ""]
    if finding.oracle == "immutability":
        lines += ["`iree-run-module` copies `--input` files into fresh buffers and never shows them again, so it "
                  "cannot show the mutation; `run.sh` therefore ends with `check_inputs.py`, which uses only "
                  "`iree.runtime` + numpy: it passes device buffers to `@main` and reads them back.", ""]
    shapes = ", ".join(f"a{i}: {x.dtype}{list(x.shape)}" for i, x in enumerate(inputs))
    lines += ["## Minimal program", "", f"Inputs (`inputs.npz`, one `.npy` each under `inputs/`): {shapes}"
              + (f"; dynamic sizes {dict(sizes)}" if sizes else ""), "", "```mlir", program_text.rstrip(), "```", ""]
    lines += _evidence_section(finding, ev, artifact, inputs, expected)
    if first_pass:
        lines += ["## First pass that introduces it", "",
                  f"With `--mlir-print-ir-after-all --mlir-print-ir-after-change`, the first pass whose output "
                  f"contains `{MEMORY_MARKERS.get(finding.kind, 'memref.alloca')}` is **`{first_pass}`**.", ""]
    lines += ["## Bisection", "", "Not run yet (`ireefuzz bisect <this directory>`).", "",
              "---", f"Found and minimized by ireefuzz; signature `{finding.signature}`.", ""]
    return "\n".join(lines)


def _title(finding: Finding, graph: Any) -> str:
    ops = graph.op_pattern
    t = graph.type_of(graph.outputs[0])
    if finding.oracle == "memory":
        return f"[CPU] `{finding.kind}` left in dispatch of `{ops}` ({t!r})"
    if finding.oracle == "immutability":
        return f"[CPU] `{ops}` with a function argument as `outs` overwrites the caller's input buffer ({t!r})"
    if finding.oracle == "numeric":
        return f"[CPU] wrong results for `{ops}` ({t!r})"
    if finding.oracle == "crash":
        return f"[CPU] {finding.kind} on valid `{ops}` ({t!r})"
    return f"[CPU] {finding.oracle} {finding.kind}: `{ops}` ({t!r})"


def _evidence_section(finding: Finding, ev: Mapping[str, Any], artifact: Any, inputs: Sequence[np.ndarray],
                      expected: Mapping[str, np.ndarray]) -> list[str]:
    out = ["## Evidence", ""]
    if finding.oracle == "memory":
        marker = MEMORY_MARKERS.get(finding.kind, "memref.alloca")
        ir_of = lambda d: d.final_ir if finding.kind != "copy" else d.bufferized_ir
        suffix = str(ev.get("dispatch", "")).partition("_dispatch_")[2]  # the finding may name another function
        candidates = [d for d in getattr(artifact, "dispatches", ()) if marker in ir_of(d)]
        dispatch = next((d for d in candidates if d.name.endswith(suffix)), candidates[0] if candidates else None)
        text = ir_of(dispatch) if dispatch else ""
        name = dispatch.name if dispatch else ev.get("dispatch")
        out += [f"Dispatch `{name}`, pipeline `{ev.get('pipeline')}`, IR {ev.get('seen_at', '')}:", "",
                "```mlir", *_excerpt(text, marker), "```", ""]
    elif finding.oracle == "immutability":
        i = ev.get("argument")
        out += [f"Argument {i}: {ev.get('changed_elements')} elements changed; first at index {ev.get('first_index')}: "
                f"`{ev.get('before')}` before the call, `{ev.get('after')}` after.", ""]
    elif finding.oracle == "crash":
        out += ["```", str(ev.get("diagnostic") or ev.get("message") or finding.message)[:3000], "```", ""]
    else:
        out += ["```json", json.dumps(dict(ev), indent=1, sort_keys=True, default=_jsonable)[:3000], "```", ""]
        if expected:
            ref = {k: np.asarray(v).ravel()[:8].tolist() for k, v in expected.items()}
            out += [f"Reference outputs (first elements): `{ref}`", ""]
    return out


def _excerpt(text: str, marker: str, limit: int = 40) -> list[str]:
    lines = text.splitlines()
    hits = [i for i, l in enumerate(lines) if marker in l]
    names = {m.group(1) for i in hits if (m := re.match(r"\s*(%[\w.]+) = ", lines[i]))}
    uses = [i for i, l in enumerate(lines) if i not in hits and any(re.search(re.escape(n) + r"\b", l) for n in names)]
    hits = hits[:3] + uses[:4]
    if not hits:
        return lines[:limit]
    keep: dict[int, None] = {}
    head = next((i for i, l in enumerate(lines) if "func.func" in l), 0)
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
