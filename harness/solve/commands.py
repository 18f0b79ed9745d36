"""`harness solve`: the command line of hand solving (docs/agents.md#solving-a-task-by-hand)."""

from __future__ import annotations

import argparse
import contextlib
import datetime as dt
import os
import re
import signal
import sys
from pathlib import Path
from typing import Any

from harness.errors import ConfigError
from harness.solve.frontend import ONE_SHOT, Client, Repl, SolveError, header, one_shot, result_text, supervisor_alive
from harness.solve.runner import launch, pytest_command, resolve_node
from harness.solve.session import Session, utc_now, write_json

STEPS = ("search", "open", "call", "answer", "budget", "prompt", "tools", "wait", "quit")
READY_TIMEOUT_S = 600.0  # collecting the task and loading its world


def budget_spec(value: str) -> str | int:
    if value in ("full", "quarter"):
        return value
    if value.isdigit() and int(value) > 0:
        return int(value)
    raise argparse.ArgumentTypeError(f"expected full, quarter or a number of calls, got {value!r}")


def add_command(sub: Any) -> None:
    solve = sub.add_parser(
        "solve",
        help="solve one task by hand, through the tools and budget an agent gets; scored like any agent",
        description="Start: harness solve TASK (a task id, or a node id FILE::ID). A terminal prompt offers "
        "search, open, call, answer, budget, prompt, tools and quit. With --detach the solve runs in the "
        "background and each step is one command: harness solve --session DIR search QUERY | open URL [PAGE] | "
        "call TOOL JSON | answer FILE|- | budget | prompt | tools | wait | quit. Every call is logged with its "
        "time in the session folder (log.jsonl), with the minutes taken; the score and the report's path are "
        "printed at the end.",
    )
    solve.add_argument("words", nargs="*", metavar="TASK | COMMAND", help="the task to start; or, with --session "
                       "of a running solve, one command and its arguments")  # fmt: skip
    solve.add_argument("--session", metavar="DIR", help="the session folder (default: REPORT_DIR/solve/TASK-TIME)")
    solve.add_argument("--detach", action="store_true", help="start the solve in the background, print the prompt, "
                       "and return; then one command per call with --session DIR")  # fmt: skip
    solve.add_argument("--budget", type=budget_spec, default="full", help="the call budget: full (the task's, as "
                       "agents get it; default), quarter (a quarter, rounded up) or a number of calls")  # fmt: skip
    solve.add_argument("--judge-model", default=None, help="passed to the run (harness/reference: no model)")
    solve.add_argument("--model", default=None, help="passed to the run (the base model of pipelines)")
    solve.add_argument("--report-dir", default="reports", help="where the run writes its report (default: reports)")
    solve.add_argument("--pytest", default="", metavar="ARGS", help='more options for the run, as one string: '
                       '--pytest="--cache-dir /tmp/c"')  # fmt: skip
    solve.add_argument("--idle-minutes", type=float, default=120.0, help="a solve with no command for this long "
                       "ends, unanswered (default: 120; 0: never)")  # fmt: skip
    solve.add_argument("--timeout", type=float, default=None, help="seconds `wait` waits for the score (default: "
                       "until it comes)")  # fmt: skip
    solve.set_defaults(func=cmd_solve)


def cmd_solve(args: argparse.Namespace) -> int:
    try:
        return _solve(args)
    except SolveError as exc:
        print(f"harness solve: {exc}", file=sys.stderr if exc.code != 1 else sys.stdout)
        return exc.code
    except BrokenPipeError:  # the reader went away (`... search x | head`): not an error of the solve
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 0


