"""The background's facts, drawn once and shared by every page that shows them: who works where since when,
who studied what where, which teams exist and who leads them, which rounds each company raised. Pages are
rendered from these facts (render.py), so a profile, its team page, an alumni list and a news item agree.

Deterministic: every draw comes from a random.Random seeded by the world's seed and the item's own key, and
nothing iterates over an unordered set, so two runs give the same world.
"""

from __future__ import annotations

import random
import re
from dataclasses import dataclass, field
from typing import Any, ClassVar

from scripts.world_background.guards import Guard
from scripts.world_background.sources import Sources, slug

YEAR = 2026
# Words of a title that make its holder a leader; background people at the world's own companies never hold one.
LEADER = re.compile(r"\b(lead|leader|head|director|chief|vp|manager|principal|staff|officer|president)\b", re.I)
LEVEL_WEIGHTS = {1: 16, 2: 30, 3: 30, 4: 16, 5: 8}
YEARS_AT_LEVEL = {1: (1, 3), 2: (3, 6), 3: (6, 11), 4: (9, 17), 5: (13, 25)}
TECH = ("backend", "frontend", "mobile", "data", "data_science", "platform", "security", "qa")
TECH_DEGREE = (
    "comput",
    "software",
    "engineer",
    "informat",
    "information",
    "data",
    "ilmu",
    "teknik",
    "mca",
    "btech",
    "mtech",
    "bit",
    "electr",
    "mathemat",
    "statist",
    "systemvet",
    "technology",
    "informatik",
)


@dataclass
class Team:
    name: str
    slug: str
    functions: list[str]
    url: str
    company: Company
    members: list[Person] = field(default_factory=list)
    alumni: list[Person] = field(default_factory=list)


@dataclass
class Company:
    name: str
    url: str
    cities: list[str]
    shared: bool
    avoid: list[str] = field(default_factory=list)
    entry: dict[str, Any] = field(default_factory=dict)  # the companies.yaml entry of a background company
    teams: list[Team] = field(default_factory=list)
    rounds: list[dict[str, Any]] = field(default_factory=list)
    ceo: str = ""
    weight: float = 1.0  # how often background people pick this employer, against others in the same city
    until: tuple[int, int] | None = None  # a company that stopped: nobody works there now, jobs there end by then

    @property
    def hq(self) -> str:
        return self.cities[0]

    @property
    def domain(self) -> str:
        return self.url.split("//", 1)[1].split(".example", 1)[0]


@dataclass
class School:
    name: str
    url: str
    city: str
    degrees: list[str]
    background: bool
    founded: int = 0


@dataclass
class Job:
    company: Company
    title: str
    function: str
    level: int
    start: tuple[int, int]
    end: tuple[int, int] | None
    city: str
    team: Team | None = None


@dataclass
class Study:
    school: School
    degree: str
    start: int
    end: int


@dataclass
class Person:
    key: int
    given: str
    family: str
    name: str
    native: str
    culture: str
    gender: str
    city: str
    jobs: list[Job]  # newest first
    studies: list[Study]  # newest first
    skills: list[str]
    languages: list[str]
    slug: str = ""
    url: str = ""

    @property
    def job(self) -> Job:
        return self.jobs[0]

    @property
    def first(self) -> str:
        return (
            self.given.split()[0]
            if self.culture not in ("chinese", "singaporean_chinese", "korean", "japanese", "vietnamese")
            else self.given
        )


@dataclass
class Model:
    sources: Sources
    guard: Guard
    companies: list[Company]
    schools: list[School]
    people: list[Person] = field(default_factory=list)


def spoken_languages(rng: random.Random, names: dict[str, Any]) -> list[str]:
    """A person's languages: the culture's first, up to two more of its others, and English."""
    langs = list(names.get("languages") or ["English"])
    spoken = langs[:1] + rng.sample(langs[1:], k=min(len(langs) - 1, rng.randint(0, 2)))
    if "English" not in spoken:
        spoken.append("English")
    return spoken


def weighted(rng: random.Random, weights: dict[Any, float]) -> Any:
    keys = list(weights)
    return rng.choices(keys, weights=[weights[k] for k in keys])[0]


def split(part: str) -> tuple[str, str]:
    latin, _, native = part.partition("|")
    return latin.strip(), native.strip()


