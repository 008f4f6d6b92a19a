"""The one ISSUE.md writer and bundle maker (``filing.report``) against the maintainer's review of the shipped bundles
(issue 32): titles from the reduced IR, "which shows" quoting the pass output's wrong lines, "what was expected" in
words and values, a crash's run.sh that needs no llvm-symbolizer nor ``rm`` on PATH, self-contained comment drafts,
the ``tensor.empty`` step of the shrink, the trigger in every ISSUE.md, no "not run yet". All on recorded data."""

from __future__ import annotations

import dataclasses
import json
import os
import re
import subprocess
from pathlib import Path
from types import SimpleNamespace

import numpy as np

from ireefuzz.generators.builder import GraphBuilder
from ireefuzz.oracles.finding import Finding
from ireefuzz.tools.filing import bisect, culprit, drafts, report
from ireefuzz.tools.filing.bundle import Bundle, run_script
from ireefuzz.tools.filing.culprit import values

DATA = Path(__file__).parent / "data"
BUNDLES = DATA / "bundles"


def _bundle(name: str) -> Path:
    (folder,) = [p.parent for p in (BUNDLES / name).glob("*/finding.json")]
    return folder


def _finding(name: str) -> Finding:
    return Finding.from_json(json.loads((_bundle(name) / "finding.json").read_text()))


def _subject(finding: Finding, program: str, expected: dict | None = None) -> report.Subject:
    return report.Subject(
        program=program,
        function="main",
        args=(),
        outputs=(),
        inputs=[],
        expected=expected or {},
        reference="the float64 reference interpreter",
        flags=("--iree-hal-target-backends=llvm-cpu",),
        platform=report.Platform("3.13.0", "generic"),
    )


# --------------------------------------------------------------------------- titles


def test_a_title_names_the_reduced_programs_kinds_of_op_and_is_cut_between_words():
    """The NCHW alloca's title was "`linalg.generic` -> `linalg.conv_2d_nchw_fchw`: 1 alloca in main_dispatch_0_...
    before iree-" (a chain, a dispatch name, a cut inside a word); the two-function one chained nine ops."""
    alloca = _finding("nchw_conv_alloca")
    title = report.title(alloca, ["linalg.generic", "linalg.conv_2d_nchw_fchw"])
    assert "->" not in title and "_dispatch_" not in title, title
    assert "`memref.alloca` `memref<1x2x1x4xf32>` left in its dispatch" in title, title
    ops = report.ops_of((_bundle("two_functions_iota_argmax") / "program.mlir").read_text())
    chained = report.title(_finding("two_functions_iota_argmax"), ops)
    assert "->" not in chained and chained.count("`") <= 4, chained
    long_error = _finding("fold_unit_dims_invalid_ir")
    said = report.happened(long_error)
    last = said.removesuffix(" ...").split()[-1]
    assert len(said) <= 90 and last in long_error.evidence["diagnostic"].split(), said  # a whole word


# --------------------------------------------------------------------------- the culprit's confirmation


def test_which_shows_quotes_the_pass_outputs_wrong_lines_not_the_interpreter():
    """The fill-sum: generic-vectorization's output writes ``dense<2>`` into binding 1 (the sum is 4). The confirmation
    used to show only the interpreter's values."""
    after = (DATA / "filing" / "fill_sum.generic_vectorization.after.mlir").read_text()  # the dispatch's, in codegen
    shown = values.shown_lines(
        after, 1, "the interpreter on culprit_before.mlir: binding 1 = 4", "after: binding 1 = 2"
    )
    assert shown[0].startswith("// the pass's output computes binding 1")
    assert any("arith.constant dense<2> : vector<i32>" in line for line in shown), shown
    assert any(line.startswith("iree_codegen.store_to_buffer") for line in shown), shown
    assert shown[-1].startswith("// after:")  # the values follow, as comments
    found = culprit.Culprit(
        "executable-targets",
        "iree-codegen-generic-vectorization",
        "translation validation",
        confirm=culprit.Confirmation("builtin.module(x)", tuple(shown)),
    )
    text = "\n".join(report.culprit_lines(found))
    assert text.index("which shows:") < text.index("arith.constant dense<2>")


def test_what_was_expected_says_the_value_in_words_and_gives_the_values():
    finding = _finding("fill_sum")
    lines = report.expected_lines(finding, _subject(finding, "", {"ref_0": np.array(4, np.int32)}))
    assert lines[0].startswith("`@main` returns, for output 0 at index [], 4 ("), lines
    assert "IREE returns 2." in lines[0]
    assert "- output 0: `scalar int32` = [4]" in lines


# --------------------------------------------------------------------------- a crash's run.sh


def _crash_run_sh(tmp_path: Path, crash_pass: str) -> Path:
    finding = Finding(
        "crash",
        "compile-crash",
        "crash/compile-crash/-/-/-",
        "iree-compile crash on a valid program: Stack dump:",
        {"diagnostic": "Stack dump:\n #4 0x1 mlir::iree_compiler::limitVectorTileSizes(long) KernelDispatch.cpp:0:0"},
        cause="crash/compile-crash/SIGFPE/mlir.iree_compiler.limitVectorTileSizes>x",
    )
    bundle = tmp_path / "bundle"
    bundle.mkdir(exist_ok=True)
    (bundle / "program.mlir").write_text("module {}\n")
    script = run_script(finding, SimpleNamespace(args=(), outputs=()), ["--a"], crash_pass=crash_pass)
    (bundle / "run.sh").write_text(script)
    return bundle / "run.sh"


