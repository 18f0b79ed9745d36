"""Why an item failed, where people look: the terminal, summary.md, results.json and report.html say what
was expected against what came, and what the judge was shown; --withhold-references keeps it all out."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from helpers import Project, stub_args

from harness.testing import StubProcess

TASKS = """
suite: why
defaults:
  kind: qa
  version: 1
  scoring: {method: contains}
tasks:
  - id: capital-wrong
    inputs: {prompt: "What is the capital of Australia? One word."}
    ground_truth: {answer: "Canberra", aliases: ["Canberra ACT"]}
  - id: capital-right
    inputs: {prompt: "What is the capital of Japan? One word."}
    ground_truth: {answer: "Tokyo"}
  - id: judged-wrong
    inputs: {prompt: "Name the gas that plants take in for photosynthesis."}
    ground_truth: {answer: "carbon dioxide", notes: "CO2 also counts."}
    scoring: {method: judge}
"""


@pytest.fixture
def why_stub(fresh_stub: StubProcess) -> StubProcess:
    fresh_stub.control(
        answers={
            "What is the capital of Australia? One word.": "Sydney",
            "What is the capital of Japan? One word.": "Tokyo",
            "Name the gas that plants take in for photosynthesis.": "oxygen, mostly",
        },
        judge_default={"grade": "incorrect", "reasoning": "The answer names oxygen, which plants give off."},
    )
    return fresh_stub


def _run(project: Project, stub: StubProcess, *extra: str):  # type: ignore[no-untyped-def]
    project.write("evals/why/tasks.yaml", TASKS)
    (project.root / "prompts").mkdir(exist_ok=True)
    return project.pytest("evals", *stub_args(stub), "-p", "no:randomly", *extra)


def test_every_output_says_what_was_expected_against_what_came(project: Project, why_stub: StubProcess) -> None:
    out = _run(project, why_stub)
    assert out.returncode == 1, out.stdout[-3000:]
    results = {r["task_id"]: r for r in out.run["results"]}
    # results.json: the reference as the kind defines it, and its one line
    assert results["capital-wrong"]["reference"] == {"answer": "Canberra", "aliases": ["Canberra ACT"]}
    assert results["capital-wrong"]["expected"] == "'Canberra' (or 'Canberra ACT')"
    assert results["capital-right"]["reference"] == {"answer": "Tokyo"}
    # what the judge was shown: the reference, and the answer inside its data section
    judged = results["judged-wrong"]
    shown = judged["judges"][0]["prompt"]
    assert "carbon dioxide" in shown and "oxygen, mostly" in shown and "CO2 also counts." in shown
    # the terminal's failure line: one line, expected against got
    lines = out.stdout.splitlines()
    line = lines[next(i for i, x in enumerate(lines) if "_ why::capital-wrong _" in x) + 1]
    assert line == (
        "score 0.0 is below the pass threshold 60: expected 'Canberra' (or 'Canberra ACT'); got 'Sydney'"
    ), line
    judged_line = lines[next(i for i, x in enumerate(lines) if "_ why::judged-wrong _" in x) + 1]
    assert "expected 'carbon dioxide'; got 'oxygen, mostly'" in judged_line, judged_line
    # summary.md: the failed items, lowest score first, with expected, got and why
    run_dir = out.report_dir / out.run["run"]["run_id"]
    summary = (run_dir / "summary.md").read_text()
    section = summary.split("## Failed items (2)", 1)[1].split("\n## ", 1)[0]
    rows = [r for r in section.splitlines() if r.startswith("| `")]
    assert len(rows) == 2 and all("Canberra" in r or "carbon dioxide" in r for r in rows), section
    assert any("which plants give off" in r for r in rows), section
    assert not any("capital-right" in r for r in rows)
    # report.html: a failed-items section first, with the reference and the judge's prompt
    html = (run_dir / "report.html").read_text()
    main = html.split("<main>", 1)[1]
    assert main.index('<section id="failed">') < main.index('<section id="scores">')
    failed = main.split('<section id="failed">', 1)[1].split("</section>", 1)[0]
    assert "capital-wrong" in failed and "judged-wrong" in failed and "capital-right" not in failed
    assert "What the judge was shown" in failed and "CO2 also counts." in failed
    assert '<a href="#failed">' in html.split("<main>", 1)[0]  # the sticky navigation reaches it
    assert 'id="show-failed"' in html and "<script" not in html  # the filter needs no script


def test_withheld_references_reach_no_output(project: Project, why_stub: StubProcess) -> None:
    out = _run(project, why_stub, "--withhold-references")
    assert out.returncode == 1, out.stdout[-3000:]
    run = out.run
    assert run["run"]["references_withheld"] is True
    run_dir = out.report_dir / run["run"]["run_id"]
    for text in (
        out.stdout,
        (run_dir / "results.json").read_text(),
        (run_dir / "summary.md").read_text(),
        (run_dir / "report.html").read_text(),
    ):
        assert "Canberra" not in text and "carbon dioxide" not in text and "CO2 also counts" not in text
    assert all(r["reference"] is None for r in run["results"])
    assert json.loads((run_dir / "results.json").read_text())["results"][0]["judges"] is not None


def test_reference_line_shapes() -> None:
    from harness.reference import expected_line

    assert expected_line({"expected": {"companies": ["Acme", "Globex"]}}) == "companies: Acme, Globex"
    assert expected_line({"questions": [{"question": "Where did she study?", "answer": "Oxford"}]}) == (
        "Where did she study? -> Oxford"
    )
    assert expected_line({"selected": ["https://a.example/x", "https://a.example/y"]}).startswith("picks: ")
    assert expected_line(None) is None
    assert len(expected_line({"answer": "x" * 500}) or "") <= 160


def test_schema_describes_the_new_fields() -> None:
    schema = json.loads((Path(__file__).resolve().parent.parent / "harness/schemas/results.schema.json").read_text())
    text = json.dumps(schema)
    for field in ("references_withheld", '"reference"', '"expected"'):
        assert field in text, field
