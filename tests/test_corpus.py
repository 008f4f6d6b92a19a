"""The corpus format: round trip, atomic writes, clear errors, the baseline, promote, and the
pytest items (strict xfail per expected signature) with check_case faked; one real-IREE check."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from ireefuzz import pytest_items, sut
from ireefuzz.generators.case import Case
from ireefuzz.generators.graph import Graph, GraphError, Node
from ireefuzz.generators.graph import TensorType as T
from ireefuzz.oracles.finding import Finding
from ireefuzz.tools import baseline, corpus
from ireefuzz.tools.corpus import CorpusCase, CorpusError, load_case, write_case

pytest_plugins = ["pytester"]

SEEDS = Path(__file__).parent.parent / "corpus" / "seeds"
ADD = Graph((T((4, 6), "f32"), T((4, 6), "f32")), (Node("add", ("a0", "a1"), {}, T((4, 6), "f32")),), ("n0",)).check()
SIG = "memory/alloca/add/f32/SxS"


def graph_case(**kw) -> CorpusCase:
    return CorpusCase(
        **{"name": "add", "case": Case(ADD, ({},), seed=3), "expected": {"memory": (SIG,)}, "note": "n"} | kw
    )


def test_graph_case_round_trip(tmp_path):
    write_case(tmp_path / "add", graph_case(relations=("shape",)))
    loaded = load_case(tmp_path / "add")
    assert loaded.case == Case(ADD, ({},), seed=3) and loaded.expected_signatures == {SIG}
    assert loaded.relations == ("shape",) and loaded.path == tmp_path / "add"
    assert "func.func @main" in (tmp_path / "add" / "program.mlir").read_text()
    assert load_case(tmp_path / "add" / "case.json").name == "add"
    # a plain Case JSON (a repro bundle's) is a corpus case with no expectations
    (tmp_path / "plain").mkdir()
    (tmp_path / "plain" / "case.json").write_text(Case(ADD, ({},)).dumps())
    assert load_case(tmp_path / "plain").expected_signatures == frozenset()


def test_raw_mlir_case_round_trip(tmp_path):
    text = "func.func @f(%a: tensor<?xf32>) -> tensor<?xf32> { return %a : tensor<?xf32> }\n"
    write_case(
        tmp_path / "raw", CorpusCase(name="raw", mlir=text, functions=("f",), shapes={"f": [(7,)]}, compile_only=True)
    )
    loaded = load_case(tmp_path / "raw")
    assert loaded.mlir == text and loaded.shapes == {"f": [(7,)]} and loaded.compile_only and not loaded.is_graph
    assert [c.name for c in corpus.iter_cases(tmp_path)] == ["raw"]


def test_write_is_atomic(tmp_path, monkeypatch):
    write_case(tmp_path / "add", graph_case())
    before = (tmp_path / "add" / "case.json").read_text()

    def explode(*a, **k):
        raise OSError("disk full")

    monkeypatch.setattr(corpus.format, "atomic_write_json", explode)
    with pytest.raises(OSError):
        write_case(tmp_path / "add", graph_case(note="changed"))
    assert (tmp_path / "add" / "case.json").read_text() == before
    assert [p.name for p in (tmp_path / "add").iterdir() if p.name.startswith(".")] == []


@pytest.mark.parametrize(
    "content, message",
    [
        ("{not json", "not valid JSON"),
        ("[]", "expected a JSON object"),
        ('{"note": "x"}', "neither a graph case"),
        ('{"mlir": "missing.mlir"}', "cannot be read"),
        ('{"graph": {"args": []}, "instances": [{}]}', "missing or mistypes"),
        ('{"mlir": "p.mlir", "expected": {"memory": "memory/alloca/x/f32/S"}}', "'expected' must map"),
        ('{"mlir": "p.mlir", "expected": {"memory": ["fusion/x/y/f32/S"]}}', "another oracle"),
        ('{"mlir": "p.mlir", "relations": ["colour"]}', "'relations'"),
    ],
)
def test_bad_case_file_raises_a_clear_graph_error(tmp_path, content, message):
    (tmp_path / "case.json").write_text(content)
    (tmp_path / "p.mlir").write_text("module {}\n")
    with pytest.raises(GraphError, match=message) as e:
        load_case(tmp_path)
    assert isinstance(e.value, CorpusError) and "case.json" in str(e.value)


def test_load_baseline(tmp_path):
    """The format 1 rows of a corpus baseline (format and checks: tests/test_baseline.py)."""
    path = tmp_path / "known.json"
    path.write_text(json.dumps([{"signature": SIG, "status": "open", "upstream": "https://x/8303", "note": "n"}]))
    assert baseline.load(path).signatures[SIG].upstream == "https://x/8303"
    for bad, message in [
        ({"a": 1}, "format"),
        ([{"status": "open"}], "signature"),
        ([{"signature": SIG, "status": "maybe"}], "status"),
        ([{"signature": SIG, "status": "open"}] * 2, "twice"),
    ]:
        path.write_text(json.dumps(bad))
        with pytest.raises(CorpusError, match=message):
            baseline.read(path)


def test_the_shipped_baseline_covers_the_seed_verdicts():
    known = baseline.load(SEEDS.parent / "known_findings.json")
    for case in corpus.iter_cases(SEEDS):
        assert case.expected_signatures <= {s for k in known.entries for s in k.signatures}, case.name
    assert any("8303" in k.link and k.verdict == "upstream" for k in known.causes.values())


def test_promote_a_bundle(tmp_path):
    bundle = tmp_path / "bundle-1"
    bundle.mkdir()
    (bundle / "case.json").write_text(Case(ADD, ({},)).dumps())
    (bundle / "program.mlir").write_text("// shrunk\n")
    (bundle / "finding.json").write_text(json.dumps({"signature": SIG, "message": "1 alloca"}))
    target = corpus.promote(bundle, tmp_path / "corpus")
    assert target == tmp_path / "corpus" / "regressions" / "bundle-1"
    case = load_case(target)
    assert case.expected == {"memory": (SIG,)} and case.case.graph == ADD and "promoted" in case.note
    with pytest.raises(CorpusError, match="exists"):
        corpus.promote(bundle, tmp_path / "corpus")
    (bundle / "finding.json").unlink()
    with pytest.raises(CorpusError, match="finding.json is missing"):
        corpus.promote(bundle, tmp_path / "corpus", force=True)


def test_verdicts_group_by_oracle():
    fs = [
        Finding("memory", "alloca", SIG, "m"),
        Finding("reference", "jax-wrong-value", "reference/jax-wrong-value/a/f32/S", "m"),
    ]
    assert corpus.verdicts(fs) == {"memory": [SIG], "numeric": ["reference/jax-wrong-value/a/f32/S"]}


# --------------------------------------------------------------------------- pytest items (check_case faked)

CONFTEST = """
from ireefuzz import pytest_items

