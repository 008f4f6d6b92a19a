"""The upstream check (``ireefuzz.tools.filing.upstream``): a match is timed against the IREE build's date, a closed
duplicate is a possible regression only when its fix predates the build, and the shipped table is well formed."""

from __future__ import annotations

import copy
import dataclasses
import datetime
import json

import pytest

from ireefuzz.tools.filing import upstream
from ireefuzz.tools.filing.upstream import Timing

BUILD = "3.13.0rc20261016 @ 89ece87b89852100c0a4ac3d515e14842d090967"  # the installed 3.13's --version
RULE = {"causes": ["crash/x"], "program": [], "diagnostic": []}


def _row(state="closed", fixed=None, *, kind="issue", relation="duplicate", **extra):
    row = {
        "issue": "iree-org/iree#9",
        "kind": kind,
        "url": "u",
        "title": "t",
        "state": state,
        "opened": "2026-01-02",
        "merged" if kind == "pull" else "fixed": fixed,
        "relation": relation,
        "mechanism": "m",
        "sources": ["s"],
        "match": RULE,
    }
    return row | extra


def _fix(date, release="3.12.0"):
    return {"pr": "iree-org/iree#10", "date": date, "first_nightly": "iree-3.12.0rc20260513", "first_release": release}


def test_build_date_reads_the_nightly_date_of_a_version():
    assert upstream.build_date(BUILD) == datetime.date(2026, 10, 16)
    assert upstream.build_date("IREE compiler version 3.10.0rc20260104 @ 9273e925") == datetime.date(2026, 1, 4)
    assert upstream.build_date("20230209.425 @ abc") == datetime.date(2023, 2, 9)  # the dated 2023-2024 releases
    assert upstream.build_date("3.13.0") is None  # a stable version string carries no date
    assert upstream.build_date("3.13.0rc20261399") is None  # not a date
    assert upstream.build_date("") is None


@pytest.mark.parametrize(
    "row, build, timing",
    [
        (_row(fixed=_fix("2026-05-12")), BUILD, Timing.BEFORE_BUILD),
        (_row(fixed=_fix("2026-10-15")), BUILD, Timing.BEFORE_BUILD),
        (_row(fixed=_fix("2026-10-16")), BUILD, Timing.AFTER_BUILD),  # the build's own day: not known to hold it
        (_row(fixed=_fix("2026-11-02")), BUILD, Timing.AFTER_BUILD),
        (_row(fixed=_fix("2026-05-12")), "3.12.0rc20260401 @ x", Timing.AFTER_BUILD),
        (_row(state="open"), BUILD, Timing.OPEN),
        (_row(fixed="unverified"), BUILD, Timing.UNDATED),
        (_row(fixed=_fix("2026-05-12")), "3.13.0", Timing.BUILD_UNDATED),
        (_row(fixed=_fix("2026-05-12")), "", Timing.BUILD_UNDATED),
        (_row(kind="pull", fixed=_fix("2026-02-23"), relation="introduced-by"), BUILD, Timing.BEFORE_BUILD),
        (_row(kind="pull", state="open", relation="proposed-fix"), BUILD, Timing.OPEN),
    ],
)
def test_timing_compares_the_fix_date_with_the_build_date(row, build, timing):
    assert upstream.timing_of(row, build) is timing


def _one(row, build=BUILD):
    (m,) = upstream.match("crash/x", table=[row], build=build)
    return m


def test_only_a_fix_before_the_build_makes_a_possible_regression():
    before = _one(_row(fixed=_fix("2026-05-12")))
    assert before.possible_regression and before.timing is Timing.BEFORE_BUILD
    assert before.line() == (
        "likely duplicate of iree-org/iree#9 (closed 2026-05-12 by PR #10, fixed before this build (2026-10-16): "
        "possible regression, unconfirmed until bisect)"
    )
    assert "absent from 3.12.0" in upstream.advice(before)
    after = _one(_row(fixed=_fix("2026-11-02")))
    assert not after.possible_regression
    assert after.line().endswith(
        "fixed on or after the date of this build (2026-10-16): this build may predate the fix)"
    )
    undated = _one(_row(fixed="unverified"))
    assert not undated.possible_regression and "no fix date on record" in undated.line()
    unknown_build = _one(_row(fixed=_fix("2026-05-12")), build="3.13.0")
    assert not unknown_build.possible_regression and "this build's date is unknown" in unknown_build.line()
    assert _one(_row(state="open")).line() == "likely duplicate of iree-org/iree#9 (open)"


def test_the_relation_decides_what_a_dated_fix_means():
    incomplete = _one(_row(fixed=_fix("2026-01-26"), relation="incomplete-fix"))
    assert not incomplete.possible_regression and "a path the fix left" in incomplete.line()
    assert "file it as a new issue" in upstream.advice(incomplete)
    introduced = _one(_row(kind="pull", fixed=_fix("2026-02-23"), relation="introduced-by"))
    assert not introduced.possible_regression
    assert introduced.line() == (
        "likely introduced by iree-org/iree#9 (merged 2026-02-23, before this build (2026-10-16): the likely cause, "
        "unconfirmed until bisect)"
    )
    not_in_build = _one(_row(kind="pull", fixed=_fix("2026-11-02"), relation="introduced-by"))
    assert "not in it, so not the cause" in not_in_build.line()


