"""harness.scores: the 0..100 score contract and its metrics."""

from __future__ import annotations

import pytest

from harness.scores import Scores


def test_scores_outside_0_100_are_rejected() -> None:
    with pytest.raises(ValueError):
        Scores(score=101)
    with pytest.raises(ValueError):
        Scores(score=-1)
    with pytest.raises(ValueError):
        Scores(score=float("nan"))


def test_metrics_are_finite_numbers_or_none() -> None:
    import numpy as np

    scores = Scores(score=np.float32(50.0), metrics={"a": np.float64(0.25), "b": None, "c": np.int64(3), "d": 1})
    assert scores.metrics == {"a": 0.25, "b": None, "c": 3.0, "d": 1.0}
    assert all(type(v) is float for v in scores.metrics.values() if v is not None)
    assert type(scores.score) is float
    for bad in (float("nan"), float("inf"), np.float32("nan"), "0.5", True):
        with pytest.raises(ValueError, match="metric 'x'"):
            Scores(score=1, metrics={"x": bad})
