"""What a new user hits first: slow reporting must not stall calls, bad input must give one located line
while the good tasks run, bad options must stop the run before anything is paid for, and every item
error is one line."""

from __future__ import annotations

import re

import pytest
from helpers import Project, stub_args

from harness.testing import StubProcess

QA = """\
suite: {suite}
defaults: {{kind: qa, version: 1, scoring: {{method: contains}}}}
tasks:
{tasks}
"""


def qa_file(suite: str, ids: list[str], extra: str = "") -> str:
    tasks = "".join(
        f"  - id: {i}\n    inputs: {{prompt: 'Say {i}.'}}\n    ground_truth: {{answer: '{i}'}}\n{extra}" for i in ids
    )
    return QA.format(suite=suite, tasks=tasks)


def failure_section(stdout: str) -> dict[str, list[str]]:
    """pytest's FAILURES section: each item's header and the lines under it (the xdist worker line dropped)."""
    sections: dict[str, list[str]] = {}
    current, inside = None, False
    for line in stdout.splitlines():
        if re.match(r"^=+ FAILURES =+$", line):
            inside = True
            continue
        header = re.match(r"^_+ (.+?) _+$", line) if inside else None
        if header:
            current = header.group(1)
            sections[current] = []
        elif line.startswith("=") or line.startswith("harness report:"):
            current, inside = None, inside and not line.startswith("=")
        elif current is not None and line.strip() and not line.startswith("[gw"):
            sections[current].append(line)
    return sections


def error_section(stdout: str) -> dict[str, list[str]]:
    """pytest's ERRORS section: each item's header and the lines under it."""
    sections: dict[str, list[str]] = {}
    current = None
    for line in stdout.splitlines():
        header = re.match(r"^_+ ERROR at setup of (.+?) _+$", line)
        if header:
            current = header.group(1)
            sections[current] = []
        elif line.startswith("=") or line.startswith("harness report:"):
            current = None
        elif current is not None and line.strip():
            sections[current].append(line)
    return sections


def test_slow_reporting_never_turns_answered_calls_into_timeouts(project: Project, fresh_stub: StubProcess) -> None:
    """A plugin that is slow in a report hook must not stall the event loop: every reply that arrived is
    read, cached and counted once; no timer fires on a reply sitting in the socket."""
    ids = [f"t{i}" for i in range(10)]
    project.write("evals/slow/tasks.yaml", qa_file("slow", ids))
    project.write(
        "conftest.py",
        """
        import time

        def pytest_runtest_logreport(report):
            if report.when == "call":
                time.sleep(0.6)  # slower than the call timeout below
        """,
    )
    fresh_stub.control(latency_s=0.02, answers={f"Say {i}.": i for i in ids})
    args = ["evals", *stub_args(fresh_stub, "--call-timeout", "0.4", "--call-retries", "0", "--concurrency", "4")]
    out = project.pytest(*args)
    results = out.results
    assert len(results) == 10
    assert all(r["outcome"] == "passed" for r in results.values()), out.stdout[-3000:]
    assert all(c["attempts"] == 1 and c["error"] is None for r in results.values() for c in r["calls"])
    paid = fresh_stub.stats()["ok_bodies"]
    assert len(paid) == len(set(paid)) == 10
    fresh_stub.control(reset_stats=True)
    again = project.pytest(*args)
    assert fresh_stub.stats()["requests"] == 0, "every answer that was delivered must have been cached"
    assert again.run["totals"]["cache_hits"] == 10


