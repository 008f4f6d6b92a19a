"""One line on stderr and exit 2 for every bad input to check / repro / bisect / promote, never a traceback
(exit 1 means "new findings"). Run as a user runs them: ``python -m ireefuzz.cli`` in a subprocess."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from programs import ADD as ADD_8X4

from ireefuzz import cli
from ireefuzz.tools import check
from ireefuzz.tools.filing.bundle import Bundle

ADD = """func.func @add(%a: tensor<?x16xf32>, %b: tensor<?x16xf32>) -> tensor<?x16xf32> {
  %c0 = arith.constant 0 : index
  %d = tensor.dim %a, %c0 : tensor<?x16xf32>
  %e = tensor.empty(%d) : tensor<?x16xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>, \
affine_map<(i, j) -> (i, j)>],
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
    "check-unbalanced-quote": ('check add.mlir --flags "\'x"', "No closing quotation"),
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
    "repro-out-is-a-file": ("repro findings.jsonl --line 1 --out binary.dat", "not a directory"),
    "repro-out-cannot-be-made": ("repro findings.jsonl --line 1 --out /proc/x", "cannot make a directory there"),
    "promote-corpus-is-a-file": ("promote good --corpus binary.dat", "not a directory"),
    "promote-corpus-cannot-be-made": ("promote good --corpus /proc/x", "cannot make a directory there"),
    "fuzz-out-is-a-file": ("fuzz --cases 2 --out binary.dat", "is a file; give a directory"),
    "fuzz-out-cannot-be-made": ("fuzz --cases 2 --out /proc/x", "cannot make a directory there"),
    "fuzz-unbalanced-quote": ('fuzz --cases 2 --out o --flags "\'x"', "No closing quotation"),
    "fuzz-nan-case-timeout": (
        "fuzz --cases 2 --out o --case-timeout nan",
        "--case-timeout nan: give a positive number",
    ),
    "fuzz-nan-time": ("fuzz --time nan --out o", "--time nan: give a positive number"),
    "fuzz-inf-time": ("fuzz --time inf --out o", "--time inf: give a positive number"),
    "fuzz-negative-time": ("fuzz --time -5 --out o", "--time -5.0: give a positive number"),
    "fuzz-scheduler-not-an-address": ("fuzz --cases 2 --out o --scheduler notaurl", "like tcp://HOST:PORT"),
    "fuzz-binary-baseline": ("fuzz --cases 2 --out o --baseline binary.dat", "not a text file"),
    "fuzz-resume-corrupt-campaign": ("fuzz --resume --out corrupt-campaign --cases 4", "campaign.json is damaged"),
    "fuzz-resume-campaign-of-wrong-kinds": ("fuzz --resume --out wrong-kinds --cases 4", "seed: not the recorded kind"),
    "fuzz-resume-torn-middle-line": ("fuzz --resume --out torn-middle --cases 4", "progress.jsonl line 1 is not JSON"),
    "fuzz-resume-row-without-case-index": ("fuzz --resume --out no-case-index --cases 4", "row 1: no valid case_index"),
}
NEEDS_THE_COMPILER = {  # the start-up probe compiles a tiny program with the given CPU and flags
    "check-bogus-cpu": ("check add.mlir --target-cpu=bogus", "--iree-llvmcpu-target-cpu=bogus"),
    "check-unknown-flag": ("check add.mlir --flags=--no-such-flag", "Unknown command line argument"),
    "repro-false-compiler": ("repro findings.jsonl --line 1 --out o --iree-compile=/bin/false", "--version` failed"),
    "fuzz-false-compiler": ("fuzz --cases 2 --out o --iree-compile=/bin/false", "--version` failed"),
    "fuzz-compiler-writes-nothing": ("fuzz --cases 2 --out o --iree-compile=/bin/true", "wrote no module.vmfb"),
    "fuzz-bogus-cpu": ("fuzz --cases 2 --out o --target-cpu=bogus", "--iree-llvmcpu-target-cpu=bogus"),
    "fuzz-unknown-flag": ("fuzz --cases 2 --out o --flags=--no-such-flag", "Unknown command line argument"),
    "fuzz-scheduler-refused": ("fuzz --cases 2 --out o --scheduler tcp://127.0.0.1:1", "cannot connect"),
}
PROGRESS_LINE = {
    "t": 1.0,
    "cases": [
        {"i": 0, "sigs": [], "pipelines": [], "ops": "add", "dtype": "f32", "dims": "S", "instances": 1, "discarded": 0}
    ],
}
DAMAGED_RUNS = {  # --resume of these: (campaign.json, progress.jsonl, findings.jsonl)
    "corrupt-campaign": ('{"seed": ', "", ""),
    "wrong-kinds": ('{"seed": "zero"}', "", ""),
    "torn-middle": ("{}", '{"t": 1, "ca\n' + json.dumps(PROGRESS_LINE) + "\n", ""),
    "no-case-index": ("{}", "", json.dumps({"signature": "crash/x", "oracle": "crash"}) + "\n"),
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
    good = json.loads(FINDINGS.read_text().splitlines()[0])
    Bundle(program="module {}\n", finding=good, case=good["case"]).dump(tmp / "good")
    for name, (campaign, progress, findings) in DAMAGED_RUNS.items():
        (tmp / name).mkdir()
        for file, text in (("campaign.json", campaign), ("progress.jsonl", progress), ("findings.jsonl", findings)):
            (tmp / name / file).write_text(text)
    return tmp


def _cli(argv: str, cwd: Path) -> subprocess.CompletedProcess:
    import shlex

    env = dict(os.environ, JAX_PLATFORMS="cpu")
    return subprocess.run(
        [sys.executable, "-m", "ireefuzz.cli", *shlex.split(argv)],
        cwd=cwd,
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
    )


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


@pytest.mark.parametrize(
    "argv,joined",
    [
        (
            ["check", "p.mlir", "--flags", "--iree-opt-data-tiling=false"],
            ["check", "p.mlir", "--flags=--iree-opt-data-tiling=false"],
        ),
        (["fuzz", "--flags", "--a --b", "--cases", "3"], ["fuzz", "--flags=--a --b", "--cases", "3"]),
        (["check", "p.mlir", "--flags=--x"], ["check", "p.mlir", "--flags=--x"]),
        (["check", "--", "--flags", "x"], ["check", "--", "--flags", "x"]),
        (["check", "p.mlir", "--flags"], ["check", "p.mlir", "--flags"]),  # no value: argparse says so
    ],
)
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


def test_a_torn_last_line_is_skipped_then_cut_off_by_the_next_append(tmp_path):
    from ireefuzz.base import durable as _io

    log = tmp_path / "progress.jsonl"
    log.write_text('{"a": 1}\n{"b": 2')  # a kill mid-write
    assert _io.read_jsonl(log) == [{"a": 1}]
    _io.append_line(log, '{"c": 3}')
    assert log.read_text() == '{"a": 1}\n{"c": 3}\n'  # not '{"b": 2{"c": 3}': a corrupt middle line
    log.write_text('{"a": 1}\n{"b": \n{"c": 3}\n')
    with pytest.raises(ValueError, match="line 2 is not JSON"):
        _io.read_jsonl(log)


def test_the_staged_finding_files_do_not_stay_in_bundles(tmp_path, monkeypatch):
    from ireefuzz.tools.campaign import bundling

    staged = []

    def fake_repro(command, **kwargs):
        staged.append(Path(command[4]))
        return subprocess.CompletedProcess(command, 0, "bundle written", "")

    monkeypatch.setattr(bundling.subprocess, "run", fake_repro)
    record = _record_with_one_new_cause(tmp_path)
    assert bundling.bundle_new_causes(record, None, 10) and staged[0].name.startswith(".")
    assert not list((tmp_path / "bundles").glob(".*"))


def _record_with_one_new_cause(out: Path):
    from ireefuzz.tools import baseline
    from ireefuzz.tools.campaign import options, record

    row = json.loads(FINDINGS.read_text().splitlines()[0])
    row |= {"case_index": 0, "size": [4, 1], "status": "new", "example": "first"}
    (out / "findings.jsonl").write_text(json.dumps(row) + "\n")
    entry = {
        "i": 0,
        "sigs": [row["signature"]],
        "pipelines": [],
        "ops": "add",
        "dtype": "f32",
        "dims": "S",
        "instances": 1,
        "discarded": 0,
    }
    (out / "progress.jsonl").write_text(json.dumps({"t": 1.0, "cases": [entry]}) + "\n")
    return record.Record(out, options.Options(cases=1), baseline.Baseline())


# --------------------------------------------------------------------------- the pytest plugin, as a user runs it

UNCHECKABLE = {  # a .mlir file and its inputs spec (None: none), each failing in one line that says why
    "bad.mlir": (
        "func.func @f(%a: tensor<4xf32>) -> tensor<4xf32> { return %b : tensor<4xf32> }",
        None,
        "not a valid MLIR program",
    ),
    "torn_spec.mlir": (ADD_8X4, b'{"seed": ', "not valid JSON"),
    "binary_spec.mlir": (ADD_8X4, b"\xff\xfe", "not valid JSON"),
    "no_npz.mlir": (ADD_8X4, b'{"expected": "missing.npz"}', "missing.npz: No such file or directory"),
    "shape_count.mlir": (ADD_8X4, b'{"shapes": [[8, 4]]}', "takes 2 arguments but 1 shape(s) are given"),
}


def _pytest(cwd: Path, *argv: str) -> subprocess.CompletedProcess:
    env = dict(os.environ, JAX_PLATFORMS="cpu")
    return subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", *argv],
        cwd=cwd,
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
    )


