"""`harness solve`: a person at a real terminal (a pseudo-terminal) and an agent driving a detached session
solve a recruitment task of a small world through the same tools and budget an agent gets; the run scores
the answer with the reference judge (no model), every call lands in the session's log, a call past the
budget is refused, and nothing the solver sees holds the task's ground truth or the world's README."""

from __future__ import annotations

import datetime as dt
import fcntl
import json
import os
import re
import select
import shutil
import signal
import subprocess
import sys
import termios
import time
from pathlib import Path

import pytest
import yaml
from helpers import REPO

from harness.errors import ConfigError
from harness.solve.agent import call_budget
from harness.solve.runner import resolve_node
from harness.solvers import LoopLimits

DATA = REPO / "tests" / "data" / "solve"
TASK = "i2p-tide-gauge-lead"
TARGET = "https://people.saltmarsh.example/in/maren-oduya"
DECOY = "https://people.saltmarsh.example/in/tobias-brill"


@pytest.fixture
def harbour(tmp_path: Path) -> Path:
    """A project with one task file and its world (copied from tests/data/solve)."""
    root = tmp_path / "proj"
    shutil.copytree(DATA / "fixtures", root / "fixtures")
    (root / "evals" / "recruitment").mkdir(parents=True)
    shutil.copy(DATA / "tasks" / "harbour.yaml", root / "evals" / "recruitment" / "harbour.yaml")
    (root / "pytest.ini").write_text("[pytest]\n", encoding="utf-8")
    return root


def secrets_of(root: Path) -> list[str]:
    """Text only the key and the world's README hold: the solver must never be shown any of it."""
    task = yaml.safe_load((root / "evals" / "recruitment" / "harbour.yaml").read_text())["tasks"][0]
    verification = " ".join(task["ground_truth"]["verification"].split())
    readme = (root / "fixtures" / "worlds" / "saltmarsh" / "README.md").read_text()
    return [
        *(s.strip() for s in verification.split(".") if len(s.strip()) > 20),
        "curlew ledger",
        readme.splitlines()[0],
        "ground_truth",
        "expert_minutes",
    ]


def env() -> dict[str, str]:
    values = {k: v for k, v in os.environ.items() if not k.startswith("PYTEST_")}
    values["PYTHONPATH"] = os.pathsep.join(p for p in (str(REPO), values.get("PYTHONPATH")) if p)
    return values


def solve_args(root: Path, *extra: str) -> list[str]:
    return [
        sys.executable, "-m", "harness.cli", "solve", *extra, "--judge-model", "harness/reference",
        "--report-dir", str(root / "reports"), f"--pytest=--cache-dir {root / '.cache'}",
    ]  # fmt: skip


def _controlling_terminal_with_sigint_ignored() -> None:
    fcntl.ioctl(0, termios.TIOCSCTTY, 0)
    signal.signal(signal.SIGINT, signal.SIG_IGN)


class Terminal:
    """A program on a pseudo-terminal, read as a person reads it: `expect` waits for text after what was
    already matched (output can arrive with the next prompt in one read, so the search starts where the last
    match ended, never at the buffer's length at call time)."""

    def __init__(self, argv: list[str], cwd: Path) -> None:
        self.master, slave = os.openpty()
        # A session of its own with the terminal as its controlling terminal, as a login shell gives it:
        # Ctrl-C typed there reaches the program as SIGINT. SIGINT starts out ignored, as it is for anything a
        # CI runner starts as a background job: the prompt must take it back (it did not, and CI hung here).
        self.process = subprocess.Popen(
            argv, cwd=cwd, env={**env(), "TERM": "xterm"}, stdin=slave, stdout=slave, stderr=slave, close_fds=True,
            start_new_session=True, preexec_fn=_controlling_terminal_with_sigint_ignored,
        )  # fmt: skip
        os.close(slave)
        self.buffer = ""
        self.cursor = 0

    def _read(self, timeout: float) -> bool:
        ready, _, _ = select.select([self.master], [], [], timeout)
        if not ready:
            return True
        try:
            data = os.read(self.master, 65536)
        except OSError:  # the program has ended and the terminal is closed
            return False
        if not data:
            return False
        self.buffer += data.decode("utf-8", "replace").replace("\r\n", "\n")
        return True

    def expect(self, text: str, timeout: float = 120) -> str:
        """What the program wrote from the last match up to and including `text`."""
        deadline = time.monotonic() + timeout
        while True:
            found = self.buffer.find(text, self.cursor)
            if found >= 0:
                chunk = self.buffer[self.cursor : found + len(text)]
                self.cursor = found + len(text)
                return chunk
            remaining = deadline - time.monotonic()
            ended = remaining <= 0 or not self._read(min(remaining, 1.0))
            if ended and self.buffer.find(text, self.cursor) < 0:
                raise AssertionError(f"{text!r} did not come; after the last match:\n{self.buffer[self.cursor :]}")

    def send(self, line: str) -> None:
        os.write(self.master, (line + "\n").encode())

    def close(self) -> int:
        try:
            return self.process.wait(timeout=60)
        finally:
            os.close(self.master)


