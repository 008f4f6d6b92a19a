"""Scale-out on a Dask cluster: ``ireefuzz fuzz --scheduler tcp://HOST:PORT``.

``DaskPool`` is a ``pool.Pool`` like ``local_pool.LocalPool``: the coordinator stays local, draws the
cases, sends batches out as tasks running ``pool.evaluate_task`` and merges and deduplicates the
results centrally in its own record.

The traps, and what we do about them:
- Dask retries a task whose worker died (``allowed-failures``, default 3), so one crashing case would
  take down several workers: ``DaskPool`` sets the scheduler's ``allowed_failures`` to 0, and the
  coordinator bisects the batch itself (a dead worker comes back as ``KilledWorker``);
- the scheduler and the workers unpickle the tasks, so the functions sent are plain module-level
  functions of ``ireefuzz`` (which must be installed on every machine of the cluster);
- iree-compile runs in a subprocess of the worker; the runtime runs in the worker process itself, so
  start workers with ``--nthreads 1`` (one batch per process: a crash takes no bystander with it) and
  with a nanny (the default) so that a dead or hung worker is restarted.

A Dask worker's death does not say which signal killed it, so every death is a ``runtime-crash``.
"""

from __future__ import annotations

import time
import traceback
from typing import Any

from .pool import Died, Done, EvalSpec, Event, Failed, Task, evaluate_task

RESTART_SLACK_S = 30.0  # a replaced worker's start-up counts against no case


def no_retries(dask_scheduler: Any) -> int:
    """Run on the scheduler: fail a task at once when its worker dies (instead of retrying it 3 times)."""
    dask_scheduler.allowed_failures = 0
    return dask_scheduler.allowed_failures


class DaskPool:
    """A ``pool.Pool`` on the Dask cluster at ``address`` (one batch per worker thread)."""

    def __init__(self, address: str, spec: EvalSpec, *, connect_timeout_s: float = 30.0) -> None:
        from distributed import Client

        self.client = Client(address, timeout=connect_timeout_s)
        self.client.run_on_scheduler(no_retries)
        self.capacity = max(1, sum(self.client.nthreads().values()))
        self.spec = spec
        self._futures: dict[Any, tuple[Task, float]] = {}

    def submit(self, task: Task) -> None:
        future = self.client.submit(
            evaluate_task, task, self.spec, pure=False, key=f"ireefuzz-batch-{task.indices[0]}-{time.monotonic_ns()}"
        )
        self._futures[future] = (task, time.monotonic() + self.spec.deadline(task) + RESTART_SLACK_S)

    def in_flight(self) -> int:
        return len(self._futures)

    def poll(self, timeout: float) -> list[Event]:
        end = time.monotonic() + timeout
        while True:
            events = self._collect()
            if events or time.monotonic() >= end:
                return events
            time.sleep(0.05)

    def _collect(self) -> list[Event]:
        from distributed import KilledWorker

        events: list[Event] = []
        for future, (task, deadline) in list(self._futures.items()):
            if future.status == "finished":
                events.append(Done(task, future.result()))
            elif future.status in ("error", "cancelled"):
                error = future.exception() if future.status == "error" else None
                if error is None or isinstance(error, KilledWorker):
                    events.append(Died(task, "runtime-crash", f"Dask worker died: {error}"))
                else:
                    events.append(Failed(task, "".join(traceback.format_exception(error))))
            elif time.monotonic() >= deadline:
                self._restart_worker_of(future)
                events.append(Died(task, "worker-timeout", f"no result within {self.spec.deadline(task):.0f} s"))
            else:
                continue
            del self._futures[future]
            future.release()
        return events

    def _restart_worker_of(self, future: Any) -> None:
        """A hung task cannot be cancelled inside its thread: restart the worker process holding it."""
        holders = [w for w, keys in self.client.processing().items() if future.key in keys]
        future.cancel()
        if holders:
            self.client.restart_workers(holders, raise_for_error=False)

    def close(self) -> None:
        for future in self._futures:
            future.cancel()
        self._futures.clear()
        self.client.close()
