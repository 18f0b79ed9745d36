"""Where a project keeps its things, and what of it an agent may never read.

One low module that knows the layout, so the collector, the sandbox, the settings, the history and the
run's input digests ask it instead of each other: the tasks live in `evals/` folders, the data in
`fixtures/`, the judge templates in `prompts/`, the runs in `reports/` (the history under `reports/history/`)
and the call cache in `.harness-cache/`.
"""

from __future__ import annotations

import importlib.util
from pathlib import Path

TASKS = "evals"
FIXTURES = "fixtures"
PROMPTS = "prompts"
REPORTS = "reports"
CACHE = ".harness-cache"
HISTORY = "history"
TASK_SUFFIXES = (".yaml", ".yml")
# Folders of the project an agent may never see: what it is graded on, and what the run writes.
PROTECTED = (TASKS, FIXTURES, REPORTS, PROMPTS, CACHE, ".git")


def is_task_file(path: Path) -> bool:
    """YAML files inside an `evals` folder (at any depth) hold tasks; other YAML is left alone."""
    return path.suffix in TASK_SUFFIXES and TASKS in path.parts[:-1]


def fixtures_dir(rootdir: Path) -> Path:
    return rootdir / FIXTURES


def prompts_dir(rootdir: Path) -> Path:
    """The project's own judge templates, found before the harness's."""
    return rootdir / PROMPTS


def builtin_prompts_dir() -> Path:
    """The harness's own templates: the top-level prompts/ folder, shipped in the wheel as `harness_prompts`."""
    spec = importlib.util.find_spec("harness_prompts")
    if spec is not None and spec.submodule_search_locations:
        return Path(next(iter(spec.submodule_search_locations)))
    return Path(__file__).resolve().parent.parent / PROMPTS


def history_dir(report_dir: Path) -> Path:
    """Where the run history (one CSV per run) is kept, beside the runs."""
    return report_dir / HISTORY
