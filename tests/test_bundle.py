"""Bundles whose run.sh never lies: hostile files, missing tools, fake compilers (fast); every kind of
bundle under ``env -i`` with only the two IREE tools on PATH (iree)."""

from __future__ import annotations

import os
import shlex
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from ireefuzz import sut
from ireefuzz.errors import CorpusError
from ireefuzz.generators.case import Case
from ireefuzz.generators.graph import Graph, Node
from ireefuzz.generators.graph import TensorType as T
from ireefuzz.oracles.finding import Finding
from ireefuzz.tools.filing.bundle import Bundle, render, run_script

CORPUS = Path(__file__).resolve().parent.parent / "corpus"
F32 = lambda *s: T(s, "f32")
GRAPH = Graph((F32(4, 4), F32(4, 4)), (Node("add", ("a0", "a1"), {}, F32(4, 4)),), ("n0",)).check()
FLAGS = sut.target_flags("host")


def _finding(oracle: str, kind: str, signature: str | None = None, message: str = "msg", **evidence) -> Finding:
    return Finding(
        oracle, kind, signature or f"{oracle}/{kind}/add/f32/SxS", message, evidence, Case(GRAPH, ({},)).to_json()
    )


def _write(tmp_path: Path, script: str) -> Path:
    bundle = tmp_path / "bundle"
    Bundle(
        program="module {}\n",
        finding={"signature": "memory/alloca/add/f32/SxS"},
        run_sh=script,
        inputs=[np.zeros((4, 4), np.float32)] * 2,
    ).dump(bundle)
    return bundle


def _tools(tmp_path: Path, compile_body: str | None, run_body: str | None = "echo '[SUCCESS]'; exit 0") -> Path:
    """A PATH directory with fake iree-compile / iree-run-module (sh scripts), either may be left out."""
    tools = tmp_path / "tools"
    tools.mkdir(parents=True, exist_ok=True)
    for name, body in (("iree-compile", compile_body), ("iree-run-module", run_body)):
        if body is not None:
            (tools / name).write_text(f"#!/bin/sh\n{body}\n")
            (tools / name).chmod(0o755)
    return tools


def _run(bundle: Path, tools: Path, **env: str) -> subprocess.CompletedProcess:
    """run.sh under ``env -i``: PATH holds only ``tools`` (no dirname, mktemp, grep, rm, python3)."""
    variables = {"PATH": str(tools), "TMPDIR": str(bundle.parent)} | env
    return subprocess.run(
        ["/usr/bin/env", "-i", *[f"{k}={v}" for k, v in variables.items()], "/bin/sh", str(bundle / "run.sh")],
        capture_output=True,
        text=True,
        timeout=300,
    )


ALLOCA_IR = """// -----// IR Dump Before ConvertToLLVMPass (iree-convert-to-llvm) ('builtin.module' operation: \
@main_dispatch_0_matmul) //----- //
func.func @main_dispatch_0_matmul() {
  %alloca = memref.alloca() {alignment = 64 : i64} : memref<8x16xf32>
  linalg.matmul ins(%a, %b : memref<8x4xf32>, memref<4x16xf32>) outs(%alloca : memref<8x16xf32>)
}"""
COPY_IR = """// -----// IR Dump Before CleanupBufferAllocViewPass (iree-codegen-cleanup-buffer-alloc-view) \
('func.func' operation: @main_dispatch_0_{name}) //----- //
func.func @main_dispatch_0_{name}() {{
  {compute}
  linalg.generic {{indexing_maps = [#map, #map], iterator_types = ["parallel"]}} ins(%subview : memref<4xf32>) \
outs(%{target} : memref<4xf32>) {{
  ^bb0(%in: f32, %out: f32):
    linalg.yield %in : f32
  }}
}}"""
BINDINGS = """%0 = hal.interface.binding.subspan layout(<bindings = [#b, #b]>) binding(0) : memref<8xf32>
  %1 = hal.interface.binding.subspan layout(<bindings = [#b, #b]>) binding(1) : memref<8xf32>
  %assume_align = memref.assume_alignment %1, 64 : memref<8xf32>
  %alloca = memref.alloca() : memref<8xf32>
  %subview = memref.subview %0[%i] [4] [1] : memref<8xf32> to memref<4xf32, strided<[1], offset: ?>>
  %subview_2 = memref.subview %assume_align[%i] [4] [1] : memref<8xf32> to memref<4xf32, strided<[1], offset: ?>>"""
