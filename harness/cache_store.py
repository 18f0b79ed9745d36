"""Where the call cache keeps its entries: the store interface and the local store.

`harness.cache.CallCache` holds what every store shares (modes, time stamps, writes handed to a writer
thread); a store only keeps JSON entries by namespace and key, and arbitrates claims (the right to make a
call that other processes want too). Two stores: `DiskStore`, diskcache on the local disk (the default),
and `harness.redis_store.RedisStore`, shared by machines (--cache-url); `LayeredStore` puts the local one
in front of the shared one, so hits stay local and fast.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import threading
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any, Protocol

NAMESPACES = ("sut", "judge", "embed")


def check_namespace(namespace: str) -> None:
    if namespace not in NAMESPACES:
        raise ValueError(f"unknown cache namespace {namespace!r}; expected one of {NAMESPACES}")


class Store(Protocol):
    """JSON entries by (namespace, key). Writes raise when the store refuses them (never a silent loss)."""

    def get(self, namespace: str, key: str) -> dict[str, Any] | None: ...

    def get_many(self, namespace: str, keys: list[str]) -> list[dict[str, Any] | None]: ...

    def set(self, namespace: str, key: str, entry: dict[str, Any]) -> None: ...

    def set_many(self, namespace: str, entries: dict[str, dict[str, Any]]) -> None: ...

    def claim(self, key: str, poll_s: float = 0.02) -> contextlib.AbstractAsyncContextManager[None]: ...

    def stats(self) -> dict[str, dict[str, int]]: ...

    def clear(self, namespaces: tuple[str, ...] = NAMESPACES) -> dict[str, int]: ...

    def close(self) -> None: ...


DATABASE = "cache.db"  # diskcache's file in each namespace's folder
QUICK_CHECK_BYTES = 256 * 2**20  # past this size a database is only opened and read, not checked page by page


def damaged(path: Path, why: str) -> str:
    """One line: which cache database is damaged, and what to do about it."""
    why = " ".join(why.replace("*", " ").split())[:200]  # SQLite's report spans lines
    return (
        f"the cache database {path} is damaged ({why}): move it aside (mv {path} {path}.damaged; the answers "
        "in it are asked again) or run with --cache-mode off"
    )


def database_problem(directory: Path) -> str | None:
    """Whether a namespace's database under `directory` cannot be read (a disk fault, a copy cut short, a
    file overwritten): one line naming it and the remedy, before any call is paid; None when all are sound."""
    import sqlite3

    for namespace in NAMESPACES:
        path = Path(directory) / namespace / DATABASE
        if not path.is_file():
            continue
        try:
            with contextlib.closing(sqlite3.connect(f"file:{path}?mode=ro", uri=True, timeout=60)) as db:
                if path.stat().st_size <= QUICK_CHECK_BYTES:
                    verdict = db.execute("PRAGMA quick_check(1)").fetchone()[0]
                    if verdict != "ok":
                        return damaged(path, str(verdict))
                db.execute("SELECT count(*) FROM Cache").fetchone()
        except sqlite3.DatabaseError as exc:
            return damaged(path, str(exc))
    return None


def _entry(value: Any) -> dict[str, Any] | None:
    return value if isinstance(value, dict) else None


class DiskStore:
    """diskcache (SQLite) with JSONDisk, one database per namespace; claims are lock files (flock)."""

    def __init__(self, directory: Path) -> None:
        self.directory = Path(directory)
        self._stores: dict[str, Any] = {}
        self._stores_lock = threading.Lock()
        self._claims_dir: Path | None = None

    def _store(self, namespace: str) -> Any:
        check_namespace(namespace)
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
                cull_limit=0,  # no size check on every write: `close` culls once (16 GiB is far off)
            )
            self._stores[namespace] = store
        return store

    @contextlib.contextmanager
    def _named(self, namespace: str) -> Any:
        """A database fault (damaged during the run) is the item's `cache` error naming the file and the
        remedy, never an internal error with SQLite's words alone."""
        import sqlite3

        try:
            yield
        except sqlite3.DatabaseError as exc:
            from harness.errors import CacheUnavailableError

            raise CacheUnavailableError(damaged(self.directory / namespace / DATABASE, str(exc))) from None

    def get(self, namespace: str, key: str) -> dict[str, Any] | None:
        with self._named(namespace):
            return _entry(self._store(namespace).get(key))

    def get_many(self, namespace: str, keys: list[str]) -> list[dict[str, Any] | None]:
        """Several reads in one transaction (one lock, one pass), in the order of `keys`."""
        with self._named(namespace):
            store = self._store(namespace)
            with store.transact():
                values = [store.get(key) for key in keys]
        return [_entry(v) for v in values]

    def set(self, namespace: str, key: str, entry: dict[str, Any]) -> None:
        with self._named(namespace):
            stored = self._store(namespace).set(key, entry)
        if not stored:
            raise OSError(f"the cache refused to store an entry in {self.directory / namespace}")

    def set_many(self, namespace: str, entries: dict[str, dict[str, Any]]) -> None:
        with self._named(namespace):
            store = self._store(namespace)
            with store.transact():
                for key, entry in entries.items():
                    if not store.set(key, entry):
                        raise OSError(f"the cache refused to store an entry in {self.directory / namespace}")

    @contextlib.asynccontextmanager
    async def claim(self, key: str, poll_s: float = 0.02) -> AsyncIterator[None]:
        """A lock file per key in the cache directory, locked with flock (released by the kernel if the
        holder dies) and removed by its holder; a waiter that locked a removed file retries."""
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
        out = {}
        for namespace in NAMESPACES:
            if not (self.directory / namespace).exists():
                out[namespace] = {"entries": 0, "bytes": 0}
                continue
            store = self._store(namespace)
            out[namespace] = {"entries": len(store), "bytes": int(store.volume())}
        return out

    def clear(self, namespaces: tuple[str, ...] = NAMESPACES) -> dict[str, int]:
        removed = {}
        for namespace in namespaces:
            if not (self.directory / namespace).exists():
                removed[namespace] = 0
                continue
            removed[namespace] = int(self._store(namespace).clear())
        return removed

    def close(self) -> None:
        for store in self._stores.values():
            with contextlib.suppress(Exception):  # a cull that cannot run now runs at the next close
                store.cull()
            store.close()
        self._stores.clear()


