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


def _add_common(parser: argparse.ArgumentParser, *, table: bool = True) -> None:
    parser.add_argument("--report-dir", default="reports", help="where runs are written (default: reports)")
    if table:
        parser.add_argument("--json", action="store_true", help="print JSON instead of a table")


def _load_run(report_dir: Path, run_id: str | None) -> dict[str, Any]:
    if run_id in (None, "latest"):
        latest = report_dir / "LATEST"
        if not latest.exists():
            raise SystemExit(f"harness: no runs in {report_dir} (run pytest first, or pass --report-dir)")
        run_id = latest.read_text(encoding="utf-8").strip()
    path = report_dir / str(run_id) / "results.json"
    if not path.exists():
        raise SystemExit(f"harness: {path} does not exist")
    return json.loads(path.read_text(encoding="utf-8"))  # type: ignore[no-any-return]


def _runs_newest_first(report_dir: Path) -> list[Path]:
    return sorted((p for p in report_dir.glob("*/results.json")), key=lambda p: p.parent.name, reverse=True)


def _print_table(rows: list[list[str]], header: list[str]) -> None:
    widths = [max(len(str(x)) for x in col) for col in zip(header, *rows, strict=False)]
    print("  ".join(h.ljust(w) for h, w in zip(header, widths, strict=False)))
    for row in rows:
        print("  ".join(str(c).ljust(w) for c, w in zip(row, widths, strict=False)))


def cmd_report(args: argparse.Namespace) -> int:
    run = _load_run(Path(args.report_dir), args.run)
    if args.json:
        print(json.dumps({"run": run["run"], "totals": run["totals"], "suites": run["suites"]}, indent=1))
        return 0
    from harness.report.markdown import render_summary

    print(render_summary(run))
    return 0


def cmd_cache_stats(args: argparse.Namespace) -> int:
    cache = CallCache(Path(args.cache_dir), CacheMode.USE)
    stats = cache.stats()
    cache.close()
    if args.json:
        print(json.dumps(stats, indent=1))
    else:
        rows = [[ns, str(s["entries"]), f"{s['bytes'] / 1e6:.2f} MB"] for ns, s in stats.items()]
        _print_table(rows, ["namespace", "entries", "size"])
    return 0


def cmd_cache_clear(args: argparse.Namespace) -> int:
    cache = CallCache(Path(args.cache_dir), CacheMode.USE)
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


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="harness", description=__doc__)
    sub = parser.add_subparsers(dest="command", required=True)

    report = sub.add_parser("report", help="show a run's scores (default: the latest run)")
    report.add_argument("run", nargs="?", default="latest")
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
        _add_common(command, table=name != "clear")
        command.set_defaults(func=func)
        if name == "clear":
            command.add_argument("--namespace", action="append", choices=NAMESPACES)
        if name == "explain":
            command.add_argument("nodeid", help="e.g. evals/sample/facts.yaml::capital-france")

    schema = sub.add_parser("schema", help="print the JSON Schema of task files")
    schema.add_argument("--output", default=None)
    _add_common(schema, table=False)
    schema.set_defaults(func=cmd_schema)
    return parser


def main(argv: list[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    return int(args.func(args) or 0)


if __name__ == "__main__":
    raise SystemExit(main())
