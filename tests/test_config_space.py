"""Configuration fuzzing: the declared space, limited to a compiler's flags and this machine's CPUs,
drawn deterministically per block (fast; the campaign draw uses a fake space)."""

from __future__ import annotations

import dataclasses
import json
import types
from pathlib import Path

import pytest

from ireefuzz.sut import config_space
from ireefuzz.tools.campaign import guidance
from ireefuzz.tools.campaign.options import Options


def test_the_space_keeps_only_the_flags_the_compiler_lists():
    everything = frozenset(f.split("=")[0] for axis in config_space.AXES for _, flags in axis.values for f in flags)
    full = config_space.limited_to(everything, ("host",))
    assert [a.name for a in full.axes] == [a.name for a in config_space.AXES]
    old = config_space.limited_to(
        everything - {"--iree-opt-level", "--iree-dispatch-creation-enable-aggressive-fusion"}, ("host",)
    )
    assert "opt-level" not in {a.name for a in old.axes}  # an axis left with its default alone goes
    fusion = next(a for a in old.axes if a.name == "aggressive-fusion")
    assert fusion.values[1][1] == ("--iree-flow-enable-aggressive-fusion=true",)  # the older spelling
    assert config_space.limited_to(frozenset(), ("host",)).axes == ()


def test_draws_are_deterministic_per_seed_and_block_and_cover_the_space():
    space = config_space.limited_to(
        frozenset(f.split("=")[0] for a in config_space.AXES for _, fs in a.values for f in fs),
        ("generic", "host", "x86-64-v3"),
    )
    assert space.draw(1, 5) == space.draw(1, 5)
    drawn = [space.draw(1, i) for i in range(200)]
    assert {c.target_cpu for c in drawn} == {"generic", "host", "x86-64-v3"}
    assert {dict(c.choices)["ukernels"] for c in drawn} == {"default", "none", "mmt4d", "all"}
    assert len({c.flags for c in drawn}) > 50
    assert "--iree-opt-data-tiling=false" in next(c for c in drawn if dict(c.choices)["data-tiling"] == "false").flags


def test_only_cpus_whose_features_the_host_has_are_drawn():
    features = {
        "host": "+sse2,+avx2,-avx512f",
        "generic": "",
        "x86-64-v3": "+sse2,+avx2,+x87",
        "x86-64-v4": "+sse2,+avx2,+avx512f",
        "unknown-to-this-llvm": None,
    }
    assert config_space.runnable(features) == ("host", "generic", "x86-64-v3")  # x87 is implicit, avx512f missing


def test_a_campaign_with_configs_draws_each_block_in_its_configuration(monkeypatch):
    space = config_space.Space(("generic", "x86-64-v3"), (config_space.AXES[0],))
    monkeypatch.setattr(config_space, "space_for", lambda config: space)
    options = Options(seed=3, block=8, cases=16, configs=True, flags=("--user-flag",))
    for block in (0, 1, 2):
        expected = space.draw(3, block)
        cases = guidance.draw_block(options, block, guidance.Coverage())
        assert {(c.target_cpu, c.flags) for c in cases} == {(expected.target_cpu, ("--user-flag",) + expected.flags)}
    plain = guidance.draw_block(dataclasses.replace(options, configs=False), 0, guidance.Coverage())
    assert {(c.target_cpu, c.flags) for c in plain} == {("host", ("--user-flag",))}


def test_cross_targets_are_drawn_as_compile_only_configurations_for_the_generic_cpu():
    flags = frozenset(f.split("=")[0] for a in config_space.AXES for _, fs in a.values for f in fs)
    space = config_space.limited_to(
        flags | {config_space.TRIPLE_FLAG, config_space.FEATURES_FLAG},
        ("host",),
        cross_targets=tuple(config_space.CROSS_TARGETS),
    )
    drawn = [space.draw(2, i) for i in range(80)]
    assert {c.target for c in drawn} == {"host", *config_space.CROSS_TARGETS}
    sve = next(c for c in drawn if c.target == "aarch64+sve")
    assert sve.target_cpu == "generic" and sve.flags[:2] == (
        "--iree-llvmcpu-target-triple=aarch64-unknown-linux-gnu",
        "--iree-llvmcpu-target-cpu-features=+neon,+sve",
    )
    from ireefuzz import sut

    assert sut.compile_only(sut.CompilerConfig(target_cpu="generic", flags=sve.flags)) == "aarch64-unknown-linux-gnu"
    assert sut.compile_only(sut.CompilerConfig(flags=("--iree-opt-data-tiling=true",))) is None
    assert config_space.limited_to(flags, ("host",), cross_targets=("riscv64+v",)).cross_targets == ()  # no triple flag


