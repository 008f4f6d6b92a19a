"""Bundles of raw ``.mlir`` programs (``ireefuzz check``, the plugin's ``.mlir`` items): every kind has run.sh,
inputs.npz and ISSUE.md, and run.sh gives the verdict under ``env -i`` with only the two stock IREE tools."""

from __future__ import annotations

import json
from pathlib import Path
from types import SimpleNamespace

import pytest
from programs import ADD
from test_bundle import _printing, _run, _stock_tools, _tools
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


# --------------------------------------------------------------------------- run.sh checks the bug's own diagnostic

BUNDLES = Path(__file__).resolve().parents[1] / "docs" / "bundles"


def _shipped(name: str) -> tuple[Finding, list[str], str]:
    """A shipped bundle's finding, flags and program."""
    (folder,) = (BUNDLES / name).glob("*/finding.json")
    recorded = json.loads(folder.read_text())
    return Finding.from_json(recorded), recorded["flags"], (folder.parent / "program.mlir").read_text()


def _compile_error_bundle(tmp_path: Path, name: str, program: str | None = None) -> Path:
    """A shipped compile-error bundle's run.sh as the tool writes it now, beside ``program`` (default: its own)."""
    from ireefuzz.oracles.crash import locate
    from ireefuzz.tools.filing.bundle import Bundle, run_script

    finding, flags, own = _shipped(name)
    graph = SimpleNamespace(args=(), outputs=())
    located = locate(own, finding.evidence["diagnostic"])[3]  # what repro passes: the error at a program line
    script = run_script(finding, graph, flags, error_message=located)
    return Bundle(program=program or own, finding=finding.to_json(), run_sh=script).dump(tmp_path / "bundle")


# 'linalg.generic' op inferred input/output operand #1 has shape's dimension ...
FOLD = "fold_unit_extent_dims/depthwise_conv_invalid_ir"
OTHER_ERROR = (
    "program.mlir:3:13: error: 'linalg.generic' op write affecting operations on global resources are restricted to "
    "workgroup distributed contexts."
)


def test_the_keys_of_a_diagnostic_are_its_literal_parts_whatever_it_begins_with():
    from ireefuzz.tools.filing.bundle import error_keys, own_diagnostic

    assert error_keys(
        "'linalg.generic' op inferred input/output operand #1 has shape's dimension #0 to be 3, but found 2"
    ) == [
        "op inferred input/output operand #",
        "has shape's dimension #",
        "but found",
    ]
    assert error_keys("failed to legalize operation 'x'") == ["failed to legalize operation"]
    assert error_keys("'x'") == [] and error_keys("") == []
    # the linker's own error, not the generic "failed to link" after it
    link, _, _ = _shipped("comment_13577_f16_maxnumf_fmaxf")
    assert own_diagnostic(link, link.message) == "undefined symbol: fmaxf"
    crash, _, _ = _shipped("mmt4d_dynamic_sigfpe")  # the frame it died in, past the signal handlers
    assert own_diagnostic(crash) == "mlir::iree_compiler::limitVectorTileSizes"


@pytest.mark.parametrize(
    "stderr,status,want",
    [
        (
            "x.mlir:9:2: error: 'linalg.conv' op inferred input/output operand #2 has shape's dimension #1 to be 4, "
            "but found 1",
            1,
            1,
        ),
        (OTHER_ERROR, 1, 2),  # another error, also quoting an op first: not this bug (run.sh said `if true`)
        ("error: unknown command line flag '--x'", 1, 2),
        ("", 0, 0),  # compiled: the bug is absent
    ],
    ids=["own-diagnostic", "other-mlir-error", "other-failure", "compiles"],
)
def test_a_compile_error_run_sh_exits_1_only_on_its_own_diagnostic(tmp_path, stderr, status, want):
    bundle = _compile_error_bundle(tmp_path, FOLD)
    proc = _run(bundle, _tools(tmp_path, _printing(stderr, status)))
    assert proc.returncode == want, proc.stdout + proc.stderr
    assert _run(bundle, _tools(tmp_path / "none", None)).returncode == 2  # no compiler: could not tell


