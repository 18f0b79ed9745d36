"""report.html: one self-contained file per run, for people.

Everything is inside the file: CSS inline, charts as inline SVG, no JavaScript, nothing fetched (a
Content-Security-Policy forbids it, so even a stray reference cannot reach the network). Navigation is
anchors and <details>, which work with scripts off. All text is HTML-escaped: answers, prompts and
judge reasoning are data from the system under test, shown, never interpreted.

Built from the run document (results.json) alone, so `harness report RUN --html` rebuilds it exactly.
Large runs stay usable: each item's texts are capped (the full ones are in results.json), a prompt
repeated across repeats and variants is shown once, and charts with thousands of points are rasterised.
"""

from __future__ import annotations

import json
import re
from html import escape, unescape
from pathlib import Path
from typing import Any

from harness.report import charts
from harness.report.agreement import markdown_agreement
from harness.report.markdown import SUITE_COLUMNS, comparison_section, failed_first, served_section, suite_cells
from harness.report.md_html import to_html
from harness.report.tables import incomplete_message, table_caption, table_header, table_row
from harness.wellformed import well_formed_text

TOP_ITEMS = 15  # the slowest and the most expensive
ERROR_ROWS = 200


def _caps(items: int) -> dict[str, int]:
    """How many characters of each text an item shows: generous for small runs, tighter for large ones
    (a 5,000-item report must open in a browser in seconds)."""
    if items <= 500:
        return {"prompt": 6000, "answer": 8000, "json": 6000, "preview": 600}
    return {"prompt": 1500, "answer": 2500, "json": 1500, "preview": 200}


CSS = """
:root { --fg: #1c2833; --muted: #5d6d7e; --line: #d5d8dc; --bg-alt: #f4f6f7; --accent: #1f618d;
  --passed: #1e8449; --failed: #b9770e; --error: #c0392b; }
* { box-sizing: border-box; }
body { font: 14px/1.45 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; color: var(--fg); margin: 0; }
header { background: #17202a; color: #fdfefe; padding: 18px 28px; }
header h1 { margin: 0 0 6px; font-size: 20px; }
header p { margin: 2px 0; color: #d6dbdf; }
header code { color: #fdfefe; }
nav { position: sticky; top: 0; background: #fdfefe; border-bottom: 1px solid var(--line); padding: 8px 28px;
  z-index: 1; }
nav a { margin-right: 14px; color: var(--accent); text-decoration: none; }
main { padding: 8px 28px 40px; max-width: 1400px; }
section { margin-top: 26px; }
h2 { font-size: 18px; border-bottom: 2px solid var(--line); padding-bottom: 4px; }
h3 { font-size: 15px; margin: 18px 0 6px; }
h4 { font-size: 14px; margin: 14px 0 4px; }
table { border-collapse: collapse; margin: 8px 0; font-size: 13px; }
th, td { border: 1px solid var(--line); padding: 4px 8px; vertical-align: top; }
th { background: var(--bg-alt); }
td.right, th.right, td.num { text-align: right; font-variant-numeric: tabular-nums; white-space: nowrap; }
.scroll { overflow-x: auto; }
blockquote { margin: 8px 0; padding: 6px 12px; border-left: 4px solid var(--failed); background: #fef9e7; }
blockquote.notice { border-color: var(--accent); background: #ebf5fb; }
blockquote.incomplete-run { border-color: var(--error); background: #fdedec; }
pre { white-space: pre-wrap; word-break: break-word; background: var(--bg-alt); padding: 8px 10px;
  border: 1px solid var(--line); max-height: 28em; overflow: auto; font-size: 12.5px; margin: 4px 0; }
details { margin: 2px 0; }
details > summary { cursor: pointer; padding: 3px 4px; }
details.item { border-bottom: 1px solid var(--bg-alt); }
details.item[open] { background: #fbfcfc; border: 1px solid var(--line); padding: 4px 10px 10px; }
details.suite > summary { font-weight: 600; font-size: 15px; }
.badge { display: inline-block; min-width: 52px; text-align: center; border-radius: 3px; color: #fff;
  font-size: 12px; padding: 0 5px; margin-right: 6px; }
.badge.passed { background: var(--passed); } .badge.failed { background: var(--failed); }
.badge.error { background: var(--error); }
.muted { color: var(--muted); }
.incomplete { color: #b03a2e; }
.chart svg { max-width: 100%; height: auto; }
.kv { color: var(--muted); font-size: 13px; }
.gate-fail { color: var(--error); font-weight: 600; }
section#items > input[type=radio] { margin-left: 12px; }
#show-failed:checked ~ .item-list details.item:not(.failed),
#show-errors:checked ~ .item-list details.item:not(.error),
#show-passed:checked ~ .item-list details.item:not(.passed) { display: none; }
#show-failed:checked ~ .item-list details.suite:not(.has-failed),
#show-errors:checked ~ .item-list details.suite:not(.has-error),
#show-passed:checked ~ .item-list details.suite:not(.has-passed) { display: none; }
.expected { border-left: 4px solid var(--passed); padding-left: 8px; }
/* Narrow screens (a phone at 390 px): charts keep legible text (in the charts' own units, scaled down with
   them to about 10 px), tables become one card per row (every cell visible: item, score, reason), and the
   navigation scrolls sideways instead of covering the page. */
@media (max-width: 700px) {
  header, nav, main { padding-left: 10px; padding-right: 10px; }
  nav { overflow-x: auto; white-space: nowrap; }
  .chart svg text { font-size: 21px; }
  table.cards thead { display: none; }
  table.cards, table.cards tbody, table.cards tr, table.cards td { display: block; width: 100%; }
  table.cards tr { border: 1px solid var(--line); margin: 0 0 8px; }
  table.cards td { border: none; border-bottom: 1px solid var(--bg-alt); text-align: left; white-space: normal;
    overflow-wrap: anywhere; }
  table.cards td::before { content: attr(data-label); display: block; color: var(--muted); font-size: 12px; }
  details > summary, main p, main li, header p { overflow-wrap: anywhere; }
}
"""


