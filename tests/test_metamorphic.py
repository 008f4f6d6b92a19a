"""Metamorphic relations: the oracle's comparison on recorded observations (fault injection), the
graph transforms of ``ireefuzz.core.relations``, and (marked iree) the relations on the real compiler."""

from __future__ import annotations

import numpy as np
import pytest

from ireefuzz.core import relations as rel
from ireefuzz.generators.case import Case
from ireefuzz.generators.graph import Graph, GraphError, Node
from ireefuzz.generators.graph import TensorType as T
from ireefuzz.oracles import metamorphic as mm
from ireefuzz.oracles.memory import MEMORY_KINDS

CLEAN = dict.fromkeys(MEMORY_KINDS, 0) | {"alloca_bytes": 0}


def dot_exp(m="M", k="K", n="N") -> Graph:
    return Graph(
        (T((m, k), "f32"), T((k, n), "f32")),
        (
            Node("fill", (), {"shape": [m, n], "dtype": "f32", "value": 0.0}, T((m, n), "f32")),
            Node("matmul", ("a0", "a1", "n0"), {}, T((m, n), "f32")),
            Node("exp", ("n1",), {"init": "init-of:n0"}, T((m, n), "f32")),
        ),
        ("n2",),
    ).check()


def obs(label, outputs=None, **profile):
    return mm.Observation(label, outputs, CLEAN | profile)


def kinds(findings):
    return sorted(f.kind for f in findings)


# --------------------------------------------------------------------------- compare (fault injection)


def test_alloca_in_only_one_variant_is_an_asymmetry():
    findings = mm.compare(
        "shape", obs("static-aligned"), obs("static", alloca=3, copy=3), ops="fill>matmul>exp", dtype="f32", dims="?x?"
    )
    assert kinds(findings) == ["alloca-asymmetry", "copy-asymmetry"]
    assert findings[0].signature == "metamorphic/alloca-asymmetry/fill>matmul>exp[shape:static]/f32/?x?"
    assert findings[0].evidence["profile_variant"]["alloca"] == 3


def test_dynamic_alloca_counts_as_alloca_family_and_equal_profiles_are_clean():
    assert kinds(mm.compare("shape", obs("a"), obs("b", **{"alloca-dynamic": 1}), ops="x", dtype="f32", dims="?")) == [
        "alloca-asymmetry"
    ]
    # both have allocas (different counts): no asymmetry; identical profiles: nothing
    assert mm.compare("shape", obs("a", alloca=1), obs("b", alloca=3), ops="x", dtype="f32", dims="?") == []
    assert mm.compare("dps", obs("a"), obs("b"), ops="x", dtype="f32", dims="?") == []


def test_alloca_only_in_the_reference_names_the_reference():
    (f,) = mm.compare("dps", obs("as-given", alloca=1), obs("n2.outs=empty"), ops="x", dtype="f32", dims="?")
    assert f.kind == "alloca-asymmetry" and "only in as-given" in f.message


def test_perturbed_output_is_a_mismatch_and_rounding_is_not():
    x = np.linspace(-2, 2, 60, dtype=np.float32).reshape(6, 10)
    same = x * np.float32(1 + 2**-22)  # a couple of ulps
    wrong = x.copy()
    wrong[3, 4] += 0.25
    rtol = 1e-5
    assert (
        mm.compare(
            "config",
            obs("cpu=host", ((x,),)),
            obs("cpu=generic", ((same,),)),
            ops="add",
            dtype="f32",
            dims="SxS",
            rtols=[rtol],
        )
        == []
    )
    (f,) = mm.compare(
        "config",
        obs("cpu=host", ((x,),)),
        obs("cpu=generic", ((wrong,),)),
        ops="add",
        dtype="f32",
        dims="SxS",
        rtols=[rtol],
    )
    assert f.kind == "output-mismatch" and f.evidence["index"] == [3, 4]
    assert f.signature == "metamorphic/output-mismatch/add[config:cpu=generic]/f32/SxS"