def test_malformed_files_give_one_located_line_each_and_the_good_files_run(
    project: Project, fresh_stub: StubProcess
) -> None:
    project.write("evals/good/tasks.yaml", qa_file("good", ["alpha", "beta"]))
    project.write("evals/good/more.yaml", qa_file("good", ["gamma", "alpha"]))  # alpha again, same suite
    project.write("evals/other/tasks.yaml", qa_file("other", ["alpha"]))  # same id, another suite: fine
    one_task = (
        "tasks:\n  - id: x\n    kind: qa\n    version: 1\n"
        "    metadata: {expert_minutes: 5, collected: 2026-11-01}\n"
        "    inputs: {prompt: hi}\n    ground_truth: {answer: x}\n"
    )
    bad = {
        "date": (one_task.replace("2026-11-01", "2026-13-45"), "cannot read timestamp value '2026-13-45'"),
        "tag": (one_task.replace("version: 1", "version: !!int abc"), "cannot read int value 'abc'"),
        "dupkey": (one_task.replace("    kind: qa\n", "    kind: qa\n    kind: qa\n"), "duplicate key 'kind'"),
        "huge": (one_task.replace("version: 1", "version: " + "9" * 50), "out of range"),
        "inf": (one_task.replace("expert_minutes: 5", "expert_minutes: 1e400"), "metadata.expert_minutes"),
    }
    for name, (text, _) in bad.items():
        project.write(f"evals/bad/{name}.yaml", text)
    project.write("evals/bad/longid.yaml", qa_file("bad", ["y" * 1_000_000]))
    project.write(
        "evals/bad/notemplate.yaml",
        qa_file("bad", ["judged"]).replace("method: contains", "method: judge, template: nowhere/missing.j2"),
    )
    fresh_stub.control(answers={"Say alpha.": "alpha", "Say beta.": "beta", "Say gamma.": "gamma"})
    out = project.pytest("evals", *stub_args(fresh_stub))
    assert "Interrupted" not in out.stdout and out.returncode == 1, out.stdout[-3000:]
    results = out.results
    passed = sorted(n for n, r in results.items() if r["outcome"] == "passed")
    assert passed == [  # files are collected in name order: more.yaml defines alpha first
        "evals/good/more.yaml::alpha",
        "evals/good/more.yaml::gamma",
        "evals/good/tasks.yaml::beta",
        "evals/other/tasks.yaml::alpha",
    ]
    errors = {n: r["error"]["message"] for n, r in results.items() if r["outcome"] == "error"}
    assert len(errors) == 8
    assert any(
        m.startswith("evals/good/tasks.yaml:4: ")
        and "duplicate task id 'alpha' in suite 'good' (first defined at evals/good/more.yaml:7)" in m
        for m in errors.values()
    )
    for name, (_, needle) in bad.items():
        (message,) = [m for n, m in errors.items() if n.startswith(f"evals/bad/{name}.yaml")]
        assert message.startswith(f"evals/bad/{name}.yaml:") and needle in message, message
    (long_message,) = [m for n, m in errors.items() if n.startswith("evals/bad/longid.yaml")]
    assert len(long_message) < 300 and "at most 120 characters" in long_message
    assert all(len(n) < 200 for n in results), "a huge id must not become a huge item name"
    (no_template,) = [m for n, m in errors.items() if n.startswith("evals/bad/notemplate.yaml")]
    assert "judge template 'nowhere/missing.j2' not found" in no_template
    # alpha, beta, gamma: three distinct questions (the two alphas ask the same one and share its call); the
    # judged task with a missing template was stopped at collection, before its system call was paid for.
    assert fresh_stub.stats()["requests"] == 3
    for header, lines in error_section(out.stdout).items():
        assert len(lines) == 1, f"{header}: {lines}"


@pytest.mark.parametrize(
    ("extra", "needle"),
    [
        (["--model", ""], "--model must name a model"),
        (["--judge-model", ""], "--judge-model must name"),
        (["--api-base", "not a url"], "--api-base must be an http(s) URL"),
        (["--repeats", "0"], "--repeats must be at least 1"),
    ],
)
def test_bad_options_are_one_usage_line(
    project: Project, fresh_stub: StubProcess, extra: list[str], needle: str
) -> None:
    project.write("evals/good/tasks.yaml", qa_file("good", ["alpha"]))
    args = stub_args(fresh_stub)
    for i in range(0, len(extra), 2):
        if extra[i] in args:
            args[args.index(extra[i]) + 1] = extra[i + 1]
        else:
            args += extra[i : i + 2]
    out = project.pytest("evals", *args)
    assert out.returncode == 4
    assert needle in out.stderr and "Traceback" not in out.stderr
    assert fresh_stub.stats()["requests"] == 0


