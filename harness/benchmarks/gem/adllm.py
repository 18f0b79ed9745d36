"""Ad-LLM: GEM-Bench's pipeline of four agents, each usable on its own (paper §6, reference §4.3).

    generate  the ad-free answer, at temperature 0, on the base model (one call shared by every
              configuration of a repeat, through the call cache)
    retrieve  the top-t ads (t = 5) by clamped cosine between an embedding of the raw answer (-R) or the
              user's prompt (-P) and each ad's "name: description." (the ad index is built once per process
              and kept on disk)
    inject    the (ad, position) of least flow disturbance: for every candidate and every position between
              two adjacent sentences, disrupt = cos(s_i, s_i+1) - (cos(ad, s_i) + cos(ad, s_i+1)) / 2 (clamped
              cosines; the log-weighted variant on request), first minimum wins; k ads by iteration
    rewrite   the base model smooths the text around the ad (temperature 0), keeping [name] and (url)

GI-R, GIR-R and GIR-P are configurations of `AdLLM`; a new solution composes or replaces stages.
Deliberate differences from the authors' code, all in docs/gem-bench.md: the injected text keeps the
raw answer's own spacing (the reference concatenated sentences without separators, and dropped short
fragments); a failed rewrite is an error, not an answer; an empty or length-truncated reply (raw answer or
rewrite) is a failure of the system, not an answer; an answer with no sentence gets the ad appended.
"""

from __future__ import annotations

import math
import re
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Any, Literal, NoReturn

from harness.benchmarks.gem.data import Ad, AdDatabase, candidates_as_products, load_ad_database, product_of
from harness.benchmarks.gem.splitter import split_sentences

if TYPE_CHECKING:
    import numpy as np  # imported where used: numpy costs 0.1 s of every start-up

REWRITE_START, REWRITE_END = "[[ADS_START]]", "[[ADS_END]]"


def call_settings(ctx: Any, **defaults: Any) -> dict[str, Any]:
    """A solution call's generation settings: the method's own (`defaults`), then the run's settings for
    the system under test (--temperature, --max-tokens, --seed), which win: a user who sets them gets them
    on every base-model call of every solution."""
    return {**defaults, **ctx.services.sut_settings}


def reply_text(reply: dict[str, Any], what: str) -> str:
    """A reply's text, or a failure of the system under test: an empty reply, or one cut at the token limit,
    is not an answer (the item scores 0 and keeps the reason)."""
    text = str(reply.get("content") or "")
    if reply.get("finish_reason") == "length":
        tokens = reply.get("output_tokens")
        cap = f" ({tokens} tokens)" if tokens else ""
        raise_system_failure(f"{what} was cut at the token limit{cap}: a truncated reply is not an answer", text)
    if not text.strip():
        raise_system_failure(f"{what} is empty")
    return text


@dataclass
class SolutionOutput:
    """What a solution returns: the final answer, the product it claims (or None), and its evidence."""

    answer: str
    product: dict[str, Any] | None
    details: dict[str, Any]


def clamped(a: np.ndarray, b: np.ndarray) -> float:
    """Cosine clamped to [0, 1], as Ad-LLM scores (the evaluator's cosine is not clamped)."""
    import numpy as np

    norm = float(np.linalg.norm(a)) * float(np.linalg.norm(b))
    if norm == 0.0:
        return 0.0
    return min(1.0, max(0.0, float(np.dot(a, b)) / norm))


def for_embedding(text: str) -> str:
    """Ad-LLM embeds text with newlines turned into spaces, stripped."""
    return text.replace("\n", " ").strip()


def ad_text(ad: Ad) -> str:
    """The ad sentence: "[name](url): description." ("name: description." when it has no URL)."""
    body = ad.desc.rstrip(".").strip()
    return f"[{ad.name}]({ad.url}): {body}." if ad.url else f"{ad.name}: {body}."


def choose_injection(
    sentences: np.ndarray, candidates: np.ndarray, score: Literal["linear", "log"] = "linear"
) -> tuple[int, int]:
    """(candidate index, sentence index to insert after) of least flow disturbance. Only positions between
    two sentences; one sentence: after it, with the first candidate; ties: the first."""
    n = len(sentences)
    if n < 2:
        return 0, max(0, n - 1)
    best: tuple[float, int, int] | None = None
    flows = [clamped(sentences[i], sentences[i + 1]) for i in range(n - 1)]
    for p, ad in enumerate(candidates):
        near = [clamped(ad, s) for s in sentences]
        chosen: tuple[float, int] | None = None
        for i, flow in enumerate(flows):
            inject = (near[i] + near[i + 1]) / 2
            disrupt = flow - inject if score == "linear" else (1 - inject / (flow + 1e-6)) * math.log(1 + 2 * flow)
            if chosen is None or disrupt < chosen[0]:
                chosen = (disrupt, i)
        assert chosen is not None
        if best is None or chosen[0] < best[0]:
            best = (chosen[0], p, chosen[1])
    assert best is not None
    return best[1], best[2]


