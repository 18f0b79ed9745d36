"""The embedded model's own process (harness.local.service): a native crash ends calls, never pytest.

The model process is killed for real (SIGSEGV, what a build for the wrong CPU dies of) while it serves
calls: the calls it was serving end as `[local]` errors, it is started again once, the run completes, and
nothing already answered or scored is lost.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.request
from pathlib import Path
from typing import Any

import pytest

pytestmark = pytest.mark.slow
REPO = Path(__file__).resolve().parents[1]


def _ask(service: Any, content: str, max_tokens: int = 8, timeout: float = 120) -> tuple[int, dict[str, Any]]:
    endpoint = service.endpoint
    body = {"model": "smollm2", "messages": [{"role": "user", "content": content}], "max_tokens": max_tokens}
    request = urllib.request.Request(
        f"{endpoint.url}/v1/chat/completions",
        data=json.dumps(body).encode(),
        headers={"Authorization": f"Bearer {endpoint.token}", "Content-Type": "application/json"},
    )
    try:
        with urllib.request.urlopen(request, timeout=timeout) as response:
            return response.status, json.loads(response.read())
    except urllib.error.HTTPError as exc:
        return exc.code, json.loads(exc.read() or b"{}")


def _wait_for_pid(service: Any, other_than: int | None = None, timeout: float = 60) -> int:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        pid = service.pid
        if pid is not None and pid != other_than:
            return pid
        time.sleep(0.05)
    raise AssertionError("the model process did not start")


def test_a_killed_model_process_fails_its_calls_and_is_restarted_once() -> None:
    from harness.local.service import LocalModelService

    service = LocalModelService(engines=1)
    try:
        assert service.pid is None  # nothing starts before the first call
        status, reply = _ask(service, "Hi")
        assert status == 200 and reply["object"] == "chat.completion"
        first = _wait_for_pid(service)

        # A long generation is in flight when the process dies.
        outcome: list[tuple[int, dict[str, Any]]] = []
        caller = threading.Thread(target=lambda: outcome.append(_ask(service, "Tell a long story.", 400)))
        caller.start()
        time.sleep(0.5)
        os.kill(first, signal.SIGSEGV)
        caller.join(60)
        status, reply = outcome[0]
        assert status == 503
        assert reply["error"]["type"] == "local_model_stopped"
        assert "the embedded model stopped (signal 11: SIGSEGV)" in reply["error"]["message"]
        assert "started again" in reply["error"]["message"]

        # The next call starts a new process and is answered.
        status, reply = _ask(service, "Hi again")
        assert status == 200, reply
        second = _wait_for_pid(service, other_than=first)
        assert service.deaths == ["signal 11: SIGSEGV"]

        # A second death is final: no third process, and every later call says why at once.
        os.kill(second, signal.SIGKILL)
        deadline = time.monotonic() + 10
        while len(service.deaths) < 2 and time.monotonic() < deadline:
            time.sleep(0.05)
        status, reply = _ask(service, "Hi once more")
        assert status == 503
        assert "already restarted once" in reply["error"]["message"]
        assert service.pid is None
    finally:
        service.close()
    assert not _alive(first) and not _alive(second)


def test_a_process_that_dies_while_starting_is_reported_and_not_restarted() -> None:
    from harness.local.service import LocalModelService

    crashing = [sys.executable, "-c", "import os, signal, sys; os.kill(os.getpid(), signal.SIGILL)"]
    service = LocalModelService(engines=1, command=crashing)
    try:
        for _ in range(2):
            status, reply = _ask(service, "Hi")
            assert status == 503
            assert "stopped (signal 4: SIGILL) while starting" in reply["error"]["message"]
            assert "cannot run on this CPU" in reply["error"]["message"]
        assert service.deaths == ["signal 4: SIGILL"]
    finally:
        service.close()


def test_the_model_process_ends_with_the_process_that_started_it(tmp_path: Path) -> None:
    """Even when its owner is killed outright (no close(), no atexit), the model process does not linger."""
    script = (
        "import sys, time, json, urllib.request\n"
        "from harness.local.service import LocalModelService\n"
        "service = LocalModelService(engines=1)\n"
        "e = service.endpoint\n"
        "body = json.dumps({'model': 'smollm2', 'messages': [{'role': 'user', 'content': 'Hi'}], 'max_tokens': 2})\n"
        "req = urllib.request.Request(e.url + '/v1/chat/completions', data=body.encode(),\n"
        "    headers={'Authorization': 'Bearer ' + e.token, 'Content-Type': 'application/json'})\n"
        "urllib.request.urlopen(req, timeout=120).read()\n"
        "print(service.pid, flush=True)\n"
        "time.sleep(600)\n"
    )
    owner = subprocess.Popen([sys.executable, "-c", script], cwd=REPO, stdout=subprocess.PIPE, text=True)
    try:
        assert owner.stdout is not None
        child = int(owner.stdout.readline())
        assert _alive(child)
        owner.kill()
        owner.wait(10)
        deadline = time.monotonic() + 10
        while _alive(child) and time.monotonic() < deadline:
            time.sleep(0.05)
        assert not _alive(child)
    finally:
        if owner.poll() is None:
            owner.kill()


def _alive(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().split(")")[-1].split()[0]
    except OSError:
        return False
    return state != "Z"


def _descendants(pid: int) -> list[int]:
    children: dict[int, list[int]] = {}
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            parent = int((entry / "stat").read_text().split(")")[-1].split()[1])
        except (OSError, IndexError, ValueError):
            continue
        children.setdefault(parent, []).append(int(entry.name))
    found, todo = [], [pid]
    while todo:
        for child in children.get(todo.pop(), []):
            found.append(child)
            todo.append(child)
    return found


def _model_process(root: int) -> int | None:
    for pid in _descendants(root):
        try:
            if b"harness.local.server" in Path(f"/proc/{pid}/cmdline").read_bytes():
                return pid
        except OSError:
            continue
    return None


def test_a_run_survives_its_model_process_dying_mid_run(tmp_path: Path) -> None:
    """pytest with two xdist workers on the embedded model; the model process gets SIGSEGV mid-run."""
    lines = ["suite: long", "defaults: {kind: qa, version: 1, scoring: {method: contains}}", "tasks:"]
    for i in range(10):
        lines += [
            f"  - id: story-{i}",
            f"    inputs: {{prompt: 'Write a long story about a lighthouse keeper, part {i}.'}}",
            "    ground_truth: {answer: lighthouse}",
        ]
    (tmp_path / "evals" / "long").mkdir(parents=True)
    (tmp_path / "evals" / "long" / "tasks.yaml").write_text("\n".join(lines) + "\n")
    args = [sys.executable, "-m", "pytest", "evals", "-n", "2", "-p", "no:cacheprovider", "--max-tokens", "200"]
    run = subprocess.Popen(args, cwd=tmp_path, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    try:
        deadline = time.monotonic() + 120
        model = None
        while model is None and time.monotonic() < deadline and run.poll() is None:
            model = _model_process(run.pid)
            time.sleep(0.2)
        assert model is not None, "the run never started its model process"
        time.sleep(4)  # some items are answered, others are being generated
        os.kill(model, signal.SIGSEGV)
        output, _ = run.communicate(timeout=600)
    finally:
        if run.poll() is None:
            run.kill()
    assert run.returncode in (0, 1), output[-3000:]
    assert "INTERNALERROR" not in output and "crashed" not in output.lower(), output[-3000:]
    (results_file,) = (tmp_path / "reports").glob("*/results.json")
    results = json.loads(results_file.read_text())["results"]
    assert len(results) == 10  # every item is in the report
    stopped = [r for r in results if r["error"] and r["error"]["kind"] == "local"]
    assert stopped, [r["error"] for r in results]
    assert all("the embedded model stopped (signal 11: SIGSEGV)" in r["error"]["message"] for r in stopped)
    assert all(r["error"] is None or r in stopped for r in results)
    assert any(r["score"] is not None for r in results)  # the restarted process answered the rest
    assert "[local] the embedded model stopped (signal 11: SIGSEGV)" in output
    assert "stopped during the run (signal 11: SIGSEGV)" in output  # the run's warning

    # Nothing already answered is lost: replaying from the cache scores those items the same.
    scored = {r["task_id"]: r["score"] for r in results if r["score"] is not None}
    replay = subprocess.run(
        [*args[:3], "-p", "no:cacheprovider", "--max-tokens", "200", "--cache-mode", "replay"],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=600,
    )
    second = max((tmp_path / "reports").glob("*/results.json"), key=lambda p: p.parent.name)
    again = {r["task_id"]: r["score"] for r in json.loads(second.read_text())["results"]}
    assert {k: again[k] for k in scored} == scored, replay.stdout[-2000:]
    assert not _servers_of(run.pid), "a model process outlived its run"


def _servers_of(parent: int) -> list[int]:
    """Model processes started for `parent` (their --parent), wherever they are in the process tree now."""
    found = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit() and _alive(int(entry.name)):
            try:
                words = (entry / "cmdline").read_bytes().split(b"\0")
            except OSError:
                continue
            if b"harness.local.server" in words and f"{parent}".encode() in words:
                found.append(int(entry.name))
    return found
