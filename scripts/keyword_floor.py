"""How much of the xbench task set a keyword search with no model solves: the numbers to keep low.

    python scripts/keyword_floor.py [evals/recruitment] [evals/marketing] [--per-task]

For every task in an offline world, it runs the keyword floor (harness.baselines.keyword) with the world's
own search, then measures, from the ground truth and without any judge:
- people-to-info: the share of verification questions whose evidence quote is in the keyword answer (the
  top page), and in the top five pages;
- info-to-people: whether the keyword answer names a target (and whether the top five pages hold one);
- company mapping: the share of expected names in the keyword answer, and in the top five pages;
- influencer search: the share of the keyword picks that are client picks.
Use it while writing tasks and worlds: a task it solves does not separate agents.
"""

from __future__ import annotations

import argparse
import statistics
import sys
from collections import defaultdict
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from harness.baselines import keyword  # noqa: E402
from harness.task import load_task_file  # noqa: E402
from harness.world import World, load_world, normalize_url  # noqa: E402

_worlds: dict[str, World] = {}


def world(name: str) -> World:
    if name not in _worlds:
        _worlds[name] = load_world(ROOT / "fixtures" / "worlds" / name)
    return _worlds[name]


def _tools(w: World) -> tuple[Any, Any]:
    def search(query: str, k: int) -> list[dict[str, Any]]:
        return w.search(query, k)

    def open_text(url: str) -> str:
        page = w.get(url)
        return page.text if page else ""

    return search, open_text


def _top_text(w: World, query: str, n: int = 5) -> str:
    return "\n".join((w.get(h["url"]).text if w.get(h["url"]) else "") + h["title"] for h in w.search(query, n))


def measure(task: Any) -> dict[str, Any] | None:
    inputs = task.inputs
    if getattr(inputs, "environment", "open-web") == "open-web":
        return None
    w = world(inputs.environment)
    search, open_text = _tools(w)
    data = inputs.model_dump(mode="json")
    answer = keyword.answer(task.kind, data, search, open_text)
    truth = task.ground_truth
    if task.kind == "people_to_info":
        query = keyword._queries(f"{inputs.person} {inputs.background} {inputs.reference}")
        top5 = _top_text(w, query)
        quotes = [[e.quote for e in q.evidence] for q in truth.questions]
        in_answer = [any(x in answer for x in qs) for qs in quotes if qs]
        in_top5 = [any(x in top5 for x in qs) for qs in quotes if qs]
        return {"answer": statistics.fmean(in_answer) if in_answer else 0.0,
                "top5": statistics.fmean(in_top5) if in_top5 else 0.0}  # fmt: skip
    if task.kind == "info_to_people":
        targets = {normalize_url(p.url) for p in truth.people if p.url}
        hits = [normalize_url(h["url"]) for h in w.search(keyword._queries(inputs.question), 5)]
        named = any(normalize_url(t) in normalize_url(answer.split("(")[-1].rstrip(")")) for t in targets)
        return {"answer": float(named), "top5": float(any(h in targets for h in hits))}
    if task.kind == "company_mapping":
        expected = [n for names in truth.expected.values() for n in names]
        top5 = _top_text(w, keyword._queries(inputs.job_description, 80)).lower()
        got = answer.lower()
        return {"answer": statistics.fmean(n.lower() in got for n in expected),
                "top5": statistics.fmean(n.lower() in top5 for n in expected)}  # fmt: skip
    if task.kind == "influencer_search":
        import json

        picks = {normalize_url(u) for u in _selected(truth)}
        chosen = [normalize_url(r["link"]) for r in json.loads(answer)]
        return {"answer": sum(c in picks for c in chosen) / inputs.k, "top5": None}
    return None


def _selected(truth: Any) -> list[str]:
    return [s if isinstance(s, str) else s.url for s in truth.selected]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("paths", nargs="*", default=["evals/recruitment", "evals/marketing"])
    parser.add_argument("--per-task", action="store_true")
    args = parser.parse_args(argv)
    by_kind: dict[str, list[dict[str, Any]]] = defaultdict(list)
    for folder in args.paths:
        for path in sorted((ROOT / folder).rglob("*.yaml")):
            loaded = load_task_file(path, str(path.relative_to(ROOT)))
            for problem in loaded.problems:
                print(f"problem: {problem}", file=sys.stderr)
            for task, _ in loaded.tasks:
                row = measure(task)
                if row is None:
                    continue
                by_kind[task.kind].append(row)
                if args.per_task:
                    top5 = "" if row["top5"] is None else f"  top-5 pages {row['top5']:.0%}"
                    print(f"{task.kind:18} {task.id:55} keyword answer {row['answer']:.0%}{top5}")
    for kind, rows in sorted(by_kind.items()):
        answer = statistics.fmean(r["answer"] for r in rows)
        top5 = [r["top5"] for r in rows if r["top5"] is not None]
        extra = f", top-5 pages {statistics.fmean(top5):.0%}" if top5 else ""
        print(f"{kind}: {len(rows)} world tasks; keyword answer {answer:.0%}{extra}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
