"""The worker protocol: what a pool runs (``evaluate_task`` on a ``Task``) and what it reports back.

A ``Pool`` (as pytest-xdist's ``scheduler/protocol.py``: one protocol, one module per policy) takes
batches with ``submit`` and reports each one's end from ``poll`` as an event:

- ``Done``   the batch was evaluated: one ``CaseResult`` per case;
- ``Died``   the worker died (signal, OOM kill) or passed its deadline; the coordinator bisects the batch;
- ``Failed`` the worker raised: ireefuzz's own bug (a *harness error*). The coordinator splits the batch
  until the case that raises is alone, records it as a harness error (traceback, case ids, release,
  configuration; counted, not judged) and goes on: a campaign never dies of one batch.

Implementations: ``local_pool.LocalPool`` (processes on this machine), ``dask_pool.DaskPool``.
"""

from __future__ import annotations

import dataclasses
import os
import signal
import time
from typing import TYPE_CHECKING, Literal, Protocol, Sequence, Union, get_args

from ireefuzz.generators.case import Case

if TYPE_CHECKING:
    from ireefuzz.core.evaluate import CaseResult, Policy
    from ireefuzz.sut import CompilerConfig, Setup

FAULT_ENV = (
    "IREEFUZZ_TEST_FAULT"  # test-only: "3:segv,5:kill,7:hang,8:stop,9:raise" makes a worker fail on those case indices
)
DeathKind = Literal["runtime-crash", "worker-killed", "worker-timeout"]
DEATH_KINDS: tuple[DeathKind, ...] = get_args(DeathKind)  # crash kinds a pool reports (a worker died)
TIME_GRACE_MAX_S = 30.0  # --time: batches still running then get min(--case-timeout, this) more seconds


@dataclasses.dataclass(frozen=True)
class EvalSpec:
    """How every batch of a campaign is evaluated (sent to the workers with each task)."""

    setup: "Setup | CompilerConfig"  # the campaign's toolchain (prepared once) and configuration; a bare config
    policy: "Policy"  # is resolved by the worker
    case_timeout: float

    @property
    def config(self) -> "CompilerConfig":
        from ireefuzz.sut import Setup

        return self.setup.config if isinstance(self.setup, Setup) else self.setup

    def grace(self) -> float:
        """Seconds the batches still running when ``--time`` is up may take to finish before they are stopped."""
        return min(self.case_timeout, TIME_GRACE_MAX_S)

    def deadline(self, task: "Task") -> float:
        """A worker's seconds for ``task``: one compile timeout (``case_timeout``) per case, one for the batch's
        own compile, and one for the worker's other work (start-up, the probe compile, emitting, running)."""
        return self.case_timeout * (len(task.cases) + 2)

    def stall(self) -> float:
        """A worker that shows no progress (``evaluate.CLOCK`` starts or ends no activity) for longer than this is
        stuck (stopped, or wedged in the runtime or a kernel wait): one compile timeout plus the grace."""
        return self.case_timeout + self.grace()


@dataclasses.dataclass(frozen=True)
class Task:
    indices: tuple[int, ...]
    cases: tuple[Case, ...]
    frontend: str = "linalg"  # options.FRONTENDS

    def halves(self) -> tuple["Task", "Task"]:
        h = len(self.indices) // 2
        return (
            Task(self.indices[:h], self.cases[:h], self.frontend),
            Task(self.indices[h:], self.cases[h:], self.frontend),
        )


@dataclasses.dataclass(frozen=True)
class Done:
    task: Task
    results: list["CaseResult"]  # one per case


@dataclasses.dataclass(frozen=True)
class Died:
    task: Task
    kind: DeathKind
    detail: str
    stuck: bool = False  # killed by the watchdog (no progress for ``EvalSpec.stall`` s): retried case by case
    seconds: float = 0.0  # worker seconds the batch took before it was killed (time accounting: ``stuck``)


@dataclasses.dataclass(frozen=True)
class Failed:
    task: Task
    message: str  # ireefuzz's own bug: the worker's traceback


@dataclasses.dataclass(frozen=True)
class Raised:
    """What a worker sends back instead of results when ``evaluate_task`` raised (it stays alive)."""

    traceback: str


def evaluate_or_raised(task: Task, spec: EvalSpec) -> "list[CaseResult] | Raised":
    """``evaluate_task``, or the traceback of the exception it raised (a worker's own bug, never IREE's)."""
    import traceback

    try:
        return evaluate_task(task, spec)
    except Exception:  # noqa: BLE001  (any exception of ours is a harness error, reported with its traceback)
        return Raised(traceback.format_exc())


Event = Union[Done, Died, Failed]


class Pool(Protocol):
    capacity: int  # batches it runs at once

    def submit(self, task: Task) -> None: ...

    def poll(self, timeout: float) -> list[Event]:
        """The events of the batches that ended, waiting up to ``timeout`` seconds for one."""

    def in_flight(self) -> int: ...

    def close(self) -> None: ...


def evaluate_task(task: Task, spec: EvalSpec) -> list["CaseResult"]:
    """Evaluate one batch (in a worker process, or a Dask worker): a list of CaseResult, each with its
    share of the worker's seconds on the batch (``CaseResult.timings``)."""
    from ireefuzz.core.evaluate import CLOCK, with_timings

    _test_fault(task.indices)
    before = dict(CLOCK.totals)
    with CLOCK("other"):
        results = evaluate_through(task.frontend, task.cases, spec.setup, spec.policy)
    return with_timings(results, before)


def evaluate_through(
    frontend: str, cases: Sequence[Case], setup: "Setup | CompilerConfig", policy: "Policy"
) -> list["CaseResult"]:
    """The campaign's one call of a front-end: ``evaluate`` with the Frontend of that name."""
    from ireefuzz.core.evaluate import evaluate
    from ireefuzz.core.frontends import FRONTENDS

    return evaluate(cases, setup, policy, FRONTENDS[frontend])


def _test_fault(indices: Sequence[int]) -> None:
    """Test-only hook: with IREEFUZZ_TEST_FAULT="i:segv|kill|hang|raise,..." a worker fails on a batch
    holding case i."""
    faults = dict(item.split(":") for item in os.environ.get(FAULT_ENV, "").split(",") if ":" in item)
    for i in indices:
        fault = faults.get(str(i))
        if fault == "hang":
            time.sleep(1e6)
        elif fault == "stop":  # as `kill -STOP`: no progress, no exit
            os.kill(os.getpid(), signal.SIGSTOP)
        elif fault in ("segv", "kill"):
            os.kill(os.getpid(), signal.SIGSEGV if fault == "segv" else signal.SIGKILL)
        elif fault == "raise":
            raise RuntimeError(f"{FAULT_ENV}: injected failure on case {i}")
