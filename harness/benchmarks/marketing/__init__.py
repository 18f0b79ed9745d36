"""xbench Marketing: influencer search over an offline creator pool (docs/xbench.md#marketing).

The agent gets the brief (prompts/marketing/influencer_search.j2) and the pool's search and open tools, and
replies with a JSON list of creators, best first. The evaluation follows the paper's two stages, per judge:

1. A rubric for the brief, from the client's decisions: a summary of each pick and why it was likely
   chosen, and of each near miss and why it was passed over; an ideal-creator persona from the overlap and
   the differences between the two; and the brief decomposed into necessary and flexible conditions
   weighted 1-10. It depends only on the brief and the judge, so it is made once
   (`ctx.generate_once`): every later run, of any system, reads it from the cache.
2. A verdict per recommended creator (the first k): the judge reads the brief, the conditions, the persona
   and the creator's profile from the pool, and returns validated JSON (analysis, specific points 1-5,
   overall 1-5, selected Yes/No). The verdict depends only on the brief, the judge and the creator, so it
   is shared too: two agents that recommend the same creator pay for one verdict.

The score is the re-selection rate, 100 x selected / k (a panel: the judges' mean); empty slots, links not
in the pool and repeats count as not selected. Beside it: the mean overall level of the judged creators
mapped 1..5 -> 0..100, and the recall of the client's actual picks at k (out of the k slots, or out of the
picks when the client made fewer than k: a list of client picks only scores 100, however many it chose).
"""

from __future__ import annotations

import asyncio
import statistics
from functools import lru_cache
from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from harness.benchmarks import Benchmark, CollectionChecks, Column, Section, Table, register_benchmark
from harness.benchmarks.marketing.links import CreatorIndex, profile_key
from harness.benchmarks.marketing.recommendations import CANDIDATE, ReplyError, Slot, fill_slots, read_reply
from harness.benchmarks.marketing.tasks import InfluencerSearchInputs, InfluencerSearchScoring, InfluencerSearchTruth
from harness.errors import SystemFailure
from harness.judge import REFERENCE_JUDGE
from harness.scores import Scores
from harness.solvers import LoopLimits
from harness.world import normalize_url, read_pages, world_digest, world_problem, world_tools

KIND = "influencer_search"
# The tool loop's caps when a brief sets none: room to search, open and compare creators one tool call per
# turn for k up to a dozen (a one-call-per-turn agent needs at least 14 turns for k = 10).
DEFAULT_LIMITS = LoopLimits(max_steps=60, token_budget=800_000)
INDUSTRIES = ("App", "Game", "E-commerce")
RUBRIC_SETTINGS = {"temperature": 0, "max_tokens": 700}
VERDICT_SETTINGS = {"temperature": 0, "max_tokens": 900}


class Summary(BaseModel):
    model_config = ConfigDict(extra="forbid", defer_build=True)
    summary: str = Field(min_length=1, max_length=4000)


class Persona(BaseModel):
    model_config = ConfigDict(extra="forbid", defer_build=True)
    persona: str = Field(min_length=1, max_length=5000)


class Condition(BaseModel):
    model_config = ConfigDict(extra="forbid", defer_build=True)
    condition: str = Field(min_length=1, max_length=400)
    weight: int = Field(ge=1, le=10)
    reason: str = Field(default="", max_length=600)


class Conditions(BaseModel):
    """The brief decomposed: what a creator must meet, and what makes one better."""

    model_config = ConfigDict(extra="forbid", defer_build=True)
    necessary: list[Condition] = Field(min_length=1, max_length=15)
    flexible: list[Condition] = Field(default_factory=list, max_length=15)


class Point(BaseModel):
    model_config = ConfigDict(extra="forbid", defer_build=True)
    point: str = Field(min_length=1, max_length=300)
    score: Literal[1, 2, 3, 4, 5]


class CandidateVerdict(BaseModel):
    """A judge's decision on one recommended creator."""

    model_config = ConfigDict(extra="forbid", defer_build=True)
    analysis: str = Field(min_length=1, max_length=4000)
    points: list[Point] = Field(min_length=1, max_length=12)
    overall: Literal[1, 2, 3, 4, 5]
    selected: Literal["Yes", "No"]


def _text_as(field: str, limit: int) -> Any:
    """For a provider without structured output: the whole reply is the text field."""
    return lambda text: {field: text.strip()[:limit]}


def level_to_score(level: float) -> float:
    return (level - 1) * 25.0


def _profile_text(page: Any) -> str:
    return f"{page.title}\n{page.url}\n\n{page.text}"


