"""Interpreting vs compiling programs with 1e5-element tensors (issue 10: interpreting must cost less).

Run: PYTHONPATH=. python bench/interpret_speed.py
"""

import time

from ireefuzz.generators.case import Case
from ireefuzz.generators.emit import emit
from ireefuzz.generators.graph import Graph, Node, TensorType
from ireefuzz.oracles.interpret import interpret

T = lambda *s, d="f32": TensorType(tuple(s), d)
progs = {
    "elementwise 316x316 (exp, add, mul, where, tanh)": Graph(
        (T(316, 316), T(316, 316)),
        (
            Node("exp", ("a0",), {}, T(316, 316)),
            Node("add", ("n0", "a1"), {}, T(316, 316)),
            Node("mul", ("n1", "a0"), {}, T(316, 316)),
            Node("where_gt", ("n2", "a1", "n1", "a0"), {}, T(316, 316)),
            Node("tanh", ("n3",), {}, T(316, 316)),
        ),
        ("n4",),
    ),
    "reduce_sum 1e5 -> scalar": Graph((T(100000),), (Node("reduce_sum", ("a0",), {"dim": 0}, T()),), ("n0",)),
    "matmul 316x316x316 (fill, generic form)": Graph(
        (T(316, 316), T(316, 316)),
        (
            Node("fill", (), {"shape": [316, 316], "dtype": "f32", "value": 0.0}, T(316, 316)),
            Node("matmul", ("a0", "a1", "n0"), {"generic": True}, T(316, 316)),
        ),
        ("n1",),
    ),
    "transpose, strided extract_slice, reduce_max 1e5": Graph(
        (T(316, 316),),
        (
            Node("transpose", ("a0",), {"permutation": [1, 0]}, T(316, 316)),
            Node("extract_slice", ("n0",), {"offsets": [1, 0], "sizes": [105, 316], "strides": [3, 1]}, T(105, 316)),
            Node("reduce_max", ("n1",), {"dim": 0}, T(316)),
        ),
        ("n2",),
    ),
}
from iree.compiler import compile_str

for name, g in progs.items():
    g.check()
    case = Case(g, ({},), seed=1)
    inputs = case.inputs(0)
    text = emit(g).text
    interpret(text, "main", inputs)
    t = time.time()
    interpret(text, "main", inputs)
    ti = time.time() - t
    t = time.time()
    compile_str(text, target_backends=["llvm-cpu"], extra_args=["--iree-llvmcpu-target-cpu=host"])
    tc = time.time() - t
    print(f"{name}: interpret {ti:.3f} s, iree-compile {tc:.3f} s")
