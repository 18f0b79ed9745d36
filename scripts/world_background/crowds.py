"""Crowds: the many plausible candidates of one Recruitment task (issue 27, "volume of plausible candidates").

A hand-written spec per task (fixtures/world-sources/<world>/crowds/<task-id>.yaml) says what a member shares
with the task's targets (an employer and team they passed through, the titles and places they hold now), the
task's conditions as checks the generator can run, and the ways a member fails them. Each member is drawn to
fail at least one condition, and the failing fact is in the visible text of a page: the dates on the profile
(tenure), the title or team on the profile, a company's closure in a later news item, a move in a later
people-moves item while the profile still shows the old job. Then every member is run against the conditions
from their facts alone (not from how they were drawn); one that meets them all stops the run.

Crowd pages are background pages (background/crowd/<task-id>/, `data.crowd` names the task). They are held to
every guard except their own task's terms and the `allow` terms the spec lists: they share the task's surface
on purpose, never a key person's name, never another task's facts.
"""

from __future__ import annotations

import random
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml

from scripts.world_background.guards import Guard
from scripts.world_background.model import Builder, Company, Job, Model, Person, spoken_languages, weighted
from scripts.world_background.people import ProfileWriter, page_record
from scripts.world_background.sources import ROOT, SourceError, slug
from scripts.world_background.text import MONTHS, Slots, fill

NOW = (2026, 10)
TESTS = ("tenure", "employer_not", "title", "operating", "city", "employer_kind")
FAILURES = (
    "short_tenure",
    "other_team",
    "stayed",
    "not_lead",
    "closed",
    "based_elsewhere",
    "moved_away",
    "wrong_kind",
    "late_start",
)


@dataclass
class CrowdJob(Job):
    unit: str = ""  # the team the title names ("Payouts"), for the tenure check


@dataclass
class Move:
    when: tuple[int, int]
    job: CrowdJob
    url: str = ""
    quote: str = ""


@dataclass
class Member:
    person: Person  # as the profile shows them: jobs newest first
    updated: tuple[int, int] | None  # the profile's own date, if it shows one
    failures: list[str]
    move: Move | None = None
    proofs: list[tuple[str, str]] = field(default_factory=list)  # (url, visible text that shows a failure)

    @property
    def jobs(self) -> list[Job]:
        """The jobs that are true today: a later move ends the profile's current job."""
        if self.move is None:
            return self.person.jobs
        current = self.person.jobs[0]
        ended = CrowdJob(**{**current.__dict__, "end": self.move.when})
        return [self.move.job, ended, *self.person.jobs[1:]]


@dataclass
class Spec:
    path: Path
    task: str
    count: int
    allow: list[str]
    surface: dict[str, Any]
    now: dict[str, Any]
    conditions: list[dict[str, Any]]
    failures: dict[str, float]


def months(start: tuple[int, int], end: tuple[int, int] | None) -> int:
    stop = end or NOW
    return (stop[0] - start[0]) * 12 + stop[1] - start[1]


def add(when: tuple[int, int], count: int) -> tuple[int, int]:
    total = when[0] * 12 + when[1] - 1 + count
    return total // 12, total % 12 + 1


def load_spec(path: Path) -> Spec:
    shown = path.relative_to(ROOT)
    try:
        raw = yaml.safe_load(path.read_text(encoding="utf-8"))
    except (OSError, yaml.YAMLError) as exc:
        raise SourceError(f"{shown}: cannot read ({exc})") from exc
    if not isinstance(raw, dict):
        raise SourceError(f"{shown}: expected a mapping with task, count, surface, now, conditions, failures")
    for name in ("task", "count", "surface", "now", "conditions", "failures"):
        if not raw.get(name):
            raise SourceError(f"{shown}: field '{name}' is required")
    if path.stem != raw["task"]:
        raise SourceError(f"{shown}: task {raw['task']!r} must match the file name")
    for index, condition in enumerate(raw["conditions"]):
        if condition.get("test") not in TESTS:
            raise SourceError(f"{shown}: conditions[{index}].test must be one of {', '.join(TESTS)}")
    unknown = sorted(set(raw["failures"]) - set(FAILURES))
    if unknown:
        raise SourceError(f"{shown}: failures {unknown} are not known; expected some of {', '.join(FAILURES)}")
    for employer in raw["now"].get("employers") or []:
        for name in ("name", "domain", "city", "founded", "staff", "what"):
            if not employer.get(name):
                raise SourceError(f"{shown}: now.employers {employer.get('name')!r} needs '{name}'")
    return Spec(
        path,
        raw["task"],
        int(raw["count"]),
        list(raw.get("allow") or []),
        raw["surface"],
        raw["now"],
        raw["conditions"],
        {k: float(v) for k, v in raw["failures"].items()},
    )


