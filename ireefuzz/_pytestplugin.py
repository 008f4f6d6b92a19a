"""ireefuzz's pytest plugin (registered through the ``pytest11`` entry point).

Import-light on purpose, like Hypothesis's ``_hypothesis_pytestplugin``: pytest loads this module in
every session of every environment where ireefuzz is installed, so it imports nothing but the
standard library and pytest at load. IREE, JAX, NumPy and Hypothesis are imported inside the hooks
and fixtures that need them. A test (``tests/test_plugin.py``) keeps it that way.

Options (one group, one prefix; ``--iree-compile`` / ``--iree-target-cpu`` name IREE's own things):

  --iree-compile PATH          test this iree-compile build instead of the installed wheel's
  --iree-target-cpu CPU        host, generic, x86-64-v3, x86-64-v4 or any LLVM CPU name
  --iree-release VERSION       test a published IREE release (its compiler and its own runtime)
  --iree-runtime PYTHON        a Python whose iree.runtime matches --iree-compile
  --ireefuzz-oracles a,b       which oracles run (numeric, immutability, crash, memory, fusion)
  --ireefuzz-max-static-alloca-bytes BYTES  static allocas up to BYTES outside loops are not findings
                               (``--ireefuzz-max-alloca``, its old spelling, still works)
  --ireefuzz-run-timeout SECONDS, --ireefuzz-max-memory BYTES  each run bounded in time and memory
  (the policy options, declared once in ``ireefuzz.core.policy`` for the plugin, ``check`` and ``fuzz``)
  --ireefuzz-baseline FILE     known causes (and signatures): reported as warnings, never failures
  --ireefuzz-bundles DIR       where failing checks write repro bundles (default: pytest's tmp dir)
  --ireefuzz-corpus DIR        collect each corpus case under DIR as a test
  --ireefuzz-mlir              collect the repository's ``.mlir`` files as tests

Hypothesis profiles: ``ireefuzz-ci`` (short, derandomized) and ``ireefuzz-nightly`` (long); pick
one with ``--hypothesis-profile``.
"""

from __future__ import annotations

import argparse
import os
from pathlib import Path
from typing import Any

import pytest

from ireefuzz.base.compiler_options import add_compiler_options
from ireefuzz.core.policy import add_policy_options  # light: no IREE, JAX or NumPy at plugin load

_HARNESS_FIXTURES = {"ireefuzz_check", "iree_sut", "check_jax"}
PLUGIN_POLICY_OPTIONS = ("oracles", "max_static_alloca_bytes", "run_timeout_s", "max_memory")  # core.policy's table
PLUGIN_POLICY_DEFAULTS = {"run_timeout_s": 60.0}  # every run bounded: a test must end

PROFILES: dict[str, dict[str, Any]] = {
    # A pull-request budget: few examples, reproducible (derandomized), no deadline (compiles take seconds).
    "ireefuzz-ci": dict(max_examples=10, derandomize=True, deadline=None, print_blob=True),
    # The nightly budget: many examples, fresh randomness each night.
    "ireefuzz-nightly": dict(max_examples=1000, deadline=None, print_blob=True),
}


# --------------------------------------------------------------------------- option types
# argparse turns an ArgumentTypeError into a pytest.UsageError naming the option.


def _existing_file(value: str) -> Path:
    if not os.path.isfile(value):
        raise argparse.ArgumentTypeError(f"{value!r} is not a file")
    return Path(value).resolve()


def _existing_dir(value: str) -> Path:
    if not os.path.isdir(value):
        raise argparse.ArgumentTypeError(f"{value!r} is not a directory")
    return Path(value).resolve()


def _writable_dir(value: str) -> Path:
    """A directory that exists or can be made, and can be written: checked at start, not at the first finding."""
    path = Path(value).resolve()
    try:
        path.mkdir(parents=True, exist_ok=True)
    except OSError as e:
        raise argparse.ArgumentTypeError(
            f"{value!r} cannot be used as a directory ({e.strerror}); give a writable directory"
        )
    if not os.access(path, os.W_OK | os.X_OK):
        raise argparse.ArgumentTypeError(f"{value!r} is not writable; give a writable directory")
    return path


