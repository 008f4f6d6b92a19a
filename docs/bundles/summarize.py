"""Writes docs/bundles/README.md, each root cause's ISSUE.md (new reports) or COMMENT.md (a comment draft for an
open upstream issue), from the bundles' own records (finding.json, bisect.json): no claim the records lack.
Run from the repository root after regenerate.sh."""

from __future__ import annotations

import json
import re
from pathlib import Path

from ireefuzz.tools.filing.bundle import Bundle
from ireefuzz.tools.filing.drafts import comment_text, lead_variant, root_cause_text
from ireefuzz.tools.filing.program import portable

ROOT = Path("docs/bundles")
# root cause folder -> (bug in words, upstream issue to comment on or None for a new report)
CAUSES = {
    "fold_unit_extent_dims": (
        "unit-dim folding of a conv / pooling whose output has spatial size 1 while its input has more rows than one "
        "window reads (H > KH): the folded op indexes the input by the window loop alone: invalid IR with static "
        "shapes, wrong values or out-of-bounds reads with dynamic ones",
        None,
    ),
    "fill_then_sum_wrong_value": (
        "a reduction whose body does not read its input (here a `linalg.fill` folded into the body) gives a wrong "
        "value",
        None,
    ),
    "masked_contract_drop_unit_dims": (
        "dropping vector unit dims leaves a masked contraction's mask at the old shape: invalid IR",
        None,
    ),
    "gather_of_gather_wrong_values": ("a gather of a gather returns wrong rows", None),
    "transpose_of_a_multi_result_generic": (
        "a transpose of one result of a two-result `linalg.generic`: transpose propagation rebuilds the generic with "
        "one init for two results (invalid IR)",
        None,
    ),
    "gather_from_strided_slice_translation_error": (
        "a gather from a slice that drops the innermost dim stays a strided `vector.gather`: LLVM translation fails",
        None,
    ),
    "mmt4d_dynamic_sigfpe": ("`linalg.mmt4d` with dynamic inner tiles: SIGFPE in iree-compile", None),
    "unpack_into_argument": ("`linalg.unpack` into a function argument: write-affecting error", None),
    "conv_input_as_outs_crash": (
        "a conv whose input is also its outs: SIGSEGV in iree-compile at #24385's crash site, which #24385's fix "
        "(PR #24391, in 3.12.0 and 3.13.0) does not cover: a new issue that links #24385",
        None,
    ),
    "comment_23665_two_functions_cse_aliasing": (
        "two functions hoist the same constant computation; CSE merges the two dispatches and an in-place sort of one "
        "overwrites the other's buffer: the second function returns zeros",
        "iree-org/iree#23665",
    ),
    "comment_llvm_113021_reverse_map_tiling": (
        "a `linalg.generic` reading its input through a reversed indexing map (`-d0 + 63`): tiling it with "
        "`scf.forall` gives invalid IR",
        "llvm/llvm-project#113021",
    ),
    "comment_13577_f16_maxnumf_fmaxf": ("an f16 `maxnumf` reduction links an undefined `fmaxf`", "iree-org/iree#13577"),
    "offset_map_infer_convolution_dims_sigsegv": (
        "a two-input elementwise `linalg.generic` reading its first input at an offset of a dim other than the first: "
        "SIGSEGV in MLIR's `linalg::inferConvolutionDims` (from `iree-flow-annotate-dispatches`)",
        None,
    ),
    "asinh_of_negative_values_cancels": (
        "`math.asinh` of negative values: the CPU expansion `log(x + sqrt(x^2 + 1))` (MLIR's ExpandPatterns, no `|x|`) "
        "cancels: off in the third digit at -200 in f32, -inf from -4096 (f16: from -60)",
        None,
    ),
    "fpowi_runtime_exponent_negative_base_nan": (
        "`math.fpowi` of a negative base by an exponent known only at run time gives NaN: "
        "`iree-codegen-math-transform` expands it through `powf(x, sitofp(n))`, that is `exp(n * log(x))` (MLIR's "
        "`convertFPowIOp`); a constant exponent is right",
        None,
    ),
    "reduction_read_twice_diagonal_only": (
        "a reduction's result read twice by its fused consumer, through `(d0)` and `(d1)` (`o[i,j] = r[i] + r[j]`): "
        "workgroup tiling gives the consumer a diagonal tile, and only the diagonal of `o` is written",
        None,
    ),
    "gather_read_by_reduction_and_elementwise_stack_buffer": (
        "a gather read by a reduction and by an elementwise op in one dispatch: the gathered column is stored in a "
        "stack buffer for the elementwise op (over the 32 KiB stack limit at 4096x64 f32)",
        None,
    ),
}


