"""Wrong values: translation validation, pass by pass, with the float64 interpreter.

1. **Phases** (program level): the IR after each ``--compile-to`` phase from input to flow, unwrapped to plain
   functions (``unwrap``), on the program's inputs. The first phase whose values differ from the program's (or that
   reads out of bounds where the program does not) is searched pass by pass (``--mlir-print-ir-after-change
   --mlir-print-ir-module-scope``): the first pass whose output differs is the culprit.
2. **The constant-evaluation JIT** (``iree-consteval-jit-globals``) compiles hoisted code with the whole pipeline and
   folds in what it computes: a wrong value it brings is made further down. The search runs again with
   ``--iree-opt-const-eval=false``, where that code is an ordinary dispatch.
3. **Codegen**: when every phase through flow agrees, each dispatch's IR before and after each codegen pass, while
   it is on tensors, is run on the same inputs (``dispatch``: drawn bindings, the program's dims as push constants):
   the first pass whose output computes other values than its input, or depends on a poison value where its input
   does not, is the culprit. A dump the interpreter cannot read (bufferized IR) is never blamed, nor is the pass
   after it (its input was not judged).

4. **Stream**, where none of these finds a pass: the interpreter cannot read stream IR, but a buffer written in place
   while a later op still reads it is a wrong value by construction (``aliasing``).

Every pass found is confirmed: ``iree-opt`` running it alone on its input gives IR the interpreter evaluates to the
same difference. Where the interpreter cannot follow, "not localized".
"""

from __future__ import annotations

import dataclasses
import re
from typing import TYPE_CHECKING, Sequence

import numpy as np

from ireefuzz.oracles import numeric
from ireefuzz.oracles.vocabulary import BINDING_OP

from . import aliasing, dispatch
from .confirm import confirm, confirm_received, occurrence, received
from .log import Dump, dumps, function_text, functions, is_adaptor
from .record import Culprit, confirmed, not_localized
from .run import AFTER_EACH_CHANGE, INTERPRETED_PHASES, PHASES, compile_, phase_ir
from .unwrap import unwrap

if TYPE_CHECKING:
    from ireefuzz.sut import CompilerConfig

CONST_EVAL_OFF = "--iree-opt-const-eval=false"
JIT_PASS = "iree-consteval-jit-globals"  # evaluates hoisted code by compiling it with the whole pipeline


_DEFINES = re.compile(r"^\s*(%[\w.$-]+(?:\s*,\s*%[\w.$-]+)*)(?::\d+)?\s*=")
_VALUE = re.compile(r"%[\w.$-]+")
_RETURNS = re.compile(r"^\s*(?:func\.return|util\.return|return)\b")


def wrong_lines(ir: str, binding: int | None, limit: int = 8) -> list[str]:
    """The lines of a function's IR that compute what it writes into ``binding`` (a dispatch's), or what it returns
    (``None``): the write, then back through the ops whose results it uses, in the order printed."""
    lines = ir.splitlines()
    defined: dict[str, int] = {}
    for i, line in enumerate(lines):
        m = _DEFINES.match(line)
        if m:
            for name in re.findall(r"%[\w.$-]+", m.group(1)):
                defined[name] = i
    base = lambda v: v.split("#")[0]
    if binding is None:
        sinks = [i for i, line in enumerate(lines) if _RETURNS.match(line)]
        target: set[str] = set()
    else:
        target = {
            n for n, i in defined.items() if BINDING_OP in lines[i] and re.search(rf"\bbinding\({binding}\)", lines[i])
        }
        sinks = [
            i
            for i, line in enumerate(lines)
            if i not in {defined[n] for n in target} and any(base(v) in target for v in _VALUE.findall(line))
        ]
    keep: set[int] = set(sinks[:2])
    todo = [i for i in sorted(keep)]
    while todo and len(keep) < limit:
        i = todo.pop(0)
        head = _DEFINES.match(lines[i])
        uses = _VALUE.findall(lines[i][head.end() :] if head else lines[i])
        for v in uses:
            j = defined.get(base(v))
            if j is not None and j not in keep and base(v) not in target and len(keep) < limit:
                keep.add(j)
                todo.append(j)
    return [lines[i].strip() for i in sorted(keep)]


