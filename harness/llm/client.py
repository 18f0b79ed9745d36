"""One client for every call: cache first, then a route, with retries, limits, budget and records.

Identical calls are paid once: within a process they share one request in flight; across processes on
one cache directory (xdist workers) the first takes a claim on the key and the others wait for its reply
in the cache. Every call leaves a record with its stage (see `harness.llm.stages`).
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field, replace
from typing import Any

from harness.cache import CacheMode, CallCache, cache_key, key_parts, part_hashes, short_hashes
from harness.errors import (
    BudgetExceededError,
    CacheMissError,
    CacheUnavailableError,
    HarnessError,
    ProviderError,
    RetryableProviderError,
)
from harness.llm.budget import Budget
from harness.llm.endpoint import EMBEDDED_PROVIDER, ModelName
from harness.llm.limits import AdaptiveLimit
from harness.llm.pricing import Price, price_for
from harness.llm.records import CallRecord
from harness.llm.request import ChatRequest, EmbeddingRequest
from harness.llm.retry import backoff_delay
from harness.llm.stages import current_stage
from harness.llm.transports import (
    LiteLLMTransport,
    LocalModelError,
    LocalTransport,
    OpenAICompatibleTransport,
    Transport,
)
from harness.local.revision import ENGINE_REVISION, LOCAL_CHAT_MODELS
from harness.secrets import Redactor, redact_text

ROUTES = ("auto", "openai", "litellm")
EMBED_BATCH = 256  # texts per embedding request


@dataclass
class ClientSettings:
    concurrency: int = 16
    timeout_s: float = 120.0
    retries: int = 3
    retry_backoff_s: float = 1.0
    route: str = "auto"
    max_cost_usd: float | None = None
    user_prices: dict[str, Price] = field(default_factory=dict)
    # Where the embedded chat model serves (harness.local.service.LocalEndpoint): the run's one process.
    # None: this client starts a process of its own on its first local call, and stops it on close().
    local_endpoint: Any = None


@dataclass
class CallStats:
    """Running totals for live progress and the run report (this process only)."""

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


def _embed_payload(text: str, request: EmbeddingRequest) -> dict[str, Any]:
    """What an embedding's cache key covers: the text, and the dimensions when asked for."""
    return {"text": text} if request.dimensions is None else {"text": text, "dimensions": request.dimensions}


class InvalidReplyError(ValueError):
    """A reply the caller's `accept` check refused; it is not cached and carries the raw reply."""

    def __init__(self, message: str, reply: dict[str, Any], record: CallRecord) -> None:
        super().__init__(message)
        self.reply = reply
        self.record = record


def _accepted(accept: Callable[[dict[str, Any]], Any] | None, reply: dict[str, Any], record: CallRecord) -> Any:
    """What `accept` makes of the reply (None without one); a refusal is an InvalidReplyError."""
    if accept is None:
        return None
    try:
        return accept(reply)
    except ValueError as exc:
        raise InvalidReplyError(str(exc), reply, record) from exc


