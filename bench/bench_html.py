"""The HTML report on a large run: size, render time and (where Chromium is installed) time to open.

Builds a synthetic run document of 5,000 items over three suites with texts of realistic length (a
prompt shared by a task's repeats, an answer, judges' reasoning, calls, a tool trajectory), then
- renders report.html (`harness.report.html.render_html`) and prints its time and size next to the
  floor: serialising the same run document as results.json (json's C encoder), the least any report
  of the same data must spend, and its size;
- opens the page in headless Chromium, when /usr/bin/chromium and Playwright are present, and prints
  the time to the load event and to a full-page layout, next to the load of a page with as many bytes
  of the same text in plain paragraphs (the floor for getting that much text into a browser).

Targets: render within 10x the JSON floor, page under 40 MB, load under 5 s.

  python bench/bench_html.py [--items 5000] [--repeats 3]
"""

from __future__ import annotations

import argparse
import json
import random
import shutil
import statistics
import tempfile
import time
from pathlib import Path
from typing import Any

from harness.report.aggregate import by_suite, summarize
from harness.report.html import render_html
from harness.report.tables import compute_tables

_VOCABULARY = (
    "candidate team platform latency revenue sourcing hiring manager pipeline founder series funding vendor "
    "benchmark recipe itinerary museum budget creator audience campaign engagement region contract migration "
    "warehouse kernel compiler retention onboarding clinic logistics rail ferry pastry espresso archive"
)
WORDS = tuple(_VOCABULARY.split())


def _text(rng: random.Random, words: int) -> str:
    sentences, current = [], []
    for _ in range(words):
        current.append(rng.choice(WORDS))
        if len(current) > rng.randint(8, 18):
            sentences.append(" ".join(current).capitalize() + ".")
            current = []
    return " ".join([*sentences, " ".join(current)])


