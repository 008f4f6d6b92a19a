"""Durable writes (``ireefuzz.base.durable``)."""

from __future__ import annotations

from pathlib import Path


def test_atomically_written_files_get_the_same_mode_as_appended_ones(tmp_path: Path):
    from ireefuzz.base import durable as _io

    _io.atomic_write_text(tmp_path / "a.json", "{}")
    _io.append_line(tmp_path / "b.jsonl", "{}")
    assert (tmp_path / "a.json").stat().st_mode & 0o777 == (tmp_path / "b.jsonl").stat().st_mode & 0o777
