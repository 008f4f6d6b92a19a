"""``ireefuzz.check_jax``: a JAX function through jax.export and IREE, every oracle, JAX in float64 as reference.

Fast: bad input is one line (a non-array argument, a function JAX cannot export, a dynamic dim the
function rejects, a malformed ``dynamic=``), the float64 reference widens the function's own f32 casts,
shape instances, tiling, and the numeric judge on recorded outputs (a wrong output is caught, a right one
passes). ``iree``: an injected fault (a constant patched into the exported program) fails the test with
its signature and a bundle whose run.sh reproduces it with stock tools, and the unpatched program passes;
the five example models show exactly their triaged findings on 3.13; the docs example runs verbatim.
"""

from __future__ import annotations

import dataclasses
import importlib
import json
import re
import sys
from pathlib import Path

import numpy as np
import pytest

from ireefuzz.errors import UsageError

jax = pytest.importorskip("jax")
jnp = pytest.importorskip("jax.numpy")

import ireefuzz  # noqa: E402
from ireefuzz import testing  # noqa: E402
from ireefuzz.core.evaluate import Policy  # noqa: E402
from ireefuzz.tools import jax_model  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]
DOCS = ROOT / "docs" / "jax-models.md"
pytest_plugins = ["pytester"]


def scaled(x, w):
    return jnp.tanh(x @ w) * 3.0


def scaled_args(batch=4):
    rng = np.random.default_rng(0)
    return rng.standard_normal((batch, 16)).astype(np.float32), rng.standard_normal((16, 8)).astype(np.float32)


# --------------------------------------------------------------------------- bad input: one line


def _one_line(excinfo) -> str:
    text = str(excinfo.value)
    assert "\n" not in text, text
    return text


def test_a_non_array_argument_is_one_usage_error():
    with pytest.raises(UsageError) as e:
        jax_model.export_model(lambda x, n: x * n, np.ones(3, np.float32), "three")
    assert "argument 1 (n) is a str" in _one_line(e) and "functools.partial" in str(e.value)


def test_a_function_jax_cannot_export_is_one_usage_error():
    def uses_numpy_on_a_tracer(x):
        return np.asarray(x) + 1  # a concrete NumPy call: JAX cannot trace it

    with pytest.raises(UsageError) as e:
        jax_model.export_model(uses_numpy_on_a_tracer, np.ones(3, np.float32))
    assert "jax.export cannot export uses_numpy_on_a_tracer" in _one_line(e)


def test_a_dynamic_dim_the_function_rejects_is_one_usage_error():
    def branches_on_the_batch(x):
        return x[:4] if x.shape[0] > 4 else x  # needs a concrete batch size

    with pytest.raises(UsageError) as e:
        jax_model.export_model(branches_on_the_batch, np.ones((8, 3), np.float32), dynamic={"x": {0: "batch"}})
    assert "rejects the dynamic dim(s) batch" in _one_line(e) and "drop them from dynamic=" in str(e.value)


@pytest.mark.parametrize(
    "dynamic, says",
    [
        ({"y": {0: "b"}}, "no such argument"),
        ({3: {0: "b"}}, "use a position 0..0"),
        ({0: {2: "b"}}, "axis 2 is not one of its axes"),
        ({0: {0: "not a name"}}, "is not a name"),
        ({0: [0]}, "give {axis: symbol name}"),
    ],
)
def test_a_malformed_dynamic_is_one_usage_error(dynamic, says):
    with pytest.raises(UsageError) as e:
        jax_model.export_model(lambda x: x + 1, np.ones((2, 3), np.float32), dynamic=dynamic)
    assert says in _one_line(e)


def test_the_fixture_reports_bad_input_as_one_line_without_a_traceback(pytester: pytest.Pytester):
    pytester.makepyfile(
        test_bad="""
        import numpy as np

        def test_non_array(check_jax):
            check_jax(lambda x, n: x * n, np.ones(3, np.float32), 3.0)
    """
    )
    result = pytester.runpytest_subprocess("-p", "no:cacheprovider", timeout=300)
    result.assert_outcomes(failed=1)
    output = result.stdout.str()
    assert "usage error: check_jax(lambda): argument 1 (n) is a float, not an array" in output
    assert "Traceback" not in output and "def test_non_array" not in output


