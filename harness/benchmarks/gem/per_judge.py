"""GEM-Bench's per-judge table, in the layout of the paper's Table 4: one row per data set and judge, one
column per solution, each cell the qualitative overall that judge alone gives (the mean of its six judged
metrics per item, then over the row's items), with a 95 % interval.

Table 3's judged cells average the panel, and a judged metric one judge of the panel could not give is
unmeasured for the whole panel on that item (marked incomplete there, never averaged over the judges that
answered). Here every judge stands on its own verdicts (results.json `judges[]`, scored with the run's
judge rule): a judge that answered keeps its numbers, and only the rows of a judge that gave no verdict
are marked incomplete. A failure of the system under test is a 0 for every judge, as in Table 3. Shown
when a run has two judges or more.
"""

from __future__ import annotations

import statistics
from typing import Any

from harness.benchmarks import Column, Section, Table
from harness.benchmarks.gem.judges import BY_NAME
from harness.benchmarks.gem.solutions import BUILTIN_ORDER

SOLUTION_LABELS = {"adchat": "Ad-Chat", "gi-r": "GI-R", "gir-r": "GIR-R", "gir-p": "GIR-P"}
METRIC = "qualitative_overall"


def _panel(results: list[dict[str, Any]]) -> list[str]:
    """Every judge that was asked for a judged metric, in the order they first appear."""
    seen: dict[str, None] = {}
    for result in results:
        for entry in result.get("judges") or []:
            if entry.get("template") in BY_NAME:
                seen.setdefault(str(entry["judge"]), None)
    return list(seen)


def _asked(result: dict[str, Any]) -> list[str]:
    """The judged metrics the item asked for (a metric it did not ask for is absent, or None on a failure)."""
    metrics = result.get("metrics") or {}
    failed_system = (result.get("error") or {}).get("fault") == "system"
    if failed_system:
        return [name for name in BY_NAME if name not in metrics]  # the asked ones count 0 (failure_metrics)
    return [name for name in BY_NAME if name in metrics or name in (result.get("incomplete") or ())]


def _judge_value(result: dict[str, Any], judge: str, asked: list[str]) -> float | None:
    """The judge's own qualitative overall on one item: the mean of its scores on the asked metrics under
    the run's judge rule, or None when it gave no verdict on one of them."""
    rule = str(((result.get("details") or {}).get("rules") or {}).get("judge_rule") or "code")
    verdicts = {
        entry["template"]: entry.get("value")
        for entry in result.get("judges") or []
        if entry.get("judge") == judge and entry.get("ok") and entry.get("template") in BY_NAME
    }
    if any(not isinstance(verdicts.get(name), dict) for name in asked):
        return None
    return statistics.fmean(BY_NAME[name].rule_score(verdicts[name], rule) for name in asked)


def per_judge_results(results: list[dict[str, Any]], panel: list[str]) -> list[dict[str, Any]]:
    """One row-ready record per (item, judge): its labels, the judge's qualitative overall, and whether it
    is incomplete, unscored (the harness's failure) or the system's failure (0)."""
    rows = []
    for result in results:
        asked = _asked(result)
        unscored = result.get("score") is None  # the harness could not measure the item: unscored for every judge
        if not asked and not unscored:
            continue
        system = (result.get("error") or {}).get("fault") == "system" and not unscored
        for judge in panel:
            value = 0.0 if system else None if unscored else _judge_value(result, judge, asked)
            rows.append(
                {
                    "kind": result.get("kind"),
                    "variant": result.get("variant"),
                    "labels": {"dataset": (result.get("labels") or {}).get("dataset"), "judge": judge},
                    "outcome": result.get("outcome"),
                    "error": result.get("error"),
                    "score": None if unscored else (value if value is not None else 0.0),
                    "metrics": {METRIC: value},
                    "incomplete": [METRIC] if value is None and not unscored else [],
                }
            )
    return rows


def table4(results: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The per-judge table (harness.report.tables.compute_table's format), or nothing for a single judge."""
    from harness.report.tables import compute_table

    panel = _panel(results)
    if len(panel) < 2:
        return []
    present = {str(r.get("variant")) for r in results if r.get("variant")}
    variants = [v for v in BUILTIN_ORDER if v in present] + sorted(present - set(BUILTIN_ORDER))
    columns = tuple(Column(v, SOLUTION_LABELS.get(v, v), METRIC, where=(("variant", v),)) for v in variants)
    table = Table(
        name="gem_table4",
        title="GEM-Bench qualitative overall per judge (the layout of the paper's Table 4)",
        kinds=("gem",),
        rows=("dataset", "judge"),
        order=(("dataset", ("mt_human", "lm_market", "ca_prod")), ("judge", tuple(panel))),
        sections=(Section("Qualitative overall", columns, overall=None),),
        note="Each judge alone, on its own verdicts under the run's judge rule: the mean of its six judged metrics "
        "per item, then over the row's items (a failure of the system counts 0). Table 3's judged cells average "
        "the panel, and leave a metric unmeasured (*) on an item where any judge gave no verdict; here only the "
        "rows of the judge that gave none are marked.",
    )
    computed = compute_table(table, per_judge_results(results, panel))
    return [computed] if computed is not None else []
