"""The culprit's IR cut to upstream MLIR, with the upstream pass or transform ops that stand in for IREE's pass.

Many IREE codegen bugs live in upstream MLIR code that an IREE pass wraps (``linalg::dropUnitDims`` behind
``iree-dispatch-creation-fold-unit-extent-dims``, ``linalg::vectorize`` behind ``iree-codegen-generic-vectorization``).
Such a bug is filed at llvm/llvm-project, with a reproducer that holds no IREE dialect. ``twin`` makes one
mechanically from the IR the culprit received:

- the functions the pass changed (``culprit_before`` against ``culprit_after``), each made a plain ``func.func``;
- IREE's boundary ops replaced: an op whose results have its operands' types (a barrier, a workload ordinal) by
  those operands; a store to a binding by a function result; any other IREE op with results (a binding, a load, an
  import) by a new function argument; ``#hal.descriptor_type`` dropped from every type, IREE's attributes
  (``lowering_config``, ``translation_info``, ...) dropped after the root op's tile sizes are read;
- dead ops and unused arguments removed.

A payload whose ops are IREE's own (``iree_linalg_ext``, a ``flow.dispatch.workgroups`` region) has no upstream
twin. ``STAND_INS`` lists the IREE passes with a known upstream stand-in, each checked on IREE 3.13 against its
bug (round 39's research): the same error, or the same wrong constant, from the twin with upstream passes alone.
"""

from __future__ import annotations

import dataclasses
import re
from typing import Any, Callable, Sequence

from iree.compiler import ir

from ireefuzz.oracles import vocabulary
from ireefuzz.oracles.ir import walk

UPSTREAM_DIALECTS = frozenset(
    {"builtin", "func", "arith", "math", "linalg", "tensor", "memref", "vector", "scf", "affine", "bufferization"}
    | {"ub", "index", "complex", "cf"}
)
_PAYLOAD_DIALECTS = frozenset({"linalg", "vector", "tensor", "memref", "scf"})
_PURE_PREFIXES = (
    "arith.",
    "math.",
    "index.",
    "ub.",
    "affine.apply",
    "affine.min",
    "affine.max",
    "tensor.empty",
    "tensor.dim",
    "memref.dim",
    "vector.constant_mask",
    "vector.create_mask",
)
_STORES = frozenset({vocabulary.BUFFER_STORE, *vocabulary.TENSOR_STORES})
_IREE_ATTRIBUTES = frozenset(
    {"lowering_config", "translation_info", "compilation_info", "packing_config", "__internal_linalg_transform__"}
    | {"linalg.memoized_indexing_maps"}
)
_IREE_MARKS = ("#iree", "#hal", "iree_", "#util", "#stream", "#flow", "#encoding")
_MEMORY_SPACE = re.compile(r",\s*#hal\.descriptor_type<[^>]*>")
_FUNCTION_START = re.compile(r"^(\s*)(?:func\.func|util\.func)\s+(?:\w+\s+)?@([\w$.]+)\(", re.M)


@dataclasses.dataclass(frozen=True)
class StandIn:
    """The upstream pass pipeline, or transform script, that does what an IREE pass does to the twin."""

    label: str  # the llvm-project label its issue takes
    what: str  # the upstream code, in words
    pipeline: Callable[[str], str] | None = None  # the twin's text -> a --pass-pipeline
    script: Callable[[str, tuple[str, list[int]] | None], str] | None = None  # (text, root op + tiles) -> transform

    def command(self, text: str, root: tuple[str, list[int]] | None) -> tuple[list[str], str]:
        """(the mlir-opt arguments, the transform module to append to the twin, or "")."""
        if self.pipeline is not None:
            return [f"--pass-pipeline={self.pipeline(text)}"], ""
        assert self.script is not None
        return ["--transform-interpreter"], self.script(text, root)


def _transform(body: str) -> str:
    return (
        "module attributes {transform.with_named_sequence} {\n"
        "  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {\n"
        f"{body}\n    transform.yield\n  }}\n}}\n"
    )


