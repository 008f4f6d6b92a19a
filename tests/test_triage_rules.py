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
from ireefuzz.tools.filing.experiments.table import without_consumer

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
    bf16 = "crash/compile-error/undefined-symbol-__truncsfbf@iree-hal-serialize-target-executables"
    assert not baseline.same_diagnostic(bf16, FMAXF)  # stop 47: an integer's sitofp to bf16, not the f16 max
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


def test_the_policy_experiment_is_one_compile_with_the_flag_of_the_targets_oracle_only():
    from ireefuzz.core.frontends import program_cases
    from ireefuzz.oracles import vocabulary

    (case,) = program_cases((Path(__file__).parent / "data" / "ir" / "inputs" / "attention_mask_dyn.mlir").read_text())
    (e,) = X.policy_experiments(case, "fusion")
    assert e.label.endswith("aggressive-fusion") and e.case.flags == (*case.flags, vocabulary.AGGRESSIVE_FUSION_FLAG)
    assert list(X.policy_experiments(e.case, "fusion")) == [] and list(X.policy_experiments(case, "memory")) == []
    assert [e.label for e in X.policy_experiments(case, "numeric")] == ["ukernels=none"]


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


def test_another_oracles_finding_beside_a_judged_variant_is_no_outcome_for_the_target():
    """Stop 48 (host, seed 93811): the shift's known cure (`.apart`) gave right values, but the batch_matmul beside
    it still wrote its argument (#16168); the variant was taken for one landing in #16168, no variant cured the wrong
    value, and the known shift bug was listed new. A crash, which leaves the numbers unjudged, still is one."""
    from ireefuzz.core.evaluate import CaseResult
    from ireefuzz.oracles.finding import Finding
    from ireefuzz.tools.shrink.target import Target

    e = X.Experiment("n1.apart", "the shift apart", None)
    written = Finding("immutability", "input-mutated", "immutability/input-mutated/batch_matmul/f32/SxSxS", "w", {})
    crashed = Finding("crash", "compile-error", "crash/compile-error/x[y]/-/-", "error: z", {})
    shift = Target.by_cause("numeric/wrong-value/batch_matmul>shift")
    row = lambda *found: (
        running._row(e, CaseResult(None, found, compiler_version="3.13"), shift, baseline.Baseline(), {}).outcome.kind
    )
    assert row(written) == "clean"
    assert row(crashed) == "other"


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


# --------------------------------------------------------------------------- stop 46: causes known by their cure

SHIFT = "numeric/wrong-value/shift"
UKERNEL = "numeric/wrong-value/mmt4d-ukernel-with-cut-inner-tiles"


def shift_case(backward: bool, by: int = 3, computed: bool = True):
    """The quick start's stop 45 finding: a 7-wide dim shifted by ``by`` (``backward``: toward higher indices),
    read by a batch_matmul; the shifted tensor computed (``a + a``) or the argument itself."""
    from ireefuzz.generators.builder import GraphBuilder
    from ireefuzz.generators.case import Case

    b = GraphBuilder()
    x = b.arg((1, 7, 7))
    source = b.op("add", x, x) if computed else x
    moved = b.op("shift", source, by=[0, 0, by], backward=backward)
    b.output(b.op("batch_matmul", moved, b.arg((1, 7, 1)), b.fill((1, 7, 1), 0.0)))
    return Case(b.build(), ({},), seed=3)


def test_a_shift_is_tried_apart_first_then_the_other_way_round():
    built = [
        e
        for kind in X.graph_experiments(shift_case(backward=True))
        for e in kind
        if ".apart" in e.label or "ward" in e.label
    ]
    assert [e.label for e in built] == ["n1.apart", "n1.forward"]
    apart, forward = (e.case.graph.nodes[1].attrs for e in built)
    assert apart == {"by": [0, 0, 4], "backward": True} and forward == {"by": [0, 0, 3], "backward": False}
    already = [e.label for kind in X.graph_experiments(shift_case(False, by=4)) for e in kind if "n1." in e.label]
    assert "n1.apart" not in already and "n1.backward" in already


