"""The model handle a user's `--agent` callable receives as `model=`: chat and embeddings through the run's
cache, budget, call records and `--cache-mode replay`, so an agent gated in CI gets cost figures and a
zero-cost replay without changing how it is written.

Its calls carry the run's settings for the system under test (`--temperature`, `--max-tokens`, `--seed`)
as defaults; a setting the calling code passes itself wins for that call, as it does for an agent's calls
through the gateway (the agent's own choice is part of the product under test).

Async agents await `chat`/`complete`/`embed`; sync agents (run in threads of their own) call the `_sync`
forms, which hand the call to the harness's event loop and wait for it. See examples/agent_with_handle.py.
"""

from __future__ import annotations

import asyncio
from typing import TYPE_CHECKING, Any

from harness.llm.request import ChatRequest, EmbeddingRequest

if TYPE_CHECKING:
    from harness.llm.client import LLMClient
    from harness.llm.endpoint import Endpoint
    from harness.solvers import CallScope


class ModelHandle:
    """`--model` (the base model) for one item of the run."""

    def __init__(
        self,
        client: LLMClient,
        base: Endpoint,
        embedding: Endpoint,
        scope: CallScope,
        dimensions: int | None = None,
        settings: dict[str, Any] | None = None,
    ) -> None:
        self._client = client
        self._settings = dict(settings or {})  # the run's --temperature, --max-tokens, --seed
        self._dimensions = dimensions
        self._base = base
        self._embedding = embedding
        self._scope = scope
        self._loop: asyncio.AbstractEventLoop | None = None
        try:
            self._loop = asyncio.get_running_loop()
        except RuntimeError:
            self._loop = None

    @property
    def name(self) -> str:
        return self._base.model

    async def chat(self, messages: list[dict[str, Any]], **settings: Any) -> dict[str, Any]:
        """One chat completion; `settings` are OpenAI generation settings (temperature, tools, ...), over the
        run's own (a setting given here wins for this call). Returns {content, tool_calls [{id, name,
        arguments}], finish_reason, input_tokens, output_tokens}."""
        merged = {**self._settings, **settings}
        request = ChatRequest.build(
            self._base.model, messages, api_base=self._base.api_base, key_env=self._base.key_env, **merged
        )
        reply, _, _ = await self._client.chat(
            request,
            namespace="sut",
            task_version=self._scope.task_version,
            repeat=self._scope.repeat,
            records=self._scope.records,
        )
        return dict(reply)

    async def complete(self, prompt: str, *, system: str | None = None, **settings: Any) -> str:
        """The text of one reply to `prompt` (with an optional system message)."""
        messages = ([{"role": "system", "content": system}] if system else []) + [{"role": "user", "content": prompt}]
        return str((await self.chat(messages, **settings)).get("content") or "")

    async def embed(self, texts: list[str]) -> list[list[float]]:
        request = EmbeddingRequest(
            self._embedding.model, tuple(texts), self._embedding.api_base, self._embedding.key_env, self._dimensions
        )
        vectors, _ = await self._client.embed(request, records=self._scope.records)
        return vectors

    def _run(self, coro: Any) -> Any:
        if self._loop is None:
            raise RuntimeError("this model handle was made outside the harness's event loop")
        try:
            running = asyncio.get_running_loop()
        except RuntimeError:
            running = None
        if running is self._loop:
            coro.close()
            raise RuntimeError("an async agent must await model.chat(...), not call model.chat_sync(...)")
        return asyncio.run_coroutine_threadsafe(coro, self._loop).result()

    def chat_sync(self, messages: list[dict[str, Any]], **settings: Any) -> dict[str, Any]:
        return self._run(self.chat(messages, **settings))  # type: ignore[no-any-return]

    def complete_sync(self, prompt: str, *, system: str | None = None, **settings: Any) -> str:
        return self._run(self.complete(prompt, system=system, **settings))  # type: ignore[no-any-return]

    def embed_sync(self, texts: list[str]) -> list[list[float]]:
        return self._run(self.embed(texts))  # type: ignore[no-any-return]
