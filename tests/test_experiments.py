"""Experiments before a verdict (``filing.experiments``, issue 30): the variants, the outcomes, the verdict
(duplicate, trigger, nearest) on recorded outcomes of a fake pipeline; the IR-level variants of a raw program; the
campaign counting a duplicate as known; and, with the real compiler (``iree``), the fill-sum, a softmax whose outs
is an argument (one mechanism with the known write-affecting error) and an argument init that ``tensor.empty``
cures."""

from __future__ import annotations

import dataclasses
import json
import re
import types
from pathlib import Path

import pytest
from test_campaign_causes import MUTATED, old_run

from ireefuzz.base import durable as _io
from ireefuzz.core.evaluate import CaseResult
from ireefuzz.generators.case import Case
from ireefuzz.generators.graph import Graph, Node
from ireefuzz.generators.graph import TensorType as T
from ireefuzz.oracles.finding import Finding
from ireefuzz.tools import baseline
from ireefuzz.tools.campaign import loop, report, runs
from ireefuzz.tools.filing import experiments as X
from ireefuzz.tools.filing.experiments import running

STACK = "crash/compile-error/stack-allocation-over-limit[elementwise]@codegen"
WRITE = (
    "crash/compile-error/write-affecting-operations-on-global-resources-are-restricted-to-workgroup-distributed-"
    "contexts@iree-codegen-verify-workgroup-distribution"
)
FILL_SUM = "numeric/wrong-value/fill>reduce_sum"
COPY = "memory/copy/outs-is-argument@ConvTileAndDecomposeExpert"
COPY_BY_ROLE = "memory/copy/contraction@ConvTileAndDecomposeExpert"  # the same copy, named without the argument
ALLOCA = "memory/alloca/contraction@ConvTileAndDecomposeExpert"


def softmax_case(shape=("D",), instance=None) -> Case:
    """``linalg.softmax`` whose outs is an argument (issue 30: 1-D dynamic is over the stack limit)."""
    t = T(shape, "f32")
    g = Graph((t, t), (Node("softmax", ("a0",), {"dim": len(shape) - 1, "init": "value:a1"}, t),), ("n0",))
    return Case(g.check(), (instance if instance is not None else {"D": 33},))


def fill_sum_case() -> Case:
    """A row sum over a splat, plus an argument (so its dims can be made dynamic)."""
    nodes = (
        Node("fill", (), {"dtype": "i32", "shape": [3, 2], "value": 2}, T((3, 2), "i32")),
        Node("reduce_sum", ("n0",), {"dim": 1}, T((3,), "i32")),
        Node("add", ("n1", "a0"), {}, T((3,), "i32")),
    )
    return Case(Graph((T((3,), "i32"),), nodes, ("n2",)).check(), ({},))


def splat_into_argument_case() -> Case:
    """A splat written as a ``linalg.generic`` into an argument, accumulated into by a matmul."""
    t = T((4, 4), "f32")
    nodes = (
        Node("fill", (), {"dtype": "f32", "shape": [4, 4], "value": 0.0, "generic": True, "init": "value:a2"}, t),
        Node("matmul", ("a0", "a1", "n0"), {}, t),
    )
    return Case(Graph((t, t, t), nodes, ("n1",)).check(), ({},))


def finding(cause: str, dispatch: str | None = None) -> Finding:
    oracle, kind = cause.split("/")[:2]
    evidence = {"dispatch": dispatch} if dispatch else {}
    return Finding(oracle, kind, f"{oracle}/{kind}/-/-/-", "recorded", evidence, cause=cause)


def fake(rule, calls=None):
    """A pipeline whose outcomes are recorded: ``rule(case)`` gives a variant's findings (or a CaseResult)."""

    def evaluate(cases, config, policy, frontend):
        out = []
        for case in cases:
            if calls is not None:
                calls.append(case)
            made = rule(case)
            out.append(made if isinstance(made, CaseResult) else CaseResult(case, tuple(made)))
        return out

    return evaluate


def knowing(*causes: str) -> baseline.Baseline:
    return baseline.Baseline.of([baseline.Known(c, "upstream", link="https://x/1") for c in causes])


def experiment(case, target, rule, known=(), **options):
    options.setdefault("cannot_run", lambda cpu: None)
    return X.run_experiments(case, target, evaluate=fake(rule), baseline=knowing(*known), **options)


def rows(table: X.ExperimentTable) -> dict[str, str]:
    return {r.label: str(r.outcome) for r in table.rows}


# --------------------------------------------------------------------------- the variants


def labels(case) -> list[str]:
    return [e.label for kind in X.graph_experiments(case) for e in kind]


def test_an_empty_or_unit_dim_is_tried_one_size_up():
    """Issue 30, measured: an attention over N = 0 keys was called new, while N = 1 makes it go away: the edge size
    is an experiment, and its row is the trigger."""
    case = softmax_case(instance={"D": 0})
    built = {e.label: e for kind in X.graph_experiments(case) for e in kind}
    assert built["size:D=1"].case.instances == ({"D": 1},) and built["size:D=1"].change == "`D` = 1 instead of 0"
    assert "size:D=34" not in labels(softmax_case())  # a size off the edge is not varied


def test_a_consumer_removed_keeps_every_argument_and_its_inputs():
    """Stop 44 (host, seed 61837): with the cos after an fpowi removed, an argument nothing read was dropped, the
    others' inputs were drawn again, the negative bases were gone, and the tool said "with n1 (cos) removed, its
    values are right". Stock tools: the fpowi alone gives the same NaN."""
    import numpy as np

    unused, base, power = T((1, 1, 4), "f16"), T((3,), "f16"), T((3,), "i32")
    graph = Graph(
        (unused, base, power),
        (Node("pow_int", ("a1", "a2"), {}, base), Node("cos", ("n0",), {}, base)),
        ("n1",),
    )
    case = Case(graph, ({},), seed=5, magnitude=16)
    (dropped,) = [e for kind in X.graph_experiments(case) for e in kind if e.label == "drop:n1"]
    assert dropped.case.graph.args == graph.args
    for mine, theirs in zip(case.inputs(0), dropped.case.inputs(0)):
        np.testing.assert_array_equal(mine, theirs)


def test_another_ops_value_as_an_elementwise_outs_is_tried_as_a_tensor_empty():
    """Stop 44 (host, seed 61837): the fpowi NaN with a cosine's value as its outs (read by nothing) was "a defect of
    its own"; with the outs a tensor.empty it is the known bug. A reduction reads its outs: no such variant."""
    x, n = T((1, 2), "f32"), T((1, 2), "i32")
    cos_outs = Graph(
        (x, n),
        (Node("cos", ("a0",), {}, x), Node("pow_int", ("a0", "a1"), {"init": "value:n0"}, x)),
        ("n1",),
    )
    built = {e.label: e for kind in X.graph_experiments(Case(cos_outs, ({},))) for e in kind}
    assert built["n1.outs=empty"].change == "`tensor.empty` instead of n0's value as the outs of n1 (pow_int)"
    assert built["n1.outs=empty"].case.graph.nodes[-1].attrs.get("init", "empty") == "empty"
    r = T((1,), "f32")
    sum_outs = Graph(
        (x, r),
        (Node("abs", ("a1",), {}, r), Node("reduce_sum", ("a0",), {"dim": 1, "init": "value:n0"}, r)),
        ("n1",),
    )
    assert "n1.outs=empty" not in labels(Case(sum_outs, ({},)))


