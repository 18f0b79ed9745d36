"""A company-mapping answer read without a model: the names it recommends for each kind asked for, whatever
its layout, and the rule that makes one entry one name.

Two users. The reference judge reads whole answers with `read_lists`. Every reading, a judge's included,
goes through `split_entry` before the cut (mapping.settle), so "A/B/C", "A、B" or "A or B" never passes as
one name and escapes the quantity.

Layouts read (tests/test_recruitment.py tries each on real tasks): a "Search Results" section or none;
one line per kind ("Companies: A, B, C", bold or bulleted labels too); a heading, a bold line or a "Kind:"
line per kind followed by bullets, numbered items, plain lines or a Markdown table; tables with a header
row (a name column found by its header, a kind column if there is one: `| Kind | Name |`); bullets under a
single kind's results with no label at all; prose. Remarks are dropped before names are split: a
parenthesis ("LG Energy Solution (Ochang, Korea)"), a dash or colon remark ("**SK On** - Seosan, pouch
cells"), a bullet nested under an item. Where the answer has a results section, only that section counts
(names the reasoning mentions, or rules out, are not recommendations).

The splitting rule, one entry into names:
- a name the judge knows (the expert's) is never split;
- every separator in SEPARATORS (list punctuation of several scripts, middle dots and bullets), a markup
  line break (`<br>`), an invisible separator (by Unicode category: a zero-width space, a line separator,
  a newline or tab), " or ", " vs. ", " versus ", " + " and " / " always split (outside parentheses); a
  segment that is only a legal suffix ("Co., Ltd.", "Inc.") stays with its name;
- two names the judge knows with only spaces between them are two names;
- "/" without spaces splits, except inside a token such as "S/4HANA", "I/O" or "AC/DC" (a side of one
  character or led by a digit, or both sides of at most two);
- "&" without spaces never splits ("AT&T", "R&D"); " & " and " and " split, except one joiner between two
  one-word names ("Rohde & Schwarz", "Johnson & Johnson") and a name's own "of X and Y" ("Institute of
  Science and Technology"); the last " and " of a comma list ("A, B and C") always splits.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

# The separators between names, kept in one place. Single characters that always split (outside
# parentheses): list punctuation of several scripts, and the dots and bullets a list may be written with.
SEPARATORS = ",;|、；，·•‧∙⋅・‣◦▪●◆■★"
# Words between two names that always split: "A vs. B", "A versus B", "A or B", "A + B".
_WORD_SEPARATORS = re.compile(r"\s+(?:or|vs\.?|versus|v\.)\s+|\s+\+\s+", re.IGNORECASE)
_BREAKS = re.compile(r"<\s*/?\s*(?:br|p|li|div|tr|td)\b[^>]*>|\\n", re.IGNORECASE)  # markup line breaks
# By Unicode category: line and paragraph separators (Zl, Zp) and controls (Cc: newlines, tabs) split; format
# characters (Cf) split too (a zero-width space between two names is a separator the eye does not see), but
# for those that only shape a word, removed; other spaces (Zs: no-break, ideographic) are spaces.
_SHAPING = frozenset("\u00ad\u200c\u200d\u200e\u200f\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069\ufe0f")


def separated(text: str) -> str:
    """`text` with every separator a person or a model may put between names written as ", ": markup line
    breaks, invisible separators (by Unicode category) and SEPARATORS; other spaces as plain spaces."""
    text = _BREAKS.sub(", ", text)
    out = []
    for char in text:
        if char in _SHAPING:
            continue
        category = unicodedata.category(char)
        if char in SEPARATORS or category in ("Zl", "Zp", "Cf") or (category == "Cc" and char != " "):
            out.append(", ")
        elif category == "Zs":
            out.append(" ")
        else:
            out.append(char)
    return "".join(out)


_URL = re.compile(r"https?://[^\s)\]>\"']+|\bwww\.[^\s)\]>\"']+")
_LINK = re.compile(r"\[([^\]]+)\]\([^)]*\)")
_HOLD = re.compile(r"\ue000(\d+)\ue001")
_SUFFIX = re.compile(
    r"(co|ltd|inc|llc|gmbh|ag|kg|plc|corp|pte|s\.?a|n\.?v|b\.?v|k\.?k|co\.?,? ltd|pte\.? ltd)\.?", re.IGNORECASE
)
_ITEM = re.compile(r"^(\s*)(?:[-*+•▪◦‣]|\d{1,3}[.)]|\(\d{1,3}\)|[a-zA-Z][.)])\s+(.*)$")
_RANK = re.compile(r"^(#?\d{1,3}[.):]?|rank\s*\d+[.):]?|no\.?\s*\d+[.):]?)\s+", re.IGNORECASE)
# fmt: off
_NOT_NAMES = {
    "n/a", "na", "none", "tbd", "note", "notes", "why", "reason", "reasons", "rationale", "source", "sources",
    "summary", "comment", "comments", "etc", "other", "others"
}
# fmt: on
_RESULTS = re.compile(r"\b(search results?|results?|final (list|answer|map)|recommendations?|shortlist)\b", re.I)
# Words that open a sentence but never a name, dropped from the front of a capitalised run in prose.
# fmt: off
_OPENERS = {
    "i", "i'd", "i'm", "we", "we'd", "my", "our", "the", "a", "an", "for", "then", "also", "and", "or", "these",
    "this", "those", "they", "their", "it", "its", "finally", "first", "second", "third", "next", "start", "both",
    "in", "at", "on", "from", "with", "as", "if", "to", "of", "by", "after", "before", "here", "there", "look",
    "consider", "source", "target", "try", "add", "plus", "beyond", "besides", "lastly", "last", "other", "others",
    "another", "each", "all", "most", "some", "many", "few", "search", "results", "result", "companies", "company",
    "teams", "team", "note", "why", "overall"
}
# fmt: on
_CONNECTORS = {"of", "and", "&", "de", "del", "da", "do", "dos", "la", "le", "für", "for", "the", "y", "e", "und"}
# Kind words a reader may meet for a kind asked for under another name.
_SYNONYMS = {
    "company": ({"firm"}, {"employer"}, {"organisation"}, {"organization"}),
    "university": ({"school"}, {"college"}, {"institution"}, {"institute"}),
    "school": ({"university"}, {"college"}, {"institution"}),
    "lab": ({"laboratory"}, {"laboratorie"}, {"research", "group"}),
    "team": ({"group"}, {"department"}, {"unit"}),
}
_NAME_HEADERS = re.compile(
    r"\b(name|names|organi[sz]ations?|entity|entities|employers?|firms?|recommendations?|targets?|sources?|"
    r"companies|company|teams?|schools?|universit(y|ies)|labs?|laborator(y|ies)|institutions?)\b",
    re.IGNORECASE,
)
_KIND_HEADERS = re.compile(r"^(kind|type|category|object|object kind|what)$", re.IGNORECASE)
_RANK_HEADERS = re.compile(r"^(#|no\.?|rank|order|priority|n)?$", re.IGNORECASE)


def normalized(text: str) -> str:
    """Case, accents' composition, markup and spacing do not decide a match."""
    text = unicodedata.normalize("NFKC", text).casefold()
    text = re.sub(r"[*_`#>|]+", " ", text)
    return re.sub(r"\s+", " ", text).strip()