def test_a_person_solves_a_task_at_a_terminal_and_the_run_scores_it(harbour: Path) -> None:
    session = harbour / "session"
    term = Terminal(solve_args(harbour, TASK, "--session", str(session), "--budget", "quarter"), harbour)
    try:
        opening = term.expect("solve> ")
        # The task's own limit is 8 calls: a quarter is 2 (the agent got the task's limits, not a default).
        assert "2 calls (open, search)" in opening
        assert "hydrographic engineer in Port Ellery" in opening  # the rendered prompt
        term.send("search tide gauge Port Ellery Netherlands estuary")
        found = term.expect("solve> ")
        assert TARGET in found and "calls: 1 of 2 used, 1 left" in found
        term.send(f"open {TARGET}")
        page = term.expect("solve> ")
        assert "Sep 2014 - Aug 2019" in page and "calls: 2 of 2 used, 0 left" in page
        term.send("search Deltameet")
        assert "refused: the call budget is used up (2 of 2)" in term.expect("solve> ")
        os.write(term.master, b"half a line\x03")  # Ctrl-C: the line is dropped, the solve and its run go on
        assert "type quit to give up" in term.expect("solve> ")
        term.send("budget")
        assert "calls: 2 of 2 used, 0 left" in term.expect("solve> ")
        term.send("answer")
        term.expect('a single "."')
        term.send(f"Maren Oduya - {TARGET}")
        term.send("Leads the Harbour Board's tide gauges; Deltameet, Scheldt, 2014-2019.")
        term.send(".")
        end = term.expect("log.jsonl")
    finally:
        code = term.close()
    assert code == 0
    assert "score 100.0 (level 5 of 5), outcome passed" in end
    for secret in secrets_of(harbour):
        assert secret not in term.buffer

    result = json.loads((session / "result.json").read_text())
    assert result["score"] == 100.0 and result["calls_used"] == 2 and result["call_budget"] == 2
    assert f"report: {result['report']}" in end
    events = [json.loads(line) for line in (session / "log.jsonl").read_text().splitlines()]
    assert [e["event"] for e in events] == ["start", "call", "call", "refused", "answer"]
    assert [e.get("tool") for e in events[1:4]] == ["search", "open", "search"]
    assert TARGET in events[2]["output"]
    times = [dt.datetime.fromisoformat(e["time"].replace("Z", "+00:00")) for e in events]
    assert times == sorted(times)
    # The minutes taken run from the session's start to the answer, as its log's own times say (on an idle
    # machine this scripted solve takes a few hundredths of a second: 0.0 minutes to three decimals).
    minutes = events[-1]["minutes"]
    logged = (times[-1] - times[0]).total_seconds() / 60
    assert minutes == result["minutes"] and abs(minutes - logged) < 0.01 and minutes < 5
    # The run is an ordinary run: its item has the two calls in its trajectory and the answer typed.
    item = json.loads(Path(result["results"]).read_text())["results"][0]
    assert [step["tool"] for step in item["details"]["trajectory"]] == ["search", "open"]
    assert item["answer"].startswith(f"Maren Oduya - {TARGET}\nLeads")
    assert item["system"]["latency_s"] >= minutes * 60 - 1


