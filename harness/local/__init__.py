"""Offline models that run inside the harness process: a small chat model and an embedding model.

Why: evals and the harness's own tests must run with no network and no API key. Importing this
package is cheap; llama_cpp, numpy and tokenizers load only on first use.
"""

from harness.local.chat import LOCAL_CHAT_MODELS, LocalModelUnavailable, complete_local, count_tokens_local
from harness.local.embeddings import LOCAL_EMBEDDING_MODELS, embed_local

__all__ = [
    "LOCAL_CHAT_MODELS",
    "LOCAL_EMBEDDING_MODELS",
    "LocalModelUnavailable",
    "complete_local",
    "count_tokens_local",
    "embed_local",
]
