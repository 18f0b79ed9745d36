"""A small plotting kit that writes SVG text directly: axes, ticks, grid lines, points, intervals, lines,
bars and shaded regions. Why not matplotlib: importing it costs about half a second of every run's report,
and the report's charts are simple. The output is deterministic (the same data gives the same bytes) and
self-contained (no fonts, scripts or external references), so report.html stays one offline file.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, field
from html import escape

FONT = "font-family:system-ui,-apple-system,'Segoe UI',sans-serif;font-size:11px"
MARGIN_LEFT, MARGIN_RIGHT, MARGIN_TOP, MARGIN_BOTTOM = 130, 36, 14, 48


def _fmt(value: float) -> str:
    """Coordinates with two decimals, no trailing zeros: compact and stable."""
    text = f"{value:.2f}".rstrip("0").rstrip(".")
    return "0" if text in ("-0", "") else text


def nice_ticks(low: float, high: float, count: int = 6) -> list[float]:
    """Round tick positions covering [low, high] (1, 2, 2.5 or 5 times a power of ten apart)."""
    if not math.isfinite(low) or not math.isfinite(high) or high <= low:
        return [low]
    raw = (high - low) / max(1, count - 1)
    magnitude = 10 ** math.floor(math.log10(raw))
    step = next(m * magnitude for m in (1, 2, 2.5, 5, 10) if m * magnitude >= raw)
    first = math.ceil(low / step - 1e-9) * step
    ticks, value = [], first
    while value <= high + step * 1e-9:
        ticks.append(round(value, 10))
        value += step
    return ticks


def log_ticks(low: float, high: float) -> list[float]:
    """Powers of ten covering [low, high] (positive values)."""
    start, stop = math.floor(math.log10(low)), math.ceil(math.log10(high))
    return [10.0**p for p in range(start, stop + 1)]


def tick_label(value: float) -> str:
    if value != 0 and (abs(value) >= 1e5 or abs(value) < 1e-3):
        return f"{value:.0e}".replace("e+0", "e").replace("e-0", "e-")
    if float(value).is_integer():
        return f"{int(value):,}"
    return f"{value:g}"


@dataclass
class Axis:
    low: float
    high: float
    log: bool = False
    label: str = ""
    ticks: list[float] | None = None
    tick_names: dict[float, str] = field(default_factory=dict)

    def fraction(self, value: float) -> float:
        if self.log:
            value = max(value, self.low)
            return (math.log10(value) - math.log10(self.low)) / (math.log10(self.high) - math.log10(self.low))
        return (value - self.low) / (self.high - self.low) if self.high > self.low else 0.5

    def tick_values(self) -> list[float]:
        if self.ticks is not None:
            return self.ticks
        return log_ticks(self.low, self.high) if self.log else nice_ticks(self.low, self.high)


class Chart:
    """One chart: a plot area with an x axis and a y axis; marks are added in data coordinates."""

    def __init__(self, width: int, height: int, x: Axis, y: Axis, *, left: int = MARGIN_LEFT) -> None:
        self.width, self.height, self.x, self.y = width, height, x, y
        self.left, self.right = left, width - MARGIN_RIGHT
        self.top, self.bottom = MARGIN_TOP, height - MARGIN_BOTTOM
        self._marks: list[str] = []
        self._legend: list[tuple[str, str]] = []

    def px(self, value: float) -> float:
        return self.left + self.x.fraction(value) * (self.right - self.left)

    def py(self, value: float) -> float:
        return self.bottom - self.y.fraction(value) * (self.bottom - self.top)

    # -- marks ----------------------------------------------------------------------------------------

    def points(self, xs: Sequence[float], ys: Sequence[float], colour: str, radius: float = 3.0,
               label: str | None = None, opacity: float = 1.0) -> None:  # fmt: skip
        """Dots, drawn as one path of round zero-length strokes (compact for thousands of points)."""
        moves = "".join(f"M{_fmt(self.px(x))} {_fmt(self.py(y))}h0" for x, y in zip(xs, ys, strict=True))
        if moves:
            self._marks.append(
                f'<path d="{moves}" stroke="{colour}" stroke-width="{_fmt(radius * 2)}" stroke-linecap="round" '
                f'stroke-opacity="{_fmt(opacity)}" fill="none"/>'
            )
        if label:
            self._legend.append((label, colour))

    def interval(self, y: float, low: float, high: float, centre: float, colour: str) -> None:
        """A horizontal interval with caps, and its centre as a dot (a mean and its 95 % interval)."""
        row, a, b = self.py(y), self.px(low), self.px(high)
        self._marks.append(
            f'<path d="M{_fmt(a)} {_fmt(row)}H{_fmt(b)}M{_fmt(a)} {_fmt(row - 5)}v10M{_fmt(b)} {_fmt(row - 5)}v10" '
            f'stroke="{colour}" stroke-width="1.5" fill="none"/>'
        )
        self.points([centre], [y], colour, radius=4)

    def line(self, xs: Sequence[float], ys: Sequence[float], colour: str, *, dashed: bool = False, width: float = 1.5,
             label: str | None = None, step: bool = False) -> None:  # fmt: skip
        """A polyline; with `step`, each value holds until the next x (a frontier)."""
        coords = [(self.px(x), self.py(y)) for x, y in zip(xs, ys, strict=True)]
        if len(coords) < 1:
            return
        path = f"M{_fmt(coords[0][0])} {_fmt(coords[0][1])}"
        for x1, y1 in coords[1:]:
            path += f"H{_fmt(x1)}V{_fmt(y1)}" if step else f"L{_fmt(x1)} {_fmt(y1)}"
        dash = ' stroke-dasharray="5 4"' if dashed else ""
        self._marks.append(f'<path d="{path}" stroke="{colour}" stroke-width="{_fmt(width)}" fill="none"{dash}/>')
        if label:
            self._legend.append((label, colour))

    def vline(self, x: float, colour: str, *, dashed: bool = False, label: str | None = None) -> None:
        position = self.px(x)
        dash = ' stroke-dasharray="5 4"' if dashed else ""
        self._marks.append(
            f'<path d="M{_fmt(position)} {self.top}V{self.bottom}" stroke="{colour}" stroke-width="1"{dash}/>'
        )
        if label:
            self.text(x, None, label, colour, anchor="end", dx=-4, dy=self.top + 10)

    def region(self, xs: Sequence[float], ys: Sequence[float], colour: str, opacity: float = 0.15,
               label: str | None = None) -> None:  # fmt: skip
        """A filled polygon (an acceptable region, an area between curves)."""
        coords = " ".join(f"{_fmt(self.px(x))},{_fmt(self.py(y))}" for x, y in zip(xs, ys, strict=True))
        self._marks.append(f'<polygon points="{coords}" fill="{colour}" fill-opacity="{_fmt(opacity)}" stroke="none"/>')
        if label:
            self._legend.append((label, colour))

    def bars(self, edges: Sequence[float], counts: Sequence[float], colour: str) -> None:
        """A histogram: bars between consecutive edges."""
        parts = []
        for left, right, count in zip(edges, edges[1:], counts, strict=False):
            if count <= 0:
                continue
            x0, x1, y0 = self.px(left), self.px(right), self.py(count)
            parts.append(f"M{_fmt(x0 + 0.5)} {_fmt(self.bottom)}V{_fmt(y0)}H{_fmt(x1 - 0.5)}V{_fmt(self.bottom)}Z")
        if parts:
            self._marks.append(f'<path d="{"".join(parts)}" fill="{colour}" fill-opacity="0.8" stroke="none"/>')

    def text(self, x: float | None, y: float | None, words: str, colour: str = "#333", *, anchor: str = "start",
             dx: float = 0, dy: float | None = None) -> None:  # fmt: skip
        px = self.px(x) if x is not None else self.left
        py = self.py(y) if y is not None else (dy or 0)
        offset_y = 0 if y is None else (dy or 0)
        self._marks.append(
            f'<text x="{_fmt(px + dx)}" y="{_fmt(py + offset_y)}" fill="{colour}" text-anchor="{anchor}" '
            f'dominant-baseline="middle">{escape(words)}</text>'
        )

    # -- output ---------------------------------------------------------------------------------------

    def _axes(self) -> list[str]:
        out = [f'<path d="M{self.left} {self.top}V{self.bottom}H{self.right}" stroke="#666" fill="none"/>']
        for value in self.x.tick_values():
            if not self.x.low <= value <= self.x.high:
                continue
            position = _fmt(self.px(value))
            out.append(f'<path d="M{position} {self.top}V{self.bottom}" stroke="#ddd" stroke-width="0.8"/>')
            name = self.x.tick_names.get(value, tick_label(value))
            out.append(f'<text x="{position}" y="{self.bottom + 14}" text-anchor="middle">{escape(name)}</text>')
        for value in self.y.tick_values():
            if not self.y.low <= value <= self.y.high:
                continue
            position = _fmt(self.py(value))
            name = self.y.tick_names.get(value, tick_label(value))
            out.append(
                f'<text x="{self.left - 6}" y="{position}" text-anchor="end" dominant-baseline="middle">'
                f"{escape(name)}</text>"
            )
        if self.x.label:
            middle = _fmt((self.left + self.right) / 2)
            out.append(f'<text x="{middle}" y="{self.height - 4}" text-anchor="middle">{escape(self.x.label)}</text>')
        if self.y.label:
            middle = _fmt((self.top + self.bottom) / 2)
            label = escape(self.y.label)
            out.append(
                f'<text transform="translate(3 {middle}) rotate(-90)" text-anchor="middle" '
                f'dominant-baseline="hanging">{label}</text>'
            )
        return out

    def _legend_marks(self) -> list[str]:
        out = []
        # room for the longest label at the report's narrow-screen text size (about 12 units a character)
        start = self.right - max(150, 12 * max((len(label) for label, _ in self._legend), default=0) + 24)
        for number, (label, colour) in enumerate(self._legend):
            y = self.top + 6 + 22 * number
            out.append(f'<rect x="{start}" y="{y - 4}" width="9" height="9" fill="{colour}"/>')
            out.append(f'<text x="{start + 14}" y="{y + 1}" dominant-baseline="middle">{escape(label)}</text>')
        return out

    def svg(self, title: str) -> str:
        body = "".join([*self._axes(), *self._marks, *self._legend_marks()])
        return (
            f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {self.width} {self.height}" width="100%" '
            f'style="max-width:{self.width}px;{FONT}" role="img"><title>{escape(title)}</title>{body}</svg>'
        )
