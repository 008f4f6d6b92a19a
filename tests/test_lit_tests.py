"""The lit tests a bundle ships (ireefuzz.tools.filing.lit_tests): each rule of "a test ships only if it fails with
the bug present, for the bug's reason", on recorded IR, and with the real iree-opt / iree-compile / iree-run-module.

The recorded IR (``tests/data/ir/lit/``) is IREE 3.13's, for the NCHW conv of ``tests/data/bundles/nchw_conv_alloca`` on
znver3 (the command is each file's first line): the module ``iree-llvmcpu-lower-executable-target`` received (its
output holds the ``memref.alloca``) and the module bufferization received (run alone by ``iree-opt``, it makes a
``memref.alloc``: an alloca test of it passes with the bug). Unit tests give the tools' recorded answers through a
fake ``Tool`` and run FileCheck itself (the ``filecheck`` package, or LLVM's).
"""

from __future__ import annotations

import dataclasses
import json
import re
from pathlib import Path
from typing import Sequence

import numpy as np
import pytest

from ireefuzz.tools.filing import lit_tests as lt
from ireefuzz.tools.filing.culprit import Confirmation, Culprit

DATA = Path(__file__).parent / "data" / "ir" / "lit"
BUNDLES = Path(__file__).parent / "data" / "bundles"  # the bundles these tests were written on, as recorded
FILL_SUM = next(BUNDLES.glob("fill_sum/*/"), None)
LOWER = "builtin.module(hal.executable(hal.executable.variant(builtin.module(func.func({})))))"
ALLOCA_LINE = "%alloca = memref.alloca() alignment = 64 : memref<1x2x1x4xf32>"


def recorded(name: str) -> str:
    """A recorded IR file without its provenance line."""
    return (DATA / name).read_text().split("\n", 1)[1]


def fake(answers: dict[str, tuple[int | None, str, str]]) -> tuple[lt.Tool, list[list[str]]]:
    """A Tool answering each IREE tool by name (``iree-opt`` with no pipeline: key ``parse``), FileCheck for real;
    and the commands it was given."""
    calls: list[list[str]] = []

    def tool(argv: Sequence[str]) -> tuple[int | None, str, str]:
        calls.append(list(argv))
        if argv[0] in lt.FILECHECK:
            return lt.filecheck(argv[1:])
        key = "parse" if argv[0] == "iree-opt" and not any(a.startswith("--pass-pipeline") for a in argv) else argv[0]
        return answers.get(key, (0, "", ""))

    return tool, calls


def alloca_culprit(before: str, pass_: str = "iree-llvmcpu-lower-executable-target") -> Culprit:
    return Culprit(
        "executable-targets",
        pass_,
        "the first pass whose output holds the alloca",
        before,
        "",
        "memory",
        Confirmation(LOWER.format(pass_), (ALLOCA_LINE,)),
    )


LABEL_ONLY = """// RUN: iree-opt --pass-pipeline='builtin.module(func.func(p))' --verify-diagnostics %s | FileCheck %s
// CHECK-LABEL: func.func
func.func @f() {
  return
}
"""


# --------------------------------------------------------------------------- the rules, on recorded IR


def test_a_label_only_check_is_rejected_before_anything_runs():
    """The form every shipped pass_test.mlir had: a label and nothing it states."""
    tool, calls = fake({})
    verdict = lt.judge(lt.LitTest(lt.PASS_TEST, LABEL_ONLY), lt.Symptom(), Path("."), tool)
    assert verdict.outcome == "checks-only-a-label" and not verdict.shipped
    assert "CHECK-LABEL: func.func" in verdict.why
    assert calls == []