# --------------------------------------------------------------------------- the reference, shapes, inputs


def test_the_reference_is_float64_even_where_the_function_casts_to_float32():
    def cancels_in_f32(x):
        big = jnp.float32(1e8)
        return (x.astype(jnp.float32) + big) - big  # 0 in float32, x in float64

    x = np.full((3,), 0.25, np.float32)
    model = jax_model.export_model(cancels_in_f32, x)
    ref = model.reference([x])
    assert ref.outputs[0].dtype == np.float64 and np.array_equal(ref.outputs[0], [0.25] * 3)
    assert ref.float_types == ("f32",) and ref.depth >= 2
    assert not jax.config.jax_enable_x64  # restored after the evaluation


def test_the_reference_counts_the_longest_accumulation():
    x, w = scaled_args()
    ref = jax_model.export_model(scaled, x, w).reference([x, w])
    assert ref.longest_reduction == 16
    np.testing.assert_allclose(ref.outputs[0], np.tanh(x.astype(np.float64) @ w.astype(np.float64)) * 3, rtol=1e-12)


def test_only_rounding_ops_deepen_the_error_chain():
    def moves_then_scales(x):
        return jnp.transpose(x).reshape(-1)[::-1] * 2.0  # transpose, reshape, reverse round nothing

    x = np.ones((2, 3), np.float32)
    assert jax_model.export_model(moves_then_scales, x).reference([x]).depth == 1


def test_a_dtype_variant_casts_the_float_leaves_only():
    params = {"w": np.ones((2, 2), np.int8), "s": np.ones(2, np.float32)}
    (cast_params, x) = jax_model.with_float_dtype((params, np.ones(2, np.float32)), "bf16")
    assert (
        cast_params["w"].dtype == np.int8 and cast_params["s"].dtype.name == "bfloat16" and x.dtype.name == "bfloat16"
    )
    with pytest.raises(UsageError, match="choose from f32, f16, bf16"):
        jax_model.with_float_dtype((x,), "f8")


def test_shape_instances_start_with_the_example_then_awkward_sizes_smallest_first():
    x, w = scaled_args(batch=4)
    model = jax_model.export_model(scaled, x, w, dynamic={"x": {0: "batch"}})
    instances = jax_model.shape_instances(model, 4)
    assert instances[0] == {"batch": 4}
    drawn = [s["batch"] for s in instances[1:]]
    assert drawn == sorted(drawn) and 1 in drawn and max(jax_model.AWKWARD) in drawn
    assert set(drawn) <= set(jax_model.AWKWARD)
    assert jax_model.shape_instances(model, [{"batch": 9}, {"batch": 2}]) == ({"batch": 9}, {"batch": 2})
    with pytest.raises(UsageError, match="a size >= 1"):
        jax_model.shape_instances(model, [{"batch": 0}])


