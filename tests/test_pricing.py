"""harness.llm.pricing: prices from the map and from a user price file, checked."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from harness.llm.pricing import FREE, load_price_file, price_for


def test_prices(tmp_path: Path) -> None:
    assert price_for("local/smollm2") == FREE
    known = price_for("openai/gpt-4o")
    assert known is not None and known.input_per_token > 0
    assert price_for("openai/no-such-model-anywhere") is None
    path = tmp_path / "prices.json"
    path.write_text(json.dumps({"my/model": {"input_cost_per_token": 1e-6, "output_cost_per_token": 2e-6}}))
    price = price_for("my/model", load_price_file(path))
    assert price is not None and price.cost(1000, 1000) == pytest.approx(0.003)
    path.write_text(json.dumps({"my/model": {"input_cost_per_token": "cheap"}}))
    with pytest.raises(ValueError, match="my/model"):
        load_price_file(path)


@pytest.mark.parametrize(
    ("text", "field", "shown"),
    [
        ('{"m": {"input_cost_per_token": 1e308, "output_cost_per_token": 0}}', "input_cost_per_token", "1e+308"),
        ('{"m": {"input_cost_per_token": 1e-6, "output_cost_per_token": 1e999}}', "output_cost_per_token", "inf"),
        ('{"m": {"input_cost_per_token": NaN, "output_cost_per_token": 0}}', "input_cost_per_token", "nan"),
        ('{"m": {"input_cost_per_token": Infinity, "output_cost_per_token": 0}}', "input_cost_per_token", "inf"),
        ('{"m": {"input_cost_per_token": -2e-6, "output_cost_per_token": 1e-6}}', "input_cost_per_token", "-2e-06"),
        ('{"m": {"input_cost_per_token": true, "output_cost_per_token": 0}}', "input_cost_per_token", "True"),
    ],
)
def test_a_price_must_be_finite_non_negative_and_bounded(tmp_path: Path, text: str, field: str, shown: str) -> None:
    path = tmp_path / "prices.json"
    path.write_text(text)
    with pytest.raises(ValueError, match=rf"prices.json: model .m.: {field} must be .*, got {re.escape(shown)}$"):
        load_price_file(path)