def test_a_padded_pack_of_a_computed_value_is_tried_packing_whole_tiles():
    """Stop 44: a padded pack of an elementwise result kept the producer's tile on the stack, called new three times;
    packing whole tiles removes it (the outsiders' variant), and is the recorded cure of its known cause."""
    src, packed = T((1, 1, 2), "f32"), T((1, 1, 1, 8), "f32")
    pack = {"inner_dims_pos": [2], "inner_tiles": [8], "padding": 0.0}
    of_value = Graph((src,), (Node("negate", ("a0",), {}, src), Node("pack", ("n0",), pack, packed)), ("n1",))
    (whole,) = [e for kind in X.graph_experiments(Case(of_value, ({},))) for e in kind if e.label == "n1.whole-tiles"]
    node = whole.case.graph.nodes[1]
    assert node.attrs["inner_tiles"] == [2] and node.attrs["padding"] is None and node.type.shape == (1, 1, 1, 2)
    of_argument = Graph((src,), (Node("pack", ("a0",), pack, packed),), ("n0",))  # the transfer split's, by design
    assert not any(label.endswith("whole-tiles") for label in labels(Case(of_argument, ({},))))
    cured = {k.cause for k in baseline.load(baseline.DEFAULT_BASELINE).entries if k.mechanism and k.mechanism.cured_by}
    assert "memory/alloca/padded-pack-of-a-fused-producer" in cured


def test_a_softmax_gets_static_dims_an_empty_outs_a_rank_more_the_cpus_and_data_tiling():
    case = softmax_case()
    built = {e.label: e for kind in X.graph_experiments(case) for e in kind}
    assert list(built) == [
        "static",
        "n0.outs=empty",
        "rank+1",
        "data-tiling=true",
        "data-tiling=false",
        "cpu=generic",
        "cpu=x86-64-v3",
    ]  # no rank-1 (a 1-D softmax), no dynamic (it is dynamic), no fill, no consumer
    assert built["static"].case.graph.args[0].shape == (33,) and built["static"].case.instances == ({},)
    assert built["n0.outs=empty"].case.graph.nodes[0].attrs["init"] == "empty"
    assert "`tensor.empty` instead of `%arg1` as the outs of n0 (softmax)" == built["n0.outs=empty"].change
    up = built["rank+1"].case.graph
    assert up.nodes[0].type.shape == (X.EXTRA_DIM, "D") and up.nodes[0].attrs["dim"] == 1
    assert built["cpu=generic"].case.target_cpu == "generic"


def test_a_fill_sum_gets_dynamic_dims_the_splat_generic_each_consumer_removed_and_both_ranks():
    case = fill_sum_case()
    built = {e.label: e for kind in X.graph_experiments(case) for e in kind}
    assert {"dynamic", "n0.generic", "drop:n1", "drop:n2", "rank+1", "rank-1"} <= set(built)
    dynamic = built["dynamic"].case
    assert dynamic.graph.symbols == ("D3",) and dynamic.instances == ({"D3": 3},)
    assert dynamic.graph.nodes[0].attrs["shape"] == ["D3", 2]
    assert built["n0.generic"].case.graph.nodes[0].attrs["generic"] is True
    assert built["drop:n1"].case.graph.op_pattern == "fill"  # the sum removed: its producer is returned
    assert built["drop:n2"].case.graph.op_pattern == "fill>reduce_sum"
    assert built["rank-1"].case.graph.nodes[1].type.shape == ()
    # inputs of another shape are drawn anew: right values there are no trigger of a wrong value (stop 42's pow_int)
    assert built["rank-1"].other_values and built["rank+1"].other_values and not built["dynamic"].other_values


def test_an_argument_accumulator_becomes_a_filled_empty_and_a_splat_generic_a_fill():
    t = T((4, 4), "f32")
    matmul = Case(Graph((t, t, t), (Node("matmul", ("a0", "a1", "a2"), {}, t),), ("n0",)).check(), ({},))
    built = {e.label: e for kind in X.graph_experiments(matmul) for e in kind}
    acc = built["n0.acc=fill"].case.graph
    assert acc.op_pattern == "fill>matmul" and acc.nodes[1].inputs == ("a0", "a1", "n0") and len(acc.args) == 2
    assert built["n0.acc=fill"].change == (
        "a `linalg.fill` of a `tensor.empty` instead of `%arg2` as the accumulator of n0 (matmul)"
    )
    built = {e.label: e for kind in X.graph_experiments(splat_into_argument_case()) for e in kind}
    assert built["n0.outs=empty"].case.graph.nodes[0].attrs["init"] == "empty"
    assert built["n0.fill"].case.graph.nodes[0].attrs["generic"] is False
    assert built["n0.fill"].change == "`linalg.fill` instead of the splat `linalg.generic` for n0"


def test_f16_becomes_f32_and_a_cast_that_becomes_f32_to_f32_goes():
    h = T((4,), "f16")
    nodes = (Node("exp", ("a0",), {}, h), Node("cast", ("n0",), {"to": "f32"}, T((4,), "f32")))
    case = Case(Graph((h,), nodes, ("n1",)).check(), ({},))
    (f32,) = [e for kind in X.graph_experiments(case) for e in kind if e.label == "f32"]
    assert f32.case.graph.op_pattern == "exp" and f32.case.graph.args[0].dtype == "f32"
    assert f32.change == "f32 instead of f16"


def test_the_cap_takes_one_of_each_kind_in_turn_and_says_what_it_left():
    kinds = X.graph_experiments(softmax_case())
    picked, left = X.chosen(kinds, 3, running._identity)
    assert [e.label for e in picked] == ["static", "n0.outs=empty", "rank+1"]
    leftover = ("data-tiling=true", "cpu=generic", "data-tiling=false", "cpu=x86-64-v3")
    assert left == [f"{label}: over the cap of 3" for label in leftover]


# --------------------------------------------------------------------------- the verdict, on recorded outcomes


def softmax_outcomes(case):
    """What IREE 3.13 did (issue 30): the 2-D form fails with the known write-affecting error, static dims or a
    fresh outs compile, the rest stays over the stack limit."""
    g = case.graph
    if len(g.nodes[0].type.shape) == 2:
        return [finding(WRITE)]
    if not g.symbols or g.nodes[0].attrs.get("init") == "empty":
        return []
    return [finding(STACK)]


def test_a_variant_that_lands_in_a_known_cause_of_the_same_mechanism_makes_a_duplicate():
    table = experiment(softmax_case(), STACK, softmax_outcomes, known=[WRITE])
    assert rows(table) == {
        "as-given": "same",
        "static": "clean",
        "n0.outs=empty": "clean",
        "rank+1": f"known:{WRITE}",
        "data-tiling=true": "same",
        "cpu=generic": "same",
        "data-tiling=false": "same",
        "cpu=x86-64-v3": "same",
    }
    verdict = X.judge(table)
    assert (verdict.verdict, verdict.of, verdict.by) == ("duplicate-of", WRITE, "rank+1")
    assert verdict.line() == f"duplicate-of {WRITE} (by experiment: rank+1)"
    assert verdict.trigger == (
        "With every dim static at the instance's sizes (D=33), it compiles and runs.",
        "With `tensor.empty` instead of `%arg1` as the outs of n0 (softmax), it compiles and runs.",
    )


def test_a_known_cause_of_another_mechanism_is_no_duplicate():
    other = "crash/compile-crash/SIGSEGV/x"  # a compiler crash is not the compile error's mechanism
    rule = lambda case: [finding(other)] if len(case.graph.nodes[0].type.shape) == 2 else softmax_outcomes(case)
    verdict = X.judge(experiment(softmax_case(), STACK, rule, known=[other]))
    assert verdict.verdict == "new" and verdict.nearest == other


def test_a_variant_met_under_another_name_lands_by_its_known_mechanism():
    """The 2-D error names another op and an older stage; its failing pass is the known cause's culprit."""
    renamed = "crash/compile-error/linalg.generic-op-write-affecting@workgroup-distribution-verification"
    failed = "error: write affecting ...\nfailing pass: iree-codegen-verify-workgroup-distribution (module)"

    def rule(case):
        if len(case.graph.nodes[0].type.shape) == 2:
            return [dataclasses.replace(finding(renamed), evidence={"diagnostic": failed})]
        return softmax_outcomes(case)

    mechanism = baseline.Mechanism("crash", "iree-codegen-verify-workgroup-distribution", "With tensor.empty ...")
    known = baseline.Baseline.of([baseline.Known(WRITE, "upstream", link="https://x/1", mechanism=mechanism)])
    table = X.run_experiments(softmax_case(), STACK, evaluate=fake(rule), baseline=known, cannot_run=lambda c: None)
    assert rows(table)["rank+1"] == f"known:{WRITE}"
    assert X.judge(table).line() == f"duplicate-of {WRITE} (by experiment: rank+1)"


