"""JSON found in free text written by a system under test, read leniently but never by guessing.

Agents are asked for JSON and reply with it inside a code fence, after a sentence of prose, with a
trailing comma, or with Python's quoting. `find_json` tries, in order: the whole reply; each fenced block;
each balanced `[...]`/`{...}` span from left to right; and for each candidate the same text with trailing
commas removed, then read as a Python literal (single quotes, True/False/None). It returns the first value
of the wanted type, or raises `ValueError` saying why nothing could be read. Judges do not use this: their
replies are validated strictly (harness.judge).

Python literals are rewritten to JSON by a small scanner, never by `ast`: the text comes from the system
under test, and `ast.literal_eval` both costs unbounded time on hostile input and, on CPython 3.11, shares
the AST constructor's state across threads (gh-106905) with pytest's main thread.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Iterator
from typing import Any

_FENCE = re.compile(r"```[ \t]*[A-Za-z0-9_-]*[ \t]*\n(.*?)```", re.DOTALL)
_MAX_CHARS = 1_000_000
_CLOSES_NEXT = re.compile(r"\s*[\]}]")


MAX_DEPTH = 64  # deeper nesting is not an answer anyone writes: skipped, never recursed into
MAX_CANDIDATES = 400
MAX_REPAIRED = 100_000  # characters: a longer candidate is read as JSON as it stands, never repaired


def _spans(text: str, opener: str) -> Iterator[str]:
    """Each balanced span that starts at an `opener` ([ or {), ordered by where it starts, skipping strings.
    One pass with a stack: hostile text (100,000 nested brackets) costs linear time, not quadratic."""
    closer = "]" if opener == "[" else "}"
    pairs = {"[": "]", "{": "}"}
    stack: list[tuple[str, int]] = []
    found: list[tuple[int, int]] = []
    quote, escaped = "", False
    for index, char in enumerate(text):
        if quote:
            if escaped:
                escaped = False
            elif char == "\\":
                escaped = True
            elif char == quote:
                quote = ""
        elif char in "\"'":
            quote = char if char == '"' or _opens_single_quote(text, index) else ""
        elif char in "[{":
            stack.append((char, index))
        elif char in "]}":
            if not stack:
                continue
            open_char, start = stack.pop()
            if pairs[open_char] != char:
                stack.clear()  # unbalanced: what was open cannot close properly any more
                continue
            if open_char == opener and char == closer and len(stack) < MAX_DEPTH and index - start < _MAX_CHARS:
                found.append((start, index + 1))
    found.sort()
    for start, end in found[:MAX_CANDIDATES]:
        yield text[start:end]


def _opens_single_quote(text: str, index: int) -> bool:
    """A ' starts a Python string only after [ { , : or space, not inside a word (it's, don't)."""
    before = text[index - 1] if index else " "
    return before in "[{,: \t\n"


def _without_trailing_commas(text: str) -> str:
    """Remove commas before a closing bracket, outside strings."""
    out, quote, escaped = [], "", False
    for index, char in enumerate(text):
        if quote:
            out.append(char)
            if escaped:
                escaped = False
            elif char == "\\":
                escaped = True
            elif char == quote:
                quote = ""
            continue
        if char == '"':
            quote = char
        if char == "," and _CLOSES_NEXT.match(text, index + 1):
            continue
        out.append(char)
    return "".join(out)


def _readings(candidate: str) -> Iterator[Any]:
    try:
        yield json.loads(candidate, strict=False)
        return
    except (ValueError, RecursionError):
        pass
    if len(candidate) > MAX_REPAIRED:
        return
    repaired = _without_trailing_commas(candidate)
    try:
        yield json.loads(repaired, strict=False)
        return
    except (ValueError, RecursionError):
        pass
    try:  # Python's literal syntax: 'single quotes', True, None
        yield json.loads(python_literal_as_json(repaired), strict=False)
    except (ValueError, RecursionError):
        return


_WORDS = {"True": "true", "False": "false", "None": "null"}


def python_literal_as_json(text: str) -> str:
    """`text` (a Python literal of lists, dicts, strings, numbers, True/False/None) as JSON text: single-quoted
    strings become double-quoted, the three names become JSON's. Anything else passes through unchanged,
    so text that is neither is still refused by the JSON parser afterwards."""
    out: list[str] = []
    index, length = 0, len(text)
    while index < length:
        char = text[index]
        if char in "\"'":
            end, body = _python_string(text, index)
            out.append(json.dumps(body))
            index = end
            continue
        if char.isalpha() or char == "_":
            end = index
            while end < length and (text[end].isalnum() or text[end] == "_"):
                end += 1
            word = text[index:end]
            out.append(_WORDS.get(word, word))
            index = end
            continue
        out.append(char)
        index += 1
    return "".join(out)


_ESCAPES = {"n": "\n", "t": "\t", "r": "\r", "\\": "\\", "'": "'", '"': '"', "0": "\0"}


def _python_string(text: str, start: int) -> tuple[int, str]:
    """(index after the string, its value) for the quoted string at `start`; ValueError if it never closes."""
    quote = text[start]
    chars: list[str] = []
    index = start + 1
    while index < len(text):
        char = text[index]
        if char == "\\" and index + 1 < len(text):
            chars.append(_ESCAPES.get(text[index + 1], text[index + 1]))
            index += 2
            continue
        if char == quote:
            return index + 1, "".join(chars)
        chars.append(char)
        index += 1
    raise ValueError("a string that never closes")


def find_json(text: str, want: type = list, accept: Callable[[Any], bool] | None = None) -> Any:
    """The first JSON value of type `want` (list or dict) in `text` that `accept` takes (so "[2]" in a
    sentence is not mistaken for the answer); ValueError if there is none."""
    if len(text) > _MAX_CHARS:
        text = text[:_MAX_CHARS]
    opener = "[" if want is list else "{"
    stripped = text.strip()
    candidates = [stripped, *(block.strip() for block in _FENCE.findall(text))]
    for source in (stripped, *_FENCE.findall(text)):
        candidates += list(_spans(source, opener))
    seen: set[str] = set()
    for candidate in candidates:
        if not candidate or candidate in seen:
            continue
        seen.add(candidate)
        for value in _readings(candidate):
            if isinstance(value, want) and (accept is None or accept(value)):
                return value
    kind = "list" if want is list else "object"
    if opener not in text:
        raise ValueError(f"the reply contains no JSON {kind} (no '{opener}' at all)")
    raise ValueError(f"the reply's JSON {kind} could not be read (malformed, or cut off before its end)")
