"""Keep API keys out of everything the harness writes: cache entries, reports and logs.

Keys never enter a request record or a cache key by construction; this module is the second line of
defence for text that comes back from providers (error messages that echo a key) or from user agents.
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterable
from typing import Any

_SECRET_NAME = re.compile(r"(KEY|TOKEN|SECRET|PASSWORD|CREDENTIALS?)$", re.IGNORECASE)
_KEY_SHAPES = re.compile(r"\b(sk-[A-Za-z0-9_\-]{8,}|sk-ant-[A-Za-z0-9_\-]{8,}|AIza[0-9A-Za-z_\-]{20,})")
MIN_SECRET_LENGTH = 8


def secret_values(extra: Iterable[str] = ()) -> list[str]:
    """Values of environment variables whose names look secret, plus any given explicitly."""
    values = {v for name, v in os.environ.items() if _SECRET_NAME.search(name) and len(v) >= MIN_SECRET_LENGTH}
    values.update(v for v in extra if v and len(v) >= MIN_SECRET_LENGTH)
    return sorted(values, key=len, reverse=True)


def redact_text(text: str, secrets: Iterable[str] | None = None) -> str:
    """Replace every known secret value, and anything shaped like a provider key, with a marker."""
    for value in secret_values() if secrets is None else secrets:
        if value in text:
            text = text.replace(value, "[REDACTED]")
    return _KEY_SHAPES.sub("[REDACTED]", text)


def redact(value: Any, secrets: list[str] | None = None) -> Any:
    """Redact every string inside a JSON-like value."""
    if secrets is None:
        secrets = secret_values()
    if isinstance(value, str):
        return redact_text(value, secrets)
    if isinstance(value, dict):
        return {k: redact(v, secrets) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [redact(v, secrets) for v in value]
    return value