def _dropped_into(known_cause, culprit):
    """Seed 61837's const-eval compile error at generic vectorization: dropping its consumer compiles, into the
    known fill-sum miscompile; ``culprit`` is what the baseline records as that known cause's culprit pass."""
    target = "crash/compile-error/vector.contract-op-expected@iree-codegen-generic-vectorization"
    rows = (
        X.Row("as-given", "the program", X.Outcome("same")),
        X.Row("drop:n1", "n1 removed", X.Outcome("known", known_cause)),
        X.Row("cpu=generic", "g", X.Outcome("same")),
    )
    return X.ExperimentTable(target, rows, known={known_cause: known_cause}, culprits={known_cause: culprit})


def test_a_variant_in_another_oracles_known_bug_of_the_same_culprit_pass_makes_a_duplicate():
    verdict = X.judge(_dropped_into(FILL_SUM, "iree-codegen-generic-vectorization"))
    assert (verdict.verdict, verdict.of) == ("duplicate-of", FILL_SUM)
    assert verdict.by == "drop:n1, which lands in it, and the same culprit pass (iree-codegen-generic-vectorization)"


def test_another_oracles_known_bug_of_another_pass_is_no_duplicate():
    assert X.judge(_dropped_into(FILL_SUM, "tiling")).verdict == "new"
    assert X.culprit_family("memory/alloca/contraction@DoubleTilingExpert") == ""
    assert X.culprit_family("crash/compile-error/x@iree-llvmcpu-tile") == "tiling"


def test_experiments_judge_every_oracle_that_runs_the_program_not_only_the_targets():
    seen = []

    def evaluate(cases, config, policy, frontend):
        seen.append(policy.oracles)
        return [types.SimpleNamespace(findings=(), discarded=0) for _ in cases]

    X.run_experiments(softmax_case(), STACK, evaluate=evaluate, cannot_run=lambda c: None, limit=1)
    assert seen and all({"crash", "numeric", "immutability"} <= set(o) for o in seen)
    assert all(not {"memory", "fusion"} & set(o) for o in seen)


def test_a_target_the_baseline_judges_is_no_candidate():
    rule = lambda case: [] if case.graph.op_pattern == "fill" else [finding(FILL_SUM)]
    verdict = X.judge(experiment(fill_sum_case(), FILL_SUM, rule, known=[FILL_SUM]))
    assert verdict.verdict == "known" and "known" not in verdict.line().replace("ireefuzz knows", "")
    assert verdict.line().startswith("a defect of its own")


SLICE = "crash/compile-error/slice-along-dimension-runs-out-of-bounds@iree-codegen-tile-and-distribute-to-workgroups"
TILING = "crash/compile-error/reverse-map@iree-llvmcpu-tile"
FOLD = "crash/compile-error/inferred-operand-has-shape@iree-dispatch-creation-fold-unit-extent-dims"


def test_a_compile_error_is_a_known_errors_duplicate_when_a_variant_lands_in_it_not_by_its_pass_alone():
    """Issue 30: the out-of-bounds slice fails in tiling with a dynamic batch; with a static one it is the known
    fold-unit-extent-dims error, word for word. Its failing pass alone does not make it the reverse-map tiling bug:
    two checks of one pass failing are two bugs until a variant lands one in the other (stop 45's outsider: an
    invalid vector.contract with no mask was called the masked contract's error of the same pass)."""
    tiled = "failing pass: iree-codegen-tile-and-distribute-to-workgroups-using-forall-op (module)"
    slice_ = dataclasses.replace(finding(SLICE), evidence={"diagnostic": tiled})
    mechanism = baseline.Mechanism("crash", "tiling", "Without the negative coefficient it compiles.")
    known = baseline.Baseline.of(
        [
            baseline.Known(TILING, "upstream", link="https://x/1", mechanism=mechanism),
            baseline.Known(FOLD, "upstream", link="https://x/2"),
        ]
    )
    run = lambda rule: X.judge(
        X.run_experiments(softmax_case(), SLICE, evaluate=fake(rule), baseline=known, cannot_run=lambda cpu: None)
    )
    verdict = run(lambda case: [finding(FOLD)] if not case.graph.symbols else [slice_])
    assert (verdict.verdict, verdict.of, verdict.by) == ("duplicate-of", FOLD, "static")
    verdict = run(lambda case: [slice_])
    assert verdict.verdict == "new"
    assert known.matches("crash", "iree-llvmcpu-tile", TILING) and not known.matches(
        "crash", "iree-llvmcpu-tile", SLICE
    )


def copies_of_a_known_stack_buffer(case, where="d0"):
    """The copies move a tile into and out of the known alloca's buffers: with ``linalg.fill`` neither is there,
    with ``tensor.empty`` both stay (the copy then named by its dispatch's role)."""
    fill = case.graph.nodes[0]
    if not fill.attrs.get("generic"):
        return []
    copy = COPY if fill.attrs.get("init") == "value:a2" else COPY_BY_ROLE
    return [finding(copy, "d0"), finding(ALLOCA, where)]


def test_a_cause_that_comes_and_goes_with_a_known_one_in_its_dispatch_is_its_duplicate():
    table = experiment(splat_into_argument_case(), COPY, copies_of_a_known_stack_buffer, known=[ALLOCA])
    assert table.beside == (ALLOCA,)
    assert rows(table)["n0.outs=empty"] == f"other:{COPY_BY_ROLE}"  # the copies stay: "outs is an argument" is false
    assert rows(table)["n0.fill"] == "clean"  # the trigger is the splat generic
    verdict = X.judge(table)
    assert (verdict.verdict, verdict.of) == ("duplicate-of", ALLOCA) and verdict.by.startswith("n0.fill removes both")
    assert "With `linalg.fill` instead of the splat `linalg.generic` for n0, it has no buffer copy." in verdict.trigger


def test_a_known_cause_in_another_dispatch_is_only_the_nearest():
    rule = lambda case: copies_of_a_known_stack_buffer(case, where="d1")
    verdict = X.judge(experiment(splat_into_argument_case(), COPY, rule, known=[ALLOCA]))
    assert (verdict.verdict, verdict.nearest) == ("new", ALLOCA)
    assert verdict.why_not_nearest == f"`{ALLOCA}` shows beside it, but not in its dispatch"


def test_a_known_cause_the_target_shows_without_is_another_defect():
    def rule(case):
        found = copies_of_a_known_stack_buffer(case)
        return [f for f in found if f.cause != ALLOCA] if case.target_cpu == "generic" else found

    verdict = X.judge(experiment(splat_into_argument_case(), COPY, rule, known=[ALLOCA]))
    assert verdict.verdict == "new" and verdict.nearest == ALLOCA
    assert verdict.why_not_nearest.startswith("with `--iree-llvmcpu-target-cpu=generic` instead of `host`, this cause")


def test_a_cause_that_survives_names_its_nearest_known_cause_by_features():
    rule = lambda case: [] if case.graph.op_pattern == "fill" else [finding("numeric/wrong-value/fill>reduce_max")]
    table = experiment(fill_sum_case(), "numeric/wrong-value/fill>reduce_max", rule, known=[FILL_SUM])
    verdict = X.judge(table)
    assert verdict.verdict == "new" and verdict.line().startswith("a defect of its own")
    assert verdict.trigger == ("With n1 (reduce_sum) removed (n0 returned instead), its values are right.",)
    assert verdict.nearest == FILL_SUM and verdict.why_not_nearest.startswith(f"no variant lands in `{FILL_SUM}`")


