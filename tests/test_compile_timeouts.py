"""A compile that runs past its limit is a hang only if it does not end alone in HANG_CONFIRM_FACTOR times that
limit (``core.evaluate._slow_not_hung``): seed 29411's f16 attention chain took over 60 s on a loaded machine and
21 s alone, then failed with the known fmaxf error. A fake compiler stands in for iree-compile."""

from __future__ import annotations

import types

import pytest

from ireefuzz import sut
from ireefuzz.core import evaluate as ev
from ireefuzz.generators.case import Case
from ireefuzz.generators.graph import Graph, Node
from ireefuzz.generators.graph import TensorType as T

TIMEOUT = sut.CompileFailure("timeout", "iree-compile timed out after 60 s", ("iree-compile",), None, 60.0)
FMAXF = sut.CompileFailure(
    "error",
    "iree-lld: error: undefined symbol: fmaxf\nfailing pass: iree-hal-serialize-target-executables (module)",
    ("iree-compile",),
    1,
    21.0,
)


def _case() -> Case:
    t = T((4,), "f32")
    return Case(Graph((t,), (Node("exp", ("a0",), {}, t),), ("n0",)).check(), ({},))


@pytest.fixture
def compiles(monkeypatch):
    """Make iree-compile answer ``answers`` in turn; the limits it was given are recorded."""
    limits: list[float] = []

    def install(*answers):
        pending = list(answers)

        def fake(text, config, **kwargs):
            limits.append(config.timeout_s)
            return pending.pop(0)

        monkeypatch.setattr(sut, "compile_mlir", fake)
        return limits

    return install


def _evaluated():
    config = sut.CompilerConfig(timeout_s=60.0)
    setup = sut.Setup(sut.toolchain_of(config), config)
    policy = ev.Policy(oracles=frozenset({"crash"}), jax="on-disagreement")
    (result,) = ev.evaluate_batch([("f0", _case(), _case().graph)], setup, policy)
    return result


def test_a_compile_that_ends_alone_in_a_longer_limit_is_slow_not_a_hang(compiles):
    limits = compiles(TIMEOUT, types.SimpleNamespace(seconds=21.0))  # a module, in 21 s
    result = _evaluated()
    assert limits == [60.0, 60.0 * ev.HANG_CONFIRM_FACTOR]
    assert result.findings == () and "a slow compile, not a hang" in result.not_judged[0]
    assert "21 s alone" in result.not_judged[0]


def test_a_compile_that_fails_otherwise_alone_is_that_failures_cause(compiles):
    compiles(TIMEOUT, FMAXF)
    (finding,) = _evaluated().findings
    assert finding.kind == "compile-error" and "fmaxf" in finding.message


def test_a_compile_that_times_out_again_is_the_hang(compiles):
    compiles(TIMEOUT, TIMEOUT)
    (finding,) = _evaluated().findings
    assert finding.kind == "compile-timeout" and "nor alone in 240 s" in finding.evidence["diagnostic"]
