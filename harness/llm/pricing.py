"""Prices per token: litellm's bundled price map, a user price file for unknown models, 0 for local.

The price map is read as a JSON file from litellm's package directory, without importing litellm
(which costs about 3 s), so a run on the OpenAI-compatible route never pays that import.
"""

from __future__ import annotations

import importlib.util
import json
import math
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any

from harness.llm.endpoint import ModelName

PRICE_MAP_FILE = "model_prices_and_context_window_backup.json"


@dataclass(frozen=True)
class Price:
    input_per_token: float
    output_per_token: float

    def cost(self, input_tokens: int, output_tokens: int) -> float:
        return input_tokens * self.input_per_token + output_tokens * self.output_per_token


FREE = Price(0.0, 0.0)


@lru_cache(maxsize=1)
def _litellm_price_map() -> dict[str, Any]:
    spec = importlib.util.find_spec("litellm")
    if spec is None or not spec.submodule_search_locations:
        return {}
    path = Path(next(iter(spec.submodule_search_locations))) / PRICE_MAP_FILE
    try:
        return json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}


# Dollars per token. The dearest listed model costs about $0.0006 a token; a price above a dollar a token is
# a typo or a unit mix-up (per million tokens), and would let one call pass any --max-cost.
MAX_PRICE_PER_TOKEN = 1.0


def load_price_file(path: Path) -> dict[str, Price]:
    """A user price file: {"model": {"input_cost_per_token": x, "output_cost_per_token": y}}. Each price is a
    finite number from 0 to MAX_PRICE_PER_TOKEN: an infinite or NaN price fails every call after it is paid
    (so each rerun pays again), a negative one makes the run's cost fall and --max-cost never stop it."""
    try:
        raw = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError) as exc:
        raise ValueError(f"{path}: cannot read the price file: {exc}") from exc
    if not isinstance(raw, dict):
        raise ValueError(f"{path}: expected a JSON object mapping model names to prices")
    prices = {}
    for model, entry in raw.items():
        if not isinstance(entry, dict):
            raise ValueError(f"{path}: model {model!r}: expected an object with input_cost_per_token and "
                             "output_cost_per_token")  # fmt: skip
        values = []
        for name in ("input_cost_per_token", "output_cost_per_token"):
            value = entry.get(name)
            problem = _price_problem(value)
            if problem is not None:
                raise ValueError(f"{path}: model {model!r}: {name} {problem}, got {value!r}")
            values.append(float(value))
        prices[model] = Price(*values)
    return prices


def _price_problem(value: Any) -> str | None:
    if isinstance(value, bool) or not isinstance(value, int | float):
        return "must be a number (dollars per token)"
    if not math.isfinite(value) or not 0 <= value <= MAX_PRICE_PER_TOKEN:
        return f"must be a finite number from 0 to {MAX_PRICE_PER_TOKEN:g} (dollars per token)"
    return None


def price_for(model: str, user_prices: dict[str, Price] | None = None) -> Price | None:
    """The price of a model, or None when nobody knows it (the report then says "unknown")."""
    if ModelName(model).embedded:
        return FREE
    names = (model, ModelName(model).name)
    if user_prices:
        for name in names:
            if name in user_prices:
                return user_prices[name]
    price_map = _litellm_price_map()
    for name in names:
        entry = price_map.get(name)
        if isinstance(entry, dict) and "input_cost_per_token" in entry:
            return Price(float(entry.get("input_cost_per_token") or 0), float(entry.get("output_cost_per_token") or 0))
    return None
