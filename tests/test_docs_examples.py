"""The docs' examples, copied verbatim into a downstream repository and run as its users run them.

Fast: bad plugin input at start (malformed baseline, unusable bundle directory) is one usage error.
``iree``: the ``docs/pytest-plugin.md`` example file under plain ``pytest`` (no profile that lifts
Hypothesis' deadline), the failure it documents with the signature it documents, and a baseline
written from the docs that suppresses it.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

pytest_plugins = ["pytester"]

DOCS = Path(__file__).resolve().parents[1] / "docs" / "pytest-plugin.md"


def docs_python_example() -> str:
    return re.search(r"```python\n(.*?)```", DOCS.read_text(), re.S).group(1)


def docs_signature() -> str:
    return re.search(r"fails, with `([^`]+)`", DOCS.read_text()).group(1)


@pytest.mark.parametrize("content", ["{not json", "[1, 2]", "\x00\x01binary"])
def test_a_malformed_baseline_stops_pytest_with_one_usage_error(pytester: pytest.Pytester, content: str):
    (pytester.path / "baseline.json").write_text(content)
    pytester.makepyfile("def test_nothing(): pass")
    result = pytester.runpytest_subprocess("--ireefuzz-baseline=baseline.json")
    assert result.ret == pytest.ExitCode.USAGE_ERROR
    errors = [line for line in result.stderr.lines if "error" in line.lower()]
    assert errors and "--ireefuzz-baseline" in errors[0] and "Traceback" not in result.stderr.str()


def test_an_unusable_bundle_directory_is_refused_at_start(pytester: pytest.Pytester):
    (pytester.path / "a-file").write_text("")
    pytester.makepyfile("def test_nothing(): pass")
    for bad in ("/proc/nope", str(pytester.path / "a-file" / "sub")):
        result = pytester.runpytest_subprocess(f"--ireefuzz-bundles={bad}")
        assert result.ret == pytest.ExitCode.USAGE_ERROR, bad
        assert "--ireefuzz-bundles" in result.stderr.str() and "writable directory" in result.stderr.str()


@pytest.mark.iree
def test_the_docs_example_runs_verbatim_under_plain_pytest(pytester: pytest.Pytester):
    """Hypothesis' default 200 ms deadline stays in force for the profile (only max_examples is cut, to
    keep the test short); the plugin lifts it for tests that compile. The builder test fails with the
    signature the docs print, and a baseline written from the docs turns that failure into a warning."""
    pytester.makeconftest("""
        from hypothesis import settings
        settings.register_profile("short", max_examples=2, derandomize=True)
    """)
    (pytester.path / "tests").mkdir()
    (pytester.path / "tests" / "test_iree_ops.py").write_text(docs_python_example())
    result = pytester.runpytest_subprocess("--hypothesis-profile=short", "-p", "no:cacheprovider", timeout=900)
    output = result.stdout.str()
    assert "DeadlineExceeded" not in output
    assert "test_fill_matmul_exp FAILED" in output or "FAILED tests/test_iree_ops.py::test_fill_matmul_exp" in output
    assert docs_signature() in output
    (pytester.path / "known.json").write_text(json.dumps([{"signature": docs_signature(), "status": "open"}]))
    known = pytester.runpytest_subprocess(
        "--hypothesis-profile=short",
        "-p",
        "no:cacheprovider",
        "--ireefuzz-baseline=known.json",
        "-k",
        "fill_matmul_exp",
        timeout=900,
    )
    known.assert_outcomes(passed=1)
