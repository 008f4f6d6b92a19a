"""The culprit record: which pass, found how, and the one-pass run that confirms it.

``Culprit`` is what ``finding.json`` carries as ``culprit``. ``pass`` is the pass's registered name (its
command-line argument), or None: not localized. A named pass always carries its ``Confirmation``: ``iree-opt``
running that pass alone on ``culprit_before.mlir`` (``ir_before``) shows the defect, and the lines that show it.
``confirmed`` is the one way to name a pass.
"""

from __future__ import annotations

import dataclasses
import shlex
from typing import Any, Literal

Method = Literal["invalid-ir", "checker", "crash", "libcall", "untranslated", "memory", "wrong-value", "aliasing", ""]
BEFORE_FILE = "culprit_before.mlir"  # the bundle's copy of ir_before: what the confirming command reads


@dataclasses.dataclass(frozen=True)
class Confirmation:
    pipeline: str  # the --pass-pipeline that ran the culprit pass alone
    shows: tuple[str, ...]  # what its run printed (or what its output computes) that is the defect
    extra: tuple[str, ...] = ()  # further iree-opt flags
    reparse: bool = False  # the defect shows when the pass's output is parsed again (``| iree-opt``)
    context: tuple[str, ...] = ()  # what else the report shows beside the defect (a sibling op's run), never checked

    @property
    def command(self) -> str:
        """The command as a maintainer runs it, on the bundle's ``culprit_before.mlir``."""
        run = shlex.join(["iree-opt", f"--pass-pipeline={self.pipeline}", *self.extra, BEFORE_FILE])
        return f"{run} | iree-opt" if self.reparse else run

    def to_json(self) -> dict[str, Any]:
        return {
            "command": self.command,
            "pipeline": self.pipeline,
            "shows": list(self.shows),
            "context": list(self.context),
        }


@dataclasses.dataclass(frozen=True)
class Culprit:
    phase: str | None
    pass_: str | None  # the registered name, or None: not localized
    how: str
    ir_before: str = ""
    ir_after: str = ""
    method: Method = ""
    confirm: Confirmation | None = None

    def to_json(self) -> dict[str, Any]:
        return {
            "phase": self.phase,
            "pass": self.pass_,
            "how": self.how,
            "method": self.method or None,
            "confirm": self.confirm.to_json() if self.confirm else None,
        }

    @property
    def localized(self) -> bool:
        return self.pass_ is not None


def not_localized(why: str, phase: str | None = None, method: Method = "") -> Culprit:
    return Culprit(phase, None, f"not localized: {why}", method=method)


def confirmed(
    phase: str | None,
    name: str,
    how: str,
    before: str,
    after: str,
    method: Method,
    confirmation: Confirmation | None,
    unconfirmed: str,
) -> Culprit:
    """``name`` as the culprit if its one-pass run confirmed it, else not localized (``unconfirmed``: what the run
    did not show); never a guess."""
    if confirmation is None:
        return not_localized(f"{how}, but {unconfirmed}", phase, method)
    return Culprit(phase, name, how, before, after, method, confirmation)
