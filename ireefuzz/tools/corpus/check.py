"""Checking a corpus case: the oracles run on it (``check_case``), the target it is judged for (``target_of``:
its recorded level, and why it is not run), its verdicts recorded per x86-64 level (``record``), and the repro
message of an unexpected finding."""

from __future__ import annotations

import dataclasses
import shlex
from pathlib import Path
from typing import TYPE_CHECKING, Any, Callable, Iterable, Sequence

from ireefuzz.oracles.finding import Signature
from ireefuzz.tools.corpus.format import PROGRAM_FILE, CorpusCase

if TYPE_CHECKING:
    from ireefuzz.core.policy import Policy
    from ireefuzz.sut import CompilerConfig

RECORD_LEVELS = ("x86-64", "x86-64-v3", "x86-64-v4")  # what ``record`` records a case targeting ``host`` for


@dataclasses.dataclass(frozen=True)
class Target:
    """What a corpus case is judged as here: its target CPU as resolved, the recorded level it is at, and why its
    code is compiled but not run."""

    cpu: str  # the case's target CPU as its compiler resolves it (``host`` as ``sut.host_cpu`` takes it)
    level: str | None  # the highest of ``CorpusCase.levels`` whose features it has; None: none (or none recorded)
    lacks: tuple[str, ...] = ()  # with no level: the features of the least recorded level it lacks
    not_run: str | None = None  # why it is compiled only (``sut.config_space.cannot_run``, a compile-only case)

    def __str__(self) -> str:
        return f"{self.cpu} (at {self.level})" if self.level else self.cpu


def target_of(corpus_case: CorpusCase, config: CompilerConfig | None = None) -> Target:
    """The target ``corpus_case`` is checked for with ``config``, decided by the features its compiler resolves
    (probe compiles, once per process), not by CPU names."""
    from ireefuzz import sut
    from ireefuzz.sut import config_space

    config = sut.config_for(_own(corpus_case), config or sut.CompilerConfig())
    not_run = "compile-only case" if corpus_case.compile_only else config_space.cannot_run(config)
    if not corpus_case.levels:  # recorded for any target
        return Target(config.target_cpu, None, (), not_run)
    have = config_space.features_of(config)
    cpu = sut.resolve_platform(config)[0].name or config.target_cpu
    levels = {
        level: features
        for level in corpus_case.levels
        if (features := config_space.features_of(dataclasses.replace(config, target_cpu=level, flags=()))) is not None
    }
    level = config_space.highest(have, levels) if have is not None else None
    least = min(levels.values(), key=lambda f: len(config_space.enabled(f)), default="")
    return Target(cpu, level, config_space.lacking(have or "", least) if level is None else (), not_run)


def seen_without_running(signature: str) -> bool:
    """Whether a compile alone can show ``signature`` (its oracle's ``OracleSpec.reads_run``: memory, fusion, a
    compile crash, a relation's memory-profile asymmetry). Any other verdict needs a run: where the target's code
    cannot run, it is not judged."""
    from ireefuzz.oracles.registry import SPECS

    s = Signature.parse(signature)
    spec = SPECS.get(s.oracle)
    return spec is not None and not spec.reads_run(s.kind)


def check_case(corpus_case: CorpusCase, config: CompilerConfig | None = None, policy: Policy | None = None) -> list:
    """Run the oracles on one corpus case; returns Findings (one per signature)."""
    from ireefuzz import sut
    from ireefuzz.core.evaluate import Policy, config_for, evaluate
    from ireefuzz.oracles.finding import first_per_signature
    from ireefuzz.sut import isolated
    from ireefuzz.tools import check

    config = config or sut.CompilerConfig()
    policy = policy or Policy(run_timeout_s=isolated.DEFAULT_RUN_TIMEOUT_S)  # a case's runs are bounded
    if corpus_case.case is None or corpus_case.compile_only:
        run_config = config_for(_own(corpus_case), config)
        findings = check.check_program(
            corpus_case.program_text(),
            run_config,
            policy,
            functions=corpus_case.functions or None,
            shapes=dict(corpus_case.shapes),
            seed=corpus_case.seed,
            compile_only=corpus_case.compile_only,
        )
    else:
        (result,) = evaluate([corpus_case.case], config, policy)
        findings = list(result.findings)
    if corpus_case.case is not None and not corpus_case.compile_only:
        from ireefuzz.core.relations import check_relation
        from ireefuzz.sut import config_space

        run = not config_space.cannot_run(config_for(corpus_case.case, config))  # else the relations compare IR only
        for relation in corpus_case.relations:
            findings += check_relation(relation, corpus_case.case, config, run=run)
    return first_per_signature(findings)


def verdicts(findings: Sequence[Any]) -> dict[str, list[str]]:
    """Findings -> the ``expected`` mapping (oracle -> sorted signatures)."""
    return {k: sorted(v) for k, v in _grouped(f.signature for f in findings).items()}


