"""The kind registry and its extension points: the contract between the core and the benchmarks.

A kind is a `Benchmark`: typed `inputs`, `ground_truth` and `scoring` models (they make the task schema),
`run(task, ctx)` (one item's work: returns `Scores`), and optional extension points: `variants` (items
beyond the repeat, e.g. GEM-Bench's solutions), `labels` (fields reports group by), `check` (problems
found at collection, before anything is paid for), `tables` (the benchmark's own report tables),
`derived_tables` (tables whose rows are not groups of items, computed by the benchmark) and `options`
(its own command-line options). See docs/writing-a-benchmark.md.

Why here and not in `harness.benchmarks`: the core (the task reader, the collector, the runner, the
report) asks the registry for a kind, and must not import the benchmarks' content to do so. The built-in
kinds are imported by name (`BUILTIN_MODULES`) the first time the registry is asked, as plugins are.
`harness.benchmarks` re-exports every name, so a benchmark author imports from there as before.
"""

from __future__ import annotations

import importlib
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal, Protocol, TypeVar

from pydantic import BaseModel, Field, create_model

from harness.task_model import TaskBase

if TYPE_CHECKING:
    from harness.context import ItemContext
    from harness.estimate import Need
    from harness.scores import Scores
    from harness.settings import Settings

BUILTIN_MODULES = (
    "harness.benchmarks.qa",
    "harness.benchmarks.gem",
    "harness.benchmarks.recruitment",
    "harness.benchmarks.marketing",
)


@dataclass(frozen=True)
class Column:
    """One cell of a table row: the mean of a metric (or of the score) over the row's scored items,
    optionally only over items whose fields match `where` (for example one task kind)."""

    key: str
    label: str
    metric: str = "score"
    where: tuple[tuple[str, str], ...] = ()
    in_overall: bool = True
    scale: str = "0..100"  # how to read the number: a range "low..high" (intervals stay inside it) or a unit


@dataclass(frozen=True)
class Section:
    """Columns that belong together, with an optional overall: the unweighted mean of the available
    column means (`"mean_of_columns"`) or the mean over every scored item of the row (`"mean_of_items"`)."""

    title: str
    columns: tuple[Column, ...]
    overall: Literal["mean_of_columns", "mean_of_items"] | None = "mean_of_columns"
    overall_label: str = "Overall"


@dataclass(frozen=True)
class Table:
    """A benchmark's own report table: one row per group of results (by `rows`, fields of a result or of
    its labels), every cell a mean with a 95 % interval."""

    name: str
    title: str
    kinds: tuple[str, ...]
    rows: tuple[str, ...]
    sections: tuple[Section, ...]
    note: str = ""
    order: tuple[tuple[str, tuple[str, ...]], ...] = ()  # preferred order of row values, per row field


@dataclass(frozen=True)
class Option:
    """A command-line option a benchmark adds to pytest's "harness" group (read with `ctx.option(dest)`)."""

    flag: str
    dest: str
    help: str
    default: Any = None
    choices: tuple[str, ...] | None = None
    type: Callable[[str], Any] | None = None
    check: Callable[[Any, Path], None] | None = None  # (value, rootdir); raises ConfigError: a usage error


# A kind's own task class: the task model `register_benchmark` makes from its `inputs`, `ground_truth` and
# `scoring` models (a `TaskBase` whose `.inputs` is the kind's inputs model, and so on). Each extension point
# takes the kind's task, so a benchmark annotates it with its own class.
TaskT = TypeVar("TaskT", bound=TaskBase, contravariant=True)


class Run(Protocol[TaskT]):
    """One item's work (`Benchmark.run`): solve the task through `ctx` and score the answer, 0..100.

    Everything paid for goes through `ctx` (the system under test, the judges, embeddings), so it is cached,
    budgeted and recorded; a failure of the system under test raises (it scores 0), a judge's failure raises
    too (the item is an error, never a zero). For example::

        async def run(task: QuizTask, ctx: ItemContext) -> Scores:
            answer = await ctx.solve(task.inputs.prompt)
            right = task.ground_truth.answer.lower() in answer.text.lower()
            return Scores(score=100.0 if right else 0.0, answer=answer.text)
    """

    def __call__(self, task: TaskT, ctx: ItemContext, /) -> Awaitable[Scores]: ...


class Variants(Protocol[TaskT]):
    """The items of a task beyond its repeats (`Benchmark.variants`), each a name pytest shows in brackets
    (GEM-Bench's solutions); `(None,)` is one item. The run's settings may choose among them."""

    def __call__(self, task: TaskT, settings: Settings, /) -> Sequence[str | None]: ...


