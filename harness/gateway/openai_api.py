"""The OpenAI wire format at the gateway, as pure functions: what an agent's request asks for, and the
harness's normalized reply written back as a chat.completion (or as its stream of chunks).

Every generation setting an agent sends enters the call (and so the cache key). Settings that do not
change the answer (`stream`, `user`, `metadata`, `store`, ...) are dropped; anything else the harness does
not know is refused with a 400 that names it, rather than ignored: an ignored setting would let two
different requests share one cached answer.
"""

from __future__ import annotations

import base64
import hashlib
import json
import struct
from typing import Any

from harness.llm.request import CHAT_SETTINGS

# Accepted and left out of the call: they do not change what the model writes.
IGNORED_CHAT_FIELDS = frozenset(
    {"model", "messages", "stream", "stream_options", "user", "metadata", "store", "service_tier",
     "prompt_cache_key", "safety_identifier", "n"}
)  # fmt: skip
_ROLES = frozenset({"system", "developer", "user", "assistant", "tool", "function"})


class BadRequest(ValueError):
    """A request the gateway refuses (HTTP 400), with a message for the agent's developer."""


def chat_call(body: Any) -> tuple[list[dict[str, Any]], dict[str, Any], bool, bool]:
    """(messages, settings, stream, include_usage) from a chat.completions request body."""
    if not isinstance(body, dict):
        raise BadRequest("the request body must be a JSON object")
    messages = body.get("messages")
    if not isinstance(messages, list) or not messages:
        raise BadRequest("'messages' must be a non-empty list")
    for i, message in enumerate(messages):
        if not isinstance(message, dict) or message.get("role") not in _ROLES:
            raise BadRequest(f"messages[{i}] must be an object with a role ({', '.join(sorted(_ROLES))})")
    unknown = sorted(set(body) - CHAT_SETTINGS - IGNORED_CHAT_FIELDS)
    if unknown:
        raise BadRequest(
            f"unsupported parameter(s) {', '.join(unknown)}: the harness caches every call by its settings and "
            f"does not know these; supported: {', '.join(sorted(CHAT_SETTINGS))}"
        )
    if body.get("n") not in (None, 1):
        raise BadRequest("'n' must be 1: the gateway returns one choice per call")
    settings = {k: body[k] for k in CHAT_SETTINGS if k in body and body[k] is not None}
    options = body.get("stream_options") or {}
    include_usage = isinstance(options, dict) and bool(options.get("include_usage"))
    return messages, settings, bool(body.get("stream")), include_usage


def completion_id(reply: dict[str, Any]) -> str:
    """Stable for a given reply, so a replayed run hands its agent the very same response."""
    text = json.dumps([reply.get("content"), reply.get("tool_calls")], sort_keys=True)
    return "chatcmpl-" + hashlib.sha256(text.encode()).hexdigest()[:24]


def _tool_calls(reply: dict[str, Any]) -> list[dict[str, Any]]:
    return [
        {"id": c["id"], "type": "function", "function": {"name": c["name"], "arguments": c["arguments"]}}
        for c in reply.get("tool_calls") or []
    ]


def _usage(reply: dict[str, Any]) -> dict[str, int]:
    prompt, completion = int(reply.get("input_tokens") or 0), int(reply.get("output_tokens") or 0)
    return {"prompt_tokens": prompt, "completion_tokens": completion, "total_tokens": prompt + completion}


def _finish(reply: dict[str, Any]) -> str:
    return reply.get("finish_reason") or ("tool_calls" if reply.get("tool_calls") else "stop")


def completion_body(reply: dict[str, Any], model: str, created: int) -> dict[str, Any]:
    message: dict[str, Any] = {"role": "assistant", "content": reply.get("content")}
    if reply.get("tool_calls"):
        message["tool_calls"] = _tool_calls(reply)
    return {
        "id": completion_id(reply),
        "object": "chat.completion",
        "created": created,
        "model": model,
        "choices": [{"index": 0, "message": message, "finish_reason": _finish(reply), "logprobs": None}],
        "usage": _usage(reply),
    }


