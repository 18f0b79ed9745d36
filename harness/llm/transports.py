"""The three routes a call can take, each turning a request into the same normalized reply.

A normalized chat reply is a plain dict: content, tool_calls [{id, name, arguments}], finish_reason,
input_tokens, output_tokens, model (the model the provider says served the call) and system_fingerprint
(its build, where the provider gives one). It is what the cache stores and what solvers and judges read.
"""

from __future__ import annotations

import asyncio
import json
import os
from typing import Any, Protocol

from harness.errors import ProviderError, RetryableProviderError
from harness.llm.endpoint import ModelName
from harness.llm.request import ChatRequest, EmbeddingRequest, well_formed
from harness.llm.retry import parse_retry_after

RETRYABLE_STATUS = frozenset({408, 409, 425, 429, 500, 502, 503, 504, 520, 522, 524, 529})


class Transport(Protocol):
    async def chat(self, request: ChatRequest, timeout: float) -> dict[str, Any]: ...

    async def embed(self, request: EmbeddingRequest, timeout: float) -> tuple[list[list[float]], int, str]: ...

    async def close(self) -> None: ...


def normalize_chat(body: Any) -> dict[str, Any]:
    """Check an OpenAI-shaped chat.completion body and keep what the harness uses."""
    try:
        choice = body["choices"][0]
        message = choice["message"]
        if not isinstance(message, dict):
            raise TypeError("message is not an object")
        tool_calls = [
            {
                "id": call.get("id") or f"call_{i}",
                "name": call["function"]["name"],
                "arguments": call["function"].get("arguments") or "{}",
            }
            for i, call in enumerate(message.get("tool_calls") or [])
        ]
        content = message.get("content")
        if content is not None and not isinstance(content, str):
            raise TypeError("content is not a string")
        content = well_formed(content)
        usage = body.get("usage") or {}
        return {
            "content": content,
            "tool_calls": tool_calls,
            "finish_reason": choice.get("finish_reason"),
            "input_tokens": int(usage.get("prompt_tokens") or 0),
            "output_tokens": int(usage.get("completion_tokens") or 0),
            "model": str(body.get("model") or ""),
            "system_fingerprint": _fingerprint(body.get("system_fingerprint")),
        }
    except (KeyError, IndexError, TypeError, ValueError, AttributeError) as exc:
        raise RetryableProviderError(f"malformed chat completion body ({exc})") from exc


def _fingerprint(value: Any) -> str | None:
    """A provider's `system_fingerprint`: kept as text (at most 200 characters) or None when not given."""
    return str(value)[:200] if isinstance(value, str | int) and not isinstance(value, bool) and str(value) else None


def wire_messages(messages: Any) -> list[dict[str, Any]]:
    """The messages as sent, in the form every OpenAI-compatible server accepts: an assistant turn that
    only calls tools goes with `"content": ""` rather than null, and the content of a system, assistant or tool message
    that is a list of text parts goes as their text. OpenAI accepts both forms; stricter servers
    (llama-cpp-python's) refuse the first. Only the wire form changes: the cache key is made from the
    request as asked."""
    out = []
    for message in messages:
        content = message.get("content")
        if message.get("role") == "assistant" and message.get("tool_calls") and content is None:
            message = {**message, "content": ""}
        elif (
            message.get("role") in ("system", "developer", "assistant", "tool")
            and isinstance(content, list)
            and all(isinstance(p, dict) and p.get("type") == "text" for p in content)
        ):
            message = {**message, "content": "".join(str(p.get("text", "")) for p in content)}
        out.append(message)
    return out


def provider_model_name(model: str) -> str:
    """The name an OpenAI-compatible server expects: without the `openai/` routing prefix."""
    name = ModelName(model)
    return name.name if name.provider == "openai" else model


OPENAI_BASE = "https://api.openai.com/v1"


def endpoint_key(api_base: str | None, key_env: str | None, default_env: str | None) -> str | None:
    """The key a call may send, by one rule: a key goes only to its own provider.

    - `key_env` names the variable explicitly (`--api-key-env VAR`): its value, wherever the call goes;
    - no `api_base`: the provider's own endpoint, with the provider's own variable (`default_env`);
    - a custom `api_base` with no `key_env`: no key at all, so a key set for one provider can never
      reach another party's server.
    """
    if key_env:
        value = os.environ.get(key_env)
        if not value:
            raise ProviderError(f"the key variable {key_env} is not set (named with --*-api-key-env)")
        return value
    if api_base:
        return None
    return os.environ.get(default_env) if default_env else None


