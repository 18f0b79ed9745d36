"""The call record: what every model call leaves behind, cached or not, failed or not."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any


@dataclass
class CallRecord:
    """One call as the report shows it. Plain values only: it crosses xdist as JSON."""

    namespace: str  # "sut", "judge" or "embed"
    model: str
    key: str
    input_tokens: int = 0
    output_tokens: int = 0
    cost_usd: float | None = 0.0  # None: the price of this model is unknown
    latency_s: float = 0.0
    cache_hit: bool = False
    attempts: int = 0
    waited_s: float = 0.0  # time spent in backoff between attempts (Retry-After or jittered delays)
    error: str | None = None
    parts: dict[str, str] | None = None  # short hash of each key part, for `harness cache explain`
    stage: str | None = None  # the pipeline step (see harness.llm.stages); None: the namespace's default
    # What the call costs at the model's price, paid in this run or earlier (a cache hit keeps the price of
    # the call that filled the cache): the cost per task of a system, whatever the cache saved this run.
    priced_usd: float | None = 0.0
    # A reply read from the cache: how long the call took when it was made (None: the cache entry predates
    # this field); 0 for a call made, or waited for, in this run (its time is on this run's clock).
    replayed_latency_s: float | None = 0.0
    system: bool = False  # made by the system under test (ItemContext.system_work), not by its evaluation
    # What answered: the model the provider's reply names (its `model`) and its `system_fingerprint`. A cache
    # hit keeps those of the call that filled the cache. None: not known (a failed call, a reply without it,
    # a cache entry from before they were kept). A served model that changes under the same requested name is
    # how a provider's silent swap shows (harness.report.served, the gate's "not comparable").
    served_model: str | None = None
    system_fingerprint: str | None = None

    def to_json(self) -> dict[str, Any]:
        return {
            "namespace": self.namespace,
            "model": self.model,
            "key": self.key,
            "input_tokens": self.input_tokens,
            "output_tokens": self.output_tokens,
            "cost_usd": self.cost_usd,
            "latency_s": self.latency_s,
            "cache_hit": self.cache_hit,
            "attempts": self.attempts,
            "waited_s": self.waited_s,
            "error": self.error,
            "parts": dict(self.parts) if self.parts else None,
            "stage": self.stage or self.namespace,
            "priced_usd": self.priced_usd,
            "replayed_latency_s": self.replayed_latency_s,
            "system": self.system,
            "served_model": self.served_model,
            "system_fingerprint": self.system_fingerprint,
        }


@dataclass
class CallScope:
    """Where a call belongs: the task version and repeat (both in the cache key) and the item's records."""

    task_version: int
    repeat: int | None  # None: a call every repeat of the task shares (ItemContext.generate_once)
    records: list[CallRecord]
    repeats: int = 1  # how many repeats the run makes: an item's name (harness.item_names) names its repeat only then