def _fake_compile(tmp_path: Path, log: Path, status: str) -> Path:
    """An ``iree-compile`` that prints the recorded crash (no symbol names) and ends as ``status`` says."""
    tools = tmp_path / "tools"
    tools.mkdir(exist_ok=True)
    fake = tools / "iree-compile"
    end = "kill -FPE $$" if status == "signal" else f"exit {status}"
    fake.write_text(f"#!/bin/sh\nwhile IFS= read -r l; do printf '%s\\n' \"$l\" >&2; done < '{log}'\n{end}\n")
    fake.chmod(0o755)
    return tools


def _run(script: Path, tools: Path, tmp_path: Path) -> int:
    work = tmp_path / "work"
    work.mkdir(exist_ok=True)
    env = {"PATH": str(tools), "TMPDIR": str(work)}  # env -i: no llvm-symbolizer, no rm on PATH
    proc = subprocess.run(["/bin/sh", str(script)], env=env, capture_output=True, text=True, timeout=60)
    assert not os.listdir(work), os.listdir(work)  # its work files are gone (/bin/rm by its path)
    return proc.returncode


def test_a_crash_run_sh_needs_no_llvm_symbolizer(tmp_path):
    """The mmt4d SIGFPE's run.sh exited 2 on a machine without llvm-symbolizer: it looked for a symbolized frame.
    It now reads the signal (the shell's 128+8, a launcher's 256-8) and the pass it died in (the last IR dump the
    compile printed before it)."""
    log = DATA / "filing" / "mmt4d_sigfpe.unsymbolized.log"
    assert "limitVectorTileSizes" not in log.read_text()  # what a machine without llvm-symbolizer prints
    script = _crash_run_sh(tmp_path, "iree-llvmcpu-select-lowering-strategy")
    assert "--mlir-print-ir-before=iree-llvmcpu-select-lowering-strategy" in script.read_text()
    assert _run(script, _fake_compile(tmp_path, log, "248"), tmp_path) == 1
    assert _run(script, _fake_compile(tmp_path, log, "signal"), tmp_path) == 1
    assert _run(script, _fake_compile(tmp_path, log, "1"), tmp_path) == 2  # not killed by SIGFPE: not this crash
    other = _crash_run_sh(tmp_path, "iree-llvmcpu-tile")
    assert _run(other, _fake_compile(tmp_path, log, "248"), tmp_path) == 2  # it died in another pass


def test_run_sh_removes_its_work_files_by_rms_path():
    text = run_script(
        Finding("crash", "compile-crash", "crash/compile-crash/-/-/-", "m", {}),
        SimpleNamespace(args=(), outputs=()),
        ["--a"],
    )
    assert "/bin/rm -rf" in text and not re.search(r"(?<![/\w])rm -rf", text)


# --------------------------------------------------------------------------- a comment draft


def self_contained(text: str, issue: str) -> list[str]:
    """What a comment draft lacks to be pasted as is."""
    wanted = {
        "the issue's link": drafts.issue_url(issue),
        "what this adds": "What this adds",
        "the program inline": "```mlir",
        "the command": "iree-compile program.mlir",
        "what it prints": "prints: ",
    }
    return [what for what, needle in wanted.items() if needle not in text]


def test_a_comment_draft_is_self_contained():
    folder = _bundle("dynamic_sort_stack")
    text = drafts.comment_text(
        "iree-org/iree#24735", "1-D dynamic argsort: dynamically sized stack allocation", [("v", Bundle.load(folder))]
    )
    assert self_contained(text, "iree-org/iree#24735") == [], text
    assert (folder / "program.mlir").read_text().strip() in text
    old = (DATA / "filing" / "COMMENT_24735.before.md").read_text()  # the draft the review found lacking
    assert self_contained(old, "iree-org/iree#24735")


# --------------------------------------------------------------------------- the shrink's tensor.empty step

OUTS_ARGUMENT = """#id = affine_map<(d0) -> (d0)>
module {
  func.func @main(%arg0: tensor<4xf32>, %arg1: tensor<4xf32>) -> tensor<4xf32> {
    %0 = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"]}
        ins(%arg0 : tensor<4xf32>) outs(%arg1 : tensor<4xf32>) {
    ^bb0(%in: f32, %out: f32):
      %1 = math.exp %in : f32
      linalg.yield %1 : f32
    } -> tensor<4xf32>
    return %0 : tensor<4xf32>
  }
}
"""


def test_the_shrink_takes_the_tensor_empty_step_when_it_fails_the_same_way():
    """An argument used only as an init goes when its ``tensor.empty`` variant shows the same cause (the review: the
    experiments showed it, the shrink did not take it)."""
    from ireefuzz.tools.filing.program import empty_inits
    from ireefuzz.tools.shrink import mlir as reducing

    taken, steps = empty_inits(OUTS_ARGUMENT, lambda text: True)
    assert steps == ["@main:generic#0.outs=empty"] and "outs(%arg1" not in taken and "tensor.empty()" in taken
    dropped = next(reducing.drop_unused_arguments(taken))
    assert "%arg1" not in dropped and "func.func @main(%arg0: tensor<4xf32>)" in dropped
    from ireefuzz.tools.filing.program import FREED

    assert "drop-ops" not in dict(FREED) and "drop-unused-arguments" in dict(FREED)  # no argument comes back
    kept, none = empty_inits(OUTS_ARGUMENT, lambda text: False)  # the variant is clean: the argument is the trigger
    assert kept == OUTS_ARGUMENT and none == []


