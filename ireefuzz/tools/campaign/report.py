"""Campaign reports, all written from ``summary.json`` and the recorded findings, organised by cause
(what one upstream issue would cover) with each cause's signatures folded beneath it:

- ``junit.xml``   one test case per cause: a failure for a new one, skipped for one known or seen before;
- ``summary.md``  the comparison with the previous run (if any), then a table of causes and, per cause,
  its signatures in a ``<details>`` block;
- ``report.html`` self-contained (inline SVG, no external assets): causes with their signatures,
  findings by class, where the time went (a stacked bar), cases/s over time, lowering pipelines and
  ops / op pairs reached.

Both Markdown and HTML show the time accounting (``summary.json``'s ``time_accounting``: seconds per
activity summed over processes, ``campaign.record.ACTIVITIES``).
"""

from __future__ import annotations

import collections
import html
import json
from pathlib import Path
from typing import Any, Mapping, Sequence
from xml.etree import ElementTree as ET

from ireefuzz.base import durable as _io
from ireefuzz.oracles.finding import Signature
from ireefuzz.oracles.registry import not_judged_subject
from ireefuzz.sut import NO_PIPELINE
from ireefuzz.tools.campaign.causes import DIFF_CATEGORIES
from ireefuzz.tools.campaign.record import ACTIVITIES
from ireefuzz.tools.filing import experiments


def write_reports(out: Path, summary: Mapping[str, Any], findings: Sequence[Mapping[str, Any]]) -> None:
    examples = first_examples(findings)
    summary = with_upstream_matches(summary, examples)
    _io.atomic_write_text(out / "junit.xml", junit(summary, examples))
    _io.atomic_write_text(out / "summary.md", markdown(summary))
    _io.atomic_write_text(out / "report.html", html_report(summary))


def with_upstream_matches(summary: Mapping[str, Any], examples: Mapping[str, Mapping[str, Any]]) -> dict[str, Any]:
    """``summary`` with each cause the baseline does not name matched against the table of upstream issues
    (``ireefuzz.tools.filing.upstream``): its ``upstream`` cell says "likely duplicate of ... (open / closed
    as fixed ...)" from the cause's first recorded finding and program. A judged cause (a verdict: upstream,
    by design, a duplicate of another) gets no such guess: its verdict says what it is, and a guess beside it would
    contradict it (a duplicate of #8303's cause "likely duplicate of" another issue)."""
    from ireefuzz.tools.filing import upstream

    causes = []
    for c in summary.get("causes", ()):
        if not c.get("upstream") and c.get("verdict") in ("", "listed", None):
            row = next((examples[s] for s in c.get("signatures", ()) if s in examples), None)
            found = upstream.for_finding(row, upstream.program_of(row), c["id"]) if row else upstream.match(c["id"])
            c = dict(c) | ({"upstream": "; ".join(m.line() for m in found[:2])} if found else {})
        causes.append(c)
    return dict(summary) | {"causes": causes}


def first_examples(findings: Sequence[Mapping[str, Any]]) -> dict[str, Mapping[str, Any]]:
    """The first recorded finding of each signature."""
    examples: dict[str, Mapping[str, Any]] = {}
    for f in findings:
        examples.setdefault(f["signature"], f)
    return examples


def verdict(summary: Mapping[str, Any], cause: Mapping[str, Any]) -> str:
    """``new`` (makes the run exit 1), ``known`` (in the baseline) or ``seen`` (in the run compared with)."""
    return "new" if cause["id"] in summary["new_causes"] else "known" if cause["status"] == "known" else "seen"


