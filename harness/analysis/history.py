"""The run history: one CSV file per run under `reports/history/`, append-only, readable without the
harness (docs/index.md#the-history). Every finished run adds its items; `harness history import` adds
results from elsewhere. The capability index and the Tech-Market-Fit analysis read nothing else.

A row is one item: who (agent, version, date, period), what (suite, kind, task and its version, variant,
repeat), how it went (outcome, score 0..100, the raw judge level where the benchmark has one, cost,
latency), the task's expert minutes, and the binomial reading the index uses: `k` successes of `n` trials
(a level of 1..5 is k = level - 1 of n = 4; a score is k = score / 100 x n with n a pseudo-count).
"""

from __future__ import annotations

import contextlib
import csv
import datetime as dt
import hashlib
import io
import math
import re
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from harness.project import HISTORY, history_dir  # noqa: F401 (re-exported: commands, the report writer)
from harness.wellformed import well_formed_text

COLUMNS = (
    "run_id", "agent", "version", "date", "period", "suite", "kind", "task", "task_version", "variant",
    "repeat", "outcome", "score", "level", "k", "n", "cost_usd", "latency_s", "expert_minutes", "source",
    "system_cost_usd", "system_latency_s", "calibrated_score", "incomplete",
)  # fmt: skip
SCORE_TRIALS = 4.0  # an item's 0..100 score weighs as a five-point level does
IMPORT_TRIALS = 20.0  # an aggregate score (one number for a whole benchmark): a pseudo-count, not its size
_DATE = re.compile(r"^\d{4}-\d{2}-\d{2}$")


def default_period(date: str) -> str:
    """The quarter of a date: 2026-11-22 -> 2026Q4."""
    year, month = int(date[:4]), int(date[5:7])
    return f"{year}Q{(month - 1) // 3 + 1}"


def _num(value: Any) -> str:
    if value is None:
        return ""
    if isinstance(value, float):
        return f"{value:.6g}"
    return str(value)


def run_rows(
    run: dict[str, Any], *, version: str = "", date: str | None = None, period: str | None = None
) -> list[dict[str, str]]:
    """History rows of a finished run (its results.json document)."""
    from harness.kinds import get_benchmark
    from harness.run_files import system_label

    meta = run["run"]
    day = date or str(meta.get("started_at") or "")[:10] or dt.date.today().isoformat()
    partial = "1" if meta.get("incomplete") else ""  # an interrupted run: the index and TMF leave it out
    rows = []
    for result in run["results"]:
        level_range = None
        with contextlib.suppress(KeyError):
            level_range = get_benchmark(result["kind"]).level_range
        score = result.get("score")
        level = _level(result, level_range)
        if level is not None and level_range is not None:
            low, high = level_range
            k, n = level - low, float(high - low)
        elif score is not None:
            k, n = score / 100 * SCORE_TRIALS, SCORE_TRIALS
        else:
            k, n = None, None
        usage = result.get("usage") or {}
        system_cost, system_latency = _system_share(result)
        rows.append(
            {
                "run_id": meta["run_id"],
                "agent": system_label(meta["options"]),
                "version": version,
                "date": day,
                "period": period or default_period(day),
                "suite": result.get("suite", ""),
                "kind": result.get("kind", ""),
                "task": result["task_id"],
                "task_version": _num(result.get("task_version")),
                "variant": result.get("variant") or "",
                "repeat": _num(result.get("repeat", 0)),
                "outcome": result["outcome"],
                "score": _num(score),
                "level": _num(level),
                "k": _num(k),
                "n": _num(n),
                # the item's calls at their price, cached or not; empty when a model's price is unknown
                "cost_usd": _num(usage.get("priced_usd")) if usage.get("priced_known", False) else "",
                "latency_s": _num(result.get("latency_s")),
                "expert_minutes": _num((result.get("metadata") or {}).get("expert_minutes")),
                "source": "run",
                # the system under test's own share, without its evaluation: what Tech-Market Fit reads
                "system_cost_usd": _num(system_cost),
                "system_latency_s": _num(system_latency),
                # what blind solves scored on the task (its calibration): the index's prior for its difficulty
                "calibrated_score": _num(((result.get("metadata") or {}).get("calibration") or {}).get("mean_score")),
                "incomplete": partial,
            }
        )
    return rows


