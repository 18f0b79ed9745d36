"""The model gateway and agents outside the harness: every call an agent makes is the harness's call
(cached, recorded per item, replayable), its tools come over MCP, and nothing an agent does (crash, hang,
garbage, another item's key) stops the run or reaches a provider key."""

from __future__ import annotations

import asyncio
import base64
import json
import shutil
import socket
import struct
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from helpers import REPO, Project, stub_args

from harness.gateway import openai_api
from harness.testing import StubProcess

# -- the wire format, as pure functions ---------------------------------------------------------------


def test_chat_requests_keep_every_setting_and_refuse_unknown_ones() -> None:
    body = {
        "model": "gpt-anything",
        "messages": [{"role": "user", "content": "hi"}],
        "temperature": 0,
        "tools": [{"type": "function", "function": {"name": "f", "parameters": {}}}],
        "response_format": {"type": "json_object"},
        "stream": True,
        "stream_options": {"include_usage": True},
        "user": "someone",
        "metadata": {"run": "x"},
    }
    messages, settings, stream, usage = openai_api.chat_call(body)
    assert settings == {"temperature": 0, "tools": body["tools"], "response_format": {"type": "json_object"}}
    assert stream and usage and messages == body["messages"]
    with pytest.raises(openai_api.BadRequest, match=r"unsupported parameter.*frobnicate"):
        openai_api.chat_call({**body, "frobnicate": 1})
    with pytest.raises(openai_api.BadRequest, match="'n' must be 1"):
        openai_api.chat_call({**body, "n": 2})
    with pytest.raises(openai_api.BadRequest, match="messages"):
        openai_api.chat_call({"messages": [{"role": "wizard", "content": "x"}]})


def test_a_reply_is_written_back_whole_and_as_a_stream() -> None:
    reply = {
        "content": None,
        "tool_calls": [{"id": "call_1", "name": "search", "arguments": '{"q": "x"}'}],
        "finish_reason": "tool_calls",
        "input_tokens": 7,
        "output_tokens": 3,
    }
    body = openai_api.completion_body(reply, "m", 1)
    assert body["choices"][0]["message"]["tool_calls"][0]["function"] == {"name": "search", "arguments": '{"q": "x"}'}
    assert body["usage"] == {"prompt_tokens": 7, "completion_tokens": 3, "total_tokens": 10}
    events = openai_api.completion_chunks(reply, "m", 1, include_usage=True)
    assert events[-1] == "data: [DONE]\n\n"
    chunks = [json.loads(e[len("data: ") :]) for e in events[:-1]]
    assert chunks[1]["choices"][0]["delta"]["tool_calls"][0]["index"] == 0
    assert chunks[-2]["choices"][0]["finish_reason"] == "tool_calls" and chunks[-1]["usage"]["total_tokens"] == 10
    assert openai_api.completion_id(reply) == body["id"] == chunks[0]["id"]  # stable: a replay is the same


def test_embeddings_in_base64_are_little_endian_float32() -> None:
    texts, dimensions, encoding = openai_api.embedding_call({"input": "one", "encoding_format": "base64"})
    assert texts == ["one"] and dimensions is None
    body = openai_api.embedding_body([[0.5, -1.0]], "e", 2, encoding)
    assert struct.unpack("<2f", base64.b64decode(body["data"][0]["embedding"])) == (0.5, -1.0)
    with pytest.raises(openai_api.BadRequest):
        openai_api.embedding_call({"input": [[1, 2, 3]]})


@pytest.mark.parametrize("dimensions", [0, -3, 10**9, 2.5, True, "256"])
def test_embedding_dimensions_are_bounded(dimensions: object) -> None:
    """A reply's size is inputs x dimensions: 10**9 dimensions must never reach a provider or the encoder."""
    with pytest.raises(openai_api.BadRequest, match="from 1 to"):
        openai_api.embedding_call({"input": "one", "dimensions": dimensions})
    assert openai_api.embedding_call({"input": "one", "dimensions": 256})[1] == 256


# -- a Python agent through the gateway, with the real OpenAI SDK --------------------------------------

