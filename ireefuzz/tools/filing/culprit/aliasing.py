"""Wrong values the interpreter cannot follow past flow: a buffer written in place that another value still reads.

In the stream dialect an async op may write an operand in place: its result is tied to it (``-> %0{%c4}``). That
operand must then have no other use, or two values share one buffer and one of them is overwritten. Copy-on-write
(``iree-stream-materialize-copy-on-write``) clones an operand where it is not the last use; a later pass that gives
a tied operand another use (CSE merging two identical dispatches, one of them then written in place) breaks the rule.

``shared_in_place`` finds such ops in printed stream IR; ``in_stream`` finds the first pass through the stream phase
whose output holds one its input did not, and confirms it by running that pass alone (``iree-opt``) on its input.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from .confirm import confirm
from .log import dumps, is_adaptor
from .record import Culprit, confirmed, not_localized
from .run import AFTER_EACH, compile_

if TYPE_CHECKING:
    from ireefuzz.sut import CompilerConfig

# %1 = stream.async.dispatch ... (%0[...]) : (...) -> %0{%c4}: the result written in place into operand %0
_TIED = re.compile(r"^\s*%[\w.#:]+\s*=\s*stream\.async\.[\w.]+\b.*->\s*(%[\w.]+)\{", re.M)
_SCOPE = re.compile(r"^  \S", re.M)  # a top-level op of the module (an initializer, a function): one SSA scope


COPY_ON_WRITE = "iree-stream-materialize-copy-on-write"  # from its output on, a tied operand is its last use


def _uses(scope: str, value: str) -> list[str]:
    """The lines of ``scope`` that use ``value`` (not the one defining it), in order."""
    token = re.compile(rf"{re.escape(value)}(?![\w.])")
    defines = re.compile(rf"\s*{re.escape(value)}\s*=")
    return [line.strip() for line in scope.splitlines() if token.search(line) and not defines.match(line)]


def shared_in_place(text: str) -> list[str]:
    """The stream ops of ``text`` that write an operand in place while an op after them still reads it, each followed
    by that later use: [op, use, ...]."""
    found: list[str] = []
    starts = [m.start() for m in _SCOPE.finditer(text)] or [0]
    for begin, end in zip(starts, [*starts[1:], len(text)]):
        scope = text[begin:end]
        for m in _TIED.finditer(scope):
            end = scope.find("\n", m.end())
            tied = scope[m.start() : end if end >= 0 else len(scope)].strip()
            uses = _uses(scope, m.group(1))
            others = uses[uses.index(tied) + 1 :] if tied in uses else []
            if others:
                found += [tied, *others[:1]]
    return found


def in_stream(text: str, config: CompilerConfig, so_far: str) -> Culprit:
    """The first pass through the stream phase, after copy-on-write, whose output writes a buffer in place that a later
    op still reads (``shared_in_place``) where its input did not, confirmed by that pass alone on its input."""
    _, _, log = compile_(text, config, ["--compile-to=stream", *AFTER_EACH, "--mlir-print-ir-module-scope"])
    previous, ruled = "", False
    for d in dumps(log):
        if d.when != "After" or is_adaptor(d):
            continue
        shared = shared_in_place(d.body) if ruled else []
        ruled = ruled or d.name == COPY_ON_WRITE
        if shared and previous and not shared_in_place(previous):
            how = (
                f"{so_far}; through the stream phase, the first pass whose output writes a buffer in place while "
                f"another value still reads it is {d.name}: `{shared[0]}` writes its operand in place, and "
                f"`{shared[1]}` reads the same value"
            )

            def shows(code: int | None, out: str, err: str) -> list[str]:
                again = shared_in_place(out) if code == 0 else []
                return (
                    ["// the pass's output writes an operand in place that another op still reads:", *again[:2]]
                    if again
                    else []
                )

            found, out = confirm(d.spec or d.name, previous, config, shows)
            return confirmed(
                "stream",
                d.name,
                how,
                previous,
                out or d.body,
                "aliasing",
                found,
                f"iree-opt running {d.name} alone on its input leaves every in-place operand to its op",
            )
        previous = d.body
    why = "no pass through stream makes an operand written in place shared"
    return not_localized(f"{so_far}; {why}", None, "wrong-value")
