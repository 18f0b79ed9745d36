"""report.html: one self-contained page per run, checked in a real headless Chromium (Debian's package)
for console errors, network requests, its sections and a non-blank rendering; text from the system under
test stays text; `harness report RUN --html` rebuilds the same page."""

from __future__ import annotations

import io
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from helpers import CHROMIUM, CHROMIUM_FLAGS, Project, stub_args

from harness.report.aggregate import by_suite, summarize
from harness.report.html import render_html

HOSTILE = (
    '</pre></details><script>document.title="pwned"</script><img src="http://127.0.0.1:9/leak.png">'
    "<style>body{display:none}</style>Paris"
)


def item(n: int, answer: str, **extra: Any) -> dict[str, Any]:
    return {
        "nodeid": f"evals/s/t.yaml::t{n}", "task_id": f"t{n}", "task_version": 1, "suite": "s", "kind": "qa",
        "variant": None, "repeat": 0, "labels": {}, "metadata": {}, "score": 60.0, "pass_threshold": 50.0,
        "passed": True, "outcome": "passed", "answer": answer, "prompt": f"Question {n}?", "metrics": {},
        "judge_levels": {}, "details": {}, "judges": [], "error": None,
        "usage": {"calls": 1, "input_tokens": 10, "output_tokens": 5, "cost_usd": 0.0, "cost_known": True,
                  "cache_hits": 0, "errors": 0}, "calls": [], "latency_s": 0.5, **extra,
    }  # fmt: skip


def run_of(results: list[dict[str, Any]]) -> dict[str, Any]:
    return {
        "run": {"run_id": "r1", "options": {"model": "openai/x", "judge_models": ["openai/j"], "cache_mode": "use"},
                "warnings": []},
        "totals": summarize(results), "suites": by_suite(results), "tables": [], "judge_agreement": [],
        "results": results,
    }  # fmt: skip


def test_text_from_the_system_under_test_is_shown_never_interpreted() -> None:
    judges = [{"judge": "j", "template": "t", "ok": True, "value": {"reasoning": "<b>bold?</b>", "score": 3}}]
    page = render_html(run_of([item(1, HOSTILE, judges=judges)]))
    assert "<script>document.title" not in page and '<img src="http://' not in page
    assert "&lt;script&gt;document.title=&quot;pwned&quot;&lt;/script&gt;" in page
    assert "&lt;b&gt;bold?&lt;/b&gt;" in page
    assert page.count("<script") == 0  # the page itself needs no JavaScript
    assert "Content-Security-Policy" in page and "default-src 'none'" in page


def test_a_large_run_keeps_each_items_texts_bounded() -> None:
    huge = "word " * 20_000  # 100,000 characters per answer
    results = [item(n, huge, prompt="the same long prompt " * 2000) for n in range(600)]
    page = render_html(run_of(results))
    assert len(page) < 600 * 6_000  # capped per item (the whole texts stay in results.json)
    assert "more characters in results.json" in page
    assert page.count("<h4>Prompt</h4><pre>") == 1 and page.count('The same as <a href="#item-1">') == 599
    assert page.count('<details class="item ') == 600


@pytest.fixture
def report_with_baseline(project: Project, fresh_stub: Any) -> Path:
    """A real run of the sample against a saved baseline, one answer of it hostile HTML."""
    project.copy_sample()
    baseline = project.root / "baseline.json"
    answers = {"17 + 25": "42", "capital of France": "Paris", "capital of Japan": "Tokyo", "Kenya": "Africa"}
    fresh_stub.control(answers=answers, judge_default={"grade": "correct", "reasoning": "fine"})
    args = ("evals/sample", *stub_args(fresh_stub), "--cache-mode", "refresh")
    project.pytest(*args, "--save-baseline", str(baseline))
    judged = {"grade": "correct", "reasoning": "fine"}
    fresh_stub.control(answers={**answers, "capital of France": HOSTILE}, judge_default=judged)
    out = project.pytest(*args, "--baseline", str(baseline), "--fail-on-regression")
    page = out.report_dir / out.run["run"]["run_id"] / "report.html"
    assert page.is_file() and f"harness report: {page}" in out.stdout
    return page


