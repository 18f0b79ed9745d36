"""What answered: per role (the system under test, the judges, the embeddings), the models the providers
say served the calls made under each requested name, and their system fingerprints.

A provider can serve another snapshot under the name asked for (OneMillion-Bench found its reproduction
about 5 % low because `gemini-3-pro` was answered by `gemini-3.1-pro`). The run records what answered, so a
comparison can tell a judge that changed from a system that regressed (`served_changes`). Pure.
"""

from __future__ import annotations

import re
from collections import defaultdict
from typing import Any

ROLES = ("system", "judge", "embeddings")
_UNSAFE = re.compile(r"[^\w.:/@+\-]")


def plain_name(name: str) -> str:
    """A name from a provider's reply as the report keeps it: model-name characters only (others become
    `?`), at most 120 of them, so that no reply can write markup into a report."""
    return _UNSAFE.sub("?", name.strip())[:120]


def role_of(call: dict[str, Any]) -> str:
    """The role a call record played: the system under test's own calls, a judge's, or an embedding's."""
    if call.get("system") or call.get("namespace") == "sut":
        return "system"
    return "embeddings" if call.get("namespace") == "embed" else "judge"


def served_models(results: list[dict[str, Any]]) -> dict[str, dict[str, dict[str, Any]]]:
    """{role: {requested model: {served: [...], fingerprints: [...], calls, unknown}}}. `unknown` counts the
    calls whose reply did not say (failed calls, cache entries from before served models were kept); a
    served name that lists several models means several answered under one requested name in this run."""
    found: dict[str, dict[str, dict[str, Any]]] = defaultdict(dict)
    for result in results:
        calls = result.get("calls") if isinstance(result, dict) else None
        for call in calls if isinstance(calls, list) else []:
            if not isinstance(call, dict) or not isinstance(call.get("model"), str):
                continue
            row = found[role_of(call)].setdefault(
                plain_name(call["model"]), {"served": set(), "fingerprints": set(), "calls": 0, "unknown": 0}
            )
            row["calls"] += 1
            served = call.get("served_model")
            if isinstance(served, str) and served:
                row["served"].update(plain_name(name) for name in served.split(",") if name.strip())
            elif call.get("error") is None:
                row["unknown"] += 1
            fingerprint = call.get("system_fingerprint")
            if isinstance(fingerprint, str) and fingerprint:
                row["fingerprints"].add(plain_name(fingerprint))
    return {
        role: {
            model: {**row, "served": sorted(row["served"]), "fingerprints": sorted(row["fingerprints"])}
            for model, row in sorted(found[role].items())
        }
        for role in ROLES
        if role in found
    }


def served_changes(
    before: dict[str, dict[str, dict[str, Any]]], after: dict[str, dict[str, dict[str, Any]]]
) -> list[dict[str, Any]]:
    """The roles whose served models differ between two runs: [{role, model, before, after, fingerprints}].

    - A judge or the embeddings: any change of what served the evaluation, including another requested
      model, changes the ruler the scores are read with.
    - The system under test: a change under the same requested name (the provider swapped it); asking for
      another model is the change the comparison measures, not a reason to refuse it.
    A model whose served names one side does not know (old runs, failed calls only) is not judged changed.
    A change of system fingerprint alone is listed (`fingerprints`) but only changes the verdict when the
    served names changed too: providers rotate fingerprints with every deployment."""
    changes: list[dict[str, Any]] = []
    for role in ROLES:
        old, new = before.get(role) or {}, after.get(role) or {}
        if role != "system" and set(old) != set(new) and old and new:
            changes.append(
                {"role": role, "model": ", ".join(sorted(set(old) ^ set(new))), "before": sorted(old),
                 "after": sorted(new), "requested": True}
            )  # fmt: skip
        for model in sorted(set(old) & set(new)):
            was, now = old[model].get("served") or [], new[model].get("served") or []
            if was and now and was != now:
                changes.append({"role": role, "model": model, "before": was, "after": now, "requested": False})
    return changes


def change_line(change: dict[str, Any]) -> str:
    """One change, said plainly: `judge openai/x: served gpt-a then, gpt-b now`."""
    what = "requested" if change.get("requested") else f"{change['model']}: served"
    return f"{change['role']} {what} {', '.join(change['before'])} then, {', '.join(change['after'])} now"
