"""Task files as pytest collectors, and one pytest item per (task, variant, repeat).

Invalid entries become items that error with one located line per problem, instead of collection errors,
because pytest stops the whole session on a collection error and one bad task must not stop the others.
"""

from __future__ import annotations

import hashlib
from collections import defaultdict
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from harness import xdist_support
from harness.errors import HarnessError, TaskFileError
from harness.item_names import item_name
from harness.kinds import CollectionChecks, get_benchmark
from harness.project import TASK_SUFFIXES, is_task_file  # noqa: F401 (re-exported: plugin.py)
from harness.reference import failure_line
from harness.result import error_result
from harness.run_state import RUN_STATE, SETTINGS
from harness.task import TaskProblem, load_task_file

MAX_NAME = 80


def short_name(text: str) -> str:
    """A name safe to show: long or odd names are cut and tagged with a hash so they stay unique."""
    if len(text) <= MAX_NAME and "::" not in text:
        return text
    digest = hashlib.sha256(text.encode("utf-8", "replace")).hexdigest()[:8]
    return f"{text[:40].replace('::', '_')}...{digest}"


class ScoreBelowThreshold(AssertionError):
    """The item ran and was scored, but below its pass threshold: a failure, not an error."""


@dataclass(frozen=True)
class ItemSpec:
    """What an item evaluates; it is also the work unit the runner schedules."""

    task: Any
    variant: str | None
    repeat: int
    task_path: Path
    repeats: int = 1  # how many the run makes: an item's name carries its repeat only when there are several


class _OneLineReports:
    """pytest asks the item for the text of a failure (`repr_failure` in the call phase, `_repr_failure_py`
    in setup and teardown); a harness item answers with its one line (harness.one_line), so pytest
    never formats a traceback for it: a failed item costs what a passed one does."""

    config: pytest.Config

    def repr_failure(self, excinfo: pytest.ExceptionInfo[BaseException], style: Any = None) -> Any:
        return self._one_line(excinfo)

    def _repr_failure_py(self, excinfo: pytest.ExceptionInfo[BaseException], style: Any = None) -> Any:
        return self._one_line(excinfo)

    def _one_line(self, excinfo: pytest.ExceptionInfo[BaseException]) -> str:
        from harness.one_line import one_line_report

        return one_line_report(self.config, excinfo.value)


class TaskFile(pytest.File):
    def collect(self) -> Iterator[pytest.Item]:
        shown = _display_path(self.path, self.config)
        try:
            yield from self._collect(shown)
        except Exception as exc:  # a bug in a kind's validator must not stop the session
            problem = TaskProblem(shown, 1, f"cannot load this file: {type(exc).__name__}: {str(exc)[:300]}")
            yield InvalidTaskItem.from_parent(
                self, name="invalid-file", problems=[problem], suite=self.path.parent.name
            )

    def _collect(self, shown: str) -> Iterator[pytest.Item]:
        settings = self.config.stash[SETTINGS]
        loaded = load_task_file(self.path, shown)
        by_task: dict[Any, list[TaskProblem]] = defaultdict(list)
        for problem in loaded.problems:
            by_task[problem.task_index if problem.task_index is not None else f"file@{problem.line}"].append(problem)
        checks = _collection_checks(self.config)
        good = []
        for task, line in loaded.tasks:
            problems = [
                TaskProblem(shown, line, f"task {task.id!r}: {message}")
                for message in get_benchmark(task.kind).check(task, self.path, checks)
            ]
            if problems:
                by_task[f"task:{task.id}"].extend(problems)
            else:
                good.append((task, line))
        used_names: set[str] = {task.id for task, _ in good}
        for key, problems in by_task.items():
            name = _invalid_item_name(key, problems, used_names)
            used_names.add(name)
            yield InvalidTaskItem.from_parent(self, name=name, problems=problems, suite=loaded.suite)
        for task, line in good:
            benchmark = get_benchmark(task.kind)
            for variant in benchmark.variants(task, settings):
                for repeat in range(settings.repeats):
                    yield TaskItem.from_parent(
                        self,
                        name=item_name(task.id, variant, repeat, settings.repeats),
                        spec=ItemSpec(
                            task=task, variant=variant, repeat=repeat, task_path=self.path, repeats=settings.repeats
                        ),
                        line=line,
                        display_path=shown,
                        suite_threshold=loaded.pass_threshold,
                    )


