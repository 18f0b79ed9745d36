"""--shard K/N: whole tasks, every task on exactly one shard, the same shard on every machine; balanced by
hash or by the durations in the run history; bad values are one line (exit 4) before any call."""

from __future__ import annotations

import json
import random
import re
from pathlib import Path
from typing import Any

import jsonschema
import pytest
from helpers import REPO, Project, stub_args

from harness.analysis.history import COLUMNS, write_rows
from harness.sharding import Unit, assign, durations_from_history, hash_shard, parse_shard, read_durations

PINNED = [3, 0, 1, 1, 0, 3, 3, 0]  # hash_shard("sample", "t0".."t7", 4), sha256 of "suite\0id"


def units(n: int, suites: tuple[str, ...] = ("a", "b")) -> list[Unit]:
    return [Unit(suites[i % len(suites)], f"t{i:04d}", 1 + i % 3) for i in range(n)]


def test_parse_shard() -> None:
    assert parse_shard("1/4") == (1, 4) and parse_shard(" 4 / 4 ") == (4, 4) and parse_shard("1/1") == (1, 1)
    for bad in ("0/4", "5/4", "2", "a/b", "-1/3", "1/0", "", "1/4/2"):
        with pytest.raises(ValueError, match="--shard"):
            parse_shard(bad)


@pytest.mark.parametrize("balance", ["hash", "history"])
def test_every_task_lands_on_exactly_one_shard_whatever_the_order(balance: str) -> None:
    tasks = units(300)
    durations = {(u.suite, u.task_id): 0.5 + (i % 7) for i, u in enumerate(tasks[:200])}  # 100 unknown
    placed = assign(tasks, 4, balance, durations)
    assert set(placed) == set(tasks) and set(placed.values()) == {0, 1, 2, 3}
    shuffled = tasks[:]
    random.Random(5).shuffle(shuffled)
    assert assign(shuffled, 4, balance, dict(reversed(list(durations.items())))) == placed


def test_hash_shards_are_stable_and_adding_a_task_moves_no_other() -> None:
    tasks = units(200)
    before = assign(tasks, 5)
    after = assign([*tasks, Unit("a", "new-task", 2)], 5)
    assert all(after[u] == shard for u, shard in before.items())
    # pinned: the assignment must not depend on the Python version, the machine or PYTHONHASHSEED
    assert [hash_shard("sample", f"t{i}", 4) for i in range(8)] == PINNED


def test_history_balance_evens_out_the_work_and_spreads_unknown_tasks() -> None:
    tasks = [Unit("s", f"t{i:03d}", 1) for i in range(40)]
    durations = {("s", f"t{i:03d}"): (30.0 if i < 4 else 1.0) for i in range(30)}  # four slow tasks, 10 unknown
    by_history = assign(tasks, 4, "history", durations)
    loads = [0.0] * 4
    for unit, shard in by_history.items():
        loads[shard] += durations.get((unit.suite, unit.task_id), 1.0)
    assert max(loads) - min(loads) <= 1.0  # each shard gets one slow task and its share of the rest
    unknown = [by_history[u] for u in tasks[30:]]
    assert len(set(unknown)) >= 3  # the tasks the history lacks are spread, not piled on one shard


def test_durations_are_medians_of_finished_items(tmp_path: Path) -> None:
    rows = [
        {"suite": "s", "task": "a", "outcome": "passed", "latency_s": "1"},
        {"suite": "s", "task": "a", "outcome": "failed", "latency_s": "3"},
        {"suite": "s", "task": "a", "outcome": "passed", "latency_s": "100"},
        {"suite": "s", "task": "b", "outcome": "error", "latency_s": "9"},
        {"suite": "s", "task": "c", "outcome": "passed", "latency_s": ""},
    ]
    assert durations_from_history(rows) == {("s", "a"): 3.0}
    full = [{c: row.get(c, "") for c in COLUMNS} for row in rows]
    write_rows(tmp_path / "history" / "20260101T000000000Z-aaaaaa.csv", full)
    assert read_durations(tmp_path) == {("s", "a"): 3.0}


# -- with pytest ---------------------------------------------------------------------------------------