def specs(folder: Path) -> list[Spec]:
    return [load_spec(p) for p in sorted((folder / "crowds").glob("*.yaml"))]


def guard_for(guard: Guard, spec: Spec) -> Guard:
    """The world's guard without the terms only this task names and the spec's `allow` terms (a term another
    task names as well stays guarded unless the spec allows it by name)."""
    others = {t for task, terms in guard.task_terms.items() if task != spec.task for t in terms}
    own = frozenset(guard.task_combinations.get(spec.task, set()))
    return guard.without((guard.task_terms.get(spec.task, set()) - others) | set(spec.allow), own)


# -------------------------------------------------------------------- conditions
def failed(
    spec: Spec,
    member: Member,
    cities: dict[str, Any],
    closed: dict[str, tuple[int, int]],
    kinds: dict[str, str] | None = None,
) -> list[str]:
    """The ids of the conditions this member does not meet, from the member's true facts alone."""
    kinds = kinds or {}
    jobs = member.jobs
    current = jobs[0]
    out = []
    for condition in spec.conditions:
        test = condition["test"]
        if test == "tenure":  # months in jobs at this employer (and team), or at employers of these kinds
            teams, wanted = set(condition.get("teams") or []), set(condition.get("kinds") or [])
            until = tuple(int(x) for x in str(condition.get("until") or "").split("-") if x) or NOW
            total = sum(
                months(j.start, min(j.end or until, until))
                for j in jobs
                if (not condition.get("employer") or j.company.name == condition["employer"])
                and (not teams or getattr(j, "unit", "") in teams)
                and (not wanted or kinds.get(j.company.name) in wanted)
            )
            ok = total >= int(condition["min_months"])
        elif test == "employer_not":
            ok = current.end is None and current.company.name not in condition["employers"]
        elif test == "title":
            ok = all(re.search(p, current.title) for p in condition["patterns"])
        elif test == "operating":
            stop = closed.get(current.company.name)
            ok = stop is None or stop > NOW
        elif test == "employer_kind":
            ok = kinds.get(current.company.name) in condition["kinds"]
        else:  # city
            wanted = condition.get("cities") or [c for c, e in cities.items() if e["region"] == condition.get("region")]
            ok = current.city in wanted
        if not ok:
            out.append(condition["id"])
    return out