def test_a_cpu_this_machine_cannot_run_is_not_judged_for_a_wrong_value_and_compiled_for_a_memory_op():
    cannot = lambda cpu: "x86-64-v3 (needs avx2, which host lacks)" if cpu == "x86-64-v3" else None
    calls: list = []
    table = X.run_experiments(
        fill_sum_case(), FILL_SUM, evaluate=fake(lambda c: [finding(FILL_SUM)], calls), cannot_run=cannot
    )
    assert rows(table)["cpu=x86-64-v3"] == "not-judged:x86-64-v3 (needs avx2, which host lacks): compiled only"
    assert "x86-64-v3" not in {c.target_cpu for c in calls}  # not even compiled: nothing to see without a run
    calls.clear()
    table = X.run_experiments(
        splat_into_argument_case(), COPY, evaluate=fake(copies_of_a_known_stack_buffer, calls), cannot_run=cannot
    )
    assert rows(table)["cpu=x86-64-v3"] == "same" and "x86-64-v3" in {c.target_cpu for c in calls}


def test_a_variant_its_oracle_could_not_judge_is_not_clean():
    def rule(case):
        if case.graph.op_pattern == "fill":
            return CaseResult(case, (), not_judged=("op linalg.fill",))  # a numeric gap
        if case.target_cpu == "generic":
            return CaseResult(case, (), not_judged=("memory: its IR cannot be read (x)",))  # another oracle's gap
        return [finding(FILL_SUM)]

    table = experiment(fill_sum_case(), FILL_SUM, rule)
    assert rows(table)["drop:n1"] == "not-judged:op linalg.fill"
    assert rows(table)["cpu=generic"] == "clean"
    assert X.judge(table).trigger == (
        "With `--iree-llvmcpu-target-cpu=generic` instead of `host`, its values are right.",
    )


def test_memory_variants_compile_one_module_each_and_the_others_together():
    batches: list[int] = []

    def evaluate(cases, config, policy, frontend):
        batches.append(len(cases))
        return [CaseResult(c, ()) for c in cases]

    X.run_experiments(fill_sum_case(), FILL_SUM, evaluate=evaluate, cannot_run=lambda cpu: None, limit=3)
    assert batches == [4]  # one call: the pipeline groups them into a module per configuration
    batches.clear()
    X.run_experiments(fill_sum_case(), COPY, evaluate=evaluate, cannot_run=lambda cpu: None, limit=3)
    assert batches == [1, 1, 1, 1]


# --------------------------------------------------------------------------- records: finding.json, ISSUE.md


def test_the_record_reads_back_and_writes_its_section_before_the_bisection():
    table = experiment(softmax_case(), STACK, softmax_outcomes, known=[WRITE], limit=3)
    found = json.loads(json.dumps(X.record(table)))  # as finding.json holds it
    assert X.ExperimentTable.from_json(found) == dataclasses.replace(table, seconds=round(table.seconds, 2))
    assert X.Verdict.from_json(found["verdict"]) == X.judge(table)
    issue = X.with_section("# t\n\n## Evidence\n\nx\n\n## Bisection\n\nNot run yet.\n", found)
    assert issue.index("## Evidence") < issue.index("## Experiments") < issue.index("## Bisection")
    section = X.section_lines(found)
    assert "| `rank+1` | a leading dim of size 3 more (rank 1 -> 2) | `known:" in "\n".join(section)
    assert f"**Verdict**: duplicate-of {WRITE} (by experiment: rank+1)." in section
    assert "- With `tensor.empty` instead of `%arg1` as the outs of n0 (softmax), it compiles and runs." in section
    assert "Not run: data-tiling=true: over the cap of 3; " in "\n".join(section)


def write_bundle(folder: Path, record: dict) -> None:
    _io.atomic_write_json(folder / "finding.json", {"signature": "x", "experiments": record})


def duplicate_record(target: str, of: str) -> dict:
    rows = (X.Row("as-given", "the program", X.Outcome("same")), X.Row("rank+1", "r", X.Outcome("known", of)))
    return X.record(X.ExperimentTable(target, rows))


def test_the_campaign_counts_a_duplicate_by_experiment_as_known_and_shows_its_table(tmp_path):
    run = old_run(tmp_path / "run")
    before = runs.open_run(run, baseline.Baseline())
    assert MUTATED in before.new_causes() and loop.exit_status(before) == 1
    write_bundle(before.bundle_dir(MUTATED), duplicate_record(MUTATED, "immutability/read-only-argument-written"))
    after = runs.open_run(run, baseline.Baseline())
    assert MUTATED not in after.new_causes() and after.new_causes()  # the other cause stays new
    summary = runs.write_outputs(run, after)
    row = next(c for c in summary["causes"] if c["id"] == MUTATED)
    assert (row["status"], row["verdict"]) == ("known", "duplicate-of")
    assert row["verdict_detail"] == "same mechanism as immutability/read-only-argument-written (by experiment: rank+1)"
    markdown = (run / "summary.md").read_text()
    assert "known: duplicate-of immutability/read-only-argument-written (by experiment: rank+1)" in markdown
    assert "#### Experiments" in markdown and "| `rank+1` | r | `known:" in markdown
    assert report.verdict(summary, row) == "known"


def test_after_bundling_the_run_is_red_only_for_a_cause_that_survived_its_experiments(tmp_path, monkeypatch):
    import subprocess

    from ireefuzz.tools.campaign import bundle_causes, bundling

    real = subprocess.run

    def fake_repro(command, **kwargs):  # ireefuzz repro, as a bundle with its experiments' verdict
        if "repro" not in command:
            return real(command, **kwargs)
        finding = json.loads(Path(command[4]).read_text())
        write_bundle(Path(command[6]), duplicate_record(finding["cause"], f"{finding['cause']}-known"))
        return subprocess.CompletedProcess(command, 0, "bundle written", "")

    monkeypatch.setattr(bundling.subprocess, "run", fake_repro)
    record = runs.open_run(old_run(tmp_path / "run"), baseline.Baseline())
    assert loop.exit_status(record) == 1
    after = bundle_causes(record, None, 10)
    assert after.new_causes() == [] and loop.exit_status(after) == 0
    index = (record.out / "bundles" / "index.md").read_text()
    assert f"experiments: duplicate-of {MUTATED}-known (by experiment: rank+1)" in index


def test_a_verdict_about_another_cause_or_a_new_one_changes_nothing(tmp_path):
    run = old_run(tmp_path / "run")
    record = runs.open_run(run, baseline.Baseline())
    write_bundle(record.bundle_dir(MUTATED), duplicate_record("immutability/other", "memory/alloca/x"))
    assert MUTATED in runs.open_run(run, baseline.Baseline()).new_causes()
    new = X.record(X.ExperimentTable(MUTATED, (X.Row("as-given", "p", X.Outcome("same")),)))
    write_bundle(record.bundle_dir(MUTATED), new)
    assert MUTATED in runs.open_run(run, baseline.Baseline()).new_causes()


def test_the_teams_own_verdict_comes_first(tmp_path):
    run = old_run(tmp_path / "run")
    team = baseline.Baseline.of([baseline.Known(MUTATED, "upstream", link="https://github.com/iree-org/iree/issues/1")])
    write_bundle(runs.open_run(run, team).bundle_dir(MUTATED), duplicate_record(MUTATED, "memory/alloca/x"))
    assert runs.open_run(run, team).baseline.causes[MUTATED].verdict == "upstream"


# --------------------------------------------------------------------------- raw programs: IR-level variants

ACCUMULATING = """func.func @f(%a: tensor<?x4xf16>, %acc: tensor<?xf16>) -> tensor<?xf16> {
  %r = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i)>],
                       iterator_types = ["parallel", "reduction"]}
      ins(%a : tensor<?x4xf16>) outs(%acc : tensor<?xf16>) {
  ^bb0(%x: f16, %o: f16):
    %s = arith.addf %x, %o : f16
    linalg.yield %s : f16
  } -> tensor<?xf16>
  return %r : tensor<?xf16>
}
"""
WIDENING = """func.func @g(%a: tensor<4xbf16>) -> tensor<4xf32> {
  %e = tensor.empty() : tensor<4xf32>
  %ninf = arith.constant 0xFF80 : bf16
  %r = linalg.generic {indexing_maps = [affine_map<(i) -> (i)>, affine_map<(i) -> (i)>], iterator_types = ["parallel"]}
      ins(%a : tensor<4xbf16>) outs(%e : tensor<4xf32>) {
  ^bb0(%x: bf16, %o: f32):
    %m = arith.maximumf %x, %ninf : bf16
    %w = arith.extf %m : bf16 to f32
    linalg.yield %w : f32
  } -> tensor<4xf32>
  return %r : tensor<4xf32>
}
"""