def test_the_report_is_rebuilt_identically_from_results_json(report_with_baseline: Path, tmp_path: Path) -> None:
    rebuilt = tmp_path / "again.html"
    done = subprocess.run(
        [sys.executable, "-m", "harness.cli", "report", str(report_with_baseline.parent), "--html", "--out",
         str(rebuilt)],
        capture_output=True, text=True,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert rebuilt.read_bytes() == report_with_baseline.read_bytes()
    refused = subprocess.run(
        [sys.executable, "-m", "harness.cli", "report", str(tmp_path), "--html"], capture_output=True, text=True
    )
    assert refused.returncode != 0 and "does not exist" in str(refused.stderr)


def test_the_report_opens_in_chromium_offline_with_every_section(report_with_baseline: Path, tmp_path: Path) -> None:
    if CHROMIUM is None:
        reason = "Debian's chromium is not installed (apt-get install chromium); .ci/run installs it"
        if os.environ.get("HARNESS_REQUIRE_CHROMIUM"):
            pytest.fail(f"{reason}, and HARNESS_REQUIRE_CHROMIUM is set")
        pytest.skip(reason)
    from PIL import Image
    from playwright.sync_api import sync_playwright

    url = report_with_baseline.as_uri()
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_FLAGS)
        page = browser.new_page(viewport={"width": 1280, "height": 900})
        problems: list[str] = []
        requests: list[str] = []
        page.on("console", lambda m: problems.append(f"{m.type}: {m.text}") if m.type in ("error", "warning") else None)
        page.on("pageerror", lambda e: problems.append(f"pageerror: {e}"))
        page.on("request", lambda r: requests.append(r.url))
        page.goto(url, wait_until="load")
        headings = page.locator("section > h2").all_inner_texts()
        for expected in (
            "Scores",
            "Compared with the baseline",
            "Cost against score",
            "Slowest and most expensive items",
        ):
            assert expected in headings, headings
        assert any(h.startswith("Items (") for h in headings)
        assert page.title().startswith("harness run ")
        assert page.locator("#comparison svg").count() == 1 and page.locator("#scores svg").count() == 1
        # the drill-down: open the suite, then the item whose answer is hostile HTML
        suite = page.locator("details.suite").first
        if suite.get_attribute("open") is None:
            suite.locator("summary").first.click()
        hostile = page.locator("details.item", has_text="capital of France").first
        hostile.locator("summary").click()
        shown = hostile.inner_text()
        assert "<script>document.title" in shown and "Prompt" in shown and "Answer" in shown and "Calls (" in shown
        assert page.title().startswith("harness run ")  # the script stayed text
        png = page.screenshot(full_page=True)
        browser.close()
    assert problems == [], problems
    assert requests == [url], requests  # the page itself, nothing else
    image = Image.open(io.BytesIO(png)).convert("L")
    histogram = image.histogram()
    assert image.size[0] == 1280 and image.size[1] > 900
    assert max(histogram) / sum(histogram) < 0.97  # not one flat colour
    assert sum(1 for count in histogram if count) > 20  # text, rules and charts, not a blank page


def test_no_html_skips_the_page_and_the_cli_builds_it_later(project: Project, stub: Any) -> None:
    project.copy_sample()
    out = project.pytest("evals/sample", *stub_args(stub), "-k", "capital", "--no-html")
    folder = out.report_dir / out.run["run"]["run_id"]
    assert (folder / "results.json").is_file() and not (folder / "report.html").exists()
    built = subprocess.run(
        [sys.executable, "-m", "harness.cli", "report", str(folder), "--html"], capture_output=True, text=True
    )
    assert built.returncode == 0 and (folder / "report.html").is_file()


WIDTH_CHECKS = """() => {
  const out = {overflow: document.documentElement.scrollWidth - window.innerWidth, clipped: [], small: [],
               hidden_cells: [], texts: 0};
  for (const svg of document.querySelectorAll('.chart svg')) {
    const box = svg.getBoundingClientRect();
    for (const text of svg.querySelectorAll('text')) {
      const r = text.getBoundingClientRect();
      if (!r.width) continue;
      out.texts += 1;
      if (r.left < box.left - 1 || r.right > box.right + 1 || r.top < box.top - 1 || r.bottom > box.bottom + 1)
        out.clipped.push(text.textContent);
      if (r.height < 9) out.small.push(text.textContent + ' ' + r.height.toFixed(1));
    }
  }
  for (const td of document.querySelectorAll('table.cards td')) {
    const r = td.getBoundingClientRect();
    if (r.width && r.right > window.innerWidth + 1) out.hidden_cells.push(td.dataset.label + ': ' + td.textContent);
  }
  return out;
}"""


@pytest.mark.parametrize("width", [390, 1400])
def test_the_report_is_legible_at_390_and_1400_px(report_with_baseline: Path, width: int) -> None:
    """In chromium: no sideways overflow, no chart text clipped by its chart or smaller than 9 px on screen,
    and at phone width every table cell (the item, its score, the reason) within the screen."""
    if CHROMIUM is None:
        reason = "Debian's chromium is not installed (apt-get install chromium); .ci/run installs it"
        if os.environ.get("HARNESS_REQUIRE_CHROMIUM"):
            pytest.fail(f"{reason}, and HARNESS_REQUIRE_CHROMIUM is set")
        pytest.skip(reason)
    from PIL import Image
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_FLAGS)
        page = browser.new_page(viewport={"width": width, "height": 900})
        page.goto(report_with_baseline.as_uri(), wait_until="load")
        found = page.evaluate(WIDTH_CHECKS)
        png = page.screenshot(full_page=True)
        first_failed = page.locator("#failed details.item").first.inner_text() if width == 390 else ""
        perfect = report_with_baseline.parent / "perfect.html"  # a suite at 100: its label at the chart's edge
        perfect.write_text(render_html(run_of([item(n, "Paris", score=100.0) for n in range(3)])))
        page.goto(perfect.as_uri(), wait_until="load")
        edge = page.evaluate(WIDTH_CHECKS)
        browser.close()
    assert edge["texts"] >= 5 and edge["clipped"] == [] and edge["overflow"] <= 0, edge
    assert found["texts"] >= 20, found
    assert found["overflow"] <= 0, f"the page is {found['overflow']} px wider than the screen"
    assert found["clipped"] == [], found["clipped"]
    assert found["small"] == [], found["small"]
    assert found["hidden_cells"] == [], found["hidden_cells"][:10]
    assert Image.open(io.BytesIO(png)).size[0] == width  # the screenshot of the whole page: no wider
    if width == 390:
        assert "score" in first_failed and "Expected" in first_failed and "Answer" in first_failed