def write_suite(project: Project, tasks: int) -> None:
    lines = ["suite: shardy", "defaults: {kind: qa, version: 1, scoring: {method: contains}}", "tasks:"]
    for i in range(tasks):
        lines += [f"  - id: q{i:03d}", f"    inputs: {{prompt: 'Question {i}?'}}", "    ground_truth: {answer: 'x'}"]
    project.write("evals/shardy/tasks.yaml", "\n".join(lines) + "\n")


def test_bad_shard_options_are_one_line_before_any_call(project: Project, fresh_stub: Any) -> None:
    write_suite(project, 4)
    for value, expected in (("0/3", "1 <= K <= N"), ("4/3", "1 <= K <= N"), ("two", "must be K/N")):
        out = project.pytest("evals", *stub_args(fresh_stub), "--shard", value)
        assert out.returncode == 4 and expected in out.stderr, out.stderr
    lonely = project.pytest("evals", *stub_args(fresh_stub), "--shard-balance", "history")
    assert lonely.returncode == 4 and "--shard-balance needs --shard" in lonely.stderr
    shared_budget = project.pytest(
        "evals", *stub_args(fresh_stub), "--shard", "1/2", "--max-cost", "1", "--cache-url", "redis://127.0.0.1:1/0"
    )
    assert shared_budget.returncode == 4 and "needs --run-group" in shared_budget.stderr
    assert fresh_stub.stats()["requests"] == 0


def test_estimate_and_runs_work_per_shard_and_record_it(project: Project, stub: Any) -> None:
    write_suite(project, 12)
    estimates = [project.pytest("evals", *stub_args(stub), "--shard", f"{k}/3", "--repeats", "2", "--estimate")
                 for k in (1, 2, 3)]  # fmt: skip
    counts = []
    for out in estimates:
        assert out.returncode == 0, out.stdout[-1500:]
        line = next(x for x in out.stdout.splitlines() if x.startswith("shardy "))
        counts.append(int(line.split()[1]))
        assert "harness: shard " in out.stdout and "of 12 tasks" in out.stdout
    assert sum(counts) == 24 and all(c % 2 == 0 for c in counts)  # whole tasks: both repeats together
    assert not (project.report_dir / "LATEST").exists()  # an estimate writes no run, not even a shard's
    run = project.pytest("evals", *stub_args(stub), "--shard", "2/3", "--repeats", "2", "--no-html").run
    shard, inputs = run["run"]["shard"], run["run"]["inputs"]
    assert (shard["index"], shard["count"], shard["balance"], shard["items"]) == (2, 3, "hash", counts[1])
    assert len(run["results"]) == counts[1] and inputs["tasks"] == 12 and inputs["items"] == 24
    # what else the merge compares: the harness's own files (installed images have no git) and the prices
    assert re.fullmatch("[0-9a-f]{64}", inputs["harness_source"]) and inputs["price_file"] is None
    assert not (project.report_dir / "history").exists()  # a shard adds nothing to the history; its merge does
    jsonschema.validate(run, json.loads((REPO / "harness/schemas/results.schema.json").read_text()))


def test_history_balance_gives_the_same_assignment_on_every_machine(project: Project, stub: Any) -> None:
    write_suite(project, 10)
    rows = [{c: "" for c in COLUMNS} | {"suite": "shardy", "task": f"q{i:03d}", "outcome": "passed",
            "latency_s": str(20 if i == 3 else 1)} for i in range(8)]  # fmt: skip
    write_rows(project.report_dir / "history" / "20260101T000000000Z-aaaaaa.csv", rows)
    seen = []
    for _ in range(2):
        out = project.pytest("evals", *stub_args(stub), "--shard", "1/2", "--shard-balance", "history",
                             "--collect-only", "-q")  # fmt: skip
        assert out.returncode == 0, out.stderr
        seen.append(sorted(line for line in out.stdout.splitlines() if "::" in line))
    assert seen[0] == seen[1] and seen[0]
    heavy = any("q003" in line for line in seen[0])
    assert len(seen[0]) == (1 if heavy else 9)  # the slow task alone on one shard, the nine others together