def test_a_wrong_value_a_shift_apart_removes_is_the_in_place_shifts_and_one_ukernels_off_removes_the_ukernels():
    """Stop 45's quick start called a shift read by a batch_matmul new, and an x86-64-v3 run the mmt4d ukernel's
    wrong values ``numeric/wrong-value/contract``: each cause is now known by the variant that removes it."""
    cures = baseline.load(baseline.shipped()).cures()
    assert cures[".apart"] == (SHIFT,) and cures["ukernels=none"] == (UKERNEL,)

    def judged(label: str, outcome: str, target: str) -> X.Verdict:
        rows = (X.Row("as-given", "p", X.Outcome("same")), X.Row(label, "c", X.Outcome.parse(outcome)))
        return X.judge(X.ExperimentTable(target, rows, cures=cures))

    shifted = judged("n0.apart", "clean", "numeric/wrong-value/shift>batch_matmul")
    assert (shifted.verdict, shifted.of) == ("duplicate-of", SHIFT) and shifted.by.startswith("n0.apart removes it")
    assert judged("n0.apart", "same", "numeric/wrong-value/shift>batch_matmul").verdict == "new"
    kernel = judged("ukernels=none", "clean", "numeric/wrong-value/contract")
    assert (kernel.verdict, kernel.of) == ("duplicate-of", UKERNEL)
    assert judged("ukernels=none", "same", "numeric/wrong-value/contract").verdict == "new"
    assert judged("ukernels=none", "clean", "memory/alloca/contraction@Mmt4dTilingExpert").verdict == "new"


def test_the_ukernels_policy_replaces_the_cases_own_value_and_needs_the_flag():
    from ireefuzz.oracles import vocabulary

    case = shift_case(backward=True)
    (e,) = X.policy_experiments(case, "numeric")
    assert e.label == "ukernels=none" and e.case.flags == (*case.flags, vocabulary.UKERNELS_OFF_FLAG)
    mmt4d = dataclasses.replace(case, flags=("--iree-llvmcpu-enable-ukernels=mmt4d", "--iree-opt-data-tiling=true"))
    (e,) = X.policy_experiments(mmt4d, "numeric")
    assert e.case.flags == ("--iree-opt-data-tiling=true", vocabulary.UKERNELS_OFF_FLAG)
    assert list(X.policy_experiments(e.case, "numeric")) == []  # off already
    assert list(X.policy_experiments(case, "numeric", frozenset({"--iree-opt-data-tiling"}))) == []  # no such flag


@pytest.mark.iree
def test_real_shift_toward_higher_indices_is_wrong_and_right_apart_or_the_other_way():
    """The in-place shift (docs/repros/shift_of_a_tensor_into_itself_in_place_wrong_values.mlir) on IREE itself:
    wrong as found; its apart variant (the entry's cure) and its other way round are right, and the verdict is the
    known cause's duplicate."""
    (found,) = evaluate_findings(shift_case(backward=True))
    assert found.cause.startswith(SHIFT.replace("shift", "add>shift"))
    table = X.run_experiments(shift_case(backward=True), found.cause, limit=4)
    outcomes = {r.label: str(r.outcome) for r in table.rows}
    assert (outcomes["as-given"], outcomes["dynamic"], outcomes["n1.apart"]) == ("same", "same", "clean")
    assert (X.judge(table).verdict, X.judge(table).of) == ("duplicate-of", SHIFT)
    forward = next(e for kind in X.graph_experiments(shift_case(True)) for e in kind if e.label == "n1.forward")
    assert running.chosen([[forward]], 1, str)[0] and evaluate_findings(forward.case) == []


@pytest.mark.iree
def test_real_mmt4d_with_7x7_inner_tiles_is_wrong_on_avx2_and_right_with_ukernels_off():
    """Stop 45's x86-64-v3 bug (docs/repros/mmt4d_odd_inner_tiles_avx2_ukernel_wrong_values.mlir) as the campaign
    draws it: wrong on x86-64-v3 (this AVX-512 host runs AVX2 code), right with the numeric policy experiment."""
    from ireefuzz.generators.builder import GraphBuilder
    from ireefuzz.generators.case import Case

    b = GraphBuilder()
    acc = b.fill((1, 1, 7, 7), 0.0)
    b.output(b.op("contract", b.arg((1, 1, 7, 7)), b.arg((1, 1, 7, 7)), acc, spec="MKmk,NKnk->MNmn", form="named"))
    case = dataclasses.replace(Case(b.build(), ({},), seed=1), target_cpu="x86-64-v3")
    assert [f.cause.split("/")[:2] for f in evaluate_findings(case)] == [["numeric", "wrong-value"]]
    (off,) = X.policy_experiments(case, "numeric")
    assert evaluate_findings(off.case) == []


