"""``ireefuzz fuzz``: the nightly campaign. Parallel, crash-isolated, batched, deduplicated, resumable.

Files in ``--out DIR`` (all written with ``ireefuzz._io``; a kill -9 at any moment loses nothing recorded):

- ``campaign.json``  the options that define the campaign (``--resume`` reads them back);
- ``progress.jsonl`` one line per completed batch: the case indices with their signatures, pipelines and ops;
  every count in the summary is recomputed from it, so a batch is counted once however often it ran;
- ``findings.jsonl`` one Finding per line (plus ``case_index``, ``status`` new|known, ``example`` first|smaller):
  the first example of each signature and every later one that is smaller (``Case.elements``, then nodes);
- ``summary.json``, ``summary.md``, ``junit.xml``, ``report.html`` (see ``ireefuzz.report``).

Determinism. The case stream is cut in blocks of ``BLOCK`` cases. Global block ``b`` belongs to shard
``b % n``; its cases have indices ``b*BLOCK .. b*BLOCK+BLOCK-1``, so shards are disjoint by construction.
A block is drawn by one Hypothesis run (``@given(cases())`` with ``@seed(f(seed, b))``, no database) whose
only other input is the coverage of the shard's blocks up to ``k - lag`` (``k`` = the block's place in
the shard): so a block, and thus every case index, is a pure function of (seed, shard, index), and
``--resume`` redraws exactly the cases it had.

Guidance. Inside that Hypothesis run every drawn case gets ``target(rarity)``, where rarity sums
1/sqrt(1+count) over the case's features (ops, adjacent op pairs, dtype, static/dynamic) and over the
rarest lowering pipeline (``translation_info``) each of its ops has reached so far; Hypothesis' target
phase then mutates the highest-scoring examples, leaning the block toward rarely reached ops and
pipelines. ``event()`` labels each example with its rarest feature (shown by Hypothesis statistics).

Crash isolation. Batches run in worker processes (``LocalPool``) or on Dask (``ireefuzz.dask_backend``).
A worker that dies (signal, OOM kill) or passes its deadline (``--case-timeout`` per case plus one for
the compile) is replaced; its batch is split in halves and retried until the culprit case is alone;
a case that dies alone twice becomes a ``crash/runtime-crash|worker-killed|worker-timeout`` finding
(twice: a dying Dask worker also fails the tasks queued on it, which must not be blamed). A worker that raises a
Python exception is ireefuzz's own bug: the campaign stops with exit status 2 (never swallowed).

Exit status: 0 = nothing new, 1 = new findings (not in the baseline), 2 = the campaign itself failed.
"""
from __future__ import annotations

import argparse
import collections
import dataclasses
import hashlib
import json
import math
import multiprocessing
import multiprocessing.connection
import os
import shlex
import signal
import sys
import time
from pathlib import Path
from typing import Any, Mapping, Sequence

from ireefuzz import _io, releases
from ireefuzz.errors import UsageError
from ireefuzz.evaluate import JAX_MODES, ORACLE_NAMES, CaseResult, Policy, platform_of  # light: JAX and the IREE runtime load lazily
from ireefuzz.generators.case import Case
from ireefuzz.generators.graph import Graph
from ireefuzz.oracles.finding import Finding, make_signature

BLOCK = 64  # cases per Hypothesis run; part of the campaign's identity (recorded)
WARMUP_CALLS = 10  # Hypothesis opens every run with its simplest examples: they would repeat in every block
DEFAULT_BASELINE = Path("corpus/known_findings.json")
FAULT_ENV = "IREEFUZZ_TEST_FAULT"  # test-only: "3:segv,5:kill,7:hang,9:raise" makes a worker fail on those case indices
SUMMARY_EVERY_S = 10.0
DEATH_KINDS = ("runtime-crash", "worker-killed", "worker-timeout")  # crash kinds the pool reports (a worker died)


# --------------------------------------------------------------------------- options

