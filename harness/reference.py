"""What an item was expected to give: its reference as the task kind defines it, and one line of it.

The reference is what a reader needs beside the answer to see why an item failed: the expected answer
and its aliases, the expert's list, the client's picks, the questions with their standard answers. By
default it is the task's `ground_truth` (fields left at their defaults are dropped); a kind may give its
own (`Benchmark.reference`). The one line is what the terminal and summary.md print against the answer.
"""

from __future__ import annotations

import json
from typing import Any

LINE_CHARS = 160


def reference_of(task: Any) -> dict[str, Any] | None:
    """The item's reference as plain JSON, or None for a task without one (a GEM chat query)."""
    from harness.kinds import get_benchmark

    benchmark = get_benchmark(task.kind)
    if benchmark.reference is not None:
        return benchmark.reference(task)
    truth = getattr(task, "ground_truth", None)
    if truth is None or not hasattr(truth, "model_dump"):
        return None
    dumped = truth.model_dump(mode="json", exclude_defaults=True)
    return dumped or None


def clip(text: str, limit: int = LINE_CHARS) -> str:
    """One line of at most `limit` characters (whitespace folded; an ellipsis says it was cut)."""
    flat = " ".join(str(text).split())
    return flat if len(flat) <= limit else flat[: limit - 3] + "..."


def _names(values: Any) -> str:
    return ", ".join(str(v.get("name") or v.get("url") or v) if isinstance(v, dict) else str(v) for v in values)


def expected_line(reference: dict[str, Any] | None) -> str | None:
    """The reference in one line: the answer (or its aliases), the lists, the questions and answers; any
    other shape as compact JSON. None when there is no reference."""
    if not reference:
        return None
    parts: list[str] = []
    if isinstance(reference.get("answer"), str):
        aliases = reference.get("aliases") or []
        parts.append(repr(reference["answer"]) + (f" (or {', '.join(map(repr, aliases))})" if aliases else ""))
    if isinstance(reference.get("expected"), dict):
        parts += [f"{kind}: {_names(names)}" for kind, names in reference["expected"].items()]
    if isinstance(reference.get("selected"), list):
        parts.append(f"picks: {_names(reference['selected'])}")
    if isinstance(reference.get("people"), list):
        parts.append(f"people: {_names(reference['people'])}")
    if isinstance(reference.get("questions"), list):
        parts += [f"{q.get('question')} -> {q.get('answer')}" for q in reference["questions"] if isinstance(q, dict)]
    if isinstance(reference.get("labels"), list):
        parts.append(f"relevance labels {''.join(str(v) for v in reference['labels'])}")
    if not parts:
        parts.append(json.dumps(reference, ensure_ascii=False, sort_keys=True))
    return clip("; ".join(parts))


def failure_line(result: dict[str, Any]) -> str | None:
    """`expected X; got Y` for a failed item, from its result (None when the reference is withheld or
    there is none and no answer)."""
    expected = result.get("expected")
    answer = result.get("answer")
    if expected is None and answer is None:
        return None
    got = "no answer" if answer is None else repr(clip(answer, 100))
    return f"expected {expected if expected is not None else '(no reference)'}; got {got}"
