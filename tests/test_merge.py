"""`harness merge`'s checks (pure) and the merged document: shards 1..N each once, equal in everything that
makes their scores one run's, and complete; the merge keeps every item and recomputes the aggregates."""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

import pytest

from harness.report.merge import MergeError, Shard, check_shards, merge_runs, read_shard
from harness.run_inputs import digest


def result(task: str, score: float, suite: str = "s") -> dict[str, Any]:
    return {
        "nodeid": f"evals/{suite}/t.yaml::{task}", "task_id": task, "task_version": 1, "suite": suite, "kind": "qa",
        "variant": None, "repeat": 0, "labels": {}, "metadata": {}, "worker": None, "score": score,
        "pass_threshold": 50.0, "passed": score >= 50, "outcome": "passed" if score >= 50 else "failed",
        "answer": "a", "metrics": {}, "judge_levels": {}, "details": {}, "judges": [], "error": None,
        "usage": {"calls": 1, "input_tokens": 10, "output_tokens": 2, "cost_usd": 0.001, "cost_known": True,
                  "cache_hits": 0, "errors": 0, "by_stage": {}},
        "calls": [], "latency_s": 0.5,
    }  # fmt: skip


def shard(index: int, count: int, tasks: list[str], **run_changes: Any) -> Shard:
    results = [result(t, 40.0 + 10 * i) for i, t in enumerate(tasks)]
    meta = {
        "run_id": f"2026010{index}T000000000Z-abc00{index}", "harness_version": "0.1.0",
        "started_at": f"2026-01-01T00:0{index}:00+00:00", "finished_at": f"2026-01-01T00:0{index}:30+00:00",
        "duration_s": 30.0, "git": {"revision": "abc", "dirty": False}, "python": "3.11", "platform": "linux",
        "argv": [], "options": {"model": "openai/m", "agent": None, "judge_models": ["openai/j"],
        "embedding_model": "openai/e", "repeats": 1, "concurrency": 16, "cache_mode": "use",
        "cache_url": f"redis://host-{index}:6379/0"},
        "exit_status": 1 if index == 1 else 0, "local_models": False, "notice": None,
        "warnings": ["same warning", f"warning of shard {index}"],
        "inputs": {"tasks": 6, "items": 6, "task_set": "a" * 64, "task_files": "b" * 64,
                   "fixtures": {"digest": "c" * 64, "files": 1, "bytes": 1, "by": "content"},
                   "prompts": {"project": "d" * 64, "builtin": "e" * 64}, "harness_source": "1" * 64,
                   "price_file": None, "item_ids": digest(f"evals/s/t.yaml::{t}" for t in "abcdef")},
        "shard": {"index": index, "count": count, "balance": "hash", "tasks": len(tasks), "items": len(tasks),
                  "task_digest": "f" * 64, "history_digest": None, "group": "ci-1",
                  "selected": [f"evals/s/t.yaml::{t}" for t in tasks]},
    }  # fmt: skip
    run = {"schema_version": 2, "run": meta, "results": results}
    for path, value in run_changes.items():
        target = run["run"]
        *parents, leaf = path.split(".")
        for name in parents:
            target = target[name]
        target[leaf] = value
    return Shard(f"shard-{index}.json", run)


def three() -> list[Shard]:
    return [shard(1, 3, ["a", "b"]), shard(2, 3, ["c", "d"]), shard(3, 3, ["e", "f"])]


def problem(shards: list[Shard]) -> str:
    with pytest.raises(MergeError) as caught:
        check_shards(shards)
    message = str(caught.value)
    assert "\n" not in message
    return message


def test_complete_shards_pass_in_any_order() -> None:
    shards = three()
    check_shards(shards[::-1])
    merged = merge_runs(shards[::-1], "merged-id", ["harness", "merge"])
    assert [r["task_id"] for r in merged["results"]] == list("abcdef")
    assert merged["totals"]["items"] == 6 and merged["totals"]["cost_usd"] == pytest.approx(0.006)
    meta = merged["run"]
    assert meta["exit_status"] == 1 and meta["duration_s"] == 150.0
    assert meta["warnings"] == ["same warning", "warning of shard 1", "warning of shard 2", "warning of shard 3"]
    assert [s["index"] for s in meta["merged"]["shards"]] == [1, 2, 3] and meta["merged"]["group"] == "ci-1"
    assert "shard" not in meta and meta["inputs"]["items"] == 6


