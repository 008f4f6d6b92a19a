"""A user's JAX function through IREE, every oracle, at every dynamic shape: ``ireefuzz.check_jax``'s engine.

``export_model(fn, *example_args, dynamic=...)`` traces ``fn`` with ``jax.export``, the dims named in
``dynamic`` symbolic (``{argument position or name: {axis: symbol}}``; one scope, so a symbol shared by
two arguments is one dim), and prints the StableHLO without locations, its public function renamed
after ``fn`` (``generators.stablehlo.rename_functions``, the generated path's). Arguments may be pytrees
of arrays (NumPy / JAX arrays, NumPy scalars); anything else is a ``UsageError``, as is a function JAX
cannot export, or one that rejects a symbolic dim.

``check_results`` runs it through ``ireefuzz.core.evaluate`` with the raw-MLIR frontend (``ireefuzz
check``'s), StableHLO-configured: one compile, then every shape instance runs. Memory, fusion, crash and
immutability judge the compiled program as for any raw program. The numeric oracle's reference is JAX
itself on CPU in float64: the function's jaxpr at the instance's shapes is evaluated with every float
widened to float64 (arguments, constants, ``astype`` / ``preferred_element_type`` targets), with x64
enabled only for that evaluation (``jax.enable_x64``, restored after). Outputs are compared under the
numeric oracle's rule for programs (``numeric.check_program_outputs``): the tolerance follows the least
precise float dtype, the depth and the longest accumulation of the jaxpr; a disagreement is reported
only beyond what perturbing the inputs by that tolerance moves the float64 outputs.

Shape instances: the example shapes first, then ``instances`` draws of the symbols over ``AWKWARD``
sizes (1, primes, vector widths +- 1, large), smallest first, so the first finding of a signature after
the example's is at the smallest failing drawn shape; or exactly a given list. ``awkward_sizes`` is the
Hypothesis strategy of the same sizes for a ``@given`` sweep, which shrinks a failing size to the
smallest that fails. An argument at another shape is the example's values tiled (indices stay in range,
weights keep their distribution). One compile serves every instance of a call.

``make_bundle`` makes a finding's bundle with filing's one bundle maker (``filing.report``: the exported
StableHLO as ``program.mlir``, the failing instance's inputs, JAX's float64 outputs as ``expected``,
``run.sh``, ``inputs_after.mlir`` for immutability, and ``ISSUE.md`` with the program after IREE's input
conversion and, for a memory / fusion finding, the dispatch at fault as a program of its own).
"""

from __future__ import annotations

import dataclasses
import functools
import inspect
import random
import re
from collections.abc import Callable, Mapping, Sequence
from typing import Any

import numpy as np

from ireefuzz import sut
from ireefuzz.core import frontends
from ireefuzz.core.evaluate import CaseResult, Policy, evaluate
from ireefuzz.errors import UsageError
from ireefuzz.generators.graph import TensorType
from ireefuzz.oracles import vocabulary
from ireefuzz.oracles.registry import spec_of

# Sizes a symbolic dim is drawn from: 1, small primes, vector widths (4, 8, 16 lanes) +- 1, large.
AWKWARD = (1, 2, 3, 5, 7, 9, 13, 15, 17, 31, 33, 63, 65, 127, 257)
DEFAULT_INSTANCES = 3
MAX_ELEMENTS = 1 << 24  # per argument at one instance


@functools.lru_cache(maxsize=1)
def _jax() -> Any:
    from ireefuzz.oracles.reference import jax_numpy

    jax_numpy()  # the reference's JAX configuration (CPU, highest matmul precision)
    import jax

    return jax


# --------------------------------------------------------------------------- the model and its export


@dataclasses.dataclass(frozen=True, eq=False)
class Leaf:
    """One flattened array argument: the example's values and which axes are symbolic."""

    example: np.ndarray
    dynamic: Mapping[int, str]  # axis -> symbol

    def shape_at(self, sizes: Mapping[str, int]) -> tuple[int, ...]:
        return tuple(
            sizes.get(self.dynamic[a], d) if a in self.dynamic else d for a, d in enumerate(self.example.shape)
        )

    def at(self, sizes: Mapping[str, int]) -> np.ndarray:
        """The example's values at the instance's shape (tiled or cut along each dynamic axis)."""
        x = self.example
        for axis, symbol in self.dynamic.items():
            n = sizes[symbol]
            if n != x.shape[axis]:
                x = np.take(x, np.arange(n) % max(x.shape[axis], 1), axis=axis)
        return np.array(x, copy=True)


@dataclasses.dataclass(frozen=True, eq=False)
class JaxModel:
    """A function exported to StableHLO, with what its reference and inputs need."""

    fn: Callable[..., Any]
    name: str  # the public function's name in ``text``
    text: str  # the StableHLO module
    treedef: Any  # of the positional arguments
    leaves: tuple[Leaf, ...]
    symbols: tuple[str, ...]
    example_sizes: Mapping[str, int]

    def inputs(self, sizes: Mapping[str, int]) -> list[np.ndarray]:
        return [leaf.at(sizes) for leaf in self.leaves]

    def reference(self, inputs: Sequence[np.ndarray]) -> Reference:
        return jax_float64(self.fn, self.treedef, inputs)


