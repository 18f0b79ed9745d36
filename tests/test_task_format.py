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


GOOD = """\
tasks:
  - id: a
    kind: qa
    version: 1
    metadata:
      {expert_minutes: 3, collected: 2026-11-01}
    inputs: {prompt: hi}
    ground_truth: {answer: x}
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
        (GOOD.replace("collected: 2026-11-01", "collected: 2026-13-45"), 6, "cannot read timestamp value '2026-13-45'"),
        (GOOD.replace("version: 1", "version: !!int abc"), 4, "cannot read int value 'abc'"),
        (GOOD.replace("version: 1", "version: 123456789012345678901234567890123456789012345678901"), 4, "out of range"),
        (GOOD.replace("version: 1", "version: 2000000"), 4, "field 'version': Input should be less than or equal"),
        (GOOD.replace("expert_minutes: 3", "expert_minutes: 1e400"), 6, "field 'metadata.expert_minutes'"),
        (GOOD.replace("expert_minutes: 3", "expert_minutes: .inf"), 6, "is not a finite number"),
        (GOOD.replace("    kind: qa\n", "    kind: qa\n    kind: qa\n"), 4, "duplicate key 'kind' (first at line 3)"),
        (
            GOOD.replace("ground_truth: {answer: x}", "ground_truth: {answer: x, answer: y}"),
            8,
            "duplicate key 'answer'",
        ),
        (
            GOOD.replace("id: a", "id: !!python/object/apply:os.system [echo hi]"),
            2,
            "could not determine a constructor",
        ),
        (GOOD.replace("id: a", "id: " + "x" * 1_000_000), 2, "String should have at most 120 characters"),
    ],
)
def test_malformed_entries_name_file_line_and_field(tmp_path: Path, text: str, line: int, needle: str) -> None:
    path = write(tmp_path, text)
    loaded = load_task_file(path, "evals/x/tasks.yaml")
    assert loaded.problems, "a malformed file must report a problem"
    first = str(loaded.problems[0])
    assert first.startswith(f"evals/x/tasks.yaml:{line}: "), first
    assert needle in first
    assert "\n" not in first and len(first) < 400, "one short line, even for a huge value"


def test_the_good_file_of_the_malformed_cases_loads() -> None:
    import tempfile

    with tempfile.TemporaryDirectory() as folder:
        loaded = load_task_file(write(Path(folder), GOOD))
    assert loaded.problems == [] and [t.id for t, _ in loaded.tasks] == ["a"]


def test_an_alias_bomb_is_refused_quickly(tmp_path: Path) -> None:
    import time

    lines = ["a: &a [x, x, x, x, x, x, x, x, x, x]"]
    lines += [f"{chr(98 + i)}: &{chr(98 + i)} [{', '.join(['*' + chr(97 + i)] * 10)}]" for i in range(8)]
    lines += ["tasks: [*i]"]
    started = time.perf_counter()
    loaded = load_task_file(write(tmp_path, "\n".join(lines) + "\n"))
    assert time.perf_counter() - started < 2
    assert "aliases" in str(loaded.problems[0])


def test_every_committed_task_file_matches_the_published_schema() -> None:
    """The JSON Schema editors use must accept what the project ships (and what the loader accepts)."""
    import yaml

    jsonschema = pytest.importorskip("jsonschema")
    root = Path(__file__).resolve().parent.parent
    schema = json.loads((root / "docs" / "task.schema.json").read_text())
    files = sorted((root / "evals").rglob("*.yaml"))
    assert files
    for path in files:
        data = json.loads(json.dumps(yaml.safe_load(path.read_text()), default=str))
        jsonschema.validate(data, schema)
        loaded = load_task_file(path)
        assert loaded.problems == [], f"{path}: {loaded.problems[:3]}"


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
    alternatives = [
        schema["$defs"][a["$ref"].rsplit("/", 1)[-1]] if "$ref" in a else a for a in item.get("anyOf", [item])
    ]
    assert len(alternatives) >= 2  # one per registered kind
    for alternative in alternatives:
        assert alternative["required"] == ["id"]  # any other field may come from the file's defaults
        assert {"id", "kind", "version", "inputs", "ground_truth", "metadata"} <= set(alternative["properties"])


def test_published_schema_is_up_to_date() -> None:
    published = Path(__file__).resolve().parent.parent / "docs" / "task.schema.json"
    assert json.loads(published.read_text()) == task_json_schema(), "run: harness schema --output docs/task.schema.json"
