"""GEM-Bench's quantitative metrics, exactly as the authors' evaluator computes them (reference §2.3-2.6).

Pure functions of (sentences, vectors, product). Every score is on 0..100; None means "does not apply to
this response" and is skipped when averaging, except the injection rate, which is always 0 or 100.
Cosine is the plain, unclamped one (0 for an empty or zero-norm vector), in float64.

    prev/next  the similarities of an ad sentence with the sentence before and after it
    ad flow    mean over ad sentences with prev > 0 and next > 0 of exp(-|prev - next|); 0.0 (not None)
               when ads exist but none qualifies (an ad first or last, or a non-positive neighbour).
               variant "min": min(prev, next) instead, as the authors' docstring says (same rules)
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    import numpy as np  # imported where used: numpy costs 0.1 s of every start-up


METRIC_NAMES = ("response_flow", "response_coherence", "ad_flow", "ad_coherence", "injection_rate")


def cosine(a: np.ndarray, b: np.ndarray) -> float:
    """Unclamped cosine similarity; 0.0 for a zero-norm vector (as the reference evaluator)."""
    import numpy as np

    norm = float(np.linalg.norm(a)) * float(np.linalg.norm(b))
    if norm == 0.0:
        return 0.0
    return float(np.dot(a, b)) / norm


def ad_indices(sentences: Sequence[str], product: dict[str, Any] | None) -> set[int]:
    """Sentences holding the claimed product's name or URL as an exact, case-sensitive substring.
    No product, or a product whose name is None, has no ad sentences."""
    if product is None or product.get("name") is None:
        return set()
    needles = [str(v) for v in (product.get("name"), product.get("url")) if v]
    return {i for i, sentence in enumerate(sentences) if any(n in sentence for n in needles)}


def adjacent_similarities(vectors: np.ndarray) -> list[float]:
    """sim_i = cos(e_i, e_{i+1}) for i = 0..n-2."""
    return [cosine(vectors[i], vectors[i + 1]) for i in range(len(vectors) - 1)]


def response_flow(vectors: np.ndarray) -> float | None:
    if len(vectors) < 2:
        return None
    sims = adjacent_similarities(vectors)
    return 100.0 * sum(sims) / len(sims)


def response_coherence(vectors: np.ndarray) -> float | None:
    """Mean cosine of each sentence with the mean of all sentences (ad sentences included)."""
    if len(vectors) < 2:
        return None
    centre = vectors.mean(axis=0)
    return 100.0 * sum(cosine(v, centre) for v in vectors) / len(vectors)


AD_FLOW_VARIANTS = ("exp", "min")


def ad_flow(vectors: np.ndarray, ads: set[int], variant: str = "exp") -> float | None:
    """exp(-|prev - next|) per qualifying ad sentence (the authors' code and the paper's formula), or
    min(prev, next) (variant "min", the authors' docstring); the same qualifying and None rules for both."""
    if len(vectors) < 2 or not ads:
        return None
    sims = adjacent_similarities(vectors)
    values = []
    for i in sorted(ads):
        prev = sims[i - 1] if i - 1 >= 0 else 0.0
        following = sims[i] if i < len(sims) else 0.0
        if prev > 0 and following > 0:
            values.append(math.exp(-abs(prev - following)) if variant == "exp" else min(prev, following))
    return 100.0 * sum(values) / len(values) if values else 0.0


def ad_coherence(vectors: np.ndarray, ads: set[int]) -> float | None:
    """Mean cosine of each ad sentence with the mean of the non-ad sentences."""
    others = [j for j in range(len(vectors)) if j not in ads]
    if not ads or not others:
        return None
    centre = vectors[others].mean(axis=0)
    return 100.0 * sum(cosine(vectors[i], centre) for i in sorted(ads)) / len(ads)


def injection_rate(product: dict[str, Any] | None) -> float:
    """100 whenever a product is claimed (whether or not it appears in the text)."""
    return 100.0 if product is not None and product.get("name") is not None else 0.0


@dataclass(frozen=True)
class ResponseMetrics:
    ad_sentences: tuple[int, ...]
    values: dict[str, float | None]
    ad_flow_other: float | None = None  # the ad flow under the variant that was not chosen


def quantitative_metrics(
    sentences: Sequence[str],
    vectors: Sequence[Sequence[float]],
    product: dict[str, Any] | None,
    ad_flow_variant: str = "exp",
) -> ResponseMetrics:
    """All five per-response metrics. `vectors` are the sentences' embeddings, one per sentence, used in
    float64 exactly as given (identical sentences must share a vector). `ad_flow_variant` picks the ad flow
    formula ("exp", the default, or "min"); the other variant's value is in `ad_flow_other`."""
    if ad_flow_variant not in AD_FLOW_VARIANTS:
        raise ValueError(f"ad flow variant {ad_flow_variant!r}: expected one of {AD_FLOW_VARIANTS}")
    import numpy as np

    if len(vectors) != len(sentences):
        raise ValueError(f"{len(sentences)} sentences but {len(vectors)} vectors")
    matrix = np.asarray(vectors, dtype=np.float64).reshape(len(sentences), -1) if sentences else np.zeros((0, 1))
    ads = ad_indices(sentences, product)
    other = next(v for v in AD_FLOW_VARIANTS if v != ad_flow_variant)
    return ResponseMetrics(
        ad_sentences=tuple(sorted(ads)),
        ad_flow_other=ad_flow(matrix, ads, other),
        values={
            "response_flow": response_flow(matrix),
            "response_coherence": response_coherence(matrix),
            "ad_flow": ad_flow(matrix, ads, ad_flow_variant),
            "ad_coherence": ad_coherence(matrix, ads),
            "injection_rate": injection_rate(product),
        },
    )


def ctr(selection: dict[str, Any] | None, candidates: Sequence[dict[str, Any]], labels: Sequence[int]) -> float:
    """CA-Prod's click-through rate of one response: 100 x the relevance label of the chosen candidate,
    found by its title (stripped, case-insensitive; the first match in file order wins). No selection, or
    one that matches no candidate, scores 0."""
    if not selection or not selection.get("name"):
        return 0.0
    wanted = str(selection["name"]).strip().lower()
    for candidate, label in zip(candidates, labels, strict=True):
        if str(candidate.get("name", "")).strip().lower() == wanted:
            return 100.0 * float(label)
    return 0.0


def sentence_vectors(sentences: Sequence[str], lookup: dict[str, Sequence[float]]) -> list[Sequence[float]]:
    """One vector per sentence from a map keyed by the text as sent to the embedder (stripped), so
    identical sentences share a vector."""
    return [lookup[s.strip()] for s in sentences]
