"""An op LLVM translation cannot translate is localized to the pass whose output first holds it (the conversion that
should have lowered what it wraps), not to serialization, which only reports it; confirmed by that pass alone.
Source: the maintainer review of the strided-gather bundle ("not localized", although one ``iree-opt`` run of
``iree-convert-to-llvm`` leaves the strided ``vector.gather`` behind an ``unrealized_conversion_cast``)."""

from __future__ import annotations

from pathlib import Path

import pytest

from ireefuzz.tools.filing.culprit import lineage

REPRO = Path(__file__).resolve().parents[1] / "docs" / "repros" / "gather_from_strided_slice_unrealized_cast.mlir"
DIAGNOSTIC = "<unknown>:0: error: LLVM Translation failed for operation: builtin.unrealized_conversion_cast\n"


def test_the_rejected_op_is_read_from_the_diagnostic():
    assert lineage.untranslated_op(DIAGNOSTIC) == "builtin.unrealized_conversion_cast"
    assert lineage.untranslated_op("error: undefined symbol: fmaxf") is None


def test_the_form_holds_the_op_lines_only():
    ir = (
        "  %3 = builtin.unrealized_conversion_cast %2 : vector<3xi32> to !llvm.array<3 x i32>\n"
        "  %4 = llvm.extractvalue %3[0] : !llvm.array<3 x i32>\n"
        "  // builtin.unrealized_conversion_cast in a comment\n"
    )
    held = lineage.ops_named("builtin.unrealized_conversion_cast").holds(ir)
    assert held == ["%3 = builtin.unrealized_conversion_cast %2 : vector<3xi32> to !llvm.array<3 x i32>"]


@pytest.mark.iree
def test_the_strided_gather_is_localized_to_the_conversion_to_llvm_and_confirmed():
    from ireefuzz.tools.campaign.options import Options
    from ireefuzz.tools.filing.culprit import compile_failure

    culprit = compile_failure(REPRO.read_text(), Options(cases=1).compiler_config())
    assert culprit.localized and culprit.pass_ == "iree-convert-to-llvm", culprit.how
    assert culprit.confirm is not None and any("unrealized_conversion_cast" in line for line in culprit.confirm.shows)
    assert "vector.gather" in culprit.ir_before and "unrealized_conversion_cast" not in culprit.ir_before


def test_the_defect_is_the_instance_translation_names_not_every_cast():
    note = "<unknown>:0: note: see current operation: "
    note += '%14 = "builtin.unrealized_conversion_cast"(%13) : (i64) -> index\n'
    op = "builtin.unrealized_conversion_cast"
    form = lineage.rejected_instance(lineage.ops_named(op), op, DIAGNOSTIC + note)
    ir = (
        "  %15 = builtin.unrealized_conversion_cast %14 : i64 to index\n"
        "  %46 = builtin.unrealized_conversion_cast %45 : vector<3xi64> to vector<3xindex>\n"
    )
    assert form.holds(ir) == ["%15 = builtin.unrealized_conversion_cast %14 : i64 to index"]
    assert lineage.rejected_instance(lineage.ops_named(op), op, DIAGNOSTIC).holds(ir) == [
        line.strip() for line in ir.splitlines()
    ]
