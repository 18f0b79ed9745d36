"""The regression gate: paired comparisons with intervals and a multiple-testing correction, verdicts that
say when the data cannot tell, flaky items, everything that did not pair listed, and exit codes decided
by regressions rather than raw thresholds."""

from __future__ import annotations

import json
import subprocess
import sys
from typing import Any

import jsonschema
import numpy as np
import pytest
from helpers import REPO, Project, stub_args

from harness.analysis.compare import compare, compare_runs, holm, paired_test


def results(scores: Any, suite: str = "s", version: int = 1, repeat: int = 0, threshold: float = 50) -> list[dict]:
    return [
        {"suite": suite, "task_id": f"t{i:03d}", "task_version": version, "variant": None, "repeat": repeat,
         "score": float(s), "outcome": "passed" if s >= threshold else "failed", "metrics": {"m": float(s) / 100},
         "error": None}
        for i, s in enumerate(scores)
    ]  # fmt: skip


def pair_of_runs(rng: np.random.Generator, drop: float, n: int = 50) -> tuple[list[dict], list[dict]]:
    """Per-task quality varies (20..90); each run adds judge noise (sd 8); the new run is `drop` lower."""
    quality = rng.uniform(20, 90, n)
    base = np.clip(quality + rng.normal(0, 8, n), 0, 100)
    new = np.clip(quality - drop + rng.normal(0, 8, n), 0, 100)
    return results(base), results(new)


def test_a_true_ten_point_drop_over_fifty_items_is_a_regression() -> None:
    rng = np.random.default_rng(1)
    flagged = 0
    for _ in range(20):
        base, new = pair_of_runs(rng, drop=10)
        report = compare(base, new, fail_margin=0)
        (score,) = [c for c in report.comparisons if c.metric == "score"]
        flagged += score.verdict == "regressed" and score.gate
        assert score.high < 0 and score.delta == pytest.approx(-10, abs=4)
    assert flagged >= 19
    assert report.failed


def test_noise_alone_is_flagged_in_fewer_than_five_percent_of_comparisons() -> None:
    rng = np.random.default_rng(2)
    flagged = 0
    for _ in range(200):
        base, new = pair_of_runs(rng, drop=0)
        report = compare(base, new, fail_margin=0)
        flagged += report.failed
    assert flagged / 200 < 0.05


def test_small_samples_are_inconclusive_and_say_what_they_could_detect() -> None:
    base = results([40, 90, 10, 70, 55])
    new = results([50, 60, 30, 90, 35])
    (score,) = [c for c in compare(base, new).comparisons if c.metric == "score"]
    assert score.verdict == "inconclusive" and score.detectable > 20  # five noisy tasks cannot see 5 points
    same = compare(results([50] * 30), results([50] * 30))
    assert [c.verdict for c in same.comparisons] == ["unchanged", "unchanged"]


def test_several_suites_are_corrected_for_looking_at_all_of_them() -> None:
    assert holm([0.01, 0.04, 0.03]) == pytest.approx([0.03, 0.06, 0.06])
    rng = np.random.default_rng(3)
    base, new = [], []
    for suite in ("a", "b", "c", "d"):
        b, n = pair_of_runs(rng, drop=0, n=30)
        base += [{**r, "suite": suite} for r in b]
        new += [{**r, "suite": suite} for r in n]
    report = compare(base, new)
    scores = [c for c in report.comparisons if c.metric == "score"]
    assert len(scores) == 4 and all(c.p_adjusted >= c.p_value for c in scores)


def test_the_permutation_test_is_exact_for_few_pairs() -> None:
    low, high, p = paired_test(np.array([1.0, 2.0, 3.0]))
    assert p == pytest.approx(2 / 8)  # all positive: 2 of the 8 sign patterns are as extreme
    assert low <= 2.0 <= high
    assert paired_test(np.zeros(10))[2] == 1.0


def test_flaky_items_are_those_whose_repeats_straddle_the_threshold() -> None:
    base = results([80, 20]) + results([30, 25], repeat=1)  # t000: 80 then 30 -> straddles 50
    new = results([70, 20]) + results([75, 22], repeat=1)
    report = compare(base, new)
    assert report.flaky == [{"item": "s::t000", "side": "baseline", "passed": 1, "repeats": 2}]


