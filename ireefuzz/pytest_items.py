"""The pytest items of the corpus: each case (its ``case.json``) is a collector whose items are one check
that no unexpected finding shows, plus one strict xfail per expected signature (the layout and the verdicts
are described in ``ireefuzz.tools.corpus``).

A verdict is judged for the case's target (``corpus.target_of``): a signature recorded for another x86-64 level
is skipped, saying which (its item's name says the level it needs: ``case[x86-64-v4:memory/copy/...]``); one a run
shows is "not judged" (skipped with the reason) where the target's code cannot run on this host. A case for
``host`` is compiled for the host's level (``corpus.as_recorded``): features beyond it were never recorded.

Loaded by the plugin (``_pytestplugin.CorpusFile``) and the repository's conftest only when a corpus is
collected, so the plugin itself stays import-light.
"""

from __future__ import annotations

import dataclasses
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest

from ireefuzz import sut
from ireefuzz.errors import CorpusFailure
from ireefuzz.oracles.finding import ORACLE_NAMES, Signature  # ORACLE_NAMES: chosen by Policy.oracles
from ireefuzz.tools.corpus import (
    CorpusCase,
    Target,
    as_recorded,
    check_case,
    load_case,
    repro_message,
    seen_without_running,
)
from ireefuzz.tools.corpus import target_of as _target_of

if TYPE_CHECKING:
    from _pytest._code.code import TerminalRepr

    from ireefuzz.core.policy import Policy  # what Item.repr_failure returns; pytest does not export it


_RESULTS: dict[tuple, Any] = {}
_TARGETS: dict[tuple, Target] = {}


def _result(corpus_case: CorpusCase, config: sut.CompilerConfig, policy: Policy) -> list:
    """check_case once per (case, config, policy) per process; an exception is re-raised to every item."""
    key = (str(corpus_case.path), config, policy)
    if key not in _RESULTS:
        try:
            _RESULTS[key] = check_case(corpus_case, config, policy)
        except Exception as e:  # noqa: BLE001 - re-raised by each item of the case
            _RESULTS[key] = e
    outcome = _RESULTS[key]
    if isinstance(outcome, Exception):
        raise outcome
    return outcome


def target_of(corpus_case: CorpusCase, config: sut.CompilerConfig) -> Target:
    """``corpus.target_of`` once per (case, config) per process."""
    key = (str(corpus_case.path), config)
    if key not in _TARGETS:
        _TARGETS[key] = _target_of(corpus_case, config)
    return _TARGETS[key]


class CorpusItem(pytest.Item):
    """One check of a corpus case: ``signature=None`` -> no unexpected finding; else the expected
    ``signature`` must be absent (marked strict xfail, so it xfails while IREE shows it)."""

    def __init__(
        self, *, corpus_case: CorpusCase, signature: str | None, ireefuzz_config: Any, ireefuzz_policy: Any, **kw: Any
    ):
        super().__init__(**kw)
        self.corpus_case, self.signature, self.ireefuzz_config, self.ireefuzz_policy = (
            corpus_case,
            signature,
            ireefuzz_config,
            ireefuzz_policy,
        )
        self.add_marker("iree")
        if signature is not None:
            self.add_marker(pytest.mark.xfail(strict=True, reason=f"known finding {signature}"))

    def runtest(self) -> None:
        case, target = self.corpus_case, target_of(self.corpus_case, self.ireefuzz_config)
        expected = case.expected_at(target.level)
        if self.signature is not None:
            from ireefuzz.oracles.registry import switch_of

            oracle = switch_of(Signature.parse(self.signature).oracle)
            if oracle in ORACLE_NAMES and oracle not in self.ireefuzz_policy.oracles:
                pytest.skip(f"oracle {oracle} is not selected")
            if self.signature not in expected:
                pytest.skip(
                    f"recorded for a target at {' or '.join(case.levels_of(self.signature))}; "
                    f"this one, {target}, is not: not asserted here"
                )
            if target.not_run and not seen_without_running(self.signature):
                pytest.skip(f"not judged: a run shows it, and this target is compiled only ({target.not_run})")
        checked = as_recorded(case, target, self.ireefuzz_config)  # host at its level: what was recorded
        found = {f.signature: f for f in _result(checked, self.ireefuzz_config, self.ireefuzz_policy)}
        holds = (self.signature in found) if self.signature is not None else not (set(found) - expected)
        if not holds and target.level is None and case.levels:
            pytest.skip(
                f"verdicts of {case.name} were recorded for {', '.join(case.levels)}; its target here, {target}, "
                f"lacks {', '.join(target.lacks) or 'their features'}: re-record them for it "
                "(python corpus/make_seeds.py --record)"
            )
        if self.signature is not None:
            if self.signature in found:
                raise CorpusFailure(f"{self.signature} still observed: {found[self.signature].message}")
            return  # fixed in IREE: passes, and strict xfail reports XPASS(strict) as a failure
        unexpected = [f for s, f in found.items() if s not in expected]
        if unexpected:
            raise CorpusFailure(repro_message(checked, unexpected, self.ireefuzz_config))

    def repr_failure(self, excinfo: Any, style: Any = None) -> str | TerminalRepr:
        if isinstance(excinfo.value, CorpusFailure):
            return str(excinfo.value)
        return super().repr_failure(excinfo, style)

    def reportinfo(self) -> tuple:
        return self.path, None, f"corpus {self.corpus_case.name}" + (f" [{self.signature}]" if self.signature else "")


class CorpusFile(pytest.File):
    def collect(self) -> list:
        return collect(self, self.path)


def collect(
    parent: Any, path: str | Path, *, config: sut.CompilerConfig | None = None, policy: Policy | None = None
) -> list:
    """pytest items for the case whose ``case.json`` is ``path``: one that fails on unexpected
    findings, plus one strict xfail per expected signature. ``parent`` is a pytest Collector."""
    from ireefuzz.core.policy import Policy

    corpus_case = load_case(Path(path).parent)
    config = config or sut.CompilerConfig.from_options(parent.config.option, prefix="ireefuzz_")
    if policy is None:  # the plugin's policy options (core.policy); every run bounded
        policy = Policy.from_options(parent.config.option, prefix="ireefuzz_")
        policy = policy if policy.run_timeout_s else dataclasses.replace(policy, run_timeout_s=60.0)
    items = [
        CorpusItem.from_parent(
            parent,
            name=corpus_case.name,
            corpus_case=corpus_case,
            signature=None,
            ireefuzz_config=config,
            ireefuzz_policy=policy,
        )
    ]
    for sig in sorted(corpus_case.expected_signatures):
        needs = "|".join(corpus_case.levels_of(sig))  # the levels it is asserted at; none: every target
        items.append(
            CorpusItem.from_parent(
                parent,
                name=f"{corpus_case.name}[{needs + ':' if needs else ''}{sig}]",
                corpus_case=corpus_case,
                signature=sig,
                ireefuzz_config=config,
                ireefuzz_policy=policy,
            )
        )
    return items


def corpus_file(parent: Any, path: str | Path) -> Any:
    """A pytest File collector for one ``case.json`` (for ``pytest_collect_file`` hooks)."""
    return CorpusFile.from_parent(parent, path=Path(path))
