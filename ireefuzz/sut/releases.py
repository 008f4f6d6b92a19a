"""Published IREE releases: where each one's tools live, and what its compiler accepts.

A release is installed on demand into a cached virtual environment
``~/.cache/ireefuzz/releases/<version>/`` (env ``IREEFUZZ_RELEASES``; ``python -m venv`` + pip
install of the compiler and runtime wheels; the old runtimes need ``numpy<2``). Its Python runs
``ireefuzz/sut/runner.py`` (that release's own runtime, ``sut.RemoteModule``); its ``iree-compile``
compiles.

What a release accepts is data here: ``syntax_for`` (the emitter's ``Syntax`` switches),
``ops_for`` (the graph ops it can express; strategies draw only those) and
``spell_flags`` / ``adapt_command`` (flags as the release spells them, observation flags it lacks
dropped). ``bisect``, ``sut`` and ``campaign`` use this module; it never imports ``sut``.
"""

from __future__ import annotations

import dataclasses
import os
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Callable, Sequence

from ireefuzz.base.durable import atomic_write_text
from ireefuzz.errors import UsageError
from ireefuzz.generators.ops import TRANSCENDENTAL_OPS

# Published releases, oldest first: nightly-dated iree-compiler, then iree-base-compiler.
OLD_RELEASES = (
    "20230209.425",
    "20230228.444",
    "20230404.479",
    "20230419.494",
    "20230524.529",
    "20230815.614",
    "20231004.665",
    "20231113.707",
    "20231218.742",
    "20240129.785",
    "20240226.813",
    "20240410.859",
    "20240621.931",
    "20240724.964",
    "20240828.999",
    "20241104.1068",
)
BASE_RELEASES = (
    "2.9.0",
    "3.0.0",
    "3.1.0",
    "3.2.0",
    "3.3.0",
    "3.4.0",
    "3.5.0",
    "3.6.0",
    "3.7.0",
    "3.7.1",
    "3.8.0",
    "3.9.0",
    "3.10.0",
    "3.11.0",
    "3.12.0",
    "3.13.0",
)
RELEASES = OLD_RELEASES + BASE_RELEASES
DEFAULT_CACHE = Path(os.environ.get("IREEFUZZ_RELEASES", Path.home() / ".cache" / "ireefuzz" / "releases"))

# Graph ops a release lacks (generators.ops names), by the first release that has them.
# The model ops were written and checked against 3.13 (linalg.softmax, linalg.contract, iree_linalg_ext.attention
# and the pooling/conv forms they emit). Stop 40 (docs/recall.md, "Ops given to older releases") drew each one's
# forms as a campaign on 3.7.0, 3.10.0, 3.11.0 and 3.12.0 draws them (``syntax_for``), parsed them with that
# release's iree-opt and compiled and ran them there (every form parses on all four): an op is given to the oldest
# of those on which it ran with no harness error and no finding outside the classes 3.13 shows too (immutability,
# alloca, the write-affecting-global compile error of known_findings.json). On 3.7.0 the runtime died on most
# programs of the others (an argument written as a destination, as the 3.7.0 runtime's unused-argument deaths);
# sort, topk and scatter are drawn only from 3.9 (iree_linalg_ext forms), 3.10.0 the oldest checked. Releases
# before 3.7.0 were not checked.
OPS_SINCE: dict[str, str] = {
    **{op: "3.7.0" for op in ("rms_norm", "argmax", "collapse_shape", "expand_shape", "reverse", "pack", "unpack")},
    **{
        op: "3.10.0"
        for op in (
            "attention",
            "contract",
            "conv_1d_nwc_wcf",
            "conv_2d_nchw_fchw",
            "conv_2d_nhwc_hwcf",
            "depthwise_conv_2d_nhwc_hwc",
            "dequant_matmul",
            "layer_norm",
            "pooling_nchw_max",
            "pooling_nchw_sum",
            "pooling_nhwc_max",
            "pooling_nhwc_sum",
            "softmax",
            "concat",
            "scatter",
            "sort",
            "topk",
        )
    },
    "pooling_nhwc_min": "3.11.0",  # 3.10.0 gave one i32 wrong value that 10 more draws did not repeat: not judged
}
# the math functions (generators/ops/elementwise.py TRANSCENDENTAL): compiled and run clean on 3.7.0 and 3.12.0, f32
# and f16 (stop 41); not tried older. exp2 and round_even go to every release: the 2023 releases' link errors on
# them are recall bugs (#12974 exp2f, #12836 / #13522 roundevenf), as is inv_freq's f16 powf (#15661)
OPS_SINCE.update(dict.fromkeys(sorted(set(TRANSCENDENTAL_OPS) - {"exp2", "round_even"}), "3.7.0"))
# quantize's math.roundeven links against a roundevenf the older releases' runtime lacks (as fmaxf: a link
# error at every compile); 20240621.931 is the oldest release it was compiled and run on.
OPS_SINCE["quantize"] = "20240621.931"
OPS_SINCE["pow_int"] = "3.7.0"  # math.fpowi of a run-time exponent: not checked on older releases


