"""Several runs side by side: one row per run (and per table row), the tables' means as columns.

For comparing systems (several `--model`s or agents) on the same benchmarks: `harness report RUN RUN ...`.
"""

from __future__ import annotations

from typing import Any


def _system(run: dict[str, Any]) -> str:
    from harness.settings import system_label

    return system_label(run["run"]["options"])


def leaderboard(runs: list[dict[str, Any]]) -> dict[str, Any]:
    """{runs: [{run_id, system, judges, started_at, mean_score, tables: {name: [{key, values}]}}]} where
    `values` maps each column's (and overall's) label to its mean."""
    rows = []
    for run in runs:
        tables: dict[str, list[dict[str, Any]]] = {}
        for table in run.get("tables") or []:
            entries = []
            for row in table["rows"]:
                values: dict[str, float | None] = {}
                for section in table["sections"]:
                    for column in section["columns"]:
                        values[column["label"]] = (row["cells"].get(column["key"]) or {}).get("mean")
                    if section["overall"]:
                        values[section["overall_label"]] = (row["overall"].get(section["title"]) or {}).get("mean")
                entries.append({"key": row["key"], "values": values})
            tables[table["name"]] = entries
        rows.append(
            {
                "run_id": run["run"]["run_id"],
                "system": _system(run),
                "judges": run["run"]["options"].get("judge_models"),
                "started_at": run["run"].get("started_at"),
                "mean_score": run["totals"].get("mean_score"),
                "tables": tables,
            }
        )
    return {"runs": rows}


def board_rows(board: dict[str, Any]) -> dict[str, tuple[list[str], list[list[str]]]]:
    """Per table: (header, rows of text cells), runs in the order given."""
    out: dict[str, tuple[list[str], list[list[str]]]] = {}
    names = list(dict.fromkeys(name for run in board["runs"] for name in run["tables"]))
    for name in names:
        labels = list(
            dict.fromkeys(label for run in board["runs"] for e in run["tables"].get(name, []) for label in e["values"])
        )
        keys = list(dict.fromkeys(k for run in board["runs"] for e in run["tables"].get(name, []) for k in e["key"]))
        header = ["run", "system", *keys, *labels]
        lines = []
        for run in board["runs"]:
            for entry in run["tables"].get(name, []):
                cells = [run["run_id"], run["system"], *(str(entry["key"].get(k, "")) for k in keys)]
                cells += [
                    "-" if entry["values"].get(label) is None else f"{entry['values'][label]:.1f}" for label in labels
                ]
                lines.append(cells)
        out[name] = (header, lines)
    return out


def markdown_board(board: dict[str, Any]) -> str:
    parts = []
    for name, (header, lines) in board_rows(board).items():
        parts += [f"### {name}", "", "| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
        parts += ["| " + " | ".join(line) + " |" for line in lines]
        parts.append("")
    return "\n".join(parts)
