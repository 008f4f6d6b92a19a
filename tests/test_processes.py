"""Processes and time (issue 14, sections 3 and 6), shown with fake compilers: a compile's process group
dies with its caller, workers die with the coordinator (even on kill -9), --time is a bound plus a stated
grace, a hang is crash/compile-timeout and an exhausted memory crash/compile-oom, one campaign per --out.

A fake compiler is a Python script at ``tmp_path/iree-compile`` whose behaviour is read from a file beside
it (so a test can change it between runs of one campaign); the tiny probe program (``@probe``) goes to the
real iree-compile, or fails fast with ``probe="fail"``. Every process the fake starts carries ``tmp_path``
in its command line, and every process of a campaign under test a token in its environment: a leftover
is found by scanning /proc.
"""

from __future__ import annotations

import json
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import pytest

from ireefuzz import sut
from ireefuzz.errors import UsageError

FAKE = """#!{python} -IS
import os, sys, time
args = sys.argv[1:]
source = args[0] if args and not args[0].startswith("-") else ""
text = open(source).read() if source and os.path.isfile(source) else ""
if not source or "@probe(" in text:
    if {probe!r} == "real":
        os.execv({real!r}, [{real!r}] + args)
    sys.exit(1)
with open({count!r}, "a") as f:
    f.write("x")
mode = open({mode!r}).read().strip()
if mode == "hang" or mode == "hang-batch" and text.count("func.func @") > 1:
    time.sleep(3600)
if mode == "fail-exps":  # an error at the line of every exp, else the real compiler
    if "math.exp" not in text:
        os.execv({real!r}, [{real!r}] + args)
    lines = [text[:i].count(chr(10)) + 1 for i in range(len(text)) if text.startswith("math.exp", i)]
    sys.stderr.write("".join(source + ":" + str(line) + ":5: error: fake failure\\n" for line in lines))
    sys.exit(1)
if mode == "memory":
    hoard = []
    while True:
        hoard.append(bytearray(1 << 26))
if mode == "bad_alloc":
    sys.stderr.write("terminate called after throwing an instance of 'std::bad_alloc'\\n  what():  std::bad_alloc\\n")
    sys.stderr.flush()
    os.abort()
if mode == "sigkill":
    os.kill(os.getpid(), 9)
sys.stderr.write(source + ":1:1: error: fake failure\\n")
sys.exit(1)
"""


class Fake:
    def __init__(self, root: Path, mode: str, probe: str = "fail") -> None:
        root.mkdir(parents=True, exist_ok=True)
        self.root, self.path, self.mode_file, self.count_file = (
            root,
            root / "iree-compile",
            root / "mode",
            root / "count",
        )
        real = sut.find_iree_compile(sut.CompilerConfig()) if probe == "real" else ""
        self.path.write_text(
            FAKE.format(
                python=sys.executable, probe=probe, real=real, count=str(self.count_file), mode=str(self.mode_file)
            )
        )
        self.path.chmod(0o755)
        self.set(mode)

    def set(self, mode: str) -> None:
        self.mode_file.write_text(mode)

    def compiles(self) -> int:
        return len(self.count_file.read_text()) if self.count_file.exists() else 0

    def processes(self) -> list[int]:
        """Live compiles by this fake: the fake itself or its launcher (a campaign's own command line names it too)."""

        def compiling(pid: str) -> bool:
            argv = Path(f"/proc/{pid}/cmdline").read_bytes().split(b"\0")
            return str(self.path).encode() in argv and any(a.endswith(b"input.mlir") for a in argv)

        return processes_with(compiling)


def processes_with(test) -> list[int]:
    found = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit() and int(entry.name) != os.getpid():
            try:
                if test(entry.name) and "Z" not in (entry / "stat").read_text().rsplit(")", 1)[1].split()[:1]:
                    found.append(int(entry.name))
            except (OSError, IndexError):
                continue
    return found


def carrying(token: str) -> list[int]:
    """Live processes whose environment holds ``token``."""
    return processes_with(lambda pid: token.encode() in Path(f"/proc/{pid}/environ").read_bytes())