def evaluate_findings(case) -> list:
    from ireefuzz.core.evaluate import evaluate

    return list(evaluate([case])[0].findings)


SIGFPE = (
    "crash/compile-crash/SIGFPE/llvm.function_ref.callback_fn>mlir.iree_compiler.IREE.Flow.summarizeDispatchRegion"
    "[abi:cxx11]>mlir.iree_compiler.IREE.Flow.AnnotateDispatchesPass.runOnOperation"
)
SIGSEGV = "crash/compile-crash/SIGSEGV/mlir.AffineExpr.getKind>getConstantsFromExprList>inferConvolutionDimsImpl"


def test_two_compiler_crashes_of_one_pass_by_another_signal_and_frames_are_two_bugs():
    """Stop 46 (host seed 50923, an outsider): a SIGFPE in summarizeDispatchRegion on a zero-size loop was called
    the SIGSEGV in inferConvolutionDims on an offset map, both in iree-flow-annotate-dispatches, by the culprit pass
    alone. Another signal, or no frame in common, is another crash; the same frames are one."""
    assert baseline.another_check(SIGFPE, SIGSEGV)
    assert baseline.another_check(SIGSEGV.replace("SIGSEGV", "SIGFPE"), SIGSEGV)  # the same frames, another signal
    assert not baseline.another_check(SIGSEGV.replace("getKind", "getKind2"), SIGSEGV)  # a frame in common
    assert not baseline.another_check(SIGSEGV.replace("SIGSEGV", "crash"), SIGSEGV)  # killed while it printed
    shipped = baseline.load(baseline.shipped())
    matched = [k.cause for k in shipped.matches("crash", "iree-flow-annotate-dispatches", SIGFPE)]
    assert SIGSEGV in shipped.causes and matched == [SIGFPE]  # its own entry (now in the baseline), not SIGSEGV's
    table = X.ExperimentTable(
        SIGFPE,
        (X.Row("as-given", "p", X.Outcome("same")), X.Row("static", "s", X.Outcome("same"))),
        culprit="iree-flow-annotate-dispatches",
        localized={k: v for k, v in X.localized_mechanisms(shipped).items() if k != SIGFPE},  # as the run saw it
    )
    assert X.judge(table).verdict == "new"


def test_a_producer_read_from_an_argument_lands_a_chain_in_the_cause_of_its_last_op():
    """Stop 46 (x86-64-v3 seed 71147, an outsider): collapse_shape>cond and cond were one bug in two bundles; the
    shrinker may not cut the collapse_shape (the cause id would change), the experiment does, and the cond alone is
    the known cause (or, in the same run, the other bundle's cause)."""
    from ireefuzz.generators.builder import GraphBuilder
    from ireefuzz.generators.case import Case

    b = GraphBuilder()
    folded = b.op("collapse_shape", b.arg(("M", "N", 7, 5)), groups=[[0], [1], [2, 3]])
    b.output(b.op("cond", b.arg((), "i1"), folded, b.arg(("M", "N", 35))))
    case = Case(b.build(), ({"M": 2, "N": 3},))
    (cut,) = [e for kind in X.graph_experiments(case) for e in kind if e.label == "n0.argument"]
    assert [n.op for n in cut.case.graph.nodes] == ["cond"] and cut.case.graph.nodes[0].type.shape == ("M", "N", 35)
    cond = "numeric/wrong-value/cond"
    rows = (X.Row("as-given", "p", X.Outcome("same")), X.Row("n0.argument", "c", X.Outcome("known", cond)))
    verdict = X.judge(X.ExperimentTable("numeric/wrong-value/collapse_shape>cond", rows, known={cond: cond}))
    assert (verdict.verdict, verdict.of) == ("duplicate-of", cond)
    other = (rows[0], X.Row("n0.argument", "c", X.Outcome("other", cond)))
    assert without_consumer(other, [cond]) == cond and without_consumer(other[:1], [cond]) == ""


