"""Test helpers that are useful to harness users too: a real OpenAI-compatible stub server."""

from __future__ import annotations

import json
import subprocess
import sys
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any


@dataclass
class StubProcess:
    """A stub server running in its own process on 127.0.0.1."""

    process: subprocess.Popen[str]
    port: int

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    @property
    def api_base(self) -> str:
        return f"{self.url}/v1"

    def stats(self) -> dict[str, Any]:
        with urllib.request.urlopen(f"{self.url}/_stats", timeout=10) as response:
            return json.loads(response.read())

    def control(self, **changes: Any) -> None:
        data = json.dumps(changes).encode()
        request = urllib.request.Request(
            f"{self.url}/_control", data=data, headers={"Content-Type": "application/json"}
        )
        with urllib.request.urlopen(request, timeout=10) as response:
            response.read()

    def stop(self) -> None:
        self.process.terminate()
        try:
            self.process.wait(timeout=5)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()


def start_stub(**config: Any) -> StubProcess:
    """Start the stub with any StubConfig fields (latency_s, fault_rate, answers, ...) and wait until ready.
    It ends with this process, even if stop() is never called (a crashed test run leaves no stub behind)."""
    import os

    process = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "harness.testing.stub_server",
            "--config",
            json.dumps(config),
            "--parent",
            str(os.getpid()),
        ],
        stdout=subprocess.PIPE,
        text=True,
    )
    assert process.stdout is not None
    line = process.stdout.readline()
    if not line.startswith("PORT "):
        process.kill()
        raise RuntimeError(f"the stub server did not start (said {line!r})")
    return StubProcess(process, int(line.split()[1]))


@contextmanager
def running_stub(**config: Any) -> Iterator[StubProcess]:
    stub = start_stub(**config)
    try:
        yield stub
    finally:
        stub.stop()
