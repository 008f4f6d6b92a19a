"""Every oracle's record: each judge module registers its ``OracleSpec`` on import (``oracles.spec``), and this
module imports them all, so ``SPECS`` is complete wherever it is imported (as ``generators.ops`` imports every op
family). Outside the registry nothing branches on an oracle's name: it asks ``spec_of(name)``."""

from __future__ import annotations

from typing import Collection

from . import crash, fusion, immutability, memory, metamorphic, numeric  # noqa: F401  (each registers its specs)
from .spec import SPECS, Judge, OracleSpec, Stage


def spec_of(oracle: str) -> OracleSpec:
    """The record of ``oracle`` (ValueError for a name no judge registered)."""
    try:
        return SPECS[oracle]
    except KeyError:
        raise ValueError(f"unknown oracle {oracle!r}; registered: {', '.join(sorted(SPECS))}") from None


def switch_of(oracle: str) -> str:
    """The ``--oracles`` choice that runs ``oracle`` (the reference's findings come with numeric's); a name no
    judge registers is its own."""
    spec = SPECS.get(oracle)
    return spec.switched_by if spec is not None else oracle


def not_judged_subject(reason: str) -> tuple[str, str]:
    """What a not-judged reason says was not judged, and why: ``("fusion", "a producer hoisted ...")`` for a reason
    that names its oracle (``"fusion: ..."``, or ``"every oracle: ..."``), else ``("numbers", reason)`` (the
    numeric oracle's reasons name an op or a target, not themselves)."""
    oracle, _, rest = reason.partition(": ")
    return (oracle, rest) if rest and (oracle in SPECS or oracle == "every oracle") else ("numbers", reason)


def judges_at(stage: Stage, oracles: Collection[str]) -> list[tuple[OracleSpec, Judge]]:
    """The judges the pipeline calls at ``stage`` when ``oracles`` (``--oracles`` choices) are selected: every
    registered spec's that one of them switches on, in registration order."""
    return [(s, s.judges[stage]) for s in SPECS.values() if stage in s.judges and s.switched_by in oracles]


__all__ = ["SPECS", "OracleSpec", "judges_at", "spec_of", "switch_of"]
