"""The known-findings baseline as the campaign uses it (file format and checks: ``ireefuzz.corpus.load_baseline``)."""
from __future__ import annotations

import dataclasses
from pathlib import Path

from ireefuzz.errors import CorpusError, UsageError


@dataclasses.dataclass(frozen=True)
class Known:
    signature: str
    status: str = ""
    upstream: str = ""
    note: str = ""


def load_baseline(path: Path | None) -> dict[str, Known]:
    if path is None:
        return {}
    from ireefuzz.corpus import load_baseline as read

    try:
        entries = read(path)
    except CorpusError as e:
        raise UsageError(f"--baseline {e}") from None
    return {sig: Known(sig, e["status"], e["upstream"], e["note"]) for sig, e in entries.items()}
