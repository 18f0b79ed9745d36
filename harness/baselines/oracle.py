"""The ceiling: an agent that reads the task's ground truth and answers as the expert would.

    pytest evals/recruitment evals/marketing --agent harness.baselines.oracle:run

It finds its task's entry in the project's `evals/` (by suite and id) and writes: the expert's lists under
"Search Results" (company mapping), every standard answer with its evidence (people-to-info), the people
with their profile links (info-to-people), the client's picks, best first (influencer search). Any judge
that does not give it full marks is wrong, or the plumbing between the agent and the judge is: that is
what it is for. It is a Python agent, run in the harness's process; never give it to a system under test.
"""

from __future__ import annotations

import json
from functools import cache
from pathlib import Path
from typing import Any


@cache
def _tasks(root: str) -> dict[tuple[str, str], Any]:
    from harness.task import load_task_file

    found = {}
    for path in sorted(Path(root).glob("evals/**/*.y*ml")):
        for task, _ in load_task_file(path).tasks:
            found[(task.suite, task.id)] = task
    return found


def truth_of(task: dict[str, Any], root: Path | None = None) -> Any:
    """The task's full entry (inputs and ground truth) from the project's task files."""
    entry = _tasks(str((root or Path.cwd()).resolve())).get((task["suite"], task["id"]))
    if entry is None:
        raise LookupError(f"no task {task['suite']}::{task['id']} under {root or Path.cwd()}/evals")
    return entry


def answer_for(entry: Any) -> str:
    """What an expert who knows the answer writes, per kind."""
    truth, kind = entry.ground_truth, entry.kind
    if kind == "company_mapping":
        lines = ["## Search Results"]
        lines += [f"{name}: {', '.join(names)}" for name, names in truth.expected.items()]
        return "\n".join(lines)
    if kind == "people_to_info":
        parts = []
        for question in truth.questions:
            quotes = "; ".join(f'"{e.quote}"' for e in question.evidence)
            parts.append(f"- {question.question} {question.answer} (sources: {quotes})")
        return "\n".join(parts)
    if kind == "info_to_people":
        return "\n".join(f"- {p.name}" + (f" ({p.url})" if p.url else "") for p in truth.people)
    if kind == "influencer_search":
        picks = list(truth.selected)[: entry.inputs.k]
        return json.dumps([{"name": link.rstrip("/").rsplit("/", 1)[-1].lstrip("@"), "link": link} for link in picks])
    if kind == "qa":
        return truth.answer
    raise LookupError(f"the oracle has no answer for kind {kind!r}")


def run(prompt: str, task: dict[str, Any]) -> str:
    """The agent: `--agent harness.baselines.oracle:run`."""
    return answer_for(truth_of(task))
