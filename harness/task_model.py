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
