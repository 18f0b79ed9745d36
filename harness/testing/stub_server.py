"""A small OpenAI-compatible HTTP server on 127.0.0.1 for tests and benchmarks.

It speaks the real protocol (POST /v1/chat/completions, POST /v1/embeddings) and can answer, delay, fail
with 429 (with Retry-After) or 500, hang past a client's timeout, or send a malformed body: per request
(header `x-stub-fault`) or at random with a seeded fault rate. Like a provider, it can enforce a rate
limit (`max_in_flight`: one request more is a 429 with Retry-After). `GET /_stats` tells what it served and
`POST /_control` changes its behaviour while it runs.

    python -m harness.testing.stub_server --port 0 --latency 0.2      # prints "PORT <n>" when ready
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import hashlib
import json
import random
import re
import time
from collections import Counter
from dataclasses import dataclass, field
from typing import Any

FAULTS = ("429", "500", "timeout", "malformed")


@dataclass
class StubConfig:
    latency_s: float = 0.0
    fault_rate: float = 0.0
    faults: tuple[str, ...] = FAULTS
    seed: int = 0
    retry_after_s: float = 0.0
    hang_s: float = 30.0
    default_answer: str = "I do not know."
    answers: dict[str, str] = field(default_factory=dict)  # substring of the last user message -> reply
    # substring of the first user message -> one tool call {name, arguments}, or a list of them made one per
    # turn (the n-th after n earlier tool turns); once they are used up the stub answers as usual
    tool_calls: dict[str, Any] = field(default_factory=dict)
    # How the stub judges: rules [substring, {field: value}] matched against the text inside the prompt's
    # data sections (<<<BEGIN name code>>> ... <<<END name code>>>), first match wins; then judge_default;
    # any other field of the schema gets a plain filler. Nothing is read from a template's own wording.
    judge_rules: list[list[Any]] = field(default_factory=list)
    judge_default: dict[str, Any] = field(default_factory=dict)
    # A judge asked in words (no response_format) gets this text when its prompt has a data section, e.g.
    # "Reasoning...\nScore: 4" for judges that read a score line.
    judge_text: str | None = None
    required_key: str | None = None  # if set, requests must carry "Authorization: Bearer <key>"
    broken_json: bool = False  # answer structured-output requests with text that is not JSON
    reject_response_format: bool = False  # answer 400 to any request with response_format, like older servers
    script: list[str] = field(default_factory=list)  # faults for the next requests, in order ("ok" = none)
    fail_models: list[str] = field(default_factory=list)  # requests naming these models get a 400
    # substrings of the last user message whose reply comes back cut, finish_reason "length" (a model that
    # reached its max_tokens)
    truncated: list[str] = field(default_factory=list)
    # A real rate limit, as providers enforce one per key: at most this many requests in flight (0: none);
    # one more is answered 429 with Retry-After (retry_after_s) at once, before any work.
    max_in_flight: int = 0
    # What answered, as a provider reports it: requested model -> the name its replies give (a provider that
    # serves another snapshot under the name asked for), and a system_fingerprint for chat replies (None: the
    # field is left out, as many servers do).
    served_models: dict[str, str] = field(default_factory=dict)
    system_fingerprint: str | None = None

    def update(self, changes: dict[str, Any]) -> None:
        for name, value in changes.items():
            if not hasattr(self, name):
                raise KeyError(name)
            setattr(self, name, tuple(value) if name == "faults" else list(value) if name == "script" else value)


@dataclass
class StubStats:
    requests: int = 0
    by_status: Counter[str] = field(default_factory=Counter)
    by_fault: Counter[str] = field(default_factory=Counter)
    ok_bodies: list[str] = field(default_factory=list)  # sha256 of each request body answered 200
    # What each answered chat request asked for: its "model" and its top-level fields other than the
    # messages, so a test sees what went upstream, not what the client says it sent.
    ok_requests: list[dict[str, Any]] = field(default_factory=list)
    seen_auth: set[str] = field(default_factory=set)
    embedded_texts: list[str] = field(default_factory=list)
    rate_limited: int = 0  # requests refused by max_in_flight
    peak_in_flight: int = 0  # the most requests it worked on at once
    sequence: list[str] = field(default_factory=list)  # each request's fate in order: "ok", "429", "other"
    model_lists: int = 0  # GET /models: free requests (the harness's check before a run), not in `requests`
    model_list_auth: set[str] = field(default_factory=set)  # the Authorization headers those carried

    def to_json(self) -> dict[str, Any]:
        return {
            "requests": self.requests,
            "by_status": dict(self.by_status),
            "by_fault": dict(self.by_fault),
            "ok_bodies": list(self.ok_bodies),
            "ok_requests": list(self.ok_requests),
            "seen_auth": sorted(self.seen_auth),
            "embedded_texts": list(self.embedded_texts),
            "rate_limited": self.rate_limited,
            "peak_in_flight": self.peak_in_flight,
            "sequence": list(self.sequence),
            "model_lists": self.model_lists,
            "model_list_auth": sorted(self.model_list_auth),
        }


def _request_fields(raw: bytes) -> dict[str, Any]:
    """A request body's fields other than its messages and input (which can be large)."""
    try:
        body = json.loads(raw)
    except ValueError:
        return {}
    return {k: v for k, v in body.items() if k not in ("messages", "input")} if isinstance(body, dict) else {}


