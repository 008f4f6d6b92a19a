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


def positive_int(noun: str) -> Callable[[str], int]:
    """An option type accepting integers >= 1 (``--confirm-runs 0`` would confirm nothing and call it confirmed)."""

    def parse(text: str) -> int:
        try:
            value = int(text)
        except ValueError:
            value = 0
        if value < 1:
            raise argparse.ArgumentTypeError(f"{text!r} is not a positive {noun} (1 or more)")
        return value

    return parse


_UNITS = {
    "": 1,
    "b": 1,
    "k": 2**10,
    "kb": 2**10,
    "kib": 2**10,
    "m": 2**20,
    "mb": 2**20,
    "mib": 2**20,
    "g": 2**30,
    "gb": 2**30,
    "gib": 2**30,
    "t": 2**40,
    "tb": 2**40,
    "tib": 2**40,
}


def memory_size(text: str) -> int:
    """A number of bytes: ``8G``, ``512M``, ``1.5GiB``, ``1000000`` (powers of 1024); must be > 0."""
    import re

    m = re.fullmatch(r"\s*([0-9]+(?:\.[0-9]*)?)\s*([A-Za-z]*)\s*", text)
    unit = _UNITS.get(m.group(2).lower()) if m else None
    value = float(m.group(1)) * unit if m and unit else 0.0
    if not (math.isfinite(value) and value >= 1):
        raise argparse.ArgumentTypeError(f"{text!r} is not a memory size; write it like 8G, 512M or 1000000 (bytes)")
    return int(value)


def shell_words(text: str) -> tuple[str, ...]:
    """``--flags``: shell-quoted words; an unbalanced quote is one line saying how to write them."""
    try:
        return tuple(shlex.split(text))
    except ValueError as e:
        raise argparse.ArgumentTypeError(
            f"{text!r}: {e}; give the flags as one quoted word, e.g. --flags='--iree-opt-data-tiling=false'"
        ) from None


def positive_seconds(text: str) -> float:
    """A time in seconds: a finite number > 0 (``nan``, ``inf`` and negatives are refused)."""
    try:
        value = float(text)
    except ValueError:
        value = math.nan
    if not (math.isfinite(value) and value > 0):
        raise argparse.ArgumentTypeError(f"{text!r} is not a positive number of seconds")
    return value
