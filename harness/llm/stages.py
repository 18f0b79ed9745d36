"""Stage labels: which step of a benchmark's pipeline a model call belongs to.

A context variable, so concurrent items (and concurrent stages of one item) never mix their labels, and
every call made inside `with stage("retriever"):` is recorded under that stage, however deep it is made.
"""

from __future__ import annotations

import contextlib
import contextvars
import re
from collections.abc import Iterator

_STAGE: contextvars.ContextVar[str | None] = contextvars.ContextVar("harness_stage", default=None)
STAGE_PATTERN = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_.:-]{0,63}$")


def current_stage() -> str | None:
    return _STAGE.get()


@contextlib.contextmanager
def stage(name: str) -> Iterator[None]:
    """Label every model call made inside the block (nested stages join with '/')."""
    if not STAGE_PATTERN.match(name):
        raise ValueError(f"a stage name is 1-64 letters, digits, '_', '.', ':' or '-', got {name!r}")
    outer = _STAGE.get()
    token = _STAGE.set(f"{outer}/{name}" if outer else name)
    try:
        yield
    finally:
        _STAGE.reset(token)
