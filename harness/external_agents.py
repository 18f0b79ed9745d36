"""Agents outside the harness's process: a command (any language) or an HTTP service, one run per item.

Both get the same task document (JSON):

    {"id", "item", "prompt", "system", "tools": [OpenAI tool specs], "task": {id, suite, kind, version,
     variant, repeat, metadata}, "limits": {max_steps, token_budget, time_limit_s},
     "gateway": {base_url, api_key, mcp_url, tools_url, mcp_stdio}}

A command reads it on stdin and runs in a sandbox (harness.sandbox) with a fresh working directory of its
own, with OPENAI_BASE_URL and OPENAI_API_KEY pointing at the harness's gateway (the item's key, valid while
the item runs), HARNESS_* variables for the tools, and an environment built from an allow-list: never a
key. It prints the answer on stdout: plain text, or a JSON object {"answer": "..."}; logs belong on stderr.
A service receives the document as a POST and answers the same way in its body.

A crash, a non-zero exit, a hang past the time limit (the task's `limits.time_limit_s`, else
`--agent-timeout`) and output that cannot be read are the system's failures: they carry the tail of the
agent's stderr (or body), with terminal escapes removed. Every process the item started ends with the
item. A call the gateway refused for the harness's own reasons (a cache miss under replay, the budget) is
the item's error, whatever the agent made of it.
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import itertools
import json
import os
import re
from typing import Any

from harness.errors import AgentError, HarnessError
from harness.gateway import Gateway, GatewayAccess, ItemSession
from harness.gateway.connections import MAX_CONNECTIONS_PER_ITEM
from harness.item_names import item_name
from harness.secrets import Redactor, redact_url
from harness.solvers import Answer, CallScope, LoopLimits, Trajectory, recorded_tools
from harness.tools import Tool
from harness.wellformed import well_formed_text

MAX_OUTPUT_BYTES = 8 * 2**20
STDERR_TAIL_CHARS = 2000
DRAIN_GRACE_S = 0.5  # after the main process exits, how long its pipes may take to close on their own
_UNSAFE = re.compile(r"[^A-Za-z0-9._-]+")


def folder_name(task: dict[str, Any], item: str) -> str:
    """The name of an item's working folder, unique in the run: readable (suite, task, variant, repeat) and
    ended by a digest of all four, so that two suites' task `t`, or two ids the cleaning makes equal,
    never share one."""
    full = [task.get("suite"), task["id"], task.get("variant"), task.get("repeat") or 0]
    digest = hashlib.sha256(json.dumps(full).encode()).hexdigest()[:12]
    readable = _UNSAFE.sub("_", f"{task.get('suite') or ''}.{item}").strip("._")[:100]
    return f"{readable}-{digest}" if readable else digest


def task_document(
    prompt: str,
    system: str | None,
    tools: list[Tool],
    task: dict[str, Any],
    item: str,
    limits: LoopLimits,
    access: GatewayAccess,
) -> dict[str, Any]:
    return {
        "id": task["id"],
        "item": item,
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
        return well_formed_text(document["answer"])  # "\ud83d" (half an emoji) would fail every writer
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
        item = item_name(str(info["id"]), info.get("variant"), scope.repeat, scope.repeats)
        trajectory = Trajectory()
        timeout = limits.time_limit_s or self.timeout_s
        session: ItemSession | None = None
        try:
            async with self.gateway.item_session(
                item=item, scope=scope, tools=recorded_tools(tools, trajectory)
            ) as session:
                access = self.gateway.access(session)
                document = task_document(prompt, system, tools, info, item, limits, access)
                text = await self._run(document, access, session, timeout)
        except HarnessError as exc:
            # A refused call is why the agent failed (or why its answer does not count): the item's error.
            raise (session.first_failure() if session is not None else None) or exc from None
        return Answer(text=text, tool_calls=trajectory.steps)

    async def _run(self, document: dict[str, Any], access: GatewayAccess, session: ItemSession, timeout: float) -> str:
        raise NotImplementedError

    def close(self) -> None:
        pass


class CommandAgent(_GatewayAgent):
    """`--agent-cmd CMD`: one process tree per item (a shell command line), in a sandbox (harness.sandbox)
    with a working folder of its own. Its answer is what it printed when its main process exited: whatever
    it started is ended then, so a child that keeps stdout open cannot hold the answer back."""

    def __init__(self, command: str, gateway: Gateway, sandbox: Any, timeout_s: float) -> None:
        super().__init__(gateway, timeout_s)
        self.command = command
        self.name = f"agent-cmd:{command}"
        self.sandbox = sandbox
        self._sockets = itertools.count(1)  # the items' Unix sockets to the gateway, numbered

    def close(self) -> None:
        self.sandbox.close()  # the items' working folders (and sockets) go with the run

    @contextlib.asynccontextmanager
    async def _gateway_socket(self) -> Any:
        """(the gateway's port, the item's Unix socket to it) for a sandbox without a network, else (None,
        None). A socket per item: the gateway relays at most its share of connections for each item."""
        if self.sandbox.mode != "bwrap" or self.sandbox.network != "gateway":
            yield None, None
            return
        from harness.gateway.unix_socket import serve_gateway_socket

        path = self.sandbox.gateway_socket(f"item-{next(self._sockets)}")
        server = await serve_gateway_socket(
            path, int(self.gateway.port), MAX_CONNECTIONS_PER_ITEM, self.gateway.notices
        )
        try:
            yield int(self.gateway.port), path
        finally:
            server.close()
            path.unlink(missing_ok=True)

    async def _run(self, document: dict[str, Any], access: GatewayAccess, session: ItemSession, timeout: float) -> str:
        async with self._gateway_socket() as (port, socket):
            return await self._run_with(document, access, session, timeout, port, socket)

    async def _run_with(
        self, document: dict[str, Any], access: GatewayAccess, session: ItemSession, timeout: float,
        port: int | None, socket: Any,
    ) -> str:  # fmt: skip
        item = folder_name(document["task"], document["item"])
        folder = self.sandbox.folder_for(item)
        extra = {**access.env(), "HARNESS_TASK_ID": str(document["id"])}
        extra["HARNESS_MCP_STDIO"] = " ".join(access.mcp_stdio)
        env = self.sandbox.environment(dict(os.environ), extra, folder)
        group = self.sandbox.group(item)
        process = await asyncio.create_subprocess_exec(
            *self.sandbox.argv(self.command, folder, group, port, socket),
            stdin=asyncio.subprocess.PIPE,
            stdout=asyncio.subprocess.PIPE,
            stderr=asyncio.subprocess.PIPE,
            cwd=self.sandbox.cwd(folder),
            env=env,
            start_new_session=True,  # its own process group: ended with the item, whatever it does
        )
        stdout, stderr = bytearray(), bytearray()
        readers = asyncio.ensure_future(
            asyncio.gather(
                _read_capped(process.stdout, stdout, MAX_OUTPUT_BYTES + 1),
                _read_capped(process.stderr, stderr, MAX_OUTPUT_BYTES, keep_tail=True),
            )
        )
        try:
            async with asyncio.timeout(timeout):
                await _feed(process, json.dumps(document).encode())
                returncode = await _exited(process)
            with contextlib.suppress(Exception):  # what it wrote is read; a child holding its pipes is not awaited
                await asyncio.wait_for(asyncio.shield(readers), DRAIN_GRACE_S)
        except TimeoutError:
            await self._end(process, group, session, readers)
            raise AgentError(f"{self.name} did not finish within {timeout:g} s{self._tail(stderr, session)}") from None
        except asyncio.CancelledError:
            await self._end(process, group, session, readers)
            raise
        await self._end(process, group, session, readers)
        if returncode != 0:
            how = f"was killed by signal {-returncode}" if returncode < 0 else f"exited with status {returncode}"
            raise AgentError(f"{self.name} {how}{self._tail(stderr, session)}")
        if len(stdout) > MAX_OUTPUT_BYTES:
            raise AgentError(f"{self.name} printed more than {MAX_OUTPUT_BYTES // 2**20} MiB on stdout")
        try:
            return read_answer(bytes(stdout), f"{self.name}'s stdout")
        except AgentError as exc:
            raise AgentError(f"{exc}{self._tail(stderr, session)}") from None

    async def _end(self, process: Any, group: Any, session: ItemSession, readers: Any) -> None:
        """End every process of the item, then read what its pipes still hold (they close as the last
        holder dies); a reader still blocked after that is abandoned."""
        await asyncio.to_thread(self.sandbox.end, process.pid, group, session.token)
        if process.returncode is None:
            with contextlib.suppress(Exception):
                await asyncio.wait_for(process.wait(), 5)
        try:
            await asyncio.wait_for(asyncio.shield(readers), 2)
        except (TimeoutError, Exception):
            readers.cancel()

    @staticmethod
    def _tail(stderr: bytearray, session: ItemSession) -> str:
        text = printable(bytes(stderr).decode("utf-8", "replace")).strip()
        if not text:
            return " (stderr was empty)"
        tail = text[-STDERR_TAIL_CHARS:]
        tail = Redactor([session.token]).text(tail)
        return f"; stderr ends: {tail}"


_CONTROL = re.compile(
    r"\x1b\[[0-9;?]*[ -/]*[@-~]"  # CSI: cursor moves, colours, erasures
    r"|\x1b[P\]X^_][^\x07\x1b]*(?:\x07|\x1b\\)"  # OSC (titles, links), DCS, SOS, PM, APC strings
    r"|[\x00-\x08\x0b-\x1f\x7f\x80-\x9f]"  # the other C0 and C1 controls (CR, lone ESC, C1 CSI)
    r"|[\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]"  # bidirectional marks, embeddings, overrides, isolates
)


def printable(text: str) -> str:
    """`text` without terminal escape sequences, control characters or bidirectional overrides (newlines and
    tabs stay): an agent's output must not move the cursor, recolour or retitle the terminal that shows a
    report line, nor reorder what a reader sees of it (after U+202E, `fdp.exe` reads `exe.pdf`)."""
    return _CONTROL.sub("", well_formed_text(text))


async def _exited(process: Any) -> int:
    """The main process's exit status, as soon as it exits. (asyncio's `wait()` also waits until its pipes
    close, which a child that inherited them, a daemon or a forgotten `&`, can put off forever.)"""
    while process.returncode is None:
        await asyncio.sleep(0.02)
    return int(process.returncode)


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


class ServiceAgent(_GatewayAgent):
    """`--agent-url URL`: each item's task document is POSTed to the service."""

    def __init__(self, url: str, gateway: Gateway, timeout_s: float, concurrency: int = 16) -> None:
        super().__init__(gateway, timeout_s)

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
                status = response.status
                body = bytearray()  # read to the end, in as many chunks as it comes, up to the cap
                async for chunk in response.content.iter_any():
                    body.extend(chunk)
                    if len(body) > MAX_OUTPUT_BYTES:
                        raise AgentError(f"{self.name} answered more than {MAX_OUTPUT_BYTES // 2**20} MiB")
                body = bytes(body)
        except TimeoutError:
            raise AgentError(f"{self.name} did not answer within {timeout:g} s") from None
        except aiohttp.ClientError as exc:
            raise AgentError(f"{self.name} could not be reached ({type(exc).__name__}: {exc})") from None
        if status >= 400:
            text = printable(body.decode("utf-8", "replace")).strip()[-STDERR_TAIL_CHARS:]
            tail = Redactor([session.token]).text(text)
            raise AgentError(f"{self.name} answered HTTP {status}; body ends: {tail or '(empty)'}")
        return read_answer(body, f"{self.name}'s reply")

    async def aclose(self) -> None:
        if self._session is not None:
            await self._session.close()