class LLMClient:
    """Serves chat and embedding calls for all items of a process, on one event loop."""

    def __init__(self, settings: ClientSettings, cache: CallCache, budget: Budget | None = None) -> None:
        if settings.route not in ROUTES:
            raise ValueError(f"unknown route {settings.route!r}; expected one of {ROUTES}")
        self.settings = settings
        self.cache = cache
        self.budget = budget or Budget(settings.max_cost_usd)
        self.stats = CallStats()
        self._redactor = Redactor()
        self._transports: dict[str, Transport] = {}
        self._limiters: dict[str, AdaptiveLimit] = {}
        self._inflight: dict[str, asyncio.Future[Any]] = {}
        self._inflight_vectors: dict[str, asyncio.Future[list[float]]] = {}

    # -- routing -------------------------------------------------------------------------------

    def route_for(self, model: str, api_base: str | None) -> str:
        """local for `local/...`; the fast OpenAI-compatible client for `openai/...` or any model given an
        `--api-base` with no other provider prefix; litellm for everything else."""
        provider = ModelName(model).provider
        if provider == EMBEDDED_PROVIDER:
            return "local"
        if self.settings.route != "auto":
            return self.settings.route
        if provider == "openai" or (api_base and provider is None):
            return "openai"
        return "litellm"

    def _transport(self, route: str) -> Transport:
        transport = self._transports.get(route)
        if transport is None:
            if route == "local":
                transport = LocalTransport(self.settings.local_endpoint)
            elif route == "openai":
                transport = OpenAICompatibleTransport()
            else:
                transport = LiteLLMTransport()
            self._transports[route] = transport
        return transport

    def _limiter(self, model: str, api_base: str | None) -> AdaptiveLimit:
        provider = api_base or ModelName(model).provider
        provider = model if provider is None else provider  # a bare name is its own provider
        limiter = self._limiters.get(provider)
        if limiter is None:
            # The embedded chat model limits itself to the calls its process can decode at once, choosing
            # which waiting call goes next (harness.llm.transports.PrefixTurns); embeddings run as they come.
            # Remote providers: --concurrency is the ceiling; a 429 halves the limit (harness.llm.limits).
            limit = self.settings.concurrency
            limiter = self._limiters[provider] = AdaptiveLimit(limit)
        return limiter

    def lowered_limits(self) -> dict[str, tuple[int, int]]:
        """Providers whose in-flight limit is below --concurrency now: {provider: (limit, ceiling)}."""
        return {p: (lim.limit, lim.ceiling) for p, lim in self._limiters.items() if lim.limit < lim.ceiling}

    # -- chat ----------------------------------------------------------------------------------

    async def chat(
        self,
        request: ChatRequest,
        *,
        namespace: str,
        task_version: int | None = None,
        repeat: int | None = 0,
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
            model=_keyed_model(request.model),
            api_base=request.api_base,
            payload=payload,
            template_hash=template_hash,
            task_version=task_version,
            repeat=repeat,
        )
        full_hashes = part_hashes(parts)
        key = cache_key(parts, full_hashes)
        hashes = short_hashes(full_hashes)
        stage = current_stage()
        cached = self.cache.get(namespace, key)
        if cached is None and self.cache.mode is CacheMode.REPLAY:
            missed = CallRecord(
                namespace=namespace,
                model=request.model,
                key=key,
                error="cache miss (replay)",
                parts=hashes,
                stage=stage,
            )
            self._settle(missed, sink)
            raise CacheMissError(
                f"{namespace} call to {request.model} is not in the cache (key {key[:16]}) and "
                "--cache-mode replay allows no new calls; run `harness cache explain NODEID` to see why"
            )
        if cached is None and key in self._inflight:  # the same call is in flight for another item here
            reply, record = await self._wait_for_shared(key, namespace, request.model, hashes, stage, sink)
        elif cached is None:
            async with self.cache.claim(key, namespace=namespace):  # across processes: one pays, the others read
                cached = self.cache.get(namespace, key)
                if cached is None:
                    reply, record = await self._call_shared(request, namespace, key, sink, stage)
                    record.parts = hashes
                    sink.append(record)
                    parsed = _accepted(accept, reply, record)  # a reply that is refused is not stored
                    # Stored before the claim is released: a process waiting on the claim then reads it
                    # from the cache instead of paying for the same call again.
                    # What is stored passes through the redactor: a key an agent pasted into a prompt, or a
                    # provider echoed in a reply, never reaches the cache (the key is a hash: it reveals none).
                    self.cache.store_later(
                        namespace,
                        key,
                        self._redactor.value(
                            {
                                "reply": reply,
                                "cost_usd": record.cost_usd,
                                "latency_s": record.latency_s,  # a replay counts the call at this time
                                "key_parts": parts,
                            }
                        ),
                    )
                    return reply, record, parsed
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
                stage=stage,
                priced_usd=cached.get("cost_usd"),
                replayed_latency_s=cached.get("latency_s"),  # None: stored before latencies were kept
                **served_by(reply),
            )
            self._settle(record, sink)
        return reply, record, _accepted(accept, reply, record)

    async def _wait_for_shared(
        self,
        key: str,
        namespace: str,
        model: str,
        hashes: dict[str, str],
        stage: str | None,
        sink: list[CallRecord],
    ) -> tuple[dict[str, Any], CallRecord]:
        try:
            reply, first = await asyncio.shield(self._inflight[key])
        except HarnessError as exc:  # the shared call failed: this item's record says so too
            failed = CallRecord(
                namespace=namespace, model=model, key=key, error=redact_text(str(exc)), parts=hashes, stage=stage
            )
            self._settle(failed, sink)
            raise
        record = replace(
            first, cache_hit=True, cost_usd=0.0, latency_s=0.0, attempts=0, stage=stage, priced_usd=first.cost_usd
        )
        self._settle(record, sink)
        return reply, record

    def _settle(self, record: CallRecord, sink: list[CallRecord]) -> None:
        """Account a call that was answered (or refused) without going to a provider."""
        self.stats.add(record)
        sink.append(record)

    async def _call_shared(
        self, request: ChatRequest, namespace: str, key: str, sink: list[CallRecord], stage: str | None
    ) -> tuple[dict[str, Any], CallRecord]:
        """Make the call, letting identical calls that arrive meanwhile wait for this one."""
        future: asyncio.Future[Any] = asyncio.get_running_loop().create_future()
        self._inflight[key] = future
        try:
            result = await self._call_with_retries(request, namespace, key, sink, stage)
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
        stage: str | None,
    ) -> tuple[Any, int, float, float]:
        """Run `call` on the model's route with retries, the limiter and the budget. Returns (what the call
        returned, attempts, start time, seconds waited in backoff); a final failure leaves a record in `sink`."""
        transport = self._transport(self.route_for(model, api_base))
        limiter = self._limiter(model, api_base)
        started = time.perf_counter()
        attempts = 0
        waited = 0.0

        def failure(exc: Exception) -> CallRecord:
            record = self._record_failure(namespace, model, key, started, attempts, exc, stage)
            record.waited_s = round(waited, 4)
            return record

        while True:
            attempts += 1
            try:
                async with limiter as epoch:
                    self.budget.check()  # checked once a slot is free, so queued calls see the latest spend
                    self.stats.in_flight += 1
                    try:
                        result = await call(transport)
                    finally:
                        self.stats.in_flight -= 1
                limiter.succeeded(epoch)
                # The slot is free and a queued call was woken, but it runs after every task already
                # ready: after a burst of replies, that is after all of them were processed. Yielding
                # once lets queued calls go out first, and this reply is processed while they travel.
                await asyncio.sleep(0)
                return result, attempts, started, waited
            except RetryableProviderError as exc:
                delay = backoff_delay(attempts, self.settings.retry_backoff_s, retry_after=exc.retry_after)
                if exc.status == 429 or exc.retry_after is not None:
                    limiter.throttled(epoch, delay)  # the provider says slow down: fewer calls in flight
                if attempts > self.settings.retries:
                    sink.append(failure(exc))
                    raise ProviderError(
                        f"{model}: {redact_text(str(exc))} (gave up after {attempts} attempts)",
                        status=exc.status,
                        attempts=attempts,
                    ) from exc
                waited += delay
                await asyncio.sleep(delay)
            except (BudgetExceededError, CacheUnavailableError) as exc:
                sink.append(failure(exc))
                raise
            except LocalModelError as exc:
                sink.append(failure(exc))
                raise  # says itself what stopped; the item's error kind is `local`
            except ProviderError as exc:
                sink.append(failure(exc))
                raise ProviderError(f"{model}: {redact_text(str(exc))}", status=exc.status, attempts=attempts) from exc

    async def _call_with_retries(
        self, request: ChatRequest, namespace: str, key: str, sink: list[CallRecord], stage: str | None
    ) -> tuple[dict[str, Any], CallRecord]:
        timeout = self.settings.timeout_s
        reply, attempts, started, waited = await self._attempt(
            lambda transport: transport.chat(request, timeout),
            model=request.model,
            api_base=request.api_base,
            namespace=namespace,
            key=key,
            sink=sink,
            stage=stage,
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
            priced_usd=cost,
            latency_s=round(time.perf_counter() - started, 4),
            cache_hit=False,
            attempts=attempts,
            waited_s=round(waited, 4),
            stage=stage,
            **served_by(reply),
        )
        self.budget.add(cost)
        self.stats.add(record)
        return reply, record

    def _record_failure(
        self,
        namespace: str,
        model: str,
        key: str,
        started: float,
        attempts: int,
        exc: Exception,
        stage: str | None,
    ) -> CallRecord:
        failed = CallRecord(
            namespace=namespace,
            model=model,
            key=key,
            latency_s=round(time.perf_counter() - started, 4),
            attempts=attempts,
            error=redact_text(str(exc)),
            stage=stage,
        )
        self.stats.add(failed)
        return failed

    # -- embeddings ----------------------------------------------------------------------------

    async def embed(
        self, request: EmbeddingRequest, records: list[CallRecord] | None = None
    ) -> tuple[list[list[float]], CallRecord]:
        """Embed texts. Each text is cached on its own (identical texts share a vector); the cache is read
        for all texts in one transaction off the loop; texts already being embedded for another item are
        waited for, not embedded twice."""
        namespace = "embed"
        stage = current_stage()
        keys = [
            cache_key(
                key_parts(namespace, model=request.model, api_base=request.api_base, payload=_embed_payload(t, request))
            )
            for t in request.texts
        ]
        batch_key = cache_key({"keys": keys})
        hits = await asyncio.to_thread(self.cache.get_many, namespace, keys) if keys else []
        vectors: list[list[float] | None] = [hit["vector"] if hit else None for hit in hits]
        served = {str(hit["model"]) for hit in hits if hit and hit.get("model")}
        waiting: dict[int, asyncio.Future[list[float]]] = {}
        mine: dict[str, list[int]] = {}  # key -> positions this call embeds (duplicates within the request too)
        for i, (key, vector) in enumerate(zip(keys, vectors, strict=True)):
            if vector is not None:
                continue
            if key in mine:
                mine[key].append(i)
            elif key in self._inflight_vectors:
                waiting[i] = self._inflight_vectors[key]
            else:
                mine[key] = [i]
        if mine and self.cache.mode is CacheMode.REPLAY:
            missed = CallRecord(namespace=namespace, model=request.model, key=batch_key, stage=stage)
            missed.error = "cache miss (replay)"
            self._settle(missed, records if records is not None else [])
            raise CacheMissError(
                f"{len(mine)} embedding(s) from {request.model} are not in the cache and "
                "--cache-mode replay allows no new calls"
            )
        tokens, cost, attempts, latency = 0, 0.0, 0, 0.0
        served_now: set[str] = set()
        if mine:
            loop = asyncio.get_running_loop()
            futures = {key: loop.create_future() for key in mine}
            self._inflight_vectors.update(futures)
            try:
                tokens, cost, attempts, latency, served_now = await self._embed_missing(
                    request, mine, futures, vectors, namespace, batch_key, records, stage
                )
            except BaseException as exc:
                for future in futures.values():
                    if not future.done():
                        future.set_exception(exc)
                        future.exception()
                raise
            finally:
                for key in futures:
                    self._inflight_vectors.pop(key, None)
        for i, future in waiting.items():
            vectors[i] = await asyncio.shield(future)
        record = CallRecord(
            namespace=namespace,
            model=request.model,
            key=batch_key,
            input_tokens=tokens,
            cost_usd=cost,
            priced_usd=cost,  # embedding prices are per token of new texts only: cached texts are not counted
            latency_s=latency,
            cache_hit=not mine,
            attempts=attempts,
            stage=stage,
            # one name when every vector came from one model (the usual case); several joined when they differ
            served_model=", ".join(sorted(served | served_now)) or None,
        )
        if mine:
            self.stats.add(record)
            if records is not None:
                records.append(record)
        else:
            self._settle(record, records if records is not None else [])
        return [v for v in vectors if v is not None], record

    async def _embed_missing(
        self,
        request: EmbeddingRequest,
        mine: dict[str, list[int]],
        futures: dict[str, asyncio.Future[list[float]]],
        vectors: list[list[float] | None],
        namespace: str,
        batch_key: str,
        records: list[CallRecord] | None,
        stage: str | None,
    ) -> tuple[int, float | None, int, float, set[str]]:
        """Embed the texts this call owns, in batches; fill `vectors`, resolve the futures, store them (each
        vector with the model the provider says made it). Returns tokens, cost, attempts, seconds and the
        served models."""
        keys = list(mine)
        timeout = self.settings.timeout_s
        price = price_for(request.model, self.settings.user_prices)
        total_tokens, total_cost, total_attempts, started = 0, 0.0 if price else None, 0, time.perf_counter()
        served: set[str] = set()
        for offset in range(0, len(keys), EMBED_BATCH):
            chunk = keys[offset : offset + EMBED_BATCH]
            sub = EmbeddingRequest(
                request.model,
                tuple(request.texts[mine[k][0]] for k in chunk),
                request.api_base,
                request.key_env,
                request.dimensions,
            )
            (new_vectors, tokens, model), attempts, _, _ = await self._attempt(
                lambda transport, sub=sub: transport.embed(sub, timeout),
                model=request.model,
                api_base=request.api_base,
                namespace=namespace,
                key=batch_key,
                sink=records if records is not None else [],
                stage=stage,
            )
            cost = price.cost(tokens, 0) if price else None
            self.budget.add(cost)
            total_tokens += tokens
            total_attempts += attempts
            if total_cost is not None and cost is not None:
                total_cost += cost
            for key, vector in zip(chunk, new_vectors, strict=True):
                for position in mine[key]:
                    vectors[position] = vector
                futures[key].set_result(vector)
            entry: dict[str, Any] = {"model": model} if model else {}
            served.update([model] if model else [])
            stored = {key: {"vector": vector, **entry} for key, vector in zip(chunk, new_vectors, strict=True)}
            await asyncio.to_thread(self.cache.set_many, namespace, stored)
        return total_tokens, total_cost, total_attempts, round(time.perf_counter() - started, 4), served

    async def close(self) -> None:
        """Close connections and finish the cache writes still on the writer thread."""
        for transport in self._transports.values():
            await transport.close()
        await asyncio.to_thread(self.cache.flush)


def served_by(reply: dict[str, Any]) -> dict[str, str | None]:
    """The record fields that say what answered a chat reply (None where the reply does not say)."""
    fingerprint = reply.get("system_fingerprint")
    return {
        "served_model": str(reply.get("model") or "") or None,
        "system_fingerprint": str(fingerprint) if fingerprint else None,
    }


def _keyed_model(model: str) -> str:
    """The model as the cache key names it: an embedded chat model carries its engine's revision, so a
    change of weights, context or default reply cap never serves replies cached under the old one."""
    name = ModelName(model)
    if name.embedded and name.name in LOCAL_CHAT_MODELS:
        return f"{model}@{ENGINE_REVISION}"
    return model
