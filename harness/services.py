"""Build the per-process services (cache, client, system under test, judges) from the settings."""

from __future__ import annotations

import importlib.util
from pathlib import Path

from harness.cache import CallCache
from harness.context import Services
from harness.judge import PromptLibrary
from harness.llm.client import Budget, ClientSettings, LLMClient
from harness.llm.pricing import load_price_file
from harness.settings import Settings
from harness.solvers import AgentSolver, ModelSolver, Solver


def builtin_prompts_dir() -> Path:
    """The harness's own templates: the top-level prompts/ folder, shipped in the wheel as `harness_prompts`."""
    spec = importlib.util.find_spec("harness_prompts")
    if spec is not None and spec.submodule_search_locations:
        return Path(next(iter(spec.submodule_search_locations)))
    return Path(__file__).resolve().parent.parent / "prompts"


def build_services(settings: Settings, run_id: str) -> Services:
    cache = CallCache(settings.cache_dir, settings.cache_mode)
    budget = Budget(settings.max_cost_usd, settings.cache_dir / "ledger", run_id)
    client = LLMClient(
        ClientSettings(
            concurrency=settings.concurrency,
            timeout_s=settings.timeout_s,
            retries=settings.retries,
            retry_backoff_s=settings.retry_backoff_s,
            route=settings.route,
            max_cost_usd=settings.max_cost_usd,
            user_prices=load_price_file(settings.price_file) if settings.price_file else {},
        ),
        cache,
        budget,
    )
    solver: Solver
    if settings.agent:
        solver = AgentSolver(settings.agent, settings.rootdir, settings.concurrency)
    else:
        assert settings.model is not None
        solver = ModelSolver(client, settings.model, api_base=settings.api_base, settings=settings.sut_settings)
    return Services(
        client=client,
        solver=solver,
        judge_models=settings.judge_models,
        judge_api_base=settings.judge_api_base,
        embedding_model=settings.embedding_model,
        embedding_api_base=None if settings.embedding_model.startswith("local/") else settings.api_base,
        prompts=PromptLibrary([settings.rootdir / "prompts", builtin_prompts_dir()]),
    )