def junit(summary: Mapping[str, Any], examples: Mapping[str, Mapping[str, Any]]) -> str:
    causes = summary["causes"]
    root = ET.Element("testsuites")
    suite = ET.SubElement(
        root,
        "testsuite",
        name="ireefuzz",
        tests=str(len(causes)),
        failures=str(len(summary["new_causes"])),
        skipped=str(len(causes) - len(summary["new_causes"])),
        time=str(summary["seconds"]),
    )
    for c in causes:
        case = ET.SubElement(suite, "testcase", classname=f"ireefuzz.{c['oracle']}", name=c["id"], time="0")
        example = examples.get(c["signatures"][0], {})
        text = (
            f"{c['title']}\n{c['cases']} case(s); first case {c['first_case']}, smallest {c['smallest_case']}"
            f"{'; bundle ' + c['bundle'] if c['bundle'] else ''}\nsignatures:\n  "
            + "\n  ".join(c["signatures"])
            + f"\n{example.get('message', '')}\ncase: {json.dumps(example.get('case'), sort_keys=True)}"
        )
        seen = verdict(summary, c)
        if seen == "new":
            ET.SubElement(case, "failure", message=c["title"][:500], type=c["oracle"]).text = text
        else:
            reason = (
                (f"{c['verdict']}: {c.get('verdict_detail', '')}" if c.get("verdict") else "")
                or c.get("upstream")
                or ("in the baseline" if seen == "known" else "seen in the run compared with")
            )
            ET.SubElement(case, "skipped", message=f"known: {reason}")
    return '<?xml version="1.0" encoding="utf-8"?>\n' + ET.tostring(root, encoding="unicode") + "\n"


def markdown(summary: Mapping[str, Any]) -> str:
    s = summary
    lines = [
        "# ireefuzz campaign",
        "",
        *harness_error_lines(s),
        f"- cases: {s['cases']} ({s['shape_runs']} shape runs) in {s['seconds']} s: {s['graphs_per_s']} graphs/s",
        f"- compiler: {s['compiler_version'] or '?'} on cpu {s['cpu'] or '?'}",
        f"- causes: {len(s['new_causes'])} new, {len(s['causes']) - len(s['new_causes'])} known or seen before; "
        f"signatures: {len(s['new'])} new, {len(s['known'])} known; worker crashes: {s['worker_deaths']}; "
        f"discarded (ill-conditioned): {s['discarded']}",
        *(
            [f"- not reproduced alone (not red): {', '.join(f'`{c}`' for c in s['unreproduced'])}"]
            if s.get("unreproduced")
            else []
        ),
        *(
            [
                "- seen only in another wrong value's cases (its consequence, not red): "
                + ", ".join(f"`{c}` with `{lead}`" for c, lead in sorted(s["companions"].items()))
            ]
            if s.get("companions")
            else []
        ),
        f"- pipelines reached: {', '.join(f'{k or NO_PIPELINE} ({v})' for k, v in s['pipelines'].items()) or 'none'}"
        + (
            f"; {NO_PIPELINE} = no codegen pipeline (no translation_info): the pure data-movement `*_slow_memcpy` "
            "dispatches"
            if set(s["pipelines"]) & {"", NO_PIPELINE}
            else ""
        ),
        f"- lowering configurations reached (pipeline + tile sizes): {s.get('lowerings', {}).get('distinct', 0)} "
        f"distinct ({', '.join(f'{k} {v}' for k, v in s.get('lowerings', {}).get('per_pipeline', {}).items()) or '-'})",
        "",
    ]
    lines += not_judged_lines(s)
    lines += time_table(s.get("time_accounting"))
    if "diff" in s:
        lines += [f"## Compared with {s['diff']['compared_with']}", ""]
        lines += [
            f"- {title}: {', '.join(f'`{c}`' for c in s['diff'][key]) or 'none'}"
            for key, title in DIFF_CATEGORIES.items()
        ]
        lines.append("")
    lines += ranking_lines(s) + judged_lines(s)
    lines += [
        "## Causes",
        "",
        "| status | cause | cases | signatures | first case | smallest case | bundle | upstream |",
        "|---|---|---|---|---|---|---|---|",
    ]
    for c in s["causes"]:
        lines.append(
            f"| {status_cell(s, c)} | `{c['id']}` | {c['cases']} | {len(c['signatures'])} | {c['first_case']} "
            f"| {c['smallest_case']} | {c['bundle']} | {c['upstream']} |"
        )
    for c in s["causes"]:
        lines += [
            "",
            f"### `{c['id']}` ({verdict(s, c)})",
            "",
            c["title"],
            "",
            *(experiments.section_lines(c["experiments"], "####") if c.get("experiments") else []),
            f"<details><summary>{len(c['signatures'])} signature(s)</summary>",
            "",
            "| signature | count | first case | smallest case |",
            "|---|---|---|---|",
        ]
        for sig in c["signatures"]:
            v = s["signatures"].get(sig, {})
            lines.append(
                f"| `{sig}` | {v.get('count', 0)} | {v.get('first_case_index')} | {v.get('smallest_case_index')} |"
            )
        lines += ["", "</details>"]
    lines += configuration_table(s.get("configurations"))
    return "\n".join(lines) + "\n"


