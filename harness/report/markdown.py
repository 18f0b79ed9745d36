"""summary.md: the tables a person reads, fit for a CI step summary."""

from __future__ import annotations

from typing import Any

from harness.report.agreement import markdown_agreement
from harness.report.tables import incomplete_message, markdown_table


def _pct(value: float | None) -> str:
    return "-" if value is None else f"{value * 100:.1f}%"


def _num(value: float | None) -> str:
    return "-" if value is None else f"{value:.1f}"


def _cost(stats: dict[str, Any]) -> str:
    return f"${stats['cost_usd']:.4f}" + ("" if stats["cost_known"] else " (+unknown)")


def _interval(stats: dict[str, Any]) -> str:
    bounds = stats.get("score_interval")
    return f"{bounds[0]:.1f}-{bounds[1]:.1f}" if bounds else "-"


SUITE_COLUMNS = ("suite", "items", "mean score", "95 % interval", "pass rate", "passed", "failed",
                 "system failures (0)", "unscored", "tokens in/out", "cost", "cache hits")  # fmt: skip


def suite_cells(name: str, s: dict[str, Any]) -> list[str]:
    """One suite's row (or the totals'), as plain text: summary.md and report.html show the same."""
    return [
        name, str(s["items"]), _num(s["mean_score"]), _interval(s), _pct(s["pass_rate"]), str(s["passed"]),
        str(s["failed"]), str(s.get("system_failures", 0)), str(s["errors"]),
        f"{s['input_tokens']:,}/{s['output_tokens']:,}", _cost(s),
        f"{s['cache_hits']}/{s['calls']}",
    ]  # fmt: skip


def suite_table(suites: dict[str, dict[str, Any]], totals: dict[str, Any]) -> list[str]:
    lines = ["| " + " | ".join(SUITE_COLUMNS) + " |", "|---|" + "---:|" * (len(SUITE_COLUMNS) - 1)]
    for name, s in [*suites.items(), ("**all**", totals)]:
        lines.append("| " + " | ".join(suite_cells(name, s)) + " |")
    if totals.get("errors"):
        lines += ["", f"**{incomplete_message(totals['errors'], totals['items'])}**"]
    return lines


def render_summary(run: dict[str, Any]) -> str:
    meta = run["run"]
    options = meta["options"]
    from harness.run_files import system_label

    sut = system_label(options)
    lines = [
        f"# Evaluation run {meta['run_id']}",
        "",
        f"- system under test: `{sut}`",
        f"- judges: {', '.join(f'`{j}`' for j in options['judge_models'])}",
        f"- harness {meta['harness_version']}, git {(meta['git'] or {}).get('revision') or 'unknown'}, "
        f"{meta['duration_s']:.1f} s, cache mode {options['cache_mode']}",
    ]
    for record in (meta.get("benchmarks") or {}).values():
        lines += [f"- {line}" for line in record.get("header") or []]
    from harness.sharding import provenance

    origin = provenance(meta)
    if origin:
        lines.append(f"- {origin}")
    if meta.get("incomplete"):
        from harness.resume import incomplete_line

        lines += ["", f"> **{incomplete_line(meta['incomplete'])}**"]
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
    from harness.report.repeats import markdown_repeats

    repeats = markdown_repeats(run.get("repeats") or {})
    if repeats:
        lines += ["", *repeats]
    served = served_section(run.get("served_models") or {})
    if served:
        lines += ["", *served]
    if run.get("comparison"):
        lines += ["", *comparison_section(run["comparison"])]
    if run.get("tech_market_fit"):
        from harness.analysis.tmf import markdown_section

        lines += ["", *markdown_section(run["tech_market_fit"])]
    errors = [r for r in run["results"] if r["outcome"] == "error"]
    if errors:
        lines += ["", f"## Errors ({len(errors)})", "", "| item | kind | reason |", "|---|---|---|"]
        for r in errors[:50]:
            message = (r["error"] or {}).get("message", "").replace("\n", " ").replace("|", "\\|")[:200]
            lines.append(f"| `{r['nodeid']}` | {(r['error'] or {}).get('kind')} | {message} |")
        if len(errors) > 50:
            lines.append(f"| ... | | {len(errors) - 50} more in results.json |")
    failed = failed_first(run["results"])
    if failed:
        lines += ["", *failed_table(failed, withheld=bool(meta.get("references_withheld")))]
    lines += ["", *item_table(run["results"])]
    return "\n".join(lines) + "\n"


