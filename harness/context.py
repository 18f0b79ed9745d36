"""What a benchmark may use while it works on one task: the system under test, judges, embeddings.

Benchmarks see only this object, so they stay independent of pytest, caching and routing.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from pydantic import BaseModel

from harness.judge import PromptLibrary, Verdict, judge_panel
from harness.llm.client import LLMClient
from harness.llm.records import CallRecord
from harness.llm.request import EmbeddingRequest
from harness.solvers import Answer, CallScope, Solver
from harness.tools import Tool


@dataclass
class Services:
    """Shared by every item of a process; built once per session."""

    client: LLMClient
    solver: Solver
    judge_models: list[str]
    judge_api_base: str | None
    embedding_model: str
    embedding_api_base: str | None
    prompts: PromptLibrary


@dataclass
class ItemContext:
    task: Any
    repeat: int
    services: Services
    records: list[CallRecord] = field(default_factory=list)

    @property
    def scope(self) -> CallScope:
        return CallScope(task_version=self.task.version, repeat=self.repeat, records=self.records)

    async def solve(self, prompt: str, *, system: str | None = None, tools: list[Tool] | None = None) -> Answer:
        """Ask the system under test."""
        info = {
            "id": self.task.id,
            "suite": self.task.suite,
            "version": self.task.version,
            "metadata": self.task.metadata.model_dump(mode="json"),
        }
        return await self.services.solver.solve(prompt, system=system, tools=tools or [], scope=self.scope, task=info)

    async def judge(self, template: str, variables: dict[str, Any], schema_model: type[BaseModel]) -> list[Verdict]:
        """Ask every judge of the panel to fill `schema_model` from the rendered template."""
        prompt = self.services.prompts.render(template, variables)
        return await judge_panel(
            self.services.client,
            models=self.services.judge_models,
            prompt=prompt,
            schema_model=schema_model,
            api_base=self.services.judge_api_base,
            task_version=self.task.version,
            repeat=self.repeat,
            records=self.records,
        )

    async def embed(self, texts: list[str]) -> list[list[float]]:
        request = EmbeddingRequest(self.services.embedding_model, tuple(texts), self.services.embedding_api_base)
        vectors, _ = await self.services.client.embed(request, records=self.records)
        return vectors
