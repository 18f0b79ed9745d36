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


def test_a_cap_reached_without_an_answer_keeps_the_cap_and_the_effort(
    project: Project, fresh_stub: StubProcess
) -> None:
    """The tool loop runs to its cap (every calculator call refused), and the final turn without tools says
    nothing: a system failure (0) whose result still says which cap stopped it and what the attempt took."""
    project.copy_sample()
    refused = [{"name": "calculator", "arguments": {"expression": "1234 * (5678"}}] * 30
    fresh_stub.control(tool_calls={"1234 * 5678": refused}, default_answer="")
    out = project.pytest("evals/sample", *stub_args(fresh_stub), "-k", "calculator-product")
    (result,) = out.results.values()
    assert result["score"] == 0.0 and result["error"]["fault"] == "system"
    assert "reached its step limit (13 turns" in result["error"]["message"]
    assert result["details"]["stopped"] == "step_limit" and len(result["details"]["trajectory"]) == 12
    assert result["metrics"]["tool_calls"] == 12.0 and result["metrics"]["steps"] == 13.0
    assert result["metrics"]["tokens"] > 0


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


def test_several_runs_side_by_side_mark_the_incomplete_one(tmp_path: Any, capsys: Any) -> None:
    """`harness report RUN RUN`: a run with an unscored item, and one with a judged value missing, say so on
    their rows and below the table (text, --markdown and --json), as the one-run report does."""
    from harness.benchmarks import Column, Section, Table
    from harness.cli import main
    from harness.report.aggregate import summarize
    from harness.report.tables import compute_table

    table = Table(name="t", title="T", kinds=("k",), rows=("kind",),
                  sections=(Section("S", (Column("rate", "Rate", "rate"), Column("flow", "Flow", "flow")),
                                    overall="mean_of_items", overall_label="Average"),))  # fmt: skip

    def item(task: str, score: float | None, **extra: Any) -> dict[str, Any]:
        usage = {"calls": 0, "input_tokens": 0, "output_tokens": 0, "cost_usd": 0.0, "cost_known": True,
                 "cache_hits": 0}  # fmt: skip
        return {"suite": "s", "task_id": task, "kind": "k", "score": score, "error": None, "usage": usage,
                "outcome": "passed" if score is not None else "error", "metrics": {"rate": score, "flow": score},
                **extra}  # fmt: skip

    runs = {
        "complete": [item("a", 80.0), item("b", 60.0)],
        "unscored": [item("a", 80.0), item("b", None, error={"kind": "judge", "fault": "harness"})],
        "unmeasured": [item("a", 80.0), item("b", 60.0, incomplete=["flow"])],
    }
    paths = []
    for run_id, results in runs.items():
        computed = compute_table(table, results)
        document = {"run": {"run_id": run_id, "options": {"model": f"openai/{run_id}"}}, "results": results,
                    "totals": summarize(results), "tables": [computed]}  # fmt: skip
        paths.append(tmp_path / f"{run_id}.json")
        paths[-1].write_text(json.dumps(document))
    assert main(["report", *map(str, paths), "--json"]) == 0
    board = {r["run_id"]: r for r in json.loads(capsys.readouterr().out)["runs"]}
    assert board["complete"]["incomplete"] is None
    assert board["unscored"]["incomplete"]["message"].startswith("INCOMPLETE: 1 of 2 items unscored")
    assert board["unscored"]["tables"]["t"][0]["unscored"] == 1
    assert "1 judged value missing" in board["unmeasured"]["incomplete"]["message"]
    assert board["unmeasured"]["tables"]["t"][0]["incomplete_values"] == ["Flow"]
    assert main(["report", *map(str, paths)]) == 0
    text = capsys.readouterr().out
    rows = {line.split()[0]: line.split() for line in text.splitlines() if line.split()[:1] in (["complete"],
            ["unscored"], ["unmeasured"])}  # fmt: skip
    assert rows["complete"][1] == "openai/complete" and rows["complete"][-1] == "0"
    assert rows["unscored"][1] == "(INCOMPLETE)" and rows["unscored"][-1] == "1"
    assert rows["unmeasured"][1] == "(INCOMPLETE)" and "70.0*" in rows["unmeasured"]
    assert "unscored: INCOMPLETE: 1 of 2 items unscored" in text
    assert main(["report", *map(str, paths), "--markdown"]) == 0
    markdown = capsys.readouterr().out
    assert (
        "| unscored (INCOMPLETE) | openai/unscored |" in markdown and "**unmeasured: INCOMPLETE: 1 judged" in markdown
    )
