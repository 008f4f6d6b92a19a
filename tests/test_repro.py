"""Repro bundles: layout, run.sh in a clean shell with only stock IREE tools (iree), input errors (fast)."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import numpy as np
import pytest

from ireefuzz.errors import UsageError
from ireefuzz.generators.case import Case
from ireefuzz.generators.graph import Graph, Node
from ireefuzz.generators.graph import TensorType as T
from ireefuzz.oracles.finding import Finding
from ireefuzz.tools.filing.bundle import run_script
from ireefuzz.tools.filing.repro import load_finding


def fill_matmul_exp_case() -> Case:
    f = lambda *s: T(s, "f32")
    g = Graph(
        (f("M", "K"), f("K", "N"), f("M", "N")),
        (
            Node("fill", (), {"shape": ["M", "N"], "dtype": "f32", "value": 0.0}, f("M", "N")),
            Node("matmul", ("a0", "a1", "n0"), {}, f("M", "N")),
            Node("exp", ("n1",), {}, f("M", "N")),
            Node("add", ("n2", "a2"), {}, f("M", "N")),
        ),
        ("n3",),
    ).check()
    return Case(g, ({"M": 33, "K": 17, "N": 20},), seed=5)


def _finding(oracle: str, kind: str) -> Finding:
    return Finding(oracle, kind, f"{oracle}/{kind}/x/f32/S", "msg", {}, fill_matmul_exp_case().to_json())


@pytest.mark.parametrize(
    "oracle,kind,needle",
    [
        ("memory", "alloca", "--mlir-print-ir-before=iree-convert-to-llvm"),
        ("immutability", "input-mutated", "--equality_mode=exact"),
        ("numeric", "wrong-values", "--expected_output=@expected/out0.npy"),
        ("crash", "compile-error", "BUG REPRODUCED: iree-compile failed"),
        ("crash", "runtime-fault", "iree-run-module failed"),
        ("fusion", "materialized-producer", "--iree-hal-dump-executable-sources-to"),
    ],
)
def test_run_script_per_oracle(oracle, kind, needle):
    text = run_script(_finding(oracle, kind), fill_matmul_exp_case().graph, ["--iree-hal-target-backends=llvm-cpu"])
    assert text.startswith("#!/bin/sh") and needle in text
    assert "ireefuzz" not in text.split("\n", 3)[3].replace("ireefuzz bisect", "")  # no ireefuzz needed


def test_load_finding_errors(tmp_path):
    with pytest.raises(UsageError, match="no such file"):
        load_finding(str(tmp_path / "missing.json"))
    jsonl = tmp_path / "findings.jsonl"
    jsonl.write_text(_finding("memory", "alloca").dumps() + "\n")
    assert load_finding(str(jsonl), 1).signature == "memory/alloca/x/f32/S"
    with pytest.raises(UsageError, match="--line must be in 1..1"):
        load_finding(str(jsonl), 2)
    bare = tmp_path / "bare.json"
    bare.write_text(json.dumps(Finding("crash", "compile-error", "crash/compile-error/x/-/-", "m").to_json()))
    with pytest.raises(UsageError, match="no generated case"):
        load_finding(str(bare))


def _stock_tools_dir(tmp_path: Path) -> Path:
    """A directory with only the wheel's iree-compile and iree-run-module (symlinks)."""
    import iree.compiler
    import iree.runtime

    tools = tmp_path / "iree-tools"
    tools.mkdir()
    compiler = Path(list(iree.compiler.__path__)[0]) / "_mlir_libs" / "iree-compile"
    runner = Path(iree.runtime.__file__).parent.parent / "_runtime_libs" / "iree-run-module"
    for src in (compiler, runner):
        assert src.exists(), src
        (tools / src.name).symlink_to(src)
    return tools


