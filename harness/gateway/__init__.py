"""The model gateway: a loopback OpenAI-compatible endpoint (and the item's tools over MCP) for agents
that run outside the harness's process, so every call they make is the harness's call.

While a run has an agent, each process serves one gateway on 127.0.0.1 (started on first use, on the
harness's event loop). Each item gets a credential of its own, valid only while the item runs; a call is
attributed to the item whose credential it carries and goes through the harness's client: the cache
(keyed as every other call), the budget, the item's call records (tokens, cost, latency, stage) and
`--cache-mode replay`. The upstream model is `--model`; its provider key never leaves the harness.

Routes: POST /v1/chat/completions (tools, JSON-schema output, `stream: true` as server-sent events),
POST /v1/embeddings (the run's embedding model), GET /v1/models, the item's tools over MCP at /mcp
(streamable HTTP, the item's credential as a bearer token), and the same tools as plain JSON at
GET /v1/harness/tools and POST /v1/harness/tools/call ({"name", "arguments"}).
"""

from __future__ import annotations

import asyncio
import contextlib
import secrets
import socket
import time
from collections.abc import AsyncIterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from harness.errors import HarnessError
from harness.gateway import connections, mcp_stdio, openai_api, tools_api
from harness.llm.records import CallRecord
from harness.llm.request import ChatRequest, EmbeddingRequest, deeper_than, well_formed
from harness.llm.stages import STAGE_PATTERN, current_stage, stage
from harness.secrets import redact
from harness.tools import Tool

if TYPE_CHECKING:
    from harness.solvers import CallScope

TOKEN_PREFIX = "hk-item-"
MAX_BODY_BYTES = 8 * 2**20  # a request to the gateway, as an agent's stdout answer is capped
MAX_BODY_DEPTH = 64  # lists and objects: a chat request with tool schemas nests a dozen levels


def _labelled(label: str | None) -> Any:
    """Record the calls under `label`, or under the namespace's default ("sut") when there is none."""
    return stage(label) if label else contextlib.nullcontext()


@dataclass
class ItemSession:
    """One item's access to the gateway: its credential, where its calls are recorded, its tools."""

    token: str
    item: str
    task_version: int
    repeat: int
    records: list[CallRecord]
    tools: dict[str, Tool]
    stage: str | None = None
    failures: list[HarnessError] = field(default_factory=list)  # cache misses, budget: the item's errors
    pending: set[asyncio.Future[Any]] = field(default_factory=set)  # calls forwarded and not yet ended
    requests: int = 0  # requests of this item the gateway is reading or answering now

    def first_failure(self) -> HarnessError | None:
        return self.failures[0] if self.failures else None

    def busy(self) -> str | None:
        """Why this item may not start another call now (too many in flight), or None."""
        busy = max(len(self.pending), self.requests)
        if busy < connections.MAX_CALLS_PER_ITEM:
            return None
        return (f"this item has {busy} calls in flight, the most the gateway allows one item; wait for one to "
                "end")  # fmt: skip

    async def forward(self, call: Any) -> Any:
        """Run one call the gateway forwards for this item (a coroutine of the client) to its end, whatever
        becomes of the request: its agent may exit, or be stopped at its time limit, while the call is in
        flight; the call is paid and cached all the same, so it is recorded on the item, which waits for it
        (Gateway.finish_session). Create it inside the caller's stage, which the call is recorded under."""

        async def run() -> Any:
            try:
                return await call
            except HarnessError as exc:
                self.failures.append(exc)
                raise

        task = asyncio.ensure_future(run())
        self.pending.add(task)
        task.add_done_callback(self.pending.discard)
        return await asyncio.shield(task)


@dataclass(frozen=True)
class GatewayAccess:
    """What an agent needs: the OpenAI base URL and key for its item, and where its tools are."""

    base_url: str
    api_key: str
    mcp_url: str
    tools_url: str
    mcp_stdio: tuple[str, ...]

    def env(self) -> dict[str, str]:
        """The variables an agent's process reads (OpenAI SDKs read the first two by themselves)."""
        return {
            "OPENAI_BASE_URL": self.base_url,
            "OPENAI_API_BASE": self.base_url,
            "OPENAI_API_KEY": self.api_key,
            "HARNESS_GATEWAY_URL": self.base_url,
            "HARNESS_ITEM_TOKEN": self.api_key,
            "HARNESS_MCP_URL": self.mcp_url,
            "HARNESS_TOOLS_URL": self.tools_url,
        }

    def to_json(self) -> dict[str, Any]:
        return {
            "base_url": self.base_url,
            "api_key": self.api_key,
            "mcp_url": self.mcp_url,
            "tools_url": self.tools_url,
            "mcp_stdio": list(self.mcp_stdio),
        }


