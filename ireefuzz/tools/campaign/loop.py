"""The coordinator: the planner hands out batches in stream order, the loop runs them on a pool and records them.

Time. ``--time`` bounds the wall clock: no batch (nor a retried half, nor a confirmation) starts after it,
and the batches still running get ``EvalSpec.grace`` seconds (min(--case-timeout, 30)) to finish; then
they are stopped, unrecorded (``--resume`` runs their cases). Bundling comes after, under its own timeout.

Watchdog. A worker that shows no progress (no ``evaluate.CLOCK`` activity starts or ends) for ``EvalSpec.stall``
seconds (a compile timeout plus the grace) is stuck -- stopped, or wedged in the runtime or a kernel wait -- and is
killed like a dead one; its batch is retried case by case. The worker seconds a killed batch took are counted
as ``stuck`` in the time accounting.

Crash isolation. A worker that dies (signal, OOM kill) or passes its deadline (``EvalSpec.deadline``:
``--case-timeout`` per case, one for the batch's compile, one for the rest) is replaced, and its compiles
die with it (``ireefuzz.sut.launch``); its batch is split in halves and retried until the culprit case is
alone; a case that dies alone twice becomes a ``crash/runtime-crash|worker-killed|worker-timeout`` finding
(twice: a dying Dask worker also fails the tasks queued on it, which must not be blamed).

Harness errors. A worker that raises a Python exception (``pool.Failed``) hit ireefuzz's own bug, never
IREE's: its batch is split like a dead worker's until the case that raises is alone, which is recorded as a
harness error (``Record.record_harness_error``: traceback, case ids, release, configuration; the case is
counted, not judged) while the campaign goes on. Exit status: 1 if there is a new cause (harness errors or
not), else 2 if there were harness errors (stderr says how many and where), else 0.
"""

from __future__ import annotations

import collections
import concurrent.futures
import os
import sys
import time
from pathlib import Path

from ireefuzz.base import durable as _io
from ireefuzz.core.evaluate import CLOCK, CaseResult, platform_of
from ireefuzz.generators.case import Case
from ireefuzz.oracles.finding import Finding, make_signature
from ireefuzz.sut import CompilerConfig, Setup, Toolchain
from ireefuzz.tools.baseline import Baseline

from .causes import Previous
from .display import Display
from .guidance import Coverage, draw_block
from .options import Options
from .pool import Died, Done, EvalSpec, Failed, Pool, Task
from .record import Record
from .runs import write_outputs

SUMMARY_EVERY_S = 10.0


