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


CUMSUM = {"dim": 0, "form": "window", "reverse": False}
OVERLAP = (
    "c/runtime/src/iree/hal/command_buffer_validation.c:511: INVALID_ARGUMENT; source and target ranges overlap within "
    "the same buffer; while invoking native function hal.command_buffer.copy_buffer; while calling import; "
)


def test_a_check_failed_at_load_is_the_cause_it_is_in_a_call():
    """x86-64-v3 58867: a static shift of an iota, const-evaluated into an initializer, fails the runtime's overlap
    check when the module loads; a dynamic one fails it in the call. One cause, not a bare ``crash/bad-output``."""
    from ireefuzz.oracles.cause import cause_of
    from ireefuzz.oracles.diagnostics import RUNTIME_REJECTS
    from ireefuzz.oracles.finding import Finding

    at_load = Finding(
        "crash",
        "bad-output",
        "crash/bad-output/-/f32/S",
        "m",
        {"diagnostic": f"{RUNTIME_REJECTS}Error creating vm context with modules: {OVERLAP}\n[ 0] bytecode module@1"},
    )
    in_call = Finding(
        "crash",
        "runtime-fault",
        "crash/runtime-fault/shift>cumsum[g-error-invoking-function-c-runtime]/i32/?",
        "m",
        {"message": f"g9: Error invoking function: {OVERLAP}\n[ 0] bytecode module@17:792 -"},
    )
    assert cause_of(at_load).id == cause_of(in_call).id
    assert cause_of(in_call).id.startswith("crash/runtime-fault/invalid_argument-source-and-target-ranges-overlap")
    other = Finding(
        "crash",
        "runtime-fault",
        "crash/runtime-fault/x/f32/S",
        "m",
        {"message": "f: Error invoking function: c/x.c:1: OUT_OF_RANGE; index 9 out of range"},
    )
    assert cause_of(other).id != cause_of(in_call).id


@pytest.mark.iree
def test_a_shift_const_evaluated_into_an_initializer_fails_at_load_as_the_call_does():
    from ireefuzz.core.evaluate import evaluate

    b = GraphBuilder()  # no argument: all of it is evaluated at load
    b.output(b.cumsum(b.shift(b.iota((3,), 0, "f32"), by=[1], backward=False), **CUMSUM))
    (result,) = evaluate([Case(b.build(), ({},), seed=1, target_cpu="x86-64-v3")])
    assert [(f.kind, f.cause) for f in result.findings] == [
        ("bad-output", "crash/runtime-fault/invalid_argument-source-and-target-ranges-overlap-within-the-same-buffer")
    ]


UPDATE_FLOW = """  util.func public @main(%arg0: !hal.buffer_view) -> !hal.buffer_view {
    %0 = hal.tensor.import %arg0 "input0" : !hal.buffer_view -> tensor<2xi32>
    %1 = flow.tensor.slice %0[%c0 for %c1] : tensor<2xi32> -> tensor<1xi32>
    %2 = flow.tensor.update %1, %0[%c1] : tensor<1xi32> -> %0 as tensor<2xi32>
    %3 = hal.tensor.export %2 "output0" : tensor<2xi32> -> !hal.buffer_view
"""


def test_an_update_into_an_imported_argument_is_a_tie_to_it():
    """Both stop 45 outsiders: an insert_slice into an argument is a flow.tensor.update tied to the imported buffer
    with no clone, #16168's missing copy-on-write; the tool had called it a read-only argument written (new), as no
    dispatch was tied."""
    from ireefuzz.oracles.immutability import UPDATE_TIE, tied_arguments

    assert tied_arguments(UPDATE_FLOW, "main") == {0: [UPDATE_TIE]}
    assert tied_arguments(UPDATE_FLOW.replace("%0[%c1]", "%9[%c1]"), "main") == {}  # into another tensor: no tie


@pytest.mark.iree
def test_a_shift_of_an_argument_is_the_known_missing_clone():
    from ireefuzz.core.evaluate import evaluate

    b = GraphBuilder()
    b.output(b.shift(b.arg((2,), "i32"), by=[1], backward=True))
    case = Case(b.build(), ({},), seed=38508, magnitude=9)
    first, second = case.inputs(0)[0].tolist()
    assert first != second  # the shift changes the argument
    (result,) = evaluate([case])
    assert [f.cause for f in result.findings] == ["immutability/dps-init-written-in-place"]