class Labels(Protocol[TaskT]):
    """The fields the reports group a task's results by (`Benchmark.labels`), e.g. GEM-Bench's data set."""

    def __call__(self, task: TaskT, /) -> dict[str, str]: ...


class Check(Protocol[TaskT]):
    """Problems found at collection, before anything is paid for (`Benchmark.check`): one line each, which
    make the item an error (a missing template, a fixture that is not there)."""

    def __call__(self, task: TaskT, task_path: Path, checks: CollectionChecks, /) -> list[str]: ...


class Estimate(Protocol[TaskT]):
    """`--estimate` for an item no earlier run has measured (`Benchmark.estimate`): calls and tokens per
    namespace ("sut", "judge", "embed"), from the task's text and the settings."""

    def __call__(self, task: TaskT, settings: Settings, /) -> dict[str, Need]: ...


class RunRecord(Protocol):
    """The kind's record of a run (`Benchmark.run_record`) from its results and the run's options: kept at
    results.json's run.benchmarks.<kind>; its "header" lines head every report, and `harness compare` names
    each value of its "compare" mapping that differs between runs."""

    def __call__(self, results: list[dict[str, Any]], options: dict[str, Any], /) -> dict[str, Any] | None: ...


class DerivedTables(Protocol):
    """Tables whose rows are not groups of items (`Benchmark.derived_tables`), computed from the kind's
    results in harness.report.tables.compute_table's format."""

    def __call__(self, results: list[dict[str, Any]], /) -> list[dict[str, Any]]: ...


class Reference(Protocol[TaskT]):
    """An item's reference as the reports show it beside the answer (`Benchmark.reference`), plain JSON."""

    def __call__(self, task: TaskT, /) -> dict[str, Any] | None: ...


@dataclass(frozen=True)
class CollectionChecks:
    """What `check` may consult at collection: the judge templates on the search path and the fixtures."""

    prompts: Any  # harness.judge.PromptLibrary
    fixtures_dir: Path

    def template_problem(self, name: str) -> str | None:
        if self.prompts.exists(name):
            return None
        return f"judge template {name!r} not found (searched {', '.join(str(r) for r in self.prompts.roots)})"


def _no_variants(task: Any, settings: Any) -> Sequence[str | None]:
    return (None,)


def _no_labels(task: Any) -> dict[str, str]:
    return {}


def _no_problems(task: Any, task_path: Path, checks: CollectionChecks) -> list[str]:
    return []


@dataclass(frozen=True)
class Benchmark:
    """A task kind. `run(task, ctx)` returns Scores for one (task, variant, repeat)."""

    kind: str
    description: str
    inputs: type[BaseModel]
    ground_truth: type[BaseModel]
    scoring: type[BaseModel]
    run: Run[Any]
    default_pass_threshold: float = 60.0
    variants: Variants[Any] = _no_variants
    labels: Labels[Any] = _no_labels
    check: Check[Any] = _no_problems
    tables: tuple[Table, ...] = ()
    options: tuple[Option, ...] = ()
    extra_fields: dict[str, Any] = field(default_factory=dict)  # more top-level task fields: name -> (type, Field)
    # The judges' raw level scale (judge_levels["level"]), for benchmarks that judge on one: the capability
    # index reads the level itself (k = level - low successes of high - low trials) instead of the score.
    level_range: tuple[int, int] | None = None
    # `--estimate` for items no earlier run has measured: calls and tokens per namespace ("sut", "judge",
    # "embed") as harness.estimate.Need; None uses a generic estimate (one call, plus the judges).
    estimate: Estimate[Any] | None = None
    # The run's record for this kind, from its results and the run's options (`run.options`): which rules
    # ran, the data's hash, how many items a switch affected. results.json keeps it at run.benchmarks.<kind>;
    # its "header" lines (strings) head the terminal summary, summary.md and report.html, and `harness
    # compare` and the regression gate name every value of its "compare" mapping that differs between runs.
    run_record: RunRecord | None = None
    # Tables whose rows are not groups of items (GEM-Bench's per-judge Table 4 has a row per judge), computed
    # by the kind from its results in harness.report.tables.compute_table's format and shown after the
    # declared tables, everywhere they are.
    derived_tables: DerivedTables | None = None
    # The item's reference as reports show it beside the answer (plain JSON); None uses the task's
    # ground_truth without its defaults (harness.reference).
    reference: Reference[Any] | None = None
    # The order of named judge levels, lowest first, per judged dimension (`judge_levels` key): with it, the
    # agreement of a judge panel on that dimension is also measured as ordinal (alpha ordinal, quadratic
    # kappa; harness.report.agreement). Numeric levels need none.
    level_orders: dict[str, tuple[str, ...]] = field(default_factory=dict)


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
        ground_truth=(
            benchmark.ground_truth,
            _optional_if_empty(benchmark.ground_truth, "What a correct answer contains."),
        ),
        scoring=(benchmark.scoring, Field(default_factory=benchmark.scoring, description="How it is scored.")),
        **benchmark.extra_fields,
    )