def test_a_well_formed_alloca_pass_test_is_kept(tmp_path):
    """The module the CPU pipeline pass received (target intact), CHECK-NOT: memref.alloca; its output holds one."""
    tests = lt.pass_tests(alloca_culprit(recorded("nchw_conv.lower_executable_target.before.mlir")))
    assert isinstance(tests, list)
    first = tests[0]
    assert "// CHECK-NOT: memref.alloca\n" in first.text and "CHECK-LABEL" not in first.text
    assert "util.func" not in first.text and "hal.executable private @main_dispatch_0" in first.text  # cut to it
    tool, calls = fake({"iree-opt": (0, recorded("nchw_conv.lower_executable_target.after.mlir"), "")})
    verdicts = lt.write(tmp_path, {lt.PASS_TEST: tests}, lt.Symptom(), tool)
    assert [v.outcome for v in verdicts] == ["shipped"]
    assert "CHECK-NOT: memref.alloca" in verdicts[0].why and "memref<1x2x1x4xf32>" in verdicts[0].why
    assert (tmp_path / lt.PASS_TEST).read_text() == first.text
    assert [[s["tool"] for s in line] for line in verdicts[0].to_json()["stages"]] == [["iree-opt", "FileCheck"]]


def test_a_test_that_passes_with_the_bug_is_rejected(tmp_path):
    """Bufferization alone makes a memref.alloc, not the alloca the pipeline makes: CHECK-NOT: memref.alloca passes."""
    culprit = alloca_culprit(recorded("nchw_conv.bufferize.before.mlir"), "iree-codegen-iree-comprehensive-bufferize")
    tests = lt.pass_tests(culprit)
    assert isinstance(tests, list)
    (tmp_path / lt.PASS_TEST).write_text("stale")
    tool, _ = fake({"iree-opt": (0, recorded("nchw_conv.bufferize.after.mlir"), "")})
    verdicts = lt.write(tmp_path, {lt.PASS_TEST: tests}, lt.Symptom(), tool)
    assert [v.outcome for v in verdicts] == ["passes-with-the-bug"]
    assert not (tmp_path / lt.PASS_TEST).exists()  # a test that is not shipped leaves no file
    assert (
        verdicts[0]
        .line()
        .startswith(
            "No pass test: the one written (`iree-codegen-iree-comprehensive-bufferize` alone on the IR it received "
            "should not produce memref.alloca) is not shipped, passes-with-the-bug: every RUN line passes"
        )
    )


def test_a_memory_bugs_pass_test_checks_its_own_op_not_the_precursor_the_culprit_shows():
    """A culprit that left the tensor.empty bufferization turns into the alloca: the test still states no alloca
    (so it ships only if that pass alone makes one), never 'no tensor.empty', which is that pass's job."""
    culprit = dataclasses.replace(
        alloca_culprit(recorded("nchw_conv.lower_executable_target.before.mlir")),
        confirm=Confirmation("builtin.module(p)", ("%4 = tensor.empty() : tensor<3x4x4x4xf32>",)),
    )
    finding = {"oracle": "memory", "kind": "alloca", "evidence": {"memory_ops": [{"excerpt": ALLOCA_LINE}]}}
    tests = lt.pass_tests(culprit, finding)
    assert isinstance(tests, list)
    assert "// CHECK-NOT: memref.alloca\n" in tests[0].text and "CHECK-NOT: tensor.empty" not in tests[0].text
    checker = dataclasses.replace(culprit, method="checker")  # a checker's rejected form is what the culprit shows
    shown = lt.pass_tests(checker, finding)
    assert isinstance(shown, list) and "// CHECK-NOT: tensor.empty{{.*}}tensor<3x4x4x4xf32>\n" in shown[0].text


def test_a_heap_allocation_is_checked_apart_from_a_stack_one():
    assert lt.defect_patterns(["%alloc = memref.alloc() : memref<4xf32>"], "") == ["memref.alloc("]
    assert lt.defect_patterns([ALLOCA_LINE, "with x for y, its output holds no z"], "") == ["memref.alloca"]
    held = "%0 = memref.alloca() : memref<2xf32>"  # the pass's input holds an alloca already: the type tells them
    assert lt.defect_patterns([ALLOCA_LINE], held) == ["memref.alloca{{.*}}memref<1x2x1x4xf32>"]


