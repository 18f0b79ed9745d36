"""The whole scale-out, end to end, on real parts: N shards (processes with cache directories of their own)
sharing one redis-server, merged, and compared with a run of the same tasks on one machine; the shards run
again on new cache directories without one upstream call; a merge refuses a missing and a duplicated
shard; and shards on one rate-limited key settle under its limit."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from helpers import Project, stub_args
from redis_fixture import RedisServer

from harness.sharding import hash_shard

SHARDS = 3
TASKS = 24
TWINS = 6  # pairs of tasks that ask the very same question: one call, wherever the two tasks run
API_KEY = "sk-stubkey-0123456789abcdef"
REDIS_PASSWORD = "redis-pass-7f3a91c2"


def write_suite(project: Project, tasks: int = TASKS, twins: int = TWINS) -> None:
    lines = ["suite: scale", "defaults: {kind: qa, version: 1, scoring: {method: contains}}", "tasks:"]
    for i in range(tasks):
        lines += [f"  - id: q{i:03d}", f"    inputs: {{prompt: 'Scale question {i}: which word?'}}",
                  f"    ground_truth: {{answer: 'word{i}'}}"]  # fmt: skip
    for j in range(twins):
        for side in ("a", "b"):
            lines += [f"  - id: twin{j}-{side}", f"    inputs: {{prompt: 'Twin question {j}: which word?'}}",
                      f"    ground_truth: {{answer: 'twin{j}'}}"]  # fmt: skip
    project.write("evals/scale/tasks.yaml", "\n".join(lines) + "\n")


def good_answers() -> dict[str, str]:
    return {**{f"Scale question {i}:": f"word{i}" for i in range(TASKS)}, **{f"Twin question {j}:": f"twin{j}"
            for j in range(TWINS)}}  # fmt: skip


def run_shards(project: Project, args: list[str], machine: str, env: dict[str, str]) -> list[Path]:
    """Start the N shards at once, each as a machine of its own (its own cache and report folders); wait for
    all; return each shard's results.json."""
    import os

    processes = []
    for k in range(1, SHARDS + 1):
        folder = project.root / machine / f"shard-{k}"
        command = project.command(*args, "--shard", f"{k}/{SHARDS}", "--report-dir", str(folder / "reports"),
                                  "--cache-dir", str(folder / "cache"))  # fmt: skip
        full_env = {k: v for k, v in os.environ.items() if not k.startswith("PYTEST_")} | env
        processes.append(
            subprocess.Popen(command, cwd=project.root, env=full_env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
        )
    outputs = [p.communicate(timeout=300)[0].decode() for p in processes]
    paths = []
    for k, (process, output) in enumerate(zip(processes, outputs, strict=True), 1):
        assert process.returncode in (0, 1), output[-3000:]
        reports = project.root / machine / f"shard-{k}" / "reports"
        paths.append(reports / (reports / "LATEST").read_text().strip() / "results.json")
    return paths


def harness(project: Project, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "harness.cli", *args, "--report-dir", str(project.report_dir)],
        capture_output=True,
        text=True,
        cwd=project.root,
        timeout=120,
    )


def outcomes(run: dict[str, Any]) -> dict[str, tuple[Any, str]]:
    return {r["nodeid"]: (r["score"], r["outcome"]) for r in run["results"]}


