"""Agents outside the harness's process: a command (any language) or an HTTP service, one run per item.

Both get the same task document (JSON):

    {"id", "item", "prompt", "system", "tools": [OpenAI tool specs], "task": {id, suite, kind, version,
     variant, repeat, metadata}, "limits": {max_steps, token_budget, time_limit_s},
     "gateway": {base_url, api_key, mcp_url, tools_url, mcp_stdio}}

A command reads it on stdin and runs in a fresh working directory of its own, with OPENAI_BASE_URL and
OPENAI_API_KEY pointing at the harness's gateway (the item's key, valid while the item runs), HARNESS_*
variables for the tools, and no provider key in its environment. It prints the answer on stdout: plain
text, or a JSON object {"answer": "..."}; logs belong on stderr. A service receives the document as a POST
and answers the same way in its body.

A crash, a non-zero exit, a hang past the time limit (the task's `limits.time_limit_s`, else
`--agent-timeout`) and output that cannot be read are item errors that carry the tail of the agent's
stderr (or body). The process runs in a session of its own and is killed with its children on a timeout;
nothing it does reaches the run or other items. A call the gateway refused for the harness's own reasons
(a cache miss under replay, the budget) is the item's error, whatever the agent made of it.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import re
import shutil
import signal
from pathlib import Path
from typing import Any

from harness.errors import AgentError, HarnessError
from harness.gateway import Gateway, GatewayAccess, ItemSession
from harness.llm.stages import current_stage
from harness.secrets import Redactor, agent_environment
from harness.solvers import Answer, CallScope, LoopLimits, Trajectory, recorded_tools
from harness.tools import Tool

MAX_OUTPUT_BYTES = 8 * 2**20
STDERR_TAIL_CHARS = 2000
_UNSAFE = re.compile(r"[^A-Za-z0-9._-]+")


def item_name(task: dict[str, Any]) -> str:
    """`id`, `id[variant]`, `id[r1]` or `id[variant/r1]`, as the pytest item is named."""
    parts = [p for p in (task.get("variant"), f"r{task['repeat']}" if task.get("repeat") else None) if p]
    return f"{task['id']}[{'/'.join(parts)}]" if parts else str(task["id"])


def task_document(
    prompt: str, system: str | None, tools: list[Tool], task: dict[str, Any], limits: LoopLimits, access: GatewayAccess
) -> dict[str, Any]:
    return {
        "id": task["id"],
        "item": item_name(task),
        "prompt": prompt,
        "system": system,
        "tools": [tool.spec() for tool in tools],
        "task": task,
        "limits": {
            "max_steps": limits.max_steps,
            "token_budget": limits.token_budget,
            "time_limit_s": limits.time_limit_s,
        },
        "gateway": access.to_json(),
    }


def read_answer(raw: bytes, source: str) -> str:
    """The answer in an agent's output: plain text, or a JSON object with a string `answer`."""
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise AgentError(f"{source} is not UTF-8 text (byte {exc.start}: {raw[exc.start : exc.start + 8]!r})") from exc
    if "\x00" in text:
        raise AgentError(f"{source} holds NUL characters: not an answer")
    stripped = text.strip()
    if not stripped:
        raise AgentError(f"{source} is empty: the answer goes there (logs go to stderr)")
    if stripped.startswith("{"):
        try:
            document = json.loads(stripped)
        except ValueError as exc:
            raise AgentError(f"{source} starts like JSON but is not ({exc}); print plain text or "
                             '{"answer": "..."}') from exc  # fmt: skip
        if not isinstance(document, dict) or not isinstance(document.get("answer"), str):
            raise AgentError(f'{source} is a JSON object without a string "answer"')
        return document["answer"]
    return stripped


class _GatewayAgent:
    """What command and service agents share: an item session on the gateway around each run."""

    name: str

    def __init__(self, gateway: Gateway, timeout_s: float, secret_names: tuple[str | None, ...] = ()) -> None:
        self.gateway = gateway
        self.timeout_s = timeout_s
        self.secret_names = secret_names

    async def solve(
        self,
        prompt: str,
        *,
        system: str | None,
        tools: list[Tool],
        scope: CallScope,
        task: dict[str, Any] | None = None,
        model: Any = None,
        limits: LoopLimits | None = None,
    ) -> Answer:
        limits = limits or LoopLimits()
        info = task or {"id": "task", "variant": None, "repeat": scope.repeat}
        await self.gateway.start()
        trajectory = Trajectory()
        session = self.gateway.open_session(
            item=item_name(info),
            task_version=scope.task_version,
            repeat=scope.repeat,
            records=scope.records,
            tools=recorded_tools(tools, trajectory),
            stage=current_stage(),
        )
        access = self.gateway.access(session)
        document = task_document(prompt, system, tools, info, limits, access)
        timeout = limits.time_limit_s or self.timeout_s
        try:
            text = await self._run(document, access, session, timeout)
        except HarnessError as exc:
            raise session.first_failure() or exc from None
        finally:
            self.gateway.close_session(session)
        if (failure := session.first_failure()) is not None:
            raise failure  # the agent carried on after a refused call: its answer is not the run's answer
        return Answer(text=text, tool_calls=trajectory.steps)

    async def _run(self, document: dict[str, Any], access: GatewayAccess, session: ItemSession, timeout: float) -> str:
        raise NotImplementedError

    def close(self) -> None:
        pass