SDK_AGENT = """
import json
from openai import OpenAI

def agent(prompt, gateway, task):
    client = OpenAI(base_url=gateway.base_url, api_key=gateway.api_key, max_retries=0)
    first = client.chat.completions.create(model="gpt-whatever", messages=[{"role": "user", "content": prompt}])
    stream = client.chat.completions.create(
        model="gpt-whatever",
        messages=[{"role": "user", "content": "again: " + prompt}],
        stream=True,
        stream_options={"include_usage": True},
        extra_headers={"X-Harness-Stage": "second-look"},
    )
    streamed = "".join(chunk.choices[0].delta.content or "" for chunk in stream if chunk.choices)
    vectors = client.embeddings.create(model="any-embedder", input=["alpha", "beta"])
    schema = {"type": "object", "properties": {"city": {"type": "string"}}, "required": ["city"]}
    shaped = client.chat.completions.create(
        model="gpt-whatever",
        messages=[{"role": "user", "content": "as JSON: " + prompt}],
        response_format={"type": "json_schema", "json_schema": {"name": "city", "schema": schema}},
    )
    lookup = {"type": "function", "function": {"name": "lookup", "parameters": {"type": "object", "properties": {}}}}
    called = client.chat.completions.create(
        model="gpt-whatever", messages=[{"role": "user", "content": "use the tool: " + prompt}], tools=[lookup]
    )
    call = called.choices[0].message.tool_calls[0]
    parts = [
        first.choices[0].message.content,
        streamed,
        f"{len(vectors.data)}x{len(vectors.data[0].embedding)}",
        ",".join(sorted(json.loads(shaped.choices[0].message.content))),
        f"{call.function.name}{call.function.arguments}",
    ]
    return " | ".join(parts)
"""


def test_an_sdk_agent_is_cached_recorded_per_item_and_replayed(project: Project, fresh_stub: StubProcess) -> None:
    project.copy_sample()
    project.write("sdk_agent.py", SDK_AGENT)
    fresh_stub.control(
        answers={"capital of France": "Paris", "capital of Japan": "Tokyo"},
        tool_calls={"use the tool": [{"name": "lookup", "arguments": {"q": "capital"}}]},
    )
    args = [*stub_args(fresh_stub), "-k", "capital", "--agent", "sdk_agent:agent"]
    first = project.pytest("evals/sample", *args)
    results = first.results
    assert {r["outcome"] for r in results.values()} == {"passed"}, first.stdout[-2000:]
    france = next(r for r in results.values() if "france" in r["nodeid"])
    assert france["answer"] == 'Paris | Paris | 2x8 | city | lookup{"q": "capital"}'
    assert [(c["namespace"], c["stage"]) for c in france["calls"]] == [
        ("sut", "sut"),
        ("sut", "second-look"),  # the agent's own label for its call
        ("embed", "embed"),
        ("sut", "sut"),
        ("sut", "sut"),
    ]
    assert all(c["model"] == "openai/stub-sut" for c in france["calls"][:2])  # --model, whatever was asked
    fresh_stub.control(reset_stats=True)
    replay = project.pytest("evals/sample", *args, "--cache-mode", "replay")
    assert {k: r["answer"] for k, r in replay.results.items()} == {k: r["answer"] for k, r in results.items()}
    assert all(c["cache_hit"] for r in replay.results.values() for c in r["calls"])
    assert fresh_stub.stats()["requests"] == 0


def test_a_replay_miss_behind_the_gateway_is_a_cache_miss_not_an_agent_crash(
    project: Project, fresh_stub: StubProcess
) -> None:
    project.copy_sample()
    project.write("sdk_agent.py", SDK_AGENT)
    out = project.pytest(
        "evals/sample",
        *stub_args(fresh_stub),
        "-k",
        "capital-france",
        "--agent",
        "sdk_agent:agent",
        "--cache-mode",
        "replay",
    )
    (result,) = out.results.values()
    assert result["outcome"] == "error" and result["error"]["kind"] == "cache-miss"


def test_a_setting_the_cache_could_not_cover_is_refused(project: Project, fresh_stub: StubProcess) -> None:
    project.copy_sample()
    project.write(
        "odd_agent.py",
        """
        from openai import OpenAI

        def agent(prompt, gateway):
            client = OpenAI(base_url=gateway.base_url, api_key=gateway.api_key, max_retries=0)
            reply = client.chat.completions.create(
                model="m", messages=[{"role": "user", "content": prompt}], extra_body={"frobnicate": 1}
            )
            return reply.choices[0].message.content
        """,
    )
    out = project.pytest("evals/sample", *stub_args(fresh_stub), "-k", "capital-france", "--agent", "odd_agent:agent")
    (result,) = out.results.values()
    # the agent sent a setting the gateway refuses (400): its call failed, so did it (score 0, the reason kept)
    assert result["outcome"] == "failed" and result["score"] == 0.0 and result["error"]["fault"] == "system"
    assert "unsupported parameter(s) frobnicate" in result["error"]["message"]
    assert fresh_stub.stats()["requests"] == 0


