"""Task files as pytest collectors and tasks as pytest items.

Invalid entries become items that error with a one-line, file:line message, instead of collection errors,
because pytest stops the whole session on a collection error and one bad task must not stop the others.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from harness import xdist_support
from harness.errors import HarnessError, TaskFileError
from harness.result import error_result
from harness.run_state import RUN_STATE, SETTINGS
from harness.task import TaskProblem, load_task_file

TASK_SUFFIXES = (".yaml", ".yml")


def is_task_file(path: Path) -> bool:
    """YAML files inside an `evals` folder (at any depth) hold tasks; other YAML is left alone."""
    return path.suffix in TASK_SUFFIXES and "evals" in path.parts[:-1]


class ScoreBelowThreshold(AssertionError):
    """The item ran and was scored, but below its pass threshold: a failure, not an error."""


class TaskFile(pytest.File):
    def collect(self) -> Iterator[pytest.Item]:
        shown = _display_path(self.path, self.config)
        loaded = load_task_file(self.path, shown)
        by_task: dict[Any, list[TaskProblem]] = defaultdict(list)
        for problem in loaded.problems:
            by_task[problem.task_index if problem.task_index is not None else f"file@{problem.line}"].append(problem)
        used_names: set[str] = {task.id for task, _ in loaded.tasks}
        for key, problems in by_task.items():
            name = _invalid_item_name(key, problems, used_names)
            used_names.add(name)
            yield InvalidTaskItem.from_parent(self, name=name, problems=problems, suite=loaded.suite)
        for task, line in loaded.tasks:
            yield TaskItem.from_parent(self, name=task.id, task=task, line=line, suite_threshold=loaded.pass_threshold)


def _display_path(path: Path, config: pytest.Config) -> str:
    try:
        return str(path.relative_to(config.rootpath))
    except ValueError:
        return str(path)


def _invalid_item_name(key: Any, problems: list[TaskProblem], used: set[str]) -> str:
    task_id = problems[0].task_id
    base = (
        task_id
        if isinstance(task_id, str) and task_id and "::" not in task_id
        else (f"tasks[{key}]" if isinstance(key, int) else f"invalid-file-line{problems[0].line}")
    )
    name, n = base, 2
    while name in used:
        name, n = f"{base}#{n}", n + 1
    return name


def _register_marker(config: pytest.Config, name: str, what: str) -> None:
    line = f"{name}: {what} (added by the harness)"
    if line not in config.getini("markers"):
        config.addinivalue_line("markers", line)


class TaskItem(pytest.Item):
    """One task. Setup does the model work (so a provider or judge failure is a pytest error); the call
    phase only compares the score with the pass threshold (so a low score is a pytest failure)."""

    def __init__(self, *, task: Any, line: int, suite_threshold: float | None, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.task = task
        self.line = line
        self.suite_threshold = suite_threshold
        self.result: dict[str, Any] | None = None
        self.add_marker("harness_task")
        for marker, what in (
            (task.kind, "benchmark kind"),
            (task.metadata.mode, "task mode"),
            *((tag, "task tag") for tag in task.metadata.tags),
        ):
            _register_marker(self.config, marker, what)
            self.add_marker(marker)

    @property
    def pass_threshold(self) -> float:
        from harness.benchmarks import get_benchmark

        chosen = self.config.stash[SETTINGS].pass_threshold
        for candidate in (chosen, self.task.pass_threshold, self.suite_threshold):
            if candidate is not None:
                return float(candidate)
        return get_benchmark(self.task.kind).default_pass_threshold

    def _runner(self) -> Any:
        state = self.config.stash[RUN_STATE]
        if state.runner is None:
            from harness.runner import Runner
            from harness.services import build_services

            settings = self.config.stash[SETTINGS]
            progress = state.progress
            state.runner = Runner(
                lambda: build_services(settings, state.run_id),
                repeats=settings.repeats,
                max_items_in_flight=2 * settings.concurrency,
                on_tick=progress.tick if progress is not None else None,
                tick_interval_s=progress.interval_s if progress is not None else 2.0,
            )
            if progress is not None:
                progress.attach(state.runner)
        return state.runner

    def start_work(self) -> None:
        self._runner().start(self.nodeid, self.task, self.pass_threshold)

    def setup(self) -> None:
        runner = self._runner()
        if xdist_support.is_worker(self.config):
            items = self.session.items
            for index in xdist_support.pending_item_indices(self.config):
                other = items[index] if 0 <= index < len(items) else None
                if isinstance(other, TaskItem) and other is not self:
                    other.start_work()
        self.result = runner.wait(self.nodeid, self.task, self.pass_threshold)
        self.user_properties.extend(
            [
                ("harness_task_version", self.task.version),
                ("harness_score", self.result["score"]),
                ("harness_passed", self.result["passed"]),
                ("harness_cost_usd", self.result["usage"]["cost_usd"]),
            ]
        )
        error = self.result["error"]
        if error is not None:
            raise ItemError(f"[{error['kind']}] {error['message']}")

    def runtest(self) -> None:
        assert self.result is not None
        if not self.result["passed"]:
            raise ScoreBelowThreshold(
                f"score {self.result['score']:.1f} is below the pass threshold {self.result['pass_threshold']:g}"
            )

    def result_for_report(self, when: str, outcome: str) -> dict[str, Any] | None:
        if when == "setup" and outcome != "passed":
            if self.result is not None:
                return self.result
            return error_result(
                task_id=self.task.id,
                suite=self.task.suite,
                kind=self.task.kind,
                error={"kind": "internal", "message": "setup failed before the task ran"},
            )
        if when == "call":
            return self.result
        return None

    def repr_failure(self, excinfo: pytest.ExceptionInfo[BaseException], style: Any = None) -> str:
        if isinstance(excinfo.value, HarnessError | ScoreBelowThreshold):
            return str(excinfo.value)
        return str(super().repr_failure(excinfo, style=style))

    def reportinfo(self) -> tuple[Path, int, str]:
        return self.path, self.line - 1, f"{self.task.suite}::{self.task.id}"


class ItemError(HarnessError):
    """Raised in setup to turn an item's error result into a pytest error."""


class InvalidTaskItem(pytest.Item):
    """A task entry (or a whole file) that failed validation; it errors with the located problems."""

    def __init__(self, *, problems: list[TaskProblem], suite: str, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.problems = problems
        self.suite = suite
        self.add_marker("harness_task")

    @property
    def message(self) -> str:
        return "\n".join(str(p) for p in self.problems)

    def setup(self) -> None:
        raise TaskFileError(self.message)

    def runtest(self) -> None:  # never reached: setup always raises
        raise TaskFileError(self.message)

    def result_for_report(self, when: str, outcome: str) -> dict[str, Any] | None:
        if when != "setup":
            return None
        return error_result(
            task_id=self.name, suite=self.suite, kind=None, error={"kind": "invalid-task", "message": self.message}
        )

    def repr_failure(self, excinfo: pytest.ExceptionInfo[BaseException], style: Any = None) -> str:
        return self.message

    def reportinfo(self) -> tuple[Path, int, str]:
        return self.path, self.problems[0].line - 1, f"invalid task: {self.name}"
