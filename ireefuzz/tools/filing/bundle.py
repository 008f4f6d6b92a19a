"""The repro bundle: one directory per finding, written and read only here (``Bundle.dump`` / ``Bundle.load``).

Layout (every file written atomically; only ``finding.json`` and ``program.mlir`` are always there)::

  program.mlir        the program (one ``func.func @main`` for a generated case)
  inputs.npz          its inputs ``a0, a1, ...`` (plain arrays: ``np.load(..., allow_pickle=False)``)
  inputs/a<i>.npy     the same, one file each, for ``iree-run-module --input=@inputs/a0.npy``
  expected.npz        reference outputs: ``jax_<k>`` (JAX at the program's dtypes), ``f64_<k>`` (NumPy float64);
                      for a raw program ``ref_<k>`` (the float64 interpreter's, at the output dtypes) and ``f64_<k>``
  expected/out<k>.npy JAX's (raw program: the interpreter's) output k, for ``--expected_output=@expected/out0.npy``
  inputs_after.mlir   (immutability) a second module whose ``@main_inputs_after`` calls ``module.main``
                      across the module boundary and returns the arguments afterwards
  run.sh              the verdict, with stock ``iree-compile`` / ``iree-run-module`` and sh builtins only:
                      exit 1 = the bug is seen, 0 = the program compiled (and ran) and the bug is absent,
                      2 = could not tell (a tool missing, no work file, a failure that is not this bug).
                      Honours IREE_COMPILE, IREE_RUN_MODULE, IREE_COMPILE_FLAGS (split at blanks) and TMPDIR.
  case.json           the Case (``Case.from_json``); a bundle is therefore a corpus case too
  finding.json        the finding (``Finding.to_json()``) plus what the writer adds (status, flags, cpu, ...)
  findings.json       (pytest plugin) every new finding of the failing check
  command.txt         (pytest plugin) the iree-compile command line
  ISSUE.md            the upstream bug report (absent for a flaky finding; ``ireefuzz bisect`` appends to it)
  bisect.json         (``ireefuzz bisect``) the releases tried and the answer

Values read from files never reach a shell unquoted: run.sh's flags are ``shlex.quote``d words, its
comments are single printable lines, and flags that write files (``sut.unsafe_flags``) are refused.
"""

from __future__ import annotations

import dataclasses
import io
import json
import re
import shlex
import shutil
from pathlib import Path
from typing import Any, Mapping, Sequence

import numpy as np

from ireefuzz import sut
from ireefuzz.base.durable import atomic_write_bytes, atomic_write_json, atomic_write_text, json_default
from ireefuzz.errors import CorpusError
from ireefuzz.generators.ops import tensor_type
from ireefuzz.oracles import diagnostics, memory
from ireefuzz.oracles.registry import spec_of

PROGRAM, CASE, FINDING, FINDINGS, ISSUE, RUN, COMMAND = (
    "program.mlir",
    "case.json",
    "finding.json",
    "findings.json",
    "ISSUE.md",
    "run.sh",
    "command.txt",
)
INPUTS_AFTER = "inputs_after.mlir"
UPSTREAM_TEST = "upstream_test.mlir"  # the defect with upstream MLIR alone (lit_tests.upstream_test)
# the IR the culprit pass received and made (culprit.record: ISSUE.md's confirming command reads the first)
CULPRIT_BEFORE, CULPRIT_AFTER = "culprit_before.mlir", "culprit_after.mlir"
INPUTS_AFTER_FUNCTION = "main_inputs_after"


