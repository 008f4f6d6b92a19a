"""This repository's own pytest glue (thin): every ``corpus/**/case.json`` is collected as tests.

The installed ireefuzz pytest plugin collects corpus directories given with ``--ireefuzz-corpus``;
when that option is used, this hook stands aside so no case is collected twice.
"""

from __future__ import annotations

from pathlib import Path

_CORPUS = Path(__file__).parent / "corpus"


def pytest_collect_file(parent, file_path):
    if file_path.name != "case.json" or _CORPUS not in file_path.parents:
        return None
    if parent.config.getoption("ireefuzz_corpus", default=None):
        return None
    from ireefuzz.pytest_items import corpus_file

    return corpus_file(parent, file_path)


def pytest_configure(config):
    """Under CI (CI=true) every Hypothesis test draws the same examples each run: a landing must not
    hinge on which random graphs came up. Locally they explore afresh each run."""
    import os

    from hypothesis import settings

    settings.register_profile("ireefuzz-repo-ci", derandomize=True, database=None)
    if os.environ.get("CI", "").lower() in ("1", "true", "yes"):
        settings.load_profile("ireefuzz-repo-ci")
