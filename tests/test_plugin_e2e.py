"""The plugin end to end: real pytest runs of task files against the stub server."""

from __future__ import annotations

import json
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest
from helpers import WRONG_ON_PURPOSE, Project, judge_rules, sample_answers, stub_args

from harness.testing import StubProcess


@pytest.fixture
def sample_stub(fresh_stub: StubProcess) -> StubProcess:
    fresh_stub.control(
        answers=sample_answers(),
        tool_calls={
            "Use the calculator to compute 1234 * 5678": {
                "name": "calculator",
                "arguments": {"expression": "1234 * 5678"},
            }
        },
        judge_rules=judge_rules(),
        judge_default={"grade": "incorrect"},
    )
    return fresh_stub


def outcomes(run: dict[str, Any]) -> dict[str, tuple[str, float | None]]:
    return {r["nodeid"]: (r["outcome"], r["score"]) for r in run["results"]}


@pytest.mark.parametrize("workers", [[], ["-n", "2"], ["-n", "8"]], ids=["one-process", "xdist-2", "xdist-8"])
def test_sample_suite_end_to_end(project: Project, sample_stub: StubProcess, workers: list[str]) -> None:
    project.copy_sample()
    junit = project.root / "junit.xml"
    out = project.pytest("evals", *stub_args(sample_stub), f"--junitxml={junit}", *workers)
    assert out.returncode == 1, out.stdout[-3000:]  # some tasks fail on purpose
    run = out.run
    results = out.results
    assert len(results) == 24
    failed = {nodeid.split("::")[1] for nodeid, (outcome, _) in outcomes(run).items() if outcome == "failed"}
    assert failed == WRONG_ON_PURPOSE
    assert all(r["outcome"] != "error" for r in results.values())
    calc = results["evals/sample/arithmetic.yaml::calculator-product"]
    assert calc["score"] == 100 and calc["details"]["trajectory"][0]["tool"] == "calculator"
    judged = results["evals/sample/judged.yaml::photosynthesis"]
    assert judged["judge_levels"] == {"grade": {"openai/stub-judge": "correct"}}
    assert [c["namespace"] for c in judged["calls"]] == ["sut", "judge"]
    assert results["evals/sample/judged.yaml::spider-legs"]["judge_levels"] == {
        "grade": {"openai/stub-judge": "incorrect"}
    }
    assert run["totals"]["items"] == 24 and run["totals"]["failed"] == 3
    assert run["suites"]["sample"]["mean_score"] == pytest.approx(100 * 21 / 24)
    assert run["run"]["options"]["model"] == "openai/stub-sut" and run["run"]["harness_version"]
    report_dir = out.report_dir / run["run"]["run_id"]
    summary = (report_dir / "summary.md").read_text()
    assert "| sample | 24 | 87.5 |" in summary and "| 87.5% | 21 | 3 | 0 |" in summary
    assert "harness scores" in out.stdout and "sample" in out.stdout
    xml = junit.read_text()
    assert 'name="harness_score" value="100.0"' in xml
    if workers:
        assert len({r["worker"] for r in results.values()}) >= 2


def comparable_results(run: dict[str, Any]) -> dict[str, Any]:
    """Everything a result says about the task, minus what may differ between processes (who ran it,
    timings, whether a call was shared with another item)."""
    out = {}
    for r in run["results"]:
        calls = [
            {k: c[k] for k in ("namespace", "stage", "model", "key", "input_tokens", "output_tokens")}
            for c in r["calls"]
        ]
        kept = {k: v for k, v in r.items() if k not in ("worker", "latency_s", "calls", "usage")}
        if isinstance(kept.get("system"), dict):  # the system's own calls and cost, but not their timing
            kept["system"] = {k: v for k, v in kept["system"].items() if "latency" not in k}
        out[r["nodeid"]] = {**kept, "calls": sorted(calls, key=lambda c: c["key"])}
    return out


def test_xdist_and_single_process_give_the_same_results(project: Project, sample_stub: StubProcess) -> None:
    """The process layout must not change a result: answers, scores, judge levels, call keys and tokens."""
    project.copy_sample()
    single = project.pytest("evals", *stub_args(sample_stub), "--cache-mode", "off").run
    double = project.pytest("evals", *stub_args(sample_stub), "--cache-mode", "off", "-n", "2").run
    assert {r["worker"] for r in double["results"]} == {"gw0", "gw1"}
    assert comparable_results(single) == comparable_results(double)
    assert single["tables"] == double["tables"] and single["suites"] == double["suites"]


