"""Following a rejected op back to the pass that made it.

A checker (the stack-limit check, the workgroup-distribution verifier) and the memory oracle report an op that an
earlier pass made. The op's *form* is what makes it that op: a stack buffer of one type, a write to a dispatch
binding outside the workgroup loop. The first pass whose output holds the form made it, unless its input already
held the form's *precursor*, which it only materialized:

- a write to a binding outside the workgroup loop materializes an op that updates, in place, a value loaded from a
  read-only binding (bufferization must copy it to the output binding first).

An op LLVM translation cannot translate (``LLVM Translation failed for operation: builtin.unrealized_conversion_cast``,
``cannot be converted to LLVM IR ... for op: vector.gather``) is a form too: serialization only reports it; the pass
whose output first holds it is the conversion that should have lowered what it wraps (a strided ``vector.gather`` that
``iree-convert-to-llvm`` leaves behind a cast): ``untranslated``. A cast is the instance translation names; another
op is the op in a function already converted (an ``llvm.func``), so the pass that made it (vectorization) is gone
past. No dump holding it: not localized.

A pass that only does its job is gone past; one that makes the defect is not. A buffer (``memref.alloca`` /
``alloc``) has no precursor: a ``tensor.empty`` or ``bufferization.alloc_tensor`` is no buffer, only a tensor whose
contents nothing defines, and the passes that make or tile one (detaching an elementwise init from a named op, tiling,
``empty-tensor-to-alloc-tensor``) do their job. Where such a tensor becomes a stack or heap buffer is bufferization's
decision (its allocation function), so the pass whose output first holds the buffer made it. (``tensor_allocations``
still describes such tensors, for a rule that needs them.)

The search goes back through the dispatch function's passes, then, from its source, through the passes before
codegen (the form now: the allocation used by the same op, in any function). A form the program itself holds was
made by no pass: not localized. The pass found is confirmed when ``iree-opt`` running it alone on its input prints
the form (which the input did not hold).
"""

from __future__ import annotations

import dataclasses
import re
from typing import TYPE_CHECKING, Any, Callable, Sequence

from ireefuzz.oracles import vocabulary

from .confirm import confirm_received, occurrence
from .log import Dump, dumps, function_text, is_adaptor
from .record import Culprit, confirmed, not_localized
from .run import AFTER_EACH_CHANGE, compile_, phase_of, phase_of_pass

if TYPE_CHECKING:
    from ireefuzz.sut import CompilerConfig

Holds = Callable[[str], list[str]]  # an IR text -> the lines that hold the form


@dataclasses.dataclass(frozen=True)
class Form:
    what: str  # e.g. "memref.alloca : memref<1x2x1x4xf32>"
    holds: Holds
    precursor: Callable[[str], "Form | None"] = lambda text: (
        None
    )  # the form a pass's input held, if it only materialized
    users: frozenset[str] = frozenset()  # the ops that use it (empty: any)
    allocation: bool = False  # a tensor allocation: before codegen, known by the ops that use it
    # What the pass run alone must print to confirm it made the form (default: the form itself).
    confirms: Holds | None = None


# --------------------------------------------------------------------------- types

_SHAPED = re.compile(r"(memref|tensor)<((?:[\d?]+x)*)([a-z]\w*)")


def shape_of(type_text: str) -> tuple[tuple[str, ...], str] | None:
    """(dims, element type) of ``memref<2x?xf32, ...>`` / ``tensor<...>``."""
    m = _SHAPED.search(type_text)
    if m is None:
        return None
    return tuple(d for d in m.group(2).split("x") if d), m.group(3)


def covers(outer: tuple[str, ...], inner: tuple[str, ...]) -> bool:
    """A tensor of dims ``outer`` can hold one of ``inner`` (the same rank; each dim dynamic or at least as large)."""
    return len(outer) == len(inner) and all(o == "?" or i == "?" or int(o) >= int(i) for o, i in zip(outer, inner))


