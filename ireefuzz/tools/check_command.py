"""The ``ireefuzz check`` command: every oracle on a user's program (``tools.check``), or with ``--bundle DIR`` a
filed-ready bundle per cause found (``tools.filing.program``). It sits above both, so neither imports upward."""

from __future__ import annotations

import argparse

from ireefuzz.errors import UsageError
from ireefuzz.tools import check
from ireefuzz.tools.filing import experiments, program

configure = check.configure


def main(args: argparse.Namespace) -> int:
    if not args.bundle:
        return check.main(args, experiments.for_check)
    prepared = check.prepare(args)
    if prepared.inputs is not None:
        raise UsageError("--bundle draws its own inputs; give --shapes, not --inputs")
    return program.main(args, prepared.text, prepared.config, prepared.policy, prepared.shapes)
