"""The policy options, declared once (``ireefuzz.core.policy.POLICY_OPTIONS``) for ``check``, ``fuzz`` and the pytest
plugin: every ``Policy`` field has one, each face reads them back with ``Policy.from_options``, and a bad value of
any of them is one line and exit 2 (a ``pytest.UsageError`` in the plugin), before anything runs."""

from __future__ import annotations

import argparse
import dataclasses

import pytest

from ireefuzz import cli
from ireefuzz.core.policy import OPTION_OF, POLICY_OPTIONS, Policy
from ireefuzz.tools.campaign.options import FUZZ_POLICY_OPTIONS
from ireefuzz.tools.check import CHECK_POLICY_OPTIONS

pytest_plugins = ["pytester"]

BAD = {  # field: (a bad value, what the one line says)
    "oracles": ("numeric,bogus", "unknown oracle(s) bogus"),
    "max_static_alloca_bytes": ("-4", "not a non-negative number of bytes"),
    "run_timeout_s": ("nan", "not a positive number of seconds"),
    "max_memory": ("lots", "not a memory size"),
    "jax": ("sometimes", "not a JAX mode"),
    "relations": ("shape,bogus", "unknown relation(s) bogus"),
    "relations_every": ("0", "not a positive number"),
}
GOOD = {  # field: (a value as typed, as the Policy holds it)
    "oracles": ("memory,crash", frozenset({"memory", "crash"})),
    "max_static_alloca_bytes": ("256", 256),
    "run_timeout_s": ("2.5", 2.5),
    "max_memory": ("1G", 2**30),
    "jax": ("on-disagreement", "on-disagreement"),
    "relations": ("shape,dps", ("shape", "dps")),
    "relations_every": ("8", 8),
}
FACES = {"check": ("check", "x.mlir"), "fuzz": ("fuzz", "--cases", "2")}
DECLARED = {"check": CHECK_POLICY_OPTIONS, "fuzz": FUZZ_POLICY_OPTIONS}


def test_every_policy_field_has_one_option():
    fields = [o.field for o in POLICY_OPTIONS]
    assert len(fields) == len(set(fields)) and set(fields) == {f.name for f in dataclasses.fields(Policy)}
    assert set(BAD) == set(GOOD) == set(OPTION_OF)


@pytest.mark.parametrize("face, field", [(face, field) for face, fields in DECLARED.items() for field in fields])
def test_a_bad_value_is_one_line_and_exit_2(face, field, capsys):
    value, says = BAD[field]
    with pytest.raises(SystemExit) as stopped:  # argparse, before the program is read or anything is compiled
        cli.main([*FACES[face], f"--{OPTION_OF[field].name}={value}"])
    lines = capsys.readouterr().err.strip().splitlines()
    assert stopped.value.code == 2
    assert len(lines) == 1 and says in lines[0] and f"--{OPTION_OF[field].name}" in lines[0], lines


@pytest.mark.parametrize("face", DECLARED)
def test_each_face_reads_back_what_it_declares(face):
    parser = cli.build_parser(face)  # the face's own parser, as the command line builds it
    argv = [f"--{OPTION_OF[f].name}={GOOD[f][0]}" for f in DECLARED[face]]
    policy = Policy.from_options(parser.parse_args([*FACES[face], *argv]))
    assert {f: getattr(policy, f) for f in DECLARED[face]} == {f: GOOD[f][1] for f in DECLARED[face]}
    given = Policy.from_options(parser.parse_args(list(FACES[face])))  # nothing given: Policy's defaults
    assert dataclasses.replace(given, run_timeout_s=None) == Policy()  # (check bounds every run by default)


def test_the_campaign_records_the_policy_options_it_was_given():
    from ireefuzz.tools.campaign import options

    parser = argparse.ArgumentParser()
    options.configure(parser)
    argv = ["--cases", "3", *(f"--{OPTION_OF[f].name}={GOOD[f][0]}" for f in FUZZ_POLICY_OPTIONS)]
    recorded = options.options_from_args(parser.parse_args(argv), None)
    assert recorded.oracles == ("memory", "crash")  # as given, in campaign.json
    policy = recorded.policy()
    assert {f: getattr(policy, f) for f in FUZZ_POLICY_OPTIONS} == {f: GOOD[f][1] for f in FUZZ_POLICY_OPTIONS}
    defaults = options.options_from_args(parser.parse_args(["--cases", "3"]), None).policy()
    assert (defaults.jax, defaults.relations) == ("on-disagreement", ("shape",))  # the campaign's own defaults


PLUGIN_FIELDS = ("oracles", "max_static_alloca_bytes", "run_timeout_s", "max_memory")


@pytest.mark.parametrize("field", PLUGIN_FIELDS)
def test_a_bad_plugin_value_is_a_usage_error(pytester: pytest.Pytester, field):
    pytester.makepyfile("def test_nothing(): pass")
    value, says = BAD[field]
    result = pytester.runpytest_inprocess(
        "-W", "ignore::pytest.PytestAssertRewriteWarning", f"--ireefuzz-{OPTION_OF[field].name}={value}"
    )
    assert result.ret == pytest.ExitCode.USAGE_ERROR
    assert says in result.stderr.str() and "Traceback" not in result.stderr.str()


def test_the_plugin_reads_its_policy_options_and_the_old_alloca_spelling(pytester: pytest.Pytester):
    pytester.makepyfile(
        """
        from ireefuzz import testing

        def test_policy(request):
            policy = testing.sut_from_config(request.config).policy
            assert policy.max_static_alloca_bytes == 64 and policy.run_timeout_s == 2.5
            assert policy.oracles == {"memory", "crash"} and policy.max_memory == 2**30
        """
    )
    argv = ["--ireefuzz-max-alloca=64", "--ireefuzz-run-timeout=2.5", "--ireefuzz-oracles=memory,crash"]
    result = pytester.runpytest_inprocess(
        "-W", "ignore::pytest.PytestAssertRewriteWarning", *argv, "--ireefuzz-max-memory=1G"
    )
    result.assert_outcomes(passed=1)
