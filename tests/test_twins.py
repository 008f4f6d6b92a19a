"""The twin experiment (experiments/twins.py): two identical ops CSE merges, the later told apart by an attribute.

Round 40's host campaign (seed 44719) called two sorts of two identical iotas a new wrong value; it is
iree-org/iree#23665's mechanism (CSE merges the two iota dispatches, both sorts write one buffer in place)."""

from __future__ import annotations

import argparse
import contextlib
import io
import json
from pathlib import Path

import pytest

from ireefuzz.tools.filing import experiments as X
from ireefuzz.tools.filing.experiments import running, twins

TWO_SORTS = Path(__file__).parent / "data" / "ir" / "inputs" / "two_sorts_of_twin_iotas.mlir"
THREE_SORTS = TWO_SORTS.with_name("three_sorts_of_twin_iotas.mlir")

NO_TWINS = """#map = affine_map<(d0) -> (d0)>
func.func @main(%arg0: tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>) {
  %e = tensor.empty() : tensor<4xf32>
  %a = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel"]}
      ins(%arg0 : tensor<4xf32>) outs(%e : tensor<4xf32>) {
  ^bb0(%x: f32, %o: f32):
    %y = arith.negf %x : f32
    linalg.yield %y : f32
  } -> tensor<4xf32>
  %b = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel"]}
      ins(%arg0 : tensor<4xf32>) outs(%e : tensor<4xf32>) {
  ^bb0(%x: f32, %o: f32):
    %y = math.absf %x : f32
    linalg.yield %y : f32
  } -> tensor<4xf32>
  return %a, %b : tensor<4xf32>, tensor<4xf32>
}
"""


def test_the_second_iota_is_the_only_twin_of_the_two_sorts():
    """The iotas repeat (their tensor.empty twins too, which are not experiments); the two copies before the
    sorts read different values, so they are no twins."""
    assert twins.twin_sites(TWO_SORTS.read_text(), "main") == [(8, "linalg.generic")]


def test_ops_that_differ_in_their_body_or_their_operands_are_no_twins():
    assert twins.twin_sites(NO_TWINS, "main") == []
    same_body = NO_TWINS.replace("math.absf %x", "arith.negf %x")
    assert twins.twin_sites(same_body, "main") == [(2, "linalg.generic")]
    other_operand = same_body.replace("%arg0: tensor<4xf32>)", "%arg0: tensor<4xf32>, %arg1: tensor<4xf32>)", 1)
    other_operand = other_operand.replace("ins(%arg0", "ins(%arg1").replace("ins(%arg1", "ins(%arg0", 1)
    assert twins.twin_sites(other_operand, "main") == []


def test_told_apart_adds_the_attribute_to_that_op_alone():
    text = twins.told_apart(TWO_SORTS.read_text(), "main", [8])
    assert text is not None
    marked = [line for line in text.splitlines() if twins.TWIN_ATTRIBUTE in line]
    assert len(marked) == 1 and "linalg.generic" in marked[0]
    assert twins.twin_sites(text, "main") == []


def test_three_twins_are_one_group_and_are_told_apart_from_each_other():
    """Three iotas: one group whose two later ops each get their own value. Told apart one at a time, the two left
    are still twins; told apart with one value, the two marked ones are twins of each other."""
    text = THREE_SORTS.read_text()
    assert twins.twin_groups(text, "main") == [("linalg.generic", [8, 13])]
    for one in ([8], [13]):
        assert twins.twin_sites(twins.told_apart(text, "main", one) or "", "main") != []
    both = twins.told_apart(text, "main", [8, 13])
    assert both is not None and twins.twin_sites(both, "main") == []
    values = [
        line.split(twins.TWIN_ATTRIBUTE + " = ")[1][:1] for line in both.splitlines() if twins.TWIN_ATTRIBUTE in line
    ]
    assert sorted(values) == ["1", "2"]
    (experiment,) = twins.twin_experiments(_program(THREE_SORTS))
    assert experiment.label == "generic#8.twin=distinct" and "#8, #13" in experiment.change


@pytest.mark.iree
@pytest.mark.parametrize("with_twins", [True, False])
def test_two_sorts_of_twin_iotas_are_23665s_duplicate_by_the_twin_experiment(monkeypatch, with_twins):
    """Against the real compiler: the later iota told apart makes the values right, which is #23665's recorded
    cure; without the experiment the same program is called new (what the round-40 campaign said)."""
    from ireefuzz.tools import check

    if not with_twins:
        monkeypatch.setattr(running, "twin_experiments", lambda case: iter(()))
    parser = argparse.ArgumentParser()
    check.configure(parser)
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        check.main(parser.parse_args([str(TWO_SORTS), "--shapes", "32,16", "--json"]), X.for_check)
    causes = json.loads(out.getvalue())["causes"]
    (cause,) = [c for c in causes if c["cause"].startswith("numeric/wrong-value/sort")]
    verdict = cause["record"]["verdict"]
    if with_twins:
        rows = {r["label"]: r["outcome"] for r in cause["record"]["rows"]}
        assert rows["generic#8.twin=distinct"] == "clean"
        assert verdict["verdict"] == "duplicate-of" and verdict["of"] == "numeric/wrong-value/iota>generic>sort"
    else:
        assert verdict["verdict"] == "new"


def _program(path: Path):
    from ireefuzz.core.frontends import program_cases

    (program,) = program_cases(path.read_text(), functions=["main"], shapes=None, seed=0)
    return program


def _check(path: Path, shapes: str) -> dict:
    from ireefuzz.tools import check

    parser = argparse.ArgumentParser()
    check.configure(parser)
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        check.main(parser.parse_args([str(path), "--shapes", shapes, "--json"]), X.for_check)
    return json.loads(out.getvalue())


@pytest.mark.iree
@pytest.mark.parametrize("together", [True, False])
def test_three_sorts_of_twin_iotas_need_every_twin_told_apart(monkeypatch, together):
    """Against the real compiler (stop 41's false 'new'): the two later iotas told apart from the first and from
    each other make the values right, so the cause is #23665's duplicate; told apart one at a time (the round-40
    experiment) the two left merged still share a buffer, and the same program is called new."""
    if not together:
        groups = twins.twin_groups
        monkeypatch.setattr(
            twins, "twin_groups", lambda text, f: [(name, [i]) for name, later in groups(text, f) for i in later]
        )
    causes = _check(THREE_SORTS, "32,32,32")["causes"]
    (cause,) = [c for c in causes if c["cause"].startswith("numeric/wrong-value/")]
    verdict = cause["record"]["verdict"]
    if together:
        assert verdict["verdict"] == "duplicate-of" and verdict["of"] == "numeric/wrong-value/iota>generic>sort"
    else:
        assert verdict["verdict"] == "new"
