"""summary.md: the tables a person reads, fit for a CI step summary."""

from __future__ import annotations

from typing import Any

from harness.report.agreement import markdown_agreement
from harness.report.tables import markdown_table


def _pct(value: float | None) -> str:
    return "-" if value is None else f"{value * 100:.1f}%"


def _num(value: float | None) -> str:
    return "-" if value is None else f"{value:.1f}"


def _cost(stats: dict[str, Any]) -> str:
    return f"${stats['cost_usd']:.4f}" + ("" if stats["cost_known"] else " (+unknown)")


def _interval(stats: dict[str, Any]) -> str:
    bounds = stats.get("score_interval")
    return f"{bounds[0]:.1f}-{bounds[1]:.1f}" if bounds else "-"


def suite_table(suites: dict[str, dict[str, Any]], totals: dict[str, Any]) -> list[str]:
    lines = [
        "| suite | items | mean score | 95 % interval | pass rate | passed | failed | errors | tokens in/out | cost "
        "| cache hits |",
        "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|",
    ]
    for name, s in [*suites.items(), ("**all**", totals)]:
        lines.append(
            f"| {name} | {s['items']} | {_num(s['mean_score'])} | {_interval(s)} | {_pct(s['pass_rate'])} | "
            f"{s['passed']} | "
            f"{s['failed']} | {s['errors']} | {s['input_tokens']:,}/{s['output_tokens']:,} | {_cost(s)} | "
            f"{s['cache_hits']}/{s['calls']} |"
        )
    return lines


def render_summary(run: dict[str, Any]) -> str:
    meta = run["run"]
    options = meta["options"]
    sut = f"agent {options['agent']}" if options.get("agent") else options.get("model")
    lines = [
        f"# Evaluation run {meta['run_id']}",
        "",
        f"- system under test: `{sut}`",
        f"- judges: {', '.join(f'`{j}`' for j in options['judge_models'])}",
        f"- harness {meta['harness_version']}, git {(meta['git'] or {}).get('revision') or 'unknown'}, "
        f"{meta['duration_s']:.1f} s, cache mode {options['cache_mode']}",
    ]
    if meta.get("notice"):
        lines += ["", f"> **Note:** {meta['notice']}"]
    for warning in meta.get("warnings") or []:
        lines += ["", f"> **Warning:** {warning}"]
    lines += ["", "## Scores", "", *suite_table(run["suites"], run["totals"])]
    for table in run.get("tables") or []:
        lines += ["", *markdown_table(table)]
    agreement = markdown_agreement(run.get("judge_agreement") or [])
    if agreement:
        lines += ["", *agreement]
    errors = [r for r in run["results"] if r["outcome"] == "error"]
    if errors:
        lines += ["", f"## Errors ({len(errors)})", "", "| item | kind | reason |", "|---|---|---|"]
        for r in errors[:50]:
            message = (r["error"] or {}).get("message", "").replace("\n", " ").replace("|", "\\|")[:200]
            lines.append(f"| `{r['nodeid']}` | {(r['error'] or {}).get('kind')} | {message} |")
        if len(errors) > 50:
            lines.append(f"| ... | | {len(errors) - 50} more in results.json |")
    failed = [r for r in run["results"] if r["outcome"] == "failed"]
    if failed:
        lines += ["", f"## Below threshold ({len(failed)})", "", "| item | score | threshold |", "|---|---:|---:|"]
        for r in failed[:50]:
            lines.append(f"| `{r['nodeid']}` | {_num(r['score'])} | {r['pass_threshold']:g} |")
    return "\n".join(lines) + "\n"
