"""The run behind a solve: which pytest item a TASK names, the pytest command, and the supervisor that runs
it, waits for it and writes the session's result.json (`python -m harness.solve.runner SESSION_DIR`).

The supervisor is a process of its own, in a session of its own: Ctrl-C at the solver's terminal does not
reach the run, and a detached solve outlives the command that started it.
"""

from __future__ import annotations

import os
import re
import shlex
import subprocess
import sys
from pathlib import Path
from typing import Any

from harness.errors import ConfigError
from harness.run_files import load_run
from harness.solve.session import SESSION_ENV, Session, read_json, utc_now, write_json

AGENT = "harness.solve.agent:run"
AGENT_TIMEOUT_S = 24 * 3600  # a person takes the time they take; a task's own time limit still wins
TASK_SUFFIXES = (".yaml", ".yml")
_DATA_LINE = re.compile(r"\(data: (.+results\.json)\)")
_HEADER = ("harness: report ->", "harness: system under test", "harness report:")


def resolve_node(task: str, root: Path) -> str:
    """The pytest node id of TASK: a node id as given (its file must exist), or the one task file under
    evals/ that has a task with this id. Only ids are read from task files."""
    if "::" in task:
        path = task.split("::", 1)[0]
        if not (root / path).is_file():
            raise ConfigError(f"{task}: no task file {path} (from {root})")
        return task
    pattern = re.compile(rf"^\s*(?:-\s+)?id:\s*[\"']?{re.escape(task)}[\"']?\s*(?:#.*)?$", re.MULTILINE)
    found = []
    for path in sorted((root / "evals").rglob("*")):
        if path.suffix in TASK_SUFFIXES and path.is_file():
            try:
                text = path.read_text(encoding="utf-8")
            except (OSError, UnicodeDecodeError):
                continue
            if pattern.search(text):
                found.append(path.relative_to(root).as_posix())
    if not found:
        raise ConfigError(f"no task {task!r} in the task files under {root / 'evals'} (or give a node id: FILE::ID)")
    if len(found) > 1:
        raise ConfigError(f"task {task!r} is in several task files ({', '.join(found)}): give a node id, FILE::{task}")
    return f"{found[0]}::{task}"


def pytest_command(node: str, options: dict[str, Any]) -> list[str]:
    """The ordinary run of one item with the hand-solving agent as its system under test."""
    command = [sys.executable, "-m", "pytest", node, "--agent", AGENT, "--agent-timeout", str(AGENT_TIMEOUT_S)]
    command += ["-p", "no:cacheprovider", "--report-dir", str(options["report_dir"])]
    for name in ("judge_model", "model"):
        if options.get(name):
            command += [f"--{name.replace('_', '-')}", str(options[name])]
    return command + shlex.split(options.get("pytest") or "")


def launch(session: Session, cwd: Path) -> subprocess.Popen[bytes]:
    """Start the supervisor. Its own session either way (Ctrl-C at the terminal is the front end's)."""
    log = (session.folder / "supervisor.log").open("ab")
    try:
        return subprocess.Popen(
            [sys.executable, "-m", "harness.solve.runner", str(session.folder.resolve())],
            cwd=cwd,
            stdin=subprocess.DEVNULL,
            stdout=log,
            stderr=log,
            start_new_session=True,
            close_fds=True,
            env={**os.environ, SESSION_ENV: str(session.folder.resolve())},
        )
    finally:
        log.close()


def _results_path(session: Session) -> Path | None:
    """The run's results.json, from the run's own closing line (never the report folder's latest run: that
    may be another run's, when this one stopped before writing any)."""
    found = _DATA_LINE.findall(_run_log(session))
    return Path(found[-1]) if found else None


def _run_log(session: Session) -> str:
    try:
        return session.run_log_path.read_text(encoding="utf-8", errors="replace")
    except OSError:
        return ""


def run_errors(session: Session, limit: int = 5) -> list[str]:
    """The run's own one-line refusals (a bad option, a task file that cannot be used): pytest's `ERROR:`
    lines and the harness's `harness ...:` lines, not its header."""
    lines = []
    for line in _run_log(session).splitlines():
        if line.startswith("ERROR:") or (line.startswith("harness") and not line.startswith(_HEADER)):
            lines.append(line.strip())
    return lines[:limit]


def summarize(session: Session, node: str, exit_code: int) -> dict[str, Any]:
    """The result a solver may see: score, outcome, what the solve took, where the report is. Nothing of
    the judges' reasoning (it quotes the key)."""
    state = session.state() or {}
    summary: dict[str, Any] = {
        "node": node,
        "exit_code": exit_code,
        "finished_at": utc_now(),
        "status": state.get("status", "not started"),
        "calls_used": state.get("calls_used"),
        "call_budget": state.get("call_budget"),
        "minutes": state.get("minutes"),
    }
    path = _results_path(session)
    if path is None or not path.is_file():
        said = "; ".join(run_errors(session))
        summary["error"] = f"the run wrote no results (exit code {exit_code})" + (f": {said}" if said else "")
        summary["run_log"] = str(session.run_log_path)
        return summary
    run = load_run(path.parent.parent, path.parent.name)
    item = next((r for r in run["results"] if r.get("nodeid") == node), None)
    if item is None and len(run["results"]) == 1:
        item = run["results"][0]
    report = path.parent / "report.html"
    summary.update({"results": str(path), "report": str(report if report.is_file() else path)})
    if item is None:
        summary["error"] = f"the run has no result for {node}"
        return summary
    error = item.get("error")
    summary.update(
        {
            "task_id": item.get("task_id"),
            "score": item.get("score"),
            "outcome": item.get("outcome"),
            "passed": item.get("passed"),
            "metrics": {k: v for k, v in (item.get("metrics") or {}).items() if k in ("level", "tool_calls")},
            "system_minutes": round(float((item.get("system") or {}).get("latency_s") or 0) / 60, 2),
            "error": error.get("message") if isinstance(error, dict) else error,
        }
    )
    return summary


def supervise(folder: Path) -> int:
    """Run the session's pytest command, wait for it, write result.json."""
    session = Session(folder)
    config = read_json(session.config_path)
    if config is None:
        print(f"harness solve: {session.config_path} is missing or not JSON", file=sys.stderr)
        return 4
    with session.run_log_path.open("ab") as log:
        done = subprocess.run(config["command"], cwd=config["cwd"], stdin=subprocess.DEVNULL, stdout=log, stderr=log)
    try:
        summary = summarize(session, config["node"], done.returncode)
    except Exception as exc:  # the result must be written whatever happened, or `wait` waits forever
        summary = {"node": config["node"], "exit_code": done.returncode, "error": f"{type(exc).__name__}: {exc}"}
    write_json(session.result_path, summary)
    return 0


if __name__ == "__main__":
    raise SystemExit(supervise(Path(sys.argv[1])))
