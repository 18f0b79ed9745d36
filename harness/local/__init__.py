"""Offline models: a small chat model (served from a process of its own) and an embedding model.

Why: evals and the harness's own tests must run with no network and no API key. Importing this
package costs nothing: its modules, and llama_cpp, numpy and tokenizers behind them, load on first use
(a run against a remote model never loads them).
"""

from __future__ import annotations

import importlib
from typing import Any

_EXPORTS = {
    "LOCAL_CHAT_MODELS": "harness.local.chat",
    "LocalModelUnavailable": "harness.local.chat",
    "complete_local": "harness.local.chat",
    "count_tokens_local": "harness.local.chat",
    "LOCAL_EMBEDDING_MODELS": "harness.local.embeddings",
    "embed_local": "harness.local.embeddings",
}

__all__ = sorted(_EXPORTS)


def __getattr__(name: str) -> Any:
    if name not in _EXPORTS:
        raise AttributeError(f"module 'harness.local' has no attribute {name!r}")
    return getattr(importlib.import_module(_EXPORTS[name]), name)
