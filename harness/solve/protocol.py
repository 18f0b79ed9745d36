"""The session's wire: a request and its reply, each one JSON object on one line, over a Unix socket.

Requests are `{"op": ...}` with the op's fields (`call` takes `tool` and `arguments`, `answer` takes
`text`); replies are `{"ok": true, ...}` or `{"ok": false, "error": "..."}`. One connection per request:
the front end may be a fresh process for every step (the detached mode).
"""

from __future__ import annotations

import contextlib
import json
import os
import socket
import threading
from collections.abc import Callable
from pathlib import Path
from typing import Any

MAX_LINE = 16 * 1024 * 1024  # bytes of one request or reply (an answer, a long page)
PRIVATE_FOLDER = "harness-solve-"  # a temporary folder of the socket's own, for session paths too long for AF_UNIX
OPS = ("hello", "prompt", "tools", "budget", "call", "answer", "quit")


class ProtocolError(OSError):
    """The agent cannot be reached, or sent something that is not a reply."""


def _read_line(conn: socket.socket) -> bytes:
    chunks, size = [], 0
    while True:
        chunk = conn.recv(65536)
        if not chunk:
            break
        newline = chunk.find(b"\n")
        if newline >= 0:
            chunks.append(chunk[:newline])
            break
        chunks.append(chunk)
        size += len(chunk)
        if size > MAX_LINE:
            raise ProtocolError(f"a line longer than {MAX_LINE} bytes")
    return b"".join(chunks)


def request(path: Path, message: dict[str, Any], timeout_s: float = 120.0) -> dict[str, Any]:
    """Send one request to the agent listening at `path` and return its reply."""
    with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as conn:
        conn.settimeout(timeout_s)
        try:
            conn.connect(str(path))
            conn.sendall(json.dumps(message, ensure_ascii=False).encode("utf-8") + b"\n")
            raw = _read_line(conn)
        except OSError as exc:
            raise ProtocolError(f"the session's agent does not answer at {path}: {exc}") from exc
    try:
        reply = json.loads(raw.decode("utf-8"))
    except ValueError as exc:
        raise ProtocolError(f"the session's agent sent something that is not JSON ({len(raw)} bytes)") from exc
    if not isinstance(reply, dict):
        raise ProtocolError("the session's agent sent a reply that is not a JSON object")
    return reply


class Server:
    """Answers requests on a Unix socket, one at a time (a call's budget check and its count go together)."""

    def __init__(self, path: Path, handle: Callable[[dict[str, Any]], dict[str, Any]]) -> None:
        self.path = path
        self._handle = handle
        self._lock = threading.Lock()
        with contextlib.suppress(FileNotFoundError):
            path.unlink()
        self._socket = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        self._socket.bind(str(path))
        os.chmod(path, 0o600)  # this user's session only
        self._socket.listen(8)
        self._closed = False
        self._thread = threading.Thread(target=self._serve, name="harness-solve", daemon=True)
        self._thread.start()

    def _serve(self) -> None:
        while not self._closed:
            try:
                conn, _ = self._socket.accept()
            except OSError:
                return
            threading.Thread(target=self._one, args=(conn,), name="harness-solve-request", daemon=True).start()

    def _one(self, conn: socket.socket) -> None:
        with conn:
            conn.settimeout(60)
            try:
                raw = _read_line(conn)
                message = json.loads(raw.decode("utf-8"))
                if not isinstance(message, dict) or message.get("op") not in OPS:
                    reply = {"ok": False, "error": f"expected a JSON object with op one of {', '.join(OPS)}"}
                else:
                    with self._lock:
                        reply = self._handle(message)
            except (ValueError, ProtocolError) as exc:
                reply = {"ok": False, "error": f"bad request: {exc}"}
            except OSError:
                return
            with contextlib.suppress(OSError):
                conn.sendall(json.dumps(reply, ensure_ascii=False).encode("utf-8") + b"\n")

    def close(self) -> None:
        self._closed = True
        with contextlib.suppress(OSError):
            self._socket.shutdown(socket.SHUT_RDWR)
        with contextlib.suppress(OSError):
            self._socket.close()
        with contextlib.suppress(OSError):
            self.path.unlink()
        if self.path.parent.name.startswith(PRIVATE_FOLDER):  # the socket's own temporary folder
            with contextlib.suppress(OSError):
                self.path.parent.rmdir()