# ------------------------------------------------------------------------------------------ one entry


def unmarked(text: str) -> str:
    """Markdown links to their text, URLs and emphasis markup removed."""
    text = _LINK.sub(r"\1", text)
    text = _URL.sub(" ", text)
    return re.sub(r"\*\*|__|`|(?<!\w)[*_](?=\w)|(?<=\w)[*_](?!\w)", "", text)


def without_remarks(text: str) -> str:
    """Parenthesised remarks removed (nested ones too), whatever they hold."""
    previous = None
    while previous != text:
        previous = text
        text = re.sub(r"\([^()]*\)|\[[^\[\]]*\]|（[^（）]*）", " ", text)
    return re.sub(r"[()\[\]（）]", " ", text)


def _hold(text: str, known: Iterable[str], kept: list[str]) -> str:
    """Known names behind tokens no separator splits, longest first; `kept` gets the answer's spelling."""

    def token(match: re.Match[str]) -> str:
        kept.append(match.group(0))
        return f"\ue000{len(kept) - 1}\ue001"

    variants = {variant for k in known if k for variant in (k.strip(), " ".join(without_remarks(k).split()))}
    for name in sorted((v for v in variants if v), key=len, reverse=True):
        pattern = r"(?<!\w)" + re.escape(name).replace(r"\ ", r"\s+") + r"(?!\w)"
        text = re.sub(pattern, token, text, flags=re.IGNORECASE)
    return text