# --------------------------------------------------------------------------- forms

_BUFFER = re.compile(r"^\s*(%[\w.#]+) = (memref\.alloca?)\b[^\n]*?: (memref<[^\n]*>)\s*$", re.M)
_TENSOR_ALLOCATION = re.compile(
    r"^\s*(%[\w.#]+) = (tensor\.empty|bufferization\.alloc_tensor)\b[^\n]*?: (tensor<[^>\n]*>)\s*$", re.M
)
_OP_NAME = re.compile(r"(?:=\s*|^\s*)\"?([a-z_][\w]*\.[\w.]+)")


def _users(text: str, value: str) -> set[str]:
    """The names of the ops that use ``value`` in ``text``."""
    use = re.compile(rf"{re.escape(value)}(?![\w.#])")
    names = set()
    for line in text.splitlines():
        if use.search(line) and not re.match(rf"\s*{re.escape(value)}\s*=", line):
            m = _OP_NAME.search(line)
            if m:
                names.add(m.group(1))
    return names


def tensor_allocations(dims: tuple[str, ...], element: str, users: frozenset[str] = frozenset()) -> Form:
    """``tensor.empty`` / ``bufferization.alloc_tensor`` of ``element`` whose shape covers ``dims`` (used by one of
    ``users`` when given)."""

    def holds(text: str) -> list[str]:
        found = []
        for m in _TENSOR_ALLOCATION.finditer(text):
            shape = shape_of(m.group(3))
            if shape and shape[1] == element and covers(shape[0], dims):
                if not users or _users(text, m.group(1)) & users:
                    found.append(m.group(0).strip())
        return found

    used = f" used by {' / '.join(sorted(users))}" if users else ""
    what = f"a tensor.empty / alloc_tensor of {element} covering {'x'.join(dims) or 'scalar'}{used}"
    return Form(what, holds, users=users, allocation=True)


def buffer_lines(text: str) -> list[tuple[str, str]]:
    """(op, memref type) of each stack / heap buffer ``text`` allocates, in order."""
    return [(m.group(2), m.group(3)) for m in _BUFFER.finditer(text)]


def buffers(op: str, type_text: str) -> Form:
    """``op`` (memref.alloca / memref.alloc) of exactly ``type_text``'s shape and element type."""
    shape = shape_of(type_text)
    assert shape is not None
    dims, element = shape

    def holds(text: str) -> list[str]:
        return [
            m.group(0).strip()
            for m in _BUFFER.finditer(text)
            if m.group(2) == op and shape_of(m.group(3)) == (dims, element)
        ]

    def either(text: str) -> list[str]:  # the buffer, on the stack or the heap (a bounded one: dynamic there)
        return [
            m.group(0).strip()
            for m in _BUFFER.finditer(text)
            if (found := shape_of(m.group(3))) is not None
            and found[1] == element
            and len(found[0]) == len(dims)
            and all(a == b or a == "?" for a, b in zip(found[0], dims))
        ]

    # No precursor: bufferization made it. Run alone, bufferization allocates with its default function
    # (``memref.alloc``, of the dynamic size where iree-compile's CPU pipeline bounds it); iree-compile's CPU
    # pipeline gives it the stack one: the same buffer confirms it.
    return Form(f"{op} : memref<{'x'.join(dims + (element,))}>", holds, confirms=either)


# A write into a binding outside any loop: a store-like op at the function's top level (two spaces in a
# function-scope dump) whose written operand is a binding (an interface subspan, or a view of one).
_BINDING = re.compile(r"^\s*(%[\w.#]+) = hal\.interface\.binding\.subspan\b", re.M)
_VIEW = re.compile(
    r"^\s*(%[\w.#]+) = memref\.(?:assume_alignment|cast|subview|expand_shape|collapse_shape) (%[\w.#]+)", re.M
)


