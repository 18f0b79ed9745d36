"""Agreement between the judges of a panel, per judged dimension (the papers' cross-judge tables).

For every (kind, dimension) of `judge_levels` that two or more judges rated: the share of units on which
all judges gave the same level, and Krippendorff's alpha (nominal), which corrects that share for the
agreement the judges' level frequencies would give by chance. A unit is an item, or, where a judge's
value is a list (one level per thing judged in the item, such as each recommended influencer), each
position of the lists.
"""

from __future__ import annotations

from collections import defaultdict
from typing import Any

from harness.stats import exact_agreement, krippendorff_alpha_nominal


def judge_agreement(results: list[dict[str, Any]]) -> list[dict[str, Any]]:
    units: dict[tuple[str, str], list[list[Any]]] = defaultdict(list)
    judges: dict[tuple[str, str], set[str]] = defaultdict(set)
    for result in results:
        for dimension, by_judge in (result.get("judge_levels") or {}).items():
            if isinstance(by_judge, dict) and len(by_judge) >= 2:
                key = (str(result.get("kind")), str(dimension))
                values = list(by_judge.values())
                if all(isinstance(v, list) for v in values):
                    for position in range(max(len(v) for v in values)):
                        levels = [_level(v[position]) for v in values if position < len(v)]
                        units[key].append([level for level in levels if level is not None])
                else:
                    units[key].append([level for v in values if (level := _level(v)) is not None])
                judges[key].update(by_judge)
    rows = []
    for (kind, dimension), values in sorted(units.items()):
        alpha = krippendorff_alpha_nominal(values)
        agreement = exact_agreement(values)
        rows.append(
            {
                "kind": kind,
                "dimension": dimension,
                "judges": sorted(judges[(kind, dimension)]),
                "items": len(values),
                "exact_agreement": None if agreement is None else round(agreement, 4),
                "krippendorff_alpha": None if alpha is None else round(alpha, 4),
            }
        )
    return rows


def _level(value: object) -> str | None:
    return None if value is None else str(value)


def markdown_agreement(rows: list[dict[str, Any]]) -> list[str]:
    if not rows:
        return []
    lines = [
        "### Agreement between judges",
        "",
        "_Exact: share of items on which every judge gave the same level. Alpha: Krippendorff's alpha "
        "(nominal); 1 is perfect agreement, 0 is what chance would give._",
        "",
        "| kind | dimension | judges | items | exact | alpha |",
        "|---|---|---|---:|---:|---:|",
    ]
    for row in rows:
        exact = "-" if row["exact_agreement"] is None else f"{row['exact_agreement']:.2f}"
        alpha = "-" if row["krippendorff_alpha"] is None else f"{row['krippendorff_alpha']:.2f}"
        lines.append(
            f"| {row['kind']} | {row['dimension']} | {', '.join(row['judges'])} | {row['items']} | {exact} | {alpha} |"
        )
    return lines
