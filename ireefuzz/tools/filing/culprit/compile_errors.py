"""The culprit of a compile failure, by what failed.

- **A crash**: ``--mlir-print-ir-before-all``, one thread: the last pass whose input was printed before the process
  died was running. Confirmed when ``iree-opt`` running it alone on that input crashes too.
- **An unresolved libcall** (the link fails on a symbol): ``libcall``.
- **Invalid IR**: iree-compile verifies the IR after every pass (MLIR's pass manager does by default), so the first
  verifier failure stops the compile at the first pass whose output is invalid; ``--mlir-print-ir-after-failure``
  prints that output, and ``iree-opt`` re-verifying it fails with the compile's own message. That pass is the
  culprit, confirmed when it alone, on the IR it received (which verifies), reports that message.
- **A checker's error**: a failed pass whose output is its input (it only read the IR) reports what an earlier pass
  made: ``lineage`` follows the op it rejects back to the pass that made it.
- **A pass's own error** (it failed while changing the IR): that pass, confirmed when it alone reports the error.

The phase is the first ``--compile-to`` phase whose compile fails.
"""

from __future__ import annotations

import re
from typing import Any

from . import libcall, lineage
from .confirm import Shows, confirm, confirm_received, occurrence, received
from .log import dumps, is_adaptor, last_started
from .record import Culprit, confirmed, not_localized
from .run import ELIDE, ONE_THREAD, compile_, crashed, failing_phase, iree_opt

_ERROR = re.compile(r"error: (.+)")


def errors(diagnostic: str) -> list[str]:
    """The messages of a diagnostic's ``error:`` lines, locations dropped."""
    return [m.group(1).strip() for m in _ERROR.finditer(diagnostic)]


def compile_failure(text: str, config: Any, *, crashed_: bool | None = None) -> Culprit:
    """The culprit of a compile error or crash of ``text``."""
    code, _, err = compile_(text, config, ["--mlir-print-ir-after-failure", ONE_THREAD, ELIDE])
    if code == 0:
        return not_localized("the program compiles")
    died = crashed_ if crashed_ is not None else crashed(code, err)
    phase = failing_phase(text, config)
    if died:
        return crash(text, config, phase)
    if libcall.unresolved(err):
        return libcall.culprit(text, config, err, phase)
    logged = dumps(err)
    i = next((i for i, d in enumerate(logged) if d.failed and not is_adaptor(d)), None)
    if i is None:
        return not_localized("no pass reported failure under --mlir-print-ir-after-failure", phase)
    failed = logged[i]
    messages = errors(err[: err.find("// -----// IR Dump")] if "// -----//" in err else err)
    k = occurrence(logged, i)
    before = received(text, config, failed, k, module_scope=False) or ""
    if before and _same_ir(before, failed.body):
        return lineage.checker(text, config, failed, messages, phase)
    reverified = _verifier_errors(failed.body, config)
    message = next((m for m in messages if m in reverified), None)
    if message is not None:
        how = (
            f"--mlir-print-ir-after-failure: {failed.name} is the first pass whose output fails the verifier "
            f"(iree-compile verifies after every pass; iree-opt re-verifying its output reports: {message})"
        )
        if before and _verifier_errors(before, config):
            return not_localized(f"{how}; but the IR it received does not verify either", phase, "invalid-ir")
        found, ran_on, _ = confirm_received(text, config, failed, k, before, _reports(message))
        return confirmed(
            phase,
            failed.name,
            how,
            ran_on,
            failed.body,
            "invalid-ir",
            found,
            f"iree-opt running {failed.name} alone on the IR it received does not report it",
        )
    how = f"--mlir-print-ir-after-failure: {failed.name} failed while changing the IR ({'; '.join(messages[:1])})"
    found, ran_on, _ = confirm_received(text, config, failed, k, before, _reports(messages[0] if messages else ""))
    return confirmed(
        phase,
        failed.name,
        how,
        ran_on,
        failed.body,
        "",
        found,
        f"iree-opt running {failed.name} alone on the IR it received does not report the error",
    )


def _verifier_errors(ir: str, config: Any) -> str:
    """What ``iree-opt`` says re-verifying ``ir`` ("" when it verifies)."""
    code, _, err = iree_opt(ir, "", config)
    return "" if code == 0 else err


def _reports(message: str) -> Shows:
    """A confirmation test: the run fails reporting ``message``."""

    def shows(code: int | None, out: str, err: str) -> list[str]:
        if not message or code == 0 or message not in err:
            return []
        return [line for line in err.splitlines() if "error:" in line][:3]

    return shows


def _same_ir(a: str, b: str) -> bool:
    """The same printed IR, whitespace aside (a checker's output is its input)."""
    return a.split() == b.split()


def crash(text: str, config: Any, phase: str | None) -> Culprit:
    """The pass running when iree-compile died, confirmed by a crash of that pass alone on its input."""
    code, _, err = compile_(text, config, ["--mlir-print-ir-before-all", ONE_THREAD, ELIDE])
    d = last_started(err)
    if code == 0 or d is None:
        return not_localized("the crash did not recur under --mlir-print-ir-before-all", phase, "crash")
    how = "--mlir-print-ir-before-all --mlir-disable-threading: the pass running when iree-compile died"

    def shows(code: int | None, out: str, err: str) -> list[str]:
        if not crashed(code, err):
            return []
        lines = err.splitlines()
        start = next((i for i, line in enumerate(lines) if "Stack dump:" in line or "PLEASE submit" in line), 0)
        frames = [line for line in lines[start:] if re.match(r"\s*#\d+ ", line)][:6]
        return [f"iree-opt exits with {code}", *frames]

    found, out = confirm(d.spec or d.name, d.body, config, shows)
    ran_on = d.body
    if found is None:
        module = _module_before(text, config, d)
        if module:
            found, out = confirm(d.spec or d.name, module, config, shows)
            ran_on = module if found else ran_on
    return confirmed(
        phase,
        d.name,
        how,
        ran_on,
        "",
        "crash",
        found,
        f"iree-opt running {d.name} alone on the IR it received does not crash",
    )


def _module_before(text: str, config: Any, d: Any) -> str | None:
    """The whole module the last run of ``d``'s pass received."""
    _, _, err = compile_(
        text, config, [f"--mlir-print-ir-before={d.name}", "--mlir-print-ir-module-scope", ONE_THREAD, ELIDE]
    )
    runs = [x for x in dumps(err) if x.when == "Before" and x.name == d.name]
    return runs[-1].body if runs else None
