"""The culprit of a compile failure, by what failed.

- **A crash**: ``--mlir-print-ir-before-all``, one thread: the last pass whose input was printed before the process
  died was running. Confirmed when ``iree-opt`` running it alone on that input crashes too.
- **An unresolved libcall** (the link fails on a symbol): ``libcall``.
- **An op LLVM translation rejects** (``LLVM Translation failed for operation: X``, ``cannot be converted to LLVM
  IR ... for op: X``, or a ``failed to legalize operation 'X'`` that serialization reports): ``lineage.untranslated``,
  the conversion whose output first holds ``X`` (a cast: the instance translation names; another op: ``X`` in a
  converted ``llvm.func``).
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

import dataclasses
import re
from typing import TYPE_CHECKING, Any, Callable, Literal, Sequence

from ireefuzz.oracles.diagnostics import own_words
from ireefuzz.oracles.vocabulary import REPORTING_PASSES

from . import libcall, lineage
from .confirm import Shows, confirm, confirm_received, occurrence, received
from .log import Dump, dumps, is_adaptor, last_started
from .record import Culprit, confirmed, not_localized
from .run import ELIDE, ONE_THREAD, compile_, crashed, failing_phase, iree_opt

if TYPE_CHECKING:
    from ireefuzz.sut import CompilerConfig

_ERROR = re.compile(r"^(?:\S+:\d+:\d+: )?error: (.+)$", re.M)  # a diagnostic's line (never a line of a dump)

VERIFIER_FAILS = "the pass's output fails the verifier: "  # a crash culprit that alone leaves invalid IR


def errors(diagnostic: str) -> list[str]:
    """The messages of a diagnostic's ``error:`` lines, locations dropped."""
    return [m.group(1).strip() for m in _ERROR.finditer(diagnostic)]


def compile_failure(text: str, config: CompilerConfig, *, crashed_: bool | None = None) -> Culprit:
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
    op = lineage.untranslated_op(err)
    if op is not None:
        return lineage.untranslated(text, config, op, err, phase)
    logged = dumps(err)
    i = next((i for i, d in enumerate(logged) if d.failed and not is_adaptor(d)), None)
    if i is None:
        return not_localized("no pass reported failure under --mlir-print-ir-after-failure", phase)
    failed = logged[i]
    messages = errors(err)
    k = occurrence(logged, i)
    before = received(text, config, failed, k, module_scope=False) or ""
    kind, message = failure_kind(before, failed.body, messages, lambda: _verifier_errors(failed.body, config))
    if kind == "checker":
        checked = lineage.checker(text, config, failed, messages, phase)
        if checked.localized or failed.name in REPORTING_PASSES:
            return checked
        # not a check by its role: a transformation whose own analysis rejected the IR before it changed anything
        # (stop 48: iree-stream-schedule-execution's partitioning found a cycle, and was left "a checker")
        how = (
            f"--mlir-print-ir-after-failure: {failed.name} failed on the IR it received before changing it "
            f"({own_words(next(iter(messages), ''))}); it checks nothing by its role, and no lineage rule reads "
            "what it rejects"
        )
        return _own_error(text, config, failed, k, before, messages, phase, how)
    if kind == "invalid-ir":
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
    said = own_words(next(iter(messages), ""))
    how = f"--mlir-print-ir-after-failure: {failed.name} failed while changing the IR ({said})"
    return _own_error(text, config, failed, k, before, messages, phase, how)


def _own_error(
    text: str,
    config: CompilerConfig,
    failed: Dump,
    k: int,
    before: str,
    messages: Sequence[str],
    phase: str | None,
    how: str,
) -> Culprit:
    """A pass's own error: that pass, unless an earlier pass handed it invalid IR; confirmed when it alone, on the IR
    it received, reports the error."""
    invalid = invalid_output(text, config, phase, how)
    if invalid is not None:
        return invalid
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


FailureKind = Literal["checker", "invalid-ir", "own-error"]


def failure_kind(
    received: str, output: str, messages: Sequence[str], reverify: Callable[[], str]
) -> tuple[FailureKind, str]:
    """What a failed pass did: ("checker", "") when its output is the IR it received (it only read it);
    ("invalid-ir", message) when re-verifying its output (``reverify``: what iree-opt says) reports one of the
    compile's ``messages``; else ("own-error", its first message)."""
    if received and _same_ir(received, output):
        return "checker", ""
    reverified = reverify()
    message = next((m for m in messages if m in reverified), None)
    if message is not None:
        return "invalid-ir", message
    return "own-error", messages[0] if messages else ""


def first_invalid_index(outputs: Sequence[str], verifies: Callable[[str], bool]) -> int | None:
    """The index of the first IR of ``outputs`` (each pass's, in order) that does not verify, when the last does not
    (binary search: an invalid IR stays invalid until a pass fails on it); None when the last verifies."""
    if not outputs or verifies(outputs[-1]):
        return None
    low, high = 0, len(outputs) - 1
    while low < high:
        mid = (low + high) // 2
        if verifies(outputs[mid]):
            low = mid + 1
        else:
            high = mid
    return low


def _verifier_errors(ir: str, config: CompilerConfig) -> str:
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


