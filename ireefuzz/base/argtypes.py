"""argparse option types shared by the CLI and the pytest plugin (stdlib only: the plugin stays import-light)."""
from __future__ import annotations

import argparse
import math
import shlex
from typing import Callable


def non_negative_int(noun: str) -> Callable[[str], int]:
    """An option type accepting integers >= 0; anything else is one line naming ``noun``."""
    def parse(text: str) -> int:
        try:
            value = int(text)
        except ValueError:
            value = -1
        if value < 0:
            raise argparse.ArgumentTypeError(f"{text!r} is not a non-negative {noun}")
        return value

    return parse


def shell_words(text: str) -> tuple[str, ...]:
    """``--flags``: shell-quoted words; an unbalanced quote is one line saying how to write them."""
    try:
        return tuple(shlex.split(text))
    except ValueError as e:
        raise argparse.ArgumentTypeError(f"{text!r}: {e}; give the flags as one quoted word, "
                                         "e.g. --flags='--iree-opt-data-tiling=false'") from None


def positive_seconds(text: str) -> float:
    """A time in seconds: a finite number > 0 (``nan``, ``inf`` and negatives are refused)."""
    try:
        value = float(text)
    except ValueError:
        value = math.nan
    if not (math.isfinite(value) and value > 0):
        raise argparse.ArgumentTypeError(f"{text!r} is not a positive number of seconds")
    return value