def _describe(x: Any) -> str:
    return type(x).__name__ if not isinstance(x, (str, bytes)) else f"{type(x).__name__} {x!r:.40}"


def _array_leaves(fn_name: str, args: Sequence[Any], labels: Sequence[str]) -> tuple[Any, list[np.ndarray], list[int]]:
    """(treedef, leaves as NumPy arrays, the top-level argument of each leaf); a non-array leaf is a UsageError."""
    jax = _jax()
    leaves, owners = [], []
    for i, arg in enumerate(args):
        for leaf in jax.tree_util.tree_leaves(arg):
            if not (hasattr(leaf, "shape") and hasattr(leaf, "dtype")) or isinstance(leaf, type):
                raise UsageError(
                    f"check_jax({fn_name}): argument {labels[i]} is a {_describe(leaf)}, not an array; "
                    f"pass arrays (or pytrees of arrays) and bind other values with functools.partial"
                )
            leaves.append(np.asarray(leaf))
            owners.append(i)
    return jax.tree_util.tree_structure(tuple(args)), leaves, owners


def _argument_index(fn: Callable[..., Any], key: Any, n: int) -> int:
    if isinstance(key, int) and not isinstance(key, bool):
        if not 0 <= key < n:
            raise UsageError(
                f"dynamic={{{key}: ...}}: the function is given {n} argument(s); use a position 0..{n - 1} "
                f"or a parameter name"
            )
        return key
    try:
        params = list(inspect.signature(fn).parameters)
    except (TypeError, ValueError):
        params = []
    if isinstance(key, str) and key in params[:n]:
        return params.index(key)
    raise UsageError(
        f"dynamic={{{key!r}: ...}}: no such argument; use a position or one of {', '.join(params[:n]) or '-'}"
    )


_SYMBOL = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")


def _dynamic_axes(
    fn: Callable[..., Any], dynamic: Mapping[Any, Mapping[int, str]] | None, args: Sequence[Any], labels: Sequence[str]
) -> dict[int, dict[int, str]]:
    out: dict[int, dict[int, str]] = {}
    for key, axes in (dynamic or {}).items():
        i = _argument_index(fn, key, len(args))
        arg = args[i]
        if not hasattr(arg, "shape"):
            raise UsageError(f"dynamic: argument {labels[i]} is not an array; only array arguments have dynamic dims")
        if not isinstance(axes, Mapping):
            raise UsageError(f'dynamic={{{key!r}: {axes!r}}}: give {{axis: symbol name}}, e.g. {{0: "batch"}}')
        rank = len(arg.shape)
        for axis, symbol in axes.items():
            if not isinstance(axis, int) or not -rank <= axis < rank:
                raise UsageError(f"dynamic: argument {labels[i]} has rank {rank}; axis {axis!r} is not one of its axes")
            if not isinstance(symbol, str) or not _SYMBOL.fullmatch(symbol):
                raise UsageError(
                    f"dynamic: axis {axis} of argument {labels[i]}: symbol {symbol!r} is not a name like 'batch'"
                )
            if arg.shape[axis] < 1:
                raise UsageError(f"dynamic: axis {axis} of argument {labels[i]} has size 0; JAX symbolic dims are >= 1")
            out.setdefault(i, {})[axis % rank] = symbol
    return out


def _name_of(fn: Callable[..., Any]) -> str:
    name = getattr(fn, "__name__", None) or getattr(getattr(fn, "func", None), "__name__", None) or "model"
    name = re.sub(r"\W", "_", name).strip("_") or "model"
    return name if not name[0].isdigit() else f"m_{name}"


def _first_line(e: BaseException) -> str:
    text = str(e).strip().splitlines()
    return f"{type(e).__name__}: {text[0][:300] if text else ''}"


def _exports(thunk: Callable[[], Any]) -> bool:
    """Whether ``thunk`` (an export) succeeds."""
    try:
        thunk()
    except Exception:  # noqa: BLE001 - JAX's tracing errors have no common base class
        return False
    return True


