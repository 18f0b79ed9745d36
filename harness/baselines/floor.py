"""The keyword floor measured without a run: every keyword strategy (harness.baselines.keyword.STRATEGIES)
over every Recruitment task and every Marketing brief, scored by the reference judge as `--judge-model
harness/reference` scores it (Marketing: the share of the k recommendations that are the client's picks).
A run of 50 tasks per strategy takes seconds, so tests can hold all of them low, not just the one agent the
docs' table shows. An open-web task (no world, no tools) gets the keyword agent's empty answer: 0, as a run
scores a system that gives no answer.
"""

from __future__ import annotations

import json
import statistics
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from harness.baselines import keyword
from harness.benchmarks.recruitment import reference
from harness.world import World, load_world, normalize_url

RECRUITMENT = ("company_mapping", "people_to_info", "info_to_people")
KIND = "influencer_search"


@dataclass(frozen=True)
class Row:
    task: str
    kind: str
    world: str | None
    level: int | None  # None: no answer (an open-web task); it scores 0
    score: float


class Worlds:
    """The worlds under `folder`, each loaded once, with its search, open and people."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder
        self._loaded: dict[str, tuple[World, dict[str, str]]] = {}

    def get(self, name: str) -> tuple[World, dict[str, str]]:
        if name not in self._loaded:
            world = load_world(self.folder / name)
            self._loaded[name] = (world, reference.people_of(world.pages))
        return self._loaded[name]


def score_task(task: Any, strategy: keyword.Strategy, worlds: Worlds) -> Row:
    environment = task.inputs.environment
    if environment == "open-web":
        return Row(task.id, task.kind, None, None, 0.0)
    world, people = worlds.get(environment)

    def open_text(url: str) -> str:
        page = world.get(url)
        return page.text if page else ""

    answer = keyword.answer(task.kind, task.inputs.model_dump(mode="json"), world.search, open_text, strategy)
    level = int(reference.verdict(task, answer, people)["score"])
    return Row(task.id, task.kind, environment, level, (level - 1) * 25.0)


def measure(tasks: list[Any], strategy: keyword.Strategy, worlds: Worlds) -> list[Row]:
    return [score_task(task, strategy, worlds) for task in tasks if task.kind in RECRUITMENT]


def means(rows: list[Row], world_only: bool = False) -> dict[str, float]:
    """The mean score per kind (over every task, or over world tasks only)."""
    out: dict[str, float] = {}
    for kind in RECRUITMENT:
        scores = [r.score for r in rows if r.kind == kind and (r.world or not world_only)]
        if scores:
            out[kind] = statistics.fmean(scores)
    return out


def reselection(task: Any, strategy: keyword.Strategy, worlds: Worlds) -> float:
    """A Marketing brief's re-selection rate for the keyword answer under the reference judge: 100 x the client's
    picks among the first k recommendations / k (links outside the pool and repeats count as misses)."""
    world, _ = worlds.get(task.inputs.environment)

    def open_text(url: str) -> str:
        page = world.get(url)
        return page.text if page else ""

    answer = keyword.answer(KIND, task.inputs.model_dump(mode="json"), world.search, open_text, strategy)
    picks = {normalize_url(page.url) for link in task.ground_truth.selected if (page := world.get(link))}
    found: set[str] = set()
    for item in json.loads(answer)[: task.inputs.k]:
        page = world.get(str(item.get("link", "")))
        if page is not None and normalize_url(page.url) in picks:
            found.add(normalize_url(page.url))
    return 100.0 * len(found) / task.inputs.k
