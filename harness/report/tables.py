"""Benchmark-declared tables, computed from results (pure), and rendered for Markdown and the terminal.

Each cell is a mean over the row's scored items with a 95 % interval (Student t over items); a section's
overall is the unweighted mean of its available column means with a bootstrap interval over items, or
the mean over every scored item, as the table declares. Whose fault decides what an item adds
(docs/report-schema.md#how-an-item-ends-and-whose-fault-it-is): a failure of the system under test is a
score of 0 and counts like any other score, at the bottom of every bounded column; an item the harness
could not measure (a provider failure, no judge verdict, a replay miss) is left out, and the table says it
is incomplete ("3 of 50 items unscored") rather than show a number that looks final. A metric a
harness-side failure kept from being measured (a judged cell without its judge) makes that cell
incomplete the same way.
"""

from __future__ import annotations

from collections import defaultdict
from typing import Any

from harness.kinds import Column, Section, Table, derived_tables, tables_for
from harness.stats import Estimate, mean_interval, mean_of_means_interval, scale_bounds

SCORE_BOUNDS = (0.0, 100.0)


def field_of(result: dict[str, Any], name: str) -> Any:
    """A result's grouping field: a top-level field (suite, kind, variant, repeat) or one of its labels."""
    if name in result and name != "labels":
        return result[name]
    return (result.get("labels") or {}).get(name)


def _matches(result: dict[str, Any], column: Column) -> bool:
    return all(str(field_of(result, k)) == v for k, v in column.where)


def is_system_failure(result: dict[str, Any]) -> bool:
    return (result.get("error") or {}).get("fault") == "system" and result.get("score") is not None


def _value(result: dict[str, Any], column: Column) -> float | None:
    """The item's value in a column. A failure of the system under test sits at the bottom of every bounded
    column (a score of 0, the lowest level), unless its benchmark recorded a value (tokens it did spend) or
    None (a metric that does not apply to it); it adds nothing to a column of counts or units."""
    if not _matches(result, column):
        return None
    if column.metric == "score":
        return result.get("score")
    metrics = result.get("metrics") or {}
    if column.metric not in metrics and is_system_failure(result):
        bounds = scale_bounds(column.scale)
        return None if bounds is None else bounds[0]
    value = metrics.get(column.metric)
    return None if value is None else float(value)


def _section_overall(section: Section, scored: list[dict[str, Any]], cells: dict[str, Estimate]) -> Estimate:
    if section.overall == "mean_of_items":
        return mean_interval([r["score"] for r in scored], SCORE_BOUNDS)
    columns = [c for c in section.columns if c.in_overall]
    return mean_of_means_interval([[_value(r, c) for c in columns] for r in scored])


def _row_order(table: Table, key: tuple[Any, ...]) -> tuple[Any, ...]:
    order = dict(table.order)
    out = []
    for name, value in zip(table.rows, key, strict=True):
        preferred = order.get(name, ())
        out.append((preferred.index(value) if value in preferred else len(preferred), str(value)))
    return tuple(out)


def compute_table(table: Table, results: list[dict[str, Any]]) -> dict[str, Any] | None:
    """The table's rows over the results of its kinds, or None when it has no results."""
    mine = [r for r in results if r.get("kind") in table.kinds]
    if not mine:
        return None
    groups: dict[tuple[Any, ...], list[dict[str, Any]]] = defaultdict(list)
    for result in mine:
        groups[tuple(field_of(result, name) for name in table.rows)].append(result)
    rows = []
    for key in sorted(groups, key=lambda k: _row_order(table, k)):
        members = groups[key]
        scored = [r for r in members if r.get("score") is not None]
        cells: dict[str, dict[str, Any]] = {}
        overalls: dict[str, dict[str, Any]] = {}
        for section in table.sections:
            estimates = {
                c.key: mean_interval([v for r in scored if (v := _value(r, c)) is not None], scale_bounds(c.scale))
                for c in section.columns
            }
            for column in section.columns:
                cell = estimates[column.key].to_json()
                missing = sum(column.metric in (r.get("incomplete") or ()) for r in scored if _matches(r, column))
                if missing:
                    cell["incomplete"] = missing
                cells[column.key] = cell
            if section.overall is not None:
                overalls[section.title] = _section_overall(section, scored, estimates).to_json()
        rows.append(
            {
                "key": dict(zip(table.rows, key, strict=True)),
                "items": len(members),
                "errors": sum(r.get("outcome") == "error" for r in members),
                "system_failures": sum(is_system_failure(r) for r in members),
                "cells": cells,
                "overall": overalls,
            }
        )
    unscored = sum(r["errors"] for r in rows)
    unmeasured = sum(c.get("incomplete", 0) for r in rows for c in r["cells"].values())
    incomplete = None
    if unscored or unmeasured:
        incomplete = {"unscored": unscored, "items": len(mine), "unmeasured_cells": unmeasured,
                      "message": incomplete_message(unscored, len(mine), unmeasured)}  # fmt: skip
    return {
        "incomplete": incomplete,
        "name": table.name,
        "title": table.title,
        "note": table.note,
        "rows_by": list(table.rows),
        "sections": [
            {
                "title": s.title,
                "overall": s.overall,
                "overall_label": s.overall_label,
                "columns": [{"key": c.key, "label": c.label, "unit": c.scale} for c in s.columns],
            }
            for s in table.sections
        ],
        "rows": rows,
    }


