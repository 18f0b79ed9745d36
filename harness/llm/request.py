"""Typed call requests. Unknown settings are refused: a setting the cache key ignores would serve
one configuration's answers to another."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from harness.wellformed import well_formed

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


def deeper_than(value: Any, limit: int) -> bool:
    """Whether JSON-like `value` nests more than `limit` levels of lists and objects. Iterative, so a body
    nested 100,000 levels deep is measured, not a RecursionError in whatever walks it next."""
    stack = [(value, 1)]
    while stack:
        node, level = stack.pop()
        if isinstance(node, dict | list | tuple):
            if level > limit:
                return True
            stack.extend((child, level + 1) for child in (node.values() if isinstance(node, dict) else node))
    return False


# What `extra_body` may hold: provider-specific sampling and decoding fields, named one by one. Anything else
# is refused, because the harness's own fields must win: an agent that could set `model` (or OpenRouter's
# `models` and `route`, a `service_tier`, a stored completion) there would be served another model, at
# another price or under other terms, while the records, the price and the reply all say --model.
EXTRA_BODY_FIELDS: frozenset[str] = frozenset(
    {
        "top_k", "min_p", "top_a", "typical_p", "repetition_penalty", "repeat_penalty", "min_tokens",
        "length_penalty", "mirostat", "mirostat_mode", "mirostat_tau", "mirostat_eta", "tfs_z",
        "skip_special_tokens", "spaces_between_special_tokens", "include_stop_str_in_output",
        "chat_template_kwargs", "enable_thinking", "thinking", "reasoning", "include_reasoning",
        "guided_json", "guided_regex", "guided_choice", "guided_grammar", "guided_decoding_backend",
        "safe_prompt", "top_n_tokens",
    }
)  # fmt: skip
MAX_EXTRA_BODY_DEPTH = 16
MAX_EXTRA_BODY_CHARS = 64 * 1024


def check_extra_body(value: Any) -> None:
    """`extra_body` is a JSON object of provider-specific fields, shallow and small, that overrides nothing
    the harness sets; anything else is a ValueError that says what."""
    import json

    if not isinstance(value, dict):
        raise ValueError(f"extra_body must be a JSON object of extra request fields, got {type(value).__name__}")
    taken = sorted(str(k) for k in value if k not in EXTRA_BODY_FIELDS)
    if taken:
        raise ValueError(
            f"extra_body may not set {', '.join(taken)[:200]}: it may hold only provider-specific sampling "
            f"fields ({', '.join(sorted(EXTRA_BODY_FIELDS))}); the model is --model, and generation settings go "
            "in the request's own fields"
        )

    if deeper_than(value, MAX_EXTRA_BODY_DEPTH):
        raise ValueError(f"extra_body nests deeper than {MAX_EXTRA_BODY_DEPTH} levels")
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

    def __post_init__(self) -> None:
        # texts come from the system under test and from users' files: cleaned before they are hashed
        object.__setattr__(self, "texts", tuple(well_formed(list(self.texts))))
