"""The GEM-Bench authors' four judges held to each other, on their own logged runs.

The authors judged the same 2,760 responses (4 solutions x 3 data sets x 3 repeats) with gpt-4.1-mini,
qwen-max, kimi-k2 and claude-3.5-haiku (`../shared/data/gem-bench-runs/`, one folder per judge; the
layout is in shared/specs/gem-bench-runs.md). Each judged metric has a `METRIC_evaluation.xlsx` per judge
whose rows (question, method, response, the judge's text, its category, its score) come in the same fixed
order in every judge's file; this module reads them, checks that every judge's row i is the same response,
and computes:

- the layout of the paper's Table 4: per data set and judge, each solution's qualitative overall (the mean
  of the six judged scores per response, then over the responses; the authors' own Score column), with
  beside it that judge's mean quadratically weighted kappa against the other judges on the data set;
- per judged metric: exact agreement, Krippendorff's alpha (nominal and ordinal), pairwise Cohen's kappa
  (plain and quadratic) and how often the judges are two levels or more apart.

A verdict whose judge's text does not end its output with one of the metric's four codes (`[[GOOD]]`; the
logs hold `[[FAR]]`, `[[NEEDS_IMROVEMENT]]`, or none: 6 of gpt-4.1-mini's 16,560 verdicts, 41 of kimi-k2's)
is a missing level: the authors scored it with a default category, whose Score stays in the means, as in
their tables, but it is no evidence of what the judge thought. Only the files are read; this
is not the run importer (which turns the runs into harness runs).
"""

from __future__ import annotations

import json
import re
import statistics
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from harness.analysis.panel import panel_agreement
from harness.benchmarks.gem.judges import BY_NAME
from harness.benchmarks.gem.logged import METRIC_FILES  # the authors' workbook names -> the harness's metrics

LEVELS = (0.0, 30.0, 60.0, 90.0)  # every metric's four categories, by the score the authors' code gives
SOLUTIONS = ("Ad-Chat", "GI-R", "GIR-R", "GIR-P")
DATASETS = ("MT-Human", "LM-Market", "CA_Prod")
_FOLDER = re.compile(r"Linear_weight-(?P<judge>.+)-repeat-\d+$")
_OUTPUT = re.compile(r"\[\[\s*([A-Za-z_ ]+?)\s*\]\]")


class GemRunsError(ValueError):
    """The runs cannot be read as aligned verdicts: the message names the file, the row and what differs."""


@dataclass
class Verdicts:
    """One judge's verdicts on one metric, row-aligned with every other judge's."""

    rows: list[tuple[str, str, str]]  # (question, method, response)
    levels: list[float | None]  # the category's score; None when the judge's output named no valid category
    scores: list[float]  # the authors' Score column (a default category's score where the code was unreadable)


def judge_of(folder: Path) -> str | None:
    match = _FOLDER.search(folder.name)
    return match.group("judge") if match else None


def read_verdicts(path: Path, metric: str) -> Verdicts:
    """One `METRIC_evaluation.xlsx`: its rows, category levels and scores."""
    import openpyxl

    codes = dict(BY_NAME[metric].categories)
    try:
        sheet = openpyxl.load_workbook(path, read_only=True).worksheets[0]
        table = list(sheet.iter_rows(values_only=True))
    except (OSError, ValueError, KeyError, IndexError) as exc:
        raise GemRunsError(f"{path}: not a readable workbook ({exc})") from None
    header = [str(c).strip() if c is not None else "" for c in table[0]] if table else []
    wanted = ("Question", "Method", "Response", "Evaluation", "Score")
    missing = [name for name in wanted if name not in header]
    if missing:
        raise GemRunsError(f"{path}: row 1 lacks the column(s) {', '.join(missing)} (found {header})")
    at = {name: header.index(name) for name in wanted}
    verdicts = Verdicts([], [], [])
    for number, row in enumerate(table[1:], start=2):
        try:
            score = float(row[at["Score"]])
        except (TypeError, ValueError):
            raise GemRunsError(f"{path}: row {number}: Score is {row[at['Score']]!r}, expected a number") from None
        said = _OUTPUT.findall(str(row[at["Evaluation"]] or ""))
        code = said[-1].strip() if said else ""
        verdicts.rows.append(tuple(str(row[at[n]] or "") for n in ("Question", "Method", "Response")))  # type: ignore[arg-type]
        verdicts.levels.append(codes.get(code))
        verdicts.scores.append(score)
    return verdicts


