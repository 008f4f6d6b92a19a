"""Reading printed MLIR with the bindings shipped in IREE: parse, walk, and the compute-op pattern
of a dispatch or a whole program. Shared by the oracles that read IR (memory, fusion) and by the
tools that name a raw-MLIR finding by its ops. Never regexes over IR, except to declare the
callees a per-function dump omits.

Text that does not parse is an ireefuzz/infrastructure problem, not an IREE finding: it raises
``IRParseError``.

IR is read by the bindings of the compiler that printed it. What an oracle reads of a dispatch is a
*fact* (``dispatch_fact``: a function of the dispatch whose value is plain JSON); an older release's
IR does not parse with the installed bindings, so ``ireefuzz/sut/ir_reader.py`` computes every fact in
that release's Python (``facts_of``) and ``sut`` hands them over in ``DispatchIR.facts``.
"""

from __future__ import annotations

import functools
import re
from typing import Any, Callable, Iterator, Sequence, TypeVar

from iree.compiler import ir

from ireefuzz.errors import IRParseError
from ireefuzz.oracles import ir_text

T = TypeVar("T")
FACTS: dict[str, Callable[[Any], Any]] = {}  # fact name -> its JSON value for a dispatch, read here


def dispatch_fact(
    name: str, encode: Callable[[Any], Any] = lambda v: v, decode: Callable[[Any], Any] = lambda v: v
) -> Callable[[Callable[[Any], T]], Callable[[Any], T]]:
    """Declare ``compute(dispatch)`` a fact called ``name``: the decorated function returns
    ``decode(dispatch.facts[name])`` when the dispatch's IR was read elsewhere (``DispatchIR.facts``),
    else ``compute(dispatch)`` with the installed bindings. ``encode`` makes the value JSON."""

    def declare(compute: Callable[[Any], T]) -> Callable[[Any], T]:
        FACTS[name] = lambda dispatch: encode(compute(dispatch))

        @functools.wraps(compute)
        def read(dispatch: Any) -> T:
            facts = getattr(dispatch, "facts", None)
            if facts is None:
                return compute(dispatch)
            value = facts[name] if name in facts and "unreadable" not in facts else ir_text.read(name, dispatch)
            if isinstance(value, dict) and ir_text.UNREADABLE in value:
                raise IRParseError(f"{dispatch.name}: {value[ir_text.UNREADABLE]}", "")
            return decode(value)

        return read

    return declare


def facts_of(dispatch: Any) -> dict[str, Any]:
    """Every declared fact of ``dispatch`` (its ``facts`` unset) read with the installed bindings (what
    ``ir_reader`` answers); a fact these bindings cannot read is read from the text (``ir_text``: the 2023
    releases' bindings know no IREE dialect), or is ``{ir_text.UNREADABLE: why}``."""
    facts = {}
    for name, compute in FACTS.items():
        try:
            facts[name] = compute(dispatch)
        except Exception as e:  # noqa: BLE001  (IRParseError, or bindings older than the judges' use of them)
            facts[name] = ir_text.read(name, dispatch)
            if isinstance(facts[name], dict) and ir_text.UNREADABLE in facts[name]:  # the text's reason first
                why = " ".join(str(e).split("---")[0].split())[:200]
                facts[name] = {ir_text.UNREADABLE: f"{facts[name][ir_text.UNREADABLE]} (the bindings: {why})"}
    return facts


def parse_ir(text: str) -> ir.Module:
    """Parse printed IR (a bare ``func.func``, a ``module`` or a ``hal.executable``) into a module.

    Top-level ops that are not a module are wrapped in an implicit module by the parser. The
    returned module keeps its own ``ir.Context`` (which registers all IREE dialects) alive.
    """
    try:
        return ir.Module.parse(_with_global_declarations(text) + _callee_declarations(text), _context())
    except ir.MLIRError as error:
        raise IRParseError(str(error), text) from None