MATMUL = "linalg.matmul ins(%a, %b : memref<4x4xf32>, memref<4x4xf32>) outs(%c : memref<4x4xf32>)"


def _printing(text: str, status: int = 0) -> str:
    """A fake iree-compile body that prints ``text`` on stderr and writes its -o file."""
    return (
        f'while [ $# -gt 0 ]; do [ "$1" = -o ] && : > "$2"; shift; done\n'
        f"printf '%s\\n' {shlex.quote(text)} >&2\nexit {status}"
    )  # builtins only: PATH has no cat


@pytest.mark.parametrize(
    "kind,ir,status",
    [
        ("alloca", ALLOCA_IR, 1),
        ("alloca", ALLOCA_IR.replace("memref.alloca()", "memref.subview()"), 0),
        ("copy", COPY_IR.format(name="matmul", compute=MATMUL, target="subview_2"), 1),
        ("copy", COPY_IR.format(name="matmul", compute=MATMUL, target="subview"), 0),  # onto itself
        ("copy", COPY_IR.format(name="slow_memcpy", compute=BINDINGS, target="subview_2"), 0),  # data movement only
        ("copy", COPY_IR.format(name="gather", compute=BINDINGS, target="subview_2"), 0),  # the gather's own row copy
        ("copy", COPY_IR.format(name="matmul", compute=BINDINGS, target="subview_2"), 1),  # ... where no op moves data
        (
            "copy",
            COPY_IR.format(
                name="gather",
                compute=BINDINGS.replace("%subview_2 = memref.subview %assume", "%subview_2 = memref.subview %alloca"),
                target="subview_2",
            ),
            1,
        ),  # staged through an alloca in the gather
        ("copy", COPY_IR.format(name="gather", compute="", target="subview_2"), 1),  # ends not seen to be bindings
        ("copy", COPY_IR.format(name="matmul", compute="", target="subview_2").replace("%in : f32", "%out : f32"), 0),
        (
            "copy",
            COPY_IR.format(name="matmul", compute=MATMUL, target="subview")
            + "\n"  # second dump: not read
            + COPY_IR.format(name="matmul", compute=MATMUL, target="subview_2"),
            0,
        ),
    ],
)
def test_memory_run_sh_decides_from_the_oracles_observation_point(tmp_path, kind, ir, status):
    script = run_script(
        _finding("memory", kind), GRAPH, FLAGS, data_movement=["main_dispatch_0_slow_memcpy", "main_dispatch_0_gather"]
    )
    bundle = _write(tmp_path, script)
    proc = _run(bundle, _tools(tmp_path, _printing(ir), run_body=None))
    assert proc.returncode == status, proc.stdout + proc.stderr
    assert not list(tmp_path.glob("repro.*")) or all(p.stat().st_size == 0 for p in tmp_path.glob("repro.*"))


SORT_SCRATCH = {"op": "memref.alloca", "for": "iree_linalg_ext.sort", "operand": 1, "why": "result unused"}


@pytest.mark.parametrize(
    "allocas,admitted,status",
    [(1, 1, 0), (2, 1, 1), (1, 0, 1), (2, 2, 0)],
)
def test_memory_run_sh_counts_only_the_buffers_beyond_the_scratch_the_oracle_admitted(
    tmp_path, allocas, admitted, status
):
    """Stop 48's sort bundle: the oracle admitted one buffer (a sort's scratch) and counted one beyond it; run.sh
    said "BUG REPRODUCED" on any alloca, so a compiler keeping only the admitted scratch would still reproduce."""
    ir = ALLOCA_IR.replace(ALLOCA_IR.splitlines()[2], "\n".join([ALLOCA_IR.splitlines()[2]] * allocas))
    finding = _finding("memory", "alloca", required_scratch=[SORT_SCRATCH] * admitted)
    bundle = _write(tmp_path, run_script(finding, GRAPH, FLAGS))
    proc = _run(bundle, _tools(tmp_path, _printing(ir), run_body=None))
    assert proc.returncode == status, proc.stdout + proc.stderr


