"""The embedded chat model's process as the harness runs it: one per run, started on first use, restarted once.

`LocalModelService` lives in the process that owns the run (pytest's controller, or a `harness` command). It
listens on 127.0.0.1 at once, which costs nothing, and starts the model process (`harness.local.server`) on
the first call. Every caller, xdist workers included, talks to this front rather than to the model process
itself, so the front sees that process die the moment it does:

- the calls it was serving get HTTP 503 `the embedded model stopped (signal 11: SIGSEGV) ...`, which the
  client turns into one-line item errors (`[local] ...`);
- the process is started again, once, and later calls go to the new one;
- a second death is final: later calls get the same error at once, without a new process.

Nothing else is lost: every answer already received is in the call cache, and every item already scored
is in the run's results. The model process gets an environment without the user's secrets, and ends with
the process that started it.
"""

from __future__ import annotations

import contextlib
import http.client
import json
import os
import secrets
import signal
import subprocess
import sys
import tempfile
import threading
import time
from dataclasses import dataclass
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

STOPPED = "local_model_stopped"
UNAVAILABLE = "local_model_unavailable"
START_TIMEOUT_S = 180.0
RESTARTS = 1
# What the model process inherits: enough to run Python and find its packages, nothing the user keeps secret.
_ENV_ALLOWED = ("PATH", "HOME", "LANG", "LC_ALL", "LC_CTYPE", "TMPDIR", "PYTHONPATH", "VIRTUAL_ENV", "SYSTEMROOT")


@dataclass(frozen=True)
class LocalEndpoint:
    """Where callers send the embedded model's calls: the front's URL, its token and how many run at once."""

    url: str
    token: str
    slots: int

    def to_json(self) -> dict[str, Any]:
        return {"url": self.url, "token": self.token, "slots": self.slots}

    @classmethod
    def from_json(cls, value: dict[str, Any]) -> LocalEndpoint:
        return cls(str(value["url"]), str(value["token"]), int(value["slots"]))


def describe_exit(returncode: int) -> str:
    """`signal 11: SIGSEGV` or `exit status 3`."""
    if returncode < 0:
        try:
            name = signal.Signals(-returncode).name
        except ValueError:
            name = "unknown signal"
        return f"signal {-returncode}: {name}"
    return f"exit status {returncode}"


