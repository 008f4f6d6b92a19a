"""The producer experiment (issues 30 and 32): a splat value an op reads as an input (a ``linalg.fill``, a splat
``arith.constant`` or ``linalg.generic``) read from a new function argument instead, or its value read in the
consumer's body over that argument; the trigger and the title say what it measured, not that the fill is needed."""

from __future__ import annotations

import argparse
import contextlib
import dataclasses
import io
import json
from pathlib import Path

import numpy as np
import pytest

from ireefuzz.tools.filing import experiments as X
from ireefuzz.tools.filing import report
from ireefuzz.tools.filing.experiments import running

REPRO = Path(__file__).parent.parent / "docs" / "repros" / "fill_then_sum_wrong_value.mlir"

SMALL = """#map = affine_map<(d0) -> (d0)>
func.func @main(%arg0: tensor<4xf32>) -> tensor<4xf32> {
  %c = arith.constant dense<1.500000e+00> : tensor<4xf32>
  %v = arith.constant 3.000000e+00 : f32
  %e = tensor.empty() : tensor<4xf32>
  %g = linalg.generic {indexing_maps = [#map], iterator_types = ["parallel"]} outs(%e : tensor<4xf32>) {
  ^bb0(%out: f32):
    linalg.yield %v : f32
  } -> tensor<4xf32>
  %r = linalg.generic {indexing_maps = [#map, #map, #map, #map], iterator_types = ["parallel"]}
      ins(%arg0, %c, %g : tensor<4xf32>, tensor<4xf32>, tensor<4xf32>) outs(%e : tensor<4xf32>) {
  ^bb0(%a: f32, %b: f32, %d: f32, %out: f32):
    %s = arith.addf %a, %b : f32
    %t = arith.mulf %s, %d : f32
    linalg.yield %t : f32
  } -> tensor<4xf32>
  return %r : tensor<4xf32>
}
"""


def test_each_splat_input_becomes_an_argument_or_a_constant_in_the_consumers_body():
    """A splat constant and a splat generic read as inputs are sites (``%e``, read only as outs, is not); each one
    read from a new last argument of its type, its op gone; with ``into_body`` the consumer's body reads the splat
    in place of that input's element (a literal one as a scalar constant), the input still the argument."""
    sites = X.producer_sites(SMALL, "main")
    assert [(s.op, s.op_index, s.shape, s.splat, s.consumers) for s in sites] == [
        ("arith.constant", 0, (4,), 1.5, ((4, 1),)),
        ("linalg.generic", 3, (4,), 3.0, ((4, 2),)),
    ]
    constant, generic = sites
    made = X.with_producer_as_argument(SMALL, constant)
    assert made is not None and "dense<1.5" not in made
    assert "func.func @main(%arg0: tensor<4xf32>, %producer_of_cst: tensor<4xf32>)" in made
    assert "ins(%arg0, %producer_of_cst, %1 :" in made
    folded = X.with_producer_as_argument(SMALL, constant, into_body=True)
    assert folded is not None and "%xf_splat0 = arith.constant 1.500000e+00 : f32" in folded
    assert "arith.addf %in, %xf_splat0 : f32" in folded and "ins(%arg0, %producer_of_cst, %1 :" in folded
    made = X.with_producer_as_argument(SMALL, generic)
    assert made is not None and made.count("linalg.generic") == 1 and "%producer_of_1: tensor<4xf32>" in made
    folded = X.with_producer_as_argument(SMALL, generic, into_body=True)
    assert folded is not None and "arith.mulf %3, %cst_0 : f32" in folded
    fill = X.producer_sites(REPRO.read_text(), "main")
    assert [(s.op, s.scalar, s.splat) for s in fill] == [("linalg.fill", "%c2_i32", 2)]
    assert "%3 = arith.addi %out, %c2_i32 : i32" in X.with_producer_as_argument(  # type: ignore[operator]
        REPRO.read_text(), fill[0], into_body=True
    )


