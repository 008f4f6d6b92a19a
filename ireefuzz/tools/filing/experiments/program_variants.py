"""Variants of a raw ``ProgramCase`` at the IR level, each a ``program_rewrites`` rewrite (or the shrinker's
``without_result``) compiled as the same function (``program_experiments``, with the CPUs)."""

from __future__ import annotations

import dataclasses
from typing import TYPE_CHECKING, Any, Iterator, Sequence

from .compiler_variants import CannotRun, cpu_experiments
from .program_rewrites import (
    _SLICE,
    _given_name,
    argument_inits,
    producer_sites,
    reranked_text,
    widened_text,
    with_argument_types,
    with_empty_init,
    with_producer_as_argument,
    with_view_as_argument,
)
from .table import EDGE_UP, EXTRA_DIM, Experiment

if TYPE_CHECKING:
    from ireefuzz.core.frontends import ProgramCase


def program_experiments(case: ProgramCase, cannot_run: CannotRun = lambda cpu: None) -> list[list[Experiment]]:
    """The IR-level experiments of a raw program's function (``frontends.ProgramCase``), one list per kind: its
    arguments' dims static at the instance's sizes or dynamic (``with_argument_types``), ``tensor.empty`` for each
    argument init of that function, each result dropped (``program_result_experiments``), a leading dim more or
    less (``reranked_text``), f32 for f16 / bf16, the CPUs.
    A variant that cannot be built mechanically is an ``Experiment`` without a case, saying why."""
    inits = []
    for site in argument_inits(case.program):
        if site.function != case.function:
            continue
        text = with_empty_init(case.program, site)
        variant = _program_variant(case, text) if text else None
        if variant is not None:
            fill = " (filled with zero: the op reads it)" if site.reads else ""
            inits.append(
                Experiment(
                    f"{site.op.split('.')[-1]}#{site.op_index}.outs=empty",
                    f"`tensor.empty` instead of `%arg{site.argument}` as the outs of `{site.op}`{fill}",
                    variant,
                )
            )
    wide = widened_text(case.program)
    variant = _program_variant(case, wide, widen=True) if wide else None
    dtypes = [Experiment("f32", "f32 instead of f16 / bf16", variant)] if variant is not None else []
    shapes, ranks = list(program_shape_experiments(case)), list(program_rank_experiments(case))
    views, producers = list(program_view_experiments(case)), list(program_producer_experiments(case))
    results = list(program_result_experiments(case))
    cpus = list(cpu_experiments(case, cannot_run))
    return [shapes, inits, results, views, producers, ranks, dtypes, cpus]


def program_result_experiments(case: ProgramCase) -> Iterator[Experiment]:
    """Each result of a raw program's function no longer returned, with what only it feeds (``without_result``):
    the IR level's "each consumer removed" (round H's transpose of a two-result generic compiles without the
    transpose, and without the generic's other result)."""
    from ireefuzz.tools.shrink.mlir import result_count, without_result

    for k in range(result_count(case.program, case.function)):
        text = without_result(case.program, case.function, k)
        variant = _program_variant(case, text) if text else None
        if variant is not None:
            yield Experiment(f"drop:output{k}", f"output {k} not returned (with what only it feeds)", variant)


def _shown(shape: Sequence[int | None]) -> str:
    return "x".join("?" if d is None else str(d) for d in shape) or "scalar"


def _edge_up(declared: Sequence[int | None], size: Sequence[int]) -> tuple[int, ...]:
    """``size`` with each dynamic dim of size 0 or 1 one size up."""
    return tuple(n + 1 if d is None and n in (0, 1) else n for d, n in zip(declared, size))


def program_shape_experiments(case: Any) -> Iterator[Experiment]:
    """The arguments' dynamic dims static at the instance's sizes (all, then each argument alone when several are
    dynamic), and the static arguments dynamic; each through a ``tensor.cast`` at entry, the body unchanged."""
    if case.args is None:
        return
    declared = [shape for shape, _ in case.signature.args]
    sizes = [tuple(t.shape) for t in case.args]
    dynamic = [n for n, shape in enumerate(declared) if None in shape]
    singles = [[n] for n in dynamic] if len(dynamic) > 1 else []
    for group in [dynamic] * bool(dynamic) + singles:
        text = with_argument_types(case.program, case.function, {n: sizes[n] for n in group})
        variant = _program_variant(case, text) if text else None
        if variant is None:
            continue
        shown = ", ".join(f"`%arg{n}` {_shown(declared[n])} as {_shown(sizes[n])}" for n in group)
        label = "static" if group is dynamic else f"static:%arg{group[0]}"
        alone = "" if group is dynamic else ", the other arguments dynamic"
        yield Experiment(label, f"static argument types at the instance's sizes ({shown}){alone}", variant)
        up = {n: _edge_up(declared[n], sizes[n]) for n in group}
        if any(up[n] != sizes[n] for n in group):  # the same at an empty or unit size one up (``degenerate_cures``)
            text = with_argument_types(case.program, case.function, up)
            shapes = [up.get(n, shape) for n, shape in enumerate(sizes)]
            edge = _program_variant(case, text, shapes=shapes) if text else None
            if edge is not None:
                shown = ", ".join(f"`%arg{n}` as {_shown(up[n])}" for n in group if up[n] != sizes[n])
                yield Experiment(f"{label}{EDGE_UP}", f"static argument types one size up ({shown}){alone}", edge)
    static = [n for n, shape in enumerate(declared) if shape and None not in shape]
    text = with_argument_types(case.program, case.function, {n: [None] * len(declared[n]) for n in static})
    variant = _program_variant(case, text) if text else None
    if variant is not None:
        shown = ", ".join(f"`%arg{n}` {_shown(declared[n])}" for n in static)
        yield Experiment("dynamic", f"dynamic argument types ({shown} as dynamic dims, cast back at entry)", variant)