def _binding_values(text: str) -> set[str]:
    values = {m.group(1) for m in _BINDING.finditer(text)}
    for m in _VIEW.finditer(text):  # views in order of definition: a view of a view is a binding too
        if m.group(2) in values:
            values.add(m.group(1))
    return values


def _functions_of(text: str) -> list[str]:
    """Each function ``text`` prints, cut out (its body ops two spaces in)."""
    names = re.findall(r"^[ \t]*(?:func\.func|util\.func)\s+(?:(?:public|private)\s+)?(@[\w$.-]+)", text, re.M)
    return [f for f in (function_text(text, n) for n in names) if f]


def binding_writes(op_name: str) -> Form:
    """``op_name`` writing a binding at the function's top level, outside the workgroup loop."""

    def holds(text: str) -> list[str]:
        found = []
        for function in _functions_of(text):
            bound = _binding_values(function)
            for line in function.splitlines():
                if not re.match(rf"  (?:%[\w.#]+ = )?{re.escape(op_name)}\b", line):
                    continue
                written = re.search(r"outs\(([^)]*)\)", line) or re.search(r"memref\.copy [^,]+, (%[\w.#]+)", line)
                read = re.search(r"ins\(([^)]*)\)", line)
                targets = set(re.findall(r"%[\w.#]+", written.group(1))) if written else set()
                if targets & bound and not (read and set(re.findall(r"%[\w.#]+", read.group(1))) == targets):
                    found.append(line.strip())  # (an identity copy, ins = outs, is no write)
        return found

    return Form(f"{op_name} writing a binding outside the workgroup loop", holds, _in_place_on_read_only)


_LOAD = re.compile(
    r"^\s*(%[\w.#]+) = (?:iree_codegen\.load_from_buffer|iree_tensor_ext\.dispatch\.tensor\.load|"
    r"flow\.dispatch\.tensor\.load|hal\.tensor\.import) (%[\w.#]+)",
    re.M,
)
_READ_ONLY_ARGUMENT = re.compile(
    r"(%arg\d+): (?:!iree_tensor_ext\.dispatch\.tensor<readonly:|tensor<|!hal\.buffer_view)"
)
# An op's destination: a DPS init, an unpack / insert target, a loop's shared or carried value.
_DESTINATION = r"(?:outs\(|into |shared_outs\(%[\w.#]+ = |iter_args\(%[\w.#]+ = )"


def _read_only_values(text: str) -> set[str]:
    """The values of ``text`` that hold a read-only input: read-only bindings, a dispatch's read-only tensor
    arguments, the program's tensor arguments (and what is loaded or imported from any of them)."""
    sources = {
        m.group(1)
        for m in _BINDING.finditer(text)
        if re.search(r"ReadOnly|readonly:", text[m.start() : text.find("\n", m.start())])
    }
    sources |= set(_READ_ONLY_ARGUMENT.findall(text))
    for m in _LOAD.finditer(text):
        if m.group(2) in sources:
            sources.add(m.group(1))
    return sources


def updates_read_only(text: str) -> list[str]:
    """The lines of ``text`` whose op updates a read-only input in place (its destination is one)."""
    values = _read_only_values(text)
    if not values:
        return []
    destination = re.compile(rf"{_DESTINATION}(%[\w.#]+)")
    return [line.strip() for line in text.splitlines() if any(v in values for v in destination.findall(line))]


def _unread_destination(line: str) -> str:
    """What an op that overwrites its destination without reading it (``vocabulary.DESTINATION_UNREAD_OPS``) needs
    instead of a copy of a read-only one; "" for any other op."""
    op = re.search(r"=\s*([\w.]+)", line)
    if op is None or op.group(1) not in vocabulary.DESTINATION_UNREAD_OPS:
        return ""
    return (
        f"; `{op.group(1)}` overwrites all of its destination and never reads it, so a fresh buffer would do: the "
        "passes after keep the read-only argument as the destination and copy it whole"
    )


_UPDATES_READ_ONLY = Form("an op whose destination is a read-only input", updates_read_only)