def test_an_argument_init_the_op_reads_becomes_a_filled_empty_sized_by_its_dims():
    (site,) = X.argument_inits(ACCUMULATING)
    assert (site.function, site.op, site.argument, site.dynamic, site.reads) == ("f", "linalg.generic", 1, (0,), True)
    text = X.with_empty_init(ACCUMULATING, site)
    assert text is not None
    assert "tensor.dim %arg1, %xf_init0_1_c0 : tensor<?xf16>" in text
    assert "%xf_init0_1_empty = tensor.empty(%xf_init0_1_d0) : tensor<?xf16>" in text
    assert "linalg.fill ins(%xf_init0_1_zero : f16) outs(%xf_init0_1_empty : tensor<?xf16>)" in text
    assert "outs(%xf_init0_1 : tensor<?xf16>)" in text and "outs(%arg1" not in text


UNPACKING = """func.func @main(%arg0: tensor<8x2xf32>, %arg1: tensor<15xf32>) -> tensor<15xf32> {
  %u = linalg.unpack %arg0 inner_dims_pos = [0] inner_tiles = [2] into %arg1 : tensor<8x2xf32> -> tensor<15xf32>
  return %u : tensor<15xf32>
}
"""


INSERTING = """func.func @main(%arg0: tensor<2xf32>, %arg1: tensor<15xf32>) -> tensor<15xf32> {
  %u = tensor.insert_slice %arg0 into %arg1[0] [2] [1] : tensor<2xf32> into tensor<15xf32>
  return %u : tensor<15xf32>
}
"""


def test_an_unpack_into_an_argument_gets_a_tensor_empty_destination():
    """The maintainer's review: the unpack bundle's trigger (into an argument, not into `tensor.empty`) was never
    tried, because only `outs(...)` was read as a destination; a pack / unpack's `into` is one too."""
    (site,) = X.argument_inits(UNPACKING)
    assert (site.op, site.argument, site.reads) == ("linalg.unpack", 1, False)
    text = X.with_empty_init(UNPACKING, site)
    assert text is not None and "into %arg1" not in text and "tensor.empty() : tensor<15xf32>" in text
    assert X.argument_inits(INSERTING) == []  # an insert keeps its destination's other elements: no empty for it


def test_a_program_is_widened_to_f32_with_its_literals_and_casts():
    text = X.widened_text(WIDENING)
    assert text is not None and "bf16" not in text and "f16" not in text
    assert "arith.constant 0xFF800000 : f32" in text  # -inf, as an f32 literal
    assert "arith.extf" not in text  # the cast that became f32 -> f32 went; its result renamed to its operand:
    assert re.search(r"(%\d+) = arith.maximumf [^\n]*\n\s*linalg.yield \1 : f32", text)
    assert X.widened_text(ACCUMULATING.replace("f16", "f32")) is None  # nothing narrow


def test_a_raw_program_gets_static_dims_its_argument_inits_a_rank_more_f32_and_the_cpus():
    from ireefuzz.core.frontends import program_cases

    (case,) = program_cases(ACCUMULATING)
    built = {e.label: e for kind in X.program_experiments(case) for e in kind}
    assert list(built) == [
        "static",
        "static:%arg0",
        "static:%arg1",
        "generic#0.outs=empty",
        "rank+1",
        "rank-1",
        "f32",
        "cpu=generic",
        "cpu=x86-64-v3",
    ]
    assert built["f32"].case.args[0].dtype == "f32" and built["f32"].case.args[0].shape == (33, 4)
    assert "(filled with zero: the op reads it)" in built["generic#0.outs=empty"].change
    assert built["rank+1"].case.args[0].shape == (X.EXTRA_DIM, 33, 4)
    assert (built["rank-1"].case, built["rank-1"].not_run) == (None, "a tensor without a static leading dim")
    picked, left = X.chosen(X.program_experiments(case), 12, running._identity)
    assert "rank-1: not built (a tensor without a static leading dim)" in left and built["rank-1"] not in picked


def test_dynamic_arguments_become_static_at_the_instance_sizes_through_a_cast_at_entry():
    """Issue 30: the out-of-bounds slice with a dynamic batch is the known error with a static one. The body is
    unchanged: the argument is cast back to its own type, and IREE folds the cast into its users."""
    from ireefuzz.core.frontends import program_cases

    (case,) = program_cases(ACCUMULATING, shapes=[(5, 4), (5,)])
    static = next(e for e in X.program_shape_experiments(case) if e.label == "static")
    text = static.case.program
    assert "func.func @f(%arg0: tensor<5x4xf16>, %arg1: tensor<5xf16>) -> tensor<?xf16>" in text
    assert "%xf_arg0 = tensor.cast %arg0 : tensor<5x4xf16> to tensor<?x4xf16>" in text
    assert "ins(%xf_arg0 : tensor<?x4xf16>) outs(%xf_arg1 : tensor<?xf16>)" in text
    assert static.change == "static argument types at the instance's sizes (`%arg0` ?x4 as 5x4, `%arg1` ? as 5)"
    assert [t.shape for t in static.case.args] == [(5, 4), (5,)]


def test_static_arguments_become_dynamic_with_a_cast_to_their_static_type_at_entry():
    from ireefuzz.core.frontends import program_cases

    (case,) = program_cases(WIDENING)
    (dynamic,) = X.program_shape_experiments(case)
    assert dynamic.label == "dynamic" and "func.func @g(%arg0: tensor<?xbf16>)" in dynamic.case.program
    assert "%xf_arg0 = tensor.cast %arg0 : tensor<?xbf16> to tensor<4xbf16>" in dynamic.case.program
    assert X.with_argument_types(WIDENING, "g", {0: (4,)}) is None  # nothing changes: no variant


RANKED = """func.func @r(%x: tensor<?x5xf32>, %out: tensor<?x5xf32>) -> (tensor<?x5xf32>, tensor<?xf32>) {
  %c0 = arith.constant 0 : index
  %n = tensor.dim %x, %c0 : tensor<?x5xf32>
  %s = linalg.softmax dimension(1) ins(%x : tensor<?x5xf32>) outs(%out : tensor<?x5xf32>) -> tensor<?x5xf32>
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty(%n) : tensor<?xf32>
  %acc = linalg.fill ins(%zero : f32) outs(%e : tensor<?xf32>) -> tensor<?xf32>
  %sum = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i)>],
                         iterator_types = ["parallel", "reduction"]}
      ins(%s : tensor<?x5xf32>) outs(%acc : tensor<?xf32>) {
  ^bb0(%a: f32, %o: f32):
    %t = arith.addf %a, %o : f32
    linalg.yield %t : f32
  } -> tensor<?xf32>
  return %s, %sum : tensor<?x5xf32>, tensor<?xf32>
}
"""


def test_a_rank_more_moves_every_dim_an_op_names():
    """Issue 30: the 1-D softmax over the stack limit is the known write-affecting error in 2-D; a leading dim on
    every tensor moves the softmax's dimension, the maps and iterators, and a `tensor.dim`'s index."""
    text, why = X.reranked_text(RANKED, "r", up=True, size=3)
    assert why == "" and text is not None
    assert (
        "func.func @r(%arg0: tensor<3x?x5xf32>, %arg1: tensor<3x?x5xf32>) -> (tensor<3x?x5xf32>, tensor<3x?xf32>)"
        in text
    )
    assert "linalg.softmax dimension(2) ins(%arg0 : tensor<3x?x5xf32>)" in text
    assert "tensor.dim %arg0, %xf_rank_c1 : tensor<3x?x5xf32>" in text and "%xf_rank_c1 = arith.constant 1" in text
    assert "affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1)>" in text
    assert 'iterator_types = ["parallel", "parallel", "reduction"]' in text
    back, why = X.reranked_text(text, "r", up=False)  # and back: the leading 3 is static and only ever parallel
    assert why == "" and back is not None and "linalg.softmax dimension(1) ins(%arg0 : tensor<?x5xf32>)" in back
    assert "affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>" in back


