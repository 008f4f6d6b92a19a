"""An unresolved libcall: the executable links against a math function the embedded ELF has no body for
(``undefined symbol: fmaxf``), because an op reached LLVM that LLVM lowers to that call (f16 ``maxnumf``: promoted to
f32 and called). The culprit is the pass that should have expanded or lowered the op:

1. The dispatch's passes whose input holds the op (``arith.maxnumf`` or a ``<maxnumf>`` reduction) on the float type
   that reaches LLVM (``llvm.intr.maxnum`` on f16) are the candidates.
2. A candidate that expands the op's sibling (the same operation with the other NaN rule: ``maximumf``) on that type
   when given it instead is the pass whose job the op is: the first such is the culprit (``iree-opt`` running it on
   its input with the op renamed: the sibling is gone from its output; on its real input: the op is still there).
3. Without one, the culprit is the last pass whose input still holds the op at that level: it lowered the op to the
   LLVM form that becomes the call (its output holds ``llvm.intr.maxnum`` on that type).

Each is confirmed by ``iree-opt`` running it alone on its input.
"""

from __future__ import annotations

import dataclasses
import re
import shlex
from typing import TYPE_CHECKING, Sequence

from ireefuzz.oracles.vocabulary import BINDING_OP, EXECUTABLE_TARGET

from .confirm import confirm, confirm_received, occurrence, received
from .log import Dump, dumps, function_text, functions, is_adaptor
from .record import BEFORE_FILE, Confirmation, Culprit, confirmed, not_localized
from .run import AFTER_EACH, compile_, iree_opt

if TYPE_CHECKING:
    from ireefuzz.sut import CompilerConfig

_UNDEFINED = re.compile(r"undefined symbol: ([\w.$]+)")
_OP = re.compile(r"=\s*([a-z_]+\.[\w.]+)")  # the op a line's result comes from
_REFERENCED = re.compile(r"\.o:\(([\w$.-]+)\)")


@dataclasses.dataclass(frozen=True)
class Family:
    """The ops that lower to one libm call."""

    op: str  # the arith op
    kind: str  # its name as a vector reduction kind
    llvm: tuple[str, ...]  # the LLVM dialect ops that become the call
    sibling: str | None  # the same operation with the other NaN rule (an arith op); None: no renamable sibling
    types: tuple[str, ...]  # the float types whose op LLVM turns into this call


_NARROW = ("f16", "bf16", "f32")  # LLVM promotes f16 / bf16 to f32 for the f32 call
LIBCALLS = {
    "fmaxf": Family(
        "arith.maxnumf", "maxnumf", ("llvm.intr.maxnum", "llvm.intr.vector.reduce.fmax"), "arith.maximumf", _NARROW
    ),
    "fminf": Family(
        "arith.minnumf", "minnumf", ("llvm.intr.minnum", "llvm.intr.vector.reduce.fmin"), "arith.minimumf", _NARROW
    ),
    "fmaximumf": Family(
        "arith.maximumf",
        "maximumf",
        ("llvm.intr.maximum", "llvm.intr.vector.reduce.fmaximum"),
        "arith.maxnumf",
        _NARROW,
    ),
    "fminimumf": Family(
        "arith.minimumf",
        "minimumf",
        ("llvm.intr.minimum", "llvm.intr.vector.reduce.fminimum"),
        "arith.minnumf",
        _NARROW,
    ),
    "fmax": Family(
        "arith.maxnumf", "maxnumf", ("llvm.intr.maxnum", "llvm.intr.vector.reduce.fmax"), "arith.maximumf", ("f64",)
    ),
    "fmin": Family(
        "arith.minnumf", "minnumf", ("llvm.intr.minnum", "llvm.intr.vector.reduce.fmin"), "arith.minimumf", ("f64",)
    ),
    # an integer converted to bf16: LLVM converts to f32, then calls the f32 -> bf16 truncation on a CPU without
    # AVX512-BF16 (the bf16 emulation passes expand a truncf to bf16, which a sitofp is not)
    "__truncsfbf2": Family("arith.sitofp", "sitofp", ("llvm.sitofp",), None, ("bf16",)),
}


def unresolved(diagnostic: str) -> str | None:
    """The undefined symbol a link failure names, if the table knows it."""
    m = _UNDEFINED.search(diagnostic)
    return m.group(1) if m and m.group(1) in LIBCALLS else None


def _typed(line: str, element: str) -> bool:
    return re.search(rf"(?:\b|x){element}\b", line.split(":", 1)[-1] if ":" in line else line) is not None


def arith_lines(text: str, family: Family, element: str, op: str | None = None) -> list[str]:
    """The lines of ``text`` holding ``op`` (default: the family's arith op, or its reduction kind) on ``element``."""
    name = op or family.op
    kind = name.split(".", 1)[1]
    pattern = re.compile(rf"{re.escape(name)}\b|<{re.escape(kind)}>")
    return [line.strip() for line in text.splitlines() if pattern.search(line) and _typed(line, element)]


def llvm_lines(text: str, family: Family, element: str) -> list[str]:
    return [
        line.strip()
        for line in text.splitlines()
        if any(re.search(rf"{re.escape(op)}[( ]", line) for op in family.llvm)
        and _typed(line.rsplit("->", 1)[-1].rsplit(" to ", 1)[-1], element)
    ]


def _element(logged: Sequence[Dump], family: Family) -> str | None:
    """The float type whose op reached LLVM (the last dump that prints the LLVM form)."""
    for d in reversed(logged):
        for element in family.types:
            if llvm_lines(d.body, family, element):
                return element
    return None


