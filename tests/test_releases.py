"""Releases and their runtimes: what a release accepts (fast), the runner protocol with the installed
wheel (iree), a runtime that cannot load the compiler's modules (fast, a fake compiler), and
``ireefuzz check --release`` over the installed releases (slow)."""

from __future__ import annotations

import dataclasses
import json
import os
import signal
import stat
import sys
import textwrap
from pathlib import Path

import numpy as np
import pytest

from ireefuzz import cli, sut
from ireefuzz.errors import IreeNotFound, IRParseError
from ireefuzz.oracles import fusion, ir, memory
from ireefuzz.sut import releases, remote
from ireefuzz.tools.campaign import guidance
from ireefuzz.tools.campaign.options import Options

MATMUL_BIAS = """func.func @main(%a: tensor<4x8xf32>, %b: tensor<8x16xf32>, %bias: tensor<16xf32>) -> tensor<4x16xf32> {
  %z = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<4x16xf32>
  %f = linalg.fill ins(%z : f32) outs(%e : tensor<4x16xf32>) -> tensor<4x16xf32>
  %m = linalg.matmul ins(%a, %b : tensor<4x8xf32>, tensor<8x16xf32>) outs(%f : tensor<4x16xf32>) -> tensor<4x16xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (j)>, \
affine_map<(i, j) -> (i, j)>],
                       iterator_types = ["parallel", "parallel"]}
      ins(%m, %bias : tensor<4x16xf32>, tensor<16xf32>) outs(%e : tensor<4x16xf32>) {
  ^bb0(%x: f32, %y: f32, %o: f32):
    %s = arith.addf %x, %y : f32
    linalg.yield %s : f32
  } -> tensor<4x16xf32>
  return %r : tensor<4x16xf32>
}
"""
FILL_MATMUL_EXP = """func.func @main(%a: tensor<?x?xf32>, %b: tensor<?x?xf32>) -> tensor<?x?xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %m = tensor.dim %a, %c0 : tensor<?x?xf32>
  %n = tensor.dim %b, %c1 : tensor<?x?xf32>
  %z = arith.constant 0.0 : f32
  %e = tensor.empty(%m, %n) : tensor<?x?xf32>
  %f = linalg.fill ins(%z : f32) outs(%e : tensor<?x?xf32>) -> tensor<?x?xf32>
  %mm = linalg.matmul ins(%a, %b : tensor<?x?xf32>, tensor<?x?xf32>) outs(%f : tensor<?x?xf32>) -> tensor<?x?xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>],
                       iterator_types = ["parallel", "parallel"]}
      ins(%mm : tensor<?x?xf32>) outs(%e : tensor<?x?xf32>) {
  ^bb0(%x: f32, %o: f32):
    %s = math.exp %x : f32
    linalg.yield %s : f32
  } -> tensor<?x?xf32>
  return %r : tensor<?x?xf32>
}
"""
SCALAR = """func.func @scale(%a: tensor<f32>, %b: tensor<3xi8>) -> (tensor<f32>, tensor<3xi8>) {
  %r = arith.addf %a, %a : tensor<f32>
  return %r, %b : tensor<f32>, tensor<3xi8>
}
"""


def executable(path: Path, text: str) -> str:
    path.write_text(textwrap.dedent(text))
    path.chmod(path.stat().st_mode | stat.S_IXUSR)
    return str(path)


# --------------------------------------------------------------------------- what a release accepts (fast)


def test_flags_are_spelled_and_observation_flags_kept_only_where_the_release_has_them():
    command = [
        "iree-compile",
        "in.mlir",
        "--iree-llvmcpu-target-cpu=znver4",
        "--mlir-print-ir-tree-dir=/t",
        "--mlir-print-ir-before=a,b",
        "--iree-hal-dump-executable-sources-to=/s",
        "--iree-opt-data-tiling=false",
        "--mlir-print-ir-after-failure",
    ]
    everything = frozenset(a.split("=")[0] for a in command[1:])
    assert releases.adapt_command("3.0.0", command, everything) == command
    without_tree = releases.adapt_command("20240226.813", command, everything - {"--mlir-print-ir-tree-dir"})
    assert "--mlir-print-ir-before=a,b" in without_tree and "--mlir-disable-threading" in without_tree  # to stderr
    assert not any(a.startswith(("--mlir-print-ir-tree-dir", "--mlir-print-ir-after-failure")) for a in without_tree)
    assert "--iree-opt-data-tiling=false" in without_tree  # a user's flag is never dropped
    assert releases.adapt_command("20230209.425", command, everything)[2] == "--iree-llvm-target-cpu=znver4"


