"""A whole GEM-Bench solution written as a function, plugged in with --solution:

    pytest evals/gem/sample --solution adchat,examples.gem_solution:keyword_match

It becomes the variant `keyword-match`, scored with the same quantitative, judged and cost metrics and
shown beside the built-in solutions in the Table 3 and Table 6 layouts. It receives what it names of
harness.benchmarks.gem.solutions.SolutionRequest: here the query, the ads on offer (the whole database for
a chat query, the query's candidates for a keyword query) and `model`, a handle on --model whose calls are
cached, recorded and replayable.
"""

from __future__ import annotations

import re
from typing import Any


def _words(text: str) -> set[str]:
    return {w for w in re.findall(r"[a-z0-9]+", text.lower()) if len(w) > 3}


def keyword_match(query: str, ads: list[dict[str, str]], model: Any) -> dict[str, Any]:
    """Answer the query, then append the ad that shares the most words with it (none if nothing matches)."""
    answer = model.complete_sync(query, system="Answer helpfully and concisely.", temperature=0, max_tokens=200)
    wanted = _words(query) | _words(answer)
    best = max(ads, key=lambda ad: len(wanted & _words(f"{ad['name']} {ad['desc']}")), default=None)
    if best is None or not wanted & _words(f"{best['name']} {best['desc']}"):
        return {"answer": answer, "product": None}
    mention = f"[{best['name']}]({best['url']})" if best.get("url") else best["name"]
    return {"answer": f"{answer.rstrip()} For this, {mention} may help: {best['desc'].rstrip('.')}.", "product": best}