def test_an_unparseable_test_is_rejected():
    """Linker output pasted into the IR: iree-opt cannot parse the test alone."""
    text = LABEL_ONLY.replace("// CHECK-LABEL: func.func", "// CHECK-NOT: error:") + "iree-lld: error: x\n"
    tool, calls = fake({"parse": (1, "", f"{lt.PASS_TEST}:6:1: error: custom op 'iree' is unknown\n")})
    verdict = lt.judge(lt.LitTest(lt.PASS_TEST, text), lt.Symptom(diagnostic="x"), Path("."), tool)
    assert verdict.outcome == "unparseable"
    assert "custom op 'iree' is unknown" in verdict.why
    assert all("--pass-pipeline" not in " ".join(c) for c in calls)  # the pass was never run


def test_a_dispatch_without_its_target_is_rejected():
    tests = lt.pass_tests(alloca_culprit(recorded("nchw_conv.lower_executable_target.before.mlir")))
    assert isinstance(tests, list)
    untargeted = tests[0].text.replace("#hal.executable.target<", "#hal.executable.tarxxx<")
    tool, _ = fake({})
    verdict = lt.judge(lt.LitTest(lt.PASS_TEST, untargeted), lt.Symptom(), Path("."), tool)
    assert verdict.outcome == "no-target"


def test_a_test_that_fails_for_another_reason_is_rejected():
    """An invalid-IR bug whose pass test fails with another error (a missing target, a different dispatch)."""
    culprit = Culprit(
        "global-optimization",
        "some-pass",
        "the first pass whose output fails the verifier",
        "func.func @f() {\n  return\n}\n",
        method="invalid-ir",
        confirm=Confirmation("builtin.module(func.func(some-pass))", ("error: 'linalg.generic' op inferred ...",)),
    )
    tests = lt.pass_tests(culprit)
    assert isinstance(tests, list) and "2>&1 | FileCheck %s" in tests[0].text
    bug = lt.Symptom(
        diagnostic=lt.gist(
            "'linalg.generic' op inferred input/output operand #1 has shape's dimension #0 to be 3, but found 2",
            words=12,
        )
    )
    other = (1, "", "pass_test.mlir:2:3: error: 'func.func' op has no executable target\n")
    tool, _ = fake({"iree-opt": other})
    verdict = lt.judge(tests[0], bug, Path("."), tool)
    assert verdict.outcome == "fails-for-another-reason"
    assert "no executable target" in verdict.why
    same = (
        1,
        "",
        "pass_test.mlir:9:5: error: 'linalg.generic' op inferred input/output operand #0 has shape's "
        "dimension #1 to be 7, but found 4\n",
    )  # the bug's error, other numbers
    tool, _ = fake({"iree-opt": same})
    assert lt.judge(tests[0], bug, Path("."), tool).outcome == "shipped"


def test_a_filecheck_failure_on_a_label_is_not_the_bugs_reason():
    text = LABEL_ONLY.replace("// CHECK-LABEL: func.func", "// CHECK-LABEL: func.func @g\n// CHECK-NOT: memref.alloca")
    tool, _ = fake({"iree-opt": (0, "func.func @f() {\n}\n", "")})
    verdict = lt.judge(lt.LitTest(lt.PASS_TEST, text), lt.Symptom(), Path("."), tool)
    assert verdict.outcome == "fails-for-another-reason" and verdict.why.startswith("FileCheck exits 1")


def test_a_crash_is_the_bugs_only_with_its_signal():
    crash = Culprit(
        "executable-targets",
        "p",
        "the pass running",
        "func.func @f() {\n  return\n}\n",
        method="crash",
        confirm=Confirmation("builtin.module(func.func(p))", ("iree-opt exits with -8",)),
    )
    tests = lt.pass_tests(crash)
    assert isinstance(tests, list) and "// CHECK-NOT: Stack dump:" in tests[0].text
    symptom = lt.Symptom.of_finding({"oracle": "crash", "kind": "compile-crash", "evidence": {"returncode": "-8"}})
    assert symptom.signal == 8
    for code, outcome in ((-8, "shipped"), (-11, "fails-for-another-reason")):
        tool, _ = fake({"iree-opt": (code, "", "Stack dump:\n0. Program arguments: iree-opt\n")})
        assert lt.judge(tests[0], symptom, Path("."), tool).outcome == outcome


