"""The reference interpreter (``ireefuzz.oracles.interpret``): proved against the graph reference, then op by op.

The property test interprets the emitted MLIR of drawn graphs (every op, dtype, dynamic dims and
DPS form) and compares with the float64 graph reference within its error bounds; fault injection
shows that cross-check catches a wrong interpreter. No IREE compile is needed: these are fast.
"""

import itertools
from pathlib import Path

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from programs import GATHER

from ireefuzz.errors import NotInterpretable, ProgramError
from ireefuzz.generators.case import Case
from ireefuzz.generators.emit import emit
from ireefuzz.generators.graph import Graph, Node, TensorType
from ireefuzz.generators.strategies import cases
from ireefuzz.oracles import interpret as interp_module
from ireefuzz.oracles.interpret import Domain, infer_input_domains, interpret
from ireefuzz.oracles.interpret import linalg as interp_linalg
from ireefuzz.oracles.interpret import tensor as interp_tensor
from ireefuzz.oracles.reference import evaluate_with_bounds

ROOT = Path(__file__).resolve().parents[1]
DTYPES = ("f32", "f16", "i32", "i8")


def disagreements(case: Case) -> list[str]:
    """Interpret ``case``'s emitted program at each shape instance; what differs from the graph reference
    by more than its error bound (an interpreter error counts too)."""
    text = emit(case.graph).text
    problems = []
    for k, sizes in enumerate(case.instances):
        inputs = case.inputs(k)
        expected, bounds = evaluate_with_bounds(case.graph, inputs, sizes)
        try:
            got = interpret(text, "main", inputs)
        except NotInterpretable as e:
            return [f"instance {sizes}: {e}"]
        for i, (want, bound, have) in enumerate(zip(expected, bounds, got)):
            want, have = np.asarray(want, np.float64), np.asarray(have, np.float64)
            if want.shape != have.shape:
                problems.append(f"instance {sizes} output {i}: shape {have.shape}, expected {want.shape}")
            elif not np.all((np.abs(want - have) <= bound) | (want == have) | (np.isnan(want) & np.isnan(have))):
                problems.append(f"instance {sizes} output {i}: off by {np.nanmax(np.abs(want - have))}")
    return problems


def index_domains_agree(case: Case) -> bool:
    """infer_input_domains finds the index arguments of every live gather, with the graph's bound, and no others."""
    domains = infer_input_domains(emit(case.graph).text, "main")
    sizes = case.instances[0]
    shapes = [t.concrete(sizes) for t in case.graph.args]
    live = _live_refs(case.graph)
    indexing = {r for i, n in enumerate(case.graph.nodes) if n.op == "gather" and f"n{i}" in live for r in n.inputs[1:]}
    for i, (t, d) in enumerate(zip(case.graph.args, domains)):
        want = (
            None
            if t.index_bound is None
            else (t.index_bound if isinstance(t.index_bound, int) else sizes[t.index_bound])
        )
        if d.index and (want is None or d.upper(shapes) != want) or f"a{i}" in indexing and not d.index:
            return False
    return True


def _live_refs(graph: Graph) -> set[str]:
    """Refs an output depends on (a dead gather is erased before its indices are looked for)."""
    live, todo = set(), list(graph.outputs)
    while todo:
        ref = todo.pop()
        if ref not in live:
            live.add(ref)
            if ref[0] == "n":
                todo.extend(graph.nodes[int(ref[1:])].inputs)
    return live


@settings(max_examples=40, suppress_health_check=list(HealthCheck), deadline=None, database=None)
@given(cases(dtypes=DTYPES))
def test_interpreter_agrees_with_the_graph_reference(case):
    assert disagreements(case) == []
    assert index_domains_agree(case)


@settings(max_examples=10, suppress_health_check=list(HealthCheck), deadline=None, database=None)
@given(cases(dtypes=DTYPES, ops=("gather", "matmul", "batch_matmul", "extract_slice", "transpose")))
def test_interpreter_agrees_on_indexing_and_contraction_ops(case):
    assert disagreements(case) == []
    assert index_domains_agree(case)


@pytest.mark.parametrize("form", ["extract", "linalg_ext"])
def test_a_rank_reducing_slice_drops_the_unit_dim_mlir_drops(form):
    """`[1, 2, 1]` of a 1x2x2 tensor to 1x2: MLIR drops the last dim (the first that stops matching the result). The
    interpreter dropped the first unit dim, read a 2x1 tensor, and called the gather of its rows out of bounds
    (found by the property test above, on a seed CI had not drawn)."""
    graph = Graph(
        (TensorType((1,), "f32"), TensorType((1, 2, 2), "f32"), TensorType((1,), "i32", index_bound=1)),
        (
            Node(
                "extract_slice",
                ("a1",),
                {"offsets": [0, 0, 0], "sizes": [1, 2, 1], "strides": [1, 1, 1], "drop": [2]},
                TensorType((1, 2), "f32"),
            ),
            Node("gather", ("n0", "a2"), {"form": form}, TensorType((1, 2), "f32")),
        ),
        ("n1",),
    )
    assert disagreements(Case(graph, ({},), 0, "host", (), 16)) == []


@settings(max_examples=25, suppress_health_check=list(HealthCheck), deadline=None, database=None)
@given(
    cases(dtypes=DTYPES, ops=("take", "gather", "causal_mask", "quantize", "dequantize", "matmul", "contract", "add"))
)
def test_interpreter_agrees_on_the_model_pattern_ops(case):  # index chains, position masks, quantized paths
    assert disagreements(case) == []
    assert index_domains_agree(case)