# --------------------------------------------------------------------------- the trigger, the bisection


def test_every_issue_states_the_trigger_the_experiments_found_and_no_placeholder():
    tried = json.loads((DATA / "filing" / "mmt4d_experiments.json").read_text())
    finding = _finding("fill_sum")
    text = report.issue_text(finding, _subject(finding, "module {}"), report.Measured(experiments=tried))
    trigger = text[text.index("## Trigger") : text.index("## Environment")]
    assert "With static argument types at the instance's sizes" in trigger and "it compiles and runs" in trigger
    assert "not run yet" not in text.lower() and "## Bisection" not in text


def test_bisect_puts_its_section_before_the_footer(tmp_path):
    finding = _finding("fill_sum")
    (tmp_path / "ISSUE.md").write_text(report.issue_text(finding, _subject(finding, "module {}")))
    result = bisect.BisectResult(versions=("3.12.0", "3.13.0"), trials=(), first_present=None, last_present=None)
    bisect.record_result(tmp_path, result)
    text = (tmp_path / "ISSUE.md").read_text()
    assert text.index("## Bisection") < text.index("\n---\nFound by ireefuzz")


def test_a_buffer_is_confirmed_by_bufferization_alone_on_the_stack_or_the_heap():
    """Run alone, bufferization allocates with its default function (``memref.alloc``, at the dynamic size that
    iree-compile's CPU pipeline bounds): the same buffer confirms the alloca; another type does not."""
    from ireefuzz.tools.filing.culprit import lineage

    bounded = lineage.buffers("memref.alloca", "memref<9007199254740991xi32>")
    assert bounded.confirms is not None and bounded.confirms("  %alloc = memref.alloc(%dim) : memref<?xi32>\n")
    assert not bounded.confirms("  %alloc = memref.alloc(%dim) : memref<?xf32>\n")
    assert not bounded.holds("  %alloc = memref.alloc(%dim) : memref<?xi32>\n")  # the oracle's form stays strict


def test_a_path_cut_by_a_records_tail_names_no_machine_path():
    """run.sh's output is kept by its last characters: a path cut at its head (the shipped gather bundle's
    ``3.11/site-packages/iree/_runtime_libs/iree-run-module``) is named by its file alone."""
    from ireefuzz.tools.filing.program import portable

    cut = "3.11/site-packages/iree/_runtime_libs/iree-run-module --module=repro.1.vmfb"
    assert portable(cut) == "iree-run-module --module=repro.1.vmfb"


# --------------------------------------------------------------------------- what IREE does wrong, and when


def _rows(*pairs: tuple[str, str]) -> dict:
    """An experiments record whose variants (label, outcome) changed what their label says."""
    rows = [{"label": "as-given", "change": "the program as given", "outcome": "same"}]
    rows += [{"label": label, "change": f"the {label} variant", "outcome": outcome} for label, outcome in pairs]
    trigger = [f"With the {label} variant, it compiles." for label, outcome in pairs if outcome == "clean"]
    return {"rows": rows, "verdict": {"verdict": "new", "trigger": trigger}}


def test_a_title_says_what_computes_the_wrong_output_from_what_not_an_op_list():
    """The review: titles named the ops ("`linalg.fill` and `linalg.generic`: returns 2 ..."). A title says what the
    op at fault computes and what it reads, from the reduced IR, with the culprit pass."""
    fill_sum = _finding("fill_sum")
    program = (_bundle("fill_sum") / "program.mlir").read_text()
    found = culprit.record.Culprit("executable-targets", "iree-codegen-generic-vectorization", "how")
    title = report.title(fill_sum, ["linalg.fill", "linalg.generic"], found, program=program, function="main")
    assert title.startswith("[llvm-cpu] a `linalg.generic` sum of a `linalg.fill`: returns "), title
    assert title.endswith("in `iree-codegen-generic-vectorization`") and " and `" not in title, title


def test_a_libcalls_title_names_the_op_llvm_turned_into_the_call_not_the_op_holding_it():
    """Stop 47's bf16 bundle was titled "an elementwise `linalg.generic` with bf16 elements: undefined symbol:
    __truncsfbf2": the generic is no part of the bug, the sitofp it holds is."""
    repro = Path(__file__).parents[1] / "docs/repros/integer_to_bf16_undefined_truncsfbf2_without_avx512bf16.mlir"
    link = "iree-lld: error: undefined symbol: __truncsfbf2\nerror: failed to link executable and generate target dylib"
    finding = Finding("crash", "compile-error", "crash/compile-error/undefined-symbol", link)
    title = report.title(finding, ["linalg.generic"], program=repro.read_text(), function="f")
    assert title.startswith("[llvm-cpu] `arith.sitofp` in an elementwise `linalg.generic`"), title
    assert "__truncsfbf2" in title, title


def test_a_title_tags_a_bug_localized_before_codegen_by_its_phase_not_the_backend():
    """The maintainer review of round H's transpose bundle: a defect made in global optimization fails with vmvx
    too, so `[llvm-cpu]` misplaces it; the tag is the culprit's phase when it runs before code generation."""
    fill_sum = _finding("fill_sum")
    early = culprit.record.Culprit("global-optimization", "iree-global-opt-propagate-linalg-transpose", "how")
    assert report.title(fill_sum, ["linalg.generic"], early).startswith("[global-optimization] ")
    late = culprit.record.Culprit("executable-targets", "iree-codegen-generic-vectorization", "how")
    assert report.title(fill_sum, ["linalg.generic"], late).startswith("[llvm-cpu] ")
    unlocalized = culprit.record.Culprit("global-optimization", None, "not localized")
    assert report.title(fill_sum, ["linalg.generic"], unlocalized).startswith("[llvm-cpu] ")


