"""`qa`: a question with a known answer, scored by exact match, containment, a regex or an LLM judge.

The general-purpose kind, used by the sample suite and by teams writing their own regression tasks.
"""

from __future__ import annotations

import re
import unicodedata
from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, model_validator

from harness.benchmarks import Benchmark, CollectionChecks, register_benchmark
from harness.context import ItemContext
from harness.judge import Untrusted
from harness.scores import Scores
from harness.task_model import STRICT
from harness.tools import BUILTIN_TOOLS, resolve_tools


class QAInputs(BaseModel):
    model_config = STRICT

    prompt: str = Field(min_length=1, description="The question or instruction.")
    system: str | None = Field(default=None, description="An optional system message.")
    tools: tuple[str, ...] = Field(default=(), description=f"Tools offered: any of {sorted(BUILTIN_TOOLS)}.")

    @model_validator(mode="after")
    def _known_tools(self) -> QAInputs:
        resolve_tools(self.tools)
        return self


class QATruth(BaseModel):
    model_config = STRICT

    answer: str = Field(min_length=1, description="The expected answer.")
    aliases: tuple[str, ...] = Field(default=(), description="Other spellings that also count.")
    notes: str | None = Field(default=None, description="Guidance for the judge (what matters).")


class QAScoring(BaseModel):
    model_config = STRICT

    method: Literal["exact", "contains", "regex", "judge"] = Field(
        default="exact", description="exact/contains compare normalized text; regex searches `answer` as a pattern."
    )
    template: str = Field(default="sample/answer_correctness.j2", description="Judge prompt under prompts/.")


class CorrectnessVerdict(BaseModel):
    """A judge's grade of one answer against the reference."""

    model_config = ConfigDict(extra="forbid")

    # Bounded so that a rambling judge (the tiny local model) still closes its JSON within the judge's
    # max_tokens (1024); llama.cpp's grammar enforces maxLength.
    reasoning: str = Field(max_length=600, description="One or two sentences explaining the grade.")
    grade: Literal["correct", "partially_correct", "incorrect"]


GRADE_SCORES = {"correct": 100.0, "partially_correct": 50.0, "incorrect": 0.0}


def normalize(text: str) -> str:
    """Case, accents' composition, whitespace and edge punctuation do not decide correctness."""
    text = unicodedata.normalize("NFKC", text).casefold().strip()
    text = re.sub(r"\s+", " ", text)
    return text.strip(" .,!?;:\"'`*")


def match_score(method: str, response: str, truth: QATruth) -> float:
    """100 if the response matches the expected answer (or an alias) under `method`, else 0."""
    candidates = [truth.answer, *truth.aliases]
    if method == "exact":
        return 100.0 if normalize(response) in {normalize(c) for c in candidates} else 0.0
    if method == "contains":
        said = normalize(response)
        return 100.0 if any(re.search(rf"(?<!\w){re.escape(normalize(c))}(?!\w)", said) for c in candidates) else 0.0
    if method == "regex":
        return 100.0 if any(re.search(c, response, re.IGNORECASE) for c in candidates) else 0.0
    raise ValueError(f"not a matching method: {method}")


async def run_qa(task: object, ctx: ItemContext) -> Scores:
    inputs: QAInputs = task.inputs  # type: ignore[attr-defined]
    truth: QATruth = task.ground_truth  # type: ignore[attr-defined]
    scoring: QAScoring = task.scoring  # type: ignore[attr-defined]
    answer = await ctx.solve(inputs.prompt, system=inputs.system, tools=resolve_tools(inputs.tools))
    details = {"steps": answer.steps, "trajectory": answer.tool_calls}
    if scoring.method != "judge":
        score = match_score(scoring.method, answer.text, truth)
        return Scores(score=score, answer=answer.text, metrics={scoring.method: score}, details=details)
    verdicts = await ctx.judge(
        scoring.template,
        {
            "question": inputs.prompt,
            "reference": truth.answer,
            "aliases": list(truth.aliases),
            "notes": truth.notes,
            "answer": Untrusted(answer.text),
        },
        CorrectnessVerdict,
    )
    grades = [v.value["grade"] for v in verdicts]
    scores = [GRADE_SCORES[g] for g in grades]
    majority = max(set(grades), key=grades.count)
    return Scores(
        score=sum(scores) / len(scores),
        answer=answer.text,
        metrics={"judge_agreement": grades.count(majority) / len(grades)},
        judge_levels={"grade": {v.model: v.value["grade"] for v in verdicts}},
        details={**details, "judge_reasoning": {v.model: v.reasoning for v in verdicts}},
    )


def check_qa(task: Any, task_path: Path, checks: CollectionChecks) -> list[str]:
    """Before anything is paid for: the judge template of a judged task must exist, and a regex task's
    answer and aliases must be valid patterns."""
    scoring: QAScoring = task.scoring
    if scoring.method == "regex":
        truth: QATruth = task.ground_truth
        problems = []
        for field, pattern in [("ground_truth.answer", truth.answer)] + [
            (f"ground_truth.aliases[{i}]", alias) for i, alias in enumerate(truth.aliases)
        ]:
            try:
                re.compile(pattern, re.IGNORECASE)
            except re.error as exc:
                problems.append(f"field '{field}': {pattern!r} is not a valid regular expression ({exc})")
        return problems
    if scoring.method == "judge":
        problem = checks.template_problem(scoring.template)
        return [f"field 'scoring.template': {problem}"] if problem else []
    return []


register_benchmark(
    Benchmark(
        kind="qa",
        description="A question with a known answer; exact, contains, regex or judge scoring.",
        inputs=QAInputs,
        ground_truth=QATruth,
        scoring=QAScoring,
        run=run_qa,
        check=check_qa,
        default_pass_threshold=60.0,
    )
)
