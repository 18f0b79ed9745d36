"""Write a finished run: results.json (versioned schema), summary.md, and the CI step summary."""

from __future__ import annotations

import datetime as dt
import json
import os
import platform
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

import harness
from harness.atomic_write import WriteFailed, write_atomic
from harness.kinds import run_records
from harness.llm.endpoint import ModelName
from harness.report.aggregate import by_suite, summarize
from harness.report.agreement import judge_agreement
from harness.report.markdown import render_summary
from harness.report.repeats import repeat_summary
from harness.report.served import served_models
from harness.report.tables import compute_tables
from harness.result import RESULT_SCHEMA_VERSION
from harness.secrets import redact
from harness.settings import Settings
from harness.sharding import is_shard, run_fields
from harness.wellformed import well_formed_text

LOCAL_NOTICE = (
    "These scores come from a tiny offline model (SmolLM2-135M) and local embeddings. They show that the "
    "pipeline works; they are not meaningful benchmark results. Use --model for a real evaluation."
)


def git_revision(root: Path) -> dict[str, Any]:
    def git(*args: str) -> str | None:
        try:
            out = subprocess.run(["git", *args], cwd=root, capture_output=True, text=True, timeout=5, check=True)
        except (OSError, subprocess.SubprocessError):
            return None
        return out.stdout.strip()

    revision = git("rev-parse", "HEAD")
    dirty = git("status", "--porcelain")
    return {"revision": revision, "dirty": bool(dirty) if dirty is not None else None}


def _iso(ts: float | None) -> str | None:
    return dt.datetime.fromtimestamp(ts, dt.UTC).isoformat() if ts else None


def withhold_references(result: dict[str, Any]) -> dict[str, Any]:
    """A result without what would reveal a private test set's answers: its reference, its one-line
    summary, and the judges' prompts (which quote the reference)."""
    judges = [{k: v for k, v in j.items() if k != "prompt"} for j in result.get("judges") or []]
    return {**result, "reference": None, "expected": None, "judges": judges}


def build_run(config: pytest.Config, state: Any, settings: Settings, exit_status: int) -> dict[str, Any]:
    results = sorted(state.results, key=lambda r: r["nodeid"])
    if settings.withhold_references:
        results = [withhold_references(r) for r in results]
    if state.tables is None:
        state.tables = compute_tables(results)
    # The notice is about scores: the embedded chat model answering or judging. Local embeddings alone
    # (MiniLM, a real embedding model) do not make scores meaningless.
    local = settings.uses_local_models or any(
        ModelName(call["model"]).embedded and call["namespace"] != "embed" for r in results for call in r["calls"]
    )
    return {
        "schema_version": RESULT_SCHEMA_VERSION,
        "run": {
            "run_id": state.run_id,
            "harness_version": harness.__version__,
            "started_at": _iso(state.started_at),
            "finished_at": _iso(state.finished_at),
            "duration_s": round((state.finished_at or state.started_at) - state.started_at, 3),
            "git": git_revision(settings.rootdir),
            "python": platform.python_version(),
            "platform": platform.platform(),
            "argv": list(config.invocation_params.args),
            "options": settings.public(),
            "benchmarks": run_records(results, settings.public()),
            "exit_status": int(exit_status),
            "local_models": local,
            "notice": LOCAL_NOTICE if local else None,
            "warnings": [*settings.warnings, *state.warnings],
            "references_withheld": settings.withhold_references,
            "incomplete": getattr(state, "incomplete", None),
            "resumed": len(state.resume.kept) if getattr(state, "resume", None) is not None else None,
            "calibration": _calibration(results, settings),
            **run_fields(config),  # inputs (what the run read), shard (with --shard)
        },
        **run_sections(results, state.tables),
        "results": results,
    }


def _calibration(results: list[dict[str, Any]], settings: Settings) -> list[dict[str, Any]]:
    """The calibration each labelled set covering the run's suites holds for its judges (`found` false
    when they were never calibrated on it); a problem reading them is recorded, never the loss of the run."""
    from harness.calibration.records import run_calibration

    suites = {str(r.get("suite")) for r in results if r.get("suite")}
    try:
        return run_calibration(
            settings.labelled_sets or settings.rootdir / "calibration",
            settings.report_dir,
            suites,
            settings.judge_models,
        )
    except Exception as exc:  # the run's own files come first
        return [{"error": f"{type(exc).__name__}: {exc}"}]


def run_sections(results: list[dict[str, Any]], tables: list[dict[str, Any]] | None = None) -> dict[str, Any]:
    """What a run's results add up to: totals, suites, the benchmarks' tables and the judges' agreement
    (for a pytest run, and for shards joined by `harness merge`)."""
    return {
        "totals": summarize(results),
        "suites": by_suite(results),
        "tables": tables if tables is not None else compute_tables(results),
        "judge_agreement": judge_agreement(results),
        "served_models": served_models(results),
        "repeats": repeat_summary(results),
    }


def _history_rows(run: dict[str, Any], settings: Settings) -> list[dict[str, str]]:
    """The run's items as rows of the history (reports/history/<run-id>.csv) the index and TMF read."""
    from harness.analysis import history

    return history.run_rows(
        run, version=settings.agent_version or "", date=settings.release_date, period=settings.period
    )


