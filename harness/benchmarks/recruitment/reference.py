"""The reference judge for Recruitment (`--judge-model harness/reference`): the rubric applied mechanically
from the ground truth, with no model. It is not the paper's judge (which reads meaning, accepts
alternatives the criteria allow and weighs hallucinations); it is a deterministic floor-and-ceiling check:
the keyword floor and the oracle ceiling in docs/xbench.md are measured with it, tests hold them apart, and
it checks the plumbing in CI without a judge's cost. Pure functions.

- company mapping: the share of the expert's names covered by the candidate's names (already one name per
  entry and cut to the quantities asked, mapping.settle), each name covering at most one expected name;
  100 % -> 5, >= 90 % -> 4, >= 67 % -> 3, >= 34 % -> 2, else 1;
- people-to-info: the share of questions whose evidence (a verbatim quote of the fact) the profile
  contains; 100 % -> 5, >= 75 % -> 4, >= 50 % -> 3, >= 20 % -> 2, else 1;
- info-to-people, the paper's rubric counted: the targets found give the level before errors (all -> 5, at
  least two thirds -> 4, fewer -> 3), and every other person named is an error that costs a level, down to
  2 while a target is among them ("the right person among wrong ones" is at best partly correct, 3, with
  two wrong people beside it). Nobody right: 2 if nobody is named (an honest "not found"), else 1. Another
  person is named by a link to their profile, or, in a world task, by the name of a person of the world on
  a line that does not rule them out ("not", "ruled out", "near miss", ...). A target is named by their
  profile link, or by name on a line that links nobody else (a namesake's link is the namesake).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from typing import Any

from harness.benchmarks.recruitment.reading import normalized, read_lists
from harness.world import normalize_url

_URL = re.compile(r"https?://[^\s)\]>\"',]+")
_RULED_OUT = re.compile(
    r"\b(not|no longer|never|ruled out|rule out|rules out|exclud\w*|near[- ]miss\w*|decoys?|rejected|discard\w*|"
    r"instead of|rather than|unlike|except|fails?|misses|doesn't|does not|isn't|wasn't)\b|n't\b",
    re.IGNORECASE,
)


def contains(haystack: str, needle: str) -> bool:
    return bool(needle.strip()) and normalized(needle) in normalized(haystack)


def _level(share: float, steps: tuple[float, float, float, float]) -> int:
    five, four, three, two = steps
    if share >= five:
        return 5
    if share >= four:
        return 4
    if share >= three:
        return 3
    if share >= two:
        return 2
    return 1


def _covered(expected: list[str], given: list[str]) -> set[int]:
    """Which expected names the given names cover, one given name per expected name at most (a largest
    matching, so that an entry holding two expected names is never credited twice)."""
    holds = [[g for g, name in enumerate(given) if normalized(wanted) in normalized(name)] for wanted in expected]
    owner: dict[int, int] = {}

    def assign(e: int, visited: set[int]) -> bool:
        for g in holds[e]:
            if g in visited:
                continue
            visited.add(g)
            if g not in owner or assign(owner[g], visited):
                owner[g] = e
                return True
        return False

    for number in range(len(expected)):
        assign(number, set())
    return set(owner.values())


def company_mapping(truth: Any, lists: dict[str, list[str]]) -> dict[str, Any]:
    """The verdict from the candidate's lists (one name per entry, cut to the quantities asked) against
    the expert's."""
    found, missed = [], []
    for kind, expected in truth.expected.items():
        covered = _covered(list(expected), list(lists.get(kind, [])))
        for number, name in enumerate(expected):
            (found if number in covered else missed).append(name)
    total = len(found) + len(missed)
    share = len(found) / total if total else 0.0
    level = _level(share, (1.0, 0.9, 0.67, 0.34))
    reasoning = f"reference: {len(found)} of {total} expected names found" + (
        f"; missing: {', '.join(missed)}" if missed else ""
    )
    return {"reasoning": reasoning[:2400], "score": level}


def people_to_info(truth: Any, answer: str) -> dict[str, Any]:
    answered = []
    for question in truth.questions:
        quotes = [e.quote for e in question.evidence]
        answered.append(bool(quotes) and any(contains(answer, quote) for quote in quotes))
    share = sum(answered) / len(answered) if answered else 0.0
    level = _level(share, (1.0, 0.75, 0.5, 0.2))
    return {"reasoning": f"reference: {sum(answered)} of {len(answered)} questions answered", "score": level}


def people_of(pages: Iterable[Any]) -> dict[str, str]:
    """A world's people: the name a profile's title opens with (no "Dr." or native-script aside), normalised,
    -> the profile's URL. Namesakes share a key; the first profile keeps it (a name alone cannot tell them
    apart, and either is another person only when it is not a target's name)."""
    people: dict[str, str] = {}
    for page in pages:
        if page.kind != "person" and not _profile(page.url):
            continue
        name = re.split(r" - | \| | — | · ", page.title, maxsplit=1)[0]
        name = re.sub(r"\([^)]*\)|^(dr|prof|mr|ms|mrs)\.?\s+", " ", name, flags=re.IGNORECASE)
        key = normalized(name)
        if len(key) > 3:
            people.setdefault(key, page.url)
    return people


def _profile(url: str) -> bool:
    return "/in/" in url


def info_to_people(truth: Any, answer: str, people: Mapping[str, str] | None = None) -> dict[str, Any]:
    """The verdict on who the answer names. `people`: the world's people, normalised name -> profile URL
    (a person named without a link is still named)."""
    targets = {normalize_url(p.url): p for p in truth.people if p.url}
    target_names = {normalized(p.name) for p in truth.people}
    named: set[str] = set()
    wrong: set[str] = set()
    for line in answer.splitlines():
        links = {normalize_url(u.rstrip(".")) for u in _URL.findall(line)}
        others = {u for u in links if _profile(u) and u not in targets}
        wrong |= others
        for key, person in targets.items():
            if key in links or (not others and contains(line, person.name)):
                named.add(key)
        no_url = [p for p in truth.people if not p.url and contains(line, p.name)]
        named |= {normalized(p.name) for p in no_url}
        if people and not others and not _RULED_OUT.search(line):
            flat = normalized(_URL.sub(" ", line))
            for name, url in people.items():
                if name not in target_names and re.search(r"(?<!\w)" + re.escape(name) + r"(?!\w)", flat):
                    wrong.add(normalize_url(url))
    total = len(truth.people)
    if not named:
        level = 1 if wrong else 2
    else:
        before = 5 if len(named) == total else 4 if len(named) * 3 >= total * 2 else 3
        level = max(2, before - len(wrong))
    reasoning = f"reference: {len(named)} of {total} people found; {len(wrong)} other people named"
    return {"reasoning": reasoning, "score": level}


def verdict(task: Any, answer: str, people: Mapping[str, str] | None = None) -> dict[str, Any]:
    """The reference verdict on a whole answer, read as a run with `--judge-model harness/reference` reads
    it (company mapping: the parser, then the cut). For measuring agents without a run (the keyword floor)."""
    from harness.benchmarks.recruitment.mapping import settle

    truth = task.ground_truth
    if task.kind == "company_mapping":
        quantities = {o.kind: o.quantity for o in task.inputs.objects}
        known = {kind: list(names) for kind, names in truth.expected.items()}
        reading = settle(answer, read_lists(answer, list(quantities), known), quantities, "reference parser", known)
        return company_mapping(truth, reading.kept)
    if task.kind == "people_to_info":
        return people_to_info(truth, answer)
    if task.kind == "info_to_people":
        return info_to_people(truth, answer, people)
    raise ValueError(f"no reference rubric for kind {task.kind!r}")
