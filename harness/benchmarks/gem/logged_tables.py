"""The paper's Tables 3 to 6 from an imported run of the authors' logs, aggregated either way.

- `item` (this harness's): each cell the mean over the row's items (queries x repeats). With the same queries
  in every repeat it equals the mean of the authors' per-repeat means (`evaluation_result.xlsx`).
- `authors` (the paper's): per (category, query) group the mean over repeats, then the mean over the groups
  (`evaluation_result_average.xlsx`). LM-Market's 7 duplicated prompts merge into one group each; in CA-Prod a
  query whose chosen product's cluster (its logged category) changes between repeats splits into two groups.
- `authors-with-product`: the same after dropping every query where Ad-Chat found no topic (a product with
  no name), as `evaluation_result_with_product_average.xlsx` and the authors' `report.json` do.

Each item's value in a column is what the harness's tables take (a failure of the system counts 0 where the
column is bounded); the authors' aggregation then averages those values per group. The tables are in the
format of harness.report.tables, so every report shows them.
"""

from __future__ import annotations

import statistics
from collections import defaultdict
from typing import Any

from harness.benchmarks import Column, Section, Table
from harness.benchmarks.gem import QUALITATIVE, QUANTITATIVE
from harness.benchmarks.gem.judges import JUDGED_METRICS
from harness.benchmarks.gem.per_judge import METRIC, SOLUTION_LABELS, _panel, per_judge_results
from harness.benchmarks.gem.solutions import BUILTIN_ORDER

DATASET_ORDER = ("mt_human", "lm_market", "ca_prod")
NO_TOPIC = {"name": None, "url": None, "desc": None}
PAPER_HEADINGS = {"ad_flow": "RF", "ad_coherence": "RC", "response_flow": "AF", "response_coherence": "AC"}
HEADING_NOTE = (
    "The paper's Table 3 heads its first four columns RF, RC, AF, AC, but the numbers under them are, in that "
    "order, ad flow, ad coherence, response flow and response coherence (read that way every row is within "
    "0.4-5.2 of the authors' logged run, read literally 33-50 off). Here each column is labelled by what it "
    "holds: compare AF with the paper's 'RF', AC with its 'RC', RF with its 'AF' and RC with its 'AC'."
)
AGGREGATION_TEXT = {
    "item": "each cell the mean over the row's items (queries x repeats), this harness's aggregation",
    "authors": "per (category, query) the mean over repeats, then over the groups: the authors' aggregation, "
    "which the paper's tables use (LM-Market's duplicated prompts merge; a CA-Prod query whose product cluster "
    "changes between repeats splits in two)",
    "authors-with-product": "the authors' aggregation after dropping the queries where Ad-Chat found no topic "
    "(their with-product report)",
}

COST = (
    Column("ittft", "ITTFT", "ittft", scale="tokens"),
    Column("ottft", "OTTFT", "ottft", scale="tokens"),
    Column("overall", "Overall", "cost_overall", scale="tokens"),
)


def is_authors_embedder(label: str | None) -> bool:
    """The authors' evaluator's embedder: text-embedding-3-small at 512 dimensions (as the import labels it)."""
    if label is None or " else " in label:  # mixed: some runs embedded by another model
        return False
    return "text-embedding-3-small" in label and "512 dimensions" in label


def group_key(result: dict[str, Any], extra: tuple[str, ...] = ()) -> tuple[Any, ...]:
    labels = result.get("labels") or {}
    return (
        result.get("kind"),
        result.get("variant"),
        labels.get("dataset"),
        *(labels.get(name) for name in extra),
        labels.get("category"),
        result.get("prompt"),
    )


def dropped_queries(results: list[dict[str, Any]]) -> set[tuple[str, str]]:
    """The (logged run, query) pairs the with-product report drops: a query with any item, in any solution or
    repeat of the same logged run, whose product is Ad-Chat's "no topic" record (name, url and desc all null).
    Each logged run's report filtered its own items (a run without Ad-Chat drops nothing)."""
    return {_query_of(r) for r in results if ((r.get("details") or {}).get("product") or None) == NO_TOPIC}


def _query_of(result: dict[str, Any]) -> tuple[str, str]:
    return (str((result.get("labels") or {}).get("logged_run")), str(result.get("prompt")))


