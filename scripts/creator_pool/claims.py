"""What a creator's prose says about their audience, held against the numbers their page shows.

A writer states an audience in words ("her followers are mostly women in their thirties", "with a good British
following", "nearly 70 percent of his viewers are in the United States"); the page's tables show the audience
as numbers, written in the YAML or derived from the niche. Nothing else ties the two, so this module reads the
prose for such claims and says which ones the numbers contradict. It is deliberately narrow: it checks only
what a sentence states about the audience as a whole (a majority, a named share, a named country's presence),
and only the quantities a page shows (age buckets, the female share, the top countries). A claim it cannot read
(a region within a country, "people her age") is not checked.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

# The page's age buckets as year ranges (45+ has no upper end).
BUCKETS = {"13-17": (13, 17), "18-24": (18, 24), "25-34": (25, 34), "35-44": (35, 44), "45+": (45, 120)}
MAJORITY_SHARE = 50  # "mostly", "the majority", "most of": at least half
SHARE_SLACK = 5  # "about 70 percent" against the page's 66 %
PRESENT_SHARE = 3  # "a good British following": the country is among the top countries, at this share or more

_UNITS = {"thirteen": 13, "fourteen": 14, "fifteen": 15, "sixteen": 16, "seventeen": 17, "eighteen": 18,
          "nineteen": 19, "ten": 10, "eleven": 11, "twelve": 12}  # fmt: skip
_TENS = {"twenty": 20, "thirty": 30, "forty": 40, "fifty": 50, "sixty": 60, "seventy": 70}
_ONES = {"one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7, "eight": 8, "nine": 9}
_NUMBER = r"(?:\d{1,2}|(?:twenty|thirty|forty|fifty|sixty|seventy)(?:-(?:one|two|three|four|five|six|seven|eight|nine))?|thirteen|fourteen|fifteen|sixteen|seventeen|eighteen|nineteen)"  # noqa: E501
_DECADE = r"(?:teens|twenties|thirties|forties|fifties|sixties|seventies)"
_DECADES = {"teens": 13, "twenties": 20, "thirties": 30, "forties": 40, "fifties": 50, "sixties": 60, "seventies": 70}

# Who the sentence is about: the audience, by any of the names writers give it.
AUDIENCE = re.compile(
    r"\b(?:followers?|following|audiences?|viewers?|viewership|subscribers?|fans|fanbase|readers|watchers|"
    r"(?:who|people|that) (?:watch|follow)|watch(?:es|ing)? (?:along|him|her|them)|(?:is|are) watched)\b",
    re.I,
)
# That it speaks of most of the audience.
MAJORITY = re.compile(
    r"\b(?:mostly|most of|mainly|largely|predominantly|the majority|majority of|the bulk of|the core of|core "
    r"(?:following|audience|viewers)|almost (?:all|entirely|her entire|his entire|their entire)|make up most|"
    r"makes up most)\b",
    re.I,
)
COUNTRIES = {  # words for a country's people, as writers use them -> the country as pages name it
    "United States": r"United States|the US|US|U\.S\.|America|Americans?",
    "United Kingdom": r"United Kingdom|the UK|UK|Britain|British|Brits?|England|English|Scotland|Scottish|Wales|Welsh",
    "Canada": r"Canada|Canadians?",
    "Australia": r"Australia|Australians?|Aussies?",
    "New Zealand": r"New Zealand|Kiwis?|New Zealanders?",
    "Ireland": r"Ireland|Irish",
    "India": r"India|Indians?",
    "Nigeria": r"Nigeria|Nigerians?",
    "Brazil": r"Brazil|Brazilians?",
    "Mexico": r"Mexico|Mexicans?",
    "Germany": r"Germany|Germans?",
    "Austria": r"Austria|Austrians?",
    "Switzerland": r"Switzerland|Swiss",
    "France": r"France|French",
    "Belgium": r"Belgium|Belgians?",
    "Spain": r"Spain|Spaniards?|Spanish",
    "Japan": r"Japan|Japanese",
    "South Korea": r"South Korea|Korea|Koreans?",
    "Indonesia": r"Indonesia|Indonesians?",
    "Philippines": r"the Philippines|Philippines|Filipinos?|Filipinas?|Pinoys?",
    "Vietnam": r"Vietnam|Vietnamese",
    "Thailand": r"Thailand|Thai",
    "Turkey": r"Turkey|Türkiye|Turkish|Turks?",
}
_COUNTRY = {name: re.compile(rf"(?<![\w-])(?:{words})(?![\w-])") for name, words in COUNTRIES.items()}
# Language names that are also peoples: "Spanish" in "teaches Spanish" is a language, not an audience.
_LANGUAGE_USE = re.compile(
    r"\b(?:in|speak(?:s|ing)?|teach(?:es|ing)?|learn(?:s|ing)?|subtitles?|translated from|travel) $"
)
LANGUAGES = {"English", "Spanish", "French", "German", "Japanese", "Korean", "Turkish", "Vietnamese", "Thai"}
# A place the audience goes to or talks about is not where it lives: "planning a trip to France".
_DESTINATION = re.compile(r"\b(?:to|visit(?:s|ing)?|about|across|than|little|no|few) $", re.I)

FEMALE = re.compile(r"\b(?:women|woman|female|girls|mums|moms|mothers|ladies|wives|sisters)\b", re.I)
MALE = re.compile(r"\b(?:men|male|boys|dads|fathers|guys|husbands|lads)\b", re.I)
EVEN = re.compile(r"\b(?:evenly|even split|split (?:fairly )?(?:evenly|equally)|half (?:women|men))\b", re.I)
THIRD_WOMEN = re.compile(r"\b(?:about |roughly )?a third (?:of them )?women\b", re.I)
MORE_WOMEN = re.compile(r"\bslightly more women than men\b", re.I)

TEENS = re.compile(
    r"\b(?:teen(?:ager)?s|teens|high[- ]school(?:ers)?|high[- ]school students|secondary[- ]school|junior[- ]high|"
    r"middle[- ]school(?:ers)?|middle and high school(?:ers)?|under[- ](?:18|eighteen)|in prepa|school pupils)\b",
    re.I,
)
TEENS_AND_STUDENTS = re.compile(r"\bteens? and (?:college|university|uni) students\b", re.I)
PERCENT_IN = re.compile(
    r"\b(nearly|almost|about|around|roughly|over|more than|just over|just under|under)?\s*(\d{1,2})\s?(?:percent|%)"
    r"(?P<rest>[^.;,]{0,70}?)\b(?:in|from)\s+(?P<place>(?:the )?[A-Z][\w.]*(?: [A-Z][\w]*)?)"
)
PRESENCE = re.compile(
    r"\b(?:a |an )?(?:good|solid|strong|sizeable|sizable|big|large|loyal|growing|healthy|real|decent|small|"
    r"steady)\s+(?P<peoples>[A-Z][\w]*(?:(?:,| and|, and) [A-Z][\w]*)*)\s+(?:following|audience|fanbase|"
    r"fan base|viewership|readership|contingent)\b"
)


@dataclass(frozen=True)
class Contradiction:
    """A claim of the prose that the page's numbers do not bear out."""

    sentence: str
    claim: str
    shown: str

    def __str__(self) -> str:
        return f"says {self.claim} ({self.sentence.strip()[:120]!r}), the page shows {self.shown}"