async def _rubric(task: Any, ctx: Any, judge: str, world: Any) -> dict[str, Any]:
    """The brief's rubric from one judge: made once per brief and judge, then read from the cache. As in the
    paper, the ideal creator comes from the overlap and the differences between the creators the client
    chose and those it considered and passed over: a summary of every pick and of every near miss (with the
    reason it was passed over), then the persona from both."""
    inputs, truth = task.inputs, task.ground_truth
    pages = [world.get(link) for link in truth.selected]
    passed_over = [(world.get(miss.url), miss.why) for miss in truth.near_misses if world.get(miss.url)]

    def summary(page: Any, why: str | None) -> Any:
        return ctx.generate_once(
            "marketing/rubric_summary.j2",
            {"task": inputs, "profile": _profile_text(page), "passed_over": why},
            Summary,
            model=judge,
            settings=RUBRIC_SETTINGS,
            text_parser=_text_as("summary", 4000),
            name=f"rubric summary {page.url}",
        )

    with ctx.stage("rubric"):
        summaries = await asyncio.gather(*(summary(page, None) for page in pages))
        contrasts = await asyncio.gather(*(summary(page, why) for page, why in passed_over))
        persona, conditions = await asyncio.gather(
            ctx.generate_once(
                "marketing/rubric_persona.j2",
                {
                    "task": inputs,
                    "summaries": [s.value["summary"] for s in summaries],
                    "passed_over": [s.value["summary"] for s in contrasts],
                },
                Persona,
                model=judge,
                settings=RUBRIC_SETTINGS,
                text_parser=_text_as("persona", 5000),
                name="rubric persona",
            ),
            ctx.generate_once(
                "marketing/rubric_conditions.j2",
                {"task": inputs},
                Conditions,
                model=judge,
                settings={**RUBRIC_SETTINGS, "max_tokens": 1200},
                name="rubric conditions",
            ),
        )
    return {"persona": persona.value["persona"], "conditions": conditions.value}


def reference_verdict(task: Any, url: str, world: Any) -> dict[str, Any]:
    """The reference judge (`harness/reference`): the client's own decision, read from the ground truth,
    with no model: a pick is selected (overall 5), a near miss is not (2), any other creator is not (1).
    A floor-and-ceiling check (docs/xbench.md), not the paper's judge, which can select a creator the
    client did not pick."""
    truth = task.ground_truth
    key = normalize_url(url)
    pick = any(normalize_url(world.get(link).url) == key for link in truth.selected)
    near = next((m.why for m in truth.near_misses if normalize_url(m.url) == key), None)
    overall = 5 if pick else 2 if near else 1
    reason = "a client pick" if pick else f"passed over: {near}" if near else "not considered by the client"
    return {
        "analysis": f"reference: {reason}",
        "points": [{"point": "the client's decision", "score": overall}],
        "overall": overall,
        "selected": "Yes" if pick else "No",
    }


async def _verdicts(task: Any, ctx: Any, judge: str, world: Any, slots: list[Slot]) -> list[dict[str, Any]]:
    if judge == REFERENCE_JUDGE:
        return [CandidateVerdict.model_validate(reference_verdict(task, s.url, world)).model_dump() for s in slots]
    rubric = await _rubric(task, ctx, judge, world)
    template = task.scoring.judge_template or "marketing/judge_candidate.j2"
    with ctx.stage("judge"):
        verdicts = await asyncio.gather(
            *(
                ctx.generate_once(
                    template,
                    {
                        "task": task.inputs,
                        "conditions": rubric["conditions"],
                        "persona": rubric["persona"],
                        "url": slot.url,
                        "profile": _profile_text(world.get(slot.url)),
                    },
                    CandidateVerdict,
                    model=judge,
                    settings=VERDICT_SETTINGS,
                    name=f"verdict {slot.url}",
                )
                for slot in slots
            )
        )
    return [v.value for v in verdicts]


