"""--sample N: a small, fair, repeatable slice of every suite.

N tasks per suite (every variant and repeat of a chosen task runs, so a task's solutions stay
comparable), spread over the suite's strata (its kinds and the labels its benchmark reports by, such as
GEM's data set) in proportion to their sizes, every stratum present when N allows. Within a stratum,
tasks are taken in the order of a hash of their suite and id: the same tasks whatever the file order,
the machine or the worker count, and a task keeps its place when others are added.
"""

from __future__ import annotations

import hashlib
from collections import defaultdict
from collections.abc import Callable, Hashable, Sequence
from typing import TypeVar

T = TypeVar("T")


def hash_order(suite: str, task_id: str) -> str:
    return hashlib.sha256(f"{suite}\x00{task_id}".encode()).hexdigest()


def allocate(sizes: dict[Hashable, int], n: int) -> dict[Hashable, int]:
    """How many of n go to each stratum: one to each first (in hash order, while n lasts), the rest in
    proportion to what is left in each (largest remainder), never more than a stratum holds."""
    strata = sorted(sizes, key=lambda s: hashlib.sha256(repr(s).encode()).hexdigest())
    share = {s: 0 for s in strata}
    budget = min(n, sum(sizes.values()))
    for stratum in strata:
        if budget and sizes[stratum]:
            share[stratum] += 1
            budget -= 1
    while budget:
        room = {s: sizes[s] - share[s] for s in strata if sizes[s] > share[s]}
        total = sum(room.values())
        exact = {s: budget * room[s] / total for s in room}
        given = {s: min(room[s], int(exact[s])) for s in room}
        if not any(given.values()):  # fewer left than strata with room: the largest remainders
            for stratum in sorted(room, key=lambda s: (-(exact[s] - int(exact[s])), strata.index(s)))[:budget]:
                given[stratum] = 1
        for stratum, extra in given.items():
            share[stratum] += extra
            budget -= extra
    return share


def choose_tasks(
    tasks: Sequence[T],
    n: int,
    *,
    suite: Callable[[T], str],
    task_id: Callable[[T], str],
    stratum: Callable[[T], Hashable],
) -> set[tuple[str, str]]:
    """The (suite, task id) pairs of the sample: n per suite, stratified, hash-ordered."""
    by_suite: dict[str, dict[Hashable, dict[str, T]]] = defaultdict(lambda: defaultdict(dict))
    for task in tasks:
        by_suite[suite(task)][stratum(task)].setdefault(task_id(task), task)
    chosen: set[tuple[str, str]] = set()
    for name, strata in by_suite.items():
        share = allocate({s: len(ids) for s, ids in strata.items()}, n)
        for stratum_key, ids in strata.items():
            ordered = sorted(ids, key=lambda tid: hash_order(name, tid))
            chosen.update((name, tid) for tid in ordered[: share[stratum_key]])
    return chosen
