"""harness.llm.retry: Retry-After in its forms, and the backoff."""

from __future__ import annotations

import email.utils
import time

from harness.llm.retry import backoff_delay, parse_retry_after


def test_retry_after_forms() -> None:
    assert parse_retry_after("2") == 2.0
    assert parse_retry_after("garbage") is None
    soon = email.utils.formatdate(time.time() + 5, usegmt=True)
    assert 3 <= (parse_retry_after(soon) or 0) <= 6
    assert backoff_delay(3, 1.0, retry_after=0.25) == 0.25
    assert 2.0 <= backoff_delay(3, 1.0) <= 4.0
    assert backoff_delay(20, 1.0) <= 30.0
