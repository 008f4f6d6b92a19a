"""The shift op: a tensor updated with a slice of itself (a sliding-window cache, ``cache.at[1:].set(cache[:-1])``).
One SSA value is both the slice's source and the insert's destination: IREE 3.13 copies the overlapping ranges in
one dispatch (wrong values, static) or one HAL copy (a runtime error, dynamic), found by the update-forms spike."""

from __future__ import annotations

import numpy as np
import pytest

from ireefuzz.generators.builder import GraphBuilder
from ireefuzz.generators.case import Case
from ireefuzz.generators.emit import emit
from ireefuzz.generators.ops import shift_array


def _shifted(shape, by, backward):
    b = GraphBuilder()
    x = b.arg(shape, "f32")
    b.output(b.shift(b.exp(x), by=by, backward=backward))
    return b.build()


def test_the_semantics_move_a_slice_and_keep_the_rest():
    x = np.array([1.0, 2.0, 3.0, 4.0])
    assert shift_array(x, [1], backward=True).tolist() == [1.0, 1.0, 2.0, 3.0]
    assert shift_array(x, [1], backward=False).tolist() == [2.0, 3.0, 4.0, 4.0]
    assert shift_array(x, [9], backward=True).tolist() == x.tolist()  # past the size: nothing moves
    assert x.tolist() == [1.0, 2.0, 3.0, 4.0]  # a new array


def test_jax_and_numpy_agree():
    import jax.numpy as jnp

    x = np.arange(12.0).reshape(3, 4)
    for backward in (True, False):
        np.testing.assert_array_equal(
            np.asarray(shift_array(jnp.asarray(x), [1, 2], backward)), shift_array(x, [1, 2], backward)
        )


def test_one_value_is_the_source_and_the_destination():
    text = emit(_shifted((17, 33), [1, 1], True)).text
    assert "tensor.extract_slice %n0[0, 0] [16, 32] [1, 1]" in text
    assert "into %n0[1, 1] [16, 32] [1, 1]" in text
    dynamic = emit(_shifted(("N", 5), [3, 0], False)).text
    assert "arith.minui" in dynamic  # a shift past a symbolic size moves nothing


def test_a_shift_past_a_static_dim_is_refused():
    with pytest.raises(ValueError):
        _shifted((2, 3), [3, 0], True)
    with pytest.raises(ValueError):
        _shifted((2, 3), [0, 0], True)


@pytest.mark.iree
def test_a_forward_static_shift_is_right_and_the_overlapping_ones_are_caught():
    """The clean form passes; the backward static shift's wrong values and the dynamic shift's overlapping copy
    are caught (IREE 3.13)."""
    from ireefuzz.core.evaluate import evaluate

    clean, wrong, dynamic = evaluate(
        [
            Case(_shifted((17, 33), [1, 1], False), ({},), seed=3),
            Case(_shifted((17, 33), [1, 1], True), ({},), seed=3),
            Case(_shifted(("N",), [1], True), ({"N": 8},), seed=3),
        ]
    )
    assert clean.findings == ()
    assert [f.signature for f in wrong.findings] == ["numeric/wrong-value/exp>shift/f32/SxS"]
    assert [f.kind for f in dynamic.findings] == ["runtime-fault"]
    assert "overlap" in dynamic.findings[0].message
