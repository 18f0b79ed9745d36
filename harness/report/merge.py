"""`harness merge`: the shards of one run (`--shard K/N` on N machines) joined into one run.

The checks are pure functions of the shards' results.json documents, and each problem is one line that
names the shard: a shard given twice, a shard missing, shards that differ in what makes scores comparable
(options, harness version and git revision, the run group, how tasks were balanced, the digests of the
items, task files, fixtures and prompt templates the run read, of the harness's own files and of the price
file), or a shard whose results fall short of
the items it ran (an interrupted job). Which items, not only how many: each shard's results are exactly the
items it selected (`run.shard.selected`), each holding the task its id names, and together they are the
run's selection (`run.inputs.item_ids`); a duplicate, a foreign, a renamed or a copied result is refused.
Only `cache_url` may differ: where the shared cache lives does not change an answer.

The merged run is written by the same code as any run (harness.report.writer.save_run): results.json,
summary.md, report.html and one history file, marked `run.merged` with its shards. Gate it once, on the
merged run (`harness compare MERGED --baseline BASE --fail-on-regression`): gating each shard on its own
part of the tasks loses power and multiplies false alarms.
"""

from __future__ import annotations

import datetime as dt
import json
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from harness.run_inputs import digest

EXEMPT_OPTIONS = frozenset({"cache_url"})


class MergeError(ValueError):
    """Shards that cannot be merged; the message is one line naming the shard and the problem."""


@dataclass
class Shard:
    source: str  # as the user named it
    run: dict[str, Any]

    @property
    def record(self) -> dict[str, Any]:
        return self.run["run"]["shard"]

    @property
    def label(self) -> str:
        return f"shard {self.record['index']}/{self.record['count']} ({self.source})"


def read_shard(report_dir: Path, ref: str) -> Shard:
    """A shard's run, named by results.json, run folder, run id, or the shard's report folder (its LATEST
    run: a shard run again, after a failure, writes a second run beside the first); a MergeError when it is
    not one."""
    from harness.run_files import run_path

    given = Path(str(ref))
    try:
        if given.is_dir() and not (given / "results.json").is_file() and (given / "LATEST").is_file():
            path = run_path(given, "latest")
        else:
            path = run_path(report_dir, ref)
    except SystemExit as exc:
        raise MergeError(str(exc).removeprefix("harness: ")) from None
    try:
        run = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError) as exc:
        raise MergeError(f"{ref}: not a readable results.json ({exc})") from None
    if not isinstance(run, dict) or not isinstance(run.get("results"), list) or not isinstance(run.get("run"), dict):
        raise MergeError(f"{ref}: not a run's results.json (expected the keys run and results)")
    shard = run["run"].get("shard")
    if not isinstance(shard, dict) or not all(isinstance(shard.get(k), int) for k in ("index", "count", "items")):
        raise MergeError(f"{ref}: not a shard's run (results.json has no run.shard): run it with --shard K/N")
    return Shard(ref, run)


def _short(value: Any) -> str:
    text = json.dumps(value, sort_keys=True, default=str)
    if len(text) == 66 and text.startswith('"'):  # a sha256 digest
        return text[:13] + '..."'
    return text if len(text) <= 80 else text[:77] + "..."


def _inputs(run: dict[str, Any]) -> dict[str, Any]:
    return run["run"].get("inputs") or {}


def _fields(run: dict[str, Any]) -> Iterable[tuple[str, Any]]:
    """(what, value) pairs that must be equal on every shard, in the order problems are reported."""
    meta, shard, inputs = run["run"], run["run"]["shard"], _inputs(run)
    yield "schema_version", run.get("schema_version")
    yield "harness version", meta.get("harness_version")
    yield "git revision", (meta.get("git") or {}).get("revision")
    yield "run group (--run-group)", shard.get("group")
    yield "balance (--shard-balance)", shard.get("balance")
    yield "the history it balanced on", shard.get("history_digest")
    yield "the items selected (task set)", inputs.get("task_set")
    yield "the items selected (their ids)", inputs.get("item_ids")
    yield "the task files", inputs.get("task_files")
    yield "the fixtures", (inputs.get("fixtures") or {}).get("digest")
    yield "the prompt templates", inputs.get("prompts")
    yield "the harness's own files (its code)", inputs.get("harness_source")
    yield "the price file (--price-file)", inputs.get("price_file")
    options = meta.get("options") or {}
    for name in sorted(options):
        if name not in EXEMPT_OPTIONS:
            yield f"option {name}", options[name]


