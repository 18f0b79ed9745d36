"""`harness report RUN_A RUN_B`: a leaderboard for any suite, a benchmark table or not."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from helpers import leaderboard_run

from harness.cli import main


def test_a_suite_without_a_benchmark_table_gets_a_board(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    good = leaderboard_run(tmp_path, "run-a", "openai/good", [100, 100, 0, 100])
    poor = leaderboard_run(tmp_path, "run-b", "openai/poor", [0, 50, 0, 100])
    assert main(["report", str(good), str(poor)]) == 0
    text = capsys.readouterr().out
    rows = {line.split()[0]: line.split() for line in text.splitlines() if line.startswith("run-")}
    assert rows["run-a"][1:] == ["openai/good", "qa-own", "4", "75.0", "75%", "0", "0", "0.0400"], text
    assert rows["run-b"][1:] == ["openai/poor", "qa-own", "4", "37.5", "25%", "0", "0", "0.0400"], text
    assert main(["report", str(good), str(poor), "--json"]) == 0
    board = {r["run_id"]: r for r in json.loads(capsys.readouterr().out)["runs"]}
    assert board["run-a"]["suites"]["qa-own"]["pass_rate"] == 0.75
    assert main(["report", str(good), str(poor), "--markdown"]) == 0
    assert "| run-b | openai/poor | qa-own | 4 | 37.5 | 25% |" in capsys.readouterr().out


def test_an_interrupted_run_is_marked_on_the_board(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    partial = {"reason": "interrupted", "items_expected": 10, "items_done": 2, "resume": "pytest evals --resume p"}
    cut = leaderboard_run(tmp_path, "run-p", "openai/x", [100, 100], incomplete=partial)
    whole = leaderboard_run(tmp_path, "run-w", "openai/x", [100, 0])
    assert main(["report", str(cut), str(whole)]) == 0
    text = capsys.readouterr().out
    assert "run-p (INCOMPLETE)" in text and "INCOMPLETE RUN (interrupted): 2 of 10 items" in text
    assert "run-w (INCOMPLETE)" not in text