def _e(value: Any) -> str:
    return escape("" if value is None else str(value), quote=True)


def _num(value: Any, digits: int = 1) -> str:
    return "-" if not isinstance(value, int | float) else f"{value:.{digits}f}"


def _clip(text: str, limit: int) -> str:
    if len(text) <= limit:
        return text
    return text[:limit] + f"\n[... {len(text) - limit:,} more characters in results.json]"


def _pre(text: Any, limit: int) -> str:
    return f"<pre>{_e(_clip(str(text), limit))}</pre>"


def _json(value: Any, limit: int) -> str:
    return _pre(json.dumps(value, indent=1, ensure_ascii=False, default=str), limit)


def _table(header: list[str], rows: list[list[str]], numeric: set[int] | None = None) -> str:
    """A table from already-escaped cells."""
    numeric = numeric or set()
    right, number = ' class="right"', ' class="num"'
    head = "".join(f"<th{right if i in numeric else ''}>{h}</th>" for i, h in enumerate(header))
    labels = [f' data-label="{_e(unescape(re.sub(r"<[^>]*>", "", h)))}"' for h in header]
    body = "".join(
        "<tr>"
        + "".join(f"<td{number if i in numeric else ''}{labels[i]}>{c}</td>" for i, c in enumerate(row))
        + "</tr>"
        for row in rows
    )
    return f'<div class="scroll"><table class="cards"><thead><tr>{head}</tr></thead><tbody>{body}</tbody></table></div>'


def _chart(svg: str | None, caption: str) -> str:
    if svg is None:
        return ""
    return f'<figure class="chart">{svg}<figcaption class="muted">{_e(caption)}</figcaption></figure>'


# -- sections ---------------------------------------------------------------------------------------------


