"""How an item ends and whose fault it is (docs/report-schema.md#how-an-item-ends-and-whose-fault-it-is): a
failure of the system under test scores 0 everywhere and keeps its reason; an item the harness could not
measure stays unscored, and every table says the run is incomplete."""

from __future__ import annotations

import json
from typing import Any

from helpers import Project, stub_args

from harness.testing import StubProcess

TASKS = "\n".join(
    ["suite: crash", "defaults: {kind: qa, version: 1, scoring: {method: judge}}", "tasks:"]
    + [
        f"  - {{id: q{i:02d}, inputs: {{prompt: 'Question {i:02d}?'}}, ground_truth: {{answer: 'a{i}'}}}}"
        for i in range(10)
    ]
)
AGENT = """
def run(prompt):
    if {crash} and int(prompt.split()[1].rstrip("?")) % 2:
        raise RuntimeError("the browser tool timed out")
    return "answer to " + prompt
"""


def _run(project: Project, stub: StubProcess, crash: bool, *extra: str) -> Any:
    project.write("evals/crash/tasks.yaml", TASKS + "\n")
    project.write(f"agent_{int(crash)}.py", AGENT.format(crash=crash))
    return project.pytest("evals/crash", *stub_args(stub), "--agent", f"agent_{int(crash)}:run", *extra)


def test_an_agent_that_crashes_on_half_the_tasks_scores_half(project: Project, fresh_stub: StubProcess) -> None:
    fresh_stub.control(judge_default={"grade": "correct", "reasoning": "matches"})
    steady = _run(project, fresh_stub, crash=False).run  # read now: .run is the latest run
    crashing = _run(project, fresh_stub, crash=True)
    assert steady["suites"]["crash"]["mean_score"] == 100.0
    suite = crashing.run["suites"]["crash"]
    assert suite["mean_score"] == 50.0 and suite["system_failures"] == 5 and suite["errors"] == 0
    assert suite["incomplete"] is False
    failed = [r for r in crashing.results.values() if r["error"]]
    assert len(failed) == 5
    for result in failed:
        assert result["score"] == 0.0 and result["outcome"] == "failed"
        assert result["error"]["fault"] == "system" and result["error"]["kind"] == "agent"
        assert "the browser tool timed out" in result["error"]["message"]
    # pytest says so: a failure (not an error) whose line gives the reason
    assert "5 failed, 5 passed" in crashing.stdout
    assert "[agent] the agent agent:agent_1:run raised RuntimeError: the browser tool timed out" in crashing.stdout
    assert "(the system under test failed: score 0)" in crashing.stdout


def test_an_item_the_harness_could_not_measure_leaves_the_run_incomplete(
    project: Project, fresh_stub: StubProcess
) -> None:
    """The judge gives no valid verdict for one item: that item is unscored (not a 0 for the system), and
    the terminal, summary.md, results.json and report.html all say the run is incomplete."""
    fresh_stub.control(
        judge_default={"grade": "correct", "reasoning": "matches"},
        judge_rules=[["answer to Question 03?", {"grade": "perfect"}]],  # not a grade: no valid verdict
    )
    out = _run(project, fresh_stub, crash=False)
    (unscored,) = [r for r in out.results.values() if r["outcome"] == "error"]
    assert unscored["task_id"] == "q03" and unscored["score"] is None and unscored["error"]["fault"] == "harness"
    suite = out.run["suites"]["crash"]
    assert suite["mean_score"] == 100.0 and suite["errors"] == 1 and suite["incomplete"] is True
    message = "INCOMPLETE: 1 of 10 items unscored"
    assert message in out.stdout
    run_folder = out.report_dir / out.run["run"]["run_id"]
    assert message in (run_folder / "summary.md").read_text()
    assert message in (run_folder / "report.html").read_text()
    # the gate cannot vouch for what was not measured
    baseline = project.root / "base.json"
    baseline.write_text(json.dumps(out.run))
    again = _run(project, fresh_stub, False, "--cache-mode", "refresh", "--baseline", str(baseline),
                 "--fail-on-regression")  # fmt: skip
    assert again.returncode == 1 and "run is incomplete" in again.stdout


def test_a_failure_sits_at_the_bottom_of_every_bounded_column_of_a_benchmark_table() -> None:
    """Metric columns, not only the score: an agent that fails half the briefs must not keep the re-selection
    rate (or the level) of the half it answered. Counts and units take no invented value, and what the
    benchmark recorded for the failure (tokens spent, None for what does not apply) stands."""
    from harness.benchmarks import Column, Section, Table
    from harness.report.tables import compute_table

    table = Table(
        name="t",
        title="T",
        kinds=("k",),
        rows=("kind",),
        sections=(
            Section(
                "S",
                (
                    Column("rate", "Rate", "rate"),
                    Column("level", "Level", "level", scale="1..5"),
                    Column("calls", "Calls", "calls", scale="calls"),
                    Column("flow", "Flow", "flow"),
                    Column("tokens", "Tokens", "tokens", scale="tokens"),
                ),
            ),
        ),
    )
    answered = {"kind": "k", "score": 80.0, "error": None,
                "metrics": {"rate": 80.0, "level": 5, "calls": 4, "flow": 60.0, "tokens": 100}}  # fmt: skip
    failed = {"kind": "k", "score": 0.0, "error": {"kind": "agent", "fault": "system"},
              "metrics": {"flow": None, "tokens": 300}}  # fmt: skip
    unscored = {
        "kind": "k",
        "score": None,
        "outcome": "error",
        "error": {"kind": "provider", "fault": "harness"},
        "metrics": {},
    }
    computed = compute_table(table, [answered, failed, unscored])
    assert computed is not None
    (row,) = computed["rows"]
    cells = {k: (c["mean"], c["n"]) for k, c in row["cells"].items()}
    assert cells == {"rate": (40.0, 2), "level": (3.0, 2), "calls": (4.0, 1), "flow": (60.0, 1), "tokens": (200.0, 2)}
    assert row["system_failures"] == 1 and row["errors"] == 1 and computed["incomplete"]["unscored"] == 1
