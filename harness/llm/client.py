"""One client for every call: cache first, then a route, with retries, limits, budget and records."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from harness.cache import CacheMode, CallCache, cache_key, key_parts, part_hashes, short_hashes
from harness.errors import (
    BudgetExceededError,
    CacheMissError,
    HarnessError,
    ProviderError,
    RetryableProviderError,
)
from harness.llm.pricing import Price, price_for
from harness.llm.records import CallRecord
from harness.llm.request import ChatRequest, EmbeddingRequest
from harness.llm.retry import backoff_delay
from harness.llm.transports import LiteLLMTransport, LocalTransport, OpenAICompatibleTransport, Transport
from harness.secrets import redact_text

ROUTES = ("auto", "openai", "litellm")


@dataclass
class ClientSettings:
    concurrency: int = 16
    timeout_s: float = 120.0
    retries: int = 3
    retry_backoff_s: float = 1.0
    route: str = "auto"
    api_key: str | None = None
    max_cost_usd: float | None = None
    user_prices: dict[str, Price] = field(default_factory=dict)


@dataclass
class CallStats:
    """Running totals for live progress and the run report (this process only)."""

    started: int = 0
    finished: int = 0
    errors: int = 0
    cache_hits: int = 0
    input_tokens: int = 0
    output_tokens: int = 0
    cost_usd: float = 0.0
    in_flight: int = 0

    def add(self, record: CallRecord) -> None:
        self.finished += 1
        self.errors += record.error is not None
        self.cache_hits += record.cache_hit
        self.input_tokens += record.input_tokens
        self.output_tokens += record.output_tokens
        self.cost_usd += record.cost_usd or 0.0


class InvalidReplyError(ValueError):
    """A reply the caller's `accept` check refused; it is not cached and carries the raw reply."""

    def __init__(self, message: str, reply: dict[str, Any], record: CallRecord) -> None:
        super().__init__(message)
        self.reply = reply
        self.record = record


class Budget:
    """`--max-cost`: no call starts once the run's spend passes the limit, across xdist workers."""

    def __init__(self, limit_usd: float | None, ledger_dir: Path | None = None, run_id: str = "run") -> None:
        self.limit_usd = limit_usd
        self._run_key = f"spend:{run_id}"
        self._local_micro = 0
        self._ledger: Any = None
        if limit_usd is not None and ledger_dir is not None:
            import diskcache

            self._ledger = diskcache.Cache(str(ledger_dir), timeout=60)

    @property
    def spent_usd(self) -> float:
        if self._ledger is not None:
            return int(self._ledger.get(self._run_key, 0)) / 1e6
        return self._local_micro / 1e6

    def check(self) -> None:
        if self.limit_usd is not None and self.spent_usd >= self.limit_usd:
            raise BudgetExceededError(
                f"not started: the run has spent ${self.spent_usd:.4f}, which reached --max-cost ${self.limit_usd:.4f}"
            )

    def add(self, cost_usd: float | None) -> None:
        micro = round((cost_usd or 0.0) * 1e6)
        if micro <= 0:
            return
        self._local_micro += micro
        if self._ledger is not None:
            self._ledger.incr(self._run_key, micro)

    def close(self) -> None:
        if self._ledger is not None:
            self._ledger.close()