def _restore(text: str, kept: list[str]) -> str:
    return _HOLD.sub(lambda m: kept[int(m.group(1))], text)


def _top_level(text: str, separators: str) -> list[str]:
    """`text` split on single-character separators outside parentheses and brackets."""
    depth, parts, current = 0, [], ""
    for char in text:
        if char in "([（":
            depth += 1
        elif char in ")]）":
            depth = max(0, depth - 1)
        if depth == 0 and char in separators:
            parts.append(current)
            current = ""
        else:
            current += char
    parts.append(current)
    return parts


def _with_suffixes(parts: list[str]) -> list[str]:
    """A segment that is only a legal suffix ("Ltd.", "Inc") goes back onto the name before it."""
    merged: list[str] = []
    for part in parts:
        if merged and _SUFFIX.fullmatch(part.strip()):
            merged[-1] = f"{merged[-1]},{part}"
        else:
            merged.append(part)
    return merged


def _drop_remark(text: str) -> str:
    """The name before a dash or colon remark: "SK On - Seosan plant" -> "SK On"."""
    head = re.split(r"\s+[-–—]+\s+|\s*[–—]+\s*|:\s+|\s+-$", text, maxsplit=1)[0]
    return head if head.strip() else text


def _slashes(piece: str) -> list[str]:
    """Split on "/" except inside a token such as S/4HANA, I/O or AC/DC."""
    parts = [p for p in re.split(r"\s+/\s*|\s*/\s+", piece)]
    out = []
    for part in parts:
        current, index = "", 0
        while index < len(part):
            char = part[index]
            if char == "/":
                left = re.search(r"(\S*)$", current).group(1)  # type: ignore[union-attr]
                right = re.match(r"[^\s/]*", part[index + 1 :]).group(0)  # type: ignore[union-attr]
                token = len(left) <= 1 or len(right) <= 1 or right[:1].isdigit() or (len(left) <= 2 and len(right) <= 2)
                if not token:
                    out.append(current)
                    current = ""
                    index += 1
                    continue
            current += char
            index += 1
        out.append(current)
    return out


def _one_word(text: str) -> bool:
    return len(text.split()) == 1


def _joined(piece: str, list_tail: bool) -> list[str]:
    """Split on " and " and " & " unless they are part of one name (see the module's rule)."""
    if list_tail and (last := re.search(r".*\s(and)\s", piece, flags=re.IGNORECASE | re.DOTALL)):
        head, tail = piece[: last.start(1) - 1], piece[last.end(1) + 1 :]
        return [*_joined(head, False), *_joined(tail, False)]
    parts = re.split(r"\s+(and|&)\s+", piece, flags=re.IGNORECASE)
    names = [part.strip() for part in parts[0::2]]
    if len(names) == 1:
        return [piece]
    single = [_one_word(name) and not _HOLD.search(name) for name in names]
    joined: list[str] = [names[0]]
    for number in range(1, len(names)):
        run = number - 1 > 0 and single[number - 2]  # the word before the pair is one word too: a chain
        after = number + 1 < len(names) and single[number + 1]
        pair = single[number - 1] and single[number] and not run and not after
        of_phrase = single[number] and not _HOLD.search(names[number - 1]) and re.search(r"\bof\b", names[number - 1])
        if pair or of_phrase:
            joined[-1] = f"{joined[-1]} {parts[2 * number - 1]} {names[number]}"
        else:
            joined.append(names[number])
    return joined


def _clean(name: str) -> str:
    name = re.sub(r"\s+", " ", name).strip(" \t.,;:!?*_`\"'“”‘’«»-–—>")
    name = _RANK.sub("", name)
    return name.strip(" \t.,;:!?*_`\"'“”‘’«»-–—")


