"""Bundles of raw ``.mlir`` programs (``ireefuzz check``, the plugin's ``.mlir`` items): every kind has run.sh,
inputs.npz and ISSUE.md, and run.sh gives the verdict under ``env -i`` with only the two stock IREE tools."""

from __future__ import annotations

import pytest
from programs import ADD
from test_bundle import _run, _stock_tools
from test_plugin import MUTATING_MLIR

from ireefuzz.oracles.finding import Finding

NAMED_MODULE = "module @kernels {\n" + MUTATING_MLIR + "}\n"  # its functions are kernels.<name> in the VM


def _bundle(tmp_path, program: str, finding: Finding | None = None):
    from ireefuzz.tools.check import check_results
    from ireefuzz.tools.filing.repro import make_program_bundle

    (result,) = check_results(program)
    finding = finding or next(f for f in result.findings if f.oracle == "immutability")
    return make_program_bundle(finding, result.case).dump(tmp_path / "bundle")


@pytest.mark.iree
@pytest.mark.parametrize("program", [MUTATING_MLIR, NAMED_MODULE], ids=["module", "named-module"])
def test_a_raw_immutability_bundle_reproduces_with_only_the_two_tools(tmp_path, program):
    bundle = _bundle(tmp_path, program)
    assert {"run.sh", "inputs.npz", "ISSUE.md", "inputs_after.mlir"} <= {p.name for p in bundle.iterdir()}
    tools = _stock_tools(tmp_path)
    proc = _run(bundle, tools)
    assert proc.returncode == 1 and "BUG REPRODUCED" in proc.stdout, proc.stdout + proc.stderr
    (tools / "iree-run-module").unlink()
    assert _run(bundle, tools).returncode == 2  # a tool missing: could not tell


@pytest.mark.iree
def test_a_raw_immutability_bundle_of_a_correct_program_does_not_reproduce(tmp_path):
    claimed = Finding("immutability", "input-mutated", "immutability/input-mutated/linalg.generic/f32/S", "m", {})
    bundle = _bundle(tmp_path, ADD, claimed)
    proc = _run(bundle, _stock_tools(tmp_path))
    assert proc.returncode == 0 and "not reproduced" in proc.stdout, proc.stdout + proc.stderr


@pytest.mark.iree
def test_a_compile_only_program_bundle_has_a_run_sh(tmp_path):
    """A ``.mlir`` file without an inputs spec is compiled only; its memory finding's bundle still gets run.sh
    and ISSUE.md (no inputs: run.sh only compiles)."""
    from pathlib import Path

    from ireefuzz.tools.check import check_results
    from ireefuzz.tools.filing.repro import make_program_bundle

    # an NCHW conv whose splat init is a generic keeps a stack alloca beyond any scratch its ops require
    program = Path(__file__).resolve().parents[1] / "docs" / "repros" / "nchw_conv_splat_generic_init_alloca.mlir"
    (result,) = check_results(program.read_text(), compile_only=True)
    finding = next(f for f in result.findings if f.signature.startswith("memory/alloca/"))
    bundle = make_program_bundle(finding, result.case).dump(tmp_path / "bundle")
    assert {"run.sh", "ISSUE.md"} <= {p.name for p in bundle.iterdir()}
    tools = _stock_tools(tmp_path)
    (tools / "iree-run-module").unlink()  # a compile-only verdict needs iree-compile alone
    proc = _run(bundle, tools)
    assert proc.returncode == 1 and "BUG REPRODUCED" in proc.stdout, proc.stdout + proc.stderr


def test_the_plugin_bundles_a_compile_only_function_in_full():
    """The plugin's ``.mlir`` item hands a compile-only function's case to ``make_program_bundle`` too (it
    used to pass only functions that ran, so their bundles had no run.sh nor ISSUE.md)."""
    from ireefuzz.core.frontends import FunctionSignature, ProgramCase
    from ireefuzz.testing import _program_case_of

    compile_only = ProgramCase("", FunctionSignature("f", (), ()), None)
    finding = Finding("memory", "alloca", "memory/alloca/x/-/-", "m", {"function": "f"})
    assert _program_case_of(finding, {"f": compile_only}) is compile_only
    assert (
        _program_case_of(Finding("memory", "alloca", "memory/alloca/x/-/-", "m", {}), {"f": compile_only})
        is compile_only
    )


@pytest.mark.iree
def test_issue_md_names_the_dispatch_as_the_finding_does_and_as_the_bundle_does(tmp_path):
    from pathlib import Path

    from ireefuzz.core.evaluate import evaluate
    from ireefuzz.tools.corpus import load_case
    from ireefuzz.tools.filing.repro import write_bundle

    case = load_case(Path(__file__).resolve().parents[1] / "corpus" / "seeds" / "dot_33x16x49_exp_static").case
    finding = next(f for f in evaluate([case])[0].findings if f.signature.startswith("memory/alloca/"))
    issue = (write_bundle(finding, case, tmp_path / "bundle") / "ISSUE.md").read_text()
    found_as = finding.evidence["dispatch"]
    assert not found_as.startswith("main_") and f"`{found_as}`" in issue
    assert "main_dispatch_" + found_as.partition("_dispatch_")[2] in issue
