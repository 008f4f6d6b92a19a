"""The differential loop end to end against the real IREE compiler and runtime, and real JAX.

Faults are injected at the boundary between IREE and the oracles (the runtime's outputs and
input buffers, the compiler binary), so each oracle is shown catching them through the whole
pipeline with the right signature, while the clean run stays clean.
"""

import json
import stat

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings

from ireefuzz import sut
from ireefuzz.base.durable import append_line, read_jsonl
from ireefuzz.core.evaluate import evaluate
from ireefuzz.generators.case import Case
from ireefuzz.generators.strategies import cases
from tests.test_graph import fme_graph

pytestmark = pytest.mark.iree

FME = Case(fme_graph(), ({"M": 33, "N": 49}, {"M": 8, "N": 16}, {"M": 1, "N": 1}), seed=1)
FME_SIG = "fill>matmul>exp/f32/?x?"


def run_with(monkeypatch, transform=None, mutate_inputs=None, case=FME, config=sut.CompilerConfig()):
    """Evaluate ``case`` with the runtime's outputs passed through ``transform`` (a fault)."""
    real_call = sut.LoadedModule.call

    def faulty(self, function, inputs):
        result = real_call(self, function, inputs)
        if isinstance(result, sut.RunResult):
            outputs = tuple(transform(o) for o in result.outputs) if transform else result.outputs
            after = tuple(mutate_inputs(x) for x in result.inputs_after) if mutate_inputs else result.inputs_after
            result = sut.RunResult(outputs, after, result.seconds)
        return result

    monkeypatch.setattr(sut.LoadedModule, "call", faulty)
    (result,) = evaluate([case], config)
    return [f.signature for f in result.findings if not f.oracle == "memory"]


def test_clean_run_has_no_numeric_or_crash_finding(monkeypatch):
    assert run_with(monkeypatch) == []


@pytest.mark.parametrize(
    "fault, kind",
    [
        (lambda o: np.where(np.arange(o.size).reshape(o.shape) == 3, o * 1.5, o).astype(o.dtype), "wrong-value"),
        (lambda o: o.T.copy() if o.shape[0] == o.shape[1] and o.shape[0] > 1 else o, None),
        (lambda o: o[:, :-1] if o.shape[1] > 1 else o, "wrong-shape"),
        (lambda o: np.where(np.arange(o.size).reshape(o.shape) == 0, np.nan, o).astype(o.dtype), "nan-mismatch"),
    ],
)
def test_injected_output_faults_are_numeric_findings(monkeypatch, fault, kind):
    if kind is None:  # transposed result: only visible at a square, non-symmetric instance
        case = Case(fme_graph(), ({"M": 16, "N": 16},), seed=1)
        assert run_with(monkeypatch, fault, case=case) == [f"numeric/wrong-value/{FME_SIG}"]
        return
    assert run_with(monkeypatch, fault) == [f"numeric/{kind}/{FME_SIG}"]


def test_result_computed_at_the_wrong_dynamic_size_is_caught(monkeypatch):
    """Pretend IREE used N=48 for N=49: the last column comes out as the fill value's exp."""

    def wrong_size(o):
        o = o.copy()
        if o.shape[1] == 49:
            o[:, 48] = 1.0
        return o

    assert run_with(monkeypatch, wrong_size) == [f"numeric/wrong-value/{FME_SIG}"]


def test_every_finding_records_the_resolved_cpu_and_compiler(monkeypatch):
    real_call = sut.LoadedModule.call
    monkeypatch.setattr(sut.LoadedModule, "call", lambda self, f, xs: sut.RunFailure("fault", "injected"))
    (result,) = evaluate([FME])
    platform = result.findings[0].evidence["platform"]
    assert platform["target_cpu"] == "host" and platform["cpu"] not in ("", "host")  # e.g. znver5
    assert platform["cpu_features"].startswith("+") and platform["compiler_version"]
    assert all(f.evidence["platform"] == platform for f in result.findings)
    monkeypatch.setattr(sut.LoadedModule, "call", real_call)