OLD_HEADER = "// -----// IR Dump Before {pass_} //----- //\n"  # 3.10.0 and older name no function in the header


@pytest.mark.parametrize(
    "kind,ir,status",
    [
        (
            "alloca",
            OLD_HEADER.format(pass_="ConvertToLLVMPass (iree-convert-to-llvm)")
            + "func.func @d0() {\n}\n"
            + ALLOCA_IR.replace(
                ALLOCA_IR.splitlines()[0], OLD_HEADER.format(pass_="ConvertToLLVMPass (iree-convert-to-llvm)")
            ),
            1,
        ),  # the alloca is in the second dispatch
        (
            "copy",
            "\n".join(
                OLD_HEADER.format(pass_="CleanupBufferAllocViewPass") + c.split("\n", 1)[1]
                for c in (
                    COPY_IR.format(name="matmul", compute=MATMUL, target="subview"),
                    COPY_IR.format(name="matmul", compute=MATMUL, target="subview_2"),
                )
            ),
            0,
        ),  # second dump of one function
    ],
)
def test_memory_run_sh_names_each_dump_by_its_function_when_the_header_does_not(tmp_path, kind, ir, status):
    bundle = _write(tmp_path, run_script(_finding("memory", kind), GRAPH, FLAGS))
    proc = _run(bundle, _tools(tmp_path, _printing(ir), run_body=None))
    assert proc.returncode == status, proc.stdout + proc.stderr


@pytest.mark.parametrize(
    "oracle,kind",
    [
        ("memory", "alloca"),
        ("memory", "copy"),
        ("numeric", "wrong-value"),
        ("immutability", "input-mutated"),
        ("crash", "runtime-fault"),
        ("crash", "compile-error"),
        ("fusion", "materialized-producer"),
    ],
)
def test_run_sh_says_2_when_it_cannot_tell(tmp_path, oracle, kind):
    script = run_script(_finding(oracle, kind), GRAPH, FLAGS, error_message="failed to legalize operation")
    bundle = _write(tmp_path, script)
    assert _run(bundle, _tools(tmp_path, None)).returncode == 2  # no iree-compile
    if oracle in ("numeric", "immutability") or kind == "runtime-fault":
        assert _run(bundle, _tools(tmp_path / "x", _printing(""), run_body=None)).returncode == 2  # no runner
    failing = _tools(tmp_path / "f", _printing("error: something unrelated", status=3))
    assert _run(bundle, failing).returncode == 2  # a compile failure that is not this bug
    proc = _run(bundle, _tools(tmp_path / "ok", _printing("")), TMPDIR=str(tmp_path / "missing"))  # no mktemp
    assert proc.returncode == 2 and "cannot create work files" in proc.stdout


def test_a_runner_that_cannot_compare_is_not_a_reproduction(tmp_path):
    bundle = _write(tmp_path, run_script(_finding("numeric", "wrong-value"), GRAPH, FLAGS))
    broken = _tools(tmp_path, _printing(""), run_body="echo 'Traceback: import error'; exit 1")
    assert _run(bundle, broken).returncode == 2
    mismatch = _tools(tmp_path / "m", _printing(""), run_body="echo '[FAILED] result[0]: element at index 0'; exit 1")
    assert _run(bundle, mismatch).returncode == 1
    same = _tools(tmp_path / "s", _printing(""), run_body="echo '[SUCCESS] all function outputs matched'")
    assert _run(bundle, same).returncode == 0


