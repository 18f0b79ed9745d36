"""Command-line options of the plugin, and the typed settings they become."""

from __future__ import annotations

import math
import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from harness.cache import CacheMode
from harness.cache_store import database_problem
from harness.errors import ConfigError
from harness.llm.endpoint import EMBEDDED_PROVIDER, Endpoint, ModelName
from harness.project import PROTECTED, fixtures_dir
from harness.run_files import (
    RunDocumentError,
    read_run_document,
    system_label,  # also re-exported: it was defined here
)

LOCAL_CHAT_MODEL = "local/smollm2"
LOCAL_EMBEDDING_MODEL = "local/all-minilm-l6-v2"
# `--fail-on-regression [MARGIN]`, as pytest and `harness compare` both take it (no value: margin 0).
FAIL_ON_REGRESSION: dict[str, Any] = {"nargs": "?", "type": float, "const": 0.0, "default": None, "metavar": "MARGIN"}
ACCEPTANCE_SHAPE: dict[str, Any] = {
    "type": float,
    "default": 1.0,
    "metavar": "P",
    "help": "The market acceptance curve's shape for Tech-Market Fit: the least acceptable score rises from "
    "--min-score at no cost to --expert-score at the expert's cost as (cost / expert cost) ** P (default 1, a line).",
}


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
        "--api-key-env",
        default=None,
        metavar="VAR",
        help="Environment variable holding the key for --api-base (a custom endpoint gets no key otherwise).",
    )
    add(
        "--agent",
        default=None,
        metavar="MODULE:CALLABLE",
        help="System under test is your own Python agent (sync or async), called as agent(prompt, tools=..., "
        "model=...); --model is then the model behind its `model` handle.",
    )
    add(
        "--agent-cmd",
        default=None,
        metavar="CMD",
        help="System under test is a command (any language), one process per item: the task as JSON on stdin, "
        "the answer on stdout; OPENAI_BASE_URL and OPENAI_API_KEY point at the harness's gateway to --model.",
    )
    add(
        "--agent-url",
        default=None,
        metavar="URL",
        help="System under test is an HTTP service: each item's task is POSTed to URL as JSON; the reply is "
        "the answer. The task carries the gateway's URL and the item's key.",
    )
    add(
        "--sandbox",
        choices=("auto", "bwrap", "none"),
        default="auto",
        help="How command agents run: in a bubblewrap sandbox (bwrap: no view of the project, the harness or the "
        "keys), without one (none), or bwrap where it works (auto, the default). See docs/agents.md.",
    )
    add(
        "--agent-network",
        choices=("shared", "gateway"),
        default="shared",
        help="The network of a sandboxed command agent: this machine's (shared, the default), or only the "
        "harness's gateway and the task's tools through it (gateway; needs bubblewrap).",
    )
    add(
        "--agent-files",
        action="append",
        default=[],
        metavar="PATH",
        help="A file or folder of the command agent's own, given to it read-only (repeatable); the paths its "
        "command line names are given anyway.",
    )
    add(
        "--agent-env",
        action="append",
        default=[],
        metavar="NAME",
        help="An environment variable the command agent may see (repeatable); it gets only PATH, the locale "
        "and the gateway's variables otherwise.",
    )
    add(
        "--agent-work",
        default=None,
        metavar="DIR",
        help="Keep each command-agent item's working folder under DIR (default: a temporary folder, removed "
        "with the run). Never inside the project's tasks, fixtures, reports or cache.",
    )
    add("--agent-memory-mb", type=int, default=4096, help="Memory cap for a command agent's processes (MB).")
    add("--agent-processes", type=int, default=256, help="Process cap for one command agent item.")
    add(
        "--agent-timeout",
        type=float,
        default=600.0,
        metavar="SECONDS",
        help="Time limit for one item of an agent (--agent, --agent-cmd, --agent-url); a task's limits.time_limit_s "
        "wins. Past it, the item is the system's failure (score 0).",
    )
    add(
        "--judge-model",
        default=None,
        help=f"Judge model, or several comma-separated for a panel. Default: {LOCAL_CHAT_MODEL}.",
    )
    add("--judge-api-base", default=None, help="Base URL for the judge models (never inherited from --api-base).")
    add("--judge-api-key-env", default=None, metavar="VAR", help="Environment variable with the judges' key.")
    add("--embedding-model", default=None, help=f"Embedding model. Default: {LOCAL_EMBEDDING_MODEL}.")
    add("--embedding-api-base", default=None, help="Base URL for the embedding model (never inherited).")
    add(
        "--embedding-dimensions",
        type=int,
        default=None,
        help="Vector length for models that can shorten theirs (OpenAI text-embedding-3: GEM-Bench used 512).",
    )
    add("--embedding-api-key-env", default=None, metavar="VAR", help="Environment variable with its key.")
    add("--repeats", type=int, default=1, help="Run each task N times, each an item of its own (name [rN]).")
    add(
        "--sample",
        type=int,
        default=None,
        metavar="N",
        help="Run N tasks per suite (with all their variants and repeats): spread over the suite's kinds "
        "and data sets, the same tasks on every machine. For a quick look; a full run compares fairly.",
    )
    add(
        "--shard",
        default=None,
        metavar="K/N",
        help="Run shard K of N (1-based): whole tasks, with all their variants and repeats, by the stable hash "
        "--sample uses, the same on every machine. `harness merge` joins the N runs into one (docs/scale.md).",
    )
    add(
        "--shard-balance",
        choices=("hash", "history"),
        default=None,
        help="How --shard spreads tasks: by hash (default), or by the tasks' durations in the run history "
        "(reports/history), the same assignment wherever the history is the same.",
    )
    add(
        "--run-group",
        default=None,
        metavar="ID",
        help="A name the shards of one run share (e.g. the CI run's id): their --max-cost budget is one ledger "
        "in --cache-url's Redis, and `harness merge` checks that every shard carries it.",
    )
    add(
        "--cache-url",
        default=None,
        metavar="URL",
        help="A call cache shared by machines: redis://[:password@]host:port/db (Redis 6+ or Valkey). It keeps "
        "the answers, the claims on calls in flight and the --max-cost ledger; --cache-dir stays in front of it.",
    )
    add(
        "--concurrency",
        type=int,
        default=16,
        help="Model calls in flight per process and provider (a ceiling: a 429 halves it, successes win it back).",
    )
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
    add(
        "--allow-unpriced",
        action="store_true",
        help="Run under --max-cost even though a model has no known price (its calls then count as $0: the "
        "budget does not bind them). Without it, such a run is refused before any call.",
    )
    add(
        "--withhold-references",
        action="store_true",
        help="Keep the references (expected answers, experts' lists) and the judges' prompts out of the "
        "terminal and every report, for a private test set; the run records that it did.",
    )
    add(
        "--include-incomplete",
        action="store_true",
        help="Accept an interrupted run as --baseline, and read interrupted runs' history for Tech-Market Fit "
        "(both are refused or left out by default).",
    )
    add(
        "--resume",
        default=None,
        metavar="RUN",
        help="Finish an interrupted run (its id or folder): its finished items are kept, the rest run, and "
        "the result is one run under the same id.",
    )
    add("--temperature", type=float, default=None, help="Temperature for the system under test.")
    add("--max-tokens", type=int, default=None, help="Max output tokens for the system under test.")
    add("--seed", type=int, default=None, help="Seed passed to the system under test where supported.")
    add(
        "--agent-version",
        default=None,
        metavar="LABEL",
        help="The version of the system under test, as the run history and the capability index record it.",
    )
    add(
        "--release-date",
        default=None,
        metavar="YYYY-MM-DD",
        help="The system's release date for the history (default: the run's date).",
    )
    add("--period", default=None, metavar="LABEL", help="The evaluation period for the history (default: the quarter).")
    add(
        "--hourly-rate",
        type=float,
        default=None,
        metavar="USD",
        help="An expert's hourly cost: adds a Tech-Market-Fit section (cost against score) to summary.md.",
    )
    add("--min-score", type=float, default=60.0, help="The lowest acceptable score for Tech-Market Fit (default 60).")
    add("--expert-score", type=float, default=90.0, help="The expert's own level, for TMF stage 3 (default 90).")
    add("--acceptance-shape", **ACCEPTANCE_SHAPE)
    add(
        "--baseline",
        default=None,
        metavar="PATH",
        help="An earlier run to compare with (its results.json, or its run folder): paired differences per "
        "suite and metric with intervals, in the terminal, summary.md and results.json.",
    )
    add(
        "--fail-on-regression",
        **FAIL_ON_REGRESSION,
        help="With --baseline: exit non-zero only for a score regression whose 95 %% interval lies wholly "
        "below -MARGIN points (default 0), or for items that errored; items below their pass threshold no "
        "longer fail the run.",
    )
    add("--tolerance", type=float, default=2.0, help="Changes within +-this many points count as unchanged.")
    add(
        "--min-judge-agreement",
        type=float,
        default=None,
        metavar="KAPPA",
        help="Refuse the run, before any call, unless every judge's agreement with the labelled set of each "
        "suite it judges (its calibration by `harness judges calibrate`: quadratic kappa on levels, kappa on "
        "creator verdicts) is at least KAPPA.",
    )
    add(
        "--labelled-sets",
        default=None,
        metavar="DIR",
        help="Where the labelled sets are that --min-judge-agreement and run.calibration look up (default: "
        "calibration/ under the project's root).",
    )
    add("--save-baseline", default=None, metavar="PATH", help="Copy this run's results.json to PATH.")
    add(
        "--no-html",
        action="store_true",
        help="Skip report.html (its charts cost about 0.5 s of CPU per run); `harness report RUN --html` "
        "builds it later from results.json.",
    )
    add(
        "--estimate",
        action="store_true",
        help="Print the calls, tokens and dollars the run will take (by suite), make no call, and exit 0.",
    )
    add(
        "--progress-interval",
        type=float,
        default=None,
        help="Seconds between live progress lines (default 2 on a terminal, 10 otherwise; 0 = off).",
    )


