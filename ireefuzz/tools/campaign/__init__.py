"""``ireefuzz fuzz``: the nightly campaign. Parallel, crash-isolated, batched, deduplicated, resumable.

Files in ``--out DIR`` (all written with ``ireefuzz.base.durable``; a kill -9 at any moment loses nothing recorded):

- ``campaign.json``  the options that define the campaign (``--resume`` reads them back);
- ``.lock``          held (``flock``) while a campaign runs in DIR: a second one, or a ``--resume``, is refused;
- ``progress.jsonl``, ``findings.jsonl``: the durable record (``record``);
- ``summary.json``, ``summary.md``, ``junit.xml``, ``report.html`` (see ``ireefuzz.tools.campaign.report``).

Determinism. The case stream is cut in blocks of ``BLOCK`` cases. Global block ``b`` belongs to shard
``b % n``; its cases have indices ``b*BLOCK .. b*BLOCK+BLOCK-1``, so shards are disjoint by construction.
A block is a pure function of (seed, shard, index) and the coverage of the blocks before it
(``guidance``), so ``--resume`` redraws exactly the cases it had.
The loop draws a block on a background thread while the workers compile; where and when it is
drawn changes nothing.

Time accounting. Every progress line carries the seconds its batch took per activity in the worker
(``evaluate.CLOCK``: emit, compile, IR, run, float64, JAX, ...) and the coordinator's since the line
before (drawing, its own work, waiting); ``summary.json``'s ``time_accounting`` sums them, with the idle
worker seconds and the compile share (``record.ACTIVITIES``).

Modules, each one job (none imports the loop but ``__init__``):

- ``options``    the command line, ``Options`` (campaign.json) and their checks;
- ``lock``       one campaign per output directory;
- ``baseline``   the known findings;
- ``guidance``   the case stream, its blocks and the coverage that steers them;
- ``pool``       the worker protocol (``Pool``, ``Task``, ``Done``/``Died``/``Failed``, ``evaluate_task``);
- ``local_pool`` / ``dask_pool``  its two implementations (worker processes here; a Dask cluster);
- ``record``     progress.jsonl + findings.jsonl and the counts, per signature and per cause, recomputed from them;
- ``causes``     per-cause stats and the nightly diff (new / still present / gone / back again);
- ``runs``       a run directory: open it, compare with it, write its summary and reports;
- ``loop``       the planner and the coordinator loop (crash bisection);
- ``display``    the live line;
- ``bundling``   one repro bundle per new cause after the campaign;
- ``triage`` / ``diff``  the ``ireefuzz triage RUN_DIR`` and ``ireefuzz diff A B`` commands.

Every finding has a cause (``oracles.cause``: what one upstream issue would cover) beside its
signature. Exit status: 0 = no new cause, 1 = a new cause (not in the baseline, nor in the
``--compare`` run or its history; once bundled, one that its experiments did not find a known cause's duplicate:
``filing.experiments``), 2 = the campaign itself failed.
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import math
import socket
import sys
import time
import urllib.parse
from pathlib import Path

from ireefuzz import __version__
from ireefuzz.base import durable as _io
from ireefuzz.errors import UsageError
from ireefuzz.tools.baseline import baseline_path
from ireefuzz.tools.baseline import load as load_baseline

from .lock import held
from .options import Options, bundle_limit, configure, options_from_args, parse_scheduler, parse_workers, writable_dir
from .pool import EvalSpec, Pool
from .record import Record
from .runs import previous_run, read_options, write_outputs

__all__ = ["configure", "main"]

SCHEDULER_CONNECT_S = 10.0  # a scheduler that does not answer by then is not there


def main(args: argparse.Namespace) -> int:
    if getattr(args, "model", None):  # a user's JAX model: its own small loop (ireefuzz.tools.jax_model)
        from ireefuzz.tools import jax_model

        return jax_model.fuzz_main(args)
    scheduler = parse_scheduler(args.scheduler) if args.scheduler else None
    out, options = _campaign_dir(args)
    with held(out):  # one campaign per --out, for its whole life (bundling included)
        return _run(args, out, options, scheduler)


def _run(args: argparse.Namespace, out: Path, options: Options, scheduler: str | None) -> int:
    workers, bundles = parse_workers(args.workers), bundle_limit(args.bundles)
    baseline = load_baseline(baseline_path(args.baseline)).judging(
        __version__
    )  # this run's ireefuzz (harness verdicts)
    previous = previous_run(Path(args.compare), baseline) if args.compare else None
    if args.resume:
        Record(out, options, baseline, previous)  # a damaged record: one line now, before any worker starts
    options, spec = _prepared(options)
    pool = _pool(scheduler, workers, spec)
    if not args.resume:  # enough blocks in flight to keep every worker busy while guidance waits
        options = dataclasses.replace(options, lag=max(2, math.ceil(2 * pool.capacity * options.batch / options.block)))
    _io.atomic_write_json(out / "campaign.json", options.to_json())
    print(f"ireefuzz fuzz: {'resuming' if args.resume else 'writing'} {out}", file=sys.stderr)
    from .display import Display
    from .loop import exit_status, run

    status = run(options, out, pool, baseline, Display(), previous, spec=spec)
    # red only for a cause that survived its experiments; with --bundles 0 none is bundled, but a new cause's
    # compile timeouts are still confirmed as hangs (a loaded machine's slow compile is no finding)
    if status == 1:
        status = exit_status(bundle_causes(Record(out, options, baseline, previous), bundles, args.bundle_timeout))
    return status


def bundle_causes(record: Record, limit: int | None, timeout: float) -> Record:
    """Bundle the new causes of ``record``'s run, then rewrite its summary and reports (they name the bundles and
    their experiments' verdicts); the run's record after."""
    from .bundling import bundle_new_causes
    from .runs import read_summary

    started = time.perf_counter()
    after = record
    if bundle_new_causes(record, limit, timeout):
        spent = read_summary(record.out).get("bundling_seconds", 0.0) + time.perf_counter() - started
        after = Record(record.out, record.options, record.baseline, record.previous)
        write_outputs(record.out, after, bundling_seconds=round(spent, 2))
    return after


def _prepared(options: Options) -> tuple[Options, EvalSpec]:
    """The compiler found, a release installed and its runtime shown to load its modules (else one line,
    exit 2); the oracles that cannot read that release's IR left out. The options so, and how every batch is
    evaluated: the configuration resolved once (``sut.Setup``), handed to the pool, the loop and the drawing."""
    from ireefuzz.sut import prepared, require_usable

    setup = prepared(options.compiler_config(), log=lambda m: print(f"ireefuzz fuzz: {m}", file=sys.stderr))
    unable, why = setup.toolchain.unable, dict(setup.toolchain.not_judged or {})
    options = dataclasses.replace(
        options,
        oracles=tuple(o for o in options.oracles if o not in unable),
        oracles_not_judged=tuple(f"{o}: {why[o]}" for o in options.oracles if o in unable),
    )
    require_usable(setup.config)  # a drawn configuration (--configs) keeps to what this compiler has
    if options.configs:
        from ireefuzz.sut.config_space import space_for

        print(
            f"ireefuzz fuzz: configuration space {json.dumps(space_for(setup.config).to_json())}",
            file=sys.stderr,
        )
    return options, options.task_spec(setup)


def _campaign_dir(args: argparse.Namespace) -> tuple[Path, Options]:
    """The output directory and the campaign's options (read back from it with --resume)."""
    if args.resume:
        if not args.out or not (Path(args.out) / "campaign.json").exists():
            raise UsageError("--resume needs --out DIR of an earlier campaign (with DIR/campaign.json)")
        out = Path(args.out)
        return out, options_from_args(args, read_options(out))
    out = Path(args.out or time.strftime("runs/%Y%m%d-%H%M%S"))
    if (out / "campaign.json").exists():
        raise UsageError(f"--out {out} already holds a campaign; add --resume to continue it, or choose another --out")
    options = options_from_args(args, None)
    return writable_dir(out), options


def _pool(scheduler: str | None, workers: int, spec: EvalSpec) -> Pool:
    if scheduler:
        from .dask_pool import DaskPool

        address = urllib.parse.urlsplit(scheduler)
        try:  # a refused connection is said at once; distributed would retry it until its timeout
            port = address.port or 8786  # distributed's default scheduler port
            socket.create_connection((address.hostname, port), timeout=SCHEDULER_CONNECT_S).close()
            return DaskPool(scheduler, spec, connect_timeout_s=SCHEDULER_CONNECT_S)
        except OSError as e:  # distributed's connect timeout, a refused or unreachable host
            raise UsageError(
                f"--scheduler {scheduler}: cannot connect ({e}); start the scheduler, or drop "
                "--scheduler to run on local workers"
            ) from None
    from .local_pool import LocalPool

    return LocalPool(workers, spec)
