"""harness.report.aggregate: scores and pass rates over items, errors left out."""

from __future__ import annotations

from harness.report.aggregate import summarize


def result(outcome: str, score: float | None, cost: float | None = 0.01) -> dict[str, object]:
    return {
        "outcome": outcome,
        "score": score,
        "usage": {
            "calls": 2,
            "input_tokens": 10,
            "output_tokens": 5,
            "cost_usd": cost or 0.0,
            "cost_known": cost is not None,
            "cache_hits": 1,
        },
    }


def test_summarize_excludes_errors_from_scores_and_pass_rate() -> None:
    stats = summarize([result("passed", 80), result("failed", 20), result("error", None, None)])
    assert stats["mean_score"] == 50 and stats["pass_rate"] == 0.5
    assert (stats["passed"], stats["failed"], stats["errors"]) == (1, 1, 1)
    assert stats["calls"] == 6 and stats["cache_hits"] == 3 and stats["cost_known"] is False
    assert summarize([])["mean_score"] is None