def wait_for(condition, timeout: float, step: float = 0.1):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        value = condition()
        if value:
            return value
        time.sleep(step)
    return condition()


def unary_case(op: str):
    from ireefuzz.generators.case import Case
    from ireefuzz.generators.graph import Graph, Node, TensorType

    t = TensorType((4,), "f32")
    return Case(Graph((t,), (Node(op, ("a0",), {}, t),), ("n0",)).check(), ({},))


def exp_case():
    return unary_case("exp")


pytestmark = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="scans /proc")


# --------------------------------------------------------------------------- one compile


@pytest.mark.parametrize("mode", ["memory", "bad_alloc", "sigkill"])
def test_a_compiler_out_of_memory_is_signed_compile_oom(tmp_path, mode):
    from ireefuzz.oracles.crash import check_compile_failure

    fake = Fake(tmp_path, mode)
    failure = sut.compile_mlir("", sut.CompilerConfig(iree_compile=str(fake.path), memory_limit_mb=512, observe=False))
    assert isinstance(failure, sut.CompileFailure) and failure.kind == "oom", failure
    signature = check_compile_failure(failure, "").signature
    assert signature.startswith("crash/compile-oom/") and "traceback" not in signature, signature


def test_a_compile_error_stays_a_compile_error(tmp_path):
    failure = sut.compile_mlir("", sut.CompilerConfig(iree_compile=str(Fake(tmp_path, "error").path), observe=False))
    assert isinstance(failure, sut.CompileFailure) and failure.kind == "error", failure


def test_a_hanging_batch_is_compiled_case_by_case_and_given_up_after_two_hang_alone(tmp_path):
    """A batch that hangs is compiled again case by case (not halved: 2n - 1 timeouts). Each case that hangs alone is a
    compile-timeout; after two, the configuration is the likely cause and the rest are not compiled but counted as
    not judged, so one slow configuration costs a worker 3 timeouts, not n + 1 (the worker's deadline holds either
    way)."""
    from ireefuzz.core.evaluate import NOT_COMPILED, Policy, evaluate
    from ireefuzz.tools.campaign.pool import EvalSpec, Task

    fake = Fake(tmp_path, "hang")
    config = sut.CompilerConfig(iree_compile=str(fake.path), timeout_s=0.5, observe=False)
    results = evaluate([exp_case()] * 5, config, Policy(frozenset({"crash"})))
    assert [[f.signature.split("/")[:2] for f in r.findings] for r in results] == [
        [["crash", "compile-timeout"]]
    ] * 2 + [[]] * 3
    assert [r.not_judged for r in results] == [()] * 2 + [(NOT_COMPILED.format(n=2),)] * 3
    assert fake.compiles() == 1 + 2
    task = Task((0, 1, 2), (exp_case(),) * 3)
    assert EvalSpec(config, Policy(), 0.5).deadline(task) > (2 + 1) * 0.5
    assert not fake.processes()


def test_a_batch_that_hangs_while_its_cases_alone_do_not_gives_each_case_its_own_verdict(tmp_path):
    from ireefuzz.core.evaluate import Policy, evaluate

    fake = Fake(tmp_path, "hang-batch")  # a batch hangs; each case alone fails at once
    config = sut.CompilerConfig(iree_compile=str(fake.path), timeout_s=1.0, observe=False)
    results = evaluate([exp_case()] * 4, config, Policy(frozenset({"crash"})))
    assert [[f.signature.split("/")[1] for f in r.findings] for r in results] == [["compile-error"]] * 4
    assert [r.not_judged for r in results] == [()] * 4 and fake.compiles() == 1 + 4
    assert not fake.processes()


@pytest.mark.iree
def test_a_failing_batch_is_split_at_the_function_its_error_points_to(tmp_path):
    """The error names a line of @g3: g3 alone and the other seven, 3 compiles; halving down to it took 7."""
    from ireefuzz.core.evaluate import Policy, evaluate

    fake = Fake(tmp_path, "fail-exps", probe="real")
    config = sut.CompilerConfig(iree_compile=str(fake.path), observe=False)
    cases = [unary_case("abs") for _ in range(3)] + [exp_case()] + [unary_case("negate") for _ in range(4)]
    results = evaluate(cases, config, Policy(frozenset({"crash"})))
    assert [bool(r.findings) for r in results] == [False] * 3 + [True] + [False] * 4
    assert results[3].findings[0].signature.startswith("crash/compile-error/")
    assert fake.compiles() == 3