STATIC_LEADING = RANKED.replace("?x5", "4x5").replace("tensor<?xf32>", "tensor<4xf32>").replace("empty(%n)", "empty()")


def test_a_rank_less_drops_a_static_leading_parallel_dim_and_refuses_an_op_along_it():
    text, why = X.reranked_text(
        STATIC_LEADING.replace("  %n = tensor.dim %x, %c0 : tensor<4x5xf32>\n", ""), "r", up=False
    )
    assert why == "" and text is not None
    assert "-> (tensor<5xf32>, tensor<f32>)" in text and "linalg.softmax dimension(0)" in text
    assert "affine_map<(d0) -> (d0)>, affine_map<(d0) -> ()>" in text and 'iterator_types = ["reduction"]' in text
    assert X.reranked_text(STATIC_LEADING, "r", up=False) == (None, "an op works along the leading dim")  # tensor.dim 0
    along = STATIC_LEADING.replace("dimension(1)", "dimension(0)")
    assert X.reranked_text(along, "r", up=False) == (None, "an op works along the leading dim")
    conv = (Path(__file__).parent / "data/triage/conv_unit_output_static_batch.mlir").read_text()
    why = "`linalg.depthwise_conv_2d_nhwc_hwc` fixes its operands' ranks"
    assert X.reranked_text(conv, "main", up=True, size=3) == X.reranked_text(conv, "main", up=False) == (None, why)


# --------------------------------------------------------------------------- the real compiler


@pytest.mark.iree
def test_the_fill_sum_stays_wrong_with_dynamic_dims_and_goes_with_its_sum():
    table = X.run_experiments(fill_sum_case(), FILL_SUM, limit=4)
    assert rows(table) == {
        "as-given": "same",
        "dynamic": "same",
        "n0.generic": "same",
        "n0.producer=argument": "clean",  # the sum of an argument is right: the splat is needed
        "drop:n1": "clean",
    }
    assert X.judge(table).trigger == (
        "With n0 (a `linalg.fill`) read from a new argument, its values are right.",
        "With n1 (reduce_sum) removed (n0 returned instead), its values are right.",
    )


@pytest.mark.iree
def test_a_1d_softmax_over_the_stack_limit_is_the_known_write_affecting_error_in_2d():
    table = X.run_experiments(softmax_case(), STACK, limit=3)
    assert rows(table) == {"as-given": "same", "static": "clean", "n0.outs=empty": "clean", "rank+1": f"known:{WRITE}"}
    assert X.judge(table).line() == f"duplicate-of {WRITE} (by experiment: rank+1)"


@pytest.mark.iree
def test_an_out_of_bounds_slice_with_a_dynamic_batch_is_the_known_unit_output_conv_error_with_a_static_one():
    image, window, out = T(("N", 4, 1, 1), "f32"), T((3, 1, 1), "f32"), T(("N", 1, 1, 1), "f32")
    attrs = {"strides": [2, 2], "dilations": [1, 1]}
    g = Graph((image, window, out), (Node("depthwise_conv_2d_nhwc_hwc", ("a0", "a1", "a2"), attrs, out),), ("n0",))
    case = Case(g.check(), ({"N": 2},))
    (found,) = evaluate_case(case)
    table = X.run_experiments(case, found.cause, limit=1)
    fold = "crash/compile-error/linalg.generic-op-inferred-operand-has-shape-s-dimension-to-be-but-found@"
    assert rows(table)["static"].startswith(f"known:{fold}")
    assert X.judge(table).line().startswith(f"duplicate-of {fold}") and X.judge(table).by == "static"


def evaluate_case(case):
    from ireefuzz.core.evaluate import evaluate

    return evaluate([case])[0].findings


@pytest.mark.iree
def test_an_argument_written_in_place_is_cured_by_tensor_empty():
    g = Graph(
        (T((8, 8), "i32"), T((8,), "i32")),
        (Node("reduce_sum", ("a0",), {"dim": 1, "init": "value:a1"}, T((8,), "i32")),),
        ("n0",),
    )
    table = X.run_experiments(Case(g.check(), ({},)), "immutability/dps-init-written-in-place", limit=2)
    assert rows(table)["as-given"] == "same" and rows(table)["n0.outs=empty"] == "clean"
    assert "With `tensor.empty` instead of `%arg1` as the outs of n0 (reduce_sum), its inputs stay unchanged." in (
        X.judge(table).trigger
    )


@pytest.mark.iree
def test_repro_records_the_experiments_in_finding_json_and_issue_md(tmp_path):
    from ireefuzz.core.evaluate import evaluate
    from ireefuzz.tools.filing.repro import shrink_and_bundle

    (found,) = evaluate([softmax_case()])[0].findings
    result = shrink_and_bundle(found, tmp_path / "bundle", shrink=False, confirm_runs=1, experiments=3)
    tried = json.loads((result.path / "finding.json").read_text())["experiments"]
    assert tried["verdict"]["line"] == f"duplicate-of {WRITE} (by experiment: rank+1)"
    issue = result.path / "ISSUE.md"
    if issue.exists():  # (written when run.sh shows the bug)
        assert "## Experiments" in issue.read_text() and "| `rank+1` |" in issue.read_text()


@pytest.mark.iree
def test_a_raw_programs_argument_init_at_ir_level():
    from ireefuzz.core.frontends import program_cases
    from ireefuzz.generators.emit import emit

    (case,) = program_cases(emit(softmax_case().graph, "main").text, shapes=[(33,), (33,)])
    table = X.run_experiments(case, STACK, limit=3)
    assert rows(table) == {
        "as-given": "same",
        "static": "clean",
        "softmax#2.outs=empty": "clean",
        "rank+1": f"known:{WRITE}",
    }
    assert X.judge(table).line() == f"duplicate-of {WRITE} (by experiment: rank+1)"


# --------------------------------------------------------------------------- a degenerate size is no static cure


def test_a_static_variant_at_a_unit_size_is_repeated_one_size_up():
    """Round F (seed 83329, x86-64-v2): "with static dims it compiles" held only because M=1 shrank the gathered
    source to one element; static at M=2 fails the same way. The static variant gets a twin one size up."""
    built = {e.label: e for kind in X.graph_experiments(softmax_case(instance={"D": 1})) for e in kind}
    twin = built["static" + X.EDGE_UP]
    assert twin.case.graph.args[0].shape == (2,) and twin.case.instances == ({},)
    assert twin.change == "every dim static, with D=2 (one size up)"
    assert built["static"].case.graph.args[0].shape == (1,)
    assert "static" + X.EDGE_UP not in labels(softmax_case())  # D=33: no edge, no twin


def test_a_static_cure_whose_twin_one_size_up_fails_is_not_the_trigger():
    target = "crash/compile-error/llvm-translation-failed@iree-convert-to-llvm"
    rows = lambda twin: (
        X.Row("as-given", "the program", X.Outcome("same")),
        X.Row("static", "every dim static at the instance's sizes (M=1)", X.Outcome("clean")),
        X.Row("static" + X.EDGE_UP, "every dim static, with M=2 (one size up)", X.Outcome(twin)),
    )
    degenerate = X.judge(X.ExperimentTable(target, rows("same")))
    (said,) = degenerate.trigger
    assert said.endswith("it fails the same way: the empty or unit size avoids it, not the static dims."), said
    assert X.degenerate_cures(rows("same")) == {"static"}
    cured, _ = X.judge(X.ExperimentTable(target, rows("clean"))).trigger  # both clean: the static dims cure it
    assert cured.startswith("With every dim static at the instance's sizes (M=1), ") and "unit" not in cured
    assert X.degenerate_cures(rows("clean")) == set()


