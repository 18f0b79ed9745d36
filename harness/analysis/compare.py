"""A run against a baseline, as a regression gate should judge it: paired, with intervals, corrected for
looking at several suites, and honest about what the data cannot tell.

- Items pair by (task id, task version, variant); their repeats are averaged first, so a task counts once
  however often it ran. Items added or removed since the baseline, tasks whose version changed, and items
  that errored on either side are listed, never silently dropped.
- Per suite and per metric (the score, and each metric the items carry): the mean paired difference, a
  95 % percentile bootstrap interval (resampling tasks), and a two-sided sign-flip permutation test.
  The p-values of the suites' scores are adjusted with Holm's method (and so are each metric's).
- Each comparison is `regressed` or `improved` (adjusted p < 0.05), `unchanged` (not significant and the
  interval lies within +-tolerance) or `inconclusive` (not significant, but the interval is too wide to
  say: the smallest change the data could have detected, at 80 % power, is given).
- Flaky: a task whose repeats straddle its pass threshold (some pass, some fail), on either side. A task
  flaky in the baseline is left out of the pairs (`flaky_excluded`): its pass or fail is chance, so a
  change there is called neither a regression nor an improvement; it is listed instead.
- Not comparable: a judge, the embeddings or the system whose served model (what the provider's replies
  named) differs from the baseline's (harness.report.served). No comparison is then called a regression or
  an improvement (verdict `not comparable`), and the gate fails saying "judge changed: not comparable"
  rather than calling the change in scores a regression.
- The gate: with `fail_margin` set, a run fails only for a score regression whose whole interval lies
  below -fail_margin points, for items it could not measure, or for runs that are not comparable: another
  model answered, or fewer than MIN_PAIRED_SHARE of the baseline's tasks pair with the run (it fails
  closed: nothing paired is nothing measured).
"""

from __future__ import annotations

import math
import statistics
from collections import defaultdict
from dataclasses import asdict, dataclass, field
from typing import Any

import numpy as np

ALPHA = 0.05
# The share of the baseline's tasks that must pair with the run for the gate to judge it: below it (every
# task's version bumped, most tasks renamed) the gate has too little to say a run is fine, and fails closed.
MIN_PAIRED_SHARE = 0.5
Z_ALPHA = 1.959964  # two-sided 5 %
Z_POWER = 0.841621  # 80 % power
RESAMPLES = 4000


@dataclass
class Comparison:
    suite: str
    metric: str
    n: int
    base_mean: float | None
    new_mean: float | None
    delta: float | None
    low: float | None
    high: float | None
    p_value: float | None
    p_adjusted: float | None = None
    detectable: float | None = None  # the smallest change this many pairs could have detected (80 % power)
    verdict: str = "inconclusive"
    gate: bool = False  # this comparison fails the gate

    def to_json(self) -> dict[str, Any]:
        return {k: (round(v, 4) if isinstance(v, float) else v) for k, v in asdict(self).items()}


