"""Offline worlds: loading errors name the file, search ranks with BM25, open pages long pages, the tools
speak JSON, and every ground-truth fact of every world task is findable in its world."""

from __future__ import annotations

import functools
import json
import re
from pathlib import Path

import pytest
from helpers import REPO

from harness.task import load_task_file
from harness.world import WorldError, load_world, normalize_url, paginate, world_tools

WORLDS = REPO / "fixtures" / "worlds"


def page(url: str, title: str, text: str, links: list[str] | None = None) -> str:
    link_lines = "".join(f"  - {link}\n" for link in links or [])
    return f"---\nurl: {url}\ntitle: {title}\n" + (f"links:\n{link_lines}" if links else "") + f"---\n{text}\n"


@pytest.fixture
def small_world(tmp_path: Path) -> Path:
    folder = tmp_path / "tiny"
    (folder / "people").mkdir(parents=True)
    (folder / "people" / "ana.md").write_text(
        page(
            "https://p.example/in/ana",
            "Ana Ruiz - Data Engineer",
            "Ana builds Kafka pipelines at Ferrovia in Madrid.",
            ["https://ferrovia.example/about"],
        )
    )
    (folder / "about.md").write_text(
        page("https://ferrovia.example/about", "Ferrovia", "Rail logistics in Spain. " * 400)
    )
    (folder / "README.md").write_text("# Not a page\nNo front matter here, and that is fine.\n")
    return folder


def test_a_world_loads_and_searches(small_world: Path) -> None:
    world = load_world(small_world)
    assert len(world.pages) == 2  # README.md is for people, not a page
    (top, *_) = world.search("kafka pipelines madrid")
    assert top["url"] == "https://p.example/in/ana" and "Kafka" in top["snippet"]
    assert world.search("the of and") == []  # stop words only: nothing to rank
    assert world.get("HTTPS://www.p.example/in/ana/")  # URLs compare without scheme, www, case or slash


def test_long_pages_come_in_parts(small_world: Path) -> None:
    world = load_world(small_world)
    first = world.open("ferrovia.example/about")
    assert first["pages"] > 1 and len(first["text"]) <= 4000
    assert world.open("https://ferrovia.example/about", first["pages"])["page"] == first["pages"]
    assert "error" in world.open("https://ferrovia.example/about", 99)
    assert "error" in world.open("https://nowhere.example/")
    assert "".join(paginate("a\n" * 5000, 100)).count("a") == 5000


def test_the_tools_speak_json(small_world: Path) -> None:
    search, open_page = world_tools(load_world(small_world))
    found = json.loads(search.function(query="Ana Ruiz", k=3))
    assert found["results"][0]["url"] == "https://p.example/in/ana"
    opened = json.loads(open_page.function(url=found["results"][0]["url"]))
    assert opened["title"] == "Ana Ruiz - Data Engineer" and "Kafka" in opened["text"]
    assert json.loads(search.function(query="Ana", k="lots"))["results"]  # a bad k falls back to 5


@pytest.mark.parametrize(
    ("mutate", "needle"),
    [
        (lambda f: (f / "dup.md").write_text(page("https://p.example/in/ana/", "Copy", "x")), "is already the url of"),
        (lambda f: (f / "nofront.md").write_text("just text\n"), "nofront.md:1: expected YAML front matter"),
        (
            lambda f: (f / "bad.md").write_text("---\nurl: a\nurl: b\ntitle: t\n---\nx\n"),
            "bad.md:3: YAML error: duplicate key 'url'",
        ),
        (lambda f: (f / "notitle.md").write_text("---\nurl: https://x.example\n---\nx\n"), "field 'title' is required"),
        (
            lambda f: (f / "dangling.md").write_text(page("https://d.example", "D", "x", ["https://gone.example"])),
            "links to https://gone.example",
        ),
        (lambda f: (f / "binary.md").write_bytes(b"\xff\xfe\x00bad"), "binary.md: cannot read the page"),
    ],
)
def test_a_bad_world_is_refused_naming_the_file(small_world: Path, mutate, needle: str) -> None:
    mutate(small_world)
    with pytest.raises(WorldError) as caught:
        load_world(small_world)
    assert needle in str(caught.value)


def test_normalize_url() -> None:
    assert normalize_url("https://www.YouTube.com/@TED/") == normalize_url("youtube.com/@ted")
    assert normalize_url("http://a.example/x?y=1#frag") == "a.example/x?y=1"
    # tracking parameters go, the page's own parameters stay in their order
    assert normalize_url("https://a.example/x/?utm_source=nl&b=2&fbclid=Q&a=1&si=abc") == "a.example/x?b=2&a=1"


@functools.cache
def world_tasks() -> list:
    tasks = []
    paths = [*(REPO / "evals" / "recruitment-easy").rglob("*.yaml"), *(REPO / "evals" / "recruitment").rglob("*.yaml")]
    for path in sorted(paths):
        for task, _ in load_task_file(path).tasks:
            environment = getattr(task.inputs, "environment", "open-web")
            recruitment = task.kind in ("company_mapping", "people_to_info", "info_to_people")
            if recruitment and environment != "open-web" and (WORLDS / environment).is_dir():
                tasks.append(task)
    return tasks


class _Worlds(dict):
    """Each world loaded once per module, on first use (a world of 3,000 pages takes seconds to load)."""

    def __missing__(self, name: str):
        self[name] = load_world(WORLDS / name)
        return self[name]


@pytest.fixture(scope="module")
def worlds() -> dict:
    return _Worlds()


