"""Refuse before paying: each common mistake is one line and exit 4, and no request reaches the stub."""

from __future__ import annotations

import socket

import pytest
from helpers import Project, stub_args

from harness.testing import StubProcess

TASKS = """
suite: pre
defaults: {kind: qa, version: 1, scoring: {method: contains}}
tasks:
  - id: capital
    inputs: {prompt: "What is the capital of France?"}
    ground_truth: {answer: "Paris"}
  - id: judged
    inputs: {prompt: "What do bees make?"}
    ground_truth: {answer: "honey"}
    scoring: {method: judge}
"""
NO_KEYS = {"OPENAI_API_KEY": None, "ANTHROPIC_API_KEY": None, "NOT_SET_KEY": None}


def _closed_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def _with(args: list[str], option: str, value: str) -> list[str]:
    """`args` with `option`'s value replaced (stub_args names every endpoint)."""
    out = list(args)
    out[out.index(option) + 1] = value
    return out


def _refused(project: Project, stub: StubProcess, *args: str) -> str:
    """Run, expect exit 4 with one line of error, and no request at the stub; return that line."""
    project.write("evals/pre/tasks.yaml", TASKS)
    out = project.pytest(*args, env=NO_KEYS)
    assert out.returncode == 4, (out.returncode, out.stdout[-2000:], out.stderr[-2000:])
    stats = stub.stats()
    assert stats["requests"] == 0, stats  # nothing paid for
    errors = [line for line in out.stderr.splitlines() if line.startswith("ERROR:")]
    assert len(errors) == 1 and "Traceback" not in out.stderr, out.stderr
    assert not (project.report_dir / "LATEST").exists()  # no run was written
    return errors[0]


def test_a_mistyped_provider(project: Project, fresh_stub: StubProcess) -> None:
    args = _with(stub_args(fresh_stub), "--model", "opneai/stub-sut")
    line = _refused(project, fresh_stub, "evals", *args)
    assert "--model opneai/stub-sut" in line and "litellm knows no provider 'opneai'" in line
    assert "openai/" in line  # the near miss is suggested


def test_an_unset_api_key_env(project: Project, fresh_stub: StubProcess) -> None:
    line = _refused(project, fresh_stub, "evals", *stub_args(fresh_stub), "--api-key-env", "NOT_SET_KEY")
    assert "--api-key-env NOT_SET_KEY: the variable is not set" in line


def test_a_missing_provider_key(project: Project, fresh_stub: StubProcess) -> None:
    args = stub_args(fresh_stub)
    args = args[: args.index("--api-base")] + args[args.index("--api-base") + 2 :]
    args = _with(args, "--model", "openai/gpt-4.1-mini")
    line = _refused(project, fresh_stub, "evals", *args)
    assert "OPENAI_API_KEY is not set" in line and "--model openai/gpt-4.1-mini" in line


def test_an_unreachable_api_base(project: Project, fresh_stub: StubProcess) -> None:
    args = _with(stub_args(fresh_stub), "--api-base", f"http://127.0.0.1:{_closed_port()}/v1")
    line = _refused(project, fresh_stub, "evals", *args)
    assert "--api-base http://127.0.0.1:" in line and "does not answer" in line


def test_a_refused_key(project: Project, fresh_stub: StubProcess) -> None:
    fresh_stub.control(required_key="the-right-key")
    project.write("evals/pre/tasks.yaml", TASKS)
    out = project.pytest("evals", *stub_args(fresh_stub), "--api-key-env", "STUB_KEY", env={"STUB_KEY": "wrong"})
    assert out.returncode == 4 and "--api-base" in out.stderr and "refused the key (HTTP 401)" in out.stderr
    assert fresh_stub.stats()["requests"] == 0
    assert "wrong" not in out.stderr  # the key itself is never printed


def test_a_missing_judge_key_before_the_system_is_called(project: Project, fresh_stub: StubProcess) -> None:
    args = stub_args(fresh_stub)
    args = args[: args.index("--judge-api-base")] + args[args.index("--judge-api-base") + 2 :]
    args = _with(args, "--judge-model", "anthropic/claude-sonnet-4-5")
    line = _refused(project, fresh_stub, "evals", *args)
    assert "--judge-model anthropic/claude-sonnet-4-5: ANTHROPIC_API_KEY is not set" in line


def test_a_missing_price_file(project: Project, fresh_stub: StubProcess) -> None:
    line = _refused(project, fresh_stub, "evals", *stub_args(fresh_stub), "--price-file", "no-such-prices.json")
    assert "--price-file no-such-prices.json" in line and "cannot read the price file" in line


