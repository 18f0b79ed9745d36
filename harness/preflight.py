"""Before the first paid call: every endpoint the run will use is checked once, and every option that
cannot work is one line (exit 4), never one error per item after retries.

Each distinct endpoint (the system under test's, every judge's, the embeddings') is checked for a
provider litellm knows, a key variable that is set, and, for an endpoint of your own (`--*-api-base`),
that it answers a request that costs nothing (`GET /models`). A run in `--cache-mode replay` makes no call,
so it needs neither keys nor endpoints. Also checked here: the price file, and `--max-cost` with a model
whose price nobody knows (the budget could not bind it).
"""

from __future__ import annotations

import os
import urllib.error
import urllib.request
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from harness.errors import ConfigError
from harness.llm.endpoint import ModelName

if TYPE_CHECKING:
    from harness.settings import Settings

PROBE_TIMEOUT_S = 5.0


@dataclass(frozen=True)
class Use:
    """One model the run will call, with the options that name its endpoint and key."""

    role: str  # "--model", "--judge-model", "--embedding-model"
    model: str
    api_base: str | None
    key_env: str | None
    base_option: str
    key_option: str


def uses(settings: Settings) -> list[Use]:
    """The models the run may call over the network (the embedded ones and the reference judge need none)."""
    from harness.judge import REFERENCE_JUDGE

    found = [Use("--model", settings.model, settings.api_base, settings.api_key_env, "--api-base", "--api-key-env")]
    found += [
        Use("--judge-model", judge, settings.judge_api_base, settings.judge_api_key_env, "--judge-api-base",
            "--judge-api-key-env")
        for judge in settings.judge_models
    ]  # fmt: skip
    found.append(
        Use("--embedding-model", settings.embedding_model, settings.embedding_api_base,
            settings.embedding_api_key_env, "--embedding-api-base", "--embedding-api-key-env")
    )  # fmt: skip
    return [u for u in found if not ModelName(u.model).embedded and u.model != REFERENCE_JUDGE]


def route_of(settings: Settings, use: Use) -> str:
    """The route the client will take (harness.llm.client.LLMClient.route_for, without building one)."""
    if settings.route != "auto":
        return str(settings.route)
    provider = ModelName(use.model).provider
    if provider == "openai" or (use.api_base and provider is None):
        return "openai"
    return "litellm"


def check_price_file(settings: Settings) -> dict[str, Any]:
    """The user's prices, read now: an unreadable or malformed file is one line naming it."""
    if settings.price_file is None:
        return {}
    from harness.llm.pricing import load_price_file

    try:
        return load_price_file(settings.price_file)
    except ValueError as exc:
        raise ConfigError(f"--price-file {exc}") from exc


def check_budget(settings: Settings, prices: dict[str, Any]) -> None:
    """--max-cost binds only calls whose price is known: a model without one is refused, unless the user
    gives its price or accepts an unbounded run."""
    if settings.max_cost_usd is None or settings.allow_unpriced:
        return
    from harness.llm.pricing import price_for

    unpriced = sorted({u.model for u in uses(settings) if price_for(u.model, prices) is None})
    if unpriced:
        raise ConfigError(
            f"--max-cost ${settings.max_cost_usd:g} cannot bind {', '.join(unpriced)}: no price is known for "
            f"{'it' if len(unpriced) == 1 else 'them'} (their calls would count as $0); give prices with "
            "--price-file FILE, or pass --allow-unpriced to accept a run the budget does not bound"
        )


def _provider_problem(use: Use) -> str | None:
    """None when litellm knows the model's provider; else what is wrong, naming the known providers near it."""
    from harness.llm.transports import import_litellm

    litellm = import_litellm()
    try:
        litellm.get_llm_provider(use.model, api_base=use.api_base)
    except Exception:
        provider = ModelName(use.model).provider
        prefix = use.model if provider is None else provider
        import difflib

        known = [str(getattr(p, "value", p)) for p in litellm.provider_list]
        near = difflib.get_close_matches(prefix, known, n=3)
        hint = f" (did you mean {' or '.join(f'{n}/...' for n in near)}?)" if near else ""
        return f"{use.role} {use.model}: litellm knows no provider {prefix!r}{hint}"
    return None


def _key_problem(settings: Settings, use: Use, route: str) -> str | None:
    """None when the key the call needs is in the environment."""
    if use.key_env:
        if not os.environ.get(use.key_env):
            return f"{use.key_option} {use.key_env}: the variable is not set (it holds the key for {use.model})"
        return None
    if use.api_base:  # a custom endpoint without a named key gets none (the key policy): nothing to check
        return None
    if route == "openai":
        if not os.environ.get("OPENAI_API_KEY"):
            return (
                f"{use.role} {use.model}: OPENAI_API_KEY is not set (set it, or point {use.base_option} at another "
                f"OpenAI-compatible server and name its key with {use.key_option})"
            )
        return None
    from harness.llm.transports import import_litellm

    try:
        missing = import_litellm().validate_environment(model=use.model).get("missing_keys") or []
    except Exception:
        return None
    if missing:
        return f"{use.role} {use.model}: {', '.join(missing)} is not set (the provider's key)"
    return None


