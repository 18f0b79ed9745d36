"""Systems under test: a model behind the provider layer (with a tool loop), or the user's own agent."""

from __future__ import annotations

import asyncio
import functools
import importlib
import inspect
import json
import sys
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Protocol

from harness.errors import ConfigError, HarnessError
from harness.llm.client import LLMClient
from harness.llm.records import CallRecord
from harness.llm.request import ChatRequest
from harness.tools import Tool

DEFAULT_MAX_STEPS = 8


@dataclass
class Answer:
    """What the system under test said, and how it got there."""

    text: str
    steps: int = 1
    tool_calls: list[dict[str, Any]] = field(default_factory=list)


@dataclass
class CallScope:
    """Where a call belongs: the task version and repeat (both in the cache key) and the item's records."""

    task_version: int
    repeat: int
    records: list[CallRecord]


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
    ) -> Answer: ...


async def run_tool(tool: Tool, arguments: str) -> str:
    """Run one tool call; bad arguments become an error message the model can read, not a crash."""
    try:
        args = json.loads(arguments or "{}")
        if not isinstance(args, dict):
            raise ValueError("arguments must be a JSON object")
        result = tool.function(**args)
        if inspect.isawaitable(result):
            result = await result
        return str(result)
    except (ValueError, TypeError) as exc:
        return json.dumps({"error": f"bad arguments for {tool.name}: {exc}"})


class ModelSolver:
    """A model answers; if it calls tools, the harness runs them and asks again, up to `max_steps`."""

    def __init__(
        self,
        client: LLMClient,
        model: str,
        *,
        api_base: str | None = None,
        settings: dict[str, Any] | None = None,
        max_steps: int = DEFAULT_MAX_STEPS,
    ) -> None:
        self.client = client
        self.model = model
        self.name = model
        self.api_base = api_base
        self.settings = settings or {}
        self.max_steps = max_steps

    async def solve(
        self,
        prompt: str,
        *,
        system: str | None,
        tools: list[Tool],
        scope: CallScope,
        task: dict[str, Any] | None = None,
    ) -> Answer:
        messages: list[dict[str, Any]] = []
        if system:
            messages.append({"role": "system", "content": system})
        messages.append({"role": "user", "content": prompt})
        by_name = {tool.name: tool for tool in tools}
        specs = [tool.spec() for tool in tools] or None
        made: list[dict[str, Any]] = []
        text = ""
        for step in range(1, self.max_steps + 1):
            request = ChatRequest.build(self.model, messages, api_base=self.api_base, tools=specs, **self.settings)
            reply, _, _ = await self.client.chat(
                request,
                namespace="sut",
                task_version=scope.task_version,
                repeat=scope.repeat,
                records=scope.records,
            )
            text = reply.get("content") or ""
            calls = [c for c in reply["tool_calls"] if c["name"] in by_name] if tools else []
            if not calls:
                return Answer(text=text, steps=step, tool_calls=made)
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
                made.append({"name": call["name"], "arguments": call["arguments"], "output": output[:2000]})
                messages.append({"role": "tool", "tool_call_id": call["id"], "content": output})
        return Answer(text=text, steps=self.max_steps, tool_calls=made)


class AgentSolver:
    """The user's own agent: `module:callable`, sync or async, called as agent(prompt, tools=[Tool, ...]).

    It may also accept `system=` and `task=` (a dict with id, suite, version, metadata). It returns a string,
    a dict with an "answer" key, or an object with an `answer` attribute.
    """

    def __init__(self, target: str, root: Path | None = None, concurrency: int = 16) -> None:
        self.name = f"agent:{target}"
        self.function = load_callable(target, root)
        # A sync agent runs in threads of its own, as many as --concurrency (asyncio's default pool has 6).
        self._threads = ThreadPoolExecutor(max_workers=concurrency, thread_name_prefix="harness-agent")
        try:
            self._params = set(inspect.signature(self.function).parameters)
        except (TypeError, ValueError):
            self._params = set()
        self._accepts_kwargs = (
            any(p.kind is inspect.Parameter.VAR_KEYWORD for p in inspect.signature(self.function).parameters.values())
            if self._params
            else False
        )

    def close(self) -> None:
        self._threads.shutdown(wait=False, cancel_futures=True)

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
    ) -> Answer:
        kwargs: dict[str, Any] = {"tools": tools} if self._wants("tools") else {}
        if system is not None and self._wants("system"):
            kwargs["system"] = system
        if task is not None and self._wants("task"):
            kwargs["task"] = task
        try:
            if inspect.iscoroutinefunction(self.function):
                result = await self.function(prompt, **kwargs)
            else:
                call = functools.partial(self.function, prompt, **kwargs)
                result = await asyncio.get_running_loop().run_in_executor(self._threads, call)
                if inspect.isawaitable(result):
                    result = await result
        except HarnessError:
            raise
        except Exception as exc:
            raise HarnessError(f"the agent {self.name} raised {type(exc).__name__}: {exc}") from exc
        return Answer(text=_answer_text(result))


def _answer_text(result: Any) -> str:
    if isinstance(result, str):
        return result
    if isinstance(result, dict) and "answer" in result:
        return str(result["answer"])
    if hasattr(result, "answer"):
        return str(result.answer)
    raise HarnessError(
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
