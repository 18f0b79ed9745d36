"""Items never share what is theirs: a working folder per item of the run (suite, task, variant, repeat),
and a gateway socket per process (each xdist worker serves its own gateway), never in a folder a task's
name can reach."""

from __future__ import annotations

import json
import sys

import pytest
from helpers import Project, stub_args

from harness.testing import StubProcess

# Leaves a mark in its working folder, waits for the other items to do the same, then reports what it finds.
MARKER = """
import json, os, sys, time
task = json.load(sys.stdin)
mine = task["task"]["suite"] + "/" + task["id"]
with open("marker", "w") as handle:
    handle.write(mine)
time.sleep(1.5)
seen = open("marker").read()
print(json.dumps({"answer": json.dumps({"mine": mine, "seen": seen, "files": sorted(os.listdir("."))})}))
"""

TASKS = """
suite: {suite}
defaults: {{kind: qa, version: 1, scoring: {{method: contains}}}}
tasks:
  - id: t
    inputs: {{prompt: "Name the river that runs through {city}."}}
    ground_truth: {{answer: "{river}"}}
  - id: {odd}
    inputs: {{prompt: "Which sea lies east of {city}?"}}
    ground_truth: {{answer: "{sea}"}}
"""


def _two_suites(project: Project) -> None:
    """Two suites with the same two task ids."""
    project.write("evals/rivers/tasks.yaml", TASKS.format(suite="rivers", city="Budapest", river="Danube",
                                                          odd="east-sea", sea="Black Sea"))  # fmt: skip
    project.write("evals/cities/tasks.yaml", TASKS.format(suite="cities", city="Cologne", river="Rhine",
                                                          odd="east-sea", sea="North Sea"))  # fmt: skip


@pytest.mark.parametrize("sandbox", ["none", pytest.param("bwrap", marks=pytest.mark.needs_bwrap)])
def test_two_suites_with_the_same_task_id_never_share_a_working_folder(
    project: Project, stub: StubProcess, sandbox: str
) -> None:
    _two_suites(project)
    agent = project.write("agent/marker.py", MARKER)
    work = project.root.parent / f"work-{sandbox}"
    out = project.pytest(
        "evals", *stub_args(stub), "--sandbox", sandbox, "--agent-work", str(work),
        "--agent-cmd", f"{sys.executable} {agent}",
    )  # fmt: skip
    results = out.results
    assert len(results) == 4, out.stdout[-2000:]
    for result in results.values():
        assert result["error"] is None, result["error"]
        seen = json.loads(result["answer"])
        assert seen["seen"] == seen["mine"] and seen["files"] == ["marker", "tmp"], seen
    folders = sorted(p.name for p in work.iterdir())
    assert len(folders) == 4 and sum(name.startswith("rivers.t-") for name in folders) == 1, folders


GATEWAY_CALLER = """
import json, os, sys, urllib.request
task = json.load(sys.stdin)
body = json.dumps({"model": "m", "messages": [{"role": "user", "content": task["prompt"]}]}).encode()
request = urllib.request.Request(os.environ["OPENAI_BASE_URL"] + "/chat/completions", data=body,
                                 headers={"Authorization": "Bearer " + os.environ["OPENAI_API_KEY"],
                                          "Content-Type": "application/json"})
reply = json.load(urllib.request.urlopen(request, timeout=60))
print(json.dumps({"answer": reply["choices"][0]["message"]["content"]}))
"""


@pytest.mark.needs_bwrap
def test_each_worker_serves_its_own_gateway_socket_even_with_a_shared_work_folder(
    project: Project, fresh_stub: StubProcess
) -> None:
    """`-n 2 --agent-work DIR --agent-network gateway`: both workers' items reach their own worker's gateway
    (a shared socket sent one worker's items to the other's gateway: HTTP 401), and a task named
    `gateway.sock` is an item like any other."""
    project.write("evals/ports/tasks.yaml", """
        suite: ports
        defaults: {kind: qa, version: 1, scoring: {method: contains}}
        tasks:
          - {id: gateway.sock, inputs: {prompt: "Which port city sits at the mouth of the Elbe?"},
             ground_truth: {answer: "Cuxhaven"}}
          - {id: rotterdam, inputs: {prompt: "On which river delta is Rotterdam?"}, ground_truth: {answer: "Rhine"}}
          - {id: gdansk, inputs: {prompt: "Which river reaches the sea at Gdansk?"}, ground_truth: {answer: "Vistula"}}
          - {id: marseille, inputs: {prompt: "Which sea does Marseille face?"}, ground_truth: {answer: "Mediterranean"}}
          - {id: antwerp, inputs: {prompt: "On which river is Antwerp?"}, ground_truth: {answer: "Scheldt"}}
          - {id: hamburg, inputs: {prompt: "On which river is Hamburg?"}, ground_truth: {answer: "Elbe"}}
    """)  # fmt: skip
    agent = project.write("agent/caller.py", GATEWAY_CALLER)
    work = project.root.parent / "work-shared"
    out = project.pytest(
        "evals", *stub_args(fresh_stub), "-n", "2", "-v", "--agent-network", "gateway", "--agent-work", str(work),
        "--agent-cmd", f"{sys.executable} {agent}",
    )  # fmt: skip
    results = out.results
    assert len(results) == 6, out.stdout[-3000:]
    for result in results.values():
        assert result["error"] is None, (result["nodeid"], result["error"])
        assert len(result["calls"]) == 1, result["nodeid"]
    assert not any(p.suffix == ".sock" or p.name == "gateway.sock" for p in work.rglob("*")), "no socket in DIR"
    assert "[gw0]" in out.stdout and "[gw1]" in out.stdout, "both workers ran items"


def test_agent_env_never_hands_the_agent_the_runs_own_provider_key(project: Project, fresh_stub: StubProcess) -> None:
    """`--agent-env OPENAI_API_KEY` with --model openai/..., or a copy of that key under another name: one
    line, exit 4, before any call; a credential of the agent's own passes."""
    project.copy_sample()
    key = "sk-run-own-0123456789abcdef"
    env = {"OPENAI_API_KEY": key, "COPY_OF_IT": key, "SEARCH_TOKEN": "st-agent-own-987654321"}
    common = ["evals/sample", *stub_args(fresh_stub), "-k", "capital-france", "--sandbox", "none",
              "--agent-cmd", "echo Paris"]  # fmt: skip
    for name, how in (("OPENAI_API_KEY", "names"), ("COPY_OF_IT", "holds a copy of")):
        out = project.pytest(*common, "--agent-env", name, env=env)
        assert out.returncode == 4, out.stdout[-2000:]
        assert f"--agent-env {name} {how} one of the run's own provider keys" in out.stderr
        assert key not in out.stdout + out.stderr
    assert fresh_stub.stats()["requests"] == 0
    own = project.pytest(*common, "--agent-env", "SEARCH_TOKEN", env=env)
    (result,) = own.results.values()
    assert result["error"] is None and result["answer"] == "Paris"