def _rounds(rng: random.Random, company: Company, pool: list[str]) -> list[dict[str, Any]]:
    entry = company.entry
    founded, staff = entry["founded"], entry["staff"]
    if founded < 2011 or staff > 1000:
        return []
    investors = rng.sample(pool, 3)
    rounds, year = [], founded + rng.choice((0, 1))
    for name, low, high, needs in (("seed", 1, 4, 0), ("Series A", 5, 22, 60), ("Series B", 18, 70, 150)):
        if staff < needs or year > YEAR:
            break
        amount = round(rng.uniform(low, high), 1 if high < 10 else 0)
        rounds.append(
            {"round": name, "year": year, "month": rng.randint(1, 12), "amount": amount, "investor": investors.pop(0)}
        )
        year += rng.choice((1, 2, 2, 3))
    return rounds


def companies(sources: Sources, rng_for: Any) -> list[Company]:
    found = []
    for entry in sources.companies:
        company = Company(
            name=entry["name"],
            url=f"https://{entry['domain']}.example/about",
            cities=[entry["hq"], *entry.get("offices", [])],
            shared=False,
            entry=entry,
        )
        for team_name, functions in entry["teams"].items():
            team_slug = slug(team_name)
            company.teams.append(
                Team(
                    team_name,
                    team_slug,
                    list(functions),
                    f"https://{entry['domain']}.example/teams/{team_slug}",
                    company,
                )
            )
        company.rounds = _rounds(rng_for("rounds", entry["name"]), company, sources.world["investors"])
        found.append(company)
    for entry in sources.world["shared_employers"]:
        until = str(entry["until"]).split("-") if entry.get("until") else None
        found.append(
            Company(
                entry["name"],
                entry["url"],
                list(entry["cities"]),
                True,
                list(entry.get("avoid") or []),
                weight=float(entry.get("weight", 1.0)),
                until=(int(until[0]), int(until[1])) if until else None,
            )
        )
    return found


def schools(sources: Sources) -> list[School]:
    return [
        School(
            s["name"],
            s.get("url") or f"https://{s['domain']}.edu.example/about",
            s["city"],
            list(s["degrees"]),
            not s.get("url"),
            int(s.get("founded") or 0),
        )
        for s in sources.world["schools"]
    ]


