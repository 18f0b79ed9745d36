"""The system under test of `harness solve`: an agent (`--agent harness.solve.agent:run`) that hands the
prompt and the task's tools to whoever solves by hand, and returns their answer.

It gets what every Python agent gets (docs/agents.md): the rendered prompt, the system prompt, the task's
tools, each call recorded in the item's trajectory, and the loop limits, whose `max_steps` is the call
budget (one call per step, as a model that calls one tool per turn). It serves them on a Unix socket in the
session folder (harness.solve.protocol), logs every call, and refuses calls past the budget. The task's
ground truth never reaches it.
"""

from __future__ import annotations

import asyncio
import json
import math
import os
import threading
import time
from pathlib import Path
from typing import Any

from harness.solve.protocol import Server
from harness.solve.session import SESSION_ENV, Session, utc_now, write_json
from harness.solvers import LoopLimits, run_tool
from harness.tools import Tool


def call_budget(spec: str | int | None, limits: LoopLimits) -> int:
    """The calls allowed: the task's (`full`), a quarter of them rounded up (`quarter`), or a number."""
    full = limits.max_steps
    if spec in (None, "", "full"):
        return full
    if spec == "quarter":
        return max(1, math.ceil(full / 4))
    return int(spec)


def prompt_text(prompt: str, system: str | None) -> str:
    """What the solver reads: the system prompt (the role and the answer's format), then the task."""
    return f"{system.strip()}\n\n{prompt.strip()}\n" if system else f"{prompt.strip()}\n"


class Desk:
    """One item's solve: the tools, the budget and the clock, answering the front end's requests."""

    def __init__(
        self,
        session: Session,
        prompt: str,
        tools: list[Tool],
        budget: int,
        limits: LoopLimits,
        loop: asyncio.AbstractEventLoop,
    ) -> None:
        self.session = session
        self.loop = loop  # the run's: tools run there, as they do for every agent
        self.prompt = prompt
        self.tools = {tool.name: tool for tool in tools}
        self.budget = budget
        self.limits = limits
        self.used = 0
        self.refused = 0
        self.started = time.monotonic()
        self.started_at = utc_now()
        self.last_request = self.started
        self.answer: str | None = None
        self.finished = threading.Event()
        self.done = asyncio.Event()  # the same moment, for the agent awaiting it on the run's loop
        self.socket: Path | None = None

    def minutes(self) -> float:
        return (time.monotonic() - self.started) / 60

    def budget_fields(self) -> dict[str, Any]:
        limit = self.limits.time_limit_s
        return {
            "calls_used": self.used,
            "calls_left": max(0, self.budget - self.used),
            "call_budget": self.budget,
            "minutes": round(self.minutes(), 3),
            "time_limit_minutes": round(limit / 60, 2) if limit else None,
        }

    def write_state(self, status: str) -> None:
        write_json(
            self.session.state_path,
            {
                "status": status,
                "socket": str(self.socket) if self.socket and status == "open" else None,
                "pid": os.getpid(),
                "started_at": self.started_at,
                "tools": sorted(self.tools),
                **self.budget_fields(),
            },
        )

    def finish(self) -> None:
        """No call after this one; the agent, awaiting on the run's loop, returns."""
        self.finished.set()
        self.loop.call_soon_threadsafe(self.done.set)

    def handle(self, message: dict[str, Any]) -> dict[str, Any]:
        self.last_request = time.monotonic()
        op = message["op"]
        if op in ("hello", "budget"):
            return {"ok": True, "status": "ended" if self.finished.is_set() else "open", **self.budget_fields()}
        if op == "prompt":
            return {"ok": True, "prompt": self.prompt}
        if op == "tools":
            return {"ok": True, "tools": [tool.spec()["function"] for tool in self.tools.values()]}
        if self.finished.is_set():
            return {"ok": False, "error": "the session has ended: the answer was given or the solve was given up"}
        if op == "call":
            return self._call(message)
        if op == "answer":
            text = message.get("text")
            if not isinstance(text, str) or not text.strip():
                return {"ok": False, "error": "the answer is empty"}
            self.answer = text
            self.session.answer_path.write_text(text, encoding="utf-8")
            self.session.log("answer", chars=len(text), **self.budget_fields())
            self.finish()
            return {"ok": True, **self.budget_fields()}
        # quit
        self.session.log("quit", **self.budget_fields())
        self.finish()
        return {"ok": True, **self.budget_fields()}

    def _call(self, message: dict[str, Any]) -> dict[str, Any]:
        name, arguments = message.get("tool"), message.get("arguments")
        if name not in self.tools:
            return {"ok": False, "error": f"no tool {name!r}; this task offers {', '.join(sorted(self.tools))}"}
        if not isinstance(arguments, dict):
            return {"ok": False, "error": "the arguments must be a JSON object"}
        if self.used >= self.budget:
            self.refused += 1
            self.session.log("refused", tool=name, arguments=arguments, **self.budget_fields())
            return {
                "ok": False,
                "refused": True,
                "error": f"the call budget is used up ({self.used} of {self.budget}); answer with what you have",
                **self.budget_fields(),
            }
        started = time.monotonic()
        call = run_tool(self.tools[name], json.dumps(arguments, ensure_ascii=False))
        output = asyncio.run_coroutine_threadsafe(call, self.loop).result()
        self.used += 1
        fields = self.budget_fields()
        self.session.log(
            "call",
            tool=name,
            arguments=arguments,
            seconds=round(time.monotonic() - started, 3),
            output_chars=len(output),
            output=output,
            **fields,
        )
        self.write_state("open")
        return {"ok": True, "output": output, **fields}


