"""Where a model is served, apart from everything that calls it (the item context, the agent's model handle)."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Endpoint:
    """A model and where it is served: base URL and the name of the variable holding its key."""

    model: str
    api_base: str | None = None
    key_env: str | None = None