_FUNCTIONS = (
    '    %f = transform.structured.match ops{["func.func"]} in %root : (!transform.any_op) -> !transform.any_op\n'
)


def _fold_unit_dims(text: str) -> str:
    generalize = "linalg-generalize-named-ops, " if re.search(r"linalg\.(conv|depthwise|pooling)", text) else ""
    return f"builtin.module(func.func({generalize}linalg-fold-unit-extent-dims))"


def _vectorize(text: str, root: tuple[str, list[int]] | None) -> str:
    return _transform(
        _FUNCTIONS + "    %v = transform.structured.vectorize_children_and_apply_patterns %f : "
        "(!transform.any_op) -> !transform.any_op"
    )


_DROP_UNIT_DIMS_PATTERNS = (
    "cast_away_vector_leading_one_dim",
    "drop_inner_most_unit_dims_from_xfer_ops",
    "rank_reducing_subview_patterns",
    "drop_unit_dims_with_shape_cast",
)


def _drop_unit_dims(text: str, root: tuple[str, list[int]] | None) -> str:
    patterns = "\n".join(f"      transform.apply_patterns.vector.{p}" for p in _DROP_UNIT_DIMS_PATTERNS)
    return _transform(_FUNCTIONS + f"    transform.apply_patterns to %f {{\n{patterns}\n    }} : !transform.any_op")


def _tile_using_forall(text: str, root: tuple[str, list[int]] | None) -> str:
    if root is None:
        return ""
    op, sizes = root
    return _transform(
        f'    %g = transform.structured.match ops{{["{op}"]}} attributes{{root}} in %root : '
        "(!transform.any_op) -> !transform.any_op\n"
        f"    %t, %l = transform.structured.tile_using_forall %g tile_sizes {sizes} : "
        "(!transform.any_op) -> (!transform.any_op, !transform.any_op)"
    )


# IREE pass (or a prefix of its name) -> its upstream stand-in
STAND_INS: dict[str, StandIn] = {
    "iree-dispatch-creation-fold-unit-extent-dims": StandIn(
        "mlir:linalg", "`linalg-fold-unit-extent-dims` (`linalg::dropUnitDims`)", pipeline=_fold_unit_dims
    ),
    "iree-codegen-generic-vectorization": StandIn(
        "mlir:linalg",
        "`transform.structured.vectorize_children_and_apply_patterns` (`linalg::vectorize`)",
        script=_vectorize,
    ),
    "iree-codegen-drop-vector-unit-dims": StandIn(
        "mlir:vector",
        "the vector unit-dim patterns (`transform.apply_patterns.vector.cast_away_vector_leading_one_dim` and the "
        "three others the pass applies)",
        script=_drop_unit_dims,
    ),
    "iree-codegen-tile-and-distribute-to-workgroups": StandIn(
        "mlir:linalg",
        "`transform.structured.tile_using_forall` at the pass's tile sizes (`scf::tileUsingSCF`)",
        script=_tile_using_forall,
    ),
}


def stand_in(pass_: str) -> StandIn | None:
    return next((s for name, s in STAND_INS.items() if pass_.startswith(name)), None)


@dataclasses.dataclass(frozen=True)
class Twin:
    """An upstream-only module and the ``mlir-opt`` arguments that run the stand-in on it."""

    text: str
    args: tuple[str, ...]
    stand_in: StandIn


def _walk(op: Any) -> list[Any]:
    """``op`` and every op nested in it, in order (a list: the cut edits the IR while it goes)."""
    return [op, *walk(op)]


def _dialect(op: Any) -> str:
    return str(op.name).split(".", 1)[0]


def _name(f: Any) -> str:
    return str(ir.StringAttr(f.attributes["sym_name"]).value)


def _functions_text(text: str) -> dict[str, str]:
    """Each function's text by name, from its header to its closing brace (an after-dump need not parse)."""
    found = {}
    for m in _FUNCTION_START.finditer(text):
        end = re.compile("^" + m.group(1) + "}", re.M).search(text, m.end())
        found[m.group(2)] = text[m.start() : end.end() if end else len(text)]
    return found


