"""A compile failure's run.sh prints what a maintainer reads first: the signal it died of and the diagnostic or the
top stack frames, not the IR dump ``--mlir-print-ir-before`` wrote ahead of them (the review's mmt4d bundle showed
30 lines of IR)."""

from __future__ import annotations

import subprocess

import pytest

from ireefuzz.tools.filing import bundle

DUMP = "// -----// IR Dump Before LLVMCPUSelectLoweringStrategyPass (iree-llvmcpu-select-lowering-strategy) //----- //"
LOG = "\n".join(
    [DUMP, *(f"  %{i} = arith.constant {i} : index" for i in range(40)), "Stack dump:", " #0 limitVectorTileSizes", ""]
)


def _show(tmp_path, status: int, text: str = LOG) -> str:
    log = tmp_path / "compile.log"
    log.write_text(text)
    show = 'show() { n=0; while [ "$n" -lt "$2" ] && IFS= read -r line; do echo "$line"; n=$((n+1)); done < "$1"; }\n'
    script = f"{show}{bundle._SHOW_FAILURE}status={status}\nshow_failure {log} 5\n"
    return subprocess.run(["sh", "-c", script], capture_output=True, text=True, check=True).stdout


@pytest.mark.parametrize("status", [136, 248])  # the shell's 128+SIGFPE, the Python launcher's 256-SIGFPE
def test_a_crash_shows_its_signal_and_frames_not_the_ir_before_it(tmp_path, status):
    out = _show(tmp_path, status)
    assert out.splitlines()[:3] == ["killed by signal SIGFPE", "Stack dump:", " #0 limitVectorTileSizes"]
    assert "arith.constant" not in out and "IR Dump" not in out


def test_a_failure_without_a_diagnostic_line_shows_its_first_lines(tmp_path):
    assert _show(tmp_path, 1, "no marker here\nsecond\n").splitlines() == ["no marker here", "second"]


def test_the_crash_and_error_bodies_use_it():
    body = bundle._crash_compile_body("compile-crash", [], 8, "iree-llvmcpu-select-lowering-strategy")
    assert body.count('show_failure "$WORK.compile.log"') == 2 and "show_failure() {" in body
