"""Finding and reading a finished run's results.json, however the user names the run."""

from __future__ import annotations

import json
import math
from pathlib import Path
from typing import Any

from harness.errors import ConfigError

MAX_RUN_BYTES = 512 * 2**20


class RunDocumentError(ConfigError):
    """A results.json that is not one: unreadable, or a field of the wrong type. The message names both."""


def _number_problem(value: Any, low: float | None = None, high: float | None = None) -> str | None:
    if isinstance(value, bool) or not isinstance(value, int | float):
        return f"must be a number, got {type(value).__name__} {str(value)[:40]!r}"
    if not math.isfinite(value):
        return f"must be a finite number, got {value}"
    if (low is not None and value < low) or (high is not None and value > high):
        return f"must lie in {low:g}..{high:g}, got {value:g}"
    return None


def run_document_problem(document: Any) -> str | None:
    """What makes `document` unusable as a finished run (for a baseline, a comparison, a merge): the first
    problem, with where it is; None when the run can be read. Pure."""
    if not isinstance(document, dict):
        return f"the document is a JSON {type(document).__name__}, not an object with run and results"
    if not isinstance(document.get("run"), dict):
        return "run must be an object (the run's metadata)"
    if (problem := _run_meta_problem(document["run"])) is not None:
        return problem
    for name in ("totals", "suites"):
        if document.get(name) is not None and not isinstance(document[name], dict):
            return f"{name} must be an object, got {type(document[name]).__name__}"
    if document.get("tables") is not None and not (
        isinstance(document["tables"], list) and all(isinstance(t, dict) for t in document["tables"])
    ):
        return "tables must be a list of objects"
    results = document.get("results")
    if not isinstance(results, list):
        return f"results must be a list of item results, got {type(results).__name__}"
    for index, result in enumerate(results):
        where = f"results[{index}]"
        if not isinstance(result, dict):
            return f"{where} must be an object, got {type(result).__name__}"
        for field in ("suite", "task_id"):
            if not isinstance(result.get(field), str) or not result[field]:
                return f"{where}.{field} must be a non-empty string, got {result.get(field)!r:.40}"
        if not isinstance(result.get("repeat", 0), int) or isinstance(result.get("repeat"), bool):
            return f"{where}.repeat must be a whole number, got {result.get('repeat')!r:.40}"
        if result.get("variant") is not None and not isinstance(result["variant"], str):
            return f"{where}.variant must be a string or null"
        version = result.get("task_version")
        if version is not None and (not isinstance(version, int) or isinstance(version, bool)):
            return f"{where}.task_version must be a whole number or null, got {version!r:.40}"
        if result.get("score") is not None and (problem := _number_problem(result["score"], 0, 100)):
            return f"{where}.score {problem}"
        metrics = result.get("metrics", {})
        if not isinstance(metrics, dict):
            return f"{where}.metrics must be an object"
        for name, value in metrics.items():
            if value is not None and (problem := _number_problem(value)):
                return f"{where}.metrics.{name} {problem}"
        if result.get("error") is not None and not isinstance(result["error"], dict):
            return f"{where}.error must be an object or null"
        if result.get("outcome") is not None and not isinstance(result["outcome"], str):
            return f"{where}.outcome must be a string, got {type(result['outcome']).__name__}"
        incomplete = result.get("incomplete") or []
        if not (isinstance(incomplete, list) and all(isinstance(m, str) for m in incomplete)):
            return f"{where}.incomplete must be a list of metric names"
    return None


def _run_meta_problem(run: dict[str, Any]) -> str | None:
    """The run metadata the comparison, the gate and the leaderboard read: `run_id` and `harness_version`
    (strings), `options` (an object: the system's label, the judges and the embedding model come from it)
    and `benchmarks` (an object of objects, each with an optional `compare` object). Pure."""
    for name in ("run_id", "harness_version", "started_at"):
        if run.get(name) is not None and not isinstance(run[name], str):
            return f"run.{name} must be a string, got {type(run[name]).__name__} {str(run[name])[:40]!r}"
    if run.get("options") is not None and not isinstance(run["options"], dict):
        return f"run.options must be an object (the run's options), got {type(run['options']).__name__}"
    benchmarks = run.get("benchmarks")
    if benchmarks is None:
        return None
    if not isinstance(benchmarks, dict):
        return f"run.benchmarks must be an object (one entry per task kind), got {type(benchmarks).__name__}"
    for kind, entry in benchmarks.items():
        if not isinstance(entry, dict):
            return f"run.benchmarks.{kind:.40} must be an object, got {type(entry).__name__}"
        if entry.get("compare") is not None and not isinstance(entry["compare"], dict):
            return f"run.benchmarks.{kind:.40}.compare must be an object, got {type(entry['compare']).__name__}"
    return None


def read_run_document(path: Path) -> dict[str, Any]:
    """A results.json, read strictly: NaN and infinities are refused (they are not JSON), nesting past reason
    and files that are not UTF-8 are refused, and every field the comparison reads is checked; a
    RunDocumentError names the file and the problem."""

    def refuse(constant: str) -> Any:
        raise ValueError(f"{constant} is not a JSON number")

    try:
        if path.stat().st_size > MAX_RUN_BYTES:
            raise RunDocumentError(f"{path}: over {MAX_RUN_BYTES // 2**20} MiB, not a results.json")
        document = json.loads(path.read_text(encoding="utf-8"), parse_constant=refuse)
    except RunDocumentError:
        raise
    except (OSError, UnicodeDecodeError, ValueError, RecursionError) as exc:
        reason = "it nests too deeply" if isinstance(exc, RecursionError) else str(exc)[:200]
        raise RunDocumentError(f"{path}: not a readable results.json ({reason})") from None
    problem = run_document_problem(document)
    if problem is not None:
        raise RunDocumentError(f"{path}: not a run's results.json: {problem}")
    return document


def run_path(report_dir: Path, ref: str | None) -> Path:
    """results.json of a run named by id ("latest" or None: reports/LATEST), by its folder, or by the
    file itself. Exits with one line when there is no such run."""
    if ref not in (None, "latest"):
        given = Path(str(ref))
        if given.is_file():
            return given
        if (given / "results.json").is_file():
            return given / "results.json"
    else:
        latest = report_dir / "LATEST"
        if not latest.exists():
            raise SystemExit(f"harness: no runs in {report_dir} (run pytest first, or pass --report-dir)")
        ref = latest.read_text(encoding="utf-8").strip()
    path = report_dir / str(ref) / "results.json"
    if not path.is_file():
        raise SystemExit(
            f"harness: {ref} is not a results.json, a run folder, or a run id in {report_dir} ({path} does not exist)"
        )
    return path


def load_run(report_dir: Path, ref: str | None) -> dict[str, Any]:
    """The run document, checked to be one (RunDocumentError, a ConfigError, otherwise)."""
    return read_run_document(run_path(report_dir, ref))


def system_label(options: dict[str, Any]) -> str:
    """What a report calls the system under test: the model, or the agent and how it is reached."""
    if options.get("agent"):
        return f"agent:{options['agent']}"
    if options.get("agent_cmd"):
        return f"agent-cmd:{options['agent_cmd']}"
    if options.get("agent_url"):
        return f"agent-url:{options['agent_url']}"
    return str(options.get("model"))
