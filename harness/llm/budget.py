"""`--max-cost`: no call starts once the run's spend passes the limit, across xdist workers."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from harness.errors import BudgetExceededError


class Budget:
    """`--max-cost`: no call starts once the run's spend passes the limit, across xdist workers."""

    def __init__(self, limit_usd: float | None, ledger_dir: Path | None = None, run_id: str = "run") -> None:
        self.limit_usd = limit_usd
        self._run_key = f"spend:{run_id}"
        self._local_micro = 0
        self._ledger: Any = None
        if limit_usd is not None and ledger_dir is not None:
            import diskcache

            self._ledger = diskcache.Cache(str(ledger_dir), timeout=60)

    @property
    def spent_usd(self) -> float:
        if self._ledger is not None:
            return int(self._ledger.get(self._run_key, 0)) / 1e6
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
            self._ledger.incr(self._run_key, micro)

    def close(self) -> None:
        if self._ledger is not None:
            self._ledger.close()