class Planner:
    """Hands out batches in stream order; draws block k only once blocks up to k - lag are complete.

    A block is drawn on a background thread (``draw_block`` is a pure function of the options, the block
    and the folded coverage, so where and when it runs changes nothing), while the coordinator keeps
    polling and handing out batches: no worker waits for a draw that could have run ahead.
    """

    def __init__(self, record: Record, setup: Setup | CompilerConfig | None = None) -> None:
        self.record, self.options, self.stream = record, record.options, record.stream
        self.toolchain = setup.toolchain if isinstance(setup, Setup) else None  # what drawing reads of the compiler
        self.next_block = 0
        self.folded = Coverage()
        self.folded_upto = 0  # blocks [0, folded_upto) are merged into ``folded``
        self.queue: collections.deque[Task] = collections.deque()
        self.drawing: concurrent.futures.Future | None = None  # the draw of block ``next_block``
        self._drawer = concurrent.futures.ThreadPoolExecutor(1, thread_name_prefix="ireefuzz-draw")

    def exhausted(self) -> bool:
        return (
            not self.queue
            and self.options.cases is not None
            and self.next_block * self.options.block >= self.options.cases
        )

    def next_task(self, time_left: bool, *, wait: bool = True) -> Task | None:
        """The next batch; None if there is none (yet: with ``wait=False``, a block being drawn is not waited for)."""
        while not self.queue and time_left and not self.exhausted():
            if wait and self.drawing is not None:
                concurrent.futures.wait([self.drawing])
            if not self._draw_next() and (not wait or self.drawing is None):
                return None
        return self.queue.popleft() if self.queue and time_left else None

    def draw_ahead(self, time_left: bool, tasks: int) -> None:
        """Start (or collect) the next block's draw if fewer than ``tasks`` batches are queued and the lag
        allows it, so the draw runs while the workers compile rather than while one waits for a batch."""
        if len(self.queue) < tasks and time_left and not self.exhausted():
            self._draw_next()

    def retry(self, task: Task, *, each: bool = False) -> None:
        """Run ``task`` again in halves, or case by case (``each``: a stuck worker's batch, where halving could
        wedge a worker again per level)."""
        parts = [Task((i,), (c,), task.frontend) for i, c in zip(task.indices, task.cases)] if each else task.halves()
        self.queue.extendleft(reversed(parts))

    def close(self) -> None:
        self._drawer.shutdown(wait=False, cancel_futures=True)

    def _draw_next(self) -> bool:
        """Move block ``next_block`` on: queue its batches once drawn, else start its draw if the lag allows.
        True when the block is queued (or has nothing left to run)."""
        k = self.next_block
        if self.drawing is not None:
            if not self.drawing.done():
                return False
            cases, seconds = self.drawing.result()
            self.drawing = None
            CLOCK.add("draw", seconds)
            self._queue_block(k, cases)
            self.next_block += 1
            return True
        while self.folded_upto < k - self.options.lag + 1:
            if self.folded_upto not in self.record.complete:
                return False
            self.folded.merge(self.record.block_coverage.pop(self.folded_upto, Coverage()))
            self.folded_upto += 1
        if k in self.record.complete or not self.stream.indices(k):
            self.next_block += 1
            return True
        # ``folded`` is next merged into only after this draw is collected
        self.drawing = self._drawer.submit(
            timed_draw,
            self.options,
            self.stream.global_block(k),
            self.folded,
            self.options.frontend_of(k),
            self.toolchain,
        )
        return False

    def _queue_block(self, k: int, cases: list[Case]) -> None:
        indices = self.stream.indices(k)
        todo = [(i, cases[i - indices.start]) for i in indices if not self.record.is_done(i)]
        b = self.options.batch
        for start in range(0, len(indices), b):  # the batches are fixed slices of the block
            part = [(i, c) for i, c in todo if start <= i - indices.start < start + b]
            if part:
                self.queue.append(
                    Task(tuple(i for i, _ in part), tuple(c for _, c in part), self.options.frontend_of(k))
                )


def timed_draw(
    options: Options, block: int, coverage: Coverage, frontend: str, toolchain: Toolchain | None = None
) -> tuple[list[Case], float]:
    """``draw_block`` and its wall seconds (on the drawing thread, where ``CLOCK`` is not used)."""
    started = time.perf_counter()
    return draw_block(options, block, coverage, frontend, toolchain=toolchain), time.perf_counter() - started


