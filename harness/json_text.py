"""JSON found in free text written by a system under test, read leniently but never by guessing.

Agents are asked for JSON and reply with it inside a code fence, after a sentence of prose, with a
trailing comma, or with Python's quoting. `find_json` tries, in order: the whole reply; each fenced block;
each balanced `[...]`/`{...}` span from left to right; and for each candidate the same text with trailing
commas removed, then as a Python literal (single quotes, True/None). It returns the first value of the
wanted type, or raises `ValueError` saying why nothing could be read. Judges do not use this: their
replies are validated strictly (harness.judge).
"""

from __future__ import annotations

import ast
import json
import re
from collections.abc import Callable, Iterator
from typing import Any

_FENCE = re.compile(r"```[ \t]*[A-Za-z0-9_-]*[ \t]*\n(.*?)```", re.DOTALL)
_MAX_CHARS = 1_000_000


def _spans(text: str, opener: str) -> Iterator[str]:
    """Each balanced span that starts at an `opener` ([ or {), left to right, skipping strings."""
    closer = "]" if opener == "[" else "}"
    start = text.find(opener)
    while start != -1:
        depth, quote, escaped = 0, "", False
        for index in range(start, len(text)):
            char = text[index]
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
                depth += 1
            elif char in "]}":
                depth -= 1
                if depth == 0:
                    if char == closer:
                        yield text[start : index + 1]
                    break
        start = text.find(opener, start + 1)


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
        if char == "," and re.match(r"\s*[\]}]", text[index + 1 :]):
            continue
        out.append(char)
    return "".join(out)


def _readings(candidate: str) -> Iterator[Any]:
    try:
        yield json.loads(candidate, strict=False)
        return
    except ValueError:
        pass
    repaired = _without_trailing_commas(candidate)
    try:
        yield json.loads(repaired, strict=False)
        return
    except ValueError:
        pass
    try:  # Python's literal syntax: 'single quotes', True, None (literal_eval runs no code)
        yield ast.literal_eval(repaired)
    except (ValueError, SyntaxError, MemoryError, RecursionError):
        return


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
