"""The calibration of a run's judges: measured from a calibration run, stored, found for a later run,
checked against `--min-judge-agreement`, and recorded in every run (`run.calibration`).

A calibration is stored as `<report-dir>/calibrations/<set>--<judges digest>.json`; a run finds the one of
its own judges (the same models, in any order) for each labelled set that covers one of its suites. The
gate's statistic is the set's primary one: quadratically weighted kappa on levels (Recruitment), Cohen's
kappa on selected-or-not (Marketing); every judge of the panel must reach the threshold.
"""

from __future__ import annotations

import datetime as dt
import hashlib
import json
from pathlib import Path
from typing import Any

from harness.calibration.labels import LabelledSet, read_set, shipped_sets
from harness.calibration.measure import label_agreement
from harness.errors import ConfigError

PRIMARY = {"level": ("level", "kappa_quadratic"), "creators": ("selected", "kappa")}
LEVELS = [1, 2, 3, 4, 5]


def judges_digest(judges: list[str]) -> str:
    return hashlib.sha256("\n".join(sorted(judges)).encode()).hexdigest()[:12]


def calibration_path(report_dir: Path, set_name: str, judges: list[str]) -> Path:
    return report_dir / "calibrations" / f"{set_name}--{judges_digest(judges)}.json"


def _pairs_levels(labelled: LabelledSet, results: list[dict[str, Any]]) -> tuple[dict[str, dict[str, list]], int]:
    """{judge: {"level": [(label, judge level), ...]}} and how many labelled answers no judge verdict met."""
    by_task = labelled.by_task()
    pairs: dict[str, dict[str, list[tuple[Any, Any]]]] = {}
    unjudged = 0
    for result in results:
        items = by_task.get(str(result.get("task_id")), [])
        repeat = int(result.get("repeat") or 0)
        if result.get("suite") not in labelled.suites or repeat >= len(items):
            continue
        levels = ((result.get("judge_levels") or {}).get("level")) or {}
        if result.get("score") is None or not levels:
            unjudged += 1
            continue
        for judge, level in levels.items():
            pairs.setdefault(judge, {"level": []})["level"].append((items[repeat].level, int(level)))
    return pairs, unjudged


def _pairs_creators(labelled: LabelledSet, results: list[dict[str, Any]]) -> tuple[dict[str, dict[str, list]], int]:
    from harness.world import normalize_url

    by_task = labelled.by_task()
    pairs: dict[str, dict[str, list[tuple[Any, Any]]]] = {}
    unjudged = 0
    for result in results:
        items = by_task.get(str(result.get("task_id")), [])
        repeat = int(result.get("repeat") or 0)
        if result.get("suite") not in labelled.suites or repeat >= len(items):
            continue
        rows = {
            normalize_url(str(row.get("url") or row.get("link") or "")): row
            for row in (result.get("details") or {}).get("recommendations") or []
        }
        for creator in items[repeat].creators:
            verdicts = (rows.get(normalize_url(creator.link)) or {}).get("verdicts") or {}
            if not verdicts:
                unjudged += 1
                continue
            for judge, verdict in verdicts.items():
                row = pairs.setdefault(judge, {"selected": [], "overall": []})
                row["selected"].append((creator.selected, verdict.get("selected") == "Yes"))
                row["overall"].append((creator.overall, int(verdict.get("overall"))))
    return pairs, unjudged