def number(word: str) -> int:
    """'45', 'forty-five', 'sixteen' -> int."""
    word = word.lower()
    if word.isdigit():
        return int(word)
    if word in _UNITS:
        return _UNITS[word]
    tens, _, ones = word.partition("-")
    return _TENS[tens] + _ONES.get(ones, 0)


def age_share_at_most(age: dict[str, int], low: int, high: int) -> int:
    """The largest share of the audience that can be aged low..high: every bucket the range touches, whole.
    Buckets cannot say how ages spread inside them, so only a claim that even this cannot meet is contradicted
    ("mostly teenagers" against 32 % aged 13-17; "mostly in their thirties" stands against 25-34 and 35-44)."""
    return sum(age.get(bucket, 0) for bucket, (b_low, b_high) in BUCKETS.items() if low <= b_high and b_low <= high)


def _decade(word: str, part: str | None) -> tuple[int, int]:
    start = _DECADES[word.lower()]
    if start == 13:
        return (13, 19)
    low, high = start, start + 9
    if part:
        part = part.lower()
        low, high = {"early": (start, start + 3), "mid": (start + 3, start + 6), "late": (start + 6, start + 9)}[part]
    return low, high


_DECADE_RANGE = re.compile(
    rf"\bin (?:their|his|her) (?:(early|mid|late)[- ])?({_DECADE})"
    rf"(?:(?:,| and| to| or|, and)\s+(?:(?:early|mid|late)[- ])?(?:(?:their|the) )?({_DECADE}))?",
    re.I,
)
_BARE_DECADES = re.compile(
    rf"\b(?:(early|mid|late)[- ])?({_DECADE})(?:(?: and| to| or)\s+(?:(early|mid|late)[- ])?({_DECADE}))?\b", re.I
)
_SPAN = re.compile(rf"\b(?:aged |between |from |ages )?({_NUMBER})\s?(?:to|-|–|and)\s?({_NUMBER})\b", re.I)
_OVER = re.compile(rf"\b(?:over|above|older than|past) (?:the age of )?({_NUMBER})\b", re.I)
_UNDER = re.compile(rf"\b(?:under|below|younger than) ({_NUMBER})\b", re.I)


