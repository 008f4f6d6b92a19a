"""One evaluation pipeline: every face of raw-MLIR checking (``ireefuzz check``, the plugin's ``.mlir``
items, raw corpus cases) goes through ``evaluate`` with the MLIR frontend, shown with a fault-injected
(crashing) ``iree-compile``; the raw-program numeric judge (``reference_outputs``, host-vs-generic) with
faults injected into its references (real IREE)."""

from __future__ import annotations

import argparse
import importlib
import json
from pathlib import Path

import pytest
from programs import ADD

from ireefuzz import sut
from ireefuzz.core import evaluate, relations
from ireefuzz.core.evaluate import Policy
from ireefuzz.oracles import metamorphic

check = importlib.import_module("ireefuzz.tools.check")  # `from ireefuzz import check` is the API function
frontends = importlib.import_module("ireefuzz.core.frontends")

TWO_FUNCTIONS = ADD + ADD.replace("@add(", "@add_again(")


@pytest.fixture
def crashing_compiler(tmp_path: Path) -> Path:
    """An ``iree-compile`` that kills itself with SIGSEGV (a compiler crash) on every program but the
    start-up probes' (``--version`` and the tiny ``@probe`` modules, compiled by the real compiler, since
    the runtime is checked to load them)."""
    from ireefuzz.sut import CompilerConfig, find_iree_compile

    path = tmp_path / "fake-iree-compile"
    path.write_text(f"""#!/bin/sh
[ "$1" = --version ] && exec {find_iree_compile(CompilerConfig())} "$@"
while IFS= read -r line; do
  case $line in *@probe*) exec {find_iree_compile(CompilerConfig())} "$@" ;; esac
done < "$1"
kill -SEGV $$
""")
    path.chmod(0o755)
    return path


@pytest.fixture
def batches(monkeypatch) -> list[tuple[str, list[str]]]:
    """Every ``evaluate_batch`` call as (frontend name, function names)."""
    calls: list[tuple[str, list[str]]] = []
    original = evaluate.evaluate_batch

    def spy(named, config, policy, frontend=evaluate.LINALG):
        calls.append((frontend.name, [name for name, _, _ in named]))
        return original(named, config, policy, frontend)

    monkeypatch.setattr(evaluate, "evaluate_batch", spy)
    return calls


def _is_pipeline_crash(finding: dict) -> bool:
    """A compile crash as ``evaluate`` reports it (it alone adds the platform evidence)."""
    return finding["signature"].startswith("crash/compile-crash/") and "platform" in finding["evidence"]


def test_check_cli_goes_through_evaluate(tmp_path, crashing_compiler, batches, capsys):
    program = tmp_path / "add.mlir"
    program.write_text(ADD)
    parser = argparse.ArgumentParser()
    check.configure(parser)
    assert check.main(parser.parse_args([str(program), "--iree-compile", str(crashing_compiler), "--json"])) == 1
    (finding,) = json.loads(capsys.readouterr().out)["findings"]
    assert _is_pipeline_crash(finding) and finding["case"] is None
    assert batches == [("mlir", ["add"])]


def test_plugin_mlir_item_goes_through_evaluate(tmp_path, crashing_compiler, batches):
    from ireefuzz import testing

    program = tmp_path / "add.mlir"
    program.write_text(ADD)
    iree = testing.IreeSut(config=sut.CompilerConfig(iree_compile=str(crashing_compiler)), bundle_dir=tmp_path / "b")
    with pytest.raises(testing.IreefuzzFailure, match="crash/compile-crash/"):
        testing.check_mlir_file(program, sut=iree, test_id="kernels/add.mlir")
    assert batches == [("mlir", ["add"])]
    (written,) = (tmp_path / "b").rglob("findings.json")
    assert _is_pipeline_crash(json.loads(written.read_text())[0])


def test_raw_corpus_case_goes_through_evaluate(tmp_path, crashing_compiler, batches):
    from ireefuzz.tools import corpus

    (tmp_path / "program.mlir").write_text(ADD)
    (tmp_path / "case.json").write_text(
        json.dumps(
            {
                "mlir": "program.mlir",
                "functions": [],
                "shapes": {},
                "seed": 0,
                "target_cpu": "host",
                "flags": [],
                "expected": {},
            }
        )
    )
    (finding,) = corpus.check_case(corpus.load_case(tmp_path), sut.CompilerConfig(iree_compile=str(crashing_compiler)))
    assert _is_pipeline_crash(json.loads(finding.dumps()))
    assert batches == [("mlir", ["add"])]