def _solve(args: argparse.Namespace) -> int:
    session = Session(Path(args.session)) if args.session else None
    if session is not None and session.config() is not None:
        if args.detach:
            raise SolveError(f"{session.folder} is already a solve session; start another in a new folder", code=2)
        client = Client(session)
        if not args.words:  # back at the terminal prompt of a detached solve
            state = client.wait_ready(READY_TIMEOUT_S, lambda: supervisor_alive(session))
            return _repl(client, str((session.config() or {}).get("task")), state, None)
        try:
            reply = one_shot(client, args.words, sys.stdin, args.timeout)
        except SolveError as exc:
            if exc.code == 2 and len(args.words) == 1 and args.words[0] == (session.config() or {}).get("task"):
                raise SolveError(f"{session.folder} is already a solve session of {args.words[0]}; start another "
                                 "in a new folder", code=2) from exc  # fmt: skip
            raise
        print(reply.text)
        return reply.code
    if session is not None and args.words and args.words[0] in STEPS:
        raise SolveError(f"{session.folder} is not a solve session (it has no session.json); start one with "
                         "harness solve TASK --session DIR --detach", code=2)  # fmt: skip
    if len(args.words) != 1:
        raise SolveError("usage: harness solve TASK [--detach --session DIR]; or harness solve --session DIR "
                         f"COMMAND ...\n{ONE_SHOT}", code=2)  # fmt: skip
    return _start(args, session)


def _start(args: argparse.Namespace, session: Session | None) -> int:
    root = Path.cwd()
    try:
        node = resolve_node(args.words[0], root)
    except ConfigError as exc:
        raise SolveError(str(exc), code=4) from exc
    task = node.split("::", 1)[1]
    report_dir = Path(args.report_dir).resolve()
    options = {"report_dir": report_dir, "judge_model": args.judge_model, "model": args.model, "pytest": args.pytest}
    try:
        command = pytest_command(node, options)
    except ValueError as exc:  # shlex: an unbalanced quote
        raise SolveError(f"--pytest {args.pytest!r}: {exc}", code=2) from exc
    if session is None:
        stamp = dt.datetime.now(dt.UTC).strftime("%Y%m%dT%H%M%SZ")
        session = Session(report_dir / "solve" / f"{re.sub(r'[^A-Za-z0-9_.-]+', '_', task)}-{stamp}")
    if session.folder.exists() and any(session.folder.iterdir()):
        raise SolveError(f"{session.folder} is not empty; a session starts in a new or empty folder", code=2)
    session.folder.mkdir(parents=True, exist_ok=True)
    write_json(
        session.config_path,
        {
            "task": task,
            "node": node,
            "budget": args.budget,
            "idle_minutes": args.idle_minutes,
            "cwd": str(root),
            "report_dir": str(report_dir),
            "command": command,
            "created_at": utc_now(),
        },
    )
    supervisor = launch(session, root)
    (session.folder / "supervisor.pid").write_text(f"{supervisor.pid}\n", encoding="utf-8")
    client = Client(session)
    if not args.detach:
        print(f"harness solve: starting {task} (session {session.folder})", flush=True)
    state = client.wait_ready(READY_TIMEOUT_S, lambda: supervisor.poll() is None)
    if args.detach:
        prompt = session.prompt_path.read_text(encoding="utf-8")
        print(header(state, prompt, task))
        print(f"session: {session.folder}\n{ONE_SHOT.replace('DIR', str(session.folder))}")
        return 0
    return _repl(client, task, state, supervisor)


def _ctrl_c_interrupts() -> None:
    """A person at the prompt expects Ctrl-C to drop the line. A process started as a background job of a
    shell without job control (a CI runner, `cmd &` in a script) inherits SIGINT as ignored, and Python then
    installs no handler: Ctrl-C would do nothing at all. At a terminal, the prompt takes SIGINT back."""
    if sys.stdin.isatty() and signal.getsignal(signal.SIGINT) is signal.SIG_IGN:
        signal.signal(signal.SIGINT, signal.default_int_handler)


def _repl(client: Client, task: str, state: dict[str, Any], supervisor: Any) -> int:
    session = client.session
    _ctrl_c_interrupts()
    repl = Repl(client, task)
    try:
        repl.run(state)
    finally:
        current = session.state() or {}
        if current.get("status") == "open":  # the prompt was left some other way: the run must not wait forever
            with contextlib.suppress(SolveError):
                client.send({"op": "quit"})
    print("scoring ...", flush=True)
    alive = (lambda: supervisor.poll() is None) if supervisor is not None else (lambda: supervisor_alive(session))
    try:
        result = client.wait_result(None, alive)
    except KeyboardInterrupt:
        print(f"\nthe run goes on; the score: harness solve --session {session.folder} wait")
        return 130
    print(result_text(result))
    print(f"session: {session.folder} (log.jsonl: every call)")
    return 0 if result.get("score") is not None else 1
