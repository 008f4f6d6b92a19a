"""Configuration fuzzing: the declared space, limited to a compiler's flags and this machine's CPUs,
drawn deterministically per block (fast; the campaign draw uses a fake space)."""
from __future__ import annotations

import dataclasses

from ireefuzz import configs
from ireefuzz.campaign import guidance
from ireefuzz.campaign.options import Options


def test_the_space_keeps_only_the_flags_the_compiler_lists():
    everything = frozenset(f.split("=")[0] for axis in configs.AXES for _, flags in axis.values for f in flags)
    full = configs.limited_to(everything, ("host",))
    assert [a.name for a in full.axes] == [a.name for a in configs.AXES]
    old = configs.limited_to(everything - {"--iree-opt-level", "--iree-dispatch-creation-enable-aggressive-fusion"},
                             ("host",))
    assert "opt-level" not in {a.name for a in old.axes}  # an axis left with its default alone goes
    fusion = next(a for a in old.axes if a.name == "aggressive-fusion")
    assert fusion.values[1][1] == ("--iree-flow-enable-aggressive-fusion=true",)  # the older spelling
    assert configs.limited_to(frozenset(), ("host",)).axes == ()


def test_draws_are_deterministic_per_seed_and_block_and_cover_the_space():
    space = configs.limited_to(frozenset(f.split("=")[0] for a in configs.AXES for _, fs in a.values for f in fs),
                               ("generic", "host", "x86-64-v3"))
    assert space.draw(1, 5) == space.draw(1, 5)
    drawn = [space.draw(1, i) for i in range(200)]
    assert {c.target_cpu for c in drawn} == {"generic", "host", "x86-64-v3"}
    assert {dict(c.choices)["ukernels"] for c in drawn} == {"default", "none", "mmt4d", "all"}
    assert len({c.flags for c in drawn}) > 50
    assert "--iree-opt-data-tiling=false" in next(c for c in drawn if dict(c.choices)["data-tiling"] == "false").flags


def test_only_cpus_whose_features_the_host_has_are_drawn():
    features = {"host": "+sse2,+avx2,-avx512f", "generic": "", "x86-64-v3": "+sse2,+avx2,+x87",
                "x86-64-v4": "+sse2,+avx2,+avx512f", "unknown-to-this-llvm": None}
    assert configs.runnable(features) == ("host", "generic", "x86-64-v3")  # x87 is implicit, avx512f missing


def test_a_campaign_with_configs_draws_each_block_in_its_configuration(monkeypatch):
    space = configs.Space(("generic", "x86-64-v3"), (configs.AXES[0],))
    monkeypatch.setattr(configs, "space_for", lambda config: space)
    options = Options(seed=3, block=8, cases=16, configs=True, flags=("--user-flag",))
    for block in (0, 1, 2):
        expected = space.draw(3, block)
        cases = guidance.draw_block(options, block, guidance.Coverage())
        assert {(c.target_cpu, c.flags) for c in cases} == {(expected.target_cpu, ("--user-flag",) + expected.flags)}
    plain = guidance.draw_block(dataclasses.replace(options, configs=False), 0, guidance.Coverage())
    assert {(c.target_cpu, c.flags) for c in plain} == {("host", ("--user-flag",))}
