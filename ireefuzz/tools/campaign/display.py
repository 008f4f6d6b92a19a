"""The live line: cases/s, the compile share, causes and signatures new/known, worker deaths (a terminal line, or
plain periodic lines)."""

from __future__ import annotations

import sys
import time
from typing import Any

from .record import Record


class Display:
    def __init__(self, stream: Any = sys.stderr, every_s: float = 30.0) -> None:
        self.stream, self.tty = stream, stream.isatty()
        self.every_s = 0.5 if self.tty else every_s
        self.last = 0.0
        self.shown: tuple | None = None  # the counts of the last line printed

    @staticmethod
    def _counts(record: Record) -> tuple:
        return (
            record.totals["cases"],
            len(record.present_causes()),
            len(record.new_causes()),
            len(record.new_signatures()),
            len(record.known_signatures()),
            record.totals["worker_deaths"],
            record.totals["harness_errors"],
        )

    def line(self, record: Record, seconds: float) -> str:
        n = record.totals["cases"]
        causes, new = len(record.present_causes()), len(record.new_causes())
        sigs = len(record.new_signatures()) + len(record.known_signatures())
        compiling = record.time_accounting()["compile_share"]
        errors = record.totals["harness_errors"]
        return (
            (f"HARNESS ERRORS: {errors}  " if errors else "")
            + f"[{seconds:7.1f}s] {n} cases  {n / max(seconds, 1e-9):.2f} cases/s  compile share {compiling:.2f}  "
            f"causes: {new} new, {causes - new} known "
            f"({sigs} signatures)  worker deaths: {record.totals['worker_deaths']}"
        )

    def update(self, record: Record, seconds: float) -> None:
        if time.monotonic() - self.last >= self.every_s:
            self.last = time.monotonic()
            end = "\r" if self.tty else "\n"
            print(("\x1b[2K" if self.tty else "") + self.line(record, seconds), end=end, file=self.stream, flush=True)
            self.shown = self._counts(record)

    def finish(self, record: Record, seconds: float) -> None:
        """The final line, once: not again when the last periodic line already showed the same counts."""
        if self.tty or self.shown != self._counts(record):
            print(("\x1b[2K" if self.tty else "") + self.line(record, seconds), file=self.stream, flush=True)