@dataclass
class Settings:
    model: str
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
    api_key_env: str | None = None
    agent_cmd: str | None = None
    agent_url: str | None = None
    agent_timeout_s: float = 600.0
    sandbox: str = "auto"
    agent_network: str = "shared"
    agent_files: list[str] = field(default_factory=list)
    agent_env: list[str] = field(default_factory=list)
    agent_memory_mb: int = 4096
    agent_processes: int = 256
    agent_work: Path | None = None
    agent_version: str | None = None
    release_date: str | None = None
    period: str | None = None
    hourly_rate: float | None = None
    min_score: float = 60.0
    expert_score: float = 90.0
    acceptance_shape: float = 1.0
    baseline: Path | None = None
    fail_margin: float | None = None
    tolerance: float = 2.0
    min_judge_agreement: float | None = None
    labelled_sets: Path | None = None  # None: <rootdir>/calibration
    save_baseline: Path | None = None
    sample: int | None = None
    shard: tuple[int, int] | None = None  # (K, N), 1-based
    shard_balance: str = "hash"
    run_group: str | None = None
    cache_url: str | None = None
    html: bool = True
    allow_unpriced: bool = False
    withhold_references: bool = False
    resume: str | None = None
    include_incomplete: bool = False
    judge_api_key_env: str | None = None
    embedding_api_base: str | None = None
    embedding_api_key_env: str | None = None
    embedding_dimensions: int | None = None
    benchmark_options: dict[str, Any] = field(default_factory=dict)
    warnings: list[str] = field(default_factory=list)

    def run_secrets(self) -> list[str]:
        """What this run must never write: the keys in the variables its options name, and the credentials
        inside the URLs it was given."""
        import os

        from harness.secrets import url_credentials

        names = (self.api_key_env, self.judge_api_key_env, self.embedding_api_key_env)
        values = [os.environ.get(name, "") for name in names if name]
        for url in (self.api_base, self.judge_api_base, self.embedding_api_base, self.cache_url, self.agent_url):
            values += url_credentials(url)
        return [value for value in values if value]

    @property
    def fixtures_dir(self) -> Path:
        return fixtures_dir(self.rootdir)

    def protected_paths(self) -> list[Path]:
        """What an agent may never read or write: the run's tasks, data, reports, prompts, cache, repository."""
        return sorted({(self.rootdir / name).resolve() for name in PROTECTED}
                      | {self.report_dir.resolve(), self.cache_dir.resolve()})  # fmt: skip

    def option(self, name: str, default: Any = None) -> Any:
        """A benchmark-declared option's value, by dest name."""
        return self.benchmark_options.get(name, default)

    @property
    def model_endpoint(self) -> Endpoint:
        """--model and where it is served: what solvers, the gateway and an agent's model handle call."""
        return Endpoint(self.model, self.api_base, self.api_key_env)

    @property
    def judge_endpoints(self) -> list[Endpoint]:
        """The judges, each with the judges' base URL and key variable."""
        return [Endpoint(m, self.judge_api_base, self.judge_api_key_env) for m in self.judge_models]

    @property
    def embedding_endpoint(self) -> Endpoint:
        return Endpoint(self.embedding_model, self.embedding_api_base, self.embedding_api_key_env)

    def chat_models(self, *, agent_handle: bool = False) -> list[ModelName]:
        """The chat models the run calls: --model, then the judges. A Python agent (--agent) answers in
        --model's place and reaches it only if it calls its model handle: `agent_handle` counts it then.
        (A command or service agent reaches --model through the gateway, so it always counts.)"""
        sut = [] if self.agent and not agent_handle else [self.model_endpoint.name]
        return [*sut, *(endpoint.name for endpoint in self.judge_endpoints)]

    def embedded_chat_models(self, *, agent_handle: bool = False) -> list[ModelName]:
        """The one answer to "does this run use the embedded model?": the chat models of `chat_models` that
        the harness serves itself (embeddings alone do not count: MiniLM is a real embedding model)."""
        return [name for name in self.chat_models(agent_handle=agent_handle) if name.embedded]

    @property
    def uses_local_models(self) -> bool:
        """The embedded chat model answers or judges: the run's scores carry the tiny-model notice."""
        return bool(self.embedded_chat_models())

    @property
    def uses_local_chat(self) -> bool:
        """Anything in the run may call the embedded chat model (an agent's model handle included): the
        model's process is served."""
        return bool(self.embedded_chat_models(agent_handle=True))

    @property
    def external_agent(self) -> bool:
        """An agent outside the harness's process (a command or a service), reached through the gateway."""
        return bool(self.agent_cmd or self.agent_url)

    @property
    def has_agent(self) -> bool:
        return bool(self.agent) or self.external_agent

    @property
    def sut_label(self) -> str:
        return system_label(self.public())

    def public(self) -> dict[str, Any]:
        """The options as they go into a report: keys are only ever named (by variable), and credentials
        inside URLs are redacted."""
        from harness.secrets import redact_url

        return {
            "model": self.model,
            "api_base": redact_url(self.api_base),
            "api_key_env": self.api_key_env,
            "agent": self.agent,
            "agent_cmd": self.agent_cmd,
            "agent_url": redact_url(self.agent_url),
            "agent_timeout_s": self.agent_timeout_s,
            "sandbox": self.sandbox,
            "agent_version": self.agent_version,
            "release_date": self.release_date,
            "period": self.period,
            "judge_models": self.judge_models,
            "judge_api_base": redact_url(self.judge_api_base),
            "judge_api_key_env": self.judge_api_key_env,
            "embedding_model": self.embedding_model,
            "embedding_api_base": redact_url(self.embedding_api_base),
            "embedding_api_key_env": self.embedding_api_key_env,
            "embedding_dimensions": self.embedding_dimensions,
            "repeats": self.repeats,
            "sample": self.sample,
            "concurrency": self.concurrency,
            "timeout_s": self.timeout_s,
            "retries": self.retries,
            "route": self.route,
            "cache_mode": self.cache_mode.value,
            "cache_url": redact_url(self.cache_url),
            "run_group": self.run_group,
            "pass_threshold": self.pass_threshold,
            "min_judge_agreement": self.min_judge_agreement,
            "max_cost_usd": self.max_cost_usd,
            "allow_unpriced": self.allow_unpriced,
            "withhold_references": self.withhold_references,
            "sut_settings": self.sut_settings,
            "benchmark_options": self.benchmark_options,
        }