def _header(run: dict[str, Any]) -> str:
    from harness.run_files import system_label

    meta = run["run"]
    options = meta.get("options") or {}
    git = meta.get("git") or {}
    revision = (git.get("revision") or "unknown")[:12] + (" (uncommitted changes)" if git.get("dirty") else "")
    lines = [
        f"<h1>Evaluation run {_e(meta.get('run_id'))}</h1>",
        f"<p>System under test <code>{_e(system_label(options))}</code>; judges "
        + ", ".join(f"<code>{_e(j)}</code>" for j in options.get("judge_models") or [])
        + "</p>",
        f"<p>{_e(meta.get('started_at'))} &middot; {_num(meta.get('duration_s'))} s &middot; harness "
        f"{_e(meta.get('harness_version'))} &middot; git {_e(revision)} &middot; cache "
        f"{_e(options.get('cache_mode'))} &middot; pytest exit status {_e(meta.get('exit_status'))}</p>",
    ]
    for record in (meta.get("benchmarks") or {}).values():
        lines += [f"<p>{_e(line)}</p>" for line in record.get("header") or []]
    from harness.sharding import provenance

    origin = provenance(meta)
    if origin:
        lines.append(f"<p>{_e(origin)}</p>")
    return "<header>" + "".join(lines) + "</header>"


def _notices(run: dict[str, Any]) -> str:
    meta = run["run"]
    out = []
    if meta.get("incomplete"):
        from harness.resume import incomplete_line

        out.append(f'<blockquote class="incomplete-run"><strong>{_e(incomplete_line(meta["incomplete"]))}</strong>'
                   "</blockquote>")  # fmt: skip
    if meta.get("notice"):
        out.append(f'<blockquote class="notice"><strong>Note:</strong> {_e(meta["notice"])}</blockquote>')
    out += [f"<blockquote><strong>Warning:</strong> {_e(w)}</blockquote>" for w in meta.get("warnings") or []]
    return "".join(out)


def _suite_rows(run: dict[str, Any]) -> list[list[str]]:
    rows = [[_e(c) for c in suite_cells(name, s)] for name, s in sorted(run["suites"].items())]
    totals = [_e(c) for c in suite_cells("all", run["totals"])]
    return [*rows, [f"<strong>{totals[0]}</strong>", *totals[1:]]]


def _scores(run: dict[str, Any]) -> str:
    header = [_e(c) for c in SUITE_COLUMNS]
    totals = run.get("totals") or {}
    incomplete = ""
    if totals.get("errors"):
        message = incomplete_message(totals["errors"], totals.get("items", 0))
        incomplete = f'<p class="incomplete"><strong>{_e(message)}</strong></p>'
    return (
        '<section id="scores"><h2>Scores</h2>'
        + _table(header, _suite_rows(run), numeric=set(range(1, len(header))))
        + incomplete
        + _chart(charts.suite_scores(run["suites"]), "Mean score per suite with its 95 % interval.")
        + "</section>"
    )


def _benchmark_tables(run: dict[str, Any]) -> str:
    tables = run.get("tables") or []
    from harness.report.repeats import markdown_repeats

    agreement = markdown_agreement(run.get("judge_agreement") or [])
    served = served_section(run.get("served_models") or {})
    repeats = markdown_repeats(run.get("repeats") or {})
    if not tables and not agreement and not served and not repeats:
        return ""
    parts = ['<section id="tables"><h2>Benchmark tables</h2>']
    for table in tables:
        parts.append(f"<h3>{_e(table['title'])}</h3>")
        parts.append(f'<p class="muted">{_e(table_caption(table))}</p>')
        if table.get("note"):
            parts.append(f'<p class="muted">{_e(table["note"])}</p>')
        header = [_e(h) for h in table_header(table)]
        keys = len(table["rows_by"])
        rows = [[_e(c) for c in table_row(table, row, interval=True)] for row in table["rows"]]
        parts.append(_table(header, rows, numeric=set(range(keys, len(header)))))
        if table.get("incomplete"):
            parts.append(f'<p class="incomplete"><strong>{_e(table["incomplete"]["message"])}</strong></p>')
    if agreement:
        parts.append(to_html(agreement))
    if repeats:
        parts.append(to_html(repeats))
    if served:
        parts.append(to_html(served))
    parts.append("</section>")
    return "".join(parts)


