"""--shard K/N: this machine's share of the run, whole tasks at a time, the same on every machine.

The CI system fans the N jobs out (a GitHub Actions matrix, GitLab `parallel`, a Kubernetes Indexed Job,
a Slurm array); each runs `pytest ... --shard K/N` and `harness merge` joins their runs (docs/scale.md).
Every variant and repeat of a task goes to one shard, so a task's items stay comparable and a call they
share is made once.

- `hash` (the default): a task goes to shard `h(suite, id) mod N` with the hash `--sample` orders by
  (harness.sampling.hash_order), so adding a task moves no other.
- `history`: tasks are weighed by their median item duration in the run history (the newest
  HISTORY_RUNS files of reports/history) times their items in this run, then placed heaviest first on the
  shard with the least work so far (ties: the lower hash, the lower shard). A task the history lacks
  weighs the median of the tasks it has (1 s an item when it has none), so new tasks spread evenly. The
  same history gives the same assignment everywhere; the weights' digest is recorded, and the merge
  refuses shards that balanced on different histories.

Entries that failed to load (error items) go by the hash of their suite and name, so each is reported once.
"""

from __future__ import annotations

import functools
import hashlib
import statistics
from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest

from harness import xdist_support
from harness.collect import InvalidTaskItem, TaskItem
from harness.project import history_dir
from harness.run_inputs import digest, files_digest, folder_files, inputs_record, task_line
from harness.run_state import SETTINGS
from harness.sampling import hash_order
from harness.settings import parse_shard  # noqa: F401 (re-exported: it was defined here)

if TYPE_CHECKING:
    from harness.settings import Settings

HISTORY_RUNS = 20  # history files (runs) the durations come from, newest first
DEFAULT_ITEM_S = 1.0  # an item's weight when the history knows no task at all
INPUTS = pytest.StashKey[dict[str, Any]]()
SHARD = pytest.StashKey[dict[str, Any]]()
WORKER_INPUTS, WORKER_SHARD = "harness_inputs", "harness_shard"
LINE_ATTR = "harness_shard_line"  # on a worker's first test report: the line saying which part this shard runs


@dataclass(frozen=True)
class Unit:
    """What is placed on a shard: one task (all its items), or one entry that failed to load."""

    suite: str
    task_id: str
    items: int
    valid: bool = True


def hash_shard(suite: str, task_id: str, count: int) -> int:
    """The 0-based shard of a task by hash: stable across machines, Python versions and task order."""
    return int(hash_order(suite, task_id)[:16], 16) % count


def durations_from_history(rows: Iterable[dict[str, str]]) -> dict[tuple[str, str], float]:
    """Median seconds per item of each (suite, task), over the rows that finished (not errors)."""
    seen: dict[tuple[str, str], list[float]] = defaultdict(list)
    for row in rows:
        if row.get("outcome") == "error" or not row.get("latency_s"):
            continue
        try:
            seconds = float(row["latency_s"])
        except ValueError:
            continue
        if seconds >= 0:
            seen[(row.get("suite", ""), row.get("task", ""))].append(seconds)
    return {key: statistics.median(values) for key, values in seen.items()}


def read_durations(report_dir: Path, runs: int = HISTORY_RUNS) -> dict[tuple[str, str], float]:
    """Durations from the newest `runs` history files of `report_dir` (the order of their names)."""
    import csv

    rows: list[dict[str, str]] = []
    for path in sorted(history_dir(report_dir).glob("*.csv"))[-runs:]:
        with path.open(encoding="utf-8", newline="") as handle:
            rows += list(csv.DictReader(handle))
    return durations_from_history(rows)


def weights(units: list[Unit], durations: dict[tuple[str, str], float]) -> dict[Unit, int]:
    """Microseconds of work per unit: its median item duration times its items (integers, so that every
    machine adds them up alike)."""
    known = [durations[(u.suite, u.task_id)] for u in units if u.valid and (u.suite, u.task_id) in durations]
    default = statistics.median(known) if known else DEFAULT_ITEM_S
    return {u: round(durations.get((u.suite, u.task_id), default) * 1e6) * u.items if u.valid else 0 for u in units}


def assign(units: list[Unit], count: int, balance: str = "hash", durations: dict | None = None) -> dict[Unit, int]:
    """The 0-based shard of every unit (a pure function of its arguments)."""
    if balance == "hash" or count == 1:
        return {u: hash_shard(u.suite, u.task_id, count) for u in units}
    weight = weights(units, durations or {})
    placed: dict[Unit, int] = {}
    loads = [0] * count
    for unit in sorted(units, key=lambda u: (-weight[u], hash_order(u.suite, u.task_id), u.valid)):
        if not unit.valid:
            placed[unit] = hash_shard(unit.suite, unit.task_id, count)
            continue
        shard = min(range(count), key=lambda k: (loads[k], k))
        placed[unit] = shard
        loads[shard] += weight[unit]
    return placed


