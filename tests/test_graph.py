"""Graph model: JSON round-trip, well-formedness, and the op registry in step with the references."""

import json

import pytest
from hypothesis import HealthCheck, given, settings

from ireefuzz.generators.case import Case
from ireefuzz.generators.graph import Graph, GraphError, Node, TensorType
from ireefuzz.generators.ops import OPS
from ireefuzz.generators.strategies import cases, graphs
from ireefuzz.oracles.reference import ERROR_BOUND, REFERENCE

FAST = settings(max_examples=150, suppress_health_check=list(HealthCheck), deadline=None, database=None)


def fme_graph() -> Graph:
    return Graph(
        args=(TensorType(("M", 16), "f32"), TensorType((16, "N"), "f32")),
        nodes=(
            Node("fill", (), {"shape": ["M", "N"], "dtype": "f32", "value": 0.0}, TensorType(("M", "N"), "f32")),
            Node("matmul", ("a0", "a1", "n0"), {}, TensorType(("M", "N"), "f32")),
            Node("exp", ("n1",), {"init": "init-of:n0"}, TensorType(("M", "N"), "f32")),
        ),
        outputs=("n2",),
    ).check()


def test_registry_and_reference_tables_mirror_each_other():
    assert sorted(OPS) == sorted(REFERENCE) == sorted(ERROR_BOUND)


@FAST
@given(graphs())
def test_graph_json_round_trip(graph):
    text = graph.dumps()
    again = Graph.from_json(json.loads(text))
    assert again == graph
    assert again.dumps() == text


@FAST
@given(cases())
def test_case_json_round_trip_and_inputs_are_deterministic(case):
    again = Case.from_json(json.loads(case.dumps()))
    assert again == case
    for k in range(len(case.instances)):
        for x, y, t in zip(case.inputs(k), again.inputs(k), case.graph.args):
            assert x.shape == t.concrete(case.instances[k])
            assert x.tobytes() == y.tobytes()


def test_well_formed_graph_passes_check():
    assert fme_graph().op_pattern == "fill>matmul>exp"
    assert fme_graph().symbols == ("M", "N")


@pytest.mark.parametrize(
    "mutate, message",
    [
        (lambda d: d["nodes"][1].update(inputs=["a0", "a1", "n5"]), "not an argument or an earlier node"),
        (lambda d: d["nodes"][1].update(op="nope"), "unknown op"),
        (lambda d: d["nodes"][1]["type"].update(shape=["M", 3]), "result type"),
        (lambda d: d["args"][1].update(shape=[15, "N"]), "ill-typed"),
        (lambda d: d["nodes"][2]["attrs"].update(init="init-of:n1"), "init-of"),
        (lambda d: d["nodes"][2]["attrs"].update(init="bogus"), "bad init"),
        (lambda d: d.update(outputs=[]), "no outputs"),
        (
            lambda d: d["nodes"][0].update(
                attrs={"shape": ["Z", "N"], "dtype": "f32", "value": 0.0}, type={"shape": ["Z", "N"], "dtype": "f32"}
            ),
            "appear in no argument",
        ),
        (lambda d: d.pop("nodes"), "missing"),
        (lambda d: d["args"][0].update(shape=[-1, 16]), "bad dim"),
    ],
)
def test_malformed_graph_json_gets_one_clear_error(mutate, message):
    data = fme_graph().to_json()
    mutate(data)
    with pytest.raises(GraphError, match=message):
        Graph.from_json(data)


def test_case_rejects_instances_missing_a_symbol():
    with pytest.raises(GraphError, match="exactly the symbols"):
        Case(fme_graph(), ({"M": 3},)).check()
