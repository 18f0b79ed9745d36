"""The keyword floor: BM25 search over the task's world and no model at all.

    pytest evals/recruitment evals/marketing --agent harness.baselines.keyword:run

What it answers, per kind, from the world's own `search` and `open` tools (so it sees what any agent sees):
- people-to-info: the text of the top page for the person's name and known role;
- info-to-people: the top page for the question, as the person found;
- company mapping: for each kind of object asked for, the best-ranked pages of that kind (a company's
  about page, a team page, a school or a lab), as many as asked, under "Search Results";
- influencer search: the best-ranked profiles on the brief's platforms, k of them.
An open-web task (no tools) gets an empty answer. Ranking only: whatever a keyword match cannot tell apart
(two people of one name, a creator with the right niche and the wrong audience) it gets wrong.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from typing import Any
from urllib.parse import urlsplit

Search = Callable[[str, int], list[dict[str, Any]]]
Open = Callable[[str], str]
SEARCH_K = 10
PLATFORM_HOSTS = {"YouTube": "youtube.com", "TikTok": "tiktok.com", "Instagram": "instagram.com"}
# Which pages answer which kind of object, by the shape of their URL.
OBJECT_PAGES = {
    "compan": lambda u: u.path.rstrip("/").endswith("/about") and ".edu." not in u.netloc,
    "team": lambda u: "/teams/" in u.path,
    "lab": lambda u: "/labs/" in u.path,
    "school": lambda u: ".edu." in u.netloc and u.path.rstrip("/").endswith("/about"),
    "universit": lambda u: ".edu." in u.netloc and u.path.rstrip("/").endswith("/about"),
    "institut": lambda u: ".edu." in u.netloc and u.path.rstrip("/").endswith("/about"),
}


def page_name(title: str) -> str:
    """The name a page is about: its title before ' - ', ' | ' or ' (@'."""
    return re.split(r" - | \| | \(@| — ", title, maxsplit=1)[0].strip()


def _queries(text: str, limit: int = 60) -> str:
    words = re.findall(r"[\w'&.-]+", text)
    return " ".join(words[:limit])


def people_to_info(inputs: dict[str, Any], search: Search, open_text: Open) -> str:
    hits = search(_queries(f"{inputs['person']} {inputs['background']} {inputs.get('reference', '')}"), SEARCH_K)
    return open_text(hits[0]["url"]) if hits else "Nothing found."


def info_to_people(inputs: dict[str, Any], search: Search, open_text: Open) -> str:
    hits = search(_queries(inputs["question"]), SEARCH_K)
    people = [h for h in hits if "/in/" in h["url"]] or hits
    if not people:
        return "Nothing found."
    top = people[0]
    return f"{page_name(top['title'])} ({top['url']})"


def company_mapping(inputs: dict[str, Any], search: Search, open_text: Open) -> str:
    hits = search(_queries(inputs["job_description"], 80), SEARCH_K)
    lines = ["## Search Results"]
    for spec in inputs["objects"]:
        kind, quantity = spec["kind"], int(spec["quantity"])
        test = next((t for stem, t in OBJECT_PAGES.items() if stem in kind.lower()), None)
        found = [h for h in hits if test is None or test(urlsplit(h["url"]))]
        if len(found) < quantity:
            extra = search(_queries(f"{kind} {inputs['job_description']}", 80), SEARCH_K)
            found += [h for h in extra if (test is None or test(urlsplit(h["url"]))) and h not in found]
        names = list(dict.fromkeys(page_name(h["title"]) for h in found))[:quantity]
        lines.append(f"{kind}: {', '.join(names)}")
    return "\n".join(lines)


def influencer_search(inputs: dict[str, Any], search: Search, open_text: Open) -> str:
    brief = inputs["brief"]
    needs = brief.get("influencer_requirements", {})
    text = " ".join(
        str(part)
        for part in (inputs.get("category"), needs.get("creator_types"), needs.get("audience_profile"),
                     brief.get("budget_and_distribution", {}).get("region"), brief.get("product_highlights"))
        if part
    )  # fmt: skip
    ranked: list[dict[str, Any]] = []
    for platform in inputs["platforms"]:
        host = PLATFORM_HOSTS.get(platform, platform.lower())
        for hit in search(_queries(f"{platform} {text}"), SEARCH_K):
            if host in urlsplit(hit["url"]).netloc and hit["url"] not in {r["url"] for r in ranked}:
                ranked.append(hit)
    ranked.sort(key=lambda h: -float(h.get("score", 0.0)))
    picks = ranked[: int(inputs["k"])]
    return json.dumps([{"name": page_name(h["title"]), "link": h["url"]} for h in picks])


ANSWERS: dict[str, Callable[[dict[str, Any], Search, Open], str]] = {
    "people_to_info": people_to_info,
    "info_to_people": info_to_people,
    "company_mapping": company_mapping,
    "influencer_search": influencer_search,
}


def answer(kind: str, inputs: dict[str, Any], search: Search, open_text: Open) -> str:
    """The keyword answer for one task, given the world's search and open."""
    how = ANSWERS.get(kind)
    return how(inputs, search, open_text) if how is not None else ""


def run(prompt: str, tools: list[Any], task: dict[str, Any]) -> str:
    """The agent: `--agent harness.baselines.keyword:run`."""
    by_name = {tool.name: tool for tool in tools}
    if "search" not in by_name or "open" not in by_name:
        return "No search tool: nothing to answer from."

    def search(query: str, k: int) -> list[dict[str, Any]]:
        hits = json.loads(by_name["search"].function(query=query, k=k))["results"]
        for rank, hit in enumerate(hits):
            hit.setdefault("score", float(len(hits) - rank))  # the tool returns rank order, not scores
        return hits

    def open_text(url: str) -> str:
        parts, page = [], 1
        while True:
            opened = json.loads(by_name["open"].function(url=url, page=page))
            if "text" not in opened:
                break
            parts.append(opened["text"])
            if page >= int(opened.get("pages", 1)):
                break
            page += 1
        return "\n".join(parts)

    return answer(task["kind"], task.get("inputs") or {}, search, open_text)