def test_integers_compare_exactly_and_nan_matches_nan():
    a = np.arange(12, dtype=np.int32).reshape(3, 4)
    b = a.copy()
    b[2, 3] += 1
    assert mm.first_mismatch([a], [a.copy()], 0.1) is None
    assert mm.first_mismatch([a], [b], 0.1)["index"] == [2, 3]
    n = np.array([np.nan, 1.0], dtype=np.float32)
    assert mm.first_mismatch([n], [n.copy()], 1e-6) is None
    assert mm.first_mismatch([n], [np.array([0.0, 1.0], np.float32)], 1e-6)["index"] == [0]


def test_one_failed_variant_is_a_finding_two_are_not():
    ok, bad = obs("cpu=host"), mm.Observation("data-tiling=true", failure="compile crash: boom")
    (f,) = mm.compare("config", ok, bad, ops="matmul", dtype="f32", dims="?x?")
    assert f.kind == "variant-failed" and "[config:data-tiling=true]" in f.signature
    assert mm.compare("config", bad, bad, ops="matmul", dtype="f32", dims="?x?") == []


def test_compare_variants_checks_numbers_only_between_comparable_variants():
    g = dot_exp()
    case = Case(g, ({"M": 33, "K": 16, "N": 49},))
    variants = rel.shape_variants(case)
    assert [v.label for v in variants] == ["static-aligned", "static", "dynamic"]
    out = np.ones((33, 49), np.float32)
    aligned = np.zeros((32, 48), np.float32)  # other sizes: never compared numerically
    observations = [
        obs("static-aligned", ((aligned,),)),
        obs("static", ((out,),), alloca=3),
        obs("dynamic", ((out + 1,),)),
    ]
    findings = rel.compare_variants("shape", variants, observations, g)
    assert sorted(f.signature for f in findings) == [
        "metamorphic/alloca-asymmetry/fill>matmul>exp[shape:static]/f32/?x?",
        "metamorphic/output-mismatch/fill>matmul>exp[shape:dynamic]/f32/?x?",
    ]


# --------------------------------------------------------------------------- graph transforms


def test_to_static_and_to_dynamic_round_trip():
    static = rel.to_static(dot_exp(), {"M": 33, "K": 16, "N": 49})
    assert static.symbols == () and static.args[0].shape == (33, 16) and static.nodes[0].attrs["shape"] == [33, 49]
    dynamic, sizes = rel.to_dynamic(static)
    assert sizes == {"D16": 16, "D33": 33, "D49": 49}
    assert rel.to_static(dynamic, sizes) == static
    with pytest.raises(GraphError, match="no size"):
        rel.to_static(dot_exp(), {"M": 1})


def test_to_dynamic_keeps_sliced_dims_static():
    g = Graph(
        (T((8, 5), "f32"),),
        (Node("extract_slice", ("a0",), {"offsets": [2, 0], "sizes": [3, 5], "strides": [1, 1]}, T((3, 5), "f32")),),
        ("n0",),
    ).check()
    dynamic, sizes = rel.to_dynamic(g)
    assert sizes == {} and dynamic == g


def test_aligned_rounds_down_to_16():
    assert rel.aligned({"M": 33, "K": 16, "N": 49, "B": 6}) == {"M": 32, "K": 16, "N": 48, "B": 6}


def test_dps_variants_are_well_formed_and_distinct():
    labels = dict(rel.dps_variants(dot_exp(), limit=20))
    assert {"n2.outs=empty", "n2.outs=value:n1", "n0.generic=true", "n1.generic=true"} <= set(labels)
    assert labels["n2.outs=value:n1"].nodes[2].attrs["init"] == "value:n1"
    for g in labels.values():
        g.check()
    assert len({g.dumps() for g in labels.values()}) == len(labels)


