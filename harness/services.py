"""Build the per-process services (cache, client, system under test, judges) from the settings."""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path
from typing import Any

from harness.cache import CallCache
from harness.context import Resources, Services
from harness.judge import PromptLibrary
from harness.llm.budget import Budget
from harness.llm.client import ClientSettings, LLMClient
from harness.llm.pricing import load_price_file
from harness.project import builtin_prompts_dir, prompts_dir
from harness.runner import Runner
from harness.settings import Settings
from harness.solvers import AgentSolver, ModelSolver, Solver


@lru_cache(maxsize=8)
def prompt_library(rootdir: Path) -> PromptLibrary:
    """The project's prompts/ first, then the harness's own (one library per project per process)."""
    return PromptLibrary([prompts_dir(rootdir), builtin_prompts_dir()])


def command_sandbox(settings: Settings, probe: bool = True) -> Any:
    """How this run's command agent runs (harness.sandbox): planned before any call, a ConfigError if not."""
    from harness.sandbox import Limits, plan

    assert settings.agent_cmd is not None
    return plan(
        settings.sandbox,
        settings.agent_cmd,
        settings.rootdir,
        named_files=settings.agent_files,
        env_names=settings.agent_env,
        protected=settings.protected_paths(),
        limits=Limits(settings.agent_processes, settings.agent_memory_mb),
        work=settings.agent_work,
        probe=probe,
        cache_url=settings.cache_url,
        network=settings.agent_network,
    )


# Items in flight per process, as a multiple of --concurrency. Items enter in collection order, so early
# ones finish (and are reported) first; a wide window keeps every call slot busy to the end of a run (with
# 2x, the last items' second calls ran almost alone: a tail of about one call latency).
ITEM_WINDOW = 8


def build_runner(settings: Settings, run_id: str, *, shared_cache: bool = False, local: Any = None) -> Runner:
    """A process's runner, its services built from `settings` on first use: the one way a Runner is made, so a
    run's items and `--estimate`'s replay of the cache run alike, ITEM_WINDOW x --concurrency at a time."""
    return Runner(
        lambda: build_services(settings, run_id, shared_cache=shared_cache, local=local),
        max_items_in_flight=ITEM_WINDOW * settings.concurrency,
    )


def build_services(settings: Settings, run_id: str, *, shared_cache: bool = False, local: Any = None) -> Services:
    """`local`: where the run's embedded model serves (harness.local.service.LocalEndpoint); None lets the
    client start a model process of its own if it needs one."""
    remote, ledger = None, None
    if settings.cache_url:  # --cache-url: answers, claims and the budget shared by machines
        from harness.redis_store import shared_parts

        remote, ledger = shared_parts(settings, run_id)
    cache = CallCache(settings.cache_dir, settings.cache_mode, shared=shared_cache, remote=remote)
    budget = Budget(settings.max_cost_usd, settings.cache_dir / "ledger", run_id, ledger=ledger)
    client = LLMClient(
        ClientSettings(
            concurrency=settings.concurrency,
            timeout_s=settings.timeout_s,
            retries=settings.retries,
            retry_backoff_s=settings.retry_backoff_s,
            route=settings.route,
            max_cost_usd=settings.max_cost_usd,
            user_prices=load_price_file(settings.price_file) if settings.price_file else {},
            local_endpoint=local,
        ),
        cache,
        budget,
    )
    base, embedding = settings.model_endpoint, settings.embedding_endpoint
    gateway = None
    if settings.has_agent:
        from harness.gateway import Gateway

        gateway = Gateway(client, base, embedding, settings.embedding_dimensions, settings.sut_settings)
    solver: Solver
    if settings.agent_cmd:
        from harness.external_agents import CommandAgent

        solver = CommandAgent(settings.agent_cmd, gateway, command_sandbox(settings), settings.agent_timeout_s)
    elif settings.agent_url:
        from harness.external_agents import ServiceAgent

        solver = ServiceAgent(settings.agent_url, gateway, settings.agent_timeout_s, settings.concurrency)
    elif settings.agent:
        solver = AgentSolver(
            settings.agent, settings.rootdir, settings.concurrency, gateway=gateway, timeout_s=settings.agent_timeout_s
        )
    else:
        solver = ModelSolver(client, base, settings=settings.sut_settings)
    resources_dir = None if settings.cache_mode.value == "off" else settings.cache_dir / "resources"
    return Services(
        client=client,
        solver=solver,
        base=base,
        judges=settings.judge_endpoints,
        embedding=embedding,
        prompts=prompt_library(settings.rootdir),
        fixtures_dir=settings.fixtures_dir,
        resources=Resources(resources_dir),
        options=dict(settings.benchmark_options),
        sut_settings=dict(settings.sut_settings),
        agent=settings.has_agent,
        embedding_dimensions=settings.embedding_dimensions,
        gateway=gateway,
    )
