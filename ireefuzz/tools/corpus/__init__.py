"""The corpus: cases as data, each one a pytest test. This docstring is THE description of the layout.

Layout
------
One directory per case, anywhere under a corpus root (``corpus/seeds/<name>/``,
``corpus/regressions/<name>/``)::

    <name>/
      case.json      the case (below); the file pytest collects
      program.mlir   the MLIR program. For a raw-MLIR case it IS the case; for a graph case it is
                     emitted from the graph (function ``@main``) so a human can run iree-compile on it

``case.json`` is one JSON object, written atomically (temp file + fsync + rename), in one of two
forms that share the trailing keys:

* graph case: the keys of ``Case.to_json()`` -- ``graph``, ``instances`` (one ``{symbol: size}``
  per shape instance), ``seed``, ``target_cpu``, ``flags``. A repro bundle's ``case.json`` is
  therefore already a corpus case. Checked through ``ireefuzz.core.evaluate`` (numeric, immutability,
  crash, memory, fusion), plus the metamorphic relations listed in ``relations``.
* raw-MLIR case: ``"mlir": "program.mlir"`` (the program file, relative to the directory),
  ``"functions": [...]`` (public functions to check; empty = all), ``"shapes": {"fn": [[33, 16],
  [16, 49]]}`` (one concrete shape per argument for dynamic dims; default 33 each), ``seed``,
  ``target_cpu``, ``flags``. Checked through ``ireefuzz.tools.check.check_program`` (crash, memory,
  fusion, immutability, numeric via the host-vs-generic CPU relation).

Shared keys:

* ``expected``: per-oracle verdict, the finding signatures that oracle is expected to report on every target
  the case was recorded for, e.g. ``{"memory": ["memory/alloca/fill>matmul>generic[exp]/f32/?x?"]}``. An oracle
  not listed is expected to report nothing.
* ``expected_by_level`` (optional): what codegen shows beyond ``expected`` at each x86-64 level recorded, the
  part that depends on the vector width or the ISA::

      "expected": {"memory": ["memory/alloca/fill>matmul>generic[exp]/f32/SxSxS"]},
      "expected_by_level": {"x86-64": {}, "x86-64-v3": {},
                            "x86-64-v4": {"memory": ["memory/copy/fill>matmul>generic[exp]/f32/SxSxS"]}},
      "cpu": "x86-64",

  A target is at the highest recorded level whose features it has (``host`` on an AVX2 machine is at
  ``x86-64-v3``, on an AVX-512 one at ``x86-64-v4``), decided by features, never by CPU names; it must show
  ``expected`` plus its level's part, nothing more. A signature of another level's part is not asserted there
  (skipped, saying so).
* ``cpu``: the CPU whose features ``expected`` needs: the least level recorded (``x86-64``: every x86-64 host),
  or a pinned ``target_cpu``. A target without them (below every recorded level) has no recorded verdict: a
  verdict that does not hold there is *skipped* with the reason (re-record), never reported as an IREE change.
  A file without ``expected_by_level`` (the format before it, ``"cpu": "znver5"``: the CPU it was recorded on)
  has ``cpu`` as its one level.
* ``compile_only`` (bool): compile and read the IR (memory, fusion, crash) but never run, for
  cases whose inputs would be too large (a graph case is then checked as raw MLIR).
* ``relations``: metamorphic relations to run on a graph case (``shape``, ``dps``, ``config``).
* ``ireefuzz_version``, ``iree_version``: what the expectations were recorded with.
* ``note``: free text (where the case comes from, what it shows).

A case never runs code this host cannot execute: a target CPU with features the host lacks (``target_cpu:
x86-64-v4`` on an AVX2 machine, ``sut.config_space.cannot_run``) is compiled and judged on its IR, and its verdicts
that need a run (numbers, immutability, a run-time crash: ``seen_without_running``) are *not judged*, skipped
with the reason -- never a pass, never a crash finding. ``IREEFUZZ_HOST_CPU=x86-64-v3`` takes this machine as
that level (``sut.host_cpu``): ``host`` compiles for it and only its features may run, so an AVX-512 machine
shows what an AVX2 one does. ``record`` measures the verdicts per level (``RECORD_LEVELS``; a level the host
cannot run is compiled only, its run-time verdicts kept from the previous record): ``corpus/make_seeds.py
--record``.

Under pytest every expected signature is its own item, a *strict xfail* keyed by the signature:
while IREE still shows the finding the item xfails; when IREE is fixed it XPASSes, which strict
mode turns into a failure, telling you to update the expectation. Another item per case fails on
any *unexpected* finding, with a repro (the program path and the exact iree-compile command).

The known-findings baseline (``corpus/known_findings.json``: a verdict per cause) is read and written
by ``ireefuzz.tools.baseline`` alone, for the campaign, the corpus and the plugin.

The project's own corpus ships in the wheel as package data (``ireefuzz._corpus``):
``default_root()`` and ``default_baseline()`` find it without a checkout. ``promote`` takes repro
bundles (``ireefuzz.tools.filing.bundle``) and refuses case names that are not one path component.


The package: ``format`` (``CorpusCase``, load / write / iterate), ``check`` (running a case, its target,
recording its verdicts) and ``promote``; the pytest items that check a case live with the plugin
(``ireefuzz.pytest_items``).
"""

from __future__ import annotations

from ireefuzz.errors import CorpusError
from ireefuzz.tools.corpus.check import (
    RECORD_LEVELS,
    Target,
    as_recorded,
    check_case,
    compile_command,
    record,
    repro_message,
    seen_without_running,
    target_of,
    verdicts,
)
from ireefuzz.tools.corpus.format import (
    CASE_FILE,
    PROGRAM_FILE,
    CorpusCase,
    default_baseline,
    default_root,
    iter_cases,
    load_case,
    write_case,
)
from ireefuzz.tools.corpus.promote import configure, main, promote

__all__ = [
    "CASE_FILE",
    "PROGRAM_FILE",
    "RECORD_LEVELS",
    "CorpusCase",
    "CorpusError",
    "Target",
    "as_recorded",
    "check_case",
    "compile_command",
    "configure",
    "default_baseline",
    "default_root",
    "iter_cases",
    "load_case",
    "main",
    "promote",
    "record",
    "repro_message",
    "seen_without_running",
    "target_of",
    "verdicts",
    "write_case",
]