def test_an_agent_drives_a_detached_solve_one_command_at_a_time(harbour: Path) -> None:
    session = harbour / "s"
    shown: list[str] = []

    def solve(*words: str, stdin: str | None = None) -> subprocess.CompletedProcess[str]:
        done = subprocess.run(
            [sys.executable, "-m", "harness.cli", "solve", "--session", str(session), *words],
            cwd=harbour, env=env(), input=stdin, capture_output=True, text=True, timeout=120,
        )  # fmt: skip
        shown.append(done.stdout + done.stderr)
        return done

    started = subprocess.run(solve_args(harbour, TASK, "--session", str(session), "--detach", "--budget", "3"),
                             cwd=harbour, env=env(), capture_output=True, text=True, timeout=300)  # fmt: skip
    shown.append(started.stdout + started.stderr)
    assert started.returncode == 0, started.stderr
    assert "hydrographic engineer in Port Ellery" in started.stdout and "3 calls" in started.stdout

    assert solve("wait").returncode == 1 and "no answer yet" in shown[-1]
    searched = solve("search", "Deltameet", "survey", "Netherlands")
    assert searched.returncode == 0 and "calls: 1 of 3 used, 2 left" in searched.stdout
    lines = searched.stdout.splitlines()
    number = next(lines[i - 1].split(".")[0] for i, line in enumerate(lines) if line.strip() == DECOY)
    opened = solve("open", number)
    assert opened.returncode == 0 and "eighteen-month contract" in opened.stdout
    assert solve("call", "search", '{"query": "tide gauges", "k": 1}').returncode == 0
    refused = solve("open", TARGET)
    assert refused.returncode == 1 and "the call budget is used up (3 of 3)" in refused.stdout
    assert solve("budget").stdout.strip().startswith("calls: 3 of 3 used, 0 left")
    assert "hydrographic engineer" in solve("prompt").stdout
    assert solve("answer", "-", stdin=f"Tobias Brill {DECOY}\n").returncode == 0
    assert solve("search", "more").returncode == 1 and "not open (status: answered)" in shown[-1]

    waited = solve("wait")
    assert waited.returncode == 0
    assert "score 0.0 (level 1 of 5), outcome failed" in waited.stdout  # the near miss, named alone
    events = [json.loads(line)["event"] for line in (session / "log.jsonl").read_text().splitlines()]
    assert events == ["start", "call", "call", "call", "refused", "answer"]
    everything = "\n".join(shown)
    for name in ("prompt.txt", "state.json", "session.json", "log.jsonl", "result.json"):
        everything += (session / name).read_text()
    for secret in secrets_of(harbour):
        assert secret not in everything


def test_giving_up_or_going_idle_scores_zero_and_says_so(harbour: Path) -> None:
    session = harbour / "q"
    started = subprocess.run(solve_args(harbour, TASK, "--session", str(session), "--detach"), cwd=harbour,
                             env=env(), capture_output=True, text=True, timeout=300)  # fmt: skip
    assert started.returncode == 0, started.stderr
    base = [sys.executable, "-m", "harness.cli", "solve", "--session", str(session)]
    quit_ = subprocess.run([*base, "quit"], cwd=harbour, env=env(), capture_output=True, text=True, timeout=60)
    assert quit_.returncode == 0
    waited = subprocess.run([*base, "wait"], cwd=harbour, env=env(), capture_output=True, text=True, timeout=120)
    assert "score 0.0" in waited.stdout and "outcome failed" in waited.stdout
    assert "gave up without answering" in waited.stdout

    # A session left without a command for its idle limit ends unanswered, and frees its run.
    idle = harbour / "idle"
    started = subprocess.run([*solve_args(harbour, TASK, "--session", str(idle), "--detach"), "--idle-minutes",
                              "0.05"], cwd=harbour, env=env(), capture_output=True, text=True, timeout=300)  # fmt: skip
    assert started.returncode == 0, started.stderr
    base = [sys.executable, "-m", "harness.cli", "solve", "--session", str(idle)]
    deadline = time.monotonic() + 60
    while json.loads((idle / "state.json").read_text())["status"] != "idle":
        assert time.monotonic() < deadline, "the idle limit did not end the solve"
        time.sleep(0.2)
    waited = subprocess.run([*base, "wait"], cwd=harbour, env=env(), capture_output=True, text=True, timeout=120)
    assert "score 0.0" in waited.stdout and "sent no command for 0.05 minutes" in waited.stdout

    # A run that stops before serving the task says why in one line, and is never taken for the run before it.
    bad = subprocess.run([*solve_args(harbour, TASK, "--session", str(harbour / "bad"), "--detach"),
                          "--judge-model", "no such model"], cwd=harbour, env=env(), capture_output=True, text=True,
                         timeout=300)  # fmt: skip
    assert bad.returncode == 1
    assert "--judge-model must name one model or several separated by commas" in bad.stdout
    assert not re.search(r"score \d", bad.stdout) and "outcome" not in bad.stdout


