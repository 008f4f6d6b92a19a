"""The known-findings baseline as the campaign uses it (file format and checks: ``ireefuzz.tools.corpus``).

Entries name a signature, a cause, or both. A finding is known if its signature or its cause is
listed; a cause is known if it is listed or one of its signatures is (an old signature baseline
thus covers every new dims/dtype variant of the same cause).
"""
from __future__ import annotations

import dataclasses
from pathlib import Path
from typing import Iterable, Mapping

from ireefuzz.errors import CorpusError, UsageError


@dataclasses.dataclass(frozen=True)
class Known:
    signature: str = ""
    status: str = "open"  # open | fixed | wontfix | intended
    upstream: str = ""
    note: str = ""
    cause: str = ""


@dataclasses.dataclass(frozen=True)
class Baseline:
    signatures: Mapping[str, Known] = dataclasses.field(default_factory=dict)
    causes: Mapping[str, Known] = dataclasses.field(default_factory=dict)

    def finding_known(self, signature: str, cause: str) -> Known | None:
        return self.signatures.get(signature) or self.causes.get(cause)

    def cause_known(self, cause: str, signatures: Iterable[str]) -> Known | None:
        """The entry that makes ``cause`` known: its own, else the first of its listed signatures."""
        return self.causes.get(cause) or next((self.signatures[s] for s in sorted(signatures) if s in self.signatures), None)


DEFAULT_BASELINE = Path("corpus/known_findings.json")


def baseline_path(given: str | None) -> Path | None:
    """``--baseline FILE``; else corpus/known_findings.json if it exists here (a checkout), else the one shipped
    with ireefuzz (an installed wheel run from another folder still knows the known IREE bugs), else none."""
    if given:
        return Path(given)
    if DEFAULT_BASELINE.exists():
        return DEFAULT_BASELINE
    from ireefuzz.tools.corpus import default_baseline

    shipped = default_baseline()
    return shipped if shipped.is_file() else None


def load_baseline(path: Path | None) -> Baseline:
    if path is None:
        return Baseline()
    from ireefuzz.tools.corpus import read_baseline

    try:
        entries = read_baseline(path)
    except CorpusError as e:
        raise UsageError(f"--baseline {e}") from None
    known = [Known(e["signature"], e["status"], e["upstream"], e["note"], e["cause"]) for e in entries]
    causes: dict[str, Known] = {}
    for k in sorted((k for k in known if k.cause), key=lambda k: not k.upstream):  # a cause's entry with a link first
        causes.setdefault(k.cause, k)
    return Baseline({k.signature: k for k in known if k.signature}, causes)