@dataclasses.dataclass
class Bundle:
    """Everything a bundle directory holds; ``None`` / empty fields are not written."""

    program: str
    finding: dict[str, Any]  # finding.json: Finding.to_json() plus the writer's extras
    case: dict[str, Any] | None = None
    inputs: Sequence[np.ndarray] = ()
    expected: Mapping[str, np.ndarray] = dataclasses.field(default_factory=dict)  # jax_<k>, f64_<k>
    run_sh: str | None = None
    inputs_after: str | None = None
    issue: str | None = None
    findings: Sequence[Mapping[str, Any]] | None = None
    command: str | None = None
    upstream_test: str | None = None
    culprit_before: str | None = None
    culprit_after: str | None = None

    def __repr__(self) -> str:
        return f"Bundle({self.finding.get('signature')}; {len(self.inputs)} inputs, run.sh={self.run_sh is not None})"

    @property
    def signature(self) -> str:
        return str(self.finding.get("signature", ""))

    def dump(self, root: str | Path) -> Path:
        """Write the bundle into ``root`` (created); a stale ``ISSUE.md`` is removed when ``issue`` is None."""
        root = Path(root)
        root.mkdir(parents=True, exist_ok=True)
        atomic_write_text(root / PROGRAM, self.program)
        if self.inputs:
            atomic_write_bytes(root / "inputs.npz", _npz({f"a{i}": x for i, x in enumerate(self.inputs)}))
            for i, x in enumerate(self.inputs):
                atomic_write_bytes(root / "inputs" / f"a{i}.npy", _npy(x))
        if self.expected:
            atomic_write_bytes(root / "expected.npz", _npz(self.expected))
            for key, y in self.expected.items():
                if key.startswith(("jax_", "ref_")):
                    atomic_write_bytes(root / "expected" / f"out{key[4:]}.npy", _npy(y))
        if self.case is not None:
            atomic_write_json(root / CASE, self.case)
        optional = {
            INPUTS_AFTER: self.inputs_after,
            COMMAND: self.command and self.command + "\n",
            UPSTREAM_TEST: self.upstream_test,
            CULPRIT_BEFORE: self.culprit_before and self.culprit_before + "\n",
            CULPRIT_AFTER: self.culprit_after and self.culprit_after + "\n",
        }
        for name, text in optional.items():
            if text is not None:
                atomic_write_text(root / name, text)
        if self.findings is not None:
            atomic_write_text(root / FINDINGS, json.dumps(list(self.findings), indent=1, default=json_default) + "\n")
        if self.run_sh is not None:
            atomic_write_text(root / RUN, self.run_sh)
            (root / RUN).chmod(0o755)
        atomic_write_text(
            root / FINDING, json.dumps(self.finding, indent=2, sort_keys=True, default=json_default) + "\n"
        )
        if self.issue is not None:
            atomic_write_text(root / ISSUE, self.issue)
        else:
            (root / ISSUE).unlink(missing_ok=True)
        return root

    @classmethod
    def load(cls, root: str | Path) -> "Bundle":
        """Read a bundle directory; a missing or malformed ``finding.json`` / ``case.json`` is a CorpusError
        (exit 2)."""
        root = Path(root)
        finding = _read_json(root / FINDING)
        if (
            not isinstance(finding, dict)
            or not isinstance(finding.get("signature"), str)
            or "/" not in finding["signature"]
        ):
            raise CorpusError(f"{root / FINDING}: not a finding (no 'signature')")
        case = _read_json(root / CASE) if (root / CASE).exists() else None
        if case is not None and not isinstance(case, dict):
            raise CorpusError(f"{root / CASE}: expected a JSON object")
        bad = sut.unsafe_flags(list((case or {}).get("flags", ())) + list(finding.get("flags") or ()))
        if bad:
            raise CorpusError(f"{root}: refusing flags that write files or are malformed: {bad}")
        inputs: list[np.ndarray] = []
        expected: dict[str, np.ndarray] = {}
        if (root / "inputs.npz").exists():
            with np.load(root / "inputs.npz", allow_pickle=False) as npz:
                inputs = [npz[f"a{i}"] for i in range(len(npz.files))]
        if (root / "expected.npz").exists():
            with np.load(root / "expected.npz", allow_pickle=False) as npz:
                expected = {k: npz[k] for k in npz.files}
        text = lambda name: (root / name).read_text() if (root / name).exists() else None
        findings = _read_json(root / FINDINGS) if (root / FINDINGS).exists() else None
        return cls(
            program=text(PROGRAM) or "",
            finding=finding,
            case=case,
            inputs=inputs,
            expected=expected,
            run_sh=text(RUN),
            inputs_after=text(INPUTS_AFTER),
            issue=text(ISSUE),
            findings=findings,
            command=(text(COMMAND) or "").strip() or None,
            upstream_test=text(UPSTREAM_TEST),
            culprit_before=text(CULPRIT_BEFORE),
            culprit_after=text(CULPRIT_AFTER),
        )


def _read_json(path: Path) -> Any:
    try:
        return json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise CorpusError(f"{path.parent} is not a repro bundle: {path.name} is missing") from None
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as e:
        raise CorpusError(f"{path}: not a readable JSON file ({e})") from None


def _npz(arrays: Mapping[str, np.ndarray]) -> bytes:
    buf = io.BytesIO()
    named: dict[str, Any] = {k: np.asarray(v, order="C") for k, v in arrays.items()}  # keeps 0-d arrays 0-d
    np.savez(buf, **named)  # (typed Any: a name is never taken for savez's own keywords)
    return buf.getvalue()


def _npy(x: np.ndarray) -> bytes:
    buf = io.BytesIO()
    np.save(buf, np.asarray(x, order="C"), allow_pickle=False)
    return buf.getvalue()


def copy_tree(bundle: str | Path, target: str | Path) -> Path:
    """A copy of the bundle directory (bisect judges copies, never the original)."""
    shutil.copytree(bundle, target)
    return Path(target)


def run_bundle(
    root: str | Path, config: sut.CompilerConfig | None = None, *, timeout: float = 600
) -> tuple[int | None, str]:
    """(exit status, output) of the bundle's run.sh with ``config``'s iree-compile and iree-run-module
    (its release's, else the installed one), in a clean environment; the status is None if it timed out."""
    config = config if config is not None else sut.CompilerConfig()
    return run_in_clean_env(
        Path(root) / RUN,
        {"IREE_COMPILE": sut.find_iree_compile(config), "IREE_RUN_MODULE": sut.find_iree_run_module(config)},
        timeout,
    )


