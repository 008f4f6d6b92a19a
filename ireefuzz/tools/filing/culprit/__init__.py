"""Which IREE pass a finding comes from: the pass that introduces the defect, measured and confirmed, never guessed.

``of_finding`` picks the method by what failed, and returns a ``Culprit`` (``finding.json``'s ``culprit``: phase,
pass, how, method and the confirming one-pass ``iree-opt`` command). The IR the pass received and produced go into
the bundle (``culprit_before.mlir`` / ``culprit_after.mlir``). The methods, one module each:

- ``compile_errors``: a crash (the pass running), invalid IR (the first pass whose output fails the verifier),
  a checker's error (``lineage``: the pass that made what it rejects), an op LLVM translation rejects (``lineage``:
  the conversion whose output first holds it), a pass's own error;
- ``libcall``: an unresolved libcall (the pass that should have expanded or lowered the op);
- ``memory``: a memory finding (``lineage`` from the first pass whose output holds the op);
- ``values``: wrong values (translation validation with the float64 interpreter: phases, then each pass; in
  codegen each dispatch on its bindings, ``dispatch``).

Every named pass is confirmed by ``confirm``: ``iree-opt`` running that pass alone on ``culprit_before.mlir`` shows
the defect (the verifier's error, the op, the crash, other values). Otherwise: not localized.
Below them: ``record`` (the values), ``log`` (reading dumps), ``run`` (running IREE through ``sut``), ``unwrap``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ireefuzz.oracles.registry import spec_of

from .compile_errors import compile_failure
from .lineage import rejected_form
from .log import Dump, dumps, failing_pass, first_after, last_started
from .memory import memory, memory_holds
from .record import Confirmation, Culprit, not_localized
from .run import PHASES, failing_phase
from .unwrap import unwrap
from .values import CONST_EVAL_OFF, first_pass_differing, interpret, wrong_values

if TYPE_CHECKING:
    from ireefuzz.sut import CompilerConfig


def of_finding(finding: Any, program: str, case: Any, config: CompilerConfig) -> Culprit:
    """The measured culprit for ``finding`` on ``program`` (the method for its oracle and kind)."""
    method = spec_of(finding.oracle).culprit(finding.kind)  # how its oracle's findings are localized
    if method == "compile-error":
        if finding.kind == "compile-timeout":
            return not_localized("a compile timeout names no failing pass", method="crash")
        return compile_failure(program, config, crashed_=finding.kind == "compile-crash")
    if method == "memory-op":
        return memory(program, finding.kind, config, finding.evidence)
    if method == "wrong-value" and case is not None and case.args is not None:
        return wrong_values(program, case.function, case.inputs(0), config)
    return not_localized(
        f"{finding.oracle}/{finding.kind} findings are not localized: no pass's IR "
        "output is compared for them (a fusion or an immutability finding)"
    )


__all__ = [
    "CONST_EVAL_OFF",
    "PHASES",
    "Confirmation",
    "Culprit",
    "Dump",
    "compile_failure",
    "dumps",
    "failing_pass",
    "failing_phase",
    "first_after",
    "first_pass_differing",
    "interpret",
    "last_started",
    "memory",
    "memory_holds",
    "not_localized",
    "of_finding",
    "rejected_form",
    "unwrap",
    "wrong_values",
]
