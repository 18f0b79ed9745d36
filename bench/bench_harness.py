"""Throughput of the whole harness against the stub server, whole process, as a user runs it.

Workload W: 400 judged tasks, each making one system-under-test call and then one judge call that depends
on its reply (800 calls), against the OpenAI-compatible stub with 200 ms latency, in the default cache
mode (a fresh cache each run, so every call is made and stored), with report.html on. The floor is a bare
aiohttp client doing the same shape of work in the same run: per item a system call, then a judge call
carrying its answer, with the same number of calls in flight. Runs are interleaved (harness, floor,
harness, floor...) so the machine's mood affects both alike. Prints, median of N runs:
  - W at --concurrency 64 and 16: wall time of each, the ratio harness / floor (target: at most 1.25x at
    64), CPU per call (user + sys of the whole process / 800), peak memory; at 64 also with --no-html;
  - the two costs apart: the marginal CPU per call, the slope between W at 400 and at 1,600 items (target:
    at most 2.0 ms), and the fixed cost, the wall time of a run of one item against a stub that answers at
    once (start-up, collection, two calls and the report; target: at most 1.5 s);
  - 1,000 items that fail their threshold and 1,000 that error, against 1,000 that pass (target: at most
    1.5x the passing run's wall time);
then the wall time of a fully cached rerun and `pytest --collect-only` of 1,000 tasks.

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

TARGETS = {64: {"ratio": 1.25, "cpu_ms": 2.5}, 16: {"ratio": None, "cpu_ms": 3.0}}
OTHER_TARGETS = {"cached": "under 5 s", "collect": "under 2 s"}
MARGINAL_CPU_MS, FIXED_S, FAILING_RATIO = 2.0, 1.5, 1.5


def write_tasks(root: Path, count: int, per_file: int = 100, method: str = "judge", wrong: bool = False) -> None:
    """Judged tasks: every item makes exactly one system call and one judge call. With method "exact",
    one call per item, scored in code; `wrong` makes every expected answer one the stub never gives."""
    import shutil

    suite = root / "evals" / "bench"
    shutil.rmtree(suite, ignore_errors=True)
    suite.mkdir(parents=True, exist_ok=True)
    for file_index in range(0, count, per_file):
        lines = [
            "suite: bench",
            "defaults:",
            "  kind: qa",
            "  version: 1",
            f"  scoring: {{method: {method}}}",
            "  metadata: {expert_minutes: 1, tags: [bench]}",
            "tasks:",
        ]
        for i in range(file_index, min(count, file_index + per_file)):
            lines += [
                f"  - id: t{i:05d}",
                f'    inputs: {{prompt: "Question number {i}: what is {i} plus one?"}}',
                f'    ground_truth: {{answer: "{"x" if wrong else i + 1}"}}',
            ]
        (suite / f"tasks_{file_index // per_file:03d}.yaml").write_text("\n".join(lines) + "\n")
    (root / "pytest.ini").write_text("[pytest]\n")


# Bytecode as a user's machine has it after its first run: Python's own, and pytest's assertion-rewritten
# copies of the plugin's modules (pytest rewrites every module of a plugin's package, and caches the result
# only where bytecode may be written). Where PYTHONDONTWRITEBYTECODE is set, as on this project's build
# machine, every start would otherwise parse and compile each harness module again; `main` warms up once.
USER_ENVIRONMENT = {name: value for name, value in os.environ.items() if name != "PYTHONDONTWRITEBYTECODE"}


def run_pytest(root: Path, args: list[str]) -> tuple[float, float, int, str]:
    """(wall s, CPU s, peak RSS KiB, tail of output) of one pytest process."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    started = time.perf_counter()
    done = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", *args],
        cwd=root,
        capture_output=True,
        text=True,
        env=USER_ENVIRONMENT,
    )
    wall = time.perf_counter() - started
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    if done.returncode not in (0, 1):
        raise SystemExit(f"pytest failed ({done.returncode}):\n{done.stdout[-3000:]}\n{done.stderr[-3000:]}")
    return wall, cpu, after.ru_maxrss, done.stdout.strip().splitlines()[-1]