def run_in_clean_env(script: Path, variables: Mapping[str, str], timeout: float) -> tuple[int | None, str]:
    """(exit status, output) of ``/bin/sh script`` with only ``variables``, a PATH of /usr/bin:/bin, HOME and a
    TMPDIR of its own; None if it timed out. What it started dies with it: on the timeout, and if we die."""
    import os
    import tempfile

    from ireefuzz.sut import launch

    with tempfile.TemporaryDirectory(prefix="ireefuzz-run-sh-") as tmp:
        env = {"PATH": "/usr/bin:/bin", "HOME": os.environ.get("HOME", tmp), "TMPDIR": tmp, **variables}
        code, out, err = launch.run(["/bin/sh", str(script)], timeout=timeout, env=env, scratch=tmp)
    return code, "timed out" if code is None else out + err


# --------------------------------------------------------------------------- the immutability wrapper


def inputs_after_module(graph: Any) -> str:
    """A module that calls ``module.main`` (the program, loaded first) and returns its arguments after the
    call: across a module boundary the arguments are the caller's buffers, as for any embedding
    application, so ``iree-run-module --expected_output`` sees an overwritten input."""
    return wrapper_module(
        "module.main", [tensor_type(t) for t in graph.args], [tensor_type(graph.type_of(o)) for o in graph.outputs]
    )


def wrapper_module(callee: str, args: Sequence[str], outs: Sequence[str]) -> str:
    """``inputs_after_module`` for any function: ``callee`` (``<vm module>.<function>``) taking ``args`` and
    returning ``outs`` (MLIR tensor types)."""
    results = outs[0] if len(outs) == 1 else f"({', '.join(outs)})"
    params = ", ".join(f"%a{i}: {t}" for i, t in enumerate(args))
    names = ", ".join(f"%a{i}" for i in range(len(args)))
    call = f"%r:{len(outs)} = call" if outs else "call"
    return (
        f"module @inputs_after {{\n"
        f"func.func private @{callee}({', '.join(args)}) -> {results}\n"
        f"func.func @{INPUTS_AFTER_FUNCTION}({params}) -> ({', '.join(args)}) {{\n"
        f"  {call} @{callee}({names}) : ({', '.join(args)}) -> {results}\n"
        f"  return {names} : {', '.join(args)}\n}}\n}}\n"
    )


# --------------------------------------------------------------------------- run.sh


_W = "\x00WORK\x00"  # placeholders rendered as shell expansions; every other character is quoted
_SHELL = {
    _W: '"$WORK"',
    "\x00COMPILE\x00": '"$IREE_COMPILE"',
    "\x00RUN\x00": '"$IREE_RUN_MODULE"',
    "\x00FLAGS\x00": '"$@"',
}
_PLACEHOLDER = re.compile("(" + "|".join(map(re.escape, _SHELL)) + ")")


def render(words: Sequence[str]) -> str:
    """A shell command line: each word ``shlex.quote``d, placeholders as their (double-quoted) expansion."""
    return " ".join(
        "".join(_SHELL.get(p) or (shlex.quote(p) if p else "") for p in _PLACEHOLDER.split(w)) or "''" for w in words
    )


def comment(text: str, limit: int = 200) -> str:
    """One printable line (a value from a file, safe inside a ``#`` comment)."""
    return re.sub(r"[^\x20-\x7e]", "?", str(text).splitlines()[0] if str(text).strip() else "")[:limit]


_HEAD = """#!/bin/sh
# Reproduces: {signature}
# {message}
# Needs only stock IREE tools: iree-compile{needs_run} on PATH (or set IREE_COMPILE{env_run}).
# IREE_COMPILE_FLAGS replaces the compile flags below (split at blanks); TMPDIR sets where work files go.
# Exit status: 1 = the bug is seen; 0 = the program {ran} and the bug is absent;
# 2 = could not tell (a tool missing, no work file, a failure that is not this bug).
set -u
set -f
cant() {{ echo "could not tell: $*"; exit 2; }}
case $0 in */*) cd "${{0%/*}}" || cant "cannot enter ${{0%/*}}" ;; esac
[ -f program.mlir ] || cant "program.mlir is not next to run.sh"
IREE_COMPILE=${{IREE_COMPILE:-iree-compile}}
IREE_RUN_MODULE=${{IREE_RUN_MODULE:-iree-run-module}}
command -v "$IREE_COMPILE" >/dev/null 2>&1 || cant "$IREE_COMPILE not found: put iree-compile on PATH or set \
IREE_COMPILE"
{check_run}set -- {flags}
if [ -n "${{IREE_COMPILE_FLAGS:-}}" ]; then set -- $IREE_COMPILE_FLAGS; fi
i=0
while :; do  # work files created exclusively (noclobber), never a bare path
  WORK=${{TMPDIR:-/tmp}}/repro.$$.$i
  if (set -C; : > "$WORK.compile.log" && : > "$WORK.run.log" && : > "$WORK.vmfb") 2>/dev/null; then break; fi
  i=$((i + 1))
  [ $i -lt 50 ] || cant "cannot create work files under ${{TMPDIR:-/tmp}}"
done
cleanup() {{  # /bin/rm by its path: run.sh runs under env -i, where PATH may hold only the IREE tools
  if [ -x /bin/rm ]; then
    /bin/rm -rf "$WORK.compile.log" "$WORK.run.log" "$WORK.vmfb" "$WORK.after.vmfb" "$WORK.sources"
  else  # no rm: leave them empty
    : > "$WORK.compile.log"; : > "$WORK.run.log"; : > "$WORK.vmfb"
  fi
}}
trap cleanup EXIT
trap 'exit 2' HUP INT TERM
show() {{  # the first $2 lines of file $1
  n=0
  while [ "$n" -lt "$2" ] && IFS= read -r line; do printf '%s\\n' "$line"; n=$((n + 1)); done < "$1"
}}
has() {{  # file $1 has a line containing the fixed text $2
  while IFS= read -r line; do case $line in *"$2"*) return 0 ;; esac; done < "$1"
  return 1
}}
"""

