"""Pure statistics for reports: means with 95 % intervals, and a seeded percentile bootstrap.

No scipy at report time: Student's t quantiles come from a table (exact to 3 decimals) interpolated in
1/df, which is how printed tables are read.
"""

from __future__ import annotations

import math
import statistics
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

# Two-sided 95 % (upper 0.975) quantiles of Student's t.
_T975 = {
    1: 12.706, 2: 4.303, 3: 3.182, 4: 2.776, 5: 2.571, 6: 2.447, 7: 2.365, 8: 2.306, 9: 2.262, 10: 2.228,
    11: 2.201, 12: 2.179, 13: 2.160, 14: 2.145, 15: 2.131, 16: 2.120, 17: 2.110, 18: 2.101, 19: 2.093,
    20: 2.086, 21: 2.080, 22: 2.074, 23: 2.069, 24: 2.064, 25: 2.060, 26: 2.056, 27: 2.052, 28: 2.048,
    29: 2.045, 30: 2.042, 40: 2.021, 60: 2.000, 120: 1.980,
}  # fmt: skip
_Z975 = 1.959964


def t975(df: int) -> float:
    """The 0.975 quantile of Student's t with `df` degrees of freedom."""
    if df < 1:
        raise ValueError("a t quantile needs at least one degree of freedom")
    if df in _T975:
        return _T975[df]
    if df > 120:
        return _Z975 + (_T975[120] - _Z975) * 120 / df
    lower = max(k for k in _T975 if k < df)
    upper = min(k for k in _T975 if k > df)
    weight = (1 / lower - 1 / df) / (1 / lower - 1 / upper)
    return _T975[lower] + weight * (_T975[upper] - _T975[lower])


@dataclass(frozen=True)
class Estimate:
    """A mean with its 95 % interval (None where it cannot be computed: one value, or none)."""

    mean: float | None
    low: float | None
    high: float | None
    n: int

    def to_json(self, digits: int = 4) -> dict[str, Any]:
        def r(x: float | None) -> float | None:
            return None if x is None else round(x, digits)

        return {"mean": r(self.mean), "low": r(self.low), "high": r(self.high), "n": self.n}


def mean_interval(values: Sequence[float], bounds: tuple[float, float] | None = None) -> Estimate:
    """Mean and Student-t 95 % interval of independent values. With `bounds` (the scale's ends, such as
    0..100) and every value inside them, the interval is clipped to the scale: a score cannot be below 0."""
    n = len(values)
    if n == 0:
        return Estimate(None, None, None, 0)
    mean = math.fsum(values) / n
    if n == 1:
        return Estimate(mean, None, None, 1)
    half = t975(n - 1) * statistics.stdev(values) / math.sqrt(n)
    low, high = mean - half, mean + half
    if bounds is not None and all(bounds[0] <= v <= bounds[1] for v in values):
        low, high = max(low, bounds[0]), min(high, bounds[1])
    return Estimate(mean, low, high, n)


def scale_bounds(scale: str) -> tuple[float, float] | None:
    """The ends of a scale written "low..high" ("0..100", "1..5", "0..1"), or None for a unit ("tokens")."""
    parts = scale.split("..")
    if len(parts) != 2:
        return None
    try:
        low, high = float(parts[0]), float(parts[1])
    except ValueError:
        return None
    return (low, high) if low < high else None


