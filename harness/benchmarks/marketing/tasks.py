"""The xbench Marketing task: a campaign brief, the platforms an operator may search, k, and the
influencers the client finally selected (docs/task-format.md#influencer_search-xbench-marketing-xbenchmd)."""

from __future__ import annotations

import datetime as dt
from typing import Annotated, Literal

from pydantic import BaseModel, BeforeValidator, Field

from harness.task_fields import ENVIRONMENT, Limits
from harness.task_model import STRICT

# "2026-10" and "October 2026" stay text; a bare YAML date (2026-10-15) is read as its ISO text.
DateText = Annotated[str, BeforeValidator(lambda v: v.isoformat() if isinstance(v, dt.date) else v)]

Platform = Literal["YouTube", "TikTok", "Instagram", "Twitch", "X", "Facebook", "LinkedIn", "Bilibili"]


class BasicInformation(BaseModel):
    model_config = STRICT

    product: str = Field(min_length=1, max_length=200)
    client: str = Field(default="", max_length=200)
    product_type: str = Field(default="", max_length=400)
    launch_time: DateText = Field(default="", max_length=100, description="Ignored by the rubric (a date).")


class BudgetAndDistribution(BaseModel):
    model_config = STRICT

    total_budget: str = Field(min_length=1, max_length=200, description="With its currency: 'USD 60,000'.")
    region: str = Field(min_length=1, max_length=200)
    platform_split: dict[str, str] = Field(default_factory=dict, description="{YouTube: 60%, TikTok: 40%}")


class InfluencerRequirements(BaseModel):
    model_config = STRICT

    quantity: str = Field(default="", max_length=100)
    creator_types: str = Field(default="", max_length=2000)
    audience_profile: str = Field(default="", max_length=2000)
    other_requirements: str = Field(default="", max_length=2000)


class Brief(BaseModel):
    """The client's requirements form, in the paper's five parts (an empty field is ignored)."""

    model_config = STRICT

    basic_information: BasicInformation
    product_highlights: str = Field(default="", max_length=4000)
    campaign_objectives: str = Field(default="", max_length=4000)
    budget_and_distribution: BudgetAndDistribution
    influencer_requirements: InfluencerRequirements


class InfluencerSearchInputs(BaseModel):
    model_config = STRICT

    environment: str = ENVIRONMENT
    industry: Literal["App", "Game", "E-commerce"] = Field(description="The client's industry (a report row).")
    category: str = Field(min_length=2, max_length=200, description="The client's category, e.g. 'Budgeting app'.")
    product: str = Field(min_length=1, max_length=200)
    platforms: tuple[Platform, ...] = Field(min_length=1, max_length=8, description="Where the operator may search.")
    k: int = Field(ge=1, le=30, description="How many influencers to recommend (longer lists are cut to k).")
    brief: Brief
    limits: Limits = Field(default_factory=Limits)


class NearMiss(BaseModel):
    """A creator in the pool the client considered and passed over, with the reason their page shows: the
    rubric's contrast to the picks (what the client did not choose, and why), and the tests' decoys. Either it
    fails one requirement, or (`qualified`) it meets every hard requirement and loses to the picks on the soft
    signals the brief weighs: fee against the budget, audience in the target markets, engagement and views
    trend, formats offered, brand safety."""

    model_config = STRICT

    url: str = Field(min_length=1)
    why: str = Field(min_length=5, max_length=400)
    lookalike: bool = Field(
        default=False, description="Shares the picks' platform, region and niche: only the stated requirement differs."
    )
    qualified: bool = Field(
        default=False, description="Passes every hard requirement; passed over on a soft signal that `why` names."
    )
    visible: str = Field(
        default="", max_length=300, description="A verbatim phrase of the creator's page that shows the reason."
    )


class BriefChecks(BaseModel):
    """What the brief requires, in a form tests check every pick's page against (the agent never sees it)."""

    model_config = STRICT

    regions: tuple[str, ...] = Field(min_length=1, description="The creators' countries the campaign accepts.")
    languages: tuple[str, ...] = Field(min_length=1, description="The languages the creators may post in.")
    avoid: tuple[str, ...] = Field(default=(), description="Words the brief rules out: no pick's page holds one.")
    quantity: tuple[int, int] = Field(description="The brief's quantity range (min, max); k lies in it.")
    niches: tuple[str, ...] = Field(
        default=(), description="The niches or sub-niches a creator must have one of (the brief's creator types)."
    )
    min_home_share: int | None = Field(
        default=None, ge=0, le=100, description="Least percent of the audience in the campaign's regions."
    )
    max_under_18: int | None = Field(default=None, ge=0, le=100, description="Most percent of the audience aged 13-17.")


class InfluencerSearchTruth(BaseModel):
    model_config = STRICT

    selected: tuple[str, ...] = Field(
        min_length=2, max_length=30, description="Profile links of the influencers the client finally selected."
    )
    near_misses: tuple[NearMiss, ...] = Field(default=(), max_length=30)
    checks: BriefChecks | None = Field(default=None, description="For consistency tests of shipped briefs.")


class InfluencerSearchScoring(BaseModel):
    model_config = STRICT

    judge_template: str | None = Field(default=None, description="Your own candidate judge template.")
