"""Triage rules each from an outsider's false verdict (issue 30): a known cause that shows only without a CPU
feature (``Mechanism.missing_feature``: the experiment that adds it, the verdict, the baseline field, and with the
real compiler the f16 subnormal flush without F16C, seed 73358 x86-64-v2); a failure that only surfaces (a later
stage, a reporting pass) is no evidence of a mechanism; a stack size only an index umax bound gives is #24483's."""

from __future__ import annotations

import argparse
import dataclasses
import json
from pathlib import Path

import pytest

from ireefuzz.tools import baseline
from ireefuzz.tools.filing import experiments as X
from ireefuzz.tools.filing.experiments import running

DATA = Path(__file__).parent / "data" / "triage"
FLUSH = "numeric/wrong-value/f16-subnormal-flushed-without-f16c"
TARGET = "numeric/nan-mismatch/mul"


def table(feature_outcome: str, known: dict[str, str] | None = None) -> X.ExperimentTable:
    rows = (
        X.Row("as-given", "the program", X.Outcome("same")),
        X.Row("cpu=generic", "g", X.Outcome("same")),
        X.Row("cpu+f16c", "`+f16c` on `x86-64-v2`", X.Outcome.parse(feature_outcome)),
    )
    return X.ExperimentTable(TARGET, rows, features={"f16c": FLUSH} if known is None else known)


def test_the_same_cpu_right_with_the_feature_is_the_known_cause_that_shows_only_without_it():
    verdict = X.judge(table("clean"))
    assert (verdict.verdict, verdict.of) == ("duplicate-of", FLUSH)
    assert verdict.by.startswith("cpu+f16c (the same CPU with f16c) is right")


def test_still_wrong_with_the_feature_or_no_such_known_cause_is_no_duplicate():
    assert X.judge(table("same")).verdict == "new"
    assert X.judge(table("clean", known={})).verdict == "new"
    other_family = {"f16c": "crash/compile-error/x@iree-llvmcpu-tile"}
    assert X.judge(table("clean", known=other_family)).verdict == "new"


def test_a_feature_is_added_only_where_the_cpu_lacks_it_and_no_features_flag_is_given():
    @dataclasses.dataclass(frozen=True)
    class Subject:  # what a case has that the experiment reads
        flags: tuple[str, ...] = ()
        target_cpu: str = "x86-64-v2"

    (added,) = X.feature_experiments(Subject(), "+sse4.2,-f16c", ["f16c"], lambda flags: None)
    assert added.label == "cpu+f16c" and added.case.flags == ("--iree-llvmcpu-target-cpu-features=+f16c",)
    assert list(X.feature_experiments(Subject(), "+sse4.2,+f16c", ["f16c"], lambda flags: None)) == []
    assert list(X.feature_experiments(Subject(), None, ["f16c"], lambda flags: None)) == []  # features unknown
    given = Subject(flags=("--iree-llvmcpu-target-cpu-features=+avx",))
    assert list(X.feature_experiments(given, "+sse4.2", ["f16c"], lambda flags: None)) == []
    (refused,) = X.feature_experiments(Subject(), "", ["f16c"], lambda flags: "this host lacks f16c")
    assert refused.not_run == "this host lacks f16c"


def test_the_baseline_reads_a_missing_feature_and_refuses_a_bad_one(tmp_path):
    mechanism = {"oracle": "numeric", "culprit": None, "trigger": "With +f16c it is right.", "missing_feature": "f16c"}
    entry = {"cause": FLUSH, "verdict": "by-design", "why": "software f16 truncation", "mechanism": mechanism}
    path = tmp_path / "known.json"
    path.write_text(json.dumps({"format": 2, "causes": [entry]}))
    assert baseline.load(path).missing_features() == {"f16c": FLUSH}
    path.write_text(
        json.dumps({"format": 2, "causes": [entry | {"mechanism": mechanism | {"missing_feature": "F16C!"}}]})
    )
    with pytest.raises(Exception, match="missing_feature"):
        baseline.load(path)
    shipped = baseline.load(baseline.shipped())
    assert shipped.missing_features() == {"f16c": FLUSH}


