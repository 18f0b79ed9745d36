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
from harness.report import charts


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


def two_periods(seed: int) -> dict[str, Any]:
    """Two evaluation periods drawn from ONE set of true parameters: 30 agents on 200 tasks, then 10 new,
    stronger agents on those 200 tasks (the same a and b) and on 100 new ones."""
    rng = np.random.default_rng(seed)
    a, b = np.exp(rng.normal(0, 0.5, 300)), rng.normal(0, 1.5, 300)
    old, new = rng.normal(0, 1, 30), rng.normal(0.8, 1, 10)

    def cells(prefix: str, thetas: np.ndarray, tasks: int) -> list[tuple[str, str, float, float]]:
        out = []
        for j, theta in enumerate(thetas):
            for i in range(tasks):
                if rng.random() < 0.4:
                    continue
                p = 1 / (1 + np.exp(-a[i] * (theta - b[i])))
                out.append((f"{prefix}{j:03d}", f"task{i:04d}", float(rng.binomial(4, p)), 4.0))
        return out

    return {"old": old, "new": new, "first": cells("old", old, 200), "second": cells("new", new, 300)}


def where_it_lands(cells: list[tuple[str, str, float, float]], params: dict[str, tuple[float, float]]) -> float:
    """An agent's MAP ability given every task's (a, b), computed here on its own: with the published tasks at
    their frozen values, it is where a fit that truly holds them must place the agent. A fit that drops the
    frozen discriminations (a 1PL refit) or lets the tasks move lands elsewhere."""
    from scipy.optimize import minimize_scalar

    k, n = np.array([c[2] for c in cells]), np.array([c[3] for c in cells])
    a, b = np.array([params[c[1]][0] for c in cells]), np.array([params[c[1]][1] for c in cells])

    def loss(theta: float) -> float:
        z = a * (theta - b)
        return float(np.sum(n * np.logaddexp(0.0, z) - k * z)) + 0.5 * theta**2  # the N(0, 1) prior

    return float(minimize_scalar(loss, bounds=(-8, 8), method="bounded", options={"xatol": 1e-7}).x)


def held_and_landed(
    anchors: Any, tasks: list[dict[str, Any]], agents: dict[str, float], cells: list[tuple[str, str, float, float]]
) -> tuple[float, float]:
    """(the largest move of an anchored task's a or b, the largest distance of a new agent from where the
    held parameters place it)."""
    moved = max(
        max(abs(t["a"] - anchors.tasks[t["task"]][0]), abs(t["b"] - anchors.tasks[t["task"]][1]))
        for t in tasks
        if t["task"] in anchors.tasks
    )
    params = {t["task"]: (t["a"], t["b"]) for t in tasks} | dict(anchors.tasks)
    by_agent: dict[str, list[tuple[str, str, float, float]]] = {}
    for agent, task, k, n in cells:
        by_agent.setdefault(agent, []).append((agent, f"{task}@v1", k, n))
    off = max(abs(agents[name] - where_it_lands(mine, params)) for name, mine in by_agent.items())
    return moved, off


def test_frozen_anchors_hold_their_values_and_place_new_agents_where_their_ability_puts_them(tmp_path: Path) -> None:
    drawn = two_periods(seed=5)
    first = capability_index(_rows(drawn["first"]), model="2pl")
    published = {r["agent"]: r["theta"] for r in first.rows}
    # the published scale is an affine map of the true one: learn it from the first period's agents
    slope, intercept = np.polyfit(drawn["old"], [published[f"old{j:03d}"] for j in range(30)], 1)
    anchors, frozen_model = load_anchors(freeze(first, tmp_path / "anchors.json"))
    assert frozen_model == "2pl"
    rows = _rows(drawn["first"]) + _rows(drawn["second"], "2026Q2")
    second = capability_index(rows, anchors=anchors, anchors_model=frozen_model)  # "auto" keeps the frozen 2PL
    assert second.fit.model == "2pl" and any("frozen" in note and "2PL" in note for note in second.notes)
    again = {r["agent"]: r for r in second.rows}
    assert all(again[name]["theta"] == value and again[name]["anchored"] for name, value in published.items())
    landed = np.array([again[f"new{j:03d}"]["theta"] for j in range(10)])
    expected = slope * drawn["new"] + intercept  # where their true ability lies on the published scale
    assert all(not again[f"new{j:03d}"]["anchored"] and again[f"new{j:03d}"]["se"] > 0 for j in range(10))
    assert float(np.mean(np.abs(landed - expected))) <= 0.3, (landed, expected)
    # Tight: the anchored tasks did not move, and each new agent sits exactly where the frozen a and b put it
    # (a 1PL refit of this 2PL freeze lands them about 0.1 away, and moves every a to 1).
    moved, off = held_and_landed(anchors, second.tasks, {r["agent"]: r["theta"] for r in second.rows}, drawn["second"])
    assert moved <= 1e-3 and off <= 0.01, (moved, off)
    assert float(np.mean(landed - expected)) == pytest.approx(0, abs=0.2)  # no shift of the scale
    # without the anchors the new, stronger cohort moves the scale: the held values are what prevent it
    free = {r["agent"]: r["theta"] for r in capability_index(rows, model="2pl").rows}
    moved = np.array([free[f"new{j:03d}"] for j in range(10)])
    assert abs(float(np.mean(moved - expected))) > 0.2