def test_what_does_not_pair_is_listed_never_dropped() -> None:
    base = results([60, 70, 80, 90])
    new = [*results([60, 70, 80]), {**results([50], version=2)[0], "task_id": "t002"}]  # t002 is v2 now
    new = [r for r in new if r["task_id"] != "t002" or r["task_version"] == 2]
    new.append({**results([40])[0], "task_id": "t-new"})
    base[1] = {**base[1], "outcome": "error", "score": None, "error": {"kind": "provider", "message": "x"}}
    report = compare(base, new)
    assert report.added == ["s::t-new"] and report.removed == ["s::t003"]
    assert report.changed_version == ["s::t002"]
    assert report.errored == [{"item": "s::t001", "side": "baseline", "kind": "provider"}]
    assert report.new_errors == []  # it errored before, not now
    (score,) = [c for c in report.comparisons if c.metric == "score"]
    assert score.n == 1  # only t000 pairs with a score on both sides


def test_a_run_missing_judged_values_fails_the_gate_as_new_errors_do() -> None:
    """No item errored, but a judge gave no verdict on one metric of one item (the table marks it incomplete,
    as GEM's do): the gate cannot vouch for it, however the scores compare."""
    from harness.analysis.compare import gate_line

    base = results([70, 70, 80, 80])
    new = results([70, 70, 80, 80])
    new[2] = {**new[2], "incomplete": ["ad_flow", "qualitative_overall"]}
    gated = compare(base, new, fail_margin=2)
    assert gated.failed and not gated.regressed
    assert gated.new_errors == ["s::t002 (judged values missing: ad_flow, qualitative_overall)"]
    line = gate_line(gated)
    assert "**fails**" in line and "1 item(s) with judged values missing: the run is incomplete" in line
    assert compare(base, new).failed is False  # without the gate the comparison only reports it
    assert compare(base, results([70, 70, 80, 80]), fail_margin=2).failed is False  # complete: it passes


def test_another_harness_version_is_compared_on_what_matches_and_says_so() -> None:
    base = {"run": {"harness_version": "0.0.9", "options": {"judge_models": ["x"]}}, "results": results([60, 60])}
    new = {"run": {"harness_version": "0.1.0", "options": {"judge_models": ["y"]}}, "results": results([60, 60])}
    report = compare_runs(base, new)
    assert any("harness 0.0.9" in n and "what still matches" in n for n in report.notes)
    assert any("judge_models differ" in n for n in report.notes)


# -- the gate, end to end ----------------------------------------------------------------------------------


def gate_run(project: Project, stub: Any, *extra: str) -> Any:
    """A run that asks the stub again (the cache would otherwise give the earlier answers back)."""
    return project.pytest("evals/sample", *stub_args(stub), "--cache-mode", "refresh", *extra)


def test_the_gate_decides_the_exit_code(project: Project, fresh_stub: Any) -> None:
    project.copy_sample()
    baseline = project.root / "baseline.json"
    fresh_stub.control(
        answers={"17 + 25": "42", "capital of France": "Paris", "capital of Japan": "Tokyo", "Kenya": "Africa",
                 "largest planet": "Jupiter", "H2O": "H2O", "leap year": "366"},
        judge_default={"grade": "correct", "reasoning": "ok"},
    )  # fmt: skip
    first = gate_run(project, fresh_stub, "--save-baseline", str(baseline))
    assert baseline.is_file() and first.returncode == 1  # some sample items miss their threshold: plain pytest
    # the same answers: below-threshold items no longer fail the run, only a regression would
    same = gate_run(project, fresh_stub, "--baseline", str(baseline), "--fail-on-regression")
    assert same.returncode == 0, same.stdout[-2000:]
    assert "The regression gate passes" in same.stdout
    # the system gets worse: every answer wrong and every judge says so
    fresh_stub.control(answers={}, default_answer="no idea", judge_default={"grade": "incorrect", "reasoning": "no"})
    worse = gate_run(project, fresh_stub, "--baseline", str(baseline), "--fail-on-regression")
    assert worse.returncode == 1
    assert "The regression gate fails (sample " in worse.stdout
    comparison = worse.run["comparison"]
    assert comparison["failed"] and [c["verdict"] for c in comparison["comparisons"] if c["metric"] == "score"] == [
        "regressed"
    ]
    schema = json.loads((REPO / "harness/schemas/results.schema.json").read_text())
    jsonschema.validate(worse.run, schema)  # the comparison is part of the published schema
    summary = (worse.report_dir / worse.run["run"]["run_id"] / "summary.md").read_text()
    assert "## Compared with the baseline" in summary and "REGRESSED (gate)" in summary
    # a margin wider than the drop lets it through
    wide = gate_run(project, fresh_stub, "--baseline", str(baseline), "--fail-on-regression", "100")
    assert wide.returncode == 0
    # without the gate, the comparison is shown and pytest's own exit code stands
    plain = gate_run(project, fresh_stub, "--baseline", str(baseline))
    assert plain.returncode == 1 and plain.run["comparison"]["failed"] is False


