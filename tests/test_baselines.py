"""The floor and the ceiling of the xbench tables (harness/baselines), run like any agent over the shipped task
sets and judged by the reference judge (the rubric applied mechanically; no model): a keyword search with no
model must stay far below the ceiling, and the oracle, which reads the ground truth, must reach it. A task
set a keyword search solves cannot tell a good agent from a mediocre one; an oracle below the ceiling means
the judge or the plumbing between them is wrong."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

REPO = Path(__file__).resolve().parents[1]
TYPES = ("company_mapping", "people_to_info", "info_to_people")


def _run(agent: str, tmp_path: Path) -> dict[str, Any]:
    reports = tmp_path / f"reports-{agent.rsplit('.', 1)[-1]}"
    command = [
        sys.executable, "-m", "pytest", "evals/recruitment", "evals/marketing", "-p", "no:cacheprovider", "-q",
        "--agent", agent, "--judge-model", "harness/reference", "--report-dir", str(reports),
        "--cache-dir", str(tmp_path / "cache"), "--no-html", "--progress-interval", "0",
    ]  # fmt: skip
    done = subprocess.run(command, cwd=REPO, capture_output=True, text=True, timeout=900)
    assert done.returncode in (0, 1), done.stdout[-3000:] + done.stderr[-3000:]
    (results,) = reports.glob("*/results.json")
    return json.loads(results.read_text())


def _means(run: dict[str, Any]) -> dict[str, float]:
    """Per Recruitment type, the mean score; for Marketing, the mean re-selection rate (with the reference
    judge: the share of the k recommendations that are the client's picks)."""
    means: dict[str, list[float]] = {}
    for result in run["results"]:
        assert result["outcome"] != "error", result["error"]
        means.setdefault(result["kind"], []).append(result["score"])
    return {kind: sum(scores) / len(scores) for kind, scores in means.items()}


@pytest.fixture(scope="module")
def floor(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    return _run("harness.baselines.keyword:run", tmp_path_factory.mktemp("keyword"))


@pytest.fixture(scope="module")
def ceiling(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    return _run("harness.baselines.oracle:run", tmp_path_factory.mktemp("oracle"))


def test_the_task_sets_are_the_papers_size(floor: dict[str, Any]) -> None:
    kinds = [r["kind"] for r in floor["results"]]
    assert len(kinds) == 100 and kinds.count("influencer_search") == 50
    assert floor["run"]["options"]["judge_models"] == ["harness/reference"]
    assert all(call["namespace"] != "judge" for r in floor["results"] for call in r["calls"])  # no model judged


def test_a_keyword_search_stays_far_below_the_ceiling(floor: dict[str, Any]) -> None:
    means = _means(floor)
    for kind in TYPES:
        assert means[kind] <= 30, (kind, means)
    assert means["influencer_search"] <= 30, means  # at most 30 % of its recommendations are client picks


def test_the_oracle_reaches_the_ceiling(ceiling: dict[str, Any]) -> None:
    means = _means(ceiling)
    for kind in (*TYPES, "influencer_search"):
        assert means[kind] >= 95, (kind, means)