def test_a_gap_a_duplicate_and_a_foreign_split_are_named() -> None:
    a, b, c = three()
    assert problem([a, c]) == "shard 2/3 is missing (given: 1, 3 of 3)"
    assert problem([a]) == "shard 2/3, 3/3 are missing (given: 1 of 3)"
    again = Shard("again.json", copy.deepcopy(b.run))
    assert problem([a, b, again, c]) == "shard 2/3 is given twice: shard-2.json and again.json"
    assert "different numbers of shards" in problem([a, b, shard(3, 4, ["e", "f"])])
    assert problem([]) == "no shards given"


@pytest.mark.parametrize(
    ("change", "named"),
    [
        ({"harness_version": "0.2.0"}, "harness version"),
        ({"git.revision": "def"}, "git revision"),
        ({"options.judge_models": ["openai/other"]}, "option judge_models"),
        ({"options.embedding_model": "openai/e2"}, "option embedding_model"),
        ({"options.concurrency": 8}, "option concurrency"),
        ({"inputs.task_set": "9" * 64}, "the items selected (task set)"),
        ({"inputs.fixtures": {"digest": "9" * 64}}, "the fixtures"),
        ({"inputs.prompts": {"project": "9" * 64, "builtin": "e" * 64}}, "the prompt templates"),
        ({"inputs.harness_source": "9" * 64}, "the harness's own files (its code)"),
        ({"inputs.price_file": "9" * 64}, "the price file (--price-file)"),
        ({"shard.group": "ci-2"}, "run group (--run-group)"),
        ({"shard.balance": "history"}, "balance (--shard-balance)"),
    ],
)
def test_a_mismatch_is_named(change: dict[str, Any], named: str) -> None:
    a, _, c = three()
    message = problem([a, shard(2, 3, ["c", "d"], **change), c])
    assert message.startswith(f"shard 2/3 (shard-2.json) differs from shard 1/3 (shard-1.json) in {named}: ")


def test_where_the_cache_lived_may_differ() -> None:
    shards = three()
    assert len({s.run["run"]["options"]["cache_url"] for s in shards}) == 3
    check_shards(shards)


def test_an_interrupted_shard_and_overlapping_shards_are_refused() -> None:
    a, b, c = three()
    b.run["results"].pop()
    assert "holds 1 results but ran 2 items: was it interrupted?" in problem([a, b, c])
    a, b, c = three()
    c.run["results"][0] = result("a", 10.0)
    assert problem([a, b, c]).startswith("item evals/s/t.yaml::a is in both shard 1/3")
    a, b, c = three()
    for s in (a, b, c):
        s.run["run"]["inputs"]["items"] = 8
    assert "the shards hold 6 items but the run selected 8" in problem([a, b, c])


def test_what_is_not_a_shard_is_refused(tmp_path: Path) -> None:
    plain = tmp_path / "plain.json"
    plain.write_text(json.dumps({"run": {"run_id": "x"}, "results": []}))
    with pytest.raises(MergeError, match=r"not a shard's run .*--shard K/N"):
        read_shard(tmp_path, str(plain))
    broken = tmp_path / "broken.json"
    broken.write_text("{")
    with pytest.raises(MergeError, match=r"not a readable results\.json"):
        read_shard(tmp_path, str(broken))
    with pytest.raises(MergeError, match="no-such-run"):
        read_shard(tmp_path, "no-such-run")


def test_a_shards_report_folder_stands_for_its_latest_run(tmp_path: Path) -> None:
    """A shard run again (a retried Kubernetes index, a re-run CI job) leaves two runs in its report folder:
    the folder names the newer, so `harness merge /runs/shard-*` takes each shard once."""
    folder = tmp_path / "shard-2"
    for index, run_id in enumerate(("20260101T000000000Z-old000", "20260102T000000000Z-new000")):
        run = shard(2, 3, ["c", "d"], run_id=run_id, exit_status=index).run
        (folder / run_id).mkdir(parents=True)
        (folder / run_id / "results.json").write_text(json.dumps(run))
    (folder / "LATEST").write_text("20260102T000000000Z-new000\n")
    chosen = read_shard(tmp_path / "elsewhere", str(folder))
    assert chosen.run["run"]["run_id"] == "20260102T000000000Z-new000"


