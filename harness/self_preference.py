"""Self-preference: a judge tends to favour answers from itself or from its own model family.

Both papers this harness implements call it out; the run warns whenever a judge shares a model or a family
with the system under test. Kept apart from the judge toolkit so that option parsing stays cheap.
"""

from __future__ import annotations

import re

_FAMILIES = (
    "gpt",
    "o1",
    "o3",
    "o4",
    "claude",
    "gemini",
    "gemma",
    "llama",
    "qwen",
    "mistral",
    "mixtral",
    "deepseek",
    "grok",
    "command",
    "phi",
    "smollm",
    "kimi",
    "glm",
)


def model_family(model: str) -> str:
    """A coarse family name ("gpt", "claude", ...) from a model string, for self-preference checks."""
    name = model.lower().rsplit("/", 1)[-1]
    for family in _FAMILIES:
        if re.search(rf"(^|[-_.:]){family}", name):
            return family
    return name.split("-", 1)[0]


def self_preference_warnings(sut_model: str | None, judge_models: list[str]) -> list[str]:
    """Warnings for judges that may favour the system under test (same model or same family)."""
    if not sut_model:
        return []
    warnings = []
    for judge in judge_models:
        if judge == sut_model:
            warnings.append(
                f"judge {judge} is the system under test itself: expect self-preference bias; "
                "use --judge-model with a model of another family"
            )
        elif model_family(judge) == model_family(sut_model):
            warnings.append(
                f"judge {judge} is of the same family ({model_family(judge)}) as the system under test "
                f"{sut_model}: expect self-preference bias"
            )
    return warnings
