"""The drafts a root cause is filed with beyond one bundle's ISSUE.md: a comment on an open upstream issue
(``comment_text``: where the issue stands against the build measured, related issues with their fixes, each
reproducer with the commands that show it) and one report for a root cause several bundles show
(``root_cause_text``: the lead variant in full, the others a paragraph each). ``docs/bundles/summarize.py`` writes
both from the bundles' records; ``report`` writes each bundle's own ISSUE.md."""

from __future__ import annotations

import re
import shlex
from typing import Any, Mapping, Sequence

import numpy as np

from ireefuzz import sut
from ireefuzz.oracles.finding import Finding
from ireefuzz.oracles.registry import spec_of
from ireefuzz.tools.filing import experiments as experimenting
from ireefuzz.tools.filing import upstream
from ireefuzz.tools.filing.bundle import INPUTS_AFTER, INPUTS_AFTER_FUNCTION, UPSTREAM_TEST, Bundle, own_diagnostic
from ireefuzz.tools.filing.report import excerpt, happened, host_said, words

# --------------------------------------------------------------------------- a comment on an open upstream issue


def issue_url(issue: str) -> str:
    """``iree-org/iree#24735`` -> its GitHub address (the table's, a pull request's ``/pull/``)."""
    row = _table_row(issue)
    if row.get("url"):
        return str(row["url"])
    repo, _, number = issue.partition("#")
    return f"https://github.com/{repo}/issues/{number}"


def _table_row(issue: str) -> Mapping[str, Any]:
    return next((r for r in upstream.load() if r.get("issue") == issue), {})


def crash_stack(finding: Finding) -> str:
    """A compiler crash as its cause keys it: the signal and the top frames below the handler, in C++ spelling
    ("SIGSEGV in `A::f` < `B::g`"); "" for a finding that is no crash."""
    crash = re.match(r"crash/compile-crash/(SIG\w+)/(.+)", str(finding.cause or ""))
    if crash is None:
        return ""
    frames = [f"`{frame.replace('.', '::')}`" for frame in crash.group(2).split(">") if frame and frame != "-"]
    return f"{crash.group(1)}" + (f" in {' < '.join(frames)}" if frames else "")


def trigger_summary(found: Mapping[str, Any]) -> str:
    """The trigger in one paragraph: the changes that make it go away, else the variants that all still fail."""
    verdict = experimenting.Verdict.from_json(found.get("verdict") or {})
    if verdict.trigger:
        return " ".join(verdict.trigger)
    rows = [experimenting.Row.from_json(r) for r in found.get("rows") or () if r.get("label") != experimenting.AS_GIVEN]
    still = [r.change for r in rows if r.outcome.kind == "same"]
    return f"it still fails the same way with each of: {'; '.join(still)}." if still else ""


