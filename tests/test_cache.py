"""The cache key covers everything that changes an answer and nothing secret; values are JSON only."""

from __future__ import annotations

import json
import multiprocessing
import sqlite3
import time
import zlib
from pathlib import Path
from typing import Any

import pytest

from harness.cache import CacheMode, CallCache, cache_key, key_parts, part_hashes
from harness.llm.request import ChatRequest

BASE = {
    "model": "openai/gpt-4.1",
    "api_base": "http://127.0.0.1:9/v1",
    "payload": {"messages": [{"role": "user", "content": "hi"}], "temperature": 0},
    "template_hash": "abc",
    "task_version": 1,
    "repeat": 0,
}


def key(**changes: object) -> str:
    args = {**BASE, **changes}
    return cache_key(key_parts("sut", **args))  # type: ignore[arg-type]


def test_key_is_stable_and_ignores_dict_order() -> None:
    reordered = {"temperature": 0, "messages": [{"content": "hi", "role": "user"}]}
    assert key() == key() == key(payload=reordered)


@pytest.mark.parametrize(
    "change",
    [
        {"model": "openai/gpt-4.1-mini"},
        {"api_base": "http://127.0.0.1:10/v1"},
        {"payload": {"messages": [{"role": "user", "content": "hi!"}], "temperature": 0}},
        {"payload": {"messages": [{"role": "user", "content": "hi"}], "temperature": 0.7}},
        {"payload": {"messages": [{"role": "user", "content": "hi"}], "temperature": 0, "seed": 1}},
        {"payload": {"messages": [{"role": "user", "content": "hi"}], "temperature": 0, "tools": [{"x": 1}]}},
        {
            "payload": {
                "messages": [{"role": "user", "content": "hi"}],
                "temperature": 0,
                "response_format": {"type": "json_object"},
            }
        },
        {"template_hash": "abd"},
        {"task_version": 2},
        {"repeat": 1},
    ],
)
def test_every_part_changes_the_key(change: dict[str, object]) -> None:
    assert key(**change) != key()


def test_namespace_separates_keys_and_endpoint_is_normalized() -> None:
    assert cache_key(key_parts("judge", **BASE)) != key()  # type: ignore[arg-type]
    assert key(api_base="HTTP://127.0.0.1:9/v1/") == key()


def test_unknown_settings_are_refused() -> None:
    with pytest.raises(ValueError, match="unknown call setting"):
        ChatRequest.build("m", [{"role": "user", "content": "x"}], mystery_knob=3)


def test_part_hashes_show_which_part_differs() -> None:
    a = part_hashes(key_parts("sut", **BASE))  # type: ignore[arg-type]
    b = part_hashes(key_parts("sut", **{**BASE, "repeat": 3}))  # type: ignore[arg-type]
    assert [k for k in a if a[k] != b[k]] == ["repeat"]


def test_values_are_stored_as_json_not_pickle(tmp_path: Path) -> None:
    cache = CallCache(tmp_path, CacheMode.USE)
    cache.set("sut", "k1", {"reply": {"content": "hello"}, "cost_usd": 0.5})
    assert cache.get("sut", "k1")["reply"] == {"content": "hello"}
    cache.close()
    rows = sqlite3.connect(tmp_path / "sut" / "cache.db").execute("SELECT key, value, mode FROM Cache").fetchall()
    assert len(rows) == 1
    stored_key, value, mode = rows[0]
    pickle_mode = 4  # diskcache's MODE_PICKLE
    assert mode != pickle_mode
    assert json.loads(zlib.decompress(stored_key)) == "k1"
    assert json.loads(zlib.decompress(value))["reply"] == {"content": "hello"}


def test_modes(tmp_path: Path) -> None:
    before = time.time()
    CallCache(tmp_path, CacheMode.USE).set("judge", "k", {"v": 1})
    entry = CallCache(tmp_path, CacheMode.REPLAY).get("judge", "k")
    assert entry is not None and entry["v"] == 1 and before <= entry["stored_at"] <= time.time()
    assert CallCache(tmp_path, CacheMode.REFRESH).get("judge", "k") is None
    assert CallCache(tmp_path, CacheMode.OFF).get("judge", "k") is None
    CallCache(tmp_path, CacheMode.OFF).set("judge", "new", {"v": 2})
    CallCache(tmp_path, CacheMode.REPLAY).set("judge", "new", {"v": 2})
    assert CallCache(tmp_path, CacheMode.USE).get("judge", "new") is None
    with pytest.raises(ValueError, match="unknown cache namespace"):
        CallCache(tmp_path).get("other", "k")


def _writer(directory: str, worker: int, count: int) -> None:
    cache = CallCache(Path(directory), CacheMode.USE)
    for i in range(count):
        cache.set("sut", f"shared-{i}", {"reply": {"i": i}, "by": worker})
        cache.set("sut", f"own-{worker}-{i}", {"reply": {"i": i}})
    cache.close()


def test_many_processes_share_one_directory(tmp_path: Path) -> None:
    context = multiprocessing.get_context("spawn")
    workers = [context.Process(target=_writer, args=(str(tmp_path), w, 100)) for w in range(8)]
    for w in workers:
        w.start()
    for w in workers:
        w.join(60)
        assert w.exitcode == 0
    cache = CallCache(tmp_path, CacheMode.USE)
    assert cache.stats()["sut"]["entries"] == 100 + 8 * 100
    assert all(cache.get("sut", f"own-{w}-{i}") is not None for w in range(8) for i in range(100))


@pytest.mark.parametrize("damage", ["pages overwritten", "header overwritten"])
def test_a_damaged_cache_database_is_one_line_with_its_remedy_before_any_call(
    project: Any, fresh_stub: Any, damage: str
) -> None:
    """Not an internal error per item: the run stops before any call, naming the file and what to do."""
    from helpers import stub_args

    project.copy_sample()
    first = project.pytest("evals/sample", *stub_args(fresh_stub), "-k", "capital")
    assert first.returncode in (0, 1) and first.run["totals"]["errors"] == 0
    database = project.cache_dir / "sut" / "cache.db"
    raw = bytearray(database.read_bytes())
    if damage == "pages overwritten":
        raw[4096:] = bytes((i * 37 + 11) % 251 for i in range(len(raw) - 4096))
    else:
        raw[:100] = b"not a database " * 6 + b"!" * 10
    database.write_bytes(bytes(raw))
    fresh_stub.control(reset_stats=True)
    again = project.pytest("evals/sample", *stub_args(fresh_stub), "-k", "capital")
    assert again.returncode == 4, again.stdout[-2000:]
    (line,) = [x for x in again.stderr.splitlines() if "cache database" in x]
    assert f"the cache database {database} is damaged" in line and f"mv {database} {database}.damaged" in line
    assert "--cache-mode off" in line and "Traceback" not in again.stderr
    assert fresh_stub.stats()["requests"] == 0


def test_the_cache_key_ignores_credentials_in_the_endpoint() -> None:
    from harness.cache import cache_key, key_parts

    def key(base: str) -> str:
        return cache_key(key_parts("sut", model="m", api_base=base, payload={"messages": []}))

    assert key("https://u:one@h.example/v1?api-key=1") == key("https://u:two@h.example/v1?api-key=2")
    assert key("https://h.example/v1") != key("https://other.example/v1")
    parts = key_parts("sut", model="m", api_base="https://u:secret-pw@h.example/v1?token=t0k", payload={})
    assert "secret-pw" not in json.dumps(parts) and "t0k" not in json.dumps(parts)
