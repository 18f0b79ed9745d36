"""Repeats as first-class: per task, pass@k and pass^k beside its mean, and the flaky tasks (some repeats
pass, some fail). Pure.

With `--repeats k`, every task ran k times. pass@k is the chance that at least one of k repeats passes,
pass^k that all of them do; a suite's figure is the mean over its tasks. Unscored repeats (the harness's
failures) are left out; a task with fewer scored repeats than k gets no pass@k or pass^k (the estimators
need k draws) and is counted as `short`. A failure of the system under test is a failed repeat.
"""

from __future__ import annotations

import statistics
from collections import defaultdict
from typing import Any

from harness.report.aggregate import task_key
from harness.stats import pass_at_k, pass_hat_k


def _name(key: tuple[str, str, str]) -> str:
    suite, task, variant = key
    return f"{suite}::{task}" + (f"[{variant}]" if variant else "")


def task_repeats(items: list[dict[str, Any]], k: int) -> dict[str, Any]:
    """One task's repeats: n scored, passed, mean score and its standard deviation over the repeats, pass@k
    and pass^k (None when n < k), flaky."""
    scored = [i for i in items if i.get("outcome") in ("passed", "failed") and i.get("score") is not None]
    n, c = len(scored), sum(i["outcome"] == "passed" for i in scored)
    return {
        "task": _name(task_key(items[0])),
        "repeats": n,
        "passed": c,
        "mean": round(statistics.fmean(i["score"] for i in scored), 4) if scored else None,
        # the spread of this task's repeats: what repeats average away (docs/ci.md, how many repeats)
        "sd": round(statistics.stdev(i["score"] for i in scored), 4) if n >= 2 else None,
        "pass_at_k": round(pass_at_k(n, c, k), 4) if n >= k else None,
        "pass_hat_k": round(pass_hat_k(n, c, k), 4) if n >= k else None,
        "flaky": 0 < c < n,
    }


def repeat_summary(results: list[dict[str, Any]]) -> dict[str, Any]:
    """Per suite with repeats: {suite: {k, tasks, short, pass_at_k, pass_hat_k, flaky: [task names],
    per_task: [...]}}. k is the largest number of repeats a task of the suite ran; a suite whose tasks ran
    once is left out (pass@1 = pass^1 = the pass rate, shown already)."""
    by_task: dict[str, dict[tuple[str, str, str], list[dict[str, Any]]]] = defaultdict(lambda: defaultdict(list))
    for result in results:
        by_task[str(result.get("suite") or "")][task_key(result)].append(result)
    summary: dict[str, Any] = {}
    for suite, tasks in sorted(by_task.items()):
        k = max(len(items) for items in tasks.values())
        if k < 2:
            continue
        rows = [task_repeats(items, k) for _, items in sorted(tasks.items())]
        full = [r for r in rows if r["pass_at_k"] is not None]
        summary[suite] = {
            "k": k,
            "tasks": len(rows),
            "short": len(rows) - len(full),
            "pass_at_k": round(statistics.fmean(r["pass_at_k"] for r in full), 4) if full else None,
            "pass_hat_k": round(statistics.fmean(r["pass_hat_k"] for r in full), 4) if full else None,
            "flaky": [r["task"] for r in rows if r["flaky"]],
            "per_task": rows,
        }
    return summary


def markdown_repeats(summary: dict[str, Any], limit: int = 60) -> list[str]:
    """The summary's section: a line per suite, then the tasks that are flaky or not solved every time."""
    if not summary:
        return []
    lines = [
        "### Repeats",
        "",
        "_pass@k: the share of tasks where at least one of k repeats passed; pass^k: where all k passed "
        "(the reliable share). Flaky: some repeats passed, some failed. Intervals on suite means cluster by "
        "task, as a task's repeats are not independent._",
        "",
        "| suite | k | tasks | pass@k | pass^k | flaky | short |",
        "|---|---:|---:|---:|---:|---:|---:|",
    ]

    def pct(value: float | None) -> str:
        return "-" if value is None else f"{100 * value:.1f}"

    for suite, row in summary.items():
        lines.append(
            f"| {suite} | {row['k']} | {row['tasks']} | {pct(row['pass_at_k'])} | {pct(row['pass_hat_k'])} "
            f"| {len(row['flaky'])} | {row['short']} |"
        )
    uneven = [t for row in summary.values() for t in row["per_task"] if t["flaky"]]
    if uneven:
        lines += ["", "| flaky task | passed | mean | pass@k | pass^k |", "|---|---:|---:|---:|---:|"]
        for t in uneven[:limit]:
            mean = "-" if t["mean"] is None else f"{t['mean']:.1f}"
            lines.append(
                f"| `{t['task']}` | {t['passed']}/{t['repeats']} | {mean} | {pct(t['pass_at_k'])} "
                f"| {pct(t['pass_hat_k'])} |"
            )
        if len(uneven) > limit:
            lines.append(f"| ... {len(uneven) - limit} more in results.json | | | | |")
    return lines