def test_a_raw_programs_static_variant_at_a_unit_size_gets_its_twin_one_size_up():
    from ireefuzz.core.frontends import program_cases

    (case,) = program_cases(ACCUMULATING, shapes=[(1, 4), (1,)])
    built = {e.label: e for e in X.program_shape_experiments(case)}
    twin = built["static" + X.EDGE_UP]
    assert "func.func @f(%arg0: tensor<2x4xf16>, %arg1: tensor<2xf16>) -> tensor<?xf16>" in twin.case.program
    assert [t.shape for t in twin.case.args] == [(2, 4), (2,)]
    assert twin.change == "static argument types one size up (`%arg0` as 2x4, `%arg1` as 2)"
    (case,) = program_cases(ACCUMULATING, shapes=[(5, 4), (5,)])
    assert "static" + X.EDGE_UP not in {e.label for e in X.program_shape_experiments(case)}


SPLIT = "memory/alloca/padded-transfer-split"
VVL = "iree-llvmcpu-virtual-vector-lowering"


def _pack_alloca(culprit: str, localized: dict[str, str]) -> X.ExperimentTable:
    """Round H's x86-64-v3 candidate: a padded linalg.pack's 512 B stack buffer (memory/alloca/data-movement@
    DataTiling), no variant landing anywhere; its culprit localized to the transfer split (``with_culprit``)."""
    rows = (
        X.Row("as-given", "the program", X.Outcome("same")),
        X.Row("cpu=generic", "g", X.Outcome("same")),
        X.Row("cpu=host", "h", X.Outcome("same")),
    )
    table = X.ExperimentTable("memory/alloca/data-movement@DataTiling", rows, localized=localized)
    return dataclasses.replace(table, culprit=culprit)


def test_a_localized_culprit_makes_the_candidate_the_one_known_cause_of_its_oracle_from_that_pass():
    """A memory or fusion id names a pipeline, no pass: once the bundle localizes the candidate, a known cause with
    the same oracle and culprit pass family is its mechanism, whatever op or pipeline showed it."""
    key = X.mechanism_key("memory", VVL)
    verdict = X.judge(_pack_alloca(VVL, {SPLIT: key}))
    assert (verdict.verdict, verdict.of) == ("duplicate-of", SPLIT)
    assert VVL in verdict.by
    assert X.judge(_pack_alloca("", {SPLIT: key})).verdict == "new"  # not localized: no evidence
    assert X.judge(_pack_alloca("iree-codegen-generic-vectorization", {SPLIT: key})).verdict == "new"
    assert X.judge(_pack_alloca(VVL, {SPLIT: key, "memory/alloca/other": key})).verdict == "new"  # not one
    assert X.judge(_pack_alloca(VVL, {SPLIT: X.mechanism_key("crash", VVL)})).verdict == "new"  # another oracle
    assert X.mechanism_key("crash", "iree-hal-serialize-target-executables") == ""  # a reporting pass


def test_the_shipped_baseline_resolves_a_localized_stack_buffer_to_one_known_class():
    """Round H: a padded pack's transfer-split stack buffer, localized at the split, is that known class."""
    known = baseline.load(Path(__file__).parents[1] / "corpus" / "known_findings.json")
    table = dataclasses.replace(_pack_alloca(VVL, X.localized_mechanisms(known)), target="memory/alloca/x@Default")
    assert X.judge(table).of == SPLIT


def test_a_stack_buffer_first_seen_at_bufferization_is_no_known_class_by_that_alone():
    """Bufferization gives a stack buffer to whatever tile an earlier pass left a tensor (``reports_only``): stop 43
    called an f16 max reduction left unvectorized (its body expanded to f32; f32 and f16 add are clean, stock tools)
    #8303's duplicate by that pass alone. Round I's rule (every tile bufferization stages is #8303 / #20792's
    class) is gone: such a candidate needs a variant that lands in the known cause, or its recorded cure."""
    known = baseline.load(Path(__file__).parents[1] / "corpus" / "known_findings.json")
    bufferize = "iree-codegen-iree-comprehensive-bufferize"
    table = _pack_alloca(bufferize, X.localized_mechanisms(known))
    table = dataclasses.replace(table, target="memory/alloca/elementwise@DoubleTilingExpert")
    assert X.mechanism_key("memory", bufferize) == "" and X.mechanism_key("crash", bufferize) != ""
    assert X.judge(table).verdict == "new"


def test_a_raw_program_gets_each_result_dropped_with_what_only_it_feeds():
    """Issue 30's "each consumer removed" at IR level: round H's transpose of a two-result generic (docs/repros)
    compiles without the transpose (output 0) and without the generic's other result (output 1): its trigger."""
    from ireefuzz.core.frontends import program_cases

    text = (
        Path(__file__).parents[1] / "docs" / "repros" / "transpose_of_a_multi_result_generic_invalid_yield.mlir"
    ).read_text()
    (case,) = program_cases(text)
    dropped = {e.label: e for e in X.program_result_experiments(case)}
    assert set(dropped) == {"drop:output0", "drop:output1"}
    assert "linalg.transpose" not in dropped["drop:output0"].case.program
    assert "linalg.transpose" in dropped["drop:output1"].case.program
    assert "drop:output0" in [e.label for kind in X.program_experiments(case) for e in kind]
    from ireefuzz.tools.shrink.mlir import result_count, without_result

    assert result_count("not mlir", "main") == 0 and without_result("not mlir", "main", 0) is None


def test_a_cause_its_bundle_lost_alone_is_listed_not_red(tmp_path):
    """Round I (host, seed 91377): a materialized iota seen only in a batched module reproduced 0/3 alone and was
    still the run's one new cause. A cause whose bundle's confirmation lost it is not confirmed: the summary lists
    it, the exit status does not count it."""
    run = old_run(tmp_path / "run")
    record = runs.open_run(run, baseline.Baseline())
    folder = record.bundle_dir(MUTATED)
    folder.mkdir(parents=True)
    (folder / "finding.json").write_text(json.dumps({"status": "lost", "confirm": "0/3"}))
    after = runs.open_run(run, baseline.Baseline())
    assert MUTATED not in after.new_causes() and after.summary()["unreproduced"] == [MUTATED]
    assert f"not reproduced alone (not red): `{MUTATED}`" in report.markdown(after.summary())
    (folder / "finding.json").write_text(json.dumps({"status": "confirmed", "confirm": "3/3"}))
    assert MUTATED in runs.open_run(run, baseline.Baseline()).new_causes()
    (folder / "finding.json").unlink()  # stop 46: a first judgement (its case as found, once) that lost it too
    judged = record.first_judgement_dir(MUTATED)
    judged.mkdir(parents=True)
    (judged / "finding.json").write_text(json.dumps({"status": "lost", "confirm": "0/1"}))
    assert runs.open_run(run, baseline.Baseline()).summary()["unreproduced"] == [MUTATED]


def test_a_cure_recorded_for_another_oracles_known_bug_counts_from_the_same_pass_only():
    """Round J (host, seed 48611): the fill-sum's root cause crashed vectorization instead ('vector.multi_reduction'
    op reduction dimension out of range) when the folded body reads only the reduction index. Its fill read from an
    argument is right, the fill-sum's recorded cure: from the same pass it is that bug, from another pass it is not."""
    target = (
        "crash/compile-error/vector.multi_reduction-op-reduction-dimension-out-of-range"
        "@iree-codegen-generic-vectorization"
    )
    rows = (
        X.Row("as-given", "the program", X.Outcome("same")),
        X.Row("n0.producer=argument", "n0 read from a new argument", X.Outcome("clean")),
        X.Row("cpu=generic", "g", X.Outcome("same")),
    )
    cures = {"producer=argument": (FILL_SUM,)}
    same = X.ExperimentTable(target, rows, cures=cures, families={FILL_SUM: "iree-codegen-generic-vectorization"})
    assert (X.judge(same).verdict, X.judge(same).of) == ("duplicate-of", FILL_SUM)
    other = dataclasses.replace(same, families={FILL_SUM: "tiling"})
    assert X.judge(other).verdict == "new"
    known = baseline.load(Path(__file__).parents[1] / "corpus" / "known_findings.json")
    assert known.cures().get("producer=argument") == (FILL_SUM,)