def synthetic_run(items: int, seed: int = 7) -> dict[str, Any]:
    rng = random.Random(seed)
    kinds = [("recruitment", "company_mapping"), ("gem", "gem"), ("marketing", "influencer_search")]
    prompts: dict[str, str] = {}
    results = []
    for n in range(items):
        suite, kind = kinds[n % 3]
        task = f"{kind}-{n // 9:04d}"
        repeat = (n // 3) % 3
        prompt = prompts.setdefault(task, _text(rng, 450))
        score = float(rng.choice([0, 25, 50, 75, 100]))
        steps = [
            {"tool": rng.choice(["search", "open"]), "arguments": json.dumps({"query": _text(rng, 5)}),
             "result_digest": f"{rng.getrandbits(64):016x}", "result_chars": rng.randint(200, 4000),
             "result_preview": _text(rng, 40), "step": s}
            for s in range(rng.randint(0, 6))
        ]  # fmt: skip
        calls = [
            {"namespace": ns, "model": "openai/gpt-4.1-mini", "key": f"{rng.getrandbits(128):032x}",
             "input_tokens": rng.randint(300, 3000), "output_tokens": rng.randint(50, 600), "cost_usd": 0.0004,
             "latency_s": rng.random() * 4, "cache_hit": rng.random() < 0.3, "attempts": 1, "waited_s": 0.0,
             "error": None, "parts": None, "stage": ns, "priced_usd": 0.0004}
            for ns in ["sut", "sut", "judge"][: rng.randint(2, 3)]
        ]  # fmt: skip
        errored = rng.random() < 0.02
        results.append(
            {
                "nodeid": f"evals/{suite}/{kind}.yaml::{task}[r{repeat}]",
                "task_id": task, "task_version": 1, "suite": suite, "kind": kind, "variant": None,
                "repeat": repeat, "labels": {}, "metadata": {"expert_minutes": 30.0},
                "score": None if errored else score, "pass_threshold": 50.0,
                "passed": None if errored else score >= 50, "outcome": "error" if errored else
                ("passed" if score >= 50 else "failed"),
                "answer": _text(rng, 260), "prompt": prompt,
                "metrics": {"level": 1 + score / 25, "tool_calls": float(len(steps))},
                "judge_levels": {"level": {"openai/gpt-4.1-mini": int(1 + score / 25)}},
                "details": {"trajectory": steps, "note": _text(rng, 12), "cut": {}},
                "judges": [{"judge": "openai/gpt-4.1-mini", "template": f"{suite}/judge.j2", "ok": True,
                            "value": {"reasoning": _text(rng, 140), "score": int(1 + score / 25)}}],
                "error": {"kind": "judge", "message": "no score line"} if errored else None,
                "usage": {"calls": len(calls), "input_tokens": sum(c["input_tokens"] for c in calls),
                          "output_tokens": sum(c["output_tokens"] for c in calls), "cost_usd": 0.0012,
                          "cost_known": True, "cache_hits": 0, "errors": 0, "priced_usd": 0.0012},
                "calls": calls, "latency_s": rng.random() * 30, "worker": "gw0",
            }
        )  # fmt: skip
    return {
        "schema_version": 2,
        "run": {"run_id": "bench", "harness_version": "bench", "started_at": None, "duration_s": 1.0, "git": {},
                "options": {"model": "openai/gpt-4.1-mini", "judge_models": ["openai/gpt-4.1-mini"],
                            "cache_mode": "use"}, "exit_status": 0, "warnings": [], "notice": None},
        "totals": summarize(results),
        "suites": by_suite(results),
        "tables": compute_tables(results),
        "judge_agreement": [],
        "results": results,
    }  # fmt: skip


def best_of(repeats: int, action: Any) -> tuple[float, Any]:
    times, value = [], None
    for _ in range(repeats):
        started = time.perf_counter()
        value = action()
        times.append(time.perf_counter() - started)
    return min(times), value


def browser_times(page_path: Path, floor_path: Path) -> tuple[float, float, float] | None:
    """(load of the report, full layout of the report, load of the floor page) in seconds."""
    if shutil.which("chromium") is None:
        return None
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        return None
    flags = ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking",
             "--disable-component-update", "--disable-sync"]  # fmt: skip
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=shutil.which("chromium"), args=flags)
        page = browser.new_page()
        timings = []
        for path in (page_path, floor_path):
            started = time.perf_counter()
            page.goto(path.as_uri(), wait_until="load", timeout=120_000)
            loaded = time.perf_counter() - started
            page.evaluate("document.body.scrollHeight")  # forces layout
            timings.append((loaded, time.perf_counter() - started))
        browser.close()
    return timings[0][0], timings[0][1], timings[1][0]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--items", type=int, default=5000)
    parser.add_argument("--repeats", type=int, default=3)
    args = parser.parse_args()
    run = synthetic_run(args.items)
    floor_s, data = best_of(args.repeats, lambda: json.dumps(run, ensure_ascii=False))
    render_html(run)  # matplotlib's first import is not the report's cost
    render_s, page = best_of(args.repeats, lambda: render_html(run))
    mb = len(page.encode()) / 1e6
    data_mb = len(data.encode()) / 1e6
    print(f"{args.items} items: report.html {mb:.1f} MB rendered in {render_s:.2f} s")
    print(f"  floor (results.json of the same run): {data_mb:.1f} MB serialised in {floor_s:.2f} s")
    print(f"  render / floor: {render_s / floor_s:.1f}x (target at most 10x); size target under 40 MB")
    with tempfile.TemporaryDirectory() as folder:
        page_path, floor_path = Path(folder) / "report.html", Path(folder) / "results.json.html"
        page_path.write_text(page, encoding="utf-8")
        from html import escape

        # As many bytes of the same data in plain 2,000-character paragraphs: parsing and laying out that
        # much text, with none of the report's structure.
        text = escape(data)[: len(page)]
        paragraphs = "".join(f"<p>{text[i : i + 2000]}</p>" for i in range(0, len(text), 2000))
        floor_path.write_text(f"<!DOCTYPE html><html><body>{paragraphs}</body></html>", encoding="utf-8")
        times = browser_times(page_path, floor_path)
    if times is None:
        print("  browser: skipped (no /usr/bin/chromium or no playwright)")
    else:
        loaded, laid_out, floor_load = times
        print(f"  Chromium: load {loaded:.2f} s, full layout {laid_out:.2f} s (target under 5 s)")
        print(f"  floor (as many bytes of the same text as plain paragraphs): load {floor_load:.2f} s")
    print(f"  median item text: {statistics.median(len(r['answer']) for r in run['results'])} characters of answer")


if __name__ == "__main__":
    main()