def calibrate(labelled: LabelledSet, run: dict[str, Any], *, resamples: int = 2000) -> dict[str, Any]:
    """The calibration record of a finished calibration run of `labelled` (pure but for the clock)."""
    results = run.get("results") or []
    collect = _pairs_levels if labelled.measure == "level" else _pairs_creators
    pairs, unjudged = collect(labelled, results)
    per_judge: dict[str, dict[str, Any]] = {}
    for judge, dimensions in sorted(pairs.items()):
        per_judge[judge] = {}
        for dimension, rows in dimensions.items():
            human, said = [h for h, _ in rows], [j for _, j in rows]
            levels: list[Any] = [False, True] if dimension == "selected" else LEVELS
            per_judge[judge][dimension] = label_agreement(
                human, said, levels, ordinal=dimension != "selected", resamples=resamples
            )
    dimension, statistic = PRIMARY[labelled.measure]
    options = (run.get("run") or {}).get("options") or {}
    return {
        "set": labelled.name,
        "set_file": str(labelled.path),
        "set_digest": labelled.digest,
        "suites": labelled.suites,
        "measure": labelled.measure,
        "labelled_by": labelled.labelled_by,
        "units": labelled.units(),
        "unjudged": unjudged,
        "judges": sorted(options.get("judge_models") or per_judge),
        "run_id": (run.get("run") or {}).get("run_id"),
        "made_at": dt.datetime.now(dt.UTC).isoformat(timespec="seconds"),
        "primary": {"dimension": dimension, "statistic": statistic},
        "per_judge": per_judge,
    }


def primary_values(record: dict[str, Any]) -> dict[str, float | None]:
    """Each judge's value of the set's primary statistic."""
    dimension, statistic = record["primary"]["dimension"], record["primary"]["statistic"]
    return {
        judge: ((dims.get(dimension) or {}).get(statistic) or {}).get("value")
        for judge, dims in record["per_judge"].items()
    }


def find_calibration(report_dir: Path, set_name: str, judges: list[str]) -> dict[str, Any] | None:
    path = calibration_path(report_dir, set_name, judges)
    if not path.is_file():
        return None
    try:
        record = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError) as exc:
        raise ConfigError(f"{path}: not a readable calibration ({exc}); run harness judges calibrate again") from None
    if sorted(record.get("judges") or []) != sorted(judges):
        return None
    return record


def run_calibration(sets_dir: Path, report_dir: Path, suites: set[str], judges: list[str]) -> list[dict[str, Any]]:
    """For each labelled set in `sets_dir` covering one of `suites`: the calibration of these judges on it
    (`found` false when there is none yet). What every run records as `run.calibration`."""
    entries = []
    for path in shipped_sets(sets_dir):
        try:
            labelled = read_set(path)
        except ConfigError as exc:
            entries.append({"set_file": str(path), "error": str(exc)})
            continue
        covered = sorted(suites & set(labelled.suites))
        if not covered:
            continue
        record = find_calibration(report_dir, labelled.name, judges)
        entry: dict[str, Any] = {"set": labelled.name, "suites": covered, "judges": sorted(judges), "found": False}
        if record is not None:
            entry.update(
                found=True,
                file=str(calibration_path(report_dir, labelled.name, judges)),
                run_id=record.get("run_id"),
                made_at=record.get("made_at"),
                current=record.get("set_digest") == labelled.digest,  # false: the labels changed since
                statistic=f"{record['primary']['dimension']} {record['primary']['statistic']}",
                values=primary_values(record),
            )
        entries.append(entry)
    return entries


def gate_problem(entries: list[dict[str, Any]], minimum: float) -> str | None:
    """Why a run is refused under `--min-judge-agreement minimum`, in one line; None when it may run."""
    for entry in entries:
        if entry.get("error"):
            return entry["error"]
        judges = ", ".join(entry["judges"])
        if not entry["found"]:
            return (
                f"--min-judge-agreement {minimum:g}: the judges {judges} have no calibration on the {entry['set']} "
                f"labelled set (suites {', '.join(entry['suites'])}); run `harness judges calibrate "
                f"calibration/{entry['set']}.yaml` with the same --judge-model first"
            )
        if not entry["current"]:
            return (
                f"--min-judge-agreement {minimum:g}: the {entry['set']} labels changed since the judges were "
                f"calibrated ({entry['file']}); run `harness judges calibrate` again"
            )
        low = {j: v for j, v in entry["values"].items() if v is None or v < minimum}
        if low:
            shown = ", ".join(f"{j} {'undefined' if v is None else f'{v:.3f}'}" for j, v in sorted(low.items()))
            return (
                f"--min-judge-agreement {minimum:g}: on the {entry['set']} labelled set the judges' "
                f"{entry['statistic']} is below it ({shown}); the run is refused before any call"
            )
    return None
