"""Issue 26: bounded in time and memory, honest about its own failures -- one test per defect the hostile user
found (each fails on the code before the fix), and the clean case beside each guard.

Cheap tests run the parsers and guards directly; ``iree`` ones run the real CLI in a subprocess (so a hang or a
crash of the code under test fails the test instead of taking pytest down with it).
"""

from __future__ import annotations

import argparse
import errno
import json
import os
import subprocess
import sys
import textwrap
from pathlib import Path

import numpy as np
import pytest

from ireefuzz import cli

ENV = dict(os.environ, JAX_PLATFORMS="cpu")

# scf.while whose condition (x == x) stays true while the body adds 1: IREE runs it forever (iree-run-module too).
NEVER_ENDS = """func.func @main(%arg0: tensor<4xf32>) -> tensor<4xf32> {
  %c0 = arith.constant 0 : index
  %one = arith.constant 1.0 : f32
  %r = scf.while (%t = %arg0) : (tensor<4xf32>) -> tensor<4xf32> {
    %x = tensor.extract %t[%c0] : tensor<4xf32>
    %cond = arith.cmpf oeq, %x, %x : f32
    scf.condition(%cond) %t : tensor<4xf32>
  } do {
  ^bb0(%u: tensor<4xf32>):
    %e = tensor.empty() : tensor<4xf32>
    %n = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], \
iterator_types = ["parallel"]} ins(%u : tensor<4xf32>) outs(%e : tensor<4xf32>) {
    ^bb0(%a: f32, %o: f32):
      %s = arith.addf %a, %one : f32
      linalg.yield %s : f32
    } -> tensor<4xf32>
    scf.yield %n : tensor<4xf32>
  }
  return %r : tensor<4xf32>
}
"""

BROADCAST = """func.func @main(%arg0: tensor<4xf32>) -> tensor<65536x65536xf32> {
  %e = tensor.empty() : tensor<65536x65536xf32>
  %b = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (0)>, affine_map<(d0, d1) -> (d0, d1)>], \
iterator_types = ["parallel", "parallel"]} ins(%arg0 : tensor<4xf32>) outs(%e : tensor<65536x65536xf32>) {
  ^bb0(%a: f32, %o: f32):
    linalg.yield %a : f32
  } -> tensor<65536x65536xf32>
  return %b : tensor<65536x65536xf32>
}
"""

MATMUL = """func.func @main(%a: tensor<?x?xf32>, %b: tensor<?x?xf32>) -> tensor<?x?xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %m = tensor.dim %a, %c0 : tensor<?x?xf32>
  %n = tensor.dim %b, %c1 : tensor<?x?xf32>
  %z = arith.constant 0.0 : f32
  %e = tensor.empty(%m, %n) : tensor<?x?xf32>
  %f = linalg.fill ins(%z : f32) outs(%e : tensor<?x?xf32>) -> tensor<?x?xf32>
  %r = linalg.matmul ins(%a, %b : tensor<?x?xf32>, tensor<?x?xf32>) outs(%f : tensor<?x?xf32>) -> tensor<?x?xf32>
  return %r : tensor<?x?xf32>
}
"""

BIG_ARGS = """func.func @main(%a: tensor<65536x65536xf32>, %b: tensor<65536x65536xf32>) -> tensor<65536x65536xf32> {
  %e = tensor.empty() : tensor<65536x65536xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>, \
affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]} ins(%a, %b : tensor<65536x65536xf32>, \
tensor<65536x65536xf32>) outs(%e : tensor<65536x65536xf32>) {
  ^bb0(%x: f32, %y: f32, %o: f32):
    %s = arith.addf %x, %y : f32
    linalg.yield %s : f32
  } -> tensor<65536x65536xf32>
  return %r : tensor<65536x65536xf32>
}
"""


def ireefuzz(*argv: str, timeout: float = 300, cwd: Path | None = None) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "ireefuzz.cli", *argv],
        capture_output=True,
        text=True,
        timeout=timeout,
        env=ENV,
        cwd=cwd,
        check=False,
    )


def one_line(stderr: str) -> str:
    lines = [line for line in stderr.splitlines() if line.strip() and not line.startswith("ireefuzz check: running")]
    assert len(lines) == 1 and "Traceback" not in stderr, stderr
    return lines[0]


# --------------------------------------------------------------------------- 1. a program that never ends


@pytest.mark.iree
@pytest.mark.slow
def test_check_ends_on_a_program_that_never_ends(tmp_path):
    program = tmp_path / "never.mlir"
    program.write_text(NEVER_ENDS)
    done = ireefuzz("check", str(program), "--run-timeout", "3", timeout=240)
    assert done.returncode == 2, done.stderr  # nothing judged: not clean
    assert "did not finish in 3 s" in done.stdout


