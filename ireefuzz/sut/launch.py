"""Child processes that die with their parent: the launcher every ``iree-compile`` runs under.

``run(argv, timeout=...)`` runs ``argv`` under it and waits. ``command(argv, memory_limit_mb=...)`` is
``argv`` run through this file as a script (``python -I -S launch.py PARENT MEMORY_BYTES SCRATCH ARGV...``,
started in a new session by the caller). The launcher asks the kernel for SIGTERM when its parent dies
(``PR_SET_PDEATHSIG``; a watchdog thread where there is no ``prctl``), forks ``argv`` with no core dumps and the
address-space cap, and waits:

- parent killed (a worker past its deadline, ``kill -9`` of a campaign): SIGTERM, and the launcher
  kills the compiler, removes the parent's scratch folder, and kills its whole process group;
- a timeout in the parent: the parent kills the group (``os.killpg``; the launcher leads it);
- otherwise the launcher ends as the compiler did: its exit status, or killed by the same signal.

A Python ``preexec_fn`` would do the same in the parent's fork, but forking a multithreaded (JAX)
interpreter can deadlock; this script's own fork is single-threaded. Standard library only, as it
runs with ``-I -S``. ``die_with`` is what a campaign's worker processes call to end with the coordinator.
"""

from __future__ import annotations

import os
import select
import signal
import sys
import threading
import time
from typing import Callable, Sequence

_PR_SET_PDEATHSIG = 1  # <linux/prctl.h>


def command(argv: Sequence[str], *, memory_limit_mb: int = 0, scratch: str | os.PathLike | None = None) -> list[str]:
    """``argv`` run under the launcher, a child of this process (start it with ``start_new_session=True``);
    ``scratch``: a folder of ours the launcher removes if this process dies first."""
    limit = memory_limit_mb * 2**20 if memory_limit_mb > 0 else 0
    return [
        sys.executable,
        "-I",
        "-S",
        os.path.abspath(__file__),
        str(os.getpid()),
        str(limit),
        os.fspath(scratch or ""),
        *argv,
    ]


def run(
    argv: Sequence[str],
    *,
    timeout: float | None,
    env: dict[str, str] | None = None,
    memory_limit_mb: int = 0,
    scratch: str | os.PathLike | None = None,
    stdout: bool = True,
) -> tuple[int | None, str, str]:
    """(exit status, stdout, stderr) of ``argv`` run under the launcher in a session of its own; the status is
    None if it ran past ``timeout`` s. Its whole process group is killed then, and once it has ended (what it
    left running, e.g. a linker), and with this process if we die first."""
    import subprocess

    proc = subprocess.Popen(
        command(argv, memory_limit_mb=memory_limit_mb, scratch=scratch),
        env=env,
        stdin=subprocess.DEVNULL,
        stdout=subprocess.PIPE if stdout else subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        start_new_session=True,
    )
    try:
        out, err = proc.communicate(timeout=timeout)
        code: int | None = proc.returncode
    except subprocess.TimeoutExpired:
        _kill_group(proc.pid)
        out, err = proc.communicate()
        code = None
    _kill_group(proc.pid)
    return code, (out or b"").decode("utf-8", "replace"), (err or b"").decode("utf-8", "replace")


def _kill_group(pgid: int) -> None:
    try:
        os.killpg(pgid, signal.SIGKILL)
    except (ProcessLookupError, PermissionError):  # gone (a zombie leader's group may answer EPERM on macOS)
        pass


def die_with_parent(sig: int = signal.SIGKILL, parent: int | None = None) -> None:
    """Have ``sig`` sent to this process when its parent ``parent`` (default: the current one) ends;
    at once if it already has. The kernel does it on Linux (``PR_SET_PDEATHSIG``), else ``die_with``."""
    parent = os.getppid() if parent is None else parent
    if not _prctl_pdeathsig(sig):
        die_with(parent, sig)
    elif os.getppid() != parent:  # it died before the request took effect
        os.kill(os.getpid(), sig)