def test_a_comparison_looser_than_the_findings_own_error_cannot_say_absent(tmp_path):
    """Round 41's outsider: run.sh said "not reproduced" of a confirmed wrong value: iree-run-module takes one
    threshold per dtype (the largest any element needs, 2e-3), and the finding's element was off by 7e-4."""
    expected = np.full((4, 4), 5.1952419, np.float32)
    wrong = _finding("numeric", "wrong-value", output=0, index=[1, 2], iree=5.1959519, float64=5.1952419)
    script = run_script(wrong, GRAPH, FLAGS, rtol=2.4e-6, atol={"f32": 2e-3}, outputs=[expected])
    same = _tools(tmp_path, _printing(""), run_body="echo '[SUCCESS] all function outputs matched'")
    proc = _run(_write(tmp_path, script), same)
    assert proc.returncode == 2 and "could not tell: output 0 at [1, 2] is off by 0.00071" in proc.stdout, proc.stdout
    mismatch = _tools(tmp_path / "m", _printing(""), run_body="echo '[FAILED] result[0]: element at index 6'; exit 1")
    assert _run(_write(tmp_path / "m", script), mismatch).returncode == 1
    far = _finding("numeric", "wrong-value", output=0, index=[1, 2], iree=-3.0, float64=5.1952419)
    script = run_script(far, GRAPH, FLAGS, rtol=2.4e-6, atol={"f32": 2e-3}, outputs=[expected])
    assert _run(_write(tmp_path / "f", script), same).returncode == 0  # a threshold that sees the error may say absent


def test_compile_error_reproduces_only_with_its_own_diagnostic(tmp_path):
    script = run_script(
        _finding("crash", "compile-error"), GRAPH, FLAGS, error_message="failed to legalize operation 'x'"
    )
    bundle = _write(tmp_path, script)
    assert (
        _run(bundle, _tools(tmp_path, _printing("a.mlir:3:5: error: failed to legalize operation 'y'", 1))).returncode
        == 1
    )
    assert _run(bundle, _tools(tmp_path / "o", _printing("error: unknown command line flag", 1))).returncode == 2
    assert _run(bundle, _tools(tmp_path / "s", _printing(""))).returncode == 0


def test_hostile_finding_runs_no_injected_command(tmp_path):
    marker = tmp_path / "injected"
    evil = f"x\ntouch {marker}\n$(touch {marker}) `touch {marker}`"
    flags = [*FLAGS, f"--iree-opt-x=$(touch${{IFS}}{marker})", f"--iree-y=';touch${{IFS}}{marker};'"]
    script = run_script(_finding("memory", "alloca", signature=f"memory/alloca/{evil}", message=evil), GRAPH, flags)
    bundle = _write(tmp_path, script)
    args = tmp_path / "args"
    proc = _run(bundle, _tools(tmp_path, f'for a in "$@"; do printf "%s\\n" "$a"; done > {args}\n' + _printing("")))
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert not marker.exists()
    assert f"--iree-opt-x=$(touch${{IFS}}{marker})" in args.read_text().splitlines()  # passed verbatim, as one word
    with pytest.raises(CorpusError, match="refusing flags"):
        run_script(_finding("memory", "alloca"), GRAPH, [*FLAGS, "; rm -rf /"])


@pytest.mark.parametrize(
    "flag",
    [
        "--iree-hal-dump-executable-sources-to=/tmp/x",
        "-o",
        "--output-format=x",
        "--mlir-print-ir-tree-dir=/tmp/x",
        "--iree-scheduling-dump-statistics-file=/x",
        "--x-to=/tmp",
        "; touch x",
        "--a b",
        "--iree-llvmcpu-embedded-linker-path=/bin/sh",
    ],
)
def test_unsafe_flags_are_refused(flag):
    assert sut.unsafe_flags([flag]) == [flag]


def test_ordinary_flags_pass():
    assert sut.unsafe_flags([*FLAGS, "--iree-opt-data-tiling=false", "--iree-llvmcpu-enable-ukernels=all"]) == []