class LocalModelService:
    """The front (a small reverse proxy) and the keeper thread that starts, watches and stops the process."""

    def __init__(self, engines: int | None = None, restarts: int = RESTARTS, command: list[str] | None = None) -> None:
        """`command`: what to start instead of harness.local.server (tests give a process that misbehaves)."""
        from harness.local.chat import default_engines

        self.engines = engines or default_engines()
        self._command = command
        self.restarts = restarts
        self.token = secrets.token_urlsafe(24)
        self._child_token = secrets.token_urlsafe(24)
        self._lock = threading.Condition()
        self._process: subprocess.Popen[bytes] | None = None
        self._port: int | None = None
        self._generation = 0  # processes started so far
        self._deaths: list[str] = []  # how each one ended, in order
        self._failure: str | None = None  # why no process can be started (final)
        self._wanted = False  # a caller waits for a process
        self._closing = False
        # The model process's stderr, for the cause of a failed start; removed by close().
        self._log = tempfile.NamedTemporaryFile(prefix="harness-local-model-", suffix=".log", delete=False)  # noqa: SIM115
        self._front = _Front(self)
        self._serving = threading.Thread(target=self._front.serve_forever, name="harness-local-front", daemon=True)
        self._serving.start()
        # Started by one long-lived thread: PR_SET_PDEATHSIG fires when the *thread* that started the child ends.
        self._keeper = threading.Thread(target=self._keep, name="harness-local-keeper", daemon=True)
        self._keeper.start()

    @property
    def endpoint(self) -> LocalEndpoint:
        return LocalEndpoint(f"http://127.0.0.1:{self._front.server_address[1]}", self.token, self.engines)

    @property
    def pid(self) -> int | None:
        """The model process's pid while it runs (tests kill it)."""
        with self._lock:
            return self._process.pid if self._process is not None and self._port is not None else None

    @property
    def deaths(self) -> list[str]:
        with self._lock:
            return list(self._deaths)

    # -- the process ------------------------------------------------------------------------------

    def ensure(self) -> tuple[int, int]:
        """(port, generation) of a running model process, starting one if allowed; else LocalModelDown."""
        with self._lock:
            while True:
                if self._closing:
                    raise LocalModelDown("the embedded model is shutting down with the run", STOPPED)
                if self._port is not None:
                    return self._port, self._generation
                if self._failure is not None:
                    raise LocalModelDown(self._failure, UNAVAILABLE if not self._deaths else STOPPED)
                if self._generation > self.restarts:
                    raise LocalModelDown(self._final_message(), STOPPED)
                self._wanted = True
                self._lock.notify_all()
                self._lock.wait(timeout=1.0)

    def _final_message(self) -> str:
        return (
            f"the embedded model stopped ({self._deaths[-1]}) and was already restarted once, so it is not "
            "started again; the rest of the run's local calls fail (see python -m harness.local.check)"
        )

    def _keep(self) -> None:
        while True:
            with self._lock:
                while not (self._wanted or self._closing):
                    self._lock.wait()
                if self._closing:
                    return
                self._wanted = False
                if self._generation > self.restarts or self._failure is not None:
                    self._lock.notify_all()  # no more processes: callers get the final message
                    continue
            process, port, failure = self._start()
            with self._lock:
                self._generation += 1
                if port is None:
                    if process is not None and process.returncode is not None and process.returncode < 0:
                        self._deaths.append(describe_exit(process.returncode))
                        self._failure = (
                            f"the embedded model stopped ({self._deaths[-1]}) while starting: this build of "
                            "llama.cpp cannot run on this CPU (python -m harness.local.check says more)"
                        )
                    else:
                        self._failure = failure
                    self._lock.notify_all()
                    continue
                self._process, self._port = process, port
                self._lock.notify_all()
            assert process is not None
            returncode = process.wait()
            with self._lock:
                self._port = None
                if not self._closing:
                    self._deaths.append(describe_exit(returncode))
                self._lock.notify_all()

    def _start(self) -> tuple[subprocess.Popen[bytes] | None, int | None, str | None]:
        env = {k: v for k, v in os.environ.items() if k in _ENV_ALLOWED or k.startswith("LC_")}
        env["HARNESS_LOCAL_TOKEN"] = self._child_token
        command = self._command or [sys.executable, "-m", "harness.local.server", "--engines", str(self.engines)]
        command = [*command, "--parent", str(os.getpid())]
        try:
            process = subprocess.Popen(
                command,
                stdin=subprocess.DEVNULL,
                stdout=subprocess.PIPE,
                stderr=self._log,
                env=env,
                cwd=_package_root(),
            )
        except OSError as exc:
            return None, None, f"cannot start the embedded model's process ({exc})"
        line = _first_line(process, START_TIMEOUT_S)
        if line.startswith("READY "):
            return process, int(line.split()[1]), None
        with contextlib.suppress(OSError):
            process.kill()
        with contextlib.suppress(subprocess.TimeoutExpired):
            process.wait(timeout=10)
        if line.startswith("UNAVAILABLE "):
            return process, None, line[len("UNAVAILABLE ") :]
        tail = self._log_tail()
        how = describe_exit(process.returncode) if process.returncode is not None else "no answer"
        return process, None, f"the embedded model's process did not start ({how}){f': {tail}' if tail else ''}"

    def _log_tail(self) -> str:
        with contextlib.suppress(OSError):
            text = Path(self._log.name).read_text("utf-8", "replace").strip()
            return " ".join(text.splitlines()[-3:])[-300:]
        return ""

    def death_during(self, generation: int, wait_s: float = 2.0) -> str | None:
        """How process `generation` ended, if it did (waiting briefly for the keeper to notice)."""
        deadline = time.monotonic() + wait_s
        with self._lock:
            while True:
                if len(self._deaths) >= generation:
                    return self._deaths[generation - 1]
                remaining = deadline - time.monotonic()
                if remaining <= 0 or self._closing:
                    return None
                self._lock.wait(timeout=remaining)

    def stopped_message(self, death: str) -> str:
        with self._lock:
            restarts_left = self._generation <= self.restarts and self._failure is None
        then = "it is started again for the rest of the run" if restarts_left else "it is not started again"
        return f"the embedded model stopped ({death}) while serving this call; {then}"

    def close(self) -> None:
        """Stop the model process (politely, then not) and the front; idempotent."""
        with self._lock:
            if self._closing:
                return
            self._closing = True
            process = self._process
            self._lock.notify_all()
        if process is not None and process.poll() is None:
            with contextlib.suppress(OSError):
                process.terminate()
            try:
                process.wait(timeout=5)
            except subprocess.TimeoutExpired:
                with contextlib.suppress(OSError):
                    process.kill()
                process.wait(timeout=5)
        self._front.shutdown()
        self._front.server_close()
        self._keeper.join(timeout=5)
        self._log.close()
        with contextlib.suppress(OSError):
            os.unlink(self._log.name)


