"""The call cache shared by machines (--cache-url): entries, claims and the --max-cost ledger in Redis 6+
or Valkey.

- Entries: `harness:v1:entry:<namespace>:<key>` holds the same JSON entry the local cache holds (the
  reply, its cost and the key's parts: never a key or a credential, by the same construction).
- Claims: `harness:v1:claim:<key>`, set only if absent, with a time to live that its holder renews (a
  heartbeat) while it makes the call; a holder that dies stops renewing and the claim lapses, so a waiter
  takes over. A call shared by two machines is paid once: the other waits for the claim, then reads the
  entry.
- The ledger: `harness:v1:spend:<group>`, micro-dollars added atomically (INCRBY) by every shard.

A server that cannot be used (refused, wrong db, failed authentication, not a Redis, too old, read-only,
or one that evicts keys when full) is one line naming --cache-url before anything runs (`connect`); one
that fails during the run makes the affected calls fail as harness errors (`CacheUnavailableError`), never
a silent miss that pays again.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import secrets
from collections.abc import AsyncIterator, Iterator
from typing import TYPE_CHECKING, Any

from harness.cache_store import NAMESPACES, check_namespace
from harness.errors import CacheUnavailableError, ConfigError
from harness.secrets import redact_url

if TYPE_CHECKING:
    from harness.settings import Settings

PREFIX = "harness:v1"
CLAIM_TTL_MS = 20_000  # a dead holder's claim lapses after this long
HEARTBEAT_S = 5.0  # a live holder renews its claim this often
LEDGER_TTL_S = 30 * 86_400  # a run group's spend is forgotten a month after its last call
MIN_VERSION = (6, 0)
TIMEOUT_S = 5.0

_RELEASE = "if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('del', KEYS[1]) else return 0 end"
_RENEW = (
    "if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('pexpire', KEYS[1], ARGV[2]) else return 0 end"
)
_PLACES = "expected redis://[[user]:password@]host[:port][/db], rediss://... (TLS) or unix:///path?db=N"


def connect(url: str, *, timeout_s: float = TIMEOUT_S) -> Any:
    """A client for `url`, checked before any call is paid: it answers, it is Redis 6+ (or Valkey), the db
    exists, the credentials work, it evicts nothing when full and it accepts writes. Any problem is one
    ConfigError line."""
    import redis

    shown = redact_url(url)
    try:
        client = redis.Redis.from_url(url, socket_timeout=timeout_s, socket_connect_timeout=timeout_s)
    except (ValueError, TypeError) as exc:
        raise ConfigError(f"--cache-url {shown}: {exc}; {_PLACES}") from None
    try:
        client.ping()
        info = client.info("server")
        _check_version(info, shown)
        _check_eviction(client.info("memory"), shown)
        probe = f"{PREFIX}:probe:{secrets.token_hex(8)}"
        client.set(probe, b"1", px=10_000)
        client.delete(probe)
    except ConfigError:
        client.close()
        raise
    except redis.RedisError as exc:
        client.close()
        raise ConfigError(f"--cache-url {shown}: {_problem(exc, client)}") from None
    return client


def _check_version(info: dict[str, Any], shown: str) -> None:
    text = str(info.get("redis_version", "0"))
    try:
        version = tuple(int(part) for part in text.split(".")[:2])
    except ValueError:
        version = (0, 0)
    if version < MIN_VERSION:
        raise ConfigError(f"--cache-url {shown}: the server is Redis {text}; the shared cache needs Redis 6+ or Valkey")


def _check_eviction(info: dict[str, Any], shown: str) -> None:
    """Refuse a server that evicts keys when it reaches maxmemory: an `allkeys-*` policy may drop anything,
    a `volatile-*` one drops keys with a time to live first, which are exactly the claims and the --max-cost
    ledger. A dropped claim pays a call twice; a dropped ledger restarts the budget. `noeviction` (Redis's
    default) refuses writes instead, which the run reports as `cache` errors. Without maxmemory nothing is
    evicted, whatever the policy. A server that does not say (a proxy hiding INFO's memory section) passes."""
    policy = str(info.get("maxmemory_policy", "noeviction"))
    try:
        limit = int(info.get("maxmemory", 0) or 0)
    except (TypeError, ValueError):
        limit = 0
    if limit > 0 and policy.startswith(("allkeys-", "volatile-")):
        size = info.get("maxmemory_human") or f"{limit} bytes"
        raise ConfigError(
            f"--cache-url {shown}: the server evicts keys when full (maxmemory {size}, maxmemory-policy {policy}), "
            "which can drop a call's claim or the --max-cost ledger and pay twice; set maxmemory-policy noeviction"
        )


def _problem(exc: Exception, client: Any) -> str:
    """What went wrong, in words, from a redis-py exception met while checking the server."""
    import redis

    text = redact_url(str(exc)) or type(exc).__name__
    if isinstance(exc, redis.AuthenticationError) or any(
        word in text for word in ("NOAUTH", "WRONGPASS", "invalid password", "AUTH")
    ):
        return f"authentication failed ({text})"
    if "DB index" in text or "invalid DB" in text:
        db = client.connection_pool.connection_kwargs.get("db", 0)
        return f"db {db} does not exist on this server ({text})"
    if isinstance(exc, redis.ReadOnlyError) or "READONLY" in text:
        return f"the server is a read-only replica: point --cache-url at the primary ({text})"
    if "NOPERM" in text:
        return f"the user may not read and write keys ({text})"
    if isinstance(exc, redis.TimeoutError):
        return f"no answer within {TIMEOUT_S:g} s: is a Redis server listening there? ({text})"
    if isinstance(exc, redis.ConnectionError) and "Protocol" not in text:
        return f"cannot connect ({text})"
    return f"the server does not speak Redis ({type(exc).__name__}: {text})"


class RedisStore:
    """Entries and claims in Redis (see the module's docstring). Every failure is a CacheUnavailableError."""

    def __init__(self, client: Any, url: str) -> None:
        self.client = client
        self.shown = redact_url(url) or ""
        self._release = client.register_script(_RELEASE)
        self._renew = client.register_script(_RENEW)

    @contextlib.contextmanager
    def _failing(self, what: str) -> Iterator[None]:
        import redis

        try:
            yield
        except redis.RedisError as exc:
            raise CacheUnavailableError(
                f"the shared cache ({self.shown}) failed to {what}: {type(exc).__name__}: {redact_url(str(exc))}"
            ) from exc

    @staticmethod
    def _key(namespace: str, key: str) -> str:
        check_namespace(namespace)
        return f"{PREFIX}:entry:{namespace}:{key}"

    @staticmethod
    def _decode(raw: Any) -> dict[str, Any] | None:
        if raw is None:
            return None
        value = json.loads(raw)
        return value if isinstance(value, dict) else None

    @staticmethod
    def _encode(entry: dict[str, Any]) -> bytes:
        return json.dumps(entry, ensure_ascii=False, separators=(",", ":")).encode("utf-8")

    def get(self, namespace: str, key: str) -> dict[str, Any] | None:
        name = self._key(namespace, key)
        with self._failing("read an entry"):
            raw = self.client.get(name)
        return self._decode(raw)

    def get_many(self, namespace: str, keys: list[str]) -> list[dict[str, Any] | None]:
        names = [self._key(namespace, key) for key in keys]
        if not names:
            return []
        with self._failing("read entries"):
            raws = self.client.mget(names)
        return [self._decode(raw) for raw in raws]

    def set(self, namespace: str, key: str, entry: dict[str, Any]) -> None:
        name = self._key(namespace, key)
        with self._failing("store an entry"):
            self.client.set(name, self._encode(entry))

    def set_many(self, namespace: str, entries: dict[str, dict[str, Any]]) -> None:
        if not entries:
            return
        mapping = {self._key(namespace, key): self._encode(entry) for key, entry in entries.items()}
        with self._failing("store entries"):
            self.client.mset(mapping)

    @contextlib.asynccontextmanager
    async def claim(self, key: str, poll_s: float = 0.02) -> AsyncIterator[None]:
        """Take `harness:v1:claim:<key>` (set if absent, with a time to live), renew it while the call
        runs, and delete it afterwards if it is still ours. A waiter polls, backing off to 0.25 s."""
        name = f"{PREFIX}:claim:{key}"
        token = secrets.token_hex(16)
        delay = poll_s
        while True:
            with self._failing("take a claim"):
                taken = self.client.set(name, token, nx=True, px=CLAIM_TTL_MS)
            if taken:
                break
            await asyncio.sleep(delay)
            delay = min(delay * 1.5, 0.25)
        heartbeat = asyncio.create_task(self._heartbeat(name, token))
        try:
            yield
        finally:
            heartbeat.cancel()
            with self._failing("release a claim"):
                self._release(keys=[name], args=[token])

    async def _heartbeat(self, name: str, token: str) -> None:
        import redis

        while True:
            await asyncio.sleep(HEARTBEAT_S)
            with contextlib.suppress(redis.RedisError):  # a lapsed claim costs at most a second payment
                self._renew(keys=[name], args=[token, CLAIM_TTL_MS])

    def _names(self, namespace: str) -> Iterator[bytes]:
        yield from self.client.scan_iter(match=f"{PREFIX}:entry:{namespace}:*", count=1000)

    def stats(self) -> dict[str, dict[str, int]]:
        out = {}
        with self._failing("count entries"):
            for namespace in NAMESPACES:
                names = list(self._names(namespace))
                size = 0
                for start in range(0, len(names), 1000):
                    pipe = self.client.pipeline(transaction=False)
                    for name in names[start : start + 1000]:
                        pipe.strlen(name)
                    size += sum(pipe.execute())
                out[namespace] = {"entries": len(names), "bytes": size}
        return out

    def clear(self, namespaces: tuple[str, ...] = NAMESPACES) -> dict[str, int]:
        removed = {}
        with self._failing("remove entries"):
            for namespace in namespaces:
                check_namespace(namespace)
                names = list(self._names(namespace))
                for start in range(0, len(names), 1000):
                    self.client.unlink(*names[start : start + 1000])
                removed[namespace] = len(names)
        return removed

    def close(self) -> None:
        self.client.close()


class RedisLedger:
    """--max-cost's spend in micro-dollars, one counter per run group, shared by every shard."""

    def __init__(self, client: Any, group: str, url: str) -> None:
        self.client = client
        self.name = f"{PREFIX}:spend:{group}"
        self.shown = redact_url(url) or ""

    def _error(self, exc: Exception, what: str) -> CacheUnavailableError:
        return CacheUnavailableError(f"the shared budget ledger ({self.shown}) failed to {what}: {exc}")

    def total(self) -> int:
        import redis

        try:
            return int(self.client.get(self.name) or 0)
        except redis.RedisError as exc:
            raise self._error(exc, "read the spend") from exc

    def add(self, micro: int) -> None:
        import redis

        try:
            pipe = self.client.pipeline(transaction=True)
            pipe.incrby(self.name, micro)
            pipe.expire(self.name, LEDGER_TTL_S)
            pipe.execute()
        except redis.RedisError as exc:
            raise self._error(exc, "add a call's cost") from exc

    def close(self) -> None:
        """The client belongs to the cache's store, which closes it."""


def shared_parts(settings: Settings, run_id: str) -> tuple[RedisStore, RedisLedger | None]:
    """The shared store for --cache-url, and the --max-cost ledger of the run group (or of this run)."""
    client = connect(settings.cache_url)
    store = RedisStore(client, settings.cache_url)
    if settings.max_cost_usd is None:
        return store, None
    return store, RedisLedger(client, settings.run_group or run_id, settings.cache_url)