def status_cell(s: Mapping[str, Any], c: Mapping[str, Any]) -> str:
    """new / seen, or known with the baseline's verdict (``known: by-design``) or its experiments' (``known:
    duplicate-of X (by experiment: rank+1)``)."""
    seen = verdict(s, c)
    tried = (c.get("experiments") or {}).get("verdict") or {}
    if seen == "known" and tried.get("verdict") == "duplicate-of":
        return f"known: {tried.get('line')}"
    return f"{seen}: {c['verdict']}" if seen == "known" and c.get("verdict") else seen


def ranking_lines(s: Mapping[str, Any]) -> list[str]:
    """Markdown lines: the new causes in ``summary.json``'s ``ranking`` order (``campaign.ranking``)."""
    ranked = s.get("ranking") or []
    if not ranked:
        return []
    lines = [
        "## New causes, most likely a real and distinct bug first",
        "",
        (
            "Score = prior (oracle x reproduced x size x frontend form) x distance to the nearest known or higher "
            "cause (furthest point first); `--bundles N` bundles the top N."
        ),
        "",
        "| rank | cause | score | oracle | reproduced | smallest (elements, ops) | "
        "beyond frontends | nearest (distance) |",
        "|---|---|---|---|---|---|---|---|",
    ]
    for n, r in enumerate(ranked, 1):
        smallest = ", ".join(map(str, r["smallest"])) if r.get("smallest") else "?"
        nearest = f"`{r['nearest']}` ({r['distance']})" if r.get("nearest") else "none"
        nearest = f"{nearest}; {r['regressed']}" if r.get("regressed") else nearest
        lines.append(
            f"| {n} | `{r['id']}` | {r['score']} | {r['oracle_weight']} | {r['reproduced']} | {smallest} "
            f"| {'yes' if r['beyond_frontends'] else 'no'} | {nearest} |"
        )
    return lines + [""]


def judged_lines(s: Mapping[str, Any]) -> list[str]:
    """Markdown lines: the causes found that the baseline judges, with the verdict and what backs it; they do not
    fail the run, and are shown here so nothing is hidden."""
    judged = [c for c in s["causes"] if c.get("verdict") and verdict(s, c) == "known"]
    if not judged:
        return []
    counts = collections.Counter(c["verdict"] for c in judged)
    lines = [
        f"## Judged causes ({len(judged)}: "
        f"{', '.join(f'{n} {v}' for v, n in sorted(counts.items(), key=lambda vn: (-vn[1], vn[0])))}; not failures)",
        "",
        "| cause | verdict | evidence / why | cases | signatures |",
        "|---|---|---|---|---|",
    ]
    for c in sorted(judged, key=lambda c: (c["verdict"], c["id"])):
        detail = str(c.get("verdict_detail", "")).replace("|", "\\|").replace("\n", " ")
        lines.append(f"| `{c['id']}` | {c['verdict']} | {detail} | {c['cases']} | {len(c['signatures'])} |")
    return lines + [""]


