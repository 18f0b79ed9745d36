"""--sample N: N tasks per suite, every stratum present when N allows, the same tasks whatever the order."""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

from helpers import Project

from harness.sampling import allocate, choose_tasks


def tasks_of(spec: dict[str, dict[str, int]]) -> list[tuple[str, str, str]]:
    """(suite, task id, stratum) for `{suite: {stratum: count}}`."""
    return [(suite, f"{stratum}-{i}", stratum) for suite, strata in spec.items() for stratum, n in strata.items()
            for i in range(n)]  # fmt: skip


def choose(tasks: list[tuple[str, str, str]], n: int) -> set[tuple[str, str]]:
    return choose_tasks(tasks, n, suite=lambda t: t[0], task_id=lambda t: t[1], stratum=lambda t: t[2])


def test_every_stratum_is_present_then_shares_follow_size() -> None:
    assert allocate({"a": 30, "b": 5, "c": 1}, 3) == {"a": 1, "b": 1, "c": 1}
    share = allocate({"a": 60, "b": 30, "c": 10}, 10)
    assert sum(share.values()) == 10 and share["a"] > share["b"] > share["c"] >= 1
    assert allocate({"a": 2, "b": 1}, 50) == {"a": 2, "b": 1}  # never more than there is
    fewer = allocate({"a": 5, "b": 5, "c": 5, "d": 5}, 2)
    assert sorted(fewer.values()) == [0, 0, 1, 1]


def test_n_tasks_per_suite_the_same_whatever_the_order() -> None:
    tasks = tasks_of({"gem": {"mt": 6, "lm": 14, "ca": 15}, "rec": {"cm": 13, "p2i": 8, "i2p": 9}})
    chosen = choose(tasks, 6)
    per_suite = Counter(suite for suite, _ in chosen)
    assert per_suite == {"gem": 6, "rec": 6}
    strata = {tid.split("-")[0] for _, tid in chosen}
    assert strata == {"mt", "lm", "ca", "cm", "p2i", "i2p"}
    shuffled = tasks[:]
    random.Random(3).shuffle(shuffled)
    assert choose(shuffled, 6) == chosen
    more = choose([*tasks, ("rec", "cm-new", "cm")], 6)  # a task added elsewhere moves few others
    assert len(more ^ chosen) <= 2


def test_a_run_with_sample_runs_the_chosen_tasks_with_all_their_repeats(project: Project, stub: Any) -> None:
    from helpers import stub_args

    project.copy_sample()
    out = project.pytest("evals/sample", *stub_args(stub), "--sample", "2", "--repeats", "2")
    results = out.run["results"]
    assert len({r["task_id"] for r in results}) == 2 and len(results) == 4
    assert out.run["run"]["options"]["sample"] == 2 and "deselected" in out.stdout
    bad = project.pytest("evals/sample", *stub_args(stub), "--sample", "0")
    assert bad.returncode == 4 and "--sample must be at least 1" in bad.stderr
