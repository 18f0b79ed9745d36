"""How far the judges of a panel agree with each other, on ordered levels. Pure.

The input is one list per judge, aligned by item, of levels on an ordered scale (None where that judge
gave no readable level). The output: exact agreement (every judge the same level), Krippendorff's alpha
(nominal and ordinal), Cohen's kappa for every pair (unweighted, and quadratically weighted for ordinal
levels, where a one-level miss counts less than a three-level one), each judge's mean level, and how
often the judges span two levels or more (a disagreement no rounding explains).
"""

from __future__ import annotations

import itertools
import statistics
from collections.abc import Sequence
from typing import Any

from harness.stats import cohen_kappa, exact_agreement, krippendorff_alpha


def _r(value: float | None, digits: int = 4) -> float | None:
    return None if value is None else round(value, digits)


def panel_agreement(ratings: dict[str, Sequence[Any]], levels: Sequence[Any]) -> dict[str, Any]:
    """Agreement of the judges in `ratings` ({judge: [level or None per item]}, every list the same length)
    on the ordered `levels`. Pairwise kappas use the items both judges rated; alpha and exact agreement
    the items at least two judges rated."""
    judges = list(ratings)
    lengths = {len(v) for v in ratings.values()}
    if len(lengths) > 1:
        raise ValueError(f"the judges rated different numbers of items: {sorted(lengths)}")
    items = lengths.pop() if lengths else 0
    rank = {level: i for i, level in enumerate(levels)}
    for judge, values in ratings.items():
        strange = {v for v in values if v is not None and v not in rank}
        if strange:
            raise ValueError(f"{judge} gave levels outside the scale {list(levels)}: {sorted(map(str, strange))[:5]}")
    units = [[rank[ratings[j][i]] for j in judges if ratings[j][i] is not None] for i in range(items)]
    pairs = []
    for a, b in itertools.combinations(judges, 2):
        both = [(x, y) for x, y in zip(ratings[a], ratings[b], strict=True) if x is not None and y is not None]
        xs, ys = [x for x, _ in both], [y for _, y in both]
        pairs.append(
            {
                "judges": [a, b],
                "items": len(both),
                "exact": _r(sum(x == y for x, y in both) / len(both)) if both else None,
                "kappa": _r(cohen_kappa(xs, ys, levels)),
                "kappa_quadratic": _r(cohen_kappa(xs, ys, levels, "quadratic")),
            }
        )
    rated = [u for u in units if len(u) >= 2]
    quadratic = [p["kappa_quadratic"] for p in pairs if p["kappa_quadratic"] is not None]
    return {
        "judges": judges,
        "items": items,
        "levels": [str(level) for level in levels],
        "exact_agreement": _r(exact_agreement(units)),
        "alpha_nominal": _r(krippendorff_alpha(units, "nominal")),
        "alpha_ordinal": _r(krippendorff_alpha(units, "ordinal")),
        "mean_kappa_quadratic": _r(statistics.fmean(quadratic)) if quadratic else None,
        "spread_2_or_more": _r(sum(max(u) - min(u) >= 2 for u in rated) / len(rated)) if rated else None,
        "missing": {j: sum(v is None for v in ratings[j]) for j in judges},
        "pairs": pairs,
    }
