"""What the embedded chat model is, as far as its answers go: folded into the call cache's key.

Why: the cache keys a call by what it sends, but the embedded model's answer also depends on choices
made here (the weights, the context size, the reply cap a request without `max_tokens` gets). When one
of them changes, replies cached under the old choice must not be served as if they were the new one's.
Kept apart from harness.local.chat so that computing a key never loads llama.cpp.
"""

from __future__ import annotations

LOCAL_CHAT_MODELS = frozenset({"smollm2", "smollm2-135m", "smollm2-135m-instruct"})
GGUF_NAME = "SmolLM2-135M-Instruct.Q4_1.gguf"
# The weights were trained at 8,192; 4,096 holds a judge's prompt around a 1,024-token answer, at about
# 90 MB of KV cache per llama.cpp context.
N_CTX = 4096
# A request without max_tokens may run this long. Real servers let such a reply run to the context's
# end; a 135M model at temperature 0 sometimes loops, so the cap keeps one reply under ~10 s on 2 cores
# while leaving room for a full chat answer (GEM-Bench's raw answers mostly end between 60 and 450 tokens).
DEFAULT_MAX_TOKENS = 1024

ENGINE_REVISION = f"{GGUF_NAME};n_ctx={N_CTX};default_max_tokens={DEFAULT_MAX_TOKENS}"
