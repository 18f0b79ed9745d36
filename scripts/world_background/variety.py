"""How varied a set of pages reads: the sentences and the sentence shapes they repeat, and how long they are.

Used by tests/test_world_background.py (which holds the background to caps) and printed by
`python scripts/generate_world_background.py --variety`. A sentence is a run of five or more words between
sentence ends, markup removed; a shape is five words in a row where names and numbers are masked (a
capitalised word becomes X, a number 0), so "joined Tiffinly in 2019 as" and "joined Yatrik in 2021 as"
are one shape. Headings (lines starting with #, or wholly in bold) are neither, and a short label that opens a
line ("Stack:", "Former members:") is left out.
"""

from __future__ import annotations

import re
import statistics
from collections import Counter
from dataclasses import dataclass

_LINK = re.compile(r"\[([^\]]*)\]\([^)]*\)")
_MARKUP = re.compile(r"[*_|`>]+")
_LABEL = re.compile(r"^([^:.!?]{1,40}):\s+")
_SENTENCE_END = re.compile(r"(?<=[.!?])\s+")
_WORD = re.compile(r"[^\W_]+(?:['’-][^\W_]+)*")
SENTENCE_WORDS = 5
SHAPE_WORDS = 5


def lines_of(text: str) -> list[str]:
    out = []
    for line in text.splitlines():
        line = line.strip()
        if not line or line.startswith("#") or set(line) <= set("|-: "):
            continue
        if line.startswith("**") and line.endswith("**") and line.count("**") == 2:  # a bold line is a heading
            continue
        label = _LABEL.match(line)
        if label and len(label.group(1).split()) <= 5:  # "Stack: ...", "Former members: ...": a label, then data
            line = line[label.end() :]
        out.append(" ".join(_MARKUP.sub(" ", _LINK.sub(r"\1", line.lstrip("-").strip())).split()))
    return out


def sentences(text: str) -> set[str]:
    found = set()
    for line in lines_of(text):
        for sentence in _SENTENCE_END.split(line):
            if len(_WORD.findall(sentence)) >= SENTENCE_WORDS:
                found.add(sentence.strip())
    return found


UNITS = frozenset({"yr", "yrs", "mo", "mos"})  # durations are a date format, not prose


def _mask(word: str) -> str:
    if word[0].isdigit() or word in UNITS:
        return "0"
    if word[0].isupper() or not word.isascii():
        return "X"
    return word


# Small words inside names ("Universidad del Salitre", "Ingeniería en Sistemas") are part of the name.
PARTICLES = frozenset(
    {
        "de",
        "del",
        "da",
        "do",
        "dos",
        "das",
        "en",
        "em",
        "la",
        "las",
        "los",
        "y",
        "e",
        "of",
        "the",
        "und",
        "du",
        "des",
        "al",
        "el",
        "bin",
        "binti",
    }
)


def _masked(words: list[str]) -> list[str]:
    masked = [_mask(w) for w in words]
    for i, word in enumerate(words):
        if word in PARTICLES and 0 < i < len(words) - 1:
            before = next((m for m in reversed(masked[:i]) if m not in PARTICLES), "")
            after = next((_mask(w) for w in words[i + 1 :] if w not in PARTICLES), "")
            if before == "X" and after == "X":
                masked[i] = "X"
    return masked


def shapes(text: str) -> set[tuple[str, ...]]:
    """Masked five-word runs with at least two plain words (a run of names alone is no shape)."""
    found = set()
    for line in lines_of(text):
        for sentence in _SENTENCE_END.split(line):
            words = _masked(_WORD.findall(sentence))
            for i in range(len(words) - SHAPE_WORDS + 1):
                gram = tuple(words[i : i + SHAPE_WORDS])
                if sum(w not in ("X", "0") for w in gram) >= 2:
                    found.add(gram)
    return found


@dataclass
class Variety:
    pages: int
    sentence_share: float  # the most repeated sentence: share of pages that hold it
    top_sentences: list[tuple[str, int]]
    shape_share: float  # the most repeated shape: share of pages that hold it
    top_shapes: list[tuple[str, int]]
    shapes_over: dict[float, int]  # share -> how many shapes are on more than that share of pages
    words_median: float
    words_p10: float
    words_p90: float
    sections: Counter[int]  # number of ## sections -> pages


def measure(texts: list[str]) -> Variety:
    sentence_pages: Counter[str] = Counter()
    shape_pages: Counter[tuple[str, ...]] = Counter()
    lengths, sections = [], Counter()
    for text in texts:
        sentence_pages.update(sentences(text))
        shape_pages.update(shapes(text))
        lengths.append(len(_WORD.findall(text)))
        sections[sum(1 for line in text.splitlines() if line.startswith("#"))] += 1
    n = max(1, len(texts))
    top_s = sentence_pages.most_common(8)
    top_g = shape_pages.most_common(8)
    deciles = statistics.quantiles(lengths, n=10) if len(lengths) > 1 else [0.0] * 9
    return Variety(
        pages=len(texts),
        sentence_share=(top_s[0][1] / n) if top_s else 0.0,
        top_sentences=top_s,
        shape_share=(top_g[0][1] / n) if top_g else 0.0,
        top_shapes=[(" ".join(g), c) for g, c in top_g],
        shapes_over={share: sum(1 for c in shape_pages.values() if c / n > share) for share in (0.01, 0.02, 0.05)},
        words_median=statistics.median(lengths) if lengths else 0.0,
        words_p10=deciles[0],
        words_p90=deciles[-1],
        sections=sections,
    )
