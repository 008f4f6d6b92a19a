"""``LocalPool``: worker processes on this machine, one batch each at a time; dead or hung ones are replaced."""
from __future__ import annotations

import multiprocessing
import multiprocessing.connection
import signal
import time
from typing import Any

from .pool import Died, Done, EvalSpec, Event, Failed, Task, evaluate_task


def death_kind(exitcode: int | None) -> tuple[str, str]:
    if exitcode is not None and exitcode < 0:
        name = signal.Signals(-exitcode).name
        return ("worker-killed" if -exitcode == signal.SIGKILL else "runtime-crash"), name
    return "runtime-crash", f"exit status {exitcode}"


def _worker_main(conn: multiprocessing.connection.Connection) -> None:
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C is the coordinator's to handle
    import ireefuzz.evaluate  # noqa: F401  (import JAX and IREE once, before the first task)

    while (message := conn.recv()) is not None:
        conn.send(evaluate_task(*message))


class LocalPool:
    """A ``pool.Pool`` of forkserver processes; a worker's death or timeout is a ``Died`` event, its exception ``Failed``."""

    def __init__(self, workers: int, spec: EvalSpec) -> None:
        self.capacity = workers
        self.spec = spec
        self._ctx = multiprocessing.get_context("forkserver")
        self._ctx.set_forkserver_preload(["ireefuzz.evaluate"])
        self._busy: dict[Any, tuple[Any, Any, Task, float]] = {}  # conn -> (process, conn, task, deadline)
        self._idle: list[tuple[Any, Any]] = []

    def submit(self, task: Task) -> None:
        process, conn = self._idle.pop() if self._idle else self._start()
        conn.send((task, self.spec))
        self._busy[conn] = (process, conn, task, time.monotonic() + self.spec.deadline(task))

    def in_flight(self) -> int:
        return len(self._busy)

    def _start(self) -> tuple[Any, Any]:
        parent, child = self._ctx.Pipe()
        process = self._ctx.Process(target=_worker_main, args=(child,), daemon=True)
        process.start()
        child.close()
        return process, parent

    def poll(self, timeout: float) -> list[Event]:
        if not self._busy:
            if len(self._idle) < self.capacity:  # nothing to run yet (the first block is being drawn): start a worker
                self._idle.append(self._start())
            else:
                time.sleep(timeout)
            return []
        now = time.monotonic()
        timeout = max(0.0, min(timeout, min(d for *_, d in self._busy.values()) - now))
        ready = multiprocessing.connection.wait([c for c in self._busy] + [p.sentinel for p, *_ in self._busy.values()], timeout)
        events: list[Event] = []
        for conn, (process, _, task, deadline) in list(self._busy.items()):
            if conn in ready or process.sentinel in ready:
                try:
                    events.append(Done(task, conn.recv()))
                    self._idle.append((process, conn))
                    del self._busy[conn]
                    continue
                except (EOFError, OSError):
                    process.join(5)
                    events.append(Failed(task, f"worker exited with status {process.exitcode} (traceback above)")
                                  if process.exitcode and process.exitcode > 0 else Died(task, *death_kind(process.exitcode)))
            elif time.monotonic() >= deadline:
                process.kill()
                process.join(5)
                events.append(Died(task, "worker-timeout", f"no result within {self.spec.deadline(task):.0f} s"))
            else:
                continue
            conn.close()
            del self._busy[conn]
        return events

    def close(self) -> None:
        for process, conn in self._idle:
            conn.send(None)
        for process, conn, *_ in list(self._busy.values()) + self._idle:
            process.join(1)
            if process.is_alive():
                process.kill()
                process.join(1)
        self._busy.clear()
        self._idle.clear()
