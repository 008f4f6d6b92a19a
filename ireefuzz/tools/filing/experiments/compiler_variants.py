"""Variants of how a case is compiled, a graph ``Case`` and a raw ``ProgramCase`` alike: another CPU (``CPUS``;
``host`` described by what this machine adds), one CPU feature added, the target oracle's compiler policies, and
for a wrong value the other CPU backend (``backend_experiments``)."""

from __future__ import annotations

import dataclasses
import re
from typing import Any, Callable, Iterable, Iterator

from ireefuzz.oracles.registry import SPECS

from .table import FEATURE_LABEL, Experiment

CPUS = ("generic", "x86-64-v3", "host")
CannotRun = Callable[[str], "str | None"]  # a CPU -> why this machine cannot run code for it, or None
CannotFlag = Callable[[tuple[str, ...]], "str | None"]  # the case's flags -> why this machine cannot run it, or None


def cpu_experiments(case: Any, cannot_run: CannotRun) -> Iterator[Experiment]:
    """The case for each of ``CPUS`` it does not already target; a CPU whose code this machine cannot run
    (``cannot_run`` says why) is compiled only."""
    for cpu in CPUS:
        if cpu != case.target_cpu:
            yield Experiment(
                f"cpu={cpu}",
                f"`--iree-llvmcpu-target-cpu={cpu}`{host_named(cpu)} instead of `{case.target_cpu}`",
                dataclasses.replace(case, target_cpu=cpu),
                cannot_run(cpu) or "",
            )


def host_named(cpu: str) -> str:
    """The CPU ``host`` resolves to on this machine (`` (here `znver4`)``), for a claim about it that a reader's
    machine may not share; "" for any other. The features it adds are said once, where the report says which CPUs
    reproduce (``host_description``): the review found the list repeated in every row padding."""
    if cpu != "host":
        return ""
    name = _resolved("host").name
    return f" (here `{name}`)" if name else ""


def host_description() -> str:
    """``host`` on this machine in words a reader can act on: the CPU LLVM names it after and the features this
    machine adds to that CPU (the review: `rocketlake` here has +avx512fp16, which `-cpu=rocketlake` lacks, so "host
    compiles it" misled)."""
    host = _resolved("host")
    if not host.name:
        return "`host`"
    extra = sorted(_enabled(host.features) - _enabled(_resolved(host.name).features))
    shown = ", ".join(f"`{f}`" for f in extra[:8]) + (", ..." if len(extra) > 8 else "")
    return f"`{host.name}`" + (f" with {shown} beyond `-cpu={host.name}`" if extra else "")


def _resolved(cpu: str) -> Any:
    from ireefuzz import sut

    return sut.resolve_platform(sut.CompilerConfig(target_cpu=cpu))[0]


def _enabled(features: str) -> set[str]:
    return {f for f in features.split(",") if f.startswith("+") and f != "+64bit"}


def feature_experiments(
    case: Any, have: str | None, features: Iterable[str], cannot_run: CannotFlag
) -> Iterator[Experiment]:
    """The case on its own CPU with one feature added (``+f16c``), for each of ``features`` (those a known cause
    shows only without) that ``have`` (the CPU's resolved "+a,-b" features; None: unknown, no variant) lacks.
    ``cannot_run`` says why this machine cannot run code with those flags, or None."""
    from ireefuzz.sut.config_space import FEATURES_FLAG, enabled

    if have is None or any(f.startswith(FEATURES_FLAG + "=") for f in case.flags):
        return
    for feature in sorted(set(features) - enabled(have)):
        flags = (*case.flags, f"{FEATURES_FLAG}=+{feature}")
        yield Experiment(
            f"{FEATURE_LABEL}{feature}",
            f"`{FEATURES_FLAG}=+{feature}` on `{case.target_cpu}`",
            dataclasses.replace(case, flags=flags),
            cannot_run(flags) or "",
        )


def policy_experiments(case: Any, oracle: str, known_flags: frozenset[str] | None = None) -> Iterator[Experiment]:
    """The case compiled with each compiler policy flag of the target's oracle (``OracleSpec.policies``: fusion's
    aggressive fusion, numeric's microkernels off) in place of the case's own value of that flag, where the case
    does not pass it already and the compiler has it (``known_flags``, the option names its help lists; None:
    not known, every one); a graph case and a raw program alike."""
    spec = SPECS.get(oracle)
    for label, flag in spec.policies if spec is not None else ():
        name = flag.split("=", 1)[0]
        if flag in case.flags or (known_flags is not None and name not in known_flags):
            continue
        flags = (*(f for f in case.flags if f.split("=", 1)[0] != name), flag)
        yield Experiment(label, f"`{flag}`", dataclasses.replace(case, flags=flags))


BACKEND_VMVX = "backend=vmvx"  # the label: wrong there too, the defect is not llvm-cpu's codegen alone


def backend_experiments(case: Any, oracle: str) -> Iterator[Experiment]:
    """For a wrong value (``numeric`` / ``reference``), the case on vmvx, IREE's reference CPU backend, instead of
    llvm-cpu (the ``backend`` relation's variant, #24927): the same dispatches with another codegen, so wrong on both
    the defect is before or beside codegen (stop 46: the cond's packed results, a host-side offset, had been titled
    [llvm-cpu]). Not for a program with f16 / bf16, which vmvx does not compile."""
    from ireefuzz.core.relations import VMVX_LACKS
    from ireefuzz.sut.commands import VMVX_FLAGS

    spec = SPECS.get(oracle)
    graph = getattr(case, "graph", None)  # a raw program's case has none: its text
    program = graph.dumps() if graph is not None else str(getattr(case, "program", ""))
    if spec is None or spec.switched_by != "numeric" or re.search(rf"\b({'|'.join(VMVX_LACKS)})\b", program):
        return
    yield Experiment(
        BACKEND_VMVX,
        f"`{VMVX_FLAGS[0]}` (IREE's reference CPU backend) instead of llvm-cpu",
        dataclasses.replace(case, flags=(*case.flags, *VMVX_FLAGS)),
    )
