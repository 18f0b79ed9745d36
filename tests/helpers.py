"""Helpers for tests that run pytest on a throw-away project using the installed harness plugin."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import textwrap
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from harness.task import load_task_file
from harness.testing import StubProcess

REPO = Path(__file__).resolve().parent.parent
# The GEM-Bench release (third-party data, never committed): beside the repository, or where
# GEM_BENCH_RELEASE points. Tests that need it skip, saying where they looked.
GEM_RELEASE = Path(os.environ.get("GEM_BENCH_RELEASE") or REPO.parent / "shared" / "data" / "gem-bench")
GEM_RELEASE_MISSING = f"the GEM-Bench release is not at {GEM_RELEASE} (set GEM_BENCH_RELEASE to its folder)"
SAMPLE = REPO / "evals" / "sample"
MARKETING_BRIEFS = sorted((REPO / "evals" / "marketing").glob("*.yaml"))  # one file per group of client industries


@dataclass
class RunOutput:
    returncode: int
    stdout: str
    stderr: str
    report_dir: Path
    cache_dir: Path

    @property
    def run(self) -> dict[str, Any]:
        run_id = (self.report_dir / "LATEST").read_text().strip()
        return json.loads((self.report_dir / run_id / "results.json").read_text())

    @property
    def results(self) -> dict[str, dict[str, Any]]:
        return {r["nodeid"]: r for r in self.run["results"]}


@dataclass
class Project:
    root: Path

    def write(self, relative: str, text: str) -> Path:
        path = self.root / relative
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(textwrap.dedent(text).lstrip(), encoding="utf-8")
        return path

    def copy_sample(self) -> None:
        for source in SAMPLE.glob("*.yaml"):
            self.write(f"evals/sample/{source.name}", source.read_text(encoding="utf-8"))

    def copy_gem_sample(self) -> None:
        """The GEM-Bench sample suite and its fixtures (the repository's, not the third-party release)."""
        for folder in ("evals", "fixtures"):
            shutil.copytree(REPO / folder / "gem" / "sample", self.root / folder / "gem" / "sample")

    @property
    def report_dir(self) -> Path:
        return self.root / "reports"

    @property
    def cache_dir(self) -> Path:
        return self.root / ".harness-cache"

    def command(self, *args: str) -> list[str]:
        """The pytest command line a run of this project uses (for tests that start it themselves)."""
        return [
            sys.executable,
            "-m",
            "pytest",
            "-p",
            "no:cacheprovider",
            "--report-dir",
            str(self.report_dir),
            "--cache-dir",
            str(self.cache_dir),
            *args,
        ]

    def pytest(self, *args: str, env: dict[str, str | None] | None = None, timeout: float = 300) -> RunOutput:
        """Run pytest on the project; `env` adds variables, and removes those it maps to None."""
        full_env = {k: v for k, v in os.environ.items() if not k.startswith("PYTEST_")}
        for name, value in (env or {}).items():
            if value is None:
                full_env.pop(name, None)
            else:
                full_env[name] = value
        done = subprocess.run(
            self.command(*args), cwd=self.root, capture_output=True, text=True, env=full_env, timeout=timeout
        )
        return RunOutput(done.returncode, done.stdout, done.stderr, self.report_dir, self.cache_dir)


def stub_args(stub: StubProcess, *extra: str) -> list[str]:
    """Options that point the system under test, the judges and the embeddings at the stub (each has its
    own endpoint option: none inherits another's)."""
    return [
        "--model",
        "openai/stub-sut",
        "--api-base",
        stub.api_base,
        "--judge-model",
        "openai/stub-judge",
        "--judge-api-base",
        stub.api_base,
        "--embedding-model",
        "openai/stub-embed",
        "--embedding-api-base",
        stub.api_base,
        "--call-retry-backoff",
        "0.01",
        *extra,
    ]


def sample_tasks() -> list[dict[str, Any]]:
    import yaml

    tasks = []
    for path in sorted(SAMPLE.glob("*.yaml")):
        tasks += yaml.safe_load(path.read_text())["tasks"]
    return tasks


def load_tasks(paths: Iterable[Path]) -> list[Any]:
    """The tasks of these task files, in order; a file with any problem fails the test, naming it."""
    tasks: list[Any] = []
    for path in paths:
        loaded = load_task_file(path)
        assert not loaded.problems, loaded.problems
        tasks += [task for task, _ in loaded.tasks]
    return tasks


def marketing_briefs() -> list[Any]:
    """Every Marketing brief of evals/marketing/ (the files that read them often cache it)."""
    return load_tasks(MARKETING_BRIEFS)
