"""Plots of the analyses, as PNG and SVG files with the same bytes for the same data (matplotlib's Agg
backend, a fixed SVG hash salt, no dates or software versions in the files), so a report that embeds
them changes only when its data do."""

from __future__ import annotations

import datetime as dt
import io
from pathlib import Path
from typing import Any

from harness.analysis.tmf import Assessment, geometry
from harness.report.charts import COLOURS


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
    """The same drawing as the report's chart (tmf.geometry), as PNG and SVG files."""
    shape = geometry(result)
    figure, axes = _figure()
    axes.set_xscale("log")
    if shape["acceptable_region"]:
        axes.fill(*zip(*shape["acceptable_region"], strict=True), color="#2ca02c", alpha=0.10,
                  label="acceptable region")  # fmt: skip
        axes.plot(*zip(*shape["acceptance"], strict=True), color="#2ca02c", linestyle="--", linewidth=1.2,
                  label="acceptance curve")  # fmt: skip
    for number, polygon in enumerate(shape["overlaps"]):
        axes.fill(*zip(*polygon, strict=True), color="#ff7f0e", alpha=0.45,
                  label=None if number else "overlap (the value)")  # fmt: skip
    axes.step(*zip(*shape["human_curve"], strict=True), where="post", color="#7f7f7f", linewidth=1.2,
              label="what people deliver")  # fmt: skip
    axes.scatter([shape["human_point"][0]], [shape["human_point"][1]], color="#333333", zorder=4, s=30,
                 label="the expert")  # fmt: skip
    if shape["supply"]:
        axes.step(*zip(*shape["supply"], strict=True), where="post", color=COLOURS[0], linewidth=1.5,
                  label="agents' supply curve")  # fmt: skip
    for x, y, label, free in shape["points"]:
        axes.scatter([x], [y], color=COLOURS[0], zorder=3, s=22)
        shown = label[:28] + (" ($0)" if free and shape["unit"] == "USD" else "")
        axes.annotate(shown, (x, y), textcoords="offset points", xytext=(4, 4), fontsize=7)
    axes.set_xlim(shape["floor"], shape["right"])
    axes.set_ylim(0, 100)
    unit = "cost per task (USD, log scale)" if shape["unit"] == "USD" else "seconds per task (log scale)"
    axes.set_xlabel(unit)
    axes.set_ylabel("score")
    axes.set_title(f"{title}: stage {result.stage}")
    axes.grid(True, alpha=0.3, which="both")
    axes.legend(loc="lower right", fontsize=7, frameon=False)
    return render(figure)
