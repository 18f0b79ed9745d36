"""Exception types that decide how an item ends, and whose fault it was (docs/report-schema.md#how-an-item-ends).

- The harness's side (`fault = "harness"`): a provider failure after retries, a judge that gave no valid
  verdict, a replay miss, the budget, an invalid task. The item was not measured: it stays unscored (a pytest
  *error*) and the tables say the run is incomplete, rather than show a number that looks final.
- The system under test's side (`SystemFailure`, `fault = "system"`): it crashed, hung, exited non-zero, gave
  nothing readable or nothing at all, or reached its cap without answering. That *is* a measurement: the
  item scores 0, as the papers average over every task, and keeps its reason for everyone to see.
"""

from __future__ import annotations

from typing import Any


class HarnessError(Exception):
    """Base class: an item that could not produce a trustworthy score."""

    kind = "error"
    fault = "harness"


class SystemFailure(HarnessError):
    """The system under test failed the task itself (the item scores 0; the reason is kept, and the answer
    it gave, when there was one). `metrics` holds what the benchmark still knows of the attempt: values it
    measured anyway (tokens spent) and None for metrics that do not apply; every other bounded metric of
    its tables counts at the bottom of its scale (harness.report.tables). `details` what the report shows
    of the attempt (whether a cap stopped it, its tool calls)."""

    kind = "system"
    fault = "system"

    def __init__(
        self,
        message: str,
        *,
        answer: str | None = None,
        metrics: dict[str, float | None] | None = None,
        details: dict[str, Any] | None = None,
    ) -> None:
        super().__init__(message)
        self.answer = answer
        self.metrics: dict[str, float | None] = dict(metrics or {})
        self.details: dict[str, Any] = dict(details or {})  # e.g. `stopped` (a cap was reached), the trajectory


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


class CacheUnavailableError(HarnessError):
    """The shared cache (--cache-url) failed during the run: the call fails loudly rather than being paid
    again as if it had missed."""

    kind = "cache"


class BudgetExceededError(HarnessError):
    """A call refused because the run already spent `--max-cost`."""

    kind = "budget"


class JudgeError(HarnessError):
    """A judge reply that could not be parsed or validated, even after one retry."""

    kind = "judge"


class AgentError(SystemFailure):
    """The user's agent crashed, hung, exited non-zero or answered something that cannot be read."""

    kind = "agent"


class ConfigError(HarnessError):
    """Options that cannot work together, or a system under test that cannot be loaded."""

    kind = "config"
