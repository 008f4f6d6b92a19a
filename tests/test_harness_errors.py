"""Issue 24: a campaign never dies of one batch, and the two harness crashes seen on older releases, at their cause.

- a dispatch dump reading a global it does not contain (``memref.get_global`` of a hoisted constant) parses;
- a module whose runner another thread's call restarted is loaded again, never called by a stale id;
- an exception injected into one batch of a real campaign is one harness error: the rest are judged.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

try:
    from ireefuzz.base import durable as _io
except ImportError:  # the layout before 2026-12 (these tests are also run against that code, where they fail)
    from ireefuzz import _io

FAULT_ENV = "IREEFUZZ_TEST_FAULT"  # campaign.pool.FAULT_ENV

GLOBAL_READ = """func.func @main_dispatch_0_generic_13x48_f16() {
  %0 = memref.get_global @__constant_13x48xf16 : memref<13x48xf16>
  %1 = memref.alloca() : memref<13x48xf16>
  memref.copy %0, %1 : memref<13x48xf16> to memref<13x48xf16>
  return
}"""


def test_a_dispatch_reading_a_global_it_does_not_contain_is_read():
    from ireefuzz.oracles import ir, memory

    ir.parse_ir(GLOBAL_READ)  # raised IRParseError: "does not reference a valid global memref"
    assert [m.kind for m in memory.scan(GLOBAL_READ)] == ["alloca", "copy"]
    ir.parse_ir("module {\n" + GLOBAL_READ + "\n}")  # inside a module: declared in the module's symbol table


def test_a_global_the_dump_defines_is_not_declared_twice():
    from ireefuzz.oracles import ir

    defined = (
        'module {\nmemref.global "private" constant @__constant_13x48xf16 : memref<13x48xf16> = dense<0.0>\n'
        + GLOBAL_READ
        + "\n}"
    )
    ir.parse_ir(defined)


@pytest.mark.iree
def test_a_module_whose_runner_another_thread_restarted_is_loaded_again(monkeypatch):
    """``check_relation`` observes variants on threads sharing one release runner: a call that finds the runner
    restarted by another thread's dying call used to send its module id to the new runner (KeyError "no loaded
    module 1", or another module's id)."""
    import iree.compiler

    from ireefuzz import sut

    try:
        from ireefuzz.sut import remote
    except ImportError:
        from ireefuzz import remote

    vmfb = iree.compiler.compile_str(
        "func.func @main(%x: tensor<4xf32>) -> tensor<4xf32> {\n"
        "  %y = arith.addf %x, %x : tensor<4xf32>\n  return %y : tensor<4xf32>\n}",
        target_backends=["llvm-cpu"],
        extra_args=["--iree-llvmcpu-target-cpu=generic"],
    )
    python = sys.executable
    runner = remote.RunnerProcess(python)
    monkeypatch.setattr(remote, "runner_for", lambda p, script=remote.RUNNER: runner)
    module = sut.RemoteModule(vmfb, python)
    original = remote.RunnerProcess.request
    fired = []

    def other_thread_kills_it_first(self, entries, *args, **kwargs):
        if str(entries.get("op")) == "call" and not fired:  # between our generation check and our request ...
            fired.append(True)
            self._proc.kill()
            self._proc.wait()
            with pytest.raises(remote.RunnerDied):  # ... another thread's request found the runner dead
                original(self, {"op": "hello"})
        return original(self, entries, *args, **kwargs)

    monkeypatch.setattr(remote.RunnerProcess, "request", other_thread_kills_it_first)
    try:
        result = module.call("main", [np.arange(4, dtype=np.float32)])
        assert fired
        assert isinstance(result, sut.RunResult), result
        assert np.array_equal(result.outputs[0], 2 * np.arange(4, dtype=np.float32))
    finally:
        runner.close()


DRIVER = "import sys; from ireefuzz import cli; sys.exit(cli.main(['fuzz'] + sys.argv[1:]))"