@pytest.mark.iree
def test_an_f16_epsilon_flushed_on_x86_64_v2_is_the_known_limitation_not_a_new_cause(capsys):
    from ireefuzz.tools import check

    parser = argparse.ArgumentParser()
    check.configure(parser)
    program = str(DATA / "f16_epsilon_subnormal_rsqrt.mlir")
    status = check.main(parser.parse_args([program, "--json", "--target-cpu", "x86-64-v2"]), X.for_check)
    report = json.loads(capsys.readouterr().out)
    (cause,) = report["causes"]
    # the flush is by design (the baseline), so no bug: exit 0 (it was 1, a false verdict for the user)
    assert status == 0 and (cause["verdict"], cause["reported"]) == ("duplicate-of", FLUSH)
    rows = {r["label"]: r["outcome"] for r in cause["record"]["rows"]}
    assert rows["as-given"] == "same" and rows["cpu+f16c"] == "clean"


# --------------------------------------------------------------------------- where a failure only surfaces

FMAXF = "crash/compile-error/undefined-symbol-fmaxf@iree-hal-serialize-target-executables"


def test_a_variant_failing_later_than_the_target_got_past_it_and_is_no_duplicate():
    """Round D (seed 57186, host): an f16 reduction over the stack limit whose rank+1 variant compiles past the stack
    check into the known undefined fmaxf at link; the stack error is not the fmaxf bug. A variant failing earlier
    (the 1-D softmax's stack error, the known write-affecting error in 2-D) still lands."""
    stack = "crash/compile-error/stack-allocation-over-limit[reduction]@codegen"
    write = "crash/compile-error/write-affecting@iree-codegen-verify-workgroup-distribution"
    assert X.failure_stage(FMAXF) > X.failure_stage(stack) > X.failure_stage(write) > X.failure_stage(FLUSH) == 0

    def landing(target: str, known: str) -> X.Verdict:
        rows = (X.Row("as-given", "p", X.Outcome("same")), X.Row("rank+1", "r", X.Outcome("known", known)))
        return X.judge(X.ExperimentTable(target, rows, known={known: known}))

    assert landing(stack, FMAXF).verdict == "new"
    assert (landing(stack, write).verdict, landing(stack, write).of) == ("duplicate-of", write)


def test_a_pass_that_only_reports_what_earlier_passes_made_matches_no_known_mechanism():
    """Round D (seed 67055, x86-64-v2): a failed LLVM translation of an unrealized_conversion_cast was called the
    known fmaxf "by its mechanism (oracle, culprit pass)": both only show at serialization."""
    shipped = baseline.load(baseline.shipped())
    cast = "crash/compile-error/llvm-translation-failed-for-operation-builtin-unrealized_conversion_cast@x"
    assert shipped.matches("crash", "iree-hal-serialize-target-executables", cast) == []
    stack = "crash/compile-error/stack-allocation-over-limit[reduction]@codegen"
    assert shipped.matches("crash", "iree-llvmcpu-check-ir-before-llvm-conversion", stack) == []
    assert [k.cause for k in shipped.matches("crash", "iree-dispatch-creation-fold-unit-extent-dims")]


def test_at_a_reporting_pass_a_known_cause_matches_only_when_its_diagnostic_says_the_same():
    write = (
        "crash/compile-error/write-affecting-operations-on-global-resources-are-restricted-to-workgroup-distributed-"
        "contexts@iree-codegen-verify-workgroup-distribution"
    )
    cast = "crash/compile-error/llvm-translation-failed-for-operation-builtin-unrealized_conversion_cast@x"
    assert baseline.same_diagnostic("crash/compile-error/linalg.generic-op-write-affecting@stage", write)
    assert baseline.same_diagnostic("crash/compile-error/undefined-symbol-fminf@x", FMAXF)
    assert not baseline.same_diagnostic(cast, FMAXF)
    stack = "crash/compile-error/stack-allocation-over-limit[{}]@codegen"
    assert not baseline.same_diagnostic(stack.format("reduction"), stack.format("in-place"))
    shipped = baseline.load(baseline.shipped())
    serialize = "iree-hal-serialize-target-executables"
    assert [k.cause for k in shipped.matches("crash", serialize, "crash/compile-error/undefined-symbol-fmaxf@y")] == [
        FMAXF
    ]
    assert shipped.matches("crash", serialize, cast) == []


