"""One line per problem: how an item's error or failure reads in the terminal, JUnit and the reports.

pytest prints a full traceback for an exception in setup (hundreds of lines per item, and slow to
format). A harness error (provider, judge, invalid task, replay miss, budget) is an expected outcome with
a reason, so it is shown as `[kind] reason` and nothing else. An internal error (a bug) is one line too,
unless the user asked for tracebacks with pytest's own `--tb` option.
"""

from __future__ import annotations

import traceback
from typing import Any

import pytest

from harness.errors import HarnessError
from harness.secrets import redact_text


def _asked_for_tracebacks(config: pytest.Config) -> bool:
    args = [str(a) for a in config.invocation_params.args]
    wanted = [a.split("=", 1)[1] if "=" in a else None for a in args if a == "--tb" or a.startswith("--tb=")]
    if "--tb" in args:
        index = args.index("--tb")
        wanted.append(args[index + 1] if index + 1 < len(args) else None)
    return any(w not in (None, "no", "line") for w in wanted)


def error_of(call: pytest.CallInfo[None]) -> dict[str, str] | None:
    """The error entry for an item's report, from the exception its phase raised."""
    if call.excinfo is None:
        return None
    exc = call.excinfo.value
    if isinstance(exc, HarnessError):
        return {"kind": exc.kind, "message": redact_text(str(exc))[:2000]}
    if isinstance(exc, AssertionError):
        return None  # a score below threshold: a failure, not an error
    frames = traceback.extract_tb(exc.__traceback__)
    where = f" at {frames[-1].filename}:{frames[-1].lineno}" if frames else ""
    return {"kind": "internal", "message": redact_text(f"{type(exc).__name__}: {exc}{where}")[:2000]}


def one_line_report(item: pytest.Item, call: pytest.CallInfo[None]) -> str | None:
    """The report text for an item that errored or failed, or None to keep pytest's own."""
    if call.excinfo is None:
        return None
    exc = call.excinfo.value
    if isinstance(exc, HarnessError | AssertionError):
        detail = getattr(exc, "traceback", None)
        if detail and _asked_for_tracebacks(item.config):
            return f"{exc}\n{detail}"
        return f"{exc} (run with --tb=long for the traceback)" if detail else str(exc)
    if isinstance(exc, pytest.skip.Exception | pytest.fail.Exception | KeyboardInterrupt):
        return None
    if _asked_for_tracebacks(item.config):
        return None
    error: Any = error_of(call)
    return f"[internal] {error['message']} (run with --tb=long for the traceback)"