def test_a_match_dumps_to_plain_json_and_carries_its_build():
    m = _one(_row(fixed=_fix("2026-05-12")))
    dumped = json.loads(json.dumps(dataclasses.asdict(m)))  # what program.write_cause writes into finding.json
    assert dumped["timing"] == "before-build" and dumped["build_date"] == "2026-10-16" and dumped["build"] == BUILD
    assert dumped["landed"]["pr"] == "iree-org/iree#10" and dumped["fixed_in"] == "3.12.0"


def test_for_finding_times_against_the_findings_own_compiler(monkeypatch):
    monkeypatch.setattr(upstream, "load", lambda path=None: (_row(fixed=_fix("2026-05-12")),))
    older = {"cause": "crash/x", "message": "", "evidence": {}, "compiler_version": "3.12.0rc20260401 @ x"}
    assert [m.timing for m in upstream.for_finding(older)] == [Timing.AFTER_BUILD]
    assert [m.timing for m in upstream.for_finding(older, build=BUILD)] == [Timing.BEFORE_BUILD]  # given wins
    assert upstream.build_of({"evidence": {"compiler_version": BUILD}}) == BUILD
    assert upstream.build_of({"evidence": {"platform": {"compiler_version": BUILD, "cpu": "znver3"}}}) == BUILD
    assert upstream.build_of({"message": "no version"}) is None


# --------------------------------------------------------------------------- the shipped table


def test_the_shipped_table_is_well_formed():
    rows = upstream.load()
    assert len(rows) >= 15
    assert upstream.problems(rows) == []


def test_every_shipped_entry_has_a_state_and_a_fix_date_or_unverified():
    for row in upstream.load():
        landed = row["merged" if row["kind"] == "pull" else "fixed"]
        assert row["state"] in ("open", "closed"), row["issue"]
        if row["state"] == "closed":
            assert landed == "unverified" or datetime.date.fromisoformat(landed["date"]), row["issue"]
        else:
            assert landed is None, row["issue"]


@pytest.mark.parametrize(
    "change, fault",
    [
        (lambda r: r.update(state="closed", fixed=None), "closed, so fixed needs"),
        (lambda r: r.update(state="closed", fixed={"pr": "iree-org/iree#1"}), "closed, so fixed needs"),
        (lambda r: r.update(state="closed", fixed={"pr": "iree-org/iree#1", "date": "26 Jan"}), "closed, so fixed"),
        (lambda r: r.update(state="open", fixed=_fix("2026-01-01")), "open, yet fixed"),
        (lambda r: r.update(state="fixed"), "state 'fixed'"),
        (lambda r: r.update(relation="regression"), "relation 'regression'"),
        (lambda r: r.update(opened="2026-13-01"), "opened '2026-13-01'"),
        (lambda r: r.update(match={"causes": [], "program": [], "diagnostic": []}), "no 'unmatched'"),
        (lambda r: r.update(match={"causes": [], "program": [], "diagnostic": ["(unclosed"]}), "does not compile"),
        (lambda r: r.update(sources=[]), "no sources"),
        (lambda r: r.update(kind="discussion"), "kind 'discussion'"),
    ],
)
def test_the_shape_check_names_each_fault(change, fault):
    good = _row(fixed=_fix("2026-05-12"))
    assert upstream.problems([good]) == []
    bad = copy.deepcopy(good)
    change(bad)
    (problem,) = upstream.problems([bad])
    assert problem.startswith("iree-org/iree#9: ") and fault in problem


SIGFPE = (
    "crash/compile-crash/SIGFPE/mlir.iree_compiler.limitVectorTileSizes>mlir.iree_compiler.limitVectorTileSizes>"
    "mlir.iree_compiler.getMmt4dLoweringConfig"
)