# -- command agents: the shell example, and every way a command can go wrong ---------------------------


def test_the_shell_example_answers_through_the_gateway(project: Project, fresh_stub: StubProcess) -> None:
    if not (shutil.which("jq") and shutil.which("curl")):
        pytest.skip("the shell example needs jq and curl")
    project.copy_sample()
    fresh_stub.control(answers={"capital of Japan": "Tokyo"})
    command = f"bash {REPO / 'examples' / 'agent.sh'}"
    out = project.pytest("evals/sample", *stub_args(fresh_stub), "-k", "capital-japan", "--agent-cmd", command)
    (result,) = out.results.values()
    assert result["outcome"] == "passed" and result["answer"] == "Tokyo"
    assert [c["namespace"] for c in result["calls"]] == ["sut"]
    assert out.run["run"]["options"]["agent_cmd"] == command


BAD_AGENTS = {
    "crash": "import sys; print('cannot find my config file', file=sys.stderr); sys.exit(3)",
    "hang": "import sys, time; print('thinking very hard', file=sys.stderr, flush=True); time.sleep(120)",
    "garbage": "import sys; sys.stdout.buffer.write(bytes([0xff, 0xfe, 0x00, 0x9c]) * 20)",
    "json-without-answer": 'print(\'{"result": "Paris"}\')',
    "silent": "pass",
}


@pytest.mark.parametrize(
    ("behaviour", "expected"),
    [
        ("crash", "exited with status 3; stderr ends: cannot find my config file"),
        ("hang", "did not finish within 2 s; stderr ends: thinking very hard"),
        ("garbage", "is not UTF-8 text"),
        ("json-without-answer", 'a JSON object without a string "answer"'),
        ("silent", "is empty"),
    ],
)
def test_a_command_that_goes_wrong_is_an_explicit_error_and_the_run_goes_on(
    project: Project, fresh_stub: StubProcess, behaviour: str, expected: str
) -> None:
    project.copy_sample()
    agent = project.write("agent.py", f"""
        import json, sys
        task = json.load(sys.stdin)
        if task["id"] == "capital-japan":
            print("Tokyo")
            raise SystemExit(0)
        {BAD_AGENTS[behaviour]}
        """)  # fmt: skip
    started = time.monotonic()
    out = project.pytest(
        "evals/sample", *stub_args(fresh_stub), "-k", "capital",
        "--agent-cmd", f"{sys.executable} {agent}", "--agent-timeout", "2",
    )  # fmt: skip
    results = {r["task_id"]: r for r in out.results.values()}
    assert results["capital-japan"]["outcome"] == "passed"  # the other item was not touched
    bad = results["capital-france"]
    assert bad["outcome"] == "failed" and bad["error"]["kind"] == "agent" and bad["score"] == 0.0  # its own failure
    assert expected in bad["error"]["message"], bad["error"]["message"]
    assert time.monotonic() - started < 60


def test_an_agent_is_told_its_item_by_the_name_pytest_gives_it(project: Project, fresh_stub: StubProcess) -> None:
    """One rule names an item for pytest and for the agent: with --repeats 2 the first repeat is `t[r0]` in both."""
    project.copy_sample()
    agent = project.write("agent.py", """
        import json, sys
        print(json.load(sys.stdin)["item"])
        """)  # fmt: skip
    out = project.pytest(
        "evals/sample", *stub_args(fresh_stub), "-k", "capital-japan", "--repeats", "2",
        "--agent-cmd", f"{sys.executable} {agent}",
    )  # fmt: skip
    told = {nodeid.partition("::")[2]: result["answer"] for nodeid, result in out.results.items()}
    assert told == {"capital-japan[r0]": "capital-japan[r0]", "capital-japan[r1]": "capital-japan[r1]"}


SANDBOXES = ["none", pytest.param("bwrap", marks=pytest.mark.needs_bwrap)]