def test_selection_options_behave_like_pytest(project: Project, sample_stub: StubProcess) -> None:
    project.copy_sample()
    judged = project.pytest("evals", *stub_args(sample_stub), "-m", "judged")
    assert len(judged.results) == 8
    by_name = project.pytest("evals", *stub_args(sample_stub), "-k", "capital")
    assert sorted(by_name.results) == [
        "evals/sample/facts.yaml::capital-france",
        "evals/sample/facts.yaml::capital-japan",
    ]
    tools = project.pytest("evals", *stub_args(sample_stub), "-m", "tools and not judged")
    assert len(tools.results) == 2
    first_fail = project.pytest("evals", *stub_args(sample_stub), "-x")
    assert "stopping after 1 failures" in first_fail.stdout
    assert len(first_fail.results) < 24


def test_last_failed_reruns_only_the_failures(project: Project, sample_stub: StubProcess) -> None:
    project.copy_sample()
    args = ["evals", *stub_args(sample_stub), "-p", "cacheprovider"]
    project.pytest(*args)
    again = project.pytest(*args, "--lf")
    assert {n.split("::")[1] for n in again.results} == WRONG_ON_PURPOSE


def test_malformed_files_give_located_errors_and_the_rest_runs(project: Project, sample_stub: StubProcess) -> None:
    project.copy_sample()
    project.write(
        "evals/bad/missing_id.yaml",
        """
        tasks:
          - kind: qa
            version: 1
            inputs: {prompt: "What is the capital of France? Answer in one word."}
            ground_truth: {answer: Paris}
    """,
    )
    project.write(
        "evals/bad/duplicate.yaml",
        """
        defaults: {kind: qa, version: 1, ground_truth: {answer: Paris}}
        tasks:
          - id: same
            inputs: {prompt: "What is the capital of France? Answer in one word."}
          - id: same
            inputs: {prompt: "What is the capital of France? Answer in one word."}
    """,
    )
    project.write(
        "evals/bad/wrong_type.yaml",
        """
        tasks:
          - id: typed
            kind: qa
            version: "first"
            inputs: {prompt: hello}
            ground_truth: {answer: x}
    """,
    )
    project.write("evals/bad/syntax.yaml", "tasks:\n  - id: a\n    inputs: {prompt: [unclosed\n")
    out = project.pytest("evals", *stub_args(sample_stub))
    text = out.stdout
    expected = [
        "evals/bad/missing_id.yaml:2: tasks[0] field 'id': required field is missing",
        "evals/bad/duplicate.yaml:5: duplicate task id 'same' (first defined at line 3)",
        "evals/bad/wrong_type.yaml:4: task 'typed' field 'version': Input should be a valid integer",
        "evals/bad/syntax.yaml:4: YAML syntax error",
    ]
    for line in expected:
        assert line in text, f"missing {line!r} in output:\n{text[-4000:]}"
    results = out.results
    assert sum(r["outcome"] == "error" for r in results.values()) == 4
    assert sum(r["outcome"] == "passed" for r in results.values()) == 21 + 1  # the first "same" runs
    assert "evals/bad/duplicate.yaml::same" in results
    assert "errors" in text.splitlines()[-1] or "error" in text.splitlines()[-1]
    assert "Interrupted" not in text


def test_faults_end_as_results_or_errors_and_a_rerun_completes_without_repaying(
    project: Project, sample_stub: StubProcess
) -> None:
    project.copy_sample()
    sample_stub.control(fault_rate=0.2, seed=7, hang_s=2.0)
    args = ["evals", *stub_args(sample_stub), "--call-retries", "0", "--call-timeout", "0.5"]
    first = project.pytest(*args, timeout=120)
    results = first.results
    assert len(results) == 24
    errors = [r for r in results.values() if r["outcome"] == "error"]
    assert errors, "20 % faults with no retries must produce errors"
    kinds = [(r["error"]["kind"], r["error"]["message"][:200]) for r in errors]
    assert all(kind == "provider" and message for kind, message in kinds), kinds
    paid_first = sample_stub.stats()["ok_bodies"]
    sample_stub.control(fault_rate=0.0, reset_stats=True)
    second = project.pytest(*args, timeout=120)
    assert all(r["outcome"] != "error" for r in second.results.values())
    paid_second = sample_stub.stats()["ok_bodies"]
    assert not set(paid_first) & set(paid_second), "a successful call was paid for twice"
    assert len(paid_second) >= len(errors)


