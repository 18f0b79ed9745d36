"""The provider layer against a real OpenAI-compatible server on 127.0.0.1, through both routes.

Every test runs twice: through the lean aiohttp client and through litellm. Both must give the same
replies, the same cache keys and the same call records.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from pydantic import BaseModel

from harness.cache import CacheMode, CallCache
from harness.errors import BudgetExceededError, CacheMissError, JudgeError, ProviderError
from harness.judge import PromptLibrary, judge_once
from harness.llm.client import Budget, ClientSettings, LLMClient
from harness.llm.endpoint import Endpoint, ModelName
from harness.llm.pricing import Price
from harness.llm.records import CallRecord
from harness.llm.request import ChatRequest, EmbeddingRequest
from harness.solvers import CallScope, ModelSolver
from harness.testing import StubProcess
from harness.tools import resolve_tools

MODEL = "openai/stub-sut"


@pytest.fixture(params=["openai", "litellm"])
def route(request: pytest.FixtureRequest) -> str:
    return str(request.param)


@pytest.fixture
def server(fresh_stub: StubProcess) -> Iterator[StubProcess]:
    fresh_stub.control(answers={"capital of France": "Paris"})
    yield fresh_stub


def make_client(tmp_path: Path, route: str, mode: CacheMode = CacheMode.USE, **settings: Any) -> LLMClient:
    options = {"retries": 3, "retry_backoff_s": 0.01, "timeout_s": 5.0, "route": route, **settings}
    return LLMClient(ClientSettings(**options), CallCache(tmp_path / "cache", mode))


def ask(client: LLMClient, server: StubProcess, text: str = "What is the capital of France?", **kw: Any) -> Any:
    request = ChatRequest.build(MODEL, [{"role": "user", "content": text}], api_base=server.api_base, temperature=0)

    async def go() -> Any:
        try:
            return await client.chat(request, namespace="sut", task_version=1, **kw)
        finally:
            await client.close()

    return asyncio.run(go())


def comparable(record: CallRecord) -> dict[str, Any]:
    return {k: v for k, v in record.to_json().items() if k != "latency_s"}


def test_both_routes_give_the_same_reply_key_and_record(tmp_path: Path, server: StubProcess) -> None:
    seen = {}
    for route_name in ("openai", "litellm"):
        client = make_client(tmp_path / route_name, route_name)
        reply, record, _ = ask(client, server)
        seen[route_name] = (reply["content"], comparable(record))
    assert seen["openai"] == seen["litellm"]
    content, record = seen["openai"]
    assert content == "Paris"
    assert record["input_tokens"] > 0 and record["output_tokens"] > 0
    assert record["attempts"] == 1 and record["cache_hit"] is False and record["error"] is None
    assert record["cost_usd"] is None  # nobody knows the stub's price: unknown, not zero


def test_second_call_is_a_cache_hit_and_never_reaches_the_server(
    tmp_path: Path, server: StubProcess, route: str
) -> None:
    ask(make_client(tmp_path, route), server)
    before = server.stats()["requests"]
    reply, record, _ = ask(make_client(tmp_path, route), server)
    assert record.cache_hit and reply["content"] == "Paris"
    assert server.stats()["requests"] == before


@pytest.mark.parametrize("fault", ["429", "500", "timeout", "malformed"])
def test_transient_faults_are_retried(tmp_path: Path, server: StubProcess, route: str, fault: str) -> None:
    server.control(script=[fault, "ok"], hang_s=3.0)
    client = make_client(tmp_path, route, timeout_s=0.5)
    reply, record, _ = ask(client, server)
    assert reply["content"] == "Paris"
    assert record.attempts == 2
    assert server.stats()["by_fault"] == {fault: 1}


def test_retry_after_is_honoured(tmp_path: Path, server: StubProcess, route: str) -> None:
    server.control(script=["429", "ok"], retry_after_s=0.6)
    _, record, _ = ask(make_client(tmp_path, route), server)
    assert record.attempts == 2
    assert record.waited_s == 0.6  # the server's wish, not the jittered backoff (0.005-0.01 s here)


def test_persistent_failure_is_an_error_and_is_not_cached(tmp_path: Path, server: StubProcess, route: str) -> None:
    server.control(script=["500", "500", "500"])
    sink: list[CallRecord] = []
    with pytest.raises(ProviderError, match="gave up after 3 attempts"):
        ask(make_client(tmp_path, route, retries=2), server, records=sink)
    assert sink and sink[-1].error is not None and sink[-1].attempts == 3
    _, record, _ = ask(make_client(tmp_path, route), server)
    assert not record.cache_hit and record.attempts == 1


def test_client_errors_are_not_retried(tmp_path: Path, server: StubProcess, route: str) -> None:
    server.control(script=["400", "ok"])
    with pytest.raises(ProviderError) as caught:
        ask(make_client(tmp_path, route), server)
    assert caught.value.attempts == 1
    assert server.stats()["requests"] == 1


def test_replay_mode_fails_on_a_miss_and_serves_hits(tmp_path: Path, server: StubProcess, route: str) -> None:
    with pytest.raises(CacheMissError, match="replay"):
        ask(make_client(tmp_path, route, CacheMode.REPLAY), server)
    assert server.stats()["requests"] == 0
    ask(make_client(tmp_path, route), server)
    _, record, _ = ask(make_client(tmp_path, route, CacheMode.REPLAY), server)
    assert record.cache_hit


def test_identical_calls_in_flight_share_one_request(tmp_path: Path, server: StubProcess, route: str) -> None:
    server.control(latency_s=0.3)
    client = make_client(tmp_path, route)
    request = ChatRequest.build(MODEL, [{"role": "user", "content": "same"}], api_base=server.api_base)

    async def go() -> list[Any]:
        try:
            return await asyncio.gather(*(client.chat(request, namespace="sut") for _ in range(5)))
        finally:
            await client.close()

    results = asyncio.run(go())
    assert server.stats()["requests"] == 1
    assert sum(not r[1].cache_hit for r in results) == 1


def test_budget_stops_new_calls_once_spent(tmp_path: Path, server: StubProcess, route: str) -> None:
    prices = {MODEL: Price(1.0, 1.0)}  # a dollar a token: the first call spends the budget
    client = make_client(tmp_path, route, user_prices=prices, max_cost_usd=0.5)
    client.budget = Budget(0.5)
    _, record, _ = ask(client, server, text="first")
    assert record.cost_usd and record.cost_usd > 0.5
    with pytest.raises(BudgetExceededError, match="max-cost"):
        ask(client, server, text="second")
    assert server.stats()["requests"] == 1


def test_tool_calls_round_trip_through_the_tool_loop(tmp_path: Path, server: StubProcess, route: str) -> None:
    server.control(tool_calls={"compute": {"name": "calculator", "arguments": {"expression": "6 * 7"}}})
    client = make_client(tmp_path, route)
    solver = ModelSolver(client, Endpoint(MODEL, server.api_base))
    records: list[CallRecord] = []

    async def go() -> Any:
        try:
            return await solver.solve(
                "Please compute 6 times 7.",
                system=None,
                tools=resolve_tools(["calculator"]),
                scope=CallScope(task_version=1, repeat=0, records=records),
            )
        finally:
            await client.close()

    answer = asyncio.run(go())
    assert answer.text == "42" and answer.steps == 2
    (step,) = answer.tool_calls
    assert step["tool"] == "calculator" and json.loads(step["arguments"]) == {"expression": "6 * 7"}
    assert '"result": 42' in step["result_preview"] and len(step["result_digest"]) == 16
    assert answer.stopped is None and len(records) == 2


def test_the_tool_loop_stops_at_its_step_limit_and_token_budget(tmp_path: Path, server: StubProcess) -> None:
    from harness.solvers import LoopLimits

    # a model that calls the calculator forever
    server.control(tool_calls={"again": [{"name": "calculator", "arguments": {"expression": "1 + 1"}}] * 50})
    client = make_client(tmp_path, "openai")
    solver = ModelSolver(client, Endpoint(MODEL, server.api_base))

    async def go(limits: LoopLimits) -> Any:
        scope = CallScope(task_version=1, repeat=0, records=[])
        return await solver.solve(
            "again and again", system=None, tools=resolve_tools(["calculator"]), scope=scope, limits=limits
        )

    async def both() -> tuple[Any, Any]:
        try:
            return await go(LoopLimits(max_steps=3)), await go(LoopLimits(max_steps=50, token_budget=60))
        finally:
            await client.close()

    steps, tokens = asyncio.run(both())
    # three turns of tool calls, then one last turn without tools to answer in
    assert steps.stopped == "step_limit" and steps.steps == 4 and len(steps.tool_calls) == 3
    assert steps.text == "2"  # in its last turn, the stub answers with the calculator's result
    assert tokens.stopped == "token_budget" and tokens.tokens >= 60 and tokens.steps < 50 and tokens.text


class Grade(BaseModel):
    reasoning: str
    grade: str


def test_judge_validates_structured_output_and_fails_loudly_on_garbage(
    tmp_path: Path, server: StubProcess, route: str
) -> None:
    prompts = tmp_path / "prompts"
    prompts.mkdir()
    (prompts / "g.j2").write_text("{% block user %}Grade: {{ answer }}{% endblock %}")
    library = PromptLibrary([prompts])
    client = make_client(tmp_path, route)
    records: list[CallRecord] = []

    async def go(answer: str) -> Any:
        return await judge_once(
            client,
            judge=Endpoint("openai/stub-judge", server.api_base),
            prompt=library.render("g.j2", {"answer": answer}),
            schema_model=Grade,
            scope=CallScope(task_version=1, repeat=0, records=records),
        )

    async def both() -> tuple[Any, Any]:
        try:
            good = await go("fine")
            server.control(default_answer="not json at all")

            class Strict(BaseModel):
                must_be_number: int

            bad: Any
            try:
                bad = await judge_once(
                    client,
                    judge=Endpoint("openai/stub-judge", server.api_base),
                    prompt=library.render("g.j2", {"answer": "x"}),
                    schema_model=Strict,
                    scope=CallScope(task_version=1, repeat=0, records=records),
                    settings={"response_format": None},
                )
            except JudgeError as exc:
                bad = exc
            return good, bad
        finally:
            await client.close()

    good, bad = asyncio.run(both())
    assert good.value["grade"] and good.value["reasoning"] and good.model == "openai/stub-judge"
    assert isinstance(bad, JudgeError) and "after a retry" in str(bad)
    assert [r.error is not None for r in records] == [False, True, True]
    cache = CallCache(tmp_path / "cache")
    assert all(cache.peek("judge", r.key) is None for r in records[1:]), "invalid verdicts must not be cached"


def test_embeddings_are_cached_per_text(tmp_path: Path, server: StubProcess) -> None:
    client = make_client(tmp_path, "openai")

    async def go(texts: tuple[str, ...]) -> Any:
        return await client.embed(EmbeddingRequest("openai/stub-embed", texts, server.api_base))

    async def run() -> Any:
        try:
            first = await go(("a", "b"))
            second = await go(("b", "c"))
            return first, second
        finally:
            await client.close()

    (first, r1), (second, _) = asyncio.run(run())
    assert first[1] == second[0] and len(second) == 2
    assert not r1.cache_hit
    assert server.stats()["embedded_texts"] == ["a", "b", "c"]  # "b" came from the cache the second time


def test_embeddings_in_flight_are_shared_and_duplicates_embedded_once(tmp_path: Path, server: StubProcess) -> None:
    server.control(latency_s=0.3)
    client = make_client(tmp_path, "openai")

    async def run() -> Any:
        try:
            request = lambda texts: EmbeddingRequest("openai/stub-embed", texts, server.api_base)  # noqa: E731
            return await asyncio.gather(
                client.embed(request(("x", "y", "x"))), client.embed(request(("y", "z"))), client.embed(request(("x",)))
            )
        finally:
            await client.close()

    (a, _), (b, _), (c, _) = asyncio.run(run())
    assert a[0] == a[2] == c[0] and a[1] == b[0] and len(b) == 2
    assert sorted(server.stats()["embedded_texts"]) == ["x", "y", "z"]


def test_local_embeddings_through_the_client_are_cached(tmp_path: Path) -> None:
    pytest.importorskip("tokenizers")
    client = make_client(tmp_path, "auto")
    request = EmbeddingRequest("local/all-minilm-l6-v2", ("a short sentence", "another one"))

    async def go() -> Any:
        try:
            return await client.embed(request), await client.embed(request)
        finally:
            await client.close()

    (vectors, first), (again, second) = asyncio.run(go())
    assert len(vectors) == 2 and len(vectors[0]) == 384
    assert sum(x * x for x in vectors[0]) == pytest.approx(1.0, abs=1e-4)
    assert not first.cache_hit and first.input_tokens > 0 and first.cost_usd == 0
    assert second.cache_hit and again == vectors


def test_the_embedded_engines_revision_is_part_of_the_key(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A new default reply cap (or new weights) must not serve replies cached under the old one."""
    pytest.importorskip("llama_cpp")
    import harness.llm.client as client_module

    request = ChatRequest.build("local/smollm2", [{"role": "user", "content": "Say hi."}], temperature=0, max_tokens=4)

    def call() -> CallRecord:
        client = make_client(tmp_path, "auto")

        async def go() -> CallRecord:
            try:
                return (await client.chat(request, namespace="sut", task_version=1))[1]
            finally:
                await client.close()

        return asyncio.run(go())

    first, again = call(), call()
    monkeypatch.setattr(client_module, "ENGINE_REVISION", "another-gguf;n_ctx=2048;default_max_tokens=1024")
    changed = call()
    assert not first.cache_hit and again.cache_hit and again.key == first.key
    assert not changed.cache_hit and changed.key != first.key


