"""The embedded chat model in a process of its own, behind an OpenAI-compatible endpoint on 127.0.0.1.

    python -m harness.local.server [--engines N]

Why a process: llama.cpp is native code. If it crashes (a build for another CPU, a bug), the kernel ends
this process, and the harness (harness.local.service) turns the calls it was serving into one-line errors
and starts it again; pytest and the items already scored are untouched. One process serves a whole run,
every xdist worker included, so the weights are in memory once.

It loads the model and runs a one-token completion before it prints `READY <port>` on stdout, so a build
that cannot run on this CPU fails at start-up, not at the first item. Requests must carry the bearer token
given in HARNESS_LOCAL_TOKEN. It exits when its parent does (PR_SET_PDEATHSIG, and a check of the parent's
pid for the moment before that was set).

Routes: POST /v1/chat/completions, POST /v1/tokenize ({"model", "text"} -> {"tokens": n}), GET /health.
"""

from __future__ import annotations

import argparse
import hmac
import json
import os
import signal
import sys
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

MAX_BODY_BYTES = 32 * 2**20
TOKEN_ENV = "HARNESS_LOCAL_TOKEN"


class _Handler(BaseHTTPRequestHandler):
    server: _Server
    protocol_version = "HTTP/1.1"

    def log_message(self, format: str, *args: Any) -> None:
        return None

    def _reply(self, status: int, body: dict[str, Any]) -> None:
        data = json.dumps(body).encode("utf-8")
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def _error(self, status: int, message: str, kind: str = "invalid_request_error") -> None:
        self._reply(status, {"error": {"message": message, "type": kind}})

    def _authorised(self) -> bool:
        header = self.headers.get("Authorization") or ""
        return hmac.compare_digest(header.encode(), f"Bearer {self.server.token}".encode())

    def do_GET(self) -> None:
        if self.path != "/health":
            self._error(404, f"no route {self.path}")
            return
        self._reply(200, {"ok": True, "engines": self.server.engines, "pid": os.getpid()})

    def do_POST(self) -> None:
        if not self._authorised():
            self._error(401, "missing or wrong bearer token", "authentication_error")
            return
        try:
            length = int(self.headers.get("Content-Length") or "0")
        except ValueError:
            length = -1
        if not 0 < length <= MAX_BODY_BYTES:
            self._error(400 if length <= 0 else 413, f"the body must be 1 to {MAX_BODY_BYTES} bytes of JSON")
            return
        try:
            body = json.loads(self.rfile.read(length))
        except ValueError as exc:
            self._error(400, f"the body is not JSON ({exc})")
            return
        if not isinstance(body, dict) or not isinstance(body.get("model"), str):
            self._error(400, 'the body must be a JSON object with a "model"')
            return
        from harness.local.chat import LocalModelUnavailable, complete_local, count_tokens_local

        model = body.pop("model")
        try:
            if self.path == "/v1/chat/completions":
                self._reply(200, complete_local(model, body))
            elif self.path == "/v1/tokenize":
                text = body.get("text")
                if not isinstance(text, str):
                    raise ValueError('"text" must be a string')
                self._reply(200, {"tokens": count_tokens_local(model, text)})
            else:
                self._error(404, f"no route {self.path}")
        except (ValueError, TypeError) as exc:
            self._error(400, str(exc))
        except LocalModelUnavailable as exc:
            self._error(503, str(exc), "local_model_unavailable")
        except Exception as exc:  # a bug here must not end the server
            self._error(500, f"{type(exc).__name__}: {exc}", "server_error")


class _Server(ThreadingHTTPServer):
    daemon_threads = True
    request_queue_size = 128

    def __init__(self, port: int, token: str, engines: int) -> None:
        super().__init__(("127.0.0.1", port), _Handler)
        self.token = token
        self.engines = engines


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m harness.local.server", description=__doc__.split("\n\n")[0])
    parser.add_argument("--port", type=int, default=0, help="port on 127.0.0.1 (default: any free port)")
    parser.add_argument("--engines", type=int, default=None, help="parallel contexts (default: one per core, <= 4)")
    parser.add_argument("--parent", type=int, default=None, help="exit when this process ends")
    args = parser.parse_args(argv)
    if args.parent is not None:
        from harness.processes import die_with_parent

        die_with_parent(args.parent)
    token = os.environ.get(TOKEN_ENV)
    if not token:
        print(f"{TOKEN_ENV} must hold the bearer token callers will send", file=sys.stderr)
        return 2
    from harness.local.chat import LocalModelUnavailable, complete_local, default_engines, load

    engines = args.engines or default_engines()
    try:
        load(engines)
        # One real token: a build that cannot run here dies now, while the caller waits for READY.
        complete_local("smollm2", {"messages": [{"role": "user", "content": "Hi"}], "max_tokens": 1})
    except LocalModelUnavailable as exc:
        print(f"UNAVAILABLE {exc}", flush=True)
        return 3
    server = _Server(args.port, token, engines)
    signal.signal(signal.SIGTERM, lambda *_: os._exit(0))
    print(f"READY {server.server_address[1]}", flush=True)
    server.serve_forever()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