def join_endpoint(base: str, path: str) -> str:
    """`base` + `/path`, keeping a query string where it belongs (`...v1?api-version=x` endpoints)."""
    from urllib.parse import urlsplit, urlunsplit

    parts = urlsplit(base)
    return urlunsplit((parts.scheme, parts.netloc, f"{parts.path.rstrip('/')}/{path}", parts.query, ""))


class OpenAICompatibleTransport:
    """A lean aiohttp client for any OpenAI-compatible endpoint (the fast path)."""

    def __init__(self) -> None:
        self._session: Any = None

    def _headers(self, api_base: str | None, key_env: str | None) -> dict[str, str]:
        key = endpoint_key(api_base, key_env, "OPENAI_API_KEY")
        headers = {"Content-Type": "application/json"}
        if key:
            headers["Authorization"] = f"Bearer {key}"
        return headers

    async def _post(self, url: str, payload: dict[str, Any], headers: dict[str, str], timeout: float) -> Any:
        import aiohttp

        if self._session is None or self._session.closed:
            connector = aiohttp.TCPConnector(limit=0, ttl_dns_cache=300)
            self._session = aiohttp.ClientSession(connector=connector, json_serialize=json.dumps)
        try:
            async with self._session.post(
                url,
                data=json.dumps(payload),
                headers=headers,
                timeout=aiohttp.ClientTimeout(total=timeout),
            ) as response:
                raw = await response.read()
                status = response.status
                retry_after = parse_retry_after(response.headers.get("Retry-After"))
        except TimeoutError as exc:
            raise RetryableProviderError(f"timed out after {timeout:g} s") from exc
        except aiohttp.ClientError as exc:
            raise RetryableProviderError(f"connection failed: {type(exc).__name__}: {exc}") from exc
        if status >= 400:
            detail = _error_detail(raw)
            message = f"HTTP {status}: {detail}"
            if status in RETRYABLE_STATUS:
                raise RetryableProviderError(message, status=status, retry_after=retry_after)
            raise ProviderError(message, status=status)
        try:
            return json.loads(raw)
        except ValueError as exc:
            raise RetryableProviderError(f"malformed JSON body from the server ({exc})", status=status) from exc

    def _target(self, api_base: str | None, key_env: str | None, path: str) -> tuple[str, dict[str, str]]:
        """The URL of `path` and the headers; OpenAI itself always needs a key, so say so at once."""
        headers = self._headers(api_base, key_env)
        if api_base is None and "Authorization" not in headers:
            raise ProviderError("OPENAI_API_KEY is not set (or pass --api-base for another OpenAI-compatible server)")
        return join_endpoint(api_base or OPENAI_BASE, path), headers

    async def chat(self, request: ChatRequest, timeout: float) -> dict[str, Any]:
        url, headers = self._target(request.api_base, request.key_env, "chat/completions")
        payload = {  # the harness's own fields last: they win over anything in extra_body
            **request.settings.get("extra_body", {}),
            **{k: v for k, v in request.settings.items() if k != "extra_body"},
            "model": provider_model_name(request.model),
            "messages": wire_messages(request.messages),
        }
        body = await self._post(url, payload, headers, timeout)
        return normalize_chat(body)

    async def embed(self, request: EmbeddingRequest, timeout: float) -> tuple[list[list[float]], int, str]:
        url, headers = self._target(request.api_base, request.key_env, "embeddings")
        payload: dict[str, Any] = {"model": provider_model_name(request.model), "input": list(request.texts)}
        if request.dimensions is not None:
            payload["dimensions"] = request.dimensions
        body = await self._post(url, payload, headers, timeout)
        return normalize_embeddings(body, len(request.texts))

    async def close(self) -> None:
        if self._session is not None and not self._session.closed:
            await self._session.close()


def normalize_embeddings(body: Any, expected: int) -> tuple[list[list[float]], int, str]:
    """The vectors in input order, the tokens counted, and the model the provider says made them."""
    try:
        rows = sorted(body["data"], key=lambda row: row.get("index", 0))
        vectors = [[float(x) for x in row["embedding"]] for row in rows]
        usage = body.get("usage") or {}
        tokens = int(usage.get("prompt_tokens") or usage.get("total_tokens") or 0)
    except (KeyError, TypeError, ValueError, AttributeError) as exc:
        raise RetryableProviderError(f"malformed embeddings body ({exc})") from exc
    if len(vectors) != expected:
        raise RetryableProviderError(f"asked for {expected} embeddings, got {len(vectors)}")
    served = body.get("model") if isinstance(body, dict) else None
    return vectors, tokens, str(served or "")


