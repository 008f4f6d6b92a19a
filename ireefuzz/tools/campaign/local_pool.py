"""``LocalPool``: worker processes on this machine, one batch each at a time; dead or hung ones are replaced."""

from __future__ import annotations

import multiprocessing
import multiprocessing.connection
import os
import signal
import time
from typing import Any

from ireefuzz import sut
from ireefuzz.sut.launch import die_with

from .pool import DeathKind, Died, Done, EvalSpec, Event, Failed, Raised, Task, evaluate_or_raised


def death_kind(exitcode: int | None) -> tuple[DeathKind, str]:
    if exitcode is not None and exitcode < 0:
        name = signal.Signals(-exitcode).name
        return ("worker-killed" if -exitcode == signal.SIGKILL else "runtime-crash"), name
    return "runtime-crash", f"exit status {exitcode}"


def _worker_main(conn: multiprocessing.connection.Connection, coordinator: int, beat: Any = None) -> None:
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C is the coordinator's to handle
    # End with the coordinator, even killed with -9 (our parent, the forkserver, outlives it while we live),
    # and our compile with us (sut runs it under ``launch``, which the kernel tells when we die).
    die_with(coordinator, before=sut.remove_own_temp_dirs_for_good)
    import ireefuzz.core.evaluate  # import JAX and IREE once, before the first task

    if beat is not None:  # the heartbeat the coordinator's watchdog reads: every activity's start and end

        def progressed() -> None:
            beat.value = time.monotonic()

        ireefuzz.core.evaluate.CLOCK.on_change = progressed

    try:
        while (message := conn.recv()) is not None:
            conn.send(evaluate_or_raised(*message))  # an exception is sent back: the worker lives on
    except (EOFError, BrokenPipeError):  # the coordinator is gone: nobody wants the result
        pass


class LocalPool:
    """A ``pool.Pool`` of forkserver processes; a worker's death or timeout is a ``Died`` event, its exception
    ``Failed``."""

    def __init__(self, workers: int, spec: EvalSpec) -> None:
        self.capacity = workers
        self.spec = spec
        self._ctx = multiprocessing.get_context("forkserver")
        self._ctx.set_forkserver_preload(["ireefuzz.core.evaluate"])
        self._busy: dict[Any, tuple[Any, Any, Task, float]] = {}  # conn -> (process, conn, task, deadline)
        self._beats: dict[Any, Any] = {}  # conn -> the worker's heartbeat (time.monotonic() of its last progress)
        self._submitted: dict[Any, float] = {}  # conn -> when its task was submitted
        self._idle: list[tuple[Any, Any]] = []
        sut.remove_temp_dirs()  # the compile folders of processes gone since (a campaign killed with -9)

    def submit(self, task: Task) -> None:
        process, conn = self._idle.pop() if self._idle else self._start()
        conn.send((task, self.spec))
        now = time.monotonic()
        self._beats[conn].value = self._submitted[conn] = now
        self._busy[conn] = (process, conn, task, now + self.spec.deadline(task))

    def in_flight(self) -> int:
        return len(self._busy)

    def _start(self) -> tuple[Any, Any]:
        parent, child = self._ctx.Pipe()
        beat = self._ctx.RawValue("d", time.monotonic())  # CLOCK_MONOTONIC: one clock for every process
        process = self._ctx.Process(target=_worker_main, args=(child, os.getpid(), beat), daemon=True)
        process.start()
        child.close()
        self._beats[parent] = beat
        return process, parent

    def poll(self, timeout: float) -> list[Event]:
        if not self._busy:
            if len(self._idle) < self.capacity:  # nothing to run yet (the first block is being drawn): start a worker
                self._idle.append(self._start())
            else:
                time.sleep(timeout)
            return []
        now = time.monotonic()
        stall = self.spec.stall()
        timeout = max(
            0.0,
            min(
                timeout,
                min(d for *_, d in self._busy.values()) - now,
                min(self._beats[c].value for c in self._busy) + stall - now,
            ),
        )
        ready = multiprocessing.connection.wait(
            [c for c in self._busy] + [p.sentinel for p, *_ in self._busy.values()], timeout
        )
        events: list[Event] = []
        for conn, (process, _, task, deadline) in list(self._busy.items()):
            if conn in ready or process.sentinel in ready:
                try:
                    reply = conn.recv()
                    events.append(Failed(task, reply.traceback) if isinstance(reply, Raised) else Done(task, reply))
                    self._idle.append((process, conn))
                    del self._busy[conn]
                    continue
                except (EOFError, OSError):
                    process.join(5)
                    _remove_leftovers(process)
                    events.append(
                        Failed(task, f"worker exited with status {process.exitcode} (traceback above)")
                        if process.exitcode and process.exitcode > 0
                        else Died(task, *death_kind(process.exitcode))
                    )
            elif time.monotonic() >= deadline:
                _stop(process)
                events.append(
                    Died(
                        task,
                        "worker-timeout",
                        f"no result within {self.spec.deadline(task):.0f} s",
                        seconds=time.monotonic() - self._submitted[conn],
                    )
                )
            elif time.monotonic() - self._beats[conn].value > stall:  # stopped, or wedged: a dead worker
                _stop(process)
                events.append(
                    Died(
                        task,
                        "worker-timeout",
                        f"no progress for {stall:.0f} s (stuck)",
                        stuck=True,
                        seconds=time.monotonic() - self._submitted[conn],
                    )
                )
            else:
                continue
            conn.close()
            del self._busy[conn]
            self._beats.pop(conn, None)
        return events

    def close(self) -> None:
        """Idle workers are asked to exit; busy ones are stopped at once (with their compiles)."""
        for process, conn in self._idle:
            conn.send(None)
        for process, *_ in self._busy.values():
            _stop(process)
        for process, _ in self._idle:
            process.join(1)
            if process.is_alive():
                _stop(process)
        self._busy.clear()
        self._idle.clear()


def _stop(process: Any) -> None:
    """Kill a worker (its compile's launcher gets SIGTERM from the kernel and kills the compile's group)."""
    process.kill()
    process.join(5)
    _remove_leftovers(process)


def _remove_leftovers(process: Any) -> None:
    """The temporary folders a killed worker's compiles left behind."""
    if process.pid is not None and process.exitcode is not None:
        sut.remove_temp_dirs([process.pid])
