"""The three xbench Recruitment task types, as typed task fields (docs/task-format.md#recruitment).

Every type names its environment (`open-web`: no tools, the agent uses what it has; otherwise an offline
world under fixtures/worlds/ with search and open tools), an optional region or population restriction
(a task variable, not a constant), and limits for its tool loop.
"""

from __future__ import annotations

from pydantic import BaseModel, Field

from harness.task_fields import ENVIRONMENT, Limits
from harness.task_model import STRICT


class Evidence(BaseModel):
    """Where a fact of the ground truth can be read in the task's world (a test checks every quote)."""

    model_config = STRICT

    url: str = Field(min_length=1)
    quote: str = Field(min_length=3, max_length=400, description="A verbatim substring of that page's text.")


class Decoy(BaseModel):
    """A plausible wrong answer the world holds on purpose, and the visible text that rules it out."""

    model_config = STRICT

    name: str = Field(min_length=2, max_length=200)
    url: str | None = Field(default=None, description="Its page in the world.")
    why: str = Field(min_length=10, max_length=600, description="The condition it fails.")
    evidence: tuple[Evidence, ...] = Field(min_length=1, description="Where that failure can be read.")


class ObjectSpec(BaseModel):
    model_config = STRICT

    kind: str = Field(min_length=1, max_length=40, description="companies, teams, universities, labs, ...")
    quantity: int = Field(ge=1, le=20, description="How many the client wants (longer lists are cut to this).")


class CompanyMappingInputs(BaseModel):
    model_config = STRICT

    environment: str = ENVIRONMENT
    job_description: str = Field(min_length=20, description="Client, role, required background and traits.")
    objects: tuple[ObjectSpec, ...] = Field(min_length=1, max_length=6, description="What to find, how many.")
    region: str | None = Field(default=None, max_length=200, description="Where candidates must be.")
    limits: Limits = Field(default_factory=Limits)


class CompanyMappingTruth(BaseModel):
    model_config = STRICT

    expected: dict[str, tuple[str, ...]] = Field(description="The expert's list per object kind, as long as asked.")
    criteria: str = Field(min_length=10, description="What counts, what does not, what would be a hallucination.")
    evidence: tuple[Evidence, ...] = Field(default=(), description="World tasks: where the names are found.")
    adjacent: tuple[Decoy, ...] = Field(
        default=(), max_length=40, description="Organisations that look right but fail a criterion."
    )


class PeopleToInfoInputs(BaseModel):
    model_config = STRICT

    environment: str = ENVIRONMENT
    person: str = Field(min_length=2, max_length=200, description="The person's name.")
    background: str = Field(min_length=2, max_length=400, description="Their role, as the client knows it.")
    reference: str = Field(min_length=10, description="The part of the profile given to identify them.")
    region: str | None = Field(default=None, max_length=200)
    limits: Limits = Field(default_factory=Limits)


class Question(BaseModel):
    model_config = STRICT

    question: str = Field(min_length=5)
    answer: str = Field(min_length=1, description="The standard answer.")
    evidence: tuple[Evidence, ...] = Field(default=())


class PeopleToInfoTruth(BaseModel):
    model_config = STRICT

    questions: tuple[Question, ...] = Field(min_length=1, max_length=10, description="From the held-back profile.")
    criteria: str = Field(min_length=10, description="What must be right; what is a hallucination.")
    profile: str | None = Field(default=None, description="World tasks: the person's own page (namesakes' are not).")
    namesakes: tuple[Decoy, ...] = Field(
        default=(), max_length=20, description="Other people a search for the name finds, and what sets them apart."
    )


class InfoToPeopleInputs(BaseModel):
    model_config = STRICT

    environment: str = ENVIRONMENT
    question: str = Field(min_length=20, description="The constraints; the number of matches is not given.")
    population: str | None = Field(default=None, max_length=200, description="Who may be considered.")
    limits: Limits = Field(default_factory=Limits)


class Person(BaseModel):
    model_config = STRICT

    name: str = Field(min_length=2)
    url: str | None = Field(default=None, description="World tasks: the person's profile page.")


class InfoToPeopleTruth(BaseModel):
    model_config = STRICT

    people: tuple[Person, ...] = Field(min_length=1, max_length=10)
    verification: str = Field(min_length=10, description="How a checker confirms the answer.")
    evidence: tuple[Evidence, ...] = Field(default=())
    near_misses: tuple[Decoy, ...] = Field(
        default=(), max_length=40, description="Candidates who meet all but one condition, and which one."
    )


class RecruitmentScoring(BaseModel):
    model_config = STRICT

    template: str | None = Field(default=None, description="A judge template of your own (default: the type's).")