def die_with(pid: int, sig: int = signal.SIGKILL, before: Callable[[], None] | None = None) -> None:
    """Have ``sig`` sent to this process when process ``pid`` (any process, not only the parent) ends,
    after ``before()``: a watchdog thread waits on a pidfd (Linux 5.3+), else polls."""
    threading.Thread(target=_await_exit, args=(pid, sig, before), daemon=True, name=f"die-with-{pid}").start()


def _prctl_pdeathsig(sig: int) -> bool:
    if not sys.platform.startswith("linux"):
        return False
    try:
        import ctypes

        return ctypes.CDLL(None, use_errno=True).prctl(_PR_SET_PDEATHSIG, int(sig), 0, 0, 0) == 0
    except (OSError, AttributeError):
        return False


def _await_exit(pid: int, sig: int, before: Callable[[], None] | None) -> None:
    try:
        pidfd = os.pidfd_open(pid)
    except ProcessLookupError:  # already gone
        pass
    except (AttributeError, OSError):  # no pidfds here: poll
        while alive(pid):
            time.sleep(0.5)
    else:
        select.select([pidfd], [], [])  # readable once the process has ended (a zombie counts)
    try:
        if before is not None:
            before()
    finally:
        os.kill(os.getpid(), sig)


def alive(pid: int) -> bool:
    """Whether process ``pid`` runs (a zombie, ended but not yet reaped, does not)."""
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    try:
        with open(f"/proc/{pid}/stat") as stat:
            return stat.read().rsplit(")", 1)[1].split()[0] != "Z"
    except (OSError, IndexError):  # no /proc: it exists
        return True


def _parent_died(child: int, scratch: str) -> None:
    """Kill the command, remove the parent's scratch folder, then the rest of the group and the launcher."""
    try:
        os.kill(child, signal.SIGKILL)
        os.waitpid(child, 0)
    except (ProcessLookupError, ChildProcessError):
        pass
    finally:
        try:
            if scratch:
                import shutil

                shutil.rmtree(scratch, ignore_errors=True)
        finally:
            os.killpg(0, signal.SIGKILL)  # the launcher leads its group: this ends it too


def _exec_child(argv: list[str], memory_bytes: int) -> None:
    """In the forked child: default signal dispositions, the memory cap, then ``argv``."""
    import resource

    for name in ("SIGTERM", "SIGPIPE", "SIGXFSZ"):  # Python ignores SIGPIPE and SIGXFSZ; exec keeps that
        signal.signal(getattr(signal, name), signal.SIG_DFL)
    try:
        if memory_bytes > 0:
            resource.setrlimit(resource.RLIMIT_AS, (memory_bytes, memory_bytes))
        os.execvp(argv[0], argv)
    except OSError as e:
        os.write(2, f"ireefuzz launcher: cannot run {argv[0]}: {e}\n".encode())
    os._exit(127)


def main(args: list[str]) -> int:
    parent, memory_bytes, scratch, argv = int(args[0]), int(args[1]), args[2], args[3:]
    if os.getpgrp() != os.getpid():  # lead a group of our own, or killing "our" group would hit the caller's
        os.setpgid(0, 0)
    import resource

    resource.setrlimit(resource.RLIMIT_CORE, (0, 0))
    signal.pthread_sigmask(signal.SIG_BLOCK, [signal.SIGTERM])  # held until the child's pid is known
    child = os.fork()
    if child == 0:
        signal.pthread_sigmask(signal.SIG_UNBLOCK, [signal.SIGTERM])
        _exec_child(argv, memory_bytes)
    signal.signal(signal.SIGTERM, lambda *_: _parent_died(child, scratch))
    die_with_parent(signal.SIGTERM, parent)
    signal.pthread_sigmask(signal.SIG_UNBLOCK, [signal.SIGTERM])
    _, status = os.waitpid(child, 0)
    code = os.waitstatus_to_exitcode(status)
    if code < 0:  # end the same way, so the caller sees the compiler's signal
        if -code != signal.SIGKILL:
            signal.signal(-code, signal.SIG_DFL)
        os.kill(os.getpid(), -code)
        return 128 - code
    return code


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