def test_case_file_with_dump_flag_is_refused(tmp_path):
    from ireefuzz.tools.corpus import load_case

    case = Case(GRAPH, ({},), flags=("--iree-hal-dump-executable-sources-to=/tmp/evil",)).to_json()
    (tmp_path / "c").mkdir()
    (tmp_path / "c" / "case.json").write_text(__import__("json").dumps(case))
    with pytest.raises(CorpusError, match="refusing flags"):
        load_case(tmp_path / "c")


def test_render_quotes_every_word_but_placeholders():
    assert render(["a b", "$(x)", "--module=\x00WORK\x00.vmfb"]) == "'a b' '$(x)' --module=\"$WORK\".vmfb"


def test_bundle_round_trip(tmp_path):
    made = Bundle(
        program="module {}\n",
        finding={"signature": "numeric/wrong-value/add/f32/SxS", "flags": FLAGS},
        case=Case(GRAPH, ({},)).to_json(),
        inputs=[np.arange(4, dtype=np.float32)],
        expected={"jax_0": np.ones(2), "f64_0": np.ones(2)},
        run_sh="#!/bin/sh\nexit 0\n",
        issue="# x\n",
        findings=[{"signature": "s"}],
        command="iree-compile x",
    )
    made.dump(tmp_path / "b")
    assert (tmp_path / "b" / "expected" / "out0.npy").exists() and os.access(tmp_path / "b" / "run.sh", os.X_OK)
    loaded = Bundle.load(tmp_path / "b")
    assert loaded.signature == made.signature and loaded.case == made.case and loaded.command == made.command
    assert np.array_equal(loaded.inputs[0], made.inputs[0]) and set(loaded.expected) == {"jax_0", "f64_0"}
    made.issue = None
    made.dump(tmp_path / "b")
    assert not (tmp_path / "b" / "ISSUE.md").exists()  # a flaky finding files no issue
    (tmp_path / "b" / "finding.json").write_bytes(b"\x00\xff")
    with pytest.raises(CorpusError, match="not a readable JSON"):
        Bundle.load(tmp_path / "b")


def test_promote_refuses_a_name_outside_regressions(tmp_path):
    bundle = tmp_path / "bundle"
    Bundle(
        program="// p\n", finding={"signature": "memory/alloca/add/f32/SxS"}, case=Case(GRAPH, ({},)).to_json()
    ).dump(bundle)
    proc = subprocess.run(
        [
            sys.executable,
            "-m",
            "ireefuzz.cli",
            "promote",
            str(bundle),
            "--corpus",
            str(tmp_path / "corpus"),
            "--name",
            "../../escaped",
        ],
        capture_output=True,
        text=True,
    )
    assert proc.returncode == 2 and len(proc.stderr.strip().splitlines()) == 1, proc.stderr
    assert not (tmp_path / "escaped").exists() and not list(tmp_path.rglob("escaped"))
    (tmp_path / "file").write_text("")
    proc = subprocess.run(
        [sys.executable, "-m", "ireefuzz.cli", "promote", str(bundle), "--corpus", str(tmp_path / "file")],
        capture_output=True,
        text=True,
    )
    assert proc.returncode == 2 and len(proc.stderr.strip().splitlines()) == 1, proc.stderr


def test_the_corpus_is_addressable_without_a_checkout_path():
    from ireefuzz.tools import baseline
    from ireefuzz.tools.corpus import default_baseline, default_root

    assert (default_root() / "seeds").is_dir() and baseline.read(default_baseline())


# --------------------------------------------------------------------------- real IREE, every kind of bundle


def _stock_tools(tmp_path: Path) -> Path:
    import iree.compiler
    import iree.runtime

    tools = tmp_path / "iree-tools"
    tools.mkdir()
    (tools / "iree-compile").symlink_to(Path(list(iree.compiler.__path__)[0]) / "_mlir_libs" / "iree-compile")
    (tools / "iree-run-module").symlink_to(
        Path(iree.runtime.__file__).parent.parent / "_runtime_libs" / "iree-run-module"
    )
    return tools


