"""The run report's charts, as inline SVG (harness.report.svg): deterministic bytes for the same data, no
matplotlib on the report's path (its import alone cost about half a second of every run)."""

from __future__ import annotations

import math
from typing import Any

from harness.report.svg import Axis, Chart

COLOURS = ("#1f77b4", "#d62728", "#2ca02c", "#9467bd", "#ff7f0e", "#8c564b", "#e377c2", "#17becf", "#7f7f7f")
VERDICT_COLOURS = {"regressed": "#c0392b", "improved": "#1e8449", "unchanged": "#566573", "inconclusive": "#b9770e"}
MAX_POINTS = 3000  # a scatter of more items draws an even sample of them: the page stays light
WIDTH = 760


ROW_NAME_CHARS = 16  # a row's name on a chart: room for it at the narrow-screen text size (ROWS_LEFT)
ROWS_LEFT = 210


def _rows_axis(names: list[str]) -> Axis:
    def shown(name: str) -> str:
        return name if len(name) <= ROW_NAME_CHARS else name[: ROW_NAME_CHARS - 1] + "…"

    return Axis(-0.7, len(names) - 0.3, ticks=list(range(len(names))),
                tick_names={float(i): shown(name) for i, name in enumerate(names)})  # fmt: skip


def suite_scores(suites: dict[str, dict[str, Any]]) -> str | None:
    """Each suite's mean score with its 95 % interval."""
    rows = [(name, s) for name, s in sorted(suites.items()) if s.get("mean_score") is not None]
    if not rows:
        return None
    names = [name for name, _ in rows]
    y = _rows_axis(names[::-1])
    x = Axis(0, 100, label="mean score (0-100), with its 95 % interval")
    chart = Chart(WIDTH, 70 + 40 * len(rows), x, y, left=ROWS_LEFT)
    for position, (_name, stats) in enumerate(rows):
        row = len(rows) - 1 - position
        mean = stats["mean_score"]
        low, high = stats.get("score_interval") or (mean, mean)
        chart.interval(row, low, high, mean, COLOURS[0])
        chart.text(mean, row, f"{mean:.1f}", anchor="middle", dy=-13)  # above its mark: 100 stays inside
    return chart.svg("Mean score per suite with its 95 % interval")


def comparison_deltas(comparisons: list[dict[str, Any]], fail_margin: float | None) -> str | None:
    """Each suite's change in score against the baseline, with its interval, coloured by verdict."""
    rows = [c for c in comparisons if c["metric"] == "score" and c.get("delta") is not None]
    if not rows:
        return None
    reach = [abs(v) for c in rows for v in (c["delta"], c.get("low"), c.get("high")) if v is not None]
    reach.append(abs(fail_margin or 0))
    span = max(5.0, max(reach) * 1.15)
    x = Axis(-span, span, label="change in mean score, points (paired, 95 % interval)")
    chart = Chart(WIDTH, 80 + 40 * len(rows), x, _rows_axis([c["suite"] for c in rows][::-1]), left=ROWS_LEFT)
    chart.vline(0, "#333333")
    if fail_margin is not None:
        chart.vline(-fail_margin, VERDICT_COLOURS["regressed"], dashed=True,
                    label="gate" if fail_margin == 0 else f"gate: -{fail_margin:g}")  # fmt: skip
    for position, c in enumerate(rows):
        row = len(rows) - 1 - position
        colour = VERDICT_COLOURS.get(c["verdict"], COLOURS[0])
        if c.get("low") is not None:
            chart.interval(row, c["low"], c["high"], c["delta"], colour)
        else:
            chart.points([c["delta"]], [row], colour, radius=4)
        chart.text(c["delta"], row, c["verdict"], colour, anchor="middle", dy=-12)
    return chart.svg("Change in mean score against the baseline")


def list_price(result: dict[str, Any]) -> float:
    """What an item's calls cost at list price, paid now or by the run whose replies the cache kept (older
    results carry only what this run paid)."""
    usage = result.get("usage") or {}
    return float(usage.get("priced_usd", usage.get("cost_usd")) or 0.0)


def item_tokens(result: dict[str, Any]) -> int:
    usage = result.get("usage") or {}
    return int(usage.get("input_tokens", 0) + usage.get("output_tokens", 0))


