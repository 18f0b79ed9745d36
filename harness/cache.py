"""Content-addressed call cache on diskcache, with JSON values only (never pickle).

The key is a pure function of everything that changes an answer (`key_parts`), so it can be shown and
compared part by part (`harness cache explain`). Each namespace (system under test, judges, embeddings)
is its own SQLite database, so clearing judges keeps paid-for answers. diskcache's `Cache` with a long
lock timeout is safe for many xdist workers on one directory (see docs/providers.md).
"""

from __future__ import annotations

import hashlib
import json
import time
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
    """The endpoint as it enters the key: no trailing slash, lower-case scheme and host."""
    if not api_base:
        return "default"
    base = api_base.strip().rstrip("/")
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
    repeat: int = 0,
) -> dict[str, Any]:
    """Everything that may change the answer of a call, and nothing else (no secrets, no timeouts)."""
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

    def __init__(self, directory: Path, mode: CacheMode = CacheMode.USE) -> None:
        self.directory = Path(directory)
        self.mode = mode
        self._stores: dict[str, Any] = {}

    def _store(self, namespace: str) -> Any:
        if namespace not in NAMESPACES:
            raise ValueError(f"unknown cache namespace {namespace!r}; expected one of {NAMESPACES}")
        store = self._stores.get(namespace)
        if store is None:
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
        value = self._store(namespace).get(key)
        return value if isinstance(value, dict) else None

    def peek(self, namespace: str, key: str) -> dict[str, Any] | None:
        """Read regardless of mode (for `harness cache explain`)."""
        value = self._store(namespace).get(key)
        return value if isinstance(value, dict) else None

    def set(self, namespace: str, key: str, value: dict[str, Any]) -> None:
        if not self.mode.writes:
            return
        entry = {**value, "stored_at": time.time()}
        if not self._store(namespace).set(key, entry):
            raise OSError(f"the cache refused to store an entry in {self.directory / namespace}")

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
        for store in self._stores.values():
            store.close()
        self._stores.clear()
