"""Profile pages of background people, in the shapes real profiles take: rich or sparse, prose or bullets,
sections in different orders, some headed in the owner's language, dates written several ways."""

from __future__ import annotations

import random
from typing import Any

from scripts.world_background.model import Job, Model, Person
from scripts.world_background.text import Slots, cap, duration, fill, join, lower_first, span

LANGUAGE_OF = {
    "chinese": "zh", "taiwanese": "zh", "japanese": "ja", "korean": "ko", "german": "de", "swedish": "sv",
    "indonesian": "id", "spanish": "es", "mexican": "es", "colombian": "es", "chilean": "es",
    "peruvian_argentine": "es", "brazilian": "pt", "quebecois": "fr", "gulf_arab": "ar", "levantine_egyptian": "ar",
}  # fmt: skip
DATE_STYLES = {"short": 5, "long": 2, "year": 4, "slash": 1, "dot": 1}


class ProfileWriter:
    def __init__(self, model: Model, team_pages: set[str]) -> None:
        self.model = model
        self.sources = model.sources
        self.phrases = model.sources.phrases
        self.languages = model.sources.languages
        self.team_pages = team_pages

    # ------------------------------------------------------------ slots
    def slots(self, rng: random.Random, person: Person, job: Job) -> Slots:
        functions = self.sources.functions
        company = job.company
        entry = company.entry
        products = entry.get("products") or [company.name]
        previous = [j.company.name for j in person.jobs[1:]] or [""]
        crafts = self.phrases["craft"]
        years = max(1, 2026 - person.jobs[-1].start[0])
        cities = self.sources.world["cities"]
        others = [c for c in cities if c != person.city and cities[c]["country"] == cities[person.city]["country"]]
        work = self.work_of(job)
        wins = functions[job.function]["wins"]
        slots = Slots(rng)
        slots.update(
            first=person.first,
            company=company.name,
            city=person.city,
            product=lambda: rng.choice(products),
            domain=entry.get("field", "software"),
            domain_cap=cap(entry.get("field", "software")),
            years=years,
            craft=lambda: rng.choice(crafts[job.function]),
            craft_cap=lambda: cap(rng.choice(crafts[job.function])),
            prev_craft=lambda: rng.choice(crafts[person.jobs[-1].function]),
            skill=person.skills[0],
            skill2=person.skills[-1],
            prev=previous[0],
            prev2=previous[-1],
            prev_work=lambda: fill(rng.choice(self.work_of(person.jobs[-1])), slots),
            work=lambda: fill(rng.choice(work), slots),
            work2=lambda: fill(rng.choice(work), slots),
            win=lambda: fill(rng.choice(wins), slots),
            win_cap=lambda: cap(fill(rng.choice(wins), slots)),
            work_cap=lambda: cap(fill(rng.choice(work), slots)),
            region=cities[job.city]["region"],
            year=job.start[0],
            title=job.title,
            title_lower=lower_first(job.title),
            city2=lambda: rng.choice(others or [person.city]),
            lang=lambda: rng.choice(["Spanish", "Japanese", "German", "Mandarin", "French", "Korean", "Italian"]),
            ordinal=lambda: rng.choice(["second", "third", "fourth", "fifth"]),
            verb=lambda: rng.choice(self.phrases["bullet"]["verb"]),
            verb_lower=lambda: lower_first(rng.choice(self.phrases["bullet"]["verb"])),
        )
        return slots

    def work_of(self, job: Job) -> list[str]:
        work = self.sources.functions[job.function]["work"]
        return [w for w in work if job.company.entry or ("{product}" not in w and "{domain}" not in w)]

    # ------------------------------------------------------------ pieces
    @staticmethod
    def usable(templates: list[str], person: Person) -> list[str]:
        """Templates this person's facts can fill (no "before X" for someone on their first job)."""
        if len(person.jobs) > 1:
            return templates
        return [t for t in templates if not any(s in t for s in ("{prev}", "{prev2}", "{prev_work}", "{prev_craft}"))]

    def summary(self, rng: random.Random, person: Person, slots: Slots, voice: str, size: int) -> str:
        summary = self.phrases["summary"]
        sentences = [fill(rng.choice(self.usable(summary["opener"][voice], person)), slots)]
        if voice == "fragment":
            return sentences[0]
        middle = self.usable(summary["middle"], person)
        sentences += [fill(m, slots) for m in rng.sample(middle, k=min(size, len(middle)))]
        if rng.random() < 0.5:
            sentences.append(fill(rng.choice(summary["closer"]), slots))
        if voice == "third_person":
            sentences = [sentences[0]] + [
                s for s in sentences[1:] if " I " not in f" {s} " and not s.startswith(("I ", "My "))
            ]
        return " ".join(sentences)

    def bullets(self, rng: random.Random, person: Person, job: Job, count: int) -> list[str]:
        slots = self.slots(rng, person, job)
        if job.company.shared:  # the world's own companies: what they do there is the hand-written pages' to say
            return []
        joiners = self.phrases["bullet"]["joiner"]
        work = self.work_of(job)
        picked = rng.sample(work, k=min(count, len(work)))
        out = []
        for joiner, item in zip(rng.sample(joiners, k=len(picked)), picked, strict=True):
            slots.update(work=fill(item, slots))
            slots.update(work_cap=cap(slots["work"]))
            out.append(cap(fill(joiner, slots)))
        return out

    def when(self, job: Job, style: str, present: str, dash: str) -> str:
        return span(job.start, job.end, style, present, dash)

    # ------------------------------------------------------------ page
    def page(self, person: Person) -> tuple[str, str, list[str]]:
        """(title, text, links) of one profile."""
        rng = random.Random(f"{self.sources.world['seed']}:profile:{person.key}")
        job = person.job
        lang = LANGUAGE_OF.get(person.culture) if rng.random() < 0.22 else None
        words = self.languages.get(lang or "en") or self.languages["en"]
        english = self.languages["en"]

        def header(key: str) -> str:
            return rng.choice(words.get(key) or english[key])

        style = (
            "ja"
            if lang == "ja" and rng.random() < 0.6
            else next(iter([rng.choices(list(DATE_STYLES), list(DATE_STYLES.values()))[0]]))
        )
        present = rng.choice(words.get("present") or english["present"])
        dash = rng.choice((" - ", " – ", " to ", "–")) if style not in ("ja",) else " - "
        if dash == " to " and style in ("slash", "dot"):
            dash = " - "
        slots = self.slots(rng, person, job)
        links = [job.company.url]
        layout = rng.choices(("classic", "sparse", "prose", "table", "compact"), (34, 22, 18, 10, 16))[0]
        country = self.sources.world["cities"][person.city]["country"]
        shown_name = person.name + (f" ({person.native})" if person.native and rng.random() < 0.5 else "")
        title = self.title(rng, person, shown_name)

        team = job.team if job.team is not None and job.team.url in self.team_pages else None
        job_line = f"{job.title} at {job.company.name}" if rng.random() < 0.6 else f"{job.title}, {job.company.name}"
        if team is not None and rng.random() < 0.6:
            job_line += f" ({team.name})"
            links.append(team.url)
        where = rng.choice(
            (person.city, f"{person.city}, {country}", f"{person.city} area" if rng.random() < 0.2 else person.city)
        )

        voice = rng.choices(("first_person", "third_person", "fragment"), (60, 15, 25))[0]
        native_summary = ""
        if lang and words.get("summary"):
            native_slots = Slots(
                rng,
                company=job.company.name,
                city=person.city,
                product=slots["product"],
                years=slots["years"],
                prev=slots["prev"],
                skill=slots["skill"],
                year=job.start[0],
                craft_de=words.get("craft", {}).get(job.function, ""),
                city_ja=self.languages["ja"]["cities"].get(person.city, person.city),
                city_zh=self.languages["zh"]["cities"].get(person.city, person.city),
                city_ar=self.languages["ar"]["cities"].get(person.city, person.city),
            )
            native = self.usable(words["summary"], person)
            native_summary = " ".join(fill(t, native_slots) for t in rng.sample(native, k=min(2, len(native))))

        experience = self.experience(rng, person, layout, style, present, dash, links)
        education = self.education(rng, person, layout, links)
        skills_line = ", ".join(person.skills[: rng.randint(3, len(person.skills))])
        langs_line = join(person.languages) if rng.random() < 0.5 else ", ".join(person.languages)

        if layout == "sparse":
            lines = [f"**{shown_name}** - {job_line}, {where}", ""]
            lines.append(native_summary or self.summary(rng, person, slots, voice, rng.randint(0, 1)))
            lines += ["", *experience]
            if education:
                lines += education
            if rng.random() < 0.6:
                lines += ["", f"{langs_line}."]
            return title, "\n".join(lines).strip(), links

        sections: list[tuple[str, list[str]]] = []
        about = native_summary or self.summary(rng, person, slots, voice, rng.randint(1, 3))
        if native_summary and rng.random() < 0.5:
            about += "\n\n" + self.summary(rng, person, slots, "fragment", 0)
        if rng.random() < 0.85:
            sections.append((header("about"), [about]))
        sections.append((header("experience"), experience))
        if education:
            sections.append((header("education"), education))
        extras = []
        if rng.random() < 0.55:
            extras.append((header("skills"), [skills_line]))
        if rng.random() < 0.5:
            extras.append((header("languages"), [langs_line]))
        rng.shuffle(extras)
        sections += extras
        if education and rng.random() < 0.3:  # education first, as students and academics often do
            studies = next(section for section in sections if section[1] is education)
            sections.remove(studies)
            sections.insert(0 if rng.random() < 0.3 else 1, studies)

        if layout == "table":
            head = [
                f"# {shown_name}",
                "",
                "| | |",
                "|---|---|",
                f"| Current | {job.title}, {job.company.name} |",
                f"| Location | {where} |",
            ]
            if len(person.jobs) > 1:
                head.append(f"| Previously | {join([j.company.name for j in person.jobs[1:3]])} |")
            if person.studies:
                head.append(f"| Education | {person.studies[-1].school.name} |")
            head.append("")
        elif layout == "compact":
            head = [f"## {shown_name}", f"{job_line} · {where}", ""]
        elif layout == "prose":
            head = [f"# {shown_name}", "", f"{job_line} · {where}", ""]
        else:
            tagline = self.summary(rng, person, slots, "fragment", 0) if rng.random() < 0.4 else job_line
            joined = rng.random() < 0.5
            head = [
                f"# {shown_name}",
                "",
                f"**{tagline} | {where}**" if joined else f"**{tagline}**",
                *([where] if not joined and where not in tagline and rng.random() < 0.7 else []),
                "",
            ]
        mark = rng.choice(("##", "##", "###")) if layout != "compact" else "###"
        body = list(head)
        for name, content in sections:
            body += [f"{mark} {name}", *content, ""]
        text = "\n".join(body).strip()
        if person.city not in text and not any(
            a in text for a in self.sources.world["cities"][person.city].get("also", [])
        ):
            text += f"\n\n{person.city}"
        return title, text, links

    def title(self, rng: random.Random, person: Person, shown: str) -> str:
        job = person.job
        shapes = [
            f"{shown} - {job.title}, {job.company.name}",
            f"{person.name} | {job.title} at {job.company.name}",
            f"{person.name} - {job.title} - {job.company.name} ({person.city})",
            f"{person.name}, {job.title} | {job.company.name} | {person.city}",
            f"{shown} - {job.company.name}",
            f"{person.name} - {job.title} ({person.city})",
        ]
        return rng.choices(shapes, (30, 20, 15, 10, 10, 15))[0]

    def experience(
        self, rng: random.Random, person: Person, layout: str, style: str, present: str, dash: str, links: list[str]
    ) -> list[str]:
        lines: list[str] = []
        with_duration = rng.random() < 0.3
        for index, job in enumerate(person.jobs):
            if job.company.url not in links:
                links.append(job.company.url)
            when = span(job.start, job.end, style, present, dash)
            if with_duration:
                when += f" · {duration(job.start, job.end)}"
            depth = 0 if index == 0 else (1 if index == 1 else 2)
            bullets = (
                self.bullets(rng, person, job, rng.randint(0, 3 - depth)) if layout in ("classic", "table") else []
            )
            if layout == "sparse":
                lines.append(
                    f"- {job.company.name}{', ' + job.city if index and rng.random() < 0.4 else ''}"
                    f"{' - ' + job.title if index or rng.random() < 0.3 else ''}, {when}"
                )
            elif layout == "prose":
                slots = self.slots(rng, person, job)
                sentence = "" if job.company.shared else fill(rng.choice(self.phrases["bullet"]["prose"]), slots)
                lines += [f"**{job.company.name}** - {job.title} ({when}, {job.city}). {cap(sentence)}".strip(), ""]
            elif layout == "compact":
                lines.append(f"- **{job.title}**, {job.company.name} · {when}")
            else:
                place = f" · {job.city}" if rng.random() < 0.75 else ""
                if rng.random() < 0.5:
                    lines += [f"**{job.company.name}** - {job.title}", f"{when}{place}"]
                else:
                    lines += [f"**{job.title}** · {job.company.name}", f"{when}{place}"]
                lines += [f"- {b}" for b in bullets]
                lines.append("")
        while lines and not lines[-1]:
            lines.pop()
        return lines

    def education(self, rng: random.Random, person: Person, layout: str, links: list[str]) -> list[str]:
        lines = []
        for study in person.studies:
            if study.school.url not in links:
                links.append(study.school.url)
            years = f"{study.start} - {study.end}" if rng.random() < 0.6 else str(study.end)
            if layout == "sparse":
                lines.append(f"- {study.school.name} - {study.degree}, {years}")
            elif layout in ("prose", "compact"):
                lines.append(f"{study.school.name}, {study.degree} ({years})")
            else:
                lines.append(f"**{study.school.name}** - {study.degree} · {years}")
        return lines


def page_record(person: Person, title: str, text: str, links: list[str]) -> dict[str, Any]:
    return {
        "url": person.url,
        "title": title,
        "kind": "person",
        "links": links,
        "data": {"location": person.city, "current_employer": person.job.company.name},
        "text": text,
        "path": f"people/{person.slug}.md",
    }