def test_merge_checks_which_items_not_only_how_many() -> None:
    """The count and the ids alone would pass each of these: a failed item swapped for a copy of a passed
    one, a result renamed to a task never selected, a shard's selection edited to match."""
    a, b, c = three()
    copied = {**a.run["results"][0], "nodeid": "evals/s/t.yaml::b"}  # b (failed, 50) replaced by a copy of a
    a.run["results"][1] = copied
    assert problem([a, b, c]) == (
        "shard 1/3 (shard-1.json): item evals/s/t.yaml::b holds the result of task 'a' (variant None, repeat 0): "
        "a result copied or renamed"
    )
    a, b, c = three()
    b.run["results"][1] = {**result("z", 90.0), "nodeid": "evals/s/t.yaml::z"}
    assert problem([a, b, c]) == (
        "shard 2/3 (shard-2.json) holds item evals/s/t.yaml::z, which it did not select: a foreign or renamed result"
    )
    b.run["run"]["shard"]["selected"] = ["evals/s/t.yaml::c", "evals/s/t.yaml::z"]  # its selection edited too
    assert problem([a, b, c]).startswith("the shards' items together are not the items the run selected")
    a, b, c = three()
    b.run["run"]["shard"]["selected"].append("evals/s/t.yaml::e")
    assert (
        problem([a, b, c])
        == "shard 2/3 (shard-2.json) lacks item evals/s/t.yaml::e, which it selected: run that shard again"
    )
    a, b, c = three()
    del b.run["run"]["shard"]["selected"]
    assert "run.shard.selected (the items it selected) is missing" in problem([a, b, c])


def test_real_shards_with_an_edited_result_do_not_merge(project: Any, stub: Any, tmp_path: Path) -> None:
    """Two real shards of the sample: they merge as they are; a failed item swapped for a copy of a passed
    one, or renamed to a task never selected, is one line and exit 4."""
    import subprocess
    import sys

    from helpers import stub_args

    project.copy_sample()
    stub.control(answers={"capital of France": "Paris"})
    files = []
    for k in (1, 2):
        out = project.pytest("evals/sample/facts.yaml", *stub_args(stub), "--shard", f"{k}/2", "--no-html")
        run_id = (project.report_dir / "LATEST").read_text().strip()
        files.append(project.report_dir / run_id / "results.json")
        assert out.returncode in (0, 1), out.stdout[-2000:]

    def merge(*paths: Path) -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            [sys.executable, "-m", "harness.cli", "merge", *map(str, paths), "--no-html", "--output", str(tmp_path)],
            capture_output=True, text=True, cwd=project.root, timeout=120,
        )  # fmt: skip

    assert merge(*files).returncode == 0
    runs = [json.loads(f.read_text()) for f in files]
    owner = next(r for r in runs if any(x["outcome"] == "passed" for x in r["results"]))
    passed = next(x for x in owner["results"] if x["outcome"] == "passed")
    failed_at = next(i for i, x in enumerate(owner["results"]) if x["outcome"] == "failed")
    swapped = copy.deepcopy(owner)
    swapped["results"][failed_at] = {**passed, "nodeid": owner["results"][failed_at]["nodeid"]}
    renamed = copy.deepcopy(owner)
    renamed["results"][failed_at] |= {
        "nodeid": "evals/sample/facts.yaml::capital-atlantis",
        "task_id": "capital-atlantis",
    }
    for edited, expected in ((swapped, "a result copied or renamed"), (renamed, "which it did not select")):
        path = tmp_path / "edited.json"
        path.write_text(json.dumps(edited))
        out = merge(*(path if f_run is owner else f for f, f_run in zip(files, runs, strict=True)))
        assert out.returncode == 4 and out.stderr.count("\n") == 1 and expected in out.stderr, out.stderr
