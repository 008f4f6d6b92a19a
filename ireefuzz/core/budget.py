"""Memory budgeted before it is spent: the bytes a case's run will take, estimated from its types and shapes.

A run holds the inputs (ours, and the runtime's copies read back after the call), the outputs (the
runtime's, and ours), and the float64 reference interpreter's values: every value it computes is a float64
array, with an error bound beside it and NumPy's temporaries while an op is evaluated. Measured on 3.13:
two 512 MiB f32 arguments reached 7 GB resident, a 1 GiB output 5.4 GB -- about 20 bytes per element of
every argument and result; ``INTERPRETER_BYTES_PER_ELEMENT`` keeps a margin over that.

``estimate_program`` reads a raw program's tensor types (a dynamic dim of an intermediate or a result is
bounded by the largest concrete argument dim: the dims a program computes come from its arguments'),
``estimate_graph`` a graph case's node types at one shape instance. ``check`` compares an estimate with the
budget (``--max-memory``; default ``DEFAULT_FRACTION`` of this machine's memory) and raises ``OverBudget``:
one line and exit 2 for the user's own program, "not judged" in a campaign.
"""

from __future__ import annotations

import math
import os
import re
from typing import Any, Iterable, Mapping, Sequence

from ireefuzz.errors import OverBudget

DEFAULT_FRACTION = 0.5  # of this machine's physical memory
INTERPRETER_BYTES_PER_ELEMENT = 32  # float64 value + its error bound + NumPy temporaries, per element
COPIES = 2  # bytes of each argument and result held natively: ours and the runtime's (read back)

_ITEMSIZE = {
    "i1": 1,
    "i8": 1,
    "i16": 2,
    "i32": 4,
    "i64": 8,
    "index": 8,
    "f16": 2,
    "bf16": 2,
    "f32": 4,
    "f64": 8,
    "f8E4M3FN": 1,
    "f8E5M2": 1,
    "complex<f32>": 8,
    "complex<f64>": 16,
}
_TENSOR = re.compile(r"tensor<((?:(?:\d+|\?)x)*)([A-Za-z][\w]*)")


def machine_memory() -> int:
    """Physical memory of this machine in bytes (16 GiB if it cannot be read)."""
    try:
        return os.sysconf("SC_PHYS_PAGES") * os.sysconf("SC_PAGE_SIZE")
    except (ValueError, OSError, AttributeError):
        return 16 * 2**30


def default_budget() -> int:
    return int(machine_memory() * DEFAULT_FRACTION)


def itemsize(dtype: str) -> int:
    return _ITEMSIZE.get(str(dtype), 8)


def estimate(values: Iterable[tuple[Sequence[int], str]], largest_intermediate: int = 0) -> int:
    """Bytes for the arguments and results ``values`` (shape, element type), held natively ``COPIES`` times and
    in float64 by the interpreter, plus the interpreter's largest intermediate (elements)."""
    native = elements = 0
    for shape, dtype in values:
        n = math.prod(int(d) for d in shape)
        native += n * itemsize(dtype)
        elements += n
    return COPIES * native + INTERPRETER_BYTES_PER_ELEMENT * (elements + largest_intermediate)


def estimate_program(
    text: str, args: Sequence[tuple[Sequence[int], str]], results: Sequence[tuple[Sequence[int | None], str]]
) -> int:
    """Bytes to run a raw program's function on arguments of these concrete shapes: its results' dynamic dims,
    and those of every tensor type in ``text``, bounded by the largest argument dim."""
    bound = max((int(d) for shape, _ in args for d in shape), default=1)
    concrete = [(tuple(bound if d is None else d for d in shape), dtype) for shape, dtype in results]
    largest = 0
    for m in _TENSOR.finditer(text):
        dims = [bound if d == "?" else int(d) for d in m.group(1).split("x")[:-1]]
        largest = max(largest, math.prod(dims))
    return estimate([*args, *concrete], largest)


def estimate_graph(graph: Any, sizes: Mapping[str, int]) -> int:
    """Bytes to run a graph case at one shape instance: its arguments and outputs, and its largest node."""
    args = [(t.concrete(sizes), t.dtype) for t in graph.args]
    outputs = [(graph.type_of(o).concrete(sizes), graph.type_of(o).dtype) for o in graph.outputs]
    largest = max((math.prod(n.type.concrete(sizes)) for n in graph.nodes), default=0)
    return estimate([*args, *outputs], largest)


def gib(n: float) -> str:
    return f"{n / 2**30:.3g} GiB" if n >= 2**30 else f"{n / 2**20:.3g} MiB"


def check(needed: int, budget: int | None, what: str) -> None:
    """``OverBudget`` (one line, saying what to do) if ``needed`` bytes exceed ``budget`` (None: the default)."""
    budget = default_budget() if not budget else budget
    if needed > budget:
        raise OverBudget(
            f"{what} would need about {gib(needed)} of memory to run and check, more than the budget "
            f"of {gib(budget)}; give smaller shapes, or a larger --max-memory if this machine has it"
        )


def estimate_case(case: Any, instance: int) -> int:
    """Bytes to run ``case`` (a graph ``Case`` or a raw program's ``ProgramCase``) at shape instance ``instance``."""
    if getattr(case, "graph", None) is not None:
        return estimate_graph(case.graph, case.instances[instance])
    args = [(tuple(t.shape), t.dtype) for t in (case.args or ())]
    return estimate_program(case.program, args, case.signature.results)


def over(case: Any, instance: int, budget: int | None) -> str | None:
    """Why ``case`` may not run at ``instance`` (its estimate passes ``budget``; None: the default), or None."""
    needed, budget = estimate_case(case, instance), budget or default_budget()
    if needed <= budget:
        return None
    return f"over the memory budget (about {gib(needed)} needed, {gib(budget)} allowed; see --max-memory)"