def _collection_checks(config: pytest.Config) -> Any:
    from harness.services import prompt_library

    settings = config.stash[SETTINGS]
    return CollectionChecks(prompts=prompt_library(settings.rootdir), fixtures_dir=settings.fixtures_dir)


def _display_path(path: Path, config: pytest.Config) -> str:
    try:
        return str(path.relative_to(config.stash[SETTINGS].rootdir))
    except ValueError:
        return str(path)


def _invalid_item_name(key: Any, problems: list[TaskProblem], used: set[str]) -> str:
    task_id = problems[0].task_id
    if isinstance(key, str) and key.startswith("task:"):
        base = key[len("task:") :]
    elif isinstance(task_id, str) and task_id:
        base = short_name(task_id)
    else:
        base = f"tasks[{key}]" if isinstance(key, int) else f"invalid-file-line{problems[0].line}"
    name, n = base, 2
    while name in used:
        name, n = f"{base}#{n}", n + 1
    return name


def _register_marker(config: pytest.Config, name: str, what: str) -> None:
    line = f"{name}: {what} (added by the harness)"
    if line not in config.getini("markers"):
        config.addinivalue_line("markers", line)


def reject_duplicate_ids(items: list[pytest.Item]) -> list[pytest.Item]:
    """A task id is unique within its suite across files (reports, baselines and the index key on it):
    the second and later definitions become errors that name the first."""
    first: dict[tuple[str, str], str] = {}
    out: list[pytest.Item] = []
    replaced: set[tuple[str, str, str]] = set()
    for item in items:
        if not isinstance(item, TaskItem):
            out.append(item)
            continue
        task = item.spec.task
        key = (task.suite, task.id)
        where = f"{item.display_path}:{item.line}"
        origin = first.setdefault(key, where)
        if origin.rsplit(":", 1)[0] == where.rsplit(":", 1)[0]:
            out.append(item)
            continue
        marker = (task.suite, task.id, where)
        if marker in replaced:
            continue  # one error item per duplicate definition, not one per variant and repeat
        replaced.add(marker)
        problem = TaskProblem(
            item.display_path,
            item.line,
            f"duplicate task id {task.id!r} in suite {task.suite!r} (first defined at {origin})",
        )
        parent = item.parent
        assert parent is not None
        out.append(InvalidTaskItem.from_parent(parent, name=task.id, problems=[problem], suite=task.suite))
    return out