@pytest.mark.parametrize("sandbox", SANDBOXES)
def test_a_hung_agent_is_killed_with_every_process_it_started(
    project: Project, fresh_stub: StubProcess, sandbox: str
) -> None:
    """The agent hangs after starting a daemon (double fork, its own session) that holds a connection open
    to this test: when the item's time is up, every one of its processes ends, and the connection closes."""
    project.copy_sample()
    with socket.socket() as listener:
        listener.bind(("127.0.0.1", 0))
        listener.listen(4)
        port = listener.getsockname()[1]
        agent = project.write("agent.py", f"""
            import os, socket, sys, time
            if os.fork() == 0:
                os.setsid()
                if os.fork() == 0:
                    sock = socket.create_connection(("127.0.0.1", {port}))
                    time.sleep(300)
                os._exit(0)
            time.sleep(300)
            """)  # fmt: skip
        out = project.pytest(
            "evals/sample", *stub_args(fresh_stub), "-k", "capital-france", "--sandbox", sandbox,
            "--agent-cmd", f"{sys.executable} {agent}", "--agent-timeout", "3",
        )  # fmt: skip
        (result,) = out.results.values()
        assert "did not finish within 3 s" in result["error"]["message"]
        listener.settimeout(5)
        connection, _ = listener.accept()  # the daemon did connect
        connection.settimeout(10)
        with connection:
            assert connection.recv(1) == b"", "the agent's daemon outlived its item"


def test_another_items_credential_is_refused(project: Project, fresh_stub: StubProcess, tmp_path: Path) -> None:
    """One item leaves its key behind; another waits until that item has ended, then tries to spend the key:
    the gateway refuses (a key is its item's own and dies with it), that item is an explicit error, and
    nothing was charged to the first. (While both run, a key one agent steals from another cannot be told
    from the owner's: keys are only handed to the item's own process.)"""
    project.copy_sample()
    stash, done = tmp_path / "stolen-key", tmp_path / "owner-finished"
    agent = project.write("agent.py", f"""
        import json, os, sys, time, urllib.error, urllib.request
        from pathlib import Path
        task = json.load(sys.stdin)
        stash, done = Path({str(stash)!r}), Path({str(done)!r})
        try:
            with stash.open("x") as out:  # the first to get here is the owner
                out.write(os.environ["OPENAI_API_KEY"])
            key, owner = os.environ["OPENAI_API_KEY"], True
        except FileExistsError:
            while not done.exists():
                time.sleep(0.05)
            time.sleep(1.0)  # the owner's item has ended by now
            key, owner = stash.read_text(), False
        body = json.dumps({{"model": "m", "messages": [{{"role": "user", "content": task["prompt"]}}]}}).encode()
        request = urllib.request.Request(os.environ["OPENAI_BASE_URL"] + "/chat/completions", data=body,
                                         headers={{"Authorization": "Bearer " + key,
                                                   "Content-Type": "application/json"}})
        try:
            reply = json.load(urllib.request.urlopen(request))
        except urllib.error.HTTPError as exc:
            print(exc.code, exc.read().decode(), file=sys.stderr)
            sys.exit(1)
        print(reply["choices"][0]["message"]["content"])
        if owner:
            done.write_text("done")
        """)  # fmt: skip
    fresh_stub.control(answers={"capital of France": "Paris", "capital of Japan": "Tokyo"})
    out = project.pytest(  # without a sandbox, so that the two items can pass the key through a file
        "evals/sample", *stub_args(fresh_stub), "-k", "capital", "--agent-cmd", f"{sys.executable} {agent}",
        "--sandbox", "none",
    )  # fmt: skip
    results = sorted(out.results.values(), key=lambda r: r["outcome"], reverse=True)
    owner, thief = results
    assert owner["outcome"] == "passed" and len(owner["calls"]) == 1, owner
    assert thief["outcome"] == "failed" and thief["error"]["kind"] == "agent" and thief["calls"] == []
    assert "401" in thief["error"]["message"] and "unknown or expired item credential" in thief["error"]["message"]