def test_the_splat_argument_gets_the_fills_value_and_the_random_one_the_drawn_inputs():
    from ireefuzz.core.frontends import program_cases

    (case,) = program_cases(REPRO.read_text(), functions=["main"], shapes=[])
    made = {e.label: e for e in X.program_producer_experiments(case)}
    assert list(made) == ["fill#2.producer=splat-argument", "fill#2.producer=argument", "fill#2.producer=body"]
    (splat,) = made["fill#2.producer=splat-argument"].case.inputs()
    assert splat.dtype == np.int32 and splat.tolist() == [2, 2]
    assert made["fill#2.producer=argument"].case.given is None  # drawn from the seed
    assert all(e.drops_op for e in made.values())
    assert running._identity(made["fill#2.producer=splat-argument"].case) != running._identity(
        made["fill#2.producer=argument"].case
    )


def test_the_same_failure_without_the_producer_in_its_cone_counts_as_same():
    assert running._fewer_ops("numeric/wrong-value/reduce_sum", "numeric/wrong-value/fill>reduce_sum")
    assert not running._fewer_ops("numeric/wrong-value/fill>reduce_sum", "numeric/wrong-value/fill>reduce_sum")
    assert not running._fewer_ops("numeric/nan/reduce_sum", "numeric/wrong-value/fill>reduce_sum")
    assert not running._fewer_ops("numeric/wrong-value/add", "numeric/wrong-value/fill>reduce_sum")


def _rows(**outcomes: str) -> dict:
    change = "a function argument of its type in place of the `linalg.fill` %fill (its input the same splat, 2)"
    return {"rows": [{"label": f"fill#2.producer={k}", "change": change, "outcome": v} for k, v in outcomes.items()]}


def test_the_trigger_and_the_title_do_not_claim_a_producer_the_experiments_showed_unneeded():
    program = REPRO.read_text()
    given = report.subject_phrase(program, "main")
    assert given == "a `linalg.generic` sum of a `linalg.fill`"
    for rows, said in ((_rows(argument="clean", body="same"), "body"), (_rows(argument="same"), "unneeded")):
        assert report.producer_verdicts(rows) == {(2, "fill"): said}
        assert report.subject_phrase(program, "main", unneeded=[(2, "fill")]) == "a `linalg.generic` sum"
        assert report.subject_phrase(program, "main", unneeded=[(2, "generic")]) == given  # not that op
        trigger = " ".join(report._producer_lines(rows))
        assert "The `linalg.fill` %fill is not needed" in trigger
        needs = report.conditions(program, rows, function="main")
        assert ("a body that does not read its input" in needs) == (said == "body")
    assert report.producer_verdicts(_rows(argument="clean", body="clean")) == {(2, "fill"): "needed"}
    assert report._producer_lines(_rows(argument="clean", body="clean")) == []


@pytest.mark.iree
def test_the_fill_sum_repro_fails_the_same_way_with_the_fill_folded_into_the_body_over_an_argument(monkeypatch):
    """docs/repros/fill_then_sum_wrong_value.mlir against the real compiler: with an argument in place of the fill
    (its input the fill's splat, or random) the sum is right; with the fill's value in the body over that argument
    it returns the same wrong value: the fill is not the condition, a body that ignores its input is."""
    from ireefuzz.tools import check

    shipped = running._shipped_baseline()
    unknown = {k: v for k, v in shipped.causes.items() if "reduce_sum" not in k}
    monkeypatch.setattr(running, "_shipped_baseline", lambda: dataclasses.replace(shipped, causes=unknown))
    parser = argparse.ArgumentParser()
    check.configure(parser)
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        status = check.main(parser.parse_args([str(REPRO), "--json"]), X.for_check)
    (cause,) = json.loads(out.getvalue())["causes"]
    rows = {r["label"]: r["outcome"] for r in cause["record"]["rows"]}
    assert status == 1 and rows["as-given"] == "same"
    assert rows["fill#2.producer=splat-argument"] == "clean" and rows["fill#2.producer=argument"] == "clean"
    assert rows["fill#2.producer=body"] == "same"
    assert report.producer_verdicts(cause["record"]) == {(2, "fill"): "body"}
    trigger = "\n".join(report.trigger_lines(cause["record"]))
    assert "The `linalg.fill` %fill is not needed as such" in trigger
    splat = next(r for r in cause["record"]["rows"] if r["label"].endswith("splat-argument"))
    assert "its input the same splat, 2" in splat["change"]
