"""The call cache shared by machines (--cache-url): a real redis-server behind the local cache directory.
The modes mean what they mean locally; a call two machines want is paid once; the --max-cost ledger is one
budget across machines; a server that cannot be used is one line before any call, and one that fails
mid-run fails the calls loudly instead of paying for them again."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path
from typing import Any

import pytest
from helpers import Project, stub_args
from redis_fixture import RedisServer, free_port, running_redis

from harness import redis_store
from harness.cache import CacheMode, CallCache
from harness.errors import BudgetExceededError, CacheUnavailableError, ConfigError
from harness.llm.budget import Budget
from harness.llm.client import ClientSettings, LLMClient
from harness.llm.request import ChatRequest
from harness.redis_store import RedisLedger, RedisStore, connect


def shared_cache(server: RedisServer, directory: Path, mode: CacheMode = CacheMode.USE) -> CallCache:
    url = server.url()
    return CallCache(directory, mode, remote=RedisStore(connect(url), url))


def test_entries_are_shared_and_read_through_the_local_directory(redis_server: RedisServer, tmp_path: Path) -> None:
    first = shared_cache(redis_server, tmp_path / "machine-1")
    first.store_later("sut", "k1", {"reply": {"content": "hello"}, "cost_usd": 0.5})
    first.set_many("embed", {"e1": {"vector": [0.1, 0.2]}, "e2": {"vector": [0.3]}})
    raw = redis_server.client().get("harness:v1:entry:sut:k1")
    assert json.loads(raw)["reply"] == {"content": "hello"}  # plain JSON, never pickle
    second = shared_cache(redis_server, tmp_path / "machine-2")
    assert second.get("sut", "k1")["reply"] == {"content": "hello"}
    assert [e and e["vector"] for e in second.get_many("embed", ["e1", "nope", "e2"])] == [[0.1, 0.2], None, [0.3]]
    assert second.local.get("sut", "k1") is not None  # copied into machine 2's own directory: the next read is local
    redis_server.client().flushdb()
    assert second.get("sut", "k1") is not None and second.get_many("embed", ["e1"])[0] is not None
    assert first.stats()["sut"]["entries"] == 0  # the shared store's count
    first.close()
    second.close()


def test_modes_mean_the_same_with_a_shared_store(redis_server: RedisServer, tmp_path: Path) -> None:
    shared_cache(redis_server, tmp_path / "a").set("judge", "k", {"v": 1})
    assert shared_cache(redis_server, tmp_path / "b", CacheMode.REPLAY).get("judge", "k")["v"] == 1
    assert shared_cache(redis_server, tmp_path / "c", CacheMode.REFRESH).get("judge", "k") is None
    assert shared_cache(redis_server, tmp_path / "d", CacheMode.OFF).get("judge", "k") is None
    for mode in (CacheMode.OFF, CacheMode.REPLAY):
        shared_cache(redis_server, tmp_path / "e", mode).set("judge", f"new-{mode.value}", {"v": 2})
    shared_cache(redis_server, tmp_path / "f", CacheMode.REFRESH).set("judge", "refreshed", {"v": 3})
    assert sorted(k.decode().rsplit(":", 1)[1] for k in redis_server.client().keys("harness:v1:entry:*")) == [
        "k",
        "refreshed",
    ]
    with pytest.raises(ValueError, match="unknown cache namespace"):
        shared_cache(redis_server, tmp_path / "g").get("other", "k")


def test_a_call_two_machines_want_is_paid_once(redis_server: RedisServer, tmp_path: Path, fresh_stub: Any) -> None:
    fresh_stub.control(latency_s=0.4, answers={"shared": "the answer"})
    messages = [{"role": "user", "content": "a shared question"}]
    request = ChatRequest.build("openai/stub", messages, api_base=fresh_stub.api_base, temperature=0)

    async def both() -> list[Any]:
        clients = [
            LLMClient(ClientSettings(retries=0), shared_cache(redis_server, tmp_path / f"machine-{n}")) for n in (1, 2)
        ]
        try:
            return await asyncio.gather(*(c.chat(request, namespace="sut") for c in clients))
        finally:
            for client in clients:
                await client.close()

    (first, first_record, _), (second, second_record, _) = asyncio.run(both())
    assert first["content"] == second["content"] == "the answer"
    assert sorted([first_record.cache_hit, second_record.cache_hit]) == [False, True]
    assert fresh_stub.stats()["requests"] == 1


def test_a_dead_holders_claim_lapses(redis_server: RedisServer, tmp_path: Path, monkeypatch: Any) -> None:
    cache = shared_cache(redis_server, tmp_path / "m")
    redis_server.client().set("harness:v1:claim:k", b"someone-who-died", px=300)  # never renewed

    async def take() -> None:
        async with cache.claim("k"):
            assert redis_server.client().get("harness:v1:claim:k") != b"someone-who-died"

    asyncio.run(asyncio.wait_for(take(), 5))
    assert redis_server.client().get("harness:v1:claim:k") is None  # released by its holder


def test_a_live_holder_renews_its_claim(redis_server: RedisServer, tmp_path: Path, monkeypatch: Any) -> None:
    monkeypatch.setattr(redis_store, "CLAIM_TTL_MS", 300)
    monkeypatch.setattr(redis_store, "HEARTBEAT_S", 0.05)
    cache = shared_cache(redis_server, tmp_path / "m")

    async def hold() -> None:
        async with cache.claim("k"):
            await asyncio.sleep(0.8)  # longer than the time to live: the heartbeat keeps it
            assert redis_server.client().get("harness:v1:claim:k") is not None

    asyncio.run(hold())


def test_one_budget_across_machines(redis_server: RedisServer) -> None:
    client = connect(redis_server.url())
    machines = [Budget(0.01, ledger=RedisLedger(client, "ci-run-7", redis_server.url())) for _ in range(3)]
    for budget in machines:
        budget.check()
        budget.add(0.004)
    assert machines[0].spent_usd == pytest.approx(0.012)
    with pytest.raises(BudgetExceededError, match="reached --max-cost"):
        machines[1].check()
    other_group = Budget(0.01, ledger=RedisLedger(client, "ci-run-8", redis_server.url()))
    other_group.check()  # another run group has a budget of its own
    assert 0 < redis_server.client().ttl("harness:v1:spend:ci-run-7") <= redis_store.LEDGER_TTL_S


def test_an_unusable_server_is_one_line(tmp_path: Path, fresh_stub: Any) -> None:
    with running_redis(tmp_path / "locked", password="redis-pw-1234") as locked:
        problems = {
            "refused": f"redis://127.0.0.1:{free_port()}/0",
            "wrong db": locked.url(db=99),
            "auth": locked.url(password="not-the-password"),
            "not a Redis": f"redis://127.0.0.1:{fresh_stub.port}/0",
        }
        messages = {}
        for name, url in problems.items():
            with pytest.raises(ConfigError) as caught:
                connect(url)
            messages[name] = str(caught.value)
    assert "cannot connect" in messages["refused"]
    assert "db 99 does not exist" in messages["wrong db"]
    assert "authentication failed" in messages["auth"]
    assert "does not speak Redis" in messages["not a Redis"]
    for message in messages.values():
        assert message.startswith("--cache-url redis://") and "\n" not in message
        assert "redis-pw-1234" not in message and "not-the-password" not in message


def test_a_read_only_replica_and_an_evicting_server_are_named(tmp_path: Path) -> None:
    """A replica refuses writes: say so (not "does not speak Redis"). A server that evicts keys when full could
    drop a claim or the ledger (a call paid twice): refused before any call, whatever evicting policy it has."""
    messages = {}
    setups = {
        "replica": ("--replicaof", "127.0.0.1", str(free_port())),  # a replica (of nobody here) is read-only
        "allkeys": ("--maxmemory", "64mb", "--maxmemory-policy", "allkeys-lru"),
        "volatile": ("--maxmemory", "64mb", "--maxmemory-policy", "volatile-ttl"),
    }
    for name, extra in setups.items():
        with running_redis(tmp_path / name, *extra) as server:
            with pytest.raises(ConfigError) as caught:
                connect(server.url())
            messages[name] = str(caught.value)
    assert "read-only replica" in messages["replica"] and "does not speak Redis" not in messages["replica"]
    assert "maxmemory-policy allkeys-lru" in messages["allkeys"] and "noeviction" in messages["allkeys"]
    assert "maxmemory-policy volatile-ttl" in messages["volatile"]
    assert all(m.startswith("--cache-url redis://") and "\n" not in m for m in messages.values())
    for extra in (("--maxmemory", "64mb", "--maxmemory-policy", "noeviction"), ("--maxmemory-policy", "allkeys-lru")):
        with running_redis(tmp_path / "fine", *extra) as server:  # refuses writes when full / never full: fine
            connect(server.url()).close()


def test_an_unusable_server_stops_the_run_before_any_call(project: Project, fresh_stub: Any) -> None:
    project.copy_sample()
    url = f"redis://:hunter2-secret@127.0.0.1:{free_port()}/0"
    out = project.pytest("evals/sample", *stub_args(fresh_stub), "--cache-url", url)
    assert out.returncode == 4, out.stdout[-2000:]
    assert "--cache-url redis://[REDACTED]@127.0.0.1" in out.stderr and "cannot connect" in out.stderr
    assert "hunter2-secret" not in out.stdout + out.stderr
    assert fresh_stub.stats()["requests"] == 0
    bad = project.pytest("evals/sample", *stub_args(fresh_stub), "--cache-url", "http://127.0.0.1:6379/0")
    assert bad.returncode == 4 and "--cache-url must be redis://" in bad.stderr


def test_a_server_that_fails_mid_run_fails_the_calls_loudly(tmp_path: Path, fresh_stub: Any) -> None:
    with running_redis(tmp_path / "r") as server:
        cache = shared_cache(server, tmp_path / "m")
        client = LLMClient(ClientSettings(retries=0), cache)
    # the server is gone now
    request = ChatRequest.build("openai/stub", [{"role": "user", "content": "anything"}], api_base=fresh_stub.api_base)
    with pytest.raises(CacheUnavailableError, match=r"shared cache .* failed") as caught:
        asyncio.run(client.chat(request, namespace="sut"))
    assert caught.value.kind == "cache"
    assert fresh_stub.stats()["requests"] == 0  # not paid as if it had missed


def test_harness_cache_stats_and_clear_the_shared_store(redis_server: RedisServer, tmp_path: Path, capsys: Any) -> None:
    from harness.cli import main

    cache = shared_cache(redis_server, tmp_path / "m")
    cache.set("sut", "k1", {"reply": {"content": "x"}})
    cache.set("judge", "k2", {"reply": {"content": "y"}})
    cache.close()
    where = ["--cache-dir", str(tmp_path / "m"), "--cache-url", redis_server.url()]
    assert main(["cache", "stats", *where, "--json"]) == 0
    stats = json.loads(capsys.readouterr().out)
    assert stats["sut"]["entries"] == 1 and stats["judge"]["entries"] == 1 and stats["sut"]["bytes"] > 0
    assert main(["cache", "clear", *where, "--namespace", "sut"]) == 0
    assert "cleared 1 entries from sut" in capsys.readouterr().out
    assert redis_server.client().keys("harness:v1:entry:sut:*") == []
    with pytest.raises(SystemExit) as refused:
        main(["cache", "stats", "--cache-url", f"redis://127.0.0.1:{free_port()}/0"])
    assert refused.value.code == 4 and "--cache-url" in capsys.readouterr().err


def estimate_fields(stdout: str) -> list[str]:
    (line,) = [line for line in stdout.splitlines() if line.startswith("sample ")]
    return line.split()


def test_an_estimate_on_a_fresh_machine_counts_what_other_machines_paid_for(
    project: Project, fresh_stub: Any, redis_server: RedisServer, tmp_path: Path
) -> None:
    """--estimate replays each item from the shared cache (no call can be made): a machine with no run and no
    cache of its own sees every call another machine paid for as cached; with another judge, the answers
    are still there but the judge's calls (which depend on them) are not."""
    project.copy_sample()
    shared = ["--cache-url", redis_server.url()]
    paid = project.pytest("evals/sample", *stub_args(fresh_stub), *shared, "--no-html").run["totals"]["calls"]
    fresh_stub.control(reset_stats=True)
    fresh = ["--cache-dir", str(tmp_path / "new-cache"), "--report-dir", str(tmp_path / "new-reports"), "--estimate"]
    out = project.pytest("evals/sample", *stub_args(fresh_stub), *shared, *fresh)
    assert out.returncode == 0, out.stdout[-2000:]
    fields = estimate_fields(out.stdout)
    assert int(fields[2]) == int(fields[3]) == paid and float(fields[6]) == 0  # all cached: nothing to pay
    assert "0 from earlier runs, 0 from defaults, 24 from the shared cache" in out.stdout
    other = project.pytest("evals/sample", *stub_args(fresh_stub, "--judge-model", "openai/stub-judge-2"), *shared,
                           *fresh)  # fmt: skip
    fields = estimate_fields(other.stdout)
    judged = 8  # evals/sample/judged.yaml: their answers are cached, their new judge's verdicts are not
    assert int(fields[3]) == paid - judged and int(fields[2]) >= paid
    assert "16 from the shared cache" in other.stdout
    assert fresh_stub.stats()["requests"] == 0 and not (tmp_path / "new-reports" / "LATEST").exists()