class TaskItem(_OneLineReports, pytest.Item):
    """One (task, variant, repeat). Setup does the model work (so a provider or judge failure is a pytest
    error); the call phase only compares the score with the pass threshold (a low score is a failure)."""

    def __init__(
        self, *, spec: ItemSpec, line: int, display_path: str, suite_threshold: float | None, **kwargs: Any
    ) -> None:
        super().__init__(**kwargs)
        self.spec = spec
        self.line = line
        self.display_path = display_path
        self.suite_threshold = suite_threshold
        self.result: dict[str, Any] | None = None
        task = spec.task
        self.add_marker("harness_task")
        for marker, what in (
            (task.kind, "benchmark kind"),
            (task.metadata.mode, "task mode"),
            *((tag, "task tag") for tag in task.metadata.tags),
        ):
            _register_marker(self.config, marker, what)
            self.add_marker(marker)

    @property
    def task(self) -> Any:
        return self.spec.task

    @property
    def pass_threshold(self) -> float:
        chosen = self.config.stash[SETTINGS].pass_threshold
        for candidate in (chosen, self.task.pass_threshold, self.suite_threshold):
            if candidate is not None:
                return float(candidate)
        return get_benchmark(self.task.kind).default_pass_threshold

    def _runner(self) -> Any:
        state = self.config.stash[RUN_STATE]
        if state.runner is None:
            from harness.services import build_runner

            shared = xdist_support.is_worker(self.config)
            state.runner = build_runner(
                self.config.stash[SETTINGS], state.run_id, shared_cache=shared, local=state.local_endpoint
            )
            if state.progress is not None:
                state.progress.attach(state.runner)
        return state.runner

    def start_work(self) -> None:
        self._runner().start(self.nodeid, self.spec, self.pass_threshold)

    def setup(self) -> None:
        runner = self._runner()
        if xdist_support.is_worker(self.config):
            items = self.session.items
            for index in xdist_support.pending_item_indices(self.config):
                other = items[index] if 0 <= index < len(items) else None
                if isinstance(other, TaskItem) and other is not self:
                    other.start_work()
        state = self.config.stash[RUN_STATE]
        tick = state.progress.tick if state.progress is not None else None
        self.result = runner.wait(self.nodeid, self.spec, self.pass_threshold, on_tick=tick)
        self.user_properties.extend(
            [
                ("harness_task_version", self.task.version),
                ("harness_score", self.result["score"]),
                ("harness_passed", self.result["passed"]),
                ("harness_cost_usd", self.result["usage"]["cost_usd"]),
            ]
        )
        error = self.result["error"]
        if self.result["score"] is None:  # the harness could not measure it: a pytest error, unscored
            assert error is not None
            raise ItemError(f"[{error['kind']}] {error['message']}", traceback=error.get("traceback"))

    def runtest(self) -> None:
        assert self.result is not None
        error = self.result["error"]
        why = self._why()
        if error is not None:  # the system under test failed the task: it scored 0, a pytest failure
            raise ScoreBelowThreshold(
                f"[{error['kind']}] {error['message']} (the system under test failed: score 0){why}"
            )
        if not self.result["passed"]:
            raise ScoreBelowThreshold(
                f"score {self.result['score']:.1f} is below the pass threshold {self.result['pass_threshold']:g}{why}"
            )

    def _why(self) -> str:
        """`: expected X; got Y`, unless the run withholds its references."""
        assert self.result is not None
        if self.config.stash[SETTINGS].withhold_references:
            return ""
        line = failure_line(self.result)
        return f": {line}" if line else ""

    def result_for_report(self, when: str, outcome: str, error: dict[str, str] | None) -> dict[str, Any] | None:
        if when == "setup" and outcome != "passed":
            if self.result is not None:
                return self.result

            spec = self.spec
            result = error_result(
                task=spec.task,
                variant=spec.variant,
                repeat=spec.repeat,
                error=error or {"kind": "internal", "message": "setup failed before the task ran"},
            )
            result["labels"] = get_benchmark(spec.task.kind).labels(spec.task)
            return result
        if when == "call":
            return self.result
        return None

    def reportinfo(self) -> tuple[Path, int, str]:
        return self.path, self.line - 1, f"{self.task.suite}::{self.name}"


class ItemError(HarnessError):
    """Raised in setup to turn an item's error result into a pytest error."""

    def __init__(self, message: str, traceback: str | None = None) -> None:
        super().__init__(message)
        self.traceback = traceback


class InvalidTaskItem(_OneLineReports, pytest.Item):
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

    def result_for_report(self, when: str, outcome: str, error: dict[str, str] | None) -> dict[str, Any] | None:
        if when != "setup":
            return None
        return error_result(
            task=None,
            task_id=self.name,
            suite=self.suite,
            error={"kind": "invalid-task", "message": self.message},
        )

    def reportinfo(self) -> tuple[Path, int, str]:
        return self.path, self.problems[0].line - 1, f"invalid task: {self.name}"