@pytest.mark.iree
def test_plugin_files_it_cannot_check_fail_in_one_line_each(tmp_path):
    for name, (program, spec, _) in UNCHECKABLE.items():
        (tmp_path / name).write_text(program)
        if spec is not None:
            (tmp_path / name).with_suffix(".inputs.json").write_bytes(spec)
    proc = _pytest(tmp_path, "--ireefuzz-mlir", ".")
    assert proc.returncode == 1 and "Traceback" not in proc.stdout and "def " not in proc.stdout, proc.stdout
    for name, (_, _, says) in UNCHECKABLE.items():
        (line,) = [line for line in proc.stdout.splitlines() if line.startswith(f"{name}: ")]
        assert says in line, proc.stdout


@pytest.mark.iree
def test_plugin_probes_a_given_target_cpu_at_start(tmp_path):
    (tmp_path / "test_nothing.py").write_text("def test_nothing():\n    pass\n")
    proc = _pytest(tmp_path, "--iree-target-cpu=bogus")
    errors = [line for line in proc.stderr.splitlines() if line.startswith("ERROR:")]
    assert proc.returncode == pytest.ExitCode.USAGE_ERROR and len(errors) == 1, proc.stdout + proc.stderr
    assert "--iree-llvmcpu-target-cpu=bogus" in errors[0]
