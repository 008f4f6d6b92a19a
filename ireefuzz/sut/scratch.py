"""Temporary folders of compiles: named with the pid of the process that made them, so the folders of a
process that was killed are recognised and removed later.
"""

from __future__ import annotations

import os
import re
import shutil
import tempfile
import threading
from pathlib import Path
from typing import Iterable

from ireefuzz.sut import launch

# Temporary folders carry the pid of the process that made them, so a folder whose process was killed
# (a worker past its deadline, a campaign killed with -9) is recognised and removed later.
_TEMP_PREFIX = "ireefuzz-"
_TEMP_OWNER = re.compile(r"^ireefuzz-(?:passes-)?pid(\d+)-")


_TEMP_LOCK = threading.Lock()  # held while a folder is made; held for good once this process is ending


def temp_dir(kind: str = "") -> tempfile.TemporaryDirectory:
    with _TEMP_LOCK:
        return tempfile.TemporaryDirectory(prefix=f"{_TEMP_PREFIX}{kind}pid{os.getpid()}-")


def remove_own_temp_dirs_for_good() -> None:
    """For a process about to be killed (a worker whose coordinator is gone): remove its compile folders and
    make no more. A compile's launcher removes its folder when we die, but not the folder of a compile
    being prepared or read back, which would outlive us until the next campaign's sweep."""
    _TEMP_LOCK.acquire()
    for path in Path(tempfile.gettempdir()).glob(f"{_TEMP_PREFIX}*pid{os.getpid()}-*"):
        owner = _TEMP_OWNER.match(path.name)
        if owner is not None and int(owner.group(1)) == os.getpid():
            shutil.rmtree(path, ignore_errors=True)


def remove_temp_dirs(pids: Iterable[int] | None = None) -> int:
    """Remove the compile folders (in the temporary directory) of ``pids``, or, by default, of every process
    that is gone; the number removed. Only this user's folders, never a live process'."""
    wanted = None if pids is None else set(pids)
    removed = 0
    for path in Path(tempfile.gettempdir()).glob(f"{_TEMP_PREFIX}*pid*-*"):
        owner = _TEMP_OWNER.match(path.name)
        if owner is None or (wanted is not None and int(owner.group(1)) not in wanted):
            continue
        try:
            if path.lstat().st_uid != os.getuid() or launch.alive(int(owner.group(1))):
                continue
        except OSError:
            continue
        shutil.rmtree(path, ignore_errors=True)
        removed += 1
    return removed
