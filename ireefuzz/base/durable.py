"""Atomic, durable writes: nothing recorded is ever half-written or lost."""

from __future__ import annotations

import hashlib
import json
import os
import re
import tempfile
from pathlib import Path
from typing import Any


def atomic_write_bytes(path: str | os.PathLike, data: bytes) -> None:
    """Write to a temp file in the same directory, fsync, then rename over ``path``."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    try:
        os.fchmod(fd, 0o666 & ~_umask())  # mkstemp makes 0600; a recorded file reads like any other
        with os.fdopen(fd, "wb") as f:
            f.write(data)
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, path)
    except BaseException:
        try:
            os.unlink(tmp)
        except FileNotFoundError:
            pass
        raise


def _umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask


def atomic_write_text(path: str | os.PathLike, text: str) -> None:
    atomic_write_bytes(path, text.encode("utf-8"))


def atomic_write_json(path: str | os.PathLike, obj: Any) -> None:
    atomic_write_text(path, json.dumps(obj, indent=2, sort_keys=True, default=json_default) + "\n")


def make_dir(path: str | os.PathLike, *, keep: bool = True) -> str | None:
    """Make ``path`` a directory (parents too) this process can write into; why it cannot be one, or None.
    ``keep=False`` only tries: the directories it made are removed again."""
    path = Path(path)
    if path.exists() and not path.is_dir():
        return "is a file; give a directory"
    missing = [p for p in (path, *path.parents) if not p.exists()]  # the deepest first
    try:
        path.mkdir(parents=True, exist_ok=True)
    except OSError as e:
        return f"cannot make a directory there ({e.strerror or e}); give a writable directory"
    problem = None if os.access(path, os.W_OK | os.X_OK) else "is not writable; give a writable directory"
    for made in missing if not keep else ():
        made.rmdir()
    return problem


def append_line(path: str | os.PathLike, line: str) -> None:
    """Append one line durably (O_APPEND + fsync). A reader skips a torn last line (a kill mid-write); the
    next append cuts it off first, so it never becomes a corrupt line in the middle."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    data = (line.rstrip("\n") + "\n").encode("utf-8")
    fd = os.open(path, os.O_RDWR | os.O_APPEND | os.O_CREAT, 0o666)  # less the umask, as atomic writes
    try:
        _drop_torn_tail(fd)
        whole = os.fstat(fd).st_size
        try:
            written = 0
            while written < len(data):  # a short write (a nearly full disk) is continued, never left torn
                written += os.write(fd, data[written:])
            os.fsync(fd)
        except BaseException:  # e.g. ENOSPC: the line is all or nothing -- the file ends at its last whole line
            try:
                os.ftruncate(fd, whole)
            except OSError:
                pass
            raise
    finally:
        os.close(fd)


def _drop_torn_tail(fd: int, chunk: int = 1 << 16) -> None:
    """Truncate the file after its last newline (every complete line ends with one)."""
    end = size = os.fstat(fd).st_size
    if size == 0 or os.pread(fd, 1, size - 1) == b"\n":
        return
    while end > 0:
        start = max(0, end - chunk)
        newline = os.pread(fd, end - start, start).rfind(b"\n")
        if newline >= 0:
            os.ftruncate(fd, start + newline + 1)
            return
        end = start
    os.ftruncate(fd, 0)


def read_jsonl(path: str | os.PathLike) -> list[dict]:
    """Read JSON lines, ignoring a torn (partially written) final line; a bad line before it is a ValueError."""
    path = Path(path)
    if not path.exists():
        return []
    rows = []
    lines = path.read_text(encoding="utf-8").splitlines()
    for i, line in enumerate(lines):
        if not line.strip():
            continue
        try:
            rows.append(json.loads(line))
        except json.JSONDecodeError as e:
            if i == len(lines) - 1:
                break  # torn tail from a kill mid-write
            raise ValueError(f"{path} line {i + 1} is not JSON ({e.msg}): the file is corrupt") from None
    return rows


def json_default(obj: Any) -> Any:
    """``json.dumps(default=...)`` for what findings and records carry besides plain JSON: NumPy values."""
    if hasattr(obj, "tolist"):
        return obj.tolist()
    raise TypeError(f"not JSON-serializable: {type(obj).__name__}")


def slug(text: str, limit: int = 80) -> str:
    """A file-name-safe, bounded, still-readable name for ``text`` (e.g. a signature or a cause id).
    Distinct texts get distinct names: whenever the name is not ``text`` itself (a character replaced,
    or cut to ``limit``), a hash of ``text`` is appended."""
    name = re.sub(r"[^A-Za-z0-9_.-]+", "_", text).strip("_.")
    if name == text and 0 < len(name) <= limit:
        return name
    if not text:
        return "check"
    return f"{name[: limit - 11] or 'x'}-{hashlib.sha1(text.encode()).hexdigest()[:10]}"