def test_the_shipped_table_knows_what_the_filing_review_found_missing():
    """#23277/#23281 for the mmt4d SIGFPE, #13577 (open) before #14187 for an f16 max, #20792 for the conv alloca,
    #23544 for the dynamic-head-dim attention, #24483 for the 2^55-byte sort scratch."""
    (mmt4d,) = upstream.match(SIGFPE, build=BUILD)
    assert (mmt4d.issue, mmt4d.relation, mmt4d.timing) == ("iree-org/iree#23277", "incomplete-fix", Timing.BEFORE_BUILD)
    assert mmt4d.landed is not None and (mmt4d.landed.pr, mmt4d.landed.date) == ("iree-org/iree#23281", "2026-01-26")
    softmax = "%r = linalg.softmax dimension(0) ins(%a : tensor<7xf16>) outs(%e : tensor<7xf16>) -> tensor<7xf16>"
    fmax = [m.issue for m in upstream.match("", softmax, "lld: error: undefined symbol: fmaxf", build=BUILD)]
    assert fmax[:2] == ["iree-org/iree#13577", "iree-org/iree#14187"]
    (conv,) = upstream.match("memory/alloca/contraction@ConvTileAndDecomposeExpert", build=BUILD)
    assert (conv.issue, conv.relation) == ("iree-org/iree#20792", "incomplete-fix")
    (attention,) = upstream.match("numeric/wrong-value/attention", build=BUILD)
    assert (attention.issue, attention.relation, attention.possible_regression) == (
        "iree-org/iree#23544",
        "introduced-by",
        False,
    )
    huge = "'func.func' op exceeded stack allocation limit of 32768 bytes for function. Got 36028797018963968 bytes"
    assert "iree-org/iree#24483" in [m.issue for m in upstream.match("", "", huge, build=BUILD)]


def test_the_conv_pad_crash_is_a_possible_regression_on_3_13_and_not_on_a_build_before_its_fix():
    crash = "#3 mlir::iree_compiler::IREE::Flow::DispatchWorkgroupsOp::getResultAccess"
    pad = "%padded = tensor.pad %x ...\n%r = linalg.conv_2d_nhwc_hwcf ins(%padded, %w : ...) outs(%padded : ...)"
    (on_313,) = upstream.match("", pad, crash, build=BUILD)
    assert on_313.issue == "iree-org/iree#24385" and on_313.possible_regression  # fixed 2026-05-12 by #24391
    (on_311,) = upstream.match("", pad, crash, build="3.11.0rc20260315 @ e4a3b04")
    assert on_311.timing is Timing.AFTER_BUILD and not on_311.possible_regression


@pytest.mark.iree
def test_the_installed_compiler_gives_a_dated_build_and_is_the_default():
    version = upstream.installed_build()
    assert upstream.build_date(version) is not None, version
    (default,) = upstream.match("numeric/wrong-value/attention")
    assert default.build == version and default.build_date == upstream.build_date(version).isoformat()


def test_a_judged_cause_gets_its_duplicates_upstream_and_no_guess_beside_its_verdict(monkeypatch):
    from ireefuzz.tools.baseline import Baseline, Known
    from ireefuzz.tools.campaign.report import with_upstream_matches

    baseline = Baseline.of(
        [
            Known("memory/alloca/contraction@X", "upstream", link="https://github.com/iree-org/iree/issues/8303"),
            Known("memory/alloca/reduction@X", "duplicate-of", of="memory/alloca/contraction@X"),
            Known("fusion/p@X", "duplicate-of", of="fusion/policy"),
            Known("fusion/policy", "by-design", why="the default fusion policy"),
        ]
    )
    assert baseline.upstream_of("memory/alloca/reduction@X") == "https://github.com/iree-org/iree/issues/8303"
    assert baseline.upstream_of("fusion/p@X") == ""
    guess = upstream.Match(**{f.name: None for f in dataclasses.fields(upstream.Match)})
    monkeypatch.setattr(upstream, "match", lambda cause, **_: [guess])
    monkeypatch.setattr(upstream.Match, "line", lambda self: "likely duplicate of iree-org/iree#1 (open)")
    causes = [
        {"id": "fusion/p@X", "verdict": "duplicate-of", "upstream": "", "signatures": []},
        {"id": "memory/alloca/new@X", "verdict": "", "upstream": "", "signatures": []},
    ]
    cells = {c["id"]: c.get("upstream") for c in with_upstream_matches({"causes": causes}, {})["causes"]}
    assert cells == {"fusion/p@X": "", "memory/alloca/new@X": "likely duplicate of iree-org/iree#1 (open)"}


def test_stop_47s_real_bugs_link_their_similar_upstream_threads_and_only_with_their_own_symptom():
    """The outsiders linked the bf16 link error to #13499 and the fori_loop's stream-conversion error to #24722's
    fix (#24723); each is "similar" (same symptom and component), and neither matches the other's diagnostic."""
    bf16 = "%r = arith.sitofp %x : i32 to bf16"
    link = "iree-lld: error: undefined symbol: __truncsfbf2"
    loop = "%res:3 = scf.while (%x = %x0, %y = %y0, %i = %zero) : ..."
    stream = "failed to legalize unresolved source materialization from ('index') to ('i32') that remained live"
    (truncation,) = upstream.match("", bf16, link, build=BUILD)
    assert (truncation.issue, truncation.relation) == ("iree-org/iree#13499", "similar")
    (scf_while,) = upstream.match("", loop, stream, build=BUILD)
    assert (scf_while.issue, scf_while.relation, scf_while.kind) == ("iree-org/iree#24723", "similar", "pull")
    assert scf_while.timing is Timing.BEFORE_BUILD and not scf_while.possible_regression
    assert not upstream.match("", loop, link, build=BUILD) and not upstream.match("", bf16, stream, build=BUILD)
