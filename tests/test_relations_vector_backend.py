"""The vector-width and backend relations (iree-org/iree#23952, #24927): their judging on recorded observations
(fault injection), their variants and the host-feature guard, the causes their findings get, and (marked iree)
each on the real compiler, clean and with a deliberately different program compiled for one side."""

from __future__ import annotations

import dataclasses

import numpy as np
import pytest

from ireefuzz import sut
from ireefuzz.core import relations as rel
from ireefuzz.generators.case import Case
from ireefuzz.generators.graph import Graph, Node
from ireefuzz.generators.graph import TensorType as T
from ireefuzz.oracles import metamorphic as mm
from ireefuzz.oracles.cause import cause_of

GRAPH = Graph(
    (T((6, 10), "f32"),),
    (Node("exp", ("a0",), {}, T((6, 10), "f32")),),
    ("n0",),
).check()
TRUTH = np.exp(np.linspace(-2, 2, 60).reshape(6, 10))
FLOAT64 = [([TRUTH], [np.zeros_like(TRUTH)])]  # per instance: outputs, error bounds
RTOLS = [1e-5]


def out(label, array=None, failure=""):
    value = np.asarray(TRUTH if array is None else array, np.float32)
    return mm.Observation(label, None if failure else ((value,),), failure=failure)


def wrong(at=(3, 4), by=0.25):
    x = TRUTH.copy()
    x[at] += by
    return x


def judge(*observations, relation="backend", float64=FLOAT64):
    return mm.compare_observations(
        relation, observations, GRAPH, numbers=[True] * len(observations), rtols=RTOLS, float64=float64
    )


def dot_exp(m=33, k=16, n=49, last="exp") -> Graph:
    return Graph(
        (T((m, k), "f32"), T((k, n), "f32")),
        (
            Node("fill", (), {"shape": [m, n], "dtype": "f32", "value": 0.0}, T((m, n), "f32")),
            Node("matmul", ("a0", "a1", "n0"), {}, T((m, n), "f32")),
            Node(last, ("n1",), {}, T((m, n), "f32")),
        ),
        ("n2",),
    ).check()


# --------------------------------------------------------------------------- the arbiter's verdicts


@pytest.mark.parametrize(
    "llvm, vmvx, kind, says",
    [
        (wrong(), None, "wrong-in-codegen", "llvm-cpu wrong, vmvx right: a codegen bug"),
        (None, wrong(), "wrong-in-other-backend", "vmvx wrong, llvm-cpu right"),
        (wrong(), wrong(), "wrong-before-dispatch-formation", "both wrong, alike: before dispatch formation"),
        (wrong(by=0.25), wrong(by=-0.5), "wrong-in-both-backends", "both wrong, differently"),
    ],
)
def test_the_arbiter_says_which_backend_is_wrong(llvm, vmvx, kind, says):
    (f,) = judge(out("llvm-cpu", llvm), out("vmvx", vmvx))
    assert f.kind == kind and f.message.startswith(says)
    assert f.signature == f"metamorphic/{kind}/exp[backend:vmvx]/f32/SxS"
    assert f.evidence["index"] == [3, 4] and f.evidence["values"]["float64"] == pytest.approx(TRUTH[3, 4])
    assert set(f.evidence["wrong"]) == {label for label, x in (("llvm-cpu", llvm), ("vmvx", vmvx)) if x is not None}


def test_agreeing_backends_and_a_difference_the_bound_explains_are_clean():
    assert judge(out("llvm-cpu"), out("vmvx", TRUTH * (1 + 2**-22))) == []
    loose = [([TRUTH], [np.full_like(TRUTH, 1.0)])]  # an error bound of 1: a 0.25 gap is ill-conditioned here
    assert judge(out("llvm-cpu", wrong()), out("vmvx"), float64=loose) == []


def test_without_the_arbiter_the_backends_are_compared_with_each_other():
    (f,) = judge(out("llvm-cpu", wrong()), out("vmvx"), float64=None)
    assert f.kind == "output-mismatch"


def test_an_opinion_that_failed_is_no_finding_but_the_system_under_test_failing_is():
    assert judge(out("llvm-cpu"), out("vmvx", failure="compile error: vmvx cannot lower this")) == []
    (f,) = judge(out("llvm-cpu", failure="run fault: boom"), out("vmvx"))
    assert f.kind == "variant-failed" and f.signature == "metamorphic/variant-failed/exp[backend:llvm-cpu]/f32/SxS"


def test_vector_width_compares_numbers_and_failures_not_profiles():
    native = mm.Observation("cpu=host", ((np.float32(TRUTH),),), {"alloca": 0})
    narrow = mm.Observation("width=8", ((np.float32(wrong()),),), {"alloca": 2})
    (f,) = judge(native, narrow, relation="vector-width")
    assert (
        f.kind == "output-mismatch" and f.signature == "metamorphic/output-mismatch/exp[vector-width:width=8]/f32/SxS"
    )
    assert judge(native, dataclasses.replace(narrow, outputs=native.outputs), relation="vector-width") == []
    assert [f.kind for f in judge(native, narrow, relation="shape")] == ["alloca-asymmetry", "output-mismatch"]
    (f,) = judge(native, mm.Observation("cpu=x86-64-v4", failure="compile crash: LLVM ERROR"), relation="vector-width")
    assert f.kind == "variant-failed" and "[vector-width:cpu=x86-64-v4]" in f.signature