@pytest.mark.iree
def test_a_batch_whose_errors_point_at_two_functions_compiles_each_alone_then_the_rest(tmp_path):
    """Errors at lines of @g1 and @g5: each alone and the other six, 4 compiles; halving took 9."""
    from ireefuzz.core.evaluate import Policy, evaluate

    fake = Fake(tmp_path, "fail-exps", probe="real")
    config = sut.CompilerConfig(iree_compile=str(fake.path), observe=False)
    cases = (
        [unary_case("abs"), exp_case()]
        + [unary_case("negate") for _ in range(3)]
        + [exp_case()]
        + [unary_case("abs")] * 2
    )
    results = evaluate(cases, config, Policy(frozenset({"crash"})))
    assert [bool(r.findings) for r in results] == [False, True, False, False, False, True, False, False]
    assert fake.compiles() == 4


def test_a_killed_caller_leaves_no_compiler_and_no_folder(tmp_path, monkeypatch):
    """A worker killed past its deadline (the pool's SIGKILL) takes its compile's process group with it; its
    scratch folder goes with the compile's launcher, or else with the pool's sweep of the dead worker's folders."""
    fake = Fake(tmp_path / "fake", "hang")
    scratch = tmp_path / "tmp"
    scratch.mkdir()
    code = (
        "import os; from ireefuzz import sut; "
        "sut.compile_mlir('', sut.CompilerConfig(iree_compile=os.environ['FAKE'], timeout_s=600, observe=False))"
    )
    caller = subprocess.Popen(
        [sys.executable, "-c", code], env=dict(os.environ, TMPDIR=str(scratch), FAKE=str(fake.path))
    )
    try:
        assert wait_for(fake.compiles, 60) and wait_for(fake.processes, 10), "the fake compiler never started"
        assert list(scratch.glob(f"ireefuzz-pid{caller.pid}-*"))
    finally:
        caller.kill()
        caller.wait()
    assert wait_for(lambda: not fake.processes(), 10), f"orphans: {fake.processes()}"
    monkeypatch.setattr("tempfile.tempdir", str(scratch))
    sut.remove_temp_dirs([caller.pid])  # what LocalPool does for a worker it killed
    assert not list(scratch.glob("ireefuzz-*")), list(scratch.iterdir())


def test_the_folders_of_dead_processes_are_swept(tmp_path, monkeypatch):
    monkeypatch.setattr("tempfile.tempdir", str(tmp_path))
    gone = subprocess.Popen(["true"])
    gone.wait()
    dead, live = tmp_path / f"ireefuzz-pid{gone.pid}-abc", tmp_path / f"ireefuzz-pid{os.getpid()}-def"
    dead_passes, other = tmp_path / f"ireefuzz-passes-pid{gone.pid}-x", tmp_path / "ireefuzz-bundle-xyz"
    for folder in (dead, live, dead_passes, other):
        folder.mkdir()
    assert sut.remove_temp_dirs([os.getpid()]) == 0  # a live process' folder is never removed
    assert sut.remove_temp_dirs() == 2
    assert sorted(p.name for p in tmp_path.iterdir()) == sorted([live.name, other.name])


# --------------------------------------------------------------------------- the lock on --out