def _system_share(result: dict[str, Any]) -> tuple[float | None, float | None]:
    """(cost, latency) of the system under test alone on one item (result.system). A result from before
    they were recorded: its cost from its calls to the system's model (the `sut` namespace), its latency
    unknown."""
    share = result.get("system")
    if isinstance(share, dict):
        return share.get("cost_usd"), share.get("latency_s")
    calls = [c for c in result.get("calls") or [] if isinstance(c, dict) and c.get("namespace") == "sut"]
    prices = [c.get("priced_usd", c.get("cost_usd")) for c in calls]
    cost = sum(prices) if all(isinstance(p, int | float) for p in prices) else None
    return cost, None


def _level(result: dict[str, Any], level_range: tuple[int, int] | None) -> float | None:
    """The judges' mean raw level, for benchmarks that judge on a level scale."""
    if level_range is None or result.get("outcome") == "error":
        return None
    levels = (result.get("judge_levels") or {}).get("level") or {}
    values = [v for v in levels.values() if isinstance(v, int | float) and not isinstance(v, bool)]
    return sum(values) / len(values) if values else None


def write_rows(path: Path, rows: Iterable[dict[str, str]]) -> Path:
    from harness.atomic_write import write_atomic

    buffer = io.StringIO()
    writer = csv.DictWriter(buffer, fieldnames=COLUMNS, lineterminator="\n")
    writer.writeheader()
    for row in rows:
        writer.writerow({c: row.get(c, "") for c in COLUMNS})
    return write_atomic(path, well_formed_text(buffer.getvalue()))  # a reader never sees half a run


NUMERIC = {"score": (0.0, 100.0), "level": (0.0, 100.0), "k": (0.0, 1e6), "n": (0.0, 1e6),
           "cost_usd": (0.0, 1e6), "latency_s": (0.0, 1e7), "expert_minutes": (0.0, 1e6),
           "task_version": (0.0, 1e9), "repeat": (0.0, 1e9), "system_cost_usd": (0.0, 1e6),
           "system_latency_s": (0.0, 1e7), "calibrated_score": (0.0, 100.0)}  # fmt: skip
MAX_FIELD = 10_000  # characters in one field of an import
HISTORY_FIELD = 131_072  # characters in one field of a history file (the csv module's own default)


@contextlib.contextmanager
def _field_limit(limit: int) -> Iterator[None]:
    """The csv module's field limit is process-wide: set it for one read, and put it back."""
    before = csv.field_size_limit(limit)
    try:
        yield
    finally:
        csv.field_size_limit(before)


def row_problem(row: dict[str, str]) -> str | None:
    """Why a history row cannot be used (a hand edit, a truncated file), or None. Pure. A row the index
    reads (one with `k`) needs n > 0 and 0 <= k <= n: anything else could only fail the whole fit later."""
    for name, (low, high) in NUMERIC.items():
        text = (row.get(name) or "").strip()
        if not text:
            continue
        try:
            value = float(text)
        except ValueError:
            return f"column '{name}': expected a number, got {text[:40]!r}"
        if not (math.isfinite(value) and low <= value <= high):
            return f"column '{name}': expected a number in {low:g}..{high:g}, got {text[:40]}"
    k, n = (row.get("k") or "").strip(), (row.get("n") or "").strip()
    if bool(k) != bool(n):
        return "columns 'k' and 'n': one is empty; a scored row has both (k successes of n trials)"
    if k and float(n) <= 0:
        return f"column 'n': expected a number of trials above 0, got {n[:40]}"
    if k and float(k) > float(n):
        return "column 'k': more successes than trials (n)"
    return None