def test_every_ground_truth_fact_of_a_world_task_is_findable(worlds: dict) -> None:
    tasks = world_tasks()
    assert len(tasks) >= 17
    for task in tasks:
        world = worlds[task.inputs.environment]
        truth = task.ground_truth
        evidence = list(getattr(truth, "evidence", ()))
        for question in getattr(truth, "questions", ()):
            assert question.evidence, f"{task.id}: every verification question names where its answer is"
            evidence += list(question.evidence)
        assert evidence, f"{task.id}: a world task says where its truth can be read"
        for item in evidence:
            found = world.get(item.url)
            assert found is not None, f"{task.id}: {item.url} is not a page of {world.name}"
            flat_page, flat_quote = " ".join(found.text.split()), " ".join(item.quote.split())
            assert flat_quote in flat_page, f"{task.id}: {item.quote!r} is not on {item.url}"
        for person in getattr(truth, "people", ()):
            assert person.url and world.get(person.url), f"{task.id}: {person.name} has no page"
            hits = [h["url"] for h in world.search(person.name, k=10)]
            assert person.url in hits, f"{task.id}: searching {person.name!r} does not find their page"
        if task.kind == "people_to_info":
            hits = [h["url"] for h in world.search(f"{task.inputs.person} {task.inputs.background}", k=5)]
            assert hits, f"{task.id}: nothing found for the person"
        if task.kind == "company_mapping":  # every expected name is on a page: all its words on one page
            texts = _lowered_texts(world)
            for names in truth.expected.values():
                for name in names:
                    words = [w for w in re.findall(r"\w+", name.lower()) if len(w) > 2]
                    assert any(all(w in t for w in words) for t in texts), f"{task.id}: {name!r} is on no page"


@functools.cache
def _lowered_texts(world) -> list[str]:
    return [f"{p.title} {p.text}".lower() for p in world.pages]


def _people_ranked(world, query: str) -> list[str]:
    return [normalize_url(h["url"]) for h in world.search(query, k=40) if "/in/" in h["url"]]


def _name_words(text: str) -> set[str]:
    return {w for w in re.findall(r"\w+", text.casefold()) if len(w) > 1}


def test_a_namesake_outranks_every_people_to_info_target_for_its_name_and_role(worlds: dict) -> None:
    """Issue 21: a keyword search on the name and the role, as the client gives them, must not pick the right
    person. In every people-to-info task the top person page for that query is a namesake (the same name words),
    who shares the role's words too; what tells them apart is in the profile the task gives."""
    tasks = [task for task in world_tasks() if task.kind == "people_to_info"]
    assert len([task for task in tasks if task.metadata.tier == "easy"]) == 13
    for task in tasks:
        world = worlds[task.inputs.environment]
        profile = task.ground_truth.profile
        assert profile and world.get(profile), f"{task.id}: ground_truth.profile is not a page of {world.name}"
        top = _people_ranked(world, f"{task.inputs.person} {task.inputs.background}")[0]
        assert top != normalize_url(profile), f"{task.id}: the name and role alone find the target"
        assert _name_words(task.inputs.person) <= _name_words(world.get(top).title), f"{task.id}: {top} is no namesake"


def test_two_near_misses_outrank_every_info_to_people_target_for_the_question(worlds: dict) -> None:
    """Issue 21: no single query finds the people. For the question's own words, at least two other people rank
    above the first target, each missing one condition that their own page shows (the task's evidence)."""
    tasks = [task for task in world_tasks() if task.kind == "info_to_people"]
    assert len([task for task in tasks if task.metadata.tier == "easy"]) == 15
    for task in tasks:
        world = worlds[task.inputs.environment]
        ranked = _people_ranked(world, task.inputs.question)
        targets = {normalize_url(p.url) for p in task.ground_truth.people}
        # with a crowd (background/crowd/), the first target may rank below the forty people shown: that holds too
        first = next((rank for rank, url in enumerate(ranked) if url in targets), len(ranked))
        assert first >= 2, f"{task.id}: a target ranks {first + 1} for the question's words"


# A person page's structured location may be written as its owner writes it.
PLACE_NAMES = {"Bangalore": ("Bengaluru",), "Mexico City": ("Ciudad de México", "CDMX")}


@pytest.mark.parametrize("name", ["talent-atlas", "meridian-works"])
def test_every_person_page_shows_its_own_city_and_employer(worlds: dict, name: str) -> None:
    """The structured facts tests and tasks rely on (`data.location`, `data.current_employer`) are what the page
    itself says, so an edit that moves a person cannot leave the page behind."""
    world = worlds[name]
    people = [page for page in world.pages if page.kind == "person"]
    assert len(people) > 100
    for page in people:
        shown = f"{page.title} {page.text}".casefold()
        location, employer = page.data.get("location"), page.data.get("current_employer")
        if location:
            spellings = (location, *PLACE_NAMES.get(location, ()))
            assert any(s.casefold() in shown for s in spellings), f"{page.url}: {location} is not on the page"
        if employer:
            assert employer.casefold() in shown, f"{page.url}: {employer} is not on the page"


def test_a_page_that_links_outside_its_world_is_refused(tmp_path: Path) -> None:
    from harness.world import WorldError, read_pages

    world = tmp_path / "w"
    world.mkdir()
    (world / "a.md").write_text("---\nurl: https://a.example/\ntitle: A\n---\nhello\n")
    secret = tmp_path / "answers.md"
    secret.write_text("---\nurl: https://b.example/\ntitle: B\n---\nthe ground truth\n")
    (world / "b.md").symlink_to(secret)
    with pytest.raises(WorldError, match="outside the world's folder"):
        read_pages(world)