class _Guarded:
    """An ASGI app behind a credential check (a class, so Starlette routes raw ASGI calls to it)."""

    def __init__(self, app: Any, allowed: Any, denied: Any) -> None:
        self.app, self.allowed, self.denied = app, allowed, denied

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        from starlette.requests import Request

        if not self.allowed(Request(scope)):
            await self.denied()(scope, receive, send)
            return
        await self.app(scope, receive, send)


class Gateway:
    """Serves the run's agents; owned by the process's services, closed with them."""

    def __init__(
        self,
        client: Any,
        base: Any,
        embedding: Any,
        embedding_dimensions: int | None = None,
        sut_settings: dict[str, Any] | None = None,
    ) -> None:
        self.client = client
        self.base = base
        self.embedding = embedding
        self.embedding_dimensions = embedding_dimensions
        self.sut_settings = dict(sut_settings or {})
        self.sessions: dict[str, ItemSession] = {}
        self.port: int | None = None
        self._server: Any = None
        self._serving: asyncio.Task[None] | None = None
        self._lock = asyncio.Lock()
        self.notices = connections.Notices()  # connections refused or closed, calls refused: once per cause

    # -- sessions -------------------------------------------------------------------------------

    def open_session(
        self,
        *,
        item: str,
        task_version: int,
        repeat: int,
        records: list[CallRecord],
        tools: list[Tool],
        stage: str | None,
    ) -> ItemSession:
        token = TOKEN_PREFIX + secrets.token_urlsafe(24)
        session = ItemSession(token, item, task_version, repeat, records, {t.name: t for t in tools}, stage)
        self.sessions[token] = session
        return session

    @contextlib.asynccontextmanager
    async def item_session(self, *, item: str, scope: CallScope, tools: list[Tool]) -> AsyncIterator[ItemSession]:
        """An item's session around one run of an agent, the same for every agent behind the gateway: opened
        with the item's own credential; revoked when the run ends, however it ends; finished (the calls still
        in flight waited for, so each is in the item's records) when the run ends or fails with an error. A
        call the gateway refused while the agent carried on (a cache miss, the budget) is the item's error
        even when the agent answered: that answer is not the run's answer."""
        await self.start()
        session = self.open_session(
            item=item,
            task_version=scope.task_version,
            repeat=scope.repeat,
            records=scope.records,
            tools=tools,
            stage=current_stage(),
        )
        try:
            yield session
        except (HarnessError, TimeoutError):
            await self.finish_session(session)  # the calls still in flight belong to this item
            raise
        finally:
            self.close_session(session)  # cancelled: revoked at least
        await self.finish_session(session)
        if (failure := session.first_failure()) is not None:
            raise failure

    def close_session(self, session: ItemSession) -> None:
        """Revoke the item's credential: calls made with it afterwards are refused."""
        self.sessions.pop(session.token, None)

    async def finish_session(self, session: ItemSession) -> None:
        """Revoke the item's credential, then wait for the calls still in flight under it: an item is finished
        only when its calls are, so every call the gateway forwarded (paid, cached) is in its records, cost
        and failures. Each call is bounded by the client's timeout and retries."""
        self.close_session(session)
        while session.pending:
            await asyncio.gather(*list(session.pending), return_exceptions=True)

    def access(self, session: ItemSession) -> GatewayAccess:
        from harness.sandbox import interpreter  # the path the sandbox shows this Python at

        root = f"http://127.0.0.1:{self.port}"
        return GatewayAccess(
            base_url=f"{root}/v1",
            api_key=session.token,
            mcp_url=f"{root}/mcp",
            tools_url=f"{root}/v1/harness/tools",
            # By its file, not `-m`: the agent's environment carries no PYTHONPATH, so `-m` would find whatever
            # harness this Python installs (or none, in the sandbox), not the one running; -I keeps the
            # file's folder off sys.path. The sandbox shows this package at its resolved path.
            mcp_stdio=(str(interpreter()), "-I", str(Path(mcp_stdio.__file__).resolve())),
        )

    def _session(self, request: Any) -> ItemSession | None:
        header = request.headers.get("authorization") or ""
        scheme, _, token = header.partition(" ")
        if scheme.lower() != "bearer":
            token = request.headers.get("api-key") or ""
        return self.sessions.get(token.strip())

    # -- serving --------------------------------------------------------------------------------

    async def start(self) -> None:
        """Serve on 127.0.0.1 (an ephemeral port) on the running loop; idempotent."""
        async with self._lock:
            if self._serving is not None:
                return
            import uvicorn

            sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
            sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
            sock.bind(("127.0.0.1", 0))
            self.port = sock.getsockname()[1]
            gate = connections.ConnectionGate(
                connections.connection_cap(connections.raise_descriptor_limit()), self.notices
            )
            config = uvicorn.Config(
                self._app(), log_level="warning", access_log=False, lifespan="on", timeout_graceful_shutdown=2,
                http=connections.gated_protocol(gate),
            )  # fmt: skip
            self._server = uvicorn.Server(config)
            self._serving = asyncio.get_running_loop().create_task(self._server.serve(sockets=[sock]))
            while not self._server.started:
                if self._serving.done():
                    self._serving.result()  # raises why it could not start
                    raise RuntimeError("the model gateway stopped while starting")
                await asyncio.sleep(0.01)

    async def close(self) -> None:
        if self._server is None or self._serving is None:
            return
        self._server.should_exit = True
        with contextlib.suppress(Exception):
            await asyncio.wait_for(self._serving, timeout=5)

    def _app(self) -> Any:
        from mcp.server.streamable_http_manager import StreamableHTTPASGIApp, StreamableHTTPSessionManager
        from mcp.server.transport_security import TransportSecuritySettings
        from starlette.applications import Starlette
        from starlette.routing import Route

        mcp = tools_api.mcp_server(self._tools_of)
        manager = StreamableHTTPSessionManager(
            app=mcp,
            stateless=True,
            json_response=True,
            security_settings=TransportSecuritySettings(
                enable_dns_rebinding_protection=True,
                allowed_hosts=["127.0.0.1:*", "localhost:*"],
                allowed_origins=["http://127.0.0.1:*", "http://localhost:*"],
            ),
        )
        mcp_app = StreamableHTTPASGIApp(manager)

        guarded_mcp = _Guarded(mcp_app, lambda request: self._session(request) is not None, self._denied)

        @contextlib.asynccontextmanager
        async def lifespan(_: Any) -> Any:
            async with manager.run():
                yield

        routes = [
            Route("/v1/chat/completions", self._chat, methods=["POST"]),
            Route("/chat/completions", self._chat, methods=["POST"]),
            Route("/v1/embeddings", self._embeddings, methods=["POST"]),
            Route("/embeddings", self._embeddings, methods=["POST"]),
            Route("/v1/models", self._models, methods=["GET"]),
            Route("/v1/harness/tools", self._list_tools, methods=["GET"]),
            Route("/v1/harness/tools/call", self._call_tool, methods=["POST"]),
            Route("/mcp", guarded_mcp, methods=["GET", "POST", "DELETE"]),
            Route("/mcp/", guarded_mcp, methods=["GET", "POST", "DELETE"]),
        ]
        return Starlette(routes=routes, lifespan=lifespan)

    def _tools_of(self, request: Any) -> dict[str, Tool]:
        session = self._session(request) if request is not None else None
        return session.tools if session is not None else {}

    @staticmethod
    def _denied() -> Any:
        from starlette.responses import JSONResponse

        message = "unknown or expired item credential: each item has its own key, valid while the item runs"
        return JSONResponse(openai_api.error_body(message, "authentication_error", "invalid_api_key"), status_code=401)

    def _busy(self, session: ItemSession) -> Any:
        """HTTP 429 when the item has as many calls in flight as one item may (counted once per run)."""
        reason = session.busy()
        if reason is None:
            return None
        self.notices.note("item-calls", f"the model gateway refused calls of items that had "
                          f"{connections.MAX_CALLS_PER_ITEM} in flight already")  # fmt: skip
        return self._bad(reason, 429, "rate_limit_error")

    @staticmethod
    def _bad(message: str, status: int = 400, kind: str = "invalid_request_error") -> Any:
        from starlette.responses import JSONResponse

        return JSONResponse(openai_api.error_body(message, kind), status_code=status)

    async def _json(self, request: Any) -> Any:
        """The request's JSON body, read to at most MAX_BODY_BYTES and parsed off the loop; anything else
        (too large, not JSON, nested past reason) is a 400 that says so, never a 500 or a stalled loop."""
        import json

        body = bytearray()
        async for chunk in request.stream():
            body.extend(chunk)
            if len(body) > MAX_BODY_BYTES:
                raise openai_api.BadRequest(f"the request body is over {MAX_BODY_BYTES // 2**20} MiB")
        try:
            value = await asyncio.to_thread(json.loads, bytes(body))
        except RecursionError as exc:
            raise openai_api.BadRequest("the request body nests too deeply to be a request") from exc
        except ValueError as exc:
            raise openai_api.BadRequest(f"the request body is not JSON ({exc})") from exc
        if deeper_than(value, MAX_BODY_DEPTH):
            raise openai_api.BadRequest(f"the request body nests too deeply (over {MAX_BODY_DEPTH} levels)")
        # An agent's text goes on to a provider, the cache and the records: no lone surrogates, and none of
        # the run's secrets (a judge's key an agent found would otherwise reach --model's provider).
        return redact(well_formed(value))

    def _stage(self, session: ItemSession, request: Any) -> str | None:
        """The item's stage, and below it the agent's own label (`X-Harness-Stage: planner`) if valid."""
        own = (request.headers.get("x-harness-stage") or "").strip()
        if own and STAGE_PATTERN.match(own):
            return f"{session.stage}/{own}" if session.stage else own
        return session.stage

    async def _chat(self, request: Any) -> Any:
        session = self._session(request)
        if session is None:
            return self._denied()
        if (busy := self._busy(session)) is not None:
            return busy
        session.requests += 1  # counted while its body is read, as well as while its call is in flight
        try:
            return await self._chat_of(session, request)
        finally:
            session.requests -= 1

    async def _chat_of(self, session: ItemSession, request: Any) -> Any:
        from starlette.responses import JSONResponse, StreamingResponse

        try:
            messages, settings, stream, include_usage = openai_api.chat_call(await self._json(request))
            call = ChatRequest.build(
                self.base.model,
                messages,
                api_base=self.base.api_base,
                key_env=self.base.key_env,
                **{**self.sut_settings, **settings},
            )
        except (openai_api.BadRequest, ValueError) as exc:
            return self._bad(str(exc))
        try:
            with _labelled(self._stage(session, request)):
                reply, _, _ = await session.forward(
                    self.client.chat(
                        call,
                        namespace="sut",
                        task_version=session.task_version,
                        repeat=session.repeat,
                        records=session.records,
                    )
                )
        except HarnessError as exc:
            status = 402 if exc.kind == "budget" else 503 if exc.kind == "cache-miss" else 502
            return self._bad(f"[{exc.kind}] {exc}", status, "harness_error")
        created = int(time.time())
        if stream:
            chunks = openai_api.completion_chunks(reply, self.base.model, created, include_usage)

            async def events() -> Any:
                for chunk in chunks:
                    yield chunk

            return StreamingResponse(events(), media_type="text/event-stream")
        return JSONResponse(openai_api.completion_body(reply, self.base.model, created))

    async def _embeddings(self, request: Any) -> Any:
        session = self._session(request)
        if session is None:
            return self._denied()
        if (busy := self._busy(session)) is not None:
            return busy
        session.requests += 1  # counted while its body is read, as well as while its call is in flight
        try:
            return await self._embeddings_of(session, request)
        finally:
            session.requests -= 1

    async def _embeddings_of(self, session: ItemSession, request: Any) -> Any:
        import json

        from starlette.responses import Response

        try:
            texts, dimensions, encoding = openai_api.embedding_call(await self._json(request))
        except openai_api.BadRequest as exc:
            return self._bad(str(exc))
        call = EmbeddingRequest(
            self.embedding.model,
            tuple(texts),
            self.embedding.api_base,
            self.embedding.key_env,
            dimensions or self.embedding_dimensions,
        )
        try:
            with _labelled(self._stage(session, request)):
                vectors, record = await session.forward(self.client.embed(call, records=session.records))
        except HarnessError as exc:
            return self._bad(f"[{exc.kind}] {exc}", 503 if exc.kind == "cache-miss" else 502, "harness_error")

        def encode() -> bytes:  # a reply of 2,048 vectors is megabytes of JSON: built off the loop
            body = openai_api.embedding_body(vectors, self.embedding.model, record.input_tokens, encoding)
            return json.dumps(body).encode()

        return Response(await asyncio.to_thread(encode), media_type="application/json")

    async def _models(self, request: Any) -> Any:
        from starlette.responses import JSONResponse

        if self._session(request) is None:
            return self._denied()
        models = [self.base.model, self.embedding.model]
        return JSONResponse(
            {"object": "list", "data": [{"id": m, "object": "model", "owned_by": "harness"} for m in models]}
        )

    async def _list_tools(self, request: Any) -> Any:
        from starlette.responses import JSONResponse

        session = self._session(request)
        if session is None:
            return self._denied()
        return JSONResponse({"tools": tools_api.describe(session.tools)})

    async def _call_tool(self, request: Any) -> Any:
        from starlette.responses import JSONResponse

        session = self._session(request)
        if session is None:
            return self._denied()
        try:
            body = await self._json(request)
        except openai_api.BadRequest as exc:
            return self._bad(str(exc))
        if not isinstance(body, dict) or not isinstance(body.get("name"), str):
            return self._bad('the body must be {"name": "<tool>", "arguments": {...}}')
        output, failed = await tools_api.call(session.tools, body["name"], body.get("arguments"))
        return JSONResponse({"output": output, "is_error": failed})
