"""A numeric bundle's run.sh on a release before 3.11 (bisection): its iree-run-module has no ``--expected_rtol``, so
run.sh compares again with the loosest absolute threshold the bundle's rule allows. A difference beyond it is the bug
(exit 1); none beyond it cannot tell (exit 2), never "absent" (round 41's review: the asinh bundle's bisection said
"3.10.0 could not run the repro" of a bug present since 3.7.0)."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import numpy as np
import pytest

from ireefuzz.sut import releases

BUNDLE = next((Path(__file__).resolve().parent.parent / "docs/bundles/asinh_of_negative_values_cancels").glob("*/"))
OLD = "3.10.0"


def _run(folder: Path, release_bin: Path) -> tuple[int, str]:
    env = {
        "PATH": f"{release_bin}:/usr/bin:/bin",
        "IREE_COMPILE": str(release_bin / "iree-compile"),
        "IREE_RUN_MODULE": str(release_bin / "iree-run-module"),
    }
    ran = subprocess.run(["/bin/sh", "./run.sh"], cwd=folder, env=env, capture_output=True, text=True, timeout=300)
    return ran.returncode, ran.stdout + ran.stderr


def test_the_run_script_falls_back_to_one_threshold_per_dtype():
    text = (BUNDLE / "run.sh").read_text()
    assert "flag 'expected_rtol' not recognized" in text and "--expected_f32_threshold=" in text
    assert text.count("exit 0") == 1  # only the full rule may say "absent"


@pytest.mark.iree
def test_an_older_runtime_sees_the_bug_and_never_says_absent(tmp_path):
    if not (releases.DEFAULT_CACHE / OLD / ".installed").exists():
        pytest.skip(f"IREE {OLD} is not installed in {releases.DEFAULT_CACHE}")
    release_bin = releases.DEFAULT_CACHE / OLD / "bin"
    code, said = _run(BUNDLE, release_bin)
    assert code == 1 and "one absolute threshold" in said and "BUG REPRODUCED" in said, said[-1500:]
    right = tmp_path / "right"
    shutil.copytree(BUNDLE, right)
    x = np.abs(np.load(right / "inputs" / "a0.npy"))  # positive inputs: asinh is right there
    np.save(right / "inputs" / "a0.npy", x)
    np.save(right / "expected" / "out0.npy", np.arcsinh(x.astype(np.float64) * 10000.0).astype(np.float32))
    code, said = _run(right, release_bin)
    assert code == 2 and "could not tell" in said, said[-1500:]