def order_key(version: str) -> tuple:
    """Releases in time order: every dated release (2023-2024) precedes every 2.x/3.x release."""
    parts = tuple(int(p) for p in version.split("."))
    return (0, parts) if parts[0] > 10000 else (1, parts)


def known(version: str) -> str:
    """``version`` if it is a published release, else a UsageError naming the known ones."""
    if version not in RELEASES:
        raise UsageError(f"unknown IREE release {version!r}; known: {', '.join(RELEASES)}")
    return version


def packages(version: str) -> tuple[str, str, str]:
    """(compiler, runtime, numpy pin) pip requirements for ``version``."""
    if order_key(version)[0] == 0:
        return f"iree-compiler=={version}", f"iree-runtime=={version}", "numpy<2"
    numpy = "numpy<2" if order_key(version) < order_key("3.2.0") else "numpy"
    return f"iree-base-compiler=={version}", f"iree-base-runtime=={version}", numpy


# --------------------------------------------------------------------------- what a release accepts


def syntax_for(version: str):
    """The emitter's ``Syntax`` switches for ``version`` (maxf -> maximumf in 2024-02; gather from 3.9; attention's
    indexing_maps a property from 3.13; int4 weights by flow.tensor.bitcast from 20231113)."""
    from ireefuzz.generators.emit import Syntax

    return Syntax(
        maximumf=order_key(version) >= order_key("20240226.813"),
        linalg_ext_gather=order_key(version) >= order_key("3.9.0"),
        attention_maps_property=order_key(version) >= order_key("3.13.0"),
        int4_bitcast=order_key(version) >= order_key("20231113.707"),
    )


def release_of(config) -> str | None:
    """The published release a ``sut.CompilerConfig`` compiles with: ``config.release``, or the release
    whose wheel holds an external iree-compile (None for a user's build or the installed wheel)."""
    if config.release is not None or config.iree_compile is None:
        return config.release
    site = _site_packages_of(config.iree_compile)
    if site is None:
        return None
    for info in site.glob("iree*compiler-*.dist-info"):
        version = info.name[: -len(".dist-info")].rsplit("-", 1)[1]
        if version in RELEASES:
            return version
    return None


def _site_packages_of(binary: str) -> Path | None:
    return next(
        (p for p in Path(os.path.realpath(shutil.which(binary) or binary)).parents if p.name == "site-packages"), None
    )


def syntax_of(config):
    """The emitter's ``Syntax`` for what ``config`` (a ``sut.CompilerConfig``) compiles with."""
    from ireefuzz.generators.emit import MODERN

    version = release_of(config)
    return MODERN if version is None else syntax_for(version)


def ops_for(version: str) -> tuple[str, ...]:
    """The graph ops ``version`` can express (the strategies' ``ops=`` restriction)."""
    from ireefuzz.generators.ops import OP_NAMES

    return tuple(op for op in OP_NAMES if order_key(version) >= order_key(OPS_SINCE.get(op, RELEASES[0])))


def spell_flags(version: str, flags: Sequence[str]) -> list[str]:
    """``flags`` as this release spells them (``--iree-llvmcpu-*`` was ``--iree-llvm-*`` before 2023-04)."""
    if order_key(version) >= order_key("20230404.479"):
        return list(flags)
    return [f.replace("--iree-llvmcpu-", "--iree-llvm-", 1) if f.startswith("--iree-llvmcpu-") else f for f in flags]


# ireefuzz's own observation flags (sut), by name; a release without one simply observes less.
OBSERVATION_FLAGS = (
    "--iree-hal-dump-executable-sources-to",
    "--iree-hal-dump-executable-configurations-to",
    "--iree-hal-dump-executable-intermediates-to",
    "--iree-scheduling-dump-statistics-format",
    "--iree-scheduling-dump-statistics-file",
    "--mlir-print-ir-tree-dir",
    "--mlir-print-ir-before",
)


PRINTED_TO_STDERR = "--mlir-disable-threading"  # added where the observation IR is printed to stderr (see below)


