"""The judge toolkit: render a prompt template, ask for JSON, validate it, retry once, or fail loudly.

A judge that cannot produce a valid verdict is an error for the item, never a silent zero. The template's
hash is part of the cache key, so editing a prompt re-asks the judge.
"""

from __future__ import annotations

import asyncio
import hashlib
import json
import re
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any

from pydantic import BaseModel, ValidationError

from harness.errors import JudgeError, ProviderError
from harness.llm.client import InvalidReplyError, LLMClient
from harness.llm.records import CallRecord
from harness.llm.request import ChatRequest

FENCE = re.compile(r"^```(?:json)?\s*|\s*```$", re.MULTILINE)


@dataclass(frozen=True)
class RenderedPrompt:
    messages: tuple[dict[str, str], ...]
    template_hash: str


@dataclass
class Verdict:
    """One judge's validated answer."""

    model: str
    value: dict[str, Any]
    raw_text: str
    reasoning: str | None


class PromptLibrary:
    """Jinja templates under a prompts directory. A template may define blocks `system` and `user`;
    without blocks, the whole rendering is the user message."""

    def __init__(self, roots: list[Path]) -> None:
        import jinja2

        self.roots = [r for r in roots if r.is_dir()]
        self._env = jinja2.Environment(
            loader=jinja2.FileSystemLoader([str(r) for r in self.roots]),
            undefined=jinja2.StrictUndefined,
            autoescape=False,
            keep_trailing_newline=False,
            trim_blocks=True,
            lstrip_blocks=True,
        )

    @lru_cache(maxsize=256)  # noqa: B019 - one library per run; templates do not change mid-run
    def template_hash(self, name: str) -> str:
        """The hash of the template's source as found on the search path (it enters the cache key)."""
        source, _, _ = self._env.loader.get_source(self._env, name)  # type: ignore[union-attr]
        return hashlib.sha256(source.encode("utf-8")).hexdigest()[:16]

    def render(self, name: str, variables: dict[str, Any]) -> RenderedPrompt:
        import jinja2

        try:
            template = self._env.get_template(name)
        except jinja2.TemplateNotFound as exc:
            searched = ", ".join(str(r) for r in self.roots)
            raise JudgeError(f"prompt template {name!r} not found (searched {searched})") from exc
        try:
            context = template.new_context(dict(variables))
            blocks = {block: "".join(fn(context)).strip() for block, fn in template.blocks.items()}
            if "user" in blocks:
                messages = []
                if blocks.get("system"):
                    messages.append({"role": "system", "content": blocks["system"]})
                messages.append({"role": "user", "content": blocks["user"]})
            else:
                messages = [{"role": "user", "content": template.render(**variables).strip()}]
        except jinja2.UndefinedError as exc:
            raise JudgeError(f"prompt template {name!r}: {exc}") from exc
        return RenderedPrompt(tuple(messages), self.template_hash(name))


def extract_json(text: str) -> Any:
    """The JSON object in a reply, tolerating code fences and prose around it."""
    stripped = FENCE.sub("", text.strip())
    try:
        return json.loads(stripped)
    except ValueError:
        pass
    start, end = stripped.find("{"), stripped.rfind("}")
    if start == -1 or end <= start:
        raise ValueError("the reply contains no JSON object")
    return json.loads(stripped[start : end + 1])


@lru_cache(maxsize=64)
def response_format_for(schema_model: type[BaseModel]) -> dict[str, Any]:
    """An OpenAI `json_schema` response format for a verdict model."""
    return {
        "type": "json_schema",
        "json_schema": {"name": schema_model.__name__, "schema": schema_model.model_json_schema()},
    }


def _rejects_response_format(exc: ProviderError) -> bool:
    """A 400 (or 422) that names the response format: the server does not do structured output."""
    text = str(exc).lower()
    return exc.status in (400, 422) and ("response_format" in text or "json_schema" in text)


def _validator(schema_model: type[BaseModel]) -> Any:
    def accept(reply: dict[str, Any]) -> BaseModel:
        text = reply.get("content") or ""
        try:
            return schema_model.model_validate(extract_json(text))
        except (ValueError, ValidationError) as exc:
            first = str(exc).splitlines()[0] if isinstance(exc, ValueError) else str(exc)
            raise ValueError(f"judge reply is not a valid {schema_model.__name__}: {first[:300]}") from exc

    return accept


async def judge_once(
    client: LLMClient,
    *,
    model: str,
    prompt: RenderedPrompt,
    schema_model: type[BaseModel],
    api_base: str | None,
    task_version: int | None,
    repeat: int,
    records: list[CallRecord],
    settings: dict[str, Any] | None = None,
) -> Verdict:
    """Ask one judge; on an invalid reply ask once more, showing it its mistake; then give up."""
    accept = _validator(schema_model)
    messages = list(prompt.messages)
    call_settings = {
        "temperature": 0,
        "max_tokens": 1024,  # above any bounded verdict, even at one character per token
        "response_format": response_format_for(schema_model),
        **(settings or {}),
    }
    last_error = ""
    attempts_left = 2
    while attempts_left:
        request = ChatRequest.build(model, messages, api_base=api_base, **call_settings)
        try:
            reply, _record, parsed = await client.chat(
                request,
                namespace="judge",
                task_version=task_version,
                repeat=repeat,
                template_hash=prompt.template_hash,
                accept=accept,
                records=records,
            )
        except ProviderError as exc:
            if "response_format" not in call_settings or not _rejects_response_format(exc):
                raise
            # Structured output is used where supported; a server that refuses it gets the same prompt,
            # which asks for JSON in words, and the reply is validated all the same. Not an attempt.
            del call_settings["response_format"]
            continue
        except InvalidReplyError as exc:
            exc.record.error = f"invalid judge reply: {exc}"[:300]
            last_error = str(exc)
            attempts_left -= 1
            if attempts_left:
                messages = [
                    *prompt.messages,
                    {"role": "assistant", "content": exc.reply.get("content") or ""},
                    {
                        "role": "user",
                        "content": f"That reply was not valid: {exc}. Answer again with only a JSON object "
                        f"matching this schema: {json.dumps(schema_model.model_json_schema())}",
                    },
                ]
            continue
        value = parsed.model_dump(mode="json")
        reasoning = value.get("reasoning") or value.get("reason")
        return Verdict(model=model, value=value, raw_text=reply.get("content") or "", reasoning=reasoning)
    raise JudgeError(f"judge {model} gave no valid verdict after a retry: {last_error}")


async def judge_panel(
    client: LLMClient,
    *,
    models: list[str],
    prompt: RenderedPrompt,
    schema_model: type[BaseModel],
    api_base: str | None,
    task_version: int | None,
    repeat: int,
    records: list[CallRecord],
) -> list[Verdict]:
    """Every judge of the panel, concurrently; any judge's failure is the item's error."""
    return list(
        await asyncio.gather(
            *(
                judge_once(
                    client,
                    model=model,
                    prompt=prompt,
                    schema_model=schema_model,
                    api_base=api_base,
                    task_version=task_version,
                    repeat=repeat,
                    records=records,
                )
                for model in models
            )
        )
    )
