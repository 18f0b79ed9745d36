"""Every call the gateway forwards is recorded on its item, even when the item's agent has ended: an agent
that exits, or is stopped at its time limit, with calls in flight has them paid and cached, so its item
waits for them, and its records, its cost and the cache agree."""

from __future__ import annotations

import json
import sys

import pytest
from helpers import Project, stub_args

from harness.testing import StubProcess

CALLS = 10
PRICE = 0.001  # dollars a token, input and output: the stub's calls cost something countable

# Starts CALLS gateway calls at once, waits until they are on their way, then leaves without their replies.
IMPATIENT = """
import json, os, sys, threading, time, urllib.request
task = json.load(sys.stdin)
def call(i):
    body = json.dumps({{"model": "m", "messages": [
        {{"role": "user", "content": task["prompt"] + " (draft " + str(i) + ")"}}]}}).encode()
    request = urllib.request.Request(os.environ["OPENAI_BASE_URL"] + "/chat/completions", data=body,
                                     headers={{"Authorization": "Bearer " + os.environ["OPENAI_API_KEY"],
                                               "Content-Type": "application/json"}})
    try:
        urllib.request.urlopen(request, timeout=60).read()
    except Exception:
        pass
for i in range({calls}):
    threading.Thread(target=call, args=(i,), daemon=True).start()
time.sleep(0.6)
if {hang}:
    time.sleep(120)  # stopped at its time limit
print(json.dumps({{"answer": "Paris"}}), flush=True)
os._exit(0)  # its calls still in flight
"""


@pytest.mark.parametrize("how", ["exits", "is stopped at its time limit"])
def test_calls_in_flight_when_the_agent_ends_are_recorded_on_its_item(
    project: Project, fresh_stub: StubProcess, how: str
) -> None:
    project.copy_sample()
    prices = project.write("prices.json", json.dumps(
        {"openai/stub-sut": {"input_cost_per_token": PRICE, "output_cost_per_token": PRICE}}
    ))  # fmt: skip
    hang = how != "exits"
    agent = project.write("agent/impatient.py", IMPATIENT.format(calls=CALLS, hang=hang))
    fresh_stub.control(latency_s=2.5)
    common = [*stub_args(fresh_stub), "-k", "capital-france", "--sandbox", "none", "--price-file", str(prices),
              "--agent-timeout", "1.5", "--agent-cmd", f"{sys.executable} {agent}"]  # fmt: skip
    out = project.pytest("evals/sample", *common)
    (result,) = out.results.values()
    paid = fresh_stub.stats()["requests"]
    assert paid == CALLS, out.stdout[-2000:]
    sut = [c for c in result["calls"] if c["namespace"] == "sut"]
    assert len(sut) == CALLS and all(not c["cache_hit"] and c["cost_usd"] > 0 for c in sut), result["calls"]
    cost = sum(c["cost_usd"] for c in sut)
    assert result["usage"]["calls"] == CALLS and result["usage"]["cost_usd"] == pytest.approx(cost)
    assert out.run["totals"]["cost_usd"] == pytest.approx(cost) and cost > 0
    if hang:
        assert result["error"]["fault"] == "system" and "did not finish within 1.5 s" in result["error"]["message"]
    else:
        assert result["error"] is None and result["answer"] == "Paris"
    # the cache holds exactly what the records say was paid: a replay makes no call and misses nothing
    fresh_stub.control(reset_stats=True, latency_s=0)
    replay = project.pytest("evals/sample", *common, "--cache-mode", "replay")
    (again,) = replay.results.values()
    assert fresh_stub.stats()["requests"] == 0
    assert (again["error"] or {}).get("kind") != "cache-miss", again["error"]
    assert sum(c["namespace"] == "sut" and c["cache_hit"] for c in again["calls"]) == CALLS, again["calls"]
