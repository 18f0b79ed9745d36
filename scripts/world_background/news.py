"""News about background companies and people, in the house styles of several outlets and as companies' own
press releases. Every item is drawn from the model's facts (a round the company raised, an office it has, a
person's start date), so the news agrees with the profiles and about pages."""

from __future__ import annotations

import random
import re
from typing import Any

from scripts.world_background.model import YEAR, Builder, Company, Model
from scripts.world_background.orgs import amount
from scripts.world_background.sources import slug
from scripts.world_background.text import MONTHS, ORDINALS, Slots, cap, fill, lower_first

KINDS = {"funding": 22, "hire": 24, "launch": 14, "office": 10, "partnership": 10, "restructure": 5, "roundup": 15}
WEEKDAYS = ("Monday", "Tuesday", "Wednesday", "Thursday", "Friday")
PLANS = (
    "hiring in engineering and sales",
    "a launch in two more countries",
    "a new version of its main product",
    "its first office outside its home market",
    "better tools for its largest customers",
    "moving its software onto a single platform",
    "growing its customer support team",
)
AUDIENCES = (
    "small businesses",
    "larger customers",
    "teams that work in the field",
    "customers outside the capital",
    "first-time users",
    "finance teams",
    "managers with large teams",
)
SUFFIXES = ("Insights", "Go", "Connect", "Plus", "Lite", "Studio", "Hub", "Assist", "Flow", "Pro")


