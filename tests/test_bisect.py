"""Release bisection: the search on fake verdicts (fast) and over three installed releases (slow)."""

from __future__ import annotations

import pytest

from ireefuzz.sut.releases import RELEASES, compile_flags_for, order_key, packages, syntax_for
from ireefuzz.tools.filing.bisect import Trial, bisect, past_fixes

VS = ["20230404.479", "20231004.665", "20240410.859", "20241104.1068", "3.0.0", "3.5.0", "3.9.0", "3.13.0"]


def _judge(present: set[str], calls: list[str]):
    def judge(v: str) -> Trial:
        calls.append(v)
        return Trial(v, "present" if v in present else "absent", "", 0.0)

    return judge


def test_order_and_packages():
    assert sorted(RELEASES, key=order_key) == list(RELEASES)
    assert order_key("20241104.1068") < order_key("2.9.0") < order_key("3.10.0")
    assert packages("20240410.859")[0] == "iree-compiler==20240410.859" and packages("20240410.859")[2] == "numpy<2"
    assert packages("3.13.0")[:2] == ("iree-base-compiler==3.13.0", "iree-base-runtime==3.13.0")
    assert not syntax_for("20231218.742").maximumf and syntax_for("20240226.813").maximumf
    assert not syntax_for("3.8.0").linalg_ext_gather and syntax_for("3.9.0").linalg_ext_gather
    assert compile_flags_for("20230209.425", ["--iree-llvmcpu-target-cpu=znver5"]) == ["--iree-llvm-target-cpu=host"]


def test_regressed_between():
    calls: list[str] = []
    result = bisect(VS, _judge(set(VS[3:]), calls), known_present="3.13.0")
    assert (result.first_present, result.last_present) == ("20241104.1068", "3.13.0")
    assert result.answer.startswith("regressed between 20240410.859 and 20241104.1068")
    assert len(calls) <= 5


def test_fixed_in_and_present_since():
    result = bisect(VS, _judge(set(VS[:5]), []), known_present="20240410.859")
    assert (
        result.answer == "present since 20230404.479 (the oldest release tested); fixed in 3.5.0 (last present: 3.0.0)"
    )
    assert bisect(VS, _judge(set(), [])).answer.startswith("not reproduced")


