"""What a benchmark returns for one task and one repeat: the score and how it was reached."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any


@dataclass
class Scores:
    """A score on 0..100 plus the evidence behind it (metric values, raw judge levels, the answer)."""

    score: float
    answer: str = ""
    metrics: dict[str, float] = field(default_factory=dict)
    judge_levels: dict[str, Any] = field(default_factory=dict)
    details: dict[str, Any] = field(default_factory=dict)

    def __post_init__(self) -> None:
        if not 0.0 <= float(self.score) <= 100.0:
            raise ValueError(f"a score must lie in 0..100, got {self.score}")
        self.score = float(self.score)
