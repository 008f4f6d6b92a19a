"""The pytest plugin and public API, tested end to end on temporary repositories with ``pytester``.

Fast tests (no compile): plugin load is import-light, options and their validation, Hypothesis
profiles, the fixtures' configuration, corpus-collection wiring. Tests marked ``iree`` compile
for real (about a second each): a passing and a failing check, a known finding from a baseline,
a fake crashing ``iree-compile``, ``.mlir`` collection, a Hypothesis property, corpus cases.
"""

from __future__ import annotations

import json
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest
from programs import ADD

pytest_plugins = ["pytester"]

# A graph IREE 3.13 gets wrong: the reduction's destination is a function argument, and IREE writes
# the partial sums into the caller's buffer (an immutability finding).
MUTATING_GRAPH = """
def mutating_graph():
    b = ireefuzz.GraphBuilder()
    x = b.arg((64, 64), "i32")
    acc = b.arg((64,), "i32")
    b.output(b.reduce_sum(x, dim=1, init=acc))
    return b.build()
"""
MUTATING_SIGNATURE = "immutability/input-mutated/reduce_sum[outs]/i32/S"


@pytest.fixture(autouse=True, scope="module")
def _modules_loaded_once():
    """pytester's in-process runs drop every module they import afterwards, and a C extension
    (NumPy, IREE's MLIR bindings) cannot be imported twice in one process; so what the fast
    in-process runs import is imported here first. Runs that compile go to a subprocess (``_run_iree``):
    IREE's bindings load dialect modules lazily, which no up-front import list can cover."""
    import importlib

    for name in ("numpy", "ireefuzz.api", "ireefuzz.tools.corpus", "ireefuzz.pytest_items"):
        importlib.import_module(name)


def _run(pytester: pytest.Pytester, *args: str) -> pytest.RunResult:
    """An in-process pytest run (the entry point is already loaded in this process, which pytest
    would warn cannot be assertion-rewritten; that warning is about this harness, not the plugin)."""
    return pytester.runpytest_inprocess("-W", "ignore::pytest.PytestAssertRewriteWarning", *args)


def _run_iree(pytester: pytest.Pytester, *args: str) -> pytest.RunResult:
    """A pytest run in a fresh process, as a user's CI runs it (the plugin loads by its entry point)."""
    return pytester.runpytest_subprocess(*args, timeout=600)


def _test_file(body: str) -> str:
    return "import ireefuzz\n" + MUTATING_GRAPH + textwrap.dedent(body)


# --------------------------------------------------------------------------- fast: no compile


