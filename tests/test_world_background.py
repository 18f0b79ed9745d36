"""The generated background of the recruitment worlds (issue 27, "scale and noise"): thousands of plausible
pages around the hand-written task pages. They must be reproducible from their source data, read as varied
as real pages do, and never become a second answer: no task person, no fact a task turns on, no leader at
the world's own companies. `python scripts/generate_world_background.py` regenerates them."""

from __future__ import annotations

import functools
import re
from collections import Counter
from pathlib import Path

import pytest
from helpers import REPO, generated_background

from harness.world import normalize_url, read_pages
from scripts.world_background import crowds, variety
from scripts.world_background import guards as guard_rules
from scripts.world_background.generate import differences
from scripts.world_background.model import LEADER
from scripts.world_background.sources import BACKGROUND, SOURCES, load

WORLDS = sorted(p.name for p in SOURCES.iterdir() if (p / "world.yaml").is_file())
RERUN = "rerun `python scripts/generate_world_background.py` and commit the pages"
# Caps on repetition. Over all background pages of a world: no sentence (five words or more) on more than 2 %
# of them, no five-word shape (names and numbers masked) on more than 5 %, and few shapes above 2 %. Within a
# kind of page with 100 pages or more (people, news, teams): 5 % and 15 %.
SENTENCE_CAP, SHAPE_CAP, SHAPES_ABOVE_2_PERCENT = 0.02, 0.05, 250
KIND_SENTENCE_CAP, KIND_SHAPE_CAP = 0.05, 0.15


@functools.cache
def committed(world: str) -> dict[str, str]:
    """Page text (after the front matter) of every committed background page, by path under background/."""
    folder = REPO / "fixtures" / "worlds" / world / BACKGROUND
    return {p.relative_to(folder).as_posix(): p.read_text(encoding="utf-8") for p in sorted(folder.rglob("*.md"))}


def body(page: str) -> str:
    return page.split("\n---\n", 1)[1]


@pytest.mark.parametrize("world", WORLDS)
def test_regenerating_the_background_reproduces_the_committed_pages(world: str) -> None:
    found = differences(generated_background(world).background)
    assert not found, f"{world}: {len(found)} background pages differ from their sources ({found[:5]}); {RERUN}"
    assert len(committed(world)) >= 1000, f"{world}: a background of thousands of pages was asked for"


@pytest.mark.parametrize("world", WORLDS)
def test_no_sentence_or_sentence_shape_repeats_across_many_background_pages(world: str) -> None:
    pages = committed(world)
    overall = variety.measure([body(p) for p in pages.values()])
    top_sentence, top_shape = overall.top_sentences[0], overall.top_shapes[0]
    assert overall.sentence_share <= SENTENCE_CAP, f"{world}: {top_sentence[0]!r} is on {top_sentence[1]} pages"
    assert overall.shape_share <= SHAPE_CAP, f"{world}: the shape {top_shape[0]!r} is on {top_shape[1]} pages"
    assert overall.shapes_over[0.02] <= SHAPES_ABOVE_2_PERCENT, f"{world}: {overall.shapes_over[0.02]} common shapes"
    kinds = Counter(path.split("/", 1)[0] for path in pages)
    for kind, count in kinds.items():
        if count < 100:
            continue
        measured = variety.measure([body(p) for path, p in pages.items() if path.startswith(f"{kind}/")])
        sentence, shape = measured.top_sentences[0], measured.top_shapes[0]
        assert measured.sentence_share <= KIND_SENTENCE_CAP, f"{world} {kind}: {sentence[0]!r} on {sentence[1]} pages"
        assert measured.shape_share <= KIND_SHAPE_CAP, f"{world} {kind}: shape {shape[0]!r} on {shape[1]} pages"


DATES = {
    "Mar 2019": re.compile(r"\b(?:Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec) \d{4}\b"),
    "March 2019": re.compile(
        r"\b(?:January|February|March|April|June|July|August|September|October|November|December) \d{4}\b"
    ),
    "03/2019": re.compile(r"\b\d{2}/\d{4}\b"),
    "2019.03": re.compile(r"\b\d{4}\.\d{2}\b"),
    "2019年3月": re.compile(r"\d{4}年\d{1,2}月"),
    "2019 - 2021": re.compile(r"\b\d{4} ?[-–] ?\d{4}\b"),
}  # fmt: skip


@pytest.mark.parametrize("world", WORLDS)
def test_background_profiles_come_in_many_shapes_and_lengths(world: str) -> None:
    people = [body(p) for path, p in committed(world).items() if path.startswith("people/")]
    measured = variety.measure(people)
    assert measured.words_p90 >= 2.2 * measured.words_p10, f"{world}: sparse and rich profiles differ in length"
    assert len([n for n, count in measured.sections.items() if count >= 0.03 * len(people)]) >= 4, measured.sections
    formats = {name for name, pattern in DATES.items() for text in people[:800] if pattern.search(text)}
    assert len(formats) >= 5, f"{world}: dates are written in only {sorted(formats)}"
    no_education = sum(1 for text in people if not re.search(r"University|Institut|College|Polytechnic|Universi", text))
    assert 0.04 <= no_education / len(people) <= 0.35, f"{world}: {no_education} of {len(people)} name no school"
    openings = Counter(text.lstrip()[:2] for text in people)
    assert len(openings) >= 3 and max(openings.values()) <= 0.7 * len(people), openings


