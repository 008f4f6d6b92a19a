"""Graph -> StableHLO through ``jax.export``: the path real JAX users take, symbolic shapes included.

The JAX function of a graph is built from the reference rows (``ireefuzz.oracles.reference``'s
"jax" ``Evaluator.apply``), so the ops are written once: what is exported is exactly what the numeric
oracle compares against. Symbolic dims become ``jax.export`` symbolic shapes, all symbols of a graph
in one scope (a matmul's shared K stays one symbol), and the concrete shapes of fill / iota /
broadcast nodes are expressions in those symbols.

The exported module is printed without locations (so an ``iree-compile`` diagnostic points at a line
of the text we hand it, which ``oracles.crash.locate`` reads) and its functions are renamed: the
public ``main`` becomes ``name`` and every private helper JAX emits (``_wrapped_jax_export_main``,
``_take``, ``_where``, ...) is prefixed ``name__`` so several graphs can share one module.

JAX's symbolic dims are >= 1 by construction: a shape instance with a 0-sized symbol is outside
the exported program's contract (``nonzero_instances``).
"""

from __future__ import annotations

import functools
from typing import Any, Mapping, Sequence

from ireefuzz.errors import ExportError

from .emit import Program
from .graph import Graph, TensorType
from .ops import TRANSCENDENTAL_OPS

INPUT_FLAGS = ("--iree-input-type=stablehlo",)
# Ops whose reference rows export with symbolic shapes. "gather" exports (jnp.take) but its
# shape-polymorphic form does not legalize in IREE 3.13: kept, it is what the crash oracle finds.
EXPORTABLE_OPS = frozenset(
    {
        "abs",
        "add",
        "batch_matmul",
        "bitwise_and",
        "bitwise_or",
        "bitwise_xor",
        "broadcast",
        "cast",
        "cumsum",
        "div",
        "exp",
        "extract_slice",
        "fill",
        "gather",
        "iota",
        "log",
        "matmul",
        "max",
        "min",
        "mul",
        "negate",
        "pad",
        "reduce_max",
        "reduce_sum",
        "shift_left",
        "shift_right_logical",
        "sort",  # jnp.sort / a stable jnp.argsort: stablehlo.sort with is_stable = true
        "sqrt",
        "sub",
        "tanh",
        "transpose",
        "where_gt",
        "wrapping_add",
        *TRANSCENDENTAL_OPS,
        "inv_freq",
    }
)


@functools.lru_cache(maxsize=1)
def _jax() -> Any:
    from ireefuzz.oracles.reference import jax_numpy

    jax_numpy()  # the reference's JAX configuration (CPU, highest matmul precision)
    import jax
    from jax import export
    from jax._src.interpreters import mlir as jax_mlir
    from jax._src.lib.mlir import ir

    return jax, export, jax_mlir, ir


def symbolic_dims(graph: Graph) -> dict[str, Any]:
    """One ``jax.export`` symbolic dim per graph symbol, all in one scope."""
    if not graph.symbols:
        return {}
    _, export, _, _ = _jax()
    dims = export.symbolic_shape(", ".join(graph.symbols), scope=export.SymbolicScope())
    return dict(zip(graph.symbols, dims))


def jax_function(graph: Graph) -> tuple[Any, list[Any]]:
    """(fn, argument specs): ``fn(*args)`` returns the graph's outputs as a tuple of JAX arrays."""
    jax, _, _, _ = _jax()
    from ireefuzz.oracles.reference import Evaluator

    E = Evaluator("jax")
    dims = symbolic_dims(graph)

    def shape(t: TensorType) -> tuple[Any, ...]:
        return tuple(d if isinstance(d, int) else dims[d] for d in t.shape)

    def fn(*args: Any) -> tuple[Any, ...]:
        values: dict[str, Any] = {f"a{i}": x for i, x in enumerate(args)}
        for i, node in enumerate(graph.nodes):
            values[f"n{i}"] = E.apply(node, [values[r] for r in node.inputs], shape(node.type))
        return tuple(values[o] for o in graph.outputs)

    specs = [jax.ShapeDtypeStruct(shape(t), E.dtype(t.dtype)) for t in graph.args]
    return fn, specs


def exported_text(graph: Graph) -> str:
    """The StableHLO module JAX exports for ``graph`` (public function ``main``), without locations."""
    jax, export, jax_mlir, ir = _jax()
    unsupported = {n.op for n in graph.nodes} - EXPORTABLE_OPS
    if unsupported:
        raise ExportError(f"ops {sorted(unsupported)} have no StableHLO export; supported: {sorted(EXPORTABLE_OPS)}")
    fn, specs = jax_function(graph)
    try:
        exported = export.export(jax.jit(fn, keep_unused=True))(*specs)
    except Exception as e:  # JAX's tracing errors have no common base class
        raise ExportError(f"jax.export failed on {graph!r}: {type(e).__name__}: {e}") from e
    with jax_mlir.make_ir_context():
        return ir.Module.parse(exported.mlir_module()).operation.get_asm(enable_debug_info=False)


def rename_functions(module_text: str, name: str) -> list[str]:
    """The module's ``func.func`` ops printed with ``main`` -> ``name`` and helpers -> ``name__helper``."""
    _, _, jax_mlir, ir = _jax()
    with jax_mlir.make_ir_context():
        module = ir.Module.parse(module_text)
        table = ir.SymbolTable(module.operation)
        funcs = [op for op in module.body.operations if op.operation.name == "func.func"]
        for op in funcs:
            old = ir.StringAttr(op.attributes["sym_name"]).value
            new = name if old == "main" else f"{name}__{old.lstrip('_')}"
            ir.SymbolTable.replace_all_symbol_uses(old, new, module.operation)
            op.attributes["sym_name"] = ir.StringAttr.get(new)
        del table
        return [op.operation.get_asm(enable_debug_info=False) for op in funcs]


def export_functions(graph: Graph, name: str) -> tuple[str, ...]:
    """The printed ``func.func`` ops of ``graph``'s export: public ``name`` and its private helpers."""
    return tuple(rename_functions(exported_text(graph), name))


def module_of(functions: Mapping[str, Sequence[str]]) -> Program:
    """One module of already exported functions (``export_functions`` per name)."""
    body = "\n".join(f"  {line}" if line else line for fs in functions.values() for f in fs for line in f.splitlines())
    return Program("module {\n" + body + "\n}\n", tuple(functions))


def export_module(graphs: Mapping[str, Graph]) -> Program:
    """Several graphs, each exported on its own and renamed, as one module (one public function each)."""
    return module_of({name: export_functions(g, name) for name, g in graphs.items()})


def export_graph(graph: Graph, name: str = "main") -> Program:
    return export_module({name: graph})


def nonzero_instances(instances: Sequence[Mapping[str, int]]) -> list[dict[str, int]]:
    """The shape instances an exported program accepts (every symbol >= 1)."""
    return [dict(s) for s in instances if all(v >= 1 for v in s.values())]
