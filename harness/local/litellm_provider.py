"""Expose the local models to litellm as the provider "local" (``local/smollm2``, ``local/all-minilm-l6-v2``).

Why: the rest of the harness talks to every model through litellm; registering an in-process
CustomLLM lets offline runs use the exact same code path, usage accounting and cost calculation
(zero prices) as hosted models. litellm is imported only inside ``register()`` because importing it
costs about 3 s.
"""

from __future__ import annotations

import asyncio
import os
import threading
from typing import Any

from harness.local.chat import LOCAL_CHAT_MODELS, complete_local
from harness.local.embeddings import LOCAL_EMBEDDING_MODELS, embed_local

PROVIDER = "local"

# Keys litellm puts into optional_params for its own bookkeeping; they are not request parameters.
# "stream" is handled here (streaming/astreaming), not by complete_local.
_LITELLM_INTERNAL_KEYS = frozenset({"_skip_mcp_handler", "stream", "stream_options", "max_retries"})
# Offline switches that must be set before the first `import litellm` (see tech-probe §1 and §5).
_OFFLINE_ENV = {"LITELLM_LOCAL_MODEL_COST_MAP": "True", "LITELLM_MODE": "PRODUCTION", "HF_HUB_OFFLINE": "1"}

# Cache prices too: without them register_model logs a WARNING per model.
_ZERO_PRICES = {
    "input_cost_per_token": 0.0,
    "output_cost_per_token": 0.0,
    "cache_creation_input_token_cost": 0.0,
    "cache_read_input_token_cost": 0.0,
}

_register_lock = threading.Lock()
_handler: Any = None


def register() -> None:
    """Register the "local" provider with litellm (idempotent; other custom providers are kept)."""
    global _handler
    for key, value in _OFFLINE_ENV.items():
        os.environ.setdefault(key, value)
    import litellm

    with _register_lock:
        if _handler is None:
            _handler = _make_handler(litellm)
        others = [p for p in (litellm.custom_provider_map or []) if p.get("provider") != PROVIDER]
        litellm.custom_provider_map = [*others, {"provider": PROVIDER, "custom_handler": _handler}]
        litellm.register_model(_model_cost_entries())


def _model_cost_entries() -> dict[str, dict[str, Any]]:
    """Zero-price entries so that litellm.completion_cost() works for local models."""
    from harness.local.chat import _N_CTX

    entries: dict[str, dict[str, Any]] = {}
    for name in LOCAL_CHAT_MODELS:
        entries[f"{PROVIDER}/{name}"] = {
            "litellm_provider": PROVIDER,
            "mode": "chat",
            "max_tokens": _N_CTX,
            "max_input_tokens": _N_CTX,
            "max_output_tokens": _N_CTX,
            **_ZERO_PRICES,
            "supports_response_schema": True,
            "supports_function_calling": True,
            "supports_tool_choice": True,
        }
    for name in LOCAL_EMBEDDING_MODELS:
        entries[f"{PROVIDER}/{name}"] = {
            "litellm_provider": PROVIDER,
            "mode": "embedding",
            "max_tokens": 256,
            "max_input_tokens": 256,
            "output_vector_size": 384,
            **_ZERO_PRICES,
        }
    return entries


def _request_body(messages: list[dict[str, Any]], optional_params: dict[str, Any] | None) -> dict[str, Any]:
    body = {k: v for k, v in (optional_params or {}).items() if k not in _LITELLM_INTERNAL_KEYS}
    body["messages"] = messages
    return body


def _fill_model_response(model_response: Any, result: dict[str, Any]) -> Any:
    """Copy a chat.completion dict into the ModelResponse that litellm passed in."""
    from litellm.types.utils import ChatCompletionMessageToolCall, Function, Usage

    choice = result["choices"][0]
    message = choice["message"]
    target = model_response.choices[0]
    target.message.content = message.get("content")
    if message.get("tool_calls"):
        target.message.tool_calls = [
            ChatCompletionMessageToolCall(
                id=call["id"],
                type="function",
                function=Function(name=call["function"]["name"], arguments=call["function"]["arguments"]),
            )
            for call in message["tool_calls"]
        ]
    target.finish_reason = choice["finish_reason"]
    model_response.id = result["id"]
    model_response.created = result["created"]
    model_response.model = result["model"]
    usage = result["usage"]
    model_response.usage = Usage(
        prompt_tokens=usage["prompt_tokens"],
        completion_tokens=usage["completion_tokens"],
        total_tokens=usage["total_tokens"],
    )
    return model_response