class LLMClient:
    """Serves chat and embedding calls for all items of a process, on one event loop."""

    def __init__(self, settings: ClientSettings, cache: CallCache, budget: Budget | None = None) -> None:
        if settings.route not in ROUTES:
            raise ValueError(f"unknown route {settings.route!r}; expected one of {ROUTES}")
        self.settings = settings
        self.cache = cache
        self.budget = budget or Budget(settings.max_cost_usd)
        self.stats = CallStats()
        self._transports: dict[str, Transport] = {}
        self._limiters: dict[str, asyncio.Semaphore] = {}
        self._inflight: dict[str, asyncio.Future[Any]] = {}

    # -- routing -------------------------------------------------------------------------------

    def route_for(self, model: str, api_base: str | None) -> str:
        """local for `local/...`; the fast OpenAI-compatible client for `openai/...` or any model given an
        `--api-base` with no other provider prefix; litellm for everything else."""
        if model.startswith("local/"):
            return "local"
        if self.settings.route != "auto":
            return self.settings.route
        if model.startswith("openai/") or (api_base and "/" not in model):
            return "openai"
        return "litellm"

    def _transport(self, route: str) -> Transport:
        transport = self._transports.get(route)
        if transport is None:
            if route == "local":
                transport = LocalTransport()
            elif route == "openai":
                transport = OpenAICompatibleTransport(api_key=self.settings.api_key)
            else:
                transport = LiteLLMTransport(api_key=self.settings.api_key)
            self._transports[route] = transport
        return transport

    def _limiter(self, model: str, api_base: str | None) -> asyncio.Semaphore:
        provider = api_base or model.split("/", 1)[0]
        limiter = self._limiters.get(provider)
        if limiter is None:
            limit = 1 if model.startswith("local/") else self.settings.concurrency
            limiter = self._limiters[provider] = asyncio.Semaphore(limit)
        return limiter

    # -- calls ---------------------------------------------------------------------------------

    async def chat(
        self,
        request: ChatRequest,
        *,
        namespace: str,
        task_version: int | None = None,
        repeat: int = 0,
        template_hash: str | None = None,
        accept: Callable[[dict[str, Any]], Any] | None = None,
        records: list[CallRecord] | None = None,
    ) -> tuple[dict[str, Any], CallRecord, Any]:
        """One chat call. Returns (normalized reply, record, what `accept` returned); the record, or the
        record of the failure, is also appended to `records`."""
        sink: list[CallRecord] = records if records is not None else []
        payload = {"messages": list(request.messages), **request.settings}
        parts = key_parts(
            namespace,
            model=request.model,
            api_base=request.api_base,
            payload=payload,
            template_hash=template_hash,
            task_version=task_version,
            repeat=repeat,
        )
        full_hashes = part_hashes(parts)
        key = cache_key(parts, full_hashes)
        hashes = short_hashes(full_hashes)
        cached = self.cache.get(namespace, key)
        fresh = False
        if cached is not None:
            reply = cached["reply"]
            record = CallRecord(
                namespace=namespace,
                model=request.model,
                key=key,
                input_tokens=reply["input_tokens"],
                output_tokens=reply["output_tokens"],
                cost_usd=0.0,  # nothing is paid for a cache hit
                cache_hit=True,
                parts=hashes,
            )
            self._settle(record, sink)
        elif self.cache.mode is CacheMode.REPLAY:
            missed = CallRecord(
                namespace=namespace, model=request.model, key=key, error="cache miss (replay)", parts=hashes
            )
            self._settle(missed, sink)
            raise CacheMissError(
                f"{namespace} call to {request.model} is not in the cache (key {key[:16]}) and "
                "--cache-mode replay allows no new calls; run `harness cache explain NODEID` to see why"
            )
        elif key in self._inflight:  # the same call is already in flight for another item: wait for it
            try:
                reply, first = await asyncio.shield(self._inflight[key])
            except HarnessError as exc:  # the shared call failed: this item's record says so too
                failed = CallRecord(
                    namespace=namespace, model=request.model, key=key, error=redact_text(str(exc)), parts=hashes
                )
                self._settle(failed, sink)
                raise
            record = replace(first, cache_hit=True, cost_usd=0.0, latency_s=0.0, attempts=0)
            self._settle(record, sink)
        else:
            reply, record = await self._call_shared(request, namespace, key, sink)
            record.parts = hashes
            sink.append(record)
            fresh = True
        parsed = None
        if accept is not None:
            try:
                parsed = accept(reply)
            except ValueError as exc:
                raise InvalidReplyError(str(exc), reply, record) from exc
        if fresh:  # only the call that fetched the reply stores it, and only once it was accepted
            self.cache.set(namespace, key, {"reply": reply, "cost_usd": record.cost_usd, "key_parts": parts})
        return reply, record, parsed

    def _settle(self, record: CallRecord, sink: list[CallRecord]) -> None:
        """Account a call that was answered (or refused) without going to a provider."""
        self.stats.started += 1
        self.stats.add(record)
        sink.append(record)

    async def _call_shared(
        self, request: ChatRequest, namespace: str, key: str, sink: list[CallRecord]
    ) -> tuple[dict[str, Any], CallRecord]:
        """Make the call, letting identical calls that arrive meanwhile wait for this one."""
        future: asyncio.Future[Any] = asyncio.get_running_loop().create_future()
        self._inflight[key] = future
        try:
            result = await self._call_with_retries(request, namespace, key, sink)
            future.set_result(result)
            return result
        except BaseException as exc:
            future.set_exception(exc)
            future.exception()  # mark retrieved: waiters re-raise it themselves
            raise
        finally:
            self._inflight.pop(key, None)

    async def _attempt(
        self,
        call: Callable[[Transport], Awaitable[Any]],
        *,
        model: str,
        api_base: str | None,
        namespace: str,
        key: str,
        sink: list[CallRecord],
    ) -> tuple[Any, int, float]:
        """Run `call` on the model's route with retries, the limiter and the budget.
        Returns (what the call returned, attempts, start time); a final failure leaves a record in `sink`."""
        transport = self._transport(self.route_for(model, api_base))
        limiter = self._limiter(model, api_base)
        started = time.perf_counter()
        attempts = 0
        self.stats.started += 1
        while True:
            attempts += 1
            try:
                async with limiter:
                    self.budget.check()  # checked once a slot is free, so queued calls see the latest spend
                    self.stats.in_flight += 1
                    try:
                        return await call(transport), attempts, started
                    finally:
                        self.stats.in_flight -= 1
            except RetryableProviderError as exc:
                if attempts > self.settings.retries:
                    sink.append(self._record_failure(namespace, model, key, started, attempts, exc))
                    raise ProviderError(
                        f"{model}: {redact_text(str(exc))} (gave up after {attempts} attempts)",
                        status=exc.status,
                        attempts=attempts,
                    ) from exc
                await asyncio.sleep(backoff_delay(attempts, self.settings.retry_backoff_s, retry_after=exc.retry_after))
            except BudgetExceededError as exc:
                sink.append(self._record_failure(namespace, model, key, started, attempts, exc))
                raise
            except ProviderError as exc:
                sink.append(self._record_failure(namespace, model, key, started, attempts, exc))
                raise ProviderError(f"{model}: {redact_text(str(exc))}", status=exc.status, attempts=attempts) from exc

    async def _call_with_retries(
        self, request: ChatRequest, namespace: str, key: str, sink: list[CallRecord]
    ) -> tuple[dict[str, Any], CallRecord]:
        timeout = self.settings.timeout_s
        reply, attempts, started = await self._attempt(
            lambda transport: transport.chat(request, timeout),
            model=request.model,
            api_base=request.api_base,
            namespace=namespace,
            key=key,
            sink=sink,
        )
        price = price_for(request.model, self.settings.user_prices)
        cost = price.cost(reply["input_tokens"], reply["output_tokens"]) if price else None
        record = CallRecord(
            namespace=namespace,
            model=request.model,
            key=key,
            input_tokens=reply["input_tokens"],
            output_tokens=reply["output_tokens"],
            cost_usd=cost,
            latency_s=round(time.perf_counter() - started, 4),
            cache_hit=False,
            attempts=attempts,
        )
        self.budget.add(cost)
        self.stats.add(record)
        return reply, record

    def _record_failure(
        self, namespace: str, model: str, key: str, started: float, attempts: int, exc: Exception
    ) -> CallRecord:
        failed = CallRecord(
            namespace=namespace,
            model=model,
            key=key,
            latency_s=round(time.perf_counter() - started, 4),
            attempts=attempts,
            error=redact_text(str(exc)),
        )
        self.stats.add(failed)
        return failed

    async def embed(
        self, request: EmbeddingRequest, records: list[CallRecord] | None = None
    ) -> tuple[list[list[float]], CallRecord]:
        """Embed texts; each text is cached on its own so overlapping batches reuse earlier work."""
        namespace = "embed"
        keys = [
            cache_key(key_parts(namespace, model=request.model, api_base=request.api_base, payload={"text": t}))
            for t in request.texts
        ]
        vectors: list[list[float] | None] = []
        for key in keys:
            hit = self.cache.get(namespace, key)
            vectors.append(hit["vector"] if hit else None)
        missing = [i for i, v in enumerate(vectors) if v is None]
        batch_key = cache_key({"keys": keys})
        if not missing:
            record = CallRecord(namespace=namespace, model=request.model, key=batch_key, cache_hit=True)
            self.stats.started += 1
            self.stats.add(record)
            if records is not None:
                records.append(record)
            return [v for v in vectors if v is not None], record
        if self.cache.mode is CacheMode.REPLAY:
            raise CacheMissError(
                f"{len(missing)} embedding(s) from {request.model} are not in the cache and "
                "--cache-mode replay allows no new calls"
            )
        sub = EmbeddingRequest(request.model, tuple(request.texts[i] for i in missing), request.api_base)
        timeout = self.settings.timeout_s
        (new_vectors, tokens), attempts, started = await self._attempt(
            lambda transport: transport.embed(sub, timeout),
            model=request.model,
            api_base=request.api_base,
            namespace=namespace,
            key=batch_key,
            sink=records if records is not None else [],
        )
        price = price_for(request.model, self.settings.user_prices)
        cost = price.cost(tokens, 0) if price else None
        for i, vector in zip(missing, new_vectors, strict=True):
            vectors[i] = vector
            self.cache.set(namespace, keys[i], {"vector": vector})
        record = CallRecord(
            namespace=namespace,
            model=request.model,
            key=batch_key,
            input_tokens=tokens,
            cost_usd=cost,
            latency_s=round(time.perf_counter() - started, 4),
            attempts=attempts,
        )
        self.budget.add(cost)
        self.stats.add(record)
        if records is not None:
            records.append(record)
        return [v for v in vectors if v is not None], record

    async def close(self) -> None:
        for transport in self._transports.values():
            await transport.close()
