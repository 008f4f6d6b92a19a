"""The wrong op alone (``filing.experiments.cut``): a numeric wrong value's last op at its operands' values, and the
campaign's reading of it (``records.duplicates``: two causes whose op fails alone are one mechanism)."""

from __future__ import annotations

import dataclasses
import json
from pathlib import Path

import numpy as np
import pytest

from ireefuzz.generators.builder import GraphBuilder
from ireefuzz.generators.case import Case
from ireefuzz.tools.filing.experiments import records
from ireefuzz.tools.filing.experiments.cut import alone, cut_experiments, repro_of
from ireefuzz.tools.filing.experiments.table import ExperimentTable, Outcome, Row, Verdict


def _masked_asinh() -> Case:
    """Round 41's first cause: asinh after a causal mask whose fill (-1e4 here) it cannot take."""
    b = GraphBuilder()
    b.output(b.op("asinh", b.op("causal_mask", b.arg(("M", 4)), offset=0, fill=-10000.0)))
    return Case(b.build(), ({"M": 3},), seed=41)


def test_the_op_alone_holds_its_operands_values_from_the_program():
    case = _masked_asinh()
    program = alone(case, 1)
    assert program is not None and "math.asinh" in program.program and "causal" not in program.program
    (given,) = program.given
    x = case.inputs(0)[0]
    rows, cols = np.indices(x.shape)
    np.testing.assert_array_equal(given, np.where(cols <= rows, x, np.float32(-10000.0)))  # the mask's values
    (experiment,) = cut_experiments(case, "numeric/wrong-value/causal_mask>asinh")
    assert experiment.label == "asinh#n1.alone" and experiment.drops_op


def test_the_op_alone_is_written_as_a_command_with_literal_inputs_and_in_the_experiments_section():
    program = alone(_masked_asinh(), 1)
    repro = repro_of(program, "x86-64-v3")
    assert "math.asinh" in repro["program"] and "causal" not in repro["program"]
    compile_line, run_line = repro["command"].splitlines()
    assert compile_line.startswith("iree-compile alone.mlir ") and "--iree-llvmcpu-target-cpu=x86-64-v3" in compile_line
    assert "--input='3x4xf32=" in run_line and "-10000.0" in run_line, run_line
    table = ExperimentTable("numeric/wrong-value/causal_mask>asinh", (), alone=repro)
    found = table.to_json() | {"verdict": Verdict("new", table.target).to_json()}
    section = "\n".join(records.section_lines(found))
    assert "**The op alone** fails the same way" in section and repro["command"] in section
    assert ExperimentTable.from_json(table.to_json()).alone == repro


def test_the_ops_feeding_the_last_one_are_tried_alone_too_latest_first():
    """Round 41's second host run: `abs` of a wrong `asinh` is right alone at its operand's values; the asinh feeding
    it, alone, is the known bug."""
    b = GraphBuilder()
    b.output(b.op("abs", b.op("asinh", b.op("scale", b.arg(("M",)), by=100.0))))
    case = Case(b.build(), ({"M": 8},), seed=3)
    labels = [e.label for e in cut_experiments(case, "numeric/wrong-value/scale>asinh>abs")]
    assert labels == ["abs#n2.alone", "asinh#n1.alone"]  # the scale reads an argument: nothing to cut before it


def _asinh_into_a_dead_atan() -> Case:
    """Round 41's `causal_mask>atan>asinh`: the asinh writes into the tensor of an atan nothing else reads."""
    b = GraphBuilder()
    mask = b.op("causal_mask", b.arg(("M", 4)), offset=0, fill=-10000.0)
    b.output(b.op("asinh", mask, init=b.op("atan", mask)))
    return Case(b.build(), ({"M": 3},), seed=41)


