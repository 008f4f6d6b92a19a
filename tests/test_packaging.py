"""The wheel ships every package of the source tree (a subpackage left out of ``[tool.setuptools]
packages`` works in an editable install and is missing from the wheel)."""

from __future__ import annotations

from pathlib import Path

import pytest

tomllib = pytest.importorskip("tomllib")  # Python 3.11+

ROOT = Path(__file__).resolve().parents[1]


def test_every_subpackage_of_ireefuzz_is_listed_for_the_wheel():
    listed = set(tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["setuptools"]["packages"])
    on_disk = {
        "ireefuzz." + p.parent.relative_to(ROOT / "ireefuzz").as_posix().replace("/", ".")
        for p in (ROOT / "ireefuzz").rglob("__init__.py")
        if p.parent != ROOT / "ireefuzz"
    }
    assert on_disk <= listed, f"add {sorted(on_disk - listed)} to [tool.setuptools] packages in pyproject.toml"