def _grouped(signatures: Iterable[str]) -> dict[str, tuple[str, ...]]:
    """Signatures as a verdict: oracle (a reference finding's is ``numeric``) -> sorted signatures."""
    from ireefuzz.oracles.registry import switch_of

    out: dict[str, set[str]] = {}
    for signature in signatures:
        oracle = Signature.parse(signature).oracle
        out.setdefault(switch_of(oracle), set()).add(signature)
    return {k: tuple(sorted(v)) for k, v in sorted(out.items())}


def record(
    corpus_case: CorpusCase,
    config: CompilerConfig | None = None,
    policy: Policy | None = None,
    *,
    levels: Sequence[str] = RECORD_LEVELS,
    old: CorpusCase | None = None,
    log: Callable[[str], None] = lambda line: None,
) -> CorpusCase:
    """``corpus_case`` with its verdicts measured here: per level of ``levels`` for a case targeting ``host`` (its
    target taken as each), at its own target for a pinned one. What every level shows is ``expected``, the rest
    each level's part of ``expected_by_level``; ``cpu`` is the least level. A level this host cannot run is
    compiled only: the verdicts a run shows there are kept from ``old`` (another machine's record), so a record
    on one machine never erases another's."""
    from ireefuzz import sut

    own = _own(corpus_case).target_cpu
    targets = tuple(levels) if own == "host" else (own,)
    shown: dict[str, set[str]] = {}
    for cpu in targets:
        at = targeting(corpus_case, cpu)
        shown[cpu] = {f.signature for f in check_case(at, config, policy)}
        not_run = target_of(at, config).not_run
        if not_run and old is not None:
            previous = old.expected_at(target_of(targeting(old, cpu), config).level)
            shown[cpu] |= {s for s in previous if not seen_without_running(s)}
        log(f"{cpu}: {sorted(shown[cpu])}" + (f" (compiled only: {not_run})" if not_run else ""))
    common = set.intersection(*shown.values())
    return dataclasses.replace(
        corpus_case,
        expected=_grouped(common),
        expected_by_level={cpu: _grouped(s - common) for cpu, s in shown.items()} if len(targets) > 1 else {},
        cpu=targets[0],
        iree_version=sut.resolve_platform(config or sut.CompilerConfig())[1],
    )


def _own(corpus_case: CorpusCase) -> Any:
    """What holds the case's target CPU and flags: its graph ``Case``, or the raw-MLIR case itself."""
    return corpus_case.case if corpus_case.case is not None else corpus_case


def targeting(corpus_case: CorpusCase, cpu: str) -> CorpusCase:
    """``corpus_case`` pinned to the target CPU ``cpu`` (its graph case too)."""
    case = corpus_case.case
    return dataclasses.replace(
        corpus_case, target_cpu=cpu, case=dataclasses.replace(case, target_cpu=cpu) if case is not None else None
    )


def as_recorded(corpus_case: CorpusCase, target: Target, config: CompilerConfig | None = None) -> CorpusCase:
    """``corpus_case`` as its verdict was recorded for ``target``: a case compiled for ``host`` pinned to the
    host's level (``record`` compiles each level by its name), since a host has features beyond its level (a
    Sapphire Rapids host at ``x86-64-v4`` has AVX-512 FP16 and AMX) that change codegen and were never recorded;
    else as it is."""
    from ireefuzz import sut

    if target.level is None or sut.config_for(_own(corpus_case), config or sut.CompilerConfig()).target_cpu != "host":
        return corpus_case
    return targeting(corpus_case, target.level)


def compile_command(corpus_case: CorpusCase, config: CompilerConfig | None = None) -> str:
    """The iree-compile command line that compiles the case's program (for repro messages)."""
    from ireefuzz import sut

    config = config or sut.CompilerConfig()
    program = (corpus_case.path / PROGRAM_FILE) if corpus_case.path else Path(PROGRAM_FILE)
    case_config = sut.config_for(_own(corpus_case), config)
    return shlex.join(sut.compile_command(case_config, program, "/tmp/out.vmfb"))


def repro_message(corpus_case: CorpusCase, unexpected: Sequence[Any], config: CompilerConfig | None = None) -> str:
    lines = [f"corpus case {corpus_case.name}: {len(unexpected)} unexpected finding(s)"]
    for f in unexpected:
        lines.append(f"  {f.signature}\n      {f.message}")
    program = (corpus_case.path / PROGRAM_FILE) if corpus_case.path else PROGRAM_FILE
    lines += [
        f"program: {program}",
        f"repro:   {compile_command(corpus_case, config)}",
        "(if the finding is real and triaged, add its signature to 'expected' in case.json, "
        "or re-record with corpus/make_seeds.py --record)",
    ]
    return "\n".join(lines)
