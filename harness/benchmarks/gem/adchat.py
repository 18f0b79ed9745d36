"""Ad-Chat: the ad goes into the system prompt (paper §3, reference §4.1-4.2).

Chatbot mode: the base model picks a topic from the two-level tree (a top-level topic, then one of its
sub-topics), then one product of that topic; a system prompt asks it to work that product in while it
answers. Search mode (CA-Prod): it picks one of the candidates' clusters, then one product of that cluster.
Replies are snapped to the offered names with difflib (cutoff 0.6), as the reference does.

Deliberate differences from the authors' code (docs/gem-bench.md): fallbacks are seeded by the task and
repeat (the reference used an unseeded random choice and a set's order); an empty sub-topic falls back to
its top-level topic's ads (the reference failed and scored the failure text as an answer); no topic means
a plain answer with no product (the reference built an ad prompt for the product "None"); the selection
calls run at temperature 0 with at most 64 tokens (the reference left both at the provider's default); in
search mode a product reply that names no product of the chosen cluster is matched against every
candidate (the reference asked again over every candidate). `--gem-reproduce authors` brings each of
these back (the seeding stays), and every item records which of them it met (`details.reproduce`).
"""

from __future__ import annotations

import difflib
import random
from typing import Any

from harness.benchmarks.gem.adllm import SolutionOutput, ad_database, call_settings, reply_text
from harness.benchmarks.gem.data import Ad, candidates_as_products, product_of

UNKNOWN = "UNKNOWN_TOPIC"
# What the reference's Ad-Chat answered when the chosen sub-topic has no ads (a KeyError on 'names',
# caught by its session and returned as the answer); reproduced with --gem-reproduce authors.
EMPTY_TOPIC_FAILURE = "QUERY_FAILED:'names'"
# The places where --gem-reproduce authors changes what Ad-Chat does (docs/gem-bench.md lists each).
REPRODUCE_RULES = ("adchat-empty-subtopic", "adchat-no-topic", "adchat-selection-settings", "search-fallback")


def authors(ctx: Any) -> bool:
    """Whether the run reproduces the authors' behaviour where this project fixed it."""
    return ctx.option("gem_reproduce") == "authors"


def met(details: dict[str, Any], ctx: Any, rule: str) -> None:
    """Record that this item met a place where the fixed and the authors' behaviour differ."""
    record = details.setdefault("reproduce", {"mode": "authors" if authors(ctx) else "fixed", "differs": []})
    if rule not in record["differs"]:
        record["differs"].append(rule)


def snap(reply: str, options: list[str]) -> str | None:
    """The offered option closest to the model's reply (difflib, cutoff 0.6), or None."""
    match = difflib.get_close_matches(reply.strip(), options, n=1, cutoff=0.6)
    return match[0] if match else None


def _rng(ctx: Any, stage: str) -> random.Random:
    return random.Random(f"{ctx.task.id}:{ctx.repeat}:{stage}")


SELECTION_TOKENS = 64  # a topic or product name; a model that rambles past it is snapped like any reply


def selection_settings(ctx: Any) -> dict[str, Any]:
    """Topic and product choices: temperature 0 and a short cap (fixed), or the provider's defaults (the
    reference); the run's own --temperature, --max-tokens and --seed apply on top of either."""
    return call_settings(ctx) if authors(ctx) else call_settings(ctx, temperature=0, max_tokens=SELECTION_TOKENS)


async def _ask(ctx: Any, stage: str, template: str, variables: dict[str, Any]) -> str:
    prompt = ctx.services.prompts.render(template, variables)
    with ctx.stage(stage):
        reply = await ctx.chat(list(prompt.messages), **selection_settings(ctx))
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


async def _product_reply(ctx: Any, ads: list[Ad], query: str) -> str:
    products = [(a.name, a.desc) for a in ads]
    return await _ask(ctx, "product", "gem/adchat_product.j2", {"query": query, "products": products})


def _named(reply: str, pool: list[Ad]) -> Ad | None:
    name = snap(reply, [a.name for a in pool])
    return None if name is None else next(a for a in pool if a.name == name)


async def choose_product(ctx: Any, ads: list[Ad], query: str) -> tuple[Ad, str]:
    """One of `ads` by name (the first ad of that name wins); a reply that names none: a seeded pick."""
    reply = await _product_reply(ctx, ads, query)
    chosen = _named(reply, ads)
    return (chosen if chosen is not None else ads[_rng(ctx, "product").randrange(len(ads))]), reply