def test_items_that_error_now_fail_the_gate(project: Project, fresh_stub: Any) -> None:
    project.copy_sample()
    baseline = project.root / "baseline.json"
    gate_run(project, fresh_stub, "-k", "capital", "--save-baseline", str(baseline))
    fresh_stub.control(fail_models=["stub-sut"])  # the name the provider sees
    broken = gate_run(project, fresh_stub, "-k", "capital", "--baseline", str(baseline), "--fail-on-regression")
    assert broken.returncode == 1
    assert len(broken.run["comparison"]["new_errors"]) == 2 and "could not be measured" in broken.stdout


def test_a_bad_baseline_is_refused_before_any_call(project: Project, fresh_stub: Any) -> None:
    project.copy_sample()
    out = gate_run(project, fresh_stub, "--baseline", str(project.root / "nope.json"))
    assert out.returncode == 4 and "--baseline" in out.stderr and fresh_stub.stats()["requests"] == 0
    lonely = gate_run(project, fresh_stub, "--fail-on-regression")
    assert lonely.returncode == 4 and "needs --baseline" in lonely.stderr


def test_harness_compare_reads_two_runs(project: Project, fresh_stub: Any) -> None:
    project.copy_sample()
    fresh_stub.control(answers={"capital of France": "Paris", "capital of Japan": "Tokyo"})
    first = gate_run(project, fresh_stub, "-k", "capital").run["run"]["run_id"]
    fresh_stub.control(answers={})
    second = gate_run(project, fresh_stub, "-k", "capital").run["run"]["run_id"]

    def harness(*args: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            [sys.executable, "-m", "harness.cli", "compare", *args, "--report-dir", str(project.report_dir)],
            capture_output=True,
            text=True,
        )

    shown = harness(first, second, "--json")
    document = json.loads(shown.stdout)
    (score,) = [c for c in document["comparisons"] if c["metric"] == "score"]
    assert score["delta"] == -100.0 and score["n"] == 2 and score["verdict"] == "inconclusive"  # two tasks only
    assert shown.returncode == 0  # no gate asked for
    assert harness(first, second, "--fail-on-regression").returncode == 0  # inconclusive is not a regression
    assert "Compared with the baseline" in harness(first, second).stdout


