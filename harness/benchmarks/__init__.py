"""The benchmark registry: each task kind declares its typed parts and how it solves and scores a task."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any, Literal

from pydantic import BaseModel, Field, create_model

from harness.task import TaskBase


@dataclass(frozen=True)
class Benchmark:
    """A task kind. `run(task, ctx)` returns Scores for one repeat of one task."""

    kind: str
    description: str
    inputs: type[BaseModel]
    ground_truth: type[BaseModel]
    scoring: type[BaseModel]
    run: Callable[[Any, Any], Awaitable[Any]]
    default_pass_threshold: float = 60.0


_BENCHMARKS: dict[str, Benchmark] = {}
_TASK_MODELS: dict[str, type[TaskBase]] = {}
_BUILTINS_LOADED = False


def register_benchmark(benchmark: Benchmark) -> None:
    """Add a task kind (built-in benchmarks call this at import; plugins may too)."""
    _BENCHMARKS[benchmark.kind] = benchmark
    _TASK_MODELS[benchmark.kind] = create_model(
        f"{benchmark.kind.title().replace('-', '').replace('_', '')}Task",
        __base__=TaskBase,
        __doc__=benchmark.description,
        kind=(Literal[benchmark.kind], Field(description=benchmark.description)),  # type: ignore[valid-type]
        inputs=(benchmark.inputs, Field(description="What the system under test is given.")),
        ground_truth=(benchmark.ground_truth, Field(description="What a correct answer contains.")),
        scoring=(benchmark.scoring, Field(default_factory=benchmark.scoring, description="How it is scored.")),
    )


def _load_builtins() -> None:
    global _BUILTINS_LOADED
    if not _BUILTINS_LOADED:
        _BUILTINS_LOADED = True
        from harness.benchmarks import qa  # noqa: F401


def get_benchmark(kind: str) -> Benchmark:
    _load_builtins()
    return _BENCHMARKS[kind]


def task_model_for(kind: Any) -> type[TaskBase] | str:
    """The task model of a kind, or a message saying why there is none."""
    _load_builtins()
    if kind is None:
        return f"required field is missing; expected one of {sorted(_BENCHMARKS)}"
    if not isinstance(kind, str) or kind not in _TASK_MODELS:
        return f"unknown kind {kind!r}; expected one of {sorted(_BENCHMARKS)}"
    return _TASK_MODELS[kind]


def all_task_models() -> list[type[TaskBase]]:
    _load_builtins()
    return [_TASK_MODELS[k] for k in sorted(_TASK_MODELS)]
