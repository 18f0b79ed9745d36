"""The capability index over the run history: which cells go into the fit, the fit, and its table.

An agent version is `agent@version` (or the agent alone when no version was given); a task is
`task@v<version>` with its variant, so a task that changed is a new item. Items that errored carry no
score and are left out (a missing cell, not a zero). Repeats pool their trials.
"""

from __future__ import annotations

import datetime as dt
import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from harness.analysis.irt import (
    Anchors,
    Fit,
    IrtError,
    Observations,
    bootstrap,
    check_connected,
    choose_model,
    difficulty_prior,
    fit,
    interval,
    standardise,
)


def agent_key(row: dict[str, str]) -> str:
    return f"{row['agent']}@{row['version']}" if row.get("version") else row["agent"]


def task_key(row: dict[str, str]) -> str:
    key = f"{row['task']}@v{row.get('task_version') or '1'}"
    return f"{key}[{row['variant']}]" if row.get("variant") else key


def select(
    rows: list[dict[str, str]],
    *,
    suites: list[str] | None = None,
    periods: list[str] | None = None,
    kinds: list[str] | None = None,
    include_incomplete: bool = False,
) -> list[dict[str, str]]:
    """The scored rows of the chosen suites, periods and kinds; rows of an interrupted run (marked
    `incomplete`) only when asked: a part of a run is not a measure of the system."""
    return [
        r
        for r in rows
        if r.get("k") not in (None, "")
        and (include_incomplete or not r.get("incomplete"))
        and (not suites or r.get("suite") in suites)
        and (not periods or r.get("period") in periods)
        and (not kinds or r.get("kind") in kinds)
    ]


def observations(rows: list[dict[str, str]], pseudo_count: float | None = None) -> Observations:
    """Cells from history rows; `pseudo_count` re-weighs score rows (rows without a level)."""
    cells = []
    for row in rows:
        k, n = float(row["k"]), float(row["n"])
        if pseudo_count is not None and not row.get("level"):
            k, n = k / n * pseudo_count, pseudo_count
        cells.append((agent_key(row), task_key(row), k, n))
    if not cells:
        raise IrtError("no scored results in the history for this selection (run a suite first, or import results)")
    return Observations.build(cells)


def difficulty_priors(rows: list[dict[str, str]]) -> dict[str, float]:
    """Each calibrated task's prior difficulty, from the blind-solve score its rows carry (the task's
    metadata.calibration, docs/xbench.md#calibration): a task the best agents rarely solve starts hard."""
    return {task_key(r): difficulty_prior(float(r["calibrated_score"])) for r in rows if r.get("calibrated_score")}


@dataclass
class IndexResult:
    fit: Fit
    rows: list[dict[str, Any]]
    tasks: list[dict[str, Any]]
    notes: list[str] = field(default_factory=list)
    interval_method: str = "fisher"


def load_anchors(path: Path) -> tuple[Anchors, str | None]:
    """Anchors saved by `harness index --freeze` (or written by hand): agents' theta, tasks' a and b."""
    try:
        document = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError) as exc:
        raise IrtError(f"{path}: cannot read the anchors file ({exc})") from exc
    try:
        theta = {str(k): float(v) for k, v in (document.get("agents") or {}).items()}
        tasks = {str(k): (float(v["a"]), float(v["b"])) for k, v in (document.get("tasks") or {}).items()}
    except (AttributeError, KeyError, TypeError, ValueError) as exc:
        raise IrtError(f"{path}: expected {{agents: {{name: theta}}, tasks: {{name: {{a, b}}}}}} ({exc})") from exc
    model = document.get("model")
    if model not in (None, "1pl", "2pl"):
        raise IrtError(f'{path}: \'model\' must be "1pl" or "2pl", got {model!r}')
    return Anchors(theta=theta, tasks=tasks), model


def freeze(result: IndexResult, path: Path) -> Path:
    """Save the fit's parameters as anchors: a later fit holds them, so published values do not move."""
    document = {
        "created": dt.date.today().isoformat(),
        "model": result.fit.model,
        "agents": {name: round(float(t), 6) for name, t in zip(result.fit.agents, result.fit.theta, strict=True)},
        "tasks": {
            name: {"a": round(float(a), 6), "b": round(float(b), 6)}
            for name, a, b in zip(result.fit.tasks, result.fit.a, result.fit.b, strict=True)
        },
    }
    from harness.atomic_write import write_atomic

    return write_atomic(path, json.dumps(document, indent=1, sort_keys=True) + "\n")


