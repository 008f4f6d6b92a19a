"""``ireefuzz`` imports a subcommand's module only when that subcommand runs (``cli.build_parser(only=...)``):
``ireefuzz --help`` loads no tool, ``ireefuzz diff --help`` only the campaign's."""

from __future__ import annotations

import subprocess
import sys

CODE = """
import sys
from ireefuzz import cli
try:
    cli.main(sys.argv[1:])
except SystemExit:
    pass
print(sorted(m for m in sys.modules if m.startswith("ireefuzz.tools.") and m.count(".") == 2))
"""


def _tools_loaded(*argv: str) -> str:
    proc = subprocess.run([sys.executable, "-c", CODE, *argv], capture_output=True, text=True, timeout=120)
    return proc.stdout.strip().splitlines()[-1]


def test_the_top_level_help_imports_no_subcommand():
    assert _tools_loaded("--help") == "[]"


def test_a_subcommand_imports_its_own_module_only():
    loaded = _tools_loaded("check", "--help")
    assert "ireefuzz.tools.check" in loaded and "ireefuzz.tools.campaign" not in loaded
