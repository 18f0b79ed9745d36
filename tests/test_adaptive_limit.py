"""Adaptive concurrency per provider (AIMD): a 429 halves the in-flight limit (once per burst, never below
1), a run of successes wins one slot back (never above --concurrency), and a throttle pauses new calls."""

from __future__ import annotations

import asyncio

import pytest

from harness.llm.limits import AdaptiveLimit
from harness.progress import limits_note, workers_limits


def run(coroutine: object) -> object:
    return asyncio.run(coroutine)  # type: ignore[arg-type]


def test_a_burst_of_refusals_halves_once_and_the_floor_is_one() -> None:
    async def scenario() -> None:
        limit = AdaptiveLimit(16)
        epochs = [await limit.acquire() for _ in range(16)]
        for epoch in epochs:  # all sixteen refused at once: one decrease
            limit.throttled(epoch)
            limit.release()
        assert (limit.limit, limit.decreases, limit.throttles) == (8, 1, 16)
        for _ in range(10):  # refusals of calls admitted after each decrease: halve each time, down to 1
            epoch = await limit.acquire()
            limit.throttled(epoch)
            limit.release()
        assert limit.limit == 1 and limit.lowest == 1

    run(scenario())


def test_a_run_of_successes_climbs_back_by_one_up_to_the_ceiling() -> None:
    async def scenario() -> None:
        limit = AdaptiveLimit(4, climb_after_min=3)
        epoch = await limit.acquire()
        limit.throttled(epoch)
        limit.release()
        assert limit.limit == 2
        stale = limit.epoch - 1
        limit.succeeded(stale)  # a success of a call sent before the decrease does not count
        for expected in (2, 2, 3):
            epoch = await limit.acquire()
            limit.release()
            limit.succeeded(epoch)
            assert limit.limit == expected
        for _ in range(30):
            epoch = await limit.acquire()
            limit.release()
            limit.succeeded(epoch)
        assert limit.limit == 4  # never above the ceiling

    run(scenario())


def test_calls_beyond_the_limit_wait_and_a_lowered_limit_admits_fewer() -> None:
    async def scenario() -> None:
        limit = AdaptiveLimit(2)
        first, second = await limit.acquire(), await limit.acquire()
        third = asyncio.ensure_future(limit.acquire())
        await asyncio.sleep(0)
        assert not third.done() and limit.in_flight == 2
        limit.throttled(first)  # limit 1: the freed slot goes to nobody while two are still out
        limit.release()
        await asyncio.sleep(0)
        assert not third.done()
        limit.release()
        await asyncio.sleep(0)
        assert third.done() and limit.in_flight == 1
        del second

    run(scenario())


def test_a_throttle_pauses_new_calls_for_its_wait() -> None:
    async def scenario() -> None:
        limit = AdaptiveLimit(8)
        epoch = await limit.acquire()
        limit.throttled(epoch, pause_s=0.2)
        limit.release()
        waiter = asyncio.ensure_future(limit.acquire())
        await asyncio.sleep(0.05)
        assert not waiter.done()  # paused, although slots are free
        await asyncio.wait_for(waiter, 2)
        assert limit.in_flight == 1

    run(scenario())


def test_a_cancelled_waiter_gives_its_slot_back() -> None:
    async def scenario() -> None:
        limit = AdaptiveLimit(1)
        await limit.acquire()
        waiter = asyncio.ensure_future(limit.acquire())
        await asyncio.sleep(0)
        waiter.cancel()
        with pytest.raises(asyncio.CancelledError):
            await waiter
        limit.release()
        assert limit.in_flight == 0
        await asyncio.wait_for(limit.acquire(), 1)

    run(scenario())


def test_the_progress_line_names_lowered_limits_without_credentials() -> None:
    note = limits_note({"https://user:pw@api.example.com/v1": (4, 16)})
    assert note == ", limit 4/16 (https://[REDACTED]@api.example.com/v1)"
    assert limits_note({}) == ""


def test_the_workers_limits_add_up_and_a_worker_that_lowered_nothing_counts_its_ceiling() -> None:
    by_worker = {"gw0": {"p": (1, 4)}, "gw1": {"p": (2, 4), "q": (3, 8)}, "gw2": {}}
    assert workers_limits(by_worker) == {"p": (1 + 2 + 4, 12), "q": (8 + 3 + 8, 24)}
    assert workers_limits({"gw0": {}}) == {}
