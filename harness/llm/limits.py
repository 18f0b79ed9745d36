"""Adaptive concurrency per provider (AIMD): a 429 halves the calls in flight, successes win them back.

Why: a fixed `--concurrency` is right for one process; N shards (or N teams) on one key each send their
full share and together exceed the provider's limit, so most calls bounce off 429s and wait. TCP's answer
needs no coordination: each sender halves its window when told to slow down (multiplicative decrease) and
adds one after a run of successes (additive increase), and the senders settle under the shared limit.

A throttle is a 429 or any reply with Retry-After. One burst of 429s (every call in flight refused at
once) halves the limit once, not once per refusal: a refusal only counts for calls that started after the
last decrease (the `epoch` they were admitted in). The limit never drops below 1 nor rises above the
ceiling (`--concurrency`). A throttle also pauses new calls to that provider for as long as the refused
call waits before its retry (Retry-After, or the backoff): a refused call frees its slot at once, and
without the pause the calls queued behind it would go out one after another only to be refused too.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections import deque

CLIMB_AFTER_MIN = 16  # successes in a row, at least, before the limit climbs by one


class AdaptiveLimit:
    """A semaphore whose size follows the provider: `async with limit as epoch:` admits one call."""

    def __init__(self, ceiling: int, *, climb_after_min: int = CLIMB_AFTER_MIN) -> None:
        if ceiling < 1:
            raise ValueError(f"the concurrency ceiling must be at least 1, got {ceiling}")
        self.ceiling = ceiling
        self.limit = ceiling
        self.in_flight = 0
        self.epoch = 0  # bumped by every decrease
        self.throttles = 0  # refusals seen (429 or Retry-After), counted or not
        self.decreases = 0
        self.lowest = ceiling
        self._climb_after_min = climb_after_min
        self._streak = 0
        self._waiters: deque[asyncio.Future[None]] = deque()
        self._paused_until = 0.0  # loop time before which no new call starts
        self._timer: asyncio.TimerHandle | None = None

    @property
    def climb_after(self) -> int:
        """Successes in a row that raise the limit by one: about one round of the calls in flight."""
        return max(self.limit, self._climb_after_min)

    async def acquire(self) -> int:
        """Wait for a slot; returns the epoch the call is admitted in."""
        loop = asyncio.get_running_loop()
        if self.in_flight < self.limit and not self._waiters and loop.time() >= self._paused_until:
            self.in_flight += 1
            return self.epoch
        waiter: asyncio.Future[None] = loop.create_future()
        self._waiters.append(waiter)
        self._wake()
        try:
            await waiter
        except asyncio.CancelledError:
            if waiter.done() and not waiter.cancelled():  # granted, then cancelled: give the slot back
                self.release()
            else:
                with contextlib.suppress(ValueError):
                    self._waiters.remove(waiter)
            raise
        return self.epoch

    def release(self) -> None:
        self.in_flight -= 1
        self._wake()

    def _wake(self) -> None:
        if not self._waiters:
            return
        loop = asyncio.get_running_loop()
        if loop.time() < self._paused_until:
            if self._timer is None:
                self._timer = loop.call_at(self._paused_until, self._resume)
            return
        while self._waiters and self.in_flight < self.limit:
            waiter = self._waiters.popleft()
            if not waiter.done():
                self.in_flight += 1
                waiter.set_result(None)

    def _resume(self) -> None:
        self._timer = None
        self._wake()

    def succeeded(self, epoch: int) -> None:
        """A call admitted in `epoch` was answered: after a run of them, one more call may fly."""
        if epoch != self.epoch:
            return
        self._streak += 1
        if self._streak >= self.climb_after and self.limit < self.ceiling:
            self.limit += 1
            self._streak = 0
            self._wake()

    def throttled(self, epoch: int, pause_s: float = 0.0) -> None:
        """A call admitted in `epoch` was told to slow down: halve the limit, once per burst, and start no
        new call for `pause_s` seconds (what the refused call waits before its retry)."""
        self.throttles += 1
        if pause_s > 0:
            loop = asyncio.get_running_loop()
            resume = loop.time() + pause_s
            if resume > self._paused_until:
                self._paused_until = resume
                if self._timer is not None:
                    self._timer.cancel()
                    self._timer = None
        if epoch != self.epoch:
            return  # it was sent before the last decrease, which already answered this burst
        self.limit = max(1, self.limit // 2)
        self.lowest = min(self.lowest, self.limit)
        self.epoch += 1
        self.decreases += 1
        self._streak = 0

    async def __aenter__(self) -> int:
        return await self.acquire()

    async def __aexit__(self, *exc: object) -> None:
        self.release()