def test_a_subject_says_which_result_of_a_multi_result_generic_it_reads():
    """The review of round H's transpose bundle: "a `linalg.transpose` of an elementwise `linalg.generic`" hid
    what the bug needs, a transpose of one result of a two-result generic."""
    from pathlib import Path

    program = (
        Path(__file__).parents[1] / "docs" / "repros" / "transpose_of_a_multi_result_generic_invalid_yield.mlir"
    ).read_text()
    assert (
        report.subject_phrase(program, "main", 0) == "`linalg.transpose` of result 0 of a two-result `linalg.generic`"
    )
    assert report.subject_phrase(program, "main", 1) == "result 1 of a two-result `linalg.generic`"


def test_a_subject_looks_through_copies_but_not_through_a_computed_index_map():
    reversed_read = """
#map = affine_map<(d0) -> (-d0 + 3)>
#id = affine_map<(d0) -> (d0)>
#sum = affine_map<(d0) -> ()>
func.func @main(%a: tensor<4xf32>, %init: tensor<f32>) -> tensor<f32> {
  %e = tensor.empty() : tensor<4xf32>
  %r = linalg.generic {indexing_maps = [#map, #id], iterator_types = ["parallel"]} ins(%a : tensor<4xf32>)
      outs(%e : tensor<4xf32>) {
  ^bb0(%in: f32, %out: f32):
    linalg.yield %in : f32
  } -> tensor<4xf32>
  %c = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"]} ins(%r : tensor<4xf32>)
      outs(%e : tensor<4xf32>) {
  ^bb0(%in: f32, %out: f32):
    linalg.yield %in : f32
  } -> tensor<4xf32>
  %s = linalg.generic {indexing_maps = [#id, #sum], iterator_types = ["reduction"]} ins(%c : tensor<4xf32>)
      outs(%init : tensor<f32>) {
  ^bb0(%in: f32, %out: f32):
    %m = arith.maximumf %in, %out : f32
    linalg.yield %m : f32
  } -> tensor<f32>
  return %s : tensor<f32>
}"""
    said = report.subject_phrase(reversed_read, "main")
    assert said == "a `linalg.generic` max of an elementwise `linalg.generic` indexed by `(-d0 + 3)`", said


def test_the_conditions_in_a_title_are_the_variants_that_make_it_go_away():
    program = "func.func @main(%arg0: tensor<?x3xf16>, %arg1: tensor<2x3xf16>) -> tensor<2x3xf16> {"
    found = _rows(("static", "clean"), ("unpack#0.outs=empty", "clean"), ("f32", "clean"), ("cpu=host", "same"))
    assert report.conditions(program, found) == [
        "dynamic dims",
        "a function argument as its destination",
        "f16 elements",
    ]
    still = _rows(("static", "same"), ("f32", "same"))
    assert report.conditions(program, still) == []  # dynamic dims that a static variant keeps failing say nothing
    unit = "func.func @main(%arg0: tensor<1x3x3x2xf32>) -> tensor<1x1x1x2xf32> {"
    assert report.conditions(unit, _rows(), "iree-dispatch-creation-fold-unit-extent-dims") == [
        "a unit dim in its result"
    ]
    assert report.conditions(unit, _rows(), "iree-codegen-generic-vectorization") == []
    fill = {"label": "fill#3.outs=empty", "change": "`tensor.empty` instead of `%arg0` as the outs of `linalg.fill`"}
    two = _rows()
    two["rows"].append({**fill, "outcome": "clean"})
    module = (
        "func.func @g0(%arg0: tensor<2xf16>) -> tensor<2xf16> {\nfunc.func @g1(%arg0: tensor<2xi32>) -> tensor<2xf16> {"
    )
    assert report.conditions(module, two, function="g1", subject="iree_linalg_ext.sort") == [
        "`linalg.fill` writing into a function argument",
        "`@g0` in the same module",
    ]


def test_a_trigger_where_every_variant_still_fails_says_what_was_tried():
    """The review: "No change of the 3 the experiments tried makes the failure go away" told the reader nothing. When
    every variant fails the same way, the section lists them: the reduced program as a whole is the trigger."""
    lines = report.trigger_lines(_rows(("rank+1", "same"), ("cpu=host", "same"), ("f32", "not-judged:no f16")))
    text = "\n".join(lines)
    assert "- with the rank+1 variant" in text and "- with the cpu=host variant" in text, text
    assert "as a whole" in text and "f32" not in text, text
    some = report.trigger_lines(_rows(("static", "clean"), ("rank+1", "same"), ("f32", "other:numeric/x")))
    text = "\n".join(some)
    assert "It still fails the same way" in text and "- with the rank+1 variant" in text, text
    assert "With the f32 variant, it fails another way (`numeric/x`)." in text, text