def export_model(
    fn: Callable[..., Any], *example_args: Any, dynamic: Mapping[Any, Mapping[int, str]] | None = None
) -> JaxModel:
    """Export ``fn`` at the example arguments' shapes and dtypes, ``dynamic`` dims symbolic (see the module doc)."""
    if not callable(fn):
        raise UsageError(f"check_jax: the first argument must be a function, not a {_describe(fn)}")
    jax = _jax()
    from jax import export

    name = _name_of(fn)
    try:
        params = list(inspect.signature(fn).parameters)
    except (TypeError, ValueError):
        params = []
    labels = [f"{i} ({params[i]})" if i < len(params) else str(i) for i in range(len(example_args))]
    treedef, leaves, owners = _array_leaves(name, example_args, labels)
    axes = _dynamic_axes(fn, dynamic, example_args, labels)
    symbols = tuple(dict.fromkeys(s for per in axes.values() for s in per.values()))
    sizes: dict[str, int] = {}
    for i, per in axes.items():
        for axis, symbol in per.items():
            n = int(example_args[i].shape[axis])
            if sizes.setdefault(symbol, n) != n:
                raise UsageError(
                    f"dynamic: symbol {symbol!r} is {sizes[symbol]} in one argument and {n} in "
                    f"argument {labels[i]}; one symbol is one size"
                )
    dims = (
        dict(zip(symbols, export.symbolic_shape(", ".join(symbols), scope=export.SymbolicScope()))) if symbols else {}
    )
    made = [
        Leaf(x, axes.get(owner, {}) if np.ndim(example_args[owner]) == x.ndim and owner in axes else {})
        for x, owner in zip(leaves, owners)
    ]

    def specs(symbolic: bool) -> list[Any]:
        flat = [
            jax.ShapeDtypeStruct(
                tuple(
                    dims[leaf.dynamic[a]] if symbolic and a in leaf.dynamic else d
                    for a, d in enumerate(leaf.example.shape)
                ),
                leaf.example.dtype,
            )
            for leaf in made
        ]
        return list(jax.tree_util.tree_unflatten(treedef, flat))

    try:
        exported = export.export(jax.jit(fn))(*specs(True))
    except Exception as e:  # noqa: BLE001 - JAX's tracing errors have no common base class
        if symbols and _exports(lambda: export.export(jax.jit(fn))(*specs(False))):
            raise UsageError(
                f"check_jax({name}) rejects the dynamic dim(s) {', '.join(symbols)}: {_first_line(e)}; "
                f"keep those dims static (drop them from dynamic=) or make the function "
                f"shape-polymorphic"
            ) from None
        raise UsageError(f"check_jax: jax.export cannot export {name}: {_first_line(e)}") from None
    from ireefuzz.generators.stablehlo import module_of, rename_functions

    text = module_of({name: rename_functions(exported.mlir_module(), name)}).text
    return JaxModel(fn, name, text, treedef, tuple(made), symbols, sizes)


# --------------------------------------------------------------------------- the reference: JAX in float64


@dataclasses.dataclass(frozen=True)
class Reference:
    outputs: tuple[np.ndarray, ...]  # float64 for float outputs
    depth: int  # the longest chain of rounding ops (``_EXACT`` ones move values: no step)
    longest_reduction: int  # the longest accumulation (contraction, reduce_sum, convolution window)
    float_types: tuple[str, ...]  # the program's float dtypes (f32, f16, bf16, f64)


_FLOAT_NAMES = {"float32": "f32", "float16": "f16", "bfloat16": "bf16", "float64": "f64"}
_CALLS = ("jaxpr", "call_jaxpr", "fun_jaxpr")  # sub-jaxpr params of call-like primitives (pjit, custom_jvp_call, ...)
_NOT_INLINED = ("cond", "while", "scan")  # their sub-jaxprs are not calls with the eqn's operands
# Primitives that round nothing (they move, select or compare values): no step on the error's chain.
_EXACT = frozenset(
    {
        "reshape",
        "broadcast_in_dim",
        "transpose",
        "squeeze",
        "expand_dims",
        "slice",
        "dynamic_slice",
        "dynamic_update_slice",
        "concatenate",
        "gather",
        "scatter",
        "copy",
        "copy_p",
        "select_n",
        "iota",
        "pad",
        "rev",
        "reduce_max",
        "reduce_min",
        "max",
        "min",
        "argmax",
        "argmin",
        "sort",
        "top_k",
        "stop_gradient",
        "neg",
        "abs",
        "sign",
        "eq",
        "ne",
        "lt",
        "le",
        "gt",
        "ge",
        "and",
        "or",
        "not",
        "floor",
        "ceil",
        "round",
        "clamp",
        "reduce_precision",
        "sharding_constraint",
        "optimization_barrier",
    }
)


def _is_float(dtype: Any) -> bool:
    try:
        return np.dtype(dtype).name in _FLOAT_NAMES
    except TypeError:
        return False


def _widened(value: Any) -> Any:
    """A primitive parameter with float dtypes made float64 (``new_dtype``, ``preferred_element_type``, ...)."""
    if isinstance(value, np.dtype) or (isinstance(value, type) and issubclass(value, np.generic)):
        return np.dtype(np.float64) if _is_float(value) else value
    return value


class _Tracking:
    def __init__(self) -> None:
        self.depth: dict[Any, int] = {}
        self.reduction = 1
        self.floats: set[str] = set()


