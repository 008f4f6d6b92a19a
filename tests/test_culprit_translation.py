"""An op LLVM translation cannot translate is localized to the pass whose output first holds it (the conversion that
should have lowered what it wraps), not to serialization, which only reports it; confirmed by that pass alone.
Source: the maintainer review of the strided-gather bundle ("not localized", although one ``iree-opt`` run of
``iree-convert-to-llvm`` leaves the strided ``vector.gather`` behind an ``unrealized_conversion_cast``); issue 32
(the translation messages that name an op left unconverted: ``LLVM Translation failed for operation``, ``cannot be
converted to LLVM IR``, a ``failed to legalize`` serialization reports)."""

from __future__ import annotations

from pathlib import Path

import pytest

from ireefuzz.tools.filing.culprit import lineage
from ireefuzz.tools.filing.culprit.log import dumps

REPRO = Path(__file__).resolve().parents[1] / "docs" / "repros" / "gather_from_strided_slice_unrealized_cast.mlir"
DIAGNOSTIC = "<unknown>:0: error: LLVM Translation failed for operation: builtin.unrealized_conversion_cast\n"
NOTE = '<unknown>:0: note: see current operation: %14 = "builtin.unrealized_conversion_cast"(%13) : (i64) -> index\n'
SERIALIZE = "repro.mlir:4:9: error: failed to serialize executable for target backend llvm-cpu\n"
CAST = "builtin.unrealized_conversion_cast"
# Recorded: vectorization makes the strided vector.gather, iree-convert-to-llvm converts the function around it and
# leaves it behind casts; translation rejects the `i64 to index` one.
LOG = (Path(__file__).resolve().parent / "data" / "culprit" / "strided_gather_after_change.log").read_text()


def _culprit(diagnostic: str) -> lineage.Traced:
    """The pass the rule names on the recorded log (what ``untranslated`` then confirms with iree-opt)."""
    logged = dumps(LOG)
    op = lineage.untranslated_op(diagnostic)
    assert op is not None, diagnostic
    found = lineage.untranslated_form(logged, op, diagnostic)
    assert not isinstance(found, str), found
    function, form = found
    return lineage.trace(logged, REPRO.read_text(), function, form)


def test_the_rejected_op_is_read_from_the_diagnostic():
    assert lineage.untranslated_op(DIAGNOSTIC) == CAST
    missing = "error: cannot be converted to LLVM IR: missing `LLVMTranslationDialectInterface` registration for "
    assert lineage.untranslated_op(missing + "dialect for op: vector.gather") == "vector.gather"
    legalize = "error: failed to legalize operation 'vector.gather'\n"
    assert lineage.untranslated_op(legalize + SERIALIZE) == "vector.gather"
    assert lineage.untranslated_op(legalize) is None  # a conversion pass of the pipeline failing: its own error
    assert lineage.untranslated_op("error: undefined symbol: fmaxf") is None


def test_the_form_holds_the_op_lines_only():
    ir = (
        "  %3 = builtin.unrealized_conversion_cast %2 : vector<3xi32> to !llvm.array<3 x i32>\n"
        "  %4 = llvm.extractvalue %3[0] : !llvm.array<3 x i32>\n"
        "  // builtin.unrealized_conversion_cast in a comment\n"
    )
    held = lineage.ops_named(CAST).holds(ir)
    assert held == ["%3 = builtin.unrealized_conversion_cast %2 : vector<3xi32> to !llvm.array<3 x i32>"]


def test_the_recorded_cast_is_made_by_the_conversion_to_llvm():
    found = _culprit(DIAGNOSTIC + NOTE)
    assert found.dump is not None and found.dump.name == "iree-convert-to-llvm", found.why
    assert "vector.gather" in found.before and CAST not in found.before  # what iree-opt is confirmed on
    function, form = lineage.untranslated_form(dumps(LOG), CAST, DIAGNOSTIC + NOTE)  # type: ignore[misc]
    assert lineage.unconverted_users(dumps(LOG), function, form) == ["vector.gather"]


def test_an_op_left_in_a_converted_function_is_the_conversions_not_its_makers():
    # the first pass whose output holds vector.gather is vectorization, which did its job; the conversion went past it
    missing = "error: cannot be converted to LLVM IR: missing `LLVMTranslationDialectInterface` registration for "
    for diagnostic in (
        missing + "dialect for op: vector.gather\n",
        "error: failed to legalize operation 'vector.gather'\n" + SERIALIZE,
    ):
        found = _culprit(diagnostic)
        assert found.dump is not None and found.dump.name == "iree-convert-to-llvm", found.why


def test_the_defect_is_the_instance_translation_names_not_every_cast():
    form = lineage.rejected_instance(lineage.ops_named(CAST), CAST, DIAGNOSTIC + NOTE)
    ir = (
        "  %15 = builtin.unrealized_conversion_cast %14 : i64 to index\n"
        "  %46 = builtin.unrealized_conversion_cast %45 : vector<3xi64> to vector<3xindex>\n"
    )
    assert form.holds(ir) == ["%15 = builtin.unrealized_conversion_cast %14 : i64 to index"]
    assert lineage.rejected_instance(lineage.ops_named(CAST), CAST, DIAGNOSTIC).holds(ir) == [
        line.strip() for line in ir.splitlines()
    ]


@pytest.mark.iree
def test_the_strided_gather_is_localized_to_the_conversion_to_llvm_and_confirmed():
    from ireefuzz.tools.campaign.options import Options
    from ireefuzz.tools.filing.culprit import compile_failure

    culprit = compile_failure(REPRO.read_text(), Options(cases=1).compiler_config())
    assert culprit.localized and culprit.pass_ == "iree-convert-to-llvm", culprit.how
    assert culprit.confirm is not None and any(CAST in line for line in culprit.confirm.shows)
    assert "`vector.gather`, left unconverted" in culprit.how
    assert "vector.gather" in culprit.ir_before and CAST not in culprit.ir_before


def test_a_dump_ends_where_a_locationless_diagnostic_begins():
    """LLVM translation reports at ``<unknown>:0:`` (a line, no column): the module-scope dump the culprit's
    confirmation runs on ends there, or iree-opt cannot parse it and the pass test loses its executable target."""
    log = (
        "// -----// IR Dump Before ConvertToLLVMPass: iree-convert-to-llvm ('builtin.module' operation) //----- //\n"
        "module {\n}\n\n\n"
        "<unknown>:0: error: LLVM Translation failed for operation: builtin.unrealized_conversion_cast\n"
        '<unknown>:0: note: see current operation: %15 = "builtin.unrealized_conversion_cast"(%14) : (i64) -> index\n'
    )
    (d,) = dumps(log)
    assert d.body == "module {\n}", d.body


@pytest.mark.iree
def test_the_strided_gathers_pass_test_runs_on_the_module_with_its_target():
    from ireefuzz.oracles.vocabulary import EXECUTABLE_TARGET
    from ireefuzz.tools.campaign.options import Options
    from ireefuzz.tools.filing import lit_tests
    from ireefuzz.tools.filing.culprit import compile_failure

    culprit = compile_failure(REPRO.read_text(), Options(cases=1, target_cpu="generic").compiler_config())
    assert culprit.confirm is not None and "hal.executable.variant(" in culprit.confirm.pipeline, culprit.confirm
    tests = lit_tests.pass_tests(culprit)
    assert not isinstance(tests, str) and EXECUTABLE_TARGET in tests[0].text
