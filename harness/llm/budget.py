"""`--max-cost`: no call starts once the run's spend passes the limit, across xdist workers and machines.

The spend lives in a ledger: a small SQLite database in the cache directory (the processes of one machine),
or a counter in the shared Redis (harness.redis_store.RedisLedger: every shard of a run group).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, Protocol

from harness.errors import BudgetExceededError


class Ledger(Protocol):
    """A run's spend in micro-dollars, added to atomically by every process that shares it."""

    def total(self) -> int: ...

    def add(self, micro: int) -> None: ...

    def close(self) -> None: ...


class DiskLedger:
    """The spend of one run in a diskcache counter (shared by the xdist workers of one machine)."""

    def __init__(self, directory: Path, run_id: str) -> None:
        import diskcache

        self._cache: Any = diskcache.Cache(str(directory), timeout=60)
        self._key = f"spend:{run_id}"

    def total(self) -> int:
        return int(self._cache.get(self._key, 0))

    def add(self, micro: int) -> None:
        self._cache.incr(self._key, micro)

    def close(self) -> None:
        self._cache.close()


class Budget:
    """`--max-cost`: no call starts once the run's spend passes the limit, across xdist workers (and, with
    a shared ledger, across machines)."""

    def __init__(
        self,
        limit_usd: float | None,
        ledger_dir: Path | None = None,
        run_id: str = "run",
        *,
        ledger: Ledger | None = None,
    ) -> None:
        self.limit_usd = limit_usd
        self._local_micro = 0
        self._ledger: Ledger | None = None
        if limit_usd is not None:
            if ledger is not None:
                self._ledger = ledger
            elif ledger_dir is not None:
                self._ledger = DiskLedger(ledger_dir, run_id)

    @property
    def spent_usd(self) -> float:
        if self._ledger is not None:
            return self._ledger.total() / 1e6
        return self._local_micro / 1e6

    def check(self) -> None:
        if self.limit_usd is not None and self.spent_usd >= self.limit_usd:
            raise BudgetExceededError(
                f"not started: the run has spent ${self.spent_usd:.4f}, which reached --max-cost ${self.limit_usd:.4f}"
            )

    def add(self, cost_usd: float | None) -> None:
        micro = round((cost_usd or 0.0) * 1e6)
        if micro <= 0:
            return
        self._local_micro += micro
        if self._ledger is not None:
            self._ledger.add(micro)

    def close(self) -> None:
        if self._ledger is not None:
            self._ledger.close()
