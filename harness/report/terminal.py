"""The terminal summary: per-suite mean score, pass rate, errors, tokens, cost and cache hits."""

from __future__ import annotations

from typing import Any

from harness.report.aggregate import by_suite, summarize
from harness.report.writer import LOCAL_NOTICE
from harness.settings import Settings


def write_summary(reporter: Any, state: Any, settings: Settings) -> None:
    results = state.results
    suites = by_suite(results)
    totals = summarize(results)
    reporter.write_sep("=", "harness scores")
    header = (
        f"{'suite':<24} {'items':>5} {'mean':>6} {'pass':>7} {'err':>4} {'tokens in/out':>17} "
        f"{'cost $':>10} {'cached':>9}"
    )
    reporter.write_line(header)
    for name, s in [*suites.items(), ("ALL", totals)]:
        mean = "-" if s["mean_score"] is None else f"{s['mean_score']:.1f}"
        rate = "-" if s["pass_rate"] is None else f"{s['pass_rate'] * 100:.0f}%"
        tokens = f"{s['input_tokens']}/{s['output_tokens']}"
        cost = f"{s['cost_usd']:.4f}" + ("" if s["cost_known"] else "+?")
        reporter.write_line(
            f"{name[:24]:<24} {s['items']:>5} {mean:>6} {rate:>7} {s['errors']:>4} {tokens:>17} "
            f"{cost:>10} {s['cache_hits']:>4}/{s['calls']:<4}"
        )
    from harness.report.tables import compute_tables, terminal_table

    if state.tables is None:
        state.tables = compute_tables(sorted(results, key=lambda r: r["nodeid"]))
    for table in state.tables:
        reporter.write_line("")
        for line in terminal_table(table):
            reporter.write_line(line)
    for warning in [*settings.warnings, *state.warnings]:
        reporter.write_line(f"WARNING: {warning}", yellow=True)
    if settings.uses_local_models:
        reporter.write_line(f"NOTE: {LOCAL_NOTICE}", yellow=True)
