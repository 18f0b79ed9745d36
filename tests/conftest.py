"""Shared fixtures: a real OpenAI-compatible stub server on 127.0.0.1, and a way to run pytest on a
throw-away project that uses the installed harness plugin."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from helpers import Project
from redis_fixture import redis_server  # noqa: F401 (a real redis-server for the shared-cache tests)

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


_BWRAP: list[str | None] = []


def pytest_runtest_setup(item: pytest.Item) -> None:
    """Tests that need bubblewrap skip where it cannot run, saying why; CI (HARNESS_REQUIRE_BWRAP=1) fails them."""
    if item.get_closest_marker("needs_bwrap") is None:
        return
    import os

    from harness.sandbox import bwrap_problem

    if not _BWRAP:
        _BWRAP.append(bwrap_problem())
    if _BWRAP[0] is not None:
        if os.environ.get("HARNESS_REQUIRE_BWRAP") == "1":
            pytest.fail(f"bubblewrap is required here (HARNESS_REQUIRE_BWRAP=1): {_BWRAP[0]}")
        pytest.skip(f"the sandbox needs bubblewrap: {_BWRAP[0]}")


@pytest.fixture
def project(tmp_path: Path) -> Project:
    """An empty project (its own rootdir, so the repository's settings do not leak in)."""
    (tmp_path / "pytest.ini").write_text("[pytest]\n", encoding="utf-8")
    return Project(tmp_path)


def _descendants(root: int) -> dict[int, str]:
    """Living descendants of `root` (pid -> command line), from /proc."""
    parents: dict[int, int] = {}
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
            except (OSError, IndexError):
                continue
            if fields[0] != "Z":
                parents[int(entry.name)] = int(fields[1])
    found, todo = {}, [root]
    while todo:
        parent = todo.pop()
        for pid, ppid in parents.items():
            if ppid == parent and pid not in found:
                try:
                    found[pid] = (Path(f"/proc/{pid}/cmdline").read_bytes().replace(b"\0", b" ").decode()).strip()
                except OSError:
                    continue
                todo.append(pid)
    return found


def pytest_sessionfinish(session: pytest.Session, exitstatus: int) -> None:
    """Every process a test starts ends with its test: anything still running now is a leak, named here,
    killed, and fails the run."""
    import contextlib
    import os
    import signal
    import time

    if not Path("/proc").is_dir():
        return

    # multiprocessing's resource tracker belongs to this process (a library started it) and ends with it.
    def leftovers() -> dict[int, str]:
        return {p: c for p, c in _descendants(os.getpid()).items() if "multiprocessing.resource_tracker" not in c}

    deadline = time.monotonic() + 3
    left = leftovers()
    while left and time.monotonic() < deadline:
        time.sleep(0.1)
        left = leftovers()
    if not left:
        return
    for pid in left:
        with contextlib.suppress(OSError):
            os.kill(pid, signal.SIGKILL)
    reporter = session.config.pluginmanager.getplugin("terminalreporter")
    lines = [f"{len(left)} process(es) outlived the tests that started them (now killed):"]
    lines += [f"  pid {pid}: {command[:200]}" for pid, command in left.items()]
    if reporter is not None:
        reporter.write_line("\n".join(lines), red=True)
    session.exitstatus = pytest.ExitCode.TESTS_FAILED