def test_a_wrong_value_or_an_unlocalized_culprit_gets_no_pass_test_and_says_why(tmp_path):
    value = Culprit("flow", "p", "differs", "x", method="wrong-value", confirm=Confirmation("builtin.module(p)", ()))
    why = lt.pass_tests(value)
    assert isinstance(why, str) and lt.RUN_TEST in why
    missing = lt.pass_tests(Culprit(None, None, "not localized: no dump"))
    assert isinstance(missing, str) and "not localized" in missing
    tool, calls = fake({})
    verdicts = lt.write(tmp_path, {lt.PASS_TEST: why}, lt.Symptom(), tool)
    assert verdicts[0].outcome == "not-made" and calls == []
    assert lt.issue_lines(verdicts)[2] == f"- No pass test: {why}."


def test_the_run_module_test_states_the_reference_values_and_fails_on_the_mismatch(tmp_path):
    import numpy as np

    finding = {"oracle": "numeric", "kind": "wrong-value", "evidence": {"rtol": "1e-6", "tolerance": "0.0"}}
    test = lt.run_module_test(
        "func.func @main() -> tensor<i32>\n",
        "main",
        ["--iree-hal-target-backends=llvm-cpu"],
        {"ref_0": np.array(4, np.int32), "f64_0": np.array(4.0)},
        0,
        finding,
    )
    assert isinstance(test, lt.LitTest)
    assert "--expected_output=i32=4" in test.text and "// CHECK: [SUCCESS]" in test.text
    symptom = lt.Symptom.of_finding(finding)
    mismatch = "[FAILED] result[0]: element at index 0 (2) does not match the expected (4); expected that ...\n"
    for answer, outcome in (
        ((1, "EXEC @main\n" + mismatch, ""), "shipped"),
        ((0, "[SUCCESS] all function outputs matched their expected values.\n", ""), "passes-with-the-bug"),
        ((-4, "", ""), "fails-for-another-reason"),  # SIGILL: code for a CPU this machine lacks
    ):
        tool, _ = fake({"iree-run-module": answer})
        verdict = lt.judge(test, symptom, tmp_path, tool)
        assert verdict.outcome == outcome, verdict
    tool, _ = fake({"iree-run-module": (1, mismatch, "")})
    assert "does not match the expected (4)" in lt.judge(test, symptom, tmp_path, tool).why


def test_a_compile_failure_without_reference_values_gets_a_compile_only_test(tmp_path):
    finding = {"oracle": "crash", "kind": "compile-error", "evidence": {"diagnostic": "a.mlir:1:1: error: boom 3\n"}}
    test = lt.run_module_test("func.func @main() {\n}\n", "main", ["-x"], {}, 1, finding)
    assert isinstance(test, lt.LitTest) and test.run_lines == ["iree-compile -x %s -o %t.vmfb"]
    tool, _ = fake({"iree-compile": (1, "", "run_module_test.mlir:2:3: error: boom 4\n")})
    assert lt.judge(test, lt.Symptom.of_finding(finding), tmp_path, tool).outcome == "shipped"
    numeric = {"oracle": "numeric", "kind": "wrong-value", "evidence": {}}
    assert isinstance(lt.run_module_test("", "main", [], {}, 1, numeric), str)


def test_a_compile_error_is_the_bugs_by_its_gist_not_its_numbers():
    finding = {
        "oracle": "crash",
        "kind": "compile-error",
        "evidence": {
            "diagnostic": "x.mlir:8:6: error: 'func.func' op exceeded stack allocation limit of 32768 bytes "
            "for function. Got 36028797018963968 bytes\n"
        },
    }
    symptom = lt.Symptom.of_finding(finding)
    seen = lt.StageRun(
        "iree-compile",
        (),
        1,
        "",
        "y.mlir:3:1: error: 'func.func' op exceeded stack allocation limit "
        "of 32768 bytes for function. Got 1024 bytes\n",
    )
    assert symptom.shown_by(seen) is not None
    other = lt.StageRun("iree-compile", (), 1, "", "y.mlir:3:1: error: failed to legalize operation 'arith.addf'\n")
    assert symptom.shown_by(other) is None


