"""`harness history`, `harness index` and `harness tmf`: thin commands over the analysis modules."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

from harness.analysis import history, index, plots, tmf
from harness.analysis.irt import IrtError


def _table(rows: list[list[str]], header: list[str]) -> None:
    widths = [max(len(str(x)) for x in column) for column in zip(header, *rows, strict=False)]
    print("  ".join(h.ljust(w) for h, w in zip(header, widths, strict=False)))
    for row in rows:
        print("  ".join(str(c).ljust(w) for c, w in zip(row, widths, strict=False)))


def _split(value: str | None) -> list[str] | None:
    return [v.strip() for v in value.split(",") if v.strip()] if value else None


def _rows(args: argparse.Namespace) -> list[dict[str, str]]:
    problems: list[str] = []
    everything = history.read_history(Path(args.report_dir), problems)
    for problem in problems:
        print(f"harness: {problem}", file=sys.stderr)
    if not everything:
        where = history.history_dir(Path(args.report_dir))
        raise SystemExit(f"harness: no history in {where} (run a suite, or `harness history import`)")
    include = bool(getattr(args, "include_incomplete", False))
    chosen = index.select(
        everything, suites=_split(args.suite), periods=_split(args.period), kinds=_split(args.kind),
        include_incomplete=include,
    )  # fmt: skip
    left_out = sorted({r["run_id"] for r in everything if r.get("incomplete")}) if not include else []
    if left_out:
        print(
            f"harness: {len(left_out)} interrupted run(s) left out ({', '.join(left_out[:3])}"
            f"{'...' if len(left_out) > 3 else ''}): finish them with --resume, or pass --include-incomplete",
            file=sys.stderr,
        )
    if not chosen:
        raise SystemExit("harness: the history has no scored results for this selection (--suite, --period, --kind)")
    return chosen


def cmd_history_import(args: argparse.Namespace) -> int:
    source = Path(args.file)
    if (problem := history.pseudo_count_problem(args.pseudo_count)) is not None:
        print(f"harness: {problem}", file=sys.stderr)
        return 2
    try:
        text = source.read_text(encoding="utf-8-sig")
        report = history.import_csv(text, source.name, unit=args.unit, trials=args.pseudo_count)
    except (OSError, UnicodeDecodeError, ValueError) as exc:
        print(f"harness: {exc}", file=sys.stderr)
        return 2
    for line in report.refused:
        print(line, file=sys.stderr)
    if report.rows:
        path = history.write_rows(history.import_path(Path(args.report_dir), source, text), report.rows)
        print(f"imported {len(report.rows)} rows into {path}; unit: {report.unit} ({report.unit_reason})")
    if report.refused:
        print(f"refused {len(report.refused)} rows (above)", file=sys.stderr)
        return 1
    return 0


def cmd_history_rebuild(args: argparse.Namespace) -> int:
    """History files for runs that have results.json but no history (runs from before the history)."""
    report_dir = Path(args.report_dir)
    written = 0
    for path in sorted(report_dir.glob("*/results.json")):
        target = history.history_dir(report_dir) / f"{path.parent.name}.csv"
        if target.exists() and not args.force:
            continue
        run = json.loads(path.read_text(encoding="utf-8"))
        history.write_rows(target, history.run_rows(run))
        written += 1
    print(f"wrote {written} history file(s) in {history.history_dir(report_dir)}")
    return 0


def cmd_history_list(args: argparse.Namespace) -> int:
    rows = history.read_history(Path(args.report_dir))
    summary: dict[tuple[str, str], dict[str, Any]] = {}
    for row in rows:
        entry = summary.setdefault(
            (row["agent"], row.get("version", "")), {"items": 0, "scored": 0, "periods": set(), "first": row["date"]}
        )
        entry["items"] += 1
        entry["scored"] += bool(row.get("k"))
        entry["periods"].add(row.get("period", ""))
        entry["first"] = min(entry["first"], row["date"])
    listed = [
        {"agent": a, "version": v, "first_date": e["first"], "periods": sorted(e["periods"]), "items": e["items"],
         "scored": e["scored"]}
        for (a, v), e in sorted(summary.items(), key=lambda kv: (kv[1]["first"], kv[0]))
    ]  # fmt: skip
    if args.json:
        print(json.dumps(listed, indent=1))
        return 0
    _table(
        [[r["agent"], r["version"], r["first_date"], ",".join(r["periods"]), r["items"], r["scored"]] for r in listed],
        ["agent", "version", "date", "periods", "items", "scored"],
    )
    return 0


def cmd_index(args: argparse.Namespace) -> int:
    # options first, in one line each, before the history is read
    problem = None if args.pseudo_count is None else history.pseudo_count_problem(args.pseudo_count)
    if problem is None and args.bootstrap < 0:
        problem = f"--bootstrap must be 0 or more refits, got {args.bootstrap}"
    if problem is not None:
        print(f"harness index: {problem}", file=sys.stderr)
        return 2
    rows = _rows(args)
    anchors, anchors_model = None, None
    try:
        if args.anchors:
            anchors, anchors_model = index.load_anchors(Path(args.anchors))
        result = index.capability_index(
            rows,
            model=args.irt_model,
            reference=_split(args.reference),
            anchors=anchors,
            anchors_model=anchors_model,
            bootstrap_resamples=args.bootstrap,
            pseudo_count=args.pseudo_count,
        )
    except IrtError as exc:
        print(f"harness index: {exc}", file=sys.stderr)
        return 2
    if args.freeze:
        path = index.freeze(result, Path(args.freeze))
        print(f"froze {len(result.fit.agents)} agents and {len(result.fit.tasks)} tasks in {path}", file=sys.stderr)
    written = []
    if args.plot:
        written = plots.save(plots.capability_over_time(result.rows), Path(args.plot))
    if args.json:
        document: dict[str, Any] = {"model": result.fit.model, "interval": result.interval_method,
                                    "notes": result.notes, "agents": result.rows}  # fmt: skip
        if args.tasks:
            document["tasks"] = result.tasks
        print(json.dumps(document, indent=1))
        return 0
    for note in result.notes:
        print(f"# {note}")
    print(f"# intervals: 95 %, {result.interval_method}")
    _table(
        [
            [
                r["agent"],
                r["version"],
                r["date"],
                f"{r['theta']:+.3f}",
                "-" if r["se"] is None else f"{r['se']:.3f}",
                "held" if r["anchored"] else "-" if r["low"] is None else f"[{r['low']:+.2f}, {r['high']:+.2f}]",
                r["tasks_seen"],
            ]
            for r in result.rows
        ],
        ["agent", "version", "date", "theta", "se", "95 % interval", "tasks"],
    )
    if args.tasks:
        print()
        _table(
            [
                [t["task"], f"{t['a']:.3f}", f"{t['b']:+.3f}", t["agents_seen"], f"{t['mean_score']:.1f}"]
                for t in result.tasks
            ],
            ["task", "a (discrimination)", "b (difficulty)", "agents", "mean score"],
        )
    for path in written:
        print(f"plot: {path}")
    return 0


def cmd_tmf(args: argparse.Namespace) -> int:
    rows = _rows(args)
    try:
        doc = tmf.assess_history(
            rows, hourly_rate=args.hourly_rate, min_score=args.min_score, expert_score=args.expert_score,
            shape=args.acceptance_shape,
        )  # fmt: skip
    except ValueError as exc:
        print(f"harness tmf: {exc}", file=sys.stderr)
        return 2
    doc["suites"] = _split(args.suite) or []
    written = []
    if args.plot:
        stem = Path(args.plot)
        for part, suffix in ((doc, ""), (doc.get("latency"), "-latency")):
            if part:
                images = plots.tech_market_fit(tmf.assessment_from_json(part))
                written += plots.save(images, stem.with_name(stem.name + suffix))
    if args.json:
        print(json.dumps(doc, indent=1))
        return 0
    print("\n".join(tmf.markdown_section(doc)))
    for path in written:
        print(f"plot: {path}")
    return 0


def cmd_compare(args: argparse.Namespace) -> int:
    from harness.analysis import compare

    report_dir = Path(args.report_dir)
    from harness.run_files import load_run

    if args.baseline is not None and len(args.runs) == 1:  # harness compare NEW --baseline BASE
        base_ref, new_ref = args.baseline, args.runs[0]
    elif args.baseline is None and len(args.runs) == 2:  # harness compare BASE NEW
        base_ref, new_ref = args.runs
    else:
        print("harness compare: name two runs (BASE NEW), or one run and --baseline BASE", file=sys.stderr)
        return 4
    base, new = load_run(report_dir, base_ref), load_run(report_dir, new_ref)
    report = compare.compare_runs(base, new, fail_margin=args.fail_on_regression, tolerance=args.tolerance)
    if args.json:
        print(json.dumps(report.to_json(), indent=1))
    else:
        label = f"{base['run'].get('run_id', base_ref)} -> {new['run'].get('run_id', new_ref)}"
        print("\n".join(compare.markdown(report, label)))
    return 1 if report.failed else 0


def _selection(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--suite", default=None, help="only these suites (comma-separated)")
    parser.add_argument("--period", default=None, help="only these evaluation periods (comma-separated)")
    parser.add_argument("--kind", default=None, help="only these task kinds (comma-separated)")
    parser.add_argument(
        "--include-incomplete", action="store_true", help="also read interrupted runs (left out by default)"
    )


def add_commands(sub: Any, add_common: Any) -> None:
    cmp = sub.add_parser("compare", help="a run against a baseline: paired differences, intervals, verdicts")
    cmp.add_argument(
        "runs",
        nargs="+",
        metavar="RUN",
        help="BASE NEW (the baseline, then the run to judge), or only NEW with --baseline BASE: each a "
        "results.json, a run folder, or a run id",
    )
    cmp.add_argument("--baseline", default=None, metavar="BASE", help="the baseline, when only NEW is named")
    from harness.settings import ACCEPTANCE_SHAPE, FAIL_ON_REGRESSION

    cmp.add_argument(
        "--fail-on-regression",
        **FAIL_ON_REGRESSION,
        help="exit 1 for a score regression whose interval lies wholly below -MARGIN, or new errors",
    )
    cmp.add_argument("--tolerance", type=float, default=2.0, help="changes within +-this count as unchanged")
    add_common(cmp)
    cmp.set_defaults(func=cmd_compare)

    hist = sub.add_parser("history", help="the run history the index and TMF read (reports/history/)")
    hist_sub = hist.add_subparsers(dest="history_command", required=True)
    imp = hist_sub.add_parser("import", help="add results from elsewhere (CSV)")
    imp.add_argument("file", help="CSV: agent, version, date, period, task, and score (0..100), fraction or level")
    imp.add_argument("--unit", default="auto", choices=("auto", *history.UNITS), help="how to read the score column")
    imp.add_argument(
        "--pseudo-count",
        type=float,
        default=history.IMPORT_TRIALS,
        help=f"trials an aggregate score counts for in the fit (default {history.IMPORT_TRIALS:g})",
    )
    add_common(imp, table=False)
    imp.set_defaults(func=cmd_history_import)
    rebuild = hist_sub.add_parser("rebuild", help="write history files for runs that have none")
    rebuild.add_argument("--force", action="store_true", help="rewrite existing history files too")
    add_common(rebuild, table=False)
    rebuild.set_defaults(func=cmd_history_rebuild)
    listing = hist_sub.add_parser("list", help="agents and versions in the history")
    add_common(listing)
    listing.set_defaults(func=cmd_history_list)

    idx = sub.add_parser("index", help="the capability index: IRT ability per agent version (xbench-Index)")
    _selection(idx)
    idx.add_argument("--irt-model", default="auto", choices=("auto", "1pl", "2pl"), help="default: auto (said)")
    idx.add_argument("--reference", default=None, help="agents whose abilities fix the scale (mean 0, sd 1)")
    idx.add_argument("--anchors", default=None, help="a frozen fit (--freeze) whose values are held")
    idx.add_argument("--freeze", default=None, help="save this fit's parameters as anchors to this JSON file")
    idx.add_argument("--bootstrap", type=int, default=0, metavar="N", help="intervals from N task-resampled refits")
    idx.add_argument("--pseudo-count", type=float, default=None, help="trials a score (not a level) counts for")
    idx.add_argument("--tasks", action="store_true", help="also print the task parameters")
    idx.add_argument("--plot", default=None, metavar="STEM", help="write STEM.svg and STEM.png (capability over time)")
    add_common(idx)
    idx.set_defaults(func=cmd_index)

    fit = sub.add_parser("tmf", help="Tech-Market Fit: cost per task against score, and the human cost")
    _selection(fit)
    fit.add_argument("--hourly-rate", type=float, required=True, help="what an expert's hour costs (USD)")
    fit.add_argument("--min-score", type=float, default=60.0, help="the lowest acceptable score (default 60)")
    fit.add_argument("--expert-score", type=float, default=90.0, help="the expert's own level (stage 3; default 90)")
    fit.add_argument("--acceptance-shape", **ACCEPTANCE_SHAPE)
    fit.add_argument(
        "--plot", default=None, metavar="STEM", help="write STEM.svg and STEM.png (and STEM-latency.* when known)"
    )
    add_common(fit)
    fit.set_defaults(func=cmd_tmf)