def test_max_cost_with_a_model_without_a_price(project: Project, fresh_stub: StubProcess) -> None:
    line = _refused(project, fresh_stub, "evals", *stub_args(fresh_stub), "--max-cost", "1")
    assert "--max-cost $1 cannot bind openai/stub-embed, openai/stub-judge, openai/stub-sut" in line
    assert "--price-file" in line and "--allow-unpriced" in line
    fresh_stub.control(default_answer="Paris", judge_default={"grade": "correct"})
    accepted = project.pytest("evals", *stub_args(fresh_stub), "--max-cost", "1", "--allow-unpriced", env=NO_KEYS)
    assert accepted.returncode == 0, accepted.stdout[-2000:]


def test_a_mistyped_agent_script(project: Project, fresh_stub: StubProcess) -> None:
    project.write("agent.py", "import sys, json; json.load(sys.stdin); print('Paris')\n")
    line = _refused(project, fresh_stub, "evals", *stub_args(fresh_stub), "--agent-cmd", "python3 agnet.py")
    assert "the script agnet.py does not exist" in line
    line = _refused(project, fresh_stub, "evals", *stub_args(fresh_stub), "--agent-cmd", "pyhton3 agent.py")
    assert "no program 'pyhton3' on PATH" in line


def test_an_invalid_regex_is_found_at_collection(project: Project, fresh_stub: StubProcess) -> None:
    project.write(
        "evals/pre/tasks.yaml",
        """
        suite: pre
        defaults: {kind: qa, version: 1}
        tasks:
          - id: year
            inputs: {prompt: "When did the Berlin Wall fall?"}
            ground_truth: {answer: "19(89"}
            scoring: {method: regex}
        """,
    )
    ran = project.pytest("evals", *stub_args(fresh_stub), env=NO_KEYS)
    assert ran.returncode == 1 and fresh_stub.stats()["requests"] == 0
    line = "evals/pre/tasks.yaml:4: task 'year': field 'ground_truth.answer': '19(89' is not a valid regular"
    assert line in ran.stdout, ran.stdout[-2000:]
    (result,) = ran.run["results"]
    assert result["error"]["kind"] == "invalid-task" and line in result["error"]["message"]


def test_a_replayed_run_needs_no_keys(project: Project, fresh_stub: StubProcess) -> None:
    fresh_stub.control(required_key="k", default_answer="Paris honey", judge_default={"grade": "correct"})
    project.write("evals/pre/tasks.yaml", TASKS)
    keyed = [*stub_args(fresh_stub), "--api-key-env", "STUB_KEY", "--judge-api-key-env", "STUB_KEY",
             "--embedding-api-key-env", "STUB_KEY"]  # fmt: skip
    first = project.pytest("evals", *keyed, env={"STUB_KEY": "k"})
    assert first.returncode == 0, first.stdout[-2000:]
    paid = fresh_stub.stats()["requests"]
    again = project.pytest("evals", *keyed, "--cache-mode", "replay", env={"STUB_KEY": None})
    assert again.returncode == 0, (again.stdout[-2000:], again.stderr[-1000:])
    assert fresh_stub.stats()["requests"] == paid


def test_each_endpoint_is_checked_once(project: Project, fresh_stub: StubProcess) -> None:
    fresh_stub.control(default_answer="Paris honey", judge_default={"grade": "correct"})
    project.write("evals/pre/tasks.yaml", TASKS)
    out = project.pytest("evals", *stub_args(fresh_stub), env=NO_KEYS)
    assert out.returncode == 0, out.stdout[-2000:]
    assert fresh_stub.stats()["model_lists"] == 1  # the system's, the judge's and the embeddings' one server


@pytest.mark.parametrize("mode", ["estimate", "collect-only"])
def test_runs_that_call_nothing_check_no_endpoint(project: Project, fresh_stub: StubProcess, mode: str) -> None:
    project.write("evals/pre/tasks.yaml", TASKS)
    args = _with(stub_args(fresh_stub), "--api-base", f"http://127.0.0.1:{_closed_port()}/v1")
    out = project.pytest("evals", *args, f"--{mode}", env=NO_KEYS)
    assert out.returncode == 0, (out.stdout[-2000:], out.stderr[-2000:])


def test_only_an_openai_compatible_endpoint_is_judged_on_its_key(fresh_stub: StubProcess) -> None:
    """Another provider's API (behind --api-base on the litellm route) may want its key another way: a 401 to
    our Bearer header there says only that the server answers."""
    from harness.preflight import probe

    fresh_stub.control(required_key="right")
    assert "refused the key (HTTP 401)" in (probe(fresh_stub.api_base, "wrong") or "")
    assert probe(fresh_stub.api_base, "right") is None
    assert probe(fresh_stub.api_base, "wrong", openai=False) is None
    assert fresh_stub.stats()["requests"] == 0 and fresh_stub.stats()["model_lists"] == 3