async def run(
    prompt: str,
    *,
    tools: list[Tool],
    system: str | None = None,
    task: dict[str, Any] | None = None,
    limits: LoopLimits | None = None,
) -> str:
    """Serve the prompt and the tools until the solver answers; the answer is the item's answer. A task's
    time limit ends the solve as it ends any agent (the item scores 0); the session says so."""
    folder = os.environ.get(SESSION_ENV)
    if not folder:
        raise RuntimeError(f"harness.solve.agent runs under `harness solve` ({SESSION_ENV} is not set)")
    session = Session(Path(folder))
    try:  # the first item claims the session, atomically: items may start together
        os.close(os.open(session.folder / "claimed", os.O_CREAT | os.O_EXCL | os.O_WRONLY, 0o600))
    except FileExistsError:
        raise RuntimeError("a solve session serves one item; this run selected more than one (name one)") from None
    config = session.config() or {}
    limits = limits or LoopLimits()
    budget = call_budget(config.get("budget"), limits)
    desk = Desk(session, prompt_text(prompt, system), tools, budget, limits, asyncio.get_running_loop())
    session.prompt_path.write_text(desk.prompt, encoding="utf-8")
    desk.socket = session.socket_path()
    server = Server(desk.socket, desk.handle)
    idle_s = float(config.get("idle_minutes") or 0) * 60
    try:
        session.log("start", task=(task or {}).get("id"), **desk.budget_fields())
        desk.write_state("open")
        if await _answered_or_idle(desk, idle_s):
            desk.write_state("answered" if desk.answer is not None else "quit")
        else:
            desk.finished.set()
            session.log("idle", idle_minutes=idle_s / 60, **desk.budget_fields())
            desk.write_state("idle")
            raise RuntimeError(f"the solver sent no command for {idle_s / 60:g} minutes (--idle-minutes)")
    except asyncio.CancelledError:  # the task's time limit (or the run's end)
        desk.finished.set()
        session.log("stopped", reason="the time limit or the run's end", **desk.budget_fields())
        desk.write_state("stopped")
        raise
    finally:
        server.close()
    if desk.answer is None:
        raise RuntimeError("the solver gave up without answering")
    return desk.answer


async def _answered_or_idle(desk: Desk, idle_s: float) -> bool:
    """Wait for the answer (or quit): True; False once no request has come for `idle_s` (0: never), so that
    a session left behind does not hold its run, and the world it loaded, for a day."""
    while True:
        if not idle_s:
            await desk.done.wait()
            return True
        left = desk.last_request + idle_s - time.monotonic()
        if left <= 0:
            return False
        try:
            await asyncio.wait_for(desk.done.wait(), timeout=min(left, 60.0))
            return True
        except TimeoutError:
            continue