class LocalModelDown(RuntimeError):
    """No model process can serve the call; `kind` says whether it stopped or never could start."""

    def __init__(self, message: str, kind: str) -> None:
        super().__init__(message)
        self.kind = kind


def _package_root() -> str:
    """Run the server from where `harness` is importable (an editable install or a checkout)."""
    return str(Path(__file__).resolve().parents[2])


def _first_line(process: subprocess.Popen[bytes], timeout: float) -> str:
    """The process's first stdout line, or "" if it ended or stayed silent for `timeout` seconds."""
    out: list[bytes] = []
    reader = threading.Thread(target=lambda: out.append(process.stdout.readline() if process.stdout else b""))
    reader.daemon = True
    reader.start()
    reader.join(timeout)
    return out[0].decode("utf-8", "replace").strip() if out else ""


class _Front(ThreadingHTTPServer):
    daemon_threads = True
    request_queue_size = 128

    def __init__(self, service: LocalModelService) -> None:
        super().__init__(("127.0.0.1", 0), _FrontHandler)
        self.service = service


class _FrontHandler(BaseHTTPRequestHandler):
    server: _Front
    protocol_version = "HTTP/1.1"

    def log_message(self, format: str, *args: Any) -> None:
        return None

    def _reply(self, status: int, data: bytes, content_type: str = "application/json") -> None:
        self.send_response(status)
        self.send_header("Content-Type", content_type)
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        with contextlib.suppress(OSError):
            self.wfile.write(data)

    def _error(self, status: int, message: str, kind: str) -> None:
        self._reply(status, json.dumps({"error": {"message": message, "type": kind}}).encode())

    def do_GET(self) -> None:
        service = self.server.service
        if self.path != "/health":
            self._error(404, f"no route {self.path}", "invalid_request_error")
            return
        body = {"ok": True, "engines": service.engines, "pid": service.pid, "deaths": service.deaths}
        self._reply(200, json.dumps(body).encode())

    def do_POST(self) -> None:
        service = self.server.service
        header = self.headers.get("Authorization") or ""
        if not secrets.compare_digest(header.encode(), f"Bearer {service.token}".encode()):
            self._error(401, "missing or wrong bearer token", "authentication_error")
            return
        try:
            length = int(self.headers.get("Content-Length") or "0")
        except ValueError:
            length = 0
        body = self.rfile.read(length) if length > 0 else b""
        try:
            port, generation = service.ensure()
        except LocalModelDown as exc:
            self._error(503, str(exc), exc.kind)
            return
        connection = http.client.HTTPConnection("127.0.0.1", port, timeout=None)
        try:
            connection.request(
                "POST",
                self.path,
                body=body,
                headers={"Content-Type": "application/json", "Authorization": f"Bearer {service._child_token}"},
            )
            response = connection.getresponse()
            data = response.read()
            status = response.status
        except (OSError, http.client.HTTPException) as exc:
            death = service.death_during(generation)
            if death is not None:
                self._error(503, service.stopped_message(death), STOPPED)
            else:
                self._error(502, f"the embedded model's process did not answer ({type(exc).__name__}: {exc})", "proxy")
            return
        finally:
            connection.close()
        self._reply(status, data)