def parse_shard(text: str) -> tuple[int, int]:
    """`K/N` (1-based: 1/4 .. 4/4) as (K, N); anything else is a ValueError naming the option."""
    match = _SHARD.match(str(text))
    if match is None:
        raise ValueError(f"--shard must be K/N, this machine's shard K of N counted from 1 (like 2/4), got {text!r}")
    index, count = int(match.group(1)), int(match.group(2))
    if not 1 <= index <= count:
        raise ValueError(f"--shard K/N needs 1 <= K <= N (shards are counted from 1), got {text!r}")
    return index, count


def _agent_env_problems(opt: Any, judges: list[str]) -> list[str]:
    """--agent-env never hands a command agent one of the run's own provider keys: a variable the run reads
    a key from (--*-api-key-env, or the provider's own, OPENAI_API_KEY for openai/...), nor a copy of one
    under another name. The agent reaches --model through the gateway, with its item's key."""
    import os

    names = {opt.api_key_env, opt.judge_api_key_env, opt.embedding_api_key_env}
    for model in [opt.model, *judges, opt.embedding_model]:
        if model and ModelName(model).provider not in (None, EMBEDDED_PROVIDER):
            names.add(f"{model.split('/', 1)[0].upper().replace('-', '_')}_API_KEY")
    names.discard(None)
    keys = {os.environ[n] for n in names if n and os.environ.get(n)}
    problems = []
    for name in opt.agent_env:
        value = os.environ.get(name)
        if name in names or (value and value in keys):
            how = "names" if name in names else "holds a copy of"
            problems.append(
                f"--agent-env {name} {how} one of the run's own provider keys: an agent never gets one (it reaches "
                "--model through the gateway, with a key of its item); give it a credential of its own"
            )
    return problems