class LayeredStore:
    """The local store in front of a shared one: reads try the local disk first and copy what the shared
    store had into it (the next read is local); writes go to both, the shared one last, so that once a
    write returns, every machine can read the entry. Claims are the shared store's (across machines)."""

    def __init__(self, local: DiskStore, shared: Store) -> None:
        self.local = local
        self.shared = shared

    def get(self, namespace: str, key: str) -> dict[str, Any] | None:
        entry = self.local.get(namespace, key)
        if entry is None:
            entry = self.shared.get(namespace, key)
            if entry is not None:
                with contextlib.suppress(OSError):  # only a local copy: the shared store has it
                    self.local.set(namespace, key, entry)
        return entry

    def get_many(self, namespace: str, keys: list[str]) -> list[dict[str, Any] | None]:
        entries = self.local.get_many(namespace, keys)
        missing = [i for i, entry in enumerate(entries) if entry is None]
        if missing:
            found = self.shared.get_many(namespace, [keys[i] for i in missing])
            fill = {}
            for i, entry in zip(missing, found, strict=True):
                if entry is not None:
                    entries[i] = fill[keys[i]] = entry
            if fill:
                with contextlib.suppress(OSError):
                    self.local.set_many(namespace, fill)
        return entries

    def set(self, namespace: str, key: str, entry: dict[str, Any]) -> None:
        self.local.set(namespace, key, entry)
        self.shared.set(namespace, key, entry)

    def set_many(self, namespace: str, entries: dict[str, dict[str, Any]]) -> None:
        self.local.set_many(namespace, entries)
        self.shared.set_many(namespace, entries)

    def claim(self, key: str, poll_s: float = 0.02) -> contextlib.AbstractAsyncContextManager[None]:
        return self.shared.claim(key, poll_s)

    def stats(self) -> dict[str, dict[str, int]]:
        return self.shared.stats()

    def clear(self, namespaces: tuple[str, ...] = NAMESPACES) -> dict[str, int]:
        self.local.clear(namespaces)
        return self.shared.clear(namespaces)

    def close(self) -> None:
        self.local.close()
        self.shared.close()