def test_an_op_that_does_not_read_its_destination_goes_alone_onto_a_fresh_one():
    """An elementwise op's body ignores its outs: alone, it writes a fresh tensor, and the experiment runs (it was
    refused for any destination that is another node's value). A reduction accumulates onto its destination: no."""
    case = _asinh_into_a_dead_atan()
    (experiment,) = cut_experiments(case, "numeric/wrong-value/causal_mask>atan>asinh")
    assert experiment.label == "asinh#n2.alone"
    program = alone(case, 2)
    assert program is not None and "math.atan" not in program.program and "tensor.empty" in program.program
    b = GraphBuilder()
    x = b.arg(("M", 4))
    b.output(b.op("reduce_sum", b.op("abs", x), dim=1, init=b.op("reduce_max", x, dim=1)))
    assert alone(Case(b.build(), ({"M": 3},), seed=1), 2) is None


def _negated_pow_int() -> Case:
    """Stop 42's quick start: `negate>pow_int`, the fpowi bug (NaN for a negative base) after a negate."""
    b = GraphBuilder()
    b.output(b.op("pow_int", b.op("negate", b.op("exp", b.arg(("M",)))), b.arg(("M",), "i32")))
    return Case(b.build(), ({"M": 8},), seed=3)


def test_an_op_with_an_integer_operand_goes_alone_holding_its_values():
    """pow_int's exponent is i32: the op alone was refused for any operand that is no float, so `negate>pow_int`
    stayed new though the fpowi bug is known."""
    case = _negated_pow_int()
    experiment, *earlier = cut_experiments(case, "numeric/wrong-value/exp>negate>pow_int")
    base, exponent = experiment.case.given
    assert experiment.label == "pow_int#n2.alone" and exponent.dtype == np.int32
    assert [e.label for e in earlier] == ["negate#n1.alone"]
    np.testing.assert_array_equal(exponent, case.inputs(0)[1])
    assert (base < 0).all()


def test_no_alone_variant_where_the_cone_ends_elsewhere_or_nothing_feeds_the_op():
    assert list(cut_experiments(_masked_asinh(), "numeric/wrong-value/causal_mask")) == []
    assert list(cut_experiments(_masked_asinh(), "memory/alloca/elementwise@DoubleTilingExpert")) == []
    b = GraphBuilder()
    b.output(b.op("asinh", b.arg((4,))))
    assert list(cut_experiments(Case(b.build(), ({},), seed=1), "numeric/wrong-value/asinh")) == []


def _bundle(tmp_path, name: str, cause: str, alone_outcome: str | None) -> tuple[str, object]:
    rows = [Row("as-given", "as given", Outcome("same"), (cause,))]
    if alone_outcome is not None:
        rows.append(Row("asinh#n1.alone", "alone", Outcome.parse(alone_outcome), ("numeric/wrong-value/asinh",)))
    table = ExperimentTable(cause, tuple(rows), {}, (), None, (), 1.0)
    record = table.to_json() | {"verdict": Verdict("new", cause).to_json()}
    folder = tmp_path / name
    folder.mkdir()
    (folder / "finding.json").write_text(json.dumps({"signature": f"{cause}/f32/?", "experiments": record}))
    return cause, folder


def test_a_later_cause_whose_op_fails_alone_as_an_earlier_ones_is_its_duplicate(tmp_path):
    first = _bundle(tmp_path, "a", "numeric/wrong-value/causal_mask>asinh", "same")
    second = _bundle(tmp_path, "b", "numeric/wrong-value/argmax>abs>dequant_matmul>asinh", "same")
    cleared = _bundle(tmp_path, "c", "numeric/wrong-value/exp>asinh", "clean")  # the op is right on right values
    untried = _bundle(tmp_path, "d", "numeric/wrong-value/log>asinh", None)
    found = records.duplicates(dict([first, second, cleared, untried]))
    assert list(found) == [second[0]]
    assert found[second[0]].of == first[0] and "fails as `asinh` alone" in found[second[0]].note