def test_a_timeout_is_a_finding_only_for_a_program_known_to_end():
    from ireefuzz import sut
    from ireefuzz.oracles import crash

    late = sut.RunFailure("timeout", "main: did not finish in 3 s")
    assert "did not finish in 3 s" in crash.not_a_finding(late, known_to_end=False)
    assert crash.not_a_finding(late, known_to_end=True) is None  # a generated graph has no loops: a hang is a bug
    finding = crash.check_run_failure(late, None, "main")
    assert finding.kind == "runtime-timeout"


# --------------------------------------------------------------------------- 2. out of memory is not an IREE bug


def test_resource_exhausted_in_the_run_is_never_an_iree_finding():
    from ireefuzz import sut
    from ireefuzz.oracles import crash

    oom = sut.RunFailure(
        "fault", "main: c/runtime/src/iree/hal/allocator.c:123: RESOURCE_EXHAUSTED; libc allocator failed"
    )
    assert "out of memory" in crash.not_a_finding(oom, known_to_end=True)
    fault = sut.RunFailure("fault", "main: INVALID_ARGUMENT; input 0 shape mismatch")
    assert crash.not_a_finding(fault, known_to_end=True) is None  # a genuine fault stays a finding


@pytest.mark.iree
@pytest.mark.parametrize(
    "program, extra",
    [(BROADCAST, ()), (MATMUL, ("--shapes", "70000x0,0x70000"))],
    ids=["broadcast-65536x65536", "empty-inputs-huge-output"],
)
def test_an_output_too_big_for_this_machine_is_refused_before_it_runs(tmp_path, program, extra):
    path = tmp_path / "big.mlir"
    path.write_text(program)
    done = ireefuzz("check", str(path), *extra)
    assert done.returncode == 2, (done.stdout, done.stderr)
    assert "memory" in one_line(done.stderr) and "finding" not in done.stdout


# --------------------------------------------------------------------------- 3. no size guard on static shapes


@pytest.mark.iree
def test_huge_static_arguments_are_refused_in_one_line(tmp_path):
    path = tmp_path / "args.mlir"
    path.write_text(BIG_ARGS)
    done = ireefuzz("check", str(path))
    assert done.returncode == 2 and "--max-memory" in one_line(done.stderr)


def test_the_budget_estimates_from_types_and_passes_small_programs():
    from ireefuzz.core import budget

    small = budget.estimate_program(MATMUL, [((33, 16), "f32"), ((16, 49), "f32")], (((None, None), "f32"),))
    assert small < 2**20  # well under any budget: a realistic program runs
    huge = budget.estimate_program(MATMUL, [((70000, 0), "f32"), ((0, 70000), "f32")], (((None, None), "f32"),))
    assert huge > 70000 * 70000 * 4  # the output's 4.9e9 elements count, though the inputs are empty
    with pytest.raises(budget.OverBudget, match="--max-memory"):
        budget.check(huge, 8 * 2**30, "@main")


def test_repro_refuses_a_finding_too_big_to_run(tmp_path):
    from ireefuzz.generators.case import Case
    from ireefuzz.generators.graph import Graph, Node, TensorType
    from ireefuzz.oracles.finding import Finding

    n = 65536
    graph = Graph(
        args=(TensorType((n, n), "f32"), TensorType((n, n), "f32")),
        nodes=(
            Node("fill", (), {"shape": [n, n], "dtype": "f32", "value": 0.0}, TensorType((n, n), "f32")),
            Node("matmul", ("a0", "a1", "n0"), {}, TensorType((n, n), "f32")),
        ),
        outputs=("n1",),
    ).check()
    finding = Finding(
        "crash",
        "runtime-fault",
        "crash/runtime-fault/fill>matmul/f32/SxS",
        "x",
        {},
        Case(graph, ({},), seed=0).to_json(),
    )
    (tmp_path / "findings.jsonl").write_text(finding.dumps().replace("\n", " ") + "\n")
    done = ireefuzz(
        "repro", str(tmp_path / "findings.jsonl"), "--line", "1", "--out", str(tmp_path / "b"), "--no-shrink"
    )
    assert done.returncode == 2 and "memory" in done.stderr and "Traceback" not in done.stderr, done.stderr


# --------------------------------------------------------------------------- 4. exit codes CI can read


