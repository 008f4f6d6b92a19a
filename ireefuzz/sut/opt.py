"""``iree-opt``: the one pass pipeline run on one IR file (a culprit pass's confirmation, a bundle's pass test).

``find_iree_opt`` is the ``iree-opt`` beside the config's ``iree-compile`` (every release and wheel ships the two
together); ``opt_command`` its command line; ``run_pipeline`` runs it under the launcher, with the config's time
and memory limits, and returns (exit status, stdout, stderr): a failure is a value, as for ``iree-compile``.
"""

from __future__ import annotations

import os
import tempfile
from pathlib import Path
from typing import Sequence

from ireefuzz.errors import IreeNotFound
from ireefuzz.sut import launch
from ireefuzz.sut.binaries import find_iree_compile
from ireefuzz.sut.config import CompilerConfig


def find_iree_opt(config: CompilerConfig) -> str:
    """The ``iree-opt`` in the folder of ``config``'s ``iree-compile``."""
    compiler = find_iree_compile(config)
    path = os.path.join(os.path.dirname(compiler), "iree-opt")
    if not os.access(path, os.X_OK):
        raise IreeNotFound(f"no iree-opt beside {compiler}")
    return path


def opt_command(source: str | Path, pipeline: str, extra: Sequence[str] = (), *, binary: str = "iree-opt") -> list[str]:
    """``iree-opt --pass-pipeline=PIPELINE SOURCE <extra>`` (``pipeline`` "": parse and verify only)."""
    return [binary, *([f"--pass-pipeline={pipeline}"] if pipeline else []), str(source), *extra]


def run_pipeline(
    text: str, pipeline: str, config: CompilerConfig, extra: Sequence[str] = ()
) -> tuple[int | None, str, str]:
    """(exit status, stdout, stderr) of ``iree-opt`` running ``pipeline`` on ``text`` (None: it timed out)."""
    binary = find_iree_opt(config)
    with tempfile.TemporaryDirectory(prefix="ireefuzz-opt-") as tmp:
        source = Path(tmp) / "input.mlir"
        source.write_text(text)
        return launch.run(
            opt_command(source, pipeline, extra, binary=binary),
            timeout=config.timeout_s,
            memory_limit_mb=config.memory_limit_mb,
            scratch=tmp,
        )
