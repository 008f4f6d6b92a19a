"""A campaign stopped by SIGTERM (a scheduler's stop, ``timeout``, systemd) ends as Ctrl-C does: the
workers go, and summary.json, summary.md, junit.xml and report.html are written."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest


@pytest.mark.iree
def test_sigterm_writes_the_reports_like_sigint(tmp_path: Path):
    out = tmp_path / "run"
    proc = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "ireefuzz.cli",
            "fuzz",
            "--time",
            "300",
            "--workers",
            "1",
            "--bundles",
            "0",
            "--out",
            str(out),
        ],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env={**os.environ, "JAX_PLATFORMS": "cpu"},
    )
    deadline = time.monotonic() + 120
    while not (out / "progress.jsonl").exists() and time.monotonic() < deadline and proc.poll() is None:
        time.sleep(0.5)
    proc.send_signal(signal.SIGTERM)
    _, stderr = proc.communicate(timeout=120)
    assert proc.returncode == 2, stderr
    assert "interrupted" in stderr and "Traceback" not in stderr
    for name in ("summary.json", "summary.md", "junit.xml", "report.html"):
        assert (out / name).exists(), name
