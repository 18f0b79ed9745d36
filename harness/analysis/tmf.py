"""Tech-Market Fit (xbench §1 Fig. 1 and §5.2) as pure functions: where the agents' supply curve meets the
market's acceptance curve on the score-against-cost plane, and how much the two regions overlap.

The paper draws four things on that plane and leaves their exact shapes open. Our readings (docs/index.md):

- **Supply curve** (the "optimal supply curve", upper edge of the "tech accessible region"): each agent
  version is a point, its mean cost per task (the system's own calls, never its judges') and its mean
  score; the curve is their Pareto frontier, a step function: for a budget c, the best score any agent
  delivers for c or less. The accessible region lies under it.
- **Acceptance curve** (the "worst-case market acceptance curve", lower edge of the "market acceptable
  region"): the least score the market takes at each price. It rises from `min_score` at no cost to the
  expert's own score at the expert's cost H, `s(c) = min + (expert - min) * (c / H) ** shape`; the human cost H
  is its right edge ("human labour cost should constitute a part of the boundary"): beyond it, a person is the
  cheaper choice. `shape` 1 is a straight line; above 1 the market is lenient with cheap services.
- **Human capability curve**: what people deliver for a budget per task. A person with c per task on
  average does the quickest tasks first (each at its expert minutes and the hourly rate) and delivers the
  expert score on those: h(c) = expert x the share of tasks done. It ends at the human point (H, expert).
- **Value**: the area of the intersection of the two regions, the integral over [0, H] of
  max(0, supply(c) - s(c)) dc. We give it in quality-weighted dollars per task (USD x score / 100), and as a
  share of the acceptable region's own area.

Stages: 1, the regions do not meet (TMF not reached); 2, they overlap (agents and people collaborate);
3, a point of the overlap's supply curve also reaches the expert's score at no more than the expert's cost
(our operational reading of the paper's "specialised agents").

Latency is the same construction with seconds per task against the expert's time, when the history has it.
"""

from __future__ import annotations

import math
import statistics
from collections import defaultdict
from dataclasses import asdict, dataclass
from typing import Any

DIMENSIONS = {"cost": "USD", "latency": "s"}
CURVE_SAMPLES = 48


@dataclass(frozen=True)
class Point:
    label: str
    cost: float  # per task, in the dimension's unit (USD, or seconds for latency)
    score: float  # 0..100
    family: str = ""
    tasks: int = 0


@dataclass(frozen=True)
class Market:
    """The demand side of one dimension: what a person costs and delivers, and what the market accepts."""

    human_cost: float  # H: the tasks' mean expert cost (USD, or seconds)
    min_score: float
    expert_score: float
    shape: float = 1.0
    task_costs: tuple[float, ...] = ()  # each task's expert cost: the human capability curve

    def __post_init__(self) -> None:
        if not (self.human_cost >= 0 and math.isfinite(self.human_cost)):
            raise ValueError(f"the human cost must be 0 or more, got {self.human_cost}")
        if not 0 <= self.min_score <= self.expert_score <= 100:
            raise ValueError(
                f"scores must satisfy 0 <= min score ({self.min_score:g}) <= expert score "
                f"({self.expert_score:g}) <= 100"
            )
        if not (self.shape > 0 and math.isfinite(self.shape)):
            raise ValueError(f"the acceptance curve's shape must be above 0, got {self.shape}")

    def required(self, cost: float) -> float:
        """The acceptance curve: the least score the market takes at `cost`; infinite past the human cost."""
        if cost > self.human_cost or self.human_cost == 0:
            return math.inf
        return self.min_score + (self.expert_score - self.min_score) * (cost / self.human_cost) ** self.shape

    def acceptable_area(self) -> float:
        """The acceptable region's area: the integral over [0, H] of (100 - s(c)) dc."""
        rise = self.expert_score - self.min_score
        return self.human_cost * (100.0 - self.min_score - rise / (self.shape + 1.0))

    def human_curve(self) -> list[tuple[float, float]]:
        """The human capability curve's corners (a step function, each value holding to the next corner):
        with c per task on average, the quickest tasks first, each done at the expert score."""
        costs = sorted(self.task_costs)
        if not costs:
            return [(0.0, 0.0), (self.human_cost, self.expert_score)]
        corners, spent = [(0.0, 0.0)], 0.0
        for done, cost in enumerate(costs, start=1):
            spent += cost
            corners.append((spent / len(costs), self.expert_score * done / len(costs)))
        return corners