def failed_first(results: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The items that scored below their threshold (the system's failures among them), lowest score first."""
    failed = [r for r in results if r["outcome"] == "failed"]
    return sorted(failed, key=lambda r: (r.get("score") or 0.0, r["nodeid"]))


def judge_reason(result: dict[str, Any]) -> str | None:
    """The first judge's reasoning, or the system's failure, in one line: why it scored as it did."""
    error = result.get("error") or {}
    if error.get("message"):
        return f"[{error.get('kind')}] {error['message']}"
    for verdict in result.get("judges") or []:
        value = verdict.get("value")
        if isinstance(value, dict):
            for key in ("reasoning", "analysis", "rationale", "explanation"):
                if value.get(key):
                    return str(value[key])
    reasoning = (result.get("details") or {}).get("judge_reasoning")
    if isinstance(reasoning, dict) and reasoning:
        return str(next(iter(reasoning.values())))
    return None


def failed_table(failed: list[dict[str, Any]], *, withheld: bool = False, rows: int = 50) -> list[str]:
    """summary.md's failed items, lowest score first: what was expected against what came, and why."""
    from harness.reference import clip

    expected_head = "expected (withheld)" if withheld else "expected"
    lines = [
        f"## Failed items ({len(failed)})",
        "",
        f"| item | score | threshold | {expected_head} | got | why |",
        "|---|---:|---:|---|---|---|",
    ]
    for r in failed[:rows]:
        expected = "-" if withheld or r.get("expected") is None else _cell(r["expected"])
        got = "no answer" if r.get("answer") is None else _cell(clip(r["answer"], 120))
        why = judge_reason(r)
        lines.append(
            f"| `{r['nodeid']}` | {_num(r['score'])} | {r['pass_threshold']:g} | {expected} | {got} | "
            f"{_cell(clip(why, 200)) if why else '-'} |"
        )
    if len(failed) > rows:
        lines.append(f"| ... | | | | | {len(failed) - rows} more in results.json |")
    return lines


def served_section(served: dict[str, Any]) -> list[str]:
    """What answered, per role and requested model (harness.report.served). The served names come from the
    providers' replies: made inert as any text from outside."""
    from harness.report.served import ROLES

    if not served:
        return []
    lines = [
        "### Models that answered",
        "",
        "_The model each provider's replies named, per requested model (a cache hit counts the model that "
        "answered when the call was made), and their system fingerprints. Unknown: calls whose reply did "
        "not say._",
        "",
        "| role | requested | served | system fingerprints | calls | unknown |",
        "|---|---|---|---|---:|---:|",
    ]
    for role in ROLES:
        for model, row in (served.get(role) or {}).items():
            names = _cell(", ".join(row.get("served") or [])) or "-"
            prints = list(row.get("fingerprints") or [])
            shown = _cell(", ".join(prints[:5]) + (f" (+{len(prints) - 5})" if len(prints) > 5 else "")) or "-"
            lines.append(
                f"| {role} | {_cell(model)} | {names} | {shown} | {row.get('calls', 0)} | {row.get('unknown', 0)} |"
            )
    return lines


def comparison_section(comparison: dict[str, Any]) -> list[str]:
    """The comparison with the baseline, from its JSON form."""
    from harness.analysis.compare import Comparison, Report, markdown

    if comparison.get("error"):
        return ["## Compared with the baseline", "", f"> **{comparison['error']}**"]
    report = Report(
        comparisons=[Comparison(**c) for c in comparison["comparisons"]],
        added=comparison["added"],
        removed=comparison["removed"],
        changed_version=comparison["changed_version"],
        errored=comparison["errored"],
        flaky=comparison["flaky"],
        flaky_excluded=comparison.get("flaky_excluded") or [],
        new_errors=comparison.get("new_errors", []),
        notes=comparison["notes"],
        not_comparable=comparison.get("not_comparable") or [],
        fail_margin=comparison["fail_margin"],
        tolerance=comparison["tolerance"],
    )
    return markdown(report, comparison["baseline"])


ITEM_ROWS = 500


def _levels(result: dict[str, Any]) -> str:
    """The judges' raw levels, compactly: `4` for one judge on one criterion, else `name: 4/3` (judges
    separated by /, a judge's levels for several things judged in the item by commas)."""
    parts = []
    for name, by_judge in (result.get("judge_levels") or {}).items():
        values = "/".join(",".join(map(str, v)) if isinstance(v, list) else str(v) for v in by_judge.values())
        parts.append(values if len(result["judge_levels"]) == 1 else f"{name}: {values}")
    return ", ".join(parts) or "-"


def _cell(text: str) -> str:
    """Text that may come from the system under test, made inert in a Markdown table cell (no links,
    images, HTML or emphasis; no cell breaks)."""
    flat = " ".join(text.split())
    return "".join(f"\\{ch}" if ch in "\\`*_[]<>|!#" else ch for ch in flat)


def item_table(results: list[dict[str, Any]]) -> list[str]:
    """Every item: outcome, score, the judges' raw levels, effort (model calls, tool calls), tokens, cost,
    latency, and the benchmark's note (what was cut before judging, for example)."""
    lines = [
        f"## Items ({len(results)})",
        "",
        "| item | outcome | score | levels | calls | tool calls | tokens in/out | cost | latency | note |",
        "|---|---|---:|---|---:|---:|---:|---:|---:|---|",
    ]
    for r in sorted(results, key=lambda r: r["nodeid"])[:ITEM_ROWS]:
        usage = r.get("usage") or {}
        details = r.get("details") or {}
        trajectory = details.get("trajectory")
        latency = r.get("latency_s")
        lines.append(
            f"| `{r['nodeid']}` | {r['outcome']} | {_num(r.get('score'))} | {_levels(r)} | {usage.get('calls', 0)} | "
            f"{len(trajectory) if isinstance(trajectory, list) else '-'} | "
            f"{usage.get('input_tokens', 0):,}/{usage.get('output_tokens', 0):,} | "
            f"${usage.get('cost_usd', 0):.4f} | {'-' if latency is None else f'{latency:.1f} s'} | "
            f"{_cell(str(details.get('note') or '')[:300])} |"
        )
    if len(results) > ITEM_ROWS:
        lines.append(f"| ... {len(results) - ITEM_ROWS} more in results.json | | | | | | | | | |")
    return lines
