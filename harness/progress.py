"""Live progress, so a long run is never silent: items and calls done, errors, tokens, spend, ETA, and the
in-flight limit of each provider that 429s lowered (harness.llm.limits).

Under xdist the calls are made in the workers, so each worker puts its lowered limits on the reports it
sends (`LimitReports`), and the controller's line shows them added up over the workers.
"""

from __future__ import annotations

import time
from typing import Any

import pytest

LIMITS_ATTR = "harness_limits"  # on a worker's test reports: {provider: [limit, ceiling]} lowered now


class Progress:
    """Prints one status line every `interval_s` seconds while work is under way (controller only)."""

    def __init__(self, state: Any, reporter: Any, interval_s: float | None, capture: Any = None) -> None:
        self.state = state
        self.reporter = reporter
        self.capture = capture  # pytest's capture manager: output during an item would be captured otherwise
        is_tty = bool(getattr(reporter, "isatty", False))
        self.interval_s = (2.0 if is_tty else 10.0) if interval_s is None else interval_s
        self._runner: Any = None
        self._last = time.monotonic()
        self._worker_limits: dict[str, dict[str, tuple[int, int]]] = {}  # xdist: the latest of each worker

    def note_worker_limits(self, worker: str, lowered: dict[str, Any]) -> None:
        """A worker's lowered limits, as its latest report carried them (an empty dict: none lowered)."""
        self._worker_limits[worker] = {p: (int(low), int(ceiling)) for p, (low, ceiling) in lowered.items()}

    def attach(self, runner: Any) -> None:
        self._runner = runner

    def tick(self) -> None:
        """Called from the event loop while an item is being waited on."""
        self.maybe_print()

    def maybe_print(self) -> None:
        if self.interval_s <= 0:
            return
        now = time.monotonic()
        if now - self._last < self.interval_s:
            return
        self._last = now
        if self.capture is not None:
            with self.capture.global_and_fixture_disabled():
                self._write()
        else:
            self._write()

    def _write(self) -> None:
        self.reporter.ensure_newline()
        writer = getattr(self.reporter, "_tw", None)
        if writer is not None and writer.width_of_current_line:  # xdist's dots do not use ensure_newline
            self.reporter.write("\n")
        self.reporter.write_line(self.line(), cyan=True)

    def line(self, now: float | None = None) -> str:
        state = self.state
        done = len(state.results)
        total = max(state.total_items, done)
        errors = sum(r["outcome"] == "error" for r in state.results)
        tokens = sum(r["usage"]["input_tokens"] + r["usage"]["output_tokens"] for r in state.results)
        cost = sum(r["usage"]["cost_usd"] for r in state.results)
        calls = sum(r["usage"]["calls"] for r in state.results)
        # Calls per finished item so far, scaled to all items: the best guess of the total there is.
        expected = f" of ~{round(calls / done * total)}" if done else ""
        live = ""
        if self._runner is not None and self._runner.has_services:
            stats = self._runner.services.client.stats
            calls, tokens, cost = stats.finished, stats.input_tokens + stats.output_tokens, stats.cost_usd
            live = f", {stats.in_flight} in flight" + limits_note(self._runner.services.client.lowered_limits())
        elif self._worker_limits:
            live = limits_note(workers_limits(self._worker_limits))
        elapsed = (time.time() if now is None else now) - state.started_at
        finished = self._runner.finished_count() if self._runner is not None else done
        eta = ""
        if 0 < finished < total:
            eta = f", ETA {elapsed / finished * (total - finished):.0f}s"
        shown = max(done, finished)
        return (
            f"[harness] {shown}/{total} items, {calls}{expected} calls{live}, {errors} errors, "
            f"{tokens:,} tokens, ${cost:.4f}{eta}"
        )


def workers_limits(by_worker: dict[str, dict[str, tuple[int, int]]]) -> dict[str, tuple[int, int]]:
    """The xdist workers' limits added up per provider: a worker that has not lowered a provider's limit
    counts with its ceiling (every worker has the same --concurrency)."""
    providers: dict[str, int] = {}
    for lowered in by_worker.values():
        for provider, (_, ceiling) in lowered.items():
            providers[provider] = ceiling
    return {
        provider: (sum(w.get(provider, (ceiling, ceiling))[0] for w in by_worker.values()), ceiling * len(by_worker))
        for provider, ceiling in providers.items()
    }


def limits_note(lowered: dict[str, tuple[int, int]]) -> str:
    """The note `, limit 4/16 (provider)` for each provider whose 429s lowered its in-flight limit."""
    from harness.secrets import redact_url

    return "".join(f", limit {low}/{ceiling} ({redact_url(provider)})" for provider, (low, ceiling) in lowered.items())


class LimitReports:
    """xdist: a worker's reports carry its lowered limits; the controller hands them to its progress line."""

    def __init__(self, config: pytest.Config) -> None:
        self.config = config

    @pytest.hookimpl(wrapper=True)
    def pytest_runtest_makereport(self, item: pytest.Item, call: Any) -> Any:
        report = yield
        from harness import xdist_support
        from harness.run_state import RUN_STATE

        runner = self.config.stash[RUN_STATE].runner
        if xdist_support.is_worker(self.config) and runner is not None and runner.has_services:
            try:
                lowered = runner.services.client.lowered_limits()
            except RuntimeError:  # a provider was added by the loop's thread meanwhile: next report
                return report
            setattr(report, LIMITS_ATTR, {p: [low, ceiling] for p, (low, ceiling) in lowered.items()})
        return report

    @pytest.hookimpl(tryfirst=True)
    def pytest_runtest_logreport(self, report: pytest.TestReport) -> None:
        from harness.run_state import RUN_STATE

        lowered = getattr(report, LIMITS_ATTR, None)
        progress = self.config.stash[RUN_STATE].progress
        worker = getattr(report, "worker_id", None)
        if lowered is not None and progress is not None and worker is not None:
            progress.note_worker_limits(str(worker), lowered)


def register(config: pytest.Config) -> None:
    """Called by the plugin's pytest_configure, in every process."""
    config.pluginmanager.register(LimitReports(config), "harness-limit-reports")