def pytest_collect_file(parent, file_path):
    if file_path.name == "case.json":
        return pytest_items.corpus_file(parent, file_path)
"""


def run_items(pytester, monkeypatch, found, case=None, target=None):
    """The items of ``case`` (default: ``graph_case()``) with check_case faked to find ``found``, and the target
    faked to be ``target`` (default: the real one, which probes nothing for a case recorded for any target)."""
    fake = lambda case, config=None, policy=None: [Finding(s.split("/")[0], s.split("/")[1], s, "fake") for s in found]
    monkeypatch.setattr(pytest_items, "check_case", fake)
    monkeypatch.setattr(pytest_items, "_RESULTS", {})
    monkeypatch.setattr(pytest_items, "_TARGETS", {})
    if target is not None:
        monkeypatch.setattr(pytest_items, "_target_of", lambda case, config: target)
    pytester.makeconftest(CONFTEST)
    write_case(pytester.path / "cases" / "add", case or graph_case())
    return pytester.runpytest_inprocess("-p", "no:cacheprovider", "-rA")


def test_expected_finding_is_a_strict_xfail(pytester, monkeypatch):
    result = run_items(pytester, monkeypatch, [SIG])
    result.assert_outcomes(passed=1, xfailed=1)


def test_fixed_finding_shows_up_as_strict_xpass_failure(pytester, monkeypatch):
    result = run_items(pytester, monkeypatch, [])
    result.assert_outcomes(passed=1, failed=1)
    result.stdout.fnmatch_lines(["*XPASS(strict)*"])


def test_unexpected_finding_fails_with_a_repro(pytester, monkeypatch):
    result = run_items(pytester, monkeypatch, [SIG, "memory/copy/add/f32/SxS"])
    result.assert_outcomes(failed=1, xfailed=1)
    result.stdout.fnmatch_lines(
        [
            "*1 unexpected finding*",
            "*memory/copy/add/f32/SxS*",
            "*program: *program.mlir*",
            f"*repro:*iree-compile*program.mlir*{next(f for f in sut.target_flags('host') if 'target-cpu=' in f)}*",
        ]
    )


# --------------------------------------------------------------------------- verdicts per x86-64 level (faked)

COPY = "memory/copy/add/f32/SxS"
NUMERIC = "numeric/wrong-value/add/f32/SxS"
BY_LEVEL = {"x86-64": {}, "x86-64-v3": {}, "x86-64-v4": {"memory": (COPY,), "numeric": (NUMERIC,)}}
AVX2 = corpus.Target("znver3", "x86-64-v3")
AVX512 = corpus.Target("znver5", "x86-64-v4")
AVX512_NOT_RUN = corpus.Target("x86-64-v4", "x86-64-v4", not_run="x86-64-v4 (needs avx512f, which znver3 lacks)")


def test_the_verdict_of_a_level_is_asserted_only_for_a_target_at_that_level(pytester, monkeypatch):
    leveled = graph_case(expected_by_level=BY_LEVEL, cpu="x86-64")
    result = run_items(pytester, monkeypatch, [SIG, COPY, NUMERIC], leveled, AVX512)
    result.assert_outcomes(passed=1, xfailed=3)
    result.stdout.fnmatch_lines(["*add?x86-64-v4:memory/copy/add/f32/SxS?*"])  # the item's name says the level
    result = run_items(pytester, monkeypatch, [SIG], leveled, AVX2)
    result.assert_outcomes(passed=1, xfailed=1, skipped=2)
    result.stdout.fnmatch_lines(["*recorded for a target at x86-64-v4; this one, znver3 (at x86-64-v3), is not*"])
    result = run_items(pytester, monkeypatch, [SIG, COPY], leveled, AVX2)  # the v4 copy on a v3 target: unexpected
    result.assert_outcomes(failed=1, xfailed=1, skipped=2)
    result.stdout.fnmatch_lines(["*1 unexpected finding*", f"*{COPY}*"])


def test_a_target_this_host_cannot_run_is_judged_on_its_ir_and_its_run_verdicts_are_not_judged(pytester, monkeypatch):
    leveled = graph_case(expected_by_level=BY_LEVEL, cpu="x86-64")
    result = run_items(pytester, monkeypatch, [SIG, COPY], leveled, AVX512_NOT_RUN)
    result.assert_outcomes(passed=1, xfailed=2, skipped=1)  # the numbers: not judged, never a pass
    result.stdout.fnmatch_lines(["*not judged: a run shows it*compiled only (x86-64-v4 (needs avx512f*"])
    result = run_items(pytester, monkeypatch, [SIG], leveled, AVX512_NOT_RUN)  # the copy gone: IREE changed
    result.assert_outcomes(passed=1, xfailed=1, failed=1, skipped=1)


def test_a_target_below_every_recorded_level_skips_what_does_not_hold_with_the_reason(pytester, monkeypatch):
    old = graph_case(cpu="znver5")  # the format before levels: recorded on znver5, its one level
    assert old.levels == ("znver5",) and old.expected_at(None) == {SIG}
    below = corpus.Target("znver3", None, ("avx512f", "avx512vl"))
    result = run_items(pytester, monkeypatch, [SIG, COPY], old, below)
    result.assert_outcomes(xfailed=1, skipped=1)
    result.stdout.fnmatch_lines(["*recorded for znver5; its target here, znver3, lacks avx512f, avx512vl: re-record*"])
    result = run_items(pytester, monkeypatch, [SIG, COPY], old, corpus.Target("znver5", "znver5"))
    result.assert_outcomes(failed=1, xfailed=1)


def test_a_verdict_by_level_round_trips_and_an_old_case_file_still_loads(tmp_path):
    write_case(tmp_path / "add", graph_case(expected_by_level=BY_LEVEL, cpu="x86-64"))
    loaded = load_case(tmp_path / "add")
    assert loaded.expected_by_level == BY_LEVEL and loaded.levels == ("x86-64", "x86-64-v3", "x86-64-v4")
    assert loaded.expected_at("x86-64-v3") == {SIG} and loaded.expected_at("x86-64-v4") == {SIG, COPY, NUMERIC}
    assert loaded.expected_signatures == {SIG, COPY, NUMERIC} and loaded.levels_of(COPY) == ("x86-64-v4",)
    assert loaded.levels_of(SIG) == ()
    data = json.loads((tmp_path / "add" / "case.json").read_text())
    data.pop("expected_by_level")
    (tmp_path / "add" / "case.json").write_text(json.dumps(data | {"cpu": "znver5"}))
    assert load_case(tmp_path / "add").levels == ("znver5",)
    bad = data | {"expected_by_level": {"x86-64-v4": {"memory": [NUMERIC]}}}
    (tmp_path / "add" / "case.json").write_text(json.dumps(bad))
    with pytest.raises(CorpusError, match=r"expected_by_level\['x86-64-v4'\]\['memory'\] lists signatures of another"):
        load_case(tmp_path / "add")


def test_what_a_compile_alone_shows_is_told_from_what_needs_a_run():
    shown = [SIG, COPY, "fusion/materialized-producer/x/i32/S", "crash/compile-error/x[y]/f32/S"]
    shown += ["crash/bad-output/x/f32/S", "metamorphic/copy-asymmetry/x[shape:static]/f32/?"]
    needs_a_run = [NUMERIC, "immutability/input-mutated/x/f32/S", "crash/runtime-crash/x/f32/S"]
    needs_a_run += ["metamorphic/output-mismatch/x[shape:static]/f32/?", "reference/jax-wrong-value/x/f32/S"]
    assert all(corpus.seen_without_running(s) for s in shown)
    assert not any(corpus.seen_without_running(s) for s in needs_a_run)


def test_record_splits_the_verdicts_into_every_levels_part_and_each_levels_own(monkeypatch):
    """x86-64-v4 compiled only here: the numbers an AVX-512 machine recorded are kept, its copy is measured."""
    shown = {"x86-64": [SIG], "x86-64-v3": [SIG], "x86-64-v4": [SIG, COPY]}
    monkeypatch.setattr(corpus.check, "check_case", lambda case, config=None, policy=None: fake(shown[case.target_cpu]))
    monkeypatch.setattr(corpus.check, "target_of", lambda case, config=None: _target_at(case.target_cpu))
    monkeypatch.setattr("ireefuzz.sut.resolve_platform", lambda config: (None, "3.13"))
    old = graph_case(cpu="znver5", expected={"memory": (SIG, COPY), "numeric": (NUMERIC,)})
    recorded = corpus.record(graph_case(), old=old)
    assert recorded.expected == {"memory": (SIG,)} and recorded.cpu == "x86-64" and recorded.iree_version == "3.13"
    assert recorded.expected_by_level == {
        "x86-64": {},
        "x86-64-v3": {},
        "x86-64-v4": {"memory": (COPY,), "numeric": (NUMERIC,)},
    }
    pinned = corpus.record(graph_case(case=Case(ADD, ({},), target_cpu="x86-64-v3")))  # its own target only
    assert pinned.expected == {"memory": (SIG,)} and pinned.expected_by_level == {} and pinned.cpu == "x86-64-v3"


def fake(signatures):
    return [Finding(s.split("/")[0], s.split("/")[1], s, "fake") for s in signatures]


def _target_at(cpu):
    return corpus.Target(
        cpu, "x86-64-v4" if cpu == "x86-64-v4" else None, not_run="avx512" if cpu == "x86-64-v4" else None
    )


# --------------------------------------------------------------------------- real IREE


@pytest.mark.iree
def test_seed_verdicts_hold_on_the_installed_iree():
    """Each seed at each x86-64 level it was recorded for, whatever this host is: a level it cannot run is compiled
    only (these seeds' verdicts are all in their IR), so an AVX2 host checks the x86-64-v4 copy too."""
    for name in (
        "dot_33x16x49_exp_static",
        "dot_32x16x48_exp_static",
        "matmul_bias_add_27x43x37_fill_into_argument_mlir",
    ):
        case = load_case(SEEDS / name)
        for level in case.levels:
            at = corpus.check.targeting(case, level)
            assert corpus.target_of(at).level == level, (name, level)
            assert {f.signature for f in corpus.check_case(at)} == case.expected_at(level), (name, level)


@pytest.mark.iree
def test_a_targets_level_is_decided_by_its_features_and_code_beyond_the_host_is_not_run():
    from ireefuzz.sut import config_space

    case = load_case(SEEDS / "dot_33x16x49_exp_static")
    at = lambda cpu: corpus.target_of(corpus.check.targeting(case, cpu))
    assert at("skylake-avx512").level == "x86-64-v4" and at("haswell").level == "x86-64-v3"  # names it has not seen
    assert at("generic").level is None and at("generic").lacks == ("cmov", "cx8", "fxsr", "mmx", "sse", "sse2")
    v4 = sut.CompilerConfig(target_cpu="x86-64-v4")
    avx512 = not config_space.lacking(config_space.host_features(v4), config_space.features_of(v4))
    assert (at("x86-64-v4").not_run is None) == avx512  # on AVX2: compiled only, saying which features it lacks
    assert avx512 or "avx512f" in at("x86-64-v4").not_run


@pytest.mark.iree
def test_a_case_pinned_beyond_the_host_is_compiled_not_run(pytester, monkeypatch):
    """The pooling regression pinned to x86-64-v4 on a host taken as AVX2 (its features: ``x86-64-v3``'s): no
    SIGILL as a crash finding, no XPASS of its numbers, which are not judged."""
    from ireefuzz.sut import config_space

    v3 = config_space.features_of(sut.CompilerConfig(target_cpu="x86-64-v3"))
    monkeypatch.setattr(config_space, "host_features", lambda config: v3)
    monkeypatch.setattr(pytest_items, "_RESULTS", {})
    monkeypatch.setattr(pytest_items, "_TARGETS", {})
    pooling = load_case(SEEDS.parent / "regressions" / "pooling_unit_output_unread_rows")
    pytester.makeconftest(CONFTEST)
    write_case(pytester.path / "cases" / "pooling", corpus.check.targeting(pooling, "x86-64-v4"))
    result = pytester.runpytest_inprocess("-p", "no:cacheprovider", "-rA")
    result.assert_outcomes(passed=1, skipped=1)
    result.stdout.fnmatch_lines(["*not judged: a run shows it*compiled only (x86-64-v4 (needs avx512*"])