def _reduction_length(eqn: Any) -> int:
    name, params = eqn.primitive.name, eqn.params
    shapes = [tuple(getattr(v.aval, "shape", ())) for v in eqn.invars]
    try:
        if name == "dot_general":
            (lc, _), _ = params["dimension_numbers"]
            return int(np.prod([shapes[0][d] for d in lc]) if lc else 1)
        if name in ("reduce_sum", "reduce_prod"):
            return int(np.prod([shapes[0][d] for d in params["axes"]]) if params["axes"] else 1)
        if name == "conv_general_dilated":
            rhs = shapes[1]
            out_feature = params["dimension_numbers"].rhs_spec[0]
            return int(np.prod([d for i, d in enumerate(rhs) if i != out_feature]))
        if name in ("cumsum", "cumprod"):
            return int(shapes[0][params["axis"]])
    except (KeyError, IndexError, AttributeError, TypeError):
        return 1
    return 1


def _eval_wide(
    jaxpr: Any, consts: Sequence[Any], args: Sequence[Any], track: _Tracking, depths: Sequence[int]
) -> tuple[list[Any], list[int]]:
    """Evaluate ``jaxpr`` eagerly with floats widened to float64; returns (outputs, their depths)."""
    jax = _jax()
    import jax.numpy as jnp

    env: dict[Any, Any] = {}
    depth: dict[Any, int] = {}

    def wide(x: Any) -> Any:
        x = jnp.asarray(x)
        return x.astype(jnp.float64) if _is_float(x.dtype) else x

    def read(v: Any) -> tuple[Any, int]:
        if type(v).__name__ == "Literal":
            return wide(jnp.asarray(v.val, dtype=v.aval.dtype)), 0
        return env[v], depth.get(v, 0)

    for v, x, d in zip(jaxpr.constvars, consts, [0] * len(consts)):
        env[v], depth[v] = wide(x), d
    for v, x, d in zip(jaxpr.invars, args, depths):
        env[v], depth[v] = wide(x), d
    for eqn in jaxpr.eqns:
        ins = [read(v) for v in eqn.invars]
        values, ds = [x for x, _ in ins], [d for _, d in ins]
        for v in eqn.outvars:
            if _is_float(getattr(v.aval, "dtype", None)):
                track.floats.add(_FLOAT_NAMES[np.dtype(v.aval.dtype).name])
        track.reduction = max(track.reduction, _reduction_length(eqn))
        sub = next((eqn.params[p] for p in _CALLS if p in eqn.params), None)
        if sub is not None and eqn.primitive.name not in _NOT_INLINED:
            inner = getattr(sub, "jaxpr", sub)
            outs, out_ds = _eval_wide(inner, getattr(sub, "consts", ()), values, track, ds)
        elif eqn.primitive.name == "cond":
            branch = eqn.params["branches"][int(np.asarray(values[0]))]
            outs, out_ds = _eval_wide(branch.jaxpr, branch.consts, values[1:], track, ds[1:])
        else:
            params = {k: _widened(v) for k, v in eqn.params.items()}
            try:
                result = eqn.primitive.bind(*values, **params)
            except Exception:  # noqa: BLE001 - a primitive that takes only its traced dtypes: at them
                narrow = [
                    jnp.asarray(x).astype(v.aval.dtype) if hasattr(v, "aval") else x for x, v in zip(values, eqn.invars)
                ]
                result = eqn.primitive.bind(*narrow, **eqn.params)
            outs = list(result) if eqn.primitive.multiple_results else [result]
            out_ds = [max(ds, default=0) + (eqn.primitive.name not in _EXACT)] * len(outs)
        for v, x, d in zip(eqn.outvars, outs, out_ds):
            env[v], depth[v] = wide(x), d
    results = [read(v) for v in jaxpr.outvars]
    del jax
    return [x for x, _ in results], [d for _, d in results]


def jax_float64(fn: Callable[..., Any], treedef: Any, inputs: Sequence[np.ndarray]) -> Reference:
    """``fn`` on ``inputs`` (the flattened arguments) evaluated by JAX on CPU with every float in float64."""
    jax = _jax()
    args = jax.tree_util.tree_unflatten(treedef, [np.asarray(x) for x in inputs])
    with jax.enable_x64(False):  # the program as exported: its own dtypes
        closed = jax.make_jaxpr(fn)(*args)
    track = _Tracking()
    for v in closed.jaxpr.invars:
        if _is_float(v.aval.dtype):
            track.floats.add(_FLOAT_NAMES[np.dtype(v.aval.dtype).name])
    with jax.enable_x64(True):
        outs, depths = _eval_wide(closed.jaxpr, closed.consts, list(inputs), track, [0] * len(inputs))
        outputs = tuple(np.asarray(x) for x in outs)
    return Reference(outputs, max(max(depths, default=1), 1), track.reduction, tuple(sorted(track.floats)))


# --------------------------------------------------------------------------- the case and its judges