def configure(parser: argparse.ArgumentParser) -> None:
    g = parser.add_argument_group("campaign")
    stop = g.add_mutually_exclusive_group()
    stop.add_argument("--time", type=float, metavar="SECONDS", help="stop dispatching after this much wall time (summed over resumes)")
    stop.add_argument("--cases", type=int, metavar="N", help="run the first N cases of this shard's stream")
    g.add_argument("--workers", default="auto", metavar="N|auto", help="worker processes (auto = CPU count)")
    g.add_argument("--seed", type=int, metavar="S", help="campaign seed (default 0)")
    g.add_argument("--shard", metavar="i/n", help="run shard i of n (0-based; default 0/1); shards are disjoint")
    g.add_argument("--out", metavar="DIR", help="output directory (default runs/<timestamp>)")
    g.add_argument("--resume", action="store_true", help="continue the campaign recorded in --out DIR")
    g.add_argument("--baseline", metavar="FILE", help=f"known findings JSON (default {DEFAULT_BASELINE} if it exists)")
    g.add_argument("--oracles", metavar="a,b,c", help=f"oracles to run (default all: {','.join(ORACLE_NAMES)})")
    g.add_argument("--iree-compile", metavar="PATH", help="an external iree-compile binary (default: the installed wheel's)")
    releases.add_arguments(g)
    g.add_argument("--configs", action="store_true", default=None,
                   help="draw a compiler configuration per block of cases (target CPU, data tiling, ukernels, opt "
                        "level, const-eval, aggressive fusion, ...; the flags this iree-compile has, the CPUs this "
                        "machine runs); each case records its configuration")
    g.add_argument("--target-cpu", metavar="CPU", help="host, generic, x86-64-v3, x86-64-v4 or any LLVM CPU name (default host)")
    g.add_argument("--flags", metavar='"..."', help="extra iree-compile flags (shell-quoted string)")
    g.add_argument("--batch", type=int, metavar="N", help="graphs per compiled module (default 16)")
    g.add_argument("--case-timeout", type=float, metavar="SECONDS", help="per-case time budget of a worker (default 60)")
    g.add_argument("--jax", choices=JAX_MODES, help="when the JAX reference runs: always, or on-disagreement (default: "
                   "only when IREE and the float64 arbiter disagree; much faster, but no reference findings)")
    g.add_argument("--relations", metavar="a,b", help="metamorphic relations to run on a sample of the cases: "
                   "shape (static vs dynamic/unaligned), dps (destination forms), config (host vs generic CPU, data "
                   "tiling on/off); default shape; '' = none")
    g.add_argument("--relations-every", type=int, metavar="N", help="run the relations on one case in N (default 64)")
    g.add_argument("--bundles", type=int, default=5, metavar="N",
                   help="after the campaign, shrink and bundle up to N new signatures into DIR/bundles (default 5; 0 = off)")
    g.add_argument("--bundle-timeout", type=float, default=300.0, metavar="SECONDS",
                   help="time allowed to shrink and bundle one signature (default 300)")
    g.add_argument("--scheduler", metavar="tcp://HOST:PORT", help="run batches on this Dask cluster instead of local workers")


@dataclasses.dataclass(frozen=True)
class Options:
    """What defines a campaign (recorded in campaign.json). Stop conditions may be changed on resume."""

    seed: int = 0
    shard: tuple[int, int] = (0, 1)
    batch: int = 16
    oracles: tuple[str, ...] = ORACLE_NAMES
    iree_compile: str | None = None
    release: str | None = None  # a published IREE release: its compiler, syntax, ops and runtime
    iree_runtime: str | None = None  # a Python whose iree.runtime runs the modules
    configs: bool = False  # a configuration from ireefuzz.configs per block (target CPU and flags)
    target_cpu: str = "host"
    flags: tuple[str, ...] = ()
    case_timeout: float = 60.0
    jax: str = "on-disagreement"  # JAX runs only when IREE and float64 disagree (eager JAX recompiles per shape)
    relations: tuple[str, ...] = ("shape",)  # metamorphic relations, on one case in relations_every
    relations_every: int = 64
    lag: int = 2  # a block is drawn from the coverage of blocks up to k - lag
    block: int = BLOCK
    cases: int | None = None
    time: float | None = None

    def to_json(self) -> dict[str, Any]:
        return dataclasses.asdict(self)

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> "Options":
        fields = {f.name for f in dataclasses.fields(cls)}
        data = {k: tuple(v) if isinstance(v, list) else v for k, v in data.items() if k in fields}
        return cls(**data)

    def task_spec(self) -> "EvalSpec":
        from ireefuzz.sut import CompilerConfig

        config = CompilerConfig(iree_compile=self.iree_compile, target_cpu=self.target_cpu, flags=self.flags,
                                timeout_s=self.case_timeout, release=self.release, runtime_python=self.iree_runtime)
        policy = Policy(frozenset(self.oracles), jax=self.jax, relations=self.relations, relations_every=self.relations_every)
        return EvalSpec(config, policy, self.case_timeout)


_DEFINING = ("seed", "shard", "batch", "oracles", "iree_compile", "release", "iree_runtime", "configs", "target_cpu",
             "flags", "case_timeout", "jax", "relations", "relations_every")


