"""The fields every task has, whatever its kind: the base model each benchmark's task model extends.
Apart from task.py (which reads task files through the benchmarks' registry) so that the registry and
the kinds can import it without a circle."""

from __future__ import annotations

import datetime as dt
from typing import Annotated, Literal

from pydantic import BaseModel, ConfigDict, Field, StringConstraints

TASK_ID_PATTERN = r"^[A-Za-z0-9][A-Za-z0-9._-]*$"
TAG_PATTERN = r"^[a-z][a-z0-9_]*$"

TaskId = Annotated[str, StringConstraints(pattern=TASK_ID_PATTERN, max_length=120)]
Tag = Annotated[str, StringConstraints(pattern=TAG_PATTERN, max_length=64)]
MAX_VERSION = 1_000_000
# Every model of a task file refuses NaN and infinity (they are not JSON) and unknown fields.
STRICT = ConfigDict(extra="forbid", frozen=True, allow_inf_nan=False, defer_build=True)


class Calibration(BaseModel):
    """What blind solves observed on a task: the index's prior for its difficulty (docs/xbench.md#calibration)."""

    model_config = STRICT

    date: dt.date = Field(description="When the solves were graded.")
    solves: int = Field(ge=1, le=10_000, description="How many blind solves at the full budget.")
    mean_score: float = Field(ge=0, le=100, description="Their mean score (0..100).")
    solve_rate: float = Field(ge=0, le=1, description="The share of them that passed.")
    quarter_mean_score: float | None = Field(
        default=None, ge=0, le=100, description="Mean score of solves with a quarter of the call budget."
    )
    note: str | None = Field(default=None, max_length=2000, description="Who solved and graded, and how.")


class TaskMetadata(BaseModel):
    """What a task costs a professional and how it ages; used by reports, the index and `-m`."""

    model_config = STRICT

    expert_minutes: float | None = Field(
        default=None, ge=0, le=100_000, description="Minutes a professional needs for the task by hand."
    )
    mode: Literal["static", "dynamic"] = Field(
        default="static", description="dynamic: the ground truth changes over time and must be re-collected."
    )
    collected: dt.date | None = Field(default=None, description="When the ground truth was collected.")
    tags: tuple[Tag, ...] = Field(default=(), description="Free labels; each also becomes a pytest marker.")
    source: str | None = Field(default=None, max_length=2000, description="Where the task comes from.")
    tier: Literal["easy", "calibrated"] | None = Field(
        default=None,
        description="easy: a warm-up task strong agents solve; calibrated: difficulty measured by blind solves.",
    )
    calibration: Calibration | None = Field(default=None, description="What blind solves observed on the task.")


class TaskBase(BaseModel):
    """Fields every task has, whatever its benchmark kind."""

    model_config = STRICT

    id: TaskId = Field(description="Unique within its file; the pytest item is `file.yaml::<id>`.")
    suite: str = Field(default="", description="Set from the file; do not write it per task.")
    kind: str = Field(description="The benchmark kind that solves and scores the task.")
    version: int = Field(
        ge=1, le=MAX_VERSION, description="Bump when the task changes; cached answers are keyed by it."
    )
    metadata: TaskMetadata = Field(default_factory=TaskMetadata)
    pass_threshold: float | None = Field(
        default=None, ge=0, le=100, description="Score (0..100) needed to pass; overrides the suite's."
    )