def test_release_of_an_external_compiler_comes_from_its_wheel(tmp_path):
    site = tmp_path / "venv" / "lib" / "python3.11" / "site-packages"
    binary = site / "iree" / "compiler" / "_mlir_libs" / "iree-compile"
    binary.parent.mkdir(parents=True)
    executable(binary, "#!/bin/sh\nexit 1\n")
    (site / "iree_compiler-20240621.931.dist-info").mkdir()
    config = sut.CompilerConfig(iree_compile=str(binary))
    assert releases.release_of(config) == "20240621.931"
    assert not releases.syntax_of(config).linalg_ext_gather and releases.syntax_of(config).maximumf
    assert releases.runtime_python_beside(str(binary)) is None  # no runtime in that wheel's venv
    (site / "iree" / "runtime").mkdir()
    (tmp_path / "venv" / "bin").mkdir()
    python = executable(tmp_path / "venv" / "bin" / "python", "#!/bin/sh\n")
    assert releases.runtime_python_beside(str(binary)) == python
    assert releases.release_of(sut.CompilerConfig(iree_compile=executable(tmp_path / "own", "#!/bin/sh\n"))) is None
    assert releases.release_of(sut.CompilerConfig(release="3.10.0")) == "3.10.0"


def test_ops_for_every_release_are_known_graph_ops():
    from ireefuzz.generators.ops import OP_NAMES

    assert set(releases.ops_for(releases.RELEASES[0])) <= set(OP_NAMES)
    assert releases.ops_for(releases.RELEASES[-1]) == tuple(OP_NAMES)


def test_unknown_release_and_both_compilers_are_usage_errors(tmp_path, capsys):
    program = tmp_path / "p.mlir"
    program.write_text(MATMUL_BIAS)
    assert cli.main(["check", str(program), "--release", "1.2.3"]) == 2
    assert "unknown IREE release '1.2.3'" in capsys.readouterr().err
    assert cli.main(["check", str(program), "--release", "3.10.0", "--iree-compile", sys.executable]) == 2
    assert "not both" in capsys.readouterr().err


# --------------------------------------------------------------------------- a runtime that cannot load (fast)


@pytest.fixture
def old_compiler(tmp_path) -> str:
    """An iree-compile whose modules no runtime here can load (like an older release's)."""
    return executable(
        tmp_path / "iree-compile",
        """\
        #!/bin/sh
        if [ "$1" = --version ]; then echo "IREE compiler version 20230101.1 @ fake"; exit 0; fi
        while [ $# -gt 0 ]; do if [ "$1" = -o ]; then printf 'IREE?old module' > "$2"; fi; shift; done
        """,
    )