def harness_error_lines(s: Mapping[str, Any]) -> list[str]:
    """Markdown lines, first in the report: the cases whose evaluation raised (ireefuzz's own bugs, not judged)."""
    n = s.get("harness_errors", 0)
    if not n:
        return []
    lines = [
        f"## Harness errors: {n} case(s) not judged (ireefuzz's own bugs, not IREE's; harness_errors.jsonl)",
        "",
        "| case | release | configuration | ops | error |",
        "|---|---|---|---|---|",
    ]
    for e in s.get("harness_error_list", ()):
        lines.append(
            f"| {e.get('case_index')} | {e.get('release')} | `{' '.join(e.get('configuration', ()))}` "
            f"| `{e.get('ops')}` | {str(e.get('error', '')).replace('|', '/')[:200]} |"
        )
    return lines + [""]


def not_judged_lines(s: Mapping[str, Any]) -> list[str]:
    """Markdown lines: the oracles left out because they cannot judge this compiler, and the cases whose numbers
    were not judged, by reason (an op the interpreter refuses, a compile-only target) -- never a silent pass."""
    lines = [f"- oracle not judged: {why}" for why in s.get("options", {}).get("oracles_not_judged", ())]
    for why, n in s.get("not_judged", {}).items():  # "memory: ..." names its oracle; other reasons are the numbers'
        subject, reason = not_judged_subject(why)
        lines.append(f"- {subject} not judged in {n} case(s): {reason}")
    shares = s.get("not_judged_share", {})
    if any(shares.values()):
        lines.append("- share of cases not judged, per oracle: " + ", ".join(f"{o} {v:.1%}" for o, v in shares.items()))
    return lines + [""] if lines else []


def configuration_table(coverage: Mapping[str, Any] | None) -> list[str]:
    """Markdown lines: cases and causes per flag value (``summary.json``'s ``configurations``)."""
    if not coverage:
        return []
    lines = [
        "",
        "## Configuration coverage (cases and causes per flag value)",
        "",
        "| flag value | cases | causes (cases) |",
        "|---|---|---|",
    ]
    for label, row in coverage.items():
        causes = ", ".join(f"`{c}` ({n})" for c, n in row["causes"].items()) or "none"
        lines.append(f"| `{label}` | {row['cases']} | {causes} |")
    return lines


def known_share_line(accounting: Mapping[str, Any]) -> list[str]:
    """The share of compile time spent on cases that found only causes the baseline judges (none for older runs)."""
    share = accounting.get("known_cause_compile_share")
    return [] if share is None else [f"Compile time on cases that found only known causes: {share:.1%}.", ""]


def time_table(accounting: Mapping[str, Any] | None) -> list[str]:
    """Markdown lines: where the seconds went, per activity, largest first (none for a run without accounting)."""
    if not accounting:
        return []
    lines = [
        f"## Where the time went ({accounting['total_seconds']} s over all processes; "
        f"compile share {accounting['compile_share']:.2f} of the worker seconds)",
        "",
        *known_share_line(accounting),
        "| activity | seconds | share |",
        "|---|---|---|",
    ]
    for activity, seconds in sorted(accounting["seconds"].items(), key=lambda kv: -kv[1]):
        lines.append(f"| {ACTIVITIES.get(activity, activity)} | {seconds:.1f} | {accounting['shares'][activity]:.1%} |")
    return lines + [""]


# --------------------------------------------------------------------------- inline SVG

COLOURS = (
    "#4a7bd0",
    "#d0584a",
    "#5aa05a",
    "#d0a040",
    "#8a5ad0",
    "#40b0c0",
    "#c05a9a",
    "#7a7a40",
    "#a0a0a0",
    "#e08a5a",
    "#5a5ad0",
    "#60c080",
    "#b0b0e0",
    "#dddddd",
)


