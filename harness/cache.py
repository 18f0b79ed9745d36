"""Content-addressed call cache, with JSON values only (never pickle): diskcache on the local disk, and
with --cache-url a Redis shared by machines behind it (the stores: harness.cache_store, harness.redis_store).

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
import threading
import time
from collections.abc import AsyncIterator
from concurrent.futures import ThreadPoolExecutor
from enum import Enum
from pathlib import Path
from typing import Any

from harness.cache_store import NAMESPACES, DiskStore, LayeredStore, Store, check_namespace

__all__ = ["NAMESPACES", "CacheMode", "CallCache", "cache_key", "key_parts", "part_hashes", "short_hashes"]

KEY_SCHEMA_VERSION = 1


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
    # surrogatepass: a lone surrogate that slipped past every boundary still hashes (it never crashes a paid item)
    return hashlib.sha256(canonical_json(value).encode("utf-8", "surrogatepass")).hexdigest()


class CallCache:
    """The call cache: modes, time stamps and writes handed to a writer thread, over a store (the local
    disk, or the local disk in front of a shared Redis: harness.cache_store). Values are JSON objects; a
    failed or invalid reply is never stored."""

    def __init__(
        self, directory: Path, mode: CacheMode = CacheMode.USE, *, shared: bool = False, remote: Store | None = None
    ) -> None:
        self.directory = Path(directory)
        self.mode = mode
        self.local = DiskStore(self.directory)
        # `remote`: a store other machines read too (--cache-url); the local directory stays in front of it.
        self.remote = remote
        self.store: Store = self.local if remote is None else LayeredStore(self.local, remote)
        # Other processes use this cache at the same time (xdist workers, or other machines through the
        # remote store): identical calls are then claimed across processes (`claim`), and writes are made
        # before the claim is released. A lone process needs neither.
        self.shared = shared or remote is not None
        # Writes handed to a writer thread (`store_later`): readable here at once, on disk moments later.
        self._pending: dict[tuple[str, str], dict[str, Any]] = {}
        self._queue: list[tuple[str, str]] = []
        self._queue_lock = threading.Lock()
        self._draining = False
        self._writer: ThreadPoolExecutor | None = None
        self.write_errors: list[str] = []

    def get(self, namespace: str, key: str) -> dict[str, Any] | None:
        if not self.mode.reads:
            return None
        pending = self._pending.get((namespace, key))
        if pending is not None:
            return pending
        return self.store.get(namespace, key)

    def peek(self, namespace: str, key: str) -> dict[str, Any] | None:
        """Read regardless of mode (for `harness cache explain`)."""
        return self.store.get(namespace, key)

    def get_many(self, namespace: str, keys: list[str]) -> list[dict[str, Any] | None]:
        """Several reads in one transaction (one lock, one pass), in the order of `keys`."""
        if not self.mode.reads or not keys:
            return [None] * len(keys)
        return self.store.get_many(namespace, keys)

    def set(self, namespace: str, key: str, value: dict[str, Any]) -> None:
        if not self.mode.writes:
            return
        self.store.set(namespace, key, {**value, "stored_at": time.time()})

    def store_later(self, namespace: str, key: str, value: dict[str, Any]) -> None:
        """Store without making the caller wait: the entry is readable through `get` at once and written by
        a writer thread moments later (the event loop goes on serving replies meanwhile). A failed write is
        kept in `write_errors` and reported with the run. When other processes share the cache, the
        write is synchronous: they look for it as soon as the call's claim is released."""
        if not self.mode.writes:
            return
        if self.shared:
            self.set(namespace, key, value)
            return
        check_namespace(namespace)
        entry = {**value, "stored_at": time.time()}
        with self._queue_lock:
            self._pending[(namespace, key)] = entry
            self._queue.append((namespace, key))
            if self._draining:
                return  # the writer takes it with its next batch
            self._draining = True
            if self._writer is None:
                self._writer = ThreadPoolExecutor(max_workers=1, thread_name_prefix="harness-cache-writer")
            self._writer.submit(self._drain)

    def _drain(self) -> None:
        """Write what is queued, in one transaction per namespace, until the queue is empty: while one batch
        is written the next one gathers, so a busy run pays one commit per batch instead of one per call."""
        while True:
            with self._queue_lock:
                batch, self._queue = self._queue, []
                if not batch:
                    self._draining = False
                    return
                by_namespace: dict[str, dict[str, dict[str, Any]]] = {}
                for namespace, key in batch:
                    by_namespace.setdefault(namespace, {})[key] = self._pending[(namespace, key)]
            for namespace, entries in by_namespace.items():
                try:
                    self.store.set_many(namespace, entries)
                except Exception as exc:
                    self.write_errors.append(f"{type(exc).__name__}: {exc}")
                finally:
                    with self._queue_lock:
                        for key, entry in entries.items():
                            if self._pending.get((namespace, key)) is entry:
                                del self._pending[(namespace, key)]

    def flush(self) -> None:
        """Wait until every write handed to the writer thread is on disk."""
        if self._writer is not None:
            self._writer.shutdown(wait=True)
            self._writer = None

    def set_many(self, namespace: str, entries: dict[str, dict[str, Any]]) -> None:
        """Several writes in one transaction."""
        if not self.mode.writes or not entries:
            return
        now = time.time()
        self.store.set_many(namespace, {key: {**value, "stored_at": now} for key, value in entries.items()})

    @contextlib.asynccontextmanager
    async def claim(self, key: str, poll_s: float = 0.02, namespace: str | None = None) -> AsyncIterator[None]:
        """Hold the right to make call `key` across processes (xdist workers on one cache directory, or
        machines on one shared store).

        While one process makes a call, another that wants the identical call waits here, then finds the
        reply in the cache: the call is paid once. The store arbitrates (lock files on the local disk, keys
        with a time to live in Redis). Only in `use` mode (other modes neither share nor reuse answers). A
        process that believes itself alone takes the local lock file too: another run may start on the same
        cache directory at any time, and a call both want is then paid once.
        """
        if self.mode is not CacheMode.USE:
            yield
            return
        if self.shared:
            async with self.store.claim(key, poll_s):
                yield
            return
        # A lone process takes the local claim too (a lock file: microseconds), so that another run on the same
        # cache directory (two pytest runs at once) that wants this call waits for it instead of paying again.
        # Its writes stay batched: a run that waited reads the entry once the writer thread has put it there.
        started = time.monotonic()
        async with self.local.claim(key, poll_s):
            if namespace is not None and time.monotonic() - started >= poll_s:  # someone else held it
                await self._entry_written(namespace, key)
            yield

    async def _entry_written(self, namespace: str, key: str, patience_s: float = 2.0) -> None:
        """After waiting on another run's claim: give its batched write a moment to land (a call that
        failed there writes nothing, and this run then makes it)."""
        deadline = time.monotonic() + patience_s
        while self.store.get(namespace, key) is None and time.monotonic() < deadline:
            await asyncio.sleep(0.02)

    def stats(self) -> dict[str, dict[str, int]]:
        """Entries and bytes per namespace (of the shared store, when there is one)."""
        return self.store.stats()

    def clear(self, namespaces: tuple[str, ...] = NAMESPACES) -> dict[str, int]:
        """Remove entries; returns how many went from each namespace."""
        return self.store.clear(namespaces)

    def close(self) -> None:
        self.flush()
        self.store.close()