def test_gated_runs_with_failing_items_always_end_with_the_gates_verdict(project: Project, fresh_stub: Any) -> None:
    """80 judged items, 20 of them below their threshold, gated again and again: pytest's main thread formats
    every failure while the loop thread works, and no run may end in INTERNALERROR instead of a verdict."""
    lines = ["suite: gate", "defaults: {kind: qa, version: 1, scoring: {method: judge}}", "tasks:"]
    for i in range(80):
        lines += [f"  - id: g{i:03d}", f"    inputs: {{prompt: 'Gate question {i}: answer it.'}}",
                  f"    ground_truth: {{answer: 'a{i}'}}"]  # fmt: skip
    project.write("evals/gate/tasks.yaml", "\n".join(lines) + "\n")
    answers = {f"Gate question {i}:": f"answer-{i:03d}" for i in range(80)}

    def failing(numbers: list[int]) -> list[list[Any]]:
        return [[f"answer-{i:03d}", {"grade": "incorrect", "reasoning": "no"}] for i in numbers]

    fresh_stub.control(
        answers=answers, judge_rules=failing([i for i in range(80) if i % 4 == 0]),
        judge_default={"grade": "correct", "reasoning": "ok"},
    )  # fmt: skip
    baseline = project.root / "baseline.json"
    first = project.pytest("evals/gate", *stub_args(fresh_stub), "--save-baseline", str(baseline), "-n", "2")
    assert first.returncode == 1 and baseline.is_file(), first.stdout[-2000:]
    # Half of the items fail now: a regression of 25 points, far beyond the margin.
    fresh_stub.control(judge_rules=failing([i for i in range(80) if i % 2 == 0]))
    for _ in range(4):
        out = project.pytest(
            "evals/gate", *stub_args(fresh_stub), "--cache-mode", "refresh", "--baseline", str(baseline),
            "--fail-on-regression", "5",
        )  # fmt: skip
        assert "INTERNALERROR" not in out.stdout + out.stderr, (out.stdout + out.stderr)[-3000:]
        assert out.returncode == 1, out.stdout[-2000:]
        assert "The regression gate fails (gate " in out.stdout
        assert out.run["comparison"]["failed"] is True


BAD_RUNS = {
    "results as a string": '{"run": {"run_id": "x"}, "results": "all good"}',
    "run as a string": '{"run": "x", "results": []}',
    "options as a string": '{"run": {"run_id": "x", "options": "x"}, "results": []}',
    "a huge score": '{"run": {}, "results": [{"suite": "s", "task_id": "t", "score": 1e308}]}',
    "a NaN score": '{"run": {}, "results": [{"suite": "s", "task_id": "t", "score": NaN}]}',
    "a string score": '{"run": {}, "results": [{"suite": "s", "task_id": "t", "score": "95"}]}',
    "an empty result": '{"run": {}, "results": [{}]}',
    "a list": "[{}]",
    "deep nesting": '{"run": {}, "results": ' + "[" * 100_000 + "]" * 100_000 + "}",
    "not UTF-8": b'{"run": {"note": "\xff\xfe"}, "results": []}',
}


@pytest.mark.parametrize("case", sorted(BAD_RUNS))
def test_a_bad_baseline_is_one_line_and_exit_4_before_any_call(project: Project, fresh_stub: Any, case: str) -> None:
    project.copy_sample()
    bad = project.root / "baseline.json"
    content = BAD_RUNS[case]
    bad.write_bytes(content if isinstance(content, bytes) else content.encode())
    out = gate_run(project, fresh_stub, "--baseline", str(bad), "--fail-on-regression")
    assert out.returncode == 4 and "--baseline" in out.stderr and "Traceback" not in out.stderr, out.stderr[-1500:]
    assert fresh_stub.stats()["requests"] == 0
    done = subprocess.run(
        [sys.executable, "-m", "harness.cli", "compare", str(bad), str(bad)], capture_output=True, text=True
    )
    assert done.returncode == 4 and "Traceback" not in done.stderr and str(bad) in done.stderr, done.stderr[-1500:]


def _valid_run() -> dict[str, Any]:
    return {
        "run": {"run_id": "r1", "harness_version": "0.1.0", "options": {"model": "openai/m", "judge_models": ["j"]},
                "benchmarks": {"qa": {"compare": {"rules": {"judge": "strict"}}}}},
        "results": [{**r, "kind": "qa", "incomplete": []} for r in results([60, 70])],
        "totals": {"mean_score": 65.0}, "tables": [],
    }  # fmt: skip


HOSTILE_RUNS = {  # each one field of a valid run made wrong, where the comparison or the gate reads it
    "options as a string": (("run", "options"), "x", "run.options must be an object"),
    "options as a list": (("run", "options"), ["judge_models"], "run.options must be an object"),
    "benchmarks as a string": (("run", "benchmarks"), "x", "run.benchmarks must be an object"),
    "a benchmark as a string": (("run", "benchmarks", "qa"), "x", "run.benchmarks.qa must be an object"),
    "its comparison as a string": (("run", "benchmarks", "qa", "compare"), "x", "run.benchmarks.qa.compare must"),
    "its comparison as a list": (("run", "benchmarks", "qa", "compare"), ["rules"], "run.benchmarks.qa.compare must"),
    "a run id as a number": (("run", "run_id"), 7, "run.run_id must be a string"),
    "a harness version as an object": (("run", "harness_version"), {"v": 1}, "run.harness_version must be a string"),
    "totals as a string": (("totals",), "x", "totals must be an object"),
    "tables as a string": (("tables",), "x", "tables must be a list of objects"),
    "an outcome as a number": (("results", 0, "outcome"), 3, "results[0].outcome must be a string"),
    "missing values as a string": (("results", 1, "incomplete"), "ad_flow", "results[1].incomplete must be a list"),
}