def _in_place_on_read_only(text: str) -> Form | None:
    """Bufferization must copy a read-only input to the output before an op updates it in place: the copy it makes
    only materializes that update."""
    return _UPDATES_READ_ONLY if updates_read_only(text) else None


# --------------------------------------------------------------------------- the search


@dataclasses.dataclass(frozen=True)
class Traced:
    dump: Dump | None  # the pass that made the form (None: not found, or the program holds it)
    before: str  # what it received
    form: Form | None  # the form it made
    steps: tuple[str, ...]  # the passes gone past, each "pass: materializes form"
    why: str = ""  # when not found


def trace(logged: Sequence[Dump], program: str, function: str, form: Form) -> Traced:
    """The pass that made ``form`` (held by ``function``'s IR at some point of ``logged``), past materializations."""
    steps: list[str] = []
    hist = [(i, d, body) for i, d in enumerate(logged) if (body := function_text(d.body, function) or "")]
    while True:
        j = next((j for j, (_, _, body) in enumerate(hist) if form.holds(body)), None)
        if j is None:
            return Traced(None, "", form, tuple(steps), f"no dump of {function} holds {form.what}")
        if j == 0:
            break  # the dispatch's source holds it: made before codegen
        _, d, body = hist[j]
        if is_adaptor(d):
            return Traced(None, "", form, tuple(steps), f"{form.what} first appears in a pipeline adaptor's dump")
        before = hist[j - 1][2]
        pre = form.precursor(before)
        if pre is None:
            return Traced(d, before, form, tuple(steps))
        steps.append(f"{d.name} materializes {pre.what} as {form.what}")
        form = pre
    # before codegen: the same form (a tensor allocation: used by the ops that use it in the dispatch's source)
    first, _, source = hist[0]
    if form.allocation and not form.users:
        form = tensor_allocations_used(form, source)
    if form.holds(program):
        line = form.holds(program)[0]
        valid = f"the program itself holds {form.what}, valid IR there (its ops take tensor values, not buffers)"
        return Traced(
            None,
            "",
            form,
            tuple(steps),
            f"{valid}: `{line}`; no pass made it, the passes after only carry it{_unread_destination(line)}",
        )
    previous: dict[str, str] = {}
    for d in logged[:first]:
        if d.when == "After" and not is_adaptor(d) and form.holds(d.body):
            return Traced(d, previous.get(d.function, program), form, tuple(steps))
        previous[d.function] = d.body
    return Traced(None, "", form, tuple(steps), f"no pass before codegen prints {form.what}")


def tensor_allocations_used(form: Form, text: str) -> Form:
    """``form`` (tensor allocations) narrowed to those used by the ops that use its allocations in ``text``."""
    users: set[str] = set()
    for line in form.holds(text):
        m = re.match(r"(%[\w.#]+) =", line)
        if m:
            users |= _users(text, m.group(1))
    if not users:
        return form

    def holds(t: str) -> list[str]:
        return [
            line for line in form.holds(t) if (m := re.match(r"(%[\w.#]+) =", line)) and _users(t, m.group(1)) & users
        ]

    return dataclasses.replace(
        form, what=f"{form.what} used by {' / '.join(sorted(users))}", holds=holds, users=frozenset(users)
    )


def localize(
    text: str, config: CompilerConfig, function: str, form: Form, what: str, method: Any, log: str = ""
) -> Culprit:
    """The confirmed pass that made ``form`` (which ``what`` reports), or not localized."""
    if not log:
        _, _, log = compile_(text, config, list(AFTER_EACH_CHANGE))
    logged = dumps(log)
    found = trace(logged, text, function, form)
    past = f"; gone past: {'; '.join(found.steps)}" if found.steps else ""
    if found.dump is None or found.form is None:
        return not_localized(f"{what}: {found.why}{past}", phase_of(function), method)
    d, made = found.dump, found.form
    how = f"{what}; the first pass whose output holds {made.what} is {d.name}{past}"

    def shows(code: int | None, out: str, err: str) -> list[str]:
        return (made.confirms or made.holds)(out)[:3] if code == 0 else []

    if made.holds(found.before):
        return not_localized(f"{how}, but its input already holds it", phase_of(d.function), method)
    i = logged.index(d)
    confirmation, ran_on, out = confirm_received(text, config, d, occurrence(logged, i), found.before, shows)
    return confirmed(
        phase_of(d.function) or (phase_of_pass(text, config, d.name) if confirmation else None),
        d.name,
        how,
        ran_on,
        out or d.body,
        method,
        confirmation,
        f"iree-opt running {d.name} alone on its input does not print {made.what}",
    )


