"""Text that can be hashed, stored and written: lone surrogates replaced.

A lone surrogate ("Paris \\ud83d", half of an emoji cut in two) is valid in JSON and in a Python str, but not in
UTF-8: it can be neither hashed into a cache key nor written to a report. It arrives from whatever the harness
does not control (a system under test, a user's file, a provider's reply), so every such boundary cleans it,
and every writer cleans it again rather than crash after the calls were paid for."""

from __future__ import annotations

import re
from typing import Any

_LONE_SURROGATE = re.compile("[\ud800-\udfff]")


def well_formed_text(text: str) -> str:
    """`text` with every lone surrogate replaced by U+FFFD."""
    if text.isascii():  # the usual case, checked in C
        return text
    return _LONE_SURROGATE.sub("\ufffd", text) if _LONE_SURROGATE.search(text) else text


def well_formed(value: Any) -> Any:
    """`value` (JSON-like) with every lone surrogate in its strings and keys replaced by U+FFFD."""
    if isinstance(value, str):
        return well_formed_text(value)
    if isinstance(value, dict):
        return {well_formed(k): well_formed(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [well_formed(v) for v in value]
    return value