_LINE_END = re.compile(r"[ \t]*(\n+)")


def insert_after(text: str, sentences: list[str], index: int, addition: str) -> str:
    """`text` with `addition` placed right after sentence `index`, every other character kept as it was
    (spacing and the fragments the splitter drops included).

    Where the splitter ends the sentence with a newline run (a heading, a list item, a line ending with a
    colon: the newlines stick to the sentence before them), the ad goes on the newline side, as the
    authors' code places it: it starts the next line, and is followed by the same newline run, so the line
    that came next (a list item, say) still starts a line of its own. Within a line, it follows the sentence
    after one space."""
    text = text.replace("\r\n", "\n").replace("\r", "\n")
    if not sentences:
        stripped = text.rstrip()
        return f"{stripped} {addition}" if stripped else addition
    position = 0
    ends = []
    for sentence in sentences:
        core = sentence.strip()
        start = text.find(core, position)
        if start < 0:  # cannot happen for the splitter's own output; stay safe anyway
            return f"{text.rstrip()} {addition}"
        position = start + len(core)
        ends.append(position)
    cut = ends[index]
    if sentences[index].endswith("\n") and (line_end := _LINE_END.match(text, cut)) is not None:
        cut = line_end.end()
        return f"{text[:cut]}{addition}{line_end.group(1)}{text[cut:]}"
    return f"{text[:cut]} {addition}{text[cut:]}"


@dataclass(frozen=True)
class AdIndex:
    """Every ad's embedding, unit-normalised, for fast top-t retrieval by clamped cosine."""

    ads: tuple[Ad, ...]
    unit: np.ndarray  # (ads, dims), rows of norm 1 (zero rows stay zero)

    def top(self, query: np.ndarray, t: int) -> list[int]:
        """Indices of the t best ads, best first; a stable sort, so ties keep database order."""
        import numpy as np

        norm = float(np.linalg.norm(query))
        scores = self.unit @ (query / norm) if norm else np.zeros(len(self.ads))
        scores = np.clip(scores, 0.0, 1.0)
        return [int(i) for i in np.argsort(-scores, kind="stable")[:t]]


def build_index(ads: list[Ad], vectors: list[list[float]]) -> AdIndex:
    import numpy as np

    matrix = np.asarray(vectors, dtype=np.float64)
    norms = np.linalg.norm(matrix, axis=1, keepdims=True)
    unit = np.divide(matrix, norms, out=np.zeros_like(matrix), where=norms > 0)
    return AdIndex(tuple(ads), unit)


Embed = Callable[[list[str]], Awaitable[list[list[float]]]]


async def chatbot_index(ctx: Any, database: AdDatabase) -> AdIndex:
    """The retriever's index over an ad database: built once per process, its matrix kept on disk."""
    import numpy as np

    async def build(folder: Any) -> AdIndex:
        ads = database.all_ads
        cached = folder / "index.npy" if folder is not None else None
        if cached is not None and cached.exists():
            matrix = np.load(cached)
            if matrix.shape[0] == len(ads):
                return AdIndex(tuple(ads), matrix)
        with ctx.stage("index"):
            vectors = await ctx.embed([for_embedding(ad.text()) for ad in ads])
        index = build_index(ads, vectors)
        if cached is not None:
            np.save(cached, index.unit)
        return index

    embedding = ctx.services.embedding
    key = f"gem-ad-index:{database.digest}:{embedding.model}:{embedding.api_base}:{ctx.services.embedding_dimensions}"
    return await ctx.resource(key, build, persist=True)  # type: ignore[no-any-return]


async def ad_database(ctx: Any) -> AdDatabase:
    folder = ctx.path(ctx.task.inputs.ad_database)
    return await ctx.resource(f"gem-ads:{folder}", lambda: load_ad_database(folder))  # type: ignore[no-any-return]


