"""A bundle names no path of the machine that made it, and runs on the least specific CPU that reproduces."""

from __future__ import annotations

import dataclasses
import os
import sys
import tempfile

from ireefuzz import sut
from ireefuzz.tools.filing import program


def test_a_bundle_names_no_path_of_this_machine():
    work = os.path.join(tempfile.gettempdir(), "ireefuzz-pid123-abc", "module_dispatch_0.mlir")
    compiler = os.path.join(sys.prefix, "lib", "python3.11", "site-packages", "iree", "compiler", "iree-compile")
    text = f"{work}:3:1: error: boom\nran {compiler} --flag\nin {os.getcwd()}/program.mlir"
    clean = program.portable({"how": [text], "cpu": "host"})
    shown = clean["how"][0]
    assert tempfile.gettempdir() not in shown and sys.prefix not in shown and os.getcwd() not in shown
    assert "module_dispatch_0.mlir:3:1: error: boom" in shown and "ran iree-compile --flag" in shown
    assert "in program.mlir" in shown and clean["cpu"] == "host"  # what names no path is kept as it is


def test_the_bundle_cpu_is_the_least_specific_that_reproduces(monkeypatch):
    seen = []

    def findings_of(text, cause, config, policy, seed, shapes):
        seen.append(config.target_cpu)
        return [("finding", None)] if config.target_cpu != "generic" else []  # this bug needs a vector ISA

    monkeypatch.setattr(program, "_findings_of", findings_of)
    config = dataclasses.replace(sut.CompilerConfig(), target_cpu="host")
    cpus = program.reproducing_cpus("p", "c", config, None, 0, None, ("generic", "x86-64-v3", "host"))
    assert cpus == ("x86-64-v3", "host") and seen == ["generic", "x86-64-v3", "host"]


def test_a_title_is_cut_at_a_word_and_names_kinds_of_op_not_a_chain():
    """The maintainer's review: titles cut mid-word ("before iree-") or listing whole op chains. A title names the
    reduced program's kinds of op (at most two, else the last and how many others) and is cut between words."""
    from ireefuzz.oracles.finding import Finding
    from ireefuzz.tools.filing import culprit, report

    message = "error: 'linalg.generic' op write affecting operations on global resources are restricted to workgroup"
    finding = Finding("crash", "compile-error", "crash/compile-error/-/-/-", message + " distributed contexts")
    ops = ["linalg.fill", "linalg.generic", "tensor.cast", "linalg.generic", "iree_linalg_ext.sort", "linalg.generic"]
    title = report.title(finding, ops, culprit.not_localized("x"))
    assert "->" not in title and title.count("`") == 2 and "and 2 other kinds of op" in title, title
    assert title.endswith(" ...") and "workgr" not in title.replace("workgroup", "")  # never cut inside a word


def test_the_bundle_keeps_only_the_flags_the_reduced_program_needs(monkeypatch):
    """The two-functions argmax was found at O3 and bundled at O3, though its reduced program fails the same way at
    every level: a flag the reduced program does not need leaves the bundle's command line; one it needs stays."""

    def findings_of(text, cause, config, policy, seed, shapes):
        needs = "--iree-dispatch-creation-enable-aggressive-fusion=true"
        return [("finding", None)] if needs in config.flags else []

    monkeypatch.setattr(program, "_findings_of", findings_of)
    flags = ("--iree-opt-level=O3", "--iree-dispatch-creation-enable-aggressive-fusion=true")
    config = dataclasses.replace(sut.CompilerConfig(), flags=flags)
    kept = program.needed_flags("p", "c", config, None, 0, None)
    assert kept.flags == ("--iree-dispatch-creation-enable-aggressive-fusion=true",)