def test_a_worker_whose_coordinator_dies_removes_the_folders_no_launcher_covers(tmp_path):
    """A folder made for a compile not yet started (or being read back) has no launcher to remove it: the worker's
    watchdog removes its own folders before it kills the worker, and no folder is made after that."""
    scratch = tmp_path / "tmp"
    scratch.mkdir()
    coordinator = subprocess.Popen(["sleep", "600"])
    code = (
        "import sys, time; from ireefuzz import sut; from ireefuzz.sut.launch import die_with\n"
        "held = sut.temp_dir()\n"
        "die_with(int(sys.argv[1]), before=sut.remove_own_temp_dirs_for_good)\n"
        "print('ready', flush=True); time.sleep(600)"
    )
    worker = subprocess.Popen(
        [sys.executable, "-c", code, str(coordinator.pid)],
        stdout=subprocess.PIPE,
        text=True,
        env=dict(os.environ, TMPDIR=str(scratch)),
    )
    try:
        assert worker.stdout.readline().strip() == "ready"
        assert list(scratch.glob(f"ireefuzz-pid{worker.pid}-*"))
        coordinator.kill()
        coordinator.wait()
        assert worker.wait(timeout=30) == -signal.SIGKILL
    finally:
        worker.kill()
        coordinator.kill()
    assert not list(scratch.iterdir())


def test_one_holder_of_an_output_directory(tmp_path):
    from ireefuzz.tools.campaign import lock

    out = tmp_path / "run"
    with lock.held(out):
        with pytest.raises(UsageError, match=rf"in use by a running campaign \(pid {os.getpid()}\)"):
            with lock.held(out):
                pass
    with lock.held(out):  # released with its holder
        pass
    holder = subprocess.Popen(
        [
            sys.executable,
            "-c",
            "import sys, time; from pathlib import Path; "
            "from ireefuzz.tools.campaign import lock\nwith lock.held(Path(sys.argv[1])):\n"
            " print('held', flush=True); time.sleep(600)",
            str(out),
        ],
        stdout=subprocess.PIPE,
        text=True,
    )
    assert holder.stdout.readline().strip() == "held"
    with pytest.raises(UsageError, match=f"pid {holder.pid}"):
        with lock.held(out):
            pass
    holder.kill()  # a dead holder's lock blocks nobody, though its file stays
    holder.wait()
    with lock.held(out):
        pass
    (tmp_path / "file").write_text("")
    with pytest.raises(UsageError, match="cannot use it"):
        with lock.held(tmp_path / "file"):
            pass


# --------------------------------------------------------------------------- campaigns


DRIVER = "import sys; from ireefuzz import cli; sys.exit(cli.main(['fuzz'] + sys.argv[1:]))"


def fuzz(out: Path, fake: Fake, token: str, *argv: str, scratch: Path | None = None) -> subprocess.Popen:
    env = dict(os.environ, IREEFUZZ_TEST_TOKEN=token, JAX_PLATFORMS="cpu")
    if scratch is not None:
        env["TMPDIR"] = str(scratch)
    command = [
        sys.executable,
        "-c",
        DRIVER,
        "--out",
        str(out),
        "--bundles",
        "0",
        "--oracles",
        "crash",
        "--iree-compile",
        str(fake.path),
        *argv,
    ]
    return subprocess.Popen(command, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)


@pytest.fixture
def scratch():
    """A short TMPDIR for a campaign (multiprocessing's forkserver socket lives there: AF_UNIX paths are short)."""
    path = Path(tempfile.mkdtemp(prefix="ifz-", dir="/tmp"))
    yield path
    shutil.rmtree(path, ignore_errors=True)


@pytest.mark.slow
def test_time_bounds_a_campaign_whose_compiler_hangs(tmp_path, scratch):
    fake, token = Fake(tmp_path / "fake", "hang", probe="real"), f"time-{tmp_path.name}"
    started = time.monotonic()
    proc = fuzz(
        tmp_path / "run",
        fake,
        token,
        "--time",
        "15",
        "--case-timeout",
        "3",
        "--batch",
        "8",
        "--workers",
        "1",
        scratch=scratch,
    )
    _, stderr = proc.communicate(timeout=600)
    wall = time.monotonic() - started
    # exit 1 when the first batch's hang was pinned (2 of its cases timed out alone) before the time was up
    assert proc.returncode in (0, 1), stderr
    if proc.returncode == 1:
        new = json.loads((tmp_path / "run" / "summary.json").read_text())["new_causes"]
        assert new and all("compile-timeout" in str(c) for c in new), new
    # --time, its grace, and a generous start-up and ending; before, the batch's deadline (27 s) and its halves
    # retried after the time was up made it minutes
    assert wall < 15 + 3 + 30, f"{wall:.0f} s"
    assert "--time is up: stopped 1 batch" in stderr and "Traceback" not in stderr
    for name in ("summary.json", "summary.md", "junit.xml", "report.html"):
        assert (tmp_path / "run" / name).exists(), name
    assert wait_for(lambda: not carrying(token), 10), carrying(token)
    assert not list(scratch.glob("ireefuzz-*"))


