"""``sut.Toolchain``: a config's compiler and runtime resolved once per process, and read (not re-derived) by
the compile path. Fast: fake compilers in a fake wheel layout, and the installed wheels."""

from __future__ import annotations

import dataclasses
import json
import os
from pathlib import Path

import pytest

from ireefuzz import sut
from ireefuzz.core.evaluate import Policy, evaluate
from ireefuzz.generators.case import Case
from ireefuzz.generators.graph import Graph, Node, TensorType
from ireefuzz.generators.ops import OP_NAMES
from ireefuzz.sut import releases, toolchain


def _external_compiler(root: Path, version: str) -> str:
    """An iree-compile inside a fake ``iree-compiler==version`` wheel (its dist-info beside it)."""
    site = root / "venv" / "lib" / "python3.11" / "site-packages"
    binary = site / "iree" / "compiler" / "_mlir_libs" / "iree-compile"
    binary.parent.mkdir(parents=True)
    binary.write_text("#!/bin/sh\nexit 1\n")
    os.chmod(binary, 0o755)
    (site / f"iree_compiler-{version}.dist-info").mkdir()
    return str(binary)


def test_an_external_compiler_resolves_to_its_release_syntax_and_ops(tmp_path):
    binary = _external_compiler(tmp_path, "20240621.931")
    resolved = sut.toolchain_of(sut.CompilerConfig(iree_compile=binary))
    assert (resolved.iree_compile, resolved.release) == (binary, "20240621.931")
    assert resolved.syntax == releases.syntax_for("20240621.931")
    assert resolved.ops == releases.ops_for("20240621.931") and set(resolved.ops) < set(OP_NAMES)
    assert resolved.unfeedable_dtypes == sut.RUNNER_UNFEEDABLE_DTYPES and not resolved.installed_wheels
    assert resolved.not_judged is None and resolved.unable == frozenset()  # not prepared: nothing probed
    assert "20240621.931" in repr(resolved)


def test_a_toolchain_is_resolved_once_whatever_the_target_cpu_and_flags(tmp_path, monkeypatch):
    binary = _external_compiler(tmp_path, "20240621.931")
    calls = []
    real = releases.release_of
    monkeypatch.setattr(releases, "release_of", lambda config: calls.append(config) or real(config))
    base = sut.CompilerConfig(iree_compile=binary)
    first = sut.toolchain_of(base)
    variants = [
        dataclasses.replace(base, target_cpu=cpu, flags=flags, timeout_s=5.0)
        for cpu in ("host", "generic")
        for flags in ((), ("--iree-opt-data-tiling=false",))
    ]
    assert all(sut.toolchain_of(v) is first for v in variants)
    assert sut.runtime_python_for(variants[-1]) == first.runtime_python
    assert len(calls) == 1  # the site-packages glob ran once, not once per compile
    other = sut.toolchain_of(sut.CompilerConfig(iree_compile=_external_compiler(tmp_path / "b", "3.10.0")))
    assert other is not first and other.release == "3.10.0"


def test_prepare_returns_the_prepared_toolchain_and_rewrites_nothing_process_wide():
    config = sut.CompilerConfig()
    prepared = sut.prepare(config)
    assert isinstance(prepared, sut.Toolchain) and prepared.installed_wheels
    assert prepared.not_judged == {} and prepared.release is None and prepared.runtime_python is None
    assert prepared.ops == OP_NAMES and prepared.unfeedable_dtypes == frozenset()
    resolved = sut.toolchain_of(dataclasses.replace(config, target_cpu="generic"))
    assert resolved is not prepared and resolved.not_judged is None  # the prepared one travels in a Setup
    assert toolchain.identity(config) == (None, None, None)
    setup = sut.prepared(config)
    assert setup.toolchain.not_judged == {} and setup.config == config
    retargeted = setup.for_case(Case(_exp_graph(), ({},), target_cpu="generic", flags=("--x",)))
    assert retargeted.toolchain is setup.toolchain and (retargeted.config.target_cpu, retargeted.config.flags) == (
        "generic",
        ("--x",),
    )
    with pytest.raises(ValueError, match="not compiled by"):
        setup.with_config(dataclasses.replace(config, release="3.9.0"))


def _exp_graph() -> Graph:
    t = TensorType((4,), "f32")
    return Graph((t,), (Node("exp", ("a0",), {}, t),), ("n0",))


def test_evaluate_compiles_with_the_setup_it_is_handed(tmp_path):
    """The pipeline reads the toolchain of the ``Setup`` it is given (a fake compiler here, which fails): it does
    not resolve one again from the config (which names the installed wheel)."""
    fake = tmp_path / "iree-compile"
    fake.write_text("#!/bin/sh\necho 'error: the fake compiler' >&2\nexit 1\n")
    os.chmod(fake, 0o755)
    config = sut.CompilerConfig(observe=False)
    setup = sut.Setup(dataclasses.replace(sut.toolchain_of(config), iree_compile=str(fake)), config)
    (result,) = evaluate([Case(_exp_graph(), ({},))], setup, Policy(frozenset({"crash"})))
    (finding,) = result.findings
    assert finding.oracle == "crash" and "the fake compiler" in finding.message + json.dumps(finding.evidence)


def test_compile_mlir_runs_the_toolchain_it_is_given(tmp_path):
    """The compile path reads ``Toolchain.iree_compile`` (a fake here, which fails): it does not re-derive the
    compiler from the config (which names the installed wheel)."""
    fake = tmp_path / "iree-compile"
    fake.write_text("#!/bin/sh\necho 'error: the fake compiler' >&2\nexit 1\n")
    os.chmod(fake, 0o755)
    given = dataclasses.replace(sut.toolchain_of(sut.CompilerConfig()), iree_compile=str(fake))
    failure = sut.compile_mlir("func.func @f() { return }", sut.CompilerConfig(observe=False), toolchain=given)
    assert isinstance(failure, sut.CompileFailure) and failure.kind == "error"
    assert failure.command[0] == str(fake) and "the fake compiler" in failure.diagnostic