def probe(api_base: str, key: str | None, timeout: float = PROBE_TIMEOUT_S, *, openai: bool = True) -> str | None:
    """GET {api_base}/models, which costs nothing: None when the server answers (any status but a refused
    key, on an OpenAI-compatible endpoint: another provider's API may ask for its key another way), else
    why not."""
    import base64
    from urllib.parse import unquote, urlsplit, urlunsplit

    from harness.llm.transports import join_endpoint
    from harness.secrets import redact_text, redact_url

    parts = urlsplit(join_endpoint(api_base, "models"))
    headers = {"Authorization": f"Bearer {key}"} if key else {}
    if parts.username is not None and not key:  # credentials in the URL: sent as the call would send them
        pair = f"{unquote(parts.username)}:{unquote(parts.password or '')}"
        headers["Authorization"] = "Basic " + base64.b64encode(pair.encode()).decode()
    host = parts.hostname or ""
    netloc = (f"[{host}]" if ":" in host else host) + (f":{parts.port}" if parts.port else "")
    url = urlunsplit((parts.scheme, netloc, parts.path, parts.query, ""))
    request = urllib.request.Request(url, headers=headers, method="GET")
    try:
        with urllib.request.urlopen(request, timeout=timeout) as reply:
            reply.read(65536)
    except urllib.error.HTTPError as exc:
        if exc.code in (401, 403) and openai:
            return f"{redact_url(api_base)} refused the key (HTTP {exc.code})"
        return None  # it answered: a server without /models still serves chat
    except Exception as exc:  # refused, unresolvable, timed out, not HTTP: it does not answer
        reason = redact_text(str(getattr(exc, "reason", exc)))
        return f"{redact_url(api_base)} does not answer ({reason})"
    return None


def check_endpoints(settings: Settings) -> None:
    """Each distinct endpoint once: provider, key, and (for your own endpoints) that it answers. All
    problems in one line, naming the options."""
    if settings.cache_mode.value == "replay":
        return  # no call will be made: no key, no endpoint needed
    from harness.llm.transports import endpoint_key

    problems: list[str] = []
    seen: set[tuple[Any, ...]] = set()
    probed: dict[tuple[str, str | None], str | None] = {}
    for use in uses(settings):
        route = route_of(settings, use)
        ident = (use.model if route == "litellm" else route, use.api_base, use.key_env)
        if ident in seen:
            continue
        seen.add(ident)
        problem = _provider_problem(use) if route == "litellm" else None
        problem = problem or _key_problem(settings, use, route)
        if problem is None and use.api_base:
            try:
                key = endpoint_key(use.api_base, use.key_env, None)
            except Exception:
                key = None
            target = (use.api_base, use.key_env)
            if target not in probed:
                probed[target] = probe(use.api_base, key, openai=route == "openai")
            if probed[target]:
                problem = f"{use.base_option} {probed[target]}"
        if problem and problem not in problems:
            problems.append(problem)
    if problems:
        raise ConfigError("; ".join(problems) + ". Nothing was called.")


SCRIPT_SUFFIXES = (".js", ".mjs", ".cjs", ".ts", ".py", ".sh", ".bash", ".rb", ".pl", ".php", ".jar", ".lua", ".R")


def check_agent_command(command: str, invocation: Path) -> None:
    """--agent-cmd: the program must be found, and each script the command names must exist, where the
    agent will look for it (relative to the folder pytest runs in). A typo is one line now, not every item
    scored 0 as the agent's failure."""
    import shlex
    import shutil

    try:
        words = shlex.split(command)
    except ValueError as exc:
        raise ConfigError(f"--agent-cmd is not a valid command line ({exc})") from exc
    if not words:
        return
    program, rest = words[0], words[1:]
    if "/" in program or program.startswith("~"):
        path = Path(os.path.expanduser(program))
        path = path if path.is_absolute() else invocation / path
        if not path.exists():
            raise ConfigError(f"--agent-cmd {command!r}: {program} does not exist (looked at {path})")
    elif "=" not in program and shutil.which(program) is None:
        raise ConfigError(f"--agent-cmd {command!r}: no program {program!r} on PATH")
    skip_next = False
    for word in rest:
        if skip_next:  # the code of `python -c CODE` or `node -e CODE`, not a file
            skip_next = False
            continue
        if word in ("-c", "-e", "--eval", "-m"):
            skip_next = True
            continue
        if word.startswith("-") or not word.endswith(SCRIPT_SUFFIXES):
            continue
        path = Path(os.path.expanduser(word))
        path = path if path.is_absolute() else invocation / path
        if not path.exists():
            raise ConfigError(
                f"--agent-cmd {command!r}: the script {word} does not exist (looked at {path}); paths are "
                "relative to the folder pytest runs in"
            )