@pytest.mark.parametrize("sandbox", SANDBOXES)
def test_no_secret_reaches_the_agent_or_any_file(project: Project, fresh_stub: StubProcess, sandbox: str) -> None:
    """The agent's environment is an allow-list: no provider key, whatever its variable is called, no
    password inside a URL, no cloud credential; and no key lands in any file the run writes."""
    project.copy_sample()
    agent = project.write("agent.py", """
        import json, os, sys, urllib.request
        task = json.load(sys.stdin)
        with open("environment.json", "w") as out:  # in the item's own working directory
            json.dump(dict(os.environ), out)
        body = json.dumps({"model": "m", "messages": [{"role": "user", "content": task["prompt"]}]}).encode()
        request = urllib.request.Request(os.environ["OPENAI_BASE_URL"] + "/chat/completions", data=body,
                                         headers={"Authorization": "Bearer " + os.environ["OPENAI_API_KEY"],
                                                  "Content-Type": "application/json"})
        print(json.load(urllib.request.urlopen(request))["choices"][0]["message"]["content"])
        """)  # fmt: skip
    fresh_stub.control(answers={"capital of France": "Paris"})
    secrets = {
        "MY_PROVIDER_KEY": "pk-live-4c1d0b9e7f2a6c3e8d5b",
        "OPENAI_API_KEY": "sk-test-9a8b7c6d5e4f3a2b1c0d",
        "ODDLY_NAMED": "sk-proj-1f2e3d4c5b6a79881726",
        "JUDGE_SECRET": "js-0f9e8d7c6b5a4f3e2d1c",
        "MY_SERVICE_KEY_2": "svc-77a1b2c3d4e5f6a7b8c9",
        "DATABASE_URL": "postgres://app:hunter2-Zq81vb@db.internal:5432/app",
        "AWS_ACCESS_KEY_ID": "AKIAIOSFODNN7EXAMPLE",
        "AWS_SECRET_ACCESS_KEY": "wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY",
    }
    work = project.root.parent / f"agent-work-{sandbox}"
    out = project.pytest(
        "evals/sample", *stub_args(fresh_stub, "--api-key-env", "MY_PROVIDER_KEY"), "--sandbox", sandbox,
        "--judge-api-key-env", "JUDGE_SECRET", "-k", "capital-france", "--agent-cmd", f"{sys.executable} {agent}",
        "--agent-work", str(work), env=secrets,
    )  # fmt: skip
    (result,) = out.results.values()
    assert result["outcome"] == "passed", result["error"]
    (environment,) = list(work.rglob("environment.json"))
    seen = json.loads(environment.read_text())
    assert seen["OPENAI_API_KEY"].startswith("hk-item-") and seen["OPENAI_BASE_URL"].startswith("http://127.0.0.1:")
    leaked = {name for name in secrets if name != "OPENAI_API_KEY" and name in seen}
    assert not leaked and not any(value in json.dumps(seen) for value in secrets.values())
    assert fresh_stub.stats()["seen_auth"] == ["Bearer pk-live-4c1d0b9e7f2a6c3e8d5b"]  # the key went upstream only
    written = [p for root in (out.report_dir, out.cache_dir) for p in root.rglob("*") if p.is_file()]
    assert written
    for path in written:
        data = path.read_bytes()
        for value in [*secrets.values(), "hunter2-Zq81vb"]:
            assert value.encode() not in data, f"{value} in {path}"


# -- an agent behind a URL ------------------------------------------------------------------------------


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


SERVICE = """
import json, sys, urllib.request
from http.server import BaseHTTPRequestHandler, HTTPServer

class Handler(BaseHTTPRequestHandler):
    def do_POST(self):
        task = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
        if "Japan" in task["prompt"]:
            self.send_response(500); self.end_headers(); self.wfile.write(b"upstream database is down"); return
        gateway = task["gateway"]
        body = json.dumps({"model": "m", "messages": [{"role": "user", "content": task["prompt"]}]}).encode()
        request = urllib.request.Request(gateway["base_url"] + "/chat/completions", data=body,
                                         headers={"Authorization": "Bearer " + gateway["api_key"],
                                                  "Content-Type": "application/json"})
        answer = json.load(urllib.request.urlopen(request))["choices"][0]["message"]["content"]
        out = json.dumps({"answer": answer}).encode()
        self.send_response(200); self.send_header("Content-Type", "application/json"); self.end_headers()
        self.wfile.write(out)

    def log_message(self, *args):
        pass

HTTPServer(("127.0.0.1", int(sys.argv[1])), Handler).serve_forever()
"""


@pytest.fixture
def service(tmp_path: Path) -> Iterator[str]:
    port = _free_port()
    script = tmp_path / "service.py"
    script.write_text(SERVICE)
    process = subprocess.Popen([sys.executable, str(script), str(port)])
    for _ in range(100):
        with socket.socket() as sock:
            if sock.connect_ex(("127.0.0.1", port)) == 0:
                break
        time.sleep(0.05)
    yield f"http://127.0.0.1:{port}/solve"
    process.terminate()
    process.wait(5)


