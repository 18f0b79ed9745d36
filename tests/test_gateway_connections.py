"""An agent cannot exhaust the harness's file descriptors (harness.gateway.connections): a thousand idle
connections to the gateway, with the harness held to 1,024 open files, and the other items still reach
the gateway, the run stays complete, and the log says so once."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from helpers import Project, stub_args

from harness.gateway.connections import ConnectionGate, Notices, connection_cap
from harness.testing import StubProcess

DESCRIPTORS = 1024

# The item `capital-france` opens as many idle connections to the gateway as its own limit allows and holds
# them; the other items wait a moment, then make one ordinary call.
AGENT = """
import json, os, socket, sys, time, urllib.error, urllib.parse, urllib.request
task = json.load(sys.stdin)
url = urllib.parse.urlsplit(os.environ["OPENAI_BASE_URL"])
if task["id"] == "capital-france":
    held = []
    for _ in range(1100):
        try:
            held.append(socket.create_connection((url.hostname, url.port), timeout=5))
        except OSError:
            break
    sys.stderr.write(f"holding {len(held)} connections\\n")
    time.sleep(10)
    print(json.dumps({"answer": "Paris"}))
    sys.exit(0)
time.sleep(2)
body = json.dumps({"model": "m", "messages": [{"role": "user", "content": task["prompt"]}]}).encode()
request = urllib.request.Request(os.environ["OPENAI_BASE_URL"] + "/chat/completions", data=body,
                                 headers={"Authorization": "Bearer " + os.environ["OPENAI_API_KEY"],
                                          "Content-Type": "application/json"})
reply = json.load(urllib.request.urlopen(request, timeout=4))  # long before the idle ones are let go
print(json.dumps({"answer": reply["choices"][0]["message"]["content"]}))
"""

LIMITED = (
    "import os, resource, sys; resource.setrlimit(resource.RLIMIT_NOFILE, ({n}, {n})); "
    "os.execv(sys.executable, [sys.executable, '-m', 'pytest', *sys.argv[1:]])"
)


def test_a_thousand_idle_connections_do_not_exhaust_the_harness(project: Project, fresh_stub: StubProcess) -> None:
    project.copy_sample()
    agent = project.write("agent/hog.py", AGENT)
    fresh_stub.control(answers={"capital of Japan": "Tokyo", "largest": "Jupiter"})
    args = project.command(
        "evals/sample/facts.yaml", *stub_args(fresh_stub), "-k", "capital or largest", "--sandbox", "none",
        "--agent-cmd", f"{sys.executable} {agent}",
    )[3:]  # fmt: skip
    env = {k: v for k, v in os.environ.items() if not k.startswith("PYTEST_")}
    done = subprocess.run(
        [sys.executable, "-c", LIMITED.format(n=DESCRIPTORS), *args],
        cwd=project.root, capture_output=True, text=True, env=env, timeout=300,
    )  # fmt: skip
    run_id = (project.report_dir / "LATEST").read_text().strip()
    run = json.loads((project.report_dir / run_id / "results.json").read_text())
    results = {r["task_id"]: r for r in run["results"]}
    assert set(results) == {"capital-france", "capital-japan", "largest-planet"}, done.stdout[-2000:]
    assert results["capital-france"]["error"] is None
    for task in ("capital-japan", "largest-planet"):
        assert results[task]["error"] is None, results[task]["error"]
        assert len(results[task]["calls"]) == 1
    assert run["totals"]["errors"] == 0
    log = done.stdout + done.stderr
    assert "Too many open files" not in log and "Traceback" not in log, log[-3000:]
    assert sum("model gateway closed idle connections" in line for line in log.splitlines()) <= 2, log[-3000:]
    assert any("model gateway closed idle connections" in w for w in run["run"]["warnings"]), run["run"]["warnings"]
    assert len(log.splitlines()) < 200


class _Transport:
    def __init__(self) -> None:
        self.aborted = False
        self.written = b""

    def write(self, data: bytes) -> None:
        self.written += data

    def close(self) -> None:
        self.aborted = True

    def abort(self) -> None:
        self.aborted = True


def test_at_its_cap_the_gate_closes_the_oldest_idle_connection_or_refuses() -> None:
    assert connection_cap(1024) == 256 and connection_cap(300) == 16 and connection_cap(10**6) == 4096
    notices = Notices()
    gate = ConnectionGate(2, notices)
    first, second, third, fourth = (object() for _ in range(4))
    transports = [_Transport() for _ in range(4)]
    assert gate.admit(first, transports[0]) and gate.admit(second, transports[1])
    gate.active(second)  # it sent its request
    assert gate.admit(third, transports[2]) and transports[0].aborted  # the idle one made room
    assert not gate.release(first)  # already forgotten when it was closed
    gate.active(third)
    assert transports[0].written.startswith(b"HTTP/1.1 503") and b"closed this idle connection" in transports[0].written
    assert not gate.admit(fourth, transports[3]) and not transports[1].aborted  # all busy: refused
    assert sorted(notices.counts.items()) == [("evicted", 1), ("refused", 1)]
    assert len(notices.summary()) == 2  # one line per cause


# Sends 80 calls at once and reports how each ended.
FLOOD = """
import json, os, sys, threading, urllib.error, urllib.request
task = json.load(sys.stdin)
statuses, reasons = [], []
def call(i):
    body = json.dumps({"model": "m", "messages": [{"role": "user", "content": f"{task['prompt']} ({i})"}]}).encode()
    request = urllib.request.Request(os.environ["OPENAI_BASE_URL"] + "/chat/completions", data=body,
                                     headers={"Authorization": "Bearer " + os.environ["OPENAI_API_KEY"],
                                              "Content-Type": "application/json"})
    try:
        urllib.request.urlopen(request, timeout=120).read()
        statuses.append(200)
    except urllib.error.HTTPError as exc:
        statuses.append(exc.code)
        reasons.append(json.load(exc)["error"]["message"])