def stacked_bar(title: str, shares: Mapping[str, float], labels: Mapping[str, str], *, width: int = 640) -> str:
    """One horizontal bar cut in ``shares`` (fractions summing to 1, in ``labels``' order), with a legend."""
    parts = [(a, shares[a]) for a in labels if shares.get(a, 0) > 0]
    if not parts:
        return f"<h3>{html.escape(title)}</h3><p>not measured</p>"
    x, rects, legend = 0.0, [], []
    for n, (activity, share) in enumerate(parts):
        colour = COLOURS[n % len(COLOURS)]
        label = f"{labels[activity]}: {share:.1%}"
        rects.append(
            f'<rect x="{x:.1f}" y="0" width="{width * share:.1f}" height="24" fill="{colour}">'
            f"<title>{html.escape(label)}</title></rect>"
        )
        legend.append(
            f'<rect x="0" y="{34 + 16 * n}" width="10" height="10" fill="{colour}"/>'
            f'<text x="16" y="{43 + 16 * n}">{html.escape(label)}</text>'
        )
        x += width * share
    return (
        f'<h3>{html.escape(title)}</h3><svg xmlns="http://www.w3.org/2000/svg" width="{width}" '
        f'height="{40 + 16 * len(parts)}" font-size="11" font-family="sans-serif">{"".join(rects + legend)}</svg>'
    )


def time_html(accounting: Mapping[str, Any] | None) -> str:
    if not accounting:
        return ""
    return stacked_bar(
        f"Where the time went ({accounting['total_seconds']} s over all processes, compile share "
        f"{accounting['compile_share']:.2f})",
        accounting["shares"],
        ACTIVITIES,
    )


def bar_chart(title: str, items: Mapping[str, float], *, width: int = 640, limit: int = 20) -> str:
    items = dict(sorted(items.items(), key=lambda kv: -kv[1])[:limit])
    if not items:
        return f"<h3>{html.escape(title)}</h3><p>none</p>"
    row, label_w = 18, 260
    top = max(items.values()) or 1
    bars = []
    for i, (name, value) in enumerate(items.items()):
        w = (width - label_w - 60) * value / top
        y = i * row
        bars.append(
            f'<text x="{label_w - 6}" y="{y + 13}" text-anchor="end">{html.escape(name[:40])}</text>'
            f'<rect x="{label_w}" y="{y + 2}" width="{w:.1f}" height="{row - 4}" fill="#4a7bd0"/>'
            f'<text x="{label_w + w + 4:.1f}" y="{y + 13}">{value:g}</text>'
        )
    return (
        f'<h3>{html.escape(title)}</h3><svg xmlns="http://www.w3.org/2000/svg" width="{width}" '
        f'height="{row * len(items)}" font-size="11" font-family="sans-serif">{"".join(bars)}</svg>'
    )


def line_chart(title: str, points: Sequence[tuple[float, float]], *, width: int = 640, height: int = 200) -> str:
    if len(points) < 2:
        return f"<h3>{html.escape(title)}</h3><p>not enough data</p>"
    xs, ys = [p[0] for p in points], [p[1] for p in points]
    x0, x1, y1 = min(xs), max(xs) or 1, max(ys) or 1
    pad = 40
    sx = lambda x: pad + (width - 2 * pad) * (x - x0) / ((x1 - x0) or 1)
    sy = lambda y: height - pad + (2 * pad - height) * y / y1
    path = " ".join(f"{sx(x):.1f},{sy(y):.1f}" for x, y in points)
    return (
        f'<h3>{html.escape(title)}</h3><svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
        'font-size="11" font-family="sans-serif">'
        f'<polyline fill="none" stroke="#d0584a" stroke-width="2" points="{path}"/>'
        f'<line x1="{pad}" y1="{height - pad}" x2="{width - pad}" y2="{height - pad}" stroke="#888"/>'
        f'<line x1="{pad}" y1="{pad}" x2="{pad}" y2="{height - pad}" stroke="#888"/>'
        f'<text x="{pad}" y="{height - pad + 14}">{x0:.0f} s</text><text x="{width - pad}" y="{height - pad + 14}" '
        f'text-anchor="end">{x1:.0f} s</text><text x="{pad - 4}" y="{pad}" text-anchor="end">{y1:.2f}</text></svg>'
    )


