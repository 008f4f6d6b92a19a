"""The model-pattern ops (generators/ops/models.py, docs/model-patterns.md): their frontend forms, reference rows
and interpreter coverage, and that the generator draws the chains they exist for."""

from __future__ import annotations

import warnings

import numpy as np
from hypothesis import HealthCheck, Phase, given, seed, settings

from ireefuzz.generators.case import Case
from ireefuzz.generators.emit import emit
from ireefuzz.generators.graph import Graph, Node, TensorType
from ireefuzz.generators.strategies import cases
from ireefuzz.oracles import reference
from ireefuzz.oracles.interpret import interpret

TABLE, MAP, IDX = (
    TensorType((5, 3), "f32"),
    TensorType((4,), "i32", index_bound=5),
    TensorType((6,), "i32", index_bound=4),
)
CHAIN = Graph(
    (TABLE, MAP, IDX),
    (
        Node("take", ("a1", "a2"), {}, TensorType((6,), "i32", index_bound=5)),
        Node("gather", ("a0", "n0"), {"form": "extract"}, TensorType((6, 3), "f32")),
    ),
    ("n1",),
)


def test_an_index_read_from_one_tensor_indexes_another():
    text = emit(CHAIN, "main").text
    assert text.count("tensor.extract") == 2 and text.count("arith.index_cast") == 2
    table = np.arange(15, dtype=np.float32).reshape(5, 3)
    index_map, idx = np.array([4, 0, 2, 1], np.int32), np.array([0, 3, 3, 1, 2, 0], np.int32)
    [out] = reference.evaluate(CHAIN, [table, index_map, idx], {}, "f64")
    np.testing.assert_array_equal(out, table[index_map[idx]])
    [interpreted] = interpret(text, "main", [table, index_map, idx])
    np.testing.assert_array_equal(interpreted, table[index_map[idx]])


def test_quantize_rounds_half_to_even_shifts_and_clamps_and_dequantize_undoes_the_scale():
    x = TensorType((5,), "f32")
    graph = Graph(
        (x,),
        (
            Node("quantize", ("a0",), {"scale": 0.5, "zero_point": 1, "qmin": -8, "qmax": 7}, TensorType((5,), "i8")),
            Node("dequantize", ("n0",), {"scale": 0.5, "zero_point": 1, "to": "f32"}, x),
        ),
        ("n0", "n1"),
    )
    text = emit(graph, "main").text
    for op in ("math.roundeven", "arith.fptosi", "arith.sitofp"):
        assert op in text
    values = np.array([-1.25, 0.75, 2.5, 100.0, -0.25], np.float32)  # /0.5: -2.5 1.5 5 200 -0.5
    for backend in ("f64", "jax"):
        q, back = reference.evaluate(graph, [values], {}, backend)
        np.testing.assert_array_equal(np.asarray(q), [-1, 3, 6, 7, 1])
        np.testing.assert_array_equal(np.asarray(back), [-1.0, 1.0, 2.5, 3.0, 0.0])
    q, back = interpret(text, "main", [values])
    np.testing.assert_array_equal(q, [-1, 3, 6, 7, 1])
    np.testing.assert_array_equal(back, [-1.0, 1.0, 2.5, 3.0, 0.0])


def test_a_causal_mask_keeps_the_positions_on_and_below_the_shifted_diagonal():
    x = TensorType((2, 3, 4), "f32")
    graph = Graph((x,), (Node("causal_mask", ("a0",), {"offset": 1, "fill": -64.0}, x),), ("n0",))
    assert "linalg.index 1" in emit(graph, "main").text and "arith.cmpi sle" in emit(graph, "main").text
    ones = np.ones((2, 3, 4), np.float32)
    [out] = reference.evaluate(graph, [ones], {}, "f64")
    keep = np.arange(4)[None, :] <= np.arange(3)[:, None] + 1
    np.testing.assert_array_equal(out, np.where(keep, 1.0, -64.0)[None].repeat(2, axis=0))
    [interpreted] = interpret(emit(graph, "main").text, "main", [ones])
    np.testing.assert_array_equal(interpreted, out)


def test_a_gather_of_an_experts_weights_is_rank_3():
    weights, ids = TensorType((4, 3, 2), "f32"), TensorType((5,), "i32", index_bound=4)
    graph = Graph(
        (weights, ids), (Node("gather", ("a0", "a1"), {"form": "extract"}, TensorType((5, 3, 2), "f32")),), ("n0",)
    )
    w, i = np.arange(24, dtype=np.float32).reshape(4, 3, 2), np.array([3, 0, 0, 2, 1], np.int32)
    [out] = reference.evaluate(graph, [w, i], {}, "f64")
    np.testing.assert_array_equal(out, w[i])
    assert "linalg.index 2" in emit(graph, "main").text
    [interpreted] = interpret(emit(graph, "main").text, "main", [w, i])
    np.testing.assert_array_equal(interpreted, w[i])


def test_the_generator_draws_the_patterns_together():
    """A gather of computed indices, a quantize with its dequantize, causal masks: drawn together in four Hypothesis
    runs of 300 examples. One run's counts vary with what else the session imported (Hypothesis draws constants from
    loaded modules) and with the family weights, so the four runs count together."""
    warnings.filterwarnings("ignore")
    producers = lambda c, n: {c.graph.nodes[int(r[1:])].op for r in n.inputs if r[0] == "n"}
    drawn: list[Case] = []
    for run_seed in (3, 4, 5, 6):

        @seed(run_seed)
        @settings(
            max_examples=300,
            database=None,
            deadline=None,
            suppress_health_check=list(HealthCheck),
            phases=(Phase.generate,),
        )
        @given(
            cases(ops=("take", "causal_mask", "quantize", "dequantize", "gather", "matmul", "add", "exp", "contract"))
        )
        def run(case: Case) -> None:
            drawn.append(case)

        run()
    chains = sum(n.op == "gather" and "take" in producers(c, n) for c in drawn for n in c.graph.nodes)
    quantized = sum({"quantize", "dequantize"} <= {n.op for n in c.graph.nodes} for c in drawn)
    masks = sum(n.op == "causal_mask" for c in drawn for n in c.graph.nodes)
    assert chains >= 1 and quantized >= 3 and masks >= 10, (chains, quantized, masks)