def pairs(x):
    return x.reshape(x.shape[0] // 2, 2, x.shape[1]).sum(axis=1)  # needs an even number of rows


def test_drawn_sizes_the_function_rejects_are_not_run_and_given_ones_are_one_usage_error():
    model = jax_model.export_model(pairs, np.ones((8, 3), np.float32), dynamic={0: {0: "rows"}})
    kept = jax_model.accepted_instances(model, 6, seed=1)
    assert kept[0] == {"rows": 8} and all(s["rows"] % 2 == 0 for s in kept)
    assert len(kept) < len(jax_model.shape_instances(model, 6, seed=1))  # 1 and 257 were drawn, and dropped
    with pytest.raises(UsageError) as e:
        jax_model.accepted_instances(model, [{"rows": 4}, {"rows": 7}])
    assert "pairs rejects {'rows': 7}" in _one_line(e)


def test_an_argument_at_another_size_is_the_example_tiled():
    leaf = jax_model.Leaf(np.arange(6).reshape(3, 2), {0: "n"})
    assert leaf.at({"n": 5}).tolist() == [[0, 1], [2, 3], [4, 5], [0, 1], [2, 3]]
    assert leaf.at({"n": 1}).tolist() == [[0, 1]]


def test_pytree_arguments_are_flattened_in_export_order():
    def fn(params, x):
        return x @ params["w"] + params["b"]

    params = {"b": np.zeros(4, np.float32), "w": np.ones((3, 4), np.float32)}
    model = jax_model.export_model(fn, params, np.ones((2, 3), np.float32), dynamic={"x": {0: "rows"}})
    assert [leaf.example.shape for leaf in model.leaves] == [(4,), (3, 4), (2, 3)]
    assert [dict(leaf.dynamic) for leaf in model.leaves] == [{}, {}, {0: "rows"}]
    assert "tensor<?x3xf32>" in model.text


# --------------------------------------------------------------------------- the numeric judge, on recorded outputs


def _judge(outputs):
    x, w = scaled_args()
    model = jax_model.export_model(scaled, x, w)
    case = jax_model.make_case(model, ({},), jax_model.sut.CompilerConfig())
    return jax_model._jax_numbers(
        case, {}, [x, w], outputs, config=jax_model.sut.CompilerConfig(), policy=Policy(), dispatches=()
    )


def test_the_numeric_judge_passes_float32_rounding_of_the_right_answer():
    x, w = scaled_args()
    right = (np.tanh(x.astype(np.float64) @ w.astype(np.float64)) * 3).astype(np.float32)
    result = _judge([right])
    assert result.findings == () and result.discarded == 0


def test_the_numeric_judge_catches_a_wrong_constant():
    x, w = scaled_args()
    wrong = (np.tanh(x.astype(np.float64) @ w.astype(np.float64)) * 3.01).astype(np.float32)
    (finding,) = _judge([wrong]).findings
    assert finding.signature.startswith("numeric/wrong-value/")
    assert "JAX float64" in finding.message and finding.evidence["reference"] == "jax-float64"


# --------------------------------------------------------------------------- through IREE


def _patch_constant(monkeypatch, old: str, new: str) -> None:
    """The exported program with one constant changed: what IREE compiles computes another function."""
    real = jax_model.export_model

    def patched(*args, **kwargs):
        model = real(*args, **kwargs)
        assert old in model.text
        return dataclasses.replace(model, text=model.text.replace(old, new))

    monkeypatch.setattr(jax_model, "export_model", patched)


@pytest.mark.iree
def test_an_injected_wrong_constant_fails_with_its_signature_and_a_reproducing_bundle(monkeypatch, tmp_path):
    from ireefuzz.tools.filing.bundle import run_bundle

    _patch_constant(monkeypatch, "3.000000e+00", "3.010000e+00")
    sut = testing.IreeSut(bundle_dir=tmp_path)
    x, w = scaled_args()
    with pytest.raises(testing.IreefuzzFailure) as e:
        testing.check_jax(
            scaled, x, w, dynamic={0: {0: "batch"}}, oracles=["numeric", "crash"], sut=sut, test_id="fault"
        )
    text = str(e.value)
    signature = re.search(r"^  (numeric/wrong-value/\S+)$", text, re.MULTILINE).group(1)
    assert "JAX float64" in text
    bundle = next(p.parent for p in tmp_path.rglob("run.sh"))
    assert {"program.mlir", "inputs.npz", "expected.npz", "run.sh", "ISSUE.md", "finding.json"} <= {
        p.name for p in bundle.iterdir()
    }
    assert "3.010000e+00" in (bundle / "program.mlir").read_text()
    assert json.loads((bundle / "finding.json").read_text())["signature"] == signature
    issue = (bundle / "ISSUE.md").read_text()
    assert "JAX itself on CPU" in issue and "## After IREE's input conversion" in issue and "linalg." in issue
    status, output = run_bundle(bundle)
    assert status == 1, output  # stock iree-compile / iree-run-module see the wrong numbers


@pytest.mark.iree
def test_the_same_model_without_the_fault_passes():
    x, w = scaled_args()
    result = testing.check_jax(scaled, x, w, dynamic={0: {0: "batch"}}, oracles=["numeric", "crash"])
    assert result.findings == () and len(result.case.instances) == 4


@pytest.mark.iree
def test_a_memory_finding_bundle_gives_the_dispatch_at_fault_as_a_program_of_its_own(tmp_path):
    """On 3.13 the dynamic-batch matmul keeps stack tiles (iree-org/iree#8303): the bundle's ISSUE.md names the
    dispatch and carries its executable source."""
    sut = testing.IreeSut(bundle_dir=tmp_path)
    x, w = scaled_args()
    with pytest.raises(testing.IreefuzzFailure, match=r"memory/alloca/"):
        testing.check_jax(scaled, x, w, dynamic={0: {0: "batch"}}, oracles=["memory"], sut=sut, test_id="memory")
    issue = next(tmp_path.rglob("ISSUE.md")).read_text()
    assert "## The dispatch at fault" in issue and "hal.executable public @scaled_dispatch_0" in issue


@pytest.mark.iree
def test_a_compile_failure_fails_with_its_signature_and_says_the_input_conversion_fails(tmp_path):
    """3.13: centring rows at a dynamic batch (a layer norm's mean with keepdims) exports a rank-expanding
    dynamic_broadcast_in_dim that IREE's input conversion does not legalize; run.sh sees it with stock tools."""
    from ireefuzz.tools.filing.bundle import run_bundle

    def centred(x):
        return x - jnp.mean(x, axis=-1, keepdims=True)

    sut = testing.IreeSut(bundle_dir=tmp_path)
    with pytest.raises(testing.IreefuzzFailure, match=r"crash/compile-error/stablehlo.dynamic_broadcast_in_dim"):
        testing.check_jax(centred, np.ones((4, 8), np.float32), dynamic={0: {0: "batch"}}, sut=sut, test_id="cc")
    bundle = next(p.parent for p in tmp_path.rglob("run.sh"))
    assert "the input conversion itself is where this fails" in (bundle / "ISSUE.md").read_text()
    status, output = run_bundle(bundle)
    assert status == 1, output


def scaled_past_16(x, w):
    extra = jnp.maximum(x.shape[0] - 16, 0)  # 0 up to 16 rows: a constant times it only shows past 16
    return jnp.tanh(x @ w) * 3.0 + extra * 0.0


@pytest.mark.iree
@pytest.mark.slow
def test_a_hypothesis_sweep_shrinks_a_failing_size_to_the_smallest_that_fails(monkeypatch, tmp_path):
    """The fault (0.0 patched to 0.5) is wrong only past 16 rows: Hypothesis draws batch sizes over the awkward
    values and shrinks the failure to 17, the smallest of them that fails; 16 and below pass."""
    from hypothesis import given, settings

    _patch_constant(monkeypatch, "dense<0.000000e+00> : tensor<f32>", "dense<5.000000e-01> : tensor<f32>")
    sut = testing.IreeSut(bundle_dir=tmp_path)
    x, w = scaled_args(batch=4)
    outcomes: list[tuple[int, bool]] = []

    @settings(max_examples=12, derandomize=True, database=None, deadline=None)
    @given(sizes=ireefuzz.awkward_sizes("batch"))
    def sweep(sizes):
        try:
            testing.check_jax(
                scaled_past_16,
                x,
                w,
                dynamic={"x": {0: "batch"}},
                instances=[sizes],
                oracles=["numeric"],
                sut=sut,
                test_id="sweep",
            )
        except testing.IreefuzzFailure:
            outcomes.append((sizes["batch"], False))
            raise
        outcomes.append((sizes["batch"], True))

    with pytest.raises(testing.IreefuzzFailure, match=r"numeric/wrong-value/"):
        sweep()
    assert all(ok == (size <= 16) for size, ok in outcomes), outcomes
    assert outcomes[-1] == (17, False)  # Hypothesis replays the minimal failing example last


# --------------------------------------------------------------------------- the example models on 3.13

# Each model's findings on IREE 3.13 (this venv), triaged in the session note:
#  - dynamic_broadcast_in_dim: StableHLO's rank-expanding dynamic broadcast of a dynamic dim does not
#    legalize (a layer norm / RMS norm / softmax with keepdims at a dynamic batch); upstream
#    openxla/stablehlo#2833 (real bug, known);
#  - gather -> reshape: IREE's gather rewrite makes a stablehlo.reshape with a dynamic result, which its own
#    verifier rejects (any table[ids] with a dynamic number of ids; static compiles): real bug;
#  - memory alloca / copy in a dynamic-M matmul (DoubleTilingExpert): iree-org/iree#8303 (real bug, known).
EXPECTED_ON_3_13 = {
    "mlp": {"crash/compile-error/stablehlo.dynamic_broadcast_in_dim[failed-to-legalize-operation-that-was]/-/-"},
    "transformer": {
        "crash/compile-error/stablehlo.dynamic_broadcast_in_dim[failed-to-legalize-operation-that-was]/-/-"
    },
    "convnet": set(),
    "moe": {"crash/compile-error/stablehlo.reshape[op-result-must-be-statically-shaped]/-/-"},
    "int8_matmul": {"memory/alloca/fill>matmul>generic/f32/?xSxS", "memory/copy/fill>matmul>generic/f32/?xSxS"},
}


def _example(name: str):
    if not (ROOT / "examples" / "models").is_dir():
        pytest.skip("examples/models is in the checkout only")
    sys.path.insert(0, str(ROOT))
    try:
        return importlib.import_module(f"examples.models.{name}")
    finally:
        sys.path.remove(str(ROOT))


@pytest.mark.iree
@pytest.mark.slow
@pytest.mark.parametrize("name", sorted(EXPECTED_ON_3_13))
def test_the_example_models_show_their_triaged_findings_on_3_13(name):
    from ireefuzz import sut

    if not sut.compiler_version(sut.find_iree_compile(sut.CompilerConfig())).startswith("3.13"):
        pytest.skip("the triage is of IREE 3.13")
    model = _example(name)
    case, result = jax_model.check_results(model.forward, *model.example_args(), dynamic=model.DYNAMIC)
    assert len(case.instances) == 4
    assert {f.signature for f in result.findings} == EXPECTED_ON_3_13[name]


# --------------------------------------------------------------------------- the docs example, verbatim


def docs_blocks() -> tuple[str, str]:
    text = DOCS.read_text()
    python = re.search(r"```python\n(.*?)```", text, re.DOTALL).group(1)
    known = re.search(r"```json\n(.*?)```", text, re.DOTALL).group(1)
    return python, known


def docs_signatures() -> list[str]:
    return re.findall(
        r"^  (\S+/\S+)$", re.search(r"```text\n(.*?)```", DOCS.read_text(), re.DOTALL).group(1), re.MULTILINE
    )


@pytest.mark.iree
@pytest.mark.slow
def test_the_docs_example_runs_verbatim(pytester: pytest.Pytester):
    """The test file and the baseline of docs/jax-models.md, as a model repository has them: without the
    baseline it fails with the signatures the docs print, with it it passes (known findings warn)."""
    python, known = docs_blocks()
    (pytester.path / "tests").mkdir()
    (pytester.path / "tests" / "test_my_model.py").write_text(python)
    (pytester.path / "known_findings.json").write_text(known)
    failing = pytester.runpytest_subprocess("-p", "no:cacheprovider", "tests", timeout=900)
    output = failing.stdout.str()
    failing.assert_outcomes(passed=1, failed=1)
    for signature in docs_signatures():
        assert signature in output
    passing = pytester.runpytest_subprocess(
        "-p", "no:cacheprovider", "--ireefuzz-baseline=known_findings.json", "tests", timeout=900
    )
    passing.assert_outcomes(passed=2)
    assert "known finding" in passing.stdout.str()


# --------------------------------------------------------------------------- ireefuzz fuzz --model

MODEL_MODULE = """
import jax.numpy as jnp
import numpy as np

DYNAMIC = {"x": {0: "batch"}}


def scaled(x, w):
    return jnp.tanh(x @ w) * 3.0


def example_args():
    rng = np.random.default_rng(0)
    return rng.standard_normal((4, 16)).astype(np.float32), rng.standard_normal((16, 8)).astype(np.float32)
"""


def _ireefuzz(*argv: str, cwd: Path):
    import os
    import subprocess

    env = dict(os.environ, JAX_PLATFORMS="cpu")
    return subprocess.run(
        [sys.executable, "-m", "ireefuzz.cli", *argv],
        check=False,
        cwd=cwd,
        env=env,
        capture_output=True,
        text=True,
        timeout=900,
    )


@pytest.mark.parametrize(
    "spec, says",
    [
        ("no_such_module:fn", "cannot import no_such_module"),
        ("model_mod", "give MODULE:FUNCTION"),
        ("model_mod:nothing", "has no function nothing"),
        ("bare_mod:scaled", "must define example_args()"),
    ],
)
def test_fuzz_model_bad_specs_are_one_usage_error(tmp_path, spec, says):
    (tmp_path / "model_mod.py").write_text(MODEL_MODULE)
    (tmp_path / "bare_mod.py").write_text("def scaled(x):\n    return x\n")
    result = _ireefuzz("fuzz", "--model", spec, "--out", str(tmp_path / "run"), cwd=tmp_path)
    assert result.returncode == 2, result.stderr
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and says in lines[0] and "Traceback" not in result.stderr


def test_model_variants_start_with_the_model_as_given_and_are_deterministic():
    from ireefuzz.sut import config_space

    space = config_space.limited_to(frozenset({"--iree-opt-data-tiling", "--iree-opt-level"}), ("host", "generic"))
    drawn = jax_model.variants(3, 6, True, space)
    assert drawn == jax_model.variants(3, 6, True, space)
    first = drawn[0]
    assert (first.dtype, first.dynamic, first.target_cpu, first.flags) == ("f32", True, "host", ())
    assert {v.dtype for v in drawn} <= set(jax_model.FUZZ_DTYPES)
    assert not any(v.dynamic for v in jax_model.variants(3, 6, False, space))


@pytest.mark.iree
@pytest.mark.slow
def test_fuzz_model_checks_variants_and_bundles_each_new_signature(tmp_path):
    (tmp_path / "model_mod.py").write_text(MODEL_MODULE)
    (tmp_path / "none.json").write_text("[]")
    result = _ireefuzz(
        "fuzz",
        "--model",
        "model_mod:scaled",
        "--cases",
        "2",
        "--oracles",
        "memory,crash,numeric",
        "--baseline",
        "none.json",
        "--out",
        "run",
        cwd=tmp_path,
    )
    rows = [json.loads(line) for line in (tmp_path / "run" / "findings.jsonl").read_text().splitlines()]
    assert [r["variant"]["index"] for r in rows] == [0, 1]
    signatures = {f["signature"] for r in rows for f in r["findings"]}
    assert any(s.startswith("memory/alloca/") for s in signatures)  # the dynamic-batch matmul on 3.13 (#8303)
    assert result.returncode == 1, result.stdout + result.stderr
    bundles = {p.name for p in (tmp_path / "run" / "bundles").iterdir()}
    assert len(bundles) == len(signatures) and all(
        (tmp_path / "run" / "bundles" / b / "run.sh").is_file() for b in bundles
    )