def rates(timeline: Sequence[Sequence[float]], window: float | None = None) -> list[tuple[float, float]]:
    """Cases/s at each (seconds, cumulative cases) sample, over the ``window`` seconds before it (default a
    twentieth of the run, at least 30 s): a batch landing at once is not a spike of thousands of cases/s."""
    points = [(float(t), float(n)) for t, n in timeline]
    if len(points) < 2:
        return []
    window = window or max(30.0, (points[-1][0] - points[0][0]) / 20)
    out, j = [], 0
    for i, (t, n) in enumerate(points[1:], 1):
        while j + 1 < i and points[j + 1][0] <= t - window:
            j += 1  # the last sample at least a window before t (else the first)
        t0, n0 = points[j]
        if t > t0:
            out.append((t, (n - n0) / (t - t0)))
    return out


def html_report(summary: Mapping[str, Any]) -> str:
    s = summary
    by_class: collections.Counter[str] = collections.Counter()
    for sig, v in s["signatures"].items():
        parts = Signature.parse(sig)
        by_class[f"{parts.oracle}/{parts.kind} ({v['status']})"] += v["count"]
    body = [
        "<h1>ireefuzz campaign</h1>",
        f"<p>{s['cases']} cases ({s['shape_runs']} shape runs) in {s['seconds']} s &mdash; "
        f"{s['graphs_per_s']} graphs/s; "
        f"{len(s['new_causes'])} new of {len(s['causes'])} causes ({len(s['new'])} new and {len(s['known'])} known "
        f"signatures); {s['worker_deaths']} worker crashes. "
        f"Compiler {html.escape(s['compiler_version'] or '?')}, cpu {html.escape(s['cpu'] or '?')}.</p>",
        harness_errors_html(s),
        diff_html(s),
        not_judged_html(s),
        ranking_html(s),
        judged_html(s),
        causes_html(s),
        configurations_html(s.get("configurations")),
        time_html(s.get("time_accounting")),
        bar_chart("Causes (cases)", {c["id"]: c["cases"] for c in s["causes"]}),
        bar_chart("Findings by class (cases)", by_class),
        line_chart("Cases/s over time", rates(s["timeline"])),
        bar_chart("Lowering pipelines reached (dispatches)", s["pipelines"]),
        bar_chart("Ops reached (cases)", s["ops"]),
        bar_chart("Op pairs reached (producer>consumer, cases)", s["op_pairs"]),
    ]
    style = (
        "body{font-family:sans-serif;max-width:60em;margin:2em auto}table{border-collapse:collapse}"
        "td,th{border:1px solid #ccc;padding:2px 6px;font-size:12px;vertical-align:top}"
        "tr.new td:first-child{color:#b00;font-weight:bold}"
    )
    return (
        "<!doctype html><html><head><meta charset='utf-8'><title>ireefuzz campaign</title>"
        f"<style>{style}</style></head>"
        f"<body>{''.join(body)}</body></html>\n"
    )


def harness_errors_html(s: Mapping[str, Any]) -> str:
    lines = harness_error_lines(s)
    if not lines:
        return ""
    rows = "".join(
        "<tr>"
        + "".join(f"<td>{html.escape(cell.strip().strip('`'))}</td>" for cell in line.strip("|").split(" | "))
        + "</tr>"
        for line in lines[4:]
        if line
    )
    return (
        f"<h2 style='color:#b00'>{html.escape(lines[0][3:])}</h2><table><tr><th>case</th><th>release</th>"
        f"<th>configuration</th><th>ops</th><th>error</th></tr>{rows}</table>"
    )


