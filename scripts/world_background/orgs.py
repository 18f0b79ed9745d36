"""Pages of background organisations: companies' about pages, team pages, schools' about pages and alumni
lists. Each draws its shape (sections, their order, tables or prose) from its own random stream."""

from __future__ import annotations

import random
from typing import Any

from scripts.world_background.model import Company, Model, Person, School, Team
from scripts.world_background.text import MONTHS, Slots, cap, fill, join, lower_first

CURRENCY = {
    "India": ("₹{a} crore", "US${a} million"),
    "Germany": ("€{a} million", "EUR {a}m"),
    "United Kingdom": ("£{a} million", "£{a}m"),
    "Australia": ("A${a} million", "A${a}m"),
    "Sweden": ("SEK {b} million", "€{a} million"),
    "Singapore": ("S${a} million", "US${a} million"),
    "Japan": ("¥{c} million", "US${a} million"),
    "China": ("RMB {b} million", "US${a} million"),
}


def amount(rng: random.Random, millions: float, country: str) -> str:
    shapes = CURRENCY.get(country, ("US${a} million", "${a}m"))
    shape = rng.choice(shapes)
    number = f"{millions:g}"
    return (
        shape.format(a=number, b=f"{millions * 10:g}", c=f"{millions * 140:,.0f}")
        if "crore" not in shape
        else shape.format(a=f"{millions * 8.3:.0f}")
    )