def settings_from_options(opt: Any, rootdir: Path, benchmark_options: dict[str, Any] | None = None) -> Settings:
    """Validate option values together and fill in the defaults (the embedded models when no key is set)."""
    problems = []
    if opt.repeats < 1:
        problems.append(f"--repeats must be at least 1, got {opt.repeats}")
    shard = None
    if opt.shard is not None:
        try:
            shard = parse_shard(opt.shard)
        except ValueError as exc:
            problems.append(str(exc))
    if opt.shard_balance is not None and opt.shard is None:
        problems.append("--shard-balance needs --shard K/N")
    if opt.run_group is not None and not _RUN_GROUP.match(opt.run_group):
        problems.append(
            f"--run-group must be a name of letters, digits and ._:@/+- (at most 128), got {_shown(opt.run_group)}"
        )
    if opt.cache_url is not None and not _cache_url_ok(opt.cache_url):
        problems.append(
            f"--cache-url must be redis://[[user]:password@]host[:port][/db], rediss://... or unix:///path, got "
            f"{_shown(opt.cache_url)}"
        )
    if opt.max_cost is not None and opt.shard is not None and opt.cache_url is not None and opt.run_group is None:
        problems.append(
            "--max-cost with --shard and --cache-url needs --run-group ID (the same on every shard, e.g. the CI "
            "run's id), so that the shards share one budget"
        )
    if opt.sample is not None and opt.sample < 1:
        problems.append(f"--sample must be at least 1 task per suite, got {opt.sample}")
    if opt.concurrency < 1:
        problems.append(f"--concurrency must be at least 1, got {opt.concurrency}")
    if opt.call_retries < 0:
        problems.append(f"--call-retries must be 0 or more, got {opt.call_retries}")
    if opt.call_timeout <= 0:
        problems.append(f"--call-timeout must be positive, got {opt.call_timeout}")
    if opt.pass_threshold is not None and not 0 <= opt.pass_threshold <= 100:
        problems.append(f"--pass-threshold must lie in 0..100, got {opt.pass_threshold}")
    if opt.embedding_dimensions is not None and not 1 <= opt.embedding_dimensions <= 65536:
        problems.append(f"--embedding-dimensions must be a positive vector length, got {opt.embedding_dimensions}")
    agents = [name for name, value in (("--agent", opt.agent), ("--agent-cmd", opt.agent_cmd),
                                       ("--agent-url", opt.agent_url)) if value is not None]  # fmt: skip
    if len(agents) > 1:
        problems.append(f"{' and '.join(agents)} both name the system under test; give one")
    if opt.agent_cmd is not None and not opt.agent_cmd.strip():
        problems.append("--agent-cmd must be a command, got an empty string")
    if opt.agent_url is not None and not _url_ok(opt.agent_url):
        problems.append(f"--agent-url must be an http(s) URL, got {_shown(opt.agent_url)}")
    if opt.release_date is not None and not _iso_date(opt.release_date):
        problems.append(f"--release-date must be a date YYYY-MM-DD, got {_shown(opt.release_date)}")
    if opt.hourly_rate is not None and not opt.hourly_rate >= 0:
        problems.append(f"--hourly-rate must be 0 or more, got {opt.hourly_rate}")
    for name in ("min_score", "expert_score"):
        if not 0 <= getattr(opt, name) <= 100:
            problems.append(f"--{name.replace('_', '-')} must lie in 0..100, got {getattr(opt, name)}")
    if opt.min_score > opt.expert_score:
        problems.append(f"--min-score ({opt.min_score:g}) must not exceed --expert-score ({opt.expert_score:g})")
    if not (opt.acceptance_shape > 0 and math.isfinite(opt.acceptance_shape)):
        problems.append(f"--acceptance-shape must be a number above 0, got {opt.acceptance_shape}")
    baseline = None
    if opt.baseline is not None:
        baseline = _baseline_path(Path(opt.baseline))
        if baseline is None:
            problems.append(f"--baseline {opt.baseline}: expected a results.json file or a run folder holding one")
        else:
            try:  # all of it, now: a baseline found unreadable after the run would waste what the run paid
                document = read_run_document(baseline)
            except RunDocumentError as exc:
                problems.append(f"--baseline {exc}")
            else:
                partial = (document.get("run") or {}).get("incomplete")
                if partial and not getattr(opt, "include_incomplete", False):
                    problems.append(
                        f"--baseline {baseline}: that run is incomplete ({partial.get('reason')}, "
                        f"{partial.get('items_done')} of {partial.get('items_expected')} items); finish it with "
                        "--resume, or pass --include-incomplete to compare with it anyway"
                    )
    if opt.fail_on_regression is not None and opt.baseline is None:
        problems.append("--fail-on-regression needs --baseline (the run to compare with)")
    if opt.fail_on_regression is not None and not opt.fail_on_regression >= 0:
        problems.append(f"--fail-on-regression MARGIN must be 0 or more points, got {opt.fail_on_regression}")
    if not opt.tolerance >= 0:
        problems.append(f"--tolerance must be 0 or more points, got {opt.tolerance}")
    if opt.min_judge_agreement is not None and not -1 <= opt.min_judge_agreement <= 1:
        problems.append(f"--min-judge-agreement must be a kappa from -1 to 1, got {opt.min_judge_agreement}")
    if not opt.agent_timeout > 0:
        problems.append(f"--agent-timeout must be positive, got {opt.agent_timeout}")
    if opt.agent_memory_mb < 64:
        problems.append(f"--agent-memory-mb must be at least 64, got {opt.agent_memory_mb}")
    if opt.agent_processes < 4:
        problems.append(f"--agent-processes must be at least 4, got {opt.agent_processes}")
    for name in opt.agent_env:
        if not _ENV_NAME.match(name):
            problems.append(f"--agent-env names an environment variable (like NODE_OPTIONS), got {_shown(name)}")
    if (opt.agent_files or opt.agent_env or opt.agent_work or opt.agent_network != "shared") and not opt.agent_cmd:
        problems.append("--agent-files, --agent-env, --agent-work and --agent-network are for --agent-cmd")
    if opt.max_cost is not None and opt.max_cost < 0:
        problems.append(f"--max-cost must be 0 or more, got {opt.max_cost}")
    for name, value in (("--model", opt.model), ("--embedding-model", opt.embedding_model)):
        if value is not None and not _model_name_ok(value):
            problems.append(f"{name} must name a model (like openai/gpt-4.1), got {value!r}")
    judges = [j.strip() for j in (opt.judge_model or "").split(",")] if opt.judge_model is not None else []
    if opt.judge_model is not None and (not judges or not all(_model_name_ok(j) for j in judges)):
        problems.append(f"--judge-model must name one model or several separated by commas, got {opt.judge_model!r}")
    if len(set(judges)) != len(judges):
        problems.append(f"--judge-model names a judge twice: {opt.judge_model!r}")
    for name in ("api_base", "judge_api_base", "embedding_api_base"):
        value = getattr(opt, name)
        if value is not None and not _url_ok(value):
            problems.append(f"--{name.replace('_', '-')} must be an http(s) URL, got {_shown(value)}")
    for base, key in (("api_base", "api_key_env"), ("judge_api_base", "judge_api_key_env"),
                      ("embedding_api_base", "embedding_api_key_env")):  # fmt: skip
        url, named = getattr(opt, base), getattr(opt, key)
        if url and named and _has_credentials(url):
            problems.append(
                f"--{base.replace('_', '-')} carries credentials (user:password@ or a key in the query) and "
                f"--{key.replace('_', '-')} names a key too: give one of them"
            )
    for name in ("api_key_env", "judge_api_key_env", "embedding_api_key_env"):
        value = getattr(opt, name)
        if value is not None and not _ENV_NAME.match(value):
            problems.append(
                f"--{name.replace('_', '-')} names an environment variable (like MY_KEY), got {_shown(value)}"
            )
    problems += _agent_env_problems(opt, judges)
    if problems:
        raise ConfigError("; ".join(problems))
    model = opt.model or LOCAL_CHAT_MODEL
    if not judges:
        judges = [LOCAL_CHAT_MODEL]
    embedding = opt.embedding_model or LOCAL_EMBEDDING_MODEL
    sut_settings = {
        k: v
        for k, v in {"temperature": opt.temperature, "max_tokens": opt.max_tokens, "seed": opt.seed}.items()
        if v is not None
    }
    from harness.self_preference import self_preference_warnings

    return Settings(
        model=model,
        api_base=opt.api_base,
        api_key_env=opt.api_key_env,
        agent=opt.agent,
        agent_cmd=opt.agent_cmd,
        agent_url=opt.agent_url,
        agent_timeout_s=opt.agent_timeout,
        sandbox=opt.sandbox,
        agent_network=opt.agent_network,
        agent_files=list(opt.agent_files),
        agent_env=list(opt.agent_env),
        agent_memory_mb=opt.agent_memory_mb,
        agent_processes=opt.agent_processes,
        agent_work=Path(opt.agent_work).resolve() if opt.agent_work else None,
        agent_version=opt.agent_version,
        release_date=opt.release_date,
        period=opt.period,
        hourly_rate=opt.hourly_rate,
        min_score=opt.min_score,
        expert_score=opt.expert_score,
        acceptance_shape=opt.acceptance_shape,
        baseline=baseline,
        fail_margin=opt.fail_on_regression,
        tolerance=opt.tolerance,
        min_judge_agreement=opt.min_judge_agreement,
        labelled_sets=Path(opt.labelled_sets) if opt.labelled_sets else None,
        save_baseline=Path(opt.save_baseline) if opt.save_baseline else None,
        sample=opt.sample,
        shard=shard,
        shard_balance=opt.shard_balance or "hash",
        run_group=opt.run_group,
        cache_url=opt.cache_url,
        html=not opt.no_html,
        allow_unpriced=bool(getattr(opt, "allow_unpriced", False)),
        withhold_references=bool(getattr(opt, "withhold_references", False)),
        resume=getattr(opt, "resume", None),
        include_incomplete=bool(getattr(opt, "include_incomplete", False)),
        judge_models=judges,
        judge_api_base=opt.judge_api_base,
        judge_api_key_env=opt.judge_api_key_env,
        embedding_model=embedding,
        embedding_api_base=opt.embedding_api_base,
        embedding_api_key_env=opt.embedding_api_key_env,
        embedding_dimensions=opt.embedding_dimensions,
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
        benchmark_options=dict(benchmark_options or {}),
        warnings=self_preference_warnings(None if opt.agent or opt.agent_cmd or opt.agent_url else model, judges)
        + _budget_warnings(opt.max_cost, shard, opt.cache_url),
    )


