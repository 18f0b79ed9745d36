"""Repeats as first-class: pass@k and pass^k per task, intervals that cluster a task's repeats, flaky tasks
in the report and the gate. Every expected value is computed by hand in the comment beside it."""

from __future__ import annotations

import math
from typing import Any

import pytest

from harness.analysis.compare import compare, gate_line
from harness.report.aggregate import summarize
from harness.report.repeats import repeat_summary
from harness.stats import clustered_mean_interval, mean_interval, pass_at_k, pass_hat_k, repeats_to_detect, t975


def test_pass_at_k_and_pass_hat_k_by_hand() -> None:
    # n=5 repeats, c=2 passed, k=3: pass@3 = 1 - C(3,3)/C(5,3) = 1 - 1/10
    assert pass_at_k(5, 2, 3) == pytest.approx(0.9)
    # pass^2 = C(2,2)/C(5,2) = 1/10; with c=3: C(3,2)/C(5,2) = 3/10
    assert pass_hat_k(5, 2, 2) == pytest.approx(0.1) and pass_hat_k(5, 3, 2) == pytest.approx(0.3)
    # k = n: pass@n is "any passed", pass^n "all passed"
    assert (pass_at_k(3, 1, 3), pass_hat_k(3, 1, 3), pass_hat_k(3, 3, 3), pass_at_k(3, 0, 3)) == (1, 0, 1, 0)
    # k = 1: both are the pass rate c/n
    assert pass_at_k(4, 3, 1) == pytest.approx(0.75) == pass_hat_k(4, 3, 1)
    for bad in ((3, 4, 1), (3, 1, 4), (3, 1, 0)):
        with pytest.raises(ValueError):
            pass_at_k(*bad)


def test_the_clustered_interval_by_hand() -> None:
    # values 1,1 (task a) and 0,0 (task b): mean 0.5; cluster sums of residuals +1 and -1;
    # se = sqrt(2/(2-1) * (1 + 1)) / 4 = 0.5; t(1) = 12.706: 0.5 +- 6.353
    estimate = clustered_mean_interval([1, 1, 0, 0], ["a", "a", "b", "b"])
    assert estimate.mean == 0.5 and estimate.low == pytest.approx(0.5 - 6.353) and estimate.high == pytest.approx(6.853)
    # the same four values as independent items: t(3) * sd / 2 = 3.182 * 0.57735 / 2, far narrower
    assert mean_interval([1, 1, 0, 0]).high == pytest.approx(0.5 + 3.182 * math.sqrt(1 / 3) / 2)
    # one value per cluster: the ordinary Student-t interval
    values = [10.0, 40.0, 35.0, 80.0, 55.0]
    plain, clustered = mean_interval(values), clustered_mean_interval(values, range(5))
    assert (clustered.low, clustered.high) == pytest.approx((plain.low, plain.high))
    # each task repeated identically three times: the interval of the task means, not one sqrt(3) narrower
    tripled = clustered_mean_interval([v for v in values for _ in range(3)], [i for i in range(5) for _ in range(3)])
    assert (tripled.low, tripled.high) == pytest.approx((plain.low, plain.high)) and tripled.n == 15
    # one cluster: no interval
    assert clustered_mean_interval([1, 2, 3], ["a"] * 3).low is None
    # on a bounded scale the interval is clipped
    assert clustered_mean_interval([100, 100, 0], ["a", "a", "b"], (0, 100)).high == 100


def test_repeats_needed_by_hand() -> None:
    # 20 tasks, effect 10, sd between tasks 5, sd of one task's repeats 20:
    # allowed variance (10 * sqrt(20) / 2.8016)^2 = 254.8; room 254.8 - 25 = 229.8; r = 2 * 400 / 229.8 = 3.48 -> 4
    assert repeats_to_detect(10, 20, 5, 20) == 4
    # with no spread between repeats one run is enough; with too much spread between tasks, nothing is
    assert repeats_to_detect(10, 20, 5, 0) == 1
    assert repeats_to_detect(2, 4, 30, 10) is None


def item(task: str, repeat: int, outcome: str, score: float, suite: str = "s") -> dict[str, Any]:
    return {"suite": suite, "task_id": task, "task_version": 1, "variant": None, "repeat": repeat, "score": score,
            "outcome": outcome, "metrics": {}, "error": None, "usage": _usage()}  # fmt: skip


def _usage() -> dict[str, Any]:
    return {"calls": 0, "input_tokens": 0, "output_tokens": 0, "cost_usd": 0.0, "cost_known": True, "cache_hits": 0}


def runs(pattern: dict[str, str], suite: str = "s") -> list[dict[str, Any]]:
    """P passed (score 100), F failed (0), E unscored, per repeat."""
    out = []
    for task, marks in pattern.items():
        for r, mark in enumerate(marks):
            outcome = {"P": "passed", "F": "failed", "E": "error"}[mark]
            out.append(item(task, r, outcome, {"P": 100.0, "F": 0.0}.get(mark), suite))  # type: ignore[arg-type]
    return out


