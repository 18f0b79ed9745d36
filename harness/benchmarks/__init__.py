"""The built-in benchmarks (`qa`, `gem`, `recruitment`, `marketing`), and where a benchmark author imports
the extension points from.

The registry and the extension points themselves live in the core (`harness.kinds`), so that the core
never imports the benchmarks' content; every name is re-exported here, with the Protocol of each extension
point (`Run`, `Variants`, `Labels`, `Check`, `Estimate`, `RunRecord`, `DerivedTables`, `Reference`), what a
kind's `run` is given (`ItemContext`) and what it returns (`Scores`). See docs/writing-a-benchmark.md.
"""

from __future__ import annotations

from harness.context import ItemContext
from harness.kinds import (
    BUILTIN_MODULES,
    Benchmark,
    Check,
    CollectionChecks,
    Column,
    DerivedTables,
    Estimate,
    Labels,
    Option,
    Reference,
    Run,
    RunRecord,
    Section,
    Table,
    TaskT,
    Variants,
    add_benchmark_options,
    all_benchmarks,
    all_options,
    all_task_models,
    derived_tables,
    get_benchmark,
    load_builtins,
    register_benchmark,
    run_records,
    tables_for,
    task_model_for,
)
from harness.scores import Scores

__all__ = [
    "BUILTIN_MODULES",
    "Benchmark",
    "Check",
    "CollectionChecks",
    "Column",
    "DerivedTables",
    "Estimate",
    "ItemContext",
    "Labels",
    "Option",
    "Reference",
    "Run",
    "RunRecord",
    "Scores",
    "Section",
    "Table",
    "TaskT",
    "Variants",
    "add_benchmark_options",
    "all_benchmarks",
    "all_options",
    "all_task_models",
    "derived_tables",
    "get_benchmark",
    "load_builtins",
    "register_benchmark",
    "run_records",
    "tables_for",
    "task_model_for",
]