class CommandAgent(_GatewayAgent):
    """`--agent-cmd CMD`: one process per item (a shell command line), in its own working directory."""

    def __init__(
        self, command: str, gateway: Gateway, workdir: Path, timeout_s: float, secret_names: tuple = ()
    ) -> None:
        super().__init__(gateway, timeout_s, secret_names)
        self.command = command
        self.name = f"agent-cmd:{command}"
        self.workdir = workdir

    def _folder(self, document: dict[str, Any]) -> Path:
        folder = self.workdir / _UNSAFE.sub("_", document["item"])[:150]
        if folder.exists():
            shutil.rmtree(folder, ignore_errors=True)
        folder.mkdir(parents=True)
        return folder

    async def _run(self, document: dict[str, Any], access: GatewayAccess, session: ItemSession, timeout: float) -> str:
        env = agent_environment(dict(os.environ), self.secret_names)
        env.update(access.env())
        env["HARNESS_TASK_ID"] = str(document["id"])
        env["HARNESS_MCP_STDIO"] = " ".join(access.mcp_stdio)
        folder = self._folder(document)
        process = await asyncio.create_subprocess_shell(
            self.command,
            stdin=asyncio.subprocess.PIPE,
            stdout=asyncio.subprocess.PIPE,
            stderr=asyncio.subprocess.PIPE,
            cwd=folder,
            env=env,
            start_new_session=True,  # its own process group: a timeout kills the agent and its children
        )
        stdout, stderr = bytearray(), bytearray()
        readers = asyncio.gather(
            _read_capped(process.stdout, stdout, MAX_OUTPUT_BYTES),
            _read_capped(process.stderr, stderr, MAX_OUTPUT_BYTES, keep_tail=True),
        )
        try:
            async with asyncio.timeout(timeout):
                await _feed(process, json.dumps(document).encode())
                await readers
                returncode = await process.wait()
        except TimeoutError:
            _kill_group(process)
            with contextlib.suppress(Exception):
                await asyncio.wait_for(process.wait(), 5)
            readers.cancel()
            raise AgentError(f"{self.name} did not finish within {timeout:g} s{self._tail(stderr, session)}") from None
        except asyncio.CancelledError:
            _kill_group(process)
            raise
        if returncode != 0:
            how = f"was killed by signal {-returncode}" if returncode < 0 else f"exited with status {returncode}"
            raise AgentError(f"{self.name} {how}{self._tail(stderr, session)}")
        if len(stdout) >= MAX_OUTPUT_BYTES:
            raise AgentError(f"{self.name} printed more than {MAX_OUTPUT_BYTES // 2**20} MiB on stdout")
        try:
            return read_answer(bytes(stdout), f"{self.name}'s stdout")
        except AgentError as exc:
            raise AgentError(f"{exc}{self._tail(stderr, session)}") from None

    @staticmethod
    def _tail(stderr: bytearray, session: ItemSession) -> str:
        text = bytes(stderr).decode("utf-8", "replace").strip()
        if not text:
            return " (stderr was empty)"
        tail = text[-STDERR_TAIL_CHARS:]
        tail = Redactor([session.token]).text(tail)
        return f"; stderr ends: {tail}"


async def _feed(process: Any, data: bytes) -> None:
    """Write the task to stdin and close it; an agent that never reads stdin is fine."""
    with contextlib.suppress(BrokenPipeError, ConnectionResetError):
        process.stdin.write(data)
        await process.stdin.drain()
    with contextlib.suppress(BrokenPipeError, ConnectionResetError):
        process.stdin.close()


async def _read_capped(stream: Any, into: bytearray, cap: int, keep_tail: bool = False) -> None:
    """Read a pipe to its end, keeping at most `cap` bytes (the first ones, or the last with keep_tail)."""
    while chunk := await stream.read(65536):
        into.extend(chunk)
        if len(into) > cap:
            if keep_tail:
                del into[: len(into) - cap]
            else:
                del into[cap:]


def _kill_group(process: Any) -> None:
    with contextlib.suppress(ProcessLookupError, PermissionError, OSError):
        os.killpg(process.pid, signal.SIGKILL)


class ServiceAgent(_GatewayAgent):
    """`--agent-url URL`: each item's task document is POSTed to the service."""

    def __init__(self, url: str, gateway: Gateway, timeout_s: float, concurrency: int = 16) -> None:
        super().__init__(gateway, timeout_s)
        from harness.secrets import redact_url

        self.url = url
        self.name = f"agent-url:{redact_url(url)}"
        self._session: Any = None
        self._concurrency = concurrency

    async def _http(self) -> Any:
        import aiohttp

        if self._session is None or self._session.closed:
            self._session = aiohttp.ClientSession(connector=aiohttp.TCPConnector(limit=self._concurrency))
        return self._session

    async def _run(self, document: dict[str, Any], access: GatewayAccess, session: ItemSession, timeout: float) -> str:
        import aiohttp

        http = await self._http()
        try:
            async with http.post(self.url, json=document, timeout=aiohttp.ClientTimeout(total=timeout)) as response:
                body = await response.content.read(MAX_OUTPUT_BYTES + 1)
                status = response.status
        except TimeoutError:
            raise AgentError(f"{self.name} did not answer within {timeout:g} s") from None
        except aiohttp.ClientError as exc:
            raise AgentError(f"{self.name} could not be reached ({type(exc).__name__}: {exc})") from None
        if status >= 400:
            tail = Redactor([session.token]).text(body.decode("utf-8", "replace").strip()[-STDERR_TAIL_CHARS:])
            raise AgentError(f"{self.name} answered HTTP {status}; body ends: {tail or '(empty)'}")
        if len(body) > MAX_OUTPUT_BYTES:
            raise AgentError(f"{self.name} answered more than {MAX_OUTPUT_BYTES // 2**20} MiB")
        return read_answer(body, f"{self.name}'s reply")

    async def aclose(self) -> None:
        if self._session is not None:
            await self._session.close()