def run(
    options: Options,
    out: Path,
    pool: Pool,
    baseline: Baseline,
    display: Display,
    previous: Previous | None = None,
    *,
    spec: EvalSpec | None = None,
) -> int:
    """Run (or continue) the campaign in ``out`` on ``pool``; the exit status (1 = a new cause; ``previous``:
    the run this one is compared with, see ``causes``). ``spec``: how the pool evaluates (the campaign's
    prepared ``sut.Setup``), else the options' configuration resolved."""
    spec = spec or options.task_spec()
    record = Record(out, options, baseline, previous)
    planner = Planner(record, spec.setup)
    offset, started = record.seconds, time.monotonic()
    elapsed = lambda: offset + time.monotonic() - started
    stopped = 0  # batches still running when --time and its grace were up
    grace = spec.grace()
    last_summary = 0.0
    rss: list[tuple[float, float]] = []  # the coordinator's own resident memory over this session
    confirm: collections.deque[Task] = collections.deque()  # lone cases that died once: rerun them alone
    confirming: set[int] = set()
    alone = False  # a confirmation is running: nothing else is submitted until it ends
    memory = lambda: {"coordinator_rss_mb": [list(p) for p in rss]}
    counted = (dict(CLOCK.totals), time.perf_counter())  # the coordinator's clock at the last progress line

    def record_batch(task: Task, results: list[CaseResult], harness_error: str = "") -> None:
        """Record a batch with the coordinator's seconds since the last one: drawing (on its own thread),
        waiting, the rest its own work."""
        nonlocal counted
        spent = CLOCK.since(counted[0])
        own = time.perf_counter() - counted[1] - sum(v for k, v in spent.items() if k not in ("draw", "stuck"))
        spent["coordinator"] = max(0.0, own)
        counted = (dict(CLOCK.totals), time.perf_counter())
        if harness_error:
            record.record_harness_error(
                task, harness_error, elapsed(), coordinator=spent, workers=pool.capacity, setup=spec.setup
            )
        else:
            record.record(task, results, elapsed(), coordinator=spent, workers=pool.capacity)

    try:
        while True:
            time_left = options.time is None or elapsed() < options.time
            if not time_left and options.time is not None and elapsed() >= options.time + grace:
                stopped = pool.in_flight()
                break
            # A lone case that died is the culprit only if it dies again with nothing else in flight:
            # a dying worker (on Dask) also fails the tasks queued on it, which must not be blamed.
            if confirm and not pool.in_flight() and time_left:
                pool.submit(confirm.popleft())
                alone = True
            while (
                not alone
                and not confirm
                and pool.in_flight() < pool.capacity
                and (task := planner.next_task(time_left, wait=False)) is not None
            ):
                pool.submit(task)
            if not pool.in_flight():
                if confirm and time_left:
                    continue
                if planner.drawing is None or not time_left:
                    break
            display.update(record, elapsed())
            if time.monotonic() - last_summary > SUMMARY_EVERY_S:  # written while every worker has a batch
                rss.append((round(elapsed(), 1), rss_mb()))
                rss[:] = rss[::2] if len(rss) > 400 else rss
                _io.atomic_write_json(out / "summary.json", record.summary() | memory())
                last_summary = time.monotonic()
            planner.draw_ahead(time_left, pool.capacity)
            with CLOCK("waiting"):
                events = pool.poll(1.0 if planner.drawing is None else 0.1)  # collect a draw soon after it ends
            alone = alone and not events  # the lone task is the only one in flight: any event is its end
            for event in events:  # worker seconds a killed batch took: "stuck" in the time accounting
                if isinstance(event, Died) and event.seconds:
                    CLOCK.totals["stuck"] += event.seconds  # a worker's seconds, not the coordinator's own
            for event in events:
                if isinstance(event, Done):
                    record_batch(event.task, event.results)
                elif isinstance(event, (Died, Failed)) and len(event.task.indices) > 1:
                    planner.retry(event.task, each=isinstance(event, Died) and event.stuck)
                elif isinstance(event, Died) and event.task.indices[0] not in confirming:
                    confirming.add(event.task.indices[0])
                    confirm.append(event.task)
                elif isinstance(event, Died):
                    case = event.task.cases[0]
                    finding = crash_finding(case, event.task.indices[0], event)
                    finding = finding.with_evidence(platform=platform_of(config=spec.config))
                    record_batch(event.task, [CaseResult(case, (finding,))])
                elif isinstance(event, Failed):  # a harness error: recorded, counted not judged, and on we go
                    record_batch(event.task, [], harness_error=event.message)
    finally:
        planner.close()
        pool.close()
        rss.append((round(elapsed(), 1), rss_mb()))
        write_outputs(out, record, **memory())
        display.finish(record, elapsed())
    if stopped:
        print(
            f"ireefuzz fuzz: --time is up: stopped {stopped} batch(es) still running {grace:.0f} s later "
            "(their cases run with --resume)",
            file=sys.stderr,
        )
    errors = record.totals["harness_errors"]
    if errors:
        print(
            f"ireefuzz fuzz: {errors} harness error(s) (ireefuzz's own bugs, their cases not judged): "
            f"see {out / 'harness_errors.jsonl'}",
            file=sys.stderr,
        )
    return exit_status(record)


def exit_status(record: Record) -> int:
    """1 if a cause is new (after bundling: one that survived its experiments), else 2 if there were harness errors,
    else 0."""
    return 1 if record.new_causes() else 2 if record.totals["harness_errors"] else 0


def crash_finding(case: Case, index: int, died: Died) -> Finding:
    g = case.graph
    return Finding(
        "crash",
        died.kind,
        make_signature("crash", died.kind, g.op_pattern, g.dtype, g.dims),
        f"worker {died.kind} ({died.detail}) while evaluating case {index} alone",
        {"detail": died.detail, "case_index": index, "worker_death": True},
        case.to_json(),
    )


def rss_mb() -> float:
    """This process' resident set size in MB (Linux; 0 elsewhere)."""
    try:
        return round(int(Path("/proc/self/statm").read_text().split()[1]) * os.sysconf("SC_PAGE_SIZE") / 2**20, 1)
    except OSError:
        return 0.0