def test_a_wrong_value_is_tried_on_vmvx_and_wrong_there_too_is_tagged_with_both_backends():
    """Stop 46 (x86-64-v3 seed 71147, an outsider): the cond's wrong values, a host-side offset, were titled
    [llvm-cpu]; the vmvx variant says the defect is not llvm-cpu's codegen alone."""
    from ireefuzz.tools.filing import report

    case = shift_case(backward=True)
    (e,) = X.backend_experiments(case, "numeric")
    assert e.label == X.BACKEND_VMVX and e.case.flags[-1] == "--iree-hal-target-backends=vmvx"
    assert list(X.backend_experiments(case, "memory")) == [] and len(list(X.backend_experiments(case, "reference")))
    half = dataclasses.replace(
        case,
        graph=dataclasses.replace(case.graph, args=tuple(dataclasses.replace(t, dtype="f16") for t in case.graph.args)),
    )
    assert list(X.backend_experiments(half, "numeric")) == []  # vmvx has no f16
    row = lambda kind: X.Row(X.BACKEND_VMVX, "v", X.Outcome(kind))
    assert report.component(None, [row("same")]) == "llvm-cpu and vmvx"
    assert report.component(None, [row("clean")]) == report.component(None) == "llvm-cpu"


@pytest.mark.iree
def test_real_cond_is_wrong_on_vmvx_too():
    from ireefuzz.generators.builder import GraphBuilder
    from ireefuzz.generators.case import Case

    b = GraphBuilder()
    b.output(b.op("cond", b.arg((), "i1"), b.arg(("M", "N")), b.arg(("M", "N"))))
    case = Case(b.build(), ({"M": 7, "N": 17},), seed=0)
    (e,) = X.backend_experiments(case, "numeric")
    assert [f.cause for f in evaluate_findings(e.case)] == ["numeric/wrong-value/cond"]


def test_a_relations_finding_is_re_run_with_its_relation_on_every_case():
    """Stop 46: the repro's check ran no relation, so a shape relation's mismatch (the known attention head-dim bug)
    was "lost 0/3" in the quick start and in the x86-64-v3 run, and listed not reproduced."""
    from ireefuzz.oracles.metamorphic import RELATIONS, relations_for
    from ireefuzz.tools.shrink.graph import EvaluateCheck

    assert relations_for("metamorphic/output-mismatch/elementwise[shape:dynamic]") == ("shape",)
    assert relations_for("metamorphic/alloca-asymmetry/matmul") == RELATIONS  # none named: every one
    assert relations_for("numeric/wrong-value/cond") == ()
    policy = EvaluateCheck("metamorphic/output-mismatch/elementwise[shape:dynamic]").policy
    assert (policy.relations, policy.relations_every) == (("shape",), 1)
    assert EvaluateCheck("numeric/wrong-value/cond").policy.relations == ()


@pytest.mark.iree
def test_real_shape_relation_mismatch_is_confirmed_by_the_repro_check():
    from ireefuzz.generators.case import Case
    from ireefuzz.tools.shrink.graph import EvaluateCheck, confirm
    from ireefuzz.tools.shrink.target import Target

    case = Case.from_json(json.loads((DATA / "attention_shape_relation_case.json").read_text()))
    target = Target.by_cause("metamorphic/output-mismatch/attention[shape:dynamic]")  # as the repro targets it
    assert confirm(case, target, EvaluateCheck(target), runs=1).hits == 1


def test_a_raw_programs_wrong_value_is_tried_on_vmvx_unless_it_has_f16():
    """The first CI run of stop 46: a raw program's case (no graph) made the vmvx experiment fail."""
    from ireefuzz.core.frontends import program_cases

    (case,) = program_cases((Path(__file__).parent / "data" / "ir" / "inputs" / "attention_mask_dyn.mlir").read_text())
    assert case.graph is None if hasattr(case, "graph") else True
    built = [e.label for e in X.backend_experiments(case, "numeric")]
    assert built == ([] if "f16" in case.program else [X.BACKEND_VMVX])


def test_a_relations_output_mismatch_is_a_wrong_value_so_a_variants_known_wrong_value_is_its_cause():
    """Once the repro re-ran the shape relation (stop 46), its attention mismatch was confirmed and had to be judged:
    the dynamic variant's wrong value is the known attention head-dim bug, the same mechanism (one side wrong)."""
    from ireefuzz.tools.filing.experiments.verdict import mechanism

    target, known = "metamorphic/output-mismatch/elementwise[shape:dynamic]", "numeric/wrong-value/attention"
    assert mechanism(target) == mechanism(known) and mechanism("metamorphic/wrong-in-codegen/x") == mechanism(known)
    assert mechanism("metamorphic/alloca-asymmetry/matmul") != mechanism(known)
    rows = (X.Row("as-given", "p", X.Outcome("same")), X.Row("dynamic", "d", X.Outcome("known", known)))
    verdict = X.judge(X.ExperimentTable(target, rows, known={known: known}))
    assert (verdict.verdict, verdict.of) == ("duplicate-of", known)


