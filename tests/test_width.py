"""Readable at any width: terminal tables fit the terminal (split into blocks, never wrapped), checked in a
pseudo-terminal of 80 columns."""

from __future__ import annotations

import fcntl
import os
import pty
import re
import struct
import subprocess
import sys
import termios
from pathlib import Path

from helpers import Project, judge_rules, leaderboard_run, sample_answers, stub_args

from harness.terminal_fit import fit_table
from harness.testing import StubProcess

ANSI = re.compile(r"\x1b\[[0-9;]*[A-Za-z]")


def _in_terminal(command: list[str], cwd: Path, columns: int) -> str:
    """Run `command` with a pseudo-terminal of `columns` columns as its output; what it printed."""
    master, slave = pty.openpty()
    fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", 40, columns, 0, 0))
    env = {k: v for k, v in os.environ.items() if k not in ("COLUMNS", "LINES") and not k.startswith("PYTEST_")}
    process = subprocess.Popen(command, cwd=cwd, stdin=slave, stdout=slave, stderr=slave, env=env, close_fds=True)
    os.close(slave)
    chunks = []
    while True:
        try:
            data = os.read(master, 65536)
        except OSError:  # the other end closed: the process ended
            break
        if not data:
            break
        chunks.append(data)
    process.wait(timeout=300)
    os.close(master)
    return ANSI.sub("", b"".join(chunks).decode(errors="replace")).replace("\r\n", "\n")


def _table_lines(text: str) -> list[str]:
    """Lines laid out as tables: three or more gaps of two spaces between cells."""
    return [line for line in text.splitlines() if len(re.findall(r"\S {2,}(?=\S)", line)) >= 3]


def test_terminal_tables_fit_80_columns(project: Project, fresh_stub: StubProcess) -> None:
    fresh_stub.control(answers=sample_answers(), judge_rules=judge_rules(), judge_default={"grade": "incorrect"})
    project.copy_sample()
    command = project.command("evals", *stub_args(fresh_stub), "-p", "no:randomly")
    run = _in_terminal(command, project.root, 80)
    assert "harness scores" in run, run[-3000:]
    estimate = _in_terminal([*command, "--estimate"], project.root, 80)
    assert "harness estimate" in estimate, estimate[-3000:]
    tables = _table_lines(run.split("harness scores", 1)[1]) + _table_lines(estimate)
    assert len(tables) >= 8, tables
    too_wide = [line for line in tables if len(line) > 80]
    assert not too_wide, "\n".join(too_wide)
    # the estimate's table is wider than 80: it was split, each block keeping the suite's name
    blocks = [line for line in estimate.splitlines() if line.startswith("suite")]
    assert len(blocks) >= 2 and all(line.split()[0] == "suite" for line in blocks), estimate
    assert "24 from earlier runs, 0 from defaults" in estimate
    # without a terminal (a CI log) the same table stays whole
    piped = subprocess.run([*command, "--estimate"], cwd=project.root, capture_output=True, text=True)
    found = [line for line in piped.stdout.splitlines() if line.startswith("suite")]
    assert len(found) == 1 and found[0].split()[-1] == "basis", piped.stdout
    (row,) = [line for line in piped.stdout.splitlines() if line.startswith("sample ")]
    assert len(row) > 80 and row.endswith("24 from earlier runs, 0 from defaults")


def test_a_wide_table_is_split_into_blocks_that_keep_every_cell() -> None:
    header = ["dataset", "variant", *[f"column {n}" for n in range(14)]]
    rows = [["mt_human", "gi-r", *[f"{n * 7.5:.1f}" for n in range(14)]], ["lm_market", "adchat", *["-"] * 14]]
    lines = fit_table(header, rows, 80, keys=2)
    assert max(len(line) for line in lines) <= 80 and len(fit_table(header, rows, None, keys=2)[0]) > 80
    blocks = [block.splitlines() for block in "\n".join(lines).split("\n\n")]
    assert len(blocks) >= 2
    assert all(block[1].startswith("mt_human") and block[2].startswith("lm_market") for block in blocks)
    shown = " ".join(lines)
    assert all(h in shown for h in header) and all(c in shown for c in rows[0])
    named = fit_table(["suite", "mean"], [["a-suite-name-far-longer-than-half-the-terminal-" * 2, "50.0"]], 60)
    assert max(len(line) for line in named) <= 60 and "..." in named[1]


def test_the_leaderboard_fits(tmp_path: Path) -> None:
    paths = [
        leaderboard_run(tmp_path, f"20261129T0510{n:02d}123Z-a6f87b", f"openai/model-{n}", [100, 50]) for n in range(3)
    ]
    out = _in_terminal([sys.executable, "-m", "harness.cli", "report", *map(str, paths)], tmp_path, 80)
    lines = _table_lines(out)
    assert lines and max(len(line) for line in lines) <= 80, out