def crash(text: str, config: CompilerConfig, phase: str | None) -> Culprit:
    """The pass running when iree-compile died, confirmed by a crash of that pass alone on its input."""
    code, _, err = compile_(text, config, ["--mlir-print-ir-before-all", ONE_THREAD, ELIDE])
    d = last_started(err)
    if code == 0 or d is None:
        return not_localized("the crash did not recur under --mlir-print-ir-before-all", phase, "crash")
    state = crash_state(code, err)
    invalid = invalid_output(text, config, phase, f"{d.name} crashes ({state_line(state)})")
    if invalid is not None:
        return invalid
    how = (
        "--mlir-print-ir-before-all --mlir-disable-threading: the pass running when iree-compile died "
        f"({state_line(state)})"
    )

    def shows(code: int | None, out: str, err: str) -> list[str]:
        again = crash_state(code, err)
        if crashed(code, err) and again == state:
            return [f"iree-opt dies the same way: {state_line(again)}"]
        if code not in (0, None) and not crashed(code, err) and (verifier := errors(err)):
            # alone, the pass breaks the IR it was given (valid: checked below) and its verifier says so
            return [f"iree-opt does not crash, but {VERIFIER_FAILS}{verifier[0]}"]
        return []

    found, out, ran_on = None, "", d.body
    for ir_in in (d.body, _module_before(text, config, d)):
        if ir_in and not _verifier_errors(ir_in, config):  # the pass received valid IR
            found, out = confirm(d.spec or d.name, ir_in, config, shows)
            if found is not None:
                ran_on = ir_in
                break
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


def first_invalid(text: str, config: CompilerConfig) -> tuple[Dump, str, str] | None:
    """(the first pass whose output ``iree-opt`` cannot parse and verify, the module it received, the message), from
    module-scope dumps after every pass, when the last one is invalid (the in-process verifier can miss what a
    round trip through the printer shows); None when the last pass's output verifies. A failed pass's dump is no
    output: it is what the pass left mid-change, which no pass received (stop 47's stream-conversion error had been
    called invalid IR it received, its own dump being the first invalid one)."""
    _, _, err = compile_(text, config, ["--mlir-print-ir-after-all", "--mlir-print-ir-module-scope", ONE_THREAD, ELIDE])
    outputs = [d for d in dumps(err) if d.when == "After" and not d.failed and not is_adaptor(d)]
    low = first_invalid_index([d.body for d in outputs], lambda ir: not _verifier_errors(ir, config))
    if low is None:
        return None
    received = outputs[low - 1].body if low else text
    if _verifier_errors(received, config):
        return None  # not monotone: no single pass to name
    message = next(iter(errors(_verifier_errors(outputs[low].body, config))), "")
    return outputs[low], received, message


def invalid_output(text: str, config: CompilerConfig, phase: str | None, consequence: str) -> Culprit | None:
    """The first pass whose output is invalid IR, when an invalid module reached the failing pass (``consequence``:
    what it led to), confirmed by the pass alone on its input giving output that fails to parse or verify."""
    found = first_invalid(text, config)
    if found is None:
        return None
    d, received, message = found
    how = (
        f"{consequence}; the IR it received is invalid: re-verifying the module after every pass (iree-opt), the "
        f"first invalid one is {d.name}'s output ({message})"
    )

    def shows(code: int | None, out: str, err: str) -> list[str]:
        if message and message in err:
            return [line for line in err.splitlines() if "error:" in line][:2]
        again = _verifier_errors(out, config) if code == 0 else ""
        return (
            [f"parsed again: {line}" for line in again.splitlines() if "error:" in line][:2] if message in again else []
        )

    confirmation, out = confirm(d.spec or d.name, received, config, shows)
    if confirmation is not None and confirmation.shows[0].startswith("parsed again"):
        confirmation = dataclasses.replace(confirmation, reparse=True)
    return confirmed(
        phase,
        d.name,
        how,
        received,
        out,
        "invalid-ir",
        confirmation,
        f"iree-opt running {d.name} alone on its input gives valid IR",
    )


_HANDLER_FRAMES = ("llvm::sys::", "SignalHandler", "libc.so", "libpthread", "__restore_rt", "abort")
_FRAME = re.compile(r"^\s*#\d+ 0x[0-9a-f]+ (.+?)(?: \S+:\d+:\d+)?$", re.M)


def crash_state(code: int | None, err: str, frames: int = 2) -> tuple[Any, ...]:
    """What identifies a crash: the signal, and the first frames of its stack below the signal handling."""
    names = [f for f in _FRAME.findall(err) if not any(h in f for h in _HANDLER_FRAMES)]
    return (code if code is not None and code < 0 else None, *names[:frames])


def state_line(state: tuple[Any, ...]) -> str:
    signal = f"signal {-state[0]}" if state[0] else "a crash report"
    return f"{signal} in {' < '.join(str(f) for f in state[1:]) or 'no frame'}"


def _module_before(text: str, config: CompilerConfig, d: Any) -> str | None:
    """The whole module the last run of ``d``'s pass received."""
    _, _, err = compile_(
        text, config, [f"--mlir-print-ir-before={d.name}", "--mlir-print-ir-module-scope", ONE_THREAD, ELIDE]
    )
    runs = [x for x in dumps(err) if x.when == "Before" and x.name == d.name]
    return runs[-1].body if runs else None
