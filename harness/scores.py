"""What a benchmark returns for one item: the score and how it was reached.

Everything here crosses processes as JSON (xdist, results.json), so values are checked at the source: a
metric is a finite number or None (not applicable), never NaN, infinity or a numpy scalar, which would
break JSON or xdist far from the benchmark that produced it.
"""

from __future__ import annotations

import math
import numbers
from dataclasses import dataclass, field
from typing import Any


def metric_value(name: str, value: Any) -> float | None:
    """A metric as a plain float (or None); anything else is a bug in the benchmark, said at once."""
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, numbers.Real):
        raise ValueError(f"metric {name!r} must be a number or None, got {type(value).__name__}")
    number = float(value)
    if not math.isfinite(number):
        raise ValueError(f"metric {name!r} is {number}: a metric must be a finite number or None")
    return number


@dataclass
class Scores:
    """A score on 0..100 plus the evidence behind it (metric values, raw judge levels, the answer)."""

    score: float
    answer: str = ""
    metrics: dict[str, float | None] = field(default_factory=dict)
    judge_levels: dict[str, Any] = field(default_factory=dict)
    details: dict[str, Any] = field(default_factory=dict)
    # Metrics a failure on the harness's side kept from being measured (a judge that gave no verdict): the
    # score stands on what was measured, and tables mark these cells incomplete instead of averaging them.
    incomplete: list[str] = field(default_factory=list)

    def __post_init__(self) -> None:
        score = metric_value("score", self.score)
        if score is None or not 0.0 <= score <= 100.0:
            raise ValueError(f"a score must lie in 0..100, got {self.score}")
        self.score = score
        self.metrics = {str(name): metric_value(str(name), value) for name, value in self.metrics.items()}