def culprit(text: str, config: CompilerConfig, diagnostic: str, phase: str | None) -> Culprit:
    symbol = unresolved(diagnostic)
    assert symbol is not None
    family = LIBCALLS[symbol]
    _, _, log = compile_(text, config, list(AFTER_EACH))  # a pass that misses the op changes nothing
    logged = dumps(log)
    element = _element(logged, family)
    what = f"the link fails on {symbol}"
    if element is None:
        return not_localized(
            f"{what}, but no dump prints {' / '.join(family.llvm)} on {family.types}", phase, "libcall"
        )
    referenced = _REFERENCED.findall(diagnostic)
    names = [f"@{r}" for r in referenced] or functions(log)
    for function in names:
        found = _in_function(text, config, logged, function, family, element, what)
        if found is not None:
            return found
    return not_localized(f"{what}: no dispatch's passes hold {family.op} on {element}", phase, "libcall")


def _in_function(
    text: str, config: CompilerConfig, logged: Sequence[Dump], function: str, family: Family, element: str, what: str
) -> Culprit | None:
    """The culprit among ``function``'s passes (None: none of them receives the op on ``element``)."""
    runs: list[tuple[int, Dump, str, str]] = []  # (index, dump, input, output) of each pass run on the function
    previous = ""
    for i, d in enumerate(logged):
        body = function_text(d.body, function)
        if body is None:
            continue
        if is_adaptor(d):  # a pipeline adaptor prints when its nested pipeline is done: no pass's input
            continue
        if previous and d.when == "After":
            runs.append((i, d, previous, body))
        previous = body
    candidates = [r for r in runs if arith_lines(r[2], family, element)]
    if not candidates:
        return None
    op = f"{family.op} on {element}"
    tried: set[str] = set()
    for i, d, before, _ in candidates:
        if d.spec in tried:
            continue
        tried.add(d.spec)
        module = received(text, config, d, occurrence(logged, i), module_scope=True) if _no_target(before) else None
        for ir_in in (module, before) if family.sibling else ():
            # the pass runs on the op there: the pipeline that expands the sibling on this very IR leaves the op
            expands = _expands_sibling(d, ir_in, family, element, config) if ir_in else None
            if expands is None or ir_in is None:
                continue
            pipeline, context = expands
            code, out, _ = iree_opt(ir_in, pipeline, config)
            kept = arith_lines(out, family, element)[:2] if code == 0 else []
            if not kept:
                continue  # it removes the op too: not the pass that misses it
            how = (
                f"{what} ({op} reaches LLVM as {family.llvm[0]}); {d.name} expands {family.sibling} on {element} but "
                f"leaves {family.op}: the pass that should have expanded it"
            )
            shows = (f"// on {BEFORE_FILE} the pass leaves {op}: its output still holds", *kept)
            left = Confirmation(pipeline, shows, context=context)
            return confirmed("executable-targets", d.name, how, ir_in, out, "libcall", left, "")
    i, d, before, _ = candidates[-1]
    how = (
        f"{what} ({op} reaches LLVM as {family.llvm[0]}); no pass expands it"
        + (f" or its sibling {family.sibling}" if family.sibling else "")
        + f"; {d.name} is the last pass whose input holds it: it lowers it to {family.llvm[0]}"
    )

    def lowered(code: int | None, out: str, err: str) -> list[str]:
        return llvm_lines(out, family, element)[:2] if code == 0 else []

    found, ran_on, out = confirm_received(text, config, d, occurrence(logged, i), before, lowered)
    return confirmed(
        "executable-targets",
        d.name,
        how,
        ran_on,
        out,
        "libcall",
        found,
        f"iree-opt running {d.name} does not lower {op}",
    )


def _no_target(ir: str) -> bool:
    """A dispatch function printed without its executable target (a test of it needs the module around it)."""
    return BINDING_OP in ir and EXECUTABLE_TARGET not in ir


def _expands_sibling(
    d: Dump, before: str, family: Family, element: str, config: CompilerConfig
) -> tuple[str, tuple[str, ...]] | None:
    """(the pipeline, what shows it) when ``d``'s pass, on ``before`` with the op renamed to its sibling, removes the
    sibling on ``element``: the command that runs it (``sed`` renaming, then the pass) and the lines its output gains
    there (the expansion); None when it does not, or the run fails."""
    sibling = family.sibling
    if sibling is None:
        return None
    kind, sibling_kind = family.op.split(".", 1)[1], sibling.split(".", 1)[1]
    renamed = before.replace(family.op, sibling).replace(f"<{kind}>", f"<{sibling_kind}>")
    if not arith_lines(renamed, family, element, sibling):
        return None
    confirmation: Confirmation | None
    confirmation, out = confirm(
        d.spec or d.name,
        renamed,
        config,
        lambda code, out, err: ["expanded"] if code == 0 and not arith_lines(out, family, element, sibling) else [],
    )
    if confirmation is None:
        return None
    rename = f"s/{family.op}/{sibling}/g; s/<{kind}>/<{sibling_kind}>/g"
    run = shlex.join(["iree-opt", f"--pass-pipeline={confirmation.pipeline}"])
    had = set(_OP.findall(renamed))  # the lines of its expansion: ops its input has none of, and the sibling again
    gained = [line.strip() for line in out.splitlines() if (m := _OP.search(line)) and m.group(1) not in had]
    gained += [line.strip() for line in out.splitlines() if sibling in line]
    gained.sort(key=[line.strip() for line in out.splitlines()].index)
    return confirmation.pipeline, (
        f"// with {sibling} for {family.op} in its input, the same pass expands it (its output holds no "
        f"{sibling} on {element}; the lines it writes instead):",
        f"// sed {shlex.quote(rename)} {BEFORE_FILE} | {run}",
        *gained[:6],
    )