@pytest.mark.iree
def test_memory_bundle_reproduces_in_a_clean_shell(tmp_path):
    from ireefuzz.core.evaluate import evaluate
    from ireefuzz.tools.filing.repro import shrink_and_bundle

    case = fill_matmul_exp_case()
    (finding,) = [f for f in evaluate([case])[0].findings if f.oracle == "memory"]
    result = shrink_and_bundle(finding, tmp_path / "bundle")
    assert result.status == "confirmed"
    assert result.after.ops < result.before.ops and result.after.elements < result.before.elements
    bundle = result.path
    for name in ("program.mlir", "inputs.npz", "expected.npz", "run.sh", "case.json", "finding.json", "ISSUE.md"):
        assert (bundle / name).exists(), name
    inputs = np.load(bundle / "inputs.npz", allow_pickle=False)
    assert sorted(inputs.files) == [f"a{i}" for i in range(len(result.case.graph.args))]
    expected = np.load(bundle / "expected.npz", allow_pickle=False)
    assert {"jax_0", "f64_0"} <= set(expected.files)
    assert Case.from_json(json.loads((bundle / "case.json").read_text())) == result.case
    assert json.loads((bundle / "finding.json").read_text())["run_sh"]["exit"] == 1  # checked when written
    issue = (bundle / "ISSUE.md").read_text()
    for section in (
        "## What happens",
        "## What was expected",
        "## Environment",
        "## Minimal program",
        "## Evidence",
        "memref.alloca",
        "## Culprit",
    ):
        assert section in issue, section

    tools = _stock_tools_dir(tmp_path)
    env = {"PATH": str(tools), "HOME": str(tmp_path), "TMPDIR": str(tmp_path)}  # env -i: only the two tools
    proc = subprocess.run(
        ["env", "-i", *[f"{k}={v}" for k, v in env.items()], "/bin/sh", str(bundle / "run.sh")],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert proc.returncode == 1, proc.stdout + proc.stderr
    assert "BUG REPRODUCED" in proc.stdout


@pytest.mark.iree
def test_immutability_bundle_reproduces_with_stock_tools_only(tmp_path):
    from ireefuzz.core.evaluate import evaluate
    from ireefuzz.tools.filing.repro import shrink_and_bundle

    i32 = lambda *s: T(s, "i32")
    g = Graph(
        (i32(64, 64), i32(64)), (Node("reduce_sum", ("a0",), {"dim": 1, "init": "value:a1"}, i32(64)),), ("n0",)
    ).check()
    (finding,) = evaluate([Case(g, ({},))])[0].findings
    result = shrink_and_bundle(finding, tmp_path / "bundle", confirm_runs=2)
    assert result.status == "confirmed" and (result.path / "inputs_after.mlir").exists()
    assert "--equality_mode=exact" in (result.path / "ISSUE.md").read_text()
    tools = _stock_tools_dir(tmp_path)
    env = {"PATH": str(tools), "HOME": str(tmp_path), "TMPDIR": str(tmp_path)}  # no python, no coreutils
    proc = subprocess.run(
        ["env", "-i", *[f"{k}={v}" for k, v in env.items()], "/bin/sh", str(result.path / "run.sh")],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert proc.returncode == 1, proc.stdout + proc.stderr
    assert "an argument holds other values after the call" in proc.stdout


@pytest.mark.iree
def test_a_finding_that_no_longer_shows_is_bundled_as_lost_not_a_traceback(tmp_path, capsys):
    """A flaky finding: its recorded case is clean now. repro says so (exit 0: it ran and did not see the
    bug) and writes no ISSUE.md, where it used to die in the shrinker with NotInteresting."""
    from ireefuzz.cli import build_parser
    from ireefuzz.tools.filing import repro

    f32 = lambda *s: T(s, "f32")
    clean = Case(Graph((f32(4),), (Node("abs", ("a0",), {}, f32(4)),), ("n0",)).check(), ({},))
    finding = Finding(
        "numeric",
        "wrong-value",
        "numeric/wrong-value/abs/f32/S",
        "IREE output 0 is wrong",
        {"output": 0},
        clean.to_json(),
    )
    path = tmp_path / "finding.json"
    path.write_text(json.dumps(finding.to_json()))
    args = build_parser().parse_args(["repro", str(path), "--out", str(tmp_path / "bundle"), "--confirm-runs", "1"])
    assert repro.main(args) == 0
    out = capsys.readouterr().out
    assert "does not show" in out and "lost: numeric/wrong-value/abs/f32/S" in out
    assert not (tmp_path / "bundle" / "ISSUE.md").exists()