async def run_influencer_search(task: Any, ctx: Any) -> Scores:
    inputs, truth = task.inputs, task.ground_truth
    world = await ctx.world(inputs.environment)
    index = await ctx.resource(f"creator-index:{ctx.fixtures_dir / 'worlds' / world.name}", lambda: CreatorIndex(world))
    tools = world_tools(world)
    prompt = ctx.services.prompts.render("marketing/influencer_search.j2", {"task": inputs, "tools": True})
    system = next((m["content"] for m in prompt.messages if m["role"] == "system"), None)
    answer = await ctx.solve(
        prompt.messages[-1]["content"], system=system, tools=tools, limits=inputs.limits.loop_limits(DEFAULT_LIMITS)
    )
    effort = {"tool_calls": float(len(answer.tool_calls)), "steps": float(answer.steps)}
    base_details = {"stopped": answer.stopped, "trajectory": answer.tool_calls}
    try:
        recommendations = read_reply(answer.text)
    except ReplyError as exc:
        # The system's failure: nothing it said can be looked up (score 0, the reason kept, with what the
        # attempt took and whether a cap stopped it).
        capped = ""
        if answer.stopped:
            capped = f" (after reaching its {answer.stopped.replace('_', ' ')}, {answer.steps} turns)"
        raise SystemFailure(
            f"no list of creators could be read from the answer{capped}: {exc}",
            answer=answer.text,
            metrics=effort,
            details=base_details,
        ) from None
    slots, beyond = fill_slots(recommendations, inputs.k, index, inputs.platforms)
    candidates = [s for s in slots if s.status == CANDIDATE]
    judges = ctx.services.judge_models
    by_judge: dict[str, list[dict[str, Any]]] = {}
    if candidates:
        results = await asyncio.gather(*(_verdicts(task, ctx, judge, world, candidates) for judge in judges))
        by_judge = dict(zip(judges, results, strict=True))
    rates = [100.0 * sum(v["selected"] == "Yes" for v in by_judge.get(j, [])) / inputs.k for j in judges]
    overall_levels = [v["overall"] for verdicts in by_judge.values() for v in verdicts]
    picks = {world.get(link).url for link in truth.selected}
    found = {s.url for s in candidates} & picks
    slot_rows = _slot_rows(slots, candidates, by_judge, picks)
    return Scores(
        score=statistics.fmean(rates),
        answer=answer.text,
        metrics={
            "reselection": statistics.fmean(rates),
            "overall": level_to_score(statistics.fmean(overall_levels)) if overall_levels else None,
            # at k: most clients picked more creators than k (a few more than their brief's own maximum),
            # and k slots cannot hold them all; a list of client picks only is a perfect recall
            "recall": 100.0 * len(found) / min(inputs.k, len(picks)),
            "judged": float(len(candidates)),
            **effort,
        },
        judge_levels={
            "selected": {j: [v["selected"] for v in by_judge[j]] for j in by_judge},
            "overall": {j: [v["overall"] for v in by_judge[j]] for j in by_judge},
        }
        if by_judge
        else {},
        details={
            **base_details,
            "recommendations": slot_rows,
            "beyond_k": [{"name": r.name, "link": r.link} for r in beyond],
            "client_picks_found": sorted(found),
            "note": _note(slot_rows, inputs.k),
        },
    )


def _slot_rows(
    slots: list[Slot], candidates: list[Slot], by_judge: dict[str, list[dict[str, Any]]], picks: set[str]
) -> list[dict[str, Any]]:
    """Each slot with its status and, for judged ones, every judge's decision and reasoning."""
    position = {id(slot): i for i, slot in enumerate(candidates)}
    rows = []
    for slot in slots:
        row = slot.to_json()
        row["client_pick"] = slot.status == CANDIDATE and slot.url in picks
        if id(slot) in position:
            i = position[id(slot)]
            row["verdicts"] = {
                judge: {
                    "selected": verdicts[i]["selected"],
                    "overall": verdicts[i]["overall"],
                    "points": {p["point"]: p["score"] for p in verdicts[i]["points"]},
                    "analysis": verdicts[i]["analysis"],
                }
                for judge, verdicts in by_judge.items()
            }
        rows.append(row)
    return rows


def _note(rows: list[dict[str, Any]], k: int) -> str:
    """One line: which slots were selected, and why the others were not."""
    parts = []
    for row in rows:
        who = _short(row)
        if row.get("verdicts"):
            yes = sum(v["selected"] == "Yes" for v in row["verdicts"].values())
            parts.append(
                f"#{row['rank']} {who}: {'selected' if yes else 'not selected'}"
                + (f" ({yes}/{len(row['verdicts'])} judges)" if len(row["verdicts"]) > 1 else "")
            )
        else:
            parts.append(f"#{row['rank']} {who}: {row['status'].replace('_', ' ')}")
    return f"k={k}; " + "; ".join(parts)


def _short(row: dict[str, Any]) -> str:
    key = profile_key(row["url"]) if row.get("url") else None
    if key is not None:
        return f"{key.platform} @{key.handle}"
    return (row.get("link") or row.get("name") or "-")[:60]


def estimate(task: Any, settings: Any) -> dict[str, Any]:
    """The agent's search (about five turns over profile pages), then per judge: the rubric (a summary per
    client pick, the persona, the conditions; paid once per brief and judge) and a verdict per slot."""
    from harness.estimate import Need, tokens

    inputs = task.inputs
    brief = tokens(inputs.brief.model_dump_json()) + 300
    picks = len(task.ground_truth.selected) + len(task.ground_truth.near_misses)  # each summarised once
    k, judges = inputs.k, len([m for m in settings.judge_models if m != REFERENCE_JUDGE])
    sut = Need(5, sum(brief + 1500 * step for step in range(5)), 600)
    rubric_in = picks * (brief + 1500) + (brief + 350 * picks) + brief
    judge = Need(
        judges * (picks + 2 + k), judges * (rubric_in + k * (brief + 2200)), judges * (picks * 300 + 1100 + k * 500)
    )
    return {"sut": sut, "judge": judge}


