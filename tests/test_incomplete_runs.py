"""A run that did not finish says so everywhere, stays out of LATEST, the index and --baseline, and
`--resume RUN` finishes it into one run."""

from __future__ import annotations

import csv
import json
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest
from helpers import Project, judge_rules, sample_answers, stub_args

from harness.testing import StubProcess


@pytest.fixture
def sample_stub(fresh_stub: StubProcess) -> StubProcess:
    """A stub that answers the sample suite (right, but for three items it gets wrong on purpose)."""
    fresh_stub.control(answers=sample_answers(), judge_rules=judge_rules(), judge_default={"grade": "incorrect"})
    return fresh_stub


WITH_CTRL_C = (
    "import os, signal, sys; signal.signal(signal.SIGINT, signal.SIG_DFL); "
    "signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGINT}); "
    "os.execv(sys.executable, [sys.executable, *sys.argv[1:]])"
)


def _interrupted_run(project: Project, stub: StubProcess, *extra: str) -> tuple[str, dict[str, Any]]:
    """The sample suite, Ctrl-C once some items are paid for; returns the output and the run written."""
    project.copy_sample()
    stub.control(latency_s=0.5)
    command = project.command("evals", *stub_args(stub), "--concurrency", "2", *extra)
    process = subprocess.Popen(
        [sys.executable, "-c", WITH_CTRL_C, *command[1:]], cwd=project.root, stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
    )  # fmt: skip
    deadline = time.time() + 60
    while stub.stats()["by_status"].get("200", 0) < 6 and time.time() < deadline:
        time.sleep(0.05)
    assert process.poll() is None, "the run ended before it could be interrupted"
    process.send_signal(signal.SIGINT)
    output = process.communicate(timeout=60)[0].decode(errors="replace")
    runs = [p for p in project.report_dir.glob("*/results.json")]
    assert len(runs) == 1, output[-3000:]
    return output, json.loads(runs[0].read_text())


def test_an_interrupted_run_is_marked_everywhere_and_resumed(project: Project, sample_stub: StubProcess) -> None:
    output, run = _interrupted_run(project, sample_stub)
    meta = run["run"]
    incomplete = meta["incomplete"]
    assert incomplete["reason"] == "interrupted" and incomplete["items_expected"] == 24
    assert 0 < incomplete["items_done"] == len(run["results"]) < 24
    assert f"--resume {meta['run_id']}" in incomplete["resume"]
    # the terminal, summary.md and report.html say so
    assert "INCOMPLETE RUN (interrupted)" in output and incomplete["resume"] in output
    folder = project.report_dir / meta["run_id"]
    assert "INCOMPLETE RUN (interrupted)" in (folder / "summary.md").read_text()
    assert 'class="incomplete-run"' in (folder / "report.html").read_text()
    # it is not the latest run, and its history rows are marked
    assert not (project.report_dir / "LATEST").exists()
    history = project.report_dir / "history" / f"{meta['run_id']}.csv"
    rows = list(csv.DictReader(history.open()))
    assert rows and all(r["incomplete"] == "1" for r in rows)
    # the index leaves it out unless asked; --baseline refuses it unless asked
    harness = [sys.executable, "-m", "harness.cli"]
    index = subprocess.run([*harness, "index", "--report-dir", str(project.report_dir)], capture_output=True, text=True)
    assert index.returncode != 0 and "1 interrupted run(s) left out" in index.stderr, index.stderr
    included = subprocess.run(
        [*harness, "index", "--report-dir", str(project.report_dir), "--include-incomplete"],
        capture_output=True, text=True,
    )  # fmt: skip
    assert "interrupted run(s) left out" not in included.stderr
    sample_stub.control(latency_s=0.0, reset_stats=True)
    refused = project.pytest("evals", *stub_args(sample_stub), "--baseline", str(folder))
    assert refused.returncode == 4 and "that run is incomplete (interrupted" in refused.stderr
    assert sample_stub.stats()["requests"] == 0

    # --resume: the finished items are kept as they were, the rest run, one run comes out
    finished = {r["nodeid"]: r for r in run["results"] if r["outcome"] in ("passed", "failed")}
    resumed = project.pytest("evals", *stub_args(sample_stub), "--resume", meta["run_id"])
    assert resumed.returncode == 1, resumed.stdout[-3000:]  # the sample fails three items on purpose
    assert f"{len(finished)} deselected" in resumed.stdout
    whole = resumed.run
    assert whole["run"]["run_id"] == meta["run_id"] and whole["run"]["incomplete"] is None
    assert whole["run"]["resumed"] == len(finished)
    assert len(whole["results"]) == 24 and whole["totals"]["items"] == 24
    by_node = {r["nodeid"]: r for r in whole["results"]}
    assert all(by_node[n] == r for n, r in finished.items())  # kept, not run again
    assert (project.report_dir / "LATEST").read_text().strip() == meta["run_id"]
    rows = list(csv.DictReader(history.open()))
    assert len(rows) == 24 and not any(r["incomplete"] for r in rows)
    again = project.pytest("evals", *stub_args(sample_stub), "--resume", meta["run_id"])
    assert again.returncode == 4 and "the run is complete; there is nothing to finish" in again.stderr


def test_resume_refuses_another_system(project: Project, sample_stub: StubProcess) -> None:
    _, run = _interrupted_run(project, sample_stub)
    args = stub_args(sample_stub)
    args[args.index("--model") + 1] = "openai/other-sut"
    out = project.pytest("evals", *args, "--resume", run["run"]["run_id"])
    assert out.returncode == 4 and "that run was made with other settings: model 'openai/stub-sut'" in out.stderr


def test_a_run_stopped_by_exitfirst_is_incomplete(project: Project, sample_stub: StubProcess) -> None:
    project.copy_sample()
    out = project.pytest("evals", *stub_args(sample_stub), "-x", "-p", "no:randomly")
    run = out.run if (project.report_dir / "LATEST").exists() else None
    assert run is None  # not the latest run
    (path,) = list(project.report_dir.glob("*/results.json"))
    meta = json.loads(path.read_text())["run"]
    assert meta["incomplete"]["reason"] == "stopped early (-x or --maxfail)"
    assert " -x" not in meta["incomplete"]["resume"]  # the command that finishes it runs to the end


def test_schema_describes_incomplete_runs() -> None:
    schema = json.loads((Path(__file__).resolve().parent.parent / "harness/schemas/results.schema.json").read_text())
    run = schema["properties"]["run"]["properties"]
    assert {"incomplete", "resumed"} <= set(run)