def split_entry(text: str, known: Iterable[str] = (), list_tail: bool = False) -> list[str]:
    """One entry (a bullet, a cell, a name a judge listed) as the names it holds, remarks dropped, by the
    module's splitting rule; `known` names stay whole. `list_tail`: the entry ends a comma list, so its
    " and " joins two names of that list."""
    kept: list[str] = []
    text = _hold(separated(unmarked(text)), known, kept)
    # two names the judge knows with nothing but spaces (or a separator) between them are two names
    text = re.sub(r"(\ue001)[\s,]*(?=\ue000)", r"\1, ", text)
    text = _drop_remark(without_remarks(text))
    segments = _with_suffixes(_top_level(text, SEPARATORS))
    names = []
    for number, segment in enumerate(segments):
        segment = re.sub(r"^\s*(and|or|&)\s+", "", segment, flags=re.IGNORECASE)
        tail = list_tail or (len(segments) > 1 and number == len(segments) - 1)
        for piece in _WORD_SEPARATORS.split(segment):
            for part in _slashes(piece):
                for name in _joined(part, tail):
                    name = _clean(_restore(name, kept))
                    if re.search(r"\w", name):
                        names.append(name)
    return names


# ------------------------------------------------------------------------------------------ kinds


def _stem(word: str) -> str:
    for suffix in ("ies", "es", "s"):
        if word.endswith(suffix) and len(word) > len(suffix) + 2:
            return word[: -len(suffix)] + ("y" if suffix == "ies" else "")
    return word


def kind_label(kind: str) -> re.Pattern[str]:
    """The kind's name as an answer writes it, singular or plural, in normalised text ("equipment maker(s)",
    "compan(y|ies)", "lab(s)")."""
    stems = [_stem(w) for w in re.findall(r"\w+", normalized(kind))]
    return re.compile(r"(?<!\w)" + r"\s+".join(re.escape(s if len(s) <= 5 else s[:-1]) + r"\w*" for s in stems))


def _stems(text: str) -> set[str]:
    return {_stem(w) for w in re.findall(r"\w+", text.lower())}


# fmt: off
_QUALIFIERS = {
    "target", "top", "recommended", "recommend", "recommendation", "key", "candidate", "source", "sourcing",
    "relevant", "best", "other", "list", "of", "the", "to", "from", "for", "potential", "suggested", "primary",
    "secondary", "additional", "main", "priority", "shortlisted", "asked", "found", "my", "our", "proposed", "a",
    "an", "search", "result", "number", "n", "name", "in", "per", "kind"
}
# fmt: on


def _kind_words(kind: str) -> list[set[str]]:
    """The word sets that name `kind`: its own stems, then each synonym of its head word."""
    stems = _stems(kind)
    head = _stem(re.findall(r"\w+", kind.lower())[-1]) if re.search(r"\w", kind) else ""
    return [stems, *({*(stems - {head}), *synonym} for synonym in _SYNONYMS.get(head, ()))]


def kind_of(label: str, kinds: Sequence[str]) -> str | None:
    """Which asked-for kind a label names ("Target companies (3)", "Teams:", "Company"), if any: the
    label must be the kind's words (or a synonym's) and qualifiers ("target", "top", ...) and nothing else, so
    that a name ("Corvid Robotics Perception Team: ...", "Huangpu University") is never taken for a label."""
    label = re.sub(r"\(.*?\)|\d+", " ", unmarked(label))
    words = _stems(label) - _QUALIFIERS
    if not words or len(words) > 6:
        return None
    matches = []
    for kind in kinds:
        for number, wanted in enumerate(_kind_words(kind)):
            if wanted and wanted == words:
                matches.append((number, -len(wanted), kind))
                break
    if not matches:
        return None
    matches.sort()
    return matches[0][2]