def _comparison(run: dict[str, Any]) -> str:
    comparison = run.get("comparison")
    if not comparison:
        return ""

    lines = comparison_section(comparison)
    if lines and lines[0].startswith("## "):  # the section's own heading says it already
        lines = [f"Baseline: `{comparison.get('baseline', '?')}`", *lines[1:]]
    body = to_html(lines, heading_offset=1)
    if comparison.get("failed") and not comparison.get("error"):
        body = f'<p class="gate-fail">The regression gate failed.</p>{body}'
    chart = charts.comparison_deltas(comparison.get("comparisons") or [], comparison.get("fail_margin"))
    return (
        '<section id="comparison"><h2>Compared with the baseline</h2>'
        + _chart(chart, "Change in each suite's mean score against the baseline, coloured by verdict.")
        + body
        + "</section>"
    )


def _tech_market_fit(run: dict[str, Any]) -> str:
    doc = run.get("tech_market_fit")
    if not doc:
        return ""
    from harness.analysis.tmf import markdown_section

    drawn = ""
    for part, caption in ((doc, "against cost per task"), (doc.get("latency"), "against time per task")):
        if part and not doc.get("error"):
            drawn += _chart(
                charts.tech_market_fit(part),
                f"Tech-Market Fit {caption}: the market's acceptable region (green) above its acceptance curve, "
                "the agents' supply curve (blue steps), their overlap (orange, the value), and what people "
                "deliver (grey steps, the expert's point in black).",
            )
    body = to_html(markdown_section(doc), heading_offset=0)
    return f'<section id="tmf"><h2>Tech-Market Fit</h2>{body}{drawn}</section>'


def _cost(run: dict[str, Any]) -> str:
    svg, unit = charts.cost_against_score(run["results"])
    if svg is None:
        return ""
    return (
        '<section id="cost"><h2>Cost against score</h2>'
        + _chart(svg, f"One point per scored item: {unit} against its score.")
        + _chart(charts.latency_histogram(run["results"]), "How long items took, end to end.")
        + "</section>"
    )


def _link(anchor: str, result: dict[str, Any]) -> str:
    return f'<a href="#{anchor}"><code>{_e(result["nodeid"])}</code></a>'


def _top_items(run: dict[str, Any], anchors: dict[int, str]) -> str:
    results = run["results"]
    if not results:
        return ""

    def usage(r: dict[str, Any]) -> dict[str, Any]:
        return r.get("usage") or {}

    slowest = sorted(results, key=lambda r: -(r.get("latency_s") or 0.0))[:TOP_ITEMS]
    costliest = sorted(results, key=lambda r: (-charts.list_price(r), -charts.item_tokens(r)))[:TOP_ITEMS]
    header = ["item", "outcome", "score", "latency", "calls", "tokens in / out", "cost (list price)"]

    def rows(chosen: list[dict[str, Any]]) -> list[list[str]]:
        return [
            [
                _link(anchors[id(r)], r),
                _e(r["outcome"]),
                _num(r.get("score")),
                f"{_num(r.get('latency_s'))} s",
                str(usage(r).get("calls", 0)),
                f"{usage(r).get('input_tokens', 0):,} / {usage(r).get('output_tokens', 0):,}",
                f"${charts.list_price(r):.4f}",
            ]
            for r in chosen
        ]

    numeric = {2, 3, 4, 5, 6}
    return (
        '<section id="slowest"><h2>Slowest and most expensive items</h2>'
        f"<h3>Slowest {len(slowest)}</h3>{_table(header, rows(slowest), numeric)}"
        f"<h3>Most expensive {len(costliest)}</h3>"
        '<p class="muted">By list-price cost (what the calls cost, whether paid now or earlier and cached), '
        f"then by tokens.</p>{_table(header, rows(costliest), numeric)}</section>"
    )