def check_shards(shards: list[Shard]) -> None:
    """Raise MergeError (one line) unless the shards are 1..N of one run, each once and complete."""
    if not shards:
        raise MergeError("no shards given")
    counts = {s.record["count"] for s in shards}
    if len(counts) > 1:
        first, other = shards[0], next(s for s in shards if s.record["count"] != shards[0].record["count"])
        raise MergeError(f"{other.label} and {first.label} come from splits into different numbers of shards")
    count = counts.pop()
    seen: dict[int, Shard] = {}
    for shard in shards:
        index = shard.record["index"]
        if not 1 <= index <= count:
            raise MergeError(f"{shard.label}: the shard index lies outside 1..{count}")
        if index in seen:
            raise MergeError(f"shard {index}/{count} is given twice: {seen[index].source} and {shard.source}")
        seen[index] = shard
    missing = [k for k in range(1, count + 1) if k not in seen]
    if missing:
        names = ", ".join(f"{k}/{count}" for k in missing)
        given = ", ".join(str(k) for k in sorted(seen))
        raise MergeError(f"shard {names} {'is' if len(missing) == 1 else 'are'} missing (given: {given} of {count})")
    ordered = [seen[k] for k in range(1, count + 1)]
    reference = dict(_fields(ordered[0].run))
    for shard in ordered[1:]:
        values = dict(_fields(shard.run))
        for what in [*reference, *(k for k in values if k not in reference)]:
            if values.get(what) != reference.get(what):
                raise MergeError(
                    f"{shard.label} differs from {ordered[0].label} in {what}: "
                    f"{_short(values.get(what))} vs {_short(reference.get(what))}"
                )
    owner: dict[str, Shard] = {}
    for shard in ordered:
        results = shard.run["results"]
        if len(results) != shard.record["items"]:
            raise MergeError(
                f"{shard.label} holds {len(results)} results but ran {shard.record['items']} items: was it "
                "interrupted? run that shard again"
            )
        chosen = _selection(shard)
        for result in results:
            nodeid = str(result.get("nodeid"))
            if nodeid in owner:
                raise MergeError(f"item {nodeid} is in both {owner[nodeid].label} and {shard.label}")
            owner[nodeid] = shard
            if nodeid not in chosen:
                raise MergeError(f"{shard.label} holds item {nodeid}, which it did not select: a foreign or "
                                 "renamed result")  # fmt: skip
            if (problem := _identity_problem(result, nodeid)) is not None:
                raise MergeError(f"{shard.label}: item {nodeid} {problem}: a result copied or renamed")
        if lacking := sorted(chosen - {str(r.get("nodeid")) for r in results}):
            partial = (shard.run.get("run") or {}).get("incomplete")
            again = (
                f"finish it with {partial['resume']}" if partial and partial.get("resume") else "run that shard again"
            )
            raise MergeError(f"{shard.label} lacks item {lacking[0]}, which it selected: {again}")
    selected = _inputs(ordered[0].run).get("items")
    if isinstance(selected, int) and selected != len(owner):
        raise MergeError(f"the shards hold {len(owner)} items but the run selected {selected}: a shard is incomplete")
    expected = _inputs(ordered[0].run).get("item_ids")
    if expected is not None and digest(owner) != expected:
        raise MergeError("the shards' items together are not the items the run selected (run.inputs.item_ids): "
                         "a shard of another selection, or results edited")  # fmt: skip


def _selection(shard: Shard) -> set[str]:
    """The items a shard selected (`run.shard.selected`, node ids)."""
    selected = shard.record.get("selected")
    if not isinstance(selected, list) or not all(isinstance(n, str) for n in selected):
        raise MergeError(f"{shard.label}: run.shard.selected (the items it selected) is missing or not a list "
                         "of item ids: run it again with this harness")  # fmt: skip
    if len(set(selected)) != len(selected):
        raise MergeError(f"{shard.label}: run.shard.selected names an item twice")
    return set(selected)


def _identity_problem(result: dict[str, Any], nodeid: str) -> str | None:
    """Whether a result's own task, variant and repeat are those its node id names (an invalid task's
    entry has no such fields to compare)."""
    from harness.item_names import parse_item_name

    if (result.get("error") or {}).get("kind") == "invalid-task":
        return None
    named = parse_item_name(nodeid.partition("::")[2])
    held = (result.get("task_id"), result.get("variant") or None, result.get("repeat") or 0)
    if named != held:
        return f"holds the result of task {held[0]!r} (variant {held[1]!r}, repeat {held[2]!r})"
    return None


