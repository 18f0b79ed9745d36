"""`--estimate`: what a run will take, before any call is made.

Per item, in this order of trust:
1. an earlier run of the same item (task, version, variant, repeat) with the same system and judges (the
   latest in --report-dir): its calls, tokens and priced cost; each of its calls whose key is in the cache
   now will be a cache hit (no cost);
2. otherwise the benchmark's own estimate (`Benchmark.estimate`: calls and tokens per namespace, from the
   task's text and settings), or a generic one: one call of the system under test on the task's text and
   one call per judge where the kind judges.
Costs use the same prices as the run (litellm's map, --price-file); a model with no known price is said.

With --cache-url, each item is also replayed from the cache (`replay_from_cache`: --cache-mode replay, so
no call can be made): the calls answered before the first one missing are what other machines already
paid for, and count as cached even on a machine with no earlier run of its own. An item answered whole
from the cache costs nothing; otherwise the replay stops at the first missing call, and what follows it
(a judge's call depends on the answer before it) is not known to be cached. A system under test that is
the user's agent (--agent, --agent-cmd, --agent-url) is not replayed: its calls depend on its own code.
"""

from __future__ import annotations

import json
from collections import defaultdict
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from harness.settings import Settings

CHARS_PER_TOKEN = 4.0


@dataclass
class Need:
    """Calls and tokens of one namespace ("sut", "judge", "embed") for one item."""

    calls: float = 0.0
    input_tokens: float = 0.0
    output_tokens: float = 0.0


@dataclass
class ItemEstimate:
    suite: str
    needs: dict[str, Need]
    basis: str  # "earlier run", "defaults" or "cache" (replayed whole from the cache)
    cached_calls: int = 0
    priced_usd: float | None = None  # from an earlier run: what its calls cost at their price


@dataclass
class SuiteEstimate:
    items: int = 0
    calls: float = 0.0
    cached_calls: float = 0.0
    input_tokens: float = 0.0
    output_tokens: float = 0.0
    cost_usd: float = 0.0
    unknown_prices: set[str] = field(default_factory=set)
    from_runs: int = 0
    from_cache: int = 0


def tokens(text: str) -> float:
    return len(text) / CHARS_PER_TOKEN


def generic_estimate(task: Any, settings: Settings) -> dict[str, Need]:
    """One call of the system under test on the task's inputs; one per judge when the kind judges."""
    prompt = tokens(json.dumps(task.inputs.model_dump(mode="json"), ensure_ascii=False))
    needs = {"sut": Need(1, prompt + 60, float(settings.sut_settings.get("max_tokens") or 300))}
    scoring = getattr(task, "scoring", None)
    judged = getattr(scoring, "method", "judge") == "judge" or bool(getattr(scoring, "judges", None))
    if judged:
        judges = len(settings.judge_models)
        needs["judge"] = Need(judges, judges * (prompt + 700), judges * 250)
    return needs