def pytest_addoption(parser: pytest.Parser) -> None:
    group = parser.getgroup("ireefuzz", "ireefuzz: differential fuzzing of IREE's CPU code generation")
    add_compiler_options(group.addoption, dest_prefix="ireefuzz_", aliases=False)  # as ireefuzz check / fuzz / repro
    add_policy_options(group.addoption, PLUGIN_POLICY_OPTIONS, plugin=True, defaults=PLUGIN_POLICY_DEFAULTS)
    group.addoption(
        "--ireefuzz-baseline",
        dest="ireefuzz_baseline",
        metavar="FILE",
        type=_existing_file,
        default=None,
        help="known-findings baseline: findings of these causes (or signatures) are reported as warnings, not failures",
    )
    group.addoption(
        "--ireefuzz-bundles",
        dest="ireefuzz_bundles",
        metavar="DIR",
        type=_writable_dir,
        default=None,
        help="directory where a failing check writes its repro bundle (default: under pytest's basetemp)",
    )
    group.addoption(
        "--ireefuzz-corpus",
        dest="ireefuzz_corpus",
        metavar="DIR",
        type=_existing_dir,
        default=None,
        help="collect every corpus case under DIR (a directory holding case.json) as a test",
    )
    group.addoption(
        "--ireefuzz-mlir",
        dest="ireefuzz_mlir",
        action="store_true",
        default=False,
        help="collect the .mlir files under the test paths as tests (crash, memory, fusion; "
        "immutability and numeric too with a <name>.inputs.json next to the file)",
    )


@pytest.hookimpl(tryfirst=True)  # before Hypothesis's plugin loads --hypothesis-profile
def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line("markers", "iree: compiles and runs with the real IREE compiler and runtime")
    config.addinivalue_line("markers", "ireefuzz_known(signature): a finding with this signature is expected")
    from hypothesis import HealthCheck, settings

    slow = [HealthCheck.too_slow, HealthCheck.data_too_large]
    for name, values in PROFILES.items():
        settings.register_profile(name, suppress_health_check=slow, **values)
    _check_baseline(config)
    _probe_compiler(config)
    corpus = config.getoption("ireefuzz_corpus", None)
    if corpus is not None and not any(_is_within(corpus, Path(a.split("::")[0]).resolve()) for a in config.args):
        config.args.append(str(corpus))  # collect the corpus even when it is outside the test paths


def _check_baseline(config: pytest.Config) -> None:
    """A malformed baseline stops pytest with one line, not an ERROR per test."""
    path = config.getoption("ireefuzz_baseline", None)
    if path is None:
        return
    from ireefuzz import testing
    from ireefuzz.errors import IreefuzzError

    try:
        testing.load_baseline(path)
    except (IreefuzzError, ValueError, KeyError, TypeError, UnicodeDecodeError) as e:
        raise pytest.UsageError(
            f"--ireefuzz-baseline {path}: {str(e).splitlines()[0] if str(e) else type(e).__name__}"
            "; give a known-findings JSON file (format: ireefuzz.tools.baseline)"
        )