# -------------------------------------------------------------------- drawing
class CrowdWriter:
    """Draws and renders the crowd of one task."""

    def __init__(self, model: Model, builder: Builder, spec: Spec, guard: Guard, team_pages: set[str]) -> None:
        self.model, self.builder, self.spec, self.guard = model, builder, spec, guard
        self.sources = model.sources
        self.cities = self.sources.world["cities"]
        self.phrases = yaml.safe_load((ROOT / "fixtures/world-sources/common/crowds.yaml").read_text("utf-8"))
        self.profiles = ProfileWriter(model, team_pages)
        self.seed = f"{self.sources.world['seed']}:crowd:{spec.task}"
        by_name = {c.name: c for c in model.companies}
        self.employers: list[Company] = []
        self.kinds: dict[str, str] = {}
        self.entries: dict[str, dict[str, Any]] = {}
        self.closed: dict[str, tuple[int, int]] = {}
        for entry in spec.now.get("employers") or []:
            company = by_name.get(entry["name"]) or Company(
                entry["name"], f"https://{entry['domain']}.example/about", [entry["city"]], True
            )
            self.employers.append(company)
            self.entries[company.name] = entry
            self.kinds[company.name] = str(entry.get("kind") or "")
            by_name.setdefault(company.name, company)
            if entry.get("closed"):
                year, month = (int(x) for x in str(entry["closed"]).split("-"))
                self.closed[company.name] = (year, month)
        self.surface = by_name.get(spec.surface["employer"]) or self._missing(spec.surface["employer"])
        self.kinds.setdefault(self.surface.name, str(spec.surface.get("kind") or ""))
        until = spec.surface.get("until")
        self.until = tuple(int(x) for x in str(until).split("-")) if until else (2026, 3)
        self.kind_condition = next((c for c in spec.conditions if c["test"] == "employer_kind"), None)
        self.city_condition = next((c for c in spec.conditions if c["test"] == "city"), None)
        self.tenure = next((c for c in spec.conditions if c["test"] == "tenure"), None)
        self.members: list[Member] = []

    def _missing(self, name: str) -> Company:
        raise SourceError(f"{self.spec.path.relative_to(ROOT)}: surface.employer {name!r} is no employer of the world")

    def rng(self, *key: Any) -> random.Random:
        return random.Random(":".join(str(k) for k in (self.seed, *key)))

    def placed(self, company: Company) -> str:
        entry = self.entries.get(company.name)
        return entry["city"] if entry else company.hq

    def in_place(self, city: str) -> bool:
        if self.city_condition is None:
            return True
        wanted = self.city_condition.get("cities") or [
            c for c, e in self.cities.items() if e["region"] == self.city_condition.get("region")
        ]
        return city in wanted

    def kind_ok(self, company: Company) -> bool:
        return self.kind_condition is None or self.kinds.get(company.name) in self.kind_condition["kinds"]

    def pool(self, *, closed: bool = False, in_place: bool = True, kind_ok: bool | None = True) -> list[Company]:
        found = [
            c
            for c in self.employers
            if c is not self.surface
            and (c.name in self.closed) == closed
            and self.in_place(self.placed(c)) == in_place
            and (kind_ok is None or self.kind_ok(c) == kind_ok)
        ]
        if not found:
            raise SourceError(
                f"{self.spec.path.relative_to(ROOT)}: now.employers has none that is "
                f"{'closed' if closed else 'operating'}, {'in' if in_place else 'outside'} the place asked for"
                f"{'' if kind_ok is None else ' and of a kind that ' + ('counts' if kind_ok else 'does not count')}"
            )
        return found

    def lead_title(self, rng: random.Random, company: Company, taken: dict[str, set[str]]) -> str:
        free = [t for t in self.spec.now["lead_titles"] if t not in taken.setdefault(company.name, set())]
        title = rng.choice(free or self.spec.now["lead_titles"])
        taken[company.name].add(title)
        return title

    def draw(self, index: int, taken: dict[str, set[str]]) -> Member:
        rng = self.rng("member", index)
        spec, surface = self.spec, self.spec.surface
        weights = dict(spec.failures)
        failures = [weighted(rng, weights)]
        if rng.random() < 0.2:
            second = weighted(rng, weights)
            if second not in failures and {second, failures[0]} & {"stayed"} == set():
                failures.append(second)
        if "stayed" in failures:
            failures = ["stayed"]
        if "moved_away" in failures:  # the profile must look right on the point the move changes
            failures = [f for f in failures if f not in ("based_elsewhere", "closed")]
        if "closed" in failures:
            failures = [f for f in failures if f not in ("based_elsewhere", "wrong_kind")]

        # the surface stint
        first_year, last_year = surface["start"]
        minimum = int(self.tenure["min_months"]) if self.tenure else 24
        if "short_tenure" in failures:
            length = rng.randint(max(6, minimum // 3), minimum - 3)
        else:
            length = rng.randint(minimum + 4, minimum + 40)
        start = (rng.randint(first_year, last_year), rng.randint(1, 12))
        if "late_start" in failures:  # a career in the field that began too late, whatever its length
            start = (rng.randint(*surface["late"]), rng.randint(1, 12))
            length = rng.randint(6, max(7, months(start, self.until) - 2))
        elif "stayed" not in failures:
            while add(start, length + 1) > self.until:
                start = add(start, -12)
        surface_city = rng.choice(surface["cities"])
        unit = rng.choice(surface["other_teams"] if "other_team" in failures else surface["teams"])
        surface_title = f"{rng.choice(surface['titles'])}, {unit}" if unit else rng.choice(surface["titles"])
        function = surface.get("function", "backend")
        if "stayed" in failures:
            stint = CrowdJob(self.surface, surface_title, function, 2, start, None, surface_city, None, unit)
            jobs: list[Job] = [stint]
        else:
            end = add(start, length)
            stint = CrowdJob(self.surface, surface_title, function, 2, start, end, surface_city, None, unit)
            company = rng.choice(
                self.pool(
                    closed="closed" in failures,
                    in_place="based_elsewhere" not in failures,
                    kind_ok="wrong_kind" not in failures,
                )
            )
            own = self.entries.get(company.name, {}).get("titles")
            if own:  # a company outside the field has its own jobs
                title = rng.choice(own)
            elif "not_lead" in failures:
                title = rng.choice(spec.now["other_titles"])
            else:
                title = self.lead_title(rng, company, taken)
            begin = add(end, rng.choice((1, 1, 2, 3, 5)))
            latest = add(self.closed[company.name], -10) if company.name in self.closed else (2026, 4)
            if begin > latest:
                begin = latest
            current = CrowdJob(
                company, title, spec.now.get("function", function), 4, begin, None, self.placed(company), None, ""
            )
            jobs = [current, stint]
        if rng.random() < 0.6:  # an earlier job at a company of the background, in the same city
            earlier = [c for c in self.builder.by_city.get(surface_city, []) if not c.shared]
            if earlier:
                company = rng.choice(earlier)
                before = add(start, -rng.randint(1, 3))
                began = add(before, -rng.randint(14, 40))
                if began[0] >= company.entry.get("founded", 1990):
                    title = self.builder.title(rng, function, 1)
                    jobs.append(CrowdJob(company, title, function, 1, began, before, surface_city, None, ""))

        person = self.person(rng, index, jobs)
        current = jobs[0]
        updated: tuple[int, int] | None = None
        move = None
        if "moved_away" in failures or "closed" in failures or rng.random() < 0.4:
            stop = self.closed.get(current.company.name, (2026, 8) if "moved_away" in failures else (2026, 11))
            low = add(current.start, 2)
            if "moved_away" in failures:  # a recent move: the profile was kept up until shortly before
                low = max(low, (2025, 1))
            high = max(low, add(stop, -2))
            updated = add(low, rng.randint(0, max(0, months(low, high))))
        if "moved_away" in failures:
            target = rng.choice(self.pool(in_place=False, kind_ok=None))
            when = add(updated or current.start, rng.randint(1, 3))
            title = self.lead_title(rng, target, taken) if rng.random() < 0.7 else rng.choice(spec.now["other_titles"])
            move = Move(when, CrowdJob(target, title, current.function, 4, when, None, self.placed(target), None, ""))
        return Member(person, updated, failures, move)

    def person(self, rng: random.Random, index: int, jobs: list[Job]) -> Person:
        city = jobs[0].city
        cultures = {
            c: w
            for c, w in self.sources.world["cultures"].items()
            if city in self.sources.names[c]["cities"] or jobs[-1].city in self.sources.names[c]["cities"]
        } or self.sources.world["cultures"]
        used = {m.person.name for m in self.members} | {p.name for p in self.model.people}
        for _ in range(60):
            culture = weighted(rng, cultures)
            gender = rng.choice("fm")
            given, family, name, native = self.builder.name(rng, culture, gender)
            if name in used or self.builder.taken(name) or (native and self.builder.taken(native)):
                continue
            skills = [s for s in self.sources.functions[jobs[0].function]["skills"] if not self.guard.problems(s)]
            spoken = spoken_languages(rng, self.sources.names[culture])
            began = jobs[-1].start[0]
            person = Person(
                900_000 + index,
                given,
                family,
                name,
                native,
                culture,
                gender,
                city,
                jobs,
                self.builder.studies(rng, culture, jobs[-1].function, began),
                rng.sample(skills, k=min(len(skills), rng.randint(3, 7))),
                spoken,
            )
            person.slug = self.builder.person_slug(rng, name)
            person.url = self.sources.world["people_url"] + person.slug
            return person
        raise SourceError(f"{self.spec.path.relative_to(ROOT)}: member {index}: no free name after 60 draws")

    # ---------------------------------------------------------------- pages
    def when(self, rng: random.Random, when: tuple[int, int]) -> str:
        month = MONTHS[when[1] - 1]
        return rng.choice((f"{month} {when[0]}", f"{month[:3]} {when[0]}"))

    def profile(self, member: Member) -> dict[str, Any]:
        person = member.person
        rng = self.rng("profile", person.slug)
        title, text, links = self.shown(person)
        text = self.work(rng, member, text)
        if member.updated:
            line = fill(rng.choice(self.phrases["updated"]), Slots(rng, when=self.when(rng, member.updated)))
            text += f"\n\n{line}"
        record = page_record(person, title, text, links)
        record["path"] = f"crowd/{self.spec.task}/people/{person.slug}.md"
        record["data"]["crowd"] = self.spec.task
        flat = " ".join(f"{title}\n{text}".split())
        for reason in member.failures:
            job = person.jobs[0] if reason in ("not_lead", "stayed", "based_elsewhere") else None
            if reason in ("short_tenure", "other_team", "late_start"):
                job = next(j for j in person.jobs if j.company is self.surface)
            if job is not None:
                shown = job.city if reason == "based_elsewhere" else job.title
                if shown not in flat:
                    raise SourceError(f"{record['path']}: {shown!r} ({reason}) is not on the profile")
                member.proofs.append((person.url, shown))
        return record

    def work(self, rng: random.Random, member: Member, text: str) -> str:
        """One or two hand-written sentences (the spec's) on the surface stint and the current job, set after
        the profile's head: what the task's words find."""
        person, current = member.person, member.person.jobs[0]
        stint = next(j for j in person.jobs if j.company is self.surface)
        slots = Slots(
            rng,
            employer=self.surface.name,
            unit=getattr(stint, "unit", ""),
            company=current.company.name,
            city=current.city,
            first=person.first,
        )
        said = []
        if current is not stint and self.spec.now.get("work") and rng.random() < 0.8:
            said.append(fill(rng.choice(self.spec.now["work"]), slots))
        if self.spec.surface.get("work") and rng.random() < 0.6:
            said.append(fill(rng.choice(self.spec.surface["work"]), slots))
        if not said:
            return text
        rng.shuffle(said)
        head, sep, rest = text.partition("\n\n")
        return f"{head}\n\n{' '.join(said)}{sep}{rest}" if sep else f"{text}\n\n{' '.join(said)}"

    def shown(self, person: Person) -> tuple[str, str, list[str]]:
        """The profile, drawn again (another layout) until the surface stint's months are on the page: its
        length is what a tenure condition is worked out from."""
        stint = next(j for j in person.jobs if j.company is self.surface)
        base = person.key
        for attempt in range(30):
            person.key = base * 100 + attempt
            title, text, links = self.profiles.page(person)
            if all(_month_shown(text, when) for when in (stint.start, stint.end) if when):
                person.key = base
                return title, text, links
        raise SourceError(f"{person.slug}: no profile layout shows the months of the {stint.company.name} stint")

    def about(self, company: Company, at: tuple[int, int]) -> dict[str, Any]:
        entry = self.entries[company.name]
        rng = self.rng("about", company.name)
        phrases = self.phrases["about"]
        slots = Slots(
            rng,
            company=company.name,
            city=entry["city"],
            founded=entry["founded"],
            what=entry["what"],
            staff=entry["staff"],
            when=self.when(rng, at),
        )
        here = [
            (member, job)
            for member in self.members
            for job in member.jobs
            if job.company is company and job.start <= at and (job.end is None or job.end > at)
        ]
        for member, job in here:
            if "wrong_kind" in member.failures and job is member.jobs[0]:
                member.proofs.append((company.url, entry["what"]))
        titles = {*self.spec.now["lead_titles"], *(entry.get("titles") or [])}
        leads = [(member, job) for member, job in here if job.title in titles]
        lines = [f"# {company.name}", "", fill(rng.choice(phrases["opener"]), slots)]
        if rng.random() < 0.7:
            lines[-1] += " " + fill(rng.choice(phrases["size"]), slots)
        links = []
        if leads:
            lines += ["", f"## {rng.choice(phrases['leads_heading'])}"]
            shape = rng.randrange(3)
            for member, job in sorted(leads, key=lambda pair: pair[1].title):
                name = member.person.name
                links.append(member.person.url)
                lines.append((f"- {name}, {job.title}", f"- {job.title}: {name}", f"- **{name}** - {job.title}")[shape])
        lines += ["", fill(rng.choice(phrases["dated"]), slots)]
        return {
            "url": company.url,
            "title": rng.choice((company.name, f"About {company.name}", f"{company.name} - about us")),
            "kind": "company",
            "links": links,
            "data": {"crowd": self.spec.task},
            "text": "\n".join(lines),
            "path": f"crowd/{self.spec.task}/companies/{entry['domain']}.md",
        }

    def outlet(self, rng: random.Random, city: str) -> dict[str, Any]:
        region = self.cities[city]["region"]
        outlets = [o for o in self.sources.world["outlets"] if region in o["regions"]] or self.sources.world["outlets"]
        return rng.choice(outlets)

    def article(
        self, rng: random.Random, city: str, date: tuple[int, int, int], headline: str, body: list[str], key: str
    ) -> tuple[str, dict[str, Any]]:
        outlet = self.outlet(rng, city)
        year, month, day = date
        long_date = f"{day} {MONTHS[month - 1]} {year}"
        url = f"https://{outlet['domain']}.example/{year}/{month:02d}/{slug(headline)[:50].strip('-')}-{key}"
        shape = rng.randrange(3)
        if shape == 0:
            head = [
                f"**{outlet['name']}** · {rng.choice(('People', 'Business', 'Companies'))} · {long_date}",
                "",
                f"# {headline}",
                "",
            ]
        elif shape == 1:
            head = [f"# {headline}", "", f"*{outlet['name']}, {city} | {long_date}*", ""]
        else:
            head = [f"# {headline}", "", f"{outlet['name']} - {year}-{month:02d}-{day:02d}", ""]
        lines = list(head)
        for paragraph in body:
            lines += [paragraph, ""]
        return url, {
            "url": url,
            "title": f"{headline} | {outlet['name']}",
            "kind": "article",
            "links": [],
            "data": {"crowd": self.spec.task},
            "text": "\n".join(lines).strip(),
            "path": f"crowd/{self.spec.task}/news/{outlet['domain']}-{year}-{month:02d}-{key}.md",
        }

    def closure(self, company: Company) -> dict[str, Any]:
        entry = self.entries[company.name]
        rng = self.rng("closure", company.name)
        year, month = self.closed[company.name]
        day = rng.randint(1, 28)
        phrases = self.phrases["closure"]
        slots = Slots(
            rng,
            company=company.name,
            city=entry["city"],
            founded=entry["founded"],
            years=year - int(entry["founded"]),
            date=f"{day} {MONTHS[month - 1]} {year}",
        )
        first = fill(rng.choice(phrases["body"]), slots)
        more = [fill(t, slots) for t in rng.sample(phrases["more"], k=rng.randint(1, 3))]
        body = [first, " ".join(more)] if rng.random() < 0.5 else [" ".join([first, *more])]
        published = (year, month, min(28, day + rng.randint(0, 5)))
        url, record = self.article(
            rng, entry["city"], published, fill(rng.choice(phrases["headline"]), slots), body, slug(company.name)
        )
        for member in self.members:
            if member.jobs[0].company is company:
                member.proofs.append((url, first))
        return record

    def moves(self) -> list[dict[str, Any]]:
        moved = sorted((m for m in self.members if m.move), key=lambda m: (m.move.when, m.person.slug))
        records, rng = [], self.rng("moves")
        phrases = self.phrases["moves"]
        while moved:
            size = min(len(moved), rng.choice((1, 1, 2, 3)))
            size = max(1, sum(1 for m in moved[:size] if months(moved[0].move.when, m.move.when) <= 2))
            group, moved = moved[:size], moved[size:]
            last = max(m.move.when for m in group)
            sentences = []
            for member in group:
                person, old, new = member.person, member.person.jobs[0], member.move.job
                slots = Slots(
                    rng,
                    name=person.name,
                    first=person.first,
                    company=old.company.name,
                    title=old.title,
                    city=old.city,
                    new_company=new.company.name,
                    new_city=new.city,
                    new_title=new.title,
                    left=f"{MONTHS[member.move.when[1] - 1]} {member.move.when[0]}",
                )
                sentence = fill(rng.choice(phrases["item"]), slots)
                sentences.append((member, sentence))
            if size == 1:
                member, sentence = sentences[0]
                new = member.move.job
                headline = fill(
                    rng.choice([h for h in phrases["headline"] if "{name}" in h]),
                    Slots(
                        rng,
                        name=member.person.name,
                        company=member.person.jobs[0].company.name,
                        new_company=new.company.name,
                        new_city=new.city,
                    ),
                )
                body = [sentence]
            else:
                headline = fill(
                    rng.choice([h for h in phrases["headline"] if "{name}" not in h]),
                    Slots(rng, month=MONTHS[last[1] - 1], year=last[0]),
                )
                intro = rng.choice(phrases["intro"])
                body = ([intro] if intro else []) + [f"- {s}" for _, s in sentences]
            city = group[0].person.jobs[0].city
            url, record = self.article(
                rng, city, (*last, rng.randint(1, 28)), headline, body, slug(group[0].person.slug)[:24]
            )
            record["links"] = [m.person.url for m, _ in sentences]
            for member, sentence in sentences:
                member.proofs.append((url, sentence))
            records.append(record)
        return records

    def run(self) -> list[dict[str, Any]]:
        taken: dict[str, set[str]] = {}
        for index in range(self.spec.count):
            self.members.append(self.draw(index, taken))
        records = [self.profile(m) for m in self.members]
        records += [self.closure(c) for c in self.employers if c.name in self.closed]
        records += self.moves()
        for company in self.employers:
            if company.name not in self.entries:
                continue
            at = add(self.closed[company.name], -3) if company.name in self.closed else (2026, 9)
            records.append(self.about(company, at))
        for member in self.members:
            missed = failed(self.spec, member, self.cities, self.closed, self.kinds)
            if not missed:
                raise SourceError(
                    f"{self.spec.path.relative_to(ROOT)}: {member.person.name} meets every condition of "
                    f"{self.spec.task} (drawn to fail {member.failures}); a crowd member must never qualify"
                )
            if not member.proofs:
                raise SourceError(f"{member.person.slug}: no page shows why {member.person.name} fails {missed}")
        return records


def _month_shown(text: str, when: tuple[int, int]) -> bool:
    year, month = when
    name = MONTHS[month - 1]
    return any(
        s in text
        for s in (
            f"{name[:3]} {year}",
            f"{name} {year}",
            f"{month:02d}/{year}",
            f"{year}.{month:02d}",
            f"{year}年{month}月",
        )
    )
