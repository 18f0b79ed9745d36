"""A real redis-server for the shared-cache tests: Debian's `redis-server` on 127.0.0.1, on a free port, in
a temporary folder, stopped with its test (and killed by the kernel if pytest itself dies first).

Where redis-server is not installed the tests skip and say why, unless HARNESS_REQUIRE_REDIS=1 (CI sets it:
there they must run, so they fail).
"""

from __future__ import annotations

import os
import shutil
import socket
import subprocess
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest


@dataclass
class RedisServer:
    process: subprocess.Popen[bytes]
    port: int
    password: str | None = None

    def url(self, db: int = 0, password: str | None = None) -> str:
        secret = password if password is not None else self.password
        auth = f":{secret}@" if secret else ""
        return f"redis://{auth}127.0.0.1:{self.port}/{db}"

    def client(self, db: int = 0) -> Any:
        import redis

        return redis.Redis(host="127.0.0.1", port=self.port, db=db, password=self.password, socket_timeout=5)

    def stop(self) -> None:
        if self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(timeout=5)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def redis_executable() -> str:
    """redis-server's path, or skip (fail under HARNESS_REQUIRE_REDIS=1) with the reason."""
    found = shutil.which("redis-server")
    if found is None:
        reason = "the shared-cache tests need Debian's redis-server (apt-get install redis-server)"
        if os.environ.get("HARNESS_REQUIRE_REDIS") == "1":
            pytest.fail(f"{reason}, and HARNESS_REQUIRE_REDIS=1 is set")
        pytest.skip(reason)
    return found


@contextmanager
def running_redis(folder: Path, *extra: str, password: str | None = None) -> Iterator[RedisServer]:
    """A redis-server of its own; it stops when the block ends, even on failure."""
    from harness.processes import die_with_parent

    executable = redis_executable()
    folder.mkdir(parents=True, exist_ok=True)
    parent = os.getpid()
    port = free_port()
    args = [executable, "--port", str(port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no"]
    args += ["--dir", str(folder), "--daemonize", "no", "--loglevel", "warning", *extra]
    if password:
        args += ["--requirepass", password]
    process = subprocess.Popen(
        args, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, preexec_fn=lambda: die_with_parent(parent)
    )
    server = RedisServer(process, port, password)
    try:
        deadline = time.monotonic() + 10
        while True:
            try:
                server.client().ping()
                break
            except Exception:
                if process.poll() is not None or time.monotonic() > deadline:
                    raise RuntimeError(f"redis-server did not start on port {port}") from None
                time.sleep(0.02)
        yield server
    finally:
        server.stop()


@pytest.fixture
def redis_server(tmp_path: Path) -> Iterator[RedisServer]:
    with running_redis(tmp_path / "redis") as server:
        yield server
