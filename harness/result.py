"""The Result of one item as plain JSON values: what crosses xdist and what reports are made of."""

from __future__ import annotations

import statistics
import traceback
from typing import Any

from harness.errors import HarnessError
from harness.llm.records import CallRecord
from harness.scores import Scores
from harness.secrets import redact_text

RESULT_SCHEMA_VERSION = 1


def usage_of(records: list[dict[str, Any]]) -> dict[str, Any]:
    """Token, cost and cache totals of a list of call records (plain dicts)."""
    costs = [r["cost_usd"] for r in records]
    return {
        "calls": len(records),
        "input_tokens": sum(r["input_tokens"] for r in records),
        "output_tokens": sum(r["output_tokens"] for r in records),
        "cost_usd": round(sum(c for c in costs if c), 8),
        "cost_known": all(c is not None for c in costs),
        "cache_hits": sum(bool(r["cache_hit"]) for r in records),
        "errors": sum(r["error"] is not None for r in records),
    }


def describe_exception(exc: BaseException) -> dict[str, str]:
    """An error entry for the report: harness errors by their kind, anything else as an internal error."""
    if isinstance(exc, HarnessError):
        return {"kind": exc.kind, "message": redact_text(str(exc))}
    frames = traceback.extract_tb(exc.__traceback__)
    where = f" at {frames[-1].filename}:{frames[-1].lineno}" if frames else ""
    return {"kind": "internal", "message": redact_text(f"{type(exc).__name__}: {exc}{where}")}


def build_result(
    *,
    task: Any,
    runs: list[Scores | BaseException],
    records: list[CallRecord],
    pass_threshold: float,
    elapsed_s: float,
) -> dict[str, Any]:
    """Fold the repeats of a task into one result. Any failed repeat makes the item an error: a mean
    over the repeats that happened to work would be a score nobody produced."""
    repeats = []
    errors = []
    for index, run in enumerate(runs):
        if isinstance(run, Scores):
            repeats.append(
                {
                    "repeat": index,
                    "score": run.score,
                    "answer": run.answer,
                    "metrics": run.metrics,
                    "judge_levels": run.judge_levels,
                    "details": run.details,
                    "error": None,
                }
            )
        else:
            error = describe_exception(run)
            errors.append(error)
            repeats.append({"repeat": index, "score": None, "error": error})
    call_records = [r.to_json() for r in records]
    scored = [r["score"] for r in repeats if r["score"] is not None]
    score = None if errors or not scored else round(statistics.fmean(scored), 4)
    metric_names = sorted({m for r in repeats for m in (r.get("metrics") or {})})
    metrics = {
        name: round(statistics.fmean(vals), 4)
        for name in metric_names
        if (vals := [r["metrics"][name] for r in repeats if name in (r.get("metrics") or {})])
    }
    result = {
        "task_id": task.id,
        "task_version": task.version,
        "suite": task.suite,
        "kind": task.kind,
        "score": score,
        "score_stdev": round(statistics.stdev(scored), 4) if len(scored) > 1 and not errors else None,
        "pass_threshold": pass_threshold,
        "passed": None if score is None else score >= pass_threshold,
        "outcome": "error" if score is None else ("passed" if score >= pass_threshold else "failed"),
        "metrics": metrics,
        "judge_levels": [r.get("judge_levels") for r in repeats if r.get("judge_levels")],
        "repeats": repeats,
        "error": errors[0] if errors else None,
        "usage": usage_of(call_records),
        "calls": call_records,
        "latency_s": round(elapsed_s, 4),
        "metadata": task.metadata.model_dump(mode="json"),
    }
    return result


def error_result(*, task_id: str, suite: str, kind: str | None, error: dict[str, str]) -> dict[str, Any]:
    """The result of an item that never ran (an invalid task entry)."""
    return {
        "task_id": task_id,
        "task_version": None,
        "suite": suite,
        "kind": kind,
        "score": None,
        "score_stdev": None,
        "pass_threshold": None,
        "passed": None,
        "outcome": "error",
        "metrics": {},
        "judge_levels": [],
        "repeats": [],
        "error": error,
        "usage": usage_of([]),
        "calls": [],
        "latency_s": 0.0,
        "metadata": {},
    }