def test_openai_without_a_key_fails_at_once_with_a_clear_message(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    for name in ("OPENAI_API_KEY", "OPENAI_BASE_URL", "OPENAI_API_BASE"):
        monkeypatch.delenv(name, raising=False)
    client = make_client(tmp_path, "auto")
    request = ChatRequest.build("openai/gpt-4.1", [{"role": "user", "content": "hi"}])

    async def go() -> Any:
        try:
            return await client.chat(request, namespace="sut")
        finally:
            await client.close()

    with pytest.raises(ProviderError, match="OPENAI_API_KEY is not set") as caught:
        asyncio.run(go())
    assert caught.value.attempts == 1


def test_a_shared_call_that_fails_leaves_a_record_for_every_waiter(
    tmp_path: Path, server: StubProcess, route: str
) -> None:
    server.control(latency_s=0.2, script=["400"])
    client = make_client(tmp_path, route)
    request = ChatRequest.build(MODEL, [{"role": "user", "content": "same"}], api_base=server.api_base)
    sinks: list[list[CallRecord]] = [[], [], []]

    async def go() -> list[Any]:
        try:
            calls = (client.chat(request, namespace="sut", records=sink) for sink in sinks)
            return await asyncio.gather(*calls, return_exceptions=True)
        finally:
            await client.close()

    outcomes = asyncio.run(go())
    assert all(isinstance(o, ProviderError) for o in outcomes)
    assert server.stats()["requests"] == 1
    assert all(len(sink) == 1 and sink[0].error for sink in sinks)


def test_embedding_dimensions_reach_the_provider_and_the_key(tmp_path: Path, server: StubProcess) -> None:
    client = make_client(tmp_path, "openai")

    async def go() -> Any:
        try:
            short = await client.embed(EmbeddingRequest("openai/stub-embed", ("a",), server.api_base, dimensions=4))
            default = await client.embed(EmbeddingRequest("openai/stub-embed", ("a",), server.api_base))
            return short, default
        finally:
            await client.close()

    (short, _), (default, second) = asyncio.run(go())
    assert len(short[0]) == 4 and len(default[0]) == 8
    assert not second.cache_hit, "another vector length is another cache entry"


def test_messages_go_on_the_wire_in_the_form_strict_servers_accept() -> None:
    """llama-cpp-python's server refuses `"content": null` on a tool-calling assistant turn and lists of
    text parts outside user turns; OpenAI accepts both forms. The request (and its cache key) keep what
    the caller wrote; only the wire form changes."""
    from harness.llm.transports import wire_messages

    call = {"id": "c1", "type": "function", "function": {"name": "search", "arguments": "{}"}}
    image = [{"type": "image_url", "image_url": {"url": "data:,"}}, {"type": "text", "text": "what is this?"}]
    asked = (
        {"role": "system", "content": [{"type": "text", "text": "Be "}, {"type": "text", "text": "brief."}]},
        {"role": "user", "content": image},
        {"role": "assistant", "content": None, "tool_calls": [call]},
        {"role": "tool", "tool_call_id": "c1", "content": [{"type": "text", "text": '{"results": []}'}]},
    )
    sent = wire_messages(asked)
    assert sent[0]["content"] == "Be brief." and sent[1]["content"] == image  # user parts may be images: kept
    assert sent[2] == {"role": "assistant", "content": "", "tool_calls": [call]}
    assert sent[3]["content"] == '{"results": []}'
    assert asked[2]["content"] is None  # the caller's messages are not changed


def test_a_call_shared_across_processes_is_stored_before_its_claim_is_released(
    tmp_path: Path, server: StubProcess
) -> None:
    """Two processes (here: two clients, each with its own loop in its own thread, on one shared cache
    directory) want the same call. The first pays; its reply must be in the cache before the second gets
    the claim, however long the first takes to check the reply, or the second pays again."""
    import threading
    import time

    server.control(latency_s=0.2, reset_stats=True)
    results: list[Any] = []

    def slow_accept(reply: dict[str, Any]) -> str:
        time.sleep(0.5)  # a slow check (a judge's validation) between the call and its storing
        return str(reply["content"])

    def process() -> None:
        client = LLMClient(
            ClientSettings(retries=0, timeout_s=5.0, route="openai"),
            CallCache(tmp_path / "cache", CacheMode.USE, shared=True),
        )
        results.append(ask(client, server, accept=slow_accept))

    threads = [threading.Thread(target=process) for _ in range(2)]
    for thread in threads:
        thread.start()
        time.sleep(0.05)
    for thread in threads:
        thread.join(30)
    assert [parsed for _, _, parsed in results] == ["Paris", "Paris"]
    assert sorted(record.cache_hit for _, record, _ in results) == [False, True]
    assert server.stats()["requests"] == 1


@pytest.mark.parametrize(
    ("text", "provider", "name", "embedded"),
    [
        ("openai/gpt-4.1-mini", "openai", "gpt-4.1-mini", False),
        ("openrouter/meta/llama-3", "openrouter", "meta/llama-3", False),
        ("local/smollm2", "local", "smollm2", True),
        ("gpt-4o", None, "gpt-4o", False),
        ("localhost-model", None, "localhost-model", False),
    ],
)
def test_a_model_name_is_read_once(text: str, provider: str | None, name: str, embedded: bool) -> None:
    model = ModelName(text)
    assert (model.provider, model.name, model.embedded, str(model)) == (provider, name, embedded, text)