@dataclass
class Report:
    comparisons: list[Comparison]
    added: list[str] = field(default_factory=list)
    removed: list[str] = field(default_factory=list)
    changed_version: list[str] = field(default_factory=list)
    errored: list[dict[str, str]] = field(default_factory=list)  # {item, side, kind}
    flaky: list[dict[str, Any]] = field(default_factory=list)
    # tasks flaky in the baseline: not paired, so never a regression or an improvement of the gate
    flaky_excluded: list[str] = field(default_factory=list)
    # unscored in this run, or with judged values missing (the harness's failures): not measured in full
    new_errors: list[str] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    # roles whose served model changed since the baseline (harness.report.served.served_changes)
    not_comparable: list[dict[str, Any]] = field(default_factory=list)
    fail_margin: float | None = None
    tolerance: float = 2.0
    paired: int = 0  # the baseline's tasks (task id, version, variant) that pair with the run
    baseline_tasks: int = 0

    @property
    def regressed(self) -> list[Comparison]:
        return [c for c in self.comparisons if c.gate]

    @property
    def too_few_pairs(self) -> str | None:
        """Why too little of the baseline pairs with the run to judge it (None when enough does)."""
        if self.baseline_tasks and self.paired >= MIN_PAIRED_SHARE * self.baseline_tasks:
            return None
        why = [f"{len(self.changed_version)} changed version"] if self.changed_version else []
        why += [f"{len(self.removed)} removed or renamed"] if self.removed else []
        detail = f" ({', '.join(why)})" if why else ""
        return (
            f"not comparable: {self.paired} of the baseline's {self.baseline_tasks} task(s) pair with this run"
            f"{detail}; at least {MIN_PAIRED_SHARE:.0%} must pair for the gate to judge it"
        )

    @property
    def failed(self) -> bool:
        """The gate's verdict: a regression below the margin, items this run could not measure, a judge,
        embedding model or system that another model answered for, or too little of the baseline paired
        (not comparable): it fails closed."""
        return self.fail_margin is not None and bool(
            self.regressed or self.new_errors or self.not_comparable or self.too_few_pairs
        )

    def to_json(self) -> dict[str, Any]:
        return {
            "comparisons": [c.to_json() for c in self.comparisons],
            "added": self.added,
            "removed": self.removed,
            "changed_version": self.changed_version,
            "errored": self.errored,
            "flaky": self.flaky,
            "flaky_excluded": self.flaky_excluded,
            "new_errors": self.new_errors,
            "notes": self.notes,
            "not_comparable": self.not_comparable,
            "fail_margin": self.fail_margin,
            "tolerance": self.tolerance,
            "paired": self.paired,
            "baseline_tasks": self.baseline_tasks,
            "too_few_pairs": self.too_few_pairs,
            "failed": self.failed,
        }


def _key(result: dict[str, Any]) -> tuple[str, str, str]:
    return (result.get("suite") or "", result["task_id"], result.get("variant") or "")


def _name(key: tuple[str, str, str]) -> str:
    suite, task, variant = key
    return f"{suite}::{task}" + (f"[{variant}]" if variant else "")


def _grouped(results: list[dict[str, Any]]) -> dict[tuple[str, str, str], list[dict[str, Any]]]:
    groups: dict[tuple[str, str, str], list[dict[str, Any]]] = defaultdict(list)
    for result in results:
        groups[_key(result)].append(result)
    return groups


def _mean_of(items: list[dict[str, Any]], metric: str) -> float | None:
    values = []
    for item in items:
        value = item.get("score") if metric == "score" else (item.get("metrics") or {}).get(metric)
        if isinstance(value, int | float) and not isinstance(value, bool) and math.isfinite(value):
            values.append(float(value))
    return statistics.fmean(values) if values else None


def _flaky(items: list[dict[str, Any]]) -> bool:
    """Repeats of one task that straddle its threshold: some passed, some failed."""
    outcomes = {i.get("outcome") for i in items if i.get("outcome") in ("passed", "failed")}
    return len(items) > 1 and outcomes == {"passed", "failed"}


def paired_test(differences: np.ndarray, seed: int = 0, resamples: int = RESAMPLES) -> tuple[float, float, float]:
    """(low, high) of the 95 % percentile bootstrap interval of the mean difference, and the two-sided
    p-value of a sign-flip permutation test (exact over all sign patterns when there are at most 12)."""
    n = len(differences)
    rng = np.random.default_rng(seed)
    means = differences[rng.integers(0, n, (resamples, n))].mean(axis=1)
    low, high = np.percentile(means, [2.5, 97.5])
    observed = abs(differences.mean())
    if not np.any(differences):
        return float(low), float(high), 1.0
    if n <= 12:
        signs = np.array(np.meshgrid(*[[-1, 1]] * n)).reshape(n, -1).T
    else:
        signs = rng.choice([-1.0, 1.0], size=(resamples, n))
    flipped = np.abs((signs * differences).mean(axis=1))
    p = (np.sum(flipped >= observed - 1e-12) + (0 if n <= 12 else 1)) / (len(signs) + (0 if n <= 12 else 1))
    return float(low), float(high), float(min(1.0, p))


def holm(p_values: list[float]) -> list[float]:
    """Holm's step-down adjustment (controls the family-wise error rate)."""
    order = sorted(range(len(p_values)), key=lambda i: p_values[i])
    adjusted = [0.0] * len(p_values)
    running = 0.0
    for rank, i in enumerate(order):
        running = max(running, min(1.0, (len(p_values) - rank) * p_values[i]))
        adjusted[i] = running
    return adjusted