def _stripped(t: Any) -> Any:
    return ir.Type.parse(_MEMORY_SPACE.sub("", str(t))) if "#hal.descriptor_type" in str(t) else None


def _tiles(config: str) -> list[int]:
    m = re.search(r"(?:distribution = \[|tile_sizes = \[\[|workgroup = \[)([^\]]*)\]", config)
    return [int(x) for x in m.group(1).split(",") if x.strip()] if m else []


class _NotUpstream(Exception):
    pass


def _cut(function: Any, module: Any, mark_root: bool) -> tuple[Any, tuple[str, list[int]] | None]:
    """``function``'s body moved into a new ``func.func`` of ``module``, made upstream-only."""
    with ir.InsertionPoint(module.body):
        f = ir.Operation.create(
            "func.func",
            regions=1,
            attributes={
                "sym_name": ir.StringAttr.get(_name(function)),
                "function_type": ir.TypeAttr.get(ir.FunctionType.get([], [])),
            },
        )
    for block in list(function.regions[0].blocks):
        block.append_to(f.regions[0])
    entry, location = f.regions[0].blocks[0], ir.Location.unknown()
    own = sorted(
        {
            o.name
            for o in _walk(f)
            if o is not f
            and _dialect(o) not in UPSTREAM_DIALECTS
            and (len(o.regions) or _dialect(o) in ("iree_linalg_ext", "iree_vector_ext", "iree_gpu"))
        }
    )
    if own:
        raise _NotUpstream(f"@{_name(function)} computes with IREE's own ops ({', '.join(own)})")
    tiled = [(o, _tiles(str(o.attributes["lowering_config"]))) for o in _walk(f) if "lowering_config" in o.attributes]
    tiled = [(o, t) for o, t in tiled if t]
    root = (str(tiled[-1][0].name), tiled[-1][1]) if tiled else None
    if tiled and mark_root:
        tiled[-1][0].attributes["root"] = ir.UnitAttr.get()
    for o in _walk(f):
        for value in [*o.results, *(a for r in o.regions for b in r.blocks for a in b.arguments)]:
            t = _stripped(value.type)
            if t is not None:
                value.set_type(t)
    imported: dict[str, Any] = {}
    for o in _walk(f):
        if o.name == "hal.tensor.import":
            argument = entry.add_argument(o.results[0].type, location)
            o.results[0].replace_all_uses_with(argument)
            imported[o.operands[0].get_name()] = argument
            o.erase()
    for o in _walk(f):
        if o.name == "hal.buffer_view.dim" and o.operands[0].get_name() in imported:
            index = ir.IntegerAttr(o.attributes["index"]).value
            with ir.InsertionPoint(o):
                c = ir.Operation.create(
                    "arith.constant",
                    results=[ir.IndexType.get()],
                    attributes={"value": ir.IntegerAttr.get(ir.IndexType.get(), index)},
                )
                d = ir.Operation.create(
                    "tensor.dim",
                    results=[ir.IndexType.get()],
                    operands=[imported[o.operands[0].get_name()], c.results[0]],
                )
            o.results[0].replace_all_uses_with(d.results[0])
            o.erase()
    stored = []
    for o in _walk(f):
        if o.name in ("func.func", "util.return", "func.return") or _dialect(o) in UPSTREAM_DIALECTS:
            continue
        if o.name in _STORES:
            stored.append(o.operands[0])
            o.erase()
            continue
        if o.name == "hal.tensor.export":
            o.results[0].replace_all_uses_with(o.operands[0])
            o.erase()
            continue
        results, operands = list(o.results), list(o.operands)
        if results and len(operands) >= len(results) and all(r.type == v.type for r, v in zip(results, operands)):
            for r, v in zip(results, operands):
                r.replace_all_uses_with(v)
        else:
            for r in results:
                if len(list(r.uses)):
                    r.replace_all_uses_with(entry.add_argument(r.type, location))
        o.erase()
    for block in f.regions[0].blocks:
        ops = list(block.operations)
        if ops and ops[-1].operation.name in ("util.return", "func.return"):
            end = ops[-1].operation
            with ir.InsertionPoint(end):
                ir.Operation.create(
                    "func.return", operands=[v for v in end.operands if "hal." not in str(v.type)] + stored
                )
            end.erase()
    for o in _walk(f):
        if o is f:
            continue
        for name in [a if isinstance(a, str) else a.name for a in o.attributes]:
            value = str(o.attributes[name])
            if (
                name in _IREE_ATTRIBUTES
                or name.startswith(("iree.", "hal.", "stream.", "util."))
                or any(m in value for m in _IREE_MARKS)
            ):
                del o.attributes[name]
    changed = True
    while changed:
        changed = False
        for o in reversed(_walk(f)):
            dead = len(o.results) and all(len(list(r.uses)) == 0 for r in o.results)
            if o is not f and dead and (str(o.name).startswith(_PURE_PREFIXES) or _dialect(o) not in UPSTREAM_DIALECTS):
                o.erase()
                changed = True
    for k in reversed(range(len(entry.arguments))):
        if not len(list(entry.arguments[k].uses)):
            entry.erase_argument(k)
    returned = [v.type for b in f.regions[0].blocks for o in list(b.operations)[-1:] for v in o.operation.operands]
    f.attributes["function_type"] = ir.TypeAttr.get(ir.FunctionType.get([a.type for a in entry.arguments], returned))
    return f, root


