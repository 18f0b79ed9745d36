"""Exception types that decide how an item ends.

Every exception here means "this item could not be scored": the plugin turns it into a pytest *error*
(never a failure, never a zero score) and the report keeps the reason.
"""

from __future__ import annotations


class HarnessError(Exception):
    """Base class: an item that could not produce a trustworthy score."""

    kind = "error"


class TaskFileError(HarnessError):
    """A task file or task entry that does not match the task format."""

    kind = "invalid-task"


class ProviderError(HarnessError):
    """A model call that failed after its retries."""

    kind = "provider"

    def __init__(self, message: str, *, status: int | None = None, attempts: int = 1) -> None:
        super().__init__(message)
        self.status = status
        self.attempts = attempts


class RetryableProviderError(ProviderError):
    """A failure worth another attempt (429, 5xx, timeout, broken body)."""

    def __init__(self, message: str, *, status: int | None = None, retry_after: float | None = None) -> None:
        super().__init__(message, status=status)
        self.retry_after = retry_after


class CacheMissError(HarnessError):
    """A call that missed the cache while `--cache-mode replay` forbids new calls."""

    kind = "cache-miss"


class BudgetExceededError(HarnessError):
    """A call refused because the run already spent `--max-cost`."""

    kind = "budget"


class JudgeError(HarnessError):
    """A judge reply that could not be parsed or validated, even after one retry."""

    kind = "judge"


class AgentError(HarnessError):
    """The user's agent crashed, hung, exited non-zero or answered something that cannot be read."""

    kind = "agent"


class ConfigError(HarnessError):
    """Options that cannot work together, or a system under test that cannot be loaded."""

    kind = "config"
