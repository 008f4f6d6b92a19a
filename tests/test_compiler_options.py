"""The compiler options are declared once (``ireefuzz.base.compiler_options``) and read into a config once
(``CompilerConfig.from_options``): check, fuzz and repro spell them alike, with ``--release`` / ``--target-cpu``
kept as the command line's other spellings; ``config_for`` is the one case -> config merge."""

from __future__ import annotations

import dataclasses
import sys

import pytest

from ireefuzz import sut
from ireefuzz.cli import build_parser


@pytest.mark.parametrize("spelling", [("--iree-release", "--iree-target-cpu"), ("--release", "--target-cpu")])
def test_check_reads_either_spelling_into_the_same_config(spelling):
    release, target = spelling
    args = build_parser().parse_args(
        ["check", "p.mlir", release, "3.10.0", target, "generic", "--flags=--x=1", "--iree-runtime", sys.executable]
    )
    config = sut.CompilerConfig.from_options(args)
    assert (config.release, config.target_cpu, config.flags) == ("3.10.0", "generic", ("--x=1",))
    assert config.runtime_python == sys.executable and config.iree_compile is None


def test_fuzz_and_repro_declare_the_same_options():
    fuzz = build_parser().parse_args(["fuzz", "--iree-release", "3.10.0", "--cases", "1"])
    assert (fuzz.release, fuzz.target_cpu) == ("3.10.0", None)  # None: a --resume tells a given CPU apart
    repro = build_parser().parse_args(["repro", "finding.json", "--out", "o", "--release", "3.10.0"])
    assert sut.CompilerConfig.from_options(repro) == sut.CompilerConfig(release="3.10.0")
    with pytest.raises(SystemExit):  # repro compiles for the finding's own CPU: no such option
        build_parser().parse_args(["repro", "finding.json", "--out", "o", "--iree-target-cpu", "generic"])


def test_a_bad_compiler_path_or_cpu_name_is_one_line_at_parse_time(tmp_path, capsys):
    for argv, says in (
        (["--iree-compile", str(tmp_path / "none")], "does not exist"),
        (["--iree-target-cpu", "not a cpu"], "is not a CPU name"),
    ):
        with pytest.raises(SystemExit) as bad:
            build_parser().parse_args(["check", "p.mlir", *argv])
        assert bad.value.code == 2 and says in capsys.readouterr().err


def test_config_for_is_the_one_merge_and_passes_a_flag_once():
    @dataclasses.dataclass
    class Case:
        target_cpu: str = "x86-64-v3"
        flags: tuple[str, ...] = ("--a", "--b")

    base = sut.CompilerConfig(flags=("--a", "--c"), timeout_s=7.0)
    merged = sut.config_for(Case(), base)
    assert (merged.target_cpu, merged.flags, merged.timeout_s) == ("x86-64-v3", ("--a", "--c", "--b"), 7.0)