def options_from_args(args: argparse.Namespace, recorded: Options | None) -> Options:
    """Validated Options; with ``recorded`` (a resume) the defining options must agree with it."""
    given: dict[str, Any] = {}
    if args.seed is not None:
        given["seed"] = args.seed
    if args.shard is not None:
        given["shard"] = parse_shard(args.shard)
    if args.batch is not None:
        if args.batch < 1:
            raise UsageError(f"--batch {args.batch}: give a positive number of graphs per module")
        given["batch"] = args.batch
    if args.oracles is not None:
        names = tuple(n.strip() for n in args.oracles.split(",") if n.strip())
        unknown = sorted(set(names) - set(ORACLE_NAMES))
        if unknown or not names:
            raise UsageError(f"--oracles {args.oracles!r}: unknown {unknown}; choose from {','.join(ORACLE_NAMES)}")
        given["oracles"] = names
    if args.iree_compile is not None:
        given["iree_compile"] = args.iree_compile
    for name in ("release", "iree_runtime", "configs"):
        if getattr(args, name, None) is not None:
            given[name] = getattr(args, name)
    if args.target_cpu is not None:
        given["target_cpu"] = args.target_cpu
    if args.flags is not None:
        given["flags"] = tuple(shlex.split(args.flags))
    if args.jax is not None:
        given["jax"] = args.jax
    if args.relations is not None:
        from ireefuzz.oracles.metamorphic import RELATIONS

        names = tuple(n.strip() for n in args.relations.split(",") if n.strip())
        if set(names) - set(RELATIONS):
            raise UsageError(f"--relations {args.relations!r}: choose from {','.join(RELATIONS)} (or '' for none)")
        given["relations"] = names
    if args.relations_every is not None:
        if args.relations_every < 1:
            raise UsageError(f"--relations-every {args.relations_every}: give a positive number of cases")
        given["relations_every"] = args.relations_every
    if args.case_timeout is not None:
        if args.case_timeout <= 0:
            raise UsageError(f"--case-timeout {args.case_timeout}: give a positive number of seconds")
        given["case_timeout"] = args.case_timeout
    if args.cases is not None and args.cases < 1:
        raise UsageError(f"--cases {args.cases}: give a positive number of cases")
    if args.time is not None and args.time <= 0:
        raise UsageError(f"--time {args.time}: give a positive number of seconds")
    stop = {"cases": args.cases, "time": args.time} if args.cases is not None or args.time is not None else None
    if recorded is None:
        if stop is None:
            raise UsageError("give --time SECONDS or --cases N")
        return Options(**given, **stop)
    differ = [k for k, v in given.items() if getattr(recorded, k) != v]
    if differ:
        raise UsageError(f"--resume: {', '.join('--' + k.replace('_', '-') for k in differ)} differ from the recorded "
                         "campaign; drop them, or start a new campaign with another --out")
    return dataclasses.replace(recorded, **stop) if stop else recorded


def parse_shard(text: str) -> tuple[int, int]:
    try:
        i, n = (int(x) for x in text.split("/"))
    except ValueError:
        raise UsageError(f"--shard {text!r}: write it as i/n, e.g. 0/4") from None
    if not (n >= 1 and 0 <= i < n):
        raise UsageError(f"--shard {text}: need 0 <= i < n")
    return i, n


def parse_workers(text: str) -> int:
    if text == "auto":
        return os.cpu_count() or 1
    if not text.isdigit() or int(text) < 1:
        raise UsageError(f"--workers {text!r}: give a positive number or 'auto'")
    return int(text)


# --------------------------------------------------------------------------- baseline

@dataclasses.dataclass(frozen=True)
class Known:
    signature: str
    status: str = ""
    upstream: str = ""
    note: str = ""


def load_baseline(path: Path | None) -> dict[str, Known]:
    """The known-findings baseline (format and checks: ``ireefuzz.corpus.load_baseline``)."""
    if path is None:
        return {}
    from ireefuzz.corpus import CorpusError, load_baseline as read

    try:
        entries = read(path)
    except CorpusError as e:
        raise UsageError(f"--baseline {e}") from None
    return {sig: Known(sig, e["status"], e["upstream"], e["note"]) for sig, e in entries.items()}


# --------------------------------------------------------------------------- generation and guidance

def draw_features(ops: str, dtype: str, dims: str) -> list[str]:
    names = ops.split(">") if ops else []
    return ([f"op:{o}" for o in dict.fromkeys(names)] + [f"pair:{a}>{b}" for a, b in dict.fromkeys(zip(names, names[1:]))]
            + [f"dtype:{dtype}", "dims:" + ("dynamic" if "?" in dims else "static")])