@pytest.mark.iree
@pytest.mark.parametrize(
    "seed,prefix,target_cpu",
    [
        ("seeds/dot_33x16x49_exp_static", "memory/alloca/", None),
        # the copy is x86-64-v4's (its corpus verdict by level): compiled for it, which any host does (run.sh only
        # compiles a memory bundle; on a host without AVX-512 nothing runs)
        ("seeds/dot_33x16x49_exp_static", "memory/copy/", "x86-64-v4"),
        ("seeds/matmul_acc_is_argument", "immutability/", None),
        ("regressions/reduce_sum_of_fill", "numeric/", None),
        ("seeds/reduce_sum_outs_is_argument", "crash/compile-error/", None),
    ],
)
def test_every_kind_of_bundle_reproduces_with_only_the_two_tools(tmp_path, seed, prefix, target_cpu):
    import dataclasses

    from ireefuzz.core.evaluate import evaluate
    from ireefuzz.tools.corpus import load_case
    from ireefuzz.tools.filing.repro import write_bundle

    case = load_case(CORPUS / seed).case
    case = dataclasses.replace(case, target_cpu=target_cpu) if target_cpu else case
    finding = next(f for f in evaluate([case])[0].findings if f.signature.startswith(prefix))
    bundle = write_bundle(finding, case, tmp_path / "bundle", issue=False)
    tools = _stock_tools(tmp_path)
    proc = _run(bundle, tools)
    assert proc.returncode == 1 and "BUG REPRODUCED" in proc.stdout, proc.stdout + proc.stderr
    (tools / ("iree-compile" if prefix.startswith(("memory", "crash")) else "iree-run-module")).unlink()
    assert _run(bundle, tools).returncode == 2  # a tool missing: could not tell


def test_repro_refuses_a_finding_whose_case_writes_files(tmp_path):
    case = Case(GRAPH, ({},), flags=("--iree-hal-dump-executable-sources-to=" + str(tmp_path / "evil"),))
    hostile = Finding("memory", "alloca", "memory/alloca/x\n;touch evil/f32/S", "m\n$(touch evil)", {}, case.to_json())
    (tmp_path / "hostile.json").write_text(hostile.dumps())
    proc = subprocess.run(
        [sys.executable, "-m", "ireefuzz.cli", "repro", str(tmp_path / "hostile.json"), "--out", str(tmp_path / "out")],
        capture_output=True,
        text=True,
        cwd=tmp_path,
    )
    assert proc.returncode == 2 and "refusing" in proc.stderr and len(proc.stderr.strip().splitlines()) == 1
    assert not (tmp_path / "evil").exists() and not (tmp_path / "out").exists()


def test_bisect_refuses_a_corrupt_or_hostile_bundle(tmp_path):
    from ireefuzz.tools.filing.bisect import bisect_bundle

    bundle = _write(tmp_path, "#!/bin/sh\nexit 1\n")
    (bundle / "finding.json").write_text("{not json")
    with pytest.raises(CorpusError, match="not a readable JSON"):
        bisect_bundle(bundle, ["3.13.0"], install=False)
    (bundle / "finding.json").write_text('{"signature": "memory/alloca/a/f32/S", "flags": ["-o", "/etc/x"]}')
    with pytest.raises(CorpusError, match="refusing flags"):
        bisect_bundle(bundle, ["3.13.0"], install=False)


IR_DIR = Path(__file__).resolve().parent / "data" / "ir"
GATHER_ROW = "ins(%subview_2 : memref<1x35xi32, strided<[35, 1], offset: ?>, #hal.descriptor_type<storage_buffer>>)"
GATHER_STAGED = lambda text: text.replace(  # fault injection: the gather's row staged through an alloca
    "    linalg.generic",
    "    %stage = memref.alloca() : memref<1x35xi32>\n    memref.copy %subview_2, %stage : "
    "memref<1x35xi32, strided<[35, 1], offset: ?>, #hal.descriptor_type<storage_buffer>> to memref<1x35xi32>\n"
    "    linalg.generic",
    1,
).replace(GATHER_ROW, "ins(%stage : memref<1x35xi32>)")