_ENV_NAME = re.compile(r"^[A-Za-z_][A-Za-z0-9_]{0,127}$")
_SHARD = re.compile(r"^\s*(\d+)\s*/\s*(\d+)\s*$")
_RUN_GROUP = re.compile(r"^[A-Za-z0-9][A-Za-z0-9._:@/+-]{0,127}$")
_MODEL_NAME = re.compile(r"^[A-Za-z0-9][\w.:@+/-]{0,199}$")


def project_root(start: Path, paths: Sequence[str] = (), inifile: Path | None = None) -> Path:
    """The project a run belongs to. Reports, the cache, fixtures and prompts are anchored here, never on
    pytest's rootdir, which moves to the common ancestor of any absolute path an option names when the
    project has no pytest.ini (pytest fixes the rootdir before it knows which options take values).

    In order: the project holding the first path the command names (`pytest proj/evals/recruitment` from
    anywhere: the folder that holds that `evals/`); the folder of the ini file pytest found; the nearest
    folder holding `evals/` from the invocation folder upwards; the invocation folder itself."""
    start = start.resolve()
    for argument in paths:
        path = (start / argument.split("::", 1)[0]).resolve()
        if path.exists():
            found = _project_holding(path)
            if found is not None:
                return found
    if inifile is not None:
        return inifile.resolve().parent
    return _project_holding(start) or start


