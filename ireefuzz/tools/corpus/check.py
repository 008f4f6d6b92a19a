"""Checking a corpus case: the oracles run on it (``check_case``), its findings as verdicts, and the repro
message of an unexpected finding."""

from __future__ import annotations

import shlex
from pathlib import Path
from typing import Any, Sequence

from ireefuzz.tools.corpus.format import PROGRAM_FILE, CorpusCase


def check_case(corpus_case: CorpusCase, config: Any = None, policy: Any = None) -> list:
    """Run the oracles on one corpus case; returns Findings (one per signature)."""
    from ireefuzz import sut
    from ireefuzz.core.evaluate import Policy, config_for, evaluate
    from ireefuzz.oracles.finding import first_per_signature
    from ireefuzz.sut import isolated
    from ireefuzz.tools import check

    config = config or sut.CompilerConfig()
    policy = policy or Policy(run_timeout_s=isolated.DEFAULT_RUN_TIMEOUT_S)  # a case's runs are bounded
    if corpus_case.case is None or corpus_case.compile_only:
        run_config = config_for(corpus_case.case if corpus_case.case is not None else corpus_case, config)
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

        for relation in corpus_case.relations:
            findings += check_relation(relation, corpus_case.case, config)
    return first_per_signature(findings)


def verdicts(findings: Sequence[Any]) -> dict[str, list[str]]:
    """Findings -> the ``expected`` mapping (oracle -> sorted signatures)."""
    out: dict[str, list[str]] = {}
    for f in findings:
        oracle = "numeric" if f.oracle == "reference" else f.oracle
        out.setdefault(oracle, []).append(f.signature)
    return {k: sorted(set(v)) for k, v in sorted(out.items())}


def compile_command(corpus_case: CorpusCase, config: Any = None) -> str:
    """The iree-compile command line that compiles the case's program (for repro messages)."""
    from ireefuzz import sut

    config = config or sut.CompilerConfig()
    program = (corpus_case.path / PROGRAM_FILE) if corpus_case.path else Path(PROGRAM_FILE)
    case_config = sut.config_for(corpus_case.case if corpus_case.case is not None else corpus_case, config)
    return shlex.join(sut.compile_command(case_config, program, "/tmp/out.vmfb"))


def repro_message(corpus_case: CorpusCase, unexpected: Sequence[Any], config: Any = None) -> str:
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
