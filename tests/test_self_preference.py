"""harness.self_preference: model families, and the warning when a judge may favour the system under test."""

from __future__ import annotations

import pytest

from harness.self_preference import model_family, self_preference_warnings


@pytest.mark.parametrize(
    ("sut", "judge", "expected"),
    [
        ("openai/gpt-4.1", "openai/gpt-4.1", "is the system under test itself"),
        ("openai/gpt-4.1", "openai/gpt-4o-mini", "same family (gpt)"),
        ("anthropic/claude-sonnet-4-5", "bedrock/anthropic.claude-3-haiku", "same family (claude)"),
        ("openai/gpt-4.1", "anthropic/claude-sonnet-4-5", None),
    ],
)
def test_self_preference_warnings(sut: str, judge: str, expected: str | None) -> None:
    warnings = self_preference_warnings(sut, [judge])
    if expected is None:
        assert warnings == []
    else:
        assert len(warnings) == 1 and expected in warnings[0]


def test_model_family() -> None:
    assert model_family("local/smollm2") == "smollm"
    assert model_family("openrouter/meta-llama/llama-3.1-8b") == "llama"
