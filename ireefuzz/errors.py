"""Every exception ireefuzz raises on purpose, under one base (as Hypothesis' ``errors.py``).

Layer 0: imports nothing of ireefuzz. Faces map ``UsageError`` and its kin to one line and exit 2;
anything else escaping is ireefuzz's own bug and is never swallowed.
"""

from __future__ import annotations


class IreefuzzError(Exception):
    """Base of every deliberate ireefuzz error."""


class UsageError(IreefuzzError):
    """Bad input from the user; the message says what to do. Exit status 2."""


class IreeNotFound(IreefuzzError, RuntimeError):
    """The IREE compiler or runtime is missing; the message says how to install it."""


class GraphError(IreefuzzError, ValueError):
    """A graph (or a graph JSON file) is not well-formed; the message says where."""


class CorpusError(GraphError):
    """A corpus file (case.json, known_findings.json, a bundle) is malformed; the message says which and why."""


class OverBudget(UsageError):
    """Running the work would take more memory than the budget (``--max-memory``); estimated before it is
    spent, from the types and shapes. The user's own program: one line, exit 2; a campaign case: not judged."""


class ProgramError(IreefuzzError, ValueError):
    """The program text cannot be parsed or has a signature ireefuzz cannot feed."""


class ExportError(IreefuzzError, RuntimeError):
    """JAX could not trace or export a graph (a limit of the StableHLO path, never an IREE finding)."""


class IRParseError(IreefuzzError, ValueError):
    """Captured IR text that the MLIR bindings cannot parse (an infrastructure problem)."""

    def __init__(self, diagnostic: str, text: str, head_lines: int = 8):
        head = "\n".join(text.splitlines()[:head_lines])
        super().__init__(f"{diagnostic.strip()}\n--- first {head_lines} lines of the IR ---\n{head}")


class NotInteresting(IreefuzzError, ValueError):
    """The starting case does not show the signature it is to be shrunk under."""


class CorpusFailure(IreefuzzError, AssertionError):
    """A corpus check failed; the message is the repro."""


# What the faces report as one line and exit 2 (usage, missing IREE, malformed input files).
USER_ERRORS = (UsageError, IreeNotFound, GraphError, ProgramError)


class NotInterpretable(IreefuzzError):
    """The reference interpreter meets an op (or undefined behaviour) it cannot judge: "op NAME".

    The numeric oracle then says "not judged: op NAME"; never a finding, never a silent pass."""
