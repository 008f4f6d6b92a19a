"""Issue 30's acceptance, by a real ``check`` (``iree``): each cause the triage found to be a known one under a new
name, reduced to a raw program (``tests/data/triage/``), gets the cause id of its known twin, and both are
judged known (or a duplicate of it), not new. The fill-sum over a splat without arguments is the known fill-sum;
the pooling unit-output miscompile is another known cause."""

from __future__ import annotations

import argparse
import json
from pathlib import Path

import pytest

from ireefuzz.tools import check
from ireefuzz.tools.filing import experiments

DATA = Path(__file__).parent / "data" / "triage"
ALLOCA = "memory/alloca/contraction@ConvTileAndDecomposeExpert"
FOLD = (
    "crash/compile-error/linalg.generic-op-inferred-operand-has-shape-s-dimension-to-be-but-found@fold-unit-extent-dims"
)
WRITE = (
    "crash/compile-error/write-affecting-operations-on-global-resources-are-restricted-to-workgroup-distributed-"
    "contexts@iree-codegen-verify-workgroup-distribution"
)
FILL_SUM, POOLING = "numeric/wrong-value/fill>reduce_sum", "numeric/wrong-value/pooling_nhwc_max"


def checked(name: str, capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, dict]:
    """``ireefuzz check DATA/name.mlir --json`` as the command runs it (its experimenter ``for_check``)."""
    parser = argparse.ArgumentParser()
    check.configure(parser)
    status = check.main(parser.parse_args([str(DATA / f"{name}.mlir"), "--json", *argv]), experiments.for_check)
    return status, json.loads(capsys.readouterr().out)


def reported(report: dict) -> set[str]:
    return {c["reported"] for c in report["causes"]}


PAIRS = [
    pytest.param("conv_splat_generic_into_empty", "conv_splat_generic_alloca_known", ALLOCA, id="1-conv-copies"),
    pytest.param("conv_splat_generic_into_argument", "conv_splat_generic_alloca_known", ALLOCA, id="2-copies-argument"),
    pytest.param("conv_unit_output_dynamic_batch", "conv_unit_output_static_batch", FOLD, id="3-dynamic-batch"),
    pytest.param("softmax_1d_dynamic_outs_argument", "softmax_2d_dynamic_outs_argument", WRITE, id="4-softmax-1d"),
    pytest.param("fill_row_sum_no_arguments", "fill_sum_known", FILL_SUM, id="fill-sum"),
    pytest.param("pooling_unit_output_reduced", "pooling_unit_output_known", POOLING, id="pooling"),
]


@pytest.mark.iree
@pytest.mark.parametrize("reduced, twin, known", PAIRS)
def test_a_reduced_cause_and_its_known_twin_get_the_same_cause_id(reduced, twin, known, capsys):
    status, mine = checked(reduced, capsys)
    twin_status, theirs = checked(twin, capsys)
    assert reported(mine) == reported(theirs) == {known}
    assert status == twin_status == 1  # a finding; that it is no new cause is in the verdicts below
    assert all(c["verdict"] in ("known", "duplicate-of") for c in mine["causes"] + theirs["causes"])


@pytest.mark.iree
@pytest.mark.parametrize(
    "reduced, by",
    [("conv_unit_output_dynamic_batch", "static"), ("softmax_1d_dynamic_outs_argument", "rank+1")],
)
def test_a_candidate_is_a_duplicate_by_the_ir_level_experiment_that_lands_in_the_known_cause(reduced, by, capsys):
    """Causes (3) and (4) are named otherwise as found; the static-dims and the rank variant, at IR level, land them
    in their known causes, and the report shows the table that says so."""
    _, report = checked(reduced, capsys)
    (cause,) = report["causes"]
    assert cause["verdict"] == "duplicate-of" and cause["cause"] != cause["reported"]
    verdict = cause["record"]["verdict"]
    assert (verdict["of"], verdict["by"]) == (cause["reported"], by)
    rows = {r["label"]: r["outcome"] for r in cause["record"]["rows"]}
    assert rows["as-given"] == "same" and rows[by] == f"known:{cause['reported']}"
    assert "### Experiments" in cause["section"] and any(line.startswith(f"| `{by}` |") for line in cause["section"])


@pytest.mark.iree
def test_without_experiments_a_candidate_is_new_and_fails_the_check(capsys):
    status, report = checked("conv_unit_output_dynamic_batch", capsys, "--experiments", "0")
    (cause,) = report["causes"]
    assert (status, cause["verdict"], cause["reported"]) == (1, "new", cause["cause"]) and cause["cause"] != FOLD