def test_interrupted_run_loses_nothing_already_paid_for(project: Project, sample_stub: StubProcess) -> None:
    project.copy_sample()
    # 1 s a call, 3 at a time: the 33 calls take 11 s, so the interrupt lands mid-run even when a loaded
    # machine (xdist workers beside this test) is slow to notice that 6 have been paid.
    sample_stub.control(latency_s=1.0)
    command = project.command("evals", *stub_args(sample_stub), "--concurrency", "3")
    # The run gets Ctrl-C as a terminal gives it, whatever this process inherited: a job started in the
    # background by a non-interactive shell (`cmd &`) ignores SIGINT, and so would every process it starts.
    with_ctrl_c = (
        "import os, signal, sys; signal.signal(signal.SIGINT, signal.SIG_DFL); "
        "signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGINT}); "
        "os.execv(sys.executable, [sys.executable, *sys.argv[1:]])"
    )
    command = [sys.executable, "-c", with_ctrl_c, *command[1:]]
    process = subprocess.Popen(command, cwd=project.root, stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    deadline = time.time() + 60
    while sample_stub.stats()["by_status"].get("200", 0) < 6 and time.time() < deadline:
        time.sleep(0.05)
    assert process.poll() is None, "the run ended before it could be interrupted"
    paid_at_signal = sample_stub.stats()["by_status"].get("200", 0)
    signalled = time.monotonic()
    process.send_signal(signal.SIGINT)
    output, _ = process.communicate(timeout=30)
    stopped_after = time.monotonic() - signalled
    paid_before = sample_stub.stats()["ok_bodies"]
    # The interrupt stops the run: the calls on the wire may still end (3), and as many again may have
    # started while the signal was on its way; nothing after that is paid.
    assert 6 <= len(paid_before) <= paid_at_signal + 2 * 3 < 33, (
        f"{len(paid_before)} calls paid, {paid_at_signal} when interrupted; the run ended {stopped_after:.1f} s "
        f"after the signal with exit code {process.returncode}:\n{output.decode(errors='replace')[-3000:]}"
    )
    sample_stub.control(latency_s=0.0, reset_stats=True)
    project.pytest("evals", *stub_args(sample_stub))
    paid_after = sample_stub.stats()["ok_bodies"]
    # Only the replies still on the wire when the run was interrupted (at most --concurrency) may be paid
    # again; every reply that had arrived was cached.
    repaid = set(paid_before) & set(paid_after)
    assert len(repaid) <= 3
    assert len(paid_before) + len(paid_after) - len(repaid) == 33


def test_replay_mode_is_zero_cost_and_a_miss_is_explained(project: Project, sample_stub: StubProcess) -> None:
    project.copy_sample()
    project.pytest("evals", *stub_args(sample_stub))
    sample_stub.control(reset_stats=True)
    replay = project.pytest("evals", *stub_args(sample_stub), "--cache-mode", "replay")
    assert sample_stub.stats()["requests"] == 0
    assert all(r["outcome"] != "error" for r in replay.results.values())
    # 24 system calls (one of them makes a second call after its calculator tool) and 8 judge calls
    assert replay.run["totals"]["cache_hits"] == replay.run["totals"]["calls"] == 33
    facts = project.root / "evals/sample/facts.yaml"
    facts.write_text(facts.read_text().replace("capital of Japan?", "capital city of Japan?"))
    changed = project.pytest("evals", *stub_args(sample_stub), "--cache-mode", "replay")
    node = "evals/sample/facts.yaml::capital-japan"
    assert changed.results[node]["outcome"] == "error"
    assert changed.results[node]["error"]["kind"] == "cache-miss"
    assert sample_stub.stats()["requests"] == 0
    explained = subprocess.run(
        [
            sys.executable,
            "-m",
            "harness.cli",
            "cache",
            "explain",
            node,
            "--json",
            "--report-dir",
            str(changed.report_dir),
            "--cache-dir",
            str(changed.cache_dir),
        ],
        capture_output=True,
        text=True,
        check=True,
    )
    report = json.loads(explained.stdout)
    assert report["calls"][0]["in_cache"] is False
    assert report["calls"][0]["changed_since_previous_run"] == ["payload.messages"]


def test_judge_that_cannot_produce_json_makes_an_error_not_a_score(project: Project, sample_stub: StubProcess) -> None:
    project.copy_sample()
    sample_stub.control(broken_json=True)
    out = project.pytest("evals", *stub_args(sample_stub), "-m", "judged")
    results = out.results
    assert len(results) == 8
    assert all(r["outcome"] == "error" and r["score"] is None for r in results.values())
    assert all(r["error"]["kind"] == "judge" for r in results.values())
    assert "8 errors" in out.stdout.splitlines()[-1]
    sample_stub.control(broken_json=False)
    fixed = project.pytest("evals", *stub_args(sample_stub), "-m", "judged")
    assert all(r["outcome"] != "error" for r in fixed.results.values())


def test_max_cost_stops_new_calls(project: Project, sample_stub: StubProcess) -> None:
    project.copy_sample()
    prices = project.write(
        "prices.json",
        json.dumps(
            {
                "openai/stub-sut": {"input_cost_per_token": 0.001, "output_cost_per_token": 0.001},
                "openai/stub-judge": {"input_cost_per_token": 0.001, "output_cost_per_token": 0.001},
                "openai/stub-embed": {"input_cost_per_token": 0.0, "output_cost_per_token": 0.0},
            }
        ),
    )
    out = project.pytest(
        "evals", *stub_args(sample_stub), "--price-file", str(prices), "--max-cost", "0.05", "--concurrency", "1"
    )
    results = out.results.values()
    refused = [r for r in results if r["outcome"] == "error"]
    assert refused and all(r["error"]["kind"] == "budget" and "--max-cost" in r["error"]["message"] for r in refused)
    assert out.run["totals"]["cost_usd"] >= 0.05
    assert out.run["totals"]["cost_usd"] < 0.05 + 0.05  # at most the calls already in flight


def test_keys_go_only_to_their_own_endpoint_and_never_reach_files(project: Project, sample_stub: StubProcess) -> None:
    secrets = {
        "OPENAI_API_KEY": "sk-test-0123456789abcdefSECRET",
        "ANTHROPIC_API_KEY": "sk-ant-zyxwvut98765SECRET",
        "STUB_GATEWAY_KEY": "gw-key-5555-6666-SECRET",
    }
    project.copy_sample()
    # A custom endpoint with no key named gets no key at all, even with OPENAI_API_KEY set.
    out = project.pytest("evals", *stub_args(sample_stub), "-n", "2", env=secrets)
    assert out.run["totals"]["errors"] == 0, out.stdout[-2000:]
    assert sample_stub.stats()["seen_auth"] == [""]
    # Named with --*-api-key-env, that variable's key goes to that endpoint (the stub now demands it).
    sample_stub.control(required_key=secrets["STUB_GATEWAY_KEY"], reset_stats=True)
    named = [f"--{o}-key-env=STUB_GATEWAY_KEY" for o in ("api", "judge-api", "embedding-api")]
    keyed = project.pytest("evals", *stub_args(sample_stub), *named, "--cache-mode", "refresh", env=secrets)
    assert keyed.run["totals"]["errors"] == 0, keyed.stdout[-2000:]
    assert sample_stub.stats()["seen_auth"] == [f"Bearer {secrets['STUB_GATEWAY_KEY']}"]
    assert keyed.run["run"]["options"]["api_key_env"] == "STUB_GATEWAY_KEY"
    # A wrong key is refused once, before any call (the endpoint's free model list refuses it), and still
    # nothing secret is written or printed anywhere.
    sample_stub.control(required_key="another-key-entirely", reset_stats=True)
    denied = project.pytest(
        "evals", *stub_args(sample_stub), *named, "--cache-mode", "refresh", "-k", "capital", env=secrets
    )
    assert denied.returncode == 4 and "refused the key (HTTP 401)" in denied.stderr, denied.stderr
    assert sample_stub.stats()["requests"] == 0
    assert not any(secret in denied.stdout + denied.stderr for secret in secrets.values())
    files = [p for d in (out.report_dir, out.cache_dir) for p in d.rglob("*") if p.is_file()]
    assert files
    for path in files:
        data = path.read_bytes()
        for value in secrets.values():
            assert value.encode() not in data, f"{path} holds a secret"
    assert not any(value in out.stdout + keyed.stdout + denied.stdout for value in secrets.values())


def test_credentials_inside_an_endpoint_url_are_redacted_everywhere(project: Project, sample_stub: StubProcess) -> None:
    project.copy_sample()
    base = sample_stub.api_base.replace("http://", "http://alice:url-pa55word-777@") + "?api-key=url-query-key-888"
    args = stub_args(sample_stub)
    args[args.index("--api-base") + 1] = base
    out = project.pytest("evals", *args, "-k", "capital-france")
    assert out.run["totals"]["errors"] == 0, out.stdout[-2000:]
    files = [p for d in (out.report_dir, out.cache_dir) for p in d.rglob("*") if p.is_file()]
    for path in files:
        data = path.read_bytes()
        assert b"url-pa55word-777" not in data and b"url-query-key-888" not in data, f"{path} holds a credential"
    assert "url-pa55word-777" not in out.stdout + out.stderr


def _cache_text(cache_dir: Path) -> str:
    """Every cache entry, decoded: the files themselves are compressed, so a scan of their bytes finds nothing."""
    import diskcache

    texts = []
    for folder in sorted(p for p in cache_dir.iterdir() if p.is_dir() and (p / "cache.db").exists()):
        with diskcache.Cache(str(folder), disk=diskcache.JSONDisk) as store:
            texts += [json.dumps(store[key]) for key in store]
    return "\n".join(texts)


def test_the_runs_own_keys_never_reach_a_file_or_a_judge_even_when_echoed(
    project: Project, sample_stub: StubProcess
) -> None:
    """A key in a variable whose name does not look secret (--api-key-env LLM_ACCESS) and a key inside the
    judge's URL are the run's secrets: a system that echoes them gets both replaced, before the judge, the
    cache and the reports see its answer."""
    project.copy_sample()
    key, judge_key = "zq8Hx2LmP0aaQ", "QQsecretJudge99"
    prompt = "In one sentence: what gas do plants take in for photosynthesis?"
    sample_stub.control(
        answers={prompt: f"Carbon dioxide. My key is {key} and the judge's is {judge_key}."},
        judge_rules=[["[REDACTED]", {"grade": "correct"}]],  # correct only if the judge saw the marker
        judge_default={"grade": "incorrect"},
    )
    args = stub_args(sample_stub, "--api-key-env", "LLM_ACCESS", "-k", "photosynthesis")
    args[args.index("--judge-api-base") + 1] = sample_stub.api_base + f"?api-key={judge_key}"
    out = project.pytest("evals/sample", *args, env={"LLM_ACCESS": key})
    (result,) = out.results.values()
    assert result["outcome"] == "passed", out.stdout[-2000:]  # the judge read the answer, with the marker
    assert "[REDACTED]" in result["answer"]
    cached = _cache_text(out.cache_dir)
    assert "Carbon dioxide" in cached  # the answers are there to be found...
    written = [p.read_text(errors="replace") for p in out.report_dir.rglob("*") if p.is_file()]
    for text in [cached, *written, out.stdout, out.stderr]:
        assert key not in text and judge_key not in text  # ...and no key is


def test_a_run_is_anchored_on_its_project_whatever_paths_its_options_name(
    tmp_path: Path, sample_stub: StubProcess
) -> None:
    """pytest's rootdir moves to the common ancestor of the project and any absolute path an option names
    (when there is no pytest.ini); reports and the cache must not move with it. Nor when the run starts in
    the project's parent folder and names the tasks by path."""
    import os

    root = tmp_path / "work" / "proj"
    project = Project(root)
    project.copy_sample()
    agent = tmp_path / "agents" / "paris.sh"
    agent.parent.mkdir()
    agent.write_text("#!/bin/sh\necho Paris\n")
    agent.chmod(0o755)
    env = {k: v for k, v in os.environ.items() if not k.startswith("PYTEST_")}
    base = [sys.executable, "-m", "pytest", "-p", "no:cacheprovider", *stub_args(sample_stub), "-k", "capital-france"]
    done = subprocess.run(
        [*base, "evals/sample", "--agent-cmd", str(agent), "--sandbox", "none"],
        cwd=root, capture_output=True, text=True, env=env, timeout=300,
    )  # fmt: skip
    assert done.returncode == 0, done.stdout[-2000:]
    assert (root / "reports" / "LATEST").is_file() and (root / ".harness-cache").is_dir()
    assert not (tmp_path / "reports").exists() and not (tmp_path / ".harness-cache").exists()
    # from the parent folder, the project named by its tasks' path (it has a pytest.ini this time)
    (root / "pytest.ini").write_text("[pytest]\n")
    shutil.rmtree(root / "reports")
    again = subprocess.run(
        [*base, "proj/evals/sample/facts.yaml"], cwd=root.parent, capture_output=True, text=True, env=env, timeout=300
    )
    assert again.returncode == 0, again.stdout[-2000:]
    assert (root / "reports" / "LATEST").is_file()
    assert not (root.parent / "reports").exists() and not (root.parent / ".harness-cache").exists()


def test_a_python_agent_that_hangs_fails_its_item_and_the_run_still_ends(
    project: Project, sample_stub: StubProcess
) -> None:
    """--agent-timeout holds for a Python agent too: a sync agent stuck for minutes is the system's failure
    (score 0) after the limit, the other items are scored, and the process exits without waiting for it."""
    project.copy_sample()
    project.write(
        "hang_agent.py",
        """
        import time

        def agent(prompt):
            if "France" in prompt:
                time.sleep(600)
            return "Tokyo"
        """,
    )
    out = project.pytest(
        "evals/sample", *stub_args(sample_stub), "-k", "capital-france or capital-japan",
        "--agent", "hang_agent:agent", "--agent-timeout", "2", timeout=120,
    )  # fmt: skip
    by_id = {r["task_id"]: r for r in out.results.values()}
    assert by_id["capital-japan"]["outcome"] == "passed", out.stdout[-2000:]
    hung = by_id["capital-france"]
    assert hung["outcome"] == "failed" and hung["score"] == 0.0 and hung["error"]["fault"] == "system"
    assert "did not finish within 2 s" in hung["error"]["message"]


def test_half_an_emoji_in_an_answer_or_a_tool_call_is_cleaned_not_a_crash(
    project: Project, sample_stub: StubProcess
) -> None:
    """A lone surrogate (an emoji cut in two) is valid JSON but not UTF-8: it reaches neither a cache key nor
    a report as such, and nothing after the paid calls breaks on it."""
    project.copy_sample()
    project.write(
        "cut_agent.py",
        """
        def agent(prompt, tools):
            calculator = {t.name: t for t in tools}.get("calculator")
            if calculator is not None:
                calculator.function(expression="1 + 1 \\ud83d")
            return {"answer": "Paris \\ud83d"} if "France" in prompt else "7006652 \\ud83d"
        """,
    )
    out = project.pytest(
        "evals/sample", *stub_args(sample_stub), "-k", "capital-france or calculator", "--agent", "cut_agent:agent"
    )
    assert out.returncode in (0, 1), out.stdout[-2000:] + out.stderr[-2000:]
    answers = [r["answer"] for r in out.results.values()]
    assert answers and all("\ufffd" in a for a in answers), answers
    run_id = (out.report_dir / "LATEST").read_text().strip()
    assert (out.report_dir / run_id / "report.html").is_file()


def test_user_agent_is_the_system_under_test(project: Project, sample_stub: StubProcess) -> None:
    project.copy_sample()
    project.write(
        "my_agent.py",
        """
        import asyncio
        import json

        def sync_agent(prompt, tools):
            if "calculator" in [t.name for t in tools]:
                expression = prompt.split("compute ", 1)[1].split(" and", 1)[0]
                return str(json.loads(tools[0].function(expression=expression))["result"])
            return {"answer": "Paris" if "France" in prompt else "no idea"}

        async def async_agent(prompt, tools, task):
            await asyncio.sleep(0.01)
            return f"{task['id']}: Paris" if "France" in prompt else "no idea"

        def broken_agent(prompt, tools):
            raise RuntimeError("agent crashed")
    """,
    )
    common = ["--judge-model", "openai/stub-judge", "--judge-api-base", sample_stub.api_base]
    sync = project.pytest("evals", "--agent", "my_agent:sync_agent", *common)
    assert sync.results["evals/sample/facts.yaml::capital-france"]["outcome"] == "passed"
    assert sync.results["evals/sample/arithmetic.yaml::calculator-product"]["outcome"] == "passed"
    assert sync.results["evals/sample/facts.yaml::capital-japan"]["outcome"] == "failed"
    asynchronous = project.pytest("evals", "--agent", "my_agent:async_agent", *common, "-k", "france")
    assert asynchronous.results["evals/sample/facts.yaml::capital-france"]["answer"] == "capital-france: Paris"
    broken = project.pytest("evals", "--agent", "my_agent:broken_agent", *common, "-k", "france")
    error = broken.results["evals/sample/facts.yaml::capital-france"]["error"]
    assert "agent crashed" in error["message"]
    missing = project.pytest("evals", "--agent", "my_agent:nothing_here")
    assert missing.returncode == 4 and "has no attribute 'nothing_here'" in missing.stderr


def test_repeats_average_and_keep_each_repeat(project: Project, sample_stub: StubProcess) -> None:
    project.copy_sample()
    out = project.pytest("evals", *stub_args(sample_stub), "--repeats", "3", "-k", "capital-france")
    results = out.results
    assert sorted(results) == [f"evals/sample/facts.yaml::capital-france[r{i}]" for i in range(3)]
    assert sorted(r["repeat"] for r in results.values()) == [0, 1, 2]
    assert len({r["calls"][0]["key"] for r in results.values()}) == 3  # the repeat index is part of the key
    again = project.pytest("evals", *stub_args(sample_stub), "--repeats", "3", "-k", "capital-france and r1")
    assert list(again.results) == ["evals/sample/facts.yaml::capital-france[r1]"]


def test_results_json_matches_the_published_schema(project: Project, sample_stub: StubProcess) -> None:
    jsonschema = pytest.importorskip("jsonschema")
    schema = json.loads((Path(__file__).resolve().parent.parent / "harness/schemas/results.schema.json").read_text())
    project.copy_sample()
    project.write("evals/bad/broken.yaml", "tasks: [\n")
    out = project.pytest("evals", *stub_args(sample_stub), "-n", "2")
    jsonschema.validate(out.run, schema)
    kinds = {r["outcome"] for r in out.run["results"]}
    assert kinds == {"passed", "failed", "error"}


@pytest.mark.parametrize("workers", [[], ["-n", "2"]], ids=["one-process", "xdist-2"])
def test_long_runs_show_live_progress(project: Project, sample_stub: StubProcess, workers: list[str]) -> None:
    """A run that cannot take less than ~2.5 s (33 calls, 2 at a time, 150 ms each) prints progress lines
    at a 0.3 s interval; what a line says is checked without a clock in test_progress_line_says_where_the_run_is."""
    project.copy_sample()
    sample_stub.control(latency_s=0.15)
    out = project.pytest("evals", *stub_args(sample_stub), "--concurrency", "2", "--progress-interval", "0.3", *workers)
    lines = [line for line in out.stdout.splitlines() if line.startswith("[harness]")]
    assert lines, out.stdout[-3000:]
    assert all("/24 items" in line and " calls" in line and "tokens" in line for line in lines)


def test_progress_line_says_where_the_run_is() -> None:
    from types import SimpleNamespace

    from harness.progress import Progress

    def result(outcome: str) -> dict[str, Any]:
        usage = {"input_tokens": 100, "output_tokens": 20, "cost_usd": 0.5, "calls": 2}
        return {"outcome": outcome, "usage": usage}

    state = SimpleNamespace(results=[result("passed")] * 4 + [result("error")], total_items=20, started_at=100.0)
    reporter = SimpleNamespace(isatty=False)
    line = Progress(state, reporter, 1.0).line(now=110.0)
    assert line == "[harness] 5/20 items, 10 of ~40 calls, 1 errors, 600 tokens, $2.5000, ETA 30s"


def test_report_hook_receives_the_finished_run(project: Project, sample_stub: StubProcess) -> None:
    project.copy_sample()
    project.write(
        "conftest.py",
        """
        import json

        def pytest_harness_report(config, run):
            with open("hooked.json", "w") as handle:
                json.dump({"items": run["totals"]["items"], "dir": run["report_dir"]}, handle)
    """,
    )
    out = project.pytest("evals", *stub_args(sample_stub), "-k", "capital")
    hooked = json.loads((project.root / "hooked.json").read_text())
    assert hooked["items"] == 2
    assert Path(hooked["dir"]).name == out.run["run"]["run_id"]


def test_same_family_judge_is_warned_about_everywhere(project: Project, sample_stub: StubProcess) -> None:
    project.copy_sample()
    out = project.pytest(
        "evals",
        "--model",
        "openai/gpt-4.1",
        "--api-base",
        sample_stub.api_base,
        "--judge-model",
        "openai/gpt-4.1-mini",
        "--judge-api-base",
        sample_stub.api_base,
        "-k",
        "photosynthesis",
    )
    assert "same family (gpt)" in out.stdout
    assert any("same family (gpt)" in w for w in out.run["run"]["warnings"])
    summary = (out.report_dir / out.run["run"]["run_id"] / "summary.md").read_text()
    assert "same family (gpt)" in summary


def test_smoke_run_on_the_embedded_local_model(project: Project) -> None:
    """No --model, no keys: the embedded model answers and judges, and every output says what that means."""
    pytest.importorskip("llama_cpp")
    project.copy_sample()
    env = {name: "" for name in ("OPENAI_API_KEY", "ANTHROPIC_API_KEY")}
    out = project.pytest(
        "evals", "-k", "capital-france or photosynthesis", "--junitxml", "junit.xml", env=env, timeout=600
    )
    assert out.returncode in (0, 1), out.stdout[-3000:] + out.stderr[-3000:]
    run = out.run
    assert run["run"]["local_models"] is True and "not meaningful" in run["run"]["notice"]
    assert "not meaningful" in out.stdout
    summary = (out.report_dir / run["run"]["run_id"] / "summary.md").read_text()
    assert "not meaningful" in summary
    judged = out.results["evals/sample/judged.yaml::photosynthesis"]
    calls = judged["calls"]
    assert {c["model"] for c in calls} == {"local/smollm2"}
    assert all(c["input_tokens"] > 0 and c["output_tokens"] > 0 and c["cost_usd"] == 0 for c in calls)
    # Either the tiny model gave a valid verdict and the score is that verdict's, or it could not and the item
    # is a judge error with no score: never a score nobody produced.
    grade = (judged["judge_levels"].get("grade") or {}).get("local/smollm2")
    graded = {"correct": 100.0, "partially_correct": 50.0, "incorrect": 0.0}
    assert (judged["outcome"] != "error" and judged["score"] == graded.get(grade)) or (
        judged["outcome"] == "error" and judged["error"]["kind"] == "judge" and judged["score"] is None
    ), judged
    assert out.run["totals"]["cost_known"] is True
    junit = (project.root / "junit.xml").read_text()
    assert 'name="harness_notice"' in junit and "not meaningful" in junit


def test_a_crashed_worker_leaves_an_error_result_not_a_gap(project: Project, sample_stub: StubProcess) -> None:
    project.copy_sample()
    project.write(
        "crashy.py",
        """
        import os

        def agent(prompt, tools):
            if "Japan" in prompt:
                os._exit(3)
            return "Paris"
    """,
    )
    out = project.pytest(
        "evals",
        "--agent",
        "crashy:agent",
        "--judge-model",
        "openai/stub-judge",
        "--judge-api-base",
        sample_stub.api_base,
        "-n",
        "2",
        "-k",
        "capital",
    )
    results = out.results
    assert len(results) == 2  # no gap in the report
    # Items on one worker run concurrently, so the crash may take down a neighbour that shared the
    # process; xdist blames the item it was reporting. Whatever died is an error, never a missing row.
    errors = [r for r in results.values() if r["outcome"] == "error"]
    assert errors and all(r["error"]["kind"] == "internal" and r["score"] is None for r in errors)
    survivors = [r for r in results.values() if r["outcome"] != "error"]
    assert all(r["task_id"] == "capital-france" and r["outcome"] == "passed" for r in survivors)


def harness_cli(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "harness.cli", *args], capture_output=True, text=True, check=True)