def bundles(cause: str) -> list[Path]:
    return sorted(p.parent for p in (ROOT / cause).glob("**/finding.json"))


def record(b: Path) -> dict:
    f = json.loads((b / "finding.json").read_text())
    bis = json.loads((b / "bisect.json").read_text()) if (b / "bisect.json").exists() else {}
    c = f.get("culprit") or {}
    exp = (f.get("experiments") or {}).get("trigger") if isinstance(f.get("experiments"), dict) else None
    return {
        "folder": str(b.relative_to(ROOT)),
        "ops": ", ".join(f"`{o}`" for o in f.get("ops", [])),
        "culprit": f"`{c['pass']}`" if c.get("pass") else "not localized",
        "confirm": (c.get("confirm") or {}).get("command"),
        "cpus": ", ".join(f.get("reproduces_on") or []) or "-",
        "run_sh": (f.get("run_sh") or {}).get("exits"),
        "releases": bis.get("answer", "bisect not run"),
        "upstream": "; ".join(m.get("issue", "") + f" ({m.get('state')})" for m in f.get("upstream") or [])
        or "no table match",
        "shipped": (b / "ISSUE.md").exists(),
        "title": re.sub(r"^# \[[\w-]+\] ", "", (b / "ISSUE.md").read_text().splitlines()[0])
        if (b / "ISSUE.md").exists()
        else "",
        "shows": shown(c),
        "trigger": exp,
    }


def shown(culprit: dict) -> str:
    """The line of a culprit's confirmation that says the defect: where the pass's output is undefined or fails,
    else its first IR line."""
    lines = [str(x) for x in (culprit.get("confirm") or {}).get("shows") or ()]
    said = [x for x in lines if "it stops at" in x or "error:" in x] or [x for x in lines if not x.startswith("//")]
    return said[0].removeprefix("// ")[:260] if said else ""


def scrub() -> None:
    """Every recorded file names no path of this machine (bisect.json keeps the tools' last lines)."""
    for f in ROOT.glob("**/*"):
        if f.is_file() and f.suffix in (".json", ".md", ".mlir"):
            text = f.read_text()
            if portable(text) != text:
                f.write_text(portable(text))


def main() -> None:
    scrub()
    rows = [
        "| folder | bug | ops | culprit | CPUs | run.sh | releases | upstream (table) | maintainer action |",
        "|---|---|---|---|---|---|---|---|---|",
    ]
    for cause, (bug, issue) in CAUSES.items():
        recs = [record(b) for b in bundles(cause)]
        if not recs:
            continue
        loaded = [(r["folder"], Bundle.load(ROOT / r["folder"])) for r in recs]
        answers = {r["folder"]: r["releases"] for r in recs}
        lead = lead_variant(loaded) if len(recs) > 1 and not issue else 0
        for k, r in enumerate(recs):
            action = (
                f"comment on {issue} (`COMMENT.md`)"
                if issue
                else "file `ISSUE.md`"
                if len(recs) == 1
                else f"file `{cause}/ISSUE.md` (this variant leads it)"
                if k == lead
                else f"none: a variant in `{cause}/ISSUE.md`"
            )
            rows.append(
                f"| [{r['folder']}]({r['folder']}/ISSUE.md) | {bug} | {r['ops']} | {r['culprit']} | {r['cpus']} "
                f"| {r['run_sh']} | {r['releases']} | {r['upstream']} "
                f"| {action if r['shipped'] else 'not shipped: run.sh not 1 every time'} |"
            )
        if issue:
            (ROOT / cause / "COMMENT.md").write_text(portable(comment_text(issue, bug, loaded, answers)))
        elif len(recs) > 1:
            (ROOT / cause / "ISSUE.md").write_text(portable(root_cause_text(bug, loaded, answers)))
    readme = [
        "# Bundles of IREE 3.13 bugs, one folder per root cause",
        "",
        "Written by `docs/bundles/regenerate.sh` (`ireefuzz check docs/repros/<program> --bundle`, then "
        "`ireefuzz bisect --versions 3.10.0,3.12.0,3.13.0`) and this table by `docs/bundles/summarize.py` from "
        "each bundle's `finding.json` / `bisect.json`. The tool chose each bundle's CPU: the first of `generic`, "
        "`x86-64-v3`, `host` that reproduces. Upstream: the table `corpus/upstream_issues.json`, researched in "
        "`docs/upstream-research.md`.",
        "",
        *rows,
        "",
    ]
    (ROOT / "README.md").write_text("\n".join(readme))


if __name__ == "__main__":
    main()
