"""Retries with exponential backoff and jitter that honour the server's Retry-After."""

from __future__ import annotations

import email.utils
import random
import time

MAX_RETRY_AFTER_S = 120.0


def parse_retry_after(value: str | None) -> float | None:
    """Seconds to wait from a Retry-After header (delta-seconds or an HTTP date), if any."""
    if not value:
        return None
    value = value.strip()
    try:
        return max(0.0, min(float(value), MAX_RETRY_AFTER_S))
    except ValueError:
        pass
    try:
        when = email.utils.parsedate_to_datetime(value)
    except (TypeError, ValueError):
        return None
    if when is None:
        return None
    return max(0.0, min(when.timestamp() - time.time(), MAX_RETRY_AFTER_S))


def backoff_delay(attempt: int, base: float, cap: float = 30.0, retry_after: float | None = None) -> float:
    """Delay before retry number `attempt` (1-based): the server's wish if given, else jittered backoff."""
    if retry_after is not None:
        return retry_after
    ceiling = min(cap, base * (2 ** (attempt - 1)))
    return random.uniform(ceiling / 2, ceiling)