@dataclasses.dataclass(frozen=True, eq=False)
class JaxCase:
    """An exported model at its shape instances: a raw-program case (``frontends.ProgramCase``'s fields) whose
    numbers JAX judges."""

    model: JaxModel
    signature: frontends.FunctionSignature
    instances: tuple[dict[str, int], ...]
    target_cpu: str = "host"
    flags: tuple[str, ...] = ()
    seed: int = 0

    graph = None
    expected = None
    domains = ()
    given = None

    @property
    def program(self) -> str:
        return self.model.text

    @property
    def function(self) -> str:
        return self.signature.name

    @property
    def args(self) -> tuple[TensorType, ...]:
        return self.args_at(0)

    def args_at(self, k: int) -> tuple[TensorType, ...]:
        return tuple(
            TensorType(leaf.shape_at(self.instances[k]), dtype)
            for leaf, (_, dtype) in zip(self.model.leaves, self.signature.args)
        )

    def inputs(self, instance: int = 0) -> list[np.ndarray]:
        return self.model.inputs(self.instances[instance])

    def __repr__(self) -> str:
        shown = "; ".join(",".join(f"{k}={v}" for k, v in s.items()) for s in self.instances) or "static"
        return f"JaxCase(@{self.function}, instances: {shown}, cpu={self.target_cpu})"


def _jax_run(case: JaxCase, inputs: Sequence[np.ndarray]) -> Any:
    """JAX in float64 on ``inputs`` (at the model's own argument dtypes), or ``NotJudged`` when JAX fails: a JAX
    failure on the reference is not judged, never an IREE finding."""
    try:
        return case.model.reference(
            [np.asarray(x).astype(leaf.example.dtype) for x, leaf in zip(inputs, case.model.leaves)]
        )
    except Exception as e:  # noqa: BLE001 - JAX's errors have no common base class
        return frontends.NotJudged(f"JAX float64 reference failed: {_first_line(e)}")


JAX_FLOAT64 = frontends.NumericReference(
    "JAX float64",
    _jax_run,
    lambda case, run: run.float_types,
    agreement=False,
    cones=False,
    evidence=lambda run, sizes: {
        "sizes": dict(sizes),
        "reference": "jax-float64",
        "depth": run.depth,
        "longest_reduction": run.longest_reduction,
    },
)
# The numeric oracle with JAX in float64 as the reference (``frontends._program_numbers``' rule).
_jax_numbers = functools.partial(frontends._program_numbers, reference=JAX_FLOAT64)


JAX = dataclasses.replace(
    frontends.MLIR,
    name="jax",
    compile_failure=frontends.STABLEHLO.compile_failure,
    configure=frontends.STABLEHLO.configure,
    numbers=_jax_numbers,
)


def shape_instances(
    model: JaxModel, instances: int | Sequence[Mapping[str, int]] | None, seed: int = 0
) -> tuple[dict[str, int], ...]:
    """A number of ``instances``: the example's sizes first, then that many draws over ``AWKWARD`` (1 and the
    largest always), at most ``MAX_ELEMENTS`` per argument, smallest first. A list: exactly those, in order
    (a Hypothesis sweep draws them with ``awkward_sizes``)."""
    if not model.symbols:
        return ({},)
    if instances is None:
        instances = DEFAULT_INSTANCES
    if isinstance(instances, int) and not isinstance(instances, bool):
        if instances < 0:
            raise UsageError(f"instances={instances}: give a non-negative number or a list of {{symbol: size}}")
        rng = random.Random(seed)
        drawn = []
        for k in range(instances):
            pick = (lambda: 1) if k == 0 else (lambda: max(AWKWARD)) if k == 1 else (lambda: rng.choice(AWKWARD))
            drawn.append({s: pick() for s in model.symbols})
        drawn = [s for s in drawn if _fits(model, s)]
    else:
        drawn = []
        for given in list(instances):  # type: ignore[arg-type]
            if (
                not isinstance(given, Mapping)
                or set(given) != set(model.symbols)
                or not all(isinstance(v, int) and v >= 1 for v in given.values())
            ):
                raise UsageError(
                    f"instances: {given!r} must give every symbol ({', '.join(model.symbols)}) a size >= 1"
                )
            if not _fits(model, given):
                raise UsageError(f"instances: {given!r} makes an argument larger than {MAX_ELEMENTS} elements")
            drawn.append(dict(given))
        if not drawn:
            raise UsageError("instances=[]: give at least one {symbol: size}, or a number of sizes to draw")
        return tuple(dict(t) for t in dict.fromkeys(tuple(sorted(s.items())) for s in drawn))  # as given
    seen = [dict(model.example_sizes)]
    for s in sorted(drawn, key=lambda s: (sum(s.values()), sorted(s.items()))):
        if s not in seen:
            seen.append(s)
    return tuple(seen)


def awkward_sizes(*symbols: str) -> Any:
    """A Hypothesis strategy of ``{symbol: size}`` over ``AWKWARD``, shrinking towards the smallest sizes: with
    ``check_jax(..., instances=[sizes])`` in a ``@given`` test, a failing size shrinks to the smallest that fails
    (each signature fails with its own exception type, so the shrink keeps to one bug)."""
    from hypothesis import strategies as st

    return st.fixed_dictionaries({s: st.sampled_from(AWKWARD) for s in symbols})


