"""`--estimate`: what a run will take, before any call is made.

Per item, in this order of trust:
1. an earlier run of the same item (task, version, variant, repeat) with the same system and judges (the
   latest in --report-dir): its calls, tokens and priced cost; each of its calls whose key is in the cache
   now will be a cache hit (no cost);
2. otherwise the benchmark's own estimate (`Benchmark.estimate`: calls and tokens per namespace, from the
   task's text and settings), or a generic one: one call of the system under test on the task's text and
   one call per judge where the kind judges.
Costs use the same prices as the run (litellm's map, --price-file); a model with no known price is said.
"""

from __future__ import annotations

import json
from collections import defaultdict
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

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
    basis: str  # "earlier run" or "defaults"
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


def tokens(text: str) -> float:
    return len(text) / CHARS_PER_TOKEN


def generic_estimate(task: Any, settings: Any) -> dict[str, Need]:
    """One call of the system under test on the task's inputs; one per judge when the kind judges."""
    prompt = tokens(json.dumps(task.inputs.model_dump(mode="json"), ensure_ascii=False))
    needs = {"sut": Need(1, prompt + 60, float(settings.sut_settings.get("max_tokens") or 300))}
    scoring = getattr(task, "scoring", None)
    judged = getattr(scoring, "method", "judge") == "judge" or bool(getattr(scoring, "judges", None))
    if judged:
        judges = len(settings.judge_models)
        needs["judge"] = Need(judges, judges * (prompt + 700), judges * 250)
    return needs


def previous_results(report_dir: Path, settings: Any, limit: int = 20) -> dict[tuple[Any, ...], dict[str, Any]]:
    """The latest result of each item in earlier runs of the same system and judges."""
    from harness.settings import system_label

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


def estimate_items(specs: list[Any], settings: Any, cache: Any = None) -> list[ItemEstimate]:
    from harness.benchmarks import get_benchmark

    earlier = previous_results(settings.report_dir, settings)
    out = []
    for spec in specs:
        task = spec.task
        key = (task.id, task.version, spec.variant, spec.repeat)
        result = earlier.get(key)
        if result is not None:
            needs: dict[str, Need] = defaultdict(Need)
            cached = 0
            for call in result.get("calls") or []:
                need = needs[call["namespace"]]
                need.calls += 1
                need.input_tokens += call["input_tokens"]
                need.output_tokens += call["output_tokens"]
                if cache is not None and cache.get(call["namespace"], call["key"]) is not None:
                    cached += 1
            usage = result.get("usage") or {}
            priced = usage.get("priced_usd") if usage.get("priced_known", True) else None
            out.append(ItemEstimate(task.suite, dict(needs), "earlier run", cached, priced))
            continue
        benchmark = get_benchmark(task.kind)
        estimator = benchmark.estimate or generic_estimate
        out.append(ItemEstimate(task.suite, estimator(task, settings), "defaults"))
    return out


def summarise(items: list[ItemEstimate], settings: Any) -> dict[str, SuiteEstimate]:
    from harness.llm.pricing import load_price_file, price_for

    user_prices = load_price_file(settings.price_file) if settings.price_file else {}
    models = {"sut": [settings.model], "judge": list(settings.judge_models), "embed": [settings.embedding_model]}
    suites: dict[str, SuiteEstimate] = defaultdict(SuiteEstimate)
    for item in items:
        suite = suites[item.suite]
        suite.items += 1
        suite.from_runs += item.basis == "earlier run"
        suite.cached_calls += item.cached_calls
        item_calls = sum(n.calls for n in item.needs.values())
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
                suite.cost_usd += price.cost(need.input_tokens * share, need.output_tokens * share)
        if item.priced_usd is not None and item_calls:
            # calls that will be read from the cache cost nothing now
            suite.cost_usd += item.priced_usd * (1 - item.cached_calls / item_calls)
    return dict(sorted(suites.items()))


def lines(suites: dict[str, SuiteEstimate]) -> list[str]:
    header = (
        f"{'suite':<24} {'items':>6} {'calls':>9} {'cached':>8} {'tokens in':>12} {'tokens out':>11} {'cost $':>10}  "
        "basis"
    )
    out = ["harness estimate (no call was made)", header]
    total = SuiteEstimate()
    for name, s in suites.items():
        out.append(_line(name, s))
        total.items += s.items
        total.calls += s.calls
        total.cached_calls += s.cached_calls
        total.input_tokens += s.input_tokens
        total.output_tokens += s.output_tokens
        total.cost_usd += s.cost_usd
        total.from_runs += s.from_runs
        total.unknown_prices |= s.unknown_prices
    out.append(_line("ALL", total))
    if total.unknown_prices:
        out.append(f"no known price for {', '.join(sorted(total.unknown_prices))}: their calls are not in the cost "
                   "(give prices with --price-file)")  # fmt: skip
    return out


def _line(name: str, s: SuiteEstimate) -> str:
    basis = f"{s.from_runs} from earlier runs, {s.items - s.from_runs} from defaults"
    cost = f"{s.cost_usd:.4f}" + ("+?" if s.unknown_prices else "")
    return (
        f"{name[:24]:<24} {s.items:>6} {s.calls:>9.0f} {s.cached_calls:>8.0f} {s.input_tokens:>12,.0f} "
        f"{s.output_tokens:>11,.0f} {cost:>10}  {basis}"
    )