def test_a_repeat_set_with_known_pass_hat_k_and_flaky_tasks() -> None:
    summary = repeat_summary(runs({"a": "PPP", "b": "PFF", "c": "FFF", "d": "FPP", "e": "PEP"}))["s"]
    # k = 3; e has 2 scored repeats (one unscored): short, no pass@3. Over a..d:
    # pass@3 = (1 + 1 + 0 + 1) / 4 = 0.75; pass^3 = (1 + 0 + 0 + 0) / 4 = 0.25
    assert (summary["k"], summary["tasks"], summary["short"]) == (3, 5, 1)
    assert summary["pass_at_k"] == 0.75 and summary["pass_hat_k"] == 0.25
    assert summary["flaky"] == ["s::b", "s::d"]
    rows = {r["task"]: r for r in summary["per_task"]}
    # d: scores 0, 100, 100: mean 66.67, sd sqrt(((66.67)^2 + 2 * (33.33)^2) / 2) = 57.735
    assert rows["s::d"] == {
        "task": "s::d", "repeats": 3, "passed": 2, "mean": pytest.approx(66.6667), "sd": pytest.approx(57.735),
        "pass_at_k": 1.0, "pass_hat_k": 0.0, "flaky": True,
    }  # fmt: skip
    assert rows["s::e"]["pass_at_k"] is None and not rows["s::e"]["flaky"]
    assert repeat_summary(runs({"a": "P", "b": "F"})) == {}  # no repeats: nothing to add to the pass rate


def test_suite_intervals_cluster_by_task() -> None:
    results = runs({"a": "PPP", "b": "FFF", "c": "PPP", "d": "FFF"})
    low, high = summarize(results)["score_interval"]
    # four task means 100, 0, 100, 0: mean 50, sd 57.735, t(3) = 3.182: 50 +- 91.85, clipped to 0..100;
    # twelve independent items would give 50 +- 2.201 * 52.22 / sqrt(12) = 50 +- 33.2
    assert (low, high) == (0.0, 100.0)
    narrow = summarize(runs({"a": "P", "b": "F", "c": "P", "d": "F", **{f"x{i}": "PF"[i % 2] for i in range(8)}}))
    half = t975(11) * math.sqrt(12 / 11 * 0.25) * 100 / math.sqrt(12)  # 12 tasks of one repeat: plain t
    assert narrow["score_interval"] == pytest.approx([50 - half, 50 + half], abs=1e-3)


def test_the_gate_calls_a_task_flaky_in_the_baseline_neither_regression_nor_improvement() -> None:
    stable = {f"s{i}": "PP" for i in range(8)}
    flaky = {f"f{i}": "PF" for i in range(8)}
    base = runs({**stable, **flaky})
    new = runs({**stable, **{f"f{i}": "FF" for i in range(8)}})  # the flaky tasks failed both times now
    report = compare(base, new, fail_margin=0)
    assert report.flaky_excluded == sorted(f"s::f{i}" for i in range(8))
    (score,) = [c for c in report.comparisons if c.metric == "score"]
    assert score.n == 8 and score.verdict == "unchanged" and not report.failed
    assert "8 task(s) flaky in the baseline were not compared" in gate_line(report)
    # counted as pairs, the same runs are a regression: what the exclusion prevents
    unpaired = compare(runs({**stable, **{f"f{i}": "PP" for i in range(8)}}), new, fail_margin=0)
    assert [c.verdict for c in unpaired.comparisons if c.metric == "score"] == ["regressed"]
    # flaky only in the new run: still compared (the regression may be real), and listed
    turned = compare(runs({**stable, **{f"f{i}": "PP" for i in range(8)}}), base, fail_margin=0)
    assert not turned.flaky_excluded and {f["side"] for f in turned.flaky} == {"new"}


def test_a_run_with_repeats_reports_pass_hat_k_in_every_format(project: Any, fresh_stub: Any) -> None:
    import json

    import jsonschema
    from helpers import REPO, stub_args

    project.copy_sample()
    fresh_stub.control(answers={"capital of France": "Paris"})  # capital-japan fails both times
    out = project.pytest("evals/sample/facts.yaml", *stub_args(fresh_stub), "-k", "capital", "--repeats", "2")
    run = out.run
    suite = run["repeats"]["sample"]
    assert (suite["k"], suite["tasks"], suite["pass_at_k"], suite["pass_hat_k"]) == (2, 2, 0.5, 0.5), suite
    jsonschema.validate(run, json.loads((REPO / "harness/schemas/results.schema.json").read_text()))
    summary = (out.report_dir / run["run"]["run_id"] / "summary.md").read_text()
    assert "### Repeats" in summary and "| sample | 2 | 2 | 50.0 | 50.0 | 0 | 0 |" in summary
