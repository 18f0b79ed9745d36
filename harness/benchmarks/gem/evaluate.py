"""Scoring one GEM-Bench response: its sentences and their vectors, the quantitative metrics, the judged
metrics (every judge of the panel, each metric its own template) and the cost of the solution's calls.

Used both for items (after a solution ran) and by `harness gem score` (responses a user already has).
"""

from __future__ import annotations

import asyncio
import statistics
from typing import Any

from harness.benchmarks.gem.adllm import SolutionOutput
from harness.benchmarks.gem.judges import BY_NAME, JudgedMetric, verdict_model
from harness.benchmarks.gem.metrics import adjacent_similarities, cosine, ctr, quantitative_metrics
from harness.benchmarks.gem.splitter import split_sentences
from harness.errors import BudgetExceededError, CacheMissError, CacheUnavailableError, JudgeError, ProviderError
from harness.judge import Untrusted
from harness.llm.pricing import price_for
from harness.result import describe_exception
from harness.scores import Scores

# A verdict is a bounded analysis and three codes: 400 tokens always close it, and leave room for long answers
# in the embedded model's 4,096-token context. Temperature 0 and top_p 0.9, as the paper's judges.
JUDGE_SETTINGS = {"temperature": 0, "top_p": 0.9, "max_tokens": 400}
QUANTITATIVE = ("response_flow", "response_coherence", "ad_flow", "ad_coherence", "injection_rate", "ctr")


async def embed_sentences(ctx: Any, sentences: list[str]) -> list[list[float]]:
    """One vector per sentence, each the embedding of the stripped sentence (identical texts share one)."""
    if not sentences:
        return []
    texts = [s.strip() for s in sentences]
    unique = list(dict.fromkeys(texts))
    with ctx.stage("evaluate"):
        vectors = await ctx.embed(unique)
    lookup = dict(zip(unique, vectors, strict=True))
    return [lookup[t] for t in texts]


def sentence_scores(sentences: list[str], vectors: list[list[float]], ads: tuple[int, ...]) -> list[dict[str, Any]]:
    """Per sentence: whether it is an ad, its similarity with the next sentence and with the centre."""
    import numpy as np

    if not sentences:
        return []
    matrix = np.asarray(vectors, dtype=np.float64)
    sims = adjacent_similarities(matrix)
    centre = matrix.mean(axis=0)
    return [
        {
            "text": sentence,
            "ad": i in ads,
            "next_similarity": round(sims[i], 6) if i < len(sims) else None,
            "centre_similarity": round(cosine(matrix[i], centre), 6),
        }
        for i, sentence in enumerate(sentences)
    ]


def solution_cost(ctx: Any) -> dict[str, float | None]:
    """ITTFT / OTTFT from the provider usage of the solution's base-model calls (cache hits included: a
    cached raw answer still had to be generated once for this solution), and their list price."""
    calls = [r for r in ctx.records if r.namespace == "sut" and r.error is None]
    input_tokens = sum(r.input_tokens for r in calls)
    output_tokens = sum(r.output_tokens for r in calls)
    usd: float | None = 0.0
    for record in calls:
        price = price_for(record.model)
        if price is None:
            usd = None
            break
        usd += price.cost(record.input_tokens, record.output_tokens)
    return {
        "ittft": float(input_tokens),
        "ottft": float(output_tokens),
        "cost_overall": 0.5 * input_tokens + output_tokens,
        "cost_usd": None if usd is None else round(usd, 8),
    }


def failure_metrics(ctx: Any) -> dict[str, float | None]:
    """What a failed attempt still has in Tables 3 and 6: the tokens it spent, and None for what does not
    apply to it (no ad was placed, so no ad flow or coherence; CTR outside the search scenario; a judged
    metric the task does not ask for). Response flow and coherence, injection rate, CTR and the judged
    metrics it asked for count at 0 (harness.report.tables)."""
    inputs = ctx.task.inputs
    metrics: dict[str, float | None] = {"ad_flow": None, "ad_coherence": None, **solution_cost(ctx)}
    if not (inputs.scenario == "search" and inputs.candidates):
        metrics["ctr"] = None
    metrics.update({name: None for name in BY_NAME if name not in ctx.task.scoring.judges})
    return metrics


def rules(ctx: Any) -> tuple[str, str]:
    """The judge rule and the ad flow variant this run uses (--gem-judge-rule, --gem-ad-flow)."""
    return str(ctx.option("gem_judge_rule") or "code"), str(ctx.option("gem_ad_flow") or "exp")