def test_shards_on_one_redis_merge_into_the_run_one_machine_makes(
    project: Project, fresh_stub: Any, redis_server: RedisServer, tmp_path: Path
) -> None:
    write_suite(project)
    fresh_stub.control(required_key=API_KEY, answers=good_answers())
    env = {"STUB_API_KEY": API_KEY}
    keys = [
        "--api-key-env",
        "STUB_API_KEY",
        "--judge-api-key-env",
        "STUB_API_KEY",
        "--embedding-api-key-env",
        "STUB_API_KEY",
        "--no-html",
    ]  # every endpoint the stub serves wants the key
    prices = project.write(
        "prices.json",
        '{"openai/stub-sut": {"input_cost_per_token": 0.001, "output_cost_per_token": 0}, '
        '"openai/stub-judge": {"input_cost_per_token": 0, "output_cost_per_token": 0}, '
        '"openai/stub-embed": {"input_cost_per_token": 0, "output_cost_per_token": 0}}',
    )
    keys += ["--price-file", str(prices)]
    common = ["evals", *stub_args(fresh_stub), *keys, "--progress-interval", "0"]
    baseline = project.root / "baseline.json"
    first = project.pytest(*common, "--save-baseline", str(baseline), env=env)
    assert first.returncode == 0 and baseline.is_file(), first.stdout[-2000:]

    # the system gets worse; one machine runs it (a cache of its own, so every call is made)
    fresh_stub.control(answers={}, default_answer="no idea", reset_stats=True)
    single = project.pytest(*common, "--cache-dir", str(project.root / "single-cache"), env=env)
    single_calls = fresh_stub.stats()["requests"]
    assert single.returncode == 1 and single_calls == TASKS + TWINS  # twins share one call

    # the same on three machines with fresh cache folders and one Redis (password in the URL)
    fresh_stub.control(reset_stats=True)
    redis_server.client().config_set("requirepass", REDIS_PASSWORD)
    redis_server.password = REDIS_PASSWORD
    shared = ["--cache-url", redis_server.url(db=3), "--run-group", "ci-run-42", "--max-cost", "5"]
    shard_files = run_shards(project, [*common, *shared], "machines", env)
    assert fresh_stub.stats()["requests"] == single_calls  # every call paid once, across machines too
    split = [
        j
        for j in range(TWINS)
        if hash_shard("scale", f"twin{j}-a", SHARDS) != hash_shard("scale", f"twin{j}-b", SHARDS)
    ]
    assert split  # some twins ran on different machines: their shared call was paid by one of them

    merged = harness(project, "merge", *map(str, shard_files))
    assert merged.returncode == 0, merged.stderr
    merged_run = json.loads((project.report_dir / (project.report_dir / "LATEST").read_text().strip()
                             / "results.json").read_text())  # fmt: skip
    assert outcomes(merged_run) == outcomes(single.run)  # same items, same scores
    same_totals = ("items", "passed", "failed", "errors", "mean_score", "score_interval", "input_tokens")
    assert {k: merged_run["totals"][k] for k in same_totals} == {k: single.run["totals"][k] for k in same_totals}
    assert merged_run["run"]["merged"]["count"] == SHARDS and merged_run["run"]["exit_status"] == 1
    assert (project.report_dir / "history" / f"{merged_run['run']['run_id']}.csv").is_file()
    import jsonschema
    from helpers import REPO

    jsonschema.validate(merged_run, json.loads((REPO / "harness/schemas/results.schema.json").read_text()))

    # the gate, once, on the merged run: the same verdict as on the single machine's run
    verdicts = {}
    for name, run_id in (("single", single.run["run"]["run_id"]), ("merged", merged_run["run"]["run_id"])):
        gated = harness(project, "compare", run_id, "--baseline", str(baseline), "--fail-on-regression", "--json")
        verdicts[name] = (
            gated.returncode,
            [(c["metric"], c["verdict"], c["delta"]) for c in json.loads(gated.stdout)["comparisons"]],
        )
    assert verdicts["merged"] == verdicts["single"] and verdicts["merged"][0] == 1
    assert ("score", "regressed", -100.0) in verdicts["merged"][1]

    # nothing secret reached Redis or a report; the run group's budget was shared
    stored = b"".join(
        redis_server.client(db=3).get(k) or b"" for k in redis_server.client(db=3).keys("harness:v1:entry:*")
    )
    assert stored and API_KEY.encode() not in stored
    spend = int(redis_server.client(db=3).get("harness:v1:spend:ci-run-42") or 0) / 1e6
    assert spend > 0 and spend == pytest.approx(merged_run["totals"]["cost_usd"], abs=1e-5)  # one ledger for all
    for path in [*project.root.rglob("*.json"), *project.root.rglob("*.md"), *project.root.rglob("*.csv")]:
        text = path.read_text(errors="replace")
        assert REDIS_PASSWORD not in text and API_KEY not in text, path
    assert json.loads(shard_files[0].read_text())["run"]["options"]["cache_url"].startswith("redis://[REDACTED]@")

    # run again on new cache folders: everything comes from Redis, nothing from upstream
    fresh_stub.control(reset_stats=True)
    again = run_shards(project, [*common, *shared], "new-machines", env)
    assert fresh_stub.stats()["requests"] == 0
    rerun = [json.loads(p.read_text()) for p in again]
    assert sum(r["totals"]["cache_hits"] for r in rerun) == TASKS + 2 * TWINS

    # a merge refuses a missing shard and a duplicated one, in one line each
    missing = harness(project, "merge", str(shard_files[0]), str(shard_files[2]))
    assert missing.returncode == 4 and missing.stderr.strip().count("\n") == 0
    assert f"shard 2/{SHARDS} is missing" in missing.stderr
    twice = harness(project, "merge", *map(str, shard_files), str(again[1]))
    assert twice.returncode == 4 and f"shard 2/{SHARDS} is given twice" in twice.stderr
    mixed = harness(project, "merge", str(shard_files[0]), str(again[1]), str(shard_files[2]))
    assert mixed.returncode == 0  # a shard re-run later on the same tasks and setup still belongs