def accepted_instances(
    model: JaxModel, instances: int | Sequence[Mapping[str, int]] | None, seed: int = 0
) -> tuple[dict[str, int], ...]:
    """``shape_instances`` without the drawn sizes the function rejects; a given size it rejects is a UsageError."""
    sizes = shape_instances(model, instances, seed)
    accepted = tuple(s for s in sizes if _rejects(model, s) is None)
    if len(accepted) < len(sizes) and not (instances is None or isinstance(instances, int)):
        bad = next(s for s in sizes if s not in accepted)
        raise UsageError(f"instances: {model.name} rejects {bad}: {_rejects(model, bad)}; give sizes it accepts")
    return accepted


def _rejects(model: JaxModel, sizes: Mapping[str, int]) -> str | None:
    """Why JAX rejects the function at these sizes (a reshape that needs an even batch, ...), or None: a drawn
    size the function rejects is outside its contract, not run (the exported program's shape assertions say
    so too, and IREE does not check them)."""
    jax = _jax()
    flat = [jax.ShapeDtypeStruct(leaf.shape_at(sizes), leaf.example.dtype) for leaf in model.leaves]
    try:
        jax.eval_shape(model.fn, *jax.tree_util.tree_unflatten(model.treedef, flat))
    except Exception as e:  # noqa: BLE001 - JAX's tracing errors have no common base class
        return _first_line(e)
    return None


def _fits(model: JaxModel, sizes: Mapping[str, int]) -> bool:
    return all(int(np.prod(leaf.shape_at(sizes))) <= MAX_ELEMENTS for leaf in model.leaves)


def with_float_dtype(args: Sequence[Any], dtype: str) -> tuple[Any, ...]:
    """``args`` (pytrees) with every float array in ``dtype`` (f32, f16 or bf16): a dtype variant of a model."""
    jax = _jax()
    import ml_dtypes

    target = {"f32": np.dtype(np.float32), "f16": np.dtype(np.float16), "bf16": np.dtype(ml_dtypes.bfloat16)}.get(dtype)
    if target is None:
        raise UsageError(f"dtype {dtype!r}: choose from f32, f16, bf16")
    cast = lambda x: np.asarray(x).astype(target) if _is_float(np.asarray(x).dtype) else x
    return tuple(jax.tree_util.tree_map(cast, a) for a in args)


def make_case(
    model: JaxModel, instances: Sequence[Mapping[str, int]], config: sut.CompilerConfig, seed: int = 0
) -> JaxCase:
    (sig,) = [s for s in frontends.signatures(model.text) if s.name == model.name]
    return JaxCase(model, sig, tuple(dict(s) for s in instances), config.target_cpu, (), seed)


def check_results(
    fn: Callable[..., Any],
    *example_args: Any,
    dynamic: Mapping[Any, Mapping[int, str]] | None = None,
    instances: int | Sequence[Mapping[str, int]] | None = None,
    config: sut.CompilerConfig | None = None,
    policy: Policy | None = None,
    seed: int = 0,
    program_filter: Callable[[str], str] | None = None,
) -> tuple[JaxCase, CaseResult]:
    """Export ``fn`` and check it at every shape instance through ``evaluate`` (the ``JAX`` frontend).
    ``program_filter`` rewrites the exported StableHLO before it is compiled (a test's injected fault)."""
    config = config or sut.CompilerConfig()
    model = export_model(fn, *example_args, dynamic=dynamic)
    if program_filter is not None:
        model = dataclasses.replace(model, text=program_filter(model.text))
    case = make_case(model, accepted_instances(model, instances, seed), config, seed)
    (result,) = evaluate([case], config, policy or Policy(), JAX)
    return case, result


# --------------------------------------------------------------------------- the bundle


def instance_of(case: JaxCase, finding: Any) -> int:
    """The shape instance a finding was made at (its evidence's sizes; the first otherwise)."""
    sizes = finding.evidence.get("sizes")
    for k, s in enumerate(case.instances):
        if sizes is not None and dict(s) == dict(sizes):
            return k
    return 0


def make_bundle(finding: Any, case: JaxCase, config: sut.CompilerConfig) -> Any:
    """The Bundle of ``finding`` (``filing.report.make_bundle``): the exported StableHLO, the failing instance's
    inputs, JAX's float64 outputs as the reference, run.sh and ISSUE.md with the program after IREE's input
    conversion and the dispatch at fault."""
    from ireefuzz.tools.filing import report

    k = instance_of(case, finding)
    ran = not spec_of(finding.oracle).compile_only(finding.kind)
    inputs = case.inputs(k) if ran else []
    outputs = case.model.reference(inputs).outputs if ran else None
    sizes = dict(case.instances[k])
    subject = report.raw_subject(
        finding,
        case,
        config,
        inputs,
        outputs,
        f"JAX itself on CPU, every float widened to float64 (the model `{case.model.name}` as exported by "
        f"`jax.export`, at {sizes or 'its static shapes'})",
        record={"sizes": sizes},
        case_json={
            "kind": "jax",
            "function": case.function,
            "instances": list(case.instances),
            "target_cpu": case.target_cpu,
        },
        sections=_input_ir_section(case, config) + _dispatch_section(finding, case, config),
        flags=frontends.STABLEHLO.configure(config).flags,
    )
    return report.make_bundle(finding, subject)


