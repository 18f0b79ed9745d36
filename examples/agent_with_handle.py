"""A Python agent that uses the harness's model handle, so every model call it makes is cached, budgeted,
recorded per item and replayable in CI.

    pytest evals/sample -k capital --agent examples.agent_with_handle:agent --model openai/gpt-4.1-mini
    pytest evals/sample -k capital --agent examples.agent_with_handle:agent --cache-mode replay   # $0, no calls

`model` is a harness.model_handle.ModelHandle on `--model` (the embedded SmolLM2 when none is given). A sync
agent like this one runs in a thread of its own and calls the `_sync` forms; an async agent awaits
`model.chat(...)`, `model.complete(...)` and `model.embed(...)`.
"""

from __future__ import annotations

from typing import Any


def agent(prompt: str, model: Any, task: dict[str, Any]) -> str:
    """Draft an answer, then ask the model to check it against the question: two recorded calls."""
    draft = model.complete_sync(prompt, system="Answer briefly and precisely.", temperature=0, max_tokens=64)
    review = (
        f"Question: {prompt}\nDraft answer: {draft}\n"
        "If the draft answers the question, repeat it unchanged; otherwise write a corrected answer. "
        "Reply with the answer only."
    )
    return model.complete_sync(review, temperature=0, max_tokens=64)