threads = [threading.Thread(target=call, args=(i,)) for i in range(80)]
for t in threads:
    t.start()
for t in threads:
    t.join()
print(json.dumps({"answer": json.dumps({"ok": statuses.count(200), "refused": statuses.count(429),
                                        "reason": reasons[:1]})}))
"""


def test_an_item_has_at_most_its_share_of_calls_in_flight(project: Project, fresh_stub: StubProcess) -> None:
    from harness.gateway.connections import MAX_CALLS_PER_ITEM

    project.copy_sample()
    agent = project.write("agent/flood.py", FLOOD)
    fresh_stub.control(latency_s=1.0)
    out = project.pytest("evals/sample", *stub_args(fresh_stub), "-k", "capital-france", "--sandbox", "none",
                         "--concurrency", "64", "--agent-cmd", f"{sys.executable} {agent}")  # fmt: skip
    (result,) = out.results.values()
    seen = json.loads(result["answer"])
    assert seen["ok"] + seen["refused"] == 80 and seen["ok"] >= MAX_CALLS_PER_ITEM and seen["refused"] >= 1, seen
    assert "calls in flight, the most the gateway allows one item" in seen["reason"][0]
    assert len(result["calls"]) == seen["ok"] == fresh_stub.stats()["requests"]


# Inside a sandbox without a network: holds 150 connections to the gateway, counts those turned away, lets
# them go, then makes one ordinary call.
HOARDER = """
import json, os, socket, sys, time, urllib.parse, urllib.request
task = json.load(sys.stdin)
url = urllib.parse.urlsplit(os.environ["OPENAI_BASE_URL"])
held = [socket.create_connection((url.hostname, url.port), timeout=5) for _ in range(150)]
refused, reason = 0, ""
time.sleep(2)  # the refusals arrive at once; the held connections stay silent
for connection in held:
    connection.setblocking(False)
    try:
        data = connection.recv(4096)
    except BlockingIOError:
        continue
    if data.startswith(b"HTTP/1.1 503"):
        refused += 1
        reason = json.loads(data.split(b"\\r\\n\\r\\n", 1)[1])["error"]["message"]
for connection in held:
    connection.close()
body = json.dumps({"model": "m", "messages": [{"role": "user", "content": task["prompt"]}]}).encode()
request = urllib.request.Request(os.environ["OPENAI_BASE_URL"] + "/chat/completions", data=body,
                                 headers={"Authorization": "Bearer " + os.environ["OPENAI_API_KEY"],
                                          "Content-Type": "application/json"})
for attempt in range(40):  # the gateway learns of the closed connections as it reads them: on a loaded
    try:                    # machine that can lag the close by a moment, as any client's retry allows for
        reply = json.load(urllib.request.urlopen(request, timeout=60))
        break
    except urllib.error.HTTPError as exc:
        if exc.code != 503 or attempt == 39:
            raise
        time.sleep(0.25)
print(json.dumps({"answer": json.dumps({"refused": refused, "reason": reason,
                                        "reply": reply["choices"][0]["message"]["content"]})}))
"""


@pytest.mark.needs_bwrap
def test_without_a_network_an_item_holds_at_most_its_share_of_connections(
    project: Project, fresh_stub: StubProcess
) -> None:
    from harness.gateway.connections import MAX_CONNECTIONS_PER_ITEM

    project.copy_sample()
    agent = project.write("agent/hoarder.py", HOARDER)
    fresh_stub.control(answers={"capital of France": "Paris"})
    out = project.pytest("evals/sample", *stub_args(fresh_stub), "-k", "capital-france", "--agent-network", "gateway",
                         "--agent-cmd", f"{Path(sys.executable).resolve()} {agent}")  # fmt: skip
    (result,) = out.results.values()
    assert result["error"] is None, result["error"]
    seen = json.loads(result["answer"])
    assert seen["refused"] == 150 - MAX_CONNECTIONS_PER_ITEM and seen["reply"] == "Paris", seen
    assert f"this item holds {MAX_CONNECTIONS_PER_ITEM} connections to the gateway" in seen["reason"]
    assert any("one item's share" in w for w in out.run["run"]["warnings"]), out.run["run"]["warnings"]