def adapt_command(version: str, command: Sequence[str], supported: frozenset[str]) -> list[str]:
    """An iree-compile command line for ``version``: flags spelled its way, and the observation flags
    it lacks (``supported``: the flags its ``--help-list-hidden`` lists) dropped. Without
    ``--mlir-print-ir-tree-dir`` (before 2024-06) the IR printed before a pass goes to stderr, where
    ``sut.dumps.printed_ir`` reads it back (the memory oracle's observation points), printed on one thread
    (``--mlir-disable-threading``) so that no two dumps interleave."""
    dropped = {f for f in OBSERVATION_FLAGS if f not in supported}
    if "--mlir-print-ir-tree-dir" in dropped:  # the module after a failure would flood stderr (the diagnostic)
        dropped.add("--mlir-print-ir-after-failure")
    kept = [a for a in command[1:] if a.split("=", 1)[0] not in dropped]
    if "--mlir-print-ir-tree-dir" in dropped and any(a.startswith("--mlir-print-ir-before=") for a in kept):
        kept.append(PRINTED_TO_STDERR)
    return [command[0], *spell_flags(version, kept)]


def compile_flags_for(version: str, flags: Sequence[str], *, own: bool = False) -> list[str]:
    """A bundle's compile flags for this release (``bisect``): its target CPU becomes ``host`` (a CPU name
    newer than the release's LLVM is an error), spelled as the release spells it; unchanged for the
    bundle's ``own`` release."""
    if own:
        return list(flags)
    return spell_flags(
        version, ["--iree-llvmcpu-target-cpu=host" if f.startswith("--iree-llvmcpu-target-cpu=") else f for f in flags]
    )


# --------------------------------------------------------------------------- installed releases


@dataclasses.dataclass(frozen=True)
class Release:
    version: str
    python: str  # the venv's Python: imports that release's iree.runtime (runs ireefuzz/sut/runner.py)
    iree_compile: str
    iree_run_module: str  # absent in the 2023-04/05 runtime wheels


def _tools_in(site: Path) -> tuple[Path, Path]:
    return (
        site / "iree" / "compiler" / "_mlir_libs" / "iree-compile",
        site / "iree" / "_runtime_libs" / "iree-run-module",
    )


def current_release() -> Release | None:
    """The IREE installed next to ireefuzz (no download needed for its version)."""
    from importlib import metadata

    for dist in ("iree-base-compiler", "iree-compiler"):
        try:
            version = metadata.version(dist)
        except metadata.PackageNotFoundError:
            continue
        import iree.compiler

        site = Path(list(iree.compiler.__path__)[0]).parent.parent
        compile_, run = _tools_in(site)
        if compile_.exists() and run.exists():
            return Release(version, sys.executable, str(compile_), str(run))
    return None


def release(
    version: str, cache: Path = DEFAULT_CACHE, *, install: bool = True, log: Callable[[str], None] = lambda m: None
) -> Release:
    """The release ``version``, installed into ``cache/<version>`` on first use."""
    current = current_release()
    if current is not None and current.version == version:
        return current
    venv = cache / version
    python = venv / "bin" / "python"
    if not (venv / ".installed").exists():
        if not install:
            raise UsageError(
                f"IREE {version} is not installed in {venv} (install it: ireefuzz check --release {version} "
                "downloads it, or drop --no-install)"
            )
        log(f"installing IREE {version} into {venv}")
        shutil.rmtree(venv, ignore_errors=True)
        subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True)
        reqs = packages(version)
        proc = subprocess.run(
            [str(python), "-m", "pip", "install", "-q", "--disable-pip-version-check", *reqs],
            capture_output=True,
            text=True,
        )
        if proc.returncode != 0:
            raise UsageError(f"pip could not install {' '.join(reqs)}: {proc.stderr.strip()[-800:]}")
        atomic_write_text(venv / ".installed", " ".join(reqs) + "\n")
    sites = sorted((venv / "lib").glob("python*/site-packages"))
    if not sites:
        raise UsageError(f"{venv} is not a virtual environment; remove it and retry")
    compile_, run = _tools_in(sites[0])
    return Release(version, str(python), str(compile_), str(run))


def installed_versions(cache: Path = DEFAULT_CACHE) -> list[str]:
    found = [p.name for p in cache.glob("*") if (p / ".installed").exists()] if cache.exists() else []
    current = current_release()
    if current is not None:
        found.append(current.version)
    return sorted(set(v for v in found if v in RELEASES), key=order_key)


def runtime_python_beside(iree_compile: str) -> str | None:
    """The Python whose ``iree.runtime`` belongs to the same install as ``iree_compile``: the venv of a
    wheel (``<venv>/lib/pythonX/site-packages/iree/compiler/_mlir_libs/iree-compile``) or the
    ``python`` next to a binary in ``<venv>/bin``; None if there is none."""
    site = _site_packages_of(iree_compile)
    candidates = []
    if site is not None and (site / "iree" / "runtime").is_dir():
        candidates.append(site.parent.parent.parent / "bin" / "python")
    candidates.append(Path(os.path.abspath(iree_compile)).parent / "python")
    return next((str(c) for c in candidates if c.is_file() and os.access(c, os.X_OK)), None)