def test_shards_on_one_rate_limited_key_settle_under_its_limit(project: Project, tmp_path: Path) -> None:
    """Three shards at --concurrency 8 each on a key that allows 4 calls in flight: the 429s of the start
    halve each shard's limit, and afterwards few calls are refused; every item ends well."""
    from harness.testing import running_stub

    write_suite(project, tasks=300, twins=0)
    with running_stub(max_in_flight=4, latency_s=0.05, retry_after_s=0.25) as stub:
        args = ["evals", *stub_args(stub), "--concurrency", "8", "--call-retries", "30", "--cache-mode", "off",
                "--no-html", "--progress-interval", "0"]  # fmt: skip
        files = run_shards(project, args, "rate-limited", {})
        stats = stub.stats()
    runs = [json.loads(f.read_text()) for f in files]
    assert sum(r["totals"]["errors"] for r in runs) == 0 and sum(r["totals"]["items"] for r in runs) == 300
    sequence = stats["sequence"]
    assert sequence.count("ok") == 300 and stats["peak_in_flight"] <= 4
    refused = sequence.count("429")
    later = sequence[len(sequence) // 2 :]
    # Without adaptation, 24 calls in flight against 4 places would be refused about five times in six.
    assert refused <= 0.5 * 300, refused
    assert later.count("429") <= 0.2 * len(later), (later.count("429"), len(later))


def test_under_xdist_a_shard_says_its_part_and_the_live_line_shows_the_workers_limits(project: Project) -> None:
    """With -n the controller collects nothing and calls nothing: the shard's line and the lowered limits
    reach it on the workers' reports. Two workers at --concurrency 4 on a key that allows one call in flight."""
    import re

    from harness.testing import running_stub

    write_suite(project, tasks=16, twins=0)
    with running_stub(max_in_flight=1, latency_s=0.3, retry_after_s=0.1) as stub:  # two calls at once: a 429
        out = project.pytest("evals", *stub_args(stub), "-n", "2", "--shard", "1/2", "--concurrency", "4",
                             "--call-retries", "30", "--cache-mode", "off", "--no-html", "--progress-interval",
                             "0.001")  # fmt: skip
        refused = stub.stats()["sequence"].count("429")
    assert out.returncode in (0, 1) and out.run["totals"]["errors"] == 0, out.stdout[-3000:]  # 1: wrong answers
    said = [line for line in out.stdout.splitlines() if line.startswith("harness: shard 1/2 (hash): ")]
    assert len(said) == 1 and "of 16 tasks" in said[0] and f"{out.run['run']['shard']['items']} of 16 items" in said[0]
    notes = [re.search(r", limit (\d+)/(\d+) \(http://127\.0\.0\.1:\d+/v1\)", line)
             for line in out.stdout.splitlines() if line.startswith("[harness] ")]  # fmt: skip
    lowered = [(int(m[1]), int(m[2])) for m in notes if m]
    assert refused > 0 and lowered, out.stdout[-3000:]
    assert all(low < ceiling == 8 for low, ceiling in lowered)  # two workers' limits, each under its ceiling of 4