def shown_lines(after: str, binding: int | None, *values: str, poisoned: bool = False) -> list[str]:
    """What a wrong value's confirmation shows: the lines of the pass's output that compute the wrong value
    (``wrong_lines``), where it reads poison (``poison_reads``, when its values depend on it), then the values before
    and after it, in words."""
    wrong = wrong_lines(after, binding) if after else []
    what = f"binding {binding}" if binding is not None else "its result"
    head = [f"// the pass's output computes {what} with:", *wrong] if wrong else []
    reads = poison_reads(after) if poisoned and after else []
    head += ["// and reads poison (its values change with what poison reads as) at:", *reads] if reads else []
    return [*head, *(f"// {v}" for v in values)] if head else list(values)


_POISON = re.compile(r"^\s*(%[\w.$-]+) = ub\.poison\b[^\n]*$", re.M)


def poison_reads(ir: str, limit: int = 3) -> list[str]:
    """The ``ub.poison`` lines of ``ir`` and the first lines that use each (a padding value of a read: where the
    read goes out of bounds, its lanes are poison)."""
    out: list[str] = []
    for m in _POISON.finditer(ir):
        use = re.compile(rf"{re.escape(m.group(1))}(?![\w.$-])")
        users = [line.strip() for line in ir[m.end() :].splitlines() if use.search(line)]
        out += [m.group(0).strip(), *users[:limit]]
    return out


def wrong_bindings(was: dispatch.Evaluation, now: dispatch.Evaluation, rtol: float) -> list[int]:
    """The bindings ``now`` writes otherwise than ``was``: other values, or (where ``now`` depends on a poison value)
    other values with poison read as the second fill; a binding ``was`` does not write is wrong too."""
    if now.outputs is None or was.outputs is None:
        return []
    other = lambda k, outputs: k not in was.outputs or not dispatch.same(was.outputs[k], outputs[k], rtol)
    poisoned = now.otherwise if now.undefined and now.otherwise is not None else {}
    return [k for k in sorted(now.outputs) if other(k, now.outputs) or (k in poisoned and other(k, poisoned))]


def interpret(text: str, function: str, inputs: Sequence[np.ndarray]) -> list[np.ndarray]:
    from ireefuzz.oracles.interpret import interpret as run

    return [np.asarray(y) for y in run(text, function, list(inputs))]


def _undefined(e: BaseException) -> bool:
    """The interpreter stopped at undefined behaviour (an out-of-bounds read, ...), not at an op it lacks."""
    return "undefined behaviour" in str(e) or "undefined behavior" in str(e)


def _differs(a: Sequence[np.ndarray], b: Sequence[np.ndarray], rtol: float) -> bool:
    if len(a) != len(b):
        return True
    for x, y in zip(a, b):
        x, y = np.asarray(x, dtype=np.float64), np.asarray(y, dtype=np.float64)
        if x.shape != y.shape or not np.allclose(x, y, rtol=rtol, atol=rtol, equal_nan=True):
            return True
    return False


def _shown(values: Sequence[np.ndarray] | None, first: int = 8) -> str:
    """Values as a line: each output's first elements."""
    if values is None:
        return "undefined behaviour"
    flat = [np.asarray(v).reshape(-1) for v in values]
    return "; ".join(
        f"{np.shape(v)} {x[:first].tolist()}{' ...' if x.size > first else ''}" for v, x in zip(values, flat)
    )


# --------------------------------------------------------------------------- the search


