"""Interrupted runs: how a run knows it is incomplete, and `--resume RUN`, which finishes one.

A run is incomplete when it was interrupted (Ctrl-C, a signal), stopped early (`-x`, `--maxfail`), or
recorded fewer items than it collected. It says so everywhere (results.json's `run.incomplete`, the
terminal, summary.md, report.html), does not become `reports/LATEST`, and its history rows are marked, so
the index, Tech-Market Fit and `--baseline` leave it out unless asked.

`--resume RUN` keeps the run's finished items (passed or failed: measured), runs the rest (the items it
never reached and those the harness could not score) under the same run id, and writes one run.
"""

from __future__ import annotations

import datetime as dt
import json
import shlex
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from harness.errors import ConfigError

FINISHED = ("passed", "failed")
# What must match for two parts to be one run: the system, its judges and how each item is run.
SAME_RUN = ("model", "agent", "agent_cmd", "agent_url", "judge_models", "embedding_model", "repeats", "sut_settings")


@dataclass
class Resume:
    run_id: str
    started_at: float
    kept: list[dict[str, Any]] = field(default_factory=list)
    kept_nodeids: frozenset[str] = frozenset()
    source: Path | None = None


def run_document_path(report_dir: Path, ref: str) -> Path | None:
    """results.json of a run named by id, folder or file."""
    for candidate in (report_dir / ref / "results.json", Path(ref) / "results.json", Path(ref)):
        if candidate.is_file():
            return candidate
    return None


def load_resume(ref: str, report_dir: Path, options: dict[str, Any]) -> Resume:
    """The interrupted run to finish; a ConfigError (one line) when it cannot be found or read, when it is
    complete, or when this run would evaluate something else."""
    path = run_document_path(report_dir, ref)
    if path is None:
        raise ConfigError(f"--resume {ref}: no run there (expected a run id under {report_dir}, or its folder)")
    try:
        run = json.loads(path.read_text(encoding="utf-8"))
        meta = run["run"]
        results = list(run["results"])
    except (OSError, ValueError, KeyError, TypeError) as exc:
        raise ConfigError(f"--resume {ref}: {path} cannot be read ({exc})") from exc
    if not meta.get("incomplete"):
        raise ConfigError(f"--resume {ref}: the run is complete; there is nothing to finish")
    before = meta.get("options") or {}
    differ = [name for name in SAME_RUN if name in before and before.get(name) != options.get(name)]
    if differ:
        shown = ", ".join(f"{n} {before.get(n)!r} (now {options.get(n)!r})" for n in differ)
        raise ConfigError(f"--resume {ref}: that run was made with other settings: {shown}")
    kept = [r for r in results if r.get("outcome") in FINISHED]
    try:
        started = dt.datetime.fromisoformat(str(meta["started_at"])).timestamp()
    except (KeyError, ValueError):
        started = dt.datetime.now(dt.UTC).timestamp()
    return Resume(
        run_id=str(meta["run_id"]),
        started_at=started,
        kept=kept,
        kept_nodeids=frozenset(str(r.get("nodeid")) for r in kept),
        source=path,
    )


def incompleteness(
    *, interrupted: bool, stopped_early: bool, expected: int, done: int, run_id: str, argv: list[str]
) -> dict[str, Any] | None:
    """run.incomplete for a run that did not finish (None for one that did): why, how far it got, and the
    command that finishes it."""
    if not interrupted and done >= expected:
        return None
    reason = "interrupted" if interrupted else "stopped early (-x or --maxfail)" if stopped_early else "items missing"
    return {
        "reason": reason,
        "items_expected": max(expected, done),
        "items_done": done,
        "resume": resume_command(argv, run_id),
    }


def resume_command(argv: list[str], run_id: str) -> str:
    """The command line that finishes the run: the same arguments, with --resume RUN."""
    args: list[str] = []
    skip = False
    for arg in argv:
        if skip:
            skip = False
            continue
        if arg == "--resume":
            skip = True
            continue
        if arg.startswith("--resume=") or arg in ("-x", "--exitfirst") or arg.startswith("--maxfail"):
            continue
        args.append(arg)
    return shlex.join(["pytest", *args, "--resume", run_id])


def incomplete_line(incomplete: dict[str, Any]) -> str:
    """One line for people: what happened, how far the run got, how to finish it."""
    return (
        f"INCOMPLETE RUN ({incomplete['reason']}): {incomplete['items_done']} of {incomplete['items_expected']} "
        f"items finished; its scores are not the system's. Finish it with: {incomplete['resume']}"
    )