def test_a_cause_that_fails_as_another_cause_of_the_run_without_its_consumer_is_its_duplicate(tmp_path):
    """Stop 42's host campaign (seed 73911) called `pow_int` and `pow_int>max` new: the max alone is right, and
    pow_int's operands are arguments (nothing to cut), but with the max removed the program fails as `pow_int`, a
    cause of the same run. An op alone that fails as a cause of the run makes it that cause's duplicate too."""

    def bundle(name: str, cause: str, row: Row | None) -> tuple[str, Path]:
        table = ExperimentTable(
            cause,
            (Row("as-given", "as given", Outcome("same"), (cause,)), *([row] if row else [])),
            {},
            (),
            None,
            (),
            1.0,
        )
        folder = tmp_path / name
        folder.mkdir()
        record = table.to_json() | {"verdict": Verdict("new", cause).to_json()}
        (folder / "finding.json").write_text(json.dumps({"signature": f"{cause}/f32/?", "experiments": record}))
        return cause, folder

    pow_int = "numeric/wrong-value/pow_int"
    first = bundle("a", pow_int, None)
    dropped = Row("drop:n1", "n1 (max) removed", Outcome("other", pow_int), (pow_int,))
    second = bundle("b", "numeric/wrong-value/pow_int>max", dropped)
    alone = Row("pow_int#n1.alone", "alone", Outcome("same"), (pow_int,))
    third = bundle("c", "numeric/wrong-value/exp>pow_int", alone)
    elsewhere = Row("drop:n1", "n1 removed", Outcome("other", "numeric/wrong-value/sub"), ("numeric/wrong-value/sub",))
    fourth = bundle("d", "numeric/wrong-value/sub>mul", elsewhere)  # a cause the run does not hold: no grouping
    found = records.duplicates(dict([first, second, third, fourth]))
    assert sorted(found) == sorted([second[0], third[0]])
    assert all(found[c].of == pow_int for c in found)
    assert "with a consumer removed" in found[second[0]].note and "alone" in found[third[0]].note


@pytest.mark.iree
def test_asinh_alone_after_a_causal_mask_is_the_same_failure_and_a_right_op_on_wrong_values_is_clean():
    """Against the real compiler: the masked asinh fails as asinh alone at the mask's values (asinh's own defect);
    the alone variant of an op whose operand was already wrong (exp after a sum over a splat, 3.13's known
    vectorizer bug) is clean, so the experiment tells the two apart."""
    from ireefuzz.tools.baseline import Baseline
    from ireefuzz.tools.filing.experiments.running import run_experiments
    from ireefuzz.tools.filing.experiments.verdict import judge

    table = run_experiments(_masked_asinh(), "numeric/wrong-value/causal_mask>asinh", baseline=Baseline())
    (row,) = [r for r in table.rows if r.label.endswith(".alone")]
    assert str(row.outcome) == "same" and row.causes == ("numeric/wrong-value/asinh",)
    assert "math.asinh" in table.alone["program"] and "iree-run-module" in table.alone["command"]
    assert judge(table).verdict == "new"  # before the bug is known
    # the shipped baseline knows asinh's expansion (round 41): the op alone lands in it, so the cause is its duplicate
    for case, target in (
        (_masked_asinh(), "numeric/wrong-value/causal_mask>asinh"),
        (_asinh_into_a_dead_atan(), "numeric/wrong-value/causal_mask>atan>asinh"),
    ):
        table = run_experiments(case, target)
        (row,) = [r for r in table.rows if r.label.endswith(".alone")]
        assert str(row.outcome) == "known:numeric/wrong-value/asinh", target
        verdict = judge(table)
        assert (verdict.verdict, verdict.of, verdict.by) == ("duplicate-of", "numeric/wrong-value/asinh", row.label)

    b = GraphBuilder()
    total = b.op("reduce_sum", b.fill(("M", 8), 2.0), dim=1)
    b.output(b.op("add", total, b.arg(("M",))))
    splat = Case(b.build(), ({"M": 5},), seed=2)
    table = run_experiments(splat, "numeric/wrong-value/fill>reduce_sum>add", baseline=Baseline())
    rows = {r.label: r for r in table.rows}
    assert rows["as-given"].causes and rows["as-given"].causes[0].startswith("numeric/wrong-value/fill>reduce_sum")
    assert str(rows["add#n2.alone"].outcome) == "clean", table.rows
    assert table.alone == {}  # no repro of an op that is right alone