def test_labels_name_a_configuration_per_flag_value_and_coverage_counts_cases_and_causes():
    assert config_space.labels(
        "x86-64-v3", ["--iree-opt-data-tiling=false", "--iree-flow-enable-aggressive-fusion=true", "--user-flag"]
    ) == ["cpu=x86-64-v3", "data-tiling=false", "aggressive-fusion=on", "--user-flag"]
    assert config_space.labels("generic", config_space.cross_flags("riscv64+v")) == ["target=riscv64+v"]
    coverage = config_space.ConfigurationCoverage()
    coverage.add(["cpu=host", "data-tiling=false"], ["memory/alloca", "memory/alloca"])
    coverage.add(["cpu=host"], [])
    assert coverage.to_json() == {
        "cpu=host": {"cases": 2, "causes": {"memory/alloca": 1}},
        "data-tiling=false": {"cases": 1, "causes": {"memory/alloca": 1}},
    }


@pytest.mark.iree
def test_an_aarch64_compile_only_configuration_is_judged_by_memory_and_fusion_and_runs_nothing(tmp_path, capsys):
    from tests.programs import run_check

    program = Path(__file__).parent / "data" / "ir" / "inputs" / "fill_matmul_exp_dyn.mlir"
    flags = " ".join(config_space.cross_flags("aarch64+sve"))
    assert run_check([str(program), "--target-cpu", "generic", "--flags", flags, "--json"]) == 1
    report = json.loads(capsys.readouterr().out)
    assert {f["oracle"] for f in report["findings"]} == {"memory"}  # the dynamic matmul's alloca, on aarch64 too
    assert report["functions"][0]["not_judged"] == ["compile-only target aarch64-unknown-linux-gnu"]


def test_cross_targets_are_a_fixed_share_whatever_the_number_of_cpus():
    flags = frozenset({config_space.TRIPLE_FLAG, config_space.FEATURES_FLAG})
    for cpus in (("generic",), ("generic", "host", "x86-64-v2", "x86-64-v3", "x86-64-v4", "znver4")):
        space = config_space.limited_to(flags, cpus, cross_targets=tuple(config_space.CROSS_TARGETS))
        drawn = [space.draw(5, i) for i in range(2000)]
        share = sum(c.target in config_space.CROSS_TARGETS for c in drawn) / len(drawn)
        assert abs(share - config_space.CROSS_SHARE) < 0.03, (cpus, share)
        assert {c.target_cpu for c in drawn if c.target == "host"} == set(cpus)  # the rest split among the CPUs
    assert {c.target for c in (config_space.limited_to(flags, ("generic",)).draw(5, i) for i in range(50))} == {"host"}


def test_a_release_whose_llvm_names_no_host_features_gets_this_machines(monkeypatch):
    """The 2023 releases resolve ``host`` to a name with no features: every CPU but generic and host dropped out,
    and 3 cross targets drawn as often as each of those 2 made 60% of the cases compile-only."""
    from ireefuzz import sut

    old_llvm = {
        "generic": ("generic", ""),
        "host": ("znver4", ""),
        "x86-64-v3": ("x86-64-v3", "+avx2,+fma"),
        "x86-64-v4": ("x86-64-v4", "+avx2,+avx512f"),
        "sapphirerapids": ("", ""),
    }

    def resolve(config):
        if config.release is None:  # the installed compiler knows the host's features
            return sut.CpuInfo("host", "znver4", "+avx2,+fma,+avx512f,+sse2"), "3.13"
        name, features = old_llvm.get(config.target_cpu, ("", ""))
        if config.flags:  # a cross target's probe
            return sut.CpuInfo("generic", "generic", ""), "old"
        return sut.CpuInfo(config.target_cpu, name, features), "old"

    monkeypatch.setattr(sut, "resolve_platform", resolve)
    known = frozenset({config_space.TRIPLE_FLAG, config_space.FEATURES_FLAG})  # the release need not be installed here
    monkeypatch.setattr(sut, "toolchain_of", lambda config: types.SimpleNamespace(known_flags=known))
    config_space.space_for.cache_clear()
    try:
        space = config_space.space_for(sut.CompilerConfig(release="20230404.479"))
    finally:
        config_space.space_for.cache_clear()
    assert set(space.target_cpus) == {"generic", "host", "x86-64-v3", "x86-64-v4"}  # sapphirerapids: unknown to it
    assert space.cross_targets == tuple(config_space.CROSS_TARGETS)


V3 = "+avx,+avx2,+fma,+sse2,+x87"
V4 = V3 + ",+avx512f,+avx512vl"
FAKE_CPUS = {"host": ("znver3", V3 + ",+sha"), "generic": ("generic", ""), "x86-64-v3": ("x86-64-v3", V3)}
FAKE_CPUS |= {"x86-64-v4": ("x86-64-v4", V4), "skylake-avx512": ("skylake-avx512", V4 + ",+clwb")}


@pytest.fixture
def fake_cpus(monkeypatch):
    """resolve_platform answering from FAKE_CPUS (the target host as the switch takes it), counting its probes; the
    switch unset, whatever the suite runs with."""
    from ireefuzz import sut
    from ireefuzz.sut.config import HOST_CPU_ENV, host_cpu

    monkeypatch.delenv(HOST_CPU_ENV, raising=False)

    probes = []

    def resolve(config):
        probes.append(config.target_cpu)
        machine = config_space.MACHINE_FLAG in config.flags
        cpu = "host" if machine else host_cpu() if config.target_cpu == "host" else config.target_cpu
        name, features = FAKE_CPUS.get(cpu, ("", ""))
        return sut.CpuInfo(config.target_cpu, name, features), "3.13"

    monkeypatch.setattr(sut, "resolve_platform", resolve)
    config_space.host_features.cache_clear()
    host_cpu.cache_clear()
    yield probes
    config_space.host_features.cache_clear()
    host_cpu.cache_clear()