def _project_holding(path: Path) -> Path | None:
    """The nearest folder, from `path` upwards, that is the parent of an `evals/` on the way or holds one."""
    for folder in (path, *path.parents):
        if folder.name == "evals" and folder.is_dir():
            return folder.parent
        if (folder / "evals").is_dir():
            return folder
    return None


def _baseline_path(path: Path) -> Path | None:
    """The results.json a --baseline names (the file, or the run folder holding it), if it exists."""
    candidate = path / "results.json" if path.is_dir() else path
    return candidate if candidate.is_file() else None


def _iso_date(value: str) -> bool:
    import datetime as dt

    try:
        dt.date.fromisoformat(value)
    except ValueError:
        return False
    return len(value) == 10


def _model_name_ok(value: str) -> bool:
    return bool(_MODEL_NAME.match(value)) and "//" not in value and not value.endswith("/")


def _has_credentials(url: str) -> bool:
    from harness.secrets import has_credentials

    return has_credentials(url)


def _budget_warnings(max_cost: float | None, shard: tuple[int, int] | None, cache_url: str | None) -> list[str]:
    """A sharded run without a shared ledger has one --max-cost per shard: say so rather than surprise."""
    if max_cost is None or shard is None or cache_url is not None or shard[1] == 1:
        return []
    return [
        f"--max-cost ${max_cost:g} holds per shard without --cache-url: the {shard[1]} shards together may spend "
        f"up to ${max_cost * shard[1]:g}"
    ]