def test_a_service_agent_gets_the_task_and_its_failures_are_explicit(
    project: Project, fresh_stub: StubProcess, service: str
) -> None:
    project.copy_sample()
    fresh_stub.control(answers={"capital of France": "Paris"})
    out = project.pytest("evals/sample", *stub_args(fresh_stub), "-k", "capital", "--agent-url", service)
    results = {r["task_id"]: r for r in out.results.values()}
    assert results["capital-france"]["outcome"] == "passed" and results["capital-france"]["answer"] == "Paris"
    assert [c["namespace"] for c in results["capital-france"]["calls"]] == ["sut"]
    japan = results["capital-japan"]
    assert (
        japan["outcome"] == "failed"
        and "answered HTTP 500; body ends: upstream database is down" in japan["error"]["message"]
    )


def test_one_system_under_test_at_a_time(project: Project, fresh_stub: StubProcess) -> None:
    project.copy_sample()
    out = project.pytest(
        "evals/sample", *stub_args(fresh_stub), "--agent-cmd", "true", "--agent-url", "http://127.0.0.1:1/x"
    )
    assert out.returncode == 4 and "--agent-cmd and --agent-url both name the system under test" in out.stderr


# -- the task's tools over MCP ---------------------------------------------------------------------------

MCP_COMMAND_AGENT = """
import asyncio, json, os, sys

async def main():
    from agents.mcp import MCPServerStdio
    task = json.load(sys.stdin)
    gateway = task["gateway"]
    env = {"HARNESS_TOOLS_URL": os.environ["HARNESS_TOOLS_URL"], "HARNESS_ITEM_TOKEN": os.environ["HARNESS_ITEM_TOKEN"],
           "PATH": os.environ.get("PATH", "")}
    params = {"command": gateway["mcp_stdio"][0], "args": gateway["mcp_stdio"][1:], "env": env}
    async with MCPServerStdio(params=params, name="task-tools") as tools:
        listed = [tool.name for tool in await tools.list_tools()]
        done = await tools.call_tool("calculator", {"expression": "1234 * 5678"})
        print(json.loads(done.content[0].text)["result"])
        print(f"tools: {listed}", file=sys.stderr)

asyncio.run(main())
"""


def test_a_command_agent_uses_the_tasks_tools_over_mcp_stdio(project: Project, fresh_stub: StubProcess) -> None:
    pytest.importorskip("agents")
    project.copy_sample()
    agent = project.write("mcp_agent.py", MCP_COMMAND_AGENT)
    out = project.pytest(
        "evals/sample", *stub_args(fresh_stub), "-k", "calculator-product", "--agent-cmd", f"{sys.executable} {agent}"
    )
    (result,) = out.results.values()
    assert result["outcome"] == "passed", result["error"]
    assert "7006652" in result["answer"] and result["calls"] == []  # a tool, not a model call
    (step,) = result["details"]["trajectory"]  # recorded in the harness, as the tool loop records
    assert step["tool"] == "calculator" and json.loads(step["arguments"]) == {"expression": "1234 * 5678"}


# -- a real agent framework against a real server no one here wrote --------------------------------------


@pytest.fixture
def llama_server(tmp_path: Path) -> Iterator[subprocess.Popen[bytes]]:
    """llama-cpp-python's own OpenAI-compatible server, serving the embedded SmolLM2 on 127.0.0.1."""
    pytest.importorskip("llama_cpp.server")
    from harness.local.chat import gguf_path

    port = _free_port()
    log = (tmp_path / "llama-server.log").open("w")
    process = subprocess.Popen(
        [sys.executable, "-m", "llama_cpp.server", "--model", str(gguf_path()), "--host", "127.0.0.1",
         "--port", str(port), "--n_ctx", "4096", "--chat_format", "chatml-function-calling"],
        stdout=log, stderr=subprocess.STDOUT,
    )  # fmt: skip
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline:
        with socket.socket() as sock:
            if sock.connect_ex(("127.0.0.1", port)) == 0:
                break
        assert process.poll() is None, (tmp_path / "llama-server.log").read_text()[-2000:]
        time.sleep(0.2)
    process.url = f"http://127.0.0.1:{port}/v1"  # type: ignore[attr-defined]
    yield process
    if process.poll() is None:
        process.terminate()
        process.wait(10)