def _error_detail(raw: bytes) -> str:
    try:
        body = json.loads(raw)
        error = body.get("error", body) if isinstance(body, dict) else body
        message = error.get("message") if isinstance(error, dict) else str(error)
        return str(message)[:300]
    except ValueError:
        return raw[:300].decode("utf-8", "replace") or "(empty body)"


class LiteLLMTransport:
    """Every provider litellm knows. Retries are ours, so litellm's own are switched off."""

    async def chat(self, request: ChatRequest, timeout: float) -> dict[str, Any]:
        litellm = import_litellm()
        kwargs: dict[str, Any] = dict(request.settings)
        api_key = self._key_for(request.api_base, request.key_env)
        if kwargs.get("tools"):
            kwargs["_skip_mcp_handler"] = True  # litellm 1.106.2 imports `mcp` for any tools= call
        try:
            response = await litellm.acompletion(
                model=request.model,
                messages=list(request.messages),
                api_base=request.api_base,
                api_key=api_key,
                timeout=timeout,
                num_retries=0,
                max_retries=0,
                **kwargs,
            )
        except Exception as exc:
            raise translate_litellm_error(exc) from exc
        return normalize_chat(response.model_dump())

    @staticmethod
    def _key_for(api_base: str | None, key_env: str | None) -> str | None:
        """The same rule as the lean client. A custom base with no key named gets a placeholder: litellm
        would otherwise fill in the provider's key from the environment and send it there."""
        key = endpoint_key(api_base, key_env, None)
        if api_base and key is None:
            return "no-key"
        return key

    async def embed(self, request: EmbeddingRequest, timeout: float) -> tuple[list[list[float]], int, str]:
        litellm = import_litellm()
        try:
            extra = {"dimensions": request.dimensions} if request.dimensions is not None else {}
            response = await litellm.aembedding(
                model=request.model,
                input=list(request.texts),
                **extra,
                api_base=request.api_base,
                api_key=self._key_for(request.api_base, request.key_env),
                timeout=timeout,
                num_retries=0,
                max_retries=0,
            )
        except Exception as exc:
            raise translate_litellm_error(exc) from exc
        body = response.model_dump() if hasattr(response, "model_dump") else dict(response)
        return normalize_embeddings(body, len(request.texts))

    async def close(self) -> None:
        return None


def translate_litellm_error(exc: Exception) -> ProviderError:
    """Map litellm's exception zoo onto retryable or final provider errors."""
    status = getattr(exc, "status_code", None)
    name = type(exc).__name__
    message = f"{name}: {str(exc).strip().splitlines()[0] if str(exc).strip() else ''}"[:400]
    headers = getattr(exc, "litellm_response_headers", None) or getattr(getattr(exc, "response", None), "headers", None)
    retry_after = None
    if headers is not None:
        try:
            retry_after = parse_retry_after(headers.get("retry-after") or headers.get("Retry-After"))
        except AttributeError:
            retry_after = None
    retryable_names = {
        "RateLimitError",
        "InternalServerError",
        "ServiceUnavailableError",
        "APIConnectionError",
        "Timeout",
        "APIError",
        "JSONSchemaValidationError",
    }
    if name in retryable_names or (isinstance(status, int) and status in RETRYABLE_STATUS):
        return RetryableProviderError(message, status=status, retry_after=retry_after)
    return ProviderError(message, status=status if isinstance(status, int) else None)


def import_litellm() -> Any:
    """Import litellm with its network and .env side effects switched off (tech-probe §1)."""
    os.environ.setdefault("LITELLM_LOCAL_MODEL_COST_MAP", "True")
    os.environ.setdefault("LITELLM_MODE", "PRODUCTION")
    os.environ.setdefault("HF_HUB_OFFLINE", "1")
    os.environ.setdefault("LITELLM_LOCAL_ANTHROPIC_BETA_HEADERS", "True")
    import litellm

    litellm.suppress_debug_info = True
    litellm.telemetry = False
    return litellm


class PrefixTurns:
    """Turns on the embedded chat model, `slots` calls at a time, in an order that reuses its work.

    llama.cpp keeps the previous prompt in its KV cache and evaluates only what follows the longest
    common prefix. Calls that share a system message (the same judge template over many items) share a
    long prefix, so when a turn frees up, a waiting call with the system message just served goes next;
    otherwise the longest-waiting call. A call passed over `patience` times goes next regardless.
    """

    def __init__(self, patience: int = 32, slots: int = 1) -> None:
        self.patience = patience
        self.slots = max(1, slots)
        self._busy = 0
        self._last: str | None = None
        self._waiting: list[tuple[str, asyncio.Future[None], list[int]]] = []

    async def acquire(self, key: str) -> None:
        if self._busy < self.slots:
            self._busy += 1
            self._last = key
            return
        future: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        entry = (key, future, [0])
        self._waiting.append(entry)
        try:
            await future
        except BaseException:
            if entry in self._waiting:
                self._waiting.remove(entry)
            elif future.done() and not future.cancelled():
                self.release()  # the turn was handed to us as we were cancelled: pass it on
            raise

    def release(self) -> None:
        if not self._waiting:
            self._busy -= 1
            if self._busy == 0:
                self._last = None
            return
        oldest = self._waiting[0]
        same = next((w for w in self._waiting if w[0] == self._last), None)
        chosen = oldest if same is None or oldest[2][0] >= self.patience else same
        self._waiting.remove(chosen)
        for waiting in self._waiting:
            waiting[2][0] += 1
        self._last = chosen[0]
        chosen[1].set_result(None)