def age_range(clause: str) -> tuple[int, int, str] | None:
    """The age range a majority clause names, as (low, high, the words), or None."""
    if m := _DECADE_RANGE.search(clause):
        low, _ = _decade(m[2], m[1])
        _, high = _decade(m[3], None) if m[3] else _decade(m[2], m[1])
        if m[3]:
            last = re.search(rf"(early|mid|late)[- ]{m[3]}", m[0], re.I)
            _, high = _decade(m[3], last[1] if last else None)
        return low, high, m[0]
    if m := TEENS_AND_STUDENTS.search(clause):
        return 13, 24, m[0]
    if m := TEENS.search(clause):
        return 13, 17, m[0]
    if m := _OVER.search(clause):
        return number(m[1]), 120, m[0]
    if (m := _UNDER.search(clause)) and number(m[1]) >= 13:
        return 13, number(m[1]) - 1, m[0]
    for m in _SPAN.finditer(clause):
        low, high = number(m[1]), number(m[2])
        if 13 <= low < high <= 80 and not re.match(r"\s*(?:percent|%|years of|minutes|months|days)", clause[m.end() :]):
            return low, high, m[0]
    if m := re.search(rf"\b(?:in|on) (?:their|the) (?:(early|mid|late)[- ])?({_DECADE})\b", clause, re.I):
        low, high = _decade(m[2], m[1])
        return low, high, m[0]
    return None


def countries_named(text: str) -> list[str]:
    """The countries a piece of text names, as words for a place or its people (not a language being taught)."""
    found = []
    for name, pattern in _COUNTRY.items():
        for m in pattern.finditer(text):
            before = text[max(0, m.start() - 30) : m.start()]
            if _DESTINATION.search(before):
                continue
            if m[0] in LANGUAGES and _LANGUAGE_USE.search(before):
                continue
            found.append(name)
            break
    return found


def _clauses(text: str) -> list[str]:
    """Sentences cut at semicolons and dashes: a clause is where a claim and its subject meet."""
    flat = re.sub(r"\s+", " ", text)
    out = []
    for sentence in re.split(r"(?<=[.!?])\s+(?=[A-Z0-9\"'])", flat):
        out += [part for part in re.split(r";|\s[-–—]\s", sentence) if part.strip()]
    return out