def test_a_stack_size_only_an_index_umax_bound_gives_is_its_own_mechanism():
    """Round D's spot check (seed 57186, host): a softmax over dim 0 of ?x1x1 hoists a 2^53-row alloca (#24483)."""
    from ireefuzz.oracles.cause import assign_causes
    from ireefuzz.oracles.finding import Finding

    def cause(got: int, ops: str = "softmax") -> str:
        message = f"'func.func' op exceeded stack allocation limit of 32768 bytes for function. Got {got} bytes"
        quoted = f"\n  func.func @main_dispatch_0_{ops}_Dxf32() {{" if ops == "sort" else ""
        finding = Finding(
            oracle="crash",
            kind="compile-error",
            signature=f"crash/compile-error/{ops}[x]/f32/?xSxS",
            message=f"iree-compile error on a valid program: {message}",
            evidence={"diagnostic": f"input.mlir:3:1: error: {message}{quoted}"},
        )
        return assign_causes([finding])[0].cause

    assert cause(18014398509481984) == "crash/compile-error/stack-allocation-over-limit[index-umax-bound]@codegen"
    assert cause(65536) == "crash/compile-error/stack-allocation-over-limit[elementwise]@codegen"
    assert cause(2**55, ops="sort").endswith("[in-place]@codegen")  # the dynamic argsort: #24735's, known
    known = baseline.load(baseline.shipped())
    assert known.cause_known(cause(2**54), []) is not None


def test_a_wrong_value_localized_to_a_known_bugs_pass_is_that_bugs_duplicate_once_its_culprit_is_known():
    """Round D (seed 57186, host): a padded pooling_nhwc_sum with a unit output dim gave wrong values; its static
    form is the known unit-dim folding verifier error, and the culprit found for it is the folding pass."""
    fold = "crash/compile-error/linalg.generic-op-inferred-operand-has-shape@fold-unit-extent-dims"
    rows = (X.Row("as-given", "p", X.Outcome("same")), X.Row("static", "s", X.Outcome("known", fold)))
    table = X.ExperimentTable(
        "numeric/wrong-value/pad>pooling_nhwc_sum", rows, known={fold: fold}, culprits={fold: "fold-unit-extent-dims"}
    )
    tried = X.record(table)
    assert tried["verdict"]["verdict"] == "new"  # a wrong value's id names no pass
    assert X.with_culprit(tried, None) is tried
    again = X.with_culprit(tried, "iree-dispatch-creation-fold-unit-extent-dims")
    assert again is not None and (again["verdict"]["verdict"], again["verdict"]["of"]) == ("duplicate-of", fold)
    assert X.with_culprit(tried, "iree-codegen-generic-vectorization")["verdict"]["verdict"] == "new"
    assert X.ExperimentTable.from_json(again).culprit == "iree-dispatch-creation-fold-unit-extent-dims"


def test_the_experiment_that_removes_a_known_cause_makes_a_candidate_of_its_kind_that_causes_duplicate():
    """Round D (seed 57186, host): a splat-init contraction's stack buffer in the Default pipeline, gone with the
    splat as a fill, as the known ConvTileAndDecomposeExpert one is (its recorded ``cured_by``)."""
    known = "memory/alloca/contraction@ConvTileAndDecomposeExpert"

    def table(outcome: str, target: str = "memory/alloca/contraction@Default") -> X.ExperimentTable:
        rows = (X.Row("as-given", "p", X.Outcome("same")), X.Row("n0.fill", "fill", X.Outcome.parse(outcome)))
        return X.ExperimentTable(target, rows, cures={".fill": (known,)})

    verdict = X.judge(table("clean"))
    assert (verdict.verdict, verdict.of) == ("duplicate-of", known) and verdict.by.startswith("n0.fill removes it")
    assert X.judge(table("same")).verdict == "new"  # the fill does not remove it
    assert X.judge(table("clean", "memory/copy/contraction@Default")).verdict == "new"  # a copy: another kind
    assert X.ExperimentTable.from_json(table("clean").to_json()).cures == {".fill": (known,)}
    assert baseline.load(baseline.shipped()).cures()[".fill"] == (known,)