def test_the_tasks_time_limit_ends_a_solve_as_it_ends_any_agents(harbour: Path) -> None:
    session = harbour / ("a-session-folder-whose-path-is-too-long-for-a-unix-socket-" * 2)  # its own socket folder
    started = subprocess.run(solve_args(harbour, f"{TASK}-timed", "--session", str(session), "--detach"),
                             cwd=harbour, env=env(), capture_output=True, text=True, timeout=300)  # fmt: skip
    assert started.returncode == 0, started.stderr
    assert "a time limit of 0.1 minutes" in started.stdout
    socket = Path(json.loads((session / "state.json").read_text())["socket"])
    assert socket.exists() and session not in socket.parents
    deadline = time.monotonic() + 60
    while json.loads((session / "state.json").read_text())["status"] != "stopped":
        assert time.monotonic() < deadline, "the time limit did not end the solve"
        time.sleep(0.2)
    assert not socket.parent.exists()
    base = [sys.executable, "-m", "harness.cli", "solve", "--session", str(session)]
    late = subprocess.run([*base, "search", "Deltameet"], cwd=harbour, env=env(), capture_output=True, text=True)
    assert late.returncode == 1 and "status: stopped" in late.stdout
    waited = subprocess.run([*base, "wait"], cwd=harbour, env=env(), capture_output=True, text=True, timeout=120)
    assert "score 0.0" in waited.stdout and "did not finish within 6 s" in waited.stdout
    assert [json.loads(line)["event"] for line in (session / "log.jsonl").read_text().splitlines()] == [
        "start",
        "stopped",
    ]
    budget = subprocess.run([*base, "budget"], cwd=harbour, env=env(), capture_output=True, text=True)
    assert "calls: 0 of 8 used, 8 left" in budget.stdout and "the task's time limit ran out" in budget.stdout
    assert "hydrographic engineer" in subprocess.run([*base, "prompt"], cwd=harbour, env=env(), capture_output=True,
                                                     text=True).stdout  # fmt: skip


def test_a_task_is_named_by_its_id_or_its_node_id(harbour: Path) -> None:
    node = f"evals/recruitment/harbour.yaml::{TASK}"
    assert resolve_node(TASK, harbour) == node
    assert resolve_node(node, harbour) == node
    with pytest.raises(ConfigError, match="no task 'i2p-nobody'"):
        resolve_node("i2p-nobody", harbour)
    with pytest.raises(ConfigError, match=r"no task file evals/x\.yaml"):
        resolve_node("evals/x.yaml::a", harbour)


def test_bad_input_is_one_line_before_any_run(harbour: Path) -> None:
    def solve(*words: str) -> subprocess.CompletedProcess[str]:
        command = [sys.executable, "-m", "harness.cli", "solve", *words]
        return subprocess.run(command, cwd=harbour, env=env(), capture_output=True, text=True, timeout=60)

    cases = [
        (["i2p-nobody"], 4, "no task 'i2p-nobody' in the task files"),
        (["--session", "nowhere", "search", "x"], 2, "nowhere is not a solve session (it has no session.json)"),
        ([TASK, "--session", "s", '--pytest="x'], 2, "No closing quotation"),
        ([TASK, "--budget", "none"], 2, "expected full, quarter or a number of calls"),
    ]
    for words, code, message in cases:
        done = solve(*words)
        assert (done.returncode, message in done.stderr) == (code, True), (words, done.stderr)
        assert "Traceback" not in done.stderr
    assert not (harbour / "s").exists() and not (harbour / "reports").exists()


def test_the_budget_is_the_tasks_a_quarter_of_it_or_a_number() -> None:
    assert [call_budget("full", LoopLimits(max_steps=n)) for n in (40, 30, 60)] == [40, 30, 60]
    assert [call_budget("quarter", LoopLimits(max_steps=n)) for n in (40, 30, 60, 1)] == [10, 8, 15, 1]
    assert call_budget(7, LoopLimits(max_steps=40)) == 7