def wrong_values(
    text: str,
    function: str,
    inputs: Sequence[np.ndarray],
    config: CompilerConfig,
    *,
    rtol: float = 1e-6,
    phases: Sequence[str] = INTERPRETED_PHASES,
) -> Culprit:
    """The first pass whose IR the interpreter evaluates to other values than its input's; where none is found (the
    interpreter cannot read stream IR), the first stream pass that shares a buffer written in place (``aliasing``)."""
    found = _wrong_values(text, function, inputs, config, rtol, phases)
    if found.localized:
        return found
    so_far = found.how.removeprefix("not localized: ").split("; in codegen:")[0]
    if "; in codegen:" in found.how:
        so_far += "; no codegen pass the interpreter reads changes a dispatch's values"
    shared = aliasing.in_stream(text, config, so_far)
    return shared if shared.localized else found


def _wrong_values(
    text: str, function: str, inputs: Sequence[np.ndarray], config: CompilerConfig, rtol: float, phases: Sequence[str]
) -> Culprit:
    found = _search(text, function, inputs, config, rtol, phases)
    if found.pass_ != JIT_PASS or CONST_EVAL_OFF in config.flags:
        return found
    again = _search(
        text, function, inputs, dataclasses.replace(config, flags=(*config.flags, CONST_EVAL_OFF)), rtol, phases
    )
    if not again.localized:
        jit = f"{JIT_PASS} folds the wrong value in (it compiles hoisted code with the whole pipeline); "
        return dataclasses.replace(again, how=f"{jit}with {CONST_EVAL_OFF}: {again.how}")
    # the culprit is the pass found; const-eval only carries its wrong result into the program, as a constant
    carried = (
        f"; the default compile gets the same wrong value through {JIT_PASS}, which compiles the hoisted (input-free) "
        f"computation with this same pipeline and folds its result in as a constant, so the search ran with "
        f"{CONST_EVAL_OFF} (the same dispatch, run at run time)"
    )
    return dataclasses.replace(again, how=again.how + carried)


def _search(
    text: str, function: str, inputs: Sequence[np.ndarray], config: CompilerConfig, rtol: float, phases: Sequence[str]
) -> Culprit:
    try:
        reference = interpret(text, function, inputs)
    except Exception as e:  # noqa: BLE001 -- the interpreter refuses the program itself
        return not_localized(
            f"the interpreter cannot evaluate the program ({str(e).splitlines()[0][:120]})", method="wrong-value"
        )
    previous, followed = text, list[str]()
    for phase in phases:
        out = phase_ir(text, config, phase)
        if out is None:
            return not_localized(f"--compile-to={phase} fails", phase, "wrong-value")
        try:
            values = interpret(unwrap(out), function, inputs)
        except Exception as e:  # noqa: BLE001 -- NotInterpretable, a parse error, an unwrap it cannot do
            if _undefined(e):  # the program is UB-free (its reference ran): the compiler's IR is not
                return _pass_in_phase(text, previous, phase, function, inputs, reference, config, rtol)
            why = str(e).splitlines()[0][:120] if str(e) else type(e).__name__
            return in_codegen(
                text,
                config,
                inputs,
                _dynamic_dims(text, function, inputs),
                f"the IR agrees with the program through {followed[-1] if followed else 'none'}; the interpreter "
                f"cannot follow {phase} ({why})",
            )
        if _differs(values, reference, rtol):
            return _pass_in_phase(text, previous, phase, function, inputs, reference, config, rtol)
        previous, followed = out, followed + [phase]
    return in_codegen(
        text,
        config,
        inputs,
        _dynamic_dims(text, function, inputs),
        f"the IR after every phase through {followed[-1]} gives the program's values",
    )


