"""--estimate: calls, tokens and dollars before any call is made; from earlier runs where they exist."""

from __future__ import annotations

import json
import re
from typing import Any

from helpers import Project, stub_args


def estimate_line(stdout: str, suite: str) -> list[str]:
    (line,) = [line for line in stdout.splitlines() if line.startswith(f"{suite} ")]
    return line.split()


def test_an_estimate_makes_no_call_and_exits_zero(project: Project, fresh_stub: Any) -> None:
    project.copy_sample()
    prices = project.write(
        "prices.json",
        json.dumps({m: {"input_cost_per_token": 1e-6, "output_cost_per_token": 2e-6}
                    for m in ("openai/stub-sut", "openai/stub-judge")}),
    )  # fmt: skip
    out = project.pytest("evals/sample", *stub_args(fresh_stub), "--estimate", "-n", "2", "--price-file", str(prices))
    assert out.returncode == 0, out.stdout[-2000:]
    assert fresh_stub.stats()["requests"] == 0 and not (project.report_dir / "LATEST").exists()
    fields = estimate_line(out.stdout, "sample")
    items, calls, cached = int(fields[1]), int(fields[2]), int(fields[3])
    assert items == 24 and calls >= 24 and cached == 0
    assert float(fields[6]) > 0 and "24 from defaults" in out.stdout


def test_an_earlier_run_is_the_better_estimate_and_its_cached_calls_are_free(project: Project, fresh_stub: Any) -> None:
    project.copy_sample()
    run = project.pytest("evals/sample", *stub_args(fresh_stub))
    calls = run.run["totals"]["calls"]
    tokens_in = run.run["totals"]["input_tokens"]
    fresh_stub.control(reset_stats=True)
    out = project.pytest("evals/sample", *stub_args(fresh_stub), "--estimate")
    fields = estimate_line(out.stdout, "sample")
    assert int(fields[2]) == calls and int(fields[3]) == calls  # every call is in the cache now
    assert int(fields[4].replace(",", "")) == tokens_in
    assert "24 from earlier runs, 0 from defaults" in out.stdout
    assert re.search(r"no known price for openai/stub-judge, openai/stub-sut", out.stdout)
    assert fresh_stub.stats()["requests"] == 0
    # another system has no earlier run: defaults again
    other = project.pytest("evals/sample", *stub_args(fresh_stub, "--model", "openai/stub-other"), "--estimate")
    assert "0 from earlier runs, 24 from defaults" in other.stdout


def test_the_estimate_breaks_its_totals_down_by_stage(project: Project, fresh_stub: Any) -> None:
    project.copy_sample()
    prices = project.write(
        "prices.json",
        json.dumps({"openai/stub-sut": {"input_cost_per_token": 1e-6, "output_cost_per_token": 2e-6},
                    "openai/stub-judge": {"input_cost_per_token": 3e-6, "output_cost_per_token": 4e-6}}),
    )  # fmt: skip
    run = project.pytest("evals/sample", *stub_args(fresh_stub), "--cache-mode", "off", "--price-file", str(prices))
    by_namespace: dict[str, int] = {}
    for result in run.run["results"]:
        for call in result["calls"]:
            by_namespace[call["namespace"]] = by_namespace.get(call["namespace"], 0) + 1
    out = project.pytest("evals/sample", *stub_args(fresh_stub), "--estimate", "--price-file", str(prices))
    rows = {cells[0]: cells[1:] for cells in (re.split(r"\s{2,}", line.strip()) for line in out.stdout.splitlines())}
    assert "by stage" in rows, out.stdout
    assert int(rows["system under test"][1]) == by_namespace["sut"]
    assert int(rows["judges"][1]) == by_namespace["judge"]
    suite = estimate_line(out.stdout, "sample")
    stage_cost = float(rows["system under test"][5]) + float(rows["judges"][5])
    assert abs(stage_cost - float(suite[6])) < 1e-3 and stage_cost > 0  # nothing cached: every call is paid