def test_a_runtime_that_cannot_load_the_modules_is_one_line_and_exit_2(tmp_path, old_compiler, capsys):
    config = sut.CompilerConfig(iree_compile=old_compiler)
    with pytest.raises(IreeNotFound, match="--iree-runtime PYTHON"):
        sut.check_runtime(config)
    program = tmp_path / "p.mlir"
    program.write_text(MATMUL_BIAS)
    assert cli.main(["check", str(program), "--iree-compile", old_compiler]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "Traceback" not in err
    assert "iree-compile 20230101.1 @ fake" in err and "cannot load" in err


def test_a_runtime_python_without_iree_is_one_line(tmp_path, old_compiler, capsys):
    fake_python = executable(tmp_path / "python", f"#!/bin/sh\nexec {sys.executable} -c 'import sys; sys.exit(3)'\n")
    program = tmp_path / "p.mlir"
    program.write_text(MATMUL_BIAS)
    assert cli.main(["check", str(program), "--iree-compile", old_compiler, "--iree-runtime", fake_python]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and f"the IREE runtime of {fake_python} cannot load" in err
    with pytest.raises(SystemExit) as bad:  # refused as the command line is read: one line, exit 2
        cli.main(["check", str(program), "--iree-runtime", str(tmp_path / "none")])
    assert bad.value.code == 2 and "is not an executable Python" in capsys.readouterr().err


# --------------------------------------------------------------------------- the runner protocol (installed wheel)


@pytest.fixture(scope="module")
def scalar_artifact() -> sut.Artifact:
    artifact = sut.compile_mlir(SCALAR, sut.CompilerConfig(observe=False))
    assert isinstance(artifact, sut.Artifact), artifact
    return artifact


@pytest.mark.iree
def test_runner_matches_the_in_process_runtime(scalar_artifact):
    remote, local = sut.RemoteModule(scalar_artifact.vmfb, sys.executable), sut.LoadedModule(scalar_artifact)
    assert remote.function_names == local.function_names == ("scale",)
    inputs = [np.array(1.5, np.float32), np.array([1, -2, 3], np.int8)]
    got, want = remote.call("scale", inputs), local.call("scale", inputs)
    assert got.outputs[0].shape == () and got.outputs[0] == 3.0  # 0-d stays 0-d
    for a, b in zip(got.outputs + got.inputs_after, want.outputs + want.inputs_after):
        assert a.dtype == b.dtype and np.array_equal(a, b)
    fault = remote.call("scale", inputs[:1])  # a wrong call is the runtime's error, as in process
    assert isinstance(fault, sut.RunFailure) and fault.kind == "fault"


@pytest.mark.iree
def test_a_runner_killed_mid_call_is_a_crash_and_the_next_call_restarts_it(scalar_artifact):
    module = sut.RemoteModule(scalar_artifact.vmfb, sys.executable)
    runner = module._runner
    inputs = [np.array(1.0, np.float32), np.zeros(3, np.int8)]
    assert isinstance(module.call("scale", inputs), sut.RunResult)
    generation = runner.generation
    os.kill(runner._proc.pid, signal.SIGKILL)
    crashed = module.call("scale", inputs)
    assert isinstance(crashed, sut.RunFailure) and crashed.kind == "crash" and "signal 9" in crashed.message
    again = module.call("scale", inputs)  # a new runner, the module loaded again
    assert isinstance(again, sut.RunResult) and again.outputs[0] == 2.0 and runner.generation == generation + 1


# --------------------------------------------------------------------------- releases (slow: installed venvs)

ACCEPTANCE = ("20230524.529", "20240226.813", "20240621.931", "3.0.0", "3.10.0")


@pytest.mark.slow
@pytest.mark.parametrize("version", ACCEPTANCE)
@pytest.mark.parametrize("program", [MATMUL_BIAS, FILL_MATMUL_EXP], ids=["matmul-bias", "fill-matmul-exp"])
def test_check_with_a_release_runs_its_own_runtime(version, program, tmp_path, capsys):
    if not (releases.DEFAULT_CACHE / version / ".installed").exists():
        pytest.skip(f"IREE {version} is not installed in {releases.DEFAULT_CACHE}")
    path = tmp_path / "p.mlir"
    path.write_text(program)
    code = cli.main(["check", str(path), "--release", version, "--json"])
    out, err = capsys.readouterr()
    assert f"running modules with iree.runtime {version}" in err and "Traceback" not in err
    report = json.loads(out)
    # judged: the numbers agree; the IR oracles may find what that release's codegen does (3.0.0 keeps an
    # alloca in the dynamic unpack + exp dispatch), never a crash or a wrong value
    assert code == (1 if report["findings"] else 0) and report["functions"][0]["not_judged"] == []
    assert {f["oracle"] for f in report["findings"]} <= {"memory", "fusion"}


@pytest.mark.slow
def test_an_old_release_compiler_without_its_runtime_is_one_line(tmp_path, capsys):
    version = "20240621.931"
    if not (releases.DEFAULT_CACHE / version / ".installed").exists():
        pytest.skip(f"IREE {version} is not installed")
    wrapper = executable(
        tmp_path / "iree-compile",  # not inside the wheel: no runtime beside it
        f'#!/bin/sh\nexec {releases.release(version, install=False).iree_compile} "$@"\n',
    )
    path = tmp_path / "p.mlir"
    path.write_text(MATMUL_BIAS)
    assert cli.main(["check", str(path), "--iree-compile", wrapper]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "bytecode version mismatch" in err


# ------------------------------------------------------------------------- a campaign never draws an op a release lacks


def test_campaign_draws_only_the_ops_and_syntax_of_its_release(monkeypatch):
    options = campaign_options(release="3.8.0")
    monkeypatch.setitem(releases.OPS_SINCE, "gather", "3.9.0")  # as if gather came in 3.9
    old = [n for c in guidance.draw_block(options, 0, guidance.Coverage()) for n in c.graph.nodes]
    assert old and "gather" not in {n.op for n in old}
    gathers = ("gather", "add")  # a draw of gather or add: gather comes up in every block
    new = [
        n
        for b in range(2)
        for c in guidance.draw_block(campaign_options(release="3.9.0", ops=gathers), b, guidance.Coverage())
        for n in c.graph.nodes
    ]
    assert "gather" in {n.op for n in new}
    old = [
        n
        for b in range(2)
        for c in guidance.draw_block(campaign_options(release="3.8.0", ops=gathers), b, guidance.Coverage())
        for n in c.graph.nodes
    ]
    assert "gather" not in {n.op for n in old}
    monkeypatch.delitem(releases.OPS_SINCE, "gather")
    drawn = [n for b in range(4) for c in guidance.draw_block(options, b, guidance.Coverage()) for n in c.graph.nodes]
    forms = {n.attrs["form"] for n in drawn if n.op == "gather"}
    assert forms <= {"extract"}  # no iree_linalg_ext.gather before 3.9


def campaign_options(**kw):
    return Options(seed=11, block=32, cases=128, **kw)


@pytest.mark.slow
def test_a_campaign_on_a_release_compiles_and_runs_with_that_release(tmp_path, capsys):
    version = "3.10.0"
    if not (releases.DEFAULT_CACHE / version / ".installed").exists():
        pytest.skip(f"IREE {version} is not installed")
    out = tmp_path / "run"
    status = cli.main(
        [
            "fuzz",
            "--release",
            version,
            "--cases",
            "8",
            "--workers",
            "1",
            "--bundles",
            "0",
            "--relations",
            "",
            "--out",
            str(out),
        ]
    )
    assert status in (0, 1)
    import json

    recorded = json.loads((out / "campaign.json").read_text())
    assert recorded["release"] == version and {"memory", "fusion"} <= set(
        recorded["oracles"]
    )  # its own bindings read its IR
    assert recorded["oracles_not_judged"] == []
    assert f"compiler: {version}" in (out / "summary.md").read_text()
    assert f"running modules with iree.runtime {version}" in capsys.readouterr().err


@pytest.mark.iree
def test_a_runner_outlives_the_thread_that_started_it_but_not_its_process(scalar_artifact):
    import subprocess
    import threading
    import time

    from ireefuzz.sut import remote

    made = []
    runner = remote.RunnerProcess(sys.executable)
    thread = threading.Thread(target=lambda: made.append(runner.request({"op": "hello"})))
    thread.start()
    thread.join()
    time.sleep(1.5)
    assert str(runner.request({"op": "hello"})["status"]) == "ok" and runner.generation == 1  # not restarted
    runner.close()
    parent = subprocess.Popen(
        [
            sys.executable,
            "-c",
            "import subprocess, sys, time; p = subprocess.Popen([sys.executable, "
            f"'-I', {str(remote.RUNNER)!r}], stdin=subprocess.PIPE); print(p.pid, flush=True); "
            "time.sleep(60)",
        ],
        stdout=subprocess.PIPE,
        text=True,
    )
    child = int(parent.stdout.readline())
    parent.kill()
    parent.wait()
    deadline = time.time() + 10
    while time.time() < deadline and Path(f"/proc/{child}").exists() and "Z" not in _state(child):
        time.sleep(0.2)
    assert not Path(f"/proc/{child}").exists() or "Z" in _state(child)  # gone (or a zombie nobody reaps)


def _state(pid: int) -> str:
    try:
        return next(line for line in Path(f"/proc/{pid}/status").read_text().splitlines() if line.startswith("State"))
    except (OSError, StopIteration):
        return "Z"


# --------------------------------------------------------------------------- IR read by the compiler's own bindings

IR_DATA = Path(__file__).parent / "data" / "ir"


def _read_by(python: str, *dispatches: sut.DispatchIR) -> list[sut.DispatchIR]:
    fields = ("name", "final_ir", "bufferized_ir", "source", "configured")
    facts = remote.read_ir(python, [{f: getattr(d, f) for f in fields} for d in dispatches])
    return [dataclasses.replace(d, facts=f) for d, f in zip(dispatches, facts)]


def _with_alloca(final_ir: str) -> str:
    header = next(line for line in final_ir.splitlines() if line.lstrip().startswith("func.func @")) + "\n"
    return final_ir.replace(header, header + "    %injected = memref.alloca() : memref<16xf32>\n", 1)


@pytest.mark.iree
def test_facts_read_by_the_ir_reader_judge_as_the_ir_does():
    """The reader (here with this interpreter's bindings) answers what the oracles read in process:
    the same findings, clean IR clean, an injected alloca caught, an unreadable text said so."""
    clean = sut.DispatchIR(
        "add_dispatch_0_elementwise_1536_f32",
        "X",
        (IR_DATA / "add_32x48.final.mlir").read_text(),
        (IR_DATA / "add_32x48.after_bufferize.mlir").read_text(),
        "",
    )
    dyn = sut.DispatchIR(
        "d1",
        "X",
        "",
        (IR_DATA / "fill_matmul_exp_dyn.bufferized.mlir").read_text(),
        (IR_DATA / "fill_matmul_exp_dyn.source.mlir").read_text(),
    )
    faulty = dataclasses.replace(clean, final_ir=_with_alloca(clean.final_ir))
    broken = dataclasses.replace(clean, final_ir="func.func @x() { memref.alloca( }")
    read = _read_by(sys.executable, clean, dyn, faulty, broken)
    assert all(d.facts is not None for d in read)
    assert memory.check_memory(read[:2]) == memory.check_memory([clean, dyn]) == []
    assert ir.dispatch_op_pattern(read[1]) == ir.dispatch_op_pattern(dyn) != "-"
    (finding,) = memory.check_memory(read[2:3])
    assert finding.kind == "alloca" and finding.evidence["memory_ops"][0]["bytes"] == 64
    with pytest.raises(IRParseError, match="unreadable|parse|expected"):
        memory.check_memory(read[3:])  # never a silent pass


def _installed(version: str) -> None:
    if not (releases.DEFAULT_CACHE / version / ".installed").exists():
        pytest.skip(f"IREE {version} is not installed in {releases.DEFAULT_CACHE}")


@pytest.mark.slow
@pytest.mark.parametrize("version", ["20240621.931", "3.10.0"])
def test_ir_oracles_judge_an_older_release_and_catch_a_fault(version):
    """Memory and fusion judge 3.10.0 and 2024-06 (whose IR 3.13's bindings cannot parse) through the
    release's own bindings: a clean static matmul + bias is clean, an alloca injected into its final IR
    is caught, and a returned iota beside other work is no materialized producer unless a dispatch reads it."""
    _installed(version)
    config = sut.CompilerConfig(release=version)
    assert sut.prepare(config).unable == frozenset()
    artifact = sut.compile_mlir(MATMUL_BIAS, config)
    assert artifact.dispatches and all(d.facts and "unreadable" not in d.facts for d in artifact.dispatches)
    assert memory.check_memory(artifact.dispatches) == []
    first = artifact.dispatches[0]
    (faulty,) = _read_by(
        # no LLVM IR beside it: the injected alloca is judged as it stands (the real one holds no alloca to survive)
        releases.release(version).python,
        dataclasses.replace(first, final_ir=_with_alloca(first.final_ir), llvm_ir=""),
    )
    assert [f.kind for f in memory.check_memory([faulty])] == ["alloca"]
    iota = sut.compile_mlir(IOTA_AND_ADD, config)
    # the returned iota goes back to the caller (the release's host program says so): no finding; read by another
    # dispatch, the same load-free dispatch is a materialized producer
    assert fusion.check_fusion(iota.dispatches, iota.statistics) == []
    assert any(d.read_by == () for d in iota.dispatches)
    read = [dataclasses.replace(d, read_by=("consumer",)) for d in iota.dispatches]
    assert "materialized-producer" in {f.kind for f in fusion.check_fusion(read, iota.statistics)}


@pytest.mark.slow
def test_every_oracle_judges_the_releases_whose_bindings_or_dumps_fall_short(capsys):
    """2024-02 dumps no IR per pass (it prints the IR to stderr instead: ``sut.dumps.printed_ir``); 2023-05's
    bindings predate what the judges read (the text reader reads it: ``oracles.ir_text``). Issue 24."""
    _installed("20240226.813")
    assert sut.oracles_not_judged(sut.CompilerConfig(release="20240226.813")) == {}
    path = Path(__file__).parent / "data" / "ir" / "inputs" / "fill_matmul_exp_dyn.mlir"
    assert cli.main(["check", str(path), "--release", "20240226.813", "--json"]) in (0, 1)
    assert json.loads(capsys.readouterr().out)["oracles_not_judged"] == {}  # said in the report, too
    _installed("20230524.529")
    assert sut.oracles_not_judged(sut.CompilerConfig(release="20230524.529")) == {}


IOTA_AND_ADD = """func.func @main(%a: tensor<64xf32>) -> (tensor<64xf32>, tensor<64xf32>) {
  %e = tensor.empty() : tensor<64xf32>
  %i = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} outs(%e : \
tensor<64xf32>) {
  ^bb0(%o: f32):
    %x = linalg.index 0 : index
    %y = arith.index_cast %x : index to i32
    %z = arith.sitofp %y : i32 to f32
    linalg.yield %z : f32
  } -> tensor<64xf32>
  %s = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], \
iterator_types = ["parallel"]} ins(%a : tensor<64xf32>) outs(%e : tensor<64xf32>) {
  ^bb0(%x: f32, %o: f32):
    %y = math.exp %x : f32
    linalg.yield %y : f32
  } -> tensor<64xf32>
  return %i, %s : tensor<64xf32>, tensor<64xf32>
}
"""


def test_an_ir_reader_that_dies_leaves_the_facts_unreadable_never_empty(tmp_path):
    python = executable(tmp_path / "python", "#!/bin/sh\necho 'Fatal: no MLIR bindings here' >&2\nexit 3\n")
    dispatch = {"name": "d0", "final_ir": "", "bufferized_ir": "", "source": "", "configured": ""}
    (facts,) = remote.read_ir(python, [dispatch])
    assert "no MLIR bindings here" in facts["unreadable"]  # started twice, then the text reader judges
    final = "func.func @d0() {\n  %alloca = memref.alloca() : memref<4xf32>\n  return\n}\n"
    (finding,) = memory.check_memory([sut.DispatchIR("d0", "X", final, "", "", facts=facts)])
    assert finding.kind == "alloca"  # read from the text (oracles.ir_text), never silently empty


def test_a_runner_runtime_is_never_given_bf16():
    """A release's runner takes arrays as npz with its own numpy, which has no bfloat16: such campaigns
    draw no bf16 anywhere (a DPS form could make any value an argument). No release need be installed."""
    import dataclasses

    from ireefuzz.tools.campaign.guidance import Coverage, draw_block
    from ireefuzz.tools.campaign.options import Options

    def dtypes(options: Options) -> set[str]:
        cases = [c for block in range(3) for c in draw_block(options, block, Coverage())]
        return {t.dtype for c in cases for t in [*c.graph.args, *(n.type for n in c.graph.nodes)]}

    options = Options(seed=1, batch=16, cases=48, ops=("cast", "abs", "add"))
    assert "bf16" in dtypes(options)  # the installed runtime takes it
    on_release = dataclasses.replace(options, release="3.10.0")
    assert "bf16" not in dtypes(on_release) and "f16" in dtypes(on_release)
