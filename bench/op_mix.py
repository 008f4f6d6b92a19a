"""The op mix of a campaign's case stream (prints a table; asserts nothing).

Draws ``--cases`` cases block by block exactly as a campaign does (``campaign.guidance.draw_block``
with an empty coverage) and counts, per op family (``ireefuzz.api`` subsets): the nodes drawn, the
share of cases holding at least one, and the share of cases in which some node writes into a function
argument (its DPS ``outs`` or its accumulator: the argument-mutation cases).

    python bench/op_mix.py [--cases 512] [--seed 0]
"""

from __future__ import annotations

import argparse
import collections


def family_of() -> dict[str, str]:
    from ireefuzz import api

    subsets = {
        "elementwise": api.ELEMENTWISE_OPS,
        "producer": api.PRODUCER_OPS,
        "contraction": api.CONTRACTION_OPS,
        "reduction": api.REDUCTION_OPS,
        "data-movement": api.DATA_MOVEMENT_OPS,
        "convolution": api.CONVOLUTION_OPS,
        "normalization": api.NORMALIZATION_OPS,
        "sorting": api.SORTING_OPS,
    }
    return {op: family for family, ops in subsets.items() for op in ops}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cases", type=int, default=512)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    from ireefuzz.generators.ops import destinations
    from ireefuzz.tools.campaign.guidance import Coverage, draw_block
    from ireefuzz.tools.campaign.options import Options

    options = Options(seed=args.seed, cases=args.cases)
    cases = [c for b in range(-(-args.cases // options.block)) for c in draw_block(options, b, Coverage())][
        : args.cases
    ]
    families = family_of()
    nodes, present, ops = collections.Counter(), collections.Counter(), collections.Counter()
    writes_arg = 0
    for case in cases:
        g = case.graph
        ops.update(n.op for n in g.nodes)
        nodes.update(families[n.op] for n in g.nodes)
        present.update({families[n.op] for n in g.nodes})
        writes_arg += any(ref.startswith("a") for n in g.nodes for ref, _ in destinations(n.op, n.inputs, n.attrs))
    total = sum(nodes.values())
    print(f"{len(cases)} cases, {total} nodes, {len(ops)} of {len(families)} ops drawn")
    print(f"{'family':<14} {'nodes':>6} {'share':>6} {'in cases':>9}")
    for family in sorted(set(families.values()), key=lambda f: -nodes[f]):
        print(f"{family:<14} {nodes[family]:>6} {nodes[family] / total:>6.1%} {present[family] / len(cases):>9.1%}")
    print(f"{'writes an arg':<14} {'':>6} {'':>6} {writes_arg / len(cases):>9.1%}")
    print("top ops: " + ", ".join(f"{op} {n}" for op, n in ops.most_common(8)))
    print("least ops: " + ", ".join(f"{op} {n}" for op, n in ops.most_common()[-6:]))


if __name__ == "__main__":
    main()
