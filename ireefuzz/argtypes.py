"""argparse option types shared by the CLI and the pytest plugin (stdlib only: the plugin stays import-light)."""
from __future__ import annotations

import argparse
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
