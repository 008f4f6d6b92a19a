"""The IREE runtime in another Python: the process half of ``sut.RemoteModule``.

``RunnerProcess`` keeps one ``ireefuzz/sut/runner.py`` process per Python alive across batches and
speaks its npz protocol. A runner that ends while serving a request raises ``RunnerDied`` (with
the signal that killed it, if one did); the next request starts a new runner (a new
``generation``: modules loaded in the old one are gone). Only ``sut`` uses this module.
"""

from __future__ import annotations

import atexit
import json
import os
import subprocess
import tempfile
import threading
from pathlib import Path
from typing import IO

import numpy as np

from ireefuzz.errors import IreeNotFound
from ireefuzz.sut import runner

RUNNER = Path(__file__).with_name("runner.py")  # run as a script by the runtime's Python (imports no ireefuzz)
IR_READER = Path(__file__).with_name("ir_reader.py")  # run as a script by a release's Python (its MLIR bindings)

_TAIL = 2000  # characters of the runner's stderr kept in a failure message


class RunnerDied(Exception):
    """The runner process ended while serving a request (``signal``: the signal that killed it, or None)."""

    def __init__(self, returncode: int | None, stderr: str) -> None:
        self.signal = -returncode if returncode is not None and returncode < 0 else None
        self.stderr = stderr
        super().__init__(f"the runner exited ({returncode}): {stderr[-_TAIL:]}")


class RunnerTimedOut(Exception):
    """A request took longer than its ``timeout``: the runner was killed (with whatever it was running)."""

    def __init__(self, seconds: float) -> None:
        self.seconds = seconds
        super().__init__(f"no reply within {seconds:g} s")


class RunnerRestarted(Exception):
    """A request meant for an earlier generation of the runner (its modules are gone): load them again."""


class RunnerProcess:
    """One ``runner.py`` (or another ``script`` of the same protocol) served by ``python``; started on first
    use and again after it died."""

    def __init__(self, python: str, script: Path = RUNNER) -> None:
        self.python = python
        self.script = script
        self.generation = 0  # bumped on every start: module ids of an older generation are gone
        self._proc: subprocess.Popen | None = None
        self._stderr: IO[bytes] | None = None  # the running process' stderr, a temporary file
        self._lock = threading.Lock()
        self._to_free: list[int] = []
        self._spare: tuple[subprocess.Popen, IO[bytes]] | None = None  # started when one died: the next, warming up

    def request(self, entries: dict, timeout: float | None = None, *, generation: int | None = None) -> dict:
        """Send one request; the reply as {name: array}. Raises RunnerDied if the process ended, RunnerTimedOut
        (after killing it: the next request starts a new runner) if no reply came within ``timeout`` seconds.
        The reply has ``generation``, the answering runner's (a module it loaded is known by its id in that
        generation only); a request for a ``generation`` that is not the running one's raises RunnerRestarted,
        checked under the lock: a thread sharing this runner with one whose call killed it must not send a
        module id to the next runner (which knows no such module, or another one by that id)."""
        with self._lock:
            if generation is not None and (self._proc is None or generation != self.generation):
                raise RunnerRestarted(f"generation {generation} is gone (now {self.generation})")
            proc = self._ensure_started()
            if self._to_free:
                entries = dict(entries, free=np.array(self._to_free, np.int64))
                self._to_free = []
            expired = threading.Event()

            def expire() -> None:
                expired.set()
                proc.kill()  # the pipe then ends: the read below returns

            timer = threading.Timer(timeout, expire) if timeout is not None else None
            if timer is not None:
                timer.daemon = True
                timer.start()
            try:
                runner.write_message(proc.stdin, entries)
                reply = runner.read_message(proc.stdout)
            except (BrokenPipeError, EOFError, ValueError):  # ValueError: a message cut by the kill
                reply = None
            except BaseException:  # interrupted (Ctrl-C, SIGTERM) mid-request: the runner goes with the request
                self._kill()
                raise
            finally:
                if timer is not None:
                    timer.cancel()
            if reply is None or expired.is_set():
                died = self._died()
                if expired.is_set():
                    raise RunnerTimedOut(timeout or 0.0) from None
                raise died
            return dict(reply, generation=self.generation)

    def start(self) -> int:
        """Start the process if it is not running; its generation."""
        with self._lock:
            self._ensure_started()
            return self.generation

    def free_later(self, generation: int, module_id: int) -> None:
        """Drop a module with the next request (a finalizer must not do I/O itself)."""
        if generation == self.generation:
            self._to_free.append(module_id)

    def close(self) -> None:
        with self._lock:
            spare, self._spare = self._spare, None
            for proc in ([self._proc] if self._proc is not None else []) + ([spare[0]] if spare else []):
                if proc.stdin is not None:
                    proc.stdin.close()
                try:
                    proc.wait(timeout=10)
                except subprocess.TimeoutExpired:
                    proc.kill()
                    proc.wait()
            if spare:
                spare[1].close()
            self._proc = None

    def _ensure_started(self) -> subprocess.Popen:
        if self._proc is None:
            spare, self._spare = self._spare, None
            if spare is not None and spare[0].poll() is not None:  # the spare itself died: start another
                spare[1].close()
                spare = None
            self._proc, self._stderr = spare or self._spawn()
            self.generation += 1
            self._to_free = []
        return self._proc

    def _spawn(self) -> tuple[subprocess.Popen, IO[bytes]]:
        stderr = tempfile.TemporaryFile()
        env = {k: v for k, v in os.environ.items() if not k.startswith("PYTHON")}
        return subprocess.Popen(
            [self.python, "-I", str(self.script)], stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=stderr, env=env
        ), stderr

    def _kill(self) -> None:
        proc, self._proc = self._proc, None
        if proc is not None:
            proc.kill()
            proc.wait()
        if self._stderr is not None:
            self._stderr.close()

    def _died(self) -> RunnerDied:
        proc, self._proc = self._proc, None
        assert proc is not None and self._stderr is not None  # called on a started runner only
        try:
            returncode = proc.wait(timeout=10)  # it may still be writing its last words
        except subprocess.TimeoutExpired:
            proc.kill()
            returncode = proc.wait()
        self._stderr.seek(0)
        stderr = self._stderr.read().decode("utf-8", "replace")
        self._stderr.close()
        # A runtime that dies on one pattern dies again soon: its successor starts now and imports its runtime
        # (~1 s for a release's Python) while the caller records this death, not when the next case asks for it.
        self._spare = self._spare or self._spawn()
        return RunnerDied(returncode, stderr)