_CHECK_RUN = (
    'command -v "$IREE_RUN_MODULE" >/dev/null 2>&1 || '
    'cant "$IREE_RUN_MODULE not found: put iree-run-module on PATH or set IREE_RUN_MODULE"\n'
)


def _compile(extra: Sequence[str] = (), source: str = PROGRAM, output: str = _W + ".vmfb") -> str:
    words = sut.compile_command(
        sut.CompilerConfig(), source, output, extra, binary="\x00COMPILE\x00", flags=["\x00FLAGS\x00"]
    )
    line = render(words)
    return f"""printf '+'; printf ' %s' {line}; echo
{line} 2> "$WORK.compile.log"
status=$?
"""


_COMPILED_OR_CANT = """if [ $status -ne 0 ]; then
  echo "iree-compile failed ($status), which is not this bug:"; show "$WORK.compile.log" 30; exit 2
fi
"""


def _run(modules: Sequence[str], function: str, n_inputs: int, extra: Sequence[str]) -> str:
    words = sut.run_module_command(
        modules, function, [f"@inputs/a{i}.npy" for i in range(n_inputs)], extra, binary="\x00RUN\x00"
    )
    line = render(words)
    return f"""printf '+'; printf ' %s' {line}; echo
{line} > "$WORK.run.log" 2>&1
status=$?
"""


def _older_runtime(
    function: str, n_in: int, n_out: int, outputs: Sequence[Any], rtol: float, atol: Mapping[str, float] | None
) -> str:
    """A release before 3.11 (bisection) has no ``--expected_rtol``: it compares each dtype with one absolute threshold.
    Run again with the loosest one the bundle's rule allows (``atol + rtol * max |expected|``): a difference beyond it
    is beyond the rule too (the bug, exit 1); none beyond it cannot tell the rule holds (exit 2, never 0)."""
    by_dtype: dict[str, float] = {}
    for o in outputs:
        values = np.asarray(o)
        dtype = {"float16": "f16", "float32": "f32", "float64": "f64"}.get(values.dtype.name)
        if dtype is None:
            return ""  # bf16, integers: no threshold flag to fall back on
        finite = np.abs(values[np.isfinite(values)]) if values.size else np.zeros(0)
        largest = float(finite.max()) if finite.size else 0.0
        by_dtype[dtype] = max(by_dtype.get(dtype, 0.0), (atol or {}).get(dtype, 0.0) + rtol * largest)
    if len(outputs) != n_out or not by_dtype:
        return ""
    flags = [f"--expected_output={_expected_value(k, outputs)}" for k in range(n_out)] + ["--equality_mode=approximate"]
    flags += [f"--expected_{d}_threshold={float(v)!r}" for d, v in sorted(by_dtype.items())]
    return f"""if has "$WORK.run.log" "flag 'expected_rtol' not recognized"; then  # a release before 3.11
  echo "this iree-run-module has no --expected_rtol: comparing with one absolute threshold per dtype"
{_run([_W + ".vmfb"], function, n_in, tuple(flags))}  if has "$WORK.run.log" '[FAILED]'; then
    echo "BUG REPRODUCED: an output differs from the reference beyond even the loosest threshold:"
    show "$WORK.run.log" 40; exit 1
  fi
  echo "could not tell: no difference beyond the loosest threshold, which is looser than the reference's tolerance"
  show "$WORK.run.log" 30; exit 2
fi
"""


def _looser_than_the_finding(
    finding: Any, outputs: Sequence[Any], rtol: float, atol: Mapping[str, float] | None
) -> str:
    """Why run.sh's comparison cannot see this finding, or "": iree-run-module takes one absolute threshold per dtype
    (the largest any element's bound needs), and where the finding's own element is off by less than that threshold
    allows there, outputs "within the tolerance" say nothing of it (round 41: an asinh error of 7e-4 under a 2e-3
    threshold made run.sh say "not reproduced" of a confirmed wrong value)."""
    ev = dict(getattr(finding, "evidence", None) or {})
    k, index = int(ev.get("output") or 0), ev.get("index")
    if k >= len(outputs) or index is None or not isinstance(ev.get("iree"), (int, float)):
        return ""
    expected = np.asarray(outputs[k], np.float64)
    try:
        want = float(expected[tuple(int(i) for i in index)])
    except (IndexError, TypeError, ValueError):
        return ""
    dtype = {"float16": "f16", "float32": "f32", "float64": "f64"}.get(np.asarray(outputs[k]).dtype.name, "")
    allowed = (atol or {}).get(dtype, 0.0) + rtol * abs(want)
    off = abs(float(ev["iree"]) - want)
    if not np.isfinite(off) or off > allowed:
        return ""
    return (
        f"output {k} at {list(index)} is off by {off:.3g}, within the {allowed:.3g} this comparison allows there "
        "(one threshold per dtype, the largest any element needs)"
    )