def _text(content: Any) -> str:
    """A message's text, whether its content is a string or a list of parts ({"type": "text", ...})."""
    if isinstance(content, list):
        return " ".join(part.get("text", "") for part in content if isinstance(part, dict))
    return str(content or "")


def _last_user_text(messages: list[dict[str, Any]]) -> str:
    for message in reversed(messages):
        if message.get("role") == "user":
            content = message.get("content")
            if isinstance(content, list):
                return " ".join(part.get("text", "") for part in content if isinstance(part, dict))
            return str(content or "")
    return ""


_DATA = re.compile(r"<<<BEGIN (\S+) (\w+)>>>\n(.*?)\n<<<END \1 \2>>>", re.DOTALL)


def data_sections(text: str) -> list[str]:
    """The contents of the data sections in a prompt (the harness's marker format, a documented contract)."""
    return [m.group(3) for m in _DATA.finditer(text)]


def judge_values(rules: list[list[Any]], default: dict[str, Any], prompt: str) -> dict[str, Any]:
    data = "\n".join(data_sections(prompt))
    for needle, values in rules:
        if needle in data:
            return dict(values)
    return dict(default)


def fill_schema(schema: dict[str, Any], chosen: dict[str, Any], defs: dict[str, Any] | None = None) -> Any:
    """A value that satisfies a (simple) JSON schema, taking top-level fields from `chosen` where given."""
    defs = defs if defs is not None else schema.get("$defs", {})
    if "$ref" in schema:
        return fill_schema(defs[schema["$ref"].rsplit("/", 1)[-1]], chosen, defs)
    if "enum" in schema:
        return schema["enum"][0]
    if "const" in schema:
        return schema["const"]
    if "anyOf" in schema:
        return fill_schema(schema["anyOf"][0], {}, defs)
    kind = schema.get("type", "object")
    if kind == "object":
        props = schema.get("properties", {})
        return {name: chosen[name] if name in chosen else fill_schema(sub, {}, defs) for name, sub in props.items()}
    if kind == "array":
        return [fill_schema(schema.get("items", {}), {}, defs)] * int(schema.get("minItems", 0))
    if kind == "integer":
        return int(schema.get("minimum", 1))
    if kind == "number":
        return float(schema.get("minimum", 1.0))
    if kind == "boolean":
        return True
    return "stub reasoning"


