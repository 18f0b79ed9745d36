"""Where a model is served, apart from everything that calls it (the item context, the agent's model handle),
and what a model's name says: its provider, the provider's own name for it, and whether it is the embedded
model.

Why one reading of the name: a model is written `provider/name` (`openai/gpt-4.1-mini`, `local/smollm2`,
`anthropic/claude-...`) or bare (`gpt-4o`, given an `--api-base`); the client's routes, its per-provider
limits, the prices, the preflight and the settings each used to split the string themselves.
"""

from __future__ import annotations

from dataclasses import dataclass

EMBEDDED_PROVIDER = "local"  # `local/...`: the embedded models (harness.local), served by the harness itself


@dataclass(frozen=True)
class ModelName:
    """A model's name, read once: `provider/name`, or a bare name (no provider: `provider` is None)."""

    text: str

    @property
    def provider(self) -> str | None:
        """The part before the first "/", or None for a bare name."""
        return self.text.split("/", 1)[0] if "/" in self.text else None

    @property
    def name(self) -> str:
        """The provider's own name for the model: the text after the first "/", or the whole bare name."""
        return self.text.split("/", 1)[-1]

    @property
    def embedded(self) -> bool:
        """Served by the harness itself (`local/...`): free, offline, no key."""
        return self.provider == EMBEDDED_PROVIDER

    def __str__(self) -> str:
        return self.text


@dataclass(frozen=True)
class Endpoint:
    """A model and where it is served: base URL and the name of the variable holding its key."""

    model: str
    api_base: str | None = None
    key_env: str | None = None

    @property
    def name(self) -> ModelName:
        return ModelName(self.model)