_ABSENT = 'echo "not reproduced: outputs match the reference within the tolerance"; exit 0'
_COMPARED = """if has "$WORK.run.log" '[FAILED]'; then
  echo "BUG REPRODUCED: {what}:"; show "$WORK.run.log" 40; exit 1
fi
if [ $status -eq 0 ] && has "$WORK.run.log" '[SUCCESS]'; then echo "not reproduced: {absent}"; exit 0; fi
echo "iree-run-module failed ($status) without comparing, which is not this bug:"; show "$WORK.run.log" 30; exit 2
"""

# The memory oracle's observation points: allocas are read before sut's final pass, copies before the
# first run of its bufferized pass (a pass that runs twice per dispatch counts once: first dump only).
# A copy counts as the oracle counts it (``memory.is_defect``): between distinct names, and unless both ends
# view a binding (``memory.BINDING_OPS`` through ``memory.VIEW_OPS``) in a dispatch whose own op moves data.
# Unlike the oracle, a memref carried through an scf.for loop is not followed (it counts as staged).
_SCAN_IR = """enter() {  # a dump of function $fn begins: only the first dump of each function counts
  case "$seen" in *" $fn "*) counted=0 ;; *) seen="$seen$fn "; counted=1 ;; esac
  case "$own" in *" $fn "*) moves=1 ;; *) moves=0 ;; esac
}
scan_ir() {  # $1 = log, $2 = alloca | alloca-dynamic | alloc | copy; prints the hits, counts them in $hits
  hits=0; counted=0; seen=' '; state=''; bound=' '; moves=0
  while IFS= read -r line; do
    case $line in
      '// -----// IR Dump Before '*)
        state=''; bound=' '
        case $line in *'operation: @'*) fn=${line##*operation: @}; fn=${fn%%)*}; enter ;; *) counted=pending ;; esac
        continue ;;
      *'func.func @'*)  # an older compiler's dump header names no function: its func.func line does
        if [ "$counted" = pending ]; then fn=${line#*func.func @}; fn=${fn%%(*}; enter; continue; fi ;;
    esac
    [ "$counted" = 1 ] || continue
    case $2 in
      alloca) case $line in *memref.alloca*) hits=$((hits + 1)); printf '%s\\n' "$line" ;; esac; continue ;;
      alloca-dynamic) case $line in *'memref.alloca(%'*) hits=$((hits + 1)); printf '%s\\n' "$line" ;; esac; continue ;;
      alloc) case $line in *'memref.alloc('*) hits=$((hits + 1)); printf '%s\\n' "$line" ;; esac; continue ;;
    esac
    case $line in  # names that view a binding
      @BINDINGS@) name=${line%% = *}; bound="$bound${name##* } "; continue ;;
      @VIEWS@)
        name=${line%% = *}; name=${name##* }; of=${line#* = }; of=${of#* }; of=${of%%[][ ,:]*}
        case $bound in *" $of "*) bound="$bound$name " ;; esac; continue ;;
    esac
    case $state in  # a linalg.generic with one input and one output whose body only yields the input
      generic) state=''
        case $line in *'^bb0('*) arg0=${line#*^bb0(}; arg0=${arg0%%:*}; state=body; continue ;; esac ;;
      body) state=''
        case $line in *"linalg.yield $arg0 "*|*"linalg.yield $arg0") state=yield; continue ;; esac ;;
      yield) state=''
        case $line in *'}'*) copy_hit "$src" "$dst" "$copy"; continue ;; esac ;;
    esac
    case $line in
      *'memref.copy '*)
        src=${line#*memref.copy }; dst=${src#*, }; src=${src%%,*}; dst=${dst%% *}
        copy_hit "$src" "$dst" "$line" ;;
      *' ins('*', '*' : '*' outs('*|*' outs('*', '*' : '*) ;;  # several inputs or outputs: not a copy
      *'linalg.copy ins(%'*' outs(%'*|*'linalg.generic '*' ins(%'*' outs(%'*)
        src=${line#* ins(}; dst=${line#* outs(}; src=${src%% *}; dst=${dst%% *}
        case $line in
          *'linalg.copy '*) copy_hit "$src" "$dst" "$line" ;;
          *) state=generic; copy=$line ;;
        esac ;;
    esac
  done < "$1"
  return 0
}
copy_hit() {  # $1 = source, $2 = target, $3 = the copy's line: counts it when it is a defect
  [ "$1" != "$2" ] || return 0
  case $bound in *" $1 "*) case $bound in *" $2 "*) [ "$moves" = 1 ] && return 0 ;; esac ;; esac
  hits=$((hits + 1)); printf '%s\\n' "$3"
}
""".replace("@BINDINGS@", "|".join(f"*' = {op} '*" for op in sorted(memory.BINDING_OPS))).replace(
    "@VIEWS@", "|".join(f"*' = {op} %'*" for op in sorted(memory.VIEW_OPS))
)


_ADMITTED_OPS = {
    "alloca": ("memref.alloca",),
    "alloca-dynamic": ("memref.alloca",),
    "alloc": ("memref.alloc",),
    "copy": ("memref.copy", "linalg.copy", "linalg.generic"),
}