INPUT_IR_LINES = 400  # of the IR after input conversion shown in ISSUE.md


def _input_ir_section(case: JaxCase, config: sut.CompilerConfig) -> list[str]:
    """ISSUE.md's section with the program after IREE's input conversion (``--compile-to=input``: linalg), or
    the diagnostic when the input conversion itself fails."""
    text = sut.compile_to(case.program, JAX.configure(config), "input")
    if not isinstance(text, str):
        return [
            "",
            "## After IREE's input conversion",
            "",
            "`iree-compile --compile-to=input` fails: the input conversion itself is where this fails.",
            "",
            "```",
            text.diagnostic.strip()[:3000],
            "```",
        ]
    lines = text.rstrip().splitlines()
    more = [f"... ({len(lines) - INPUT_IR_LINES} more lines: `iree-compile --compile-to=input program.mlir`)"]
    command = "`iree-compile --compile-to=input --iree-input-type=stablehlo program.mlir` (linalg on tensors):"
    return [
        "",
        "## After IREE's input conversion",
        "",
        command,
        "",
        "```mlir",
        *lines[:INPUT_IR_LINES],
        *(more if len(lines) > INPUT_IR_LINES else []),
        "```",
    ]


def _dispatch_section(finding: Any, case: JaxCase, config: sut.CompilerConfig) -> list[str]:
    """ISSUE.md's section on the dispatch a memory / fusion finding names: its executable source, which
    ``iree-compile --compile-mode=hal-executable`` compiles on its own (one more compile of the program)."""
    name = str(finding.evidence.get("dispatch") or "")
    if not spec_of(finding.oracle).reads_dispatches or not name:
        return []
    artifact = sut.compile_mlir(case.program, JAX.configure(config))
    dispatch = next((d for d in getattr(artifact, "dispatches", ()) if d.name == name), None)
    if dispatch is None or not dispatch.source:
        return []
    return [
        "",
        "## The dispatch at fault",
        "",
        f"`{name}` (pipeline `{dispatch.pipeline}`). Its executable source, a program of its own:",
        "",
        "```sh",
        (
            "iree-compile --compile-mode=hal-executable dispatch.mlir -o dispatch.so "
            f"--mlir-print-ir-before={vocabulary.FINAL_PASS}"
        ),
        "```",
        "",
        "```mlir",
        dispatch.source.rstrip(),
        "```",
    ]


# --------------------------------------------------------------------------- a campaign around a model

FUZZ_DTYPES = ("f32", "f16", "bf16")
DEFAULT_VARIANTS = 8


def load_model(
    spec: str,
) -> tuple[Callable[..., Any], Callable[[], Sequence[Any]], Mapping[Any, Mapping[int, str]] | None]:
    """``module:function`` -> (the function, the module's ``example_args``, its ``DYNAMIC`` or None). The module
    is imported as Python would from the current folder."""
    import importlib
    import sys

    module_name, _, attr = spec.partition(":")
    if not module_name or not attr:
        raise UsageError(f"--model {spec}: give MODULE:FUNCTION, e.g. mypkg.model:forward")
    if "" not in sys.path and "." not in sys.path:
        sys.path.insert(0, "")
    try:
        module = importlib.import_module(module_name)
    except ImportError as e:
        raise UsageError(f"--model {spec}: cannot import {module_name} ({e})") from None
    fn = getattr(module, attr, None)
    if not callable(fn):
        raise UsageError(f"--model {spec}: {module_name} has no function {attr}")
    example_args = getattr(module, "example_args", None)
    if not callable(example_args):
        raise UsageError(
            f"--model {spec}: {module_name} must define example_args() returning {attr}'s example "
            f"arguments (and may define DYNAMIC, the dynamic= of check_jax)"
        )
    return fn, example_args, getattr(module, "DYNAMIC", None)


@dataclasses.dataclass(frozen=True)
class Variant:
    """One draw of a model campaign: a dtype, dynamic dims or static ones, a compiler configuration."""

    index: int
    dtype: str
    dynamic: bool
    target_cpu: str
    flags: tuple[str, ...]
    labels: Mapping[str, str]

    def to_json(self) -> dict[str, Any]:
        return {
            "index": self.index,
            "dtype": self.dtype,
            "dynamic": self.dynamic,
            "target_cpu": self.target_cpu,
            "flags": list(self.flags),
            **dict(self.labels),
        }

    def __repr__(self) -> str:
        chosen = ", ".join(f"{k}={v}" for k, v in self.labels.items() if v != "default")
        return (
            f"#{self.index} {self.dtype} {'dynamic' if self.dynamic else 'static'} cpu={self.target_cpu}"
            f"{' ' + chosen if chosen else ''}"
        )


