"""harness.result: an item's details made plain JSON, or a located error."""

from __future__ import annotations

import pytest


def test_details_that_are_not_json_make_an_internal_error_not_a_crash() -> None:
    import numpy as np

    from harness.result import plain_json

    assert plain_json({"a": (np.int32(2), np.float64(0.5)), 3: [np.bool_(True)]}) == {"a": [2, 0.5], "3": [True]}
    with pytest.raises(ValueError, match=r"details.sentences\[1\]"):
        plain_json({"sentences": [1.0, float("nan")]}, "details")
    with pytest.raises(ValueError, match="object"):
        plain_json({"x": object()})