def comment_text(
    issue: str, bug: str, bundles: Sequence[tuple[str, Bundle]], releases: Mapping[str, str] | None = None
) -> str:
    """A comment draft for the open upstream ``issue`` that ``bundles`` (folder, bundle) reproduce: self-contained
    (the issue's link, what these reproducers add, each program inline with the commands that show the bug and what
    they print, the CPUs and releases), so it is pasted as is."""
    lines = [
        f"# Comment draft for [{issue}]({issue_url(issue)})",
        "",
        (
            f"A reproducer of the bug that {issue_url(issue)} proposes to fix ({bug}): it fails on the releases "
            "below, which lack the fix. It was not run against the pull request's branch (no build of it was at "
            "hand): that the pull request fixes it is read from its description."
            if _table_row(issue).get("kind") == "pull"
            else f"Another reproducer of {issue_url(issue)} ({bug})."
        ),
        "",
        *standing_lines(issue, bundles, releases or {}),
        *dict.fromkeys(line for _, b in bundles for line in related_lines(issue, b)),
        "**What this adds**: a minimal program that shows it with stock `iree-compile`"
        + (" / `iree-run-module`" if any(b.inputs for _, b in bundles) else "")
        + ", measured on "
        + ", ".join(sorted({str(b.finding.get("compiler_version") or "?").split(" @")[0] for _, b in bundles}))
        + "; the CPUs it reproduces on; the releases it is present in; the pass that introduces it where one was"
        " localized, and the changes that make it go away.",
        "",
    ]
    for folder, b in bundles:
        finding = Finding.from_json(b.finding)
        found = b.finding.get("culprit") or {}
        flags = [str(f) for f in b.finding.get("flags") or ()]
        compile_line = shlex.join(
            sut.compile_command(sut.CompilerConfig(), "program.mlir", "module.vmfb", binary="iree-compile", flags=flags)
        )
        tried = b.finding.get("experiments") or {}
        trigger = [trigger_summary(tried)] if tried and trigger_summary(tried) else []
        two_modules = spec_of(finding.oracle).reproduce(finding.kind) == "inputs-after" and b.inputs_after
        lines += [f"## {folder}", "", *_upstream_reproducer(issue, b)]
        lines += [
            f"What happens: {happened(finding)}"
            + (f" (culprit pass: `{found['pass']}`)" if found.get("pass") else "")
            + ".",
            "",
            "```mlir",
            b.program.rstrip(),
            "```",
            "",
            "```sh",
            compile_line,
            *(
                [
                    shlex.join(
                        sut.run_module_command(
                            ["module.vmfb"],
                            str(b.finding.get("function") or "main"),
                            [f"@a{i}.npy" for i in range(len(b.inputs))],
                            (),
                            binary="iree-run-module",
                        )
                    )
                ]
                if b.inputs and not spec_of(finding.oracle).compile_only(finding.kind) and not two_modules
                else []
            ),
            *(_inputs_after_commands(flags, b) if two_modules else []),
            "```",
            "",
            *(_inputs_after_lines(b) if two_modules else []),
            (
                f"dies of {crash_stack(finding)}"
                if crash_stack(finding)
                else f"prints: `{words(own_diagnostic(finding) or finding.message, 300)}`"
                if spec_of(finding.oracle).compile_only(finding.kind)
                else f"ireefuzz's check of the run reports: `{words(finding.message, 300)}`"
            ),
            "",
        ]
        if b.inputs:
            lines += [
                "Inputs: "
                + "; ".join(
                    f"`a{i}.npy` = {np.asarray(x).dtype}{list(np.shape(x))} {np.asarray(x).reshape(-1)[:8].tolist()}"
                    for i, x in enumerate(b.inputs)
                ),
                "",
            ]
        if found.get("confirm"):
            confirm = found["confirm"]
            shows = [str(x) for x in (*(confirm.get("shows") or ()), *(confirm.get("context") or ()))]
            lines += [
                f"The pass alone on the IR it received (the bundle's `culprit_before.mlir`) shows it: "
                f"`{found['confirm'].get('command')}` prints",
                "",
                "```",
                *excerpt("\n".join(shows), limit=10),
                "```",
                "",
            ]
        if b.finding.get("reproduces_on"):
            lines += [
                f"Reproduces with `--iree-llvmcpu-target-cpu=` {', '.join(b.finding['reproduces_on'])}."
                + host_said(b.finding["reproduces_on"]),
                "",
            ]
        if (releases or {}).get(folder):
            lines += [f"Releases: {(releases or {})[folder]}.", ""]
        lines += [f"Trigger: {trigger[0]}", ""] if trigger else []
    return "\n".join(lines).rstrip() + "\n"


def _upstream_reproducer(issue: str, b: Bundle) -> list[str]:
    """For an llvm-project issue, the bundle's upstream MLIR test first (its readers have mlir-opt, not IREE): the
    test, the command and what the run printed; the IREE program follows as where IREE meets it."""
    if not issue.startswith("llvm/") or not b.upstream_test:
        return []
    run = re.search(r"^// RUN: (mlir-opt .*?) %s", b.upstream_test, re.M)
    verdict: Mapping[str, Any] = next(
        (t for t in b.finding.get("lit_tests") or () if t.get("test") == UPSTREAM_TEST), {}
    )
    return [
        "With upstream MLIR alone (IREE's IR cut to upstream dialects; run with IREE's iree-opt, at IREE's LLVM):",
        "",
        "```mlir",
        b.upstream_test.rstrip(),
        "```",
        "",
        *(["```sh", f"{run.group(1)} {UPSTREAM_TEST}", "```", ""] if run else []),
        *([f"With the bug present it fails: {verdict['why']}.", ""] if verdict.get("why") else []),
        "Where IREE meets it:",
        "",
    ]


def _match_rows(b: Bundle) -> list[Mapping[str, Any]]:
    return [m for m in b.finding.get("upstream") or () if isinstance(m, Mapping) and m.get("issue")]


def standing_lines(issue: str, bundles: Sequence[tuple[str, Bundle]], releases: Mapping[str, str]) -> list[str]:
    """Where ``issue`` stands against what was measured, said first: a closed issue whose fix the measured build
    holds is a case the fix does not cover (with the releases that hold it and still fail); an open one whose
    reproducer bisects to a regression leads with the releases it appeared between."""
    build = next((str(m.get("build") or "") for _, b in bundles for m in _match_rows(b)), "")
    row = next((m for _, b in bundles for m in _match_rows(b) if m.get("issue") == issue), _table_row(issue))
    landed = row.get("landed") or {}
    answers = [a for a in releases.values() if a]
    if row.get("state") == "closed" and landed.get("pr") and row.get("timing") == "before-build":
        return [
            f"**Not covered by the fix**: {issue} is closed by {landed['pr']} (merged {landed.get('date', '?')}, "
            f"first nightly {landed.get('first_nightly', '?')}). The build measured here"
            + (f" ({build.split(' @')[0]})" if build else "")
            + " is later and holds that fix, and the program below still fails"
            + (f"; by release: {'; '.join(answers)}" if answers else "")
            + ". So the fix leaves this path open"
            + (
                ", or the release where it appeared brought it: a maintainer of the fix can tell which."
                if any(a.startswith("regressed") for a in answers)
                else "."
            ),
            "",
        ]
    regressed = [a for a in answers if a.startswith("regressed")]
    if regressed:
        return [f"**New fact**: this reproducer {regressed[0]}.", ""]
    return []


