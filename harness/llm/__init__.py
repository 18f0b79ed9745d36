"""The provider layer: one interface for every model call, whatever route it takes.

Routes: `local/...` models run in-process (llama.cpp / numpy), OpenAI-compatible endpoints go through a
lean aiohttp client, every other provider goes through litellm (imported only when first needed).
All routes share the request type, the cache key, the retry policy and the call record.
"""

from harness.llm.records import CallRecord
from harness.llm.request import ChatRequest, EmbeddingRequest

__all__ = ["CallRecord", "ChatRequest", "EmbeddingRequest"]
