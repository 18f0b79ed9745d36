"""xbench Recruitment: company mapping, people-to-info and info-to-people (docs/xbench.md).

The agent gets the task's prompt (prompts/recruitment/<type>.j2), and, for tasks in an offline world, the
world's search and open tools, within the task's loop limits. A judge (prompts/recruitment/judge_<type>.j2)
reasons, then gives a level 1 to 5: structured output where the provider supports it, otherwise the last
line must read "Score: N" (a missing, out-of-range or ambiguous level is a judge error, never a default).
The level maps to the score linearly, 1 -> 0 and 5 -> 100; the raw level is kept (the capability index fits
on it). The agent's answer reaches the judge inside a data section it cannot close.
"""

from __future__ import annotations

import statistics
from collections.abc import Callable
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from harness.benchmarks import Benchmark, CollectionChecks, Column, Section, Table, register_benchmark
from harness.benchmarks.recruitment import reference
from harness.benchmarks.recruitment.mapping import read_answer
from harness.benchmarks.recruitment.tasks import (
    CompanyMappingInputs,
    CompanyMappingTruth,
    InfoToPeopleInputs,
    InfoToPeopleTruth,
    PeopleToInfoInputs,
    PeopleToInfoTruth,
    RecruitmentScoring,
)
from harness.judge import Untrusted, parse_score_line
from harness.scores import Scores
from harness.solvers import LoopLimits
from harness.world import world_digest, world_problem, world_tools

KINDS = ("company_mapping", "people_to_info", "info_to_people")
LABELS = {"company_mapping": "Company Mapping", "people_to_info": "People-to-Info", "info_to_people": "Info-to-People"}
JUDGE_SETTINGS = {"temperature": 0, "max_tokens": 900}


class LevelVerdict(BaseModel):
    """A judge's reasoning, then its level (1 lowest, 5 highest)."""

    model_config = ConfigDict(extra="forbid", defer_build=True)

    reasoning: str = Field(max_length=2400, description="The judgement, step by step, before the level.")
    score: Literal[1, 2, 3, 4, 5] = Field(description="The level, 1 to 5.")


def level_from_text(text: str) -> dict[str, Any]:
    """A judge that could not give JSON: its reasoning, then a last line 'Score: N' (strict)."""
    level, reasoning = parse_score_line(text, 1, 5)
    return {"reasoning": reasoning[-2400:] or "(no reasoning given)", "score": level}


def level_to_score(level: float) -> float:
    """1 -> 0, 5 -> 100, linearly."""
    return (level - 1) * 25.0


# The tool loop's caps when a task sets none, per kind: room for the paper's tasks one tool call per turn
# (a multi-hop task searches, opens a profile, an employer page, a team page and an article, more than once).
DEFAULT_LIMITS = {
    "company_mapping": LoopLimits(max_steps=40, token_budget=400_000),
    "people_to_info": LoopLimits(max_steps=30, token_budget=300_000),
    "info_to_people": LoopLimits(max_steps=40, token_budget=400_000),
}


@dataclass(frozen=True)
class TaskType:
    kind: str
    reference: Callable[..., dict[str, Any]]  # the mechanical rubric: (truth, what is judged, world facts) -> verdict

    @property
    def agent_template(self) -> str:
        return f"recruitment/{self.kind}.j2"

    @property
    def judge_template(self) -> str:
        return f"recruitment/judge_{self.kind}.j2"


TYPES = {
    "company_mapping": TaskType("company_mapping", lambda truth, lists, **_: reference.company_mapping(truth, lists)),
    "people_to_info": TaskType("people_to_info", lambda truth, answer, **_: reference.people_to_info(truth, answer)),
    "info_to_people": TaskType("info_to_people", reference.info_to_people),
}


async def run_recruitment(task: Any, ctx: Any) -> Scores:
    kind = TYPES[task.kind]
    inputs = task.inputs
    tools = []
    world_facts: dict[str, Any] = {}
    if inputs.environment != "open-web":
        world = await ctx.world(inputs.environment)
        tools = world_tools(world)
        if task.kind == "info_to_people":
            world_facts["people"] = reference.people_of(world.pages)
    prompt = ctx.services.prompts.render(kind.agent_template, {"task": inputs, "tools": bool(tools)})
    system = next((m["content"] for m in prompt.messages if m["role"] == "system"), None)
    user = prompt.messages[-1]["content"]
    limits = inputs.limits.loop_limits(DEFAULT_LIMITS[task.kind])
    answer = await ctx.solve(user, system=system, tools=tools, limits=limits)
    details: dict[str, Any] = {}
    variables: dict[str, Any] = {"answer": Untrusted(answer.text)}
    judged: Any = answer.text
    if task.kind == "company_mapping":
        quantities = {o.kind: o.quantity for o in inputs.objects}
        reading = await read_answer(ctx, task, answer.text, reference=ctx.reference_judge_only)
        variables = {"results": Untrusted(reading.lines(quantities))}
        details = reading.details(quantities)
        judged = reading.kept
    template = task.scoring.template or kind.judge_template
    with ctx.stage("judge"):
        verdicts = await ctx.judge(
            template,
            {"task": inputs, "truth": task.ground_truth, **variables},
            LevelVerdict,
            settings=JUDGE_SETTINGS,
            text_parser=level_from_text,
            reference=lambda: kind.reference(task.ground_truth, judged, **world_facts),
        )
    levels = {v.model: int(v.value["score"]) for v in verdicts}
    mean_level = statistics.fmean(levels.values())
    return Scores(
        score=level_to_score(mean_level),
        answer=answer.text,
        metrics={
            "level": mean_level,
            "tool_calls": float(len(answer.tool_calls)),
            "steps": float(answer.steps),
            "tokens": float(answer.tokens),
        },
        judge_levels={"level": levels},
        details={
            **details,
            "environment": inputs.environment,
            "stopped": answer.stopped,
            "trajectory": answer.tool_calls,
            "judge_reasoning": {v.model: v.value["reasoning"] for v in verdicts},
        },
    )


