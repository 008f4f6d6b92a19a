"""``ireefuzz bisect BUNDLE``: which published IREE releases show a repro bundle's bug.

Each release is installed on demand into a cached virtual environment (``ireefuzz.sut.releases``). A
release is judged by running the bundle's own ``run.sh`` with that release's ``iree-compile`` /
``iree-run-module`` / Python (exit 1 = shows the bug, 0 = does not, anything else = could not tell), after re-emitting
``program.mlir`` from ``case.json`` in the syntax the release accepts (``emit.Syntax``), compiled with the finding's
configuration (its flags and target CPU: ``configuration_for``). A binary search over the
ordered release list (assuming one transition on each side of the release the bundle was made
with) gives "present since X", "regressed between X and Y" and/or "fixed in Z", which is written
into the bundle's ``ISSUE.md`` and ``bisect.json``.
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import re
import tempfile
import time
from pathlib import Path
from typing import Any, Callable, Mapping, Sequence

from ireefuzz.base.durable import atomic_write_json, atomic_write_text
from ireefuzz.errors import UsageError
from ireefuzz.sut.releases import (
    DEFAULT_CACHE,
    RELEASES,
    Release,
    compile_flags_for,
    installed_versions,
    order_key,
    release,
    syntax_for,
)

VERDICTS = ("present", "absent", "unknown")


# --------------------------------------------------------------------------- judging one release


@dataclasses.dataclass(frozen=True)
class Trial:
    version: str
    verdict: str  # present | absent | unknown
    detail: str  # the last lines run.sh printed
    seconds: float
    flags: tuple[
        str, ...
    ] = ()  # the compile flags run.sh was given: the finding's configuration, as this release takes it


def judge(bundle: Path, rel: Release, *, timeout: float = 600) -> Trial:
    """Run the bundle's run.sh with ``rel``'s tools on a copy of the bundle."""
    from ireefuzz.tools.filing.bundle import Bundle, copy_tree, run_in_clean_env

    started = time.perf_counter()
    loaded = Bundle.load(bundle)  # refuses flags that write files
    with tempfile.TemporaryDirectory(prefix=f"ireefuzz-bisect-{rel.version}-") as tmp:
        work = copy_tree(bundle, Path(tmp) / "bundle")
        if loaded.case is not None:
            from ireefuzz.generators.case import Case
            from ireefuzz.generators.emit import emit

            case = Case.from_json(loaded.case)
            (work / "program.mlir").write_text(emit(case.graph, "main", syntax_for(rel.version)).text)
        flags = configuration_for(rel, loaded.finding, loaded.case or {})
        code, output = run_in_clean_env(
            work / "run.sh",
            {
                "IREE_COMPILE": rel.iree_compile,
                "IREE_RUN_MODULE": rel.iree_run_module,
                "IREE_COMPILE_FLAGS": " ".join(flags),
            },
            timeout,
        )
    verdict = "present" if code == 1 else "absent" if code == 0 else "unknown"  # None: timed out
    detail = "\n".join(output.strip().splitlines()[-4:])
    return Trial(rel.version, verdict, detail, time.perf_counter() - started, tuple(flags))


_CPU_FLAG = "--iree-llvmcpu-target-cpu="


def configuration_for(
    rel: Release,
    finding: Mapping[str, Any],
    case: Mapping[str, Any],
    knows_cpu: Callable[[Release, str], bool] | None = None,
) -> list[str]:
    """The finding's configuration as ``rel`` takes it: its compile flags (else its case's target CPU and
    flags), spelled the release's way. Its target CPU is kept where the release's LLVM knows that CPU
    (``knows_cpu``: a probe compile), else it becomes ``host`` (a newer CPU name is an error there)."""
    from ireefuzz import sut

    flags = list(finding.get("flags") or sut.target_flags(case.get("target_cpu", "host"), case.get("flags", ())))
    own = str(finding.get("compiler_version", "")).startswith(rel.version)
    cpu = next((f[len(_CPU_FLAG) :] for f in flags if f.startswith(_CPU_FLAG)), "host")
    return compile_flags_for(rel.version, flags, own=own or (knows_cpu or _knows_cpu)(rel, cpu))


def _knows_cpu(rel: Release, cpu: str) -> bool:
    from ireefuzz import sut

    config = sut.CompilerConfig(iree_compile=rel.iree_compile, target_cpu=cpu, timeout_s=60.0)
    return bool(sut.resolve_platform(config)[0].name)


# --------------------------------------------------------------------------- search


@dataclasses.dataclass(frozen=True)
class BisectResult:
    versions: tuple[str, ...]  # the ordered versions searched
    trials: tuple[Trial, ...]  # in the order they ran
    first_present: str | None
    last_present: str | None

    def verdict_of(self, version: str) -> str | None:
        return next((t.verdict for t in self.trials if t.version == version), None)

    @property
    def answer(self) -> str:
        vs = list(self.versions)
        if self.first_present is None or self.last_present is None:  # both set, or neither
            return f"not reproduced on any release tested ({vs[0]} ... {vs[-1]})"
        parts = []
        i, j = vs.index(self.first_present), vs.index(self.last_present)
        before = vs[i - 1] if i > 0 else None
        after = vs[j + 1] if j < len(vs) - 1 else None
        if before is None:
            parts.append(f"present since {self.first_present} (the oldest release tested)")
        elif self.verdict_of(before) == "unknown":  # could not run there: not evidence of absence
            parts.append(
                f"present since at least {self.first_present} ({before} could not run the repro, "
                "so when it appeared is open)"
            )
        else:
            parts.append(f"regressed between {before} and {self.first_present}")
        if after is None:
            parts.append(f"still present in {self.last_present} (the newest release tested)")
        elif self.verdict_of(after) == "unknown":
            parts.append(f"present up to at least {self.last_present} ({after} could not run the repro)")
        else:
            parts.append(f"fixed in {after} (last present: {self.last_present})")
        return "; ".join(parts)


def bisect(
    versions: Sequence[str], judge_version: Callable[[str], Trial], *, known_present: str | None = None
) -> BisectResult:
    """Binary-search ``versions`` (oldest first) for the first and last release showing the bug.

    ``known_present``: a version known to show it (the bundle's own); else the newest is tried
    first, then every version from newest to oldest until one shows it. "unknown" counts as absent.
    """
    vs = sorted(dict.fromkeys(versions), key=order_key)
    trials: dict[str, Trial] = {}
    order: list[Trial] = []

    def present(v: str) -> bool:
        if v not in trials:
            trials[v] = judge_version(v)
            order.append(trials[v])
        return trials[v].verdict == "present"

    anchor = known_present if known_present in vs and present(known_present) else None
    if anchor is None:
        anchor = next((v for v in reversed(vs) if present(v)), None)
    if anchor is None:
        return BisectResult(tuple(vs), tuple(order), None, None)
    a = vs.index(anchor)
    lo, hi = 0, a  # first present in [lo, hi]
    while lo < hi:
        mid = (lo + hi) // 2
        if present(vs[mid]):
            hi = mid
        else:
            lo = mid + 1
    first = vs[lo]
    lo, hi = a, len(vs) - 1  # last present in [lo, hi]
    while lo < hi:
        mid = (lo + hi + 1) // 2
        if present(vs[mid]):
            lo = mid
        else:
            hi = mid - 1
    return BisectResult(tuple(vs), tuple(order), first, vs[lo])


def bisect_bundle(
    bundle: str | Path,
    versions: Sequence[str] | None = None,
    *,
    cache: Path = DEFAULT_CACHE,
    install: bool = True,
    log: Callable[[str], None] = lambda m: None,
) -> BisectResult:
    bundle = Path(bundle)
    if not (bundle / "run.sh").exists() or not (bundle / "finding.json").exists():
        raise UsageError(f"{bundle} is not a repro bundle (no run.sh / finding.json); make one with `ireefuzz repro`")
    versions = list(versions) if versions else list(RELEASES)
    unknown = [v for v in versions if v not in RELEASES]
    if unknown:
        raise UsageError(f"unknown IREE releases {unknown}; known: {', '.join(RELEASES)}")
    from ireefuzz.tools.filing.bundle import Bundle

    own = str(Bundle.load(bundle).finding.get("compiler_version", ""))  # a corrupt bundle: UsageError, exit 2
    known = next((v for v in versions if own.startswith(v)), None)

    def judge_version(v: str) -> Trial:
        trial = judge(bundle, release(v, cache, install=install, log=log))
        log(f"{v}: {trial.verdict} ({trial.seconds:.1f} s) {trial.detail.splitlines()[-1] if trial.detail else ''}")
        return trial

    result = bisect(versions, judge_version, known_present=known)
    record_result(bundle, result)
    return result


def past_fixes(matches: Sequence[Mapping[str, Any]], trials: Sequence[Trial]) -> list[str]:
    """What the bisection says of each matched closed issue whose fix predates the build measured: when every release
    tried from the fix's verified first release on shows the bug too (or none was tried), the fix does not cover this
    program, so it is filed as a new issue that links the old one (the #24385 review: a comment on a closed issue
    whose fix the build holds read as a stale duplicate). A release is said to hold the fix only when the table
    verified it (the mmt4d review: a first nightly tagged 3.10.0rc is no evidence that 3.10.0 holds it)."""
    lines = []
    for m in matches:
        landed = m.get("landed") or {}
        if m.get("state") != "closed" or m.get("timing") != "before-build" or not landed.get("pr"):
            continue
        first = str(landed.get("first_release") or "")
        holding = [t for t in trials if first in RELEASES and order_key(t.version) >= order_key(first)]
        if any(t.verdict != "present" for t in holding):
            continue  # absent (or untold) in a release with the fix: a regression, or no conclusion
        build = str(m.get("build") or "the build measured").split(" @")[0]
        also = (
            f"; so do {', '.join(t.version for t in sorted(holding, key=lambda t: order_key(t.version)))}, from "
            f"{first} (the first release with it) on"
            if holding
            else ""
        )
        lines.append(
            f"{m.get('issue')}'s fix ({landed.get('pr')}, {landed.get('date')}) predates {build}, which shows the "
            f"bug{also}: the fix does not cover this program. File it as a new issue that links {m.get('issue')}."
        )
    return lines


def record_result(bundle: Path, result: BisectResult) -> None:
    atomic_write_json(
        bundle / "bisect.json",
        {
            "answer": result.answer,
            "first_present": result.first_present,
            "last_present": result.last_present,
            "versions": list(result.versions),
            "trials": [dataclasses.asdict(t) | {"seconds": round(t.seconds, 1)} for t in result.trials],
        },
    )
    issue = bundle / "ISSUE.md"
    if not issue.exists():
        return
    rows = "\n".join(
        f"| {t.version} | {t.verdict} |" for t in sorted(result.trials, key=lambda t: order_key(t.version))
    )
    finding = json.loads((bundle / "finding.json").read_text()) if (bundle / "finding.json").exists() else {}
    after_fix = "".join(f"\n{line}\n" for line in past_fixes(finding.get("upstream") or (), result.trials))
    section = (
        f"## Bisection\n\n**{result.answer}.**\n{after_fix}\nReleases tried (pip wheels, `run.sh` with each "
        f"release's own `iree-compile` / `iree-run-module`):\n\n| release | bug |\n|---|---|\n{rows}\n"
    )
    text = issue.read_text()
    for m in finding.get("upstream") or ():
        if past_fixes([m], result.trials):  # the upstream section's "likely duplicate" read before the bisection
            lead = re.compile(
                rf"^- \*\*likely duplicate of {re.escape(str(m.get('issue')))} \((.*?)(?:: [^:)]*)?\)\*\*", re.M
            )
            text = lead.sub(
                lambda k: f"- **not covered by the fix of {m.get('issue')} ({k.group(1)}; see Bisection)**", text
            )
    text, n = re.subn(r"## Bisection\n.*?(?=\n---\n|\n## |\Z)", section.rstrip("\n") + "\n", text, count=1, flags=re.S)
    if n == 0:  # the writer leaves no placeholder ("not run yet"): the section goes before the footer
        at = text.rfind("\n---\n")
        text = (
            text[:at].rstrip("\n") + "\n\n" + section + text[at:] if at >= 0 else text.rstrip("\n") + "\n\n" + section
        )
    atomic_write_text(issue, text)


# --------------------------------------------------------------------------- CLI


def configure(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("bundle", metavar="BUNDLE", help="a repro bundle directory written by `ireefuzz repro`")
    parser.add_argument(
        "--versions",
        dest="versions",
        metavar="V,V,...",
        default=None,
        help="comma-separated releases to search (default: all, "
        f"{RELEASES[0]} ... {RELEASES[-1]}); 'installed' = those already cached",
    )
    parser.add_argument(
        "--cache",
        dest="cache",
        metavar="DIR",
        type=Path,
        default=DEFAULT_CACHE,
        help=f"where release virtual environments live (default {DEFAULT_CACHE})",
    )
    parser.add_argument(
        "--no-install", dest="install", action="store_false", help="only use releases already installed in the cache"
    )


def main(args: argparse.Namespace) -> int:
    if args.versions == "installed":
        versions = installed_versions(args.cache)
    elif args.versions:
        versions = [v.strip() for v in args.versions.split(",") if v.strip()]
    else:
        versions = None
    result = bisect_bundle(
        args.bundle, versions, cache=args.cache, install=args.install, log=lambda m: print(f"  {m}", flush=True)
    )
    print(result.answer)
    return 1 if result.first_present else 0