class LocalModelError(ProviderError):
    """The embedded model's process stopped while serving the call (or could not start)."""

    kind = "local"


class LocalTransport:
    """The embedded models. Chat goes to the model's own process (harness.local.service), never into this
    one: a native crash there is an item error here. Embeddings run in-process (numpy), off the loop."""

    def __init__(self, endpoint: Any = None) -> None:
        self._endpoint = endpoint  # harness.local.service.LocalEndpoint, or None to start a process of our own
        self._service: Any = None
        self._turns: PrefixTurns | None = None
        self._session: Any = None

    def _target(self) -> Any:
        if self._endpoint is None:
            from harness.local.service import LocalModelService

            self._service = LocalModelService()
            self._endpoint = self._service.endpoint
        if self._turns is None:
            self._turns = PrefixTurns(slots=self._endpoint.slots)
        return self._endpoint

    async def _post(self, path: str, body: dict[str, Any], timeout: float) -> Any:
        import aiohttp

        endpoint = self._target()
        if self._session is None or self._session.closed:
            self._session = aiohttp.ClientSession(connector=aiohttp.TCPConnector(limit=0))
        headers = {"Authorization": f"Bearer {endpoint.token}", "Content-Type": "application/json"}
        try:
            async with self._session.post(
                f"{endpoint.url}{path}",
                data=json.dumps(body),
                headers=headers,
                timeout=aiohttp.ClientTimeout(total=timeout),
            ) as response:
                raw = await response.read()
                status = response.status
        except TimeoutError as exc:
            raise RetryableProviderError(f"local model timed out after {timeout:g} s") from exc
        except aiohttp.ClientError as exc:
            raise RetryableProviderError(f"the embedded model's front did not answer ({type(exc).__name__})") from exc
        try:
            reply = json.loads(raw)
        except ValueError as exc:
            raise RetryableProviderError(f"malformed reply from the embedded model ({exc})") from exc
        if status == 200:
            return reply
        error = reply.get("error", {}) if isinstance(reply, dict) else {}
        message = str(error.get("message") or raw[:300].decode("utf-8", "replace"))
        if error.get("type") in ("local_model_stopped", "local_model_unavailable"):
            raise LocalModelError(message, status=status)
        if status == 400:
            raise ProviderError(f"local model refused the request: {message}", status=status)
        raise RetryableProviderError(f"local model: HTTP {status}: {message}", status=status)

    async def chat(self, request: ChatRequest, timeout: float) -> dict[str, Any]:
        self._target()
        assert self._turns is not None
        name = ModelName(request.model).name
        body = {"model": name, "messages": list(request.messages), **request.settings}
        first = request.messages[0]
        await self._turns.acquire(str(first.get("content")) if first.get("role") == "system" else "")
        try:
            result = await self._post("/v1/chat/completions", body, timeout)
        finally:
            self._turns.release()
        return normalize_chat(result)

    async def count_tokens(self, model: str, text: str, timeout: float = 60.0) -> int:
        """SmolLM2 tokens in `text` (no chat template)."""
        reply = await self._post("/v1/tokenize", {"model": ModelName(model).name, "text": text}, timeout)
        return int(reply["tokens"])

    async def embed(self, request: EmbeddingRequest, timeout: float) -> tuple[list[list[float]], int, str]:
        from harness.local.embeddings import embed_local

        name = ModelName(request.model).name
        if request.dimensions not in (None, 384):
            raise ProviderError(
                f"{request.model} makes 384-dimension vectors; --embedding-dimensions asked for {request.dimensions}"
            )
        vectors, tokens = await asyncio.to_thread(embed_local, name, list(request.texts))
        return vectors, tokens, name

    async def close(self) -> None:
        if self._session is not None and not self._session.closed:
            await self._session.close()
        if self._service is not None:
            service, self._service = self._service, None
            await asyncio.to_thread(service.close)