def test_plugin_and_package_import_neither_iree_nor_jax():
    code = (
        "import sys, ireefuzz, ireefuzz._pytestplugin\n"
        "heavy = sorted(m for m in sys.modules if m.split('.')[0] in "
        "('jax', 'jaxlib', 'iree', 'numpy', 'hypothesis'))\n"
        "print(heavy)\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "[]", f"plugin load imported {out.strip()}"


def test_plugin_policy_options_come_from_the_one_table():
    from ireefuzz import _pytestplugin
    from ireefuzz.core.policy import OPTION_OF

    assert set(_pytestplugin.PLUGIN_POLICY_OPTIONS) <= set(OPTION_OF)
    assert not hasattr(_pytestplugin, "ORACLE_NAMES")  # no list of its own to drift from the evaluator's


def test_public_api_all_resolves_and_matches():
    import ireefuzz
    from ireefuzz import api

    assert sorted(ireefuzz.__all__) == sorted(api.__all__)
    for name in ireefuzz.__all__:
        assert getattr(ireefuzz, name) is getattr(api, name)
    with pytest.raises(AttributeError):
        ireefuzz.not_a_public_name  # noqa: B018
    import importlib

    (
        importlib.import_module("ireefuzz.tools.check"),
        importlib.import_module("ireefuzz.core.evaluate"),
    )  # no public name shadowed
    assert callable(ireefuzz.check_case) and callable(ireefuzz.evaluate_cases)
    covered = set(
        api.ELEMENTWISE_OPS
        + api.PRODUCER_OPS
        + api.CONTRACTION_OPS
        + api.REDUCTION_OPS
        + api.DATA_MOVEMENT_OPS
        + api.CONVOLUTION_OPS
        + api.NORMALIZATION_OPS
        + api.SORTING_OPS
        + api.MODEL_OPS
    )
    assert covered == set(api.OP_NAMES)


def test_builder_infers_types_and_rejects_ill_typed_ops():
    import ireefuzz

    b = ireefuzz.GraphBuilder()
    x = b.arg(("M", 16), "f32")
    w = b.arg((16, "N"), "f32")
    acc = b.fill(("M", "N"), 0.0)
    y = b.matmul(x, w, acc)
    b.output(b.exp(y))
    graph = b.build()
    assert graph.op_pattern == "fill>matmul>exp"
    assert repr(graph.type_of("n2")) == "MxNxf32"
    with pytest.raises(ireefuzz.GraphError, match="ill-typed"):
        b.add(x, w)
    with pytest.raises(ireefuzz.GraphError, match="not a value of this GraphBuilder"):
        ireefuzz.GraphBuilder().exp(x)


def test_entry_point_loads_the_plugin_and_lists_its_options(pytester: pytest.Pytester):
    result = pytester.runpytest_subprocess("--help")  # a fresh process: the pytest11 entry point, not an import
    result.stdout.fnmatch_lines(["ireefuzz: differential fuzzing of IREE's CPU code generation:"])
    for option in (
        "--iree-compile=PATH",
        "--iree-target-cpu=CPU",
        "--ireefuzz-oracles=a,b",
        "--ireefuzz-baseline=FILE",
        "--ireefuzz-bundles=DIR",
        "--ireefuzz-corpus=DIR",
        "--ireefuzz-mlir",
        "--ireefuzz-max-static-alloca-bytes=BYTES",
        "--ireefuzz-max-alloca=BYTES",  # its old spelling
        "--ireefuzz-run-timeout=SECONDS",
        "--ireefuzz-max-memory=BYTES",
    ):
        assert option in result.stdout.str(), option


@pytest.fixture
def fake_compiler(pytester: pytest.Pytester) -> Path:
    """An ``iree-compile`` that kills itself with SIGSEGV (a compiler crash) on a program with ``math.exp``,
    and is the real compiler otherwise (so it passes the plugin's start-up probe of compiler and runtime)."""
    from ireefuzz.sut import CompilerConfig, find_iree_compile

    path = pytester.path / "fake-iree-compile"
    path.write_text(f"""#!/bin/sh
[ "$1" != --version ] && while IFS= read -r line; do case $line in *math.exp*) kill -SEGV $$ ;; esac; done < "$1"
exec {find_iree_compile(CompilerConfig())} "$@"
""")
    path.chmod(0o755)
    return path


@pytest.mark.parametrize(
    "body, message",
    [
        ("exit 1", "--version` failed"),
        ("exit 0", "prints no IREE compiler version"),
        ("echo 'IREE compiler version 9'; exit 0", "wrote no module.vmfb"),  # like /bin/true
        (
            "echo 'IREE compiler version 9'; while [ $# -gt 0 ]; do "
            '[ "$1" = -o ] && echo garbage > "$2"; shift; done',
            "is not an IREE module",
        ),
        ("[ \"$1\" = --version ] && echo 'IREE compiler version 9' && exit 0; kill -SEGV $$", "(crash)"),
    ],
)
def test_a_compiler_that_fails_the_probe_is_a_usage_error_at_start(pytester: pytest.Pytester, body, message):
    path = pytester.path / "broken-iree-compile"
    path.write_text(f"#!/bin/sh\n{body}\n")
    path.chmod(0o755)
    pytester.makepyfile("def test_nothing(): pass")
    result = _run(pytester, f"--iree-compile={path}")
    assert result.ret == pytest.ExitCode.USAGE_ERROR
    assert message in result.stderr.str() and "Traceback" not in result.stderr.str()


@pytest.mark.parametrize(
    "args, message",
    [
        (["--ireefuzz-oracles=numeric,bogus"], "unknown oracle(s) bogus"),
        (["--ireefuzz-oracles=,"], "(none given)"),
        (["--iree-compile=/no/such/iree-compile"], "does not exist"),
        (["--iree-compile=not-executable.txt"], "is not executable"),
        (["--iree-target-cpu=not a cpu"], "is not a CPU name"),
        (["--ireefuzz-corpus=/no/such/dir"], "is not a directory"),
        (["--ireefuzz-baseline=/no/such/baseline.json"], "is not a file"),
        (["--ireefuzz-max-alloca=-4"], "non-negative number of bytes"),
    ],
)
def test_bad_option_values_are_usage_errors(pytester: pytest.Pytester, args, message):
    (pytester.path / "not-executable.txt").write_text("")
    pytester.makepyfile("def test_nothing(): pass")
    result = _run(pytester, *args)
    assert result.ret == pytest.ExitCode.USAGE_ERROR
    assert message in result.stderr.str()


@pytest.mark.iree  # the plugin probes the given compiler and runtime at start
def test_options_configure_the_sut_fixture(pytester: pytest.Pytester, fake_compiler: Path):
    (pytester.path / "baseline.json").write_text(
        json.dumps([{"signature": MUTATING_SIGNATURE, "status": "open", "note": "writes into the caller's buffer"}])
    )
    pytester.makepyfile(f"""
        from pathlib import Path

        def test_sut(iree_sut, ireefuzz_check):
            assert iree_sut.config.iree_compile == {str(fake_compiler)!r}
            assert iree_sut.config.target_cpu == "x86-64-v3"
            assert iree_sut.policy.oracles == {{"memory", "crash"}}
            assert iree_sut.policy.max_static_alloca_bytes == 256
            assert set(iree_sut.known.signatures) == {{{MUTATING_SIGNATURE!r}}}  # a format-1 file: by signature
            assert iree_sut.bundle_dir == Path("bundles").resolve()
            assert ireefuzz_check.sut is iree_sut
    """)
    result = _run_iree(
        pytester,
        f"--iree-compile={fake_compiler}",
        "--iree-target-cpu=x86-64-v3",
        "--ireefuzz-oracles=memory,crash",
        "--ireefuzz-max-alloca=256",
        "--ireefuzz-baseline=baseline.json",
        f"--ireefuzz-bundles={pytester.path / 'bundles'}",
    )
    result.assert_outcomes(passed=1)
    result.stdout.fnmatch_lines(
        ["ireefuzz: iree-compile=*fake-iree-compile, target-cpu=x86-64-v3, oracles=memory,crash"]
    )


def test_default_bundle_dir_is_under_basetemp(pytester: pytest.Pytester):
    pytester.makepyfile("""
        def test_sut(iree_sut, tmp_path_factory):
            assert iree_sut.bundle_dir == tmp_path_factory.getbasetemp() / "ireefuzz-bundles"
            assert iree_sut.config.iree_compile is None and iree_sut.config.target_cpu == "host"
    """)
    _run(pytester).assert_outcomes(passed=1)


@pytest.mark.parametrize("profile, examples", [("ireefuzz-ci", 10), ("ireefuzz-nightly", 1000)])
def test_hypothesis_profiles_are_registered(pytester: pytest.Pytester, profile, examples):
    pytester.makepyfile(f"""
        from hypothesis import settings

        def test_profile():
            assert settings.get_current_profile_name() == {profile!r}
            assert settings.default.max_examples == {examples} and settings.default.deadline is None
    """)
    _run(pytester, f"--hypothesis-profile={profile}").assert_outcomes(passed=1)


class _StandInCorpusItem(pytest.Item):
    def runtest(self) -> None:
        pass


def test_corpus_option_collects_case_directories_through_the_corpus_module(pytester: pytest.Pytester, monkeypatch):
    """The wiring alone: ``ireefuzz.pytest_items.collect`` (stood in for) receives each case.json under the
    corpus directory, even when that directory lies outside the test paths."""
    import types

    import ireefuzz

    corpus = pytester.mkdir("elsewhere")
    for name in ("case_a", "case_b"):
        (corpus / name).mkdir()
        (corpus / name / "case.json").write_text("{}")
        (corpus / name / "program.mlir").write_text("module {}")
    (pytester.path / "tests").mkdir()
    (pytester.path / "tests" / "test_x.py").write_text("def test_x(): pass\n")
    stand_in = types.ModuleType("ireefuzz.pytest_items")
    stand_in.collect = lambda parent, path: [_StandInCorpusItem.from_parent(parent, name=path.parent.name)]
    monkeypatch.setitem(sys.modules, "ireefuzz.pytest_items", stand_in)
    monkeypatch.setattr(ireefuzz, "pytest_items", stand_in, raising=False)
    result = _run(pytester, "tests", "--ireefuzz-corpus=elsewhere", "--ireefuzz-mlir", "-v")
    result.assert_outcomes(passed=3)  # test_x and the two cases; the cases' program.mlir are not collected twice
    result.stdout.fnmatch_lines(["*case_a/case.json::case_a PASSED*", "*case_b/case.json::case_b PASSED*"])
    _run(pytester, "tests").assert_outcomes(passed=1)


# --------------------------------------------------------------------------- real compiles


@pytest.mark.iree
def test_passing_and_failing_check(pytester: pytest.Pytester):
    pytester.makepyfile(
        test_repo=_test_file("""
        def test_add_is_fine(ireefuzz_check):
            b = ireefuzz.GraphBuilder()
            x = b.arg(("M", 16), "f32")
            y = b.arg(("M", 16), "f32")
            b.output(b.add(x, y))
            result = ireefuzz_check(b.build(), instances=[{"M": 1}, {"M": 33}])
            assert result.findings == ()

        def test_reduce_into_argument(ireefuzz_check):
            ireefuzz_check(mutating_graph())
    """)
    )
    bundles = pytester.path / "bundles"
    result = _run_iree(pytester, f"--ireefuzz-bundles={bundles}", "--iree-target-cpu=generic")
    result.assert_outcomes(passed=1, failed=1)
    out = result.stdout.str()
    from ireefuzz.base.durable import slug as _slug

    bundle = bundles / _slug("test_repo.py::test_reduce_into_argument") / _slug(MUTATING_SIGNATURE)
    assert "ireefuzz: 1 new finding(s) in test_repo.py::test_reduce_into_argument" in out
    assert MUTATING_SIGNATURE in out and "argument 1 (64xi32) was modified" in out
    assert "--iree-hal-target-backends=llvm-cpu --iree-llvmcpu-target-cpu=generic" in out  # the command
    assert "func.func @main(%arg0: tensor<64x64xi32>, %arg1: tensor<64xi32>)" in out  # the program
    assert "Traceback" not in out and "testing.py" not in out  # the message is the report, not our stack
    assert bundle.is_dir(), sorted(p.relative_to(bundles) for p in bundles.rglob("*"))
    assert f"bundle: {bundle}" in out
    assert {"program.mlir", "case.json", "finding.json", "findings.json", "command.txt"} <= {
        p.name for p in bundle.iterdir()
    }
    assert json.loads((bundle / "findings.json").read_text())[0]["signature"] == MUTATING_SIGNATURE
    import ireefuzz

    assert ireefuzz.Case.from_json(json.loads((bundle / "case.json").read_text())).target_cpu == "generic"
    assert "--iree-llvmcpu-target-cpu=generic" in (bundle / "command.txt").read_text()


@pytest.mark.iree
def test_known_signature_from_the_baseline_warns_instead_of_failing(pytester: pytest.Pytester):
    (pytester.path / "baseline.json").write_text(
        json.dumps([{"signature": MUTATING_SIGNATURE, "status": "open", "upstream": "iree-org/iree#0", "note": ""}])
    )
    pytester.makepyfile(
        _test_file(
            """
        def test_known(ireefuzz_check):
            result = ireefuzz_check(mutating_graph())
            assert result.signatures == ("""
            + repr(MUTATING_SIGNATURE)
            + """,)
    """
        )
    )
    result = _run_iree(pytester, "--ireefuzz-baseline=baseline.json")
    result.assert_outcomes(passed=1, warnings=1)
    result.stdout.fnmatch_lines(
        [
            "*KnownFinding: known finding "
            + MUTATING_SIGNATURE.replace("[", "[[]")
            + " of cause * (upstream: iree-org/iree#0)*"
        ]
    )


@pytest.mark.iree
def test_oracles_option_and_argument_narrow_the_check(pytester: pytest.Pytester):
    pytester.makepyfile(
        _test_file("""
        def test_option_leaves_immutability_out(ireefuzz_check):
            assert ireefuzz_check(mutating_graph()).findings == ()

        def test_argument_narrows_further(iree_sut, ireefuzz_check):
            assert ireefuzz_check(mutating_graph(), oracles=["crash"]).findings == ()
    """)
    )
    _run_iree(pytester, "--ireefuzz-oracles=numeric,crash,memory,fusion").assert_outcomes(passed=2)


@pytest.mark.iree
def test_crashing_iree_compile_is_a_finding_not_a_plugin_error(pytester: pytest.Pytester, fake_compiler: Path):
    pytester.makepyfile(
        _test_file("""
        def test_exp(ireefuzz_check):
            b = ireefuzz.GraphBuilder()
            b.output(b.exp(b.arg((4, 4), "f32")))
            ireefuzz_check(b.build())
    """)
    )
    result = _run_iree(pytester, f"--iree-compile={fake_compiler}")
    result.assert_outcomes(failed=1)
    out = result.stdout.str()
    assert "crash/compile-crash/" in out and "iree-compile crash on a valid program" in out
    assert f"{fake_compiler} " in out  # the command names the user's build
    assert "INTERNALERROR" not in out and "Traceback" not in out


@pytest.mark.iree
def test_given_cases_with_the_check_fixture(pytester: pytest.Pytester):
    pytester.makepyfile("""
        import ireefuzz
        from hypothesis import given, settings

        @settings(max_examples=3)
        @given(ireefuzz.cases(ops=["add", "mul", "exp", "negate"], max_nodes=2, dynamic=False,
                              dtypes=["f32"]))
        def test_elementwise(ireefuzz_check, case):
            ireefuzz_check(case)
    """)
    _run_iree(pytester, "--hypothesis-profile=ireefuzz-ci", "-p", "no:cacheprovider").assert_outcomes(passed=1)


CLEAN_MLIR = ADD

MUTATING_MLIR = """
func.func @rowsum(%x: tensor<64x64xi32>, %acc: tensor<64xi32>) -> tensor<64xi32> {
  %zero = arith.constant 0 : i32
  %f = linalg.fill ins(%zero : i32) outs(%acc : tensor<64xi32>) -> tensor<64xi32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>],
                       iterator_types = ["parallel", "reduction"]} ins(%x : tensor<64x64xi32>) outs(%f : \
tensor<64xi32>) {
  ^bb0(%in: i32, %out: i32):
    %s = arith.addi %out, %in : i32
    linalg.yield %s : i32
  } -> tensor<64xi32>
  return %r : tensor<64xi32>
}
"""


@pytest.mark.iree
def test_mlir_files_are_collected_and_checked(pytester: pytest.Pytester):
    import numpy as np

    kernels = pytester.mkdir("kernels")
    (kernels / "add.mlir").write_text(CLEAN_MLIR)
    # numeric with an input spec: expected outputs from the same seeded inputs the plugin draws
    from ireefuzz.generators.case import make_inputs
    from ireefuzz.generators.graph import Graph, TensorType

    args = (TensorType((8, 4), "f32"), TensorType((8, 4), "f32"))
    a, b = make_inputs(Graph(args, (), ()), {}, 7)  # the inputs the plugin draws for seed 7
    np.savez(kernels / "add.expected.npz", out0=a + b)
    (kernels / "add.inputs.json").write_text(json.dumps({"seed": 7, "expected": "add.expected.npz"}))
    (kernels / "wrong.mlir").write_text(CLEAN_MLIR)  # same program, a wrong expectation: a numeric finding
    np.savez(kernels / "wrong.expected.npz", out0=a - b)
    (kernels / "wrong.inputs.json").write_text(
        json.dumps({"seed": 7, "functions": {"add": {"shapes": [[8, 4], [8, 4]], "expected": "wrong.expected.npz"}}})
    )
    (kernels / "rowsum.mlir").write_text(MUTATING_MLIR)
    (kernels / "rowsum.inputs.json").write_text("{}")  # opt in to running it (immutability, numeric)
    (kernels / "rowsum_compile_only.mlir").write_text(MUTATING_MLIR)  # no spec: crash / memory / fusion only
    assert _run(pytester).ret == pytest.ExitCode.NO_TESTS_COLLECTED  # opt-in only
    result = _run_iree(pytester, "--ireefuzz-mlir", f"--ireefuzz-bundles={pytester.path / 'b'}", "-v")
    result.assert_outcomes(passed=2, failed=2)
    out = result.stdout.str()
    assert "kernels/add.mlir::add.mlir PASSED" in out
    assert "kernels/rowsum_compile_only.mlir::rowsum_compile_only.mlir PASSED" in out
    assert "numeric/wrong-value/" in out and "add output 0 is wrong" in out
    assert "immutability/input-mutated/" in out and "argument 1 (64xi32) was modified" in out
    bundles = list((pytester.path / "b").rglob("findings.json"))
    assert len(bundles) == 2


@pytest.mark.iree
def test_real_corpus_cases_are_collected(pytester: pytest.Pytester):
    corpus = pytest.importorskip("ireefuzz.tools.corpus")
    root = Path(__file__).resolve().parents[1] / "corpus"
    cases = (
        sorted(
            (c for c in corpus.iter_cases(root) if c.path is not None and not c.compile_only),
            key=lambda c: len(c.program_text()),
        )
        if root.is_dir()
        else []
    )
    if not cases:
        pytest.skip("the repository's corpus has no cases yet")
    import shutil

    case_dir = cases[0].path  # the smallest one
    shutil.copytree(case_dir, pytester.path / "mycorpus" / case_dir.name)
    result = _run_iree(pytester, "--ireefuzz-corpus=mycorpus", "-v")
    assert result.ret in (pytest.ExitCode.OK, pytest.ExitCode.TESTS_FAILED)
    outcomes = result.parseoutcomes()
    assert sum(outcomes.get(k, 0) for k in ("passed", "failed", "xfailed", "xpassed")) >= 1, outcomes
    assert "INTERNALERROR" not in result.stdout.str()
