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

* ``expected``: per-oracle verdict, the finding signatures that oracle is expected to report,
  e.g. ``{"memory": ["memory/alloca/fill>matmul>generic[exp]/f32/?x?"], "numeric": []}``. An oracle
  not listed is expected to report nothing.
* ``compile_only`` (bool): compile and read the IR (memory, fusion, crash) but never run, for
  cases whose inputs would be too large (a graph case is then checked as raw MLIR).
* ``relations``: metamorphic relations to run on a graph case (``shape``, ``dps``, ``config``).
* ``ireefuzz_version``, ``iree_version``, ``cpu``: what the expectations were recorded with (``cpu``
  is what ``target_cpu`` resolved to, e.g. ``host`` -> ``znver5``). Codegen depends on the CPU: on a
  machine where it resolves differently, a verdict that does not hold is *skipped* with the reason
  (re-record there), never reported as an IREE change.
* ``note``: free text (where the case comes from, what it shows).

Under pytest every expected signature is its own item, a *strict xfail* keyed by the signature:
while IREE still shows the finding the item xfails; when IREE is fixed it XPASSes, which strict
mode turns into a failure, telling you to update the expectation. Another item per case fails on
any *unexpected* finding, with a repro (the program path and the exact iree-compile command).

The known-findings baseline (``corpus/known_findings.json``: a verdict per cause) is read and written
by ``ireefuzz.tools.baseline`` alone, for the campaign, the corpus and the plugin.

The project's own corpus ships in the wheel as package data (``ireefuzz._corpus``):
``default_root()`` and ``default_baseline()`` find it without a checkout. ``promote`` takes repro
bundles (``ireefuzz.tools.filing.bundle``) and refuses case names that are not one path component.


The package: ``format`` (``CorpusCase``, load / write / iterate), ``check`` (running a case) and
``promote``; the pytest items that check a case live with the plugin (``ireefuzz.pytest_items``).
"""

from __future__ import annotations

from ireefuzz.errors import CorpusError
from ireefuzz.tools.corpus.check import check_case, compile_command, repro_message, verdicts
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
    "CorpusCase",
    "CorpusError",
    "check_case",
    "compile_command",
    "configure",
    "default_baseline",
    "default_root",
    "iter_cases",
    "load_case",
    "main",
    "promote",
    "repro_message",
    "verdicts",
    "write_case",
]