def read_history(report_dir: Path, problems: list[str] | None = None) -> list[dict[str, str]]:
    """Every usable row of every history file, in file order (runs sort by time). A row that cannot be used
    is left out and named in `problems` (file and line), never a traceback later in the index."""
    rows: list[dict[str, str]] = []
    for path in sorted(history_dir(report_dir).glob("*.csv")):
        usable: list[dict[str, str]] = []
        found: list[str] = []
        reader = None
        try:
            with _field_limit(HISTORY_FIELD), path.open(encoding="utf-8-sig", newline="") as handle:
                reader = csv.DictReader(handle)
                for row in reader:
                    problem = row_problem(row) if None not in row else "more fields than the header"
                    if problem is None:
                        usable.append(row)
                    else:
                        found.append(f"{path}:{reader.line_num}: {problem}; left out")
        except (OSError, UnicodeDecodeError, csv.Error) as exc:
            # A file that cannot be read to its end is left out whole, as the message says: its rows before
            # the fault would be a part of a run that looks like all of it.
            where = f"{path}:{reader.line_num + 1}" if isinstance(exc, csv.Error) and reader is not None else str(path)
            if problems is not None:
                problems.append(f"{where}: cannot be read ({exc}); the whole file is left out")
            continue
        rows += usable
        if problems is not None:
            problems += found
    return rows


# -- import -----------------------------------------------------------------------------------------

UNITS = ("score", "fraction", "level")
REQUIRED = ("agent", "version", "date", "period", "task")


@dataclass
class ImportReport:
    rows: list[dict[str, str]]
    refused: list[str]
    unit: str
    unit_reason: str


def _detect_unit(values: list[float], column: str) -> tuple[str, str]:
    if column in ("fraction", "level"):
        return column, f"the column is named '{column}'"
    if values and all(0 <= v <= 1 for v in values):
        return "fraction", "every value lies in 0..1 (pass --unit score if they are percentages)"
    if values and all(v == int(v) and 1 <= v <= 5 for v in values) and len(set(values)) > 1:
        return "level", "every value is a whole number from 1 to 5 (pass --unit score if they are percentages)"
    return "score", "values go beyond 1 (read as 0..100)"


def import_csv(text: str, source: str, unit: str = "auto", trials: float = IMPORT_TRIALS) -> ImportReport:
    """Rows from a CSV with columns agent, version, date (YYYY-MM-DD), period, task, and one of score
    (0..100), fraction (0..1) or level (1..5); optional task_version, suite, cost_usd, latency_s,
    expert_minutes. Malformed rows are refused with their row number and what was expected."""
    if (problem := pseudo_count_problem(trials)) is not None:
        raise ValueError(problem)
    with _field_limit(MAX_FIELD):
        return _import_rows(text, source, unit, trials)


def pseudo_count_problem(trials: Any) -> str | None:
    """Why a --pseudo-count cannot weigh a score, or None."""
    if not (isinstance(trials, int | float) and math.isfinite(trials) and 1 <= trials <= 10_000):
        return f"--pseudo-count must be a number from 1 to 10,000, got {trials}"
    return None


