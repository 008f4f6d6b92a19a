"""Locating IREE: the iree-compile and iree-run-module executables (a given path, a release's, or the installed
wheels'), their version and flags, and the Python whose iree.runtime runs a configuration's modules.
"""

from __future__ import annotations

import importlib.util
import os
import re
import shlex
import shutil
import subprocess
import sys
from pathlib import Path

from ireefuzz.errors import IreeNotFound
from ireefuzz.sut import releases
from ireefuzz.sut.config import CompilerConfig

_WHEEL_COMPILE = ("_mlir_libs", "iree-compile")  # the native binary inside iree/compiler/
_INSTALL_HINT = "pip install iree-base-compiler (or pass CompilerConfig(iree_compile=/path/to/iree-compile))"


def find_iree_compile(config: CompilerConfig) -> str:
    """The iree-compile executable: ``config.iree_compile`` if given, else ``config.release``'s (installed
    beforehand with ``releases.release``), else the installed wheel's."""
    if config.iree_compile is None and config.release is not None:
        return releases.release(config.release, install=False).iree_compile
    if config.iree_compile is not None:
        path = shutil.which(config.iree_compile) or config.iree_compile
        if not (os.path.isfile(path) and os.access(path, os.X_OK)):
            raise IreeNotFound(
                f"the iree-compile given ({config.iree_compile!r}, from --iree-compile or CompilerConfig.iree_compile) "
                "is not an executable file: give the path of an iree-compile binary, or leave it out to use the "
                "installed iree-base-compiler wheel's"
            )
        return os.path.abspath(path)
    try:
        spec = importlib.util.find_spec("iree.compiler")
    except ModuleNotFoundError:
        spec = None
    if spec is None or not spec.submodule_search_locations:
        raise IreeNotFound(f"the IREE compiler is not installed: {_INSTALL_HINT}")
    path = os.path.join(list(spec.submodule_search_locations)[0], *_WHEEL_COMPILE)
    if not os.access(path, os.X_OK):
        raise IreeNotFound(f"iree-base-compiler is installed but {path} is missing; reinstall: {_INSTALL_HINT}")
    return path


def find_iree_run_module(config: CompilerConfig | None = None) -> str:
    """The iree-run-module executable of ``config``'s release (if it compiles with one and ships the tool),
    else of the installed iree-base-runtime wheel (else ``iree-run-module`` on PATH)."""
    version = releases.release_of(config) if config is not None else None
    if version is not None:
        path = releases.release(version, install=False).iree_run_module
        if not os.access(path, os.X_OK):  # the 2023-04/05 runtime wheels ship none
            raise IreeNotFound(
                f"IREE {version}'s runtime wheel has no iree-run-module, so a bundle's run.sh cannot run with it"
            )
        return path
    try:
        spec = importlib.util.find_spec("iree._runtime_libs")
    except ModuleNotFoundError:
        spec = None
    if spec is not None and spec.submodule_search_locations:
        path = os.path.join(list(spec.submodule_search_locations)[0], "iree-run-module")
        if os.access(path, os.X_OK):
            return path
    found = shutil.which("iree-run-module")
    if found is None:
        raise IreeNotFound("iree-run-module is not installed: pip install iree-base-runtime")
    return found


def compiler_version(iree_compile: str) -> str:
    """``iree-compile --version``, e.g. "3.13.0rc20261016 @ 89ece87b..." (``Toolchain.version`` keeps it)."""
    command = [iree_compile, "--version"]
    proc = subprocess.run(command, capture_output=True, text=True, timeout=60)
    if proc.returncode != 0:
        raise IreeNotFound(
            f"`{shlex.join(command)}` failed ({proc.returncode}): {proc.stderr.strip()[:500] or 'no output'}"
        )
    match = re.search(r"IREE compiler version (.+)", proc.stdout)
    return match.group(1).strip() if match else (proc.stdout.strip().splitlines() or [""])[0]


def compiler_flags(iree_compile: str) -> frozenset[str]:
    """Every flag ``iree-compile --help-list-hidden`` lists (e.g. "--iree-opt-data-tiling"; ``Toolchain.known_flags``
    keeps them)."""
    proc = subprocess.run([iree_compile, "--help-list-hidden"], capture_output=True, text=True, timeout=60)
    return frozenset(re.findall(r"^\s+(--[\w.-]+)", proc.stdout, re.M))


def resolve_runtime_python(config: CompilerConfig) -> str | None:
    """The Python whose ``iree.runtime`` runs ``config``'s modules (in a ``runner.py`` process): the one
    given, the release's, or the one installed with an external iree-compile; None = this process's.
    Resolved once per toolchain (``toolchain.runtime_python_for``)."""
    python: str | None
    if config.runtime_python is not None:
        python = shutil.which(config.runtime_python) or config.runtime_python
        if not (os.path.isfile(python) and os.access(python, os.X_OK)):
            raise IreeNotFound(
                f"the runtime Python given ({config.runtime_python!r}, from --iree-runtime) is not an "
                "executable file: give a Python that can import the matching iree.runtime"
            )
    elif config.release is not None and config.iree_compile is None:
        python = releases.release(config.release, install=False).python
    elif config.iree_compile is not None:
        python = releases.runtime_python_beside(find_iree_compile(config))
    else:
        return None
    return None if python is None or _is_this_python(python) else os.path.abspath(python)


# A runner takes arrays as npz (``runner.py``), and a release's own numpy has no bfloat16 (ml_dtypes).
RUNNER_UNFEEDABLE_DTYPES = frozenset({"bf16"})


def unfeedable_dtypes(config: CompilerConfig) -> frozenset[str]:
    """Element types no argument may have on ``config``'s runtime (the drawing leaves them out): any
    compiler but the installed wheel's may run through a runner (known without installing a release)."""
    return frozenset() if uses_installed_wheels(config) else RUNNER_UNFEEDABLE_DTYPES


def uses_installed_wheels(config: CompilerConfig) -> bool:
    """``config`` names no release, compiler or runtime: the installed wheels, whose compiler, runtime and MLIR
    bindings match by construction."""
    return config.release is None and config.iree_compile is None and config.runtime_python is None


def _is_this_python(python: str) -> bool:
    """True if ``python`` is this interpreter in this environment (its iree.runtime is ours)."""
    venv = Path(os.path.abspath(python)).parent.parent
    home = venv if (venv / "pyvenv.cfg").exists() else Path(os.path.realpath(python)).parent.parent
    return home.resolve() == Path(sys.prefix).resolve()