def find_panel(root: Path) -> dict[str, Path]:
    """{judge: folder} for the judge runs that hold every judged metric's file on the same responses (the
    largest such group: the MiniLM run, GI-R only, is left out by its size)."""
    if not root.is_dir():
        raise GemRunsError(f"{root}: no such folder (the GEM-Bench authors' logged runs)")
    by_size: dict[int, dict[str, Path]] = {}
    for folder in sorted(p for p in root.iterdir() if p.is_dir()):
        judge = judge_of(folder)
        if judge is None or not all((folder / f"{m}_evaluation.xlsx").is_file() for m in METRIC_FILES):
            continue
        rows = _row_count(folder / "accuracy_evaluation.xlsx")
        group = by_size.setdefault(rows, {})
        if judge not in group:  # two runs of one judge on the same responses: the first (by folder name)
            group[judge] = folder
    if not by_size:
        raise GemRunsError(f"{root}: no judge run folder holds the six *_evaluation.xlsx files")
    _, panel = max(by_size.items(), key=lambda entry: (len(entry[1]), entry[0]))  # most judges, then most rows
    if len(panel) < 2:
        raise GemRunsError(f"{root}: only one judge ({', '.join(panel)}) judged these responses: nothing to compare")
    return panel


def _row_count(path: Path) -> int:
    import openpyxl

    sheet = openpyxl.load_workbook(path, read_only=True).worksheets[0]
    return int(sheet.max_row or 0)


def dataset_labels(panel: dict[str, Path]) -> dict[tuple[str, str], str]:
    """(solution, prompt) -> data set, from the responses (`SOLUTION/DATASET/REPEAT/result.json`) in the
    first run folder that has them. Empty when none has (the rows are then one data set, `all`)."""
    labels: dict[tuple[str, str], str] = {}
    for folder in panel.values():
        for path in sorted(folder.glob("*/*/*/result.json")):
            solution, dataset = path.parts[-4], path.parts[-3]
            try:
                document = json.loads(path.read_text(encoding="utf-8"))
            except (OSError, ValueError) as exc:
                raise GemRunsError(f"{path}: not readable JSON ({exc})") from None
            for entries in document.values():
                for entry in entries:
                    labels[(solution, str(entry.get("prompt") or ""))] = dataset
        if labels:
            return labels
    return labels


def load_panel(root: Path) -> tuple[list[str], dict[str, dict[str, Verdicts]], list[str]]:
    """(judges, {metric: {judge: verdicts}}, the data set of each row), every judge's rows checked to be
    the same responses in the same order."""
    panel = find_panel(root)
    judges = list(panel)
    verdicts: dict[str, dict[str, Verdicts]] = {}
    for file_metric, metric in METRIC_FILES.items():
        verdicts[metric] = {j: read_verdicts(panel[j] / f"{file_metric}_evaluation.xlsx", metric) for j in judges}
        first = verdicts[metric][judges[0]]
        for judge in judges[1:]:
            other = verdicts[metric][judge]
            if len(other.rows) != len(first.rows):
                raise GemRunsError(
                    f"{panel[judge] / f'{file_metric}_evaluation.xlsx'}: {len(other.rows)} rows, "
                    f"{judges[0]}'s file has {len(first.rows)}"
                )
            for i, (a, b) in enumerate(zip(first.rows, other.rows, strict=True)):
                if a != b:
                    raise GemRunsError(
                        f"{panel[judge] / f'{file_metric}_evaluation.xlsx'}: row {i + 2} is another response "
                        f"than row {i + 2} of {judges[0]}'s file (question {b[0][:40]!r} vs {a[0][:40]!r})"
                    )
    rows = verdicts["accuracy"][judges[0]].rows
    for metric, by_judge in verdicts.items():
        if by_judge[judges[0]].rows != rows:
            raise GemRunsError(f"the {metric} files hold other responses than the accuracy files")
    labels = dataset_labels(panel)
    datasets = [labels.get((method, question), "all" if not labels else "?") for question, method, _ in rows]
    if "?" in datasets:
        row = datasets.index("?") + 2
        raise GemRunsError(f"row {row} of the verdict files matches no response in the run's result.json files")
    return judges, verdicts, datasets


