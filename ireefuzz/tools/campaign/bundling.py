"""After the campaign: one repro bundle per new cause, from its smallest recorded member, in ``out/bundles``."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path
from typing import Any

from ireefuzz.base import durable as _io
from ireefuzz.oracles.finding import Finding

from .ranking import rank
from .record import Record


def compiler_arguments(options: Any) -> list[str]:
    """The campaign's compiler options as ``ireefuzz repro`` takes them."""
    given = (
        ("--iree-compile", options.iree_compile),
        ("--release", options.release),
        ("--iree-runtime", options.iree_runtime),
    )
    return [part for flag, value in given if value for part in (flag, value)]


def bundle_new_causes(record: Record, limit: int | None, timeout: float) -> list[str]:
    """Shrink the smallest member of each new cause (the top ``limit`` of ``ranking.rank``; None = all) and write
    its bundle to
    ``out/bundles/<cause>`` (a collision-free name from the cause id); the causes bundled.

    Each runs as its own ``ireefuzz repro`` process (a finding may crash whoever runs it); a bundle
    already written (``finding.json`` present) is kept, so ``--resume`` and ``triage`` do not redo it.
    """
    rows = _io.read_jsonl(record.out / "findings.jsonl")
    todo = [record.causes[r.id] for r in rank(record)]  # most likely a real, distinct bug first (``ranking``)
    todo = [c for c in todo if c.smallest_row is not None and rows[c.smallest_row].get("case")]
    done = []
    for cause in todo[:limit]:
        bundle = record.bundle_dir(cause.id)
        if (bundle / "finding.json").exists():
            continue
        assert cause.smallest_row is not None  # todo holds causes with a row
        finding = Finding.from_json(rows[cause.smallest_row])
        finding_file = bundle.parent / f".{bundle.name}.finding.json"
        _io.atomic_write_text(finding_file, finding.with_cause(cause).dumps())
        command = [sys.executable, "-m", "ireefuzz.cli", "repro", str(finding_file), "--out", str(bundle)]
        command += compiler_arguments(record.options)
        print(f"ireefuzz: shrinking {cause.id} (case {cause.smallest_case}, {finding.signature})", file=sys.stderr)
        try:
            ran = subprocess.run(command, capture_output=True, text=True, timeout=timeout)
            tail = (ran.stdout + ran.stderr).strip().splitlines()[-3:]
            print("  " + "\n  ".join(tail), file=sys.stderr)
            done.append(cause.id)
        except subprocess.TimeoutExpired:
            print(
                f"  gave up after {timeout:.0f} s (--bundle-timeout); the finding stays in findings.jsonl",
                file=sys.stderr,
            )
        finally:
            finding_file.unlink(missing_ok=True)  # the staged input of repro; the bundle has its own finding.json
    write_index(record, [c.id for c in todo[:limit]])
    return done


def write_index(record: Record, causes: list[str]) -> Path:
    """``out/bundles/index.md``: one line per bundled cause, in the order bundled (ranked): its folder, signature,
    whether ``run.sh`` showed it, the culprit pass (or "not localized"), the likely upstream duplicate and the
    experiments' verdict (``filing.experiments``: a duplicate of a known cause is not new)."""
    import json

    lines = [
        "# Bundles",
        "",
        "One folder per new cause, in the order they were bundled. Each line: run.sh's exit "
        "status on the confirming compiler (1 = the bug is seen), the culprit phase / pass, the upstream match, "
        "the verdict of its experiments.",
        "",
    ]
    for cause in causes:
        folder = record.bundle_dir(cause)
        try:
            f = json.loads((folder / "finding.json").read_text())
        except (OSError, ValueError):
            lines.append(f"- `{cause}`: no bundle (shrinking gave up or failed)")
            continue
        c = f.get("culprit") or {}
        dup = next(iter(f.get("upstream") or ()), None)
        dup_text = (
            f"likely duplicate of {dup['issue']} ({dup['state']})" if isinstance(dup, dict) else "no upstream match"
        )
        issue = "ISSUE.md" if (folder / "ISSUE.md").exists() else "no ISSUE.md"
        tried = f.get("experiments") or {}
        verdict = (tried.get("verdict") or {}).get("line") or "no experiments"
        lines.append(
            f"- [{folder.name}]({folder.name}/) `{f.get('signature')}`: run.sh {(f.get('run_sh') or {}).get('exit')}, "
            f"{f.get('confirm', '?')}; culprit {c.get('phase') or '-'} / {c.get('pass') or 'not localized'}; "
            f"{dup_text}; {issue}; experiments: {verdict}"
        )
    index = record.out / "bundles" / "index.md"
    index.parent.mkdir(parents=True, exist_ok=True)
    _io.atomic_write_text(index, "\n".join(lines) + "\n")
    return index