class Coverage:
    """Counts of what the finished cases reached: draw features, pipelines, and the pipelines each op reached."""

    def __init__(self) -> None:
        self.features: collections.Counter[str] = collections.Counter()
        self.pipelines: collections.Counter[str] = collections.Counter()
        self.op_pipelines: dict[str, set[str]] = collections.defaultdict(set)

    def add(self, entry: Mapping[str, Any]) -> None:
        self.features.update(draw_features(entry["ops"], entry["dtype"], entry["dims"]))
        self.pipelines.update(entry["pipelines"])
        for op in entry["ops"].split(">"):
            self.op_pipelines[op].update(entry["pipelines"])

    def merge(self, other: "Coverage") -> None:
        self.features.update(other.features)
        self.pipelines.update(other.pipelines)
        for op, ps in other.op_pipelines.items():
            self.op_pipelines[op] |= ps

    def rarity(self, graph: Graph) -> tuple[float, str]:
        """(score, rarest feature) of a drawn graph: higher = less reached so far."""
        scores = {f: 1 / math.sqrt(1 + self.features[f]) for f in draw_features(graph.op_pattern, graph.dtype, graph.dims)}
        for n in graph.nodes:
            for p in self.op_pipelines.get(n.op, ()):
                scores[f"pipeline:{p}"] = 1 / math.sqrt(1 + self.pipelines[p])
        rarest = max(scores, key=scores.get) if scores else "-"
        return sum(scores.values()), rarest


def draw_block(options: Options, block: int, coverage: Coverage) -> list[Case]:
    """The ``options.block`` cases of global block ``block``: deterministic in (options, block, coverage)."""
    from hypothesis import HealthCheck, Phase, event, given, seed, settings, target
    from ireefuzz.generators.strategies import cases

    version = releases.release_of(options.task_spec().config)  # a release is never given an op it cannot express
    cpu, flags = options.target_cpu, options.flags
    if options.configs:  # this block's configuration, deterministic in (seed, block)
        from ireefuzz.configs import space_for

        drawn_config = space_for(options.task_spec().config).draw(options.seed, block)
        cpu, flags = drawn_config.target_cpu, options.flags + drawn_config.flags
    strategy = cases(target_cpus=(cpu,), flags=(flags,),
                     **({} if version is None else {"ops": releases.ops_for(version), "syntax": releases.syntax_for(version)}))
    drawn: dict[str, Case] = {}
    for attempt in range(100):
        calls = []

        @seed(int.from_bytes(hashlib.sha256(f"{options.seed}/{block}/{attempt}".encode()).digest()[:8], "little"))
        @settings(max_examples=2 * options.block + WARMUP_CALLS, database=None, deadline=None, derandomize=False,
                  suppress_health_check=list(HealthCheck), phases=(Phase.generate, Phase.target))
        @given(strategy)
        def run(case: Case) -> None:
            score, rarest = coverage.rarity(case.graph)
            target(score, label="rarity")
            event("rarest", rarest)
            calls.append(case)

        run()
        for case in calls[WARMUP_CALLS:]:
            drawn.setdefault(case.dumps(), case)
        if len(drawn) >= options.block:
            return list(drawn.values())[: options.block]
    raise RuntimeError(f"could not draw {options.block} distinct cases for block {block}")


def case_hash(case: Case) -> str:
    return hashlib.sha256(case.dumps().encode()).hexdigest()[:12]


class Stream:
    """This shard's case stream: local block k is global block k*n+i; positions count cases in the shard."""

    def __init__(self, options: Options) -> None:
        self.options = options

    def global_block(self, k: int) -> int:
        i, n = self.options.shard
        return k * n + i

    def local_block(self, index: int) -> int:
        return index // self.options.block // self.options.shard[1]

    def indices(self, k: int) -> range:
        b = self.global_block(k) * self.options.block
        limit = self.options.cases
        size = self.options.block if limit is None else max(0, min(self.options.block, limit - k * self.options.block))
        return range(b, b + size)


# --------------------------------------------------------------------------- tasks: what a worker runs

@dataclasses.dataclass(frozen=True)
class EvalSpec:
    config: Any  # ireefuzz.sut.CompilerConfig
    policy: Any  # ireefuzz.evaluate.Policy
    case_timeout: float

    def deadline(self, task: "Task") -> float:
        return self.case_timeout * (len(task.cases) + 1)


@dataclasses.dataclass(frozen=True)
class Task:
    indices: tuple[int, ...]
    cases: tuple[Case, ...]

    def halves(self) -> tuple["Task", "Task"]:
        h = len(self.indices) // 2
        return Task(self.indices[:h], self.cases[:h]), Task(self.indices[h:], self.cases[h:])


def evaluate_task(task: Task, spec: EvalSpec) -> list:
    """Evaluate one batch (in a worker process, or a Dask worker): a list of CaseResult."""
    from ireefuzz.evaluate import evaluate

    _test_fault(task.indices)
    return evaluate(task.cases, spec.config, spec.policy)


def _test_fault(indices: Sequence[int]) -> None:
    """Test-only hook: with IREEFUZZ_TEST_FAULT="i:segv|kill|hang|raise,..." a worker fails on a batch holding case i."""
    faults = dict(item.split(":") for item in os.environ.get(FAULT_ENV, "").split(",") if ":" in item)
    for i in indices:
        fault = faults.get(str(i))
        if fault == "hang":
            time.sleep(1e6)
        elif fault in ("segv", "kill"):
            os.kill(os.getpid(), signal.SIGSEGV if fault == "segv" else signal.SIGKILL)
        elif fault == "raise":
            raise RuntimeError(f"{FAULT_ENV}: injected failure on case {i}")


