"""Pure aggregation of item results into per-suite and whole-run figures."""

from __future__ import annotations

import statistics
from collections import defaultdict
from typing import Any

from harness.stats import clustered_mean_interval


def summarize(results: list[dict[str, Any]]) -> dict[str, Any]:
    """Counts, mean score over scored items (a failure of the system under test is a 0 among them), pass rate
    over scored items, usage totals; `errors` are the items the harness could not score (the mean is then
    incomplete), `system_failures` those the system failed (scored 0)."""
    scored_items = [r for r in results if r["score"] is not None]
    scored = [r["score"] for r in scored_items]
    passed = sum(r["outcome"] == "passed" for r in results)
    failed = sum(r["outcome"] == "failed" for r in results)
    errors = sum(r["outcome"] == "error" for r in results)
    usage = [r["usage"] for r in results]
    # The repeats of a task are not independent: the interval clusters by task (one value per task: the
    # ordinary Student-t interval). Scores are 0..100.
    interval = clustered_mean_interval(scored, [task_key(r) for r in scored_items], (0.0, 100.0))
    return {
        "items": len(results),
        "passed": passed,
        "failed": failed,
        "errors": errors,
        "system_failures": sum(bool(r.get("error")) and r["score"] is not None for r in results),
        "incomplete": errors > 0,
        "mean_score": round(statistics.fmean(scored), 4) if scored else None,
        "score_interval": [round(interval.low, 4), round(interval.high, 4)] if interval.low is not None else None,
        "pass_rate": round(passed / (passed + failed), 4) if passed + failed else None,
        "calls": sum(u["calls"] for u in usage),
        "input_tokens": sum(u["input_tokens"] for u in usage),
        "output_tokens": sum(u["output_tokens"] for u in usage),
        "cost_usd": round(sum(u["cost_usd"] for u in usage), 6),
        "cost_known": all(u["cost_known"] for u in usage),
        "cache_hits": sum(u["cache_hits"] for u in usage),
    }


def task_key(result: dict[str, Any]) -> tuple[str, str, str]:
    """What the repeats of one task share: suite, task id and variant."""
    return (str(result.get("suite") or ""), str(result.get("task_id")), str(result.get("variant") or ""))


def by_suite(results: list[dict[str, Any]]) -> dict[str, dict[str, Any]]:
    groups: dict[str, list[dict[str, Any]]] = defaultdict(list)
    for result in results:
        groups[result["suite"]].append(result)
    return {suite: summarize(items) for suite, items in sorted(groups.items())}