def test_a_bundle_that_settles_its_cause_frees_its_slot_for_the_next(tmp_path, monkeypatch):
    """Round K (host, seed 35117): --bundles 6 went to six causes the experiments then made duplicates, and three
    new causes stayed unbundled, so the nightly was red for them. --bundles N counts the causes that stay new."""
    import types as _types

    from ireefuzz.tools.campaign import bundling

    run = old_run(tmp_path / "run")
    record = runs.open_run(run, baseline.Baseline())
    first, second = [r.id for r in bundling.rank(record)]
    settled = record.bundle_dir(first)
    settled.mkdir(parents=True)
    (settled / "finding.json").write_text(json.dumps({"status": "lost", "confirm": "0/3"}))
    bundled = []

    def repro(command, **_):  # the repro process: a confirmed bundle of a cause that stays new
        out = Path(command[command.index("--out") + 1])
        out.mkdir(parents=True, exist_ok=True)
        (out / "finding.json").write_text(json.dumps({"status": "confirmed", "confirm": "3/3"}))
        bundled.append(out.name)
        return _types.SimpleNamespace(stdout="", stderr="")

    monkeypatch.setattr(bundling.subprocess, "run", repro)
    assert bundling.bundle_new_causes(record, 1, 10.0) == [second]  # the settled one is not judged again
    assert bundled == [record.bundle_dir(second).name]
    assert bundling.bundle_new_causes(runs.open_run(run, baseline.Baseline()), 1, 10.0) == []  # its one slot is used


def test_a_bundle_another_bundled_cause_makes_a_duplicate_does_not_fill_a_slot(tmp_path):
    """Stop 45: --bundles N counted a bundle the run's cross-bundle rule then made another cause's duplicate (with
    a consumer removed it failed as that cause) as a slot filled, so fewer than N causes stayed new and bundled."""
    from ireefuzz.tools.campaign import bundling

    lead, through = "numeric/wrong-value/pow_int", "numeric/wrong-value/pow_int>max"

    def bundle(cause: str, *rows: X.Row) -> Path:
        folder = tmp_path / cause.replace("/", "_")
        folder.mkdir()
        table = X.ExperimentTable(cause, (X.Row("as-given", "p", X.Outcome("same")), *rows))
        (folder / "finding.json").write_text(json.dumps({"status": "confirmed", "experiments": X.record(table)}))
        return folder

    dropped = X.Row("drop:n1", "n1 (max) removed", X.Outcome("other", lead))
    bundles = {through: bundle(through, dropped), lead: bundle(lead)}
    assert X.judge(X.ExperimentTable(through, (dropped,))).verdict == "new"  # new by its own experiments
    assert bundling.surviving(bundles) == [lead]
    assert bundling.surviving({through: bundles[through]}) == [through]  # alone it is still new


def test_host_is_described_by_the_features_it_adds_to_the_cpu_it_is_named_after(monkeypatch):
    """The review: "host (`rocketlake` here) compiles it" misled, as `-cpu=rocketlake` fails; this host compiles it
    only for its +avx512fp16, which the named CPU lacks."""
    from ireefuzz import sut
    from ireefuzz.sut.results import CpuInfo

    cpus = {
        "host": CpuInfo("host", "rocketlake", "+avx2,+avx512f,+avx512fp16,+64bit"),
        "rocketlake": CpuInfo("rocketlake", "rocketlake", "+avx2,+avx512f,+64bit"),
    }
    monkeypatch.setattr(sut, "resolve_platform", lambda config: (cpus[config.target_cpu], "3.13"))
    said = X.host_description()
    assert said == "`rocketlake` with `+avx512fp16` beyond `-cpu=rocketlake`", said
    assert X.host_named("host") == " (here `rocketlake`)"  # its features once, in the report's CPU line
    assert X.host_named("x86-64-v3") == ""


def test_an_argument_an_op_updates_in_place_is_tried_through_a_computed_value():
    """Stop 45: a shift of an argument wrote the caller's buffer; the engineer's first variant computes the operand
    (``a + a``), which moves the failure off the argument."""
    t = T(("N",), "f32")
    shift = Graph((t,), (Node("shift", ("a0",), {"by": [1], "backward": False}, t),), ("n0",))
    (computed,) = [
        e for kind in X.graph_experiments(Case(shift.check(), ({"N": 8},))) for e in kind if e.label == "a0.computed"
    ]
    assert [(n.op, n.inputs) for n in computed.case.graph.nodes] == [("add", ("a0", "a0")), ("shift", ("n0",))]
    read = Graph((t,), (Node("exp", ("a0",), {}, t),), ("n0",))  # an op that only reads its operand: no variant
    assert "a0.computed" not in labels(Case(read.check(), ({"N": 8},)))


@pytest.mark.iree
def test_a_shift_of_an_argument_is_the_missing_clone_and_computed_it_is_the_overlapping_copy():
    """Two bugs, as both stop 45 outsiders had it: the argument written is #16168's missing clone (the static shift
    lands in it), and with the operand computed the same shift fails the runtime's overlap check."""
    t = T(("N",), "f32")
    g = Graph((t,), (Node("shift", ("a0",), {"by": [1], "backward": False}, t),), ("n0",))
    table = X.run_experiments(Case(g.check(), ({"N": 8},)), "immutability/read-only-argument-written", limit=3)
    overlap = "crash/runtime-fault/invalid_argument-source-and-target-ranges-overlap-within-the-same-buffer"
    assert rows(table)["a0.computed"] == f"known:{overlap}"
    assert X.judge(table).line() == "duplicate-of immutability/dps-init-written-in-place (by experiment: static)"


def test_an_argument_written_that_moves_with_its_operand_is_the_cause_it_moves_to():
    """With nothing of its own mechanism met, an argument written whose operand, computed, fails as a known cause is
    that cause's duplicate (the argument was where that failure wrote)."""
    t = T(("N",), "f32")
    case = Case(Graph((t,), (Node("shift", ("a0",), {"by": [1], "backward": False}, t),), ("n0",)).check(), ({"N": 8},))
    wrote, crashed = "immutability/read-only-argument-written", "crash/runtime-fault/overlap"
    rule = lambda c: [finding(crashed)] if c.graph.nodes[0].op == "add" else [finding(wrote)]
    verdict = X.judge(experiment(case, wrote, rule, known=[crashed], limit=3))
    assert (verdict.verdict, verdict.of) == ("duplicate-of", crashed) and verdict.by.startswith("a0.computed")
    assert X.judge(experiment(case, wrote, lambda c: [finding(wrote)], known=[crashed], limit=3)).verdict == "new"


def test_the_shipped_masked_contract_error_does_not_claim_another_check_of_its_pass():
    """Stop 45's outsider: a static one-sided contraction's invalid vector.contract (no mask at all) was called the
    masked contract bundle's duplicate by its pass alone; a second error of that pass in its own words still is."""
    shipped = baseline.load(baseline.DEFAULT_BASELINE)
    drop = "iree-codegen-drop-vector-unit-dims"
    other = f"crash/compile-error/vector.contract-op-invalid-vector-shape@{drop}"
    own = f"crash/compile-error/vector.mask-op-expects-a-mask-for-the-maskable-operation@{drop}"
    assert shipped.matches("crash", drop, other) == []
    assert [k.cause for k in shipped.matches("crash", drop, own)] == [own]


def test_a_localized_compile_error_is_no_known_error_of_its_pass_in_other_words():
    """Stop 45's re-triage still called the one-sided contraction the masked contract's bug, by the bundle's
    localized culprit (drop-vector-unit-dims) alone; in that error's own words it still is."""
    known = baseline.load(baseline.DEFAULT_BASELINE)
    drop = "iree-codegen-drop-vector-unit-dims"
    table = dataclasses.replace(
        _pack_alloca(drop, X.localized_mechanisms(known)), target=f"crash/compile-error/x@{drop}"
    )
    other = dataclasses.replace(table, target=f"crash/compile-error/vector.contract-op-invalid-vector-shape@{drop}")
    assert X.judge(other).verdict == "new"
    own = f"crash/compile-error/vector.mask-op-expects-a-mask-for-the-maskable-operation@{drop}"
    same = dataclasses.replace(table, target=own.replace("maskable-operation", "maskable-op"))
    assert X.judge(same).of == own