def test_a_failing_program_is_compiled_once_whatever_its_functions(crashing_compiler, batches):
    findings = check.check_program(TWO_FUNCTIONS, sut.CompilerConfig(iree_compile=str(crashing_compiler)))
    assert [f.signature.split("/")[:2] for f in findings] == [["crash", "compile-crash"]]
    assert batches == [("mlir", ["add", "add_again"])]  # the MLIR frontend never splits one given program


def test_program_cases_carry_what_the_pipeline_needs():
    cases = frontends.program_cases(TWO_FUNCTIONS, functions=["add_again"], seed=7, target_cpu="generic")
    (case,) = cases
    assert (case.function, case.target_cpu, case.instances, case.graph) == ("add_again", "generic", ({},), None)
    assert [x.shape for x in case.inputs()] == [(8, 4), (8, 4)]
    (compile_only,) = frontends.program_cases(ADD, run=False)
    assert compile_only.instances == () and compile_only.args is None
    assert set(frontends.FRONTENDS) == {"linalg", "stablehlo", "mlir"}


# --------------------------------------------------------------------------- the raw-program numeric judge (IREE)


@pytest.fixture
def other_cpu_runs(monkeypatch) -> list[str]:
    """Count the host-vs-generic relation's compiles of the other CPU."""
    labels: list[str] = []
    original = relations.observe_program

    def spy(label, *args, **kwargs):
        labels.append(label)
        return original(label, *args, **kwargs)

    monkeypatch.setattr(relations, "observe_program", spy)
    return labels


NUMERIC = Policy(oracles=frozenset({"numeric"}))


@pytest.mark.iree
def test_reference_outputs_judge_numbers_when_given(monkeypatch, other_cpu_runs):
    monkeypatch.setattr(frontends, "reference_outputs", lambda program, function, inputs: [inputs[0] + inputs[1]])
    assert check.check_program(ADD, policy=NUMERIC) == []
    assert other_cpu_runs == []  # a judged program needs no stand-in
    monkeypatch.setattr(frontends, "reference_outputs", lambda program, function, inputs: [inputs[0] - inputs[1]])
    (finding,) = check.check_program(ADD, policy=NUMERIC)
    assert finding.signature.startswith("numeric/wrong-value/") and finding.signature.endswith("/f32/SxS")


@pytest.mark.iree
def test_host_vs_generic_stands_in_while_nothing_judges(monkeypatch, other_cpu_runs):
    monkeypatch.setattr(frontends, "reference_outputs", lambda *args: frontends.NotJudged("op test.unknown"))
    assert check.check_program(ADD, policy=NUMERIC) == []
    assert other_cpu_runs == ["cpu=generic"]
    original = relations.observe_program

    def perturbed(label, text, inputs, config, **kwargs):
        observed = original(label, text, inputs, config, **kwargs)
        return {
            fn: metamorphic.Observation(o.label, tuple(tuple(x + 1 for x in outs) for outs in o.outputs))
            for fn, o in observed.items()
        }

    monkeypatch.setattr(relations, "observe_program", perturbed)
    (finding,) = check.check_program(ADD, policy=NUMERIC)
    assert finding.signature.startswith("metamorphic/output-mismatch/") and "[config:cpu=generic]" in finding.signature


def test_frontends_pickle_by_reference():
    import pickle

    for name, frontend in frontends.FRONTENDS.items():
        again = pickle.loads(pickle.dumps(frontend))
        assert again == frontend and again.name == name  # a Dask worker gets the same frontend


def test_a_failed_compile_blames_the_functions_its_errors_point_at():
    from ireefuzz.core.evaluate import blamed_functions

    program = (
        "module {\nfunc.func @g0(%a: f32) -> f32 {\n  return %a : f32\n}\n"
        "func.func @g1(%a: f32) -> f32 {\n  return %a : f32\n}\n}\n"
    )
    names = ["g0", "g1"]
    dispatch = (
        "/tmp/x/configurations/configured_module_g1_dispatch_0.mlir:35:8: error: 'memref.alloca' op stack allocation"
    )
    linked = "iree-lld: error: undefined symbol: fmaxf\n>>>  /tmp/input_linked.o:(g0_dispatch_1_softmax_2x32x2xf16)"
    assert blamed_functions(dispatch, program, names) == ["g1"]
    assert blamed_functions(linked, program, names) == ["g0"]
    assert blamed_functions("/tmp/x/input.mlir:6:9: error: 'linalg.generic' op inferred", program, names) == ["g1"]
    assert blamed_functions("/tmp/x/input.mlir:1:1: error: failed to serialize executables", program, names) == []
    assert blamed_functions(dispatch + "\n" + linked, program, names) == ["g0", "g1"]  # each alone, then the rest
    assert blamed_functions("g10_dispatch_0: error", program, ["g1", "g10"]) == ["g10"]  # not g1
