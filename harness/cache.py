"""Content-addressed call cache on diskcache, with JSON values only (never pickle).

The key is a pure function of everything that changes an answer (`key_parts`), so it can be shown and
compared part by part (`harness cache explain`). Each namespace (system under test, judges, embeddings)
is its own SQLite database, so clearing judges keeps paid-for answers. diskcache's `Cache` with a long
lock timeout is safe for many xdist workers on one directory (see docs/providers.md).
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import json
import os
import threading
import time
from collections.abc import AsyncIterator
from concurrent.futures import ThreadPoolExecutor
from enum import Enum
from pathlib import Path
from typing import Any

KEY_SCHEMA_VERSION = 1
NAMESPACES = ("sut", "judge", "embed")


class CacheMode(str, Enum):
    USE = "use"  # read, and write what is new
    REFRESH = "refresh"  # never read, always write: re-pay every call
    REPLAY = "replay"  # read only; a miss fails the item (deterministic, zero-cost CI)
    OFF = "off"  # neither read nor write

    @property
    def reads(self) -> bool:
        return self in (CacheMode.USE, CacheMode.REPLAY)

    @property
    def writes(self) -> bool:
        return self in (CacheMode.USE, CacheMode.REFRESH)


def canonical_json(value: Any) -> str:
    """One spelling per value: sorted keys, no spaces, UTF-8 kept (stable across runs and machines)."""
    return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False, default=str)


def normalize_endpoint(api_base: str | None) -> str:
    """The endpoint as it enters the key: no credentials, no trailing slash, lower-case scheme and host."""
    if not api_base:
        return "default"
    from harness.secrets import redact_url

    base = (redact_url(api_base.strip(), drop=True) or "").rstrip("/")
    if "://" in base:
        scheme, rest = base.split("://", 1)
        host, _, path = rest.partition("/")
        base = f"{scheme.lower()}://{host.lower()}" + (f"/{path}" if path else "")
    return base


def key_parts(
    namespace: str,
    *,
    model: str,
    api_base: str | None,
    payload: dict[str, Any],
    template_hash: str | None = None,
    task_version: int | None = None,
    repeat: int | None = 0,
) -> dict[str, Any]:
    """Everything that may change the answer of a call, and nothing else (no secrets, no timeouts).
    `repeat` None: a call made once per task whatever the repeat (e.g. a judge's rubric generation)."""
    return {
        "schema": KEY_SCHEMA_VERSION,
        "namespace": namespace,
        "model": model,
        "endpoint": normalize_endpoint(api_base),
        "payload": payload,
        "template_hash": template_hash,
        "task_version": task_version,
        "repeat": repeat,
    }


def part_hashes(parts: dict[str, Any]) -> dict[str, str]:
    """A hash of each key part (payload fields one by one), so two runs' keys can be compared part by part."""
    hashes = {}
    for name, value in parts.items():
        if name == "payload" and isinstance(value, dict):
            for sub, sub_value in value.items():
                hashes[f"payload.{sub}"] = _digest(sub_value)
        else:
            hashes[name] = _digest(value)
    return hashes


def cache_key(parts: dict[str, Any], hashes: dict[str, str] | None = None) -> str:
    """The content address of a call: a hash over the hashes of its parts (each part is serialized once)."""
    hashes = hashes if hashes is not None else part_hashes(parts)
    joined = "\n".join(f"{name}={digest}" for name, digest in sorted(hashes.items()))
    return hashlib.sha256(joined.encode("utf-8")).hexdigest()


def short_hashes(hashes: dict[str, str]) -> dict[str, str]:
    return {name: digest[:12] for name, digest in hashes.items()}


def _digest(value: Any) -> str:
    return hashlib.sha256(canonical_json(value).encode("utf-8")).hexdigest()


class CallCache:
    """The on-disk store. Values are JSON objects; a failed or invalid reply is never stored."""

    def __init__(self, directory: Path, mode: CacheMode = CacheMode.USE, *, shared: bool = False) -> None:
        self.directory = Path(directory)
        self.mode = mode
        # Other processes use this directory at the same time (xdist workers): identical calls are then
        # claimed across processes (`claim`); a lone process needs no lock files.
        self.shared = shared
        self._stores: dict[str, Any] = {}
        self._stores_lock = threading.Lock()
        self._claims_dir: Path | None = None
        # Writes handed to a writer thread (`store_later`): readable here at once, on disk moments later.
        self._pending: dict[tuple[str, str], dict[str, Any]] = {}
        self._writer: ThreadPoolExecutor | None = None
        self.write_errors: list[str] = []

    def _store(self, namespace: str) -> Any:
        if namespace not in NAMESPACES:
            raise ValueError(f"unknown cache namespace {namespace!r}; expected one of {NAMESPACES}")
        store = self._stores.get(namespace)
        if store is not None:
            return store
        with self._stores_lock:
            store = self._stores.get(namespace)
            if store is not None:
                return store
            import diskcache

            store = diskcache.Cache(
                str(self.directory / namespace),
                timeout=60,
                disk=diskcache.JSONDisk,
                disk_compress_level=1,
                size_limit=2**34,
                eviction_policy="least-recently-stored",
            )
            self._stores[namespace] = store
        return store

    def get(self, namespace: str, key: str) -> dict[str, Any] | None:
        if not self.mode.reads:
            return None
        pending = self._pending.get((namespace, key))
        if pending is not None:
            return pending
        value = self._store(namespace).get(key)
        return value if isinstance(value, dict) else None

    def peek(self, namespace: str, key: str) -> dict[str, Any] | None:
        """Read regardless of mode (for `harness cache explain`)."""
        value = self._store(namespace).get(key)
        return value if isinstance(value, dict) else None

    def get_many(self, namespace: str, keys: list[str]) -> list[dict[str, Any] | None]:
        """Several reads in one transaction (one lock, one pass), in the order of `keys`."""
        if not self.mode.reads or not keys:
            return [None] * len(keys)
        store = self._store(namespace)
        with store.transact():
            values = [store.get(key) for key in keys]
        return [v if isinstance(v, dict) else None for v in values]

    def set(self, namespace: str, key: str, value: dict[str, Any]) -> None:
        if not self.mode.writes:
            return
        entry = {**value, "stored_at": time.time()}
        if not self._store(namespace).set(key, entry):
            raise OSError(f"the cache refused to store an entry in {self.directory / namespace}")

    def store_later(self, namespace: str, key: str, value: dict[str, Any]) -> None:
        """Store without making the caller wait: the entry is readable through `get` at once and written by
        a writer thread moments later (the event loop goes on serving replies meanwhile). A failed write is
        kept in `write_errors` and reported with the run. When other processes share the directory, the
        write is synchronous: they look on disk as soon as the call's claim is released."""
        if not self.mode.writes:
            return
        if self.shared:
            self.set(namespace, key, value)
            return
        entry = {**value, "stored_at": time.time()}
        self._pending[(namespace, key)] = entry
        if self._writer is None:
            self._writer = ThreadPoolExecutor(max_workers=1, thread_name_prefix="harness-cache-writer")
        self._writer.submit(self._write_pending, namespace, key, entry)

    def _write_pending(self, namespace: str, key: str, entry: dict[str, Any]) -> None:
        try:
            if not self._store(namespace).set(key, entry):
                raise OSError(f"the cache refused to store an entry in {self.directory / namespace}")
        except Exception as exc:
            self.write_errors.append(f"{type(exc).__name__}: {exc}")
        finally:
            self._pending.pop((namespace, key), None)

    def flush(self) -> None:
        """Wait until every write handed to the writer thread is on disk."""
        if self._writer is not None:
            self._writer.shutdown(wait=True)
            self._writer = None

    def set_many(self, namespace: str, entries: dict[str, dict[str, Any]]) -> None:
        """Several writes in one transaction."""
        if not self.mode.writes or not entries:
            return
        store = self._store(namespace)
        now = time.time()
        with store.transact():
            for key, value in entries.items():
                if not store.set(key, {**value, "stored_at": now}):
                    raise OSError(f"the cache refused to store an entry in {self.directory / namespace}")

    @contextlib.asynccontextmanager
    async def claim(self, key: str, poll_s: float = 0.02) -> AsyncIterator[None]:
        """Hold the right to make call `key` across processes (xdist workers on one cache directory).

        While one process makes a call, another that wants the identical call waits here, then finds the
        reply in the cache: the call is paid once. A lock file per key, locked with flock (released by the
        kernel if the holder dies) and removed by its holder; a waiter that locked a removed file retries.
        Only in `use` mode (other modes neither share nor reuse answers) and only when the cache is shared
        with other processes (a lone process shares calls in flight in memory, at no cost).
        """
        if self.mode is not CacheMode.USE or not self.shared:
            yield
            return
        import fcntl

        if self._claims_dir is None:
            self._claims_dir = self.directory / "claims"
            self._claims_dir.mkdir(parents=True, exist_ok=True)
        path = self._claims_dir / key
        delay = poll_s
        while True:
            fd = os.open(path, os.O_CREAT | os.O_RDWR, 0o600)
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except BlockingIOError:
                os.close(fd)
                await asyncio.sleep(delay)
                delay = min(delay * 1.5, 0.25)
                continue
            try:
                same = os.fstat(fd).st_ino == os.stat(path).st_ino
            except FileNotFoundError:
                same = False
            if same:
                break
            os.close(fd)
        try:
            yield
        finally:
            with contextlib.suppress(FileNotFoundError):
                os.unlink(path)
            fcntl.flock(fd, fcntl.LOCK_UN)
            os.close(fd)

    def stats(self) -> dict[str, dict[str, int]]:
        """Entries and bytes per namespace."""
        out = {}
        for namespace in NAMESPACES:
            if not (self.directory / namespace).exists():
                out[namespace] = {"entries": 0, "bytes": 0}
                continue
            store = self._store(namespace)
            out[namespace] = {"entries": len(store), "bytes": int(store.volume())}
        return out

    def clear(self, namespaces: tuple[str, ...] = NAMESPACES) -> dict[str, int]:
        """Remove entries; returns how many went from each namespace."""
        removed = {}
        for namespace in namespaces:
            if not (self.directory / namespace).exists():
                removed[namespace] = 0
                continue
            removed[namespace] = int(self._store(namespace).clear())
        return removed

    def close(self) -> None:
        self.flush()
        for store in self._stores.values():
            store.close()
        self._stores.clear()
