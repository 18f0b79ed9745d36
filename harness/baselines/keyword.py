"""The keyword floor: BM25 search over the task's world and no model at all.

    pytest evals/recruitment evals/marketing --agent harness.baselines.keyword:run

What it answers, per kind, from the world's own `search` and `open` tools (so it sees what any agent sees):
- people-to-info: the text of the top page for the person's name, known role and known profile;
- info-to-people: the top person page for the question, as the person found;
- company mapping: for each kind of object asked for, the best-ranked pages of that kind (a company's
  about page, a team page, a school or a lab), as many as asked, under "Search Results";
- influencer search: the best-ranked profiles on the brief's platforms, k of them.
An open-web task (no tools) gets an empty answer. Ranking only: whatever a keyword match cannot tell apart
(two people of one name, a creator with the right niche and the wrong audience) it gets wrong.

`run` is one strategy among those a maintainer would try in an afternoon (`STRATEGIES`, each also an agent:
`--agent harness.baselines.keyword:top5_terms`): name the top 1, 3 or 5 candidates (people-to-info: paste
the top 1, 3 or 5 person pages; company mapping: 1, 3 or 5 times the quantity, which the cut reduces), with
the task's own words as the query or only its key terms (people-to-info: the name and role; otherwise the
capitalised names, places and numbers of the request). tests/test_baselines.py holds every one of them low.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from dataclasses import dataclass
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


@dataclass(frozen=True)
class Strategy:
    """How a keyword agent answers: how many candidates it puts forward, and what it searches with."""

    name: str
    candidates: int = 1
    query: str = "words"  # "words": the task's own words; "terms": its key terms only


STRATEGIES = {
    s.name: s
    for s in (
        Strategy("top1_words", 1, "words"),
        Strategy("top3_words", 3, "words"),
        Strategy("top5_words", 5, "words"),
        Strategy("top1_terms", 1, "terms"),
        Strategy("top3_terms", 3, "terms"),
        Strategy("top5_terms", 5, "terms"),
    )
}
DEFAULT = STRATEGIES["top1_words"]


def page_name(title: str) -> str:
    """The name a page is about: its title before ' - ', ' | ' or ' (@'."""
    return re.split(r" - | \| | \(@| — ", title, maxsplit=1)[0].strip()


def _queries(text: str, limit: int = 60) -> str:
    words = re.findall(r"[\w'&.-]+", text)
    return " ".join(words[:limit])


def key_terms(text: str, limit: int = 30) -> str:
    """The words a person would type: capitalised names, places and acronyms, and numbers (years); not the
    capital that opens a sentence."""
    kept = []
    for match in re.finditer(r"[\w'&-]+", text):
        word, before = match.group(0), text[: match.start()].rstrip()
        opens = not before or before[-1] in ".!?:"
        if word[:1].isdigit() or (len(word) > 1 and word.isupper()) or (word[:1].isupper() and not opens):
            kept.append(word)
    return " ".join(list(dict.fromkeys(kept))[:limit]) or _queries(text)


def _is_person(url: str) -> bool:
    return "/in/" in url


def people_to_info(inputs: dict[str, Any], search: Search, open_text: Open, strategy: Strategy = DEFAULT) -> str:
    if strategy.query == "terms":
        query = f"{inputs['person']} {inputs['background']}"
    else:
        query = f"{inputs['person']} {inputs['background']} {inputs.get('reference', '')}"
    hits = [h for h in search(_queries(query), SEARCH_K) if _is_person(h["url"])][: strategy.candidates]
    return "\n\n".join(open_text(h["url"]) for h in hits) if hits else "Nothing found."


def info_to_people(inputs: dict[str, Any], search: Search, open_text: Open, strategy: Strategy = DEFAULT) -> str:
    question = inputs["question"]
    query = key_terms(question) if strategy.query == "terms" else _queries(question)
    hits = search(query, SEARCH_K)
    # no profile among the first hits (articles and team pages share the question's words): look deeper for
    # people before falling back to whatever ranked first, as a searcher who wants names would
    people = (
        [h for h in hits if _is_person(h["url"])]
        or [h for h in search(query, 4 * SEARCH_K) if _is_person(h["url"])]
        or hits
    )
    if not people:
        return "Nothing found."
    return "\n".join(f"- {page_name(h['title'])} ({h['url']})" for h in people[: strategy.candidates])


def company_mapping(inputs: dict[str, Any], search: Search, open_text: Open, strategy: Strategy = DEFAULT) -> str:
    description = inputs["job_description"]
    text = key_terms(f"{description} {inputs.get('region') or ''}") if strategy.query == "terms" else description
    hits = search(_queries(text, 80), SEARCH_K)
    lines = ["## Search Results"]
    for spec in inputs["objects"]:
        kind, quantity = spec["kind"], int(spec["quantity"]) * strategy.candidates
        test = next((t for stem, t in OBJECT_PAGES.items() if stem in kind.lower()), None)
        found = [h for h in hits if test is None or test(urlsplit(h["url"]))]
        for extra_query in (f"{kind} {text}", f"{kind} {inputs.get('region') or ''}"):
            if len(found) >= quantity:
                break
            extra = search(_queries(extra_query, 80), SEARCH_K)
            found += [h for h in extra if (test is None or test(urlsplit(h["url"]))) and h not in found]
        names = list(dict.fromkeys(page_name(h["title"]) for h in found))[:quantity]
        lines.append(f"{kind}: {', '.join(names)}")
    return "\n".join(lines)


def influencer_search(inputs: dict[str, Any], search: Search, open_text: Open, strategy: Strategy = DEFAULT) -> str:
    """The top k creator pages on the brief's platforms for the brief's words (or, with the `terms` query, only
    its capitalised names, places and numbers); the number of candidates is always k."""
    brief = inputs["brief"]
    needs = brief.get("influencer_requirements", {})
    text = " ".join(
        str(part)
        for part in (inputs.get("category"), needs.get("creator_types"), needs.get("audience_profile"),
                     brief.get("budget_and_distribution", {}).get("region"), brief.get("product_highlights"))
        if part
    )  # fmt: skip
    if strategy.query == "terms":
        text = key_terms(text)
    ranked: list[dict[str, Any]] = []
    for platform in inputs["platforms"]:
        host = PLATFORM_HOSTS.get(platform, platform.lower())
        for hit in search(_queries(f"{platform} {text}"), SEARCH_K):
            if host in urlsplit(hit["url"]).netloc and hit["url"] not in {r["url"] for r in ranked}:
                ranked.append(hit)
    ranked.sort(key=lambda h: -float(h.get("score", 0.0)))
    picks = ranked[: int(inputs["k"])]
    return json.dumps([{"name": page_name(h["title"]), "link": h["url"]} for h in picks])


ANSWERS: dict[str, Callable[..., str]] = {
    "people_to_info": people_to_info,
    "info_to_people": info_to_people,
    "company_mapping": company_mapping,
    "influencer_search": influencer_search,
}


def answer(kind: str, inputs: dict[str, Any], search: Search, open_text: Open, strategy: Strategy = DEFAULT) -> str:
    """The keyword answer for one task, given the world's search and open."""
    how = ANSWERS.get(kind)
    if how is None:
        return ""
    return how(inputs, search, open_text, strategy)


def _agent(strategy: Strategy) -> Callable[[str, list[Any], dict[str, Any]], str]:
    def run(prompt: str, tools: list[Any], task: dict[str, Any]) -> str:
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

        return answer(task["kind"], task.get("inputs") or {}, search, open_text, strategy)

    run.__doc__ = f"The keyword agent, strategy {strategy.name}: `--agent harness.baselines.keyword:{strategy.name}`."
    return run


run = _agent(DEFAULT)
top1_words = run
top3_words = _agent(STRATEGIES["top3_words"])
top5_words = _agent(STRATEGIES["top5_words"])
top1_terms = _agent(STRATEGIES["top1_terms"])
top3_terms = _agent(STRATEGIES["top3_terms"])
top5_terms = _agent(STRATEGIES["top5_terms"])