class NewsWriter:
    def __init__(self, model: Model, builder: Builder, team_pages: set[str]) -> None:
        self.model, self.builder = model, builder
        self.sources = model.sources
        self.phrases = model.sources.phrases["news"]
        self.seed = model.sources.world["seed"]
        self.cities = model.sources.world["cities"]
        self.background = [c for c in model.companies if not c.shared]
        self.team_pages = team_pages
        self.urls: set[str] = set()
        self.used_rounds: set[tuple[str, str]] = set()
        self.used_hires: set[int] = set()

    def outlet(self, rng: random.Random, city: str) -> dict[str, Any]:
        region = self.cities[city]["region"]
        outlets = [o for o in self.sources.world["outlets"] if region in o["regions"]] or self.sources.world["outlets"]
        return rng.choice(outlets)

    def reporter(self, rng: random.Random, city: str) -> str:
        cultures = [c for c, e in self.sources.names.items() if city in e["cities"]] or list(self.sources.names)
        for _ in range(30):
            _, _, name, _ = self.builder.name(rng, rng.choice(cultures), rng.choice("fm"))
            if not self.builder.taken(name):
                return name
        return "Staff reporter"

    # ------------------------------------------------------------ items
    def item(self, key: int) -> dict[str, Any]:
        rng = random.Random(f"{self.seed}:news:{key}")
        kind = rng.choices(list(KINDS), list(KINDS.values()))[0]
        made = getattr(self, kind)(rng)
        if made is None:
            made = self.launch(rng)
        return self.dress(rng, key, *made)

    def when(self, rng: random.Random, low: int) -> tuple[int, int, int]:
        year = rng.randint(max(low, 2016), YEAR)
        month = rng.randint(1, 10 if year == YEAR else 12)
        return year, month, rng.randint(1, 28)

    def company_slots(self, rng: random.Random, company: Company, date: tuple[int, int, int]) -> Slots:
        entry = company.entry
        return Slots(
            rng,
            company=company.name,
            city=company.hq,
            what=entry["what"],
            founded=entry["founded"],
            staff=entry["staff"],
            weekday=rng.choice(WEEKDAYS),
            plan=lambda: rng.choice(PLANS),
            ceo=company.ceo,
            prev_year=max(entry["founded"], date[0] - rng.randint(1, 3)),
            region=self.cities[company.hq]["region"],
            month=MONTHS[date[1] - 1],
            ordinal=rng.choice(ORDINALS[1:4]),
            product=lambda: rng.choice(entry["products"]),
            audience=rng.choice(AUDIENCES),
            team=lambda: rng.choice(company.teams).name.lower() if rng.random() < 0.5 else "sales and support",
        )

    def body(self, rng: random.Random, kind: str, slots: Slots, extra: int) -> list[str]:
        lead = fill(rng.choice(self.phrases[kind]), slots)
        more = [
            fill(t, slots)
            for t in rng.sample(self.phrases[f"{kind}_more"], k=min(extra, len(self.phrases[f"{kind}_more"])))
        ]
        return [lead, *more]

    def funding(self, rng: random.Random) -> tuple | None:
        choices = [(c, r) for c in self.background for r in c.rounds if (c.name, r["round"]) not in self.used_rounds]
        if not choices:
            return None
        company, rnd = rng.choice(choices)
        self.used_rounds.add((company.name, rnd["round"]))
        date = (rnd["year"], rnd["month"], rng.randint(1, 28))
        slots = self.company_slots(rng, company, date)
        slots.update(
            amount=amount(rng, rnd["amount"], self.cities[company.hq]["country"]),
            round=rnd["round"],
            investor=rnd["investor"],
        )
        headline = rng.choice(
            (
                f"{company.name} raises {slots['amount']} {rnd['round']}",
                f"{rnd['investor']} backs {company.name} in {rnd['round']} round",
                f"{company.name} lands {rnd['round']} funding to grow {company.entry['field']}",
                f"{company.hq}'s {company.name} closes {slots['amount']} round",
            )
        )
        return "funding", company, date, headline, self.body(rng, "funding", slots, rng.randint(1, 3)), [], rnd["round"]

    def hire(self, rng: random.Random) -> tuple | None:
        people = [
            p
            for p in self.model.people
            if not p.job.company.shared and p.job.level >= 3 and p.job.start[0] >= 2018 and p.key not in self.used_hires
        ]
        if not people:
            return None
        person = rng.choice(people)
        self.used_hires.add(person.key)
        company = person.job.company
        date = (person.job.start[0], person.job.start[1], rng.randint(1, 28))
        slots = self.company_slots(rng, company, date)
        prev = person.jobs[1].company.name if len(person.jobs) > 1 else None
        pronoun = "she" if person.gender == "f" else "he"
        slots.update(
            person=person.name,
            title=lower_first(person.job.title) if rng.random() < 0.5 else person.job.title,
            prev=prev or "",
            pronoun=pronoun,
            pronoun_cap=cap(pronoun),
        )
        extras = [t for t in self.phrases["hire_more"] if prev or "{prev}" not in t]
        lead = fill(rng.choice(self.phrases["hire"]), slots)
        more = [fill(t, slots) for t in rng.sample(extras, k=rng.randint(1, 2))]
        headline = rng.choice(
            (
                f"{company.name} hires {person.name} as {person.job.title}",
                f"{person.name} joins {company.name}",
                f"New {person.job.title} at {company.name}",
                f"People moves: {person.name} to {company.name}",
            )
        )
        links = [person.url] + ([person.jobs[1].company.url] if prev else [])
        return "hire", company, date, headline, [lead, *more], links, None

    def launch(self, rng: random.Random) -> tuple:
        company = rng.choice(self.background)
        date = self.when(rng, company.entry["founded"] + 1)
        slots = self.company_slots(rng, company, date)
        base = rng.choice(company.entry["products"])
        product2 = f"{base} {rng.choice(SUFFIXES)}"
        slots.update(product2=product2, product=base)
        lead_person = next(
            (p for p in self.model.people if p.job.company is company and p.job.function == "product"), None
        )
        extras = [t for t in self.phrases["launch_more"] if lead_person or "{person}" not in t]
        if lead_person:
            slots.update(person=lead_person.name)
        lead = fill(rng.choice(self.phrases["launch"]), slots)
        more = [fill(t, slots) for t in rng.sample(extras, k=rng.randint(1, 2))]
        headline = rng.choice(
            (
                f"{company.name} launches {product2}",
                f"{product2} is now available",
                f"{company.name} adds {product2} for {slots['audience']}",
            )
        )
        links = [lead_person.url] if lead_person and any(lead_person.name in m for m in more) else []
        return "launch", company, date, headline, [lead, *more], links, None

    def office(self, rng: random.Random) -> tuple | None:
        choices = [c for c in self.background if len(c.cities) > 1]
        company = rng.choice(choices)
        city2 = rng.choice(company.cities[1:])
        date = self.when(rng, company.entry["founded"] + 2)
        slots = self.company_slots(rng, company, date)
        slots.update(city2=city2)
        local = [p for p in self.model.people if p.job.company is company and p.city == city2 and p.job.level >= 3]
        extras = [t for t in self.phrases["office_more"] if local or "{person}" not in t]
        links = []
        if local:
            person = local[0]
            slots.update(person=person.name, prev=person.jobs[1].company.name if len(person.jobs) > 1 else company.hq)
        body = [fill(rng.choice(self.phrases["office"]), slots)]
        body += [fill(t, slots) for t in rng.sample(extras, k=rng.randint(1, 2))]
        if local and any(local[0].name in b for b in body):
            links.append(local[0].url)
        headline = rng.choice(
            (
                f"{company.name} opens in {city2}",
                f"{company.name} expands to {city2}",
                f"{city2} office for {company.name}",
            )
        )
        return "office", company, date, headline, body, links, None

    def partnership(self, rng: random.Random) -> tuple | None:
        company = rng.choice(self.background)
        region = self.cities[company.hq]["region"]
        others = [c for c in self.background if c is not company and self.cities[c.hq]["region"] == region] or [
            c for c in self.background if c is not company
        ]
        other = rng.choice(others)
        date = self.when(rng, max(company.entry["founded"], other.entry["founded"]) + 1)
        slots = self.company_slots(rng, company, date)
        slots.update(company2=other.name)
        body = [fill(rng.choice(self.phrases["partnership"]), slots)]
        body += [fill(t, slots) for t in rng.sample(self.phrases["partnership_more"], k=rng.randint(1, 2))]
        headline = rng.choice(
            (
                f"{company.name} and {other.name} team up",
                f"{other.name} signs with {company.name}",
                f"{company.name} partners with {other.name}",
            )
        )
        return "partnership", company, date, headline, body, [other.url], None

    def restructure(self, rng: random.Random) -> tuple | None:
        choices = [c for c in self.background if c.entry["staff"] >= 200 and len(c.cities) > 1]
        company = rng.choice(choices)
        date = self.when(rng, max(2020, company.entry["founded"] + 4))
        date = (min(date[0], YEAR - 1), date[1], date[2])
        slots = self.company_slots(rng, company, date)
        slots.update(city2=company.cities[-1])
        template = rng.choice([t for t in self.phrases["restructure"] if "{city2}" not in t])
        body = [fill(template, slots)]
        body += [fill(t, slots) for t in rng.sample(self.phrases["restructure_more"], k=rng.randint(1, 2))]
        headline = rng.choice(
            (
                f"{company.name} cuts jobs to focus on {company.entry['products'][0]}",
                f"{company.name} trims headcount",
                f"Layoffs at {company.name}",
            )
        )
        return "restructure", company, date, headline, body, [], None

    def roundup(self, rng: random.Random) -> tuple:
        company = rng.choice(self.background)
        region = self.cities[company.hq]["region"]
        peers = [c for c in self.background if self.cities[c.hq]["region"] == region and c is not company]
        picked = [company, *rng.sample(peers, k=min(len(peers), rng.randint(2, 4)))]
        date = self.when(rng, max(c.entry["founded"] for c in picked) + 1)
        slots = self.company_slots(rng, company, date)
        slots.update(
            period=rng.choice(("week", "month", "fortnight")), domain=rng.choice(("tech", "software", "start-up"))
        )
        body = [fill(rng.choice(self.phrases["roundup_intro"]), slots)]
        links = []
        for other in picked:
            staff = [
                p
                for p in self.model.people
                if p.job.company is other
                and p.job.start[:2] <= date[:2]
                and (p.job.start[0], p.job.start[1]) >= (date[0] - 1, date[1])
            ]
            if staff and rng.random() < 0.6:
                person = rng.choice(staff)
                title = lower_first(person.job.title)
                body.append(
                    rng.choice(
                        (
                            f"- **{other.name}** hired {person.name} as {title}.",
                            f"- {person.name} is the new {title} at **{other.name}**.",
                            f"- **{other.name}**: {person.name} joins as {title}.",
                            f"- **{other.name}** welcomed {person.name} ({person.job.title}).",
                        )
                    )
                )
                links.append(person.url)
            else:
                slots2 = Slots(rng, product=rng.choice(other.entry["products"]), city=other.hq)
                body.append(
                    f"- **{other.name}** "
                    + fill(
                        rng.choice(
                            (
                                "is hiring for its {city} office again after a quiet year.",
                                "has a new pricing page for {product}, with a cheaper entry plan.",
                                "moved into a bigger office in {city}.",
                                "published its first public roadmap for {product}.",
                                "says {product} now has customers in {n} countries.",
                            )
                        ),
                        slots2,
                    )
                )
            links.append(other.url)
        headline = rng.choice(
            (
                f"{region}: {MONTHS[date[1] - 1]} round-up",
                f"What we are watching in {region}",
                f"Notes from {region}, {MONTHS[date[1] - 1]} {date[0]}",
            )
        )
        return "roundup", company, date, headline, body, links, None

    # ------------------------------------------------------------ dressing
    def dress(
        self,
        rng: random.Random,
        key: int,
        kind: str,
        company: Company,
        date: tuple[int, int, int],
        headline: str,
        body: list[str],
        links: list[str],
        _: Any,
    ) -> dict[str, Any]:
        year, month, day = date
        press = kind in ("launch", "office", "partnership") and rng.random() < 0.35
        outlet = None if press else self.outlet(rng, company.hq)
        style = "press" if press else outlet["style"]
        reporter = self.reporter(rng, company.hq)
        long_date = f"{day} {MONTHS[month - 1]} {year}"
        us_date = f"{MONTHS[month - 1]} {day}, {year}"
        iso = f"{year}-{month:02d}-{day:02d}"
        base = slug(headline)[:60].strip("-")
        if press:
            url = f"https://{company.domain}.example/news/{base}"
            lines = [
                f"# {headline}",
                "",
                f"**{company.hq}, {us_date}** - {body[0]}",
                *[f"\n{b}" for b in body[1:]],
                "",
                f"**About {company.name}**",
                f"{company.name} makes {company.entry['what']}.",
                "",
                f"Media contact: press@{company.domain}.example",
            ]
        elif style == "wire":
            url = f"https://{outlet['domain']}.example/{year}/{month:02d}/{base}"
            lines = [
                f"**{outlet['name']}** · {rng.choice(('Business', 'Companies', 'Tech', 'People'))} · {long_date}",
                "",
                f"# {headline}",
                "",
                *self.paragraphs(rng, body),
            ]
        elif style == "paper":
            url = f"https://{outlet['domain']}.example/{year}/{base}"
            lines = [f"# {headline}", "", f"*{reporter}, {company.hq} | {long_date}*", "", *self.paragraphs(rng, body)]
        elif style == "blog":
            url = f"https://{outlet['domain']}.example/posts/{iso}-{base}"
            tags = [company.entry["field"], kind, self.cities[company.hq]["region"]]
            lines = [
                f"# {headline}",
                "",
                f"Posted {iso} by {reporter}",
                "",
                *self.paragraphs(rng, body),
                "",
                "Tags: " + ", ".join(tags),
            ]
        elif style == "deals":
            url = f"https://{outlet['domain']}.example/deals/{year}/{base}"
            lines = [
                f"{kind.upper()} | {self.cities[company.hq]['region']} | {long_date}",
                "",
                f"## {headline}",
                "",
                f"- Company: {company.name} ({company.hq})",
                f"- Field: {company.entry['field']}",
                "",
                *self.paragraphs(rng, body),
            ]
        else:  # newsletter
            url = f"https://{outlet['domain']}.example/issues/{year}-{month:02d}/{base}"
            lines = [f"## {headline}", f"{outlet['name']} · {long_date} · by {reporter}", "", *body]
        while url in self.urls:
            url += f"-{key}"
        self.urls.add(url)
        if not press and rng.random() < 0.4:
            lines += ["", rng.choice(("Related: ", "More: ", "See also: ")) + f"[{company.name}]({company.url})"]
        links = list(dict.fromkeys([company.url, *links]))
        where = outlet["domain"] if outlet else company.domain
        text = re.sub(r"\n{3,}", "\n\n", "\n".join(lines).strip())
        return {
            "url": url,
            "title": headline
            if press or rng.random() < 0.6
            else f"{headline} | {outlet['name'] if outlet else company.name}",
            "kind": "article",
            "links": links,
            "data": {"published": iso},
            "text": text,
            "path": f"news/{where}-{key:04d}-{base[:40].strip('-')}.md",
        }

    def paragraphs(self, rng: random.Random, body: list[str]) -> list[str]:
        out, current = [], []
        for sentence in body:
            current.append(sentence)
            if rng.random() < 0.5:
                out += [" ".join(current), ""]
                current = []
        if current:
            out.append(" ".join(current))
        return out
