"""`harness gem score FILE.jsonl`: GEM-Bench's metrics for responses that already exist (logged from a
production ad-injection system, say), without running a solution.

Each line: {"id", "scenario": "chatbot" | "search", "query", "response", "product": {"name", "url", "desc"}
or null}, and for a search line its "candidates": [{"name", "desc", "url", "category", "label": 0 | 1}], the
products it chose from with their relevance labels (CTR is 100 x the label of the chosen one, found by
title, as the benchmark scores CA-Prod). The same splitter, embeddings (through the call cache) and metric
functions as the benchmark; with --judge, the six judged metrics too, the query and the response inside
data sections. A line that cannot be used (not UTF-8, not JSON, nested too deeply, text holding half a
character, not in this schema, an id already used) is reported as file:line and skipped; the other lines
are scored.
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

from pydantic import BaseModel, ConfigDict, Field, ValidationError, model_validator

from harness.benchmarks.gem.adllm import SolutionOutput
from harness.benchmarks.gem.data import Candidate, surrogate_in
from harness.benchmarks.gem.evaluate import evaluate_output
from harness.benchmarks.gem.judges import JUDGED_METRICS
from harness.benchmarks.gem.metrics import METRIC_NAMES
from harness.context import ItemContext, Services
from harness.result import describe_exception
from harness.task_model import TaskMetadata


class ScoredProduct(BaseModel):
    model_config = ConfigDict(extra="allow", defer_build=True)
    name: str | None
    url: str | None = None
    desc: str | None = None


class ScoredCandidate(BaseModel):
    model_config = ConfigDict(extra="forbid", defer_build=True)
    name: str = Field(min_length=1)
    desc: str = ""
    url: str = ""
    category: str = ""
    label: Literal[0, 1]


class ResponseLine(BaseModel):
    model_config = ConfigDict(extra="forbid", allow_inf_nan=False, defer_build=True)
    id: str = Field(min_length=1, max_length=200)
    scenario: Literal["chatbot", "search"]
    query: str
    response: str
    product: ScoredProduct | None
    candidates: tuple[ScoredCandidate, ...] = ()

    @model_validator(mode="after")
    def _candidates_for_search(self) -> ResponseLine:
        if self.scenario == "search" and not self.candidates:
            raise ValueError("a search line needs its candidates, each with its relevance label (for CTR)")
        if self.scenario == "chatbot" and self.candidates:
            raise ValueError("candidates belong to search lines (CTR is scored for the search scenario only)")
        return self


@dataclass
class ScoreRun:
    rows: list[dict[str, Any]] = field(default_factory=list)
    problems: list[str] = field(default_factory=list)


def read_lines(path: Path) -> tuple[list[ResponseLine], list[str]]:
    """The usable lines, and one located problem (file:line: what is wrong) per line that is not."""
    lines: list[ResponseLine] = []
    problems: list[str] = []
    first_line: dict[str, int] = {}
    for number, raw in enumerate(path.read_bytes().splitlines(), start=1):
        try:
            text = raw.decode("utf-8")
        except UnicodeDecodeError as exc:
            problems.append(f"{path}:{number}: not UTF-8 (byte 0x{raw[exc.start]:02x} at column {exc.start + 1})")
            continue
        if not text.strip():
            continue
        try:
            value = json.loads(text)
            if (place := surrogate_in(value)) is not None:
                problems.append(f"{path}:{number}: {place} holds half a character (a lone surrogate), not text")
                continue
            line = ResponseLine.model_validate(value)
        except RecursionError:
            problems.append(f"{path}:{number}: the JSON nests too deeply to be a response line")
            continue
        except ValidationError as exc:
            detail = "; ".join(f"{'.'.join(str(p) for p in e['loc']) or 'line'}: {e['msg']}" for e in exc.errors()[:3])
            problems.append(f"{path}:{number}: {detail}")
            continue
        except ValueError as exc:
            problems.append(f"{path}:{number}: not valid JSON ({exc})")
            continue
        if line.id in first_line:
            problems.append(f"{path}:{number}: id {line.id!r} is already used on line {first_line[line.id]}")
            continue
        first_line[line.id] = number
        lines.append(line)
    return lines, problems


def _task(line: ResponseLine, judge: bool) -> Any:
    candidates = tuple(Candidate(name=c.name, desc=c.desc, url=c.url, category=c.category) for c in line.candidates)
    inputs = SimpleNamespace(dataset="scored", scenario=line.scenario, query=line.query, candidates=candidates)
    scoring = SimpleNamespace(judges=tuple(m.name for m in JUDGED_METRICS) if judge else ())
    return SimpleNamespace(
        id=line.id,
        version=1,
        kind="gem",
        suite="gem-score",
        inputs=inputs,
        ground_truth=SimpleNamespace(labels=tuple(c.label for c in line.candidates)),
        scoring=scoring,
        metadata=TaskMetadata(),
    )


async def _score_one(services: Services, line: ResponseLine, judge: bool) -> dict[str, Any]:
    ctx = ItemContext(task=_task(line, judge), services=services)
    product = line.product.model_dump() if line.product is not None else None
    if not line.response.strip():  # a failure of the system that logged it, not an answer to score
        return {"id": line.id, "error": {"kind": "system", "message": "the response is empty", "fault": "system"}}
    try:
        scores = await evaluate_output(ctx, SolutionOutput(line.response, product, {}), judge=judge)
    except Exception as exc:
        return {"id": line.id, "error": describe_exception(exc)}
    names = list(METRIC_NAMES) + (["ctr"] if line.scenario == "search" else [])
    names += [m.name for m in JUDGED_METRICS] if judge else []
    return {
        "id": line.id,
        "sentences": [s["text"] for s in scores.details["sentences"]],
        "metrics": {name: scores.metrics.get(name) for name in names},
        "ad_sentences": scores.details["ad_sentences"],
        "judge_levels": scores.judge_levels,
        "incomplete": list(scores.incomplete),  # judged metrics whose judge gave no verdict
        "judge_failures": scores.details.get("judge_failures") or {},
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
        values = [row["metrics"][name] for row in rows if (row.get("metrics") or {}).get(name) is not None]
        means[name] = round(statistics.fmean(values), 4) if values else None
    return means


def write_report(
    report_dir: Path,
    source: Path,
    rows: list[dict[str, Any]],
    problems: list[str],
    rules: dict[str, str] | None = None,
) -> Path:
    folder = report_dir / f"gem-score-{time.strftime('%Y%m%dT%H%M%S', time.gmtime())}"
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / "gem_scores.json"
    document = {
        "source": str(source),
        "rules": rules or {},
        "means": summary(rows),
        "problems": problems,
        "responses": rows,
    }
    from harness.atomic_write import write_atomic

    return write_atomic(path, json.dumps(document, ensure_ascii=False))
