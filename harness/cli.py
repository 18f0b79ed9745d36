"""The `harness` command: look at runs and the cache without running pytest.

Every subcommand takes --report-dir; every one that prints a table also takes --json for scripts.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

from harness.cache import NAMESPACES, CacheMode, CallCache
from harness.errors import ConfigError
from harness.run_files import load_run, run_path
from harness.terminal_fit import print_table as _print_table


def _add_common(parser: argparse.ArgumentParser, *, table: bool = True) -> None:
    parser.add_argument("--report-dir", default="reports", help="where runs are written (default: reports)")
    if table:
        parser.add_argument("--json", action="store_true", help="print JSON instead of a table")


def _runs_newest_first(report_dir: Path) -> list[Path]:
    return sorted((p for p in report_dir.glob("*/results.json")), key=lambda p: p.parent.name, reverse=True)


def cmd_report(args: argparse.Namespace) -> int:
    if len(args.run) > 1:
        return _report_several(args)
    run_id = args.run[0] if args.run else "latest"
    run = load_run(Path(args.report_dir), run_id)
    if args.html:
        from harness.report.html import write_html

        target = Path(args.out) if args.out else run_path(Path(args.report_dir), run_id).parent / "report.html"
        path = write_html(run, target)
        print(f"harness: wrote {path}")
        return 0
    if args.json:
        print(json.dumps({"run": run["run"], "totals": run["totals"], "suites": run["suites"]}, indent=1))
        return 0
    from harness.report.markdown import render_summary

    print(render_summary(run))
    return 0


def _report_several(args: argparse.Namespace) -> int:
    from harness.report.leaderboard import board_rows, incomplete_lines, leaderboard, markdown_board

    board = leaderboard([load_run(Path(args.report_dir), run_id) for run_id in args.run])
    if args.json:
        print(json.dumps(board, indent=1))
    elif args.markdown:
        print(markdown_board(board))
    else:
        for name, (header, lines) in board_rows(board).items():
            print(name)
            _print_table(lines, header)
            print()
        for line in incomplete_lines(board):
            print(line)
    return 0


def _cache(args: argparse.Namespace) -> CallCache:
    """The cache the command looks at: --cache-dir, with the shared store of --cache-url behind it if given
    (stats are then the shared store's, and clear empties both)."""
    remote = None
    if getattr(args, "cache_url", None):
        from harness.redis_store import RedisStore, connect

        try:
            remote = RedisStore(connect(args.cache_url), args.cache_url)
        except ConfigError as exc:
            print(f"harness cache: {exc}", file=sys.stderr)
            raise SystemExit(4) from None
    return CallCache(Path(args.cache_dir), CacheMode.USE, remote=remote)


def cmd_cache_stats(args: argparse.Namespace) -> int:
    cache = _cache(args)
    stats = cache.stats()
    cache.close()
    if args.json:
        print(json.dumps(stats, indent=1))
    else:
        rows = [[ns, str(s["entries"]), f"{s['bytes'] / 1e6:.2f} MB"] for ns, s in stats.items()]
        _print_table(rows, ["namespace", "entries", "size"])
    return 0


def cmd_cache_clear(args: argparse.Namespace) -> int:
    cache = _cache(args)
    removed = cache.clear(tuple(args.namespace) if args.namespace else NAMESPACES)
    cache.close()
    for namespace, count in removed.items():
        print(f"cleared {count} entries from {namespace}")
    return 0


def explain(nodeid: str, report_dir: Path, cache_dir: Path) -> dict[str, Any]:
    """The calls of an item in the newest run that has it, each with its key parts, whether the cache has
    it now, and which parts differ from the same call in the previous run that had the item."""
    runs = []
    for path in _runs_newest_first(report_dir):
        run = json.loads(path.read_text(encoding="utf-8"))
        match = next((r for r in run["results"] if r.get("nodeid") == nodeid), None)
        if match is not None:
            runs.append((run["run"]["run_id"], match))
        if len(runs) == 2:
            break
    if not runs:
        raise SystemExit(f"harness: no run in {report_dir} has an item {nodeid!r}")
    cache = CallCache(cache_dir, CacheMode.USE)
    (run_id, item), previous = runs[0], (runs[1] if len(runs) > 1 else None)
    calls = []
    for index, call in enumerate(item["calls"]):
        entry = cache.peek(call["namespace"], call["key"])
        before = None
        if previous is not None:
            same_slot = [c for c in previous[1]["calls"] if c["namespace"] == call["namespace"]]
            position = [c for c in item["calls"][: index + 1] if c["namespace"] == call["namespace"]]
            if len(position) <= len(same_slot):
                before = same_slot[len(position) - 1]
        changed = None
        if before is not None and call.get("parts") and before.get("parts"):
            changed = sorted(
                k for k in set(call["parts"]) | set(before["parts"]) if call["parts"].get(k) != before["parts"].get(k)
            )
        parts = entry.get("key_parts") if entry else None
        calls.append(
            {
                "namespace": call["namespace"],
                "model": call["model"],
                "key": call["key"],
                "in_cache": entry is not None,
                "cache_hit_in_run": call["cache_hit"],
                "error": call.get("error"),
                "part_hashes": call.get("parts"),
                "changed_since_previous_run": changed,
                "key_parts": _summarize_parts(parts) if parts else None,
            }
        )
    cache.close()
    return {"nodeid": nodeid, "run_id": run_id, "previous_run_id": previous[0] if previous else None, "calls": calls}


def _summarize_parts(parts: dict[str, Any]) -> dict[str, Any]:
    payload = dict(parts.get("payload") or {})
    messages = payload.pop("messages", [])
    return {
        **{k: v for k, v in parts.items() if k != "payload"},
        "settings": payload,
        "messages": [{"role": m.get("role"), "content": str(m.get("content"))[:200]} for m in messages],
    }


def cmd_cache_explain(args: argparse.Namespace) -> int:
    report = explain(args.nodeid, Path(args.report_dir), Path(args.cache_dir))
    if args.json:
        print(json.dumps(report, indent=1, ensure_ascii=False))
        return 0
    print(
        f"{report['nodeid']} in run {report['run_id']}"
        + (f" (compared with {report['previous_run_id']})" if report["previous_run_id"] else "")
    )
    for number, call in enumerate(report["calls"], 1):
        status = "in cache" if call["in_cache"] else "NOT in cache"
        print(f"\n call {number}: {call['namespace']} {call['model']} key {call['key'][:16]} ({status})")
        if call["error"]:
            print(f"   error: {call['error']}")
        if call["changed_since_previous_run"] is not None:
            changed = ", ".join(call["changed_since_previous_run"]) or "nothing"
            print(f"   key parts changed since the previous run: {changed}")
        for name, value in (call["part_hashes"] or {}).items():
            print(f"   {name:<24} {value}")
        if call["key_parts"]:
            for message in call["key_parts"]["messages"]:
                print(f"   message {message['role']}: {message['content']!r}")
    return 0


def cmd_schema(args: argparse.Namespace) -> int:
    from harness.task import task_json_schema

    text = json.dumps(task_json_schema(), indent=2) + "\n"
    if args.output:
        Path(args.output).write_text(text, encoding="utf-8")
    else:
        sys.stdout.write(text)
    return 0


def cmd_merge(args: argparse.Namespace) -> int:
    """The shards of one run (--shard K/N) as one run, written like any run. Shards that do not make one
    run (a gap, a duplicate, a mismatch) are one line and exit 4; with --fail-on-regression the exit code
    is the gate's on the merged run."""
    from harness.atomic_write import WriteFailed
    from harness.report.merge import MergeError, check_shards, merge_runs, merge_settings, read_shard
    from harness.report.writer import save_run
    from harness.run_state import new_run_id
    from harness.secrets import redact

    try:
        shards = [read_shard(Path(args.report_dir), ref) for ref in args.runs]
        check_shards(shards)
        run = merge_runs(shards, new_run_id(), ["harness", "merge", *args.runs])
        settings = merge_settings(
            run,
            Path(args.output or args.report_dir),
            no_html=args.no_html,
            baseline=args.baseline,
            fail_on_regression=args.fail_on_regression,
            tolerance=args.tolerance,
        )
    except (MergeError, ConfigError) as exc:
        print(f"harness merge: {exc}", file=sys.stderr)
        return 4
    run = redact(run)
    try:
        directory, html = save_run(run, settings)
    except WriteFailed as exc:
        print(f"harness merge: the merged run was not written: {exc} (no file was left half-written)", file=sys.stderr)
        return 3
    print(
        f"harness merge: {len(shards)} shards, {len(run['results'])} items -> {html or directory / 'summary.md'} "
        f"(data: {directory / 'results.json'})"
    )
    comparison = run.get("comparison")
    if comparison is not None and settings.fail_margin is not None:
        print(comparison.get("gate") or comparison.get("error"))
        return 1 if comparison.get("failed") else 0
    return 0


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="harness", description=__doc__)
    sub = parser.add_subparsers(dest="command", required=True)

    report = sub.add_parser("report", help="show a run's scores, or several runs side by side")
    report.add_argument("run", nargs="*", help="run ids (default: the latest); several make a leaderboard")
    report.add_argument("--markdown", action="store_true", help="several runs: a Markdown leaderboard")
    report.add_argument(
        "--html", action="store_true", help="(re)build the run's self-contained report.html from its results.json"
    )
    report.add_argument("--out", help="with --html: write the page here instead of the run's folder")
    _add_common(report)
    report.set_defaults(func=cmd_report)

    cache = sub.add_parser("cache", help="inspect or clear the call cache")
    cache_sub = cache.add_subparsers(dest="cache_command", required=True)
    for name, func, help_text in (
        ("stats", cmd_cache_stats, "entries and size per namespace"),
        ("clear", cmd_cache_clear, "remove cached calls"),
        ("explain", cmd_cache_explain, "show the key parts of an item's calls, to debug a miss"),
    ):
        command = cache_sub.add_parser(name, help=help_text)
        command.add_argument("--cache-dir", default=".harness-cache")
        if name != "explain":
            command.add_argument("--cache-url", default=None, help="the shared cache (redis://...) instead")
        _add_common(command, table=name != "clear")
        command.set_defaults(func=func)
        if name == "clear":
            command.add_argument("--namespace", action="append", choices=NAMESPACES)
        if name == "explain":
            command.add_argument("nodeid", help="e.g. evals/sample/facts.yaml::capital-france")

    importer = sub.add_parser("import", help="turn a published data set into task files")
    import_sub = importer.add_subparsers(dest="dataset", required=True)
    from harness.benchmarks.gem.commands import add_commands as add_gem_commands
    from harness.benchmarks.gem.commands import add_import_commands as add_gem_imports

    add_gem_imports(import_sub, _add_common)
    add_gem_commands(sub, _add_common)

    merge = sub.add_parser("merge", help="join the shards of one run (--shard K/N) into one run")
    merge.add_argument(
        "runs", nargs="+", help="each shard's results.json, run folder, run id or report folder (its LATEST run)"
    )
    merge.add_argument(
        "--output",
        default=None,
        metavar="DIR",
        help="the reports folder to write the merged run in (default: --report-dir)",
    )
    merge.add_argument("--no-html", action="store_true", help="skip report.html")
    merge.add_argument("--baseline", default=None, metavar="PATH", help="compare the merged run with this run")
    from harness.settings import FAIL_ON_REGRESSION

    merge.add_argument(
        "--fail-on-regression", **FAIL_ON_REGRESSION, help="with --baseline: the gate decides the exit code"
    )
    merge.add_argument("--tolerance", type=float, default=2.0, help="changes within +-this count as unchanged")
    _add_common(merge, table=False)
    merge.set_defaults(func=cmd_merge)

    from harness.analysis.commands import add_commands
    from harness.analysis.judge_commands import add_commands as add_judge_commands

    add_commands(sub, _add_common)
    add_judge_commands(sub, _add_common)

    from harness.solve.commands import add_command as add_solve

    add_solve(sub)

    schema = sub.add_parser("schema", help="print the JSON Schema of task files")
    schema.add_argument("--output", default=None)
    _add_common(schema, table=False)
    schema.set_defaults(func=cmd_schema)
    return parser


def main(argv: list[str] | None = None) -> int:
    """Exit codes: 0 done, 1 a failure the command reports (a regression, a failed check), 2 usage, 4 input
    that cannot be used (a file that is not what it should be), said in one line."""
    args = build_parser().parse_args(argv)
    try:
        return int(args.func(args) or 0)
    except ConfigError as exc:
        print(f"harness {args.command}: {exc}" if getattr(args, "command", None) else f"harness: {exc}",
              file=sys.stderr)  # fmt: skip
        return 4


if __name__ == "__main__":
    raise SystemExit(main())
