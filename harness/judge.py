"""The judge toolkit: render a prompt template, ask for a verdict, validate it, retry once, or fail loudly.

A judge that cannot produce a valid verdict is an error for the item, never a silent zero. The template's
hash is part of the cache key, so editing a prompt re-asks the judge.

Text from the system under test is data. Benchmarks pass it wrapped in `Untrusted`, and templates must
render it with the `data` filter, which puts it inside a section whose closing marker is derived from a
hash of the text itself: the text cannot contain its own closing marker, so it cannot end the section
early or forge the template's own wording after it. Rendering an `Untrusted` value any other way is an
error, so a template cannot leak an answer into the prompt raw by mistake.
"""

from __future__ import annotations

import asyncio
import hashlib
import json
import re
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import Any

from pydantic import BaseModel, ValidationError

from harness.errors import JudgeError, ProviderError
from harness.llm.client import InvalidReplyError, LLMClient
from harness.llm.endpoint import Endpoint
from harness.llm.records import CallScope
from harness.llm.request import ChatRequest

FENCE = re.compile(r"^```(?:json)?\s*|\s*```$", re.MULTILINE)
# `--judge-model harness/reference`: the benchmark's rubric applied mechanically from the ground truth, with
# no model (for floors, ceilings and plumbing checks; not the paper's judge). See ItemContext.judge.
REFERENCE_JUDGE = "harness/reference"
DEFAULT_JUDGE_SETTINGS: dict[str, Any] = {"temperature": 0, "max_tokens": 1024}


class Untrusted(str):
    """Text that came from the system under test (or any other party the judge must not obey)."""

    __slots__ = ()


def data_section(text: Any, name: str = "data") -> str:
    """`text` between an opening and a closing marker that `text` cannot contain: the marker carries a
    hash of the text, so writing the marker into the text changes the hash it would have to match."""
    body = str(text)
    label = re.sub(r"[^a-z0-9_-]", "", name.lower())[:32] or "data"
    salt = 0
    while True:
        digest = hashlib.sha256(f"{label}:{salt}:{body}".encode("utf-8", "surrogatepass")).hexdigest()[:16]
        end = f"<<<END {label} {digest}>>>"
        if end not in body:
            return f"<<<BEGIN {label} {digest}>>>\n{body}\n{end}"
        salt += 1  # unreachable in practice: it would need the text to predict its own hash


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


@dataclass
class PanelResult:
    """Every judge's verdict, and the judges that could not give one (model -> reason)."""

    verdicts: list[Verdict] = field(default_factory=list)
    failures: dict[str, str] = field(default_factory=dict)


class PromptLibrary:
    """Jinja templates under a list of prompt folders (the project's first). A template may define blocks
    `system` and `user`; without blocks, the whole rendering is the user message."""

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
            finalize=_refuse_raw_untrusted,
            auto_reload=False,  # templates do not change during a run; no stat() per render
        )
        self._env.filters["data"] = _data_filter
        self._env.filters["tojson_data"] = lambda value: json.dumps(value, ensure_ascii=False, indent=1)

    def exists(self, name: str) -> bool:
        import jinja2

        try:
            self._env.loader.get_source(self._env, name)  # type: ignore[union-attr]
        except jinja2.TemplateNotFound:
            return False
        return True

    @lru_cache(maxsize=256)  # noqa: B019 - one library per run; templates do not change mid-run
    def template_hash(self, name: str) -> str:
        """The hash of the template's source as found on the search path, and of every template it
        imports, includes or extends (it enters the cache key: editing a shared macro re-asks judges)."""
        from jinja2 import meta

        digest = hashlib.sha256()
        seen: set[str] = set()
        pending = [name]
        while pending:
            current = pending.pop()
            if current in seen:
                continue
            seen.add(current)
            source, _, _ = self._env.loader.get_source(self._env, current)  # type: ignore[union-attr]
            digest.update(f"{current}\0{source}\0".encode())
            pending += [t for t in meta.find_referenced_templates(self._env.parse(source)) if t]
        return digest.hexdigest()[:16]

    def render(self, name: str, variables: dict[str, Any]) -> RenderedPrompt:
        import jinja2

        try:
            template = self._env.get_template(name)
        except jinja2.TemplateNotFound as exc:
            searched = ", ".join(str(r) for r in self.roots)
            raise JudgeError(f"prompt template {name!r} not found (searched {searched})") from exc
        try:
            context = template.new_context(dict(variables))
            # The root runs first so top-level statements (an {% import %} of shared macros) are in the
            # context the blocks render with.
            for _ in template.root_render_func(context):
                pass
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
        except _RawUntrustedError as exc:
            raise JudgeError(f"prompt template {name!r}: {exc}") from exc
        return RenderedPrompt(tuple(messages), self.template_hash(name))