def _parse(ts: str | None) -> dt.datetime | None:
    return dt.datetime.fromisoformat(ts) if ts else None


def _exit_status(codes: list[int]) -> int:
    """The merged run's pytest exit status: 0 when every shard passed (an empty shard's 5 counts as 0),
    1 when items failed somewhere, else the worst (interrupted, internal error, usage error)."""
    codes = [0 if c == 5 else c for c in codes]
    if all(c == 0 for c in codes):
        return 0
    if all(c in (0, 1) for c in codes):
        return 1
    return max(codes)


def served_warnings(ordered: list[Shard]) -> list[str]:
    """Shards that other models answered for than the first shard's (a provider's swap between machines):
    the merged scores mix two judges or two systems, and the merged run says so."""
    from harness.report.served import change_line, served_changes, served_models

    first = served_models(ordered[0].run["results"])
    warnings = []
    for shard in ordered[1:]:
        for change in served_changes(first, served_models(shard.run["results"])):
            warnings.append(
                f"{shard.label} against {ordered[0].label}: {change_line(change)}: "
                f"{change['role']} changed: the merged scores are not comparable across shards"
            )
    return warnings


def merge_runs(shards: list[Shard], run_id: str, argv: list[str]) -> dict[str, Any]:
    """The merged run document (checked shards in; pure). Results in nodeid order, aggregates recomputed."""
    from harness.kinds import run_records
    from harness.report.writer import run_sections

    ordered = sorted(shards, key=lambda s: s.record["index"])
    first = ordered[0].run
    metas = [s.run["run"] for s in ordered]
    results = sorted((r for s in ordered for r in s.run["results"]), key=lambda r: str(r.get("nodeid")))
    starts = [t for t in (_parse(m.get("started_at")) for m in metas) if t is not None]
    ends = [t for t in (_parse(m.get("finished_at")) for m in metas) if t is not None]
    started, finished = (min(starts) if starts else None), (max(ends) if ends else None)
    warnings: list[str] = []
    for meta in metas:
        warnings += [w for w in meta.get("warnings") or [] if w not in warnings]
    warnings += served_warnings(ordered)
    record = ordered[0].record
    return {
        "schema_version": first.get("schema_version"),
        "run": {
            "run_id": run_id,
            "harness_version": first["run"].get("harness_version"),
            "started_at": started.isoformat() if started else None,
            "finished_at": finished.isoformat() if finished else None,
            "duration_s": round((finished - started).total_seconds(), 3) if started and finished else 0.0,
            "git": first["run"].get("git"),
            "python": first["run"].get("python"),
            "platform": first["run"].get("platform"),
            "argv": argv,
            "options": first["run"].get("options"),
            "exit_status": _exit_status([int(m.get("exit_status") or 0) for m in metas]),
            "local_models": any(m.get("local_models") for m in metas),
            "notice": next((m["notice"] for m in metas if m.get("notice")), None),
            "warnings": warnings,
            "calibration": first["run"].get("calibration") or [],
            "inputs": first["run"].get("inputs"),
            "benchmarks": run_records(results, first["run"].get("options") or {}),
            "merged": {
                "count": record["count"],
                "balance": record.get("balance"),
                "group": record.get("group"),
                "shards": [
                    {
                        "index": s.record["index"],
                        "run_id": s.run["run"].get("run_id"),
                        "started_at": s.run["run"].get("started_at"),
                        "finished_at": s.run["run"].get("finished_at"),
                        "duration_s": s.run["run"].get("duration_s"),
                        "tasks": s.record.get("tasks"),
                        "items": s.record["items"],
                        "exit_status": s.run["run"].get("exit_status"),
                    }
                    for s in ordered
                ],
            },
        },
        **run_sections(results),
        "results": results,
    }


def merge_settings(run: dict[str, Any], output: Path, **options: Any) -> Any:
    """Settings for writing the merged run: the output folder and the command's options (--no-html,
    --baseline, ...), checked as the plugin checks them, and the history labels the shards ran with."""
    from dataclasses import replace

    from harness.settings import settings_for_command

    settings = settings_for_command(Path.cwd(), report_dir=str(output), **options)
    recorded = run["run"].get("options") or {}
    return replace(
        settings,
        agent_version=recorded.get("agent_version"),
        release_date=recorded.get("release_date"),
        period=recorded.get("period"),
    )