def _guess_kind(name: str, kinds: Sequence[str], known: Mapping[str, Sequence[str]]) -> str:
    """The kind of a name the answer did not file under any kind: the expert's list that has it, else the
    kind its head word names ("... Team", "... University": the last such word), else the expert's list
    with a name inside it, else the first kind asked."""
    key = normalized(name)
    for kind in kinds:
        if any(normalized(k) == key for k in known.get(kind, ())):
            return kind
    words = [_stem(w) for w in re.findall(r"\w+", name.lower())]
    best, where = None, -1
    for kind in kinds:
        for wanted in _kind_words(kind):
            positions = [i for i, w in enumerate(words) if w in wanted]
            if positions and max(positions) > where:
                best, where = kind, max(positions)
    if best is not None:
        return best
    for kind in kinds:
        if any(normalized(k) in key or key in normalized(k) for k in known.get(kind, ())):
            return kind
    return kinds[0]


# ------------------------------------------------------------------------------------------ the layouts


@dataclass
class _Entry:
    kind: str | None
    text: str
    tier: int  # 0: inside the results section; 1: under a kind the answer declared; 2: a list item; 3: prose
    order: int
    list_tail: bool = False
    split: bool = True
    item: bool = False  # one bullet, numbered item or cell: its first name is the item's, the rest must look like names


@dataclass
class _Table:
    name_column: int
    kind_column: int | None
    kind: str | None


def _heading(line: str, kinds: Sequence[str]) -> tuple[int, str] | None:
    """(level, text) for a Markdown heading, a bold line alone or a "Label:" line alone; and for a bullet that
    is only a kind's or the results' label ("- **Companies**", "- Teams:"), never for a bullet that is a name
    ("- **SK On**"). None otherwise."""
    if match := re.match(r"^(#{1,6})\s+(.*?)\s*#*$", line):
        return len(match.group(1)), match.group(2)
    body = re.sub(r"^(?:[-*+•]\s+)", "", line)
    bullet = body != line
    bold = re.fullmatch(r"(\*\*|__)(.+?)\1\s*:?\s*", body) or re.fullmatch(r"(\*\*|__)(.+?):\1\s*", body)
    if bold:
        text, level = bold.group(2).strip(" :"), 7
    elif re.fullmatch(r"[^:|]{1,60}:", body) and len(body.split()) <= 6:
        text, level = body.rstrip(":"), 8
    elif bullet and len(body.split()) <= 4:
        text, level = body, 9
    else:
        return None
    if bullet and kind_of(text, kinds) is None and not _RESULTS.search(text):
        return None
    return (9 if bullet else level), text


def _label(line: str, kinds: Sequence[str]) -> tuple[str, str] | None:
    """(kind, rest) for a line that files names under a kind: "Companies: A, B", "- **Teams:** X"."""
    body = unmarked(re.sub(r"^(?:[-*+•]\s+)", "", line))
    for separator in (":", " — ", " – ", " - "):
        label, found, rest = body.partition(separator)
        if found and rest.strip() and len(label.split()) <= 6:
            kind = kind_of(label, kinds)
            if kind is not None:
                return kind, rest
    return None


def _cells(line: str) -> list[str]:
    return [cell.strip() for cell in line.strip().strip("|").split("|")]


def _is_rule(line: str) -> bool:
    return bool(re.fullmatch(r"\|?\s*:?-{2,}:?\s*(\|\s*:?-{2,}:?\s*)*\|?", line.strip()))


def _table(header: list[str], kinds: Sequence[str]) -> _Table:
    cleaned = [unmarked(cell).strip().lower() for cell in header]
    kind_column = next((i for i, c in enumerate(cleaned) if _KIND_HEADERS.match(c)), None)
    candidates = [i for i in range(len(cleaned)) if i != kind_column]
    name_column = next(
        (i for i in candidates if kind_of(cleaned[i], kinds) is not None or _NAME_HEADERS.search(cleaned[i])),
        next((i for i in candidates if not _RANK_HEADERS.match(cleaned[i])), 0),
    )
    kind = kind_of(cleaned[name_column], kinds) if kind_column is None else None
    return _Table(name_column, kind_column, kind)


def _item_name(body: str) -> tuple[str, bool]:
    """The name part of a list item or cell, and whether it may hold several names: a bold lead followed
    by a remark is the name alone ("**LG Energy Solution** - Ochang, pouch cells")."""
    body = _RANK.sub("", body.strip())
    bold = re.match(r"^(\*\*|__)(.+?)\1(.*)$", body)
    if bold and (not bold.group(3).strip() or re.match(r"^\s*([-–—:(]|is\b|was\b|has\b|,\s*[a-z])", bold.group(3))):
        return bold.group(2), False
    return body, True


