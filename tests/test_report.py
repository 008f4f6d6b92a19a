"""The campaign report's text: every pipeline reached has a name."""

from __future__ import annotations

from ireefuzz.sut import NO_PIPELINE
from ireefuzz.tools.campaign import report

SUMMARY = {
    "cases": 3,
    "shape_runs": 3,
    "seconds": 1.0,
    "graphs_per_s": 3.0,
    "compiler_version": "3.13",
    "cpu": "x",
    "new": [],
    "known": [],
    "worker_deaths": 0,
    "discarded": 0,
    "signatures": {},
    "causes": [],
    "new_causes": [],
}


def test_dispatches_without_a_pipeline_are_named_and_explained():
    for pipelines in ({"DoubleTilingExpert": 5, NO_PIPELINE: 2}, {"DoubleTilingExpert": 5, "": 2}):  # "": older runs
        line = next(ln for ln in report.markdown(SUMMARY | {"pipelines": pipelines}).splitlines() if "pipelines" in ln)
        assert f"{NO_PIPELINE} (2)" in line and " (2)" not in line.replace(f"{NO_PIPELINE} (2)", "")
        assert "slow_memcpy" in line
    line = next(ln for ln in report.markdown(SUMMARY | {"pipelines": {"Default": 1}}).splitlines() if "pipelines" in ln)
    assert line == "- pipelines reached: Default (1)"


def test_configuration_coverage_and_what_was_not_judged_are_shown():
    summary = SUMMARY | {
        "pipelines": {},
        "ops": {},
        "op_pairs": {},
        "timeline": [],
        "options": {"oracles_not_judged": ["memory: it cannot dump the IR before a pass per dispatch"]},
        "not_judged": {"compile-only target aarch64-unknown-linux-gnu": 4},
        "configurations": {
            "data-tiling=true": {"cases": 4, "causes": {"memory/alloca": 3}},
            "target=aarch64+sve": {"cases": 4, "causes": {}},
        },
    }
    text = report.markdown(summary)
    assert "- oracle not judged: memory: it cannot dump" in text
    assert "- numbers not judged in 4 case(s): compile-only target aarch64-unknown-linux-gnu" in text
    assert "| `data-tiling=true` | 4 | `memory/alloca` (3) |" in text and "| `target=aarch64+sve` | 4 | none |" in text
    page = report.html_report(summary)
    assert "Configuration coverage" in page and "target=aarch64+sve" in page and "Not judged" in page
    assert "Configuration coverage" not in report.markdown(SUMMARY | {"pipelines": {}})  # older runs: no table
