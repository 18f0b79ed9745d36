"""What a benchmark may use while it works on one item: the system under test, the base model, judges,
embeddings, the task's files, per-process resources and stage labels.

Benchmarks see only this object, so they stay independent of pytest, caching and routing: every model
call made through it is cached, budgeted, recorded (with its stage) and replayable.
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import inspect
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from pydantic import BaseModel

from harness.errors import ConfigError, JudgeError, SystemFailure
from harness.judge import REFERENCE_JUDGE, PromptLibrary, TextParser, Verdict, judge_once, judge_panel
from harness.llm.client import LLMClient
from harness.llm.endpoint import Endpoint
from harness.llm.records import CallRecord
from harness.llm.request import ChatRequest, EmbeddingRequest
from harness.llm.stages import stage
from harness.model_handle import ModelHandle
from harness.solvers import Answer, CallScope, LoopLimits, Solver
from harness.tools import Tool


class Resources:
    """Per-process values built once and shared by every item (a search index, an ad index).

    A build runs off the event loop; concurrent items asking for the same key wait for one build. A
    failed build is remembered, so each item gets the same error at once instead of building again.
    With `persist`, the builder gets a folder of its own under the cache directory to keep its files
    across runs (it decides what to store and when it is stale; the key should name the inputs' version).
    """

    def __init__(self, store_dir: Path | None) -> None:
        self._store_dir = store_dir
        self._values: dict[str, Any] = {}
        self._failures: dict[str, BaseException] = {}
        self._locks: dict[str, asyncio.Lock] = {}

    def folder_for(self, key: str) -> Path | None:
        if self._store_dir is None:
            return None
        return self._store_dir / hashlib.sha256(key.encode("utf-8")).hexdigest()[:24]

    async def get(self, key: str, build: Callable[..., Any], *, persist: bool = False) -> Any:
        if key in self._values:
            return self._values[key]
        if key in self._failures:
            raise self._failures[key]
        lock = self._locks.setdefault(key, asyncio.Lock())
        async with lock:
            if key in self._values:
                return self._values[key]
            if key in self._failures:
                raise self._failures[key]
            args: tuple[Any, ...] = ()
            if persist:
                folder = self.folder_for(key)
                if folder is not None:
                    folder.mkdir(parents=True, exist_ok=True)
                args = (folder,)
            try:
                if inspect.iscoroutinefunction(build):
                    value = await build(*args)
                else:
                    value = await asyncio.to_thread(build, *args)
            except Exception as exc:
                self._failures[key] = exc
                raise
            self._values[key] = value
            return value


@dataclass
class Services:
    """Shared by every item of a process; built once per session."""

    client: LLMClient
    solver: Solver
    base: Endpoint  # --model: the system under test's model, and the base model of pipelines
    judges: list[Endpoint]
    embedding: Endpoint
    prompts: PromptLibrary
    fixtures_dir: Path
    resources: Resources
    options: dict[str, Any] = field(default_factory=dict)  # benchmark-declared options, by dest name
    sut_settings: dict[str, Any] = field(default_factory=dict)
    agent: bool = False  # the system under test is the user's agent, not --model itself
    embedding_dimensions: int | None = None
    gateway: Any = None  # harness.gateway.Gateway while the run has an agent

    @property
    def judge_models(self) -> list[str]:
        return [j.model for j in self.judges]


@dataclass
class ItemContext:
    """One item: (task, variant, repeat)."""

    task: Any
    services: Services
    variant: str | None = None
    repeat: int = 0
    task_path: Path | None = None
    repeats: int = 1  # how many repeats of each item the run makes (harness.item_names names the repeat only then)
    records: list[CallRecord] = field(default_factory=list)
    judges: list[dict[str, Any]] = field(default_factory=list)  # every judge's verdict or failure, in order
    prompt: str | None = None  # what the system under test was first asked (the report's drill-down shows it)
    # The wall time of the system's own work (ItemContext.system_work); None while it has not run.
    system_s: float | None = None
    _system_depth: int = 0
    _system_since: float = 0.0

    stage = staticmethod(stage)

    @contextlib.contextmanager
    def system_work(self) -> Iterator[None]:
        """The system under test at work (`solve` and `chat` are): the calls made meanwhile, but the judges',
        are its own, and the time is its latency. Tech-Market Fit sets the system's cost and time against an
        expert's, so the evaluation's calls and waits must not count. Overlapping blocks count once."""
        start = len(self.records)
        if self._system_depth == 0:
            self._system_since = time.perf_counter()
        self._system_depth += 1
        try:
            yield
        finally:
            self._system_depth -= 1
            if self._system_depth == 0:
                self.system_s = (self.system_s or 0.0) + time.perf_counter() - self._system_since
            for record in self.records[start:]:
                record.system = record.system or record.namespace != "judge"

    # -- files and resources --------------------------------------------------------------------

    @property
    def fixtures_dir(self) -> Path:
        return self.services.fixtures_dir

    def path(self, relative: str) -> Path:
        """A path written in the task file, relative to that file's folder."""
        base = self.task_path.parent if self.task_path is not None else Path.cwd()
        return (base / relative).resolve()

    def option(self, name: str, default: Any = None) -> Any:
        """A benchmark-declared command-line option (by its dest name)."""
        return self.services.options.get(name, default)

    async def resource(self, key: str, build: Callable[..., Any], *, persist: bool = False) -> Any:
        return await self.services.resources.get(key, build, persist=persist)

    async def world(self, name: str) -> Any:
        """The offline world `fixtures/worlds/<name>/`, loaded and indexed once per process."""
        from harness.world import load_world

        folder = self.fixtures_dir / "worlds" / name
        return await self.resource(f"world:{folder}", lambda: load_world(folder))

    # -- model work ------------------------------------------------------------------------------

    @property
    def scope(self) -> CallScope:
        return CallScope(task_version=self.task.version, repeat=self.repeat, records=self.records, repeats=self.repeats)

    def task_info(self) -> dict[str, Any]:
        """What an agent is told about its task: its identity and its inputs (never the ground truth)."""
        return {
            "id": self.task.id,
            "suite": self.task.suite,
            "kind": self.task.kind,
            "version": self.task.version,
            "variant": self.variant,
            "repeat": self.repeat,
            "metadata": self.task.metadata.model_dump(mode="json"),
            "inputs": self.task.inputs.model_dump(mode="json"),
        }

    def model_handle(self) -> ModelHandle:
        """The base model for code that is not a benchmark (a user's agent): cached, budgeted, recorded."""
        services = self.services
        return ModelHandle(
            services.client,
            services.base,
            services.embedding,
            self.scope,
            services.embedding_dimensions,
            settings=services.sut_settings,
        )

    async def solve(
        self,
        prompt: str,
        *,
        system: str | None = None,
        tools: list[Tool] | None = None,
        limits: LoopLimits | None = None,
    ) -> Answer:
        """Ask the system under test (the model with its tool loop within `limits`, or the user's agent). An
        answer with no text is the system's failure (SystemFailure: the item scores 0 and says why)."""
        if self.prompt is None:
            self.prompt = f"[system]\n{system}\n\n[user]\n{prompt}" if system else prompt
        with self.system_work():
            answer = await self.services.solver.solve(
                prompt,
                system=system,
                tools=tools or [],
                scope=self.scope,
                task=self.task_info(),
                model=self.model_handle(),
                limits=limits,
            )
        if not answer.text.strip():
            # What the attempt cost stays on the record: its effort, and whether a cap stopped it.
            effort = {"tool_calls": float(len(answer.tool_calls)), "steps": float(answer.steps),
                      "tokens": float(answer.tokens)}  # fmt: skip
            details = {"stopped": answer.stopped, "trajectory": answer.tool_calls}
            if answer.stopped:
                cap = "step limit" if answer.stopped == "step_limit" else "token budget"
                raise SystemFailure(
                    f"the system under test reached its {cap} ({answer.steps} turns, {answer.tokens:,} tokens) and "
                    "gave no answer in the final turn it was given to answer",
                    metrics=effort,
                    details=details,
                )
            raise SystemFailure("the system under test gave an empty answer", metrics=effort, details=details)
        return answer

    async def chat(self, messages: list[dict[str, Any]], **settings: Any) -> dict[str, Any]:
        """One call to the base model (`--model`), for pipelines that are not a single solve. Returns the
        normalized reply (content, tool_calls, finish_reason, input_tokens, output_tokens). The run's
        settings for the system under test (--temperature, --max-tokens, --seed) apply; a setting the call
        gives itself wins, as for an agent's calls through the gateway."""
        if self.prompt is None:
            self.prompt = "\n\n".join(f"[{m.get('role', '?')}]\n{_text_of(m.get('content'))}" for m in messages)
        base = self.services.base
        merged = {**self.services.sut_settings, **settings}
        request = ChatRequest.build(base.model, messages, api_base=base.api_base, key_env=base.key_env, **merged)
        with self.system_work():
            reply, _, _ = await self.services.client.chat(
                request, namespace="sut", task_version=self.task.version, repeat=self.repeat, records=self.records
            )
        return reply

    async def judge(
        self,
        template: str,
        variables: dict[str, Any],
        schema_model: type[BaseModel],
        *,
        settings: dict[str, Any] | None = None,
        text_parser: TextParser | None = None,
        name: str | None = None,
        reference: Callable[[], dict[str, Any]] | None = None,
    ) -> list[Verdict]:
        """Ask every judge of the panel to fill `schema_model` from the rendered template. Each judge's
        verdict or failure is recorded (`ctx.judges`); if any judge failed, the item is a judge error that
        names it (a score from part of a panel is not the score the panel would give). The reference judge
        (`harness/reference`) answers with `reference()`, the benchmark's mechanical reading of the rubric;
        a benchmark that offers none cannot be judged by it."""
        label = name or template
        models = [m for m in self.services.judge_models if m != REFERENCE_JUDGE]
        mechanical: list[Verdict] = []
        if len(models) < len(self.services.judge_models):
            if reference is None:
                raise JudgeError(f"the reference judge has no mechanical rubric for {label}; choose a model")
            value = schema_model.model_validate(reference()).model_dump(mode="json")
            mechanical.append(Verdict(REFERENCE_JUDGE, value, "", value.get("reasoning")))
        if not models:
            for verdict in mechanical:
                self.judges.append({"judge": verdict.model, "template": label, "ok": True, "value": verdict.value})
            return mechanical
        prompt = self.services.prompts.render(template, variables)
        # The model judges, each with the judges' base URL and key (the first model judge's, as before).
        first = next(j for j in self.services.judges if j.model != REFERENCE_JUDGE)
        panel = await judge_panel(
            self.services.client,
            judges=[replace(first, model=model) for model in models],
            prompt=prompt,
            schema_model=schema_model,
            scope=self.scope,
            settings=settings,
            text_parser=text_parser,
        )
        panel.verdicts += mechanical
        shown = shown_prompt(prompt)
        for verdict in panel.verdicts:
            entry = {"judge": verdict.model, "template": label, "ok": True, "value": verdict.value}
            self.judges.append(entry if verdict.model == REFERENCE_JUDGE else {**entry, "prompt": shown})
        for model, reason in panel.failures.items():
            self.judges.append({"judge": model, "template": label, "ok": False, "error": reason, "prompt": shown})
        if panel.failures:
            failed = ", ".join(f"{m}: {r}" for m, r in panel.failures.items())
            raise JudgeError(
                f"{len(panel.failures)} of {len(self.services.judges)} judges gave no verdict for {label} ({failed})"
            )
        return panel.verdicts

    async def judge_first(
        self,
        template: str,
        variables: dict[str, Any],
        schema_model: type[BaseModel],
        *,
        settings: dict[str, Any] | None = None,
        text_parser: TextParser | None = None,
        name: str | None = None,
    ) -> Verdict:
        """One call to the panel's first model judge, for a step all judges then share (reading an answer's
        lists before the panel scores them). Recorded in `ctx.judges`; a failure is a judge error."""
        first = next((j for j in self.services.judges if j.model != REFERENCE_JUDGE), None)
        if first is None:
            raise JudgeError(f"{name or template} needs a model judge; the reference judge has none")
        label = name or template
        prompt = self.services.prompts.render(template, variables)
        try:
            verdict = await judge_once(
                self.services.client,
                judge=first,
                prompt=prompt,
                schema_model=schema_model,
                scope=self.scope,
                settings=settings,
                text_parser=text_parser,
            )
        except JudgeError as exc:
            self.judges.append(
                {"judge": first.model, "template": label, "ok": False, "error": str(exc)[:300],
                 "prompt": shown_prompt(prompt)}
            )  # fmt: skip
            raise
        entry = {"judge": first.model, "template": label, "ok": True, "value": verdict.value}
        self.judges.append({**entry, "prompt": shown_prompt(prompt)})
        return verdict

    @property
    def reference_judge_only(self) -> bool:
        """Whether the panel is the reference judge alone (benchmarks skip model-only steps then)."""
        return self.services.judge_models == [REFERENCE_JUDGE]

    async def generate_once(
        self,
        template: str,
        variables: dict[str, Any],
        schema_model: type[BaseModel],
        *,
        model: str,
        settings: dict[str, Any] | None = None,
        text_parser: TextParser | None = None,
        name: str | None = None,
    ) -> Verdict:
        """A judge-side call made once per task and model, whatever the variant, repeat or system under
        test (e.g. a rubric written from the ground truth): its key holds no repeat, so every item of the
        task, in this run and later ones, reads the same cached reply. It must not depend on the answer's
        text (a verdict on something the answer named, read from the benchmark's own data, may use it).
        Recorded in `ctx.judges` under `name` (default: the template)."""
        endpoint = next((j for j in self.services.judges if j.model == model), self.services.judges[0])
        prompt = self.services.prompts.render(template, variables)
        label = name or template
        try:
            verdict = await judge_once(
                self.services.client,
                judge=replace(endpoint, model=model),
                prompt=prompt,
                schema_model=schema_model,
                scope=replace(self.scope, repeat=None),  # no repeat in its key
                settings=settings,
                text_parser=text_parser,
            )
        except Exception as exc:
            failure = {"judge": model, "template": label, "ok": False, "error": str(exc)[:300]}
            self.judges.append({**failure, "prompt": shown_prompt(prompt)})
            raise
        self.judges.append(
            {"judge": model, "template": label, "ok": True, "value": verdict.value, "prompt": shown_prompt(prompt)}
        )
        return verdict

    async def embed(self, texts: list[str]) -> list[list[float]]:
        embedding = self.services.embedding
        request = EmbeddingRequest(
            embedding.model, tuple(texts), embedding.api_base, embedding.key_env, self.services.embedding_dimensions
        )
        vectors, _ = await self.services.client.embed(request, records=self.records)
        return vectors

    def require_base_model(self, what: str) -> str:
        """The base model's name, for benchmarks whose pipelines call it directly."""
        if not self.services.base.model:
            raise ConfigError(f"{what} needs a base model: pass --model")
        return self.services.base.model


def shown_prompt(prompt: Any) -> str | None:
    """The judge's prompt as it was sent (each message under its role), as the report keeps it: a reader
    of a failed item sees exactly what the judge was shown, the reference and the answer included."""
    from harness.result import clip_prompt

    messages = getattr(prompt, "messages", None) or ()
    return clip_prompt("\n\n".join(f"[{m.get('role', '?')}]\n{_text_of(m.get('content'))}" for m in messages))


def _text_of(content: Any) -> str:
    """A message's content as text: a list of parts is joined, a part that is not text is named."""
    if isinstance(content, str):
        return content
    if isinstance(content, list):
        return "\n".join(
            str(part.get("text", f"<{part.get('type', 'part')}>")) if isinstance(part, dict) else str(part)
            for part in content
        )
    return "" if content is None else str(content)
