"""`harness gem paper RUN`: an imported logged run's cells beside the authors' own aggregates and the paper's
published numbers (paper_tables.yaml), with the cause of every difference named.

Our cells are recomputed from the run's items with the aggregation asked (default the authors', which the
paper's tables use). The authors' cells come from the aggregate workbooks the import kept: the per-repeat
file's mean over repeats for `item`, the average file for `authors`, the with-product average for
`authors-with-product`. The causes:

- embedder: RF, RC, AF, AC (and so the quantitative Overall) embedded with another model than the authors'
  text-embedding-3-small at 512 dimensions;
- judge failures: verdicts whose text names no category are unmeasured here, where the authors scored their
  default category (`--gem-reproduce authors` on import matches them);
- failure text: Ad-Chat's `QUERY_FAILED` answers, the system's failures here (0), answers there;
- aggregation: the paper's cells are per (category, query) group, over repeats then groups (LM-Market's
  duplicated prompts merge, a CA-Prod query whose product cluster changes splits);
- heading: the paper prints ad flow, ad coherence, response flow and response coherence under the headings
  RF, RC, AF, AC;
- token accounting: the paper's Ad-LLM input tokens include the system prompts, the released code's do not;
- another run: no logged run produced the paper's tables (another run of the same pipeline did), so every
  cell may differ by that run's own variation.
"""

from __future__ import annotations

import statistics
from functools import cache
from pathlib import Path
from typing import Any

import yaml

PAPER_FILE = Path(__file__).with_name("paper_tables.yaml")
FILES = {
    "item": "evaluation_result.xlsx",
    "authors": "evaluation_result_average.xlsx",
    "authors-with-product": "evaluation_result_with_product_average.xlsx",
}
EMBEDDED = ("response_flow", "response_coherence", "ad_flow", "ad_coherence")
JUDGED = ("accuracy", "naturalness", "personality", "trust", "notice", "click")
LABELS = {
    "response_flow": "RF (response flow)",
    "response_coherence": "RC (response coherence)",
    "ad_flow": "AF (ad flow)",
    "ad_coherence": "AC (ad coherence)",
    "injection_rate": "IR",
    "ctr": "CTR",
    "quantitative_overall": "Quantitative overall",
    "qualitative_overall": "Qualitative overall",
    "ittft": "ITTFT",
    "ottft": "OTTFT",
    "cost_overall": "Cost overall",
}
SAME = 0.005  # cells equal to the two decimals the paper prints
ANOTHER_RUN = "another run (no logged run produced the paper's tables)"


class PaperError(ValueError):
    """A run that cannot be compared (not an imported logged run); one line."""


@cache
def paper_tables() -> dict[str, Any]:
    return yaml.safe_load(PAPER_FILE.read_text(encoding="utf-8"))  # type: ignore[no-any-return]


def _authors_cells(records: list[dict[str, Any]], aggregation: str) -> dict[tuple[str, str], dict[str, float]]:
    """(data set, solution) -> metric -> the authors' value; for `item`, the mean of their per-repeat rows."""
    grouped: dict[tuple[str, str], list[dict[str, Any]]] = {}
    for record in records:
        grouped.setdefault((record["dataset"], record["solution"]), []).append(record)
    cells = {}
    for key, rows in grouped.items():
        names = {n for r in rows for n in r if n not in ("dataset", "solution", "run")}
        cell = {n: statistics.fmean(r[n] for r in rows if n in r) for n in names}
        quantitative = [cell[n] for n in (*EMBEDDED, "injection_rate", "ctr") if n in cell]
        judged = [cell[n] for n in JUDGED if n in cell]
        cell["quantitative_overall"] = statistics.fmean(quantitative) if quantitative else float("nan")
        cell["qualitative_overall"] = statistics.fmean(judged) if judged else float("nan")
        if "ittft" in cell and "ottft" in cell:
            cell["cost_overall"] = 0.5 * cell["ittft"] + cell["ottft"]
        cells[key] = cell
    return cells


def _ours(tables: list[dict[str, Any]]) -> dict[str, dict[tuple[Any, ...], dict[str, Any]]]:
    """table name -> row key -> column key (or section title for an overall) -> cell."""
    out: dict[str, dict[tuple[Any, ...], dict[str, Any]]] = {}
    for table in tables:
        rows = out.setdefault(table["name"], {})
        for row in table["rows"]:
            key = tuple(row["key"].values())
            rows[key] = {**row["cells"], **{f"overall:{k}": v for k, v in row["overall"].items()}}
    return out


def _judge_key(judge: str, known: list[str]) -> str | None:
    """The paper's judge names drop the model's date (claude-3-5-haiku for claude-3-5-haiku-20241022)."""
    return next((k for k in known if judge == k or judge.startswith(k + "-")), None)


