"""Programs IREE's frontends produce: the attention score region is f32 whatever the inputs (as Torch and
StableHLO lowering and IREE's own tests type it), and forms no frontend produces are labelled on the
findings they reach, so the ranking puts them after the rest."""

from __future__ import annotations

import pytest

from ireefuzz.core.evaluate import case_json
from ireefuzz.generators.builder import GraphBuilder
from ireefuzz.generators.case import Case
from ireefuzz.generators.emit import emit
from ireefuzz.generators.frontend_forms import beyond_frontends


def attention(dtype: str):
    b = GraphBuilder()
    q, k, v = (b.arg((2, "S", 24), dtype) for _ in range(3))
    b.output(b.attention(q, k, v, scale=0.125, causal=True, form="linalg_ext"))
    return b.build()


@pytest.mark.parametrize("dtype", ["f16", "f32"])
def test_the_attention_score_region_is_f32_for_every_input_type(dtype):
    text = emit(attention(dtype), "main").text
    assert "^bb0(%score0: f32):" in text and "iree_linalg_ext.yield %score0 : f32" in text


def reduction_into(destination: str):
    b = GraphBuilder()
    x, out = b.arg(("M", 16), "f32"), b.arg(("M",), "f32")
    init = out if destination == "argument" else b.fill(("M",), 0.0)
    b.output(b.reduce_sum(x, dim=1, init=init))
    return b.build()


def test_an_argument_as_a_destination_is_beyond_the_frontends_and_a_fresh_fill_is_not():
    assert beyond_frontends(reduction_into("argument")) == ("a function argument as a DPS destination (outs / acc)",)
    assert beyond_frontends(reduction_into("fill")) == ()
    assert beyond_frontends(attention("f16")) == ()


def test_a_findings_case_record_carries_the_label_only_when_a_rule_is_broken():
    labelled = case_json(Case(reduction_into("argument"), ({"M": 3},)))
    assert labelled["beyond_frontends"] == ["a function argument as a DPS destination (outs / acc)"]
    assert "beyond_frontends" not in case_json(Case(reduction_into("fill"), ({"M": 3},)))
    assert Case.from_json(labelled).graph == reduction_into("argument")  # the record still loads as the case


@pytest.mark.iree
def test_f16_attention_compiles_with_the_frontends_region_type():
    from ireefuzz import sut

    artifact = sut.compile_mlir(emit(attention("f16"), "main").text, sut.CompilerConfig())
    assert not isinstance(artifact, sut.CompileFailure), artifact.diagnostic[:400]


def test_graphs_asked_for_frontend_forms_only_never_break_a_rule():
    from hypothesis import HealthCheck, Phase, given, seed, settings

    from ireefuzz.generators.strategies import graphs

    def drawn(frontend_forms_only: bool) -> list:
        out: list = []

        @seed(7)
        @settings(
            max_examples=150,
            database=None,
            deadline=None,
            phases=(Phase.generate,),
            suppress_health_check=list(HealthCheck),
        )
        @given(graphs(op_salt="forms", frontend_forms_only=frontend_forms_only))
        def run(graph) -> None:
            out.append(graph)

        run()
        return out

    assert sum(bool(beyond_frontends(g)) for g in drawn(False)) > 30  # an argument as init, as acc, as a fill's outs
    assert not any(beyond_frontends(g) for g in drawn(True))