def test_unusable_report_and_cache_directories_stop_the_run_before_any_call(
    project: Project, fresh_stub: StubProcess
) -> None:
    project.write("evals/good/tasks.yaml", qa_file("good", ["alpha"]))
    blocker = project.write("a-file", "not a directory\n")
    as_cache = project.pytest("evals", *stub_args(fresh_stub), "--cache-dir", str(blocker))
    assert as_cache.returncode == 4 and "--cache-dir" in as_cache.stderr and "is a file" in as_cache.stderr
    assert as_cache.stderr.count("\n") <= 3 and "Traceback" not in as_cache.stderr
    read_only = project.root / "locked"
    read_only.mkdir()
    read_only.chmod(0o500)
    try:
        import os

        if os.access(read_only, os.W_OK):
            pytest.skip("running as a user who can write anywhere (root); the permission case cannot be made")
        as_report = project.pytest("evals", *stub_args(fresh_stub), "--report-dir", str(read_only / "reports"))
        assert as_report.returncode == 4 and "--report-dir" in as_report.stderr and "not writable" in as_report.stderr
    finally:
        read_only.chmod(0o700)
    assert fresh_stub.stats()["requests"] == 0


def test_a_file_where_the_report_folder_should_be_is_refused_before_any_call(
    project: Project, fresh_stub: StubProcess
) -> None:
    """The same check as above for a case that holds even for root: a file in the way of the folder."""
    project.write("evals/good/tasks.yaml", qa_file("good", ["alpha"]))
    blocker = project.write("reports-file", "x\n")
    out = project.pytest("evals", *stub_args(fresh_stub), "--report-dir", str(blocker / "inside"))
    assert out.returncode == 4 and "--report-dir" in out.stderr and "not writable" in out.stderr
    assert fresh_stub.stats()["requests"] == 0


def test_item_errors_are_one_line_and_internal_ones_show_a_traceback_only_on_request(
    project: Project, fresh_stub: StubProcess
) -> None:
    project.write("evals/good/tasks.yaml", qa_file("good", ["alpha", "beta"]))
    project.write(
        "my_agent.py",
        """
        def agent(prompt, tools):
            if "alpha" in prompt:
                raise RuntimeError("the agent fell over")
            return 42  # not text: the harness cannot read it
        """,
    )
    common = ["--agent", "my_agent:agent", "--judge-api-base", fresh_stub.api_base]
    out = project.pytest("evals", *common)
    # the agent's own failures: each scored 0, a pytest failure of one line
    sections = failure_section(out.stdout)
    assert len(sections) == 2 and all(len(lines) == 1 for lines in sections.values()), sections
    assert "Traceback" not in out.stdout and "def setup" not in out.stdout and "def runtest" not in out.stdout
    assert any(lines[0].startswith("[agent] ") and "the agent fell over" in lines[0] for lines in sections.values())
    assert any(lines[0].startswith("[agent] the agent returned int") for lines in sections.values())
    project.write(
        "conftest.py",
        """
        from harness.benchmarks import Benchmark, register_benchmark
        from harness.benchmarks.qa import QAInputs, QATruth, QAScoring

        async def broken(task, ctx):
            return {}["missing"]  # a bug in a benchmark: an internal error

        register_benchmark(Benchmark(kind="buggy", description="d", inputs=QAInputs, ground_truth=QATruth,
                                     scoring=QAScoring, run=broken))
        """,
    )
    project.write("evals/buggy/tasks.yaml", qa_file("buggy", ["one"]).replace("kind: qa", "kind: buggy"))
    quiet = project.pytest("evals/buggy", "--judge-api-base", fresh_stub.api_base)
    (lines,) = error_section(quiet.stdout).values()
    assert len(lines) == 1 and lines[0].startswith("[internal] KeyError: 'missing'") and "--tb=long" in lines[0]
    loud = project.pytest("evals/buggy", "--judge-api-base", fresh_stub.api_base, "--tb=long")
    (lines,) = error_section(loud.stdout).values()
    assert any("Traceback" in line for line in lines) and any('return {}["missing"]' in line for line in lines)