def agreement_tables(root: Path) -> dict[str, Any]:
    """Everything `harness judges agreement` shows for the authors' runs under `root`."""
    judges, verdicts, datasets = load_panel(root)
    methods = [method for _, method, _ in verdicts["accuracy"][judges[0]].rows]
    metrics = list(verdicts)
    per_metric = []
    for metric in metrics:
        ratings = {j: verdicts[metric][j].levels for j in judges}
        row = panel_agreement(ratings, LEVELS)
        row["metric"] = metric
        row["mean_score"] = {j: round(statistics.fmean(verdicts[metric][j].scores), 2) for j in judges}
        per_metric.append(row)
    order = [d for d in DATASETS if d in datasets] + sorted(set(datasets) - set(DATASETS))
    solutions = [s for s in SOLUTIONS if s in methods] + sorted(set(methods) - set(SOLUTIONS))
    table4 = []
    for dataset in order:
        rows = [i for i, d in enumerate(datasets) if d == dataset]
        pooled = {j: [verdicts[m][j].levels[i] for m in metrics for i in rows] for j in judges}
        together = panel_agreement(pooled, LEVELS)
        for judge in judges:
            cells = {}
            for solution in solutions:
                chosen = [i for i in rows if methods[i] == solution]
                overall = [statistics.fmean(verdicts[m][judge].scores[i] for m in metrics) for i in chosen]
                cells[solution] = round(statistics.fmean(overall), 2) if overall else None
            mine = [p["kappa_quadratic"] for p in together["pairs"] if judge in p["judges"]]
            table4.append(
                {
                    "dataset": dataset,
                    "judge": judge,
                    "responses": len(rows),
                    "cells": cells,
                    "kappa_quadratic_vs_others": round(statistics.fmean(mine), 4) if mine else None,
                    "alpha_ordinal_dataset": together["alpha_ordinal"],
                }
            )
    overall = panel_agreement({j: [v for m in metrics for v in verdicts[m][j].levels] for j in judges}, LEVELS)
    return {
        "source": str(root),
        "judges": judges,
        "responses": len(datasets),
        "solutions": solutions,
        "table4": table4,
        "metrics": per_metric,
        "overall": overall,
    }


def markdown_tables(doc: dict[str, Any]) -> list[str]:
    """The two tables as Markdown: Table 4's layout with agreement beside it, then per-metric agreement."""
    solutions = doc["solutions"]
    lines = [
        f"GEM-Bench judges held to each other: {len(doc['judges'])} judges on the same {doc['responses']} responses",
        "",
        "Qualitative overall per data set and judge (the layout of the paper's Table 4), with each judge's mean "
        "quadratic kappa against the others and the data set's ordinal alpha",
        "",
        "| data set | judge | " + " | ".join(solutions) + " | kappa_w vs others | alpha (ordinal) |",
        "|---|---|" + "---:|" * (len(solutions) + 2),
    ]
    for row in doc["table4"]:
        cells = " | ".join("-" if row["cells"][s] is None else f"{row['cells'][s]:.1f}" for s in solutions)
        lines.append(
            f"| {row['dataset']} | {row['judge']} | {cells} | {_f(row['kappa_quadratic_vs_others'])} "
            f"| {_f(row['alpha_ordinal_dataset'])} |"
        )
    lines += [
        "",
        "Agreement per judged metric (levels: the four categories in score order; spread: judges two levels or "
        "more apart)",
        "",
        "| metric | exact | alpha nominal | alpha ordinal | mean kappa_w | spread >= 2 | "
        + " | ".join(f"mean {j}" for j in doc["judges"])
        + " |",
        "|---|" + "---:|" * (5 + len(doc["judges"])),
    ]
    for row in [*doc["metrics"], {**doc["overall"], "metric": "all six", "mean_score": {}}]:
        means = " | ".join(_f(row["mean_score"].get(j), 1) for j in doc["judges"])
        lines.append(
            f"| {row['metric']} | {_f(row['exact_agreement'])} | {_f(row['alpha_nominal'])} "
            f"| {_f(row['alpha_ordinal'])} | {_f(row['mean_kappa_quadratic'])} | {_f(row['spread_2_or_more'])} "
            f"| {means} |"
        )
    lines += ["", "Pairwise Cohen's kappa over all six metrics (plain / quadratic)", ""]
    lines += ["| judges | items | exact | kappa | kappa_w |", "|---|---:|---:|---:|---:|"]
    for pair in doc["overall"]["pairs"]:
        lines.append(
            f"| {' / '.join(pair['judges'])} | {pair['items']} | {_f(pair['exact'])} | {_f(pair['kappa'])} "
            f"| {_f(pair['kappa_quadratic'])} |"
        )
    return lines


def _f(value: float | None, digits: int = 3) -> str:
    return "-" if value is None else f"{value:.{digits}f}"
