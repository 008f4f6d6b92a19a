"""Contractions that reduce a dim only one operand indexes (``jnp.sum(a * b)`` of a broadcast ``b``: "jk,k->"). The
contracts spike found IREE 3.13's vectorizer folding the broadcast into an invalid ``vector.contract`` ("invalid
accumulator/result vector shape"), on JAX's own StableHLO too."""

from __future__ import annotations

import pytest

from ireefuzz.generators.builder import GraphBuilder
from ireefuzz.generators.case import Case
from ireefuzz.generators.ops import CONTRACTIONS


def _contracted(spec, lhs, rhs, out, form="generic"):
    b = GraphBuilder()
    x, y = b.arg(lhs), b.arg(rhs)
    b.output(b.contract(x, y, b.fill(out, 0.0), spec=spec, form=form))
    return b.build()


def test_the_generators_draw_one_sided_reductions():
    assert {"jk,k->", "mjk,k->m", "ijk,jk->k"} <= set(CONTRACTIONS)


def test_linalg_contract_is_not_asked_to_reduce_a_dim_one_operand_lacks():
    """Its verifier refuses it ("neither a contracting dim nor of parallel iteration type"): the generic form only."""
    with pytest.raises(ValueError):
        _contracted("jk,k->", (3, 4), (4,), (), form="contract")
    _contracted("mk,k->m", (3, 4), (4,), (3,), form="contract")


@pytest.mark.iree
def test_the_inner_one_sided_reduction_is_caught_and_the_outer_one_is_clean():
    from ireefuzz.core.evaluate import evaluate

    inner, outer = evaluate(
        [
            Case(_contracted("jk,k->", (17, 16), (16,), ()), ({},), seed=1),
            Case(_contracted("mjk,k->m", ("M", 5, 16), (16,), ("M",)), ({"M": 9},), seed=1),
        ]
    )
    assert [f.kind for f in inner.findings] == ["compile-error"]
    assert "invalid accumulator/result vector shape" in inner.findings[0].evidence["diagnostic"]
    assert outer.findings == ()