@pytest.mark.parametrize(
    "name,moves,change",
    [
        ("gather_31x35.bufferized.mlir", True, None),
        ("gather_31x35.bufferized.mlir", False, None),
        ("gather_31x35.bufferized.mlir", True, GATHER_STAGED),
        ("hand.staging_copies.mlir", True, None),
        ("hand.staging_copies.mlir", False, None),
        ("fill_matmul_exp_33x16x49.bufferized.mlir", False, None),
        ("fill_matmul_exp_dyn.bufferized.mlir", False, None),
        ("fill_matmul_exp_32x16x48.bufferized.mlir", False, None),
    ],
)
def test_run_sh_counts_the_copies_the_oracle_counts(tmp_path, name, moves, change):
    """One definition: on recorded and hand-written IR at the observation point (after the cleanup that
    folds full-view self-copies, which only the oracle would see through), run.sh counts the oracle's copies."""
    from ireefuzz.oracles import memory

    text = (IR_DIR / name).read_text()
    text = change(text) if change else text
    fn = "main_dispatch_0_d"
    oracle = sum(1 for m in memory.scan(text) if m.kind == "copy" and (m.staged or not moves))
    header = (
        f"// -----// IR Dump Before CleanupBufferAllocViewPass (iree-codegen-cleanup-buffer-alloc-view) "
        f"('func.func' operation: @{fn}) //----- //\n"
    )
    script = run_script(_finding("memory", "copy"), GRAPH, FLAGS, data_movement=[fn] if moves else [])
    proc = _run(_write(tmp_path, script), _tools(tmp_path, _printing(header + text), run_body=None))
    assert proc.returncode == (1 if oracle else 0), proc.stdout
    assert (f"BUG REPRODUCED: {oracle} copy op(s)" if oracle else "not reproduced") in proc.stdout


@pytest.mark.iree
@pytest.mark.parametrize("dtype", ["i32", "f16", "f32"])
def test_a_numeric_bundle_of_a_correct_program_does_not_reproduce(tmp_path, dtype):
    """0 only when the bug is absent: IREE computes this sum right, so its run.sh must say so (an integer
    ``.npy`` reads as ``si32`` and never matches a signless ``i32`` result, which read as a reproduction)."""
    from ireefuzz.generators.builder import GraphBuilder
    from ireefuzz.generators.case import Case
    from ireefuzz.tools.filing.repro import write_bundle

    b = GraphBuilder()
    x = b.arg((4, 8), dtype)
    b.output(b.add(x, x))
    case = Case(b.build(), ({},), seed=1)
    finding = _finding("numeric", "wrong-value", f"numeric/wrong-value/add/{dtype}/SxS")
    bundle = write_bundle(finding, case, tmp_path / "bundle", issue=False)
    proc = _run(bundle, _stock_tools(tmp_path))
    assert proc.returncode == 0 and "not reproduced" in proc.stdout, proc.stdout + proc.stderr


def test_integer_outputs_compare_exactly_without_a_tolerance_flag_older_runtimes_lack():
    """The maintainer review: bisection called 3.10.0 'could not run' because its iree-run-module does not know
    --expected_rtol; an integer output needs no tolerance."""

    wrong = _finding("numeric", "wrong-value")
    integer = run_script(wrong, GRAPH, FLAGS, outputs=[np.zeros((2,), np.int32)] * len(GRAPH.outputs))
    floating = run_script(wrong, GRAPH, FLAGS, outputs=[np.zeros((2,), np.float32)] * len(GRAPH.outputs))
    assert "--equality_mode=exact" in integer and "expected_rtol" not in integer
    assert "--expected_rtol=" in floating


# --------------------------------------------------------------------------- a pass that fails without a diagnostic