FLOOR_CLIENT = """
import asyncio, json, sys, aiohttp
JUDGE = ("You grade answers. Compare the candidate answer with the reference answer. Reply with JSON: "
         '{"reasoning": "...", "grade": "correct" | "partially_correct" | "incorrect"}')
SCHEMA = {"type": "json_schema", "json_schema": {"name": "CorrectnessVerdict", "schema": {"type": "object",
    "properties": {"reasoning": {"type": "string"}, "grade": {"enum": ["correct", "partially_correct", "incorrect"]}},
    "required": ["reasoning", "grade"]}}}
async def main(url, items, concurrency):
    limit = asyncio.Semaphore(concurrency)
    async with aiohttp.ClientSession(connector=aiohttp.TCPConnector(limit=0)) as session:
        async def call(body):
            async with limit:
                async with session.post(url, data=json.dumps(body), headers={"Content-Type": "application/json"}) as r:
                    return json.loads(await r.read())["choices"][0]["message"]["content"]
        async def item(i):
            question = f"Question number {i}: what is {i} plus one?"
            answer = await call({"model": "bench-sut", "messages": [{"role": "user", "content": question}]})
            grade = JUDGE + f"\\nQuestion: {question}\\nReference answer: {i + 1}\\nCandidate answer: {answer}"
            await call({"model": "bench-judge", "messages": [{"role": "user", "content": grade}],
                        "temperature": 0, "max_tokens": 1024, "response_format": SCHEMA})
        await asyncio.gather(*(item(i) for i in range(items)))
asyncio.run(main(sys.argv[1], int(sys.argv[2]), int(sys.argv[3])))
"""