def test_a_comment_on_a_pull_request_links_it_and_shows_what_the_culprit_run_prints():
    """The two-functions argmax is a comment on PR #23665: the draft links the pull request, says it reproduces the
    bug the PR fixes, and quotes what the one-pass run prints (the comment has no culprit_before.mlir beside it)."""
    bundle = Bundle.load(_bundle("dynamic_sort_stack"))
    shows = ["// the pass's output writes an operand in place that another op still reads:", "%1 = x -> %0{%c4}"]
    bundle.finding["culprit"] = {
        "pass": "cse",
        "confirm": {"command": "iree-opt ... culprit_before.mlir", "shows": shows},
    }
    text = drafts.comment_text("iree-org/iree#23665", "CSE aliasing", [("v", bundle)])
    assert "https://github.com/iree-org/iree/pull/23665" in text and "proposes to fix" in text, text
    assert "%1 = x -> %0{%c4}" in text, text
    assert (
        drafts.trigger_summary(_rows(("rank+1", "same")))
        == "it still fails the same way with each of: the rank+1 variant."
    )


def test_a_comment_on_a_run_finding_does_not_say_the_tool_prints_ireefuzz_words():
    """iree-run-module without --expected_output prints the values, not ireefuzz's comparison: the draft says whose
    words the quoted message is."""
    bundle = Bundle.load(_bundle("fill_sum"))
    text = drafts.comment_text("iree-org/iree#1", "a sum", [("v", bundle)])
    assert "prints: `main output" not in text and "ireefuzz's check of the run reports: `" in text, text


def test_a_comment_on_a_crash_gives_its_signal_and_frames_not_the_cut_stack_dump():
    """The conv-input-as-outs comment quoted "prints: `... Stack dump: 0. Program arguments: iree-compile input.mlir
    -o modu`": a crash is said by its signal and the frames its cause keys."""
    crash = Finding(
        "crash",
        "compile-crash",
        "crash/compile-crash/-/-/-",
        "iree-compile crash on a valid program: Stack dump:\n0.\tProgram arguments: iree-compile",
        cause="crash/compile-crash/SIGSEGV/mlir.iree_compiler.IREE.Flow.DispatchWorkgroupsOp.getResultAccess>x.y",
    )
    said = drafts.crash_stack(crash)
    assert said == "SIGSEGV in `mlir::iree_compiler::IREE::Flow::DispatchWorkgroupsOp::getResultAccess` < `x::y`", said
    assert drafts.crash_stack(_finding("fill_sum")) == ""


def test_a_comment_quotes_what_iree_compile_prints_not_ireefuzzs_prefix():
    text = drafts.comment_text("iree-org/iree#24735", "argsort", [("v", Bundle.load(_bundle("dynamic_sort_stack")))])
    assert "prints: `iree-compile error on a valid program" not in text and "prints: `'" in text, text


def test_a_static_cure_at_a_unit_size_whose_twin_fails_names_no_dynamic_dims():
    program = "func.func @main(%arg0: tensor<?x3xf16>) -> tensor<?x3xf16> {"
    degenerate = _rows(("static", "clean"), ("static@edge+1", "same"))
    assert report.conditions(program, degenerate) == []
    assert report.conditions(program, _rows(("static", "clean"), ("static@edge+1", "clean"))) == ["dynamic dims"]


STRIDED_GATHER = """func.func @main(%arg0: tensor<13x3x34xi32>, %arg1: tensor<13xi32>) -> tensor<13x3xi32> {
  %s = tensor.extract_slice %arg0[0, 0, 33] [13, 3, 1] [1, 1, 1] : tensor<13x3x34xi32> to tensor<13x3xi32>
  %e = tensor.empty() : tensor<13x3xi32>
  %g = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0)>, affine_map<(d0, d1) -> (d0, d1)>],
      iterator_types = ["parallel", "parallel"]} ins(%arg1 : tensor<13xi32>) outs(%e : tensor<13x3xi32>) {
  ^bb0(%in: i32, %out: i32):
    %i = arith.index_cast %in : i32 to index
    %j = linalg.index 1 : index
    %x = tensor.extract %s[%i, %j] : tensor<13x3xi32>
    linalg.yield %x : i32
  } -> tensor<13x3xi32>
  return %g : tensor<13x3xi32>
}"""


def test_a_generic_that_reads_a_tensor_by_index_is_named_a_gather_from_its_source():
    """Issue 32's review: the strided-gather bundle's title said "an elementwise `linalg.generic`"."""
    said = report.subject_phrase(STRIDED_GATHER, "main")
    assert said == "a gather (`tensor.extract` in a `linalg.generic`) from `tensor.extract_slice`", said


def test_a_bundle_that_names_host_says_what_host_was():
    """The review: "Reproduces with host" read as any host, but #13577's fmaxf link error is gone where `host` has
    AVX-512 FP16. The line names the CPU `host` resolved to where the bundle was made (real compiler probe)."""
    from ireefuzz import sut

    name = sut.resolve_platform(sut.CompilerConfig(target_cpu="host"))[0].name
    assert name and f"`host` was `{name}`" in report.host_said(["generic", "host"])
    assert report.host_said(["generic", "x86-64-v3"]) == ""


def _with_match(bundle: Bundle, **match: object) -> Bundle:
    bundle.finding["upstream"] = [
        {"issue": "iree-org/iree#24735", "state": "open", "timing": "open", "build": "3.13.0rc20261016 @ x"},
        {"build": "3.13.0rc20261016 @ x", **match},
    ]
    return bundle