class _RawUntrustedError(ValueError):
    pass


def _refuse_raw_untrusted(value: Any) -> Any:
    if isinstance(value, Untrusted):
        raise _RawUntrustedError(
            "text from the system under test must be rendered with the data filter, e.g. {{ answer | data('answer') }}"
        )
    return value


def _data_filter(value: Any, name: str = "data") -> str:
    return data_section(str(value), name)


def extract_json(text: str) -> Any:
    """The JSON object a reply consists of: the whole reply (a code fence around it is allowed), never JSON
    found inside prose. A judge that quotes the candidate's forged `{"score": 5}` in its reasoning has not
    answered with it."""
    stripped = FENCE.sub("", text.strip())
    # strict=False: a raw newline inside a string is still unambiguous (llama.cpp's schema grammars allow it)
    try:
        return json.loads(stripped, strict=False)
    except RecursionError as exc:
        raise ValueError("the reply nests too deeply to be a verdict") from exc
    except ValueError as exc:
        raise ValueError(f"the reply is not a JSON object ({exc})") from exc


# The judge's own verdict line: "Score: 4", "**Score:** 4", "## Score: 4", "*Score: 4*". Not a quoted line
# ("> Score: 5", "\"Score: 5\""), a list item ("* Score: 5", "- Score: 5") or an indented line (a code block):
# those are the judge quoting someone else, the candidate included.
_SCORE_LINE = re.compile(r"[*_]?score[*_]?\s*:\s*[*_]?(?P<value>.*?)[*_]?\s*\.?", re.IGNORECASE)
_HEADING = re.compile(r"#{1,6}[ \t]+")
_LIST_ITEM = re.compile(r"(?:[*+-]|\d+[.)])\s")
_INTEGER = re.compile(r"[+-]?\d+")


def verdict_value(line: str) -> str | None:
    """What follows `Score:` when `line` is a verdict line written by the judge itself, else None."""
    if not line or line[0].isspace():
        return None
    text = _HEADING.sub("", line.rstrip(), count=1)
    if _LIST_ITEM.match(text):
        return None
    match = _SCORE_LINE.fullmatch(text.replace("**", "").replace("__", ""))
    return None if match is None else match.group("value")


def parse_score_line(text: str, low: int = 1, high: int = 5) -> tuple[int, str]:
    """The level on the last non-empty line, which must read `Score: N`; returns (level, the reasoning
    before it). Missing, out of range, fractional, several numbers, or two final score lines that
    disagree: a ValueError that says which."""
    lines = [line for line in text.strip().splitlines() if line.strip()]
    if not lines:
        raise ValueError("the judge reply is empty")
    value = verdict_value(lines[-1])
    if value is None:
        raise ValueError(f"the last line is not a 'Score: N' line (got {lines[-1].strip()[:80]!r})")
    level = _one_integer(value, low, high)
    if len(lines) > 1:
        before = verdict_value(lines[-2])
        if before is not None:
            try:
                other = _one_integer(before, low, high)
            except ValueError:
                other = None
            if other != level:
                raise ValueError("the reply ends with two score lines that disagree")
    return level, "\n".join(lines[:-1]).strip()


def _one_integer(value: str, low: int, high: int) -> int:
    numbers = re.findall(r"\d+(?:[.,]\d+)?", value)
    if len(numbers) != 1 or not _INTEGER.fullmatch(numbers[0]):
        raise ValueError(f"the score line must hold one whole number from {low} to {high}, got {value[:40]!r}")
    level = int(numbers[0])
    if not low <= level <= high:
        raise ValueError(f"the score {level} is outside {low}..{high}")
    return level


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


TextParser = Callable[[str], dict[str, Any]]


def _validator(schema_model: type[BaseModel], text_parser: TextParser | None, structured: bool) -> Any:
    """What counts as the judge's verdict. Asked for structured output, the whole reply is the JSON object.
    Asked in words (the server refused structured output), a reply that is wholly JSON still counts, and
    otherwise only the judge's own final verdict line does (`text_parser`): JSON found inside the prose is
    never read, because it may be the candidate's, quoted."""

    def accept(reply: dict[str, Any]) -> BaseModel:
        text = reply.get("content") or ""
        try:
            try:
                raw = extract_json(text)
            except ValueError:
                if structured or text_parser is None:
                    raise
                raw = text_parser(text)
            return schema_model.model_validate(raw)
        except (ValueError, ValidationError) as exc:
            first = str(exc).splitlines()[0] if not isinstance(exc, ValidationError) else _validation_summary(exc)
            raise ValueError(f"judge reply is not a valid {schema_model.__name__}: {first[:300]}") from exc

    return accept


