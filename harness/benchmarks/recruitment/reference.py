"""The reference judge for Recruitment (`--judge-model harness/reference`): the rubric applied mechanically
from the ground truth, with no model. It is not the paper's judge (which reads meaning, accepts
alternatives the criteria allow and weighs hallucinations); it is a deterministic floor-and-ceiling check:
the keyword floor and the oracle ceiling in docs/xbench.md are measured with it, tests hold them apart, and
it checks the plumbing in CI without a judge's cost. Pure functions.

- company mapping: the share of the expert's names found in the candidate's lists (already cut to the
  quantities asked); 100 % -> 5, >= 90 % -> 4, >= 67 % -> 3, >= 34 % -> 2, else 1;
- people-to-info: the share of questions whose evidence (a verbatim quote of the fact) the profile
  contains; 100 % -> 5, >= 75 % -> 4, >= 50 % -> 3, >= 20 % -> 2, else 1;
- info-to-people: every target named (by profile link, or by name) and no other profile linked -> 5; every
  target and others too -> 4; some targets -> 3; nobody named -> 2 (it admits it found nothing); only
  other people -> 1.
"""

from __future__ import annotations

import re
import unicodedata
from typing import Any

from harness.world import normalize_url

_URL = re.compile(r"https?://[^\s)\]>\"',]+")


def normalized(text: str) -> str:
    """Case, accents' composition, markup and spacing do not decide a match."""
    text = unicodedata.normalize("NFKC", text).casefold()
    text = re.sub(r"[*_`#>|]+", " ", text)
    return re.sub(r"\s+", " ", text).strip()


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


def company_mapping(truth: Any, lists: dict[str, list[str]]) -> dict[str, Any]:
    """The verdict from the candidate's lists (cut to the quantities asked) against the expert's."""
    found, missed = [], []
    for kind, expected in truth.expected.items():
        given = " | ".join(lists.get(kind, []))
        for name in expected:
            (found if contains(given, name) else missed).append(name)
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


def info_to_people(truth: Any, answer: str) -> dict[str, Any]:
    linked = {normalize_url(u.rstrip(".")) for u in _URL.findall(answer)}
    targets = [p for p in truth.people]
    named = [p for p in targets if (p.url and normalize_url(p.url) in linked) or contains(answer, p.name)]
    others = linked - {normalize_url(p.url) for p in targets if p.url}
    people_links = {u for u in others if "/in/" in u}
    if len(named) == len(targets):
        level = 4 if people_links else 5
    elif named:
        level = 3
    else:
        level = 1 if people_links else 2
    reasoning = f"reference: {len(named)} of {len(targets)} people found; {len(people_links)} other profiles named"
    return {"reasoning": reasoning, "score": level}


def parse_lists(answer: str, kinds: list[str], known: tuple[str, ...] = ()) -> dict[str, list[str]]:
    """The lists of a company-mapping answer read without a model, for the reference judge: lines that start
    with a kind's label ("Companies: A, B"), or a heading for the kind followed by bullets, numbered items
    or table rows. Names are split on commas, semicolons, " / ", " & " and " and ", outside parentheses;
    a `known` name (the expert's, which the judge knows) is never split: "Engine & Rendering Team" is one
    team, as a judge reading it would see."""
    wanted = {kind: _stems(kind) for kind in kinds}
    lists: dict[str, list[str]] = {kind: [] for kind in kinds}
    current: str | None = None
    all_lines = answer.splitlines()
    for number, raw in enumerate(all_lines):
        line = raw.strip()
        following = all_lines[number + 1].strip() if number + 1 < len(all_lines) else ""
        if not line or (line.startswith("|") and re.fullmatch(r"\|?[\s:|-]+\|?", following) and "-" in following):
            continue  # blank, or a table's header row (the next line is its |---| rule)
        label, _, rest = line.lstrip("-*+• ").partition(":")
        kind = _kind_of(label, wanted) if rest or line.startswith("#") else None
        if kind is not None and rest.strip():
            lists[kind] += split_names(rest, known)
            current = None
            continue
        heading = _kind_of(line.strip("#*_: "), wanted) if line.startswith(("#", "**")) or line.endswith(":") else None
        if heading is not None:
            current = heading
            continue
        if current is not None and re.match(r"^([-*+•]|\d+[.)]|\|)", line):
            cell = line.strip("|").split("|")[0] if line.startswith("|") else re.sub(r"^([-*+•]|\d+[.)])\s*", "", line)
            if set(cell.strip()) <= set("-: "):
                continue
            lists[current] += split_names(cell, known)
        elif line.startswith("#"):
            current = None
    return {kind: list(dict.fromkeys(n for n in names if n)) for kind, names in lists.items()}


def split_names(text: str, known: tuple[str, ...] = ()) -> list[str]:
    """`A, B and C / D (Ochang, Korea)` -> A, B, C, D: separators outside parentheses, remarks dropped
    before the words that join names are looked for; `known` names stay whole."""
    kept: dict[str, str] = {}

    def hold(match: re.Match[str]) -> str:  # the answer's own spelling, behind a token no separator splits
        token = f"\x00{len(kept)}\x00"
        kept[token] = match.group(0)
        return token

    for name in sorted({k.strip() for k in known if k.strip()}, key=len, reverse=True):
        text = re.sub(re.escape(name), hold, text, flags=re.IGNORECASE)
    depth, parts, current = 0, [], ""
    for char in text:
        if char in "([":
            depth += 1
        elif char in ")]":
            depth = max(0, depth - 1)
        if depth == 0 and char in ",;":
            parts.append(current)
            current = ""
        else:
            current += char
    parts.append(current)
    names = []
    for part in parts:
        part = re.sub(r"\([^)]*\)|\[[^\]]*\]", "", part)
        for piece in re.split(r"\s+/\s+|\s+and\s+|\s+&\s+", part):
            name = piece.strip(" .*_`\"'")
            name = re.split(r"\s+[-–—]\s+", name)[0].strip()
            for token, whole in kept.items():
                name = name.replace(token, whole)
            if name:
                names.append(name)
    return names


def _stems(kind: str) -> set[str]:
    return {_stem(w) for w in re.findall(r"\w+", kind.lower())}


def _stem(word: str) -> str:
    for suffix in ("ies", "es", "s"):
        if word.endswith(suffix) and len(word) > len(suffix) + 2:
            return word[: -len(suffix)] + ("y" if suffix == "ies" else "")
    return word


def _kind_of(label: str, wanted: dict[str, set[str]]) -> str | None:
    words = {_stem(w) for w in re.findall(r"\w+", label.lower())}
    if not words or len(words) > 6:
        return None
    return next((kind for kind, stems in wanted.items() if stems and stems <= words), None)