def related_lines(issue: str, b: Bundle) -> list[str]:
    """The other upstream issues this bundle's finding matched, each with its state and, where its fix is in the
    build that still fails, that it does not cover this program."""
    lines = []
    for m in _match_rows(b):
        if m.get("issue") == issue:
            continue
        landed = m.get("landed") or {}
        fix = (
            f"; its fix {landed['pr']} ({landed.get('date', '?')}) is in the build measured and does not cover this "
            "program"
            if landed.get("pr") and m.get("timing") == "before-build"
            else ""
        )
        lines.append(
            f"**Related**: {issue_url(str(m['issue']))} ({m.get('state', '?')}{fix}): {m.get('mechanism', '')}"
        )
    return [line for said in lines for line in (said, "")]


def _inputs_after_commands(flags: Sequence[str], b: Bundle) -> list[str]:
    """The commands that show an argument overwritten: ``iree-run-module`` copies ``--input`` files into fresh
    buffers, so a second module calls the program across the module boundary and returns the arguments after it."""
    after = sut.compile_command(sut.CompilerConfig(), INPUTS_AFTER, "after.vmfb", binary="iree-compile", flags=flags)
    files = [f"@a{i}.npy" for i in range(len(b.inputs))]
    run = sut.run_module_command(
        ["module.vmfb", "after.vmfb"], INPUTS_AFTER_FUNCTION, files, sut.expected_output_flags(files, exact=True)
    )
    return [shlex.join(after), shlex.join(run) + "   # [FAILED]: an argument holds other values after the call"]


def _inputs_after_lines(b: Bundle) -> list[str]:
    return [f"with `{INPUTS_AFTER}`:", "", "```mlir", (b.inputs_after or "").rstrip(), "```", ""]


def lead_variant(bundles: Sequence[tuple[str, Bundle]]) -> int:
    """Which of one root cause's variants leads its report: one whose culprit the one-pass run confirmed and whose
    pass test ships, a compile-time symptom (a verifier error states the defect in a line) before a wrong value;
    else the first."""

    def rank(item: tuple[str, Bundle]) -> tuple[int, int]:
        found = item[1].finding.get("culprit") or {}
        confirmed = bool(found.get("pass") and found.get("confirm"))
        tested = "pass_test.mlir" in str(item[1].issue or "") and "No pass test" not in str(item[1].issue or "")
        compile_time = spec_of(str(item[1].finding.get("oracle"))).compile_only(str(item[1].finding.get("kind")))
        return (0 if confirmed and tested else 1, 0 if compile_time else 1)

    return min(range(len(bundles)), key=lambda k: rank(bundles[k]))


def root_cause_text(bug: str, bundles: Sequence[tuple[str, Bundle]], releases: Mapping[str, str]) -> str:
    """One ISSUE.md for one root cause that several bundles show (the review: fold-unit-dims as three reports):
    the lead variant's report in full, then each other variant in a paragraph (its symptom, culprit, CPUs,
    releases and folder), so one report is filed and the variants are its evidence."""
    lead = lead_variant(bundles)
    folder, bundle = bundles[lead]
    body = (bundle.issue or "").splitlines()
    tag = re.match(r"# (\[[\w-]+\]) ", body[0]) if body else None
    lines = [
        f"# {tag.group(1) if tag else '[llvm-cpu]'} {bug}",
        "",
        f"One root cause, {len(bundles)} variants: file this one report. The lead variant "
        f"(`{folder}`) is given in full (its commands run in its folder); the others show what the same defect "
        "does elsewhere. Each folder is a complete bundle (program, inputs, `run.sh`, culprit IR, lit tests).",
        "",
        "## Other variants of this root cause",
        "",
    ]
    for k, (other, b) in enumerate(bundles):
        if k == lead:
            continue
        finding = Finding.from_json(b.finding)
        found = b.finding.get("culprit") or {}
        lines += [
            f"- `{other}`: {happened(finding)}"
            + (f"; culprit `{found['pass']}`" if found.get("pass") else "")
            + (f"; CPUs {', '.join(b.finding.get('reproduces_on') or [])}" if b.finding.get("reproduces_on") else "")
            + (f"; releases: {releases[other]}" if releases.get(other) else "")
            + ".",
        ]
        shows = [str(x) for x in ((found.get("confirm") or {}).get("shows") or ())]
        said = [x for x in shows if "it stops at" in x or "error:" in x]
        if said:
            lines.append(f"  The pass alone on its `culprit_before.mlir` shows: `{words(said[0], 260)}`")
    lead_title = re.sub(r"^# (\[[\w-]+\] )?", "", body[0]) if body else folder
    lines += ["", f"## The lead variant: {lead_title}", ""]
    lines += [re.sub(r"^(#+) ", r"\1# ", line) for line in body[1:]]
    return "\n".join(lines).rstrip() + "\n"