def test_a_compile_crash_run_sh_needs_its_own_frame(tmp_path):
    from ireefuzz.tools.filing.bundle import Bundle, run_script

    finding, flags, program = _shipped("mmt4d_dynamic_sigfpe")
    script = run_script(finding, SimpleNamespace(args=(), outputs=()), flags)
    bundle = Bundle(program=program, finding=finding.to_json(), run_sh=script).dump(tmp_path / "bundle")
    frames = "Stack dump:\n #0 0x0001 llvm::sys::PrintStackTrace(llvm::raw_ostream&) S.cpp\n #1 0x0002 {}(long) x.cpp:1"
    same = _tools(tmp_path / "same", _printing(frames.format("mlir::iree_compiler::limitVectorTileSizes"), 136))
    other = _tools(tmp_path / "other", _printing(frames.format("mlir::iree_compiler::somewhereElse"), 139))
    assert _run(bundle, same).returncode == 1
    assert _run(bundle, other).returncode == 2  # another crash: not this bug


def test_a_compile_error_without_a_recorded_diagnostic_cannot_tell(tmp_path):
    from ireefuzz.tools.filing.bundle import Bundle, run_script

    finding = Finding("crash", "compile-error", "crash/compile-error/x/-/-", "m", {})
    script = run_script(finding, SimpleNamespace(args=(), outputs=()), ["--iree-hal-target-backends=llvm-cpu"])
    assert "if true" not in script
    bundle = Bundle(program="module {}\n", finding=finding.to_json(), run_sh=script).dump(tmp_path / "bundle")
    assert _run(bundle, _tools(tmp_path, _printing("x.mlir:1:1: error: anything at all", 1))).returncode == 2


@pytest.mark.iree
def test_a_compile_error_run_sh_with_the_real_compiler_tells_its_bug_from_another(tmp_path):
    """The fold-unit-dims bundle's run.sh: 1 on its own program; 2 on the unpack-into-argument program, which
    fails with another error that also begins with a quoted op name."""
    tools = _stock_tools(tmp_path)
    own = _compile_error_bundle(tmp_path / "own", FOLD)
    proc = _run(own, tools)
    assert proc.returncode == 1 and "BUG REPRODUCED" in proc.stdout, proc.stdout + proc.stderr
    _, _, unpack = _shipped("unpack_into_argument")
    other = _compile_error_bundle(tmp_path / "other", FOLD, program=unpack)
    proc = _run(other, tools)
    assert proc.returncode == 2 and "not with this bug's diagnostic" in proc.stdout, proc.stdout + proc.stderr
    assert "write affecting operations on global resources" in proc.stdout


def test_given_shapes_follow_the_arguments_the_reducer_keeps():
    """The review: two reduced programs kept unused arguments, because a candidate without them no longer took the
    ``--shapes`` given for the program (checked at the default sizes instead, where the bug does not show). The given
    shapes now follow the arguments a candidate kept."""
    from ireefuzz.tools.filing.program import fitted_shapes, shape_tries

    def program(*types: str) -> str:
        args = ", ".join(f"%a{k}: tensor<{t}>" for k, t in enumerate(types))
        last = f"%a{len(types) - 1} : tensor<{types[-1]}>"
        return f"func.func @main({args}) -> tensor<{types[-1]}> {{\n  return {last}\n}}"

    given = [(63, 15), (7,), (3, 4, 1, 15), (3, 1, 15, 3)]
    assert fitted_shapes(program("3x4x1x?xi32", "3x1x?x?xi32"), given) == [(3, 4, 1, 15), (3, 1, 15, 3)]
    assert fitted_shapes(program("63x?xf32", "7xf32", "3x4x1x?xi32", "3x1x?x?xi32"), given) == given
    assert fitted_shapes(program("?x?xi32"), [(2, 1), (3,), (3,)]) == [(2, 1)]
    none = program("5x5x5xi32")
    assert fitted_shapes(none, given) is None and shape_tries(none, given) == (None,)