def admitted_scratch(finding: Any) -> int:
    """How many of the finding's ops of its kind the oracle admitted as scratch its ops require
    (``evidence.required_scratch``, ``oracles.scratch``): run.sh counts only those beyond them (stop 48's sort bundle
    exited 1 on the admitted buffer a fixed compiler would keep)."""
    rows = (finding.evidence or {}).get("required_scratch") or ()
    ops = _ADMITTED_OPS.get(finding.kind, ())
    return sum(1 for r in rows if isinstance(r, Mapping) and r.get("op") in ops)


def _memory_body(kind: str, own: Sequence[str], admitted: int = 0) -> str:
    passes = sut.OBSERVATION_PASSES
    before = passes["bufferized"] if kind == "copy" else passes["final"]
    mode = kind if kind in ("alloca-dynamic", "alloc", "copy") else "alloca"
    listed = shlex.quote(" " + " ".join(own if kind == "copy" else ()) + " ")
    return (
        _SCAN_IR
        + _compile([f"--mlir-print-ir-before={before}"])
        + _COMPILED_OR_CANT
        + f"""\
own={listed}  # dispatches whose own op moves data (memory.moves_data): only staged copies count in them
echo "IR before {before} (first dump per dispatch):"
scan_ir "$WORK.compile.log" {mode}
admitted={admitted}  # the scratch its ops require (the oracle's allowance): only those beyond count
if [ "$hits" -gt "$admitted" ]; then echo "BUG REPRODUCED: $hits {kind} op(s), $admitted of them required"; exit 1; fi
echo "not reproduced: $hits {kind} op(s) before {before}, $admitted of them the scratch its ops require"
exit 0
"""
    )


_MATCHES = """matches() {  # file $1 has a line holding the fixed texts $2, $3, ... in this order
  file=$1; shift
  while IFS= read -r line; do
    rest=$line; found=1
    for part in "$@"; do
      case $rest in *"$part"*) rest=${rest#*"$part"} ;; *) found=0; break ;; esac
    done
    [ $found = 1 ] && return 0
  done < "$file"
  return 1
}
"""


# What a compile failure printed, without the IR dumps before it: the signal it died of, and $2 lines of file $1 from
# the first diagnostic or crash line (the top stack frames; the first lines when there is none).
_SHOW_FAILURE = """show_failure() {
  sig=0  # the shell's 128+N, or a launcher's 256-N
  if [ "$status" -gt 128 ] && [ "$status" -lt 160 ]; then sig=$((status - 128)); fi
  if [ "$status" -gt 192 ] && [ "$status" -lt 256 ]; then sig=$((256 - status)); fi
  if [ $sig -gt 0 ]; then echo "killed by signal SIG$(kill -l $sig)"; fi
  n=0; started=0
  while [ "$n" -lt "$2" ] && IFS= read -r line; do
    case $line in *'error:'*|*'Stack dump:'*|*'PLEASE submit'*|*'LLVM ERROR:'*|*'Assertion `'*) started=1 ;; esac
    if [ $started = 1 ]; then printf '%s\\n' "$line"; n=$((n + 1)); fi
  done < "$1"
  [ $started = 1 ] || show "$1" "$2"
}
"""


_FAILED_IN = """failed_in() {  # the first pass iree-compile printed a failure dump for in file $1 is pass $2
  while IFS= read -r line; do
    case $line in '// -----// IR Dump After '*' Failed'*)
      case $line in *" Failed: $2 "*|*" Failed: $2{"*|*" Failed: $2") return 0 ;; esac
      return 1 ;;
    esac
  done < "$1"
  return 1
}
"""


_DIED_IN = """died_in() {  # the last IR dump iree-compile printed in file $1 is the one before pass $2 (it died in it)
  last=''
  while IFS= read -r line; do case $line in '// -----// IR Dump '*) last=$line ;; esac; done < "$1"
  case $last in *" Before "*": $2 "*|*" Before "*": $2{"*|*" Before "*"($2)"*) return 0 ;; esac
  return 1
}
"""


