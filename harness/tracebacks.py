"""Tracebacks as text, without parsing any Python source.

Why: CPython 3.11's traceback module parses each frame's line with `ast.parse` to place its `^^^` markers,
and 3.11's AST constructor keeps its recursion depth in state shared by all threads (gh-106905): two threads
parsing at once can fail with `SystemError: AST constructor recursion depth mismatch`. The harness formats
tracebacks while its loop thread and pytest's main thread both run, so it never asks for the markers: each
frame is its file, line, function and source line, read with linecache.
"""

from __future__ import annotations

import traceback

MAX_CHAIN = 8


def plain_traceback(exc: BaseException) -> str:
    """`traceback.format_exception(exc)` without the caret lines, and so without `ast`."""
    chain: list[tuple[BaseException, str | None]] = []
    seen: set[int] = set()
    current: BaseException | None = exc
    link: str | None = None
    while current is not None and id(current) not in seen and len(chain) < MAX_CHAIN:
        seen.add(id(current))
        chain.append((current, link))
        if current.__cause__ is not None:
            current, link = current.__cause__, "The above exception was the direct cause of the following exception:"
        elif current.__context__ is not None and not current.__suppress_context__:
            current, link = current.__context__, "During handling of the above exception, another exception occurred:"
        else:
            current = None
    parts: list[str] = []
    for error, joined_by in reversed(chain):
        frames = traceback.extract_tb(error.__traceback__)
        if frames:
            parts.append("Traceback (most recent call last):\n")
            for frame in frames:
                parts.append(f'  File "{frame.filename}", line {frame.lineno}, in {frame.name}\n')
                if frame.line:
                    parts.append(f"    {frame.line.strip()}\n")
        parts.append("".join(traceback.format_exception_only(type(error), error)))
        if joined_by is not None:
            parts.append(f"\n{joined_by}\n\n")
    return "".join(parts)