def _recruitment_project(project: Project) -> None:
    shutil.copytree(REPO / "evals" / "recruitment-easy", project.root / "evals" / "recruitment-easy")
    shutil.copytree(
        REPO / "fixtures" / "worlds" / "talent-atlas", project.root / "fixtures" / "worlds" / "talent-atlas"
    )
    shutil.copytree(REPO / "examples", project.root / "examples")


@pytest.mark.slow
def test_the_agents_sdk_example_through_the_gateway_and_mcp_then_a_replay(
    project: Project, llama_server: Any, fresh_stub: StubProcess
) -> None:
    """The OpenAI Agents SDK example answers a world task: its model calls go through the gateway to
    llama-cpp-python's server, its search and open calls through the MCP server. With the server stopped,
    a replay gives the same answers and trajectories with no upstream call."""
    pytest.importorskip("agents")
    _recruitment_project(project)
    selection = ["-k", "p2i-mei-lin-chen or i2p-gpu-rendering"]
    args = [
        "evals/recruitment-easy", *selection, "--model", "openai/smollm2", "--api-base", llama_server.url,
        "--judge-model", "openai/stub-judge", "--judge-api-base", fresh_stub.api_base,
        "--agent", "examples.openai_agents_agent:agent",
    ]  # fmt: skip
    env = {"EXAMPLE_AGENT_FIRST_TOOL": "search", "EXAMPLE_AGENT_TURNS": "3", "EXAMPLE_AGENT_MAX_TOKENS": "120"}
    fresh_stub.control(judge_default={"score": 2})
    first = project.pytest(*args, env=env, timeout=900)
    assert len(first.results) == 2, first.stdout[-3000:]
    for result in first.results.values():
        assert result["outcome"] in ("passed", "failed"), result["error"]
        trajectory = result["details"]["trajectory"]
        assert trajectory and trajectory[0]["tool"] == "search"  # called over MCP, recorded like the tool loop
        assert any(c["namespace"] == "sut" and not c["cache_hit"] for c in result["calls"])
    llama_server.terminate()  # the upstream is gone: a replay must not need it
    llama_server.wait(10)
    replay = project.pytest(*args, "--cache-mode", "replay", env=env, timeout=600)

    def summary(run: Any) -> dict[str, Any]:
        return {k: (r["answer"], r["score"], r["details"]["trajectory"]) for k, r in run.results.items()}

    assert summary(replay) == summary(first)
    assert all(c["cache_hit"] for r in replay.results.values() for c in r["calls"])


# -- hostile requests: the gateway's own fields win, and a bad body is a 400 that says why --------------------


def _gateway_replies(stub: StubProcess, requests: list[tuple[str, bytes]]) -> list[tuple[int, dict[str, Any]]]:
    """Start a gateway in this process (upstream: the stub), send raw bodies with an item's key, read back."""
    import urllib.error
    import urllib.request

    from harness.cache import CacheMode, CallCache
    from harness.gateway import Gateway
    from harness.llm.client import ClientSettings, LLMClient
    from harness.llm.endpoint import Endpoint

    async def go() -> list[tuple[int, dict[str, Any]]]:
        client = LLMClient(ClientSettings(retries=0), CallCache(Path("/nonexistent"), CacheMode.OFF))
        gateway = Gateway(
            client, Endpoint("openai/stub-sut", stub.api_base), Endpoint("openai/stub-embed", stub.api_base)
        )
        await gateway.start()
        session = gateway.open_session(item="x", task_version=1, repeat=0, records=[], tools=[], stage=None)
        access = gateway.access(session)

        def send(path: str, body: bytes) -> tuple[int, dict[str, Any]]:
            request = urllib.request.Request(
                f"{access.base_url}/{path}", data=body,
                headers={"Authorization": f"Bearer {access.api_key}", "Content-Type": "application/json"},
            )  # fmt: skip
            try:
                with urllib.request.urlopen(request, timeout=60) as response:
                    return response.status, json.loads(response.read())
            except urllib.error.HTTPError as exc:
                return exc.code, json.loads(exc.read() or b"{}")

        try:
            return [await asyncio.to_thread(send, path, body) for path, body in requests]
        finally:
            await gateway.close()
            await client.close()

    return asyncio.run(go())