def diff_html(s: Mapping[str, Any]) -> str:
    if "diff" not in s:
        return ""
    items = "".join(
        f"<li>{title}: {', '.join(f'<code>{html.escape(c)}</code>' for c in s['diff'][key]) or 'none'}</li>"
        for key, title in DIFF_CATEGORIES.items()
    )
    return f"<h3>Compared with {html.escape(s['diff']['compared_with'])}</h3><ul>{items}</ul>"


def causes_html(s: Mapping[str, Any]) -> str:
    rows = []
    for c in s["causes"]:
        sigs = "".join(
            f"<li><code>{html.escape(sig)}</code> ({s['signatures'].get(sig, {}).get('count', 0)})</li>"
            for sig in c["signatures"]
        )
        seen = verdict(s, c)
        rows.append(
            f"<tr class='{seen}'><td>{seen}</td><td><code>{html.escape(c['id'])}</code><br>{html.escape(c['title'])}"
            f"<details><summary>{len(c['signatures'])} signature(s)</summary><ul>{sigs}</ul></details></td>"
            f"<td>{c['cases']}</td><td>{c['first_case']}</td><td>{c['smallest_case']}</td>"
            f"<td>{html.escape(c['bundle'])}</td><td>{html.escape(c['upstream'])}</td></tr>"
        )
    return (
        "<h3>Causes</h3><table><tr><th>status</th><th>cause (signatures folded)</th><th>cases</th><th>first case</th>"
        f"<th>smallest case</th><th>bundle</th><th>upstream</th></tr>{''.join(rows)}</table>"
    )


def ranking_html(s: Mapping[str, Any]) -> str:
    return markdown_table_html(ranking_lines(s))


def judged_html(s: Mapping[str, Any]) -> str:
    return markdown_table_html(judged_lines(s))


def markdown_table_html(lines: Sequence[str]) -> str:
    """A section of ``## title``, optional prose and one Markdown table, as HTML (``ranking_lines``,
    ``judged_lines``)."""
    if not lines:
        return ""
    cells = lambda line: [cell.strip().replace("\\|", "|") for cell in line.strip().strip("|").split(" | ")]
    code = lambda text: (
        html.escape(text).replace("`", "")
        if not (text.startswith("`") and text.endswith("`"))
        else f"<code>{html.escape(text.strip('`'))}</code>"
    )
    table = [line for line in lines if line.startswith("|")]
    prose = "".join(
        f"<p>{html.escape(line).replace('`', '')}</p>" for line in lines[1:] if line and not line.startswith("|")
    )
    head = "".join(f"<th>{html.escape(c)}</th>" for c in cells(table[0]))
    rows = "".join("<tr>" + "".join(f"<td>{code(c)}</td>" for c in cells(line)) + "</tr>" for line in table[2:])
    return f"<h3>{html.escape(lines[0][3:])}</h3>{prose}<table><tr>{head}</tr>{rows}</table>"


def not_judged_html(s: Mapping[str, Any]) -> str:
    items = [line[2:] for line in not_judged_lines(s) if line]
    return f"<h3>Not judged</h3><ul>{''.join(f'<li>{html.escape(i)}</li>' for i in items)}</ul>" if items else ""


def configurations_html(coverage: Mapping[str, Any] | None) -> str:
    if not coverage:
        return ""
    rows = "".join(
        f"<tr><td><code>{html.escape(label)}</code></td><td>{row['cases']}</td><td>"
        + (", ".join(f"<code>{html.escape(c)}</code> ({n})" for c, n in row["causes"].items()) or "none")
        + "</td></tr>"
        for label, row in coverage.items()
    )
    return (
        "<h3>Configuration coverage (cases and causes per flag value)</h3><table><tr><th>flag value</th>"
        f"<th>cases</th><th>causes (cases)</th></tr>{rows}</table>"
    )