@pytest.mark.iree  # the real iree-compile answers the probe (seconds)
def test_kill_9_of_a_campaign_leaves_no_worker_and_no_compiler(tmp_path, scratch):
    fake, token = Fake(tmp_path / "fake", "hang", probe="real"), f"kill-{tmp_path.name}"
    proc = fuzz(
        tmp_path / "run",
        fake,
        token,
        "--time",
        "600",
        "--case-timeout",
        "300",
        "--batch",
        "2",
        "--workers",
        "2",
        scratch=scratch,
    )
    try:
        assert wait_for(lambda: fake.compiles() >= 2, 120), proc.stderr.read() if proc.poll() is not None else ""
        assert len(fake.processes()) >= 2
    finally:
        proc.kill()
    assert wait_for(lambda: not carrying(token), 15), carrying(token)
    proc.communicate(timeout=30)  # nothing alive holds its pipes
    assert not fake.processes()
    assert not list(scratch.glob("ireefuzz-*"))


@pytest.mark.slow
def test_a_live_campaign_refuses_another_on_its_out_and_ends_on_sigterm_like_ctrl_c(tmp_path, scratch):
    fake, token, out = Fake(tmp_path / "fake", "hang", probe="real"), f"lock-{tmp_path.name}", tmp_path / "run"
    first = fuzz(
        out, fake, token, "--time", "600", "--case-timeout", "300", "--batch", "2", "--workers", "1", scratch=scratch
    )
    try:
        assert wait_for(fake.compiles, 120), first.stderr.read() if first.poll() is not None else ""
        assert fake.processes()
        for argv in (("--resume",), ("--cases", "4")):  # a resume of it, and a new campaign on the same --out
            second = fuzz(out, fake, token + "-2", *argv)
            _, stderr = second.communicate(timeout=120)
            assert second.returncode == 2 and len(stderr.strip().splitlines()) == 1, stderr
            assert "in use by a running campaign" in stderr or "already holds a campaign" in stderr, stderr
        first.send_signal(signal.SIGTERM)
        _, stderr = first.communicate(timeout=120)
    finally:
        first.kill()
    assert first.returncode == 2 and "interrupted" in stderr and "Traceback" not in stderr, stderr
    for name in ("summary.json", "summary.md", "junit.xml", "report.html"):
        assert (out / name).exists(), name
    assert wait_for(lambda: not carrying(token), 10), carrying(token)
    fake.set("error")  # the first campaign has ended: its --out is free, and it resumes
    resumed = fuzz(out, fake, token, "--resume", "--cases", "2", "--workers", "1")
    _, stderr = resumed.communicate(timeout=300)
    assert resumed.returncode == 1 and "resuming" in stderr, stderr


def test_a_bundle_script_past_its_timeout_leaves_nothing_running(tmp_path):
    """run.sh (a bundle's, or bisect's trial) and what it started are killed on the timeout: before, only sh was."""
    from ireefuzz.tools.filing.bundle import run_in_clean_env

    token = f"script-{tmp_path.name}"
    script = tmp_path / "run.sh"
    script.write_text("sleep 600 &\nsleep 600\n")
    started = time.monotonic()
    assert run_in_clean_env(script, {"TOKEN": token}, timeout=2) == (None, "timed out")
    assert time.monotonic() - started < 30
    assert wait_for(lambda: not carrying(token), 10), carrying(token)
    script.write_text('echo "out $TOKEN"; echo err >&2; exit 3\n')
    assert run_in_clean_env(script, {"TOKEN": token}, timeout=60) == (3, f"out {token}\nerr\n")
