"""Company mapping's answer layout, read in code: the "Search Results" section, one line per object kind,
truncated to the quantities asked for BEFORE the judge sees it (the agent is told it must not
over-deliver: surplus names are cut in its own order, and the report shows what was cut).

    ## Search Results
    Companies: Corvid Robotics, Lumen Logistics, ...
    Teams: Corvid Robotics Perception Team, ...

Lines may be bulleted, numbered or bold, may say "Search Object 1 (companies): ...", and may separate names
with commas, semicolons or the CJK comma. A line whose label names no requested kind is matched by its
position ("Search Object 2" is the second kind asked for).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

# the heading is a line of its own ("## Search Results", "**Search Results:**"), not the words in a sentence
_HEADING = re.compile(r"^\s*(?:#{1,6}\s*)?[*_]*\s*search\s+results\s*[*_]*\s*[:：]?\s*[*_]*\s*$", re.IGNORECASE)
_LINE = re.compile(r"^\s*(?:[-*+•]|\d+[.)])?\s*(?P<label>[^:：]{1,80}?)\s*[:：]\s*(?P<items>.+?)\s*$")
_SPLIT = re.compile(r"\s*[,;，、；]\s*")
_OBJECT_NUMBER = re.compile(r"search\s+object\s+(\d+)", re.IGNORECASE)


def _stem(word: str) -> str:
    word = word.lower().strip()
    for suffix in ("ies", "es", "s"):
        if word.endswith(suffix) and len(word) > len(suffix) + 2:
            return word[: -len(suffix)] + ("y" if suffix == "ies" else "")
    return word


def _clean(label: str) -> str:
    return re.sub(r"[*_`#]", "", label).strip()


@dataclass
class Extracted:
    """The lists found in an answer, and whether its layout was followed."""

    lists: dict[str, list[str]] = field(default_factory=dict)
    found_section: bool = False


def extract_results(answer: str, kinds: list[str]) -> Extracted:
    lines = answer.splitlines()
    starts = [i for i, line in enumerate(lines) if _HEADING.search(line)]
    if not starts:
        return Extracted()
    extracted = Extracted(found_section=True)
    stems = {kind: {_stem(w) for w in re.findall(r"\w+", kind)} for kind in kinds}
    for line in lines[starts[-1] + 1 :]:
        match = _LINE.match(_clean(line))
        if match is None:
            continue
        label = match.group("label")
        label_stems = {_stem(w) for w in re.findall(r"\w+", label)}
        kind = next((k for k in kinds if stems[k] and stems[k] <= label_stems), None)
        number = _OBJECT_NUMBER.search(label)
        if kind is None and number is not None and 1 <= int(number.group(1)) <= len(kinds):
            kind = kinds[int(number.group(1)) - 1]
        if kind is None or kind in extracted.lists:
            continue
        names = [re.sub(r"^\W+|[\s.]+$", "", n).strip() for n in _SPLIT.split(match.group("items"))]
        extracted.lists[kind] = [n for n in names if n]
    return extracted


def truncate(
    lists: dict[str, list[str]], quantities: dict[str, int]
) -> tuple[dict[str, list[str]], dict[str, list[str]]]:
    """(what the judge sees, what was cut): each kind's list cut to its quantity, in the agent's order."""
    kept = {kind: lists.get(kind, [])[:quantity] for kind, quantity in quantities.items()}
    cut = {kind: lists[kind][quantity:] for kind, quantity in quantities.items() if len(lists.get(kind, [])) > quantity}
    return kept, cut