ASINH_OF_FOUR = """func.func @main(%x: tensor<4xf32>) -> tensor<4xf32> {
  %e = tensor.empty() : tensor<4xf32>
  %scale = arith.constant 10000.0 : f32
  %r = linalg.generic {indexing_maps = [affine_map<(i) -> (i)>, affine_map<(i) -> (i)>], iterator_types = ["parallel"]}
      ins(%x : tensor<4xf32>) outs(%e : tensor<4xf32>) {
  ^bb0(%in: f32, %out: f32):
    %s = arith.mulf %in, %scale : f32
    %a = math.asinh %s : f32
    linalg.yield %a : f32
  } -> tensor<4xf32>
  return %r : tensor<4xf32>
}
"""


@pytest.mark.iree
def test_a_variant_on_a_part_of_the_values_is_no_trigger_of_a_wrong_value():
    """Round 41's maintainer review: the asinh bundle's trigger said "with rank 0 its values are right"; rank 0 had
    kept one (positive) input. The rank variants now compute on the program's own values (repeated for rank + 1, the
    first slice for rank - 1), and a part of them being right says nothing of a wrong value: not judged."""
    from ireefuzz.core.frontends import program_cases
    from ireefuzz.tools.baseline import Baseline
    from ireefuzz.tools.filing.experiments.running import run_experiments
    from ireefuzz.tools.filing.experiments.verdict import judge

    (case,) = program_cases(ASINH_OF_FOUR, functions=["main"], shapes=[[4]], seed=0)
    case = dataclasses.replace(case, given=(np.array([1.5, 0.625, 0.0, -1.0], np.float32),))
    table = run_experiments(case, "numeric/wrong-value/asinh", baseline=Baseline())
    rows = {r.label: r for r in table.rows}
    assert str(rows["rank+1"].outcome) == "same"  # the values repeated: -1e4 is still there
    assert (
        rows["rank-1"].outcome.kind == "not-judged"
        and "a part of the program's values" in rows["rank-1"].outcome.detail
    )
    assert not any("rank" in t for t in judge(table).trigger)


RAW = Path(__file__).parent / "data" / "ir" / "inputs" / "asinh_into_a_dead_atan.mlir"


def _raw_program(text: str, shapes=None):
    from ireefuzz.core.frontends import program_cases

    (program,) = program_cases(text, functions=["main"], shapes=shapes, seed=0)
    return program


def test_a_raw_programs_ops_go_alone_at_the_values_the_interpreter_gives_them():
    """`ireefuzz check` of a raw program (the pytest plugin's path) had no op-alone experiment: a known bug under a
    new cone was called new. The asinh alone holds the mask's values; its tensor.empty destination is no argument
    to interpret (it holds nothing): zeros of its result's shape."""
    program = _raw_program(RAW.read_text())
    experiments = list(cut_experiments(program, "numeric/wrong-value/generic>atan>asinh"))
    assert [e.label for e in experiments] == ["generic#4.alone", "generic#3.alone"]
    asinh = experiments[0].case
    assert "math.asinh" in asinh.program and "math.atan" not in asinh.program and "arith.select" not in asinh.program
    x = program.inputs()[0]
    rows, cols = np.indices(x.shape)
    np.testing.assert_array_equal(asinh.given[0], np.where(cols <= rows, x, np.float32(-10000.0)))
    assert list(cut_experiments(program, "memory/alloca/elementwise@DoubleTilingExpert")) == []