def test_harness_index_freezes_a_2pl_and_holds_it_for_the_next_period(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The commands as a user runs them: fit the first period as 2PL and --freeze it; a later period of six
    new agents (too few for auto to choose 2PL on its own) is fitted with --anchors, keeps the frozen model,
    and places them on the published scale; asking for 1PL against the freeze is refused in one line."""
    from harness.cli import main

    drawn = two_periods(seed=7)
    second = [c for c in drawn["second"] if int(c[0][3:]) < 6]
    folder = history.history_dir(tmp_path)
    blank = dict.fromkeys(history.COLUMNS, "")
    history.write_rows(folder / "q1.csv", [blank | r | {"run_id": "q1"} for r in _rows(drawn["first"])])
    anchors_file = tmp_path / "index-2026Q1.json"

    def index(*args: str) -> tuple[int, str, str]:
        code = main(["index", *args, "--report-dir", str(tmp_path)])
        out = capsys.readouterr()
        return code, out.out, out.err

    code, out, err = index("--irt-model", "2pl", "--freeze", str(anchors_file), "--json")
    assert code == 0 and "froze 30 agents and 200 tasks" in err, err
    published = {r["agent"]: r["theta"] for r in json.loads(out)["agents"]}
    history.write_rows(folder / "q2.csv", [blank | r | {"run_id": "q2"} for r in _rows(second, "2026Q2")])
    code, out, err = index("--anchors", str(anchors_file), "--period", "2026Q2", "--json", "--tasks")
    assert code == 0, err
    document = json.loads(out)
    assert document["model"] == "2pl" and "2PL, the model the anchors were frozen from" in document["notes"]
    anchors, _ = load_anchors(anchors_file)
    assert anchors.theta == pytest.approx(published, abs=1e-4)
    agents = {r["agent"]: r["theta"] for r in document["agents"]}
    assert sorted(agents) == [f"new{j:03d}" for j in range(6)] and not any(r["anchored"] for r in document["agents"])
    moved, off = held_and_landed(anchors, document["tasks"], agents, second)
    assert moved <= 1e-3 and off <= 0.01, (moved, off)
    code, out, err = index("--anchors", str(anchors_file), "--period", "2026Q2", "--irt-model", "1pl")
    assert code == 2 and err.count("\n") == 1 and "frozen from a 2PL fit" in err and out == ""


def test_anchors_frozen_from_a_2pl_are_not_refitted_as_a_1pl(tmp_path: Path) -> None:
    drawn = two_periods(seed=8)
    anchors, frozen_model = load_anchors(
        freeze(capability_index(_rows(drawn["first"]), model="2pl"), tmp_path / "a.json")
    )
    with pytest.raises(IrtError, match="frozen from a 2PL fit"):
        capability_index(_rows(drawn["second"]), model="1pl", anchors=anchors, anchors_model=frozen_model)


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
        "board.csv: row 7: column 'cost_usd': expected a number from 0 to 1e+06, got '-1'",
    ]
    scores = "agent,version,date,period,task,score\na,1,2026-01-01,q,t,3\na,1,2026-01-01,q,u,5\nb,1,2026-01-01,q,t,1\n"
    detected = history.import_csv(scores, "s.csv")
    assert detected.unit == "level" and "whole number from 1 to 5" in detected.unit_reason
    declared = history.import_csv(scores, "s.csv", unit="score")
    assert declared.unit == "score" and declared.rows[0]["score"] == "3"
    with pytest.raises(ValueError, match=r"s.csv:1: the header lacks period"):
        history.import_csv("agent,version,date,task,score\n", "s.csv")


@pytest.mark.parametrize("count", [0, -5, float("nan"), float("inf")])
def test_a_pseudo_count_that_is_not_a_count_is_refused(count: float) -> None:
    with pytest.raises(ValueError, match="--pseudo-count must be a number from 1"):
        history.import_csv(IMPORT, "board.csv", trials=count)


def test_an_import_survives_the_files_people_actually_have() -> None:
    # a BOM, header names with spaces and capitals: still read, and fractions still detected as fractions
    messy = "\ufeffagent , Version,date,period,task, fraction \na,1,2026-01-02,q,t,0.5\na,1,2026-01-02,q,u,0.25\n"
    report = history.import_csv(messy, "m.csv")
    assert report.unit == "fraction" and [r["score"] for r in report.rows] == ["50", "25"]
    # the same row fifty times counts once; the others are named
    repeated = "agent,version,date,period,task,score\n" + "a,1,2026-01-02,q,t,70\n" * 50
    report = history.import_csv(repeated, "r.csv")
    assert len(report.rows) == 1 and len(report.refused) == 49 and "repeats row 2" in report.refused[0]
    # an absurd cost is a located refusal, a huge field a located error: never a traceback
    report = history.import_csv("agent,version,date,period,task,score,cost_usd\na,1,2026-01-02,q,t,70,1e308\n", "c")
    assert report.rows == [] and "column 'cost_usd'" in report.refused[0]
    with pytest.raises(ValueError, match=r"h.csv:2: .*field"):
        history.import_csv("agent,version,date,period,task,score\na,1,2026-01-02,q," + "t" * 200_000 + ",5\n", "h.csv")


def test_a_hand_edited_history_row_is_left_out_and_named(tmp_path: Path) -> None:
    folder = history.history_dir(tmp_path)
    good = {c: "" for c in history.COLUMNS} | {
        "run_id": "r",
        "agent": "a",
        "task": "t",
        "score": "50",
        "k": "2",
        "n": "4",
    }
    edits = [{"task": "u", "k": "lots"}, {"task": "v", "k": "9"}, {"task": "w", "k": "0", "n": "0"},
             {"task": "x", "n": ""}, {"task": "y", "k": "1", "n": "1"}]  # fmt: skip
    history.write_rows(folder / "r.csv", [good, *(good | edit for edit in edits)])
    # a field past the csv module's limit: the file cannot be read to its end, so none of it is used
    history.write_rows(folder / "s.csv", [good | {"run_id": "s"}, good | {"run_id": "s", "task": "z" * 200_000}])
    problems: list[str] = []
    rows = history.read_history(tmp_path, problems)
    assert [r["task"] for r in rows] == ["t", "y"] and {r["run_id"] for r in rows} == {"r"}
    assert problems[0].endswith("r.csv:3: column 'k': expected a number, got 'lots'; left out")
    assert "r.csv:4: column 'k': more successes than trials" in problems[1]
    assert "r.csv:5: column 'n': expected a number of trials above 0, got 0; left out" in problems[2]
    assert "r.csv:6: columns 'k' and 'n': one is empty" in problems[3]
    assert "s.csv:3: cannot be read (field larger than field limit" in problems[4] and "whole file" in problems[4]
    # every row left is one the index can fit: the hand edits cost their own rows, never the whole index
    assert capability_index(rows, model="1pl").rows


@pytest.mark.parametrize("count", ["0", "-5", "nan", "inf"])
def test_harness_index_refuses_a_pseudo_count_up_front_in_one_line(
    tmp_path: Path, count: str, capsys: pytest.CaptureFixture[str]
) -> None:
    from harness.cli import main

    # no history at all: the option is refused before anything is read
    assert main(["index", f"--pseudo-count={count}", "--report-dir", str(tmp_path)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "--pseudo-count must be a number from 1 to 10,000" in err


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
    fit = harness("tmf", "--hourly-rate", "90", "--json", "--plot", str(project.root / "tmf"))
    assert fit.returncode == 0, fit.stderr
    fit_doc = json.loads(fit.stdout)
    minutes = {r["task"]: float(r["expert_minutes"]) for r in rows if r["expert_minutes"]}
    assert fit_doc["human_cost_per_task"] == pytest.approx(sum(minutes.values()) / len(minutes) * 90 / 60, rel=1e-5)
    for point in fit_doc["points"]:  # each agent version: its mean cost per item and mean score, from the history
        mine = [r for r in rows if f"{r['agent']}@{r['version']}" == point["label"]]
        assert point["cost"] == pytest.approx(sum(float(r["system_cost_usd"]) for r in mine) / len(mine), rel=1e-6)
        # the judged items' judge calls are in the item's cost, not in the system's
        assert sum(float(r["system_cost_usd"]) for r in mine) < sum(float(r["cost_usd"]) for r in mine)
        scores = [float(r["score"]) for r in mine if r["score"]]
        assert point["score"] == pytest.approx(sum(scores) / len(scores))
    assert fit_doc["reached"] == (fit_doc["value"] > 0) and (fit_doc["stage"] == 1) == (not fit_doc["reached"])
    assert fit_doc["latency"]["unit"] == "s" and len(fit_doc["latency"]["points"]) == 2
    assert (project.root / "tmf.svg").exists() and (project.root / "tmf-latency.png").exists()
    report = (project.report_dir / files[-1].stem / "report.html").read_text()
    assert "Tech-Market Fit against cost" in report and "Tech-Market Fit against time" in report
    listed = harness("history", "list")
    assert "openai/stub-large" in listed.stdout and listed.returncode == 0


def test_tmf_measures_the_system_under_test_not_its_evaluation(project: Project, fresh_stub: Any) -> None:
    """The system's own calls and time make its point: a judge that is slow and has no known price moves
    neither, and a replay counts each call at the time it took when it was made, not the cache read."""
    from harness.testing import start_stub

    project.copy_sample()
    price = {"input_cost_per_token": 1e-6, "output_cost_per_token": 4e-6}
    prices = project.write("prices.json", json.dumps({"openai/stub-sut": price}))  # the judge has none
    slow_judge = start_stub(latency_s=0.5)
    try:
        common = [*stub_args(fresh_stub, "--judge-api-base", slow_judge.api_base), "-k", "photosynthesis or spider",
                  "--hourly-rate", "60", "--price-file", str(prices)]  # fmt: skip
        first = project.pytest("evals/sample", *common).results  # read now: a later run moves reports/LATEST
        replay = project.pytest("evals/sample", *common, "--cache-mode", "replay")
    finally:
        slow_judge.stop()
    made: dict[str, float] = {}
    for result in first.values():
        sut = [c for c in result["calls"] if c["namespace"] == "sut"]
        assert sut and all(c["system"] for c in sut) and not any(c["system"] for c in result["calls"] if c not in sut)
        assert result["usage"]["priced_known"] is False  # the judge has no price: the item's total is unknown
        assert result["system"]["cost_usd"] == pytest.approx(sum(c["priced_usd"] for c in sut))
        assert result["system"]["cost_usd"] > 0
        # the judge's half second is the evaluation's: the item took it, the system did not
        assert result["system"]["latency_s"] <= result["latency_s"] - 0.5
        made.update({c["key"]: c["latency_s"] for c in sut})
    for result in replay.results.values():
        sut = [c for c in result["calls"] if c["namespace"] == "sut"]
        assert all(c["cache_hit"] and c["replayed_latency_s"] == made[c["key"]] for c in sut)
        assert result["system"]["latency_s"] >= sum(made[c["key"]] for c in sut)
        assert result["system"]["cost_usd"] == pytest.approx(first[result["nodeid"]]["system"]["cost_usd"])
    cost = {r["task_id"]: r["system"]["cost_usd"] for r in first.values()}
    rows = history.read_history(project.report_dir)  # both runs: the replay paid nothing, but costs the same
    assert len(rows) == 4 and all(float(r["system_cost_usd"]) == pytest.approx(cost[r["task"]]) for r in rows)
    fit = replay.run["tech_market_fit"]
    (point,) = fit["points"]  # one agent version over both runs; none left out for the judge's missing price
    assert fit["missing"] == [] and point["cost"] == pytest.approx(
        sum(r["system"]["cost_usd"] for r in first.values()) / len(first)
    )
    (seconds,) = fit["latency"]["points"]
    runs = [*first.values(), *replay.results.values()]
    assert seconds["cost"] == pytest.approx(sum(r["system"]["latency_s"] for r in runs) / len(runs), rel=1e-3)


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


def market(human_cost: float = 1.0, min_score: float = 60, expert_score: float = 90, shape: float = 1.0,
           tasks: tuple[float, ...] = ()) -> tmf.Market:  # fmt: skip
    return tmf.Market(human_cost, min_score, expert_score, shape, tasks)


def test_the_value_is_the_area_between_the_supply_and_the_acceptance_curves() -> None:
    # a free agent at 100 covers the whole acceptable region: the integral of 100 - (60 + 30c) over [0, 1]
    whole = tmf.assess([P("perfect", 0.0, 100)], market())
    assert whole.area == pytest.approx(25.0) and whole.value == pytest.approx(0.25) and whole.share == pytest.approx(1)
    # 75 at 0.2 meets the line 60 + 30c at c = 0.5: the integral of 15 - 30c over [0.2, 0.5]
    part = tmf.assess([P("mid", 0.2, 75)], market())
    assert part.area == pytest.approx(1.35) and part.stage == 2 and part.best.label == "mid"
    # the same point on a market lenient with cheap work (shape 2) covers more
    assert tmf.assess([P("mid", 0.2, 75)], market(shape=2)).area > part.area
    # a point on the acceptance curve, or under it, is not inside: no area, stage 1
    for points in ([P("on", 0.5, 75)], [P("under", 0.5, 70)], [P("dearer than a person", 1.5, 100)], []):
        none = tmf.assess(points, market())
        assert (none.stage, none.reached, none.area, none.best) == (1, False, 0.0, None)
    # a point that beats the expert for less than the expert: stage 3
    three = tmf.assess([P("cheap", 0.01, 65), P("specialist", 0.6, 95)], market())
    assert (
        three.stage == 3 and three.best.label == "cheap" and [p.label for p in three.inside] == ["cheap", "specialist"]
    )


@pytest.mark.parametrize("shape", [0.5, 1.0, 2.5])
def test_the_closed_form_area_matches_a_numerical_integral(shape: float) -> None:
    rng = np.random.default_rng(int(shape * 10))
    for _ in range(20):
        points = [P(f"p{i}", float(rng.uniform(0, 3)), float(rng.uniform(30, 100))) for i in range(6)]
        m = market(human_cost=float(rng.uniform(0.5, 2.5)), min_score=float(rng.uniform(20, 60)),
                   expert_score=float(rng.uniform(70, 95)), shape=shape)  # fmt: skip
        curve = tmf.frontier(points)
        steps = 200_000
        width = m.human_cost / steps
        total = 0.0
        for i in range(steps):
            c = (i + 0.5) * width
            best = tmf.supply(curve, c)
            if best is not None:
                total += max(0.0, best - m.required(c)) * width
        assert tmf.overlap_area(curve, m) == pytest.approx(total, rel=1e-3, abs=1e-3)


def test_the_human_capability_curve_does_the_quickest_tasks_first_and_ends_at_the_human_point() -> None:
    m = market(human_cost=30.0, tasks=(60.0, 10.0, 20.0))
    assert m.human_curve() == [(0.0, 0.0), (pytest.approx(10 / 3), 30.0), (10.0, 60.0), (30.0, 90.0)]
    with pytest.raises(ValueError, match="min score"):
        market(min_score=95, expert_score=90)


def test_tmf_from_history_rows_measures_cost_and_latency_per_agent_version() -> None:
    def row(agent: str, task: str, score: str, cost: str, latency: str) -> dict[str, str]:
        return {"agent": agent, "version": "", "task": task, "task_version": "1", "score": score,
                "outcome": "passed" if score else "error", "system_cost_usd": cost, "system_latency_s": latency,
                "cost_usd": "99", "latency_s": "99999", "expert_minutes": {"t1": "30", "t2": "90"}[task]}  # fmt: skip

    rows = [row("fast", "t1", "80", "0.10", "20"), row("fast", "t2", "70", "0.30", "40"),
            row("slow", "t1", "100", "2.00", "9000"), row("slow", "t2", "", "4.00", "9000"),  # unscored: still paid
            row("nameless", "t1", "90", "", "50")]  # fmt: skip
    doc = tmf.assess_history(rows, hourly_rate=60, min_score=60, expert_score=90)
    points = {p["label"]: p for p in doc["points"]}
    assert doc["human_cost_per_task"] == pytest.approx(60.0) and doc["task_costs"] == [30.0, 90.0]
    assert points["fast"]["cost"] == pytest.approx(0.2) and points["fast"]["score"] == pytest.approx(75)
    assert points["slow"]["cost"] == pytest.approx(3.0) and points["slow"]["score"] == pytest.approx(100)
    assert doc["missing"] == ["nameless"] and doc["stage"] == 3
    latency = doc["latency"]
    assert latency["human_cost_per_task"] == pytest.approx(3600.0) and latency["unit"] == "s"
    assert latency["inside"] == ["fast", "nameless"]  # nine thousand seconds is slower than the expert
    text = "\n".join(tmf.markdown_section({**doc, "suites": ["x"]}))
    assert "Tech-Market Fit reached (stage 3)" in text and "Against time" in text and "`nameless`" in text


def test_tmf_with_no_agent_placed_is_not_a_stage() -> None:
    """No agent has a known cost for every item: there is nothing to place, so no stage (issue 28)."""
    rows = [{"agent": "unpriced", "version": "", "task": "t1", "task_version": "1", "score": "80", "outcome": "passed",
             "system_cost_usd": "", "system_latency_s": "", "expert_minutes": "30"}]  # fmt: skip
    doc = tmf.assess_history(rows, hourly_rate=60, min_score=60, expert_score=90)
    assert doc["points"] == [] and doc["missing"] == ["unpriced"]
    text = "\n".join(tmf.markdown_section({**doc, "suites": ["x"]}))
    assert "stage 1" not in text and "not reached" not in text, text
    assert "not assessed: no agent could be placed" in text and "unpriced" in text and "--price-file" in text


def test_plots_have_the_same_bytes_for_the_same_data() -> None:
    rows = [
        {"agent": "a", "version": "1", "date": "2026-01-01", "theta": -0.5, "low": -0.9, "high": -0.1},
        {"agent": "a", "version": "2", "date": "2026-03-01", "theta": 0.4, "low": 0.1, "high": 0.7},
        {"agent": "b", "version": "", "date": "2026-02-01", "theta": 0.1, "low": None, "high": None},
    ]
    assert plots.capability_over_time(rows) == plots.capability_over_time(rows)
    assessment = tmf.assess([P("x", 0.0, 50), P("y", 0.3, 75)], market(tasks=(0.5, 1.5)))
    first, second = plots.tech_market_fit(assessment), plots.tech_market_fit(assessment)
    assert first == second and set(first) == {"svg", "png"}
    assert b"<dc:date>" not in first["svg"]
    drawn = charts.tech_market_fit(assessment.to_json())
    assert drawn == charts.tech_market_fit(assessment.to_json()) and drawn.count("<polygon") == 2  # region, overlap


def test_a_calibrated_task_starts_from_the_difficulty_its_blind_solves_measured() -> None:
    """Issue 27: a task's calibration (what blind solves scored) is the index's prior for its difficulty. Two
    tasks seen by the same two agents with the same levels: the one blind solves found hard sits higher."""
    from harness.analysis.irt import difficulty_prior

    assert difficulty_prior(50.0) == pytest.approx(0.0)
    assert difficulty_prior(20.0) == pytest.approx(np.log(4.0))  # solved one time in five: harder than the centre
    assert difficulty_prior(100.0) == pytest.approx(-difficulty_prior(0.0)) and abs(difficulty_prior(0.0)) <= 4.0
    cells = [("a1", "hard", 2.0, 4.0), ("a1", "plain", 2.0, 4.0), ("a2", "hard", 3.0, 4.0), ("a2", "plain", 3.0, 4.0)]
    rows = _rows(cells)
    for row in rows:
        row["calibrated_score"] = "15" if row["task"] == "hard" else ""
    result = capability_index(rows, model="1pl")
    b = {task["task"].split("@", 1)[0]: task["b"] for task in result.tasks}
    assert b["hard"] > b["plain"] + 0.1, b
    assert any("blind solves" in note for note in result.notes)
    unprimed = capability_index(_rows(cells), model="1pl")
    assert {t["b"] for t in unprimed.tasks} == {unprimed.tasks[0]["b"]}  # without it, the two tasks are alike


def test_a_run_row_carries_its_tasks_calibration() -> None:
    run = {
        "run": {"run_id": "r1", "started_at": "2026-11-29T05:00:00Z", "options": {"model": "openai/x"}},
        "results": [
            {"task_id": "t", "kind": "qa", "suite": "s", "outcome": "passed", "score": 80.0,
             "metadata": {"calibration": {"mean_score": 42.5}}},
            {"task_id": "u", "kind": "qa", "suite": "s", "outcome": "passed", "score": 80.0, "metadata": {}},
        ],
    }  # fmt: skip
    rows = history.run_rows(run)
    assert [r["calibrated_score"] for r in rows] == ["42.5", ""]