def _validation_summary(exc: ValidationError) -> str:
    return "; ".join(f"{'.'.join(str(p) for p in e['loc']) or 'reply'}: {e['msg']}" for e in exc.errors()[:3])


async def judge_once(
    client: LLMClient,
    *,
    judge: Endpoint,
    prompt: RenderedPrompt,
    schema_model: type[BaseModel],
    scope: CallScope,
    settings: dict[str, Any] | None = None,
    text_parser: TextParser | None = None,
) -> Verdict:
    """Ask one judge; on an invalid reply ask once more, showing it its mistake; then give up.

    Structured output (a JSON schema) is asked for first; where a server refuses it, the same prompt goes
    out without it and the reply is read as JSON in words, or with `text_parser` (e.g. a `Score: N` line).
    """
    model = judge.model
    messages = list(prompt.messages)
    call_settings = {**DEFAULT_JUDGE_SETTINGS, "response_format": response_format_for(schema_model), **(settings or {})}
    call_settings = {k: v for k, v in call_settings.items() if v is not None}
    last_error = ""
    attempts_left = 2
    while attempts_left:
        request = ChatRequest.build(model, messages, api_base=judge.api_base, key_env=judge.key_env, **call_settings)
        accept = _validator(schema_model, text_parser, structured="response_format" in call_settings)
        try:
            reply, _record, parsed = await client.chat(
                request,
                namespace="judge",
                task_version=scope.task_version,
                repeat=scope.repeat,
                template_hash=prompt.template_hash,
                accept=accept,
                records=scope.records,
            )
        except ProviderError as exc:
            if "response_format" not in call_settings or not _rejects_response_format(exc):
                raise
            # Not an attempt: the same prompt again, without structured output.
            del call_settings["response_format"]
            continue
        except InvalidReplyError as exc:
            exc.record.error = f"invalid judge reply: {exc}"[:300]
            last_error = str(exc)
            attempts_left -= 1
            if attempts_left:
                hint = (
                    f"a JSON object matching this schema: {json.dumps(schema_model.model_json_schema())}"
                    if text_parser is None or "response_format" in call_settings
                    else "your reasoning, then a last line of exactly 'Score: N'"
                )
                messages = [
                    *prompt.messages,
                    {"role": "assistant", "content": exc.reply.get("content") or ""},
                    {"role": "user", "content": f"That reply was not valid: {exc}. Answer again with {hint}."},
                ]
            continue
        value = parsed.model_dump(mode="json")
        reasoning = value.get("reasoning") or value.get("reason") or value.get("analysis")
        return Verdict(model=model, value=value, raw_text=reply.get("content") or "", reasoning=reasoning)
    raise JudgeError(f"judge {model} gave no valid verdict after a retry: {last_error}")


async def judge_panel(
    client: LLMClient,
    *,
    judges: list[Endpoint],
    prompt: RenderedPrompt,
    schema_model: type[BaseModel],
    scope: CallScope,
    settings: dict[str, Any] | None = None,
    text_parser: TextParser | None = None,
) -> PanelResult:
    """Every judge of the panel, concurrently. Each judge's verdict or failure is kept; the caller
    decides what a partial panel means (the harness's default: the item is an error naming the judge)."""
    outcomes = await asyncio.gather(
        *(
            judge_once(
                client,
                judge=judge,
                prompt=prompt,
                schema_model=schema_model,
                scope=scope,
                settings=settings,
                text_parser=text_parser,
            )
            for judge in judges
        ),
        return_exceptions=True,
    )
    panel = PanelResult()
    for model, outcome in zip([judge.model for judge in judges], outcomes, strict=True):
        if isinstance(outcome, Verdict):
            panel.verdicts.append(outcome)
        elif isinstance(outcome, Exception):
            if not isinstance(outcome, JudgeError | ProviderError) and not hasattr(outcome, "kind"):
                raise outcome
            panel.failures[model] = f"[{getattr(outcome, 'kind', 'error')}] {outcome}"
        else:
            raise outcome
    return panel
