"""What the plugin keeps for one run, in `config.stash`."""

from __future__ import annotations

import datetime as dt
import secrets
from dataclasses import dataclass, field
from typing import Any

import pytest

from harness.settings import Settings


def new_run_id() -> str:
    """Sortable and unique: the UTC start time plus a few random characters."""
    now = dt.datetime.now(dt.UTC)
    return f"{now:%Y%m%dT%H%M%S}{now.microsecond // 1000:03d}Z-{secrets.token_hex(3)}"


@dataclass
class RunState:
    run_id: str
    started_at: float
    finished_at: float | None = None
    total_items: int = 0
    results: list[dict[str, Any]] = field(default_factory=list)
    tables: list[dict[str, Any]] | None = None  # computed once when the run is written, shown by the terminal
    warnings: list[str] = field(default_factory=list)  # found during the run (besides the settings' own)
    runner: Any = None  # harness.runner.Runner, built on first use
    progress: Any = None  # harness.progress.Progress in the controller
    comparison: dict[str, Any] | None = None  # against --baseline, once the run is written
    local_model: Any = None  # harness.local.service.LocalModelService, in the process that owns the run
    local_endpoint: Any = None  # where this process sends the embedded model's calls (LocalEndpoint)
    sandbox: str | None = None  # how command agents run (harness.sandbox), for the header
    prewarm: Any = None  # the thread importing the HTTP client (harness.plugin), joined before exit
    resume: Any = None  # harness.resume.Resume: the interrupted run this one finishes (--resume)
    incomplete: dict[str, Any] | None = None  # why the run did not finish (harness.resume), once it ends

    def add_result(self, result: dict[str, Any]) -> None:
        self.results.append(result)


SETTINGS = pytest.StashKey[Settings]()
RUN_STATE = pytest.StashKey[RunState]()