_CONTEXT_REUSE = (
    256  # parses per Context: creating one costs ~5 ms; a fresh one now and then bounds its uniquing tables
)
_context_state: dict[str, Any] = {"context": None, "uses": 0}


def _context() -> ir.Context:
    state = _context_state
    if state["context"] is None or state["uses"] >= _CONTEXT_REUSE:
        state["context"] = ir.Context()
        state["context"].allow_unregistered_dialects = True
        state["uses"] = 0
    state["uses"] += 1
    return state["context"]


_CALL = re.compile(r"\bcall @([\w$.-]+)\([^)]*\)\s*:\s*(\([^)]*\))\s*->\s*(\([^)]*\)|[^\s{]+)")
_DEFINED = re.compile(r"func\.func (?:private )?@([\w$.-]+)")


def _callee_declarations(text: str) -> str:
    """Declarations for functions a dumped dispatch calls but does not contain (e.g. the
    ``iree_uk_mmt4d`` microkernel under data tiling): a per-function dump omits them, and the
    verifier rejects a call to an undeclared symbol. Only their types are needed."""
    defined = set(_DEFINED.findall(text))
    decls = {
        name: f"func.func private @{name}{args} -> {results}"
        for name, args, results in _CALL.findall(text)
        if name not in defined
    }
    return "".join(f"\n{d}" for d in decls.values())


_GET_GLOBAL = re.compile(r"memref\.get_global @([\w$.-]+) : (memref<[^\n]*>)")
_GLOBAL_DEFINED = re.compile(r"memref\.global (?:\"\w+\" )?(?:constant )?@([\w$.-]+)")
_FUNC_LINE = re.compile(r"^[ \t]*func\.func ", re.MULTILINE)


def _with_global_declarations(text: str) -> str:
    """``text`` with a declaration for each global a dumped dispatch reads (``memref.get_global``, e.g. a
    constant hoisted out of it) but does not contain: a per-function dump omits the module's globals, and the
    verifier rejects a ``get_global`` of an undeclared symbol. Each goes right before the first function, so it
    lands in that function's symbol table (top level, or inside the ``module`` / executable that holds it)."""
    uses = dict(_GET_GLOBAL.findall(text))
    missing = {name: kind for name, kind in uses.items() if name not in set(_GLOBAL_DEFINED.findall(text))}
    first = _FUNC_LINE.search(text)
    if not missing or first is None:
        return text
    decls = "".join(f'memref.global "private" constant @{name} : {kind}\n' for name, kind in missing.items())
    return text[: first.start()] + decls + text[first.start() :]


def walk(op: ir.Operation) -> Iterator[ir.Operation]:
    """Every operation nested in ``op``, in program (pre-)order."""
    for region in op.regions:
        for block in region.blocks:
            for child in block.operations:
                child = child.operation
                yield child
                yield from walk(child)


def block_of(op: ir.Operation) -> ir.Block:
    """The block that holds ``op`` (``Operation.block``; looked up in its parent with older bindings, which
    lack it: a release's own bindings run the judges, ``ireefuzz/sut/ir_reader.py``)."""
    if hasattr(op, "block"):
        return op.block
    return next(
        block
        for region in op.parent.regions
        for block in region.blocks
        if any(child.operation == op for child in block.operations)
    )


def successors(block: ir.Block) -> list[ir.Block]:
    """The blocks ``block`` branches to (``Block.successors``; its terminator's with older bindings)."""
    if hasattr(block, "successors"):
        return list(block.successors)
    operations = list(block.operations)
    return list(operations[-1].operation.successors) if operations else []


def functions(module: ir.Module) -> list[ir.Operation]:
    return [op for op in walk(module.operation) if op.name == "func.func"]


def first_line(op: ir.Operation, limit: int = 240) -> str:
    line = op.get_asm(large_elements_limit=8).strip().splitlines()[0].strip()
    return line if len(line) <= limit else line[: limit - 3] + "..."