def labels(task: Any) -> dict[str, str]:
    return {"industry": task.inputs.industry, "environment": task.inputs.environment}


@lru_cache(maxsize=8)
def _pool(folder: str, digest: str) -> dict[str, Any]:
    """The pool's pages by normalised URL (read once per version of its files; no search index needed)."""
    return {normalize_url(page.url): page for page in read_pages(Path(folder))}


def check(task: Any, task_path: Path, checks: CollectionChecks) -> list[str]:
    """Before anything is paid for: the templates exist, the pool loads, every client pick and near miss
    is a creator of the pool, on an allowed platform, no pick is listed twice, and k agrees with the
    brief's own quantity (an agent told to recommend fewer creators than the brief asks for cannot meet it)."""
    problems = []
    for template in (
        "marketing/influencer_search.j2",
        "marketing/rubric_summary.j2",
        "marketing/rubric_persona.j2",
        "marketing/rubric_conditions.j2",
        task.scoring.judge_template or "marketing/judge_candidate.j2",
    ):
        if problem := checks.template_problem(template):
            problems.append(problem)
    inputs = task.inputs
    quantity = task.ground_truth.checks.quantity if task.ground_truth.checks else None
    if quantity is not None and not quantity[0] <= inputs.k <= quantity[1]:
        problems.append(
            f"field 'inputs.k': {inputs.k} creators, but the brief's quantity is {quantity[0]} to {quantity[1]} "
            "(ground_truth.checks.quantity)"
        )
    if inputs.environment == "open-web":
        return [*problems, "field 'inputs.environment': influencer search needs a creator pool (an offline world)"]
    folder = checks.fixtures_dir / "worlds" / inputs.environment
    if not folder.is_dir():
        return [*problems, f"field 'inputs.environment': no world {inputs.environment!r} (expected a folder {folder})"]
    digest = world_digest(folder)
    if (problem := world_problem(str(folder), digest)) is not None:
        return [*problems, f"field 'inputs.environment': world {inputs.environment!r} cannot be used: {problem}"]
    pool = _pool(str(folder), digest)
    seen: dict[str, int] = {}
    for i, link in enumerate(task.ground_truth.selected):
        page = pool.get(normalize_url(link))
        if page is None:
            problems.append(f"field 'ground_truth.selected.{i}': {link} is not a page of {inputs.environment}")
        elif page.url in seen:
            problems.append(f"field 'ground_truth.selected.{i}': {link} is listed twice (also at {seen[page.url]})")
        else:
            seen[page.url] = i
            key = profile_key(page.url)
            if key is not None and key.platform not in inputs.platforms:
                problems.append(
                    f"field 'ground_truth.selected.{i}': {link} is on {key.platform}, not one of inputs.platforms"
                )
    for i, miss in enumerate(task.ground_truth.near_misses):
        if pool.get(normalize_url(miss.url)) is None:
            problems.append(f"field 'ground_truth.near_misses.{i}.url': {miss.url} is not a page of the pool")
    return problems


LEADERBOARD = Table(
    name="xbench_marketing",
    title="xbench Marketing (re-selection rate by client industry)",
    kinds=(KIND,),
    rows=(),
    sections=(
        Section(
            "Re-selection rate",
            tuple(Column(f"reselection_{i.lower()}", i, "reselection", where=(("industry", i),)) for i in INDUSTRIES),
            overall="mean_of_items",
            overall_label="Average",
        ),
        Section(
            "Beside it",
            (
                Column("overall", "Overall (judged)", "overall"),
                Column("recall", "Recall of picks", "recall"),
                Column("judged", "Judged per brief", "judged", scale="creators"),
                Column("tool_calls", "Tool calls", "tool_calls", scale="calls"),
            ),
            overall=None,
        ),
    ),
    note="Re-selection: 100 x (recommendations a judge says the client would select) / k; empty slots, links "
    "not in the pool and repeats count as not selected. Overall: the judges' 1-5 level of the recommended "
    "creators they judged, mapped 1 -> 0, 5 -> 100. Recall of picks: the client's actual picks among the first k "
    "recommendations, out of k (or out of the picks, when the client made fewer than k).",
)

register_benchmark(
    Benchmark(
        kind=KIND,
        description="xbench Marketing: recommend k influencers for a campaign brief from a creator pool.",
        inputs=InfluencerSearchInputs,
        ground_truth=InfluencerSearchTruth,
        scoring=InfluencerSearchScoring,
        run=run_influencer_search,
        default_pass_threshold=50.0,
        labels=labels,
        check=check,
        tables=(LEADERBOARD,),
        estimate=estimate,
    )
)