def completion_chunks(reply: dict[str, Any], model: str, created: int, include_usage: bool) -> list[str]:
    """The reply as server-sent events: role, content, tool calls, the finish, usage if asked, [DONE]."""
    base = {"id": completion_id(reply), "object": "chat.completion.chunk", "created": created, "model": model}

    def chunk(delta: dict[str, Any], finish: str | None = None, **extra: Any) -> str:
        body = {**base, "choices": [{"index": 0, "delta": delta, "finish_reason": finish, "logprobs": None}]}
        body.update(extra)
        return f"data: {json.dumps(body, ensure_ascii=False)}\n\n"

    events = [chunk({"role": "assistant", "content": ""})]
    if reply.get("content"):
        events.append(chunk({"content": reply["content"]}))
    if reply.get("tool_calls"):
        calls = [{"index": i, **call} for i, call in enumerate(_tool_calls(reply))]
        events.append(chunk({"tool_calls": calls}))
    events.append(chunk({}, _finish(reply)))
    if include_usage:
        events.append(f"data: {json.dumps({**base, 'choices': [], 'usage': _usage(reply)})}\n\n")
    events.append("data: [DONE]\n\n")
    return events


MAX_EMBEDDING_INPUTS = 2048  # per request, as OpenAI's own endpoint
MAX_EMBEDDING_CHARS = 32_000  # per input (about 8,000 tokens)


# The widest embedding any provider serves is 4,096 dimensions (text-embedding-3-large has 3,072); the reply to
# 2,048 inputs is bounded by it.
MAX_DIMENSIONS = 8192


def embedding_call(body: Any) -> tuple[list[str], int | None, str]:
    """(texts, dimensions, encoding_format) from an embeddings request body."""
    if not isinstance(body, dict):
        raise BadRequest("the request body must be a JSON object")
    texts = body.get("input")
    if isinstance(texts, str):
        texts = [texts]
    if not isinstance(texts, list) or not texts or not all(isinstance(t, str) for t in texts):
        raise BadRequest("'input' must be a string or a non-empty list of strings (token arrays are not supported)")
    if len(texts) > MAX_EMBEDDING_INPUTS:
        raise BadRequest(f"'input' has {len(texts):,} texts; at most {MAX_EMBEDDING_INPUTS} per request")
    if any(len(t) > MAX_EMBEDDING_CHARS for t in texts):
        raise BadRequest(f"an input is longer than {MAX_EMBEDDING_CHARS:,} characters")
    dimensions = body.get("dimensions")
    if dimensions is not None and (
        not isinstance(dimensions, int) or isinstance(dimensions, bool) or not 1 <= dimensions <= MAX_DIMENSIONS
    ):
        raise BadRequest(f"'dimensions' must be a whole number from 1 to {MAX_DIMENSIONS}")
    encoding = body.get("encoding_format") or "float"
    if encoding not in ("float", "base64"):
        raise BadRequest("'encoding_format' must be 'float' or 'base64'")
    return texts, dimensions, encoding


def embedding_body(vectors: list[list[float]], model: str, tokens: int, encoding: str) -> dict[str, Any]:
    def encode(vector: list[float]) -> Any:
        if encoding == "base64":  # what the OpenAI SDKs ask for by default: little-endian float32
            return base64.b64encode(struct.pack(f"<{len(vector)}f", *vector)).decode("ascii")
        return vector

    return {
        "object": "list",
        "data": [{"object": "embedding", "index": i, "embedding": encode(v)} for i, v in enumerate(vectors)],
        "model": model,
        "usage": {"prompt_tokens": tokens, "total_tokens": tokens},
    }


def error_body(message: str, kind: str = "invalid_request_error", code: str | None = None) -> dict[str, Any]:
    return {"error": {"message": message, "type": kind, "param": None, "code": code}}
