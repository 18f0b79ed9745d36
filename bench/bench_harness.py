"""Throughput of the whole harness against the stub server, whole process, as a user runs it.

Workload: 400 judged tasks, each making one system-under-test call and one judge call (800 calls), against
the OpenAI-compatible stub with 200 ms latency. Prints, median of N runs:
  - wall time at --concurrency 64 and 16 next to the ideal (calls x latency / concurrency),
  - CPU time per call (user + sys of the pytest process, divided by 800),
  - peak memory (max RSS) of the pytest process,
  - a bare aiohttp client on the same calls in the same run (the floor, and a check of the machine's scale),
  - the wall time of a fully cached rerun,
  - `pytest --collect-only` of 1,000 tasks.

    python bench/bench_harness.py [--repeats 3] [--items 400] [--latency 0.2]
"""

from __future__ import annotations

import argparse
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from harness.testing import running_stub

TARGETS = {
    "wall_64": "faster than deepeval 5.3 s, promptfoo 8.0 s, inspect_ai 14.3 s (bare aiohttp client: 3.1 s)",
    "cpu_per_call": "at most 3 ms",
    "cached": "under 5 s",
    "collect": "under 2 s",
}


def write_tasks(root: Path, count: int, per_file: int = 100) -> None:
    """Judged tasks: every item makes exactly one system call and one judge call."""
    suite = root / "evals" / "bench"
    suite.mkdir(parents=True, exist_ok=True)
    for file_index in range(0, count, per_file):
        lines = [
            "suite: bench",
            "defaults:",
            "  kind: qa",
            "  version: 1",
            "  scoring: {method: judge}",
            "  metadata: {expert_minutes: 1, tags: [bench]}",
            "tasks:",
        ]
        for i in range(file_index, min(count, file_index + per_file)):
            lines += [
                f"  - id: t{i:05d}",
                f'    inputs: {{prompt: "Question number {i}: what is {i} plus one?"}}',
                f'    ground_truth: {{answer: "{i + 1}"}}',
            ]
        (suite / f"tasks_{file_index // per_file:03d}.yaml").write_text("\n".join(lines) + "\n")
    (root / "pytest.ini").write_text("[pytest]\n")


def run_pytest(root: Path, args: list[str]) -> tuple[float, float, int, str]:
    """(wall s, CPU s, peak RSS KiB, tail of output) of one pytest process."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    started = time.perf_counter()
    done = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", *args],
        cwd=root,
        capture_output=True,
        text=True,
    )
    wall = time.perf_counter() - started
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    if done.returncode not in (0, 1):
        raise SystemExit(f"pytest failed ({done.returncode}):\n{done.stdout[-3000:]}\n{done.stderr[-3000:]}")
    return wall, cpu, after.ru_maxrss, done.stdout.strip().splitlines()[-1]


BARE_CLIENT = """
import asyncio, json, sys, aiohttp
async def main(url, calls, concurrency):
    limit = asyncio.Semaphore(concurrency)
    async with aiohttp.ClientSession(connector=aiohttp.TCPConnector(limit=0)) as session:
        async def one(i):
            async with limit:
                body = {"model": "bare", "messages": [{"role": "user", "content": f"Question number {i}"}]}
                async with session.post(url, data=json.dumps(body), headers={"Content-Type": "application/json"}) as r:
                    json.loads(await r.read())
        await asyncio.gather(*(one(i) for i in range(calls)))
asyncio.run(main(sys.argv[1], int(sys.argv[2]), int(sys.argv[3])))
"""


def run_bare_client(url: str, calls: int, concurrency: int) -> tuple[float, float]:
    """(wall s, CPU s) of a bare aiohttp client making the same calls: the floor on this machine, today."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    started = time.perf_counter()
    subprocess.run([sys.executable, "-c", BARE_CLIENT, url, str(calls), str(concurrency)], check=True)
    wall = time.perf_counter() - started
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return wall, (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--items", type=int, default=400)
    parser.add_argument("--latency", type=float, default=0.2)
    args = parser.parse_args()
    calls = 2 * args.items
    answers = {f"Question number {i}:": str(i + 1) for i in range(args.items)}
    with tempfile.TemporaryDirectory() as tmp, running_stub(latency_s=args.latency, answers=answers) as stub:
        root = Path(tmp)
        write_tasks(root, args.items)
        common = [
            "evals",
            "--model",
            "openai/bench-sut",
            "--api-base",
            stub.api_base,
            "--judge-model",
            "openai/bench-judge",
            "--report-dir",
            str(root / "reports"),
            "--progress-interval",
            "0",
        ]
        print(
            f"harness benchmark: {args.items} items, {calls} calls, {args.latency * 1000:.0f} ms latency, "
            f"median of {args.repeats}, whole pytest process (start-up included); {os.cpu_count()} CPUs"
        )
        for concurrency in (64, 16):
            walls, cpus, rss = [], [], []
            for _ in range(args.repeats):
                wall, cpu, peak, tail = run_pytest(
                    root, [*common, "--concurrency", str(concurrency), "--cache-mode", "off"]
                )
                walls.append(wall)
                cpus.append(cpu)
                rss.append(peak)
            ideal = calls * args.latency / concurrency
            print(
                f"  concurrency {concurrency:>2}: wall {statistics.median(walls):.2f} s (ideal {ideal:.2f} s), "
                f"CPU {statistics.median(cpus) / calls * 1000:.2f} ms/call, peak RSS {max(rss) / 1024:.0f} MiB"
                f"   [{tail}]"
            )
        bare = [run_bare_client(f"{stub.api_base}/chat/completions", calls, 64) for _ in range(args.repeats)]
        print(
            f"  bare aiohttp client, same {calls} calls at 64, same run: wall "
            f"{statistics.median(b[0] for b in bare):.2f} s, "
            f"CPU {statistics.median(b[1] for b in bare) / calls * 1000:.2f} ms/call"
            "   (the floor; the reference figures below were measured once on this machine, not here)"
        )
        print(f"    targets: wall at 64 {TARGETS['wall_64']}; CPU per call {TARGETS['cpu_per_call']}")
        cache_dir = root / "cache"
        run_pytest(root, [*common, "--concurrency", "64", "--cache-dir", str(cache_dir)])
        cached = [
            run_pytest(root, [*common, "--concurrency", "64", "--cache-dir", str(cache_dir), "--cache-mode", "replay"])
            for _ in range(args.repeats)
        ]
        print(
            f"  fully cached rerun ({args.items} items): wall {statistics.median(c[0] for c in cached):.2f} s, "
            f"CPU {statistics.median(c[1] for c in cached):.2f} s   (target {TARGETS['cached']})"
        )
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        write_tasks(root, 1000)
        collected = [run_pytest(root, ["evals", "--collect-only"]) for _ in range(args.repeats)]
        print(
            f"  pytest --collect-only of 1,000 tasks: wall {statistics.median(c[0] for c in collected):.2f} s "
            f"(target {TARGETS['collect']})   [{collected[0][3]}]"
        )


if __name__ == "__main__":
    main()
