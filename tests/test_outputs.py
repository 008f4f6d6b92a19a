"""What a campaign writes, as its reader sees it: the report's rate plot, file modes (issue 14 §10)."""

from __future__ import annotations

import os
import stat

from ireefuzz.base import durable as _io
from ireefuzz.tools.campaign import report


def test_the_cases_per_second_plot_is_smoothed_over_a_window():
    # 16 cases land every 8 s, each batch recorded 1 ms after the one before: 16000 cases/s unsmoothed
    timeline = [(0.0, 0)] + [
        (t + dt, 16 * (2 * k + j + 1)) for k, t in enumerate(range(8, 800, 8)) for j, dt in enumerate((0.0, 0.001))
    ]
    smoothed = report.rates(timeline)
    assert max(rate for _, rate in smoothed) < 2 * 32 / 8  # near the true 4 cases/s, no spike
    assert [t for t, _ in smoothed] == [t for t, _ in timeline[1:]]
    assert report.rates([(0, 0)]) == [] and report.rates([(0, 0), (2, 4)]) == [(2.0, 2.0)]


def test_atomically_written_files_read_like_appended_ones(tmp_path):
    _io.atomic_write_text(tmp_path / "summary.json", "{}")
    _io.append_line(tmp_path / "progress.jsonl", "{}")
    mask = os.umask(0)
    os.umask(mask)
    for name in ("summary.json", "progress.jsonl"):
        assert stat.S_IMODE((tmp_path / name).stat().st_mode) == 0o666 & ~mask, name


class _Record:  # what the live line reads of a Record
    def __init__(self, cases: int) -> None:
        self.totals = {"cases": cases, "worker_deaths": 0, "harness_errors": 0}

    present_causes = new_causes = new_signatures = known_signatures = lambda self: []

    def time_accounting(self) -> dict:
        return {"compile_share": 0.5}


def test_the_final_status_line_is_printed_once():
    import io

    from ireefuzz.tools.campaign.display import Display

    out = io.StringIO()
    display = Display(out, every_s=0.0)
    display.update(_Record(8), 1.0)
    display.finish(_Record(8), 1.1)  # nothing new since the last line: not printed again
    display.update(_Record(16), 2.0)
    display.finish(_Record(24), 2.5)  # 8 more cases since: printed
    assert [line.split("]")[1].split()[0] for line in out.getvalue().splitlines()] == ["8", "16", "24"]


def test_the_shipped_corpus_is_found_in_an_installed_wheel(tmp_path, monkeypatch):
    """Installed from the wheel, ``ireefuzz._corpus`` is a namespace package: ``resources.files`` gives a
    MultiplexedPath, whose ``str()`` is its repr, not a directory."""
    from importlib import resources
    from importlib.resources.readers import MultiplexedPath

    from ireefuzz.tools import corpus

    (tmp_path / "known_findings.json").write_text("[]")
    monkeypatch.setattr(resources, "files", lambda package: MultiplexedPath(tmp_path))
    assert corpus.default_root() == tmp_path