# --------------------------------------------------------------------------- causes (oracles.cause's own rule)


def test_the_findings_get_relation_level_causes():
    (codegen,) = judge(out("llvm-cpu", wrong()), out("vmvx"))
    (shared,) = judge(out("llvm-cpu", wrong()), out("vmvx", wrong()))
    (narrow,) = judge(out("cpu=host"), out("width=8", wrong()), relation="vector-width")
    assert cause_of(codegen).id == "metamorphic/wrong-in-codegen/elementwise[backend:vmvx]"
    assert cause_of(codegen).title.startswith("Wrong in codegen of a")
    assert cause_of(codegen).title.endswith("graph under the backend relation (vmvx)")
    assert cause_of(shared).id == "metamorphic/wrong-before-dispatch-formation/elementwise[backend:vmvx]"
    assert cause_of(narrow).id == "metamorphic/output-mismatch/elementwise[vector-width:width=8]"
    crashed = judge(
        out("cpu=host"),
        out("cpu=x86-64-v4", failure="compile crash: LLVM ERROR: Cannot select"),
        relation="vector-width",
    )
    assert cause_of(crashed[0]).oracle == "crash"  # the variant's own crash is a crash cause


# --------------------------------------------------------------------------- variants and the host guard

AVX2 = "+avx,+avx2,+fma,+sse,+sse2,+sse4.2"
FEATURES = {"host": AVX2, "generic": "", "x86-64-v2": "+sse,+sse2,+sse4.2", "x86-64-v3": AVX2}
FEATURES["x86-64-v4"] = AVX2 + ",+avx512f,+avx512bw"


class Toolchain:
    known_flags = frozenset({rel.VECTOR_WIDTH_FLAG})


@pytest.fixture
def resolved(monkeypatch):
    """resolve_platform answering from ``FEATURES`` (the host's entry can be changed), a compiler that takes
    the width flag, and x86-64 as the machine."""
    features = dict(FEATURES)
    monkeypatch.setattr(
        sut, "resolve_platform", lambda c: (sut.CpuInfo(c.target_cpu, c.target_cpu, features[c.target_cpu]), "v")
    )
    monkeypatch.setattr(sut, "toolchain_of", lambda config: Toolchain())
    monkeypatch.setattr(rel.platform, "machine", lambda: "x86_64")
    return features


def test_vector_width_variants_and_code_this_host_cannot_run_compiled_only(resolved):
    case = Case(GRAPH, ({},), flags=("--iree-opt-data-tiling=false",))
    variants = rel.vector_width_variants(case, sut.CompilerConfig())
    assert [v.label for v in variants] == [
        "cpu=host",
        "width=8",
        "width=16",
        "width=64",
        "cpu=x86-64-v2",
        "cpu=x86-64-v3",
        "cpu=x86-64-v4",
    ]
    assert variants[1].case.flags == ("--iree-opt-data-tiling=false", f"{rel.VECTOR_WIDTH_FLAG}=8")
    assert [v.label for v in variants if v.not_run] == ["cpu=x86-64-v4"]
    assert variants[-1].not_run == "x86-64-v4 needs CPU features host lacks" and not variants[-1].numbers
    resolved["host"] = FEATURES["x86-64-v4"]  # an AVX-512 host runs it all
    assert not any(v.not_run for v in rel.vector_width_variants(case, sut.CompilerConfig()))


def test_vector_width_variants_follow_the_compiler_and_the_machine(resolved, monkeypatch):
    case = Case(GRAPH, ({},), target_cpu="x86-64-v3")
    labels = [v.label for v in rel.vector_width_variants(case, sut.CompilerConfig())]
    assert "cpu=x86-64-v3" in labels and labels.count("cpu=x86-64-v3") == 1  # the case's own CPU once
    monkeypatch.setattr(rel.platform, "machine", lambda: "aarch64")  # no x86-64 levels elsewhere
    assert [v.label for v in rel.vector_width_variants(case, sut.CompilerConfig())][-1] == "width=64"
    monkeypatch.setattr(Toolchain, "known_flags", frozenset())  # a release without the flag
    assert [v.label for v in rel.vector_width_variants(case, sut.CompilerConfig())] == ["cpu=x86-64-v3"]