def test_config_variants():
    case = Case(dot_exp(), ({"M": 3, "K": 4, "N": 5},), flags=("--iree-opt-data-tiling=true",))
    vs = rel.config_variants(case)
    assert [v.label for v in vs] == ["cpu=host", "cpu=generic", "data-tiling=true", "data-tiling=false"]
    assert vs[3].case.flags == ("--iree-opt-data-tiling=false",)
    with pytest.raises(ValueError, match="unknown relation"):
        rel.variants_for("colour", case)


# --------------------------------------------------------------------------- real IREE


@pytest.mark.iree
@pytest.mark.parametrize("level", ["x86-64-v3", "x86-64-v4"])
def test_shape_relation_reproduces_the_first_seed(level):
    """The seed's metamorphic verdict at each level, on any host: the copy asymmetry is x86-64-v4's alone (its
    corpus case records it by level); a level this host cannot run is compared on its IR, not run."""
    from pathlib import Path

    from ireefuzz import sut
    from ireefuzz.sut import config_space
    from ireefuzz.tools import corpus

    seed = corpus.load_case(Path(__file__).parent.parent / "corpus" / "seeds" / "dot_33x16x49_exp_dynamic")
    case = Case(dot_exp(), ({"M": 33, "K": 16, "N": 49},), target_cpu=level)
    findings = rel.check_relation(
        "shape", case, run=not config_space.cannot_run(sut.config_for(case, sut.CompilerConfig()))
    )
    shown = {f.signature for f in findings}
    assert shown == {s for s in seed.expected_at(level) if s.startswith("metamorphic/")}
    copy = "metamorphic/copy-asymmetry/fill>matmul>exp[shape:static]/f32/?x?"
    assert (copy in shown) == (level == "x86-64-v4")  # the 512-bit vectors' copy


@pytest.mark.iree
def test_config_relation_agrees_on_the_unaligned_matmul():
    assert rel.check_relation("config", Case(dot_exp(33, 16, 49), ({},))) == []


def test_relations_run_on_a_deterministic_sample_of_cases(monkeypatch):
    import dataclasses as dc

    from ireefuzz.core import evaluate as ev
    from ireefuzz.core import relations
    from ireefuzz.generators.case import Case
    from ireefuzz.oracles.finding import Finding
    from tests.test_graph import fme_graph

    calls = []
    fake = Finding(
        "metamorphic", "alloca-asymmetry", "metamorphic/alloca-asymmetry/x[shape:static]/f32/?x?", "injected"
    )
    monkeypatch.setattr(relations, "check_relation", lambda rel, case, config: calls.append(rel) or [fake])
    cases = [Case(fme_graph(), ({"M": m, "N": 3},), seed=m) for m in range(1, 13)]
    base = [ev.CaseResult(c, ()) for c in cases]
    every = ev.Policy(relations=("shape", "dps"), relations_every=1)
    config = ev.sut.CompilerConfig()
    assert all(r.signatures == (fake.signature,) for r in (ev.with_relations(b, config, every) for b in base))
    assert calls.count("shape") == calls.count("dps") == 12
    sampled = [ev.with_relations(b, config, dc.replace(every, relations_every=4)) for b in base]
    again = [ev.with_relations(b, config, dc.replace(every, relations_every=4)) for b in base]
    assert 0 < sum(bool(r.findings) for r in sampled) < 12 and sampled == again  # a fixed, partial sample


def test_unknown_relation_is_rejected():
    import pytest

    from ireefuzz.core.evaluate import Policy

    with pytest.raises(ValueError, match="choose from"):
        Policy(relations=("sideways",))


# --------------------------------------------------------------------------- a variant's own compile failure