def twin(before: str, after: str, pass_: str) -> Twin | str:
    """The upstream twin of what ``pass_`` received (``before``), cut to the functions it changed (``after``); or
    why there is none."""
    found = stand_in(pass_)
    if found is None:
        return f"no upstream stand-in is recorded for {pass_}"
    with ir.Context(), ir.Location.unknown():
        try:
            module = ir.Module.parse(before)
        except ir.MLIRError as e:
            return f"the IR {pass_} received does not parse alone ({str(e).splitlines()[0]})"
        functions = [
            o
            for o in _walk(module.operation)
            if o.name in ("func.func", "util.func")
            and len(o.regions[0].blocks)
            and not any(str(x.name).startswith(("llvm.", "stream.")) for x in _walk(o))
        ]
        was, now = _functions_text(before), _functions_text(after)
        present = set(now) | set(re.findall(r'sym_name = "([^"]+)"', after))
        changed = [f for f in functions if _name(f) in present and was.get(_name(f)) != now.get(_name(f))]
        out, roots, refused = ir.Module.create(), [], []
        mark_root = found.script is _tile_using_forall
        for f in changed or functions:
            try:
                cut, root = _cut(f, out, mark_root)
            except _NotUpstream as e:
                refused.append(str(e))
                for o in list(out.body.operations):
                    if o.operation.name == "func.func" and _name(o.operation) == _name(f):
                        o.operation.erase()
                continue
            if not any(_dialect(o) in _PAYLOAD_DIALECTS for o in _walk(cut)):
                cut.erase()  # host code only
                continue
            roots += [root] if root else []
        if not any(o.operation.name == "func.func" for o in out.body.operations):
            return "; ".join(refused) or "no function the pass changed computes with upstream ops"
        if not out.operation.verify():
            return "the cut IR does not verify"
        text = str(out.operation.get_asm(assume_verified=False))
    if any(m in text for m in ("hal.", "iree_", "util.", "stream.", "flow.")):
        return "IREE ops or types are left in the cut IR"
    args, script = found.command(text, roots[0] if roots else None)
    if script == "" and found.script is not None:
        return f"{pass_}'s stand-in needs tile sizes the IR does not carry"
    if script:  # the transform module sits inside the payload module
        body = text.rstrip()
        text = body[: body.rfind("}")] + "  " + script.replace("\n", "\n  ").rstrip() + "\n}\n"
    return Twin(text, tuple(args), found)


def command_line(args: Sequence[str]) -> str:
    """The ``mlir-opt`` RUN words (the pipeline quoted)."""
    return " ".join(re.sub(r"^(--[\w-]+=)(.*\(.*)$", r"\1'\2'", a) for a in args)
