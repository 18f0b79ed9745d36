"""Agreement between the judges of a panel, per judged dimension (the papers' cross-judge tables).

For every (kind, dimension) of `judge_levels` that two or more judges rated: the share of units on which
all judges gave the same level, Krippendorff's alpha (nominal), which corrects that share for the
agreement the judges' level frequencies would give by chance, and the mean over judge pairs of Cohen's
kappa. Where the levels are ordered (numbers, as xbench's 1..5 levels, or names a benchmark orders in
`Benchmark.level_orders`, as GEM-Bench's categories), alpha is also given ordinal,
and kappa is quadratically weighted (a one-level miss counts less than a three-level one). A unit is an
item, or, where a judge's value is a list (one level per thing judged in the item, such as each
recommended influencer), each position of the lists.
"""

from __future__ import annotations

from collections import defaultdict
from typing import Any

from harness.stats import exact_agreement, krippendorff_alpha_nominal


def judge_agreement(results: list[dict[str, Any]]) -> list[dict[str, Any]]:
    units: dict[tuple[str, str], list[dict[str, Any]]] = defaultdict(list)  # per unit: {judge: level}
    for result in results:
        for dimension, by_judge in (result.get("judge_levels") or {}).items():
            if isinstance(by_judge, dict) and len(by_judge) >= 2:
                key = (str(result.get("kind")), str(dimension))
                values = list(by_judge.values())
                if all(isinstance(v, list) for v in values):
                    for position in range(max(len(v) for v in values)):
                        units[key].append(
                            {
                                j: v[position]
                                for j, v in by_judge.items()
                                if position < len(v) and v[position] is not None
                            }
                        )
                else:
                    units[key].append({j: v for j, v in by_judge.items() if v is not None})
    rows = []
    for (kind, dimension), rated in sorted(units.items()):
        values = [[_level(v) for v in unit.values()] for unit in rated]
        alpha = krippendorff_alpha_nominal(values)
        agreement = exact_agreement(values)
        judges = sorted({j for unit in rated for j in unit})
        order = _level_order(kind, dimension)
        ordinal, kappa = _ordered(rated, judges, order)
        rows.append(
            {
                "kind": kind,
                "dimension": dimension,
                "judges": judges,
                "items": len(values),
                "exact_agreement": None if agreement is None else round(agreement, 4),
                "krippendorff_alpha": None if alpha is None else round(alpha, 4),
                "krippendorff_alpha_ordinal": ordinal,
                "mean_kappa": kappa,
                "kappa_weights": "quadratic" if _numeric(rated) or _within(rated, order) else "none",
            }
        )
    return rows


def _numeric(rated: list[dict[str, Any]]) -> bool:
    return all(isinstance(v, int | float) and not isinstance(v, bool) for unit in rated for v in unit.values())


def _within(rated: list[dict[str, Any]], order: tuple[str, ...] | None) -> bool:
    return bool(order) and {_level(v) for unit in rated for v in unit.values()} <= set(order or ())


def _level_order(kind: str, dimension: str) -> tuple[str, ...] | None:
    """The benchmark's order of its named levels on this dimension (Benchmark.level_orders), if any."""
    from harness.kinds import get_benchmark

    try:
        return get_benchmark(kind).level_orders.get(dimension) or None
    except KeyError:
        return None


def _ordered(
    rated: list[dict[str, Any]], judges: list[str], order: tuple[str, ...] | None = None
) -> tuple[float | None, float | None]:
    """(ordinal alpha, mean pairwise kappa): on ordered levels (numbers, or names the benchmark orders),
    alpha ordinal and quadratic kappa; otherwise no ordinal alpha and plain kappa over the levels as names."""
    from harness.analysis.panel import panel_agreement

    if order and _within(rated, order):
        ratings = {j: [_level(u.get(j)) for u in rated] for j in judges}
        rank = {level: i for i, level in enumerate(order)}
        panel = panel_agreement({j: [None if v is None else rank[v] for v in r] for j, r in ratings.items()},
                                list(range(len(order))))  # fmt: skip
        return panel["alpha_ordinal"], panel["mean_kappa_quadratic"]
    numeric = _numeric(rated)
    levels = sorted({v if numeric else _level(v) for unit in rated for v in unit.values()})
    if len(levels) < 2:
        return None, None
    ratings = {j: [(u.get(j) if numeric else _level(u.get(j))) for u in rated] for j in judges}
    panel = panel_agreement(ratings, levels)
    if numeric:
        return panel["alpha_ordinal"], panel["mean_kappa_quadratic"]
    plain = [p["kappa"] for p in panel["pairs"] if p["kappa"] is not None]
    return None, (round(sum(plain) / len(plain), 4) if plain else None)


def _level(value: object) -> str | None:
    return None if value is None else str(value)


def markdown_agreement(rows: list[dict[str, Any]]) -> list[str]:
    if not rows:
        return []
    lines = [
        "### Agreement between judges",
        "",
        "_Exact: share of items on which every judge gave the same level. Alpha: Krippendorff's alpha "
        "(nominal; ordinal where the levels are ordered); 1 is perfect agreement, 0 is what chance would give. "
        "Kappa: Cohen's kappa, the mean over pairs of judges (quadratically weighted on ordered levels)._",
        "",
        "| kind | dimension | judges | items | exact | alpha | alpha (ordinal) | kappa |",
        "|---|---|---|---:|---:|---:|---:|---:|",
    ]

    def f(value: float | None) -> str:
        return "-" if value is None else f"{value:.2f}"

    for row in rows:
        lines.append(
            f"| {row['kind']} | {row['dimension']} | {', '.join(row['judges'])} | {row['items']} "
            f"| {f(row['exact_agreement'])} | {f(row['krippendorff_alpha'])} "
            f"| {f(row.get('krippendorff_alpha_ordinal'))} | {f(row.get('mean_kappa'))} |"
        )
    return lines
