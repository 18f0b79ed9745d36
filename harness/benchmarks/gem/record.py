"""GEM-Bench's record of a run (results.json `run.benchmarks.gem`, and the report header): which rules ran,
the data's hash and status, and how many items each rule affected.

    rules                  judge rule (code | paper), ad flow (exp | min), reproduction (fixed | authors)
    data[]                 per suite and data set: the data's SHA-256 and status (official, modified, own, or
                           unrecorded for task files `harness import gem-bench` did not write), and the
                           tasks edited since the import (`edited`)
    reproduce              items where the fixed and the authors' behaviour differ (per rule, docs/gem-bench.md)
    judge_rules            verdicts, and those where the paper's rule and the code's rule give other scores
    ad_flow                AF under the chosen and the other variant, over the same items, and how many of
                           them score 0.0 under both
    header                 the lines the report shows
    compare                what `harness compare` and the gate check between two runs
"""

from __future__ import annotations

import hashlib
import statistics
from collections import Counter
from typing import Any

from harness.benchmarks.gem.adchat import REPRODUCE_RULES

JUDGE_RULE_TEXT = {
    "code": "the category the judge picks, as the authors' code scores",
    "paper": "the paper's rule, from the two dimension ratings",
}
AD_FLOW_TEXT = {"exp": "exp(-|prev - next|)", "min": "min(prev, next)"}
REPRODUCE_TEXT = {"fixed": "this project's fixes", "authors": "the authors' behaviour where it was fixed"}


def _solution_details(result: dict[str, Any]) -> dict[str, Any]:
    details = result.get("details") or {}
    solution = details.get("solution")
    return solution if isinstance(solution, dict) else {}