def test_a_variant_that_fails_to_compile_is_the_crash_of_its_own_program():
    """A static-aligned variant that crashes the compiler where the dynamic form compiles is a compiler crash on a
    valid program: the crash oracle's finding on the variant's own case, not a metamorphic asymmetry (weighted 0.35,
    it ranked 14th of 15 in host 61837 and was never bundled)."""
    from ireefuzz import sut

    case = Case(dot_exp(), ({"M": 33, "K": 16, "N": 49},))
    variants = rel.shape_variants(case)
    failure = sut.CompileFailure(
        "crash", "Stack dump:\n #0 0x1 mlir::summarizeDispatchRegion\n", ("iree-compile",), 139, 1.0
    )
    observations = [mm.Observation("static-aligned", failure="compile crash: boom", compile_failure=failure)]
    observations += [obs("static"), obs("dynamic")]
    config = sut.CompilerConfig()
    findings = rel.compare_variants("shape", variants, observations, case.graph)
    (failed,) = [f for f in findings if f.kind == "variant-failed"]
    crashed = rel.variant_crash(failed, variants, observations, config)
    assert crashed is not None and crashed.oracle == "crash" and crashed.kind == "compile-crash"
    assert Case.from_json(crashed.case).graph == variants[0].case.graph  # the variant's program, static at 32x16x48
    assert crashed.evidence["variant"] == "static-aligned" and crashed.evidence["compiled_as"] == "static"
    ran_wrong = [mm.Observation("static-aligned", failure="run fault: boom"), obs("static"), obs("dynamic")]
    (run_failed,) = rel.compare_variants("shape", variants, ran_wrong, case.graph)
    assert rel.variant_crash(run_failed, variants, ran_wrong, config) is None  # no compile failure to judge


ZERO_EXTENT = {  # host 61837's case: K = 0, a contraction's zero-extent dim
    "graph": {
        "args": [
            {"dtype": "i32", "shape": ["M"]},
            {"dtype": "f32", "shape": [17]},
            {"dtype": "i32", "shape": ["N", "K", 17]},
            {"dtype": "i32", "shape": [17, "M"]},
        ],
        "nodes": [
            {
                "attrs": {"dim": 0, "form": "linalg_ext", "reverse": False},
                "inputs": ["a1"],
                "op": "cumsum",
                "type": {"dtype": "f32", "shape": [17]},
            },
            {
                "attrs": {"dtype": "i32", "generic": False, "init": "empty", "shape": ["N", "K", "M"], "value": 0},
                "inputs": [],
                "op": "fill",
                "type": {"dtype": "i32", "shape": ["N", "K", "M"]},
            },
            {
                "attrs": {"form": "generic", "spec": "abk,kc->abc"},
                "inputs": ["a2", "a3", "n1"],
                "op": "contract",
                "type": {"dtype": "i32", "shape": ["N", "K", "M"]},
            },
            {
                "attrs": {"dims": [0, 1, 2], "form": "extract"},
                "inputs": ["n2"],
                "op": "reverse",
                "type": {"dtype": "i32", "shape": ["N", "K", "M"]},
            },
            {
                "attrs": {"dim": 1, "result": "values"},
                "inputs": ["a2"],
                "op": "argmax",
                "type": {"dtype": "i32", "shape": ["N", 17]},
            },
        ],
        "outputs": ["n0", "n3", "n4"],
    },
    "instances": [{"K": 0, "M": 31, "N": 7}],
    "seed": 64219,
    "target_cpu": "host",
}


@pytest.mark.iree
def test_a_variant_crash_is_recorded_on_the_variant_with_the_real_compiler():
    """3.13 crashes in AnnotateDispatchesPass on the static form of this zero-extent case; the dynamic form compiles.
    The campaign records the crash on the static variant's case, whatever else the relation found."""
    from ireefuzz.core import evaluate as ev

    case = Case.from_json(ZERO_EXTENT)
    result = ev.with_relations(
        ev.CaseResult(case, ()), ev.sut.CompilerConfig(), ev.Policy(relations=("shape",), relations_every=1)
    )
    (crashed,) = [f for f in result.findings if f.oracle == "crash"]
    assert crashed.kind == "compile-crash" and crashed.evidence["compiled_as"] == "dynamic"
    variant = Case.from_json(crashed.case).graph
    assert not variant.symbols and variant.args[2].shape == (7, 0, 17)
    assert crashed.cause.startswith("crash/compile-crash/")