def compare(
    base: list[dict[str, Any]],
    new: list[dict[str, Any]],
    *,
    fail_margin: float | None = None,
    tolerance: float = 2.0,
    seed: int = 0,
) -> Report:
    """The comparison of two runs' results (results.json `results`)."""
    base_groups, new_groups = _grouped(base), _grouped(new)
    report = Report([], fail_margin=fail_margin, tolerance=tolerance)
    report.added = sorted(_name(k) for k in new_groups.keys() - base_groups.keys())
    report.removed = sorted(_name(k) for k in base_groups.keys() - new_groups.keys())
    shared = sorted(base_groups.keys() & new_groups.keys())
    flaky_before = {key for key, items in base_groups.items() if _flaky(items)}
    pairs: dict[str, list[tuple[list[dict[str, Any]], list[dict[str, Any]]]]] = defaultdict(list)
    for key in shared:
        before, after = base_groups[key], new_groups[key]
        if {r.get("task_version") for r in before} != {r.get("task_version") for r in after}:
            report.changed_version.append(_name(key))
            continue
        if key in flaky_before:  # passing on some repeats, failing on others: a change here is not evidence
            report.flaky_excluded.append(_name(key))
            report.paired += 1  # it paired; it is left out of the evidence, not missing from the run
            continue
        for side, items in (("baseline", before), ("new", after)):
            for item in items:
                if item.get("outcome") == "error":
                    kind = (item.get("error") or {}).get("kind", "error")
                    report.errored.append({"item": _name(key), "side": side, "kind": kind})
        pairs[key[0]].append((before, after))
        report.paired += 1
    report.baseline_tasks = len(base_groups)
    for side, groups in (("baseline", base_groups), ("new", new_groups)):
        for key, items in groups.items():
            if _flaky(items):
                passed = sum(i.get("outcome") == "passed" for i in items)
                report.flaky.append({"item": _name(key), "side": side, "passed": passed, "repeats": len(items)})
    report.flaky.sort(key=lambda f: (f["item"], f["side"]))
    for key, items in sorted(new_groups.items()):
        # An item this run could not score (the harness's failure) leaves the run incomplete, and so does one
        # whose judged values are missing (a judge gave no verdict on a metric, as GEM's tables mark them):
        # the gate cannot vouch for what it did not measure, whatever the baseline held. (The system's own
        # failures are scores of 0 and are compared like any other score.)
        if any(i.get("outcome") == "error" for i in items):
            report.new_errors.append(_name(key))
            continue
        missing = sorted({str(m) for i in items for m in (i.get("incomplete") or [])})
        if missing:
            report.new_errors.append(f"{_name(key)} (judged values missing: {', '.join(missing)})")
    metrics = sorted(
        {
            name
            for items in (*base_groups.values(), *new_groups.values())
            for item in items
            for name, value in (item.get("metrics") or {}).items()
            if isinstance(value, int | float) and not isinstance(value, bool)
        }
    )
    by_metric: dict[str, list[Comparison]] = defaultdict(list)
    for suite in sorted(pairs):
        for metric in ["score", *metrics]:
            rows = [(_mean_of(b, metric), _mean_of(a, metric)) for b, a in pairs[suite]]
            rows = [(b, a) for b, a in rows if b is not None and a is not None]
            if not rows:
                continue
            differences = np.array([a - b for b, a in rows])
            comparison = Comparison(
                suite=suite,
                metric=metric,
                n=len(rows),
                base_mean=statistics.fmean(b for b, _ in rows),
                new_mean=statistics.fmean(a for _, a in rows),
                delta=float(differences.mean()),
                low=None,
                high=None,
                p_value=None,
            )
            if len(rows) >= 2:
                comparison.low, comparison.high, comparison.p_value = paired_test(differences, seed)
                sd = float(np.std(differences, ddof=1))
                comparison.detectable = (Z_ALPHA + Z_POWER) * sd / math.sqrt(len(rows))
            by_metric[metric].append(comparison)
    for metric, group in by_metric.items():
        tested = [c for c in group if c.p_value is not None]
        for comparison, adjusted in zip(tested, holm([c.p_value for c in tested]), strict=True):  # type: ignore[misc]
            comparison.p_adjusted = adjusted
        for comparison in group:
            comparison.verdict = _verdict(comparison, tolerance)
            comparison.gate = (
                metric == "score"
                and fail_margin is not None
                and comparison.verdict == "regressed"
                and comparison.high is not None
                and comparison.high < -fail_margin
            )
        report.comparisons += group
    report.comparisons.sort(key=lambda c: (c.metric != "score", c.metric, c.suite))
    return report