def test_a_comment_on_a_closed_issue_whose_fix_the_build_holds_says_the_fix_does_not_cover_it():
    """The #24385 draft read like a stale duplicate: it never said the fix (PR #24391) is in the releases that still
    crash. The draft leads with it, and names any other matched issue whose fix the build holds."""
    fixed = {"pr": "iree-org/iree#24391", "date": "2026-05-12", "first_nightly": "iree-3.12.0rc20260513"}
    closed = {"issue": "iree-org/iree#24385", "state": "closed", "timing": "before-build", "landed": fixed}
    bundle = _with_match(Bundle.load(_bundle("dynamic_sort_stack")), **closed)
    answers = {"v": "regressed between 3.10.0 and 3.12.0; still present in 3.13.0"}
    text = drafts.comment_text("iree-org/iree#24385", "a conv", [("v", bundle)], answers)
    lead = text.split("**What this adds**")[0]
    assert "Not covered by the fix" in lead and "iree-org/iree#24391 (merged 2026-05-12" in lead, text
    assert "regressed between 3.10.0 and 3.12.0" in lead, text
    related = drafts.comment_text("iree-org/iree#24735", "argsort", [("v", bundle)])
    lead = related.split("**What this adds**")[0]  # the review: the useful point was buried in the last line
    assert "**Related**: https://github.com/iree-org/iree/issues/24385 (closed; its fix iree-org/iree#24391" in lead
    assert "Not covered by the fix" not in related  # #24735 itself is open


def test_a_comment_on_an_open_issue_leads_with_a_regression_bisection_found():
    bundle = Bundle.load(_bundle("dynamic_sort_stack"))
    text = drafts.comment_text("iree-org/iree#24735", "argsort", [("v", bundle)], {"v": "regressed between A and B"})
    assert "**New fact**: this reproducer regressed between A and B" in text.split("**What this adds**")[0], text


def test_a_comment_on_an_argument_written_in_place_gives_the_commands_that_show_it():
    """iree-run-module copies --input files into fresh buffers: the #24665 draft's plain run could not show the
    argument change. The draft gives inputs_after.mlir and the two-module run that does."""
    bundle = Bundle.load(_bundle("sort_of_an_argument"))  # the #24665 comment's bundle as shipped at stop 39
    text = drafts.comment_text("iree-org/iree#24665", "a sort of an argument", [("v", bundle)])
    assert "--module=module.vmfb --module=after.vmfb" in text and "--function=main_inputs_after" in text, text
    assert "--expected_output=@a0.npy --equality_mode=exact" in text and "module @inputs_after" in text, text
    assert "--function=main --input=@a0.npy\n" not in text, text


def test_one_root_cause_makes_one_report_led_by_its_variant_with_a_confirmed_pass_test():
    """The review: fold-unit-dims shipped as three reports of one root cause. One ISSUE.md: the variant whose culprit
    the one-pass run confirmed, with a pass test and a compile-time symptom, leads in full; the wrong-values variant
    is one paragraph of it."""
    wrong = ("pooling", Bundle.load(_bundle("pooling_unit_output")))
    invalid = ("depthwise", Bundle.load(_bundle("fold_unit_dims_invalid_ir")))
    wrong[1].finding["culprit"] = dict(invalid[1].finding.get("culprit") or {}, pass_="x")
    wrong[1].issue = (wrong[1].issue or "").replace("pass_test.mlir", "the test")  # no pass test ships with it
    assert drafts.lead_variant([wrong, invalid]) == 1 and drafts.lead_variant([invalid, wrong]) == 0
    text = drafts.root_cause_text("one bug", [wrong, invalid], {"pooling": "present since 3.10.0"})
    assert text.startswith("# [") and text.splitlines()[0].endswith(" one bug"), text[:200]
    assert text.count("\n## The lead variant: ") == 1 and "(`depthwise`) is given in full" in text, text[:600]
    others = text.split("## Other variants of this root cause")[1].split("## The lead variant")[0]
    assert "- `pooling`: " in others and "present since 3.10.0" in others and "depthwise" not in others, others
    assert "\n### What happens" in text and "\n## What happens" not in text  # the lead's sections nest under it


def test_a_crash_report_says_what_run_sh_adds_to_the_command_it_gives():
    """The mmt4d review: ISSUE.md's command differs from what run.sh runs (which adds the print-ir-before flags to see
    the pass it died in); the report says so."""
    crash = Finding(
        "crash",
        "compile-crash",
        "crash/compile-crash/-/-/-",
        "iree-compile crash on a valid program",
        cause="crash/compile-crash/SIGFPE/x",
    )
    found = culprit.Culprit("executable-targets", "iree-llvmcpu-select-lowering-strategy", "it died there")
    found = dataclasses.replace(found, method="crash")
    text = report.issue_text(crash, _subject(crash, "module {}"), report.Measured(culprit=found))
    assert (
        "`run.sh` adds `--mlir-print-ir-before=iree-llvmcpu-select-lowering-strategy --mlir-disable-threading`" in text
    )
    error = dataclasses.replace(crash, kind="compile-error", signature="crash/compile-error/-/-/-")
    assert "`run.sh` adds" not in report.issue_text(error, _subject(error, "module {}"), report.Measured(culprit=found))


def test_a_comment_for_llvm_leads_with_the_upstream_mlir_test():
    """The review: the llvm/llvm-project#113021 comment gave an iree-compile reproducer to an MLIR audience."""
    bundle = Bundle.load(_bundle("dynamic_sort_stack"))
    bundle.upstream_test = "// RUN: mlir-opt --transform-interpreter %s 2>&1 | FileCheck %s\n\nfunc.func @f() {}\n"
    bundle.finding["lit_tests"] = [{"test": "upstream_test.mlir", "why": "mlir-opt: error: 'x' op found 57"}]
    text = drafts.comment_text("llvm/llvm-project#113021", "tiling", [("v", bundle)])
    first = text.index("func.func @f() {}")
    assert first < text.index(bundle.program.strip()), text
    assert "mlir-opt --transform-interpreter upstream_test.mlir" in text and "found 57" in text, text
    iree = drafts.comment_text("iree-org/iree#24735", "argsort", [("v", bundle)])
    assert "func.func @f() {}" not in iree  # an IREE issue's readers get IREE's program


