"""Running compiled modules: ``LoadedModule`` (this process' iree.runtime), ``RemoteModule`` (another Python's,
through ``runner.py``) and ``load_module``, which picks the one that matches the compiler.
"""

from __future__ import annotations

import functools
import time
import weakref
from typing import Any, Sequence

import numpy as np

from ireefuzz.errors import IreeNotFound
from ireefuzz.oracles.diagnostics import RUNTIME_REJECTS
from ireefuzz.sut import remote
from ireefuzz.sut.commands import DRIVER
from ireefuzz.sut.config import CompilerConfig
from ireefuzz.sut.results import Artifact, CompileFailure, RunFailure, RunResult
from ireefuzz.sut.toolchain import Toolchain, toolchain_of


@functools.lru_cache(maxsize=None)
def _runtime() -> tuple[Any, Any, Any]:
    """(iree.runtime, VmInstance, HalDevice), created once per process."""
    try:
        import iree.runtime as rt
    except ImportError as e:
        raise IreeNotFound(f"the IREE runtime is not installed: pip install iree-base-runtime ({e})") from e
    return rt, rt.VmInstance(), rt.get_device(DRIVER)


class LoadedModule:
    """A compiled module loaded into the process-wide IREE runtime, ready to call."""

    def __init__(self, artifact: Artifact | bytes):
        rt, instance, device = _runtime()
        vmfb = artifact.vmfb if isinstance(artifact, Artifact) else artifact
        self._module = rt.VmModule.copy_buffer(instance, vmfb)
        self._context = rt.VmContext(instance, modules=[rt.create_hal_module(instance, device), self._module])
        self._invokers: dict[str, Any] = {}

    @property
    def function_names(self) -> tuple[str, ...]:
        return tuple(n for n in self._module.function_names if not n.startswith("__"))

    def call(self, function: str, inputs: Sequence[np.ndarray]) -> RunResult | RunFailure:
        """Call ``function``; every input is passed as a device buffer and read back after the call."""
        rt, _, device = _runtime()
        invoker = self._invoker(function)
        # np.asarray, not np.ascontiguousarray: the latter turns 0-d arrays into 1-d ones.
        buffers = [rt.asdevicearray(device, np.asarray(x, order="C")) for x in inputs]
        start = time.perf_counter()
        try:
            results = invoker(*buffers)
        except (RuntimeError, ValueError) as e:  # the runtime reports any failed invocation this way
            return RunFailure("fault", f"{function}: {e}")
        seconds = time.perf_counter() - start
        if results is None:
            results = ()
        elif not isinstance(results, (tuple, list)):
            results = (results,)
        return RunResult(
            outputs=tuple(_to_numpy(r) for r in results),
            inputs_after=tuple(_to_numpy(b) for b in buffers),
            seconds=seconds,
        )

    def _invoker(self, function: str) -> Any:
        if function not in self._invokers:
            rt, _, device = _runtime()
            vm_function = self._module.lookup_function(function)
            if vm_function is None:
                raise KeyError(f"no function {function!r} in the module; it has {self.function_names}")
            self._invokers[function] = rt.FunctionInvoker(self._context, device, vm_function)
        return self._invokers[function]


def _to_numpy(value: Any) -> np.ndarray:
    host = value.to_host() if hasattr(value, "to_host") else value
    return np.array(host, copy=True)  # never a view of a device buffer the runtime may reuse


class RemoteModule:
    """A compiled module loaded into ``python``'s runner; same interface as ``sut.LoadedModule``."""

    _runner: remote.RunnerProcess  # declared, not inferred: a subclass (``sut.isolated``) wraps it

    def __init__(self, vmfb: bytes, python: str) -> None:
        self._vmfb = vmfb
        self._runner = remote.runner_for(python)
        self._id, self._generation = 0, -1
        self._functions: tuple[str, ...] = ()
        self._died_loading = ""  # the runtime was killed by a signal loading this module: every call says so
        self._load()

    @property
    def function_names(self) -> tuple[str, ...]:
        return self._functions

    def call(self, function: str, inputs: Sequence[np.ndarray]) -> RunResult | RunFailure:
        """Call ``function`` in the runner; inputs are read back after the call (``inputs_after``). A runner that
        dies costs this call (a ``crash``), never its caller: the next request starts another, into which the
        module is loaded again when its generation is gone (also when another thread's call killed it)."""
        request = {"op": "call", "function": function, "n": len(inputs)}
        request.update({f"in{k}": np.asarray(x, order="C") for k, x in enumerate(inputs)})
        for _ in range(3):
            if not self._died_loading and self._generation != self._runner.start():  # a new runner since loading
                self._load()
            if self._died_loading:
                return RunFailure("crash", f"{function}: {self._died_loading}")
            try:
                reply = self._runner.request(dict(request, id=self._id), generation=self._generation)
                break
            except remote.RunnerRestarted:  # another thread's request restarted the runner: load again, retry
                continue
            except remote.RunnerDied as e:
                how = f"of signal {e.signal}" if e.signal is not None else "(its process exited)"
                return RunFailure("crash", f"{function}: the runtime died {how}: {remote.last_line(e.stderr)}")
        else:
            raise RuntimeError(f"{function}: the runner kept restarting under this module")
        status = str(reply["status"])
        if status == "fault":
            return RunFailure("fault", str(reply["message"]))
        if status != "ok":
            raise KeyError(f"{reply['message']}; the module has {self._functions}")
        outputs = tuple(reply[f"out{k}"] for k in range(sum(1 for n in reply if n.startswith("out"))))
        after = tuple(reply[f"after{k}"] for k in range(len(inputs)))
        return RunResult(outputs=outputs, inputs_after=after, seconds=float(reply["seconds"]))

    def _load(self) -> None:
        """Load the module; RuntimeError (as in-process loading) if this runtime rejects it. Killed by a
        signal while loading, the module is a runtime crash for every call (``_died_loading``)."""
        try:
            reply = self._runner.request({"op": "load", "module": np.frombuffer(self._vmfb, np.uint8)})
        except remote.RunnerDied as e:
            if e.signal is None:
                raise RuntimeError(f"the runtime died loading the module: {remote.last_line(e.stderr)}") from None
            self._died_loading = (
                f"the runtime died of signal {e.signal} loading the module: {remote.last_line(e.stderr)}"
            )
            return
        if str(reply["status"]) != "ok":
            raise RuntimeError(str(reply["message"]))
        self._id, self._generation = int(reply["id"]), int(reply["generation"])
        self._functions = tuple(str(f) for f in reply["functions"])
        weakref.finalize(self, self._runner.free_later, self._generation, self._id)


def load_module(
    artifact: Artifact, config: CompilerConfig | None = None, *, toolchain: Toolchain | None = None
) -> "LoadedModule | RemoteModule | CompileFailure":
    """``artifact`` loaded into the runtime that matches ``config``'s compiler (``Toolchain.runtime_python``).
    A module that runtime rejects is the compiler's bad output (a ``bad-output`` failure value); a runtime
    that cannot load this compiler's modules at all is caught once, up front, by ``check_runtime``."""
    python = (toolchain or toolchain_of(config or CompilerConfig())).runtime_python
    try:
        return LoadedModule(artifact) if python is None else RemoteModule(artifact.vmfb, python)
    except (RuntimeError, ValueError) as e:  # e.g. "bytecode version mismatch; runtime supports 17.0, module has 15.0"
        return CompileFailure(
            "bad-output",
            f"{RUNTIME_REJECTS}{e}",
            artifact.command,
            0,
            artifact.seconds,
        )