def _verdict(comparison: Comparison, tolerance: float) -> str:
    if comparison.p_adjusted is None or comparison.low is None or comparison.high is None:
        return "inconclusive"
    if comparison.p_adjusted < ALPHA and comparison.delta is not None and comparison.delta != 0:
        return "regressed" if comparison.delta < 0 else "improved"
    if -tolerance <= comparison.low and comparison.high <= tolerance:
        return "unchanged"
    return "inconclusive"


def versions_note(base_run: dict[str, Any], new_run: dict[str, Any]) -> list[str]:
    """What differs between the two runs' setups, said up front."""
    notes = []
    before, after = base_run.get("run", {}), new_run.get("run", {})
    if before.get("harness_version") != after.get("harness_version"):
        notes.append(
            f"the baseline was made by harness {before.get('harness_version')}, this run by "
            f"{after.get('harness_version')}: compared on what still matches"
        )
    b_opt, a_opt = before.get("options", {}), after.get("options", {})
    for name in ("judge_models", "embedding_model"):
        if b_opt.get(name) != a_opt.get(name):
            notes.append(f"{name} differ ({b_opt.get(name)} then, {a_opt.get(name)} now): scores may not be comparable")
    return notes + benchmark_notes(before.get("benchmarks") or {}, after.get("benchmarks") or {})


def benchmark_notes(before: dict[str, Any], after: dict[str, Any]) -> list[str]:
    """What the benchmarks' own run records (`run.benchmarks.<kind>.compare`) say differs: the rules that
    ran, or the data (compared for the parts both runs have, e.g. the data sets both ran)."""
    notes = []
    for kind in sorted(set(before) & set(after)):
        old, new = before[kind].get("compare") or {}, after[kind].get("compare") or {}
        for name in sorted(set(old) & set(new)):
            if isinstance(old[name], dict) and isinstance(new[name], dict):
                changed = [k for k in sorted(set(old[name]) & set(new[name])) if old[name][k] != new[name][k]]
                if changed:
                    shown = "; ".join(f"{k}: {old[name][k]} then, {new[name][k]} now" for k in changed[:3])
                    notes.append(f"different {name} ({kind}; {shown}): the runs are not on the same {name}")
            elif old[name] != new[name]:
                notes.append(f"{kind} {name} differs ({old[name]} then, {new[name]} now): scores may not be comparable")
    return notes


def compare_runs(
    base_run: dict[str, Any], new_run: dict[str, Any], *, fail_margin: float | None = None, tolerance: float = 2.0
) -> Report:
    from harness.report.served import served_models

    report = compare(base_run["results"], new_run["results"], fail_margin=fail_margin, tolerance=tolerance)
    report.notes = versions_note(base_run, new_run)
    mark_not_comparable(report, served_models(base_run["results"]), served_models(new_run["results"]))
    if report.changed_version:
        report.notes.append(f"{len(report.changed_version)} task(s) changed version since the baseline: not compared")
    return report


def mark_not_comparable(report: Report, before: dict[str, Any], after: dict[str, Any]) -> None:
    """Record the roles another model answered for since the baseline; then no difference in scores is a
    regression or an improvement of the system: it may be the ruler that moved."""
    from harness.report.served import served_changes

    report.not_comparable = served_changes(before, after)
    if not report.not_comparable:
        return
    for comparison in report.comparisons:
        if comparison.verdict in ("regressed", "improved"):
            comparison.verdict = "not comparable"
        comparison.gate = False


def not_comparable_reason(report: Report) -> str:
    """`judge changed: not comparable (judge openai/j: served a then, b now)`."""
    from harness.report.served import change_line

    roles = sorted({c["role"] for c in report.not_comparable}, key=["judge", "embeddings", "system"].index)
    shown = "; ".join(change_line(c) for c in report.not_comparable[:4])
    return f"{' and '.join(roles)} changed: not comparable ({shown})"


VERDICT_MARK = {
    "regressed": "REGRESSED",
    "improved": "improved",
    "unchanged": "unchanged",
    "inconclusive": "inconclusive",
    "not comparable": "not comparable",
}


