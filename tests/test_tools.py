"""harness.tools: the calculator and every tool call bounded."""

from __future__ import annotations

import json

from harness.tools import calculator


def test_calculator_is_safe() -> None:
    assert json.loads(calculator("(365 * 24) - 760")) == {"result": 8000}
    assert "error" in json.loads(calculator("__import__('os').system('true')"))
    assert "error" in json.loads(calculator("2 ** 1000000"))
    assert "error" in json.loads(calculator("1 / 0"))


HUGE_EXPRESSIONS = [
    "(((9**99)**99)**99)**99",  # each step is computable; the fourth has about 19 million digits
    "9**9**9**9",
    "10**(10**10)",
    "99999999999**99999999999",
    "(10**999)*(10**999)*(10**999)*(10**999)*(10**999)",
    "((2**4000)**4000)**4000 % 7",
    "-(7**99)**(99**2)",
]


def test_calculator_refuses_what_it_cannot_compute_before_computing_it() -> None:
    """Refused up front, never computed and then refused: in a process of its own, so a calculator that
    starts computing any of these fails this test by its timeout instead of freezing the suite."""
    import subprocess
    import sys

    program = (
        "import json, sys\nfrom harness.tools import calculator\n"
        "print(json.dumps([json.loads(calculator(e)) for e in json.loads(sys.argv[1])]))"
    )
    done = subprocess.run(
        [sys.executable, "-c", program, json.dumps(HUGE_EXPRESSIONS)], capture_output=True, text=True, timeout=20
    )
    assert done.returncode == 0, done.stderr
    assert all("error" in reply for reply in json.loads(done.stdout)), done.stdout


def test_a_tool_past_its_time_is_an_error_the_model_reads_and_holds_nothing_open() -> None:
    """A sync tool that never returns: a tool error after its time limit, and its thread is a daemon (a
    pool's thread would be joined at exit, and hold the run open)."""
    import asyncio
    import threading

    from harness.solvers import run_tool
    from harness.tools import Tool

    release = threading.Event()
    stuck = Tool("stuck", "never returns", {"type": "object", "properties": {}}, lambda: release.wait(60), 0.2)
    try:
        output = asyncio.run(run_tool(stuck, "{}"))
        assert json.loads(output) == {"error": "stuck did not finish within 0.2 s"}
        (thread,) = [t for t in threading.enumerate() if t.name == "harness-call" and t.is_alive()]
        assert thread.daemon
    finally:
        release.set()
