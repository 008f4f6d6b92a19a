"""The layer rules of docs/ARCHITECTURE.md, enforced by the import-linter contracts in pyproject.toml:
they hold on the tree, and they break on a deliberately upward import (fault injection).

Grimp, under import-linter, finds a package's modules by walking its directory; ``generators/`` and
``oracles/`` sit outside ``ireefuzz/`` (pyproject's ``package-dir``), so the lint runs on the
installed layout: a temporary copy with each package where a wheel puts it. The real tree is only read.
"""

from __future__ import annotations

import importlib.util
import os
import subprocess
import sys
from pathlib import Path

import pytest

pytestmark = pytest.mark.skipif(sys.version_info < (3, 11), reason="tomllib and import-linter 2.x need Python 3.11")

ROOT = Path(__file__).resolve().parents[1]
LINT = "import sys; from importlinter.cli import lint_imports_command; sys.exit(lint_imports_command())"


def installed_layout(dest: Path) -> Path:
    """``dest`` holding every package of pyproject's ``package-dir`` at its import path
    (``.ci/installed_layout.py``)."""
    spec = importlib.util.spec_from_file_location("installed_layout", ROOT / ".ci" / "installed_layout.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module.installed_layout(dest)


def lint_imports(tree: Path) -> subprocess.CompletedProcess:
    """``lint-imports`` in ``tree`` (its ``ireefuzz`` shadows the installed one: the current directory comes first)."""
    env = os.environ | {"COLUMNS": "200"}  # rich wraps the report at the terminal width
    return subprocess.run(
        [sys.executable, "-c", LINT, "--no-cache"], cwd=tree, env=env, capture_output=True, text=True, timeout=120
    )


def test_the_tree_keeps_every_contract(tmp_path):
    result = lint_imports(installed_layout(tmp_path))
    assert result.returncode == 0, result.stdout + result.stderr
    assert "0 broken" in result.stdout and "BROKEN" not in result.stdout


# (file under the installed package, the line added, what the report must say)
FAULTS = [
    (
        "oracles/numeric.py",
        "from ireefuzz import sut",
        "ireefuzz.oracles.numeric is not allowed to import ireefuzz.sut",
    ),
    (
        "generators/tensor.py",
        "from ireefuzz.generators import graph",
        "ireefuzz.generators.tensor is not allowed to import ireefuzz.generators.graph",
    ),
    (
        "core/relations.py",
        "from ireefuzz.core import evaluate",
        "ireefuzz.core.relations is not allowed to import ireefuzz.core.evaluate",
    ),
    ("core/evaluate.py", "import subprocess", "ireefuzz.core.evaluate -> subprocess"),
    ("sut/remote.py", "from ireefuzz.core import evaluate", "ireefuzz.sut is not allowed to import ireefuzz.core"),
    (
        "tools/shrink/mlir.py",
        "from ireefuzz.tools.shrink import graph",
        "ireefuzz.tools.shrink.mlir is not allowed to import ireefuzz.tools.shrink.graph",
    ),
    (
        "tools/check.py",
        "from ireefuzz.tools import corpus",
        "ireefuzz.tools.check is not allowed to import ireefuzz.tools.corpus",
    ),
    (
        "tools/check.py",
        "from ireefuzz.tools.filing import program",
        "ireefuzz.tools.check is not allowed to import ireefuzz.tools.filing",
    ),
    ("unplaced.py", "", "- ireefuzz.unplaced"),  # a module in no layer: the map must be updated
]


def test_upward_imports_and_unplaced_modules_break_the_contracts(tmp_path):
    package = installed_layout(tmp_path) / "ireefuzz"
    for path, line, _ in FAULTS:
        with open(package / path, "a") as f:
            f.write(f"\n{line}  # deliberately upward\n" if line else "")
    result = lint_imports(tmp_path)
    assert result.returncode == 1, result.stdout + result.stderr
    for _, _, message in FAULTS:
        assert message in result.stdout, f"{message!r} not reported:\n{result.stdout}"
    assert (ROOT / "ireefuzz" / "unplaced.py").exists() is False  # the real tree untouched


def test_every_optional_layer_exists_in_the_installed_layout(tmp_path):
    """The contracts name generators/ and oracles/ modules as optional layers, "(name)", so that a bare
    `lint-imports` in the checkout (where package-dir keeps them outside ireefuzz/) checks the rest; in the
    installed layout every one of them must exist, or a renamed module would silently leave its contract."""
    import re

    import tomllib

    tree = installed_layout(tmp_path)
    contracts = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["importlinter"]["contracts"]
    missing = []
    for contract in contracts:
        containers = contract.get("containers") or [""]
        for layer in contract.get("layers", []):
            for name in re.findall(r"\(([\w.]+)\)", layer):
                candidates = [f"{c}.{name}" if c else name for c in containers]
                paths = [tree.joinpath(*c.split(".")) for c in candidates]
                if not any(p.is_dir() or p.with_suffix(".py").is_file() for p in paths):
                    missing.append((contract["id"], name))
    assert missing == []
    assert (
        len({name for c in contracts for layer in c.get("layers", []) for name in re.findall(r"\(([\w.]+)\)", layer)})
        > 30
    )