def comparison(run: dict[str, Any], aggregation: str) -> list[dict[str, Any]]:
    """One row per cell of the paper's Tables 3 to 6: ours, the authors', the paper's, and the causes."""
    from harness.benchmarks.gem.logged_tables import is_authors_embedder, tables

    record = ((run.get("run") or {}).get("benchmarks") or {}).get("gem") or {}
    logged = record.get("logged")
    if not isinstance(logged, dict):
        raise PaperError(
            f"run {run.get('run', {}).get('run_id')}: not an imported logged run (harness import gem-run writes one)"
        )
    results = run["results"]
    embedder = logged.get("embedder")
    primary = logged["runs"][0]
    ours = _ours(tables(results, aggregation=aggregation, embedder=embedder, judge=logged["judges"][0]))
    files = logged["aggregates"]
    authors = {name: _authors_cells(books.get(FILES[aggregation], []), aggregation) for name, books in files.items()}
    reproduce = record.get("rules", {}).get("reproduce", "fixed")
    paper = paper_tables()
    rows: list[dict[str, Any]] = []

    def add(table: str, dataset: str, solution: str, column: str, mine: dict[str, Any] | None,
            theirs: float | None, published: float | None, causes_authors: list[str],
            causes_paper: list[str]) -> None:  # fmt: skip
        value = None if mine is None else mine.get("mean")
        d_authors = None if value is None or theirs is None else value - theirs
        d_paper = None if value is None or published is None else value - published
        # what moves our cell from the authors' moves it from the paper too; the rest is the paper's own
        explained = causes_authors if d_authors is not None and abs(d_authors) > SAME else []
        rows.append(
            {
                "table": table,
                "dataset": dataset,
                "row": solution,
                "column": column,
                "ours": value,
                "authors": theirs,
                "paper": published,
                "ours_minus_authors": d_authors,
                "ours_minus_paper": d_paper,
                "cause_vs_authors": "; ".join(causes_authors)
                if d_authors is not None and abs(d_authors) > SAME
                else "",
                "cause_vs_paper": "; ".join(dict.fromkeys(explained + causes_paper))
                if d_paper is not None and abs(d_paper) > SAME
                else "",
            }
        )

    not_theirs = not is_authors_embedder(embedder)
    embedder_cause = f"embedder ({embedder or 'none'} here; text-embedding-3-small at 512 dimensions there)"
    aggregation_cause = (
        []
        if aggregation == "authors"
        else [f"aggregation ({aggregation} here; per (category, query), then groups, there)"]
    )
    printed = paper["table3"]["printed_as"]
    for dataset, by_solution in paper["table3"]["rows"].items():
        for solution, values in by_solution.items():
            mine_row = ours.get("gem_table3", {}).get((dataset, solution), {})
            theirs_row = authors.get(primary, {}).get((dataset, solution), {})
            failures = _row_failures(results, dataset, solution, reproduce)
            for column, published in zip(paper["table3"]["columns"], values, strict=True):
                if published is None and column == "ctr":
                    continue
                cell = _cell(mine_row, column)
                causes_a, causes_p = [], [*aggregation_cause]
                if (column in EMBEDDED or column == "quantitative_overall") and not_theirs:
                    causes_a.append(embedder_cause)
                if column in printed:
                    causes_p.append(f"heading (the paper prints this column under '{printed[column]}')")
                if column in JUDGED or column == "qualitative_overall":
                    causes_a += failures
                elif failures and column in ("response_flow", "response_coherence", "quantitative_overall"):
                    causes_a += [f for f in failures if "failure text" in f]
                causes_p.append(ANOTHER_RUN)
                add("3", dataset, solution, column, cell, theirs_row.get(column), published, causes_a, causes_p)
    judges = logged["judges"]
    judge_runs = dict(zip(judges, logged["runs"], strict=False))
    for dataset, by_judge in paper["table4"]["rows"].items():
        for judge in judges:
            known = _judge_key(judge, list(by_judge))
            if known is None:
                continue
            mine_row = ours.get("gem_table4", {}).get((dataset, judge), {})
            for solution, published in zip(paper["table4"]["columns"], by_judge[known], strict=True):
                theirs = authors.get(judge_runs[judge], {}).get((dataset, solution), {}).get("qualitative_overall")
                failures = _judge_failures(results, dataset, solution, judge, reproduce)
                add("4", dataset, judge, solution, mine_row.get(solution), theirs, published, failures,
                    [*aggregation_cause, ANOTHER_RUN])  # fmt: skip
    systems = {v.lstrip("-"): name for v, name in (logged.get("systems") or {}).items()}
    for dataset, by_variant in paper["table5"]["rows"].items():
        for variant, values in by_variant.items():
            source = primary if variant == "gi-r" else systems.get(variant.removeprefix("gi-r-"))
            if source is None:
                continue
            mine_row = ours.get("gem_table5", {}).get((variant,), {})
            theirs_row = authors.get(source, {}).get((dataset, "gi-r"), {})
            failures = _row_failures(results, dataset, variant, reproduce)
            for column, published in zip(paper["table5"]["columns"], values, strict=True):
                cell = mine_row.get(f"overall:{dataset.replace('_', '-')}") if column == "qualitative_overall" else (
                    mine_row.get(f"{dataset}:{column}"))  # fmt: skip
                add("5", dataset, variant, column, cell, theirs_row.get(column), published, failures,
                    [*aggregation_cause, ANOTHER_RUN])  # fmt: skip
    for dataset, by_solution in paper["table6"]["rows"].items():
        for solution, values in by_solution.items():
            mine_row = ours.get("gem_table6", {}).get((dataset, solution), {})
            theirs_row = authors.get(primary, {}).get((dataset, solution), {})
            for column, published in zip(paper["table6"]["columns"], values, strict=True):
                cell = mine_row.get({"ittft": "ittft", "ottft": "ottft", "cost_overall": "overall"}[column])
                causes_p = [*aggregation_cause]
                if solution != "adchat" and column in ("ittft", "cost_overall"):
                    causes_p.append(
                        "token accounting (the paper's run counted Ad-LLM's system prompts, the released code the "
                        "user message only)"
                    )
                causes_p.append(ANOTHER_RUN)
                add("6", dataset, solution, column, cell, theirs_row.get(column), published, [], causes_p)
    return rows