def test_a_dynamic_raw_program_goes_alone_at_its_instance_and_several_results_do_not():
    from ireefuzz.generators.emit import emit

    b = GraphBuilder()
    mask = b.op("causal_mask", b.arg(("M", "N")), offset=0, fill=-10000.0)
    b.output(b.op("abs", b.op("asinh", b.op("scale", mask, by=100.0))))
    program = _raw_program(emit(b.build(), "main").text, [[5, 6]])
    experiments = list(cut_experiments(program, "numeric/wrong-value/generic>generic>asinh>abs"))
    assert len(experiments) == 3 and "math.absf" in experiments[0].case.program
    assert "tensor<?x?xf32>" in experiments[1].case.program and experiments[1].case.given[0].shape == (5, 6)
    b.output(mask)
    two = _raw_program(emit(b.build(), "main").text, [[5, 6]])
    assert list(cut_experiments(two, "numeric/wrong-value/generic>generic>asinh>abs")) == []


@pytest.mark.iree
def test_check_of_a_raw_program_calls_a_known_op_alone_its_duplicate():
    """Against the real compiler, as `ireefuzz check` runs it: the raw program's asinh alone lands in the shipped
    baseline's asinh expansion bug, so the cause is its duplicate (it was called new)."""
    from ireefuzz.tools.filing.experiments.running import run_experiments
    from ireefuzz.tools.filing.experiments.verdict import judge

    table = run_experiments(_raw_program(RAW.read_text()), "numeric/wrong-value/generic>atan>asinh")
    verdict = judge(table)
    assert (verdict.verdict, verdict.of, verdict.by) == (
        "duplicate-of",
        "numeric/wrong-value/asinh",
        "generic#4.alone",
    )


@pytest.mark.iree
def test_a_negated_pow_int_is_the_known_fpowi_bugs_duplicate_by_the_op_alone():
    """Against the real compiler: pow_int alone at the negate's values (all negative bases) gives NaN, the shipped
    baseline's fpowi bug, so `exp>negate>pow_int` is its duplicate (the quick start called it new)."""
    from ireefuzz.tools.filing.experiments.running import run_experiments
    from ireefuzz.tools.filing.experiments.verdict import judge

    verdict = judge(run_experiments(_negated_pow_int(), "numeric/wrong-value/exp>negate>pow_int"))
    assert (verdict.verdict, verdict.of, verdict.by) == (
        "duplicate-of",
        "numeric/wrong-value/pow_int",
        "pow_int#n2.alone",
    )


def test_a_cause_whose_bundle_made_its_finding_a_known_causes_consequence_is_known(tmp_path):
    """Stop 47 (x86-64-v3 seed 29983): a shift of an argument, then a cumsum and a top-k, gave wrong values; its
    bundle's cause rules made the finding #16168's consequence (the shift writes the argument the cumsum reads) and
    judged it "known" as that cause, but the campaign still listed the wrong value new."""
    cause, written = "numeric/wrong-value/shift>cumsum>topk", "immutability/dps-init-written-in-place"
    rows = (Row("as-given", "as given", Outcome("same"), (written,)),)
    record = ExperimentTable(written, rows, {}, (), None, (), 1.0).to_json() | {
        "verdict": Verdict("known", written, written).to_json()
    }
    folder = tmp_path / "shift"
    folder.mkdir()
    (folder / "finding.json").write_text(json.dumps({"signature": f"{cause}/i32/Sx?xS", "experiments": record}))
    found = records.duplicates({cause: folder})
    assert found[cause].of == written and "consequence" in found[cause].note
    new = Verdict("new", cause).to_json()  # its own target judged new: stays new
    (folder / "finding.json").write_text(json.dumps({"signature": "x", "experiments": record | {"verdict": new}}))
    assert records.duplicates({cause: folder}) == {}
