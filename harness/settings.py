"""Command-line options of the plugin, and the typed settings they become."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from harness.cache import CacheMode
from harness.errors import ConfigError

LOCAL_CHAT_MODEL = "local/smollm2"
LOCAL_EMBEDDING_MODEL = "local/all-minilm-l6-v2"


def add_options(parser: Any) -> None:
    group = parser.getgroup("harness", "LLM evaluation harness")
    add = group.addoption
    add(
        "--model",
        default=None,
        help="System under test: a litellm model string, e.g. openai/gpt-4.1. "
        f"Default: the embedded {LOCAL_CHAT_MODEL} when no API key is set.",
    )
    add("--api-base", default=None, help="Base URL of an OpenAI-compatible endpoint for --model.")
    add(
        "--agent",
        default=None,
        metavar="MODULE:CALLABLE",
        help="System under test is your own Python agent (sync or async), called as agent(prompt, tools=...).",
    )
    add(
        "--judge-model",
        default=None,
        help="Judge model, or several comma-separated for a panel. Default: the same default as --model.",
    )
    add("--judge-api-base", default=None, help="Base URL for the judge models (default: --api-base).")
    add("--embedding-model", default=None, help=f"Embedding model. Default: {LOCAL_EMBEDDING_MODEL}.")
    add("--repeats", type=int, default=1, help="Run each task N times; the score is the mean.")
    add("--concurrency", type=int, default=16, help="Model calls in flight per process and provider.")
    add(
        "--call-timeout",
        dest="call_timeout",
        type=float,
        default=120.0,
        help="Seconds before one call attempt times out.",
    )
    add(
        "--call-retries",
        dest="call_retries",
        type=int,
        default=3,
        help="Retries after a 429, 5xx, timeout or malformed reply.",
    )
    add(
        "--call-retry-backoff",
        dest="call_retry_backoff",
        type=float,
        default=1.0,
        help="First backoff in seconds (doubles each retry).",
    )
    add(
        "--route",
        choices=("auto", "openai", "litellm"),
        default="auto",
        help="Force the OpenAI-compatible client or litellm for remote models (default: auto).",
    )
    add("--cache-dir", default=None, help="Call cache directory (default: .harness-cache in the rootdir).")
    add(
        "--cache-mode",
        choices=[m.value for m in CacheMode],
        default="use",
        help="use | refresh (never read) | replay (a miss fails the item) | off.",
    )
    add("--report-dir", default=None, help="Where runs write reports (default: reports/ in the rootdir).")
    add("--pass-threshold", type=float, default=None, help="Score 0..100 needed to pass (overrides suites).")
    add(
        "--max-cost",
        type=float,
        default=None,
        metavar="USD",
        help="Start no new call once the run has spent this much; later calls become errors.",
    )
    add("--price-file", default=None, help="JSON prices for models litellm does not know.")
    add("--temperature", type=float, default=None, help="Temperature for the system under test.")
    add("--max-tokens", type=int, default=None, help="Max output tokens for the system under test.")
    add("--seed", type=int, default=None, help="Seed passed to the system under test where supported.")
    add(
        "--progress-interval",
        type=float,
        default=None,
        help="Seconds between live progress lines (default 2 on a terminal, 10 otherwise; 0 = off).",
    )


@dataclass
class Settings:
    model: str | None
    api_base: str | None
    agent: str | None
    judge_models: list[str]
    judge_api_base: str | None
    embedding_model: str
    repeats: int
    concurrency: int
    timeout_s: float
    retries: int
    retry_backoff_s: float
    route: str
    cache_dir: Path
    cache_mode: CacheMode
    report_dir: Path
    pass_threshold: float | None
    max_cost_usd: float | None
    price_file: Path | None
    sut_settings: dict[str, Any]
    progress_interval_s: float | None
    rootdir: Path
    uses_local_models: bool = False
    warnings: list[str] = field(default_factory=list)

    @property
    def sut_label(self) -> str:
        return f"agent:{self.agent}" if self.agent else str(self.model)

    def public(self) -> dict[str, Any]:
        """The options as they go into a report (no secrets exist here by construction)."""
        return {
            "model": self.model,
            "api_base": self.api_base,
            "agent": self.agent,
            "judge_models": self.judge_models,
            "judge_api_base": self.judge_api_base,
            "embedding_model": self.embedding_model,
            "repeats": self.repeats,
            "concurrency": self.concurrency,
            "timeout_s": self.timeout_s,
            "retries": self.retries,
            "route": self.route,
            "cache_mode": self.cache_mode.value,
            "pass_threshold": self.pass_threshold,
            "max_cost_usd": self.max_cost_usd,
            "sut_settings": self.sut_settings,
        }


def settings_from_options(opt: Any, rootdir: Path) -> Settings:
    """Validate option values together and fill in the defaults (the embedded models when no key is set)."""
    problems = []
    if opt.repeats < 1:
        problems.append(f"--repeats must be at least 1, got {opt.repeats}")
    if opt.concurrency < 1:
        problems.append(f"--concurrency must be at least 1, got {opt.concurrency}")
    if opt.call_retries < 0:
        problems.append(f"--call-retries must be 0 or more, got {opt.call_retries}")
    if opt.call_timeout <= 0:
        problems.append(f"--call-timeout must be positive, got {opt.call_timeout}")
    if opt.pass_threshold is not None and not 0 <= opt.pass_threshold <= 100:
        problems.append(f"--pass-threshold must lie in 0..100, got {opt.pass_threshold}")
    if opt.max_cost is not None and opt.max_cost < 0:
        problems.append(f"--max-cost must be 0 or more, got {opt.max_cost}")
    if opt.model and opt.agent:
        problems.append("--model and --agent both name a system under test; give one")
    if problems:
        raise ConfigError("; ".join(problems))
    model = opt.model
    if model is None and opt.agent is None:
        model = LOCAL_CHAT_MODEL
    judges = [j.strip() for j in (opt.judge_model or "").split(",") if j.strip()]
    if not judges:
        judges = [LOCAL_CHAT_MODEL]
    embedding = opt.embedding_model or LOCAL_EMBEDDING_MODEL
    sut_settings = {
        k: v
        for k, v in {"temperature": opt.temperature, "max_tokens": opt.max_tokens, "seed": opt.seed}.items()
        if v is not None
    }
    uses_local = any(m and m.startswith("local/") for m in [model, *judges])
    from harness.self_preference import self_preference_warnings

    return Settings(
        model=model,
        api_base=opt.api_base,
        agent=opt.agent,
        judge_models=judges,
        judge_api_base=opt.judge_api_base or opt.api_base,
        embedding_model=embedding,
        repeats=opt.repeats,
        concurrency=opt.concurrency,
        timeout_s=opt.call_timeout,
        retries=opt.call_retries,
        retry_backoff_s=opt.call_retry_backoff,
        route=opt.route,
        cache_dir=Path(opt.cache_dir) if opt.cache_dir else rootdir / ".harness-cache",
        cache_mode=CacheMode(opt.cache_mode),
        report_dir=Path(opt.report_dir) if opt.report_dir else rootdir / "reports",
        pass_threshold=opt.pass_threshold,
        max_cost_usd=opt.max_cost,
        price_file=Path(opt.price_file) if opt.price_file else None,
        sut_settings=sut_settings,
        progress_interval_s=opt.progress_interval,
        rootdir=rootdir,
        uses_local_models=uses_local,
        warnings=self_preference_warnings(model, judges),
    )


def missing_local_models(settings: Settings, find_spec: Any = None) -> list[str]:
    """The embedded models a run needs but cannot load because the local extra is not installed."""
    import importlib.util

    find_spec = find_spec or importlib.util.find_spec
    chat = [m for m in [settings.model, *settings.judge_models] if m and m.startswith("local/")]
    if chat and find_spec("llama_cpp") is None:
        return sorted(set(chat))
    return []