@pytest.mark.slow
@settings(max_examples=400, suppress_health_check=list(HealthCheck), deadline=None, database=None)
@given(cases(dtypes=DTYPES))
def test_interpreter_agrees_on_many_graphs(case):  # the acceptance run (issue 10: >= 300 graphs)
    assert disagreements(case) == []
    assert index_domains_agree(case)


# --------------------------------------------------------------------------- fault injection

STRIDED = Case(
    Graph(
        (TensorType((9, 4), "f32"),),
        (
            Node(
                "extract_slice",
                ("a0",),
                {"offsets": [1, 0], "sizes": [3, 4], "strides": [2, 1]},
                TensorType((3, 4), "f32"),
            ),
        ),
        ("n0",),
    ),
    ({},),
    seed=3,
)


def test_a_dropped_stride_is_caught(monkeypatch):
    assert disagreements(STRIDED) == []
    real = interp_tensor._slice_of
    monkeypatch.setattr(
        interp_tensor,
        "_slice_of",
        lambda op, shape, offs, sizes, strides: real(op, shape, offs, sizes, [1] * len(strides)),
    )
    assert disagreements(STRIDED) != []


def test_a_swapped_operand_is_caught(monkeypatch):
    sub = Case(
        Graph(
            (TensorType(("M", 5), "f32"), TensorType(("M", 5), "f32")),
            (Node("sub", ("a0", "a1"), {}, TensorType(("M", 5), "f32")),),
            ("n0",),
        ),
        ({"M": 3},),
        seed=1,
    )
    assert disagreements(sub) == []
    real = interp_module.HANDLERS["arith.subf"]
    monkeypatch.setitem(interp_module.HANDLERS, "arith.subf", lambda i, op, args: real(i, op, args[::-1]))
    assert disagreements(sub) != []


HORNER = """
func.func @main(%x: tensor<4xi32>) -> tensor<i32> {
  %c0 = arith.constant 0 : i32
  %c2 = arith.constant 2 : i32
  %e = tensor.empty() : tensor<i32>
  %z = linalg.fill ins(%c0 : i32) outs(%e : tensor<i32>) -> tensor<i32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> ()>],
                       iterator_types = ["reduction"]} ins(%x : tensor<4xi32>) outs(%z : tensor<i32>) {
  ^bb0(%in: i32, %acc: i32):
    %t = arith.muli %acc, %c2 : i32
    %s = arith.addi %t, %in : i32
    linalg.yield %s : i32
  } -> tensor<i32>
  return %r : tensor<i32>
}
"""


def test_a_non_associative_reduction_runs_in_iteration_order(monkeypatch):
    bits = np.array([1, 0, 1, 1], np.int32)  # read most significant first: 0b1011
    assert interpret(HORNER, "main", [bits])[0] == 11
    monkeypatch.setattr(
        interp_linalg, "_reduction_points", lambda sizes: list(itertools.product(*(range(s) for s in sizes)))[::-1]
    )
    assert interpret(HORNER, "main", [bits])[0] == 13  # reversed order: 0b1101, caught


# --------------------------------------------------------------------------- the acceptance programs


def test_the_fill_sum_regression_interprets_to_the_right_sums():
    text = (ROOT / "corpus/regressions/reduce_sum_of_fill/program.mlir").read_text()
    assert interpret(text, "main", []) == [4]
    f32 = (
        text.replace("2xi32", "63xf32")
        .replace("tensor<i32>", "tensor<f32>")
        .replace(": i32", ": f32")
        .replace("constant 2 :", "constant 2.0 :")
        .replace("constant 0 :", "constant 0.0 :")
        .replace("addi", "addf")
    )
    assert interpret(f32, "main", []) == [126.0]


def test_a_dynamic_gather_with_in_bounds_indices_from_the_inferred_domains():
    domains = infer_input_domains(GATHER, "main")
    assert domains == [Domain(0), Domain(1, index=True, bound_of=(0, 0))]
    rng = np.random.default_rng(0)
    table = rng.standard_normal((7, 5)).astype(np.float32)
    idx = rng.integers(0, domains[1].upper([(7, 5), (11,)]), 11).astype(np.int32)
    assert np.array_equal(interpret(GATHER, "main", [table, idx])[0], table[idx].astype(np.float64))
    with pytest.raises(NotInterpretable, match="out of bounds"):
        interpret(GATHER, "main", [table, np.array([7], np.int32)])


# --------------------------------------------------------------------------- op by op


def run(signature: str, body: str, *inputs, results: str = ""):
    """Interpret a one-function program ``@f(signature) -> results { body }``."""
    return interpret(f"func.func @f({signature}) -> ({results}) {{\n{body}\n}}", "f", list(inputs))


