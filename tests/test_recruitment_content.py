"""The calibrated Recruitment set (evals/recruitment/, issue 27): difficulty that comes from the work, fair to
every reader. Every fact a key or a decoy relies on is quoted from the visible text of a page the agent can
open (never front matter or a link); info-to-people asks for two to six people among ten or more plausible
ones, with each target's proof spread over three pages or more; people-to-info needs pages beyond the
person's own; company mapping names adjacent organisations and why each fails; the set keeps the paper's mix."""

from __future__ import annotations

import functools
from collections import Counter
from pathlib import Path
from typing import Any

import pytest
from helpers import REPO, load_tasks

from harness.task import load_task_file
from harness.world import World, load_world, normalize_url

WORLDS = REPO / "fixtures" / "worlds"
CALIBRATED = REPO / "evals" / "recruitment"
PAPER_MIX = {"company_mapping": 22, "info_to_people": 15, "people_to_info": 13}
# Where the set must show each kind of work once it is whole (tags on the tasks that need it).
WORK_TAGS = {
    "stale_page": 8, "other_language": 6, "other_script": 4, "date_arithmetic": 8, "moved_person": 4, "long_list": 6,
}  # fmt: skip


@functools.cache
def calibrated() -> tuple[Any, ...]:
    return tuple(load_tasks(sorted(CALIBRATED.glob("*.yaml"))))


@functools.cache
def world(name: str) -> World:
    return load_world(WORLDS / name)


def _ids() -> list[str]:
    return [task.id for task in calibrated()] or ["none"]


def _task(task_id: str) -> Any:
    if task_id == "none":
        pytest.skip("evals/recruitment/ holds no calibrated task yet")
    return next(task for task in calibrated() if task.id == task_id)


def _flat(text: str) -> str:
    return " ".join(text.split())


def _holds(task_id: str, where: World, url: str, quote: str) -> None:
    page = where.get(url)
    assert page is not None, f"{task_id}: {url} is not a page of {where.name}"
    assert _flat(quote) in _flat(page.text), f"{task_id}: {quote!r} is not in the visible text of {url}"


def _decoys(task: Any) -> tuple[Any, ...]:
    truth = task.ground_truth
    return (
        tuple(getattr(truth, "near_misses", ()))
        + tuple(getattr(truth, "adjacent", ()))
        + tuple(getattr(truth, "namesakes", ()))
    )


@pytest.mark.parametrize("task_id", _ids())
def test_every_key_and_decoy_fact_is_in_the_visible_text_of_its_page(task_id: str) -> None:
    task = _task(task_id)
    assert task.metadata.tier == "calibrated", f"{task_id}: tasks in evals/recruitment/ are the calibrated tier"
    where = world(task.inputs.environment)
    truth = task.ground_truth
    quotes = list(getattr(truth, "evidence", ()))
    for question in getattr(truth, "questions", ()):
        assert question.evidence, f"{task_id}: question {question.question!r} says nowhere where it is answered"
        quotes += list(question.evidence)
    for decoy in _decoys(task):
        assert decoy.url is None or where.get(decoy.url), f"{task_id}: decoy {decoy.name} has no page"
        quotes += list(decoy.evidence)
    assert quotes
    for item in quotes:
        _holds(task_id, where, item.url, item.quote)


@pytest.mark.parametrize("task_id", _ids())
def test_each_type_asks_for_work_spread_over_pages(task_id: str) -> None:
    task = _task(task_id)
    truth = task.ground_truth
    if task.kind == "info_to_people":
        people = truth.people
        assert 2 <= len(people) <= 6, f"{task_id}: {len(people)} targets (2 to 6 wanted)"
        candidates = {normalize_url(p.url) for p in people} | {normalize_url(d.url) for d in truth.near_misses if d.url}
        assert len(candidates) >= 10, f"{task_id}: {len(candidates)} plausible people (10 or more wanted)"
        pages = {normalize_url(e.url) for e in truth.evidence}
        assert len(pages) >= 3 * len(people) // 2 + 1, f"{task_id}: the targets' proof sits on {len(pages)} pages"
        assert len(truth.near_misses) >= 8
    elif task.kind == "people_to_info":
        assert len(truth.questions) >= 5, f"{task_id}: {len(truth.questions)} questions (5 or more wanted)"
        pages = {normalize_url(e.url) for q in truth.questions for e in q.evidence}
        assert len(pages) >= 3, f"{task_id}: the answers sit on {len(pages)} pages"
        profile = normalize_url(truth.profile or "")
        off = [q for q in truth.questions if any(normalize_url(e.url) != profile for e in q.evidence)]
        assert 2 * len(off) >= len(truth.questions), f"{task_id}: most answers are on the person's own page"
        assert truth.namesakes, f"{task_id}: nobody in the world shares the name"
    else:
        wanted = sum(o.quantity for o in task.inputs.objects)
        assert len(truth.adjacent) >= min(3, wanted), f"{task_id}: {len(truth.adjacent)} adjacent organisations"
        names = [name for names in truth.expected.values() for name in names]
        texts = [_flat(f"{p.title} {p.text}").casefold() for p in world(task.inputs.environment).pages]
        for name in names:
            assert any(name.casefold() in text for text in texts), f"{task_id}: {name!r} is on no page"


def test_the_calibrated_set_keeps_the_papers_mix_as_it_grows() -> None:
    tasks = calibrated()
    if not tasks:
        pytest.skip("evals/recruitment/ holds no calibrated task yet")
    ids = [task.id for task in tasks]
    assert len(ids) == len(set(ids)), "a task id is used twice"
    kinds = Counter(task.kind for task in tasks)
    for kind, count in PAPER_MIX.items():
        assert kinds[kind] <= count, f"{kinds[kind]} {kind} tasks: the paper's set has {count}"
    if len(tasks) < sum(PAPER_MIX.values()):
        return
    assert kinds == PAPER_MIX
    long_lists = [t for t in tasks if t.kind == "company_mapping" and sum(o.quantity for o in t.inputs.objects) >= 8]
    assert len(long_lists) >= 8, f"{len(long_lists)} company mappings ask for 8 or more organisations"
    tags = Counter(tag for task in tasks for tag in task.metadata.tags)
    for tag, least in WORK_TAGS.items():
        assert tags[tag] >= least, f"{tags[tag]} tasks tagged {tag} ({least} wanted)"


def test_the_easy_tier_is_labelled_and_kept_apart() -> None:
    easy = [
        task
        for path in sorted((REPO / "evals" / "recruitment-easy").glob("*.yaml"))
        for task, _ in load_task_file(path).tasks
    ]
    assert len(easy) == 50 and all(task.metadata.tier == "easy" for task in easy)
    assert {task.suite for task in easy} == {"recruitment-easy"}
    assert not {task.id for task in easy} & {task.id for task in calibrated()}, "an id is in both tiers"


def test_the_key_fixed_for_fairness_is_in_visible_text(tmp_path: Path) -> None:
    """p2i-matthias-krueger once relied on a hidden link to tie an alumni entry to him (issue 27)."""
    (task,) = [
        t for path in sorted((REPO / "evals" / "recruitment-easy").glob("*.yaml"))
        for t, _ in load_task_file(path).tasks if t.id == "p2i-matthias-krueger"
    ]  # fmt: skip
    where = world(task.inputs.environment)
    mba = next(q for q in task.ground_truth.questions if "MBA" in q.answer)
    for item in mba.evidence:
        _holds(task.id, where, item.url, item.quote)
        assert "Elbwerk" in item.quote or "matthias-krueger-0c5b" in item.url
