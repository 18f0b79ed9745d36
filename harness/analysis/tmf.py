"""Tech-Market Fit (xbench §5.2): agents' score against their cost per task, next to what the task is
worth to the market, as pure functions.

- Each agent version is a point: its mean cost per task (USD, every item counted, errors included: they
  were paid for) and its mean score (0..100 over scored items).
- The supply curve is the Pareto frontier: by cost ascending (ties: best score first), keep each point
  that beats the best score so far.
- The market-acceptable region: cost at most the human cost per task (the tasks' mean expert minutes x
  an hourly rate) and score at least an acceptable level.
- Stages: 1, no frontier point in the region (TMF not reached); 2, the frontier enters the region (agents
  and people collaborate); 3, a frontier point in the region also reaches the expert's own level (our
  reading of the paper's "specialised agents": the agent can deliver the expert's work for less).
  The value per task is the human cost minus the agent's, at the cheapest frontier point in the region.
"""

from __future__ import annotations

import statistics
from collections import defaultdict
from dataclasses import asdict, dataclass
from typing import Any


@dataclass(frozen=True)
class Point:
    label: str
    cost: float  # USD per task
    score: float  # 0..100
    family: str = ""
    tasks: int = 0


@dataclass(frozen=True)
class Assessment:
    points: list[Point]
    frontier: list[Point]
    human_cost: float
    min_score: float
    expert_score: float
    inside: list[Point]  # frontier points in the acceptable region
    reached: bool
    stage: int
    value_per_task: float | None
    best: Point | None  # the cheapest frontier point in the region

    def to_json(self) -> dict[str, Any]:
        return {
            "points": [asdict(p) for p in self.points],
            "frontier": [p.label for p in self.frontier],
            "human_cost_per_task": round(self.human_cost, 6),
            "min_score": self.min_score,
            "expert_score": self.expert_score,
            "inside": [p.label for p in self.inside],
            "reached": self.reached,
            "stage": self.stage,
            "value_per_task": None if self.value_per_task is None else round(self.value_per_task, 6),
            "best": None if self.best is None else self.best.label,
        }


def frontier(points: list[Point]) -> list[Point]:
    """The supply curve: the points no cheaper-or-equal point beats, cheapest first."""
    best = float("-inf")
    kept = []
    for point in sorted(points, key=lambda p: (p.cost, -p.score, p.label)):
        if point.score > best:
            kept.append(point)
            best = point.score
    return kept


def assess(points: list[Point], human_cost: float, min_score: float, expert_score: float = 90.0) -> Assessment:
    if human_cost < 0 or not 0 <= min_score <= 100 or not 0 <= expert_score <= 100:
        raise ValueError("the human cost must be 0 or more, and scores lie in 0..100")
    curve = frontier(points)
    inside = [p for p in curve if p.cost <= human_cost and p.score >= min_score]
    best = min(inside, key=lambda p: (p.cost, -p.score)) if inside else None
    stage = 1
    if inside:
        stage = 3 if any(p.score >= expert_score for p in inside) else 2
    return Assessment(
        points=points,
        frontier=curve,
        human_cost=human_cost,
        min_score=min_score,
        expert_score=expert_score,
        inside=inside,
        reached=bool(inside),
        stage=stage,
        value_per_task=None if best is None else human_cost - best.cost,
        best=best,
    )


def points_from_history(rows: list[dict[str, str]]) -> tuple[list[Point], list[str]]:
    """One point per agent version: mean cost per item (its calls at their price, cached or not), mean
    score over its scored items. Also the agent versions left out because a model's price is unknown."""
    from harness.analysis.index import agent_key

    groups: dict[str, list[dict[str, str]]] = defaultdict(list)
    for row in rows:
        groups[agent_key(row)].append(row)
    points, unpriced = [], []
    for label, members in sorted(groups.items()):
        scores = [float(r["score"]) for r in members if r.get("score")]
        if not scores:
            continue
        if any(not r.get("cost_usd") for r in members):
            unpriced.append(label)
            continue
        costs = [float(r["cost_usd"]) for r in members]
        points.append(
            Point(
                label=label,
                cost=sum(costs) / len(members),
                score=statistics.fmean(scores),
                family=members[0]["agent"],
                tasks=len({(r["task"], r.get("task_version")) for r in members}),
            )
        )
    return points, unpriced


def human_cost_per_task(rows: list[dict[str, str]], hourly_rate: float) -> float:
    """The tasks' mean expert minutes (each task once) at `hourly_rate` USD per hour."""
    minutes: dict[tuple[str, str], float] = {}
    for row in rows:
        if row.get("expert_minutes"):
            minutes[(row["task"], row.get("task_version", ""))] = float(row["expert_minutes"])
    if not minutes:
        raise ValueError("no task in this selection records expert minutes (metadata.expert_minutes)")
    return statistics.fmean(minutes.values()) * hourly_rate / 60.0


def markdown_section(doc: dict[str, Any]) -> list[str]:
    """The summary.md section, from the JSON form (Assessment.to_json() plus hourly_rate and suites)."""
    suites = ", ".join(doc.get("suites") or []) or "all suites"
    if doc.get("error"):
        return [f"### Tech-Market Fit ({suites})", "", f"_Not computed: {doc['error']}._"]
    points = {p["label"]: p for p in doc["points"]}
    best = points.get(doc["best"]) if doc.get("best") else None
    if best is not None:
        verdict = (
            f"reached (stage {doc['stage']}): `{best['label']}` scores {best['score']:.1f} at ${best['cost']:.4f} "
            f"per task, ${doc['value_per_task']:.2f} under the human cost"
        )
    else:
        verdict = "not reached (stage 1): no agent on the supply curve is both good enough and cheaper than a person"
    lines = [
        f"### Tech-Market Fit ({suites})",
        "",
        f"_Human cost per task: ${doc['human_cost_per_task']:.2f} (the tasks' mean expert minutes at "
        f"${doc['hourly_rate']:g}/hour); acceptable score: {doc['min_score']:g}; "
        f"expert level: {doc['expert_score']:g}. Every agent version in the run history on these suites is a point._",
        "",
        f"**Tech-Market Fit {verdict}.**",
        "",
        "| agent | cost per task | score | on the supply curve | acceptable |",
        "|---|---:|---:|---|---|",
    ]
    on_curve, inside = set(doc["frontier"]), set(doc["inside"])
    for point in sorted(doc["points"], key=lambda p: (p["cost"], -p["score"])):
        lines.append(
            f"| `{point['label']}` | ${point['cost']:.4f} | {point['score']:.1f} | "
            f"{'yes' if point['label'] in on_curve else ''} | {'yes' if point['label'] in inside else ''} |"
        )
    return lines