def test_cli_report_and_cache_commands(project: Project, sample_stub: StubProcess) -> None:
    project.copy_sample()
    out = project.pytest("evals", *stub_args(sample_stub), "-m", "judged")
    dirs = ["--report-dir", str(out.report_dir)]
    cache = ["--cache-dir", str(out.cache_dir)]
    report = json.loads(harness_cli("report", "--json", *dirs).stdout)
    assert report["totals"]["items"] == 8 and report["run"]["run_id"] == out.run["run"]["run_id"]
    assert "| sample | 8 |" in harness_cli("report", *dirs).stdout
    stats = json.loads(harness_cli("cache", "stats", "--json", *cache, *dirs).stdout)
    assert stats["sut"]["entries"] == 8 and stats["judge"]["entries"] == 8 and stats["embed"]["entries"] == 0
    assert "cleared 8 entries from judge" in harness_cli("cache", "clear", "--namespace", "judge", *cache, *dirs).stdout
    after = json.loads(harness_cli("cache", "stats", "--json", *cache, *dirs).stdout)
    assert after["judge"]["entries"] == 0 and after["sut"]["entries"] == 8
    rerun = project.pytest("evals", *stub_args(sample_stub), "-m", "judged")
    assert rerun.run["totals"]["cache_hits"] == 8  # answers kept, judges asked again
    schema = json.loads(harness_cli("schema").stdout)
    assert schema["title"] == "harness task file"