@pytest.mark.parametrize("world", WORLDS)
def test_no_background_page_names_a_task_person_or_a_fact_a_task_turns_on(world: str) -> None:
    """Held against the tasks as they are now: when a task lands with a new person or a reserved fact, this
    fails until the background is regenerated (the generator then avoids them)."""
    guard = guard_rules.build(load(world))
    assert guard.terms and guard.names, f"{world}: the guard holds nothing (tasks or guard files not read)"
    # a crowd's pages share its own task's words on purpose (scripts/world_background/crowds.py): every other guard
    own = {spec.task: crowds.guard_for(guard, spec) for spec in crowds.specs(SOURCES / world)}
    broken = []
    for path, page in committed(world).items():
        title = re.search(r"^title: (.*)$", page, re.M)
        crowd = re.search(r'^  crowd: "(.*)"$', page, re.M)
        held = own[crowd.group(1)] if crowd else guard
        problems = held.problems(f"{title.group(1) if title else ''}\n{body(page)}")
        if problems:
            broken.append(f"{path}: {problems[0]}")
    assert not broken, f"{world}: {len(broken)} background pages break a guard ({broken[:5]}); {RERUN}"


@pytest.mark.parametrize("world", WORLDS)
def test_the_guards_catch_task_people_reserved_facts_and_forbidden_combinations(world: str) -> None:
    guard = guard_rules.build(load(world))
    person = guard.names[-1][1]  # the last name read comes from a task's key or a guard file
    assert guard.problems(f"Worked with {person} on the new release."), f"{person} is not caught"
    assert guard.problems(f"Worked with {' '.join(reversed(person.split()))} on it."), "reversed names slip through"
    term = guard.terms[0][1]
    assert guard.problems(f"Last year: {term.upper()}, and more."), f"{term!r} is not caught in capitals"
    if guard.native:
        assert guard.problems(f"同事：{guard.native[0]}"), "a name in its native script slips through"
    for patterns, why in guard.combinations:
        words = [p.pattern.removeprefix("(?<!\\w)").removesuffix("(?!\\w)").replace("\\s+", " ") for p in patterns]
        words = [w.replace("\\", "") for w in words]
        assert guard.problems(" and ".join(words)), f"the combination {why} is not caught"
        assert not guard.problems(words[0]) or any(words[0] in t for _, t, _ in guard.terms), "one term alone is caught"
    shared = load(world).world["shared_employers"][0]["name"]
    assert not guard.problems(f"Software Engineer at {shared}"), f"sharing {shared} must stay allowed"


@pytest.mark.parametrize("world", WORLDS)
def test_background_links_only_to_its_own_pages_and_the_worlds_about_pages(world: str) -> None:
    pages = read_pages(REPO / "fixtures" / "worlds" / world)  # refuses a link to a page the world lacks
    by_url = {normalize_url(p.url): p for p in pages}
    background = [p for p in pages if BACKGROUND in p.path.parts]
    assert len(background) == len(committed(world))
    for page in background:
        for link in page.links:
            target = by_url[normalize_url(link)]
            own = BACKGROUND in target.path.parts
            assert own or target.kind in ("company", "school"), f"{page.path}: links to hand-written {link}"
            assert own or target.url.endswith("/about"), f"{page.path}: links to {link}, not an about page"


@pytest.mark.parametrize("world", WORLDS)
def test_background_people_share_the_worlds_companies_and_schools_but_never_lead_there(world: str) -> None:
    generator = generated_background(world)
    model = generator.model
    at_own = [(p, j) for p in model.people for j in p.jobs if j.company.shared]
    assert len({p.key for p, _ in at_own}) >= 0.2 * len(model.people), "too few share the world's own employers"
    for person, job in at_own:
        assert not LEADER.search(job.title), f"{person.name}: {job.title} at {job.company.name} names a leader"
        assert job.function not in job.company.avoid, f"{person.name}: {job.function} at {job.company.name}"
    own_schools = {s.name for s in model.schools if not s.background}
    studied = Counter(s.school.name for p in model.people for s in p.studies if s.school.name in own_schools)
    assert len(studied) == len(own_schools) and min(studied.values()) >= 10, studied
    cities = Counter(p.city for p in model.people)
    assert len(cities) >= 20 and cities.most_common(1)[0][1] <= 0.25 * len(model.people), cities.most_common(3)


def test_a_world_without_source_data_is_refused_with_its_path(tmp_path: Path) -> None:
    from scripts.world_background.sources import SourceError

    with pytest.raises(SourceError, match="no source data for world 'nowhere'"):
        load("nowhere")
