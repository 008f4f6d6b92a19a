"""IREE's IR vocabulary has one home (``oracles.vocabulary``), and every reader of it agrees with it."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from ireefuzz.oracles import fusion, ir_text, memory, scratch, vocabulary
from ireefuzz.sut import dumps

ROOT = Path(__file__).resolve().parents[1]
# Words only IREE's own IR has (its interface ops, pass names, target attributes): they are spelled in the
# vocabulary alone. Upstream MLIR op names (tensor.pad, scf.for) are not IREE's: the generators and the
# interpreter spell those.
IREE_WORDS = (
    vocabulary.BINDING_OP,
    *vocabulary.TENSOR_LOADS,
    *vocabulary.TENSOR_STORES,
    vocabulary.FINAL_PASS,
    vocabulary.BUFFERIZED_PASS,
    vocabulary.STACK_LIMIT_ATTRIBUTE,
    vocabulary.EXECUTABLE_TARGET,
)


def literals_spelling(source: str, words: tuple[str, ...]) -> list[tuple[int, str]]:
    """(line, word) of each string literal of ``source`` (docstrings aside) that spells one of ``words``."""
    tree = ast.parse(source)
    docstrings = {
        id(node.body[0].value)
        for node in ast.walk(tree)
        if isinstance(node, (ast.Module, ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef))
        and ast.get_docstring(node, clean=False) is not None
    }
    return [
        (node.lineno, word)
        for node in ast.walk(tree)
        if isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in docstrings
        for word in words
        if word in node.value
    ]


def test_the_guard_sees_a_spelled_iree_word_and_ignores_docstrings():
    source = '"""Reads hal.interface.binding.subspan."""\nBINDING = "hal.interface.binding.subspan"\n'
    assert literals_spelling(source, IREE_WORDS) == [(2, vocabulary.BINDING_OP)]


def test_no_module_spells_irees_ir_words_outside_the_vocabulary():
    spelled = {
        str(path.relative_to(ROOT)): found
        for folder in ("ireefuzz", "oracles", "generators")
        for path in sorted((ROOT / folder).rglob("*.py"))
        if path.name != "vocabulary.py" and (found := literals_spelling(path.read_text(), IREE_WORDS))
    }
    assert spelled == {}, f"spell these through ireefuzz.oracles.vocabulary: {spelled}"


def test_the_judges_read_the_vocabularys_tables():
    assert memory.DATA_MOVEMENT_OPS == frozenset(vocabulary.DATA_MOVEMENT_OPS)
    assert memory.VIEW_OPS == frozenset(vocabulary.VIEW_OPS)
    assert memory.LOOP_OPS == frozenset(vocabulary.LOOP_OPS)
    assert memory.BINDING_OPS == {vocabulary.BINDING_OP}
    assert scratch.IN_PLACE_OPS == frozenset(vocabulary.IN_PLACE_OPS)
    assert scratch.DEFAULT_STACK_LIMIT == vocabulary.DEFAULT_STACK_LIMIT
    assert fusion._TENSOR_LOADS == frozenset(vocabulary.TENSOR_LOADS)
    assert dumps.OBSERVATION_PASSES == vocabulary.OBSERVATION_PASSES


_T = "!iree_tensor_ext.dispatch.tensor<writeonly:tensor<4xf32>>"
_PRODUCER = """func.func @d_dispatch_0_fill() {{
  %c0 = arith.constant 0 : index
  %cst = arith.constant 0.0 : f32
  %0 = hal.interface.binding.subspan layout(#layout) binding(0) : {t}
  %1 = tensor.empty() : tensor<4xf32>
  %2 = linalg.fill ins(%cst : f32) outs(%1 : tensor<4xf32>) -> tensor<4xf32>
  {store} %2, %0, offsets = [0], sizes = [4], strides = [1] : tensor<4xf32> -> {t}
  return
}}
"""


@pytest.mark.parametrize("store", vocabulary.TENSOR_STORES)
def test_the_text_reader_reads_every_spelling_of_a_renamed_op(store):
    """A release's rename (``RENAMES``) does not blind the text reader: both spellings of the store are read."""
    assert ir_text.materializing(_PRODUCER.format(store=store, t=_T)) is not None


def test_a_word_without_a_rename_has_one_spelling():
    assert vocabulary.spellings("linalg.fill") == ("linalg.fill",)
    assert set(vocabulary.spellings("flow.dispatch.tensor.load")) == {
        "flow.dispatch.tensor.load",
        "iree_tensor_ext.dispatch.tensor.load",
    }