def _errors(run: dict[str, Any], anchors: dict[int, str]) -> str:
    errors = [r for r in run["results"] if r["outcome"] == "error"]
    if not errors:
        return ""
    rows = [
        [
            _link(anchors[id(r)], r),
            _e((r.get("error") or {}).get("kind")),
            _e(((r.get("error") or {}).get("message") or "")[:400]),
        ]
        for r in errors[:ERROR_ROWS]
    ]
    more = f'<p class="muted">{len(errors) - ERROR_ROWS} more in results.json.</p>' if len(errors) > ERROR_ROWS else ""
    table = _table(["item", "kind", "reason"], rows)
    return f'<section id="errors"><h2>Errors ({len(errors)})</h2>{table}{more}</section>'


# -- the drill-down ---------------------------------------------------------------------------------------


def _judges(result: dict[str, Any], caps: dict[str, int]) -> str:
    judges = result.get("judges") or []
    if not judges:
        return ""
    parts = ["<h4>Judges</h4>"]
    for verdict in judges:
        label = f"<code>{_e(verdict.get('judge'))}</code> on {_e(verdict.get('template'))}"
        if not verdict.get("ok"):
            parts.append(f'<p>{label}: <span class="gate-fail">no verdict</span> ({_e(verdict.get("error"))})</p>')
            if verdict.get("prompt"):
                shown = _pre(verdict["prompt"], caps["prompt"])
                parts.append(f"<details><summary>What the judge was shown</summary>{shown}</details>")
            continue
        value = verdict.get("value")
        reasoning = None
        if isinstance(value, dict):
            reasoning = next(
                (value[k] for k in ("reasoning", "analysis", "rationale", "explanation") if value.get(k)), None
            )
            rest = {k: v for k, v in value.items() if v is not reasoning}
        else:
            rest = value
        parts.append(
            f"<p>{label}: <code>{_e(json.dumps(rest, ensure_ascii=False, default=str)[: caps['preview']])}</code></p>"
        )
        if reasoning:
            parts.append(_pre(reasoning, caps["answer"]))
        if verdict.get("prompt"):
            shown = _pre(verdict["prompt"], caps["prompt"])
            parts.append(f"<details><summary>What the judge was shown</summary>{shown}</details>")
    return "".join(parts)


def _calls(result: dict[str, Any]) -> str:
    calls = result.get("calls") or []
    if not calls:
        return ""
    header = ["stage", "model", "tokens in / out", "cost", "latency", "cache", "attempts", "error"]
    rows = [
        [
            _e(c.get("stage") or c.get("namespace")),
            f"<code>{_e(c.get('model'))}</code>",
            f"{c.get('input_tokens', 0):,} / {c.get('output_tokens', 0):,}",
            "?" if c.get("cost_usd") is None else f"${c['cost_usd']:.5f}",
            f"{_num(c.get('latency_s'), 2)} s",
            "hit" if c.get("cache_hit") else "",
            str(c.get("attempts", "")),
            _e((c.get("error") or "")[:200]),
        ]
        for c in calls
    ]
    return f"<h4>Calls ({len(calls)})</h4>" + _table(header, rows, numeric={2, 3, 4, 6})


def _trajectory(details: dict[str, Any], caps: dict[str, int]) -> str:
    steps = details.get("trajectory")
    if not isinstance(steps, list) or not steps:
        return ""
    rows = [
        [
            str(s.get("step", n)) if isinstance(s, dict) else str(n),
            _e(s.get("tool")) if isinstance(s, dict) else "",
            f"<code>{_e(str(s.get('arguments', ''))[: caps['preview']])}</code>" if isinstance(s, dict) else "",
            _e(str(s.get("result_preview", ""))[: caps["preview"]])
            if isinstance(s, dict)
            else _e(str(s)[: caps["preview"]]),
        ]
        for n, s in enumerate(steps, 1)
    ]
    return f"<h4>Trajectory ({len(steps)} tool calls)</h4>" + _table(
        ["step", "tool", "arguments", "result (start)"], rows
    )


