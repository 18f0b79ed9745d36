"""The task format: YAML files under `evals/`, validated into typed tasks with file:line errors.

A file holds one suite of tasks. Each task is validated on its own, so one bad entry becomes one
error item while its neighbours still run. Kind-specific parts (inputs, ground truth, scoring) come from
the benchmark registry, which also yields the published JSON Schema.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass, field
from pathlib import Path
from typing import Annotated, Any, Literal

import yaml
from pydantic import BaseModel, ConfigDict, Field, ValidationError

from harness.kinds import all_task_models, task_model_for
from harness.strict_yaml import YamlProblem, parse_yaml
from harness.task_model import TASK_ID_PATTERN


class SuiteFile(BaseModel):
    """The top level of a task file."""

    model_config = ConfigDict(extra="forbid", allow_inf_nan=False, defer_build=True)

    suite: str | None = Field(
        default=None, pattern=TASK_ID_PATTERN, max_length=80, description="Suite name; defaults to the folder name."
    )
    pass_threshold: float | None = Field(default=None, ge=0, le=100)
    defaults: dict[str, Any] = Field(
        default_factory=dict, description="Fields merged into every task (mapping fields merged key by key)."
    )
    tasks: list[Any] = Field(min_length=1, description="The tasks of this file.")


@dataclass(frozen=True)
class TaskProblem:
    """One thing wrong in a task file, located precisely enough to fix without searching."""

    path: str
    line: int
    message: str
    task_index: int | None = None
    task_id: str | None = None

    def __str__(self) -> str:
        return f"{self.path}:{self.line}: {self.message}"


@dataclass
class LoadedFile:
    """A task file after validation: the good tasks and the problems, never an exception."""

    path: Path
    suite: str
    pass_threshold: float | None
    tasks: list[tuple[Any, int]] = field(default_factory=list)  # (task, line)
    problems: list[TaskProblem] = field(default_factory=list)


def load_task_file(path: Path, display_path: str | None = None) -> LoadedFile:
    """Read and validate one task file; bad tasks become problems, good ones still load."""

    shown = display_path or str(path)
    loaded = LoadedFile(path=path, suite=path.parent.name, pass_threshold=None)
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        loaded.problems.append(TaskProblem(shown, 1, f"cannot read file: {exc}"))
        return loaded
    try:
        node, data = parse_yaml(text)
    except YamlProblem as exc:
        loaded.problems.append(TaskProblem(shown, exc.line, exc.message))
        return loaded
    if not isinstance(data, dict):
        got = type(data).__name__ if data is not None else "an empty file"
        loaded.problems.append(
            TaskProblem(shown, 1, f"expected a mapping with a 'tasks' list at the top level, got {got}")
        )
        return loaded
    try:
        header = SuiteFile.model_validate(data)
    except ValidationError as exc:
        for err in exc.errors():
            field_name = ".".join(str(p) for p in err["loc"])
            loaded.problems.append(
                TaskProblem(shown, _line_of(node, err["loc"]), f"field '{field_name}': {_describe(err)}")
            )
        return loaded
    loaded.suite = header.suite or loaded.suite
    loaded.pass_threshold = header.pass_threshold
    first_line_of_id: dict[str, int] = {}
    task_lines = _sequence_lines(node, "tasks")
    for index, raw in enumerate(header.tasks):
        task_line = task_lines[index] if index < len(task_lines) else 1
        raw_id = raw.get("id") if isinstance(raw, dict) else None
        if isinstance(raw_id, str) and len(raw_id) > 120:
            raw_id = None  # too long to be an id (the error says so); never a name of that size
        label = f"task {raw_id!r}" if isinstance(raw_id, str) else f"tasks[{index}]"
        if not isinstance(raw, dict):
            loaded.problems.append(
                TaskProblem(shown, task_line, f"{label}: expected a mapping, got {type(raw).__name__}", index)
            )
            continue
        merged = _merge_defaults(header.defaults, raw)
        model = task_model_for(merged.get("kind"))
        if isinstance(model, str):  # an explanation of why the kind is unusable
            line = _line_of(node, ("tasks", index, "kind"))
            loaded.problems.append(TaskProblem(shown, line, f"{label} field 'kind': {model}", index, raw_id))
            continue
        try:
            task = model.model_validate({**merged, "suite": loaded.suite})
        except ValidationError as exc:
            for err in exc.errors():
                loc = ("tasks", index, *err["loc"])
                line = _line_of(node, loc)
                field_name = ".".join(str(p) for p in err["loc"]) or "(task)"
                message = f"{label} field '{field_name}': {_describe(err, model)}"
                loaded.problems.append(TaskProblem(shown, line, message, index, raw_id))
            continue
        if task.id in first_line_of_id:
            loaded.problems.append(
                TaskProblem(
                    shown,
                    _line_of(node, ("tasks", index, "id")),
                    f"duplicate task id {task.id!r} (first defined at line {first_line_of_id[task.id]})",
                    index,
                    task.id,
                )
            )
            continue
        first_line_of_id[task.id] = task_line
        loaded.tasks.append((task, task_line))
    return loaded


def _line_of(node: yaml.Node | None, loc: tuple[Any, ...]) -> int:
    """The 1-based line of the deepest node along `loc` (a missing field points at its parent)."""
    if node is None:
        return 1
    current = node
    for part in loc:
        nxt = None
        if isinstance(current, yaml.MappingNode):
            for key_node, value_node in current.value:
                if getattr(key_node, "value", None) == str(part):
                    nxt = value_node
                    break
        elif isinstance(current, yaml.SequenceNode) and isinstance(part, int) and 0 <= part < len(current.value):
            nxt = current.value[part]
        if nxt is None:
            break
        current = nxt
    return current.start_mark.line + 1


def _sequence_lines(node: yaml.Node | None, key: str) -> list[int]:
    """The 1-based line of each entry of the sequence under `key` (one pass, not one walk per entry)."""
    if not isinstance(node, yaml.MappingNode):
        return []
    for key_node, value_node in node.value:
        if getattr(key_node, "value", None) == key and isinstance(value_node, yaml.SequenceNode):
            return [entry.start_mark.line + 1 for entry in value_node.value]
    return []


MERGED_FIELDS = ("inputs", "ground_truth", "scoring", "metadata")


def _merge_defaults(defaults: dict[str, Any], raw: dict[str, Any]) -> dict[str, Any]:
    """The task over the file's defaults; mapping fields (inputs, ground_truth, scoring, metadata) are
    merged key by key, so a file can set shared inputs once."""
    merged = {**defaults, **raw}
    for name, value in defaults.items():
        if isinstance(value, dict) and isinstance(raw.get(name), dict):
            merged[name] = {**value, **raw[name]}
    return merged


def _describe(err: dict[str, Any], model: type[BaseModel] | None = None) -> str:
    """pydantic's message plus what was expected and what was actually given, on one line."""
    message = err["msg"]
    if err["type"] == "missing":
        expected = _expected(model, err["loc"]) if model is not None else None
        return "required field is missing" + (f" (expected {expected})" if expected else "")
    if err["type"] == "extra_forbidden":
        return "unknown field (check its spelling against docs/task-format.md)"
    given = err.get("input")
    if given is not None and not isinstance(given, dict | list):
        shown = repr(given)
        if len(shown) > 60:
            shown = shown[:57] + "..."
        message += f", got {shown} ({type(given).__name__})"
    return message