def _import_rows(text: str, source: str, unit: str, trials: float) -> ImportReport:
    reader = csv.DictReader(io.StringIO(text.removeprefix("\ufeff")))
    try:
        header = [(h or "").strip().lower() for h in (reader.fieldnames or [])]
    except csv.Error as exc:
        raise ValueError(f"{source}:1: {exc} (a field is at most {MAX_FIELD:,} characters)") from None
    try:
        raw_rows = list(reader)
    except csv.Error as exc:  # the row being read when it failed: one past the last row read whole
        raise ValueError(
            f"{source}:{reader.line_num + 1}: {exc} (a field is at most {MAX_FIELD:,} characters)"
        ) from None
    value_column = next((c for c in ("score", "fraction", "level") if c in header), None)
    missing = [c for c in REQUIRED if c not in header]
    if missing or value_column is None:
        wanted = ", ".join(missing + ([] if value_column else ["score (or fraction, or level)"]))
        raise ValueError(f"{source}:1: the header lacks {wanted}; it has {', '.join(header) or 'nothing'}")
    # Names as the header spells them, stripped and lower-cased ("Score " is score).
    raw = [
        {(k or "").strip().lower(): (v or "").strip() for k, v in entry.items() if k is not None} for entry in raw_rows
    ]
    numbers = []
    for entry in raw:
        with contextlib.suppress(ValueError):
            numbers.append(float((entry.get(value_column) or "").strip()))
    if unit == "auto":
        unit, reason = _detect_unit([v for v in numbers if math.isfinite(v)], value_column)
    else:
        if unit not in UNITS:
            raise ValueError(f"--unit must be one of {', '.join(UNITS)} or auto, got {unit!r}")
        reason = "declared"
    low, high = {"score": (0.0, 100.0), "fraction": (0.0, 1.0), "level": (1.0, 5.0)}[unit]
    rows, refused = [], []
    tag = hashlib.sha256(text.encode()).hexdigest()[:8]
    seen: dict[tuple[str, ...], int] = {}
    for number, entry in enumerate(raw, start=2):  # the header is row 1
        identity = tuple(
            entry.get(c, "") for c in ("agent", "version", "date", "period", "suite", "task", "task_version")
        )
        if identity in seen:
            refused.append(f"{source}: row {number}: repeats row {seen[identity]} (the same agent, version, task)")
            continue
        seen[identity] = number
        problem = next((f"column '{c}' is empty" for c in REQUIRED if not entry.get(c)), None)
        if problem is None and not _DATE.match(entry["date"]):
            problem = f"column 'date': expected YYYY-MM-DD, got {entry['date']!r}"
        if problem is None:
            try:
                dt.date.fromisoformat(entry["date"])
            except ValueError:
                problem = f"column 'date': {entry['date']!r} is not a calendar date"
        value = None
        if problem is None:
            try:
                value = float(entry.get(value_column, ""))
            except ValueError:
                expected = f"expected a number in {low:g}..{high:g} ({unit})"
                problem = f"column '{value_column}': {expected}, got {entry.get(value_column)!r}"
        if problem is None and value is not None and not (math.isfinite(value) and low <= value <= high):
            problem = (
                f"column '{value_column}': expected a number in {low:g}..{high:g} ({unit}), got {entry[value_column]}"
            )
        optional = {}
        for name in ("task_version", "cost_usd", "latency_s", "expert_minutes"):
            text_value = entry.get(name, "")
            if problem is None and text_value:
                bound = NUMERIC[name][1]
                try:
                    number_value = float(text_value)
                    if not math.isfinite(number_value) or not 0 <= number_value <= bound:
                        raise ValueError
                    optional[name] = text_value
                except ValueError:
                    problem = f"column '{name}': expected a number from 0 to {bound:g}, got {text_value[:40]!r}"
        if problem is not None:
            refused.append(f"{source}: row {number}: {problem}")
            continue
        assert value is not None
        if unit == "level":
            score, k, n, level = (value - 1) * 25.0, value - 1, 4.0, _num(value)
        else:
            fraction = value if unit == "fraction" else value / 100
            score, k, n, level = fraction * 100, fraction * trials, trials, ""
        rows.append(
            {
                "run_id": f"import-{tag}",
                "agent": entry["agent"],
                "version": entry["version"],
                "date": entry["date"],
                "period": entry["period"],
                "suite": entry.get("suite", ""),
                "kind": entry.get("kind", ""),
                "task": entry["task"],
                "task_version": optional.get("task_version", "1"),
                "variant": "",
                "repeat": "0",
                "outcome": "imported",
                "score": _num(score),
                "level": level,
                "k": _num(k),
                "n": _num(n),
                "cost_usd": optional.get("cost_usd", ""),
                "latency_s": optional.get("latency_s", ""),
                "expert_minutes": optional.get("expert_minutes", ""),
                "source": source,
                # an imported cost and time are the system's own (a leaderboard's price and speed per task)
                "system_cost_usd": optional.get("cost_usd", ""),
                "system_latency_s": optional.get("latency_s", ""),
            }
        )
    return ImportReport(rows, refused, unit, reason)


def import_path(report_dir: Path, source: Path, text: str) -> Path:
    """Where an import is kept: one file per imported file content (importing it twice replaces it)."""
    tag = hashlib.sha256(text.encode()).hexdigest()[:8]
    stem = re.sub(r"[^A-Za-z0-9_.-]+", "-", source.stem)[:60]
    return history_dir(report_dir) / f"import-{stem}-{tag}.csv"
