"""Regenerate the seed corpus (corpus/seeds/) from the two IREE issues in ../shared/seeds/.

    python corpus/make_seeds.py            # rewrite the cases, keeping their recorded verdicts
    python corpus/make_seeds.py --record   # run every oracle on the installed IREE and record
                                           # the verdicts, then refresh corpus/known_findings.json
    python corpus/make_seeds.py --record --only dot_33x16x49_exp_dynamic
    python corpus/make_seeds.py --record --cases corpus/regressions/*   # re-record other corpus cases

A record is per x86-64 level (``ireefuzz.tools.corpus.record``: ``x86-64``, ``x86-64-v3``, ``x86-64-v4`` for a
case targeting ``host``): a level this machine cannot run is compiled only, and the verdicts only a run shows
are kept from the case's previous record, so a record on an AVX2 machine keeps an AVX-512 one's. The layout of
a case is documented in ``ireefuzz.tools.corpus``.
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import sys
import time
from pathlib import Path

from ireefuzz.generators.case import Case
from ireefuzz.generators.graph import Graph, Node
from ireefuzz.generators.graph import TensorType as T
from ireefuzz.tools import baseline
from ireefuzz.tools.corpus import CASE_FILE, CorpusCase, load_case, record, write_case

HERE = Path(__file__).parent
SEEDS = HERE / "seeds"
BASELINE = HERE / "known_findings.json"
ALLOCA_ISSUE = "https://github.com/iree-org/iree/issues/8303"
IOTA_ISSUE = "https://github.com/iree-org/iree/issues/13729"  # the iota thread's full reproducer; see note


def f32(*shape):
    return T(tuple(shape), "f32")


def i32(*shape):
    return T(tuple(shape), "i32")


def dot_exp(m, k, n) -> Graph:
    """fill -> matmul -> exp; the exp's outs is the fill's tensor.empty (the issue's init_tensor)."""
    return Graph(
        (f32(m, k), f32(k, n)),
        (
            Node("fill", (), {"shape": [m, n], "dtype": "f32", "value": 0.0}, f32(m, n)),
            Node("matmul", ("a0", "a1", "n0"), {}, f32(m, n)),
            Node("exp", ("n1",), {"init": "init-of:n0"}, f32(m, n)),
        ),
        ("n2",),
    ).check()


def matmul_bias_add(form: str, m=27, k=43, n=37) -> Graph:
    """fill -> matmul -> bias-add in the destination forms of the #8303 thread."""
    args = [f32(m, k), f32(k, n), f32(n)]
    fill_init, add_init = {
        "fresh-init": ("empty", "init-of:n0"),
        "outs-matmul": ("empty", "value:n1"),
        "fill-into-argument": ("value:a3", "value:a3"),
    }[form]
    if form == "fill-into-argument":
        args.append(f32(m, n))
    return Graph(
        tuple(args),
        (
            Node("fill", (), {"shape": [m, n], "dtype": "f32", "value": 0.0, "init": fill_init}, f32(m, n)),
            Node("matmul", ("a0", "a1", "n0"), {}, f32(m, n)),
            Node("broadcast", ("a2",), {"shape": [m, n], "dimensions": [0]}, f32(m, n)),
            Node("add", ("n1", "n2"), {"init": add_init}, f32(m, n)),
        ),
        ("n3",),
    ).check()


def shape_only() -> Graph:
    """fill(%arg1) -> matmul(%arg0, %arg1) -> exp outs(matmul): %arg1 is both an operand and the fill's destination."""
    return Graph(
        (f32("M", "M"), f32("M", "N")),
        (
            Node("fill", (), {"shape": ["M", "N"], "dtype": "f32", "value": 0.0, "init": "value:a1"}, f32("M", "N")),
            Node("matmul", ("a0", "a1", "n0"), {}, f32("M", "N")),
            Node("exp", ("n1",), {"init": "value:n1"}, f32("M", "N")),
        ),
        ("n2",),
    ).check()


def iota_two_consumers(b) -> Graph:
    """iota(6) -> broadcast to Bx6, used by two consumers (the CSE'd iota of the iota issue)."""
    return Graph(
        (i32(b, 6),),
        (
            Node("iota", (), {"shape": [6], "dtype": "i32", "dim": 0}, i32(6)),
            Node("broadcast", ("n0",), {"shape": [b, 6], "dimensions": [0]}, i32(b, 6)),
            Node("add", ("n1", "a0"), {}, i32(b, 6)),
            Node("max", ("n1", "a0"), {}, i32(b, 6)),
        ),
        ("n2", "n3"),
    ).check()


def iota_argmax_large() -> Graph:
    """An i32 iota of 4x2048x51200 along the last dim feeding two argmax-like reductions."""
    s = (4, 2048, 51200)
    return Graph(
        (i32(*s),),
        (
            Node("iota", (), {"shape": list(s), "dtype": "i32", "dim": 2}, i32(*s)),
            Node("add", ("n0", "a0"), {}, i32(*s)),
            Node("reduce_max", ("n1",), {"dim": 2}, i32(4, 2048)),
            Node("mul", ("n0", "a0"), {}, i32(*s)),
            Node("reduce_max", ("n3",), {"dim": 2}, i32(4, 2048)),
        ),
        ("n2", "n4"),
    ).check()


def matmul_acc_argument() -> Graph:
    return Graph(
        (f32("M", "K"), f32("K", "N"), f32("M", "N")), (Node("matmul", ("a0", "a1", "a2"), {}, f32("M", "N")),), ("n0",)
    ).check()


def reduce_outs_argument() -> Graph:
    return Graph(
        (f32("M", "N"), f32("M")), (Node("reduce_sum", ("a0",), {"dim": 1, "init": "value:a1"}, f32("M")),), ("n0",)
    ).check()


MATMUL_BIAS_ADD_MLIR = """\
// iree-org/iree#8303, matmul_bias_add as posted (modern syntax): the fill writes into %arg3 and the
// bias-add generic's outs is %arg3 too; the bias is read through a broadcasting indexing map.
func.func @matmul_bias_add(%arg0: tensor<27x43xf32>, %arg1: tensor<43x37xf32>, %arg2: tensor<37xf32>, %arg3: \
tensor<27x37xf32>) -> tensor<27x37xf32> {
  %cst = arith.constant 0.000000e+00 : f32
  %0 = linalg.fill ins(%cst : f32) outs(%arg3 : tensor<27x37xf32>) -> tensor<27x37xf32>
  %1 = linalg.matmul ins(%arg0, %arg1 : tensor<27x43xf32>, tensor<43x37xf32>) outs(%0 : tensor<27x37xf32>) -> \
tensor<27x37xf32>
  %2 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d1)>, \
affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]}
      ins(%1, %arg2 : tensor<27x37xf32>, tensor<37xf32>) outs(%arg3 : tensor<27x37xf32>) {
  ^bb0(%in: f32, %bias: f32, %out: f32):
    %3 = arith.addf %in, %bias : f32
    linalg.yield %3 : f32
  } -> tensor<27x37xf32>
  return %2 : tensor<27x37xf32>
}
"""


def seeds() -> list[CorpusCase]:
    g = lambda name, graph, instances=({},), note="", **kw: CorpusCase(
        name=name, case=Case(graph, instances), note=note, **kw
    )
    return [
        g(
            "dot_33x16x49_exp_dynamic",
            dot_exp("M", "K", "N"),
            ({"M": 33, "K": 16, "N": 49},),
            "#8303: fill -> matmul -> exp, all dims dynamic (run at 33x16x49); the shape relation compares it "
            "with the static and the aligned static (32x16x48) forms",
            relations=("shape",),
        ),
        g("dot_33x16x49_exp_static", dot_exp(33, 16, 49), note="#8303: the unaligned static repro"),
        g("dot_32x16x48_exp_static", dot_exp(32, 16, 48), note="#8303: the aligned twin, fully vectorized"),
        g(
            "matmul_bias_add_27x43x37_fresh_init",
            matmul_bias_add("fresh-init"),
            note="#8303: fill into a fresh tensor.empty shared with the bias-add (the normal form from mhlo); "
            "the dps relation compares the other destination forms",
            relations=("dps",),
        ),
        g(
            "matmul_bias_add_27x43x37_outs_matmul",
            matmul_bias_add("outs-matmul"),
            note="#8303: the bias-add's outs is the matmul result (the form the sandbox fix proposed)",
        ),
        g(
            "matmul_bias_add_27x43x37_fill_into_argument",
            matmul_bias_add("fill-into-argument"),
            note="#8303: fill into a function argument, the bias-add's outs the same argument",
        ),
        CorpusCase(
            name="matmul_bias_add_27x43x37_fill_into_argument_mlir",
            mlir=MATMUL_BIAS_ADD_MLIR,
            note="#8303: the thread's matmul_bias_add verbatim (raw MLIR, broadcasting indexing map)",
        ),
        g(
            "add_32x48",
            Graph((f32(32, 48), f32(32, 48)), (Node("add", ("a0", "a1"), {}, f32(32, 48)),), ("n0",)).check(),
            note="#8303: the 32x48 add the thread uses as a clean baseline",
        ),
        g(
            "shape_only_fill_matmul_exp",
            shape_only(),
            ({"M": 33, "N": 49},),
            note="#8303: fill(%arg1) -> matmul(%arg0, %arg1) -> exp outs(matmul); %arg1 is used for its shape "
            "and as an operand",
        ),
        g(
            "iota_broadcast_two_consumers_2x6",
            iota_two_consumers(2),
            note="iota issue: iota -> broadcast 2x6 used by two consumers",
        ),
        g(
            "iota_broadcast_two_consumers_dyn_x6",
            iota_two_consumers("B"),
            ({"B": 2},),
            note="iota issue: the same with a dynamic batch dim (static shapes may fold the iota into a constant)",
        ),
        g(
            "iota_argmax_4x2048x51200_i32",
            iota_argmax_large(),
            note="iota issue: an i32 iota of 4x2048x51200 feeding two argmax-like reductions (compile only: "
            "the input alone is 1.6 GB)",
            compile_only=True,
        ),
        g(
            "matmul_acc_is_argument",
            matmul_acc_argument(),
            ({"M": 33, "K": 16, "N": 49},),
            note="a matmul accumulating into a function argument: the caller's buffer must stay unchanged",
        ),
        g(
            "reduce_sum_outs_is_argument",
            reduce_outs_argument(),
            ({"M": 33, "N": 49},),
            note="a reduction whose outs is a function argument: the caller's buffer must stay unchanged",
        ),
    ]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--record", action="store_true", help="run the oracles and record the verdicts per level")
    parser.add_argument("--only", nargs="*", default=None, help="seed names to (re)write")
    parser.add_argument("--cases", nargs="*", default=(), metavar="DIR", help="other corpus cases to re-record")
    parser.add_argument("--baseline", type=Path, default=BASELINE, help="the baseline --record refreshes")
    args = parser.parse_args(argv)
    from ireefuzz import __version__

    if args.cases and not args.record:
        parser.error("--cases re-records: give --record")
    table = []
    chosen = [s for s in seeds() if not args.only or s.name in args.only] if not args.cases or args.only else []
    todo = [(seed, SEEDS / seed.name) for seed in chosen] + [(load_case(d), Path(d)) for d in args.cases]
    for seed, directory in todo:
        old = load_case(directory) if (directory / CASE_FILE).exists() else None
        case = dataclasses.replace(
            seed,
            ireefuzz_version=__version__,
            iree_version=old.iree_version if old else "",
            cpu=old.cpu if old else "",
            expected=old.expected if old else {},
            expected_by_level=old.expected_by_level if old else {},
        )
        if args.record:
            started = time.perf_counter()
            log = lambda line: print(f"    {line}", file=sys.stderr)
            case = record(dataclasses.replace(case, path=directory), old=old, log=log)
            table.append((f"{directory.parent.name}/{seed.name}", case.expected_signatures))
            print(f"{seed.name}: {time.perf_counter() - started:.1f}s", file=sys.stderr)
        write_case(directory, case)
    if args.record:
        refresh_baseline(table, args.baseline)
        print(json.dumps({name: sorted(signatures) for name, signatures in table}, indent=1))
    return 0


def refresh_baseline(table, path: Path = BASELINE) -> None:
    """Add every recorded signature to known_findings.json (existing entries keep their verdicts; a new signature
    is an entry of its own, ``upstream`` when its seed names the issue, else listed without a verdict)."""
    entries = baseline.read(path) if path.exists() else []
    listed = {s for k in entries for s in k.signatures}
    notes = {f"seeds/{s.name}": s.note for s in seeds()}
    for name, signatures in table:
        for sig in sorted(signatures - listed):
            upstream = (
                IOTA_ISSUE
                if name.startswith("seeds/iota")
                else ALLOCA_ISSUE
                if ("dot_" in name or "matmul_bias" in name or "shape_only" in name)
                else ""
            )
            note = notes.get(name, "")
            if upstream == IOTA_ISSUE:
                note += " (the iota issue's own number is not in its seed text; #13729 is the full reproducer it links)"
            entries.append(
                baseline.Known(
                    verdict="upstream" if upstream else "",
                    link=upstream,
                    signatures=(sig,),
                    note=f"first recorded in corpus/{name} on IREE 3.13: {note}",
                )
            )
            listed.add(sig)
    baseline.write(path, entries)


if __name__ == "__main__":
    sys.exit(main())