@dataclasses.dataclass(frozen=True)
class Done:
    task: Task
    results: list  # CaseResult per case


@dataclasses.dataclass(frozen=True)
class Died:
    task: Task
    kind: str  # runtime-crash | worker-killed | worker-timeout
    detail: str


@dataclasses.dataclass(frozen=True)
class Failed:
    task: Task
    message: str  # ireefuzz's own bug


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
    """Worker processes on this machine, one batch each at a time; dead or hung ones are replaced."""

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

    def poll(self, timeout: float) -> list:
        if not self._busy:
            time.sleep(timeout)
            return []
        now = time.monotonic()
        timeout = max(0.0, min(timeout, min(d for *_, d in self._busy.values()) - now))
        ready = multiprocessing.connection.wait([c for c in self._busy] + [p.sentinel for p, *_ in self._busy.values()], timeout)
        events = []
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


def crash_finding(case: Case, index: int, died: Died) -> Finding:
    g = case.graph
    return Finding("crash", died.kind, make_signature("crash", died.kind, g.op_pattern, g.dtype, g.dims),
                   f"worker {died.kind} ({died.detail}) while evaluating case {index} alone",
                   {"detail": died.detail, "case_index": index}, case.to_json())


# --------------------------------------------------------------------------- the durable record

def size_of(case: Mapping[str, Any] | None) -> tuple[int, int]:
    if not case:
        return (2 ** 62, 2 ** 62)
    c = Case.from_json(case)
    return c.elements, len(c.graph.nodes)


@dataclasses.dataclass
class SignatureStats:
    count: int = 0
    first_case_index: int | None = None
    smallest_case_index: int | None = None
    smallest: tuple[int, int] | None = None  # size of the smallest recorded example