class Builder:
    """Draws the background people of one world, each from its own seeded random stream."""

    def __init__(self, sources: Sources, guard: Guard) -> None:
        self.sources, self.guard = sources, guard
        self.world = sources.world
        self.model = Model(sources, guard, companies(sources, self.rng), schools(sources))
        self.by_city: dict[str, list[Company]] = {}
        for company in self.model.companies:
            for city in company.cities:
                self.by_city.setdefault(city, []).append(company)
        self.background = [c for c in self.model.companies if not c.shared]
        self.slugs: set[str] = set(guard.person_slugs)
        self.titles: dict[tuple[str, int, bool], list[str]] = {}

    def rng(self, *key: Any) -> random.Random:
        return random.Random(":".join(str(k) for k in (self.world["seed"], *key)))

    # ---------------------------------------------------------------- names
    def name(self, rng: random.Random, culture: str, gender: str) -> tuple[str, str, str, str]:
        """(given, family, name as written, native script or "")."""
        entry = self.sources.names[culture]
        givens = entry["given_f" if gender == "f" else "given_m"]
        families = entry["family"]
        if entry.get("gendered_family"):
            families = [f for f in families if f.startswith("binti " if gender == "f" else "bin ")] or families
        given, given_native = split(rng.choice(givens))
        family, family_native = split(rng.choice(families))
        native = ""
        if entry.get("script") and given_native and family_native:
            together = entry.get("script_order") == "given_first"
            native = f"{given_native} {family_native}" if together else family_native + given_native
        if rng.random() < entry.get("mononym", 0):
            return given, "", given, native
        family_first = entry.get("order") == "family_first"
        if family_first and rng.random() < entry.get("flip", 0.3):
            family_first = False
        if entry.get("western_first") and " " not in given:
            family_first = False
        written = f"{family} {given}" if family_first else f"{given} {family}"
        return given, family, written, native

    def taken(self, text: str) -> bool:
        return self.guard.name_taken(text) is not None or bool(self.guard.problems(text))

    def person_slug(self, rng: random.Random, name: str) -> str:
        base = slug(name)
        if base not in self.slugs and rng.random() > 0.12:
            self.slugs.add(base)
            return base
        while True:
            candidate = f"{base}-{rng.getrandbits(16):04x}"
            if candidate not in self.slugs and any(c.isdigit() for c in candidate[-4:]):
                self.slugs.add(candidate)
                return candidate

    # ---------------------------------------------------------------- careers
    NEIGHBOURS: ClassVar[dict[str, tuple[str, ...]]] = {
        "backend": ("platform", "frontend", "data"),
        "frontend": ("mobile", "backend", "design"),
        "mobile": ("frontend", "backend"),
        "data": ("data_science", "backend", "finance"),
        "data_science": ("data", "backend"),
        "platform": ("backend", "security"),
        "security": ("platform", "backend"),
        "qa": ("backend", "frontend", "product"),
        "product": ("design", "operations", "backend", "marketing"),
        "design": ("frontend", "product"),
        "sales": ("customer_success", "marketing", "operations"),
        "marketing": ("sales", "product"),
        "customer_success": ("sales", "operations"),
        "finance": ("operations", "data"),
        "people": ("recruiting", "operations"),
        "recruiting": ("people", "sales"),
        "operations": ("product", "finance", "customer_success"),
        "legal": ("operations", "people"),
    }

    def neighbours(self, function: str) -> list[str]:
        return list(self.NEIGHBOURS.get(function, (function,)))

    def title(self, rng: random.Random, function: str, level: int, shared: bool = False) -> str:
        """A title of this function and level that no guard reserves; at the world's own companies, never one
        that names a leader (tasks ask who leads what there)."""
        key = (function, level, shared)
        if key not in self.titles:
            self.titles[key] = [
                t
                for t in self.sources.functions[function]["titles"][level]
                if not self.guard.problems(t) and not (shared and LEADER.search(t))
            ]
        titles = self.titles[key]
        if not titles:  # every title of this level is reserved: one level down
            return self.title(rng, function, level - 1, shared) if level > 1 else "Associate"
        return rng.choice(titles)

    def employer(
        self, rng: random.Random, city: str, function: str | None = None, ends: tuple[int, int] | None = None
    ) -> Company:
        """A company with people in `city` (one that has work in `function`, if given), bigger ones more often;
        one that has stopped only for a past job that `ends` before it did."""
        here = [
            c
            for c in self.by_city.get(city, [])
            if (function is None or self.offers(c, function)) and (c.until is None or (ends and ends <= c.until))
        ]
        shared = [c for c in here if c.shared]
        if shared and rng.random() < self.world.get("shared_share", 0.3):
            return rng.choices(shared, weights=[c.weight for c in shared])[0]
        local = [c for c in here if not c.shared] or [
            c for c in self.background if function is None or self.offers(c, function)
        ]
        return rng.choices(local, weights=[c.entry["staff"] ** 0.5 for c in local])[0]

    @staticmethod
    def offers(company: Company, function: str) -> bool:
        if company.shared:
            return function not in company.avoid
        return any(function in team.functions for team in company.teams)

    def function_at(self, rng: random.Random, company: Company, wanted: str | None) -> tuple[str, Team | None]:
        if company.shared:
            allowed = [f for f in self.sources.functions if f not in company.avoid]
            return (wanted if wanted in allowed else rng.choice(allowed)), None
        if wanted is None:
            team = rng.choice(company.teams)
            return rng.choice(team.functions), team
        teams = [t for t in company.teams if wanted in t.functions]
        return wanted, (rng.choice(teams) if teams and rng.random() < 0.85 else None)

    def career(self, rng: random.Random, city: str) -> list[Job]:
        company = self.employer(rng, city)
        if city not in company.cities:
            city = company.hq
        function, team = self.function_at(rng, company, None)
        level = weighted(rng, LEVEL_WEIGHTS)
        if company.shared:
            level = min(level, 3)
        years = rng.randint(*YEARS_AT_LEVEL[level])
        began = YEAR - years
        founded = company.entry.get("founded", 1990)
        start_year = max(began, founded, YEAR - rng.choice((0, 1, 1, 2, 2, 3, 4, 5, 6, 8)))
        start = (min(start_year, YEAR), rng.randint(1, 12 if start_year < YEAR else 9))
        jobs = [
            Job(company, self.title(rng, function, level, company.shared), function, level, start, None, city, team)
        ]
        end = (start[0], start[1] - 1) if start[1] > 1 else (start[0] - 1, 12)
        while end[0] > began and len(jobs) < 5:
            length = rng.choice((1, 2, 2, 3, 3, 4, 5))
            first = max(began, end[0] - length)
            place = city if rng.random() < 0.7 else rng.choice(list(self.world["cities"]))
            switch = rng.random() < 0.12
            wanted = rng.choice(self.neighbours(function)) if switch else function
            other = self.employer(rng, place, wanted, end)
            if other in [j.company for j in jobs]:
                continue
            if place not in other.cities:
                place = other.hq
            previous_function, previous_team = self.function_at(rng, other, wanted)
            previous_level = max(1, level - (1 if rng.random() < 0.6 else 0) - len(jobs) // 2)
            if other.shared:
                previous_level = min(previous_level, 3)
            if first < other.entry.get("founded", 1990):
                break
            jobs.append(
                Job(
                    other,
                    self.title(rng, previous_function, previous_level, other.shared),
                    previous_function,
                    previous_level,
                    (first, rng.randint(1, 12)),
                    end,
                    place,
                    previous_team,
                )
            )
            end = (first - 1, rng.randint(1, 12)) if rng.random() < 0.3 else (jobs[-1].start[0], jobs[-1].start[1])
            if end == jobs[-1].start:
                end = (end[0], end[1] - 1) if end[1] > 1 else (end[0] - 1, 12)
        return jobs

    def studies(self, rng: random.Random, culture: str, function: str, began: int) -> list[Study]:
        if rng.random() < 0.14:
            return []
        home = self.sources.names[culture]["cities"]
        by_country: dict[str, float] = {}
        for city, weight in home.items():
            country = self.world["cities"][city]["country"]
            by_country[country] = by_country.get(country, 0) + weight
        weights = {
            s.name: by_country.get(self.world["cities"][s.city]["country"], 0.0) + 0.04 for s in self.model.schools
        }
        pool = self.model.schools
        school = rng.choices(pool, weights=[weights[s.name] for s in pool])[0]
        tech = function in TECH

        def fits(degree: str) -> bool:
            return any(k in degree.lower() for k in TECH_DEGREE) == tech

        bachelors = [d for d in school.degrees if not d.lower().startswith(("m", "diploma")) or d.startswith("MCA")]
        degrees = [d for d in (bachelors or school.degrees) if fits(d)] or bachelors or school.degrees
        length = 3 if self.world["cities"][school.city]["country"] in ("United Kingdom", "Australia") else 4
        end = began - rng.choice((0, 0, 0, 1))
        studies = [Study(school, rng.choice(degrees), end - length, end)]
        if rng.random() < 0.33:
            second = rng.choices(pool, weights=[weights[s.name] for s in pool])[0]
            masters = [d for d in second.degrees if d.startswith(("M", "MBA")) and not d.startswith("MCA")]
            if masters:
                late = rng.random() < 0.4
                finish = min(YEAR - 1, end + (rng.randint(4, 9) if late else rng.choice((1, 2))))
                studies.insert(0, Study(second, rng.choice(masters), max(end, finish - (1 if late else 2)), finish))
        return studies

    def person(self, key: int) -> Person:
        rng = self.rng("person", key)
        cultures = self.world["cultures"]
        for _ in range(40):
            culture = weighted(rng, cultures)
            gender = rng.choice("fm")
            given, family, name, native = self.name(rng, culture, gender)
            if self.taken(name) or (native and self.taken(native)):
                continue
            city = weighted(rng, self.sources.names[culture]["cities"])
            if rng.random() < 0.1:
                city = rng.choice(sorted(self.by_city))
            jobs = self.career(rng, city)
            began = jobs[-1].start[0]
            function = jobs[0].function
            skills = [s for s in self.sources.functions[function]["skills"] if not self.guard.problems(s)]
            spoken = spoken_languages(rng, self.sources.names[culture])
            person = Person(
                key,
                given,
                family,
                name,
                native,
                culture,
                gender,
                jobs[0].city,
                jobs,
                self.studies(rng, culture, function, began),
                rng.sample(skills, k=min(len(skills), rng.randint(3, 8))),
                spoken,
            )
            person.slug = self.person_slug(rng, name)
            person.url = self.world["people_url"] + person.slug
            return person
        raise RuntimeError(f"person {key}: no free name after 40 draws; loosen the guards or add name parts")

    def build(self) -> Model:
        people = [self.person(key) for key in range(self.world["counts"]["people"])]
        self.model.people = people
        for person in people:
            for index, job in enumerate(person.jobs):
                if job.team is not None:
                    (job.team.members if index == 0 else job.team.alumni).append(person)
        for company in self.background:
            rng = self.rng("ceo", company.name)
            local = [c for c, entry in self.sources.names.items() if company.hq in entry["cities"]] or ["british"]
            while True:
                culture = rng.choice(local)
                _, _, name, _ = self.name(rng, culture, rng.choice("fm"))
                if not self.taken(name) and name not in {p.name for p in people}:
                    company.ceo = name
                    break
        return self.model
