"""Tables that fit the terminal: too wide a table is split into blocks of columns, each repeating the row's
key columns, never left for the terminal to wrap out of alignment.

On a terminal the width is `COLUMNS` when set, else the terminal's own; output to a file or a pipe (a CI
log) has no width and keeps each table whole.
"""

from __future__ import annotations

import shutil
import sys
from collections.abc import Sequence

GAP = "  "


def output_width(stream: object = None) -> int | None:
    """The width tables must fit on a terminal (COLUMNS when set, else the terminal's own size), or None
    for output that is not a terminal: a file or a pipe (a CI log) does not wrap, and its tables stay whole.
    (COLUMNS alone is not trusted: GNU readline exports it into every child of a process that loaded it.)"""
    target = stream if stream is not None else sys.stdout
    try:
        if not target.isatty():  # type: ignore[attr-defined]
            return None
    except (AttributeError, ValueError, OSError):
        return None
    return max(shutil.get_terminal_size().columns, 40)


def _cut(text: str, width: int) -> str:
    return text if len(text) <= width else text[: max(width - 3, 1)] + "..."


def fit_table(
    header: Sequence[str],
    rows: Sequence[Sequence[str]],
    width: int | None,
    *,
    keys: int = 1,
    right: Sequence[bool] | None = None,
) -> list[str]:
    """Aligned lines of the table, each at most `width` characters (None: one block, as wide as it is).
    Wider tables become blocks of columns, a blank line between them, each starting with the `keys`
    columns; a key cell too long for half the width is cut (with "...")."""
    table = [list(map(str, header)), *[list(map(str, r)) for r in rows]]
    count = len(table[0])
    right = list(right) if right is not None else [i >= keys for i in range(count)]
    widths = [max(len(r[i]) for r in table) for i in range(count)]
    if width is not None:
        key_room = sum(widths[:keys]) + len(GAP) * keys
        if key_room > width // 2:  # long names: cut the key columns to half the width, evenly
            share = max((width // 2) // max(keys, 1) - len(GAP), 8)
            widths[:keys] = [min(w, share) for w in widths[:keys]]
            table = [[_cut(c, widths[i]) if i < keys else c for i, c in enumerate(r)] for r in table]
    blocks: list[list[int]] = []
    current: list[int] = []
    used = sum(widths[:keys]) + len(GAP) * keys
    for index in range(keys, count):
        need = widths[index] + (len(GAP) if current else 0)
        if width is not None and current and used + need > width:
            blocks.append(current)
            current, used = [], sum(widths[:keys]) + len(GAP) * keys
            need = widths[index]
        current.append(index)
        used += need
    if current or not blocks:
        blocks.append(current)
    lines: list[str] = []
    for number, block in enumerate(blocks):
        if number:
            lines.append("")
        chosen = [*range(keys), *block]
        for row in table:
            cells = [row[i].rjust(widths[i]) if right[i] else row[i].ljust(widths[i]) for i in chosen]
            lines.append(GAP.join(cells).rstrip())
    return lines


def print_table(rows: list[list[str]], header: list[str], keys: int = 1) -> None:
    """An aligned table on stdout that fits the terminal (split into blocks, never wrapped): the `harness`
    commands' tables, the core's and the benchmarks' alike."""
    for line in fit_table(
        header, [[str(c) for c in r] for r in rows], output_width(), keys=keys, right=[False] * len(header)
    ):
        print(line)
