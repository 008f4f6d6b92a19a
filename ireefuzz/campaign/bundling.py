"""After the campaign: shrink new findings and write their repro bundles into ``out/bundles``."""
from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from ireefuzz import _io
from ireefuzz.oracles.finding import Finding

from .options import Options


def bundle_new_signatures(out: Path, options: Options, limit: int, timeout: float) -> None:
    """Shrink each new signature's smallest example and write its repro bundle to ``out/bundles/<signature>``.

    Each runs as its own ``ireefuzz repro`` process (a finding may crash whoever runs it); a bundle
    already written (``finding.json`` present) is kept, so ``--resume`` does not redo it.
    """
    smallest: dict[str, dict] = {}
    for row in _io.read_jsonl(out / "findings.jsonl"):  # later examples of a signature are smaller
        if row.get("status") == "new" and row.get("case"):
            smallest[row["signature"]] = row
    for signature, row in list(smallest.items())[:limit]:
        bundle = out / "bundles" / _io.slug(signature)
        if (bundle / "finding.json").exists():
            continue
        finding_file = out / "bundles" / f".{_io.slug(signature)}.finding.json"
        _io.atomic_write_text(finding_file, Finding.from_json(row).dumps())
        command = [sys.executable, "-m", "ireefuzz.cli", "repro", str(finding_file), "--out", str(bundle)]
        if options.iree_compile:
            command += ["--iree-compile", options.iree_compile]
        print(f"ireefuzz fuzz: shrinking {signature}", file=sys.stderr)
        try:
            done = subprocess.run(command, capture_output=True, text=True, timeout=timeout)
            tail = (done.stdout + done.stderr).strip().splitlines()[-3:]
            print("  " + "\n  ".join(tail), file=sys.stderr)
        except subprocess.TimeoutExpired:
            print(f"  gave up after {timeout:.0f} s (--bundle-timeout); the finding stays in findings.jsonl",
                  file=sys.stderr)