def _item(
    result: dict[str, Any], anchor: str, caps: dict[str, int], seen_prompts: dict[str, str], opened: str = ""
) -> str:
    usage = result.get("usage") or {}
    outcome = result["outcome"]
    summary = (
        f'<summary><span class="badge {_e(outcome)}">{_e(outcome)}</span><code>{_e(result["nodeid"])}</code>'
        f' <span class="muted">score {_num(result.get("score"))} &middot; {usage.get("calls", 0)} calls &middot; '
        f"{_num(result.get('latency_s'))} s</span></summary>"
    )
    parts = [
        f'<p class="kv">kind {_e(result.get("kind"))} &middot; task {_e(result.get("task_id"))} '
        f"v{_e(result.get('task_version'))}"
        f" &middot; variant {_e(result.get('variant') or '-')} &middot; repeat {_e(result.get('repeat'))} &middot; "
        f"threshold {_num(result.get('pass_threshold'))} &middot; tokens {usage.get('input_tokens', 0):,} / "
        f"{usage.get('output_tokens', 0):,}</p>"
    ]
    error = result.get("error")
    if error:
        parts.append(f"<h4>Error ({_e(error.get('kind'))})</h4>{_pre(error.get('message', ''), caps['answer'])}")
    prompt = result.get("prompt")
    if prompt:
        if prompt in seen_prompts:
            parts.append(
                f'<h4>Prompt</h4><p class="muted">The same as <a href="#{seen_prompts[prompt]}">this item</a>\'s.</p>'
            )
        else:
            seen_prompts[prompt] = anchor
            parts.append("<h4>Prompt</h4>" + _pre(prompt, caps["prompt"]))
    if result.get("answer") is not None:
        parts.append("<h4>Answer</h4>" + _pre(result["answer"], caps["answer"]))
    if result.get("expected") is not None:
        parts.append(f'<h4>Expected</h4><p class="expected">{_e(result["expected"])}</p>')
    if result.get("reference") is not None:
        parts.append("<h4>Reference</h4>" + _json(result["reference"], caps["json"]))
    metrics = result.get("metrics") or {}
    if metrics:
        cells = " &middot; ".join(
            f"{_e(k)} {_num(v, 2) if isinstance(v, int | float) else _e(v)}" for k, v in metrics.items()
        )
        parts.append(f'<h4>Metrics</h4><p class="kv">{cells}</p>')
    parts.append(_judges(result, caps))
    details = result.get("details") or {}
    parts.append(_trajectory(details, caps))
    parts.append(_calls(result))
    rest = {k: v for k, v in details.items() if k != "trajectory"}
    if rest:
        parts.append("<h4>Benchmark details</h4>" + _json(rest, caps["json"]))
    return f'<details class="item {_e(outcome)}" id="{anchor}"{opened}>{summary}{"".join(parts)}</details>'


def _items(results: list[dict[str, Any]], anchors: dict[int, str]) -> str:
    caps = _caps(len(results))
    seen: dict[str, str] = {}
    by_suite: dict[str, list[dict[str, Any]]] = {}
    for result in results:
        by_suite.setdefault(result.get("suite") or "?", []).append(result)
    parts = [
        f'<section id="items"><h2>Items ({len(results)})</h2>'
        '<p class="muted">Open a suite, then an item: its prompt, answer, reference, judges\' reasoning and '
        "prompts, calls and trajectory. Long texts are cut here; results.json holds them whole.</p>",
        FILTER,
        '<div class="item-list">',
    ]
    for suite, items in sorted(by_suite.items()):
        counts = {o: sum(r["outcome"] == o for r in items) for o in ("passed", "failed", "error")}
        summary = (
            f'{_e(suite)} <span class="muted">({len(items)} items: {counts["passed"]} passed, '
            f"{counts['failed']} failed, {counts['error']} errors)</span>"
        )
        body = "".join(_item(r, anchors[id(r)], caps, seen) for r in items)
        has = "".join(f" has-{o}" for o in ("passed", "failed", "error") if counts[o])
        parts.append(
            f'<details class="suite{has}"{" open" if len(by_suite) == 1 and len(items) <= 50 else ""}>'
            f"<summary>{summary}</summary>{body}</details>"
        )
    parts.append("</div></section>")
    return "".join(parts)