def test_judge_panel_keeps_each_judges_level(project: Project, sample_stub: StubProcess) -> None:
    project.copy_sample()
    out = project.pytest(
        "evals", *stub_args(sample_stub), "--judge-model", "openai/judge-a,openai/judge-b", "-k", "photosynthesis"
    )
    (result,) = out.results.values()
    assert result["judge_levels"] == {"grade": {"openai/judge-a": "correct", "openai/judge-b": "correct"}}
    assert result["metrics"]["judge_agreement"] == 1.0
    assert sorted(c["model"] for c in result["calls"] if c["namespace"] == "judge") == [
        "openai/judge-a",
        "openai/judge-b",
    ]
    assert out.run["run"]["options"]["judge_models"] == ["openai/judge-a", "openai/judge-b"]


def test_refresh_mode_pays_again_and_off_mode_stores_nothing(project: Project, sample_stub: StubProcess) -> None:
    project.copy_sample()
    args = ["evals", *stub_args(sample_stub), "-k", "capital"]
    project.pytest(*args)
    sample_stub.control(reset_stats=True)
    refreshed = project.pytest(*args, "--cache-mode", "refresh")
    assert sample_stub.stats()["requests"] == 2 and refreshed.run["totals"]["cache_hits"] == 0
    off = project.pytest(*args, "--cache-mode", "off", "--cache-dir", str(project.root / "other-cache"))
    assert off.run["totals"]["cache_hits"] == 0
    assert not (project.root / "other-cache" / "sut").exists()


