"""Valid programs only (issue 30): a result that depends on undefined values is not a finding.

The float64 interpreter carries poison for what nothing wrote (``tests/test_interpret.py`` tests it op by op);
IREE's own "reads uninitialized values" warning is read from iree-compile's stderr (``sut.compile.warnings_of``,
``evaluate.reads_uninitialized``). Either makes a function's numbers "not judged: reads undefined values", never
a wrong-value finding. Shown on the shipped two-functions iota -> argmax bundle, whose reduced program reads a
``tensor.empty`` nothing wrote, and on the campaign's original program, which is defined.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from ireefuzz import sut
from ireefuzz.core.evaluate import Policy, reads_uninitialized
from ireefuzz.sut.compile import warnings_of
from ireefuzz.tools.check import check_results

ROOT = Path(__file__).resolve().parents[1]
REDUCED = ROOT / "tests/data/bundles/two_functions_iota_argmax/numeric_wrong-value_g1-b2c2e034e2/program.mlir"
ORIGINAL = ROOT / "docs/repros/two_functions_iota_argmax_zeroes/program.mlir"
INDEX_INIT = "%empty = tensor.empty() : tensor<2xi32>"  # @g1's argmax index init, which nothing writes

# iree-compile 3.13's stderr on the reduced program (O3), the IR dumps after "see current operation" cut
STDERR = """\
input.mlir:8:18: warning: reads uninitialized values from an operand produced by a tensor.empty op. To disable \
this warning, pass --iree-global-opt-enable-warn-on-uninitialized-values=false .
    %reduced:2 = linalg.generic {indexing_maps = [#map, #map1, #map1], iterator_types = ["parallel", "reduction"]}
                 ^
input.mlir:5:3: note: called from
  func.func @g0(%arg0: tensor<2x1xf16>) -> tensor<2xf16> {
  ^
input.mlir:8:18: note: see current operation:
%2:2 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>]} ins(%0 : tensor<2x1xf16>)
input.mlir:34:18: warning: reads uninitialized values from an operand produced by a tensor.empty op. To disable \
this warning, pass --iree-global-opt-enable-warn-on-uninitialized-values=false .
    %reduced:2 = linalg.generic {indexing_maps = [#map, #map1, #map1], iterator_types = ["parallel", "reduction"]}
                 ^
input.mlir:23:3: note: called from
  func.func @g1(%arg0: tensor<2x1xf16>, %arg1: tensor<1x2xf16>, %arg2: tensor<2xi32>, %arg3: tensor<2xf16>) -> ...
  ^
input.mlir:40:1: error: something else
input.mlir:41:1: note: not the warning's
"""


def test_iree_warnings_are_kept_with_their_notes_and_nothing_else():
    first, second = warnings_of(STDERR)
    assert first.splitlines() == [
        STDERR.splitlines()[0],
        "input.mlir:5:3: note: called from",
        "input.mlir:8:18: note: see current operation:",
    ]
    assert second.splitlines()[0].startswith("input.mlir:34:18: warning: reads uninitialized values")
    assert "note: not the warning's" not in second and "func.func" not in first + second


def test_a_function_iree_warns_reads_uninitialized_values_is_not_judged():
    program = REDUCED.read_text()
    undefined = reads_uninitialized(warnings_of(STDERR), program, ["g0", "g1"])
    assert set(undefined) == {"g0", "g1"}
    assert undefined["g1"] == (
        "reads undefined values (iree-compile warns at line 34: reads uninitialized values from an operand "
        "produced by a tensor.empty op; undefined behaviour)"
    )
    assert reads_uninitialized(warnings_of(STDERR), program, ["g0"]) == {"g0": undefined["g0"]}
    other = STDERR.replace("reads uninitialized values", "something else")
    assert reads_uninitialized(warnings_of(other), program, ["g0", "g1"]) == {}


def _host_o3(flags: tuple[str, ...] = ()) -> sut.CompilerConfig:
    return sut.CompilerConfig(target_cpu="host", flags=("--iree-opt-level=O3", *flags))


def _judged(text: str, config: sut.CompilerConfig) -> dict[str, tuple[list[str], list[str]]]:
    """Per function: its numeric findings' signatures and why its numbers were not judged."""
    results = check_results(text, config, Policy(oracles=frozenset({"crash", "numeric"})))
    return {
        r.case.function: ([f.signature for f in r.findings if f.oracle == "numeric"], list(r.not_judged))
        for r in results
    }


@pytest.mark.iree
@pytest.mark.parametrize("warn", [True, False], ids=["iree-warns", "interpreter-alone"])
def test_the_shipped_two_functions_program_is_no_longer_called_a_miscompile(warn):
    """Its reduced program is undefined: ``check`` reported ``numeric/wrong-value/g1`` on it. Now IREE's warning
    says so, and with the warning off the interpreter's poison does."""
    flags = () if warn else ("--iree-global-opt-enable-warn-on-uninitialized-values=false",)
    judged = _judged(REDUCED.read_text(), _host_o3(flags))
    findings, reasons = judged["g1"]
    assert findings == [] and len(reasons) == 1 and "reads undefined values" in reasons[0]
    want = "iree-compile warns at line 34" if warn else "%empty = tensor.empty at line 33: never written"
    assert want in reasons[0]


@pytest.mark.iree
def test_with_the_init_defined_iree_computes_the_right_argmax():
    judged = _judged(
        REDUCED.read_text().replace(INDEX_INIT, "%empty = arith.constant dense<0> : tensor<2xi32>"), _host_o3()
    )
    assert judged["g1"] == ([], [])  # judged, and right


@pytest.mark.iree
def test_the_original_program_is_defined_and_judged():
    """The campaign's two-function module (before reduction) writes every init: its numbers are judged."""
    findings, reasons = _judged(ORIGINAL.read_text(), _host_o3())["g1"]
    assert reasons == [] and all(s.startswith("numeric/wrong-value/") for s in findings)
