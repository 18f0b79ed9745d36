"""Hooks the harness offers to other plugins."""

from __future__ import annotations

from typing import Any

import pytest


@pytest.hookspec
def pytest_harness_report(config: pytest.Config, run: dict[str, Any]) -> None:
    """Called in the controller once a run's reports are written.

    `run` is the content of results.json (plain JSON values, schema in docs/report-schema.md) with an extra
    key "report_dir" naming where the files are. Use it to upload results, post a PR comment or gate a build.
    """