def _prose_names(line: str, known: Iterable[str]) -> list[str]:
    """Names in a sentence: runs of capitalised words (with "of", "and", "&" ... inside), not the words
    that open a sentence, not a place after "in"."""
    kept: list[str] = []
    text = without_remarks(_hold(unmarked(line), known, kept))
    names: list[str] = []
    for clause in re.split(r"[,;.!?:()\"“”]|\s[-–—]\s|\s+(?:and|or)\s+(?=[a-z])", text):
        tokens = clause.split()
        run: list[str] = []
        previous = ""
        for token in [*tokens, ""]:
            word = token.strip("'’")
            capital = bool(word) and (
                word[0].isupper() or word[0].isdigit() or _HOLD.search(word) is not None
                or (not word[0].isalpha() and word[0].isalnum())
                or (len(word) > 1 and word[0].islower() and word[1].isupper())
            )  # fmt: skip
            if capital or (run and word.lower() in _CONNECTORS):
                run.append(word)
                continue
            while run and (run[-1].lower() in _CONNECTORS):
                run.pop()
            while run and run[0].lower() in _OPENERS:
                run.pop(0)
            if run and previous.lower() not in {"in", "near", "across", "around"}:
                phrase = " ".join(run)
                names += [_restore(n, kept) for n in _joined(phrase, False)]
            previous = run[-1] if run else word
            run = []
    return [name for name in (_clean(n) for n in names) if name]


def _titled(name: str, known: Iterable[str]) -> bool:
    """Every word a capital, a number or a joining word: how a name looks, not a remark."""
    if any(normalized(k) == normalized(name) for k in known):
        return True
    words = [w for w in re.findall(r"[\w'&.-]+", name) if w.casefold() not in _CONNECTORS]
    return bool(words) and all(w[:1].isupper() or w[:1].isdigit() or any(c.isupper() for c in w[1:]) for w in words)


def _name_like(name: str, known: Iterable[str]) -> bool:
    key = normalized(name)
    if not re.search(r"\w", name) or key in _NOT_NAMES:
        return False
    if any(normalized(k) == key for k in known):
        return True
    words = name.split()
    if len(words) > 10:
        return False
    first = next((c for c in name if c.isalpha() or c.isdigit()), "")
    caseless = first.isalpha() and not first.isupper() and not first.islower()
    return first.isupper() or first.isdigit() or caseless or any(c.isupper() for c in words[0][1:])