# A filter that needs no script: radio buttons before the list, and CSS that hides the other outcomes.
FILTER = (
    '<input type="radio" name="show" id="show-all" checked><label for="show-all">all</label>'
    '<input type="radio" name="show" id="show-failed"><label for="show-failed">failed</label>'
    '<input type="radio" name="show" id="show-errors"><label for="show-errors">errors</label>'
    '<input type="radio" name="show" id="show-passed"><label for="show-passed">passed</label>'
)
FAILED_ROWS = 200


def _failed(run: dict[str, Any], results: list[dict[str, Any]]) -> str:
    """The page's first section: the items below their threshold, lowest score first, each with its
    answer, reference, judges' reasoning and the judges' prompts as sent (the first one open)."""
    failed = failed_first(results)
    if not failed:
        return ""
    caps = _caps(len(results))
    seen: dict[str, str] = {}
    withheld = (
        '<p class="muted">This run withholds its references (--withhold-references).</p>'
        if run["run"].get("references_withheld")
        else ""
    )
    body = "".join(
        _item(r, f"failed-{n}", caps, seen, " open" if n == 1 else "") for n, r in enumerate(failed[:FAILED_ROWS], 1)
    )
    more = f'<p class="muted">{len(failed) - FAILED_ROWS} more under Items.</p>' if len(failed) > FAILED_ROWS else ""
    return (
        f'<section id="failed"><h2>Failed items ({len(failed)})</h2>'
        '<p class="muted">Lowest score first. Each shows what came, what was expected, and what each judge was '
        f"shown and said.</p>{withheld}{body}{more}</section>"
    )


def render_html(run: dict[str, Any]) -> str:
    """The whole page for a run document (results.json)."""
    results = sorted(run["results"], key=lambda r: (r.get("suite") or "", r["nodeid"]))
    run = {**run, "results": results}
    anchors = {id(r): f"item-{n}" for n, r in enumerate(results, 1)}
    sections = [
        _failed(run, results),
        _scores(run),
        _benchmark_tables(run),
        _comparison(run),
        _tech_market_fit(run),
        _cost(run),
        _top_items(run, anchors),
        _errors(run, anchors),
        _items(results, anchors),
    ]
    titles = [("failed", "Failed items"), ("scores", "Scores"), ("tables", "Benchmark tables"),
              ("comparison", "Baseline"), ("tmf", "Tech-Market Fit"), ("cost", "Cost"),
              ("slowest", "Slowest &amp; costliest"), ("errors", "Errors"), ("items", "Items")]  # fmt: skip
    present = [(anchor, title) for anchor, title in titles if f'<section id="{anchor}"' in "".join(sections)]
    nav = "<nav>" + "".join(f'<a href="#{a}">{t}</a>' for a, t in present) + "</nav>"
    return (
        '<!DOCTYPE html>\n<html lang="en"><head><meta charset="utf-8">'
        "<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; style-src 'unsafe-inline'; "
        'img-src data:">'
        '<meta name="viewport" content="width=device-width, initial-scale=1">'
        f"<title>harness run {_e(run['run'].get('run_id'))}</title><style>{CSS}</style></head><body>"
        + _header(run)
        + nav
        + "<main>"
        + _notices(run)
        + "".join(sections)
        + "</main></body></html>\n"
    )


def write_html(run: dict[str, Any], path: Path) -> Path:
    """Write the page to `path` (a run's folder keeps it as report.html); returns the path."""
    from harness.atomic_write import write_atomic

    return write_atomic(path, well_formed_text(render_html(run)))