POLICY = "fusion/materialized-producer/unfused-by-the-default-fusion-policy"
ATTENTION = "fusion/materialized-producer/iota>attention@DoubleTilingExpert"
REDUCTION = "fusion/materialized-producer/iota>reduction@DoubleTilingExpert"


def test_a_fusion_candidate_aggressive_fusion_removes_is_the_default_policy_not_new():
    """The outsider's triage: iota>attention was called new on a static variant made "clean" by hoisting. The
    hoisted variant is not judged (no trigger); aggressive fusion removing it makes it the by-design policy's
    duplicate (its ``cured_by``). An upstream cause known by its own id stays itself, and a variant that lands in one
    says more than the cure."""
    cures = baseline.load(baseline.shipped()).cures()
    assert cures["aggressive-fusion"] == (POLICY,)
    assert baseline.load(baseline.shipped()).causes[POLICY].verdict == "by-design"

    def table(outcome: str, target: str = ATTENTION, static: str = "not-judged:fusion: hoisted", **kw) -> X.Verdict:
        rows = (
            X.Row("as-given", "p", X.Outcome("same")),
            X.Row("static", "s", X.Outcome.parse(static)),
            X.Row("aggressive-fusion", "`--iree-dispatch-creation-enable-aggressive-fusion`", X.Outcome.parse(outcome)),
        )
        return X.judge(X.ExperimentTable(target, rows, cures=cures, **kw))

    verdict = table("clean")
    assert (verdict.verdict, verdict.of) == ("duplicate-of", POLICY) and verdict.by.startswith("aggressive-fusion")
    assert table("same").verdict == "new" and table("same").trigger == ()  # a hoisted variant is no trigger
    assert table("clean", REDUCTION, known={REDUCTION: REDUCTION}).verdict == "known"  # known by its own id
    landed = table("clean", static=f"known:{REDUCTION}", known={"fusion/x": REDUCTION})
    assert (landed.verdict, landed.of) == ("duplicate-of", REDUCTION)


def test_the_policy_experiment_is_one_compile_with_the_flag_for_a_fusion_target_only():
    from ireefuzz.core.frontends import program_cases
    from ireefuzz.oracles import vocabulary

    (case,) = program_cases((Path(__file__).parent / "data" / "ir" / "inputs" / "attention_mask_dyn.mlir").read_text())
    (e,) = X.policy_experiments(case, "fusion")
    assert e.label.endswith("aggressive-fusion") and e.case.flags == (*case.flags, vocabulary.AGGRESSIVE_FUSION_FLAG)
    assert list(X.policy_experiments(e.case, "fusion")) == [] and list(X.policy_experiments(case, "numeric")) == []


def test_ill_conditioned_numbers_do_not_unjudge_a_target_judged_on_the_compile():
    """The iota mask's attention has an ill-conditioned disagreement (``discarded``): the fusion target was still
    judged on the variant's compile; a variant never compiled (outside the frontend), or a target read on the run,
    is not judged."""
    from ireefuzz.core.evaluate import CaseResult
    from ireefuzz.tools.shrink.target import Target

    e = X.Experiment("aggressive-fusion", "`flag`", None)
    compiled = CaseResult(None, (), discarded=1, compiler_version="3.13")
    row = lambda result, target: running._row(e, result, Target.by_cause(target), baseline.Baseline(), {}).outcome.kind
    assert row(compiled, ATTENTION) == "clean"
    assert row(dataclasses.replace(compiled, compiler_version=""), ATTENTION) == "not-judged"
    assert row(compiled, "numeric/wrong-value/attention") == "not-judged"


@pytest.mark.iree
def test_real_iota_mask_into_attention_is_the_default_policys_duplicate_not_new():
    """The outsider's case on IREE 3.13: its static variants are not judged (the mask hoisted), aggressive fusion
    removes it: duplicate-of the by-design policy."""
    from ireefuzz import sut
    from ireefuzz.core.frontends import program_cases
    from ireefuzz.tools.shrink.target import Target

    (case,) = program_cases((Path(__file__).parent / "data" / "ir" / "inputs" / "attention_mask_dyn.mlir").read_text())
    table = X.run_experiments(case, Target.by_cause(ATTENTION), sut.CompilerConfig(), limit=4)
    outcomes = {r.label: r.outcome for r in table.rows}
    assert outcomes["static"].kind == "not-judged" and outcomes["static"].detail.startswith("fusion:")
    assert outcomes["aggressive-fusion"].kind == "clean"
    verdict = X.judge(table)
    assert (verdict.verdict, verdict.of) == ("duplicate-of", POLICY)


