"""One long-lived event loop per process that works on many items at once.

pytest reports items one by one; the runner starts the model work of many items up front (all of them
without xdist; the worker's queue under xdist), so `--concurrency` calls stay in flight while pytest
walks its items in order and reports each as soon as its work is done.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Awaitable, Callable
from typing import Any

from harness.benchmarks import get_benchmark
from harness.context import ItemContext, Services
from harness.result import build_result
from harness.scores import Scores


async def evaluate_task(task: Any, services: Services, repeats: int, pass_threshold: float) -> dict[str, Any]:
    """Run every repeat of a task and fold them into one plain-JSON result (never raises)."""
    benchmark = get_benchmark(task.kind)
    started = time.perf_counter()
    contexts = [ItemContext(task=task, repeat=r, services=services) for r in range(repeats)]
    outcomes = await asyncio.gather(*(benchmark.run(task, ctx) for ctx in contexts), return_exceptions=True)
    runs: list[Scores | BaseException] = []
    for outcome in outcomes:
        if isinstance(outcome, BaseException) and not isinstance(outcome, Exception):
            raise outcome  # KeyboardInterrupt and friends stop the run
        runs.append(outcome)
    records = [record for ctx in contexts for record in ctx.records]
    return build_result(
        task=task,
        runs=runs,
        records=records,
        pass_threshold=pass_threshold,
        elapsed_s=time.perf_counter() - started,
    )


class Runner:
    """Owns the loop, the shared services and the per-item futures of one process."""

    def __init__(
        self,
        make_services: Callable[[], Services],
        *,
        repeats: int,
        max_items_in_flight: int = 32,
        on_tick: Callable[[], None] | None = None,
        tick_interval_s: float = 2.0,
    ) -> None:
        self._loop_runner = asyncio.Runner()
        self._loop = self._loop_runner.get_loop()
        self._make_services = make_services
        self._services: Services | None = None
        self._repeats = repeats
        self._tasks: dict[str, asyncio.Task[dict[str, Any]]] = {}
        self._on_tick = on_tick
        self._tick_interval_s = tick_interval_s
        self._ticking = False
        self._finished = 0
        # Items enter in collection order and leave when done, so early items finish (and are reported, and
        # survive an interruption whole) before late ones start, instead of every item's first call going
        # out before any item's second. Twice the call concurrency keeps the call slots full.
        self._item_slots = asyncio.Semaphore(max_items_in_flight)

    @property
    def has_services(self) -> bool:
        return self._services is not None

    def finished_count(self) -> int:
        """Items whose work is done (reported or not)."""
        return self._finished

    @property
    def services(self) -> Services:
        if self._services is None:
            self._services = self._make_services()
        return self._services

    def start(self, key: str, task: Any, pass_threshold: float) -> None:
        """Schedule an item's work (idempotent)."""
        if key in self._tasks:
            return
        services = self.services
        coro = self._in_slot(evaluate_task(task, services, self._repeats, pass_threshold))
        task_future = self._loop.create_task(coro, name=key)
        task_future.add_done_callback(self._count_finished)
        self._tasks[key] = task_future

    async def _in_slot(self, work: Awaitable[dict[str, Any]]) -> dict[str, Any]:
        async with self._item_slots:
            return await work

    def _count_finished(self, _: Any) -> None:
        self._finished += 1

    def wait(self, key: str, task: Any, pass_threshold: float) -> dict[str, Any]:
        """Block until the item's result exists, driving every other item's work meanwhile."""
        self.start(key, task, pass_threshold)
        future = self._tasks[key]
        if not future.done():
            self._start_ticking()
            self._loop.run_until_complete(future)
        del self._tasks[key]
        return future.result()

    def _start_ticking(self) -> None:
        if self._ticking or self._on_tick is None or self._tick_interval_s <= 0:
            return
        self._ticking = True

        def tick() -> None:
            if self._on_tick is not None:
                self._on_tick()
            self._loop.call_later(self._tick_interval_s, tick)

        self._loop.call_later(self._tick_interval_s, tick)

    def close(self) -> None:
        """Cancel what is left (an interrupted run), close connections, close the loop."""
        for task in self._tasks.values():
            task.cancel()
        if self._tasks:
            self._loop.run_until_complete(asyncio.gather(*self._tasks.values(), return_exceptions=True))
        if self._services is not None:
            close_solver = getattr(self._services.solver, "close", None)
            if close_solver is not None:
                close_solver()
            self._loop.run_until_complete(self._services.client.close())
            self._services.client.cache.close()
            self._services.client.budget.close()
        self._loop_runner.close()
