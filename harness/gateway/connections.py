"""How many connections the gateway holds: always fewer than the process has descriptors for.

An agent is untrusted code on the same machine: it can open a thousand idle connections to the gateway. Each
one costs the harness descriptors (up to three: the relay's two under `--agent-network gateway`, and the
server's), and at the process's limit every file, socket and cache the harness opens fails, for every item.
So the process raises its soft limit to the hard one at start (where allowed), and the gateway admits at most
`connection_cap(limit)` connections, a share of what is left after a reserve for the harness's own files:

- at the cap, the oldest idle connection (one that has not sent a whole request's head yet, or waits after
  its reply) is closed to admit the new one: an idle or trickling flood cannot lock other items out (their
  connections send their request at once); when none is idle, the new connection is refused. Either is
  told why (HTTP 503 with the reason and Retry-After, then closed);
- an item has at most MAX_CALLS_PER_ITEM requests in progress (and calls in flight); more are refused with
  HTTP 429 and a reason;
- under `--agent-network gateway`, each item reaches the gateway through a socket of its own, which relays
  at most MAX_CONNECTIONS_PER_ITEM connections at once (harness.gateway.unix_socket.serve_gateway_socket);
  one more is told why (HTTP 503) and closed;
- each cause is logged once, when it first happens, and counted; the counts reach the run's warnings.
"""

from __future__ import annotations

import logging
import resource
from collections import Counter
from typing import Any

RESERVED_DESCRIPTORS = 256  # the harness's own: cache databases, logs, pipes to agents, provider connections
DESCRIPTORS_PER_CONNECTION = 3
MAX_CONNECTIONS = 4096
MIN_CONNECTIONS = 16
MAX_CALLS_PER_ITEM = 64
MAX_CONNECTIONS_PER_ITEM = 64  # under --agent-network gateway, where each item has a socket of its own
_log = logging.getLogger("harness.gateway")


def raise_descriptor_limit() -> int:
    """Raise this process's soft limit on open files to its hard limit (capped at 1M); return the soft limit."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    target = 1 << 20 if hard == resource.RLIM_INFINITY else min(hard, 1 << 20)
    if soft != resource.RLIM_INFINITY and soft < target:
        try:
            resource.setrlimit(resource.RLIMIT_NOFILE, (target, hard))
            soft = target
        except (ValueError, OSError):
            pass
    return int(soft if soft != resource.RLIM_INFINITY else 1 << 20)


def connection_cap(descriptors: int) -> int:
    """How many connections the gateway admits with `descriptors` open files allowed."""
    share = (descriptors - RESERVED_DESCRIPTORS) // DESCRIPTORS_PER_CONNECTION
    return max(MIN_CONNECTIONS, min(MAX_CONNECTIONS, share))


def turn_away(transport: Any, reason: str) -> None:
    """Answer a connection the gateway will not serve with HTTP 503 and the reason (an OpenAI-style error
    body, which SDKs show), then close it: the reply is a few hundred bytes, written at once."""
    import json

    body = json.dumps({"error": {"message": reason, "type": "harness_error", "code": "gateway_busy"}}).encode()
    head = (
        "HTTP/1.1 503 Service Unavailable\r\nContent-Type: application/json\r\nConnection: close\r\n"
        f"Retry-After: 1\r\nContent-Length: {len(body)}\r\n\r\n"
    )
    try:
        transport.write(head.encode() + body)
        transport.close()
    except Exception:  # a transport already gone
        transport.abort()


class Notices:
    """Each cause logged once when it first happens, and counted."""

    def __init__(self) -> None:
        self.counts: Counter[str] = Counter()
        self.lines: dict[str, str] = {}

    def note(self, cause: str, line: str) -> None:
        if cause not in self.counts:
            self.lines[cause] = line
            _log.warning("%s (logged once; each further case is counted)", line)
        self.counts[cause] += 1

    def summary(self) -> list[str]:
        return [f"{self.lines[c]} ({n} time(s))" for c, n in sorted(self.counts.items())]


class ConnectionGate:
    """The gateway's connections, at most `limit` open; those that have not sent a byte yet, oldest first."""

    def __init__(self, limit: int, notices: Notices) -> None:
        self.limit = limit
        self.notices = notices
        self.open: set[Any] = set()
        self.idle: dict[Any, Any] = {}  # connection -> its transport, in the order they came

    def admit(self, connection: Any, transport: Any) -> bool:
        if len(self.open) >= self.limit:
            if not self.idle:
                self.notices.note("refused", f"the model gateway refused connections: all {self.limit} it holds "
                                  "(its share of this process's open-file limit) were busy")  # fmt: skip
                return False
            oldest, oldest_transport = next(iter(self.idle.items()))
            self.notices.note("evicted", f"the model gateway closed idle connections (open, no request) to "
                              f"admit new ones: it holds at most {self.limit}")  # fmt: skip
            self.release(oldest)
            turn_away(oldest_transport, f"the model gateway closed this idle connection to admit another: it "
                      f"holds at most {self.limit}; open a connection when you send a request")  # fmt: skip
        self.open.add(connection)
        self.idle[connection] = transport
        return True

    def active(self, connection: Any) -> None:
        self.idle.pop(connection, None)

    def waiting(self, connection: Any, transport: Any) -> None:
        """A connection that answered its request and waits for another: idle again (the newest)."""
        if connection in self.open:
            self.idle.pop(connection, None)
            self.idle[connection] = transport

    def release(self, connection: Any) -> bool:
        """Forget a connection; False when it was already forgotten (closed to admit another)."""
        self.idle.pop(connection, None)
        if connection not in self.open:
            return False
        self.open.discard(connection)
        return True


def gated_protocol(gate: ConnectionGate) -> type:
    """uvicorn's HTTP protocol, admitting connections through `gate`."""
    from uvicorn.protocols.http.h11_impl import H11Protocol

    class GatedProtocol(H11Protocol):  # type: ignore[misc]
        _admitted = False

        def connection_made(self, transport: Any) -> None:  # type: ignore[override]
            if not gate.admit(self, transport):
                turn_away(transport, f"the model gateway holds {gate.limit} connections, all busy: retry shortly")
                return
            self._admitted = True
            super().connection_made(transport)

        def data_received(self, data: bytes) -> None:
            super().data_received(data)
            if self.cycle is not None and not self.cycle.response_complete:
                gate.active(self)  # a whole request's head arrived: busy (a trickle of bytes stays idle)

        def on_response_complete(self) -> None:
            super().on_response_complete()
            if not self.transport.is_closing() and (self.cycle is None or self.cycle.response_complete):
                gate.waiting(self, self.transport)

        def connection_lost(self, exc: Exception | None) -> None:
            if not self._admitted:
                return
            gate.release(self)
            super().connection_lost(exc)

    return GatedProtocol
