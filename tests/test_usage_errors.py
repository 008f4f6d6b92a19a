"""One line on stderr and exit 2 for every bad input to check / repro / bisect / promote, never a traceback
(exit 1 means "new findings"). Run as a user runs them: ``python -m ireefuzz.cli`` in a subprocess."""
from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from ireefuzz import check, cli

ADD = """func.func @add(%a: tensor<?x16xf32>, %b: tensor<?x16xf32>) -> tensor<?x16xf32> {
  %c0 = arith.constant 0 : index
  %d = tensor.dim %a, %c0 : tensor<?x16xf32>
  %e = tensor.empty(%d) : tensor<?x16xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>],
                       iterator_types = ["parallel", "parallel"]}
      ins(%a, %b : tensor<?x16xf32>, tensor<?x16xf32>) outs(%e : tensor<?x16xf32>) {
  ^bb0(%x: f32, %y: f32, %o: f32):
    %s = arith.addf %x, %y : f32
    linalg.yield %s : f32
  } -> tensor<?x16xf32>
  return %r : tensor<?x16xf32>
}
"""
FINDINGS = Path(__file__).parent / "data" / "findings" / "before-1024-3.13.jsonl"

BAD_INPUTS = {  # name: (argv with {tmp}-relative files, what the one line says)
    "check-unbalanced-quote": ("check add.mlir --flags \"'x\"", "No closing quotation"),
    "check-binary-program": ("check binary.dat", "not a text file"),
    "check-negative-dim": ("check add.mlir --shapes 33x16,16x-1", "negative dim"),
    "check-huge-shape": ("check add.mlir --shapes 100000x100000,100000x100000", "more than ireefuzz check feeds"),
    "check-negative-seed": ("check add.mlir --seed -1", "not a non-negative integer"),
    "check-wrong-shape-count": ("check add.mlir --shapes 4x16", "no public function takes that many"),
    "check-false-compiler": ("check add.mlir --iree-compile=/bin/false", "--version` failed"),
    "check-compiler-writes-nothing": ("check add.mlir --iree-compile=/bin/true", "wrote no module.vmfb"),
    "repro-binary-finding": ("repro binary.dat --out out", "not a readable text file"),
    "repro-malformed-line": ("repro findings.jsonl --line 3 --out out", "line 3 is not JSON"),
    "repro-line-out-of-range": ("repro findings.jsonl --line 9 --out out", "has 4 lines"),
    "repro-not-a-finding": ("repro findings.jsonl --line 4 --out out", "not a finding"),
    "bisect-corrupt-finding": ("bisect corrupt --no-install", "not a readable JSON file"),
    "bisect-binary-finding": ("bisect binary --no-install", "not a readable JSON file"),
    "promote-binary-finding": ("promote binary --corpus corpus", "not a readable JSON file"),
    "promote-corrupt-finding": ("promote corrupt --corpus corpus", "not a readable JSON file"),
}
NEEDS_THE_COMPILER = {  # the start-up probe compiles a tiny program with the given CPU and flags
    "check-bogus-cpu": ("check add.mlir --target-cpu=bogus", "--iree-llvmcpu-target-cpu=bogus"),
    "check-unknown-flag": ("check add.mlir --flags=--no-such-flag", "Unknown command line argument"),
}


@pytest.fixture(scope="module")
def inputs(tmp_path_factory) -> Path:
    tmp = tmp_path_factory.mktemp("inputs")
    (tmp / "add.mlir").write_text(ADD)
    (tmp / "binary.dat").write_bytes(b"\x00\x01\xff\xfe\x80 not text")
    good = FINDINGS.read_text().splitlines()[:2]
    (tmp / "findings.jsonl").write_text("\n".join([*good, '{"torn": ', json.dumps({"ok": 1})]) + "\n")
    for name, finding in (("corrupt", b'{"signature": '), ("binary", b"\xff\xfe\x00")):
        (tmp / name).mkdir()
        (tmp / name / "finding.json").write_bytes(finding)
        (tmp / name / "program.mlir").write_text("module {}\n")
        (tmp / name / "case.json").write_text("{}\n")
        (tmp / name / "run.sh").write_text("#!/bin/sh\nexit 0\n")
    return tmp


def _cli(argv: str, cwd: Path) -> subprocess.CompletedProcess:
    import shlex

    env = dict(os.environ, JAX_PLATFORMS="cpu")
    return subprocess.run([sys.executable, "-m", "ireefuzz.cli", *shlex.split(argv)], cwd=cwd, env=env,
                          capture_output=True, text=True, timeout=300)


@pytest.mark.iree  # a subprocess each (~2 s: the interpreter, NumPy and the MLIR bindings start up)
@pytest.mark.parametrize("name", sorted(BAD_INPUTS) + sorted(NEEDS_THE_COMPILER))
def test_bad_input_is_one_line_and_exit_2(inputs, name):
    argv, says = {**BAD_INPUTS, **NEEDS_THE_COMPILER}[name]
    proc = _cli(argv, inputs)
    lines = proc.stderr.strip().splitlines()
    assert proc.returncode == 2 and "Traceback" not in proc.stderr + proc.stdout, proc.stderr
    assert len(lines) == 1 and says in lines[0], proc.stderr
    assert lines[0].startswith(f"ireefuzz {argv.split()[0]}: error: ")


@pytest.mark.iree
def test_the_help_texts_flags_form_works(inputs):
    proc = _cli("check add.mlir --flags '--iree-opt-data-tiling=false' --oracles crash", inputs)
    assert proc.returncode == 0, proc.stderr


# --------------------------------------------------------------------------- in process, fast


@pytest.mark.parametrize("argv,joined", [
    (["check", "p.mlir", "--flags", "--iree-opt-data-tiling=false"], ["check", "p.mlir", "--flags=--iree-opt-data-tiling=false"]),
    (["fuzz", "--flags", "--a --b", "--cases", "3"], ["fuzz", "--flags=--a --b", "--cases", "3"]),
    (["check", "p.mlir", "--flags=--x"], ["check", "p.mlir", "--flags=--x"]),
    (["check", "--", "--flags", "x"], ["check", "--", "--flags", "x"]),
    (["check", "p.mlir", "--flags"], ["check", "p.mlir", "--flags"]),  # no value: argparse says so
])
def test_flags_values_starting_with_dashes_are_joined(argv, joined):
    assert cli.join_option_values(argv) == joined


def test_parse_shapes_refuses_negative_and_huge_shapes():
    assert check.parse_shapes("33x16,,0x4") == [(33, 16), (), (0, 4)]
    for bad in ("33x16,16x-1", "100000x100000", "4xq"):
        with pytest.raises(check.ProgramError):
            check.parse_shapes(bad)


def test_argparse_errors_are_one_line(capsys):
    with pytest.raises(SystemExit) as exit_:
        cli.main(["check", "p.mlir", "--seed", "-1"])
    err = capsys.readouterr().err.strip().splitlines()
    assert exit_.value.code == 2 and len(err) == 1 and "--seed" in err[0]
