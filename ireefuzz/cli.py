"""The ``ireefuzz`` command. Each subcommand lives in its own module, imported only when used:
the module defines ``configure(parser)`` (its options) and ``main(args) -> int`` (its exit status).

Exit status everywhere: 0 = nothing (new) found, 1 = findings, 2 = usage or infrastructure error.
"""

from __future__ import annotations

import argparse
import errno
import importlib
import os
import signal
import sys
import tempfile
import threading
import time
import traceback
from typing import NoReturn, Sequence

from ireefuzz.errors import USER_ERRORS

COMMANDS = {
    "fuzz": ("ireefuzz.tools.campaign", "run a fuzzing campaign (the nightly job)"),
    "triage": (
        "ireefuzz.tools.campaign.triage",
        "re-bucket a campaign's findings by cause and write the missing bundles",
    ),
    "diff": ("ireefuzz.tools.campaign.diff", "compare two campaigns' causes: new, still present, gone, back again"),
    "check": ("ireefuzz.tools.check_command", "run every applicable oracle on your own MLIR program"),
    "repro": ("ireefuzz.tools.filing.repro", "shrink a finding and write a self-contained repro bundle"),
    "bisect": ("ireefuzz.tools.filing.bisect", "find the IREE releases that show a bundle's bug"),
    "promote": ("ireefuzz.tools.corpus.promote", "add a repro bundle to the corpus as a regression case"),
}


class _Parser(argparse.ArgumentParser):
    """argparse with a one-line error (and exit 2), like every other usage error of ireefuzz."""

    def error(self, message: str) -> NoReturn:
        self.exit(2, f"{self.prog}: error: {message} (see {self.prog} --help)\n")


VALUE_OPTIONS = ("--flags",)  # their value often starts with "--": "--flags --x=1" is read as "--flags=--x=1"


def join_option_values(argv: Sequence[str]) -> list[str]:
    """``--flags '--iree-opt-data-tiling=false'`` as ``--flags=--iree-opt-data-tiling=false``: argparse takes a
    value that starts with ``--`` for an option of its own, so the form the help text shows would fail."""
    joined: list[str] = []
    words = iter(argv)
    for word in words:
        if word == "--":
            joined += [word, *words]
            break
        value = next(words, None) if word in VALUE_OPTIONS else None
        joined.append(word if value is None else f"{word}={value}")
    return joined


def build_parser(only: str | None = None) -> argparse.ArgumentParser:
    """The parser of every subcommand; with ``only``, just that subcommand's module is imported and configured
    (``main`` passes the one on its command line, "" for none: ``ireefuzz --help`` imports no subcommand)."""
    parser = _Parser(prog="ireefuzz", description="Differential fuzzing of IREE's CPU code generation.")
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    for name, (module, help_text) in COMMANDS.items():
        p = sub.add_parser(name, help=help_text, description=help_text)
        if only is None or only == name:
            importlib.import_module(module).configure(p)
        p.set_defaults(_module=module)
    return parser


def _interrupt(signum: int, frame: object) -> None:
    raise KeyboardInterrupt


def main(argv: list[str] | None = None) -> int:
    argv = join_option_values(sys.argv[1:] if argv is None else argv)
    parser = build_parser(only=argv[0] if argv and argv[0] in COMMANDS else "")  # imports that subcommand only
    args = parser.parse_args(argv)  # exits 2 with argparse's one-line message on a bad option
    main_thread = threading.current_thread() is threading.main_thread()
    previous = signal.signal(signal.SIGTERM, _interrupt) if main_thread else None  # SIGTERM ends a run like Ctrl-C
    try:
        return importlib.import_module(args._module).main(args)
    except USER_ERRORS as e:
        print(f"ireefuzz {args.command}: error: {e}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print(f"ireefuzz {args.command}: interrupted", file=sys.stderr)
        return 2
    except MemoryError:  # our own process ran out of room: never a finding (exit 1 would say "found a bug")
        log = _log_traceback(args.command)
        print(
            f"ireefuzz {args.command}: error: out of memory in ireefuzz itself (not an IREE finding); give smaller "
            f"shapes or a lower --max-memory where the command has one (traceback in {log})",
            file=sys.stderr,
        )
        return 2
    except OSError as e:
        if e.errno not in (errno.ENOSPC, errno.EDQUOT):
            return _unexpected(args.command, e)
        print(
            f"ireefuzz {args.command}: error: no space left on the device ({e.filename or 'writing'}); free some "
            "space, then run again (a campaign continues with --resume)",
            file=sys.stderr,
        )
        return 2
    except Exception as e:  # noqa: BLE001  (ireefuzz's own bug: exit 2, never 1 = "findings")
        return _unexpected(args.command, e)
    finally:
        if main_thread:
            signal.signal(signal.SIGTERM, previous)


LOG_DIR_ENV = "IREEFUZZ_LOG_DIR"  # where an unexpected error's traceback goes (default: the temp folder)


def _log_traceback(command: str) -> str:
    """The current exception's traceback written to a log file; its path (or why it could not be written)."""
    folder = os.environ.get(LOG_DIR_ENV) or tempfile.gettempdir()
    path = os.path.join(folder, f"ireefuzz-{command}-{time.strftime('%Y%m%d-%H%M%S')}-{os.getpid()}.log")
    try:
        with open(path, "w", encoding="utf-8") as f:
            f.write(f"ireefuzz {' '.join(sys.argv[1:])}\n\n{traceback.format_exc()}")
    except OSError as e:
        return f"(could not write {path}: {e.strerror})"
    return path


def _unexpected(command: str, e: BaseException) -> int:
    """An exception nobody expected: ireefuzz's own bug. One line, the traceback in a log file, exit 2."""
    log = _log_traceback(command)
    first = (str(e).strip().splitlines() or [""])[0][:300]
    print(
        f"ireefuzz {command}: internal error (an ireefuzz bug, not a finding): {type(e).__name__}: {first} "
        f"(traceback in {log})",
        file=sys.stderr,
    )
    return 2


if __name__ == "__main__":
    sys.exit(main())
