"""Systems under test: a model behind the provider layer (with a tool loop), or the user's own agent.

Either way the tools a task offers are recorded the same way: each call, its arguments and a digest of its
result (the trajectory), so reports show how an answer was reached and replays can be compared.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import hashlib
import importlib
import inspect
import json
import sys
import threading
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Protocol

from harness.errors import AgentError, ConfigError, HarnessError
from harness.item_names import item_name
from harness.llm.client import LLMClient
from harness.llm.endpoint import Endpoint
from harness.llm.records import CallScope  # defined beside the call record; re-exported here
from harness.llm.request import ChatRequest
from harness.secrets import redact_text
from harness.tools import Tool
from harness.wellformed import well_formed, well_formed_text

DEFAULT_MAX_STEPS = 12
DEFAULT_TOKEN_BUDGET = 60_000
PREVIEW_CHARS = 300


@dataclass(frozen=True)
class LoopLimits:
    """How far a tool loop may go for one task: model turns, and tokens (in + out) over all turns."""

    max_steps: int = DEFAULT_MAX_STEPS
    token_budget: int = DEFAULT_TOKEN_BUDGET
    time_limit_s: float | None = None  # for agents outside the harness (None: --agent-timeout)


@dataclass
class Answer:
    """What the system under test said, and how it got there. `stopped` is None when it answered by itself,
    or "step_limit" / "token_budget" when it reached a cap and was asked for its answer in one last turn
    without tools (the text is that turn's)."""

    text: str
    steps: int = 1
    tool_calls: list[dict[str, Any]] = field(default_factory=list)
    stopped: str | None = None
    tokens: int = 0

    def __post_init__(self) -> None:
        # Every answer, whatever produced it, is data from the system under test: cleaned of lone surrogates
        # and of the run's secrets (a key an agent found and echoed) before a judge, a report or the cache sees it.

        self.text = redact_text(well_formed_text(self.text))


class Solver(Protocol):
    name: str

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
    ) -> Answer: ...


