"""The run report's charts, as inline SVG drawn by matplotlib: deterministic bytes for the same data (the
Agg backend, a fixed hash salt per chart so ids never collide inside one page, no dates or versions)."""

from __future__ import annotations

import io
import math
import re
from typing import Any

COLOURS = ("#1f77b4", "#d62728", "#2ca02c", "#9467bd", "#ff7f0e", "#8c564b", "#e377c2", "#17becf", "#7f7f7f")
VERDICT_COLOURS = {"regressed": "#c0392b", "improved": "#1e8449", "unchanged": "#566573", "inconclusive": "#b9770e"}
RASTER_ABOVE = 1500  # more points than this are drawn as one embedded image: the page stays light


def new_figure(width: float = 7.5, height: float = 4.6, salt: str = "harness") -> tuple[Any, Any]:
    import matplotlib

    matplotlib.use("Agg", force=True)
    import matplotlib.pyplot as plt

    matplotlib.rcParams.update(
        {"svg.hashsalt": salt, "svg.fonttype": "none", "font.size": 9, "axes.spines.top": False,
         "axes.spines.right": False, "path.simplify": False}
    )  # fmt: skip
    figure, axes = plt.subplots(figsize=(width, height), dpi=110)
    return figure, axes


def prepare() -> None:
    """Import matplotlib and load its fonts by drawing one tiny chart (about 0.4 s of CPU, seconds on a
    machine that has never built matplotlib's font cache). The plugin runs this in a thread while the
    run's items wait on their models, so the report at the end costs only its own drawing."""
    figure, axes = new_figure(1, 1, salt="prepare")
    axes.plot([0, 1], [0, 1])
    svg_text(figure)


def svg_text(figure: Any) -> str:
    """The figure as an <svg> element to put inside a page (no XML prolog or doctype)."""
    import matplotlib.pyplot as plt

    buffer = io.BytesIO()
    figure.savefig(buffer, format="svg", metadata={"Date": None, "Creator": None}, bbox_inches="tight")
    plt.close(figure)
    text = buffer.getvalue().decode("utf-8")
    return text[re.search(r"<svg\b", text).start() :]  # type: ignore[union-attr]


def suite_scores(suites: dict[str, dict[str, Any]]) -> str | None:
    """Each suite's mean score with its 95 % interval."""
    rows = [(name, s) for name, s in sorted(suites.items()) if s.get("mean_score") is not None]
    if not rows:
        return None
    figure, axes = new_figure(7.5, 0.9 + 0.42 * len(rows), salt="suite-scores")
    for position, (_name, stats) in enumerate(rows):
        mean = stats["mean_score"]
        low, high = stats.get("score_interval") or (mean, mean)
        axes.errorbar(mean, position, xerr=[[mean - low], [high - mean]], fmt="o", color=COLOURS[0], capsize=4)
        axes.annotate(f"{mean:.1f}", (high, position), xytext=(6, 0), textcoords="offset points", va="center")
    axes.set_yticks(range(len(rows)), [name for name, _ in rows])
    axes.set_ylim(-0.7, len(rows) - 0.3)
    axes.invert_yaxis()
    axes.set_xlim(0, 100)
    axes.set_xlabel("mean score (0-100), with its 95 % interval")
    axes.grid(axis="x", alpha=0.3)
    return svg_text(figure)


def comparison_deltas(comparisons: list[dict[str, Any]], fail_margin: float | None) -> str | None:
    """Each suite's change in score against the baseline, with its interval, coloured by verdict."""
    rows = [c for c in comparisons if c["metric"] == "score" and c.get("delta") is not None]
    if not rows:
        return None
    figure, axes = new_figure(7.5, 0.9 + 0.42 * len(rows), salt="comparison")
    for position, c in enumerate(rows):
        colour = VERDICT_COLOURS.get(c["verdict"], COLOURS[0])
        if c.get("low") is not None:
            axes.errorbar(
                c["delta"], position, xerr=[[c["delta"] - c["low"]], [c["high"] - c["delta"]]], fmt="o",
                color=colour, capsize=4,
            )  # fmt: skip
        else:
            axes.plot([c["delta"]], [position], "o", color=colour)
        axes.annotate(c["verdict"], (c["delta"], position), xytext=(0, 7), textcoords="offset points", ha="center",
                      color=colour)  # fmt: skip
    axes.axvline(0, color="#333333", linewidth=0.8)
    if fail_margin is not None:
        axes.axvline(-fail_margin, color=VERDICT_COLOURS["regressed"], linestyle="--", linewidth=0.8)
        label = "gate" if fail_margin == 0 else f"gate: -{fail_margin:g}"
        axes.annotate(label, (-fail_margin, -0.6), color=VERDICT_COLOURS["regressed"], ha="right")
    axes.set_yticks(range(len(rows)), [c["suite"] for c in rows])
    axes.set_ylim(-0.8, len(rows) - 0.3)
    axes.invert_yaxis()
    axes.set_xlabel("change in mean score (points), paired, with its 95 % bootstrap interval")
    axes.grid(axis="x", alpha=0.3)
    return svg_text(figure)


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

    figure, axes = new_figure(7.5, 4.2, salt="cost-score")
    suites = sorted({r.get("suite") or "?" for r in scored})
    for number, suite in enumerate(suites):
        points = [(x_of(r), r["score"]) for r in scored if (r.get("suite") or "?") == suite]
        axes.scatter(
            [p[0] for p in points], [p[1] for p in points], s=14, alpha=0.6, color=COLOURS[number % len(COLOURS)],
            label=suite, rasterized=len(scored) > RASTER_ABOVE, linewidths=0,
        )  # fmt: skip
    xs = [x_of(r) for r in scored]
    if xs and min(xs) > 0 and max(xs) / min(xs) > 100:
        axes.set_xscale("log")
    axes.set_ylim(-3, 103)
    axes.set_xlabel(unit)
    axes.set_ylabel("score (0-100)")
    axes.grid(alpha=0.3)
    if len(suites) > 1:
        axes.legend(loc="best", fontsize=8, frameon=False)
    return svg_text(figure), unit


def latency_histogram(results: list[dict[str, Any]]) -> str | None:
    """How long items took, end to end (model calls, tools and judging)."""
    values = [float(r["latency_s"]) for r in results if isinstance(r.get("latency_s"), int | float)]
    if len(values) < 2:
        return None
    figure, axes = new_figure(7.5, 2.6, salt="latency")
    bins = max(5, min(40, int(math.sqrt(len(values)))))
    axes.hist(values, bins=bins, color=COLOURS[0], alpha=0.8)
    axes.set_xlabel("seconds per item")
    axes.set_ylabel("items")
    return svg_text(figure)