def test_a_reduction_whose_body_ignores_its_input_is_said_from_the_program():
    """The reduced fill-sum has no fill left for the producer experiment to vary: its title lost the condition. The
    program says it: the reduction's body never reads its input."""
    ignoring = (BUNDLES.parents[2] / "docs/bundles/fill_then_sum_wrong_value").glob("*/program.mlir")
    program = next(ignoring).read_text()
    assert "a body that does not read its input" in report.conditions(program, None)
    reading = program.replace("arith.addi %out, %cst1", "arith.addi %out, %in")
    assert "a body that does not read its input" not in report.conditions(reading, None)


def test_an_op_reading_its_destination_is_named_by_that_not_by_writing_an_argument():
    """The conv-input-as-outs review: 'with a function argument as its destination' names the wrong trigger, as the
    conv with another argument as outs compiles; the op takes its input as its destination too."""
    conv = (
        "func.func @main(%arg0: tensor<1x1x2x2xi32>, %arg1: tensor<2x1x2x2xi32>) -> tensor<2x1x2x2xi32> {\n"
        "  %conv = linalg.conv_2d_nhwc_hwcf ins(%arg1, %arg0 : tensor<2x1x2x2xi32>, tensor<1x1x2x2xi32>) "
        "outs(%arg1 : tensor<2x1x2x2xi32>) -> tensor<2x1x2x2xi32>\n"
    )
    cured = _rows(("conv#0.outs=empty", "clean"))
    said = report.conditions(conv, cured, subject="linalg.conv_2d_nhwc_hwcf")
    assert "its input as its destination too" in said, said
    other = conv.replace("outs(%arg1 : tensor<2x1x2x2xi32>)", "outs(%arg2 : tensor<2x1x2x2xi32>)")
    assert report.conditions(other, cured, subject="linalg.conv_2d_nhwc_hwcf") == [
        "a function argument as its destination"
    ]


def test_a_constant_its_failure_needs_is_named_in_the_conditions():
    """Round 4 of the review: the gather of a gather's title left out that its indices are constants (read from an
    argument holding the same values, it is right)."""
    program = (
        "  %cst = arith.constant dense<0> : tensor<2x1xi32>\n"
        "  %g = iree_linalg_ext.gather dimension_map = [0] ins(%arg0, %cst : tensor<1x1xi32>, tensor<2x1xi32>) "
        "outs(%e : tensor<2x1xi32>) -> tensor<2x1xi32>\n"
    )
    change = "a function argument of its type in place of the `arith.constant` %cst (its input the same splat, 0)"
    rows = _rows(("constant#1.producer=splat-argument", "clean"))
    rows["rows"][1]["change"] = change
    assert report.conditions(program, rows) == ["a constant input to `iree_linalg_ext.gather`"]
    rows["rows"][1]["outcome"] = "same"  # it fails the same way from an argument: the constant is not needed
    assert report.conditions(program, rows) == []


def test_a_bundle_ships_the_ir_its_issue_runs_the_culprit_pass_on(tmp_path):
    """Round 41's outsider: a campaign bundle's ISSUE.md said `iree-opt ... culprit_before.mlir`, the file was not in
    the bundle, and its inline copy was cut. Every bundle maker goes through ``report.make_bundle``, which now carries
    the culprit's IR into the bundle (the program path wrote the files itself; the case path did not)."""
    crash = Finding(
        "crash",
        "compile-crash",
        "crash/compile-crash/-/-/-",
        "iree-compile crash on a valid program",
        cause="crash/compile-crash/SIGSEGV/x",
    )
    found = dataclasses.replace(
        culprit.Culprit("flow", "iree-flow-annotate-dispatches", "it died there", ir_before="module {}\n// before"),
        method="crash",
    )
    made = report.make_bundle(crash, _subject(crash, "module {}"), measured=report.Measured(culprit=found))
    assert "culprit_before.mlir" in (made.issue or "")
    root = made.dump(tmp_path / "b")
    assert (root / "culprit_before.mlir").read_text() == "module {}\n// before\n"
    assert not (root / "culprit_after.mlir").exists()
    assert Bundle.load(root).culprit_before == "module {}\n// before\n"


def test_a_crash_is_named_by_the_first_frame_outside_the_irs_own_accessors():
    """Round 41's outsider: "dies of SIGSEGV in `getKind`" named the AffineExpr accessor that read a null expression,
    not the helper that left it null (inferConvolutionDims's). The accessor frames of the IR and LLVM's support code
    are skipped, and the caller is named too; a crash in a frame of its own keeps its name alone."""

    def said(cause: str) -> str:
        return report.happened(Finding("crash", "compile-crash", "crash/compile-crash/-/-/-", "crash", cause=cause))

    assert said(
        "crash/compile-crash/SIGSEGV/mlir.AffineExpr.getKind>getConstantsFromExprList>inferConvolutionDimsImpl"
    ) == ("iree-compile dies of SIGSEGV in `getConstantsFromExprList` (from `inferConvolutionDimsImpl`)")
    assert said(
        "crash/compile-crash/SIGFPE/mlir.iree_compiler.limitVectorTileSizes>mlir.iree_compiler.getMmt4dLoweringConfig"
    ) == ("iree-compile dies of SIGFPE in `limitVectorTileSizes`")
    assert said("crash/compile-crash/SIGSEGV/-") == "iree-compile dies of SIGSEGV"