def test_mutated_input_buffer_is_an_immutability_finding(monkeypatch):
    def scribble(x):
        x = x.copy()
        x.reshape(-1)[0] += 1
        return x

    assert run_with(monkeypatch, mutate_inputs=scribble) == [
        "immutability/input-mutated/matmul/f32/?xS",
        "immutability/input-mutated/matmul/f32/Sx?",
    ]


def fake_compiler(tmp_path, body, timeout_s=120.0):
    """A compiler script; the short timeout is for the hang case only (real compiles behind a fake wrapper
    take longer than 2 s on a loaded machine, which would be read as a timeout of the innocent case)."""
    path = tmp_path / "iree-compile"
    path.write_text("#!/bin/sh\n" + body)
    path.chmod(path.stat().st_mode | stat.S_IXUSR)
    return sut.CompilerConfig(iree_compile=str(path), timeout_s=timeout_s)


@pytest.mark.parametrize(
    "body, kind",
    [
        (
            'line=$(grep -n linalg.matmul "$1" | cut -d: -f1)\n'
            'echo "$1:$line:3: error: \'linalg.matmul\' op injected failure" >&2\nsed -n "${line}p" "$1" >&2\nexit 1\n',
            "compile-error",
        ),
        ("kill -SEGV $$\n", "compile-crash"),
        ("sleep 30\n", "compile-timeout"),
    ],
)
def test_failing_compiles_are_crash_findings(tmp_path, body, kind):
    (result,) = evaluate([FME], fake_compiler(tmp_path, body, timeout_s=2 if kind == "compile-timeout" else 120))
    (finding,) = result.findings
    assert finding.oracle == "crash" and finding.kind == kind
    if kind == "compile-error":  # the diagnostic's line is mapped back to the graph node
        assert finding.signature == "crash/compile-error/matmul[op-injected-failure]/f32/?x?"
    assert finding.evidence["command"][0].endswith("iree-compile") and finding.case == FME.to_json()


def test_a_failing_graph_in_a_batch_is_pinned_to_its_own_case(tmp_path):
    """Batch of 4 sharing one module; a compiler that rejects only g2's text -> only case 2 fails."""
    body = (
        'if [ -f "$1" ] && grep -q "func.func @g2" "$1"; then echo "$1:1:1: error: nope" >&2; exit 1; fi\n'
        f'exec {sut.find_iree_compile(sut.CompilerConfig())} "$@"\n'
    )
    results = evaluate([FME] * 4, fake_compiler(tmp_path, body))
    assert [bool([f for f in r.findings if f.oracle == "crash"]) for r in results] == [False, False, True, False]


@settings(max_examples=150, suppress_health_check=list(HealthCheck), deadline=None, database=None)
@given(cases())
def _draw(case):
    DRAWN.append(case)


DRAWN: list = []


def test_property_over_150_generated_cases(tmp_path):
    """Every generated case agrees with the references, or its findings are written out with a
    signature. Cases are drawn by Hypothesis, then checked 10 graphs per compiled module."""
    DRAWN.clear()
    _draw()
    assert len(DRAWN) >= 150
    out = tmp_path / "findings.jsonl"
    results = []
    for i in range(0, len(DRAWN), 10):
        results += evaluate(DRAWN[i : i + 10])
    assert [r.case for r in results] == DRAWN  # nothing skipped, nothing reordered
    for r in results:
        for f in r.findings:
            labelled = {k: v for k, v in (f.case or {}).items() if k != "beyond_frontends"}  # the ranking's label
            assert f.signature.count("/") >= 4 and labelled == r.case.to_json()
            append_line(out, f.dumps())
    written = read_jsonl(out)
    assert len(written) == sum(len(r.findings) for r in results)
    summary = {}
    for row in written:
        summary[row["signature"]] = summary.get(row["signature"], 0) + 1
    print(json.dumps(summary, indent=1))