def weights_digest(units: list[Unit], durations: dict[tuple[str, str], float]) -> str:
    """What a history-balanced assignment depends on besides the units: their weights."""
    return digest(f"{task_line(u.suite, u.task_id)}\0{w}" for u, w in weights(units, durations).items())


# -- the pytest side -------------------------------------------------------------------------------------


def _identity(item: pytest.Item) -> tuple[str, str, bool]:
    """(suite, task id or entry name, whether it is a real task) of a harness item."""

    if isinstance(item, TaskItem):
        return item.task.suite, item.task.id, True
    return str(getattr(item, "suite", "")), item.name, False


def _is_harness_item(item: pytest.Item) -> bool:

    return isinstance(item, TaskItem | InvalidTaskItem)


def _inputs(items: list[pytest.Item], settings: Settings) -> dict[str, Any]:

    rows = []
    for item in items:
        if isinstance(item, TaskItem):
            spec = item.spec
            rows.append((spec.task.suite, spec.task.id, spec.task.version, spec.variant, spec.repeat))
        elif _is_harness_item(item):
            suite, name, _ = _identity(item)
            rows.append((suite, name, "invalid", None, 0))
    files = sorted({Path(str(item.path)) for item in items if _is_harness_item(item)})
    record = inputs_record(rows, files, settings)
    record["item_ids"] = digest(item.nodeid for item in items if _is_harness_item(item))
    record["harness_source"] = harness_source_digest()
    record["price_file"] = file_digest(settings.price_file)
    return record


@functools.cache
def harness_source_digest() -> str:
    """sha256 over the harness package's own files (code, schemas, the benchmarks' data), by content: shards
    built from different code must not merge, and the version string alone does not change with the code,
    nor does a git revision exist in an installed image. About 1 MB: a few milliseconds, once per process."""

    package = Path(__file__).resolve().parent
    return str(files_digest(folder_files(package), package)["digest"])


def file_digest(path: Path | None) -> str | None:
    """sha256 of a file's content (the --price-file: the prices decide the costs and --max-cost), or None."""
    if path is None:
        return None
    try:
        return hashlib.sha256(Path(path).read_bytes()).hexdigest()
    except OSError:
        return None


def select(items: list[pytest.Item], settings: Settings) -> tuple[list[pytest.Item], list[pytest.Item], dict[str, Any]]:
    """(kept, dropped, the `run.shard` record) for this machine's --shard."""
    assert settings.shard is not None
    index, count = settings.shard
    counts: dict[tuple[str, str, bool], int] = defaultdict(int)
    for item in items:
        if _is_harness_item(item):
            counts[_identity(item)] += 1
    units = [Unit(suite, task_id, n, valid) for (suite, task_id, valid), n in counts.items()]
    durations = read_durations(settings.report_dir) if settings.shard_balance == "history" else {}
    placed = assign(units, count, settings.shard_balance, durations)
    mine = {(u.suite, u.task_id, u.valid) for u, shard in placed.items() if shard == index - 1}
    kept = [i for i in items if not _is_harness_item(i) or _identity(i) in mine]
    dropped = [i for i in items if _is_harness_item(i) and _identity(i) not in mine]
    record = {
        "index": index,
        "count": count,
        "balance": settings.shard_balance,
        "tasks": len({(suite, task_id) for suite, task_id, _ in mine}),
        "items": sum(1 for i in kept if _is_harness_item(i)),
        "task_digest": digest(task_line(suite, task_id) for suite, task_id, _ in mine),
        "history_digest": weights_digest(units, durations) if settings.shard_balance == "history" else None,
        "group": settings.run_group,
        "selected": sorted(i.nodeid for i in kept if _is_harness_item(i)),  # what `harness merge` checks
    }
    return kept, dropped, record


class RunSelection:
    """After every other selection (-k, -m, --sample): record what the run holds (`run.inputs`), then keep
    this machine's shard. Registered by the plugin in every process; under xdist, the workers (which
    collect) hand both records to the controller (which writes the run)."""

    def __init__(self, config: pytest.Config) -> None:
        self.config = config
        self.sent = False  # xdist: the shard's line went out with this worker's first report

    @pytest.hookimpl(trylast=True)
    def pytest_collection_modifyitems(self, session: pytest.Session, config: pytest.Config, items: list) -> None:

        settings = config.stash[SETTINGS]
        if config.option.collectonly and settings.shard is None:
            return
        config.stash[INPUTS] = _inputs(items, settings)
        if settings.shard is not None:
            kept, dropped, record = select(items, settings)
            config.stash[SHARD] = record
            if dropped:
                config.hook.pytest_deselected(items=dropped)
                items[:] = kept
        if xdist_support.is_worker(config):
            output = config.workeroutput  # type: ignore[attr-defined]
            output[WORKER_INPUTS] = config.stash[INPUTS]
            output[WORKER_SHARD] = config.stash.get(SHARD, None)

    def pytest_report_collectionfinish(self, config: pytest.Config, items: list) -> list[str]:
        line = shard_line(config)
        return [line] if line else []

    @pytest.hookimpl(wrapper=True)
    def pytest_runtest_makereport(self, item: pytest.Item, call: Any) -> Any:
        """xdist: the controller does not collect, so a worker's first report carries the shard's line."""
        report = yield

        if xdist_support.is_worker(self.config) and not self.sent:
            self.sent = True
            line = shard_line(self.config)
            if line:
                setattr(report, LINE_ATTR, line)
        return report

    @pytest.hookimpl(tryfirst=True)
    def pytest_sessionfinish(self, session: pytest.Session, exitstatus: int) -> None:
        """A shard with nothing to run (more shards than tasks) ends well: its empty run is still written."""
        record = session.config.stash.get(SHARD, None)
        if record is not None and record["items"] == 0 and exitstatus == pytest.ExitCode.NO_TESTS_COLLECTED:
            session.exitstatus = pytest.ExitCode.OK


