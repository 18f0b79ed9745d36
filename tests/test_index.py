"""The capability index (IRT over the run history) and Tech-Market Fit: parameter recovery on simulated
data, linking across periods, frozen anchors, aggregate scores that were not drawn from the model, the
connectivity check, the history files and their import, the frontier, and deterministic plots."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from helpers import Project, stub_args

from harness.analysis import history, plots, tmf
from harness.analysis.index import capability_index, freeze, load_anchors
from harness.analysis.irt import IrtError, Observations, fit, standardise


def simulate(
    agents: int, tasks: int, missing: float, seed: int, levels: bool = True
) -> tuple[np.ndarray, list[tuple[str, str, float, float]]]:
    rng = np.random.default_rng(seed)
    theta = rng.normal(0, 1, agents)
    b = rng.normal(0, 1.5, tasks)
    a = np.exp(rng.normal(0, 0.4, tasks))
    cells = []
    for j in range(agents):
        for i in range(tasks):
            if rng.random() < missing:
                continue
            p = 1 / (1 + np.exp(-a[i] * (theta[j] - b[i])))
            k = rng.binomial(4, p) if levels else float(rng.random() < p)
            cells.append((f"agent{j:03d}", f"task{i:04d}", float(k), 4.0 if levels else 1.0))
    return theta, cells


def recovered(theta: np.ndarray, cells: list[tuple[str, str, float, float]]) -> tuple[float, float]:
    """(correlation of true and estimated theta, 95 % interval coverage), both on standardised scales."""
    fitted, _, _ = standardise(fit(Observations.build(cells)))
    order = [int(name[5:]) for name in fitted.agents]
    true = (theta[order] - theta[order].mean()) / theta[order].std()
    low, high = fitted.theta - 1.96 * fitted.se, fitted.theta + 1.96 * fitted.se
    return float(np.corrcoef(true, fitted.theta)[0, 1]), float(np.mean((true >= low) & (true <= high)))


def test_abilities_are_recovered_from_levels_with_half_the_cells_missing() -> None:
    theta, cells = simulate(60, 500, 0.5, seed=3)
    r, coverage = recovered(theta, cells)
    assert r >= 0.99
    assert 0.85 <= coverage <= 0.98


def test_periods_that_share_a_fifth_of_their_tasks_are_linked() -> None:
    """Three periods, twenty agents each, 250 tasks each of which 50 are common to all three: one joint
    fit puts every agent on one scale."""
    rng = np.random.default_rng(11)
    theta = rng.normal(0, 1, 60) + np.repeat([-0.7, 0.0, 0.7], 20)  # later periods are stronger
    shared = [f"task{i:04d}" for i in range(50)]
    per_period = [[f"task{1000 * (p + 1) + i:04d}" for i in range(200)] for p in range(3)]
    params = {}
    for name in shared + [t for ts in per_period for t in ts]:
        params[name] = (np.exp(rng.normal(0, 0.4)), rng.normal(0, 1.5))
    cells = []
    for j in range(60):
        period = j // 20
        for task in shared + per_period[period]:
            if rng.random() < 0.5:
                continue
            a, b = params[task]
            p = 1 / (1 + np.exp(-a * (theta[j] - b)))
            cells.append((f"agent{j:03d}", task, float(rng.binomial(4, p)), 4.0))
    r, _ = recovered(theta, cells)
    assert r >= 0.97


def _rows(cells: list[tuple[str, str, float, float]], period: str = "2026Q1") -> list[dict[str, str]]:
    return [
        {"agent": agent, "version": "", "date": "2026-01-15", "period": period, "task": task, "task_version": "1",
         "variant": "", "k": str(k), "n": str(n), "level": str(k + 1), "score": str(25 * k)}
        for agent, task, k, n in cells
    ]  # fmt: skip


def test_frozen_anchors_keep_published_abilities_where_they_were(tmp_path: Path) -> None:
    _, cells = simulate(30, 200, 0.4, seed=5)
    first = capability_index(_rows(cells), model="2pl")
    published = {r["agent"]: r["theta"] for r in first.rows}
    anchors_file = freeze(first, tmp_path / "anchors.json")
    # a new period: ten new agents on the old tasks and on 100 new ones
    _, more = simulate(10, 300, 0.4, seed=6)
    renamed = [(f"new{a[5:]}", t, k, n) for a, t, k, n in more]
    anchors, _ = load_anchors(anchors_file)
    second = capability_index(_rows(cells) + _rows(renamed, "2026Q2"), model="2pl", anchors=anchors)
    again = {r["agent"]: r for r in second.rows}
    assert all(again[name]["theta"] == value and again[name]["anchored"] for name, value in published.items())
    assert all(not again[f"new{j:03d}"]["anchored"] and again[f"new{j:03d}"]["se"] > 0 for j in range(10))
    assert any("published values do not move" in note for note in second.notes)


def test_a_matrix_that_falls_apart_is_refused_naming_its_parts() -> None:
    cells = [("alpha", "t1", 3, 4), ("alpha", "t2", 1, 4), ("beta", "t2", 2, 4)]
    cells += [("gamma", "t9", 4, 4), ("delta", "t9", 0, 4)]  # shares no task with the first three
    with pytest.raises(IrtError, match="falls apart into 2 parts") as caught:
        capability_index(_rows(cells), model="1pl")
    assert "(alpha, beta) on 2 task(s)" in str(caught.value) and "(delta, gamma) on 1 task(s)" in str(caught.value)


def test_a_small_matrix_gets_a_1pl_and_says_why() -> None:
    _, cells = simulate(8, 12, 0.0, seed=2)
    tiny = capability_index(_rows(cells))
    assert tiny.fit.model == "1pl" and "8 agent versions and 96 observed cells are too few" in tiny.notes[0]
    _, cells = simulate(20, 60, 0.2, seed=2)  # between 10 and 50 agents: held-out likelihood decides, and says
    middle = capability_index(_rows(cells))
    assert "held-out likelihood" in middle.notes[0] and middle.notes[0].startswith(middle.fit.model.upper())


def aggregate_benchmarks(seed: int) -> tuple[dict[str, float], list[dict[str, str]]]:
    """One score per (model, benchmark), as public leaderboards publish them, drawn from a process that is
    NOT the fitted model: a probit curve with a guessing floor (multiple choice), noise, and the time
    structure of real data (benchmarks appear when models get close to them; reporting is sparse)."""
    from scipy.stats import norm

    rng = np.random.default_rng(seed)
    models, benchmarks = 120, 36
    release = np.sort(rng.uniform(0, 6, models))
    capability = release * 0.8 + rng.normal(0, 0.6, models)
    difficulty = rng.uniform(-1, 6, benchmarks)
    slope = np.exp(rng.normal(0.3, 0.5, benchmarks))
    chance = rng.choice([0.0, 0.0, 0.25, 0.1], benchmarks)
    introduced = np.clip(difficulty / 1.2 - 1.5 + rng.normal(0, 0.5, benchmarks), 0, 5.5)
    rows = []
    for m in range(models):
        for b in range(benchmarks):
            if release[m] < introduced[b] - 0.3 or rng.random() > 0.35:
                continue
            p = chance[b] + (1 - chance[b]) * norm.cdf(slope[b] * (capability[m] - difficulty[b]) / 1.7)
            y = float(np.clip(p + rng.normal(0, 0.03), 0, 1))
            rows.append({"agent": f"model{m:03d}", "version": "", "date": "2026-01-01", "period": "p",
                         "task": f"bench{b:02d}", "task_version": "1", "variant": "", "k": str(20 * y), "n": "20",
                         "level": "", "score": str(100 * y)})  # fmt: skip
    return {f"model{m:03d}": float(capability[m]) for m in range(models)}, rows


@pytest.mark.parametrize("seed", [0, 1])
def test_aggregate_scores_rank_models_far_better_than_their_mean(seed: int) -> None:
    from scipy.stats import spearmanr

    truth, rows = aggregate_benchmarks(seed)
    result = capability_index(rows)
    names = [r["agent"] for r in result.rows]
    estimated = [r["theta"] for r in result.rows]
    means = {n: np.mean([float(r["score"]) for r in rows if r["agent"] == n]) for n in names}
    rho = spearmanr(estimated, [truth[n] for n in names])[0]
    naive = spearmanr([means[n] for n in names], [truth[n] for n in names])[0]
    assert rho >= 0.97 and rho > naive + 0.05


def test_bootstrap_intervals_are_on_the_fit_scale() -> None:
    _, cells = simulate(12, 60, 0.3, seed=8)
    result = capability_index(_rows(cells), model="2pl", bootstrap_resamples=40)
    assert result.interval_method.startswith("bootstrap")
    for row in result.rows:
        assert row["low"] <= row["theta"] <= row["high"]


# -- the history --------------------------------------------------------------------------------------


IMPORT = """agent,version,date,period,task,fraction,cost_usd
gpt-x,2025-06,2025-06-10,2025H1,mmlu,0.81,0.002
gpt-x,2025-06,2025-06-10,2025H1,gpqa,0.44,
claude-y,3,2025-07-01,2025H2,mmlu,1.2,
claude-y,3,2025-13-01,2025H2,gpqa,0.5,
,3,2025-07-01,2025H2,gpqa,0.5,
claude-y,3,2025-07-01,2025H2,gpqa,0.52,-1
"""


def test_an_import_reads_what_it_can_and_refuses_the_rest_by_row() -> None:
    report = history.import_csv(IMPORT, "board.csv")
    assert report.unit == "fraction" and "named 'fraction'" in report.unit_reason
    assert [r["task"] for r in report.rows] == ["mmlu", "gpqa"]
    assert report.rows[0]["k"] == "16.2" and report.rows[0]["n"] == "20" and report.rows[0]["score"] == "81"
    assert report.refused == [
        "board.csv: row 4: column 'fraction': expected a number in 0..1 (fraction), got 1.2",
        "board.csv: row 5: column 'date': '2025-13-01' is not a calendar date",
        "board.csv: row 6: column 'agent' is empty",
        "board.csv: row 7: column 'cost_usd': expected a number of 0 or more, got '-1'",
    ]
    scores = "agent,version,date,period,task,score\na,1,2026-01-01,q,t,3\na,1,2026-01-01,q,u,5\nb,1,2026-01-01,q,t,1\n"
    detected = history.import_csv(scores, "s.csv")
    assert detected.unit == "level" and "whole number from 1 to 5" in detected.unit_reason
    declared = history.import_csv(scores, "s.csv", unit="score")
    assert declared.unit == "score" and declared.rows[0]["score"] == "3"
    with pytest.raises(ValueError, match=r"s.csv:1: the header lacks period"):
        history.import_csv("agent,version,date,task,score\n", "s.csv")


def test_runs_write_history_and_the_commands_read_it(project: Project, fresh_stub: Any) -> None:
    project.copy_sample()
    fresh_stub.control(answers={"capital of France": "Paris", "17 + 25": "42"})
    price = {"input_cost_per_token": 1e-6, "output_cost_per_token": 4e-6}
    prices = project.write(
        "prices.json", json.dumps({m: price for m in ("openai/stub-small", "openai/stub-large", "openai/stub-judge")})
    )
    for model, version in (("openai/stub-small", "1"), ("openai/stub-large", "2")):
        project.pytest(
            "evals/sample", *stub_args(fresh_stub, "--model", model), "--agent-version", version,
            "--release-date", f"2026-0{version}-01", "--hourly-rate", "90", "--price-file", str(prices),
        )  # fmt: skip
    files = sorted((project.report_dir / "history").glob("*.csv"))
    assert len(files) == 2
    rows = history.read_history(project.report_dir)
    assert {(r["agent"], r["version"], r["date"], r["period"]) for r in rows} == {
        ("openai/stub-small", "1", "2026-01-01", "2026Q1"),
        ("openai/stub-large", "2", "2026-02-01", "2026Q1"),
    }
    judged = [r for r in rows if r["kind"] == "qa"]
    assert all(float(r["n"]) == 4.0 for r in judged if r["k"])
    text = (project.report_dir / files[-1].stem / "summary.md").read_text()
    assert (
        "### Tech-Market Fit (sample)" in text and "`openai/stub-large@2`" in text and "`openai/stub-small@1`" in text
    )

    def harness(*args: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            [sys.executable, "-m", "harness.cli", *args, "--report-dir", str(project.report_dir)],
            capture_output=True, text=True, cwd=project.root,
        )  # fmt: skip

    shown = harness("index", "--json", "--tasks", "--plot", str(project.root / "capability"))
    assert shown.returncode == 0, shown.stderr
    document = json.loads(shown.stdout)
    assert {r["agent"] for r in document["agents"]} == {"openai/stub-small", "openai/stub-large"}
    assert document["model"] == "1pl" and document["tasks"]
    assert (project.root / "capability.svg").read_bytes().startswith(b"<?xml")
    assert (project.root / "capability.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    fit_doc = json.loads(harness("tmf", "--hourly-rate", "90", "--json").stdout)
    assert fit_doc["human_cost_per_task"] > 0 and fit_doc["stage"] in (1, 2, 3)
    listed = harness("history", "list")
    assert "openai/stub-large" in listed.stdout and listed.returncode == 0


# -- Tech-Market Fit ------------------------------------------------------------------------------------


def P(label: str, cost: float, score: float) -> tmf.Point:
    return tmf.Point(label, cost, score)


def test_the_frontier_keeps_each_new_best_in_cost_order() -> None:
    points = [P("cheap", 0.01, 40), P("dominated", 0.05, 35), P("mid", 0.05, 60), P("tie-worse", 0.05, 60),
              P("pricey", 1.0, 80), P("same-score-dearer", 2.0, 80), P("free", 0.0, 20)]  # fmt: skip
    assert [p.label for p in tmf.frontier(points)] == ["free", "cheap", "mid", "pricey"]
    assert tmf.frontier([P("only", 3.0, 50)]) == [P("only", 3.0, 50)]
    assert [p.label for p in tmf.frontier([P("b", 1.0, 50), P("a", 1.0, 50)])] == ["a"]  # equal in both: one kept
    assert tmf.frontier([]) == []


def test_stages_follow_the_acceptable_region() -> None:
    points = [P("weak", 0.01, 40), P("good", 0.5, 70), P("expert", 5.0, 95)]
    one = tmf.assess(points, human_cost=0.1, min_score=60)
    assert (one.stage, one.reached, one.value_per_task) == (1, False, None)
    two = tmf.assess(points, human_cost=2.0, min_score=60, expert_score=90)
    assert (two.stage, two.best.label) == (2, "good") and two.value_per_task == pytest.approx(1.5)
    three = tmf.assess(points, human_cost=10.0, min_score=60, expert_score=90)
    assert three.stage == 3 and three.best.label == "good"  # the cheapest acceptable point gives the value
    free = tmf.assess([P("local", 0.0, 65)], human_cost=0.5, min_score=60)
    assert free.reached and free.value_per_task == 0.5


def test_plots_have_the_same_bytes_for_the_same_data() -> None:
    rows = [
        {"agent": "a", "version": "1", "date": "2026-01-01", "theta": -0.5, "low": -0.9, "high": -0.1},
        {"agent": "a", "version": "2", "date": "2026-03-01", "theta": 0.4, "low": 0.1, "high": 0.7},
        {"agent": "b", "version": "", "date": "2026-02-01", "theta": 0.1, "low": None, "high": None},
    ]
    assert plots.capability_over_time(rows) == plots.capability_over_time(rows)
    assessment = tmf.assess([P("x", 0.0, 50), P("y", 0.3, 75)], human_cost=1.0, min_score=60)
    first, second = plots.tech_market_fit(assessment), plots.tech_market_fit(assessment)
    assert first == second and set(first) == {"svg", "png"}
    assert b"<dc:date>" not in first["svg"]