def _cell(row: dict[str, Any], column: str) -> dict[str, Any] | None:
    keys = {
        "response_flow": "rf",
        "response_coherence": "rc",
        "ad_flow": "af",
        "ad_coherence": "ac",
        "injection_rate": "ir",
        "quantitative_overall": "overall:Quantitative",
        "qualitative_overall": "overall:Qualitative",
    }
    return row.get(keys.get(column, column))


def _row_failures(results: list[dict[str, Any]], dataset: str, variant: str, reproduce: str) -> list[str]:
    """The causes in this row's items: verdicts unmeasured here, failure texts scored 0 here."""
    mine = [r for r in results if r.get("variant") == variant and (r.get("labels") or {}).get("dataset") == dataset]
    causes = []
    unmeasured = sum(1 for r in mine for m in r.get("incomplete") or () if m in JUDGED)
    if unmeasured:
        causes.append(
            f"judge failures ({unmeasured} verdict(s) with no readable category, unmeasured here; the authors scored "
            "their default category)"
        )
    failed = sum(1 for r in mine if (r.get("error") or {}).get("fault") == "system")
    if failed:
        causes.append(f"failure text ({failed} Ad-Chat QUERY_FAILED answer(s), 0 here, scored as answers there)")
    return causes


def _judge_failures(results: list[dict[str, Any]], dataset: str, variant: str, judge: str, reproduce: str) -> list[str]:
    mine = [r for r in results if r.get("variant") == variant and (r.get("labels") or {}).get("dataset") == dataset]
    unreadable = sum(1 for r in mine for e in r.get("judges") or () if e.get("judge") == judge and not e.get("ok"))
    failed = sum(1 for r in mine if (r.get("error") or {}).get("fault") == "system")
    causes = []
    if unreadable:
        causes.append(f"judge failures ({unreadable} of {judge}'s verdicts with no readable category, unmeasured here)")
    if failed:
        causes.append(f"failure text ({failed} Ad-Chat QUERY_FAILED answer(s), 0 here)")
    return causes


def _number(value: float | None) -> str:
    return "-" if value is None else f"{value:.2f}"


def _delta(value: float | None) -> str:
    return "-" if value is None else f"{value:+.2f}"


def render(rows: list[dict[str, Any]], aggregation: str) -> list[str]:
    """The comparison as Markdown: a table per paper table, then the largest gaps."""
    lines = [
        f"# GEM-Bench: this run beside the authors' aggregates and the paper (our aggregation: {aggregation})",
        "",
        "Ours: this run's cells. Authors: their aggregate workbook for the same aggregation. Paper: the published "
        "tables. A cause is named wherever a difference exceeds 0.005 (the paper prints two decimals).",
    ]
    for table in ("3", "4", "5", "6"):
        mine = [r for r in rows if r["table"] == table]
        if not mine:
            continue
        head = "| data set | row | column | ours | authors | paper | ours - authors | ours - paper | cause vs authors "
        lines += ["", f"## Table {table}", "", head + "| cause vs paper |", "|---|---|---|---|---|---|---|---|---|---|"]
        for r in mine:
            lines.append(
                f"| {r['dataset']} | {r['row']} | {LABELS.get(r['column'], r['column'])} | {_number(r['ours'])} | "
                f"{_number(r['authors'])} | {_number(r['paper'])} | {_delta(r['ours_minus_authors'])} | "
                f"{_delta(r['ours_minus_paper'])} | {r['cause_vs_authors']} | {r['cause_vs_paper']} |"
            )
        gaps_a = [abs(r["ours_minus_authors"]) for r in mine if r["ours_minus_authors"] is not None]
        gaps_p = [abs(r["ours_minus_paper"]) for r in mine if r["ours_minus_paper"] is not None]
        unexplained = sum(
            1 for r in mine
            if r["ours_minus_authors"] is not None and abs(r["ours_minus_authors"]) > SAME and not r["cause_vs_authors"]
        )  # fmt: skip
        lines += [
            "",
            f"Table {table}: {len(mine)} cells; largest gap to the authors' file {max(gaps_a, default=0):.2f}, to the "
            f"paper {max(gaps_p, default=0):.2f}; {unexplained} difference(s) from the authors' file without a cause.",
        ]
    return lines
