"""Pure statistics behind the reports: intervals, bootstrap, agreement between judges, declared tables."""

from __future__ import annotations

import pytest

from harness.benchmarks import Column, Section, Table
from harness.report.agreement import judge_agreement
from harness.report.tables import compute_table
from harness.stats import (
    exact_agreement,
    krippendorff_alpha_nominal,
    mean_interval,
    mean_of_means_interval,
    scale_bounds,
    t975,
)


def test_t_quantiles_match_the_printed_table() -> None:
    assert t975(1) == 12.706 and t975(30) == 2.042
    assert t975(35) == pytest.approx(2.030, abs=0.002)  # between 30 and 40, read in 1/df
    assert t975(10_000) == pytest.approx(1.960, abs=0.001)


def test_mean_interval() -> None:
    estimate = mean_interval([2.0, 4.0, 6.0, 8.0])
    # mean 5, sd sqrt(20/3), n 4: half-width t(3) * sd / 2
    assert estimate.mean == 5.0
    assert estimate.high - estimate.mean == pytest.approx(3.182 * (20 / 3) ** 0.5 / 2, rel=1e-9)
    assert mean_interval([7.0]).low is None and mean_interval([]).mean is None


def test_an_interval_stays_on_its_scale() -> None:
    scores = [0.0, 0.0, 0.0, 100.0]
    bare, clipped = mean_interval(scores), mean_interval(scores, (0.0, 100.0))
    assert bare.low < 0 and bare.high > 100 and (clipped.low, clipped.high, clipped.mean) == (0.0, 100.0, 25.0)
    # values outside the declared scale mean the scale is wrong: nothing is clipped then
    assert mean_interval([-50.0, 0.0, 0.0, 100.0], (0.0, 100.0)) == mean_interval([-50.0, 0.0, 0.0, 100.0])
    assert scale_bounds("1..5") == (1.0, 5.0) and scale_bounds("0..1") == (0.0, 1.0)
    assert scale_bounds("tokens") is None and scale_bounds("5..1") is None and scale_bounds("a..b") is None


def test_mean_of_means_skips_missing_cells_and_is_seeded() -> None:
    rows = [[1.0, None], [3.0, 10.0], [5.0, None]]
    estimate = mean_of_means_interval(rows)
    assert estimate.mean == pytest.approx((3.0 + 10.0) / 2)  # column means 3 and 10
    assert mean_of_means_interval(rows) == estimate  # same input, same interval
    assert estimate.low <= estimate.mean <= estimate.high


def test_krippendorff_alpha_on_krippendorffs_own_example() -> None:
    # Krippendorff (2011), "Computing Krippendorff's Alpha-Reliability", nominal example: alpha = 0.743
    data = [
        [1, 1, None, 1], [2, 2, 3, 2], [3, 3, 3, 3], [3, 3, 3, 3], [2, 2, 2, 2], [1, 2, 3, 4],
        [4, 4, 4, 4], [1, 1, 2, 1], [2, 2, 2, 2], [None, 5, 5, 5], [None, None, 1, 1], [None, None, 3, None],
    ]  # fmt: skip
    units = [[v for v in unit if v is not None] for unit in data]
    assert krippendorff_alpha_nominal(units) == pytest.approx(0.743, abs=5e-4)
    assert krippendorff_alpha_nominal([["a", "a"], ["a", "a"]]) is None  # no variation: undefined
    assert krippendorff_alpha_nominal([["a", "b"], ["b", "a"]]) < 0  # systematic disagreement
    assert exact_agreement([["a", "a"], ["a", "b"], ["c"]]) == 0.5


def test_judge_agreement_from_results() -> None:
    results = [
        {"kind": "gem", "judge_levels": {"trust": {"j1": "CREDIBLE", "j2": "CREDIBLE"}}},
        {"kind": "gem", "judge_levels": {"trust": {"j1": "CREDIBLE", "j2": "NOT_CREDIBLE"}}},
        {"kind": "gem", "judge_levels": {"trust": {"j1": "NOT_CREDIBLE"}}},  # one judge: not a unit
    ]
    (row,) = judge_agreement(results)
    assert (row["dimension"], row["items"], row["exact_agreement"]) == ("trust", 2, 0.5)
    assert row["judges"] == ["j1", "j2"]


def test_a_declared_table_groups_rows_and_counts_errors() -> None:
    table = Table(
        name="t",
        title="T",
        kinds=("k",),
        rows=("dataset",),
        sections=(Section("S", (Column("a", "A", "m1"), Column("b", "B", "m2"))),),
    )
    results = [
        {
            "kind": "k",
            "labels": {"dataset": "x"},
            "score": 50.0,
            "metrics": {"m1": 10.0, "m2": None},
            "outcome": "failed",
        },
        {
            "kind": "k",
            "labels": {"dataset": "x"},
            "score": 70.0,
            "metrics": {"m1": 30.0, "m2": 80.0},
            "outcome": "passed",
        },
        {"kind": "k", "labels": {"dataset": "x"}, "score": None, "metrics": {}, "outcome": "error"},
        {"kind": "other", "labels": {"dataset": "x"}, "score": 1.0, "metrics": {"m1": 99.0}, "outcome": "passed"},
    ]
    computed = compute_table(table, results)
    assert computed is not None
    (row,) = computed["rows"]
    assert (row["items"], row["errors"]) == (3, 1)
    assert row["cells"]["a"]["mean"] == 20.0 and row["cells"]["b"]["mean"] == 80.0
    assert row["overall"]["S"]["mean"] == pytest.approx(50.0)  # (20 + 80) / 2: the available columns' means
