"""From the agent's reply to k slots: what it recommended, in its order, and which slots can be judged.

The reply should be a JSON list of {"name", "link"} objects, best first. Keys are read loosely (the paper's
"Blogger Name"/"Blogger Link", "url", "profile", "handle"), and a list of plain links is accepted. The list is
cut to k; a slot whose link is not in the pool, repeats an earlier slot's creator, or has no link, and a slot
the agent left empty, counts as not selected and says why. A reply with no readable JSON list is the
agent's failure (`ReplyError`), not the harness's.
"""

from __future__ import annotations

import re
from dataclasses import asdict, dataclass
from typing import Any

from harness.benchmarks.marketing.links import CreatorIndex
from harness.json_text import find_json

CANDIDATE = "candidate"  # found in the pool: a judge decides
NOT_IN_POOL = "not_in_pool"
DUPLICATE = "duplicate"
NO_LINK = "no_link"
EMPTY = "empty"


class ReplyError(ValueError):
    """The agent's reply holds no list of recommendations."""


@dataclass(frozen=True)
class Recommendation:
    name: str
    link: str


@dataclass
class Slot:
    rank: int
    status: str
    name: str = ""
    link: str = ""
    url: str | None = None  # the creator's page in the pool
    reason: str = ""

    def to_json(self) -> dict[str, Any]:
        return asdict(self)


def _compact(key: str) -> str:
    return re.sub(r"[^a-z]", "", key.lower())


LINK_WORDS = ("link", "url", "profile", "channel", "page")
NAME_WORDS = ("name", "handle", "blogger", "influencer", "creator")


def _pick(entry: dict[str, Any], words: tuple[str, ...], avoid: tuple[str, ...] = ()) -> str:
    """The value of the first key holding one of `words` (tried in order), skipping keys with `avoid`."""
    for word in words:
        for key, value in entry.items():
            compact = _compact(str(key))
            if isinstance(value, str | int) and word in compact and not any(a in compact for a in avoid):
                return str(value).strip()
    return ""


def _looks_like_recommendations(value: Any) -> bool:
    return isinstance(value, list) and all(isinstance(v, dict | str) for v in value)


def read_reply(text: str) -> list[Recommendation]:
    """The recommendations in the agent's reply, in its order; ReplyError if there is no list."""
    try:
        found = find_json(text, list, accept=_looks_like_recommendations)
    except ValueError as exc:
        try:  # a wrapper object: {"influencers": [...]}
            wrapper = find_json(text, dict)
        except ValueError:
            raise ReplyError(str(exc)) from None
        lists = [v for v in wrapper.values() if _looks_like_recommendations(v)]
        if not lists:
            raise ReplyError(str(exc)) from None
        found = lists[0]
    out = []
    for entry in found:
        if isinstance(entry, str):
            out.append(Recommendation(name="", link=entry.strip()))
            continue
        link = _pick(entry, LINK_WORDS)
        name = _pick(entry, NAME_WORDS, avoid=LINK_WORDS)
        if name == link:
            name = ""
        out.append(Recommendation(name=name, link=link))
    return out


def fill_slots(
    recommendations: list[Recommendation], k: int, index: CreatorIndex, platforms: tuple[str, ...]
) -> tuple[list[Slot], list[Recommendation]]:
    """(the k slots, what came after the k-th): each slot's creator in the pool, or why it has none."""
    slots: list[Slot] = []
    seen: dict[str, int] = {}
    for rank, recommendation in enumerate(recommendations[:k], 1):
        slot = Slot(rank=rank, status=CANDIDATE, name=recommendation.name, link=recommendation.link)
        if not recommendation.link:
            slot.status, slot.reason = NO_LINK, "no link given (the link is how a recommendation is found)"
        else:
            page, how = index.resolve(recommendation.link, platforms)
            if page is None:
                slot.status, slot.reason = NOT_IN_POOL, how
            elif page.url in seen:
                slot.status, slot.url = DUPLICATE, page.url
                slot.reason = f"the same creator as #{seen[page.url]}"
            else:
                seen[page.url] = rank
                slot.url, slot.reason = page.url, how
        slots.append(slot)
    for rank in range(len(slots) + 1, k + 1):
        slots.append(Slot(rank=rank, status=EMPTY, reason=f"the reply recommended {len(recommendations)} of {k}"))
    return slots, recommendations[k:]