def _optional_if_empty(model: type[BaseModel], description: str) -> Any:
    """A field the task may leave out when its model has nothing required (a GEM chat query has no truth)."""
    try:
        model()
    except Exception:
        return Field(description=description)
    return Field(default_factory=model, description=description)


def load_builtins() -> None:
    """Import the built-in kinds once (cheap: their heavy dependencies load on first use)."""
    global _BUILTINS_LOADED
    if not _BUILTINS_LOADED:
        _BUILTINS_LOADED = True
        for module in BUILTIN_MODULES:
            importlib.import_module(module)


def get_benchmark(kind: str) -> Benchmark:
    load_builtins()
    return _BENCHMARKS[kind]


def all_benchmarks() -> list[Benchmark]:
    load_builtins()
    return [_BENCHMARKS[k] for k in sorted(_BENCHMARKS)]


def task_model_for(kind: Any) -> type[TaskBase] | str:
    """The task model of a kind, or a message saying why there is none."""
    load_builtins()
    if kind is None:
        return f"required field is missing; expected one of {sorted(_BENCHMARKS)}"
    if not isinstance(kind, str) or kind not in _TASK_MODELS:
        shown = repr(kind) if len(repr(kind)) <= 60 else repr(kind)[:57] + "..."
        return f"unknown kind {shown}; expected one of {sorted(_BENCHMARKS)}"
    return _TASK_MODELS[kind]


def all_task_models() -> list[type[TaskBase]]:
    load_builtins()
    return [_TASK_MODELS[k] for k in sorted(_TASK_MODELS)]


def add_benchmark_options(parser: Any, options: Sequence[Option]) -> None:
    """Add options to pytest's "harness" group. The plugin does this for built-in kinds; a kind registered
    in a conftest.py calls it from that conftest's own `pytest_addoption`."""
    group = parser.getgroup("harness")
    for option in options:
        kwargs: dict[str, Any] = {"dest": option.dest, "default": option.default, "help": option.help}
        if option.choices:
            kwargs["choices"] = option.choices
        if option.type is not None:
            kwargs["type"] = option.type
        group.addoption(option.flag, **kwargs)


def all_options() -> list[Option]:
    """Every benchmark's options, each flag once."""
    seen: dict[str, Option] = {}
    for benchmark in all_benchmarks():
        for option in benchmark.options:
            seen.setdefault(option.flag, option)
    return list(seen.values())


def run_records(results: Sequence[dict[str, Any]], options: dict[str, Any]) -> dict[str, dict[str, Any]]:
    """Each kind's record of the run (`Benchmark.run_record`), for the kinds present in `results`."""
    load_builtins()
    records: dict[str, dict[str, Any]] = {}
    for kind in sorted({str(r.get("kind")) for r in results if r.get("kind")}):
        benchmark = _BENCHMARKS.get(kind)
        if benchmark is None or benchmark.run_record is None:
            continue
        record = benchmark.run_record([r for r in results if r.get("kind") == kind], options)
        if record:
            records[kind] = record
    return records


def derived_tables(results: Sequence[dict[str, Any]]) -> list[dict[str, Any]]:
    """Each kind's own computed tables (`Benchmark.derived_tables`), for the kinds present in `results`."""
    load_builtins()
    tables: list[dict[str, Any]] = []
    for kind in sorted({str(r.get("kind")) for r in results if r.get("kind")}):
        benchmark = _BENCHMARKS.get(kind)
        if benchmark is not None and benchmark.derived_tables is not None:
            tables += benchmark.derived_tables([r for r in results if r.get("kind") == kind])
    return tables


def tables_for(kinds: set[str]) -> list[Table]:
    """The declared tables that apply to results of these kinds, each once."""
    seen: dict[str, Table] = {}
    for benchmark in all_benchmarks():
        for table in benchmark.tables:
            if set(table.kinds) & kinds and table.name not in seen:
                seen[table.name] = table
    return list(seen.values())