class StubServer:
    def __init__(self, config: StubConfig) -> None:
        self.config = config
        self.stats = StubStats()
        self._rng = random.Random(config.seed)
        self._in_flight = 0

    def _pick_fault(self, request_fault: str | None) -> str | None:
        if request_fault:
            return request_fault
        if self.config.script:
            step = self.config.script.pop(0)
            return None if step == "ok" else step
        if self.config.fault_rate > 0 and self._rng.random() < self.config.fault_rate:
            return self._rng.choice(self.config.faults)
        return None

    async def _maybe_fault(self, request: Any) -> Any:
        from aiohttp import web

        fault = self._pick_fault(request.headers.get("x-stub-fault"))
        if fault is None:
            return None
        self.stats.by_fault[fault] += 1
        if fault == "429":
            headers = {"Retry-After": f"{self.config.retry_after_s:g}"}
            return web.json_response({"error": {"message": "rate limited (stub)"}}, status=429, headers=headers)
        if fault == "500":
            return web.json_response({"error": {"message": "internal error (stub)"}}, status=500)
        if fault == "timeout":
            await asyncio.sleep(self.config.hang_s)
            return web.json_response({"error": {"message": "too late (stub)"}}, status=504)
        if fault == "malformed":
            return web.Response(status=200, text='{"id": "broken", "choices": [', content_type="application/json")
        if fault.isdigit():
            return web.json_response({"error": {"message": f"status {fault} (stub)"}}, status=int(fault))
        return None

    def _check_auth(self, request: Any) -> Any:
        from aiohttp import web

        auth = request.headers.get("Authorization", "")
        self.stats.seen_auth.add(auth)
        if self.config.required_key and auth != f"Bearer {self.config.required_key}":
            return web.json_response({"error": {"message": "invalid api key (stub)"}}, status=401)
        return None

    def _limited(self, handler: Any) -> Any:
        """`handler` behind the rate limit (max_in_flight), with each request's fate in stats.sequence."""
        from aiohttp import web

        async def limited(request: Any) -> Any:
            limit = self.config.max_in_flight
            if limit and self._in_flight >= limit:
                self.stats.requests += 1
                self.stats.rate_limited += 1
                self.stats.by_status["429"] += 1
                if len(self.stats.sequence) < 100_000:
                    self.stats.sequence.append("429")
                headers = {"Retry-After": f"{self.config.retry_after_s:g}"}
                return web.json_response({"error": {"message": "rate limit (stub)"}}, status=429, headers=headers)
            self._in_flight += 1
            self.stats.peak_in_flight = max(self.stats.peak_in_flight, self._in_flight)
            fate = "other"
            try:
                response = await handler(request)
                fate = "ok" if response.status == 200 else str(response.status)
                return response
            finally:
                self._in_flight -= 1
                if len(self.stats.sequence) < 100_000:
                    self.stats.sequence.append(fate)

        return limited

    async def chat(self, request: Any) -> Any:
        from aiohttp import web

        self.stats.requests += 1
        raw = await request.read()
        denied = self._check_auth(request)
        if denied is not None:
            self.stats.by_status["401"] += 1
            return denied
        delay = float(request.headers.get("x-stub-delay", self.config.latency_s))
        if delay:
            await asyncio.sleep(delay)
        faulty = await self._maybe_fault(request)
        if faulty is not None:
            self.stats.by_status[str(faulty.status)] += 1
            return faulty
        try:
            body = json.loads(raw)
            messages = body["messages"]
        except (ValueError, KeyError, TypeError):
            self.stats.by_status["400"] += 1
            return web.json_response({"error": {"message": "bad request body (stub)"}}, status=400)
        if body.get("model") in self.config.fail_models:
            self.stats.by_status["400"] += 1
            return web.json_response({"error": {"message": f"model {body['model']} is not served (stub)"}}, status=400)
        if self.config.reject_response_format and body.get("response_format"):
            self.stats.by_status["400"] += 1
            return web.json_response({"error": {"message": "response_format is not supported (stub)"}}, status=400)
        message, finish = self._reply(body, messages, raw)
        completion = len(json.dumps(message)) // 4 + 1
        prompt_tokens = sum(len(str(m.get("content") or "")) for m in messages) // 4 + 1
        payload = {
            "id": "chatcmpl-stub",
            "object": "chat.completion",
            "created": int(time.time()),
            "model": self._served(body.get("model", "stub")),
            "choices": [{"index": 0, "message": message, "finish_reason": finish}],
            "usage": {
                "prompt_tokens": prompt_tokens,
                "completion_tokens": completion,
                "total_tokens": prompt_tokens + completion,
            },
        }
        if self.config.system_fingerprint is not None:
            payload["system_fingerprint"] = self.config.system_fingerprint
        return await self._deliver(request, payload, raw)

    def _served(self, model: Any) -> Any:
        return self.config.served_models.get(str(model), model)

    async def _deliver(self, request: Any, payload: dict[str, Any], raw: bytes) -> Any:
        """Write the reply, and count it as delivered only once it went out on a connection that was still
        open (a client that gave up meanwhile did not get it, so it was not "paid for")."""
        from aiohttp import web

        response = web.Response(text=json.dumps(payload), content_type="application/json")
        transport = request.transport
        if transport is None or transport.is_closing():
            self.stats.by_status["client-gone"] += 1
            raise ConnectionResetError("the client closed the connection before the reply")
        await response.prepare(request)
        await response.write_eof()
        if transport.is_closing():
            self.stats.by_status["client-gone"] += 1
            return response
        self.stats.by_status["200"] += 1
        self.stats.ok_bodies.append(hashlib.sha256(raw).hexdigest())
        self.stats.ok_requests.append(_request_fields(raw))
        return response

    def _reply(self, body: dict[str, Any], messages: list[dict[str, Any]], raw: bytes) -> tuple[dict[str, Any], str]:
        prompt = _last_user_text(messages)
        first_user = next((str(m.get("content")) for m in messages if m.get("role") == "user"), prompt)
        message: dict[str, Any] = {"role": "assistant", "content": None}
        tool_turns = sum(1 for m in messages if m.get("role") == "assistant" and m.get("tool_calls"))
        rule = next((v for k, v in self.config.tool_calls.items() if k in first_user), None)
        script = rule if isinstance(rule, list) else [rule] if rule else []
        response_format = body.get("response_format") or {}
        if body.get("tools") and body.get("tool_choice") != "none" and tool_turns < len(script):
            call = script[tool_turns]
            message["tool_calls"] = [
                {
                    "id": f"call_{tool_turns}_" + hashlib.sha1(raw).hexdigest()[:8],
                    "type": "function",
                    "function": {"name": call["name"], "arguments": json.dumps(call["arguments"])},
                }
            ]
            return message, "tool_calls"
        if response_format and self.config.broken_json:
            message["content"] = "I think it is fine, but I will not write JSON."
        elif response_format.get("type") == "json_schema":
            schema = response_format["json_schema"]["schema"]
            # The rules read the data the judge was first shown, so a judge's retry (whose last message is
            # the harness's complaint) gets the same verdict: a rule that makes a judge fail fails its retry.
            chosen = judge_values(self.config.judge_rules, self.config.judge_default, first_user)
            message["content"] = json.dumps(fill_schema(schema, chosen))
        elif response_format.get("type") == "json_object":
            message["content"] = json.dumps({"answer": self._answer(prompt, messages)})
        else:
            message["content"] = self._answer(prompt, messages)
        return message, "length" if any(needle in prompt for needle in self.config.truncated) else "stop"

    def _answer(self, prompt: str, messages: list[dict[str, Any]]) -> str:
        first_user = next((str(m.get("content")) for m in messages if m.get("role") == "user"), prompt)
        if self.config.judge_text is not None and data_sections(first_user):  # a judge, or its retry
            return self.config.judge_text
        if (self.config.judge_rules or self.config.judge_default) and data_sections(prompt):
            # a judge asked in words only (its server refused structured output)
            chosen = judge_values(self.config.judge_rules, self.config.judge_default, prompt)
            return json.dumps({"reasoning": "stub reasoning", **chosen})
        tool_outputs = [_text(m.get("content")) for m in messages if m.get("role") == "tool"]
        if tool_outputs:  # a tool's {"result": ...} is the answer (the calculator); other outputs are not
            try:
                result = json.loads(tool_outputs[-1]).get("result")
            except (ValueError, AttributeError):
                result = None
            if result is not None:
                return str(result)
        for needle, answer in self.config.answers.items():
            if needle in prompt:
                return answer
        return self.config.default_answer

    async def embeddings(self, request: Any) -> Any:
        from aiohttp import web

        self.stats.requests += 1
        denied = self._check_auth(request)
        if denied is not None:
            self.stats.by_status["401"] += 1
            return denied
        delay = float(request.headers.get("x-stub-delay", self.config.latency_s))
        if delay:
            await asyncio.sleep(delay)
        faulty = await self._maybe_fault(request)
        if faulty is not None:
            self.stats.by_status[str(faulty.status)] += 1
            return faulty
        body = await request.json()
        texts = body["input"] if isinstance(body["input"], list) else [body["input"]]
        self.stats.embedded_texts.extend(str(t) for t in texts)
        data = []
        for index, text in enumerate(texts):
            digest = hashlib.sha256(str(text).encode()).digest()
            size = int(body.get("dimensions") or 8)  # honours `dimensions` up to 32
            data.append({"object": "embedding", "index": index, "embedding": [b / 255 for b in digest[:size]]})
        self.stats.by_status["200"] += 1
        tokens = sum(len(str(t)) // 4 + 1 for t in texts)
        return web.json_response(
            {
                "object": "list",
                "data": data,
                "model": self._served(body.get("model")),
                "usage": {"prompt_tokens": tokens, "total_tokens": tokens},
            }
        )

    async def models(self, request: Any) -> Any:
        """The model list, free: what a client asks to see that the server answers and takes its key."""
        from aiohttp import web

        self.stats.model_lists += 1
        auth = request.headers.get("Authorization", "")  # kept apart from seen_auth, which the paid calls fill
        self.stats.model_list_auth.add(auth)
        if self.config.required_key and auth != f"Bearer {self.config.required_key}":
            return web.json_response({"error": {"message": "invalid api key (stub)"}}, status=401)
        return web.json_response({"object": "list", "data": [{"id": "stub", "object": "model"}]})

    async def get_stats(self, request: Any) -> Any:
        from aiohttp import web

        return web.json_response(self.stats.to_json())

    async def control(self, request: Any) -> Any:
        from aiohttp import web

        changes = await request.json()
        if changes.pop("reset_stats", False):
            self.stats = StubStats()
        if "seed" in changes:
            self._rng = random.Random(changes["seed"])
        try:
            self.config.update(changes)
        except KeyError as exc:
            return web.json_response({"error": f"unknown setting {exc}"}, status=400)
        return web.json_response({"ok": True})

    def app(self) -> Any:
        from aiohttp import web

        app = web.Application(client_max_size=64 * 2**20)
        app.router.add_post("/v1/chat/completions", self._limited(self.chat))
        app.router.add_post("/chat/completions", self._limited(self.chat))
        app.router.add_post("/v1/embeddings", self._limited(self.embeddings))
        app.router.add_get("/v1/models", self.models)
        app.router.add_get("/models", self.models)
        app.router.add_get("/_stats", self.get_stats)
        app.router.add_post("/_control", self.control)
        return app


async def serve(config: StubConfig, port: int = 0, ready: Any = None) -> None:
    from aiohttp import web

    server = StubServer(config)
    runner = web.AppRunner(server.app(), access_log=None)
    await runner.setup()
    site = web.TCPSite(runner, "127.0.0.1", port, backlog=1024)
    await site.start()
    bound = site._server.sockets[0].getsockname()[1]  # type: ignore[union-attr]
    if ready is not None:
        ready(bound)
    try:
        await asyncio.Event().wait()
    finally:
        await runner.cleanup()


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--port", type=int, default=0)
    parser.add_argument("--latency", type=float, default=0.0)
    parser.add_argument("--fault-rate", type=float, default=0.0)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument(
        "--config", default=None, help="JSON with any StubConfig fields, or a file holding it (answers, judge rules...)"
    )
    parser.add_argument("--parent", type=int, default=None, help="exit when this process ends")
    args = parser.parse_args(argv)
    if args.parent is not None:
        from harness.processes import die_with_parent

        die_with_parent(args.parent)
    config = StubConfig(latency_s=args.latency, fault_rate=args.fault_rate, seed=args.seed)
    if args.config:
        from pathlib import Path

        # inline JSON is an object; anything else names a file (asking the filesystem about a long JSON
        # text fails with "File name too long")
        inline = args.config.lstrip().startswith("{")
        text = args.config if inline else Path(args.config).read_text(encoding="utf-8")
        config.update(json.loads(text))

    def ready(port: int) -> None:
        print(f"PORT {port}", flush=True)

    with contextlib.suppress(KeyboardInterrupt):
        asyncio.run(serve(config, args.port, ready))


if __name__ == "__main__":
    main()