def _crash_compile_body(
    kind: str, keys: Sequence[str], signal_number: int | None, crash_pass: str, failed_pass: str = ""
) -> str:
    """A failed compile is this bug only with its own diagnostic: for a crash, death by its signal (the shell's
    128+N, a launcher's 256-N), a crash marker and, when the crashing pass is known, the pass it died in (the last IR
    dump ``--mlir-print-ir-before=<pass>`` printed), none of which needs llvm-symbolizer; for an error, the literal
    parts of the bug's diagnostic (``error_keys``) on one line, in order; with none recorded it cannot tell. An error
    whose diagnostic only says where it failed (``diagnostics.is_generic``: any codegen failure prints "failed to run
    translation") is this bug only where ``failed_pass`` failed first (``--mlir-print-ir-after-failure``'s first
    dump)."""
    markers = sut.CRASH_MARKERS if kind == "compile-crash" else sut.OOM_MARKERS if kind == "compile-oom" else ()
    tests = (
        ["{ " + " || ".join(f'has "$WORK.compile.log" {shlex.quote(m)}' for m in markers) + "; }"] if markers else []
    )
    extra: list[str] = []
    if kind == "compile-crash" and signal_number:
        tests.append(f"{{ [ $status -eq {128 + signal_number} ] || [ $status -eq {256 - signal_number} ]; }}")
    if kind == "compile-crash" and crash_pass:
        extra = [f"--mlir-print-ir-before={crash_pass}", "--mlir-disable-threading"]
        tests.append(f'died_in "$WORK.compile.log" {shlex.quote(crash_pass)}')
    if kind == "compile-error" and failed_pass:
        extra = ["--mlir-print-ir-after-failure", "--mlir-disable-threading"]
        tests.append(f'failed_in "$WORK.compile.log" {shlex.quote(failed_pass)}')
    if keys and kind != "compile-oom":  # running out of memory says nothing of its own
        tests.append('matches "$WORK.compile.log" ' + " ".join(shlex.quote(k) for k in keys))
    return (
        _MATCHES
        + _SHOW_FAILURE
        + (_DIED_IN if kind == "compile-crash" and extra else "")
        + (_FAILED_IN if kind == "compile-error" and extra else "")
        + _compile(extra)
        + f"""if [ $status -eq 0 ]; then echo "not reproduced: iree-compile succeeded"; exit 0; fi
if {" && ".join(tests) or "false"}; then
  echo "BUG REPRODUCED: iree-compile failed ($status) on a valid program:"; show_failure "$WORK.compile.log" 16; exit 1
fi
echo "iree-compile failed ($status), but not with this bug's diagnostic:"; show_failure "$WORK.compile.log" 16; exit 2
"""
    )


def _fusion_body() -> str:
    return (
        _compile([f"--iree-hal-dump-executable-sources-to={_W}.sources"])
        + _COMPILED_OR_CANT
        + """set +f
n=0; for f in "$WORK.sources"/*.mlir; do [ -f "$f" ] && n=$((n + 1)); done
for f in "$WORK.sources"/*.mlir; do
  [ -f "$f" ] || continue
  if [ "$n" -gt 1 ] && ! has "$f" 'dispatch.tensor.load'; then
    echo "BUG REPRODUCED: ${f##*/} reads no tensor and only materializes index/constant data"; exit 1
  fi
done
echo "not reproduced: every dispatch reads its inputs"
exit 0
"""
    )


_VARIABLE = re.compile(
    r"'[^'\s]*'|\"[^\"\s]*\"|%[\w.#$-]+|@[\w.$-]+|[\w.!#]*<[^<>]*(?:<[^<>]*>[^<>]*)*>|0x[0-9a-fA-F]+|\d+"
)
_ERROR_LINE = re.compile(r"^(?:\S[^\n]*?: )?error: (.+)$", re.M)
_ASSERTION = re.compile(r"Assertion `(.+)' failed|LLVM ERROR: (.+)")
_FRAME = re.compile(r"^\s*#\d+ 0x[0-9a-fA-F]+ ([\w:~<>]+?)(?:\(|\s|$)", re.M)
_HANDLER_FRAMES = ("llvm::sys::", "SignalHandler", "__", "_start", "abort", "raise", "gsignal")


def error_keys(message: str) -> list[str]:
    """The literal parts of a compiler diagnostic, in order: its text around the names, numbers and types in it (a
    quoted op name, an SSA value, a symbol, a size, a type). A line holding them all, in this order, is the same
    diagnostic, whatever it names; an MLIR message that begins with a quoted op name keeps the rest."""
    first = message.strip().splitlines()[0] if message.strip() else ""
    parts = [part.strip(" ,.:;") for part in _VARIABLE.split(first)]
    return [part for part in parts if re.search(r"[A-Za-z]{3}", part)]


def own_diagnostic(finding: Any, error_message: str = "") -> str:
    """The bug's own diagnostic line, from the compiler output the finding recorded: the first error (the root one;
    MLIR and the linker print the errors that follow from it after it), a crash's assertion or the frame it died
    in (past the signal handlers); else ``error_message``."""
    diagnostic = str((finding.evidence or {}).get("diagnostic", ""))
    if finding.kind == "compile-crash":
        assertion = _ASSERTION.search(diagnostic)
        if assertion:
            return assertion.group(1) or assertion.group(2)
        frame = next((f for f in _FRAME.findall(diagnostic) if not f.startswith(_HANDLER_FRAMES)), None)
        return frame or error_message
    first = _ERROR_LINE.search(diagnostic)
    return first.group(1) if first else error_message


def crash_keys(finding: Any) -> list[str]:
    """What run.sh reads of a crash's own text: its assertion or ``LLVM ERROR`` (printed whether or not
    llvm-symbolizer is there), never a symbolized frame."""
    assertion = _ASSERTION.search(str((finding.evidence or {}).get("diagnostic", "")))
    return error_keys(assertion.group(1) or assertion.group(2)) if assertion else []


def crash_signal(finding: Any) -> int | None:
    """The signal a compile crash died of, from its cause (``crash/compile-crash/SIGFPE/...``), or None."""
    import signal

    named = re.match(r"crash/compile-crash/(SIG[A-Z0-9]+)/", str(getattr(finding, "cause", "") or ""))
    try:
        return int(signal.Signals[named.group(1)]) if named else None
    except KeyError:
        return None


