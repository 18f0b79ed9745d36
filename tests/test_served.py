"""What answered: the served model and system fingerprint of each call, per role in the run, and the gate
that calls a changed judge "not comparable" instead of a regression. Against a real server on 127.0.0.1
that answers under another model name than the one asked for."""

from __future__ import annotations

import asyncio
import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import jsonschema
import pytest
from helpers import REPO, Project, stub_args

from harness.analysis.compare import compare_runs, gate_line
from harness.cache import CacheMode, CallCache
from harness.llm.client import ClientSettings, LLMClient
from harness.llm.request import ChatRequest, EmbeddingRequest
from harness.report.served import served_changes, served_models
from harness.testing import StubProcess


@pytest.mark.parametrize("route", ["openai", "litellm"])
def test_each_call_records_the_model_that_answered_cached_or_not(
    tmp_path: Path, fresh_stub: StubProcess, route: str
) -> None:
    fresh_stub.control(served_models={"stub-sut": "stub-sut-2026-03-01"}, system_fingerprint="fp_a1b2")
    client = LLMClient(
        ClientSettings(route=route, retries=0, timeout_s=5.0), CallCache(tmp_path / "cache", CacheMode.USE)
    )
    request = ChatRequest.build("openai/stub-sut", [{"role": "user", "content": "hi"}], api_base=fresh_stub.api_base)

    async def go() -> Any:
        try:
            _, first, _ = await client.chat(request, namespace="sut")
            _, again, _ = await client.chat(request, namespace="sut")
            _, vectors = await client.embed(EmbeddingRequest("openai/stub-embed", ("a", "b"), fresh_stub.api_base))
            _, cached = await client.embed(EmbeddingRequest("openai/stub-embed", ("a",), fresh_stub.api_base))
            return first, again, vectors, cached
        finally:
            await client.close()

    first, again, vectors, cached = asyncio.run(go())
    assert first.model == "openai/stub-sut" and first.served_model == "stub-sut-2026-03-01"
    assert first.system_fingerprint == "fp_a1b2" and not first.cache_hit
    # a reply read from the cache names what answered when the call was made
    assert again.cache_hit and (again.served_model, again.system_fingerprint) == ("stub-sut-2026-03-01", "fp_a1b2")
    assert vectors.served_model == "stub-embed" and not vectors.cache_hit
    assert cached.cache_hit and cached.served_model == "stub-embed"
    assert first.to_json()["served_model"] == "stub-sut-2026-03-01"


def test_a_reply_without_a_fingerprint_records_none(tmp_path: Path, fresh_stub: StubProcess) -> None:
    client = LLMClient(ClientSettings(route="openai", retries=0), CallCache(tmp_path / "cache", CacheMode.USE))
    request = ChatRequest.build("openai/stub-sut", [{"role": "user", "content": "hi"}], api_base=fresh_stub.api_base)

    async def go() -> Any:
        try:
            return (await client.chat(request, namespace="sut"))[1]
        finally:
            await client.close()

    record = asyncio.run(go())
    assert record.served_model == "stub-sut" and record.system_fingerprint is None


def _result(task: str, score: float, calls: list[dict[str, Any]], suite: str = "s") -> dict[str, Any]:
    return {
        "suite": suite, "task_id": task, "task_version": 1, "variant": None, "repeat": 0, "score": score,
        "outcome": "passed" if score >= 50 else "failed", "metrics": {}, "incomplete": [], "calls": calls,
    }  # fmt: skip


def _call(namespace: str, model: str, served: str | None, fingerprint: str | None = None) -> dict[str, Any]:
    return {"namespace": namespace, "model": model, "served_model": served, "system_fingerprint": fingerprint,
            "error": None, "system": namespace == "sut"}  # fmt: skip


def _run(scores: list[float], judge_served: str, sut_served: str = "m-1", sut: str = "openai/m") -> dict[str, Any]:
    def calls() -> list[dict[str, Any]]:
        return [_call("sut", sut, sut_served, "fp1"), _call("judge", "openai/j", judge_served)]

    results = [_result(f"t{i}", s, calls()) for i, s in enumerate(scores)]
    return {"run": {"run_id": "r", "options": {}}, "results": results}


def test_served_models_are_grouped_by_role_and_requested_model() -> None:
    results = _run([60, 70], "j-2025")["results"]
    results[0]["calls"].append({**_call("embed", "openai/e", "e-small"), "error": None})
    results[1]["calls"].append(_call("judge", "openai/j", None))  # an older cache entry: not known
    served = served_models(results)
    assert served["system"] == {"openai/m": {"served": ["m-1"], "fingerprints": ["fp1"], "calls": 2, "unknown": 0}}
    assert served["judge"]["openai/j"] == {"served": ["j-2025"], "fingerprints": [], "calls": 3, "unknown": 1}
    assert served["embeddings"]["openai/e"]["served"] == ["e-small"]
    # a name from a provider cannot carry markup into a report
    assert served_models([_result("t", 1, [_call("judge", "j", "x|<b>y")])])["judge"]["j"]["served"] == ["x??b?y"]