def test_a_wrong_value_title_names_the_math_function_and_drops_what_fed_it_when_the_op_fails_alone():
    """Round 41's outsider: "an elementwise `linalg.generic` of an elementwise `linalg.generic`: returns wrong values"
    named neither asinh nor that the mask before it only made its operand. The generic's math functions are named;
    once the op alone at its operands' values fails the same way (``experiments.cut``), its producers are not."""
    from ireefuzz.generators.emit import emit

    b = GraphBuilder()
    b.output(b.op("asinh", b.op("causal_mask", b.arg((4, 4)), offset=0, fill=-10000.0)))
    program = emit(b.build()).text
    wrong = Finding("numeric", "wrong-value", "numeric/wrong-value/causal_mask>asinh/f32/SxS", "wrong values")
    without = report.title(wrong, [], program=program, function="main")
    assert "computing `math.asinh` of an elementwise `linalg.generic`" in without, without
    row = {"label": "asinh#n1.alone", "change": "alone", "outcome": "same", "causes": ["numeric/wrong-value/asinh"]}
    alone = report.title(wrong, [], program=program, function="main", experiments={"rows": [row]})
    assert alone.endswith("an elementwise `linalg.generic` computing `math.asinh`: wrong values"), alone


STACK = """Stack dump:
 #0 0x00007f7749f5a0ab llvm::sys::PrintStackTrace(llvm::raw_ostream&, int) Signals.cpp:0:0
 #1 0x00007f7749f571fe llvm::sys::RunSignalHandlers() Signals.cpp:0:0
 #2 0x00007f7749f5ac10 SignalHandler(int, siginfo_t*, void*) Signals.cpp:0:0
 #3 0x00007f774405a050 (/lib/x86_64-linux-gnu/libc.so.6+0x3c050)
 #4 0x00007f7749f7b5a3 mlir::AffineExpr::getKind() const AffineExpr.cpp:0:0
 #5 0x00007f774a0fa8e0 getConstantsFromExprList(llvm::SmallVector<mlir::AffineExpr, 2u> const&) LinalgInterfaces.cpp:0:0
 #6 0x00007f774a0f4108 mlir::linalg::inferConvolutionDims(mlir::linalg::LinalgOp) LinalgInterfaces.cpp:0:0
 #7 0x00007f774be1090b mlir::iree_compiler::IREE::Flow::summarizeDispatchRegion[abi:cxx11](mlir::Region&) {where}
""".format(where="AnnotateDispatches.cpp:0:0")


def test_a_crash_report_says_whose_code_died_and_which_iree_code_called_it():
    """Round 41's reviews: the SIGSEGV was upstream MLIR's (``linalg::inferConvolutionDims``), which the report did
    not say, so it could not be routed to llvm-project. The first frame past the IR's accessors names the owner."""
    assert report.crash_site(STACK) == (
        "The crash is in upstream MLIR code: `getConstantsFromExprList` (`LinalgInterfaces.cpp`) < "
        "`mlir::linalg::inferConvolutionDims` (`LinalgInterfaces.cpp`), called from IREE's "
        "`mlir::iree_compiler::IREE::Flow::summarizeDispatchRegion` (`AnnotateDispatches.cpp`); its fix may belong in "
        "llvm/llvm-project."
    )
    own = STACK.replace(
        "getConstantsFromExprList(llvm::SmallVector<mlir::AffineExpr, 2u> const&)", "mlir::iree_compiler::f()"
    )
    assert report.crash_site(own) == "The crash is in IREE's code: `mlir::iree_compiler::f` (`LinalgInterfaces.cpp`)."
    assert report.crash_site("iree-compile: error: something") == ""


def test_a_compile_errors_title_keeps_its_own_words_not_the_op_it_echoes():
    """Stop 48's stream bundle was titled "...: circular dependency: input operation uses partition output %11 =
    ..."."""
    message = 'circular dependency: input operation uses partition output %12 = "stream.async.dispatch"(%11) <{a = 1}>'
    said = report.happened(Finding("crash", "compile-error", "crash/compile-error/x", message))
    assert said == "circular dependency: input operation uses partition output", said


def test_a_title_leaves_out_the_consumer_the_experiments_removed_with_the_wrong_value_kept():
    """Stop 48's i4 dequantizing matmul (x86-64-v3, seed 17389) was titled "an elementwise `linalg.generic` computing
    `math.log1p` of ...": its `drop:n1` variant (the log1p removed) was the same wrong value on the matmul alone."""
    finding = _finding("i4_dequant_log1p")
    program = (_bundle("i4_dequant_log1p") / "program.mlir").read_text()
    ops = report.ops_of(program)
    found = json.loads((_bundle("i4_dequant_log1p") / "finding.json").read_text())["experiments"]
    title = report.title(finding, ops, program=program, function="main", experiments=found)
    assert title.startswith("[llvm-cpu] a `linalg.generic` sum of `flow.tensor.bitcast`") and "log1p" not in title
    kept = report.title(finding, ops, program=program, function="main", experiments=None)
    assert "log1p" in kept, kept  # without the experiment the returned op is the subject