class Record:
    """progress.jsonl + findings.jsonl, and the counts recomputed from them (the coordinator's only state)."""

    TIMELINE_POINTS = 400

    def __init__(self, out: Path, options: Options, baseline: Mapping[str, Known]) -> None:
        self.out, self.options, self.baseline = out, options, baseline
        self.stream = Stream(options)
        self.sigs: dict[str, SignatureStats] = {}
        self.recorded: set[tuple[str, int]] = set()
        self.done: dict[int, set[int]] = collections.defaultdict(set)  # local block -> done indices (incomplete blocks)
        self.complete: set[int] = set()
        self.block_coverage: dict[int, Coverage] = collections.defaultdict(Coverage)  # complete, not yet folded
        self.totals: collections.Counter[str] = collections.Counter()
        self.pipelines: collections.Counter[str] = collections.Counter()
        self.ops: collections.Counter[str] = collections.Counter()
        self.pairs: collections.Counter[str] = collections.Counter()
        self.timeline: list[tuple[float, int]] = []
        self.cpu = self.compiler_version = ""
        self.seconds = 0.0
        for row in _io.read_jsonl(out / "findings.jsonl"):
            self._note_finding(row["signature"], row["case_index"], tuple(row["size"]))
        for row in _io.read_jsonl(out / "progress.jsonl"):
            self._apply(row)

    # -- state ---------------------------------------------------------------------------
    def is_done(self, index: int) -> bool:
        k = self.stream.local_block(index)
        return k in self.complete or index in self.done.get(k, ())

    def _note_finding(self, sig: str, index: int, size: tuple[int, int]) -> None:
        s = self.sigs.setdefault(sig, SignatureStats())
        self.recorded.add((sig, index))
        if s.smallest is None or size < s.smallest:
            s.smallest, s.smallest_case_index = size, index

    def _apply(self, row: Mapping[str, Any]) -> None:
        self.seconds = max(self.seconds, row["t"])
        for key in ("compile_s", "run_s"):
            self.totals[key] += row.get(key, 0.0)
        self.cpu = row.get("cpu") or self.cpu
        self.compiler_version = row.get("version") or self.compiler_version
        for e in row["cases"]:
            i = e["i"]
            k = self.stream.local_block(i)
            self.totals["cases"] += 1
            self.totals["shape_runs"] += e["instances"]
            self.totals["discarded"] += e["discarded"]
            self.totals["worker_deaths"] += any(s.startswith("crash/") and s.split("/")[1] in DEATH_KINDS for s in e["sigs"])
            self.pipelines.update(e["pipelines"])
            names = e["ops"].split(">")
            self.ops.update(names)
            self.pairs.update(f"{a}>{b}" for a, b in zip(names, names[1:]))
            self.block_coverage[k].add(e)
            for sig in e["sigs"]:
                s = self.sigs.setdefault(sig, SignatureStats())
                s.count += 1
                s.first_case_index = i if s.first_case_index is None else min(s.first_case_index, i)
            self.done[k].add(i)
            if len(self.done[k]) == len(self.stream.indices(k)):
                self.complete.add(k)
                del self.done[k]
        self.timeline.append((row["t"], self.totals["cases"]))
        if len(self.timeline) > self.TIMELINE_POINTS:
            self.timeline = self.timeline[::2]

    # -- recording ------------------------------------------------------------------------
    def record(self, task: Task, results: Sequence[Any], seconds: float) -> None:
        """Findings first, then the progress line: a kill in between redoes the batch, and the
        (signature, index) check keeps its findings from being written twice."""
        entries = []
        for index, r in zip(task.indices, results):
            size = (r.case.elements, len(r.case.graph.nodes))
            for f in r.findings:
                s = self.sigs.get(f.signature)
                if (f.signature, index) in self.recorded or (s is not None and s.smallest is not None and size >= s.smallest):
                    continue
                example = "first" if s is None or s.smallest is None else "smaller"
                row = f.to_json() | {"case_index": index, "status": self.status(f.signature), "example": example, "size": list(size)}
                _io.append_line(self.out / "findings.jsonl", json.dumps(row, sort_keys=True, default=_io.json_default))
                self._note_finding(f.signature, index, size)
            g = r.case.graph
            entries.append({"i": index, "h": case_hash(r.case), "sigs": list(r.signatures), "pipelines": list(r.pipelines),
                            "ops": g.op_pattern, "dtype": g.dtype, "dims": g.dims, "instances": len(r.case.instances),
                            "discarded": r.discarded})
        cpu = next((r.cpu for r in results if r.cpu), "")
        version = next((r.compiler_version for r in results if r.compiler_version), "")
        row = {"t": round(seconds, 3), "cases": entries, "cpu": cpu, "version": version,
               "compile_s": round(sum(r.compile_seconds for r in results), 4), "run_s": round(sum(r.run_seconds for r in results), 4)}
        _io.append_line(self.out / "progress.jsonl", json.dumps(row, sort_keys=True))
        self._apply(row)

    def status(self, sig: str) -> str:
        return "known" if sig in self.baseline else "new"

    def new_signatures(self) -> list[str]:
        return sorted(s for s, st in self.sigs.items() if st.count and self.status(s) == "new")

    def summary(self) -> dict[str, Any]:
        t = self.totals
        seconds = max(self.seconds, 1e-9)
        signatures = {}
        for sig, s in sorted(self.sigs.items()):
            if not s.count:
                continue
            known = self.baseline.get(sig)
            signatures[sig] = {"count": s.count, "status": self.status(sig), "first_case_index": s.first_case_index,
                               "smallest_case_index": s.smallest_case_index} | (
                {"upstream": known.upstream, "note": known.note, "triage": known.status} if known else {})
        return {
            "cases": t["cases"], "graphs": t["cases"], "shape_runs": t["shape_runs"], "seconds": round(self.seconds, 2),
            "graphs_per_s": round(t["cases"] / seconds, 3), "shape_runs_per_s": round(t["shape_runs"] / seconds, 3),
            "compile_seconds": round(t["compile_s"], 2), "run_seconds": round(t["run_s"], 2),
            "discarded": t["discarded"], "worker_deaths": t["worker_deaths"], "signatures": signatures,
            "new": self.new_signatures(), "known": sorted(s for s in signatures if signatures[s]["status"] == "known"),
            "pipelines": dict(self.pipelines.most_common()), "ops": dict(self.ops.most_common()),
            "op_pairs": dict(self.pairs.most_common(40)), "timeline": [list(p) for p in self.timeline],
            "cpu": self.cpu, "compiler_version": self.compiler_version, "options": self.options.to_json(),
        }


# --------------------------------------------------------------------------- the coordinator