def _tech_market_fit(run: dict[str, Any], settings: Settings, own: list[dict[str, str]]) -> dict[str, Any]:
    """TMF for the run's suites over the whole history: every earlier run, and this run's rows `own` (not
    yet written: the history counts a run only once its results.json is complete). A problem here is
    reported in the section, never allowed to lose the run's report."""
    from harness.analysis import history, index, tmf

    suites = sorted(run["suites"])
    base = {"suites": suites, "hourly_rate": settings.hourly_rate}
    run_id = run["run"]["run_id"]
    try:
        earlier = [r for r in history.read_history(settings.report_dir) if r.get("run_id") != run_id]
        mine = [{c: r.get(c, "") for c in history.COLUMNS} for r in own if history.row_problem(r) is None]
        rows = index.select(earlier + mine, suites=suites, include_incomplete=settings.include_incomplete)
        doc = tmf.assess_history(
            rows, hourly_rate=settings.hourly_rate or 0.0, min_score=settings.min_score,
            expert_score=settings.expert_score, shape=settings.acceptance_shape,
        )  # fmt: skip
    except Exception as exc:  # the run's own files come first
        return {**base, "error": f"{type(exc).__name__}: {exc}"}
    return {**base, **doc}


def _comparison(run: dict[str, Any], settings: Settings) -> dict[str, Any]:
    """This run against --baseline (the gate's verdict included)."""
    from harness.analysis.compare import compare_runs, gate_line

    assert settings.baseline is not None
    try:
        base = json.loads(settings.baseline.read_text(encoding="utf-8"))
        report = compare_runs(base, run, fail_margin=settings.fail_margin, tolerance=settings.tolerance)
    except (OSError, ValueError, KeyError, TypeError) as exc:
        return {"baseline": str(settings.baseline), "error": f"the baseline cannot be read: {exc}", "failed": True}
    label = f"{base.get('run', {}).get('run_id', '?')} ({settings.baseline})"
    gate = gate_line(report) if settings.fail_margin is not None else None
    return {"baseline": label, **report.to_json(), "gate": gate}


def _write_html(run: dict[str, Any], directory: Path) -> Path | None:
    """report.html; a failure to draw it is a warning, never the loss of the run's other files."""
    from harness.report.html import write_html

    try:
        return write_html(run, directory / "report.html")
    except WriteFailed:
        raise  # the disk: results.json would fail the same way, and must not be written after a warning
    except Exception as exc:  # the JSON and Markdown reports come first
        run["run"]["warnings"].append(f"report.html could not be written: {type(exc).__name__}: {exc}")
        return None


def write_run(config: pytest.Config, state: Any, settings: Settings, exit_status: int) -> dict[str, Any]:
    """Write the run's files and return the run document (with "report_dir" added). A shard's run adds
    nothing to the history: the merged run does, once (see harness.report.merge)."""
    run = redact(build_run(config, state, settings, exit_status))
    directory, html = save_run(run, settings, history=not is_shard(config))
    if settings.baseline is not None:
        state.comparison = run["comparison"]
    reporter = config.pluginmanager.getplugin("terminalreporter")
    if reporter is not None:
        writer = getattr(reporter, "_tw", None)  # xdist's progress leaves "[100%]" without a newline
        if writer is not None and getattr(writer, "width_of_current_line", 0):
            writer.line()
        reporter.write_line(f"harness report: {html or directory / 'summary.md'} (data: {directory / 'results.json'})")
    else:
        print(f"harness report: {directory}", file=sys.stderr)
    return {**run, "report_dir": str(directory)}


def save_run(run: dict[str, Any], settings: Settings, *, history: bool = True) -> tuple[Path, Path | None]:
    """Write a finished run document (already redacted): a pytest run, or shards joined by `harness merge`.
    Tech-Market Fit and the comparison with --baseline when asked (added to `run`), then report.html,
    results.json and summary.md, and only once results.json is whole: its history file (unless `history`
    is false), LATEST, the saved baseline and the CI step summary. Every file is written whole or not at
    all (harness.atomic_write); one that cannot be is a WriteFailed naming it, and nothing after it is
    written (a run the disk could not hold is not counted by the history). Returns the run's folder and
    report.html's path (None without one)."""
    from harness.analysis.history import history_dir, write_rows

    run_id = run["run"]["run_id"]
    directory = settings.report_dir / run_id
    rows = _history_rows(run, settings) if history else []
    if settings.hourly_rate is not None:
        run["tech_market_fit"] = _tech_market_fit(run, settings, rows)
    if settings.baseline is not None:
        run["comparison"] = _comparison(run, settings)
    html = _write_html(run, directory) if settings.html else None
    # Compact on purpose: json's C encoder is only used without indent (about 10x faster on large runs).
    # `harness report --json` or jq pretty-print it.
    document = well_formed_text(json.dumps(run, ensure_ascii=False))
    write_atomic(directory / "results.json", document)
    markdown = well_formed_text(render_summary(run))
    write_atomic(directory / "summary.md", markdown)
    if history:
        write_rows(history_dir(settings.report_dir) / f"{run_id}.csv", rows)
    incomplete = run["run"].get("incomplete")
    if not incomplete:  # an interrupted run is never "the latest run": `harness report RUN` shows it
        write_atomic(settings.report_dir / "LATEST", run_id + "\n")
    if settings.save_baseline is not None and incomplete:
        print(f"harness: --save-baseline skipped: run {run_id} is incomplete", file=sys.stderr)
    elif settings.save_baseline is not None:
        write_atomic(settings.save_baseline, document)
    step_summary = os.environ.get("GITHUB_STEP_SUMMARY")
    if step_summary:
        with open(step_summary, "a", encoding="utf-8") as handle:
            handle.write(markdown + "\n")
    return directory, html