def read_lists(
    answer: str, kinds: Sequence[str], known: Mapping[str, Sequence[str]] | Sequence[str] | None = None
) -> dict[str, list[str]]:
    """The names an answer recommends per kind, in its order, one name per entry (the module's layouts and
    splitting rule). `known`: the expert's names per kind, never split and filed under their kind."""
    known = known if isinstance(known, Mapping) else {kinds[0]: tuple(known or ())}
    flat = tuple(name for names in known.values() for name in names)
    single = kinds[0] if len(kinds) == 1 else None
    entries: list[_Entry] = []
    results_level: int | None = None
    kind: str | None = None
    item_indent: int | None = None
    table: _Table | None = None
    lines = answer.splitlines()

    def add(
        text: str, tier: int, entry_kind: str | None, list_tail: bool = False, split: bool = True, item: bool = False
    ) -> None:
        in_results = results_level is not None
        entries.append(_Entry(entry_kind, text, 0 if in_results else tier, len(entries), list_tail, split, item))

    for number, raw in enumerate(lines):
        line = raw.rstrip()
        stripped = line.strip()
        if not stripped or stripped.startswith("```"):
            table = None
            continue
        following = lines[number + 1] if number + 1 < len(lines) else ""
        if stripped.startswith("|") or (stripped.count("|") >= 2 and _is_rule(following)):
            if _is_rule(stripped):
                continue
            cells = _cells(stripped)
            if _is_rule(following):
                table = _table(cells, kinds)
                continue
            current = table or _Table(
                next((i for i, c in enumerate(cells) if not _RANK_HEADERS.match(c)), 0), None, None
            )
            row_kind = current.kind or kind or single
            if current.kind_column is not None and current.kind_column < len(cells):
                row_kind = kind_of(cells[current.kind_column], kinds)
                if row_kind is None:
                    continue  # a row of a kind nobody asked for
            if current.name_column < len(cells):
                text, several = _item_name(cells[current.name_column])
                declared = current.kind is not None or current.kind_column is not None or kind is not None
                add(text, 1 if declared else 2, row_kind, split=several, item=True)
            continue
        table = None
        heading = _heading(stripped, kinds)
        if heading is not None and _label(stripped, kinds) is None:
            level, text = heading
            if _RESULTS.search(text) and kind_of(text, kinds) is None:
                results_level, kind, item_indent = level, single, None
                continue
            if (found := kind_of(text, kinds)) is not None:
                kind, item_indent = found, None
                continue
            if level <= 7 and re.match(r"^(#?\d{1,3}[.):]|rank\s*\d+)\s+", text, flags=re.IGNORECASE):
                name, several = _item_name(text)  # a heading per name: "### 1. LG Energy Solution"
                add(name, 1 if kind is not None else 2, kind, split=several)
                continue
            if results_level is not None and level <= results_level:
                results_level = None
            kind, item_indent = (single if results_level is not None else None), None
            continue
        if (labelled := _label(stripped, kinds)) is not None:
            label_kind, rest = labelled
            segments = _with_suffixes(_top_level(unmarked(rest), ",;|、；，"))
            for position, segment in enumerate(segments):
                tail = len(segments) > 1 and position == len(segments) - 1
                bare = without_remarks(segment).split()
                if len(bare) > 6 and sum(w[:1].islower() for w in bare) > 2:
                    for name in _prose_names(segment, flat):
                        add(name, 1, label_kind, split=False)
                else:
                    add(segment, 1, label_kind, list_tail=tail)
            continue
        if (item := _ITEM.match(line)) is not None:
            indent = len(item.group(1).expandtabs(4))
            if item_indent is None:
                item_indent = indent
            if indent > item_indent:
                continue  # a remark nested under the item before it
            text, several = _item_name(item.group(2))
            add(text, 1 if kind is not None else 2, kind, split=several, item=True)
            continue
        item_indent = None
        words = stripped.split()
        lowercase = sum(w[:1].islower() for w in words)
        if (kind is not None or results_level is not None) and (len(words) <= 8 or lowercase <= len(words) // 4):
            segments = _with_suffixes(_top_level(unmarked(stripped), ",;|、；，"))
            for position, segment in enumerate(segments):
                add(
                    segment,
                    1 if kind is not None else 2,
                    kind,
                    list_tail=len(segments) > 1 and position == len(segments) - 1,
                )
            continue
        for sentence in re.split(r"(?<=[.!?;])\s+", stripped):
            mentioned = [k for k in kinds if kind_label(k).search(normalized(sentence))]
            sentence_kind = mentioned[0] if len(mentioned) == 1 else kind  # "For the labs, I would ..."
            for name in _prose_names(sentence, flat):
                add(name, 3, sentence_kind, split=False)

    lists: dict[str, list[str]] = {k: [] for k in kinds}
    best: dict[str, int] = {}
    readings: list[tuple[str, int, int, str]] = []
    for entry in entries:
        names = split_entry(entry.text, flat, entry.list_tail) if entry.split else [_clean(entry.text)]
        for number, name in enumerate(names):
            if not _name_like(name, flat) or (entry.item and number and not _titled(name, flat)):
                continue  # "LG Energy Solution, Korea's largest": a remark after a comma, not a second name
            name_kind = entry.kind or _guess_kind(name, kinds, known)
            readings.append((name_kind, entry.tier, entry.order, name))
            best[name_kind] = min(best.get(name_kind, 9), entry.tier)
    for name_kind, tier, _, name in sorted(readings, key=lambda r: r[2]):
        if tier == best[name_kind] and name_kind in lists:
            lists[name_kind].append(name)
    return {k: list(dict.fromkeys(names)) for k, names in lists.items()}
