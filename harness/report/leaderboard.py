"""Several runs side by side: one row per run (and per table row), the tables' means as columns.

For comparing systems (several `--model`s or agents) on the same benchmarks: `harness report RUN RUN ...`.
A run that is incomplete (items the harness could not score, judged values missing) says so on its rows,
as the one-run report does: its numbers are not final, and a board must not rank them as if they were.
"""

from __future__ import annotations

from typing import Any


def _system(run: dict[str, Any]) -> str:
    from harness.run_files import system_label

    return system_label(run["run"].get("options") or {})


def _run_incomplete(run: dict[str, Any], tables: list[dict[str, Any]]) -> dict[str, Any] | None:
    """What the run lacks: its unscored items (all suites) and its tables' missing judged values."""
    from harness.report.tables import incomplete_message

    totals = run.get("totals") or {}
    unfinished = (run.get("run") or {}).get("incomplete")
    if unfinished:  # interrupted: a part of a run, whatever its items scored
        from harness.resume import incomplete_line

        return {"unscored": int(totals.get("errors") or 0), "items": int(totals.get("items") or 0),
                "unmeasured_cells": 0, "message": incomplete_line(unfinished)}  # fmt: skip
    unscored = int(totals.get("errors") or 0)
    items = int(totals.get("items") or len(run.get("results") or []))
    unmeasured = sum(int((t.get("incomplete") or {}).get("unmeasured_cells") or 0) for t in tables)
    if not unscored and not unmeasured:
        return None
    return {"unscored": unscored, "items": items, "unmeasured_cells": unmeasured,
            "message": incomplete_message(unscored, items, unmeasured)}  # fmt: skip


def leaderboard(runs: list[dict[str, Any]]) -> dict[str, Any]:
    """{runs: [{run_id, system, judges, started_at, mean_score, incomplete, tables: {name: [{key, values,
    items, system_failures, unscored, incomplete_values}]}}]} where `values` maps each column's (and
    overall's) label to its mean, `incomplete_values` names the labels whose judged values are missing, and
    `incomplete` (null when the run is complete) says what the run lacks."""
    rows = []
    for run in runs:
        tables: dict[str, list[dict[str, Any]]] = {}
        for table in run.get("tables") or []:
            entries = []
            for row in table["rows"]:
                values: dict[str, float | None] = {}
                partial: list[str] = []
                for section in table["sections"]:
                    for column in section["columns"]:
                        cell = row["cells"].get(column["key"]) or {}
                        values[column["label"]] = cell.get("mean")
                        if cell.get("incomplete"):
                            partial.append(column["label"])
                    if section["overall"]:
                        values[section["overall_label"]] = (row["overall"].get(section["title"]) or {}).get("mean")
                entries.append(
                    {
                        "key": row["key"],
                        "values": values,
                        "items": row.get("items"),
                        "system_failures": row.get("system_failures", 0),
                        "unscored": row.get("errors", 0),
                        "incomplete_values": partial,
                    }
                )
            tables[table["name"]] = entries
        rows.append(
            {
                "run_id": run["run"].get("run_id"),
                "system": _system(run),
                "judges": (run["run"].get("options") or {}).get("judge_models"),
                "started_at": run["run"].get("started_at"),
                "mean_score": (run.get("totals") or {}).get("mean_score"),
                "incomplete": _run_incomplete(run, run.get("tables") or []),
                "suites": _suites(run),
                "tables": tables,
            }
        )
    return {"runs": rows}


def _suites(run: dict[str, Any]) -> dict[str, dict[str, Any]]:
    """Per suite, and `ALL` when the run has several: what any suite has, benchmark table or not."""
    chosen = dict(sorted((run.get("suites") or {}).items()))
    if len(chosen) != 1 and run.get("totals"):
        chosen["ALL"] = run["totals"]
    keys = ("items", "mean_score", "pass_rate", "system_failures", "errors", "cost_usd", "cost_known")
    return {name: {k: stats.get(k) for k in keys} for name, stats in chosen.items()}


OVERALL = "runs"
OVERALL_HEADER = ["run", "system", "suite", "items", "mean", "pass", "sysfail", "unscored", "cost $"]


def overall_rows(board: dict[str, Any]) -> list[list[str]]:
    """The board every suite has: per run and suite, mean score, pass rate, items and cost."""
    lines = []
    for run in board["runs"]:
        marked = str(run["run_id"]) + (INCOMPLETE_MARK if run.get("incomplete") else "")
        for suite, s in (run.get("suites") or {}).items():
            mean = "-" if s.get("mean_score") is None else f"{s['mean_score']:.1f}"
            rate = "-" if s.get("pass_rate") is None else f"{s['pass_rate'] * 100:.0f}%"
            cost = "-" if s.get("cost_usd") is None else f"{s['cost_usd']:.4f}" + ("" if s.get("cost_known") else "+?")
            lines.append([marked, run["system"], suite, str(s.get("items") or 0), mean, rate,
                          str(s.get("system_failures") or 0), str(s.get("errors") or 0), cost])  # fmt: skip
    return lines


INCOMPLETE_MARK = " (INCOMPLETE)"


def board_rows(board: dict[str, Any]) -> dict[str, tuple[list[str], list[list[str]]]]:
    """Per table: (header, rows of text cells), runs in the order given. An incomplete run is marked after its
    id, a value with judged values missing gets a `*` (as in the one-run tables), and every row shows its
    items, system failures (scored 0) and unscored items."""
    out: dict[str, tuple[list[str], list[list[str]]]] = {OVERALL: (OVERALL_HEADER, overall_rows(board))}
    names = list(dict.fromkeys(name for run in board["runs"] for name in run["tables"]))
    for name in names:
        labels = list(
            dict.fromkeys(label for run in board["runs"] for e in run["tables"].get(name, []) for label in e["values"])
        )
        keys = list(dict.fromkeys(k for run in board["runs"] for e in run["tables"].get(name, []) for k in e["key"]))
        header = ["run", "system", *keys, *labels, "items", "sysfail", "unscored"]
        lines = []
        for run in board["runs"]:
            marked = str(run["run_id"]) + (INCOMPLETE_MARK if run.get("incomplete") else "")
            for entry in run["tables"].get(name, []):
                cells = [marked, run["system"], *(str(entry["key"].get(k, "")) for k in keys)]
                partial = set(entry.get("incomplete_values") or ())
                for label in labels:
                    value = entry["values"].get(label)
                    text = "-" if value is None else f"{value:.1f}"
                    cells.append(text + ("*" if label in partial else ""))
                cells += [
                    str(entry.get("items", "")),
                    str(entry.get("system_failures", 0)),
                    str(entry.get("unscored", 0)),
                ]
                lines.append(cells)
        out[name] = (header, lines)
    return out


def incomplete_lines(board: dict[str, Any]) -> list[str]:
    """One line per incomplete run: what it lacks (the one-run report's words)."""
    return [f"{run['run_id']}: {run['incomplete']['message']}" for run in board["runs"] if run.get("incomplete")]


def markdown_board(board: dict[str, Any]) -> str:
    parts = []
    for name, (header, lines) in board_rows(board).items():
        parts += [f"### {name}", "", "| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
        parts += ["| " + " | ".join(line) + " |" for line in lines]
        parts.append("")
    parts += [f"**{line}**" for line in incomplete_lines(board)]
    return "\n".join(parts)
