"""One campaign per output directory: ``DIR/.lock``, held with ``flock`` for the campaign's whole life.

The kernel releases a ``flock`` when its holder dies, however it dies (``kill -9`` included), so a lock
left by a dead campaign never blocks the next one; the file itself stays and only names its last holder.
"""

from __future__ import annotations

import contextlib
import fcntl
import os
from pathlib import Path
from typing import Iterator

from ireefuzz.errors import UsageError

LOCK_NAME = ".lock"


@contextlib.contextmanager
def held(out: Path) -> Iterator[None]:
    """Hold ``out``'s lock (creating ``out``), or raise UsageError if a live campaign holds it."""
    fd = _open(out)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        holder = os.pread(fd, 32, 0).decode(errors="replace").strip() or "?"
        os.close(fd)
        raise UsageError(
            f"--out {out} is in use by a running campaign (pid {holder}); wait for it to end, or choose another --out"
        ) from None
    try:
        os.ftruncate(fd, 0)
        os.pwrite(fd, f"{os.getpid()}\n".encode(), 0)
        yield
    finally:
        os.close(fd)  # releases the lock


def _open(out: Path) -> int:
    try:
        out.mkdir(parents=True, exist_ok=True)
        return os.open(out / LOCK_NAME, os.O_RDWR | os.O_CREAT | os.O_CLOEXEC, 0o644)
    except OSError as e:
        raise UsageError(f"--out {out}: cannot use it as the campaign's directory ({e.strerror or e})") from None
