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
from functools import cache
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
CHROMIUM = shutil.which("chromium")  # the HTML report is checked in Debian's chromium
CHROMIUM_FLAGS = ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                  "--disable-background-networking", "--disable-component-update", "--disable-sync"]  # fmt: skip
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


# The sample suite as the end-to-end tests' stub answers and judges it (tests/test_plugin_e2e.py and others).
WRONG_ON_PURPOSE = {"divide", "largest-planet", "spider-legs"}


def sample_answers() -> dict[str, str]:
    """The stub answers every sample prompt with its reference, except a few that it gets wrong."""
    answers = {}
    for task in sample_tasks():
        answer = "a wrong answer" if task["id"] in WRONG_ON_PURPOSE else task["ground_truth"]["answer"]
        answers[task["inputs"]["prompt"]] = answer
    return answers


def judge_rules() -> list[list[object]]:
    """The stub judge grades "correct" exactly the answers the test decides are right: it finds them inside
    the prompt's data section (so an answer that never reached the judge, or reached it outside a data
    section, is graded "incorrect" and the test fails)."""
    right = [t for t in sample_tasks() if t["id"] in JUDGED and t["id"] not in WRONG_ON_PURPOSE]
    return [[t["ground_truth"]["answer"], {"grade": "correct"}] for t in right]


JUDGED = {
    "photosynthesis",
    "recruiter-role",
    "influencer-marketing",
    "http-status-404",
    "boiling-point",
    "first-prime",
    "opposite-of-north",
    "spider-legs",
}


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


def leaderboard_result(suite: str, task: str, score: float, cost: float) -> dict[str, Any]:
    usage = {"calls": 1, "input_tokens": 10, "output_tokens": 5, "cost_usd": cost, "cost_known": True, "cache_hits": 0}
    return {"suite": suite, "task_id": task, "kind": "qa", "score": score, "error": None, "usage": usage,
            "outcome": "passed" if score >= 60 else "failed", "metrics": {}}  # fmt: skip


def leaderboard_run(tmp_path: Path, run_id: str, model: str, scores: list[float], **meta: Any) -> Path:
    """A scored run's results.json, as `harness report A B` reads it (tests/test_leaderboard.py, test_width.py)."""
    from harness.report.aggregate import by_suite, summarize

    results = [leaderboard_result("qa-own", f"t{n}", s, 0.01) for n, s in enumerate(scores)]
    meta = {"run_id": run_id, "options": {"model": model, "judge_models": ["openai/j"]}, **meta}
    document = {"run": meta, "results": results, "totals": summarize(results), "suites": by_suite(results),
                "tables": []}  # fmt: skip
    path = tmp_path / f"{run_id}.json"
    path.write_text(json.dumps(document))
    return path


@cache
def generated_background(world: str) -> Any:
    """The background generator's run over `world`, drawn once per test process: the background and the crowd
    tests both read it, and a run takes tens of seconds."""
    from scripts.world_background.generate import Generator
    from scripts.world_background.sources import load

    generator = Generator(load(world))
    generator.background = generator.run()
    return generator