def program_view_experiments(case: Any) -> Iterator[Experiment]:
    """Each statically shaped ``tensor.extract_slice`` of the function read from a new argument of its type instead
    (the view removed, its data the same kind): an engineer's "does the slice matter?" (a gather from a strided
    view fails where one from a plain buffer compiles)."""
    if case.args is None:
        return
    lines = case.program.split("\n")
    for line in range(len(lines)):
        made = with_view_as_argument(case.program, case.function, line) if _SLICE.match(lines[line]) else None
        if made is None:
            continue
        text, shape = made
        variant = _program_variant(case, text, shapes=[*(t.shape for t in case.args), shape])
        if variant is not None:
            value = _SLICE.match(lines[line]).group(1)  # type: ignore[union-attr]
            yield Experiment(
                f"{value.lstrip('%')}.view=argument",
                f"a function argument of its type in place of the `tensor.extract_slice` {value}",
                variant,
            )


def program_producer_experiments(case: Any) -> Iterator[Experiment]:
    """Each splat value of the function that an op reads as an input (``producer_sites``) read from a new argument
    of its type instead: its input the splat's value (the program's meaning kept), then a random one; and the
    splat read in its consumers' bodies in place of that input's element, over the argument. An engineer's "does the
    fill matter?": where the argument fails the same way it does not; where only the body form does, what the
    failure needs is a body that ignores its input (a splat folded into the body gives that form)."""
    import numpy as np

    if case.args is None:
        return
    for site in producer_sites(case.program, case.function):
        if site.function != case.function:
            continue
        op = f"`{site.op}` {_given_name(case.program, site)}"
        label = f"{site.op.split('.')[-1]}#{site.op_index}.producer="
        shapes = [*(t.shape for t in case.args), site.shape]
        text = with_producer_as_argument(case.program, site)
        variant = _program_variant(case, text, shapes=shapes) if text else None
        if variant is not None and site.splat is not None:
            drawn = variant.inputs()
            splat = np.full(site.shape, site.splat, dtype=drawn[-1].dtype)
            yield Experiment(
                f"{label}splat-argument",
                f"a function argument of its type in place of the {op} (its input the same splat, {site.splat})",
                dataclasses.replace(variant, given=(*(case.inputs()), splat)),
                drops_op=True,
            )
        if variant is not None:
            yield Experiment(
                f"{label}argument",
                f"a function argument of its type in place of the {op} (its input drawn at random)",
                variant,
                drops_op=True,
            )
        text = with_producer_as_argument(case.program, site, into_body=True)
        variant = _program_variant(case, text, shapes=shapes) if text else None
        if variant is not None:
            yield Experiment(
                f"{label}body",
                f"the {op}'s value read in its consumers' bodies in place of their input's element, that input a "
                "function argument of its type (drawn at random)",
                variant,
                drops_op=True,
            )


def program_rank_experiments(case: Any) -> Iterator[Experiment]:
    """Every tensor of the function one leading dim more (of ``EXTRA_DIM``: IREE folds a unit dim away) and one
    less, where that is mechanical (``reranked_text``); else an experiment without a case, saying why not."""
    if case.args is None:
        return
    import numpy as np

    rank = max((len(shape) for shape, _ in case.signature.results), default=0)
    given = [np.asarray(x) for x in case.inputs()]
    for up, label in ((True, "rank+1"), (False, "rank-1")):
        text, why = reranked_text(case.program, case.function, up=up, size=EXTRA_DIM)
        shapes = [(EXTRA_DIM, *t.shape) if up else tuple(t.shape[1:]) for t in case.args]
        variant = _program_variant(case, text, shapes=shapes) if text else None
        # the program's own values: each input repeated along the new dim, or its first slice (a part of them)
        values = [np.broadcast_to(x, (EXTRA_DIM, *x.shape)).copy() if up else x[0] for x in given]
        if variant is not None and all(v.shape == tuple(s) for v, s in zip(values, shapes)):
            variant = dataclasses.replace(variant, given=tuple(values))
        change = (
            f"a leading dim of size {EXTRA_DIM} on every tensor (rank {rank} -> {rank + 1}), each input repeated"
            if up
            else f"every tensor's leading dim dropped (rank {rank} -> {rank - 1}), each input its first slice"
        )
        if variant is not None:
            yield Experiment(label, change, variant, other_values=not up)
        else:
            yield Experiment(label, change, None, not_run=why or "the variant's signature cannot be fed")


def _program_variant(
    case: Any, text: str, *, widen: bool = False, shapes: Sequence[Sequence[int]] | None = None
) -> Any:
    """``case``'s function in the program ``text``, at the same argument shapes (or ``shapes``; element types from
    ``text``)."""
    from ireefuzz.core.frontends import program_cases
    from ireefuzz.errors import ProgramError

    if shapes is None:
        shapes = [t.shape for t in case.args] if case.args is not None else None
    try:
        (variant,) = program_cases(
            text,
            functions=[case.function],
            shapes=shapes,
            seed=case.seed,
            run=case.args is not None,
            target_cpu=case.target_cpu,
            flags=case.flags,
        )
    except (ProgramError, ValueError):
        return None
    return variant
