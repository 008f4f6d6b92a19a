"""An oracle is a registered record (``oracles.spec.OracleSpec``): every oracle has one, each complete, and the
rest of ireefuzz reads its fields instead of branching on its name."""

from __future__ import annotations

import dataclasses
import re
import typing
from pathlib import Path

import pytest

from ireefuzz.oracles import finding, registry, spec
from ireefuzz.oracles.cause import assign_causes, cause_of
from ireefuzz.oracles.finding import Finding, make_cause
from ireefuzz.tools.campaign import ranking

KINDS = ("compile-error", "compile-crash", "runtime-crash", "wrong-value", "alloca", "copy", "mutated")


def problems(specs: typing.Mapping[str, spec.OracleSpec]) -> list[str]:
    """What makes a registry incomplete: an oracle a Finding may come from with no record, or a record without a
    cause rule, a reproduce body for some kind, a weight in (0, 1] or its ISSUE.md prose."""
    out = [f"{name}: no OracleSpec registered" for name in finding.ORACLES if name not in specs]
    reproduce_bodies = set(typing.get_args(spec.Reproduce))
    for name, s in specs.items():
        if not callable(s.cause):
            out.append(f"{name}: no cause rule")
        if any(s.reproduce(kind) not in reproduce_bodies for kind in KINDS):
            out.append(f"{name}: no reproduce body for some kind")
        if not 0 < s.weight <= 1:
            out.append(f"{name}: ranking weight {s.weight} outside (0, 1]")
        if not s.happened or not s.expected:
            out.append(f"{name}: no ISSUE.md prose")
    return out


def test_every_oracle_has_a_complete_record():
    assert problems(registry.SPECS) == []


def test_the_guard_fails_for_an_oracle_without_a_record_or_a_reproduce_body():
    specs = dict(registry.SPECS)
    del specs["fusion"]
    specs["memory"] = dataclasses.replace(specs["memory"], reproduce=lambda kind: "nothing")  # type: ignore[arg-type, return-value]
    assert problems(specs) == ["fusion: no OracleSpec registered", "memory: no reproduce body for some kind"]


def test_an_unknown_oracle_is_a_one_line_error():
    with pytest.raises(ValueError, match="unknown oracle 'nope'; registered: crash, fusion"):
        registry.spec_of("nope")


def test_a_spec_registers_once():
    with pytest.raises(ValueError, match="registered twice"):
        spec.register(registry.SPECS["crash"])


def test_the_fields_say_what_the_branches_on_names_used_to():
    crash, memory, numeric, reference = (registry.spec_of(n) for n in ("crash", "memory", "numeric", "reference"))
    assert crash.compile_only("compile-error") and not crash.compile_only("runtime-crash")
    assert crash.reproduce("compile-error") == "compile-error" and crash.reproduce("runtime-crash") == "run-fault"
    assert memory.compile_only("alloca") and memory.reproduce("copy") == "memory-ops"
    assert reference.switched_by == "numeric" and reference.blames == "reference" and numeric.blames == "iree"
    assert registry.spec_of("immutability").reads_flow_ties and not numeric.reads_flow_ties


def test_an_oracle_added_in_a_test_is_bucketed_and_ranked_by_its_record(monkeypatch):
    """Adding an oracle touches three files: its judge (which registers it), the registry's import of that judge,
    and ``OracleName``. Here the test plays all three."""
    monkeypatch.setattr(finding, "ORACLES", (*finding.ORACLES, "toy"))
    toy = spec.OracleSpec(
        name="toy",  # type: ignore[arg-type]
        cause=lambda f: make_cause("toy", [f.kind], f"a toy {f.kind}"),
        consequence=lambda i, findings, causes: 0 if i > 0 else None,
        reproduce=lambda kind: "outputs",
        weight=0.7,
        happened="a toy happened",
        expected="no toy",
    )
    spec.register(toy)
    try:
        first = Finding("toy", "beep", "toy/beep/-/-/-", "m")
        second = Finding("toy", "boop", "toy/boop/-/-/-", "m")
        assert cause_of(first).id == "toy/beep"
        assert [f.cause for f in assign_causes([first, second])] == ["toy/beep", "toy/beep"]  # its consequence rule
        assert ranking.oracle_weight("toy") == 0.7
    finally:
        spec.unregister("toy")
    assert "toy" not in registry.SPECS


_ORACLE_WORDS = "|".join(finding.ORACLES)
# A branch on an oracle's name: a comparison of an ``oracle`` value with a quoted oracle name, or a quoted oracle
# name looked up in a collection of oracles (``"memory" in policy.oracles``).
_BRANCH = re.compile(
    rf"""oracle\)?\s*(?:==|!=)\s*["']({_ORACLE_WORDS})["']|oracle\)?\s+(?:not\s+)?in\s+\(\s*["']"""
    rf"""|["']({_ORACLE_WORDS})["']\s+(?:not\s+)?in\s+[\w.()]*oracles\b"""
)
_ROOT = Path(__file__).resolve().parents[1]


def branches_on_oracle_names(source: str) -> list[int]:
    """The lines of ``source`` that branch on an oracle's name (instead of reading its ``OracleSpec``)."""
    return [
        n for n, line in enumerate(source.splitlines(), 1) if _BRANCH.search(line) and not line.lstrip().startswith("#")
    ]


