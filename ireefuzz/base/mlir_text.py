"""Checks on MLIR text made before any parser sees it (stdlib only).

MLIR's parser recurses once per level of nesting and runs in our own process: a 20000-deep nested
attribute overflows its stack and kills the process with SIGSEGV (no message; a pytest session collecting
the file dies with it). Real programs nest a few dozen levels, so text nested deeper than ``MAX_NESTING``
is refused before it is parsed: one line, never a crash.
"""

from __future__ import annotations

MAX_NESTING = 1000  # brackets ([{< open at once; MLIR's parser overflows its stack near 20000 (5000 parse)

_OPEN, _CLOSE = "([{<", ")]}>"


def nesting_depth(text: str) -> int:
    """The deepest nesting of ``( [ { <`` in ``text``, outside string literals (``->`` is no bracket)."""
    depth = deepest = 0
    in_string = escaped = False
    previous = ""
    for ch in text:
        if in_string:
            if escaped:
                escaped = False
            elif ch == "\\":
                escaped = True
            elif ch == '"':
                in_string = False
        elif ch == '"':
            in_string = True
        elif ch in _OPEN:
            depth += 1
            deepest = max(deepest, depth)
        elif ch in _CLOSE and not (ch == ">" and previous == "-"):
            depth = max(0, depth - 1)
        previous = ch
    return deepest


def split_top_level(text: str) -> list[str]:
    """``text`` split at its commas outside brackets (``tensor<4xf32, #enc>, f32`` is two parts; ``->`` is no
    bracket), each part stripped; an empty last part dropped."""
    parts, depth, start, previous = [], 0, 0, ""
    for k, ch in enumerate(text):
        if ch in _OPEN:
            depth += 1
        elif ch in _CLOSE and not (ch == ">" and previous == "-"):
            depth -= 1
        elif ch == "," and depth == 0:
            parts.append(text[start:k].strip())
            start = k + 1
        previous = ch
    last = text[start:].strip()
    return parts + [last] if last else parts


def too_deep(text: str, limit: int = MAX_NESTING) -> str | None:
    """Why ``text`` may not be parsed (nested deeper than ``limit``), or None. Quick: a regex-free scan that
    stops counting once the limit is passed is not needed, the scan is linear."""
    depth = nesting_depth(text)
    if depth > limit:
        return (
            f"nested {depth} levels deep (brackets open at once); ireefuzz parses at most {limit} levels, "
            "as deeper text crashes MLIR's parser"
        )
    return None