def test_an_agent_can_neither_choose_the_model_nor_break_the_gateway(fresh_stub: StubProcess) -> None:
    chat = lambda extra: json.dumps(  # noqa: E731
        {"model": "m", "messages": [{"role": "user", "content": "hi"}], **extra}
    ).encode()
    deep = b'{"model": "m", "messages": [{"role": "user", "content": "hi"}], "extra_body": ' + b"[" * 100_000
    deep += b"]" * 100_000 + b"}"
    # deep enough to break a recursive walk, shallow enough for json.loads: inside the messages this time
    nested = json.dumps({"role": "user", "content": [{"type": "text", "text": "hi"}]})
    for _ in range(900):
        nested = '{"role": "user", "content": [' + nested + "]}"
    nested_body = ('{"model": "m", "messages": [' + nested + "]}").encode()
    replies = _gateway_replies(
        fresh_stub,
        [
            ("chat/completions", chat({"extra_body": {"model": "openai/expensive-model"}})),
            ("chat/completions", chat({"extra_body": {"messages": []}})),
            ("chat/completions", chat({"extra_body": "model=openai/expensive-model"})),
            ("chat/completions", deep),
            ("embeddings", json.dumps({"model": "e", "input": ["same text"] * 100_000}).encode()),
            # OpenRouter's model choice, a priced service tier, a stored completion: none is a sampling field
            ("chat/completions", chat({"extra_body": {"models": ["openai/gpt-5"], "route": "fallback"}})),
            ("chat/completions", chat({"extra_body": {"service_tier": "priority"}})),
            ("chat/completions", chat({"extra_body": {"store": True}})),
            ("chat/completions", nested_body),
            ("chat/completions", chat({"extra_body": {"top_k": 40}})),  # a provider's own field: fine
        ],
    )
    statuses = [status for status, _ in replies]
    assert statuses == [400] * 9 + [200], replies
    messages = [body.get("error", {}).get("message", "") for _, body in replies]
    assert "extra_body may not set model" in messages[0] and "extra_body may not set messages" in messages[1]
    assert "extra_body must be a JSON object" in messages[2]
    assert "nests too deeply" in messages[3] and "nests too deeply" in messages[8]
    assert "at most 2048 per request" in messages[4]
    assert "may not set models, route" in messages[5] and "service_tier" in messages[6] and "store" in messages[7]
    # what went upstream, as the provider saw it: --model, with the agent's sampling field and nothing more
    (upstream,) = fresh_stub.stats()["ok_requests"]
    assert upstream["model"] == "stub-sut" and upstream["top_k"] == 40
    assert not {"models", "route", "service_tier", "store", "extra_body"} & set(upstream)


CHUNKED_SERVICE = r"""
import json, sys, time
from http.server import BaseHTTPRequestHandler, HTTPServer

class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    def do_POST(self):
        task = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
        if "France" in task["prompt"]:
            parts = [b'{"answer": "The final', b' answer is Paris"}']
        else:
            parts = [b"x" * (5 * 2**20), b"y" * (5 * 2**20)]  # 10 MiB in all
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Transfer-Encoding", "chunked")
        self.end_headers()
        for part in parts:
            self.wfile.write(b"%x\r\n%s\r\n" % (len(part), part))
            self.wfile.flush()
            time.sleep(0.2)
        self.wfile.write(b"0\r\n\r\n")

    def log_message(self, *args):
        pass

HTTPServer(("127.0.0.1", int(sys.argv[1])), Handler).serve_forever()
"""


def test_a_service_answer_is_read_to_its_end_and_refused_past_the_cap(
    project: Project, fresh_stub: StubProcess, tmp_path: Path
) -> None:
    port = _free_port()
    script = tmp_path / "chunked.py"
    script.write_text(CHUNKED_SERVICE)
    process = subprocess.Popen([sys.executable, str(script), str(port)])
    try:
        for _ in range(100):
            with socket.socket() as sock:
                if sock.connect_ex(("127.0.0.1", port)) == 0:
                    break
            time.sleep(0.05)
        project.copy_sample()
        out = project.pytest(
            "evals/sample", *stub_args(fresh_stub), "-k", "capital", "--agent-url", f"http://127.0.0.1:{port}/"
        )
    finally:
        process.terminate()
        process.wait(5)
    results = {r["task_id"]: r for r in out.results.values()}
    assert results["capital-france"]["answer"] == "The final answer is Paris"  # both chunks
    japan = results["capital-japan"]
    assert japan["score"] == 0.0 and "answered more than 8 MiB" in japan["error"]["message"]