GENERIC = "a.mlir:17:9: error: failed to run translation of source executable to target executable for backend #x"
COMBINE = "iree-codegen-combine-result-layout-transformation"


def _failed_dump(pass_class: str, pass_arg: str) -> str:
    return f"// -----// IR Dump After {pass_class} Failed: {pass_arg} //----- //"


def test_a_generic_compile_error_reproduces_only_where_its_pass_failed(tmp_path):
    """A pass that fails without a diagnostic of its own leaves only "failed to run translation", which any codegen
    failure prints: run.sh said "reproduced" of 3.7.0, where the same program fails with another bug's diagnostic in
    tiling. It asks the compiler for its failure dumps and needs the finding's pass to have failed first."""
    finding = _finding("crash", "compile-error", diagnostic=f"{GENERIC}\nfailing pass: {COMBINE} (main_dispatch_0)\n")
    script = run_script(finding, GRAPH, FLAGS)
    assert "--mlir-print-ir-after-failure" in script
    bundle = _write(tmp_path, script)
    own = _failed_dump("CombineResultLayoutTransformationPass", COMBINE + "{scope=dispatch}")
    outer = _failed_dump("LLVMCPULowerExecutableTargetPass", "iree-llvmcpu-lower-executable-target{cpu-options=x}")
    tiling = _failed_dump("LLVMCPUTilePass", "iree-llvmcpu-tile")
    assert _run(bundle, _tools(tmp_path, _printing(f"{own}\n{outer}\n{GENERIC}", 1))).returncode == 1
    assert _run(bundle, _tools(tmp_path / "t", _printing(f"{tiling}\n{outer}\n{GENERIC}", 1))).returncode == 2
    assert _run(bundle, _tools(tmp_path / "n", _printing(GENERIC, 1))).returncode == 2


def test_a_specific_compile_error_needs_no_failing_pass():
    specific = "a.mlir:3:5: error: 'linalg.generic' op inferred input/output operand #0 has shape's dimension #0"
    finding = _finding("crash", "compile-error", diagnostic=f"{specific}\nfailing pass: iree-llvmcpu-tile (m)\n")
    assert "--mlir-print-ir-after-failure" not in run_script(finding, GRAPH, FLAGS)


@pytest.mark.iree
def test_a_silent_pass_failure_bundle_reproduces_with_the_stock_compiler(tmp_path):
    """A gather read through a reversed indexing map: on 3.13 combine-result-layout-transformation fails with no
    diagnostic of its own (docs/repros/gather_then_reversed_index_combine_result_layout_failure.mlir). Its bundle
    says 1 with the stock tools, and 0 with a transpose in the reversal's place."""
    from ireefuzz.core.evaluate import evaluate
    from ireefuzz.generators.builder import GraphBuilder
    from ireefuzz.tools.filing.repro import write_bundle

    b = GraphBuilder()
    table = b.arg((1, 2), "i32")
    idx = b.arg((2,), "i32", index_bound=1)
    b.output(b.reverse(b.gather(table, idx, form="linalg_ext"), dims=[0, 1], form="map"))
    case = Case(b.build(), ({},), seed=1)
    finding = next(f for f in evaluate([case])[0].findings if f.kind == "compile-error")
    assert COMBINE in str(finding.evidence.get("diagnostic"))
    bundle = write_bundle(finding, case, tmp_path / "bundle", issue=False)
    tools = _stock_tools(tmp_path)
    proc = _run(bundle, tools)
    assert proc.returncode == 1 and "BUG REPRODUCED" in proc.stdout, proc.stdout + proc.stderr
    program = (bundle / "program.mlir").read_text()
    assert program.count("(1 - d0, 1 - d1)") == 1
    (bundle / "program.mlir").write_text(program.replace("(1 - d0, 1 - d1)", "(d1, d0)"))  # a transpose compiles
    proc = _run(bundle, tools)
    assert proc.returncode == 0 and "not reproduced" in proc.stdout, proc.stdout + proc.stderr