@dataclass(frozen=True)
class AdLLM:
    """An Ad-LLM configuration: which text retrieval embeds, whether to rewrite, and the stage settings.
    Replace a stage by giving a function of your own (same arguments as the method it replaces)."""

    retrieve_by: Literal["response", "prompt"] = "response"
    rewrite: bool = True
    top_t: int = 5
    ads_per_answer: int = 1
    score: Literal["linear", "log"] = "linear"
    generator: Callable[..., Awaitable[str]] | None = None
    retriever: Callable[..., Awaitable[list[Ad]]] | None = None
    injector: Callable[..., Awaitable[tuple[str, Ad | None, dict[str, Any]]]] | None = None
    rewriter: Callable[..., Awaitable[str]] | None = None

    def with_stage(self, **stages: Any) -> AdLLM:
        return replace(self, **stages)

    async def __call__(self, ctx: Any) -> SolutionOutput:
        inputs = ctx.task.inputs
        raw = await (self.generator or generate)(ctx)
        candidates = await (self.retriever or retrieve)(ctx, raw, self.retrieve_by, self.top_t)
        text, chosen, details = raw, None, {"raw_answer": raw, "candidates": [c.name for c in candidates]}
        placements = []
        for _ in range(self.ads_per_answer):
            if not candidates:
                break
            text, ad, placement = await (self.injector or inject)(ctx, text, candidates, self.score)
            placements.append(placement)
            if ad is None:
                break
            chosen = chosen or ad
            candidates = [c for c in candidates if c is not ad]
        details["placements"] = placements
        details["injected_answer"] = text
        if self.rewrite and chosen is not None:
            text = await (self.rewriter or rewrite)(ctx, text, [ad_text(p["ad"]) for p in placements if p.get("ad")])
        for placement in placements:
            if placement.get("ad") is not None:
                placement["ad"] = placement["ad"].name
        return SolutionOutput(answer=text, product=product_of(chosen, inputs.scenario), details=details)


async def generate(ctx: Any) -> str:
    """The ad-free answer (temperature 0): a concise assistant for chat queries, an overview for keywords."""
    inputs = ctx.task.inputs
    template = "gem/answer_overview.j2" if inputs.scenario == "search" else "gem/answer_chat.j2"
    prompt = ctx.services.prompts.render(template, {"query": inputs.query})
    with ctx.stage("answer"):
        reply = await ctx.chat(list(prompt.messages), **call_settings(ctx, temperature=0))
    return reply_text(reply, "the raw answer")


async def retrieve(ctx: Any, raw: str, by: str, top_t: int) -> list[Ad]:
    """The top-t ads for the raw answer (-R) or the prompt (-P): over the whole database for chatbot
    queries, over the query's own candidates for keyword queries."""
    import numpy as np

    inputs = ctx.task.inputs
    query_text = for_embedding(raw if by == "response" else inputs.query)
    if inputs.scenario == "search":
        ads = candidates_as_products(inputs.candidates)
        with ctx.stage("retrieve"):
            vectors = await ctx.embed([for_embedding(ad.text()) for ad in ads] + [query_text or " "])
        index = build_index(ads, vectors[:-1])
        query = np.asarray(vectors[-1], dtype=np.float64)
    else:
        index = await chatbot_index(ctx, await ad_database(ctx))
        with ctx.stage("retrieve"):
            (vector,) = await ctx.embed([query_text or " "])
        query = np.asarray(vector, dtype=np.float64)
    return [index.ads[i] for i in index.top(query, top_t)]


async def inject(ctx: Any, text: str, candidates: list[Ad], score: str) -> tuple[str, Ad | None, dict[str, Any]]:
    """Place the best candidate at the position of least flow disturbance."""
    import numpy as np

    sentences = split_sentences(text)
    with ctx.stage("inject"):
        vectors = await ctx.embed(
            [for_embedding(s) or " " for s in sentences] + [for_embedding(c.text()) for c in candidates]
        )
    matrix = np.asarray(vectors, dtype=np.float64)
    chosen, after = choose_injection(matrix[: len(sentences)], matrix[len(sentences) :], score)  # type: ignore[arg-type]
    ad = candidates[chosen]
    placement = {"ad": ad, "after_sentence": after if sentences else None, "sentences": len(sentences)}
    return insert_after(text, sentences, after, ad_text(ad)), ad, placement


async def rewrite(ctx: Any, text: str, ads: list[str]) -> str:
    """Smooth the text around the ad(s), marked for the rewriter; the markers must not survive."""
    marked = text
    for ad in ads:
        marked = marked.replace(ad, f"{REWRITE_START}{ad}{REWRITE_END}", 1)
    prompt = ctx.services.prompts.render("gem/rewrite.j2", {"text": marked})
    with ctx.stage("rewrite"):
        reply = await ctx.chat(list(prompt.messages), **call_settings(ctx, temperature=0))
    text = reply_text(reply, "the rewrite").replace(REWRITE_START, "").replace(REWRITE_END, "")
    if not text.strip():
        raise_system_failure("the rewrite holds nothing but the ad markers")
    return text


def raise_system_failure(reason: str, answer: str | None = None) -> NoReturn:
    """A failure of the system under test: the item scores 0 in every table and keeps `reason` (and the
    text it did give, as the item's answer)."""
    from harness.errors import SystemFailure

    raise SystemFailure(reason, answer=answer or None)


CONFIGURATIONS: dict[str, AdLLM] = {
    "gi-r": AdLLM(retrieve_by="response", rewrite=False),
    "gir-r": AdLLM(retrieve_by="response", rewrite=True),
    "gir-p": AdLLM(retrieve_by="prompt", rewrite=True),
}