def _pass_in_phase(
    text: str,
    before_phase: str,
    phase: str,
    function: str,
    inputs: Sequence[np.ndarray],
    reference: Sequence[np.ndarray],
    config: CompilerConfig,
    rtol: float,
) -> Culprit:
    """Within ``phase``: the first pass whose module-scope dump the interpreter evaluates to other values."""
    start = PHASES[PHASES.index(phase) - 1] if PHASES.index(phase) else None
    extra = [f"--compile-to={phase}", *AFTER_EACH_CHANGE, "--mlir-print-ir-module-scope"]
    source = before_phase
    if start is not None and before_phase is not text:
        extra = [f"--compile-from={start}", *extra]
    else:
        source = text
    code, _, err = compile_(source, config, extra)
    how = (
        f"the interpreter on the IR after --compile-to={phase} gives other values than on the program (or hits "
        "undefined behaviour the program does not have); on the IR before it agrees"
    )
    if code != 0:
        return not_localized(how + "; the per-pass dump failed", phase, "wrong-value")
    logged = dumps(err)
    found = first_pass_differing(err, function, inputs, reference, rtol)
    if found is None:
        return not_localized(how + "; no per-pass dump the interpreter reads differs", phase, "wrong-value")
    last, d = found
    before = last or source
    how += f"; the first pass whose output differs: {d.name} (--mlir-print-ir-after-change, module scope)"
    want = interpret(unwrap(before), function, inputs)

    def shows(code: int | None, out: str, err: str) -> list[str]:
        if code != 0:
            return []
        stopped = ""
        try:
            got: list[np.ndarray] | None = interpret(unwrap(out), function, inputs)
        except Exception as e:  # noqa: BLE001
            if not _undefined(e):
                return []
            got, stopped = None, str(e).splitlines()[0][:300]
        if got is not None and not _differs(got, want, rtol):
            return []
        return shown_lines(
            function_text(unwrap(out), function) or "",
            None,
            f"the interpreter on culprit_before.mlir: {_shown(want)}",
            f"on the pass's output: {_shown(got)}" + (f" (it stops at: {stopped})" if stopped else ""),
        )

    i = logged.index(d)
    confirmation, ran_on, out = confirm_received(source, config, d, occurrence(logged, i), before, shows)
    return confirmed(
        phase,
        d.name,
        how,
        ran_on,
        out or d.body,
        "wrong-value",
        confirmation,
        f"iree-opt running {d.name} alone on its input gives IR that computes the same values",
    )


def first_pass_differing(
    log: str, function: str, inputs: Sequence[np.ndarray], reference: Sequence[np.ndarray], rtol: float = 1e-6
) -> tuple[str, Dump] | None:
    """(the IR before, the first module-scope ``After`` dump of ``log`` the interpreter evaluates to other values than
    ``reference``, or finds undefined behaviour in); dumps it cannot read are skipped, never blamed."""
    last = ""
    for d in dumps(log):
        if d.when != "After" or is_adaptor(d):
            continue
        try:
            values = interpret(unwrap(d.body), function, inputs)
        except Exception as e:  # noqa: BLE001 -- a dump it cannot read: keep looking, but it cannot be blamed
            if not _undefined(e):
                continue
            values = None  # undefined behaviour the program does not have
        if values is None or _differs(values, reference, rtol):
            return last, d
        last = d.body
    return None


# --------------------------------------------------------------------------- codegen


def _dynamic_dims(text: str, function: str, inputs: Sequence[np.ndarray]) -> list[int]:
    """The program's dynamic dims at these inputs, in argument order (what a dispatch's push constants carry)."""
    header = re.search(rf"func\.func\s+(?:public\s+|private\s+)?@{re.escape(function)}\(([^{{]*)\)", text)
    types = re.findall(r":\s*(tensor<[^>]*>|[a-z]\w*)", header.group(1)) if header else []
    dims = []
    for t, x in zip(types, inputs):
        shape = re.match(r"tensor<((?:[\d?]+x)*)", t)
        if shape:
            dims += [n for d, n in zip(shape.group(1).split("x")[:-1], np.shape(x)) if d == "?"]
    return [int(d) for d in dims]


def _rtol(text: str) -> float:
    floats = sorted({t for t in ("f16", "bf16", "f32", "f64") if re.search(rf"\b{t}\b|x{t}\b", text)})
    return numeric.relative_tolerance(floats, 4, 1)


@dataclasses.dataclass(frozen=True)
class _Step:
    function: str
    index: int  # in the log
    dump: Dump
    before: str  # the function's IR the pass received
    inputs: dispatch.Inputs
    was: dispatch.Evaluation
    now: dispatch.Evaluation