def scalar_op(op: str, dtype: str, a, b=None, out: str | None = None):
    """One arith / math op on 0-d tensors, through a linalg.generic."""
    out = out or dtype
    n = 1 if b is None else 2
    ins = ", ".join(["%x"] if n == 1 else ["%x", "%y"])
    types = ", ".join([f"tensor<{dtype}>"] * n)
    args = ", ".join(f"%b{i}" for i in range(n))
    sig = ", ".join(f"%{v}: tensor<{dtype}>" for v in ("x", "y")[:n])
    body = f"""
  %e = tensor.empty() : tensor<{out}>
  %r = linalg.generic {{indexing_maps = [{", ".join(["affine_map<() -> ()>"] * (n + 1))}], iterator_types = []}}
       ins({ins} : {types}) outs(%e : tensor<{out}>) {{
  ^bb0({", ".join(f"%b{i}: {dtype}" for i in range(n))}, %o: {out}):
    %v = {op} {args} : {dtype if "->" not in op else ""}
    linalg.yield %v : {out}
  }} -> tensor<{out}>
  return %r : tensor<{out}>"""
    values = [np.asarray(a)] + ([] if b is None else [np.asarray(b)])
    return run(sig, body, *values, results=f"tensor<{out}>")[0][()]


@pytest.mark.parametrize(
    "op, a, b, want",
    [
        ("arith.divsi", -7, 2, -3),
        ("arith.remsi", -7, 2, -1),
        ("arith.floordivsi", -7, 2, -4),
        ("arith.ceildivsi", -7, 2, -3),
        ("arith.divui", -8, 3, (2**32 - 8) // 3),
        ("arith.remui", -8, 3, (2**32 - 8) % 3),
        ("arith.maxui", -1, 3, -1),
        ("arith.minui", -1, 3, 3),
        ("arith.shrsi", -8, 1, -4),
        ("arith.shrui", -8, 28, 15),
        ("arith.shli", 1, 31, -(2**31)),
        ("arith.addi", 2**31 - 1, 1, -(2**31)),
        ("arith.muli", 65536, 65536, 0),
        ("arith.xori", 6, 3, 5),
    ],
)
def test_integer_ops_are_exact_and_wrap_at_i32(op, a, b, want):
    assert scalar_op(op, "i32", np.int32(a), np.int32(b)) == want


def test_i8_wraps_and_division_by_zero_is_not_judged():
    assert scalar_op("arith.addi", "i8", np.int8(127), np.int8(1)) == -128
    with pytest.raises(NotInterpretable, match="arith.divsi by zero"):
        scalar_op("arith.divsi", "i32", np.int32(1), np.int32(0))
    with pytest.raises(NotInterpretable, match="arith.shli"):
        scalar_op("arith.shli", "i32", np.int32(1), np.int32(32))


@pytest.mark.parametrize(
    "op, a, b, want",
    [
        ("arith.maximumf", np.nan, 1.0, np.nan),
        ("arith.maxnumf", np.nan, 1.0, 1.0),
        ("arith.minnumf", 2.0, np.nan, 2.0),
        ("arith.remf", -7.0, 2.0, -1.0),
        ("math.powf", 2.0, 10.0, 1024.0),
        ("math.copysign", 3.0, -0.0, -3.0),
    ],
)
def test_float_binary_ops(op, a, b, want):
    np.testing.assert_equal(scalar_op(op, "f32", np.float32(a), np.float32(b)), want)


@pytest.mark.parametrize(
    "op, a, want",
    [
        ("math.round", -2.5, -3.0),
        ("math.roundeven", 2.5, 2.0),
        ("math.floor", -0.5, -1.0),
        ("math.ceil", 0.25, 1.0),
        ("math.rsqrt", 4.0, 0.5),
        ("math.exp2", 3.0, 8.0),
        ("math.log1p", 0.0, 0.0),
        ("math.erf", 0.0, 0.0),
        ("math.absf", -1.5, 1.5),
        ("arith.negf", 1.0, -1.0),
    ],
)
def test_float_unary_ops(op, a, want):
    assert scalar_op(op, "f32", np.float32(a)) == want


@pytest.mark.parametrize(
    "predicate, a, b, want",
    [
        ("ult", -1, 1, False),
        ("slt", -1, 1, True),
        ("uge", -1, 1, True),
        ("ne", 3, 3, False),
        ("sle", 3, 3, True),
    ],
)
def test_cmpi_predicates(predicate, a, b, want):
    assert scalar_op(f"arith.cmpi {predicate},", "i32", np.int32(a), np.int32(b), out="i1") == want


@pytest.mark.parametrize(
    "predicate, a, b, want",
    [
        ("olt", np.nan, 1.0, False),
        ("ult", np.nan, 1.0, True),
        ("oeq", 1.0, 1.0, True),
        ("une", 1.0, 1.0, False),
        ("uno", np.nan, 0.0, True),
        ("ord", 1.0, 0.0, True),
        ("one", np.nan, 1.0, False),
    ],
)
def test_cmpf_predicates(predicate, a, b, want):
    assert scalar_op(f"arith.cmpf {predicate},", "f32", np.float32(a), np.float32(b), out="i1") == want


@pytest.mark.parametrize(
    "cast, src, dst, a, want",
    [
        ("arith.extsi", "i8", "i32", -3, -3),
        ("arith.extui", "i8", "i32", -3, 253),
        ("arith.trunci", "i32", "i8", 300, 44),
        ("arith.fptosi", "f32", "i32", -2.75, -2),
        ("arith.sitofp", "i32", "f16", 2049, 2048.0),
        ("arith.truncf", "f32", "bf16", 1.00390625, 1.0),
        ("arith.uitofp", "i8", "f32", -1, 255.0),
        ("arith.extui", "i1", "i32", 1, 1),
        ("arith.extsi", "i1", "i32", 1, -1),
        ("arith.bitcast", "f32", "i32", 1.0, 0x3F800000),
    ],
)
def test_casts(cast, src, dst, a, want):
    dtypes = {"i8": np.int8, "i32": np.int32, "f32": np.float32, "i1": np.bool_}
    assert scalar_op(f"{cast} %b0 : {src} to {dst} //", src, dtypes[src](a), out=dst) == want


def test_poison_cast_is_not_judged():
    with pytest.raises(NotInterpretable, match="fptosi"):
        scalar_op("arith.fptosi %b0 : f32 to i8 //", "f32", np.float32(300.0), out="i8")


def test_named_contractions_through_generalization():
    rng = np.random.default_rng(1)
    a, b = rng.standard_normal((3, 4)), rng.standard_normal((4, 5))
    body = """
  %e = tensor.empty() : tensor<3x5xf64>
  %c = arith.constant 1.0 : f64
  %z = linalg.fill ins(%c : f64) outs(%e : tensor<3x5xf64>) -> tensor<3x5xf64>
  %m = linalg.matmul ins(%a, %b : tensor<3x4xf64>, tensor<4x5xf64>) outs(%z : tensor<3x5xf64>) -> tensor<3x5xf64>
  %v0 = tensor.empty() : tensor<3xf64>
  %bt = tensor.empty() : tensor<5x4xf64>
  %t = linalg.transpose ins(%b : tensor<4x5xf64>) outs(%bt : tensor<5x4xf64>) permutation = [1, 0]
  %x = tensor.extract_slice %b[0, 0] [4, 1] [1, 1] : tensor<4x5xf64> to tensor<4xf64>
  %vz = linalg.fill ins(%c : f64) outs(%v0 : tensor<3xf64>) -> tensor<3xf64>
  %v = linalg.matvec ins(%a, %x : tensor<3x4xf64>, tensor<4xf64>) outs(%vz : tensor<3xf64>) -> tensor<3xf64>
  return %m, %t, %v : tensor<3x5xf64>, tensor<5x4xf64>, tensor<3xf64>"""
    m, t, v = run(
        "%a: tensor<3x4xf64>, %b: tensor<4x5xf64>",
        body,
        a,
        b,
        results="tensor<3x5xf64>, tensor<5x4xf64>, tensor<3xf64>",
    )
    np.testing.assert_allclose(m, a @ b + 1, rtol=1e-13)
    np.testing.assert_equal(t, b.T)
    np.testing.assert_allclose(v, a @ b[:, 0] + 1, rtol=1e-13)


def test_conv_and_pooling():
    rng = np.random.default_rng(2)
    image, kernel = (
        rng.integers(-3, 4, (1, 6, 6, 2)).astype(np.float32),
        rng.integers(-2, 3, (3, 3, 2, 4)).astype(np.float32),
    )
    body = """
  %e = tensor.empty() : tensor<1x4x4x4xf32>
  %c = arith.constant 0.0 : f32
  %z = linalg.fill ins(%c : f32) outs(%e : tensor<1x4x4x4xf32>) -> tensor<1x4x4x4xf32>
  %r = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
       ins(%i, %k : tensor<1x6x6x2xf32>, tensor<3x3x2x4xf32>) outs(%z : tensor<1x4x4x4xf32>) -> tensor<1x4x4x4xf32>
  %w = tensor.empty() : tensor<2x2xf32>
  %pe = tensor.empty() : tensor<1x3x3x2xf32>
  %ninf = arith.constant 0xFF800000 : f32
  %pz = linalg.fill ins(%ninf : f32) outs(%pe : tensor<1x3x3x2xf32>) -> tensor<1x3x3x2xf32>
  %p = linalg.pooling_nhwc_max {dilations = dense<1> : tensor<2xi64>, strides = dense<2> : tensor<2xi64>}
       ins(%i, %w : tensor<1x6x6x2xf32>, tensor<2x2xf32>) outs(%pz : tensor<1x3x3x2xf32>) -> tensor<1x3x3x2xf32>
  return %r, %p : tensor<1x4x4x4xf32>, tensor<1x3x3x2xf32>"""
    conv, pool = run(
        "%i: tensor<1x6x6x2xf32>, %k: tensor<3x3x2x4xf32>",
        body,
        image,
        kernel,
        results="tensor<1x4x4x4xf32>, tensor<1x3x3x2xf32>",
    )
    want = np.zeros((1, 4, 4, 4))
    for y in range(4):
        for x in range(4):
            want[0, y, x] = np.einsum("hwc,hwcf->f", image[0, y : y + 3, x : x + 3], kernel)
    np.testing.assert_array_equal(conv, want)
    np.testing.assert_array_equal(pool, image.reshape(1, 3, 2, 3, 2, 2).max(axis=(2, 4)))


def test_tensor_ops():
    x = np.arange(24, dtype=np.float32).reshape(4, 6)
    body = """
  %c1 = arith.constant 1 : index
  %s = tensor.extract_slice %x[1, 0] [2, 3] [2, 2] : tensor<4x6xf32> to tensor<2x3xf32>
  %z = arith.constant dense<-1.0> : tensor<4x6xf32>
  %i = tensor.insert_slice %s into %z[0, 1] [2, 3] [1, 2] : tensor<2x3xf32> into tensor<4x6xf32>
  %col = tensor.collapse_shape %x [[0, 1]] : tensor<4x6xf32> into tensor<24xf32>
  %exp = tensor.expand_shape %col [[0, 1, 2]] output_shape [2, 3, 4] : tensor<24xf32> into tensor<2x3x4xf32>
  %cat = tensor.concat dim(0) %s, %s : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<4x3xf32>
  %pad = tensor.pad %s low[1, 0] high[0, 1] {
  ^bb0(%a: index, %b: index):
    %ab = arith.addi %a, %b : index
    %f = arith.index_cast %ab : index to i32
    %g = arith.sitofp %f : i32 to f32
    tensor.yield %g : f32
  } : tensor<2x3xf32> to tensor<3x4xf32>
  %v = tensor.extract %x[%c1, %c1] : tensor<4x6xf32>
  %fe = tensor.from_elements %v, %v : tensor<2xf32>
  return %i, %exp, %cat, %pad, %fe : tensor<4x6xf32>, tensor<2x3x4xf32>, tensor<4x3xf32>, tensor<3x4xf32>, \
tensor<2xf32>"""
    ins, exp, cat, pad, fe = run(
        "%x: tensor<4x6xf32>",
        body,
        x,
        results="tensor<4x6xf32>, tensor<2x3x4xf32>, tensor<4x3xf32>, tensor<3x4xf32>, tensor<2xf32>",
    )
    s = x[1:4:2, 0:5:2]
    want = np.full((4, 6), -1.0)
    want[0:2, 1:6:2] = s
    np.testing.assert_array_equal(ins, want)
    np.testing.assert_array_equal(exp, x.reshape(2, 3, 4))
    np.testing.assert_array_equal(cat, np.concatenate([s, s]))
    want_pad = np.add.outer(np.arange(3), np.arange(4)).astype(float)
    want_pad[1:3, 0:3] = s
    np.testing.assert_array_equal(pad, want_pad)
    np.testing.assert_array_equal(fe, [7.0, 7.0])


def test_scf_loops_and_calls():
    text = """
func.func @twice(%v: i32) -> i32 {
  %r = arith.addi %v, %v : i32
  return %r : i32
}
func.func @main(%n: tensor<i32>) -> i32 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c5 = arith.constant 5 : index
  %one = arith.constant 1 : i32
  %s = scf.for %i = %c0 to %c5 step %c1 iter_args(%acc = %one) -> (i32) {
    %d = func.call @twice(%acc) : (i32) -> i32
    scf.yield %d : i32
  }
  %limit = tensor.extract %n[] : tensor<i32>
  %w = scf.while (%x = %s) : (i32) -> i32 {
    %go = arith.cmpi slt, %x, %limit : i32
    scf.condition(%go) %x : i32
  } do {
  ^bb0(%x: i32):
    %y = arith.addi %x, %one : i32
    scf.yield %y : i32
  }
  %big = arith.cmpi sgt, %w, %s : i32
  %r = scf.if %big -> (i32) {
    scf.yield %w : i32
  } else {
    scf.yield %one : i32
  }
  return %r : i32
}"""
    assert interpret(text, "main", [np.array(40, np.int32)]) == [40]
    assert interpret(text, "main", [np.array(3, np.int32)]) == [1]


def test_scatter_combines_duplicates_in_order():
    text = """
func.func @main(%upd: tensor<3xf32>, %idx: tensor<3x1xi32>, %orig: tensor<4xf32>) -> tensor<4xf32> {
  %r = iree_linalg_ext.scatter dimension_map = [0] unique_indices(false)
         ins(%upd, %idx : tensor<3xf32>, tensor<3x1xi32>) outs(%orig : tensor<4xf32>) {
  ^bb0(%u: f32, %o: f32):
    %s = arith.addf %u, %o : f32
    iree_linalg_ext.yield %s : f32
  } -> tensor<4xf32>
  return %r : tensor<4xf32>
}"""
    assert infer_input_domains(text, "main")[1] == Domain(1, index=True, bound=4)
    out = interpret(
        text,
        "main",
        [np.array([1.0, 2.0, 4.0], np.float32), np.array([[1], [3], [1]], np.int32), np.zeros(4, np.float32)],
    )
    np.testing.assert_array_equal(out[0], [0.0, 5.0, 0.0, 2.0])


def test_an_unknown_op_is_refused_by_name():
    maps = ", ".join(f"affine_map<(d0, d1, d2) -> ({r})>" for r in ("d0, d2", "d1, d2", "d1, d2", "", "d0, d2"))
    text = f"""
func.func @main(%x: tensor<4x4xf32>) -> tensor<4x4xf32> {{
  %e = tensor.empty() : tensor<4x4xf32>
  %s = arith.constant 1.0 : f32
  %r = iree_linalg_ext.attention <{{indexing_maps = [{maps}]}}> ins(%x, %x, %x, %s : tensor<4x4xf32>, tensor<4x4xf32>,
       tensor<4x4xf32>, f32) outs(%e : tensor<4x4xf32>) {{
  ^bb0(%score: f32):
    %twice = arith.addf %score, %score : f32
    iree_linalg_ext.yield %twice : f32
  }} -> tensor<4x4xf32>
  return %r : tensor<4x4xf32>
}}"""  # a score modification: refused by name, not guessed
    with pytest.raises(NotInterpretable, match="op iree_linalg_ext.attention"):
        interpret(text, "main", [np.zeros((4, 4), np.float32)])


def test_bad_inputs_are_program_errors():
    with pytest.raises(ProgramError, match="shape"):
        interpret(GATHER, "main", [np.zeros((2, 2, 2), np.float32), np.zeros(1, np.int32)])
    with pytest.raises(ProgramError, match="no function @nope"):
        interpret(GATHER, "nope", [])


def test_integer_results_are_int64_and_bool():
    text = "func.func @main(%x: tensor<3xi8>) -> tensor<3xi8> {\n  return %x : tensor<3xi8>\n}"
    (out,) = interpret(text, "main", [np.array([-1, 2, 127], np.int8)])
    assert out.dtype == np.int64 and out.tolist() == [-1, 2, 127]


def test_dynamic_slices_generate_splat_and_unsigned_results():
    text = """
func.func @main(%x: tensor<?xf32>, %o: index, %n: index, %c: tensor<3xui8>) -> (tensor<?xf32>, tensor<?xf32>, \
tensor<3xui8>, tensor<2xi1>) {
  %s = tensor.extract_slice %x[%o] [%n] [2] : tensor<?xf32> to tensor<?xf32>
  %g = tensor.generate %n {
  ^bb0(%i: index):
    %v = tensor.extract %s[%i] : tensor<?xf32>
    %w = arith.mulf %v, %v : f32
    tensor.yield %w : f32
  } : tensor<?xf32>
  %t = arith.constant true
  %b = tensor.splat %t : tensor<2xi1>
  return %s, %g, %c, %b : tensor<?xf32>, tensor<?xf32>, tensor<3xui8>, tensor<2xi1>
}"""
    x = np.arange(10, dtype=np.float32)
    s, g, c, b = interpret(text, "main", [x, np.array(1), np.array(3), np.array([255, 1, 0], np.uint8)])
    np.testing.assert_array_equal(s, [1.0, 3.0, 5.0])
    np.testing.assert_array_equal(g, [1.0, 9.0, 25.0])
    assert c.tolist() == [255, 1, 0] and b.dtype == np.bool_ and b.tolist() == [True, True]
    assert [d.index for d in infer_input_domains(text, "main")] == [False, True, True, False]


def test_every_width_bf16_f16_i16_i64_and_dense_constants():
    import ml_dtypes

    generic = """
  %e{n} = tensor.empty() : tensor<2x{t}>
  %r{n} = linalg.generic {{indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>, \
affine_map<(d0) -> (d0)>],
      iterator_types = ["parallel"]}} ins(%{a}, %{b} : tensor<2x{t}>, tensor<2x{t}>) outs(%e{n} : tensor<2x{t}>) {{
  ^bb0(%x: {t}, %y: {t}, %o: {t}):
    %z = {op} %x, %y : {t}
    linalg.yield %z : {t}
  }} -> tensor<2x{t}>"""
    body = "\n".join(
        [
            "  %m = arith.constant dense<9223372036854775807> : tensor<2xi64>",
            "  %third = arith.constant dense<[3.0, 3.0]> : tensor<2xbf16>",
            "  %k = arith.constant dense<[1.5, -2.25]> : tensor<2xbf16>",
            "  %f = arith.constant dense<[1.5, 65504.0]> : tensor<2xf16>",
            generic.format(n=0, t="i64", a="b", b="m", op="arith.addi"),
            generic.format(n=1, t="bf16", a="a", b="third", op="arith.divf"),
            generic.format(n=2, t="i16", a="h", b="h", op="arith.muli"),
            generic.format(n=3, t="f16", a="f", b="f", op="arith.addf"),
            "  return %r0, %r1, %r2, %r3, %k : "
            "tensor<2xi64>, tensor<2xbf16>, tensor<2xi16>, tensor<2xf16>, tensor<2xbf16>",
        ]
    )
    i64, bf16, i16, f16, k = run(
        "%a: tensor<2xbf16>, %b: tensor<2xi64>, %h: tensor<2xi16>",
        body,
        np.array([1, 2], ml_dtypes.bfloat16),
        np.array([1, -1], np.int64),
        np.array([300, -2], np.int16),
        results="tensor<2xi64>, tensor<2xbf16>, tensor<2xi16>, tensor<2xf16>, tensor<2xbf16>",
    )
    assert i64.tolist() == [-(2**63), 2**63 - 2]  # wraps at 64 bits
    assert bf16.tolist() == [float(ml_dtypes.bfloat16(1 / 3)), float(ml_dtypes.bfloat16(2 / 3))]  # stored in bf16
    assert i16.tolist() == [300 * 300 - 65536, 4]
    assert f16.tolist() == [3.0, np.inf]  # 2 * 65504 overflows f16 storage
    assert k.tolist() == [1.5, -2.25]


# --------------------------------------------------------------------------- undefined values (poison)

TWO_FUNCTIONS = ROOT / "tests/data/bundles/two_functions_iota_argmax/numeric_wrong-value_g1-b2c2e034e2"
INDEX_INIT = "%empty = tensor.empty() : tensor<2xi32>"  # the argmax's index init in @g1, which nothing writes


def test_the_shipped_two_functions_program_reads_a_tensor_empty_nothing_wrote():
    """Its argmax's index init is a tensor.empty: whatever the index, ``cmpi slt`` on it is poison, ``andi`` and
    ``ori`` keep it poison (as in LLVM), and the select on it makes the max undefined. With the init 0 it is
    defined, and the sorted argmax values are [0, 1] (what IREE computes then)."""
    text = (TWO_FUNCTIONS / "program.mlir").read_text()
    inputs = [np.load(TWO_FUNCTIONS / f"inputs/a{i}.npy") for i in range(4)]
    with pytest.raises(NotInterpretable, match=r"reads undefined values \(%empty = tensor.empty at line 33: never"):
        interpret(text, "g1", inputs)
    defined = text.replace(INDEX_INIT, "%empty = arith.constant dense<0> : tensor<2xi32>")
    assert np.array_equal(interpret(defined, "g1", inputs)[0], [[0.0, 1.0]])
    assert interp_module.is_undefined("@g1's output 0 reads undefined values (x: never written; undefined behaviour)")


PARTLY_WRITTEN = """
func.func @f(%x: tensor<2xf32>) -> tensor<{n}xf32> {{
  %e = tensor.empty() : tensor<4xf32>
  %w = tensor.insert_slice %x into %e[1] [2] [1] : tensor<2xf32> into tensor<4xf32>
  %c = tensor.extract_slice %w[{offset}] [{n}] [1] : tensor<4xf32> to tensor<{n}xf32>
  %r = linalg.generic {{indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>],
                       iterator_types = ["parallel"]}} ins(%c : tensor<{n}xf32>) outs(%c : tensor<{n}xf32>) {{
  ^bb0(%in: f32, %out: f32):
    %t = math.tanh %in : f32
    linalg.yield %t : f32
  }} -> tensor<{n}xf32>
  return %r : tensor<{n}xf32>
}}
"""


def test_poison_follows_the_elements_through_slices_inserts_and_elementwise_ops():
    x = np.array([0.5, -0.5], np.float32)
    assert np.allclose(interpret(PARTLY_WRITTEN.format(n=2, offset=1), "f", [x])[0], np.tanh(x))  # the written part
    with pytest.raises(NotInterpretable, match="tensor.empty at line 3: never written"):
        interpret(PARTLY_WRITTEN.format(n=3, offset=1), "f", [x])  # one element nothing wrote


LOOP_FILL = """
func.func @f(%x: tensor<4xi32>) -> tensor<i32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %cn = arith.constant N : index
  %zero = arith.constant 0 : i32
  %e = tensor.empty() : tensor<4xi32>
  %w = scf.for %i = %c0 to %cn step %c1 iter_args(%t = %e) -> (tensor<4xi32>) {
    %v = tensor.extract %x[%i] : tensor<4xi32>
    %u = tensor.insert %v into %t[%i] : tensor<4xi32>
    scf.yield %u : tensor<4xi32>
  }
  %e0 = tensor.empty() : tensor<i32>
  %init = linalg.fill ins(%zero : i32) outs(%e0 : tensor<i32>) -> tensor<i32>
  %s = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> ()>],
                       iterator_types = ["reduction"]} ins(%w : tensor<4xi32>) outs(%init : tensor<i32>) {
  ^bb0(%in: i32, %acc: i32):
    %a = arith.addi %in, %acc : i32
    linalg.yield %a : i32
  } -> tensor<i32>
  return %s : tensor<i32>
}
"""


def test_poison_is_carried_by_loops_and_reductions():
    x = np.arange(1, 5, dtype=np.int32)
    assert interpret(LOOP_FILL.replace("N", "4"), "f", [x]) == [10]  # the loop wrote every element
    with pytest.raises(NotInterpretable, match="tensor.empty at line 7: never written"):
        interpret(LOOP_FILL.replace("N", "3"), "f", [x])  # element 3 is never written: the sum is undefined


SELECT = """
func.func @f(%x: tensor<3xf32>, %k: tensor<3xi1>) -> tensor<3xf32> {
  %e = tensor.empty() : tensor<3xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>,
                       affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]}
       ins(%x, %k : tensor<3xf32>, tensor<3xi1>) outs(%e : tensor<3xf32>) {
  ^bb0(%in: f32, %keep: i1, %out: f32):
    %v = arith.select %keep, %in, %out : f32
    linalg.yield %v : f32
  } -> tensor<3xf32>
  return %r : tensor<3xf32>
}
"""


def test_a_select_reads_only_the_chosen_operand():
    x = np.array([1.0, 2.0, 3.0], np.float32)
    assert np.array_equal(interpret(SELECT, "f", [x, np.array([1, 1, 1], bool)])[0], x)  # %out never chosen
    with pytest.raises(NotInterpretable, match="tensor.empty at line 3: never written"):
        interpret(SELECT, "f", [x, np.array([1, 0, 1], bool)])


ARGMAX = """
func.func @f(%x: tensor<4xf32>) -> (tensor<f32>, tensor<i32>) {
  %ninf = arith.constant 0xFF800000 : f32
  %zero = arith.constant 0 : i32
  %e = tensor.empty() : tensor<f32>
  %ei = tensor.empty() : tensor<i32>
  %m0 = linalg.fill ins(%ninf : f32) outs(%e : tensor<f32>) -> tensor<f32>
  %i0 = linalg.fill ins(%zero : i32) outs(%ei : tensor<i32>) -> tensor<i32>
  %m, %i = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> ()>,
                                            affine_map<(d0) -> ()>], iterator_types = ["reduction"]}
           ins(%x : tensor<4xf32>) outs(%m0, %i0 : tensor<f32>, tensor<i32>) {
  ^bb0(%in: f32, %max: f32, %at: i32):
    %k = linalg.index 0 : index
    %ki = arith.index_cast %k : index to i32
    %gt = arith.cmpf ogt, %in, %max : f32
    %v = arith.select %gt, %in, %max : f32
    %j = arith.select %gt, %ki, %at : i32
    linalg.yield %v, %j : f32, i32
  } -> (tensor<f32>, tensor<i32>)
  return %m, %i : tensor<f32>, tensor<i32>
}
"""

COUNT_POSITIVE = """
func.func @f(%x: tensor<4xf32>) -> tensor<i32> {
  %zero = arith.constant 0 : i32
  %one = arith.constant 1 : i32
  %f0 = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<i32>
  %c0 = linalg.fill ins(%zero : i32) outs(%e : tensor<i32>) -> tensor<i32>
  %c = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> ()>],
                       iterator_types = ["reduction"]} ins(%x : tensor<4xf32>) outs(%c0 : tensor<i32>) {
  ^bb0(%in: f32, %acc: i32):
    %gt = arith.cmpf ogt, %in, %f0 : f32
    %b = arith.select %gt, %one, %zero : i32
    %s = arith.addi %acc, %b : i32
    linalg.yield %s : i32
  } -> tensor<i32>
  return %c : tensor<i32>
}
"""


def test_a_reduction_that_compares_a_nan_with_its_accumulator_is_undefined():
    """argmax by compare and select over a NaN: where the NaN is compared depends on the order a compiler picks
    (a vector or tree reduction answers differently), so no value is right. A comparison on NaN that does not
    involve the accumulator (a count of positives) is defined, whatever the order."""
    x = np.array([1.0, 3.0, 2.0, 0.5], np.float32)
    value, index = interpret(ARGMAX, "f", [x])
    assert value == 3.0 and index == 1
    with pytest.raises(NotInterpretable, match="%gt = arith.cmpf at line 15: compares a NaN with a reduction's acc"):
        interpret(ARGMAX, "f", [np.array([1.0, np.nan, 2.0, 0.5], np.float32)])
    assert interpret(COUNT_POSITIVE, "f", [np.array([1.0, np.nan, 2.0, -0.5], np.float32)]) == [2]


SORT = """
func.func @f(%x: tensor<3xf32>, %y: tensor<3xf32>) -> (tensor<3xf32>, tensor<3xf32>) {
  %s:2 = iree_linalg_ext.sort dimension(0) outs(%x, %y : tensor<3xf32>, tensor<3xf32>) {
  ^bb0(%a: f32, %b: f32, %c: f32, %d: f32):
    %lt = arith.cmpf olt, %a, %b : f32
    iree_linalg_ext.yield %lt : i1
  } -> tensor<3xf32>, tensor<3xf32>
  return %s#0, %s#1 : tensor<3xf32>, tensor<3xf32>
}
"""


def test_a_sort_whose_comparator_orders_a_nan_is_undefined():
    keys, payload = np.array([2.0, 0.0, 1.0], np.float32), np.array([np.nan, 5.0, 6.0], np.float32)
    got = interpret(SORT, "f", [keys, payload])  # a NaN in the payload is only moved
    assert np.array_equal(got[0], [0.0, 1.0, 2.0]) and np.array_equal(got[1], [5.0, 6.0, np.nan], equal_nan=True)
    with pytest.raises(NotInterpretable, match="iree_linalg_ext.sort at line 3: its comparator orders a NaN"):
        interpret(SORT, "f", [np.array([2.0, np.nan, 1.0], np.float32), payload])


SCAN = """
func.func @main(%a: tensor<3x4xf32>) -> (tensor<3x4xf32>, tensor<3xf32>) {
  %e = tensor.empty() : tensor<3x4xf32>
  %c = arith.constant 0.5 : f32
  %e2 = tensor.empty() : tensor<3xf32>
  %z = linalg.fill ins(%c : f32) outs(%e2 : tensor<3xf32>) -> tensor<3xf32>
  %r:2 = iree_linalg_ext.scan dimension(1) inclusive(INCLUSIVE) ins(%a : tensor<3x4xf32>)
      outs(%e, %z : tensor<3x4xf32>, tensor<3xf32>) {
  ^bb0(%x: f32, %y: f32):
    %s = arith.addf %x, %y : f32
    iree_linalg_ext.yield %s : f32
  } -> tensor<3x4xf32>, tensor<3xf32>
  return %r#0, %r#1 : tensor<3x4xf32>, tensor<3xf32>
}
"""


def test_a_scan_is_a_running_combination_inclusive_or_from_the_accumulator():
    """As IREE 3.13 runs it (iree-run-module, generic CPU): inclusive, the cumulative sum and its last column;
    exclusive, 0.5 (the accumulator) then the sum of the elements before, the accumulator result the last output."""
    a = np.arange(12, dtype=np.float32).reshape(3, 4)
    out, last = interpret(SCAN.replace("INCLUSIVE", "true"), "main", [a])
    np.testing.assert_array_equal(out, np.cumsum(a, 1))
    np.testing.assert_array_equal(last, a.sum(1))
    out, last = interpret(SCAN.replace("INCLUSIVE", "false"), "main", [a])
    np.testing.assert_array_equal(out, np.concatenate([np.full((3, 1), 0.5), 0.5 + np.cumsum(a, 1)[:, :-1]], 1))
    np.testing.assert_array_equal(last, out[:, -1])