class OrgWriter:
    def __init__(self, model: Model, team_pages: set[str]) -> None:
        self.model = model
        self.sources = model.sources
        self.phrases = model.sources.phrases
        self.team_pages = team_pages
        self.seed = model.sources.world["seed"]

    def country(self, city: str) -> str:
        return self.sources.world["cities"][city]["country"]

    # ------------------------------------------------------------ companies
    def company(self, company: Company) -> dict[str, Any]:
        rng = random.Random(f"{self.seed}:company:{company.name}")
        entry = company.entry
        links: list[str] = []
        slots = Slots(
            rng,
            name=company.name,
            city=rng.choice(company.cities),
            founded=entry["founded"],
            what=entry["what"],
            staff=entry["staff"],
            team=lambda: rng.choice(company.teams).name,
            team2=lambda: rng.choice(company.teams).name,
        )
        intro = fill(rng.choice(self.phrases["company"]["intro"]), slots)
        products = entry["products"]
        leaders = sorted(
            (p for p in self.employees(company) if p.job.level >= 4), key=lambda p: (-p.job.level, p.job.start)
        )[:4]
        teams = [t for t in company.teams if t.url in self.team_pages]
        shape = rng.choice(("table", "bold", "prose"))
        lines = [rng.choice((f"# {company.name}", f"# About {company.name}", f"## {company.name}")), "", intro]
        if rng.random() < 0.6:
            lines.append(self.products_sentence(rng, company))
        lines.append("")
        offices = company.cities[1:]
        facts = [
            ("Founded", str(entry["founded"])),
            ("Headquarters", f"{company.hq}, {self.country(company.hq)}"),
            ("People", f"about {entry['staff']:,}"),
        ]
        if offices:
            facts.append(("Offices", join(offices)))
        if rng.random() < 0.5:
            facts.reverse()
        if shape == "table":
            lines += [
                f"## {rng.choice(self.phrases['company']['facts_intro'])}",
                "",
                "| | |",
                "|---|---|",
                *[f"| {k} | {v} |" for k, v in facts],
                "",
            ]
        elif shape == "bold":
            lines += [" · ".join(f"**{k}:** {v}" for k, v in facts), ""]
        else:
            where = f" and offices in {join(offices)}" if offices else ""
            staff = f"{entry['staff']:,}"
            lines += [
                rng.choice(
                    (
                        f"We have about {staff} people, with headquarters in {company.hq}{where}.",
                        f"About {staff} people work for {company.name}, most of them in {company.hq}.",
                        f"Head office: {company.hq}. Staff: around {staff}."
                        + (f" Also in {join(offices)}." if offices else ""),
                        f"Around {staff} of us, based in {company.hq}{where}.",
                    )
                ),
                "",
            ]
        if len(products) > 1 or rng.random() < 0.5:
            lines += [
                rng.choice(("## Products", "## What we make", "## Our products")),
                *[f"- **{p}**" for p in products],
                "",
            ]
        if company.rounds and rng.random() < 0.75:
            lines += self.funding(rng, company)
        people_lines = [f"- {company.ceo} - {rng.choice(('Chief Executive Officer', 'CEO', 'Managing Director'))}"]
        for leader in leaders:
            people_lines.append(
                f"- [{leader.name}]({leader.url}) - {leader.job.title}"
                if rng.random() < 0.5
                else f"- {leader.name}, {leader.job.title}"
            )
            links.append(leader.url)
        lines += [rng.choice(("## Leadership", "## Management", "## Who runs the company")), *people_lines, ""]
        if teams:
            lines.append(rng.choice(("## Teams", "## Engineering and product teams", "## How we are organised")))
            for team in teams:
                lines.append(f"- [{team.name}]({team.url}) - {len(team.members)} people")
                links.append(team.url)
            lines.append("")
        lines.append(fill(rng.choice(self.phrases["company"]["careers"]), slots))
        title = rng.choice(
            (
                f"About {company.name} - {entry['field']} from {company.hq}",
                f"{company.name} | About us",
                f"{company.name}: company profile",
                f"Who we are - {company.name}",
                f"{company.name} ({company.hq}) - {entry['field']}",
            )
        )
        return {
            "url": company.url,
            "title": title,
            "kind": "company",
            "links": links,
            "data": {"founded": entry["founded"], "hq": company.hq, "employees": entry["staff"]},
            "text": "\n".join(lines).strip(),
            "path": f"companies/{company.domain}.md",
        }

    def products_sentence(self, rng: random.Random, company: Company) -> str:
        products = company.entry["products"]
        if len(products) == 1:
            return rng.choice((f"Our product is called {products[0]}.", f"Customers know us for {products[0]}."))
        return rng.choice(
            (
                f"Our products are {join(products)}.",
                f"We sell {join(products)}.",
                f"The main product is {products[0]}; {join(products[1:])} came later.",
            )
        )

    def funding(self, rng: random.Random, company: Company) -> list[str]:
        country = self.country(company.hq)
        if rng.random() < 0.5:
            lines = ["## Funding", "| Round | Date | Amount | Lead |", "|---|---|---|---|"]
            for r in company.rounds:
                lines.append(
                    f"| {cap(r['round'])} | {MONTHS[r['month'] - 1][:3]} {r['year']} | "
                    f"{amount(rng, r['amount'], country)} | {r['investor']} |"
                )
            return [*lines, ""]
        parts = [f"a {r['round']} round in {r['year']} led by {r['investor']}" for r in company.rounds]
        return [f"Investors: we have raised {join(parts)}.", ""]

    def employees(self, company: Company) -> list[Person]:
        return [p for p in self.model.people if p.job.company is company]

    # ------------------------------------------------------------ teams
    def team(self, team: Team) -> dict[str, Any]:
        rng = random.Random(f"{self.seed}:team:{team.url}")
        company = team.company
        members = sorted(team.members, key=lambda p: (-p.job.level, p.job.start))
        lead = members[0]
        cities = sorted({p.city for p in members}, key=lambda c: (c != company.hq, c))
        functions = self.sources.functions
        work = [w for f in team.functions for w in functions[f]["work"]]
        slots = Slots(
            rng,
            year=max(company.entry["founded"], 2026 - rng.randint(2, 8)),
            team=team.name,
            company=company.name,
            city=cities[0],
            region=self.sources.world["cities"][cities[0]]["region"],
            product=lambda: rng.choice(company.entry["products"]),
            domain=company.entry["field"],
            work=lambda: fill(rng.choice(work), slots),
            work2=lambda: fill(rng.choice(work), slots),
        )
        links = [company.url, *[p.url for p in members]]
        lines = [rng.choice((f"# {team.name}", f"## {team.name} at {company.name}", f"# The {team.name} team")), ""]
        lines.append(fill(rng.choice(self.phrases["team"]["intro"]), slots))
        lines.append(fill(rng.choice(self.phrases["team"]["intro"]), slots) if rng.random() < 0.3 else "")
        lines.append("")
        lead_line = fill(
            rng.choice(self.phrases["team"]["lead_line"]),
            Slots(rng, lead=f"{lead.name}, {lead.job.title}", since=lead.job.start[0]),
        )
        lines += [lead_line, ""]
        shape = rng.choice(("list", "table", "prose"))
        rest = members[1:]
        if shape == "table" and rest:
            lines += [
                f"### {rng.choice(self.phrases['team']['members_intro'])}",
                "| Name | Role | Since |",
                "|---|---|---|",
            ]
            lines += [f"| {p.name} | {p.job.title} | {p.job.start[0]} |" for p in rest]
        elif shape == "list" and rest:
            lines.append(f"**{rng.choice(self.phrases['team']['members_intro'])}**")
            lines += [
                f"- {p.name} - {lower_first(p.job.title) if rng.random() < 0.2 else p.job.title}"
                f"{' (' + p.city + ')' if p.city != cities[0] else ''}"
                for p in rest
            ]
        elif rest:
            names = join([p.name for p in rest])
            lines.append(
                rng.choice(
                    (
                        f"Besides {lead.first}, the team is {names}.",
                        f"{lead.first} works with {names}.",
                        f"The others: {names}.",
                        f"{names} make up the rest of the team." if len(rest) > 1 else f"{names} completes the team.",
                        f"With {lead.first}: {names}.",
                    )
                )
            )
        lines.append("")
        how = rng.sample(self.phrases["team"]["how"], k=rng.randint(0, 2))
        lines += [fill(h, Slots(rng, city=cities[0], company=company.name)) for h in how]
        del how
        skills = sorted({s for p in members for s in p.skills})
        if rng.random() < 0.6 and skills:
            lines += [
                "",
                f"{rng.choice(('Stack', 'Tools', 'What we use'))}: "
                f"{', '.join(rng.sample(skills, k=min(6, len(skills))))}.",
            ]
        if team.alumni and rng.random() < 0.7:
            alumni = team.alumni[:4]
            form = rng.choice(
                (
                    lambda p: f"{p.name} (now {p.job.company.name})",
                    lambda p: f"{p.name}, who joined {p.job.company.name}",
                    lambda p: f"{p.name} ({p.job.company.name} since {p.job.start[0]})",
                    lambda p: f"{p.name} - {p.job.company.name}",
                    lambda p: f"{p.name}, today at {p.job.company.name}",
                    lambda p: f"{p.name} ({p.job.title}, {p.job.company.name})",
                )
            )
            lines += [
                "",
                rng.choice(("Former members: ", "Alumni: ", "Left for other jobs: ", "Moved on: "))
                + "; ".join(form(p) for p in alumni)
                + ".",
            ]
            links += [p.url for p in alumni]
        title = rng.choice(
            (
                f"{company.name} {team.name} team",
                f"{team.name} - {company.name}",
                f"Meet the {team.name} team at {company.name} ({cities[0]})",
                f"{team.name} | {company.name} teams",
            )
        )
        text = "\n".join(line for i, line in enumerate(lines) if line or (i and lines[i - 1])).strip()
        return {
            "url": team.url,
            "title": title,
            "kind": "team",
            "links": list(dict.fromkeys(links)),
            "text": text,
            "path": f"teams/{company.domain}-{team.slug}.md",
        }

    # ------------------------------------------------------------ schools
    def school(self, school: School, alumni_pages: list[tuple[str, str]]) -> dict[str, Any]:
        rng = random.Random(f"{self.seed}:school:{school.name}")
        country = self.country(school.city)
        students = rng.randrange(6000, 42000, 500)
        lines = [
            f"# {school.name}",
            "",
            rng.choice(
                (
                    f"{school.name} was founded in {school.founded} and has about {students:,} students "
                    f"in {school.city}.",
                    f"Founded in {school.founded}, {school.name} teaches about {students:,} students "
                    f"on its {school.city} campus.",
                    f"A {country} university in {school.city}, founded {school.founded}; about {students:,} students.",
                    f"Students: {students:,}. Campus: {school.city}. Established: {school.founded}.",
                    f"{school.name} opened in {school.founded}. Today {students:,} students study here.",
                )
            ),
        ]
        lines += [
            "",
            rng.choice(("## Programmes", "## Degrees we offer", "## Study with us")),
            *[f"- {d}" for d in school.degrees],
            "",
        ]
        links = []
        if alumni_pages:
            lines.append(rng.choice(("## Alumni", "## Our graduates", "## Alumni news")))
            for url, title in alumni_pages:
                lines.append(f"- [{title}]({url})")
                links.append(url)
        return {
            "url": school.url,
            "title": rng.choice(
                (f"{school.name} - About", f"About {school.name} ({school.city})", f"{school.name}, {school.city}")
            ),
            "kind": "school",
            "links": links,
            "text": "\n".join(lines).strip(),
            "path": f"schools/{school.url.split('//')[1].split('.edu')[0]}.md",
        }

    def alumni(self, key: int, school: School, group: str, people: list[Person]) -> dict[str, Any]:
        rng = random.Random(f"{self.seed}:alumni:{key}")
        studies = {p.key: next(s for s in p.studies if s.school is school) for p in people}
        people = sorted(people, key=lambda p: (studies[p.key].end, p.name))
        programme = group
        slots = Slots(rng, programme=programme, school=school.name, year=2026 - rng.randint(0, 2))
        lines = [
            rng.choice(
                (
                    f"# Alumni news: {programme}",
                    f"# Where are they now? {programme} graduates",
                    f"# {programme}: class notes",
                    f"# {school.name} alumni in industry - {programme}",
                )
            ),
            "",
        ]
        lines += [fill(rng.choice(self.phrases["alumni"]["intro"]), slots), ""]
        shape = rng.choice(("notes", "table", "years"))
        if shape == "table":
            lines += ["| Name | Graduated | Degree | Now |", "|---|---|---|---|"]
            lines += [
                f"| {p.name} | {studies[p.key].end} | {studies[p.key].degree} | {p.job.title}, {p.job.company.name} |"
                for p in people
            ]
        elif shape == "years":
            year = None
            for p in people:
                if studies[p.key].end != year:
                    year = studies[p.key].end
                    lines += ["", f"**Class of {year}**"]
                lines.append(f"- {p.name} ({studies[p.key].degree}): {p.job.title} at {p.job.company.name}, {p.city}")
        else:
            for p in people:
                pronoun = "she" if p.gender == "f" else "he"
                note = fill(
                    rng.choice(self.phrases["alumni"]["note"]),
                    Slots(
                        rng,
                        name=p.name,
                        year=studies[p.key].end,
                        title=p.job.title,
                        title_a=("an " if p.job.title[0] in "AEIOU" else "a ") + lower_first(p.job.title),
                        company=p.job.company.name,
                        city=p.city,
                        pronoun=pronoun,
                        since=p.job.start[0],
                    ),
                )
                lines.append(f"- {note}")
        slug_ = f"{rng.choice(('class-notes', 'alumni', 'where-are-they-now', 'graduates'))}-{key:03d}"
        url = f"{school.url.rsplit('/', 1)[0]}/alumni/{slug_}"
        title = rng.choice(
            (
                f"{school.name} alumni: {programme}",
                f"{programme} - alumni news, {school.name}",
                f"Class notes ({programme}) | {school.name}",
            )
        )
        return {
            "url": url,
            "title": title,
            "kind": "alumni",
            "links": [school.url, *[p.url for p in people]],
            "text": "\n".join(lines).strip(),
            "path": f"alumni/{school.url.split('//')[1].split('.edu')[0]}-{slug_}.md",
        }
