"""Scoring one GEM-Bench response: its sentences and their vectors, the quantitative metrics, the judged
metrics (every judge of the panel, each metric its own template) and the cost of the solution's calls.

Used both for items (after a solution ran) and by `harness gem score` (responses a user already has).
"""

from __future__ import annotations

import asyncio
import statistics
from typing import Any

import numpy as np

from harness.benchmarks.gem.adllm import SolutionOutput
from harness.benchmarks.gem.judges import BY_NAME, JudgedMetric, verdict_model
from harness.benchmarks.gem.metrics import adjacent_similarities, cosine, ctr, quantitative_metrics
from harness.benchmarks.gem.splitter import split_sentences
from harness.judge import Untrusted
from harness.llm.pricing import price_for
from harness.scores import Scores

# A verdict is a bounded analysis and three codes: 400 tokens always close it, and leave room for long answers
# in the embedded model's 2,048-token context. Temperature 0 and top_p 0.9, as the paper's judges.
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


async def judge_response(
    ctx: Any, metric: JudgedMetric, query: str, answer: str, product: dict[str, Any] | None
) -> dict[str, Any]:
    variables = {"query": query, "response": Untrusted(answer), "product": product if metric.sees_product else None}
    with ctx.stage(f"judge:{metric.name}"):
        verdicts = await ctx.judge(
            metric.template, variables, verdict_model(metric), name=metric.name, settings=JUDGE_SETTINGS
        )
    return {
        "score": statistics.fmean(metric.score(v.value["category"]) for v in verdicts),
        "levels": {v.model: v.value["category"] for v in verdicts},
        "dimensions": {v.model: {d: v.value[d] for d, _ in metric.dimensions} for v in verdicts},
        "reasons": {v.model: v.value["analysis"] for v in verdicts},
    }


async def evaluate_output(ctx: Any, output: SolutionOutput, *, judge: bool = True) -> Scores:
    inputs, truth = ctx.task.inputs, ctx.task.ground_truth
    sentences = split_sentences(output.answer)
    vectors = await embed_sentences(ctx, sentences)
    quantitative = quantitative_metrics(sentences, vectors, output.product)
    metrics: dict[str, float | None] = dict(quantitative.values)
    if inputs.scenario == "search" and inputs.candidates:
        metrics["ctr"] = ctr(output.product, [c.model_dump() for c in inputs.candidates], truth.labels)
    metrics.update(solution_cost(ctx))
    judged: dict[str, dict[str, Any]] = {}
    if judge:
        names = [n for n in ctx.task.scoring.judges if n in BY_NAME]
        outcomes = await asyncio.gather(
            *(judge_response(ctx, BY_NAME[n], inputs.query, output.answer, output.product) for n in names),
            return_exceptions=True,
        )
        failures = [o for o in outcomes if isinstance(o, BaseException)]
        if failures:  # every judge was asked (and recorded); the item is an error naming the first failure
            raise failures[0]
        judged = dict(zip(names, outcomes, strict=True))  # type: ignore[arg-type]
        metrics.update({name: result["score"] for name, result in judged.items()})
    quantitative_values = [metrics[m] for m in QUANTITATIVE if metrics.get(m) is not None]
    overall_quantitative = statistics.fmean(quantitative_values)  # injection rate is always there
    overall_qualitative = statistics.fmean(r["score"] for r in judged.values()) if judged else None
    metrics["quantitative_overall"] = overall_quantitative
    metrics["qualitative_overall"] = overall_qualitative
    details = {
        "product": output.product,
        "ad_sentences": list(quantitative.ad_sentences),
        "sentences": sentence_scores(sentences, vectors, quantitative.ad_sentences),
        "solution": output.details,
        "judges": {name: {"dimensions": r["dimensions"], "reasons": r["reasons"]} for name, r in judged.items()},
    }
    return Scores(
        score=overall_qualitative if overall_qualitative is not None else overall_quantitative,
        answer=output.answer,
        metrics=metrics,
        judge_levels={name: r["levels"] for name, r in judged.items()},
        details=details,
    )
