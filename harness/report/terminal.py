"""The terminal summary: per-suite mean score, pass rate, errors, tokens, cost and cache hits."""

from __future__ import annotations

from typing import Any

from harness.kinds import run_records
from harness.report.aggregate import by_suite, summarize
from harness.report.served import change_line
from harness.report.tables import compute_tables, incomplete_message, terminal_table
from harness.report.writer import LOCAL_NOTICE
from harness.settings import Settings


def write_summary(reporter: Any, state: Any, settings: Settings) -> None:
    results = state.results
    suites = by_suite(results)
    totals = summarize(results)
    reporter.write_sep("=", "harness scores")
    incomplete = getattr(state, "incomplete", None)
    if incomplete:
        from harness.resume import incomplete_line

        reporter.write_line(incomplete_line(incomplete), red=True, bold=True)

    for record in run_records(results, settings.public()).values():
        for line in record.get("header") or []:
            reporter.write_line(line)
    from harness.terminal_fit import fit_table, output_width

    width = output_width(getattr(getattr(reporter, "_tw", None), "_file", None))
    header = ["suite", "items", "mean", "pass", "sysfail", "unscored", "tokens in/out", "cost $", "cached"]
    rows = []
    for name, s in [*suites.items(), ("ALL", totals)]:
        mean = "-" if s["mean_score"] is None else f"{s['mean_score']:.1f}"
        rate = "-" if s["pass_rate"] is None else f"{s['pass_rate'] * 100:.0f}%"
        tokens = f"{s['input_tokens']}/{s['output_tokens']}"
        cost = f"{s['cost_usd']:.4f}" + ("" if s["cost_known"] else "+?")
        rows.append([name, str(s["items"]), mean, rate, str(s["system_failures"]), str(s["errors"]), tokens, cost,
                     f"{s['cache_hits']}/{s['calls']}"])  # fmt: skip
    for line in fit_table(header, rows, width):
        reporter.write_line(line)
    if totals["system_failures"]:
        reporter.write_line(
            f"{totals['system_failures']} item(s) failed in the system under test (crash, timeout, no readable or "
            "empty answer): each scored 0, and its reason is above."
        )
    if totals["errors"]:
        reporter.write_line(incomplete_message(totals["errors"], totals["items"]), red=True)

    if state.tables is None:
        state.tables = compute_tables(sorted(results, key=lambda r: r["nodeid"]))
    for table in state.tables:
        reporter.write_line("")
        for line in terminal_table(table, width):
            reporter.write_line(line)
    comparison = getattr(state, "comparison", None)
    if comparison:
        _write_comparison(reporter, comparison)
    for warning in [*settings.warnings, *state.warnings]:
        reporter.write_line(f"WARNING: {warning}", yellow=True)
    if settings.uses_local_models:
        reporter.write_line(f"NOTE: {LOCAL_NOTICE}", yellow=True)
    if incomplete:  # again at the end, where the eye lands
        reporter.write_line(incomplete_line(incomplete), red=True, bold=True)


def _write_comparison(reporter: Any, comparison: dict[str, Any]) -> None:
    reporter.write_line("")
    if comparison.get("error"):
        reporter.write_line(f"BASELINE: {comparison['error']}", red=True)
        return
    reporter.write_line(f"compared with {comparison['baseline']}:")
    for note in comparison.get("notes") or []:
        reporter.write_line(f"  note: {note}", yellow=True)
    for c in comparison["comparisons"]:
        if c["metric"] != "score":
            continue
        interval = "" if c["low"] is None else f" [{c['low']:+.1f}, {c['high']:+.1f}]"
        detect = (
            f", smallest detectable {c['detectable']:.1f}" if c["verdict"] == "inconclusive" and c["detectable"] else ""
        )
        reporter.write_line(
            f"  {c['suite']:<24} {c['base_mean']:6.1f} -> {c['new_mean']:6.1f}  {c['delta']:+6.1f}{interval}  "
            f"{c['verdict']}{detect}",
            red=c["verdict"] == "regressed",
            green=c["verdict"] == "improved",
        )
    for title, key in (("added", "added"), ("removed", "removed"), ("changed version", "changed_version"),
                       ("new errors", "new_errors")):  # fmt: skip
        if comparison.get(key):
            reporter.write_line(f"  {title}: {len(comparison[key])} ({', '.join(comparison[key][:5])}...)")
    for change in comparison.get("not_comparable") or []:
        reporter.write_line(f"  {change['role']} changed: not comparable ({change_line(change)})", yellow=True)
    if comparison.get("flaky"):
        reporter.write_line(f"  flaky: {len(comparison['flaky'])} item(s) whose repeats straddle the threshold")
    if comparison.get("gate"):
        reporter.write_line(comparison["gate"].replace("**", ""), red=comparison["failed"], bold=True)