def _data(results: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Per suite and data set: the data's hash and status, as the items' labels say (provenance.verify_task).
    Tasks edited since the import make their data set modified, with a hash over the recorded one and the
    edited tasks' content, and are listed (`edited`)."""
    groups: dict[tuple[str, str], dict[str, Any]] = {}
    for result in results:
        labels = result.get("labels") or {}
        key = (str(result.get("suite") or ""), str(labels.get("dataset") or ""))
        group = groups.setdefault(key, {"hashes": [], "statuses": set(), "edited": {}})
        if labels.get("data_sha256") not in group["hashes"]:
            group["hashes"].append(labels.get("data_sha256"))
        group["statuses"].add(labels.get("data_status") or "unrecorded")
        if labels.get("data_edited"):
            group["edited"][str(result.get("task_id"))] = str(labels["data_edited"])
    found = []
    for key in sorted(groups):
        group = groups[key]
        statuses = group["statuses"]
        if len(group["hashes"]) > 1 or len(statuses - {"modified"}) > 1:
            status = "mixed"  # two task files of one suite and data set from different data
        else:
            status = "modified" if "modified" in statuses else next(iter(statuses))
        entry: dict[str, Any] = {"suite": key[0], "dataset": key[1], "sha256": group["hashes"][0], "status": status}
        if group["edited"]:
            edits = "".join(f"{task} {digest}\n" for task, digest in sorted(group["edited"].items()))
            entry["sha256"] = hashlib.sha256(f"{entry['sha256']}\n{edits}".encode()).hexdigest()
            entry["edited"] = sorted(group["edited"])
        found.append(entry)
    return found


def _data_line(data: list[dict[str, Any]]) -> str:
    groups: dict[tuple[str, str | None, tuple[str, ...]], list[str]] = {}
    for entry in data:
        groups.setdefault((entry["status"], entry["sha256"], tuple(entry.get("edited") or ())), []).append(
            entry["dataset"]
        )
    parts = []
    for (status, digest, edited), datasets in groups.items():
        short = f"sha256 {digest[:16]}..." if digest else "no hash"
        names = ", ".join(datasets)
        if edited:
            shown = ", ".join(edited[:5]) + (f" and {len(edited) - 5} more" if len(edited) > 5 else "")
            parts.append(
                f"{names}: MODIFIED, {len(edited)} task(s) edited since `harness import gem-bench` wrote them "
                f"({shown}; {short}); not the data the import verified, not comparable with the paper"
            )
        elif status == "official":
            parts.append(f"{names}: the official GEM-Bench release, verified by content ({short})")
        elif status == "modified":
            parts.append(f"{names}: a MODIFIED copy of the GEM-Bench release ({short}); not comparable with the paper")
        elif status == "own":
            parts.append(f"{names}: data of your own in the release's schemas ({short})")
        elif status == "mixed":
            parts.append(f"{names}: task files from different data in one suite")
        else:
            parts.append(
                f"{names}: data not verified (task files that `harness import gem-bench` did not write, or wrote "
                "before it recorded each task's hash: import the data again)"
            )
    return "GEM-Bench data: " + "; ".join(parts) + "."


def run_record(results: list[dict[str, Any]], options: dict[str, Any]) -> dict[str, Any]:
    chosen = options.get("benchmark_options") or {}
    judge_rule = str(chosen.get("gem_judge_rule") or "code")
    ad_flow = str(chosen.get("gem_ad_flow") or "exp")
    reproduce = str(chosen.get("gem_reproduce") or "fixed")
    data = _data(results)

    by_rule: Counter[str] = Counter()
    affected = 0
    for result in results:
        differs = (_solution_details(result).get("reproduce") or {}).get("differs") or []
        by_rule.update(differs)
        affected += bool(differs)

    rules = [((r.get("details") or {}).get("rules") or {}) for r in results]
    verdicts = sum(int(r.get("judge_verdicts") or 0) for r in rules)
    disagreements = sum(int(r.get("judge_rule_disagreements") or 0) for r in rules)
    disagreeing_items = sum(1 for r in rules if r.get("judge_rule_disagreements"))

    pairs = [
        (float(result["metrics"]["ad_flow"]), float(r["ad_flow_other"]))
        for result, r in zip(results, rules, strict=True)
        if r.get("ad_flow_other") is not None and (result.get("metrics") or {}).get("ad_flow") is not None
    ]
    other = "min" if ad_flow == "exp" else "exp"
    ad_flow_record = {
        "variant": ad_flow,
        "items": len(pairs),
        "mean": statistics.fmean(p[0] for p in pairs) if pairs else None,
        "other_variant": other,
        "other_mean": statistics.fmean(p[1] for p in pairs) if pairs else None,
        # items with an ad sentence but none that qualifies (first or last, or a neighbour similarity <= 0):
        # 0.0 under both variants, so their share says how far the mean sits below its qualifying items'
        "zero_items": sum(1 for p in pairs if p[0] == 0.0),
    }

    header = [
        f"GEM-Bench rules: judge rule {judge_rule} ({JUDGE_RULE_TEXT.get(judge_rule, '?')}); ad flow {ad_flow} "
        f"({AD_FLOW_TEXT.get(ad_flow, '?')}); reproduction {reproduce} ({REPRODUCE_TEXT.get(reproduce, '?')}).",
        _data_line(data),
    ]
    embedder = str(options.get("embedding_model") or "")
    if embedder:
        dimensions = options.get("embedding_dimensions")
        shown = f"{embedder} at {dimensions} dimensions" if dimensions else embedder
        same = "text-embedding-3-small" in embedder and dimensions == 512
        header.append(
            f"GEM-Bench RF, RC, AF, AC embedded with {shown}"
            + (
                ", as the paper's."
                if same
                else ": the paper's need openai/text-embedding-3-small at 512 dimensions (the local MiniLM gives "
                "values 2 to 9 points from the authors' logged run), so these four columns are not the paper's."
            )
        )
    if by_rule or reproduce == "authors":
        counts = ", ".join(f"{rule} {by_rule[rule]}" for rule in REPRODUCE_RULES if by_rule[rule]) or "none"
        verb = (
            "ran the authors' behaviour"
            if reproduce == "authors"
            else "would run otherwise under --gem-reproduce authors"
        )
        header.append(f"GEM-Bench reproduction: {affected} item(s) {verb} ({counts}).")
    if verdicts:
        header.append(
            f"GEM-Bench judge rules: the paper's and the code's rule score {disagreements} of {verdicts} verdicts "
            f"differently ({disagreeing_items} item(s)); the cells hold the {judge_rule} rule's."
        )
    if pairs:
        header.append(
            f"GEM-Bench ad flow: AF {ad_flow_record['mean']:.2f} ({ad_flow}); {ad_flow_record['other_mean']:.2f} under "
            f"{other} over the same {len(pairs)} item(s), {ad_flow_record['zero_items']} of them 0.0 under both (an "
            "ad sentence first or last, or beside a sentence of similarity <= 0)."
        )
    return {
        "rules": {"judge_rule": judge_rule, "ad_flow": ad_flow, "reproduce": reproduce},
        "data": data,
        "reproduce": {"mode": reproduce, "items": affected, "by_rule": dict(sorted(by_rule.items()))},
        "judge_rules": {"verdicts": verdicts, "differ": disagreements, "items": disagreeing_items},
        "ad_flow": ad_flow_record,
        "header": header,
        "compare": {
            "judge rule": judge_rule,
            "ad flow": ad_flow,
            "reproduction": reproduce,
            "data": {f"{d['suite']}/{d['dataset']}": f"{d['status']} {d['sha256'] or '-'}" for d in data},
        },
    }