def previous_results(report_dir: Path, settings: Settings, limit: int = 20) -> dict[tuple[Any, ...], dict[str, Any]]:
    """The latest result of each item in earlier runs of the same system and judges."""
    from harness.run_files import system_label

    found: dict[tuple[Any, ...], dict[str, Any]] = {}
    runs = sorted(report_dir.glob("*/results.json"), key=lambda p: p.parent.name, reverse=True)[:limit]
    for path in runs:
        try:
            run = json.loads(path.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            continue
        options = run.get("run", {}).get("options", {})
        if system_label(options) != settings.sut_label or options.get("judge_models") != settings.judge_models:
            continue
        for result in run.get("results", []):
            if result.get("outcome") == "error":
                continue
            key = (result["task_id"], result.get("task_version"), result.get("variant"), result.get("repeat"))
            found.setdefault(key, result)
    return found


def estimate_run(specs: list[Any], settings: Settings, width: int | None = None) -> list[str]:
    """The lines `--estimate` prints for these items (pytest's TaskItem specs), tables fit to `width`."""
    replayed = replay_from_cache(specs, settings) if can_replay(settings) and specs else None
    cache = None
    if settings.cache_mode.value in ("use", "replay") and (settings.cache_dir.is_dir() or settings.cache_url):
        from harness.cache import CallCache

        remote = None
        if settings.cache_url:  # calls other shards or machines already paid for are hits too
            from harness.redis_store import shared_parts

            remote, _ = shared_parts(settings, "estimate")
        cache = CallCache(settings.cache_dir, settings.cache_mode, remote=remote)
    try:
        items = estimate_items(specs, settings, cache, replayed)
        return lines(summarise(items, settings), width) + stage_lines(by_stage(items, settings), width)
    finally:
        if cache is not None:
            cache.close()


def can_replay(settings: Settings) -> bool:
    """Replay items from the shared cache: --cache-url, a mode that reads, and --model as the system (an
    agent's calls come from its own code, which an estimate does not run)."""
    return bool(settings.cache_url) and settings.cache_mode.value in ("use", "replay") and not settings.has_agent


def replay_from_cache(specs: list[Any], settings: Settings) -> list[dict[str, Any]]:
    """Each item's result when run on the cache alone (--cache-mode replay: a call missing from the cache
    fails, none is made, nothing is paid or budgeted). Items run as in a run, many at once."""
    from dataclasses import replace

    from harness.cache import CacheMode
    from harness.services import build_runner

    offline = replace(settings, cache_mode=CacheMode.REPLAY, max_cost_usd=None)
    runner = build_runner(offline, "estimate")
    try:
        for index, spec in enumerate(specs):
            runner.start(str(index), spec, 0.0)
        return [runner.wait(str(index), spec, 0.0) for index, spec in enumerate(specs)]
    finally:
        runner.close()


def _replayed_whole(result: dict[str, Any] | None) -> bool:
    """Whether every call the item made was answered by the cache (so a run makes none)."""
    calls = (result or {}).get("calls") or []
    return bool(calls) and all(call.get("cache_hit") for call in calls)


def _needs_of(calls: list[dict[str, Any]]) -> dict[str, Need]:
    needs: dict[str, Need] = defaultdict(Need)
    for call in calls:
        need = needs[call["namespace"]]
        need.calls += 1
        need.input_tokens += call.get("input_tokens") or 0
        need.output_tokens += call.get("output_tokens") or 0
    return dict(needs)


def _with_replay(estimate: ItemEstimate, result: dict[str, Any] | None) -> ItemEstimate:
    """An item's estimate once its replay from the cache is known."""
    if result is None:
        return estimate
    if _replayed_whole(result):
        calls = result["calls"]
        basis = estimate.basis if estimate.basis == "earlier run" else "cache"
        return ItemEstimate(estimate.suite, _needs_of(calls), basis, len(calls), 0.0)
    hits = sum(bool(call.get("cache_hit")) for call in result.get("calls") or [])
    if hits <= estimate.cached_calls:
        return estimate
    total = sum(n.calls for n in estimate.needs.values())
    if total <= hits:  # the replay got further than the estimate's calls: at least one more is missing
        scale = (hits + 1) / total if total else 1.0
        needs = {k: Need(n.calls * scale, n.input_tokens * scale, n.output_tokens * scale)
                 for k, n in estimate.needs.items()}  # fmt: skip
        if not needs:
            needs = {"sut": Need(hits + 1)}
        estimate = ItemEstimate(estimate.suite, needs, estimate.basis, estimate.cached_calls, estimate.priced_usd)
    estimate.cached_calls = hits
    return estimate


def estimate_items(
    specs: list[Any], settings: Settings, cache: Any = None, replayed: list[dict[str, Any]] | None = None
) -> list[ItemEstimate]:
    """One estimate per item; `replayed` (in the order of `specs`): each item's replay from the cache."""
    earlier = previous_results(settings.report_dir, settings)
    out = []
    for index, spec in enumerate(specs):
        out.append(_with_replay(_item_estimate(spec, settings, cache, earlier), replayed[index] if replayed else None))
    return out


def _item_estimate(
    spec: Any, settings: Settings, cache: Any, earlier: dict[tuple[Any, ...], dict[str, Any]]
) -> ItemEstimate:
    """From the item's earlier run (its calls still in the cache are hits), else from the benchmark's defaults."""
    from harness.kinds import get_benchmark

    task = spec.task
    result = earlier.get((task.id, task.version, spec.variant, spec.repeat))
    if result is None:
        estimator = get_benchmark(task.kind).estimate or generic_estimate
        return ItemEstimate(task.suite, estimator(task, settings), "defaults")
    calls = result.get("calls") or []
    cached = sum(cache is not None and cache.get(c["namespace"], c["key"]) is not None for c in calls)
    usage = result.get("usage") or {}
    priced = usage.get("priced_usd") if usage.get("priced_known", True) else None
    return ItemEstimate(task.suite, _needs_of(calls), "earlier run", cached, priced)


def summarise(items: list[ItemEstimate], settings: Settings) -> dict[str, SuiteEstimate]:
    from harness.llm.pricing import load_price_file, price_for

    user_prices = load_price_file(settings.price_file) if settings.price_file else {}
    models = {"sut": [settings.model], "judge": list(settings.judge_models), "embed": [settings.embedding_model]}
    suites: dict[str, SuiteEstimate] = defaultdict(SuiteEstimate)
    for item in items:
        suite = suites[item.suite]
        suite.items += 1
        suite.from_runs += item.basis == "earlier run"
        suite.from_cache += item.basis == "cache"
        suite.cached_calls += item.cached_calls
        item_calls = sum(n.calls for n in item.needs.values())
        cost = item.priced_usd or 0.0
        for namespace, need in item.needs.items():
            suite.calls += need.calls
            suite.input_tokens += need.input_tokens
            suite.output_tokens += need.output_tokens
            if item.priced_usd is not None:
                continue
            chosen = models.get(namespace, [settings.model])
            for model in chosen:  # a panel splits the judge calls evenly
                price = price_for(model, user_prices)
                if price is None:
                    suite.unknown_prices.add(model)
                    continue
                share = 1 / len(chosen)
                cost += price.cost(need.input_tokens * share, need.output_tokens * share)
        if item_calls:  # calls that will be read from the cache cost nothing now
            suite.cost_usd += cost * max(0.0, 1 - item.cached_calls / item_calls)
    return dict(sorted(suites.items()))


STAGES = {"sut": "system under test", "judge": "judges", "embed": "embeddings"}


def by_stage(items: list[ItemEstimate], settings: Settings) -> dict[str, SuiteEstimate]:
    """The same totals by stage: the system under test's calls, the judges' and the embeddings'. A stage's
    cost is its tokens at its models' prices, less the item's share of calls the cache will answer."""
    from harness.llm.pricing import load_price_file, price_for

    user_prices = load_price_file(settings.price_file) if settings.price_file else {}
    models = {"sut": [settings.model], "judge": list(settings.judge_models), "embed": [settings.embedding_model]}
    stages: dict[str, SuiteEstimate] = defaultdict(SuiteEstimate)
    for item in items:
        item_calls = sum(n.calls for n in item.needs.values())
        paid_share = max(0.0, 1 - item.cached_calls / item_calls) if item_calls else 0.0
        for namespace, need in item.needs.items():
            stage = stages[namespace]
            stage.items += 1
            stage.calls += need.calls
            stage.cached_calls += need.calls * (1 - paid_share)
            stage.input_tokens += need.input_tokens
            stage.output_tokens += need.output_tokens
            chosen = models.get(namespace, [settings.model])
            for model in chosen:
                price = price_for(model, user_prices)
                if price is None:
                    stage.unknown_prices.add(model)
                    continue
                share = 1 / len(chosen)
                stage.cost_usd += paid_share * price.cost(need.input_tokens * share, need.output_tokens * share)
    order = list(STAGES)
    return dict(sorted(stages.items(), key=lambda kv: order.index(kv[0]) if kv[0] in order else len(order)))


def stage_lines(stages: dict[str, SuiteEstimate], width: int | None = None) -> list[str]:
    """The by-stage table under the suites' (calls, tokens and cost; the basis is the suites')."""
    from harness.terminal_fit import fit_table

    if not stages:
        return []
    rows = [_cells(STAGES.get(name, name), s) for name, s in stages.items()]
    return fit_table(["by stage", "items", "calls", "cached", "tokens in", "tokens out", "cost $"], rows, width)


def _cells(name: str, s: SuiteEstimate) -> list[str]:
    cost = f"{s.cost_usd:.4f}" + ("+?" if s.unknown_prices else "")
    return [name, str(s.items), f"{s.calls:.0f}", f"{s.cached_calls:.0f}", f"{s.input_tokens:,.0f}",
            f"{s.output_tokens:,.0f}", cost]  # fmt: skip


def lines(suites: dict[str, SuiteEstimate], width: int | None = None) -> list[str]:
    """The suites' table (fit to `width`, harness.terminal_fit), its total, and the models without a price."""
    from harness.terminal_fit import fit_table

    header = ["suite", "items", "calls", "cached", "tokens in", "tokens out", "cost $", "basis"]
    rows = []
    total = SuiteEstimate()
    for name, s in suites.items():
        rows.append(_row(name, s))
        total.items += s.items
        total.calls += s.calls
        total.cached_calls += s.cached_calls
        total.input_tokens += s.input_tokens
        total.output_tokens += s.output_tokens
        total.cost_usd += s.cost_usd
        total.from_runs += s.from_runs
        total.from_cache += s.from_cache
        total.unknown_prices |= s.unknown_prices
    rows.append(_row("ALL", total))
    right = [False, True, True, True, True, True, True, False]
    out = ["harness estimate (no call was made)", *fit_table(header, rows, width, right=right)]
    if total.unknown_prices:
        out.append(f"no known price for {', '.join(sorted(total.unknown_prices))}: their calls are not in the cost "
                   "(give prices with --price-file)")  # fmt: skip
    return out


def _row(name: str, s: SuiteEstimate) -> list[str]:
    basis = f"{s.from_runs} from earlier runs, {s.items - s.from_runs - s.from_cache} from defaults"
    if s.from_cache:
        basis += f", {s.from_cache} from the shared cache"
    return [*_cells(name, s), basis]