def test_a_shape_mismatch_of_an_attention_graph_is_named_so_and_is_the_known_head_dim_bug():
    """Stop 46: the quick start's confirmed shape-relation mismatch of pad>pooling>attention was named an
    "elementwise" graph's, a new cause; it is the dynamic-head-dim attention bug, which the relation sees."""
    from ireefuzz.oracles.cause import cause_of
    from ireefuzz.oracles.finding import Finding

    signature = "metamorphic/output-mismatch/pad>pooling_nhwc_max>attention[shape:dynamic]/f16/SxSxS"
    found = Finding("metamorphic", "output-mismatch", signature, "m", {"relation": "shape", "variant": "dynamic"})
    cause = cause_of(found).id
    assert cause == "metamorphic/output-mismatch/attention[shape:dynamic]"
    known = baseline.load(baseline.shipped()).cause_known(cause, [signature])
    assert known is not None and known.of == "numeric/wrong-value/attention"


def test_a_compiled_programs_defect_is_cured_by_a_variant_that_then_runs_into_a_known_wrong_value():
    """Stop 47 (a smoke campaign, host): an iota read by an attention stayed its own dispatch; aggressive fusion
    (the by-design policy's recorded cure) fused it, and the fused program then gave the known dynamic-head-dim
    attention wrong value. The fusion defect was gone, yet the verdict read the row as not clean: "a defect of its
    own". A known failure seen only by running the variant says nothing of its dispatches; a compile error would."""
    target, policy = (
        "fusion/materialized-producer/iota>attention@DoubleTilingExpert",
        "fusion/materialized-producer/unfused-by-the-default-fusion-policy",
    )
    attention = "numeric/wrong-value/attention"

    def verdict_with(cause: str) -> X.Verdict:
        rows = (
            X.Row("as-given", "p", X.Outcome("same"), (target,)),
            X.Row("aggressive-fusion", "f", X.Outcome("known", cause), (cause,)),
        )
        table = X.ExperimentTable(target, rows, known={cause: cause}, cures={"aggressive-fusion": (policy,)})
        return X.judge(table)

    assert (verdict_with(attention).verdict, verdict_with(attention).of) == ("duplicate-of", policy)
    crashed = "crash/compile-error/undefined-symbol-fmaxf@iree-hal-serialize-target-executables"
    assert verdict_with(crashed).verdict == "new"  # compiled no program: nothing was seen of its dispatches


def _pow_int_into_exp2s_tensor():
    from ireefuzz.generators.case import Case

    return Case.from_json(json.loads((DATA / "exp2_pow_int_into_its_tensor.case.json").read_text()))


def test_an_op_of_arguments_writing_into_another_ops_tensor_is_tried_alone():
    """Stop 48's quick start: a pow_int of two arguments whose destination is an exp2's tensor (`init`
    `value:n0`) was cause `exp2>pow_int`; only ops reading a node as an operand went alone, so the known fpowi bug was
    never tried as `pow_int` alone and was listed new (exit 1 on a fresh clone)."""
    from ireefuzz.tools.filing.experiments.cut import cut_experiments

    case = _pow_int_into_exp2s_tensor()
    labels = [e.label for e in cut_experiments(case, "numeric/wrong-value/exp2>pow_int>mul")]
    assert labels[:2] == ["mul#n3.alone", "pow_int#n1.alone"], labels


@pytest.mark.iree
def test_real_pow_int_alone_of_the_quick_starts_case_is_the_known_fpowi_bug():
    from ireefuzz.tools.filing.experiments.cut import cut_experiments

    case = _pow_int_into_exp2s_tensor()
    alone = next(e for e in cut_experiments(case, "numeric/wrong-value/exp2>pow_int>mul") if e.label.startswith("pow"))
    table = X.run_experiments(case, "numeric/wrong-value/exp2>pow_int>mul", limit=16)
    outcomes = {r.label: str(r.outcome) for r in table.rows}
    assert outcomes.get(alone.label) == "known:numeric/wrong-value/pow_int", outcomes
    assert (X.judge(table).verdict, X.judge(table).of) == ("duplicate-of", "numeric/wrong-value/pow_int")
