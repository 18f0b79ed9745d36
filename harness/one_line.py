"""One line per problem: how an item's error or failure reads in the terminal, JUnit and the reports.

A harness error (provider, judge, invalid task, replay miss, budget) is an expected outcome with a reason,
so it is shown as `[kind] reason` and nothing else; a score below the threshold is its one sentence. An
internal error (a bug) is one line too, unless the user asked for tracebacks with pytest's own `--tb`
option: then the traceback the harness formatted when it caught the error.

The harness's items hand pytest this text themselves (`TaskItem.repr_failure`): pytest never builds the
long traceback it would otherwise make for every failed item (re-reading and parsing the source of each
frame, which made a failing item cost twenty times a passing one) only for the plugin to discard it.
"""

from __future__ import annotations

from typing import Any

import pytest

from harness.errors import HarnessError
from harness.secrets import redact_text
from harness.tracebacks import plain_traceback


def asked_for_tracebacks(config: pytest.Config) -> bool:
    args = [str(a) for a in config.invocation_params.args]
    wanted = [a.split("=", 1)[1] if "=" in a else None for a in args if a == "--tb" or a.startswith("--tb=")]
    if "--tb" in args:
        index = args.index("--tb")
        wanted.append(args[index + 1] if index + 1 < len(args) else None)
    return any(w not in (None, "no", "line") for w in wanted)


def _where(exc: BaseException) -> str:
    tb = exc.__traceback__
    while tb is not None and tb.tb_next is not None:
        tb = tb.tb_next
    return f" at {tb.tb_frame.f_code.co_filename}:{tb.tb_lineno}" if tb is not None else ""


def error_of(exc: BaseException | None) -> dict[str, str] | None:
    """The error entry for an item's report, from the exception its phase raised."""
    if exc is None or isinstance(exc, AssertionError):
        return None  # a score below threshold is a failure, not an error
    if isinstance(exc, HarnessError):
        return {"kind": exc.kind, "message": redact_text(str(exc))[:2000]}
    return {"kind": "internal", "message": redact_text(f"{type(exc).__name__}: {exc}{_where(exc)}")[:2000]}


def one_line_report(config: pytest.Config, exc: BaseException) -> str:
    """The report text for an item that errored or failed."""
    tracebacks = asked_for_tracebacks(config)
    if isinstance(exc, HarnessError | AssertionError):
        detail: Any = getattr(exc, "traceback", None)
        if detail and tracebacks:
            return f"{exc}\n{detail}"
        return f"{exc} (run with --tb=long for the traceback)" if detail else str(exc)
    if tracebacks:
        return redact_text(plain_traceback(exc))
    error: Any = error_of(exc)
    return f"[internal] {error['message']} (run with --tb=long for the traceback)"