def test_a_compiled_only_variant_is_never_run_and_its_numbers_not_judged(resolved, monkeypatch):
    ran = {}

    def observe(variant, config, *, run=True):
        ran[variant.label] = run
        garbage = ((np.zeros((6, 10), np.float32),),)  # what a wrong (or SIGILL-free) run would have given
        return mm.Observation(variant.label, garbage if variant.not_run else ((np.float32(TRUTH),),))

    monkeypatch.setattr(rel, "observe", observe)
    verdict = rel.judge_relation("vector-width", Case(GRAPH, ({},)), jobs=1)
    assert ran["cpu=x86-64-v4"] is False and all(r for label, r in ran.items() if label != "cpu=x86-64-v4")
    assert verdict.findings == ()
    assert verdict.not_judged == (
        "vector-width cpu=x86-64-v4: compiled only, numbers not judged (x86-64-v4 needs CPU features host lacks)",
    )


def test_backend_variants_select_vmvx_alone():
    (llvm, vmvx) = rel.backend_variants(Case(GRAPH, ({},), flags=("--iree-opt-level=O1",)))
    assert (llvm.label, vmvx.label) == ("llvm-cpu", "vmvx")
    assert vmvx.case.flags == ("--iree-opt-level=O1", "--iree-hal-target-backends=vmvx")
    flags = sut.target_flags("host", vmvx.case.flags)
    assert [f for f in flags if f.startswith("--iree-hal-target-backends")] == ["--iree-hal-target-backends=vmvx"]
    assert sut.target_flags("host")[0] == "--iree-hal-target-backends=llvm-cpu"


def test_no_vmvx_opinion_on_16_bit_floats_and_a_failed_one_is_not_judged_by_its_gist(monkeypatch):
    half = Graph((T((6, 10), "f16"),), (Node("exp", ("a0",), {}, T((6, 10), "f16")),), ("n0",)).check()
    assert [v.label for v in rel.backend_variants(Case(half, ({},)))] == ["llvm-cpu"]  # the VM has no f16
    diagnostic = (
        "compile error: /tmp/ireefuzz-pid1-x/configurations/m.mlir:9:8: error: failed to legalize operation "
        "'arith.constant' that was explicitly marked illegal: %8 = \"arith.constant\"() : () -> i1\n"
        "/tmp/m.mlir:7:4: error: conversion to vm.module failed"
    )
    monkeypatch.setattr(
        rel,
        "observe",
        lambda v, config, *, run=True: out(v.label, failure=diagnostic if v.label == "vmvx" else ""),
    )
    monkeypatch.setattr(rel, "float64_outputs", lambda case: FLOAT64)
    verdict = rel.judge_relation("backend", Case(GRAPH, ({},)), jobs=1)
    assert verdict == rel.Verdict(
        (),
        (
            "backend vmvx: no opinion (compile error: failed to legalize operation 'arith.constant' that was "
            "explicitly marked illegal)",
        ),
    )


def test_the_relations_are_choices():
    from ireefuzz.core.evaluate import Policy

    assert {"vector-width", "backend"} <= set(mm.RELATIONS)
    assert Policy(relations=("vector-width", "backend")).relations == ("vector-width", "backend")


# --------------------------------------------------------------------------- real IREE


@pytest.mark.iree
def test_vector_width_relation_on_the_real_compiler_clean_and_with_a_different_program():
    case = Case(dot_exp(), ({},))
    variants = {v.label: v for v in rel.vector_width_variants(case, sut.CompilerConfig())}
    chosen = [variants[label] for label in ("cpu=host", "width=8", "cpu=x86-64-v4")]  # the full set: ~7 compiles
    verdict = rel.judge_relation("vector-width", case, variants=chosen)
    assert verdict.findings == ()
    host_runs_v4 = "+avx512f" in sut.resolve_platform(sut.CompilerConfig())[0].features
    assert bool(verdict.not_judged) != host_runs_v4  # this AVX2 host compiles x86-64-v4 only, and says so
    narrow = variants["width=8"]
    injected = [
        chosen[0],
        dataclasses.replace(narrow, case=dataclasses.replace(narrow.case, graph=dot_exp(last="tanh"))),
    ]
    (f,) = rel.check_relation("vector-width", case, variants=injected)
    assert (
        f.kind == "output-mismatch"
        and f.signature == "metamorphic/output-mismatch/fill>matmul>exp[vector-width:width=8]/f32/SxS"
    )


@pytest.mark.iree
def test_backend_relation_on_the_real_compiler_clean_and_each_verdict():
    case = Case(dot_exp(), ({},))
    assert rel.judge_relation("backend", case) == rel.Verdict(())
    llvm, vmvx = rel.backend_variants(case)
    other = lambda v: dataclasses.replace(v, case=dataclasses.replace(v.case, graph=dot_exp(last="tanh")))
    for variants, kind in (
        ([other(llvm), vmvx], "wrong-in-codegen"),
        ([llvm, other(vmvx)], "wrong-in-other-backend"),
        ([other(llvm), other(vmvx)], "wrong-before-dispatch-formation"),
    ):
        (f,) = rel.check_relation("backend", case, variants=variants)
        assert f.kind == kind and f.signature == f"metamorphic/{kind}/fill>matmul>exp[backend:vmvx]/f32/SxS"