def _expected_value(k: int, outputs: Sequence[Any]) -> str:
    """How run.sh names expected output ``k``: its ``.npy``, or for an integer output its value literal."""
    if k < len(outputs) and np.asarray(outputs[k]).dtype.kind in "biu":
        return sut.value_literal(np.asarray(outputs[k]))
    return f"@expected/out{k}.npy"


# The reproduce bodies (``OracleSpec.reproduce``) that judge the compile alone: their run.sh never runs the module.
COMPILE_ONLY_BODIES = frozenset({"compile-error", "memory-ops", "dispatches"})


def run_script(
    finding: Any,
    graph: Any,
    flags: Sequence[str],
    *,
    rtol: float = 0.0,
    atol: Mapping[str, float] | None = None,
    error_message: str = "",
    data_movement: Sequence[str] = (),
    function: str = "main",
    outputs: Sequence[Any] = (),
    crash_pass: str = "",
) -> str:
    """run.sh for ``finding`` on the program emitted from ``graph`` (anything with ``args`` and ``outputs``)
    compiled with ``flags``, calling ``function``.

    Numeric findings compare with ``expected/out<k>.npy`` at ``rtol`` / per-dtype ``atol`` (the
    oracle's tolerance); a failed compile is this bug only with its own diagnostic (``own_diagnostic``: the first
    error the finding recorded, else ``error_message``);
    ``data_movement`` names the dispatches whose own op moves data (``memory.moves_data``): in them only
    copies staged through a non-binding buffer count, as in the oracle. ``outputs`` are the arrays of
    ``expected/out<k>.npy``: integer ones are compared as value literals (``sut.value_literal``). A compile crash
    is its signal and, with ``crash_pass`` (the culprit: the pass running when it died), that pass.
    """
    bad = sut.unsafe_flags(flags)
    if bad:
        raise CorpusError(f"refusing flags that write files or are malformed: {bad}")
    kind = finding.kind
    reproduce = spec_of(finding.oracle).reproduce(kind)
    compile_only = reproduce in COMPILE_ONLY_BODIES
    n_in, n_out = len(graph.args), len(graph.outputs)
    if reproduce == "memory-ops":
        body = _memory_body(kind, [d for d in data_movement if re.fullmatch(r"[\w$.-]+", d)], admitted_scratch(finding))
    elif reproduce == "compile-error":
        own = own_diagnostic(finding, error_message)
        keys = crash_keys(finding) if kind == "compile-crash" else error_keys(own)
        failed = diagnostics.failing_pass(str((finding.evidence or {}).get("diagnostic", ""))) or ""
        body = _crash_compile_body(
            kind,
            keys,
            crash_signal(finding),
            crash_pass if re.fullmatch(r"[\w.-]+", crash_pass) else "",
            failed if diagnostics.is_generic(own) and re.fullmatch(r"[\w.-]+", failed) else "",
        )
    elif reproduce == "run-fault":
        body = (
            _compile()
            + _COMPILED_OR_CANT
            + _run([_W + ".vmfb"], function, n_in, ())
            + """\
if [ $status -ne 0 ]; then echo "BUG REPRODUCED: iree-run-module failed ($status):"; show "$WORK.run.log" 30; exit 1; fi
echo "not reproduced: the module ran"
exit 0
"""
        )
    elif reproduce == "inputs-after":
        expected = sut.expected_output_flags([f"@inputs/a{i}.npy" for i in range(n_in)], exact=True)
        body = (
            _compile()
            + _COMPILED_OR_CANT
            + _compile(source=INPUTS_AFTER, output=_W + ".after.vmfb")
            + _COMPILED_OR_CANT
            + _run([_W + ".vmfb", _W + ".after.vmfb"], INPUTS_AFTER_FUNCTION, n_in, expected)
            + _COMPARED.format(
                what="an argument holds other values after the call",
                absent="every argument is unchanged after the call",
            )
        )
    elif reproduce == "outputs":
        # integer outputs compare exactly: no tolerance flag, which releases before 3.11 do not know (bisection)
        exact = len(outputs) == n_out > 0 and all(np.asarray(o).dtype.kind in "biu" for o in outputs)
        expected = sut.expected_output_flags(
            [_expected_value(k, outputs) for k in range(n_out)], exact=exact, rtol=rtol, atol=atol
        )
        body = (
            _compile()
            + _COMPILED_OR_CANT
            + _run([_W + ".vmfb"], function, n_in, expected)
            + ("" if exact else _older_runtime(function, n_in, n_out, outputs, rtol, atol))
            + _COMPARED.format(
                what="an output differs from the reference beyond the tolerance",
                absent="outputs match the reference within the tolerance",
            )
        )
        if blind := ("" if exact else _looser_than_the_finding(finding, outputs, rtol, atol)):
            body = body.replace(_ABSENT, f'echo "could not tell: {blind}"; exit 2')
    else:  # "dispatches"
        body = _fusion_body()
    head = _HEAD.format(
        signature=comment(finding.signature),
        message=comment(finding.message),
        needs_run="" if compile_only else " and iree-run-module",
        env_run="" if compile_only else " / IREE_RUN_MODULE",
        ran="compiled" if compile_only else "compiled and ran",
        check_run="" if compile_only else _CHECK_RUN,
        flags=render(list(flags)) or "",
    )
    return head + body