# --------------------------------------------------------------------------- untranslated ops

CAST = "builtin.unrealized_conversion_cast"
# what translation (at serialization) says of an op no conversion lowered; a dialect conversion's "failed to
# legalize" counts only when serialization reported it (a pass of the pipeline failing so is its own error)
_UNTRANSLATED = (
    re.compile(r"LLVM Translation failed for operation: ([\w.]+)"),
    re.compile(r"cannot be converted to LLVM IR: [^\n]*?for op: ([\w.]+)"),
)
_NOT_LEGALIZED = re.compile(r"failed to legalize operation '([\w.]+)'")
_AT_SERIALIZATION = re.compile(r"failed to serialize executable|failed to translate the MLIR LLVM dialect")


def untranslated_op(diagnostic: str) -> str | None:
    """The op left unconverted that LLVM translation / serialization rejected, from a compile's diagnostic (None: no
    such failure)."""
    for pattern in _UNTRANSLATED:
        if m := pattern.search(diagnostic):
            return m.group(1)
    m = _NOT_LEGALIZED.search(diagnostic)
    return m.group(1) if m and _AT_SERIALIZATION.search(diagnostic) else None


def ops_named(op: str) -> Form:
    """The lines holding an ``op`` operation (``= op`` or a result-less ``op``)."""
    line = re.compile(rf"^\s*(?:%[^=\n]+=\s*)?{re.escape(op)}\b[^\n]*$", re.M)
    return Form(f"`{op}`", lambda text: [m.group(0).strip() for m in line.finditer(text)])


def left_unconverted(op: str) -> Form:
    """``op`` in a function converted to the LLVM dialect (an ``llvm.func``): the conversion went past it. (Where
    the function is still a ``func.func``, the op is only not lowered yet.)"""
    named = ops_named(op)
    converted = re.compile(r"^\s*llvm\.func\b", re.M)

    def holds(text: str) -> list[str]:
        return named.holds(text) if converted.search(text) else []

    return Form(f"`{op}` in an `llvm.func`", holds)


def untranslated_form(logged: Sequence[Dump], op: str, diagnostic: str) -> tuple[str, Form] | str:
    """(the dispatch function, the form to trace) for ``op`` rejected at translation, from an after-each-pass log;
    or why there is none. A cast is traced by the instance translation names (a conversion makes and folds many);
    another op by where it sits in a converted function (the conversion that should have lowered it)."""
    named = ops_named(op)
    holding = [d for d in logged if d.function and named.holds(function_text(d.body, d.function) or "")]
    if not holding:
        return "no dump of a dispatch function holds it"
    form = rejected_instance(named, op, diagnostic) if op == CAST else left_unconverted(op)
    return holding[-1].function, form


def unconverted_users(logged: Sequence[Dump], function: str, form: Form) -> list[str]:
    """The non-LLVM ops using the results of ``form`` (casts) in ``function``'s last dump: what the conversion left
    unconverted behind the cast."""
    body = next((t for d in reversed(logged) if (t := function_text(d.body, function) or "")), "")
    users: set[str] = set()
    for line in form.holds(body):
        if m := re.match(r"(%[\w.#]+) =", line):
            users |= {u for u in _users(body, m.group(1)) if not u.startswith(("llvm.", "builtin."))}
    return sorted(users)


