"""The runtime half of ireefuzz in its own process: load compiled modules, call their functions.

Run as a script by any Python with numpy and an ``iree.runtime`` (a release's venv):
``python -I runner.py``. It imports the standard library, numpy and ``iree.runtime`` only --
never ireefuzz -- so it works with whichever IREE release that Python has.

Protocol (``ireefuzz.sut.RemoteModule`` is the other end): on stdin, requests; on stdout, one
reply per request. Each message is an 8-byte little-endian length, then that many bytes of an
``.npz`` archive (``numpy.savez``, loaded with ``allow_pickle=False``: no pickle either way).
Every string is a 0-d unicode array.

  request ``op``       other entries                         reply entries
  ``hello``            --                                    ``version`` (iree.runtime's)
  ``load``             ``module`` (uint8 vmfb)               ``id``, ``functions``
  ``call``             ``id``, ``function``, ``in0..``       ``seconds``, ``out0..``, ``after0..``
  ``free``             ``ids``                               --

Every request may also carry ``free`` (module ids to drop first). Every reply has ``status``:
``ok``, ``fault`` (the runtime reported an error; ``message``) or ``error`` (the request could not be
served, e.g. a module this runtime cannot load; ``message``). The process stays up until stdin
closes; anything the runtime prints goes to stderr, never into the protocol.
"""

from __future__ import annotations

import io
import os
import struct
import sys
import time
from typing import Any

import numpy as np

HEADER = struct.Struct("<Q")
DRIVER = "local-sync"  # as in-process: single-threaded, deterministic


def read_message(stream) -> dict | None:
    """The next message as {name: array}, or None at end of stream."""
    head = _read_exactly(stream, HEADER.size)
    if head is None:
        return None
    body = _read_exactly(stream, HEADER.unpack(head)[0])
    if body is None:
        raise EOFError("the stream ended inside a message")
    with np.load(io.BytesIO(body), allow_pickle=False) as archive:
        return {name: archive[name] for name in archive.files}


def write_message(stream, entries: dict) -> None:
    buffer = io.BytesIO()
    arrays: dict[str, Any] = {name: np.asarray(value) for name, value in entries.items()}  # not savez's keywords
    np.savez(buffer, **arrays)
    stream.write(HEADER.pack(buffer.tell()) + buffer.getvalue())
    stream.flush()


def _read_exactly(stream, n: int) -> bytes | None:
    chunks, got = [], 0
    while got < n:
        chunk = stream.read(n - got)
        if not chunk:
            return None
        chunks.append(chunk)
        got += len(chunk)
    return b"".join(chunks)


class Runtime:
    """Loaded modules by id, in one VM instance and one device."""

    def __init__(self) -> None:
        import iree.runtime as rt

        self.rt = rt
        self.instance = rt.VmInstance()
        self.device = rt.get_device(DRIVER)
        self.modules: dict[int, tuple] = {}  # id -> (VmModule, VmContext, {function: invoker})
        self.next_id = 0

    def serve(self, request: dict) -> dict:
        for i in request.get("free", np.zeros(0, np.int64)).tolist():
            self.modules.pop(int(i), None)
        op = str(request["op"])
        if op == "hello":
            return {"status": "ok", "version": getattr(self.rt, "__version__", "") or _runtime_version()}
        if op == "load":
            return self.load(request["module"].tobytes())
        if op == "call":
            return self.call(
                int(request["id"]), str(request["function"]), [request[f"in{k}"] for k in range(int(request["n"]))]
            )
        if op == "free":
            for i in request["ids"].tolist():
                self.modules.pop(int(i), None)
            return {"status": "ok"}
        return {"status": "error", "message": f"unknown request {op!r}"}

    def load(self, vmfb: bytes) -> dict:
        rt = self.rt
        try:
            copy = getattr(rt.VmModule, "copy_buffer", None) or rt.VmModule.from_flatbuffer
            module = copy(self.instance, vmfb)
            context = rt.VmContext(self.instance, modules=[rt.create_hal_module(self.instance, self.device), module])
        except (RuntimeError, ValueError) as e:
            return {"status": "error", "message": str(e)}
        self.next_id += 1
        self.modules[self.next_id] = (module, context, {})
        functions = [n for n in module.function_names if not n.startswith("__")]
        return {"status": "ok", "id": self.next_id, "functions": np.array(functions, dtype=str)}

    def call(self, module_id: int, function: str, inputs: list) -> dict:
        if module_id not in self.modules:
            return {"status": "error", "message": f"no loaded module {module_id}"}
        module, context, invokers = self.modules[module_id]
        if function not in invokers:
            vm_function = module.lookup_function(function)
            if vm_function is None:
                return {"status": "error", "message": f"no function {function!r} in the module"}
            try:
                invokers[function] = self.rt.FunctionInvoker(context, self.device, vm_function)
            except TypeError:  # runtimes before 2023-07 also take a tracer
                invokers[function] = self.rt.FunctionInvoker(context, self.device, vm_function, None)
        buffers = [self.rt.asdevicearray(self.device, np.asarray(_bf16(x), order="C")) for x in inputs]
        start = time.perf_counter()
        try:
            results = invokers[function](*buffers)
        except (RuntimeError, ValueError) as e:  # the runtime reports any failed invocation this way
            return {"status": "fault", "message": f"{function}: {e}"}
        seconds = time.perf_counter() - start
        if results is None:
            results = ()
        elif not isinstance(results, (tuple, list)):
            results = (results,)
        reply = {"status": "ok", "seconds": seconds}
        reply.update({f"out{k}": _to_numpy(r) for k, r in enumerate(results)})
        reply.update({f"after{k}": _to_numpy(b) for k, b in enumerate(buffers)})
        return reply


def _bf16(x: np.ndarray) -> np.ndarray:
    """A bfloat16 array arrives as 2-byte void (npz has no bfloat16): viewed back where ml_dtypes is installed."""
    if x.dtype.kind == "V" and x.dtype.itemsize == 2:
        try:
            import ml_dtypes
        except ImportError:
            return x
        return x.view(ml_dtypes.bfloat16)
    return x


def _to_numpy(value) -> np.ndarray:
    host = value.to_host() if hasattr(value, "to_host") else value
    return np.array(host, copy=True)


def _runtime_version() -> str:
    from importlib import metadata

    for dist in ("iree-base-runtime", "iree-runtime"):
        try:
            return metadata.version(dist)
        except metadata.PackageNotFoundError:
            continue
    return ""


def die_with_parent() -> None:
    """Exit when the process that started us is gone, even while a call hangs in the runtime (a watchdog
    thread; PR_SET_PDEATHSIG would fire when the parent's *thread* that started us ends)."""
    import threading

    parent = os.getppid()

    def watch() -> None:
        while os.getppid() == parent:
            time.sleep(1.0)
        os._exit(3)

    threading.Thread(target=watch, daemon=True).start()


def main() -> int:
    die_with_parent()
    replies = os.fdopen(os.dup(1), "wb")  # the protocol's own stdout ...
    os.dup2(2, 1)  # ... while anything printed to fd 1 (by Python or the runtime) lands on stderr
    requests = sys.stdin.buffer
    try:
        runtime = Runtime()
    except Exception as e:  # no usable iree.runtime here: every request gets the reason
        runtime, reason = None, f"{type(e).__name__}: {e}"
    while True:
        request = read_message(requests)
        if request is None:
            return 0
        reply = runtime.serve(request) if runtime is not None else {"status": "error", "message": reason}
        write_message(replies, reply)


if __name__ == "__main__":
    sys.exit(main())
