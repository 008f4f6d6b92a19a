"""Reading the compiler's per-pass IR dumps (``--mlir-print-ir-before|after-*``): one ``Dump`` per header, in order.

``dumps`` splits a log; ``failing_pass`` / ``last_started`` / ``first_after`` pick a dump; ``history`` is one
function's IR pass by pass (its text cut out of module- and variant-scope dumps too), ``function_text`` cuts it.
Stdlib only: the text as printed, no parser.
"""

from __future__ import annotations

import dataclasses
import re
from typing import Callable

# "// -----// IR Dump After Name Failed: arg{opts} //----- //" (3.x), with " ('op' operation: @f)" at module scope;
# "... After Name (arg) ('op' operation: @f) //----- //" (older releases)
_HEADER = re.compile(r"^// -----// IR Dump (Before|After) (\S+?)( Failed)?:? (.*?) ?//----- //$", re.M)
_ANCHOR = re.compile(r"\s*\('([\w.]+)' operation(?:: (@[\w$.-]+))?\)$")
# what ends a dump's body: the compiler's own diagnostics, the linker's (iree-lld), a crash report
_DIAGNOSTICS = re.compile(
    r"^(?:\S+:\d+(?::\d+)?: (?:error|warning|note)|[\w.-]*lld: (?:error|warning)|Please report issues|Stack dump:)",
    re.M,
)
_FUNCTION = re.compile(
    r"^([ \t]*)(?:func\.func|util\.func|llvm\.func)\s+(?:(?:public|private|nested)\s+)?(@[\w$.-]+)", re.M
)
# the same in generic form (what a pass's invalid output is printed as): "func.func"() <{..., sym_name = "f"}> ({
_GENERIC_FUNCTION = re.compile(
    r'^[ \t]*"(?:func\.func|util\.func|llvm\.func)"\(\)[^\n]*?\bsym_name = "([\w$.-]+)"', re.M
)
_ADAPTORS = ("iree-op-pipeline-adaptor", "builtin.module(", "func.func(", "util.func(")


@dataclasses.dataclass(frozen=True)
class Dump:
    when: str  # Before | After
    pass_class: str
    name: str  # the registered name ('' if the header gives none)
    failed: bool
    function: str  # '@f': the function the pass ran on (or the first one printed), '' if none
    body: str
    spec: str = ""  # the pass as the header prints it, with its options: what --pass-pipeline takes
    anchor: str = ""  # the op the pass ran on, when the header says ('func.func' operation: @f)


def dumps(log: str) -> list[Dump]:
    """The IR dumps of an ``--mlir-print-ir-*`` log, in order."""
    headers = list(_HEADER.finditer(log))
    out = []
    for h, nxt in zip(headers, headers[1:] + [None]):
        body = log[h.end() : nxt.start() if nxt else len(log)]
        body = _DIAGNOSTICS.split(body, maxsplit=1)[0]  # the compiler's own diagnostics end the body
        rest = h.group(4).strip()
        anchor = _ANCHOR.search(rest)
        spec = rest[: anchor.start()].strip() if anchor else rest
        if spec.startswith("(") and spec.endswith(")"):  # older releases: "Name (arg)"
            spec = spec[1:-1]
        name = re.match(r"[\w.-]*", spec).group(0)  # type: ignore[union-attr]  # matches the empty string
        function = (anchor.group(2) if anchor and anchor.group(2) else "") or _printed_function(body)
        out.append(
            Dump(
                h.group(1),
                h.group(2),
                name,
                bool(h.group(3)),
                function,
                body.strip("\n"),
                spec,
                anchor.group(1) if anchor else "",
            )
        )
    return out


def _printed_function(body: str) -> str:
    """The first function a dump prints ('@f'), in custom or generic form; '' if none."""
    custom, generic = _FUNCTION.search(body), _GENERIC_FUNCTION.search(body)
    if custom and (generic is None or custom.start() < generic.start()):
        return custom.group(2)
    return f"@{generic.group(1)}" if generic else ""


def is_adaptor(d: Dump) -> bool:
    """A pipeline adaptor's dump: the IR at that point, but never a culprit (the passes nested in it are)."""
    return (
        not d.name or d.name.startswith(_ADAPTORS) or "PipelineAdaptor" in d.pass_class or "OpToOpPass" in d.pass_class
    )


def failing_pass(log: str) -> Dump | None:
    """The first non-adaptor dump marked ``Failed`` (``--mlir-print-ir-after-failure``)."""
    return next((d for d in dumps(log) if d.failed and not is_adaptor(d)), None)


def last_started(log: str) -> Dump | None:
    """The last non-adaptor ``Before`` dump (``--mlir-print-ir-before-all``, one thread): the pass that was running."""
    return next((d for d in reversed(dumps(log)) if d.when == "Before" and not is_adaptor(d)), None)


def first_after(
    log: str, holds: Callable[[str], bool], in_function: Callable[[str], bool] = lambda name: True
) -> tuple[Dump | None, Dump | None]:
    """(the dump before, the first ``After`` dump whose body ``holds``, of a function ``in_function`` takes): the
    previous dump of the same function."""
    seen: dict[str, Dump] = {}
    for d in dumps(log):
        if d.when == "After" and in_function(d.function) and holds(d.body):
            return seen.get(d.function), d
        seen[d.function] = d
    return None, None


_ALIAS = re.compile(r"^#[\w$.-]+ = [^\n]*$", re.M)  # an attribute alias a module-scope dump defines at its top


def function_text(text: str, name: str) -> str | None:
    """The function ``name`` ('@f') of printed IR, cut out by its indentation (``func.func``, ``util.func`` or
    ``llvm.func``), after the attribute aliases the text defines (so the cut parses alone); None if the text does not
    print it."""
    for m in _FUNCTION.finditer(text):
        if m.group(2) != name:
            continue
        indent = m.group(1)
        end = re.compile(rf"^{re.escape(indent)}\}}[ \t]*$", re.M).search(text, m.end())
        if end is None:
            return None
        body = "\n".join(line[len(indent) :] for line in text[m.start() : end.end()].lstrip("\n").splitlines())
        aliases = [a.group(0) for a in _ALIAS.finditer(text[: m.start()])] if indent else []
        return "\n".join([*aliases, body])
    return None


def history(log: str, function: str) -> list[Dump]:
    """Every dump that prints ``function``, in order, each with the function's text alone as its body."""
    out = []
    for d in dumps(log):
        if d.function == function and d.body.lstrip().startswith(("func.func", "util.func", "llvm.func")):
            out.append(d)
            continue
        text = function_text(d.body, function) if function in d.body else None
        if text is not None:
            out.append(dataclasses.replace(d, body=text, function=function))
    return out


def functions(log: str, marker: str = "_dispatch_") -> list[str]:
    """The functions the log prints whose name holds ``marker`` (a dispatch's), in order of first appearance."""
    seen: dict[str, None] = {}
    for m in _FUNCTION.finditer(log):
        if marker in m.group(2):
            seen.setdefault(m.group(2))
    return list(seen)
