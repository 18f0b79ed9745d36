"""How far a judge agrees with people's labels. Pure.

For one judge and one labelled dimension (a level 1..5, or a creator's selected yes/no): the number of
labelled units it judged, exact agreement, Cohen's kappa, quadratically weighted kappa (ordinal levels:
a one-level miss counts a sixteenth of a four-level one), the confusion matrix (rows: the label; columns:
the judge) and the mean bias (judge minus label: positive is a lenient judge), each with a 95 % percentile
bootstrap interval over the labelled units (seeded: the same labels give the same intervals).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

from harness.stats import cohen_kappa

RESAMPLES = 2000


def _statistics(human: Sequence[Any], judge: Sequence[Any], levels: Sequence[Any], ordinal: bool) -> dict[str, Any]:
    n = len(human)
    value = {
        "exact": sum(h == j for h, j in zip(human, judge, strict=True)) / n,
        "kappa": cohen_kappa(human, judge, levels),
        "mean_bias": sum(float(j) - float(h) for h, j in zip(human, judge, strict=True)) / n,
    }
    if ordinal:
        value["kappa_quadratic"] = cohen_kappa(human, judge, levels, "quadratic")
    return value


def label_agreement(
    human: Sequence[Any],
    judge: Sequence[Any],
    levels: Sequence[Any],
    *,
    ordinal: bool,
    resamples: int = RESAMPLES,
    seed: int = 0,
) -> dict[str, Any]:
    """The judge against the labels on the same units (`levels` in the scale's order; booleans count as
    0 and 1 for the bias). Each statistic is {value, low, high}; None where undefined."""
    import numpy as np

    if len(human) != len(judge):
        raise ValueError("one judge level per label")
    n = len(human)
    index = {level: i for i, level in enumerate(levels)}
    confusion = [[0] * len(levels) for _ in levels]
    for h, j in zip(human, judge, strict=True):
        confusion[index[h]][index[j]] += 1
    out: dict[str, Any] = {"n": n, "levels": [_plain(level) for level in levels], "confusion": confusion}
    if n == 0:
        return out
    point = _statistics(human, judge, levels, ordinal)
    rng = np.random.default_rng(seed)
    draws: dict[str, list[float]] = {name: [] for name in point}
    for picks in rng.integers(0, n, size=(resamples, n)):
        sample = _statistics([human[i] for i in picks], [judge[i] for i in picks], levels, ordinal)
        for name, value in sample.items():
            if value is not None:
                draws[name].append(value)
    for name, value in point.items():
        values = sorted(draws[name])
        enough = len(values) >= resamples // 2
        out[name] = {
            "value": None if value is None else round(value, 4),
            "low": round(values[int(0.025 * (len(values) - 1))], 4) if enough and value is not None else None,
            "high": round(values[math.ceil(0.975 * (len(values) - 1))], 4) if enough and value is not None else None,
        }
    return out


def _plain(level: Any) -> Any:
    return level if isinstance(level, int | float | str) else str(level)