def shard_line(config: pytest.Config) -> str | None:
    """`harness: shard 2/4 (hash): 31 of 120 tasks, 62 of 240 items`, once the shard is chosen."""
    record = config.stash.get(SHARD, None)
    inputs = config.stash.get(INPUTS, None)
    if record is None or inputs is None:
        return None
    return (
        f"harness: shard {record['index']}/{record['count']} ({record['balance']}): {record['tasks']} of "
        f"{inputs['tasks']} tasks, {record['items']} of {inputs['items']} items"
    )


class WorkerRecords:
    """xdist only (registered when xdist is active): the controller takes the workers' records, and says
    which part this shard runs as soon as a worker's first report brings the line (at the end, from the
    records, when no item ran)."""

    def __init__(self, config: pytest.Config) -> None:
        self.config = config
        self.said = False

    def _say(self, line: str) -> None:
        self.said = True
        reporter = self.config.pluginmanager.getplugin("terminalreporter")
        if reporter is None:
            return
        reporter.ensure_newline()
        writer = getattr(reporter, "_tw", None)
        if writer is not None and writer.width_of_current_line:  # xdist's dots do not use ensure_newline
            reporter.write("\n")
        reporter.write_line(line)

    def pytest_runtest_logreport(self, report: pytest.TestReport) -> None:
        line = getattr(report, LINE_ATTR, None)
        if line and not self.said:
            self._say(str(line))

    def pytest_terminal_summary(self, terminalreporter: Any) -> None:
        line = shard_line(self.config)
        if line and not self.said:
            self._say(line)

    def pytest_testnodedown(self, node: Any, error: Any) -> None:
        output = getattr(node, "workeroutput", None) or {}
        if WORKER_INPUTS in output and INPUTS not in self.config.stash:
            self.config.stash[INPUTS] = output[WORKER_INPUTS]
        if output.get(WORKER_SHARD) is not None and SHARD not in self.config.stash:
            self.config.stash[SHARD] = output[WORKER_SHARD]


def register(config: pytest.Config) -> None:
    """Called by the plugin's pytest_configure."""
    config.pluginmanager.register(RunSelection(config), "harness-run-selection")

    if xdist_support.is_controller(config) and config.pluginmanager.hasplugin("xdist"):
        config.pluginmanager.register(WorkerRecords(config), "harness-worker-records")


def is_shard(config: pytest.Config) -> bool:

    settings = config.stash.get(SETTINGS, None)
    return settings is not None and settings.shard is not None


def run_fields(config: pytest.Config) -> dict[str, Any]:
    """What results.json's `run` gets from here: `inputs` always (when known), `shard` for a shard."""
    fields: dict[str, Any] = {}
    if INPUTS in config.stash:
        fields["inputs"] = config.stash[INPUTS]
    if SHARD in config.stash:
        fields["shard"] = config.stash[SHARD]
    elif is_shard(config):  # nothing reached the controller (no item ran anywhere): an empty shard
        settings = config.stash[SETTINGS]
        index, count = settings.shard
        fields["shard"] = {"index": index, "count": count, "balance": settings.shard_balance, "tasks": 0,
                           "items": 0, "task_digest": digest([]), "history_digest": None,
                           "group": settings.run_group, "selected": []}  # fmt: skip
    return fields


def provenance(meta: dict[str, Any]) -> str | None:
    """One line for summary.md and report.html: the shard this run is, or the shards it was merged from."""
    merged = meta.get("merged")
    if merged:
        group = f", run group {merged['group']}" if merged.get("group") else ""
        runs = ", ".join(str(s.get("run_id")) for s in merged.get("shards") or [])
        return f"merged from {merged['count']} shards ({merged.get('balance')}{group}): {runs}"
    shard = meta.get("shard")
    if shard:
        return (
            f"shard {shard['index']}/{shard['count']} ({shard.get('balance')}): {shard.get('tasks')} tasks, "
            f"{shard.get('items')} items; `harness merge` joins the shards into one run"
        )
    return None
