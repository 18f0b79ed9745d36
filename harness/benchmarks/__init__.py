"""The built-in benchmarks (`qa`, `gem`, `recruitment`, `marketing`), and where a benchmark author imports
the extension points from.

The registry and the extension points themselves live in the core (`harness.kinds`), so that the core
never imports the benchmarks' content; every name is re-exported here. See docs/writing-a-benchmark.md.
"""

from __future__ import annotations

from harness.kinds import (
    BUILTIN_MODULES,
    Benchmark,
    CollectionChecks,
    Column,
    Option,
    Section,
    Table,
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

__all__ = [
    "BUILTIN_MODULES",
    "Benchmark",
    "CollectionChecks",
    "Column",
    "Option",
    "Section",
    "Table",
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