def _first_step_differing(
    logged: Sequence[Dump], function: str, dims: Sequence[int], given: Sequence[np.ndarray]
) -> tuple[_Step | None, str]:
    """The first pass of ``function`` whose output the interpreter evaluates otherwise than its input (and why not
    when None)."""
    hist = [(i, d, body) for i, d in enumerate(logged) if (body := function_text(d.body, function) or "")]
    hist = hist[next((k for k, (_, _, body) in enumerate(hist) if BINDING_OP in body), len(hist)) :]
    if not hist:
        return None, f"no dump prints {function} on its bindings"
    source = hist[0][2]
    rtol = _rtol(source)
    why = f"the interpreter cannot read {function}'s source"
    for inputs in dispatch.draws(source, dims, given):
        was = dispatch.evaluate(source, function, inputs)
        if was.outputs is None:
            why = f"the interpreter cannot read {function}'s source ({was.error})"
            continue
        if was.undefined:
            why = f"{function}'s source depends on a poison value on {inputs.describe()}"
            continue
        before, judged = source, True
        for i, d, body in hist[1:]:
            now = dispatch.evaluate(body, function, inputs)
            if now.outputs is None:
                judged = False  # not read: neither it nor the next pass can be blamed
                continue
            if judged and not is_adaptor(d) and d.when == "After" and dispatch.differs(was, now, rtol):
                return _Step(function, i, d, before, inputs, was, now), ""
            before, was, judged = body, now, True
        return None, f"every pass of {function} the interpreter reads keeps its values on {inputs.describe()}"
    return None, why


def in_codegen(
    text: str, config: CompilerConfig, inputs: Sequence[np.ndarray], dims: Sequence[int], so_far: str
) -> Culprit:
    """The first codegen pass (of any dispatch) whose output computes other values than its input."""
    _, _, log = compile_(text, config, list(AFTER_EACH_CHANGE))
    logged = dumps(log)
    found: list[_Step] = []
    reasons = []
    for function in functions(log):
        step, why = _first_step_differing(logged, function, dims, inputs)
        if step is not None:
            found.append(step)
        else:
            reasons.append(why)
    if not found:
        return not_localized(f"{so_far}; in codegen: {'; '.join(reasons) or 'no dispatch'}", None, "wrong-value")
    step = min(found, key=lambda s: s.index)
    d, function = step.dump, step.function
    rtol = _rtol(step.before)
    how = (
        f"{so_far}; translation validation in codegen: the interpreter runs {function} before and after each pass "
        f"on {step.inputs.describe()}; the first pass whose output differs from its input is {d.name} "
        f"(before: {step.was.line()}; after: {step.now.line()})"
    )

    def shows(code: int | None, out: str, err: str) -> list[str]:
        after = function_text(out, function) if code == 0 else None
        if after is None:
            return []
        now = dispatch.evaluate(after, function, step.inputs)
        if not dispatch.differs(step.was, now, rtol):
            return []
        wrong = wrong_bindings(step.was, now, rtol)
        return shown_lines(
            after,
            wrong[0] if wrong else None,
            f"the interpreter on culprit_before.mlir: {step.was.line()}",
            f"on the pass's output: {now.line()}",
            poisoned=now.undefined,
        )

    # on the whole module the pass received first: with its executable target, it is a pass test as it is
    k = occurrence(logged, step.index)
    module = received(text, config, d, k, module_scope=True)
    confirmation, out = confirm(d.spec or d.name, module, config, shows) if module else (None, "")
    ran_on = module or ""
    if confirmation is None:
        confirmation, ran_on, out = confirm_received(text, config, d, k, step.before, shows)
    return confirmed(
        "executable-targets",
        d.name,
        how,
        ran_on,
        out or function_text(d.body, function) or d.body,
        "wrong-value",
        confirmation,
        f"iree-opt running {d.name} alone on its input gives IR that computes the same values",
    )
