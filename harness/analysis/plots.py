"""Plots of the analyses, as PNG and SVG files with the same bytes for the same data (matplotlib's Agg
backend, a fixed SVG hash salt, no dates or software versions in the files), so a report that embeds
them changes only when its data do."""

from __future__ import annotations

import datetime as dt
import io
from pathlib import Path
from typing import Any

from harness.analysis.tmf import Assessment
from harness.report.charts import COLOURS, new_figure


def _figure(width: float = 7.5, height: float = 4.6) -> tuple[Any, Any]:
    return new_figure(width, height, salt="harness")


def render(figure: Any) -> dict[str, bytes]:
    """{"svg": ..., "png": ...}, deterministic."""
    import matplotlib.pyplot as plt

    out = {}
    for kind, metadata in (("svg", {"Date": None, "Creator": None}), ("png", {"Software": None})):
        buffer = io.BytesIO()
        figure.savefig(buffer, format=kind, metadata=metadata, bbox_inches="tight")
        out[kind] = buffer.getvalue()
    plt.close(figure)
    return out


def save(images: dict[str, bytes], stem: Path) -> list[Path]:
    """Write stem.svg and stem.png; returns the paths."""
    stem.parent.mkdir(parents=True, exist_ok=True)
    paths = []
    for kind, data in images.items():
        path = stem.with_suffix(f".{kind}")
        path.write_bytes(data)
        paths.append(path)
    return paths


def capability_over_time(rows: list[dict[str, Any]], title: str = "Capability over time") -> dict[str, bytes]:
    """Theta with its interval against date, one line per agent family (its versions in date order)."""
    figure, axes = _figure()
    families = sorted({r["agent"] for r in rows})
    for number, family in enumerate(families):
        points = sorted((r for r in rows if r["agent"] == family), key=lambda r: (r["date"], r["version"]))
        dates = [dt.date.fromisoformat(r["date"]) for r in points]
        theta = [r["theta"] for r in points]
        low = [r["theta"] - r["low"] if r.get("low") is not None else 0 for r in points]
        high = [r["high"] - r["theta"] if r.get("high") is not None else 0 for r in points]
        colour = COLOURS[number % len(COLOURS)]
        axes.errorbar(dates, theta, yerr=[low, high], color=colour, marker="o", markersize=4, capsize=2,
                      linewidth=1.2, label=family[:40])  # fmt: skip
        for r, d in zip(points, dates, strict=True):
            if r["version"]:
                axes.annotate(r["version"][:16], (d, r["theta"]), textcoords="offset points", xytext=(4, 4), fontsize=7)
    axes.set_ylabel("capability (theta)")
    axes.set_title(title)
    axes.grid(True, alpha=0.3)
    figure.autofmt_xdate()
    if families:
        axes.legend(loc="best", fontsize=7, frameon=False)
    return render(figure)


def tech_market_fit(result: Assessment, title: str = "Tech-Market Fit") -> dict[str, bytes]:
    """Score against cost per task (log axis), the supply curve as a step line, the acceptable region."""
    figure, axes = _figure()
    positive = [p.cost for p in result.points if p.cost > 0]
    floor = min([*positive, result.human_cost or 1.0]) / 10 if positive or result.human_cost else 1e-4
    floor = max(floor, 1e-6)

    def x(cost: float) -> float:
        return cost if cost > 0 else floor  # a free agent (a local model) sits at the axis' left end

    right = max([x(p.cost) for p in result.points] + [result.human_cost, floor]) * 10
    axes.set_xscale("log")
    axes.axvspan(floor / 10, max(result.human_cost, floor), ymin=result.min_score / 100, ymax=1.0,
                 color="#2ca02c", alpha=0.12, label="market acceptable")  # fmt: skip
    axes.axvline(max(result.human_cost, floor), color="#2ca02c", linewidth=1, linestyle="--")
    axes.axhline(result.min_score, color="#2ca02c", linewidth=1, linestyle="--")
    if result.frontier:
        xs = [x(p.cost) for p in result.frontier] + [right]
        ys = [p.score for p in result.frontier] + [result.frontier[-1].score]
        axes.step(xs, ys, where="post", color="#1f77b4", linewidth=1.5, label="supply curve (Pareto frontier)")
    for number, point in enumerate(sorted(result.points, key=lambda p: p.label)):
        axes.scatter([x(point.cost)], [point.score], color=COLOURS[number % len(COLOURS)], zorder=3, s=22)
        label = point.label[:28] + (" ($0)" if point.cost == 0 else "")
        axes.annotate(label, (x(point.cost), point.score), textcoords="offset points", xytext=(4, 4), fontsize=7)
    axes.set_xlim(floor / 10, right)
    axes.set_ylim(0, 100)
    axes.set_xlabel("cost per task (USD, log scale)")
    axes.set_ylabel("score")
    axes.set_title(f"{title}: stage {result.stage}")
    axes.grid(True, alpha=0.3, which="both")
    axes.legend(loc="lower right", fontsize=7, frameon=False)
    return render(figure)