class Planner:
    """Hands out batches in stream order; draws block k only once blocks up to k - lag are complete."""

    def __init__(self, record: Record) -> None:
        self.record, self.options, self.stream = record, record.options, record.stream
        self.next_block = 0
        self.folded = Coverage()
        self.folded_upto = 0  # blocks [0, folded_upto) are merged into ``folded``
        self.queue: collections.deque[Task] = collections.deque()

    def exhausted(self) -> bool:
        return not self.queue and self.options.cases is not None and self.next_block * self.options.block >= self.options.cases

    def next_task(self, time_left: bool) -> Task | None:
        while not self.queue and time_left and not self.exhausted():
            if not self._draw_next():
                return None
        return self.queue.popleft() if self.queue else None

    def retry(self, task: Task) -> None:
        self.queue.extendleft(reversed(task.halves()))

    def _draw_next(self) -> bool:
        k = self.next_block
        while self.folded_upto < k - self.options.lag + 1:
            if self.folded_upto not in self.record.complete:
                return False
            self.folded.merge(self.record.block_coverage.pop(self.folded_upto, Coverage()))
            self.folded_upto += 1
        self.next_block += 1
        indices = self.stream.indices(k)
        if k in self.record.complete or not indices:
            return True
        cases = draw_block(self.options, self.stream.global_block(k), self.folded)
        todo = [(i, cases[i - indices.start]) for i in indices if not self.record.is_done(i)]
        b = self.options.batch
        for start in range(0, len(indices), b):  # the batches are fixed slices of the block
            part = [(i, c) for i, c in todo if start <= i - indices.start < start + b]
            if part:
                self.queue.append(Task(tuple(i for i, _ in part), tuple(c for _, c in part)))
        return True


def run(options: Options, out: Path, pool: Any, baseline: Mapping[str, Known], display: "Display") -> int:
    """Run (or continue) the campaign in ``out`` on ``pool``; the exit status."""
    record = Record(out, options, baseline)
    planner = Planner(record)
    offset, started = record.seconds, time.monotonic()
    elapsed = lambda: offset + time.monotonic() - started
    failure = None
    last_summary = 0.0
    rss: list[tuple[float, float]] = []  # the coordinator's own resident memory over this session
    confirm: collections.deque[Task] = collections.deque()  # lone cases that died once: rerun them alone
    confirming: set[int] = set()
    alone = False  # a confirmation is running: nothing else is submitted until it ends
    summarize = lambda: record.summary() | {"coordinator_rss_mb": [list(p) for p in rss]}
    try:
        while failure is None:
            time_left = options.time is None or elapsed() < options.time
            # A lone case that died is the culprit only if it dies again with nothing else in flight:
            # a dying worker (on Dask) also fails the tasks queued on it, which must not be blamed.
            if confirm and not pool.in_flight():
                pool.submit(confirm.popleft())
                alone = True
            while (not alone and not confirm and pool.in_flight() < pool.capacity
                   and (task := planner.next_task(time_left)) is not None):
                pool.submit(task)
            if not pool.in_flight():
                if confirm:
                    continue
                break
            events = pool.poll(1.0)
            alone = alone and not events  # the lone task is the only one in flight: any event is its end
            for event in events:
                if isinstance(event, Done):
                    record.record(event.task, event.results, elapsed())
                elif isinstance(event, Died) and len(event.task.indices) > 1:
                    planner.retry(event.task)
                elif isinstance(event, Died) and event.task.indices[0] not in confirming:
                    confirming.add(event.task.indices[0])
                    confirm.append(event.task)
                elif isinstance(event, Died):
                    case = event.task.cases[0]
                    finding = crash_finding(case, event.task.indices[0], event)
                    finding = finding.with_evidence(platform=platform_of(config=options.task_spec().config))
                    record.record(event.task, [CaseResult(case, (finding,))], elapsed())
                else:
                    failure = f"cases {list(event.task.indices)}: {event.message}; this is an ireefuzz bug"
            display.update(record, elapsed())
            if time.monotonic() - last_summary > SUMMARY_EVERY_S:
                rss.append((round(elapsed(), 1), rss_mb()))
                rss[:] = rss[::2] if len(rss) > 400 else rss
                _io.atomic_write_json(out / "summary.json", summarize())
                last_summary = time.monotonic()
    finally:
        pool.close()
        rss.append((round(elapsed(), 1), rss_mb()))
        summary = summarize()
        _io.atomic_write_json(out / "summary.json", summary)
        from ireefuzz import report

        report.write_reports(out, summary, _io.read_jsonl(out / "findings.jsonl"))
        display.finish(record, elapsed())
    if failure:
        print(f"ireefuzz fuzz: error: {failure}", file=sys.stderr)
        return 2
    return 1 if record.new_signatures() else 0


def rss_mb() -> float:
    """This process' resident set size in MB (Linux; 0 elsewhere)."""
    try:
        return round(int(Path("/proc/self/statm").read_text().split()[1]) * os.sysconf("SC_PAGE_SIZE") / 2 ** 20, 1)
    except OSError:
        return 0.0


