"""`harness gem score FILE.jsonl`: GEM-Bench's metrics for responses that already exist (logged from a
production ad-injection system, say), without running a solution.

Each line: {"id", "scenario": "chatbot" | "search", "query", "response", "product": {"name", "url", "desc"}
or null}. The same splitter, embeddings (through the call cache) and metric functions as the benchmark;
with --judge, the six judged metrics too. A malformed line is reported with its number and skipped.
"""

from __future__ import annotations

import asyncio
import json
import statistics
import time
from dataclasses import dataclass, field
from pathlib import Path
from types import SimpleNamespace
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from harness.benchmarks.gem.adllm import SolutionOutput
from harness.benchmarks.gem.evaluate import evaluate_output
from harness.benchmarks.gem.judges import JUDGED_METRICS
from harness.benchmarks.gem.metrics import METRIC_NAMES
from harness.context import ItemContext, Services
from harness.result import describe_exception
from harness.task import TaskMetadata


class ScoredProduct(BaseModel):
    model_config = ConfigDict(extra="allow")
    name: str | None
    url: str | None = None
    desc: str | None = None


class ResponseLine(BaseModel):
    model_config = ConfigDict(extra="forbid", allow_inf_nan=False)
    id: str = Field(min_length=1, max_length=200)
    scenario: Literal["chatbot", "search"]
    query: str
    response: str
    product: ScoredProduct | None


@dataclass
class ScoreRun:
    rows: list[dict[str, Any]] = field(default_factory=list)
    problems: list[str] = field(default_factory=list)


def read_lines(path: Path) -> tuple[list[ResponseLine], list[str]]:
    lines, problems = [], []
    for number, text in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
        if not text.strip():
            continue
        try:
            lines.append(ResponseLine.model_validate(json.loads(text)))
        except ValueError as exc:
            detail = (
                "; ".join(f"{'.'.join(str(p) for p in e['loc'])}: {e['msg']}" for e in exc.errors()[:3])
                if isinstance(exc, ValidationError)
                else f"not valid JSON ({exc})"
            )
            problems.append(f"{path}:{number}: {detail}")
    return lines, problems


def _task(line: ResponseLine, judge: bool) -> Any:
    inputs = SimpleNamespace(dataset="scored", scenario=line.scenario, query=line.query, candidates=())
    scoring = SimpleNamespace(judges=tuple(m.name for m in JUDGED_METRICS) if judge else ())
    return SimpleNamespace(
        id=line.id,
        version=1,
        kind="gem",
        suite="gem-score",
        inputs=inputs,
        ground_truth=SimpleNamespace(labels=()),
        scoring=scoring,
        metadata=TaskMetadata(),
    )


async def _score_one(services: Services, line: ResponseLine, judge: bool) -> dict[str, Any]:
    ctx = ItemContext(task=_task(line, judge), services=services)
    product = line.product.model_dump() if line.product is not None else None
    try:
        scores = await evaluate_output(ctx, SolutionOutput(line.response, product, {}), judge=judge)
    except Exception as exc:
        return {"id": line.id, "error": describe_exception(exc)}
    names = list(METRIC_NAMES) + ([m.name for m in JUDGED_METRICS] if judge else [])
    return {
        "id": line.id,
        "sentences": [s["text"] for s in scores.details["sentences"]],
        "metrics": {name: scores.metrics.get(name) for name in names},
        "ad_sentences": scores.details["ad_sentences"],
        "judge_levels": scores.judge_levels,
        "error": None,
    }


async def score_lines(services: Services, lines: list[ResponseLine], judge: bool) -> list[dict[str, Any]]:
    try:
        return list(await asyncio.gather(*(_score_one(services, line, judge) for line in lines)))
    finally:
        await services.client.close()


def summary(rows: list[dict[str, Any]]) -> dict[str, float | None]:
    """The mean of each metric over the responses where it applies."""
    names = {name for row in rows if row.get("metrics") for name in row["metrics"]}
    means: dict[str, float | None] = {}
    for name in sorted(names):
        values = [row["metrics"][name] for row in rows if row.get("metrics") and row["metrics"][name] is not None]
        means[name] = round(statistics.fmean(values), 4) if values else None
    return means


def write_report(report_dir: Path, source: Path, rows: list[dict[str, Any]], problems: list[str]) -> Path:
    folder = report_dir / f"gem-score-{time.strftime('%Y%m%dT%H%M%S', time.gmtime())}"
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / "gem_scores.json"
    document = {"source": str(source), "means": summary(rows), "problems": problems, "responses": rows}
    path.write_text(json.dumps(document, ensure_ascii=False), encoding="utf-8")
    return path
