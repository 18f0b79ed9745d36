"""How much of xbench Recruitment and Marketing a keyword search with no model solves: the numbers to keep low.

    python scripts/keyword_floor.py [--per-task] [--strategy top1_words] [--no-marketing]

Every keyword strategy (harness.baselines.keyword.STRATEGIES: the top 1, 3 or 5 candidates, searched with
the task's own words or its key terms) runs over every Recruitment task and is scored by the reference
judge, as `--judge-model harness/reference` scores it (harness.baselines.floor); the table gives the mean
score per type over all 50 tasks (open-web tasks score 0: the keyword agent has no tools there) and over the
world tasks alone. Then, per world task, where the truth ranks for a plain keyword search:
- people-to-info: the target's rank among person pages for the name and role, and for name, role and
  known profile together (1 means the search alone picks the right person);
- info-to-people: the targets' ranks among person pages for the question's words;
- company mapping: the share of expected names on the top five pages for the job description.
Marketing: every strategy's re-selection rate under the reference judge (100 x the client's picks among the k
recommendations / k; the strategies differ only in the query, the brief's words or its key terms, since a brief
always asks for k creators), over all briefs, the calibrated ones (`tier: calibrated`) and per industry; with
--per-task, one line per brief. Issue 27 keeps every strategy at 15 or below.
Use it while writing tasks and worlds: a task a keyword search solves does not separate agents.
"""

from __future__ import annotations

import argparse
import re
import statistics
import sys
from collections import Counter
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from harness.baselines import floor, keyword  # noqa: E402
from harness.task import load_task_file  # noqa: E402
from harness.world import World, normalize_url  # noqa: E402


def recruitment_tasks(folder: Path = ROOT / "evals" / "recruitment") -> list[Any]:
    tasks = []
    for path in sorted(folder.glob("*.yaml")):
        loaded = load_task_file(path, str(path.relative_to(ROOT)))
        for problem in loaded.problems:
            print(f"problem: {problem}", file=sys.stderr)
        tasks += [task for task, _ in loaded.tasks]
    return tasks


def marketing_tasks(folder: Path = ROOT / "evals" / "marketing") -> list[Any]:
    return recruitment_tasks(folder)


def marketing_table(worlds: floor.Worlds, per_task: bool, strategy: str) -> None:
    tasks = marketing_tasks()
    groups = {"all": tasks, "calibrated": [t for t in tasks if t.metadata.tier == "calibrated"]}
    groups |= {i: [t for t in tasks if t.inputs.industry == i] for i in ("App", "Game", "E-commerce")}
    print(f"\nMarketing re-selection (reference judge), {len(tasks)} briefs")
    print(f"{'strategy':12} " + " ".join(f"{f'{g} ({len(ts)})':>16}" for g, ts in groups.items()))
    scores: dict[str, dict[str, float]] = {}
    for name, chosen in keyword.STRATEGIES.items():
        scores[name] = {t.id: floor.reselection(t, chosen, worlds) for t in tasks}
        means = [statistics.fmean(scores[name][t.id] for t in ts) if ts else 0.0 for ts in groups.values()]
        print(f"{name:12} " + " ".join(f"{m:16.1f}" for m in means))
    if per_task:
        for task in tasks:
            tier = task.metadata.tier or "-"
            print(f"{task.inputs.industry:10} {task.id:46} {tier:10} k {task.inputs.k:2}  "
                  f"{scores[strategy][task.id]:5.1f}")  # fmt: skip


def target_of(task: Any) -> str | None:
    """A people-to-info task's own profile: the person page its evidence cites most."""
    urls = Counter(e.url for q in task.ground_truth.questions for e in q.evidence if "/in/" in e.url)
    return normalize_url(urls.most_common(1)[0][0]) if urls else None


def rank(world: World, query: str, wanted: set[str]) -> list[int | None]:
    people = [normalize_url(h["url"]) for h in world.search(keyword._queries(query, 80), 60) if "/in/" in h["url"]]
    return [people.index(url) + 1 if url in people else None for url in sorted(wanted)]


def diagnose(task: Any, world: World) -> str:
    inputs, truth = task.inputs, task.ground_truth
    if task.kind == "people_to_info":
        target = target_of(task)
        if target is None:
            return "no profile cited"
        short = rank(world, f"{inputs.person} {inputs.background}", {target})[0]
        full = rank(world, f"{inputs.person} {inputs.background} {inputs.reference}", {target})[0]
        return f"target's rank: name+role {short}, with the known profile {full}"
    if task.kind == "info_to_people":
        targets = {normalize_url(p.url) for p in truth.people if p.url}
        return f"targets' ranks for the question: {rank(world, inputs.question, targets)}"
    expected = [n for names in truth.expected.values() for n in names]
    pages = world.search(keyword._queries(inputs.job_description, 80), 5)
    text = " ".join(f"{h['title']} {(world.get(h['url']) or h).text if world.get(h['url']) else ''}" for h in pages)
    words = [[w for w in re.findall(r"\w+", n.lower()) if len(w) > 2] for n in expected]
    share = statistics.fmean(all(w in text.lower() for w in ws) for ws in words)
    return f"expected names on the top five pages: {share:.0%}"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--per-task", action="store_true", help="one line per world task")
    parser.add_argument("--strategy", default="top1_words", choices=sorted(keyword.STRATEGIES))
    parser.add_argument("--no-marketing", action="store_true", help="Recruitment only")
    args = parser.parse_args(argv)
    tasks = recruitment_tasks()
    worlds = floor.Worlds(ROOT / "fixtures" / "worlds")
    print(f"{'strategy':12} {'':6} " + " ".join(f"{k:>16}" for k in floor.RECRUITMENT))
    for name, strategy in keyword.STRATEGIES.items():
        rows = floor.measure(tasks, strategy, worlds)
        for scope, world_only in (("all", False), ("worlds", True)):
            means = floor.means(rows, world_only)
            print(f"{name:12} {scope:6} " + " ".join(f"{means.get(k, 0.0):16.1f}" for k in floor.RECRUITMENT))
    if args.per_task:
        rows = {r.task: r for r in floor.measure(tasks, keyword.STRATEGIES[args.strategy], worlds)}
        for task in tasks:
            if task.inputs.environment == "open-web":
                continue
            world, _ = worlds.get(task.inputs.environment)
            row = rows[task.id]
            print(f"{task.kind:16} {task.id:46} level {row.level}  {diagnose(task, world)}")
    if not args.no_marketing:
        marketing_table(worlds, args.per_task, args.strategy)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