def test_a_judge_that_changed_is_not_comparable_and_never_a_regression() -> None:
    base = _run([90] * 12, "j-2025")
    worse = _run([20] * 12, "j-2026")  # the judge changed and scores fell: not the system's doing, as far as we know
    report = compare_runs(base, worse, fail_margin=2)
    assert report.not_comparable == [
        {"role": "judge", "model": "openai/j", "before": ["j-2025"], "after": ["j-2026"], "requested": False}
    ]
    assert [c.verdict for c in report.comparisons] == ["not comparable"] and not report.regressed
    assert report.failed and "judge changed: not comparable" in gate_line(report)
    assert "regression" not in gate_line(report).split(":")[0].replace("regression gate", "")
    # the same judge answering: a plain regression, as before
    same = compare_runs(base, _run([20] * 12, "j-2025"), fail_margin=2)
    assert not same.not_comparable and [c.verdict for c in same.comparisons] == ["regressed"] and same.regressed


def test_what_counts_as_a_change() -> None:
    base = served_models(_run([50], "j-2025")["results"])
    # the system asked for another model: that is what the comparison measures
    assert served_changes(base, served_models(_run([50], "j-2025", "n-1", "openai/n")["results"])) == []
    # the system's provider served another model under the same name: flagged
    swapped = served_changes(base, served_models(_run([50], "j-2025", "m-2")["results"]))
    assert [(c["role"], c["before"], c["after"]) for c in swapped] == [("system", ["m-1"], ["m-2"])]
    # a baseline that does not know what answered (made before this was recorded) is not judged changed
    old = served_models(_run([50], None, None)["results"])  # type: ignore[arg-type]
    assert served_changes(old, base) == []


def test_merge_says_when_shards_were_answered_by_different_judges() -> None:
    from harness.report.merge import Shard, served_warnings

    def shard(index: int, served: str) -> Shard:
        run = _run([50], served)
        run["run"]["shard"] = {"index": index, "count": 2, "items": 1}
        return Shard(source=f"s{index}", run=run)

    warnings = served_warnings([shard(1, "j-2025"), shard(2, "j-2026")])
    assert len(warnings) == 1 and "judge changed" in warnings[0] and "j-2026" in warnings[0]
    assert served_warnings([shard(1, "j-2025"), shard(2, "j-2025")]) == []


def test_a_gate_across_a_judge_the_provider_swapped_says_not_comparable(project: Project, fresh_stub: Any) -> None:
    """The checked-by case: the same judge name answered by another model between baseline and branch, while
    its verdicts turn harsh. The gate says the judge changed, not that the system regressed."""
    project.copy_sample()
    baseline = project.root / "baseline.json"
    fresh_stub.control(
        system_fingerprint="fp_base",
        judge_default={"grade": "correct", "reasoning": "ok"}, served_models={"stub-judge": "stub-judge-2025-04"},
    )  # fmt: skip
    judged = "evals/sample/judged.yaml"  # eight tasks graded by the judge
    first = project.pytest(judged, *stub_args(fresh_stub), "--save-baseline", str(baseline))
    assert baseline.is_file(), first.stdout[-2000:]
    first_id, served = first.run["run"]["run_id"], first.run["served_models"]
    assert served["judge"]["openai/stub-judge"]["served"] == ["stub-judge-2025-04"]
    assert served["system"]["openai/stub-sut"]["served"] == ["stub-sut"]
    assert served["system"]["openai/stub-sut"]["fingerprints"] == ["fp_base"]
    summary = (first.report_dir / first_id / "summary.md").read_text()
    assert "### Models that answered" in summary and "stub-judge-2025-04" in summary
    page = (first.report_dir / first_id / "report.html").read_text()
    assert "Models that answered" in page and "stub-judge-2025-04" in page

    fresh_stub.control(
        served_models={"stub-judge": "stub-judge-2026-01"},
        judge_default={"grade": "incorrect", "reasoning": "no"},
    )
    args = (judged, *stub_args(fresh_stub), "--cache-mode", "refresh")
    branch = project.pytest(*args, "--baseline", str(baseline), "--fail-on-regression")
    comparison = branch.run["comparison"]
    assert branch.returncode == 1, branch.stdout[-2000:]
    assert "judge changed: not comparable" in branch.stdout and "stub-judge-2026-01" in branch.stdout
    assert [c["role"] for c in comparison["not_comparable"]] == ["judge"]
    assert "regressed" not in {c["verdict"] for c in comparison["comparisons"]}
    schema = json.loads((REPO / "harness/schemas/results.schema.json").read_text())
    jsonschema.validate(branch.run, schema)

    def harness(*argv: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            [sys.executable, "-m", "harness.cli", "compare", *argv, "--report-dir", str(project.report_dir)],
            cwd=project.root, capture_output=True, text=True, timeout=120,
        )  # fmt: skip

    shown = harness(first_id, branch.run["run"]["run_id"], "--fail-on-regression")
    assert shown.returncode == 1 and "judge changed: not comparable" in shown.stdout, shown.stdout + shown.stderr