def compute_op_pattern(module: ir.Module) -> str:
    """``fill>matmul>generic[exp]``: linalg / linalg_ext ops in program order, deduplicated.

    A generic is annotated with the math ops and ``linalg.index`` of its body (sorted), so an
    iota reads ``generic[index]`` (brackets, not parentheses: signatures keep brackets verbatim).
    Never contains sizes or SSA names.
    """
    names: list[str] = []
    for op in walk(module.operation):
        dialect, _, short = op.name.partition(".")
        if dialect not in ("linalg", "iree_linalg_ext") or short in ("yield", "index"):
            continue
        if short == "generic":
            body = sorted(
                {o.name.partition(".")[2] for o in walk(op) if o.name.startswith("math.")}
                | {"index" for o in walk(op) if o.name == "linalg.index"}
            )
            short = f"generic[{','.join(body)}]" if body else "generic"
        if short not in names:
            names.append(short)
    return ">".join(names) or "-"


@dispatch_fact("op_pattern")
def dispatch_op_pattern(dispatch: Any) -> str:
    """The dispatch's compute-op pattern, from its executable source (else its bufferized IR)."""
    return _op_pattern_of(dispatch.source or dispatch.bufferized_ir)


@functools.lru_cache(maxsize=512)
def _op_pattern_of(text: str) -> str:
    return compute_op_pattern(parse_ir(text)) if text else "-"


def program_op_pattern(dispatches: Sequence[Any], fallback: str = "-") -> str:
    """The deduplicated compute ops of all dispatches (those with an executable source), in dispatch
    order; ``fallback`` when there are none."""
    patterns = [dispatch_op_pattern(d) for d in dispatches if d.source]
    return ">".join(dict.fromkeys(op for p in patterns for op in p.split(">") if op != "-")) or fallback


def lowering_configurations(dispatches: Sequence[Any]) -> tuple[str, ...]:
    """One configuration per dispatch that has one: its pipeline and the ``lowering_config`` of each op
    (tile sizes per level), from the executable IR after strategy selection (``DispatchIR.configured``),
    e.g. ``DoubleTilingExpert[generic{distribution = [32, 1, 0], vector_reduction = [0, 0, 16]}]``."""
    return tuple(c for c in map(_readable_configuration, dispatches) if c)


def _readable_configuration(dispatch: Any) -> str:
    try:
        return dispatch_configuration(dispatch)
    except IRParseError:  # a coverage label is not worth failing a case for
        return ""


@dispatch_fact("configuration")
def dispatch_configuration(dispatch: Any) -> str:
    """The dispatch's pipeline and lowering configurations ("" if it has none): see ``lowering_configurations``."""
    return _configuration_of(dispatch.configured) if getattr(dispatch, "configured", "") else ""


@functools.lru_cache(maxsize=512)
def _configuration_of(text: str) -> str:
    """The configuration in ``text``; "" when there is none, or when these bindings cannot read the IR
    (an older release's syntax): a coverage label is not worth failing a case for."""
    try:
        module = parse_ir(text)
    except IRParseError:
        return ""
    pipeline, configs = "", []
    for op in walk(module.operation):
        attrs = op.attributes
        if op.name == "func.func" and "translation_info" in attrs:
            pipeline = _attr_body(str(attrs["translation_info"])).removeprefix("pipeline = ")
            pipeline = _attr_body(pipeline) if pipeline.startswith("#") else pipeline
        elif "lowering_config" in attrs:
            configs.append(f"{op.name.partition('.')[2]}{{{_attr_body(str(attrs['lowering_config']))}}}")
    return f"{pipeline}[{', '.join(dict.fromkeys(configs))}]" if pipeline or configs else ""


def _attr_body(text: str) -> str:
    """``#dialect.name<body>`` -> ``body`` (the text inside the outermost angle brackets)."""
    start = text.find("<")
    return text[start + 1 : -1] if start >= 0 and text.endswith(">") else text