def digest(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8", "replace")).hexdigest()[:16]


class Trajectory:
    """The tool calls of one item, in order, from any thread (a sync agent calls tools from its own)."""

    def __init__(self) -> None:
        self.steps: list[dict[str, Any]] = []
        self._lock = threading.Lock()

    def add(self, name: str, arguments: Any, output: str, step: int | None = None) -> None:
        entry = {
            "tool": name,
            "arguments": arguments if isinstance(arguments, str) else json.dumps(arguments, sort_keys=True),
            "result_digest": digest(output),
            "result_chars": len(output),
            "result_preview": output[:PREVIEW_CHARS],
        }
        if step is not None:
            entry["step"] = step
        with self._lock:
            self.steps.append(entry)


MAX_TOOL_ARGUMENTS = 64 * 1024  # characters of JSON arguments
MAX_TOOL_OUTPUT = 100_000  # characters of output the model reads; the rest is cut, and it is told so


async def in_daemon_thread(call: Callable[[], Any]) -> Any:
    """`call()` in a daemon thread of its own, for the sync code of others (a tool, a user's agent). Not
    asyncio's default pool, which the loop's own to_thread calls share (a burst of slow calls would starve
    the harness), and no pool at all: a pool's threads are joined at exit, so one call that hangs past its
    time limit would hold the whole run open. Such a thread is abandoned; its late result is never read."""
    loop = asyncio.get_running_loop()
    done: asyncio.Future[Any] = loop.create_future()

    def settle(outcome: Any, failed: bool) -> None:
        if not done.done():
            done.set_exception(outcome) if failed else done.set_result(outcome)

    def run() -> None:
        try:
            outcome, failed = call(), False
        except BaseException as exc:  # handed to the awaiting caller, which decides what it means
            outcome, failed = exc, True
        with contextlib.suppress(RuntimeError):  # the loop has closed: nobody waits for this result any more
            loop.call_soon_threadsafe(settle, outcome, failed)

    threading.Thread(target=run, name="harness-call", daemon=True).start()
    return await done


def _tool_error(message: str) -> str:
    return json.dumps({"error": message})


async def run_tool(tool: Tool, arguments: str) -> str:
    """Run one tool call off the event loop, bounded: arguments and output in size, the call in time
    (`tool.timeout_s`). Bad arguments, an exception, or a call past its time are errors the model reads;
    none of them stops the item or the run."""
    if len(arguments or "") > MAX_TOOL_ARGUMENTS:
        return _tool_error(f"arguments for {tool.name} are longer than {MAX_TOOL_ARGUMENTS} characters")
    try:
        args = json.loads(arguments or "{}")
    except (ValueError, RecursionError) as exc:
        return _tool_error(f"bad arguments for {tool.name}: {exc}")
    if not isinstance(args, dict):
        return _tool_error(f"bad arguments for {tool.name}: arguments must be a JSON object")
    args = well_formed(args)  # a model's or an agent's JSON may hold lone surrogates ("\ud83d")
    try:
        async with asyncio.timeout(tool.timeout_s):
            if inspect.iscoroutinefunction(tool.function):
                result = await tool.function(**args)
            else:
                result = await in_daemon_thread(functools.partial(tool.function, **args))
                if inspect.isawaitable(result):
                    result = await result
    except TimeoutError:
        return _tool_error(f"{tool.name} did not finish within {tool.timeout_s:g} s")
    except (ValueError, TypeError) as exc:
        return _tool_error(f"bad arguments for {tool.name}: {exc}")
    except HarnessError:
        raise
    except Exception as exc:  # a tool that breaks answers with an error; it does not end the item
        return _tool_error(f"{tool.name} failed: {type(exc).__name__}: {exc}")
    output = str(result)
    if len(output) > MAX_TOOL_OUTPUT:
        output = output[:MAX_TOOL_OUTPUT] + f"\n[... cut: the output was {len(output):,} characters]"
    return output


def recorded_tools(tools: list[Tool], trajectory: Trajectory) -> list[Tool]:
    """The same tools, each call recorded in `trajectory` (for agents, which call tools themselves)."""

    def wrap(tool: Tool) -> Tool:
        if inspect.iscoroutinefunction(tool.function):

            async def call_async(**kwargs: Any) -> str:
                output = str(await tool.function(**kwargs))
                trajectory.add(tool.name, kwargs, output)
                return output

            return Tool(tool.name, tool.description, tool.parameters, call_async)

        def call(**kwargs: Any) -> str:
            output = str(tool.function(**kwargs))
            trajectory.add(tool.name, kwargs, output)
            return output

        return Tool(tool.name, tool.description, tool.parameters, call)

    return [wrap(t) for t in tools]


class ModelSolver:
    """A model answers; if it calls tools, the harness runs them and asks again, within the loop limits."""

    def __init__(
        self,
        client: LLMClient,
        endpoint: Endpoint,
        *,
        settings: dict[str, Any] | None = None,
    ) -> None:
        self.client = client
        self.endpoint = endpoint
        self.name = endpoint.model
        self.settings = settings or {}

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
        messages: list[dict[str, Any]] = []
        if system:
            messages.append({"role": "system", "content": system})
        messages.append({"role": "user", "content": prompt})
        by_name = {tool.name: tool for tool in tools}
        specs = [tool.spec() for tool in tools] or None
        trajectory = Trajectory()
        tokens = 0
        stopped = None
        for step in range(1, limits.max_steps + 1):
            reply = await self._turn(messages, specs, scope)
            tokens += reply["input_tokens"] + reply["output_tokens"]
            calls = [c for c in reply["tool_calls"] if c["name"] in by_name] if tools else []
            if not calls:
                return Answer(text=reply.get("content") or "", steps=step, tool_calls=trajectory.steps, tokens=tokens)
            messages.append(
                {
                    "role": "assistant",
                    "content": reply.get("content"),
                    "tool_calls": [
                        {
                            "id": c["id"],
                            "type": "function",
                            "function": {"name": c["name"], "arguments": c["arguments"]},
                        }
                        for c in calls
                    ],
                }
            )
            for call in calls:
                output = await run_tool(by_name[call["name"]], call["arguments"])
                trajectory.add(call["name"], call["arguments"], output, step=step)
                messages.append({"role": "tool", "tool_call_id": call["id"], "content": output})
            if tokens >= limits.token_budget:
                stopped = "token_budget"
                break
        else:
            stopped = "step_limit"
        # The cap is reached with the model still working: one last turn, without tools, to answer with what
        # it found (at the cap, the last turn is usually a tool call, so "what it said last" is nothing).
        messages.append({"role": "user", "content": FINAL_TURN[stopped]})
        reply = await self._turn(messages, specs, scope, final=True)
        tokens += reply["input_tokens"] + reply["output_tokens"]
        steps = len([m for m in messages if m["role"] == "assistant"]) + 1
        return Answer(reply.get("content") or "", steps, trajectory.steps, stopped=stopped, tokens=tokens)

    async def _turn(
        self, messages: list[dict[str, Any]], specs: list[dict[str, Any]] | None, scope: CallScope, final: bool = False
    ) -> dict[str, Any]:
        extra = {"tool_choice": "none"} if final and specs else {}
        endpoint = self.endpoint
        request = ChatRequest.build(
            endpoint.model,
            messages,
            api_base=endpoint.api_base,
            key_env=endpoint.key_env,
            tools=specs,
            **extra,
            **self.settings,
        )
        reply, _, _ = await self.client.chat(
            request, namespace="sut", task_version=scope.task_version, repeat=scope.repeat, records=scope.records
        )
        return reply


FINAL_TURN = {
    "step_limit": "You have used all the tool calls this task allows. Answer now, in the format asked for, "
    "from what you have found so far; do not call a tool.",
    "token_budget": "You have used the token budget this task allows. Answer now, in the format asked for, "
    "from what you have found so far; do not call a tool.",
}


class AgentSolver:
    """The user's own agent: `module:callable`, sync or async, called as agent(prompt, ...).

    It may accept any of `tools=` (the task's tools, each call recorded), `system=`, `task=` (a dict with
    id, suite, kind, version, variant, repeat, metadata), `limits=` (the task's LoopLimits: a budget the
    agent may keep to), `model=` (a ModelHandle on the base model:
    cached, budgeted, recorded, replayable) and `gateway=` (a harness.gateway.GatewayAccess: an
    OpenAI-compatible base URL and key for this item, and its tools over MCP, for agent frameworks that
    make their own calls). It returns a string, a dict with an "answer" key, or an object with an `answer`
    attribute.
    """

    def __init__(
        self,
        target: str,
        root: Path | None = None,
        concurrency: int = 16,
        gateway: Any = None,
        timeout_s: float | None = None,
    ) -> None:
        self.name = f"agent:{target}"
        self.function = load_callable(target, root)
        self.gateway = gateway
        self.timeout_s = timeout_s  # --agent-timeout; a task's limits.time_limit_s wins
        # A sync agent runs in a thread of its own per item (asyncio's default pool has 6 threads, and a pool's
        # threads are joined at exit); the runner bounds the items in flight.
        self.concurrency = concurrency
        try:
            parameters = inspect.signature(self.function).parameters
        except (TypeError, ValueError):
            parameters = {}  # type: ignore[assignment]
        self._params = set(parameters)
        self._accepts_kwargs = any(p.kind is inspect.Parameter.VAR_KEYWORD for p in parameters.values())

    def close(self) -> None:
        """Nothing to release: a sync agent's threads are daemons (one that hangs past its time limit is
        abandoned, and must not hold the process open at exit)."""

    def _wants(self, name: str) -> bool:
        return self._accepts_kwargs or name in self._params

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
        trajectory = Trajectory()
        recorded = recorded_tools(tools, trajectory)
        offered = {"tools": recorded, "system": system, "task": task, "model": model, "limits": limits}
        kwargs = {name: value for name, value in offered.items() if value is not None and self._wants(name)}
        if "tools" not in kwargs and self._wants("tools"):
            kwargs["tools"] = []
        opened: Any = contextlib.nullcontext()
        if self.gateway is not None and self._wants("gateway"):
            info = task or {}
            item = item_name(str(info.get("id", "task")), info.get("variant"), scope.repeat, scope.repeats)
            opened = self.gateway.item_session(item=item, scope=scope, tools=recorded)
        timeout = (limits.time_limit_s if limits is not None else None) or self.timeout_s
        try:
            async with opened as session:
                if session is not None:
                    kwargs["gateway"] = self.gateway.access(session)
                async with asyncio.timeout(timeout):
                    answer = await self._call(prompt, kwargs, trajectory, session)
        except TimeoutError as exc:
            # A hung agent is the system's failure (score 0), never a stalled run. A sync agent's thread
            # cannot be killed: it is abandoned, and its late answer is never read. The item's session waited
            # for its calls in flight, so they are recorded on the item.
            raise AgentError(f"the agent {self.name} did not finish within {timeout:g} s") from exc
        return answer

    async def _call(self, prompt: str, kwargs: dict[str, Any], trajectory: Trajectory, session: Any) -> Answer:
        try:
            if inspect.iscoroutinefunction(self.function):
                result = await self.function(prompt, **kwargs)
            else:
                result = await in_daemon_thread(functools.partial(self.function, prompt, **kwargs))
                if inspect.isawaitable(result):
                    result = await result
        except HarnessError:
            raise
        except Exception as exc:
            if session is not None and session.failures:  # a refused gateway call (replay miss, budget) is why
                raise session.failures[0] from exc
            raise AgentError(f"the agent {self.name} raised {type(exc).__name__}: {exc}") from exc
        if session is not None and session.failures:
            raise session.failures[0]
        return Answer(text=_answer_text(result), tool_calls=trajectory.steps)


def _answer_text(result: Any) -> str:
    if isinstance(result, str):
        return result
    if isinstance(result, dict) and isinstance(result.get("answer"), str):
        return str(result["answer"])
    if isinstance(getattr(result, "answer", None), str):
        return str(result.answer)
    raise AgentError(
        f"the agent returned {type(result).__name__}; expected a string, a dict with 'answer' or an object "
        "with an `answer` attribute"
    )


def load_callable(target: str, root: Path | None = None) -> Any:
    """Import `module:attribute` (dots allowed in both), looking in the rootdir first."""
    module_name, sep, attribute = target.partition(":")
    if not sep or not module_name or not attribute:
        raise ConfigError(f"--agent expects module:callable (for example my_agent:run), got {target!r}")
    if root is not None and str(root) not in sys.path:
        sys.path.insert(0, str(root))
    try:
        obj: Any = importlib.import_module(module_name)
    except ImportError as exc:
        raise ConfigError(f"--agent {target}: cannot import module {module_name!r}: {exc}") from exc
    for part in attribute.split("."):
        try:
            obj = getattr(obj, part)
        except AttributeError as exc:
            raise ConfigError(f"--agent {target}: module {module_name!r} has no attribute {attribute!r}") from exc
    if not callable(obj):
        raise ConfigError(f"--agent {target}: {attribute!r} is not callable")
    return obj
