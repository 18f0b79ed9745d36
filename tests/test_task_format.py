"""The task format: valid files load; every kind of malformed entry gives a located one-line problem."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from harness.task import load_task_file, task_json_schema

VALID = """\
suite: demo
defaults:
  kind: qa
  version: 2
  metadata: {mode: static, tags: [alpha]}
tasks:
  - id: one
    inputs: {prompt: "Say one."}
    ground_truth: {answer: "one"}
    metadata: {expert_minutes: 3, tags: [beta]}
  - id: two
    inputs: {prompt: "Say two."}
    ground_truth: {answer: "two"}
    scoring: {method: contains}
"""


def write(tmp_path: Path, text: str, name: str = "tasks.yaml") -> Path:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


def test_valid_file_loads_typed_tasks_with_defaults_merged(tmp_path: Path) -> None:
    loaded = load_task_file(write(tmp_path, VALID))
    assert loaded.problems == []
    assert loaded.suite == "demo"
    (one, line_one), (two, line_two) = loaded.tasks
    assert (one.id, one.version, one.kind, one.suite) == ("one", 2, "qa", "demo")
    assert one.metadata.tags == ("beta",)  # the task's own metadata wins key by key
    assert one.metadata.mode == "static" and one.metadata.expert_minutes == 3
    assert two.scoring.method == "contains" and one.scoring.method == "exact"
    assert (line_one, line_two) == (7, 11)


@pytest.mark.parametrize(
    ("text", "line", "needle"),
    [
        (
            "tasks:\n  - kind: qa\n    version: 1\n    inputs: {prompt: hi}\n    ground_truth: {answer: x}\n",
            2,
            "field 'id': required field is missing (expected a string)",
        ),
        (
            "tasks:\n  - id: a\n    kind: qa\n    version: one\n    inputs: {prompt: hi}\n"
            "    ground_truth: {answer: x}\n",
            4,
            "field 'version': Input should be a valid integer",
        ),
        (
            "tasks:\n  - id: a\n    kind: qa\n    version: 1\n    inputs: {prompt: 5}\n    ground_truth: {answer: x}\n",
            5,
            "field 'inputs.prompt': Input should be a valid string",
        ),
        ("tasks:\n  - id: a\n    kind: nope\n    version: 1\n", 3, "unknown kind 'nope'"),
        (
            "tasks:\n  - id: a\n    kind: qa\n    version: 1\n    inputs: {prompt: hi}\n"
            "    ground_truth: {answer: x}\n    colour: red\n",
            7,
            "field 'colour': unknown field",
        ),
        (
            "tasks:\n  - id: a\n    kind: qa\n    version: 1\n    inputs: {prompt: hi, tools: [hammer]}\n"
            "    ground_truth: {answer: x}\n",
            5,
            "unknown tool(s) ['hammer']",
        ),
        ("tasks:\n  - id: a\n    kind: qa\n  version: 1\n", 4, "YAML syntax error"),
        ("- just\n- a list\n", 1, "expected a mapping with a 'tasks' list"),
        ("tasks: []\n", 1, "field 'tasks': List should have at least 1 item"),
    ],
)
def test_malformed_entries_name_file_line_and_field(tmp_path: Path, text: str, line: int, needle: str) -> None:
    path = write(tmp_path, text)
    loaded = load_task_file(path, "evals/x/tasks.yaml")
    assert loaded.problems, "a malformed file must report a problem"
    first = str(loaded.problems[0])
    assert first.startswith(f"evals/x/tasks.yaml:{line}: "), first
    assert needle in first
    assert "\n" not in first


def test_duplicate_ids_point_at_the_second_and_keep_the_first(tmp_path: Path) -> None:
    text = VALID.replace("id: two", "id: one")
    loaded = load_task_file(write(tmp_path, text))
    assert [t.id for t, _ in loaded.tasks] == ["one"]
    (problem,) = loaded.problems
    assert problem.line == 11 and "duplicate task id 'one' (first defined at line 7)" in problem.message


def test_one_bad_task_does_not_hide_the_good_ones(tmp_path: Path) -> None:
    text = VALID.replace('inputs: {prompt: "Say two."}', "inputs: {prompt: 7}")
    loaded = load_task_file(write(tmp_path, text))
    assert [t.id for t, _ in loaded.tasks] == ["one"]
    assert len(loaded.problems) == 1 and loaded.problems[0].task_id == "two"


def test_schema_is_json_and_describes_the_sample_files() -> None:
    schema = task_json_schema()
    json.dumps(schema)
    item = schema["properties"]["tasks"]["items"]
    assert item["required"] == ["id"]
    assert {"id", "kind", "version", "inputs", "ground_truth", "metadata"} <= set(item["properties"])


def test_published_schema_is_up_to_date() -> None:
    published = Path(__file__).resolve().parent.parent / "docs" / "task.schema.json"
    assert json.loads(published.read_text()) == task_json_schema(), "run: harness schema --output docs/task.schema.json"