def authors_rows(table: Table, results: list[dict[str, Any]], extra: tuple[str, ...] = ()) -> list[dict[str, Any]]:
    """One row per (category, query) group: each column's value the mean over the group's items (repeats)
    of what the harness's tables take from each item. compute_table's mean over these rows is the authors'
    aggregation."""
    from harness.report.tables import _value

    columns = [c for s in table.sections for c in s.columns]
    groups: dict[tuple[Any, ...], list[dict[str, Any]]] = defaultdict(list)
    for result in results:
        if result.get("score") is not None and result.get("kind") in table.kinds:
            groups[group_key(result, extra)].append(result)
    rows = []
    for members in groups.values():
        first = members[0]
        metrics: dict[str, float | None] = {}
        missing = []
        for column in columns:
            values = [v for r in members if (v := _value(r, column)) is not None]
            if values:
                metrics[column.metric] = statistics.fmean(values)
            elif any(column.metric in (r.get("incomplete") or ()) for r in members):
                missing.append(column.metric)
        rows.append(
            {
                "kind": first.get("kind"),
                "variant": first.get("variant"),
                "labels": {name: (first.get("labels") or {}).get(name) for name in ("dataset", *extra)},
                "outcome": "passed",
                "error": None,
                "score": 0.0,
                "metrics": metrics,
                "incomplete": missing,
            }
        )
    return rows


def _variants(results: list[dict[str, Any]]) -> tuple[str, ...]:
    present = {str(r.get("variant")) for r in results if r.get("variant")}
    return tuple([v for v in BUILTIN_ORDER if v in present] + sorted(present - set(BUILTIN_ORDER)))


def _compute(
    table: Table, results: list[dict[str, Any]], aggregation: str, dropped: set[tuple[str, str]],
    extra: tuple[str, ...] = (),
) -> Any:  # fmt: skip
    from harness.report.tables import compute_table

    if aggregation == "item":
        return compute_table(table, results)
    if aggregation == "authors-with-product":
        results = [r for r in results if _query_of(r) not in dropped]
    return compute_table(table, authors_rows(table, results, extra))


def tables(
    results: list[dict[str, Any]], *, aggregation: str, embedder: str | None, judge: str
) -> list[dict[str, Any]]:
    """Tables 3, 4 (two judges or more), 5 (with a second retrieval configuration) and 6 of an imported run."""
    variants = _variants(results)
    how = AGGREGATION_TEXT[aggregation]
    if embedder is None:
        embedded = "RF, RC, AF and AC were not measured (imported without an embedder); each Overall is over the rest"
    else:
        embedded = f"RF, RC, AF and AC embedded here with {embedder}" + (
            ""
            if is_authors_embedder(embedder)
            else " (the authors' evaluator used openai/text-embedding-3-small at 512 dimensions: these four "
            "columns are 2 to 9 points from theirs)"
        )
    order = (("variant", variants), ("dataset", DATASET_ORDER))
    table3 = Table(
        name="gem_table3",
        title="GEM-Bench effectiveness from the authors' logged run (the layout of the paper's Table 3; "
        f"{aggregation})",
        kinds=("gem",),
        rows=("dataset", "variant"),
        order=order,
        sections=(Section("Quantitative", QUANTITATIVE), Section("Qualitative", QUALITATIVE)),
        note=f"{embedded}. {HEADING_NOTE} Judged cells: {judge}'s verdicts as logged, scored by the code's rule. "
        f"Aggregation: {how}.",
    )
    table6 = Table(
        name="gem_table6",
        title=f"GEM-Bench cost from the authors' logged run (the layout of the paper's Table 6; {aggregation})",
        kinds=("gem",),
        rows=("dataset", "variant"),
        order=order,
        sections=(Section("Cost (the authors' token accounting)", COST, overall=None),),
        note="Tokens as the authors' code counted them (cl100k_base tokens of the texts sent; for Ad-LLM the user "
        "message only), not the provider's usage this harness records in its own runs. The paper's Ad-LLM ITTFT is "
        "104 (GI-R) and 602-622 (GIR-R, GIR-P) above these: the paper's run counted the system prompts, the "
        f"released code does not. Overall = 0.5 x ITTFT + OTTFT. Aggregation: {how}.",
    )
    dropped = dropped_queries(results)
    out = [_compute(table3, results, aggregation, dropped)]
    out += table4(results, aggregation, dropped)
    if any(v.startswith("gi-r-") for v in variants):
        out.append(table5(results, aggregation, variants, dropped))
    out.append(_compute(table6, results, aggregation, dropped))
    return [_logged_incomplete(t) for t in out if t is not None]