@pytest.mark.slow
@pytest.mark.iree
def test_bisect_over_three_installed_releases(tmp_path):
    """Needs three releases in ~/.cache/ireefuzz/releases (e.g. 20240410.859, 3.0.0) plus the installed one."""
    from ireefuzz.core.evaluate import evaluate
    from ireefuzz.generators.case import Case
    from ireefuzz.generators.graph import Graph, Node
    from ireefuzz.generators.graph import TensorType as T
    from ireefuzz.tools.filing.bisect import bisect_bundle, installed_versions
    from ireefuzz.tools.filing.repro import shrink_and_bundle

    versions = installed_versions()
    if len(versions) < 3:
        pytest.skip(f"needs three installed releases, found {versions}")
    versions = [versions[0], versions[len(versions) // 2], versions[-1]]
    i32 = lambda *s: T(s, "i32")
    g = Graph(
        (i32(8, 8), i32(8)), (Node("reduce_sum", ("a0",), {"dim": 1, "init": "value:a1"}, i32(8)),), ("n0",)
    ).check()
    (finding,) = evaluate([Case(g, ({},))])[0].findings
    bundle = shrink_and_bundle(finding, tmp_path / "bundle", shrink=False, confirm_runs=1).path
    result = bisect_bundle(bundle, versions, install=False)
    # a binary search: it may settle without trying the middle release
    assert 2 <= len(result.trials) <= 3 and {t.version for t in result.trials} <= set(versions)
    assert all(t.verdict in ("present", "absent", "unknown") for t in result.trials)
    assert result.verdict_of(versions[-1]) == "present"  # the installed release is where the finding came from
    assert result.answer in (bundle / "ISSUE.md").read_text()
    assert (bundle / "bisect.json").exists()


def test_a_release_that_cannot_run_the_repro_is_not_evidence_of_absence():
    def judge(v: str) -> Trial:
        return Trial(v, "present" if v in VS[3:] else "unknown", "", 0.0)

    result = bisect(VS, judge, known_present="3.13.0")
    assert result.answer.startswith(f"present since at least {VS[3]} ({VS[2]} could not run the repro")


def test_bisect_compiles_with_the_findings_configuration():
    from ireefuzz.sut.releases import Release
    from ireefuzz.tools.filing.bisect import configuration_for

    finding = {
        "compiler_version": "3.13.0 @ abc",
        "flags": [
            "--iree-hal-target-backends=llvm-cpu",
            "--iree-llvmcpu-target-cpu=znver4",
            "--iree-opt-data-tiling=true",
        ],
    }
    rel = lambda v: Release(v, "python", "iree-compile", "iree-run-module")
    knows = lambda r, cpu: r.version == "3.10.0"
    assert configuration_for(rel("3.10.0"), finding, {}, knows) == finding["flags"]  # its CPU, its flags
    assert configuration_for(rel("20230209.425"), finding, {}, knows) == [  # an LLVM without znver4: host
        "--iree-hal-target-backends=llvm-cpu",
        "--iree-llvm-target-cpu=host",
        "--iree-opt-data-tiling=true",
    ]
    assert configuration_for(rel("3.13.0"), finding, {}, lambda r, c: False) == finding["flags"]  # its own release
    older = {
        "target_cpu": "x86-64-v3",
        "flags": ["--iree-opt-level=O3"],
    }  # a finding that recorded no flags: its case's
    assert configuration_for(rel("3.10.0"), {}, older, knows) == [
        "--iree-hal-target-backends=llvm-cpu",
        "--iree-llvmcpu-target-cpu=x86-64-v3",
        "--iree-opt-level=O3",
    ]


def test_a_fix_the_releases_hold_that_still_fail_is_said_not_to_cover_the_program():
    """The #24385 review: its fix (PR #24391) predates the build measured, which crashes; the bisection says the fix
    does not cover the program. The mmt4d review: a release holds a fix only when the table verified it (a first
    nightly tagged 3.10.0rc said nothing of 3.10.0)."""
    fixed = {"pr": "iree-org/iree#23281", "date": "2026-01-26", "first_nightly": "iree-3.10.0rc20260127"}
    match = {"issue": "iree-org/iree#23277", "state": "closed", "timing": "before-build", "build": "3.13.0rc1 @ x"}
    match["landed"] = dict(fixed, first_release="3.11.0")
    trials = [Trial("3.10.0", "present", "", 1.0), Trial("3.12.0", "present", "", 1.0)]
    trials.append(Trial("3.13.0", "present", "", 1.0))
    (said,) = past_fixes([match], trials)
    assert "predates 3.13.0rc1, which shows the bug; so do 3.12.0, 3.13.0, from 3.11.0" in said, said
    assert "3.10.0" not in said and "new issue that links" in said, said
    unverified = dict(match, landed=dict(fixed, first_release="unverified"))
    (plain,) = past_fixes([unverified], trials)
    assert "so do" not in plain and "does not cover" in plain, plain
    fixed_there = [*trials[:2], Trial("3.13.0", "absent", "", 1.0)]
    assert past_fixes([match], fixed_there) == []  # absent in a release with the fix: no such claim
    assert past_fixes([dict(match, state="open")], trials) == []


def test_the_bisection_rewrites_a_likely_duplicate_its_releases_show_the_fix_does_not_cover(tmp_path):
    """Round 4 of the review: the conv crash's upstream section still said 'likely duplicate of #24385 ... possible
    regression' after its Bisection said the fix does not cover it."""
    import json

    from ireefuzz.tools.filing.bisect import BisectResult, record_result

    fixed = {"pr": "iree-org/iree#24391", "date": "2026-05-12", "first_release": "unverified"}
    match = {"issue": "iree-org/iree#24385", "state": "closed", "timing": "before-build", "landed": fixed}
    (tmp_path / "finding.json").write_text(json.dumps({"upstream": [match]}))
    lead = "- **likely duplicate of iree-org/iree#24385 (closed 2026-05-12 by PR #24391: possible regression)**: x"
    (tmp_path / "ISSUE.md").write_text(f"# t\n\n## Known upstream issues\n\n{lead}\n")
    trials = (Trial("3.12.0", "present", "", 1.0), Trial("3.13.0", "present", "", 1.0))
    record_result(tmp_path, BisectResult(("3.12.0", "3.13.0"), trials, "3.12.0", "3.13.0"))
    text = (tmp_path / "ISSUE.md").read_text()
    assert "likely duplicate" not in text and "**not covered by the fix of iree-org/iree#24385 (" in text, text
    assert "## Bisection" in text and "does not cover this program" in text, text