def test_run_lines_are_run_lit_style(tmp_path):
    """%s / %S / %t substituted, continuations joined, 2>&1 merged into what FileCheck reads, pipefail."""
    text = "// RUN: iree-opt --pass-pipeline=p %s \\\n// RUN:   -o %t.x 2>&1 | FileCheck %s\n// CHECK-NOT: error:\n"
    tool, calls = fake({"iree-opt": (1, "", "pass_test.mlir:1:1: error: boom\n")})
    ran = lt.run(lt.LitTest(lt.PASS_TEST, text), tmp_path, tool)
    assert calls[0][0] == "iree-opt" and calls[0][2].endswith(lt.PASS_TEST) and calls[0][4].endswith("/t.x")
    assert [s.code for s in ran.lines[0]] == [1, 1] and not ran.passed  # FileCheck saw the error on stderr
    assert lt.run(lt.LitTest(lt.PASS_TEST, "// RUN: rm -rf %t\n"), tmp_path, tool).error


# --------------------------------------------------------------------------- with the real tools


@pytest.fixture(scope="module")
def stock():
    from ireefuzz import sut

    return lt.stock_tools(sut.CompilerConfig())


@pytest.mark.iree
def test_real_alloca_pass_test_fails_with_check_not_memref_alloca(tmp_path, stock):
    tests = lt.pass_tests(alloca_culprit(recorded("nchw_conv.lower_executable_target.before.mlir")))
    assert isinstance(tests, list)
    verdicts = lt.write(tmp_path, {lt.PASS_TEST: tests}, lt.Symptom(), stock)
    assert verdicts[0].outcome == "shipped", verdicts[0]
    assert verdicts[0].why.startswith("FileCheck, CHECK-NOT: memref.alloca (found: %alloca = memref.alloca()")


@pytest.mark.iree
def test_real_bufferization_alone_makes_an_alloc_so_its_alloca_test_is_not_shipped(tmp_path, stock):
    culprit = alloca_culprit(recorded("nchw_conv.bufferize.before.mlir"), "iree-codegen-iree-comprehensive-bufferize")
    tests = lt.pass_tests(culprit)
    assert isinstance(tests, list)
    assert [v.outcome for v in lt.write(tmp_path, {lt.PASS_TEST: tests}, lt.Symptom(), stock)] == [
        "passes-with-the-bug"
    ]


@pytest.mark.iree
def test_real_linker_output_in_the_ir_is_unparseable(stock):
    """The f16 fmaxf bundle's pass test had the linker's messages pasted into its IR."""
    shipped = next(BUNDLES.glob("f16_fmaxf_link/*/pass_test.mlir"))
    text = shipped.read_text().replace("// CHECK-LABEL: func.func", "// CHECK-NOT: error:")
    verdict = lt.judge(lt.LitTest(lt.PASS_TEST, text), lt.Symptom(diagnostic="undefined-symbol-fmaxf"), BUNDLES, stock)
    assert verdict.outcome == "unparseable" and "is unknown" in verdict.why


@pytest.mark.iree
@pytest.mark.skipif(FILL_SUM is None, reason="tests/data/bundles/fill_sum is not in this checkout")
def test_real_fill_sum_run_module_test_fails_on_3_13_naming_its_expected_value(stock):
    """IREE 3.13 returns 2 for the sum of a fill of two 2s; the test states 4 and fails on it."""
    from ireefuzz.tools.filing.bundle import Bundle

    assert FILL_SUM is not None
    made = Bundle.load(FILL_SUM)
    finding = json.loads((FILL_SUM / "finding.json").read_text())
    flags = [f for f in finding["flags"] if not f.startswith("--iree-llvmcpu-target-cpu")] + [
        "--iree-llvmcpu-target-cpu=generic"
    ]
    test = lt.run_module_test(made.program, "main", flags, made.expected, len(made.inputs), finding)
    assert isinstance(test, lt.LitTest) and "--expected_output=i32=4" in test.text
    verdict = lt.judge(test, lt.Symptom.of_finding(finding), FILL_SUM, stock)
    assert verdict.outcome == "shipped", verdict
    assert "does not match the expected (4)" in verdict.why


