"""Ad-Chat: the ad goes into the system prompt (paper §3, reference §4.1-4.2).

Chatbot mode: the base model picks a topic from the two-level tree (a top-level topic, then one of its
sub-topics), then one product of that topic; a system prompt asks it to work that product in while it
answers. Search mode (CA-Prod): it picks one of the candidates' clusters, then one product of that cluster.
Replies are snapped to the offered names with difflib (cutoff 0.6), as the reference does.

Deliberate differences from the authors' code (docs/gem-bench.md): fallbacks are seeded by the task and
repeat (the reference used an unseeded random choice and a set's order); an empty sub-topic falls back to
its top-level topic's ads (the reference failed and scored the failure text as an answer); no topic means
a plain answer with no product (the reference built an ad prompt for the product "None").
"""

from __future__ import annotations

import difflib
import random
from typing import Any

from harness.benchmarks.gem.adllm import SolutionOutput, ad_database
from harness.benchmarks.gem.data import Ad, candidates_as_products, product_of

UNKNOWN = "UNKNOWN_TOPIC"


def snap(reply: str, options: list[str]) -> str | None:
    """The offered option closest to the model's reply (difflib, cutoff 0.6), or None."""
    match = difflib.get_close_matches(reply.strip(), options, n=1, cutoff=0.6)
    return match[0] if match else None


def _rng(ctx: Any, stage: str) -> random.Random:
    return random.Random(f"{ctx.task.id}:{ctx.repeat}:{stage}")


SELECTION_TOKENS = 64  # a topic or product name; a model that rambles past it is snapped like any reply


async def _ask(ctx: Any, stage: str, template: str, variables: dict[str, Any]) -> str:
    prompt = ctx.services.prompts.render(template, variables)
    with ctx.stage(stage):
        reply = await ctx.chat(list(prompt.messages), temperature=0, max_tokens=SELECTION_TOKENS)
    return str(reply.get("content") or "")


async def choose_topic(ctx: Any, topics: dict[str, tuple[str, ...]], query: str) -> tuple[str | None, list[str]]:
    """Top-level topic, then sub-topic; (the chosen key or None, the replies as evidence)."""
    first = await _ask(ctx, "topic", "gem/adchat_topic.j2", {"query": query, "topics": list(topics)})
    top = None if first.strip() == UNKNOWN else snap(first, list(topics))
    if top is None or not topics[top]:
        return top, [first]
    second = await _ask(ctx, "topic", "gem/adchat_topic.j2", {"query": query, "topics": list(topics[top])})
    sub = None if second.strip() == UNKNOWN else snap(second, list(topics[top]))
    return sub or top, [first, second]


async def choose_product(ctx: Any, ads: list[Ad], query: str, fallback: list[Ad] | None = None) -> tuple[Ad, str]:
    """One of `ads` by name (the first ad of that name wins). A reply that matches none of them is tried
    against `fallback` (search mode: every candidate), then a seeded pick from `fallback` or `ads`."""
    reply = await _ask(
        ctx, "product", "gem/adchat_product.j2", {"query": query, "products": [(a.name, a.desc) for a in ads]}
    )
    for pool in (ads, fallback or []):
        name = snap(reply, [a.name for a in pool])
        if name is not None:
            return next(a for a in pool if a.name == name), reply
    pool = fallback or ads
    return pool[_rng(ctx, "product").randrange(len(pool))], reply


async def answer_with(ctx: Any, ad: Ad | None, query: str) -> str:
    variables = {"query": query, "product": None}
    if ad is not None:
        variables["product"] = {"name": ad.name, "url": ad.url, "desc": ad.desc}
    prompt = ctx.services.prompts.render("gem/adchat_answer.j2", variables)
    with ctx.stage("answer"):
        reply = await ctx.chat(list(prompt.messages))  # the reference leaves the temperature at the default
    return str(reply.get("content") or "")


async def adchat(ctx: Any) -> SolutionOutput:
    inputs = ctx.task.inputs
    details: dict[str, Any] = {}
    if inputs.scenario == "search":
        ad = await _search_mode(ctx, details)
    else:
        database = await ad_database(ctx)
        topic, replies = await choose_topic(ctx, database.topics, inputs.query)
        details["topic"], details["topic_replies"] = topic, replies
        ad = None
        if topic is not None:
            ads = list(database.ads.get(topic, ()))
            if not ads:  # an empty sub-topic: its top-level topic's ads
                parent = next((t for t, subs in database.topics.items() if topic in subs), None)
                ads = list(database.ads.get(parent, ())) if parent else []
                details["fell_back_to"] = parent
            if ads:
                ad, reply = await choose_product(ctx, ads, inputs.query)
                details["product_reply"] = reply
    answer = await answer_with(ctx, ad, inputs.query)
    return SolutionOutput(answer=answer, product=product_of(ad, inputs.scenario), details=details)


async def _search_mode(ctx: Any, details: dict[str, Any]) -> Ad:
    inputs = ctx.task.inputs
    ads = candidates_as_products(inputs.candidates)
    clusters = list(dict.fromkeys(a.topic for a in ads))  # first-appearance order, not a set's
    reply = await _ask(ctx, "topic", "gem/adchat_topic.j2", {"query": inputs.query, "topics": clusters})
    cluster = snap(reply, clusters) or clusters[0]
    details["cluster"], details["cluster_reply"] = cluster, reply
    in_cluster = [a for a in ads if a.topic == cluster]
    ad, reply = await choose_product(ctx, in_cluster, inputs.query, fallback=ads)
    details["product_reply"] = reply
    return ad