def _probe_compiler(config: pytest.Config) -> None:
    """A given --iree-compile or --iree-target-cpu that cannot compile a tiny program (not an iree-compile, a
    bogus CPU) stops pytest with one line at start, not a false finding per test. Once, in the controller;
    only when one of them is given (the installed wheel for the host needs no probe)."""
    binary, cpu = config.getoption("ireefuzz_iree_compile", None), config.getoption("ireefuzz_target_cpu", "host")
    release = config.getoption("ireefuzz_release", None)
    if release is not None:  # the one check of a release name, as ireefuzz check's
        from ireefuzz.errors import UsageError
        from ireefuzz.sut import releases

        try:
            releases.known(release)
        except UsageError as e:
            raise pytest.UsageError(f"--iree-release: {e}") from None
    if (binary is None and cpu == "host") or hasattr(config, "workerinput"):  # xdist workers: the controller probed
        return
    from ireefuzz import sut

    problem = sut.probe(sut.CompilerConfig(iree_compile=binary, target_cpu=cpu))
    if problem is not None:
        raise pytest.UsageError(f"--iree-compile {binary or '(installed)'} --iree-target-cpu {cpu}: {problem}")


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Hypothesis tests that compile need no deadline: one example compiles for seconds, so Hypothesis'
    default 200 ms would fail every such test with DeadlineExceeded. An explicit other deadline is kept."""
    for item in items:
        if not _HARNESS_FIXTURES & set(getattr(item, "fixturenames", ())):
            continue
        test = getattr(item, "obj", None)
        current = getattr(test, "_hypothesis_internal_use_settings", None)
        if test is None or current is None or not getattr(test, "is_hypothesis_test", False):
            continue
        from datetime import timedelta

        from hypothesis import settings

        if current.deadline == timedelta(milliseconds=200):  # Hypothesis' default, not the user's choice
            test._hypothesis_internal_use_settings = settings(current, deadline=None)


def pytest_report_header(config: pytest.Config) -> list[str]:
    compiler = config.getoption("ireefuzz_iree_compile") or config.getoption("ireefuzz_release") or "installed wheel"
    lines = [
        f"ireefuzz: iree-compile={compiler}, target-cpu={config.getoption('ireefuzz_target_cpu')}, "
        f"oracles={','.join(config.getoption('ireefuzz_oracles') or ('all',))}"
    ]
    if config.getoption("ireefuzz_corpus"):
        lines.append(f"ireefuzz: corpus={config.getoption('ireefuzz_corpus')}")
    return lines


# --------------------------------------------------------------------------- collection


def pytest_collect_file(file_path: Path, parent: pytest.Collector) -> pytest.Collector | None:
    config = parent.config
    corpus = config.getoption("ireefuzz_corpus", None)
    if file_path.name == "case.json" and corpus is not None and _is_within(file_path, corpus):
        return CorpusFile.from_parent(parent, path=file_path)
    if file_path.suffix == ".mlir" and config.getoption("ireefuzz_mlir", False):
        if (file_path.parent / "case.json").exists():  # a corpus case's program: collected as the case
            return None
        return MlirFile.from_parent(parent, path=file_path)
    return None


class CorpusFile(pytest.File):
    """One corpus case directory (its ``case.json``); the items come from ``ireefuzz.pytest_items.collect``."""

    def collect(self):
        from ireefuzz import pytest_items

        return pytest_items.collect(self, self.path)


class MlirFile(pytest.File):
    """A ``.mlir`` file of the repository: one item that checks every public function in it."""

    def collect(self):
        yield MlirItem.from_parent(self, name=self.path.name)


class MlirItem(pytest.Item):
    def runtest(self) -> None:
        from ireefuzz import testing

        testing.check_mlir_file(self.path, sut=testing.sut_from_config(self.config), test_id=self.nodeid)

    def reportinfo(self):
        return self.path, None, f"ireefuzz mlir: {self.path.name}"

    def repr_failure(self, excinfo, style=None):
        """A file ireefuzz cannot check (bad MLIR, a bad ``.inputs.json``, a missing ``.npz``) in one line;
        a finding, or ireefuzz's own bug, as pytest shows it."""
        from ireefuzz.errors import USER_ERRORS

        if excinfo.errisinstance(USER_ERRORS):
            return f"{self.path.name}: {excinfo.value}"
        if excinfo.errisinstance(UnicodeDecodeError):
            return f"{self.path.name}: not a text file"
        return super().repr_failure(excinfo, style)


def _is_within(path: Path, root: Path) -> bool:
    try:
        Path(path).resolve().relative_to(Path(root).resolve())
        return True
    except ValueError:
        return False


# --------------------------------------------------------------------------- fixtures


@pytest.fixture(scope="session")
def iree_sut(request: pytest.FixtureRequest):
    """The system under test as configured on the command line: ``.config`` (a CompilerConfig),
    ``.policy`` (the oracles that run), ``.known`` (the baseline, ``ireefuzz.tools.baseline.Baseline``),
    ``.bundle_dir``."""
    from ireefuzz import testing

    return testing.sut_from_config(request.config)


@pytest.fixture(scope="session")
def ireefuzz_check(iree_sut):
    """``check(case_or_graph, *, instances=None, oracles=None)``: run every oracle; fail the test
    with a repro (findings, program, iree-compile command, bundle path) on a new finding.
    Session-scoped, so it works inside Hypothesis ``@given`` tests."""
    from ireefuzz import testing

    return testing.Checker(iree_sut)


@pytest.fixture(scope="session")
def check_jax(iree_sut):
    """``check_jax(fn, *example_args, dynamic=None, instances=None, oracles=None)``: a JAX function through
    ``jax.export`` and IREE, every oracle at every shape instance, JAX in float64 as the numeric reference;
    fails the test with each finding's signature and a bundle (``ireefuzz.testing.check_jax``)."""
    from ireefuzz import testing

    return testing.JaxChecker(iree_sut)