def run_floor(url: str, items: int, concurrency: int) -> tuple[float, float]:
    """(wall s, CPU s) of a bare aiohttp client doing workload W's shape: the floor on this machine, now."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    started = time.perf_counter()
    subprocess.run(
        [sys.executable, "-c", FLOOR_CLIENT, url, str(items), str(concurrency)], check=True, env=USER_ENVIRONMENT
    )
    wall = time.perf_counter() - started
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return wall, (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def verdict(value: float, limit: float | None) -> str:
    if limit is None:
        return ""
    return f" (target at most {limit:g}: {'met' if value <= limit else 'NOT met'})"


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
            "--judge-api-base",
            stub.api_base,
            "--report-dir",
            str(root / "reports"),
            "--progress-interval",
            "0",
        ]
        run_pytest(root, [*common, "--concurrency", "64", "--cache-dir", str(root / "warm-up")])  # bytecode, once
        print(
            f"harness benchmark: {args.items} items, {calls} calls, {args.latency * 1000:.0f} ms latency, "
            f"median of {args.repeats}, whole pytest process (start-up included); {os.cpu_count()} CPUs"
        )
        for concurrency in (64, 16):
            harness_runs, floor_runs, rss, bare_runs = [], [], [], []
            for repeat in range(args.repeats):
                cache = root / f"cache-{concurrency}-{repeat}"  # a fresh cache: every call is made and stored
                wall, cpu, peak, tail = run_pytest(
                    root, [*common, "--concurrency", str(concurrency), "--cache-dir", str(cache)]
                )
                harness_runs.append((wall, cpu))
                rss.append(peak)
                floor_runs.append(run_floor(f"{stub.api_base}/chat/completions", args.items, concurrency))
                if concurrency == 64:  # the same run without report.html: what the report's charts cost
                    bare = root / f"cache-bare-{repeat}"
                    bare_runs.append(
                        run_pytest(root, [*common, "--concurrency", "64", "--cache-dir", str(bare), "--no-html"])
                    )
            if concurrency == 64:
                small_runs = list(harness_runs)
            wall_h = statistics.median(w for w, _ in harness_runs)
            wall_f = statistics.median(w for w, _ in floor_runs)
            cpu_h = statistics.median(c for _, c in harness_runs) / calls * 1000
            cpu_f = statistics.median(c for _, c in floor_runs) / calls * 1000
            ideal = calls * args.latency / concurrency
            target = TARGETS[concurrency]
            print(f"  concurrency {concurrency}: (ideal wall {ideal:.2f} s)   [{tail}]")
            print(
                f"    harness {wall_h:.2f} s, floor {wall_f:.2f} s: ratio {wall_h / wall_f:.2f}x"
                + verdict(round(wall_h / wall_f, 2), target["ratio"])
            )
            print(
                f"    CPU per call: harness {cpu_h:.2f} ms, floor {cpu_f:.2f} ms"
                + verdict(round(cpu_h, 2), target["cpu_ms"])
                + f"; peak RSS {max(rss) / 1024:.0f} MiB"
            )
            if bare_runs:
                wall_b = statistics.median(b[0] for b in bare_runs)
                cpu_b = statistics.median(b[1] for b in bare_runs) / calls * 1000
                print(
                    f"    without report.html (--no-html): {wall_b:.2f} s, ratio {wall_b / wall_f:.2f}x, CPU per call "
                    f"{cpu_b:.2f} ms: the report costs "
                    f"{wall_h - wall_b:.2f} s and {(cpu_h - cpu_b) * calls / 1000:.2f} s of CPU per run, not per call"
                )
        big = 4 * args.items
        write_tasks(root, big)
        marginal = []
        for repeat in range(args.repeats):
            _, cpu_big, _, _ = run_pytest(
                root, [*common, "--concurrency", "64", "--cache-dir", str(root / f"big-{repeat}")]
            )
            marginal.append(cpu_big)
        write_tasks(root, args.items)
        cpu_small = statistics.median(c for _, c in small_runs)
        slope = (statistics.median(marginal) - cpu_small) / (2 * big - calls) * 1000
        print(
            f"  marginal cost: CPU per call between W at {args.items} and at {big} items {slope:.2f} ms"
            + verdict(round(slope, 2), MARGINAL_CPU_MS)
        )
        cache_dir = root / "cache"
        run_pytest(root, [*common, "--concurrency", "64", "--cache-dir", str(cache_dir)])
        cached = [
            run_pytest(root, [*common, "--concurrency", "64", "--cache-dir", str(cache_dir), "--cache-mode", "replay"])
            for _ in range(args.repeats)
        ]
        print(
            f"  fully cached rerun ({args.items} items): wall {statistics.median(c[0] for c in cached):.2f} s, "
            f"CPU {statistics.median(c[1] for c in cached):.2f} s   (target {OTHER_TARGETS['cached']})"
        )
    answers = {f"Question number {i}:": str(i + 1) for i in range(1000)}
    with tempfile.TemporaryDirectory() as tmp, running_stub(latency_s=0.0, answers=answers) as stub:
        root = Path(tmp)
        common = [
            "evals", "--model", "openai/bench-sut", "--api-base", stub.api_base, "--judge-model", "openai/bench-judge",
            "--judge-api-base", stub.api_base, "--report-dir", str(root / "reports"), "--progress-interval", "0",
            "--concurrency", "64",
        ]  # fmt: skip
        write_tasks(root, 1)
        fixed = [run_pytest(root, [*common, "--cache-dir", str(root / f"one-{r}")])[0] for r in range(args.repeats)]
        print(
            f"  fixed cost: a run of one item, report.html included, {statistics.median(fixed):.2f} s"
            + verdict(round(statistics.median(fixed), 2), FIXED_S)
        )
        timings = {}
        for label, method, wrong, extra in (
            ("passing", "exact", False, []),
            ("failing", "exact", True, []),
            ("erroring", "exact", False, ["--cache-mode", "replay"]),
        ):
            write_tasks(root, 1000, method=method, wrong=wrong)
            runs = [
                run_pytest(root, [*common, "--no-html", "--cache-dir", str(root / f"{label}-{r}"), *extra])
                for r in range(args.repeats)
            ]
            timings[label] = (statistics.median(w for w, *_ in runs), runs[0][3])
        passing = timings["passing"][0]
        for label, (wall, tail) in timings.items():
            ratio = wall / passing
            check = "" if label == "passing" else verdict(round(ratio, 2), FAILING_RATIO)
            print(f"  1,000 {label} items: {wall:.2f} s, {ratio:.2f}x the passing run{check}   [{tail}]")
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        write_tasks(root, 1000)
        collected = [run_pytest(root, ["evals", "--collect-only"]) for _ in range(args.repeats)]
        print(
            f"  pytest --collect-only of 1,000 tasks: wall {statistics.median(c[0] for c in collected):.2f} s "
            f"(target {OTHER_TARGETS['collect']})   [{collected[0][3]}]"
        )


if __name__ == "__main__":
    main()