def untranslated(text: str, config: CompilerConfig, op: str, diagnostic: str, phase: str | None) -> Culprit:
    """An op that reached LLVM translation: the pass whose output first holds it (in the dispatch function whose
    last dump still holds it), confirmed by running it alone."""
    _, _, log = compile_(text, config, list(AFTER_EACH_CHANGE))
    logged = dumps(log)
    what = f"LLVM translation (at serialization, which only reports it) fails on `{op}`"
    found = untranslated_form(logged, op, diagnostic)
    if isinstance(found, str):
        return not_localized(f"{what}; {found}", phase, "untranslated")
    function, form = found
    if op == CAST and (users := unconverted_users(logged, function, form)):
        what += f" (an operand of {' / '.join(f'`{u}`' for u in users)}, left unconverted)"
    return localize(text, config, function, form, what, "untranslated", log)


# the op translation names: ``note: see current operation: %14 = "builtin.unrealized_conversion_cast"(%13) : (i64)
# -> index`` (generic form)
_CURRENT = re.compile(r"see current operation: [^\n]*?\"([\w.]+)\"\([^)]*\)[^:\n]*: \(([^\n]*)\) -> ([^\n]+)$", re.M)


def rejected_instance(named: Form, op: str, diagnostic: str) -> Form:
    """``named`` narrowed to the ops of the types translation rejected (its "see current operation" note): a
    conversion makes and folds away many casts; the defect is the one that reached translation."""
    m = next((m for m in _CURRENT.finditer(diagnostic) if m.group(1) == op), None)
    if m is None:
        return named
    types = f": {m.group(2).strip()} to {m.group(3).strip()}"

    def holds(text: str) -> list[str]:
        return [line for line in named.holds(text) if line.endswith(types)]

    return dataclasses.replace(named, what=f"{named.what} `{types[2:]}`", holds=holds)


# --------------------------------------------------------------------------- checkers

_STACK = re.compile(r"stack allocation")
_DISTRIBUTION = re.compile(r"write affecting operations on global resources")
_REJECTED_OP = re.compile(r"'([\w.]+)' op ")


def rejected_form(message: str, checked: str) -> Form | None:
    """The form of what a checker's ``message`` rejects in the IR it ``checked`` (the rules: stack allocations,
    writes outside workgroup distribution); None for a message no rule reads."""
    if _STACK.search(message):
        allocas = [m for m in _BUFFER.finditer(checked) if m.group(2) == "memref.alloca"]
        if not allocas:
            return None
        dynamic = [m for m in allocas if "(%" in m.group(0) or "?" in m.group(3)]
        # a dynamic one is the unbounded one, and the largest under any bound; else the largest static one
        chosen = dynamic[0] if dynamic else max(allocas, key=lambda m: _bytes(m.group(3)))
        return buffers("memref.alloca", chosen.group(3))
    if _DISTRIBUTION.search(message):
        op = _REJECTED_OP.search(message)
        return binding_writes(op.group(1)) if op else None
    return None


def _bytes(type_text: str) -> int:
    shape = shape_of(type_text)
    if shape is None:
        return 0
    n = 1
    for d in shape[0]:
        n *= int(d) if d != "?" else 1
    bits = int(re.sub(r"\D", "", shape[1]) or 32)
    return n * max(bits // 8, 1)


def checker(text: str, config: CompilerConfig, failed: Dump, messages: Sequence[str], phase: str | None) -> Culprit:
    """A checker's error: the pass that made what it rejects."""
    message = next((m for m in messages if rejected_form(m, failed.body) is not None), None)
    what = f"{failed.name} (a checker: its output is its input) reports: {messages[0] if messages else '?'}"
    if message is None:
        return not_localized(f"{what}; no lineage rule reads what it rejects", phase, "checker")
    form = rejected_form(message, failed.body)
    assert form is not None
    return localize(text, config, failed.function, form, what, "checker")
