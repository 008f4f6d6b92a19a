"""Input-immutability oracle: a mutated caller buffer is caught; untouched buffers pass."""

import numpy as np

from ireefuzz.generators.graph import Graph, Node, TensorType
from ireefuzz.oracles.immutability import check_inputs_unchanged

T = TensorType((64,), "i32")
REDUCE_INTO_ARG = Graph(
    (TensorType((64, 64), "i32"), T), (Node("reduce_sum", ("a0",), {"dim": 1, "init": "value:a1"}, T),), ("n0",)
).check()


def test_untouched_inputs_pass():
    xs = [np.ones((64, 64), np.int32), np.arange(64, dtype=np.int32)]
    assert check_inputs_unchanged(REDUCE_INTO_ARG, xs, [x.copy() for x in xs]) == []


def test_mutated_buffer_is_caught_and_names_the_op_writing_into_it():
    xs = [np.ones((64, 64), np.int32), np.arange(64, dtype=np.int32)]
    after = [xs[0].copy(), xs[1].copy()]
    after[1][10] = 7
    (finding,) = check_inputs_unchanged(REDUCE_INTO_ARG, xs, after)
    assert finding.signature == "immutability/input-mutated/reduce_sum[outs]/i32/S"
    assert finding.evidence["argument"] == 1 and finding.evidence["first_index"] == [10]
    assert finding.evidence["changed_elements"] == 1 and finding.evidence["after"] == 7


def test_nan_payload_and_negative_zero_count_but_nan_equals_nan():
    t = TensorType((3,), "f32")
    g = Graph((t,), (Node("exp", ("a0",), {}, t),), ("n0",)).check()
    x = np.array([np.nan, 0.0, 1.0], np.float32)
    assert check_inputs_unchanged(g, [x], [x.copy()]) == []
    signed = x.copy()
    signed[1] = -0.0
    (finding,) = check_inputs_unchanged(g, [x], [signed])
    assert finding.evidence["first_index"] == [1] and finding.signature == "immutability/input-mutated/exp/f32/S"


def test_scalar_and_shape_change():
    t = TensorType((), "f32")
    g = Graph((t,), (Node("exp", ("a0",), {}, t),), ("n0",)).check()
    x = np.asarray(np.float32(2.0))
    assert check_inputs_unchanged(g, [x], [np.asarray(np.float32(3.0))])[0].evidence["changed_elements"] == 1
    assert "before_shape" in check_inputs_unchanged(g, [x], [np.zeros(1, np.float32)])[0].evidence