def gate_line(report: Report) -> str:
    """One sentence: whether the gate passes, and why."""
    margin = report.fail_margin or 0.0
    rule = (
        f"it fails for a score regression whose whole 95 % interval lies below {-margin:g} points, "
        "or for an incomplete run (items this run could not score, or judged values it could not measure), "
        f"or when under {MIN_PAIRED_SHARE:.0%} of the baseline's tasks pair with the run"
    )
    reasons = [
        f"{c.suite} {c.delta:+.1f} points [{c.low:+.1f}, {c.high:+.1f}], p = {c.p_adjusted:.3g} (Holm)"
        for c in report.regressed
    ]
    if report.new_errors:
        partial = sum(" (judged values missing: " in e for e in report.new_errors)
        what = [f"{len(report.new_errors) - partial} item(s) unscored"] if len(report.new_errors) > partial else []
        what += [f"{partial} item(s) with judged values missing"] if partial else []
        reasons.append(f"{' and '.join(what)}: the run is incomplete and could not be measured")
    if report.not_comparable:
        reasons.append(f"{not_comparable_reason(report)}; save a new baseline with what answers now to compare again")
    if report.too_few_pairs:
        reasons.append(f"{report.too_few_pairs}; save a new baseline to compare again")
    differ = [n for n in report.notes if n.startswith("different ") or " differs (" in n]
    caution = f" Compared across different setups: {'; '.join(differ)}." if differ else ""
    if report.flaky_excluded:
        caution += f" {len(report.flaky_excluded)} task(s) flaky in the baseline were not compared (listed)."
    if report.failed:
        return f"The regression gate **fails** ({'; '.join(reasons)}): {rule}.{caution}"
    return f"The regression gate passes: {rule}.{caution}"


def markdown(report: Report, base_label: str) -> list[str]:
    """The summary.md section."""
    lines = [f"## Compared with the baseline ({base_label})", ""]
    lines += [f"> {note}" for note in report.notes] + ([""] if report.notes else [])
    if report.not_comparable:
        lines += [f"> **{not_comparable_reason(report)}**: no change in scores is called a regression or an "
                  "improvement; another model answered for the same role.", ""]  # fmt: skip
    if report.fail_margin is not None:
        lines += [gate_line(report), ""]
    lines += [
        "| suite | metric | pairs | baseline | now | change | 95 % interval | p (Holm) | verdict "
        "| smallest detectable |",
        "|---|---|---:|---:|---:|---:|---|---:|---|---:|",
    ]
    for c in report.comparisons:
        interval = "-" if c.low is None else f"[{c.low:+.1f}, {c.high:+.1f}]"
        p = "-" if c.p_adjusted is None else f"{c.p_adjusted:.3f}"
        detect = "-" if c.detectable is None else f"{c.detectable:.1f}"
        mark = VERDICT_MARK[c.verdict] + (" (gate)" if c.gate else "")
        lines.append(
            f"| {c.suite} | {c.metric} | {c.n} | {c.base_mean:.1f} | {c.new_mean:.1f} | {c.delta:+.1f} | {interval} "
            f"| {p} | {mark} | {detect} |"
        )
    for title, entries in (
        ("Added since the baseline", report.added),
        ("Removed since the baseline", report.removed),
        ("Task version changed (not compared)", report.changed_version),
    ):
        if entries:
            lines += ["", f"**{title} ({len(entries)}):** " + ", ".join(f"`{e}`" for e in entries[:50])]
    if report.errored:
        shown = ", ".join(f"`{e['item']}` ({e['side']}: {e['kind']})" for e in report.errored[:50])
        lines += ["", f"**Errored on one side or both ({len(report.errored)}):** {shown}"]
    if report.flaky:
        shown = ", ".join(
            f"`{f['item']}` ({f['side']}: {f['passed']}/{f['repeats']} passed)" for f in report.flaky[:50]
        )
        lines += ["", f"**Flaky (repeats straddle the threshold, {len(report.flaky)}):** {shown}"]
    if report.flaky_excluded:
        shown = ", ".join(f"`{e}`" for e in report.flaky_excluded[:50])
        lines += ["", f"**Flaky in the baseline, not compared ({len(report.flaky_excluded)}):** {shown}"]
    return lines