def test_judges_fall_back_to_plain_json_where_structured_output_is_refused(
    project: Project, sample_stub: StubProcess
) -> None:
    project.copy_sample()
    sample_stub.control(reject_response_format=True)
    out = project.pytest("evals", *stub_args(sample_stub), "-k", "photosynthesis or spider")
    results = {n.split("::")[1]: r for n, r in out.results.items()}
    assert results["photosynthesis"]["outcome"] == "passed"
    assert results["spider-legs"]["outcome"] == "failed"  # the stub answers it wrongly on purpose
    judge_calls = [c for c in results["photosynthesis"]["calls"] if c["namespace"] == "judge"]
    assert [c["error"] is not None for c in judge_calls] == [True, False]


@pytest.mark.parametrize("price", ["Infinity", "NaN", "1e308", "-0.001"])
def test_a_price_file_that_would_mislead_the_budget_stops_the_run_before_any_call(
    project: Project, fresh_stub: StubProcess, price: str
) -> None:
    """An infinite or NaN price fails each item after its call is paid (and every rerun pays again); a
    negative one makes the cost fall, so --max-cost never stops the run. One line, exit 4, nothing paid."""
    project.copy_sample()
    prices = project.write("prices.json", f'{{"openai/stub-sut": {{"input_cost_per_token": {price}, '
                                          '"output_cost_per_token": 0.001}}')  # fmt: skip
    out = project.pytest("evals", *stub_args(fresh_stub), "--price-file", str(prices), "--max-cost", "0.05")
    assert out.returncode == 4, out.stdout[-2000:] + out.stderr[-2000:]
    (line,) = [x for x in out.stderr.splitlines() if "--price-file" in x]
    assert str(prices) in line and "'openai/stub-sut': input_cost_per_token must be a finite number" in line
    assert "Traceback" not in out.stderr and fresh_stub.stats()["requests"] == 0
