"""Task fields that several benchmarks share: where the agent works, and the limits of its tool loop."""

from __future__ import annotations

from pydantic import BaseModel, Field

from harness.solvers import DEFAULT_MAX_STEPS, DEFAULT_TOKEN_BUDGET, LoopLimits
from harness.task_model import STRICT

ENVIRONMENT = Field(
    default="open-web",
    pattern=r"^[a-z0-9][a-z0-9_-]{0,63}$",
    description="open-web (no tools offered) or the name of an offline world under fixtures/worlds/.",
)


class Limits(BaseModel):
    """The tool loop's limits for one task; running out is an explicit outcome, never a hang. A limit left out
    is the kind's default, sized so that the kind's tasks can be done one tool call per turn."""

    model_config = STRICT

    max_steps: int | None = Field(default=None, ge=1, le=200, description="Model turns in the tool loop.")
    token_budget: int | None = Field(
        default=None, ge=1000, le=20_000_000, description="Tokens (in + out) over all turns."
    )
    time_limit_s: float | None = Field(
        default=None,
        gt=0,
        le=86_400,
        description="Seconds a command or HTTP agent may take (default: --agent-timeout).",
    )

    def loop_limits(self, defaults: LoopLimits | None = None) -> LoopLimits:
        """These limits, with the kind's `defaults` (else the harness's) where the task gives none."""
        base = defaults or LoopLimits(DEFAULT_MAX_STEPS, DEFAULT_TOKEN_BUDGET)
        return LoopLimits(
            max_steps=self.max_steps or base.max_steps,
            token_budget=self.token_budget or base.token_budget,
            time_limit_s=self.time_limit_s or base.time_limit_s,
        )
