"""Filling hand-written sentence templates with one page's facts, and the small formats pages differ in
(dates, durations, lists)."""

from __future__ import annotations

import random
import re
import string
from typing import Any

MONTHS = (
    "January",
    "February",
    "March",
    "April",
    "May",
    "June",
    "July",
    "August",
    "September",
    "October",
    "November",
    "December",
)
ORDINALS = ("first", "second", "third", "fourth", "fifth", "sixth")
_FIELDS = string.Formatter()


def cap(text: str) -> str:
    return text[:1].upper() + text[1:] if text else text


def lower_first(text: str) -> str:
    return text[:1].lower() + text[1:] if text and not text[:2].isupper() else text


def join(items: list[str], word: str = "and") -> str:
    if len(items) <= 1:
        return "".join(items)
    return f"{', '.join(items[:-1])} {word} {items[-1]}"


class Slots(dict):
    """Slot values for one page; a value may be a function of the random stream (drawn when first used)."""

    def __init__(self, rng: random.Random, **values: Any) -> None:
        super().__init__(values)
        self.rng = rng

    def __missing__(self, key: str) -> str:
        raise KeyError(f"no value for slot {{{key}}}")

    def __getitem__(self, key: str) -> Any:
        value = super().__getitem__(key)
        if callable(value):
            value = value()
        return value


def fill(template: str, slots: Slots) -> str:
    """`template` with its {slots} filled; numbers {n}/{m} are drawn fresh for each use."""
    out = []
    for literal, name, _, _ in _FIELDS.parse(template):
        out.append(literal)
        if name is None:
            continue
        if name == "n" or name == "m":
            out.append(str(slots.rng.randint(2, 9)))
        else:
            out.append(str(slots[name]))
    return re.sub(r"\s+([,.;)])", r"\1", "".join(out))


def month_year(when: tuple[int, int], style: str) -> str:
    year, month = when
    if style == "short":
        return f"{MONTHS[month - 1][:3]} {year}"
    if style == "long":
        return f"{MONTHS[month - 1]} {year}"
    if style == "slash":
        return f"{month:02d}/{year}"
    if style == "dot":
        return f"{year}.{month:02d}"
    if style == "ja":
        return f"{year}年{month}月"
    if style == "zh":
        return f"{year}.{month:02d}"
    return str(year)


def span(start: tuple[int, int], end: tuple[int, int] | None, style: str, present: str, dash: str) -> str:
    if style == "year" and end is not None and start[0] == end[0]:
        return str(start[0])
    return f"{month_year(start, style)}{dash}{month_year(end, style) if end else present}"


def duration(start: tuple[int, int], end: tuple[int, int] | None, now: tuple[int, int] = (2026, 10)) -> str:
    stop = end or now
    months = max(1, (stop[0] - start[0]) * 12 + stop[1] - start[1] + 1)
    years, rest = divmod(months, 12)
    parts = ([f"{years} yr{'s' if years > 1 else ''}"] if years else []) + (
        [f"{rest} mo{'s' if rest > 1 else ''}"] if rest else []
    )
    return " ".join(parts)


def day_date(rng: random.Random, year: int, month: int, style: str) -> str:
    day = rng.randint(1, 28)
    if style == "iso":
        return f"{year}-{month:02d}-{day:02d}"
    if style == "us":
        return f"{MONTHS[month - 1]} {day}, {year}"
    if style == "short":
        return f"{day} {MONTHS[month - 1][:3]} {year}"
    return f"{day} {MONTHS[month - 1]} {year}"