@pytest.mark.parametrize("case", sorted(HOSTILE_RUNS))
def test_every_field_the_comparison_reads_is_checked_before_it_is_read(
    tmp_path: Any, case: str, capsys: pytest.CaptureFixture[str]
) -> None:
    """`harness compare BAD BAD` (both sides hold the field, as a baseline and its rerun would) refuses in one
    line with exit 4; the same check runs on --baseline before any call is paid (settings.py)."""
    from harness.cli import main
    from harness.run_files import run_document_problem

    valid = _valid_run()
    assert run_document_problem(valid) is None
    (tmp_path / "ok.json").write_text(json.dumps(valid))
    capsys.readouterr()
    assert main(["compare", str(tmp_path / "ok.json"), str(tmp_path / "ok.json")]) == 0
    capsys.readouterr()
    path, value, expected = HOSTILE_RUNS[case]
    bad = json.loads(json.dumps(valid))
    holder = bad
    for step in path[:-1]:
        holder = holder[step]
    holder[path[-1]] = value
    assert expected in (run_document_problem(bad) or "")
    (tmp_path / "bad.json").write_text(json.dumps(bad))
    assert main(["compare", str(tmp_path / "bad.json"), str(tmp_path / "bad.json")]) == 4
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and expected in err and "bad.json" in err


def test_credentials_in_a_url_and_a_named_key_are_refused_together(project: Project, fresh_stub: Any) -> None:
    project.copy_sample()
    url = fresh_stub.api_base.replace("http://", "http://user:pass@")
    out = project.pytest("evals/sample", "--model", "openai/x", "--api-base", url, "--api-key-env", "SOME_KEY")
    assert out.returncode == 4 and "carries credentials" in out.stderr and "pass@" not in out.stderr
    assert fresh_stub.stats()["requests"] == 0


def test_the_gate_fails_closed_when_too_little_of_the_baseline_pairs(
    tmp_path: Any, capsys: pytest.CaptureFixture[str]
) -> None:
    """Every task's version bumped and every score fallen from 100 to 0: nothing pairs, and the gate says
    "not comparable" (exit 1) rather than passing on nothing measured; so it does when under half pairs."""
    from harness.analysis.compare import gate_line
    from harness.cli import main

    base = results([100] * 10)
    bumped = compare(base, results([0] * 10, version=2), fail_margin=2)
    assert bumped.paired == 0 and bumped.failed and not bumped.regressed
    line = gate_line(bumped)
    assert "**fails**" in line and "not comparable: 0 of the baseline's 10 task(s) pair" in line
    assert "10 changed version" in line
    four = results([100] * 4) + [{**r, "task_version": 2} for r in results([0] * 10)[4:]]
    assert compare(base, four, fail_margin=2).failed  # 4 of 10 pair: under half
    six = results([100] * 6) + [{**r, "task_version": 2} for r in results([0] * 10)[6:]]
    assert not compare(base, six, fail_margin=2).failed  # 6 of 10 pair, none regressed: it judges, and passes
    assert not compare(base, results([0] * 10, version=2)).failed  # without the gate it only reports
    valid = _valid_run()
    new = {**valid, "results": [{**r, "task_version": 2, "score": 0.0, "outcome": "failed"} for r in valid["results"]]}
    (tmp_path / "base.json").write_text(json.dumps(valid))
    (tmp_path / "new.json").write_text(json.dumps(new))
    capsys.readouterr()
    assert main(["compare", str(tmp_path / "base.json"), str(tmp_path / "new.json"), "--fail-on-regression"]) == 1
    assert "not comparable: 0 of the baseline's 2 task(s) pair" in capsys.readouterr().out