def estimate(task: Any, settings: Any) -> dict[str, Any]:
    """A world task searches and reads a few pages (about four turns, each rereading what came before);
    an open-web task is one answer. One judge call per judge, on the truth and the answer."""
    from harness.estimate import Need, tokens

    inputs = task.inputs
    prompt = tokens(inputs.model_dump_json()) + 250
    truth = tokens(task.ground_truth.model_dump_json())
    if inputs.environment == "open-web":
        sut = Need(1, prompt, 700)
    else:
        turns = min(inputs.limits.loop_limits(DEFAULT_LIMITS[task.kind]).max_steps, 4)
        sut = Need(turns, sum(prompt + 1200 * step for step in range(turns)), 150 * turns + 500)
    judges = len([m for m in settings.judge_models if m != "harness/reference"])
    calls = judges + (1 if task.kind == "company_mapping" and judges else 0)  # the lists' reading
    return {"sut": sut, "judge": Need(calls, calls * (prompt + truth + 1200), calls * 400)}


def labels(task: Any) -> dict[str, str]:
    return {"type": LABELS[task.kind], "environment": task.inputs.environment}


@lru_cache(maxsize=32)
def _environment_problem(folder: str, digest: str) -> str | None:
    return world_problem(folder, digest)


def check(task: Any, task_path: Path, checks: CollectionChecks) -> list[str]:
    """Before anything is paid for: templates exist, the world loads, the truth matches what is asked."""
    problems = []
    kind = TYPES[task.kind]
    for template in (kind.agent_template, task.scoring.template or kind.judge_template):
        problem = checks.template_problem(template)
        if problem:
            problems.append(problem)
    environment = task.inputs.environment
    if environment != "open-web":
        folder = checks.fixtures_dir / "worlds" / environment
        if not folder.is_dir():
            problems.append(f"field 'inputs.environment': no world {environment!r} (expected a folder {folder})")
        elif (problem := _environment_problem(str(folder), world_digest(folder))) is not None:
            problems.append(f"field 'inputs.environment': world {environment!r} cannot be used: {problem}")
    if task.kind == "company_mapping":
        asked = {o.kind: o.quantity for o in task.inputs.objects}
        expected = task.ground_truth.expected
        if set(asked) != set(expected):
            problems.append(
                f"field 'ground_truth.expected': kinds {sorted(expected)} do not match inputs.objects {sorted(asked)}"
            )
        for name, quantity in asked.items():
            if name in expected and len(expected[name]) != quantity:
                problems.append(
                    f"field 'ground_truth.expected.{name}': {len(expected[name])} names for a quantity of {quantity}"
                )
    return problems


LEADERBOARD = Table(
    name="xbench_recruitment",
    title="xbench Recruitment (the paper's leaderboard columns)",
    kinds=KINDS,
    rows=(),
    sections=(
        Section(
            "Recruitment",
            tuple(Column(kind, LABELS[kind], "score", where=(("kind", kind),)) for kind in KINDS),
            overall="mean_of_items",
            overall_label="Average",
        ),
        Section(
            "Effort",
            (
                Column("level", "Level (1-5)", "level", scale="1..5"),
                Column("tool_calls", "Tool calls", "tool_calls", scale="calls"),
                Column("steps", "Steps", "steps", scale="turns"),
            ),
            overall=None,
        ),
    ),
    note="Scores map the judges' 1-5 levels linearly (1 -> 0, 5 -> 100); a system failure scores 0. Average: "
    "the mean over every task, each task weighing the same (with the paper's 22/13/15 mix, the mix-weighted "
    "mean of the three types beside it). The paper's own rows fit neither this nor the mean of the types; "
    "see docs/xbench.md.",
)

_COMMON = {
    "scoring": RecruitmentScoring,
    "run": run_recruitment,
    "default_pass_threshold": 50.0,
    "labels": labels,
    "check": check,
    "level_range": (1, 5),
    "estimate": estimate,
}
register_benchmark(
    Benchmark(
        kind="company_mapping",
        description="xbench Recruitment: name the companies, teams or schools to source talent from for a role.",
        inputs=CompanyMappingInputs,
        ground_truth=CompanyMappingTruth,
        tables=(LEADERBOARD,),
        **_COMMON,  # type: ignore[arg-type]
    )
)
register_benchmark(
    Benchmark(
        kind="people_to_info",
        description="xbench Recruitment: complete a named person's professional history.",
        inputs=PeopleToInfoInputs,
        ground_truth=PeopleToInfoTruth,
        tables=(LEADERBOARD,),
        **_COMMON,  # type: ignore[arg-type]
    )
)
register_benchmark(
    Benchmark(
        kind="info_to_people",
        description="xbench Recruitment: find the person or people who match a set of constraints.",
        inputs=InfoToPeopleInputs,
        ground_truth=InfoToPeopleTruth,
        tables=(LEADERBOARD,),
        **_COMMON,  # type: ignore[arg-type]
    )
)
