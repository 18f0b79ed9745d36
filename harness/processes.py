"""Child processes that cannot outlive the process that started them.

Why: a helper process (the embedded model, the stub server) whose parent dies without cleaning up (a
crash, SIGKILL, a CI timeout) would otherwise run on, orphaned, holding memory and ports. Linux's
PR_SET_PDEATHSIG kills the child when its parent ends; the child sets it on itself at start-up, then checks
that the parent it was given is still its parent (it may have died before the call took effect).
"""

from __future__ import annotations

import contextlib
import ctypes
import os
import signal

_PR_SET_PDEATHSIG = 1


def die_with_parent(parent: int) -> None:
    """Called first thing in a child: be killed when `parent` ends (Linux); elsewhere the parent stops us."""
    with contextlib.suppress(OSError, AttributeError):
        libc = ctypes.CDLL(None, use_errno=True)
        libc.prctl(_PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0)
    if os.getppid() != parent:
        os._exit(1)
