"""Every bug this tool has bundled (``docs/bundles/``) is known to the shipped baseline: a fresh-seed campaign that
meets one again lists it as known, not new (round F's outsider triage: the strided gather, bundled two rounds
before, was a new cause in both runs; round G's host run: the masked attention of
``masked_contract_drop_unit_dims``)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from ireefuzz.tools.baseline import baseline_path, load

BUNDLES = Path(__file__).resolve().parent.parent / "docs" / "bundles"
FINDINGS = sorted(BUNDLES.rglob("finding.json"))


def test_the_bundles_are_found():
    assert len(FINDINGS) >= 10


@pytest.mark.parametrize("path", FINDINGS, ids=lambda p: p.parent.parent.name)
def test_a_shipped_bundles_cause_is_known(path):
    finding = json.loads(path.read_text())
    known = load(baseline_path(None)).finding_known(finding["signature"], finding["cause"])
    assert known is not None, f"{finding['cause']} ({path.parent.relative_to(BUNDLES)}) is not in the baseline"