def mean_of_means_interval(rows: Sequence[Sequence[float | None]], *, resamples: int = 2000, seed: int = 0) -> Estimate:
    """The unweighted mean of the column means of `rows` (items x columns, None where a metric does not
    apply to an item), with a percentile-bootstrap 95 % interval over items. Seeded: same input, same
    answer. Resamples where no column has a value are skipped."""
    import numpy as np

    matrix = np.array([[np.nan if v is None else float(v) for v in row] for row in rows], dtype=float)
    n = matrix.shape[0]
    if n == 0 or matrix.size == 0 or np.isnan(matrix).all():
        return Estimate(None, None, None, n)
    point = float(np.nanmean(_column_means(matrix[None, :, :])[0]))
    if n < 2:
        return Estimate(point, None, None, n)
    rng = np.random.default_rng(seed)
    draws = []
    chunk = max(1, min(resamples, 2_000_000 // max(1, n * matrix.shape[1])))
    for start in range(0, resamples, chunk):
        picks = rng.integers(0, n, size=(min(chunk, resamples - start), n))
        means = _column_means(matrix[picks])  # (draws, columns)
        with np.errstate(all="ignore"):
            counts = (~np.isnan(means)).sum(axis=1)
            overall = np.where(counts > 0, np.nansum(means, axis=1) / np.maximum(counts, 1), np.nan)
        draws.append(overall[~np.isnan(overall)])
    values = np.sort(np.concatenate(draws))
    if values.size < resamples // 2:
        return Estimate(point, None, None, n)
    low = float(values[int(0.025 * (values.size - 1))])
    high = float(values[math.ceil(0.975 * (values.size - 1))])
    return Estimate(point, low, high, n)


def _column_means(stack: Any) -> Any:
    """Column means over axis 1 of (draws, items, columns), ignoring NaN, NaN where a column is empty."""
    import numpy as np

    present = ~np.isnan(stack)
    counts = present.sum(axis=1)
    sums = np.where(present, stack, 0.0).sum(axis=1)
    with np.errstate(all="ignore"):
        return np.where(counts > 0, sums / np.maximum(counts, 1), np.nan)


def _coincidences(units: Sequence[Sequence[Any]]) -> tuple[Any, Any, float]:
    """Krippendorff's coincidence matrix of pairable values, its margins and their sum (units with fewer
    than two values left out): what every alpha metric is computed from."""
    from collections import Counter

    coincidences: Counter[tuple[Any, Any]] = Counter()
    for values in units:
        m = len(values)
        if m < 2:
            continue
        for i, a in enumerate(values):
            for j, b in enumerate(values):
                if i != j:
                    coincidences[(a, b)] += 1 / (m - 1)
    totals: Counter[Any] = Counter()
    for (a, _), weight in coincidences.items():
        totals[a] += weight
    n = sum(totals.values())
    return coincidences, totals, n


def krippendorff_alpha_nominal(units: Sequence[Sequence[Any]]) -> float | None:
    """Krippendorff's alpha for nominal data: chance-corrected agreement among raters who each gave one
    value per unit (missing values left out of a unit). Units with fewer than two values do not count.
    None when it is undefined (fewer than two pairable values, or every value the same)."""

    coincidences, totals, n = _coincidences(units)
    if n <= 1:
        return None
    observed = sum(w for (a, b), w in coincidences.items() if a != b) / n
    expected = sum(totals[a] * totals[b] for a in totals for b in totals if a != b) / (n * (n - 1))
    if expected == 0:
        return None
    return 1 - observed / expected


def exact_agreement(units: Sequence[Sequence[Any]]) -> float | None:
    """The share of units (with at least two values) on which every rater gave the same value."""
    rated = [values for values in units if len(values) >= 2]
    if not rated:
        return None
    return sum(len(set(values)) == 1 for values in rated) / len(rated)


def pass_at_k(n: int, c: int, k: int) -> float:
    """The chance that at least one of k repeats drawn without replacement from n, c of which passed, passes:
    1 - C(n-c, k) / C(n, k), the unbiased estimator of pass@k (Chen et al., 2021). k = n: 1 when any passed."""
    _check_counts(n, c, k)
    return 1.0 - math.comb(n - c, k) / math.comb(n, k)


def pass_hat_k(n: int, c: int, k: int) -> float:
    """The chance that all of k repeats drawn without replacement from n, c of which passed, pass:
    C(c, k) / C(n, k), the unbiased estimator of pass^k (tau-bench, Yao et al., 2024). k = n: 1 only when
    every repeat passed. It falls with k where pass@k rises: the share of tasks a system solves reliably."""
    _check_counts(n, c, k)
    return math.comb(c, k) / math.comb(n, k)


def _check_counts(n: int, c: int, k: int) -> None:
    if not 0 <= c <= n or not 1 <= k <= n:
        raise ValueError(f"pass@k needs 0 <= passed <= repeats and 1 <= k <= repeats; got n={n}, c={c}, k={k}")


def clustered_mean_interval(
    values: Sequence[float], clusters: Sequence[Any], bounds: tuple[float, float] | None = None
) -> Estimate:
    """Mean and 95 % interval of values that come in clusters (the repeats of one task), whose values are
    not independent: the cluster-robust standard error of the mean (CR1, as inspect_ai's clustered `ci()`),
        se^2 = G / (G - 1) * sum_g (sum_{i in g} (x_i - mean))^2 / N^2,
    with Student's t on G - 1 degrees of freedom (G clusters, N values). With one value per cluster it is
    the ordinary interval; with identical repeats it is that of the cluster means, not N times narrower.
    `bounds` clips the interval to the scale, as in `mean_interval`."""
    if len(values) != len(clusters):
        raise ValueError("one cluster label per value")
    n = len(values)
    if n == 0:
        return Estimate(None, None, None, 0)
    mean = math.fsum(values) / n
    sums: dict[Any, float] = {}
    for value, cluster in zip(values, clusters, strict=True):
        sums[cluster] = sums.get(cluster, 0.0) + (value - mean)
    g = len(sums)
    if g < 2:
        return Estimate(mean, None, None, n)
    se = math.sqrt(g / (g - 1) * math.fsum(s * s for s in sums.values())) / n
    half = t975(g - 1) * se
    low, high = mean - half, mean + half
    if bounds is not None and all(bounds[0] <= v <= bounds[1] for v in values):
        low, high = max(low, bounds[0]), min(high, bounds[1])
    return Estimate(mean, low, high, n)


def repeats_to_detect(effect: float, tasks: int, sd_between: float, sd_within: float) -> int | None:
    """How many repeats per task a paired gate over `tasks` tasks needs to detect a change of `effect`
    points at 5 % (two-sided) with 80 % power. A task's paired difference of means over r repeats on each
    side has variance sd_between^2 + 2 sd_within^2 / r (sd_between: the spread of true per-task changes;
    sd_within: the spread of one task's repeats), and the gate detects (1.96 + 0.84) * sd / sqrt(tasks).
    None when no number of repeats is enough: the task-to-task spread alone hides the effect (add tasks)."""
    if effect <= 0 or tasks < 2:
        raise ValueError("the effect must be positive and the gate needs at least two tasks")
    allowed = (effect * math.sqrt(tasks) / (_Z975 + 0.841621)) ** 2  # the largest variance that still detects it
    room = allowed - sd_between**2
    if room <= 0:
        return None
    return max(1, math.ceil(2 * sd_within**2 / room))


def krippendorff_alpha(units: Sequence[Sequence[Any]], metric: str = "nominal") -> float | None:
    """Krippendorff's alpha with the `nominal`, `ordinal` or `interval` difference function. Each unit holds
    the values its raters gave (missing ones left out); units with fewer than two values do not count.
    Ordinal values must sort (their order is the scale's; the distance between two ranks counts the values
    observed between them, Krippendorff 2011); interval values must be numbers. None when undefined."""

    if metric not in ("nominal", "ordinal", "interval"):
        raise ValueError(f"unknown metric {metric!r}: nominal, ordinal or interval")
    coincidences, totals, n = _coincidences(units)
    if n <= 1:
        return None
    levels = sorted(totals)
    if metric == "nominal":

        def delta(a: Any, b: Any) -> float:
            return 0.0 if a == b else 1.0
    elif metric == "interval":

        def delta(a: Any, b: Any) -> float:
            return float(a - b) ** 2
    else:
        rank = {v: i for i, v in enumerate(levels)}
        cumulative = [0.0]
        for v in levels:
            cumulative.append(cumulative[-1] + totals[v])

        def delta(a: Any, b: Any) -> float:
            low, high = sorted((rank[a], rank[b]))
            between = cumulative[high + 1] - cumulative[low]
            return (between - (totals[levels[low]] + totals[levels[high]]) / 2) ** 2

    observed = sum(w * delta(a, b) for (a, b), w in coincidences.items()) / n
    expected = sum(totals[a] * totals[b] * delta(a, b) for a in levels for b in levels) / (n * (n - 1))
    if expected == 0:
        return None
    return 1 - observed / expected


def cohen_kappa(a: Sequence[Any], b: Sequence[Any], levels: Sequence[Any], weights: str | None = None) -> float | None:
    """Cohen's kappa between two raters over the same items (`levels` in the scale's order). `weights`
    "quadratic": disagreements weigh (i - j)^2 / (k - 1)^2 by how far apart the levels lie (for ordinal
    levels); "linear": |i - j| / (k - 1); None: every disagreement counts the same. None when undefined
    (no items, or chance agreement is perfect)."""
    if len(a) != len(b):
        raise ValueError("both raters must rate the same items")
    if not a:
        return None
    index = {level: i for i, level in enumerate(levels)}
    k = len(levels)
    if k < 2:
        return None

    def weight(i: int, j: int) -> float:
        if weights == "quadratic":
            return (i - j) ** 2 / (k - 1) ** 2
        if weights == "linear":
            return abs(i - j) / (k - 1)
        if weights is None:
            return float(i != j)
        raise ValueError(f"unknown weights {weights!r}")

    n = len(a)
    observed = [[0.0] * k for _ in range(k)]
    for x, y in zip(a, b, strict=True):
        observed[index[x]][index[y]] += 1
    rows = [sum(row) for row in observed]
    cols = [sum(observed[i][j] for i in range(k)) for j in range(k)]
    disagreement = sum(weight(i, j) * observed[i][j] for i in range(k) for j in range(k)) / n
    chance = sum(weight(i, j) * rows[i] * cols[j] for i in range(k) for j in range(k)) / (n * n)
    if chance == 0:
        return None
    return 1 - disagreement / chance