def cost_against_score(results: list[dict[str, Any]]) -> tuple[str | None, str]:
    """Every scored item: what it cost (dollars at list price, or tokens where no price is known) against
    its score, one colour per suite. Returns the SVG and the unit on the x axis."""
    scored = [r for r in results if isinstance(r.get("score"), int | float)]
    if not scored:
        return None, ""
    use_dollars = any(list_price(r) > 0 for r in scored)
    unit = "cost per item (USD, list price)" if use_dollars else "tokens per item (no price is known for these models)"

    def x_of(result: dict[str, Any]) -> float:
        return list_price(result) if use_dollars else float(item_tokens(result))

    shown = scored if len(scored) <= MAX_POINTS else scored[:: math.ceil(len(scored) / MAX_POINTS)]
    xs = [x_of(r) for r in shown]
    positive = [v for v in xs if v > 0]
    log = bool(positive) and min(xs) > 0 and max(xs) / min(xs) > 100
    if log:
        low, high = min(positive) / 1.3, max(positive) * 1.3
    else:
        low, high = 0.0, (max(xs) * 1.05 if xs and max(xs) > 0 else 1.0)
    label = unit if len(shown) == len(scored) else f"{unit}; {len(shown):,} of {len(scored):,} items drawn"
    chart = Chart(WIDTH, 380, Axis(low, high, log=log, label=label), Axis(-3, 103, label="score (0-100)",
                  ticks=[0, 20, 40, 60, 80, 100]), left=60)  # fmt: skip
    suites = sorted({r.get("suite") or "?" for r in shown})
    for number, suite in enumerate(suites):
        mine = [r for r in shown if (r.get("suite") or "?") == suite]
        chart.points([x_of(r) for r in mine], [float(r["score"]) for r in mine], COLOURS[number % len(COLOURS)],
                     radius=2.5, opacity=0.6, label=suite if len(suites) > 1 else None)  # fmt: skip
    return chart.svg("Score against cost per item"), unit


def latency_histogram(results: list[dict[str, Any]]) -> str | None:
    """How long items took, end to end (model calls, tools and judging)."""
    values = [float(r["latency_s"]) for r in results if isinstance(r.get("latency_s"), int | float)]
    if len(values) < 2:
        return None
    bins = max(5, min(40, int(math.sqrt(len(values)))))
    low, high = min(values), max(values)
    if high <= low:
        high = low + 1.0
    width = (high - low) / bins
    counts = [0] * bins
    for value in values:
        counts[min(bins - 1, int((value - low) / width))] += 1
    edges = [low + i * width for i in range(bins + 1)]
    chart = Chart(WIDTH, 230, Axis(low, high, label="seconds per item"), Axis(0, max(counts) * 1.1, label="items"),
                  left=60)  # fmt: skip
    chart.bars(edges, counts, COLOURS[0])
    return chart.svg("How long items took")


def tech_market_fit(doc: dict[str, Any]) -> str | None:
    """Tech-Market Fit on a log axis: the market's acceptable region and acceptance curve, the agents' supply
    curve, the overlap (the value), the human capability curve and the human point."""
    from harness.analysis.tmf import assessment_from_json, geometry

    if doc.get("error") or (not doc.get("points") and not doc.get("human_cost_per_task")):
        return None
    shape = geometry(assessment_from_json(doc))
    unit = "cost per task (USD, log scale)" if shape["unit"] == "USD" else "seconds per task (log scale)"
    chart = Chart(WIDTH, 400, Axis(shape["floor"], shape["right"], log=True, label=unit),
                  Axis(0, 100, label="score (0-100)", ticks=[0, 20, 40, 60, 80, 100]), left=60)  # fmt: skip
    if shape["acceptable_region"]:
        xs, ys = zip(*shape["acceptable_region"], strict=True)
        chart.region(xs, ys, "#2ca02c", opacity=0.10, label="acceptable region")
        xs, ys = zip(*shape["acceptance"], strict=True)
        chart.line(xs, ys, "#2ca02c", dashed=True, width=1.2, label="acceptance curve")
    for number, polygon in enumerate(shape["overlaps"]):
        xs, ys = zip(*polygon, strict=True)
        chart.region(xs, ys, "#ff7f0e", opacity=0.45, label=None if number else "overlap (the value)")
    xs, ys = zip(*shape["human_curve"], strict=True)
    chart.line(xs, ys, "#7f7f7f", width=1.2, step=True, label="what people deliver")
    chart.points([shape["human_point"][0]], [shape["human_point"][1]], "#333333", radius=4.5, label="the expert")
    if shape["supply"]:
        xs, ys = zip(*shape["supply"], strict=True)
        chart.line(xs, ys, COLOURS[0], step=True, label="agents' supply curve")
    for x, y, label, free in shape["points"]:
        chart.points([x], [y], COLOURS[0], radius=3.5)
        chart.text(x, y, label[:28] + (" ($0)" if free and shape["unit"] == "USD" else ""), dx=5, dy=-7)
    title = "Tech-Market Fit against cost" if shape["unit"] == "USD" else "Tech-Market Fit against time"
    return chart.svg(title)