def _expected(model: type[BaseModel], loc: tuple[Any, ...]) -> str | None:
    """A short description of the type a field expects, found by walking the model along `loc`."""
    import typing

    annotation: Any = model
    for part in loc:
        if isinstance(annotation, type) and issubclass(annotation, BaseModel) and part in annotation.model_fields:
            annotation = annotation.model_fields[str(part)].annotation
        else:
            return None
    origin = typing.get_origin(annotation)
    if origin is Literal:
        return "one of " + ", ".join(repr(v) for v in typing.get_args(annotation))
    if isinstance(annotation, type) and issubclass(annotation, BaseModel):
        required = [name for name, info in annotation.model_fields.items() if info.is_required()]
        return f"a mapping with {', '.join(required)}" if required else "a mapping"
    names = {str: "a string", int: "an integer", float: "a number", bool: "true or false", dt.date: "a date"}
    if origin in (tuple, list):
        return "a list"
    if origin is Annotated:
        annotation = typing.get_args(annotation)[0]
    return names.get(annotation)


def task_json_schema() -> dict[str, Any]:
    """The JSON Schema of a task file, for editors and for validation outside Python."""
    from typing import Union

    from pydantic import TypeAdapter

    models = all_task_models()
    task_type: Any = models[0] if len(models) == 1 else Union[tuple(models)]  # noqa: UP007
    task_schema = TypeAdapter(task_type).json_schema()
    defs = task_schema.pop("$defs", {})
    # Entries may take any field from the file's `defaults`, so an entry alone needs only its id;
    # the harness checks the other required fields after merging the defaults.
    for schema in [task_schema, *task_schema.get("anyOf", [])]:
        if "properties" in schema and "id" in schema["properties"]:
            schema["required"] = ["id"]
    # The mapping fields (inputs, ground_truth, scoring, metadata) are merged key by key with the
    # defaults' (one level deep), so their own required keys may come from there too.
    for schema in list(defs.values()):
        if not schema.get("title", "").endswith("Task"):
            continue
        schema["required"] = ["id"]
        for field_name in MERGED_FIELDS:
            prop = schema.get("properties", {}).get(field_name, {})
            target = str(prop.get("$ref", "")).removeprefix("#/$defs/")
            if target in defs and defs[target].get("required"):
                partial = {k: v for k, v in defs[target].items() if k != "required"}
                defs[f"{target}Entry"] = partial
                prop["$ref"] = f"#/$defs/{target}Entry"
    return {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "title": "harness task file",
        "description": "A YAML file under evals/ holding one suite of tasks.",
        "type": "object",
        "additionalProperties": False,
        "required": ["tasks"],
        "properties": {
            "suite": {"type": "string", "description": "Suite name; defaults to the folder name."},
            "pass_threshold": {"type": "number", "minimum": 0, "maximum": 100},
            "defaults": {"type": "object", "description": "Fields merged into every task."},
            "tasks": {"type": "array", "minItems": 1, "items": task_schema},
        },
        "$defs": defs,
    }
