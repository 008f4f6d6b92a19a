"""The corpus format: round trip, atomic writes, clear errors, the baseline, promote, and the
pytest items (strict xfail per expected signature) with check_case faked; one real-IREE check."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from ireefuzz import pytest_items
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
    return CorpusCase(name="add", case=Case(ADD, ({},), seed=3), expected={"memory": (SIG,)}, **{"note": "n"} | kw)


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


def run_items(pytester, monkeypatch, found):
    fake = lambda case, config=None, policy=None: [Finding(s.split("/")[0], s.split("/")[1], s, "fake") for s in found]
    monkeypatch.setattr(pytest_items, "check_case", fake)
    monkeypatch.setattr(pytest_items, "_RESULTS", {})
    pytester.makeconftest(CONFTEST)
    write_case(pytester.path / "cases" / "add", graph_case())
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
            "*repro:*iree-compile*program.mlir*--iree-llvmcpu-target-cpu=host*",
        ]
    )


# --------------------------------------------------------------------------- real IREE


@pytest.mark.iree
def test_seed_verdicts_hold_on_the_installed_iree():
    for name in (
        "dot_33x16x49_exp_static",
        "dot_32x16x48_exp_static",
        "matmul_bias_add_27x43x37_fill_into_argument_mlir",
    ):
        case = load_case(SEEDS / name)
        assert {f.signature for f in corpus.check_case(case)} == case.expected_signatures, name


@pytest.mark.iree
def test_verdicts_recorded_on_another_cpu_are_skipped_with_the_reason_not_failed():
    import dataclasses as dc

    from ireefuzz import sut
    from ireefuzz.tools import corpus

    case = corpus.load_case(Path(__file__).parent.parent / "corpus" / "seeds" / "add_32x48")
    here = sut.resolve_platform(sut.CompilerConfig())[0].name
    pytest_items._skip_if_other_cpu(dc.replace(case, cpu=here), sut.CompilerConfig())  # same CPU: no skip
    with pytest.raises(pytest.skip.Exception, match="re-record"):
        pytest_items._skip_if_other_cpu(dc.replace(case, cpu="some-other-cpu"), sut.CompilerConfig())