def test_a_bundles_existing_tests_are_checked_by_its_finding(tmp_path):
    """The shipped bundles' form: a label-only pass test, and no run-module test."""
    (tmp_path / "finding.json").write_text(json.dumps({"oracle": "memory", "kind": "alloca", "evidence": {}}))
    (tmp_path / lt.PASS_TEST).write_text(LABEL_ONLY)
    tool, calls = fake({})
    verdicts = lt.check_bundle(tmp_path, tool)
    assert [(v.test, v.outcome) for v in verdicts] == [
        (lt.PASS_TEST, "checks-only-a-label"),
        (lt.RUN_TEST, "not-made"),
        (lt.UPSTREAM_TEST, "not-made"),
    ]
    assert calls == []


@pytest.mark.iree
def test_real_aliasing_pass_test_fails_on_the_shared_buffer_and_passes_on_the_pass_input(tmp_path, stock):
    """The two-functions argmax's culprit (cse sharing a buffer an in-place sort writes): its pass test states that
    no op after the in-place write reads the operand; cse's output breaks it, the IR cse received keeps it."""
    from ireefuzz import sut
    from ireefuzz.tools.filing.culprit import aliasing

    program = (Path(__file__).parent / "data/ir/culprit/two_functions_argmax.mlir").read_text()
    found = aliasing.in_stream(program, sut.CompilerConfig(target_cpu="generic"), "the interpreter agrees")
    tests = lt.pass_tests(found)
    assert isinstance(tests, list)
    verdicts = lt.write(tmp_path, {lt.PASS_TEST: tests}, lt.Symptom(), stock)
    assert verdicts[0].outcome == "shipped" and "CHECK-NOT: [[WRITTEN]]" in verdicts[0].why, verdicts[0]
    checks = tmp_path / "checks.txt"
    checks.write_text("\n".join(line.removeprefix("// ") for line in tests[0].text.splitlines() if "CHECK" in line))
    received = tmp_path / "received.mlir"
    received.write_text(found.ir_before)
    code, _, err = lt.filecheck([str(checks), "--input-file", str(received)])
    assert code == 0, err


def test_a_wrong_value_pass_test_checks_the_values_the_pass_brings_that_its_input_lacks():
    """The fill-sum's vectorization folds the sum of two 2s to `dense<2>`. Its pass test states it: CHECK-NOT on a
    constant of a literal that the pass's input does not hold (the lines a correct output also has, a
    `transfer_write`, a store, a poison padding, are never checked)."""
    before = "%c2_i32 = arith.constant 2 : i32\n%c0 = arith.constant 0 : index\n%4 = linalg.fill ins(%c2_i32 : i32)"
    shows = (
        "// the pass's output computes binding 0 with:",
        "%cst = arith.constant dense<2> : vector<i32>",
        "%c0 = arith.constant 0 : index",
        "%2 = vector.transfer_write %cst, %1[] : vector<i32>, tensor<i32>",
        "%3 = ub.poison : i32",
    )
    assert lt.introduced_values(shows, before) == ["arith.constant dense<2> : vector<i32>"]  # poison pads by design
    value = Culprit("executable-targets", "p", "differs", before, method="wrong-value")
    value = dataclasses.replace(value, confirm=Confirmation("builtin.module(func.func(p))", shows))
    (test, *_) = lt.pass_tests(value)
    assert "// CHECK-NOT: arith.constant dense<2> : vector<i32>" in test.text and "transfer_write" not in test.text


@pytest.mark.iree
def test_real_fill_sum_pass_test_fails_on_vectorizations_folded_constant(tmp_path, stock):
    from ireefuzz import sut
    from ireefuzz.tools.filing import culprit

    program = (Path(__file__).parents[1] / "docs" / "repros" / "fill_then_sum_wrong_value.mlir").read_text()
    found = culprit.wrong_values(program, "main", [], sut.CompilerConfig(target_cpu="generic"))
    assert found.pass_ == "iree-codegen-generic-vectorization", found.how
    tests = lt.pass_tests(found)
    assert isinstance(tests, list), tests
    verdicts = lt.write(tmp_path, {lt.PASS_TEST: tests}, lt.Symptom(), stock)
    assert verdicts[0].outcome == "shipped" and "dense<2>" in verdicts[0].why, verdicts[0]