def test_code_for_features_the_host_lacks_cannot_run_decided_by_features_not_names(fake_cpus):
    from ireefuzz import sut

    config = lambda cpu, *flags: sut.CompilerConfig(target_cpu=cpu, flags=flags)
    assert config_space.cannot_run(config("host")) is None and config_space.cannot_run(config("generic")) is None
    assert fake_cpus == []  # host and generic run wherever this process runs: nothing probed
    assert config_space.cannot_run(config("x86-64-v3")) is None
    assert config_space.cannot_run(config("x86-64-v4")) == "x86-64-v4 (needs avx512f, avx512vl, which znver3 lacks)"
    assert config_space.cannot_run(config("skylake-avx512")).startswith("skylake-avx512 (needs avx512f, avx512vl, clwb")
    assert config_space.cannot_run(config("unknown-to-this-llvm")) is None  # its features unknown: the compile will say
    assert (
        config_space.cannot_run(config("generic", *config_space.cross_flags("aarch64+sve")))
        == "aarch64-unknown-linux-gnu"
    )
    assert config_space.highest(FAKE_CPUS["skylake-avx512"][1], {"x86-64-v3": V3, "x86-64-v4": V4}) == "x86-64-v4"
    assert config_space.highest(FAKE_CPUS["host"][1], {"x86-64-v3": V3, "x86-64-v4": V4}) == "x86-64-v3"
    assert config_space.highest("", {"x86-64-v3": V3}) is None


def test_the_host_taken_as_an_x86_64_level_is_the_target_and_what_may_run(fake_cpus, monkeypatch):
    """IREEFUZZ_HOST_CPU, read once: ``host`` compiles for that level, and only its features may run."""
    from ireefuzz import sut
    from ireefuzz.errors import UsageError
    from ireefuzz.sut import config
    from ireefuzz.sut.config import HOST_CPU_ENV, host_cpu

    monkeypatch.setattr(config, "cpu_flags", lambda: frozenset())  # the faked machine only: not /proc/cpuinfo's
    host_cpu.cache_clear()
    monkeypatch.setenv(HOST_CPU_ENV, "x86-64-v3")
    assert host_cpu() == "x86-64-v3" and "--iree-llvmcpu-target-cpu=x86-64-v3" in sut.target_flags("host")
    assert config_space.host_features(sut.CompilerConfig()) == V3  # the level's, not the machine's (+sha)
    monkeypatch.setenv(HOST_CPU_ENV, "x86-64-v4")
    assert host_cpu() == "x86-64-v3"  # resolved once per process
    host_cpu.cache_clear()
    config_space.host_features.cache_clear()
    with pytest.raises(UsageError, match=r"IREEFUZZ_HOST_CPU=x86-64-v4: this machine \(znver3\) lacks avx512f"):
        config_space.cannot_run(sut.CompilerConfig(target_cpu="skylake-avx512"))  # beyond the machine: refused
    monkeypatch.setenv(HOST_CPU_ENV, "znver3")
    host_cpu.cache_clear()
    with pytest.raises(UsageError, match="one of x86-64, x86-64-v2, x86-64-v3, x86-64-v4"):
        host_cpu()
    monkeypatch.delenv(HOST_CPU_ENV)
    host_cpu.cache_clear()
    assert "--iree-llvmcpu-target-cpu=host" in sut.target_flags("host")


def test_the_host_is_never_taken_as_a_level_it_cannot_run(monkeypatch):
    """Taken as x86-64-v4, an AVX2 machine would run AVX-512 code and die of SIGILL: a crash that is no finding."""
    from ireefuzz.errors import UsageError
    from ireefuzz.sut import config

    avx2 = frozenset(config.LEVEL_FLAGS["x86-64-v3"])
    monkeypatch.setattr(config, "cpu_flags", lambda: avx2)
    monkeypatch.setenv(config.HOST_CPU_ENV, "x86-64-v3")
    config.host_cpu.cache_clear()
    assert config.host_cpu() == "x86-64-v3"
    monkeypatch.setenv(config.HOST_CPU_ENV, "x86-64-v4")
    config.host_cpu.cache_clear()
    with pytest.raises(UsageError, match="lacks avx512bw, avx512cd, avx512dq, avx512f, avx512vl"):
        config.host_cpu()
    monkeypatch.setattr(config, "cpu_flags", lambda: frozenset())  # no /proc/cpuinfo: nothing to refuse on
    config.host_cpu.cache_clear()
    assert config.host_cpu() == "x86-64-v4"
    monkeypatch.delenv(config.HOST_CPU_ENV)
    config.host_cpu.cache_clear()
