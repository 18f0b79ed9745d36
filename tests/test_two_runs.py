"""Two runs at once on one cache directory pay for each call once (issue 28)."""

from __future__ import annotations

import subprocess

from helpers import Project, judge_rules, sample_answers, stub_args

from harness.testing import StubProcess


def test_two_runs_at_once_on_one_cache_pay_once(project: Project, fresh_stub: StubProcess) -> None:
    fresh_stub.control(answers=sample_answers(), judge_rules=judge_rules(), judge_default={"grade": "incorrect"})
    project.copy_sample()
    alone = project.pytest("evals", *stub_args(fresh_stub), "--cache-mode", "off")
    distinct = fresh_stub.stats()["requests"]
    assert alone.returncode == 1 and distinct >= 30  # the sample's calls, each paid once
    fresh_stub.control(latency_s=0.5, reset_stats=True)
    runs = [
        subprocess.Popen(
            project.command("evals", *stub_args(fresh_stub), "--report-dir", str(project.root / name)),
            cwd=project.root,
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
        )
        for name in ("first", "second")
    ]
    outputs = [run.communicate(timeout=600)[0].decode(errors="replace") for run in runs]
    assert [run.returncode for run in runs] == [1, 1], outputs[0][-2000:] + outputs[1][-2000:]
    assert fresh_stub.stats()["requests"] == distinct  # not twice: each call was made by one run only