@pytest.mark.iree
def test_real_crash_whose_pass_alone_leaves_invalid_ir_ships_a_verifier_pass_test(tmp_path, stock):
    """The #24385 review: the pass test was discarded as failing for another reason, though the verifier error the
    pass alone gives (a store into a read-only operand after dedup) is this bug's mechanism; the compile crashes on
    it later."""
    (folder,) = (Path(__file__).parents[1] / "docs/bundles/conv_input_as_outs_crash").glob("*/finding.json")
    finding = json.loads(folder.read_text())
    recorded = finding["culprit"]
    confirm = Confirmation(recorded["confirm"]["pipeline"], tuple(recorded["confirm"]["shows"]))
    before = (folder.parent / "culprit_before.mlir").read_text()
    found = Culprit(recorded["phase"], recorded["pass"], recorded["how"], before, "", "crash", confirm)
    tests = lt.pass_tests(found)
    assert isinstance(tests, list) and "CHECK-NOT: error:" in tests[0].text, tests
    (verdict,) = lt.write(tmp_path, {lt.PASS_TEST: tests}, lt.Symptom.of_finding(finding), stock)
    assert verdict.shipped and "must be dispatch.tensor" in verdict.why, verdict
    plain = dict(finding, culprit={})  # without the confirmation's verifier error the symptom is the signal alone
    (again,) = lt.write(tmp_path / "plain", {lt.PASS_TEST: tests}, lt.Symptom.of_finding(plain), stock)
    assert again.outcome == "fails-for-another-reason", again


GATHER_SHOWS = (
    "// and reads poison (its values change with what poison reads as) at:",
    "%0 = ub.poison : i32",
    "%5 = vector.transfer_read %cst[%c0, %c0], %0 : tensor<2x1xi32>, vector<2xi32>",
    "%10 = vector.transfer_read %e[%c0, %c0], %0 {in_bounds = [true, true]} : tensor<1x1xi32>, vector<1x1xi32>",
    "%11 = vector.transfer_read %f[%c0, %c0], %0 : tensor<4x8xi32>, vector<8xi32>",
)


def test_a_read_past_a_static_dim_is_a_wrong_values_statable_line():
    """The gather of a gather: the review found "no line states it" false; the index read along the unit dim is it."""
    (pattern,) = lt.out_of_bounds_reads(GATHER_SHOWS)
    assert pattern == "vector.transfer_read %{{[^{]*}} : tensor<2x1xi32>, vector<2xi32>", pattern
    fixed = "%5 = vector.transfer_read %cst[%c0, %c0], %0 {permutation_map = affine_map<(d0, d1) -> (d0)>} : "
    fixed += "tensor<2x1xi32>, vector<2xi32>"
    regex = pattern.replace("%{{[^{]*}}", "%[^{]*")
    assert re.search(regex, GATHER_SHOWS[2]) and not re.search(regex, fixed)  # a fix by a permutation map passes
    value = Culprit("executable-targets", "p", "differs", "x", method="wrong-value")
    value = dataclasses.replace(value, confirm=Confirmation("builtin.module(func.func(p))", GATHER_SHOWS))
    (test, *_) = lt.pass_tests(value)
    assert f"// CHECK-NOT: {pattern}" in test.text, test.text


@pytest.mark.iree
def test_real_gather_of_gather_pass_test_fails_on_the_read_past_the_unit_dim(tmp_path, stock):
    from ireefuzz import sut
    from ireefuzz.tools.filing import culprit

    shipped = Path(__file__).parents[1] / "docs" / "bundles" / "gather_of_gather_wrong_values"
    (program,) = shipped.glob("*/program.mlir")
    inputs = [np.load(program.parent / "inputs" / "a0.npy")]
    found = culprit.wrong_values(program.read_text(), "main", inputs, sut.CompilerConfig(target_cpu="generic"))
    assert found.pass_ == "iree-codegen-generic-vectorization", found.how
    tests = lt.pass_tests(found)
    assert isinstance(tests, list), tests
    verdicts = lt.write(tmp_path, {lt.PASS_TEST: tests}, lt.Symptom(values=True), stock)
    assert verdicts[0].outcome == "shipped" and "vector<2xi32>" in verdicts[0].why, verdicts[0]
