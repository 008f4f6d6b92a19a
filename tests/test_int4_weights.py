"""Int4 weight-only quantization: a dequantizing matmul whose weights are int4, two a byte (K x N/2 i8, the low nibble
first), bitcast by flow.tensor.bitcast as LLM weight-only flows pass them. The narrow-types spike found IREE 3.13
fails to compile an int4 load whose static inner size is not a multiple of the vector width (vector.maskedload,
"failed to emulate bit width")."""

from __future__ import annotations

import numpy as np
import pytest

from ireefuzz.generators.builder import GraphBuilder
from ireefuzz.generators.case import Case
from ireefuzz.generators.emit import emit
from ireefuzz.generators.ops import unpack_int4


def _int4_matmul(n: int, k=5, fused=True):
    b = GraphBuilder()
    x, w, s = b.arg((3, k), "f32"), b.arg((k, n // 2), "i8"), b.arg((n,), "f32")
    b.output(b.dequant_matmul(x, w, s, b.fill((3, n), 0.0), group=0, fused=fused, bits=4))
    return b.build()


def test_a_byte_holds_two_int4_values_the_low_nibble_first():
    packed = np.array([[0x21, -1, 0x78, -128]], np.int8)  # 0x21: 1 then 2; 0xFF: -1, -1; 0x78: -8, 7; 0x80: 0, -8
    assert unpack_int4(np, packed).tolist() == [[1, 2, -1, -1, -8, 7, 0, -8]]


def test_the_weights_are_bitcast_and_converted_from_i4():
    text = emit(_int4_matmul(32)).text
    assert "flow.tensor.bitcast %arg1 : tensor<5x16xi8> -> tensor<5x32xi4>" in text
    assert "arith.sitofp %b5 : i4 to f32" in text
    dynamic = emit(_int4_matmul(32, k="K")).text
    assert "tensor<?x16xi8>{%dim_K} -> tensor<?x32xi4>{%dim_K}" in dynamic


def test_odd_columns_do_not_fit_a_byte():
    b = GraphBuilder()
    x, w, s = b.arg((3, 5), "f32"), b.arg((5, 9), "i8"), b.arg((17,), "f32")
    with pytest.raises(ValueError):
        b.dequant_matmul(x, w, s, b.fill((3, 17), 0.0), group=0, fused=True, bits=4)


def test_releases_before_flow_tensor_bitcast_are_not_given_int4():
    from ireefuzz.sut.releases import syntax_for

    assert not syntax_for("20230815.614").int4_bitcast and syntax_for("20231113.707").int4_bitcast


@pytest.mark.iree
def test_int4_weights_compute_right_and_the_remainder_load_is_caught():
    from ireefuzz.core.evaluate import evaluate

    clean, remainder = evaluate([Case(_int4_matmul(32), ({},), seed=5), Case(_int4_matmul(18, fused=False), ({},))])
    assert clean.findings == ()
    assert [f.kind for f in remainder.findings] == ["compile-error"]
    assert "vector.maskedload" in remainder.findings[0].evidence["diagnostic"]


def test_the_interpreter_reads_the_bitcast_as_the_reference_does():
    """The MLIR interpreter (``oracles.interpret``) splits the bytes into int4 values the same way: the property test
    that keeps it in step with the reference drew an int4 matmul it could not interpret."""
    from tests.test_interpret import disagreements

    for fused in (True, False):
        assert disagreements(Case(_int4_matmul(18, k="K", fused=fused), ({"K": 3}, {"K": 1}), seed=2)) == []
