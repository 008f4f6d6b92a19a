"""A known cause that shows only without a CPU feature (``Mechanism.missing_feature``, issue 30): the experiment
that adds the feature to the same CPU, the verdict it supports, the baseline field, and, with the real compiler
(``iree``), the f16 subnormal flush without F16C (an outsider's x86-64-v2 finding, seed 73358) as that known
limitation, not a new cause."""

from __future__ import annotations

import argparse
import dataclasses
import json
from pathlib import Path

import pytest

from ireefuzz.tools import baseline
from ireefuzz.tools.filing import experiments as X

DATA = Path(__file__).parent / "data" / "triage"
FLUSH = "numeric/wrong-value/f16-subnormal-flushed-without-f16c"
TARGET = "numeric/nan-mismatch/mul"


def table(feature_outcome: str, known: dict[str, str] | None = None) -> X.ExperimentTable:
    rows = (
        X.Row("as-given", "the program", X.Outcome("same")),
        X.Row("cpu=generic", "g", X.Outcome("same")),
        X.Row("cpu+f16c", "`+f16c` on `x86-64-v2`", X.Outcome.parse(feature_outcome)),
    )
    return X.ExperimentTable(TARGET, rows, features={"f16c": FLUSH} if known is None else known)


def test_the_same_cpu_right_with_the_feature_is_the_known_cause_that_shows_only_without_it():
    verdict = X.judge(table("clean"))
    assert (verdict.verdict, verdict.of) == ("duplicate-of", FLUSH)
    assert verdict.by.startswith("cpu+f16c (the same CPU with f16c) is right")


def test_still_wrong_with_the_feature_or_no_such_known_cause_is_no_duplicate():
    assert X.judge(table("same")).verdict == "new"
    assert X.judge(table("clean", known={})).verdict == "new"
    other_family = {"f16c": "crash/compile-error/x@iree-llvmcpu-tile"}
    assert X.judge(table("clean", known=other_family)).verdict == "new"


def test_a_feature_is_added_only_where_the_cpu_lacks_it_and_no_features_flag_is_given():
    @dataclasses.dataclass(frozen=True)
    class Subject:  # what a case has that the experiment reads
        flags: tuple[str, ...] = ()
        target_cpu: str = "x86-64-v2"

    (added,) = X.feature_experiments(Subject(), "+sse4.2,-f16c", ["f16c"], lambda flags: None)
    assert added.label == "cpu+f16c" and added.case.flags == ("--iree-llvmcpu-target-cpu-features=+f16c",)
    assert list(X.feature_experiments(Subject(), "+sse4.2,+f16c", ["f16c"], lambda flags: None)) == []
    assert list(X.feature_experiments(Subject(), None, ["f16c"], lambda flags: None)) == []  # features unknown
    given = Subject(flags=("--iree-llvmcpu-target-cpu-features=+avx",))
    assert list(X.feature_experiments(given, "+sse4.2", ["f16c"], lambda flags: None)) == []
    (refused,) = X.feature_experiments(Subject(), "", ["f16c"], lambda flags: "this host lacks f16c")
    assert refused.not_run == "this host lacks f16c"


def test_the_baseline_reads_a_missing_feature_and_refuses_a_bad_one(tmp_path):
    mechanism = {"oracle": "numeric", "culprit": None, "trigger": "With +f16c it is right.", "missing_feature": "f16c"}
    entry = {"cause": FLUSH, "verdict": "by-design", "why": "software f16 truncation", "mechanism": mechanism}
    path = tmp_path / "known.json"
    path.write_text(json.dumps({"format": 2, "causes": [entry]}))
    assert baseline.load(path).missing_features() == {"f16c": FLUSH}
    path.write_text(
        json.dumps({"format": 2, "causes": [entry | {"mechanism": mechanism | {"missing_feature": "F16C!"}}]})
    )
    with pytest.raises(Exception, match="missing_feature"):
        baseline.load(path)
    shipped = baseline.load(baseline.shipped())
    assert shipped.missing_features() == {"f16c": FLUSH}


@pytest.mark.iree
def test_an_f16_epsilon_flushed_on_x86_64_v2_is_the_known_limitation_not_a_new_cause(capsys):
    from ireefuzz.tools import check

    parser = argparse.ArgumentParser()
    check.configure(parser)
    program = str(DATA / "f16_epsilon_subnormal_rsqrt.mlir")
    status = check.main(parser.parse_args([program, "--json", "--target-cpu", "x86-64-v2"]), X.for_check)
    report = json.loads(capsys.readouterr().out)
    (cause,) = report["causes"]
    assert status == 1 and (cause["verdict"], cause["reported"]) == ("duplicate-of", FLUSH)
    rows = {r["label"]: r["outcome"] for r in cause["record"]["rows"]}
    assert rows["as-given"] == "same" and rows["cpu+f16c"] == "clean"