@dataclass(frozen=True)
class Assessment:
    dimension: str  # "cost" or "latency"
    points: list[Point]
    frontier: list[Point]
    market: Market
    inside: list[Point]  # frontier points strictly inside the acceptable region
    stage: int
    area: float  # the overlap, in dimension-unit x score points
    share: float | None  # of the acceptable region's area
    best: Point | None  # the cheapest frontier point inside

    @property
    def reached(self) -> bool:
        return self.area > 0

    @property
    def value(self) -> float:
        """The overlap in quality-weighted units per task (unit x score / 100)."""
        return self.area / 100.0

    def to_json(self) -> dict[str, Any]:
        return {
            "dimension": self.dimension,
            "unit": DIMENSIONS[self.dimension],
            "points": [asdict(p) for p in self.points],
            "frontier": [p.label for p in self.frontier],
            "human_cost_per_task": round(self.market.human_cost, 6),
            "task_costs": [round(c, 6) for c in self.market.task_costs],
            "min_score": self.market.min_score,
            "expert_score": self.market.expert_score,
            "acceptance_shape": self.market.shape,
            "inside": [p.label for p in self.inside],
            "reached": self.reached,
            "stage": self.stage,
            "value": round(self.value, 6),
            "value_share": None if self.share is None else round(self.share, 6),
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


def supply(curve: list[Point], cost: float) -> float | None:
    """The supply curve at `cost`: the best score for that budget; None below the cheapest agent."""
    reachable = [p.score for p in curve if p.cost <= cost]
    return max(reachable) if reachable else None


def _crossing(market: Market, score: float) -> float:
    """Where the acceptance curve reaches `score` (0 if it starts above it, H if it never does)."""
    if score <= market.min_score:
        return 0.0
    if score >= market.expert_score:
        return market.human_cost
    rise = (score - market.min_score) / (market.expert_score - market.min_score)
    return market.human_cost * rise ** (1.0 / market.shape)


def _segments(curve: list[Point], market: Market) -> list[tuple[float, float, float]]:
    """(from, to, score) for each part of the overlap: a supply step above the acceptance curve."""
    out = []
    for number, point in enumerate(curve):
        start = point.cost
        end = curve[number + 1].cost if number + 1 < len(curve) else math.inf
        stop = min(end, market.human_cost, _crossing(market, point.score))
        if stop > start:
            out.append((start, stop, point.score))
    return out


def overlap_area(curve: list[Point], market: Market) -> float:
    """The intersection of the accessible and acceptable regions, in closed form: on each supply step of
    score v over [a, u], the integral of v - s(c)."""
    if market.human_cost == 0:
        return 0.0
    total, rise, power = 0.0, market.expert_score - market.min_score, market.shape + 1.0
    for start, stop, score in _segments(curve, market):
        under = (
            rise
            * market.human_cost
            / power
            * ((stop / market.human_cost) ** power - (start / market.human_cost) ** power)
        )
        total += (score - market.min_score) * (stop - start) - under
    return max(0.0, total)


def assess(points: list[Point], market: Market, dimension: str = "cost") -> Assessment:
    if dimension not in DIMENSIONS:
        raise ValueError(f"the dimension must be one of {sorted(DIMENSIONS)}, got {dimension!r}")
    curve = frontier(points)
    inside = [p for p in curve if p.cost < market.human_cost and p.score > market.required(p.cost)]
    area = overlap_area(curve, market)
    acceptable = market.acceptable_area()
    stage = 1
    if area > 0:
        stage = 3 if any(p.score >= market.expert_score for p in inside) else 2
    return Assessment(
        dimension=dimension,
        points=points,
        frontier=curve,
        market=market,
        inside=inside,
        stage=stage,
        area=area,
        share=area / acceptable if acceptable > 0 else None,
        best=min(inside, key=lambda p: (p.cost, -p.score)) if inside else None,
    )


def assessment_from_json(doc: dict[str, Any]) -> Assessment:
    """The Assessment again from its JSON form (results.json), for drawing it."""
    market = Market(
        human_cost=float(doc["human_cost_per_task"]),
        min_score=float(doc["min_score"]),
        expert_score=float(doc["expert_score"]),
        shape=float(doc.get("acceptance_shape", 1.0)),
        task_costs=tuple(float(c) for c in doc.get("task_costs") or ()),
    )
    points = [Point(**p) for p in doc["points"]]
    return assess(points, market, doc.get("dimension", "cost"))


# -- from the run history ---------------------------------------------------------------------------


SCORED = ("passed", "failed", "imported")


def points_from_history(rows: list[dict[str, str]], dimension: str = "cost") -> tuple[list[Point], list[str]]:
    """One point per agent version: the system under test's own mean cost per item (its calls at their price,
    cached or not, without the judges', extraction's or rubric's; every item, failures too: they were paid
    for) or its own mean latency (the items it worked on), and its mean score over scored items. Also the
    agent versions left out because a price (or a time) of the system's own work is unknown."""
    from harness.analysis.index import agent_key

    column = "system_cost_usd" if dimension == "cost" else "system_latency_s"
    groups: dict[str, list[dict[str, str]]] = defaultdict(list)
    for row in rows:
        groups[agent_key(row)].append(row)
    points, missing = [], []
    for label, members in sorted(groups.items()):
        scores = [float(r["score"]) for r in members if r.get("score")]
        if not scores:
            continue
        if dimension == "cost":
            counted = members  # an item the system did not finish still cost what it spent
            unknown = any(not r.get(column) for r in members)
        else:  # the items the system worked on; one of them without a time leaves the agent out
            counted = [r for r in members if r.get(column)]
            unknown = not counted or any(not r.get(column) and r.get("outcome") in SCORED for r in members)
        if unknown:
            missing.append(label)
            continue
        values = [float(r[column]) for r in counted]
        points.append(
            Point(
                label=label,
                cost=sum(values) / len(counted),
                score=statistics.fmean(scores),
                family=members[0]["agent"],
                tasks=len({(r["task"], r.get("task_version")) for r in members}),
            )
        )
    return points, missing


def expert_minutes(rows: list[dict[str, str]]) -> list[float]:
    """Each task's expert minutes, once per task version."""
    minutes: dict[tuple[str, str], float] = {}
    for row in rows:
        if row.get("expert_minutes"):
            minutes[(row["task"], row.get("task_version", ""))] = float(row["expert_minutes"])
    if not minutes:
        raise ValueError("no task in this selection records expert minutes (metadata.expert_minutes)")
    return [minutes[key] for key in sorted(minutes)]


def market_from_history(
    rows: list[dict[str, str]], dimension: str, *, hourly_rate: float, min_score: float, expert_score: float,
    shape: float = 1.0,
) -> Market:  # fmt: skip
    """The market of one dimension: each task's expert minutes at `hourly_rate` USD an hour (cost) or in
    seconds (latency)."""
    per_minute = hourly_rate / 60.0 if dimension == "cost" else 60.0
    costs = tuple(m * per_minute for m in expert_minutes(rows))
    return Market(statistics.fmean(costs), min_score, expert_score, shape, costs)


def assess_history(
    rows: list[dict[str, str]], *, hourly_rate: float, min_score: float, expert_score: float, shape: float = 1.0
) -> dict[str, Any]:
    """The JSON form of both dimensions over history rows: cost (always) and latency (when any agent version
    has it for every item)."""
    doc: dict[str, Any] = {"hourly_rate": hourly_rate}
    for dimension in DIMENSIONS:
        points, missing = points_from_history(rows, dimension)
        if dimension == "latency" and not points:
            doc["latency"] = None
            continue
        market = market_from_history(rows, dimension, hourly_rate=hourly_rate, min_score=min_score,
                                     expert_score=expert_score, shape=shape)  # fmt: skip
        part = {**assess(points, market, dimension).to_json(), "missing": missing}
        if dimension == "cost":
            doc.update(part)
        else:
            doc["latency"] = part
    return doc


# -- drawing ----------------------------------------------------------------------------------------


def geometry(result: Assessment) -> dict[str, Any]:
    """What a plot draws, in data coordinates for a log x axis: zero costs sit at `floor`, the left edge.
    Shared by the report's SVG and the PNG of `harness tmf --plot`."""
    market = result.market
    positive = [p.cost for p in result.points if p.cost > 0] + [c for c in market.task_costs if c > 0]
    if market.human_cost > 0:
        positive.append(market.human_cost)
    floor = max(min(positive) / 10, 1e-9) if positive else 1e-4
    right = max([*positive, floor]) * 10

    def x(cost: float) -> float:
        return max(cost, floor)

    def between(start: float, stop: float) -> list[float]:
        low = max(start, floor)
        if stop <= low:
            return [x(start), x(stop)]
        ratio = (stop / low) ** (1.0 / CURVE_SAMPLES)
        return [low * ratio**i for i in range(CURVE_SAMPLES)] + [stop]

    acceptance: list[tuple[float, float]] = []
    if market.human_cost > 0:
        acceptance = [(c, market.required(min(c, market.human_cost))) for c in between(0.0, market.human_cost)]
    region = [*acceptance, (x(market.human_cost), 100.0), (floor, 100.0)] if acceptance else []
    overlaps = []
    for start, stop, score in _segments(result.frontier, market):
        under = [(c, market.required(c)) for c in reversed(between(start, stop))]
        overlaps.append([(x(start), score), (x(stop), score), *under])
    steps = [(x(p.cost), p.score) for p in result.frontier]
    if steps:
        steps.append((right, steps[-1][1]))
    return {
        "floor": floor,
        "right": right,
        "unit": DIMENSIONS[result.dimension],
        "acceptance": acceptance,
        "acceptable_region": region,
        "overlaps": overlaps,
        "supply": steps,
        "human_curve": [(x(c), s) for c, s in market.human_curve()],
        "human_point": (x(market.human_cost), market.expert_score),
        "points": [(x(p.cost), p.score, p.label, p.cost == 0) for p in sorted(result.points, key=lambda p: p.label)],
    }


# -- words ------------------------------------------------------------------------------------------


def _money(value: float, unit: str) -> str:
    if unit == "USD":
        return f"${value:,.4f}" if value < 1 else f"${value:,.2f}"
    return f"{value:,.0f} s" if value >= 10 else f"{value:,.2f} s"


def _verdict(doc: dict[str, Any]) -> str:
    unit = doc.get("unit", "USD")
    what = "cost" if unit == "USD" else "time"
    points = {p["label"]: p for p in doc["points"]}
    if not points:  # nothing to set against the market: not a verdict on any agent
        missing = doc.get("missing") or []
        known = "price" if unit == "USD" else "time"
        named = f" ({', '.join(missing[:3])}{', ...' if len(missing) > 3 else ''})" if missing else ""
        return f"not assessed: no agent could be placed, none has a known {what} for every item{named}; " + (
            "give the models' prices with --price-file" if known == "price" else "their times were not kept"
        )
    if not doc["reached"]:
        return (
            f"not reached (stage 1): no agent's supply curve enters the market's acceptable region; a person "
            f"delivers {doc['expert_score']:g} for {_money(doc['human_cost_per_task'], unit)} per task"
        )
    best = points[doc["best"]]
    share = doc.get("value_share")
    value = f"{doc['value']:,.4f} {'quality-weighted USD' if unit == 'USD' else 'quality-weighted seconds'} per task"
    return (
        f"reached (stage {doc['stage']}): the overlap is {value}"
        + (f", {share * 100:.1f} % of the acceptable region" if share is not None else "")
        + f"; the {what}-cheapest acceptable agent `{best['label']}` scores {best['score']:.1f} at "
        f"{_money(best['cost'], unit)} per task, against a person's {doc['expert_score']:g} at "
        f"{_money(doc['human_cost_per_task'], unit)}"
    )


def markdown_section(doc: dict[str, Any]) -> list[str]:
    """The summary.md section, from the JSON form (assess_history() plus suites)."""
    suites = ", ".join(doc.get("suites") or []) or "all suites"
    if doc.get("error"):
        return [f"### Tech-Market Fit ({suites})", "", f"_Not computed: {doc['error']}._"]
    shape = doc.get("acceptance_shape", 1.0)
    lines = [
        f"### Tech-Market Fit ({suites})",
        "",
        f"_A person: {doc['expert_score']:g} for ${doc['human_cost_per_task']:,.2f} per task (the tasks' mean "
        f"expert minutes at ${doc['hourly_rate']:g}/hour). The market accepts {doc['min_score']:g} at no cost, "
        f"rising to the expert's {doc['expert_score']:g} at the expert's cost"
        f"{'' if shape == 1 else f' (curve shape {shape:g})'}, and nothing dearer. Every agent version in the run "
        "history on these suites is a point, at the cost and time of its own work (its calls, not the judges'); "
        "the value is the area where the agents' supply curve rises above the market's acceptance curve._",
        "",
        f"**Tech-Market Fit {_verdict(doc)}.**",
    ]
    latency = doc.get("latency")
    if latency:
        lines += ["", f"Against time (seconds per task, the expert's own minutes): {_verdict(latency)}."]
    lines += ["", "| agent | cost per task | score | seconds per task | on the supply curve | acceptable |",
              "|---|---:|---:|---:|---|---|"]  # fmt: skip
    seconds = {p["label"]: p["cost"] for p in (latency or {}).get("points", [])}
    on_curve, inside = set(doc["frontier"]), set(doc["inside"])
    for point in sorted(doc["points"], key=lambda p: (p["cost"], -p["score"])):
        label = point["label"]
        lines.append(
            f"| `{label}` | ${point['cost']:.4f} | {point['score']:.1f} | "
            f"{f'{seconds[label]:,.1f}' if label in seconds else ''} | "
            f"{'yes' if label in on_curve else ''} | {'yes' if label in inside else ''} |"
        )
    human_seconds = f"{latency['human_cost_per_task']:,.0f}" if latency else ""
    lines.append(
        f"| a person (expert) | ${doc['human_cost_per_task']:.4f} | {doc['expert_score']:g} | {human_seconds} | | |"
    )
    if doc.get("missing"):
        lines += [
            "",
            f"_Left out, the system's own cost unknown for some item: {', '.join(f'`{m}`' for m in doc['missing'])} "
            "(a model without a price: give one with --price-file; a run recorded before the system's own cost "
            "was kept: `harness history rebuild --force`)._",
        ]
    return lines
