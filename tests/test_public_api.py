"""The public surface (``ireefuzz.api``, re-exported lazily by ``ireefuzz``): checked here, not by a self-check at
import (which would turn a stale table into an ImportError of every user's program)."""

from __future__ import annotations

import pkgutil

import ireefuzz
from ireefuzz import api


def test_all_lists_exactly_the_public_names_once_and_matches_the_lazy_table():
    assert [name for name in api.__all__ if not hasattr(api, name)] == []
    assert len(set(api.__all__)) == len(api.__all__)
    assert set(api.__all__) == set(ireefuzz.__all__)


def test_no_public_name_is_also_a_submodule():
    assert set(api.__all__) & {m.name for m in pkgutil.iter_modules(ireefuzz.__path__)} == set()


def test_the_op_subsets_cover_every_op():
    subsets = (
        api.ELEMENTWISE_OPS
        + api.PRODUCER_OPS
        + api.CONTRACTION_OPS
        + api.REDUCTION_OPS
        + api.DATA_MOVEMENT_OPS
        + api.CONVOLUTION_OPS
        + api.NORMALIZATION_OPS
        + api.SORTING_OPS
        + api.MODEL_OPS
    )
    assert sorted(set(api.OP_NAMES) - set(subsets)) == [], "add these ops to a subset in ireefuzz/api.py"
