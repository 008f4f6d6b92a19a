"""A compiled module run in a child process with a wall-clock limit: ``IsolatedModule``.

In process, a call into the IREE runtime cannot be stopped: a program that never ends (an ``scf.while``
whose condition stays true) holds the process at 100 % CPU, and SIGTERM's Python handler never runs while
native code does. So ``check``, the pytest plugin, corpus cases and repro run their modules here: in this
Python's own ``runner.py`` process (the protocol and ``remote.RunnerProcess`` that release runtimes already
use), each call bounded by ``timeout_s``. A call past it kills the runner (the next call starts a new one
and loads the module again) and is ``RunFailure("timeout")``; the runner also dies with us (its watchdog
thread, ``runner.die_with_parent``), and an interrupted call kills it at once.

The campaign's workers run modules in process: a worker is itself a process the coordinator watches.
"""

from __future__ import annotations

import sys
from typing import Sequence

import numpy as np

from ireefuzz.oracles.diagnostics import RUNTIME_REJECTS
from ireefuzz.sut import remote

DEFAULT_RUN_TIMEOUT_S = 60.0  # per call: a CI job's runs end well within it; a hang costs one minute


def _bf16(x: np.ndarray) -> np.ndarray:
    """A bfloat16 result comes back as 2-byte void (npz has no bfloat16)."""
    if x.dtype.kind == "V" and x.dtype.itemsize == 2:
        import ml_dtypes

        return x.view(ml_dtypes.bfloat16)
    return x


def isolated_module(vmfb: bytes, timeout_s: float, python: str | None = None):
    """``vmfb`` loaded into ``python``'s runner (default: this Python), every call bounded by ``timeout_s``."""
    from ireefuzz import sut

    class IsolatedModule(sut.RemoteModule):
        """``sut.RemoteModule`` whose calls end within ``timeout_s`` (``RunFailure("timeout")`` past it)."""

        def __init__(self) -> None:
            self.timeout_s = timeout_s
            super().__init__(vmfb, python or sys.executable)
            self._runner = _Bounded(self._runner, timeout_s)  # type: ignore[assignment]  # same interface

        def call(self, function: str, inputs: Sequence[np.ndarray]):
            try:
                outcome = super().call(function, inputs)
            except remote.RunnerTimedOut as e:
                return sut.RunFailure("timeout", f"{function}: did not finish in {e.seconds:g} s")
            if isinstance(outcome, sut.RunResult):
                outcome = sut.RunResult(
                    tuple(_bf16(x) for x in outcome.outputs),
                    tuple(_bf16(x) for x in outcome.inputs_after),
                    outcome.seconds,
                )
            return outcome

    return IsolatedModule()


class _Bounded:
    """A ``remote.RunnerProcess`` whose every request has a timeout (loading a module is bounded too)."""

    def __init__(self, runner: remote.RunnerProcess, timeout_s: float) -> None:
        self._inner, self._timeout = runner, timeout_s

    def request(self, entries: dict, **options) -> dict:
        return self._inner.request(entries, timeout=self._timeout, **options)

    def __getattr__(self, name: str):  # start, free_later, generation, python
        return getattr(self._inner, name)


def load(artifact, config, timeout_s: float | None):
    """``sut.load_module``, in a bounded child process when ``timeout_s`` is given (the runtime that matches
    ``config``'s compiler: its runner, or this Python's). A module the runtime rejects is a ``bad-output``
    CompileFailure, as ``sut.load_module`` says it."""
    from ireefuzz import sut

    if timeout_s is None:
        return sut.load_module(artifact, config)
    python = sut.runtime_python_for(config or sut.CompilerConfig())
    try:
        return isolated_module(artifact.vmfb, timeout_s, python)
    except (RuntimeError, ValueError, remote.RunnerTimedOut) as e:
        return sut.CompileFailure(
            "bad-output",
            f"{RUNTIME_REJECTS}{e}",
            artifact.command,
            0,
            artifact.seconds,
        )
