"""One long-lived event loop per process, in a thread of its own, working on many items at once.

pytest reports items one by one in the main thread; the runner starts the model work of many items up
front (all of them without xdist; the worker's queue under xdist). The loop runs in its own thread, so it
keeps reading replies while pytest formats reports, writes JUnit or runs slow plugins: no call's timer
can fire on a reply that arrived but was not read (which would throw away, and pay again, an answer).
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import contextlib
import threading
import time
from collections.abc import Callable
from typing import Any

from harness.context import ItemContext, Services
from harness.kinds import get_benchmark
from harness.result import build_result
from harness.scores import Scores


async def evaluate_item(spec: Any, services: Services, pass_threshold: float) -> dict[str, Any]:
    """Run one (task, variant, repeat) and make its plain-JSON result (never raises but for interrupts)."""
    task = spec.task
    benchmark = get_benchmark(task.kind)
    started = time.perf_counter()
    ctx = ItemContext(
        task=task,
        services=services,
        variant=spec.variant,
        repeat=spec.repeat,
        task_path=spec.task_path,
        repeats=getattr(spec, "repeats", 1),
    )
    outcome: Scores | BaseException
    try:
        outcome = await benchmark.run(task, ctx)
        if not isinstance(outcome, Scores):
            raise TypeError(f"{task.kind}.run returned {type(outcome).__name__}, not Scores")
    except Exception as exc:
        outcome = exc
    return build_result(
        task=task,
        variant=spec.variant,
        repeat=spec.repeat,
        labels=benchmark.labels(task),
        outcome=outcome,
        records=ctx.records,
        judges=ctx.judges,
        pass_threshold=pass_threshold,
        elapsed_s=time.perf_counter() - started,
        prompt=ctx.prompt,
        system_s=ctx.system_s,
    )


class Runner:
    """Owns the loop thread, the shared services and the per-item futures of one process."""

    def __init__(self, make_services: Callable[[], Services], *, max_items_in_flight: int = 32) -> None:
        self._loop = asyncio.new_event_loop()
        self._thread = threading.Thread(target=self._run_loop, name="harness-loop", daemon=True)
        self._thread.start()
        self._make_services = make_services
        self._services: Services | None = None
        self._futures: dict[str, concurrent.futures.Future[dict[str, Any]]] = {}
        self._finished = 0
        # Items enter in collection order and leave when done, so early items finish (and are reported, and
        # survive an interruption whole) before late ones start. Twice the call concurrency keeps calls busy.
        self._item_slots = asyncio.Semaphore(max_items_in_flight)
        self._closed = False
        self.warnings: list[str] = []  # problems found on closing (cache writes that failed)

    def _run_loop(self) -> None:
        asyncio.set_event_loop(self._loop)
        self._loop.run_forever()

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

    def start(self, key: str, spec: Any, pass_threshold: float) -> None:
        """Schedule an item's work (idempotent)."""
        if key in self._futures:
            return
        services = self.services
        future = asyncio.run_coroutine_threadsafe(self._in_slot(spec, services, pass_threshold), self._loop)
        future.add_done_callback(self._count_finished)
        self._futures[key] = future

    async def _in_slot(self, spec: Any, services: Services, pass_threshold: float) -> dict[str, Any]:
        async with self._item_slots:
            return await evaluate_item(spec, services, pass_threshold)

    def _count_finished(self, _: Any) -> None:
        self._finished += 1

    def wait(
        self,
        key: str,
        spec: Any,
        pass_threshold: float,
        *,
        on_tick: Callable[[], None] | None = None,
        tick_s: float = 0.5,
    ) -> dict[str, Any]:
        """Block until the item's result exists; `on_tick` runs in this (the main) thread meanwhile. The wait
        wakes every `tick_s` even without `on_tick`: a Ctrl-C that the kernel hands to another thread only
        reaches Python in this one, and a wait with no timeout would hold it until the item ends."""
        self.start(key, spec, pass_threshold)
        future = self._futures[key]
        while True:
            try:
                result = future.result(timeout=tick_s)
                break
            except concurrent.futures.TimeoutError:
                if on_tick is not None:
                    on_tick()
        del self._futures[key]
        return result

    def close(self) -> None:
        """Cancel what is left (an interrupted run), close connections, stop the loop and its thread."""
        if self._closed:
            return
        self._closed = True
        for future in self._futures.values():
            future.cancel()
        if self._services is not None:
            services = self._services
            close_solver = getattr(services.solver, "close", None)
            if close_solver is not None:
                close_solver()
            done = asyncio.run_coroutine_threadsafe(self._shutdown(services), self._loop)
            with contextlib.suppress(Exception):  # closing must not fail the run (a timeout included)
                done.result(timeout=30)
        self._loop.call_soon_threadsafe(self._loop.stop)
        self._thread.join(timeout=30)
        if not self._thread.is_alive():
            self._loop.close()

    async def _shutdown(self, services: Services) -> None:
        # The gateway first, while the tasks it serves still exist: it finishes its replies, then stops.
        if services.gateway is not None:
            await services.gateway.close()
            self.warnings += services.gateway.notices.summary()
        closing = getattr(services.solver, "aclose", None)
        if closing is not None:
            with contextlib.suppress(Exception):
                await closing()
        pending = [t for t in asyncio.all_tasks() if t is not asyncio.current_task()]
        for task in pending:
            task.cancel()
        if pending:
            await asyncio.gather(*pending, return_exceptions=True)
        await services.client.close()
        cache = services.client.cache
        cache.close()
        if cache.write_errors:
            self.warnings.append(
                f"{len(cache.write_errors)} answers could not be written to the cache (they will be asked "
                f"again next run): {cache.write_errors[0]}"
            )
        services.client.budget.close()