def compute_tables(results: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Every declared table that applies to these results, then the tables the kinds derive themselves."""
    kinds = {r["kind"] for r in results if r.get("kind")}
    computed = (compute_table(table, results) for table in tables_for(kinds))
    return [*(t for t in computed if t is not None), *derived_tables(results)]


def incomplete_message(unscored: int, items: int, unmeasured: int = 0) -> str:
    """What an incomplete table lacks, in one line (the same words everywhere the table is shown)."""
    parts = []
    if unscored:
        parts.append(f"{unscored} of {items} items unscored")
    if unmeasured:
        parts.append(f"{unmeasured} judged value{'s' if unmeasured != 1 else ''} missing (marked *)")
    return f"INCOMPLETE: {' and '.join(parts)}, the harness's failures (provider, judge, cache); rerun to complete"


def fmt_cell(cell: dict[str, Any] | None, digits: int = 1, interval: bool = True) -> str:
    if not cell or cell.get("mean") is None:
        return "-*" if cell and cell.get("incomplete") else "-"
    text = f"{cell['mean']:.{digits}f}"
    if interval and cell.get("low") is not None:
        text += f" [{cell['low']:.{digits}f}, {cell['high']:.{digits}f}]"
    return text + ("*" if cell.get("incomplete") else "")


def table_header(table: dict[str, Any]) -> list[str]:
    labels = [name for name in table["rows_by"]]
    for section in table["sections"]:
        labels += [c["label"] for c in section["columns"]]
        if section["overall"]:
            labels.append(section["overall_label"])
    return [*labels, "items", "sysfail", "unscored"]


def table_row(table: dict[str, Any], row: dict[str, Any], interval: bool) -> list[str]:
    out = [str(row["key"][name]) if row["key"][name] is not None else "-" for name in table["rows_by"]]
    for section in table["sections"]:
        out += [fmt_cell(row["cells"].get(c["key"]), interval=interval) for c in section["columns"]]
        if section["overall"]:
            out.append(fmt_cell(row["overall"].get(section["title"]), interval=interval))
    return [*out, str(row["items"]), str(row.get("system_failures", 0)), str(row["errors"])]


def table_caption(table: dict[str, Any]) -> str:
    """What the columns are, section by section, and what a cell holds."""
    groups = "; ".join(f"{s['title']}: {', '.join(c['label'] for c in s['columns'])}" for s in table["sections"])
    return f"{groups}. Each cell: mean [95 % interval] over scored items."


def markdown_table(table: dict[str, Any]) -> list[str]:
    """The table as Markdown: each cell `mean [low, high]` (the 95 % interval)."""
    header = table_header(table)
    lines = [f"### {table['title']}", "", f"_{table_caption(table)}_"]
    if table.get("note"):
        lines += ["", f"_{table['note']}_"]
    lines += ["", "| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
    lines += ["| " + " | ".join(table_row(table, row, True)) + " |" for row in table["rows"]]
    if table.get("incomplete"):
        lines += ["", f"**{table['incomplete']['message']}**"]
    return lines


def terminal_table(table: dict[str, Any], width: int | None = None) -> list[str]:
    """The table for the terminal: means only, aligned (intervals are in summary.md and results.json), its
    columns split into blocks that fit `width` (harness.terminal_fit)."""
    from harness.terminal_fit import fit_table

    header = table_header(table)
    rows = [table_row(table, row, False) for row in table["rows"]]
    lines = [table["title"], *fit_table(header, rows, width, keys=len(table["rows_by"]))]
    if table.get("incomplete"):
        lines.append(table["incomplete"]["message"])
    return lines