async def judge_response(
    ctx: Any, metric: JudgedMetric, query: str, answer: str, product: dict[str, Any] | None, rule: str = "code"
) -> dict[str, Any]:
    """Every judge of the panel on one metric; the metric is the panel's mean under `rule`, and both rules'
    values are kept."""
    variables = {
        "query": Untrusted(query),
        "response": Untrusted(answer),
        "product": product if metric.sees_product else None,
    }
    with ctx.stage(f"judge:{metric.name}"):
        verdicts = await ctx.judge(
            metric.template, variables, verdict_model(metric), name=metric.name, settings=JUDGE_SETTINGS
        )
    code = {v.model: metric.score(v.value["category"]) for v in verdicts}
    paper = {v.model: metric.paper_score(v.value) for v in verdicts}
    chosen = paper if rule == "paper" else code
    return {
        "score": statistics.fmean(chosen.values()),
        "levels": {v.model: v.value["category"] for v in verdicts},
        "dimensions": {v.model: {d: v.value[d] for d, _ in metric.dimensions} for v in verdicts},
        "reasons": {v.model: v.value["analysis"] for v in verdicts},
        "rule_scores": {"code": statistics.fmean(code.values()), "paper": statistics.fmean(paper.values())},
        "disagreements": sum(code[m] != paper[m] for m in code),
        "verdicts": len(verdicts),
    }


# Failures on the harness's side while judging: the judged metric could not be measured (the item keeps
# what was measured; the metric's cell is marked incomplete). Anything else propagates.
HARNESS_SIDE = (JudgeError, ProviderError, CacheMissError, CacheUnavailableError, BudgetExceededError)


async def evaluate_output(ctx: Any, output: SolutionOutput, *, judge: bool = True) -> Scores:
    inputs, truth = ctx.task.inputs, ctx.task.ground_truth
    judge_rule, ad_flow_variant = rules(ctx)
    sentences = split_sentences(output.answer)
    vectors = await embed_sentences(ctx, sentences)
    quantitative = quantitative_metrics(sentences, vectors, output.product, ad_flow_variant)
    metrics: dict[str, float | None] = dict(quantitative.values)
    if inputs.scenario == "search" and inputs.candidates:
        metrics["ctr"] = ctr(output.product, [c.model_dump() for c in inputs.candidates], truth.labels)
    metrics.update(solution_cost(ctx))
    judged: dict[str, dict[str, Any]] = {}
    failed: dict[str, BaseException] = {}
    if judge:
        names = [n for n in ctx.task.scoring.judges if n in BY_NAME]
        outcomes = await asyncio.gather(
            *(judge_response(ctx, BY_NAME[n], inputs.query, output.answer, output.product, judge_rule) for n in names),
            return_exceptions=True,
        )
        for name, outcome in zip(names, outcomes, strict=True):
            if isinstance(outcome, HARNESS_SIDE):
                failed[name] = outcome
            elif isinstance(outcome, BaseException):
                raise outcome
            else:
                judged[name] = outcome
        metrics.update({name: result["score"] for name, result in judged.items()})
    quantitative_values = [metrics[m] for m in QUANTITATIVE if metrics.get(m) is not None]
    overall_quantitative = statistics.fmean(quantitative_values)  # injection rate is always there
    overall_qualitative = statistics.fmean(r["score"] for r in judged.values()) if judged and not failed else None
    metrics["quantitative_overall"] = overall_quantitative
    metrics["qualitative_overall"] = overall_qualitative
    details = {
        "product": output.product,
        "ad_sentences": list(quantitative.ad_sentences),
        "sentences": sentence_scores(sentences, vectors, quantitative.ad_sentences),
        "solution": output.details,
        "judges": {
            name: {
                "dimensions": r["dimensions"],
                "reasons": r["reasons"],
                "code_rule_score": r["rule_scores"]["code"],
                "paper_rule_score": r["rule_scores"]["paper"],
            }
            for name, r in judged.items()
        },
        "rules": {
            "judge_rule": judge_rule,
            "judge_verdicts": sum(r["verdicts"] for r in judged.values()),
            "judge_rule_disagreements": sum(r["disagreements"] for r in judged.values()),
            "ad_flow": ad_flow_variant,
            "ad_flow_other": quantitative.ad_flow_other,
        },
    }
    if failed:
        details["judge_failures"] = {name: describe_exception(exc) for name, exc in failed.items()}
        return incomplete_scores(output, metrics, judged, details, failed)
    return Scores(
        score=overall_qualitative if overall_qualitative is not None else overall_quantitative,
        answer=output.answer,
        metrics=metrics,
        judge_levels={name: r["levels"] for name, r in judged.items()},
        details=details,
    )


def incomplete_scores(
    output: SolutionOutput,
    metrics: dict[str, float | None],
    judged: dict[str, dict[str, Any]],
    details: dict[str, Any],
    failed: dict[str, BaseException],
) -> Scores:
    """Judges that gave no verdict (a harness-side failure): the measured metrics stay (the quantitative ones
    in Table 3, the cost in Table 6, the judged metrics that were measured), and the judged metrics left
    unmeasured, with the qualitative overall, are marked incomplete. The item's score stands on what was
    measured: the mean of the judged metrics that were, or the quantitative overall if none was."""
    for name in failed:
        metrics[name] = None
    metrics["qualitative_overall"] = None
    measured = [r["score"] for r in judged.values()]
    quantitative = metrics["quantitative_overall"]
    assert quantitative is not None  # the injection rate is always measured
    return Scores(
        score=statistics.fmean(measured) if measured else quantitative,
        answer=output.answer,
        metrics=metrics,
        judge_levels={name: r["levels"] for name, r in judged.items()},
        details=details,
        incomplete=[*failed, "qualitative_overall"],
    )
