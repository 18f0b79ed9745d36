"""`harness merge` on a large run: 5,000 items in N shards joined into one run.

Builds the synthetic 5,000-item run of bench_html.py (texts of realistic length, calls, trajectories,
judges), splits it into N shard runs by the same hash --shard uses, writes each shard's results.json, then
times, best of --repeats:
- the floor: reading the shards' results.json files alone (json's C decoder), the least any merge spends;
- `harness merge` in process (reading, the checks, the merged document, redaction, the history file,
  results.json, summary.md), with and without report.html;
- the whole command as a new process (`python -m harness.cli merge`: interpreter and imports included).

Target: the whole command under 10 s for 5,000 items.

  python bench/bench_merge.py [--items 5000] [--shards 4] [--repeats 3]
"""

from __future__ import annotations

import argparse
import contextlib
import io
import json
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

from bench_html import best_of, synthetic_run

from harness.cli import main as harness_main
from harness.run_inputs import digest, task_line
from harness.sharding import hash_shard

TARGET_S = 10.0


def shard_runs(run: dict[str, Any], count: int) -> list[dict[str, Any]]:
    """The run as `count` shard runs: whole tasks by hash, each with its run.shard and run.inputs."""
    tasks_in_run = len({(r["suite"], r["task_id"]) for r in run["results"]})
    inputs = {"tasks": tasks_in_run, "items": len(run["results"]), "task_set": "0" * 64, "task_files": "1" * 64,
              "fixtures": {"digest": "2" * 64}, "prompts": {}}  # fmt: skip
    shards = []
    for k in range(count):
        results = [r for r in run["results"] if hash_shard(r["suite"], r["task_id"], count) == k]
        tasks = {(r["suite"], r["task_id"]) for r in results}
        meta = {**run["run"], "run_id": f"20260101T00000{k}000Z-shard{k}", "inputs": inputs,
                "started_at": "2026-01-01T00:00:00+00:00", "finished_at": "2026-01-01T00:10:00+00:00",
                "shard": {"index": k + 1, "count": count, "balance": "hash", "tasks": len(tasks),
                          "items": len(results), "task_digest": digest(task_line(*t) for t in tasks),
                          "history_digest": None, "group": "bench"}}  # fmt: skip
        shards.append({**run, "run": meta, "results": results})
    return shards


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--items", type=int, default=5000)
    parser.add_argument("--shards", type=int, default=4)
    parser.add_argument("--repeats", type=int, default=3)
    args = parser.parse_args()
    run = synthetic_run(args.items)
    with tempfile.TemporaryDirectory() as folder:
        root = Path(folder)
        paths = []
        for shard in shard_runs(run, args.shards):
            path = root / "shards" / shard["run"]["run_id"] / "results.json"
            path.parent.mkdir(parents=True)
            path.write_text(json.dumps(shard, ensure_ascii=False), encoding="utf-8")
            paths.append(str(path))
        size = sum(Path(p).stat().st_size for p in paths) / 1e6

        def merge(*extra: str) -> int:
            with contextlib.redirect_stdout(io.StringIO()):
                return harness_main(["merge", *paths, "--output", str(root / "merged"), *extra])

        floor_s, _ = best_of(args.repeats, lambda: [json.loads(Path(p).read_text(encoding="utf-8")) for p in paths])
        assert merge("--no-html") == 0  # imports and matplotlib's first load are not the merge's cost
        assert merge() == 0
        quick_s, _ = best_of(args.repeats, lambda: merge("--no-html"))
        full_s, _ = best_of(args.repeats, merge)
        command = [sys.executable, "-m", "harness.cli", "merge", *paths, "--output", str(root / "merged")]
        process_s, _ = best_of(args.repeats, lambda: subprocess.run(command, check=True, capture_output=True))
    print(f"{args.items} items in {args.shards} shards ({size:.1f} MB of results.json):")
    print(f"  floor (reading the shards' results.json alone): {floor_s:.2f} s")
    print(f"  harness merge --no-html, in process: {quick_s:.2f} s ({quick_s / floor_s:.1f}x the floor)")
    print(f"  harness merge with report.html, in process: {full_s:.2f} s ({full_s / floor_s:.1f}x the floor)")
    print(f"  harness merge as a new process (start-up included): {process_s:.2f} s (target under {TARGET_S:g} s)")


if __name__ == "__main__":
    main()