def _stream_chunks(result: dict[str, Any]) -> list[dict[str, Any]]:
    """The finished answer as litellm GenericStreamingChunks (the model is fast; true token streaming
    is not worth the lock juggling). Usage rides on the last chunk."""
    choice = result["choices"][0]
    message = choice["message"]
    pieces: list[dict[str, Any]] = []
    if message.get("content"):
        pieces.append({"text": message["content"], "tool_use": None})
    for i, call in enumerate(message.get("tool_calls") or []):
        tool_use = {"id": call["id"], "type": "function", "function": dict(call["function"]), "index": i}
        pieces.append({"text": "", "tool_use": tool_use})
    pieces = pieces or [{"text": "", "tool_use": None}]
    last = len(pieces) - 1
    return [
        {
            **piece,
            "index": 0,
            "is_finished": i == last,
            "finish_reason": choice["finish_reason"] if i == last else "",
            "usage": dict(result["usage"]) if i == last else None,
        }
        for i, piece in enumerate(pieces)
    ]


def _fill_embedding_response(model: str, model_response: Any, texts: list[Any]) -> Any:
    from litellm.types.utils import Usage

    if isinstance(texts, str):
        texts = [texts]
    if not all(isinstance(t, str) for t in texts):
        raise ValueError("local embedding models accept only strings (not token arrays)")
    vectors, n_tokens = embed_local(model, list(texts))
    model_response.data = [{"object": "embedding", "index": i, "embedding": v} for i, v in enumerate(vectors)]
    model_response.model = f"{PROVIDER}/{model}"
    model_response.usage = Usage(prompt_tokens=n_tokens, completion_tokens=0, total_tokens=n_tokens)
    return model_response


def _as_litellm_error(litellm: Any, exc: Exception, model: str) -> Exception:
    """Bad requests become litellm.BadRequestError, which litellm does not retry."""
    if isinstance(exc, ValueError | TypeError):
        return litellm.BadRequestError(message=str(exc), model=model, llm_provider=PROVIDER)
    return exc


def _make_handler(litellm: Any) -> Any:
    """Build the CustomLLM subclass (litellm's base class is only importable after `import litellm`)."""

    class LocalLLM(litellm.CustomLLM):
        """Routes completion/embedding calls for provider "local" to the in-process models."""

        @staticmethod
        def _complete(model: str, messages: list, kwargs: dict[str, Any]) -> dict[str, Any]:
            """The one place every chat entry point (sync, async, streaming) goes through."""
            try:
                return complete_local(model, _request_body(messages, kwargs.get("optional_params")))
            except (ValueError, TypeError) as exc:
                raise _as_litellm_error(litellm, exc, model) from exc

        def completion(self, model: str, messages: list, *args: Any, **kwargs: Any) -> Any:
            return _fill_model_response(kwargs["model_response"], self._complete(model, messages, kwargs))

        async def acompletion(self, model: str, messages: list, *args: Any, **kwargs: Any) -> Any:
            result = await asyncio.to_thread(self._complete, model, messages, kwargs)
            return _fill_model_response(kwargs["model_response"], result)

        def streaming(self, model: str, messages: list, *args: Any, **kwargs: Any) -> Any:
            yield from _stream_chunks(self._complete(model, messages, kwargs))

        async def astreaming(self, model: str, messages: list, *args: Any, **kwargs: Any) -> Any:
            result = await asyncio.to_thread(self._complete, model, messages, kwargs)
            for chunk in _stream_chunks(result):
                yield chunk

        def embedding(self, model: str, input: list, model_response: Any, *args: Any, **kwargs: Any) -> Any:
            try:
                return _fill_embedding_response(model, model_response, input)
            except (ValueError, TypeError) as exc:
                raise _as_litellm_error(litellm, exc, model) from exc

        async def aembedding(self, model: str, input: list, model_response: Any, *args: Any, **kwargs: Any) -> Any:
            try:
                return await asyncio.to_thread(_fill_embedding_response, model, model_response, input)
            except (ValueError, TypeError) as exc:
                raise _as_litellm_error(litellm, exc, model) from exc

    return LocalLLM()
