"""Typed call requests. Unknown settings are refused: a setting the cache key ignores would serve
one configuration's answers to another."""

from __future__ import annotations

import re
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


_LONE_SURROGATE = re.compile("[\ud800-\udfff]")


def well_formed(value: Any) -> Any:
    """`value` with every lone surrogate (half of an emoji cut in two: "Paris \\ud83d") replaced by U+FFFD.
    Such text is valid JSON but not valid UTF-8: it could be neither hashed into a cache key nor stored."""
    if isinstance(value, str):
        return _LONE_SURROGATE.sub("\ufffd", value) if _LONE_SURROGATE.search(value) else value
    if isinstance(value, dict):
        return {well_formed(k): well_formed(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [well_formed(v) for v in value]
    return value


# What `extra_body` may never hold: the harness's own fields win, always. An agent that could set `model`
# there would be served another model while the records, the price and the reply all say --model.
RESERVED_BODY_FIELDS: frozenset[str] = frozenset({"model", "messages", "stream", "stream_options", "n"})
MAX_EXTRA_BODY_DEPTH = 16
MAX_EXTRA_BODY_CHARS = 64 * 1024


def check_extra_body(value: Any) -> None:
    """`extra_body` is a JSON object of provider-specific fields, shallow and small, that overrides nothing
    the harness sets; anything else is a ValueError that says what."""
    import json

    if not isinstance(value, dict):
        raise ValueError(f"extra_body must be a JSON object of extra request fields, got {type(value).__name__}")
    taken = sorted((set(value) & RESERVED_BODY_FIELDS) | (set(value) & CHAT_SETTINGS))
    if taken:
        raise ValueError(
            f"extra_body may not set {', '.join(taken)}: the harness sets those fields itself "
            "(the model is --model; generation settings go in the request's own fields)"
        )

    def depth(node: Any, level: int) -> None:
        if level > MAX_EXTRA_BODY_DEPTH:
            raise ValueError(f"extra_body nests deeper than {MAX_EXTRA_BODY_DEPTH} levels")
        children = node.values() if isinstance(node, dict) else node if isinstance(node, list) else ()
        for child in children:
            depth(child, level + 1)

    depth(value, 1)
    try:
        size = len(json.dumps(value))
    except (TypeError, ValueError) as exc:
        raise ValueError(f"extra_body is not JSON ({exc})") from exc
    if size > MAX_EXTRA_BODY_CHARS:
        raise ValueError(f"extra_body is {size:,} characters; at most {MAX_EXTRA_BODY_CHARS:,}")


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
        if "extra_body" in self.settings:
            check_extra_body(self.settings["extra_body"])

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
            messages=tuple(well_formed(list(messages))),
            settings=well_formed({k: v for k, v in settings.items() if v is not None}),
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