def about_the_audience(clause: str) -> str:
    """The part of a clause that speaks of the audience: from the comma before the first mention of it or of a
    majority (what precedes, the creator's own city or job, is about the creator) to the comma after the majority
    word ("mostly in Spain, with very little reach in Mexico": the rest qualifies)."""
    first = min(m.start() for m in (AUDIENCE.search(clause), MAJORITY.search(clause)) if m)
    start = max((m.end() for m in re.finditer(r",\s", clause[:first])), default=0)
    majority = MAJORITY.search(clause, start)
    end = clause.find(", ", majority.end()) if majority else -1
    return clause[start : end if end > 0 else len(clause)]


def _share(top: dict[str, int], country: str) -> int:
    return top.get(country, 0)


def contradictions(text: str, audience: dict[str, Any], region: str) -> list[Contradiction]:
    """The audience claims of `text` (a creator's prose) that `audience` (the page's age, gender and
    top_countries) contradicts. `region` is the creator's own country, which a sentence may name for the
    creator rather than the audience."""
    age, female, top = audience["age"], audience["gender"]["female"], audience["top_countries"]
    found: list[Contradiction] = []

    flat = re.sub(r"\s+", " ", text)
    for m in PERCENT_IN.finditer(flat):
        countries = countries_named(m["place"])
        if not countries or not AUDIENCE.search(flat[max(0, m.start() - 40) : m.end()]):
            continue
        country, claimed, word = countries[0], int(m[2]), (m[1] or "").lower()
        shown = _share(top, country)
        low, high = claimed - SHARE_SLACK, claimed + SHARE_SLACK
        if word in ("over", "more than", "just over"):
            low, high = claimed, claimed + 2 * SHARE_SLACK
        elif word in ("nearly", "almost", "just under", "under"):
            low, high = claimed - 2 * SHARE_SLACK, claimed
        if not low <= shown <= high:
            found.append(Contradiction(m[0], f"{m[0].strip()}", f"{country} {shown}%"))

    for m in PRESENCE.finditer(flat):
        for country in countries_named(m["peoples"]):
            if _share(top, country) < PRESENT_SHARE:
                found.append(Contradiction(m[0], f"a {country} following", f"{country} {_share(top, country)}%"))

    for clause in _clauses(text):
        if not (AUDIENCE.search(clause) and MAJORITY.search(clause)):
            continue
        about = about_the_audience(clause)
        if ages := age_range(about):
            low, high, words = ages
            share = age_share_at_most(age, low, high)
            if share < MAJORITY_SHARE:
                shown = "45+" if low >= 45 else f"{low}-{high}"
                found.append(Contradiction(clause, f"mostly {words}", f"at most {share}% aged {shown}"))
        if EVEN.search(about):
            if not 38 <= female <= 62:
                found.append(Contradiction(clause, "an even split of women and men", f"{female}% female"))
        elif THIRD_WOMEN.search(about):
            if not 25 <= female <= 42:
                found.append(Contradiction(clause, "about a third women", f"{female}% female"))
        elif MORE_WOMEN.search(about):
            if not 50 <= female <= 62:
                found.append(Contradiction(clause, "slightly more women than men", f"{female}% female"))
        else:
            women, men = FEMALE.search(about), MALE.search(about)
            if women and not men and female < MAJORITY_SHARE:
                found.append(Contradiction(clause, f"mostly {women[0]}", f"{female}% female"))
            if men and not women and female > MAJORITY_SHARE:
                found.append(Contradiction(clause, f"mostly {men[0]}", f"{100 - female}% male"))
        named = countries_named(about)
        if len(named) == 1 and not re.search(r"\babroad|overseas|diaspora|expats?\b", about, re.I):
            country = named[0]
            if _share(top, country) < MAJORITY_SHARE:
                found.append(Contradiction(clause, f"mostly {country}", f"{country} {_share(top, country)}%"))
        elif len(named) > 1:
            together = sum(_share(top, c) for c in named)
            if together < MAJORITY_SHARE:
                found.append(Contradiction(clause, f"mostly in {', '.join(named)}", f"{together}% together"))
    return found
