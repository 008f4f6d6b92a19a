"""Emitted programs parse with the MLIR Python bindings shipped in IREE, within the old-release syntax."""

import re

from hypothesis import HealthCheck, given, settings

from ireefuzz.generators.emit import Syntax, emit, emit_module
from ireefuzz.generators.strategies import graphs
from tests.test_graph import fme_graph

OLD_RELEASE = Syntax(maximumf=False, linalg_ext_gather=False)


def parse(text: str):
    from iree.compiler import ir

    ctx = ir.Context()
    return ir.Module.parse(text, ctx)


@settings(max_examples=150, suppress_health_check=list(HealthCheck), deadline=None, database=None)
@given(graphs())
def test_emitted_programs_parse_and_verify(graph):
    module = parse(emit(graph, "g").text)
    assert module.operation.verify()
    funcs = [op for op in module.body.operations if op.operation.name == "func.func"]
    assert len(funcs) == 1


def test_symbolic_dims_become_question_marks_and_named_op_forms():
    text = emit(fme_graph()).text
    assert "func.func @main(%arg0: tensor<?x16xf32>, %arg1: tensor<16x?xf32>) -> tensor<?x?xf32>" in text
    assert "linalg.fill ins(" in text and "linalg.matmul ins(" in text and "tensor.empty(" in text
    empties = re.findall(r"(%\w+) = tensor.empty", text)
    assert len(empties) == 1 and f"outs({empties[0]} :" in text.split("linalg.matmul")[1]  # init shared by fill and exp


def test_several_graphs_share_a_module():
    program = emit_module({"a": fme_graph(), "b": fme_graph()})
    assert program.functions == ("a", "b")
    assert parse(program.text).operation.verify()


@settings(max_examples=60, suppress_health_check=list(HealthCheck), deadline=None, database=None)
@given(graphs(syntax=OLD_RELEASE))
def test_old_release_syntax_avoids_newer_ops(graph):
    text = emit(graph, syntax=OLD_RELEASE).text
    assert "maximumf" not in text and "minimumf" not in text and "iree_linalg_ext" not in text
