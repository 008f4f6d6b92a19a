"""The greedy loop shared by the graph shrinker and the MLIR reducer, on a toy value type (fast)."""

from __future__ import annotations

import pytest

from ireefuzz.errors import NotInteresting
from ireefuzz.tools.shrink.loop import shrink_greedily


def drop_one(xs: tuple[int, ...]):
    for i in range(len(xs)):
        yield xs[:i] + xs[i + 1 :]


def halve_one(xs: tuple[int, ...]):
    for i, x in enumerate(xs):
        yield xs[:i] + (x // 2,) + xs[i + 1 :]


PASSES = (("drop-one", drop_one), ("halve-one", halve_one))
size = lambda xs: (len(xs), sum(xs))


def judged_one_by_one(predicate, calls: list):
    def interesting(batch):
        calls.append(len(batch))
        return [predicate(xs) for xs in batch]

    return interesting


def test_toy_tuples_shrink_to_the_smallest_interesting_value():
    calls: list[int] = []
    has_big = lambda xs: any(x >= 5 for x in xs)  # "the bug": some element of at least 5
    out = shrink_greedily((3, 9, 1, 40, 2), judged_one_by_one(has_big, calls), PASSES, size, batch=3)
    assert out.value == (5,)
    assert out.steps[:4] == ("drop-one",) * 4 and "halve-one" in out.steps
    assert max(calls) == 3  # candidates judged in batches


def test_pass_order_is_data():
    out = shrink_greedily((8, 8), lambda b: [sum(xs) >= 4 for xs in b], PASSES[::-1], size)
    assert out.value == (4,) and out.steps[0] == "halve-one"


def test_not_interesting_start_is_refused_before_any_pass():
    calls: list[int] = []
    with pytest.raises(NotInteresting, match="nothing to see"):
        shrink_greedily(
            (1, 2), judged_one_by_one(lambda xs: False, calls), PASSES, size, not_interesting="nothing to see"
        )
    assert calls == [1]


def test_batch_mates_that_interfere_are_verified_alone():
    """A candidate interesting only next to its batch-mates (shared module) is not taken."""

    def interesting(batch):
        return [len(batch) > 1 or xs == (7, 7, 7) for xs in batch]  # any batch of 2+ 'looks' interesting

    out = shrink_greedily((7, 7, 7), interesting, PASSES, size, batch=4)
    assert out.value == (7, 7, 7) and out.steps == ()
    fooled = shrink_greedily((7, 7, 7), interesting, PASSES, size, batch=4, verify_alone=False)
    assert fooled.value != (7, 7, 7)


def test_budget_stops_the_loop():
    out = shrink_greedily(tuple(range(50, 80)), lambda b: [True] * len(b), PASSES, size, max_evaluations=5)
    assert out.evaluations <= 5 + 1 and len(out.value) >= 25