def _logged_incomplete(table: dict[str, Any]) -> dict[str, Any]:
    """A judged value missing from a logged run is a verdict whose text names no category: running again
    cannot fill it (the generic message says to rerun), the authors' default can."""
    incomplete = table.get("incomplete")
    if incomplete and incomplete.get("unmeasured_cells") and not incomplete.get("unscored"):
        count = incomplete["unmeasured_cells"]
        incomplete["message"] = (
            f"INCOMPLETE: {count} judged value{'s' if count != 1 else ''} missing (marked *): logged verdicts whose "
            "text names no category (import with --gem-reproduce authors to take the default category the "
            "authors' code recorded)"
        )
    return table


def table4(results: list[dict[str, Any]], aggregation: str, dropped: set[tuple[str, str]]) -> list[dict[str, Any]]:
    """Each judge's own qualitative overall (the paper's Table 4), on the primary run's variants."""
    panel = _panel(results)
    if len(panel) < 2:
        return []
    rows = []
    for result in results:
        for row in per_judge_results([result], panel):
            row["labels"]["category"] = (result.get("labels") or {}).get("category")
            row["labels"]["logged_run"] = (result.get("labels") or {}).get("logged_run")
            row["prompt"] = result.get("prompt")
            row["details"] = {"product": (result.get("details") or {}).get("product")}
            rows.append(row)
    variants = [v for v in _variants(results) if v in BUILTIN_ORDER]
    columns = tuple(Column(v, SOLUTION_LABELS.get(v, v), METRIC, where=(("variant", v),)) for v in variants)
    table = Table(
        name="gem_table4",
        title=f"GEM-Bench qualitative overall per judge (the layout of the paper's Table 4; {aggregation})",
        kinds=("gem",),
        rows=("dataset", "judge"),
        order=(("dataset", DATASET_ORDER), ("judge", tuple(panel))),
        sections=(Section("Qualitative overall", columns, overall=None),),
        note="Each judge's logged verdicts on the same responses, scored by the code's rule: the mean of its six "
        "judged metrics per item, then aggregated as the run asks "
        f"({AGGREGATION_TEXT[aggregation]}). The agreement between the judges is beside this table.",
    )
    computed = _compute(table, rows, aggregation, dropped, extra=("judge",))
    return [computed] if computed is not None else []


def table5(
    results: list[dict[str, Any]], aggregation: str, variants: tuple[str, ...], dropped: set[tuple[str, str]]
) -> dict[str, Any]:
    """GI-R's judged metrics with each retrieval embedder (the paper's Table 5), a row per configuration."""
    chosen = tuple(v for v in variants if v == "gi-r" or v.startswith("gi-r-"))
    short = {"mt_human": "MT", "lm_market": "LM", "ca_prod": "CA"}  # each label names its data set
    sections = tuple(
        Section(
            dataset.replace("_", "-"),
            tuple(
                Column(f"{dataset}:{m.name}", f"{short[dataset]} {m.label}", m.name, where=(("dataset", dataset),))
                for m in JUDGED_METRICS
            ),
            overall_label=f"{short[dataset]} Overall",
        )
        for dataset in DATASET_ORDER
    )
    table = Table(
        name="gem_table5",
        title=f"GEM-Bench GI-R by retrieval embedder (the numbers of the paper's Table 5; {aggregation})",
        kinds=("gem",),
        rows=("variant",),
        order=(("variant", chosen),),
        sections=sections,
        note="gi-r: Ad-LLM retrieval by text-embedding-3-small (the paper's 'Small'); gi-r-minilm: by "
        "all-MiniLM-L6-v2 (its 'Mini'). The paper prints metrics as rows and configurations as columns; here a "
        f"row per configuration. Aggregation: {AGGREGATION_TEXT[aggregation]}.",
    )
    mine = [r for r in results if r.get("variant") in chosen]
    return _compute(table, mine, aggregation, dropped)  # type: ignore[no-any-return]