def variants(seed: int, count: int, has_dynamic: bool, space: Any, target_cpu: str = "host") -> list[Variant]:
    """``count`` variants: the first is the model as given (f32, its dynamic dims, the default configuration),
    then dtypes, dynamic or static, and compiler configurations (``sut.config_space``' space) drawn from ``seed``."""
    rng = random.Random(f"{seed}/model")
    out = [Variant(0, "f32", has_dynamic, target_cpu, (), {})]
    for k in range(1, count):
        config = space.draw(seed, k)
        out.append(
            Variant(
                k,
                rng.choice(FUZZ_DTYPES),
                has_dynamic and rng.random() < 0.5,
                config.target_cpu,
                tuple(config.flags),
                dict(config.choices),
            )
        )
    return out


def fuzz_model(
    spec: str,
    out: Any,
    *,
    seed: int = 0,
    count: int = DEFAULT_VARIANTS,
    time_s: float | None = None,
    config: sut.CompilerConfig | None = None,
    policy: Policy | None = None,
    baseline: Any = None,
    log: Callable[[str], None] = print,
) -> int:
    """``ireefuzz fuzz --model MODULE:FUNCTION``: check ``count`` variants of the model (``variants``), each
    through ``check_results``; every variant's findings go to ``OUT/findings.jsonl``, a bundle per new signature
    (not in ``baseline``) to ``OUT/bundles/``. Returns 1 if a finding is new, else 0."""
    import json
    import time
    from pathlib import Path

    from ireefuzz.base.durable import slug
    from ireefuzz.sut import config_space

    fn, example_args, dynamic = load_model(spec)
    base = config or sut.CompilerConfig()
    space = config_space.limited_to(sut.compiler_flags(sut.find_iree_compile(base)), (base.target_cpu, "generic"))
    out = Path(out)
    (out / "bundles").mkdir(parents=True, exist_ok=True)
    started, seen, new = time.monotonic(), set(), 0
    with open(out / "findings.jsonl", "a", encoding="utf-8") as record:
        for variant in variants(seed, count, bool(dynamic), space, base.target_cpu):
            if time_s is not None and time.monotonic() - started > time_s:
                log(f"--time {time_s:g} s spent: {variant.index} of {count} variants checked")
                break
            run_config = dataclasses.replace(
                base, target_cpu=variant.target_cpu, flags=tuple(base.flags) + variant.flags
            )
            args = with_float_dtype(example_args(), variant.dtype)
            case, result = check_results(
                fn,
                *args,
                dynamic=dynamic if variant.dynamic else None,
                config=run_config,
                policy=policy,
                seed=seed + variant.index,
            )
            record.write(
                json.dumps(
                    {
                        "variant": variant.to_json(),
                        "instances": list(case.instances),
                        "not_judged": list(result.not_judged),
                        "discarded": result.discarded,
                        "findings": [json.loads(f.dumps()) for f in result.findings],
                    }
                )
                + "\n"
            )
            record.flush()
            log(f"{variant!r}: {len(result.findings)} finding(s)")
            for f in result.findings:
                known = baseline.finding_known(f.signature, f.cause) if baseline is not None else None
                log(f"    {f.signature}{' (known: ' + (known.verdict or 'listed') + ')' if known else ''}")
                if known or f.signature in seen:
                    continue
                seen.add(f.signature)
                new += 1
                make_bundle(f, case, run_config).dump(out / "bundles" / slug(f.signature))
    log(f"{new} new finding(s); {out / 'findings.jsonl'}, bundles in {out / 'bundles'}")
    return 1 if new else 0


def fuzz_main(args: Any) -> int:
    """``ireefuzz fuzz --model``: the campaign options that apply to a model (``--out``, ``--seed``, ``--cases`` =
    variants, ``--time``, ``--oracles``, ``--iree-compile``, ``--target-cpu``, ``--flags``, ``--baseline``)."""
    import time
    from pathlib import Path

    from ireefuzz.tools import baseline as known

    if args.cases is not None and args.cases < 1:
        raise UsageError("--cases: give a positive number of model variants")
    config = sut.CompilerConfig(
        iree_compile=args.iree_compile, target_cpu=args.target_cpu or "host", flags=tuple(args.flags or ())
    )
    sut.require_usable(config)
    out = Path(args.out or f"runs/model-{time.strftime('%Y%m%d-%H%M%S')}")
    return fuzz_model(
        args.model,
        out,
        seed=args.seed or 0,
        count=args.cases or DEFAULT_VARIANTS,
        time_s=args.time,
        config=config,
        policy=Policy.from_options(args, jax="always", relations=()),  # --oracles, checked by its option type
        baseline=known.load(known.baseline_path(args.baseline)),
    )