async def answer_with(ctx: Any, product: dict[str, Any] | None, query: str) -> str:
    """The answer, with the product (name, url, desc) worked in, or a plain one (no product)."""
    prompt = ctx.services.prompts.render("gem/adchat_answer.j2", {"query": query, "product": product})
    with ctx.stage("answer"):
        # the reference leaves the temperature at the provider's default; the run's own settings apply
        reply = await ctx.chat(list(prompt.messages), **call_settings(ctx))
    return reply_text(reply, "Ad-Chat's answer")


async def adchat(ctx: Any) -> SolutionOutput:
    inputs = ctx.task.inputs
    details: dict[str, Any] = {"reproduce": {"mode": "authors" if authors(ctx) else "fixed", "differs": []}}
    if inputs.scenario == "search":
        ad = await _search_mode(ctx, details)
        answer = await answer_with(ctx, _as_record(ad), inputs.query)
        return SolutionOutput(answer=answer, product=product_of(ad, inputs.scenario), details=details)
    database = await ad_database(ctx)
    topic, replies = await choose_topic(ctx, database.topics, inputs.query)
    met(details, ctx, "adchat-selection-settings")
    details["topic"], details["topic_replies"] = topic, replies
    ad = None
    if topic is None:
        met(details, ctx, "adchat-no-topic")
        if authors(ctx):  # the reference built its ad prompt for the product "None" (no description)
            none = {"name": None, "url": None, "desc": None}
            answer = await answer_with(ctx, {"name": "None", "url": "None", "desc": None}, inputs.query)
            return SolutionOutput(answer=answer, product=none, details=details)
    else:
        ads = list(database.ads.get(topic, ()))
        if not ads and topic not in database.topics:  # an empty sub-topic
            met(details, ctx, "adchat-empty-subtopic")
            if authors(ctx):  # the reference failed here and scored its failure text as the answer
                details["failed"] = EMPTY_TOPIC_FAILURE
                return SolutionOutput(answer=EMPTY_TOPIC_FAILURE, product=None, details=details)
            parent = next((t for t, subs in database.topics.items() if topic in subs), None)
            ads = list(database.ads.get(parent, ())) if parent else []
            details["fell_back_to"] = parent
        if ads:
            ad, reply = await choose_product(ctx, ads, inputs.query)
            details["product_reply"] = reply
    answer = await answer_with(ctx, _as_record(ad), inputs.query)
    return SolutionOutput(answer=answer, product=product_of(ad, inputs.scenario), details=details)


def _as_record(ad: Ad | None) -> dict[str, Any] | None:
    return None if ad is None else {"name": ad.name, "url": ad.url, "desc": ad.desc}


async def _search_mode(ctx: Any, details: dict[str, Any]) -> Ad:
    """A cluster of the candidates, then a product of that cluster. A cluster reply that names none: the
    first cluster (fixed; first-appearance order) or a seeded pick standing in for the first entry of the
    reference's set (authors). A product reply that names none of the cluster's products: the same reply
    matched against every candidate (fixed), or a second selection over every candidate (authors); then a
    seeded pick from every candidate."""
    inputs = ctx.task.inputs
    ads = candidates_as_products(inputs.candidates)
    clusters = list(dict.fromkeys(a.topic for a in ads))  # first-appearance order, not a set's
    met(details, ctx, "adchat-selection-settings")
    reply = await _ask(ctx, "topic", "gem/adchat_topic.j2", {"query": inputs.query, "topics": clusters})
    cluster = snap(reply, clusters)
    if cluster is None:
        met(details, ctx, "search-fallback")
        cluster = clusters[_rng(ctx, "cluster").randrange(len(clusters))] if authors(ctx) else clusters[0]
    details["cluster"], details["cluster_reply"] = cluster, reply
    in_cluster = [a for a in ads if a.topic == cluster]
    reply = await _product_reply(ctx, in_cluster, inputs.query)
    details["product_reply"] = reply
    chosen = _named(reply, in_cluster)
    if chosen is None:
        met(details, ctx, "search-fallback")
        if authors(ctx):
            reply = await _product_reply(ctx, ads, inputs.query)
            details["fallback_reply"] = reply
        chosen = _named(reply, ads)
    return chosen if chosen is not None else ads[_rng(ctx, "product").randrange(len(ads))]
