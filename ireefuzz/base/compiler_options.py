"""The compiler options, declared once for every face: ``ireefuzz check``, ``fuzz`` and ``repro`` and the pytest
plugin (stdlib only: the plugin calls it at load and stays import-light).

One spelling everywhere: ``--iree-compile``, ``--iree-release``, ``--iree-runtime``, ``--iree-target-cpu``. The
command line also takes ``--release`` (the old spelling, deprecated) and ``--target-cpu``. The values become a
``CompilerConfig`` through ``CompilerConfig.from_options`` (the dests below, with the face's prefix).
"""

from __future__ import annotations

import argparse
import os
import re
import shutil
from typing import Any, Callable

NAMED_CPUS = ("host", "generic", "x86-64-v3", "x86-64-v4")
_CPU_NAME = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_.+-]*$")


def executable_file(value: str) -> str:
    """An executable file (a name on PATH or a path), as an absolute path."""
    path = shutil.which(value) or value
    if not os.path.isfile(path):
        raise argparse.ArgumentTypeError(f"{value!r} does not exist; give the path of an iree-compile binary")
    if not os.access(path, os.X_OK):
        raise argparse.ArgumentTypeError(f"{value!r} is not executable (chmod +x it)")
    return os.path.abspath(path)


def python_executable(value: str) -> str:
    path = shutil.which(value) or value
    if not (os.path.isfile(path) and os.access(path, os.X_OK)):
        raise argparse.ArgumentTypeError(f"{value!r} is not an executable Python")
    return os.path.abspath(path)


def cpu_name(value: str) -> str:
    if not _CPU_NAME.match(value):
        raise argparse.ArgumentTypeError(
            f"{value!r} is not a CPU name; use one of {', '.join(NAMED_CPUS)} "
            "or an LLVM CPU name such as skylake-avx512"
        )
    return value


def add_compiler_options(
    add: Callable[..., Any],
    *,
    dest_prefix: str = "",
    aliases: bool = True,
    target: bool = True,
    target_default: str | None = "host",
) -> None:
    """Declare the compiler options through ``add`` (an argparse parser's or group's ``add_argument``, or a pytest
    group's ``addoption``). ``aliases``: also the command line's other spellings; ``target``: also the target CPU
    (``repro`` takes it from the finding); ``target_default``: None where "not given" must be told apart."""

    def names(canonical: str, *others: str) -> tuple[str, ...]:
        return (canonical, *others) if aliases else (canonical,)

    add(
        "--iree-compile",
        dest=f"{dest_prefix}iree_compile",
        metavar="PATH",
        type=executable_file,
        default=None,
        help="an iree-compile binary to test (e.g. your own build); default: the installed iree-base-compiler wheel's",
    )
    add(
        *names("--iree-release", "--release"),
        dest=f"{dest_prefix}release",
        metavar="VERSION",
        default=None,
        help="a published IREE release: its iree-compile, and its own runtime in a runner process (installed into "
        "~/.cache/ireefuzz/releases on first use)" + ("; --release is its old spelling" if aliases else ""),
    )
    add(
        "--iree-runtime",
        dest=f"{dest_prefix}iree_runtime",
        metavar="PYTHON",
        type=python_executable,
        default=None,
        help=(
            "a Python whose iree.runtime matches --iree-compile (default: the one installed beside it, else this one's)"
        ),
    )
    if target:
        add(
            *names("--iree-target-cpu", "--target-cpu"),
            dest=f"{dest_prefix}target_cpu",
            metavar="CPU",
            type=cpu_name,
            default=target_default,
            help=f"--iree-llvmcpu-target-cpu to compile for: {', '.join(NAMED_CPUS)} or any "
            "LLVM CPU name (default: host)",
        )
