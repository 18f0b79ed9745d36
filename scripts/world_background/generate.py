"""One world's background: the model drawn, every page rendered and held against the guards, then written
to (or compared with) fixtures/worlds/<world>/background/."""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from scripts.world_background import crowds as crowd_rules
from scripts.world_background import guards as guard_rules
from scripts.world_background.model import Builder, Model, Person, School
from scripts.world_background.news import NewsWriter
from scripts.world_background.orgs import OrgWriter
from scripts.world_background.people import ProfileWriter, page_record
from scripts.world_background.sources import BACKGROUND, SOURCES, SourceError, Sources, load

ALUMNI_MIN, ALUMNI_MAX = 4, 14


@dataclass
class Background:
    world: str
    pages: dict[str, str] = field(default_factory=dict)  # path under background/ -> file text
    counts: dict[str, int] = field(default_factory=dict)

    @property
    def folder(self) -> Path:
        return load_folder(self.world)


def load_folder(world: str) -> Path:
    from scripts.world_background.sources import WORLDS

    return WORLDS / world / BACKGROUND


def front_matter(record: dict[str, Any]) -> str:
    lines = [
        "---",
        f"url: {record['url']}",
        f"title: {json.dumps(record['title'], ensure_ascii=False)}",
        f"kind: {record['kind']}",
    ]
    if record.get("links"):
        lines += ["links:", *[f"  - {link}" for link in record["links"]]]
    if record.get("data"):
        lines.append("data:")
        for key, value in record["data"].items():
            shown = value if isinstance(value, int) else json.dumps(value, ensure_ascii=False)
            lines.append(f"  {key}: {shown}")
    return "\n".join([*lines, "---", record["text"].rstrip(), ""])


class Generator:
    def __init__(self, sources: Sources) -> None:
        self.sources = sources
        self.guard = guard_rules.build(sources)
        self.builder = Builder(sources, self.guard)
        self.model: Model = self.builder.build()
        self.team_pages = {t.url for c in self.model.companies for t in c.teams if len(t.members) >= 2}
        self.records: list[dict[str, Any]] = []
        self.problems: list[str] = []
        self.crowds: dict[str, crowd_rules.CrowdWriter] = {}

    def keep(self, record: dict[str, Any]) -> list[str]:
        problems = self.guard.problems(f"{record['title']}\n{record['text']}")
        if not problems:
            self.records.append(record)
        return problems

    def must_keep(self, record: dict[str, Any]) -> None:
        problems = self.keep(record)
        if problems:
            self.problems.append(f"{record['path']}: the page {problems[0]}")

    def people(self) -> None:
        writer = ProfileWriter(self.model, self.team_pages)
        for person in self.model.people:
            title, text, links = writer.page(person)
            self.must_keep(page_record(person, title, text, links))

    def organisations(self) -> OrgWriter:
        writer = OrgWriter(self.model, self.team_pages)
        for company in self.model.companies:
            if company.shared:
                continue
            self.must_keep(writer.company(company))
            for team in company.teams:
                if team.url in self.team_pages:
                    self.must_keep(writer.team(team))
        return writer

    def alumni(self, writer: OrgWriter) -> None:
        groups: list[tuple[School, str, list[Person]]] = []
        for school in self.model.schools:
            by_degree: dict[str, list[Person]] = {}
            for person in self.model.people:
                for study in person.studies:
                    if study.school is school:
                        by_degree.setdefault(study.degree, []).append(person)
                        break
            for degree, people in by_degree.items():
                for start in range(0, len(people), ALUMNI_MAX):
                    chunk = people[start : start + ALUMNI_MAX]
                    if len(chunk) >= ALUMNI_MIN:
                        groups.append((school, degree, chunk))
        # round-robin over schools so that every school gets pages before any gets many
        order: list[tuple[School, str, list[Person]]] = []
        queues = {s.name: [g for g in groups if g[0] is s] for s in self.model.schools}
        while any(queues.values()) and len(order) < self.sources.world["counts"]["alumni"]:
            for name in list(queues):
                if queues[name] and len(order) < self.sources.world["counts"]["alumni"]:
                    order.append(queues[name].pop(0))
        made: dict[str, list[tuple[str, str]]] = {}
        for key, (school, degree, people) in enumerate(order):
            record = writer.alumni(key, school, degree, people)
            if not self.keep(record):
                made.setdefault(school.name, []).append((record["url"], record["title"]))
        for school in self.model.schools:
            if school.background:
                self.must_keep(writer.school(school, made.get(school.name, [])))

    def news(self) -> None:
        writer = NewsWriter(self.model, self.builder, self.team_pages)
        wanted, key = self.sources.world["counts"]["news"], 0
        made = 0
        while made < wanted:
            record = writer.item(key)
            key += 1
            if not self.keep(record):
                made += 1
            if key > wanted * 3:
                raise SourceError(f"{self.sources.name}: only {made} of {wanted} news items pass the guards")

    def crowd(self) -> None:
        """Each task's crowd, held to every guard but its own task's words (see crowds.py)."""
        for spec in crowd_rules.specs(SOURCES / self.sources.name):
            guard = crowd_rules.guard_for(self.guard, spec)
            writer = crowd_rules.CrowdWriter(self.model, self.builder, spec, guard, self.team_pages)
            self.crowds[spec.task] = writer
            for record in writer.run():
                problems = guard.problems(f"{record['title']}\n{record['text']}")
                if problems:
                    self.problems.append(f"{record['path']}: the page {problems[0]}")
                else:
                    self.records.append(record)

    def run(self) -> Background:
        self.people()
        writer = self.organisations()
        self.alumni(writer)
        self.news()
        self.crowd()
        if self.problems:
            shown = "\n".join(self.problems[:20])
            raise SourceError(
                f"{len(self.problems)} pages break a guard (change the source data or the guard):\n{shown}"
            )
        background = Background(self.sources.name)
        for record in self.records:
            if record["path"] in background.pages:
                raise SourceError(f"{record['path']}: two background pages would share this file")
            background.pages[record["path"]] = front_matter(record)
            folder = record["path"].split("/", 1)[0]
            background.counts[folder] = background.counts.get(folder, 0) + 1
        urls: dict[str, str] = {}
        for record in self.records:
            if record["url"] in urls:
                raise SourceError(f"{record['path']}: url {record['url']} is also {urls[record['url']]}")
            urls[record["url"]] = record["path"]
        return background


def build(world: str) -> Background:
    return Generator(load(world)).run()


def differences(background: Background) -> list[str]:
    folder = background.folder
    found = []
    on_disk = {p.relative_to(folder).as_posix() for p in folder.rglob("*.md")} if folder.is_dir() else set()
    for path, text in sorted(background.pages.items()):
        target = folder / path
        if path not in on_disk:
            found.append(f"missing: {path}")
        elif target.read_text(encoding="utf-8") != text:
            found.append(f"differs: {path}")
    found += [f"stale: {path}" for path in sorted(on_disk - set(background.pages))]
    return found


def write(background: Background) -> tuple[int, int]:
    folder = background.folder
    written = removed = 0
    for path, text in background.pages.items():
        target = folder / path
        if not target.is_file() or target.read_text(encoding="utf-8") != text:
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_text(text, encoding="utf-8")
            written += 1
    if folder.is_dir():
        for stale in sorted(folder.rglob("*.md")):
            if stale.relative_to(folder).as_posix() not in background.pages:
                stale.unlink()
                removed += 1
    return written, removed