def test_the_branch_guard_sees_a_branch_on_a_name():
    assert branches_on_oracle_names('if finding.oracle == "memory":\n    pass\nok = spec.reads_run(kind)\n') == [1]
    assert branches_on_oracle_names('x = f.oracle in ("numeric", "reference")\n') == [1]
    assert branches_on_oracle_names('if "memory" in policy.oracles:\n    pass\nif "crash" not in p.oracles: 1\n') == [
        1,
        3,
    ]
    assert branches_on_oracle_names('if other.oracle == "immutability" and x:\n') == [1]
    assert branches_on_oracle_names('Finding("numeric", kind)\nfor m, o in ((a, "numeric"),):\n') == []


_REGISTRY = {"oracles/spec.py", "oracles/registry.py"}


def test_outside_the_registry_nothing_branches_on_an_oracle_name():
    """The judges register their records (``oracles.spec``, ``oracles.registry``); everything else, the judges'
    consequence rules and the pipeline's choice of judges included, reads the records' fields."""
    found = {
        name: lines
        for package in ("ireefuzz", "oracles", "generators")
        for path in sorted((_ROOT / package).rglob("*.py"))
        if (name := str(path.relative_to(_ROOT))) not in _REGISTRY
        and (lines := branches_on_oracle_names(path.read_text()))
    }
    assert found == {}, f"read the OracleSpec field instead: {found}"


def _toy(judges: typing.Mapping[spec.Stage, spec.Judge]) -> spec.OracleSpec:
    return spec.OracleSpec(
        name="toy",  # type: ignore[arg-type]
        cause=lambda f: make_cause("toy", [f.kind], f"a toy {f.kind}"),
        reproduce=lambda kind: "outputs",
        weight=0.5,
        happened="a toy happened",
        expected="no toy",
        judges=judges,
    )


@pytest.fixture
def toy_oracle(monkeypatch):
    """Registers the spec a test makes with ``_toy`` as the oracle "toy", selectable by ``--oracles``."""
    from ireefuzz.core import policy

    monkeypatch.setattr(finding, "ORACLES", (*finding.ORACLES, "toy"))
    monkeypatch.setattr(policy, "ORACLE_NAMES", (*policy.ORACLE_NAMES, "toy"))
    yield spec.register
    spec.unregister("toy")


@pytest.mark.iree
def test_an_oracle_registered_in_a_test_is_judged_by_evaluate(toy_oracle):
    """``evaluate`` calls the judges of the selected specs, at each stage, with what the stage has: a judge
    registered here runs on its dispatches and on each run, and no other oracle does."""
    from ireefuzz.core.evaluate import Policy, evaluate
    from ireefuzz.generators.case import Case
    from ireefuzz.generators.graph import Graph, Node, TensorType

    def compiled(e: spec.Evaluation) -> spec.Verdict:
        assert e.dispatches and e.graph is not None
        return spec.Verdict((Finding("toy", "dispatches", f"toy/dispatches/{len(e.dispatches)}/-/-", "m"),))

    def ran(e: spec.Evaluation) -> spec.Verdict:
        assert not e.undefined and e.numbers is not None
        return spec.Verdict(not_judged=(f"toy: ran at {dict(e.sizes)}",))

    toy_oracle(_toy({"compiled": compiled, "ran": ran}))
    t = TensorType(("N",), "f32")
    case = Case(Graph((t,), (Node("exp", ("a0",), {}, t),), ("n0",)), ({"N": 4}, {"N": 5}))
    (result,) = evaluate([case], policy=Policy(oracles=frozenset({"toy"})))
    assert [(f.oracle, f.cause) for f in result.findings] == [("toy", "toy/dispatches")]
    assert result.not_judged == ("toy: ran at {'N': 4}", "toy: ran at {'N': 5}")
    (result,) = evaluate([case], policy=Policy(oracles=frozenset({"memory"})))  # not selected: not judged
    assert "toy" not in {f.oracle for f in result.findings} and not result.not_judged


def test_a_judge_that_cannot_read_the_ir_does_not_judge(toy_oracle):
    from ireefuzz.core.evaluate import Policy, judged
    from ireefuzz.errors import IRParseError

    def unreadable(e: spec.Evaluation) -> spec.Verdict:
        raise IRParseError("error: expected op\nmore", "text")

    toy_oracle(_toy({"compiled": unreadable}))
    verdict = judged(spec.Evaluation("compiled"), Policy(oracles=frozenset({"toy"})))
    assert verdict.findings == () and verdict.not_judged[0].startswith("toy: its IR cannot be read")
    assert judged(spec.Evaluation("ran"), Policy(oracles=frozenset({"toy"}))) == spec.Verdict()  # no judge there


def test_a_not_judged_reason_says_which_oracle_it_left_out():
    """A fusion reason (a producer hoisted into a global) is no "numbers not judged" (the plugin's old wording)."""
    not_judged_subject = registry.not_judged_subject

    assert not_judged_subject("fusion: a producer hoisted into a global") == (
        "fusion",
        "a producer hoisted into a global",
    )
    assert not_judged_subject("every oracle: a slow compile") == ("every oracle", "a slow compile")
    assert not_judged_subject("op math.ctlz: no interpreter rule") == ("numbers", "op math.ctlz: no interpreter rule")
