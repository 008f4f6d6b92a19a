"""Regenerate ``corpus/stablehlo/iota_multi_consumer/`` (program.mlir + case.json) and its verdict.

The second seed ("HLO iota should fuse with other ops and not (often) require materialization into
memory", ../shared/seeds/004_*): one ``iota`` (+ ``broadcast_in_dim``) of the vocabulary axis feeds
several consumers -- argsort (sort with an iota payload), argmax (variadic reduce with an iota
payload), top-k (``chlo.top_k`` composite, decomposed to iota + sort) and a masked first-position
(``min(where(x > 0, iota, V))``) -- with a *dynamic batch dim*, as ``jax.export`` emits it for a
symbolic ``B``. After CSE the iotas are one value with several uses: the multi-use case the issue
thread blames. The fusion oracle reads whether a dispatch materializes it.

    python corpus/stablehlo/make_iota_seed.py [--batch 5] [--vocab 51] [--k 4] [--dry-run]

The verdict recorded in ``expected`` is what ``ireefuzz.tools.check.check_program`` (the raw-MLIR
corpus checker) reports with the installed IREE; ``--dry-run`` prints it without writing.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
CASE_DIR = HERE / "iota_multi_consumer"


def jax_program(vocab: int, k: int) -> str:
    """The scenario as a JAX function, exported with a symbolic batch dim, renamed to ``@main``."""
    from ireefuzz.generators.stablehlo import _jax, module_of, rename_functions

    jax, export, jax_mlir, ir = _jax()
    import jax.numpy as jnp

    def scenario(x):  # x: (B, V) scores
        batch, v = x.shape
        iota = jax.lax.broadcasted_iota(jnp.int32, (batch, v), 1)  # stablehlo.(dynamic_)iota + broadcast
        order = jnp.argsort(x, axis=1).astype(jnp.int32)  # sort(x, iota)
        best = jnp.argmax(x, axis=1).astype(jnp.int32)  # reduce(x, iota)
        top_values, top_indices = jax.lax.top_k(x, k)  # chlo.top_k -> sort(x, iota)
        first_positive = jnp.min(jnp.where(x > 0, iota, v), axis=1)  # iota into an elementwise + reduce
        return order, best, top_values, top_indices, first_positive

    (batch,) = export.symbolic_shape("B")
    exported = export.export(jax.jit(scenario))(jax.ShapeDtypeStruct((batch, vocab), jnp.float32))
    with jax_mlir.make_ir_context():
        text = ir.Module.parse(exported.mlir_module()).operation.get_asm(enable_debug_info=False)
    return module_of({"main": rename_functions(text, "main")}).text


def verdict(text: str, shapes: list[list[int]]) -> list:
    from ireefuzz import sut
    from ireefuzz.generators.stablehlo import INPUT_FLAGS
    from ireefuzz.tools.check import check_program

    return check_program(text, sut.CompilerConfig(flags=INPUT_FLAGS), shapes={"main": shapes})


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--batch", type=int, default=5, metavar="B", help="the concrete batch size run (default 5)")
    parser.add_argument("--vocab", type=int, default=51, metavar="V", help="the static vocabulary size (default 51)")
    parser.add_argument("--k", type=int, default=4, metavar="K", help="top-k's k (default 4)")
    parser.add_argument("--dry-run", action="store_true", help="print the verdict, write nothing")
    args = parser.parse_args(argv)

    from ireefuzz import sut
    from ireefuzz.generators.stablehlo import INPUT_FLAGS
    from ireefuzz.tools.corpus import CorpusCase, write_case

    text = jax_program(args.vocab, args.k)
    shapes = [[args.batch, args.vocab]]
    findings = verdict(text, shapes)
    expected: dict[str, list[str]] = {}
    for f in findings:
        expected.setdefault(f.oracle, []).append(f.signature)
    for f in findings:
        print(f"{f.signature}\n    {f.message[:300]}")
    if not findings:
        print("no findings: the iota is fused into its consumers")
    materialized = [f for f in findings if f.kind == "materialized-producer"]
    note = (
        "Second seed (HLO iota should fuse..., ../shared/seeds/004): jax.export of one broadcasted_iota of the "
        f"vocabulary axis (B x {args.vocab}, B symbolic) feeding argsort, argmax, top_k (chlo.top_k composite) and "
        "min(where(x > 0, iota, V)). Verdict on IREE "
        f"{sut.compiler_version(sut.find_iree_compile(sut.CompilerConfig()))}: "
        + (
            "the iota is materialized by its own dispatch: "
            + "; ".join(f"{f.evidence.get('dispatch')}: {f.evidence.get('excerpt', '')[:160]}" for f in materialized)
            if materialized
            else "no dispatch materializes the iota (fused into its consumers)"
        )
        + ". Regenerate with corpus/stablehlo/make_iota_seed.py."
    )
    if args.dry_run:
        print(note)
        return 0
    import importlib.metadata

    case = CorpusCase(
        name=CASE_DIR.name,
        mlir=text,
        functions=("main",),
        shapes={"main": [tuple(s) for s in shapes]},
        seed=0,
        target_cpu="host",
        flags=INPUT_FLAGS,
        expected={k: tuple(v) for k, v in expected.items()},
        note=note,
        ireefuzz_version=importlib.metadata.version("ireefuzz"),
        iree_version=sut.compiler_version(sut.find_iree_compile(sut.CompilerConfig())),
        cpu=sut.resolve_platform(sut.CompilerConfig())[0].name,
    )
    write_case(CASE_DIR, case)
    print(f"wrote {CASE_DIR}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