def _cache_url_ok(value: str) -> bool:
    from urllib.parse import urlsplit

    try:
        parts = urlsplit(value)
        parts.port  # noqa: B018 (raises on a port that is not a number)
    except ValueError:
        return False
    if parts.scheme == "unix":
        return bool(parts.path)
    path = parts.path.strip("/")
    return parts.scheme in ("redis", "rediss") and bool(parts.hostname) and (not path or path.isdigit())


def _url_ok(value: str) -> bool:
    from urllib.parse import urlsplit

    try:
        parts = urlsplit(value)
    except ValueError:
        return False
    return parts.scheme in ("http", "https") and bool(parts.hostname)


def _shown(value: str) -> str:
    from harness.secrets import redact_url

    text = repr(redact_url(value) if "://" in value else value)
    return text if len(text) <= 80 else text[:77] + "..."


def settings_for_command(rootdir: Path, **overrides: Any) -> Settings:
    """Settings for a `harness` subcommand that makes model calls: the plugin's options with their
    defaults, then the given values (by dest name), validated the same way."""
    import argparse

    parser = argparse.ArgumentParser(add_help=False)

    class _Group:
        def addoption(self, *names: str, **kwargs: Any) -> None:
            parser.add_argument(*names, **kwargs)

    class _Registrar:
        def getgroup(self, *args: Any) -> _Group:
            return _Group()

    add_options(_Registrar())
    values = vars(parser.parse_args([]))
    values.update({k: v for k, v in overrides.items() if v is not None})
    return settings_from_options(argparse.Namespace(**values), rootdir)