@pytest.mark.iree
def test_an_exception_in_one_batch_is_a_harness_error_and_the_rest_are_judged(tmp_path):
    out = tmp_path / "run"
    env = dict(os.environ, **{FAULT_ENV: "2:raise"})
    proc = subprocess.run(
        [
            sys.executable,
            "-c",
            DRIVER,
            "--out",
            str(out),
            "--workers",
            "2",
            "--bundles",
            "0",
            "--cases",
            "8",
            "--batch",
            "4",
            "--oracles",
            "crash,numeric",
            "--ops",
            "elementwise,producer",
        ],
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert proc.returncode == 2, proc.stderr  # no new cause, but harness errors: exit 2 (1 stays "a new cause")
    assert "1 harness error" in proc.stderr
    entries = {e["i"]: e for row in _io.read_jsonl(out / "progress.jsonl") for e in row["cases"]}
    assert sorted(entries) == list(range(8))  # every case counted, once
    assert entries[2].get("harness_error") == 1 and entries[2]["not_judged"] == ["harness error"]
    judged = [i for i, e in entries.items() if i != 2]
    assert all("harness error" not in entries[i]["not_judged"] and not entries[i].get("harness_error") for i in judged)
    [error] = _io.read_jsonl(out / "harness_errors.jsonl")
    assert error["case_index"] == 2 and "injected failure on case 2" in error["traceback"]
    assert error["release"] and error["configuration"] and error["ops"]
    from ireefuzz.generators.case import Case
    from ireefuzz.tools.campaign.guidance import case_hash

    assert case_hash(Case.from_json(error["case"])) == error["case_hash"]  # the case itself, to run again
    summary = json.loads((out / "summary.json").read_text())
    assert summary["cases"] == 8 and summary["harness_errors"] == 1 and summary["worker_deaths"] == 0
    assert summary["not_judged_share"]["crash"] == pytest.approx(1 / 8)
    md = (out / "summary.md").read_text()
    assert md.index("Harness errors") < md.index("- cases:")  # at the top
    assert "Harness errors" in (out / "report.html").read_text()


DYING_RUNTIME = """
import os, sys
sys.path.insert(0, {folder!r})
import numpy as np
import runner  # the protocol's framing

replies = os.fdopen(os.dup(1), "wb")
while (request := runner.read_message(sys.stdin.buffer)) is not None:
    if str(request["op"]) == "load":
        runner.write_message(replies, {{"status": "ok", "id": 1, "functions": np.array(["main"])}})
    else:  # a runtime that dies running the module: exit status 1, no signal
        sys.stderr.write("fatal: the runtime gave up\\n")
        os._exit(1)
"""


def test_a_runtime_that_dies_costs_the_call_and_its_successor_is_already_started(tmp_path, monkeypatch):
    """A module run that kills the runtime is a crash of that call (also when the runtime exits with a status
    rather than a signal: that used to raise in the worker, a harness error), and the next runner is started
    as soon as one dies, so the next case does not wait for its start-up."""
    from ireefuzz import sut

    try:
        from ireefuzz.sut import remote
    except ImportError:
        from ireefuzz import remote

    script = tmp_path / "dying_runtime.py"
    script.write_text(DYING_RUNTIME.format(folder=str(Path(remote.RUNNER).parent)))
    runner = remote.RunnerProcess(sys.executable, script)
    monkeypatch.setattr(remote, "runner_for", lambda python, s=remote.RUNNER: runner)
    try:
        module = sut.RemoteModule(b"not a module", sys.executable)
        first = module.call("main", [np.zeros(2, np.float32)])
        assert isinstance(first, sut.RunFailure) and first.kind == "crash", first
        assert "the runtime gave up" in first.message
        spare = runner._spare
        assert spare is not None and spare[0].poll() is None  # the successor is already running
        second = module.call("main", [np.zeros(2, np.float32)])  # loaded again into the successor, dies again
        assert isinstance(second, sut.RunFailure) and second.kind == "crash"
        assert runner.generation == 2
    finally:
        runner.close()
