#!/usr/bin/env python3
"""Build the installed layout of the checkout: every package of pyproject's ``package-dir`` at its import path.

``generators/`` and ``oracles/`` sit outside ``ireefuzz/`` and install as ``ireefuzz.generators`` /
``ireefuzz.oracles``; tools that walk a package's directory (import-linter's grimp, mypy) must see them
where a wheel puts them. This copies them there, with pyproject.toml beside (the tools' configuration).
Standard library only: ``tests/test_architecture.py`` imports it, ``.ci/lint`` runs it.

    python3 .ci/installed_layout.py DEST     # DEST/ireefuzz/..., DEST/pyproject.toml
"""

from __future__ import annotations

import shutil
import sys
from pathlib import Path

try:
    import tomllib
except ModuleNotFoundError:  # Python 3.10: mypy and pip vendor tomli there
    import tomli as tomllib

ROOT = Path(__file__).resolve().parents[1]


def installed_layout(dest: Path, root: Path = ROOT) -> Path:
    """``dest`` holding every package of ``root``'s pyproject ``package-dir`` at its import path, plus
    pyproject.toml."""
    package_dir = tomllib.loads((root / "pyproject.toml").read_text())["tool"]["setuptools"]["package-dir"]
    for package, source in sorted(package_dir.items()):  # parents before their subpackages
        shutil.copytree(
            root / source,
            dest.joinpath(*package.split(".")),
            dirs_exist_ok=True,
            ignore=shutil.ignore_patterns("__pycache__"),
        )
    shutil.copy(root / "pyproject.toml", dest / "pyproject.toml")
    return dest


if __name__ == "__main__":
    if len(sys.argv) != 2:
        sys.exit("usage: installed_layout.py DEST")
    installed_layout(Path(sys.argv[1]))