def capability_index(
    rows: list[dict[str, str]],
    *,
    model: str = "auto",
    reference: list[str] | None = None,
    anchors: Anchors | None = None,
    anchors_model: str | None = None,
    bootstrap_resamples: int = 0,
    pseudo_count: float | None = None,
    seed: int = 0,
) -> IndexResult:
    """`anchors_model` is the model the anchors were frozen from: "auto" keeps it, and another model is
    refused, since a 1PL refit of a 2PL freeze would ignore the frozen discriminations."""
    obs = observations(rows, pseudo_count)
    check_connected(obs)
    notes = []
    if anchors and anchors_model:
        if model == "auto":
            model = anchors_model
            notes.append(f"{model.upper()}, the model the anchors were frozen from")
        elif model != anchors_model:
            raise IrtError(
                f"the anchors were frozen from a {anchors_model.upper()} fit; refitting them as "
                f"{model.upper()} would not hold what was published (drop --irt-model, or use {anchors_model})"
            )
    if anchors:
        kept = Anchors(
            theta={k: v for k, v in anchors.theta.items() if k in obs.agents},
            tasks={k: v for k, v in anchors.tasks.items() if k in obs.tasks},
        )
        if not kept:
            raise IrtError("none of the anchors' agents or tasks is in this selection of the history")
        anchors = kept
        notes.append(
            f"scale held by {len(anchors.theta)} anchored agent(s) and {len(anchors.tasks)} anchored task(s): "
            "their published values do not move"
        )
    if model == "auto":
        model, why = choose_model(obs)
        notes.append(why)
    priors = difficulty_priors(rows)
    if priors:
        notes.append(f"{len(priors)} task(s) start from the difficulty their blind solves measured")
    result = fit(obs, model=model, anchors=anchors, b_prior=priors)
    if not result.converged:
        notes.append(f"the optimiser stopped after {result.iterations} iterations without converging")
    if not anchors:
        result, _, _ = standardise(result, reference)
        over = "the reference agents " + ", ".join(reference) if reference else "all agents"
        notes.append(f"scale: mean 0 and sd 1 over {over}")
    method = "fisher"
    if bootstrap_resamples:
        low, high = bootstrap(
            obs, result, resamples=bootstrap_resamples, seed=seed, anchors=anchors, reference=reference, b_prior=priors
        )
        method = f"bootstrap over tasks ({bootstrap_resamples} refits)"
    else:
        low, high = (
            np.array([interval(t, s)[0] for t, s in zip(result.theta, result.se, strict=True)]),
            np.array([interval(t, s)[1] for t, s in zip(result.theta, result.se, strict=True)]),
        )
    by_agent = _agent_facts(rows)
    out = []
    for j, name in enumerate(result.agents):
        facts = by_agent[name]
        held = bool(anchors and name in anchors.theta)
        out.append(
            {
                "agent": facts["agent"],
                "version": facts["version"],
                "date": facts["date"],
                "periods": facts["periods"],
                "theta": round(float(result.theta[j]), 4),
                "se": None if held or np.isnan(result.se[j]) else round(float(result.se[j]), 4),
                "low": None if held or np.isnan(low[j]) else round(float(low[j]), 4),
                "high": None if held or np.isnan(high[j]) else round(float(high[j]), 4),
                "tasks_seen": int(np.sum(obs.agent == j)),
                "anchored": held,
            }
        )
    out.sort(key=lambda r: (r["date"], r["agent"], r["version"]))
    tasks = []
    for i, name in enumerate(result.tasks):
        cells = obs.task == i
        tasks.append(
            {
                "task": name,
                "a": round(float(result.a[i]), 4),
                "b": round(float(result.b[i]), 4),
                "agents_seen": int(np.sum(cells)),
                "mean_score": round(float(100 * obs.k[cells].sum() / obs.n[cells].sum()), 2),
                "anchored": bool(anchors and name in anchors.tasks),
            }
        )
    result.notes = notes
    return IndexResult(result, out, tasks, notes, method)


def _agent_facts(rows: list[dict[str, str]]) -> dict[str, dict[str, Any]]:
    facts: dict[str, dict[str, Any]] = {}
    for row in rows:
        key = agent_key(row)
        entry = facts.setdefault(
            key, {"agent": row["agent"], "version": row.get("version", ""), "date": row["date"], "periods": set()}
        )
        entry["date"] = min(entry["date"], row["date"])
        entry["periods"].add(row.get("period", ""))
    for entry in facts.values():
        entry["periods"] = sorted(p for p in entry["periods"] if p)
    return facts