_RUNNERS: dict[tuple[str, Path], RunnerProcess] = {}
_RUNNERS_LOCK = threading.Lock()


def runner_for(python: str, script: Path = RUNNER) -> RunnerProcess:
    """The process-wide runner of ``python`` running ``script`` (closed at exit)."""
    with _RUNNERS_LOCK:
        if (python, script) not in _RUNNERS:
            _RUNNERS[python, script] = RunnerProcess(python, script)
        return _RUNNERS[python, script]


def read_ir(python: str, dispatches: list[dict]) -> list[dict]:
    """The facts of each dispatch (``oracles.ir.facts_of``) read by ``python``'s own MLIR bindings
    (``ir_reader.py``); ``{"unreadable": why}`` for each if that Python cannot read them at all (its
    reader cannot start, or dies twice on them)."""
    reply: dict = {}
    for _ in range(2):  # a reader that died is started again once: the next death is the answer
        try:
            reply = runner_for(python, IR_READER).request({"dispatches": json.dumps(dispatches)})
            break
        except RunnerDied as e:
            reply = {"status": "error", "message": f"the IR reader died: {last_line(e.stderr)}"}
    if str(reply["status"]) != "ok":
        return [{"unreadable": f"{python} cannot read IR: {reply['message']}"} for _ in dispatches]
    return json.loads(str(reply["facts"]))


@atexit.register
def _close_runners() -> None:
    for r in list(_RUNNERS.values()):
        r.close()


def runtime_version(python: str) -> str:
    """The version of ``python``'s iree.runtime; IreeNotFound if it has none."""
    reply = _checked(runner_for(python), {"op": "hello"}, "start the IREE runtime")
    return str(reply["version"])


def _checked(runner: RunnerProcess, entries: dict, doing: str) -> dict:
    try:
        reply = runner.request(entries)
    except RunnerDied as e:
        raise IreeNotFound(f"{runner.python} could not {doing}: {last_line(e.stderr)}") from None
    if str(reply["status"]) != "ok":
        raise IreeNotFound(f"{runner.python} could not {doing}: {reply['message']}")
    return reply


def last_line(text: str) -> str:
    """The last non-empty line of a runner's stderr (its dying words)."""
    lines = [line for line in text.strip().splitlines() if line.strip()]
    return lines[-1] if lines else "(no output)"
