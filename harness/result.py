"""The Result of one item as plain JSON values: what crosses xdist and what reports are made of."""

from __future__ import annotations

import math
import numbers
import traceback
from collections import defaultdict
from typing import Any

from harness.errors import HarnessError, SystemFailure
from harness.llm.records import CallRecord
from harness.reference import expected_line, reference_of
from harness.scores import Scores
from harness.secrets import redact_text
from harness.tracebacks import plain_traceback

RESULT_SCHEMA_VERSION = 3


def plain_json(value: Any, where: str = "value") -> Any:
    """`value` as JSON-safe Python: numpy scalars become numbers, tuples lists, keys strings; NaN and
    infinity are refused (they are not JSON), with the path to the offending value."""
    if value is None or isinstance(value, str | bool):
        return value
    if isinstance(value, numbers.Integral):
        return int(value)
    if isinstance(value, numbers.Real):
        number = float(value)
        if not math.isfinite(number):
            raise ValueError(f"{where} is {number}, which is not valid JSON")
        return number
    if isinstance(value, dict):
        return {str(k): plain_json(v, f"{where}.{k}") for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [plain_json(v, f"{where}[{i}]") for i, v in enumerate(value)]
    if hasattr(value, "item") and callable(value.item):  # a numpy scalar of another kind
        return plain_json(value.item(), where)
    raise ValueError(f"{where} is a {type(value).__name__}, which cannot be written to JSON")


def usage_of(records: list[dict[str, Any]]) -> dict[str, Any]:
    """Token, cost and cache totals of a list of call records (plain dicts), overall and per stage."""
    costs = [r["cost_usd"] for r in records]
    by_stage: dict[str, dict[str, Any]] = defaultdict(
        lambda: {"calls": 0, "input_tokens": 0, "output_tokens": 0, "cost_usd": 0.0, "cache_hits": 0}
    )
    for record in records:
        row = by_stage[record.get("stage") or record["namespace"]]
        row["calls"] += 1
        row["input_tokens"] += record["input_tokens"]
        row["output_tokens"] += record["output_tokens"]
        row["cost_usd"] = round(row["cost_usd"] + (record["cost_usd"] or 0.0), 8)
        row["cache_hits"] += bool(record["cache_hit"])
    return {
        "calls": len(records),
        "input_tokens": sum(r["input_tokens"] for r in records),
        "output_tokens": sum(r["output_tokens"] for r in records),
        "cost_usd": round(sum(c for c in costs if c), 8),
        "cost_known": all(c is not None for c in costs),
        # the calls at their price whether paid now or by an earlier run (cache hits): the system's cost
        "priced_usd": round(sum(r.get("priced_usd") or 0.0 for r in records), 8),
        "priced_known": all(r.get("priced_usd") is not None for r in records),
        "cache_hits": sum(bool(r["cache_hit"]) for r in records),
        "errors": sum(r["error"] is not None for r in records),
        "by_stage": dict(by_stage),
    }


def system_usage(records: list[dict[str, Any]], seconds: float | None) -> dict[str, Any]:
    """The system under test's own share of an item, without its evaluation (judges, extraction, rubric):
    what Tech-Market Fit sets against an expert. `cost_usd`: its calls at their price, cached or not (None
    when a price is unknown). `latency_s`: the wall time of its work, with each reply read from the cache
    counted at the time the call took when it was made (None when the system did not run, or a replayed
    call's time was not kept)."""
    mine = [r for r in records if r.get("system") or r.get("namespace") == "sut"]
    priced = [r.get("priced_usd") for r in mine]
    replayed = [r.get("replayed_latency_s", 0.0) for r in mine]
    known_cost = all(isinstance(v, int | float) for v in priced)
    known_time = seconds is not None and all(isinstance(v, int | float) for v in replayed)
    return {
        "calls": len(mine),
        "cost_usd": round(sum(v for v in priced if v is not None), 8) if known_cost else None,
        "latency_s": round((seconds or 0.0) + sum(v for v in replayed if v is not None), 4) if known_time else None,
    }


def describe_exception(exc: BaseException) -> dict[str, str]:
    """An error entry for the report: harness errors by their kind and fault, anything else as an internal
    error (the harness's fault, with a traceback for the bug report)."""
    if isinstance(exc, HarnessError):
        return {"kind": exc.kind, "message": redact_text(str(exc))[:2000], "fault": exc.fault}
    frames = traceback.extract_tb(exc.__traceback__)
    where = f" at {frames[-1].filename}:{frames[-1].lineno}" if frames else ""
    text = "".join(plain_traceback(exc).splitlines(keepends=True)[-80:])
    return {
        "kind": "internal",
        "message": redact_text(f"{type(exc).__name__}: {exc}{where}")[:2000],
        "fault": "harness",
        "traceback": redact_text(text)[-8000:],  # shown with pytest's --tb; a bug report needs it
    }


def _identity(task: Any, variant: str | None, repeat: int, labels: dict[str, str]) -> dict[str, Any]:
    return {
        "task_id": task.id,
        "task_version": task.version,
        "suite": task.suite,
        "kind": task.kind,
        "variant": variant,
        "repeat": repeat,
        "labels": labels,
        "metadata": task.metadata.model_dump(mode="json"),
    }


PROMPT_CHARS = 6000  # the report shows the prompt; 5,000 items must not make results.json huge


def clip_prompt(prompt: str | None) -> str | None:
    """The prompt as the report keeps it: the head, and how much was left out."""
    if prompt is None or len(prompt) <= PROMPT_CHARS:
        return prompt
    return prompt[:PROMPT_CHARS] + f"\n[... {len(prompt) - PROMPT_CHARS:,} more characters not kept]"


def build_result(
    *,
    task: Any,
    variant: str | None,
    repeat: int,
    labels: dict[str, str],
    outcome: Scores | BaseException,
    records: list[CallRecord],
    judges: list[dict[str, Any]],
    pass_threshold: float,
    elapsed_s: float,
    prompt: str | None = None,
    system_s: float | None = None,
) -> dict[str, Any]:
    """One item's result. A failure of the system under test (SystemFailure) scores 0 and keeps its reason;
    any other exception (or Scores that are not plain JSON) leaves the item unscored: never a score nobody
    produced. `system_s` is the wall time of the system's own work (ItemContext.system_work)."""
    call_records = [r.to_json() for r in records]
    error = None
    body: dict[str, Any] = {"answer": None, "metrics": {}, "judge_levels": {}, "details": {}, "incomplete": []}
    score = None
    if isinstance(outcome, Scores):
        try:
            body = {
                "answer": outcome.answer,
                "metrics": plain_json(outcome.metrics, "metrics"),
                "judge_levels": plain_json(outcome.judge_levels, "judge_levels"),
                "details": plain_json(outcome.details, "details"),
                "incomplete": sorted(str(m) for m in outcome.incomplete),
            }
            score = round(outcome.score, 4)
        except ValueError as exc:
            error = {
                "kind": "internal", "message": f"{task.kind} returned scores that are not JSON: {exc}",
                "fault": "harness",
            }  # fmt: skip
    else:
        error = describe_exception(outcome)
        if isinstance(outcome, SystemFailure):
            score = 0.0
            body["answer"] = getattr(outcome, "answer", None)
            try:
                body["metrics"] = plain_json(outcome.metrics, "metrics")
            except ValueError:
                body["metrics"] = {}
            try:
                body["details"] = plain_json(getattr(outcome, "details", None) or {}, "details")
            except ValueError:
                body["details"] = {}
    if error is not None and error.get("fault") != "system":
        score = None
    passed = None if score is None else bool(score >= pass_threshold and error is None)
    reference = _reference(task)
    return {
        **_identity(task, variant, repeat, labels),
        "reference": reference,
        "expected": expected_line(reference),
        "score": score,
        "pass_threshold": pass_threshold,
        "passed": passed,
        "outcome": "error" if passed is None else ("passed" if passed else "failed"),
        **body,
        "prompt": clip_prompt(prompt),
        "judges": plain_json(judges, "judges"),
        "error": error,
        "usage": usage_of(call_records),
        "system": system_usage(call_records, system_s),
        "calls": call_records,
        "latency_s": round(elapsed_s, 4),
    }


def _reference(task: Any) -> dict[str, Any] | None:
    """The task's reference, never a reason to lose the item's result."""
    try:
        return plain_json(reference_of(task), "reference")
    except Exception:  # a kind's own reference that fails: the result keeps everything else
        return None


def error_result(
    *,
    task: Any,
    error: dict[str, str],
    variant: str | None = None,
    repeat: int = 0,
    task_id: str | None = None,
    suite: str | None = None,
) -> dict[str, Any]:
    """The result of an item that never produced one (an invalid task entry, a crashed process)."""
    identity = (
        _identity(task, variant, repeat, {})
        if task is not None
        else {
            "task_id": task_id,
            "task_version": None,
            "suite": suite,
            "kind": None,
            "variant": variant,
            "repeat": repeat,
            "labels": {},
            "metadata": {},
        }
    )
    error = {"fault": "harness", **error}
    reference = _reference(task) if task is not None else None
    return {
        **identity,
        "reference": reference,
        "expected": expected_line(reference),
        "score": None,
        "pass_threshold": None,
        "passed": None,
        "outcome": "error",
        "answer": None,
        "metrics": {},
        "judge_levels": {},
        "details": {},
        "incomplete": [],
        "prompt": None,
        "judges": [],
        "error": error,
        "usage": usage_of([]),
        "system": system_usage([], None),
        "calls": [],
        "latency_s": 0.0,
    }