class Display:
    """A live line on a terminal (cases/s, findings new/known); plain periodic lines otherwise."""

    def __init__(self, stream: Any = sys.stderr, every_s: float = 30.0) -> None:
        self.stream, self.tty = stream, stream.isatty()
        self.every_s = 0.5 if self.tty else every_s
        self.last = 0.0

    def line(self, record: Record, seconds: float) -> str:
        n = record.totals["cases"]
        new = len(record.new_signatures())
        known = sum(1 for s, st in record.sigs.items() if st.count and record.status(s) == "known")
        return (f"[{seconds:7.1f}s] {n} cases  {n / max(seconds, 1e-9):.2f} cases/s  findings: {new} new, {known} known  "
                f"worker deaths: {record.totals['worker_deaths']}")

    def update(self, record: Record, seconds: float) -> None:
        if time.monotonic() - self.last >= self.every_s:
            self.last = time.monotonic()
            end = "\r" if self.tty else "\n"
            print(("\x1b[2K" if self.tty else "") + self.line(record, seconds), end=end, file=self.stream, flush=True)

    def finish(self, record: Record, seconds: float) -> None:
        print(("\x1b[2K" if self.tty else "") + self.line(record, seconds), file=self.stream, flush=True)


# --------------------------------------------------------------------------- entry point

def main(args: argparse.Namespace) -> int:
    if args.resume:
        if not args.out or not (Path(args.out) / "campaign.json").exists():
            raise UsageError("--resume needs --out DIR of an earlier campaign (with DIR/campaign.json)")
        out = Path(args.out)
        options = options_from_args(args, Options.from_json(json.loads((out / "campaign.json").read_text())))
    else:
        out = Path(args.out or time.strftime("runs/%Y%m%d-%H%M%S"))
        if (out / "campaign.json").exists():
            raise UsageError(f"--out {out} already holds a campaign; add --resume to continue it, or choose another --out")
        options = options_from_args(args, None)
    workers = parse_workers(args.workers)
    baseline_path = Path(args.baseline) if args.baseline else (DEFAULT_BASELINE if DEFAULT_BASELINE.exists() else None)
    baseline = load_baseline(baseline_path)
    # the release installed, its runtime shown to load its modules (else one line, exit 2), and the
    # oracles that cannot read its IR left out
    from ireefuzz.sut import prepare

    unable = prepare(options.task_spec().config, log=lambda m: print(f"ireefuzz fuzz: {m}", file=sys.stderr))
    options = dataclasses.replace(options, oracles=tuple(o for o in options.oracles if o not in unable))
    if options.configs:
        from ireefuzz.configs import space_for

        print(f"ireefuzz fuzz: configuration space {json.dumps(space_for(options.task_spec().config).to_json())}",
              file=sys.stderr)
    spec = options.task_spec()
    if args.scheduler:
        from ireefuzz.dask_backend import DaskPool

        pool = DaskPool(args.scheduler, spec)
    else:
        pool = LocalPool(workers, spec)
    if not args.resume:  # enough blocks in flight to keep every worker busy while guidance waits
        options = dataclasses.replace(options, lag=max(2, math.ceil(2 * pool.capacity * options.batch / options.block)))
    _io.atomic_write_json(out / "campaign.json", options.to_json())
    print(f"ireefuzz fuzz: {'resuming' if args.resume else 'writing'} {out}", file=sys.stderr)
    status = run(options, out, pool, baseline, Display())
    if status == 1 and args.bundles > 0:
        bundle_new_signatures(out, options, args.bundles, args.bundle_timeout)
    return status


def bundle_new_signatures(out: Path, options: Options, limit: int, timeout: float) -> None:
    """Shrink each new signature's smallest example and write its repro bundle to ``out/bundles/<signature>``.

    Each runs as its own ``ireefuzz repro`` process (a finding may crash whoever runs it); a bundle
    already written (``finding.json`` present) is kept, so ``--resume`` does not redo it.
    """
    import subprocess

    smallest: dict[str, dict] = {}
    for row in _io.read_jsonl(out / "findings.jsonl"):  # later examples of a signature are smaller
        if row.get("status") == "new" and row.get("case"):
            smallest[row["signature"]] = row
    for signature, row in list(smallest.items())[:limit]:
        bundle = out / "bundles" / _io.slug(signature)
        if (bundle / "finding.json").exists():
            continue
        finding_file = out / "bundles" / f".{_io.slug(signature)}.finding.json"
        _io.atomic_write_text(finding_file, Finding.from_json(row).dumps())
        command = [sys.executable, "-m", "ireefuzz.cli", "repro", str(finding_file), "--out", str(bundle)]
        if options.iree_compile:
            command += ["--iree-compile", options.iree_compile]
        command += ["--release", options.release] if options.release else []
        command += ["--iree-runtime", options.iree_runtime] if options.iree_runtime else []
        print(f"ireefuzz fuzz: shrinking {signature}", file=sys.stderr)
        try:
            done = subprocess.run(command, capture_output=True, text=True, timeout=timeout)
            tail = (done.stdout + done.stderr).strip().splitlines()[-3:]
            print("  " + "\n  ".join(tail), file=sys.stderr)
        except subprocess.TimeoutExpired:
            print(f"  gave up after {timeout:.0f} s (--bundle-timeout); the finding stays in findings.jsonl",
                  file=sys.stderr)