def test_a_reports_verdict_line_does_not_contradict_itself():
    """The maintainer review: "a defect of its own ... ireefuzz already tracks this one" read as a contradiction."""
    for kind in ("known", "new"):
        line = X.Verdict(kind, "numeric/wrong-value/x").line()
        assert line == "a defect of its own: no variant turns it into another defect ireefuzz knows"


# --------------------------------------------------------------------------- semantic reductions of a raw program


def test_a_slice_becomes_an_argument_of_its_type_every_use_reading_it():
    """The maintainer review: the trigger search only varied flags and types; "does the view matter?" is one edit."""
    text = (DATA / "gather_from_strided_slice.mlir").read_text()
    line = next(i for i, ln in enumerate(text.split("\n")) if "tensor.extract_slice" in ln)
    made = X.with_view_as_argument(text, "main", line)
    assert made is not None
    program, shape = made
    assert shape == (13, 3) and "tensor.extract_slice" not in program
    assert (
        "func.func @main(%arg2: tensor<13x3x64xi32>, %arg3: tensor<13xi32>, %view_of_n2: tensor<13x3xi32>)" in program
    )
    assert "tensor.extract %view_of_n2[" in program and "%n2" not in program
    assert X.with_view_as_argument(text, "main", line + 1) is None  # not a slice
    assert X.with_view_as_argument(text, "other", line) is None


@pytest.mark.iree
def test_a_gather_from_a_strided_slice_compiles_from_an_argument_which_is_its_trigger(capsys, monkeypatch):
    """Round D's real new bug (seed 57186, host; seed 67055, x86-64-v2): vector.gather from a strided view is left
    unlowered; read from a plain argument it compiles. The view experiment finds that trigger. Since round F the
    shipped baseline holds it (bundled in docs/bundles), so ``check`` calls it known; without that entry it is new."""
    import dataclasses

    from ireefuzz.tools import check

    parser = argparse.ArgumentParser()
    check.configure(parser)
    argv = [str(DATA / "gather_from_strided_slice.mlir"), "--json"]
    assert check.main(parser.parse_args(argv), X.for_check) == 1  # a finding, known or new
    (known,) = json.loads(capsys.readouterr().out)["causes"]
    assert known["verdict"] == "known"  # the shipped baseline's entry
    shipped = running._shipped_baseline()
    unknown = {k: v for k, v in shipped.causes.items() if "unrealized_conversion_cast" not in k}
    monkeypatch.setattr(running, "_shipped_baseline", lambda: dataclasses.replace(shipped, causes=unknown))
    status = check.main(parser.parse_args(argv), X.for_check)
    (cause,) = json.loads(capsys.readouterr().out)["causes"]
    rows = {r["label"]: r["outcome"] for r in cause["record"]["rows"]}
    assert status == 1 and rows["as-given"] == "same" and rows["n2.view=argument"] == "clean"
    assert "in place of the `tensor.extract_slice` %n2, it compiles" in " ".join(cause["record"]["verdict"]["trigger"])


@pytest.mark.iree
def test_a_scan_into_the_buffer_it_reads_may_keep_its_input_on_the_stack(capsys):
    """Round E (seed 92819, host): a scan whose outs is its own input (one read-write binding) stages the input on
    the stack while it overwrites the buffer: scratch the op needs (the argument written is the immutability
    oracle's known finding), not a memory finding of its own."""
    from ireefuzz.tools import check

    parser = argparse.ArgumentParser()
    check.configure(parser)
    program = str(DATA / "scan_into_its_own_input.mlir")
    status = check.main(parser.parse_args([program, "--json", "--oracles", "memory"]), X.for_check)
    report = json.loads(capsys.readouterr().out)
    assert (status, report["findings"]) == (0, [])