def check_paths(settings: Settings) -> None:
    """Before any call is paid for: the report directory must be writable, the cache directory usable (its
    databases readable) and the price file valid. Each problem is one line naming the path and what is wrong."""
    problems = []
    for label, path in (("--report-dir", settings.report_dir), ("--cache-dir", settings.cache_dir)):
        if label == "--cache-dir" and settings.cache_mode.value == "off":
            continue
        problem = _directory_problem(path)
        if problem:
            problems.append(f"{label} {path}: {problem}")
        elif label == "--cache-dir" and (damage := database_problem(path)):
            problems.append(f"--cache-dir: {damage}")
    if settings.price_file is not None:
        from harness.llm.pricing import load_price_file

        try:
            load_price_file(settings.price_file)
        except ValueError as exc:
            problems.append(f"--price-file {exc}")
    if problems:
        raise ConfigError("; ".join(problems))


def _directory_problem(path: Path) -> str | None:
    import os
    import tempfile

    if path.exists() and not path.is_dir():
        return "is a file, not a directory"
    try:
        path.mkdir(parents=True, exist_ok=True)
        fd, probe = tempfile.mkstemp(prefix=".harness-probe-", dir=path)
        os.close(fd)
        os.unlink(probe)
    except OSError as exc:
        return f"is not writable ({exc.strerror or exc})"
    return None


def missing_local_models(settings: Settings, find_spec: Any = None) -> list[str]:
    """The embedded models a run needs but cannot load because the local extra is not installed."""
    import importlib.util

    find_spec = find_spec or importlib.util.find_spec
    chat = [str(name) for name in settings.embedded_chat_models()]
    if chat and find_spec("llama_cpp") is None:
        return sorted(set(chat))
    return []
