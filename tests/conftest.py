"""Shared fixtures: a real OpenAI-compatible stub server on 127.0.0.1, and a way to run pytest on a
throw-away project that uses the installed harness plugin."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from helpers import Project

from harness.testing import StubProcess, start_stub


@pytest.fixture(scope="session")
def stub() -> Iterator[StubProcess]:
    server = start_stub()
    yield server
    server.stop()


@pytest.fixture
def fresh_stub() -> Iterator[StubProcess]:
    """A stub of this test's own, for tests that change its behaviour or count its requests."""
    server = start_stub()
    yield server
    server.stop()


@pytest.fixture
def project(tmp_path: Path) -> Project:
    """An empty project (its own rootdir, so the repository's settings do not leak in)."""
    (tmp_path / "pytest.ini").write_text("[pytest]\n", encoding="utf-8")
    return Project(tmp_path)