def test_an_unexpected_exception_is_exit_2_one_line_and_a_log(monkeypatch, tmp_path, capsys):
    from ireefuzz.tools.campaign import diff

    def broken(args: argparse.Namespace) -> int:
        raise KeyError("a bug of ours")

    monkeypatch.setattr(diff, "main", broken)
    monkeypatch.setenv(cli.LOG_DIR_ENV, str(tmp_path))
    assert cli.main(["diff", str(tmp_path), str(tmp_path)]) == 2
    err = capsys.readouterr().err
    assert len(err.strip().splitlines()) == 1 and "internal error" in err and "KeyError" in err
    [log] = tmp_path.glob("ireefuzz-diff-*.log")
    assert "Traceback" in log.read_text() and "a bug of ours" in log.read_text()


def test_a_full_disk_is_one_line_and_exit_2(monkeypatch, capsys):
    from ireefuzz.tools.campaign import diff

    def full(args: argparse.Namespace) -> int:
        raise OSError(errno.ENOSPC, "No space left on device", "progress.jsonl")

    monkeypatch.setattr(diff, "main", full)
    assert cli.main(["diff", ".", "."]) == 2
    assert "no space left" in capsys.readouterr().err


def test_a_line_cut_by_a_full_disk_leaves_the_log_at_its_last_whole_line(monkeypatch, tmp_path):
    from ireefuzz.base import durable

    log = tmp_path / "progress.jsonl"
    durable.append_line(log, json.dumps({"i": 0}))
    real_write = os.write

    def disk_fills(fd: int, data: bytes) -> int:
        real_write(fd, data[: len(data) // 2])  # half the line lands, then the disk is full
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(durable.os, "write", disk_fills)
    with pytest.raises(OSError):
        durable.append_line(log, json.dumps({"i": 1, "pad": "x" * 100}))
    assert log.read_text() == '{"i": 0}\n'


# --------------------------------------------------------------------------- 6. a stuck worker


WATCHDOG_DRIVER = textwrap.dedent("""
    import sys, time
    from ireefuzz import sut
    from ireefuzz.core.evaluate import Policy
    from ireefuzz.generators.case import Case
    from ireefuzz.generators.graph import Graph, Node, TensorType
    from ireefuzz.tools.campaign.local_pool import LocalPool
    from ireefuzz.tools.campaign.pool import Died, EvalSpec, Task

    g = Graph((TensorType((4,), "f32"),), (Node("exp", ("a0",), {}, TensorType((4,), "f32")),), ("n0",)).check()
    spec = EvalSpec(sut.CompilerConfig(), Policy(), 2.0)  # a stall of 4 s; a deadline of 2 * (8 + 2) = 20 s
    pool = LocalPool(1, spec)
    task = Task(tuple(range(8)), tuple(Case(g, ({},), seed=i) for i in range(8)))
    pool.submit(task)
    events = []
    while not events:
        events = pool.poll(1.0)
    pool.close()
    [event] = events
    print(type(event).__name__, event.kind, getattr(event, "stuck", None), getattr(event, "seconds", 0) > 0, \
event.detail)
""")


@pytest.mark.slow
def test_a_stopped_worker_is_killed_as_stuck_long_before_its_deadline():
    env = dict(ENV, IREEFUZZ_TEST_FAULT="0:stop")
    done = subprocess.run(
        [sys.executable, "-c", WATCHDOG_DRIVER], capture_output=True, text=True, timeout=120, check=False, env=env
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.split()[:4] == ["Died", "worker-timeout", "True", "True"], done.stdout  # its seconds: "stuck"
    assert "no progress" in done.stdout
    from ireefuzz.tools.campaign.record import ACTIVITIES

    assert "stuck" in ACTIVITIES  # the time accounting names them


def test_a_stuck_workers_batch_is_retried_case_by_case():
    from ireefuzz.tools.campaign.loop import Planner
    from ireefuzz.tools.campaign.pool import Task

    planner = Planner.__new__(Planner)  # only the queue matters here
    import collections

    planner.queue = collections.deque()
    planner.retry(Task((3, 4, 5, 6), ("c3", "c4", "c5", "c6")), each=True)  # type: ignore[arg-type]
    assert [t.indices for t in planner.queue] == [(3,), (4,), (5,), (6,)]
    planner.queue.clear()
    planner.retry(Task((3, 4, 5, 6), ("c3", "c4", "c5", "c6")))  # type: ignore[arg-type]
    assert [t.indices for t in planner.queue] == [(3, 4), (5, 6)]  # a dead (not stuck) worker's: halves


# --------------------------------------------------------------------------- 7. numeric options validated


@pytest.mark.parametrize("value", ["0", "-3", "two"])
def test_repro_confirm_runs_must_be_at_least_one(value, capsys):
    with pytest.raises(SystemExit) as e:
        cli.build_parser().parse_args(["repro", "f.json", "--out", "o", "--confirm-runs", value])
    assert e.value.code == 2 and "--confirm-runs" in capsys.readouterr().err


def test_repro_confirm_runs_takes_a_positive_count():
    args = cli.build_parser().parse_args(["repro", "f.json", "--out", "o", "--confirm-runs", "1"])
    assert args.confirm_runs == 1


# --------------------------------------------------------------------------- 8. hostile nesting


def test_a_deeply_nested_program_is_one_line_not_a_segfault(tmp_path):
    deep = 20000
    path = tmp_path / "deep.mlir"
    path.write_text(
        "func.func @main(%arg0: tensor<4xf32>) -> tensor<4xf32> attributes {x = "
        + "[" * deep
        + "1"
        + "]" * deep
        + "} {\n  return %arg0 : tensor<4xf32>\n}\n"
    )
    done = ireefuzz("check", str(path))
    assert done.returncode == 2 and "nested" in one_line(done.stderr), (done.returncode, done.stderr[-500:])


def test_ordinary_nesting_passes_the_depth_guard():
    from ireefuzz.base.mlir_text import nesting_depth, too_deep

    assert too_deep(BROADCAST) is None and too_deep(NEVER_ENDS) is None
    assert nesting_depth('"((((("  -> (f32)') == 1  # brackets in strings and arrows do not count
    assert too_deep("[" * 1001 + "]" * 1001) is not None


# --------------------------------------------------------------------------- the plugin


@pytest.mark.iree
@pytest.mark.slow
def test_the_plugin_session_finishes_on_a_never_ending_and_a_hostile_mlir(tmp_path):
    (tmp_path / "never.mlir").write_text(NEVER_ENDS)
    (tmp_path / "never.inputs.json").write_text(json.dumps({"seed": 0, "functions": {"main": {}}}))
    (tmp_path / "deep.mlir").write_text(
        "func.func @main(%a: tensor<4xf32>) -> tensor<4xf32> attributes {x = "
        + "[" * 20000
        + "1"
        + "]" * 20000
        + "} {\n  return %a : tensor<4xf32>\n}\n"
    )
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "pytest",
            "--ireefuzz-mlir",
            "--ireefuzz-run-timeout",
            "3",
            "-q",
            "-rw",
            "-p",
            "no:cacheprovider",
            str(tmp_path),
        ],
        capture_output=True,
        text=True,
        timeout=300,
        env=ENV,
        cwd=tmp_path,
        check=False,
    )
    out = done.stdout
    assert "did not finish in 3 s" in out, out[-3000:]  # the never-ending item: not judged (a warning)
    assert "1 failed, 1 passed" in out and "nested" in out, out[-3000:]  # the hostile one: one failed item


def test_the_reference_interpreter_stops_at_its_time_limit():
    from ireefuzz.errors import NotInterpretable
    from ireefuzz.oracles import interpret

    x = np.arange(4, dtype=np.float32)
    with pytest.raises(NotInterpretable, match="did not finish in 0.5 s"):
        interpret.interpret_traced(NEVER_ENDS, "main", [x], time_limit_s=0.5)
    from tests.programs import ADD

    done = interpret.interpret_traced(ADD, "add", [np.ones((8, 4), np.float32)] * 2, time_limit_s=30)
    assert np.array_equal(done.outputs[0], np.full((8, 4), 2.0))  # a program that ends is judged as before


def test_inputs_whose_shapes_disagree_are_not_judged():
    from ireefuzz.errors import NotInterpretable
    from ireefuzz.oracles import interpret

    with pytest.raises(NotInterpretable, match="operand shapes disagree.*undefined behaviour"):
        interpret.interpret_traced(MATMUL, "main", [np.ones((3, 4), np.float32), np.ones((7, 5), np.float32)])
    agree = interpret.interpret_traced(MATMUL, "main", [np.ones((3, 4), np.float32), np.ones((4, 5), np.float32)])
    assert np.array_equal(agree.outputs[0], np.full((3, 5), 4.0))


@pytest.mark.iree
def test_check_rejects_inputs_whose_shapes_disagree(tmp_path):
    (tmp_path / "mm.mlir").write_text(MATMUL)
    np.savez(tmp_path / "in.npz", arg0=np.ones((3, 4), np.float32), arg1=np.ones((7, 5), np.float32))
    done = ireefuzz("check", str(tmp_path / "mm.mlir"), "--inputs", str(tmp_path / "in.npz"))
    assert done.returncode == 2 and "do not fit together" in one_line(done.stderr), done.stderr


# --------------------------------------------------------------------------- 5. promote reads only the bundle


def _bundle(root: Path, case: dict, program: str | None = None) -> Path:
    root.mkdir(parents=True)
    (root / "case.json").write_text(json.dumps(case))
    (root / "finding.json").write_text(
        json.dumps(
            {
                "oracle": "crash",
                "kind": "compile-error",
                "message": "m",
                "signature": "crash/compile-error/add/f32/S",
                "evidence": {},
            }
        )
    )
    if program is not None:
        (root / "program.mlir").write_text(program)
    return root


RAW_CASE = {"mlir": "program.mlir", "functions": ["add"], "seed": 0, "target_cpu": "host", "flags": []}


@pytest.mark.parametrize("how", ["absolute", "relative", "symlink", "not-mlir"])
def test_promote_never_copies_a_file_from_outside_the_bundle(tmp_path, capsys, how):
    secret = tmp_path / "secret.txt"
    secret.write_text("root:x:0:0:root:/root:/bin/bash\n")
    from tests.programs import ADD

    if how == "absolute":
        bundle = _bundle(tmp_path / "b", dict(RAW_CASE, mlir=str(secret)))
    elif how == "relative":
        bundle = _bundle(tmp_path / "b", dict(RAW_CASE, mlir="../secret.txt"), ADD)
    elif how == "symlink":
        bundle = _bundle(tmp_path / "b", RAW_CASE)
        (bundle / "program.mlir").symlink_to(secret)
    else:
        bundle = _bundle(tmp_path / "b", RAW_CASE, secret.read_text())
    assert cli.main(["promote", str(bundle), "--corpus", str(tmp_path / "corpus")]) == 2
    assert "root:x" not in "".join(p.read_text() for p in tmp_path.glob("corpus/**/*") if p.is_file())
    assert len(capsys.readouterr().err.strip().splitlines()) == 1


def test_promote_takes_a_bundles_own_mlir_program(tmp_path):
    from tests.programs import ADD

    bundle = _bundle(tmp_path / "good-bundle", RAW_CASE, ADD)
    assert cli.main(["promote", str(bundle), "--corpus", str(tmp_path / "corpus")]) == 0
    assert (tmp_path / "corpus/regressions/good-bundle/program.mlir").read_text() == ADD


def test_promote_blames_the_folder_name_not_name(tmp_path, capsys):
    from tests.programs import ADD

    bundle = _bundle(tmp_path / "-bad name", RAW_CASE, ADD)
    assert cli.main(["promote", str(bundle), "--corpus", str(tmp_path / "corpus")]) == 2
    err = capsys.readouterr().err
    assert "folder" in err and "pass --name" in err


# --------------------------------------------------------------------------- 3b. the interpreter's footprint


def _chain(n: int, ops: int) -> str:
    t = f"tensor<{n}xf32>"
    body, prev = [f"func.func @main(%a: {t}) -> {t} {{", f"  %e = tensor.empty() : {t}"], "%a"
    for i in range(ops):
        body.append(f"""  %v{i} = linalg.generic {{indexing_maps = [affine_map<(i) -> (i)>, affine_map<(i) -> (i)>],
      iterator_types = ["parallel"]}} ins({prev} : {t}) outs(%e : {t}) {{
  ^bb0(%x: f32, %o: f32):
    %y = arith.negf %x : f32
    linalg.yield %y : f32
  }} -> {t}""")
        prev = f"%v{i}"
    return "\n".join(body + [f"  return {prev} : {t}", "}"]) + "\n"


def test_the_interpreter_frees_intermediates_once_dead(monkeypatch):
    from ireefuzz.oracles import interpret
    from ireefuzz.oracles.interpret import core

    held: list[int] = []
    real = core.Interpreter.run_ops

    def counting(self, steps):
        out = real(self, steps)
        held.append(len(self.env))
        return out

    monkeypatch.setattr(core.Interpreter, "run_ops", counting)
    run = interpret.interpret_traced(_chain(8, 24), "main", [np.arange(8, dtype=np.float32)])
    assert np.array_equal(run.outputs[0], np.arange(8))  # 24 negations: the input again
    assert max(held) < 8  # a chain of 24 values holds a few at a time, not all of them


def test_split_top_level_splits_at_commas_outside_brackets_only():
    from ireefuzz.base.mlir_text import split_top_level

    assert split_top_level("tensor<4xf32, #enc>, f32, affine_map<(d0, d1) -> (d0)>") == [
        "tensor<4xf32, #enc>",
        "f32",
        "affine_map<(d0, d1) -> (d0)>",
    ]
    assert split_top_level("-d0 + 63, d1 ") == ["-d0 + 63", "d1"] and split_top_level("") == []
