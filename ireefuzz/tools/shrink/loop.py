"""One greedy loop, many passes: the shrinking driver shared by the graph shrinker and the MLIR reducer.

As in Hypothesis's ``shrinking/common.py``, the loop knows nothing about what it shrinks. It is
parameterized by

* ``passes``: named callables, each proposing smaller candidates of a value (most aggressive first);
  their order is data;
* ``size_key``: smaller is simpler; only candidates strictly smaller than the current value are tried;
* ``interesting``: a batch of candidates -> one bool each (one compile may judge several).

The start must be interesting (``NotInteresting`` otherwise). A pass is applied again as long as it
makes progress; rounds over all passes repeat until none does or the evaluation budget is spent.
``ireefuzz.tools.shrink.graph`` (Cases) and ``ireefuzz.tools.shrink.mlir`` (MLIR text) differ only in passes,
size and test.
"""

from __future__ import annotations

import dataclasses
import time
from typing import Callable, Generic, Hashable, Iterator, Sequence, TypeVar

from ireefuzz.errors import NotInteresting

V = TypeVar("V")
Propose = Callable[[V], Iterator[V]]
Interesting = Callable[[Sequence[V]], list[bool]]


@dataclasses.dataclass(frozen=True)
class Outcome(Generic[V]):
    value: V
    steps: tuple[str, ...]  # names of the passes that made progress, in order
    evaluations: int  # candidates judged, the start included
    seconds: float


def shrink_greedily(
    start: V,
    interesting: Interesting,
    passes: Sequence[tuple[str, Propose]],
    size_key: Callable[[V], tuple],
    *,
    identity: Callable[[V], Hashable] = lambda v: v,
    batch: int = 1,
    verify_alone: bool = True,
    max_evaluations: int = 400,
    not_interesting: str = "the starting value is not interesting",
    log: Callable[[str, V], None] | None = None,
) -> Outcome[V]:
    """Greedily shrink ``start`` while ``interesting`` holds (see the module doc).

    ``identity`` keys the values already tried; ``verify_alone`` re-judges a candidate found
    interesting next to batch-mates on its own (a shared module can make them interfere)."""
    started = time.perf_counter()
    if not interesting([start])[0]:
        raise NotInteresting(not_interesting)
    search = _Search(interesting, size_key, identity, batch, verify_alone)
    search.seen.add(identity(start))
    current, steps, progress = start, [], True
    while progress and search.evaluations < max_evaluations:
        progress = False
        for name, propose in passes:
            while search.evaluations < max_evaluations:
                found = search.first_interesting(current, propose)
                if found is None:
                    break
                current, progress = found, True
                steps.append(name)
                if log:
                    log(name, current)
    return Outcome(current, tuple(steps), search.evaluations, time.perf_counter() - started)


@dataclasses.dataclass
class _Search(Generic[V]):
    interesting: Interesting
    size_key: Callable[[V], tuple]
    identity: Callable[[V], Hashable]
    batch: int
    verify_alone: bool
    evaluations: int = 1
    seen: set = dataclasses.field(default_factory=set)

    def first_interesting(self, current: V, propose: Propose) -> V | None:
        """The first fresh, smaller candidate of ``propose(current)`` that is interesting, or None.
        Candidates are judged ``batch`` at a time as they are proposed; the rest are not drawn."""
        key, chunk = self.size_key(current), []
        for candidate in propose(current):
            ident = self.identity(candidate)
            if ident in self.seen or not self.size_key(candidate) < key:
                continue
            self.seen.add(ident)
            chunk.append(candidate)
            if len(chunk) == self.batch:
                found, chunk = self._judge(chunk), []
                if found is not None:
                    return found
        return self._judge(chunk) if chunk else None

    def _judge(self, chunk: list[V]) -> V | None:
        self.evaluations += len(chunk)
        for candidate, verdict in zip(chunk, self.interesting(chunk)):
            if verdict and (len(chunk) == 1 or not self.verify_alone or self.interesting([candidate])[0]):
                return candidate
        return None
