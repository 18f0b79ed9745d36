"""Typed call requests. Unknown settings are refused: a setting the cache key ignores would serve
one configuration's answers to another."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

# Every generation setting a call may carry. All of them enter the cache key.
CHAT_SETTINGS: frozenset[str] = frozenset(
    {
        "temperature",
        "top_p",
        "max_tokens",
        "max_completion_tokens",
        "seed",
        "stop",
        "presence_penalty",
        "frequency_penalty",
        "logit_bias",
        "logprobs",
        "top_logprobs",
        "reasoning_effort",
        "tools",
        "tool_choice",
        "parallel_tool_calls",
        "response_format",
        "extra_body",
    }
)


@dataclass(frozen=True)
class ChatRequest:
    """One chat-completion call, independent of the route that will serve it."""

    model: str
    messages: tuple[dict[str, Any], ...]
    settings: dict[str, Any] = field(default_factory=dict)
    api_base: str | None = None
    # The NAME of the environment variable holding this endpoint's key (never the key itself; never part
    # of the cache key). Without it, a custom api_base gets no key at all: see docs/providers.md#secrets.
    key_env: str | None = None

    def __post_init__(self) -> None:
        unknown = sorted(set(self.settings) - CHAT_SETTINGS)
        if unknown:
            raise ValueError(
                f"unknown call setting(s) {', '.join(unknown)}: the cache key would not cover them; "
                f"known settings: {', '.join(sorted(CHAT_SETTINGS))}"
            )
        if not self.messages:
            raise ValueError("a chat request needs at least one message")

    @classmethod
    def build(
        cls,
        model: str,
        messages: list[dict[str, Any]],
        *,
        api_base: str | None = None,
        key_env: str | None = None,
        **settings: Any,
    ) -> ChatRequest:
        """Build a request, dropping settings left at None so `None` and "absent" share a key."""
        return cls(
            model=model,
            messages=tuple(messages),
            settings={k: v for k, v in settings.items() if v is not None},
            api_base=api_base,
            key_env=key_env,
        )


@dataclass(frozen=True)
class EmbeddingRequest:
    """Texts to embed with one model."""

    model: str
    texts: tuple[str, ...]
    api_base: str | None = None
    key_env: str | None = None
    dimensions: int | None = None  # shorter vectors where the model supports it (OpenAI's text-embedding-3)
