"""The session folder: what the front end, the agent inside the run and the supervisor share.

    session.json   what to run (task, node id, budget, the pytest command); written once by the front end
    claimed        made by the first item the run hands to the agent (a session serves one item)
    state.json     the agent's side: status, socket, budget, calls used, when the prompt was shown
    prompt.txt     the rendered prompt, as the agent got it
    log.jsonl      every call (with its output), refusal, answer and quit, each with a UTC timestamp
    answer.txt     the answer given
    run.log        the pytest run's own output
    result.json    the score, the outcome, the minutes and the report's path, when the run has ended

No file holds the task's ground truth: the agent sees what any agent sees.
"""

from __future__ import annotations

import datetime as dt
import json
import os
import tempfile
import threading
from pathlib import Path
from typing import Any

from harness.solve.protocol import PRIVATE_FOLDER

SESSION_ENV = "HARNESS_SOLVE_SESSION"
MAX_SOCKET_PATH = 100  # AF_UNIX paths are limited to 107 bytes on Linux


def utc_now() -> str:
    return dt.datetime.now(dt.UTC).isoformat(timespec="milliseconds").replace("+00:00", "Z")


def write_json(path: Path, data: dict[str, Any]) -> None:
    """Whole or not at all: readers poll these files while they are written."""
    handle, temporary = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.")
    with os.fdopen(handle, "w", encoding="utf-8") as out:
        json.dump(data, out, indent=1, ensure_ascii=False)
        out.write("\n")
    os.replace(temporary, path)


def read_json(path: Path) -> dict[str, Any] | None:
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    return data if isinstance(data, dict) else None


class Session:
    """One solve's folder."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder
        self._log_lock = threading.Lock()

    @property
    def config_path(self) -> Path:
        return self.folder / "session.json"

    @property
    def state_path(self) -> Path:
        return self.folder / "state.json"

    @property
    def prompt_path(self) -> Path:
        return self.folder / "prompt.txt"

    @property
    def log_path(self) -> Path:
        return self.folder / "log.jsonl"

    @property
    def answer_path(self) -> Path:
        return self.folder / "answer.txt"

    @property
    def run_log_path(self) -> Path:
        return self.folder / "run.log"

    @property
    def result_path(self) -> Path:
        return self.folder / "result.json"

    @property
    def last_search_path(self) -> Path:
        return self.folder / "last_search.json"

    def config(self) -> dict[str, Any] | None:
        return read_json(self.config_path)

    def state(self) -> dict[str, Any] | None:
        return read_json(self.state_path)

    def result(self) -> dict[str, Any] | None:
        return read_json(self.result_path)

    def log(self, event: str, **fields: Any) -> None:
        """One line of log.jsonl: the event, its UTC time, its fields."""
        line = json.dumps({"time": utc_now(), "event": event, **fields}, ensure_ascii=False)
        with self._log_lock, self.log_path.open("a", encoding="utf-8") as out:
            out.write(line + "\n")

    def events(self) -> list[dict[str, Any]]:
        if not self.log_path.exists():
            return []
        return [json.loads(line) for line in self.log_path.read_text(encoding="utf-8").splitlines() if line.strip()]

    def socket_path(self) -> Path:
        """Where the agent listens: in the folder when its path is short enough for AF_UNIX, otherwise in a
        private temporary folder of its own (state.json names it either way)."""
        path = self.folder.resolve() / "solve.sock"
        if len(str(path).encode()) <= MAX_SOCKET_PATH:
            return path
        return Path(tempfile.mkdtemp(prefix=PRIVATE_FOLDER)) / "s.sock"
