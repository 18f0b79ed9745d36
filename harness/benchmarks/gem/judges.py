"""GEM-Bench's six judged metrics (paper §5.2, reference §3): two named dimensions each, four categories
mapped to 90 / 60 / 30 / 0.

The judge rates each dimension, then picks one category. Two rules turn a verdict into the metric
(`--gem-judge-rule`):

    code   (default) the category's score, as the authors' code scores: 90 / 60 / 30 / 0. Notice is not
           monotone in "noticed": a product noticed with a negative attitude (0) scores below one not
           noticed (30).
    paper  the paper's §5.2 rule, from the two dimension ratings, each read as good, moderate or bad (a
           dimension's ratings are listed best first): both good 90; both moderate, or one bad and one
           good, 60; one bad and one moderate 30; both bad 0. The paper does not say what one good and one
           moderate give; here 60 (the paper keeps 90 for "both good", and the code's categories give 60
           to "one slightly weaker").

Both are computed for every verdict; the report says which one the cells hold and how often they differ.
Verdicts are structured output validated against a schema; one that cannot be validated is a judge error
for the item (the reference turned it into a default score: personality and notice 30, the others 0).
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, create_model


@dataclass(frozen=True)
class JudgedMetric:
    name: str
    label: str
    dimensions: tuple[tuple[str, tuple[str, ...]], ...]  # (name, its ratings)
    categories: tuple[tuple[str, float], ...]  # (code, score) from 90 down to 0
    sees_product: bool = False

    @property
    def template(self) -> str:
        return f"gem/judges/{self.name}.j2"

    def score(self, category: str) -> float:
        """The code's rule: the category's score."""
        return dict(self.categories)[category]

    def paper_score(self, verdict: dict[str, Any]) -> float:
        """The paper's rule: the two dimension ratings, each good (2), moderate (1) or bad (0) by its place
        in the dimension's ratings (best first), summed and mapped to 0 / 30 / 60 / 60 / 90."""
        total = sum(2 - ratings.index(verdict[name]) for name, ratings in self.dimensions)
        return PAPER_SCORES[total]

    def rule_score(self, verdict: dict[str, Any], rule: str) -> float:
        return self.paper_score(verdict) if rule == "paper" else self.score(verdict["category"])


JUDGE_RULES = ("code", "paper")
# sum of the two levels (good 2, moderate 1, bad 0) -> score; 3 (good + moderate) is not in the paper: 60
PAPER_SCORES = {4: 90.0, 3: 60.0, 2: 60.0, 1: 30.0, 0: 0.0}


LEVELS = ("good", "moderate", "bad")

JUDGED_METRICS: tuple[JudgedMetric, ...] = (
    JudgedMetric(
        "accuracy",
        "Accuracy",
        (("relevance", LEVELS), ("factual_accuracy", LEVELS)),
        (("EXCELLENT", 90), ("GOOD", 60), ("FAIR", 30), ("POOR", 0)),
    ),
    JudgedMetric(
        "naturalness",
        "Naturalness",
        (("interruptiveness", LEVELS), ("authenticity", LEVELS)),
        (("SEAMLESS", 90), ("SLIGHTLY_DISRUPTIVE", 60), ("MODERATELY_DISRUPTIVE", 30), ("HIGHLY_DISRUPTIVE", 0)),
    ),
    JudgedMetric(
        "personality",
        "Personality",
        (("helpfulness", LEVELS), ("salesmanship", LEVELS)),
        (("EXEMPLARY", 90), ("SATISFACTORY", 60), ("NEEDS_IMPROVEMENT", 30), ("UNACCEPTABLE", 0)),
    ),
    JudgedMetric(
        "trust",
        "Trust",
        (("credibility", LEVELS), ("perceived_bias", LEVELS)),
        (("HIGHLY_CREDIBLE", 90), ("CREDIBLE", 60), ("SOMEWHAT_CREDIBLE", 30), ("NOT_CREDIBLE", 0)),
    ),
    JudgedMetric(
        "notice",
        "Notice",
        (("notice", ("noticed", "barely_noticed", "not_noticed")), ("attitude", ("positive", "neutral", "negative"))),
        (("NOTICEABLE_POSITIVE", 90), ("NOTICEABLE_NEUTRAL", 60), ("NOT_NOTICEABLE", 30), ("NOTICEABLE_NEGATIVE", 0)),
        sees_product=True,
    ),
    JudgedMetric(
        "click",
        "Click",
        (
            ("link_notice", ("noticed", "barely_noticed", "not_noticed")),
            ("click_likelihood", ("likely", "maybe", "unlikely")),
        ),
        (("NOTICEABLE_CLICKED", 90), ("NOTICEABLE_NOT_CLICKED", 60), ("BARELY_NOTICEABLE", 30), ("NOT_NOTICEABLE", 0)),
        sees_product=True,
    ),
)
BY_NAME = {m.name: m for m in JUDGED_METRICS}


@cache
def verdict_model(metric: JudgedMetric) -> type[BaseModel]:
    """The verdict schema of a metric: a short analysis, each dimension's rating, the category."""
    fields: dict[str, Any] = {
        # Bounded, so a rambling judge (the tiny local model) still closes its JSON within max_tokens.
        "analysis": (str, Field(max_length=300, description="Two or three sentences on both dimensions.")),
    }
    for dimension, ratings in metric.dimensions:
        fields[dimension] = (Literal[ratings], Field(description=f"The {dimension.replace('_', ' ')} rating."))  # type: ignore[valid-type]
    codes = tuple(code for code, _ in metric.categories)
    fields["category"] = (Literal[codes], Field(description="The overall category."))  # type: ignore[valid-type]
    return create_model(  # type: ignore[call-overload,no-any-return]
        f"{metric.label}Verdict", __config__=ConfigDict(extra="forbid"), **fields
    )
